//! Live-Draft rules: `docs/games/live-draft.md`, with every number of the abstract game
//! a rules option, and the choices this simulator makes where the rules are silent.

use crate::games::{BOOL, RuleStep};
use serde::{Deserialize, Serialize};

use crate::error::{Fault, InputError};
use crate::games::GameRules;
use crate::games::contest::RulesRng;

/// How players draw from the common library.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Seven face-up cards; take any, replace it from the library; wipe when all lands or
    /// all non-lands.
    #[default]
    Tableau,
    /// Seven cards in a row; take any, remove the leftmost, slide, add two at the right.
    Pipeline,
    /// A common discard pile: take its top, or draw two and discard one.
    Rummy,
    /// The top card of the library (the baseline).
    Blind,
}

/// How hands are first filled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Opening {
    /// Seven each (rummy: fourteen, then discard to seven); a player may remove two cards
    /// from the game to draw one by the method in force, instead of a mulligan.
    #[default]
    Quick,
    /// From the first player, one card at a time by the method in force until all hold seven.
    Careful,
}

/// Who gets the mill counters for the cards a tableau wipe deals anew.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WipeCounters {
    /// The player whose draw made the tableau one kind.
    #[default]
    Drawer,
    /// Nobody: the redeal is the table's, not a draw.
    Nobody,
}

/// One kind of card in a fixed card list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardSpec {
    /// Colour index, 0 to 4.
    pub colour: u8,
    /// Mana cost 1-6; 0 for a land.
    pub cost: u8,
    /// Power (creatures).
    #[serde(default)]
    pub power: u8,
    /// Toughness (creatures).
    #[serde(default)]
    pub toughness: u8,
    /// Copies in the library.
    #[serde(default = "one")]
    pub count: usize,
}

fn one() -> usize {
    1
}

/// The rules of a Live-Draft variant, as written in a rules file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// Number of players, 2 to 4.
    pub players: usize,
    /// How players draw: `tableau`, `pipeline`, `rummy` or `blind`.
    pub method: Method,
    /// How hands are first filled: `quick` or `careful`.
    pub opening: Opening,
    /// Cards in the generated library.
    pub library_size: usize,
    /// Share of the generated library that is lands.
    pub land_share: f64,
    /// A fixed card list instead of a generated library (its cards are shuffled per deal).
    pub cards: Option<Vec<CardSpec>>,
    /// Starting life.
    pub life: i32,
    /// Cards in an opening hand.
    pub hand_size: usize,
    /// Most cards in hand at the end of a turn (the rest are discarded to the graveyard).
    pub max_hand: usize,
    /// Face-up cards in the tableau or pipeline.
    pub row: usize,
    /// Most quick-opening exchanges (remove two, draw one) per player.
    pub max_mulligans: usize,
    /// Whether the first player draws on their first turn; unset, it skips that draw in a
    /// two-player game only (the Magic rule) and draws with three or four players.
    pub first_player_draws: Option<bool>,
    /// Mill counters: when someone must draw and nothing is left, the fewest counters wins.
    pub mill_counters: bool,
    /// When the library runs out, shuffle the cards removed from the game into a new one.
    pub reshuffle_removed: bool,
    /// Turns (all players' together) after which the game is drawn; 0 scales the cap to
    /// the library ([`Rules::turn_cap`]).
    pub max_turns: u32,
    /// Whether attackers stay untapped. False (the default): attackers tap and cannot block
    /// until their controller's next turn, as in Magic. True: every creature attacks and
    /// still blocks, as the engine played before attackers tapped.
    pub vigilance: bool,
    /// Who gets the mill counters for a tableau wipe's redeal: `drawer` or `nobody`.
    pub wipe_counters: WipeCounters,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            players: 2,
            method: Method::Tableau,
            opening: Opening::Quick,
            library_size: 120,
            land_share: 0.25,
            cards: None,
            life: 20,
            hand_size: 7,
            max_hand: 7,
            row: 7,
            max_mulligans: 1,
            first_player_draws: None,
            mill_counters: true,
            reshuffle_removed: false,
            max_turns: 0,
            vigilance: false,
            wipe_counters: WipeCounters::Drawer,
        }
    }
}

