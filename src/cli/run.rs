//! `draftsim run`: simulate, print the summary, write the tables.

use anyhow::Result;
use clap::Args;
use draftsim::InputError;
use draftsim::error::Error;
use draftsim::output::{Format, OutputDir, RunMeta, Table, Values};
use draftsim::sim::{CHUNK_DEALS, Kind, Lineup, Measures, Mode, Plan, RoundRow, SHARE_UNIT, Seatings, Shard, Tally};

use super::args::{BatchArgs, GameArgs, RotateArg, number, warn_rules, warn_unused};
use super::interrupt::INTERRUPTED;

/// Arguments of `draftsim run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub rotate: RotateArg,
    /// Keep playing until every strategy's win-rate 95% half-width is at most W (--rounds is then the cap).
    #[arg(long, value_name = "W", value_parser = number, allow_negative_numbers = true)]
    pub until_ci: Option<f64>,
    /// Run only shard i of n (0-based), or auto/n from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX.
    #[arg(long, value_name = "i/n", allow_hyphen_values = true)]
    pub shard: Option<String>,
    /// Also write one row per round and seat (`rounds` table), streamed in batches.
    #[arg(long)]
    pub rounds_out: bool,
    /// Also tally card analytics (`cards` table): seen, taken, ATA, ALSA, win share in hand and passed.
    #[arg(long)]
    pub cards: bool,
    /// A band of unit lengths in decisions, e.g. 20..60: the health card adds the share of
    /// units inside it (`ideal_length`).
    #[arg(long, value_name = "MIN..MAX", value_parser = ideal_band)]
    pub ideal_length: Option<(u32, u32)>,
}

