//! The flags every command that plays rounds shares, each defined once. Commands flatten
//! them in one order, so every `--help` lists them alike: `--game`, `--rules`, `--players`,
//! `--seats`, `--rounds`, `--seed`, `--out`, `--force`, `--format`, `--threads`, `--quiet`,
//! then the command's own flags.

use std::ffi::OsStr;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::OnceLock;

use anyhow::{Context, Result};
use clap::Args;
use clap::builder::{PossibleValue, TypedValueParser};
use draftsim::games::{self, GAMES, GameInfo, Runner};
use draftsim::output::{Format, OutputDir};
use draftsim::{Fault, InputError};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// The game a command plays when `--game` is not given: a macro so that help texts, which
/// clap needs as one literal, are built from the same name.
macro_rules! default_game {
    () => {
        "seven-card-draft"
    };
}
pub(crate) use default_game;

/// The game a command plays when `--game` is not given.
pub const DEFAULT_GAME: &str = default_game!();

/// `--game`'s help where it may be left out.
pub const GAME_HELP: &str = concat!("Game (see `draftsim list games`) [default: ", default_game!(), "]");

/// The seed used when none is given (printed with every run).
pub const DEFAULT_SEED: u64 = 20_261_121;

/// Parses a whole number; a negative one is refused with a message naming the fix
/// (clap would otherwise take `-5` for a flag).
pub fn whole<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    if text.trim_start().starts_with('-') {
        return Err("a negative number: give a whole number without a sign".into());
    }
    let text = text.trim();
    text.parse().map_err(|_| match !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        // Digits that do not fit are no typo: say that the number is too large.
        true => "too large a number: give a smaller whole number".into(),
        false => "not a whole number: give digits only, e.g. 4".into(),
    })
}

/// The most worker threads a command starts: far more than any machine has cores, few
/// enough that asking for them cannot exhaust the machine.
const MAX_THREADS: usize = 1024;

/// The most rounds a command plays: sums of a run's counts stay far from overflowing.
const MAX_ROUNDS: u64 = 1_000_000_000_000_000;

/// The most seats a command seats before the game's own range is checked: far more than
/// any game seats, few enough that a seat list of that length costs nothing.
const MAX_SEATS: usize = 64;

/// Parses `--players`: a whole number, at most [`MAX_SEATS`] (the game checks its own range).
fn players(text: &str) -> Result<usize, String> {
    match whole(text)? {
        n if n > MAX_SEATS => {
            Err(format!("{n} players: no game seats more than {MAX_SEATS}; see `draftsim list rules GAME`"))
        }
        n => Ok(n),
    }
}

/// Parses `--threads`: a whole number of at least 1.
fn threads(text: &str) -> Result<usize, String> {
    match whole(text)? {
        0 => Err("no threads: give 1 or more, or leave --threads out to use every core".into()),
        n if n > MAX_THREADS => Err(format!("more than {MAX_THREADS} threads: give at most {MAX_THREADS}")),
        n => Ok(n),
    }
}

/// Parses a positive real number (a time in seconds).
pub fn positive(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        Ok(_) => Err("give a number above 0, e.g. 60".into()),
        Err(_) => Err("not a number: give e.g. 60".into()),
    }
}

/// Parses a real number; the command checks its range with a message of its own.
pub fn number(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err("not a number: give a decimal, e.g. 0.5".into()),
    }
}

/// The longest time budget taken: a year, far past any search worth running, short enough
/// that the rounds a pilot derives from it stay countable.
const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// A time budget in seconds: above 0, at most a year.
pub fn seconds(text: &str) -> Result<f64, String> {
    match positive(text)? {
        s if s <= MAX_SECONDS => Ok(s),
        _ => Err(format!("more than a year: give at most {MAX_SECONDS} seconds")),
    }
}

/// A value parser that takes any text (the command checks it later, with a message that
/// names the fix) but tells help and shell completions the values it knows.
#[derive(Clone)]
pub struct Known(pub fn() -> &'static [&'static str]);

impl TypedValueParser for Known {
    type Value = String;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<String, clap::Error> {
        // An empty name (`greedy,,tight`) would silently drop a seat.
        if value.to_string_lossy().trim().is_empty() {
            let name = arg.and_then(|a| a.get_long()).unwrap_or("seats");
            return Err(clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!("--{name}: an empty name (two commas in a row?); name a strategy in every place\n"),
            )
            .with_cmd(cmd));
        }
        Ok(value.to_string_lossy().into_owned())
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new((self.0)().iter().map(|v| PossibleValue::new(*v))))
    }
}

