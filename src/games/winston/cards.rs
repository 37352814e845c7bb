//! The card pool as bitsets: a card is a bit of a `u128`; its colours, rank and ability
//! are looked up in the [`Pool`] the rules describe.
//!
//! The pool is fixed by the rules (not by the deal): the main set holds one card per
//! colour and rank, colour by colour; expansion card `i` has rank `i % ranks + 1` and
//! colour `i % colours`; the first `multicoloured` expansion cards also carry the next
//! colour round; the last `ability_cards` carry the abilities in turn.

use super::rules::{Ability, MAX_CARDS, Rules};
use crate::sim::{CardCatalog, CardGroup};

/// A set of cards.
pub type Cards = u128;

/// The cards of the pool and their features.
#[derive(Clone, Debug, PartialEq)]
pub struct Pool {
    /// Cards in the pool.
    pub size: usize,
    /// Colour names.
    pub colour_names: Vec<String>,
    /// Each card's colours, as bits.
    pub colours: [u8; MAX_CARDS],
    /// Each card's rank.
    pub rank: [u8; MAX_CARDS],
    /// Each card's ability.
    pub ability: [Option<Ability>; MAX_CARDS],
    /// The cards of each colour (multicoloured cards are in both).
    pub by_colour: [Cards; 6],
    /// The cards of each rank (index 0 unused).
    pub by_rank: [Cards; 17],
    /// Wild cards (the eights when eights are wild).
    pub wild: Cards,
    /// The eights, wild or not.
    pub eights: Cards,
    /// Multicoloured cards.
    pub multi: Cards,
    /// Cards with an ability.
    pub with_ability: Cards,
    /// Every card.
    pub all: Cards,
    /// For each card as the top of a discard pile, the cards that match it: its colours,
    /// its rank and the wild cards (itself included).
    pub follow: [Cards; MAX_CARDS],
    /// Each card's identity for card analytics: cards of the same name share one.
    pub identity: [u8; MAX_CARDS],
    /// Identity names, by identity.
    pub identity_names: Vec<String>,
}

/// The bit of card `id`.
#[inline]
pub fn bit(id: u8) -> Cards {
    1u128 << id
}

/// The cards of a set, lowest first.
pub fn ids(mut cards: Cards) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if cards == 0 {
            return None;
        }
        let id = cards.trailing_zeros() as u8;
        cards &= cards - 1;
        Some(id)
    })
}

/// Number of cards in a set.
#[inline]
pub fn count(cards: Cards) -> usize {
    cards.count_ones() as usize
}

impl Pool {
    /// The pool these rules describe.
    pub fn new(rules: &Rules) -> Pool {
        let n_colours = rules.colours.len();
        let ranks = rules.ranks;
        let mut pool = Pool {
            size: rules.pool_size(),
            colour_names: rules.colours.clone(),
            colours: [0; MAX_CARDS],
            rank: [0; MAX_CARDS],
            ability: [None; MAX_CARDS],
            by_colour: [0; 6],
            by_rank: [0; 17],
            wild: 0,
            eights: 0,
            multi: 0,
            with_ability: 0,
            all: 0,
            follow: [0; MAX_CARDS],
            identity: [0; MAX_CARDS],
            identity_names: Vec::new(),
        };
        let mut id = 0;
        for c in 0..n_colours {
            for r in 1..=ranks {
                pool.colours[id] = 1 << c;
                pool.rank[id] = r;
                id += 1;
            }
        }
        let first_ability = rules.expansion - rules.ability_cards;
        for i in 0..rules.expansion {
            let c = i % n_colours;
            let mut colours = 1u8 << c;
            if i < rules.multicoloured {
                colours |= 1 << ((c + 1 + i / n_colours % (n_colours - 1)) % n_colours);
            }
            pool.colours[id] = colours;
            pool.rank[id] = (i % usize::from(ranks)) as u8 + 1;
            if i >= first_ability {
                pool.ability[id] = Some(rules.abilities[(i - first_ability) % rules.abilities.len()]);
            }
            id += 1;
        }
        for id in 0..pool.size {
            let b = bit(id as u8);
            pool.all |= b;
            for c in 0..n_colours {
                if pool.colours[id] >> c & 1 == 1 {
                    pool.by_colour[c] |= b;
                }
            }
            pool.by_rank[usize::from(pool.rank[id])] |= b;
            if pool.colours[id].count_ones() > 1 {
                pool.multi |= b;
            }
            if pool.ability[id].is_some() {
                pool.with_ability |= b;
            }
        }
        pool.eights = if ranks >= 8 { pool.by_rank[8] } else { 0 };
        pool.wild = if rules.eights_wild { pool.eights } else { 0 };
        for id in 0..pool.size {
            pool.follow[id] = pool.of_colours(pool.colours[id]) | pool.by_rank[usize::from(pool.rank[id])] | pool.wild;
        }
        for id in 0..pool.size {
            let name = pool.card_name(id as u8);
            let known = pool.identity_names.iter().position(|n| *n == name);
            pool.identity[id] = known.unwrap_or(pool.identity_names.len()) as u8;
            if known.is_none() {
                pool.identity_names.push(name);
            }
        }
        pool
    }

