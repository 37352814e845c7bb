//! The Seven Card Draft engine: a deterministic state machine driven by the deal's seed
//! and the bots' choices.
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

use crate::cards::shuffle::partial_shuffle;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::measures::{
    FINISHED, FOLDS, HATE_PICKS, HATE_ROUNDS, HATE_ROUNDS_NET, PICKS, SHOWDOWN_WINS, SHOWDOWNS, WILD_WINS, WINNING,
};
use super::rules::{Limit, Mode, Variant};
use super::view::{Action, BetOptions, Bot, PackMemory, PickChoice, PublicAction, SeatView};
use crate::cards::{Card, CardSet};
use crate::error::Error;
use crate::eval::HandValue;
pub use crate::sim::NoEvents;
use crate::sim::{CardLog, EventSink, MAX_SEATS, RoundResult, SHARE_UNIT, SeatRngs, mix_seed};

/// Stream tag of a game-mode round's deal seed.
const ROUND_STREAM: u64 = 0x5CD_0001;

/// Most picks in a round (the largest pack).
pub const MAX_PICKS: usize = 7;

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
}

/// Where a round's packs come from.
pub enum Deal<'a> {
    /// Shuffled from the deal stream with this seed (simulation).
    Shuffle(u64),
    /// Given pack by pack, seat by seat (stacked decks in tests and examples).
    Stacked(&'a [CardSet]),
}

/// Reusable per-thread state of a table; allocated once, reset each round.
#[derive(Clone, Debug)]
pub struct Table {
    n: usize,
    dir: i8,
    dealer: usize,
    packs: [CardSet; MAX_SEATS],
    pack_of: [u8; MAX_SEATS],
    hands: [CardSet; MAX_SEATS],
    face_up: [CardSet; MAX_SEATS],
    seen: [CardSet; MAX_SEATS],
    /// Per seat and pack (by the seat it was dealt to): the cards the seat left in it when
    /// it last passed it.
    left_in: [[CardSet; MAX_SEATS]; MAX_SEATS],
    /// Per seat: for each pack that came back to it, the cards gone from it since it was
    /// passed (taken by the seats downstream), and how many such returns.
    came_back: [[CardSet; MAX_PICKS]; MAX_SEATS],
    came_back_len: [u8; MAX_SEATS],
    last_pick: [Option<Card>; MAX_SEATS],
    folded: [bool; MAX_SEATS],
    stacks: [u32; MAX_SEATS],
    committed: [u32; MAX_SEATS],
    street: [u32; MAX_SEATS],
    fold_round: [Option<u8>; MAX_SEATS],
    /// Whether the seat made a hate pick this round.
    hated: [bool; MAX_SEATS],
    picks: [[PickRecord; MAX_PICKS]; MAX_SEATS],
    discarded: CardSet,
    undealt: CardSet,
    pick_no: usize,
    history: Vec<PublicAction>,
    deck_buf: Vec<Card>,
    /// The last shuffled deal's seed and card count, and its packs in deal order: every
    /// rotation of a deal has its seed, so only the first one shuffles.
    last_deal: Option<(u64, usize)>,
    last_packs: [CardSet; MAX_SEATS],
    choices: [PickChoice; MAX_SEATS],
    /// Chips in play at the round's start (stacks plus pot), for the conservation check.
    chips_total: u64,
    /// Check chips and card places after every step, in any build (tests turn it on).
    verify: bool,
    /// Each seat's face-up hand value, updated when a card is turned up (leads the betting).
    face_up_value: [HandValue; MAX_SEATS],
    /// The next active seat in the direction of play, updated when someone folds.
    next: [u8; MAX_SEATS],
    /// Seats in betting order: from the seat after the dealer round to the dealer.
    order: [u8; MAX_SEATS],
    /// Chips in the pot (the sum of `committed`).
    pot: u32,
    /// Seats not folded (kept as seats fold, so betting need not count them).
    active: u8,
}

