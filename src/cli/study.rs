//! `draftsim compare` and `draftsim sweep`.

use std::path::PathBuf;
use std::sync::atomic::Ordering;

use anyhow::Result;
use clap::Args;
use draftsim::InputError;
use draftsim::games;
use draftsim::output::{Format, OutputDir, Table};
use draftsim::sim::{Shard, Tally};
use draftsim::study::{self, Axis, CompareSpec, Comparison, PairResult, SweepSpec, VariantResult};

use super::args::{
    ExecArgs, GameRulesArgs, Known, OutputArgs, PlayersArg, QuietArg, RoundsArg, SeatsArg, SeedArg, preset_names,
    warn_rules,
};
use super::run::INTERRUPTED;

/// Runs a study on the asked threads with a progress bar over its steps (pairs or
/// variants), the step playing shown beside it.
pub(super) fn play<T>(
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
    quiet: &QuietArg,
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
    quiet.note(&format!("tables written to {}", path.display()));
    Ok(())
}

/// The file a study shard writes its whole units' results to, for `draftsim merge`.
pub(super) const STUDY_SHARD: &str = "study_shard.json";

/// What a study shard leaves for `merge`: the study (its kind, game, settings and the
/// study.json it would write), which shard it is, the units it played and their results.
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct StudyShard {
    /// `sweep`, `compare`, `ladder` or `sensitivity`.
    pub kind: String,
    /// The game's name.
    pub game: String,
    /// The version that played it.
    pub version: String,
    /// The study's settings (its spec).
    pub spec: serde_json::Value,
    /// The study.json of the unsharded study, less the version.
    pub study: serde_json::Value,
    /// This shard.
    pub shard: Shard,
    /// How many units (variants or pairs) the whole study plays.
    pub units: usize,
    /// The units this shard played, ascending.
    pub played: Vec<usize>,
    /// With fewer units than shards: the share of its one unit's chunks it played.
    #[serde(default)]
    pub part: Option<Shard>,
    /// Their results (a variant's tally, a pair's result), in that order.
    pub results: Vec<serde_json::Value>,
}

/// Parses `--shard` for a study, which needs `--out` to leave its results.
pub(super) fn study_shard(text: Option<&str>, out: &OutputArgs) -> Result<Option<Shard>> {
    let shard = text.map(Shard::parse).transpose()?;
    if shard.is_some() && out.out.is_none() {
        return Err(InputError::new(
            "--shard: also give --out DIR for the shard's results (draftsim merge reads them)",
        )
        .into());
    }
    Ok(shard)
}

/// Writes a study shard's folder: its study.json (with the shard) and its results.
pub(super) fn write_shard(out: Option<OutputDir>, part: StudyShard, quiet: &QuietArg) -> Result<()> {
    let Some(dir) = out else { return Ok(()) };
    let mut meta = part.study.clone();
    meta["version"] = part.version.clone().into();
    meta["shard"] = serde_json::json!(part.shard);
    dir.write_text("study.json", &serde_json::to_string_pretty(&meta)?)?;
    dir.write_text(STUDY_SHARD, &serde_json::to_string(&part)?)?;
    let path = dir.commit()?;
    let share = part.part.map(|p| format!(" (its share {}/{} of the chunks)", p.index, p.count)).unwrap_or_default();
    quiet.note(&format!(
        "shard {}/{}: {} of {} {} played{share}, results written to {} (draftsim merge builds the tables)",
        part.shard.index,
        part.shard.count,
        part.played.len(),
        part.units,
        match part.kind.as_str() {
            "compare" => "pairs",
            "ladder" => "steps",
            _ => "variants",
        },
        path.display()
    ));
    Ok(())
}

/// Plays one part of a unit (a shard's share of its chunks) under a one-step progress bar.
fn play_part<T: serde::Serialize + Send>(
    exec: &ExecArgs,
    label: &str,
    part: impl FnOnce() -> Result<T, draftsim::Error> + Send,
) -> Result<serde_json::Value> {
    let played = play(exec, |step| {
        step(0, 1, label);
        let played = part();
        step(1, 1, "");
        played
    })?;
    Ok(serde_json::to_value(played)?)
}

