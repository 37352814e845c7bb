//! The Sevens engine: ante, deal three cards each, one orbit-based betting sequence in
//! which each turn is a bet then (once per hand) a trade, reveal, closest to 7 wins.
//!
//! Choices where the source is open, beyond the rules options:
//! - The dealer is seat 0; play starts at the dealer's left (seat 1) and goes up.
//! - Chips are counted, not staked: no player runs out within a hand (the stakes are a few
//!   units), so there are no all-ins.
//! - Under `first-turn`, standing pat at the first turn uses up the trade; under
//!   `any-turn`, a seat that keeps its cards may still trade at a later turn.
//! - If the deck runs short, a trade draws what is left and keeps the other chosen cards.
//! - A seat's fold "round" is 0 at its first turn and 1 at any later turn.
//! - With `carry-over`, a unit of simulation is the run of hands until a pot is won (at most
//!   `max_carry_hands`, then every stake is refunded). Hand `h` of a run has its own deal
//!   seed (the unit's for the first hand, then one mixed from it and `h`), so trades in one
//!   hand never change the next hand's cards. Counters count per hand.
//! - With `refund`, only the players still in take their stakes back: a player who folded
//!   has forfeited what they put in ("forfeit any coin"), and those forfeited chips are
//!   shared among the players still in (odd chips from the dealer's left), so chips stay
//!   zero-sum. Nobody wins the hand.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::cards::{DECK_SIZE, SevensCard, SevensHand};
use super::measures::{
    CARDS_TRADED, FOLDS_FIRST, FOLDS_LATER, NOBODY_QUALIFIES, REVEALED, SHOWDOWN_WINS, SHOWDOWNS, SPLIT, SUIT_TIEBREAK,
    WINNING,
};
use super::rules::{AllOver, Rules, TradeTiming};
use super::view::{Action, Bot, SeatView};
use crate::error::Error;
pub use crate::sim::NoEvents;
use crate::sim::{EventSink, MAX_SEATS, RoundResult, SHARE_UNIT, SeatRngs, mix_seed};

/// Stream tag of the deal seeds of a carry-over run's later hands.
const HAND_STREAM: u64 = 0x7E7E_0001;

/// Something that happened, for replays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A hand begins (0-based within the unit), with the pot carried into it.
    HandStart {
        /// Hand number.
        hand: u32,
        /// Chips carried over.
        carried: u32,
    },
    /// A seat is dealt its cards.
    Deal {
        /// The seat.
        seat: usize,
        /// Its cards.
        hand: SevensHand,
    },
    /// A seat acts.
    Act {
        /// The seat.
        seat: usize,
        /// The action.
        action: Action,
        /// Chips put in.
        paid: u32,
    },
    /// A seat trades.
    Trade {
        /// The seat.
        seat: usize,
        /// Cards given up.
        gave: SevensHand,
        /// Cards drawn.
        drew: SevensHand,
    },
    /// A seat reveals.
    Reveal {
        /// The seat.
        seat: usize,
        /// Its cards.
        hand: SevensHand,
    },
    /// Every player still in is over 7.
    NobodyQualifies,
    /// A seat wins chips.
    Award {
        /// The seat.
        seat: usize,
        /// Chips.
        chips: u32,
    },
    /// A seat gets its stake back.
    Refund {
        /// The seat.
        seat: usize,
        /// Chips.
        chips: u32,
    },
    /// Everyone else folded.
    LastStanding {
        /// The seat.
        seat: usize,
    },
}

/// The draw pile, shuffled lazily: the k-th card drawn depends on the seed alone, however
/// the draws are shared among deals and trades.
#[derive(Clone, Debug)]
struct Pile {
    cards: [u8; DECK_SIZE],
    next: usize,
    /// Draw in the given order (a stacked deck for tests and examples).
    stacked: bool,
}

impl Pile {
    fn reset(&mut self) {
        if !self.stacked {
            for (i, c) in self.cards.iter_mut().enumerate() {
                *c = i as u8;
            }
        }
        self.next = 0;
    }

    fn left(&self) -> usize {
        DECK_SIZE - self.next
    }

    // Inlined so the deal stream's state stays in registers through a hand (measured: the
    // harness refactor had pushed it out of line, 13% more instructions per hand).
    #[inline(always)]
    fn draw(&mut self, rng: &mut Xoshiro256PlusPlus) -> Option<SevensCard> {
        if self.next == DECK_SIZE {
            return None;
        }
        if !self.stacked {
            let j = self.next + rng.random_range(0..DECK_SIZE - self.next);
            self.cards.swap(self.next, j);
        }
        self.next += 1;
        Some(SevensCard(self.cards[self.next - 1]))
    }
}

