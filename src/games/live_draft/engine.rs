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

use crate::cards::shuffle::shuffle;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::measures::{
    CAPPED, CAST, DAMAGE, FLOODED, HATE_PICKS, LAND_BINS, LANDS_PLAYED, MILL, MILL_END, MULLIGANED, OPENING_LAND_SUM,
    OPENING_LANDS, REMOVED, SCREWED, WIPES,
};
use super::rules::{COLOURS, MAX_LIBRARY, MAX_ROW, Method, Opening, Rules, WipeCounters};
use super::view::{Board, Bot, BotRng, Card, MAX_PERMANENTS, NO_CARD, View, slot_mask};
use crate::error::Error;
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
}

/// Reusable per-thread state: the library, the row, the piles, hands and boards.
#[derive(Clone, Debug)]
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

fn illegal<B: Bot>(bot: &B, seat: usize, action: String) -> Error {
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
        mark(&self.discard[..self.n_discard]);
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

/// Plays one game, adding to `out` (cleared by the caller). `bots[seating[s]]` plays
/// seat `s`; seat 0 plays first.
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
    let lands = (0..t.n_cards).filter(|&i| t.cards[i].is_land()).count();
    sink.event(Event::Library { cards: t.n_cards, lands });
    let mut bot_rngs = SeatRngs::new(bot_seed, rules.players);
    play_game(rules, t, bots, seating, &mut bot_rngs, sink, out)
}

/// Plays from the position in `t` (opening included), for [`play`] and scripted tests.
pub fn play_game<B: Bot>(
    rules: &Rules,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    bot_rngs: &mut SeatRngs,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    let n = rules.players;
    t.untapped = [0; COLOURS];
    t.drawn = [0; MAX_SEATS];
    let ended = opening(rules, t, bots, seating, bot_rngs, sink, out)?;
    let mut total_turns = 0;
    let mut end = ended;
    let mut seat = 0;
    let cap = rules.turn_cap();
    while end.is_none() && total_turns < cap {
        total_turns += 1;
        end = take_turn(rules, t, bots, seating, seat, total_turns, bot_rngs, sink, out)?;
        if t.verify {
            t.check(n)?;
        }
        if end.is_none() {
            let alive: Vec<usize> = (0..n).filter(|&s| t.boards[s].alive).collect();
            if alive.len() <= 1 {
                end = Some((alive.first().map_or(0, |&s| 1 << s), "last standing"));
            } else {
                seat = (1..=n).map(|k| (seat + k) % n).find(|&s| t.boards[s].alive).unwrap_or(seat);
            }
        }
    }
    out.length = total_turns;
    let (winners, why) = end.unwrap_or((0, "turn cap"));
    sink.event(Event::End { winners, why });
    let k = winners.count_ones();
    for s in 0..n {
        let r = &mut out.seats[s];
        r.sums[MILL] = i64::from(t.boards[s].mill);
        r.sums[WIPES] = i64::from(t.wipes);
        r.sums[REMOVED] = t.n_removed as i64;
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
        let (late, hits) = t.flood[s];
        if late > 0 && 4 * hits >= late {
            r.count(FLOODED);
        }
    }
    Ok(())
}