/// Puts unit `index`'s pair result together from its parts.
type PairFromParts<'a> = dyn Fn(usize, &[study::compare::PairPart]) -> Result<PairResult, draftsim::Error> + 'a;

/// Each pair's (or ladder step's) result from the shards: read whole, or its parts put
/// together by `from_parts`; a part with another number of seatings than a table of
/// `players` plays is refused, naming its shard.
fn read_pairs(
    results: Vec<Vec<(usize, serde_json::Value)>>,
    in_parts: bool,
    players: usize,
    bad: &dyn Fn(serde_json::Error) -> InputError,
    wrong: &dyn Fn(usize, &str) -> InputError,
    from_parts: &PairFromParts,
) -> Result<Vec<PairResult>> {
    // An even table is one seating, an odd one both.
    let seatings = if players.is_multiple_of(2) { 1 } else { 2 };
    let mut pairs = Vec::with_capacity(results.len());
    for (index, parts) in results.into_iter().enumerate() {
        if !in_parts {
            let (_, whole) = parts.into_iter().next().expect("a unit played whole");
            pairs.push(serde_json::from_value::<PairResult>(whole).map_err(bad)?);
            continue;
        }
        let mut read = Vec::with_capacity(parts.len());
        for (at, value) in parts {
            let part: study::compare::PairPart = serde_json::from_value(value).map_err(bad)?;
            if part.tallies.len() != seatings {
                let what = format!("a part with {} seatings' tallies, not {seatings}", part.tallies.len());
                return Err(wrong(at, &what).into());
            }
            read.push(part);
        }
        pairs.push(from_parts(index, &read)?);
    }
    Ok(pairs)
}

/// The first field, by name, in which two JSON objects differ.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value) -> Option<String> {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return (a != b).then(String::new);
    };
    a.keys().chain(b.keys()).find(|k| a.get(*k) != b.get(*k)).cloned()
}

