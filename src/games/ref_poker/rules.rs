//! The reference poker games' rules: Kuhn poker and Leduc Hold'em as OpenSpiel plays them
//! (`docs/games/leduc-poker.md`), one rules struct whose defaults are the game's.

use std::marker::PhantomData;

use serde::{Deserialize, Serialize};

use crate::error::{Fault, InputError};
use crate::games::GameRules;
use crate::games::RuleStep;
use crate::games::contest::RulesRng;

/// Which reference game a rules file belongs to: its name and its defaults.
pub trait Flavour: Clone + Copy + Default + std::fmt::Debug + PartialEq + Send + Sync + 'static {
    /// The game's name on the command line.
    const NAME: &'static str;
    /// Its name in prose.
    const TITLE: &'static str;
    /// One line for `draftsim list games`.
    const DESCRIPTION: &'static str;
    /// The presets of `strategies/<NAME>/`.
    const PRESETS: &'static [(&'static str, &'static str)];
    /// What the view's labels mean, for `play` (see `GameDef::VIEW_LEGEND`).
    const VIEW_LEGEND: &'static str;
    /// The game's default rules.
    fn defaults() -> Rules<Self>;
}

/// Kuhn poker: J, Q, K; one card each; one betting round, bets of 1, one bet at most.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Kuhn;

/// Leduc Hold'em: two suits of J, Q, K; one card each, a public card between two betting
/// rounds (raises of 2 then 4, two a round at most); a pair with the public card wins.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Leduc;

impl Flavour for Kuhn {
    const NAME: &'static str = "kuhn-poker";
    const TITLE: &'static str = "Kuhn poker";
    const DESCRIPTION: &'static str = "Kuhn poker, OpenSpiel's rules: three cards, one each, one bet (the solver's reference, 2 or 3 players, 4 with ranks = 4)";
    const PRESETS: &'static [(&'static str, &'static str)] = crate::embedded_presets!("kuhn-poker": "random", "calling-station", "aggressive", "tight", "bluffer", "search", "cfr");
    const VIEW_LEGEND: &'static str = "
        card: your card, J, Q or K (a suit's number follows it where the rules deal suits)
        stakes: what every seat still in must have put in
        history: the actions so far";
    fn defaults() -> Rules<Kuhn> {
        Rules {
            players: 2,
            ranks: 3,
            suits: 1,
            rounds: 1,
            ante: 1,
            raise_sizes: vec![1],
            max_raises: 1,
            flavour: PhantomData,
        }
    }
}

impl Flavour for Leduc {
    const NAME: &'static str = "leduc-poker";
    const TITLE: &'static str = "Leduc Hold'em";
    const DESCRIPTION: &'static str = "Leduc Hold'em, OpenSpiel's rules: six cards, two betting rounds around a public card (the solver's reference, 2-4 players)";
    const PRESETS: &'static [(&'static str, &'static str)] =
        crate::embedded_presets!("leduc-poker": "random", "calling-station", "aggressive", "tight", "search", "cfr");
    const VIEW_LEGEND: &'static str = "
        card, board: your card and the public card: a rank, then a suit's number (Q2: a queen of suit 2)
        round: the betting round, from 0
        stakes: what every seat still in must have put in
        history: the actions so far, the public card where it was turned";
    fn defaults() -> Rules<Leduc> {
        Rules {
            players: 2,
            ranks: 3,
            suits: 2,
            rounds: 2,
            ante: 1,
            raise_sizes: vec![2, 4],
            max_raises: 2,
            flavour: PhantomData,
        }
    }
}

/// The rules of a reference poker game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default, bound = "")]
pub struct Rules<F: Flavour> {
    /// Number of players.
    pub players: usize,
    /// Ranks in the deck (J, Q, K are 3).
    pub ranks: u8,
    /// Suits of each rank.
    pub suits: u8,
    /// Betting rounds: 1 (no public card) or 2 (a public card before the second).
    pub rounds: u8,
    /// Chips each player antes.
    pub ante: u32,
    /// The raise size of each round (fixed limit).
    pub raise_sizes: Vec<u32>,
    /// Most raises (the first bet counts) in one round.
    pub max_raises: u32,
    #[serde(skip)]
    flavour: PhantomData<F>,
}

impl<F: Flavour> Default for Rules<F> {
    fn default() -> Self {
        F::defaults()
    }
}

impl<F: Flavour> GameRules for Rules<F> {
    /// Every key with its meaning.
    const HELP: &'static [(&'static str, &'static str)] = &[
        (
            "players",
            "number of players, 2 to 4 (the deck must hold a card for each, and a public card where there are two betting rounds)",
        ),
        ("ranks", "ranks in the deck, 2 to 13 (3: J, Q, K)"),
        ("suits", "suits of each rank, 1 to 4 (ties split the pot)"),
        ("rounds", "betting rounds: 1, or 2 with a public card dealt before the second"),
        ("ante", "chips each player antes"),
        ("raise_sizes", "the raise size of each round, one number a round (fixed limit)"),
        ("max_raises", "most raises in one round, the first bet included (1 to 4)"),
    ];

