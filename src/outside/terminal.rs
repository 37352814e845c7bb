//! The human seat of `draftsim play`: the seat's view and its legal moves in words on the
//! terminal, the answer typed back (or piped in, one a line).

use std::collections::HashSet;
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

/// What `?` or `help` at a prompt shows: the rules in force, the view's labels, how to answer.
static HELP: OnceLock<String> = OnceLock::new();
/// Every finished unit's whole account, every card shown, for `play --out` to keep.
static ACCOUNTS: Mutex<Vec<String>> = Mutex::new(Vec::new());
/// Set where the accounts will be kept (`play --out`), so a cut reveal says where.
static KEPT: AtomicBool = AtomicBool::new(false);

/// Says that every unit's whole account will be kept (in `accounts.txt` under `--out`).
pub fn keep_accounts() {
    KEPT.store(true, Ordering::Relaxed);
}

/// Every finished unit's whole account, each under a heading that numbers it.
pub fn accounts() -> String {
    let accounts = ACCOUNTS.lock().unwrap_or_else(PoisonError::into_inner);
    (accounts.iter().enumerate()).map(|(k, told)| format!("=== Unit {} of the play\n{told}\n", k + 1)).collect()
}

/// Sets what `?` or `help` at a prompt shows.
pub fn set_help(text: String) {
    let _ = HELP.set(text);
}

/// Sets up the terminal seat: whose hints it shows, and the flag that stops it.
pub fn setup(hint: Hint, stop: &'static AtomicBool) {
    *HINT.lock().unwrap_or_else(PoisonError::into_inner) = hint;
    let _ = STOP.set(stop);
}

/// The trained policy whose hints the human seat is shown, by name, where it is one.
pub fn policy_hint() -> Option<String> {
    match &*HINT.lock().unwrap_or_else(PoisonError::into_inner) {
        Hint::Policy(name, _) => Some(name.clone()),
        _ => None,
    }
}

/// Whether [`setup`] ran (only `draftsim play` seats a person).
pub fn is_set_up() -> bool {
    STOP.get().is_some()
}

/// Whether the human's input ended (the end of piped answers, or Ctrl-D).
pub fn input_ended() -> bool {
    ENDED.load(Ordering::Relaxed)
}

/// Why piped answers were refused: the first that fit no move.
static REFUSED: Mutex<Option<String>> = Mutex::new(None);

/// The piped answer that stopped the play, said as an error; `None` where none did.
pub fn refused() -> Option<String> {
    REFUSED.lock().unwrap_or_else(PoisonError::into_inner).clone()
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
        // Nobody reads the moves offered, and a person would be typing blind; piped answers
        // need no screen, so those play on and their units are kept.
        if GONE.load(Ordering::Relaxed) && std::io::IsTerminal::is_terminal(&std::io::stdin()) {
            ENDED.store(true, Ordering::Relaxed);
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

/// The move whose words are typed: the whole words, the start of exactly one move's
/// (`keep` for "keep all three cards"), its words in any order, its first word left out
/// or not, or some of its whole words in any order, any case. Else the moves that fit
/// (none, or several).
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
    let mut found: Vec<usize> = (0..legal.len()).filter(|&i| starts(&legal[i])).collect();
    if found.is_empty() {
        // The same words in another order (`trade 6u 5s` for "trade 5s 6u"), or without
        // the move's first word (`ks` for "pick ks").
        let words = |text: &str| {
            let mut w: Vec<String> =
                text.split_whitespace().map(str::to_ascii_lowercase).filter(|w| w != "and" && w != ",").collect();
            w.sort();
            w
        };
        let typed_words = words(typed);
        let same = |m: &String| {
            let verb = m.split_whitespace().next().unwrap_or_default();
            words(m) == typed_words || words(m) == words(&format!("{verb} {typed}"))
        };
        found = (0..legal.len()).filter(|&i| same(&legal[i])).collect();
    }
    if found.is_empty() {
        // Some of the move's words, any order (`white 2/5` for "take white 2/5 (cost 3)
        // from the row"), each typed word a whole word of the move, brackets aside.
        let bag = |text: &str| -> Vec<String> {
            text.split(|c: char| c.is_whitespace() || "(),;".contains(c))
                .filter(|w| !w.is_empty() && *w != "and")
                .map(str::to_ascii_lowercase)
                .collect()
        };
        let typed_words = bag(typed);
        let holds = |m: &String| {
            let mut words = bag(m);
            !typed_words.is_empty()
                && typed_words.iter().all(|w| words.iter().position(|x| x == w).map(|p| words.swap_remove(p)).is_some())
        };
        found = (0..legal.len()).filter(|&i| holds(&legal[i])).collect();
    }
    // Moves told alike are one move to the person: the first is taken.
    if found.len() > 1 && found.iter().all(|&i| legal[i] == legal[found[0]]) {
        found.truncate(1);
    }
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
        HumanSeat { names: Vec::new(), varies: HashSet::new() }
    }
}