/// Values a shell completes, for an argument the command reads itself: no file names
/// offered where a file is not meant.
#[derive(Clone)]
pub struct Offered(pub fn() -> &'static [&'static str]);

impl TypedValueParser for Offered {
    type Value = String;

    fn parse_ref(&self, _: &clap::Command, _: Option<&clap::Arg>, value: &OsStr) -> Result<String, clap::Error> {
        Ok(value.to_string_lossy().into_owned())
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new((self.0)().iter().map(|v| PossibleValue::new(*v))))
    }
}

/// The named decks (`hand --deck`).
pub fn deck_names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| draftsim::cards::DeckPreset::ALL.iter().map(|d| d.name()).collect())
}

/// Every wild rule by name, each rank's spelled out (`hand --wild`).
pub fn wild_names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names = vec!["deuces", "deuces-with-face", "last-pick"];
        for rank in "3456789TJQKA".chars() {
            names.push(format!("rank-{rank}").leak());
            names.push(format!("rank-{rank}-with-face").leak());
        }
        names
    })
}

/// What `play --hint` takes in any game: `search` and every trained policy's preset.
pub fn adviser_names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names = vec!["search"];
        for g in GAMES {
            for (name, _) in (g.presets)() {
                let policy = (g.preset_text)(&name).is_ok_and(|t| draftsim::search::params::is_policy(&t));
                if policy && !names.contains(&name.as_str()) {
                    names.push(name.leak());
                }
            }
        }
        names
    })
}

/// The games' names.
pub fn game_names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| GAMES.iter().map(|g| g.name).collect())
}

/// Every game's preset names, each once (for completions; the game checks its own).
pub fn preset_names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names: Vec<&'static str> = Vec::new();
        for g in GAMES {
            for (name, _) in (g.presets)() {
                if !names.contains(&name.as_str()) {
                    names.push(name.leak());
                }
            }
        }
        names
    })
}

/// The table formats.
pub fn format_names() -> &'static [&'static str] {
    &["csv", "parquet"]
}

/// `--game` and `--rules`.
#[derive(Args, Debug, Clone)]
pub struct GameRulesArgs {
    #[arg(long, value_parser = Known(game_names), help = GAME_HELP)]
    pub game: Option<String>,
    /// Rules file (TOML); see `draftsim list rules GAME`.
    #[arg(long, value_hint = clap::ValueHint::FilePath)]
    pub rules: Option<PathBuf>,
}

/// A warning held until the command has refused all it will refuse: said with its first
/// note (the banner before play), its progress bar or its end, and dropped on an error, so
/// that bad input stays one line. The first held is the one said.
static HELD: std::sync::Mutex<(bool, Option<String>)> = std::sync::Mutex::new((false, None));

/// Holds `text` as the warning to say (see [`HELD`]), unless one was held before.
fn hold(text: String) {
    let mut held = HELD.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if !held.0 {
        *held = (true, Some(text));
    }
}

/// Says the held warning, if one is waiting.
pub fn say_held() {
    let text = HELD.lock().unwrap_or_else(std::sync::PoisonError::into_inner).1.take();
    if let Some(text) = text {
        warn(&text);
    }
}

/// Warns (held: see [`HELD`]) where `--game` was left out beside a rules file that sets a
/// key other than `players` and reads as another game's rules too: the default game is
/// played, and the file may be for the other.
pub fn warn_default_game(given: Option<&str>, file: &std::path::Path, text: Option<&str>) {
    // Every build of a command calls here; the games need building only once.
    if HELD.lock().unwrap_or_else(std::sync::PoisonError::into_inner).0 {
        return;
    }
    let Some(text) = text.filter(|_| given.is_none()) else { return };
    let table: toml::Table = toml::from_str(text).unwrap_or_default();
    if table.keys().all(|k| k == "players") {
        return;
    }
    let others: Vec<&str> = GAMES
        .iter()
        .filter(|g| g.name != DEFAULT_GAME && (g.build)(Some(text), None, None).is_ok())
        .map(|g| g.name)
        .collect();
    if others.is_empty() {
        return;
    }
    let flags: Vec<String> = others.iter().map(|g| format!("--game {g}")).collect();
    hold(format!(
        "{}: playing {DEFAULT_GAME}, the default game, but the file reads as {} rules too: add {} if it is for {}, or --game {DEFAULT_GAME} to say it is not",
        file.display(),
        match others.len() {
            1 => format!("{}'s", others[0]),
            _ => "other games'".to_string(),
        },
        flags.join(" or "),
        match others.len() {
            1 => "it".to_string(),
            _ => "one of them".to_string(),
        },
    ));
}

