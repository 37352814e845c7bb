#!/bin/sh
# Regenerates the trained policies the `cfr` presets of the reference games play
# (strategies/<game>/cfr/policy.json), from the repository root:
#   sh strategies/train-cfr.sh
set -e
cargo run --release --quiet -- train --game kuhn-poker --iterations 5000 --out strategies/kuhn-poker/cfr --force --quiet
cargo run --release --quiet -- train --game leduc-poker --iterations 2000 --out strategies/leduc-poker/cfr --force --quiet
# Seven Card Draft: betting by external-sampling MCCFR over its bucketed betting keys, picks
# by greedy at the default table and by hate heads-up (where every passed card goes to the
# one opponent); each against itself and, at half the other seats, the presets (the
# betting extremes among them; at four seats `calibrated` too, which reads the passed packs).
cargo run --release --quiet -- train --game seven-card-draft --iterations 300000 \
  --field 'bluffer{bet.p=1},bluffer{bet.p=0},tight,greedy,loose-aggressive,hate,calibrated' \
  --out strategies/seven-card-draft/cfr --force --quiet
cargo run --release --quiet -- train --game seven-card-draft --players 2 --iterations 400000 --fallback hate \
  --field 'bluffer{bet.p=1},bluffer{bet.p=0},tight,greedy,loose-aggressive,hate' \
  --out strategies/seven-card-draft/cfr-heads-up --force --quiet
# Sevens: betting likewise, trades by tight; each against itself and the presets (the
# betting extremes among them), at three tenths of the other seats at four seats and at
# eight tenths of the other seat heads-up (the share whose policy a best response found
# least to take from, reports/trained-players).
cargo run --release --quiet -- train --game sevens --iterations 2000000 \
  --field 'bluffer{bet.p=1},bluffer{bet.p=0},tight,exact,bluffer' --field-share 0.3 \
  --out strategies/sevens/cfr --force --quiet
cargo run --release --quiet -- train --game sevens --players 2 --iterations 2000000 \
  --field 'bluffer{bet.p=1},bluffer{bet.p=0},tight,exact,bluffer' --field-share 0.8 \
  --out strategies/sevens/cfr-heads-up --force --quiet
# Seven Poker: stay or fold by MCCFR with one sampled decision a game (mccfr-probe), the
# rest as adaptive; against itself and, at three quarters of the other seats, the presets;
# in batches of 512 on every core (the policy is the same on any number).
cargo run --release --quiet -- train --game seven-poker --iterations 6400000 --batch 512 \
  --field 'adaptive,colour,rainbow,bluffer,fold-to-keep,pat' --field-share 0.75 \
  --out strategies/seven-poker/cfr --force --quiet
