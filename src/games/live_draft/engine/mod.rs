//! The Live-Draft engine: a deterministic state machine driven by the deal seed and the
//! bots' choices.
//!
//! Points the rules leave to us, as implemented here:
//! - The library is generated from the deal seed (or taken from the rules' card list) and
//!   shuffled from it; card ids are the generation order, so a card's face is public and
//!   the library's order is not. Creature costs 1-6 are weighted towards the cheap end;
//!   power plus toughness is twice the cost plus one, give or take one.
//! - Seat 0 plays first. In a two-player game it does not draw on its first turn (the
//!   Magic rule); with three or four players everyone draws; `first_player_draws` decides
//!   either way when set. Mana: each land taps for one; a creature needs one land of its
//!   colour among those it taps.
//! - Attacks go to one opponent per turn; each attacker may be blocked by one untapped
//!   creature; combat damage wears off at the end of the turn. Attackers tap and untap at
//!   the start of their controller's next turn, so a creature that attacked cannot block
//!   in between (`vigilance = true`: attackers stay untapped, the engine's behaviour before
//!   attackers tapped). Summoning sickness stops attacking, not blocking. Hands above
//!   `max_hand` are discarded to the graveyard at the end of the turn.
//! - Mill counters: a card taken from the library, or added from it to the row because of
//!   a player's draw (a replacement, a pipeline's two), counts for that player; a wipe's
//!   redeal counts for the drawer who caused it, or for nobody (`wipe_counters`); opening
//!   deals count for the player dealt to. With the counters off, a player who cannot draw
//!   skips the draw.
//! - Rummy: the quick opening is its own (fourteen, then discard to seven): every player
//!   chooses all its discards before any goes on the pile, then they go on it in seat
//!   order (the last seat's last choice on top). The careful opening draws by rummy's
//!   draw. Taking the discard pile's top takes nothing from the library. A rummy player
//!   whose library is empty must take the top.
//! - What a player takes from the row or the discard pile is seen by all, and stays known
//!   while it is in that hand.
//! - The quick opening's exchange (remove two, draw one) may be repeated `max_mulligans`
//!   times. Cards removed from the game come back only with `reshuffle_removed`: the new
//!   library is shuffled from the deal seed and the removed cards sorted by id, so it
//!   depends on which cards were removed, never on the order the bots removed them in.
//! - A one-kind tableau is wiped only when the library (with `reshuffle_removed`, also the
//!   removed cards and the seven being wiped) can deal a whole new tableau; all seven
//!   leave before any new card is dealt. It is wiped at most as often as the library
//!   could deal it anew in one check (else a one-kind library with `reshuffle_removed`
//!   would wipe for ever).
//! - Cards removed from the game lie face up: every player sees them (an exchange's two
//!   cards included).
//!
//! The state ([`State`]) waits at one decision at a time ([`Phase`]); [`State::step`]
//! applies a [`Move`] and plays every draw and deal up to the next decision, so the same
//! code plays heuristic bots (asked through their views by [`State::ask_bot`]) and the
//! search bot ([`Forward`]).

use crate::cards::shuffle::shuffle;
use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::bots::LiveDraftBot;
use super::measures::{
    CAPPED, CAST, DAMAGE, FLOODED, HATE_PICKS, LAND_BINS, LANDS_PLAYED, MILL, MILL_END, MULLIGANED, OPENING_LAND_SUM,
    OPENING_LANDS, REMOVED, SCREWED, WIPES,
};
use super::rules::{COLOURS, MAX_LIBRARY, MAX_ROW, Method, Opening, Rules, WipeCounters};
use super::view::{Board, Bot, BotRng, Card, CardBits, MAX_PERMANENTS, NO_CARD, Pick, View, slot_mask};
use crate::error::{Error, Step};
use crate::search::{Forward, SearchNote};
pub use crate::sim::NoEvents;
use crate::sim::{CardLog, Deal, MAX_SEATS, RoundResult, SHARE_UNIT, SeatRngs, mix_seed};

mod steps;
pub use steps::*;
mod forward;
#[doc(hidden)]
pub mod testing;
pub use forward::*;

