//! A seat played by another program over JSON lines (docs/protocol.md).
//!
//! Each seat the strategy holds in each worker thread runs its own copy of the program,
//! started on first use and kept for the whole run (idle copies wait in the strategy's
//! pool). Lines go to the program through a writer thread and come back through a reader
//! thread, so a decision can time out and a program that dies cannot take draftsim with it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use serde::Deserialize;
use serde_json::json;

use super::{Decision, Outside, PROTOCOL, UnitEnd, UnitStart};
use crate::error::{Error, InputError};

/// The `module` of a preset file that seats an outside program.
pub const EXT_MODULE: &str = "ext";

/// Default time a program has to answer one decision.
pub const DEFAULT_TIMEOUT_MS: u64 = 2000;
/// Default number of lost programs (crashes and timeouts) a run tolerates.
pub const DEFAULT_MAX_FAILURES: u64 = 3;

/// The options of `ext{...}`, or of a preset file with `module = "ext"`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExtToml {
    /// `"ext"` in a preset file (the inline form has no use for it).
    #[serde(default)]
    module: Option<String>,
    /// A preset file's own note on the bot, accepted as every preset's is.
    #[serde(default, rename = "description")]
    _description: Option<String>,
    /// Missing reads as empty, which is refused with an example.
    #[serde(default)]
    cmd: String,
    #[serde(default)]
    timeout_ms: Option<u64>,
    #[serde(default)]
    max_failures: Option<u64>,
}

/// The process groups of the programs running now, for [`stop_all`].
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Stops every external bot now (a second Ctrl-C ends draftsim at once, with no `Drop`).
pub fn stop_all() {
    for &pid in RUNNING.lock().unwrap_or_else(PoisonError::into_inner).iter() {
        #[cfg(unix)]
        // SAFETY: signals a process group a program of ours leads and nobody has reaped.
        unsafe {
            libc::kill(-(pid as i32), libc::SIGKILL);
        }
        let _ = pid;
    }
}

/// Every external bot seated by this process, by seat name, for [`fault_warnings`]: a
/// study builds its games afresh for each arm, so one name may count in several.
static SEATED: Mutex<Vec<(String, Arc<Counters>)>> = Mutex::new(Vec::new());

/// One line for each external bot whose faults played a move for it, over everything this
/// process ran: every command says so, whether or not its tables show it.
pub fn fault_warnings() -> Vec<String> {
    let mut totals: Vec<(String, FaultCounts, Option<String>)> = Vec::new();
    for (name, counters) in SEATED.lock().unwrap_or_else(PoisonError::into_inner).iter() {
        let f = counters.read();
        let example = counters.example.lock().unwrap_or_else(PoisonError::into_inner).clone();
        match totals.iter_mut().find(|(n, ..)| n == name) {
            Some((_, t, e)) => {
                t.add(&f);
                if e.is_none() {
                    *e = example;
                }
            }
            None => totals.push((name.clone(), f, example)),
        }
    }
    totals
        .into_iter()
        .filter(|(_, f, _)| f.illegal + f.garbage + f.timeouts + f.crashes > 0)
        .map(|(name, f, example)| {
            let kinds = [
                (f.illegal, "illegal answer", "illegal answers"),
                (f.garbage, "garbage line", "garbage lines"),
                (f.timeouts, "timeout", "timeouts"),
                (f.crashes, "crash", "crashes"),
            ];
            let said: Vec<String> =
                kinds.iter().filter(|(n, ..)| *n > 0).map(|&(n, one, many)| counted(n, one, many)).collect();
            // Lines that arrived unasked or named another decision are ignored, and play no
            // move for the bot.
            let played = match f.fallbacks {
                0 => "each ignored, no move played for it".to_string(),
                n => format!("{} played a random legal move instead", counted(n, "decision", "decisions")),
            };
            // The program's own words, where a line was at fault: a banner or a debug print
            // is found at once.
            let first = example.map(|e| format!("; the first: {e}")).unwrap_or_default();
            format!(
                "{name}: {} in {}{first}; {played} (faults: docs/protocol.md)",
                said.join(", "),
                counted(f.decisions, "decision", "decisions"),
            )
        })
        .collect()
}