impl Table {
    /// A table for this variant.
    pub fn new(variant: &Variant) -> Table {
        let n = variant.rules.players;
        Table {
            n,
            dir: 1,
            dealer: 0,
            packs: [CardSet::EMPTY; MAX_SEATS],
            pack_of: [0; MAX_SEATS],
            hands: [CardSet::EMPTY; MAX_SEATS],
            face_up: [CardSet::EMPTY; MAX_SEATS],
            seen: [CardSet::EMPTY; MAX_SEATS],
            left_in: [[CardSet::EMPTY; MAX_SEATS]; MAX_SEATS],
            came_back: [[CardSet::EMPTY; MAX_PICKS]; MAX_SEATS],
            came_back_len: [0; MAX_SEATS],
            last_pick: [None; MAX_SEATS],
            folded: [false; MAX_SEATS],
            stacks: [0; MAX_SEATS],
            committed: [0; MAX_SEATS],
            street: [0; MAX_SEATS],
            fold_round: [None; MAX_SEATS],
            hated: [false; MAX_SEATS],
            picks: [[PickRecord::default(); MAX_PICKS]; MAX_SEATS],
            discarded: CardSet::EMPTY,
            undealt: CardSet::EMPTY,
            pick_no: 0,
            history: Vec::with_capacity(64),
            deck_buf: variant.deck_cards.clone(),
            last_deal: None,
            last_packs: [CardSet::EMPTY; MAX_SEATS],
            choices: [PickChoice::own(Card::from_index(0)); MAX_SEATS],
            chips_total: 0,
            verify: cfg!(debug_assertions),
            face_up_value: [HandValue(0); MAX_SEATS],
            next: [0; MAX_SEATS],
            order: [0; MAX_SEATS],
            pot: 0,
            active: 0,
        }
    }

    /// Checks the invariants (chips conserved, every card in one place) after every step,
    /// returning [`Error::Invariant`] on a violation; on by default in debug builds.
    pub fn verify(mut self, on: bool) -> Table {
        self.verify = on;
        self
    }

    /// Turns the invariant checks on or off in place.
    pub fn set_verify(&mut self, on: bool) {
        self.verify = on;
    }

    /// The picks each seat made in the last round played.
    pub fn picks(&self, seat: usize) -> &[PickRecord] {
        &self.picks[seat][..self.pick_no]
    }

    fn view<'a>(&'a self, variant: &'a Variant, seat: usize, betting: Option<BetOptions>) -> SeatView<'a> {
        SeatView {
            variant,
            seat,
            players: self.n,
            direction: self.dir,
            pick: self.pick_no,
            hand: self.hands[seat],
            own_face_up: self.face_up[seat],
            last_pick: self.last_pick[seat],
            face_up: &self.face_up[..self.n],
            folded: &self.folded[..self.n],
            pack: if betting.is_some() { CardSet::EMPTY } else { self.packs[seat] },
            seen: self.seen[seat],
            memory: PackMemory {
                left_in: &self.left_in[seat][..self.n],
                came_back: &self.came_back[seat][..self.came_back_len[seat] as usize],
                pack_of: &self.pack_of[..self.n],
            },
            pot: self.pot,
            stacks: &self.stacks[..self.n],
            committed: &self.committed[..self.n],
            betting,
            history: &self.history,
        }
    }

    fn next_seat(&self, seat: usize, skip: impl Fn(usize) -> bool) -> usize {
        let mut s = seat;
        loop {
            s = self.step(s);
            if !skip(s) || s == seat {
                return s;
            }
        }
    }

    /// The seat one step round the table in the direction of play (no division).
    #[inline]
    fn step(&self, seat: usize) -> usize {
        if self.dir > 0 {
            if seat + 1 == self.n { 0 } else { seat + 1 }
        } else if seat == 0 {
            self.n - 1
        } else {
            seat - 1
        }
    }

    /// Recomputes who passes to whom after the set of active seats changed.
    fn update_next(&mut self) {
        for s in 0..self.n {
            self.next[s] = self.next_seat(s, |x| self.folded[x]) as u8;
        }
    }

    fn active_count(&self) -> usize {
        self.active as usize
    }