/// Stream tag of the library's generation and shuffle.
const LIBRARY_STREAM: u64 = 0x11FE_0001;
/// Stream tag of the shuffles that make the removed cards a new library.
const RESHUFFLE_STREAM: u64 = 0x11FE_0002;
/// Most cards in a hand at any moment.
pub const MAX_HAND: usize = 40;

/// How a card came to a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// Dealt or drawn from the library's top.
    Library,
    /// Taken from the row.
    Row,
    /// Taken from the rummy discard pile.
    DiscardTop,
}

/// Something that happened, for replays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The library: cards and lands.
    Library {
        /// Cards.
        cards: usize,
        /// Lands among them.
        lands: usize,
    },
    /// The face-up row after a change.
    Row {
        /// Its cards ([`NO_CARD`] for an empty slot).
        cards: [u8; MAX_ROW],
        /// Slots in use.
        len: usize,
    },
    /// A seat's opening hand is complete.
    Opening {
        /// The seat.
        seat: usize,
        /// Lands in it.
        lands: usize,
    },
    /// A turn begins.
    Turn {
        /// The seat.
        seat: usize,
        /// The game's turn number.
        turn: u32,
    },
    /// A card goes to a hand.
    Draw {
        /// The seat.
        seat: usize,
        /// The card.
        card: u8,
        /// From where.
        how: How,
        /// Taken mainly to deny the next player.
        hate: bool,
    },
    /// A card leaves a hand: to the discard pile, the graveyard (end of turn) or out of the game.
    Discard {
        /// The seat.
        seat: usize,
        /// The card.
        card: u8,
        /// Where to: "discard pile", "graveyard" or "removed".
        to: &'static str,
    },
    /// The tableau was all lands or all non-lands: removed and dealt again.
    Wipe {
        /// The seat whose mill counters the new cards are, if any (`wipe_counters`).
        mill_to: Option<u8>,
    },
    /// A pipeline's leftmost card leaves the game.
    Slide {
        /// The card removed.
        card: u8,
    },
    /// A land is played.
    Land {
        /// The seat.
        seat: usize,
        /// The card.
        card: u8,
    },
    /// A creature is cast.
    Cast {
        /// The seat.
        seat: usize,
        /// The card.
        card: u8,
    },
    /// An attack.
    Attack {
        /// The attacking seat.
        seat: usize,
        /// The defender.
        defender: usize,
        /// Attacking creatures.
        attackers: usize,
    },
    /// A block.
    Block {
        /// The attacking creature.
        attacker: u8,
        /// The blocking creature.
        blocker: u8,
    },
    /// A creature dies.
    Dies {
        /// Its controller.
        seat: usize,
        /// The card.
        card: u8,
    },
    /// A player takes combat damage.
    Damage {
        /// The player.
        seat: usize,
        /// Damage taken.
        amount: i32,
        /// Life left.
        life: i32,
    },
    /// The game ends: winners as seat bits (none when drawn), and why.
    End {
        /// Winning seats, as bits.
        winners: u8,
        /// "last standing", "mill counters" or "turn cap".
        why: &'static str,
    },
    /// The search bot chose a move.
    Search(SearchNote),
}

crate::game_events!(Event);

/// Where the game stands: the decision the state waits for, and whose it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// Rummy's quick opening: the seat chooses a card to discard down to its hand size
    /// (unseen by the others until every seat has chosen).
    OpeningDiscard(u8),
    /// Quick opening: the seat may remove two cards from the game to draw one.
    Mulligan(u8),
    /// The seat takes a card of the row.
    Pick(u8),
    /// Rummy: the seat takes the discard pile's top, or draws two.
    TakeTop(u8),
    /// Rummy: having drawn two, the seat discards one onto the pile.
    DrawDiscard(u8),
    /// The seat may play a land.
    Land(u8),
    /// The seat may cast a creature (asked until it casts none).
    Cast(u8),
    /// The seat chooses the opponent to attack.
    Target(u8),
    /// The seat chooses its attackers.
    Attack(u8),
    /// The defending seat blocks.
    Block(u8),
    /// The seat discards down to the hand limit at the end of its turn.
    EndDiscard(u8),
    /// The game is over (or a scripted turn has ended).
    #[default]
    Over,
}