/// The most of a faulty line a warning quotes.
const EXAMPLE_CHARS: usize = 60;

/// A count with its noun: "1 crash", "3 crashes".
fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", crate::output::noun(n as i64, one, many))
}

/// How a strategy's program misbehaved over a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FaultCounts {
    /// Decisions asked.
    pub decisions: u64,
    /// Answers naming no legal move.
    pub illegal: u64,
    /// Lines that were not an answer (not JSON, no move id, or unasked).
    pub garbage: u64,
    /// Decisions not answered in time (the program is then stopped and started again).
    pub timeouts: u64,
    /// Programs that ended or closed their output while playing.
    pub crashes: u64,
    /// Decisions played by the fallback move instead.
    pub fallbacks: u64,
}

impl FaultCounts {
    /// Adds another count of the same strategy (another shard, another arm).
    pub fn add(&mut self, other: &FaultCounts) {
        self.decisions += other.decisions;
        self.illegal += other.illegal;
        self.garbage += other.garbage;
        self.timeouts += other.timeouts;
        self.crashes += other.crashes;
        self.fallbacks += other.fallbacks;
    }
}

#[derive(Debug, Default)]
struct Counters {
    decisions: AtomicU64,
    illegal: AtomicU64,
    garbage: AtomicU64,
    timeouts: AtomicU64,
    crashes: AtomicU64,
    fallbacks: AtomicU64,
    /// Answers naming a move (legal or not): none means no program got as far as playing.
    answers: AtomicU64,
    /// The exit status of the last program lost, where it had exited of itself.
    last_exit: Mutex<Option<i32>>,
    /// The first line that was no answer, or named no legal move, as the program wrote it
    /// (cut short), so that a warning can show what went wrong.
    example: Mutex<Option<String>>,
}

impl Counters {
    /// Keeps `line` as the example of a fault where none is kept yet.
    fn keep(&self, line: &str) {
        let mut kept = self.example.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.is_none() {
            // As written, but for control characters (a tab), which are spelt out.
            let line = line.trim_end();
            let cut: String = (line.chars().take(EXAMPLE_CHARS))
                .map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() })
                .collect();
            let more = if line.chars().count() > EXAMPLE_CHARS { "..." } else { "" };
            *kept = Some(format!("`{cut}`{more}"));
        }
    }

    fn read(&self) -> FaultCounts {
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        FaultCounts {
            decisions: get(&self.decisions),
            illegal: get(&self.illegal),
            garbage: get(&self.garbage),
            timeouts: get(&self.timeouts),
            crashes: get(&self.crashes),
            fallbacks: get(&self.fallbacks),
        }
    }
}

/// An external bot: its command, limits, the `hello` it is greeted with, its fault counts
/// and its idle programs.
#[derive(Debug)]
pub struct ProcessSpec {
    /// The seat name it was given as.
    name: String,
    /// The command, run by `sh -c`.
    pub cmd: String,
    /// Time to answer one decision.
    pub timeout: Duration,
    /// Lost programs tolerated before the run stops.
    pub max_failures: u64,
    hello: OnceLock<String>,
    counts: Arc<Counters>,
    idle: Mutex<Vec<Process>>,
}

impl ProcessSpec {
    /// Parses the inside of `ext{...}`: `cmd="..."` and optional `timeout_ms`,
    /// `max_failures`, separated by `;`.
    pub fn parse(name: &str, inner: &str) -> Result<ProcessSpec, InputError> {
        crate::games::presets::check_separators(name, "ext", inner)?;
        let lines = crate::games::presets::split_top(inner, ';').join("\n");
        // The lines are the braces' `;`-separated keys: a line number would name none the
        // user wrote.
        ProcessSpec::seated(name, &lines, |e| InputError::new(crate::games::presets::without_line(&e.to_string())))
    }

