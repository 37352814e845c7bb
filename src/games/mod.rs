//! The games: one folder each, plus one line in [`GAMES`].

pub mod contest;
pub use contest::{GamePreset, GameRules};
pub mod live_draft;
pub mod presets;
pub mod ref_poker;
pub mod seven_card_draft;
pub mod seven_poker;
pub mod sevens;
pub mod winston;

use std::sync::atomic::AtomicBool;

use crate::error::{Error, InputError};
use crate::output::Table;
use crate::sim::{self, CheckReport, Lineup, Measures, Mode, Plan, RoundRow, RuleUse, Seatings, Tally};
use crate::solver::{TabularPolicy, Tree};

/// Called after each batch with the rounds done so far and the batch's per-round rows.
pub type BatchSink<'a> = dyn FnMut(u64, &[RoundRow]) -> Result<(), Error> + 'a;

/// What a registry entry builds: the game, and the seats in play.
pub type Built = (Box<dyn Runner>, Vec<String>);

/// Builds a game from a rules file's text (or the defaults), a player count and seats.
pub type BuildFn =
    fn(rules: Option<&str>, players: Option<usize>, seats: Option<&[String]>) -> Result<Built, InputError>;

/// A game set up with rules and a lineup, behind an object-safe face for the CLI (what a
/// game needs beside its engine to be run from the command line).
pub trait Runner: Sync {
    /// Number of seats.
    fn players(&self) -> usize;
    /// What the game measures.
    fn measures(&self) -> &Measures;
    /// The rules in force, as TOML.
    fn rules_toml(&self) -> String;
    /// The rules as played, as TOML ([`contest::GameRules::resolved`]): equal for two rules
    /// files that play alike.
    fn rules_played(&self) -> String;
    /// Runs a plan (see [`sim::run`]).
    fn run(
        &self,
        lineup: &Lineup,
        plan: &Plan,
        mode: Mode,
        interrupt: Option<&AtomicBool>,
        on_batch: &mut BatchSink<'_>,
    ) -> Result<Tally, Error>;
    /// Plays a plan with every invariant checked (see [`sim::check`]).
    fn check(
        &self,
        lineup: &Lineup,
        plan: &Plan,
        interrupt: Option<&AtomicBool>,
        on_batch: &mut BatchSink<'_>,
    ) -> Result<CheckReport, Error>;
    /// Round `k` of a run under these seatings, told move by move.
    fn replay(&self, seed: u64, seatings: &Seatings, k: u64) -> Result<String, Error>;
    /// Whether a unit under these rules has a standing per seat, which the figures
    /// `lead_changes` and `drama` follow (without one they are never reported; none by
    /// default).
    fn has_standing(&self) -> bool {
        false
    }
    /// Options of these rules that change nothing (e.g. a wild rank the deck lacks), one
    /// line each naming the key, for a warning before play (none by default).
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }
    /// The game's own tables beyond the generic ones, computed from a tally (none by
    /// default).
    fn extra_tables(&self, _tally: &Tally, _strategies: &[String]) -> Vec<Table> {
        Vec::new()
    }
    /// The rules set away from their defaults whose use the game records per unit, in
    /// [`RoundResult::rules_used`](crate::sim::RoundResult::rules_used) (none by default).
    fn rule_uses(&self) -> Vec<RuleUse> {
        Vec::new()
    }
    /// The `outside` table of the lineup's external bots (their faults), if it has any
    /// (none by default).
    fn outside_table(&self) -> Option<Table> {
        None
    }
    /// Whether the game's forward model lists its deals, so that [`Runner::game_tree`] can
    /// build its whole tree (no by default).
    fn has_tree(&self) -> bool {
        false
    }
    /// The game's whole tree under these rules, where its forward model lists its deals.
    fn game_tree(&self) -> Result<Tree, Error> {
        Err(InputError::new("this game has no exact tree; use kuhn-poker or leduc-poker").into())
    }
    /// The preset that makes a trained policy's keyless decisions unless `train --fallback`
    /// names another (none by default: the game keys every decision).
    fn policy_fallback(&self) -> Option<&'static str> {
        None
    }
    /// Whether sampled training branches at one decision per traversal (`mccfr-probe`):
    /// units hold too many of one seat's decisions to branch at every one (no by default).
    fn probe_training(&self) -> bool {
        false
    }
    /// A sampled training run over the forward model ([`crate::solver::sampled`]), its
    /// keyless decisions made by the lineup's first strategy, resumed from `tables` after
    /// `iterations` iterations, as `options` say (none by default).
    fn sampled_trainer(
        &self,
        _seed: u64,
        _iterations: u64,
        _tables: crate::solver::sampled::Tables,
        _options: &crate::solver::sampled::Options,
    ) -> Result<Box<dyn crate::solver::sampled::SampledTrainer + '_>, Error> {
        Err(InputError::new("this game gives no information keys to train on").into())
    }
    /// Each lineup entry's policy over `tree` (see [`crate::solver::tabulate`]; none by
    /// default), with the count of the tree's sets a trained policy never saw;
    /// `Err(Interrupted)` once `interrupt` is set.
    fn tabulate(
        &self,
        _tree: &Tree,
        _samples_seed: (u32, u64),
        _interrupt: Option<&std::sync::atomic::AtomicBool>,
    ) -> Result<Vec<(TabularPolicy, usize)>, Error> {
        Err(InputError::new("this game has no exact tree; use kuhn-poker or leduc-poker").into())
    }
    /// The `calibration` and `field_calibration` tables of the first seat's strength
    /// estimates over `rounds` rounds (only games whose bots estimate a hand's strength have
    /// them).
    fn calibration(
        &self,
        _rounds: u64,
        _seed: u64,
        _interrupt: Option<&AtomicBool>,
        _progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<Table>, Error> {
        Err(InputError::new(
            "calibrate: only Seven Card Draft's strength estimates are calibrated so far; use --game seven-card-draft",
        )
        .into())
    }
}

