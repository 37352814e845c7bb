#!/bin/sh
# Two designer questions answered by `draftsim versus`: does making deuces wild change
# Seven Card Draft, and does a best of three change Winston + Crazier Eights? Each rule set
# against the game's defaults on the same deals, the verdicts kept in data/deuces-wild.txt
# and data/best-of-3.txt.
# Run from the repository root:  sh reports/versus/regenerate.sh
set -eu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/draftsim-target}"
D=reports/versus
cargo build --release -q
draftsim() { "$CARGO_TARGET_DIR/release/draftsim" "$@"; }
draftsim versus --game seven-card-draft defaults "$D/rules/deuces-wild.toml" --rounds 40000 --quiet \
  --out "$D/data/deuces-wild" --force > "$D/data/deuces-wild.txt"
draftsim versus --game winston-crazier-eights defaults "$D/rules/best-of-3.toml" --rounds 40000 --quiet \
  --out "$D/data/best-of-3" --force > "$D/data/best-of-3.txt"
draftsim report "$D/data/deuces-wild" "$D/data/best-of-3" --out "$D/.build" --force --notes "$D/notes.md" \
  --regenerate "sh $D/regenerate.sh" --quiet
rm -f "$D"/*.svg && cp "$D"/.build/* "$D"/ && rm -rf "$D/.build"
