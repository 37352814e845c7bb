//! Seven Poker rules: `docs/games/seven-poker.md`, with its defaults for every open point.

use crate::games::RuleStep;
use serde::{Deserialize, Serialize};

use crate::error::{Fault, InputError};
use crate::games::GameRules;
use crate::games::contest::RulesRng;

/// What one simulated unit is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unit {
    /// A whole game, to the victory target (or the round cap).
    #[default]
    Game,
    /// One round from a fresh deal.
    Round,
}

/// The reading of "exchanges a card with the player on his immediate left".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LeftSwap {
    /// The sentence only says whose turn is next: no swap.
    #[default]
    None,
    /// Before discarding, the active player may give one card to the left neighbour, who
    /// gives back a card of their own choosing.
    Chosen,
    /// As `chosen`, but the neighbour gives back a random card.
    Random,
}

/// Who picks the victory colours when a win leaves a choice (colours tied for longest, or a
/// seven-colour win's two among those not held).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum VictoryColours {
    /// The winner chooses (the rules file's reading).
    #[default]
    Chosen,
    /// The lowest colours the winner does not hold yet are taken.
    Lowest,
}

/// What a player who alone stayed (and won without a showdown) does with its hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LoneStayer {
    /// Discards it, like the players who competed.
    #[default]
    Discards,
    /// Did not compete at a showdown, so keeps what it chooses, like a folder.
    Keeps,
}

/// What happens when every player folds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AllFold {
    /// Nobody wins the round; everyone keeps what they choose.
    #[default]
    Nobody,
    /// Every hand is revealed and the strongest wins as at a showdown (ties as usual);
    /// everyone competed, so everyone discards.
    Showdown,
    /// The last to declare may not fold when everyone before has folded: it stays, and
    /// wins alone.
    LastStays,
}

/// What happens when the deck cannot bring every hand back to full size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ShortPile {
    /// Players draw what is left, each drawing up in turn from the first player.
    #[default]
    InTurn,
    /// Players draw what is left one card at a time around the table from the first
    /// player, so the shortfall is shared.
    OneAtATime,
    /// The game ends instead of dealing the round: the player with the most victory
    /// cards wins (none if several have the most).
    EndsGame,
}

/// The rules of a Seven Poker variant, as written in a rules file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// Number of players, 3 to 5.
    pub players: usize,
    /// Cards of each of the seven colours, numbered 1 up (at least the player count).
    pub cards_per_colour: usize,
    /// Cards dealt to each player (and drawn back up to).
    pub hand_size: usize,
    /// Orbits of exchanges per round.
    pub exchange_orbits: usize,
    /// Most cards one exchange may discard.
    pub max_exchange: usize,
    /// Cards each player shows before declaring.
    pub shown: usize,
    /// Victory cards that win the game.
    pub victory_target: usize,
    /// Rounds after which a game ends with no winner.
    pub max_rounds: u32,
    /// `game` (to the victory target) or `round`.
    pub unit: Unit,
    /// The left-neighbour swap reading: `none`, `chosen` or `random`.
    pub left_swap: LeftSwap,
    /// Who picks victory colours when there is a choice: `chosen` or `lowest`.
    pub victory_colours: VictoryColours,
    /// A lone stayer `discards` its hand or `keeps` what it chooses.
    pub lone_stayer: LoneStayer,
    /// When everyone folds: `nobody` wins, a `showdown` of every hand, or the `last-stays`.
    pub all_fold: AllFold,
    /// A deck too short to refill every hand: `in-turn`, `one-at-a-time` or `ends-game`.
    pub short_pile: ShortPile,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            players: 4,
            cards_per_colour: 7,
            hand_size: 7,
            exchange_orbits: 2,
            max_exchange: 3,
            shown: 3,
            victory_target: 5,
            max_rounds: 200,
            unit: Unit::Game,
            left_swap: LeftSwap::None,
            victory_colours: VictoryColours::Chosen,
            lone_stayer: LoneStayer::Discards,
            all_fold: AllFold::Nobody,
            short_pile: ShortPile::InTurn,
        }
    }
}

