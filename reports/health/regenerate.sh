#!/bin/sh
# The health card of every game's default rules (default seats with one random seat, so
# the skill gap is measured), its skill depth from the search-bot report's ladder, and the
# one-step sensitivity of each: every other value of each choice key and each numeric key
# a step down and up, on the base's deals.
# Run from the repository root:  sh reports/health/regenerate.sh
set -eu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/draftsim-target}"
D=reports/health
cargo build --release -q
draftsim() { "$CARGO_TARGET_DIR/release/draftsim" "$@"; }
dirs=""
for game in seven-card-draft sevens seven-poker winston-crazier-eights live-draft; do
  draftsim run --game "$game" --rounds 200000 --quiet --out "$D/data/$game-run" --force > /dev/null
  draftsim sensitivity --game "$game" --rounds 40000 --quiet --out "$D/data/$game-sensitivity" --force > /dev/null
  dirs="$dirs $D/data/$game-run $D/data/$game-sensitivity"
  # The skill ladder of the same default rules (played by reports/search-bot/regenerate.sh):
  # the report adds its skill depth to the run's health card.
  dirs="$dirs reports/search-bot/data/$game-ladder"
done
# Sevens with its trained player in random's seat (quoted in the notes, not charted).
draftsim run --game sevens --seats tight,bluffer,greedy,cfr --rounds 200000 --quiet \
  --out "$D/data/sevens-run-strong" --force > /dev/null
# shellcheck disable=SC2086
draftsim report $dirs --out "$D/.build" --force --notes "$D/notes.md" --regenerate "sh $D/regenerate.sh" \
  --require 'timeouts<=0.01' --require 'completion>=0.75' --quiet
rm -f "$D"/*.svg && cp "$D"/.build/* "$D"/ && rm -rf "$D/.build"
