//! `draftsim merge`: combine the tallies of shards into the tables of the whole run.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use draftsim::InputError;
use draftsim::games;
use draftsim::output::{Format, OutputDir, RunMeta};
use draftsim::sim::{Lineup, Tally};
use draftsim::study;

use super::args::{OutputArgs, QuietArg};
use super::compare::Compare;
use super::ladder::Ladder;
use super::run::{print_summary, write_run};
use super::sensitivity::Sensitivity;
use super::study::*;
use super::sweep::Sweep;

/// Arguments of `draftsim merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Output folders of the shards (each with run.json and tally.json, or a study's
    /// study_shard.json).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub quiet: QuietArg,
}

fn read_json<T: serde::de::DeserializeOwned>(path: &std::path::Path) -> Result<T, InputError> {
    let text = std::fs::read_to_string(path).map_err(|e| InputError::new(format!("{}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| InputError::new(format!("{}: {e}", path.display())))
}

/// Merges the shards.
pub fn run(args: MergeArgs) -> Result<()> {
    if args.dirs.iter().any(|d| d.join(super::study::STUDY_SHARD).exists()) {
        return merge_study(&args.dirs, &args.output, &args.quiet);
    }
    let format: Format = args.output.format.parse()?;
    let Some(out_path) = &args.output.out else {
        return Err(InputError::new("merge: give --out DIR for the merged tables").into());
    };
    draftsim::output::check_out_not_input(out_path, &args.dirs)?;
    let mut parts: Vec<(RunMeta, Tally)> = Vec::new();
    for dir in &args.dirs {
        parts.push((read_json(&dir.join("run.json"))?, read_json(&dir.join("tally.json"))?));
    }
    let (first, _) = &parts[0];
    let same_run = |m: &RunMeta| RunMeta { shard: None, rounds: 0, notes: Vec::new(), ..m.clone() };
    let count = first.shard.map_or(1, |s| s.count);
    let mut covered = vec![false; count as usize];
    for ((meta, _), dir) in parts.iter().zip(&args.dirs) {
        if same_run(meta) != same_run(first) {
            return Err(InputError::new(format!(
                "{}: not a shard of the same run as {} (game, seed, rules, seats and rounds must match)",
                dir.display(),
                args.dirs[0].display()
            ))
            .into());
        }
        let shard = meta
            .shard
            .ok_or_else(|| InputError::new(format!("{}: not a shard (run with --shard i/n)", dir.display())))?;
        if shard.count != count || std::mem::replace(&mut covered[shard.index as usize], true) {
            return Err(InputError::new(format!(
                "{}: shard {}/{} overlaps or does not fit the others",
                dir.display(),
                shard.index,
                shard.count
            ))
            .into());
        }
    }
    if let Some(missing) = covered.iter().position(|c| !c) {
        return Err(InputError::new(format!("shard {missing}/{count} is missing: give every shard's folder")).into());
    }
    let out = OutputDir::create(out_path, args.output.force)?;
    let info = games::find(&first.game)?;
    let (game, _) = (info.build)(Some(&first.rules), None, Some(&first.seats))
        .map_err(|e| e.context(format!("{}: run.json", args.dirs[0].display())))?;
    let lineup = Lineup::new(&first.seats);
    let mut total = parts[0].1.clone();
    for (_, t) in &parts[1..] {
        total.merge(t);
    }
    total.shard = None;
    let notes = game.unused_rules(&total);
    super::args::warn_unused(&notes, &args.quiet);
    let meta = RunMeta { shard: None, rounds: total.rounds, notes, ..first.clone() };
    let tables = game.tables(&total, &lineup.strategies);
    print_summary(&tables, &total, game.measures());
    let path = write_run(out, &tables, &total, &meta, format)?;
    args.quiet.note(&format!("tables written to {}", path.display()));
    Ok(())
}

/// The first field, by name, in which two JSON objects differ.
pub(super) fn first_difference(a: &serde_json::Value, b: &serde_json::Value) -> Option<String> {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return (a != b).then(String::new);
    };
    a.keys().chain(b.keys()).find(|k| a.get(*k) != b.get(*k)).cloned()
}

/// The studies whose shards `merge` puts together.
const SHARDED: [&dyn Study; 4] = [&Compare, &Sweep, &Ladder, &Sensitivity];

/// Merges the folders of a study's shards into the tables of the unsharded study, after
/// checking that they are the shards of one study and hold each unit exactly once.
pub(super) fn merge_study(dirs: &[PathBuf], output: &OutputArgs, quiet: &QuietArg) -> Result<()> {
    let format: Format = output.format.parse()?;
    let Some(out_path) = &output.out else {
        return Err(InputError::new("merge: give --out DIR for the merged tables").into());
    };
    draftsim::output::check_out_not_input(out_path, dirs)?;
    let mut parts: Vec<StudyShard> = Vec::new();
    for dir in dirs {
        let path = dir.join(STUDY_SHARD);
        let text = std::fs::read_to_string(&path).map_err(|_| {
            InputError::new(format!(
                "{}: not a study shard (no {STUDY_SHARD}); merge the shards of one study alone",
                dir.display()
            ))
        })?;
        parts.push(serde_json::from_str(&text).map_err(|e| InputError::new(format!("{}: {e}", path.display())))?);
    }
    let first = &parts[0];
    let count = first.shard.count;
    let mut held: Vec<Option<usize>> = vec![None; count as usize];
    // Each unit's results: the whole unit's, or its parts' in part order.
    let mut results: Vec<Vec<(u64, usize, serde_json::Value)>> = vec![Vec::new(); first.units];
    for (at, (part, dir)) in parts.iter().zip(dirs).enumerate() {
        let differs = [
            ("kind", &part.kind, &first.kind),
            ("game", &part.game, &first.game),
            ("version", &part.version, &first.version),
        ]
        .iter()
        .find(|(_, a, b)| a != b)
        .map(|(name, _, _)| name.to_string())
        .or_else(|| first_difference(&part.spec, &first.spec))
        .or_else(|| first_difference(&part.study, &first.study));
        if let Some(field) = differs {
            return Err(InputError::new(format!(
                "{}: a shard of another study than {} ({field} differs); merge the shards of one {} alone",
                dir.display(),
                dirs[0].display(),
                first.kind
            ))
            .into());
        }
        let (i, n) = (part.shard.index, part.shard.count);
        if n != count || i >= n {
            return Err(InputError::new(format!(
                "{}: shard {i}/{n}, but {} is a shard of {count}; give the shards of one split",
                dir.display(),
                dirs[0].display()
            ))
            .into());
        }
        if let Some(other) = held[i as usize].replace(at) {
            return Err(InputError::new(format!(
                "{}: shard {i}/{n} again (also {}); give each shard once",
                dir.display(),
                dirs[other].display()
            ))
            .into());
        }
        let work = study::shard_work(part.units, Some(part.shard));
        if part.units != first.units
            || part.played != work.units
            || part.part != work.part
            || part.results.len() != part.played.len()
        {
            return Err(InputError::new(format!(
                "{}: shard {i}/{n} does not hold that shard's {} units; play it again",
                dir.display(),
                first.units
            ))
            .into());
        }
        for (&unit, result) in part.played.iter().zip(&part.results) {
            results[unit].push((part.part.map_or(0, |p| p.index), at, result.clone()));
        }
    }
    if let Some(missing) = held.iter().position(Option::is_none) {
        return Err(InputError::new(format!("shard {missing}/{count} is missing: give every shard's folder")).into());
    }
    // Every shard is there, so every unit is held whole or in all its parts: each part's
    // result with the shard folder it came from.
    let results: Vec<Vec<(usize, serde_json::Value)>> = results
        .into_iter()
        .map(|mut parts| {
            parts.sort_by_key(|p| p.0);
            parts.into_iter().map(|(_, at, value)| (at, value)).collect()
        })
        .collect();
    let bad = |e: serde_json::Error| InputError::new(format!("{}: {e}", dirs[0].join(STUDY_SHARD).display()));
    let wrong = |at: usize, what: &str| {
        InputError::new(format!("{}: {what}; play that shard again", dirs[at].join(STUDY_SHARD).display()))
    };
    // With fewer units than shards every shard played a part of one unit.
    let in_parts = first.units < count as usize;
    let study = SHARDED.iter().find(|s| s.kind().name == first.kind).ok_or_else(|| {
        InputError::new(format!("{}: a shard of '{}', which merge does not know", dirs[0].display(), first.kind))
    })?;
    let merging =
        Merging { info: games::find(&first.game)?, spec: &first.spec, results, in_parts, bad: &bad, wrong: &wrong };
    // The units the study's own settings make, against what the shards say they split.
    let units = study.units(&merging)?;
    if units != first.units {
        return Err(wrong(0, &format!("its study plays {units} units, not the {} the shard says", first.units)).into());
    }
    let out = OutputDir::create(out_path, output.force)?;
    study.merge(merging, first.study.clone(), out, format, quiet)
}
