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

use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::bots::SevensBot;
use super::cards::{DECK_SIZE, SevensCard, SevensHand};
use super::measures::{
    CARDS_TRADED, FOLDS_FIRST, FOLDS_LATER, NOBODY_QUALIFIES, REVEALED, SHOWDOWN_WINS, SHOWDOWNS, SPLIT, SUIT_TIEBREAK,
    WINNING,
};
use super::rules::{AllOver, Rules, TradeTiming};
use super::view::{Action, Bot, BotRng, SeatView, TradeMask};
use crate::error::Error;
use crate::search::{Forward, Scratch, SearchNote, SeatBot, drive};
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
    /// The search bot chose a move.
    Search(SearchNote),
}

impl From<SearchNote> for Event {
    fn from(note: SearchNote) -> Event {
        Event::Search(note)
    }
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

/// Where the unit stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// The seat bets.
    Bet(u8),
    /// The seat, having bet, chooses cards to trade.
    Trade(u8),
    /// The unit is over.
    #[default]
    Over,
}

/// A decision: a bet, or the cards to trade (by position in the hand, 0 = keep all).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// A betting action.
    Bet(Action),
    /// A trade mask.
    Trade(TradeMask),
}

/// Everything every seat sees: bets, folds, trade counts, the pot, whose turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Public {
    /// Seats at the table.
    pub players: usize,
    /// Where the unit stands.
    pub phase: Phase,
    /// Seats that folded this hand.
    pub folded: [bool; MAX_SEATS],
    /// Seats that used their trade this hand.
    pub traded: [bool; MAX_SEATS],
    /// Cards each seat drew in its trade this hand.
    pub cards_traded: [u8; MAX_SEATS],
    /// Turns each seat has taken this hand.
    pub turns: [usize; MAX_SEATS],
    /// Chips each seat put in this hand's betting.
    pub street: [u32; MAX_SEATS],
    /// Chips each seat put in over the whole unit.
    pub put_in: [u32; MAX_SEATS],
    /// Chips in the pot.
    pub pot: u32,
    /// The bet to match this hand.
    pub current: u32,
    /// Raises this hand.
    pub raises: u32,
    /// Seats still to act before the betting closes.
    pub pending: usize,
    /// Seats still in.
    pub active: usize,
    /// The seat after the one acting.
    pub next_seat: usize,
    /// The hand within the unit (0-based).
    pub hand_no: u32,
    /// Chips carried into this hand.
    pub carried: u32,
    /// Cards drawn from the pile this hand.
    pub drawn: usize,
}

/// What one seat has seen: the public state, its cards and the cards it traded away.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Observation {
    /// The seat.
    pub seat: usize,
    /// Everything public.
    pub public: Public,
    /// Its cards.
    pub hand: SevensHand,
    /// The cards it traded away this hand.
    pub gave: SevensHand,
}

/// The state of one unit: the forward model of Sevens (reused between units).
#[derive(Clone, Debug)]
pub struct Table {
    public: Public,
    pile: Pile,
    hands: [SevensHand; MAX_SEATS],
    gave: [SevensHand; MAX_SEATS],
    deal_rng: Xoshiro256PlusPlus,
    deal_seed: u64,
    /// Check the invariants after every hand (`draftsim check` and tests turn it on).
    pub verify: bool,
}

impl Table {
    /// A table that checks the invariants after every hand, in any build.
    pub fn verified() -> Table {
        Table { verify: true, ..Table::default() }
    }

    /// The public part of the state.
    pub fn public(&self) -> &Public {
        &self.public
    }

