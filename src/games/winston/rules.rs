//! Winston Draft + Crazier Eights rules: `docs/games/winston-crazier-eights.md`, with its
//! defaults for every open point and the choices this simulator makes where it is silent.

use crate::games::{BOOL, RuleStep};
use serde::{Deserialize, Serialize};

use crate::error::{Fault, InputError};
use crate::games::GameRules;
use crate::games::contest::RulesRng;

/// An abstract ability a card may carry, used when the card is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ability {
    /// The opponent draws one card from their deck.
    OpponentDraws,
    /// The player takes another turn after this one.
    ExtraTurn,
    /// The player may discard one more matching card this turn.
    ExtraDiscard,
    /// The player looks at the top card of their deck and may put it at the bottom.
    Peek,
}

impl Ability {
    /// Every ability, in the default pool's order.
    pub const ALL: [Ability; 4] = [Ability::OpponentDraws, Ability::ExtraTurn, Ability::ExtraDiscard, Ability::Peek];

    /// The ability's name in rules files and replays.
    pub fn name(self) -> &'static str {
        match self {
            Ability::OpponentDraws => "opponent-draws",
            Ability::ExtraTurn => "extra-turn",
            Ability::ExtraDiscard => "extra-discard",
            Ability::Peek => "peek",
        }
    }
}

/// Which multicoloured cards a deck may hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Multicolour {
    /// Always allowed, whatever colours were chosen.
    #[default]
    Always,
    /// Only when the card shares a chosen colour.
    SharesColour,
}

/// Who starts the first game of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Starter {
    /// The player who drafted second chooses, and starts (the rules' default).
    #[default]
    SecondDrafter,
    /// The first drafter starts.
    FirstDrafter,
    /// Drawn from the deal's seed.
    Random,
}

/// Who starts each later game of a best of 3.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LaterStarter {
    /// The loser of the previous game starts the next (the default).
    #[default]
    Loser,
    /// The winner of the previous game starts the next.
    Winner,
    /// The players take turns starting, whoever won.
    Alternate,
}

/// The rules of a Winston + Crazier Eights variant, as written in a rules file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// Number of players: exactly 2.
    pub players: usize,
    /// Colour names, 2 to 6.
    pub colours: Vec<String>,
    /// Ranks 1 to `ranks` (eights need at least 8).
    pub ranks: u8,
    /// Cards in the expansion beside the main set (one card per colour and rank).
    pub expansion: usize,
    /// Expansion cards that are multicoloured (two colours).
    pub multicoloured: usize,
    /// Expansion cards that carry an ability (counted from the expansion's end).
    pub ability_cards: usize,
    /// The abilities in play, dealt out in turn to the ability cards.
    pub abilities: Vec<Ability>,
    /// Cards removed at random, unseen, before the draft.
    pub removed: usize,
    /// Eights are wild: they match anything and name the colour to match next.
    pub eights_wild: bool,
    /// Whether the last-card rule holds: with one card left in the stack, a player who
    /// would reject the remaining piles may take that card instead.
    pub last_card_rule: bool,
    /// Once the stack is empty, a player may still pass a pile (else they must take the
    /// first non-empty pile they look at). Rejecting the last non-empty pile takes it.
    pub pass_when_empty: bool,
    /// Cards in a deck.
    pub deck_size: usize,
    /// Most colours a deck may use.
    pub max_colours: usize,
    /// Which multicoloured cards a deck may hold: `always` or `shares-colour`.
    pub multicolour: Multicolour,
    /// Cards each player draws to start a game.
    pub hand_size: usize,
    /// Play without the play step: discard a matching card or draw until you can.
    pub classic: bool,
    /// Games in a match: 1, or 3 (best of 3).
    pub games: usize,
    /// Who starts the first game: `second-drafter`, `first-drafter` or `random`.
    pub starter: Starter,
    /// Who starts each later game of a best of 3: `loser`, `winner` or `alternate`. After
    /// a game drawn at the turn cap, the other player than last time starts.
    pub later_starter: LaterStarter,
    /// Turns (both players' together) after which a game ends drawn.
    pub max_turns: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            players: 2,
            colours: ["red", "purple", "blue", "green"].map(String::from).to_vec(),
            ranks: 13,
            expansion: 35,
            multicoloured: 10,
            ability_cards: 14,
            abilities: Ability::ALL.to_vec(),
            removed: 3,
            eights_wild: true,
            last_card_rule: true,
            pass_when_empty: true,
            deck_size: 30,
            max_colours: 3,
            multicolour: Multicolour::Always,
            hand_size: 7,
            classic: false,
            games: 1,
            starter: Starter::SecondDrafter,
            later_starter: LaterStarter::Loser,
            max_turns: 300,
        }
    }
}

