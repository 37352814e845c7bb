//! What a seat may see, the actions it may take, and the bot trait.
//!
//! A [`SeatView`] is built by the engine for one seat and holds only that seat's own cards
//! plus public information; the engine's full state is never handed to a bot, so a bot
//! cannot read another player's face-down cards or the deck order.

use std::fmt;

use super::rules::Variant;
use crate::cards::{Card, CardSet};
use crate::sim::MAX_SEATS;

pub use crate::sim::BotRng;

/// A betting action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Leave the round, losing what was put in.
    Fold,
    /// Pass while nobody has bet in this betting round.
    Check,
    /// Match the current bet (all-in for less if the stack is short).
    Call,
    /// Call and raise by this many chips on top.
    Raise(u32),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Fold => f.write_str("fold"),
            Action::Check => f.write_str("check"),
            Action::Call => f.write_str("call"),
            Action::Raise(by) => write!(f, "raise {by}"),
        }
    }
}

/// One public betting action, as every seat saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicAction {
    /// Betting round (0-based).
    pub betting_round: u8,
    /// The seat that acted.
    pub seat: u8,
    /// What it did.
    pub action: Action,
    /// Chips it put in with this action.
    pub paid: u32,
}

/// The betting facts of the seat to act.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BetOptions {
    /// Betting round (0-based).
    pub round: usize,
    /// Chips needed to call (0 means the seat may check).
    pub to_call: u32,
    /// Whether a raise is allowed (cap not reached, chips left after calling).
    pub can_raise: bool,
    /// Smallest raise (chips on top of the call); a smaller all-in raise is also allowed.
    pub min_raise: u32,
    /// Largest raise.
    pub max_raise: u32,
    /// Raises made so far in this betting round.
    pub raises: u32,
}

impl BetOptions {
    /// Whether this action is legal here for a seat holding `stack` chips.
    pub fn allows(&self, action: Action, stack: u32) -> bool {
        match action {
            Action::Fold => true,
            Action::Check => self.to_call == 0,
            Action::Call => self.to_call > 0,
            Action::Raise(by) => {
                self.can_raise && by > 0 && by <= self.max_raise && (by >= self.min_raise || by == stack - self.to_call)
            }
        }
    }

    /// The raises a menu of moves offers, in rising order (the search bot and trained
    /// policies choose among these): the smallest, then half the pot and the pot (after the
    /// call) where they fall strictly between, then the largest. Fixed limit has one size.
    /// `pot`: the chips in the pot before the call.
    pub fn raise_menu(&self, pot: u32) -> ([u32; 4], usize) {
        let mut sizes = [0; 4];
        if !self.can_raise {
            return (sizes, 0);
        }
        sizes[0] = self.min_raise;
        let mut n = 1;
        let after_call = pot + self.to_call;
        for size in [after_call / 2, after_call] {
            if size > sizes[n - 1] && size < self.max_raise {
                sizes[n] = size;
                n += 1;
            }
        }
        if self.max_raise > sizes[n - 1] {
            sizes[n] = self.max_raise;
            n += 1;
        }
        (sizes, n)
    }

    /// The passive action: check if free, else call.
    pub fn check_or_call(&self) -> Action {
        if self.to_call == 0 { Action::Check } else { Action::Call }
    }

    /// A raise of `by` chips brought within the legal raises, or the passive action when
    /// raising is not allowed.
    pub fn raise_or_call(&self, by: u32) -> Action {
        if self.can_raise { Action::Raise(by.max(self.min_raise).min(self.max_raise)) } else { self.check_or_call() }
    }

    /// The smallest legal raise, or the passive action when raising is not allowed.
    pub fn min_raise_or_call(&self) -> Action {
        if self.can_raise { Action::Raise(self.min_raise.min(self.max_raise)) } else { self.check_or_call() }
    }
}

/// A seat's choice at a pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PickChoice {
    /// The card taken from the pack.
    pub card: Card,
    /// Whether the bot took it to deny another player rather than for itself.
    pub hate: bool,
}

impl PickChoice {
    /// A pick made for the seat's own hand.
    pub fn own(card: Card) -> PickChoice {
        PickChoice { card, hate: false }
    }
}

/// What a seat remembers of the packs it has held: everything here it saw itself, or can
/// work out from the deal, the passes and the folds (all public).
#[derive(Clone, Copy, Debug, Default)]
pub struct PackMemory<'a> {
    /// Per pack, by the seat it was dealt to: the cards this seat left in it when it last
    /// passed it (empty for a pack it has not held).
    pub left_in: &'a [CardSet],
    /// For each pack that came back to this seat: the cards gone from it since this seat
    /// passed it, each taken by one of the seats downstream.
    pub came_back: &'a [CardSet],
    /// Per seat: the pack it holds now, by the seat it was dealt to (a folded seat's entry
    /// is stale: its pack left play).
    pub pack_of: &'a [u8],
    /// Per pick so far: `pack_of` at that pick (the passes are public).
    pub held: &'a [[u8; MAX_SEATS]],
}