/// Reusable per-thread state.
#[derive(Clone, Debug)]
pub struct Table {
    pile: Pile,
    hands: [SevensHand; MAX_SEATS],
    folded: [bool; MAX_SEATS],
    traded: [bool; MAX_SEATS],
    cards_traded: [u8; MAX_SEATS],
    turns: [usize; MAX_SEATS],
    street: [u32; MAX_SEATS],
    /// Chips each seat put in over the whole unit.
    put_in: [u32; MAX_SEATS],
    /// Check the invariants after every hand (`draftsim check` and tests turn it on).
    pub verify: bool,
}

impl Table {
    /// A table that checks the invariants after every hand, in any build.
    pub fn verified() -> Table {
        Table { verify: true, ..Table::default() }
    }

    /// Checks that every card is in one place: the pile is a permutation of the deck, and
    /// the hands hold distinct cards already drawn from it.
    #[cold]
    #[inline(never)]
    fn check(&self, rules: &Rules) -> Result<(), Error> {
        let broken = |what: String| Err(Error::Invariant(what));
        let mut place = [0u8; DECK_SIZE];
        for &c in &self.pile.cards {
            if usize::from(c) >= DECK_SIZE || std::mem::replace(&mut place[usize::from(c)], 1) != 0 {
                return broken(format!("card {c} is in the pile twice"));
            }
        }
        let drawn = &self.pile.cards[..self.pile.next];
        for s in 0..rules.players {
            for card in self.hands[s].cards() {
                if !drawn.contains(&card.0) {
                    return broken(format!("seat {s} holds card {} that was never drawn", card.0));
                }
                if std::mem::replace(&mut place[usize::from(card.0)], 2) == 2 {
                    return broken(format!("card {} is in two hands", card.0));
                }
            }
        }
        Ok(())
    }
}

impl Default for Table {
    fn default() -> Self {
        Table {
            pile: Pile { cards: [0; DECK_SIZE], next: 0, stacked: false },
            hands: [SevensHand::default(); MAX_SEATS],
            folded: [false; MAX_SEATS],
            traded: [false; MAX_SEATS],
            cards_traded: [0; MAX_SEATS],
            turns: [0; MAX_SEATS],
            street: [0; MAX_SEATS],
            put_in: [0; MAX_SEATS],
            verify: cfg!(debug_assertions),
        }
    }
}

/// Plays one unit with the draw pile in this order (a stacked deck: cards are dealt one at
/// a time from seat 1 round to seat 0, then trades draw the next ones). `order` must hold
/// all 36 card ids once.
#[allow(clippy::too_many_arguments)]
pub fn play_stacked<B: Bot>(
    rules: &Rules,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    order: &[SevensCard],
    bot_seed: u64,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    let mut ids: Vec<u8> = order.iter().map(|c| c.0).collect();
    ids.sort_unstable();
    assert!(ids == (0..DECK_SIZE as u8).collect::<Vec<_>>(), "a stacked deck holds every card once");
    for (slot, c) in t.pile.cards.iter_mut().zip(order) {
        *slot = c.0;
    }
    t.pile.stacked = true;
    let result = play(rules, t, bots, seating, 0, bot_seed, sink, out);
    t.pile.stacked = false;
    result
}

/// Plays one unit (a hand, or with `carry-over` the hands until a pot is won), adding to
/// `out` (cleared by the caller). `bots[seating[s]]` plays seat `s`. With `verify`, the
/// invariants are checked after every step (see [`Table::check`]).
#[allow(clippy::too_many_arguments)]
pub fn play<B: Bot>(
    rules: &Rules,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    deal_seed: u64,
    bot_seed: u64,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    let mut bot_rngs = SeatRngs::new(bot_seed, rules.players);
    let n = rules.players;
    t.put_in = [0; MAX_SEATS];
    let mut carried = 0u32;
    let mut hand_no = 0;
    loop {
        let hand_seed = if hand_no == 0 { deal_seed } else { mix_seed(deal_seed, u64::from(hand_no), HAND_STREAM) };
        let mut deal_rng = Xoshiro256PlusPlus::seed_from_u64(hand_seed);
        let pot = play_hand(rules, t, bots, seating, &mut deal_rng, &mut bot_rngs, hand_no, carried, sink, out)?;
        hand_no += 1;
        let nobody_qualified = settle(rules, t, pot, sink, out);
        if t.verify {
            t.check(rules)?;
        }
        match nobody_qualified && rules.all_over == AllOver::CarryOver {
            true if hand_no < rules.max_carry_hands => carried = pot,
            true => {
                // The carry limit is reached: every stake goes back.
                for s in 0..n {
                    sink.event(Event::Refund { seat: s, chips: t.put_in[s] });
                    t.put_in[s] = 0;
                }
                break;
            }
            false => break,
        }
    }
    for s in 0..n {
        out.seats[s].score -= t.put_in[s] as i64;
        out.seats[s].rounds = hand_no;
    }
    out.length = hand_no;
    if t.verify {
        let total: i64 = out.seats[..n].iter().map(|r| r.score).sum();
        if total != 0 {
            return Err(Error::Invariant(format!("chips not conserved over the unit: seats net {total:+}")));
        }
    }
    Ok(())
}

