//! Cards as small integers and sets of cards as 64-bit bitsets.
//!
//! A card's bit index is `suit * 16 + rank`, so each suit's ranks sit in their own
//! 16-bit lane: the evaluator reads a suit's 13-bit rank mask with one shift and mask.

mod deck;
pub mod shuffle;

pub use deck::{Deck, DeckPreset};

use std::fmt;
use std::str::FromStr;

use crate::error::InputError;

/// Characters used for ranks, lowest (`2`) to highest (`A`).
pub const RANK_CHARS: &[u8; 13] = b"23456789TJQKA";
/// Characters used for suits: clubs, diamonds, hearts, spades.
pub const SUIT_CHARS: &[u8; 4] = b"cdhs";

/// A card rank, 0 for a two up to 12 for an ace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(pub u8);

impl Rank {
    /// The two.
    pub const TWO: Rank = Rank(0);
    /// The jack.
    pub const JACK: Rank = Rank(9);
    /// The queen.
    pub const QUEEN: Rank = Rank(10);
    /// The king.
    pub const KING: Rank = Rank(11);
    /// The ace.
    pub const ACE: Rank = Rank(12);

    /// The rank's character (`2`-`9`, `T`, `J`, `Q`, `K`, `A`).
    pub fn to_char(self) -> char {
        RANK_CHARS[self.0 as usize] as char
    }

    /// Parses one rank character, case-insensitively.
    pub fn from_char(c: char) -> Option<Rank> {
        let up = c.to_ascii_uppercase() as u8;
        RANK_CHARS.iter().position(|&r| r == up).map(|i| Rank(i as u8))
    }
}

impl FromStr for Rank {
    type Err = InputError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let rank = match t {
            "10" => Some(Rank(8)),
            _ if t.chars().count() == 1 => Rank::from_char(t.chars().next().unwrap_or(' ')),
            _ => None,
        };
        rank.ok_or_else(|| InputError::new(format!("unknown rank '{t}': use one of 2-9 T J Q K A")))
    }
}

/// A card suit, 0 clubs, 1 diamonds, 2 hearts, 3 spades.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Suit(pub u8);

impl Suit {
    /// All four suits in index order.
    pub const ALL: [Suit; 4] = [Suit(0), Suit(1), Suit(2), Suit(3)];

    /// The suit's character (`c`, `d`, `h`, `s`).
    pub fn to_char(self) -> char {
        SUIT_CHARS[self.0 as usize] as char
    }

    /// Parses one suit character, case-insensitively.
    pub fn from_char(c: char) -> Option<Suit> {
        let low = c.to_ascii_lowercase() as u8;
        SUIT_CHARS.iter().position(|&s| s == low).map(|i| Suit(i as u8))
    }
}

/// One playing card; its value is its bit index in a [`CardSet`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The card of this rank and suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(suit.0 * 16 + rank.0)
    }

    /// The card at a bit index (must be a valid index: lane 0-12 of suit 0-3).
    pub const fn from_index(index: u8) -> Card {
        Card(index)
    }

    /// The card's bit index.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The card's rank.
    pub const fn rank(self) -> Rank {
        Rank(self.0 & 15)
    }

    /// The card's suit.
    pub const fn suit(self) -> Suit {
        Suit(self.0 >> 4)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().to_char(), self.suit().to_char())
    }
}

impl FromStr for Card {
    type Err = InputError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let chars: Vec<char> = t.chars().collect();
        let parsed = match chars.as_slice() {
            [r, s] => Rank::from_char(*r).zip(Suit::from_char(*s)),
            ['1', '0', s] => Some(Rank(8)).zip(Suit::from_char(*s)),
            _ => None,
        };
        parsed
            .map(|(r, s)| Card::new(r, s))
            .ok_or_else(|| InputError::new(format!("unknown card '{t}': write rank then suit, e.g. As Kd Th 9c 2s")))
    }
}

/// A set of cards as a 64-bit mask (bit `suit * 16 + rank`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u64);

/// The `n`-th set bit of `bits` as a card: the `n`-th bit deposited into the set's bits.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn nth_by_deposit(bits: u64, n: u32) -> Card {
    Card(std::arch::x86_64::_pdep_u64(1 << n, bits).trailing_zeros() as u8)
}

