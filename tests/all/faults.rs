//! Faults found by trying the command line as a new user would, each kept as a test: the
//! input, the exit code, a fragment of the one-line message, and what is left on disk.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::*;

const FILE: &str = "faults";

/// The names in `dir` that a command's staging or set-aside folders would have.
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.') && (n.contains(".tmp-") || n.contains(".old")))
        .collect()
}

#[test]
fn bad_input_is_refused_in_one_line_with_exit_code_2_before_anything_is_written() {
    let dir = scratch(FILE, "corpus");
    let out = dir.join("x");
    let out = out.to_str().unwrap();
    let huge = dir.join("huge.toml");
    std::fs::write(&huge, "players = 99999999999\n").unwrap();
    let huge = huge.to_str().unwrap().to_string();
    let missing = dir.join("missing.toml");
    let missing = missing.to_str().unwrap();
    let no_rules = format!("--rules {missing}: no such file; give a rules file");
    let folder = format!("B {}: a folder, not a file; give a rules file or `defaults`", dir.display());
    let corpus: &[(&[&str], &str)] = &[
        // A file named that cannot be read: why in words, and what to give.
        (&["run", "--rules", missing, "--rounds", "10", "--out", out], &no_rules),
        (&["versus", "defaults", dir.to_str().unwrap(), "--rounds", "10", "--out", out], &folder),
        (&["tune", "--space", missing, "--out", out], "no such file; give a search file with a [space] table"),
        (&["report", &huge, "--out", out], "a file, not a folder of results; give a folder a command wrote with --out"),
        // A range, as tune takes, is refused by sweep with the list it means.
        (
            &["sweep", "--game", "sevens", "--set", "raise_cap=1..3", "--rounds", "10", "--out", out],
            "not a range: list them, e.g. raise_cap=1,2,3",
        ),
        // A value no rules key takes is told by the key, not a line of the rules draftsim wrote.
        (
            &["tune", "--game", "sevens", "--param", "ante=1,b", "--minimize", "mean_length", "--out", out],
            "--param ante=1,b, at ante=b: ante: invalid type: string \"b\"; give a whole number",
        ),
        // A repeated key would label rows with values never played.
        (&["sweep", "--set", "raise_cap=1,2", "--set", "raise_cap=3", "--rounds", "10", "--out", out], "given twice"),
        (&["sweep", "--set", "players=3,4", "--set", "players=5", "--rounds", "10", "--out", out], "given twice"),
        (
            &[
                "sweep",
                "--vary",
                "hate.draft.weight=0,1",
                "--vary",
                "hate.draft.weight=0.5",
                "--rounds",
                "10",
                "--out",
                out,
            ],
            "given twice",
        ),
        (
            &[
                "tune",
                "--param",
                "raise_cap=1..3",
                "--param",
                "raise_cap=4..5",
                "--minimize",
                "seat_advantage",
                "--rounds",
                "10",
                "--out",
                out,
            ],
            "given twice",
        ),
        // A seat lost to a doubled comma; a sharded run that would stop on each shard's
        // own interval.
        (&["run", "--seats", "greedy,,tight,random", "--rounds", "10", "--out", out], "an empty name"),
        // One seat whose name is mistyped: the name is the fault, not the count of one.
        (&["run", "--seats", "tigth", "--rounds", "10", "--out", out], "tigth"),
        (&["run", "--seats", "greedy", "--rounds", "10", "--out", out], "--seats names 1 strategy, so players = 1"),
        (&["run", "--until-ci", "0.01", "--shard", "0/2", "--out", out], "--until-ci with --shard"),
        // Unbounded resources.
        (&["run", "--threads", "99999999999999", "--rounds", "10", "--out", out], "at most 1024"),
        (&["run", "--rounds", "18446744073709551615", "--out", out], "at most"),
        (&["sensitivity", "--game", "sevens", "--rounds", "18446744073709551615", "--out", out], "at most"),
        (
            &["tune", "--param", "raise_cap=1..3", "--minimize", "seat_advantage", "--candidates", "0", "--out", out],
            "no candidates",
        ),
        (
            &[
                "tune",
                "--param",
                "raise_cap=1..3",
                "--minimize",
                "seat_advantage",
                "--candidates",
                "99999999999",
                "--out",
                out,
            ],
            "at most 100000",
        ),
        (
            &[
                "tune",
                "--param",
                "raise_cap=1..3",
                "--minimize",
                "seat_advantage",
                "--budget-time",
                "1e300",
                "--out",
                out,
            ],
            "more than a year",
        ),
        (
            &["tune", "--param", "raise_cap=1..3", "--minimize", "seat_advantage", "--require", "completion>=NaN"],
            "write NAME>=VALUE",
        ),
        (
            &[
                "tune",
                "--param",
                "raise_cap=1..3",
                "--maximize",
                "seat_advantage",
                "--minimize",
                "seat_advantage",
                "--out",
                out,
            ],
            "objective: --minimize seat_advantage and --maximize seat_advantage: a figure named twice",
        ),
        // Clap's own errors, in one line with the help to read.
        (&["run", "--nope", "--out", out], "unexpected argument '--nope' found; see `draftsim run --help`"),
        (&["run", "--sed", "4", "--out", out], "(tip: a similar argument exists: '--seed')"),
        (&["list", "rules", "--bogus"], "see `draftsim list rules --help`"),
        (&["nonesuch"], "unrecognized subcommand 'nonesuch'; see `draftsim --help`"),
        // Another command's flag is told what to do instead, not offered a near spelling.
        (
            &["replay", "--rounds", "2000", "--round", "5"],
            "replay takes no --rounds: replay tells one unit of a run: name it with --round N",
        ),
        (&["replay", "--round", "5", "--out", out], "replay takes no --out: replay prints one unit to the terminal"),
        (
            &["compare", "--seats", "greedy,tight", "--out", out],
            "compare takes no --seats: compare seats each pair of its strategies itself",
        ),
        (
            &["run", "--strategies", "greedy,tight", "--out", out],
            "run takes no --strategies: run seats a lineup: list it with --seats",
        ),
        (
            &["sensitivity", "--set", "players=3,4", "--out", out],
            "sensitivity takes no --set: sensitivity steps each key one step from the base itself: name the keys with --keys",
        ),
        (
            &["calibrate", "--shard", "1/2", "--out", out],
            "calibrate takes no --shard: calibrate plays on one machine (--threads N uses its cores)",
        ),
        (&["tune", "--shard=2/2", "--out", out], "tune takes no --shard"),
        (&["merge", "a", "b", "--shard", "1/2"], "merge takes no --shard: merge joins the shards' --out folders"),
        (&["replay", "--shard", "1/2"], "replay takes no --shard: replay does not split its work;"),
        // A missing argument named, not lost in joining the message into one line.
        (&["merge"], "were not provided: <DIRS>...; see `draftsim merge --help`"),
        (&["run", "--seats", "", "--rounds", "10", "--out", out], "an empty name"),
        // A player count no game seats is refused before a seat list that long is made.
        (&["run", "--players", "99999999999", "--rounds", "10", "--out", out], "no game seats more than 64"),
        (&["compare", "--players", "99999999999", "--strategies", "greedy,hate", "--out", out], "more than 64"),
        (&["run", "--rules", &huge, "--rounds", "10", "--out", out], "players = 99999999999"),
        (&["compare", "--rules", &huge, "--strategies", "greedy,hate", "--out", out], "players = 99999999999"),
        (&["sweep", "--set", "players=3,99999999999", "--rounds", "10", "--out", out], "players = 99999999999"),
        // Refused before the first variant or pair plays, and said once.
        (
            &["sweep", "--set", "players=3,100", "--rounds", "100000", "--out", out],
            "players = 100: a 52-card deck seats 2 to 7 players at 7 cards a pack",
        ),
        (
            &["compare", "--strategies", "greedy,hate,nope", "--rounds", "100000", "--out", out],
            "unknown strategy 'nope'",
        ),
        // A value of the wrong type in a later variant, refused before the first plays.
        (
            &["sweep", "--game", "sevens", "--set", "raise_cap=1,two", "--rounds", "100000000", "--out", out],
            "variant raise_cap=two: raise_cap: invalid type: string \"two\"",
        ),
    ];
    for (args, says) in corpus {
        let started = std::time::Instant::now();
        let o = draftsim(&[args, &["--quiet"][..]].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains(says) && err.lines().count() == 1 && err.matches("players =").count() <= 1,
            "{args:?}: {err}"
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(1), "{args:?} played before refusing");
        assert!(!dir.join("x").exists() && leftovers(&dir).is_empty(), "{args:?} left files");
    }
    // Without --quiet too the refusal is the only line: the sweep says what it plays only
    // once every variant is built.
    let o = draftsim(&["sweep", "--game", "sevens", "--set", "raise_cap=1,two", "--rounds", "10"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
}

#[test]
fn report_and_merge_refuse_to_write_over_what_they_read() {
    let dir = scratch(FILE, "inputs");
    let (s0, s1) = (dir.join("s0"), dir.join("s1"));
    for (i, s) in [&s0, &s1].iter().enumerate() {
        let shard = format!("{i}/2");
        let o = draftsim(&["run", "--rounds", "200", "--shard", &shard, "--out", s.to_str().unwrap(), "--quiet"]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let before = files(&s0);
    for args in [
        vec!["report", s0.to_str().unwrap(), "--out", s0.to_str().unwrap(), "--force"],
        vec!["merge", s0.to_str().unwrap(), s1.to_str().unwrap(), "--out", s0.to_str().unwrap(), "--force"],
        vec!["report", s0.to_str().unwrap(), "--out", dir.to_str().unwrap(), "--force"],
    ] {
        let o = draftsim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("holds the input") && stderr(&o).lines().count() == 1, "{}", stderr(&o));
        assert_eq!(files(&s0), before, "{args:?} touched its input");
    }
    // Notes that cannot be read are refused before the report is begun.
    let report = dir.join("report");
    for notes in [dir.join("missing.md"), dir.clone()] {
        let o = draftsim(&[
            "report",
            s0.to_str().unwrap(),
            "--notes",
            notes.to_str().unwrap(),
            "--out",
            report.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let says = if notes == dir { "a folder, not a file" } else { "no such file" };
        let want = format!("--notes {}: {says}; give a Markdown file of findings", notes.display());
        assert!(stderr(&o).contains(&want) && stderr(&o).lines().count() == 1, "{}", stderr(&o));
        assert!(!report.exists(), "a report begun for notes it could not read");
    }
    // A rules file or a seat's policy folder inside the folder --force would replace.
    let held = dir.join("held");
    std::fs::create_dir_all(&held).unwrap();
    let trained = ["train", "--game", "kuhn-poker", "--iterations", "100", "--quiet", "--out"];
    let o = draftsim(&[&trained[..], &[held.join("policy").to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::write(held.join("rules.toml"), "players = 3\n").unwrap();
    let policy = format!("cfr{{policy=\"{}\"}},tight", held.join("policy").display());
    for args in [
        vec!["run", "--rules", held.join("rules.toml").to_str().unwrap(), "--out", held.to_str().unwrap(), "--force"],
        vec!["run", "--game", "kuhn-poker", "--seats", &policy, "--out", held.to_str().unwrap(), "--force"],
    ] {
        let o = draftsim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("holds the input") && stderr(&o).lines().count() == 1, "{}", stderr(&o));
        assert!(held.join("rules.toml").exists() && held.join("policy").exists(), "{args:?} deleted its input");
    }
}

/// A folder named like the subcommand or like the value of an option that is never a path
/// (`--game`, `--set`) is not an input: `--force` replaces it.
#[test]
fn force_replaces_a_folder_named_like_a_word_of_the_command() {
    let dir = scratch(FILE, "words");
    let in_dir = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_draftsim")).args(args).current_dir(&dir).output().unwrap()
    };
    let run = ["run", "--rounds", "100", "--quiet", "--out", "results"];
    assert!(in_dir(&run).status.success());
    for args in [
        vec!["report", "results", "--out", "report", "--quiet"],
        vec!["report", "results", "--out", "report", "--quiet", "--force"],
        vec!["run", "--game", "sevens", "--rounds", "100", "--quiet", "--out", "sevens"],
        vec!["run", "--game", "sevens", "--rounds", "100", "--quiet", "--out", "sevens", "--force"],
        vec!["sweep", "--game", "sevens", "--set", "ante=1,2", "--rounds", "100", "--quiet", "--out", "ante"],
        vec![
            "sweep", "--game", "sevens", "--set", "ante=1,2", "--rounds", "100", "--quiet", "--out", "ante", "--force",
        ],
    ] {
        let o = in_dir(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }
    // What the command does read is still guarded.
    let o = in_dir(&["report", "results", "--out", "results", "--force", "--quiet"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn leftovers_of_a_dead_run_neither_block_force_nor_stay() {
    let dir = scratch(FILE, "leftovers");
    let out = dir.join("x");
    let o = draftsim(&["run", "--rounds", "100", "--out", out.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // What older versions and killed runs leave: a set-aside file, set-aside folders and a
    // staging folder, each of a process that is gone.
    std::fs::write(dir.join(".x.old"), "stale").unwrap();
    std::fs::create_dir_all(dir.join(".x.old-4000000").join("inner")).unwrap();
    std::fs::create_dir_all(dir.join(".x.tmp-4000001").join("inner")).unwrap();
    std::fs::write(dir.join(".y.tmp-4000002"), "another folder's: kept").unwrap();
    let o = draftsim(&["run", "--rounds", "100", "--out", out.to_str().unwrap(), "--force", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.join("summary.csv").exists());
    assert_eq!(leftovers(&dir), [".y.tmp-4000002"]);
}

#[test]
fn a_closed_pipe_does_not_lose_the_tables() {
    let dir = scratch(FILE, "pipe");
    let out = dir.join("x");
    for args in [
        vec!["run", "--rounds", "4000", "--out", out.to_str().unwrap(), "--force"],
        vec!["sweep", "--set", "players=3,4", "--rounds", "400", "--out", out.to_str().unwrap(), "--force"],
    ] {
        // As `draftsim ... | true`: the reader is gone before anything is printed.
        let mut child = Command::new(env!("CARGO_BIN_EXE_draftsim"))
            .args(&args)
            .arg("--quiet")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let status = child.wait().unwrap();
        let written: Vec<String> = std::fs::read_dir(&out)
            .unwrap_or_else(|e| panic!("{args:?} ({status:?}) wrote no --out: {e}"))
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(written.iter().any(|n| n == "run.json" || n == "study.json"), "{args:?}: {written:?}");
        assert!(leftovers(&dir).is_empty(), "{args:?}: {:?}", leftovers(&dir));
    }
    // `play`, whose game prints as it goes: the reader gone, it plays on unseen.
    let played = dir.join("played");
    let mut child = Command::new(env!("CARGO_BIN_EXE_draftsim"))
        .args(["play", "--game", "kuhn-poker", "--seats", "you,tight", "--rounds", "3", "--out"])
        .arg(&played)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), "1\n".repeat(30).as_bytes()).unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "play into a closed pipe: {status:?}");
    assert!(played.join("run.json").exists() && leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
}

#[test]
fn a_signal_in_the_only_batch_stops_the_command_and_writes_nothing() {
    let dir = scratch(FILE, "signals");
    let out = dir.join("x");
    // Slow rounds, all of them in the harness's first and only batch.
    let slow = ["--game", "sevens", "--seats", "search{iterations=2000},tight", "--rounds", "4000", "--threads", "1"];
    let run = [&["run"], &slow[..], &["--out", out.to_str().unwrap()]].concat();
    let check = [&["check"], &slow[..]].concat();
    // A study's only pair, and a ladder's only step.
    let o = out.to_str().unwrap();
    let compare = ["compare", "--game", "sevens", "--players", "2", "--strategies", "search{iterations=2000},tight"];
    let compare = [&compare[..], &["--rounds", "4000", "--threads", "1", "--out", o]].concat();
    let ladder = ["ladder", "--game", "sevens", "--players", "2", "--budgets", "1000,2000", "--rounds", "4000"];
    let ladder = [&ladder[..], &["--threads", "1", "--out", o]].concat();
    for (args, signals) in [
        (&run, &["INT"][..]),
        (&run, &["TERM"][..]),
        (&check, &["INT"][..]),
        (&run, &["INT", "INT"][..]),
        (&compare, &["INT"][..]),
        (&ladder, &["TERM"][..]),
    ] {
        let started = std::time::Instant::now();
        let o = signalled(args, signals, std::time::Duration::from_millis(1500));
        let took = started.elapsed();
        assert_eq!(o.status.code(), Some(130), "{args:?} {signals:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("interrupted"), "{signals:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?} printed after the signal: {}", stdout(&o));
        assert!(took < std::time::Duration::from_secs(8), "{args:?} {signals:?} took {took:?} to stop");
        assert!(!out.exists() && leftovers(&dir).is_empty(), "{args:?} {signals:?} left {:?}", leftovers(&dir));
    }
}

/// Copies folder `from` to `to` (flat: a shard's folder has no subfolders).
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for (name, bytes) in files(from) {
        std::fs::write(to.join(name), bytes).unwrap();
    }
}

/// Rewrites a JSON file through `edit`.
fn edit_json(path: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    edit(&mut v);
    std::fs::write(path, serde_json::to_string(&v).unwrap()).unwrap();
}

#[test]
fn merge_takes_only_whole_sets_of_one_runs_shards_and_never_panics() {
    let dir = scratch(FILE, "merge");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    for (name, shard, seed) in [("s0", "0/2", "1"), ("s1", "1/2", "1"), ("t1", "1/2", "2")] {
        let o =
            draftsim(&["run", "--rounds", "4000", "--shard", shard, "--seed", seed, "--out", &path(name), "--quiet"]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    for (name, shard) in [("w0", "0/2"), ("w1", "1/2")] {
        let o = draftsim(&["sweep", "--set", "players=3,4", "--rounds", "60", "--shard", shard, "--out", &path(name)]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let good = draftsim(&["merge", &path("s0"), &path("s1"), "--out", &path("whole"), "--quiet"]);
    assert!(good.status.success(), "{}", stderr(&good));
    // Each fault: the folder made from a good shard, how, and a fragment of the message.
    type Edit = Box<dyn Fn(&Path)>;
    let set = |file: &'static str, key: &'static str, value: serde_json::Value| -> Edit {
        Box::new(move |d: &Path| edit_json(&d.join(file), |v| v[key] = value.clone()))
    };
    let faults: Vec<(&str, &str, Edit, &str)> = vec![
        (
            "s1",
            "another seed's tally",
            Box::new(|d: &Path| {
                std::fs::copy(d.with_file_name("t1").join("tally.json"), d.join("tally.json")).map(drop).unwrap()
            }),
            "not the tally its run.json",
        ),
        (
            "s1",
            "the other shard's tally, no checksum",
            Box::new(|d: &Path| {
                std::fs::copy(d.with_file_name("s0").join("tally.json"), d.join("tally.json")).unwrap();
                edit_json(&d.join("run.json"), |v| v.as_object_mut().unwrap().remove("tally_crc32").map(drop).unwrap());
            }),
            "another shard's",
        ),
        ("s1", "shard 5 of 2", set("run.json", "shard", serde_json::json!({"index": 5, "count": 2})), "does not fit"),
        ("s1", "shard count 0", set("run.json", "shard", serde_json::json!({"index": 0, "count": 0})), "does not fit"),
        ("s1", "shard of 3", set("run.json", "shard", serde_json::json!({"index": 1, "count": 3})), "is a shard of 2"),
        (
            "s1",
            "shard count 2^64-1",
            set("run.json", "shard", serde_json::json!({"index": 1, "count": u64::MAX})),
            "is a shard of 2",
        ),
        (
            "s1",
            "cells cut short, no checksum",
            Box::new(|d: &Path| {
                edit_json(&d.join("run.json"), |v| v.as_object_mut().unwrap().remove("tally_crc32").map(drop).unwrap());
                edit_json(&d.join("tally.json"), |v| v["cells"].as_array_mut().unwrap().truncate(1));
            }),
            "entries in tally.cells",
        ),
        (
            "s1",
            "rounds 2^64-1, no checksum",
            Box::new(|d: &Path| {
                edit_json(&d.join("run.json"), |v| {
                    v.as_object_mut().unwrap().remove("tally_crc32");
                    v["rounds"] = serde_json::json!(u64::MAX);
                });
                edit_json(&d.join("tally.json"), |v| v["rounds"] = serde_json::json!(u64::MAX));
            }),
            "seats played",
        ),
        (
            "s1",
            "not JSON",
            Box::new(|d: &Path| std::fs::write(d.join("tally.json"), "{\"rounds\": 1").unwrap()),
            "tally.json",
        ),
        (
            "s1",
            "a seat's wins past its rounds, no checksum",
            Box::new(|d: &Path| {
                edit_json(&d.join("run.json"), |v| v.as_object_mut().unwrap().remove("tally_crc32").map(drop).unwrap());
                edit_json(&d.join("tally.json"), |v| v["cells"][0]["outright"] = serde_json::json!(1_000_000));
            }),
            "won more units than it played",
        ),
        (
            "s1",
            "unit lengths that wrap, no checksum",
            Box::new(|d: &Path| {
                edit_json(&d.join("run.json"), |v| v.as_object_mut().unwrap().remove("tally_crc32").map(drop).unwrap());
                edit_json(&d.join("tally.json"), |v| v["length_sum"] = serde_json::json!(u64::MAX));
            }),
            "unit lengths add up past",
        ),
        (
            "w1",
            "a result's rounds changed",
            Box::new(|d: &Path| {
                edit_json(&d.join("study_shard.json"), |v| v["results"][0]["rounds"] = serde_json::json!(u64::MAX))
            }),
            "bad/study_shard.json: not the results this shard was written with",
        ),
        (
            "w1",
            "a malformed result, no checksum",
            Box::new(|d: &Path| {
                edit_json(&d.join("study_shard.json"), |v| {
                    v.as_object_mut().unwrap().remove("results_crc32").unwrap();
                    v["results"][0] = serde_json::json!("x");
                })
            }),
            "bad/study_shard.json: invalid type",
        ),
        ("w1", "units 10^15", set("study_shard.json", "units", serde_json::json!(1_000_000_000_000_000u64)), "units"),
        (
            "w1",
            "shard count 2^64-1",
            set("study_shard.json", "shard", serde_json::json!({"index": 1, "count": u64::MAX})),
            "is a shard of 2",
        ),
    ];
    for (base, what, edit, says) in faults {
        let bad = dir.join("bad");
        let _ = std::fs::remove_dir_all(&bad);
        copy_dir(&dir.join(base), &bad);
        edit(&bad);
        let first = if base == "s1" { path("s0") } else { path("w0") };
        let o = draftsim(&["merge", &first, bad.to_str().unwrap(), "--out", &path("merged"), "--quiet"]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{what}: {err}");
        assert!(err.contains(says) && err.lines().count() == 1, "{what}: {err}");
        assert!(!dir.join("merged").exists() && leftovers(&dir).is_empty(), "{what} left files");
    }
    // The same shard twice.
    let o = draftsim(&["merge", &path("s0"), &path("s0"), "--out", &path("merged"), "--quiet"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("shard 0/2 again") && stderr(&o).contains("give each shard once"), "{}", stderr(&o));
    // A run's shard beside a study's: both named, neither blamed alone.
    let o = draftsim(&["merge", &path("s0"), &path("w1"), "--out", &path("merged"), "--quiet"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let said = format!("{}: a run's folder, but {} is a study's shard", path("s0"), path("w1"));
    assert!(stderr(&o).contains(&said), "{}", stderr(&o));
}

#[test]
fn a_cut_short_table_is_refused_by_report_and_a_long_out_name_is_taken() {
    let dir = scratch(FILE, "cut-short");
    let sweep = dir.join("sw");
    let o =
        draftsim(&["sweep", "--set", "players=3,4", "--rounds", "100", "--out", sweep.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = sweep.join("sweep.csv");
    let text = std::fs::read_to_string(&table).unwrap();
    let header_end = text.find('\n').unwrap() + 1;
    for (cut, says) in [(header_end + 40, "cut short"), (header_end, "no rows")] {
        std::fs::write(&table, &text[..cut]).unwrap();
        let o = draftsim(&["report", sweep.to_str().unwrap(), "--out", dir.join("r").to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(says) && stderr(&o).lines().count() == 1, "{}", stderr(&o));
        assert!(!dir.join("r").exists() && leftovers(&dir).is_empty());
    }
    // A row with an open quote: one line, naming the file once, without the reader's
    // advice for another language.
    std::fs::write(&table, format!("{text}garbage,\"\n")).unwrap();
    let o = draftsim(&["report", sweep.to_str().unwrap(), "--out", dir.join("r").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.lines().count() == 1 && e.matches("sweep.csv").count() == 1 && !e.contains("You might"), "{e}");
    // A column missing: the message names the file, exit 2.
    std::fs::write(&table, "a,b\n1,2\n").unwrap();
    let o = draftsim(&["report", sweep.to_str().unwrap(), "--out", dir.join("r").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let says = format!("{}: column", table.display());
    assert!(stderr(&o).contains(&says) && stderr(&o).lines().count() == 1, "{}", stderr(&o));
    // A name near the 255-byte limit: its staging folder's longer name still fits, and so
    // does the saved state of a command that keeps one.
    let long = dir.join("a".repeat(250));
    let o = draftsim(&["run", "--rounds", "10", "--out", long.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(long.join("run.json").exists() && leftovers(&dir).is_empty());
    let long = dir.join("b".repeat(250));
    let tune = ["tune", "--param", "raise_cap=1..3", "--minimize", "seat_advantage", "--candidates", "2"];
    let o = draftsim(&[&tune[..], &["--rounds", "2000", "--out", long.to_str().unwrap(), "--quiet"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(long.exists() && leftovers(&dir).is_empty());
}

#[test]
fn a_command_whose_tables_cannot_be_written_prints_no_summary() {
    // A file size limit of 4 blocks: the tables do not fit.
    let dir = scratch(FILE, "no-summary");
    let out = dir.join("x");
    let o = Command::new("sh")
        .args(["-c", "trap '' XFSZ; ulimit -f 4; exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_draftsim"))
        .args(["run", "--rounds", "2000", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(o.stdout.is_empty(), "printed a summary of tables never written: {}", String::from_utf8_lossy(&o.stdout));
    assert!(!out.exists() && leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
}

/// Standard output that cannot be written (a full disk): every command says so and fails,
/// none ends as a success with its output lost, none panics.
#[test]
fn a_full_standard_output_is_an_error_not_a_success_or_a_panic() {
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    for args in [
        &["run", "--rounds", "24", "--threads", "1", "--quiet"][..],
        &["hand", "As", "Kd", "Qh", "Jc", "Ts"],
        &["list", "games"],
        &["list", "rules", "sevens"],
        &["completions", "bash"],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_draftsim")).args(args).stdout(full()).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("error: writing to standard output") && !err.contains("panicked"), "{args:?}: {err}");
    }
}

/// `--force` replaces a folder of earlier results, never a folder of someone's own files.
#[test]
fn force_replaces_only_a_folder_of_results() {
    let dir = scratch(FILE, "force-own-files");
    let own = dir.join("own");
    std::fs::create_dir_all(own.join("sub")).unwrap();
    std::fs::write(own.join("precious.txt"), "mine").unwrap();
    let o =
        draftsim(&["run", "--rounds", "24", "--threads", "1", "--quiet", "--out", own.to_str().unwrap(), "--force"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("holds files draftsim did not write"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(own.join("precious.txt")).unwrap(), "mine");
    // Without --force, the refusal says as much at once rather than offer --force.
    let o = draftsim(&["run", "--rounds", "24", "--threads", "1", "--quiet", "--out", own.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("holds files draftsim did not write") && !stderr(&o).contains("pass --force"),
        "{}",
        stderr(&o)
    );
    // An empty folder is written into without --force, and a folder of results replaced
    // with it.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    // The folder itself is kept, so its permissions (and a shell's working directory in it).
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&empty, std::fs::Permissions::from_mode(0o750)).unwrap();
    let mode = || std::fs::metadata(&empty).unwrap().permissions().mode() & 0o777;
    for force in [false, true] {
        let args = ["run", "--rounds", "24", "--threads", "1", "--quiet", "--out", empty.to_str().unwrap()];
        let o = draftsim(&[&args[..], if force { &["--force"][..] } else { &[] }].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        if !force {
            assert_eq!(mode(), 0o750, "the empty folder was replaced, not written into");
        }
    }
    assert!(empty.join("summary.csv").exists());
    // Nor a file someone added to a folder of results: it is named, and both stay.
    std::fs::write(empty.join("notes.txt"), "mine").unwrap();
    let args = ["run", "--rounds", "24", "--threads", "1", "--quiet", "--out", empty.to_str().unwrap(), "--force"];
    let o = draftsim(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("it holds notes.txt, which draftsim did not write"), "{}", stderr(&o));
    assert!(empty.join("notes.txt").exists() && empty.join("summary.csv").exists());
    std::fs::remove_file(empty.join("notes.txt")).unwrap();
    // An empty folder someone made there is theirs too.
    std::fs::create_dir(empty.join("drafts")).unwrap();
    let o = draftsim(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("it holds drafts/, which draftsim did not write"), "{}", stderr(&o));
    std::fs::remove_dir(empty.join("drafts")).unwrap();
    assert!(draftsim(&args).status.success());
    // A report is written beside the results it reads, not inside them.
    let inside = empty.join("report");
    let o = draftsim(&["report", empty.to_str().unwrap(), "--out", inside.to_str().unwrap(), "--quiet"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("it lies inside the input"), "{}", stderr(&o));
    assert!(!inside.exists());
}

/// A study of one deal would find nothing and seem to say nothing changes: refused, with
/// the rounds that give two; and `merge` names what a folder that is no shard is.
#[test]
fn one_deal_studies_are_refused_and_merge_names_a_folder_that_is_no_shard() {
    let dir = scratch(FILE, "one-deal");
    let out = dir.join("s");
    for args in [
        &["sensitivity", "--game", "sevens", "--rounds", "5", "--out", out.to_str().unwrap()][..],
        &["versus", "--game", "sevens", "defaults", "defaults", "--rounds", "5", "--out", out.to_str().unwrap()],
    ] {
        let o = draftsim(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("needs two; use --rounds 24 or more"), "{args:?}: {}", stderr(&o));
        assert!(!out.exists());
    }
    let run = dir.join("run");
    let o = draftsim(&[
        "compare",
        "--game",
        "kuhn-poker",
        "--strategies",
        "tight,random",
        "--rounds",
        "40",
        "--quiet",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let merged = dir.join("merged");
    let o = draftsim(&["merge", run.to_str().unwrap(), "--out", merged.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("a finished study or report, not a shard"), "{}", stderr(&o));
    let o = draftsim(&["merge", dir.join("nowhere").to_str().unwrap(), "--out", merged.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nowhere: no such folder"), "{}", stderr(&o));
    assert!(!merged.exists());
}

/// `play` stopped by Ctrl-C after a unit finished keeps the units finished and says so,
/// without also saying that no results were written.
#[test]
fn play_stopped_after_a_unit_keeps_its_tables_and_says_so() {
    let dir = scratch(FILE, "play-stopped");
    let out = dir.join("played");
    let args = ["--game", "kuhn-poker", "--seats", "you,tight", "--rounds", "3", "--seed", "2", "--out"];
    let mut child = spawn_play(&[&args[..], &[out.to_str().unwrap()]].concat());
    // Two answers, the input left open: the third hand waits for a move.
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, b"1\n1\n").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let o = child.wait_with_output().unwrap();
    drop(stdin);
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(stderr(&o).contains("tables written to"), "{}", stderr(&o));
    assert!(stderr(&o).contains("the tables written hold what was finished"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("no results were written"), "{}", stderr(&o));
    assert!(out.join("summary.csv").exists());
}
