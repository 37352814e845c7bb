#!/bin/sh
# Regenerates this report; run from the repository root:
#   sh reports/seven-card-draft-baseline/regenerate.sh
set -eu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/draftsim-target}"
D=reports/seven-card-draft-baseline
draftsim() { cargo run --release -q -- "$@"; }
draftsim run --quiet --out "$D/data/run" --force
draftsim report "$D/data/run" --out "$D/.build" --force --notes "$D/notes.md" --regenerate "sh $D/regenerate.sh"
cp "$D"/.build/* "$D"/ && rm -rf "$D/.build"
