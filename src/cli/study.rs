//! `draftsim compare` and `draftsim sweep`.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use draftsim::InputError;
use draftsim::games;
use draftsim::output::{Format, OutputDir, Table};
use draftsim::study::{self, Axis, CompareSpec, SweepSpec};

use super::args::{ExecArgs, GameRulesArgs, OutputArgs, PlayersArg, QuietArg, RoundsArg, SeatsArg, SeedArg};

/// Runs a study on the asked threads with a progress bar over its steps (pairs or
/// variants), the step playing shown beside it.
fn play<T>(
    exec: &ExecArgs,
    study: impl FnOnce(&mut dyn FnMut(usize, usize, &str)) -> Result<T, draftsim::Error> + Send,
) -> Result<T>
where
    T: Send,
{
    let mut bar: Option<indicatif::ProgressBar> = None;
    let result = exec.pool()?.install(|| {
        study(&mut |done, total, label| {
            let b = bar.get_or_insert_with(|| exec.bar(total as u64).unwrap_or_else(indicatif::ProgressBar::hidden));
            b.set_position(done as u64);
            b.set_message(label.to_string());
        })
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(result?)
}

/// Writes a study's tables and `study.json` (with the version added), then moves the
/// folder into place; does nothing without `--out`.
pub(super) fn write_study(
    out: Option<OutputDir>,
    tables: &[Table],
    format: Format,
    mut meta: serde_json::Value,
    exec: &ExecArgs,
) -> Result<()> {
    let Some(dir) = out else { return Ok(()) };
    let version = env!("CARGO_PKG_VERSION");
    meta["version"] = version.into();
    for t in tables {
        dir.write_table(t, format, &[("draftsim_version".into(), version.into())])?;
    }
    dir.write_text("study.json", &serde_json::to_string_pretty(&meta)?)?;
    let path = dir.commit()?;
    exec.note(&format!("tables written to {}", path.display()));
    Ok(())
}

/// Arguments of `draftsim compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    #[command(flatten)]
    pub game: GameRulesArgs,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub rounds: RoundsArg,
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub exec: ExecArgs,
    /// Strategies to compare, comma-separated (preset names or preset files); each pair
    /// plays at --players seats (default 2), seated A, B, A, B, ...
    #[arg(long, value_delimiter = ',', required = true)]
    pub strategies: Vec<String>,
}

/// Runs the comparison.
pub fn compare(args: CompareArgs) -> Result<()> {
    let info = games::find(&args.game.game)?;
    let rounds = args.rounds.get(100_000)?;
    let (format, out) = args.output.open()?;
    let spec = CompareSpec {
        rules: args.game.rules_text()?,
        strategies: draftsim::games::presets::rejoin(&args.strategies),
        players: args.players.players.unwrap_or(2),
        rounds_per_pair: rounds,
        seed: args.seed.seed,
    };
    let result = play(&args.exec, |step| study::compare(info, &spec, step))?;
    println!("{}", result.matrix_text());
    println!("{}", result.ratings_table().to_aligned_text(1));
    match result.dominant {
        Some(i) => {
            println!("{} dominates: its win share is above 0.5 against every other strategy.", result.strategies[i])
        }
        None => println!("No strategy dominates."),
    }
    println!("{}", result.equilibrium_text());
    println!("{}", result.equilibrium_table().to_aligned_text(4));
    let meta = serde_json::json!({
        "kind": "compare",
        "game": info.name,
        "seed": spec.seed,
        "rounds": spec.rounds_per_pair,
        "players": spec.players,
        "seats": spec.strategies,
        "rules": spec.rules.clone().unwrap_or_default(),
    });
    write_study(
        out,
        &[result.matrix_table(), result.ratings_table(), result.equilibrium_table()],
        format,
        meta,
        &args.exec,
    )
}

/// Arguments of `draftsim sweep`.
#[derive(Args, Debug)]
pub struct SweepArgs {
    #[command(flatten)]
    pub game: GameRulesArgs,
    #[command(flatten)]
    pub seats: SeatsArg,
    #[command(flatten)]
    pub rounds: RoundsArg,
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub exec: ExecArgs,
    /// A rules key and its values, e.g. players=3,4,5 (repeat for a grid). Seats are cycled
    /// to each variant's player count; with no seats given, the game's mix with one random seat.
    #[arg(long = "set", value_name = "KEY=V1,V2", required_unless_present = "vary")]
    pub set: Vec<String>,
    /// A strategy parameter and its values, e.g. hate.draft.weight=0,0.5,1 (repeatable,
    /// combinable with --set): every seat playing the preset plays each derived preset.
    #[arg(long = "vary", value_name = "PRESET.PATH=V1,V2")]
    pub vary: Vec<String>,
}

/// Runs the sweep.
pub fn sweep(args: SweepArgs) -> Result<()> {
    let info = games::find(&args.game.game)?;
    let axes = args.set.iter().map(|s| Axis::parse(s)).collect::<Result<Vec<_>, _>>()?;
    let vary = args.vary.iter().map(|s| Axis::parse(s)).collect::<Result<Vec<_>, _>>()?;
    let rounds = args.rounds.get(100_000)?;
    let (format, out) = args.output.open()?;
    let spec = SweepSpec {
        rules: args.game.rules_text()?,
        axes,
        vary,
        seats: args.seats.list(),
        rounds,
        seed: args.seed.seed,
    };
    let results = play(&args.exec, |step| study::sweep(info, &spec, step))?;
    let table = study::sweep_table(&results);
    println!("{}", table.to_aligned_text(4));
    let meta = serde_json::json!({
        "kind": "sweep",
        "game": info.name,
        "seed": spec.seed,
        "rounds": spec.rounds,
        "set": args.set,
        "vary": args.vary,
        "rules": spec.rules.clone().unwrap_or_default(),
    });
    write_study(out, &[table], format, meta, &args.exec)
}

/// Arguments of `draftsim report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Folders written by run, compare or sweep with --out.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Folder for report.md and its SVG charts.
    #[arg(long)]
    pub out: PathBuf,
    /// Replace an existing --out folder.
    #[arg(long)]
    pub force: bool,
    /// The command that regenerates this report, printed at its top.
    #[arg(long)]
    pub regenerate: Option<String>,
    /// A Markdown file of findings, placed under the title.
    #[arg(long)]
    pub notes: Option<PathBuf>,
    #[command(flatten)]
    pub quiet: QuietArg,
}

/// Writes the report.
pub fn report(args: ReportArgs) -> Result<()> {
    for d in &args.dirs {
        if !d.is_dir() {
            return Err(InputError::new(format!("{}: not a folder of results", d.display())).into());
        }
    }
    let notes = match &args.notes {
        Some(p) => {
            Some(std::fs::read_to_string(p).map_err(|e| InputError::new(format!("--notes {}: {e}", p.display())))?)
        }
        None => None,
    };
    let out = OutputDir::create(&args.out, args.force)?;
    draftsim::report::write_report(&args.dirs, &out, args.regenerate.as_deref(), notes.as_deref())?;
    let path = out.commit()?;
    args.quiet.note(&format!("report written to {}", path.join("report.md").display()));
    Ok(())
}
