#!/bin/sh
# How does each wild rule change category rarity and the skill gap? And does a wild-aware
# drafter beat plain greedy under each rule? Run from the repository root:
#   sh reports/conditional-wilds/regenerate.sh
set -eu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/draftsim-target}"
D=reports/conditional-wilds
cargo build --release -q
draftsim() { "$CARGO_TARGET_DIR/release/draftsim" "$@"; }
draftsim sweep --set wild=none,deuces,deuces-with-face,last-pick,deuces-with-face+last-pick \
  --seats wild-hunter,greedy,tight,random --rounds 400000 --out "$D/data/sweep" --force
draftsim run --seats wild-hunter,greedy,tight,random --rules "$D/deuces-with-face.toml" \
  --rounds 400000 --quiet --out "$D/data/run-deuces-with-face" --force
draftsim report "$D/data/sweep" "$D/data/run-deuces-with-face" \
  --out "$D/.build" --force --notes "$D/notes.md" --regenerate "sh $D/regenerate.sh"
rm -f "$D"/*.svg && cp "$D"/.build/* "$D"/ && rm -rf "$D/.build"