    /// Seats in betting order: from the seat after the dealer round to the dealer.
    fn betting_order(&self) -> impl Iterator<Item = usize> + '_ {
        self.order[..self.n].iter().map(|&s| s as usize)
    }

    /// Checks that chips are conserved and every card is in exactly one place.
    fn check_invariants(&self, variant: &Variant) -> Result<(), Error> {
        let broken = |what: String| Err(Error::Invariant(what));
        let chips: u64 = (0..self.n).map(|s| self.stacks[s] as u64 + self.committed[s] as u64).sum();
        if chips != self.chips_total {
            return broken(format!("chips not conserved: {chips} in play, {} at the start", self.chips_total));
        }
        if self.pot != self.committed[..self.n].iter().sum::<u32>() {
            return broken(format!("the pot ({}) is out of step with the stakes", self.pot));
        }
        let mut seen = self.discarded.0 & self.undealt.0;
        let mut all = self.discarded.union(self.undealt);
        for s in 0..self.n {
            for part in [self.packs[s], self.hands[s]] {
                seen |= all.0 & part.0;
                all = all.union(part);
            }
        }
        if seen != 0 {
            return broken(format!("a card is in two places: {}", CardSet(seen)));
        }
        if all != variant.deck.cards {
            return broken(format!("cards went missing: {}", variant.deck.cards.minus(all)));
        }
        if self.active as usize != self.folded[..self.n].iter().filter(|f| !**f).count() {
            return broken(format!("{} seats counted active, {:?} folded", self.active, &self.folded[..self.n]));
        }
        for s in (0..self.n).filter(|&s| !self.folded[s]) {
            if !self.face_up[s].minus(self.hands[s]).is_empty() {
                return broken(format!("seat {s} shows cards it does not hold"));
            }
        }
        Ok(())
    }
}

/// Plays one unit of simulation (a round, or a whole game in game mode), adding to `out`
/// (which the caller clears).
///
/// The deal depends on `deal_seed` alone; the bots draw from their own stream seeded with
/// `bot_seed`. `bots[seating[s]]` plays seat `s`.
#[allow(clippy::too_many_arguments)]
pub fn play<B: Bot>(
    variant: &Variant,
    table: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    deal_seed: u64,
    bot_seed: u64,
    round_index: u64,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    let mut bot_rngs = SeatRngs::new(bot_seed, variant.rules.players);
    let n = variant.rules.players;
    let start = variant.rules.starting_stack;
    match variant.rules.mode {
        Mode::Round => {
            table.stacks = [0; MAX_SEATS];
            table.stacks[..n].fill(start);
            let dir = if round_index.is_multiple_of(2) { 1 } else { -1 };
            play_round(variant, table, bots, seating, Deal::Shuffle(deal_seed), &mut bot_rngs, 0, dir, 0, sink, out)?;
            out.length = 1;
        }
        Mode::Game => {
            let mut stacks = [0u32; MAX_SEATS];
            stacks[..n].fill(start);
            let mut dealer = 0;
            let mut rounds = 0;
            let mut dealt_in = [0u32; MAX_SEATS];
            while stacks[..n].iter().filter(|&&s| s > 0).count() > 1 && rounds < variant.rules.max_rounds_per_game {
                let dir = if rounds.is_multiple_of(2) { 1 } else { -1 };
                table.stacks = stacks;
                for (d, &stack) in dealt_in.iter_mut().zip(&stacks[..n]) {
                    *d += u32::from(stack > 0);
                }
                let deal = Deal::Shuffle(mix_seed(deal_seed, rounds as u64, ROUND_STREAM));
                play_round(variant, table, bots, seating, deal, &mut bot_rngs, dealer, dir, rounds, sink, out)?;
                stacks = table.stacks;
                rounds += 1;
                // The deal moves one seat to the left, to a seat that still has chips.
                dealer = (1..n).map(|k| (dealer + k) % n).find(|&s| stacks[s] > 0).unwrap_or(dealer);
            }
            // The game goes to the player holding every chip (or, at the round limit, the
            // biggest stack, shared on a tie).
            let best = *stacks[..n].iter().max().expect("players");
            let leaders = stacks[..n].iter().filter(|&&s| s == best).count() as u32;
            for (s, (r, &stack)) in out.seats.iter_mut().zip(&stacks[..n]).enumerate() {
                r.score = stack as i64 - start as i64;
                r.share_units = if stack == best { SHARE_UNIT / leaders } else { 0 };
                r.rounds = dealt_in[s];
            }
            out.length = rounds;
        }
    }
    Ok(())
}

/// Plays one round on packs given seat by seat (a stacked deck) and these starting stacks.
#[allow(clippy::too_many_arguments)]
pub fn play_stacked<B: Bot>(
    variant: &Variant,
    table: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    packs: &[CardSet],
    stacks: &[u32],
    bot_seed: u64,
    round_index: u64,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    let n = variant.rules.players;
    assert!(
        packs.len() == n && packs.iter().all(|p| p.len() as usize == variant.rules.pack_size),
        "one full pack per seat"
    );
    let mut bot_rngs = SeatRngs::new(bot_seed, variant.rules.players);
    table.stacks = [0; MAX_SEATS];
    table.stacks[..n].copy_from_slice(stacks);
    let dir = if round_index.is_multiple_of(2) { 1 } else { -1 };
    play_round(variant, table, bots, seating, Deal::Stacked(packs), &mut bot_rngs, 0, dir, 0, sink, out)?;
    out.length = 1;
    Ok(())
}

