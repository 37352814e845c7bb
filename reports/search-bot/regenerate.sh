#!/bin/sh
# The search bot (ISMCTS from the rules alone) in every game: its strength against each
# heuristic preset at two budgets (compare at the game's default player count, seats
# A, B, A, B, ...), and the skill ladder of each game's default rules.
# Run from the repository root:  sh reports/search-bot/regenerate.sh
set -eu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/draftsim-target}"
D=reports/search-bot
draftsim() { cargo run --release -q -- "$@"; }
# game, players, its heuristic presets, rounds per pair, low budget, ladder budgets, ladder rounds
while read -r game players presets rounds low budgets ladder_rounds; do
  for budget in default "$low"; do
    seat=search
    [ "$budget" = default ] || seat="search{iterations=$budget}"
    draftsim compare --game "$game" --players "$players" --strategies "$seat,$presets" \
      --rounds "$rounds" --quiet --out "$D/data/$game-strength-$budget" --force
  done
  draftsim ladder --game "$game" --budgets "$budgets" --rounds "$ladder_rounds" --quiet \
    --out "$D/data/$game-ladder" --force
done <<'GAMES'
sevens 4 tight,bluffer,greedy,exact,no-trade,random 2000 100 1,4,16,64,256,1024 2000
GAMES
dirs=$(for g in sevens; do printf '%s ' "$D/data/$g-strength-default" "$D/data/$g-strength-100" "$D/data/$g-ladder"; done)
# shellcheck disable=SC2086
draftsim report $dirs --out "$D/.build" --force --notes "$D/notes.md" --regenerate "sh $D/regenerate.sh" --quiet
rm -f "$D"/*.svg && cp "$D"/.build/* "$D"/ && rm -rf "$D/.build"
