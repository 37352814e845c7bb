//! Seats decided outside the process: an external bot over JSON lines in every game, bots
//! that answer illegally, print garbage, time out and crash, and the human seat of
//! `draftsim play` driven by piped answers and through a terminal.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::*;

const FILE: &str = "outside";

/// Every game, with the preset that fills the other seats.
const GAMES: [&str; 7] =
    ["seven-card-draft", "sevens", "seven-poker", "winston-crazier-eights", "live-draft", "kuhn-poker", "leduc-poker"];

fn python_bot() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/bots/random_bot.py");
    format!("ext{{cmd=\"python3 {}\"}}", path.display())
}

/// A bot script in `dir` (Python, standard library only), seated with `options`.
fn script_bot(dir: &Path, name: &str, body: &str, options: &str) -> String {
    let path = dir.join(format!("{name}.py"));
    let text = format!(
        "import json, os, sys, time\nfor line in sys.stdin:\n    msg = json.loads(line)\n    if msg['type'] != 'decide':\n        continue\n{body}\n"
    );
    std::fs::write(&path, text).unwrap();
    format!("ext{{cmd=\"python3 {}\"{options}}}", path.display())
}

/// The `outside` table's row of the seat named `name` as (decisions, illegal, garbage,
/// timeouts, crashes, fallbacks).
fn faults(dir: &Path, name: &str) -> [u64; 6] {
    let mut reader = csv::Reader::from_path(dir.join("outside.csv")).unwrap();
    let row = reader.records().map(|r| r.unwrap()).find(|r| &r[0] == name).expect("the bot's row");
    std::array::from_fn(|i| row[i + 1].parse().unwrap())
}

fn out_dir(dir: &Path, name: &str) -> PathBuf {
    dir.join(name)
}

#[test]
fn a_python_bot_plays_every_game_and_is_deterministic() {
    let dir = scratch(FILE, "python");
    let bot = python_bot();
    for game in GAMES {
        let out = out_dir(&dir, game);
        // Seven Poker seats 3 to 5 players; the others two or more.
        let seats = if game == "seven-poker" { format!("{bot},random,random") } else { format!("{bot},random") };
        let o = draftsim(&["run", "--game", game, "--seats", &seats, "--rounds", "20", "--out", out.to_str().unwrap()]);
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        assert!(stdout(&o).contains("external bots"), "{game}: {}", stdout(&o));
        let [decisions, rest @ ..] = faults(&out, &bot);
        assert!(decisions >= 20, "{game}: {decisions} decisions");
        assert_eq!(rest, [0; 5], "{game}: a well-behaved bot has no fault");
    }
    // The same tables on one thread and two: the bot seeds itself from each unit's seed.
    let seats = format!("{bot},tight,greedy");
    on_one_and_two_threads(&["run", "--game", "sevens", "--seats", &seats, "--rounds", "300"]);
}

