#!/bin/sh
# Live-Draft: which drawing method gives the smallest first-player advantage and the
# biggest skill gap, and how much do rummy's hidden hands change hate-picking?
# Run from the repository root:  sh reports/live-draft/regenerate.sh
set -eu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/draftsim-target}"
D=reports/live-draft
# Folders written before draftsim recorded provenance: --force replaces only a folder
# with its record, so these go first (the script writes every one of them again).
for d in "$D"/data/*/; do [ -f "$d/provenance.json" ] || rm -rf "$d"; done
draftsim() { cargo run --release -q -- "$@"; }
draftsim run --game live-draft --rounds 200000 --quiet --out "$D/data/run" --force
draftsim sweep --game live-draft --seats best-card,random --rounds 100000 \
  --set method=tableau,pipeline,rummy,blind --set opening=quick,careful --out "$D/data/methods" --force > /dev/null
draftsim sweep --game live-draft --seats hate,best-card --rounds 100000 \
  --set method=tableau,pipeline,rummy,blind --out "$D/data/hate" --force > /dev/null
draftsim compare --game live-draft --players 2 --rounds 10000 \
  --strategies best-card,curve,colour,hate,aggro,cautious,random --out "$D/data/compare" --force > /dev/null
# The default run under the earlier combat and cap (earlier-rules.toml: attackers never
# tap, 60 turns draw), and the four combinations of the two, to show what each moved.
draftsim run --game live-draft --rules "$D/earlier-rules.toml" --rounds 200000 --quiet \
  --out "$D/data/earlier" --force > /dev/null
draftsim sweep --game live-draft --seats best-card,curve --rounds 100000 \
  --set vigilance=true,false --set max_turns=60,0 --out "$D/data/moved" --force > /dev/null
# The last three folders, played by reports/search-bot/regenerate.sh: the search bot
# against each preset at its default budget and a lower one, and its skill ladder.
draftsim report "$D/data/run" "$D/data/methods" "$D/data/hate" "$D/data/compare" "$D/data/earlier" \
  "$D/data/moved" \
  reports/search-bot/data/live-draft-strength-default reports/search-bot/data/live-draft-strength-25 \
  reports/search-bot/data/live-draft-ladder \
  --out "$D/.build" --force --notes "$D/notes.md" --regenerate "sh $D/regenerate.sh"
rm -f "$D"/*.svg && cp "$D"/.build/* "$D"/ && rm -rf "$D/.build"
