//! The human seat of `draftsim play`: the seat's view and its legal moves in words on the
//! terminal, the answer typed back (or piped in, one a line).

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Duration;

use super::{Decision, Hint, Outside, UnitEnd, UnitStart};
use crate::error::Error;

/// Whose hint the human seat is shown.
static HINT: Mutex<Hint> = Mutex::new(Hint::None);
/// The flag a signal sets, read while waiting for an answer.
static STOP: OnceLock<&'static AtomicBool> = OnceLock::new();
/// Lines read from stdin (`None` once it ends).
static INPUT: OnceLock<Mutex<Receiver<Option<String>>>> = OnceLock::new();
/// Set once stdin has ended.
static ENDED: AtomicBool = AtomicBool::new(false);

/// Sets up the terminal seat: whose hints it shows, and the flag that stops it.
pub fn setup(hint: Hint, stop: &'static AtomicBool) {
    *HINT.lock().unwrap_or_else(PoisonError::into_inner) = hint;
    let _ = STOP.set(stop);
}

/// Whether [`setup`] ran (only `draftsim play` seats a person).
pub fn is_set_up() -> bool {
    STOP.get().is_some()
}

/// Whether the human's input ended (the end of piped answers, or Ctrl-D).
pub fn input_ended() -> bool {
    ENDED.load(Ordering::Relaxed)
}

fn input() -> &'static Mutex<Receiver<Option<String>>> {
    INPUT.get_or_init(|| {
        let (tx, rx) = mpsc::channel();
        // A thread of its own, so that waiting for a line can notice Ctrl-C.
        std::thread::spawn(move || {
            let stdin = std::io::stdin();
            let mut lock = stdin.lock();
            loop {
                let mut line = String::new();
                match lock.read_line(&mut line) {
                    Ok(n) if n > 0 => {
                        if tx.send(Some(line)).is_err() {
                            break;
                        }
                    }
                    _ => {
                        let _ = tx.send(None);
                        break;
                    }
                }
            }
        });
        Mutex::new(rx)
    })
}

/// The next line typed, or an interruption (Ctrl-C, or the input's end).
fn read_line() -> Result<String, Error> {
    let rx = input().lock().unwrap_or_else(PoisonError::into_inner);
    loop {
        if STOP.get().is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Err(Error::Interrupted);
        }
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(Some(line)) => return Ok(line),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                ENDED.store(true, Ordering::Relaxed);
                return Err(Error::Interrupted);
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
    }
}

/// The move whose words are typed: the whole words, or the start of exactly one move's
/// (`keep` for "keep all three cards"), any case. Else the moves that start so (none, or
/// several).
fn word_match<'a>(legal: &'a [String], typed: &str) -> Result<usize, Vec<&'a str>> {
    if typed.is_empty() {
        return Err(Vec::new());
    }
    if let Some(i) = legal.iter().position(|m| m.eq_ignore_ascii_case(typed)) {
        return Ok(i);
    }
    // Whole words only: `raise 1` is not the start of `raise 10`.
    let starts = |m: &String| {
        m.len() > typed.len()
            && m.is_char_boundary(typed.len())
            && m[..typed.len()].eq_ignore_ascii_case(typed)
            && m[typed.len()..].starts_with(' ')
    };
    let found: Vec<usize> = (0..legal.len()).filter(|&i| starts(&legal[i])).collect();
    match found[..] {
        [i] => Ok(i),
        _ => Err(found.iter().map(|&i| legal[i].as_str()).collect()),
    }
}

/// The human seat as a lineup holds it.
#[derive(Debug, Default)]
pub struct HumanSpec;

impl HumanSpec {
    /// The seat.
    pub fn seat(&self) -> HumanSeat {
        HumanSeat { names: Vec::new() }
    }
}

/// The person at the terminal.
pub struct HumanSeat {
    names: Vec<String>,
}

