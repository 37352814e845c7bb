//! `draftsim compare` and `draftsim sweep`.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use draftsim::InputError;
use draftsim::games;
use draftsim::output::{Format, OutputDir, Table};
use draftsim::study::{self, Axis, CompareSpec, SweepSpec};

use super::run::{DEFAULT_SEED, ExecArgs, OutputArgs};

/// Options every study shares.
#[derive(Args, Debug)]
pub struct StudyArgs {
    /// Game (see `draftsim list games`).
    #[arg(long, default_value = "seven-card-draft")]
    pub game: String,
    /// Base rules file (TOML).
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Rounds per pair (compare) or per variant (sweep).
    #[arg(long, default_value_t = 100_000)]
    pub rounds: u64,
    /// The seed: every pair or variant is played on the same deals.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub exec: ExecArgs,
}

impl StudyArgs {
    /// Runs a study on the asked threads with a progress bar over its steps (pairs or
    /// variants), the step playing shown beside it.
    fn play<T>(
        &self,
        study: impl FnOnce(&mut dyn FnMut(usize, usize, &str)) -> Result<T, draftsim::Error> + Send,
    ) -> Result<T>
    where
        T: Send,
    {
        let mut bar: Option<indicatif::ProgressBar> = None;
        let exec = &self.exec;
        let result = exec.pool()?.install(|| {
            study(&mut |done, total, label| {
                let b =
                    bar.get_or_insert_with(|| exec.bar(total as u64).unwrap_or_else(indicatif::ProgressBar::hidden));
                b.set_position(done as u64);
                b.set_message(label.to_string());
            })
        });
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        Ok(result?)
    }

    fn rules_text(&self) -> Result<Option<String>> {
        Ok(match &self.rules {
            Some(p) => {
                Some(std::fs::read_to_string(p).map_err(|e| InputError::new(format!("--rules {}: {e}", p.display())))?)
            }
            None => None,
        })
    }

    fn check(&self) -> Result<(Format, Option<OutputDir>)> {
        if self.rounds == 0 {
            return Err(InputError::new("--rounds 0: play at least 1 round").into());
        }
        self.output.open()
    }
}

/// Writes a study's tables and `study.json` (with the version added), then moves the
/// folder into place; does nothing without `--out`.
fn write_study(out: Option<OutputDir>, tables: &[Table], format: Format, mut meta: serde_json::Value) -> Result<()> {
    let Some(dir) = out else { return Ok(()) };
    let version = env!("CARGO_PKG_VERSION");
    meta["version"] = version.into();
    for t in tables {
        dir.write_table(t, format, &[("draftsim_version".into(), version.into())])?;
    }
    dir.write_text("study.json", &serde_json::to_string_pretty(&meta)?)?;
    let path = dir.commit()?;
    eprintln!("draftsim: tables written to {}", path.display());
    Ok(())
}

/// Arguments of `draftsim compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    #[command(flatten)]
    pub study: StudyArgs,
    /// Strategies to compare, comma-separated (preset names or preset files).
    #[arg(long, value_delimiter = ',', required = true)]
    pub strategies: Vec<String>,
    /// Seats at the table for each pairing.
    #[arg(long, default_value_t = 2)]
    pub players: usize,
}

/// Runs the comparison.
pub fn compare(args: CompareArgs) -> Result<()> {
    let info = games::find(&args.study.game)?;
    let (format, out) = args.study.check()?;
    let spec = CompareSpec {
        rules: args.study.rules_text()?,
        strategies: args.strategies.clone(),
        players: args.players,
        rounds_per_pair: args.study.rounds,
        seed: args.study.seed,
    };
    let result = args.study.play(|step| study::compare(info, &spec, step))?;
    println!("{}", result.matrix_text());
    println!("{}", result.ratings_table().to_aligned_text(1));
    match result.dominant {
        Some(i) => {
            println!("{} dominates: its win share is above 0.5 against every other strategy.", result.strategies[i])
        }
        None => println!("No strategy dominates."),
    }
    let meta = serde_json::json!({
        "kind": "compare",
        "game": info.name,
        "seed": spec.seed,
        "rounds": spec.rounds_per_pair,
        "players": spec.players,
        "seats": spec.strategies,
        "rules": spec.rules.clone().unwrap_or_default(),
    });
    write_study(out, &[result.matrix_table(), result.ratings_table()], format, meta)
}

/// Arguments of `draftsim sweep`.
#[derive(Args, Debug)]
pub struct SweepArgs {
    #[command(flatten)]
    pub study: StudyArgs,
    /// A rules key and its values, e.g. players=3,4,5 (repeat for a grid).
    #[arg(long = "set", value_name = "KEY=V1,V2", required = true)]
    pub set: Vec<String>,
    /// Seats (cycled to each variant's player count); default: the game's mix with one random seat.
    #[arg(long, value_delimiter = ',')]
    pub seats: Option<Vec<String>>,
}

/// Runs the sweep.
pub fn sweep(args: SweepArgs) -> Result<()> {
    let info = games::find(&args.study.game)?;
    let axes = args.set.iter().map(|s| Axis::parse(s)).collect::<Result<Vec<_>, _>>()?;
    let (format, out) = args.study.check()?;
    let spec = SweepSpec {
        rules: args.study.rules_text()?,
        axes,
        seats: args.seats.clone(),
        rounds: args.study.rounds,
        seed: args.study.seed,
    };
    let results = args.study.play(|step| study::sweep(info, &spec, step))?;
    let table = study::sweep_table(&results);
    println!("{}", table.to_aligned_text(4));
    let meta = serde_json::json!({
        "kind": "sweep",
        "game": info.name,
        "seed": spec.seed,
        "rounds": spec.rounds,
        "set": args.set,
        "rules": spec.rules.clone().unwrap_or_default(),
    });
    write_study(out, &[table], format, meta)
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
    eprintln!("draftsim: report written to {}", path.join("report.md").display());
    Ok(())
}
