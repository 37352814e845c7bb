#!/bin/sh
# Winston + Crazier Eights: is there a first-pick advantage, does colour commitment beat
# value drafting, does hate-drafting pay when every denied card hurts the only opponent?
# Each draft finding is also played without the abstract abilities (no-abilities.toml).
# Run from the repository root:  sh reports/winston-crazier-eights/regenerate.sh
set -eu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/draftsim-target}"
D=reports/winston-crazier-eights
# Folders written before draftsim recorded provenance: --force replaces only a folder
# with its record, so these go first (the script writes every one of them again).
for d in "$D"/data/*/; do [ -f "$d/provenance.json" ] || rm -rf "$d"; done
draftsim() { cargo run --release -q -- "$@"; }
STRATEGIES="value,colour,hate,$D/hate-strong.toml,forge,first,random"
draftsim run --game winston-crazier-eights --seats hate,value --rounds 400000 --quiet --out "$D/data/run" --force
draftsim compare --game winston-crazier-eights --players 2 --rounds 40000 \
  --strategies "$STRATEGIES" --out "$D/data/compare" --force > /dev/null
draftsim compare --game winston-crazier-eights --rules "$D/no-abilities.toml" --players 2 --rounds 40000 \
  --strategies "$STRATEGIES" --out "$D/data/compare-no-abilities" --force > /dev/null
draftsim sweep --game winston-crazier-eights --seats hate,value --rounds 200000 \
  --set ability_cards=14,0 --out "$D/data/abilities" --force > /dev/null
draftsim sweep --game winston-crazier-eights --seats value,value --rounds 200000 \
  --set starter=second-drafter,first-drafter,random --set ability_cards=14,0 --out "$D/data/starter" --force > /dev/null
draftsim sweep --game winston-crazier-eights --seats value,colour --rounds 200000 \
  --set games=1,3 --set ability_cards=14,0 --out "$D/data/games" --force > /dev/null
draftsim sweep --game winston-crazier-eights --rules "$D/best-of-3.toml" --seats value,value --rounds 200000 \
  --set later_starter=loser,winner,alternate --out "$D/data/later-starter" --force > /dev/null
# The last three folders, played by reports/search-bot/regenerate.sh: the search bot
# against each preset at its default budget and a lower one, and its skill ladder.
draftsim report "$D/data/run" "$D/data/compare" "$D/data/compare-no-abilities" "$D/data/abilities" \
  "$D/data/starter" "$D/data/games" "$D/data/later-starter" \
  reports/search-bot/data/winston-crazier-eights-strength-default reports/search-bot/data/winston-crazier-eights-strength-25 \
  reports/search-bot/data/winston-crazier-eights-ladder \
  --out "$D/.build" --force --notes "$D/notes.md" --regenerate "sh $D/regenerate.sh"
# Charts are numbered by section: drop the old ones so none is left stale.
rm -f "$D"/[0-9]-*.svg && cp "$D"/.build/* "$D"/ && rm -rf "$D/.build"