/// Merges the folders of a study's shards into the tables of the unsharded study, after
/// checking that they are the shards of one study and hold each unit exactly once.
pub(super) fn merge_study(dirs: &[PathBuf], output: &OutputArgs, quiet: &QuietArg) -> Result<()> {
    let format: Format = output.format.parse()?;
    let Some(out_path) = &output.out else {
        return Err(InputError::new("merge: give --out DIR for the merged tables").into());
    };
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
    let info = games::find(&first.game)?;
    // The units the study's own settings make, against what the shards say they split.
    let units = match first.kind.as_str() {
        "sweep" => study::sweep::variant_count(&serde_json::from_value(first.spec.clone()).map_err(bad)?),
        "compare" => {
            let spec: CompareSpec = serde_json::from_value(first.spec.clone()).map_err(bad)?;
            study::compare::pair_list(spec.strategies.len()).len()
        }
        "ladder" => study::ladder::step_count(&serde_json::from_value(first.spec.clone()).map_err(bad)?),
        "sensitivity" => {
            study::sensitivity::deviations(info, &serde_json::from_value(first.spec.clone()).map_err(bad)?)?.len() + 1
        }
        _ => first.units,
    };
    if units != first.units {
        return Err(wrong(0, &format!("its study plays {units} units, not the {} the shard says", first.units)).into());
    }
    let out = OutputDir::create(out_path, output.force)?;
    let meta = first.study.clone();
    match first.kind.as_str() {
        "sweep" => {
            let spec: SweepSpec = serde_json::from_value(first.spec.clone()).map_err(bad)?;
            let mut tallies = Vec::with_capacity(results.len());
            for parts in results {
                let mut parts = parts.into_iter().map(|(_, v)| serde_json::from_value::<Tally>(v));
                let mut total = parts.next().expect("a unit has a part").map_err(bad)?;
                for t in parts {
                    total.merge(&t.map_err(bad)?);
                }
                total.shard = None;
                tallies.push(total);
            }
            let results = study::sweep_from_tallies(info, &spec, tallies)?;
            finish_sweep(&results, meta, Some(out), format, quiet)
        }
        "compare" => {
            let spec: CompareSpec = serde_json::from_value(first.spec.clone()).map_err(bad)?;
            let pairs = read_pairs(results, in_parts, spec.players, &bad, &wrong, &|index, parts| {
                study::compare::pair_from_parts(info, &spec, index, parts)
            })?;
            let result = study::compare_from_pairs(&spec, pairs)?;
            finish_compare(&result, meta, Some(out), format, quiet)
        }
        "ladder" => {
            let spec: study::ladder::LadderSpec = serde_json::from_value(first.spec.clone()).map_err(bad)?;
            let pairs = read_pairs(results, in_parts, spec.players, &bad, &wrong, &|k, parts| {
                study::ladder::step_from_parts(info, &spec, k, parts)
            })?;
            let result = study::ladder::ladder_from_pairs(&spec, pairs)?;
            finish_ladder(&result, meta, Some(out), format, quiet)
        }
        "sensitivity" => {
            let spec: study::sensitivity::SensitivitySpec = serde_json::from_value(first.spec.clone()).map_err(bad)?;
            let mut units = Vec::with_capacity(results.len());
            for parts in results {
                let folders: Vec<usize> = parts.iter().map(|(at, _)| *at).collect();
                let parts = parts
                    .into_iter()
                    .map(|(_, v)| serde_json::from_value::<Result<study::sensitivity::VariantGroups, String>>(v))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(bad)?;
                // A refused variant is refused in every part.
                units.push(match parts.iter().find_map(|p| p.as_ref().err()) {
                    Some(why) => Err(why.clone()),
                    None => {
                        let groups: Vec<_> = parts.into_iter().map(|p| p.expect("no refusal")).collect();
                        Ok(study::sensitivity::VariantGroups::from_parts(&groups, spec.deals)
                            .map_err(|part| wrong(folders[part], "its part does not hold its share of the deals"))?)
                    }
                });
            }
            let state = study::sensitivity::state_from_units(info, &spec, units)?;
            super::sensitivity::finish_sensitivity(&state, meta, Some(out), format, quiet)
        }
        other => {
            Err(InputError::new(format!("{}: a shard of '{other}', which merge does not know", dirs[0].display()))
                .into())
        }
    }
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
    /// Play only shard i of n (0-based) of the pairs, or auto/n from SLURM_ARRAY_TASK_ID or
    /// JOB_COMPLETION_INDEX; `draftsim merge` builds the tables from every shard's --out.
    #[arg(long, value_name = "i/n")]
    pub shard: Option<String>,
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
    let shard = study_shard(args.shard.as_deref(), &args.output)?;
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
    let meta = serde_json::json!({
        "kind": "compare",
        "game": info.name,
        "seed": spec.seed,
        "rounds": spec.rounds_per_pair,
        "players": spec.players,
        "strategies": spec.strategies,
        "seats": seats,
        "seating": "each pair seated A, B, A, B, ... (both orders at an odd table), under balanced seatings",
        "rules": game.rules_toml(),
    });
    // On Ctrl-C the error returns through here, dropping the staging folder unwritten.
    if let Some(shard) = shard {
        let work = study::shard_work(pairs, Some(shard));
        let results: Vec<serde_json::Value> = match work.part {
            // Fewer pairs than shards: this shard's share of one pair's chunks.
            Some(part) => {
                let index = work.units[0];
                let (a, b) = study::compare::pair_list(spec.strategies.len())[index];
                let label =
                    format!("part {}/{} of {} v {}", part.index, part.count, spec.strategies[a], spec.strategies[b]);
                vec![play_part(&args.exec, &label, || {
                    study::compare::compare_part(info, &spec, index, part, Some(&INTERRUPTED))
                })?]
            }
            None => play(&args.exec, |step| study::compare_shard(info, &spec, Some(shard), Some(&INTERRUPTED), step))?
                .iter()
                .map(serde_json::to_value)
                .collect::<Result<_, _>>()?,
        };
        let part = StudyShard {
            kind: "compare".into(),
            game: info.name.to_string(),
            version: env!("CARGO_PKG_VERSION").into(),
            spec: serde_json::to_value(&spec)?,
            study: meta,
            shard,
            units: pairs,
            played: work.units,
            part: work.part,
            results,
        };
        return write_shard(out, part, &args.exec.quiet);
    }
    let result = play(&args.exec, |step| study::compare_interruptible(info, &spec, Some(&INTERRUPTED), step))?;
    finish_compare(&result, meta, out, format, &args.exec.quiet)
}

