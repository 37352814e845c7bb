#!/bin/sh
# The trained players (the `cfr` presets) against every other player: paired differences
# in chips per round on the same deals, seats rotated, at the default table (mixed, and
# A,B,A,B against each player) and heads-up, the search bot heads-up against each preset,
# a lower bound on each heads-up policy's exploitability by play, and how fast a table of
# trained players plays.
# Run from the repository root:  sh reports/trained-players/regenerate.sh
set -eu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/draftsim-target}"
D=reports/trained-players/data
cargo build --release -q
draftsim() { "$CARGO_TARGET_DIR/release/draftsim" "$@"; }
# name, game, seats, rounds
while read -r name game seats rounds; do
  draftsim run --game "$game" --seats "$seats" --rounds "$rounds" --quiet --out "$D/$name" --force > /dev/null
done <<'RUNS'
scd-table seven-card-draft cfr,tight,greedy,loose-aggressive 20000
scd-table-search seven-card-draft cfr,hate,bluffer,search 8000
scd-hu-search seven-card-draft cfr-heads-up,search 20000
scd-hu-search-bets seven-card-draft cfr-heads-up,search{searches=bets} 20000
scd-hu-join-search seven-card-draft cfr-heads-up-search,search 20000
scd-hu-tight seven-card-draft cfr-heads-up,tight 20000
scd-hu-loose-aggressive seven-card-draft cfr-heads-up,loose-aggressive 20000
scd-hu-hate seven-card-draft cfr-heads-up,hate 20000
scd-hu-calibrated seven-card-draft cfr-heads-up,calibrated 20000
scd-hu-greedy seven-card-draft cfr-heads-up,greedy 20000
scd-hu-wild-hunter seven-card-draft cfr-heads-up,wild-hunter 20000
scd-hu-late-folder seven-card-draft cfr-heads-up,late-folder 20000
scd-hu-bluffer seven-card-draft cfr-heads-up,bluffer 20000
sevens-table sevens cfr,tight,exact,bluffer 20000
sevens-hu-tight sevens cfr-heads-up,tight 20000
sevens-hu-exact sevens cfr-heads-up,exact 20000
sevens-hu-bluffer sevens cfr-heads-up,bluffer 20000
sevens-hu-greedy sevens cfr-heads-up,greedy 20000
sevens-hu-no-trade sevens cfr-heads-up,no-trade 20000
sevens-hu-search sevens cfr-heads-up,search 20000
scd-hu-always-raise seven-card-draft cfr-heads-up,bluffer{bet.p=1} 20000
scd-hu-never-raise seven-card-draft cfr-heads-up,bluffer{bet.p=0} 20000
sevens-hu-always-raise sevens cfr-heads-up,bluffer{bet.p=1} 20000
sevens-hu-never-raise sevens cfr-heads-up,bluffer{bet.p=0} 20000
scd-hu-random seven-card-draft cfr-heads-up,random 20000
sevens-hu-random sevens cfr-heads-up,random 20000
RUNS
# A,B,A,B: the trained player against each other player at the default four seats.
for opp in tight greedy hate loose-aggressive wild-hunter late-folder calibrated 'bluffer{bet.p=1}' 'bluffer{bet.p=0}' search \
  bluffer random; do
  if [ "$opp" = search ]; then rounds=4000; else rounds=40000; fi
  draftsim run --game seven-card-draft --seats "cfr,$opp,cfr,$opp" --rounds "$rounds" --quiet \
    --out "$D/scd-abab-$(echo "$opp" | tr -c 'a-z0-9\n' - | sed 's/-*$//')" --force > /dev/null
done
# The search's bets alone (its trades tight's) and its trades alone (its bets tight's) too.
for opp in tight exact greedy no-trade 'bluffer{bet.p=1}' 'bluffer{bet.p=0}' search 'search{searches=bets}' \
  'search{searches=others}' bluffer random; do
  draftsim run --game sevens --seats "cfr,$opp,cfr,$opp" --rounds 20000 --quiet \
    --out "$D/sevens-abab-$(echo "$opp" | tr -c 'a-z0-9\n' - | sed 's/-*$//')" --force > /dev/null
done
# The search bot at four seats, A, B, A, B, against the presets that reports/search-bot
# does not seat it with (its figures against the others are there).
for opp in calibrated wild-hunter 'bluffer{bet.p=1}' 'bluffer{bet.p=0}'; do
  draftsim run --game seven-card-draft --seats "search,$opp,search,$opp" --rounds 4000 --quiet \
    --out "$D/scd-abab-search-vs-$(echo "$opp" | tr -c 'a-z0-9\n' - | sed 's/-*$//')" --force > /dev/null
done
for opp in 'bluffer{bet.p=1}' 'bluffer{bet.p=0}'; do
  draftsim run --game sevens --seats "search,$opp,search,$opp" --rounds 20000 --quiet \
    --out "$D/sevens-abab-search-vs-$(echo "$opp" | tr -c 'a-z0-9\n' - | sed 's/-*$//')" --force > /dev/null
done
# The trained bets with searched trades (the search's rollouts and other seats by cfr)
# against the search bot.
draftsim run --game sevens --seats 'search{searches=others;rollout=cfr},search,search{searches=others;rollout=cfr},search' \
  --rounds 20000 --quiet --out "$D/sevens-abab-searched-trades-search" --force > /dev/null
