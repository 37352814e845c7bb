//! What every study command shares: its units played with a progress bar, its tables and
//! `study.json` written, and its shard of the work.

use anyhow::Result;
use draftsim::InputError;
use draftsim::games::GameInfo;
use draftsim::output::{Format, OutputDir, Table};
use draftsim::sim::Shard;
use draftsim::study::kind::{self, Kind};
use draftsim::study::{self, PairResult};

use super::args::{ExecArgs, OutputArgs, QuietArg};

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
    // A comparison seats its strategies a pair at a time: they are its bots.
    if !kv.iter().any(|(k, _)| k == "bots")
        && let Some(strategies) = field("strategies")
    {
        kv.push(("bots".into(), strategies));
    }
    kv.push(("study_json".into(), meta.to_string()));
    for t in tables {
        dir.write_table(t, format, &kv)?;
    }
    dir.write_text("study.json", &serde_json::to_string_pretty(&meta)?)?;
    let path = super::interrupt::commit(dir)?;
    quiet.note(&format!("tables written to {}", path.display()));
    Ok(())
}

/// The file a study shard writes its whole units' results to, for `draftsim merge`.
pub(super) const STUDY_SHARD: &str = "study_shard.json";

/// What a study shard leaves for `merge`: the study (its kind, game, settings and the
/// study.json it would write), which shard it is, the units it played and their results.
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct StudyShard {
    /// The study's kind (`study::kind`): one whose `units` it names.
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
    /// CRC-32 of the results as JSON, so that merge refuses results changed since (absent
    /// in shards written before it was kept).
    #[serde(default)]
    pub results_crc32: Option<u32>,
    /// The table format the shard was asked for, other than CSV: the merge's unless its
    /// own `--format` names another.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// The files the command named (preset and rules files, policies) with the CRC-32 of
    /// what they held, so that merge takes no shard played with another file of one name.
    #[serde(default)]
    pub files: Vec<(String, u32)>,
}

/// The checksum a study shard keeps of its results.
pub(super) fn results_crc32(results: &[serde_json::Value]) -> u32 {
    crc32fast::hash(&serde_json::to_vec(results).unwrap_or_default())
}

impl StudyShard {
    /// What shard `shard` of a `kind` study of `game` leaves: its settings `spec`, the
    /// unsharded study.json `study`, and the results of its share of the `units` units.
    pub fn new(
        kind: &Kind,
        game: &str,
        spec: &impl serde::Serialize,
        study: serde_json::Value,
        shard: Shard,
        units: usize,
        results: Vec<serde_json::Value>,
    ) -> Result<StudyShard> {
        let work = study::shard_work(units, Some(shard));
        Ok(StudyShard {
            kind: kind.name.into(),
            game: game.to_string(),
            version: env!("CARGO_PKG_VERSION").into(),
            spec: serde_json::to_value(spec)?,
            study,
            shard,
            units,
            played: work.units,
            part: work.part,
            results_crc32: Some(results_crc32(&results)),
            results,
            format: None,
            files: super::interrupt::named_files(),
        })
    }
}

/// `--shard` of a study command.
#[derive(clap::Args, Debug, Clone)]
pub struct ShardArg {
    /// Play only shard i of n (0-based) of the study's units, or auto/n from
    /// SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX; `draftsim merge` builds the tables from
    /// every shard's --out.
    // Each command names its units in its own help (`shard_help`).
    #[arg(long, value_name = "i/n", allow_hyphen_values = true)]
    pub shard: Option<String>,
}

/// The unit of a study's game under its rules in force (from its `meta`), singular and
/// plural, for what the study says in words; "round" where the game will not build.
pub(super) fn meta_units(meta: &serde_json::Value) -> (String, String) {
    let built = draftsim::games::find(meta["game"].as_str().unwrap_or_default())
        .ok()
        .and_then(|info| (info.build)(meta["rules"].as_str(), None, None).ok());
    built
        .map_or(("round".to_string(), "rounds".to_string()), |(g, _)| (g.measures().unit.clone(), g.measures().units()))
}

