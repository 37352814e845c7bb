//! Sevens rules: `docs/games/sevens.md`, with its defaults for every open point.

use crate::games::RuleStep;
use serde::{Deserialize, Serialize};

use crate::error::{Fault, InputError};
use crate::games::GameRules;
use crate::games::contest::RulesRng;

/// When a player may make their one trade.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TradeTiming {
    /// At their first turn of the hand only.
    #[default]
    FirstTurn,
    /// At any of their turns, still once per hand.
    AnyTurn,
}

/// What happens when every player still in is over 7.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AllOver {
    /// The players still in take back what they put in and share what folded players
    /// forfeited; nobody wins.
    #[default]
    Refund,
    /// The pot stays for the next hand (within the same simulated unit, re-anted).
    CarryOver,
    /// The lowest total wins.
    LowestWins,
}

/// The rules of a Sevens variant, as written in a rules file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// Number of players, 2 to 6.
    pub players: usize,
    /// Chips each player antes.
    pub ante: u32,
    /// Size of every raise (fixed limit).
    pub raise_size: u32,
    /// Most raises in one hand; 0 means no cap.
    pub raise_cap: u32,
    /// When the one trade may be made.
    pub trade_timing: TradeTiming,
    /// What happens when everyone still in is over 7.
    pub all_over: AllOver,
    /// With `carry-over`: the most hands one unit may last before the pot is refunded.
    pub max_carry_hands: u32,
}

/// The default cap on raises a hand.
pub const DEFAULT_RAISE_CAP: u32 = 3;

/// The bit a unit sets in its rules-used mask when a seat acted where `raise_cap` and the
/// default cap allow different moves (as many raises made as the smaller of the two).
pub const RAISE_CAP_USED: u32 = 0;

impl Default for Rules {
    fn default() -> Self {
        Rules {
            players: 4,
            ante: 1,
            raise_size: 1,
            raise_cap: DEFAULT_RAISE_CAP,
            trade_timing: TradeTiming::FirstTurn,
            all_over: AllOver::Refund,
            max_carry_hands: 20,
        }
    }
}

impl GameRules for Rules {
    /// Each rules key with its meaning, for `draftsim list rules sevens`.
    const HELP: &'static [(&'static str, &'static str)] = &[
        ("players", "number of players, 2 to 6"),
        ("ante", "chips each player antes"),
        ("raise_size", "chips of every raise (fixed limit)"),
        ("raise_cap", "most raises per hand, at least 1"),
        ("trade_timing", "first-turn (trade only at your first turn) or any-turn (at any turn, still once)"),
        (
            "all_over",
            "when everyone still in is over 7: refund (stakes back to those still in, folders forfeit), carry-over (pot to the next hand) or lowest-wins",
        ),
        ("max_carry_hands", "with carry-over: hands after which a carried pot is refunded"),
    ];

    /// The keys `sensitivity` steps (see [`crate::games::RuleStep`]).
    const STEPS: &'static [(&'static str, RuleStep)] = &[
        ("players", RuleStep::Int { min: 2, max: 6, step: 1 }),
        ("ante", RuleStep::Int { min: 1, max: 100, step: 1 }),
        ("raise_size", RuleStep::Int { min: 1, max: 100, step: 1 }),
        ("raise_cap", RuleStep::Int { min: 1, max: 20, step: 1 }),
        ("trade_timing", RuleStep::Choice(&["\"first-turn\"", "\"any-turn\""])),
        ("all_over", RuleStep::Choice(&["\"refund\"", "\"carry-over\"", "\"lowest-wins\""])),
    ];

    fn players(&self) -> usize {
        self.players
    }

    /// Checks the rules.
    fn check(&self) -> Result<(), InputError> {
        if !(2..=6).contains(&self.players) {
            return Err(InputError::new(format!(
                "players = {}: Sevens seats 2 to 6 players (36 cards cover every deal and trade)",
                self.players
            ))
            .about(Fault::Players));
        }
        for (key, value) in [("ante", self.ante), ("raise_size", self.raise_size)] {
            if value == 0 {
                return Err(InputError::new(format!("{key} = 0: give at least 1")));
            }
        }
        if self.raise_cap == 0 {
            // Chips are counted, not staked: with no cap two raisers could go on for ever.
            return Err(InputError::new(
                "raise_cap = 0: give at least 1 (chips are not staked in Sevens, so uncapped raising need never end)",
            ));
        }
        if self.all_over == AllOver::CarryOver && self.max_carry_hands == 0 {
            return Err(InputError::new("max_carry_hands: must be at least 1"));
        }
        Ok(())
    }

    fn players_mut(&mut self) -> &mut usize {
        &mut self.players
    }

    /// Valid rules drawn at random over every option (for soak and property tests).
    fn random_from(rng: &mut RulesRng) -> Rules {
        use rand::Rng;
        Rules {
            players: rng.random_range(2..=6),
            ante: rng.random_range(1..=3),
            raise_size: rng.random_range(1..=3),
            raise_cap: rng.random_range(1..=5),
            trade_timing: if rng.random_bool(0.5) { TradeTiming::FirstTurn } else { TradeTiming::AnyTurn },
            all_over: [AllOver::Refund, AllOver::CarryOver, AllOver::LowestWins][rng.random_range(0..3)],
            max_carry_hands: rng.random_range(1..=20),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seven_players_are_refused_and_keys_checked() {
        let err = Rules::from_toml("players = 7").unwrap().check().unwrap_err().to_string();
        assert!(err.starts_with("players = 7") && err.contains("2 to 6"), "{err}");
        assert!(Rules::from_toml("players = 2").unwrap().check().is_ok());
        let err = Rules::from_toml("trade = \"always\"").unwrap_err().to_string();
        assert!(err.contains("trade"), "{err}");
        let r = Rules::from_toml("all_over = \"lowest-wins\"\ntrade_timing = \"any-turn\"").unwrap();
        assert_eq!((r.all_over, r.trade_timing), (AllOver::LowestWins, TradeTiming::AnyTurn));
        assert_eq!(Rules::from_toml(&toml::to_string(&r).unwrap()).unwrap(), r);
    }

    #[test]
    fn uncapped_raising_is_refused() {
        let err = Rules::from_toml("raise_cap = 0").unwrap().check().unwrap_err().to_string();
        assert!(err.starts_with("raise_cap = 0"), "{err}");
        // Below zero, the type's "0 or more" would send the user to 0, refused next: the
        // message gives the check's range instead.
        let err = Rules::from_toml("ante = 2\nraise_cap = -1").unwrap_err().to_string();
        assert!(err.contains("`-1`") && err.contains("give at least 1") && !err.contains("0 or more"), "{err}");
        let err = Rules::from_toml("players = -3").unwrap_err().to_string();
        assert!(err.contains("2 to 6 players"), "{err}");
        // Where 0 is allowed, the type's words stand.
        let err = crate::games::seven_card_draft::rules::Rules::from_toml("raise_cap = -1").unwrap_err().to_string();
        assert!(err.ends_with("give a whole number of 0 or more"), "{err}");
    }
}