/// Plays one hand up to the reveal; returns the pot (carry included).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn play_hand<B: Bot>(
    rules: &Rules,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    deal_rng: &mut Xoshiro256PlusPlus,
    bot_rngs: &mut SeatRngs,
    hand_no: u32,
    carried: u32,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<u32, Error> {
    let n = rules.players;
    sink.event(Event::HandStart { hand: hand_no, carried });
    t.pile.reset();
    let mut pot = carried;
    for s in 0..n {
        t.folded[s] = false;
        t.traded[s] = false;
        t.cards_traded[s] = 0;
        t.turns[s] = 0;
        t.street[s] = 0;
        t.put_in[s] += rules.ante;
        pot += rules.ante;
    }
    // Deal one card at a time, starting at the dealer's left.
    let mut cards = [[SevensCard(0); 3]; MAX_SEATS];
    for (round, k) in (0..3).flat_map(|r| (1..=n).map(move |k| (r, k))) {
        let s = k % n;
        cards[s][round] = t.pile.draw(deal_rng).expect("36 cards cover every deal");
    }
    for (s, dealt) in cards[..n].iter().enumerate() {
        t.hands[s] = SevensHand::new(dealt);
        sink.event(Event::Deal { seat: s, hand: t.hands[s] });
    }

    let mut current = 0u32;
    let mut raises = 0u32;
    let mut pending = n;
    let mut seat = 1 % n;
    let mut active = n;
    while pending > 0 && active > 1 {
        let s = seat;
        seat = (seat + 1) % n;
        if t.folded[s] {
            continue;
        }
        let to_call = current - t.street[s];
        let can_raise = raises < rules.raise_cap;
        let view = seat_view(rules, t, s, pot, to_call, can_raise, raises > 0, n);
        let action = bots[seating[s]].act(&view, bot_rngs.seat(s));
        if !view.allows(action) {
            return Err(Error::IllegalAction {
                bot: bots[seating[s]].name().to_string(),
                seat: s,
                action: format!("{action} (to call {to_call}, raises so far {raises})"),
            });
        }
        let paid = match action {
            Action::Fold => {
                t.folded[s] = true;
                out.seats[s].count(if t.turns[s] > 0 { FOLDS_LATER } else { FOLDS_FIRST });
                active -= 1;
                pending -= 1;
                0
            }
            Action::Check => {
                pending -= 1;
                0
            }
            Action::Call => {
                pending -= 1;
                to_call
            }
            Action::Raise => {
                raises += 1;
                current += rules.raise_size;
                pending = active - 1;
                to_call + rules.raise_size
            }
        };
        t.street[s] += paid;
        t.put_in[s] += paid;
        pot += paid;
        sink.event(Event::Act { seat: s, action, paid });
        t.turns[s] += 1;
        let may_trade = !t.traded[s] && (t.turns[s] == 1 || rules.trade_timing == TradeTiming::AnyTurn);
        if !t.folded[s] && may_trade && t.pile.left() > 0 {
            let view = seat_view(rules, t, s, pot, 0, false, raises > 0, n);
            let mask = bots[seating[s]].trade(&view, bot_rngs.seat(s)) & 0b111;
            if mask != 0 || rules.trade_timing == TradeTiming::FirstTurn {
                t.traded[s] = true;
            }
            let (mut gave, mut drew) = ([SevensCard(0); 3], [SevensCard(0); 3]);
            let mut k = 0;
            for i in (0..3).filter(|i| mask >> i & 1 == 1) {
                let Some(card) = t.pile.draw(deal_rng) else { break };
                gave[k] = t.hands[s].cards()[i];
                drew[k] = card;
                t.hands[s].replace(i, card);
                k += 1;
            }
            if t.verify && mask != 0 && k == 0 && t.pile.left() > 0 {
                return Err(Error::Invariant(format!("seat {s} asked to trade but drew nothing")));
            }
            if k > 0 {
                t.cards_traded[s] = k as u8;
                out.seats[s].sums[CARDS_TRADED] += k as i64;
                sink.event(Event::Trade {
                    seat: s,
                    gave: SevensHand::new(&gave[..k]),
                    drew: SevensHand::new(&drew[..k]),
                });
            }
        }
    }
    Ok(pot)
}

