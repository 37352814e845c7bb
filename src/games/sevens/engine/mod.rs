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
use super::rules::{AllOver, DEFAULT_RAISE_CAP, RAISE_CAP_USED, Rules, TradeTiming};
use super::view::{Action, Bot, BotRng, SeatView, TradeMask};
use crate::error::{Error, Step};
use crate::search::{Forward, SearchNote};
pub use crate::sim::NoEvents;
use crate::sim::{Deal, MAX_SEATS, RoundResult, SHARE_UNIT, UnitSeeds, mix_seed};

mod forward;
mod steps;
#[doc(hidden)]
pub mod testing;

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
    /// A seat at its chance to trade keeps its cards: it stood pat, or the pile it would
    /// draw from is empty.
    Keep {
        /// The seat.
        seat: usize,
        /// Whether it asked for cards the empty pile could not give.
        pile_empty: bool,
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
    /// Nobody qualified and the pot is refunded: a seat still in takes its share of the
    /// stakes the folded forfeited (no win).
    Forfeit {
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

crate::game_events!(Event);

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
    /// This hand's moves as every seat sees them, in order: the seat in the high bits, then
    /// 1 + the action for a bet or 8 + the cards drawn for a trade (a search replays them).
    pub log: [u8; HAND_LOG],
    /// Moves this hand, counted past the log's length.
    pub logged: u8,
}

/// Moves a hand's log holds (a hand with more is not replayed).
pub const HAND_LOG: usize = 32;

impl Public {
    /// Notes a move in the hand's log.
    #[inline(always)]
    fn record(&mut self, seat: usize, code: u8) {
        if let Some(slot) = self.log.get_mut(usize::from(self.logged)) {
            *slot = (seat as u8) << 4 | code;
        }
        self.logged = self.logged.saturating_add(1);
    }
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
pub struct State {
    public: Public,
    pile: Pile,
    hands: [SevensHand; MAX_SEATS],
    gave: [SevensHand; MAX_SEATS],
    deal_rng: Xoshiro256PlusPlus,
    deal_seed: u64,
    /// Check the invariants after every hand (`draftsim check` and tests turn it on).
    pub verify: bool,
}