# The four-seat search of bets modelled by the trained policy (`cfr-search`), A,B,A,B,
# against each preset, the policy it models and the search bot.
for opp in late-folder cfr hate greedy tight calibrated loose-aggressive bluffer 'bluffer{bet.p=1}' \
  'bluffer{bet.p=0}' search random; do
  case "$opp" in late-folder|cfr) rounds=8016 ;; random) rounds=2004 ;; *) rounds=4008 ;; esac
  draftsim run --game seven-card-draft --seats "cfr-search,$opp,cfr-search,$opp" --rounds "$rounds" --quiet \
    --out "$D/scd-abab-cfr-search-$(echo "$opp" | tr -c 'a-z0-9\n' - | sed 's/-*$//')" --force > /dev/null
done
# The trained policy with searched picks heads-up against each preset and the policy alone.
for opp in tight hate greedy wild-hunter loose-aggressive late-folder calibrated bluffer 'bluffer{bet.p=1}' \
  'bluffer{bet.p=0}' cfr-heads-up; do
  draftsim run --game seven-card-draft --seats "cfr-heads-up-search,$opp" --rounds 4000 --quiet \
    --out "$D/scd-hu-join-$(echo "$opp" | tr -c 'a-z0-9\n' - | sed 's/-*$//')" --force > /dev/null
done
# The search bot heads-up against each preset, the trained player's rival at that table.
for opp in greedy hate tight calibrated loose-aggressive bluffer late-folder 'bluffer{bet.p=1}' 'bluffer{bet.p=0}' \
  wild-hunter random; do
  draftsim run --game seven-card-draft --seats "search,$opp" --rounds 4000 --quiet \
    --out "$D/scd-hu-search-$(echo "$opp" | tr -c 'a-z0-9\n' - | sed 's/-*$//')" --force > /dev/null
done
for opp in tight exact greedy bluffer no-trade 'bluffer{bet.p=1}' 'bluffer{bet.p=0}' random; do
  draftsim run --game sevens --seats "search,$opp" --rounds 4000 --quiet \
    --out "$D/sevens-hu-search-$(echo "$opp" | tr -c 'a-z0-9\n' - | sed 's/-*$//')" --force > /dev/null
done
# Seven Poker (games, victory cards): a mixed table, then each player alone, A, B, A, B.
draftsim run --game seven-poker --seats cfr,adaptive,colour,rainbow --rounds 4000 --quiet \
  --out "$D/sp-table" --force > /dev/null
draftsim run --game seven-poker --seats cfr,adaptive,colour,bluffer --rounds 4000 --quiet \
  --out "$D/sp-table-bluffer" --force > /dev/null
for opp in adaptive colour rainbow bluffer fold-to-keep pat random search; do
  if [ "$opp" = search ]; then games=1200; else games=4000; fi
  draftsim run --game seven-poker --seats "cfr,$opp,cfr,$opp" --rounds "$games" --quiet \
    --out "$D/sp-abab-$opp" --force > /dev/null
done
draftsim exploitability --game sevens --players 2 --seats cfr-heads-up,tight,exact,bluffer,search \
  --rounds 4000 --quiet --out "$D/sevens-hu-exploitability" --force > /dev/null
draftsim exploitability --game seven-card-draft --players 2 --seats cfr-heads-up,tight,loose-aggressive,hate,search \
  --rounds 1000 --quiet --out "$D/scd-hu-exploitability" --force > /dev/null
draftsim exploitability --game seven-card-draft --players 2 --seats cfr-heads-up-search \
  --responders tight,loose-aggressive,hate,search,cfr-heads-up --rounds 1000 --quiet \
  --out "$D/scd-hu-join-exploitability" --force > /dev/null
# Three seats of the four-seat search of bets, answered at the fourth by the presets, the
# policy it models, the search bot and the search told that policy.
draftsim exploitability --game seven-card-draft --players 4 --seats cfr-search \
  --responders 'cfr,search{opponents=rollout;rollout=cfr;worlds=16;particles=0;models=[];mismatch=0.05},search,hate,tight,greedy,loose-aggressive,calibrated,bluffer' \
  --rounds 1000 --quiet --out "$D/scd-cfr-search-exploitability" --force > /dev/null
# Speed: a table of trained players against the default mix, one thread, same build, the
# fastest of three runs (Sevens plays more units: its units are short).
for game in seven-card-draft sevens seven-poker; do
  if [ "$game" = sevens ]; then units=400000; else units=20000; fi
  for seats in cfr,cfr,cfr,cfr default; do
    if [ "$seats" = default ]; then set --; else set -- --seats "$seats"; fi
    best=""
    for _ in 1 2 3; do
      start=$(date +%s.%N)
      draftsim run --game "$game" "$@" --rounds "$units" --threads 1 --quiet > /dev/null
      t=$(echo "$(date +%s.%N) - $start" | bc)
      if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
    done
    echo "$game $seats $units $best"
  done
done > "$D/speed.txt"
# The page: every folder of results (the runs of two strategies gathered into one table
# a game and table size).
R=reports/trained-players
# shellcheck disable=SC2046
draftsim report $(ls -d "$D"/*/) --out "$R/.build" --force --notes "$R/notes.md" --regenerate "sh $R/regenerate.sh" --quiet
rm -f "$R"/*.svg && cp "$R"/.build/* "$R"/ && rm -rf "$R/.build"
