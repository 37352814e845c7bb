//! `draftsim merge`: combine the tallies of shards into the tables of the whole run.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use draftsim::InputError;
use draftsim::games;
use draftsim::output::{Format, RunMeta, Values};
use draftsim::sim::{Lineup, Tally};
use draftsim::study;

use super::args::{OutputArgs, QuietArg};
use super::compare::Compare;
use super::ladder::Ladder;
use super::run::{RoundsWriter, print_summary, write_run};
use super::sensitivity::Sensitivity;
use super::study::*;
use super::sweep::Sweep;
use super::versus::Versus;

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

/// Each shard folder's table `name`, in either format, where it has one.
fn tables_named(dirs: &[PathBuf], name: &str) -> Vec<Option<PathBuf>> {
    let find = |d: &PathBuf| ["parquet", "csv"].iter().map(|e| d.join(format!("{name}.{e}"))).find(|p| p.exists());
    dirs.iter().map(find).collect()
}

/// The shards' `outside` tables (the external bots' decisions and faults, which no tally
/// holds) summed by strategy; none where no shard seated an external bot. Every shard must
/// have one if any has: each seats the same bots.
fn merged_outside(dirs: &[PathBuf]) -> Result<Option<draftsim::output::Table>, InputError> {
    use draftsim::outside::process::FaultCounts;
    let found = tables_named(dirs, "outside");
    if found.iter().all(Option::is_none) {
        return Ok(None);
    }
    let mut rows: Vec<(String, FaultCounts)> = Vec::new();
    for (path, dir) in found.iter().zip(dirs) {
        let path = path.as_ref().ok_or_else(|| {
            InputError::new(format!(
                "{}: no outside table, though other shards seated external bots; play that shard again",
                dir.display()
            ))
        })?;
        let bad = |e: &dyn std::fmt::Display| InputError::new(format!("{}: {e}", path.display()));
        let frame = draftsim::output::read_frame(path).map_err(|e| match e {
            // Named and mended by the reader already.
            draftsim::Error::Input(e) => e,
            e => bad(&e),
        })?;
        let column = |name: &str| -> Result<Vec<u64>, InputError> {
            let c = frame
                .column(name)
                .map_err(|e| bad(&e))?
                .cast(&polars::prelude::DataType::UInt64)
                .map_err(|e| bad(&e))?;
            let values = c.u64().map_err(|e| bad(&e))?;
            (0..values.len()).map(|i| values.get(i).ok_or_else(|| bad(&format!("an empty {name}")))).collect()
        };
        let strategy = frame.column("strategy").map_err(|e| bad(&e))?.str().map_err(|e| bad(&e))?.clone();
        let counts = ["decisions", "illegal", "garbage", "timeouts", "crashes", "fallbacks"].map(column);
        let [decisions, illegal, garbage, timeouts, crashes, fallbacks] = counts;
        let (decisions, illegal, garbage) = (decisions?, illegal?, garbage?);
        let (timeouts, crashes, fallbacks) = (timeouts?, crashes?, fallbacks?);
        for i in 0..strategy.len() {
            let name = strategy.get(i).ok_or_else(|| bad(&"an empty strategy"))?.to_string();
            let at = match rows.iter().position(|(n, _)| *n == name) {
                Some(at) => at,
                None => {
                    rows.push((name, FaultCounts::default()));
                    rows.len() - 1
                }
            };
            rows[at].1.add(&FaultCounts {
                decisions: decisions[i],
                illegal: illegal[i],
                garbage: garbage[i],
                timeouts: timeouts[i],
                crashes: crashes[i],
                fallbacks: fallbacks[i],
            });
        }
    }
    Ok(Some(draftsim::output::outside_table(&rows)))
}

/// How many rows of the merged rounds table are held before they are written, and how
/// many a shard's table is read at a time: the merge streams, as `run` does.
const ROUNDS_BATCH: usize = 16_384;

/// One shard's `rounds` table, read a batch of rows at a time in file order.
struct RoundsSource {
    path: PathBuf,
    csv: Option<csv::Reader<std::fs::File>>,
    /// A Parquet table's metadata and the rows read so far (read by row ranges).
    parquet: Option<(std::sync::Arc<polars::io::parquet::read::FileMetadata>, usize)>,
    batch: draftsim::output::Table,
    at: usize,
    /// Rows taken from this shard so far, and the rows its tally counts.
    taken: u64,
    want: u64,
}

