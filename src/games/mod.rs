//! The games: one folder each, plus one line in [`GAMES`].

pub mod presets;
pub mod seven_card_draft;
pub mod sevens;

use std::sync::atomic::AtomicBool;

use crate::error::{Error, InputError};
use crate::sim::{self, Game, Lineup, Plan, RoundRow, Tally};

/// Called after each batch with the rounds done so far and the batch's per-round rows.
pub type BatchSink<'a> = dyn FnMut(u64, &[RoundRow]) -> Result<(), Error> + 'a;

/// What a registry entry builds: the game, and the seats in play.
pub type Built = (Box<dyn Runner>, Vec<String>);

/// Builds a game from a rules file's text (or the defaults), a player count and seats.
pub type BuildFn =
    fn(rules: Option<&str>, players: Option<usize>, seats: Option<&[String]>) -> Result<Built, InputError>;

/// A game set up with rules and a lineup, behind an object-safe face for the CLI.
pub trait Runner: Sync {
    /// Number of seats.
    fn players(&self) -> usize;
    /// Category names of the finished hands.
    fn category_names(&self) -> &'static [&'static str];
    /// The rules in force, as TOML.
    fn rules_toml(&self) -> String;
    /// Runs a plan (see [`sim::run`]).
    fn run(
        &self,
        lineup: &Lineup,
        plan: &Plan,
        keep_rows: bool,
        interrupt: Option<&AtomicBool>,
        on_batch: &mut BatchSink<'_>,
    ) -> Result<Tally, Error>;
    /// Round `k` of a run told move by move.
    fn replay(&self, seed: u64, rotate: bool, k: u64) -> Result<String, Error>;
}

/// What a game needs beside its engine to be run from the command line.
pub trait Setup: Game + Sized {
    /// The rules in force, as TOML.
    fn rules_toml(&self) -> String;
}

impl<G: Setup> Runner for G {
    fn players(&self) -> usize {
        Game::players(self)
    }
    fn category_names(&self) -> &'static [&'static str] {
        Game::category_names(self)
    }
    fn rules_toml(&self) -> String {
        Setup::rules_toml(self)
    }
    fn run(
        &self,
        lineup: &Lineup,
        plan: &Plan,
        keep_rows: bool,
        interrupt: Option<&AtomicBool>,
        on_batch: &mut BatchSink<'_>,
    ) -> Result<Tally, Error> {
        sim::run(self, lineup, plan, keep_rows, interrupt, on_batch)
    }
    fn replay(&self, seed: u64, rotate: bool, k: u64) -> Result<String, Error> {
        let a = sim::round_address(seed, Game::players(self), rotate, k);
        Game::replay(self, a.deal_seed, a.bot_seed, a.deal, &a.seating)
    }
}

/// A registered game.
#[derive(Clone, Copy)]
pub struct GameInfo {
    /// Name on the command line.
    pub name: &'static str,
    /// One line for `draftsim list games`.
    pub description: &'static str,
    /// Every rules key with its meaning.
    pub rules_help: &'static [(&'static str, &'static str)],
    /// The rules' defaults as TOML.
    pub default_rules: fn() -> String,
    /// Presets: (name, one-line description).
    pub presets: fn() -> Vec<(String, String)>,
    /// How the game's tables are shaped (category names and table, extra columns).
    pub tables: crate::output::TableSpec,
    /// The default seats for `players` players.
    pub default_seats: fn(players: usize) -> Vec<String>,
    /// Builds the game from a rules file's text (or defaults), a player count override and seats.
    pub build: BuildFn,
}

/// Every game draftsim can simulate.
pub const GAMES: &[GameInfo] = &[seven_card_draft::INFO, sevens::INFO];

/// The game of this name.
pub fn find(name: &str) -> Result<&'static GameInfo, InputError> {
    GAMES.iter().find(|g| g.name == name).ok_or_else(|| {
        let names: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
        InputError::new(format!("unknown game '{name}': use one of {}", names.join(", ")))
    })
}
