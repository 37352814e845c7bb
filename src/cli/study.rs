//! `draftsim compare` and `draftsim sweep`.

use std::path::PathBuf;
use std::sync::atomic::Ordering;

use anyhow::Result;
use clap::Args;
use draftsim::InputError;
use draftsim::games;
use draftsim::output::{Format, OutputDir, Table};
use draftsim::study::{self, Axis, CompareSpec, SweepSpec};

use super::args::{
    ExecArgs, GameRulesArgs, Known, OutputArgs, PlayersArg, QuietArg, RoundsArg, SeatsArg, SeedArg, preset_names,
    warn_rules,
};
use super::run::INTERRUPTED;

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
/// folder into place; does nothing without `--out`. Parquet tables carry the study's
/// metadata as `run`'s carry the run's: the version, kind, game, seed, rounds, rules and
/// seats as keys of their own (`bots` for the seats, as in run), and the whole of
/// study.json under `study_json`.
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
    let field = |key: &str| match &meta[key] {
        serde_json::Value::Null => None,
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Array(items) => Some(
            items
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                .collect::<Vec<_>>()
                .join(","),
        ),
        other => Some(other.to_string()),
    };
    let mut kv: Vec<(String, String)> = vec![("draftsim_version".into(), version.into())];
    for (key, from) in [
        ("kind", "kind"),
        ("game", "game"),
        ("seed", "seed"),
        ("rounds", "rounds"),
        ("rules", "rules"),
        ("bots", "seats"),
    ] {
        if let Some(v) = field(from) {
            kv.push((key.into(), v));
        }
    }
    kv.push(("study_json".into(), meta.to_string()));
    for t in tables {
        dir.write_table(t, format, &kv)?;
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
    /// plays at --players seats, seated A, B, A, B, ...
    #[arg(long, value_delimiter = ',', required = true, value_parser = Known(preset_names), hide_possible_values = true)]
    pub strategies: Vec<String>,
}

/// Runs the comparison.
pub fn compare(args: CompareArgs) -> Result<()> {
    let info = games::find(&args.game.game)?;
    let rounds = args.rounds.get(100_000)?;
    let spec = CompareSpec {
        rules: args.game.rules_text()?,
        strategies: draftsim::games::presets::rejoin(&args.strategies),
        players: args.players.players.or(args.game.rules_players()?).unwrap_or(2),
        rounds_per_pair: rounds,
        seed: args.seed.seed,
    };
    // The table every pair plays at, built once up front: bad rules or strategies are
    // refused before anything is written, and its rules in force go into study.json.
    let seats: Vec<String> = spec.strategies.iter().cycle().take(spec.players).cloned().collect();
    let (game, _) =
        (info.build)(spec.rules.as_deref(), Some(spec.players), Some(&seats)).map_err(|e| match &args.game.rules {
            Some(path) => e.context(path.display()),
            None => e,
        })?;
    let (format, out) = args.output.open()?;
    let pairs = spec.strategies.len() * spec.strategies.len().saturating_sub(1) / 2;
    args.exec.note(&format!(
        "{} · {} players · strategies {} · seed {} · {rounds} rounds per pair, {pairs} pair{}",
        info.name,
        spec.players,
        spec.strategies.join(","),
        spec.seed,
        if pairs == 1 { "" } else { "s" }
    ));
    warn_rules(game.as_ref(), &args.exec.quiet);
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    // On Ctrl-C the error returns through here, dropping the staging folder unwritten.
    let result = play(&args.exec, |step| study::compare_interruptible(info, &spec, Some(&INTERRUPTED), step))?;
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
        "strategies": spec.strategies,
        "seats": seats,
        "seating": "each pair seated A, B, A, B, ... (both orders at an odd table)",
        "rules": game.rules_toml(),
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
    pub players: PlayersArg,
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
    let spec = SweepSpec {
        rules: args.game.rules_text()?,
        axes,
        vary,
        seats: args.seats.list(),
        players: args.players.players,
        rounds,
        seed: args.seed.seed,
    };
    let (base_rules, players, seats) = study::sweep::base(info, &spec)?;
    // The base's rules in force (every default written out), when the base alone builds.
    let rules = (info.build)(Some(&base_rules), None, Some(&seats)).map_or(base_rules, |(g, _)| g.rules_toml());
    let (format, out) = args.output.open()?;
    let variants: usize = spec.axes.iter().chain(&spec.vary).map(|a| a.values.len()).product();
    let players_note = match spec.axes.iter().find(|a| a.key == "players") {
        Some(a) => format!("players {}", a.values.join(",")),
        None => format!("{players} players"),
    };
    let note = format!(
        "{} · {players_note} · seats {}{} · seed {} · {rounds} rounds per variant, {variants} variant{}",
        info.name,
        seats.join(","),
        if spec.seats.is_some() { "" } else { " (the game's mix with one random seat)" },
        spec.seed,
        if variants == 1 { "" } else { "s" }
    );
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    // On Ctrl-C the error returns through here, dropping the staging folder unwritten.
    let results = play(&args.exec, |step| {
        // The note once the first variant is built: bad rules or seats are refused in one
        // line, before it.
        let mut noted = false;
        study::sweep_interruptible(info, &spec, Some(&INTERRUPTED), &mut |done, total, label| {
            if !std::mem::replace(&mut noted, true) {
                args.exec.note(&note);
            }
            step(done, total, label);
        })
    })?;
    // Each warning once, with the variants it holds in.
    let mut warnings: Vec<(String, Vec<String>)> = Vec::new();
    for r in &results {
        let label: Vec<String> = r.setting.iter().map(|(k, v)| format!("{k}={v}")).collect();
        for w in &r.warnings {
            match warnings.iter_mut().find(|(text, _)| text == w) {
                Some((_, at)) => at.push(label.join(" ")),
                None => warnings.push((w.clone(), vec![label.join(" ")])),
            }
        }
    }
    for (text, at) in warnings {
        let at = if at.len() == results.len() { "every variant".to_string() } else { at.join("; ") };
        args.exec.note(&format!("warning: {text} (in {at})"));
    }
    let table = study::sweep_table(&results);
    println!("{}", table.to_aligned_text(4));
    let meta = serde_json::json!({
        "kind": "sweep",
        "game": info.name,
        "seed": spec.seed,
        "rounds": spec.rounds,
        "set": args.set,
        "vary": args.vary,
        // A swept player count is listed; each variant's seats are these, cycled to it.
        "players": spec.axes.iter().find(|a| a.key == "players").map_or(serde_json::json!(players), |a| serde_json::json!(a.values)),
        "seats": seats,
        "rules": rules,
    });
    write_study(out, &[table], format, meta, &args.exec)
}

/// Arguments of `draftsim report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Folders written with --out by run, compare, sweep, tune, exploit or calibrate.
    #[arg(required = true, value_hint = clap::ValueHint::DirPath)]
    pub dirs: Vec<PathBuf>,
    /// Folder for report.md, report.html (the same report, charts inline) and the SVG charts.
    #[arg(long, value_hint = clap::ValueHint::DirPath)]
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