#[allow(clippy::too_many_arguments)]
fn seat_view<'a>(
    rules: &'a Rules,
    t: &'a Table,
    s: usize,
    pot: u32,
    to_call: u32,
    can_raise: bool,
    raised: bool,
    n: usize,
) -> SeatView<'a> {
    SeatView {
        rules,
        seat: s,
        hand: t.hands[s],
        traded: t.traded[s],
        cards_traded: &t.cards_traded[..n],
        trade_used: &t.traded[..n],
        folded: &t.folded[..n],
        pot,
        to_call,
        can_raise,
        raised,
        turn: t.turns[s],
        deck_left: t.pile.left(),
    }
}

/// Reveals and pays out one hand's pot; returns whether nobody qualified.
fn settle(rules: &Rules, t: &mut Table, pot: u32, sink: &mut impl EventSink<Event>, out: &mut RoundResult) -> bool {
    let n = rules.players;
    let live = |s: &usize| !t.folded[*s];
    let order = |k: usize| (k + 1) % n; // reveal and odd chips from the dealer's left
    if (0..n).filter(live).count() == 1 {
        let s = (0..n).find(live).expect("one seat left");
        sink.event(Event::LastStanding { seat: s });
        sink.event(Event::Award { seat: s, chips: pot });
        out.seats[s].score += pot as i64;
        out.seats[s].share_units = SHARE_UNIT;
        return false;
    }
    for s in (0..n).map(order).filter(|s| live(s)) {
        sink.event(Event::Reveal { seat: s, hand: t.hands[s] });
        out.seats[s].count(SHOWDOWNS);
        out.seats[s].observe(REVEALED, usize::from(t.hands[s].total() - 3));
    }
    let qualifies = |s: &usize| live(s) && t.hands[*s].total() <= 7;
    let mut count_all = |slot: usize| out.seats[..n].iter_mut().for_each(|r| r.count(slot));
    // Rank the contenders: (qualifying total, suit run); lowest-wins ranks by lowness.
    let key = |s: usize| -> (i32, u8) {
        let total = t.hands[s].total() as i32;
        if qualifies(&s) { (total, t.hands[s].suit_run()) } else { (-total, t.hands[s].suit_run()) }
    };
    let contenders: u32 = if (0..n).any(|s| qualifies(&s)) {
        (0..n).filter(qualifies).fold(0, |m, s| m | 1 << s)
    } else {
        count_all(NOBODY_QUALIFIES);
        sink.event(Event::NobodyQualifies);
        match rules.all_over {
            AllOver::Refund => {
                // Players still in take their stakes back and share what the folded forfeited.
                let stakes: u32 = (0..n).filter(live).map(|s| t.street[s] + rules.ante).sum();
                let forfeited = pot - stakes;
                let k = (0..n).filter(live).count() as u32;
                for (i, s) in (0..n).map(order).filter(|s| live(s)).enumerate() {
                    let back = t.street[s] + rules.ante;
                    let share = forfeited / k + u32::from((i as u32) < forfeited % k);
                    t.put_in[s] -= back;
                    sink.event(Event::Refund { seat: s, chips: back });
                    if share > 0 {
                        out.seats[s].score += i64::from(share);
                        sink.event(Event::Award { seat: s, chips: share });
                    }
                }
                return true;
            }
            AllOver::CarryOver => return true,
            AllOver::LowestWins => (0..n).filter(live).fold(0, |m, s| m | 1 << s),
        }
    };
    // Bit masks of seats, so the hot path does not allocate.
    let in_it = |s: usize| contenders >> s & 1 == 1;
    let best_total = (0..n).filter(|&s| in_it(s)).map(|s| key(s).0).max().expect("a contender");
    let at_total: u32 = (0..n).filter(|&s| in_it(s) && key(s).0 == best_total).fold(0, |m, s| m | 1 << s);
    let best_run = (0..n).filter(|&s| at_total >> s & 1 == 1).map(|s| key(s).1).max().expect("a contender");
    let winners: u32 = (0..n).filter(|&s| at_total >> s & 1 == 1 && key(s).1 == best_run).fold(0, |m, s| m | 1 << s);
    if at_total.count_ones() > 1 && winners != at_total {
        count_all(SUIT_TIEBREAK);
    }
    if winners.count_ones() > 1 {
        count_all(SPLIT);
    }
    let k = winners.count_ones();
    for (i, s) in (0..n).map(order).filter(|&s| winners >> s & 1 == 1).enumerate() {
        let chips = pot / k + u32::from((i as u32) < pot % k);
        let r = &mut out.seats[s];
        r.score += chips as i64;
        r.share_units = SHARE_UNIT / k;
        r.count(SHOWDOWN_WINS);
        r.observe(WINNING, usize::from(t.hands[s].total() - 3));
        sink.event(Event::Award { seat: s, chips });
    }
    false
}