    /// Parses the options as TOML lines: the inside of `ext{...}` or a preset file with
    /// `module = "ext"`, seated under `name`.
    pub fn from_toml(name: &str, text: &str) -> Result<ProcessSpec, InputError> {
        ProcessSpec::seated(name, text, |e| e)
    }

    fn seated(name: &str, text: &str, said: impl Fn(InputError) -> InputError) -> Result<ProcessSpec, InputError> {
        let (t, timeout_ms) = ProcessSpec::options(text).map_err(|e| {
            let e = crate::games::presets::below_zero(text, e, ProcessSpec::options);
            said(e).context(name)
        })?;
        let counts = Arc::new(Counters::default());
        SEATED.lock().unwrap_or_else(PoisonError::into_inner).push((name.to_string(), counts.clone()));
        Ok(ProcessSpec {
            name: name.to_string(),
            cmd: t.cmd,
            timeout: Duration::from_millis(timeout_ms),
            max_failures: t.max_failures.unwrap_or(DEFAULT_MAX_FAILURES),
            hello: OnceLock::new(),
            counts,
            idle: Mutex::new(Vec::new()),
        })
    }

    /// The options and the timeout they give, checked (the seat named by the caller).
    fn options(text: &str) -> Result<(ExtToml, u64), InputError> {
        let t: ExtToml = crate::games::presets::parse_toml(text)?;
        if t.module.as_deref().is_some_and(|m| m != EXT_MODULE) {
            return Err(InputError::new(format!(
                "module = \"{}\" is not an outside bot",
                t.module.unwrap_or_default()
            )));
        }
        if t.cmd.trim().is_empty() {
            return Err(InputError::new("cmd is missing or empty; give the command, e.g. cmd=\"python3 my_bot.py\""));
        }
        let timeout_ms = t.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
        if !(1..=3_600_000).contains(&timeout_ms) {
            return Err(InputError::new(format!(
                "timeout_ms = {timeout_ms}: give 1 to 3600000 milliseconds a decision"
            )));
        }
        Ok((t, timeout_ms))
    }

    /// Sets the `hello` every program of this strategy is greeted with.
    pub fn bind(&self, game: &str, rules_toml: &str, players: usize) {
        let rules = toml::from_str::<toml::Value>(rules_toml)
            .ok()
            .and_then(|v| serde_json::to_value(v).ok())
            .unwrap_or(serde_json::Value::Null);
        let hello = json!({
            "type": "hello",
            "protocol": PROTOCOL,
            "game": game,
            "players": players,
            "rules": rules,
            "timeout_ms": self.timeout.as_millis() as u64,
        });
        let _ = self.hello.set(hello.to_string());
    }

    /// The faults counted so far.
    pub fn faults(&self) -> FaultCounts {
        self.counts.read()
    }

    fn failures(&self) -> u64 {
        self.counts.timeouts.load(Ordering::Relaxed) + self.counts.crashes.load(Ordering::Relaxed)
    }

