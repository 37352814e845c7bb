//! What a Seven Poker seat may see, and the bot trait. A view holds the seat's own hand and
//! public information only: every face-up discard and who made it, every shown card, the
//! declarations made so far, everyone's victory colours, every hand's size and the pile's
//! size. Other hands' cards are not in it.

use super::cards::Layout;
use super::rules::Rules;

pub use crate::sim::BotRng;

/// Everything one seat may know at a decision.
#[derive(Clone, Copy, Debug)]
pub struct SeatView<'a> {
    /// The rules in force.
    pub rules: &'a Rules,
    /// The deck's layout.
    pub layout: Layout,
    /// This seat.
    pub seat: usize,
    /// The round's first player (the dealer sits to their right).
    pub first: usize,
    /// This seat's cards.
    pub hand: u64,
    /// Cards discarded face up this round.
    pub discards: u64,
    /// The cards each seat discarded face up this round.
    pub discarded: &'a [u64],
    /// How many cards each seat holds (public: everyone sees the draws).
    pub hand_sizes: &'a [u8],
    /// Victory cards taken so far (out of play), face up.
    pub removed: u64,
    /// Cards each seat has shown this round (empty before the reveal).
    pub shown: &'a [u64],
    /// Each seat's declaration so far: `Some(true)` stays, `Some(false)` folds.
    pub declared: &'a [Option<bool>],
    /// Each seat's victory colours, as bits.
    pub victory: &'a [u8],
    /// Cards left in the draw pile.
    pub pile: usize,
    /// Round number within the game.
    pub round: u32,
}

/// A Seven Poker bot.
pub trait Bot: Send {
    /// The bot's name as tables show it.
    fn name(&self) -> &str;
    /// The cards to discard and redraw: a subset of the hand, at most `max_exchange` and at
    /// most the cards left in the pile.
    fn exchange(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> u64;
    /// Under the left-swap option: a card to give the left neighbour, or none.
    fn swap_give(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> Option<u8>;
    /// Under `left_swap = "chosen"`: the card to give back for `received` (not `received`).
    fn swap_return(&mut self, view: &SeatView<'_>, received: u8, rng: &mut BotRng) -> u8;
    /// The cards to show: exactly `min(shown, hand size)` of the hand.
    fn show(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> u64;
    /// Stay (true) or fold.
    fn stay(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> bool;
    /// Having folded (or won alone under `lone_stayer = "keeps"`): the cards to keep for
    /// the next round (a subset of the hand).
    fn keep(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> u64;
    /// Having won under `victory_colours = "chosen"` with a choice to make: exactly `count`
    /// of the `candidates` (colour bits, more than `count` of them) to take as victory
    /// colours. The view's hand is the winning hand, before the victory cards leave it.
    fn victory_colours(&mut self, view: &SeatView<'_>, candidates: u8, count: usize, rng: &mut BotRng) -> u8;
}

impl<T: Bot + ?Sized> Bot for Box<T> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn exchange(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> u64 {
        (**self).exchange(view, rng)
    }
    fn swap_give(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> Option<u8> {
        (**self).swap_give(view, rng)
    }
    fn swap_return(&mut self, view: &SeatView<'_>, received: u8, rng: &mut BotRng) -> u8 {
        (**self).swap_return(view, received, rng)
    }
    fn show(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> u64 {
        (**self).show(view, rng)
    }
    fn stay(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> bool {
        (**self).stay(view, rng)
    }
    fn keep(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> u64 {
        (**self).keep(view, rng)
    }
    fn victory_colours(&mut self, view: &SeatView<'_>, candidates: u8, count: usize, rng: &mut BotRng) -> u8 {
        (**self).victory_colours(view, candidates, count, rng)
    }
}
