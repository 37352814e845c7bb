//! The Sevens deck: three suits, each holding the numbers 1 to 6 twice (36 cards).
//!
//! A card is an id 0-35: suit = id / 12, number = (id % 12) / 2 + 1, and the last bit tells
//! the two copies apart. Suits are written c (coins), u (cups) and s (swords): the source
//! names none, so we chose a merchant's three.

use std::fmt;

/// Cards in the deck.
pub const DECK_SIZE: usize = 36;
/// Suit letters.
const SUIT_CHARS: [char; 3] = ['c', 'u', 's'];

/// One Sevens card.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SevensCard(pub u8);

impl SevensCard {
    /// Its number, 1 to 6.
    pub fn number(self) -> u8 {
        (self.0 % 12) / 2 + 1
    }

    /// Its suit, 0 to 2.
    pub fn suit(self) -> u8 {
        self.0 / 12
    }
}

impl fmt::Display for SevensCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.number(), SUIT_CHARS[self.suit() as usize])
    }
}

/// A hand of up to three cards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SevensHand {
    cards: [SevensCard; 3],
    len: u8,
}

impl SevensHand {
    /// A hand of these cards (at most three).
    pub fn new(cards: &[SevensCard]) -> SevensHand {
        let mut hand = SevensHand::default();
        for &c in cards.iter().take(3) {
            hand.cards[hand.len as usize] = c;
            hand.len += 1;
        }
        hand
    }

    /// The cards.
    pub fn cards(&self) -> &[SevensCard] {
        &self.cards[..self.len as usize]
    }

    /// The sum of the numbers.
    pub fn total(&self) -> u8 {
        self.cards().iter().map(|c| c.number()).sum()
    }

    /// The most cards of any one suit (the tie-break).
    pub fn suit_run(&self) -> u8 {
        let mut counts = [0u8; 3];
        for c in self.cards() {
            counts[c.suit() as usize] += 1;
        }
        counts.into_iter().max().unwrap_or(0)
    }

    /// The numbers held, sorted.
    pub fn numbers(&self) -> [u8; 3] {
        let mut n = [0u8; 3];
        for (slot, c) in n.iter_mut().zip(self.cards()) {
            *slot = c.number();
        }
        // Three compare-and-swaps: bots ask at every decision.
        for (i, j) in [(0, 1), (1, 2), (0, 1)] {
            if n[i] > n[j] {
                n.swap(i, j);
            }
        }
        n
    }

    /// Replaces the card at `index`.
    pub fn replace(&mut self, index: usize, card: SevensCard) {
        self.cards[index] = card;
    }
}

impl fmt::Display for SevensHand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.cards().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deck_holds_each_number_twice_per_suit() {
        let mut counts = [[0u8; 7]; 3];
        for id in 0..DECK_SIZE as u8 {
            let c = SevensCard(id);
            counts[c.suit() as usize][c.number() as usize] += 1;
        }
        for suit in counts {
            assert_eq!(&suit[1..], &[2, 2, 2, 2, 2, 2]);
        }
        let hand = SevensHand::new(&[SevensCard(0), SevensCard(3), SevensCard(25)]);
        assert_eq!(hand.total(), 1 + 2 + 1);
        assert_eq!(hand.suit_run(), 2);
        assert_eq!(hand.to_string(), "1c 2c 1s");
    }
}