/// A preset file with `module = "ext"` seats the same program under the file's name: the
/// same tables as the inline form, the label aside; a file missing `cmd` is refused.
#[test]
fn a_preset_file_seats_an_external_bot_under_its_name() {
    let dir = scratch(FILE, "preset-file");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/bots/random_bot.py");
    let file = dir.join("mybot.toml");
    std::fs::write(
        &file,
        format!("module = \"ext\"\ndescription = \"a random legal move\"\ncmd = \"python3 {}\"\n", script.display()),
    )
    .unwrap();
    let name = file.to_str().unwrap();
    let run = |seat: &str, out: &str| {
        let out = out_dir(&dir, out);
        let seats = format!("{seat},tight");
        let o =
            draftsim(&["run", "--game", "sevens", "--seats", &seats, "--rounds", "60", "--out", out.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        out
    };
    let (by_file, inline) = (run(name, "file"), run(&python_bot(), "inline"));
    let [decisions, rest @ ..] = faults(&by_file, name);
    assert!(decisions >= 60 && rest == [0; 5], "{decisions} {rest:?}");
    let table = |d: &Path, label: &str| -> Vec<Vec<String>> {
        let mut reader = csv::Reader::from_path(d.join("summary.csv")).unwrap();
        let rows = reader.records().map(|r| r.unwrap().iter().map(|f| f.replace(label, "BOT")).collect());
        rows.collect()
    };
    let rows = table(&by_file, name);
    assert!(rows.iter().any(|r| r[0] == "BOT"), "{rows:?}");
    assert_eq!(rows, table(&inline, &python_bot()));
    let bad = dir.join("nocmd.toml");
    std::fs::write(&bad, "module = \"ext\"\ntimeout_ms = 500\n").unwrap();
    let seats = format!("{},tight", bad.display());
    let o = draftsim(&["run", "--game", "sevens", "--seats", &seats, "--rounds", "4"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("cmd is missing or empty; give the command"), "{}", stderr(&o));
}

/// A sharded run with an external bot merges to the unsharded run's tables, its `outside`
/// table (decisions and faults, which no tally holds) summed over the shards; a shard
/// without one is refused.
#[test]
fn shards_with_an_external_bot_merge_its_outside_table() {
    let dir = scratch(FILE, "shards");
    let seats = format!("{},tight", python_bot());
    let path = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let run = |extra: &[&str]| {
        let base = ["run", "--game", "kuhn-poker", "--seats", &seats, "--rounds", "400", "--quiet"];
        let o = draftsim(&[&base[..], extra].concat());
        assert!(o.status.success(), "{extra:?}: {}", stderr(&o));
    };
    run(&["--out", &path("whole")]);
    run(&["--shard", "0/2", "--out", &path("s0")]);
    run(&["--shard", "1/2", "--out", &path("s1")]);
    let (s0, s1) = (faults(&dir.join("s0"), &python_bot())[0], faults(&dir.join("s1"), &python_bot())[0]);
    assert!(s0 > 0 && s1 > 0, "each shard asked the bot: {s0}, {s1}");
    let o = draftsim(&["merge", &path("s0"), &path("s1"), "--out", &path("merged"), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(faults(&dir.join("merged"), &python_bot())[0], s0 + s1);
    // The screen shows the shards' counts too, not those of programs the merge never ran.
    let text = stdout(&o);
    let (_, table) = text.split_once("external bots").expect("the outside table is shown");
    let row = table.lines().find(|l| l.starts_with("ext{")).expect("the bot's row");
    // The name holds a space: the counts are read from the row's end.
    let counts: Vec<&str> = row.split_whitespace().rev().take(6).collect();
    assert_eq!(counts[5], (s0 + s1).to_string(), "{text}");
    let tables = |d: &str| files(&dir.join(d)).into_iter().filter(|(n, _)| n.ends_with(".csv")).collect::<Vec<_>>();
    assert_eq!(tables("merged"), tables("whole"), "the merged tables are the unsharded run's");
    // A shard folder that lost its outside table is refused, naming it.
    std::fs::remove_file(dir.join("s1/outside.csv")).unwrap();
    let o = draftsim(&["merge", &path("s0"), &path("s1"), "--out", &path("m2"), "--quiet"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no outside table"), "{}", stderr(&o));
    assert!(!dir.join("m2").exists());
}

#[test]
fn the_rust_example_bot_calls_and_never_folds() {
    let bin = Path::new(env!("CARGO_BIN_EXE_draftsim")).parent().unwrap().join("examples/calling_station");
    if !bin.exists() {
        // `cargo test` builds the examples before any test runs; a run of `--test all`
        // alone does not (building it here would compile polars again).
        eprintln!("{} is not built: run the whole `cargo test --release`", bin.display());
        return;
    }
    let seats = format!("ext{{cmd=\"{}\"}},tight", bin.display());
    let o = draftsim(&["run", "--game", "kuhn-poker", "--seats", &seats, "--rounds", "400", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    // It only checks and calls, where tight raises.
    assert_eq!((row_value(&text, "ext{", "fold_rate"), row_value(&text, "ext{", "mean_raises")), (0.0, 0.0), "{text}");
    assert!(row_value(&text, "tight", "mean_raises") > 0.0, "{text}");
}

#[test]
fn illegal_answers_and_garbage_play_the_fallback_and_are_counted() {
    let dir = scratch(FILE, "misbehave");
    let illegal = script_bot(&dir, "illegal", "    print(json.dumps({'move': 999}), flush=True)", "");
    let garbage = script_bot(&dir, "garbage", "    print('fold, I think', flush=True)", "");
    for (bot, column) in [(&illegal, 1), (&garbage, 2)] {
        let out = out_dir(&dir, if column == 1 { "illegal" } else { "garbage" });
        let seats = format!("{bot},tight");
        let o =
            draftsim(&["run", "--game", "sevens", "--seats", &seats, "--rounds", "40", "--out", out.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        let f = faults(&out, bot);
        assert!(f[0] > 0 && f[column] == f[0] && f[5] == f[0], "{bot}: {f:?}");
        assert!(stderr(&o).contains(&format!("{bot}: {} ", f[column])), "{}", stderr(&o));
        // The program's own first faulty line is quoted.
        let first = if column == 1 { r#"the first: `{"move": 999}`"# } else { "the first: `fold, I think`" };
        assert!(stderr(&o).contains(first), "{first}: {}", stderr(&o));
        // The report says the program's figures are the fallback's.
        let page = out_dir(&dir, if column == 1 { "illegal-report" } else { "garbage-report" });
        let r = draftsim(&["report", out.to_str().unwrap(), "--out", page.to_str().unwrap(), "--quiet"]);
        assert!(r.status.success(), "{}", stderr(&r));
        let md = std::fs::read_to_string(page.join("report.md")).unwrap();
        let said = format!("**Warning:** `{bot}` made {} of its {} decisions by the fallback", f[5], f[0]);
        assert!(md.contains(&said), "{said}\n{md}");
    }
    // A person playing against it is told which of its moves were played for it.
    let seats = format!("you,{illegal}");
    let o = play_piped(&["--game", "kuhn-poker", "--seats", &seats, "--rounds", "2", "--seed", "1"], &"1\n".repeat(9));
    assert!(o.status.success(), "{}", stderr(&o));
    // Lines are cut at spaces (its name is long): the words are joined again.
    let text = stdout(&o).replace("\n      ", " ");
    // Its moves as they are played (not the account at the end, nor its result).
    let moves: Vec<&str> =
        text.lines().filter(|l| l.starts_with("  seat 1 (") && l.contains("): ") && !l.contains(" chip")).collect();
    assert!(!moves.is_empty(), "{text}");
    let marked = "(played for it at random: its program gave no usable answer)";
    assert!(moves.iter().all(|l| l.ends_with(marked)), "{moves:#?}");
    // The account at each unit's end counts them too, as the moves do not mark them there.
    let counted: usize = (text.lines())
        .filter_map(|l| {
            l.strip_prefix("-- seat 1 (")?.split_once(") had ")?.1.split_once(" move")?.0.parse::<usize>().ok()
        })
        .sum();
    assert_eq!(counted, moves.len(), "{text}");
    // Commands without an outside table warn of the faults all the same.
    let seats = format!("{illegal},tight");
    for args in [
        vec!["check", "--game", "sevens", "--seats", &seats, "--rounds", "40", "--quiet"],
        vec!["compare", "--game", "sevens", "--strategies", &seats, "--rounds", "40", "--quiet"],
    ] {
        let o = draftsim(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let warned =
            stderr(&o).lines().any(|l| l.contains("warning") && l.contains(&illegal) && l.contains("illegal answers"));
        assert!(warned, "{args:?}: {}", stderr(&o));
    }
    // A whole number written as a float is the move it names, as the schema's integer reads it.
    let float = script_bot(&dir, "float", "    print(json.dumps({'move': 0.0, 'n': float(msg['n'])}), flush=True)", "");
    let out = out_dir(&dir, "float");
    let seats = format!("{float},tight");
    let o =
        draftsim(&["run", "--game", "kuhn-poker", "--seats", &seats, "--rounds", "40", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let f = faults(&out, &float);
    assert_eq!(f[1..], [0; 5], "{f:?}");
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
}

#[test]
fn a_late_answer_naming_another_decision_is_ignored() {
    let dir = scratch(FILE, "late");
    // Before each answer, a stale one naming the decision before.
    let late = script_bot(
        &dir,
        "late",
        "    print(json.dumps({'move': 0, 'n': msg['n'] - 1}), flush=True)\n    print(json.dumps({'move': 0, 'n': msg['n']}), flush=True)",
        "",
    );
    let out = dir.join("late-out");
    let seats = format!("{late},tight");
    let o =
        draftsim(&["run", "--game", "kuhn-poker", "--seats", &seats, "--rounds", "40", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let f = faults(&out, &late);
    assert_eq!((f[2], f[5]), (f[0], 0), "each stale answer is garbage, and no decision falls back: {f:?}");
    // The closing warning says so: nothing was played for the bot.
    assert!(stderr(&o).contains("garbage lines in") && stderr(&o).contains("no move played for it"), "{}", stderr(&o));
}

#[test]
fn a_bot_that_times_out_or_crashes_once_is_restarted_and_the_run_finishes() {
    let dir = scratch(FILE, "once");
    let mark = |name: &str| dir.join(name).display().to_string();
    // The first copy of each misbehaves at its first decision; the copies started after it
    // answer 0.
    let slow = script_bot(
        &dir,
        "slow",
        &format!(
            "    if not os.path.exists('{m}'):\n        open('{m}', 'w').close()\n        time.sleep(30)\n    print(0, flush=True)",
            m = mark("slow.mark")
        ),
        // Long enough for a fresh Python to answer on a busy machine.
        ";timeout_ms=3000",
    );
    let crash = script_bot(
        &dir,
        "crash",
        &format!(
            "    if not os.path.exists('{m}'):\n        open('{m}', 'w').close()\n        sys.exit(3)\n    print(0, flush=True)",
            m = mark("crash.mark")
        ),
        "",
    );
    for (bot, column) in [(&slow, 3), (&crash, 4)] {
        let out = out_dir(&dir, if column == 3 { "slow" } else { "crash" });
        let seats = format!("{bot},tight");
        let o = draftsim(&[
            "run",
            "--game",
            "kuhn-poker",
            "--seats",
            &seats,
            "--rounds",
            "40",
            "--threads",
            "1",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let f = faults(&out, bot);
        assert_eq!((f[column], f[5]), (1, 1), "{bot}: {f:?}");
    }
}

#[test]
fn a_bot_that_keeps_failing_stops_the_run_with_one_line() {
    let dir = scratch(FILE, "failing");
    let slow = script_bot(&dir, "slow", "    time.sleep(30)", ";timeout_ms=100;max_failures=2");
    let dead = script_bot(&dir, "dead", "    sys.exit(1)", "");
    for bot in [slow, dead] {
        let out = dir.join("never");
        let seats = format!("{bot},tight");
        let o = draftsim(&[
            "run",
            "--game",
            "kuhn-poker",
            "--seats",
            &seats,
            "--rounds",
            "40",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().filter(|l| l.starts_with("error")).count(), 1, "{err}");
        assert!(err.contains("the program failed"), "{err}");
        // A timeout names its likely cause and its setting; a crash does not.
        let timed_out = bot.contains("slow");
        // A program that never named a move is told where its paths are read from, not to
        // be allowed more failures.
        assert_eq!(err.contains("max_failures"), timed_out, "{err}");
        assert_eq!(err.contains("it never answered a decision: run it by hand in /"), !timed_out, "{err}");
        assert_eq!(
            err.contains("flush standard output after each line, or allow more with timeout_ms"),
            timed_out,
            "{err}"
        );
        assert!(!out.exists(), "nothing is written");
    }
    // `check` says the program failed, not that the game broke a rule it could replay.
    let dead = script_bot(&dir, "dead", "    sys.exit(1)", "");
    let seats = format!("{dead},tight");
    let o = draftsim(&["check", "--game", "kuhn-poker", "--seats", &seats, "--rounds", "40"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("the program failed"), "{}", stderr(&o));
    assert!(!stdout(&o).contains("replay it with"), "{}", stdout(&o));
    // A command the shell cannot find is named as such, at once: starting it again would
    // fail alike.
    let o =
        draftsim(&["run", "--game", "kuhn-poker", "--seats", "ext{cmd=\"no-such-bot-here\"},tight", "--rounds", "40"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("`sh` could not find a command of `no-such-bot-here` (status 127"), "{err}");
    assert_eq!(err.matches("not found").count(), 1, "started once: {err}");
    let not_executable = dir.join("bot.txt");
    std::fs::write(&not_executable, "").unwrap();
    let seats = format!("ext{{cmd=\"{}\"}},tight", not_executable.display());
    let o = draftsim(&["run", "--game", "kuhn-poker", "--seats", &seats, "--rounds", "40"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("(status 126: not executable?): chmod +x it"), "{}", stderr(&o));
    // A program that prints for people and ends is told so: not a crash of status 0 alone.
    let o = draftsim(&["run", "--game", "kuhn-poker", "--seats", "ext{cmd=\"echo hello\"},tight", "--rounds", "40"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let said = stderr(&o);
    assert!(said.contains("ended of itself (status 0) before it was done"), "{said}");
    assert!(said.contains("lines that were not answers (an answer is a move's id"), "{said}");
    // The shell's own message is passed on led by the seat's name, before the error.
    let said = err.find("[ext{cmd=\"no-such-bot-here\"}] sh: ").expect(&err);
    assert!(err[said..].contains("not found") && said < err.find("error").unwrap(), "{err}");
    // calibrate measures a preset's drafting module, which a program has not got.
    let o = draftsim(&["calibrate", "--seats", &dead, "--rounds", "40"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("name a preset"), "{}", stderr(&o));
    // The exact exploitability would ask it every information set: refused before a word
    // of the measurement is said, naming the bound by play that takes it.
    let o = draftsim(&["exploitability", "--game", "kuhn-poker", "--seats", &dead]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("--bound lower"), "{}", stderr(&o));
    let o = draftsim(&["run", "--game", "sevens", "--seats", "ext{cmd=\"x\";speed=3},tight"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("speed"), "{}", stderr(&o));
    // A replay names the faults, whose moves its account shows in the bot's name.
    let o = draftsim(&["replay", "--game", "kuhn-poker", "--seats", "ext{cmd=\"false\"},tight", "--round", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("external bots (a fault plays a random legal move instead)"), "{}", stdout(&o));
}

/// `draftsim play ARGS` with `answers` piped in.
fn play_piped(args: &[&str], answers: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = spawn_play(args);
    let mut stdin = child.stdin.take().unwrap();
    // The command may stop reading before the answers run out.
    let _ = stdin.write_all(answers.as_bytes());
    drop(stdin);
    child.wait_with_output().unwrap()
}

#[test]
fn a_person_plays_every_game_from_piped_answers() {
    let dir = scratch(FILE, "play");
    let answers = "1\n".repeat(5000);
    for game in GAMES {
        let out = out_dir(&dir, game);
        let o = play_piped(&["--game", game, "--rounds", "2", "--seed", "5", "--out", out.to_str().unwrap()], &answers);
        let text = stdout(&o);
        assert!(o.status.success(), "{game}: {}\n{text}", stderr(&o));
        assert!(text.contains("Your moves:") && text.contains("your move (1-"), "{game}: {text}");
        // Each answer is said back as the move it chose, the first of the menu.
        let first = text.split("Your moves:\n").nth(1).and_then(|m| m.lines().next()).unwrap();
        let first = first.trim_start().split_once(") ").unwrap().1;
        assert!(text.contains(&format!("\n  you: {first}")), "{game}: {text}");
        assert!(text.contains("== Result"), "{game}: the reveal");
        // The reveal says what it is before it tells the unit again.
        let reveal = text.find("=== Told again, every card shown").unwrap_or_else(|| panic!("{game}: {text}"));
        assert!(text[reveal..].contains("== Result"), "{game}: {text}");
        // The other players' reasons are theirs: the account tells moves, not why.
        for why in ["judged:", "played its policy", "searched "] {
            assert!(!text[reveal..].contains(why), "{game}: {why} in\n{}", &text[reveal..]);
        }
        // What every seat has in view is one table, a row a seat; the standing between
        // units leaves out an interval that one deal cannot bound.
        assert!(text.contains("\n  0 you "), "{game}: no seat table in\n{text}");
        assert!(text.contains("After 1 ") && !text.contains("-inf"), "{game}: {text}");
        let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
        let you = summary.lines().find(|l| l.starts_with("you,")).unwrap_or_else(|| panic!("{game}: {summary}"));
        assert_eq!(you.split(',').nth(1), Some("2"), "{game}: two units played: {summary}");
        // Every unit's whole account is kept beside the tables, however much the reveal cut:
        // a Winston match's draft, whose reveal starts at its game.
        let accounts = std::fs::read_to_string(out.join("accounts.txt")).unwrap();
        assert_eq!(accounts.matches("\n== Result").count(), 2, "{game}: {accounts}");
        for (at, told) in text.match_indices("=== Told again, every card shown") {
            let end = text[at..].find("\n== Result").unwrap() + at;
            let shown = &text[at..end];
            // The terminal wraps long lines: compared without spacing.
            let squashed = |t: &str| t.split_whitespace().collect::<String>();
            // From the account's first heading, under the reveal's own (wrapped) heading.
            let whole = squashed(&shown[shown.find("\n==").unwrap_or(shown.len())..]);
            assert!(squashed(&accounts).contains(&whole), "{game}: {told} not in accounts.txt");
            if shown.lines().next().unwrap().contains("left out") {
                assert!(squashed(shown).contains("accounts.txtinthe--outfolderkeepsitwhole"), "{game}: {shown}");
            }
        }
        if game == "winston-crazier-eights" {
            assert!(accounts.contains("blind") || accounts.contains("takes pile"), "{accounts}");
            assert!(text.contains("earlier lines of the account are left out; accounts.txt in the"), "{text}");
        }
    }
}

#[test]
fn a_report_on_a_short_play_says_where_it_has_no_interval() {
    let dir = scratch(FILE, "play-report");
    let out = out_dir(&dir, "sevens");
    // Folding every time: each hand costs the ante, every unit alike.
    let o = play_piped(
        &["--game", "sevens", "--seats", "you,tight", "--rounds", "2", "--seed", "5", "--out", out.to_str().unwrap()],
        &"1\n".repeat(100),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let report = dir.join("report");
    let o = draftsim(&["report", out.to_str().unwrap(), "--out", report.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    let who = md.lines().find(|l| l.contains("**Who wins?**")).unwrap();
    assert!(
        who.contains("tight scores most: chips per hand 1.0000 (no interval: every unit alike), 2.0000 (no interval: every unit alike) ahead of you"),
        "{who}"
    );
    assert!(!who.contains("least") && !who.contains("[1.0000, 1.0000]"), "two strategies are named once each: {who}");
}

#[test]
fn a_person_is_told_what_happens_between_its_decisions_and_nothing_hidden() {
    // Each case: a game played from piped answers, then lines with how often each appears
    // before the second unit starts (or the result, for one unit). A line told as it
    // happened and again in the unit's account at its end appears twice; another seat's
    // hidden cards appear only in the account, and the bots' reasoning nowhere.
    let ones = "1\n".repeat(5000);
    let twos = "2\n".repeat(5000);
    // Seven Poker: the person exchanges two cards once, then nothing.
    let exchange = format!("4\n{ones}");
    type Case<'a> = (&'a [&'a str], &'a str, &'a [(&'a str, usize)]);
    let cases: [Case; 5] = [
        (
            &["--game", "sevens", "--seats", "you,tight,greedy", "--seed", "3", "--rounds", "2"],
            &twos,
            &[
                ("seat 0 (you) is dealt 6u 2c 4s", 2),
                ("seat 0 (you) trades 1 card: gives 6u, draws 1c", 2),
                ("seat 1 (tight) shows 1u 1u 5s", 2),
                ("seat 1 (tight) wins 3", 2),
                ("seat 1 (tight) is dealt", 1),
                ("seat 2 (greedy) trades 2 cards: gives", 1),
                // The account at the end tells moves, not the bots' reasons.
                ("judged", 0),
            ],
        ),
        (
            &["--seats", "you,random,random", "--seed", "3", "--rounds", "2"],
            &twos,
            &[
                // The last card of a pack is no decision, yet the seat is told it.
                ("seat 0 (you) takes Qh from seat 0's pack [Qh]", 2),
                ("seat 1 (random) wins 15 from the main pot", 2),
                ("seat 1 (random) takes", 7),
                ("seat 1 (random) is dealt", 1),
            ],
        ),
        (
            &["--game", "leduc-poker", "--seats", "you,random", "--seed", "3", "--rounds", "2"],
            &ones,
            &[("seat 0 (you) is dealt Q1", 2), ("seat 1 (random) wins 4", 2), ("seat 1 (random) is dealt", 1)],
        ),
        (
            &["--game", "seven-poker", "--seed", "5", "--rounds", "1"],
            &exchange,
            &[
                ("seat 0 (you) holds orange-4 green-1 green-2 green-4 blue-7 indigo-5 violet-2", 1),
                ("seat 0 (you) discards orange-4 green-1 face up, draws green-6 blue-3", 1),
                ("-- seat 1 (colour) wins the round; victory colours taken: red", 1),
                // Hidden while played; its account, after the game is over, shows the last
                // rounds that fit (9 to 12), each seat's hand with them.
                ("seat 1 (colour) holds", 4),
                ("judged", 0),
            ],
        ),
        (
            // Live-Draft: the card names come from the deal's own card table.
            &["--game", "live-draft", "--seed", "4", "--rounds", "1"],
            &ones,
            &[
                ("seat 0 (you) draws white 4/6 (cost 4)", 2),
                ("seat 0 (you) opens with 2 lands", 2),
                ("seat 1 (curve) draws black 7/7 (cost 6)", 1),
                ("seat 1 (curve) opens with", 1),
                ("== Turn 3 · seat 0 (you)", 2),
                ("seat 0 (you) takes 2 damage: 18 life", 2),
                ("-- seat 1 (curve) wins (last standing)", 2),
            ],
        ),
    ];
    for (args, answers, lines) in cases {
        let o = play_piped(args, answers);
        let text = stdout(&o);
        assert!(o.status.success(), "{args:?}: {}\n{text}", stderr(&o));
        let first = text.find("=== hand 2").or_else(|| text.find("=== round 2")).unwrap_or(text.len());
        let first = &text[..text[..first].find("== Result").unwrap_or(first)];
        for &(line, times) in lines {
            assert_eq!(first.matches(line).count(), times, "{args:?}: '{line}' in\n{first}");
        }
    }
    // Two hands lost alike bound no interval: the standing leaves it out.
    let o = play_piped(&["--game", "leduc-poker", "--seats", "you,random", "--seed", "3", "--rounds", "2"], &ones);
    let text = stdout(&o);
    let after = &text[text.find("After 2 hands").unwrap()..];
    assert!(after.contains("-1.000") && !after.contains("_lo"), "{text}");
    // Nor does one hand (its interval would be the whole range the rules allow).
    let first = &text[text.find("After 1 hand").unwrap()..text.find("After 2 hands").unwrap()];
    assert!(!first.contains("_lo"), "{text}");
    // The score is per hand where the units are hands.
    assert!(after.contains("chips_per_hand") && !after.contains("_per_round"), "{text}");
    assert!(!after.contains(" holds "), "one seat each: nothing to say\n{text}");
    // A strategy at two seats counts two hands a hand dealt: the standing says so.
    let o = play_piped(&["--game", "sevens", "--seats", "you,tight,tight", "--seed", "3", "--rounds", "1"], &ones);
    let text = stdout(&o);
    let after = &text[text.find("After 1 hand").unwrap()..];
    let row = after.lines().find(|l| l.starts_with("tight ")).unwrap();
    assert_eq!(row.split_whitespace().nth(1), Some("2"), "{after}");
    assert!(after.contains("\ntight holds 2 seats: each hand dealt counts 2 of its hands"), "{after}");
    // Seven Poker's rounds are told as they end, while the game goes on.
    let o = play_piped(&["--game", "seven-poker", "--seed", "5", "--rounds", "1"], &ones);
    let text = stdout(&o);
    let told = text.find("-- seat 1 (colour) wins the round").unwrap();
    assert!(text[told..].contains("your move ("), "{text}");
    // Winston's draft shows no side of a game not yet dealt.
    let o = play_piped(
        &["--game", "winston-crazier-eights", "--seats", "you,random", "--seed", "3", "--rounds", "1"],
        &ones,
    );
    let text = stdout(&o);
    let dealt = text.find("== Game 1").unwrap();
    assert!(!text[..dealt].contains("top_discard") && text[dealt..].contains("top_discard"), "{text}");
    assert!(text[..dealt].contains("piles_as_last_seen"), "{text}");
    // Nor who starts, chosen as play begins: the second drafter, seat 1, by default.
    assert!(!text[..dealt].contains("next_starter") && text[dealt..].contains("next_starter: 1"), "{text}");
    // The opponent's hand is its size alone, never an empty list; after an eight only its
    // colour is matched, with no rank 0 (seed 4 names colours with eights).
    let o = play_piped(
        &["--game", "winston-crazier-eights", "--seats", "you,random", "--seed", "4", "--rounds", "1"],
        &ones,
    );
    let text = stdout(&o);
    let dealt = text.find("== Game 1").unwrap();
    assert!(!text.contains("rank 0") && text.contains("green (or an eight)"), "{text}");
    // Without wild eights no eight is offered as a match.
    let plain = scratch(FILE, "no-wild-eights").join("plain.toml");
    std::fs::write(&plain, "eights_wild = false\n").unwrap();
    let args = ["--game", "winston-crazier-eights", "--rules", plain.to_str().unwrap(), "--seats", "you,random"];
    let o = play_piped(&[&args[..], &["--seed", "4", "--rounds", "1"]].concat(), &ones);
    assert!(stdout(&o).contains("to_match: ") && !stdout(&o).contains("(or an eight)"), "{}", stdout(&o));
    let opponent = text[dealt..].split("\n  opponent:\n").skip(1).map(|s| s.split("\n  next_starter").next().unwrap());
    assert!(opponent.clone().count() > 0 && opponent.clone().all(|s| !s.contains(" hand: ")), "{text}");
}

/// `play` opens with what its view's less obvious labels mean, and keeps what it can cut
/// (lists, moves, seat tables) within a terminal's width.
#[test]
fn play_explains_its_view_and_fits_a_terminal() {
    let ones = "1\n".repeat(3000);
    let o = play_piped(&["--game", "sevens", "--seats", "you,tight", "--seed", "2", "--rounds", "1"], &ones);
    let text = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    let legend = &text[text.find("In your view:\n").expect(&text)..text.find("You are seat").expect(&text)];
    assert!(legend.contains("\n  street, put_in: chips each seat has put in"), "{legend}");
    // One figure for the table is not read as one a seat.
    assert!(legend.contains("\n  cards_drawn: cards drawn from the pile this hand, every seat's together"), "{legend}");
    // Seven Poker's menus offer colour counts: the legend says why only the lowest cards.
    let o = play_piped(&["--game", "seven-poker", "--seats", "you,colour,rainbow", "--seed", "2", "--rounds", "1"], "");
    let text = stdout(&o);
    assert!(text.contains("only how many cards of each colour count (never their numbers)"), "{text}");
    // Live-Draft's attacks and blocks are a menu, not every set the rules allow: said.
    let o = play_piped(&["--game", "live-draft", "--seats", "you,curve", "--seed", "2", "--rounds", "1"], "");
    assert!(stdout(&o).contains("attacks, blocks: offered as the search bot's menu"), "{}", stdout(&o));
    // Seven Card Draft's menus say which picks the table will see (picks 2 and 4 by
    // default) and call an opening bet a bet; a seat out of the round holds no pack.
    let twos = "2\n".repeat(3000);
    let o = play_piped(
        &["--game", "seven-card-draft", "--seats", "you,bluffer{bet.p=0}", "--seed", "3", "--rounds", "1"],
        &twos,
    );
    let text = stdout(&o);
    let menus: Vec<&str> = text.split("Your moves:\n").skip(1).collect();
    let picks: Vec<bool> = (menus.iter())
        .filter(|m| m.trim_start().starts_with("1) pick"))
        .map(|m| m.lines().next().unwrap().ends_with("(turned face up)"))
        .collect();
    assert_eq!(picks[..4], [false, true, false, true], "{text}");
    assert!(text.contains(") bet 1\n") && !text.contains("raise 1 (put in 1)"), "{text}");
    let args = ["--game", "seven-card-draft", "--seats", "you,tight,tight,tight", "--seed", "3", "--rounds", "1"];
    let text = stdout(&play_piped(&args, &twos));
    let mut out_of_the_round = 0;
    let mut lines = text.lines();
    while let Some(header) = lines.next() {
        let Some(at) = header.find(" folded ").filter(|_| header.ends_with("holds_pack_of")) else { continue };
        for row in lines.by_ref().take_while(|l| l.starts_with("  ") && !l.starts_with("  seat")) {
            if row.get(at + 1..at + 4) == Some("yes") {
                out_of_the_round += 1;
                assert!(row.ends_with(" -"), "a seat out of the round holds no pack: {row}\n{text}");
            }
        }
    }
    assert!(out_of_the_round > 0, "{text}");
    // Each unit is the next deal of one run: the packs pass left, then right, as in `run`;
    // the betting told by round, each round's lead once.
    let args = ["--game", "seven-card-draft", "--seats", "you,tight", "--seed", "3", "--rounds", "3"];
    let text = stdout(&play_piped(&args, &"1\n".repeat(3000)));
    // Each unit's first view says which way it passes.
    let ways: Vec<&str> =
        (text.lines()).filter(|l| l.contains(" · pick: 1 · ")).filter_map(|l| l.split("passing: ").nth(1)).collect();
    assert_eq!(ways, ["left", "right", "left"], "{text}");
    assert!(
        !text.contains(", betting round 1:") && text.contains("\n  betting:\n    betting round 1: seat "),
        "{text}"
    );
    // Kuhn poker's legend speaks of its one card, no board; its history names a bet as the
    // menus do.
    let o = play_piped(&["--game", "kuhn-poker", "--seats", "you,random", "--seed", "4", "--rounds", "1"], "1\n1\n");
    let text = stdout(&o);
    let legend = &text[text.find("In your view:\n").expect(&text)..text.find("You are seat").expect(&text)];
    assert!(legend.contains("card: your card, J, Q or K") && !legend.contains("board"), "{legend}");
    assert!(text.contains("seat 1 (random): bet\n") && text.contains("history: check, bet\n"), "{text}");
    // `?` at a prompt shows the rules in force and the legend, then asks the same move again.
    let o = play_piped(&["--game", "kuhn-poker", "--seats", "you,random", "--seed", "4", "--rounds", "1"], "?\n1\n1\n");
    let text = stdout(&o);
    assert!(o.status.success() && text.contains("? shows the rules in force"), "{text}");
    let help = &text[text.find("Rules in force (kuhn-poker):\n  ").expect(&text)..];
    assert!(
        help.contains("In your view:\n") && help.contains("Your moves are above: type a number from 1 to 2"),
        "{help}"
    );
    assert_eq!(
        text.matches("\n  you: ").count(),
        stdout(&play_piped(
            &["--game", "kuhn-poker", "--seats", "you,random", "--seed", "4", "--rounds", "1"],
            "1\n1\n"
        ))
        .matches("\n  you: ")
        .count(),
        "{text}"
    );
    // Sevens' legend says what its suit letters are.
    let o = play_piped(&["--game", "sevens", "--seed", "4", "--rounds", "1"], &ones);
    let text = stdout(&o);
    let legend = &text[text.find("In your view:\n").expect(&text)..text.find("You are seat").expect(&text)];
    assert!(legend.contains("the suits written c, u, s (coins, cups, swords): 6u is the 6 of cups"), "{legend}");
    // Leduc's history says the board card where the first round ended.
    let o = play_piped(&["--game", "leduc-poker", "--seats", "you,tight", "--seed", "4", "--rounds", "3"], &ones);
    let text = stdout(&o);
    let histories: Vec<&str> = text.lines().filter(|l| l.trim_start().starts_with("history: ")).collect();
    assert!(histories.iter().any(|h| h.contains(", board ")), "{text}");
    assert!(!histories.iter().any(|h| h.contains('|')), "{text}");
    // Winston's build offers whole decks of 30 cards, and its views and account hold pools
    // of 45; Live-Draft's table holds each seat's creatures.
    for (game, seen) in [("winston-crazier-eights", "\n   14) build "), ("live-draft", "  creatures:\n    0 you: ")] {
        let o = play_piped(&["--game", game, "--seats", "you,random", "--seed", "4", "--rounds", "1"], &ones);
        let text = stdout(&o);
        assert!(o.status.success() && text.contains(seen) && text.contains("== Result"), "{text}");
        let long: Vec<&str> = text.lines().filter(|l| l.chars().count() > 100).collect();
        assert!(long.is_empty(), "{game}: {long:#?}");
        // Moves that read alike (a card the row or hand holds twice) are offered once.
        let text = text.replace("\n      ", " ");
        let mut alike = 0;
        for (view, menu) in text.split("Your moves:\n").zip(text.split("Your moves:\n").skip(1)) {
            let moves: Vec<&str> =
                menu.lines().take_while(|l| l.contains(") ")).filter_map(|l| l.split_once(") ").map(|x| x.1)).collect();
            assert!(moves.iter().enumerate().all(|(i, m)| !moves[..i].contains(m)), "{game}: {moves:#?}");
            let twice = |l: &str| {
                let cards: Vec<&str> = l.split(", ").collect();
                cards.iter().enumerate().any(|(i, c)| cards[..i].contains(c) && moves.iter().any(|m| m.contains(c)))
            };
            let lists = view.lines().rev().take_while(|l| !l.is_empty());
            alike += usize::from(
                lists.filter_map(|l| l.split_once("row: ").or(l.split_once("hand: "))).any(|(_, l)| twice(l)),
            );
        }
        assert!(game != "live-draft" || alike > 0, "no menu offered a card held twice: {text}");
    }
    // A terminal narrower than that has lines a column narrower than it.
    let args = ["--game", "winston-crazier-eights", "--seats", "you,random", "--seed", "4", "--rounds", "1"];
    let o = play_at_a_terminal_of(Some(72), &args, &ones);
    let text = stdout(&o);
    assert!(text.contains("== Result"), "{text}");
    // The terminal echoes the answers piped ahead wherever the cursor is: the prompt's line
    // is left out, and an echoed "1" before a line is not counted.
    let long: Vec<&str> = (text.lines())
        .filter(|l| !l.starts_with("your move"))
        .filter(|l| l.trim_start_matches('1').trim_end_matches('\r').chars().count() > 71)
        .collect();
    assert!(long.is_empty(), "{long:#?}");
}

/// `draftsim play ARGS` at a terminal (`script` gives it one), the answers typed in.
fn play_at_a_terminal(args: &[&str], answers: &str) -> std::process::Output {
    play_at_a_terminal_of(None, args, answers)
}

/// `draftsim play ARGS` at a terminal `columns` wide where given.
fn play_at_a_terminal_of(columns: Option<usize>, args: &[&str], answers: &str) -> std::process::Output {
    use std::io::Write;
    let mut command = [&[env!("CARGO_BIN_EXE_draftsim"), "play"][..], args].concat().join(" ");
    if let Some(c) = columns {
        command = format!("stty cols {c} rows 50; {command}");
    }
    let mut child = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("`script` (util-linux) gives the command a terminal");
    let _ = child.stdin.take().unwrap().write_all(answers.as_bytes());
    child.wait_with_output().unwrap()
}

#[test]
fn play_reprompts_on_bad_input_and_keeps_the_units_finished_when_input_ends() {
    let dir = scratch(FILE, "play-eof");
    // At a terminal, "x", "quit" and "9" are asked again (Kuhn poker: one hand needs one or
    // two answers).
    let kuhn = ["--game", "kuhn-poker", "--seats", "you,tight", "--rounds", "50", "--seed", "1"];
    let o = play_at_a_terminal(&kuhn, "x\nquit\n9\n2\n2\n");
    let text = stdout(&o);
    assert!(o.status.success(), "{}\n{text}", stderr(&o));
    assert!(text.contains("'x' is not one of your moves") && text.contains("'9' is not one of your moves"), "{text}");
    assert!(text.contains("(Ctrl-C stops)") && text.contains("to stop, press Ctrl-C"), "{text}");
    assert!(text.contains("input ended: the hand under way is not counted"), "{text}");
    // Piped answers stop at the first that fits no move, since asking again would shift
    // every later answer onto the move before its own; the hands finished are kept.
    let out = dir.join("kept");
    let o = play_piped(&[&kuhn[..], &["--out", out.to_str().unwrap()]].concat(), "2\n2\n2\nx\n");
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(2), "{}\n{text}", stderr(&o));
    let said = "piped answer 'x' is not one of your moves: give each move's number (1 to 2 here) or its words";
    assert!(stderr(&o).contains(said) && stderr(&o).lines().count() == 2, "{}", stderr(&o));
    assert!(text.contains("stopped at an answer that fits no move: the hand under way is not counted"), "{text}");
    assert!(!text.contains("type a number"), "not asked again: {text}");
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let rounds: u64 =
        summary.lines().find(|l| l.starts_with("you,")).unwrap().split(',').nth(1).unwrap().parse().unwrap();
    assert!((1..50).contains(&rounds), "{summary}");
    // Endless wrong answers end as soon.
    let o = play_piped(&kuhn, &"foo\n".repeat(100_000));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stdout(&o).matches("foo").count() == 1, "{}", stdout(&o));
    // Input that ends keeps the hands finished too, and is no error.
    let ended = dir.join("ended");
    let o = play_piped(&[&kuhn[..], &["--out", ended.to_str().unwrap()]].concat(), "2\n2\n2\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("input ended: the hand under way is not counted"), "{}", stdout(&o));
    assert!(ended.join("summary.csv").exists());
    // Moves may also be typed in words; with no answer at all, nothing is written.
    let o =
        play_piped(&["--game", "kuhn-poker", "--seats", "you,tight", "--rounds", "1", "--seed", "1"], "BET\ncall\n");
    assert!(o.status.success() && stdout(&o).contains("After 1 hand"), "{}", stdout(&o));
    let none = dir.join("none");
    let o = play_piped(&["--game", "kuhn-poker", "--rounds", "2", "--out", none.to_str().unwrap()], "");
    assert!(o.status.success() && stderr(&o).contains("nothing to write"), "{}", stderr(&o));
    assert!(!none.exists());
    // The human seat is for `play` only, and named once there.
    let o = draftsim(&["run", "--game", "sevens", "--seats", "you,tight"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("draftsim play"), "{}", stderr(&o));
    let o = play_piped(&["--game", "sevens", "--seats", "me,greedy"], "");
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("none of me,greedy is `you`") && err.contains("e.g. --seats you,greedy"), "{err}");
    // Named twice: the example keeps the table's size, the second `you` given the game's seat.
    let o = play_piped(&["--game", "sevens", "--seats", "you,you,tight"], "");
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    let example = err.trim().rsplit("e.g. --seats ").next().unwrap();
    let seats: Vec<&str> = example.split(',').collect();
    assert!(err.contains("`you` is named 2 times") && seats.len() == 3, "{err}");
    assert!(seats[0] == "you" && seats[1] != "you" && seats[2] == "tight", "{err}");
    // Seats are played as listed, never cycled (which would seat `you` twice).
    let o = play_piped(&["--game", "kuhn-poker", "--players", "3", "--seats", "you,tight"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("2 named for --players 3") && stdout(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn a_trained_policy_hints_with_its_probabilities() {
    // Kuhn poker's shipped policy: every decision is one of its sets.
    let o = play_piped(
        &["--game", "kuhn-poker", "--seats", "you,tight", "--rounds", "3", "--seed", "2", "--hint", "cfr"],
        &"1\n".repeat(20),
    );
    let text = stdout(&o);
    assert!(o.status.success(), "{}\n{text}", stderr(&o));
    let hints: Vec<&str> = text.lines().filter(|l| l.trim_start().starts_with("hint: cfr: ")).collect();
    assert!(!hints.is_empty(), "{text}");
    for hint in &hints {
        // Each move with a percentage, likeliest first, adding up to about 100.
        let shares: Vec<f64> =
            (hint.split(", ")).map(|m| m.rsplit(' ').next().unwrap().trim_end_matches('%').parse().unwrap()).collect();
        assert!(shares.len() == 2 && shares[0] >= shares[1], "{hint}");
        assert!((shares.iter().sum::<f64>() - 100.0).abs() <= 1.0, "{hint}");
    }
    // Seven Poker's: its declarations only; the rest are the fallback's.
    let o = play_piped(&["--game", "seven-poker", "--rounds", "1", "--seed", "3", "--hint", "cfr"], &"1\n".repeat(400));
    let text = stdout(&o);
    assert!(o.status.success(), "{}\n{text}", stderr(&o));
    assert!(text.contains("it plays these as adaptive"), "{text}");
    // And what adaptive would play there, one of the moves offered.
    // Long lines are cut at spaces: the words are joined again.
    let text = text.replace("\n      ", " ");
    let fallback: Vec<&str> =
        text.lines().filter_map(|l| l.split_once("(it plays these as adaptive): ")).map(|(_, m)| m.trim()).collect();
    assert!(!fallback.is_empty(), "{text}");
    assert!(fallback.iter().all(|m| text.contains(&format!(") {m}\n"))), "{fallback:?}\n{text}");
    assert!(text.lines().any(|l| l.contains("hint: cfr: stay") || l.contains("hint: cfr: fold")), "{text}");
    // A policy for another table, or a preset that is no policy: one line, exit 2.
    let o = play_piped(&["--game", "sevens", "--players", "3", "--hint", "cfr"], "");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("trained for 4 players, not 3"), "{}", stderr(&o));
    let cap = scratch(FILE, "hint").join("cap.toml");
    std::fs::write(&cap, "raise_cap = 2\n").unwrap();
    let o = play_piped(&["--game", "sevens", "--rules", cap.to_str().unwrap(), "--hint", "cfr"], "");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--hint cfr: policy trained under other rules"), "{}", stderr(&o));
    let o = play_piped(&["--game", "sevens", "--hint", "tight"], "");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--hint tight: neither search nor a trained policy"), "{}", stderr(&o));
    // A typo is offered its near adviser, and only advisers are listed.
    let o = play_piped(&["--game", "kuhn-poker", "--seats", "you,tight", "--hint", "sarch"], "");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("(did you mean 'search'?)") && err.contains("one of search, cfr") && !err.contains("tight"),
        "{err}"
    );
    // Too few seats named: the fix is a longer list (play refuses --players with a list).
    for seats in ["you", "you,search,value"] {
        let game = if seats == "you" { "seven-card-draft" } else { "winston-crazier-eights" };
        let o = play_piped(&["--game", game, "--seats", seats], "");
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("play seats the list as given") && !err.contains("--players"), "{err}");
    }
}

#[test]
fn the_search_hint_is_what_the_search_preset_would_play() {
    // Seven Poker's preset searches the declarations and leaves the rest to `adaptive`:
    // the hint searches the one and names the rollout policy's move at the others.
    let o = play_piped(&["--game", "seven-poker", "--rounds", "1", "--seed", "3", "--hint"], &"1\n".repeat(400));
    let text = stdout(&o);
    assert!(o.status.success(), "{}\n{text}", stderr(&o));
    // A hint is wrapped to the screen's width, its later lines indented under it.
    let mut joined: Vec<String> = Vec::new();
    let mut in_hint = false;
    for l in text.lines() {
        if l.trim_start().starts_with("hint: ") {
            assert!(l.chars().count() <= 100, "{l}");
            joined.push(l.trim_start().to_string());
            in_hint = true;
        } else if in_hint && l.starts_with("      ") {
            assert!(l.chars().count() <= 100, "{l}");
            joined.last_mut().unwrap().push_str(&format!(" {}", l.trim_start()));
        } else {
            in_hint = false;
        }
    }
    let hints: Vec<&str> = joined.iter().filter_map(|l| l.strip_prefix("hint: search: ")).collect();
    assert!(
        hints.iter().any(|h| (h.starts_with("stay ") || h.starts_with("fold ")) && h.contains("% (mean ")),
        "{text}"
    );
    let left = " (its rollout policy's move: it searches no such decision)";
    let named: Vec<&str> = hints.iter().filter_map(|h| h.strip_suffix(left)).collect();
    assert!(named.iter().any(|m| m.starts_with("exchange")), "{text}");
    // The move named is one of the menu's, as the menu words it.
    for m in named {
        assert!(text.lines().any(|l| l.trim_start().split_once(") ").is_some_and(|(_, w)| w == m)), "{m}\n{text}");
    }
    // No hint is a search of every decision: that one would visit exchanges too.
    assert!(!hints.iter().any(|h| h.starts_with("exchange") && h.contains("% (mean ")), "{text}");
}

/// Runs `command` in a detached tmux session of its own; `None` where tmux is missing.
struct Tmux(String);

impl Tmux {
    fn start(name: &str, command: &str) -> Option<Tmux> {
        let session = format!("draftsim-{name}-{}", std::process::id());
        let ok = Command::new("tmux")
            .args(["new-session", "-d", "-x", "160", "-y", "50", "-s", &session, command])
            .status()
            .ok()?
            .success();
        ok.then_some(Tmux(session))
    }

    fn keys(&self, keys: &[&str]) {
        Command::new("tmux").args(["send-keys", "-t", &self.0]).args(keys).status().unwrap();
    }

    fn screen(&self) -> String {
        let o = Command::new("tmux").args(["capture-pane", "-p", "-t", &self.0]).output().unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    /// Waits up to 20 s for `text` on the screen.
    fn wait_for(&self, text: &str) -> String {
        for _ in 0..200 {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        panic!("'{text}' never showed:\n{}", self.screen());
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux").args(["kill-session", "-t", &self.0]).stderr(Stdio::null()).status();
    }
}

#[test]
fn in_a_terminal_a_person_plays_and_ctrl_c_keeps_the_units_played() {
    let dir = scratch(FILE, "tmux");
    let out = dir.join("kept");
    let done = dir.join("done");
    let command = format!(
        "{} play --game kuhn-poker --seats you,tight --rounds 100 --seed 3 --out {} ; echo $? > {}",
        env!("CARGO_BIN_EXE_draftsim"),
        out.display(),
        done.display()
    );
    let Some(tmux) = Tmux::start("play", &command) else {
        eprintln!("tmux is not installed: the terminal test is skipped (piped play is tested)");
        return;
    };
    let screen = tmux.wait_for("your move (1-2):");
    assert!(screen.contains("Your moves:") && screen.contains("card: "), "{screen}");
    // Answer until a hand is over, then Ctrl-C at the next prompt.
    for _ in 0..4 {
        if tmux.screen().contains("After 1 hand") {
            break;
        }
        tmux.keys(&["2", "Enter"]);
        std::thread::sleep(std::time::Duration::from_millis(400));
    }
    tmux.wait_for("After 1 hand");
    tmux.keys(&["C-c"]);
    for _ in 0..100 {
        if done.exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let code = std::fs::read_to_string(&done).unwrap_or_else(|_| panic!("play did not end:\n{}", tmux.screen()));
    // Cut short, as every command's Ctrl-C says; the hands finished are written all the same.
    assert_eq!(code.trim(), "130", "{}", tmux.screen());
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let rounds: u64 =
        summary.lines().find(|l| l.starts_with("you,")).unwrap().split(',').nth(1).unwrap().parse().unwrap();
    assert!(rounds >= 1, "{summary}");
}

#[test]
fn replays_tell_each_bots_reasoning() {
    // A heuristic's betting: its strength against the field and the thresholds it meets.
    let o = draftsim(&["replay", "--seats", "tight,greedy,hate,random", "--round", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("judged: strength against the field 0.") && text.contains("raises above"), "{text}");
    // Every game's heuristics say what drove their choices, with the default seats.
    for (game, says) in [
        ("seven-card-draft", "judged: the hand with its pick expected to finish at percentile 0."),
        ("sevens", "judged: expected share of the pot 0."),
        ("sevens", "judged: the trade it keeps has the best expected share of the pot, 0."),
        ("seven-poker", "judged: strength "),
        ("seven-poker", "judged: plans "),
        ("winston-crazier-eights", " to its deck (takes from "),
        ("live-draft", "judged: best card of the row worth "),
        ("live-draft", "opponents could hit back for "),
        ("kuhn-poker", "judged: hand strength "),
        ("leduc-poker", "judged: hand strength "),
    ] {
        let o = draftsim(&["replay", "--game", game, "--round", "1"]);
        assert!(o.status.success() && stdout(&o).contains(says), "{game}: no '{says}' in\n{}", stdout(&o));
    }
    // What a Sevens threshold bettor says agrees with what it does: it folds exactly when
    // a call returns less than its fold line, else raises when a raise returns more than
    // its raise line (said only where the cap allows a raise), else checks or calls.
    let (mut judged, mut folds_seen, mut raises_seen) = (0, 0, 0);
    for round in 0..40 {
        let o = draftsim(&[
            "replay",
            "--game",
            "sevens",
            "--seats",
            "tight,greedy,tight,exact",
            "--round",
            &round.to_string(),
        ]);
        let text = stdout(&o);
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(at) = line.find("judged: expected share of the pot ") else { continue };
            let number = |after: &str| -> f64 {
                let rest = &line[line.find(after).unwrap() + after.len()..];
                rest[..rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap()].parse().unwrap()
            };
            let did = lines[i + 1];
            let calls = line.contains("a call returns ").then(|| (number("a call returns "), number("(folds below ")));
            let raise =
                line.contains("a raise returns ").then(|| (number("a raise returns "), number("(raises above ")));
            // Equal as printed: the side is below the text's precision.
            if calls.is_some_and(|(a, b)| a == b) || raise.is_some_and(|(a, b)| a == b) {
                continue;
            }
            let folds = calls.is_some_and(|(a, b)| a < b);
            let raises = raise.is_some_and(|(a, b)| a > b);
            assert_eq!(did.contains(" folds"), folds, "{}\n{did}", &line[at..]);
            assert_eq!(did.contains(" raises"), !folds && raises, "{}\n{did}", &line[at..]);
            judged += 1;
            folds_seen += usize::from(folds);
            raises_seen += usize::from(raises);
        }
    }
    assert!(
        judged >= 60 && folds_seen >= 3 && raises_seen >= 3,
        "{judged} judged bets, {folds_seen} folds, {raises_seen} raises"
    );
    // The search bot's top moves in words, and a trained policy's probabilities.
    let o = draftsim(&["replay", "--game", "kuhn-poker", "--seats", "search{iterations=200},tight", "--round", "0"]);
    assert!(stdout(&o).contains("searched 200 iterations: ") && stdout(&o).contains("% (mean 0."), "{}", stdout(&o));
    let dir = scratch(FILE, "reasons");
    let policy = dir.join("kuhn");
    let o = draftsim(&["train", "--game", "kuhn-poker", "--iterations", "50", "--out", policy.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let seat = format!("cfr{{policy=\"{}\"}}", policy.display());
    let o = draftsim(&["replay", "--game", "kuhn-poker", "--seats", &format!("{seat},tight"), "--round", "0"]);
    let text = stdout(&o);
    assert!(text.contains("played its policy: ") && text.contains(" 0."), "{}{}", text, stderr(&o));
}

#[test]
fn every_message_has_the_fields_the_schema_requires() {
    let dir = scratch(FILE, "schema");
    let log = dir.join("messages.jsonl");
    let recorder = script_bot(&dir, "recorder", "    print(json.dumps({'move': 0}), flush=True)", "");
    // The recorder logs every line it reads, before its loop skips all but `decide`.
    let path = dir.join("recorder.py");
    let text = std::fs::read_to_string(&path).unwrap().replace(
        "    msg = json.loads(line)\n",
        &format!("    msg = json.loads(line)\n    open('{}', 'a').write(line)\n", log.display()),
    );
    std::fs::write(&path, text).unwrap();
    let seats = format!("{recorder},tight");
    let o = draftsim(&["run", "--game", "leduc-poker", "--seats", &seats, "--rounds", "10", "--threads", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/protocol.schema.json")).unwrap(),
    )
    .unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for line in std::fs::read_to_string(&log).unwrap().lines() {
        let msg: serde_json::Value = serde_json::from_str(line).unwrap();
        let kind = msg["type"].as_str().unwrap_or_else(|| panic!("no type: {line}"));
        let def = &schema["$defs"][kind];
        assert!(def.is_object(), "{kind} is not in the schema");
        for key in def["required"].as_array().unwrap() {
            assert!(msg.get(key.as_str().unwrap()).is_some(), "{kind} lacks {key}: {line}");
        }
        for (key, rule) in def["properties"].as_object().unwrap() {
            if let Some(c) = rule.get("const") {
                assert_eq!(&msg[key], c, "{kind}.{key}: {line}");
            }
        }
        seen.insert(kind.to_string());
    }
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), ["bye", "decide", "end", "hello", "start"]);
}

/// A seat's program lost in the middle of `play` ends it as Ctrl-C does: the hands finished
/// are written, and the command fails naming the program.
#[test]
fn play_keeps_the_units_finished_when_an_outside_seat_fails() {
    let dir = scratch(FILE, "play-lost");
    let body = "    seen = globals().setdefault('seen', [0]); seen[0] += 1\n    if seen[0] > 8:\n        sys.exit(1)\n    print(json.dumps({'move': 0}), flush=True)";
    let bot = script_bot(&dir, "tires", body, ";max_failures=0");
    let out = dir.join("kept");
    let seats = format!("you,{bot}");
    let args =
        ["--game", "kuhn-poker", "--seats", &seats, "--rounds", "40", "--seed", "3", "--out", out.to_str().unwrap()];
    let o = play_piped(&args, &"1\n".repeat(200));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("stopped by a failed seat: the hand under way is not counted"), "{}", stdout(&o));
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap_or_else(|_| panic!("{}", stderr(&o)));
    let rounds: u64 =
        summary.lines().find(|l| l.starts_with("you,")).unwrap().split(',').nth(1).unwrap().parse().unwrap();
    assert!((4..40).contains(&rounds), "{summary}");
}
