//! Seats decided outside the process: a program speaking the JSON-lines protocol of
//! docs/protocol.md ([`process`]), or a person at the terminal ([`terminal`]). Both are one
//! mechanism: the driver gives the seat its observation as JSON and its legal moves in
//! words, and takes back the index of one of them.

pub mod process;
pub mod terminal;

use std::sync::Arc;

use crate::error::{Error, InputError};

/// The protocol's version, sent in every `hello`.
pub const PROTOCOL: u32 = 1;

/// The name of the human seat of `draftsim play`.
pub const HUMAN: &str = "you";

/// What a seat decided outside is told when a unit starts.
#[derive(Clone, Copy, Debug)]
pub struct UnitStart<'a> {
    /// Its seat.
    pub seat: usize,
    /// The unit's seed for the seat (from the seat's own stream): a bot that draws its
    /// random numbers from it plays the same in every run with the same seed.
    pub seed: u64,
    /// Each seat's strategy name.
    pub names: &'a [&'a str],
}

/// One decision of a seat decided outside.
#[derive(Clone, Copy, Debug)]
pub struct Decision<'a> {
    /// Its seat.
    pub seat: usize,
    /// What the seat has seen: the observation the search bot plays from, as JSON.
    pub observation: &'a serde_json::Value,
    /// The legal moves in words, in the order their ids (indices) name them.
    pub legal: &'a [String],
    /// What the search bot or a trained policy would do here, where a hint was asked for.
    pub hint: Option<&'a str>,
}

/// The end of a unit.
#[derive(Clone, Copy, Debug)]
pub struct UnitEnd<'a> {
    /// Its seat.
    pub seat: usize,
    /// Each seat's score.
    pub scores: &'a [i64],
    /// Each seat's win share (split wins as fractions).
    pub win_shares: &'a [f64],
    /// The unit told move by move, where the seat asked to see it ([`Outside::wants_reveal`]).
    pub reveal: Option<&'a str>,
}

/// A seat whose decisions come from outside the process.
pub trait Outside: Send {
    /// A unit starts.
    fn start(&mut self, unit: &UnitStart<'_>) -> Result<(), Error>;
    /// The index of the chosen legal move, or `None` when no usable answer came (an illegal
    /// id, garbage, a timeout, a crash: counted, and the driver plays the fallback). An
    /// error stops the run.
    fn decide(&mut self, decision: &Decision<'_>) -> Result<Option<usize>, Error>;
    /// Another seat moved: `text` is the move as this seat sees it.
    fn seen(&mut self, seat: usize, text: &str) -> Result<(), Error> {
        let _ = (seat, text);
        Ok(())
    }
    /// The unit is over.
    fn end(&mut self, end: &UnitEnd<'_>) -> Result<(), Error>;
    /// Whether it follows the other seats' moves ([`Outside::seen`]).
    fn follows_moves(&self) -> bool {
        false
    }
    /// Whether it wants the unit told move by move at its end.
    fn wants_reveal(&self) -> bool {
        false
    }
    /// Whose hint it wants at each decision.
    fn hint(&self) -> Hint {
        Hint::None
    }
}

/// Whose advice a seat decided outside is shown at each of its decisions.
#[derive(Clone, Debug, Default)]
pub enum Hint {
    /// None.
    #[default]
    None,
    /// The search bot's: its top moves with their shares of its visits and mean results.
    Search,
    /// A trained policy's (a `cfr` preset, named for the hint): its probabilities.
    Policy(String, Arc<crate::solver::policy::Policy>),
}

/// A strategy played outside the process, as a lineup holds it.
#[derive(Debug)]
pub enum OutsideSpec {
    /// A program over the JSON-lines protocol.
    Process(Arc<process::ProcessSpec>),
    /// The person at the terminal (`draftsim play`).
    Human(terminal::HumanSpec),
}

impl PartialEq for OutsideSpec {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl OutsideSpec {
    /// A seat of this strategy, for one worker.
    pub fn open(&self) -> Box<dyn Outside> {
        match self {
            OutsideSpec::Process(spec) => Box::new(process::ExternalSeat::new(spec.clone())),
            OutsideSpec::Human(spec) => Box::new(spec.seat()),
        }
    }

    /// Tells a program's seats the game, rules and player count they will play (the
    /// `hello`); nothing for the human seat.
    pub fn bind(&self, game: &str, rules_toml: &str, players: usize) {
        if let OutsideSpec::Process(spec) = self {
            spec.bind(game, rules_toml, players);
        }
    }

    /// A program's faults so far, for the `outside` table.
    pub fn faults(&self) -> Option<process::FaultCounts> {
        match self {
            OutsideSpec::Process(spec) => Some(spec.faults()),
            OutsideSpec::Human(_) => None,
        }
    }
}

/// Why a seat decided outside the process has no exact exploitability, and what bounds it.
pub fn not_tabulable(name: &str) -> InputError {
    InputError::new(format!(
        "{name}: a seat decided outside the process cannot be tabulated over every information set; bound it by play: add --bound lower, with --responders naming strategies to try against it (e.g. cfr,tight)"
    ))
}

/// The strategy of a seat name that is played outside: `ext{cmd="..."}` or `you`.
pub fn parse_seat(name: &str) -> Result<Option<OutsideSpec>, InputError> {
    if name == HUMAN {
        if !terminal::is_set_up() {
            return Err(InputError::new(format!(
                "the seat `{HUMAN}` is a person at the terminal: play it with `draftsim play --seats {HUMAN},...`"
            )));
        }
        return Ok(Some(OutsideSpec::Human(terminal::HumanSpec)));
    }
    if let Some(text) = ext_preset_file(name) {
        return Ok(Some(OutsideSpec::Process(Arc::new(process::ProcessSpec::from_toml(name, &text)?))));
    }
    match name.strip_prefix("ext{").and_then(|r| r.strip_suffix('}')) {
        Some(inner) => Ok(Some(OutsideSpec::Process(Arc::new(process::ProcessSpec::parse(name, inner)?)))),
        None if name == "ext" || name.starts_with("ext{") => Err(InputError::new(format!(
            "{name}: write an external bot as ext{{cmd=\"python3 my_bot.py\"}} (options: timeout_ms, max_failures)"
        ))),
        None => Ok(None),
    }
}

/// The text of a preset file that seats an outside program (`module = "ext"`), so a bot
/// with a long command line sits in the tables under its file's name.
fn ext_preset_file(name: &str) -> Option<String> {
    if !name.ends_with(".toml") {
        return None;
    }
    let text = std::fs::read_to_string(name).ok()?;
    let module = toml::from_str::<toml::Table>(&text).ok()?.get("module")?.as_str()?.to_string();
    (module == process::EXT_MODULE).then_some(text)
}
