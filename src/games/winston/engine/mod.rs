//! The Winston + Crazier Eights engine: a deterministic state machine driven by the deal
//! seed and the bots' choices, and the game's forward model for the search bot.
//!
//! Points the rules leave to us, as implemented here:
//! - Seat 0 drafts first. The rules choose the first drafter at random; the harness's seat
//!   rotation plays every deal from both seats, which is that random choice made fair.
//! - The stack is shuffled from the deal seed; the removed cards are its last ones, unseen.
//! - A card added to a rejected pile is face down: the player who added it does not see it.
//! - Played cards (the play step) go under the player's own discard pile and come back
//!   with the next reshuffle; they never change the top. So the play and the discard may
//!   come in either order with the same result, and the engine asks for the play first.
//! - A player must play a card and, holding a match, discard one; a player who cannot
//!   discard a matching card discards nothing that turn. A deck with no cards (no usable
//!   cards in the pool) loses its game; two such decks draw.
//! - Blind takes count only the top card taken after rejecting all three piles; a take
//!   under the last-card rule is counted apart. A turn may take nothing: when a player
//!   passes the last pile with one card left and does not use the last-card rule, that
//!   card goes onto the pile and no blind card is left.
//! - Multicoloured cards match through any of their colours. A starting top card that is
//!   an eight names no colour: the next discard matches its colour, or is wild.
//! - If a deck has no card left to turn face up, the first discard may be any card.
//! - Each game's decks are shuffled from (deal seed, game, seat): the deal's randomness,
//!   never the bots'. Later games of a best of 3 are started as `later_starter` says (by
//!   default the loser of the previous game); after a drawn game, by the other player than
//!   last time, since there is no loser or winner to choose.

use crate::cards::shuffle::shuffle;
use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::bots::{WinstonBot, best_cards, colour_sets};
use super::cards::{Cards, Pool, bit, count, ids};
use super::measures::{
    ABILITY_PLAYS, BLIND_TAKES, COLOURS_DRAFTED, DECK_COLOURS, DECK_SIZE, DRAWN, EIGHTS, HATE_TAKES, LAST_CARD_TAKES,
    MULTI, PILE_BINS, PILE_SIZES, PILES, PLAYED_FIRST, POOL_SIZE, SHORT_DECK, WON_PLAYING_FIRST,
};
use super::rules::{Ability, LaterStarter, MAX_CARDS, MAX_DECK, Rules, Starter};
use super::view::{Bot, BotRng, BuildView, DraftChoice, DraftView, PlayView};
use crate::error::{Error, InputError, Step};
use crate::games::GameRules;
use crate::games::contest::Compiled;
use crate::search::{Forward, SearchNote};
use crate::sim::{CardLog, Deal, RoundResult, SHARE_UNIT, SeatRngs, UnitSeeds, mix_seed};

mod steps;
pub use steps::*;
mod forward;
#[doc(hidden)]
pub mod testing;

/// Stream tag of the draft stack's shuffle.
const STACK_STREAM: u64 = 0x3157_0001;
/// Stream tag of each game's deck shuffles.
const DECK_STREAM: u64 = 0x3157_0002;
/// Stream tag of a random starter.
const STARTER_STREAM: u64 = 0x3157_0003;
/// No card (an empty discard pile's top).
pub const NO_CARD: u8 = u8::MAX;