impl RoundsSource {
    fn open(path: &std::path::Path, schema: &draftsim::output::Table, want: u64) -> Result<RoundsSource, InputError> {
        let mut source = RoundsSource {
            path: path.to_path_buf(),
            csv: None,
            parquet: None,
            batch: schema.clone(),
            at: 0,
            taken: 0,
            want,
        };
        let names: Vec<&str> = schema.columns.iter().map(|c| c.0.as_str()).collect();
        let other = || source_error(path, &"not the columns of this run's rounds table; play that shard again");
        if path.extension().is_some_and(|e| e == "csv") {
            // Every table draftsim writes ends its last line: one that does not was cut short.
            let ends = || -> std::io::Result<bool> {
                use std::io::{Read, Seek, SeekFrom};
                let mut file = std::fs::File::open(path)?;
                if file.seek(SeekFrom::End(0))? == 0 {
                    return Ok(true);
                }
                file.seek(SeekFrom::End(-1))?;
                let mut last = [0u8];
                file.read_exact(&mut last)?;
                Ok(last[0] == b'\n')
            };
            if !ends().map_err(|e| source_error(path, &e))? {
                return Err(source_error(path, &"cut short (its last line is unfinished); play that shard again"));
            }
            let mut reader = csv::Reader::from_path(path).map_err(|e| source_error(path, &e))?;
            if !reader.headers().map_err(|e| source_error(path, &e))?.iter().eq(names.iter().copied()) {
                return Err(other());
            }
            source.csv = Some(reader);
        } else {
            use polars::prelude::{ParquetReader, SerReader};
            let file = std::fs::File::open(path).map_err(|e| source_error(path, &e))?;
            let mut reader = ParquetReader::new(file);
            let schema = reader.schema().map_err(|e| source_error(path, &e))?;
            if !schema.iter_names().map(|n| n.as_str()).eq(names.iter().copied()) {
                return Err(other());
            }
            source.parquet = Some((reader.get_metadata().map_err(|e| source_error(path, &e))?.clone(), 0));
        }
        Ok(source)
    }

    /// The round of the next row, reading the next batch where this one is used up; none
    /// at the end, after checking the shard held as many rows as its tally counts.
    fn peek(&mut self) -> Result<Option<i64>, InputError> {
        if self.at == self.batch.rows() {
            self.refill()?;
            if self.batch.rows() == 0 {
                if self.taken != self.want {
                    return Err(source_error(
                        &self.path,
                        &format!(
                            "{} rows, not the {} its tally counts (one a round and seat); play that shard again",
                            self.taken, self.want
                        ),
                    ));
                }
                return Ok(None);
            }
        }
        let Some(Values::Int(round)) = self.batch.column("round") else {
            unreachable!("the rounds table starts with round")
        };
        Ok(Some(round[self.at]))
    }

    /// Moves the next row to the end of `to`.
    fn take(&mut self, to: &mut draftsim::output::Table) {
        for ((_, from), (_, to)) in self.batch.columns.iter_mut().zip(&mut to.columns) {
            match (from, to) {
                (Values::Int(f), Values::Int(t)) => t.push(f[self.at]),
                (Values::Real(f), Values::Real(t)) => t.push(f[self.at]),
                (Values::Text(f), Values::Text(t)) => t.push(std::mem::take(&mut f[self.at])),
                _ => unreachable!("a rounds table holds whole numbers, reals and text"),
            }
        }
        self.at += 1;
        self.taken += 1;
    }

