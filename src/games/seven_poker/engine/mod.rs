//! The Seven Poker engine: a deterministic state machine driven by the round seeds and the
//! bots' choices.
//!
//! Points the rules leave to us, as implemented here (rules keys name the options):
//! - Seat 0 is the first player of round 0 (the dealer sits to their right); the first
//!   player moves one seat left each round.
//! - Round r's pile is shuffled from (deal seed, r) alone. Cards are drawn in turn from the
//!   first player. A deck too short to refill every hand (victory cards leave play) deals
//!   what is left (`short_pile`: `in-turn`, each drawing up in turn; `one-at-a-time`, around
//!   the table; or `ends-game`: the game ends before the round and the player with the most
//!   victory cards wins, nobody if several have the most).
//! - Strength is by category only (all seven colours, then the longest colour's count):
//!   four red ties four blue, and tied players all lose.
//! - The winning colour is the longest colour; if several are equally long the winner
//!   takes one it does not hold yet. A seven-colour win takes two colours the winner does
//!   not hold. Where there is a choice the winner's bot makes it (`victory_colours =
//!   "chosen"`), or the lowest are taken (`"lowest"`). A victory card leaves the hand and
//!   play.
//! - A player who is the only one to stay wins without a showdown and then discards its
//!   hand like those who competed (`lone_stayer = "discards"`), or, not having competed at a
//!   showdown, keeps what it chooses like a folder (`"keeps"`).
//! - If everyone folds nobody wins (`all_fold = "nobody"`); or every hand is compared as at
//!   a showdown and everyone discards (`"showdown"`); or the last to declare, seeing every
//!   other seat fold, must stay and wins alone (`"last-stays"`).
//! - A "bluff stay" is a stay whose shown cards suggested more than the hand held: cards
//!   all of different colours (which may mean all seven colours) from a hand without all
//!   seven. Cards of one colour never suggest more: the hand holds at least those.
//!
//! The unit is a state machine ([`State`], a [`Forward`] model): [`Phase`] says who decides
//! what, [`State::step`] applies a [`Move`] and runs every chance step (deals, draws, the
//! showdown) up to the next decision. Card numbers never matter under these rules (only
//! colour counts do), so the moves the search considers ([`Forward::legal`]) take the lowest
//! cards of each colour: moves that differ only in which same-colour cards they pick are
//! one move. A heuristic bot may still name any cards.

use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::bots::SevenPokerBot;
use super::cards::{COLOURS, Layout, SEVEN_COLOURS, category_bin, ids, nth};
use super::measures::{
    BLUFF_STAYS, BLUFF_WINS, CAPPED, EXCHANGED, KEPT_FOLDS, KEPT_FOLDS_PAID, NOBODY_STAYS, ROUND_WINS,
    SEVEN_COLOUR_WINS, SHORT_DEALS, SHORT_ENDS, SHOWDOWN, STAYS, TIE_OUTS, VICTORY_CARDS, WINNING,
};
use super::rules::{AllFold, LeftSwap, LoneStayer, Rules, ShortPile, Unit, VictoryColours};
use super::view::{Bot, BotRng, SeatView};
use crate::cards::shuffle::shuffle;
use crate::error::{Error, Step};
use crate::search::{Forward, SearchNote};
pub use crate::sim::NoEvents;
use crate::sim::{Deal, MAX_SEATS, RoundResult, SHARE_UNIT, SeatRngs, mix_seed};

mod steps;
pub use steps::*;
mod forward;
#[doc(hidden)]
pub mod testing;
use forward::*;

/// Room for the largest deck (9 cards of each of the seven colours).
const DECK_MAX: usize = 64;

/// Stream tag of a round's shuffle.
const ROUND_STREAM: u64 = 0x5E7E_0001;

/// Something that happened, for replays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A round begins.
    RoundStart {
        /// Round number in the game.
        round: u32,
        /// The first player.
        first: usize,
    },
    /// A seat's hand after drawing up.
    Hand {
        /// The seat.
        seat: usize,
        /// Its cards.
        cards: u64,
    },
    /// A left-neighbour swap.
    Swap {
        /// The active seat.
        seat: usize,
        /// The card it gave.
        gave: u8,
        /// The card it got back.
        got: u8,
    },
    /// An exchange (nothing discarded: the seat kept its hand).
    Exchange {
        /// The seat.
        seat: usize,
        /// Cards discarded face up.
        discarded: u64,
        /// Cards drawn.
        drew: u64,
    },
    /// Cards shown.
    Show {
        /// The seat.
        seat: usize,
        /// The cards.
        cards: u64,
    },
    /// A declaration.
    Declare {
        /// The seat.
        seat: usize,
        /// Stays (true) or folds.
        stays: bool,
    },
    /// A stayer's whole hand at the showdown.
    Reveal {
        /// The seat.
        seat: usize,
        /// Its cards.
        cards: u64,
    },
    /// The round's outcome: the winner (if any) and the victory colours taken.
    Outcome {
        /// The winner.
        winner: Option<usize>,
        /// Victory colours taken, as bits.
        colours: u8,
        /// Whether ties made every stayer lose.
        tie_out: bool,
    },
    /// A seat that folded (or won alone and may keep) keeps cards for the next round.
    Keep {
        /// The seat.
        seat: usize,
        /// The cards kept.
        cards: u64,
    },
    /// The search bot chose a move.
    Search(SearchNote),
}

