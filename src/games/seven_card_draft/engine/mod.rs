//! The Seven Card Draft engine: the forward model of a round (or, in game mode, a whole
//! game) as a state machine. Each state says whose decision it is (a pick or a bet);
//! [`State::step`] applies it and runs everything up to the next decision (reveals,
//! passes, betting-order choices, showdowns, the next round's deal), drawing the deal from
//! the deal seed alone.
//!
//! Points the rules leave to us, as implemented here:
//! - The dealer is seat 0 in round mode; in game mode the deal moves one seat to the left
//!   (up) each round, skipping players with no chips. "Betting order" (ties for the lead,
//!   odd chips) runs from the seat after the dealer in the betting direction round to the
//!   dealer.
//! - Round mode: the unit's index in the run is the round number `k` of the rules (round k
//!   passes left when k is even). Game mode: round `r` of a game passes left when r is
//!   even, and its cards come from (deal seed, r) alone, so players busting never changes
//!   later rounds' cards.
//! - The opening bet counts as a raise towards `raise_cap`.
//! - An all-in raise smaller than the minimum is allowed and reopens the betting.
//! - Chips nobody else matched are returned to their owner and do not count as winnings.
//! - Pot shares: each pot is split equally among its winners; a round's shares sum to 1.
//! - A forced pick (one card left in the pack) is made without asking the bot.
//! - Simultaneous picks are asked seat by seat (seat 0 first); no seat sees another's
//!   choice until every seat has picked.

use crate::cards::shuffle::partial_shuffle;
use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::bots::{MAX_PACK, ModularBot, ranked_picks};
use super::measures::{
    FINISHED, FOLDED, FOLDS, HATE_PICKS, HATE_ROUNDS, HATE_ROUNDS_NET, PICKS, ROUNDS_WITHOUT_HATE,
    ROUNDS_WITHOUT_HATE_NET, SHOWDOWN_WINS, SHOWDOWNS, WILD_WINS, WINNING,
};
use super::rules::{Limit, Mode, Variant};
use super::view::{Action, BetOptions, Bot, BotRng, PackMemory, PickChoice, PublicAction, SeatView};
use crate::cards::{Card, CardSet};
use crate::error::{Error, Step};
use crate::eval::HandValue;
use crate::search::{Forward, SearchNote};
pub use crate::sim::NoEvents;
use crate::sim::{CardLog, Deal, MAX_SEATS, RoundResult, SHARE_UNIT, SeatRngs, mix_seed};

mod steps;
pub(crate) use steps::round_stake;
use steps::*;
mod forward;
#[doc(hidden)]
pub mod testing;
pub use forward::*;
mod settle;
use settle::*;

/// Stream tag of a game-mode round's deal seed.
const ROUND_STREAM: u64 = 0x5CD_0001;

/// Most picks in a round (the largest pack).
pub const MAX_PICKS: usize = 7;

/// No card (a face-down pick in [`Public::shown`], no holder in a pack's history).
const NONE: u8 = u8::MAX;

/// One pick as recorded for the harness and replays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PickRecord {
    /// The card taken.
    pub card: Option<Card>,
    /// Whether the bot called it a hate pick.
    pub hate: bool,
    /// The seat whose pack this was at the deal.
    pub pack_of: u8,
}

/// Something that happened, for replays; the simulation uses a sink that ignores them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A round begins.
    RoundStart {
        /// Round number within the game (0 in round mode).
        round: u32,
        /// The dealer.
        dealer: usize,
        /// +1 left, -1 right.
        direction: i8,
    },
    /// A seat pays its ante.
    Ante {
        /// The seat.
        seat: usize,
        /// Chips paid.
        chips: u32,
    },
    /// A seat is dealt its pack.
    Deal {
        /// The seat.
        seat: usize,
        /// The pack.
        pack: CardSet,
    },
    /// A seat picks a card.
    Pick {
        /// The seat.
        seat: usize,
        /// Pick number, 1-based.
        pick: usize,
        /// The choice.
        choice: PickChoice,
        /// Whether the pick is turned face up.
        face_up: bool,
        /// The seat whose pack it was at the deal.
        pack_of: usize,
        /// What was left in the pack before the pick.
        pack: CardSet,
    },
    /// A betting round begins.
    BettingStart {
        /// Betting round (0-based).
        round: usize,
        /// The seat that leads.
        leader: usize,
        /// The leader's face-up cards.
        leader_face_up: CardSet,
    },
    /// A seat acts.
    Act {
        /// The action.
        action: PublicAction,
        /// Whether the seat is now all-in.
        all_in: bool,
    },
    /// A seat shows its hand.
    Show {
        /// The seat.
        seat: usize,
        /// Its whole hand.
        hand: CardSet,
        /// The cards judged wild.
        wilds: CardSet,
        /// Its last pick.
        last_pick: Option<Card>,
    },
    /// A seat wins chips from a pot (`pot` 0 is the main pot).
    Award {
        /// The seat.
        seat: usize,
        /// Chips.
        chips: u32,
        /// Pot index.
        pot: usize,
    },
    /// Chips nobody matched go back to their owner.
    Refund {
        /// The seat.
        seat: usize,
        /// Chips.
        chips: u32,
    },
    /// Everyone else folded.
    LastStanding {
        /// The seat left.
        seat: usize,
    },
    /// The search bot chose a move.
    Search(SearchNote),
}