/// Plays one round on the stacks already in `table.stacks`; seats with no chips sit out.
#[allow(clippy::too_many_arguments)]
fn play_round<B: Bot>(
    variant: &Variant,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    deal: Deal<'_>,
    bot_rngs: &mut SeatRngs,
    dealer: usize,
    dir: i8,
    round: u32,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    // Two copies of the round, so the pick loop without card analytics has no test in it.
    if out.cards.on() {
        play_round_with_cards(variant, t, bots, seating, deal, bot_rngs, dealer, dir, round, sink, out)
    } else {
        play_round_logged::<B, false>(variant, t, bots, seating, deal, bot_rngs, dealer, dir, round, sink, out)
    }
}

/// [`play_round`] logging card events: out of line, so that the copy without them is
/// compiled as if this one did not exist.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn play_round_with_cards<B: Bot>(
    variant: &Variant,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    deal: Deal<'_>,
    bot_rngs: &mut SeatRngs,
    dealer: usize,
    dir: i8,
    round: u32,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    play_round_logged::<B, true>(variant, t, bots, seating, deal, bot_rngs, dealer, dir, round, sink, out)
}

/// [`play_round`], logging card events when `LOG_CARDS`.
#[allow(clippy::too_many_arguments)]
fn play_round_logged<B: Bot, const LOG_CARDS: bool>(
    variant: &Variant,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    deal: Deal<'_>,
    bot_rngs: &mut SeatRngs,
    dealer: usize,
    dir: i8,
    round: u32,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    let n = variant.rules.players;
    let pack_size = variant.rules.pack_size;
    t.n = n;
    t.dir = dir;
    t.dealer = dealer;
    t.history.clear();
    t.discarded = CardSet::EMPTY;
    t.pick_no = 0;
    let stacks_before = t.stacks;
    for s in 0..n {
        t.folded[s] = t.stacks[s] == 0;
        t.hands[s] = CardSet::EMPTY;
        t.face_up[s] = CardSet::EMPTY;
        t.seen[s] = CardSet::EMPTY;
        t.left_in[s] = [CardSet::EMPTY; MAX_SEATS];
        t.came_back_len[s] = 0;
        t.packs[s] = CardSet::EMPTY;
        t.last_pick[s] = None;
        t.committed[s] = 0;
        t.street[s] = 0;
        t.fold_round[s] = None;
        t.hated[s] = false;
        t.picks[s] = [PickRecord::default(); MAX_PICKS];
        t.pack_of[s] = s as u8;
        t.face_up_value[s] = HandValue(0);
    }
    t.active = t.folded[..n].iter().filter(|f| !**f).count() as u8;
    t.update_next();
    // Betting order: from the seat after the dealer in the direction of play round to the
    // dealer, stepped rather than taken modulo n (a division per seat).
    let mut seat = dealer;
    for k in 0..n {
        seat = if dir > 0 {
            if seat + 1 == n { 0 } else { seat + 1 }
        } else if seat == 0 {
            n - 1
        } else {
            seat - 1
        };
        t.order[k] = seat as u8;
    }
    t.pot = 0;
    t.chips_total = t.stacks[..n].iter().map(|&s| s as u64).sum();
    sink.event(Event::RoundStart { round, dealer, direction: dir });

    // Antes, then the deal.
    for s in (0..n).filter(|&s| !t.folded[s]) {
        let chips = variant.rules.ante.min(t.stacks[s]);
        t.stacks[s] -= chips;
        t.committed[s] += chips;
        t.pot += chips;
        sink.event(Event::Ante { seat: s, chips });
    }
    let playing = (0..n).filter(|&s| !t.folded[s]).count();
    let packs: [CardSet; MAX_SEATS] = match deal {
        Deal::Shuffle(seed) => {
            if t.last_deal != Some((seed, playing)) {
                // The deck is reset to its sorted order first, so a deal's cards depend on
                // its seed alone.
                t.deck_buf.copy_from_slice(&variant.deck_cards);
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let dealt = partial_shuffle(&mut t.deck_buf, &mut rng, playing * pack_size).0;
                for (pack, cards) in t.last_packs.iter_mut().zip(dealt.chunks_exact(pack_size)) {
                    *pack = cards.iter().copied().collect();
                }
                t.last_deal = Some((seed, playing));
            }
            // The k-th pack dealt goes to the k-th seat still in.
            let mut packs = [CardSet::EMPTY; MAX_SEATS];
            for (s, &pack) in (0..n).filter(|&s| !t.folded[s]).zip(&t.last_packs) {
                packs[s] = pack;
            }
            packs
        }
        Deal::Stacked(stacked) => {
            let mut packs = [CardSet::EMPTY; MAX_SEATS];
            for s in (0..n).filter(|&s| !t.folded[s]) {
                packs[s] = stacked[s];
            }
            packs
        }
    };
    let mut dealt_set = CardSet::EMPTY;
    for s in (0..n).filter(|&s| !t.folded[s]) {
        let pack = packs[s];
        t.packs[s] = pack;
        dealt_set = dealt_set.union(pack);
        sink.event(Event::Deal { seat: s, pack });
    }
    t.undealt = variant.deck.cards.minus(dealt_set);

    for pick in 1..=pack_size {
        t.pick_no = pick;
        if pick > 1 {
            pass_packs(t);
        }
        for s in 0..n {
            if t.folded[s] {
                continue;
            }
            t.seen[s] = t.seen[s].union(t.packs[s]);
            let left = t.left_in[s][t.pack_of[s] as usize];
            if !left.is_empty() {
                // A pack this seat passed before is back: what is gone was taken downstream.
                t.came_back[s][t.came_back_len[s] as usize] = left.minus(t.packs[s]);
                t.came_back_len[s] += 1;
            }
            if t.packs[s].len() == 1 {
                // A forced pick: the bot has no choice to make, so it is not asked.
                t.choices[s] = PickChoice::own(t.packs[s].nth(0).expect("one card"));
                continue;
            }
            let bot = &mut bots[seating[s]];
            let choice = match bot.pick_from_pack(t.packs[s], bot_rngs.seat(s)) {
                Some(choice) => choice,
                None => bot.pick(&t.view(variant, s, None), bot_rngs.seat(s)),
            };
            if !t.packs[s].contains(choice.card) {
                return Err(Error::IllegalAction {
                    bot: bots[seating[s]].name().to_string(),
                    seat: s,
                    action: format!("pick {} of a pack without it ({})", choice.card, t.packs[s]),
                });
            }
            t.choices[s] = choice;
        }
        let face_up = variant.is_face_up(pick);
        for s in (0..n).filter(|&s| !t.folded[s]) {
            let choice = t.choices[s];
            sink.event(Event::Pick {
                seat: s,
                pick,
                choice,
                face_up,
                pack_of: t.pack_of[s] as usize,
                pack: t.packs[s],
            });
            if LOG_CARDS {
                log_pick(&mut out.cards, s, t.packs[s], choice.card, pick);
            }
            t.packs[s].remove(choice.card);
            t.left_in[s][t.pack_of[s] as usize] = t.packs[s];
            t.hands[s].insert(choice.card);
            if face_up {
                t.face_up[s].insert(choice.card);
                let up = t.face_up[s];
                let wilds = variant.rules.wild.wild_cards(up, None);
                t.face_up_value[s] = variant.eval.eval_wild(up.minus(wilds), wilds.len());
            }
            t.picks[s][pick - 1] = PickRecord { card: Some(choice.card), hate: choice.hate, pack_of: t.pack_of[s] };
            out.seats[s].sums[PICKS] += 1;
            out.seats[s].sums[HATE_PICKS] += i64::from(choice.hate);
            t.hated[s] |= choice.hate;
        }
        if pick == pack_size {
            for s in 0..n {
                t.last_pick[s] = t.picks[s][pick - 1].card;
            }
        }
        if t.verify {
            t.check_invariants(variant)?;
        }
        if let Some(b) = variant.betting_round_after(pick) {
            betting_round(variant, t, bots, seating, bot_rngs, b, sink)?;
            if t.verify {
                t.check_invariants(variant)?;
            }
            if t.active_count() == 1 {
                let winner = (0..n).find(|&s| !t.folded[s]).expect("one seat left");
                sink.event(Event::LastStanding { seat: winner });
                let pot = t.pot;
                t.stacks[winner] += pot;
                sink.event(Event::Award { seat: winner, chips: pot, pot: 0 });
                t.committed = [0; MAX_SEATS];
                t.pot = 0;
                out.seats[winner].share_units = SHARE_UNIT;
                return finish(t, &stacks_before, out);
            }
        }
    }
    showdown(variant, t, sink, out)?;
    finish(t, &stacks_before, out)
}