impl GameRules for Rules {
    /// Each rules key with its meaning, for `draftsim list rules live-draft`.
    const HELP: &'static [(&'static str, &'static str)] = &[
        ("players", "number of players, 2 to 4"),
        ("method", "tableau (default), pipeline, rummy or blind"),
        ("opening", "quick (seven each, remove two to draw one) or careful (one at a time by the method)"),
        ("library_size", "cards in the generated library, 40 to 240 (default 120)"),
        ("land_share", "share of the generated library that is lands (default 0.25)"),
        ("cards", "a fixed card list: [[cards]] colour (0-4), cost (0 = land, 1-6), power, toughness, count"),
        ("life", "starting life (default 20)"),
        ("hand_size", "cards in an opening hand (default 7)"),
        ("max_hand", "most cards in hand at the end of a turn (default 7; at least hand_size)"),
        ("row", "face-up cards in the tableau or pipeline, 3 to 10 (default 7)"),
        ("max_mulligans", "most quick-opening exchanges per player (default 1)"),
        (
            "first_player_draws",
            "the first player draws on their first turn: true or false (unset: skips it with 2 players only, as in Magic)",
        ),
        ("mill_counters", "when someone must draw and nothing is left, the fewest mill counters wins (default true)"),
        ("reshuffle_removed", "when the library runs out, the removed cards become a new library (default false)"),
        (
            "max_turns",
            "turns of all players after which the game is drawn, 1 to 1000; 0 (default): twice the library's cards",
        ),
        (
            "vigilance",
            "attackers do not tap and still block (default false: attackers tap and cannot block until their next turn)",
        ),
        ("wipe_counters", "mill counters for a tableau wipe's redeal: drawer (default, who caused it) or nobody"),
    ];

    /// The keys `sensitivity` steps (see [`crate::games::RuleStep`]).
    const STEPS: &'static [(&'static str, RuleStep)] = &[
        ("players", RuleStep::Int { min: 2, max: 4, step: 1 }),
        ("method", RuleStep::Choice(&["\"tableau\"", "\"pipeline\"", "\"rummy\"", "\"blind\""])),
        ("opening", RuleStep::Choice(&["\"quick\"", "\"careful\""])),
        ("library_size", RuleStep::Int { min: 40, max: 240, step: 20 }),
        ("land_share", RuleStep::Real { min: 0.05, max: 0.6, step: 0.05 }),
        ("life", RuleStep::Int { min: 1, max: 100, step: 5 }),
        ("hand_size", RuleStep::Int { min: 1, max: 10, step: 1 }),
        ("row", RuleStep::Int { min: 3, max: 10, step: 1 }),
        ("max_mulligans", RuleStep::Int { min: 0, max: 3, step: 1 }),
        ("first_player_draws", BOOL),
        ("mill_counters", BOOL),
        ("reshuffle_removed", BOOL),
        ("vigilance", BOOL),
        ("wipe_counters", RuleStep::Choice(&["\"drawer\"", "\"nobody\""])),
    ];

    fn players(&self) -> usize {
        self.players
    }

    fn resolved(&self) -> Self {
        Self { first_player_draws: Some(self.first_player_draws()), ..self.clone() }
    }

    /// Checks the rules.
    fn check(&self) -> Result<(), InputError> {
        let bad = |text: String| Err(InputError::new(text));
        if !(2..=4).contains(&self.players) {
            return Err(InputError::new(format!("players = {}: Live-Draft seats 2 to 4 players", self.players))
                .about(Fault::Players));
        }
        if self.cards.is_none() && !(40..=MAX_LIBRARY).contains(&self.library_size) {
            return bad(format!("library_size = {}: use 40 to {MAX_LIBRARY}", self.library_size));
        }
        if !(0.0..=1.0).contains(&self.land_share) {
            return bad(format!("land_share = {}: use a share from 0 to 1", self.land_share));
        }
        if let Some(list) = &self.cards {
            for (i, c) in list.iter().enumerate() {
                if usize::from(c.colour) >= COLOURS || c.cost > 6 || (c.cost > 0 && c.toughness == 0) {
                    return bad(format!(
                        "cards[{i}]: colour 0-4, cost 0 (land) or 1-6, and a creature needs toughness 1 or more"
                    ));
                }
            }
            let n = self.library_cards();
            if !(20..=MAX_LIBRARY).contains(&n) {
                return bad(format!("cards: {n} cards in all; give 20 to {MAX_LIBRARY}"));
            }
        }
        if !(1..=200).contains(&self.life) {
            return bad(format!("life = {}: use 1 to 200", self.life));
        }
        if !(1..=10).contains(&self.hand_size) {
            return bad(format!("hand_size = {}: use 1 to 10", self.hand_size));
        }
        if self.max_hand < self.hand_size || self.max_hand > 20 {
            return bad(format!(
                "max_hand = {}: use hand_size ({}) to 20; set max_hand too where hand_size is above its default 7",
                self.max_hand, self.hand_size
            ));
        }
        if !(3..=MAX_ROW).contains(&self.row) {
            return bad(format!("row = {}: use 3 to {MAX_ROW}", self.row));
        }
        if self.max_mulligans > 3 {
            return bad(format!("max_mulligans = {}: use 0 to 3", self.max_mulligans));
        }
        if self.max_turns > 1000 {
            return bad(format!("max_turns = {}: use 1 to 1000, or 0 for twice the library's cards", self.max_turns));
        }
        // The opening's least draw from the library: every hand, doubled where rummy's quick
        // opening deals twice the hand to discard from, and the row where the method lays
        // one out (tableau and pipeline).
        let twice = self.method == Method::Rummy && self.opening == Opening::Quick;
        let row = if matches!(self.method, Method::Tableau | Method::Pipeline) { self.row } else { 0 };
        let opening = self.players * self.hand_size * if twice { 2 } else { 1 } + row;
        if opening > self.library_cards() {
            return bad(format!(
                "library: {} cards cannot deal the opening ({opening} cards); use a bigger library or smaller hands",
                self.library_cards()
            ));
        }
        Ok(())
    }

    fn players_mut(&mut self) -> &mut usize {
        &mut self.players
    }

    /// Valid rules drawn at random over every option (for soak and property tests).
    fn random_from(rng: &mut RulesRng) -> Rules {
        use rand::Rng;
        let methods = [Method::Tableau, Method::Pipeline, Method::Rummy, Method::Blind];
        let players = rng.random_range(2..=4);
        let hand_size = rng.random_range(3..=8);
        let cards = rng.random_bool(0.15).then(|| {
            (0..rng.random_range(6..=20))
                .map(|i| {
                    let cost = if i % 3 == 0 { 0 } else { rng.random_range(1..=6) };
                    CardSpec {
                        colour: rng.random_range(0..5),
                        cost,
                        power: if cost == 0 { 0 } else { rng.random_range(0..=7) },
                        toughness: if cost == 0 { 0 } else { rng.random_range(1..=7) },
                        count: rng.random_range(4..=10),
                    }
                })
                .collect()
        });
        let mut rules = Rules {
            players,
            method: methods[rng.random_range(0..4)],
            opening: if rng.random_bool(0.5) { Opening::Quick } else { Opening::Careful },
            library_size: rng.random_range(80..=MAX_LIBRARY),
            land_share: rng.random_range(0.0..=0.6),
            cards,
            // Now and then a long game with a crowded battlefield (up to 64 creatures a side).
            life: if rng.random_bool(0.05) { 200 } else { rng.random_range(1..=30) },
            hand_size,
            max_hand: rng.random_range(hand_size..=10),
            row: rng.random_range(3..=MAX_ROW),
            max_mulligans: rng.random_range(0..=3),
            first_player_draws: [None, Some(false), Some(true)][rng.random_range(0..3)],
            mill_counters: rng.random_bool(0.8),
            reshuffle_removed: rng.random_bool(0.3),
            max_turns: if rng.random_bool(0.3) { 0 } else { rng.random_range(1..=120) },
            vigilance: rng.random_bool(0.3),
            wipe_counters: if rng.random_bool(0.5) { WipeCounters::Drawer } else { WipeCounters::Nobody },
        };
        if rules.check().is_err() {
            rules.cards = None;
            rules.library_size = MAX_LIBRARY;
        }
        rules
    }
}

