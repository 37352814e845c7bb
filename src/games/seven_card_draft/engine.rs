//! The Seven Card Draft engine: the forward model of a round (or, in game mode, a whole
//! game) as a state machine. Each state says whose decision it is (a pick or a bet);
//! [`Table::step`] applies it and runs everything up to the next decision (reveals,
//! passes, betting-order choices, showdowns, the next round's deal), drawing the deal from
//! the deal seed alone.
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
//! - Simultaneous picks are asked seat by seat (seat 0 first); no seat sees another's
//!   choice until every seat has picked.

use crate::cards::shuffle::partial_shuffle;
use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::bots::ModularBot;
use super::measures::{
    FINISHED, FOLDS, HATE_PICKS, HATE_ROUNDS, HATE_ROUNDS_NET, PICKS, SHOWDOWN_WINS, SHOWDOWNS, WILD_WINS, WINNING,
};
use super::rules::{Limit, Mode, Variant};
use super::view::{Action, BetOptions, Bot, BotRng, PackMemory, PickChoice, PublicAction, SeatView};
use crate::cards::{Card, CardSet};
use crate::error::Error;
use crate::eval::HandValue;
use crate::search::{Forward, Scratch, SearchNote, SeatBot, drive};
pub use crate::sim::NoEvents;
use crate::sim::{CardLog, EventSink, MAX_SEATS, RoundResult, SHARE_UNIT, SeatRngs, mix_seed};

/// Stream tag of a game-mode round's deal seed.
const ROUND_STREAM: u64 = 0x5CD_0001;

/// Most picks in a round (the largest pack).
pub const MAX_PICKS: usize = 7;

/// No card (a face-down pick in [`Public::shown`], no holder in a pack's history).
const NONE: u8 = u8::MAX;

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
    /// The search bot chose a move.
    Search(SearchNote),
}

impl From<SearchNote> for Event {
    fn from(note: SearchNote) -> Event {
        Event::Search(note)
    }
}

/// Where the unit stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// The seat picks a card from the pack it holds.
    Pick(u8),
    /// The seat bets.
    Bet(u8),
    /// The unit is over.
    #[default]
    Over,
}

/// A decision: a card taken from the pack, or a betting action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// A pick.
    Pick(PickChoice),
    /// A betting action.
    Bet(Action),
}

/// The betting round in progress (all public).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Betting {
    /// Betting round (0-based).
    pub round: u8,
    /// The bet each seat must match this betting round.
    pub current: u32,
    /// Raises so far (the opening bet included).
    pub raises: u32,
    /// The largest raise so far (the minimum for the next one under pot and no limit).
    pub last_raise: u32,
    /// Seats still to act before the betting closes.
    pub pending: u32,
    /// Seats that can still act (in, with chips), as bits.
    pub can_act: u32,
}

/// Everything every seat sees: chips, folds, face-up cards, where each pack is, whose turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Public {
    /// Seats at the table.
    pub players: usize,
    /// +1 when packs and betting go to the left, -1 to the right.
    pub dir: i8,
    /// The dealer.
    pub dealer: usize,
    /// The round within the game (0 in round mode).
    pub round: u32,
    /// The pick being made, or the last one made while betting (1-based).
    pub pick: usize,
    /// Whose decision it is.
    pub phase: Phase,
    /// Seats out of the round (folded, or sitting out with no chips).
    pub folded: [bool; MAX_SEATS],
    /// The betting round each seat folded in.
    pub fold_round: [Option<u8>; MAX_SEATS],
    /// Seats not folded.
    pub active: u8,
    /// Every seat's stack.
    pub stacks: [u32; MAX_SEATS],
    /// Chips each seat has put in this round.
    pub committed: [u32; MAX_SEATS],
    /// Chips each seat has put in this betting round.
    pub street: [u32; MAX_SEATS],
    /// Chips in the pot (the sum of `committed`).
    pub pot: u32,
    /// Every seat's face-up cards.
    pub face_up: [CardSet; MAX_SEATS],
    /// Per seat and pick: the card turned face up ([`NONE`] for a face-down pick).
    pub shown: [[u8; MAX_PICKS]; MAX_SEATS],
    /// Per seat: the pack it holds now, by the seat it was dealt to.
    pub pack_of: [u8; MAX_SEATS],
    /// Per pick: `pack_of` at that pick (the passes are public).
    pub held: [[u8; MAX_SEATS]; MAX_PICKS],
    /// Stacks at the round's start (before the antes).
    pub round_stacks: [u32; MAX_SEATS],
    /// Rounds each seat has been dealt into this game.
    pub dealt_in: [u32; MAX_SEATS],
    /// Chips in play at the round's start, for the conservation check.
    pub chips_total: u64,
    /// The betting round in progress.
    pub betting: Betting,
}

/// What one seat has seen: everything public, its own picks and the packs it has held.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Observation {
    /// The seat.
    pub seat: usize,
    /// Everything public.
    pub public: Public,
    /// The round's betting actions.
    pub history: Vec<PublicAction>,
    /// Its hand.
    pub hand: CardSet,
    /// The pack it holds (what it left in it, while betting).
    pub pack: CardSet,
    /// Every card it has seen in the packs it held this round.
    pub seen: CardSet,
    /// Per pick: the pack it held, before picking.
    pub pack_seen: [CardSet; MAX_PICKS],
    /// Its picks this round.
    pub took: [PickRecord; MAX_PICKS],
    /// Per pack: what it left in it when it last passed it.
    pub left_in: [CardSet; MAX_SEATS],
    /// For each pack that came back: the cards taken from it downstream.
    pub came_back: [CardSet; MAX_PICKS],
    /// How many packs came back.
    pub came_back_len: u8,
    /// Its final pick, once made.
    pub last_pick: Option<Card>,
    /// Whether it made a hate pick this round.
    pub hated: bool,
    /// Its choice at the pick in progress, once made (the others cannot see it yet).
    pub chosen: Option<PickChoice>,
}

/// The state of one unit: the forward model of Seven Card Draft (reused between units).
#[derive(Clone, Debug)]
pub struct Table {
    public: Public,
    history: Vec<PublicAction>,
    packs: [CardSet; MAX_SEATS],
    hands: [CardSet; MAX_SEATS],
    seen: [CardSet; MAX_SEATS],
    /// Per seat: the pack it held at each pick, before picking.
    pack_seen: [[CardSet; MAX_PICKS]; MAX_SEATS],
    /// Per seat and pack (by the seat it was dealt to): the cards the seat left in it when
    /// it last passed it.
    left_in: [[CardSet; MAX_SEATS]; MAX_SEATS],
    /// Per seat: for each pack that came back to it, the cards gone from it since it was
    /// passed (taken by the seats downstream), and how many such returns.
    came_back: [[CardSet; MAX_PICKS]; MAX_SEATS],
    came_back_len: [u8; MAX_SEATS],
    last_pick: [Option<Card>; MAX_SEATS],
    /// Whether the seat made a hate pick this round.
    hated: [bool; MAX_SEATS],
    picks: [[PickRecord; MAX_PICKS]; MAX_SEATS],
    /// The choices made at the pick in progress.
    choices: [PickChoice; MAX_SEATS],
    discarded: CardSet,
    undealt: CardSet,
    /// Each seat's face-up hand value, updated when a card is turned up (leads the betting).
    face_up_value: [HandValue; MAX_SEATS],
    /// The next active seat in the direction of play, updated when someone folds.
    next: [u8; MAX_SEATS],
    /// Seats in betting order: from the seat after the dealer round to the dealer.
    order: [u8; MAX_SEATS],
    /// The unit's deal seed (game mode draws each round's from it).
    deal_seed: u64,
    /// Packs for a stacked deal, used instead of a shuffle when `stacked`.
    stacked_packs: [CardSet; MAX_SEATS],
    stacked: bool,
    deck_buf: Vec<Card>,
    /// The last shuffled deal's seed and card count, and its packs in deal order: every
    /// rotation of a deal has its seed, so only the first one shuffles.
    last_deal: Option<(u64, usize)>,
    last_packs: [CardSet; MAX_SEATS],
    /// Check chips and card places after every step, in any build (tests turn it on).
    verify: bool,
}

