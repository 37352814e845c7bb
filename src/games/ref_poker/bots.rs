//! Reference poker strategy modules and presets: `random` (uniform over the legal
//! actions), `calling-station` (always calls), `aggressive` (raises whenever it may) and
//! `threshold` (raises strong hands, folds weak ones facing a bet, bluffs a share of them).

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
    /// card): raises at or above `raise_at`, folds to a bet below `fold_below`, else calls;
    /// a hand below `fold_below` bets or raises instead with probability `bluff`, where it
    /// may (Kuhn's equilibrium bets a jack as a bluff up to a third of the time).
    Threshold {
        /// Strength from which it raises.
        raise_at: f64,
        /// Strength below which it folds to a bet.
        fold_below: f64,
        /// The chance that a hand below `fold_below` bets or raises (0 to 1; 0 never).
        #[serde(default, skip_serializing_if = "is_zero")]
        bluff: f64,
    },
}

/// Whether a number is zero, so a default is left out when a preset is written.
fn is_zero(x: &f64) -> bool {
    *x == 0.0
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
        if let BetModule::Threshold { raise_at, fold_below, bluff } = self.bet {
            if !(raise_at.is_finite() && fold_below.is_finite()) {
                return Err(InputError::new("bet.raise_at and bet.fold_below: give finite numbers (0 to 2)"));
            }
            if !(0.0..=1.0).contains(&bluff) {
                return Err(InputError::new(format!("bet.bluff = {bluff}: give a probability from 0 to 1")));
            }
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
        let BetModule::Threshold { raise_at, fold_below, bluff } = self.preset.bet else { return None };
        let bluffs = match bluff > 0.0 {
            true => format!(", bluffs {:.0}% of those", bluff * 100.0),
            false => String::new(),
        };
        Some(format!(
            "hand strength {:.2} (bets or raises from {raise_at:.2}, folds to a bet below {fold_below:.2}{bluffs})",
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
            BetModule::Threshold { raise_at, fold_below, bluff } => {
                let s = view.strength();
                if s >= raise_at {
                    Action::Raise
                } else if s < fold_below {
                    // Drawn only by a bluffer, so a preset without one plays as it always did.
                    match bluff > 0.0 && view.allows(Action::Raise) && rng.random_bool(bluff) {
                        true => Action::Raise,
                        false => Action::Fold,
                    }
                } else {
                    Action::Call
                }
            }
        };
        if view.allows(pick) { pick } else { Action::Call }
    }
}
