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
//! The state ([`Table`]) waits at one decision at a time ([`Phase`]); [`Table::step`]
//! applies a [`Move`] and plays every draw and deal up to the next decision, so the same
//! code plays heuristic bots (asked through their views by [`Table::ask_bot`]) and the
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
use crate::error::Error;
use crate::search::{Forward, Scratch, SearchNote, SeatBot, drive};
pub use crate::sim::NoEvents;
use crate::sim::{CardLog, EventSink, MAX_SEATS, RoundResult, SHARE_UNIT, SeatRngs, mix_seed};

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
    Wipe,
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

impl From<SearchNote> for Event {
    fn from(note: SearchNote) -> Event {
        Event::Search(note)
    }
}

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
pub struct Table {
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

impl Default for Table {
    fn default() -> Self {
        Table {
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

impl Table {
    /// A table that checks the invariants after every step, in any build.
    pub fn verified() -> Table {
        Table { verify: true, ..Table::default() }
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

    /// Sets up a scripted position for tests: these cards, this library (top last), this
    /// row, and each seat's hand; every board empty with `rules.life`.
    pub fn set_position(&mut self, rules: &Rules, cards: &[Card], library: &[u8], row: &[u8], hands: &[&[u8]]) {
        self.cards[..cards.len()].copy_from_slice(cards);
        self.n_cards = cards.len();
        self.library[..library.len()].copy_from_slice(library);
        self.n_library = library.len();
        self.row[..row.len()].copy_from_slice(row);
        self.n_row = row.len();
        self.n_discard = 0;
        self.n_removed = 0;
        self.wipes = 0;
        self.reshuffles = 0;
        for (s, hand) in hands.iter().enumerate().take(rules.players) {
            self.boards[s] = Board { life: rules.life, ..Board::default() };
            self.hands[s][..hand.len()].copy_from_slice(hand);
            self.boards[s].hand_size = hand.len();
            self.turns[s] = 0;
            self.flood[s] = (0, 0);
        }
    }

    /// Puts cards into play for scripted tests: lands and creatures (not sick).
    pub fn set_board(&mut self, seat: usize, lands: &[u8], creatures: &[u8]) {
        let b = &mut self.boards[seat];
        for &l in lands {
            b.lands[usize::from(self.cards[usize::from(l)].colour)] += 1;
            b.land_ids[b.n_lands] = l;
            b.n_lands += 1;
        }
        for &c in creatures {
            b.creatures[b.n_creatures] = c;
            b.n_creatures += 1;
        }
    }

    /// Sets a seat's mill counters and life, for scripted tests.
    pub fn set_counters(&mut self, seat: usize, mill: u32, life: i32) {
        self.boards[seat].mill = mill;
        self.boards[seat].life = life;
    }

    /// Sets the cards removed from the game, in this order, for scripted tests.
    pub fn set_removed(&mut self, cards: &[u8]) {
        self.removed[..cards.len()].copy_from_slice(cards);
        self.n_removed = cards.len();
    }

    /// Sets the rummy discard pile (top last), for scripted tests.
    pub fn set_discard(&mut self, cards: &[u8]) {
        self.discard[..cards.len()].copy_from_slice(cards);
        self.n_discard = cards.len();
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

    fn row_event(&self, sink: &mut impl EventSink<Event>) {
        sink.event(Event::Row { cards: self.row, len: self.n_row });
    }

    /// Deals the row from the library (no mill counters: nobody draws).
    fn set_out_row(&mut self, rules: &Rules, sink: &mut impl EventSink<Event>) {
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
    fn wipe_check(&mut self, rules: &Rules, drawer: Option<usize>, sink: &mut impl EventSink<Event>) {
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
            sink.event(Event::Wipe);
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
fn deal_library(rules: &Rules, t: &mut Table, deal_seed: u64) {
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

impl Table {
    /// Starts a game with this deal seed: the library, the opening up to the first
    /// decision (or the end, when the opening decides the game).
    pub fn reset(
        &mut self,
        rules: &Rules,
        deal_seed: u64,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        deal_library(rules, self, deal_seed);
        let lands = (0..self.n_cards).filter(|&i| self.cards[i].is_land()).count();
        sink.event(Event::Library { cards: self.n_cards, lands });
        self.begin(rules, sink, out)
    }

    /// Where the game stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Starts play from the position in the table (the opening included, unless hands
    /// are already dealt).
    fn begin(&mut self, rules: &Rules, sink: &mut impl EventSink<Event>, out: &mut RoundResult) -> Result<(), Error> {
        let n = rules.players;
        self.untapped = [0; COLOURS];
        self.drawn = [0; MAX_SEATS];
        self.game_turn = 0;
        self.seat = 0;
        self.winners = 0;
        self.stop_after_turn = false;
        self.phase = Phase::Over;
        let already: usize = (0..n).map(|s| self.boards[s].hand_size).sum();
        if already == 0 {
            match rules.opening {
                Opening::Quick => {
                    let dealt = if rules.method == Method::Rummy { 2 * rules.hand_size } else { rules.hand_size };
                    for s in 0..n {
                        for _ in 0..dealt {
                            if let Some(card) = self.take_library(rules, Some(s)) {
                                self.put_in_hand(s, card, false);
                                if out.cards.on() {
                                    log_draw(&mut out.cards, self, s, card, true);
                                }
                                sink.event(Event::Draw { seat: s, card, how: How::Library, hate: false });
                            }
                        }
                    }
                    if rules.method == Method::Rummy {
                        self.chosen = self.n_discard;
                        self.pending = [0; MAX_SEATS];
                        return self.opening_discard_next(rules, sink, out);
                    }
                    self.set_out_row(rules, sink);
                }
                Opening::Careful => {
                    self.set_out_row(rules, sink);
                    return self.careful_next(rules, sink, out);
                }
            }
        }
        self.opening_dealt(rules, sink, out)
    }

    /// Rummy's quick opening: the next seat still above the hand size discards; once none
    /// is, the chosen cards go on the pile in seat order (every seat chose unseen).
    fn opening_discard_next(
        &mut self,
        rules: &Rules,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        while (self.seat as usize) < rules.players {
            if self.boards[usize::from(self.seat)].hand_size > rules.hand_size {
                self.phase = Phase::OpeningDiscard(self.seat);
                return Ok(());
            }
            self.seat += 1;
        }
        let mut i = self.n_discard;
        for (s, &count) in self.pending.iter().enumerate().take(rules.players) {
            for _ in 0..count {
                sink.event(Event::Discard { seat: s, card: self.discard[i], to: "discard pile" });
                i += 1;
            }
        }
        self.n_discard = self.chosen;
        self.chosen = 0;
        self.pending = [0; MAX_SEATS];
        self.set_out_row(rules, sink);
        self.opening_dealt(rules, sink, out)
    }

    /// The careful opening: the next seat short of a full hand draws, from the first
    /// player round the table.
    fn careful_next(
        &mut self,
        rules: &Rules,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let n = rules.players;
        while (0..n).any(|p| self.boards[p].hand_size < rules.hand_size) {
            let s = usize::from(self.seat);
            if self.boards[s].hand_size < rules.hand_size {
                return self.begin_draw(rules, s, DrawFor::Careful, sink, out);
            }
            self.seat = ((s + 1) % n) as u8;
        }
        self.opening_dealt(rules, sink, out)
    }

    /// The hands are dealt: opening lands are measured, then the quick opening's
    /// exchanges, then the first turn.
    fn opening_dealt(
        &mut self,
        rules: &Rules,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        for s in 0..rules.players {
            let hand = &self.hands[s][..self.boards[s].hand_size];
            let lands = hand.iter().filter(|&&c| self.cards[usize::from(c)].is_land()).count();
            out.seats[s].observe(OPENING_LANDS, lands.min(LAND_BINS - 1));
            out.seats[s].sums[OPENING_LAND_SUM] = lands as i64;
            sink.event(Event::Opening { seat: s, lands });
        }
        self.seat = 0;
        self.mulligans_done = 0;
        if rules.opening == Opening::Quick {
            return self.mulligan_next(rules, sink, out);
        }
        self.opening_done(rules, sink, out)
    }

    /// The quick opening's exchanges: the seat asked next, or the first turn.
    fn mulligan_next(
        &mut self,
        rules: &Rules,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        while usize::from(self.seat) < rules.players {
            let s = usize::from(self.seat);
            if (self.mulligans_done as usize) < rules.max_mulligans && self.boards[s].hand_size >= 2 {
                self.phase = Phase::Mulligan(self.seat);
                return Ok(());
            }
            self.seat += 1;
            self.mulligans_done = 0;
        }
        self.opening_done(rules, sink, out)
    }

    /// The opening is over: seat 0 takes the first turn.
    fn opening_done(
        &mut self,
        rules: &Rules,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        if self.verify {
            self.check(rules.players)?;
        }
        self.seat = 0;
        self.next_turn(rules, sink, out)
    }

    /// The next turn (of `self.seat`), or the end at the turn cap.
    #[inline]
    fn next_turn(
        &mut self,
        rules: &Rules,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        if self.game_turn >= rules.turn_cap() {
            return self.finish(rules, None, sink, out);
        }
        self.game_turn += 1;
        self.start_turn(rules, sink, out)
    }

    /// Untap, then the draw (skipped on the first player's first turn where the rules say).
    fn start_turn(
        &mut self,
        rules: &Rules,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let seat = usize::from(self.seat);
        self.turns[seat] += 1;
        sink.event(Event::Turn { seat, turn: self.game_turn });
        // Untap: the creatures that attacked on this seat's last turn may block again.
        self.boards[seat].sick = 0;
        self.boards[seat].tapped = 0;
        self.untapped = [0; COLOURS];
        if self.game_turn != 1 || rules.first_player_draws() {
            return self.begin_draw(rules, seat, DrawFor::Turn, sink, out);
        }
        if self.turns[seat] >= 5 {
            self.flood[seat].0 += 1;
        }
        self.turn_land(seat, out);
        Ok(())
    }

    /// Before the land: land screw is measured, the lands untap.
    fn turn_land(&mut self, seat: usize, out: &mut RoundResult) {
        let hand = &self.hands[seat][..self.boards[seat].hand_size];
        let has_land = hand.iter().any(|&c| self.cards[usize::from(c)].is_land());
        if self.turns[seat] <= 4 && !has_land {
            out.seats[seat].counters[SCREWED] = 1;
        }
        self.untapped = self.boards[seat].lands;
        self.phase = Phase::Land(seat as u8);
    }

    /// One draw by the method in force: done at once (blind, or nothing left), or the
    /// seat's decision next.
    #[inline]
    fn begin_draw(
        &mut self,
        rules: &Rules,
        seat: usize,
        why: DrawFor,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        self.draw_for = why;
        match rules.method {
            Method::Blind => {
                let drawn = match self.take_library(rules, Some(seat)) {
                    Some(card) => {
                        self.put_in_hand(seat, card, false);
                        if out.cards.on() {
                            log_draw(&mut out.cards, self, seat, card, true);
                        }
                        sink.event(Event::Draw { seat, card, how: How::Library, hate: false });
                        Drawn::Cards(usize::from(self.cards[usize::from(card)].is_land()))
                    }
                    None => Drawn::Exhausted,
                };
                self.after_draw(rules, seat, drawn, sink, out)
            }
            Method::Tableau | Method::Pipeline => {
                if self.row[..self.n_row].iter().all(|&c| c == NO_CARD) {
                    return self.after_draw(rules, seat, Drawn::Exhausted, sink, out);
                }
                self.phase = Phase::Pick(seat as u8);
                Ok(())
            }
            Method::Rummy => {
                let has_top = self.n_discard > 0;
                let library = self.n_library > 0 || (rules.reshuffle_removed && self.n_removed > 0);
                if !has_top && !library {
                    return self.after_draw(rules, seat, Drawn::Exhausted, sink, out);
                }
                if has_top && out.cards.on() {
                    let top = self.discard[self.n_discard - 1];
                    out.cards.seen(seat, card_identity(self.cards[usize::from(top)]), self.drawn[seat] + 1);
                }
                if has_top && library {
                    self.phase = Phase::TakeTop(seat as u8);
                    return Ok(());
                }
                if has_top {
                    return self.take_top(rules, seat, sink, out);
                }
                self.draw_two(rules, seat, sink, out);
                Ok(())
            }
        }
    }

    /// Rummy: the discard pile's top goes to the seat's hand.
    fn take_top(
        &mut self,
        rules: &Rules,
        seat: usize,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        self.n_discard -= 1;
        let card = self.discard[self.n_discard];
        if out.cards.on() {
            log_draw(&mut out.cards, self, seat, card, false);
        }
        self.put_in_hand(seat, card, true);
        sink.event(Event::Draw { seat, card, how: How::DiscardTop, hate: false });
        let lands = usize::from(self.cards[usize::from(card)].is_land());
        self.after_draw(rules, seat, Drawn::Cards(lands), sink, out)
    }

    /// Rummy: two cards from the library, then the seat discards one.
    fn draw_two(&mut self, rules: &Rules, seat: usize, sink: &mut impl EventSink<Event>, out: &mut RoundResult) {
        let mut lands = 0;
        for _ in 0..2 {
            if let Some(card) = self.take_library(rules, Some(seat)) {
                self.put_in_hand(seat, card, false);
                if out.cards.on() {
                    log_draw(&mut out.cards, self, seat, card, true);
                }
                lands += u8::from(self.cards[usize::from(card)].is_land());
                sink.event(Event::Draw { seat, card, how: How::Library, hate: false });
            }
        }
        self.draw_lands = lands;
        self.phase = Phase::DrawDiscard(seat as u8);
    }

    /// A row pick: tableau (replace from the library, then the wipe check) or pipeline
    /// (remove the leftmost, slide, add two at the right).
    fn take_from_row(
        &mut self,
        rules: &Rules,
        seat: usize,
        pick: Pick,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let card = self.row[pick.index];
        if out.cards.on() {
            log_row(&mut out.cards, self, seat);
            log_draw(&mut out.cards, self, seat, card, false);
        }
        self.put_in_hand(seat, card, true);
        if pick.hate {
            out.seats[seat].sums[HATE_PICKS] += 1;
        }
        sink.event(Event::Draw { seat, card, how: How::Row, hate: pick.hate });
        if rules.method == Method::Tableau {
            self.row[pick.index] = self.take_library(rules, Some(seat)).unwrap_or(NO_CARD);
            self.wipe_check(rules, Some(seat), sink);
        } else {
            self.row.copy_within(pick.index + 1..self.n_row, pick.index);
            self.n_row -= 1;
            let first = self.row[..self.n_row].iter().position(|&c| c != NO_CARD);
            if let Some(i) = first {
                let gone = self.row[i];
                self.remove_from_game(gone);
                sink.event(Event::Slide { card: gone });
                self.row.copy_within(i + 1..self.n_row, i);
                self.n_row -= 1;
            }
            // Empty slots (a dry library) drop out as the row slides.
            let mut kept = 0;
            for i in 0..self.n_row {
                if self.row[i] != NO_CARD {
                    self.row[kept] = self.row[i];
                    kept += 1;
                }
            }
            self.n_row = kept;
            for _ in 0..2 {
                if self.n_row < rules.row
                    && let Some(c) = self.take_library(rules, Some(seat))
                {
                    self.row[self.n_row] = c;
                    self.n_row += 1;
                }
            }
        }
        self.row_event(sink);
        let lands = usize::from(self.cards[usize::from(card)].is_land());
        self.after_draw(rules, seat, Drawn::Cards(lands), sink, out)
    }

    /// What follows a draw: the careful opening's next seat, the next exchange, or the
    /// rest of the turn (the end, when the draw ran dry under mill counters).
    #[inline]
    fn after_draw(
        &mut self,
        rules: &Rules,
        seat: usize,
        drawn: Drawn,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        match (self.draw_for, drawn) {
            (DrawFor::Careful, Drawn::Exhausted) => match ran_dry(rules, self) {
                Some(end) => self.finish(rules, Some(end), sink, out),
                None => self.opening_dealt(rules, sink, out),
            },
            (DrawFor::Careful, Drawn::Cards(_)) => {
                self.seat = ((seat + 1) % rules.players) as u8;
                self.careful_next(rules, sink, out)
            }
            (DrawFor::Mulligan, drawn) => {
                if drawn == Drawn::Exhausted
                    && let Some(end) = ran_dry(rules, self)
                {
                    return self.finish(rules, Some(end), sink, out);
                }
                self.mulligans_done += 1;
                self.mulligan_next(rules, sink, out)
            }
            (DrawFor::Turn, Drawn::Exhausted) => match ran_dry(rules, self) {
                Some(end) => self.turn_over(rules, Some(end), sink, out),
                None => {
                    self.turn_land(seat, out);
                    Ok(())
                }
            },
            (DrawFor::Turn, Drawn::Cards(lands)) => {
                if self.turns[seat] >= 5 {
                    self.flood[seat].0 += 1;
                    if lands > 0 && self.boards[seat].n_lands >= 5 {
                        self.flood[seat].1 += 1;
                    }
                }
                self.turn_land(seat, out);
                Ok(())
            }
        }
    }

    /// After the creatures: combat if a creature can attack, else the end of the turn.
    fn combat_or_end(
        &mut self,
        rules: &Rules,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        if self.boards[usize::from(self.seat)].ready() != 0 {
            self.phase = Phase::Target(self.seat);
            return Ok(());
        }
        self.end_discards(rules, sink, out)
    }

    /// End of turn: discard down to the hand limit, one card at a time.
    fn end_discards(
        &mut self,
        rules: &Rules,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        if self.boards[usize::from(self.seat)].hand_size > rules.max_hand {
            self.phase = Phase::EndDiscard(self.seat);
            return Ok(());
        }
        self.untapped = [0; COLOURS];
        self.turn_over(rules, None, sink, out)
    }

    /// The turn is over (`end`: the draw ran dry under mill counters): the invariants,
    /// then the end of the game or the next live seat's turn.
    fn turn_over(
        &mut self,
        rules: &Rules,
        end: Option<(u8, &'static str)>,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        if self.stop_after_turn {
            self.ended = end;
            self.phase = Phase::Over;
            return Ok(());
        }
        let n = rules.players;
        if self.verify {
            self.check(n)?;
        }
        if end.is_some() {
            return self.finish(rules, end, sink, out);
        }
        let alive = (0..n).filter(|&s| self.boards[s].alive).fold(0u8, |m, s| m | 1 << s);
        if alive.count_ones() <= 1 {
            // The lowest live seat (none: nobody wins).
            let first = alive & alive.wrapping_neg();
            return self.finish(rules, Some((first, "last standing")), sink, out);
        }
        let seat = usize::from(self.seat);
        self.seat = (1..=n).map(|k| (seat + k) % n).find(|&s| self.boards[s].alive).unwrap_or(seat) as u8;
        self.next_turn(rules, sink, out)
    }

    /// Ends the game: the winners (none at the turn cap), scores and measures.
    fn finish(
        &mut self,
        rules: &Rules,
        end: Option<(u8, &'static str)>,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let n = rules.players;
        self.phase = Phase::Over;
        out.length = self.game_turn;
        let (winners, why) = end.unwrap_or((0, "turn cap"));
        out.health.capped = end.is_none();
        self.winners = winners;
        sink.event(Event::End { winners, why });
        let k = winners.count_ones();
        for s in 0..n {
            let r = &mut out.seats[s];
            r.sums[MILL] = i64::from(self.boards[s].mill);
            r.sums[WIPES] = i64::from(self.wipes);
            r.sums[REMOVED] = self.n_removed as i64;
            if winners == 0 {
                r.count(CAPPED);
            }
            if why == "mill counters" {
                r.count(MILL_END);
            }
            if winners >> s & 1 == 1 {
                r.share_units = SHARE_UNIT / k;
            }
            if k == 1 {
                r.score = if winners >> s & 1 == 1 { n as i64 - 1 } else { -1 };
            }
            // Flood: a quarter or more of turns 5+ drew a land with 5+ lands in play.
            let (late, hits) = self.flood[s];
            if late > 0 && 4 * hits >= late {
                r.count(FLOODED);
            }
        }
        Ok(())
    }

    /// Asks `bot` for the decision of the seat to move, from that seat's view; a choice
    /// the rules do not allow is [`Error::IllegalAction`].
    #[inline]
    pub fn ask_bot<B: Bot + ?Sized>(&self, rules: &Rules, bot: &mut B, rng: &mut BotRng) -> Result<Move, Error> {
        let bad = |bot: &B, seat: usize, action: String| Err(illegal(bot, seat, action));
        match self.phase {
            Phase::OpeningDiscard(s) | Phase::DrawDiscard(s) => {
                let s = usize::from(s);
                let index = bot.discard(&self.view(rules, s), rng);
                let size = self.boards[s].hand_size;
                if index >= size {
                    return bad(bot, s, format!("discarded hand card {index} of {size}"));
                }
                Ok(Move::Discard(index as u8))
            }
            Phase::EndDiscard(s) => {
                let s = usize::from(s);
                let index = bot.discard(&self.view(rules, s), rng);
                if index >= self.boards[s].hand_size {
                    return bad(bot, s, format!("discarded hand card {index}"));
                }
                Ok(Move::Discard(index as u8))
            }
            Phase::Mulligan(s) => {
                let s = usize::from(s);
                let Some((i, j)) = bot.mulligan(&self.view(rules, s), rng) else { return Ok(Move::Mulligan(None)) };
                let size = self.boards[s].hand_size;
                if i == j || i >= size || j >= size {
                    return bad(bot, s, format!("exchanged hand cards {i} and {j} of {size}"));
                }
                Ok(Move::Mulligan(Some((i as u8, j as u8))))
            }
            Phase::Pick(s) => {
                let s = usize::from(s);
                let pick = bot.pick(&self.view(rules, s), rng);
                if pick.index >= self.n_row || self.row[pick.index] == NO_CARD {
                    return bad(bot, s, format!("picked row slot {}, which holds no card", pick.index));
                }
                Ok(Move::Pick(pick))
            }
            Phase::TakeTop(s) => Ok(Move::TakeTop(bot.take_discard(&self.view(rules, usize::from(s)), rng))),
            Phase::Land(s) => {
                let s = usize::from(s);
                let choice = bot.land(&self.view(rules, s), rng);
                if let Some(i) = choice
                    && (i >= self.boards[s].hand_size || !self.cards[usize::from(self.hands[s][i])].is_land())
                {
                    return bad(bot, s, format!("played hand card {i} as a land"));
                }
                Ok(Move::Land(choice.map(|i| i as u8)))
            }
            Phase::Cast(s) => {
                let s = usize::from(s);
                let view = self.view(rules, s);
                let choice = bot.cast(&view, rng);
                if let Some(i) = choice
                    && (i >= view.hand.len() || !view.castable(view.hand[i]))
                {
                    return bad(bot, s, format!("cast hand card {i}, which it cannot pay for"));
                }
                Ok(Move::Cast(choice.map(|i| i as u8)))
            }
            Phase::Target(s) => {
                let s = usize::from(s);
                let defender = bot.target(&self.view(rules, s), rng);
                if defender == s || defender >= rules.players || !self.boards[defender].alive {
                    return bad(bot, s, format!("attacked seat {defender}"));
                }
                Ok(Move::Target(defender as u8))
            }
            Phase::Attack(s) => {
                let s = usize::from(s);
                let attackers = bot.attack(&self.view(rules, s), usize::from(self.defender), rng);
                if attackers & !self.boards[s].ready() != 0 {
                    return bad(bot, s, "attacked with a creature that cannot attack".into());
                }
                Ok(Move::Attack(attackers))
            }
            Phase::Block(d) => {
                let d = usize::from(d);
                let mut blocks = [NO_CARD; MAX_PERMANENTS];
                bot.block(&self.view(rules, d), usize::from(self.seat), self.attackers, rng, &mut blocks);
                let (a, board) = (&self.boards[usize::from(self.seat)], &self.boards[d]);
                let mut used = 0u64;
                for (slot, &b) in blocks.iter().enumerate().take(a.n_creatures) {
                    if self.attackers >> slot & 1 == 0 || b == NO_CARD {
                        continue;
                    }
                    let b = usize::from(b);
                    if b >= board.n_creatures || used >> b & 1 == 1 || board.tapped >> b & 1 == 1 {
                        return bad(
                            bot,
                            d,
                            format!("blocked with creature slot {b}: twice, tapped or past its creatures"),
                        );
                    }
                    used |= 1 << b;
                }
                Ok(Move::Block(blocks))
            }
            Phase::Over => Err(Error::Invariant("a bot was asked to move in a finished game".into())),
        }
    }

    /// Applies the decision of the seat to move (checked by [`Table::ask_bot`], or one of
    /// [`Forward::legal`]), then everything up to the next decision.
    #[inline]
    pub fn step(
        &mut self,
        rules: &Rules,
        m: Move,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        match (self.phase, m) {
            (Phase::OpeningDiscard(s), Move::Discard(i)) => {
                let s = usize::from(s);
                self.discard[self.chosen] = self.take_from_hand(s, usize::from(i));
                self.chosen += 1;
                self.pending[s] += 1;
                self.opening_discard_next(rules, sink, out)
            }
            (Phase::DrawDiscard(s), Move::Discard(i)) => {
                let s = usize::from(s);
                let card = self.take_from_hand(s, usize::from(i));
                self.discard[self.n_discard] = card;
                self.n_discard += 1;
                sink.event(Event::Discard { seat: s, card, to: "discard pile" });
                let lands = usize::from(self.draw_lands);
                self.after_draw(rules, s, Drawn::Cards(lands), sink, out)
            }
            (Phase::EndDiscard(s), Move::Discard(i)) => {
                let s = usize::from(s);
                let card = self.take_from_hand(s, usize::from(i));
                let b = &mut self.boards[s];
                b.graveyard[b.n_graveyard] = card;
                b.n_graveyard += 1;
                sink.event(Event::Discard { seat: s, card, to: "graveyard" });
                self.end_discards(rules, sink, out)
            }
            (Phase::Mulligan(_), Move::Mulligan(None)) => {
                self.seat += 1;
                self.mulligans_done = 0;
                self.mulligan_next(rules, sink, out)
            }
            (Phase::Mulligan(s), Move::Mulligan(Some((i, j)))) => {
                let s = usize::from(s);
                let (hi, lo) = (i.max(j), i.min(j));
                for index in [hi, lo] {
                    let card = self.take_from_hand(s, usize::from(index));
                    self.remove_from_game(card);
                    sink.event(Event::Discard { seat: s, card, to: "removed" });
                }
                out.seats[s].counters[MULLIGANED] = 1;
                self.begin_draw(rules, s, DrawFor::Mulligan, sink, out)
            }
            (Phase::Pick(s), Move::Pick(pick)) => self.take_from_row(rules, usize::from(s), pick, sink, out),
            (Phase::TakeTop(s), Move::TakeTop(true)) => self.take_top(rules, usize::from(s), sink, out),
            (Phase::TakeTop(s), Move::TakeTop(false)) => {
                self.draw_two(rules, usize::from(s), sink, out);
                Ok(())
            }
            (Phase::Land(s), Move::Land(choice)) => {
                let s = usize::from(s);
                if let Some(i) = choice
                    && self.boards[s].n_lands < MAX_PERMANENTS
                {
                    let card = self.take_from_hand(s, usize::from(i));
                    let colour = usize::from(self.cards[usize::from(card)].colour);
                    let b = &mut self.boards[s];
                    b.land_ids[b.n_lands] = card;
                    b.n_lands += 1;
                    b.lands[colour] += 1;
                    self.untapped[colour] += 1;
                    out.seats[s].sums[LANDS_PLAYED] += 1;
                    sink.event(Event::Land { seat: s, card });
                }
                self.phase = Phase::Cast(s as u8);
                Ok(())
            }
            (Phase::Cast(s), Move::Cast(Some(i))) => {
                let s = usize::from(s);
                if self.boards[s].n_creatures >= MAX_PERMANENTS {
                    return self.combat_or_end(rules, sink, out);
                }
                let card = self.take_from_hand(s, usize::from(i));
                let c = self.cards[usize::from(card)];
                tap(&mut self.untapped, usize::from(c.colour), c.cost);
                let b = &mut self.boards[s];
                b.creatures[b.n_creatures] = card;
                b.sick |= 1 << b.n_creatures;
                b.n_creatures += 1;
                out.seats[s].sums[CAST] += 1;
                sink.event(Event::Cast { seat: s, card });
                Ok(())
            }
            (Phase::Cast(_), Move::Cast(None)) => self.combat_or_end(rules, sink, out),
            (Phase::Target(s), Move::Target(d)) => {
                self.defender = d;
                self.phase = Phase::Attack(s);
                Ok(())
            }
            (Phase::Attack(s), Move::Attack(attackers)) => {
                if attackers == 0 {
                    return self.end_discards(rules, sink, out);
                }
                let (s, defender) = (usize::from(s), usize::from(self.defender));
                sink.event(Event::Attack { seat: s, defender, attackers: attackers.count_ones() as usize });
                if !rules.vigilance {
                    self.boards[s].tapped |= attackers;
                }
                self.attackers = attackers;
                self.phase = Phase::Block(self.defender);
                Ok(())
            }
            (Phase::Block(d), Move::Block(blocks)) => {
                self.combat(usize::from(self.seat), usize::from(d), &blocks, sink, out);
                self.end_discards(rules, sink, out)
            }
            (phase, m) => Err(Error::Invariant(format!("{m:?} does not answer {phase:?}"))),
        }
    }

    /// Combat damage: `seat`'s attackers against `defender`'s blocks.
    fn combat(
        &mut self,
        seat: usize,
        defender: usize,
        blocks: &Blocks,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) {
        let attackers = self.attackers;
        let (a, d) = (&self.boards[seat], &self.boards[defender]);
        let mut dead_a = 0u64;
        let mut dead_d = 0u64;
        let mut damage = 0i32;
        for (slot, &b) in blocks.iter().enumerate().take(a.n_creatures) {
            if attackers >> slot & 1 == 0 {
                continue;
            }
            let ac = self.cards[usize::from(a.creatures[slot])];
            if b == NO_CARD {
                damage += i32::from(ac.power);
                continue;
            }
            let b = usize::from(b);
            let bc = self.cards[usize::from(d.creatures[b])];
            sink.event(Event::Block { attacker: a.creatures[slot], blocker: d.creatures[b] });
            if ac.power >= bc.toughness {
                dead_d |= 1 << b;
            }
            if bc.power >= ac.toughness {
                dead_a |= 1 << slot;
            }
        }
        bury(self, seat, dead_a, sink);
        bury(self, defender, dead_d, sink);
        if damage > 0 {
            let d = &mut self.boards[defender];
            d.life -= damage;
            out.seats[seat].sums[DAMAGE] += i64::from(damage);
            sink.event(Event::Damage { seat: defender, amount: damage, life: d.life });
            if d.life <= 0 {
                d.alive = false;
            }
        }
    }
}

/// Plays until the game (or a scripted turn) is over, `bots[seating[s]]` for seat `s`.
fn run<B: Bot>(
    rules: &Rules,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    bot_rngs: &mut SeatRngs,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    while let Some(s) = t.to_act() {
        let m = t.ask_bot(rules, &mut bots[seating[s]], bot_rngs.seat(s))?;
        t.step(rules, m, sink, out)?;
    }
    Ok(())
}

/// Plays one game with heuristic bots, adding to `out` (cleared by the caller).
/// `bots[seating[s]]` plays seat `s`; seat 0 plays first.
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
    t.reset(rules, deal_seed, sink, out)?;
    run(rules, t, bots, seating, &mut bot_rngs, sink, out)
}

/// Plays one game with any seats, the search bot among them (see [`play`]).
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
    let mut bot_rngs = SeatRngs::new(bot_seed, rules.players);
    t.reset(rules, deal_seed, sink, out)?;
    drive(rules, t, bots, seating, &mut bot_rngs, scratch, sink, out)
}

/// Plays from the position in `t` (opening included), for scripted tests.
pub fn play_game<B: Bot>(
    rules: &Rules,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    bot_rngs: &mut SeatRngs,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    t.begin(rules, sink, out)?;
    run(rules, t, bots, seating, bot_rngs, sink, out)
}

/// One turn of `seat` (game turn `game_turn`) on the position in `t`, for scripted tests:
/// draw, land, creatures, attack, blocks, damage, discard to hand size. Returns an ending
/// when the draw ran dry under mill counters.
#[allow(clippy::too_many_arguments)]
pub fn take_turn<B: Bot>(
    rules: &Rules,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    seat: usize,
    game_turn: u32,
    bot_rngs: &mut SeatRngs,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<Option<(u8, &'static str)>, Error> {
    t.stop_after_turn = true;
    t.ended = None;
    t.seat = seat as u8;
    t.game_turn = game_turn;
    let result = t.start_turn(rules, sink, out).and_then(|()| run(rules, t, bots, seating, bot_rngs, sink, out));
    t.stop_after_turn = false;
    result.map(|()| t.ended)
}

/// Under mill counters, the ending when a draw finds nothing: the fewest counters win.
fn ran_dry(rules: &Rules, t: &Table) -> Option<(u8, &'static str)> {
    if !rules.mill_counters {
        return None;
    }
    let alive = (0..rules.players).filter(|&s| t.boards[s].alive);
    let fewest = alive.clone().map(|s| t.boards[s].mill).min()?;
    let winners = alive.filter(|&s| t.boards[s].mill == fewest).fold(0u8, |m, s| m | 1 << s);
    Some((winners, "mill counters"))
}

/// Card analytics identities: colour x cost x role, ids `colour * 19 + kind` where kind 0
/// is a land and `1 + (cost - 1) * 3 + role` a creature (role 0: power above toughness,
/// an attacker; 1: below, a blocker; 2: even).
pub fn card_identity(card: Card) -> u16 {
    let kind = if card.is_land() {
        0
    } else {
        let role = match card.power.cmp(&card.toughness) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => 2,
        };
        1 + (u16::from(card.cost.clamp(1, 6)) - 1) * 3 + role
    };
    u16::from(card.colour) * IDENTITIES_PER_COLOUR + kind
}

/// Card identities per colour: a land and 6 costs x 3 roles.
pub const IDENTITIES_PER_COLOUR: u16 = 19;

/// Logs the row a seat chooses from, at its next pick.
#[cold]
#[inline(never)]
fn log_row(log: &mut CardLog, t: &Table, seat: usize) {
    for &c in t.row[..t.n_row].iter().filter(|&&c| c != NO_CARD) {
        log.seen(seat, card_identity(t.cards[usize::from(c)]), t.drawn[seat] + 1);
    }
}

/// Logs a card entering `seat`'s hand as its next pick: taken, and so held this game; a
/// card drawn unseen (`blind`) is logged as seen as it is taken.
#[cold]
#[inline(never)]
fn log_draw(log: &mut CardLog, t: &mut Table, seat: usize, card: u8, blind: bool) {
    t.drawn[seat] += 1;
    let id = card_identity(t.cards[usize::from(card)]);
    if blind {
        log.seen(seat, id, t.drawn[seat]);
    }
    log.taken(seat, id, t.drawn[seat]);
    log.kept(seat, id);
}

/// Taps lands for a creature of `colour` and `cost`: one of its colour, the rest from the
/// colours with the most untapped lands.
fn tap(untapped: &mut [u8; COLOURS], colour: usize, cost: u8) {
    untapped[colour] -= 1;
    for _ in 1..cost {
        let most = (0..COLOURS).max_by_key(|&c| (untapped[c], std::cmp::Reverse(c))).expect("colours");
        untapped[most] -= 1;
    }
}
/// Moves the creatures in `dead` (slot bits) to their controller's graveyard, compacting
/// the slots (and their summoning sickness and tapping).
fn bury(t: &mut Table, seat: usize, dead: u64, sink: &mut impl EventSink<Event>) {
    if dead == 0 {
        return;
    }
    let b = &mut t.boards[seat];
    let (mut kept, mut sick, mut tapped) = (0, 0u64, 0u64);
    for slot in 0..b.n_creatures {
        let card = b.creatures[slot];
        if dead >> slot & 1 == 1 {
            b.graveyard[b.n_graveyard] = card;
            b.n_graveyard += 1;
            sink.event(Event::Dies { seat, card });
        } else {
            b.creatures[kept] = card;
            sick |= (b.sick >> slot & 1) << kept;
            tapped |= (b.tapped >> slot & 1) << kept;
            kept += 1;
        }
    }
    b.n_creatures = kept;
    b.sick = sick;
    b.tapped = tapped;
}

/// What one seat has seen: the table with every card it has not seen blanked (the
/// library's order, the other hands but for the cards seen taken into them, the others'
/// unrevealed opening discards), and no deal seed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Observation {
    /// The seat.
    pub seat: usize,
    /// The table as the seat knows it.
    pub table: Table,
}

/// Sets `a[n..]` to `v` (stale entries of reused arrays would tell states apart).
fn blank_tail<T: Copy>(a: &mut [T], n: usize, v: T) {
    let from = n.min(a.len());
    a[from..].fill(v);
}

/// Marks every card in `ids` (but [`NO_CARD`]) in `bits`.
fn mark(bits: &mut CardBits, ids: &[u8]) {
    for &c in ids.iter().filter(|&&c| c != NO_CARD) {
        bits.insert(c);
    }
}

impl Table {
    /// The pending rummy opening discards of each seat, as ranges of `discard`.
    fn pending_range(&self, seat: usize) -> std::ops::Range<usize> {
        let start = self.n_discard + self.pending[..seat].iter().map(|&c| usize::from(c)).sum::<usize>();
        start..start + usize::from(self.pending[seat])
    }

    /// This state with every card `seat` has not seen dealt again at random (the library,
    /// the other hands' unseen cards, the others' unrevealed opening discards), with a new
    /// deal seed. Made from the truth, not from an observation: the leak test's second state.
    pub fn redeal(&self, rules: &Rules, seat: usize, rng: &mut BotRng) -> Table {
        let mut t = self.clone();
        let mut hidden = Vec::new();
        hidden.extend_from_slice(&t.library[..t.n_library]);
        for s in (0..rules.players).filter(|&s| s != seat) {
            let known = t.boards[s].known_hand;
            hidden.extend(t.hands[s][..t.boards[s].hand_size].iter().filter(|&&c| !known.contains(c)));
            hidden.extend_from_slice(&t.discard[t.pending_range(s)]);
        }
        rand::seq::SliceRandom::shuffle(&mut hidden[..], rng);
        let mut next = hidden.into_iter();
        for i in 0..t.n_library {
            t.library[i] = next.next().expect("as many cards as places");
        }
        for s in (0..rules.players).filter(|&s| s != seat) {
            let known = t.boards[s].known_hand;
            for i in 0..t.boards[s].hand_size {
                if !known.contains(t.hands[s][i]) {
                    t.hands[s][i] = next.next().expect("as many cards as places");
                }
            }
            for i in t.pending_range(s) {
                t.discard[i] = next.next().expect("as many cards as places");
            }
        }
        t.deal_seed = rng.next_u64();
        t
    }

    /// A game's value to each seat when a search stops early: a seat out of the game has
    /// none; a live seat has its life plus twice the power and once the toughness of its
    /// creatures, plus its lands and cards in hand.
    fn strength(&self, seat: usize) -> f64 {
        let b = &self.boards[seat];
        if !b.alive {
            return 0.0;
        }
        let board: u32 = b
            .creatures()
            .iter()
            .map(|&c| self.cards[usize::from(c)])
            .map(|c| 2 * u32::from(c.power) + u32::from(c.toughness))
            .sum();
        f64::from(b.life.max(0)) + f64::from(board) + (b.n_lands + b.hand_size) as f64
    }

    /// The search's short menu of attacks (any set of ready creatures is allowed): none,
    /// all, each creature alone, all but each one.
    fn attack_menu(&self, out: &mut Vec<Move>) {
        let ready = self.boards[usize::from(self.seat)].ready();
        let mut push = |m: u64| {
            if !out.contains(&Move::Attack(m)) {
                out.push(Move::Attack(m));
            }
        };
        push(0);
        push(ready);
        let mut bits = ready;
        while bits != 0 {
            let one = bits & bits.wrapping_neg();
            bits &= bits - 1;
            push(one);
            push(ready & !one);
        }
    }

    /// The search's menu of blocks (any assignment of untapped blockers is allowed): none;
    /// one blocker on one attacker (the first eight of each); and every attacker,
    /// strongest first, blocked by the untapped creature of most toughness left.
    fn block_menu(&self, out: &mut Vec<Move>) {
        let (a, d) = (&self.boards[usize::from(self.seat)], &self.boards[usize::from(self.defender)]);
        let free = d.untapped_creatures();
        out.push(Move::Block([NO_CARD; MAX_PERMANENTS]));
        let attackers = (0..a.n_creatures).filter(|&s| self.attackers >> s & 1 == 1);
        let blockers = (0..d.n_creatures).filter(|&b| free >> b & 1 == 1);
        for slot in attackers.clone().take(8) {
            for b in blockers.clone().take(8) {
                let mut blocks = [NO_CARD; MAX_PERMANENTS];
                blocks[slot] = b as u8;
                out.push(Move::Block(blocks));
            }
        }
        if free.count_ones() > 1 && self.attackers.count_ones() > 1 {
            let mut order: [u8; MAX_PERMANENTS] = [0; MAX_PERMANENTS];
            let mut n = 0;
            for slot in attackers {
                order[n] = slot as u8;
                n += 1;
            }
            let power = |s: u8| self.cards[usize::from(a.creatures[usize::from(s)])].power;
            order[..n].sort_unstable_by_key(|&s| (std::cmp::Reverse(power(s)), s));
            let mut left = free;
            let mut blocks = [NO_CARD; MAX_PERMANENTS];
            for &slot in &order[..n] {
                let toughness = |b: usize| self.cards[usize::from(d.creatures[b])].toughness;
                let Some(b) = (0..d.n_creatures)
                    .filter(|&b| left >> b & 1 == 1)
                    .max_by_key(|&b| (toughness(b), std::cmp::Reverse(b)))
                else {
                    break;
                };
                blocks[usize::from(slot)] = b as u8;
                left &= !(1 << b);
            }
            out.push(Move::Block(blocks));
        }
    }
}

/// Key tags: the kind of decision, above the card or slot.
const KEY_PICK: u32 = 1 << 24;
const KEY_TAKE_TOP: u32 = 2 << 24;
const KEY_DISCARD: u32 = 3 << 24;
const KEY_UNSEEN_DISCARD: u32 = 4 << 24;
const KEY_MULLIGAN: u32 = 5 << 24;
const KEY_LAND: u32 = 6 << 24;
const KEY_CAST: u32 = 7 << 24;
const KEY_TARGET: u32 = 8 << 24;
const KEY_ATTACK: u32 = 9 << 24;
const KEY_BLOCK: u32 = 10 << 24;
/// "None" in a key's card or slot field.
const KEY_NONE: u32 = 0xFFFF;

/// A 16-bit digest of a set of slots, for moves outside the search's menus.
fn digest(bits: u64) -> u32 {
    let h = bits.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 48) as u32 & 0x0FFF
}

impl Forward for Table {
    type Rules = Rules;
    type Move = Move;
    type Obs = Observation;
    type Event = Event;
    type Bot = LiveDraftBot;

    /// Life.
    fn has_standing(_rules: &Rules) -> bool {
        true
    }

    fn standing(&self, _rules: &Rules, seat: usize) -> i64 {
        i64::from(self.boards[seat].life)
    }

    #[inline(always)]
    fn to_act(&self) -> Option<usize> {
        match self.phase {
            Phase::OpeningDiscard(s)
            | Phase::Mulligan(s)
            | Phase::Pick(s)
            | Phase::TakeTop(s)
            | Phase::DrawDiscard(s)
            | Phase::Land(s)
            | Phase::Cast(s)
            | Phase::Target(s)
            | Phase::Attack(s)
            | Phase::Block(s)
            | Phase::EndDiscard(s) => Some(usize::from(s)),
            Phase::Over => None,
        }
    }

    fn legal(&self, rules: &Rules, out: &mut Vec<Move>) {
        out.clear();
        match self.phase {
            Phase::OpeningDiscard(s) | Phase::DrawDiscard(s) | Phase::EndDiscard(s) => {
                out.extend((0..self.boards[usize::from(s)].hand_size).map(|i| Move::Discard(i as u8)));
            }
            Phase::Mulligan(s) => {
                out.push(Move::Mulligan(None));
                let size = self.boards[usize::from(s)].hand_size;
                for i in 0..size {
                    out.extend((i + 1..size).map(|j| Move::Mulligan(Some((i as u8, j as u8)))));
                }
            }
            Phase::Pick(_) => {
                let slots = (0..self.n_row).filter(|&i| self.row[i] != NO_CARD);
                out.extend(slots.map(|index| Move::Pick(Pick { index, hate: false })));
            }
            Phase::TakeTop(_) => out.extend([Move::TakeTop(true), Move::TakeTop(false)]),
            Phase::Land(s) => {
                out.push(Move::Land(None));
                let s = usize::from(s);
                let hand = &self.hands[s][..self.boards[s].hand_size];
                let lands = (0..hand.len()).filter(|&i| self.cards[usize::from(hand[i])].is_land());
                out.extend(lands.map(|i| Move::Land(Some(i as u8))));
            }
            Phase::Cast(s) => {
                out.push(Move::Cast(None));
                let view = self.view(rules, usize::from(s));
                let castable = (0..view.hand.len()).filter(|&i| view.castable(view.hand[i]));
                out.extend(castable.map(|i| Move::Cast(Some(i as u8))));
            }
            Phase::Target(s) => {
                let others = (0..rules.players).filter(|&d| d != usize::from(s) && self.boards[d].alive);
                out.extend(others.map(|d| Move::Target(d as u8)));
            }
            Phase::Attack(_) => self.attack_menu(out),
            Phase::Block(_) => self.block_menu(out),
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
    fn ask(&self, rules: &Rules, bot: &mut LiveDraftBot, rng: &mut BotRng) -> Result<Move, Error> {
        self.ask_bot(rules, bot, rng)
    }

    fn observe(&self, rules: &Rules, seat: usize, out: &mut Observation) {
        out.seat = seat;
        let t = &mut out.table;
        t.clone_from(self);
        t.verify = false;
        t.deal_seed = 0;
        t.drawn = [0; MAX_SEATS];
        t.flood = [(0, 0); MAX_SEATS];
        blank_tail(&mut t.cards, t.n_cards, Card::default());
        t.library = [0; MAX_LIBRARY];
        blank_tail(&mut t.row, t.n_row, NO_CARD);
        for s in 0..MAX_SEATS {
            if s != seat && s < rules.players {
                for i in self.pending_range(s) {
                    t.discard[i] = NO_CARD;
                }
            }
            if s == seat {
                blank_tail(&mut t.hands[s], t.boards[s].hand_size, 0);
            } else {
                t.hands[s] = [0; MAX_HAND];
                if self.phase == Phase::DrawDiscard(s as u8) {
                    t.draw_lands = 0;
                }
            }
            let b = &mut t.boards[s];
            blank_tail(&mut b.land_ids, b.n_lands, 0);
            blank_tail(&mut b.creatures, b.n_creatures, 0);
            blank_tail(&mut b.graveyard, b.n_graveyard, 0);
        }
        blank_tail(&mut t.discard, self.chosen.max(self.n_discard), 0);
        blank_tail(&mut t.removed, t.n_removed, 0);
        if !matches!(self.phase, Phase::Attack(_) | Phase::Block(_)) {
            t.defender = 0;
        }
        if self.phase != Phase::Block(self.defender) {
            t.attackers = 0;
        }
    }

    fn determinize(rules: &Rules, obs: &Observation, rng: &mut BotRng, out: &mut Table) {
        out.clone_from(&obs.table);
        let seat = obs.seat;
        let mut seen = CardBits::default();
        mark(&mut seen, &out.row[..out.n_row]);
        mark(&mut seen, &out.discard[..out.chosen.max(out.n_discard)]);
        mark(&mut seen, &out.removed[..out.n_removed]);
        mark(&mut seen, &out.hands[seat][..out.boards[seat].hand_size]);
        for b in &out.boards[..rules.players] {
            mark(&mut seen, b.land_ids());
            mark(&mut seen, b.creatures());
            mark(&mut seen, b.graveyard());
            for c in b.known_hand.iter() {
                seen.insert(c);
            }
        }
        // The unseen cards, shuffled, fill the places the seat cannot see.
        let mut unseen = [0u8; MAX_LIBRARY];
        let mut k = 0;
        for id in (0..out.n_cards as u8).filter(|&id| !seen.contains(id)) {
            unseen[k] = id;
            k += 1;
        }
        shuffle(&mut unseen[..k], rng);
        let mut next = 0;
        for s in (0..rules.players).filter(|&s| s != seat) {
            let b = &out.boards[s];
            let mut i = 0;
            for c in b.known_hand.iter() {
                out.hands[s][i] = c;
                i += 1;
            }
            for slot in &mut out.hands[s][i..b.hand_size] {
                *slot = unseen[next];
                next += 1;
            }
            for i in obs.table.pending_range(s) {
                out.discard[i] = unseen[next];
                next += 1;
            }
        }
        out.library[..out.n_library].copy_from_slice(&unseen[next..next + out.n_library]);
        debug_assert_eq!(next + out.n_library, k, "every unseen card has one place");
        out.deal_seed = rng.next_u64();
    }

    fn key(&self, _rules: &Rules, actor: usize, observer: usize, m: Move) -> u32 {
        let hand = |i: u8| u32::from(self.hands[actor][usize::from(i)]);
        match m {
            Move::Pick(pick) => KEY_PICK | u32::from(self.row[pick.index]),
            Move::TakeTop(top) => KEY_TAKE_TOP | u32::from(top),
            Move::Discard(_) if actor != observer && matches!(self.phase, Phase::OpeningDiscard(_)) => {
                KEY_UNSEEN_DISCARD
            }
            Move::Discard(i) => KEY_DISCARD | hand(i),
            Move::Mulligan(None) => KEY_MULLIGAN | KEY_NONE,
            Move::Mulligan(Some((i, j))) => {
                let (a, b) = (hand(i), hand(j));
                KEY_MULLIGAN | a.min(b) << 8 | a.max(b)
            }
            Move::Land(choice) => KEY_LAND | choice.map_or(KEY_NONE, hand),
            Move::Cast(choice) => KEY_CAST | choice.map_or(KEY_NONE, hand),
            Move::Target(d) => KEY_TARGET | u32::from(d),
            Move::Attack(bits) => {
                let ready = self.boards[actor].ready();
                KEY_ATTACK
                    | match bits {
                        0 => 0,
                        b if b == ready => 1,
                        b if b.count_ones() == 1 => 0x1000 | b.trailing_zeros(),
                        b if (ready & !b).count_ones() == 1 => 0x2000 | (ready & !b).trailing_zeros(),
                        b => 0x4000 | digest(b),
                    }
            }
            Move::Block(blocks) => {
                let mut pairs = 0u64;
                let mut count = 0;
                let mut last = 0u32;
                for (slot, &b) in blocks.iter().enumerate().filter(|&(_, &b)| b != NO_CARD) {
                    pairs = pairs.rotate_left(13) ^ ((slot as u64) << 8 | u64::from(b));
                    count += 1;
                    last = (slot as u32) << 6 | u32::from(b);
                }
                KEY_BLOCK
                    | match count {
                        0 => 0,
                        1 => 0x1000 | last,
                        _ => 0x8000 | digest(pairs),
                    }
            }
        }
    }

    fn returns(&self, rules: &Rules, _out: &RoundResult, seat: usize) -> f64 {
        // The win share: a drawn game is shared by all.
        match self.winners {
            0 => 1.0 / rules.players as f64,
            w if w >> seat & 1 == 1 => 1.0 / f64::from(w.count_ones()),
            _ => 0.0,
        }
    }

    fn estimate(&self, rules: &Rules, _out: &RoundResult, seat: usize, players: usize) -> f64 {
        let total: f64 = (0..rules.players).map(|s| self.strength(s)).sum();
        if total > 0.0 { self.strength(seat) / total } else { 1.0 / players as f64 }
    }
}

/// Decision points of the default rules and the default mix (best-card, curve), one in
/// three decisions of successive games: for benchmarks of the search.
pub fn bench_points(count: usize) -> (Rules, Vec<Table>) {
    let rules = Rules::default();
    let mut bots: Vec<SeatBot<Table>> = ["best-card", "curve"]
        .iter()
        .map(|name| {
            let preset = super::Preset::load(name).expect("a built-in preset");
            SeatBot::Heuristic(preset.bot(name))
        })
        .collect();
    let points = crate::search::leaks::decision_points(&rules, &mut bots, 11, count, 3, |t: &mut Table, seed| {
        let _ = t.reset(&rules, seed, &mut NoEvents, &mut RoundResult::default());
    });
    (rules, points)
}