/// The part of a [`Runner`] impl that every [`sim::Game`] writes alike, placed inside the
/// impl: seats and measures from the game, and `run`, `check` and `replay` handed to the
/// harness in [`sim`].
#[macro_export]
macro_rules! runner_from_game {
    () => {
        fn players(&self) -> usize {
            $crate::sim::Game::players(self)
        }
        fn measures(&self) -> &$crate::sim::Measures {
            $crate::sim::Game::measures(self)
        }
        fn run(
            &self,
            lineup: &$crate::sim::Lineup,
            plan: &$crate::sim::Plan,
            mode: $crate::sim::Mode,
            interrupt: Option<&std::sync::atomic::AtomicBool>,
            on_batch: &mut $crate::games::BatchSink<'_>,
        ) -> Result<$crate::sim::Tally, $crate::error::Error> {
            $crate::sim::run(self, lineup, plan, mode, interrupt, on_batch)
        }
        fn check(
            &self,
            lineup: &$crate::sim::Lineup,
            plan: &$crate::sim::Plan,
            interrupt: Option<&std::sync::atomic::AtomicBool>,
            on_batch: &mut $crate::games::BatchSink<'_>,
        ) -> Result<$crate::sim::CheckReport, $crate::error::Error> {
            $crate::sim::check(self, lineup, plan, interrupt, on_batch)
        }
        fn replay(&self, seed: u64, seatings: &$crate::sim::Seatings, k: u64) -> Result<String, $crate::error::Error> {
            let a = $crate::sim::round_address(seed, seatings, k);
            $crate::sim::Game::replay(self, a.seeds(), &a.seating)
        }
    };
}

impl dyn Runner {
    /// One line for each rules setting away from its default that no unit of `tally`
    /// used, naming the key: its results are those of the default.
    pub fn unused_rules(&self, tally: &Tally) -> Vec<String> {
        RuleUse::unused_notes(&self.rule_uses(), tally)
    }

    /// The run's tables: the generic ones, then the game's own.
    pub fn tables(&self, tally: &Tally, strategies: &[String]) -> Vec<Table> {
        let mut tables = crate::output::run_tables(tally, strategies, self.measures());
        tables.extend(self.extra_tables(tally, strategies));
        tables.extend(self.outside_table());
        tables
    }
}

/// How `sensitivity` moves a rules key one step from its value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RuleStep {
    /// Each other value of a choice (as TOML text: `true`, `"pot-limit"`, `3`).
    Choice(&'static [&'static str]),
    /// One `step` down and up, within `min..=max`.
    Int {
        /// Smallest allowed value.
        min: i64,
        /// Largest allowed value.
        max: i64,
        /// The step.
        step: i64,
    },
    /// One `step` down and up, within `min..=max`.
    Real {
        /// Smallest allowed value.
        min: f64,
        /// Largest allowed value.
        max: f64,
        /// The step.
        step: f64,
    },
}

/// A true-or-false rules key's values.
pub const BOOL: RuleStep = RuleStep::Choice(&["true", "false"]);

/// Rules text with keys brought into line, and those keys ([`GameInfo::follow`]).
pub type Followed = (String, Vec<String>);

