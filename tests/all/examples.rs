//! Every example command in the README, the pages of docs/ and each command's `--help` runs
//! as written, with fewer rounds. A page's commands run in order in one folder, so a later
//! one reads what an earlier one wrote; a TOML block whose first line is `# NAME.toml: ...`
//! is the file NAME.toml there. docs/cluster.md's job scripts run on a real Slurm in
//! `.ci/slurm-test` instead.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;

const FILE: &str = "examples";

/// Most rounds (and training iterations) an example plays here.
const ROUNDS: u64 = 2000;

/// Most rounds an example that seats the search bot plays here: a search decision costs
/// thousands of heuristic ones.
const SEARCH_ROUNDS: u64 = 100;

/// Commands that simulate a number of rounds, given `--rounds` here when they name none.
const SIMULATE: &[&str] = &["run", "check", "compare", "sweep", "sensitivity", "versus", "calibrate", "exploitability"];

/// A page's shell commands, continuation lines joined, and the files its TOML blocks name.
fn page(text: &str) -> (Vec<String>, Vec<(String, String)>) {
    let (mut commands, mut files) = (Vec::new(), Vec::new());
    let mut block: Option<(String, Vec<&str>)> = None;
    for line in text.lines() {
        if let Some(lang) = line.strip_prefix("```") {
            match block.take() {
                None => block = Some((lang.trim().to_string(), Vec::new())),
                Some((lang, lines)) if lang == "toml" => {
                    let name = lines.first().and_then(|l| l.strip_prefix("# ")).and_then(|l| l.split(':').next());
                    if let Some(name) = name.filter(|n| n.ends_with(".toml") && !n.contains(' ')) {
                        files.push((name.to_string(), lines.join("\n") + "\n"));
                    }
                }
                Some((lang, lines)) if ["sh", "bash", ""].contains(&lang.as_str()) => {
                    let mut joined = String::new();
                    for l in lines {
                        match l.trim_end().strip_suffix('\\') {
                            Some(part) => joined.push_str(part),
                            None => {
                                joined.push_str(l);
                                let command = std::mem::take(&mut joined).trim().to_string();
                                if command.starts_with("draftsim ")
                                    || command.starts_with("cargo run ")
                                    || command.starts_with("printf ")
                                    || command.contains("| draftsim ")
                                {
                                    commands.push(command);
                                }
                            }
                        }
                    }
                }
                Some(_) => {}
            }
        } else if let Some((_, lines)) = block.as_mut() {
            lines.push(line);
        }
    }
    (commands, files)
}

/// The value after `flag` in `command`, with where it starts and ends.
fn flag_value(command: &str, flag: &str) -> Option<(usize, usize, u64)> {
    let at = command.find(&format!("{flag} "))? + flag.len() + 1;
    let end = command[at..].find(' ').map_or(command.len(), |e| at + e);
    Some((at, end, command[at..end].parse().ok()?))
}

/// The command as it runs here: `cargo run --release --` as `draftsim`, at most [`ROUNDS`]
/// rounds and training iterations ([`SEARCH_ROUNDS`] rounds where the search bot plays),
/// `--force` beside every `--out` (a page may write one folder twice), and answers piped
/// into `play`.
fn as_run(command: &str) -> String {
    let mut c = command.replacen("cargo run --release -- ", "draftsim ", 1);
    let sub = c.split("draftsim ").nth(1).and_then(|s| s.split_whitespace().next()).unwrap_or_default().to_string();
    // `exploitability` seats the search bot among its responders.
    let most = if c.contains("search") || sub == "exploitability" { SEARCH_ROUNDS } else { ROUNDS };
    for flag in ["--rounds", "--iterations"] {
        if let Some((at, end, n)) = flag_value(&c, flag) {
            c.replace_range(at..end, &n.min(most).to_string());
        }
    }
    // The reference games' exploitability is exact: it plays no rounds.
    let exact = sub == "exploitability" && (c.contains("kuhn-poker") || c.contains("leduc-poker"));
    if SIMULATE.contains(&sub.as_str()) && !c.contains("--rounds ") && !exact {
        c = c.replacen(&format!("draftsim {sub}"), &format!("draftsim {sub} --rounds {most}"), 1);
    }
    if sub == "ladder" {
        // A ladder plays every budget up to 1,024 search iterations a decision.
        c = match flag_value(&c, "--rounds") {
            Some((at, end, _)) => format!("{}50{}", &c[..at], &c[end..]),
            None => c + " --rounds 50",
        };
    }
    if c.contains("--out ") && !c.contains("--force") {
        c = match c.find(" #") {
            Some(at) => format!("{} --force{}", &c[..at], &c[at..]),
            None => c + " --force",
        };
    }
    if sub == "play" && !c.contains('|') {
        c = format!("yes 1 | head -n 3000 | {c}");
    }
    c
}