impl GameRulesArgs {
    /// The game's name: `--game`'s, else the default's.
    pub fn name(&self) -> &str {
        self.game.as_deref().unwrap_or(DEFAULT_GAME)
    }

    /// The game.
    pub fn info(&self) -> Result<&'static GameInfo> {
        Ok(games::find(self.name())?)
    }

    /// The `players` a rules file sets, if one was given and sets it (a malformed file is
    /// left for the game to report).
    pub fn rules_players(&self) -> Result<Option<usize>> {
        let players = self.rules_text()?.and_then(|text| {
            let table: toml::Table = toml::from_str(&text).ok()?;
            table.get("players")?.as_integer().and_then(|n| usize::try_from(n).ok())
        });
        if let Some(n) = players.filter(|&n| n > MAX_SEATS) {
            let file = self.rules.as_ref().map_or(String::new(), |p| format!("--rules {}: ", p.display()));
            return Err(InputError::new(format!("{file}players = {n}: no game seats more than {MAX_SEATS}")).into());
        }
        Ok(players)
    }

    /// Builds `info`'s game from `text` (this rules file's, or one derived from it) with
    /// the players and seats given; an error the rules make names the rules file.
    pub fn build(
        &self,
        info: &GameInfo,
        text: Option<&str>,
        players: Option<usize>,
        seats: Option<&[String]>,
    ) -> Result<(Box<dyn Runner>, Vec<String>)> {
        let built = (info.build)(text, players, seats);
        if built.is_ok()
            && let Some(path) = &self.rules
        {
            // The file as written, where a command builds text derived from it.
            warn_default_game(self.game.as_deref(), path, self.rules_text().ok().flatten().as_deref());
        }
        built.map_err(|e| self.name_rules_file(e)).map_err(|e| match &self.rules {
            // The rules build without the seats, at the table the seats imply, or the seat
            // list's length set a count the rules refuse: the seats are at fault, not the file.
            Some(_)
                if seats.is_some()
                    && (e.fault() == Fault::SeatCount
                        || (info.build)(text, draftsim::games::presets::players_asked(players, text, seats), None)
                            .is_ok()) =>
            {
                e.into()
            }
            // A count --players set, refused under rules that build at their own count: the
            // flag is at fault.
            Some(_) if players.is_some() && e.fault() == Fault::Players && (info.build)(text, None, None).is_ok() => {
                e.context("--players").into()
            }
            Some(path) => {
                // A file of another game's rules (`--game` left out): name the game it reads as.
                match text.and_then(|t| game_it_reads_as(info, t, &e)) {
                    Some(hint) => InputError::new(format!("{e}; {hint}")).context(path.display()).into(),
                    None => e.context(path.display()).into(),
                }
            }
            // No file: a count the game refuses came from the flag.
            None if players.is_some() && e.fault() == Fault::Players => e.context("--players").into(),
            None => e.into(),
        })
    }

    /// A refused policy's fix with this command's rules file named, or none under the
    /// default rules, where the library words it with a stand-in.
    pub fn name_rules_file(&self, e: InputError) -> InputError {
        let stand_in = format!(" {}", draftsim::solver::policy::RULES_FILE);
        match e.fix().filter(|fix| e.fault() == Fault::PolicyElsewhere && fix.contains(&stand_in)) {
            Some(fix) => {
                let named = match &self.rules {
                    Some(path) => format!(" --rules {}", shell_word(&path.display().to_string())),
                    None => String::new(),
                };
                let fix = fix.replace(&stand_in, &named);
                e.fixed_by(fix)
            }
            None => e,
        }
    }

    /// The rules file's text, if one was given.
    pub fn rules_text(&self) -> Result<Option<String>> {
        self.rules
            .as_ref()
            .map(|p| {
                draftsim::error::read_named_file(
                    "--rules",
                    p,
                    "give a rules file (TOML; `draftsim list rules` shows every field)",
                )
            })
            .transpose()
            .map_err(Into::into)
    }
}

/// `--players`.
#[derive(Args, Debug, Clone)]
pub struct PlayersArg {
    /// Number of players (default: the rules file's, else the game's).
    #[arg(long, value_parser = players, allow_negative_numbers = true)]
    pub players: Option<usize>,
}

