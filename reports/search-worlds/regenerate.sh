#!/bin/sh
# The search bot reading the other seats' moves: each iteration draws 16 worlds from the
# observation and keeps one in proportion to how likely the other seats' seen moves were
# in it under the rollout policy (`worlds = 16`), against the same search drawing one.
# Leduc Hold'em heads-up (chips and exact exploitability), Sevens and Seven Card Draft at
# four seats, each search against the presets on the same deals.
# Run from the repository root:  sh reports/search-worlds/regenerate.sh
set -eu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/draftsim-target}"
D=reports/search-worlds
cargo build --release -q
draftsim() { "$CARGO_TARGET_DIR/release/draftsim" "$@"; }
LEDUC='search,search{rollout=cfr;opponents=rollout},search{rollout=cfr;opponents=rollout;worlds=16}'
draftsim compare --game leduc-poker --players 2 --strategies "$LEDUC,tight,aggressive,calling-station,cfr" \
  --rounds 4000 --quiet --out "$D/data/leduc-poker" --force > /dev/null
draftsim exploitability --game leduc-poker --seats "$LEDUC" --samples 8 --quiet \
  --out "$D/data/leduc-poker-exploitability" --force > /dev/null
dirs="$D/data/leduc-poker $D/data/leduc-poker-exploitability"
# Sevens: each search against the presets (its own compare, so no search meets another).
i=0
while read -r seat; do
  i=$((i + 1))
  draftsim compare --game sevens --players 4 --strategies "$seat,tight,bluffer,greedy,exact" \
    --rounds 2000 --quiet --out "$D/data/sevens-$i" --force > /dev/null
  dirs="$dirs $D/data/sevens-$i"
done <<'SEATS'
search
search{rollout=tight}
search{rollout=tight;worlds=16}
search{rollout=tight;opponents=rollout}
search{rollout=tight;opponents=rollout;worlds=16}
search{rollout=cfr;opponents=rollout}
search{rollout=cfr;opponents=rollout;worlds=16}
SEATS
# Sevens: the default search against the weighed one, and each against the trained policy.
draftsim compare --game sevens --players 4 --strategies 'search,search{rollout=tight;worlds=16},cfr' \
  --rounds 2000 --quiet --out "$D/data/sevens-head-to-head" --force > /dev/null
dirs="$dirs $D/data/sevens-head-to-head"
# Seven Card Draft: each search against the presets, then the searches head to head.
i=0
while read -r seat; do
  i=$((i + 1))
  draftsim compare --game seven-card-draft --players 4 --strategies "$seat,tight,hate,greedy,loose-aggressive" \
    --rounds 2000 --quiet --out "$D/data/seven-card-draft-$i" --force > /dev/null
  dirs="$dirs $D/data/seven-card-draft-$i"
done <<'SEATS'
search
search{rollout=tight}
search{rollout=tight;worlds=16}
SEATS
draftsim compare --game seven-card-draft --players 4 \
  --strategies 'search,search{rollout=tight},search{rollout=tight;worlds=16}' \
  --rounds 2000 --quiet --out "$D/data/seven-card-draft-head-to-head" --force > /dev/null
dirs="$dirs $D/data/seven-card-draft-head-to-head"
# shellcheck disable=SC2086
draftsim report $dirs --out "$D/.build" --force --notes "$D/notes.md" --regenerate "sh $D/regenerate.sh" --quiet
rm -f "$D"/*.svg && cp "$D"/.build/* "$D"/ && rm -rf "$D/.build"