crate::game_events!(Event);

/// Where the unit stands: who decides what.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// The seat may give its left neighbour a card (under `left_swap`).
    SwapGive(u8),
    /// The seat, given a card by its right neighbour, gives one back (`left_swap = "chosen"`).
    SwapReturn(u8),
    /// The seat exchanges cards with the pile.
    Exchange(u8),
    /// The seat chooses the cards it shows (revealed once every seat has chosen).
    Show(u8),
    /// The seat stays or folds.
    Declare(u8),
    /// The round's winner chooses its victory colours.
    Victory(u8),
    /// The seat, not having competed, keeps cards for the next round.
    Keep(u8),
    /// The unit is over.
    #[default]
    Over,
}

/// A decision of the seat to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// A card to give the left neighbour, or none.
    SwapGive(Option<u8>),
    /// The card given back.
    SwapReturn(u8),
    /// The cards discarded face up (as many are drawn).
    Exchange(u64),
    /// The cards shown.
    Show(u64),
    /// Stays (true) or folds.
    Stay(bool),
    /// The victory colours taken, as bits.
    Victory(u8),
    /// The cards kept.
    Keep(u64),
}

/// Everything every seat sees.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Public {
    /// Seats at the table.
    pub players: usize,
    /// Where the unit stands.
    pub phase: Phase,
    /// Round number within the game.
    pub round: u32,
    /// The round's first player.
    pub first: usize,
    /// The exchange orbit under way.
    pub orbit: u8,
    /// Position in the pass around the table under way (exchanges, shows, declarations
    /// from the dealer, keeps by seat).
    pub pass: u8,
    /// Cards discarded face up this round.
    pub discards: u64,
    /// The cards each seat discarded face up this round.
    pub discarded: [u64; MAX_SEATS],
    /// Hand sizes as the bots see them: set at the deal and when victory cards leave.
    pub sizes: [u8; MAX_SEATS],
    /// Cards each hand holds now (a swap under way, kept cards, hands given back).
    pub held: [u8; MAX_SEATS],
    /// Victory cards taken so far (out of play), face up.
    pub removed: u64,
    /// Cards each seat has shown this round.
    pub shown: [u64; MAX_SEATS],
    /// Cards everyone knows each seat holds: shown cards, then a whole hand revealed at
    /// the showdown.
    pub known: [u64; MAX_SEATS],
    /// Revealed cards that went back to the deck this round.
    pub gone: u64,
    /// Each seat's declaration so far.
    pub declared: [Option<bool>; MAX_SEATS],
    /// Each seat's victory colours, as bits.
    pub victory: [u8; MAX_SEATS],
    /// Seats that folded and kept cards last round.
    pub kept_fold: [bool; MAX_SEATS],
    /// Cards left in the draw pile.
    pub pile: u8,
    /// This round's winner, once known.
    pub round_winner: Option<u8>,
    /// Whether ties made every stayer lose this round.
    pub tie_out: bool,
    /// Everyone folded and every hand competed (`all_fold = "showdown"`).
    pub all_compete: bool,
    /// A lone stayer keeps cards (`lone_stayer = "keeps"`).
    pub lone_keeps: bool,
    /// The game's winner, once known.
    pub game_winner: Option<u8>,
    /// The game ended because the deck was too short (`short_pile = "ends-game"`).
    pub short_end: bool,
}

/// What one seat has seen: the public state and its own cards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Observation {
    /// The seat.
    pub seat: usize,
    /// Everything public.
    pub public: Public,
    /// Its cards.
    pub hand: u64,
    /// The card its right neighbour gave it, while it chooses one to give back.
    pub received: Option<u8>,
    /// The cards it chose to show, while others still choose.
    pub chosen: u64,
}

/// The state of one unit (a game, or a round): the forward model of Seven Poker, reused
/// between units.
#[derive(Clone, Debug)]
pub struct State {
    public: Public,
    hands: [u64; MAX_SEATS],
    /// Show choices, revealed together once every seat has chosen.
    choices: [u64; MAX_SEATS],
    /// The draw pile; the last card (below `public.pile`) is drawn first.
    pile: [u8; DECK_MAX],
    /// The card given in a swap awaiting its return.
    swap_card: u8,
    deal_seed: u64,
    /// The round's chance stream: its shuffle, then random swap returns.
    round_rng: Xoshiro256PlusPlus,
    /// The next round's pile is set by the caller (a stacked deck).
    stacked: bool,
    /// The unit is this one round, with no game bookkeeping (a stacked round).
    single_round: bool,
    /// A search world stops after this round (`u32::MAX`: never).
    last_round: u32,
    /// The world stopped at `last_round` before the game ended.
    truncated: bool,
    /// Check the invariants after every step (`draftsim check` and tests turn it on).
    pub verify: bool,
}