/// Most cards in a library.
pub const MAX_LIBRARY: usize = 240;
/// Most face-up cards in a row.
pub const MAX_ROW: usize = 10;
/// Colours of lands and creatures.
pub const COLOURS: usize = 5;
/// Colour names, by index.
pub const COLOUR_NAMES: [&str; COLOURS] = ["white", "blue", "black", "red", "green"];

impl Rules {
    /// Cards in the library these rules make.
    pub fn library_cards(&self) -> usize {
        match &self.cards {
            Some(list) => list.iter().map(|c| c.count).sum(),
            None => self.library_size,
        }
    }

    /// Turns (all players' together) after which the game is drawn: `max_turns`, or with
    /// 0 twice the library's cards. Every draw but rummy's taking of the discard top takes
    /// a card from the library, so under mill counters a game ends on them long before
    /// this: the cap is a safety net for stalled boards without mill counters.
    pub fn turn_cap(&self) -> u32 {
        if self.max_turns > 0 { self.max_turns } else { 2 * self.library_cards() as u32 }
    }

    /// Whether the first player draws on its first turn (unset: with 3 or more players).
    pub fn first_player_draws(&self) -> bool {
        self.first_player_draws.unwrap_or(self.players > 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_round_trip_and_bad_values_are_refused() {
        let r = Rules::default();
        r.check().unwrap();
        assert_eq!(Rules::from_toml(&toml::to_string(&r).unwrap()).unwrap(), r);
        for text in
            ["players = 5", "library_size = 10", "row = 2", "method = \"rummy\"\nlibrary_size = 40\nplayers = 4"]
        {
            assert!(Rules::from_toml(text).unwrap().check().is_err(), "{text}");
        }
        assert!(Rules::from_toml("method = \"tableaux\"").is_err());
        // Only what the opening deals is counted: no row for rummy or blind, a hand once
        // under the careful opening.
        for text in [
            "method = \"rummy\"\nopening = \"careful\"\nplayers = 3\nlibrary_size = 40",
            "method = \"blind\"\nplayers = 4\nhand_size = 10\nmax_hand = 10\nlibrary_size = 40",
        ] {
            Rules::from_toml(text).unwrap().check().unwrap_or_else(|e| panic!("{text}: {e}"));
        }
        let e = Rules::from_toml("method = \"rummy\"\nplayers = 3\nlibrary_size = 40").unwrap().check().unwrap_err();
        assert!(e.to_string().contains("(42 cards)"), "{e}");
        for seed in 0..300 {
            Rules::random(seed).check().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
    }
}