/// Runs the simulation and writes what was asked.
pub fn run(args: RunArgs) -> Result<()> {
    let rounds = args.batch.rounds.get(1_000_000)?;
    let seed = args.batch.seed.seed;
    if let Some(w) = args.until_ci.filter(|w| !(*w > 0.0 && *w < 0.5)) {
        return Err(
            InputError::new(format!("--until-ci {w}: give a half-width above 0 and below 0.5, e.g. 0.005")).into()
        );
    }
    let shard = super::study::shard_with_out(args.shard.as_deref().map(Shard::parse).transpose()?, &args.batch.output)?;
    if shard.is_some() && args.until_ci.is_some() {
        // Each shard would stop on its own interval, so the merged run would not be the
        // unsharded one.
        return Err(InputError::new("--until-ci with --shard: shards play a fixed --rounds; drop one of them").into());
    }
    if args.cards && args.batch.output.out.is_none() {
        return Err(InputError::new("--cards: also give --out DIR for the cards table").into());
    }
    if args.rounds_out && args.batch.output.out.is_none() {
        return Err(InputError::new("--rounds-out: also give --out DIR for the rounds table").into());
    }
    if args.ideal_length.is_some() && args.batch.output.out.is_none() {
        return Err(InputError::new("--ideal-length: also give --out DIR for the health table that holds it").into());
    }
    let (game, seats) = args.game.build()?;
    if args.cards && game.measures().cards.is_none() {
        return Err(InputError::new(format!(
            "--cards: {} with these rules declares no card identities; drop --cards (Seven Card Draft in round mode, Winston + Crazier Eights and Live-Draft have them)",
            args.game.name()
        ))
        .into());
    }
    let (format, out) = args.batch.output.open()?;

    let lineup = Lineup::new(&seats);
    let plan = Plan {
        seed,
        rounds,
        rotate: !args.rotate.no_rotate,
        shard,
        until_ci: args.until_ci,
        cards: args.cards,
        first_deal: 0,
    };
    let players = game.players();
    let per = Seatings::new(&lineup, players, plan.rotate)?.len() as u64;
    let planned = draftsim::sim::deals_for(rounds, per) * per;
    let field = if seats.len() == players {
        format!("seats {}", seats.join(","))
    } else {
        format!("field {} (each an equal share of the seats)", lineup.strategies.join(","))
    };
    args.batch.exec.note(&format!(
        "{} · {players} players · {field} · seed {seed} · {}{planned} {} ({}{per} seating{} a deal){}",
        args.game.name(),
        args.until_ci.map(|w| format!("until every win-rate half-width is at most {w}, at most ")).unwrap_or_default(),
        if planned == 1 { game.measures().unit.clone() } else { game.measures().units() },
        // As the studies say it: a count other than the one asked for says why.
        if planned == rounds { String::new() } else { format!("{rounds} asked, rounded up to whole deals; ") },
        if per == 1 { "" } else { "s" },
        shard
            .map(|s| format!(" · shard {}/{} plays {} of them", s.index, s.count, s.deals_of(planned / per) * per))
            .unwrap_or_default()
    ));
    warn_rules(game.as_ref());
    let (deals, chunks) = (planned / per, (planned / per).div_ceil(CHUNK_DEALS));
    if let Some(s) = shard
        && s.chunks_of(deals) == 0
    {
        // Merging it is harmless (it adds nothing), so a cluster job that runs every
        // shard still works; the warning says why this one's tables are empty.
        super::args::warn(&format!(
            "shard {}/{} has nothing to play: {deals} deals make {chunks} chunk{} of up to {CHUNK_DEALS} deals, dealt to the shards in turn; its tables are empty (merge adds nothing from them); give fewer shards or more --rounds",
            s.index,
            s.count,
            if chunks == 1 { "" } else { "s" }
        ));
    }

    let progress = args.batch.exec.bar(planned / shard.map_or(1, |s| s.count));
    let mut rounds_writer = match (&out, args.rounds_out) {
        (Some(dir), true) => Some(RoundsWriter::new(dir, format, &lineup, game.measures())?),
        _ => None,
    };
    let pool = args.batch.exec.pool()?;
    let tally = pool.install(|| {
        let mode = if rounds_writer.is_some() { Mode::Rows } else { Mode::Tally };
        game.run(&lineup, &plan, mode, Some(&INTERRUPTED), &mut |done, rows| {
            if let Some(bar) = &progress {
                bar.set_position(done);
            }
            if let Some(w) = rounds_writer.as_mut() {
                w.write(rows)?;
            }
            Ok(())
        })
    });
    if let Some(bar) = &progress {
        bar.finish_and_clear();
    }
    // On Ctrl-C the error returns through here, dropping the staging folder unwritten.
    let tally = tally?;
    if let Some(w) = rounds_writer {
        w.finish()?;
    }
    let listed = draftsim::sim::listed(&seats, players);
    let meta = RunMeta {
        rotate: plan.rotate,
        shard,
        until_ci: args.until_ci.map(|w| w.to_string()),
        cards: args.cards,
        notes: if shard.is_some() { Vec::new() } else { game.unused_rules(&tally) },
        files: if shard.is_some() { super::interrupt::named_files() } else { Vec::new() },
        ideal_length: args.ideal_length,
        ..RunMeta::new(args.game.name(), seed, rounds, tally.rounds, game.rules_toml(), listed)
    };
    warn_unused(&meta.notes);
    // The paired differences are over deals (each played under every seating): one deal
    // leaves no spread to measure, so they span all the rules allow (the summary's
    // intervals fall back to the small-sample rule).
    if shard.is_none() && tally.rounds > 0 && tally.rounds < 2 * per {
        super::args::warn_one_deal(
            &match tally.rounds {
                1 => format!("1 {}", game.measures().unit),
                n => format!("{n} {}", game.measures().units()),
            },
            &format!(" ({per} seating{})", if per == 1 { "" } else { "s" }),
            "its paired score differences (the pairs table) need two deals: with one they span all the rules allow",
            2 * per,
        );
    }
    if let Some(w) = args.until_ci {
        let (width, units) = (tally.max_win_rate_half_width(), game.measures().units());
        if width <= w {
            args.batch.exec.note(&format!("--until-ci reached after {} {units}", tally.rounds));
        } else {
            // The intervals asked for were not reached: a warning, shown under --quiet too.
            super::args::warn(&format!(
                "--until-ci {w} not reached: --rounds stopped it after {} {units}, the widest half-width {width:.4}; raise --rounds",
                tally.rounds
            ));
        }
    }
    // Units a cap ended were not finished by the rules: every figure describes them.
    let timeouts = draftsim::sim::RATIO_FIGURES.iter().position(|f| f.name == "timeouts");
    if let Some(t) = timeouts.and_then(|i| tally.health.figure(i)).filter(|t| t.mean > 0.01) {
        super::args::warn(&format!(
            "{:.0}% of the {} ended at a cap on their length (timeouts {:.3}), not by the rules: the figures describe unfinished {}; raise the cap (`draftsim list rules` names it) or change the rules so they end",
            100.0 * t.mean,
            game.measures().units(),
            t.mean,
            game.measures().units()
        ));
    }
    let mut tables = game.tables(&tally, &lineup.strategies);
    ideal_health(&mut tables, &tally, &lineup.strategies, game.measures(), meta.ideal_length);
    print_summary(&tables, &tally, game.measures());
    if let Some(dir) = out {
        let path = write_run(dir, &tables, &tally, &meta, format)?;
        args.batch.exec.note(&format!("tables written to {}", path.display()));
    }
    Ok(())
}

