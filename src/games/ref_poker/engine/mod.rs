//! The reference poker engine: ante, one private card each, fixed-limit betting rounds (a
//! public card before the second), showdown. It follows OpenSpiel's `kuhn_poker` and
//! `leduc_poker` move for move, so the solver's figures compare with OpenSpiel's:
//! - a seat may fold only when facing a bet; calling with nothing to call is a check;
//! - a round ends when every player still in has checked, or called the last raise;
//! - seat 0 opens every round (the first seat still in);
//! - at the showdown a pair with the public card beats any unpaired hand, else the higher
//!   card, then the other card, decides; suits never do, so equal hands split the pot
//!   (with three or four players, chips that do not divide go to the lowest seats first).
//!
//! Every card of a unit (the private cards and the public card) is fixed when it starts,
//! from its deal seed or, for the solver's exact tree, from a deal index.

use std::marker::PhantomData;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::bots::PokerBot;
use super::measures::{FOLDS, RAISES, SHOWDOWN_WINS, SHOWDOWNS};
use super::rules::{Flavour, Rules};
use super::view::{Action, Bot, BotRng, SeatView};
use crate::error::Error;
use crate::search::{Forward, SearchNote};
use crate::sim::{Deal, MAX_SEATS, RoundResult, SHARE_UNIT};

mod forward;
mod steps;
pub use forward::Observation;

/// Most actions one unit records (two rounds of at most four raises and the calls).
pub const MAX_HISTORY: usize = 24;

/// Something that happened, for replays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A seat is dealt its card.
    Deal {
        /// The seat.
        seat: usize,
        /// Its card.
        card: u8,
    },
    /// The public card is turned.
    Board {
        /// The card.
        card: u8,
    },
    /// A seat acts.
    Act {
        /// The seat.
        seat: usize,
        /// The action.
        action: Action,
        /// Chips put in.
        paid: u32,
    },
    /// A seat shows its card at the showdown.
    Show {
        /// The seat.
        seat: usize,
        /// Its card.
        card: u8,
    },
    /// A seat wins chips from the pot.
    Award {
        /// The seat.
        seat: usize,
        /// Chips.
        chips: u32,
        /// The seats that split the pot (1: the seat wins it alone).
        among: u8,
    },
    /// The search bot chose a move.
    Search(SearchNote),
}

crate::game_events!(Event);

/// Everything every seat sees: the betting and, once turned, the public card.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Public {
    /// Seats at the table.
    pub players: usize,
    /// The seat to act, or `None` when the unit is over.
    pub to_act: Option<u8>,
    /// The betting round (0 first).
    pub round: u8,
    /// The public card, once turned.
    pub board: Option<u8>,
    /// Seats that folded.
    pub folded: [bool; MAX_SEATS],
    /// Chips each seat has put in (the ante included).
    pub put_in: [u32; MAX_SEATS],
    /// The amount every seat still in must have put in.
    pub stakes: u32,
    /// Chips in the pot.
    pub pot: u32,
    /// Raises this round.
    pub raises: u32,
    /// Calls (and checks) since the last raise this round.
    pub calls: u32,
    /// Seats still in.
    pub active: usize,
    /// The actions so far, a round's end marked (what an information key is made from):
    /// 0 ends a round, 1 fold, 2 call, 3 raise.
    pub history: [u8; MAX_HISTORY],
    /// Entries of `history` in use.
    pub len: u8,
}

/// The state of one unit: the forward model of a reference poker game.
#[derive(Clone, Debug)]
pub struct State<F: Flavour> {
    public: Public,
    /// Each seat's card (rank times suits plus suit).
    cards: [u8; MAX_SEATS],
    /// The public card, dealt at the start and turned before the second round.
    board: u8,
    /// Check the invariants after every step (`draftsim check` and tests turn it on).
    pub verify: bool,
    flavour: PhantomData<F>,
}

impl<F: Flavour> Default for State<F> {
    fn default() -> Self {
        State {
            public: Public::default(),
            cards: [0; MAX_SEATS],
            board: 0,
            verify: cfg!(debug_assertions),
            flavour: PhantomData,
        }
    }
}

/// How many cards a unit deals: one a player, and the public card with two rounds.
pub fn cards_dealt<F: Flavour>(rules: &Rules<F>) -> usize {
    rules.players + usize::from(rules.rounds) - 1
}

