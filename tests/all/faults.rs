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
    let corpus: &[(&[&str], &str)] = &[
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
    ];
    for (args, says) in corpus {
        let o = draftsim(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(says) && err.lines().count() == 1, "{args:?}: {err}");
        assert!(!dir.join("x").exists() && leftovers(&dir).is_empty(), "{args:?} left files");
    }
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
}
