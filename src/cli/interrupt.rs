//! Ctrl-C, SIGTERM and SIGHUP. The first asks the command to stop: it writes nothing,
//! says so and exits 130. A second ends the process at once, removing its staging folder
//! (anything a write leaves behind in that race is removed by the next command writing to
//! the same place). A second signal within [`ONE_SIGNAL`] of the first is the same one
//! delivered twice (GNU `timeout` signals the process and then its group; a terminal's
//! Ctrl-C reaches the whole group too), so it is not taken as the second.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use draftsim::output::OutputDir;

/// Set by the first signal; long commands read it between units of work.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Set once a command's output folder is in place: a signal after that changes nothing.
static COMMITTED: AtomicBool = AtomicBool::new(false);

/// The staging folder of the command's output, removed if a second signal ends it, and
/// the `--out` folder it becomes.
static STAGING: Mutex<Option<(PathBuf, PathBuf)>> = Mutex::new(None);

/// When the first signal came.
static FIRST: Mutex<Option<Instant>> = Mutex::new(None);

/// How soon after the first a signal counts as the same one.
const ONE_SIGNAL: Duration = Duration::from_millis(500);

/// Installs the handler (once, before the command starts).
pub fn catch() {
    let _ = ctrlc::set_handler(|| {
        let now = Instant::now();
        let mut first = FIRST.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let again = INTERRUPTED.swap(true, Ordering::SeqCst);
        if again && first.is_some_and(|f| now.duration_since(f) < ONE_SIGNAL) {
            return;
        }
        *first = Some(now);
        drop(first);
        if again {
            if let Some((staging, _)) = STAGING.lock().unwrap_or_else(std::sync::PoisonError::into_inner).as_ref() {
                let _ = std::fs::remove_dir_all(staging);
            }
            draftsim::outside::process::stop_all();
            to_stderr!("draftsim: interrupted twice: stopped at once; no results were written");
            std::process::exit(130);
        }
    });
}

/// Prepares the output folder `target` (see [`OutputDir::create`]), noting its staging
/// folder for the handler.
pub fn create(target: &Path, force: bool, policy: bool) -> Result<OutputDir, draftsim::InputError> {
    draftsim::output::check_out_not_input(target, &named_paths())?;
    // A trained policy is replaced by a training only: another command's --force does not
    // throw one away.
    let file = draftsim::solver::policy::POLICY_FILE;
    if force && !policy && target.join(file).is_file() {
        return Err(draftsim::InputError::new(format!(
            "--out {}: holds a trained policy ({file}), which --force does not replace with another command's tables; give another --out, or remove the folder yourself",
            target.display()
        )));
    }
    let dir = OutputDir::create(target, force)?;
    *STAGING.lock().unwrap_or_else(std::sync::PoisonError::into_inner) =
        Some((dir.path().to_path_buf(), target.to_path_buf()));
    Ok(dir)
}

/// `message` with the staging folder's path said as the `--out` folder's: a write that
/// failed there (a full disk) names the folder the user asked for, not a hidden one that
/// is gone by the time the message is read.
pub fn as_out_folder(message: String) -> String {
    match STAGING.lock().unwrap_or_else(std::sync::PoisonError::into_inner).as_ref() {
        Some((staging, target)) => message.replace(&staging.display().to_string(), &target.display().to_string()),
        None => message,
    }
}

/// Whether a signal came.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Takes a signal as handled: the command stopped early on purpose and keeps what it did
/// (`play` keeps the units played); a second signal still ends it at once.
pub fn handled() {
    INTERRUPTED.store(false, Ordering::SeqCst);
}

/// Whether a signal came before the command's output was in place, so that what it made
/// must be thrown away.
pub fn stopped_before_writing() -> bool {
    interrupted() && !COMMITTED.load(Ordering::SeqCst)
}

/// Whether a command's output folder is in place (a command stopped after writing, as
/// `play` is, has kept its tables).
pub fn committed() -> bool {
    COMMITTED.load(Ordering::SeqCst)
}