impl GameRules for Rules {
    /// Each rules key with its meaning, for `draftsim list rules winston-crazier-eights`.
    const HELP: &'static [(&'static str, &'static str)] = &[
        ("players", "number of players: exactly 2"),
        ("colours", "colour names, 2 to 6 (default red, purple, blue, green)"),
        ("ranks", "ranks 1 to this, 1 to 16 (eights need 8 or more); the main set has one card per colour and rank"),
        ("expansion", "expansion cards beside the main set (default 35); the pool is at most 128 cards"),
        ("multicoloured", "expansion cards with two colours (default 10; at most expansion)"),
        (
            "ability_cards",
            "expansion cards with an ability, counted from the expansion's end (default 14; at most expansion)",
        ),
        ("abilities", "abilities dealt out in turn: opponent-draws, extra-turn, extra-discard, peek"),
        ("removed", "cards removed at random before the draft (default 3)"),
        ("eights_wild", "eights match anything and name the next colour (default true)"),
        ("last_card_rule", "with one card left in the stack, a player may take it instead of rejecting the rest"),
        ("pass_when_empty", "with the stack empty a player may still pass piles (the last one must be taken)"),
        ("deck_size", "cards in a deck, 1 to 60 (default 30); a short pool makes a short deck"),
        ("max_colours", "most colours a deck uses (default 3; at most the number of colours)"),
        ("multicolour", "always or shares-colour: which multicoloured cards a deck may hold"),
        ("hand_size", "cards drawn to start a game (default 7)"),
        ("classic", "no play step: discard a matching card or draw until you can"),
        ("games", "games in a match: 1 or 3 (best of 3)"),
        ("starter", "who starts the first game: second-drafter (default), first-drafter or random"),
        (
            "later_starter",
            "who starts each later game of a best of 3: loser (default), winner or alternate; after a drawn game, the other player",
        ),
        ("max_turns", "turns of both players after which a game is drawn (default 300)"),
    ];

    /// The keys `sensitivity` steps (see [`crate::games::RuleStep`]).
    const STEPS: &'static [(&'static str, RuleStep)] = &[
        ("ranks", RuleStep::Int { min: 8, max: 16, step: 1 }),
        ("expansion", RuleStep::Int { min: 0, max: 100, step: 5 }),
        ("removed", RuleStep::Int { min: 0, max: 20, step: 1 }),
        ("eights_wild", BOOL),
        ("last_card_rule", BOOL),
        ("pass_when_empty", BOOL),
        ("deck_size", RuleStep::Int { min: 1, max: 60, step: 5 }),
        ("max_colours", RuleStep::Int { min: 1, max: 6, step: 1 }),
        ("multicolour", RuleStep::Choice(&["\"always\"", "\"shares-colour\""])),
        ("hand_size", RuleStep::Int { min: 1, max: 15, step: 1 }),
        ("classic", BOOL),
        ("games", RuleStep::Choice(&["1", "3"])),
        ("starter", RuleStep::Choice(&["\"second-drafter\"", "\"first-drafter\"", "\"random\""])),
    ];

    fn players(&self) -> usize {
        self.players
    }

    /// Checks the rules.
    fn check(&self) -> Result<(), InputError> {
        let bad = |text: String| Err(InputError::new(text));
        if self.players != 2 {
            return Err(InputError::new(format!(
                "players = {}: Winston + Crazier Eights is for exactly 2 players",
                self.players
            ))
            .about(Fault::Players));
        }
        if !(2..=6).contains(&self.colours.len()) {
            return bad(format!("colours: {} given; name 2 to 6 colours", self.colours.len()));
        }
        if let Some((i, name)) = self.colours.iter().enumerate().find(|(i, c)| self.colours[..*i].contains(c)) {
            return bad(format!(
                "colours: '{name}' named twice (colour {} and an earlier one); name each colour once",
                i + 1
            ));
        }
        if !(1..=16).contains(&self.ranks) {
            return bad(format!("ranks = {}: use 1 to 16", self.ranks));
        }
        if self.pool_size() > MAX_CARDS {
            return bad(format!(
                "expansion = {}: the pool would be {} cards; keep colours x ranks + expansion at most {MAX_CARDS}",
                self.expansion,
                self.pool_size()
            ));
        }
        // The defaults (10 and 14) are named, as a file setting only a smaller expansion
        // meets them without having set them.
        for (key, value, default) in
            [("multicoloured", self.multicoloured, 10), ("ability_cards", self.ability_cards, 14)]
        {
            if value > self.expansion {
                return bad(format!(
                    "{key} = {value}: at most the expansion's {} cards; set {key} too (its default is {default})",
                    self.expansion
                ));
            }
        }
        if self.ability_cards > 0 && self.abilities.is_empty() {
            return bad("abilities: name at least one ability, or set ability_cards = 0".into());
        }
        if self.removed + 3 > self.pool_size() {
            return bad(format!("removed = {}: leave at least 3 cards for the piles", self.removed));
        }
        if !(1..=MAX_DECK).contains(&self.deck_size) {
            return bad(format!("deck_size = {}: use 1 to {MAX_DECK}", self.deck_size));
        }
        if !(1..=self.colours.len()).contains(&self.max_colours) {
            return bad(format!(
                "max_colours = {}: use 1 to the number of colours ({}); set max_colours too where colours is shorter than its default 3",
                self.max_colours,
                self.colours.len()
            ));
        }
        if !(1..=20).contains(&self.hand_size) {
            return bad(format!("hand_size = {}: use 1 to 20", self.hand_size));
        }
        if self.games != 1 && self.games != 3 {
            return bad(format!("games = {}: use 1, or 3 for best of 3", self.games));
        }
        if self.max_turns == 0 {
            return bad("max_turns: must be at least 1".into());
        }
        Ok(())
    }

    fn players_mut(&mut self) -> &mut usize {
        &mut self.players
    }

    /// Valid rules drawn at random over every option (for soak and property tests).
    fn random_from(rng: &mut RulesRng) -> Rules {
        use rand::Rng;
        let n_colours = rng.random_range(2..=6);
        let ranks = rng.random_range(3..=16u8);
        let main = n_colours * usize::from(ranks);
        let expansion = rng.random_range(0..=(MAX_CARDS - main).min(50));
        let mut abilities: Vec<Ability> = Ability::ALL.iter().copied().filter(|_| rng.random_bool(0.6)).collect();
        if abilities.is_empty() {
            abilities.push(Ability::ALL[rng.random_range(0..4)]);
        }
        Rules {
            players: 2,
            colours: (0..n_colours).map(|c| format!("c{c}")).collect(),
            ranks,
            expansion,
            multicoloured: rng.random_range(0..=expansion),
            ability_cards: rng.random_range(0..=expansion),
            abilities,
            removed: rng.random_range(0..=(main + expansion - 3).min(10)),
            eights_wild: rng.random_bool(0.8),
            last_card_rule: rng.random_bool(0.7),
            pass_when_empty: rng.random_bool(0.7),
            deck_size: rng.random_range(5..=40),
            max_colours: rng.random_range(1..=n_colours),
            multicolour: if rng.random_bool(0.5) { Multicolour::Always } else { Multicolour::SharesColour },
            hand_size: rng.random_range(1..=9),
            classic: rng.random_bool(0.3),
            games: if rng.random_bool(0.3) { 3 } else { 1 },
            starter: [Starter::SecondDrafter, Starter::FirstDrafter, Starter::Random][rng.random_range(0..3)],
            max_turns: rng.random_range(1..=400),
            // Drawn last so the earlier keys of a seed stay as they were.
            later_starter: [LaterStarter::Loser, LaterStarter::Winner, LaterStarter::Alternate][rng.random_range(0..3)],
        }
    }
}

/// Most cards in a pool (cards are bits of a `u128`).
pub const MAX_CARDS: usize = 128;
/// Most cards in a deck (the deck is a fixed array).
pub const MAX_DECK: usize = 60;

impl Rules {
    /// Cards in the whole pool: the main set and the expansion.
    pub fn pool_size(&self) -> usize {
        self.colours.len() * usize::from(self.ranks) + self.expansion
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_round_trip_and_bad_values_are_refused() {
        let r = Rules::default();
        assert_eq!(r.pool_size(), 87);
        assert_eq!(Rules::from_toml(&toml::to_string(&r).unwrap()).unwrap(), r);
        for text in [
            "players = 3",
            "ranks = 0",
            "expansion = 80",
            "games = 2",
            "deck_size = 0",
            "max_colours = 5",
            "colours = [\"red\", \"blue\", \"red\"]",
        ] {
            assert!(Rules::from_toml(text).unwrap().check().is_err(), "{text}");
        }
        assert!(Rules::from_toml("colour = [\"red\"]").is_err(), "unknown keys are refused");
        for seed in 0..300 {
            Rules::random(seed).check().unwrap();
        }
    }
}