/// Why the current draw happens: what follows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum DrawFor {
    /// The careful opening's next card.
    #[default]
    Careful,
    /// A quick opening's exchange.
    Mulligan,
    /// A turn's draw.
    Turn,
}

/// Blocks: for each attacking creature slot, the blocking creature slot or [`NO_CARD`].
pub type Blocks = [u8; MAX_PERMANENTS];

/// A decision. Hand cards and creatures are named by position (the bots' answers); the
/// search keys them by card ([`Forward::key`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// A row slot to take, and whether it was taken mainly to deny the next player.
    Pick(Pick),
    /// Rummy: take the discard pile's top (true) or draw two (false).
    TakeTop(bool),
    /// A hand card to discard.
    Discard(u8),
    /// Two hand cards to remove from the game to draw one, or none.
    Mulligan(Option<(u8, u8)>),
    /// A hand land to play, or none.
    Land(Option<u8>),
    /// A hand creature to cast, or none.
    Cast(Option<u8>),
    /// The opponent to attack.
    Target(u8),
    /// Attacking creature slots, as bits.
    Attack(u64),
    /// The blocks.
    Block(Blocks),
}

/// The state of one game, the forward model of Live-Draft (reused between games): the
/// library, the row, the piles, hands and boards, and where play stands.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    cards: [Card; MAX_LIBRARY],
    n_cards: usize,
    library: [u8; MAX_LIBRARY],
    n_library: usize,
    row: [u8; MAX_ROW],
    n_row: usize,
    discard: [u8; MAX_LIBRARY],
    n_discard: usize,
    removed: [u8; MAX_LIBRARY],
    n_removed: usize,
    hands: [[u8; MAX_HAND]; MAX_SEATS],
    boards: [Board; MAX_SEATS],
    untapped: [u8; COLOURS],
    turns: [u32; MAX_SEATS],
    /// Per seat: turns 5+, and those that drew a land with 5+ lands in play.
    flood: [(u32, u32); MAX_SEATS],
    wipes: u32,
    /// Per seat: cards it has drawn this game, the "pick" of card analytics.
    drawn: [usize; MAX_SEATS],
    /// The deal seed, which also seeds each reshuffle of the removed cards.
    deal_seed: u64,
    /// Reshuffles of the removed cards so far this game.
    reshuffles: u64,
    /// The decision waited for.
    phase: Phase,
    /// What follows the current draw.
    draw_for: DrawFor,
    /// Lands among the two cards of the current rummy draw.
    draw_lands: u8,
    /// The seat whose turn it is (in the opening: the seat dealt with).
    seat: u8,
    /// The game's turn number (all seats' turns together).
    game_turn: u32,
    /// The opening exchanges of `seat` so far.
    mulligans_done: u32,
    /// The seat attacked this turn.
    defender: u8,
    /// The attacking creatures (slot bits).
    attackers: u64,
    /// Rummy's quick opening: cards each seat has chosen to discard, waiting unseen past
    /// the pile's top, in seat order, up to `chosen`.
    pending: [u8; MAX_SEATS],
    chosen: usize,
    /// The winners (seat bits) of the finished game.
    winners: u8,
    /// Stop when the turn ends (a scripted turn), keeping its ending in `ended`.
    stop_after_turn: bool,
    ended: Option<(u8, &'static str)>,
    /// Check the invariants after every step (`draftsim check` and tests turn it on).
    pub verify: bool,
}

