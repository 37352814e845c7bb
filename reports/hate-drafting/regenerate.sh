#!/bin/sh
# Does hate-drafting pay at 3, 4, 5 and 6 players? Hate and greedy draft differently but bet
# alike (same thresholds), seated alternately, on the same deals.
# Run from the repository root:  sh reports/hate-drafting/regenerate.sh
set -eu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/draftsim-target}"
D=reports/hate-drafting
draftsim() { cargo run --release -q -- "$@"; }
draftsim sweep --set players=3,4,5,6 --seats hate,greedy --rounds 400000 --out "$D/data/sweep" --force
for n in 4 6; do
  draftsim run --players "$n" --seats "$(printf 'hate,greedy,%.0s' $(seq 1 $((n / 2))) | sed 's/,$//')" \
    --rounds 400000 --quiet --out "$D/data/run-$n-players" --force
done
# Re-judged with strong players in the other two seats (quoted in the notes, not charted).
for strong in cfr calibrated; do
  draftsim run --seats "hate,greedy,$strong,$strong" --rounds 400000 --quiet --out "$D/data/run-4-players-$strong" --force
done
# Heads-up against a random picker (quoted in the notes, not charted): does denial pay
# when the seat it passes to picks at random?
for s in hate greedy; do
  draftsim run --seats "$s,random" --rounds 100000 --seed 11 --quiet --out "$D/data/heads-up-$s-random" --force
done
draftsim report "$D/data/sweep" "$D/data/run-4-players" "$D/data/run-6-players" \
  --out "$D/.build" --force --notes "$D/notes.md" --regenerate "sh $D/regenerate.sh"
rm -f "$D"/*.svg && cp "$D"/.build/* "$D"/ && rm -rf "$D/.build"