    /// Reads the next batch (none at the end), each cell as the schema types its column.
    fn refill(&mut self) -> Result<(), InputError> {
        let path = self.path.clone();
        let bad = |e: &dyn std::fmt::Display| source_error(&path, e);
        clear(&mut self.batch);
        self.at = 0;
        if let Some(reader) = self.csv.as_mut() {
            let mut record = csv::StringRecord::new();
            while self.batch.rows() < ROUNDS_BATCH && reader.read_record(&mut record).map_err(|e| bad(&e))? {
                for ((name, values), cell) in self.batch.columns.iter_mut().zip(&record) {
                    let unreadable = || bad(&format!("'{cell}' in {name} is not a number"));
                    match values {
                        Values::Int(v) => v.push(cell.parse().map_err(|_| unreadable())?),
                        Values::Real(v) => v.push(cell.parse().map_err(|_| unreadable())?),
                        Values::Text(v) => v.push(cell.to_string()),
                        _ => unreachable!("a rounds table holds whole numbers, reals and text"),
                    }
                }
            }
        } else if let Some((metadata, offset)) = self.parquet.as_mut() {
            use polars::prelude::{DataType, ParquetReader, SerReader};
            if *offset >= metadata.num_rows {
                return Ok(());
            }
            let file = std::fs::File::open(&path).map_err(|e| bad(&e))?;
            let mut reader = ParquetReader::new(file).with_slice(Some((*offset, ROUNDS_BATCH)));
            reader.set_metadata(metadata.clone());
            let frame = reader.finish().map_err(|e| bad(&e))?;
            *offset += frame.height();
            for (name, values) in &mut self.batch.columns {
                let column = frame.column(name).map_err(|e| bad(&e))?;
                let cast = |t: &DataType| column.cast(t).map_err(|e| bad(&e));
                let empty = || bad(&format!("an empty cell in {name}"));
                match values {
                    Values::Int(v) => {
                        for x in cast(&DataType::Int64)?.i64().map_err(|e| bad(&e))?.iter() {
                            v.push(x.ok_or_else(empty)?);
                        }
                    }
                    Values::Real(v) => {
                        for x in cast(&DataType::Float64)?.f64().map_err(|e| bad(&e))?.iter() {
                            v.push(x.ok_or_else(empty)?);
                        }
                    }
                    Values::Text(v) => {
                        for x in cast(&DataType::String)?.str().map_err(|e| bad(&e))?.iter() {
                            v.push(x.unwrap_or_default().to_string());
                        }
                    }
                    _ => unreachable!("a rounds table holds whole numbers, reals and text"),
                }
            }
        }
        Ok(())
    }
}

fn source_error(path: &std::path::Path, e: &dyn std::fmt::Display) -> InputError {
    InputError::new(format!("{}: {e}", path.display()))
}

/// Empties every column of a rounds table, keeping its columns and their types.
fn clear(table: &mut draftsim::output::Table) {
    for (_, values) in &mut table.columns {
        match values {
            Values::Int(v) => v.clear(),
            Values::Real(v) => v.clear(),
            Values::Text(v) => v.clear(),
            _ => unreachable!("a rounds table holds whole numbers, reals and text"),
        }
    }
}

/// Writes the shards' `rounds` tables (from `--rounds-out`) as one, in round order as the
/// unsharded run writes it, a batch at a time: chunks are dealt round the shards, so each
/// shard holds every n-th stretch of rounds in order, and the merge takes the stretch
/// whose round comes next. Each cell is read as the column `schema` (the game's rounds
/// table of no rows) types it, not as a reader would guess from the text. Nothing where no
/// shard wrote one; a warning, and nothing, where only some did.
fn merge_rounds(
    dirs: &[PathBuf],
    rows: &[u64],
    schema: &draftsim::output::Table,
    mut writer: impl FnMut(&draftsim::output::Table) -> Result<()>,
) -> Result<()> {
    let found = tables_named(dirs, "rounds");
    if found.iter().all(Option::is_none) {
        return Ok(());
    }
    if let Some(at) = found.iter().position(Option::is_none) {
        super::args::warn(&format!(
            "{}: no rounds table, though other shards have one; the merged run has none (play that shard again with --rounds-out)",
            dirs[at].display()
        ));
        return Ok(());
    }
    let mut sources: Vec<RoundsSource> = found
        .iter()
        .flatten()
        .zip(rows)
        .map(|(path, &want)| RoundsSource::open(path, schema, want))
        .collect::<Result<_, _>>()?;
    let mut batch = schema.clone();
    loop {
        // The shard whose next round comes first (a round is played in one shard only).
        let mut next: Option<(usize, i64)> = None;
        for (i, source) in sources.iter_mut().enumerate() {
            if let Some(round) = source.peek()?
                && next.is_none_or(|(_, r)| round < r)
            {
                next = Some((i, round));
            }
        }
        let Some((i, round)) = next else { break };
        // Every seat of that round, in the order the shard wrote them.
        while sources[i].peek()? == Some(round) {
            sources[i].take(&mut batch);
        }
        if batch.rows() >= ROUNDS_BATCH {
            // Ctrl-C stops here, between batches; the staging folder is dropped unwritten.
            if super::interrupt::interrupted() {
                return Err(draftsim::Error::Interrupted.into());
            }
            writer(&batch)?;
            clear(&mut batch);
        }
    }
    if batch.rows() > 0 {
        writer(&batch)?;
    }
    Ok(())
}

