#!/bin/sh
# Regenerates the trained policies the `cfr` presets of the reference games play
# (strategies/<game>/cfr/policy.json), from the repository root:
#   sh strategies/train-cfr.sh
set -e
cargo run --release --quiet -- train --game kuhn-poker --iterations 5000 --out strategies/kuhn-poker/cfr --force --quiet
cargo run --release --quiet -- train --game leduc-poker --iterations 2000 --out strategies/leduc-poker/cfr --force --quiet