impl Default for Table {
    fn default() -> Table {
        Table {
            public: Public::default(),
            history: Vec::with_capacity(64),
            packs: [CardSet::EMPTY; MAX_SEATS],
            hands: [CardSet::EMPTY; MAX_SEATS],
            seen: [CardSet::EMPTY; MAX_SEATS],
            pack_seen: [[CardSet::EMPTY; MAX_PICKS]; MAX_SEATS],
            left_in: [[CardSet::EMPTY; MAX_SEATS]; MAX_SEATS],
            came_back: [[CardSet::EMPTY; MAX_PICKS]; MAX_SEATS],
            came_back_len: [0; MAX_SEATS],
            last_pick: [None; MAX_SEATS],
            hated: [false; MAX_SEATS],
            picks: [[PickRecord::default(); MAX_PICKS]; MAX_SEATS],
            choices: [PickChoice::own(Card::from_index(0)); MAX_SEATS],
            discarded: CardSet::EMPTY,
            undealt: CardSet::EMPTY,
            face_up_value: [HandValue(0); MAX_SEATS],
            next: [0; MAX_SEATS],
            order: [0; MAX_SEATS],
            deal_seed: 0,
            stacked_packs: [CardSet::EMPTY; MAX_SEATS],
            stacked: false,
            deck_buf: Vec::new(),
            last_deal: None,
            last_packs: [CardSet::EMPTY; MAX_SEATS],
            verify: cfg!(debug_assertions),
        }
    }
}

impl Table {
    /// A table for this variant.
    pub fn new(variant: &Variant) -> Table {
        Table { deck_buf: variant.deck_cards.clone(), ..Table::default() }
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
        &self.picks[seat][..self.public.pick]
    }

    /// The public part of the state.
    pub fn public(&self) -> &Public {
        &self.public
    }

    /// Seat `s`'s hand.
    pub fn hand(&self, s: usize) -> CardSet {
        self.hands[s]
    }

    fn view<'a>(&'a self, variant: &'a Variant, seat: usize, betting: Option<BetOptions>) -> SeatView<'a> {
        let p = &self.public;
        let n = p.players;
        SeatView {
            variant,
            seat,
            players: n,
            direction: p.dir,
            pick: p.pick,
            hand: self.hands[seat],
            own_face_up: p.face_up[seat],
            last_pick: self.last_pick[seat],
            face_up: &p.face_up[..n],
            folded: &p.folded[..n],
            pack: if betting.is_some() { CardSet::EMPTY } else { self.packs[seat] },
            seen: self.seen[seat],
            memory: PackMemory {
                left_in: &self.left_in[seat][..n],
                came_back: &self.came_back[seat][..self.came_back_len[seat] as usize],
                pack_of: &p.pack_of[..n],
            },
            pot: p.pot,
            stacks: &p.stacks[..n],
            committed: &p.committed[..n],
            betting,
            history: &self.history,
        }
    }

    fn next_seat(&self, seat: usize, skip: impl Fn(usize) -> bool) -> usize {
        let mut s = seat;
        loop {
            s = self.turn(s);
            if !skip(s) || s == seat {
                return s;
            }
        }
    }

    /// The seat one step round the table in the direction of play (no division).
    #[inline]
    fn turn(&self, seat: usize) -> usize {
        let n = self.public.players;
        if self.public.dir > 0 {
            if seat + 1 == n { 0 } else { seat + 1 }
        } else if seat == 0 {
            n - 1
        } else {
            seat - 1
        }
    }

    /// Recomputes who passes to whom after the set of active seats changed.
    fn update_next(&mut self) {
        for s in 0..self.public.players {
            self.next[s] = self.next_seat(s, |x| self.public.folded[x]) as u8;
        }
    }

    /// Betting order: from the seat after the dealer in the direction of play round to the
    /// dealer, stepped rather than taken modulo n (a division per seat).
    fn set_order(&mut self) {
        let n = self.public.players;
        let mut seat = self.public.dealer;
        for k in 0..n {
            seat = if self.public.dir > 0 {
                if seat + 1 == n { 0 } else { seat + 1 }
            } else if seat == 0 {
                n - 1
            } else {
                seat - 1
            };
            self.order[k] = seat as u8;
        }
    }

