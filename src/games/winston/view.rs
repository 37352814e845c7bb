//! What a seat may see, and the bot trait.
//!
//! Draft: a seat sees its own pool, the pile it is looking at, what it saw of each pile
//! when it last looked (cards added since are face down), every pile's size and the
//! stack's, the opponent's pool size, and what it can deduce of the opponent: the cards it
//! knew were in piles the opponent took, and those it knew were in piles the opponent
//! looked at and passed. The blind card and the stack's order are never in a view.
//! Play: a seat sees its own hand, its own discard pile's top and what that asks for, its
//! deck's size and deck list, the opponent's hand size and top discard.

use super::cards::{Cards, Pool};
use super::rules::Rules;

pub use crate::sim::BotRng;

/// Everything a seat may know when it looks at a pile.
#[derive(Clone, Copy, Debug)]
pub struct DraftView<'a> {
    /// The rules in force.
    pub rules: &'a Rules,
    /// The pool's cards and features.
    pub pool: &'a Pool,
    /// This seat's pool so far.
    pub own: Cards,
    /// The pile being looked at (0 is nearest the stack).
    pub pile: usize,
    /// Its cards.
    pub cards: Cards,
    /// What this seat saw of each pile when it last looked (cards added since are unseen).
    pub known: [Cards; 3],
    /// Each pile's size.
    pub sizes: [usize; 3],
    /// Cards left in the stack.
    pub stack: usize,
    /// The stack's size when the draft began.
    pub stack_start: usize,
    /// The opponent's pool size.
    pub opponent_size: usize,
    /// Cards this seat knows went into the opponent's pool.
    pub opponent_took: Cards,
    /// Cards this seat knows the opponent looked at and passed (still in the piles).
    pub opponent_passed: Cards,
}

impl DraftView<'_> {
    /// Whether the last-card rule lets this seat take the stack's last card now.
    pub fn may_take_last_card(&self) -> bool {
        self.rules.last_card_rule && self.stack == 1
    }

    /// Whether a later pile is non-empty.
    pub fn later_piles(&self) -> bool {
        self.sizes[self.pile + 1..].iter().any(|&s| s > 0)
    }
}

/// A draft decision on the pile being looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DraftChoice {
    /// Take the whole pile; `deny` marks a take made mainly to keep it from the opponent.
    Take {
        /// Taken mainly to deny the opponent.
        deny: bool,
    },
    /// Put it back (with one more card from the stack) and look at the next pile.
    Pass,
    /// Under the last-card rule: take the stack's last card, rejecting the remaining piles.
    TakeLastCard,
}

/// What a seat sees when it builds its deck.
#[derive(Clone, Copy, Debug)]
pub struct BuildView<'a> {
    /// The rules in force.
    pub rules: &'a Rules,
    /// The pool's cards and features.
    pub pool: &'a Pool,
    /// This seat's drafted cards.
    pub own: Cards,
}

/// Everything a seat may know on its turn of Crazier Eights.
#[derive(Clone, Copy, Debug)]
pub struct PlayView<'a> {
    /// The rules in force.
    pub rules: &'a Rules,
    /// The pool's cards and features.
    pub pool: &'a Pool,
    /// This seat's hand.
    pub hand: Cards,
    /// The top card of this seat's discard pile.
    pub top: u8,
    /// The colours a discard must match (the named colour after an eight).
    pub colours: u8,
    /// The rank a discard may match instead.
    pub rank: u8,
    /// The cards of the hand a discard may be (matching or wild).
    pub playable: Cards,
    /// Cards left in this seat's deck.
    pub deck: usize,
    /// This seat's deck list (every card it owns this game).
    pub deck_list: Cards,
    /// The opponent's hand size.
    pub opponent_hand: usize,
    /// The opponent's top discard.
    pub opponent_top: u8,
}

/// A Winston + Crazier Eights bot: a draft, a build and a play module.
pub trait Bot: Send {
    /// The bot's name as tables show it.
    fn name(&self) -> &str;
    /// Take the pile being looked at, pass it, or (when allowed) take the stack's last card.
    fn draft(&mut self, view: &DraftView<'_>, rng: &mut BotRng) -> DraftChoice;
    /// The deck: the chosen colours (at most `max_colours`) and the cards, all usable under
    /// those colours, `min(deck_size, usable)` of them.
    fn build(&mut self, view: &BuildView<'_>, rng: &mut BotRng) -> (u8, Cards);
    /// The card to play from the hand (not with `classic`), or none.
    fn play(&mut self, view: &PlayView<'_>, rng: &mut BotRng) -> Option<u8>;
    /// The card to discard (one of `playable`) and, for a wild card, the colour to name;
    /// or none.
    fn discard(&mut self, view: &PlayView<'_>, rng: &mut BotRng) -> Option<(u8, usize)>;
    /// After a peek: keep the deck's top card there (true) or put it at the bottom.
    fn keep_peeked(&mut self, view: &PlayView<'_>, card: u8, rng: &mut BotRng) -> bool;
}