impl GameRules for Rules {
    /// Each rules key with its meaning, for `draftsim list rules seven-poker`.
    const HELP: &'static [(&'static str, &'static str)] = &[
        ("players", "number of players, 3 to 5"),
        ("cards_per_colour", "cards of each of the seven colours, numbered 1 up; 3 to 9 and at least the players"),
        ("hand_size", "cards dealt to each player and drawn back up to, 7 (the categories assume 7)"),
        ("exchange_orbits", "orbits of exchanges per round, 0 to 4"),
        ("max_exchange", "most cards one exchange discards and draws, 0 to 7"),
        ("shown", "cards each player shows before declaring, 0 to 7"),
        ("victory_target", "victory cards that win the game, 1 to 7"),
        ("max_rounds", "rounds after which a game ends with no winner"),
        ("unit", "game (to the victory target) or round (one round from a fresh deal)"),
        ("left_swap", "none, chosen or random: the swap with the left neighbour before discarding"),
        (
            "victory_colours",
            "chosen (the winner picks among colours tied for longest, or a seven-colour win's two) or lowest",
        ),
        ("lone_stayer", "discards (the hand, like those who competed) or keeps (what it chooses, like a folder)"),
        (
            "all_fold",
            "when everyone folds: nobody (wins), showdown (every hand compared, all discard) or last-stays (the last to declare must stay)",
        ),
        (
            "short_pile",
            "a deck too short to refill every hand: in-turn (each draws up in turn), one-at-a-time (around the table) or ends-game (most victory cards wins)",
        ),
    ];

    /// The keys `sensitivity` steps (see [`crate::games::RuleStep`]).
    const STEPS: &'static [(&'static str, RuleStep)] = &[
        ("players", RuleStep::Int { min: 3, max: 5, step: 1 }),
        ("cards_per_colour", RuleStep::Int { min: 3, max: 9, step: 1 }),
        ("exchange_orbits", RuleStep::Int { min: 0, max: 4, step: 1 }),
        ("max_exchange", RuleStep::Int { min: 0, max: 7, step: 1 }),
        ("shown", RuleStep::Int { min: 0, max: 7, step: 1 }),
        ("victory_target", RuleStep::Int { min: 1, max: 7, step: 1 }),
        ("left_swap", RuleStep::Choice(&["\"none\"", "\"chosen\"", "\"random\""])),
        ("victory_colours", RuleStep::Choice(&["\"chosen\"", "\"lowest\""])),
        ("lone_stayer", RuleStep::Choice(&["\"discards\"", "\"keeps\""])),
        ("all_fold", RuleStep::Choice(&["\"nobody\"", "\"showdown\"", "\"last-stays\""])),
        ("short_pile", RuleStep::Choice(&["\"in-turn\"", "\"one-at-a-time\"", "\"ends-game\""])),
    ];

    fn players(&self) -> usize {
        self.players
    }

    /// Checks the rules.
    fn check(&self) -> Result<(), InputError> {
        if !(3..=5).contains(&self.players) {
            return Err(InputError::new(format!("players = {}: Seven Poker seats 3 to 5 players", self.players))
                .about(Fault::Players));
        }
        if !(3..=9).contains(&self.cards_per_colour) || self.cards_per_colour < self.players {
            return Err(InputError::new(format!(
                "cards_per_colour = {}: use 3 to 9, and at least one per player ({})",
                self.cards_per_colour, self.players
            )));
        }
        if self.hand_size != 7 {
            return Err(InputError::new("hand_size: only 7 is supported (the hand categories assume seven cards)"));
        }
        for (key, value, most) in [
            ("exchange_orbits", self.exchange_orbits, 4),
            ("max_exchange", self.max_exchange, 7),
            ("shown", self.shown, 7),
        ] {
            if value > most {
                return Err(InputError::new(format!("{key} = {value}: use 0 to {most}")));
            }
        }
        if !(1..=7).contains(&self.victory_target) {
            return Err(InputError::new(format!("victory_target = {}: use 1 to 7", self.victory_target)));
        }
        if self.max_rounds == 0 {
            return Err(InputError::new("max_rounds: must be at least 1"));
        }
        Ok(())
    }

    fn players_mut(&mut self) -> &mut usize {
        &mut self.players
    }

    /// Valid rules drawn at random over every option (for soak and property tests).
    fn random_from(rng: &mut RulesRng) -> Rules {
        use rand::Rng;
        let players = rng.random_range(3..=5);
        Rules {
            players,
            cards_per_colour: rng.random_range(players.max(3)..=9),
            hand_size: 7,
            exchange_orbits: rng.random_range(0..=3),
            max_exchange: rng.random_range(0..=4),
            shown: rng.random_range(0..=4),
            victory_target: rng.random_range(1..=6),
            max_rounds: rng.random_range(1..=120),
            unit: if rng.random_bool(0.8) { Unit::Game } else { Unit::Round },
            left_swap: [LeftSwap::None, LeftSwap::Chosen, LeftSwap::Random][rng.random_range(0..3)],
            victory_colours: [VictoryColours::Chosen, VictoryColours::Lowest][rng.random_range(0..2)],
            lone_stayer: [LoneStayer::Discards, LoneStayer::Keeps][rng.random_range(0..2)],
            all_fold: [AllFold::Nobody, AllFold::Showdown, AllFold::LastStays][rng.random_range(0..3)],
            short_pile: [ShortPile::InTurn, ShortPile::OneAtATime, ShortPile::EndsGame][rng.random_range(0..3)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_round_trip_and_bad_counts_are_refused() {
        let r = Rules::default();
        assert_eq!(Rules::from_toml(&toml::to_string(&r).unwrap()).unwrap(), r);
        for text in ["players = 6", "players = 2", "cards_per_colour = 2", "victory_target = 0"] {
            assert!(Rules::from_toml(text).unwrap().check().is_err(), "{text}");
        }
        for seed in 0..200 {
            Rules::random(seed).check().unwrap();
        }
    }
}
