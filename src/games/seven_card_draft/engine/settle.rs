//! Settling a round: the showdown's pots and side pots, uncalled stakes and each seat's net result.

use super::*;

/// Splits the pots among the best hands, side pots included.
pub(super) fn showdown(variant: &Variant, t: &mut State, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
    let n = t.public.players;
    let mut values = [HandValue(0); MAX_SEATS];
    let mut wild_count = [0u32; MAX_SEATS];
    // Every hand ranked first, the tallies after: a hand's table look-up often misses the
    // cache, and with no branch on its result in between the look-ups overlap.
    let mut wild_sets = [CardSet::EMPTY; MAX_SEATS];
    for s in (0..n).filter(|&s| !t.public.folded[s]) {
        let hand = t.hands[s];
        let wilds = variant.rules.wild.wild_cards(hand, t.last_pick[s]);
        values[s] = variant.eval.eval_wild(hand.minus(wilds), wilds.len());
        wild_sets[s] = wilds;
    }
    for s in (0..n).filter(|&s| !t.public.folded[s]) {
        let (hand, wilds) = (t.hands[s], wild_sets[s]);
        wild_count[s] = wilds.len();
        out.seats[s].count(SHOWDOWNS);
        out.seats[s].observe(FINISHED, values[s].category() as usize);
        sink.event(Event::Show { seat: s, hand, wilds, last_pick: t.last_pick[s] });
    }
    let order = t.order;
    refund_uncalled(t, sink);
    let total_pot: u32 = t.public.committed[..n].iter().sum();
    let mut won = [0u32; MAX_SEATS];
    let mut units = [0u32; MAX_SEATS];
    let mut units_left = SHARE_UNIT;
    let mut prev = 0u32;
    let mut carry = 0u32;
    let mut pot_index = 0;
    let mut last_winner = None;
    while let Some(level) = (0..n).map(|s| t.public.committed[s]).filter(|&c| c > prev).min() {
        let amount: u32 =
            (0..n).map(|s| t.public.committed[s].min(level) - t.public.committed[s].min(prev)).sum::<u32>() + carry;
        let eligible = |s: usize| !t.public.folded[s] && t.public.committed[s] >= level;
        prev = level;
        // A stake level that only a folded seat's chips make is no pot of its own: as in
        // ordinary poker, side pots split where a live seat is all-in, so a level whose live
        // seats are the next level's joins it (one pot, and its odd chips split once).
        let live_above = |l: u32| (0..n).filter(|&s| !t.public.folded[s] && t.public.committed[s] >= l).count();
        let next = (0..n).map(|s| t.public.committed[s]).filter(|&c| c > level).min();
        if next.is_some_and(|l| live_above(l) == live_above(level)) {
            carry = amount;
            continue;
        }
        let Some(best) = (0..n).filter(|&s| eligible(s)).map(|s| values[s]).max() else {
            // Chips of folded seats above every live seat's stake join the next pot.
            carry = amount;
            continue;
        };
        carry = 0;
        let is_winner = |s: usize| eligible(s) && values[s] == best;
        let k = (0..n).filter(|&s| is_winner(s)).count() as u32;
        // One pot (the usual case) carries every share unit: no division.
        let pot_units = if amount == total_pot {
            SHARE_UNIT
        } else {
            (amount as u64 * SHARE_UNIT as u64 / total_pot as u64) as u32
        }
        .min(units_left);
        units_left -= pot_units;
        // Odd chips (and odd share units) go to the winners first in betting order.
        for (i, s) in order[..n].iter().map(|&s| s as usize).filter(|&s| is_winner(s)).enumerate() {
            let chips = split(amount, k, i);
            won[s] += chips;
            units[s] += split(pot_units, k, i);
            if i == 0 {
                last_winner = Some(s);
            }
            sink.event(Event::Award { seat: s, chips, pot: pot_index });
        }
        pot_index += 1;
    }
    // Rounding leftovers of the shares go to the last pot's first winner.
    if let Some(s) = last_winner {
        won[s] += carry;
        units[s] += units_left;
    }
    // With no ante and no bet the pot is empty: the best hands still win the round.
    if total_pot == 0 {
        let best = (0..n).filter(|&s| !t.public.folded[s]).map(|s| values[s]).max().expect("a showdown has players");
        let k = (0..n).filter(|&s| !t.public.folded[s] && values[s] == best).count() as u32;
        for (i, s) in
            order[..n].iter().map(|&s| s as usize).filter(|&s| !t.public.folded[s] && values[s] == best).enumerate()
        {
            units[s] = SHARE_UNIT / k + u32::from((i as u32) < SHARE_UNIT % k);
        }
    }
    for s in 0..n {
        t.public.stacks[s] += won[s];
        let r = &mut out.seats[s];
        if won[s] > 0 || (total_pot == 0 && units[s] > 0) {
            r.count(SHOWDOWN_WINS);
            r.observe(WINNING, values[s].category() as usize);
            if wild_count[s] > 0 {
                r.count(WILD_WINS);
            }
        }
        r.share_units = units[s];
    }
    t.public.committed = [0; MAX_SEATS];
    t.public.pot = 0;
    Ok(())
}

/// The `i`-th of `k` winners' part of `amount`: an equal part, plus one of the odd units
/// for the first winners. One winner (the usual case) takes it all without a division.
#[inline]
pub(super) fn split(amount: u32, k: u32, i: usize) -> u32 {
    if k == 1 { amount } else { amount / k + u32::from((i as u32) < amount % k) }
}

/// Returns the chips of the one seat whose stake nobody matched (the part above the
/// second-highest stake): they were never contested.
pub(super) fn refund_uncalled(t: &mut State, sink: &mut impl Sink) {
    let n = t.public.players;
    let top = *t.public.committed[..n].iter().max().expect("players");
    let at_top = (0..n).filter(|&s| t.public.committed[s] == top).count();
    if at_top == 1 {
        let s = (0..n).find(|&s| t.public.committed[s] == top).expect("the top seat");
        let second = (0..n).filter(|&x| x != s).map(|x| t.public.committed[x]).max().unwrap_or(0);
        let chips = top - second;
        t.public.committed[s] -= chips;
        t.public.pot -= chips;
        t.public.stacks[s] += chips;
        sink.event(Event::Refund { seat: s, chips });
    }
}

/// Writes each seat's net chips, folds and hate rounds into `out`.
pub(super) fn finish(t: &State, out: &mut RoundResult) -> Result<(), Error> {
    let n = t.public.players;
    if t.verify {
        let chips = t.public.stacks[..n].iter().map(|&s| s as u64).sum::<u64>();
        if chips != t.public.chips_total {
            return Err(Error::Invariant(format!(
                "chips not conserved over the round: {chips} at the end, {} at the start",
                t.public.chips_total
            )));
        }
    }
    for (s, r) in out.seats[..n].iter_mut().enumerate() {
        let net = t.public.stacks[s] as i64 - t.public.round_stacks[s] as i64;
        r.score = net;
        if let Some(b) = t.public.fold_round[s] {
            r.count(FOLDED);
            r.count(FOLDS + b as usize);
        }
        if t.hated[s] {
            r.count(HATE_ROUNDS);
            r.sums[HATE_ROUNDS_NET] += net;
        } else if t.public.round_stacks[s] > 0 {
            // A seat with no chips sat the round out: not a round it played.
            r.count(ROUNDS_WITHOUT_HATE);
            r.sums[ROUNDS_WITHOUT_HATE_NET] += net;
        }
    }
    Ok(())
}