impl Default for State {
    fn default() -> Self {
        State {
            cards: [Card::default(); MAX_LIBRARY],
            n_cards: 0,
            library: [0; MAX_LIBRARY],
            n_library: 0,
            row: [NO_CARD; MAX_ROW],
            n_row: 0,
            discard: [0; MAX_LIBRARY],
            n_discard: 0,
            removed: [0; MAX_LIBRARY],
            n_removed: 0,
            hands: [[0; MAX_HAND]; MAX_SEATS],
            boards: [Board::default(); MAX_SEATS],
            untapped: [0; COLOURS],
            turns: [0; MAX_SEATS],
            flood: [(0, 0); MAX_SEATS],
            wipes: 0,
            drawn: [0; MAX_SEATS],
            deal_seed: 0,
            reshuffles: 0,
            phase: Phase::Over,
            draw_for: DrawFor::Careful,
            draw_lands: 0,
            seat: 0,
            game_turn: 0,
            mulligans_done: 0,
            defender: 0,
            attackers: 0,
            pending: [0; MAX_SEATS],
            chosen: 0,
            winners: 0,
            stop_after_turn: false,
            ended: None,
            verify: cfg!(debug_assertions),
        }
    }
}

/// Whether drawing found anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Drawn {
    /// Cards came; this many were lands.
    Cards(usize),
    /// Nothing was left to draw.
    Exhausted,
}

fn illegal<B: Bot + ?Sized>(bot: &B, seat: usize, action: String) -> Error {
    Error::IllegalAction { bot: bot.name().to_string(), seat, action }
}

/// Creature costs 1-6 and their weights in a generated library.
const COST_WEIGHTS: [u32; 6] = [4, 6, 6, 5, 3, 2];

/// Generates a library of `size` cards, `lands` of them lands, from `rng`.
pub fn generate(size: usize, lands: usize, rng: &mut Xoshiro256PlusPlus, out: &mut [Card]) {
    let total: u32 = COST_WEIGHTS.iter().sum();
    for (i, card) in out[..size].iter_mut().enumerate() {
        *card = if i < lands {
            Card { colour: (i % COLOURS) as u8, cost: 0, power: 0, toughness: 0 }
        } else {
            let mut r = rng.random_range(0..total);
            let mut cost = 1;
            for (c, &w) in COST_WEIGHTS.iter().enumerate() {
                if r < w {
                    cost = c as u8 + 1;
                    break;
                }
                r -= w;
            }
            let stats = 2 * cost + 1 + rng.random_range(0..=2) - 1;
            let half = stats / 2;
            let power = (half + rng.random_range(0..=2)).saturating_sub(1).clamp(1, stats - 1);
            Card { colour: rng.random_range(0..COLOURS as u8), cost, power, toughness: stats - power }
        };
    }
}

impl State {
    /// A table that checks the invariants after every step, in any build.
    pub fn verified() -> State {
        State { verify: true, ..State::default() }
    }

    /// Each seat's board after the last game.
    pub fn board(&self, seat: usize) -> &Board {
        &self.boards[seat]
    }

    /// A seat's hand after the last game.
    pub fn hand(&self, seat: usize) -> &[u8] {
        &self.hands[seat][..self.boards[seat].hand_size]
    }

    /// The face of card `id`.
    pub fn card(&self, id: u8) -> Card {
        self.cards[usize::from(id)]
    }

    /// The row (tableau slots, or the pipeline in order).
    pub fn row(&self) -> &[u8] {
        &self.row[..self.n_row]
    }

    /// The library, top last.
    pub fn library(&self) -> &[u8] {
        &self.library[..self.n_library]
    }

    /// Cards removed from the game.
    pub fn removed(&self) -> &[u8] {
        &self.removed[..self.n_removed]
    }

    /// The rummy discard pile, top last.
    pub fn discard_pile(&self) -> &[u8] {
        &self.discard[..self.n_discard]
    }

    /// Tableau wipes in the last game.
    pub fn wipes(&self) -> u32 {
        self.wipes
    }

    fn view<'a>(&'a self, rules: &'a Rules, seat: usize) -> View<'a> {
        View {
            rules,
            cards: &self.cards[..self.n_cards],
            seat,
            hand: &self.hands[seat][..self.boards[seat].hand_size],
            boards: &self.boards[..rules.players],
            row: &self.row[..self.n_row],
            discard: &self.discard[..self.n_discard],
            library: self.n_library,
            turn: self.turns[seat],
            untapped: self.untapped,
        }
    }