crate::game_events!(Event);

/// Where the unit stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// The seat picks a card from the pack it holds.
    Pick(u8),
    /// The seat bets.
    Bet(u8),
    /// The unit is over.
    #[default]
    Over,
}

/// A decision: a card taken from the pack, or a betting action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// A pick.
    Pick(PickChoice),
    /// A betting action.
    Bet(Action),
}

/// The betting round in progress (all public).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Betting {
    /// Betting round (0-based).
    pub round: u8,
    /// The bet each seat must match this betting round.
    pub current: u32,
    /// Raises so far (the opening bet included).
    pub raises: u32,
    /// The largest raise so far (the minimum for the next one under pot and no limit).
    pub last_raise: u32,
    /// Seats still to act before the betting closes.
    pub pending: u32,
    /// Seats that can still act (in, with chips), as bits.
    pub can_act: u32,
}

/// Everything every seat sees: chips, folds, face-up cards, where each pack is, whose turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Public {
    /// Seats at the table.
    pub players: usize,
    /// +1 when packs and betting go to the left, -1 to the right.
    pub dir: i8,
    /// The dealer.
    pub dealer: usize,
    /// The round within the game (0 in round mode).
    pub round: u32,
    /// The pick being made, or the last one made while betting (1-based).
    pub pick: usize,
    /// Whose decision it is.
    pub phase: Phase,
    /// Seats out of the round (folded, or sitting out with no chips).
    pub folded: [bool; MAX_SEATS],
    /// The betting round each seat folded in.
    pub fold_round: [Option<u8>; MAX_SEATS],
    /// Seats not folded.
    pub active: u8,
    /// Every seat's stack.
    pub stacks: [u32; MAX_SEATS],
    /// Chips each seat has put in this round.
    pub committed: [u32; MAX_SEATS],
    /// Chips each seat has put in this betting round.
    pub street: [u32; MAX_SEATS],
    /// Chips in the pot (the sum of `committed`).
    pub pot: u32,
    /// Every seat's face-up cards.
    pub face_up: [CardSet; MAX_SEATS],
    /// Per seat and pick: the card turned face up ([`NONE`] for a face-down pick).
    pub shown: [[u8; MAX_PICKS]; MAX_SEATS],
    /// Per seat: the pack it holds now, by the seat it was dealt to.
    pub pack_of: [u8; MAX_SEATS],
    /// Per pick: `pack_of` at that pick (the passes are public).
    pub held: [[u8; MAX_SEATS]; MAX_PICKS],
    /// Stacks at the round's start (before the antes).
    pub round_stacks: [u32; MAX_SEATS],
    /// Rounds each seat has been dealt into this game.
    pub dealt_in: [u32; MAX_SEATS],
    /// Chips in play at the round's start, for the conservation check.
    pub chips_total: u64,
    /// The betting round in progress.
    pub betting: Betting,
    /// The betting round as it stood at its start or just after its last fold, whichever
    /// is later: a sampled world's past is replayed from there (a fold throws away cards
    /// that a sampled world no longer places).
    pub cut: Betting,
    /// Betting actions of the round (`history`) made before the cut.
    pub cut_acts: u32,
    /// The seat to bet at the cut.
    pub cut_seat: u8,
}