/// Moves an output folder into place unless a signal came first (then the staging folder
/// is dropped and the command ends as interrupted).
pub fn commit(dir: OutputDir) -> Result<PathBuf, draftsim::Error> {
    if interrupted() {
        return Err(draftsim::Error::Interrupted);
    }
    let path = dir.commit()?;
    COMMITTED.store(true, Ordering::SeqCst);
    Ok(path)
}

/// Options that take a value in every command that has them, a value never a path: a
/// folder that happens to share such a value's name (`--game sevens --out sevens`) is not
/// an input.
const NOT_PATHS: &[&str] =
    &["--game", "--players", "--rounds", "--units", "--seed", "--threads", "--format", "--set", "--vary"];

/// The paths the command line names that exist, other than `--out`'s own: each argument,
/// and each part of one (a seat's `cfr{policy="DIR"}`, a list of seats), so that no
/// `--out --force` replaces a folder holding a rules file, preset or policy it reads. The
/// subcommand's name and the values of [`NOT_PATHS`] are words, not paths.
fn named_paths() -> Vec<PathBuf> {
    let args: Vec<String> = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    named_paths_in(&args)
}

/// Each file the command line names (see [`named_paths`]) with the CRC-32 of its bytes;
/// a folder by its policy file, if it holds one.
pub fn named_files() -> Vec<(String, u32)> {
    (named_paths().into_iter())
        .map(|p| if p.is_dir() { p.join(draftsim::solver::policy::POLICY_FILE) } else { p })
        .filter_map(|p| Some((p.display().to_string(), crc32fast::hash(&std::fs::read(&p).ok()?))))
        .collect()
}

fn named_paths_in(args: &[String]) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    let mut args = args.iter();
    let mut subcommand_seen = false;
    while let Some(arg) = args.next() {
        let flag = arg.split('=').next().unwrap_or_default();
        if flag == "--out" || NOT_PATHS.contains(&flag) {
            if !arg.contains('=') {
                args.next();
            }
            continue;
        }
        if !arg.starts_with('-') && !subcommand_seen {
            subcommand_seen = true;
            continue;
        }
        let parts = arg.split([',', ';', '=', '{', '}', '"', '\'']);
        for part in std::iter::once(arg.as_str()).chain(parts).map(str::trim).filter(|p| !p.is_empty()) {
            let path = Path::new(part);
            if path.exists() && !paths.iter().any(|p: &PathBuf| p == path) {
                paths.push(path.to_path_buf());
            }
        }
    }
    paths
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A failed write names the `--out` folder, not the staging folder it happened in.
    #[test]
    fn a_write_error_names_the_out_folder() {
        let dir = std::env::temp_dir().join(format!("draftsim-as-out-{}", std::process::id()));
        let out = create(&dir.join("results"), false, false).unwrap();
        let staged = out.path().join("summary.csv").display().to_string();
        let said = as_out_folder(format!("writing {staged}: No space left on device (os error 28)"));
        let want = dir.join("results").join("summary.csv").display().to_string();
        assert_eq!(said, format!("writing {want}: No space left on device (os error 28)"));
        drop(out);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// What counts as an input (run from the package root, where `src` and `Cargo.toml`
    /// exist): the subcommand and the values of word options do not.
    #[test]
    fn inputs_are_the_paths_named_outside_word_options() {
        let named = |args: &[&str]| {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            named_paths_in(&args)
        };
        let src = vec![PathBuf::from("src")];
        assert_eq!(named(&["report", "src", "--out", "x"]), src);
        assert!(named(&["src", "--out", "x"]).is_empty(), "the subcommand is a word");
        assert!(named(&["run", "--game", "src", "--out", "x"]).is_empty());
        assert!(named(&["run", "--game=src", "--out=x"]).is_empty());
        assert!(named(&["sweep", "--set", "src=1,2"]).is_empty());
        // A flag of one command is not taken to swallow the word after it.
        assert_eq!(named(&["versus", "--until-ci", "src", "defaults"]), src);
        assert_eq!(named(&["run", "--rules=Cargo.toml"]), [PathBuf::from("Cargo.toml")]);
        assert_eq!(named(&["run", "--seats", "cfr{policy=\"src\"},tight"]), src);
    }
}