/// A command that plays one shard of an array (`--shard 3/16 --out shard-3`), as the
/// array runs it: once for every shard.
fn every_shard(command: &str) -> Vec<String> {
    let Some(at) = command.find("--shard ") else { return vec![command.to_string()] };
    let spec = command[at + 8..].split_whitespace().next().unwrap_or_default();
    let Some((i, n)) = spec.split_once('/') else { return vec![command.to_string()] };
    let (Ok(_), Ok(n)) = (i.parse::<u64>(), n.parse::<u64>()) else { return vec![command.to_string()] };
    (0..n)
        .map(|k| {
            command
                .replace(&format!("--shard {spec}"), &format!("--shard {k}/{n}"))
                .replace(&format!("-{i} "), &format!("-{k} "))
        })
        .collect()
}

/// Runs `commands` in order in a fresh folder holding `files`, the repository's
/// strategies and examples, and `draftsim` on the PATH; returns what failed.
fn run_all(name: &str, commands: &[String], files: &[(String, String)]) -> Vec<String> {
    let dir = scratch(FILE, name);
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for sub in ["strategies", "examples"] {
        std::os::unix::fs::symlink(repo.join(sub), dir.join(sub)).unwrap();
    }
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    // A user's own notes, as `report --notes` reads them.
    std::fs::write(dir.join("my-findings.md"), "Our notes.\n").unwrap();
    let bin = dir.join(".bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_draftsim"), bin.join("draftsim")).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut failed = Vec::new();
    for command in commands {
        for c in every_shard(&as_run(command)) {
            let started = std::time::Instant::now();
            let o = Command::new("sh").arg("-c").arg(&c).current_dir(&dir).env("PATH", &path).output().unwrap();
            if std::env::var_os("EXAMPLES_VERBOSE").is_some() {
                eprintln!("{:.2}s {name}: {c}", started.elapsed().as_secs_f64());
            }
            if !o.status.success() {
                failed.push(format!("{name}: `{command}` (run as `{c}`): {}", stderr(&o).trim()));
            }
        }
    }
    failed
}

/// The pages with examples: the README and docs/*.md but cluster.md.
fn pages() -> Vec<PathBuf> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![repo.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(repo.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md") && !p.ends_with("cluster.md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

#[test]
fn every_example_in_the_readme_and_docs_runs() {
    let mut failed = Vec::new();
    let mut ran = 0;
    for path in pages() {
        let (commands, files) = page(&std::fs::read_to_string(&path).unwrap());
        ran += commands.len();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        failed.extend(run_all(&name, &commands, &files));
    }
    assert!(ran > 40, "{ran} examples found");
    assert!(failed.is_empty(), "examples that fail as written:\n{}", failed.join("\n"));
}

/// Each command's `--help` examples: the indented lines after "Example:".
fn help_examples(command: &str) -> Vec<String> {
    let help = stdout(&draftsim(&[command, "--help"]));
    let Some(at) = help.find("Example:\n") else { return Vec::new() };
    (help[at + 9..].lines())
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim().to_string())
        // Installing completions writes outside the folder.
        .filter(|l| !l.contains(" > /"))
        .collect()
}

#[test]
fn every_example_in_each_commands_help_runs() {
    let top = stdout(&draftsim(&["--help"]));
    let commands: Vec<String> = (top.lines())
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // A command's name; its description's further lines are indented deeper.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect();
    assert!(commands.len() > 15, "{commands:?}");
    let mut failed = Vec::new();
    for command in &commands {
        let examples = help_examples(command);
        assert!(!examples.is_empty() || command == "completions", "{command} --help has no example");
        failed.extend(run_all(&format!("help-{command}"), &examples, &[]));
    }
    assert!(failed.is_empty(), "--help examples that fail as written:\n{}", failed.join("\n"));
}
