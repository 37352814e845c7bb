//! Reference poker strategy modules and presets: `random` (uniform over the legal
//! actions), `calling-station` (always calls), `aggressive` (raises whenever it may) and
//! `threshold` (raises strong hands, folds weak ones facing a bet).

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::view::{Action, Bot, BotRng, SeatView};
use crate::error::InputError;
use crate::games::GamePreset;

/// How a bot bets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum BetModule {
    /// Uniform over the legal actions.
    Random {},
    /// Always calls (checks when nothing is bet).
    CallingStation {},
    /// Raises whenever it may, else calls.
    Aggressive {},
    /// By hand strength (0 the lowest card, 1 the highest, above 1 a pair with the public
    /// card): raises at or above `raise_at`, folds to a bet below `fold_below`, else calls.
    Threshold {
        /// Strength from which it raises.
        raise_at: f64,
        /// Strength below which it folds to a bet.
        fold_below: f64,
    },
}

/// A reference poker preset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    /// One line for `draftsim list strategies`.
    pub description: String,
    /// The betting module.
    pub bet: BetModule,
}

impl GamePreset for Preset {
    type Bot = PokerBot;

    /// A bot playing this preset under `name`.
    fn bot(&self, name: &str) -> PokerBot {
        PokerBot { name: name.to_string(), preset: self.clone() }
    }

    /// Checks what the TOML's types allow but the modules do not.
    fn check(&self) -> Result<(), InputError> {
        if let BetModule::Threshold { raise_at, fold_below } = self.bet
            && !(raise_at.is_finite() && fold_below.is_finite())
        {
            return Err(InputError::new("bet.raise_at and bet.fold_below: give finite numbers (0 to 2)"));
        }
        Ok(())
    }
}

/// A bot playing a preset.
#[derive(Clone, Debug)]
pub struct PokerBot {
    name: String,
    preset: Preset,
}

impl PokerBot {
    /// The estimate behind a threshold module's bet in `view`, in words for replays;
    /// `None` for the other modules.
    pub fn explain(&self, view: &SeatView) -> Option<String> {
        let BetModule::Threshold { raise_at, fold_below } = self.preset.bet else { return None };
        Some(format!(
            "hand strength {:.2} (bets or raises from {raise_at:.2}, folds to a bet below {fold_below:.2})",
            view.strength()
        ))
    }
}

impl Bot for PokerBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn act(&mut self, view: &SeatView, rng: &mut BotRng) -> Action {
        let pick = match self.preset.bet {
            BetModule::Random {} => {
                let legal = Action::ALL.iter().filter(|a| view.allows(**a)).count();
                let pick = rng.random_range(0..legal);
                *Action::ALL.iter().filter(|a| view.allows(**a)).nth(pick).expect("a legal action")
            }
            BetModule::CallingStation {} => Action::Call,
            BetModule::Aggressive {} => Action::Raise,
            BetModule::Threshold { raise_at, fold_below } => {
                let s = view.strength();
                if s >= raise_at {
                    Action::Raise
                } else if s < fold_below {
                    Action::Fold
                } else {
                    Action::Call
                }
            }
        };
        if view.allows(pick) { pick } else { Action::Call }
    }
}