/// Merges the shards.
pub fn run(args: MergeArgs) -> Result<()> {
    // A folder that is no shard at all is named for what it is.
    for dir in &args.dirs {
        if !dir.is_dir() {
            let what = if dir.exists() { "a file, not a folder" } else { "no such folder" };
            return Err(InputError::new(format!("{}: {what}; name the folders the shards wrote", dir.display())).into());
        }
        let holds = |name: &str| dir.join(name).is_file();
        if !holds("run.json") && !holds(super::study::STUDY_SHARD) {
            let what = if holds("study.json") || holds("report.md") {
                "a finished study or report, not a shard"
            } else {
                "not a shard (no run.json or study_shard.json)"
            };
            return Err(InputError::new(format!(
                "{}: {what}; merge takes the folders that `--shard K/N` wrote",
                dir.display()
            ))
            .into());
        }
    }
    let is_study = |d: &PathBuf| d.join(super::study::STUDY_SHARD).exists();
    if let (Some(study), Some(run)) = (args.dirs.iter().find(|d| is_study(d)), args.dirs.iter().find(|d| !is_study(d)))
    {
        // Named both ways: neither folder is wrong alone.
        return Err(InputError::new(format!(
            "{}: a run's folder, but {} is a study's shard; merge the shards of one run or one study alone",
            run.display(),
            study.display()
        ))
        .into());
    }
    if args.dirs.iter().any(is_study) {
        return merge_study(&args.dirs, &args.output, &args.quiet);
    }
    // A run's shards wrote their tables in a format: the merged run keeps it unless
    // --format names another.
    let wrote_parquet = |dir: &PathBuf| {
        std::fs::read_dir(dir)
            .map(|d| d.flatten().any(|e| e.path().extension().is_some_and(|x| x == "parquet")))
            .unwrap_or(false)
    };
    let wrote: Vec<Format> =
        args.dirs.iter().map(|d| if wrote_parquet(d) { Format::Parquet } else { Format::Csv }).collect();
    let asked = args.output.asked_format()?;
    let format = asked.unwrap_or(wrote[0]);
    let Some(out_path) = &args.output.out else {
        return Err(InputError::new("merge: give --out DIR for the merged tables").into());
    };
    draftsim::output::check_out_not_input(out_path, &args.dirs)?;
    draftsim::output::check_out_beside_inputs(out_path, &args.dirs)?;
    let mut parts: Vec<(RunMeta, Tally)> = Vec::new();
    for dir in &args.dirs {
        let meta: RunMeta = read_json(&dir.join("run.json"))?;
        let path = dir.join("tally.json");
        let text = std::fs::read(&path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => InputError::new(format!(
                "{}: missing, so the folder holds no finished shard (stopped, or copied in part); play that shard again",
                path.display()
            )),
            _ => InputError::new(format!("{}: {e}", path.display())),
        })?;
        if meta.tally_crc32.is_some_and(|crc| crc != crc32fast::hash(&text)) {
            return Err(InputError::new(format!(
                "{}: not the tally its run.json was written with (changed, or copied from another run); take both files from one shard's folder",
                path.display()
            ))
            .into());
        }
        let tally: Tally =
            serde_json::from_slice(&text).map_err(|e| InputError::new(format!("{}: {e}", path.display())))?;
        parts.push((meta, tally));
    }
    let (first, _) = &parts[0];
    // The files by their texts alone: one rules file named by another path (a task's own
    // working folder) is the same run.
    let same_run = |m: &RunMeta| RunMeta {
        shard: None,
        rounds: 0,
        notes: Vec::new(),
        tally_crc32: None,
        files: texts_of(&m.files).into_iter().map(|crc| (String::new(), crc)).collect(),
        ..m.clone()
    };
    let count = first.shard.map_or(1, |s| s.count);
    // A set, not a list sized by the count a file claims.
    let mut covered = std::collections::BTreeMap::new();
    for ((meta, _), dir) in parts.iter().zip(&args.dirs) {
        if same_run(meta) != same_run(first) {
            // Named field by field, as a study's merge names them.
            let (a, b) = (serde_json::to_value(same_run(first))?, serde_json::to_value(same_run(meta))?);
            let differs: Vec<String> = (a.as_object().into_iter().flatten())
                .filter(|(k, v)| b.get(k.as_str()) != Some(v))
                .map(|(k, _)| if k == "files" { changed_file(&first.files, &meta.files) } else { k.clone() })
                .collect();
            return Err(InputError::new(format!(
                "{}: not a shard of the same run as {} ({} {}; game, seed, rules, seats, rounds and what the files named held must match)",
                dir.display(),
                args.dirs[0].display(),
                differs.join(", "),
                if differs.len() == 1 { "differs" } else { "differ" }
            ))
            .into());
        }
        let shard = meta
            .shard
            .ok_or_else(|| InputError::new(format!("{}: not a shard (run with --shard i/n)", dir.display())))?;
        let (i, n) = (shard.index, shard.count);
        if i >= n {
            return Err(InputError::new(format!(
                "{}: shard {i}/{n} does not fit its split (shards 0 to {}); play that shard again",
                dir.display(),
                n.saturating_sub(1)
            ))
            .into());
        }
        if n != count {
            return Err(InputError::new(format!(
                "{}: shard {i}/{n}, but {} is a shard of {count}; give the shards of one split",
                dir.display(),
                args.dirs[0].display()
            ))
            .into());
        }
        if let Some(other) = covered.insert(i, dir) {
            return Err(InputError::new(format!(
                "{}: shard {i}/{n} again (also {}); give each shard once",
                dir.display(),
                other.display()
            ))
            .into());
        }
    }
    if let Some(missing) = first_missing(&covered.keys().copied().collect(), count) {
        return Err(InputError::new(format!("shard {missing}/{count} is missing: give every shard's folder")).into());
    }
    let info = games::find(&first.game)?;
    // The seats in play, as the run sat them: a field's strategies each fill their share.
    let (game, seats) = (info.build)(Some(&first.rules), None, Some(&first.seats))
        .map_err(|e| e.context(format!("{}: run.json", args.dirs[0].display())))?;
    let lineup = Lineup::new(&seats);
    let empty = Tally::new(lineup.strategies.len(), game.players(), game.measures());
    for ((meta, tally), dir) in parts.iter().zip(&args.dirs) {
        let fault = if tally.shard != meta.shard {
            Some("it is another shard's".to_string())
        } else if tally.rounds != meta.rounds {
            Some(format!("it counts {} rounds, run.json {}", tally.rounds, meta.rounds))
        } else {
            tally.shape_fault(&empty).or_else(|| tally.count_fault())
        };
        if let Some(fault) = fault {
            return Err(InputError::new(format!(
                "{}: not this shard's tally ({fault}); play that shard again",
                dir.join("tally.json").display()
            ))
            .into());
        }
    }
    // Every deal of a fixed-length run is in exactly one shard.
    let per = draftsim::sim::Seatings::new(&lineup, game.players(), first.rotate)?.len() as u64;
    let planned = draftsim::sim::deals_for(first.rounds_requested, per).saturating_mul(per);
    let played = parts.iter().try_fold(0u64, |sum, (_, t)| sum.checked_add(t.rounds));
    if played != Some(planned) {
        return Err(InputError::new(format!(
            "the shards hold {} rounds, not the {planned} the run plays: play the shards again",
            played.map_or("too many".to_string(), |p| p.to_string())
        ))
        .into());
    }
    let sum = |f: fn(&Tally) -> u64| parts.iter().try_fold(0u64, |s, (_, t)| s.checked_add(f(t)));
    if sum(|t| t.length_sum).is_none() || sum(|t| t.length_sq).is_none() {
        return Err(InputError::new(
            "the shards' unit lengths add up past what a tally holds: a tally.json was changed; play the shards again",
        )
        .into());
    }
    // Said once the shards are known to merge: a refused merge writes no tables to describe.
    if asked.is_none() {
        mixed_formats_note(&wrote, &args.dirs, &args.quiet);
    }
    let mut out = super::interrupt::create(out_path, args.output.force, false)?;
    out.keep_shard_records(&args.dirs);
    let mut total = parts[0].1.clone();
    for (_, t) in &parts[1..] {
        total.merge(t);
    }
    total.shard = None;
    let notes = game.unused_rules(&total);
    super::args::warn_unused(&notes);
    let meta = RunMeta { shard: None, rounds: total.rounds, notes, files: Vec::new(), ..first.clone() };
    let mut tables = game.tables(&total, &lineup.strategies);
    super::run::ideal_health(&mut tables, &total, &lineup.strategies, game.measures(), meta.ideal_length);
    // The shards' counts, not those of the programs this process never ran.
    tables.retain(|t| t.name != "outside");
    tables.extend(merged_outside(&args.dirs)?);
    let per_shard: Vec<u64> = parts.iter().map(|(_, t)| t.rounds * game.players() as u64).collect();
    let schema = super::run::rounds_table(&lineup.strategies, game.measures(), &[]);
    // Written as `run` streams it, by the same writer, made at the first batch: none where
    // no shard has a rounds table.
    let mut writer = None;
    merge_rounds(&args.dirs, &per_shard, &schema, |batch| {
        let w = match writer.as_mut() {
            Some(w) => w,
            None => writer.insert(RoundsWriter::new(&out, format, &lineup, game.measures())?),
        };
        Ok(w.write_table(batch)?)
    })?;
    if let Some(w) = writer {
        w.finish()?;
    }
    print_summary(&tables, &total, game.measures());
    let path = write_run(out, &tables, &total, &meta, format)?;
    args.quiet.note(&format!("tables written to {}", path.display()));
    Ok(())
}

