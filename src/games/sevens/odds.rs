//! What a final Sevens hand is worth against the players still in.
//!
//! A hand's worth is its expected share of the pot at the reveal. Each opponent still in
//! is in one of five public states: it has yet to trade, or it traded 0, 1, 2 or 3 cards
//! (everyone sees the draw). Per state, the opponent's final total has a distribution,
//! enumerated exactly over the 36-card deck for a modelled trader, given the numbers of the
//! seat's own final hand (three 1s in one hand leave three fewer for everyone else, which
//! moves the worth of a total of 3 from 0.56 to 0.69 heads-up). An opponent yet to trade
//! will trade like the model; one that traded k cards is the model's hands that trade k.
//!
//! The modelled trader is a competent one: it keeps the cards that maximise its expected
//! share against `players - 1` opponents yet to trade, each modelled as itself. That is a
//! fixed point, reached by starting from "keep everything" and iterating (two or three
//! rounds for every table size; a test checks it settles).
//!
//! The share against several opponents is exact for independent opponents: with A the
//! chance that the seat beats one opponent and S that they tie for a split, the seat's
//! share is the integral over x from 0 to 1 of the product of (A + S x) over opponents.
//!
//! Approximations: opponents are independent of one another (they draw from one deck);
//! an opponent's cards are conditioned on the seat's final numbers, not on its discards;
//! the suit tie-break compares suit runs as if each opponent's were a random hand's,
//! independent of its total (most cards of one suit: 1, 2 or 3 with chances 0.24, 0.67
//! and 0.09), while the seat's own run is its hand's if known, else that of a random hand
//! of its numbers. When everyone still in is over 7, `refund` and `carry-over` count as an
//! equal split among them (a refund returns equal stakes; a carried pot is played for
//! again by the same players); `lowest-wins` ranks totals over 7 by lowness, with the
//! tie-break. The model ignores what bets reveal.
//!
//! Everything is computed once per (player count, all-over rule), on first use, in a few
//! milliseconds: a decision is then a table lookup.

use std::sync::{LazyLock, OnceLock};

use super::cards::{DECK_SIZE, SevensCard};
use super::rules::{AllOver, Rules};
use super::view::SeatView;

/// Sorted number triples 1-6: the 56 hands as far as numbers go.
pub const TRIPLES: usize = 56;
/// Public states of an opponent still in: yet to trade (0), or traded k cards (1 + k).
pub const STATES: usize = 5;
/// The most opponents one seat faces.
const MAX_OPPONENTS: usize = 5;
/// Field keys hold one base-6 digit per state: how many opponents are in it.
const KEYS: usize = 6 * 6 * 6 * 6 * 6;
/// The weight of one opponent in each state's digit of a field key.
const DIGIT: [usize; STATES] = [1, 6, 36, 216, 1296];
/// Trades in the order they are tried (over sorted positions): fewer cards first, so a tie
/// keeps more cards.
const TRADE_ORDER: [u8; 8] = [0, 1, 2, 4, 3, 5, 6, 7];
/// Bound on the model's fixed-point iteration (it settles in two or three rounds).
const MAX_ROUNDS: usize = 20;

