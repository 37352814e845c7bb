//! What the command-line test files share: running the binary and scratch folders.

#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// Runs the draftsim binary with `args`.
pub fn draftsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_draftsim")).args(args).output().expect("the binary runs")
}

/// Its stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Its stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh, empty folder for one test, named by the test file and the test.
pub fn scratch(file: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("draftsim-{file}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every file of a folder, by name, with its bytes, but provenance.json (which records
/// the command line and times, so differs between runs that write the same tables).
pub fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| e.as_ref().is_ok_and(|e| e.file_name() != "provenance.json"))
        .map(|e| {
            let e = e.unwrap();
            (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// `draftsim ARGS --quiet` on one thread and on two; the tables must be the same. Returns
/// stdout.
pub fn on_one_and_two_threads(args: &[&str]) -> String {
    let run = |threads: &str| {
        let o = draftsim(&[args, &["--quiet", "--threads", threads]].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let one = run("1");
    assert_eq!(one, run("2"), "tables do not depend on the thread count");
    one
}

/// The value in column `column` (by its header's name) of the first printed row whose
/// strategy starts with `strategy`.
pub fn row_value(table: &str, strategy: &str, column: &str) -> f64 {
    let lines: Vec<&str> = table.lines().collect();
    let at = lines.iter().position(|l| l.starts_with(strategy)).unwrap_or_else(|| panic!("no {strategy} row: {table}"));
    // The header of the table the row is in: the last line above it that opens with
    // `strategy` (`strategy_a` in the pairs table).
    let header =
        lines[..at].iter().rev().find(|l| l.split_whitespace().next().is_some_and(|w| w.starts_with("strategy")));
    let header = header.unwrap_or_else(|| panic!("no header above {strategy}: {table}"));
    let i = header.split_whitespace().position(|c| c == column).unwrap_or_else(|| panic!("no {column}: {header}"));
    lines[at].split_whitespace().nth(i).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{}", lines[at]))
}

/// A report's subsection for the folder `name` under the question heading `question`
/// ("Is it healthy?"): its text up to the next subsection or section.
pub fn report_part(md: &str, question: &str, name: &str) -> String {
    let section = md.split("\n## ").find(|s| s.starts_with(question)).unwrap_or_else(|| panic!("no {question}:\n{md}"));
    let part = section.split("\n### ").find(|p| p.lines().next().is_some_and(|h| h.ends_with(&format!("`{name}`"))));
    part.unwrap_or_else(|| panic!("no part for `{name}` under {question}:\n{section}")).to_string()
}

/// Waits for a child to get going, sends it SIGINT, and returns what it left.
pub fn interrupt(args: &[&str], after: Duration) -> Output {
    signalled(args, &["INT"], after)
}

/// `draftsim play ARGS` started with its input, output and errors piped.
pub fn spawn_play(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_draftsim"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Sends `signals` (kill's names) to a command `after` its start, 0.8 s apart (further
/// apart than one signal delivered twice), and returns its output.
pub fn signalled(args: &[&str], signals: &[&str], after: Duration) -> Output {
    signalled_apart(args, signals, after, Duration::from_millis(800))
}

/// [`signalled`], the signals `gap` apart.
pub fn signalled_apart(args: &[&str], signals: &[&str], after: Duration, gap: Duration) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_draftsim"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    for (i, signal) in signals.iter().enumerate() {
        if i > 0 {
            std::thread::sleep(gap);
        }
        let sent = Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status().unwrap();
        assert!(sent.success());
    }
    child.wait_with_output().unwrap()
}

/// The rows of a written CSV table as maps from column to text.
pub fn csv_rows(path: &std::path::Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(str::to_string).collect();
    lines
        .map(|l| {
            let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(l.as_bytes());
            let rec = r.records().next().unwrap().unwrap();
            header.iter().cloned().zip(rec.iter().map(str::to_string)).collect()
        })
        .collect()
}