/// How many different deals a unit can start from, each as likely (ordered: which card
/// each seat gets, then the public card).
pub fn deal_count<F: Flavour>(rules: &Rules<F>) -> u64 {
    let n = rules.deck() as u64;
    (0..cards_dealt(rules) as u64).map(|k| n - k).product()
}

/// A card's rank.
pub fn rank<F: Flavour>(rules: &Rules<F>, card: u8) -> u8 {
    card / rules.suits
}

/// A card as text: rank letter and, with more than one suit, its suit number.
pub fn card_text<F: Flavour>(rules: &Rules<F>, card: u8) -> String {
    // The top ranks keep their poker names, ending at K (J, Q, K for three ranks); all
    // thirteen end at A.
    let letters: &[u8] = if rules.ranks >= 13 { b"23456789TJQKA" } else { b"23456789TJQK" };
    let letter = char::from(letters[letters.len() - usize::from(rules.ranks) + usize::from(rank(rules, card))]);
    if rules.suits > 1 { format!("{letter}{}", card % rules.suits + 1) } else { letter.to_string() }
}

impl<F: Flavour> State<F> {
    /// Deals the unit's cards: each is pick `pick(left)` among the `left` cards not yet
    /// dealt, in deck order.
    fn deal(&mut self, rules: &Rules<F>, mut pick: impl FnMut(usize) -> usize) {
        let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
        let mut left = rules.deck();
        let mut dealt = [0u8; MAX_SEATS + 1];
        for slot in dealt.iter_mut().take(cards_dealt(rules)) {
            let i = pick(left);
            *slot = deck[i];
            deck.copy_within(i + 1..left, i);
            left -= 1;
        }
        self.cards[..rules.players].copy_from_slice(&dealt[..rules.players]);
        self.board = if rules.rounds == 2 { dealt[rules.players] } else { 0 };
    }

    /// Starts a unit on the deal drawn from `deal_seed`.
    pub fn reset<S: Sink>(
        &mut self,
        rules: &Rules<F>,
        deal: Deal,
        sink: &mut S,
        _out: &mut RoundResult,
    ) -> Result<(), Error> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(deal.seed);
        self.deal(rules, |left| rng.random_range(0..left));
        self.open(rules, sink);
        Ok(())
    }

    /// Starts a unit on deal `index` of [`deal_count`].
    pub fn reset_to(&mut self, rules: &Rules<F>, mut index: u64) {
        self.deal(rules, |left| {
            let i = (index % left as u64) as usize;
            index /= left as u64;
            i
        });
        self.open(rules, &mut crate::sim::NoEvents);
    }

    /// The seat's card.
    pub fn card(&self, seat: usize) -> u8 {
        self.cards[seat]
    }

    /// What every seat sees.
    pub fn public(&self) -> &Public {
        &self.public
    }

    /// The view a heuristic bot of `seat` decides from.
    pub fn view(&self, rules: &Rules<F>, seat: usize) -> SeatView {
        let p = &self.public;
        SeatView {
            seat,
            players: p.players,
            ranks: rules.ranks,
            rank: rank(rules, self.cards[seat]),
            board: p.board.map(|b| rank(rules, b)),
            round: p.round,
            pot: p.pot,
            to_call: p.stakes - p.put_in[seat],
            raises: p.raises,
            can_raise: p.raises < rules.max_raises,
            active: p.active,
        }
    }

    /// A heuristic bot's move for the seat to act.
    pub fn ask_bot<B: Bot + ?Sized>(&self, rules: &Rules<F>, bot: &mut B, rng: &mut BotRng) -> Result<Action, Error> {
        let Some(seat) = self.public.to_act else {
            return Err(Error::Invariant("a bot was asked to move after the unit ended".into()));
        };
        let view = self.view(rules, usize::from(seat));
        let action = bot.act(&view, rng);
        if !view.allows(action) {
            return Err(Error::IllegalAction {
                bot: bot.name().to_string(),
                seat: usize::from(seat),
                action: format!("{action} (to call {}, raises {})", view.to_call, view.raises),
            });
        }
        Ok(action)
    }
}

/// A seat's share of a pot it won, for the harness.
fn share(winners: usize) -> u32 {
    SHARE_UNIT / winners as u32
}