    fn spawn(&self) -> Result<Process, Error> {
        let failures = self.failures();
        if failures > self.max_failures {
            return Err(self.gave_up(failures));
        }
        let mut command = Command::new("sh");
        command.arg("-c").arg(&self.cmd).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        #[cfg(unix)]
        {
            // Its own process group: Ctrl-C at the terminal reaches draftsim, which stops
            // the program itself, and a timeout kills the program with any children.
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command
            .spawn()
            .map_err(|e| Error::Outside(format!("{}: cannot start `sh -c {}`: {e}", self.name, self.cmd)))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (to_bot, lines_out) = mpsc::channel::<String>();
        std::thread::spawn(move || write_lines(stdin, &lines_out));
        let (lines_in, from_bot) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut line = Vec::new();
            // Bytes, not text: a line that is not UTF-8 is garbage, not the end of the program.
            while matches!(reader.read_until(b'\n', &mut line), Ok(n) if n > 0) {
                if lines_in.send(String::from_utf8_lossy(&line).into_owned()).is_err() {
                    break;
                }
                line.clear();
            }
        });
        let stderr = child.stderr.take().expect("stderr is piped");
        let name = self.name.clone();
        // Each line the program logs is passed on led by its seat name, so that several
        // programs' logs (and draftsim's own warnings) can be told apart.
        let log = std::thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            let mut line = Vec::new();
            while matches!(reader.read_until(b'\n', &mut line), Ok(n) if n > 0) {
                let text = String::from_utf8_lossy(&line);
                // A closed standard error is no reason to stop reading the program's.
                let _ = writeln!(std::io::stderr().lock(), "[{name}] {}", text.trim_end_matches(['\n', '\r']));
                line.clear();
            }
        });
        RUNNING.lock().unwrap_or_else(PoisonError::into_inner).push(child.id());
        let process =
            Process { child, to_bot: Some(to_bot), from_bot, log: Some(log), healthy: true, asked: 0, reaped: false };
        if let Some(hello) = self.hello.get() {
            process.send(hello.clone());
        }
        Ok(process)
    }

    fn gave_up(&self, failures: u64) -> Error {
        let f = self.faults();
        let exit = match *self.counts.last_exit.lock().unwrap_or_else(PoisonError::into_inner) {
            // Ended without fault of its own: it stopped reading rather than failing.
            Some(0) => "; the last ended of itself (status 0) before it was done: a bot answers each `decide` line and keeps reading until its input closes".into(),
            Some(code) => format!("; the last exited with status {code}"),
            None => String::new(),
        };
        // Lines written that were not answers most often mean the program prints for people.
        let garbage = if f.garbage > 0 {
            format!(
                "; it wrote {} that were not answers (an answer is a move's id, or {{\"move\": id}}; print anything else to stderr)",
                counted(f.garbage, "line", "lines")
            )
        } else {
            String::new()
        };
        // A program that answers by hand but times out here most often does not flush.
        let timed_out = if f.timeouts > 0 {
            format!(
                "; a timeout is an answer not read within {} ms: flush standard output after each line, or allow more with timeout_ms",
                self.timeout.as_millis()
            )
        } else {
            String::new()
        };
        // A program that never named a move is not playing at all: more tries will not help,
        // and a path in its command is the likeliest cause.
        let fix = if self.counts.answers.load(Ordering::Relaxed) == 0 && f.timeouts == 0 {
            let here = std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_else(|_| ".".into());
            format!(
                "; it never answered a decision: run it by hand in {here} (where a path in cmd is read from) with a line of docs/protocol.md"
            )
        } else {
            "; fix it (run it by hand with a line of docs/protocol.md) or allow more with max_failures".into()
        };
        Error::Outside(format!(
            "{}: the program failed {} ({}, {} of {} ms){exit}{garbage}{timed_out}{fix}",
            self.name,
            counted(failures, "time", "times"),
            counted(f.crashes, "crash", "crashes"),
            counted(f.timeouts, "timeout", "timeouts"),
            self.timeout.as_millis()
        ))
    }
}

impl Drop for ProcessSpec {
    fn drop(&mut self) {
        self.idle.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }
}

/// Writes lines to the program until the channel closes or the pipe breaks.
fn write_lines(stdin: std::process::ChildStdin, lines: &Receiver<String>) {
    // A program that has died makes a write raise SIGPIPE, whose default action (where a
    // program using this library restores it) would end it: this thread blocks it, and the
    // write fails with an error instead.
    #[cfg(unix)]
    // SAFETY: changes this thread's own signal mask only, with a set built here.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
    let mut w = std::io::BufWriter::new(stdin);
    while let Ok(line) = lines.recv() {
        if w.write_all(line.as_bytes()).and_then(|()| w.write_all(b"\n")).and_then(|()| w.flush()).is_err() {
            break;
        }
    }
}