/// Prints a comparison and writes its tables: the same for a whole comparison and one
/// merged from shards.
fn finish_compare(
    result: &Comparison,
    meta: serde_json::Value,
    out: Option<OutputDir>,
    format: Format,
    quiet: &QuietArg,
) -> Result<()> {
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
    write_study(out, &[result.matrix_table(), result.ratings_table(), result.equilibrium_table()], format, meta, quiet)
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
    /// Play only shard i of n (0-based) of the variants, or auto/n from SLURM_ARRAY_TASK_ID
    /// or JOB_COMPLETION_INDEX; `draftsim merge` builds the table from every shard's --out.
    #[arg(long, value_name = "i/n")]
    pub shard: Option<String>,
    /// A limit on a figure of every variant, e.g. 'timeouts<=0.01' or 'completion>=0.9'
    /// (repeatable): the variants whose interval crosses it are named, here and in the report.
    #[arg(long, value_name = "FIGURE<=X|FIGURE>=X")]
    pub require: Vec<String>,
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
    let requires = args.require.iter().map(|r| study::tune::Constraint::parse(r)).collect::<Result<Vec<_>, _>>()?;
    if !requires.is_empty() {
        let known = study::tune::known_metrics(info, Some(&base_rules), Some(&seats))?;
        study::tune::check_requires(&requires, &known, info.name)?;
    }
    // The base's rules in force (every default written out), when the base alone builds.
    let rules = (info.build)(Some(&base_rules), None, Some(&seats)).map_or(base_rules, |(g, _)| g.rules_toml());
    let shard = study_shard(args.shard.as_deref(), &args.output)?;
    let (format, out) = args.output.open()?;
    let variants = study::sweep::variant_count(&spec);
    let players_note = match spec.axes.iter().find(|a| a.key == "players") {
        Some(a) => format!("players {}", a.values.join(",")),
        None => format!("{players} players"),
    };
    let note = format!(
        "{} · {players_note} · seats {}{} · seed {} · {rounds} rounds per variant, {variants} variant{}",
        info.name,
        spec.seats.clone().unwrap_or_else(|| draftsim::sim::listed(&seats, players)).join(","),
        if spec.seats.is_some() { "" } else { " (the game's mix with one random seat)" },
        spec.seed,
        if variants == 1 { "" } else { "s" }
    );
    let mut meta = serde_json::json!({
        "kind": "sweep",
        "game": info.name,
        "seed": spec.seed,
        "rounds": spec.rounds,
        "set": args.set,
        "vary": args.vary,
        // A swept player count is listed; the seats are the field every variant seats.
        "players": spec.axes.iter().find(|a| a.key == "players").map_or(serde_json::json!(players), |a| serde_json::json!(a.values)),
        "seats": spec.seats.clone().unwrap_or_else(|| draftsim::sim::listed(&seats, players)),
        "rules": rules,
    });
    if !requires.is_empty() {
        meta["require"] = serde_json::json!(requires.iter().map(study::tune::Constraint::text).collect::<Vec<_>>());
    }
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    // On Ctrl-C the error returns through here, dropping the staging folder unwritten.
    let results = play(&args.exec, |step| {
        // The note once the first variant is built: bad rules or seats are refused in one
        // line, before it.
        let mut noted = false;
        study::sweep_shard(info, &spec, shard, Some(&INTERRUPTED), &mut |done, total, label| {
            if !std::mem::replace(&mut noted, true) {
                args.exec.note(&note);
            }
            step(done, total, label);
        })
    })?;
    if let Some(shard) = shard {
        let part = StudyShard {
            kind: "sweep".into(),
            game: info.name.to_string(),
            version: env!("CARGO_PKG_VERSION").into(),
            spec: serde_json::to_value(&spec)?,
            study: meta,
            shard,
            units: variants,
            played: study::shard_work(variants, Some(shard)).units,
            part: study::shard_work(variants, Some(shard)).part,
            results: results.iter().map(|r| serde_json::to_value(&r.tally)).collect::<Result<_, _>>()?,
        };
        return write_shard(out, part, &args.exec.quiet);
    }
    finish_sweep(&results, meta, out, format, &args.exec.quiet)
}