    /// Seat `s`'s cards.
    pub fn hand(&self, s: usize) -> SevensHand {
        self.hands[s]
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

    /// Starts a unit with this deal seed: antes, the first hand's deal, up to the first
    /// decision.
    pub fn reset(&mut self, rules: &Rules, deal_seed: u64, sink: &mut impl EventSink<Event>, out: &mut RoundResult) {
        self.public.players = rules.players;
        self.public.put_in = [0; MAX_SEATS];
        self.public.hand_no = 0;
        self.public.carried = 0;
        self.deal_seed = deal_seed;
        self.deal_rng = Xoshiro256PlusPlus::seed_from_u64(deal_seed);
        self.start_hand(rules, sink);
        // A unit may not need a decision when the deal decides it (one player left).
        if let Err(e) = self.advance(rules, sink, out) {
            debug_assert!(false, "{e}");
        }
    }

    /// Antes and deals a hand (one card at a time from the dealer's left).
    #[inline(always)]
    fn start_hand(&mut self, rules: &Rules, sink: &mut impl EventSink<Event>) {
        let n = rules.players;
        let p = &mut self.public;
        sink.event(Event::HandStart { hand: p.hand_no, carried: p.carried });
        self.pile.reset();
        p.pot = p.carried;
        for s in 0..n {
            p.folded[s] = false;
            p.traded[s] = false;
            p.cards_traded[s] = 0;
            p.turns[s] = 0;
            p.street[s] = 0;
            p.put_in[s] += rules.ante;
            p.pot += rules.ante;
            self.gave[s] = SevensHand::default();
        }
        let mut cards = [[SevensCard(0); 3]; MAX_SEATS];
        for (round, k) in (0..3).flat_map(|r| (1..=n).map(move |k| (r, k))) {
            let s = k % n;
            cards[s][round] = self.pile.draw(&mut self.deal_rng).expect("36 cards cover every deal");
        }
        for (s, dealt) in cards[..n].iter().enumerate() {
            self.hands[s] = SevensHand::new(dealt);
            sink.event(Event::Deal { seat: s, hand: self.hands[s] });
        }
        p.current = 0;
        p.raises = 0;
        p.pending = n;
        p.next_seat = 1 % n;
        p.active = n;
        p.drawn = self.pile.next;
    }

    /// Moves on to the next decision: the next seat still in, or the end of the hand
    /// (settling it, then the next hand of a carry-over or the end of the unit).
    #[inline(always)]
    fn advance(&mut self, rules: &Rules, sink: &mut impl EventSink<Event>, out: &mut RoundResult) -> Result<(), Error> {
        let n = rules.players;
        loop {
            let p = &mut self.public;
            if p.pending > 0 && p.active > 1 {
                let s = p.next_seat;
                p.next_seat = (s + 1) % n;
                if !p.folded[s] {
                    p.phase = Phase::Bet(s as u8);
                    return Ok(());
                }
                continue;
            }
            p.hand_no += 1;
            let pot = p.pot;
            let nobody_qualified = settle(rules, self, pot, sink, out);
            if self.verify {
                self.check(rules)?;
            }
            let p = &mut self.public;
            match nobody_qualified && rules.all_over == AllOver::CarryOver {
                true if p.hand_no < rules.max_carry_hands => {
                    p.carried = pot;
                    let hand_seed = mix_seed(self.deal_seed, u64::from(p.hand_no), HAND_STREAM);
                    self.deal_rng = Xoshiro256PlusPlus::seed_from_u64(hand_seed);
                    self.start_hand(rules, sink);
                    continue;
                }
                true => {
                    // The carry limit is reached: every stake goes back.
                    for s in 0..n {
                        sink.event(Event::Refund { seat: s, chips: p.put_in[s] });
                        p.put_in[s] = 0;
                    }
                }
                false => {}
            }
            return self.finish(rules, out);
        }
    }

    /// Ends the unit: stakes come off the scores.
    fn finish(&mut self, rules: &Rules, out: &mut RoundResult) -> Result<(), Error> {
        let n = rules.players;
        let p = &mut self.public;
        p.phase = Phase::Over;
        for s in 0..n {
            out.seats[s].score -= p.put_in[s] as i64;
            out.seats[s].rounds = p.hand_no;
        }
        out.length = p.hand_no;
        if self.verify {
            let total: i64 = out.seats[..n].iter().map(|r| r.score).sum();
            if total != 0 {
                return Err(Error::Invariant(format!("chips not conserved over the unit: seats net {total:+}")));
            }
        }
        Ok(())
    }

    /// What seat `s` sees now; `betting` for a bet (a trade sees no call or raise).
    fn view<'a>(&'a self, rules: &'a Rules, s: usize, betting: bool) -> SeatView<'a> {
        let p = &self.public;
        let n = rules.players;
        SeatView {
            rules,
            seat: s,
            hand: self.hands[s],
            traded: p.traded[s],
            cards_traded: &p.cards_traded[..n],
            trade_used: &p.traded[..n],
            folded: &p.folded[..n],
            pot: p.pot,
            to_call: if betting { p.current - p.street[s] } else { 0 },
            can_raise: betting && p.raises < rules.raise_cap,
            raised: p.raises > 0,
            turn: p.turns[s],
            deck_left: self.pile.left(),
        }
    }

    /// Asks `bot` for the seat to move's decision, from its view.
    #[inline(always)]
    pub fn ask_bot<B: Bot + ?Sized>(&self, rules: &Rules, bot: &mut B, rng: &mut BotRng) -> Result<Move, Error> {
        match self.public.phase {
            Phase::Bet(s) => {
                let view = self.view(rules, s as usize, true);
                let action = bot.act(&view, rng);
                if !view.allows(action) {
                    return Err(Error::IllegalAction {
                        bot: bot.name().to_string(),
                        seat: s as usize,
                        action: format!("{action} (to call {}, raises so far {})", view.to_call, self.public.raises),
                    });
                }
                Ok(Move::Bet(action))
            }
            Phase::Trade(s) => Ok(Move::Trade(bot.trade(&self.view(rules, s as usize, false), rng) & 0b111)),
            Phase::Over => Err(Error::Invariant("a bot was asked to move after the unit ended".into())),
        }
    }

    /// Applies the seat to move's decision, then moves on to the next one.
    #[inline(always)]
    pub fn step(
        &mut self,
        rules: &Rules,
        m: Move,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        match (self.public.phase, m) {
            (Phase::Bet(s), Move::Bet(action)) => {
                if self.bet(rules, s as usize, action, sink, out) {
                    return Ok(());
                }
            }
            (Phase::Trade(s), Move::Trade(mask)) => self.trade(rules, s as usize, mask & 0b111, sink, out)?,
            (phase, m) => return Err(Error::Invariant(format!("move {m:?} does not fit phase {phase:?}"))),
        }
        self.advance(rules, sink, out)
    }

    /// A bet; returns whether the same seat trades next.
    #[inline(always)]
    fn bet(
        &mut self,
        rules: &Rules,
        s: usize,
        action: Action,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> bool {
        let p = &mut self.public;
        let to_call = p.current - p.street[s];
        let paid = match action {
            Action::Fold => {
                p.folded[s] = true;
                out.seats[s].count(if p.turns[s] > 0 { FOLDS_LATER } else { FOLDS_FIRST });
                p.active -= 1;
                p.pending -= 1;
                0
            }
            Action::Check => {
                p.pending -= 1;
                0
            }
            Action::Call => {
                p.pending -= 1;
                to_call
            }
            Action::Raise => {
                p.raises += 1;
                p.current += rules.raise_size;
                p.pending = p.active - 1;
                to_call + rules.raise_size
            }
        };
        p.street[s] += paid;
        p.put_in[s] += paid;
        p.pot += paid;
        sink.event(Event::Act { seat: s, action, paid });
        p.turns[s] += 1;
        let may_trade = !p.traded[s] && (p.turns[s] == 1 || rules.trade_timing == TradeTiming::AnyTurn);
        if !p.folded[s] && may_trade && self.pile.left() > 0 {
            p.phase = Phase::Trade(s as u8);
            return true;
        }
        false
    }

    /// A trade: the masked cards go, as many as the pile holds are drawn.
    #[inline(always)]
    fn trade(
        &mut self,
        rules: &Rules,
        s: usize,
        mask: TradeMask,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let p = &mut self.public;
        if mask != 0 || rules.trade_timing == TradeTiming::FirstTurn {
            p.traded[s] = true;
        }
        let (mut gave, mut drew) = ([SevensCard(0); 3], [SevensCard(0); 3]);
        let mut k = 0;
        for i in (0..3).filter(|i| mask >> i & 1 == 1) {
            let Some(card) = self.pile.draw(&mut self.deal_rng) else { break };
            gave[k] = self.hands[s].cards()[i];
            drew[k] = card;
            self.hands[s].replace(i, card);
            k += 1;
        }
        p.drawn = self.pile.next;
        if self.verify && mask != 0 && k == 0 && self.pile.left() > 0 {
            return Err(Error::Invariant(format!("seat {s} asked to trade but drew nothing")));
        }
        if k > 0 {
            p.cards_traded[s] = k as u8;
            self.gave[s] = SevensHand::new(&gave[..k]);
            out.seats[s].sums[CARDS_TRADED] += k as i64;
            sink.event(Event::Trade { seat: s, gave: self.gave[s], drew: SevensHand::new(&drew[..k]) });
        }
        Ok(())
    }
}

impl Table {
    /// This state with every card `seat` has not seen dealt again at random: the other
    /// seats' hands and traded-away cards and the undrawn pile, with a new chance stream.
    /// Made from the truth, not from an observation: the leak test's second state.
    pub fn redeal(&self, rules: &Rules, seat: usize, rng: &mut BotRng) -> Table {
        let mut t = self.clone();
        let mut hidden = Vec::new();
        for s in (0..rules.players).filter(|&s| s != seat) {
            hidden.extend(t.hands[s].cards().iter().chain(t.gave[s].cards()).copied());
        }
        hidden.extend(t.pile.cards[t.pile.next..].iter().map(|&c| SevensCard(c)));
        rand::seq::SliceRandom::shuffle(&mut hidden[..], rng);
        let mut next = hidden.into_iter();
        for s in (0..rules.players).filter(|&s| s != seat) {
            let hand: Vec<SevensCard> = next.by_ref().take(3).collect();
            t.hands[s] = SevensHand::new(&hand);
            let gave: Vec<SevensCard> = next.by_ref().take(t.gave[s].cards().len()).collect();
            t.gave[s] = SevensHand::new(&gave);
        }
        let drawn: Vec<u8> = (0..rules.players)
            .flat_map(|s| t.hands[s].cards().iter().chain(t.gave[s].cards()).map(|c| c.0).collect::<Vec<_>>())
            .collect();
        let rest: Vec<u8> = next.map(|c| c.0).collect();
        for (slot, c) in t.pile.cards.iter_mut().zip(drawn.iter().chain(&rest)) {
            *slot = *c;
        }
        t.deal_seed = rng.next_u64();
        t.deal_rng = Xoshiro256PlusPlus::seed_from_u64(rng.next_u64());
        t
    }
}

impl Default for Table {
    fn default() -> Self {
        Table {
            public: Public::default(),
            pile: Pile { cards: [0; DECK_SIZE], next: 0, stacked: false },
            hands: [SevensHand::default(); MAX_SEATS],
            gave: [SevensHand::default(); MAX_SEATS],
            deal_rng: Xoshiro256PlusPlus::seed_from_u64(0),
            deal_seed: 0,
            verify: cfg!(debug_assertions),
        }
    }
}

impl Forward for Table {
    type Rules = Rules;
    type Move = Move;
    type Obs = Observation;
    type Event = Event;
    type Bot = SevensBot;

    #[inline(always)]
    fn to_act(&self) -> Option<usize> {
        match self.public.phase {
            Phase::Bet(s) | Phase::Trade(s) => Some(s as usize),
            Phase::Over => None,
        }
    }

    fn legal(&self, rules: &Rules, out: &mut Vec<Move>) {
        out.clear();
        match self.public.phase {
            Phase::Bet(s) => {
                let view = self.view(rules, s as usize, true);
                for a in [Action::Fold, Action::Check, Action::Call, Action::Raise] {
                    if view.allows(a) {
                        out.push(Move::Bet(a));
                    }
                }
            }
            Phase::Trade(_) => out.extend((0..8).map(Move::Trade)),
            Phase::Over => {}
        }
    }

    #[inline(always)]
    fn apply<S: EventSink<Event>>(
        &mut self,
        rules: &Rules,
        m: Move,
        sink: &mut S,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        self.step(rules, m, sink, out)
    }

    #[inline(always)]
    fn ask(&self, rules: &Rules, bot: &mut SevensBot, rng: &mut BotRng) -> Result<Move, Error> {
        self.ask_bot(rules, bot, rng)
    }

    fn observe(&self, _rules: &Rules, seat: usize, out: &mut Observation) {
        *out = Observation { seat, public: self.public, hand: self.hands[seat], gave: self.gave[seat] };
    }

    fn determinize(rules: &Rules, obs: &Observation, rng: &mut BotRng, out: &mut Table) {
        let n = rules.players;
        let p = &obs.public;
        out.public = *p;
        out.verify = false;
        // Cards the observer has seen go first; the rest are shuffled among the other
        // seats' hands and trades and the pile.
        let mut seen = 0u64;
        let mut k = 0;
        for c in obs.hand.cards().iter().chain(obs.gave.cards()) {
            seen |= 1 << c.0;
            out.pile.cards[k] = c.0;
            k += 1;
        }
        for id in (0..DECK_SIZE as u8).filter(|id| seen >> id & 1 == 0) {
            out.pile.cards[k] = id;
            k += 1;
        }
        let mut at = obs.hand.cards().len() + obs.gave.cards().len();
        let own = at;
        // A partial shuffle of the unseen cards deals the other hands and their trades.
        let mut take = |out: &mut Table, count: usize, rng: &mut BotRng| -> usize {
            let from = at;
            for i in at..at + count {
                let j = i + rng.random_range(0..DECK_SIZE - i);
                out.pile.cards.swap(i, j);
            }
            at += count;
            from
        };
        for s in 0..n {
            if s == obs.seat {
                out.hands[s] = obs.hand;
                out.gave[s] = obs.gave;
                continue;
            }
            let from = take(out, 3, rng);
            let cards = [0, 1, 2].map(|i| SevensCard(out.pile.cards[from + i]));
            out.hands[s] = SevensHand::new(&cards);
            let traded = usize::from(p.cards_traded[s]);
            let from = take(out, traded, rng);
            let cards = [0, 1, 2].map(|i| SevensCard(out.pile.cards[(from + i).min(DECK_SIZE - 1)]));
            out.gave[s] = SevensHand::new(&cards[..traded]);
        }
        debug_assert!(own <= at && at == p.drawn, "the determinized deal draws what was drawn");
        out.pile.next = p.drawn;
        out.pile.stacked = false;
        out.deal_seed = rng.next_u64();
        out.deal_rng = Xoshiro256PlusPlus::seed_from_u64(rng.next_u64());
    }

    fn key(&self, _rules: &Rules, actor: usize, observer: usize, m: Move) -> u32 {
        match m {
            Move::Bet(a) => a as u32,
            Move::Trade(mask) if actor == observer => 0x10 | u32::from(mask & 0b111),
            Move::Trade(mask) => 0x20 | (mask & 0b111).count_ones().min(self.pile.left() as u32),
        }
    }

    fn returns(&self, rules: &Rules, out: &RoundResult, seat: usize) -> f64 {
        // Net chips scaled by the largest pot one hand can reach.
        let stake = rules.ante + rules.raise_cap * rules.raise_size;
        let span = (rules.players as u32 * stake).max(1) as f64;
        (0.5 + out.seats[seat].score as f64 / (2.0 * span)).clamp(0.0, 1.0)
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

/// Plays one unit (a hand, or with `carry-over` the hands until a pot is won) with
/// heuristic bots, adding to `out` (cleared by the caller). `bots[seating[s]]` plays seat
/// `s`. With `verify`, the invariants are checked after every hand.
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
    let mut rngs = SeatRngs::new(bot_seed, rules.players);
    t.reset(rules, deal_seed, sink, out);
    while let Some(s) = t.to_act() {
        let m = t.ask_bot(rules, &mut bots[seating[s]], rngs.seat(s))?;
        t.step(rules, m, sink, out)?;
    }
    Ok(())
}

/// Plays one unit with any seats, the search bot among them (see [`play`]).
#[allow(clippy::too_many_arguments)]
pub fn play_seats(
    rules: &Rules,
    t: &mut Table,
    bots: &mut [SeatBot<Table>],
    seating: &[usize],
    deal_seed: u64,
    bot_seed: u64,
    scratch: &mut Scratch<Table>,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    let mut rngs = SeatRngs::new(bot_seed, rules.players);
    t.reset(rules, deal_seed, sink, out);
    drive(rules, t, bots, seating, &mut rngs, scratch, sink, out)
}

/// Reveals and pays out one hand's pot; returns whether nobody qualified.
fn settle(rules: &Rules, t: &mut Table, pot: u32, sink: &mut impl EventSink<Event>, out: &mut RoundResult) -> bool {
    let n = rules.players;
    let p = &mut t.public;
    let hands = &t.hands;
    let folded = p.folded;
    let live = |s: &usize| !folded[*s];
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
        sink.event(Event::Reveal { seat: s, hand: hands[s] });
        out.seats[s].count(SHOWDOWNS);
        out.seats[s].observe(REVEALED, usize::from(hands[s].total() - 3));
    }
    let qualifies = |s: &usize| live(s) && hands[*s].total() <= 7;
    let mut count_all = |slot: usize| out.seats[..n].iter_mut().for_each(|r| r.count(slot));
    // Rank the contenders: (qualifying total, suit run); lowest-wins ranks by lowness.
    let key = |s: usize| -> (i32, u8) {
        let total = hands[s].total() as i32;
        if qualifies(&s) { (total, hands[s].suit_run()) } else { (-total, hands[s].suit_run()) }
    };
    let contenders: u32 = if (0..n).any(|s| qualifies(&s)) {
        (0..n).filter(qualifies).fold(0, |m, s| m | 1 << s)
    } else {
        count_all(NOBODY_QUALIFIES);
        sink.event(Event::NobodyQualifies);
        match rules.all_over {
            AllOver::Refund => {
                // Players still in take their stakes back and share what the folded forfeited.
                let stakes: u32 = (0..n).filter(live).map(|s| p.street[s] + rules.ante).sum();
                let forfeited = pot - stakes;
                let k = (0..n).filter(live).count() as u32;
                for (i, s) in (0..n).map(order).filter(|s| live(s)).enumerate() {
                    let back = p.street[s] + rules.ante;
                    let share = forfeited / k + u32::from((i as u32) < forfeited % k);
                    p.put_in[s] -= back;
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
        r.observe(WINNING, usize::from(hands[s].total() - 3));
        sink.event(Event::Award { seat: s, chips });
    }
    false
}