/// Logs a pick for card analytics: the pack the seat chose from, and the card it took.
/// Only the copy of the round that logs cards calls it.
#[inline]
fn log_pick(log: &mut CardLog, seat: usize, pack: CardSet, card: Card, pick: usize) {
    // Card ids are the set's bit indices: the pack goes to the log as it is.
    log.picked_from(seat, pack.0, u16::from(card.index()), pick);
    // Kept as it is taken: a seat that folds later has its hand cleared, yet held the card.
    log.kept(seat, u16::from(card.index()));
}

/// Passes every active seat's pack to the next active seat in the direction of play.
fn pass_packs(t: &mut Table) {
    let n = t.n;
    if t.active as usize == n {
        // Everyone is in: the packs simply turn one seat round (by hand: the slice
        // rotations called `memmove` for a handful of words).
        if t.dir > 0 {
            let (pack, of) = (t.packs[n - 1], t.pack_of[n - 1]);
            for s in (1..n).rev() {
                t.packs[s] = t.packs[s - 1];
                t.pack_of[s] = t.pack_of[s - 1];
            }
            (t.packs[0], t.pack_of[0]) = (pack, of);
        } else {
            let (pack, of) = (t.packs[0], t.pack_of[0]);
            for s in 0..n - 1 {
                t.packs[s] = t.packs[s + 1];
                t.pack_of[s] = t.pack_of[s + 1];
            }
            (t.packs[n - 1], t.pack_of[n - 1]) = (pack, of);
        }
        return;
    }
    let mut packs = [CardSet::EMPTY; MAX_SEATS];
    let mut pack_of = [0u8; MAX_SEATS];
    for s in 0..t.n {
        if !t.folded[s] {
            let to = t.next[s] as usize;
            packs[to] = t.packs[s];
            pack_of[to] = t.pack_of[s];
        }
    }
    t.packs = packs;
    t.pack_of = pack_of;
}

