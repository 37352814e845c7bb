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

use crate::cards::shuffle::shuffle;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::cards::{COLOURS, Layout, SEVEN_COLOURS, category_bin, ids, nth};
use super::measures::{
    BLUFF_STAYS, BLUFF_WINS, CAPPED, EXCHANGED, KEPT_FOLDS, KEPT_FOLDS_PAID, NOBODY_STAYS, ROUND_WINS,
    SEVEN_COLOUR_WINS, SHORT_DEALS, SHORT_ENDS, SHOWDOWN, STAYS, TIE_OUTS, VICTORY_CARDS, WINNING,
};
use super::rules::{AllFold, LeftSwap, LoneStayer, Rules, ShortPile, Unit, VictoryColours};
use super::view::{Bot, SeatView};
use crate::error::Error;
use crate::sim::{EventSink, MAX_SEATS, RoundResult, SHARE_UNIT, SeatRngs, mix_seed};

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
}

/// Reusable per-thread state.
#[derive(Clone, Debug)]
pub struct Table {
    hands: [u64; MAX_SEATS],
    victory: [u8; MAX_SEATS],
    shown: [u64; MAX_SEATS],
    declared: [Option<bool>; MAX_SEATS],
    kept_fold: [bool; MAX_SEATS],
    pile: Vec<u8>,
    discards: u64,
    discarded: [u64; MAX_SEATS],
    /// Hand sizes, public: set at the deal (exchanges and swaps keep them) and when victory
    /// cards leave a hand.
    sizes: [u8; MAX_SEATS],
    removed: u64,
    /// Check the invariants after every step (`draftsim check` and tests turn it on).
    pub verify: bool,
}

impl Default for Table {
    fn default() -> Self {
        Table {
            hands: [0; MAX_SEATS],
            victory: [0; MAX_SEATS],
            shown: [0; MAX_SEATS],
            declared: [None; MAX_SEATS],
            kept_fold: [false; MAX_SEATS],
            pile: Vec::with_capacity(64),
            discards: 0,
            discarded: [0; MAX_SEATS],
            sizes: [0; MAX_SEATS],
            removed: 0,
            verify: cfg!(debug_assertions),
        }
    }
}

impl Table {
    /// A table that checks the invariants after every step, in any build.
    pub fn verified() -> Table {
        Table { verify: true, ..Table::default() }
    }

    /// Each seat's victory colours after the last unit played.
    pub fn victory(&self, seat: usize) -> u8 {
        self.victory[seat]
    }

    /// Each seat's hand after the last round played (a folder's kept cards).
    pub fn hand(&self, seat: usize) -> u64 {
        self.hands[seat]
    }

