#!/bin/sh
# Seven Poker: which plan wins, does bluffing pay, does the ranking follow rarity?
# Run from the repository root:  sh reports/seven-poker/regenerate.sh
set -eu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/draftsim-target}"
D=reports/seven-poker
# Folders written before draftsim recorded provenance: --force replaces only a folder
# with its record, so these go first (the script writes every one of them again).
for d in "$D"/data/*/; do [ -f "$d/provenance.json" ] || rm -rf "$d"; done
draftsim() { cargo run --release -q -- "$@"; }
draftsim run --game seven-poker --rounds 200000 --quiet --out "$D/data/run" --force
draftsim compare --game seven-poker --strategies adaptive,rainbow,colour,bluffer,$D/honest-stayer.toml,fold-to-keep,pat,random \
  --players 4 --rounds 40000 --out "$D/data/compare" --force > /dev/null
draftsim sweep --game seven-poker --set players=3,4,5 --seats adaptive,bluffer,colour,random \
  --rounds 100000 --out "$D/data/sweep" --force > /dev/null
# The findings re-judged with the trained player seated (quoted in the notes; the page
# charts the default mix): in bluffer's seat, then in colour's beside bluffer, then beside
# the honest stayer.
draftsim run --game seven-poker --seats cfr,adaptive,colour,rainbow --rounds 200000 --quiet --out "$D/data/strong-cfr" --force
draftsim run --game seven-poker --seats adaptive,cfr,rainbow,bluffer --rounds 200000 --quiet \
  --out "$D/data/strong-cfr-bluffer" --force
draftsim run --game seven-poker --seats adaptive,cfr,rainbow,$D/honest-stayer.toml --rounds 200000 --quiet \
  --out "$D/data/strong-cfr-honest" --force
# The last three folders, played by reports/search-bot/regenerate.sh: the search bot
# against each preset at its default budget and a lower one, and its skill ladder.
draftsim report "$D/data/run" "$D/data/compare" "$D/data/sweep" \
  reports/search-bot/data/seven-poker-strength-default reports/search-bot/data/seven-poker-strength-25 \
  reports/search-bot/data/seven-poker-ladder \
  --out "$D/.build" --force --notes "$D/notes.md" --regenerate "sh $D/regenerate.sh"
rm -f "$D"/*.svg && cp "$D"/.build/* "$D"/ && rm -rf "$D/.build"