/// The dense index of each sorted triple, by `(a-1)*36 + (b-1)*6 + (c-1)`, and the numbers
/// of each dense index.
const TRIPLE_TABLES: ([u8; 216], [[u8; 3]; TRIPLES]) = {
    let mut at = [u8::MAX; 216];
    let mut numbers = [[0u8; 3]; TRIPLES];
    let mut i = 0;
    let mut a = 1;
    while a <= 6 {
        let mut b = a;
        while b <= 6 {
            let mut c = b;
            while c <= 6 {
                at[(a - 1) * 36 + (b - 1) * 6 + (c - 1)] = i as u8;
                numbers[i] = [a as u8, b as u8, c as u8];
                i += 1;
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    (at, numbers)
};

/// The numbers of each sorted triple, by dense index.
pub const TRIPLE_NUMBERS: [[u8; 3]; TRIPLES] = TRIPLE_TABLES.1;

/// The dense index (0-55) of a sorted triple of numbers 1-6.
#[inline]
pub fn triple_index(sorted: [u8; 3]) -> usize {
    let [a, b, c] = sorted.map(usize::from);
    usize::from(TRIPLE_TABLES.0[(a - 1) * 36 + (b - 1) * 6 + (c - 1)])
}

/// A trade over sorted positions (bit i: the i-th smallest number) and the expected pot
/// share it leads to.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Choice {
    /// Sorted positions to trade.
    pub trade: u8,
    /// Expected share of the pot after it.
    pub share: f32,
}

/// The opponents a seat faces, as a row of the tables: how many are in each state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field(usize);

/// Chances per final total, indexed by total (3 to 18 used).
pub type Totals = [f64; 19];

/// Facts about hands that do not depend on the rules.
struct Hands {
    /// Per dealt triple and trade (over sorted positions): the chance of each final triple,
    /// drawing without replacement from the 33 cards the seat has not seen.
    finals: Vec<[[f64; TRIPLES]; 8]>,
    /// Per triple: the chance that a hand of those numbers has a suit run of 1, 2 or 3.
    runs: [[f64; 3]; TRIPLES],
    /// The suit run of a random hand: 1, 2 or 3.
    random_run: [f64; 3],
}

static HANDS: LazyLock<Hands> = LazyLock::new(Hands::new);

impl Hands {
    fn new() -> Hands {
        let mut runs = [[0f64; 3]; TRIPLES];
        let mut random_run = [0f64; 3];
        for a in 0..DECK_SIZE as u8 {
            for b in a + 1..DECK_SIZE as u8 {
                for c in b + 1..DECK_SIZE as u8 {
                    let cards = [SevensCard(a), SevensCard(b), SevensCard(c)];
                    let mut numbers = cards.map(SevensCard::number);
                    numbers.sort_unstable();
                    let mut per_suit = [0usize; 3];
                    cards.iter().for_each(|c| per_suit[usize::from(c.suit())] += 1);
                    let run = per_suit.into_iter().max().unwrap_or(1);
                    runs[triple_index(numbers)][run - 1] += 1.0;
                    random_run[run - 1] += 1.0;
                }
            }
        }
        for row in runs.iter_mut().chain([&mut random_run]) {
            let all: f64 = row.iter().sum();
            row.iter_mut().for_each(|p| *p /= all);
        }
        let finals = TRIPLE_NUMBERS
            .iter()
            .map(|&dealt| {
                let unseen = counts_without(&[dealt]);
                let mut per_trade = [[0f64; TRIPLES]; 8];
                for (trade, out) in per_trade.iter_mut().enumerate() {
                    let kept: Vec<u8> = (0..3).filter(|i| trade >> i & 1 == 0).map(|i| dealt[i]).collect();
                    draw_triples(&mut unseen.clone(), &kept, 1.0, out);
                }
                per_trade
            })
            .collect();
        Hands { finals, runs, random_run }
    }
}

/// Cards of each number (index 1-6) left once these triples are out of the deck.
fn counts_without(triples: &[[u8; 3]]) -> [u32; 7] {
    let mut counts = [0, 6, 6, 6, 6, 6, 6];
    triples.iter().flatten().for_each(|&n| counts[usize::from(n)] -= 1);
    counts
}

/// Adds to `out`, per final sorted triple, the chance of ending with it: `held` plus draws
/// without replacement from `counts` until three cards are held, the path's chance `p`.
fn draw_triples(counts: &mut [u32; 7], held: &[u8], p: f64, out: &mut [f64; TRIPLES]) {
    if held.len() == 3 {
        let mut sorted = [held[0], held[1], held[2]];
        sorted.sort_unstable();
        out[triple_index(sorted)] += p;
        return;
    }
    let left: u32 = counts.iter().sum();
    for n in 1..=6u8 {
        let c = counts[usize::from(n)];
        if c > 0 {
            counts[usize::from(n)] -= 1;
            let mut next = [0u8; 3];
            next[..held.len()].copy_from_slice(held);
            next[held.len()] = n;
            draw_triples(counts, &next[..=held.len()], p * f64::from(c) / f64::from(left), out);
            counts[usize::from(n)] += 1;
        }
    }
}

/// Adds to `out`, per final total, the chance of drawing `k` cards without replacement
/// from `counts` (`left` cards in all) on top of `sum`, the path's chance `p`.
fn draw_totals(counts: &mut [u32; 7], left: u32, k: u32, sum: usize, p: f64, out: &mut Totals) {
    if k == 0 {
        out[sum] += p;
        return;
    }
    for n in 1..=6usize {
        let c = counts[n];
        if c > 0 {
            counts[n] -= 1;
            draw_totals(counts, left - 1, k - 1, sum + n, p * f64::from(c) / f64::from(left), out);
            counts[n] += 1;
        }
    }
}

/// The number of ways to deal `triple` from `counts` (product of binomials per number).
fn ways(triple: [u8; 3], counts: &[u32; 7]) -> f64 {
    let mut ways = 1.0;
    let mut n = 0;
    while n < 3 {
        let mut same = 1;
        while n + same < 3 && triple[n + same] == triple[n] {
            same += 1;
        }
        let c = f64::from(counts[usize::from(triple[n])]);
        ways *= match same {
            1 => c,
            2 => c * (c - 1.0) / 2.0,
            _ => c * (c - 1.0) * (c - 2.0) / 6.0,
        }
        .max(0.0);
        n += same;
    }
    ways
}

/// Final-total distributions of (seat's final triple, opponent's dealt triple, trade),
/// computed when first asked: the model's iterations ask for mostly the same ones.
struct TradeTotals(Vec<Option<Box<Totals>>>);

impl TradeTotals {
    fn new() -> TradeTotals {
        TradeTotals(vec![None; TRIPLES * TRIPLES * 8])
    }

    /// The final-total distribution of a dealt hand (triple `t`) making this trade (over
    /// sorted positions), drawing from the deck less the hand and the seat's triple `f`.
    fn get(&mut self, f: usize, t: usize, trade: u8) -> &Totals {
        self.0[(f * TRIPLES + t) * 8 + usize::from(trade)].get_or_insert_with(|| {
            let dealt = TRIPLE_NUMBERS[t];
            let kept: usize = (0..3).filter(|i| trade >> i & 1 == 0).map(|i| usize::from(dealt[i])).sum();
            let mut totals = [0f64; 19];
            let mut unseen = counts_without(&[TRIPLE_NUMBERS[f], dealt]);
            let left = unseen.iter().sum();
            draw_totals(&mut unseen, left, trade.count_ones(), kept, 1.0, &mut totals);
            Box::new(totals)
        })
    }
}

/// Per state, the final-total distribution of an opponent whose cards come from the deck
/// less the seat's final triple `f`, trading as `model` (trade per dealt triple, over
/// sorted positions). With `fill_unused`, a count the model never trades gets a
/// distribution too (otherwise zeros: the model's iterations read only the first state).
fn opponent_totals(model: &[u8; TRIPLES], f: usize, fill_unused: bool, cache: &mut TradeTotals) -> [Totals; STATES] {
    let left = counts_without(&[TRIPLE_NUMBERS[f]]);
    let mut states = [[0f64; 19]; STATES];
    let mut weight = [0f64; 4];
    for (t, &dealt) in TRIPLE_NUMBERS.iter().enumerate() {
        let w = ways(dealt, &left);
        if w > 0.0 {
            let k = model[t].count_ones() as usize;
            weight[k] += w;
            for (total, p) in cache.get(f, t, model[t]).iter().enumerate() {
                states[0][total] += w * p;
                states[1 + k][total] += w * p;
            }
        }
    }
    let all: f64 = weight.iter().sum();
    states[0].iter_mut().for_each(|p| *p /= all);
    for k in 0..4 {
        if weight[k] == 0.0 && !fill_unused {
            continue;
        }
        if weight[k] == 0.0 {
            // The model never trades k cards, so the count tells nothing more: every hand,
            // trading k of its cards at random.
            for (t, &dealt) in TRIPLE_NUMBERS.iter().enumerate() {
                let w = ways(dealt, &left);
                for trade in (0..8u8).filter(|m| m.count_ones() as usize == k) {
                    if w > 0.0 {
                        let totals = cache.get(f, t, trade);
                        states[1 + k].iter_mut().zip(totals).for_each(|(s, p)| *s += w * p);
                    }
                }
            }
        }
        let mass: f64 = states[1 + k].iter().sum();
        states[1 + k].iter_mut().for_each(|p| *p /= mass);
    }
    states
}

/// How a final total stands at the reveal: higher is better; equal standings tie.
fn standing(total: usize, lowest_wins: bool) -> i32 {
    match (total <= 7, lowest_wins) {
        (true, _) => 100 + total as i32,
        (false, true) => 100 - total as i32,
        (false, false) => 0,
    }
}

/// Per own final triple, own suit run (1-3) and opponent state: the chance the seat beats
/// that opponent (A) and the chance they split (S).
struct Duels([[[(f64, f64); STATES]; 3]; TRIPLES]);

impl Duels {
    fn new(opponents: &[[Totals; STATES]], lowest_wins: bool, random_run: &[f64; 3]) -> Duels {
        let mut duels = [[[(0.0, 0.0); STATES]; 3]; TRIPLES];
        for (f, per_run) in duels.iter_mut().enumerate() {
            let mine = TRIPLE_NUMBERS[f].iter().map(|&n| usize::from(n)).sum::<usize>();
            let my_standing = standing(mine, lowest_wins);
            for (r, per_state) in per_run.iter_mut().enumerate() {
                let lower_run: f64 = random_run[..r].iter().sum();
                for (state, duel) in per_state.iter_mut().enumerate() {
                    let (mut beat, mut split) = (0.0, 0.0);
                    for (total, &p) in opponents[f][state].iter().enumerate().skip(3) {
                        let theirs = standing(total, lowest_wins);
                        if theirs < my_standing {
                            beat += p;
                        } else if theirs == my_standing {
                            if total <= 7 || lowest_wins {
                                beat += p * lower_run;
                                split += p * random_run[r];
                            } else {
                                split += p;
                            }
                        }
                    }
                    *duel = (beat, split);
                }
            }
        }
        Duels(duels)
    }

    /// The seat's expected share against `field` (opponents per state).
    fn share(&self, f: usize, run: usize, field: &[usize; STATES]) -> f64 {
        // Coefficients of the product of (A + S x) over opponents, then its integral 0-1.
        let mut poly = [0f64; MAX_OPPONENTS + 1];
        poly[0] = 1.0;
        let mut degree = 0;
        for (state, &count) in field.iter().enumerate() {
            let (a, s) = self.0[f][run][state];
            for _ in 0..count {
                for j in (0..=degree).rev() {
                    poly[j + 1] += s * poly[j];
                    poly[j] *= a;
                }
                degree += 1;
            }
        }
        poly[..=degree].iter().enumerate().map(|(j, c)| c / (j + 1) as f64).sum()
    }
}

/// The value tables for one player count and all-over rule.
#[derive(Debug)]
pub struct Odds {
    players: usize,
    /// Table row of each field key (`u8::MAX` for fields larger than the table).
    row_of_key: Vec<u8>,
    /// Per row and final triple: the expected share by own suit run 1-3.
    shares: Vec<[f32; 3]>,
    /// Per row and dealt triple: the trade with the best expected share.
    best: Vec<Choice>,
    /// Per own final triple: each state's final-total distribution.
    opponents: Vec<[Totals; STATES]>,
    /// The modelled trader's trade per dealt triple.
    model: [u8; TRIPLES],
    /// Rounds the fixed point took.
    rounds: usize,
}

/// The tables for these rules, built on first use.
pub fn odds(rules: &Rules) -> &'static Odds {
    static TABLES: [OnceLock<Odds>; 10] = [const { OnceLock::new() }; 10];
    let lowest_wins = rules.all_over == AllOver::LowestWins;
    let players = rules.players.clamp(2, 6);
    TABLES[usize::from(lowest_wins) * 5 + players - 2].get_or_init(|| Odds::new(players, lowest_wins))
}

impl Odds {
    /// Builds the tables for `players` (2 to 6) and the all-over rule.
    pub fn new(players: usize, lowest_wins: bool) -> Odds {
        assert!((2..=6).contains(&players), "Sevens seats 2 to 6 players");
        let hands = &*HANDS;
        let mut cache = TradeTotals::new();
        let mut duels_for = |model: &[u8; TRIPLES], complete: bool| {
            let opponents: Vec<[Totals; STATES]> =
                (0..TRIPLES).map(|f| opponent_totals(model, f, complete, &mut cache)).collect();
            let duels = Duels::new(&opponents, lowest_wins, &hands.random_run);
            (opponents, duels)
        };
        // The worth of each final triple against a field, its own run unknown.
        let worth = |duels: &Duels, field: &[usize; STATES]| -> [f64; TRIPLES] {
            std::array::from_fn(|f| (0..3).map(|r| hands.runs[f][r] * duels.share(f, r, field)).sum())
        };
        let untraded_field = [players - 1, 0, 0, 0, 0];
        let mut model = [0u8; TRIPLES];
        let mut rounds = 0;
        loop {
            rounds += 1;
            let (_, duels) = duels_for(&model, false);
            let next = best_trades(hands, &worth(&duels, &untraded_field)).map(|c| c.trade);
            if next == model || rounds == MAX_ROUNDS {
                break;
            }
            model = next;
        }
        let (opponents, duels) = duels_for(&model, true);
        let mut row_of_key = vec![u8::MAX; KEYS];
        let mut fields = Vec::new();
        for m in 0..players {
            for (key, row) in row_of_key.iter_mut().enumerate() {
                let field: [usize; STATES] = std::array::from_fn(|s| key / DIGIT[s] % 6);
                if field.iter().sum::<usize>() == m {
                    *row = fields.len() as u8;
                    fields.push(field);
                }
            }
        }
        let mut shares = Vec::with_capacity(fields.len() * TRIPLES);
        let mut best = Vec::with_capacity(fields.len() * TRIPLES);
        for field in &fields {
            for f in 0..TRIPLES {
                shares.push(std::array::from_fn(|r| duels.share(f, r, field) as f32));
            }
            best.extend(best_trades(hands, &worth(&duels, field)));
        }
        Odds { players, row_of_key, shares, best, opponents, model, rounds }
    }

    /// The field a seat faces: the opponents still in, by state.
    #[inline]
    pub fn field(&self, view: &SeatView<'_>) -> Field {
        let mut key = 0;
        let seats = view.folded.iter().zip(view.trade_used).zip(view.cards_traded).enumerate();
        for (s, ((&folded, &used), &traded)) in seats {
            if s != view.seat && !folded {
                key += if used { DIGIT[1 + usize::from(traded.min(3))] } else { DIGIT[0] };
            }
        }
        Field(usize::from(self.row_of_key[key]))
    }

    /// The field of these opponents: how many are yet to trade, then how many traded 0, 1,
    /// 2 and 3 cards. Panics if they outnumber the table's other seats.
    pub fn field_of(&self, opponents: [usize; STATES]) -> Field {
        let key: usize = opponents.iter().zip(DIGIT).map(|(n, d)| n * d).sum();
        let row = self.row_of_key.get(key).copied().unwrap_or(u8::MAX);
        assert!(row != u8::MAX, "{opponents:?}: more opponents than a {}-player table has", self.players);
        Field(usize::from(row))
    }

    /// The expected share of the pot of a final hand of these sorted numbers and suit run
    /// (1-3) against the field.
    #[inline]
    pub fn share(&self, field: Field, sorted: [u8; 3], run: u8) -> f32 {
        self.shares[field.0 * TRIPLES + triple_index(sorted)][usize::from(run.clamp(1, 3)) - 1]
    }

    /// The trade (over sorted positions) with the best expected share for a hand of these
    /// sorted numbers against the field, and that share.
    #[inline]
    pub fn best(&self, field: Field, sorted: [u8; 3]) -> Choice {
        self.best[field.0 * TRIPLES + triple_index(sorted)]
    }

    /// The final-total distribution of an opponent in `state` (0: yet to trade, 1 + k:
    /// traded k cards) given the seat's own final numbers.
    pub fn opponent_totals(&self, sorted: [u8; 3], state: usize) -> Totals {
        self.opponents[triple_index(sorted)][state]
    }

    /// The modelled trader's trade (over sorted positions) for a dealt hand of these numbers.
    pub fn model_trade(&self, sorted: [u8; 3]) -> u8 {
        self.model[triple_index(sorted)]
    }

    /// Rounds the model's fixed point took (it stopped changing in fewer than the bound).
    pub fn model_rounds(&self) -> usize {
        self.rounds
    }
}

/// The best trade for each dealt triple, given the worth of each final triple (ties keep
/// more cards).
fn best_trades(hands: &Hands, worth: &[f64; TRIPLES]) -> [Choice; TRIPLES] {
    std::array::from_fn(|t| {
        let mut best = Choice { trade: 0, share: f32::NEG_INFINITY };
        let mut best_share = f64::NEG_INFINITY;
        for trade in TRADE_ORDER {
            let share: f64 = hands.finals[t][usize::from(trade)].iter().zip(worth).map(|(p, w)| p * w).sum();
            if share > best_share + 1e-9 {
                best_share = share;
                best = Choice { trade, share: share as f32 };
            }
        }
        best
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triples_are_indexed_densely_in_order() {
        for (i, &t) in TRIPLE_NUMBERS.iter().enumerate() {
            assert_eq!(triple_index(t), i);
            assert!(t[0] <= t[1] && t[1] <= t[2] && t[0] >= 1 && t[2] <= 6);
        }
        assert_eq!(TRIPLE_NUMBERS[TRIPLES - 1], [6, 6, 6]);
    }

    #[test]
    fn final_triples_and_runs_are_distributions() {
        let hands = &*HANDS;
        for per_trade in &hands.finals {
            for dist in per_trade {
                assert!((dist.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            }
        }
        // Keeping everything ends on the dealt numbers.
        assert_eq!(hands.finals[triple_index([1, 2, 4])][0][triple_index([1, 2, 4])], 1.0);
        // Three of a number: two copies per suit, so never three of one suit; 8 of the 20
        // ways hold one of each suit.
        let run = hands.runs[triple_index([1, 1, 1])];
        assert!((run[0] - 0.4).abs() < 1e-12 && run[2] == 0.0, "{run:?}");
        let random = hands.random_run;
        assert!((random[0] - 1728.0 / 7140.0).abs() < 1e-12 && (random[2] - 660.0 / 7140.0).abs() < 1e-12);
    }

    #[test]
    fn every_state_is_a_distribution_and_the_model_settles() {
        for players in 2..=6 {
            for lowest in [false, true] {
                let odds = Odds::new(players, lowest);
                assert!(odds.model_rounds() < MAX_ROUNDS, "{players} players, lowest {lowest}");
                for f in TRIPLE_NUMBERS {
                    for state in 0..STATES {
                        let sum: f64 = odds.opponent_totals(f, state).iter().sum();
                        assert!((sum - 1.0).abs() < 1e-9, "{f:?} state {state}: {sum}");
                    }
                }
            }
        }
    }
}
