#!/bin/sh
# draftsim's solver and search bot beside OpenSpiel's on Kuhn poker and Leduc Hold'em, in
# one run on one machine (the figures in docs/performance.md and docs/solve.md):
#   python3 -m venv /tmp/os && /tmp/os/bin/pip install open_spiel
#   PYTHON=/tmp/os/bin/python sh benches/openspiel/compare.sh
set -e
cargo build --release --quiet
B=${CARGO_TARGET_DIR:-target}/release/draftsim
T=$(mktemp -d)
echo "== draftsim"
for algorithm in cfr+ es-mccfr os-mccfr; do
  $B train --game leduc-poker --algorithm $algorithm --budget-time 10 --out "$T/$algorithm" --quiet | tail -1 | sed "s/^/leduc-poker $algorithm: /"
done
$B train --game leduc-poker --iterations 400 --out "$T/cfr400" --quiet | tail -1 | sed "s/^/leduc-poker cfr+: /"
$B train --game kuhn-poker --iterations 2000 --out "$T/kuhn" --quiet | tail -1 | sed "s/^/kuhn-poker cfr+: /"
for game in kuhn-poker leduc-poker; do
  start=$(date +%s.%N)
  $B exploitability --game $game --seats search --samples 8 --threads 1 --quiet | sed -n 2p | sed "s/^/$game /"
  end=$(date +%s.%N)
  echo "$game search tabulated with 8 decisions a set on one thread in $(echo "$end - $start" | bc) s"
done
echo "== OpenSpiel"
${PYTHON:-python3} "$(dirname "$0")/compare.py"
rm -rf "$T"
