//! Deck presets and decks built from a list of ranks.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{Card, CardSet, Rank, Suit};
use crate::error::InputError;

/// The named decks a rules file or the command line may choose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeckPreset {
    /// All 52 cards, 2 to A.
    #[default]
    #[serde(rename = "standard-52")]
    Standard52,
    /// 48 cards: the deuces removed.
    #[serde(rename = "no-deuces-48")]
    NoDeuces48,
    /// 36 cards, 6 to A.
    #[serde(rename = "short-36")]
    Short36,
    /// 32 cards, 7 to A.
    #[serde(rename = "piquet-32")]
    Piquet32,
}

impl DeckPreset {
    /// Every preset, in the order `list` shows them.
    pub const ALL: [DeckPreset; 4] =
        [DeckPreset::Standard52, DeckPreset::NoDeuces48, DeckPreset::Short36, DeckPreset::Piquet32];

    /// The preset's name as written in rules files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            DeckPreset::Standard52 => "standard-52",
            DeckPreset::NoDeuces48 => "no-deuces-48",
            DeckPreset::Short36 => "short-36",
            DeckPreset::Piquet32 => "piquet-32",
        }
    }

    /// The lowest rank the preset keeps.
    fn lowest_rank(self) -> Rank {
        match self {
            DeckPreset::Standard52 => Rank(0),
            DeckPreset::NoDeuces48 => Rank(1),
            DeckPreset::Short36 => Rank(4),
            DeckPreset::Piquet32 => Rank(5),
        }
    }

    /// The preset's deck.
    pub fn deck(self) -> Deck {
        let ranks: Vec<Rank> = (self.lowest_rank().0..13).map(Rank).collect();
        let mut deck = Deck::from_ranks(&ranks).expect("presets have at least five ranks");
        deck.name = self.name().to_string();
        deck.flush_beats_full_house = matches!(self, DeckPreset::Short36 | DeckPreset::Piquet32);
        deck
    }
}

impl fmt::Display for DeckPreset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DeckPreset {
    type Err = InputError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DeckPreset::ALL.into_iter().find(|p| p.name() == s).ok_or_else(|| {
            let names: Vec<&str> = DeckPreset::ALL.iter().map(|p| p.name()).collect();
            InputError::new(format!("unknown deck '{s}': use one of {}", names.join(", ")))
        })
    }
}

/// A deck: which ranks it holds (all four suits of each), and the poker facts that follow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    /// The preset's name, or `custom` for a list of ranks.
    pub name: String,
    /// The ranks present, as a 13-bit mask.
    pub rank_mask: u16,
    /// Every card of the deck.
    pub cards: CardSet,
    /// Whether a flush ranks above a full house (the short-deck convention).
    pub flush_beats_full_house: bool,
}

impl Deck {
    /// A deck of all four suits of the given ranks; at least five distinct ranks. A flush
    /// beats a full house with nine ranks or fewer (like the short presets).
    pub fn from_ranks(ranks: &[Rank]) -> Result<Deck, InputError> {
        let mut rank_mask = 0u16;
        for r in ranks {
            if rank_mask & (1 << r.0) != 0 {
                return Err(InputError::new(format!("ranks: '{}' is listed twice; list each rank once", r.to_char())));
            }
            rank_mask |= 1 << r.0;
        }
        if rank_mask.count_ones() < 5 {
            return Err(InputError::new("ranks: a deck needs at least 5 distinct ranks to make a poker hand"));
        }
        let mut cards = CardSet::EMPTY;
        for suit in Suit::ALL {
            cards.0 |= (rank_mask as u64) << (suit.0 * 16);
        }
        // Short decks (nine ranks or fewer, as short-36 and piquet-32) make flushes rarer
        // than full houses, so a flush ranks higher there, as the presets do.
        Ok(Deck { name: "custom".into(), rank_mask, cards, flush_beats_full_house: ranks.len() <= 9 })
    }

    /// Number of cards.
    pub fn len(&self) -> usize {
        self.cards.len() as usize
    }

    /// Whether the deck is empty (never true for a valid deck).
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The deck's ranks from lowest to highest.
    pub fn ranks(&self) -> Vec<Rank> {
        (0..13).filter(|r| self.rank_mask & (1 << r) != 0).map(Rank).collect()
    }

    /// The deck's cards in index order, ready to shuffle.
    pub fn card_list(&self) -> Vec<Card> {
        self.cards.iter().collect()
    }

    /// The straights of this deck, highest first, each as (five-rank mask, the rank that
    /// names it: its top card, or for the wheel its fourth-lowest card).
    ///
    /// Straights follow the deck's own ranks: five consecutive ranks of the deck, plus the
    /// wheel made of the ace and the four lowest ranks (A-2-3-4-5, or A-6-7-8-9 in short-36).
    pub fn straights(&self) -> Vec<(u16, Rank)> {
        let ranks = self.ranks();
        let mut out: Vec<(u16, Rank)> =
            ranks.windows(5).rev().map(|w| (w.iter().fold(0u16, |m, r| m | (1 << r.0)), w[4])).collect();
        if ranks.last() == Some(&Rank::ACE) && ranks.len() >= 6 {
            let wheel = ranks[..4].iter().fold(1u16 << 12, |m, r| m | (1 << r.0));
            out.push((wheel, ranks[3]));
        }
        out
    }
}

impl Default for Deck {
    fn default() -> Self {
        DeckPreset::Standard52.deck()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_have_their_sizes() {
        let sizes: Vec<usize> = DeckPreset::ALL.iter().map(|p| p.deck().len()).collect();
        assert_eq!(sizes, vec![52, 48, 36, 32]);
        assert!(DeckPreset::Short36.deck().flush_beats_full_house);
        assert!(!DeckPreset::Standard52.deck().flush_beats_full_house);
        assert_eq!("piquet-32".parse::<DeckPreset>().unwrap(), DeckPreset::Piquet32);
        let err = "pinochle".parse::<DeckPreset>().unwrap_err().to_string();
        assert!(err.contains("'pinochle'") && err.contains("short-36"), "{err}");
    }

    #[test]
    fn straights_follow_the_deck() {
        let std = DeckPreset::Standard52.deck().straights();
        assert_eq!(std.len(), 10);
        assert_eq!(std[0], (0b1_1111_0000_0000, Rank::ACE));
        assert_eq!(*std.last().unwrap(), (0b1_0000_0000_1111, Rank(3)));
        let short = DeckPreset::Short36.deck().straights();
        assert_eq!(short.len(), 6);
        // A-6-7-8-9 is the short deck's wheel.
        assert_eq!(*short.last().unwrap(), ((1 << 12) | 0b1111_0000, Rank(7)));
    }

    #[test]
    fn custom_ranks_are_checked() {
        let r = |s: &str| s.chars().map(|c| Rank::from_char(c).unwrap()).collect::<Vec<_>>();
        assert!(Deck::from_ranks(&r("2345")).is_err());
        assert!(Deck::from_ranks(&r("23345")).unwrap_err().to_string().contains("twice"));
        let deck = Deck::from_ranks(&r("2468TQA")).unwrap();
        assert_eq!(deck.len(), 28);
        // Straights follow the deck's ranks: 2-4-6-8-T is five consecutive ranks here.
        assert!(deck.straights().contains(&(0b0_0001_0101_0101, Rank(8))));
        // 6-8-T-Q-A is an ordinary straight to the ace, not a wheel.
        assert_eq!(deck.straights()[0], (0b1_0101_0101_0000, Rank::ACE));
    }
}