/// Something that happened, for replays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A seat looks at a pile.
    Look {
        /// The seat.
        seat: usize,
        /// The pile (0 is nearest the stack).
        pile: usize,
        /// Its cards.
        cards: Cards,
    },
    /// A seat takes a pile.
    Take {
        /// The seat.
        seat: usize,
        /// The pile.
        pile: usize,
        /// Its cards.
        cards: Cards,
        /// Taken mainly to deny the opponent.
        deny: bool,
        /// Forced: the seat passed the last non-empty pile with the stack empty, or, without
        /// `pass_when_empty`, had no choice at all. A take the seat chose is never forced.
        forced: bool,
    },
    /// A seat passes a pile (one card from the stack is added, if any is left).
    Pass {
        /// The seat.
        seat: usize,
        /// The pile.
        pile: usize,
    },
    /// A seat takes the stack's top card unseen, having rejected every pile (`last` under
    /// the last-card rule).
    Blind {
        /// The seat.
        seat: usize,
        /// The card.
        card: u8,
        /// Taken under the last-card rule.
        last: bool,
    },
    /// A seat's deck.
    Deck {
        /// The seat.
        seat: usize,
        /// Its colours, as bits.
        colours: u8,
        /// Its cards.
        cards: Cards,
        /// Whether it is short.
        short: bool,
    },
    /// A game begins.
    GameStart {
        /// Game number in the match.
        game: usize,
        /// Who plays first.
        starter: usize,
    },
    /// A seat's opening hand and the card turned face up.
    Opening {
        /// The seat.
        seat: usize,
        /// Its hand.
        hand: Cards,
        /// The card turned face up.
        top: u8,
    },
    /// A seat draws.
    Draw {
        /// The seat.
        seat: usize,
        /// The card.
        card: u8,
    },
    /// A seat shuffles its discards into a new deck.
    Reshuffle {
        /// The seat.
        seat: usize,
        /// Cards in the new deck.
        cards: usize,
    },
    /// A seat plays a card (the play step).
    Play {
        /// The seat.
        seat: usize,
        /// The card.
        card: u8,
    },
    /// A seat peeks at its deck's top card.
    Peek {
        /// The seat.
        seat: usize,
        /// The card.
        card: u8,
        /// Kept on top (else put at the bottom).
        kept: bool,
    },
    /// A seat discards.
    Discard {
        /// The seat.
        seat: usize,
        /// The card.
        card: u8,
        /// The colour named with a wild card.
        named: Option<usize>,
    },
    /// A game ends.
    GameEnd {
        /// The winner (none at the turn cap).
        winner: Option<usize>,
        /// Turns played.
        turns: u32,
    },
    /// The search bot chose a move.
    Search(SearchNote),
}

crate::game_events!(Event);

/// One player's side of a game of Crazier Eights.
#[derive(Clone, Copy, Debug)]
struct Side {
    deck: [u8; MAX_DECK],
    deck_len: usize,
    hand: Cards,
    /// The discard pile beneath its top, with the played cards.
    under: Cards,
    top: u8,
    /// What the next discard must match.
    colours: u8,
    rank: u8,
}

impl Default for Side {
    fn default() -> Self {
        Side { deck: [0; MAX_DECK], deck_len: 0, hand: 0, under: 0, top: NO_CARD, colours: 0, rank: 0 }
    }
}

impl Side {
    fn deck_cards(&self) -> Cards {
        self.deck[..self.deck_len].iter().fold(0, |m, &id| m | bit(id))
    }
}

/// The rules and the pool they describe: what the forward model reads.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The rules in force.
    pub rules: Rules,
    /// The pool the rules describe.
    pub pool: Pool,
}

impl Variant {
    /// The variant of these rules.
    pub fn new(rules: &Rules) -> Variant {
        Variant { rules: rules.clone(), pool: Pool::new(rules) }
    }
}

impl Compiled<Rules> for Variant {
    fn compile(rules: &Rules) -> Result<Variant, InputError> {
        rules.check()?;
        Ok(Variant::new(rules))
    }
    fn rules_file(&self) -> &Rules {
        &self.rules
    }
}

/// Where the match stands: the decision the seat to move faces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// The seat looks at a pile: take it, pass it or take the stack's last card.
    Draft {
        /// The seat.
        seat: u8,
        /// The pile (0 is nearest the stack).
        pile: u8,
    },
    /// The seat builds its deck.
    Build(u8),
    /// The seat, having drawn, plays a card (the play step).
    Play(u8),
    /// The seat peeked at its deck's top card: keep it there or put it at the bottom.
    Peek(u8),
    /// The seat discards (or, for an extra discard, stops).
    Discard(u8),
    /// The match is over.
    #[default]
    Over,
}

/// A decision, as the bots answer it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// A draft choice on the pile looked at.
    Draft(DraftChoice),
    /// A deck: its colours (bits) and cards.
    Build {
        /// The chosen colours.
        colours: u8,
        /// The cards.
        deck: Cards,
    },
    /// The card played, if any.
    Play(Option<u8>),
    /// After a peek: keep the card on top.
    Keep(bool),
    /// The card discarded and the colour named with a wild card, or none.
    Discard(Option<(u8, usize)>),
}