/// The first shard index below `count` that `held` lacks.
fn first_missing(held: &std::collections::BTreeSet<u64>, count: u64) -> Option<u64> {
    (0..count).zip(held.iter().copied().chain(std::iter::once(count))).find(|(i, h)| i != h).map(|(i, _)| i)
}

/// The first field, by name, in which two JSON objects differ.
pub(super) fn first_difference(a: &serde_json::Value, b: &serde_json::Value) -> Option<String> {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return (a != b).then(String::new);
    };
    a.keys().chain(b.keys()).find(|k| a.get(*k) != b.get(*k)).cloned()
}

/// The texts of the files a shard named (their checksums, in order), whatever the paths
/// they were named by.
fn texts_of(files: &[(String, u32)]) -> Vec<u32> {
    let mut crcs: Vec<u32> = files.iter().map(|(_, crc)| *crc).collect();
    crcs.sort_unstable();
    crcs
}

/// The named file whose text differed between two shards ("the text of FILE", with the
/// first shard's name for it where it was named otherwise), or both lists of files named
/// where they name a different number.
fn changed_file(a: &[(String, u32)], b: &[(String, u32)]) -> String {
    let names = |f: &[(String, u32)]| match f {
        [] => "none".to_string(),
        _ => f.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", "),
    };
    // The shards ran one command: their files pair up in the order named.
    match a.iter().zip(b).find(|((_, x), (_, y))| x != y) {
        _ if a.len() != b.len() => format!("the files named: {} against {}", names(a), names(b)),
        Some(((first, _), (this, _))) if first == this => format!("the text of {this}"),
        Some(((first, _), (this, _))) => format!("the text of {this} (named {first} there)"),
        None => "the files named".into(),
    }
}