    /// Every card is in exactly one place: library, row, discard pile, removed, a hand, a
    /// battlefield or a graveyard; land counts match the lands in play.
    pub fn check(&self, players: usize) -> Result<(), Error> {
        let mut seen = [0u8; MAX_LIBRARY];
        let mut mark = |ids: &[u8]| {
            for &id in ids {
                if id != NO_CARD {
                    seen[usize::from(id).min(MAX_LIBRARY - 1)] += 1;
                }
            }
        };
        mark(&self.library[..self.n_library]);
        mark(&self.row[..self.n_row]);
        // With the rummy opening's chosen discards, waiting past the pile's top.
        mark(&self.discard[..self.n_discard.max(self.chosen)]);
        mark(&self.removed[..self.n_removed]);
        for s in 0..players {
            let b = &self.boards[s];
            mark(&self.hands[s][..b.hand_size]);
            mark(b.land_ids());
            mark(b.creatures());
            mark(b.graveyard());
            let mut lands = [0u8; COLOURS];
            for &l in b.land_ids() {
                if !self.cards[usize::from(l)].is_land() {
                    return Err(Error::Invariant(format!("seat {s} has a creature among its lands")));
                }
                lands[usize::from(self.cards[usize::from(l)].colour)] += 1;
            }
            if lands != b.lands {
                return Err(Error::Invariant(format!("seat {s}: land counts do not match its lands")));
            }
            if b.creatures().iter().any(|&c| self.cards[usize::from(c)].is_land()) {
                return Err(Error::Invariant(format!("seat {s} has a land among its creatures")));
            }
            if b.known_hand.iter().any(|c| !self.hands[s][..b.hand_size].contains(&c)) {
                return Err(Error::Invariant(format!("seat {s}: a card known to be in its hand is not there")));
            }
            if (b.tapped | b.sick) & !slot_mask(b.n_creatures) != 0 {
                return Err(Error::Invariant(format!("seat {s}: a tapped or sick bit past its creatures")));
            }
        }
        if let Some(id) = (0..self.n_cards).find(|&i| seen[i] != 1) {
            return Err(Error::Invariant(format!("card {id} ({}) is in {} places", self.cards[id].name(), seen[id])));
        }
        if seen[self.n_cards..].iter().any(|&n| n > 0) {
            return Err(Error::Invariant("a card id past the library's size".into()));
        }
        Ok(())
    }

    /// The library's top card, if any (with `reshuffle_removed`, the removed cards become
    /// a new library first); a mill counter for `seat`.
    fn take_library(&mut self, rules: &Rules, seat: Option<usize>) -> Option<u8> {
        if self.n_library == 0 && rules.reshuffle_removed && self.n_removed > 0 {
            // Sorted, then shuffled from the deal seed: the new library depends on which
            // cards were removed, not on the order the bots removed them in.
            self.library[..self.n_removed].copy_from_slice(&self.removed[..self.n_removed]);
            self.n_library = self.n_removed;
            self.n_removed = 0;
            self.library[..self.n_library].sort_unstable();
            self.reshuffles += 1;
            let mut rng =
                Xoshiro256PlusPlus::seed_from_u64(mix_seed(self.deal_seed, self.reshuffles, RESHUFFLE_STREAM));
            shuffle(&mut self.library[..self.n_library], &mut rng);
        }
        if self.n_library == 0 {
            return None;
        }
        self.n_library -= 1;
        if let Some(s) = seat {
            self.boards[s].mill += 1;
        }
        Some(self.library[self.n_library])
    }

    /// Puts `card` into `seat`'s hand; `seen` when every player saw it taken (from the row
    /// or the discard pile).
    fn put_in_hand(&mut self, seat: usize, card: u8, seen: bool) {
        let b = &mut self.boards[seat];
        if b.hand_size < MAX_HAND {
            self.hands[seat][b.hand_size] = card;
            b.hand_size += 1;
            if seen {
                b.known_hand.insert(card);
            }
        } else {
            // A full hand (never reached with sane rules): the card goes to the graveyard.
            b.graveyard[b.n_graveyard] = card;
            b.n_graveyard += 1;
        }
    }