/// The person at the terminal.
pub struct HumanSeat {
    names: Vec<String>,
    /// Lists seen at another length than the seat count: not one entry a seat.
    varies: HashSet<String>,
}

/// The indices of `legal` a person is offered: moves that read alike (either of two copies
/// of a card) are one choice, offered once as the first of them.
fn distinct_moves(legal: &[String]) -> Vec<usize> {
    (0..legal.len()).filter(|&i| !legal[..i].contains(&legal[i])).collect()
}

/// Prints to the terminal at once (the play is interactive; a closed terminal ends it).
fn show(text: &str) {
    let mut out = std::io::stdout().lock();
    if out.write_all(text.as_bytes()).and_then(|()| out.flush()).is_err() {
        output_gone();
    }
}

/// Set once a write to the person failed: nobody reads the play any more.
static GONE: AtomicBool = AtomicBool::new(false);

/// Notes that the play's reader is gone (a closed pipe or terminal): where a person types
/// the answers, the play ends at the next decision asked, as at the end of its input, the
/// units finished kept.
pub fn output_gone() {
    GONE.store(true, Ordering::Relaxed);
}

/// Tells the person at the terminal what just happened between its decisions (lines of a
/// game's telling, each ending in a newline).
pub fn news(text: &str) {
    show(&fit(text));
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
        let ids = distinct_moves(d.legal);
        let legal: Vec<String> = ids.iter().map(|&i| d.legal[i].clone()).collect();
        if legal.len() == 1 {
            // Nothing to choose: said, not asked.
            show(&fit(&format!("  you: {} (your only move)\n", legal[0])));
            return Ok(Some(0));
        }
        let mut view = String::from("\n");
        render_view(&mut view, d.observation, &self.names, &mut self.varies);
        // A line the view could not cut where it chose (a long string, a list of lists).
        let mut text = fit(&view);
        if let Some(hint) = d.hint {
            text.push_str(&fit(&format!("  hint: {hint}\n")));
        }
        text.push_str("Your moves:\n");
        for (i, m) in legal.iter().enumerate() {
            // A long move (a deck to build) is cut at its commas.
            text.push_str(&fit(&format!("  {:>3}) {m}\n", i + 1)));
        }
        show(&text);
        let n = legal.len();
        loop {
            show(&format!("your move (1-{n}): "));
            let line = read_line()?;
            let answer = line.trim();
            let piped = !std::io::IsTerminal::is_terminal(&std::io::stdin());
            if piped {
                // Piped answers are not echoed by a terminal: show each, as typed.
                show(&format!("{answer}\n"));
            }
            // A whole number is a menu number only: out of range, it picks no move by its words.
            let chosen = match answer.parse::<usize>() {
                Ok(k) if (1..=n).contains(&k) => Ok(k - 1),
                Ok(_) => Err(Vec::new()),
                Err(_) => word_match(&legal, answer),
            };
            // Help asked for (no move's words): shown, and the same move asked again.
            if chosen.is_err() && ["?", "help"].contains(&answer.to_lowercase().as_str()) {
                let help = HELP.get().map_or("", String::as_str);
                show(&fit(&format!(
                    "{help}\nYour moves are above: type a number from 1 to {n}, or the words of one\n"
                )));
                continue;
            }
            if piped && chosen.is_err() {
                // Asking again would give the next line to this move, and every later answer
                // to the move before the one it was written for.
                let fits = match &chosen {
                    Err(several) if several.len() > 1 => format!("fits several moves ({})", several.join("; ")),
                    _ => "is not one of your moves".to_string(),
                };
                *REFUSED.lock().unwrap_or_else(PoisonError::into_inner) = Some(format!(
                    "piped answer '{answer}' {fits}: give each move's number (1 to {n} here) or its words, one answer a line"
                ));
                return Err(Error::Interrupted);
            }
            match chosen {
                Ok(i) => {
                    // Said back in words: a number typed does not tell the transcript which move.
                    show(&fit(&format!("  you: {}\n", legal[i])));
                    return Ok(Some(ids[i]));
                }
                Err(several) if several.len() > 1 => show(&fit(&format!(
                    "'{answer}' fits several moves ({}): type more of one, or its number\n",
                    several.join("; ")
                ))),
                // A player looking for the way out is told it (the units finished are kept).
                Err(_) if ["quit", "exit", "q", "stop"].contains(&answer.to_lowercase().as_str()) => show(&format!(
                    "to stop, press Ctrl-C (or end the input, Ctrl-D): the units finished are kept; to play on, type a number from 1 to {n}\n"
                )),
                Err(_) => show(&format!(
                    "'{answer}' is not one of your moves: type a number from 1 to {n}, or the words of one (Ctrl-C stops)\n"
                )),
            }
        }
    }

    fn seen(&mut self, seat: usize, text: &str) -> Result<(), Error> {
        show(&fit(&format!("  seat {seat} ({}): {text}\n", self.name(seat))));
        Ok(())
    }

    fn end(&mut self, end: &UnitEnd<'_>) -> Result<(), Error> {
        let mut text = String::from("\n");
        if let Some(reveal) = end.reveal {
            ACCOUNTS.lock().unwrap_or_else(PoisonError::into_inner).push(reveal.to_string());
            text.push_str(&reveal_tail(reveal, KEPT.load(Ordering::Relaxed)));
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
        show(&fit(&text));
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

/// Longest account of a unit shown whole at its end.
const WHOLE_ACCOUNT_LINES: usize = 120;

/// A unit's telling, every hidden card shown, for the person to look back on: whole where
/// it fits a screen or two (a round, a hand), else its last section before the result (the
/// showdown, the last game) and the result, saying how much was left out and where the
/// whole is (`kept`: in `--out`'s accounts.txt).
fn reveal_tail(told: &str, kept: bool) -> String {
    let lines: Vec<&str> = told.lines().collect();
    let result = lines.iter().rposition(|l| l.starts_with("== Result")).unwrap_or(lines.len());
    let from = if lines.len() <= WHOLE_ACCOUNT_LINES {
        0
    } else {
        // From the earliest section heading (a round, a game) whose tail fits; else from
        // the last heading of either kind that has lines under it (a closing `-- ` line,
        // who won, starts nothing).
        let fits = |i: usize| lines.len() - i <= WHOLE_ACCOUNT_LINES;
        let heading = |(i, l): &(usize, &&str)| l.starts_with("== ") && fits(*i);
        let under = |(i, l): &(usize, &&str)| (l.starts_with("== ") || l.starts_with("-- ")) && i + 1 < result;
        let before = || lines[..result].iter().enumerate();
        (before().find(heading).or_else(|| before().rfind(under))).map_or(0, |(i, _)| i)
    };
    // Said first, so the account is not taken for the moves told live a second time.
    let mut out = String::from("=== Told again, every card shown");
    if from > 0 {
        let whole = if kept {
            "accounts.txt in the --out folder keeps it whole"
        } else {
            "play with --out DIR to keep every account whole"
        };
        out.push_str(&format!(" ({from} earlier lines of the account are left out; {whole})"));
    }
    out.push('\n');
    for l in &lines[from..] {
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// Writes a seat's observation for a person: its lists (cards) a line each, its single
/// figures gathered on shared lines, and what it holds for every seat as one table with a
/// row a seat (`names`, one a seat). The seat's own number is left out: the header says it.
/// A list is taken for one entry a seat only while every observation so far held it at the
/// seat count (`varies` keeps the lists seen otherwise: a seat's own picks, say).
pub fn render_view(out: &mut String, v: &serde_json::Value, names: &[String], varies: &mut HashSet<String>) {
    note_lengths(v, "", names.len(), varies);
    match v {
        serde_json::Value::Object(map) => {
            let fields: Vec<(&String, &serde_json::Value)> = map.iter().filter(|(k, _)| k.as_str() != "seat").collect();
            render_fields(out, &fields, names, varies, "", 1);
        }
        other => out.push_str(&format!("  {}\n", inline(other))),
    }
}

/// Widest a line of gathered figures grows before another starts.
const FIGURES_WIDTH: usize = 96;

/// Adds to `varies` each list (by its path) whose length is not the seat count.
fn note_lengths(v: &serde_json::Value, path: &str, seats: usize, varies: &mut HashSet<String>) {
    if let serde_json::Value::Object(map) = v {
        for (k, item) in map {
            let at = format!("{path}{k}");
            match item {
                serde_json::Value::Array(items) if items.len() != seats => {
                    varies.insert(at);
                }
                serde_json::Value::Object(_) => note_lengths(item, &format!("{at}."), seats, varies),
                _ => {}
            }
        }
    }
}

fn render_fields(
    out: &mut String,
    fields: &[(&String, &serde_json::Value)],
    names: &[String],
    varies: &HashSet<String>,
    path: &str,
    depth: usize,
) {
    use serde_json::Value;
    let pad = "  ".repeat(depth);
    let mut columns: Vec<(String, Vec<String>)> = Vec::new();
    let mut figures: Vec<String> = Vec::new();
    // Within the terminal's width where that is narrower.
    let widest = line_width().min(pad.len() + FIGURES_WIDTH);
    let flush = |figures: &mut Vec<String>, out: &mut String| {
        let mut line = String::new();
        for f in figures.drain(..) {
            if !line.is_empty() && pad.len() + line.chars().count() + 3 + f.chars().count() > widest {
                out.push_str(&format!("{pad}{line}\n"));
                line.clear();
            }
            if !line.is_empty() {
                line.push_str(" · ");
            }
            line.push_str(&f);
        }
        if !line.is_empty() {
            out.push_str(&format!("{pad}{line}\n"));
        }
    };
    for &(k, v) in fields {
        match v {
            Value::Array(items) if per_seat(items, names.len()) && !varies.contains(&format!("{path}{k}")) => {
                if items.iter().all(Value::is_object) {
                    // One column per key of the seats' records, in the first one's order.
                    if let Some(Value::Object(first)) = items.first() {
                        for key in first.keys() {
                            let cells = items.iter().map(|i| i.get(key).map_or_else(String::new, cell)).collect();
                            columns.push((key.clone(), cells));
                        }
                    }
                } else {
                    columns.push((k.clone(), items.iter().map(cell).collect()));
                }
            }
            Value::Object(map) => {
                flush(&mut figures, out);
                out.push_str(&format!("{pad}{k}:\n"));
                let inner: Vec<(&String, &Value)> = map.iter().collect();
                render_fields(out, &inner, names, varies, &format!("{path}{k}."), depth + 1);
            }
            Value::Array(items) if items.iter().any(|i| i.is_object() || i.is_array()) => {
                // A list of lists (piles, say): an entry a line, so where one ends shows.
                flush(&mut figures, out);
                out.push_str(&format!("{pad}{k}:\n"));
                for item in items {
                    out.push_str(&format!("{pad}  - {}\n", inline(item)));
                }
            }
            Value::Array(items) => {
                flush(&mut figures, out);
                match by_lead(items) {
                    // Entries led alike (`betting round 1: ...`): the lead once, a line each.
                    Some(lines) => {
                        out.push_str(&format!("{pad}{k}:\n"));
                        for line in lines {
                            out.push_str(&fit(&format!("{pad}  {line}\n")));
                        }
                    }
                    None => out.push_str(&fit(&format!("{pad}{k}: {}\n", inline(v)))),
                }
            }
            Value::String(s) if s.len() > 24 => {
                flush(&mut figures, out);
                out.push_str(&format!("{pad}{k}: {s}\n"));
            }
            _ => figures.push(format!("{k}: {}", inline(v))),
        }
    }
    flush(&mut figures, out);
    if !columns.is_empty() {
        let seat_names: Vec<String> = names.iter().enumerate().map(|(s, n)| format!("{s} {n}")).collect();
        let mut all = vec![("seat".to_string(), seat_names)];
        all.extend(columns);
        let widths: Vec<usize> = all
            .iter()
            .map(|(h, cells)| cells.iter().map(|c| c.chars().count()).chain([h.len()]).max().unwrap_or(0))
            .collect();
        // A table wider than a terminal is cut into tables of whole columns, each led by
        // the seat column.
        let mut parts: Vec<Vec<usize>> = Vec::new();
        let mut width = 0;
        // A column too wide for any table (a seat's creatures) is told a seat a line after.
        let most = line_width();
        let wide = |c: usize| pad.len() + widths[0] + 2 + widths[c] > most;
        for c in (1..all.len()).filter(|&c| !wide(c)) {
            match parts.last_mut() {
                Some(part) if width + 2 + widths[c] <= most => part.push(c),
                _ => {
                    parts.push(vec![0, c]);
                    width = pad.len() + widths[0];
                }
            }
            width += 2 + widths[c];
        }
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let row = |s: Option<usize>, out: &mut String| {
                let cells: Vec<String> = (part.iter())
                    .map(|&c| {
                        let text = s.map_or(all[c].0.as_str(), |s| all[c].1[s].as_str());
                        format!("{text:<w$}", w = widths[c])
                    })
                    .collect();
                out.push_str(&format!("{pad}{}\n", cells.join("  ").trim_end()));
            };
            row(None, out);
            for s in 0..names.len() {
                row(Some(s), out);
            }
        }
        for c in (1..all.len()).filter(|&c| wide(c)) {
            out.push_str(&format!("{pad}{}:\n", all[c].0));
            for (seat, cell) in all[0].1.iter().zip(&all[c].1) {
                out.push_str(&fit(&format!("{pad}  {seat}: {cell}\n")));
            }
        }
    }
}

/// Widest a line `play` prints grows where it can be cut (a list, a move, a table, an
/// account); narrower on a narrower terminal, never wider, since longer lines read worse.
const LINE_WIDTH: usize = 100;

/// Narrowest the lines are cut to, however narrow the terminal: a move's words stay whole.
const NARROWEST: usize = 40;

/// The width lines are cut to: [`LINE_WIDTH`], or a column less than the terminal's where
/// that is narrower (a line filling the last column would wrap on some terminals).
fn line_width() -> usize {
    match terminal_size::terminal_size() {
        Some((terminal_size::Width(w), _)) => (usize::from(w).saturating_sub(1)).clamp(NARROWEST, LINE_WIDTH),
        None => LINE_WIDTH,
    }
}

/// `entries` joined by `sep` and a space, cut after a `sep` where the line would pass
/// [`line_width`], each further line starting with `indent`.
fn wrap_joined(entries: &[String], sep: &str, indent: &str) -> String {
    let most = line_width();
    let mut out = String::new();
    let mut line = String::new();
    let mut fresh = true;
    for (i, e) in entries.iter().enumerate() {
        let piece = if i + 1 < entries.len() { format!("{e}{sep}") } else { e.clone() };
        if !fresh && line.chars().count() + 1 + piece.chars().count() > most {
            out.push_str(&line);
            out.push('\n');
            line = indent.to_string();
            fresh = true;
        }
        if !fresh {
            line.push(' ');
        }
        line.push_str(&piece);
        fresh = false;
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// `text` with each line wider than [`line_width`] cut at its commas (a list of cards in
/// an account), or at its spaces where it has none, the rest of it indented under the
/// line's start.
pub fn fit(text: &str) -> String {
    let most = line_width();
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        if body.chars().count() <= most {
            out.push_str(line);
            continue;
        }
        let indent = " ".repeat(body.len() - body.trim_start().len() + 4);
        // At commas where every piece fits a line; a piece too long is cut at spaces.
        let pieces_fit = body.split(", ").all(|p| indent.len() + p.chars().count() < most);
        let sep = if body.contains(", ") && pieces_fit { "," } else { "" };
        let entries: Vec<String> = body.split(if sep.is_empty() { " " } else { ", " }).map(String::from).collect();
        out.push_str(&wrap_joined(&entries, sep, &indent));
        if !line.ends_with('\n') {
            out.pop();
        }
    }
    out
}

/// Whether a list may hold one entry a seat: as many as the seats, and not words (a list of
/// cards is words, whatever its length) unless some seat's entry is empty (a declaration
/// not made yet).
fn per_seat(items: &[serde_json::Value], seats: usize) -> bool {
    seats > 1
        && items.len() == seats
        && (!items.iter().any(serde_json::Value::is_string) || items.iter().any(serde_json::Value::is_null))
}

/// A list of strings in runs that share a lead up to their first `: `, each run on a line
/// with its lead once (`betting round 1: seat 1 bet 1, seat 2 call`); none where no two
/// neighbours share one.
fn by_lead(items: &[serde_json::Value]) -> Option<Vec<String>> {
    let split: Vec<(&str, &str)> =
        (items.iter()).map(|i| i.as_str().and_then(|s| s.split_once(": "))).collect::<Option<Vec<_>>>()?;
    if !split.windows(2).any(|w| w[0].0 == w[1].0) {
        return None;
    }
    let mut lines: Vec<(&str, Vec<&str>)> = Vec::new();
    for (lead, rest) in split {
        match lines.last_mut() {
            Some((last, entries)) if *last == lead => entries.push(rest),
            _ => lines.push((lead, vec![rest])),
        }
    }
    Some(lines.into_iter().map(|(lead, entries)| format!("{lead}: {}", entries.join(", "))).collect())
}

/// One seat's entry in the table: yes or no for a flag, lists inline.
fn cell(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
        other => inline(other),
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

    /// The menu's entries map back to the moves' own indices, past a copy left out.
    #[test]
    fn moves_that_read_alike_are_offered_once_by_their_first_index() {
        let legal: Vec<String> = ["play red 8", "play blue 2", "play red 8", "draw"].map(String::from).to_vec();
        let ids = distinct_moves(&legal);
        assert_eq!(ids, [0, 1, 3]);
        // The third entry of the menu is the fourth move.
        assert_eq!(legal[ids[2]], "draw");
    }

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
        // The words in any order, with or without the move's first word.
        assert_eq!(word_match(&legal, "trade 1u 4S"), Ok(3));
        assert_eq!(word_match(&legal, "1u 4s"), Ok(3));
        let picks: Vec<String> = ["pick ks", "pick 7h", "pick 7h"].map(String::from).to_vec();
        assert_eq!(word_match(&picks, "Ks"), Ok(0));
        // Moves told alike: the first of them.
        assert_eq!(word_match(&picks, "pick 7h"), Ok(1));
        assert_eq!(word_match(&picks, "ace"), Err(vec![]));
        // Some of a move's whole words, in any order, brackets aside.
        let draws: Vec<String> = [
            "take white 2/5 (cost 3) from the row",
            "take white land from the row",
            "take red 7/6 (cost 5) from the row",
            "remove red 7/6 (cost 5) and white 4/3 (cost 2)",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(word_match(&draws, "white 2/5"), Ok(0));
        assert_eq!(word_match(&draws, "land white"), Ok(1));
        assert_eq!(word_match(&draws, "remove white 4/3 red 7/6"), Ok(3));
        assert_eq!(word_match(&draws, "red 7/6"), Err(vec![draws[2].as_str(), draws[3].as_str()]));
        assert_eq!(word_match(&draws, "white 2/"), Err(vec![]), "a word's start is not a word");
        assert_eq!(word_match(&draws, "white white"), Err(vec![]), "a word typed twice is held twice");
    }

    #[test]
    fn observations_render_lists_figures_and_a_seat_table() {
        let v = serde_json::json!({
            "seat": 0,
            "hand": ["A♠", "K♥"],
            "pot": 4,
            "phase": "Bet",
            "folded": [false, true],
            "stacks": [99, 97],
            "others": [{"life": 20, "lands": []}, {"life": 18, "lands": ["red"]}],
            "own": {"hand_size": 2, "top": "red 1"},
            "piles": [["3♣", "4♣"], [], ["5♦"]],
            "picks": [3, 5],
            "declared": [null, "stays"],
        });
        let names = vec!["you".to_string(), "tight".to_string()];
        let mut out = String::new();
        // `picks` was seen at another length before: a list of the seat's own, not a column.
        let mut varies = HashSet::from(["picks".to_string()]);
        render_view(&mut out, &v, &names, &mut varies);
        assert_eq!(
            out,
            "  hand: A♠, K♥\n  pot: 4 · phase: Bet\n  own:\n    hand_size: 2 · top: red 1\n  piles:\n    - 3♣, 4♣\n    - none\n    - 5♦\n  picks: 3, 5\n  seat     folded  stacks  life  lands  declared\n  0 you    no      99      20    none   -\n  1 tight  yes     97      18    red    stays\n"
        );
        // Entries led alike are told by their lead once, a line a lead.
        let v =
            serde_json::json!({"betting": ["round 1: seat 1 bet 1", "round 1: seat 0 call", "round 2: seat 1 check"]});
        let mut out = String::new();
        render_view(&mut out, &v, &names, &mut HashSet::new());
        assert_eq!(out, "  betting:\n    round 1: seat 1 bet 1, seat 0 call\n    round 2: seat 1 check\n");
        let mut out = String::new();
        render_view(&mut out, &serde_json::json!({"log": ["a: b", "c: d"]}), &names, &mut HashSet::new());
        assert_eq!(out, "  log: a: b, c: d\n", "no two neighbours led alike: one line");
        // What would pass a terminal's width is cut: a list at its commas, onto indented
        // lines; a table into tables of whole columns, each led by the seat column.
        let cards: Vec<String> = (0..40).map(|i| format!("c{i:02}")).collect();
        let mut wide: serde_json::Map<String, serde_json::Value> =
            (0..12).map(|i| (format!("column_{i:02}"), serde_json::json!([i, i + 1]))).collect();
        wide.insert("pool".into(), serde_json::json!(cards));
        let wide = serde_json::Value::Object(wide);
        let mut out = String::new();
        render_view(&mut out, &wide, &names, &mut HashSet::new());
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.iter().all(|l| l.chars().count() <= LINE_WIDTH), "{out}");
        assert_eq!(lines[0], format!("  pool: {},", cards[..18].join(", ")));
        assert_eq!(lines[1], format!("      {},", cards[18..37].join(", ")));
        assert_eq!(lines[2], format!("      {}", cards[37..].join(", ")));
        let heads: Vec<&&str> = lines.iter().filter(|l| l.starts_with("  seat ")).collect();
        assert_eq!(heads.len(), 2, "{out}");
        assert!(heads[1].contains("column_11") && !heads[0].contains("column_11"), "{out}");
        assert_eq!(out.matches("column_").count(), 12, "each column once: {out}");
        // An account's long line is cut at its commas, under its start.
        let long = format!("  seat 0 holds {}; turns up 9\nshort, line\n", cards[..30].join(", "));
        let cut = fit(&long);
        assert!(cut.lines().all(|l| l.chars().count() <= LINE_WIDTH), "{cut}");
        assert_eq!(cut.lines().nth(1).map(|l| &l[..7]), Some("      c"), "{cut}");
        assert_eq!(cut.replace(",\n      ", ", "), long);
        assert_eq!(fit("a, b"), "a, b");
        let told = "== Deal\nx\n-- Showdown\nseat 0 shows\n== Result\n  seat 0: +2 chips\n";
        // A unit that fits is told whole; a long one from its last section, saying so.
        assert_eq!(reveal_tail(told, false), format!("=== Told again, every card shown\n{told}"));
        let long = format!("== Deal\n{}-- Showdown\nseat 0 shows\n== Result\n  seat 0: +2 chips\n", "x\n".repeat(200));
        assert_eq!(
            reveal_tail(&long, false),
            "=== Told again, every card shown (201 earlier lines of the account are left out; play with --out DIR to keep every account whole)\n-- Showdown\nseat 0 shows\n== Result\n  seat 0: +2 chips\n"
        );
        assert!(reveal_tail(&long, true).contains("left out; accounts.txt in the --out folder keeps it whole)\n"));
        // Rounds, each closed by who won it: from the earliest round that fits, not from
        // the last round's closing line.
        let round = |r: usize| format!("== Round {r}\n{}-- seat 0 wins the round\n", "x\n".repeat(50));
        let rounds: String = (1..=4).map(round).collect::<String>() + "== Result\n  seat 0: +1\n";
        let told = reveal_tail(&rounds, false);
        assert!(
            told.starts_with("=== Told again, every card shown (104 earlier lines") && told.contains("\n== Round 3\n"),
            "{told}"
        );
        assert_eq!(told.lines().count(), 1 + 2 * 52 + 2, "{told}");
    }
}