/// For each byte and `k`, the position of the byte's `k`-th set bit (0 past its bits).
const NTH_BIT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut k = 0;
        let mut bit = 0;
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// Bits that are valid card positions.
const VALID_BITS: u64 = 0x1fff_1fff_1fff_1fff;

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 52 cards.
    pub const FULL: CardSet = CardSet(VALID_BITS);

    /// A set holding one card.
    pub const fn single(card: Card) -> CardSet {
        CardSet(1 << card.0)
    }

    /// Number of cards in the set.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds no card.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds this card.
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.0) != 0
    }

    /// Adds a card.
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.0;
    }

    /// Removes a card.
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.0);
    }

    /// Cards in either set.
    pub const fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// Cards in both sets.
    pub const fn intersect(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// Cards in `self` but not in `other`.
    pub const fn minus(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// The 13-bit rank mask of one suit.
    pub const fn suit_mask(self, suit: Suit) -> u16 {
        ((self.0 >> (suit.0 as u32 * 16)) & 0x1fff) as u16
    }

    /// Ranks present in any suit, as a 13-bit mask.
    pub const fn rank_mask(self) -> u16 {
        let x = self.0 | (self.0 >> 16) | (self.0 >> 32) | (self.0 >> 48);
        (x & 0x1fff) as u16
    }

    /// The cards of one rank.
    pub const fn of_rank(self, rank: Rank) -> CardSet {
        CardSet(self.0 & (0x0001_0001_0001_0001u64 << rank.0))
    }

    /// The `n`-th card (0-based, in index order); `None` past the end.
    ///
    /// One bit deposit where the CPU has BMI2 (checked once per process by `std`, so the
    /// build stays portable): a random-seat round's picks spent 9% of its instructions in
    /// the portable path.
    #[inline]
    pub fn nth(self, n: u32) -> Option<Card> {
        if n >= self.len() {
            return None;
        }
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("bmi2") {
            // SAFETY: the CPU has BMI2, checked just above.
            return Some(unsafe { nth_by_deposit(self.0, n) });
        }
        Some(self.nth_portable(n))
    }

    /// [`CardSet::nth`] without BMI2, for `n` below [`CardSet::len`].
    ///
    /// Free of data-dependent branches, since random picks call it with random `n` (a loop
    /// over set bits mispredicts there): byte popcounts summed by one multiplication find
    /// the byte holding the card, and a table finds the bit within it.
    #[inline]
    fn nth_portable(self, n: u32) -> Card {
        const ONES: u64 = 0x0101_0101_0101_0101;
        let x = self.0;
        let v = x - ((x >> 1) & 0x5555_5555_5555_5555);
        let v = (v & 0x3333_3333_3333_3333) + ((v >> 2) & 0x3333_3333_3333_3333);
        let counts = (v + (v >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
        // Byte i of `through` is the number of cards in bytes 0 to i (at most 52, so no
        // byte overflows or borrows below).
        let through = counts.wrapping_mul(ONES);
        let below_n = ((n as u64 * ONES) | (0x80 * ONES)).wrapping_sub(through) & (0x80 * ONES);
        // Bytes whose running count is still at most n lie wholly before the card.
        let byte = below_n.count_ones();
        let skipped = ((through << 8) >> (8 * byte)) as u32 & 0xff;
        let within = NTH_BIT_IN_BYTE[((x >> (8 * byte)) & 0xff) as usize][(n - skipped) as usize & 7];
        Card((8 * byte + within as u32) as u8)
    }

    /// The cards in index order.
    pub fn iter(self) -> CardIter {
        CardIter(self.0)
    }

    /// Parses whitespace-separated cards; a duplicate or unknown token is an error naming it.
    pub fn parse_list(text: &str) -> Result<Vec<Card>, InputError> {
        let mut seen = CardSet::EMPTY;
        let mut cards = Vec::new();
        for token in text.split_whitespace() {
            let card: Card = token.parse()?;
            if seen.contains(card) {
                return Err(InputError::new(format!("duplicate card '{token}': each card may appear once")));
            }
            seen.insert(card);
            cards.push(card);
        }
        Ok(cards)
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut set = CardSet::EMPTY;
        for card in iter {
            set.insert(card);
        }
        set
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_cards(f, self.iter())
    }
}

/// Writes cards separated by single spaces.
pub fn write_cards(f: &mut impl fmt::Write, cards: impl IntoIterator<Item = Card>) -> fmt::Result {
    for (i, card) in cards.into_iter().enumerate() {
        if i > 0 {
            f.write_char(' ')?;
        }
        write!(f, "{card}")?;
    }
    Ok(())
}

/// Formats cards as `As Kd Th`.
pub fn cards_to_string(cards: impl IntoIterator<Item = Card>) -> String {
    let mut s = String::new();
    let _ = write_cards(&mut s, cards);
    s
}

/// Iterator over a [`CardSet`] in index order.
#[derive(Clone, Debug)]
pub struct CardIter(u64);

impl Iterator for CardIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Card(i as u8))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardIter {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_for_every_card() {
        for card in CardSet::FULL.iter() {
            let text = card.to_string();
            assert_eq!(text.parse::<Card>().unwrap(), card, "{text}");
        }
        let cards = CardSet::parse_list("As Kd Th 9c 2s").unwrap();
        assert_eq!(cards_to_string(cards.iter().copied()), "As Kd Th 9c 2s");
    }

    #[test]
    fn bad_tokens_are_named() {
        let err = CardSet::parse_list("As Xx").unwrap_err();
        assert!(err.to_string().contains("'Xx'"), "{err}");
        let err = CardSet::parse_list("As As").unwrap_err();
        assert!(err.to_string().contains("duplicate card 'As'"), "{err}");
        assert!("1s".parse::<Card>().is_err());
        assert_eq!("10h".parse::<Card>().unwrap().to_string(), "Th");
    }

    #[test]
    fn set_operations() {
        let set: CardSet = CardSet::parse_list("As Ah Kd 2c").unwrap().into_iter().collect();
        assert_eq!(set.len(), 4);
        assert_eq!(set.of_rank(Rank::ACE).len(), 2);
        assert_eq!(set.rank_mask(), (1 << 12) | (1 << 11) | 1);
        assert_eq!(set.suit_mask(Suit(3)), 1 << 12);
        assert_eq!(set.nth(0).unwrap().to_string(), "2c");
        assert_eq!(set.nth(3).unwrap().to_string(), "As");
        assert_eq!(set.nth(4), None);
        for n in 0..52 {
            assert_eq!(CardSet::FULL.nth(n), CardSet::FULL.iter().nth(n as usize));
        }
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let set = CardSet(x & VALID_BITS & (x >> 7 | x << 5));
            for n in 0..=set.len() {
                assert_eq!(set.nth(n), set.iter().nth(n as usize), "{set} #{n}");
            }
            // Both paths, whichever one `nth` takes on this CPU.
            for n in 0..set.len() {
                assert_eq!(Some(set.nth_portable(n)), set.iter().nth(n as usize), "{set} #{n}");
            }
        }
        assert_eq!(CardSet::FULL.len(), 52);
    }
}
