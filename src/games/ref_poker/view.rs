//! What a seat of a reference poker game may see, its actions, and the bot trait.

pub use crate::sim::BotRng;

/// A betting action, as OpenSpiel names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Leave the hand (only when facing a bet).
    Fold,
    /// Match the bet, or check when there is none.
    Call,
    /// Match the bet and raise by the round's raise size.
    Raise,
}

impl Action {
    /// Every action, in OpenSpiel's order (its action ids 0, 1, 2).
    pub const ALL: [Action; 3] = [Action::Fold, Action::Call, Action::Raise];
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Action::Fold => "fold",
            Action::Call => "call",
            Action::Raise => "raise",
        })
    }
}

/// Everything one seat may know at a decision: its card, the public card once dealt, and
/// the betting.
#[derive(Clone, Copy, Debug)]
pub struct SeatView {
    /// This seat.
    pub seat: usize,
    /// Players at the table.
    pub players: usize,
    /// Ranks in the deck.
    pub ranks: u8,
    /// This seat's card's rank (0 lowest).
    pub rank: u8,
    /// The public card's rank, once dealt.
    pub board: Option<u8>,
    /// The betting round (0 first).
    pub round: u8,
    /// Chips in the pot.
    pub pot: u32,
    /// Chips this seat must add to stay in.
    pub to_call: u32,
    /// Raises made this round.
    pub raises: u32,
    /// Whether a raise is allowed now.
    pub can_raise: bool,
    /// Players still in.
    pub active: usize,
}

impl SeatView {
    /// Whether this action is legal now (fold only when facing a bet, as OpenSpiel).
    pub fn allows(&self, action: Action) -> bool {
        match action {
            Action::Fold => self.to_call > 0,
            Action::Call => true,
            Action::Raise => self.can_raise,
        }
    }

    /// The seat's hand strength from 0 (lowest card) to 1: a pair with the public card is
    /// above every unpaired hand.
    pub fn strength(&self) -> f64 {
        let top = f64::from(self.ranks.max(2) - 1);
        match self.board {
            Some(b) if b == self.rank => 1.0 + f64::from(self.rank) / top,
            _ => f64::from(self.rank) / top,
        }
    }
}

/// A reference poker bot.
pub trait Bot: Send {
    /// The bot's name as tables show it.
    fn name(&self) -> &str;
    /// Chooses an action the view allows.
    fn act(&mut self, view: &SeatView, rng: &mut BotRng) -> Action;
}
