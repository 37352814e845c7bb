#!/bin/sh
# Every finding of the other reports re-checked with the search bot (`search`, default
# budget) seated in the field: the reports' own commands with one seat given to search.
# Run from the repository root:  sh reports/search-in-the-field/regenerate.sh
set -eu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/draftsim-target}"
D=reports/search-in-the-field/data
# Folders written before draftsim recorded provenance: --force replaces only a folder
# with its record, so these go first (the script writes every one of them again).
for d in "$D"/*/; do [ -f "$d/provenance.json" ] || rm -rf "$d"; done
cargo build --release -q
draftsim() { "$CARGO_TARGET_DIR/release/draftsim" "$@"; }
mkdir -p "$D"
q="--quiet --force"

# Seven Card Draft baseline, hate-drafting, search (hate weight): search in place of random.
draftsim run --seats greedy,hate,tight,search --rounds 12000 $q --out "$D/scd-baseline" > /dev/null
draftsim run --players 4 --seats hate,greedy,hate,search --rounds 16000 $q --out "$D/scd-hate-4p" > /dev/null
draftsim run --players 6 --seats hate,greedy,hate,greedy,hate,search --rounds 9000 $q --out "$D/scd-hate-6p" > /dev/null
draftsim run --players 4 --seats 'hate{draft.weight=1},greedy,hate{draft.weight=1},search' --rounds 12000 $q \
  --out "$D/scd-hate-weight-1" > /dev/null

# Card analytics under deuces-with-face (its seed), search in place of tight / loose-aggressive.
R="--rules reports/card-analytics/deuces-with-face.toml --seed 15 --cards"
draftsim run $R --players 3 --seats greedy,hate,search --rounds 6000 $q --out "$D/cards-3p" > /dev/null
draftsim run $R --players 6 --seats greedy,hate,tight,random,search,wild-hunter --rounds 6000 $q \
  --out "$D/cards-6p" > /dev/null

# Conditional wilds: search in place of tight, random kept for the skill gap.
draftsim sweep --set wild=none,deuces,deuces-with-face,last-pick,deuces-with-face+last-pick \
  --seats wild-hunter,greedy,search,random --rounds 3000 $q --out "$D/wilds-sweep" > /dev/null
draftsim run --rules reports/conditional-wilds/deuces-with-face.toml --seats wild-hunter,greedy,search,random \
  --rounds 8000 $q --out "$D/wilds-deuces-with-face" > /dev/null

# Sevens (search report's tuning findings): search in place of greedy.
draftsim sweep --game sevens --seats tight,bluffer,search,random --set trade_timing=first-turn,any-turn \
  --set raise_cap=3,5 --rounds 8000 $q --out "$D/sevens-sweep" > /dev/null

# Seven Poker: search in place of bluffer; bluffing against search.
draftsim run --game seven-poker --seats adaptive,colour,rainbow,search --rounds 800 $q --out "$D/seven-poker" > /dev/null
draftsim compare --game seven-poker --players 4 --strategies search,bluffer,reports/seven-poker/honest-stayer.toml \
  --rounds 300 $q --out "$D/seven-poker-bluff" > /dev/null

# Winston + Crazier Eights: search against value, seats rotated, under each starter and format.
draftsim sweep --game winston-crazier-eights --seats search,value --set starter=second-drafter,first-drafter,random \
  --set ability_cards=14,0 --rounds 300 $q --out "$D/winston-starter" > /dev/null
draftsim sweep --game winston-crazier-eights --seats search,value --set games=1,3 --rounds 300 $q \
  --out "$D/winston-games" > /dev/null
draftsim sweep --game winston-crazier-eights --rules reports/winston-crazier-eights/best-of-3.toml --seats search,value \
  --set later_starter=loser,winner,alternate --rounds 200 $q --out "$D/winston-later-starter" > /dev/null
draftsim compare --game winston-crazier-eights --rules reports/winston-crazier-eights/no-abilities.toml --players 2 \
  --strategies search,value,colour,hate --rounds 300 $q --out "$D/winston-no-abilities" > /dev/null

# Live-Draft: search against curve; the skill gap per method against random; hate against search.
draftsim run --game live-draft --seats search,curve --rounds 2000 $q --out "$D/live-draft" > /dev/null
draftsim sweep --game live-draft --seats search,random --set method=tableau,pipeline,rummy,blind --rounds 500 $q \
  --out "$D/live-draft-methods" > /dev/null
draftsim sweep --game live-draft --seats hate,search --set method=tableau,pipeline,rummy --rounds 300 $q \
  --out "$D/live-draft-hate" > /dev/null
draftsim sweep --game live-draft --seats best-card,search --set method=tableau,pipeline,rummy --rounds 300 $q \
  --out "$D/live-draft-best-card" > /dev/null

# shellcheck disable=SC2046
draftsim report $(ls -d "$D"/*/) --out reports/search-in-the-field/.build --force \
  --notes reports/search-in-the-field/notes.md --regenerate "sh reports/search-in-the-field/regenerate.sh" --quiet
rm -f reports/search-in-the-field/*.svg && cp reports/search-in-the-field/.build/* reports/search-in-the-field/ \
  && rm -rf reports/search-in-the-field/.build