    /// Card analytics identities (colour x rank, with multicoloured cards and abilities
    /// named apart), pooled by colour, by rank and by kind (eight, ability,
    /// multicoloured, plain).
    pub fn card_catalog(&self) -> CardCatalog {
        let first =
            |identity: usize| (0..self.size).find(|&id| usize::from(self.identity[id]) == identity).unwrap_or(0);
        let ids: Vec<usize> = (0..self.identity_names.len()).map(first).collect();
        let mut colours = self.colour_names.clone();
        colours.push("multicoloured".into());
        let colour_of = |id: usize| {
            let c = self.colours[id];
            if c.count_ones() > 1 { self.n_colours() } else { c.trailing_zeros() as usize }
        };
        let max_rank = (0..self.size).map(|id| self.rank[id]).max().unwrap_or(0);
        let kind_of = |id: usize| {
            let b = bit(id as u8);
            if self.eights & b != 0 {
                0
            } else if self.with_ability & b != 0 {
                1
            } else if self.multi & b != 0 {
                2
            } else {
                3
            }
        };
        let group = |level: &str, names: Vec<String>, of: &dyn Fn(usize) -> usize| CardGroup {
            level: level.into(),
            names,
            of_card: ids.iter().map(|&id| Some(of(id) as u16)).collect(),
        };
        CardCatalog {
            names: self.identity_names.clone(),
            groups: vec![
                group("colour", colours, &colour_of),
                group("rank", (1..=max_rank).map(|r| r.to_string()).collect(), &|id| usize::from(self.rank[id]) - 1),
                group("kind", ["eight", "ability", "multicoloured", "plain"].map(String::from).to_vec(), &kind_of),
            ],
        }
    }

    /// Number of colours.
    pub fn n_colours(&self) -> usize {
        self.colour_names.len()
    }

    /// The cards of any colour in `colours` (bits).
    #[inline]
    pub fn of_colours(&self, colours: u8) -> Cards {
        let mut m = 0;
        let mut c = colours;
        while c != 0 {
            m |= self.by_colour[c.trailing_zeros() as usize];
            c &= c - 1;
        }
        m
    }

    /// Cards of each colour in `cards`.
    pub fn colour_counts(&self, cards: Cards) -> [usize; 6] {
        std::array::from_fn(|c| count(cards & self.by_colour[c]))
    }

    /// A card's name, e.g. `red 7`, `red/blue 3`, `green 8 (peek)`.
    pub fn card_name(&self, id: u8) -> String {
        let i = usize::from(id);
        let colours: Vec<&str> = (0..self.n_colours())
            .filter(|c| self.colours[i] >> c & 1 == 1)
            .map(|c| self.colour_names[c].as_str())
            .collect();
        let mut name = format!("{} {}", colours.join("/"), self.rank[i]);
        if let Some(a) = self.ability[i] {
            name.push_str(&format!(" ({})", a.name()));
        }
        name
    }

    /// A set's cards named, comma-separated.
    pub fn set_name(&self, cards: Cards) -> String {
        if cards == 0 {
            return "nothing".into();
        }
        ids(cards).map(|id| self.card_name(id)).collect::<Vec<_>>().join(", ")
    }

    /// A colour set's names joined by `/`.
    pub fn colours_name(&self, colours: u8) -> String {
        let v: Vec<&str> =
            (0..self.n_colours()).filter(|c| colours >> c & 1 == 1).map(|c| self.colour_names[c].as_str()).collect();
        if v.is_empty() { "none".into() } else { v.join("/") }
    }

    /// The cards of `pool` a deck of chosen `colours` may hold under `rules`.
    pub fn usable(&self, rules: &Rules, pool: Cards, colours: u8) -> Cards {
        let on_colour = self.of_colours(colours);
        let single = pool & !self.multi & on_colour;
        let multi = match rules.multicolour {
            super::rules::Multicolour::Always => pool & self.multi,
            super::rules::Multicolour::SharesColour => pool & self.multi & on_colour,
        };
        single | multi
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_pool_has_87_cards_with_its_features() {
        let rules = Rules::default();
        let pool = Pool::new(&rules);
        assert_eq!(count(pool.all), 87);
        assert_eq!(count(pool.multi), 10);
        assert_eq!(count(pool.with_ability), 14);
        // One eight per colour in the main set, and expansion cards 7, 20 and 33 (rank 8).
        assert_eq!(count(pool.eights), 7);
        assert_eq!(pool.wild, pool.eights);
        for c in 0..4 {
            // 13 main cards per colour, plus the expansion's share and multicoloured cards.
            assert!(count(pool.by_colour[c]) >= 13 + 8);
        }
        for id in ids(pool.multi) {
            assert_eq!(pool.colours[usize::from(id)].count_ones(), 2);
        }
        assert_eq!(pool.card_name(7), "red 8");
    }
}