/// Everything one seat may know at a decision.
#[derive(Clone, Copy, Debug)]
pub struct SeatView<'a> {
    /// The rules in force.
    pub variant: &'a Variant,
    /// This seat.
    pub seat: usize,
    /// Number of seats at the table.
    pub players: usize,
    /// +1 when packs and betting go to the left (higher seat numbers), -1 to the right.
    pub direction: i8,
    /// The pick being made (while picking) or the last pick made (while betting), 1-based.
    pub pick: usize,
    /// This seat's hand: its face-down and face-up picks.
    pub hand: CardSet,
    /// This seat's face-up picks.
    pub own_face_up: CardSet,
    /// The card this seat took at the final pick, once made.
    pub last_pick: Option<Card>,
    /// Every seat's face-up cards.
    pub face_up: &'a [CardSet],
    /// Which seats have folded.
    pub folded: &'a [bool],
    /// The pack in hand while picking; empty while betting.
    pub pack: CardSet,
    /// Every card this seat has seen in the packs it held this round.
    pub seen: CardSet,
    /// What this seat remembers of the packs it passed, and where each pack is now.
    pub memory: PackMemory<'a>,
    /// Chips in the pot.
    pub pot: u32,
    /// Every seat's stack.
    pub stacks: &'a [u32],
    /// Chips each seat has put in this round.
    pub committed: &'a [u32],
    /// Betting options, while betting.
    pub betting: Option<BetOptions>,
    /// The round's public betting actions so far.
    pub history: &'a [PublicAction],
}

impl SeatView<'_> {
    /// Picks still to come after the current one.
    pub fn picks_left(&self) -> usize {
        self.variant.rules.pack_size - self.pick
    }

    /// The seat that passes to `seat` (against the direction of play, skipping folded
    /// seats).
    pub fn previous_seat(&self, seat: usize) -> usize {
        let n = self.players as isize;
        let mut s = seat as isize;
        loop {
            s = (s - self.direction as isize).rem_euclid(n);
            if !self.folded[s as usize] || s as usize == seat {
                return s as usize;
            }
        }
    }

    /// The seat that receives the pack this seat passes (skipping folded seats).
    pub fn next_seat(&self) -> usize {
        let n = self.players as isize;
        let mut s = self.seat as isize;
        loop {
            s = (s + self.direction as isize).rem_euclid(n);
            if !self.folded[s as usize] || s as usize == self.seat {
                return s as usize;
            }
        }
    }
}

/// A Seven Card Draft bot: it picks cards and bets from its [`SeatView`].
pub trait Bot: Send {
    /// The bot's name as tables show it (a preset name or a file path).
    fn name(&self) -> &str;
    /// Chooses a card from `view.pack`.
    fn pick(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> PickChoice;
    /// Chooses a betting action allowed by `view.betting`.
    fn bet(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> Action;
    /// A pick made from the pack alone, for a bot that looks at nothing else (a random
    /// picker), so the engine need not build the view; `None` (the default) asks
    /// [`Bot::pick`]. Must choose as `pick` would, drawing the same random numbers.
    fn pick_from_pack(&mut self, _pack: CardSet, _rng: &mut BotRng) -> Option<PickChoice> {
        None
    }
    /// A betting action from the options alone, for a bot that looks at nothing else (a
    /// calling station, a blind bluffer); `None` (the default) asks [`Bot::bet`]. Must
    /// choose as `bet` would, drawing the same random numbers.
    fn bet_from_options(&mut self, _options: BetOptions, _rng: &mut BotRng) -> Option<Action> {
        None
    }
}

impl<T: Bot + ?Sized> Bot for Box<T> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn pick(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> PickChoice {
        (**self).pick(view, rng)
    }
    fn bet(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> Action {
        (**self).bet(view, rng)
    }
    fn pick_from_pack(&mut self, pack: CardSet, rng: &mut BotRng) -> Option<PickChoice> {
        (**self).pick_from_pack(pack, rng)
    }
    fn bet_from_options(&mut self, options: BetOptions, rng: &mut BotRng) -> Option<Action> {
        (**self).bet_from_options(options, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(to_call: u32, min_raise: u32, max_raise: u32) -> BetOptions {
        BetOptions { round: 0, to_call, can_raise: true, min_raise, max_raise, raises: 0 }
    }

    /// Fixed limit offers its one size; pot limit adds half the pot; no limit adds half
    /// the pot and the pot below the all-in; a size outside the smallest and largest raise
    /// is left out.
    #[test]
    fn the_raise_menu_holds_the_pot_fractions_between_the_smallest_and_largest_raise() {
        let menu = |o: BetOptions, pot| {
            let (sizes, n) = o.raise_menu(pot);
            sizes[..n].to_vec()
        };
        assert_eq!(menu(options(0, 2, 2), 4), [2]);
        // Pot limit: 10 in the pot and 2 to call make a pot of 12, the largest raise.
        assert_eq!(menu(options(2, 2, 12), 10), [2, 6, 12]);
        assert_eq!(menu(options(2, 2, 50), 10), [2, 6, 12, 50]);
        assert_eq!(menu(options(2, 8, 12), 10), [8, 12]);
        assert_eq!(menu(options(2, 2, 9), 10), [2, 6, 9]);
        assert_eq!(menu(BetOptions { can_raise: false, ..options(2, 2, 12) }, 10), [] as [u32; 0]);
    }
}
