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
use crate::error::Error;
use crate::search::{Forward, Scratch, SearchNote, SeatBot, drive};
use crate::sim::{CardLog, EventSink, RoundResult, SHARE_UNIT, SeatRngs, mix_seed};

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

impl From<SearchNote> for Event {
    fn from(note: SearchNote) -> Event {
        Event::Search(note)
    }
}

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
pub struct Model {
    /// The rules in force.
    pub rules: Rules,
    /// The pool the rules describe.
    pub pool: Pool,
}

impl Model {
    /// The model of these rules.
    pub fn new(rules: &Rules) -> Model {
        Model { rules: rules.clone(), pool: Pool::new(rules) }
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

/// What comes next inside [`Table::run`]: the chance and bookkeeping steps between two
/// decisions.
#[derive(Clone, Copy, Debug)]
enum Step {
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
pub struct Table {
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

impl Default for Table {
    fn default() -> Self {
        Table {
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
impl Table {
    /// A table that checks the invariants after every step, in any build.
    pub fn verified() -> Table {
        Table { verify: true, ..Table::default() }
    }

    /// Each seat's drafted pool after the last match.
    pub fn pool(&self, seat: usize) -> Cards {
        self.pools[seat]
    }

    /// Each seat's deck after the last match.
    pub fn deck(&self, seat: usize) -> Cards {
        self.decks[seat]
    }

    /// Sets the stack (the last card is the top) and the removed cards, for scripted tests.
    pub fn set_stack(&mut self, stack: &[u8], removed: Cards) {
        self.stack[..stack.len()].copy_from_slice(stack);
        self.stack_len = stack.len();
        self.stack_dealt = stack.len();
        self.removed = removed;
    }

    /// The last match's stack as dealt, before the draft (the last card is the top).
    pub fn dealt_stack(&self) -> &[u8] {
        &self.stack[..self.stack_dealt]
    }

    /// Sets `seat`'s side of a game, for scripted tests: its deck list is every card given,
    /// `deck` is drawn from the end, and `named` is the colour named if `top` is wild.
    pub fn set_side(&mut self, pool: &Pool, seat: usize, deck: &[u8], hand: Cards, top: u8, named: Option<usize>) {
        let side = &mut self.sides[seat];
        *side = Side::default();
        side.deck[..deck.len()].copy_from_slice(deck);
        side.deck_len = deck.len();
        side.hand = hand;
        set_top(pool, side, top, named);
        self.decks[seat] = side.deck_cards() | hand | bit(top);
    }

    /// `seat`'s hand, top discard, deck (top last) and discards beneath the top.
    pub fn side(&self, seat: usize) -> (Cards, u8, Vec<u8>, Cards) {
        let side = &self.sides[seat];
        (side.hand, side.top, side.deck[..side.deck_len].to_vec(), side.under)
    }

    /// The piles and each seat's pool, for scripted tests.
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

impl Table {
    /// Where the match stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Starts a match with this deal seed: shuffles the stack (the removed cards are its
    /// last ones) and plays up to the first decision.
    pub fn reset(
        &mut self,
        rules: &Rules,
        pool: &Pool,
        deal_seed: u64,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix_seed(deal_seed, 0, STACK_STREAM));
        let mut order = [0u8; MAX_CARDS];
        for (i, slot) in order[..pool.size].iter_mut().enumerate() {
            *slot = i as u8;
        }
        shuffle(&mut order[..pool.size], &mut rng);
        let kept = pool.size - rules.removed;
        self.removed = order[kept..pool.size].iter().fold(0, |m, &id| m | bit(id));
        self.stack[..kept].copy_from_slice(&order[..kept]);
        self.stack_len = kept;
        self.stack_dealt = kept;
        self.start_stacked(rules, pool, deal_seed, sink, out)
    }

    /// Starts a match from the stack already set (see [`Table::set_stack`]) and plays up to
    /// the first decision.
    pub fn start_stacked(
        &mut self,
        rules: &Rules,
        pool: &Pool,
        deal_seed: u64,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        self.deal_seed = deal_seed;
        self.begin_draft();
        self.run(rules, pool, Step::DraftTurn, sink, out)
    }

    /// Lays out the three piles from the stack; seat 0 drafts first.
    fn begin_draft(&mut self) {
        self.pools = [0; 2];
        self.known = [[0; 3]; 2];
        self.opponent_took = [0; 2];
        self.opponent_passed = [0; 2];
        self.decks = [0; 2];
        self.shown = [0; 2];
        self.piles = [0; 3];
        for pile in &mut self.piles {
            if self.stack_len > 0 {
                self.stack_len -= 1;
                *pile = bit(self.stack[self.stack_len]);
            }
        }
        self.stack_start = self.stack_len;
        self.draft_seat = 0;
        self.draft_turns = [0; 2];
    }

    /// Runs the chance and bookkeeping steps from `next` up to the next decision or the end.
    #[inline(always)]
    fn run(
        &mut self,
        rules: &Rules,
        pool: &Pool,
        mut next: Step,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        loop {
            next = match next {
                Step::Decide => return Ok(()),
                Step::DraftTurn => {
                    if self.stack_len > 0 || self.piles.iter().any(|&p| p != 0) {
                        self.draft_turns[self.draft_seat] += 1;
                        Step::Look(0)
                    } else {
                        self.finish_draft(pool, out);
                        self.phase = Phase::Build(0);
                        Step::Decide
                    }
                }
                Step::Look(from) => self.look(rules, pool, from, sink, out),
                Step::EndDraftTurn => {
                    if self.verify {
                        self.check_draft(pool)?;
                    }
                    self.draft_seat = 1 - self.draft_seat;
                    Step::DraftTurn
                }
                Step::StartMatch => self.start_match(rules, out),
                Step::StartGame => self.start_game(rules, pool, sink)?,
                Step::StartTurn => self.start_turn(rules, sink),
                Step::ClassicDraw => self.classic_draw(pool, sink),
                Step::NextDiscard(k) => self.next_discard(pool, k),
                Step::EndTurn(won, again) => {
                    if self.verify {
                        self.check_game()?;
                    }
                    if self.one_turn {
                        self.turn_result = (won, again);
                        self.phase = Phase::Over;
                        return Ok(());
                    }
                    if won {
                        Step::EndGame(Some(self.turn_seat), self.game_turns)
                    } else {
                        if !again {
                            self.turn_seat = 1 - self.turn_seat;
                        }
                        Step::StartTurn
                    }
                }
                Step::EndGame(winner, turns) => {
                    sink.event(Event::GameEnd { winner, turns });
                    // The match's last game decides whether a cap ended it.
                    out.health.capped = winner.is_none() && turns >= rules.max_turns;
                    self.match_turns += turns;
                    if let Some(w) = winner {
                        self.wins[w] += 1;
                    }
                    self.starter = next_starter(rules.later_starter, self.starter, winner);
                    if self.wins.contains(&(rules.games / 2 + 1)) || self.game + 1 >= rules.games {
                        Step::FinishMatch
                    } else {
                        self.game += 1;
                        Step::StartGame
                    }
                }
                Step::FinishMatch => {
                    self.finish_match(out);
                    return Ok(());
                }
            };
        }
    }

    /// The draft seat looks at the piles from `from` on: the first non-empty one asks for a
    /// decision (or, with the stack empty and no passing, is taken unasked); with every pile
    /// rejected, the stack's top card is taken blind.
    #[inline(always)]
    fn look(
        &mut self,
        rules: &Rules,
        pool: &Pool,
        from: usize,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Step {
        let seat = self.draft_seat;
        let turn = self.draft_turns[seat];
        for i in from..3 {
            let cards = self.piles[i];
            if cards == 0 {
                continue;
            }
            self.known[seat][i] = cards;
            sink.event(Event::Look { seat, pile: i, cards });
            if out.cards.on() {
                log_cards(&mut out.cards, pool, seat, cards, turn, false);
            }
            if self.stack_len == 0 && !rules.pass_when_empty {
                // No choice at all: the first pile looked at is taken unasked.
                if out.cards.on() {
                    log_taken(&mut out.cards, pool, seat, cards, turn);
                }
                self.take_pile(seat, i, false, true, sink, out);
                return Step::EndDraftTurn;
            }
            self.phase = Phase::Draft { seat: seat as u8, pile: i as u8 };
            return Step::Decide;
        }
        if let Some(card) = self.pop_stack() {
            self.pools[seat] |= bit(card);
            if out.cards.on() {
                log_cards(&mut out.cards, pool, seat, bit(card), turn, true);
            }
            out.seats[seat].sums[BLIND_TAKES] += 1;
            sink.event(Event::Blind { seat, card, last: false });
        }
        Step::EndDraftTurn
    }

    /// With the stack empty, the last non-empty pile cannot be put back: a pass of it takes
    /// it (forced). Taking it is still the player's own choice.
    #[inline(always)]
    fn last_pile(&self, pile: usize) -> bool {
        self.stack_len == 0 && !self.piles[pile + 1..].iter().any(|&p| p != 0)
    }

    /// Applies a draft choice of the seat looking at `pile`.
    #[inline(always)]
    fn draft_move(
        &mut self,
        pool: &Pool,
        pile: usize,
        choice: DraftChoice,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Step {
        let seat = self.draft_seat;
        let other = 1 - seat;
        let turn = self.draft_turns[seat];
        let cards = self.piles[pile];
        match choice {
            DraftChoice::TakeLastCard => {
                // The opponent sees this pile rejected; the card is unseen.
                self.opponent_passed[other] |= self.known[other][pile];
                let card = self.pop_stack().expect("one card left");
                self.pools[seat] |= bit(card);
                if out.cards.on() {
                    log_cards(&mut out.cards, pool, seat, bit(card), turn, true);
                }
                out.seats[seat].count(LAST_CARD_TAKES);
                sink.event(Event::Blind { seat, card, last: true });
                Step::EndDraftTurn
            }
            DraftChoice::Pass if self.last_pile(pile) => {
                if out.cards.on() {
                    log_taken(&mut out.cards, pool, seat, cards, turn);
                }
                self.take_pile(seat, pile, false, true, sink, out);
                Step::EndDraftTurn
            }
            DraftChoice::Take { deny } => {
                if out.cards.on() {
                    log_taken(&mut out.cards, pool, seat, cards, turn);
                }
                self.take_pile(seat, pile, deny, false, sink, out);
                Step::EndDraftTurn
            }
            DraftChoice::Pass => {
                self.opponent_passed[other] |= self.known[other][pile];
                sink.event(Event::Pass { seat, pile });
                if let Some(card) = self.pop_stack() {
                    self.piles[pile] |= bit(card);
                }
                Step::Look(pile + 1)
            }
        }
    }

    /// Draws the stack's top card, if any.
    #[inline(always)]
    fn pop_stack(&mut self) -> Option<u8> {
        if self.stack_len == 0 {
            return None;
        }
        self.stack_len -= 1;
        Some(self.stack[self.stack_len])
    }

    #[inline(always)]
    fn take_pile(
        &mut self,
        seat: usize,
        i: usize,
        deny: bool,
        forced: bool,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) {
        let other = 1 - seat;
        let cards = self.piles[i];
        sink.event(Event::Take { seat, pile: i, cards, deny, forced });
        self.pools[seat] |= cards;
        self.opponent_took[other] |= self.known[other][i];
        self.opponent_passed[other] &= !cards;
        self.opponent_passed[seat] &= !cards;
        self.known[0][i] = 0;
        self.known[1][i] = 0;
        self.piles[i] = self.pop_stack().map_or(0, bit);
        let r = &mut out.seats[seat];
        r.sums[PILES] += 1;
        if deny {
            r.sums[HATE_TAKES] += 1;
        }
        r.observe(PILE_SIZES, count(cards).min(PILE_BINS) - 1);
    }

    /// Records what each seat drafted.
    fn finish_draft(&self, pool: &Pool, out: &mut RoundResult) {
        for s in 0..2 {
            let own = self.pools[s];
            let r = &mut out.seats[s];
            r.sums[POOL_SIZE] = count(own) as i64;
            r.sums[EIGHTS] = count(own & pool.eights) as i64;
            r.sums[MULTI] = count(own & pool.multi) as i64;
            for c in 0..pool.n_colours() {
                r.observe_n(COLOURS_DRAFTED, c, count(own & pool.by_colour[c] & !pool.multi) as u32);
            }
            r.observe_n(COLOURS_DRAFTED, pool.n_colours(), count(own & pool.multi) as u32);
        }
    }

    /// Why a deck breaks the colour rule, if it does.
    fn build_fault(rules: &Rules, pool: &Pool, own: Cards, colours: u8, deck: Cards) -> Option<String> {
        let all_colours = (1u16 << pool.n_colours()) - 1;
        if colours.count_ones() as usize > rules.max_colours || u16::from(colours) & !all_colours != 0 {
            return Some(format!("built with colours {colours:#b}, more than max_colours"));
        }
        let usable = pool.usable(rules, own, colours);
        let size = count(usable).min(rules.deck_size);
        if deck & !usable != 0 || count(deck) != size {
            return Some(format!(
                "built a deck of {} cards ({} usable, {} wanted) or with unusable cards",
                count(deck),
                count(usable),
                size
            ));
        }
        None
    }

    /// Applies `seat`'s deck.
    #[allow(clippy::too_many_arguments)]
    fn build_move(
        &mut self,
        rules: &Rules,
        pool: &Pool,
        seat: usize,
        colours: u8,
        deck: Cards,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Step {
        let own = self.pools[seat];
        let usable = pool.usable(rules, own, colours);
        self.decks[seat] = deck;
        if out.cards.on() {
            // The deck is what a seat plays with: a drafted card left out of it is not "in hand".
            for id in ids(deck) {
                out.cards.kept(seat, u16::from(pool.identity[usize::from(id)]));
            }
        }
        let short = count(usable) < rules.deck_size;
        let r = &mut out.seats[seat];
        r.sums[DECK_SIZE] = count(deck) as i64;
        r.observe(DECK_COLOURS, colours.count_ones() as usize);
        if short {
            r.count(SHORT_DECK);
        }
        sink.event(Event::Deck { seat, colours, cards: deck, short });
        if seat == 0 {
            self.phase = Phase::Build(1);
            Step::Decide
        } else {
            Step::StartMatch
        }
    }

    /// Chooses the first game's starter.
    fn start_match(&mut self, rules: &Rules, out: &mut RoundResult) -> Step {
        self.starter = match rules.starter {
            Starter::SecondDrafter => 1,
            Starter::FirstDrafter => 0,
            Starter::Random => (mix_seed(self.deal_seed, 0, STARTER_STREAM) & 1) as usize,
        };
        out.seats[self.starter].count(PLAYED_FIRST);
        self.first_starter = self.starter;
        self.match_turns = 0;
        self.wins = [0; 2];
        self.game = 0;
        Step::StartGame
    }

    /// Shuffles each deck from (deal seed, game, seat), deals the hands and turns up the
    /// tops.
    fn start_game(&mut self, rules: &Rules, pool: &Pool, sink: &mut impl EventSink<Event>) -> Result<Step, Error> {
        let game = self.game;
        sink.event(Event::GameStart { game, starter: self.starter });
        let deal_seed = self.deal_seed;
        self.rngs = std::array::from_fn(|s| {
            Xoshiro256PlusPlus::seed_from_u64(mix_seed(deal_seed, (game * 2 + s) as u64, DECK_STREAM))
        });
        self.peeked = [(NO_CARD, NO_CARD); 2];
        for s in 0..2 {
            let side = &mut self.sides[s];
            *side = Side::default();
            for id in ids(self.decks[s]) {
                side.deck[side.deck_len] = id;
                side.deck_len += 1;
            }
            shuffle(&mut side.deck[..side.deck_len], &mut self.rngs[s]);
            for _ in 0..rules.hand_size {
                if side.deck_len == 0 {
                    break;
                }
                side.deck_len -= 1;
                side.hand |= bit(side.deck[side.deck_len]);
            }
            if side.deck_len > 0 {
                side.deck_len -= 1;
                let top = side.deck[side.deck_len];
                set_top(pool, side, top, None);
                self.shown[s] |= bit(top);
            }
            sink.event(Event::Opening { seat: s, hand: side.hand, top: side.top });
        }
        if self.verify {
            self.check_game()?;
        }
        // An empty deck (no usable cards) cannot play: it loses, or both empty draw.
        Ok(match (self.decks[0] == 0, self.decks[1] == 0) {
            (false, false) => {
                self.turn_seat = self.starter;
                self.game_turns = 0;
                Step::StartTurn
            }
            (true, true) => Step::EndGame(None, 0),
            (empty0, _) => Step::EndGame(Some(usize::from(empty0)), 0),
        })
    }

    /// Starts the next turn (or ends the game at the turn cap): the draw, then the play.
    #[inline(always)]
    fn start_turn(&mut self, rules: &Rules, sink: &mut impl EventSink<Event>) -> Step {
        if self.game_turns >= rules.max_turns {
            return Step::EndGame(None, self.game_turns);
        }
        self.game_turns += 1;
        if rules.classic {
            return Step::ClassicDraw;
        }
        let seat = self.turn_seat;
        self.draw(seat, sink);
        self.discards = 1;
        self.again = false;
        self.phase = Phase::Play(seat as u8);
        Step::Decide
    }

    /// Classic: draws until a card matches (then the seat discards) or nothing is left.
    #[inline(always)]
    fn classic_draw(&mut self, pool: &Pool, sink: &mut impl EventSink<Event>) -> Step {
        let seat = self.turn_seat;
        loop {
            if playable(pool, &self.sides[seat]) != 0 {
                self.phase = Phase::Discard(seat as u8);
                return Step::Decide;
            }
            if self.draw(seat, sink).is_none() {
                return Step::EndTurn(false, false);
            }
        }
    }

    /// Draws one card for `seat`, reshuffling its discards (all but the top) when the deck
    /// is empty; `None` when there is nothing to draw.
    #[inline(always)]
    fn draw(&mut self, seat: usize, sink: &mut impl EventSink<Event>) -> Option<u8> {
        let card = draw(&mut self.sides[seat], &mut self.rngs[seat], seat, sink)?;
        let known = &mut self.peeked[seat];
        if known.0 == card {
            known.0 = NO_CARD;
        }
        if known.1 == card {
            known.1 = NO_CARD;
        }
        Some(card)
    }

    /// Applies the play step.
    #[inline(always)]
    fn play_move(
        &mut self,
        pool: &Pool,
        played: Option<u8>,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Step {
        let seat = self.turn_seat;
        let Some(card) = played else { return Step::NextDiscard(0) };
        let side = &mut self.sides[seat];
        side.hand &= !bit(card);
        side.under |= bit(card);
        self.shown[seat] |= bit(card);
        sink.event(Event::Play { seat, card });
        if side.hand == 0 {
            return Step::EndTurn(true, false);
        }
        if let Some(ability) = pool.ability[usize::from(card)] {
            out.seats[seat].sums[ABILITY_PLAYS] += 1;
            match ability {
                Ability::OpponentDraws => {
                    self.draw(1 - seat, sink);
                }
                Ability::ExtraTurn => self.again = true,
                Ability::ExtraDiscard => self.discards = 2,
                Ability::Peek => {
                    let side = &self.sides[seat];
                    if side.deck_len > 0 {
                        self.peeked[seat].0 = side.deck[side.deck_len - 1];
                        self.phase = Phase::Peek(seat as u8);
                        return Step::Decide;
                    }
                }
            }
        }
        Step::NextDiscard(0)
    }

    /// Applies the choice after a peek.
    #[inline(always)]
    fn keep_move(&mut self, kept: bool, sink: &mut impl EventSink<Event>) -> Step {
        let seat = self.turn_seat;
        let side = &mut self.sides[seat];
        let top = side.deck[side.deck_len - 1];
        if !kept {
            side.deck[..side.deck_len].rotate_right(1);
            self.peeked[seat] = (NO_CARD, top);
        }
        sink.event(Event::Peek { seat, card: top, kept });
        Step::NextDiscard(0)
    }

    /// Asks for the discard with index `k` when one is allowed and a card matches.
    #[inline(always)]
    fn next_discard(&mut self, pool: &Pool, k: u8) -> Step {
        let seat = self.turn_seat;
        if k >= self.discards || playable(pool, &self.sides[seat]) == 0 {
            return Step::EndTurn(false, self.again);
        }
        self.discard_at = k;
        self.phase = Phase::Discard(seat as u8);
        Step::Decide
    }

    /// Applies a discard (or, for an extra discard, the choice to stop).
    #[inline(always)]
    fn discard_move(
        &mut self,
        rules: &Rules,
        pool: &Pool,
        choice: Option<(u8, usize)>,
        sink: &mut impl EventSink<Event>,
    ) -> Step {
        let seat = self.turn_seat;
        let Some((card, colour)) = choice else { return Step::EndTurn(false, self.again) };
        let wild = pool.wild & bit(card) != 0;
        let side = &mut self.sides[seat];
        side.hand &= !bit(card);
        if side.top != NO_CARD {
            side.under |= bit(side.top);
        }
        let named = wild.then_some(colour);
        set_top(pool, side, card, named);
        self.shown[seat] |= bit(card);
        sink.event(Event::Discard { seat, card, named });
        let won = side.hand == 0;
        if rules.classic || won { Step::EndTurn(won, false) } else { Step::NextDiscard(self.discard_at + 1) }
    }

    /// Ends the match: +1 and -1, or a draw.
    fn finish_match(&mut self, out: &mut RoundResult) {
        self.phase = Phase::Over;
        out.length = self.match_turns;
        let winner = match self.wins[0].cmp(&self.wins[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        match winner {
            Some(w) => {
                out.seats[w].share_units = SHARE_UNIT;
                out.seats[w].score = 1;
                out.seats[1 - w].score = -1;
                if w == self.first_starter {
                    out.seats[w].count(WON_PLAYING_FIRST);
                }
            }
            None => {
                out.seats[0].count(DRAWN);
                out.seats[1].count(DRAWN);
            }
        }
    }

    /// What the seat whose turn it is sees of the game.
    fn play_view<'a>(&self, rules: &'a Rules, pool: &'a Pool, seat: usize) -> PlayView<'a> {
        let side = &self.sides[seat];
        let other = &self.sides[1 - seat];
        PlayView {
            rules,
            pool,
            hand: side.hand,
            top: side.top,
            colours: if side.top == NO_CARD { u8::MAX } else { side.colours },
            rank: side.rank,
            playable: playable(pool, side),
            deck: side.deck_len,
            deck_list: self.decks[seat],
            opponent_hand: count(other.hand),
            opponent_top: other.top,
        }
    }

    /// Asks `bot` for the seat to move's decision, from its view; a move the rules do not
    /// allow is [`Error::IllegalAction`].
    #[inline(always)]
    pub fn ask_bot<B: Bot + ?Sized>(
        &self,
        rules: &Rules,
        pool: &Pool,
        bot: &mut B,
        rng: &mut BotRng,
    ) -> Result<Move, Error> {
        match self.phase {
            Phase::Draft { seat, pile } => {
                let (seat, i) = (usize::from(seat), usize::from(pile));
                let other = 1 - seat;
                let view = DraftView {
                    rules,
                    pool,
                    own: self.pools[seat],
                    pile: i,
                    cards: self.piles[i],
                    known: self.known[seat],
                    sizes: self.piles.map(count),
                    stack: self.stack_len,
                    stack_start: self.stack_start,
                    opponent_size: count(self.pools[other]),
                    opponent_took: self.opponent_took[seat],
                    opponent_passed: self.opponent_passed[seat],
                };
                let choice = bot.draft(&view, rng);
                if choice == DraftChoice::TakeLastCard && !(rules.last_card_rule && self.stack_len == 1) {
                    return Err(illegal(
                        bot,
                        seat,
                        "took the stack's last card when the rule does not allow it".into(),
                    ));
                }
                Ok(Move::Draft(choice))
            }
            Phase::Build(seat) => {
                let seat = usize::from(seat);
                let own = self.pools[seat];
                let (colours, deck) = bot.build(&BuildView { rules, pool, own }, rng);
                if let Some(fault) = Self::build_fault(rules, pool, own, colours, deck) {
                    return Err(illegal(bot, seat, fault));
                }
                Ok(Move::Build { colours, deck })
            }
            Phase::Play(seat) => {
                let seat = usize::from(seat);
                let v = self.play_view(rules, pool, seat);
                let played = bot.play(&v, rng);
                match played {
                    None if v.hand != 0 => Err(illegal(bot, seat, "skipped the play step with cards in hand".into())),
                    Some(card) if v.hand & bit(card) == 0 => {
                        Err(illegal(bot, seat, format!("played {}, which it does not hold", pool.card_name(card))))
                    }
                    _ => Ok(Move::Play(played)),
                }
            }
            Phase::Peek(seat) => {
                let seat = usize::from(seat);
                let side = &self.sides[seat];
                let top = side.deck[side.deck_len - 1];
                Ok(Move::Keep(bot.keep_peeked(&self.play_view(rules, pool, seat), top, rng)))
            }
            Phase::Discard(seat) => {
                let seat = usize::from(seat);
                let v = self.play_view(rules, pool, seat);
                let choice = bot.discard(&v, rng);
                let Some((card, colour)) = choice else {
                    if rules.classic {
                        return Err(illegal(bot, seat, "passed with a matching card in the classic game".into()));
                    }
                    // The turn's discard is owed when a card matches; an extra one is optional.
                    if self.discard_at == 0 {
                        return Err(illegal(bot, seat, "skipped the discard with a matching card".into()));
                    }
                    return Ok(Move::Discard(None));
                };
                if v.playable & bit(card) == 0 {
                    return Err(illegal(
                        bot,
                        seat,
                        format!("discarded {}, which does not match", pool.card_name(card)),
                    ));
                }
                if pool.wild & bit(card) != 0 && colour >= pool.n_colours() {
                    return Err(illegal(bot, seat, format!("named colour {colour}, which is not in play")));
                }
                Ok(Move::Discard(choice))
            }
            Phase::Over => Err(Error::Invariant("a bot was asked to move after the match ended".into())),
        }
    }

    /// Applies the seat to move's decision, then plays on to the next one.
    #[inline(always)]
    pub fn step(
        &mut self,
        rules: &Rules,
        pool: &Pool,
        m: Move,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let next = match (self.phase, m) {
            (Phase::Draft { pile, .. }, Move::Draft(choice)) => {
                if choice == DraftChoice::TakeLastCard && !(rules.last_card_rule && self.stack_len == 1) {
                    return Err(Error::Invariant("the stack's last card taken against the rule".into()));
                }
                self.draft_move(pool, usize::from(pile), choice, sink, out)
            }
            (Phase::Build(seat), Move::Build { colours, deck }) => {
                let seat = usize::from(seat);
                if self.verify
                    && let Some(fault) = Self::build_fault(rules, pool, self.pools[seat], colours, deck)
                {
                    return Err(Error::Invariant(format!("seat {seat}: {fault}")));
                }
                self.build_move(rules, pool, seat, colours, deck, sink, out)
            }
            (Phase::Play(_), Move::Play(played)) => self.play_move(pool, played, sink, out),
            (Phase::Peek(_), Move::Keep(kept)) => self.keep_move(kept, sink),
            (Phase::Discard(_), Move::Discard(choice)) => self.discard_move(rules, pool, choice, sink),
            (phase, m) => return Err(Error::Invariant(format!("move {m:?} does not fit phase {phase:?}"))),
        };
        self.run(rules, pool, next, sink, out)
    }
}

/// Who starts the game after one that `starter` began and `winner` won (none: drawn at
/// the turn cap, after which the other player starts, whatever the rule).
pub fn next_starter(rule: LaterStarter, starter: usize, winner: Option<usize>) -> usize {
    match (rule, winner) {
        (LaterStarter::Loser, Some(w)) => 1 - w,
        (LaterStarter::Winner, Some(w)) => w,
        (LaterStarter::Alternate, _) | (_, None) => 1 - starter,
    }
}

/// Plays one match (draft, build, games) with heuristic bots, adding to `out` (cleared by
/// the caller). `bots[seating[s]]` plays seat `s`; seat 0 drafts first.
#[allow(clippy::too_many_arguments)]
pub fn play<B: Bot>(
    rules: &Rules,
    pool: &Pool,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    deal_seed: u64,
    bot_seed: u64,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    for &b in seating {
        bots[b].start_match();
    }
    let mut rngs = SeatRngs::new(bot_seed, 2);
    t.reset(rules, pool, deal_seed, sink, out)?;
    play_on(rules, pool, t, bots, seating, &mut rngs, sink, out)
}

/// Plays one match from the stack already in `t` (the last card is the top), with
/// `t.removed` set: what [`play`] does after its shuffle, and what scripted tests call.
#[allow(clippy::too_many_arguments)]
pub fn play_stacked<B: Bot>(
    rules: &Rules,
    pool: &Pool,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    deal_seed: u64,
    bot_seed: u64,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    for &b in seating {
        bots[b].start_match();
    }
    let mut rngs = SeatRngs::new(bot_seed, 2);
    t.start_stacked(rules, pool, deal_seed, sink, out)?;
    play_on(rules, pool, t, bots, seating, &mut rngs, sink, out)
}

/// Asks and applies the heuristic bots' decisions until the match ends.
#[allow(clippy::too_many_arguments)]
fn play_on<B: Bot>(
    rules: &Rules,
    pool: &Pool,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    rngs: &mut SeatRngs,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    while let Some(s) = t.to_act() {
        let m = t.ask_bot(rules, pool, &mut bots[seating[s]], rngs.seat(s))?;
        t.step(rules, pool, m, sink, out)?;
    }
    Ok(())
}

/// Plays one match with any seats, the search bot among them (see [`play`]).
#[allow(clippy::too_many_arguments)]
pub fn play_seats(
    model: &Model,
    t: &mut Table,
    bots: &mut [SeatBot<Table>],
    seating: &[usize],
    deal_seed: u64,
    bot_seed: u64,
    scratch: &mut Scratch<Table>,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    for &b in seating {
        if let SeatBot::Heuristic(bot) = &mut bots[b] {
            bot.start_match();
        }
    }
    let mut rngs = SeatRngs::new(bot_seed, 2);
    t.reset(&model.rules, &model.pool, deal_seed, sink, out)?;
    drive(model, t, bots, seating, &mut rngs, scratch, sink, out)
}

/// The Winston draft from the stack in `t` until no card is left (public for scripted
/// tests); the table then waits for seat 0's deck.
#[allow(clippy::too_many_arguments)]
pub fn draft<B: Bot>(
    rules: &Rules,
    pool: &Pool,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    bot_rngs: &mut SeatRngs,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    t.begin_draft();
    t.run(rules, pool, Step::DraftTurn, sink, out)?;
    while let Phase::Draft { seat, .. } = t.phase {
        let s = usize::from(seat);
        let m = t.ask_bot(rules, pool, &mut bots[seating[s]], bot_rngs.seat(s))?;
        t.step(rules, pool, m, sink, out)?;
    }
    Ok(())
}

/// One scripted turn of `seat` on the sides set with [`Table::set_side`] (reshuffles
/// seeded from 0); returns (won, takes another turn).
pub fn scripted_turn<B: Bot>(
    rules: &Rules,
    pool: &Pool,
    t: &mut Table,
    bot: &mut B,
    seat: usize,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(bool, bool), Error> {
    t.rngs = [Xoshiro256PlusPlus::seed_from_u64(0), Xoshiro256PlusPlus::seed_from_u64(1)];
    t.peeked = [(NO_CARD, NO_CARD); 2];
    let mut rng = BotRng::seed_from_u64(0);
    t.turn_seat = seat;
    t.game_turns = 0;
    t.one_turn = true;
    let mut result = t.run(rules, pool, Step::StartTurn, sink, out);
    while result.is_ok() && t.to_act().is_some() {
        result = t.ask_bot(rules, pool, bot, &mut rng).and_then(|m| t.step(rules, pool, m, sink, out));
    }
    t.one_turn = false;
    t.phase = Phase::Over;
    result?;
    t.check_game()?;
    Ok(t.turn_result)
}

/// Logs cards for card analytics: seen at this turn, and also taken when `taken`.
/// A blind card is logged as seen and taken at once (the seat met it as it took it).
#[cold]
#[inline(never)]
fn log_cards(log: &mut CardLog, pool: &Pool, seat: usize, cards: Cards, turn: usize, taken: bool) {
    for id in ids(cards) {
        log.seen(seat, u16::from(pool.identity[usize::from(id)]), turn);
    }
    if taken {
        log_taken(log, pool, seat, cards, turn);
    }
}

/// Logs cards taken at this turn for card analytics.
#[cold]
#[inline(never)]
fn log_taken(log: &mut CardLog, pool: &Pool, seat: usize, cards: Cards, turn: usize) {
    for id in ids(cards) {
        log.taken(seat, u16::from(pool.identity[usize::from(id)]), turn);
    }
}

/// What a discard must match next after `card` (a wild card names `named`).
fn set_top(pool: &Pool, side: &mut Side, card: u8, named: Option<usize>) {
    side.top = card;
    match named {
        Some(c) => {
            side.colours = 1 << c;
            side.rank = 0;
        }
        None => {
            side.colours = pool.colours[usize::from(card)];
            side.rank = pool.rank[usize::from(card)];
        }
    }
}

/// The cards of `hand` that may be discarded on `side`'s pile.
#[inline]
fn playable(pool: &Pool, side: &Side) -> Cards {
    if side.top == NO_CARD {
        return side.hand;
    }
    let rank = if side.rank == 0 { 0 } else { pool.by_rank[usize::from(side.rank)] };
    side.hand & (pool.of_colours(side.colours) | rank | pool.wild)
}

/// Draws one card for `side`, reshuffling its discards (all but the top) when the deck is
/// empty; `None` when there is nothing to draw.
#[inline(always)]
fn draw(side: &mut Side, rng: &mut Xoshiro256PlusPlus, seat: usize, sink: &mut impl EventSink<Event>) -> Option<u8> {
    if side.deck_len == 0 {
        if side.under == 0 {
            return None;
        }
        for id in ids(side.under) {
            side.deck[side.deck_len] = id;
            side.deck_len += 1;
        }
        side.under = 0;
        shuffle(&mut side.deck[..side.deck_len], rng);
        sink.event(Event::Reshuffle { seat, cards: side.deck_len });
    }
    side.deck_len -= 1;
    let card = side.deck[side.deck_len];
    side.hand |= bit(card);
    sink.event(Event::Draw { seat, card });
    Some(card)
}

/// Deals `k` cards at random from `cards[*at..]` (a partial shuffle), moving `at` on.
fn deal(cards: &mut [u8], at: &mut usize, k: usize, rng: &mut BotRng) -> Cards {
    let mut dealt = 0;
    for i in *at..(*at + k).min(cards.len()) {
        let j = i + rng.random_range(0..cards.len() - i);
        cards.swap(i, j);
        dealt |= bit(cards[i]);
    }
    *at = (*at + k).min(cards.len());
    dealt
}

/// The cards of a set, in a fixed-size buffer (no allocation).
fn list(cards: Cards, buf: &mut [u8; MAX_CARDS]) -> usize {
    let mut n = 0;
    for id in ids(cards) {
        buf[n] = id;
        n += 1;
    }
    n
}

/// A deck list of `size` cards for a seat whose pool is `own`, holding every card `shown`
/// of it: the cards usable under a colour choice drawn at random among those that allow
/// every shown card and `size` cards.
fn guess_deck(rules: &Rules, pool: &Pool, own: Cards, shown: Cards, size: usize, rng: &mut BotRng) -> Cards {
    let mut chosen = own;
    let mut fits = 0;
    for k in 1..=rules.max_colours.min(pool.n_colours()) {
        for colours in colour_sets(pool.n_colours(), k) {
            let usable = pool.usable(rules, own, colours);
            if usable & shown == shown && count(usable) >= size {
                fits += 1;
                if rng.random_range(0..fits) == 0 {
                    chosen = usable;
                }
            }
        }
    }
    let mut buf = [0u8; MAX_CARDS];
    let mut deck = shown;
    for from in [chosen & !shown, own & !chosen & !shown] {
        let n = list(from, &mut buf);
        let mut at = 0;
        deck |= deal(&mut buf[..n], &mut at, size.saturating_sub(count(deck)), rng);
    }
    deck
}

impl Table {
    /// Whether the match is in a game of Crazier Eights (a play, peek or discard).
    fn in_game(&self) -> bool {
        matches!(self.phase, Phase::Play(_) | Phase::Peek(_) | Phase::Discard(_))
    }

    /// What seat `seat` sees of side `s`.
    fn side_seen(&self, seat: usize, s: usize) -> SideSeen {
        let side = &self.sides[s];
        let own = s == seat;
        SideSeen {
            hand: if own { side.hand } else { 0 },
            hand_size: count(side.hand),
            under: side.under,
            top: side.top,
            colours: side.colours,
            rank: side.rank,
            deck_len: side.deck_len,
            known_top: if own { self.peeked[s].0 } else { NO_CARD },
            known_bottom: if own { self.peeked[s].1 } else { NO_CARD },
        }
    }

    /// This state with every card `seat` has not seen dealt again at random among the
    /// places it could be (the unseen part of each pile, of the opponent's pool, the
    /// stack, the removed cards; in a game the opponent's hand and deck, and this seat's
    /// deck order), with new chance streams. Made from the truth, not from an observation:
    /// the leak test's second state.
    pub fn redeal(&self, seat: usize, rng: &mut BotRng) -> Table {
        let mut t = self.clone();
        let (o, p) = (seat, 1 - seat);
        let in_deck = if t.phase == Phase::Build(0) { 0 } else { t.decks[p] };
        let pool_fixed = t.opponent_took[o] | t.shown[p] | in_deck;
        let mut hidden = Vec::new();
        for i in 0..3 {
            hidden.extend(ids(t.piles[i] & !t.known[o][i]));
        }
        hidden.extend(ids(t.pools[p] & !pool_fixed));
        hidden.extend_from_slice(&t.stack[..t.stack_len]);
        hidden.extend(ids(t.removed));
        rand::seq::SliceRandom::shuffle(&mut hidden[..], rng);
        let mut next = hidden.into_iter();
        for i in 0..3 {
            let k = count(t.piles[i] & !t.known[o][i]);
            t.piles[i] = t.known[o][i] | next.by_ref().take(k).fold(0, |m, id| m | bit(id));
            if t.known[p][i] != 0 {
                t.known[p][i] = t.piles[i];
            }
        }
        let k = count(t.pools[p] & !pool_fixed);
        t.pools[p] = (t.pools[p] & pool_fixed) | next.by_ref().take(k).fold(0, |m, id| m | bit(id));
        for slot in &mut t.stack[..t.stack_len] {
            *slot = next.next().expect("as many cards as places");
        }
        t.removed = next.fold(0, |m, id| m | bit(id));
        if t.in_game() {
            let side = &mut t.sides[p];
            let mut cards: Vec<u8> = ids(side.hand).chain(side.deck[..side.deck_len].iter().copied()).collect();
            rand::seq::SliceRandom::shuffle(&mut cards[..], rng);
            let hand = count(side.hand);
            side.hand = cards[..hand].iter().fold(0, |m, &id| m | bit(id));
            side.deck[..side.deck_len].copy_from_slice(&cards[hand..]);
            // This seat's deck order, but for a card it knows from a peek.
            let (top, bottom) = t.peeked[o];
            let side = &mut t.sides[o];
            let len = side.deck_len;
            let lo = usize::from(bottom != NO_CARD && len > 0);
            let hi = len - usize::from(top != NO_CARD && len > lo);
            rand::seq::SliceRandom::shuffle(&mut side.deck[lo..hi], rng);
        }
        t.deal_seed = rng.next_u64();
        t.rngs = [Xoshiro256PlusPlus::seed_from_u64(rng.next_u64()), Xoshiro256PlusPlus::seed_from_u64(rng.next_u64())];
        t
    }
}

impl Forward for Table {
    type Rules = Model;
    type Move = Move;
    type Obs = Observation;
    type Event = Event;
    type Bot = WinstonBot;

    /// Fewest cards left in hand.
    fn has_standing(_model: &Model) -> bool {
        true
    }

    fn standing(&self, _model: &Model, seat: usize) -> i64 {
        // Hands are dealt when play starts; before that the sides hold the last match's.
        match self.phase {
            Phase::Draft { .. } | Phase::Build(_) => 0,
            _ => -i64::from(self.sides[seat].hand.count_ones()),
        }
    }

    #[inline(always)]
    fn to_act(&self) -> Option<usize> {
        match self.phase {
            Phase::Draft { seat, .. } => Some(usize::from(seat)),
            Phase::Build(s) | Phase::Play(s) | Phase::Peek(s) | Phase::Discard(s) => Some(usize::from(s)),
            Phase::Over => None,
        }
    }

    fn legal(&self, model: &Model, out: &mut Vec<Move>) {
        let (rules, pool) = (&model.rules, &model.pool);
        out.clear();
        match self.phase {
            Phase::Draft { pile, .. } => {
                out.push(Move::Draft(DraftChoice::Take { deny: false }));
                // Passing the last pile with the stack empty takes it: the same as a take.
                if !self.last_pile(usize::from(pile)) {
                    out.push(Move::Draft(DraftChoice::Pass));
                }
                if rules.last_card_rule && self.stack_len == 1 {
                    out.push(Move::Draft(DraftChoice::TakeLastCard));
                }
            }
            Phase::Build(seat) => {
                // For each colour choice, the deck of its best cards (wild, ability,
                // multicoloured, then plain): the card choice within colours is left to
                // that fixed rule, so the search chooses among colour choices.
                let own = self.pools[usize::from(seat)];
                for k in 1..=rules.max_colours.min(pool.n_colours()) {
                    for colours in colour_sets(pool.n_colours(), k) {
                        let usable = pool.usable(rules, own, colours);
                        let deck = best_cards(pool, usable, rules.deck_size).0;
                        if !out.iter().any(|m| matches!(*m, Move::Build { deck: d, .. } if d == deck)) {
                            out.push(Move::Build { colours, deck });
                        }
                    }
                }
            }
            Phase::Play(seat) => {
                let hand = self.sides[usize::from(seat)].hand;
                out.extend(ids(hand).map(|c| Move::Play(Some(c))));
                if hand == 0 {
                    out.push(Move::Play(None));
                }
            }
            Phase::Peek(_) => out.extend([Move::Keep(true), Move::Keep(false)]),
            Phase::Discard(seat) => {
                for c in ids(playable(pool, &self.sides[usize::from(seat)])) {
                    if pool.wild & bit(c) != 0 {
                        out.extend((0..pool.n_colours()).map(|colour| Move::Discard(Some((c, colour)))));
                    } else {
                        out.push(Move::Discard(Some((c, 0))));
                    }
                }
                if !rules.classic && self.discard_at > 0 {
                    out.push(Move::Discard(None));
                }
            }
            Phase::Over => {}
        }
    }

    #[inline(always)]
    fn apply<S: EventSink<Event>>(
        &mut self,
        model: &Model,
        m: Move,
        sink: &mut S,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        self.step(&model.rules, &model.pool, m, sink, out)
    }

    #[inline(always)]
    fn ask(&self, model: &Model, bot: &mut WinstonBot, rng: &mut BotRng) -> Result<Move, Error> {
        self.ask_bot(&model.rules, &model.pool, bot, rng)
    }

    fn observe(&self, _model: &Model, seat: usize, out: &mut Observation) {
        let other = 1 - seat;
        let built = match self.phase {
            Phase::Draft { .. } | Phase::Build(0) => [false, false],
            Phase::Build(_) => [true, false],
            _ => [true, true],
        };
        *out = Observation {
            seat,
            phase: self.phase,
            pool: self.pools[seat],
            known: self.known[seat],
            pile_sizes: self.piles.map(count),
            stack: (self.stack_len, self.stack_start),
            opponent_pool: count(self.pools[other]),
            opponent_took: self.opponent_took[seat],
            opponent_passed: self.opponent_passed[seat],
            draft: (self.draft_seat, self.draft_turns),
            deck: if built[seat] { self.decks[seat] } else { 0 },
            opponent_deck: if built[other] { count(self.decks[other]) } else { 0 },
            ..Observation::default()
        };
        if self.in_game() {
            out.opponent_shown = self.shown[other];
            out.own = self.side_seen(seat, seat);
            out.opponent = self.side_seen(seat, other);
            out.games = (self.game, self.wins, self.starter, self.first_starter);
            out.turns = (self.match_turns, self.game_turns);
            out.turn = (self.turn_seat, self.discards, self.discard_at, self.again);
            out.shown_to_opponent = self.shown[seat];
        }
    }

    fn determinize(model: &Model, obs: &Observation, rng: &mut BotRng, out: &mut Table) {
        let (rules, pool) = (&model.rules, &model.pool);
        let (o, p) = (obs.seat, 1 - obs.seat);
        out.verify = false;
        out.one_turn = false;
        out.phase = obs.phase;
        (out.stack_len, out.stack_start) = obs.stack;
        out.stack_dealt = obs.stack.0;
        (out.draft_seat, out.draft_turns) = obs.draft;
        out.pools[o] = obs.pool;
        out.known[o] = obs.known;
        out.opponent_took[o] = obs.opponent_took;
        out.opponent_passed[o] = obs.opponent_passed;
        // The opponent's own deductions are not seen: it is taken to know the piles as
        // they are and the observer's pool, and to have seen nothing passed.
        out.opponent_took[p] = obs.pool;
        out.opponent_passed[p] = 0;
        // Every card not seen is dealt among the unseen part of each pile, of the
        // opponent's pool, the stack (in a random order) and the removed cards.
        let fixed = obs.opponent_took | obs.opponent_shown;
        let seen = obs.pool | obs.known[0] | obs.known[1] | obs.known[2] | fixed;
        let mut unseen = [0u8; MAX_CARDS];
        let n = list(pool.all & !seen, &mut unseen);
        let unseen = &mut unseen[..n];
        let mut at = 0;
        for i in 0..3 {
            let k = obs.pile_sizes[i] - count(obs.known[i]);
            out.piles[i] = obs.known[i] | deal(unseen, &mut at, k, rng);
            out.known[p][i] = out.piles[i];
        }
        out.pools[p] = fixed | deal(unseen, &mut at, obs.opponent_pool - count(fixed), rng);
        let from = at;
        deal(unseen, &mut at, obs.stack.0, rng);
        out.stack[..obs.stack.0].copy_from_slice(&unseen[from..at]);
        out.removed = unseen[at..].iter().fold(0, |m, &id| m | bit(id));
        out.decks = [0; 2];
        out.decks[o] = obs.deck;
        let opponent_built = match obs.phase {
            Phase::Draft { .. } | Phase::Build(0) => false,
            Phase::Build(_) => o == 1,
            _ => true,
        };
        if opponent_built {
            out.decks[p] = guess_deck(rules, pool, out.pools[p], obs.opponent_shown, obs.opponent_deck, rng);
        }
        out.shown = [0; 2];
        out.peeked = [(NO_CARD, NO_CARD); 2];
        if matches!(obs.phase, Phase::Play(_) | Phase::Peek(_) | Phase::Discard(_)) {
            out.shown[p] = obs.opponent_shown;
            out.shown[o] = obs.shown_to_opponent;
            (out.game, out.wins, out.starter, out.first_starter) = obs.games;
            (out.match_turns, out.game_turns) = obs.turns;
            (out.turn_seat, out.discards, out.discard_at, out.again) = obs.turn;
            let mut buf = [0u8; MAX_CARDS];
            for (s, seen) in [(o, &obs.own), (p, &obs.opponent)] {
                let side = &mut out.sides[s];
                let top = if seen.top == NO_CARD { 0 } else { bit(seen.top) };
                let rest = out.decks[s] & !seen.under & !top;
                let hand = if s == o {
                    seen.hand
                } else {
                    let n = list(rest, &mut buf);
                    let mut at = 0;
                    deal(&mut buf[..n], &mut at, seen.hand_size, rng)
                };
                let n = list(rest & !hand, &mut buf);
                let len = n.min(MAX_DECK);
                side.deck[..len].copy_from_slice(&buf[..len]);
                rand::seq::SliceRandom::shuffle(&mut side.deck[..len], rng);
                // A card known from a peek keeps its place.
                for (known, place) in [(seen.known_bottom, 0), (seen.known_top, len.saturating_sub(1))] {
                    if let Some(i) = side.deck[..len].iter().position(|&c| c == known) {
                        side.deck.swap(i, place);
                    }
                }
                side.deck_len = len;
                side.hand = hand;
                side.under = seen.under;
                side.top = seen.top;
                side.colours = seen.colours;
                side.rank = seen.rank;
            }
            out.peeked[o] = (obs.own.known_top, obs.own.known_bottom);
        }
        out.deal_seed = rng.next_u64();
        out.rngs =
            [Xoshiro256PlusPlus::seed_from_u64(rng.next_u64()), Xoshiro256PlusPlus::seed_from_u64(rng.next_u64())];
    }

    fn key(&self, _model: &Model, actor: usize, observer: usize, m: Move) -> u32 {
        match m {
            Move::Draft(DraftChoice::Take { .. }) => 1,
            Move::Draft(DraftChoice::Pass) => 2,
            Move::Draft(DraftChoice::TakeLastCard) => 3,
            // The opponent's deck is not seen: all its builds are one move.
            Move::Build { colours, .. } if actor == observer => 0x100 | u32::from(colours),
            Move::Build { .. } => 0x100,
            // Plays, peeks' outcomes and discards are seen by both seats.
            Move::Play(card) => 0x200 | card.map_or(0xFF, u32::from),
            Move::Keep(kept) => 0x300 | u32::from(kept),
            Move::Discard(None) => 0x400,
            Move::Discard(Some((card, colour))) => 0x1000 | u32::from(card) << 3 | colour as u32,
        }
    }

    fn returns(&self, _model: &Model, out: &RoundResult, seat: usize) -> f64 {
        // +1 for a match won, -1 lost, 0 drawn.
        (out.seats[seat].score as f64 + 1.0) / 2.0
    }
}

/// `count` decision points of the default rules played by the default mix (value against
/// colour), with the model they need: for benchmarks of the search.
pub fn bench_points(count: usize) -> (Model, Vec<Table>) {
    let model = Model::new(&Rules::default());
    let mut bots: Vec<SeatBot<Table>> = ["value", "colour"]
        .iter()
        .map(|name| SeatBot::Heuristic(super::Preset::load(name).expect("a built-in preset").bot(name)))
        .collect();
    let points = crate::search::leaks::decision_points(&model, &mut bots, 31, count, 8, |t: &mut Table, seed| {
        let mut out = RoundResult::default();
        t.reset(&model.rules, &model.pool, seed, &mut crate::sim::NoEvents, &mut out).expect("a default match starts");
    });
    (model, points)
}