/// What one seat has seen: everything public, its own picks and the packs it has held.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Observation {
    /// The seat.
    pub seat: usize,
    /// Everything public.
    pub public: Public,
    /// The round's betting actions.
    pub history: Vec<PublicAction>,
    /// Its hand.
    pub hand: CardSet,
    /// The pack it holds (what it left in it, while betting).
    pub pack: CardSet,
    /// Every card it has seen in the packs it held this round.
    pub seen: CardSet,
    /// Per pick: the pack it held, before picking.
    pub pack_seen: [CardSet; MAX_PICKS],
    /// Its picks this round.
    pub took: [PickRecord; MAX_PICKS],
    /// Per pack: what it left in it when it last passed it.
    pub left_in: [CardSet; MAX_SEATS],
    /// For each pack that came back: the cards taken from it downstream.
    pub came_back: [CardSet; MAX_PICKS],
    /// How many packs came back.
    pub came_back_len: u8,
    /// Its final pick, once made.
    pub last_pick: Option<Card>,
    /// Whether it made a hate pick this round.
    pub hated: bool,
    /// Its choice at the pick in progress, once made (the others cannot see it yet).
    pub chosen: Option<PickChoice>,
}

/// The state of one unit: the forward model of Seven Card Draft (reused between units).
#[derive(Clone, Debug)]
pub struct State {
    public: Public,
    history: Vec<PublicAction>,
    packs: [CardSet; MAX_SEATS],
    hands: [CardSet; MAX_SEATS],
    seen: [CardSet; MAX_SEATS],
    /// Per seat: the pack it held at each pick, before picking.
    pack_seen: [[CardSet; MAX_PICKS]; MAX_SEATS],
    /// Per seat and pack (by the seat it was dealt to): the cards the seat left in it when
    /// it last passed it.
    left_in: [[CardSet; MAX_SEATS]; MAX_SEATS],
    /// Per seat: for each pack that came back to it, the cards gone from it since it was
    /// passed (taken by the seats downstream), and how many such returns.
    came_back: [[CardSet; MAX_PICKS]; MAX_SEATS],
    came_back_len: [u8; MAX_SEATS],
    last_pick: [Option<Card>; MAX_SEATS],
    /// Whether the seat made a hate pick this round.
    hated: [bool; MAX_SEATS],
    picks: [[PickRecord; MAX_PICKS]; MAX_SEATS],
    /// The choices made at the pick in progress.
    choices: [PickChoice; MAX_SEATS],
    discarded: CardSet,
    undealt: CardSet,
    /// Each seat's face-up hand value, updated when a card is turned up (leads the betting).
    face_up_value: [HandValue; MAX_SEATS],
    /// The next active seat in the direction of play, updated when someone folds.
    next: [u8; MAX_SEATS],
    /// Seats in betting order: from the seat after the dealer round to the dealer.
    order: [u8; MAX_SEATS],
    /// The unit's deal seed (game mode draws each round's from it).
    deal_seed: u64,
    /// Packs for a stacked deal, used instead of a shuffle when `stacked`.
    stacked_packs: [CardSet; MAX_SEATS],
    stacked: bool,
    deck_buf: Vec<Card>,
    /// The last shuffled deal's seed and card count, and its packs in deal order: every
    /// rotation of a deal has its seed, so only the first one shuffles.
    last_deal: Option<(u64, usize)>,
    last_packs: [CardSet; MAX_SEATS],
    /// Check chips and card places after every step, in any build (tests turn it on).
    verify: bool,
}

impl Default for State {
    fn default() -> State {
        State {
            public: Public::default(),
            history: Vec::with_capacity(64),
            packs: [CardSet::EMPTY; MAX_SEATS],
            hands: [CardSet::EMPTY; MAX_SEATS],
            seen: [CardSet::EMPTY; MAX_SEATS],
            pack_seen: [[CardSet::EMPTY; MAX_PICKS]; MAX_SEATS],
            left_in: [[CardSet::EMPTY; MAX_SEATS]; MAX_SEATS],
            came_back: [[CardSet::EMPTY; MAX_PICKS]; MAX_SEATS],
            came_back_len: [0; MAX_SEATS],
            last_pick: [None; MAX_SEATS],
            hated: [false; MAX_SEATS],
            picks: [[PickRecord::default(); MAX_PICKS]; MAX_SEATS],
            choices: [PickChoice::own(Card::from_index(0)); MAX_SEATS],
            discarded: CardSet::EMPTY,
            undealt: CardSet::EMPTY,
            face_up_value: [HandValue(0); MAX_SEATS],
            next: [0; MAX_SEATS],
            order: [0; MAX_SEATS],
            deal_seed: 0,
            stacked_packs: [CardSet::EMPTY; MAX_SEATS],
            stacked: false,
            deck_buf: Vec::new(),
            last_deal: None,
            last_packs: [CardSet::EMPTY; MAX_SEATS],
            verify: cfg!(debug_assertions),
        }
    }
}