/// A registered game.
#[derive(Clone, Copy)]
pub struct GameInfo {
    /// Name on the command line.
    pub name: &'static str,
    /// Name in prose and report headings.
    pub title: &'static str,
    /// One line for `draftsim list games`.
    pub description: &'static str,
    /// Every rules key with its meaning.
    pub rules_help: &'static [(&'static str, &'static str)],
    /// The rules keys a sensitivity study steps, each with its values or its step.
    pub rule_steps: &'static [(&'static str, RuleStep)],
    /// The rules' defaults as TOML.
    pub default_rules: fn() -> String,
    /// Presets: (name, one-line description).
    pub presets: fn() -> Vec<(String, String)>,
    /// A strategy's TOML text: a preset name, a preset file or a derived preset.
    pub preset_text: fn(name: &str) -> Result<String, InputError>,
    /// A heuristic strategy's parameters as TOML, every default written out (what its file
    /// leaves out included), for reading a parameter's type.
    pub preset_in_full: fn(name: &str) -> Result<toml::Table, InputError>,
    /// Rules drawn at random from the game's options (TOML), for soak and property tests.
    pub random_rules: fn(seed: u64) -> String,
    /// Rules text with the keys that depend on a key a study set brought into line, but
    /// for those the study named too, and the keys that moved; `None` where nothing changed
    /// ([`contest::GameRules::follow`]).
    pub follow: fn(text: &str, key: &str, named: &[&str]) -> Option<Followed>,
    /// The default seats for `players` players.
    pub default_seats: fn(players: usize) -> Vec<String>,
    /// Builds the game from a rules file's text (or defaults), a player count override and seats.
    pub build: BuildFn,
    /// Whether the game replays a sampled world's past (`Forward::rewind`), so the search
    /// may weigh its worlds (`worlds` above 1).
    pub rewinds: bool,
    /// What the observation's labels that need saying mean, a line each (`play`).
    pub view_legend: &'static str,
    /// The rules that decide units with no sole winner (the health card's advice).
    pub undecided_rules: &'static str,
}

/// A replay's closing section: a line a seat, with its name and what `result` says of its
/// result.
pub fn write_results(
    text: &mut String,
    names: &[&str],
    out: Option<&sim::RoundResult>,
    result: impl Fn(&sim::SeatResult) -> String,
) {
    use std::fmt::Write;
    // A single event told as it happens (`Game::news`) has no result yet.
    let Some(out) = out else { return };
    let _ = writeln!(text, "== Result");
    for (s, name) in names.iter().enumerate() {
        let _ = writeln!(text, "  seat {s} ({name}): {}", result(&out.seats[s]));
    }
}

/// The score of the betting games: net chips per unit, zero-sum, in `chips_per_round`.
/// `stake` is the most one seat can lose in a unit, if the rules bound it: as every chip
/// won is another seat's, a seat wins at most that from each of the others.
pub fn chips_score(description: &str, stake: Option<u32>, players: usize) -> sim::Score {
    let bounds = stake.map_or(crate::stats::Bounds::NONE, |s| {
        crate::stats::Bounds::between(-f64::from(s), f64::from(s) * players.saturating_sub(1) as f64)
    });
    sim::Score {
        key: "net".into(),
        column: "chips_per_round".into(),
        pair_column: "chips_diff_per_round".into(),
        description: description.into(),
        zero_sum: true,
        bounds,
    }
}

/// Every game draftsim can simulate.
pub const GAMES: &[GameInfo] = &[
    seven_card_draft::INFO,
    sevens::INFO,
    seven_poker::INFO,
    winston::INFO,
    live_draft::INFO,
    ref_poker::KUHN_INFO,
    ref_poker::LEDUC_INFO,
];

impl GameInfo {
    /// The game with its default rules and seats (for listing its measures).
    pub fn with_defaults(&self) -> Result<Built, InputError> {
        (self.build)(None, None, None)
    }

    /// The fewest players its rules seat (2 where they have no player count).
    pub fn fewest_players(&self) -> usize {
        match self.rule_steps.iter().find(|(key, _)| *key == "players") {
            Some((_, RuleStep::Int { min, .. })) => usize::try_from(*min).unwrap_or(2),
            _ => 2,
        }
    }
}

/// The game of this name.
pub fn find(name: &str) -> Result<&'static GameInfo, InputError> {
    GAMES.iter().find(|g| g.name == name).ok_or_else(|| {
        let names: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
        // A near spelling, else a game whose name begins with it (`kuhn`, `winston`).
        let close = presets::did_you_mean(&presets::closest(name, names.iter().copied()), "'");
        InputError::new(format!("unknown game '{name}'{close}: use one of {}", names.join(", ")))
    })
}
