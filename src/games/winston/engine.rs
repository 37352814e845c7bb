//! The Winston + Crazier Eights engine: a deterministic state machine driven by the deal
//! seed and the bots' choices.
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
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::cards::{Cards, Pool, bit, count, ids};
use super::measures::{
    ABILITY_PLAYS, BLIND_TAKES, COLOURS_DRAFTED, DECK_COLOURS, DECK_SIZE, DRAWN, EIGHTS, HATE_TAKES, LAST_CARD_TAKES,
    MULTI, PILE_BINS, PILE_SIZES, PILES, PLAYED_FIRST, POOL_SIZE, SHORT_DECK, WON_PLAYING_FIRST,
};
use super::rules::{Ability, LaterStarter, MAX_CARDS, MAX_DECK, Rules, Starter};
use super::view::{Bot, BotRng, BuildView, DraftChoice, DraftView, PlayView};
use crate::error::Error;
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

/// Reusable per-thread state.
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
            verify: cfg!(debug_assertions),
        }
    }
}

fn illegal<B: Bot>(bot: &B, seat: usize, action: String) -> Error {
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

/// Plays one match (draft, build, games), adding to `out` (cleared by the caller).
/// `bots[seating[s]]` plays seat `s`; seat 0 drafts first.
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
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix_seed(deal_seed, 0, STACK_STREAM));
    let mut order = [0u8; MAX_CARDS];
    for (i, slot) in order[..pool.size].iter_mut().enumerate() {
        *slot = i as u8;
    }
    shuffle(&mut order[..pool.size], &mut rng);
    let kept = pool.size - rules.removed;
    t.removed = order[kept..pool.size].iter().fold(0, |m, &id| m | bit(id));
    t.stack[..kept].copy_from_slice(&order[..kept]);
    t.stack_len = kept;
    t.stack_dealt = kept;
    play_stacked(rules, pool, t, bots, seating, deal_seed, bot_seed, sink, out)
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
    let mut bot_rngs = SeatRngs::new(bot_seed, 2);
    for &b in seating {
        bots[b].start_match();
    }
    draft(rules, pool, t, bots, seating, &mut bot_rngs, sink, out)?;
    for s in 0..2 {
        build(rules, pool, t, &mut bots[seating[s]], s, bot_rngs.seat(s), sink, out)?;
    }
    let needed = rules.games / 2 + 1;
    let mut wins = [0usize; 2];
    let mut starter = match rules.starter {
        Starter::SecondDrafter => 1,
        Starter::FirstDrafter => 0,
        Starter::Random => (mix_seed(deal_seed, 0, STARTER_STREAM) & 1) as usize,
    };
    out.seats[starter].count(PLAYED_FIRST);
    let first_starter = starter;
    let mut turns = 0;
    for game in 0..rules.games {
        let (winner, game_turns) =
            play_game(rules, pool, t, bots, seating, deal_seed, game, starter, &mut bot_rngs, sink, out)?;
        turns += game_turns;
        if let Some(w) = winner {
            wins[w] += 1;
        }
        starter = next_starter(rules.later_starter, starter, winner);
        if wins.contains(&needed) {
            break;
        }
    }
    out.length = turns;
    let winner = match wins[0].cmp(&wins[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    match winner {
        Some(w) => {
            out.seats[w].share_units = SHARE_UNIT;
            out.seats[w].score = 1;
            out.seats[1 - w].score = -1;
            if w == first_starter {
                out.seats[w].count(WON_PLAYING_FIRST);
            }
        }
        None => {
            out.seats[0].count(DRAWN);
            out.seats[1].count(DRAWN);
        }
    }
    Ok(())
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

/// The Winston draft from the stack in `t` until no card is left (public for scripted tests).
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
    t.pools = [0; 2];
    t.known = [[0; 3]; 2];
    t.opponent_took = [0; 2];
    t.opponent_passed = [0; 2];
    t.piles = [0; 3];
    for pile in &mut t.piles {
        if t.stack_len > 0 {
            t.stack_len -= 1;
            *pile = bit(t.stack[t.stack_len]);
        }
    }
    t.stack_start = t.stack_len;
    let mut seat = 0;
    // Each seat's draft turns so far: the "pick" of card analytics.
    let mut turns = [0usize; 2];
    while t.stack_len > 0 || t.piles.iter().any(|&p| p != 0) {
        turns[seat] += 1;
        draft_turn(rules, pool, t, &mut bots[seating[seat]], seat, turns[seat], bot_rngs.seat(seat), sink, out)?;
        if t.verify {
            t.check_draft(pool)?;
        }
        seat = 1 - seat;
    }
    for s in 0..2 {
        let own = t.pools[s];
        let r = &mut out.seats[s];
        r.sums[POOL_SIZE] = count(own) as i64;
        r.sums[EIGHTS] = count(own & pool.eights) as i64;
        r.sums[MULTI] = count(own & pool.multi) as i64;
        for c in 0..pool.n_colours() {
            r.observe_n(COLOURS_DRAFTED, c, count(own & pool.by_colour[c] & !pool.multi) as u32);
        }
        r.observe_n(COLOURS_DRAFTED, pool.n_colours(), count(own & pool.multi) as u32);
    }
    Ok(())
}

/// Draws the stack's top card, if any.
fn pop_stack(t: &mut Table) -> Option<u8> {
    if t.stack_len == 0 {
        return None;
    }
    t.stack_len -= 1;
    Some(t.stack[t.stack_len])
}

/// One draft turn of `seat`.
#[allow(clippy::too_many_arguments)]
fn draft_turn<B: Bot>(
    rules: &Rules,
    pool: &Pool,
    t: &mut Table,
    bot: &mut B,
    seat: usize,
    turn: usize,
    bot_rng: &mut BotRng,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    let other = 1 - seat;
    for i in 0..3 {
        let cards = t.piles[i];
        if cards == 0 {
            continue;
        }
        t.known[seat][i] = cards;
        sink.event(Event::Look { seat, pile: i, cards });
        if out.cards.on() {
            log_cards(&mut out.cards, pool, seat, cards, turn, false);
        }
        // With the stack empty, the last non-empty pile cannot be put back: a pass of it
        // takes it (forced). Taking it is still the player's own choice.
        let last_pile = t.stack_len == 0 && !t.piles[i + 1..].iter().any(|&p| p != 0);
        if t.stack_len == 0 && !rules.pass_when_empty {
            // No choice at all: the first pile looked at is taken unasked.
            if out.cards.on() {
                log_taken(&mut out.cards, pool, seat, cards, turn);
            }
            take_pile(t, seat, i, false, true, sink, out);
            return Ok(());
        }
        let view = DraftView {
            rules,
            pool,
            own: t.pools[seat],
            pile: i,
            cards,
            known: t.known[seat],
            sizes: t.piles.map(count),
            stack: t.stack_len,
            stack_start: t.stack_start,
            opponent_size: count(t.pools[other]),
            opponent_took: t.opponent_took[seat],
            opponent_passed: t.opponent_passed[seat],
        };
        match bot.draft(&view, bot_rng) {
            DraftChoice::TakeLastCard => {
                if !(rules.last_card_rule && t.stack_len == 1) {
                    return Err(illegal(
                        bot,
                        seat,
                        "took the stack's last card when the rule does not allow it".into(),
                    ));
                }
                // The opponent sees this pile rejected; the card is unseen.
                t.opponent_passed[other] |= t.known[other][i];
                let card = pop_stack(t).expect("one card left");
                t.pools[seat] |= bit(card);
                if out.cards.on() {
                    log_cards(&mut out.cards, pool, seat, bit(card), turn, true);
                }
                out.seats[seat].count(LAST_CARD_TAKES);
                sink.event(Event::Blind { seat, card, last: true });
                return Ok(());
            }
            DraftChoice::Pass if last_pile => {
                if out.cards.on() {
                    log_taken(&mut out.cards, pool, seat, cards, turn);
                }
                take_pile(t, seat, i, false, true, sink, out);
                return Ok(());
            }
            DraftChoice::Take { deny } => {
                if out.cards.on() {
                    log_taken(&mut out.cards, pool, seat, cards, turn);
                }
                take_pile(t, seat, i, deny, false, sink, out);
                return Ok(());
            }
            DraftChoice::Pass => {
                t.opponent_passed[other] |= t.known[other][i];
                sink.event(Event::Pass { seat, pile: i });
                if let Some(card) = pop_stack(t) {
                    t.piles[i] |= bit(card);
                }
            }
        }
    }
    if let Some(card) = pop_stack(t) {
        t.pools[seat] |= bit(card);
        if out.cards.on() {
            log_cards(&mut out.cards, pool, seat, bit(card), turn, true);
        }
        out.seats[seat].sums[BLIND_TAKES] += 1;
        sink.event(Event::Blind { seat, card, last: false });
    }
    Ok(())
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

fn take_pile(
    t: &mut Table,
    seat: usize,
    i: usize,
    deny: bool,
    forced: bool,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) {
    let other = 1 - seat;
    let cards = t.piles[i];
    sink.event(Event::Take { seat, pile: i, cards, deny, forced });
    t.pools[seat] |= cards;
    t.opponent_took[other] |= t.known[other][i];
    t.opponent_passed[other] &= !cards;
    t.opponent_passed[seat] &= !cards;
    t.known[0][i] = 0;
    t.known[1][i] = 0;
    t.piles[i] = pop_stack(t).map_or(0, bit);
    let r = &mut out.seats[seat];
    r.sums[PILES] += 1;
    if deny {
        r.sums[HATE_TAKES] += 1;
    }
    r.observe(PILE_SIZES, count(cards).min(PILE_BINS) - 1);
}

/// Builds `seat`'s deck and checks it against the colour rule.
#[allow(clippy::too_many_arguments)]
fn build<B: Bot>(
    rules: &Rules,
    pool: &Pool,
    t: &mut Table,
    bot: &mut B,
    seat: usize,
    bot_rng: &mut BotRng,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    let own = t.pools[seat];
    let (colours, deck) = bot.build(&BuildView { rules, pool, own }, bot_rng);
    let all_colours = (1u16 << pool.n_colours()) - 1;
    if colours.count_ones() as usize > rules.max_colours || u16::from(colours) & !all_colours != 0 {
        return Err(illegal(bot, seat, format!("built with colours {colours:#b}, more than max_colours")));
    }
    let usable = pool.usable(rules, own, colours);
    let size = count(usable).min(rules.deck_size);
    if deck & !usable != 0 || count(deck) != size {
        return Err(illegal(
            bot,
            seat,
            format!(
                "built a deck of {} cards ({} usable, {} wanted) or with unusable cards",
                count(deck),
                count(usable),
                size
            ),
        ));
    }
    t.decks[seat] = deck;
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
    Ok(())
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

/// One game of Crazier Eights; returns its winner and its turns.
#[allow(clippy::too_many_arguments)]
fn play_game<B: Bot>(
    rules: &Rules,
    pool: &Pool,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    deal_seed: u64,
    game: usize,
    starter: usize,
    bot_rngs: &mut SeatRngs,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(Option<usize>, u32), Error> {
    sink.event(Event::GameStart { game, starter });
    let mut rngs: [Xoshiro256PlusPlus; 2] = std::array::from_fn(|s| {
        Xoshiro256PlusPlus::seed_from_u64(mix_seed(deal_seed, (game * 2 + s) as u64, DECK_STREAM))
    });
    for (s, rng) in rngs.iter_mut().enumerate() {
        let side = &mut t.sides[s];
        *side = Side::default();
        for id in ids(t.decks[s]) {
            side.deck[side.deck_len] = id;
            side.deck_len += 1;
        }
        shuffle(&mut side.deck[..side.deck_len], rng);
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
        }
        sink.event(Event::Opening { seat: s, hand: side.hand, top: side.top });
    }
    if t.verify {
        t.check_game()?;
    }
    // An empty deck (no usable cards) cannot play: it loses, or both empty draw.
    match (t.decks[0] == 0, t.decks[1] == 0) {
        (false, false) => {}
        (true, true) => {
            sink.event(Event::GameEnd { winner: None, turns: 0 });
            return Ok((None, 0));
        }
        (empty0, _) => {
            let winner = usize::from(empty0);
            sink.event(Event::GameEnd { winner: Some(winner), turns: 0 });
            return Ok((Some(winner), 0));
        }
    }
    let mut seat = starter;
    let mut turns = 0;
    while turns < rules.max_turns {
        turns += 1;
        let (won, again) =
            turn(rules, pool, t, &mut bots[seating[seat]], seat, &mut rngs, bot_rngs.seat(seat), sink, out)?;
        if t.verify {
            t.check_game()?;
        }
        if won {
            sink.event(Event::GameEnd { winner: Some(seat), turns });
            return Ok((Some(seat), turns));
        }
        if !again {
            seat = 1 - seat;
        }
    }
    sink.event(Event::GameEnd { winner: None, turns });
    Ok((None, turns))
}

fn view<'a>(rules: &'a Rules, pool: &'a Pool, t: &Table, seat: usize) -> PlayView<'a> {
    let side = &t.sides[seat];
    let other = &t.sides[1 - seat];
    PlayView {
        rules,
        pool,
        hand: side.hand,
        top: side.top,
        colours: if side.top == NO_CARD { u8::MAX } else { side.colours },
        rank: side.rank,
        playable: playable(pool, side),
        deck: side.deck_len,
        deck_list: t.decks[seat],
        opponent_hand: count(other.hand),
        opponent_top: other.top,
    }
}

/// Discards one card if the bot wants and can; returns whether the hand is now empty.
fn discard_step<B: Bot>(
    pool: &Pool,
    t: &mut Table,
    v: &PlayView<'_>,
    bot: &mut B,
    seat: usize,
    choice: Option<(u8, usize)>,
    sink: &mut impl EventSink<Event>,
) -> Result<bool, Error> {
    let Some((card, colour)) = choice else { return Ok(false) };
    if v.playable & bit(card) == 0 {
        return Err(illegal(bot, seat, format!("discarded {}, which does not match", pool.card_name(card))));
    }
    let wild = pool.wild & bit(card) != 0;
    if wild && colour >= pool.n_colours() {
        return Err(illegal(bot, seat, format!("named colour {colour}, which is not in play")));
    }
    let side = &mut t.sides[seat];
    side.hand &= !bit(card);
    if side.top != NO_CARD {
        side.under |= bit(side.top);
    }
    let named = wild.then_some(colour);
    set_top(pool, side, card, named);
    sink.event(Event::Discard { seat, card, named });
    Ok(side.hand == 0)
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
    let mut rngs = [Xoshiro256PlusPlus::seed_from_u64(0), Xoshiro256PlusPlus::seed_from_u64(1)];
    let result = turn(rules, pool, t, bot, seat, &mut rngs, &mut BotRng::seed_from_u64(0), sink, out)?;
    t.check_game()?;
    Ok(result)
}

/// One turn of `seat`; returns (won, takes another turn).
#[allow(clippy::too_many_arguments)]
fn turn<B: Bot>(
    rules: &Rules,
    pool: &Pool,
    t: &mut Table,
    bot: &mut B,
    seat: usize,
    rngs: &mut [Xoshiro256PlusPlus; 2],
    bot_rng: &mut BotRng,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(bool, bool), Error> {
    if rules.classic {
        loop {
            let v = view(rules, pool, t, seat);
            if v.playable != 0 {
                let choice = bot.discard(&v, bot_rng);
                if choice.is_none() {
                    return Err(illegal(bot, seat, "passed with a matching card in the classic game".into()));
                }
                return Ok((discard_step(pool, t, &v, bot, seat, choice, sink)?, false));
            }
            if draw(&mut t.sides[seat], &mut rngs[seat], seat, sink).is_none() {
                return Ok((false, false));
            }
        }
    }
    draw(&mut t.sides[seat], &mut rngs[seat], seat, sink);
    let mut discards = 1;
    let mut again = false;
    let v = view(rules, pool, t, seat);
    let played = bot.play(&v, bot_rng);
    if played.is_none() && v.hand != 0 {
        return Err(illegal(bot, seat, "skipped the play step with cards in hand".into()));
    }
    if let Some(card) = played {
        if v.hand & bit(card) == 0 {
            return Err(illegal(bot, seat, format!("played {}, which it does not hold", pool.card_name(card))));
        }
        let side = &mut t.sides[seat];
        side.hand &= !bit(card);
        side.under |= bit(card);
        sink.event(Event::Play { seat, card });
        if side.hand == 0 {
            return Ok((true, false));
        }
        if let Some(ability) = pool.ability[usize::from(card)] {
            out.seats[seat].sums[ABILITY_PLAYS] += 1;
            match ability {
                Ability::OpponentDraws => {
                    draw(&mut t.sides[1 - seat], &mut rngs[1 - seat], 1 - seat, sink);
                }
                Ability::ExtraTurn => again = true,
                Ability::ExtraDiscard => discards = 2,
                Ability::Peek => {
                    let side = &t.sides[seat];
                    if side.deck_len > 0 {
                        let top = side.deck[side.deck_len - 1];
                        let v = view(rules, pool, t, seat);
                        let kept = bot.keep_peeked(&v, top, bot_rng);
                        if !kept {
                            let side = &mut t.sides[seat];
                            side.deck[..side.deck_len].rotate_right(1);
                        }
                        sink.event(Event::Peek { seat, card: top, kept });
                    }
                }
            }
        }
    }
    for k in 0..discards {
        let v = view(rules, pool, t, seat);
        if v.playable == 0 {
            break;
        }
        let choice = bot.discard(&v, bot_rng);
        if choice.is_none() {
            // The turn's discard is owed when a card matches; an extra one is optional.
            if k == 0 {
                return Err(illegal(bot, seat, "skipped the discard with a matching card".into()));
            }
            break;
        }
        if discard_step(pool, t, &v, bot, seat, choice, sink)? {
            return Ok((true, false));
        }
    }
    Ok((false, again))
}