    /// The keys a sensitivity study steps.
    const STEPS: &'static [(&'static str, RuleStep)] = &[
        ("players", RuleStep::Int { min: 2, max: 4, step: 1 }),
        ("ranks", RuleStep::Int { min: 2, max: 13, step: 1 }),
        ("ante", RuleStep::Int { min: 1, max: 100, step: 1 }),
        ("max_raises", RuleStep::Int { min: 1, max: 4, step: 1 }),
    ];

    fn players(&self) -> usize {
        self.players
    }

    /// Checks the rules; one line naming the key and the fix.
    fn check(&self) -> Result<(), InputError> {
        if !(1..=2).contains(&self.rounds) {
            return Err(InputError::new(format!("rounds = {}: give 1 or 2", self.rounds)));
        }
        if !(2..=13).contains(&self.ranks) || !(1..=4).contains(&self.suits) {
            return Err(InputError::new(format!(
                "ranks = {}, suits = {}: give 2 to 13 ranks and 1 to 4 suits",
                self.ranks, self.suits
            )));
        }
        let needed = self.players + usize::from(self.rounds) - 1;
        if !(2..=4).contains(&self.players) {
            // The most this deck seats, where it seats fewer than the game's four.
            let most = (self.deck() + 1).saturating_sub(usize::from(self.rounds)).min(4);
            let seats = match most {
                4 => "give 2 to 4 players".to_string(),
                m if m >= 2 => format!(
                    "give 2 to {m} players with this deck of {} cards (4 with more ranks or suits)",
                    self.deck()
                ),
                _ => "give 2 to 4 players".to_string(),
            };
            return Err(InputError::new(format!("players = {}: {seats}", self.players)).about(Fault::Players));
        }
        if self.deck() < needed {
            return Err(InputError::new(format!(
                "players = {}: the deck of {} cards must hold one for each player{}; add ranks or suits (e.g. ranks = {})",
                self.players,
                self.deck(),
                if self.rounds == 2 { " and the public card" } else { "" },
                needed.div_ceil(usize::from(self.suits.max(1)))
            ))
            .about(Fault::Players));
        }
        if self.raise_sizes.len() != usize::from(self.rounds) || self.raise_sizes.contains(&0) {
            return Err(InputError::new(format!(
                "raise_sizes: give {} size(s) of at least 1, one a round",
                self.rounds
            )));
        }
        if self.ante == 0 {
            return Err(InputError::new("ante: must be at least 1"));
        }
        if !(1..=4).contains(&self.max_raises) {
            return Err(InputError::new(format!("max_raises = {}: give 1 to 4", self.max_raises)));
        }
        if self.longest_history() > crate::games::ref_poker::engine::MAX_HISTORY {
            return Err(InputError::new(format!(
                "max_raises = {} at {} players: a hand could run to {} actions, more than {}; lower max_raises or players",
                self.max_raises,
                self.players,
                self.longest_history(),
                crate::games::ref_poker::engine::MAX_HISTORY
            )));
        }
        Ok(())
    }

    fn players_mut(&mut self) -> &mut usize {
        &mut self.players
    }

    /// Rules drawn at random for soak and property tests.
    fn random_from(rng: &mut RulesRng) -> Rules<F> {
        use rand::Rng;
        let rounds = rng.random_range(1..=2u8);
        let players = rng.random_range(2..=4);
        let mut r = Rules {
            players,
            // Enough ranks for every player's card and the public card, whatever the suits.
            ranks: rng.random_range(3..=6).max((players + usize::from(rounds) - 1) as u8),
            suits: rng.random_range(1..=2),
            rounds,
            ante: rng.random_range(1..=2),
            raise_sizes: (0..rounds).map(|_| rng.random_range(1..=4)).collect(),
            max_raises: rng.random_range(1..=3),
            flavour: PhantomData,
        };
        // Fewer raises where the hand could outgrow the recorded history.
        while r.longest_history() > super::engine::MAX_HISTORY {
            r.max_raises -= 1;
        }
        r
    }
}

impl<F: Flavour> Rules<F> {
    /// The most one seat can put in a hand: the ante and every raise of every round.
    pub fn most_staked(&self) -> u32 {
        self.ante + self.raise_sizes.iter().sum::<u32>() * self.max_raises
    }

    /// Cards in the deck.
    pub fn deck(&self) -> usize {
        usize::from(self.ranks) * usize::from(self.suits)
    }

    /// The most actions a hand can record, each round's end marked: per round, before
    /// each raise and after the last, every other seat may act once, and the raises.
    pub fn longest_history(&self) -> usize {
        let per_round = (self.players - 1) * (self.max_raises as usize + 1) + self.max_raises as usize;
        usize::from(self.rounds) * per_round + usize::from(self.rounds) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_rules_are_valid() {
        for seed in 0..500 {
            Rules::<Leduc>::random(seed).check().unwrap();
            Rules::<Kuhn>::random(seed).check().unwrap();
        }
    }

    #[test]
    fn defaults_are_openspiels_and_bad_keys_are_named() {
        assert_eq!(Rules::<Kuhn>::default().deck(), 3);
        assert_eq!(Rules::<Leduc>::default().deck(), 6);
        let r: Rules<Leduc> = crate::games::presets::parse_toml("players = 3").unwrap();
        assert_eq!((r.players, r.raise_sizes.clone()), (3, vec![2, 4]));
        r.check().unwrap();
        let e = crate::games::presets::parse_toml::<Rules<Kuhn>>("bet = 2").unwrap_err();
        assert!(e.to_string().contains("bet"), "{e}");
        let e = Rules::<Kuhn> { players: 4, ..Rules::default() }.check().unwrap_err();
        assert!(e.to_string().contains("add ranks"), "{e}");
        let e = Rules::<Leduc> { players: 4, max_raises: 3, ..Rules::default() }.check().unwrap_err();
        assert!(e.to_string().contains("lower max_raises"), "{e}");
        let e = Rules::<Leduc> { raise_sizes: vec![2], ..Rules::default() }.check().unwrap_err();
        assert!(e.to_string().contains("raise_sizes"), "{e}");
    }
}
