#!/bin/sh
# Seven Card Draft with deuces-with-face: do the default bots over- or under-draft deuces
# and face cards relative to their win share, and does it change at 3 against 6 players?
# Card analytics (--cards) on the default mix of each table size, same rules, same seed.
# Run from the repository root:  sh reports/card-analytics/regenerate.sh
set -eu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/draftsim-target}"
D=reports/card-analytics
cargo build --release -q
draftsim() { "$CARGO_TARGET_DIR/release/draftsim" "$@"; }
for n in 3 6; do
  draftsim run --rules "$D/deuces-with-face.toml" --players "$n" --rounds 600000 --seed 15 \
    --cards --quiet --format csv --out "$D/data/run-$n-players" --force
done
draftsim report "$D/data/run-3-players" "$D/data/run-6-players" \
  --out "$D/.build" --force --notes "$D/notes.md" --regenerate "sh $D/regenerate.sh"
rm -f "$D"/*.svg && cp "$D"/.build/* "$D"/ && rm -rf "$D/.build"