    /// Every card is in exactly one place: a hand, the pile, the face-up discards or the
    /// victory cards; shown cards are in their holder's hand.
    fn check(&self, layout: Layout, n: usize) -> Result<(), Error> {
        let broken = |what: String| Err(Error::Invariant(what));
        let pile: u64 = self.pile.iter().fold(0, |m, &id| m | 1 << id);
        if pile.count_ones() as usize != self.pile.len() {
            return broken("a card is in the pile twice".into());
        }
        let mut all = pile;
        let mut total = pile.count_ones() + self.discards.count_ones() + self.removed.count_ones();
        all |= self.discards | self.removed;
        for s in 0..n {
            all |= self.hands[s];
            total += self.hands[s].count_ones();
            if self.shown[s] & !self.hands[s] != 0 {
                return broken(format!("seat {s} shows cards it does not hold"));
            }
            if self.victory[s].count_ones() as usize > COLOURS {
                return broken(format!("seat {s} holds too many victory colours"));
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
}

fn illegal<B: Bot>(bot: &B, seat: usize, action: String) -> Error {
    Error::IllegalAction { bot: bot.name().to_string(), seat, action }
}

/// Plays one unit (a game, or one round), adding to `out` (cleared by the caller).
/// `bots[seating[s]]` plays seat `s`.
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
    let n = rules.players;
    let layout = Layout { per: rules.cards_per_colour };
    let mut bot_rngs = SeatRngs::new(bot_seed, rules.players);
    t.hands = [0; MAX_SEATS];
    t.victory = [0; MAX_SEATS];
    t.kept_fold = [false; MAX_SEATS];
    t.removed = 0;
    let rounds_cap = if rules.unit == Unit::Round { 1 } else { rules.max_rounds };
    let mut round = 0;
    let mut first = 0;
    let mut game_winner = None;
    let mut short_end = false;
    while round < rounds_cap && game_winner.is_none() {
        if rules.short_pile == ShortPile::EndsGame && cards_needed(rules, t) > deck_size(layout, t, n) {
            // The game ends before the round: the most victory cards wins, alone.
            short_end = true;
            let most = t.victory[..n].iter().map(|v| v.count_ones()).max().unwrap_or(0);
            let mut leaders = (0..n).filter(|&s| t.victory[s].count_ones() == most);
            if let (Some(s), None) = (leaders.next(), leaders.next()) {
                game_winner = Some(s);
            }
            break;
        }
        let winner =
            play_round(rules, layout, t, bots, seating, deal_seed, round, first, &mut bot_rngs, None, sink, out)?;
        round += 1;
        first = (first + 1) % n;
        if let Some(w) = winner
            && (rules.unit == Unit::Round || t.victory[w].count_ones() as usize >= rules.victory_target)
        {
            game_winner = Some(w);
        }
    }
    for s in 0..n {
        let r = &mut out.seats[s];
        r.rounds = round;
        r.score = i64::from(t.victory[s].count_ones());
        r.sums[VICTORY_CARDS] = r.score;
        if short_end {
            r.sums[SHORT_ENDS] = 1;
        } else if rules.unit == Unit::Game && game_winner.is_none() {
            r.sums[CAPPED] = 1;
        }
    }
    if let Some(w) = game_winner {
        out.seats[w].share_units = SHARE_UNIT;
    }
    out.length = round;
    Ok(())
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
    let mut bot_rngs = SeatRngs::new(bot_seed, rules.players);
    t.hands = [0; MAX_SEATS];
    t.victory = [0; MAX_SEATS];
    t.kept_fold = [false; MAX_SEATS];
    t.hands[..n].copy_from_slice(stacked.hands);
    t.victory[..n].copy_from_slice(stacked.victory);
    // Victory cards already taken are out of play: one card of each held colour not dealt.
    let dealt = stacked.hands.iter().fold(0, |a, h| a | h) | stacked.pile.iter().fold(0, |m, &id| m | 1 << id);
    t.removed = layout.all() & !dealt;
    let seating: Vec<usize> = (0..n).collect();
    play_round(rules, layout, t, bots, &seating, 0, 0, 0, &mut bot_rngs, Some(stacked.pile), sink, out)
}

/// Plays one round; returns its winner.
#[allow(clippy::too_many_arguments)]
fn play_round<B: Bot>(
    rules: &Rules,
    layout: Layout,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    deal_seed: u64,
    round: u32,
    first: usize,
    bot_rngs: &mut SeatRngs,
    stacked_pile: Option<&[u8]>,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<Option<usize>, Error> {
    let n = rules.players;
    let order = |k: usize| (first + k) % n;
    sink.event(Event::RoundStart { round, first });
    // The new deck: every card not held (kept cards) and not a victory card.
    let held: u64 = t.hands[..n].iter().fold(0, |a, h| a | h);
    t.pile.clear();
    t.pile.extend(ids(layout.all() & !held & !t.removed));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix_seed(deal_seed, u64::from(round), ROUND_STREAM));
    match stacked_pile {
        Some(pile) => {
            t.pile.clear();
            t.pile.extend_from_slice(pile);
        }
        None => shuffle(&mut t.pile, &mut rng),
    }
    t.discards = 0;
    t.discarded = [0; MAX_SEATS];
    t.shown = [0; MAX_SEATS];
    t.declared = [None; MAX_SEATS];
    // A fold that kept cards counts once there is a next round to pay off in.
    for s in 0..n {
        if t.kept_fold[s] {
            out.seats[s].count(KEPT_FOLDS);
        }
    }
    let short = cards_needed(rules, t) > t.pile.len();
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
                if (t.hands[s].count_ones() as usize) < rules.hand_size
                    && let Some(card) = t.pile.pop()
                {
                    t.hands[s] |= 1 << card;
                    dealt = true;
                }
            }
        }
    } else {
        for s in (0..n).map(order) {
            while (t.hands[s].count_ones() as usize) < rules.hand_size {
                let Some(card) = t.pile.pop() else { break };
                t.hands[s] |= 1 << card;
            }
        }
    }
    for s in (0..n).map(order) {
        t.sizes[s] = t.hands[s].count_ones() as u8;
        sink.event(Event::Hand { seat: s, cards: t.hands[s] });
    }
    if t.verify {
        t.check(layout, n)?;
    }

    // Exchanges: orbits from the first player, until the pile is empty.
    'exchange: for _ in 0..rules.exchange_orbits {
        for s in (0..n).map(order) {
            if t.pile.is_empty() {
                break 'exchange;
            }
            let bot = &mut bots[seating[s]];
            if rules.left_swap != LeftSwap::None {
                let left = (s + 1) % n;
                let offer = bot.swap_give(&view(rules, layout, t, s, first, round, n), bot_rngs.seat(s));
                if let Some(give) = offer {
                    if !in_deck(layout, give) || t.hands[s] >> give & 1 == 0 {
                        return Err(illegal(bot, s, format!("swap away card {give}, which it does not hold")));
                    }
                    t.hands[s] &= !(1 << give);
                    t.hands[left] |= 1 << give;
                    let got = match rules.left_swap {
                        LeftSwap::Random => {
                            // Swaps happen while the pile is not empty, so every hand is full.
                            let cards = t.hands[left] & !(1 << give);
                            nth(cards, rand::Rng::random_range(&mut rng, 0..cards.count_ones().max(1)))
                        }
                        _ => {
                            let neighbour = &mut bots[seating[left]];
                            let got = neighbour.swap_return(
                                &view(rules, layout, t, left, first, round, n),
                                give,
                                bot_rngs.seat(left),
                            );
                            if got == give || !in_deck(layout, got) || t.hands[left] >> got & 1 == 0 {
                                return Err(illegal(neighbour, left, format!("give back card {got}")));
                            }
                            got
                        }
                    };
                    t.hands[left] &= !(1 << got);
                    t.hands[s] |= 1 << got;
                    sink.event(Event::Swap { seat: s, gave: give, got });
                }
            }
            let bot = &mut bots[seating[s]];
            let discard = bot.exchange(&view(rules, layout, t, s, first, round, n), bot_rngs.seat(s));
            let k = discard.count_ones() as usize;
            if discard & !t.hands[s] != 0 || k > rules.max_exchange || k > t.pile.len() {
                let shown = layout.set_name(discard & layout.all());
                return Err(illegal(bot, s, format!("discard {shown} ({k} cards; the pile holds {})", t.pile.len())));
            }
            if discard == 0 {
                if t.verify {
                    t.check(layout, n)?;
                }
                continue;
            }
            t.hands[s] &= !discard;
            t.discards |= discard;
            t.discarded[s] |= discard;
            let mut drew = 0;
            for _ in 0..discard.count_ones() {
                let Some(card) = t.pile.pop() else { break };
                drew |= 1 << card;
            }
            t.hands[s] |= drew;
            out.seats[s].sums[EXCHANGED] += i64::from(discard.count_ones());
            sink.event(Event::Exchange { seat: s, discarded: discard, drew });
            if t.verify {
                t.check(layout, n)?;
            }
        }
    }

    // Reveal three at once (every choice made before any is seen), then declare from the
    // dealer (the seat before the first player).
    let mut choices = [0u64; MAX_SEATS];
    for s in (0..n).map(order) {
        let want = rules.shown.min(t.hands[s].count_ones() as usize);
        let bot = &mut bots[seating[s]];
        let shown = bot.show(&view(rules, layout, t, s, first, round, n), bot_rngs.seat(s));
        if shown & !t.hands[s] != 0 || shown.count_ones() as usize != want {
            let named = layout.set_name(shown & layout.all());
            return Err(illegal(bot, s, format!("show {named} (must show {want} of its cards)")));
        }
        choices[s] = shown;
    }
    for s in (0..n).map(order) {
        t.shown[s] = choices[s];
        sink.event(Event::Show { seat: s, cards: choices[s] });
    }
    for k in 0..n {
        let s = (first + n - 1 + k) % n;
        let forced = k == n - 1 && rules.all_fold == AllFold::LastStays && !t.declared.contains(&Some(true));
        let stays = forced || bots[seating[s]].stay(&view(rules, layout, t, s, first, round, n), bot_rngs.seat(s));
        t.declared[s] = Some(stays);
        sink.event(Event::Declare { seat: s, stays });
    }
    if t.verify {
        t.check(layout, n)?;
    }

    // The showdown: the strongest category held by exactly one competitor wins. Those who
    // stayed compete; when everyone folded, everyone does under `all_fold = "showdown"`.
    let stayed = |s: usize| t.declared[s] == Some(true);
    let stayers = (0..n).filter(|&s| stayed(s)).count();
    let all_compete = stayers == 0 && rules.all_fold == AllFold::Showdown;
    let competes = |s: usize| stayed(s) || all_compete;
    let strength = |s: usize| layout.strength(t.hands[s]);
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
                sink.event(Event::Reveal { seat: s, cards: t.hands[s] });
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
        if t.declared[s] == Some(true) {
            r.count(STAYS);
            if is_bluff(layout, t.hands[s], t.shown[s]) {
                r.count(BLUFF_STAYS);
                if winner == Some(s) {
                    r.count(BLUFF_WINS);
                }
            }
        }
        if t.kept_fold[s] && winner == Some(s) {
            r.count(KEPT_FOLDS_PAID);
        }
    }

    // Victory cards: one of the winning colour, two colours for all seven; never a colour
    // already held.
    let mut colours = 0u8;
    if let Some(w) = winner {
        out.seats[w].count(ROUND_WINS);
        let counts = layout.counts(t.hands[w]);
        let seven = strength(w) == SEVEN_COLOURS;
        let wanted = if seven {
            out.seats[w].count(SEVEN_COLOUR_WINS);
            2
        } else {
            1
        };
        let longest = counts.iter().copied().max().unwrap_or(0);
        let candidates = (0..COLOURS)
            .filter(|&c| counts[c] > 0 && (seven || counts[c] == longest) && t.victory[w] >> c & 1 == 0)
            .fold(0u8, |m, c| m | 1 << c);
        colours = if candidates.count_ones() as usize <= wanted {
            candidates
        } else if rules.victory_colours == VictoryColours::Lowest {
            lowest_bits(candidates, wanted)
        } else {
            let bot = &mut bots[seating[w]];
            let v = view(rules, layout, t, w, first, round, n);
            let chosen = bot.victory_colours(&v, candidates, wanted, bot_rngs.seat(w));
            if chosen & !candidates != 0 || chosen.count_ones() as usize != wanted {
                return Err(illegal(
                    bot,
                    w,
                    format!("take victory colours {chosen:#09b} (must be {wanted} of {candidates:#09b})"),
                ));
            }
            chosen
        };
        for c in 0..COLOURS {
            if colours >> c & 1 == 1 {
                let card = t.hands[w] & layout.colour_mask(c);
                let card = card & card.wrapping_neg();
                t.hands[w] &= !card;
                t.removed |= card;
                t.victory[w] |= 1 << c;
            }
        }
        t.sizes[w] = t.hands[w].count_ones() as u8;
    }
    sink.event(Event::Outcome { winner, colours, tie_out });

    // Next round: those who competed discard their hands; folders (and a lone stayer
    // under `lone_stayer = "keeps"`) keep what their bot keeps.
    let lone_keeps = stayers == 1 && rules.lone_stayer == LoneStayer::Keeps;
    for s in 0..n {
        t.kept_fold[s] = false;
        let keeps = !all_compete && (!stayed(s) || lone_keeps);
        if !keeps {
            t.hands[s] = 0;
        } else {
            let bot = &mut bots[seating[s]];
            let keep = bot.keep(&view(rules, layout, t, s, first, round, n), bot_rngs.seat(s));
            if keep & !t.hands[s] != 0 {
                let named = layout.set_name(keep & layout.all());
                return Err(illegal(bot, s, format!("keep {named} it does not hold")));
            }
            t.hands[s] = keep;
            if keep != 0 {
                t.kept_fold[s] = !stayed(s);
                sink.event(Event::Keep { seat: s, cards: keep });
            }
        }
    }
    // Discards and unkept cards go back to the deck, rebuilt at the next round's start;
    // the check needs it now to see every card in one place.
    t.shown = [0; MAX_SEATS];
    if t.verify {
        t.discards = 0;
        t.pile.clear();
        t.pile.extend(ids(layout.all() & !t.removed & !t.hands[..n].iter().fold(0, |a, h| a | h)));
        t.check(layout, n)?;
    }
    Ok(winner)
}

