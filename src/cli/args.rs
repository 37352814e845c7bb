//! The flags every command that plays rounds shares, each defined once. Commands flatten
//! them in one order, so every `--help` lists them alike: `--game`, `--rules`, `--players`,
//! `--seats`, `--rounds`, `--seed`, `--out`, `--force`, `--format`, `--threads`, `--quiet`,
//! then the command's own flags.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use draftsim::InputError;
use draftsim::games::{self, Runner};
use draftsim::output::{Format, OutputDir};
use indicatif::{ProgressBar, ProgressStyle};

/// The seed used when none is given (printed with every run).
pub const DEFAULT_SEED: u64 = 20_261_121;

/// `--game` and `--rules`.
#[derive(Args, Debug, Clone)]
pub struct GameRulesArgs {
    /// Game (see `draftsim list games`).
    #[arg(long, default_value = "seven-card-draft")]
    pub game: String,
    /// Rules file (TOML); see `draftsim list rules GAME`.
    #[arg(long)]
    pub rules: Option<PathBuf>,
}

impl GameRulesArgs {
    /// The rules file's text, if one was given.
    pub fn rules_text(&self) -> Result<Option<String>> {
        self.rules
            .as_ref()
            .map(|p| std::fs::read_to_string(p).map_err(|e| InputError::new(format!("--rules {}: {e}", p.display()))))
            .transpose()
            .map_err(Into::into)
    }
}

/// `--players`.
#[derive(Args, Debug, Clone)]
pub struct PlayersArg {
    /// Number of players (default: the rules file's, the game's, or 2 for compare).
    #[arg(long)]
    pub players: Option<usize>,
}

/// `--seats`.
#[derive(Args, Debug, Clone)]
pub struct SeatsArg {
    /// Strategy at each seat, comma-separated: preset names, paths to preset files, or
    /// derived presets such as 'hate{draft.weight=0.5;bet.fold_below[0]=0.6}'.
    #[arg(long, value_delimiter = ',')]
    pub seats: Option<Vec<String>>,
}

impl SeatsArg {
    /// The seats, with derived presets (`hate{bet.fold_below=[0.7,0.6,0.3]}`) kept whole.
    pub fn list(&self) -> Option<Vec<String>> {
        self.seats.as_deref().map(draftsim::games::presets::rejoin)
    }
}

/// Which game, rules and seats: run, check and replay.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    #[command(flatten)]
    pub game: GameRulesArgs,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub seats: SeatsArg,
}

impl GameArgs {
    /// The game's name.
    pub fn name(&self) -> &str {
        &self.game.game
    }

    /// Builds the game, returning it with the seats in play.
    pub fn build(&self) -> Result<(Box<dyn Runner>, Vec<String>)> {
        let info = games::find(&self.game.game)?;
        let text = self.game.rules_text()?;
        let built =
            (info.build)(text.as_deref(), self.players.players, self.seats.list().as_deref()).map_err(
                |e| match &self.game.rules {
                    Some(path) => e.context(path.display()),
                    None => e,
                },
            )?;
        Ok(built)
    }
}

/// `--rounds`.
#[derive(Args, Debug, Clone)]
pub struct RoundsArg {
    /// Rounds to play (a game's units: games, matches); per pair in compare, per variant in
    /// sweep, for the whole search in tune and exploit. Default: 1,000,000 for run, 400,000
    /// for tune and exploit, 100,000 otherwise.
    #[arg(long)]
    pub rounds: Option<u64>,
}

impl RoundsArg {
    /// The rounds asked for, or `default`; at least one.
    pub fn get(&self, default: u64) -> Result<u64, InputError> {
        match self.rounds.unwrap_or(default) {
            0 => Err(InputError::new("--rounds 0: play at least 1 round")),
            n => Ok(n),
        }
    }
}

/// `--seed`.
#[derive(Args, Debug, Clone)]
pub struct SeedArg {
    /// The seed: a run, a replay, every pair or variant of a study is played from it.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
}

/// `--out`, `--force`, `--format`: where and how tables are written.
#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// Write the tables into this folder (it must not exist, unless --force).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace an existing --out folder.
    #[arg(long)]
    pub force: bool,
    /// Table format: csv or parquet.
    #[arg(long, default_value = "csv")]
    pub format: String,
}

impl OutputArgs {
    /// Checks the format and prepares the staging folder (before any simulation runs).
    pub fn open(&self) -> Result<(Format, Option<OutputDir>)> {
        let format: Format = self.format.parse()?;
        let out = self.out.as_deref().map(|p| OutputDir::create(p, self.force)).transpose()?;
        Ok((format, out))
    }
}

/// `--quiet`.
#[derive(Args, Debug, Clone)]
pub struct QuietArg {
    /// No progress bar and no notes on stderr: only the result.
    #[arg(long)]
    pub quiet: bool,
}

impl QuietArg {
    /// Prints a note on stderr (what is played, where tables went) unless quiet.
    pub fn note(&self, text: &str) {
        if !self.quiet {
            eprintln!("draftsim: {text}");
        }
    }
}

/// `--threads`, `--quiet`: how a command that plays rounds runs.
#[derive(Args, Debug, Clone)]
pub struct ExecArgs {
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub quiet: QuietArg,
}

impl ExecArgs {
    /// A pool of the asked number of workers.
    pub fn pool(&self) -> Result<rayon::ThreadPool> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads.unwrap_or(0))
            .build()
            .context("starting worker threads")
    }

    /// A progress bar (done, rate, ETA, and a message such as the pair playing) over
    /// `total` steps, on a terminal and unless quiet.
    pub fn bar(&self, total: u64) -> Option<ProgressBar> {
        (!self.quiet.quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len} · {per_sec} · ETA {eta} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        })
    }

    /// Prints a note on stderr unless quiet.
    pub fn note(&self, text: &str) {
        self.quiet.note(text);
    }
}

/// `--no-rotate`: run, check and replay.
#[derive(Args, Debug, Clone)]
pub struct RotateArg {
    /// Turn off seat rotation: each deal is played once, with the seats as given.
    #[arg(long)]
    pub no_rotate: bool,
}
