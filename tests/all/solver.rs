//! The solver through the command line: `train` reaches the reference games' known
//! values, writes a policy the `cfr` preset plays, resumes after Ctrl-C and is the same on
//! any thread count; `exploitability` measures presets exactly; bad input is one line.

use std::process::Command;

use crate::common::*;

const FILE: &str = "solver";

fn last_row(csv: &str) -> Vec<f64> {
    let line = csv.lines().last().expect("a row");
    line.split(',').map(|v| v.parse().unwrap()).collect()
}

#[test]
fn train_reaches_kuhns_value_and_the_policy_plays() {
    let dir = scratch(FILE, "kuhn");
    let out = dir.join("kuhn");
    let o =
        draftsim(&["train", "--game", "kuhn-poker", "--iterations", "2000", "--out", out.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // iterations, seconds, exploitability, value_seat0
    let row = last_row(&std::fs::read_to_string(out.join("training.csv")).unwrap());
    assert_eq!(row[0], 2000.0);
    assert!(row[2] <= 0.001, "{row:?}");
    assert!((row[3] + 1.0 / 18.0).abs() < 0.001, "{row:?}");
    let policy = format!("cfr{{policy=\"{}\"}}", out.display());
    let two = format!("{policy},tight");
    let three = format!("{policy},tight,random");
    let o = draftsim(&["exploitability", "--game", "kuhn-poker", "--seats", &format!("{policy},random"), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = stdout(&o);
    assert!(row_value(&table, "cfr", 1) <= 0.001, "{table}");
    assert!(table.lines().any(|l| l.starts_with("cfr") && l.contains("policy read exactly")), "{table}");
    assert!(table.lines().any(|l| l.starts_with("random") && l.contains("64 decisions per set")), "{table}");
    // The uniform random player, tabulated from samples, is near its exact 0.458333.
    assert!((row_value(&table, "random", 1) - 0.458).abs() < 0.06, "{table}");
    let o = draftsim(&[
        "run",
        "--game",
        "kuhn-poker",
        "--seats",
        &format!("{policy},tight"),
        "--rounds",
        "2000",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The same policy under other rules, for another game, or broken: one line, exit 2.
    for (args, says) in [
        (vec!["run", "--game", "kuhn-poker", "--seats", &three, "--rounds", "10"], "other rules"),
        (vec!["run", "--game", "leduc-poker", "--seats", &two, "--rounds", "10"], "trained for kuhn-poker"),
    ] {
        let o = draftsim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says) && stderr(&o).lines().count() == 1, "{}", stderr(&o));
    }
    std::fs::write(out.join("policy.json"), "{\"header\": 1}").unwrap();
    let o = draftsim(&["run", "--game", "kuhn-poker", "--seats", &two, "--rounds", "10"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a policy file"), "{}", stderr(&o));
}

#[test]
fn leduc_trains_below_a_hundredth_and_es_mccfr_is_the_same_on_any_thread_count() {
    let dir = scratch(FILE, "leduc");
    let train = |name: &str, algorithm: &str, iterations: &str, threads: &str| {
        let out = dir.join(name);
        let o = draftsim(&[
            "train",
            "--game",
            "leduc-poker",
            "--algorithm",
            algorithm,
            "--iterations",
            iterations,
            "--out",
            out.to_str().unwrap(),
            "--threads",
            threads,
            "--quiet",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        out
    };
    let out = train("cfr", "cfr+", "400", "1");
    let row = last_row(&std::fs::read_to_string(out.join("training.csv")).unwrap());
    assert!(row[2] < 0.01 && (row[3] + 0.0856).abs() < 0.005, "{row:?}");
    let one = train("es1", "es-mccfr", "3000", "1");
    let two = train("es2", "es-mccfr", "3000", "2");
    assert_eq!(std::fs::read(one.join("policy.json")).unwrap(), std::fs::read(two.join("policy.json")).unwrap());
}

#[test]
fn ctrl_c_keeps_the_training_and_the_same_command_resumes_it() {
    let dir = scratch(FILE, "resume");
    let out = dir.join("leduc");
    let args = [
        "train",
        "--game",
        "leduc-poker",
        "--algorithm",
        "cfr",
        "--iterations",
        "100000000",
        "--out",
        out.to_str().unwrap(),
    ];
    let child =
        Command::new(env!("CARGO_BIN_EXE_draftsim")).args(args).stderr(std::process::Stdio::piped()).spawn().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let _ = Command::new("kill").args(["-INT", &child.id().to_string()]).status();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(stderr(&o).contains("the same command resumes"), "{}", stderr(&o));
    assert!(!out.exists(), "nothing is written until the training ends");
    let state = dir.join(".leduc.train-state.json");
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    let done = saved["iterations"].as_u64().unwrap();
    assert!(done > 0);
    // The same command, with a reachable target, resumes from the saved iterations.
    let more = (done + 5).to_string();
    let o = draftsim(&[
        "train",
        "--game",
        "leduc-poker",
        "--algorithm",
        "cfr",
        "--iterations",
        &more,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains(&format!("({done} iterations done)")), "{}", stderr(&o));
    assert!(out.join("policy.json").exists() && !state.exists());
}

#[test]
fn bad_training_input_is_one_line() {
    let dir = scratch(FILE, "bad");
    let out = dir.join("x");
    let out = out.to_str().unwrap();
    for (args, says) in [
        (vec!["train", "--game", "kuhn-poker", "--algorithm", "nope", "--out", out], "--algorithm nope"),
        (vec!["train", "--game", "sevens", "--out", out], "exact tree"),
        (vec!["train", "--game", "kuhn-poker", "--iterations", "0", "--out", out], "--iterations 0"),
        (vec!["train", "--game", "kuhn-poker"], "--out"),
        (vec!["exploitability", "--game", "sevens"], "exact tree"),
        (vec!["exploitability", "--game", "kuhn-poker", "--samples", "0"], "--samples 0"),
    ] {
        let o = draftsim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says) && stderr(&o).lines().count() == 1, "{args:?}: {}", stderr(&o));
        assert!(!dir.join("x").exists());
    }
}