/// One running copy of a program.
#[derive(Debug)]
struct Process {
    child: Child,
    /// `None` once closed.
    to_bot: Option<Sender<String>>,
    from_bot: Receiver<String>,
    /// The thread passing its stderr on, until the program has been waited for.
    log: Option<std::thread::JoinHandle<()>>,
    /// Whether it is still answering: a program that ends the run well gets its `bye`
    /// and a moment to exit; a lost one is stopped at once.
    healthy: bool,
    /// Decisions asked of this program so far (each `decide` carries its number, `n`).
    asked: u64,
    /// Waited for already: its process id may name another process now.
    reaped: bool,
}

impl Process {
    /// Waits a moment for the stderr thread to pass on what the program wrote last: the
    /// pipe closes when the program's group is gone, unless a child it left elsewhere
    /// holds it open, which is not waited for.
    fn finish_log(&mut self) {
        let Some(log) = self.log.take() else { return };
        let deadline = std::time::Instant::now() + LOG_GRACE;
        while !log.is_finished() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        if log.is_finished() {
            let _ = log.join();
        }
    }

    fn send(&self, line: String) {
        // A closed channel means the writer stopped on a broken pipe: the next read says so.
        if let Some(to_bot) = &self.to_bot {
            let _ = to_bot.send(line);
        }
    }
}

/// How long a program told `bye` has to exit before it is stopped.
const BYE_GRACE: Duration = Duration::from_millis(500);

/// How long a program's last stderr lines may take to be passed on once it has exited.
const LOG_GRACE: Duration = Duration::from_millis(200);