/// `--seats`.
#[derive(Args, Debug, Clone)]
pub struct SeatsArg {
    /// Strategy at each seat, comma-separated: preset names, paths to preset files, or
    /// derived presets such as 'hate{draft.weight=0.5;bet.fold_below[0]=0.6}'.
    #[arg(long, value_delimiter = ',', value_parser = Known(preset_names), hide_possible_values = true)]
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

/// The hint for a file of other games' rules, where building it as `info`'s failed on an
/// unknown key (`--game` left out): every game that reads it, as the file may fit several
/// (Seven Card Draft and Sevens both take `ante`).
pub fn game_it_reads_as(info: &GameInfo, text: &str, e: &impl std::fmt::Display) -> Option<String> {
    if !e.to_string().contains("unknown field") {
        return None;
    }
    let games: Vec<&str> = GAMES
        .iter()
        .filter(|g| g.name != info.name && (g.build)(Some(text), None, None).is_ok())
        .map(|g| g.name)
        .collect();
    match games.as_slice() {
        [] => None,
        [g] => Some(format!("the file reads as {g}'s rules: add --game {g}")),
        several => {
            let flags: Vec<String> = several.iter().map(|g| format!("--game {g}")).collect();
            Some(format!(
                "the file reads as the rules of {}: add the one it is for ({})",
                draftsim::output::or_list(several),
                flags.join(" or ")
            ))
        }
    }
}

impl GameArgs {
    /// The game's name.
    pub fn name(&self) -> &str {
        self.game.name()
    }

    /// Builds the game, returning it with the seats in play.
    pub fn build(&self) -> Result<(Box<dyn Runner>, Vec<String>)> {
        let info = self.game.info()?;
        let text = self.game.rules_text()?;
        self.game.build(info, text.as_deref(), self.players.players, self.seats.list().as_deref())
    }
}

/// How many units, from which seed, written where and on how many threads: what every
/// command that plays a batch of units takes.
#[derive(Args, Debug, Clone)]
pub struct BatchArgs {
    #[command(flatten)]
    pub rounds: RoundsArg,
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub exec: ExecArgs,
}

/// `--rounds`.
#[derive(Args, Debug, Clone)]
pub struct RoundsArg {
    /// Rounds to play (a game's units: hands, games, matches; `--units` is the same);
    /// each command's help says its default.
    #[arg(long, visible_alias = "units", value_parser = whole::<u64>, allow_negative_numbers = true)]
    pub rounds: Option<u64>,
}

impl RoundsArg {
    /// The rounds asked for, or `default`; at least one.
    pub fn get(&self, default: u64) -> Result<u64, InputError> {
        match self.rounds.unwrap_or(default) {
            0 => Err(InputError::new(
                "--rounds 0: play at least 1 unit (a round, hand, game or match, as the game counts)",
            )),
            n if n > MAX_ROUNDS => Err(InputError::new(format!("--rounds {n}: give at most {MAX_ROUNDS}"))),
            n => Ok(n),
        }
    }
}

/// `--seed`.
#[derive(Args, Debug, Clone)]
pub struct SeedArg {
    /// The seed every deal and every seat's random choice derive from: the same seed, rules
    /// and seats play the same units again.
    #[arg(long, default_value_t = DEFAULT_SEED, value_parser = whole::<u64>, allow_negative_numbers = true)]
    pub seed: u64,
}

/// `--out`, `--force`, `--format`: where and how tables are written.
#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// Write the tables into this folder (it must not exist, unless --force).
    #[arg(long, value_hint = clap::ValueHint::DirPath)]
    pub out: Option<PathBuf>,
    /// Replace an existing --out folder of results (one draftsim wrote, never other files).
    #[arg(long)]
    pub force: bool,
    /// Table format [default: csv].
    #[arg(long, value_parser = Known(format_names))]
    pub format: Option<String>,
}

impl OutputArgs {
    /// The format `--format` asked for, if it was given.
    pub fn asked_format(&self) -> Result<Option<Format>> {
        Ok(self.format.as_deref().map(str::parse).transpose()?)
    }

    /// Checks the format and prepares the staging folder (before any simulation runs).
    pub fn open(&self) -> Result<(Format, Option<OutputDir>)> {
        self.open_over(false)
    }

