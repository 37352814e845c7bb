#!/bin/sh
# The search bot (each game's `search` preset) in every game: its strength against each
# heuristic preset at two budgets (compare at the game's default player count, seats
# A, B, A, B, ...), and the skill ladder of each game's default rules; for Sevens also the
# search with opponents modelled by a preset, and ladders under other rules.
# Run from the repository root:  sh reports/search-bot/regenerate.sh
set -eu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/draftsim-target}"
D=reports/search-bot
# Folders written before draftsim recorded provenance: --force replaces only a folder
# with its record, so these go first (the script writes every one of them again).
for d in "$D"/data/*/; do [ -f "$d/provenance.json" ] || rm -rf "$d"; done
cargo build --release -q
draftsim() { "$CARGO_TARGET_DIR/release/draftsim" "$@"; }
dirs=""
# game, players, its heuristic presets, rounds per pair, low budget, ladder budgets, ladder rounds
while read -r game players presets rounds low budgets ladder_rounds; do
  for budget in default "$low"; do
    seat=search
    [ "$budget" = default ] || seat="search{iterations=$budget}"
    draftsim compare --game "$game" --players "$players" --strategies "$seat,$presets" \
      --rounds "$rounds" --quiet --out "$D/data/$game-strength-$budget" --force > /dev/null
    dirs="$dirs $D/data/$game-strength-$budget"
  done
  draftsim ladder --game "$game" --budgets "$budgets" --rounds "$ladder_rounds" --quiet \
    --out "$D/data/$game-ladder" --force > /dev/null
  dirs="$dirs $D/data/$game-ladder"
done <<'GAMES'
sevens 4 tight,bluffer,greedy,exact,no-trade,random 2000 100 1,4,16,64,256,1024 2000
seven-card-draft 4 greedy,hate,tight,loose-aggressive,late-folder,bluffer,random 400 100 1,4,16,64,256 400
seven-poker 4 adaptive,colour,rainbow,bluffer,fold-to-keep,pat,random 200 25 1,4,16,64,256 200
winston-crazier-eights 2 value,colour,hate,forge,first,random 300 25 1,4,16,64,256 300
live-draft 2 best-card,curve,colour,hate,aggro,cautious,random 300 25 1,4,16,64,256 300
GAMES
# Sevens: the search of every move to the end (the preset before it searched one step
# deep), with opponents modelled by tight inside the tree, against the same presets.
draftsim compare --game sevens --players 4 \
  --strategies 'search{rollout=tight;opponents=rollout;worlds=16;particles=0;depth=0;margin=0;mismatch=0.05},tight,bluffer,greedy,exact,random' \
  --rounds 2000 --quiet --out "$D/data/sevens-strength-informed" --force > /dev/null
dirs="$dirs $D/data/sevens-strength-informed"
# Sevens: the search against tight alone on more deals (quoted in the notes, not charted).
draftsim run --game sevens --seats search,tight,search,tight --rounds 16032 --quiet \
  --out "$D/data/sevens-search-tight" --force > /dev/null
# Sevens: the ladder under other rules (one raise per hand; lowest total wins when all bust).
for variant in raise-cap-1 lowest-wins; do
  draftsim ladder --game sevens --rules "$D/sevens-$variant.toml" --rounds 2000 --quiet \
    --out "$D/data/sevens-ladder-$variant" --force > /dev/null
  dirs="$dirs $D/data/sevens-ladder-$variant"
done
# shellcheck disable=SC2086
draftsim report $dirs --out "$D/.build" --force --notes "$D/notes.md" --regenerate "sh $D/regenerate.sh" --quiet
rm -f "$D"/*.svg && cp "$D"/.build/* "$D"/ && rm -rf "$D/.build"