/// The health table with `ideal_length`, the share of units inside `band` (`--ideal-length`),
/// where one was given: for a run and for a merge of its shards alike.
pub(super) fn ideal_health(
    tables: &mut [Table],
    tally: &Tally,
    strategies: &[String],
    measures: &Measures,
    band: Option<(u32, u32)>,
) {
    let Some(band) = band else { return };
    let Some(t) = tables.iter_mut().find(|t| t.name == "health") else { return };
    *t = draftsim::output::health_table(tally, strategies, measures, Some(band));
    if tally.rounds > 0 && tally.health.share_between(band.0, band.1).is_none() {
        super::args::warn(&format!(
            "--ideal-length {}..{}: some {} ran past the {} decisions a length is kept up to, so the share inside is not known and ideal_length is left out; give a MAX below {}",
            band.0,
            band.1,
            measures.units(),
            draftsim::sim::LENGTH_BINS - 2,
            draftsim::sim::LENGTH_BINS - 1
        ));
    }
}

/// Prints the summary and pairs tables.
pub fn print_summary(tables: &[Table], tally: &Tally, measures: &Measures) {
    say!("{}", tables[0].to_aligned_text(4));
    // The columns keep one name in every game, so one schema reads them all; a strategy
    // holding several seats counts each unit once a seat.
    let several = (0..tally.strategy_count()).any(|x| tally.strategy(x).rounds > tally.rounds);
    if measures.unit != "round" || several {
        let counted = if several {
            format!("seat-{} (a {} once for each seat the strategy holds)", measures.units(), measures.unit)
        } else {
            measures.units()
        };
        let per = measures.unit != "round" && measures.score.column.contains("_per_round");
        say!(
            "(the rounds column counts {counted}{}; the columns keep these names in every game)",
            if per { format!(", and {} is per {}", measures.score.column, measures.unit) } else { String::new() }
        );
    }
    if tables[2].rows() > 0 {
        say!("paired differences in {} (95% interval):", measures.score_words());
        say!("{}", tables[2].to_aligned_text(4));
    }
    if let Some(t) = tables.iter().find(|t| t.name == "outside") {
        say!("external bots (a fault plays a random legal move instead):");
        say!("{}", t.to_aligned_text(4));
    }
    if tally.length_sum != tally.rounds {
        let e = tally.mean_length();
        let counted = measures.length_counts();
        say!("mean {} length: {:.2} {counted} (95% interval {:.2} to {:.2})", measures.unit, e.mean, e.lo, e.hi);
    }
}

/// Writes tables, run.json and the mergeable tally.json, then moves the folder into place;
/// returns where it went.
pub fn write_run(
    dir: OutputDir,
    tables: &[Table],
    tally: &Tally,
    meta: &RunMeta,
    format: Format,
) -> Result<std::path::PathBuf> {
    let tally_json = serde_json::to_string(tally)?;
    let meta = RunMeta { tally_crc32: Some(crc32fast::hash(tally_json.as_bytes())), ..meta.clone() };
    let kv = meta.key_values();
    for table in tables {
        dir.write_table(table, format, &kv)?;
    }
    dir.write_text("run.json", &serde_json::to_string_pretty(&meta)?)?;
    dir.write_text("tally.json", &tally_json)?;
    Ok(super::interrupt::commit(dir)?)
}

/// Streams the per-round table to disk batch by batch.
pub(super) struct RoundsWriter {
    csv: Option<csv::Writer<std::fs::File>>,
    parquet: Option<polars::io::parquet::write::BatchedWriter<std::fs::File>>,
    strategies: Vec<String>,
    measures: Measures,
}