impl Drop for Process {
    fn drop(&mut self) {
        let pid = self.child.id();
        let mut exited = false;
        if self.healthy {
            self.send(json!({"type": "bye"}).to_string());
            // Closing the channel ends the writer, which closes the program's stdin once
            // the `bye` is written.
            self.to_bot = None;
            let deadline = std::time::Instant::now() + BYE_GRACE;
            while std::time::Instant::now() < deadline && !exited {
                exited = !matches!(self.child.try_wait(), Ok(None));
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        if !exited && !self.reaped {
            #[cfg(unix)]
            // SAFETY: signals the process group this program leads, not yet reaped (so its
            // id cannot have been reused).
            unsafe {
                libc::kill(-(pid as i32), libc::SIGKILL);
            }
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        self.finish_log();
        RUNNING.lock().unwrap_or_else(PoisonError::into_inner).retain(|&p| p != pid);
    }
}

/// A seat played by a program of `spec`.
pub struct ExternalSeat {
    spec: Arc<ProcessSpec>,
    process: Option<Process>,
    /// The unit's `start`, sent again to a copy started mid-unit.
    unit_start: Option<String>,
}

impl ExternalSeat {
    /// A seat of `spec`; its program starts at its first unit.
    pub fn new(spec: Arc<ProcessSpec>) -> ExternalSeat {
        ExternalSeat { spec, process: None, unit_start: None }
    }

    fn process(&mut self) -> Result<&Process, Error> {
        if self.process.is_none() {
            let idle = self.spec.idle.lock().unwrap_or_else(PoisonError::into_inner).pop();
            let p = match idle {
                Some(p) => p,
                None => self.spec.spawn()?,
            };
            if let Some(start) = &self.unit_start {
                // A copy started mid-unit (after a crash or a timeout) is told the unit.
                p.send(start.clone());
            }
            self.process = Some(p);
        }
        Ok(self.process.as_ref().expect("just set"))
    }

    /// The program is lost (a crash or a timeout): it is stopped, and the next unit starts
    /// another unless too many were lost.
    fn lost(&mut self) -> Result<(), Error> {
        if let Some(p) = self.process.as_mut() {
            p.healthy = false;
            // Stopped (with any children) and waited for: a program that had exited of
            // itself keeps its status, which says why (127: the shell found no such
            // command); one stopped here has none.
            #[cfg(unix)]
            // SAFETY: signals the process group this program leads, not yet reaped.
            unsafe {
                libc::kill(-(p.child.id() as i32), libc::SIGKILL);
            }
            let _ = p.child.kill();
            let status = p.child.wait().ok().and_then(|s| s.code());
            p.reaped = true;
            // Its last words (the shell's "not found") are passed on before the error
            // that names them.
            p.finish_log();
            *self.spec.counts.last_exit.lock().unwrap_or_else(PoisonError::into_inner) = status;
            // The shell found no program to run: another start would fail alike, and the
            // fix is in the seat's `cmd`.
            let cmd = &self.spec.cmd;
            let fix = match status {
                Some(127) => Some(format!(
                    "`sh` could not find a command of `{cmd}` (status 127; its message is above): give cmd a program on the PATH or a path to one, e.g. cmd=\"python3 bot.py\""
                )),
                Some(126) => Some(format!(
                    "`sh` found a command of `{cmd}` it could not run (status 126: not executable?): chmod +x it, or name its interpreter, e.g. cmd=\"python3 bot.py\""
                )),
                _ => None,
            };
            if let Some(fix) = fix {
                self.process = None;
                return Err(InputError::new(format!("{}: {fix}", self.spec.name)).into());
            }
        }
        self.process = None;
        let failures = self.spec.failures();
        if failures > self.spec.max_failures {
            return Err(self.spec.gave_up(failures));
        }
        Ok(())
    }
}

impl Drop for ExternalSeat {
    fn drop(&mut self) {
        if let Some(p) = self.process.take() {
            self.spec.idle.lock().unwrap_or_else(PoisonError::into_inner).push(p);
        }
    }
}

/// An answer line: `{"move": 3}` (optionally with the decision's number, `"n": 7`) or `3`.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    /// A move id, and the decision number it names, if any.
    Move(u64, Option<u64>),
    /// Not an answer.
    Garbage,
}

fn answer(line: &str) -> Answer {
    // A whole number written as a float (`2.0`, `2e0`) is that number, as the schema's
    // `integer` reads it.
    fn whole(v: &serde_json::Value) -> Option<u64> {
        // Past u64 (1e20) it saturates: no move has that id, so it is illegal, as 10^20 is.
        v.as_u64().or_else(|| v.as_f64().filter(|f| *f >= 0.0 && f.fract() == 0.0).map(|f| f as u64))
    }
    let id = match serde_json::from_str::<serde_json::Value>(line.trim()) {
        Ok(v @ serde_json::Value::Number(_)) => whole(&v).map(|id| (id, None)),
        Ok(serde_json::Value::Object(o)) => o.get("move").and_then(whole).map(|id| (id, o.get("n").and_then(whole))),
        _ => None,
    };
    id.map_or(Answer::Garbage, |(id, n)| Answer::Move(id, n))
}

impl Outside for ExternalSeat {
    fn start(&mut self, unit: &UnitStart<'_>) -> Result<(), Error> {
        let line = json!({"type": "start", "seat": unit.seat, "seed": unit.seed, "seats": unit.names}).to_string();
        self.unit_start = None;
        self.process()?.send(line.clone());
        self.unit_start = Some(line);
        Ok(())
    }

    fn decide(&mut self, d: &Decision<'_>) -> Result<Option<usize>, Error> {
        let spec = self.spec.clone();
        let counts = &spec.counts;
        counts.decisions.fetch_add(1, Ordering::Relaxed);
        let legal: Vec<serde_json::Value> =
            d.legal.iter().enumerate().map(|(id, text)| json!({"id": id, "move": text})).collect();
        let deadline = std::time::Instant::now() + self.spec.timeout;
        self.process()?;
        let p = self.process.as_mut().expect("just started");
        p.asked += 1;
        let n = p.asked;
        let line =
            json!({"type": "decide", "n": n, "seat": d.seat, "observation": d.observation, "legal": legal}).to_string();
        let p = &*p;
        // Lines nobody asked for (a program printing to stdout) are garbage, not answers.
        let mut stale = 0;
        for line in p.from_bot.try_iter() {
            counts.keep(&line);
            stale += 1;
        }
        counts.garbage.fetch_add(stale, Ordering::Relaxed);
        p.send(line);
        let chosen = loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match p.from_bot.recv_timeout(left) {
                // An answer naming another decision came late or early: it is not this one's.
                Ok(line) => match answer(&line) {
                    Answer::Move(_, Some(other)) if other != n => {
                        counts.answers.fetch_add(1, Ordering::Relaxed);
                        counts.garbage.fetch_add(1, Ordering::Relaxed);
                        counts.keep(&line);
                    }
                    Answer::Move(id, _) if (id as usize) < d.legal.len() => {
                        counts.answers.fetch_add(1, Ordering::Relaxed);
                        break Ok(Some(id as usize));
                    }
                    Answer::Move(..) => {
                        counts.answers.fetch_add(1, Ordering::Relaxed);
                        counts.illegal.fetch_add(1, Ordering::Relaxed);
                        counts.keep(&line);
                        break Ok(None);
                    }
                    Answer::Garbage => {
                        counts.garbage.fetch_add(1, Ordering::Relaxed);
                        counts.keep(&line);
                        break Ok(None);
                    }
                },
                Err(e) => break Err(e),
            }
        };
        let chosen = match chosen {
            Ok(chosen) => chosen,
            Err(e) => {
                let slot = if e == RecvTimeoutError::Timeout { &counts.timeouts } else { &counts.crashes };
                slot.fetch_add(1, Ordering::Relaxed);
                counts.fallbacks.fetch_add(1, Ordering::Relaxed);
                self.lost()?;
                return Ok(None);
            }
        };
        if chosen.is_none() {
            counts.fallbacks.fetch_add(1, Ordering::Relaxed);
        }
        Ok(chosen)
    }

    fn end(&mut self, end: &UnitEnd<'_>) -> Result<(), Error> {
        self.unit_start = None;
        if let Some(p) = &self.process {
            p.send(
                json!({"type": "end", "seat": end.seat, "scores": end.scores, "win_shares": end.win_shares})
                    .to_string(),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_parse_as_an_id_or_an_object() {
        assert_eq!(answer("3\n"), Answer::Move(3, None));
        assert_eq!(answer("{\"move\": 2}"), Answer::Move(2, None));
        assert_eq!(answer("{\"move\": 2, \"n\": 9}"), Answer::Move(2, Some(9)));
        assert_eq!(answer("{\"move\": -1}"), Answer::Garbage);
        assert_eq!(answer("{\"move\": 2.0, \"n\": 9e0}"), Answer::Move(2, Some(9)));
        assert_eq!(answer("1.5"), Answer::Garbage);
        assert_eq!(answer("1e20"), Answer::Move(u64::MAX, None));
        assert_eq!(answer("fold"), Answer::Garbage);
        assert_eq!(answer(""), Answer::Garbage);
    }

    #[test]
    fn options_parse_and_bad_ones_name_the_fix() {
        let s = ProcessSpec::parse("ext", "cmd=\"python3 a.py\";timeout_ms=50").unwrap();
        assert_eq!((s.cmd.as_str(), s.timeout.as_millis(), s.max_failures), ("python3 a.py", 50, 3));
        assert!(ProcessSpec::parse("ext", "cmd=\"\"").unwrap_err().to_string().contains("cmd is missing or empty"));
        assert!(ProcessSpec::parse("ext", "cmd=\"a\";timeout_ms=0").unwrap_err().to_string().contains("timeout_ms"));
        assert!(ProcessSpec::parse("ext", "cmd=\"a\";bogus=1").is_err());
        // Below zero is refused by what the key takes, as 0 is; no line number names a key
        // written inside the braces.
        let said = |inner: &str| ProcessSpec::parse("ext", inner).unwrap_err().to_string();
        assert!(said("cmd=\"a\";timeout_ms=-1").ends_with("give 1 to 3600000 milliseconds a decision"));
        let unknown = said("cmd=\"a\";timeout=500");
        assert!(unknown.starts_with("ext: timeout: unknown field") && !unknown.contains("line"), "{unknown}");
    }
}
