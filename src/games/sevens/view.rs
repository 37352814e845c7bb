//! What a Sevens seat may see, its actions, and the bot trait.

use super::cards::SevensHand;
use super::rules::Rules;

pub use crate::sim::BotRng;

/// A betting action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Leave the hand, losing what was put in.
    Fold,
    /// Pass (only while nobody has raised this hand).
    Check,
    /// Match the current raise.
    Call,
    /// Raise by the fixed raise size.
    Raise,
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Action::Fold => "fold",
            Action::Check => "check",
            Action::Call => "call",
            Action::Raise => "raise",
        })
    }
}

/// Everything one seat may know at a decision: its own cards and public information.
#[derive(Clone, Copy, Debug)]
pub struct SeatView<'a> {
    /// The rules in force.
    pub rules: &'a Rules,
    /// This seat.
    pub seat: usize,
    /// This seat's cards.
    pub hand: SevensHand,
    /// Whether this seat has made its trade.
    pub traded: bool,
    /// How many cards each seat traded so far (public: everyone sees the draw).
    pub cards_traded: &'a [u8],
    /// Which seats have used their one trade (public: everyone sees a seat trade, or stand
    /// pat where that uses the trade up).
    pub trade_used: &'a [bool],
    /// Which seats have folded.
    pub folded: &'a [bool],
    /// Chips in the pot.
    pub pot: u32,
    /// Chips this seat must add to stay in.
    pub to_call: u32,
    /// Whether a raise is allowed now (cap not reached).
    pub can_raise: bool,
    /// Whether anybody has raised this hand (then checking is over).
    pub raised: bool,
    /// This seat's turn number in the hand (0 = first turn).
    pub turn: usize,
    /// Cards left in the deck to trade for.
    pub deck_left: usize,
}

impl SeatView<'_> {
    /// Whether this action is legal now.
    pub fn allows(&self, action: Action) -> bool {
        match action {
            Action::Fold => true,
            Action::Check => self.to_call == 0 && !self.raised,
            Action::Call => self.to_call > 0,
            Action::Raise => self.can_raise,
        }
    }

    /// The passive action: check if allowed, otherwise call (a seat that has matched the
    /// raise and is asked again only happens on a re-raise, so it then calls).
    pub fn check_or_call(&self) -> Action {
        if self.to_call == 0 && !self.raised { Action::Check } else { Action::Call }
    }
}

/// Which of the three cards to trade: bit i set trades card i (0 = keep all).
pub type TradeMask = u8;

/// A Sevens bot: it bets, then (when it may) chooses cards to trade.
pub trait Bot: Send {
    /// The bot's name as tables show it.
    fn name(&self) -> &str;
    /// Chooses a betting action allowed by the view.
    fn act(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> Action;
    /// Chooses the cards to trade (asked only while this seat may still trade).
    fn trade(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> TradeMask;
}

impl<T: Bot + ?Sized> Bot for Box<T> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn act(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> Action {
        (**self).act(view, rng)
    }
    fn trade(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> TradeMask {
        (**self).trade(view, rng)
    }
}