/// Notes the variants' warnings, prints the sweep table and writes it: the same for a
/// whole sweep and one merged from shards.
fn finish_sweep(
    results: &[VariantResult],
    meta: serde_json::Value,
    out: Option<OutputDir>,
    format: Format,
    quiet: &QuietArg,
) -> Result<()> {
    // Each warning once, with the variants it holds in.
    let mut warnings: Vec<(String, Vec<String>)> = Vec::new();
    for r in results {
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
        quiet.note(&format!("warning: {text} (in {at})"));
    }
    let table = study::sweep_table(results);
    println!("{}", table.to_aligned_text(4));
    // The limits the sweep keeps: each variant that does not surely meet one, by name.
    for text in meta["require"].as_array().into_iter().flatten() {
        let c = study::tune::Constraint::parse(text.as_str().unwrap_or_default())?;
        let mut missed = Vec::new();
        for r in results {
            let metrics = study::tune::metric_estimates(&r.tally, &r.strategies, &r.measures);
            let label: Vec<String> = r.setting.iter().map(|(k, v)| format!("{k}={v}")).collect();
            // A variant that does not have the figure (or measured none of it) is no pass.
            let Some((_, e)) = metrics.iter().find(|(n, _)| *n == c.metric).filter(|(_, e)| !e.mean.is_nan()) else {
                missed.push(format!("{} not measured", label.join(" ")));
                continue;
            };
            let verdict = c.verdict(e);
            if verdict != study::tune::Verdict::Met {
                missed.push(format!(
                    "{} {} ({:.4}, {:.4} – {:.4})",
                    label.join(" "),
                    verdict.words().split(" (").next().unwrap_or_default(),
                    e.mean,
                    e.lo,
                    e.hi
                ));
            }
        }
        if missed.is_empty() {
            println!("{}: met in every variant.", c.text());
        } else {
            println!(
                "{}: met in {} of {} variants; not surely met in: {}.",
                c.text(),
                results.len() - missed.len(),
                results.len(),
                missed.join("; ")
            );
        }
    }
    write_study(out, &[table], format, meta, quiet)
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
    /// A limit on a health figure, e.g. 'timeouts<=0.01' or 'completion>=0.9' (repeatable):
    /// the report flags every figure whose interval crosses it.
    #[arg(long, value_name = "FIGURE<=X|FIGURE>=X")]
    pub require: Vec<String>,
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
    let requires = args.require.iter().map(|r| study::tune::Constraint::parse(r)).collect::<Result<Vec<_>, _>>()?;
    let out = OutputDir::create(&args.out, args.force)?;
    draftsim::report::write_report(&args.dirs, &out, args.regenerate.as_deref(), notes.as_deref(), &requires)?;
    let path = out.commit()?;
    args.quiet.note(&format!("report written to {}", path.join("report.md").display()));
    Ok(())
}

/// Arguments of `draftsim ladder`.
#[derive(Args, Debug)]
pub struct LadderArgs {
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
    /// Search budgets (iterations per decision), increasing, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,4,16,64,256,1024")]
    pub budgets: Vec<u32>,
    /// Play only shard i of n (0-based) of the steps, or auto/n from SLURM_ARRAY_TASK_ID or
    /// JOB_COMPLETION_INDEX; `draftsim merge` builds the tables from every shard's --out.
    #[arg(long, value_name = "i/n")]
    pub shard: Option<String>,
}