/// The studies whose shards `merge` puts together.
const SHARDED: [&dyn Study; 5] = [&Compare, &Sweep, &Ladder, &Sensitivity, &Versus];

/// Says so where the shards wrote their tables in different formats: the merged tables
/// take the first shard's unless `--format` names one.
fn mixed_formats_note(wrote: &[Format], dirs: &[PathBuf], quiet: &QuietArg) {
    if let Some(at) = wrote.iter().position(|&f| f != wrote[0]) {
        quiet.note(&format!(
            "the shards wrote {} ({}) and {} ({}): the merged tables are {}; pass --format to choose",
            wrote[0].extension(),
            dirs[0].display(),
            wrote[at].extension(),
            dirs[at].display(),
            wrote[0].extension()
        ));
    }
}

/// Merges the folders of a study's shards into the tables of the unsharded study, after
/// checking that they are the shards of one study and hold each unit exactly once.
pub(super) fn merge_study(dirs: &[PathBuf], output: &OutputArgs, quiet: &QuietArg) -> Result<()> {
    let Some(out_path) = &output.out else {
        return Err(InputError::new("merge: give --out DIR for the merged tables").into());
    };
    draftsim::output::check_out_not_input(out_path, dirs)?;
    draftsim::output::check_out_beside_inputs(out_path, dirs)?;
    let mut parts: Vec<StudyShard> = Vec::new();
    for dir in dirs {
        let path = dir.join(STUDY_SHARD);
        let text = std::fs::read_to_string(&path).map_err(|_| {
            InputError::new(format!(
                "{}: not a study shard (no {STUDY_SHARD}); merge the shards of one study alone",
                dir.display()
            ))
        })?;
        let part: StudyShard =
            serde_json::from_str(&text).map_err(|e| InputError::new(format!("{}: {e}", path.display())))?;
        if part.results_crc32.is_some_and(|crc| crc != super::study::results_crc32(&part.results)) {
            return Err(InputError::new(format!(
                "{}: not the results this shard was written with (changed or corrupted); play that shard again",
                path.display()
            ))
            .into());
        }
        parts.push(part);
    }
    let first = &parts[0];
    let count = first.shard.count;
    // The format the shards were asked for, unless --format names another.
    let asked_of_shards = first.format.as_deref().map(str::parse::<Format>).transpose();
    let asked_of_shards =
        asked_of_shards.map_err(|e| InputError::new(format!("{}: {e}", dirs[0].join(STUDY_SHARD).display())))?;
    let asked = output.asked_format()?;
    let format = asked.or(asked_of_shards).unwrap_or(Format::Csv);
    let bad = |e: serde_json::Error| InputError::new(format!("{}: {e}", dirs[0].join(STUDY_SHARD).display()));
    let wrong = |at: usize, what: &str| {
        InputError::new(format!("{}: {what}; play that shard again", dirs[at].join(STUDY_SHARD).display()))
    };
    // Checked before anything is sized by them: the units are those the study's own
    // settings make.
    let study = SHARDED.iter().find(|s| s.kind().name == first.kind).ok_or_else(|| {
        InputError::new(format!("{}: a shard of '{}', which merge does not know", dirs[0].display(), first.kind))
    })?;
    let info = games::find(&first.game)?;
    let sizing = Merging { info, spec: &first.spec, results: Vec::new(), in_parts: false, bad: &bad, wrong: &wrong };
    let units = study.units(&sizing)?;
    if units != first.units {
        return Err(wrong(0, &format!("its study plays {units} units, not the {} the shard says", first.units)).into());
    }
    let mut held: std::collections::BTreeMap<u64, usize> = std::collections::BTreeMap::new();
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
        .or_else(|| {
            let labels_aside = |v: &serde_json::Value| {
                let mut v = v.clone();
                if let Some(o) = v.as_object_mut() {
                    study.path_labels().iter().for_each(|k| drop(o.remove(*k)));
                }
                v
            };
            first_difference(&labels_aside(&part.study), &labels_aside(&first.study))
        })
        .or_else(|| (texts_of(&part.files) != texts_of(&first.files)).then(|| changed_file(&first.files, &part.files)));
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
        if let Some(other) = held.insert(i, at) {
            return Err(InputError::new(format!(
                "{}: shard {i}/{n} again (also {}); give each shard once",
                dir.display(),
                dirs[other].display()
            ))
            .into());
        }
        if part.units != first.units {
            return Err(wrong(at, &format!("it says the study has {} units, not {}", part.units, first.units)).into());
        }
        let work = study::shard_work(part.units, Some(part.shard));
        if part.played != work.units || part.part != work.part || part.results.len() != part.played.len() {
            return Err(InputError::new(format!(
                "{}: shard {i}/{n} does not hold that shard's {} of the study's {} units; play it again",
                dir.display(),
                work.units.len(),
                first.units
            ))
            .into());
        }
        for (&unit, result) in part.played.iter().zip(&part.results) {
            results[unit].push((part.part.map_or(0, |p| p.index), at, result.clone()));
        }
    }
    if let Some(missing) = first_missing(&held.keys().copied().collect(), count) {
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
    // With fewer units than shards every shard played a part of one unit.
    let in_parts = first.units < count as usize;
    let merging = Merging { results, in_parts, ..sizing };
    // Said once the shards are known to merge: a refused merge writes no tables to describe.
    if asked.is_none() {
        let wrote: Vec<Format> =
            (parts.iter()).map(|p| p.format.as_deref().and_then(|f| f.parse().ok()).unwrap_or(Format::Csv)).collect();
        mixed_formats_note(&wrote, dirs, quiet);
    }
    let mut out = super::interrupt::create(out_path, output.force, false)?;
    out.keep_shard_records(dirs);
    study.merge(merging, MergedTables { meta: first.study.clone(), out, format, quiet })
}