/// The seat that leads a betting round: the best face-up hand (wilds judged on the face-up
/// cards alone), ties to the first in betting order.
fn leader(t: &Table) -> usize {
    let mut best: Option<(HandValue, usize)> = None;
    for s in t.betting_order().filter(|&s| !t.folded[s]) {
        let value = t.face_up_value[s];
        if best.is_none_or(|(b, _)| value > b) {
            best = Some((value, s));
        }
    }
    best.expect("at least two active seats").1
}

fn betting_round<B: Bot>(
    variant: &Variant,
    t: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    bot_rngs: &mut SeatRngs,
    round: usize,
    sink: &mut impl EventSink<Event>,
) -> Result<(), Error> {
    // Seats that can act (in, with chips) as bits; only the seat acting changes them.
    let mut can_act = 0u32;
    for s in 0..t.n {
        can_act |= u32::from(!t.folded[s] && t.stacks[s] > 0) << s;
    }
    if t.active_count() < 2 || can_act.count_ones() < 2 {
        return Ok(());
    }
    t.street = [0; MAX_SEATS];
    let size = variant.rules.bet_sizes[round];
    let cap = variant.rules.raise_cap;
    let lead = leader(t);
    sink.event(Event::BettingStart { round, leader: lead, leader_face_up: t.face_up[lead] });
    let mut current = 0u32;
    let mut raises = 0u32;
    let mut last_raise = size;
    let mut pending = can_act.count_ones();
    let mut seat = lead;
    let mut first = true;
    while pending > 0 && t.active_count() > 1 {
        if !first {
            seat = t.step(seat);
        }
        first = false;
        if can_act & (1 << seat) == 0 {
            continue;
        }
        let stack = t.stacks[seat];
        let to_call = (current - t.street[seat]).min(stack);
        let room = stack - to_call;
        let pot_after_call = t.pot + to_call;
        let (min_raise, max_raise) = match variant.rules.limit {
            Limit::FixedLimit => (size, size),
            Limit::PotLimit => (size.max(last_raise), pot_after_call.max(size.max(last_raise))),
            Limit::NoLimit => (size.max(last_raise), room),
        };
        let options = BetOptions {
            round,
            to_call,
            can_raise: (cap == 0 || raises < cap) && room > 0,
            min_raise: min_raise.min(room),
            max_raise: max_raise.min(room),
            raises,
        };
        let bot = &mut bots[seating[seat]];
        let action = match bot.bet_from_options(options, bot_rngs.seat(seat)) {
            Some(action) => action,
            None => bot.bet(&t.view(variant, seat, Some(options)), bot_rngs.seat(seat)),
        };
        if !options.allows(action, stack) {
            return Err(Error::IllegalAction {
                bot: bots[seating[seat]].name().to_string(),
                seat,
                action: format!("{action} (to call {to_call}, stack {stack}, raise {min_raise}..={max_raise})"),
            });
        }
        let paid = match action {
            Action::Fold => {
                t.folded[seat] = true;
                t.active -= 1;
                t.fold_round[seat] = Some(round as u8);
                // The folded seat's pack leaves play.
                t.discarded = t.discarded.union(t.packs[seat]).union(t.hands[seat]);
                t.packs[seat] = CardSet::EMPTY;
                t.hands[seat] = CardSet::EMPTY;
                t.update_next();
                pending -= 1;
                0
            }
            Action::Check => {
                pending -= 1;
                0
            }
            Action::Call => {
                pending -= 1;
                to_call
            }
            Action::Raise(by) => {
                raises += 1;
                last_raise = last_raise.max(by);
                to_call + by
            }
        };
        t.stacks[seat] -= paid;
        t.street[seat] += paid;
        t.committed[seat] += paid;
        t.pot += paid;
        if t.folded[seat] || t.stacks[seat] == 0 {
            can_act &= !(1 << seat);
        }
        if let Action::Raise(_) = action {
            current = t.street[seat];
            pending = (can_act & !(1 << seat)).count_ones();
        }
        let public = PublicAction { betting_round: round as u8, seat: seat as u8, action, paid };
        t.history.push(public);
        sink.event(Event::Act { action: public, all_in: t.stacks[seat] == 0 && !t.folded[seat] });
    }
    Ok(())
}

