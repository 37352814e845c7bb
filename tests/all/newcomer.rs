//! What a newcomer meets on the command line: help that says what each command does,
//! flags that work alike everywhere, bad numbers refused in one line, Ctrl-C that leaves
//! nothing behind, studies that say what they play and record it in their tables.

use crate::common;
use common::{draftsim, interrupt, stderr, stdout};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn scratch(name: &str) -> PathBuf {
    common::scratch("newcomer", name)
}

/// Runs the binary and insists it succeeds.
fn ok(args: &[&str]) -> Output {
    let o = draftsim(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    o
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Each bad input: exit code 2 and one line on stderr that contains `needle`.
fn refused(args: &[&str], needle: &str) {
    let o = draftsim(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{args:?}: one line: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
}

/// A flag's help in `help`, its wrapped lines joined.
fn flag_help(help: &str, flag: &str) -> String {
    let mut lines = help.lines().skip_while(|l| !l.trim_start().starts_with(flag));
    let mut text = lines.next().unwrap_or_else(|| panic!("{flag} missing from\n{help}")).trim().to_string();
    // Wrapped lines are indented past the flags' column.
    for l in lines.take_while(|l| !l.trim().is_empty() && l.starts_with(&" ".repeat(12))) {
        text.push(' ');
        text.push_str(l.trim());
    }
    text
}

#[test]
fn help_says_what_each_command_does() {
    let help = |command: &str| stdout(&ok(&[command, "--help"]));
    let report = help("report");
    assert!(report.contains("report.html"), "report writes report.html:\n{report}");
    for kind in ["run", "compare", "sweep", "tune", "exploit", "calibrate"] {
        assert!(report.contains(kind), "report reads {kind} folders:\n{report}");
    }
    let exploit = help("exploit");
    let players = flag_help(&exploit, "--players");
    assert!(players.contains("--field") && !players.contains("compare"), "exploit's --players default: {players}");
    let field = flag_help(&exploit, "--field");
    assert!(field.contains("cycled"), "what --field means: {field}");
    // Each command's --rounds says what a round counts and its own default.
    for (command, says) in [
        ("run", "1000000"),
        ("compare", "each pair"),
        ("sweep", "each variant"),
        ("tune", "whole search"),
        ("exploit", "whole search"),
        ("check", "100000"),
        ("calibrate", "20000"),
    ] {
        let text = help(command);
        let rounds = flag_help(&text, "--rounds");
        assert!(rounds.contains(says), "{command} --rounds: {rounds}");
    }
    // Each study's --shard names its own units, not every study's.
    for (command, units) in [
        ("compare", "of the pairs of strategies"),
        ("ladder", "of the steps"),
        ("sweep", "of the variants"),
        ("sensitivity", "of the base and each deviation"),
        ("versus", "of the two sides' deals"),
    ] {
        let shard = flag_help(&help(command), "--shard");
        assert!(shard.contains(units) && !shard.contains("sweep:"), "{command} --shard: {shard}");
    }
    let compare = help("compare");
    let players = flag_help(&compare, "--players");
    assert!(players.contains("rules file"), "compare --players default: {players}");
    assert!(help("tune").contains("resumes"), "tune says how an interrupted search goes on");
}

/// `compare --rules F` plays F's players; `--players` still wins; compare and sweep say
/// on stderr what they play, as run does.
#[test]
fn compare_plays_the_rules_files_players_and_says_what_it_plays() {
    let dir = scratch("compare-players");
    let rules = dir.join("three.toml");
    std::fs::write(&rules, "players = 3\n").unwrap();
    let out = dir.join("cmp");
    let o = ok(&[
        "compare",
        "--rules",
        rules.to_str().unwrap(),
        "--strategies",
        "greedy,random",
        "--rounds",
        "600",
        "--seed",
        "7",
        "--out",
        out.to_str().unwrap(),
    ]);
    let meta = json(&out.join("study.json"));
    assert_eq!(meta["players"], 3, "{meta}");
    let err = stderr(&o);
    for part in ["seven-card-draft", "3 players", "seed 7", "greedy,random"] {
        assert!(err.contains(part), "compare says {part:?}: {err}");
    }
    let out4 = dir.join("cmp4");
    let args = ["compare", "--rules", rules.to_str().unwrap(), "--strategies", "greedy,random", "--rounds", "600"];
    ok(&[&args[..], &["--players", "4", "--quiet", "--out", out4.to_str().unwrap()]].concat());
    assert_eq!(json(&out4.join("study.json"))["players"], 4, "--players wins over the rules file");

    let o = ok(&["sweep", "--set", "raise_cap=1,2", "--rounds", "600", "--seed", "8"]);
    let err = stderr(&o);
    for part in ["seven-card-draft", "4 players", "seed 8", "2 variants"] {
        assert!(err.contains(part), "sweep says {part:?}: {err}");
    }
    assert!(stderr(&ok(&["sweep", "--set", "raise_cap=1,2", "--rounds", "600", "--quiet"])).is_empty());
}

/// `sweep --players N` plays every variant at N players; with `--set players=...` too it
/// is refused.
#[test]
fn sweep_takes_players() {
    let dir = scratch("sweep-players");
    let out = dir.join("s");
    ok(&[
        "sweep",
        "--players",
        "3",
        "--set",
        "raise_cap=1,2",
        "--rounds",
        "600",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let meta = json(&out.join("study.json"));
    assert_eq!(meta["players"], 3, "{meta}");
    assert_eq!(meta["seats"].as_array().unwrap().len(), 3, "{meta}");
    let table = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    assert_eq!(table.lines().count(), 1 + 2 * 3, "three strategies in each of two variants:\n{table}");
    refused(&["sweep", "--players", "3", "--set", "players=4,5", "--rounds", "100"], "--players 3");
}

/// Negative numbers and `--threads 0`: exit 2, one line naming the flag.
#[test]
fn bad_numbers_are_refused_in_one_line() {
    refused(&["run", "--rounds", "-5"], "--rounds");
    refused(&["run", "--rounds", "-5"], "negative");
    refused(&["run", "--players", "-3"], "--players");
    refused(&["run", "--seed", "-1"], "--seed");
    refused(&["replay", "--round", "-2"], "--round");
    refused(&["compare", "--strategies", "greedy,random", "--rounds", "-1"], "--rounds");
    refused(&["run", "--threads", "0", "--rounds", "100"], "--threads");
    refused(&["sweep", "--set", "raise_cap=1,2", "--threads", "0"], "--threads");
    refused(&["tune", "--param", "ante=1..3", "--minimize", "seat_advantage", "--candidates", "-4"], "--candidates");
    refused(&["tune", "--param", "ante=1..3", "--minimize", "seat_advantage", "--budget-time", "-4"], "--budget-time");
    // Malformed numbers name the fix, in a list too.
    refused(&["ladder", "--budgets", "1,x"], "give digits only");
    // Digits too many for the number are said to be too large, not to be no digits.
    refused(&["replay", "--game", "sevens", "--round", "99999999999999999999"], "too large a number");
    refused(&["run", "--until-ci", "tiny"], "give a decimal");
    refused(&["train", "--game", "kuhn-poker", "--field", "random", "--field-share", "half"], "give a decimal");
}

/// A flag whose figure is written only to a table needs --out, and says so; a zero budget
/// is named as one wherever it stands; each list's game says its own default.
#[test]
fn flags_that_need_a_table_or_a_value_say_which() {
    refused(&["run", "--rounds", "60", "--ideal-length", "20..40"], "--ideal-length: also give --out DIR");
    refused(&["run", "--rounds", "60", "--rounds-out"], "--rounds-out: also give --out DIR");
    refused(&["ladder", "--budgets", "1,0"], "a budget of 0 iterations cannot search");
    refused(&["ladder", "--budgets", "4,2"], "2 after 4 does not increase");
    // A sweep needs --set or --vary, and a malformed one is named by its flag.
    refused(&["sweep"], "<--set <KEY=V1,V2>|--vary <PRESET.PATH=V1,V2>>");
    refused(&["sweep", "--set", "players"], "--set players: write the key, = and its values, e.g. --set players=3,4,5");
    refused(
        &["sweep", "--vary", "hate"],
        "--vary hate: write the key, = and its values, e.g. --vary hate.draft.weight",
    );
    let help = |what: &str| flag_help(&stdout(&ok(&["list", what, "--help"])), "[GAME]");
    assert!(help("strategies").contains("[default: every game's]"), "{}", help("strategies"));
    for what in ["rules", "metrics"] {
        assert!(
            help(what).contains("[default: seven-card-draft]") && !help(what).contains("strategies"),
            "{}",
            help(what)
        );
    }
}

/// `list strategies GAME` names the game as `list rules GAME` does; `--game` still works.
#[test]
fn list_takes_the_game_as_a_word() {
    let text = stdout(&ok(&["list", "strategies", "sevens"]));
    assert!(text.starts_with("sevens:") && !text.contains("seven-card-draft:"), "{text}");
    assert_eq!(text, stdout(&ok(&["list", "strategies", "--game", "sevens"])));
    let text = stdout(&ok(&["list", "metrics", "sevens"]));
    assert!(text.starts_with("sevens measures"), "{text}");
    assert_eq!(stdout(&ok(&["list", "rules", "--game", "sevens"])), stdout(&ok(&["list", "rules", "sevens"])));
    // Without a game, rules default to the default game, as metrics do.
    assert_eq!(stdout(&ok(&["list", "rules"])), stdout(&ok(&["list", "rules", "seven-card-draft"])));
    assert_eq!(stdout(&ok(&["list", "metrics"])), stdout(&ok(&["list", "metrics", "seven-card-draft"])));
    refused(&["list", "strategies", "chess"], "unknown game 'chess'");
    refused(&["list", "rules", "sevn"], "unknown game 'sevn' (did you mean 'sevens'?): use one of");
    // The first word of one game's name is that game.
    refused(&["run", "--game", "kuhn"], "unknown game 'kuhn' (did you mean 'kuhn-poker'?): use one of");
    refused(&["run", "--game", "winston"], "unknown game 'winston' (did you mean 'winston-crazier-eights'?)");
    // Two near names are both offered: `tite` is fewer edits from `hate` but meant `tight`.
    refused(
        &["run", "--seats", "tite"],
        "unknown strategy 'tite' for seven-card-draft (did you mean 'hate' or 'tight'?)",
    );
    // A beginning is offered, and two edits of three letters are no typo.
    refused(
        &["run", "--seats", "loose"],
        "unknown strategy 'loose' for seven-card-draft (did you mean 'loose-aggressive'?)",
    );
    refused(&["run", "--seats", "cat"], "unknown strategy 'cat' for seven-card-draft: use one of");
    refused(
        &["sweep", "--game", "sevens", "--set", "raise=1,2"],
        "--set raise: not a rules key of sevens (did you mean raise_size or raise_cap?); use one of",
    );
    refused(
        &["sweep", "--vary", "hat.draft.weight=0,1"],
        "--vary hat.draft.weight: 'hat' is no strategy of seven-card-draft (did you mean 'hate'?); vary a seated one",
    );
    refused(
        &["tune", "--game", "sevens", "--param", "raise_cp=1..3", "--minimize", "seat_advantage"],
        "--param raise_cp: not a rules key of sevens (did you mean raise_cap?); use one of",
    );
}

/// A seat's fault is the seat's, even under a rules file that another game would also
/// read: no "add --game" and no rules file named; a trained policy's folder given as a seat
/// is told how to seat it.
#[test]
fn a_seats_fault_is_not_blamed_on_the_rules_file() {
    let dir = scratch("seat-fault");
    let rules = dir.join("variant.toml");
    // Keys Seven Card Draft's rules have too.
    std::fs::write(&rules, "raise_cap = 2\nante = 2\n").unwrap();
    let file = rules.to_str().unwrap();
    for seats in ["search{iteration=3},tight", "tight{bet.fold_belw=[2]},tight"] {
        let o = draftsim(&["run", "--game", "sevens", "--rules", file, "--seats", seats, "--rounds", "10"]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{seats}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{seats}: {err}");
        assert!(err.contains("unknown field"), "{seats}: {err}");
        assert!(!err.contains("add --game") && !err.contains(file), "{seats}: {err}");
    }
    // A fault of the file itself still names it, and the game it reads as.
    std::fs::write(&rules, "raise_cap = 2\nwild = \"deuces\"\n").unwrap();
    let o = draftsim(&["run", "--game", "sevens", "--rules", file, "--seats", "tight,tight", "--rounds", "10"]);
    assert!(stderr(&o).contains(file) && stderr(&o).contains("add --game seven-card-draft"), "{}", stderr(&o));
    // Rules that fail only at the table the seats set are still the file's fault.
    let leduc = dir.join("leduc.toml");
    std::fs::write(&leduc, "max_raises = 3\n").unwrap();
    let seats = "tight,random,aggressive,calling-station";
    let o = draftsim(&["run", "--game", "leduc-poker", "--rules", leduc.to_str().unwrap(), "--seats", seats]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains(&format!("{}: max_raises = 3 at 4 players", leduc.display())), "{}", stderr(&o));
    let policy = dir.join("my-policy");
    std::fs::create_dir_all(&policy).unwrap();
    std::fs::write(policy.join("policy.json"), "{}").unwrap();
    let seats = format!("{},tight", policy.display());
    let seat_it = format!("is a trained policy's folder: seat it as 'cfr{{policy=\"{}\"}}'", policy.display());
    refused(&["run", "--game", "sevens", "--seats", &seats, "--rounds", "10"], &seat_it);
}

/// A rules value of the wrong type says what to write: a number in quotes, to drop them
/// where the number unquoted is one the key's type holds; below zero, the range the key
/// takes where that is narrower than "0 or more"; anything else, the type (a whole number,
/// with no "0 or more" the key may refuse).
#[test]
fn a_rules_value_of_the_wrong_type_says_what_to_write() {
    let dir = scratch("wrong-type");
    for (text, says) in [
        ("raise_cap = \"3\"\n", "line 1, raise_cap: invalid type: string \"3\"; write 3 without quotes"),
        ("ante = \"2\"\n", "ante: invalid type: string \"2\"; write 2 without quotes"),
        ("raise_cap = \"-1\"\n", "raise_cap: invalid type: string \"-1\"; give a whole number\n"),
        ("raise_cap = \"007\"\n", "raise_cap: invalid type: string \"007\"; give a whole number\n"),
        ("raise_cap = \"three\"\n", "raise_cap: invalid type: string \"three\"; give a whole number\n"),
        ("raise_cap = 2.5\n", "raise_cap: invalid type: floating point `2.5`; give a whole number\n"),
        ("raise_cap = -1\n", "raise_cap: invalid value: integer `-1`; give at least 1 (chips are not staked"),
        ("players = -3\n", "players: invalid value: integer `-3`; Sevens seats 2 to 6 players"),
    ] {
        let path = dir.join("rules.toml");
        std::fs::write(&path, text).unwrap();
        refused(&["run", "--game", "sevens", "--rules", path.to_str().unwrap(), "--rounds", "10"], says);
    }
    // A real number too; but `.5` is no TOML number, and on the command line it was never
    // in quotes: neither is told to drop them.
    let preset = dir.join("quoted.toml");
    std::fs::write(&preset, "[trade]\nmodule = \"exact\"\n[bet]\nmodule = \"bluff\"\np = \"0.5\"\n").unwrap();
    let seats = format!("{},tight", preset.display());
    refused(&["run", "--game", "sevens", "--seats", &seats, "--rounds", "10"], "write 0.5 without quotes");
    let o = draftsim(&["run", "--game", "sevens", "--seats", "bluffer{bet.p=.5},tight", "--rounds", "10"]);
    assert!(!stderr(&o).contains("without quotes"), "{}", stderr(&o));
    // A preset's key below zero that refuses 0 too says what it takes, as a rules key does.
    refused(
        &["run", "--seats", "search{iterations=-1},tight", "--players", "2", "--rounds", "10"],
        "search{iterations=-1}: iterations: invalid value: integer `-1`; give at least 1 iteration per decision (e.g. 1000)",
    );
}

/// The flags that name strategies complete the presets of the game on the line (the
/// default game's without `--game`), in bash always and in zsh and fish where installed.
#[test]
fn completions_offer_the_presets_of_the_game_named() {
    let dir = scratch("completions");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let script = |shell: &str| {
        let path = dir.join(shell);
        std::fs::write(&path, stdout(&ok(&["completions", shell]))).unwrap();
        path.display().to_string()
    };
    let words = |out: Output| -> Vec<String> {
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let mut w: Vec<String> = String::from_utf8_lossy(&out.stdout).split_whitespace().map(String::from).collect();
        w.sort();
        w
    };
    let sorted = |list: &[&str]| -> Vec<String> {
        let mut w: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        w.sort();
        w
    };
    let sevens =
        sorted(&["random", "no-trade", "greedy", "exact", "tight", "bluffer", "search", "cfr", "cfr-heads-up"]);
    let default_game = draftsim::games::find("seven-card-draft").unwrap();
    let scd: Vec<String> = sorted(&(default_game.presets)().iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>());
    assert!(scd.contains(&"hate".to_string()) && !scd.contains(&"exact".to_string()), "{scd:?}");

    // Bash: the script's own function, called as the shell calls it.
    let bash = script("bash");
    let complete = |line: &str| {
        let program = format!(
            r#"source '{bash}'; COMP_WORDS=({line}); COMP_CWORD=$((${{#COMP_WORDS[@]}}-1)); COMP_LINE="${{COMP_WORDS[*]}}"; COMP_POINT=${{#COMP_LINE}}; _draftsim draftsim "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"; printf '%s\n' "${{COMPREPLY[@]}}""#
        );
        words(Command::new("bash").args(["--norc", "-c", &program]).output().unwrap())
    };
    assert_eq!(complete(r#"draftsim run --game sevens --seats """#), sevens);
    assert_eq!(complete(r#"draftsim sweep --game = sevens --seats """#), sevens, "--game=G, split by bash");
    assert_eq!(complete(r#"draftsim run --seats """#), scd, "no --game: the default game's");
    assert_eq!(complete("draftsim compare --game live-draft --strategies c"), sorted(&["colour", "cautious", "curve"]));
    // Each strategy of a list completes, after the ones written.
    let led = |lead: &str, names: &[String]| -> Vec<String> { names.iter().map(|n| format!("{lead}{n}")).collect() };
    assert_eq!(complete("draftsim run --game sevens --seats tight,random,gr"), ["tight,random,greedy"]);
    assert_eq!(complete("draftsim run --game sevens --seats tight,"), led("tight,", &sevens));
    // play's seats take `you` too, which no other command does.
    assert_eq!(complete("draftsim play --game sevens --seats tight,y"), ["tight,you"]);
    assert!(complete("draftsim run --game sevens --seats y").is_empty());

    // Fish completes a line on its own (`complete -C`).
    let fish = script("fish");
    let complete = |line: &str| -> Option<Vec<String>> {
        let out = Command::new("fish")
            .args(["--no-config", "-c", &format!("source '{fish}'; complete -C '{line}'")])
            .output()
            .ok()?;
        Some(words(out))
    };
    if let Some(got) = complete("draftsim run --game sevens --seats ") {
        assert_eq!(got, sevens);
        assert_eq!(
            complete("draftsim compare --game=live-draft --strategies c").unwrap(),
            sorted(&["colour", "cautious", "curve"])
        );
        assert_eq!(complete("draftsim run --seats ").unwrap(), scd);
        assert_eq!(complete("draftsim run --game sevens --seats tight,random,gr").unwrap(), ["tight,random,greedy"]);
        assert_eq!(complete("draftsim run --game sevens --seats tight,").unwrap(), led("tight,", &sevens));
        assert_eq!(complete("draftsim play --game sevens --seats y").unwrap(), ["you"]);
    }

    // Zsh: the script's function with `compadd` standing in for the completion system.
    let zsh = script("zsh");
    let complete = |words_typed: &str, current: usize| -> Option<Vec<String>> {
        let program = format!(
            "autoload -U compinit; compinit -u -D; source '{zsh}'; compadd() {{ local p=; if [[ $1 == -P ]]; then p=$2; shift 2; fi; shift; for w in ${{(P)1}}; do print -r -- $p$w; done; }}; words=({words_typed}); CURRENT={current}; _draftsim_presets"
        );
        Some(words(Command::new("zsh").args(["-f", "-c", &program]).output().ok()?))
    };
    if let Some(got) = complete(r#"run --game sevens --seats """#, 5) {
        assert_eq!(got, sevens);
        assert_eq!(complete(r#"run --game=sevens --seats """#, 4).unwrap(), sevens);
        assert_eq!(complete(r#"run --seats """#, 3).unwrap(), scd);
        assert_eq!(complete("run --game sevens --seats tight,", 5).unwrap(), led("tight,", &sevens));
        assert!(complete(r#"play --game sevens --seats """#, 5).unwrap().contains(&"you".to_string()));
        assert!(!complete(r#"run --game sevens --seats """#, 5).unwrap().contains(&"you".to_string()));
    }
}

/// Completions offer the games, the table formats and the presets; `--version` names
/// the commit built.
#[test]
fn completions_offer_values_and_the_version_names_the_commit() {
    let script = stdout(&ok(&["completions", "bash"]));
    for value in ["seven-card-draft", "winston-crazier-eights", "live-draft", "parquet", "loose-aggressive", "hate"] {
        assert!(script.contains(value), "bash completions offer {value}");
    }
    // A value the command reads itself is completed from its names, never from file names,
    // and every name offered is one the command takes.
    let offered = |flag: &str| -> Vec<String> {
        let arm = script.split(&format!("{flag})\n")).nth(1).unwrap_or_else(|| panic!("no case for {flag}"));
        let line = arm.lines().next().unwrap();
        let words = line.split("compgen -W \"").nth(1).unwrap_or_else(|| panic!("{flag} completes files: {line}"));
        words.split('"').next().unwrap().split_whitespace().map(String::from).collect()
    };
    let decks = offered("--deck");
    assert_eq!(decks.len(), draftsim::cards::DeckPreset::ALL.len(), "{decks:?}");
    assert!(decks.iter().all(|d| d.parse::<draftsim::cards::DeckPreset>().is_ok()), "{decks:?}");
    let wilds = offered("--wild");
    assert!(wilds.contains(&"rank-Q-with-face".to_string()), "{wilds:?}");
    assert!(wilds.iter().all(|w| w.parse::<draftsim::eval::WildRule>().is_ok()), "{wilds:?}");
    assert_eq!(offered("--hint"), ["search", "cfr", "cfr-heads-up"]);
    let version = stdout(&ok(&["--version"]));
    let commit = version
        .trim()
        .strip_prefix(&format!("draftsim {} (commit ", env!("CARGO_PKG_VERSION")))
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("--version names the commit: {version}"));
    let hash = commit.strip_suffix("-modified").unwrap_or(commit);
    assert!(commit == "unknown" || (hash.len() >= 7 && hash.chars().all(|c| c.is_ascii_hexdigit())), "{commit}");
}

/// `replay --round K` names round K, its deal, its deal seed and who sits where.
#[test]
fn replay_names_the_round_its_deal_and_seating() {
    let text = stdout(&ok(&["replay", "--seed", "5", "--round", "13", "--seats", "greedy,hate,tight,random"]));
    let names = ["greedy", "hate", "tight", "random"].map(String::from);
    let seatings = draftsim::sim::Seatings::new(&draftsim::sim::Lineup::new(&names), 4, true).unwrap();
    let a = draftsim::sim::round_address(5, &seatings, 13);
    let mut lines = text.lines();
    let first = lines.next().unwrap();
    assert!(first.contains("Round 13") && first.contains(&format!("deal {}", a.deal)), "{first}");
    assert!(first.contains(&format!("deal seed {}", a.deal_seed)), "{first}");
    let seating: Vec<String> = a.seating.iter().enumerate().map(|(s, &i)| format!("seat {s} {}", names[i])).collect();
    assert!(lines.next().unwrap().contains(&seating.join(", ")), "{text}");
    assert!(!text.contains("Round 1 "), "no round but the run's is named: {text}");
}

/// Ctrl-C on compare, sweep and check says what run says and leaves no folder; tune and exploit
/// also say that the same command resumes the search.
#[test]
fn ctrl_c_leaves_nothing_and_searches_say_how_to_resume() {
    let dir = scratch("interrupt");
    let out = dir.join("never");
    let o_s = out.to_str().unwrap();
    let long = "1000000000";
    for args in [
        vec!["compare", "--strategies", "greedy,random", "--rounds", long, "--out", o_s],
        vec!["sweep", "--set", "raise_cap=1,2", "--rounds", long, "--out", o_s],
        vec!["check", "--rounds", long],
    ] {
        let o = interrupt(&args, Duration::from_millis(1500));
        assert_eq!(o.status.code(), Some(130), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("draftsim: interrupted: no results were written"), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("error:"), "{args:?}: {}", stderr(&o));
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "{args:?}: nothing left behind");
    }
    for args in [
        vec!["tune", "--param", "raise_cap=1..3", "--minimize", "seat_advantage", "--rounds", long, "--out", o_s],
        vec!["exploit", "--preset", "hate", "--field", "greedy", "--param", "draft.weight=0..1", "--rounds", long],
    ] {
        let o = interrupt(&args, Duration::from_millis(1500));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(130), "{args:?}: {err}");
        assert!(err.contains("interrupted"), "{args:?}: {err}");
        if args.contains(&"--out") {
            assert!(err.contains("the same command resumes"), "{args:?}: {err}");
            assert!(!out.exists(), "{args:?}: no output folder");
            let left: Vec<String> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            assert_eq!(left, [".never.search-state.json"], "only the search's state is kept");
        } else {
            assert!(err.contains("give --out"), "{args:?}: {err}");
        }
    }
}

/// A constraint no candidate meets is said to be unmet, in the result and in the
/// candidates table.
#[test]
fn tune_says_when_its_constraint_is_not_met() {
    let dir = scratch("tune-constraint");
    let out = dir.join("t");
    let o = ok(&[
        "tune",
        "--game",
        "sevens",
        "--param",
        "ante=1..3",
        "--minimize",
        "seat_advantage",
        "--require",
        "skill_gap>=100",
        "--rounds",
        "8000",
        "--candidates",
        "4",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = stdout(&o);
    let best = text.lines().find(|l| l.starts_with("best ")).unwrap();
    assert!(best.contains("constraint not met"), "{text}");
    // The limit's verdict on the held-out interval, as sweep's --require gives it.
    assert!(
        text.lines().any(|l| l.starts_with("  held-out skill_gap: ") && l.ends_with(" (skill_gap>=100: fails)")),
        "{text}"
    );
    let table = draftsim::output::read_frame(&out.join("candidates.csv")).unwrap();
    let met = table.column("constraint").unwrap().str().unwrap().clone();
    assert!((0..met.len()).all(|i| met.get(i) == Some("not met")), "every candidate falls short");
    assert!(std::fs::read_to_string(out.join("best-rules.toml")).unwrap().contains("constraint not met"));
    assert_eq!(json(&out.join("study.json"))["constraint_met"], false);
    // The report's table of the held out says it of each row.
    let report = dir.join("report");
    ok(&["report", out.to_str().unwrap(), "--out", report.to_str().unwrap(), "--quiet"]);
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("| last stage | constraint (by the means) |"), "{md}");
    assert!(md.lines().filter(|l| l.ends_with("| not met |")).count() >= 2, "{md}");
    // The best's held-out figure and its limit's verdict on the interval, as the command
    // said them, and the penalty the objective's figure holds.
    let said = text.lines().find(|l| l.starts_with("  held-out skill_gap: ")).unwrap();
    let figure = said.trim_start_matches("  held-out skill_gap: ").trim_end_matches(" (skill_gap>=100: fails)");
    assert!(md.contains(&format!("- `skill_gap`: {figure}; `skill_gap>=100` fails\n")), "{figure}\n{md}");
    assert!(md.contains("the objective adds 1000 per unit of a limit's shortfall, and its figure"), "{md}");
    // A constraint every candidate meets: no such mark.
    let o = ok(&[
        "tune",
        "--game",
        "sevens",
        "--param",
        "ante=1..3",
        "--minimize",
        "seat_advantage",
        "--require",
        "skill_gap>=-100",
        "--rounds",
        "8000",
        "--candidates",
        "4",
        "--quiet",
    ]);
    assert!(!stdout(&o).contains("not met"), "{}", stdout(&o));
    assert!(stdout(&o).contains(" (skill_gap>=-100: met)"), "{}", stdout(&o));
}

/// The objective's interval is that of the value ranked: a metric whose interval
/// crosses its bound widens the objective's upper end by the penalty at the far end.
#[test]
fn the_objectives_interval_includes_the_penalty() {
    use draftsim::stats::Estimate;
    use draftsim::study::tune::{Objective, PENALTY};
    let o = Objective::from_flags(&["seat_advantage".into()], &[], &[], &["skill_gap>=5".into()]).unwrap();
    let at = |gap: Estimate| {
        o.evaluate(&|n| match n {
            "seat_advantage" => Some(Estimate { mean: 0.1, lo: 0.08, hi: 0.12 }),
            "skill_gap" => Some(gap),
            _ => None,
        })
    };
    // Met at the mean, not at the interval's low end: no penalty, but an upper end that
    // allows one.
    let e = at(Estimate { mean: 5.1, lo: 4.9, hi: 5.3 });
    assert!((e.mean - 0.1).abs() < 1e-9 && (e.lo - 0.08).abs() < 1e-9, "{e:?}");
    let above = (0.02f64.powi(2) + (0.1 * PENALTY).powi(2)).sqrt();
    assert!((e.hi - (0.1 + above)).abs() < 1e-6, "{e:?}");
    // Short of the bound: the penalty's own spread on both sides.
    let e = at(Estimate { mean: 4.0, lo: 3.8, hi: 4.2 });
    let half = (0.02f64.powi(2) + (0.2 * PENALTY).powi(2)).sqrt();
    assert!((e.mean - (0.1 + PENALTY)).abs() < 1e-6, "{e:?}");
    assert!((e.hi - e.mean - half).abs() < 1e-6 && (e.mean - e.lo - half).abs() < 1e-6, "{e:?}");
}

/// Every study's Parquet tables carry the study's metadata in the Arrow schema, as run's
/// carry the run's, and study.json records the rules and the seats.
#[test]
fn study_tables_carry_their_metadata() {
    let dir = scratch("metadata");
    let studies: [(&str, Vec<&str>, &str); 5] = [
        ("compare", vec!["compare", "--strategies", "greedy,random", "--rounds", "400"], "matrix"),
        ("sweep", vec!["sweep", "--set", "raise_cap=1,2", "--rounds", "400"], "sweep"),
        (
            "tune",
            vec![
                "tune",
                "--param",
                "raise_cap=1..3",
                "--minimize",
                "seat_advantage",
                "--rounds",
                "4000",
                "--candidates",
                "2",
            ],
            "candidates",
        ),
        (
            "exploit",
            vec![
                "exploit",
                "--preset",
                "hate",
                "--field",
                "greedy",
                "--param",
                "draft.weight=0..1",
                "--rounds",
                "4000",
            ],
            "candidates",
        ),
        ("calibrate", vec!["calibrate", "--seats", "greedy", "--rounds", "200"], "calibration"),
    ];
    for (kind, args, table) in studies {
        let out = dir.join(kind);
        ok(&[&args[..], &["--seed", "3", "--quiet", "--format", "parquet", "--out", out.to_str().unwrap()]].concat());
        let meta = json(&out.join("study.json"));
        let rules = meta["rules"].as_str().unwrap_or_default();
        assert!(rules.contains("players") && rules.contains("wild"), "{kind}: the rules in force: {meta}");
        // A comparison seats its strategies a pair at a time: they are its seats.
        let seats = if kind == "compare" { &meta["strategies"] } else { &meta["seats"] };
        assert!(seats.as_array().is_some_and(|s| !s.is_empty()), "{kind}: the seats: {meta}");
        let schema = draftsim::output::arrow_schema_metadata(&out.join(format!("{table}.parquet"))).unwrap();
        let get = |key: &str| schema.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
        assert_eq!(get("kind").as_deref(), Some(kind));
        assert_eq!(get("game").as_deref(), Some("seven-card-draft"), "{kind}");
        assert_eq!(get("seed").as_deref(), Some("3"), "{kind}");
        assert_eq!(get("rules").as_deref(), Some(rules), "{kind}");
        assert!(get("bots").is_some_and(|b| !b.is_empty()), "{kind}: {schema:?}");
        assert!(get("draftsim_version").is_some(), "{kind}");
        let whole: serde_json::Value = serde_json::from_str(&get("study_json").unwrap()).unwrap();
        assert_eq!(whole, meta, "{kind}: study.json in the schema");
    }
}

/// Every folder says what made it: the commit, the command line, the times and the text of
/// the rules files and custom presets named.
#[test]
fn a_folder_records_its_commit_command_times_and_files() {
    let dir = scratch("provenance");
    let rules = dir.join("cap.toml");
    std::fs::write(&rules, "raise_cap = 2\n").unwrap();
    let preset = dir.join("mine.toml");
    std::fs::write(&preset, std::fs::read_to_string("strategies/sevens/exact.toml").unwrap()).unwrap();
    let seats = format!("tight,{}", preset.display());
    for (name, args) in [
        ("run", vec!["run", "--game", "sevens", "--rules", rules.to_str().unwrap(), "--seats", &seats]),
        ("versus", vec!["versus", "--game", "sevens", "defaults", rules.to_str().unwrap(), "--seats", &seats]),
    ] {
        let out = dir.join(name);
        let args = [&args[..], &["--rounds", "400", "--quiet", "--out", out.to_str().unwrap()]].concat();
        ok(&args);
        let p = json(&out.join("provenance.json"));
        let version = stdout(&draftsim(&["--version"]));
        let commit = p["commit"].as_str().unwrap();
        assert!(version.contains(&format!("commit {commit}")), "{name}: {p} against {version}");
        let line: Vec<&str> = p["command_line"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
        assert_eq!(&line[1..], &args[..], "{name}");
        let (started, finished) = (p["started"].as_str().unwrap(), p["finished"].as_str().unwrap());
        assert!(started.len() == 20 && started.ends_with('Z') && started <= finished, "{name}: {p}");
        let files: Vec<(&str, &str)> = (p["files"].as_array().unwrap().iter())
            .map(|f| (f["path"].as_str().unwrap(), f["text"].as_str().unwrap()))
            .collect();
        assert_eq!(files.len(), 2, "{name}: {p}");
        assert_eq!(files[0], (rules.to_str().unwrap(), "raise_cap = 2\n"), "{name}");
        assert!(files[1].0 == preset.to_str().unwrap() && files[1].1.contains("module = \"exact\""), "{name}");
    }
}

/// A preset's per-round list longer than the rules' betting rounds is warned about, naming
/// the key and the seat; one that fits is not.
#[test]
fn preset_lists_past_the_betting_rounds_are_warned_about() {
    let dir = scratch("unread-lists");
    let rules = dir.join("two-rounds.toml");
    std::fs::write(&rules, "bet_after_picks = [4, 7]\nbet_sizes = [1, 2]\n").unwrap();
    let r = rules.to_str().unwrap();
    let long = "tight{bet.fold_below=[0.3,0.4,0.5]}";
    let err = stderr(&ok(&["run", "--rules", r, "--seats", &format!("{long},greedy"), "--rounds", "40"]));
    let warning = format!(
        "warning: {long}: bet.fold_below gives 3 values, but these rules bet in 2 rounds (bet_after_picks): only the first 2 are read"
    );
    assert!(err.contains(&warning), "{err}");
    assert_eq!(err.matches("bet.fold_below gives").count(), 1, "one warning a strategy, however often seated: {err}");
    // Shipped presets, written for the default rules, and overrides of other keys are not
    // the user's lists to mend.
    let err = stderr(&ok(&["run", "--rules", r, "--seats", "tight,tight{bet.respect=0.5},greedy", "--rounds", "40"]));
    assert!(!err.contains("warning"), "{err}");
    // Under the default three rounds the same preset reads every value.
    let err = stderr(&ok(&["run", "--seats", &format!("{long},greedy"), "--rounds", "40"]));
    assert!(!err.contains("warning"), "{err}");
}

/// Rules options that do nothing get a warning on stderr, from every command that plays.
#[test]
fn rules_that_do_nothing_are_warned_about() {
    let dir = scratch("warnings");
    let rules = dir.join("deuces.toml");
    std::fs::write(&rules, "deck = \"no-deuces-48\"\nwild = \"deuces\"\n").unwrap();
    let r = rules.to_str().unwrap();
    for args in [
        vec!["run", "--rules", r, "--rounds", "200"],
        vec!["check", "--rules", r, "--rounds", "200"],
        vec!["compare", "--rules", r, "--strategies", "greedy,random", "--rounds", "200"],
        vec!["sweep", "--rules", r, "--set", "raise_cap=1,2", "--rounds", "200"],
    ] {
        let err = stderr(&ok(&args));
        let warning = err.lines().find(|l| l.contains("warning")).unwrap_or_else(|| panic!("{args:?}: {err}"));
        assert!(warning.contains("wild") && warning.contains("no 2"), "{args:?}: {warning}");
    }
    // A sweep warns for the variants where it holds.
    let err =
        stderr(&ok(&["sweep", "--set", "deck=standard-52,no-deuces-48", "--set", "wild=deuces", "--rounds", "200"]));
    let warning = err.lines().find(|l| l.contains("warning")).unwrap_or_else(|| panic!("{err}"));
    assert!(warning.contains("deck=no-deuces-48") && !warning.contains("standard-52"), "{warning}");
    // Other options that do nothing.
    for (text, key) in [
        ("ranks = [\"6\",\"7\",\"8\",\"9\",\"T\",\"J\",\"Q\",\"K\",\"A\"]\ndeck = \"piquet-32\"\n", "deck"),
        ("max_rounds_per_game = 50\n", "max_rounds_per_game"),
        (
            "ranks = [\"2\",\"3\",\"4\",\"5\",\"6\",\"7\",\"8\",\"9\",\"T\",\"A\"]\nwild = \"rank-9-with-face\"\n",
            "J, Q or K",
        ),
    ] {
        std::fs::write(&rules, text).unwrap();
        let err = stderr(&ok(&["run", "--rules", r, "--rounds", "200", "--players", "2"]));
        assert!(err.lines().any(|l| l.contains("warning") && l.contains(key)), "{text}: {err}");
    }
    // The other games' options that count only beside another.
    for (game, text, key) in [
        ("sevens", "max_carry_hands = 5\n", "max_carry_hands"),
        ("seven-poker", "unit = \"round\"\nmax_rounds = 50\n", "max_rounds"),
        ("winston-crazier-eights", "later_starter = \"winner\"\n", "later_starter"),
        ("winston-crazier-eights", "ranks = 7\n", "eights_wild"),
        ("live-draft", "method = \"blind\"\nrow = 5\n", "row"),
        ("live-draft", "opening = \"careful\"\nmax_mulligans = 3\n", "max_mulligans"),
        ("live-draft", "method = \"rummy\"\nwipe_counters = \"nobody\"\n", "wipe_counters"),
        ("live-draft", "library_size = 100\n[[cards]]\ncolour = 1\ncost = 0\ncount = 50\n", "library_size"),
        ("live-draft", "land_share = 0.4\n[[cards]]\ncolour = 1\ncost = 0\ncount = 50\n", "land_share"),
    ] {
        std::fs::write(&rules, text).unwrap();
        let err = stderr(&ok(&["run", "--game", game, "--rules", r, "--rounds", "20"]));
        assert!(err.lines().any(|l| l.contains("warning") && l.contains(key)), "{game} {text}: {err}");
        let err = stderr(&ok(&["run", "--game", game, "--rounds", "20"]));
        assert!(!err.contains("warning"), "{game} defaults: {err}");
    }
    // A key left at a default that another key set makes invalid is named with what to set.
    for (game, text, says) in [
        ("winston-crazier-eights", "colours = [\"red\", \"blue\"]\n", "set max_colours too"),
        ("winston-crazier-eights", "expansion = 0\n", "set multicoloured too (its default is 10)"),
        ("live-draft", "hand_size = 10\n", "set max_hand too"),
    ] {
        std::fs::write(&rules, text).unwrap();
        let o = draftsim(&["run", "--game", game, "--rules", r, "--rounds", "20", "--quiet"]);
        assert_eq!(o.status.code(), Some(2), "{game} {text}");
        assert!(stderr(&o).contains(says) && stderr(&o).lines().count() == 1, "{game} {text}: {}", stderr(&o));
    }
    // Rules that all count: no warning. A warning prints under --quiet too.
    let err = stderr(&ok(&["run", "--rounds", "200"]));
    assert!(!err.contains("warning"), "{err}");
    std::fs::write(&rules, "deck = \"no-deuces-48\"\nwild = \"deuces\"\n").unwrap();
    let err = stderr(&ok(&["run", "--rules", r, "--rounds", "200", "--quiet"]));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("warning: wild: 2s wild (\"deuces\")"), "{err}");
    // A rule written another way is named by what it does, not only by the name it reads as.
    std::fs::write(&rules, "deck = \"no-deuces-48\"\nwild = \"rank-2\"\n").unwrap();
    let err = stderr(&ok(&["run", "--rules", r, "--rounds", "200", "--quiet"]));
    assert!(err.contains("warning: wild: 2s wild"), "{err}");
}

/// The progress bar's rate is a whole number per second. The bar draws only on a
/// terminal, so the command's stderr is a pseudo-terminal here.
#[test]
fn the_progress_rate_is_a_whole_number() {
    // Until the bar has moved (the first batch done; Ctrl-C stops within a deal, so nothing
    // is drawn after it), however loaded the machine.
    let drawn = |text: &str| text.split("/s").count() > 1;
    let text = on_a_terminal(&["run", "--rounds", "1000000000", "--threads", "1"], &drawn, Duration::from_secs(60));
    let rates: Vec<&str> = text
        .split("/s")
        .filter_map(|before| before.rsplit(|c: char| !(c.is_ascii_digit() || c == '.' || c == ',')).next())
        .filter(|r| r.chars().any(|c| c.is_ascii_digit()))
        .collect();
    assert!(!rates.is_empty(), "no rate drawn: {text:?}");
    assert!(rates.iter().all(|r| !r.contains('.')), "rates with decimals: {rates:?}");
}

/// Runs the binary with stderr on a pseudo-terminal until what it drew there satisfies
/// `enough` (or `at_most` passes), then Ctrl-C; returns what it drew.
fn on_a_terminal(args: &[&str], enough: &dyn Fn(&str) -> bool, at_most: Duration) -> String {
    use std::io::Read;
    use std::os::fd::FromRawFd;
    // SAFETY: plain POSIX pseudo-terminal calls on descriptors this function owns.
    let (master, slave) = unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(master >= 0, "no pseudo-terminal");
        assert_eq!(libc::grantpt(master), 0);
        assert_eq!(libc::unlockpt(master), 0);
        let mut name = [0 as libc::c_char; 128];
        assert_eq!(libc::ptsname_r(master, name.as_mut_ptr(), name.len()), 0);
        let size = libc::winsize { ws_row: 40, ws_col: 200, ws_xpixel: 0, ws_ypixel: 0 };
        libc::ioctl(master, libc::TIOCSWINSZ, &size);
        let slave = libc::open(name.as_ptr(), libc::O_RDWR | libc::O_NOCTTY);
        assert!(slave >= 0);
        (std::fs::File::from_raw_fd(master), std::fs::File::from_raw_fd(slave))
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_draftsim"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::from(slave))
        .spawn()
        .unwrap();
    let drawn = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let reader = std::thread::spawn({
        let drawn = drawn.clone();
        move || {
            let mut master = master;
            let mut buf = [0u8; 4096];
            // Reading ends with an error (EIO) once the child, the last holder of the
            // terminal's other end, exits.
            while let Ok(n) = master.read(&mut buf) {
                if n == 0 {
                    break;
                }
                drawn.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        }
    });
    let text = || String::from_utf8_lossy(&drawn.lock().unwrap()).into_owned();
    let started = std::time::Instant::now();
    while !enough(&text()) && started.elapsed() < at_most {
        std::thread::sleep(Duration::from_millis(100));
    }
    let killed = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    child.wait().unwrap();
    reader.join().unwrap();
    text()
}

/// The held-out winner is a candidate that meets the constraints when one does, even
/// when one that falls short scores better (a shortfall too small for the penalty to
/// outweigh the difference).
#[test]
fn a_candidate_that_meets_the_constraints_wins() {
    use draftsim::stats::Estimate;
    use draftsim::study::optimise::{Evaluator, OptimiserConfig, OptimiserState, Param, Setting, optimise};

    /// Scores by the setting alone: `a` best but infeasible, then `b`, `c`, `d`.
    struct Planted;
    impl Evaluator for Planted {
        type Sample = (String, u64);
        fn play(&self, setting: &Setting, _seed: u64, rounds: u64) -> Result<(String, u64), draftsim::Error> {
            Ok((setting[0].1.clone(), rounds))
        }
        fn merge(&self, into: &mut (String, u64), more: &(String, u64)) {
            into.1 += more.1;
        }
        fn score(&self, sample: &(String, u64)) -> Estimate {
            let mean = match sample.0.as_str() {
                "a" => 0.0,
                "b" => 1.0,
                "c" => 2.0,
                _ => 3.0,
            };
            Estimate { mean, lo: mean - 0.1, hi: mean + 0.1 }
        }
        fn rounds(&self, sample: &(String, u64)) -> u64 {
            sample.1
        }
        fn feasible(&self, sample: &(String, u64)) -> bool {
            sample.0 != "a"
        }
    }
    let params = [Param::parse("x=a,b,c,d").unwrap()];
    let config = OptimiserConfig { seed: 1, budget: 10_000, candidates: 4, runners_up: 2 };
    let mut state = OptimiserState::default();
    let r = optimise(&Planted, &params, &config, &mut state, &mut |_| Ok(()), &mut |_, _, _| {}).unwrap();
    let held: Vec<&str> = r.candidates.iter().filter(|c| c.rank > 0).map(|c| c.setting[0].1.as_str()).collect();
    assert!(held.contains(&"a"), "the infeasible best is held out: {held:?}");
    let best = &r.candidates[r.best];
    assert_eq!(best.setting[0].1, "b", "the best feasible candidate wins");
    assert!(best.constraint_met);
    let a = r.candidates.iter().find(|c| c.setting[0].1 == "a").unwrap();
    assert!(!a.constraint_met && a.rank > 1, "{a:?}");
}

/// The shipped trained presets play from any folder (the binary carries their policies),
/// and a policy folder on disk at the preset's path is read instead.
#[test]
fn trained_presets_play_from_any_folder() {
    let dir = scratch("elsewhere");
    for (game, seats, rounds) in [
        ("kuhn-poker", "cfr,tight", "2"),
        ("leduc-poker", "cfr,tight", "2"),
        ("seven-card-draft", "cfr,tight,cfr,tight", "6"),
        ("seven-card-draft", "cfr-heads-up,tight", "2"),
        ("sevens", "cfr,tight,cfr,tight", "6"),
        ("sevens", "cfr-heads-up,tight", "2"),
        ("seven-poker", "cfr,adaptive,cfr,adaptive", "6"),
    ] {
        let out = dir.join(format!("{game}-{}", seats.len()));
        let o = Command::new(env!("CARGO_BIN_EXE_draftsim"))
            .args(["run", "--game", game, "--seats", seats, "--rounds", rounds, "--quiet", "--out"])
            .arg(&out)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(o.status.success(), "{game} {seats}: {}", stderr(&o));
        assert!(out.join("pairs.csv").is_file() || out.join("strategies.csv").is_file(), "{game} {seats}");
    }
    let local = dir.join("strategies/sevens/cfr");
    std::fs::create_dir_all(&local).unwrap();
    std::fs::write(local.join("policy.json"), "{").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_draftsim"))
        .args(["run", "--game", "sevens", "--seats", "cfr,tight,cfr,tight", "--rounds", "6", "--quiet"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a policy file"), "{}", stderr(&o));
}

/// `sweep --seats a,b` fills the rules' table with the two as a field, where `run` seats
/// one each: its note says so and how to seat one each.
#[test]
fn a_sweep_says_when_its_seats_are_a_field() {
    let args = ["sweep", "--seats", "greedy,tight", "--set", "ante=1,2", "--rounds", "24"];
    let err = stderr(&ok(&args));
    assert!(
        err.contains("4 players · seats greedy,tight (a field filling the 4 seats; --players 2 seats one each)"),
        "{err}"
    );
    let err = stderr(&ok(&[&args[..], &["--players", "2"]].concat()));
    assert!(err.contains("2 players · seats greedy,tight ·"), "{err}");
    let err = stderr(&ok(&["sweep", "--seats", "greedy,tight", "--set", "players=2,4", "--rounds", "24"]));
    assert!(err.contains("players 2,4 · seats greedy,tight ·"), "{err}");
}

/// Refusals that say what is wrong in the user's terms: a missing folder, a range or an
/// effect written backwards, a task index past the shards, and the game's own table size.
#[test]
fn refusals_name_the_actual_fault() {
    refused(&["report", "/nonexistent/draftsim-results", "--out", "/tmp/never-written"], "no such folder");
    refused(
        &["exploit", "--preset", "hate", "--field", "greedy", "--param", "draft.weight=1..0"],
        "the range runs backwards; write draft.weight=0..1",
    );
    refused(
        &["versus", "defaults", "defaults", "--min-effect", "score=-1"],
        "an effect is a size, 0 or more; write score=1",
    );
    refused(&["run", "--game", "winston-crazier-eights", "--seats", "value"], "give --players 2 to seat them in turn");
    // A strategy named twice: the fix offered is one the command then takes.
    let seats = "tight,bluffer,greedy,random,tight,tight,tight";
    refused(
        &["run", "--game", "sevens", "--seats", seats],
        "list each strategy once and give --players 4 to seat them in turn",
    );
    let o = draftsim(&[
        "run",
        "--game",
        "sevens",
        "--seats",
        "tight,bluffer,greedy,random",
        "--players",
        "4",
        "--rounds",
        "48",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = Command::new(env!("CARGO_BIN_EXE_draftsim"))
        .args(["run", "--rounds", "10", "--shard", "auto/2", "--out", "/tmp/never-written"])
        .env("SLURM_ARRAY_TASK_ID", "5")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("the task index is 5, but 2 shards run 0 to 1"), "{}", stderr(&o));
}

/// A refusal names the input at fault: the --players count the rules refuse (not the rules
/// file), a --seats name no side knows (not a side's rules), the one rules key out of range.
#[test]
fn a_refusal_names_the_input_at_fault() {
    let dir = scratch("at-fault");
    let file = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let piquet = file("piquet.toml", "deck = \"piquet-32\"\n");
    refused(&["check", "--rules", &piquet, "--players", "5", "--rounds", "10"], "error: --players: players = 5");
    let cap = file("cap.toml", "raise_cap = 2\n");
    refused(
        &["versus", "--game", "sevens", "defaults", &cap, "--seats", "tight,hate", "--rounds", "10"],
        "error: --seats: unknown strategy 'hate'",
    );
    let missing = dir.join("missing.toml");
    let seats = format!("tight,{}", missing.display());
    refused(
        &["versus", "--game", "sevens", "defaults", &cap, "--seats", &seats, "--rounds", "10"],
        "error: --seats: strategy file",
    );
    // A seat list of the wrong length is the list's fault under a rules file too, and play
    // cures it its own way.
    refused(
        &["play", "--game", "sevens", "--rules", &cap, "--seats", "you", "--rounds", "1"],
        "error: --seats names 1 strategy, so players = 1: Sevens seats 2 to 6 players (36 cards cover every deal and trade); play seats the list as given",
    );
    for (game, text, says) in [
        ("seven-poker", "max_exchange = 8\n", "max_exchange = 8: use 0 to 7"),
        ("seven-poker", "shown = 9\n", "shown = 9: use 0 to 7"),
        ("sevens", "raise_size = 0\n", "raise_size = 0: give at least 1"),
        ("live-draft", "hand_size = 11\n", "hand_size = 11: use 1 to 10"),
        ("live-draft", "hand_size = 5\nmax_hand = 4\n", "max_hand = 4: use hand_size (5) to 20"),
    ] {
        let rules = file("rules.toml", text);
        refused(&["check", "--game", game, "--rules", &rules, "--rounds", "10"], says);
    }
}