/// `--shard`'s help for a study whose units are `units`.
pub(super) fn shard_help(units: &str) -> String {
    format!(
        "Play only shard i of n (0-based) of {units}, or auto/n from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX; `draftsim merge` builds the tables from every shard's --out"
    )
}

impl ShardArg {
    /// The shard asked for, refused without `--out` (the shard's results go there).
    pub(super) fn get(&self, out: &OutputArgs) -> Result<Option<Shard>> {
        shard_with_out(self.shard.as_deref().map(Shard::parse).transpose()?, out)
    }
}

/// A shard's results, played with a progress bar: where the study has fewer units than
/// shards, its share of one unit's chunks (`part`, shown as `label`); else its whole units.
pub(super) fn shard_results<P, W>(
    exec: &ExecArgs,
    work: &study::ShardWork,
    label: impl FnOnce(usize, Shard) -> String,
    part: impl FnOnce(usize, Shard) -> Result<P, draftsim::Error> + Send,
    whole: impl FnOnce(&mut dyn FnMut(usize, usize, &str)) -> Result<Vec<W>, draftsim::Error> + Send,
) -> Result<Vec<serde_json::Value>>
where
    P: serde::Serialize + Send,
    W: serde::Serialize + Send,
{
    if let Some(share) = work.part {
        let unit = work.units[0];
        return Ok(vec![play_part(exec, &label(unit, share), || part(unit, share))?]);
    }
    Ok(play(exec, whole)?.iter().map(serde_json::to_value).collect::<Result<_, _>>()?)
}

/// Writes a study shard's folder: its study.json (with the shard) and its results.
pub(super) fn write_shard(out: Option<OutputDir>, format: Format, part: StudyShard, quiet: &QuietArg) -> Result<()> {
    let Some(dir) = out else { return Ok(()) };
    // A shard writes no tables: it keeps the format for the merge that writes them.
    let part = StudyShard { format: (format != Format::Csv).then(|| format.extension().to_string()), ..part };
    let mut meta = part.study.clone();
    meta["version"] = part.version.clone().into();
    meta["shard"] = serde_json::json!(part.shard);
    dir.write_text("study.json", &serde_json::to_string_pretty(&meta)?)?;
    dir.write_text(STUDY_SHARD, &serde_json::to_string(&part)?)?;
    let path = super::interrupt::commit(dir)?;
    if let Some(p) = part.part.filter(|_| part.results.iter().all(|v| units_in(v) == Some(0))) {
        // As `run` says of its shard: the shard works, its part holds no chunk.
        super::args::warn(&format!(
            "shard {}/{} has nothing to play: its unit's deals make fewer chunks than the {} shards that share them, so its part {} holds none (merge adds nothing from it); give fewer shards or more --rounds",
            part.shard.index,
            part.shard.count,
            p.count,
            part_name(p)
        ));
    }
    let share = part.part.map(|p| format!(" (its part {} of the unit's chunks)", part_name(p))).unwrap_or_default();
    // A part with no chunk played none of its units' deals: not "played".
    let empty = part.part.is_some() && part.results.iter().all(|v| units_in(v) == Some(0));
    if empty {
        quiet.note(&format!(
            "shard {}/{}: no deals played{share}, its folder written to {} (draftsim merge takes it with the others)",
            part.shard.index,
            part.shard.count,
            path.display()
        ));
        return Ok(());
    }
    quiet.note(&format!(
        "shard {}/{}: {} of {} {} played{share}, results written to {} (draftsim merge builds the tables)",
        part.shard.index,
        part.shard.count,
        part.played.len(),
        part.units,
        kind::find(&part.kind).and_then(|k| k.units).unwrap_or("units"),
        path.display()
    ));
    Ok(())
}