/// Splits the pots among the best hands, side pots included.
fn showdown(
    variant: &Variant,
    t: &mut Table,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    let n = t.n;
    let mut values = [HandValue(0); MAX_SEATS];
    let mut wild_count = [0u32; MAX_SEATS];
    // Every hand ranked first, the tallies after: a hand's table look-up often misses the
    // cache, and with no branch on its result in between the look-ups overlap.
    let mut wild_sets = [CardSet::EMPTY; MAX_SEATS];
    for s in (0..n).filter(|&s| !t.folded[s]) {
        let hand = t.hands[s];
        let wilds = variant.rules.wild.wild_cards(hand, t.last_pick[s]);
        values[s] = variant.eval.eval_wild(hand.minus(wilds), wilds.len());
        wild_sets[s] = wilds;
    }
    for s in (0..n).filter(|&s| !t.folded[s]) {
        let (hand, wilds) = (t.hands[s], wild_sets[s]);
        wild_count[s] = wilds.len();
        out.seats[s].count(SHOWDOWNS);
        out.seats[s].observe(FINISHED, values[s].category() as usize);
        sink.event(Event::Show { seat: s, hand, wilds, last_pick: t.last_pick[s] });
    }
    let order = t.order;
    refund_uncalled(t, sink);
    let total_pot: u32 = t.committed[..n].iter().sum();
    let mut won = [0u32; MAX_SEATS];
    let mut units = [0u32; MAX_SEATS];
    let mut units_left = SHARE_UNIT;
    let mut prev = 0u32;
    let mut carry = 0u32;
    let mut pot_index = 0;
    let mut last_winner = None;
    while let Some(level) = (0..n).map(|s| t.committed[s]).filter(|&c| c > prev).min() {
        let amount: u32 = (0..n).map(|s| t.committed[s].min(level) - t.committed[s].min(prev)).sum::<u32>() + carry;
        let eligible = |s: usize| !t.folded[s] && t.committed[s] >= level;
        prev = level;
        let Some(best) = (0..n).filter(|&s| eligible(s)).map(|s| values[s]).max() else {
            // Chips of folded seats above every live seat's stake join the next pot.
            carry = amount;
            continue;
        };
        carry = 0;
        let is_winner = |s: usize| eligible(s) && values[s] == best;
        let k = (0..n).filter(|&s| is_winner(s)).count() as u32;
        // One pot (the usual case) carries every share unit: no division.
        let pot_units = if amount == total_pot {
            SHARE_UNIT
        } else {
            (amount as u64 * SHARE_UNIT as u64 / total_pot as u64) as u32
        }
        .min(units_left);
        units_left -= pot_units;
        // Odd chips (and odd share units) go to the winners first in betting order.
        for (i, s) in order[..n].iter().map(|&s| s as usize).filter(|&s| is_winner(s)).enumerate() {
            let chips = split(amount, k, i);
            won[s] += chips;
            units[s] += split(pot_units, k, i);
            if i == 0 {
                last_winner = Some(s);
            }
            sink.event(Event::Award { seat: s, chips, pot: pot_index });
        }
        pot_index += 1;
    }
    // Rounding leftovers of the shares go to the last pot's first winner.
    if let Some(s) = last_winner {
        won[s] += carry;
        units[s] += units_left;
    }
    // With no ante and no bet the pot is empty: the best hands still win the round.
    if total_pot == 0 {
        let best = (0..n).filter(|&s| !t.folded[s]).map(|s| values[s]).max().expect("a showdown has players");
        let k = (0..n).filter(|&s| !t.folded[s] && values[s] == best).count() as u32;
        for (i, s) in order[..n].iter().map(|&s| s as usize).filter(|&s| !t.folded[s] && values[s] == best).enumerate()
        {
            units[s] = SHARE_UNIT / k + u32::from((i as u32) < SHARE_UNIT % k);
        }
    }
    for s in 0..n {
        t.stacks[s] += won[s];
        let r = &mut out.seats[s];
        if won[s] > 0 || (total_pot == 0 && units[s] > 0) {
            r.count(SHOWDOWN_WINS);
            r.observe(WINNING, values[s].category() as usize);
            if wild_count[s] > 0 {
                r.count(WILD_WINS);
            }
        }
        r.share_units = units[s];
    }
    t.committed = [0; MAX_SEATS];
    t.pot = 0;
    Ok(())
}