    fn take_from_hand(&mut self, seat: usize, index: usize) -> u8 {
        let b = &mut self.boards[seat];
        let card = self.hands[seat][index];
        self.hands[seat].copy_within(index + 1..b.hand_size, index);
        b.hand_size -= 1;
        b.known_hand.remove(card);
        card
    }

    fn remove_from_game(&mut self, card: u8) {
        self.removed[self.n_removed] = card;
        self.n_removed += 1;
    }

    fn row_event(&self, sink: &mut impl Sink) {
        sink.event(Event::Row { cards: self.row, len: self.n_row });
    }

    /// Deals the row from the library (no mill counters: nobody draws).
    fn set_out_row(&mut self, rules: &Rules, sink: &mut impl Sink) {
        self.n_row = 0;
        if matches!(rules.method, Method::Tableau | Method::Pipeline) {
            for _ in 0..rules.row {
                let card = self.take_library(rules, None).unwrap_or(NO_CARD);
                self.row[self.n_row] = card;
                self.n_row += 1;
            }
            self.wipe_check(rules, None, sink);
            self.row_event(sink);
        }
    }

    /// Tableau: while the cards in it are all lands or all non-lands and the library can
    /// deal a whole new tableau, remove them all, then deal again (the new cards count for
    /// `drawer` under `wipe_counters = "drawer"`).
    fn wipe_check(&mut self, rules: &Rules, drawer: Option<usize>, sink: &mut impl Sink) {
        if rules.method != Method::Tableau {
            return;
        }
        let seat = if rules.wipe_counters == WipeCounters::Drawer { drawer } else { None };
        // With reshuffle_removed, a library of one kind would be wiped for ever: stop once
        // every card could have been dealt (the row then stays as it is).
        for _ in 0..=self.n_cards / rules.row.max(1) + 1 {
            let present = self.row[..self.n_row].iter().filter(|&&c| c != NO_CARD);
            let (mut lands, mut others) = (0, 0);
            for &c in present {
                if self.cards[usize::from(c)].is_land() {
                    lands += 1;
                } else {
                    others += 1;
                }
            }
            if lands + others == 0 || (lands > 0 && others > 0) {
                return;
            }
            // The wiped cards join the removed ones, which a reshuffle would bring back.
            let refill = self.n_library + if rules.reshuffle_removed { self.n_removed + lands + others } else { 0 };
            if refill < self.n_row {
                return;
            }
            self.wipes += 1;
            sink.event(Event::Wipe { mill_to: seat.map(|s| s as u8) });
            for i in 0..self.n_row {
                let c = self.row[i];
                if c != NO_CARD {
                    self.remove_from_game(c);
                }
            }
            for i in 0..self.n_row {
                self.row[i] = self.take_library(rules, seat).unwrap_or(NO_CARD);
            }
        }
    }
}

/// Sets up a new game's library and boards from the deal seed (no decision yet).
fn deal_library(rules: &Rules, t: &mut State, deal_seed: u64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix_seed(deal_seed, 0, LIBRARY_STREAM));
    t.deal_seed = deal_seed;
    t.reshuffles = 0;
    match &rules.cards {
        Some(list) => {
            let mut n = 0;
            for spec in list {
                for _ in 0..spec.count {
                    t.cards[n] =
                        Card { colour: spec.colour, cost: spec.cost, power: spec.power, toughness: spec.toughness };
                    n += 1;
                }
            }
            t.n_cards = n;
        }
        None => {
            let lands = (rules.library_size as f64 * rules.land_share).round() as usize;
            generate(rules.library_size, lands, &mut rng, &mut t.cards);
            t.n_cards = rules.library_size;
        }
    }
    for i in 0..t.n_cards {
        t.library[i] = i as u8;
    }
    t.n_library = t.n_cards;
    shuffle(&mut t.library[..t.n_library], &mut rng);
    t.n_discard = 0;
    t.n_removed = 0;
    t.wipes = 0;
    for s in 0..rules.players {
        t.boards[s] = Board { life: rules.life, ..Board::default() };
        t.turns[s] = 0;
        t.flood[s] = (0, 0);
    }
}