/// A part of a unit's chunks as `--shard` names a shard, from 0: "4 of 0-4".
pub(super) fn part_name(p: Shard) -> String {
    format!("{} of 0-{}", p.index, p.count.saturating_sub(1))
}

/// Units a shard's result played, where its shape tells: a tally's rounds, a pair's
/// tallies', a sensitivity or versus variant's deal groups; `None` for another shape.
fn units_in(v: &serde_json::Value) -> Option<u64> {
    if let Some(tallies) = v["tallies"].as_array() {
        return tallies.iter().map(|t| t["rounds"].as_u64()).sum();
    }
    if let Some(rounds) = v["rounds"].as_u64() {
        return Some(rounds);
    }
    if let Some(groups) = v["health"].as_array() {
        return Some(groups.len() as u64);
    }
    match (v.get("Ok"), v.as_array()) {
        (Some(ok), _) => units_in(ok),
        (None, Some(items)) => items.iter().map(units_in).sum(),
        _ => None,
    }
}

/// Why a part's tally is not the part `k` of `count` it is read as (a part copied under
/// another index would count the same deals twice), or its counts do not add up; a tally
/// that records no part is from a build before parts were recorded, and is taken.
pub(super) fn part_fault(tally: &draftsim::sim::Tally, k: usize, count: usize) -> Option<String> {
    let own = Shard { index: k as u64, count: count as u64 };
    tally.count_fault().or_else(|| {
        tally.shard.filter(|&s| s != own).map(|s| {
            format!("its tally played part {} of the unit's chunks, not part {}", part_name(s), part_name(own))
        })
    })
}

/// The shard asked for, refused without `--out`: a shard's results alone are a share of
/// the deals, which only a merge of every shard's folder makes tables of.
pub(super) fn shard_with_out(shard: Option<Shard>, out: &OutputArgs) -> Result<Option<Shard>> {
    if shard.is_some() && out.out.is_none() {
        return Err(InputError::new(
            "--shard: also give --out DIR for the shard's results (draftsim merge reads them)",
        )
        .into());
    }
    Ok(shard)
}

/// Plays one part of a unit (a shard's share of its chunks) under a one-step progress bar.
pub(super) fn play_part<T: serde::Serialize + Send>(
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

/// What `merge` hands a sharded study to put its tables together: the settings and each
/// unit's results with the shard folder each came from.
pub(super) struct Merging<'a> {
    /// The game the study played.
    pub info: &'static GameInfo,
    /// The study's settings (its spec) as the shards recorded them.
    pub spec: &'a serde_json::Value,
    /// Each unit's results: the whole unit's, or its parts' in part order, each with the
    /// index of the shard folder it came from.
    pub results: Vec<Vec<(usize, serde_json::Value)>>,
    /// Whether each unit was played in parts (fewer units than shards).
    pub in_parts: bool,
    /// The error for a shard file that does not parse.
    pub bad: &'a dyn Fn(serde_json::Error) -> InputError,
    /// The error for shard folder `at` holding something else than its share.
    pub wrong: &'a dyn Fn(usize, &str) -> InputError,
}

impl Merging<'_> {
    /// The study's settings as its own type.
    pub fn spec<T: serde::de::DeserializeOwned>(&self) -> Result<T, InputError> {
        serde_json::from_value(self.spec.clone()).map_err(self.bad)
    }
}

/// A study that `--shard` splits into whole units and `merge` puts together again: one
/// implementation in each such study's command file, listed in `merge`'s registry.
pub(super) trait Study: Sync {
    /// Its entry in the library's registry of study kinds.
    fn kind(&self) -> &'static Kind;
    /// How many units a study with these settings plays (`m.results` is not read).
    fn units(&self, m: &Merging) -> Result<usize>;
    /// Puts the units' results together, prints the study and writes its tables.
    fn merge(&self, m: Merging, to: MergedTables) -> Result<()>;
    /// The study.json keys that only name a file as it was given (its text is in the spec,
    /// where shards must agree): a shard may have named it by another path.
    fn path_labels(&self) -> &'static [&'static str] {
        &[]
    }
}