    /// As [`OutputArgs::open`]; `policy` says whether a trained policy there may be
    /// replaced (by a training: `--force` of another command does not throw one away).
    pub fn open_over(&self, policy: bool) -> Result<(Format, Option<OutputDir>)> {
        let format = self.asked_format()?.unwrap_or(Format::Csv);
        // Asked for a format, a user expects files: without --out there are none.
        if self.out.is_none() && format != Format::Csv {
            let name = self.format.as_deref().unwrap_or_default();
            warn(&format!("--format {name}: tables are written only with --out DIR; the terminal shows text"));
        }
        // As --format: a flag that does nothing without --out is said to.
        if self.out.is_none() && self.force {
            warn("--force replaces an --out folder; without --out nothing is written or replaced");
        }
        let out = self.out.as_deref().map(|p| super::interrupt::create(p, self.force, policy)).transpose()?;
        Ok((format, out))
    }
}

/// `--quiet`.
#[derive(Args, Debug, Clone)]
pub struct QuietArg {
    /// No progress bar and no notes on stderr: only the result (and warnings).
    #[arg(long)]
    pub quiet: bool,
}

impl QuietArg {
    /// Prints a note on stderr (what is played, where tables went) unless quiet, after any
    /// warning held till now.
    pub fn note(&self, text: &str) {
        say_held();
        if !self.quiet {
            to_stderr!("draftsim: {text}");
        }
    }
}

/// `--threads`, `--quiet`: how a command that plays rounds runs.
#[derive(Args, Debug, Clone)]
pub struct ExecArgs {
    /// Worker threads, 1 or more (default: all cores).
    #[arg(long, value_parser = threads, allow_negative_numbers = true)]
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
        say_held();
        (!self.quiet.quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len} · {rate} · ETA {eta} {msg}")
                    .map(|s| s.with_key("rate", rate))
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

/// The bar's rate as a whole number per second (indicatif's `{per_sec}` shows decimals).
fn rate(state: &ProgressState, out: &mut dyn std::fmt::Write) {
    let _ = write!(out, "{}/s", rate_text(state.per_sec()));
}

/// A rate as a whole number with thousands separated by commas: 12,345.
pub fn rate_text(per_sec: f64) -> String {
    let digits = if per_sec.is_finite() && per_sec > 0.0 { (per_sec.round() as u64).to_string() } else { "0".into() };
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// `word` as one word of a shell command: quoted where it holds a space, a quote, a brace.
pub fn shell_word(word: &str) -> String {
    shlex::try_quote(word).map_or_else(|_| word.to_string(), |q| q.into_owned())
}

/// Prints a warning on stderr, `--quiet` or not: a warning says the result may not mean
/// what the command line suggests, which a script needs to see as much as a person.
pub fn warn(text: &str) {
    to_stderr!("draftsim: warning: {text}");
}

/// Warns that `subject` (`"12 rounds a pair"`) is one deal (`aside` said after it): intervals
/// are over deals, so one leaves `what` without a measured width; `rounds_needed` is the
/// count that plays two.
pub fn warn_one_deal(subject: &str, aside: &str, what: &str, rounds_needed: u64) {
    warn(&format!("{subject} is one deal{aside}: {what}; use --rounds {rounds_needed} or more"));
}

/// What each part of a study plays, as its opening line says it: "1,008 hands per pair
/// (1,000 asked, rounded up to whole deals)", or the count alone where none was added.
/// `played` is the fewest and the most any part plays.
pub fn units_each(asked: u64, played: (u64, u64), (unit, units): (&str, &str), each: &str) -> String {
    let noun = |n: u64| draftsim::output::noun(n as i64, unit, units);
    match played {
        (a, b) if a == b && a == asked => format!("{asked} {} per {each}", noun(asked)),
        (a, b) if a == b => format!("{a} {} per {each} ({asked} asked, rounded up to whole deals)", noun(a)),
        (a, b) => format!("{a} to {b} {units} per {each} ({asked} asked, rounded up to each {each}'s whole deals)"),
    }
}

/// Prints the rules' warnings (options that do nothing) on stderr.
pub fn warn_rules(runner: &dyn Runner) {
    for w in runner.warnings() {
        warn(&w);
    }
}

/// Prints the notes on rules no seated strategy used (see [`Runner::unused_rules`]) as
/// warnings on stderr.
pub fn warn_unused(notes: &[String]) {
    for n in notes {
        warn(n);
    }
}

/// `--no-rotate`: run, check and replay.
#[derive(Args, Debug, Clone)]
pub struct RotateArg {
    /// Play each deal once, with the seats as listed, instead of under the seatings balanced
    /// for seat and neighbour.
    #[arg(long)]
    pub no_rotate: bool,
}
