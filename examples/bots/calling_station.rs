//! A draftsim external bot in Rust: it never folds when it can check or call, and otherwise
//! plays the first legal move. It reads the protocol of docs/protocol.md on stdin and
//! answers each `decide` with `{"move": ID}` on stdout.
//!
//! ```text
//! cargo build --release --example calling_station
//! draftsim run --game kuhn-poker --seats 'ext{cmd="target/release/examples/calling_station"},tight'
//! ```

use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(&line) else { continue };
        match msg["type"].as_str() {
            Some("decide") => {
                let legal = msg["legal"].as_array().cloned().unwrap_or_default();
                let text = |m: &serde_json::Value| m["move"].as_str().unwrap_or("").to_string();
                let passive = legal.iter().find(|m| text(m) == "check" || text(m).starts_with("call"));
                let id = passive.or(legal.first()).and_then(|m| m["id"].as_u64()).unwrap_or(0);
                if writeln!(stdout, "{{\"move\": {id}}}").and_then(|()| stdout.flush()).is_err() {
                    break;
                }
            }
            Some("bye") => break,
            _ => {}
        }
    }
}