/// What comes next inside [`State::run`]: the chance and bookkeeping steps between two
/// decisions.
#[derive(Clone, Copy, Debug)]
enum Stage {
    /// The draft seat's turn begins (or the draft ends).
    DraftTurn,
    /// The draft seat looks at piles from this one on.
    Look(usize),
    /// The draft seat's turn is over.
    EndDraftTurn,
    /// The games of the match begin.
    StartMatch,
    /// A game is dealt.
    StartGame,
    /// The next turn of a game.
    StartTurn,
    /// Classic: draw until a card matches.
    ClassicDraw,
    /// The discard with this index, if owed or allowed.
    NextDiscard(u8),
    /// The turn is over: whether its seat won, and whether it plays again.
    EndTurn(bool, bool),
    /// The game is over: its winner and turns.
    EndGame(Option<usize>, u32),
    /// The match is over.
    FinishMatch,
    /// A seat must decide (the phase says which).
    Decide,
}

/// What one seat of a game sees of a side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideSeen {
    /// The hand (the observer's own) or 0 (the opponent's, unseen).
    pub hand: Cards,
    /// Cards in the hand.
    pub hand_size: usize,
    /// The discard pile under the top (every card there was played or discarded face up).
    pub under: Cards,
    /// The top discard.
    pub top: u8,
    /// What the next discard must match: colours and rank.
    pub colours: u8,
    /// The rank a discard may match.
    pub rank: u8,
    /// Cards left in the deck.
    pub deck_len: usize,
    /// The deck's top card, known from a peek (own side only; `NO_CARD` if none).
    pub known_top: u8,
    /// The deck's bottom card, known from a peek (own side only; `NO_CARD` if none).
    pub known_bottom: u8,
}

/// What one seat has seen of the match: its own pool and deck, what it saw of each pile,
/// what it could deduce of the opponent's pool, both discard piles and the public counts.
/// The stack, the removed cards, the blind cards the opponent took, the opponent's hand and
/// both decks' order are never in it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Observation {
    /// The seat.
    pub seat: usize,
    /// Where the match stands.
    pub phase: Phase,
    /// Its drafted pool.
    pub pool: Cards,
    /// What it saw of each pile when it last looked.
    pub known: [Cards; 3],
    /// Each pile's size.
    pub pile_sizes: [usize; 3],
    /// Cards left in the stack, and at the draft's start.
    pub stack: (usize, usize),
    /// The opponent's pool size.
    pub opponent_pool: usize,
    /// Cards it knows the opponent took.
    pub opponent_took: Cards,
    /// Cards it knows the opponent looked at and passed.
    pub opponent_passed: Cards,
    /// The drafting seat and each seat's draft turns so far.
    pub draft: (usize, [usize; 2]),
    /// Its deck list.
    pub deck: Cards,
    /// The opponent's deck size (0 before it is built).
    pub opponent_deck: usize,
    /// Cards of the opponent's deck it has seen face up this match.
    pub opponent_shown: Cards,
    /// Cards of its own deck the opponent has seen face up this match.
    pub shown_to_opponent: Cards,
    /// Its side of the game.
    pub own: SideSeen,
    /// The opponent's side, as it sees it.
    pub opponent: SideSeen,
    /// Game number, games won by each seat, the next starter and the first.
    pub games: (usize, [usize; 2], usize, usize),
    /// Turns of the match before this game, and of this game.
    pub turns: (u32, u32),
    /// The seat whose turn it is, discards allowed this turn, the discard at hand, and
    /// whether the seat plays again.
    pub turn: (usize, u8, u8, bool),
}

/// The state of one match: the forward model of Winston + Crazier Eights (reused between
/// matches).
#[derive(Clone, Debug)]
pub struct State {
    stack: [u8; MAX_CARDS],
    stack_len: usize,
    /// Cards in the stack as dealt (the draft only shortens it, so its order stays).
    stack_dealt: usize,
    stack_start: usize,
    piles: [Cards; 3],
    pools: [Cards; 2],
    removed: Cards,
    known: [[Cards; 3]; 2],
    opponent_took: [Cards; 2],
    opponent_passed: [Cards; 2],
    decks: [Cards; 2],
    sides: [Side; 2],
    phase: Phase,
    draft_seat: usize,
    /// Each seat's draft turns so far: the "pick" of card analytics.
    draft_turns: [usize; 2],
    /// Cards of each seat's deck its opponent has seen face up this match.
    shown: [Cards; 2],
    /// Each seat's deck top and bottom as it knows them from a peek.
    peeked: [(u8, u8); 2],
    deal_seed: u64,
    game: usize,
    wins: [usize; 2],
    starter: usize,
    first_starter: usize,
    match_turns: u32,
    game_turns: u32,
    turn_seat: usize,
    discards: u8,
    discard_at: u8,
    again: bool,
    /// Each seat's reshuffle stream in this game.
    rngs: [Xoshiro256PlusPlus; 2],
    /// Stop after one turn (scripted turns), with its result.
    one_turn: bool,
    turn_result: (bool, bool),
    /// Check the invariants after every step (`draftsim check` and tests turn it on).
    pub verify: bool,
}