/// Prints to the terminal at once (the play is interactive; a closed terminal ends it).
fn show(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

impl HumanSeat {
    fn name(&self, seat: usize) -> &str {
        self.names.get(seat).map_or("?", String::as_str)
    }
}

impl Outside for HumanSeat {
    fn start(&mut self, unit: &UnitStart<'_>) -> Result<(), Error> {
        self.names = unit.names.iter().map(|s| s.to_string()).collect();
        let seats: Vec<String> = self.names.iter().enumerate().map(|(i, n)| format!("{i} {n}")).collect();
        show(&format!("You are seat {}. Seats: {}.\n", unit.seat, seats.join(", ")));
        Ok(())
    }

    fn decide(&mut self, d: &Decision<'_>) -> Result<Option<usize>, Error> {
        if d.legal.len() == 1 {
            // Nothing to choose: said, not asked.
            show(&format!("  you: {} (your only move)\n", d.legal[0]));
            return Ok(Some(0));
        }
        let mut text = String::from("\n");
        render(&mut text, d.observation, 1);
        if let Some(hint) = d.hint {
            text.push_str(&format!("  hint: {hint}\n"));
        }
        text.push_str("Your moves:\n");
        for (i, m) in d.legal.iter().enumerate() {
            text.push_str(&format!("  {:>3}) {m}\n", i + 1));
        }
        show(&text);
        let n = d.legal.len();
        loop {
            show(&format!("your move (1-{n}): "));
            let line = read_line()?;
            let answer = line.trim();
            if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                // Piped answers are not echoed by a terminal: show each, as typed.
                show(&format!("{answer}\n"));
            }
            if let Ok(k) = answer.parse::<usize>()
                && (1..=n).contains(&k)
            {
                return Ok(Some(k - 1));
            }
            match word_match(d.legal, answer) {
                Ok(i) => return Ok(Some(i)),
                Err(several) if several.len() > 1 => show(&format!(
                    "'{answer}' starts several moves ({}): type more of one, or its number\n",
                    several.join("; ")
                )),
                Err(_) => show(&format!("'{answer}' is not one of your moves: type a number from 1 to {n}\n")),
            }
        }
    }

    fn seen(&mut self, seat: usize, text: &str) -> Result<(), Error> {
        show(&format!("  seat {seat} ({}): {text}\n", self.name(seat)));
        Ok(())
    }

    fn end(&mut self, end: &UnitEnd<'_>) -> Result<(), Error> {
        let mut text = String::from("\n");
        if let Some(reveal) = end.reveal {
            text.push_str(&reveal_tail(reveal));
        } else {
            for (s, score) in end.scores.iter().enumerate() {
                let won = if end.win_shares[s] > 0.0 {
                    format!(", win share {:.3}", end.win_shares[s])
                } else {
                    String::new()
                };
                text.push_str(&format!("  seat {s} ({}): {score:+}{won}\n", self.name(s)));
            }
        }
        show(&text);
        Ok(())
    }

    fn follows_moves(&self) -> bool {
        true
    }

    fn wants_reveal(&self) -> bool {
        true
    }

    fn hint(&self) -> Hint {
        HINT.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }
}

/// The end of a unit's telling: its last section before the result (the showdown, the
/// last game) and the result.
fn reveal_tail(told: &str) -> String {
    let lines: Vec<&str> = told.lines().collect();
    let result = lines.iter().rposition(|l| l.starts_with("== Result")).unwrap_or(lines.len());
    let from = lines[..result].iter().rposition(|l| l.starts_with("== ") || l.starts_with("-- ")).unwrap_or(0);
    let mut out = String::new();
    for l in &lines[from..] {
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// Writes an observation as indented `key: value` lines.
pub fn render(out: &mut String, v: &serde_json::Value, depth: usize) {
    use serde_json::Value;
    let pad = "  ".repeat(depth);
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                match v {
                    Value::Object(_) => {
                        out.push_str(&format!("{pad}{k}:\n"));
                        render(out, v, depth + 1);
                    }
                    Value::Array(items) if items.iter().any(|i| i.is_object() || i.is_array()) => {
                        out.push_str(&format!("{pad}{k}:\n"));
                        for item in items {
                            out.push_str(&format!("{pad}  - {}\n", inline(item)));
                        }
                    }
                    _ => out.push_str(&format!("{pad}{k}: {}\n", inline(v))),
                }
            }
        }
        other => out.push_str(&format!("{pad}{}\n", inline(other))),
    }
}

/// A value on one line.
fn inline(v: &serde_json::Value) -> String {
    use serde_json::Value;
    match v {
        Value::Null => "-".into(),
        Value::String(s) => s.clone(),
        Value::Array(items) if items.is_empty() => "none".into(),
        Value::Array(items) => items.iter().map(inline).collect::<Vec<_>>().join(", "),
        Value::Object(map) => map.iter().map(|(k, v)| format!("{k} {}", inline(v))).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_found_by_its_whole_words_or_the_start_of_one_moves() {
        let legal: Vec<String> =
            ["fold", "keep all three cards", "trade 4s", "trade 4s and 1u"].map(String::from).to_vec();
        assert_eq!(word_match(&legal, "KEEP"), Ok(1));
        assert_eq!(word_match(&legal, "trade 4s"), Ok(2), "whole words win over a longer move they start");
        assert_eq!(word_match(&legal, "trade"), Err(vec!["trade 4s", "trade 4s and 1u"]));
        assert_eq!(word_match(&legal, "call"), Err(vec![]));
        assert_eq!(word_match(&legal, "kee"), Err(vec![]), "a word's start is not a word");
        let raises: Vec<String> = ["raise 10 (put in 12)", "fold"].map(String::from).to_vec();
        assert_eq!(word_match(&raises, "raise 1"), Err(vec![]), "not a smaller bet than typed");
        assert_eq!(word_match(&legal, ""), Err(vec![]));
    }

    #[test]
    fn observations_render_as_lines_and_the_reveal_keeps_the_end() {
        let v = serde_json::json!({"hand": ["A♠", "K♥"], "pot": 4, "bets": [{"seat": 1, "action": "raise 2"}], "table": {"folded": []}});
        let mut out = String::new();
        render(&mut out, &v, 0);
        assert_eq!(out, "hand: A♠, K♥\npot: 4\nbets:\n  - seat 1, action raise 2\ntable:\n  folded: none\n");
        let told = "== Deal\nx\n-- Showdown\nseat 0 shows\n== Result\n  seat 0: +2 chips\n";
        assert_eq!(reveal_tail(told), "-- Showdown\nseat 0 shows\n== Result\n  seat 0: +2 chips\n");
    }
}
