//! Typed errors of the library.
//!
//! [`InputError`] is bad input from a user (command line, rules or strategy files): its
//! message is one line that names the field and the fix, and the binary exits with code 2.

use std::fmt;

/// Bad input from the user: one line naming what is wrong and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    message: String,
    /// The fix, where a command may word its own: the line reads `message; fix`.
    fix: Option<String>,
    fault: Fault,
}

/// What an input error is about, where a command blames its own flag for it or words the fix
/// for its own way of seating, so that no caller reads an error's words to tell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Fault {
    /// Nothing a caller tells apart.
    #[default]
    Other,
    /// The rules refuse the player count (`players = N: ...`).
    Players,
    /// A seat's strategy does not load as named: no such preset or file, a bracket left
    /// open, or a policy's folder named without `cfr{policy=...}`.
    UnknownStrategy,
    /// A trained policy seated under rules, or at a table, other than its own.
    PolicyElsewhere,
    /// A seat list's length set a player count the rules refuse.
    SeatCount,
}

impl InputError {
    /// An input error with this one-line message.
    pub fn new(message: impl Into<String>) -> Self {
        InputError { message: message.into(), fix: None, fault: Fault::Other }
    }

    /// An input error saying what is wrong, then `; ` and the fix.
    pub fn with_fix(message: impl Into<String>, fix: impl Into<String>) -> Self {
        InputError { fix: Some(fix.into()), ..InputError::new(message) }
    }

    /// The same error, marked as about `fault`.
    pub fn about(self, fault: Fault) -> Self {
        InputError { fault, ..self }
    }

    /// What the error is about.
    pub fn fault(&self) -> Fault {
        self.fault
    }

    /// The fix, where the error words one apart from what is wrong.
    pub fn fix(&self) -> Option<&str> {
        self.fix.as_deref()
    }

    /// The same error with another fix, for a command that cures it its own way.
    pub fn fixed_by(self, fix: impl Into<String>) -> Self {
        InputError { fix: Some(fix.into()), ..self }
    }

    /// The same error without a leading `line N` where it is about a text draftsim wrote,
    /// not a file the user can open.
    pub fn unlined(self) -> Self {
        InputError { message: crate::games::presets::without_line(&self.message), ..self }
    }

    /// The same error with `context: ` put in front (e.g. the file it came from).
    pub fn context(self, context: impl fmt::Display) -> Self {
        InputError { message: format!("{context}: {}", self.message), ..self }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        match &self.fix {
            Some(fix) => write!(f, "; {fix}"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for InputError {}

/// A file a user named, read whole: `what PATH: why; fix` where it cannot be, the why in
/// words (no such file, a folder, not text) rather than the system's error text.
pub fn read_named_file(what: &str, path: &std::path::Path, fix: &str) -> Result<String, InputError> {
    std::fs::read_to_string(path)
        .map_err(|e| InputError::with_fix(format!("{what} {}: {}", path.display(), unreadable(&e)), fix))
}

/// Why a file could not be read, in words.
pub fn unreadable(e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match e.kind() {
        ErrorKind::NotFound => "no such file".to_string(),
        ErrorKind::IsADirectory => "a folder, not a file".to_string(),
        ErrorKind::PermissionDenied => "not readable (permission denied)".to_string(),
        ErrorKind::InvalidData => "not text (it is not UTF-8)".to_string(),
        _ => e.to_string(),
    }
}

/// Errors that can stop a simulation or a command.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad user input (exit code 2).
    #[error(transparent)]
    Input(#[from] InputError),
    /// A bot returned an action the rules do not allow.
    #[error("bot '{bot}' at seat {seat} chose an illegal action: {action}")]
    IllegalAction {
        /// The bot's name.
        bot: String,
        /// The seat it played.
        seat: usize,
        /// The action, described.
        action: String,
    },
    /// A game broke one of its invariants (found by `draftsim check`, or by tests).
    #[error("invariant broken: {0}")]
    Invariant(String),
    /// An error while playing a unit of a run, with where it happened.
    // The cause is in the message and is not also the error's `source`: a chain printed
    // whole would name it twice.
    #[error("round {round}: {error}")]
    AtRound {
        /// The unit's index in the run (as `replay --round` takes it).
        round: u64,
        /// What went wrong.
        error: Box<Error>,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        error: std::io::Error,
    },
    /// A seat played outside the process (an external bot) failed past its limit.
    #[error("{0}")]
    Outside(String),
    /// The run was interrupted (Ctrl-C) before it finished; no results were written.
    #[error("interrupted: no results were written")]
    Interrupted,
    /// Writing or reading a table failed.
    #[error("table {name}: {message}")]
    Table {
        /// The table.
        name: String,
        /// What went wrong.
        message: String,
    },
}

impl Error {
    /// Whether it is bad input (exit code 2), also inside a unit's error, which carries the
    /// unit's index around the cause rather than as its source.
    pub fn is_input(&self) -> bool {
        match self {
            Error::Input(_) => true,
            Error::AtRound { error, .. } => error.is_input(),
            _ => false,
        }
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What a game's rules step returns: nothing, or the error that stopped the unit.
pub type Step = Result<()>;

#[cfg(test)]
mod tests {
    use super::Error;

    /// A command that words its own fix keeps what the error says and what it is about,
    /// with the context put in front.
    #[test]
    fn a_fix_is_replaced_whole_and_the_fault_kept() {
        use super::{Fault, InputError};
        let e = InputError::with_fix("--seats names 1 strategy", "give --players 4").about(Fault::SeatCount);
        let e = e.context("rules.toml");
        assert_eq!(e.to_string(), "rules.toml: --seats names 1 strategy; give --players 4");
        let e = e.fixed_by("name a strategy for every seat");
        assert_eq!(e.to_string(), "rules.toml: --seats names 1 strategy; name a strategy for every seat");
        assert_eq!(e.fault(), Fault::SeatCount);
        assert_eq!(InputError::new("x").context("y").fault(), Fault::Other);
    }

    /// The binary prints an error with its whole chain (`{:#}`): a cause that is both in
    /// the message and the error's source would be named twice ("No space left on device
    /// (os error 28): No space left on device (os error 28)").
    #[test]
    fn a_printed_chain_names_the_cause_once() {
        let io = || Error::Io { path: "out/seats.csv".into(), error: std::io::Error::from_raw_os_error(28) };
        for e in [io(), Error::AtRound { round: 7, error: Box::new(io()) }] {
            let text = format!("{:#}", anyhow::Error::from(e));
            assert_eq!(text.matches("os error 28").count(), 1, "{text}");
            assert!(text.contains("out/seats.csv"), "{text}");
        }
    }
}
