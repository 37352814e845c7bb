//! `draftsim merge`: combine the tallies of shards into the tables of the whole run.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use draftsim::InputError;
use draftsim::games;
use draftsim::output::{Format, OutputDir, RunMeta};
use draftsim::sim::{Lineup, Tally};

use super::args::{OutputArgs, QuietArg};
use super::run::{print_summary, write_run};

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
        return super::study::merge_study(&args.dirs, &args.output, &args.quiet);
    }
    let format: Format = args.output.format.parse()?;
    let Some(out_path) = &args.output.out else {
        return Err(InputError::new("merge: give --out DIR for the merged tables").into());
    };
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