/// The `i`-th of `k` winners' part of `amount`: an equal part, plus one of the odd units
/// for the first winners. One winner (the usual case) takes it all without a division.
#[inline]
fn split(amount: u32, k: u32, i: usize) -> u32 {
    if k == 1 { amount } else { amount / k + u32::from((i as u32) < amount % k) }
}

/// Returns the chips of the one seat whose stake nobody matched (the part above the
/// second-highest stake): they were never contested.
fn refund_uncalled(t: &mut Table, sink: &mut impl EventSink<Event>) {
    let n = t.n;
    let top = *t.committed[..n].iter().max().expect("players");
    let at_top = (0..n).filter(|&s| t.committed[s] == top).count();
    if at_top == 1 {
        let s = (0..n).find(|&s| t.committed[s] == top).expect("the top seat");
        let second = (0..n).filter(|&x| x != s).map(|x| t.committed[x]).max().unwrap_or(0);
        let chips = top - second;
        t.committed[s] -= chips;
        t.pot -= chips;
        t.stacks[s] += chips;
        sink.event(Event::Refund { seat: s, chips });
    }
}

/// Writes each seat's net chips, folds and hate rounds into `out`.
fn finish(t: &Table, stacks_before: &[u32; MAX_SEATS], out: &mut RoundResult) -> Result<(), Error> {
    let n = t.n;
    if t.verify {
        let chips = t.stacks[..n].iter().map(|&s| s as u64).sum::<u64>();
        if chips != t.chips_total {
            return Err(Error::Invariant(format!(
                "chips not conserved over the round: {chips} at the end, {} at the start",
                t.chips_total
            )));
        }
    }
    for (s, r) in out.seats[..n].iter_mut().enumerate() {
        let net = t.stacks[s] as i64 - stacks_before[s] as i64;
        r.score = net;
        if let Some(b) = t.fold_round[s] {
            r.count(FOLDS + b as usize);
        }
        if t.hated[s] {
            r.count(HATE_ROUNDS);
            r.sums[HATE_ROUNDS_NET] += net;
        }
    }
    Ok(())
}