/// Whether a card id is in the deck (bots are outside code: check before shifting by it).
fn in_deck(layout: Layout, id: u8) -> bool {
    (id as usize) < layout.per * COLOURS
}

/// Whether shown cards suggested more than the hand holds: two or more cards all of
/// different colours (they may mean all seven colours) from a hand without all seven.
/// Cards sharing a colour suggest that many of it, which the hand holds, so never more.
pub fn is_bluff(layout: Layout, hand: u64, shown: u64) -> bool {
    shown.count_ones() >= 2 && layout.counts(shown).iter().all(|&k| k <= 1) && layout.strength(hand) != SEVEN_COLOURS
}

/// Cards in the next round's deck: every card not held and not a victory card.
fn deck_size(layout: Layout, t: &Table, n: usize) -> usize {
    let held = t.hands[..n].iter().fold(0, |a, h| a | h);
    (layout.all() & !held & !t.removed).count_ones() as usize
}

/// Cards the hands need to be full again.
fn cards_needed(rules: &Rules, t: &Table) -> usize {
    t.hands[..rules.players].iter().map(|h| rules.hand_size.saturating_sub(h.count_ones() as usize)).sum()
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

fn view<'a>(
    rules: &'a Rules,
    layout: Layout,
    t: &'a Table,
    s: usize,
    first: usize,
    round: u32,
    n: usize,
) -> SeatView<'a> {
    SeatView {
        rules,
        layout,
        seat: s,
        first,
        hand: t.hands[s],
        discards: t.discards,
        discarded: &t.discarded[..n],
        hand_sizes: &t.sizes[..n],
        removed: t.removed,
        shown: &t.shown[..n],
        declared: &t.declared[..n],
        victory: &t.victory[..n],
        pile: t.pile.len(),
        round,
    }
}