impl Default for State {
    fn default() -> Self {
        State {
            stack: [0; MAX_CARDS],
            stack_len: 0,
            stack_dealt: 0,
            stack_start: 0,
            piles: [0; 3],
            pools: [0; 2],
            removed: 0,
            known: [[0; 3]; 2],
            opponent_took: [0; 2],
            opponent_passed: [0; 2],
            decks: [0; 2],
            sides: [Side::default(); 2],
            phase: Phase::Over,
            draft_seat: 0,
            draft_turns: [0; 2],
            shown: [0; 2],
            peeked: [(NO_CARD, NO_CARD); 2],
            deal_seed: 0,
            game: 0,
            wins: [0; 2],
            starter: 0,
            first_starter: 0,
            match_turns: 0,
            game_turns: 0,
            turn_seat: 0,
            discards: 1,
            discard_at: 0,
            again: false,
            rngs: [Xoshiro256PlusPlus::seed_from_u64(0), Xoshiro256PlusPlus::seed_from_u64(1)],
            one_turn: false,
            turn_result: (false, false),
            verify: cfg!(debug_assertions),
        }
    }
}

fn illegal<B: Bot + ?Sized>(bot: &B, seat: usize, action: String) -> Error {
    Error::IllegalAction { bot: bot.name().to_string(), seat, action }
}
impl State {
    /// A table that checks the invariants after every step, in any build.
    pub fn verified() -> State {
        State { verify: true, ..State::default() }
    }

    /// Each seat's drafted pool after the last match.
    pub fn pool(&self, seat: usize) -> Cards {
        self.pools[seat]
    }

    /// Each seat's deck after the last match.
    pub fn deck(&self, seat: usize) -> Cards {
        self.decks[seat]
    }

    /// The last match's stack as dealt, before the draft (the last card is the top).
    pub fn dealt_stack(&self) -> &[u8] {
        &self.stack[..self.stack_dealt]
    }

    /// `seat`'s hand, top discard, deck (top last) and discards beneath the top.
    pub fn side(&self, seat: usize) -> (Cards, u8, Vec<u8>, Cards) {
        let side = &self.sides[seat];
        (side.hand, side.top, side.deck[..side.deck_len].to_vec(), side.under)
    }

    /// The three piles.
    pub fn piles(&self) -> [Cards; 3] {
        self.piles
    }

    fn stack_cards(&self) -> Cards {
        self.stack[..self.stack_len].iter().fold(0, |m, &id| m | bit(id))
    }

    /// Draft invariants: every card is in exactly one place (stack, a pile, a pool, the
    /// removed cards); while the stack has cards, no pile is empty.
    fn check_draft(&self, pool: &Pool) -> Result<(), Error> {
        let places = [self.stack_cards(), self.piles[0], self.piles[1], self.piles[2], self.pools[0], self.pools[1]];
        let total = places.iter().map(|&p| count(p)).sum::<usize>() + count(self.removed);
        let all = places.iter().fold(self.removed, |a, &p| a | p);
        if count(self.stack_cards()) != self.stack_len {
            return Err(Error::Invariant("a card is in the stack twice".into()));
        }
        if total != count(all) || all != pool.all {
            return Err(Error::Invariant(format!(
                "draft lost or doubled cards: {} placed, {} distinct, {} in the pool",
                total,
                count(all),
                pool.size
            )));
        }
        if self.stack_len > 0 && self.piles.contains(&0) {
            return Err(Error::Invariant("a pile is empty while the stack has cards".into()));
        }
        Ok(())
    }

    /// Game invariants: each side's cards (deck, hand, discards, top) are its deck list,
    /// each card once.
    fn check_game(&self) -> Result<(), Error> {
        for (s, side) in self.sides.iter().enumerate() {
            let top = if side.top == NO_CARD { 0 } else { bit(side.top) };
            let deck = side.deck_cards();
            let parts = [deck, side.hand, side.under, top];
            let total: usize = parts.iter().map(|&p| count(p)).sum();
            let all = parts.iter().fold(0, |a, &p| a | p);
            if count(deck) != side.deck_len || total != count(all) || all != self.decks[s] {
                return Err(Error::Invariant(format!("seat {s}: cards of its deck went missing or doubled")));
            }
        }
        Ok(())
    }
}