/// Fills the hands: quick (seven each, or rummy's fourteen then discard to seven; then the
/// exchanges) or careful (one at a time by the method). Returns an ending if the draw ran
/// dry under mill counters.
fn opening<B: Bot>(
    rules: &Rules,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    bot_rngs: &mut SeatRngs,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<Option<(u8, &'static str)>, Error> {
    let n = rules.players;
    let already: usize = (0..n).map(|s| t.boards[s].hand_size).sum();
    if already == 0 {
        match rules.opening {
            Opening::Quick => {
                let dealt = if rules.method == Method::Rummy { 2 * rules.hand_size } else { rules.hand_size };
                for s in 0..n {
                    for _ in 0..dealt {
                        if let Some(card) = t.take_library(rules, Some(s)) {
                            t.put_in_hand(s, card, false);
                            if out.cards.on() {
                                log_draw(&mut out.cards, t, s, card, true);
                            }
                            sink.event(Event::Draw { seat: s, card, how: How::Library, hate: false });
                        }
                    }
                }
                if rules.method == Method::Rummy {
                    rummy_opening_discards(rules, t, bots, seating, bot_rngs, sink)?;
                }
                t.set_out_row(rules, sink);
            }
            Opening::Careful => {
                t.set_out_row(rules, sink);
                let mut s = 0;
                while (0..n).any(|p| t.boards[p].hand_size < rules.hand_size) {
                    if t.boards[s].hand_size < rules.hand_size
                        && draw(rules, t, &mut bots[seating[s]], s, bot_rngs.seat(s), sink, out)? == Drawn::Exhausted
                    {
                        if let Some(end) = ran_dry(rules, t) {
                            return Ok(Some(end));
                        }
                        break;
                    }
                    s = (s + 1) % n;
                }
            }
        }
    }
    for s in 0..n {
        let lands = t.hands[s][..t.boards[s].hand_size].iter().filter(|&&c| t.cards[usize::from(c)].is_land()).count();
        out.seats[s].observe(OPENING_LANDS, lands.min(LAND_BINS - 1));
        out.seats[s].sums[OPENING_LAND_SUM] = lands as i64;
        sink.event(Event::Opening { seat: s, lands });
    }
    if rules.opening == Opening::Quick {
        for s in 0..n {
            for _ in 0..rules.max_mulligans {
                if t.boards[s].hand_size < 2 {
                    break;
                }
                let bot = &mut bots[seating[s]];
                let Some((i, j)) = bot.mulligan(&t.view(rules, s), bot_rngs.seat(s)) else { break };
                let size = t.boards[s].hand_size;
                if i == j || i >= size || j >= size {
                    return Err(illegal(bot, s, format!("exchanged hand cards {i} and {j} of {size}")));
                }
                let (hi, lo) = (i.max(j), i.min(j));
                for index in [hi, lo] {
                    let card = t.take_from_hand(s, index);
                    t.remove_from_game(card);
                    sink.event(Event::Discard { seat: s, card, to: "removed" });
                }
                out.seats[s].counters[MULLIGANED] = 1;
                if draw(rules, t, bot, s, bot_rngs.seat(s), sink, out)? == Drawn::Exhausted
                    && let Some(end) = ran_dry(rules, t)
                {
                    return Ok(Some(end));
                }
            }
        }
    }
    if t.verify {
        t.check(n)?;
    }
    Ok(None)
}

/// Rummy's quick opening: every player discards down to the hand size, all choosing before
/// any card goes on the pile (no one sees another's discards while choosing); then the
/// discards go on the pile in seat order, each seat's in the order chosen.
fn rummy_opening_discards<B: Bot>(
    rules: &Rules,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    bot_rngs: &mut SeatRngs,
    sink: &mut impl EventSink<Event>,
) -> Result<(), Error> {
    // Chosen cards wait past the pile's end, unseen, until every seat has chosen.
    let start = t.n_discard;
    let mut chosen = start;
    let mut by_seat = [0usize; MAX_SEATS];
    for (s, count) in by_seat.iter_mut().enumerate().take(rules.players) {
        while t.boards[s].hand_size > rules.hand_size {
            let bot = &mut bots[seating[s]];
            let index = bot.discard(&t.view(rules, s), bot_rngs.seat(s));
            if index >= t.boards[s].hand_size {
                return Err(illegal(bot, s, format!("discarded hand card {index} of {}", t.boards[s].hand_size)));
            }
            t.discard[chosen] = t.take_from_hand(s, index);
            chosen += 1;
            *count += 1;
        }
    }
    let mut i = start;
    for (s, &count) in by_seat.iter().enumerate().take(rules.players) {
        for _ in 0..count {
            sink.event(Event::Discard { seat: s, card: t.discard[i], to: "discard pile" });
            i += 1;
        }
    }
    t.n_discard = chosen;
    Ok(())
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

/// Discards one card of `seat`'s hand, the bot's choice, onto the rummy discard pile.
fn discard_to_pile<B: Bot>(
    rules: &Rules,
    t: &mut Table,
    bot: &mut B,
    seat: usize,
    bot_rng: &mut BotRng,
    sink: &mut impl EventSink<Event>,
) -> Result<(), Error> {
    let index = bot.discard(&t.view(rules, seat), bot_rng);
    if index >= t.boards[seat].hand_size {
        return Err(illegal(bot, seat, format!("discarded hand card {index} of {}", t.boards[seat].hand_size)));
    }
    let card = t.take_from_hand(seat, index);
    t.discard[t.n_discard] = card;
    t.n_discard += 1;
    sink.event(Event::Discard { seat, card, to: "discard pile" });
    Ok(())
}

/// One draw by the method in force.
#[allow(clippy::too_many_arguments)]
fn draw<B: Bot>(
    rules: &Rules,
    t: &mut Table,
    bot: &mut B,
    seat: usize,
    bot_rng: &mut BotRng,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<Drawn, Error> {
    let is_land = |t: &Table, c: u8| usize::from(t.cards[usize::from(c)].is_land());
    match rules.method {
        Method::Blind => Ok(match t.take_library(rules, Some(seat)) {
            Some(card) => {
                t.put_in_hand(seat, card, false);
                if out.cards.on() {
                    log_draw(&mut out.cards, t, seat, card, true);
                }
                sink.event(Event::Draw { seat, card, how: How::Library, hate: false });
                Drawn::Cards(is_land(t, card))
            }
            None => Drawn::Exhausted,
        }),
        Method::Tableau | Method::Pipeline => {
            if t.row[..t.n_row].iter().all(|&c| c == NO_CARD) {
                return Ok(Drawn::Exhausted);
            }
            let pick = bot.pick(&t.view(rules, seat), bot_rng);
            if pick.index >= t.n_row || t.row[pick.index] == NO_CARD {
                return Err(illegal(bot, seat, format!("picked row slot {}, which holds no card", pick.index)));
            }
            let card = t.row[pick.index];
            if out.cards.on() {
                log_row(&mut out.cards, t, seat);
                log_draw(&mut out.cards, t, seat, card, false);
            }
            t.put_in_hand(seat, card, true);
            if pick.hate {
                out.seats[seat].sums[HATE_PICKS] += 1;
            }
            sink.event(Event::Draw { seat, card, how: How::Row, hate: pick.hate });
            if rules.method == Method::Tableau {
                t.row[pick.index] = t.take_library(rules, Some(seat)).unwrap_or(NO_CARD);
                t.wipe_check(rules, Some(seat), sink);
            } else {
                // Take it out, remove the leftmost remaining, slide, add two at the right.
                t.row.copy_within(pick.index + 1..t.n_row, pick.index);
                t.n_row -= 1;
                let first = t.row[..t.n_row].iter().position(|&c| c != NO_CARD);
                if let Some(i) = first {
                    let gone = t.row[i];
                    t.remove_from_game(gone);
                    sink.event(Event::Slide { card: gone });
                    t.row.copy_within(i + 1..t.n_row, i);
                    t.n_row -= 1;
                }
                // Empty slots (a dry library) drop out as the row slides.
                let mut kept = 0;
                for i in 0..t.n_row {
                    if t.row[i] != NO_CARD {
                        t.row[kept] = t.row[i];
                        kept += 1;
                    }
                }
                t.n_row = kept;
                for _ in 0..2 {
                    if t.n_row < rules.row
                        && let Some(c) = t.take_library(rules, Some(seat))
                    {
                        t.row[t.n_row] = c;
                        t.n_row += 1;
                    }
                }
            }
            t.row_event(sink);
            Ok(Drawn::Cards(is_land(t, card)))
        }
        Method::Rummy => {
            let has_top = t.n_discard > 0;
            let library = t.n_library > 0 || (rules.reshuffle_removed && t.n_removed > 0);
            if !has_top && !library {
                return Ok(Drawn::Exhausted);
            }
            let take_top = has_top && (!library || bot.take_discard(&t.view(rules, seat), bot_rng));
            if has_top && out.cards.on() {
                let top = t.discard[t.n_discard - 1];
                out.cards.seen(seat, card_identity(t.cards[usize::from(top)]), t.drawn[seat] + 1);
            }
            if take_top {
                t.n_discard -= 1;
                let card = t.discard[t.n_discard];
                if out.cards.on() {
                    log_draw(&mut out.cards, t, seat, card, false);
                }
                t.put_in_hand(seat, card, true);
                sink.event(Event::Draw { seat, card, how: How::DiscardTop, hate: false });
                return Ok(Drawn::Cards(is_land(t, card)));
            }
            let mut lands = 0;
            for _ in 0..2 {
                if let Some(card) = t.take_library(rules, Some(seat)) {
                    t.put_in_hand(seat, card, false);
                    if out.cards.on() {
                        log_draw(&mut out.cards, t, seat, card, true);
                    }
                    lands += is_land(t, card);
                    sink.event(Event::Draw { seat, card, how: How::Library, hate: false });
                }
            }
            discard_to_pile(rules, t, bot, seat, bot_rng, sink)?;
            Ok(Drawn::Cards(lands))
        }
    }
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

/// One turn of `seat` (public for scripted tests): draw, land, creatures, attack, blocks,
/// damage, discard to hand size. Returns an ending when the draw ran dry under mill
/// counters.
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
    let bot = &mut bots[seating[seat]];
    t.turns[seat] += 1;
    let own_turn = t.turns[seat];
    sink.event(Event::Turn { seat, turn: game_turn });
    // Untap: the creatures that attacked on this seat's last turn may block again.
    t.boards[seat].sick = 0;
    t.boards[seat].tapped = 0;
    t.untapped = [0; COLOURS];
    if game_turn != 1 || rules.first_player_draws() {
        match draw(rules, t, bot, seat, bot_rngs.seat(seat), sink, out)? {
            Drawn::Exhausted => {
                if let Some(end) = ran_dry(rules, t) {
                    return Ok(Some(end));
                }
            }
            Drawn::Cards(lands) => {
                if own_turn >= 5 {
                    t.flood[seat].0 += 1;
                    if lands > 0 && t.boards[seat].n_lands >= 5 {
                        t.flood[seat].1 += 1;
                    }
                }
            }
        }
    } else if own_turn >= 5 {
        t.flood[seat].0 += 1;
    }
    // Land.
    let has_land = t.hands[seat][..t.boards[seat].hand_size].iter().any(|&c| t.cards[usize::from(c)].is_land());
    if own_turn <= 4 && !has_land {
        out.seats[seat].counters[SCREWED] = 1;
    }
    t.untapped = t.boards[seat].lands;
    if let Some(i) = bot.land(&t.view(rules, seat), bot_rngs.seat(seat)) {
        if i >= t.boards[seat].hand_size || !t.cards[usize::from(t.hands[seat][i])].is_land() {
            return Err(illegal(bot, seat, format!("played hand card {i} as a land")));
        }
        if t.boards[seat].n_lands < MAX_PERMANENTS {
            let card = t.take_from_hand(seat, i);
            let colour = usize::from(t.cards[usize::from(card)].colour);
            let b = &mut t.boards[seat];
            b.land_ids[b.n_lands] = card;
            b.n_lands += 1;
            b.lands[colour] += 1;
            t.untapped[colour] += 1;
            out.seats[seat].sums[LANDS_PLAYED] += 1;
            sink.event(Event::Land { seat, card });
        }
    }
    // Creatures.
    while let Some(i) = bot.cast(&t.view(rules, seat), bot_rngs.seat(seat)) {
        let view = t.view(rules, seat);
        if i >= view.hand.len() || !view.castable(view.hand[i]) {
            return Err(illegal(bot, seat, format!("cast hand card {i}, which it cannot pay for")));
        }
        if t.boards[seat].n_creatures >= MAX_PERMANENTS {
            break;
        }
        let card = t.take_from_hand(seat, i);
        let c = t.cards[usize::from(card)];
        tap(&mut t.untapped, usize::from(c.colour), c.cost);
        let b = &mut t.boards[seat];
        b.creatures[b.n_creatures] = card;
        b.sick |= 1 << b.n_creatures;
        b.n_creatures += 1;
        out.seats[seat].sums[CAST] += 1;
        sink.event(Event::Cast { seat, card });
    }
    // Combat.
    let ready = t.boards[seat].ready();
    if ready != 0 {
        let defender = bot.target(&t.view(rules, seat), bot_rngs.seat(seat));
        if defender == seat || defender >= rules.players || !t.boards[defender].alive {
            return Err(illegal(bot, seat, format!("attacked seat {defender}")));
        }
        let attackers = bot.attack(&t.view(rules, seat), defender, bot_rngs.seat(seat));
        if attackers & !ready != 0 {
            return Err(illegal(bot, seat, "attacked with a creature that cannot attack".into()));
        }
        if attackers != 0 {
            combat(
                rules,
                t,
                &mut bots[seating[defender]],
                seat,
                defender,
                attackers,
                bot_rngs.seat(defender),
                sink,
                out,
            )?;
        }
    }
    // End of turn: discard down to the hand limit.
    let bot = &mut bots[seating[seat]];
    while t.boards[seat].hand_size > rules.max_hand {
        let index = bot.discard(&t.view(rules, seat), bot_rngs.seat(seat));
        if index >= t.boards[seat].hand_size {
            return Err(illegal(bot, seat, format!("discarded hand card {index}")));
        }
        let card = t.take_from_hand(seat, index);
        let b = &mut t.boards[seat];
        b.graveyard[b.n_graveyard] = card;
        b.n_graveyard += 1;
        sink.event(Event::Discard { seat, card, to: "graveyard" });
    }
    t.untapped = [0; COLOURS];
    Ok(None)
}

/// Combat: `seat` attacks `defender` with `attackers` (slot bits); `blocker` (the
/// defender's bot) blocks.
#[allow(clippy::too_many_arguments)]
fn combat<B: Bot>(
    rules: &Rules,
    t: &mut Table,
    blocker: &mut B,
    seat: usize,
    defender: usize,
    attackers: u64,
    bot_rng: &mut BotRng,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    sink.event(Event::Attack { seat, defender, attackers: attackers.count_ones() as usize });
    if !rules.vigilance {
        t.boards[seat].tapped |= attackers;
    }
    let mut blocks = [NO_CARD; MAX_PERMANENTS];
    blocker.block(&t.view(rules, defender), seat, attackers, bot_rng, &mut blocks);
    let (a, d) = (&t.boards[seat], &t.boards[defender]);
    let mut used = 0u64;
    let mut dead_a = 0u64;
    let mut dead_d = 0u64;
    let mut damage = 0i32;
    for (slot, &b) in blocks.iter().enumerate().take(a.n_creatures) {
        if attackers >> slot & 1 == 0 {
            continue;
        }
        let ac = t.cards[usize::from(a.creatures[slot])];
        if b == NO_CARD {
            damage += i32::from(ac.power);
            continue;
        }
        let b = usize::from(b);
        if b >= d.n_creatures || used >> b & 1 == 1 || d.tapped >> b & 1 == 1 {
            return Err(illegal(
                blocker,
                defender,
                format!("blocked with creature slot {b}: twice, tapped or past its creatures"),
            ));
        }
        used |= 1 << b;
        let bc = t.cards[usize::from(d.creatures[b])];
        sink.event(Event::Block { attacker: a.creatures[slot], blocker: d.creatures[b] });
        if ac.power >= bc.toughness {
            dead_d |= 1 << b;
        }
        if bc.power >= ac.toughness {
            dead_a |= 1 << slot;
        }
    }
    bury(t, seat, dead_a, sink);
    bury(t, defender, dead_d, sink);
    if damage > 0 {
        let d = &mut t.boards[defender];
        d.life -= damage;
        out.seats[seat].sums[DAMAGE] += i64::from(damage);
        sink.event(Event::Damage { seat: defender, amount: damage, life: d.life });
        if d.life <= 0 {
            d.alive = false;
        }
    }
    Ok(())
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