/// Where `merge` writes a sharded study's tables.
pub(super) struct MergedTables<'a> {
    /// The unsharded study's study.json.
    pub meta: serde_json::Value,
    /// The merged folder.
    pub out: OutputDir,
    /// The tables' format.
    pub format: Format,
    /// Whether to print.
    pub quiet: &'a QuietArg,
}

/// Puts unit `index`'s pair result together from its parts.
pub(super) type PairFromParts<'a> =
    dyn Fn(usize, &[study::compare::PairPart]) -> Result<PairResult, draftsim::Error> + 'a;

/// Each pair's (or ladder step's) result from the shards: read whole, or its parts put
/// together by `from_parts`; a part with another number of seatings than a table of
/// `players` plays is refused, naming its shard.
pub(super) fn read_pairs(
    results: Vec<Vec<(usize, serde_json::Value)>>,
    in_parts: bool,
    players: usize,
    wrong: &dyn Fn(usize, &str) -> InputError,
    from_parts: &PairFromParts,
) -> Result<Vec<PairResult>> {
    // An even table is one seating, an odd one both.
    let seatings = if players.is_multiple_of(2) { 1 } else { 2 };
    let mut pairs = Vec::with_capacity(results.len());
    for (index, parts) in results.into_iter().enumerate() {
        if !in_parts {
            let (at, whole) = parts.into_iter().next().expect("a unit played whole");
            let pair = serde_json::from_value::<PairResult>(whole).map_err(|e| wrong(at, &e.to_string()))?;
            // As a run's merge checks its tallies: no side wins more than was played.
            if !(pair.share_a.is_finite() && (0.0..=pair.rounds as f64).contains(&pair.share_a)) {
                let what = format!("a pair won {} of its {} units", pair.share_a, pair.rounds);
                return Err(wrong(at, &what).into());
            }
            pairs.push(pair);
            continue;
        }
        let mut read = Vec::with_capacity(parts.len());
        let count = parts.len();
        for (k, (at, value)) in parts.into_iter().enumerate() {
            let part: study::compare::PairPart =
                serde_json::from_value(value).map_err(|e| wrong(at, &e.to_string()))?;
            if part.tallies.len() != seatings {
                let what = format!("a part with {} seatings' tallies, not {seatings}", part.tallies.len());
                return Err(wrong(at, &what).into());
            }
            if let Some(fault) = part.tallies.iter().find_map(|t| part_fault(t, k, count)) {
                return Err(wrong(at, &fault).into());
            }
            read.push(part);
        }
        pairs.push(from_parts(index, &read)?);
    }
    Ok(pairs)
}

/// Saves a command's state (`what`: search, sensitivity, training) to `path` whole: written
/// beside it and renamed, the partial file removed if the write fails (a failed save is
/// the machine's fault, exit 1, not the user's input).
pub(super) fn save_state(path: &std::path::Path, text: &str, what: &str) -> Result<(), draftsim::Error> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, path)).map_err(|error| {
        let _ = std::fs::remove_file(&tmp);
        draftsim::Error::Io { path: format!("{} (cannot save the {what} state)", path.display()), error }
    })
}

/// Removes a finished command's saved state, and the half-written copy a save stopped
/// mid-write may have left beside it.
pub(super) fn forget_state(path: &std::path::Path) {
    let _ = std::fs::remove_file(path);
    let _ = std::fs::remove_file(path.with_extension("tmp"));
}

/// Where an interrupted command (`what`: search, sensitivity, train) keeps its state:
/// beside the output folder, as `.NAME.WHAT-state.json`.
pub(super) fn state_file_for(what: &str, out: &std::path::Path) -> std::path::PathBuf {
    let name = out.file_name().map_or_else(|| what.into(), |n| n.to_string_lossy().into_owned());
    out.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."))
        .join(format!(".{}.{what}-state.json", draftsim::output::staging_stem(&name)))
}
