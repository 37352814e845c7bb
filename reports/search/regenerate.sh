#!/bin/sh
# Search findings: the best hate weight at 4 and 6 players in Seven Card Draft (exploit
# against a greedy field, and a sweep over the weight), and Sevens tuned for a smaller
# seat advantage at no loss of skill gap (tune, with the default evaluated the same way).
# Run from the repository root:  sh reports/search/regenerate.sh
set -eu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/draftsim-target}"
D=reports/search
cargo build --release -q
draftsim() { "$CARGO_TARGET_DIR/release/draftsim" "$@"; }
for n in 4 6; do
  draftsim exploit --preset hate --field greedy --players "$n" --param draft.weight=0.0..1.5 \
    --rounds 4000000 --quiet --out "$D/data/hate-weight-$n-players" --force
done
draftsim sweep --seats hate,greedy --set players=4,6 --vary hate.draft.weight=0,0.01,0.02,0.05,0.1,0.25,1 \
  --rounds 300000 --quiet --out "$D/data/hate-weight-sweep" --force
draftsim tune --game sevens --space "$D/sevens-space.toml" --rounds 20000000 --quiet \
  --out "$D/data/sevens-tuned" --force
draftsim tune --game sevens --space "$D/sevens-default.toml" --rounds 20000000 --candidates 2 --quiet \
  --out "$D/data/sevens-default" --force
draftsim report "$D/data/hate-weight-4-players" "$D/data/hate-weight-6-players" "$D/data/hate-weight-sweep" \
  "$D/data/sevens-tuned" "$D/data/sevens-default" \
  --out "$D/.build" --force --notes "$D/notes.md" --regenerate "sh $D/regenerate.sh" --quiet
rm -f "$D"/*.svg && cp "$D"/.build/* "$D"/ && rm -rf "$D/.build"
