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
//! The unit is a state machine ([`Table`], a [`Forward`] model): [`Phase`] says who decides
//! what, [`Table::step`] applies a [`Move`] and runs every chance step (deals, draws, the
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
use crate::error::Error;
use crate::search::{Forward, Scratch, SearchNote, SeatBot, drive};
pub use crate::sim::NoEvents;
use crate::sim::{EventSink, MAX_SEATS, RoundResult, SHARE_UNIT, SeatRngs, mix_seed};

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
    /// An exchange.
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

impl From<SearchNote> for Event {
    fn from(note: SearchNote) -> Event {
        Event::Search(note)
    }
}

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
pub struct Table {
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

impl Default for Table {
    fn default() -> Self {
        Table {
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

impl Table {
    /// A table that checks the invariants after every step, in any build.
    pub fn verified() -> Table {
        Table { verify: true, ..Table::default() }
    }

    /// Each seat's victory colours after the last unit played.
    pub fn victory(&self, seat: usize) -> u8 {
        self.public.victory[seat]
    }

    /// Each seat's hand after the last round played (a folder's kept cards).
    pub fn hand(&self, seat: usize) -> u64 {
        self.hands[seat]
    }

    /// The public part of the state.
    pub fn public(&self) -> &Public {
        &self.public
    }

    /// Every card is in exactly one place: a hand, the pile, the face-up discards or the
    /// victory cards; shown cards are in their holder's hand.
    #[cold]
    #[inline(never)]
    fn check(&self, layout: Layout, n: usize) -> Result<(), Error> {
        let broken = |what: String| Err(Error::Invariant(what));
        let p = &self.public;
        let pile_cards = &self.pile[..usize::from(p.pile)];
        let pile: u64 = pile_cards.iter().fold(0, |m, &id| m | 1 << id);
        if pile.count_ones() as usize != pile_cards.len() {
            return broken("a card is in the pile twice".into());
        }
        let mut all = pile;
        let mut total = pile.count_ones() + p.discards.count_ones() + p.removed.count_ones();
        all |= p.discards | p.removed;
        for s in 0..n {
            all |= self.hands[s];
            total += self.hands[s].count_ones();
            if p.shown[s] & !self.hands[s] != 0 {
                return broken(format!("seat {s} shows cards it does not hold"));
            }
            if p.victory[s].count_ones() as usize > COLOURS {
                return broken(format!("seat {s} holds too many victory colours"));
            }
            if usize::from(p.held[s]) != self.hands[s].count_ones() as usize {
                return broken(format!("seat {s}'s public hand size is wrong"));
            }
        }
        if total != all.count_ones() {
            return broken("a card is in two places".into());
        }
        if all != layout.all() {
            return broken(format!("cards went missing: {}", layout.set_name(layout.all() & !all)));
        }
        Ok(())
    }

    /// Starts a game with this deal seed, up to the first decision.
    pub fn reset(
        &mut self,
        rules: &Rules,
        deal_seed: u64,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        self.public = Public { players: rules.players, ..Public::default() };
        self.hands = [0; MAX_SEATS];
        self.deal_seed = deal_seed;
        self.stacked = false;
        self.single_round = false;
        self.last_round = u32::MAX;
        self.truncated = false;
        self.begin_round(rules, sink, out)
    }

    /// The next round, or the end of the game when the deck cannot refill the hands under
    /// `short_pile = "ends-game"` (the most victory cards wins, alone).
    fn begin_round(
        &mut self,
        rules: &Rules,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let n = rules.players;
        let layout = Layout { per: rules.cards_per_colour };
        if rules.short_pile == ShortPile::EndsGame && cards_needed(rules, &self.hands) > deck_size(layout, self, n) {
            let p = &mut self.public;
            p.short_end = true;
            let most = p.victory[..n].iter().map(|v| v.count_ones()).max().unwrap_or(0);
            let mut leaders = (0..n).filter(|&s| p.victory[s].count_ones() == most);
            if let (Some(s), None) = (leaders.next(), leaders.next()) {
                p.game_winner = Some(s as u8);
            }
            return self.finish(rules, out);
        }
        self.start_round(rules, sink, out)
    }

    /// A round's deck and deal, up to the first exchange.
    fn start_round(
        &mut self,
        rules: &Rules,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let n = rules.players;
        let layout = Layout { per: rules.cards_per_colour };
        let first = self.public.first;
        let order = |k: usize| (first + k) % n;
        sink.event(Event::RoundStart { round: self.public.round, first });
        // The new deck: every card not held (kept cards) and not a victory card.
        self.round_rng =
            Xoshiro256PlusPlus::seed_from_u64(mix_seed(self.deal_seed, u64::from(self.public.round), ROUND_STREAM));
        if !self.stacked {
            let held: u64 = self.hands[..n].iter().fold(0, |a, h| a | h);
            let mut len = 0;
            for id in ids(layout.all() & !held & !self.public.removed) {
                self.pile[len] = id;
                len += 1;
            }
            shuffle(&mut self.pile[..len], &mut self.round_rng);
            self.public.pile = len as u8;
        }
        let p = &mut self.public;
        p.discards = 0;
        p.discarded = [0; MAX_SEATS];
        p.shown = [0; MAX_SEATS];
        p.known = [0; MAX_SEATS];
        p.gone = 0;
        p.declared = [None; MAX_SEATS];
        p.round_winner = None;
        p.tie_out = false;
        p.all_compete = false;
        p.lone_keeps = false;
        // A fold that kept cards counts once there is a next round to pay off in.
        for s in 0..n {
            if p.kept_fold[s] {
                out.seats[s].count(KEPT_FOLDS);
            }
        }
        let short = cards_needed(rules, &self.hands) > usize::from(p.pile);
        if short {
            for s in 0..n {
                out.seats[s].count(SHORT_DEALS);
            }
        }
        if short && rules.short_pile == ShortPile::OneAtATime {
            // Around the table from the first player, one card to each short hand per pass,
            // until the pile runs out.
            let mut dealt = true;
            while dealt {
                dealt = false;
                for s in (0..n).map(order) {
                    if (self.hands[s].count_ones() as usize) < rules.hand_size
                        && let Some(card) = self.draw()
                    {
                        self.hands[s] |= 1 << card;
                        dealt = true;
                    }
                }
            }
        } else {
            for s in (0..n).map(order) {
                while (self.hands[s].count_ones() as usize) < rules.hand_size {
                    let Some(card) = self.draw() else { break };
                    self.hands[s] |= 1 << card;
                }
            }
        }
        for s in (0..n).map(order) {
            let size = self.hands[s].count_ones() as u8;
            self.public.sizes[s] = size;
            self.public.held[s] = size;
            sink.event(Event::Hand { seat: s, cards: self.hands[s] });
        }
        if self.verify {
            self.check(layout, n)?;
        }
        self.public.orbit = 0;
        self.public.pass = 0;
        self.next_exchange(rules, sink, out)
    }

    /// The top card of the pile.
    #[inline(always)]
    fn draw(&mut self) -> Option<u8> {
        let p = &mut self.public;
        if p.pile == 0 {
            return None;
        }
        p.pile -= 1;
        Some(self.pile[usize::from(p.pile)])
    }

    /// The next exchange turn (orbits from the first player, while the pile lasts), or the
    /// reveal.
    fn next_exchange(
        &mut self,
        rules: &Rules,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let n = rules.players;
        let p = &mut self.public;
        if usize::from(p.pass) == n {
            p.pass = 0;
            p.orbit += 1;
        }
        if usize::from(p.orbit) >= rules.exchange_orbits || p.pile == 0 {
            p.pass = 0;
            self.choices = [0; MAX_SEATS];
            return self.next_show(rules, sink, out);
        }
        let s = ((p.first + usize::from(p.pass)) % n) as u8;
        p.phase = if rules.left_swap == LeftSwap::None { Phase::Exchange(s) } else { Phase::SwapGive(s) };
        Ok(())
    }

    /// Seat `s` gives `give` (or nothing) to its left neighbour.
    fn swap_give(&mut self, rules: &Rules, s: usize, give: Option<u8>, sink: &mut impl EventSink<Event>) {
        let n = rules.players;
        let Some(give) = give else {
            self.public.phase = Phase::Exchange(s as u8);
            return;
        };
        let left = (s + 1) % n;
        self.hands[s] &= !(1 << give);
        self.hands[left] |= 1 << give;
        if rules.left_swap == LeftSwap::Random {
            // Swaps happen while the pile is not empty, so every hand is full.
            let cards = self.hands[left] & !(1 << give);
            let got = nth(cards, self.round_rng.random_range(0..cards.count_ones().max(1)));
            self.swap_back(s, give, got, sink, n);
        } else {
            self.swap_card = give;
            self.public.held[s] -= 1;
            self.public.held[left] += 1;
            self.public.phase = Phase::SwapReturn(left as u8);
        }
    }

    /// The left neighbour of `s` gives back `got` for `give`; `s` exchanges next.
    fn swap_back(&mut self, s: usize, give: u8, got: u8, sink: &mut impl EventSink<Event>, n: usize) {
        let left = (s + 1) % n;
        self.hands[left] &= !(1 << got);
        self.hands[s] |= 1 << got;
        let p = &mut self.public;
        p.held[s] = self.hands[s].count_ones() as u8;
        p.held[left] = self.hands[left].count_ones() as u8;
        sink.event(Event::Swap { seat: s, gave: give, got });
        p.phase = Phase::Exchange(s as u8);
    }

    /// Seat `s` discards `discard` face up and draws as many.
    #[inline(always)]
    fn exchange(
        &mut self,
        rules: &Rules,
        s: usize,
        discard: u64,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let layout = Layout { per: rules.cards_per_colour };
        if discard != 0 {
            self.hands[s] &= !discard;
            let p = &mut self.public;
            p.discards |= discard;
            p.discarded[s] |= discard;
            let mut drew = 0;
            for _ in 0..discard.count_ones() {
                let Some(card) = self.draw() else { break };
                drew |= 1 << card;
            }
            self.hands[s] |= drew;
            out.seats[s].sums[EXCHANGED] += i64::from(discard.count_ones());
            sink.event(Event::Exchange { seat: s, discarded: discard, drew });
        }
        if self.verify {
            self.check(layout, rules.players)?;
        }
        self.public.pass += 1;
        self.next_exchange(rules, sink, out)
    }

    /// The next seat to choose its shown cards, or the reveal (every choice at once) and
    /// the declarations.
    fn next_show(
        &mut self,
        rules: &Rules,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let n = rules.players;
        let p = &mut self.public;
        let first = p.first;
        if usize::from(p.pass) < n {
            p.phase = Phase::Show(((first + usize::from(p.pass)) % n) as u8);
            return Ok(());
        }
        for s in (0..n).map(|k| (first + k) % n) {
            p.shown[s] = self.choices[s];
            p.known[s] = self.choices[s];
            sink.event(Event::Show { seat: s, cards: self.choices[s] });
        }
        p.pass = 0;
        self.next_declare(rules, sink, out)
    }

    /// The next declaration (from the dealer, the seat before the first player), or the
    /// showdown. Under `all_fold = "last-stays"` the last seat, seeing every other fold,
    /// stays without being asked.
    fn next_declare(
        &mut self,
        rules: &Rules,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let n = rules.players;
        let p = &mut self.public;
        while usize::from(p.pass) < n {
            let k = usize::from(p.pass);
            let s = (p.first + n - 1 + k) % n;
            let forced = k == n - 1 && rules.all_fold == AllFold::LastStays && !p.declared.contains(&Some(true));
            if !forced {
                p.phase = Phase::Declare(s as u8);
                return Ok(());
            }
            p.declared[s] = Some(true);
            sink.event(Event::Declare { seat: s, stays: true });
            p.pass += 1;
        }
        self.showdown(rules, sink, out)
    }

    /// In a phase whose moves are colour subsets of a hand (exchange, show, keep): the hand,
    /// the range of card counts, and the move each subset makes; listed by `legal` and
    /// counted by `legal_count` from this one description.
    fn subset_menu(&self, rules: &Rules) -> Option<SubsetMenu> {
        let p = &self.public;
        match p.phase {
            Phase::Exchange(s) => {
                Some((self.hands[usize::from(s)], 0, rules.max_exchange.min(usize::from(p.pile)), Move::Exchange))
            }
            Phase::Show(s) => {
                let hand = self.hands[usize::from(s)];
                let want = rules.shown.min(hand.count_ones() as usize);
                Some((hand, want, want, Move::Show))
            }
            Phase::Keep(s) => Some((self.hands[usize::from(s)], 0, COLOURS * 9, Move::Keep)),
            _ => None,
        }
    }

    /// The victory colours `w` may take and how many: one of the longest colour, or two
    /// for all seven; never a colour already held.
    fn victory_candidates(&self, layout: Layout, w: usize) -> (u8, usize) {
        let counts = layout.counts(self.hands[w]);
        let seven = counts.iter().all(|&k| k == 1);
        let longest = counts.iter().copied().max().unwrap_or(0);
        let candidates = (0..COLOURS)
            .filter(|&c| counts[c] > 0 && (seven || counts[c] == longest) && self.public.victory[w] >> c & 1 == 0)
            .fold(0u8, |m, c| m | 1 << c);
        (candidates, if seven { 2 } else { 1 })
    }

    /// The showdown: the strongest category held by exactly one competitor wins. Those who
    /// stayed compete; when everyone folded, everyone does under `all_fold = "showdown"`.
    fn showdown(
        &mut self,
        rules: &Rules,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let n = rules.players;
        let layout = Layout { per: rules.cards_per_colour };
        if self.verify {
            self.check(layout, n)?;
        }
        let hands = &self.hands;
        let p = &mut self.public;
        let declared = p.declared;
        let stayed = |s: usize| declared[s] == Some(true);
        let stayers = (0..n).filter(|&s| stayed(s)).count();
        let all_compete = stayers == 0 && rules.all_fold == AllFold::Showdown;
        let competes = |s: usize| stayed(s) || all_compete;
        // Each competitor's strength, once (the levels below look at it many times).
        let mut strengths = [0u8; MAX_SEATS];
        for s in (0..n).filter(|&s| competes(s)) {
            strengths[s] = layout.strength(hands[s]);
        }
        let strength = |s: usize| strengths[s];
        let mut tie_out = false;
        let winner = match if all_compete { n } else { stayers } {
            0 => None,
            1 => (0..n).find(|&s| stayed(s)),
            _ => {
                let mut best: Option<usize> = None;
                for level in (0..=SEVEN_COLOURS).rev() {
                    let mut at = (0..n).filter(|&s| competes(s) && strength(s) == level);
                    if let (Some(s), None) = (at.next(), at.next()) {
                        best = Some(s);
                        break;
                    }
                }
                tie_out = best.is_none();
                for s in (0..n).filter(|&s| competes(s)) {
                    sink.event(Event::Reveal { seat: s, cards: hands[s] });
                    p.known[s] = hands[s];
                    if let Some(bin) = category_bin(strength(s)) {
                        out.seats[s].observe(SHOWDOWN, bin);
                        if best == Some(s) {
                            out.seats[s].observe(WINNING, bin);
                        }
                    }
                }
                best
            }
        };
        for s in 0..n {
            let r = &mut out.seats[s];
            if stayers == 0 {
                r.count(NOBODY_STAYS);
            }
            if tie_out {
                r.count(TIE_OUTS);
            }
            if stayed(s) {
                r.count(STAYS);
                // A stayer competes, so its strength is known: `is_bluff` without counting again.
                if shows_more(layout, p.shown[s]) && strength(s) != SEVEN_COLOURS {
                    r.count(BLUFF_STAYS);
                    if winner == Some(s) {
                        r.count(BLUFF_WINS);
                    }
                }
            }
            if p.kept_fold[s] && winner == Some(s) {
                r.count(KEPT_FOLDS_PAID);
            }
        }
        p.round_winner = winner.map(|w| w as u8);
        p.tie_out = tie_out;
        p.all_compete = all_compete;
        p.lone_keeps = stayers == 1 && rules.lone_stayer == LoneStayer::Keeps;
        let Some(w) = winner else { return self.take_victory(rules, 0, sink, out) };
        out.seats[w].count(ROUND_WINS);
        let (candidates, wanted) = self.victory_candidates(layout, w);
        if wanted == 2 {
            out.seats[w].count(SEVEN_COLOUR_WINS);
        }
        if candidates.count_ones() as usize <= wanted {
            self.take_victory(rules, candidates, sink, out)
        } else if rules.victory_colours == VictoryColours::Lowest {
            self.take_victory(rules, lowest_bits(candidates, wanted), sink, out)
        } else {
            self.public.phase = Phase::Victory(w as u8);
            Ok(())
        }
    }

    /// The round's winner takes `colours` (one card of each leaves its hand and play), then
    /// the seats that did not compete keep cards.
    fn take_victory(
        &mut self,
        rules: &Rules,
        colours: u8,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let n = rules.players;
        let layout = Layout { per: rules.cards_per_colour };
        let p = &mut self.public;
        if let Some(w) = p.round_winner {
            let w = usize::from(w);
            for c in 0..COLOURS {
                if colours >> c & 1 == 1 {
                    let card = self.hands[w] & layout.colour_mask(c);
                    let card = card & card.wrapping_neg();
                    self.hands[w] &= !card;
                    p.removed |= card;
                    p.victory[w] |= 1 << c;
                }
            }
            p.sizes[w] = self.hands[w].count_ones() as u8;
            p.held[w] = p.sizes[w];
            p.known[w] &= self.hands[w];
        }
        sink.event(Event::Outcome { winner: p.round_winner.map(usize::from), colours, tie_out: p.tie_out });
        // Those who competed discard their hands; folders (and a lone stayer under
        // `lone_stayer = "keeps"`) keep what their bot keeps.
        for s in 0..n {
            p.kept_fold[s] = false;
            if !keeps(p, s) {
                self.hands[s] = 0;
                p.held[s] = 0;
                p.gone |= p.known[s];
                p.known[s] = 0;
            }
        }
        p.pass = 0;
        self.next_keep(rules, sink, out)
    }

    /// The next seat to keep cards, or the round's end.
    fn next_keep(
        &mut self,
        rules: &Rules,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let n = rules.players;
        let p = &mut self.public;
        while usize::from(p.pass) < n {
            let s = usize::from(p.pass);
            if keeps(p, s) {
                p.phase = Phase::Keep(s as u8);
                return Ok(());
            }
            p.pass += 1;
        }
        self.end_round(rules, sink, out)
    }

    /// Ends the round: the game's winner, the round cap, a search world's last round, or
    /// the next round.
    fn end_round(
        &mut self,
        rules: &Rules,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let n = rules.players;
        let layout = Layout { per: rules.cards_per_colour };
        // Discards and unkept cards go back to the deck, rebuilt at the next round's start;
        // the check needs it now to see every card in one place.
        self.public.shown = [0; MAX_SEATS];
        self.public.known = [0; MAX_SEATS];
        if self.verify {
            self.public.discards = 0;
            let held = self.hands[..n].iter().fold(0, |a, h| a | h);
            let mut len = 0;
            for id in ids(layout.all() & !self.public.removed & !held) {
                self.pile[len] = id;
                len += 1;
            }
            self.public.pile = len as u8;
            self.check(layout, n)?;
        }
        let p = &mut self.public;
        p.round += 1;
        p.first = (p.first + 1) % n;
        if self.single_round {
            p.phase = Phase::Over;
            return Ok(());
        }
        if let Some(w) = p.round_winner
            && (rules.unit == Unit::Round || p.victory[usize::from(w)].count_ones() as usize >= rules.victory_target)
        {
            p.game_winner = Some(w);
        }
        let cap = if rules.unit == Unit::Round { 1 } else { rules.max_rounds };
        if p.game_winner.is_some() || p.round >= cap {
            return self.finish(rules, out);
        }
        if p.round > self.last_round {
            p.phase = Phase::Over;
            self.truncated = true;
            return Ok(());
        }
        self.begin_round(rules, sink, out)
    }

    /// Ends the game: scores are the victory cards held; the winner takes the share.
    fn finish(&mut self, rules: &Rules, out: &mut RoundResult) -> Result<(), Error> {
        let p = &mut self.public;
        p.phase = Phase::Over;
        for s in 0..rules.players {
            let r = &mut out.seats[s];
            r.rounds = p.round;
            r.score = i64::from(p.victory[s].count_ones());
            r.sums[VICTORY_CARDS] = r.score;
            if p.short_end {
                r.sums[SHORT_ENDS] = 1;
            } else if rules.unit == Unit::Game && p.game_winner.is_none() {
                r.sums[CAPPED] = 1;
                out.health.capped = true;
            }
        }
        if let Some(w) = p.game_winner {
            out.seats[usize::from(w)].share_units = SHARE_UNIT;
        }
        out.length = p.round;
        Ok(())
    }

    /// What seat `s` sees now.
    fn view<'a>(&'a self, rules: &'a Rules, s: usize) -> SeatView<'a> {
        let p = &self.public;
        let n = rules.players;
        SeatView {
            rules,
            layout: Layout { per: rules.cards_per_colour },
            seat: s,
            first: p.first,
            hand: self.hands[s],
            discards: p.discards,
            discarded: &p.discarded[..n],
            hand_sizes: &p.sizes[..n],
            removed: p.removed,
            shown: &p.shown[..n],
            declared: &p.declared[..n],
            victory: &p.victory[..n],
            pile: usize::from(p.pile),
            round: p.round,
        }
    }

    /// Asks `bot` for the seat to move's decision, from its view; a move the rules do not
    /// allow is [`Error::IllegalAction`].
    #[inline(always)]
    pub fn ask_bot<B: Bot + ?Sized>(&self, rules: &Rules, bot: &mut B, rng: &mut BotRng) -> Result<Move, Error> {
        let layout = Layout { per: rules.cards_per_colour };
        let p = &self.public;
        match p.phase {
            Phase::SwapGive(s) => {
                let s = usize::from(s);
                let offer = bot.swap_give(&self.view(rules, s), rng);
                if let Some(give) = offer
                    && (!in_deck(layout, give) || self.hands[s] >> give & 1 == 0)
                {
                    return Err(illegal(bot, s, format!("swap away card {give}, which it does not hold")));
                }
                Ok(Move::SwapGive(offer))
            }
            Phase::SwapReturn(left) => {
                let left = usize::from(left);
                let give = self.swap_card;
                let got = bot.swap_return(&self.view(rules, left), give, rng);
                if got == give || !in_deck(layout, got) || self.hands[left] >> got & 1 == 0 {
                    return Err(illegal(bot, left, format!("give back card {got}")));
                }
                Ok(Move::SwapReturn(got))
            }
            Phase::Exchange(s) => {
                let s = usize::from(s);
                let discard = bot.exchange(&self.view(rules, s), rng);
                let k = discard.count_ones() as usize;
                let pile = usize::from(p.pile);
                if discard & !self.hands[s] != 0 || k > rules.max_exchange || k > pile {
                    let shown = layout.set_name(discard & layout.all());
                    return Err(illegal(bot, s, format!("discard {shown} ({k} cards; the pile holds {pile})")));
                }
                Ok(Move::Exchange(discard))
            }
            Phase::Show(s) => {
                let s = usize::from(s);
                let want = rules.shown.min(self.hands[s].count_ones() as usize);
                let shown = bot.show(&self.view(rules, s), rng);
                if shown & !self.hands[s] != 0 || shown.count_ones() as usize != want {
                    let named = layout.set_name(shown & layout.all());
                    return Err(illegal(bot, s, format!("show {named} (must show {want} of its cards)")));
                }
                Ok(Move::Show(shown))
            }
            Phase::Declare(s) => Ok(Move::Stay(bot.stay(&self.view(rules, usize::from(s)), rng))),
            Phase::Victory(w) => {
                let w = usize::from(w);
                let (candidates, wanted) = self.victory_candidates(layout, w);
                let chosen = bot.victory_colours(&self.view(rules, w), candidates, wanted, rng);
                if chosen & !candidates != 0 || chosen.count_ones() as usize != wanted {
                    return Err(illegal(
                        bot,
                        w,
                        format!("take victory colours {chosen:#09b} (must be {wanted} of {candidates:#09b})"),
                    ));
                }
                Ok(Move::Victory(chosen))
            }
            Phase::Keep(s) => {
                let s = usize::from(s);
                let keep = bot.keep(&self.view(rules, s), rng);
                if keep & !self.hands[s] != 0 {
                    let named = layout.set_name(keep & layout.all());
                    return Err(illegal(bot, s, format!("keep {named} it does not hold")));
                }
                Ok(Move::Keep(keep))
            }
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
        let n = rules.players;
        match (self.public.phase, m) {
            (Phase::SwapGive(s), Move::SwapGive(give)) => {
                self.swap_give(rules, usize::from(s), give, sink);
                Ok(())
            }
            (Phase::SwapReturn(left), Move::SwapReturn(got)) => {
                let s = (usize::from(left) + n - 1) % n;
                self.swap_back(s, self.swap_card, got, sink, n);
                Ok(())
            }
            (Phase::Exchange(s), Move::Exchange(discard)) => self.exchange(rules, usize::from(s), discard, sink, out),
            (Phase::Show(s), Move::Show(cards)) => {
                self.choices[usize::from(s)] = cards;
                self.public.pass += 1;
                self.next_show(rules, sink, out)
            }
            (Phase::Declare(s), Move::Stay(stays)) => {
                self.public.declared[usize::from(s)] = Some(stays);
                sink.event(Event::Declare { seat: usize::from(s), stays });
                self.public.pass += 1;
                self.next_declare(rules, sink, out)
            }
            (Phase::Victory(_), Move::Victory(colours)) => self.take_victory(rules, colours, sink, out),
            (Phase::Keep(s), Move::Keep(keep)) => {
                let s = usize::from(s);
                let p = &mut self.public;
                self.hands[s] = keep;
                p.held[s] = keep.count_ones() as u8;
                p.known[s] = 0;
                if keep != 0 {
                    p.kept_fold[s] = p.declared[s] != Some(true);
                    sink.event(Event::Keep { seat: s, cards: keep });
                }
                p.pass += 1;
                self.next_keep(rules, sink, out)
            }
            (phase, m) => Err(Error::Invariant(format!("move {m:?} does not fit phase {phase:?}"))),
        }
    }

    /// This state with every card `seat` has not seen dealt again at random: the other
    /// seats' unseen cards, the pile and hidden show choices, with new chance streams.
    /// Made from the truth, not from an observation: the leak test's second state.
    pub fn redeal(&self, rules: &Rules, seat: usize, rng: &mut BotRng) -> Table {
        let n = rules.players;
        let mut t = self.clone();
        let p = &t.public;
        let mut hidden: Vec<u8> = self.pile[..usize::from(p.pile)].to_vec();
        for s in (0..n).filter(|&s| s != seat) {
            hidden.extend(ids(t.hands[s] & !p.known[s]));
        }
        rand::seq::SliceRandom::shuffle(&mut hidden[..], rng);
        let mut next = hidden.into_iter();
        for s in (0..n).filter(|&s| s != seat) {
            let unseen = (t.hands[s] & !p.known[s]).count_ones() as usize;
            t.hands[s] = p.known[s] | next.by_ref().take(unseen).fold(0, |m, id| m | 1 << id);
        }
        for (slot, id) in t.pile.iter_mut().zip(next) {
            *slot = id;
        }
        t.hide_choices(rules, seat, rng);
        t.deal_seed = rng.next_u64();
        t.round_rng = Xoshiro256PlusPlus::seed_from_u64(rng.next_u64());
        t
    }

    /// During the show choices, the choices of the seats before the one to move other than
    /// `seat`'s, drawn at random from their hands.
    fn hide_choices(&mut self, rules: &Rules, seat: usize, rng: &mut BotRng) {
        let n = rules.players;
        let p = &self.public;
        if !matches!(p.phase, Phase::Show(_)) {
            return;
        }
        for k in 0..usize::from(p.pass) {
            let s = (p.first + k) % n;
            if s == seat {
                continue;
            }
            let want = rules.shown.min(self.hands[s].count_ones() as usize);
            let mut left = self.hands[s];
            let mut chosen = 0;
            for _ in 0..want {
                let card = nth(left, rng.random_range(0..left.count_ones()));
                chosen |= 1 << card;
                left &= !(1 << card);
            }
            self.choices[s] = chosen;
        }
    }
}

/// Whether seat `s` keeps cards at the round's end: it did not compete.
fn keeps(p: &Public, s: usize) -> bool {
    !p.all_compete && (p.declared[s] != Some(true) || p.lone_keeps)
}

impl Forward for Table {
    type Rules = Rules;
    type Move = Move;
    type Obs = Observation;
    type Event = Event;
    type Bot = SevenPokerBot;

    /// Victory cards held.
    fn has_standing(_rules: &Rules) -> bool {
        true
    }

    fn standing(&self, _rules: &Rules, seat: usize) -> i64 {
        i64::from(self.public.victory[seat].count_ones())
    }

    #[inline(always)]
    fn to_act(&self) -> Option<usize> {
        match self.public.phase {
            Phase::SwapGive(s)
            | Phase::SwapReturn(s)
            | Phase::Exchange(s)
            | Phase::Show(s)
            | Phase::Declare(s)
            | Phase::Victory(s)
            | Phase::Keep(s) => Some(usize::from(s)),
            Phase::Over => None,
        }
    }

    fn legal(&self, rules: &Rules, out: &mut Vec<Move>) {
        out.clear();
        let layout = Layout { per: rules.cards_per_colour };
        let p = &self.public;
        match p.phase {
            Phase::SwapGive(s) => {
                out.push(Move::SwapGive(None));
                let (prefix, len) = colour_prefixes(layout, self.hands[usize::from(s)]);
                for c in (0..COLOURS).filter(|&c| len[c] > 0) {
                    out.push(Move::SwapGive(Some(prefix[c][1].trailing_zeros() as u8)));
                }
            }
            Phase::SwapReturn(left) => {
                let (prefix, len) = colour_prefixes(layout, self.hands[usize::from(left)] & !(1 << self.swap_card));
                for c in (0..COLOURS).filter(|&c| len[c] > 0) {
                    out.push(Move::SwapReturn(prefix[c][1].trailing_zeros() as u8));
                }
            }
            Phase::Exchange(_) | Phase::Show(_) | Phase::Keep(_) => {
                let (hand, lo, hi, wrap) = self.subset_menu(rules).expect("a phase of colour subsets");
                colour_subsets(layout, hand, lo, hi, out, wrap);
            }
            Phase::Declare(_) => out.extend([Move::Stay(true), Move::Stay(false)]),
            Phase::Victory(w) => {
                let (candidates, wanted) = self.victory_candidates(layout, usize::from(w));
                let mut sub = candidates;
                loop {
                    if sub.count_ones() as usize == wanted {
                        out.push(Move::Victory(sub));
                    }
                    if sub == 0 {
                        break;
                    }
                    sub = (sub - 1) & candidates;
                }
            }
            Phase::Over => {}
        }
    }

    fn legal_count(&self, rules: &Rules, scratch: &mut Vec<Move>) -> usize {
        match self.subset_menu(rules) {
            // Exchanges, shows and keeps can run to hundreds of moves: counted, not listed.
            Some((hand, lo, hi, _)) => colour_subset_count(Layout { per: rules.cards_per_colour }, hand, lo, hi),
            None => {
                self.legal(rules, scratch);
                scratch.len()
            }
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
    fn ask(&self, rules: &Rules, bot: &mut SevenPokerBot, rng: &mut BotRng) -> Result<Move, Error> {
        self.ask_bot(rules, bot, rng)
    }

    fn observe(&self, _rules: &Rules, seat: usize, out: &mut Observation) {
        let phase = self.public.phase;
        *out = Observation {
            seat,
            public: self.public,
            hand: self.hands[seat],
            received: (phase == Phase::SwapReturn(seat as u8)).then_some(self.swap_card),
            chosen: if matches!(phase, Phase::Show(_)) { self.choices[seat] } else { 0 },
        };
    }

    /// Every card the observer has not seen (not in its hand, shown, revealed, discarded
    /// face up or taken as a victory card) is dealt at random to the other hands (as many
    /// as each holds) and the pile; show choices still hidden are drawn from those hands.
    /// The world stops at the end of the round after the observer's (the search's horizon
    /// in a game: every decision of a round pays off in it or, through kept cards, in the
    /// next), and [`Forward::returns`] then estimates the game from the victory cards.
    fn determinize(rules: &Rules, obs: &Observation, rng: &mut BotRng, out: &mut Table) {
        let n = rules.players;
        let layout = Layout { per: rules.cards_per_colour };
        let p = &obs.public;
        out.public = *p;
        out.verify = false;
        out.stacked = false;
        out.single_round = false;
        out.truncated = false;
        out.last_round = p.round + 1;
        let mut seen = obs.hand | p.discards | p.removed | p.gone;
        for s in 0..n {
            seen |= p.known[s];
        }
        let mut total = 0;
        for id in ids(layout.all() & !seen) {
            out.pile[total] = id;
            total += 1;
        }
        // One shuffle of the unseen cards: the other hands first, then the pile.
        for i in 0..total.saturating_sub(1) {
            let j = i + rng.random_range(0..total - i);
            out.pile.swap(i, j);
        }
        let mut at = 0;
        for s in 0..n {
            if s == obs.seat {
                out.hands[s] = obs.hand;
                continue;
            }
            let unseen = usize::from(p.held[s]) - p.known[s].count_ones() as usize;
            out.hands[s] = p.known[s] | out.pile[at..at + unseen].iter().fold(0, |m, &id| m | 1 << id);
            at += unseen;
        }
        out.pile.copy_within(at..at + usize::from(p.pile), 0);
        out.choices = [0; MAX_SEATS];
        out.choices[obs.seat] = obs.chosen;
        out.hide_choices(rules, obs.seat, rng);
        out.swap_card = obs.received.unwrap_or(0);
        out.deal_seed = rng.next_u64();
        out.round_rng = Xoshiro256PlusPlus::seed_from_u64(rng.next_u64());
    }

    fn key(&self, rules: &Rules, actor: usize, observer: usize, m: Move) -> u32 {
        let layout = Layout { per: rules.cards_per_colour };
        let n = rules.players;
        let own = actor == observer;
        match m {
            Move::SwapGive(None) => 0x1000_0000,
            // The left neighbour receives the card and sees it; the others see a swap.
            Move::SwapGive(Some(c)) if own || observer == (actor + 1) % n => 0x1100_0000 | layout.colour(c) as u32,
            Move::SwapGive(Some(_)) => 0x1200_0000,
            Move::SwapReturn(c) if own || observer == (actor + n - 1) % n => 0x2000_0000 | layout.colour(c) as u32,
            Move::SwapReturn(_) => 0x2100_0000,
            Move::Exchange(cards) => 0x3000_0000 | colour_key(layout, cards),
            // Shown cards are revealed only once every seat has chosen.
            Move::Show(cards) if own => 0x4000_0000 | colour_key(layout, cards),
            Move::Show(_) => 0x4100_0000,
            Move::Stay(stays) => 0x5000_0000 | u32::from(stays),
            Move::Victory(colours) => 0x6000_0000 | u32::from(colours),
            Move::Keep(cards) if own => 0x7000_0000 | colour_key(layout, cards),
            Move::Keep(cards) => 0x7100_0000 | cards.count_ones(),
        }
    }

    /// The game's win share; a search world stopped at its last round estimates it from
    /// the victory cards ([`race_share`]).
    fn returns(&self, rules: &Rules, out: &RoundResult, seat: usize) -> f64 {
        if self.truncated {
            return race_share(&self.public.victory[..rules.players], seat);
        }
        f64::from(out.seats[seat].share_units) / f64::from(SHARE_UNIT)
    }

    /// As [`Forward::returns`] for a world stopped at a move horizon: the victory cards'
    /// race share.
    fn estimate(&self, rules: &Rules, _out: &RoundResult, seat: usize, _players: usize) -> f64 {
        race_share(&self.public.victory[..rules.players], seat)
    }
}

/// A stacked round for tests and examples: these hands, this pile (drawn from the end),
/// these victory colours already held.
pub struct Stacked<'a> {
    /// Each seat's hand.
    pub hands: &'a [u64],
    /// The draw pile; the last card is drawn first.
    pub pile: &'a [u8],
    /// Each seat's victory colours, as bits.
    pub victory: &'a [u8],
}

/// Plays one round on a stacked deal (first player seat 0); returns its winner.
#[allow(clippy::too_many_arguments)]
pub fn play_stacked<B: Bot>(
    rules: &Rules,
    t: &mut Table,
    bots: &mut [B],
    stacked: &Stacked<'_>,
    bot_seed: u64,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<Option<usize>, Error> {
    let n = rules.players;
    let layout = Layout { per: rules.cards_per_colour };
    let mut rngs = SeatRngs::new(bot_seed, n);
    t.public = Public { players: n, ..Public::default() };
    t.hands = [0; MAX_SEATS];
    t.hands[..n].copy_from_slice(stacked.hands);
    t.public.victory[..n].copy_from_slice(stacked.victory);
    // Victory cards already taken are out of play: one card of each held colour not dealt.
    let dealt = stacked.hands.iter().fold(0, |a, h| a | h) | stacked.pile.iter().fold(0, |m, &id| m | 1 << id);
    t.public.removed = layout.all() & !dealt;
    t.pile[..stacked.pile.len()].copy_from_slice(stacked.pile);
    t.public.pile = stacked.pile.len() as u8;
    t.deal_seed = 0;
    t.last_round = u32::MAX;
    t.truncated = false;
    t.stacked = true;
    t.single_round = true;
    let mut round = || -> Result<(), Error> {
        t.start_round(rules, sink, out)?;
        t.stacked = false;
        while let Some(s) = t.to_act() {
            let m = t.ask_bot(rules, &mut bots[s], rngs.seat(s))?;
            t.step(rules, m, sink, out)?;
        }
        Ok(())
    };
    let result = round();
    t.stacked = false;
    t.single_round = false;
    result.map(|()| t.public.round_winner.map(usize::from))
}

/// Plays one unit (a game, or one round) with heuristic bots, adding to `out` (cleared by
/// the caller). `bots[seating[s]]` plays seat `s`.
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
    t.reset(rules, deal_seed, sink, out)?;
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
    t.reset(rules, deal_seed, sink, out)?;
    drive(rules, t, bots, seating, &mut rngs, scratch, sink, out)
}

/// `count` decision points of the default rules with the default mix (adaptive, colour,
/// rainbow, bluffer) at four seats, for benchmarks of the search.
pub fn bench_points(count: usize) -> (Rules, Vec<Table>) {
    let rules = Rules::default();
    let mut bots: Vec<SeatBot<Table>> = ["adaptive", "colour", "rainbow", "bluffer"]
        .iter()
        .map(|name| {
            let preset = super::bots::Preset::load(name).expect("a built-in preset");
            SeatBot::Heuristic(preset.bot(name))
        })
        .collect();
    let points = crate::search::leaks::decision_points(&rules, &mut bots, 11, count, 7, |t: &mut Table, seed| {
        let _ = t.reset(&rules, seed, &mut NoEvents, &mut RoundResult::default());
    });
    (rules, points)
}

/// Whether a card id is in the deck (bots are outside code: check before shifting by it).
fn in_deck(layout: Layout, id: u8) -> bool {
    (id as usize) < layout.per * COLOURS
}

/// Whether shown cards suggested more than the hand holds: two or more cards all of
/// different colours (they may mean all seven colours) from a hand without all seven.
/// Cards sharing a colour suggest that many of it, which the hand holds, so never more.
pub fn is_bluff(layout: Layout, hand: u64, shown: u64) -> bool {
    shows_more(layout, shown) && layout.strength(hand) != SEVEN_COLOURS
}

/// Whether shown cards may mean all seven colours: two or more, all of different colours.
fn shows_more(layout: Layout, shown: u64) -> bool {
    shown.count_ones() >= 2 && layout.counts(shown).iter().all(|&k| k <= 1)
}

/// Cards in the next round's deck: every card not held and not a victory card.
fn deck_size(layout: Layout, t: &Table, n: usize) -> usize {
    let held = t.hands[..n].iter().fold(0, |a, h| a | h);
    (layout.all() & !held & !t.public.removed).count_ones() as usize
}

/// Cards the hands need to be full again.
fn cards_needed(rules: &Rules, hands: &[u64; MAX_SEATS]) -> usize {
    hands[..rules.players].iter().map(|h| rules.hand_size.saturating_sub(h.count_ones() as usize)).sum()
}

/// The `k` lowest set bits of `bits`.
fn lowest_bits(mut bits: u8, k: usize) -> u8 {
    let mut out = 0;
    for _ in 0..k {
        out |= bits & bits.wrapping_neg();
        bits &= bits.wrapping_sub(1);
    }
    out
}