impl RoundsWriter {
    pub(super) fn new(dir: &OutputDir, format: Format, lineup: &Lineup, measures: &Measures) -> Result<Self> {
        let path = dir.path().join(format!("rounds.{}", format.extension()));
        let mut w = RoundsWriter {
            csv: None,
            parquet: None,
            strategies: lineup.strategies.clone(),
            measures: measures.clone(),
        };
        match format {
            Format::Csv => {
                let mut csv = csv::Writer::from_path(&path)?;
                csv.write_record(w.table(&[]).columns.iter().map(|c| c.0.as_str()))?;
                w.csv = Some(csv);
            }
            Format::Parquet => {
                let schema = w.table(&[]).to_frame()?.schema().as_ref().clone();
                let file = std::fs::File::create(&path)?;
                w.parquet = Some(
                    polars::prelude::ParquetWriter::new(file)
                        .with_compression(polars::prelude::ParquetCompression::Zstd(None))
                        .batched(&schema)?,
                );
            }
        }
        Ok(w)
    }

    fn table(&self, rows: &[RoundRow]) -> Table {
        rounds_table(&self.strategies, &self.measures, rows)
    }

    fn write(&mut self, rows: &[RoundRow]) -> Result<(), Error> {
        self.write_table(&self.table(rows))
    }

    /// Writes these rows of the rounds table (its columns, in its order).
    pub(super) fn write_table(&mut self, table: &Table) -> Result<(), Error> {
        if let Some(w) = self.csv.as_mut() {
            let io = |e: csv::Error| Error::Table { name: "rounds".into(), message: e.to_string() };
            for r in 0..table.rows() {
                w.write_record(table.columns.iter().map(|c| c.1.cell(r))).map_err(io)?;
            }
            w.flush().map_err(|e| Error::Io { path: "rounds".into(), error: e })?;
        }
        if let Some(w) = self.parquet.as_mut() {
            let df = table.to_frame()?;
            w.write_batch(&df).map_err(|e| Error::Table { name: "rounds".into(), message: e.to_string() })?;
        }
        Ok(())
    }

    pub(super) fn finish(self) -> Result<()> {
        if let Some(w) = self.parquet {
            w.finish()?;
        }
        Ok(())
    }
}

/// The `rounds` table of these rows: one row per unit and seat, the score, the win share,
/// every declared counter and sum by its key, and each histogram's observations as bin
/// names (`;`-separated). Of no rows, the table's columns and their types.
pub(super) fn rounds_table(strategies: &[String], measures: &Measures, rows: &[RoundRow]) -> Table {
    let col = |f: &dyn Fn(&RoundRow) -> i64| Values::Int(rows.iter().map(f).collect());
    let mut t = Table::new("rounds")
        .with("round", col(&|r| r.round as i64))
        .with("seat", col(&|r| r.seat as i64))
        .with("strategy", Values::Text(rows.iter().map(|r| strategies[r.strategy as usize].clone()).collect()))
        .with(&measures.score.key, col(&|r| r.result.score))
        .with(
            "win_share",
            // Written with a decimal point, so a reader that guesses types from the first
            // rows does not take it for whole numbers.
            Values::Real(rows.iter().map(|r| r.result.share_units as f64 / SHARE_UNIT as f64).collect()),
        )
        .with("rounds_played", col(&|r| r.result.rounds as i64));
    for m in &measures.measures {
        t = match m.kind {
            Kind::Rate { slot, .. } => t.with(&m.key, col(&|r| r.result.counters[slot] as i64)),
            Kind::Mean { slot } | Kind::MeanPer { slot, .. } => t.with(&m.key, col(&|r| r.result.sums[slot])),
        };
    }
    for h in &measures.histograms {
        let observed = rows.iter().map(|r| {
            let bins = &r.result.bins()[h.offset..h.offset + h.bins.len()];
            let names: Vec<&str> = bins
                .iter()
                .zip(&h.bins)
                .flat_map(|(&count, name)| std::iter::repeat_n(name.as_str(), count as usize))
                .collect();
            names.join(";")
        });
        t = t.with(&h.key, Values::Text(observed.collect()));
    }
    t
}

/// Parses `--ideal-length MIN..MAX` (whole numbers, MIN <= MAX).
fn ideal_band(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("'{text}': write MIN..MAX in decisions, e.g. 20..60");
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let (a, b): (u32, u32) = (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?);
    if a > b {
        return Err(bad());
    }
    Ok((a, b))
}