    /// Seats in betting order: from the seat after the dealer round to the dealer.
    fn betting_order(&self) -> impl Iterator<Item = usize> + '_ {
        self.order[..self.public.players].iter().map(|&s| s as usize)
    }

    /// The value of a seat's face-up cards (wilds judged on them alone).
    fn face_up_value_of(variant: &Variant, up: CardSet) -> HandValue {
        let wilds = variant.rules.wild.wild_cards(up, None);
        variant.eval.eval_wild(up.minus(wilds), wilds.len())
    }

    /// Checks that chips are conserved and every card is in exactly one place.
    #[cold]
    #[inline(never)]
    fn check_invariants(&self, variant: &Variant) -> Result<(), Error> {
        let broken = |what: String| Err(Error::Invariant(what));
        let p = &self.public;
        let n = p.players;
        let chips: u64 = (0..n).map(|s| p.stacks[s] as u64 + p.committed[s] as u64).sum();
        if chips != p.chips_total {
            return broken(format!("chips not conserved: {chips} in play, {} at the start", p.chips_total));
        }
        if p.pot != p.committed[..n].iter().sum::<u32>() {
            return broken(format!("the pot ({}) is out of step with the stakes", p.pot));
        }
        let mut seen = self.discarded.0 & self.undealt.0;
        let mut all = self.discarded.union(self.undealt);
        for s in 0..n {
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
        if p.active as usize != p.folded[..n].iter().filter(|f| !**f).count() {
            return broken(format!("{} seats counted active, {:?} folded", p.active, &p.folded[..n]));
        }
        for s in (0..n).filter(|&s| !p.folded[s]) {
            if !p.face_up[s].minus(self.hands[s]).is_empty() {
                return broken(format!("seat {s} shows cards it does not hold"));
            }
        }
        Ok(())
    }

    /// Starts a unit (a round, or a game in game mode) on the deal seed, up to the first
    /// decision. `deal_index` is the unit's deal in the run: round mode passes left on
    /// even deals, so each passing direction sees every seating of a deal.
    pub fn reset(
        &mut self,
        variant: &Variant,
        deal_seed: u64,
        deal_index: u64,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        self.stacked = false;
        self.start_unit(variant, deal_seed, None, deal_index, sink, out)
    }

    /// Starts one round on packs given seat by seat (a stacked deck) and these stacks.
    pub fn reset_stacked(
        &mut self,
        variant: &Variant,
        packs: &[CardSet],
        stacks: &[u32],
        deal_index: u64,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let n = variant.rules.players;
        assert!(
            packs.len() == n && packs.iter().all(|p| p.len() as usize == variant.rules.pack_size),
            "one full pack per seat"
        );
        self.stacked_packs[..n].copy_from_slice(packs);
        self.stacked = true;
        self.start_unit(variant, 0, Some(stacks), deal_index, sink, out)
    }

    fn start_unit(
        &mut self,
        variant: &Variant,
        deal_seed: u64,
        stacks: Option<&[u32]>,
        deal_index: u64,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let n = variant.rules.players;
        if self.deck_buf.len() != variant.deck_cards.len() {
            self.deck_buf.clear();
            self.deck_buf.extend_from_slice(&variant.deck_cards);
        }
        self.deal_seed = deal_seed;
        let p = &mut self.public;
        p.players = n;
        p.stacks = [0; MAX_SEATS];
        match stacks {
            Some(stacks) => p.stacks[..n].copy_from_slice(stacks),
            None => p.stacks[..n].fill(variant.rules.starting_stack),
        }
        p.dealer = 0;
        p.round = 0;
        p.dealt_in = [0; MAX_SEATS];
        match variant.rules.mode {
            Mode::Round => {
                let dir = if deal_index.is_multiple_of(2) { 1 } else { -1 };
                self.start_round(variant, dir, sink, out)
            }
            Mode::Game => self.next_game_round(variant, sink, out),
        }
    }

    /// In game mode: deals the next round while more than one player has chips (and the
    /// round limit is not reached), else ends the game.
    fn next_game_round(
        &mut self,
        variant: &Variant,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let n = variant.rules.players;
        let p = &mut self.public;
        if p.stacks[..n].iter().filter(|&&s| s > 0).count() > 1 && p.round < variant.rules.max_rounds_per_game {
            let dir = if p.round.is_multiple_of(2) { 1 } else { -1 };
            for s in 0..n {
                p.dealt_in[s] += u32::from(p.stacks[s] > 0);
            }
            return self.start_round(variant, dir, sink, out);
        }
        // The game goes to the player holding every chip (or, at the round limit, the
        // biggest stack, shared on a tie).
        let start = variant.rules.starting_stack;
        // More than one stack left: the round limit ended the game.
        out.health.capped = p.stacks[..n].iter().filter(|&&s| s > 0).count() > 1;
        let best = *p.stacks[..n].iter().max().expect("players");
        let leaders = p.stacks[..n].iter().filter(|&&s| s == best).count() as u32;
        for (s, (r, &stack)) in out.seats.iter_mut().zip(&p.stacks[..n]).enumerate() {
            r.score = stack as i64 - start as i64;
            r.share_units = if stack == best { SHARE_UNIT / leaders } else { 0 };
            r.rounds = p.dealt_in[s];
        }
        out.length = p.round;
        p.phase = Phase::Over;
        Ok(())
    }

    /// Antes and deals a round on the stacks in play (seats with no chips sit out), then
    /// plays up to its first decision.
    fn start_round(
        &mut self,
        variant: &Variant,
        dir: i8,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let n = variant.rules.players;
        let pack_size = variant.rules.pack_size;
        let p = &mut self.public;
        p.dir = dir;
        p.pick = 0;
        p.round_stacks = p.stacks;
        p.held = [[NONE; MAX_SEATS]; MAX_PICKS];
        self.history.clear();
        self.discarded = CardSet::EMPTY;
        for s in 0..n {
            p.folded[s] = p.stacks[s] == 0;
            p.face_up[s] = CardSet::EMPTY;
            p.shown[s] = [NONE; MAX_PICKS];
            p.committed[s] = 0;
            p.street[s] = 0;
            p.fold_round[s] = None;
            p.pack_of[s] = s as u8;
            self.hands[s] = CardSet::EMPTY;
            self.seen[s] = CardSet::EMPTY;
            self.pack_seen[s] = [CardSet::EMPTY; MAX_PICKS];
            self.left_in[s] = [CardSet::EMPTY; MAX_SEATS];
            self.came_back_len[s] = 0;
            self.packs[s] = CardSet::EMPTY;
            self.last_pick[s] = None;
            self.hated[s] = false;
            self.picks[s] = [PickRecord::default(); MAX_PICKS];
            self.face_up_value[s] = HandValue(0);
        }
        p.active = p.folded[..n].iter().filter(|f| !**f).count() as u8;
        p.pot = 0;
        p.chips_total = p.stacks[..n].iter().map(|&s| s as u64).sum();
        let (round, dealer) = (p.round, p.dealer);
        self.update_next();
        self.set_order();
        sink.event(Event::RoundStart { round, dealer, direction: dir });

        // Antes, then the deal.
        let p = &mut self.public;
        for s in (0..n).filter(|&s| !p.folded[s]) {
            let chips = variant.rules.ante.min(p.stacks[s]);
            p.stacks[s] -= chips;
            p.committed[s] += chips;
            p.pot += chips;
            sink.event(Event::Ante { seat: s, chips });
        }
        let playing = p.active as usize;
        let mut packs = [CardSet::EMPTY; MAX_SEATS];
        if self.stacked {
            for s in (0..n).filter(|&s| !self.public.folded[s]) {
                packs[s] = self.stacked_packs[s];
            }
        } else {
            let seed = match variant.rules.mode {
                Mode::Round => self.deal_seed,
                Mode::Game => mix_seed(self.deal_seed, u64::from(round), ROUND_STREAM),
            };
            if self.last_deal != Some((seed, playing)) {
                // The deck is reset to its sorted order first, so a deal's cards depend on
                // its seed alone.
                self.deck_buf.copy_from_slice(&variant.deck_cards);
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let dealt = partial_shuffle(&mut self.deck_buf, &mut rng, playing * pack_size).0;
                for (pack, cards) in self.last_packs.iter_mut().zip(dealt.chunks_exact(pack_size)) {
                    *pack = cards.iter().copied().collect();
                }
                self.last_deal = Some((seed, playing));
            }
            // The k-th pack dealt goes to the k-th seat still in.
            for (s, &pack) in (0..n).filter(|&s| !self.public.folded[s]).zip(&self.last_packs) {
                packs[s] = pack;
            }
        }
        let mut dealt_set = CardSet::EMPTY;
        for s in (0..n).filter(|&s| !self.public.folded[s]) {
            let pack = packs[s];
            self.packs[s] = pack;
            dealt_set = dealt_set.union(pack);
            sink.event(Event::Deal { seat: s, pack });
        }
        self.undealt = variant.deck.cards.minus(dealt_set);
        self.begin_pick(1);
        self.seek_picker(variant, 0, sink, out)
    }

    /// Passes the packs (after the first pick) and lets every seat look at the one it gets.
    #[inline(always)]
    fn begin_pick(&mut self, pick: usize) {
        self.public.pick = pick;
        if pick > 1 {
            pass_packs(self);
        }
        let n = self.public.players;
        self.public.held[pick - 1] = self.public.pack_of;
        for s in 0..n {
            if self.public.folded[s] {
                continue;
            }
            let pack = self.packs[s];
            self.seen[s] = self.seen[s].union(pack);
            self.pack_seen[s][pick - 1] = pack;
            let left = self.left_in[s][self.public.pack_of[s] as usize];
            if !left.is_empty() {
                // A pack this seat passed before is back: what is gone was taken downstream.
                self.came_back[s][self.came_back_len[s] as usize] = left.minus(pack);
                self.came_back_len[s] += 1;
            }
            if pack.len() == 1 {
                // A forced pick: the bot has no choice to make, so it is not asked.
                self.choices[s] = PickChoice::own(pack.nth(0).expect("one card"));
            }
        }
    }

    /// The next seat from `from` (in seat order) with a choice to make at this pick; once
    /// every seat has chosen, the picks are revealed and play goes on to the next decision.
    #[inline(always)]
    fn seek_picker(
        &mut self,
        variant: &Variant,
        mut from: usize,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        loop {
            let n = self.public.players;
            for s in from..n {
                if !self.public.folded[s] && self.packs[s].len() > 1 {
                    self.public.phase = Phase::Pick(s as u8);
                    return Ok(());
                }
            }
            self.reveal_picks(variant, sink, out)?;
            let bet = variant.betting_round_after(self.public.pick);
            if let Some(b) = bet
                && self.start_betting(variant, b, sink)
            {
                return Ok(());
            }
            if self.close_pick(variant, bet.is_some(), sink, out)? {
                return Ok(());
            }
            from = 0;
        }
    }

    /// Every seat's choice at this pick goes into its hand (face up at a face-up pick).
    #[inline(always)]
    fn reveal_picks(
        &mut self,
        variant: &Variant,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let n = self.public.players;
        let pick = self.public.pick;
        let face_up = variant.is_face_up(pick);
        let log_cards = out.cards.on();
        for s in 0..n {
            if self.public.folded[s] {
                continue;
            }
            let choice = self.choices[s];
            let pack_of = self.public.pack_of[s];
            sink.event(Event::Pick { seat: s, pick, choice, face_up, pack_of: pack_of as usize, pack: self.packs[s] });
            if log_cards {
                log_pick(&mut out.cards, s, self.packs[s], choice.card, pick);
            }
            self.packs[s].remove(choice.card);
            self.left_in[s][pack_of as usize] = self.packs[s];
            self.hands[s].insert(choice.card);
            if face_up {
                let p = &mut self.public;
                p.face_up[s].insert(choice.card);
                p.shown[s][pick - 1] = choice.card.index();
                self.face_up_value[s] = Table::face_up_value_of(variant, p.face_up[s]);
            }
            self.picks[s][pick - 1] = PickRecord { card: Some(choice.card), hate: choice.hate, pack_of };
            out.seats[s].sums[PICKS] += 1;
            out.seats[s].sums[HATE_PICKS] += i64::from(choice.hate);
            self.hated[s] |= choice.hate;
        }
        if pick == variant.rules.pack_size {
            for s in 0..n {
                self.last_pick[s] = self.picks[s][pick - 1].card;
            }
        }
        if self.verify {
            self.check_invariants(variant)?;
        }
        Ok(())
    }

    /// After a pick and its betting round (`betting`: the rules have one after it, played
    /// or not): the round ends with one player left or after the last pick, else the next
    /// pick begins. Returns whether the round ended.
    fn close_pick(
        &mut self,
        variant: &Variant,
        betting: bool,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<bool, Error> {
        let n = self.public.players;
        if betting {
            if self.verify {
                self.check_invariants(variant)?;
            }
            if self.public.active == 1 {
                let p = &mut self.public;
                let winner = (0..n).find(|&s| !p.folded[s]).expect("one seat left");
                sink.event(Event::LastStanding { seat: winner });
                let pot = p.pot;
                p.stacks[winner] += pot;
                sink.event(Event::Award { seat: winner, chips: pot, pot: 0 });
                p.committed = [0; MAX_SEATS];
                p.pot = 0;
                out.seats[winner].share_units = SHARE_UNIT;
                self.end_round(variant, sink, out)?;
                return Ok(true);
            }
        }
        if self.public.pick == variant.rules.pack_size {
            showdown(variant, self, sink, out)?;
            self.end_round(variant, sink, out)?;
            return Ok(true);
        }
        self.begin_pick(self.public.pick + 1);
        Ok(false)
    }

    /// Scores the round; in game mode the deal moves on and the next round begins.
    fn end_round(
        &mut self,
        variant: &Variant,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        finish(self, out)?;
        match variant.rules.mode {
            Mode::Round => {
                out.length = 1;
                self.public.phase = Phase::Over;
                Ok(())
            }
            Mode::Game => {
                let n = variant.rules.players;
                let p = &mut self.public;
                p.round += 1;
                // The deal moves one seat to the left, to a seat that still has chips.
                let dealer = p.dealer;
                p.dealer = (1..n).map(|k| (dealer + k) % n).find(|&s| p.stacks[s] > 0).unwrap_or(dealer);
                self.next_game_round(variant, sink, out)
            }
        }
    }

    /// Starts betting round `round` if at least two seats can act; returns whether a seat
    /// now bets.
    fn start_betting(&mut self, variant: &Variant, round: usize, sink: &mut impl EventSink<Event>) -> bool {
        let p = &mut self.public;
        let n = p.players;
        // Seats that can act (in, with chips) as bits; only the seat acting changes them.
        let mut can_act = 0u32;
        for s in 0..n {
            can_act |= u32::from(!p.folded[s] && p.stacks[s] > 0) << s;
        }
        if p.active < 2 || can_act.count_ones() < 2 {
            return false;
        }
        p.street = [0; MAX_SEATS];
        let size = variant.rules.bet_sizes[round];
        let lead = leader(self);
        let p = &mut self.public;
        sink.event(Event::BettingStart { round, leader: lead, leader_face_up: p.face_up[lead] });
        p.betting = Betting {
            round: round as u8,
            current: 0,
            raises: 0,
            last_raise: size,
            pending: can_act.count_ones(),
            can_act,
        };
        let mut seat = lead;
        while can_act & (1 << seat) == 0 {
            seat = self.turn(seat);
        }
        self.public.phase = Phase::Bet(seat as u8);
        true
    }

    /// The betting facts of `seat`, the seat to bet.
    #[inline(always)]
    fn bet_options(&self, variant: &Variant, seat: usize) -> BetOptions {
        let p = &self.public;
        let b = &p.betting;
        let size = variant.rules.bet_sizes[b.round as usize];
        let stack = p.stacks[seat];
        let to_call = (b.current - p.street[seat]).min(stack);
        let room = stack - to_call;
        let pot_after_call = p.pot + to_call;
        let (min_raise, max_raise) = match variant.rules.limit {
            Limit::FixedLimit => (size, size),
            Limit::PotLimit => (size.max(b.last_raise), pot_after_call.max(size.max(b.last_raise))),
            Limit::NoLimit => (size.max(b.last_raise), room),
        };
        let cap = variant.rules.raise_cap;
        BetOptions {
            round: b.round as usize,
            to_call,
            can_raise: (cap == 0 || b.raises < cap) && room > 0,
            min_raise: min_raise.min(room),
            max_raise: max_raise.min(room),
            raises: b.raises,
        }
    }

    /// Asks `bot` for the decision of the seat to move, from its view; a choice the rules
    /// do not allow is [`Error::IllegalAction`].
    #[inline(always)]
    pub fn ask_bot<B: Bot + ?Sized>(&self, variant: &Variant, bot: &mut B, rng: &mut BotRng) -> Result<Move, Error> {
        match self.public.phase {
            Phase::Pick(s) => {
                let s = s as usize;
                let choice = match bot.pick_from_pack(self.packs[s], rng) {
                    Some(choice) => choice,
                    None => bot.pick(&self.view(variant, s, None), rng),
                };
                if !self.packs[s].contains(choice.card) {
                    return Err(Error::IllegalAction {
                        bot: bot.name().to_string(),
                        seat: s,
                        action: format!("pick {} of a pack without it ({})", choice.card, self.packs[s]),
                    });
                }
                Ok(Move::Pick(choice))
            }
            Phase::Bet(s) => {
                let s = s as usize;
                let options = self.bet_options(variant, s);
                let action = match bot.bet_from_options(options, rng) {
                    Some(action) => action,
                    None => bot.bet(&self.view(variant, s, Some(options)), rng),
                };
                let stack = self.public.stacks[s];
                if !options.allows(action, stack) {
                    return Err(Error::IllegalAction {
                        bot: bot.name().to_string(),
                        seat: s,
                        action: format!(
                            "{action} (to call {}, stack {stack}, raise {}..={})",
                            options.to_call, options.min_raise, options.max_raise
                        ),
                    });
                }
                Ok(Move::Bet(action))
            }
            Phase::Over => Err(Error::Invariant("a bot was asked to move after the unit ended".into())),
        }
    }

    /// Applies the decision of the seat to move, then plays on to the next decision.
    #[inline(always)]
    pub fn step(
        &mut self,
        variant: &Variant,
        m: Move,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        match (self.public.phase, m) {
            (Phase::Pick(s), Move::Pick(choice)) => {
                let s = s as usize;
                if !self.packs[s].contains(choice.card) {
                    return Err(Error::Invariant(format!("seat {s} picks {} from a pack without it", choice.card)));
                }
                self.choices[s] = choice;
                self.seek_picker(variant, s + 1, sink, out)
            }
            (Phase::Bet(s), Move::Bet(action)) => self.bet(variant, s as usize, action, sink, out),
            (phase, m) => Err(Error::Invariant(format!("move {m:?} does not fit phase {phase:?}"))),
        }
    }

    /// A betting action, then the next seat to bet or the end of the betting round.
    #[inline(always)]
    fn bet(
        &mut self,
        variant: &Variant,
        seat: usize,
        action: Action,
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let options = self.bet_options(variant, seat);
        if !options.allows(action, self.public.stacks[seat]) {
            return Err(Error::Invariant(format!("seat {seat} may not {action} here")));
        }
        let to_call = options.to_call;
        let round = self.public.betting.round;
        let room = self.public.stacks[seat] - to_call;
        if self.public.betting.raises >= variant.raise_cap_differs_from && room > 0 {
            out.rules_used |= 1 << super::rules::RAISE_CAP_USED;
        }
        let paid = match action {
            Action::Fold => {
                let p = &mut self.public;
                p.folded[seat] = true;
                p.active -= 1;
                p.fold_round[seat] = Some(round);
                // The folded seat's pack leaves play.
                self.discarded = self.discarded.union(self.packs[seat]).union(self.hands[seat]);
                self.packs[seat] = CardSet::EMPTY;
                self.hands[seat] = CardSet::EMPTY;
                self.update_next();
                self.public.betting.pending -= 1;
                0
            }
            Action::Check => {
                self.public.betting.pending -= 1;
                0
            }
            Action::Call => {
                self.public.betting.pending -= 1;
                to_call
            }
            Action::Raise(by) => {
                // Fixed limit allows exactly the round's size (all that is left, if less).
                if by != variant.rules.bet_sizes[round as usize].min(room) {
                    out.rules_used |= 1 << super::rules::LIMIT_USED;
                }
                let b = &mut self.public.betting;
                b.raises += 1;
                b.last_raise = b.last_raise.max(by);
                to_call + by
            }
        };
        let p = &mut self.public;
        p.stacks[seat] -= paid;
        p.street[seat] += paid;
        p.committed[seat] += paid;
        p.pot += paid;
        if p.folded[seat] || p.stacks[seat] == 0 {
            p.betting.can_act &= !(1 << seat);
        }
        if let Action::Raise(_) = action {
            p.betting.current = p.street[seat];
            p.betting.pending = (p.betting.can_act & !(1 << seat)).count_ones();
        }
        let public = PublicAction { betting_round: round, seat: seat as u8, action, paid };
        self.history.push(public);
        sink.event(Event::Act { action: public, all_in: p.stacks[seat] == 0 && !p.folded[seat] });
        let mut next = seat;
        while self.public.betting.pending > 0 && self.public.active > 1 {
            next = self.turn(next);
            if self.public.betting.can_act & (1 << next) != 0 {
                self.public.phase = Phase::Bet(next as u8);
                return Ok(());
            }
        }
        if self.close_pick(variant, true, sink, out)? {
            return Ok(());
        }
        self.seek_picker(variant, 0, sink, out)
    }
}

/// Plays one unit of simulation (a round, or a whole game in game mode) with heuristic
/// bots, adding to `out` (which the caller clears).
///
/// The deal depends on `deal_seed` alone; the bots draw from their own streams seeded with
/// `bot_seed`. `bots[seating[s]]` plays seat `s`.
#[allow(clippy::too_many_arguments)]
pub fn play<B: Bot>(
    variant: &Variant,
    table: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    deal_seed: u64,
    bot_seed: u64,
    deal_index: u64,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    let mut rngs = SeatRngs::new(bot_seed, variant.rules.players);
    table.reset(variant, deal_seed, deal_index, sink, out)?;
    play_on(variant, table, bots, seating, &mut rngs, sink, out)
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
    deal_index: u64,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    let mut rngs = SeatRngs::new(bot_seed, variant.rules.players);
    table.reset_stacked(variant, packs, stacks, deal_index, sink, out)?;
    let result = play_on(variant, table, bots, seating, &mut rngs, sink, out);
    table.stacked = false;
    result?;
    out.length = 1;
    Ok(())
}

/// Asks the bots until the unit ends.
fn play_on<B: Bot>(
    variant: &Variant,
    table: &mut Table,
    bots: &mut [B],
    seating: &[usize],
    rngs: &mut SeatRngs,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    while let Some(s) = table.to_act() {
        let m = table.ask_bot(variant, &mut bots[seating[s]], rngs.seat(s))?;
        table.step(variant, m, sink, out)?;
    }
    Ok(())
}

/// Plays one unit with any seats, the search bot among them (see [`play`]).
#[allow(clippy::too_many_arguments)]
pub fn play_seats(
    variant: &Variant,
    table: &mut Table,
    bots: &mut [SeatBot<Table>],
    seating: &[usize],
    deal_seed: u64,
    bot_seed: u64,
    deal_index: u64,
    scratch: &mut Scratch<Table>,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    let mut rngs = SeatRngs::new(bot_seed, variant.rules.players);
    table.reset(variant, deal_seed, deal_index, sink, out)?;
    drive(variant, table, bots, seating, &mut rngs, scratch, sink, out)
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
    let n = t.public.players;
    if t.public.active as usize == n {
        // Everyone is in: the packs simply turn one seat round (by hand: the slice
        // rotations called `memmove` for a handful of words).
        if t.public.dir > 0 {
            let (pack, of) = (t.packs[n - 1], t.public.pack_of[n - 1]);
            for s in (1..n).rev() {
                t.packs[s] = t.packs[s - 1];
                t.public.pack_of[s] = t.public.pack_of[s - 1];
            }
            (t.packs[0], t.public.pack_of[0]) = (pack, of);
        } else {
            let (pack, of) = (t.packs[0], t.public.pack_of[0]);
            for s in 0..n - 1 {
                t.packs[s] = t.packs[s + 1];
                t.public.pack_of[s] = t.public.pack_of[s + 1];
            }
            (t.packs[n - 1], t.public.pack_of[n - 1]) = (pack, of);
        }
        return;
    }
    let mut packs = [CardSet::EMPTY; MAX_SEATS];
    let mut pack_of = [0u8; MAX_SEATS];
    for s in 0..t.public.players {
        if !t.public.folded[s] {
            let to = t.next[s] as usize;
            packs[to] = t.packs[s];
            pack_of[to] = t.public.pack_of[s];
        }
    }
    t.packs = packs;
    t.public.pack_of = pack_of;
}

/// The seat that leads a betting round: the best face-up hand (wilds judged on the face-up
/// cards alone), ties to the first in betting order.
fn leader(t: &Table) -> usize {
    let mut best: Option<(HandValue, usize)> = None;
    for s in t.betting_order().filter(|&s| !t.public.folded[s]) {
        let value = t.face_up_value[s];
        if best.is_none_or(|(b, _)| value > b) {
            best = Some((value, s));
        }
    }
    best.expect("at least two active seats").1
}

/// Most cards a seat can lose in one round: its stake under fixed limit with a raise cap
/// (every raise of every betting round), else its stack.
fn round_stake(variant: &Variant) -> u32 {
    let r = &variant.rules;
    let capped = r.ante + r.bet_sizes.iter().map(|&size| size * r.raise_cap).sum::<u32>();
    if r.limit == Limit::FixedLimit && r.raise_cap > 0 { capped.min(r.starting_stack) } else { r.starting_stack }
}

impl Table {
    /// Picks resolved this round, and picks whose packs have been looked at.
    fn pick_counts(p: &Public) -> (usize, usize) {
        match p.phase {
            Phase::Pick(_) => (p.pick - 1, p.pick),
            _ => (p.pick, p.pick),
        }
    }

    /// Whether seat `s` took part in pick `k` (1-based): dealt in, and not folded before it.
    fn picked_at(variant: &Variant, p: &Public, s: usize, k: usize) -> bool {
        p.round_stacks[s] > 0 && p.fold_round[s].is_none_or(|b| k <= variant.rules.bet_after_picks[b as usize])
    }

    /// This state with every card `seat` has not seen swapped at random for another such
    /// card (the same swap everywhere: hands, packs, the discards, the undealt cards and
    /// every seat's memory), and a new deal seed for later rounds. Made from the truth, not
    /// from an observation: the leak test's second state. Cards the seat saw (its packs)
    /// and face-up cards stay where they are.
    pub fn redeal(&self, variant: &Variant, seat: usize, rng: &mut BotRng) -> Table {
        let mut t = self.clone();
        let n = self.public.players;
        let fixed = (0..n).fold(self.seen[seat], |set, s| set.union(self.public.face_up[s]));
        let hidden: Vec<Card> = variant.deck.cards.minus(fixed).iter().collect();
        let mut shuffled = hidden.clone();
        rand::seq::SliceRandom::shuffle(&mut shuffled[..], rng);
        let mut map = [0u8; 64];
        for (i, m) in map.iter_mut().enumerate() {
            *m = i as u8;
        }
        for (from, to) in hidden.iter().zip(&shuffled) {
            map[from.index() as usize] = to.index();
        }
        let card = |c: Card| Card::from_index(map[c.index() as usize]);
        let set = |s: CardSet| s.iter().map(card).collect::<CardSet>();
        for s in 0..n {
            t.packs[s] = set(t.packs[s]);
            t.hands[s] = set(t.hands[s]);
            t.seen[s] = set(t.seen[s]);
            for k in 0..MAX_PICKS {
                t.pack_seen[s][k] = set(t.pack_seen[s][k]);
                t.came_back[s][k] = set(t.came_back[s][k]);
                t.picks[s][k].card = t.picks[s][k].card.map(card);
            }
            for d in 0..MAX_SEATS {
                t.left_in[s][d] = set(t.left_in[s][d]);
            }
            t.last_pick[s] = t.last_pick[s].map(card);
            t.choices[s].card = card(t.choices[s].card);
        }
        t.discarded = set(t.discarded);
        t.undealt = set(t.undealt);
        t.last_deal = None;
        t.deal_seed = rng.next_u64();
        t
    }
}

impl Forward for Table {
    type Rules = Variant;
    type Move = Move;
    type Obs = Observation;
    type Event = Event;
    type Bot = ModularBot;

    /// Game mode's stacks (a round alone has no standing: chips move at its showdown).
    fn has_standing(variant: &Variant) -> bool {
        variant.rules.mode == Mode::Game
    }

    fn standing(&self, _variant: &Variant, seat: usize) -> i64 {
        i64::from(self.public.stacks[seat])
    }

    #[inline(always)]
    fn to_act(&self) -> Option<usize> {
        match self.public.phase {
            Phase::Pick(s) | Phase::Bet(s) => Some(s as usize),
            Phase::Over => None,
        }
    }

    /// Every card of the pack; at a bet, fold (unless checking is free: a fold then only
    /// throws the pot away), check or call, and the smallest and largest raise.
    fn legal(&self, variant: &Variant, out: &mut Vec<Move>) {
        out.clear();
        match self.public.phase {
            Phase::Pick(s) => out.extend(self.packs[s as usize].iter().map(|c| Move::Pick(PickChoice::own(c)))),
            Phase::Bet(s) => {
                let options = self.bet_options(variant, s as usize);
                if options.to_call > 0 {
                    out.push(Move::Bet(Action::Fold));
                }
                out.push(Move::Bet(options.check_or_call()));
                if options.can_raise {
                    out.push(Move::Bet(Action::Raise(options.min_raise)));
                    if options.max_raise > options.min_raise {
                        out.push(Move::Bet(Action::Raise(options.max_raise)));
                    }
                }
            }
            Phase::Over => {}
        }
    }

    #[inline(always)]
    fn apply<S: EventSink<Event>>(
        &mut self,
        variant: &Variant,
        m: Move,
        sink: &mut S,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        self.step(variant, m, sink, out)
    }

    #[inline(always)]
    fn ask(&self, variant: &Variant, bot: &mut ModularBot, rng: &mut BotRng) -> Result<Move, Error> {
        self.ask_bot(variant, bot, rng)
    }

    fn observe(&self, _variant: &Variant, seat: usize, out: &mut Observation) {
        let p = &self.public;
        out.seat = seat;
        out.public = *p;
        out.history.clear();
        out.history.extend_from_slice(&self.history);
        out.hand = self.hands[seat];
        out.pack = self.packs[seat];
        out.seen = self.seen[seat];
        out.pack_seen = self.pack_seen[seat];
        out.took = self.picks[seat];
        out.left_in = self.left_in[seat];
        let back = self.came_back_len[seat] as usize;
        out.came_back = [CardSet::EMPTY; MAX_PICKS];
        out.came_back[..back].copy_from_slice(&self.came_back[seat][..back]);
        out.came_back_len = back as u8;
        out.last_pick = self.last_pick[seat];
        out.hated = self.hated[seat];
        out.chosen = match p.phase {
            Phase::Pick(a) if seat < a as usize && !p.folded[seat] => Some(self.choices[seat]),
            _ => None,
        };
    }

    /// Rebuilds the round's picks pack by pack. A pack the observer held is known as it
    /// was then: the cards taken from it before are unseen cards; the cards taken between
    /// two of its visits are the ones that went missing (in a random order); after its last
    /// visit the holders took any of what it left. A face-up pick is where it was shown.
    /// A pack it never held is all unseen cards. Unseen cards are dealt at random; the
    /// choices others have made at the pick in progress are random cards of their packs.
    fn determinize(variant: &Variant, obs: &Observation, rng: &mut BotRng, out: &mut Table) {
        let p = &obs.public;
        let n = p.players;
        let o = obs.seat;
        out.public = *p;
        out.history.clear();
        out.history.extend_from_slice(&obs.history);
        out.verify = false;
        out.stacked = false;
        out.last_deal = None;
        if out.deck_buf.len() != variant.deck_cards.len() {
            out.deck_buf.clear();
            out.deck_buf.extend_from_slice(&variant.deck_cards);
        }
        out.deal_seed = rng.next_u64();
        out.set_order();
        out.update_next();
        for s in 0..n {
            out.face_up_value[s] = Table::face_up_value_of(variant, p.face_up[s]);
        }
        let (resolved, received) = Table::pick_counts(p);
        // holder[k][d]: the seat holding pack d at pick k + 1.
        let mut holder = [[NONE; MAX_SEATS]; MAX_PICKS];
        for k in 1..=received {
            for s in (0..n).filter(|&s| Table::picked_at(variant, p, s, k)) {
                holder[k - 1][p.held[k - 1][s] as usize] = s as u8;
            }
        }
        // The unseen cards, dealt by a partial shuffle as they are needed.
        let mut shown = CardSet::EMPTY;
        for s in 0..n {
            shown = shown.union(p.face_up[s]);
        }
        let mut pool = [Card::from_index(0); 64];
        let mut pool_len = 0;
        for c in variant.deck.cards.minus(obs.seen).minus(shown).iter() {
            pool[pool_len] = c;
            pool_len += 1;
        }
        let mut dealt = 0;
        let mut draw = |rng: &mut BotRng| {
            let j = dealt + rng.random_range(0..pool_len - dealt);
            pool.swap(dealt, j);
            dealt += 1;
            pool[dealt - 1]
        };
        let any_of = |set: &mut CardSet, rng: &mut BotRng| {
            let c = set.nth(rng.random_range(0..set.len())).expect("a card left");
            set.remove(c);
            c
        };
        let mut taken = [[Card::from_index(0); MAX_PICKS]; MAX_SEATS];
        let mut rest = [CardSet::EMPTY; MAX_SEATS];
        for d in (0..n).filter(|&d| p.round_stacks[d] > 0) {
            let slots = (1..=resolved).filter(|&k| holder[k - 1][d] != NONE).count();
            let fixed = |k: usize| {
                let h = holder[k - 1][d];
                (h != NONE && h as usize != o && p.shown[h as usize][k - 1] != NONE)
                    .then(|| Card::from_index(p.shown[h as usize][k - 1]))
            };
            // Face-up picks first, then the slots in order of the observer's visits.
            let mut free = [true; MAX_PICKS];
            for k in 1..=slots {
                if let Some(c) = fixed(k) {
                    taken[d][k - 1] = c;
                    free[k - 1] = false;
                }
            }
            let mut visit: Option<usize> = None;
            for k in 1..=received.min(slots + 1) {
                if holder[k - 1][d] as usize != o {
                    continue;
                }
                let content = obs.pack_seen[k - 1];
                match visit {
                    // Before the first visit: unseen cards.
                    None => {
                        for j in (1..k).filter(|&j| free[j - 1]) {
                            taken[d][j - 1] = draw(rng);
                        }
                    }
                    // Between two visits: what went missing.
                    Some(prev) => {
                        let mut gone = obs.pack_seen[prev - 1].minus(content);
                        gone.remove(obs.took[prev - 1].card.expect("a resolved pick"));
                        for j in prev + 1..k {
                            if !free[j - 1] {
                                gone.remove(taken[d][j - 1]);
                            }
                        }
                        for j in (prev + 1..k).filter(|&j| free[j - 1]) {
                            taken[d][j - 1] = any_of(&mut gone, rng);
                        }
                    }
                }
                if k <= resolved {
                    taken[d][k - 1] = obs.took[k - 1].card.expect("a resolved pick");
                    free[k - 1] = false;
                }
                visit = Some(k);
            }
            match visit {
                None => {
                    for j in (1..=slots).filter(|&j| free[j - 1]) {
                        taken[d][j - 1] = draw(rng);
                    }
                    let mut left = CardSet::EMPTY;
                    for _ in 0..variant.rules.pack_size - slots {
                        left.insert(draw(rng));
                    }
                    rest[d] = left;
                }
                Some(last) => {
                    // After the last visit: any of what it left there.
                    let mut left = obs.pack_seen[last - 1];
                    if last <= resolved {
                        left.remove(taken[d][last - 1]);
                    }
                    for j in last + 1..=slots {
                        if !free[j - 1] {
                            left.remove(taken[d][j - 1]);
                        }
                    }
                    for j in (last + 1..=slots).filter(|&j| free[j - 1]) {
                        taken[d][j - 1] = any_of(&mut left, rng);
                    }
                    rest[d] = left;
                }
            }
        }
        // Hands, packs and memories from the rebuilt picks; the observer's are its own.
        // A pack is in play while a seat still in holds it (a seat that folds discards it).
        let live_pack = |d: usize| (0..n).any(|s| !p.folded[s] && p.round_stacks[s] > 0 && p.pack_of[s] as usize == d);
        let mut discarded = CardSet::EMPTY;
        for d in (0..n).filter(|&d| p.round_stacks[d] > 0 && !live_pack(d)) {
            discarded = discarded.union(rest[d]);
        }
        // contents[k][d]: pack d before pick k + 1.
        let mut contents = [[CardSet::EMPTY; MAX_SEATS]; MAX_PICKS];
        let mut now = rest;
        for k in (1..=received).rev() {
            for d in 0..n {
                if k <= resolved && holder[k - 1][d] != NONE {
                    now[d].insert(taken[d][k - 1]);
                }
                contents[k - 1][d] = now[d];
            }
        }
        for s in 0..n {
            let mut hand = CardSet::EMPTY;
            out.picks[s] = [PickRecord::default(); MAX_PICKS];
            out.seen[s] = CardSet::EMPTY;
            out.pack_seen[s] = [CardSet::EMPTY; MAX_PICKS];
            out.left_in[s] = [CardSet::EMPTY; MAX_SEATS];
            out.came_back_len[s] = 0;
            for k in (1..=received).filter(|&k| Table::picked_at(variant, p, s, k)) {
                let d = p.held[k - 1][s] as usize;
                let content = contents[k - 1][d];
                out.seen[s] = out.seen[s].union(content);
                out.pack_seen[s][k - 1] = content;
                let left = out.left_in[s][d];
                if !left.is_empty() {
                    out.came_back[s][out.came_back_len[s] as usize] = left.minus(content);
                    out.came_back_len[s] += 1;
                }
                if k <= resolved {
                    let c = taken[d][k - 1];
                    hand.insert(c);
                    out.left_in[s][d] = content.minus(CardSet::single(c));
                    out.picks[s][k - 1] = PickRecord { card: Some(c), hate: false, pack_of: d as u8 };
                }
            }
            out.hated[s] = false;
            out.last_pick[s] = if resolved == variant.rules.pack_size { out.picks[s][resolved - 1].card } else { None };
            if p.folded[s] {
                discarded = discarded.union(hand);
                out.hands[s] = CardSet::EMPTY;
                out.packs[s] = CardSet::EMPTY;
            } else {
                out.hands[s] = hand;
                out.packs[s] = if received > 0 { rest[p.pack_of[s] as usize] } else { CardSet::EMPTY };
            }
        }
        out.hands[o] = obs.hand;
        out.packs[o] = obs.pack;
        out.seen[o] = obs.seen;
        out.pack_seen[o] = obs.pack_seen;
        out.picks[o] = obs.took;
        out.left_in[o] = obs.left_in;
        out.came_back[o] = obs.came_back;
        out.came_back_len[o] = obs.came_back_len;
        out.last_pick[o] = obs.last_pick;
        out.hated[o] = obs.hated;
        let mut undealt = CardSet::EMPTY;
        for &c in &pool[dealt..pool_len] {
            undealt.insert(c);
        }
        out.undealt = undealt;
        out.discarded = discarded;
        if let Phase::Pick(a) = p.phase {
            for s in (0..a as usize).filter(|&s| !p.folded[s]) {
                let mut pack = out.packs[s];
                out.choices[s] = PickChoice::own(any_of(&mut pack, rng));
            }
            if let Some(choice) = obs.chosen {
                out.choices[o] = choice;
            }
        }
    }

    /// A pick by card for the seat that makes it; every other seat's pick is one key (it
    /// is face down until all have picked). Bets by action and size.
    fn key(&self, _variant: &Variant, actor: usize, observer: usize, m: Move) -> u32 {
        match m {
            Move::Pick(choice) if actor == observer => u32::from(choice.card.index()),
            Move::Pick(_) => 0x100,
            Move::Bet(Action::Fold) => 0x200,
            Move::Bet(Action::Check) => 0x201,
            Move::Bet(Action::Call) => 0x202,
            Move::Bet(Action::Raise(by)) => 0x300 + by,
        }
    }

    /// Round mode: net chips over the most a seat can win (`players` stakes), from 0 to 1
    /// with 1/2 for breaking even. Game mode: the seat's share of the game's win.
    fn returns(&self, variant: &Variant, out: &RoundResult, seat: usize) -> f64 {
        match variant.rules.mode {
            Mode::Round => {
                let span = (self.public.players as u32 * round_stake(variant)).max(1) as f64;
                (0.5 + out.seats[seat].score as f64 / (2.0 * span)).clamp(0.0, 1.0)
            }
            Mode::Game => f64::from(out.seats[seat].share_units) / f64::from(SHARE_UNIT),
        }
    }

    /// At a horizon: the seat's share of the chips (its stack and what it has put in the
    /// pot), the chance a chip-proportional model gives it of winning the game.
    fn estimate(&self, _variant: &Variant, _out: &RoundResult, seat: usize, players: usize) -> f64 {
        let p = &self.public;
        let total: u64 = (0..p.players).map(|s| u64::from(p.stacks[s] + p.committed[s])).sum();
        if total == 0 {
            return 1.0 / players as f64;
        }
        f64::from(p.stacks[seat] + p.committed[seat]) / total as f64
    }
}

/// `count` decision points of the default rules with the default mix at four seats, one
/// in five decisions of rounds that mix plays (for benchmarks of the search).
pub fn bench_points(count: usize) -> (Variant, Vec<Table>) {
    let variant = super::Rules::default().compile().expect("the default rules are valid");
    let seats = super::default_seats(variant.rules.players);
    let mut bots: Vec<SeatBot<Table>> = seats
        .iter()
        .map(|name| {
            let strategy = super::load_strategy(name).expect("the default mix loads");
            SeatBot::new(name, &strategy, variant.rules.players, super::Preset::bot)
        })
        .collect();
    let table = Table::new(&variant);
    let points = crate::search::leaks::decision_points(&variant, &mut bots, 0x5CD, count, 5, |t: &mut Table, seed| {
        *t = table.clone();
        let _ = t.reset(&variant, seed, seed, &mut NoEvents, &mut RoundResult::default());
    });
    (variant, points)
}

/// Splits the pots among the best hands, side pots included.
fn showdown(
    variant: &Variant,
    t: &mut Table,
    sink: &mut impl EventSink<Event>,
    out: &mut RoundResult,
) -> Result<(), Error> {
    let n = t.public.players;
    let mut values = [HandValue(0); MAX_SEATS];
    let mut wild_count = [0u32; MAX_SEATS];
    // Every hand ranked first, the tallies after: a hand's table look-up often misses the
    // cache, and with no branch on its result in between the look-ups overlap.
    let mut wild_sets = [CardSet::EMPTY; MAX_SEATS];
    for s in (0..n).filter(|&s| !t.public.folded[s]) {
        let hand = t.hands[s];
        let wilds = variant.rules.wild.wild_cards(hand, t.last_pick[s]);
        values[s] = variant.eval.eval_wild(hand.minus(wilds), wilds.len());
        wild_sets[s] = wilds;
    }
    for s in (0..n).filter(|&s| !t.public.folded[s]) {
        let (hand, wilds) = (t.hands[s], wild_sets[s]);
        wild_count[s] = wilds.len();
        out.seats[s].count(SHOWDOWNS);
        out.seats[s].observe(FINISHED, values[s].category() as usize);
        sink.event(Event::Show { seat: s, hand, wilds, last_pick: t.last_pick[s] });
    }
    let order = t.order;
    refund_uncalled(t, sink);
    let total_pot: u32 = t.public.committed[..n].iter().sum();
    let mut won = [0u32; MAX_SEATS];
    let mut units = [0u32; MAX_SEATS];
    let mut units_left = SHARE_UNIT;
    let mut prev = 0u32;
    let mut carry = 0u32;
    let mut pot_index = 0;
    let mut last_winner = None;
    while let Some(level) = (0..n).map(|s| t.public.committed[s]).filter(|&c| c > prev).min() {
        let amount: u32 =
            (0..n).map(|s| t.public.committed[s].min(level) - t.public.committed[s].min(prev)).sum::<u32>() + carry;
        let eligible = |s: usize| !t.public.folded[s] && t.public.committed[s] >= level;
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
        let best = (0..n).filter(|&s| !t.public.folded[s]).map(|s| values[s]).max().expect("a showdown has players");
        let k = (0..n).filter(|&s| !t.public.folded[s] && values[s] == best).count() as u32;
        for (i, s) in
            order[..n].iter().map(|&s| s as usize).filter(|&s| !t.public.folded[s] && values[s] == best).enumerate()
        {
            units[s] = SHARE_UNIT / k + u32::from((i as u32) < SHARE_UNIT % k);
        }
    }
    for s in 0..n {
        t.public.stacks[s] += won[s];
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
    t.public.committed = [0; MAX_SEATS];
    t.public.pot = 0;
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
    let n = t.public.players;
    let top = *t.public.committed[..n].iter().max().expect("players");
    let at_top = (0..n).filter(|&s| t.public.committed[s] == top).count();
    if at_top == 1 {
        let s = (0..n).find(|&s| t.public.committed[s] == top).expect("the top seat");
        let second = (0..n).filter(|&x| x != s).map(|x| t.public.committed[x]).max().unwrap_or(0);
        let chips = top - second;
        t.public.committed[s] -= chips;
        t.public.pot -= chips;
        t.public.stacks[s] += chips;
        sink.event(Event::Refund { seat: s, chips });
    }
}

/// Writes each seat's net chips, folds and hate rounds into `out`.
fn finish(t: &Table, out: &mut RoundResult) -> Result<(), Error> {
    let n = t.public.players;
    if t.verify {
        let chips = t.public.stacks[..n].iter().map(|&s| s as u64).sum::<u64>();
        if chips != t.public.chips_total {
            return Err(Error::Invariant(format!(
                "chips not conserved over the round: {chips} at the end, {} at the start",
                t.public.chips_total
            )));
        }
    }
    for (s, r) in out.seats[..n].iter_mut().enumerate() {
        let net = t.public.stacks[s] as i64 - t.public.round_stacks[s] as i64;
        r.score = net;
        if let Some(b) = t.public.fold_round[s] {
            r.count(FOLDS + b as usize);
        }
        if t.hated[s] {
            r.count(HATE_ROUNDS);
            r.sums[HATE_ROUNDS_NET] += net;
        }
    }
    Ok(())
}
