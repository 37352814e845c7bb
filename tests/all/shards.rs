//! Studies split into shards: `sweep`, `compare`, `ladder` and `sensitivity` with `--shard`
//! play disjoint shares of the variants, pairs, steps or deviations, and `merge` rebuilds the unsharded study's tables byte for byte,
//! refusing shards that are missing, repeated or of another study.

use crate::common;
use common::{draftsim, files, stderr, stdout};
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    common::scratch("shards", name)
}

/// Runs draftsim with `args`, asserting success.
fn ok(args: &[&str]) {
    let o = draftsim(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
}

/// Plays `study` whole into `dir/whole-FORMAT`, then in `n` shards merged into
/// `dir/merged-n-FORMAT`; returns the shard folders.
fn whole_and_merged(dir: &Path, study: &[&str], n: u64, format: &str) -> Vec<String> {
    let whole = dir.join(format!("whole-{format}"));
    if !whole.exists() {
        ok(&[study, &["--quiet", "--format", format, "--out", whole.to_str().unwrap()]].concat());
    }
    let shards: Vec<String> = (0..n)
        .map(|i| {
            let d = dir.join(format!("shard-{i}-of-{n}"));
            if !d.exists() {
                ok(&[study, &["--quiet", "--shard", &format!("{i}/{n}"), "--out", d.to_str().unwrap()]].concat());
            }
            d.to_str().unwrap().to_string()
        })
        .collect();
    let merged = dir.join(format!("merged-{n}-{format}"));
    let mut args = vec!["merge", "--quiet", "--format", format, "--out", merged.to_str().unwrap()];
    args.extend(shards.iter().map(String::as_str));
    ok(&args);
    let (merged, whole) = (files(&merged), files(&whole));
    assert!(whole.iter().any(|f| f.0.ends_with(format)), "{study:?}: the study wrote its tables");
    assert_eq!(merged, whole, "{study:?}: {n} shards merged ({format}) differ from the whole study");
    shards
}

/// `merge` of `dirs` is refused with exit 2 and one line holding `names` and `why`.
fn refused(dirs: &[&str], out: &Path, names: &str, why: &str) {
    let mut args = vec!["merge", "--out", out.to_str().unwrap()];
    args.extend(dirs);
    let o = draftsim(&args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{dirs:?}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{dirs:?}: one line: {err}");
    assert!(err.contains(names) && err.contains(why), "{dirs:?}: wanted '{names}' and '{why}' in: {err}");
    assert!(!out.exists(), "{dirs:?}: a refused merge writes nothing");
}

const SWEEP: [&str; 6] = ["sweep", "--set", "players=3,4,5", "--rounds", "300", "--seed"];
const COMPARE: [&str; 8] =
    ["compare", "--strategies", "greedy,tight,random", "--players", "3", "--rounds", "300", "--seed"];

#[test]
fn a_sharded_sweep_merges_into_the_unsharded_table() {
    let dir = scratch("sweep");
    let study = [&SWEEP[..], &["4"]].concat();
    for format in ["csv", "parquet"] {
        // Two shards split the three variants unevenly; three give each shard one.
        whole_and_merged(&dir, &study, 2, format);
        whole_and_merged(&dir, &study, 3, format);
    }
    // More shards than variants: the shards holding one variant share its chunks.
    whole_and_merged(&dir, &study, 4, "csv");
    whole_and_merged(&dir, &study, 8, "csv");
}

#[test]
fn a_sharded_comparison_merges_into_the_unsharded_tables() {
    // An odd table (both seatings per pair) and an even one.
    for (players, name) in [("3", "compare-odd"), ("4", "compare-even")] {
        let dir = scratch(name);
        let mut study = COMPARE.to_vec();
        study[4] = players;
        study.push("5");
        for format in ["csv", "parquet"] {
            whole_and_merged(&dir, &study, 2, format);
            whole_and_merged(&dir, &study, 3, format);
        }
        // More shards than pairs: the shards holding one pair share its four or five chunks.
        let dir = scratch(&format!("{name}-parts"));
        study[6] = "1200";
        whole_and_merged(&dir, &study, 7, "csv");
    }
}

const LADDER: [&str; 8] = ["ladder", "--game", "sevens", "--budgets", "1,2,4,8", "--rounds", "600", "--seed"];
const SENSITIVITY: [&str; 8] =
    ["sensitivity", "--game", "sevens", "--keys", "ante,all_over", "--rounds", "1200", "--seed"];

#[test]
fn a_sharded_ladder_merges_into_the_unsharded_tables() {
    let dir = scratch("ladder");
    let study = [&LADDER[..], &["4"]].concat();
    whole_and_merged(&dir, &study, 2, "csv");
    // More shards than steps: the shards holding one step share its chunks.
    whole_and_merged(&dir, &study, 4, "parquet");
    whole_and_merged(&dir, &study, 8, "csv");
    // An odd table (both seatings per step).
    let odd = scratch("ladder-odd");
    whole_and_merged(&odd, &[&LADDER[..], &["4", "--players", "3"]].concat(), 7, "csv");
}

#[test]
fn a_sharded_sensitivity_study_merges_into_the_unsharded_tables() {
    let dir = scratch("sensitivity");
    let study = [&SENSITIVITY[..], &["4"]].concat();
    // Four units dealt round-robin over 3 shards: shard 0 plays the base and the last deviation.
    let shards = whole_and_merged(&dir, &study, 3, "csv");
    whole_and_merged(&dir, &study, 2, "parquet");
    // Four variants on eleven shards: each variant's five chunks shared by two or three.
    whole_and_merged(&dir, &study, 11, "csv");
    // A ladder's shard is no shard of this study.
    let ladder = dir.join("ladder-shard");
    ok(&[&LADDER[..], &["4", "--quiet", "--shard", "2/3", "--out", ladder.to_str().unwrap()]].concat());
    refused(
        &[&shards[0], &shards[1], ladder.to_str().unwrap()],
        &dir.join("mixed"),
        ladder.to_str().unwrap(),
        "kind differs",
    );
    let other_seed = dir.join("seed-shard");
    ok(&[&SENSITIVITY[..], &["5", "--quiet", "--shard", "2/3", "--out", other_seed.to_str().unwrap()]].concat());
    refused(
        &[&shards[0], &shards[1], other_seed.to_str().unwrap()],
        &dir.join("mixed"),
        other_seed.to_str().unwrap(),
        "seed differs",
    );
    refused(&[&shards[0], &shards[2]], &dir.join("mixed"), "shard 1/3", "missing");
}

#[test]
fn merging_missing_repeated_or_foreign_shards_is_refused_naming_the_shard() {
    let dir = scratch("refusals");
    let shard = |study: &[&str], i: u64, n: u64, name: &str| {
        let d = dir.join(name);
        ok(&[study, &["--quiet", "--shard", &format!("{i}/{n}"), "--out", d.to_str().unwrap()]].concat());
        d.to_str().unwrap().to_string()
    };
    let sweep = [&SWEEP[..], &["4"]].concat();
    let s0 = shard(&sweep, 0, 3, "s0");
    let s1 = shard(&sweep, 1, 3, "s1");
    let s2 = shard(&sweep, 2, 3, "s2");
    let out = dir.join("merged");
    refused(&[&s0, &s1], &out, "shard 2/3", "missing");
    refused(&[&s0, &s1, &s1, &s2], &out, &s1, "again");
    let other_seed = shard(&[&SWEEP[..], &["5"]].concat(), 2, 3, "seed");
    refused(&[&s0, &s1, &other_seed], &out, &other_seed, "seed differs");
    let rules = dir.join("rules.toml");
    std::fs::write(&rules, "ante = 2\n").unwrap();
    let other_rules = shard(&[&sweep[..], &["--rules", rules.to_str().unwrap()]].concat(), 2, 3, "rules");
    refused(&[&s0, &s1, &other_rules], &out, &other_rules, "rules differs");
    let other_sweep = shard(&["sweep", "--set", "players=3,4,6", "--rounds", "300", "--seed", "4"], 2, 3, "set");
    refused(&[&s0, &s1, &other_sweep], &out, &other_sweep, "differs");
    let other_split = shard(&sweep, 1, 2, "split");
    refused(&[&s0, &s1, &other_split], &out, &other_split, "shard 1/2");
    let compare = shard(&[&COMPARE[..], &["4"]].concat(), 2, 3, "compare");
    refused(&[&s0, &s1, &compare], &out, &compare, "kind differs");
    // A run's folder is no study shard.
    let run = dir.join("run");
    ok(&["run", "--rounds", "100", "--quiet", "--out", run.to_str().unwrap()]);
    refused(&[&s0, &s1, run.to_str().unwrap()], &out, run.to_str().unwrap(), "is a study's shard");
    // Once every shard is there, it merges.
    ok(&["merge", "--quiet", "--out", out.to_str().unwrap(), &s2, &s0, &s1]);
}

#[test]
fn a_study_shard_takes_its_index_from_the_array_and_needs_out() {
    let dir = scratch("auto");
    let o = draftsim(&[&SWEEP[..], &["4", "--shard", "0/2"]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--out"), "{}", stderr(&o));
    // A run's shard too: its table alone is a share of the deals.
    let o = draftsim(&["run", "--rounds", "100", "--shard", "0/2"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--shard: also give --out DIR") && stdout(&o).is_empty(), "{}", stderr(&o));
    let study = [&COMPARE[..], &["4"]].concat();
    let by_index = dir.join("by-index");
    ok(&[&study[..], &["--quiet", "--shard", "1/3", "--out", by_index.to_str().unwrap()]].concat());
    for var in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"] {
        let auto = dir.join(var);
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_draftsim"))
            .args([&study[..], &["--quiet", "--shard", "auto/3", "--out", auto.to_str().unwrap()]].concat())
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("JOB_COMPLETION_INDEX")
            .env(var, "1")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(files(&auto), files(&by_index), "--shard auto/3 with {var}=1");
    }
    // A task index that is no number is named, with the fix.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_draftsim"))
        .args([&study[..], &["--quiet", "--shard", "auto/3", "--out", dir.join("x").to_str().unwrap()]].concat())
        .env_remove("JOB_COMPLETION_INDEX")
        .env("SLURM_ARRAY_TASK_ID", "x")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("SLURM_ARRAY_TASK_ID is 'x', not a task index; run it as an array task"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn merging_parts_that_do_not_fit_their_study_is_refused_not_a_crash() {
    let dir = scratch("bad-parts");
    // One pair of an odd table on three shards: every shard plays a part of it.
    let study = ["compare", "--strategies", "greedy,tight", "--players", "3", "--rounds", "600", "--seed", "4"];
    let shards: Vec<String> = (0..3)
        .map(|i| {
            let d = dir.join(format!("s{i}"));
            ok(&[&study[..], &["--quiet", "--shard", &format!("{i}/3"), "--out", d.to_str().unwrap()]].concat());
            d.to_str().unwrap().to_string()
        })
        .collect();
    let edit = |name: &str, change: &dyn Fn(&mut serde_json::Value)| -> Vec<String> {
        shards
            .iter()
            .map(|s| {
                let d = dir.join(format!("{name}-{}", Path::new(s).file_name().unwrap().to_str().unwrap()));
                std::fs::create_dir_all(&d).unwrap();
                for f in ["study.json", "study_shard.json"] {
                    let mut v: serde_json::Value =
                        serde_json::from_str(&std::fs::read_to_string(Path::new(s).join(f)).unwrap()).unwrap();
                    if f == "study_shard.json" {
                        change(&mut v);
                    }
                    std::fs::write(d.join(f), v.to_string()).unwrap();
                }
                d.to_str().unwrap().to_string()
            })
            .collect()
    };
    let out = dir.join("merged");
    // Every shard claiming two pairs (its own part then fits no split of two), and every
    // shard claiming two pairs with the parts a split of two would give: the study's own
    // settings make one.
    let two = edit("units", &|v| v["units"] = 2.into());
    let args: Vec<&str> = two.iter().map(String::as_str).collect();
    refused(&args, &out, &two[0], "units");
    let split: Vec<String> = (0..3)
        .map(|i| {
            let d = edit(&format!("split{i}"), &|v| {
                let (unit, part) = [(0, (0, 2)), (1, (0, 1)), (0, (1, 2))][i];
                v["units"] = 2.into();
                v["played"] = serde_json::json!([unit]);
                v["part"] = serde_json::json!({"index": part.0, "count": part.1});
            });
            d[i].clone()
        })
        .collect();
    let args: Vec<&str> = split.iter().map(String::as_str).collect();
    refused(&args, &out, &split[0], "its study plays 1 units, not the 2");
    // One part keeping a single seating of the odd table (with no checksum of its results,
    // as a shard written by hand or before one was kept).
    let mut seating = shards.clone();
    seating[1] = edit("seating", &|v| {
        v["results"][0]["tallies"].as_array_mut().unwrap().pop();
        v.as_object_mut().unwrap().remove("results_crc32");
    })[1]
        .clone();
    let args: Vec<&str> = seating.iter().map(String::as_str).collect();
    refused(&args, &out, &seating[1], "seatings' tallies, not 2");
    // The untouched shards still merge.
    ok(&["merge", "--quiet", "--out", out.to_str().unwrap(), &shards[0], &shards[1], &shards[2]]);
}

/// A run with fewer chunks than shards: the shards past its chunks say they have nothing
/// to play, succeed with empty tables, and still merge into the unsharded run.
#[test]
fn a_shard_with_nothing_to_play_says_so_and_merges() {
    let dir = scratch("empty-shard");
    let run = ["run", "--seats", "greedy,tight", "--rounds", "4", "--seed", "3"];
    let shards = whole_and_merged(&dir, &run, 3, "csv");
    for (i, d) in shards.iter().enumerate() {
        let o = draftsim(&[&run[..], &["--shard", &format!("{i}/3"), "--out", d, "--force"]].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        let warned = stderr(&o)
            .contains(&format!("warning: shard {i}/3 has nothing to play: 2 deals make 1 chunk of up to 64 deals"));
        assert_eq!(warned, i > 0, "shard {i}: {}", stderr(&o));
        let plays = format!("4 rounds (2 seatings a deal) · shard {i}/3 plays {} of them", if i == 0 { 4 } else { 0 });
        assert!(stderr(&o).contains(&plays), "shard {i}: {}", stderr(&o));
        // A win rate of no rounds is undefined, and so is its interval: empty fields.
        if i > 0 {
            let summary = std::fs::read_to_string(Path::new(d).join("summary.csv")).unwrap();
            let header: Vec<&str> = summary.lines().next().unwrap().split(',').collect();
            let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
            for row in summary.lines().skip(1) {
                let f: Vec<&str> = row.split(',').collect();
                for column in ["win_rate", "win_rate_lo", "win_rate_hi"] {
                    assert_eq!(f[at(column)], "", "shard {i}, {column}: {summary}");
                }
            }
        }
    }
    // Its report says it holds a shard's share, not the run.
    let report = dir.join("report-shard-0");
    ok(&["report", &shards[0], "--out", report.to_str().unwrap()]);
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("**Note:** shard 0/3 of the run: its figures are from its share of the deals only"), "{md}");
    // ... and says so at the top of the summary, before any figure.
    let caution = md.find("is shard 0/3 of its run: its figures are from its share of the deals only").expect(&md);
    assert!(md.find("## Summary").unwrap() < caution && caution < md.find("- **").unwrap(), "{md}");
    // A study's shard whose part of a unit holds no chunk says so too, and what it played.
    let sweep = ["sweep", "--game", "sevens", "--set", "raise_cap=1,2", "--rounds", "100", "--seed", "7"];
    for (i, empty) in [(0, false), (9, true)] {
        let d = dir.join(format!("sweep-{i}"));
        let o = draftsim(&[&sweep[..], &["--shard", &format!("{i}/10"), "--out", d.to_str().unwrap()]].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        let said = stderr(&o);
        let warned = said.contains(&format!("warning: shard {i}/10 has nothing to play: its unit's deals make fewer chunks than the 5 shards that share them, so its part {} of 0-4 holds none", i / 2));
        assert_eq!(warned, empty, "{said}");
        // A part that held no deals is not said to have played its variant.
        let played = match empty {
            false => format!("1 of 2 variants played (its part {} of 0-4 of the unit's chunks)", i / 2),
            true => format!("shard {i}/10: no deals played (its part {} of 0-4 of the unit's chunks)", i / 2),
        };
        assert!(said.contains(&played) && (empty != said.contains("variants played")), "{said}");
    }
    // A versus side's part, whose results are deal groups, not a tally.
    let versus = ["versus", "--game", "sevens", "defaults", "defaults", "--rounds", "48", "--seed", "7"];
    let d = dir.join("versus-9");
    let o = draftsim(&[&versus[..], &["--shard", "9/10", "--out", d.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("warning: shard 9/10 has nothing to play"), "{}", stderr(&o));
}

/// A study's shard holds rows that only a merge makes tables of: a format asked of it is
/// the merge's unless the merge names another, and its report is refused with the merge to
/// run, in one line, and writes nothing.
#[test]
fn a_study_shard_is_reported_after_a_merge() {
    let dir = scratch("study-shard-report");
    let shards: Vec<PathBuf> = (0..2).map(|i| dir.join(format!("cmp-{i}"))).collect();
    for (i, shard) in shards.iter().enumerate() {
        let at = format!("{i}/2");
        let args = ["5", "--quiet", "--format", "parquet", "--shard", &at, "--out", shard.to_str().unwrap()];
        let o = draftsim(&[&COMPARE[..], &args].concat());
        assert!(o.status.success() && stderr(&o).is_empty(), "{}", stderr(&o));
    }
    let names = |d: &Path| files(d).into_iter().map(|f| f.0).filter(|n| n.starts_with("matrix.")).collect::<Vec<_>>();
    let (kept, csv) = (dir.join("merged"), dir.join("merged-csv"));
    let (s0, s1) = (shards[0].to_str().unwrap(), shards[1].to_str().unwrap());
    ok(&["merge", s0, s1, "--quiet", "--out", kept.to_str().unwrap()]);
    assert_eq!(names(&kept), ["matrix.parquet"], "the shards' format, unasked");
    ok(&["merge", s0, s1, "--quiet", "--format", "csv", "--out", csv.to_str().unwrap()]);
    assert_eq!(names(&csv), ["matrix.csv"], "the format the merge names");
    // Shards of two formats merge into the first's, which is said.
    let other = dir.join("cmp-1-csv");
    let o = draftsim(&[&COMPARE[..], &["5", "--quiet", "--shard", "1/2", "--out", other.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let mixed = dir.join("mixed");
    let o = draftsim(&["merge", s0, other.to_str().unwrap(), "--out", mixed.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let said = format!("the shards wrote parquet ({s0}) and csv ({}): the merged tables are parquet", other.display());
    assert!(stderr(&o).contains(&said), "{}", stderr(&o));
    assert_eq!(names(&mixed), ["matrix.parquet"]);
    // A run's too.
    let runs: Vec<PathBuf> = (0..2).map(|i| dir.join(format!("run-{i}"))).collect();
    for (i, (run, format)) in runs.iter().zip(["csv", "parquet"]).enumerate() {
        let at = format!("{i}/2");
        let args = ["run", "--rounds", "48", "--quiet", "--format", format, "--shard", &at, "--out"];
        ok(&[&args[..], &[run.to_str().unwrap()]].concat());
    }
    let (r0, r1) = (runs[0].to_str().unwrap(), runs[1].to_str().unwrap());
    let o = draftsim(&["merge", r0, r1, "--out", dir.join("run-mixed").to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains(&format!("the shards wrote csv ({r0}) and parquet ({r1})")), "{}", stderr(&o));
    // A merge refused says only why: no note of tables it never wrote.
    let stranger = dir.join("cmp-1-other");
    let args = ["6", "--quiet", "--shard", "1/2", "--out", stranger.to_str().unwrap()];
    assert!(draftsim(&[&COMPARE[..], &args].concat()).status.success());
    let o = draftsim(&["merge", s0, stranger.to_str().unwrap(), "--out", dir.join("never").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stderr(&o).trim().lines().count(), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("a shard of another study than"), "{}", stderr(&o));
    // A run's shard folder without its tally is named as unfinished.
    std::fs::remove_file(runs[1].join("tally.json")).unwrap();
    let o = draftsim(&["merge", r0, r1, "--out", dir.join("never").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("tally.json: missing, so the folder holds no finished shard"), "{}", stderr(&o));
    assert!(!dir.join("never").exists());
    let shard = &shards[0];
    let out = dir.join("report");
    let o = draftsim(&["report", shard.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("shard 0/2 of a study: `draftsim merge` every shard's folder"), "{err}");
    assert!(!out.exists(), "a refused report writes nothing");
}

/// Shards played with a preset file of one name but other contents are of two studies (or
/// runs): merge refuses them naming the file.
#[test]
fn shards_played_with_another_text_of_one_preset_file_are_refused() {
    let dir = scratch("preset-text");
    let tight = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/strategies/seven-card-draft/tight.toml"))
        .unwrap();
    let preset = dir.join("mine.toml");
    let mine = preset.to_str().unwrap();
    let strategies = format!("greedy,{mine}");
    let play = |i: u64, text: &str, run: bool| {
        std::fs::write(&preset, text).unwrap();
        let out = dir.join(format!("{}-{i}", if run { "run" } else { "compare" }));
        let shard = format!("{i}/2");
        let what: [&str; 4] = if run {
            ["run", "--seats", &strategies, "--players"]
        } else {
            ["compare", "--strategies", &strategies, "--players"]
        };
        ok(&[
            &what[..],
            &["2", "--rounds", "200", "--quiet", "--force", "--shard", &shard, "--out", out.to_str().unwrap()],
        ]
        .concat());
        out.to_str().unwrap().to_string()
    };
    let looser = tight.replace("fold_below = [0.56, 0.48, 0.45]", "fold_below = [0.40, 0.48, 0.45]");
    assert_ne!(looser, tight);
    for run in [false, true] {
        let (a, b) = (play(0, &tight, run), play(1, &looser, run));
        let out = dir.join(format!("merged-{run}"));
        refused(&[&a, &b], &out, &format!("the text of {mine} differs"), "");
        // Played with one text, they merge.
        let b = play(1, &tight, run);
        ok(&["merge", "--out", out.to_str().unwrap(), "--quiet", &a, &b]);
    }
}

/// One rules file named by two paths (a task's own working folder) is the same run and
/// the same study: the shards merge; another text is refused, naming the file.
#[test]
fn shards_naming_one_rules_file_by_other_paths_merge() {
    let dir = scratch("rules-paths");
    std::fs::write(dir.join("r.toml"), "raise_cap = 2\n").unwrap();
    let at = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let in_dir = |args: &[&str]| {
        let o =
            std::process::Command::new(env!("CARGO_BIN_EXE_draftsim")).current_dir(&dir).args(args).output().unwrap();
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    };
    let run = ["run", "--game", "sevens", "--rounds", "400", "--seed", "5", "--quiet"];
    ok(&[&run[..], &["--rules", &at("r.toml"), "--shard", "0/2", "--out", &at("run-0")]].concat());
    in_dir(&[&run[..], &["--rules", "r.toml", "--shard", "1/2", "--out", "run-1"]].concat());
    ok(&["merge", "--quiet", &at("run-0"), &at("run-1"), "--out", &at("run-merged")]);
    // The merge's record keeps each shard's: the command and the file's text it played.
    let record = std::fs::read_to_string(dir.join("run-merged").join("provenance.json")).unwrap();
    let record: serde_json::Value = serde_json::from_str(&record).unwrap();
    let shards = record["shards"].as_array().unwrap();
    assert_eq!(shards.len(), 2, "{record}");
    for (shard, named) in shards.iter().zip([at("r.toml"), "r.toml".to_string()]) {
        let files = &shard["provenance"]["files"];
        assert_eq!(files[0]["path"], named.as_str(), "{record}");
        assert_eq!(files[0]["text"], "raise_cap = 2\n", "{record}");
        assert!(shard["provenance"]["command_line"].to_string().contains("--shard"), "{record}");
    }
    let versus = ["versus", "--game", "sevens", "--rounds", "400", "--seed", "5", "--quiet"];
    ok(&[&versus[..], &["defaults", &at("r.toml"), "--shard", "0/2", "--out", &at("vs-0")]].concat());
    in_dir(&[&versus[..], &["defaults", "./r.toml", "--shard", "1/2", "--out", "vs-1"]].concat());
    ok(&["merge", "--quiet", &at("vs-0"), &at("vs-1"), "--out", &at("vs-merged")]);
    // Another text under the same name is another run.
    std::fs::write(dir.join("r.toml"), "raise_cap = 3\n").unwrap();
    in_dir(&[&run[..], &["--rules", "r.toml", "--shard", "1/2", "--out", "run-1b"]].concat());
    let o = draftsim(&["merge", &at("run-0"), &at("run-1b"), "--out", &at("refused")]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("(rules, the text of r.toml (named {} there) differ;", at("r.toml"))),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("refused").exists());
}

/// `--ideal-length` is kept with each shard: the merge writes the health table's share
/// inside the band as the whole run does, and shards of another band are refused.
#[test]
fn a_sharded_run_keeps_its_ideal_length() {
    let dir = scratch("ideal-length");
    let run = ["run", "--game", "sevens", "--rounds", "600", "--seed", "7", "--ideal-length", "5..20"];
    let shards = whole_and_merged(&dir, &run, 2, "csv");
    let health = std::fs::read_to_string(dir.join("merged-2-csv").join("health.csv")).unwrap();
    assert!(health.lines().any(|l| l.starts_with("ideal_length,")), "{health}");
    let other = dir.join("other-band");
    let args = ["run", "--game", "sevens", "--rounds", "600", "--seed", "7", "--ideal-length", "5..30", "--quiet"];
    ok(&[&args[..], &["--shard", "1/2", "--out", other.to_str().unwrap()]].concat());
    refused(&[&shards[0], other.to_str().unwrap()], &dir.join("refused"), "other-band", "ideal_length differs");
}

/// A study shard copied under another shard's index (its part's deals counted twice) is
/// refused, as is a pair that won more than it played, each naming its folder.
#[test]
fn a_study_part_copied_under_another_index_is_refused() {
    let dir = scratch("copied-part");
    let at = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let compare = ["compare", "--game", "sevens", "--strategies", "tight,greedy", "--rounds", "400", "--seed", "3"];
    ok(&[&compare[..], &["--quiet", "--shard", "0/2", "--out", &at("s0")]].concat());
    let copy = dir.join("s1");
    std::fs::create_dir_all(&copy).unwrap();
    for file in ["study.json", "study_shard.json"] {
        let text = std::fs::read_to_string(dir.join("s0").join(file)).unwrap();
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["shard"]["index"] = 1.into();
        if file == "study_shard.json" {
            v["part"]["index"] = 1.into();
        }
        std::fs::write(copy.join(file), v.to_string()).unwrap();
    }
    refused(
        &[&at("s0"), &at("s1")],
        &dir.join("merged"),
        "s1",
        "its tally played part 0 of 0-1 of the unit's chunks, not part 1 of 0-1",
    );
}