impl Default for State {
    fn default() -> Self {
        State {
            public: Public::default(),
            hands: [0; MAX_SEATS],
            choices: [0; MAX_SEATS],
            pile: [0; DECK_MAX],
            swap_card: 0,
            deal_seed: 0,
            round_rng: Xoshiro256PlusPlus::seed_from_u64(0),
            stacked: false,
            single_round: false,
            last_round: u32::MAX,
            truncated: false,
            verify: cfg!(debug_assertions),
        }
    }
}

fn illegal<B: Bot + ?Sized>(bot: &B, seat: usize, action: String) -> Error {
    Error::IllegalAction { bot: bot.name().to_string(), seat, action }
}

/// Each colour's cards of a hand, lowest first, as growing masks: `prefix[c][k]` holds the
/// `k` lowest cards of colour `c`.
#[inline(always)]
fn colour_prefixes(layout: Layout, hand: u64) -> ([[u64; 10]; COLOURS], [u8; COLOURS]) {
    let mut prefix = [[0u64; 10]; COLOURS];
    let mut len = [0u8; COLOURS];
    for c in 0..COLOURS {
        let mut cards = hand & layout.colour_mask(c);
        let mut acc = 0;
        while cards != 0 {
            acc |= cards & cards.wrapping_neg();
            cards &= cards - 1;
            len[c] += 1;
            prefix[c][usize::from(len[c])] = acc;
        }
    }
    (prefix, len)
}

/// Every subset of `hand` of `lo..=hi` cards that takes the lowest cards of each colour
/// (numbers never matter, so these stand for every subset with the same colour counts).
#[inline(always)]
fn colour_subsets(layout: Layout, hand: u64, lo: usize, hi: usize, out: &mut Vec<Move>, wrap: fn(u64) -> Move) {
    let (prefix, len) = colour_prefixes(layout, hand);
    let mut take = [0u8; COLOURS];
    loop {
        let total: usize = take.iter().map(|&k| usize::from(k)).sum();
        if (lo..=hi).contains(&total) {
            out.push(wrap((0..COLOURS).fold(0, |m, c| m | prefix[c][usize::from(take[c])])));
        }
        // The next count vector (an odometer over the colours).
        let mut c = 0;
        loop {
            if c == COLOURS {
                return;
            }
            if take[c] < len[c] {
                take[c] += 1;
                break;
            }
            take[c] = 0;
            c += 1;
        }
    }
}

/// A hand, the range of card counts of its subsets, and the move each subset makes.
type SubsetMenu = (u64, usize, usize, fn(u64) -> Move);

/// How many subsets [`colour_subsets`] lists for `hand` and `lo..=hi`, counted without
/// listing them: the number of colour-count vectors (0 to each colour's length) whose
/// total lies in the range.
fn colour_subset_count(layout: Layout, hand: u64, lo: usize, hi: usize) -> usize {
    // ways[t]: vectors over the colours so far with total t (at most 9 cards a colour).
    let mut ways = [0usize; COLOURS * 9 + 1];
    ways[0] = 1;
    let mut top = 0;
    for c in 0..COLOURS {
        let len = (hand & layout.colour_mask(c)).count_ones() as usize;
        if len == 0 {
            continue;
        }
        // new[t] = old[t - len] + ... + old[t]: a window sum slid upward, written from the top
        // down so each old value is read before it is replaced.
        let mut window = ways[top];
        for t in (0..=top + len).rev() {
            let old_t = if t <= top { ways[t] } else { 0 };
            ways[t] = window;
            // Slide the window down one: drop old[t], take in old[t - len - 1].
            window -= old_t;
            if let Some(u) = t.checked_sub(len + 1) {
                window += ways[u];
            }
        }
        top += len;
    }
    ways[lo.min(top + 1)..=hi.min(top)].iter().sum()
}

/// A set's colour counts packed three bits a colour: the same for sets that differ only
/// in card numbers.
fn colour_key(layout: Layout, cards: u64) -> u32 {
    layout.counts(cards).iter().enumerate().fold(0, |k, (c, &n)| k | u32::from(n.min(7)) << (3 * c))
}

/// A seat's share of the game estimated from the victory cards alone: each victory card
/// triples a seat's weight, and the share is its weight over the sum (even when nobody has
/// one; a seat one card ahead of three others at four players gets 3/6).
fn race_share(victory: &[u8], seat: usize) -> f64 {
    let weight = |v: u8| 3f64.powi(v.count_ones() as i32);
    weight(victory[seat]) / victory.iter().map(|&v| weight(v)).sum::<f64>()
}
