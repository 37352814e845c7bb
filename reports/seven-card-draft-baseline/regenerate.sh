#!/bin/sh
# Regenerates this report; run from the repository root:
#   sh reports/seven-card-draft-baseline/regenerate.sh
set -eu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/draftsim-target}"
D=reports/seven-card-draft-baseline
draftsim() { cargo run --release -q -- "$@"; }
draftsim run --quiet --out "$D/data/run" --force
draftsim calibrate --seats greedy --rounds 100000 --quiet --out "$D/data/calibration" --force
# The findings re-judged with a strong player in random's seat: the trained policy, then
# the fitted heuristic (quoted in the notes; the page charts the default run).
draftsim run --seats greedy,hate,tight,cfr --rounds 1000000 --quiet --out "$D/data/strong-cfr" --force
draftsim run --seats greedy,hate,tight,calibrated --rounds 1000000 --quiet --out "$D/data/strong-calibrated" --force
# The last three folders, played by reports/search-bot/regenerate.sh: the search bot
# against each preset at its default budget and a lower one, and its skill ladder.
draftsim report "$D/data/run" "$D/data/calibration" reports/search-bot/data/seven-card-draft-strength-default reports/search-bot/data/seven-card-draft-strength-100 \
  reports/search-bot/data/seven-card-draft-ladder \
  --out "$D/.build" --force --notes "$D/notes.md" --regenerate "sh $D/regenerate.sh"
rm -f "$D"/*.svg && cp "$D"/.build/* "$D"/ && rm -rf "$D/.build"