/// Plays the skill ladder.
pub fn ladder(args: LadderArgs) -> Result<()> {
    let info = games::find(&args.game.game)?;
    let rounds = args.rounds.get(2_000)?;
    let spec = study::ladder::LadderSpec {
        rules: args.game.rules_text()?,
        budgets: args.budgets.clone(),
        players: match args.players.players {
            Some(p) => p,
            None => (info.build)(args.game.rules_text()?.as_deref(), None, None)?.0.players(),
        },
        rounds_per_step: rounds,
        seed: args.seed.seed,
    };
    study::ladder::check_budgets(&spec.budgets)?;
    // The first step's table, built up front: bad rules, a player count the game refuses
    // or a game without the search bot are refused before anything is written.
    let seats: Vec<String> = [spec.budgets[1], spec.budgets[0]]
        .iter()
        .cycle()
        .take(spec.players)
        .map(|&b| study::ladder::search_seat(b))
        .collect();
    let (game, _) =
        (info.build)(spec.rules.as_deref(), Some(spec.players), Some(&seats)).map_err(|e| match &args.game.rules {
            Some(path) => e.context(path.display()),
            None => e,
        })?;
    let shard = study_shard(args.shard.as_deref(), &args.output)?;
    let (format, out) = args.output.open()?;
    let budgets: Vec<String> = spec.budgets.iter().map(u32::to_string).collect();
    args.exec.note(&format!(
        "{} · {} players · search budgets {} · seed {} · {rounds} rounds per step",
        info.name,
        spec.players,
        budgets.join(","),
        spec.seed
    ));
    warn_rules(game.as_ref(), &args.exec.quiet);
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    let meta = serde_json::json!({
        "kind": "ladder",
        "game": info.name,
        "seed": spec.seed,
        "rounds": spec.rounds_per_step,
        "players": spec.players,
        "budgets": spec.budgets,
        "seating": "each step seated A, B, A, B, ... (both orders at an odd table), under balanced seatings",
        "rules": game.rules_toml(),
    });
    if let Some(shard) = shard {
        let steps = study::ladder::step_count(&spec);
        let work = study::shard_work(steps, Some(shard));
        let results: Vec<serde_json::Value> = match work.part {
            // Fewer steps than shards: this shard's share of one step's chunks.
            Some(part) => {
                let k = work.units[0];
                let label = format!(
                    "part {}/{} of {} v {} iterations",
                    part.index,
                    part.count,
                    spec.budgets[k + 1],
                    spec.budgets[k]
                );
                vec![play_part(&args.exec, &label, || {
                    study::ladder::ladder_part(info, &spec, k, part, Some(&INTERRUPTED))
                })?]
            }
            None => play(&args.exec, |step| {
                study::ladder::ladder_shard(info, &spec, Some(shard), Some(&INTERRUPTED), step)
            })?
            .iter()
            .map(serde_json::to_value)
            .collect::<Result<_, _>>()?,
        };
        let part = StudyShard {
            kind: "ladder".into(),
            game: info.name.to_string(),
            version: env!("CARGO_PKG_VERSION").into(),
            spec: serde_json::to_value(&spec)?,
            study: meta,
            shard,
            units: steps,
            played: work.units,
            part: work.part,
            results,
        };
        return write_shard(out, part, &args.exec.quiet);
    }
    let result = play(&args.exec, |step| study::ladder::ladder(info, &spec, Some(&INTERRUPTED), step))?;
    finish_ladder(&result, meta, out, format, &args.exec.quiet)
}

/// Prints a ladder and writes its tables: the same for a whole ladder and one merged from
/// shards.
fn finish_ladder(
    result: &study::ladder::Ladder,
    meta: serde_json::Value,
    out: Option<OutputDir>,
    format: Format,
    quiet: &QuietArg,
) -> Result<()> {
    let tables = [result.ladder_table(), result.depth_table()];
    println!("{}", tables[0].to_aligned_text(4));
    println!("{}", result.summary());
    write_study(out, &tables, format, meta, quiet)
}
