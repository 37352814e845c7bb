//! Balance reports: `report.md` with SVG charts, read back from run, compare or sweep
//! tables (CSV or Parquet) with polars doing the aggregation.
//!
//! This file finds the folders' tables and writes the page; each study's section is a
//! file of its own (`run`, `health`, `compare`, `sweep`, `ladder`, `sensitivity`,
//! `optimise` for tune and exploit, `calibration`, `cards`, `solver` for train and
//! exploitability), and `charts` draws the SVGs.

mod charts;
mod page;
use page::{Page, Question};

use std::fmt::Write;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::error::{Error, InputError};
use crate::output::{OutputDir, and_list, capitalised, or_list, read_frame};
use crate::sim::{Measures, Shown};
use crate::stats::Estimate;
use crate::study::kind;
use crate::study::tune::{Constraint, Verdict};

mod health;
use health::*;
mod ladder;
use ladder::*;
mod sweep;
use sweep::*;
mod sensitivity;
use sensitivity::*;
mod calibration;
use calibration::*;
mod run;
use run::*;
mod compare;
use compare::*;
mod optimise;
use optimise::*;
mod cards;
use cards::*;
mod solver;
use solver::*;
mod versus;
use versus::*;
mod pairings;

fn table_error(name: &str, e: impl std::fmt::Display) -> Error {
    Error::Table { name: name.to_string(), message: e.to_string() }
}

/// A column a table lacks or holds in another type is the input's fault: the message names
/// the file (`run/sweep.csv: column rounds: not found`).
fn in_file(e: Error, dir: &Path, table: &str) -> Error {
    match e {
        Error::Table { name, message } if !name.contains(std::path::MAIN_SEPARATOR) => {
            let file = find_table(dir, table).unwrap_or_else(|| dir.join(table));
            let message = message.lines().next().unwrap_or_default().to_string();
            InputError::new(format!("{}: column {name}: {message}; give a folder as draftsim wrote it", file.display()))
                .into()
        }
        other => other,
    }
}

/// The table `name` of a folder, in whichever format it was written.
pub(crate) fn find_table(dir: &Path, name: &str) -> Option<PathBuf> {
    ["parquet", "csv"].iter().map(|ext| dir.join(format!("{name}.{ext}"))).find(|p| p.exists())
}

fn load(dir: &Path, name: &str) -> Result<Option<DataFrame>, Error> {
    // A table that will not read is a folder the user gave: bad input, said in one line.
    let read = |p: PathBuf| {
        read_frame(&p).map_err(|e| {
            let e = match e {
                Error::Table { message, .. } => message,
                // Named and mended by the reader already.
                e @ Error::Input(_) => return e,
                e => e.to_string(),
            };
            InputError::new(format!("{}: {e}; write the folder again with the command that made it", p.display()))
                .into()
        })
    };
    find_table(dir, name).map(read).transpose()
}

/// A column as floats (nulls and missing columns as NaN).
pub(crate) fn floats(df: &DataFrame, name: &str) -> Result<Vec<f64>, Error> {
    let col = df.column(name).map_err(|e| table_error(name, e))?;
    let cast = col.cast(&DataType::Float64).map_err(|e| table_error(name, e))?;
    let ca = cast.f64().map_err(|e| table_error(name, e))?;
    Ok((0..ca.len()).map(|i| ca.get(i).unwrap_or(f64::NAN)).collect())
}

/// A column as text.
pub(crate) fn texts(df: &DataFrame, name: &str) -> Result<Vec<String>, Error> {
    let col = df.column(name).map_err(|e| table_error(name, e))?;
    let cast = col.cast(&DataType::String).map_err(|e| table_error(name, e))?;
    let ca = cast.str().map_err(|e| table_error(name, e))?;
    Ok((0..ca.len()).map(|i| ca.get(i).unwrap_or("").to_string()).collect())
}

/// A column with its 95% interval (the columns `NAME`, `NAME_lo`, `NAME_hi`).
struct WithInterval {
    mean: Vec<f64>,
    lo: Vec<f64>,
    hi: Vec<f64>,
}

fn with_interval(df: &DataFrame, name: &str) -> Result<WithInterval, Error> {
    Ok(WithInterval {
        mean: floats(df, name)?,
        lo: floats(df, &format!("{name}_lo"))?,
        hi: floats(df, &format!("{name}_hi"))?,
    })
}

/// Bars from zero (or, without `from_zero`, points on an axis spanning the data) with
/// interval whiskers, one per label in its colour, written to `file` in the report folder.
fn whisker_chart(
    out: &OutputDir,
    file: &str,
    axes: &charts::Axes<'_>,
    v: &WithInterval,
    colours: &[charts::Colour],
    from_zero: bool,
) -> Result<(), Error> {
    charts::bars_with_whiskers(&out.path().join(file), axes, (&v.mean, &v.lo, &v.hi), colours, from_zero)
}

/// What a chart of one figure by label says: which label is highest and which lowest, and
/// whether the highest stands clear of the next (their 95% intervals apart) or not. Empty
/// where fewer than two labels have a figure. Figures have four decimals, or `digits`.
fn leader_sentence(labels: &[String], v: &WithInterval, what: &str, digits: Option<usize>) -> String {
    let mut order: Vec<usize> = (0..labels.len()).filter(|&i| v.mean[i].is_finite()).collect();
    if order.len() < 2 {
        return String::new();
    }
    order.sort_by(|&a, &b| v.mean[b].total_cmp(&v.mean[a]));
    let (top, next, last) = (order[0], order[1], order[order.len() - 1]);
    let said = |i: usize| match digits {
        Some(d) => format!("`{}` ({:.d$} [{:.d$}, {:.d$}])", labels[i], v.mean[i], v.lo[i], v.hi[i]),
        None => format!("`{}` ({})", labels[i], estimate_text(v.mean[i], v.lo[i], v.hi[i])),
    };
    if v.mean[top] == v.mean[last] {
        return format!("Every bar shows the same {what}: {}.", fmt4(v.mean[top]));
    }
    // Exactly level bars are named together: one of them is no leader (or laggard).
    let level = |i: usize| order.iter().copied().filter(|&j| v.mean[j] == v.mean[i]).collect::<Vec<_>>();
    let together = |group: &[usize]| {
        let names: Vec<String> = group.iter().map(|&i| format!("`{}`", labels[i])).collect();
        and_list(&names.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let (tops, bottoms) = (level(top), level(last));
    let lowest = match bottoms.len() {
        _ if order.len() <= 2 => String::new(),
        1 => format!(" {} has the lowest.", said(last)),
        _ => format!(" {} share the lowest, {}.", together(&bottoms), fmt4(v.mean[last])),
    };
    if tops.len() > 1 {
        return format!("{} share the highest {what}, {}.{lowest}", together(&tops), fmt4(v.mean[top]));
    }
    let next_said = said(next);
    if v.lo[top] > v.hi[next] {
        format!("{} has the highest {what}, its interval clear of the next's, {next_said}.{lowest}", said(top))
    } else {
        format!(
            "{} has the highest {what}, but its interval overlaps the next's, {next_said}: the two may be level.{lowest}",
            said(top),
        )
    }
}

/// Each strategy's colour in the report's palette (a preset file by its name).
fn strategy_colours(palette: &charts::Palette, strategies: &[String]) -> Vec<charts::Colour> {
    strategies.iter().map(|s| palette.colour(&short_name(s))).collect()
}

/// A strategy's label: a preset file by its file name, anything else as it is.
fn short_name(name: &str) -> String {
    match name.strip_suffix(".toml") {
        Some(stem) => Path::new(stem).file_name().map_or(name.to_string(), |f| f.to_string_lossy().into_owned()),
        None => name.to_string(),
    }
}

/// A column's name in words, a round suffix spelled out (`fold_rate_r2`: "fold rate in
/// round 2"), the length figures by what they count.
fn words(column: &str) -> String {
    // Decisions per unit and a unit's length in the game's own steps (`mean_length`:
    // rounds, hands, turns) must not read alike.
    match column {
        "length_mean" => return "mean decisions per unit".into(),
        "length_p10" | "length_p50" | "length_p90" => {
            return format!("{}th percentile of decisions per unit", &column[column.len() - 2..]);
        }
        "mean_length" => return "mean unit length".into(),
        "win_rate_over_fair" => return "win rate over its fair share".into(),
        // A preset's path (`tight.bet.fold_below[0]`) is a name to type, not words.
        _ if column.contains('.') => return column.to_string(),
        _ => {}
    }
    let text = column.replace('_', " ");
    match text.rsplit_once(" r") {
        Some((head, n)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => format!("{head} in round {n}"),
        _ => text,
    }
}

/// A swept key's values as text: whole numbers and reals as written (`1`, `0.5`), not as a
/// float prints in a table (`1.0`).
fn key_texts(df: &DataFrame, name: &str) -> Result<Vec<String>, Error> {
    let is_real = df.column(name).map_err(|e| table_error(name, e))?.dtype().is_float();
    if !is_real {
        return texts(df, name);
    }
    Ok(floats(df, name)?.iter().map(|v| if v.is_nan() { String::new() } else { v.to_string() }).collect())
}

/// The distinct values, in order of first appearance.
fn distinct(values: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in values {
        if !out.contains(v) {
            out.push(v.clone());
        }
    }
    out
}

fn has(df: &DataFrame, name: &str) -> bool {
    df.column(name).is_ok()
}

/// What a study's section is given: its folder, the folder's metadata and measures, and
/// the report's shared settings.
struct Folder<'a> {
    dir: &'a Path,
    /// The folder's name on the page (see [`folder_names`]).
    name: &'a str,
    meta: Option<&'a serde_json::Value>,
    measures: Option<&'a Measures>,
    out: &'a OutputDir,
    prefix: &'a str,
    palette: &'a charts::Palette,
    requires: &'a [Constraint],
    /// Whether a folder of the report holds an exploitability table of this folder's game.
    bounded: bool,
}

/// Writes a study's section from the table it is found by.
type Section = fn(&Folder, &mut Page, &DataFrame) -> Result<(), Error>;

/// Each study's section, in report order, by the table `report` finds the study by (its
/// first in `study::kind`); tune and exploit share one.
const SECTIONS: [(&str, Section); 10] = [
    (kind::VERSUS.tables[0], |f, page, t| versus_section(page, t, f.meta, f.out, f.prefix, f.measures)),
    (kind::SENSITIVITY.tables[0], |f, page, t| {
        let refused = load(f.dir, kind::SENSITIVITY.tables[1])?;
        sensitivity_section(page, (t, refused.as_ref()), (f.out, f.prefix), f.measures)
    }),
    (kind::RUN.tables[0], |f, page, summary| {
        let measures = f.measures.ok_or_else(|| {
            InputError::new(format!("{}: run.json is missing or names no known game", f.dir.display()))
        })?;
        run_section(page, (f.dir, summary), f.out, f.prefix, measures, f.palette)?;
        if let Some(cards) = load(f.dir, "cards")? {
            // The unit's first word ("match (one game)" is a match), for "in N matches".
            let unit = measures.unit.split_whitespace().next().unwrap_or("round");
            cards_section(page, &cards, f.out, f.prefix, unit, f.palette)?;
        }
        Ok(())
    }),
    (kind::COMPARE.tables[0], |f, page, t| {
        compare_section(page, (f.dir, f.name, t), f.out, f.prefix, f.measures, f.palette)
    }),
    (kind::SWEEP.tables[0], |f, page, t| sweep_section(page, t, f)),
    (kind::TUNE.tables[0], |f, page, t| optimise_section(page, f.dir, t, f.meta, f.out, f.prefix)),
    (kind::CALIBRATE.tables[0], |f, page, t| {
        calibration_section(page, t, f.meta.and_then(|m| m["strategy"].as_str()), (f.out, f.prefix))?;
        match load(f.dir, kind::CALIBRATE.tables[1])? {
            Some(field) => field_calibration_section(page, &field, (f.out, f.prefix)),
            None => Ok(()),
        }
    }),
    (kind::LADDER.tables[0], |f, page, t| {
        ladder_section(page, t, (f.out, f.prefix), f.measures, game_title(f.meta), f.requires)
    }),
    (kind::TRAIN.tables[0], |f, page, t| training_section(page, t, f.out, f.prefix, f.bounded)),
    (kind::EXPLOITABILITY.tables[0], |f, page, t| {
        let players = f.meta.and_then(|m| m["players"].as_u64());
        exploitability_section(page, t, load(f.dir, "responses")?.as_ref(), f.measures, players)
    }),
];

/// What a report is asked for besides its folders.
#[derive(Debug, Default)]
pub struct ReportOptions<'a> {
    /// The command that regenerates the report, printed at its top.
    pub regenerate: Option<&'a str>,
    /// Findings a person wrote (Markdown): their `# ` title heads the page, the rest is its
    /// "Findings" section.
    pub notes: Option<&'a str>,
    /// Limits on health figures, checked in the health cards and sweeps.
    pub requires: &'a [Constraint],
    /// Every chart, not only the first [`page::MAX_CHARTS`].
    pub all_charts: bool,
}

/// Writes `report.md`, `report.html` and their charts for these result folders; returns
/// the Markdown.
pub fn write_report(dirs: &[PathBuf], out: &OutputDir, options: &ReportOptions) -> Result<String, Error> {
    // One palette for the whole report: a strategy keeps its colour in every chart.
    let palette = charts::Palette::default();
    let mut page = Page::default();
    let names = folder_names(dirs);
    let ladders = ladder_depths(dirs, &names)?;
    // The policy folders whose exploitability the report's folders bound (each
    // `cfr{policy=DIR}` row of an exploitability table), as found on disk.
    let mut bounds: Vec<(String, PathBuf)> = Vec::new();
    for d in dirs {
        let Some(t) = load(d, kind::EXPLOITABILITY.tables[0])? else { continue };
        let json = |file: &str| {
            let text = std::fs::read_to_string(d.join(file)).ok()?;
            serde_json::from_str::<serde_json::Value>(&text).ok()
        };
        let game = json("study.json").and_then(|m| Some(m["game"].as_str()?.to_string())).unwrap_or_default();
        // A relative path is the command's: from where it ran, as its provenance says.
        let ran = json("provenance.json").and_then(|p| Some(PathBuf::from(p["working_directory"].as_str()?)));
        for strategy in texts(&t, "strategy").unwrap_or_default() {
            for given in crate::output::provenance::policy_paths(&strategy) {
                let at = ran.as_ref().filter(|_| given.is_relative()).map_or_else(|| given.clone(), |r| r.join(&given));
                let folder = if at.is_file() { at.parent().map(Path::to_path_buf).unwrap_or_default() } else { at };
                bounds.extend(folder.canonicalize().ok().map(|p| (game.clone(), p)));
            }
        }
    }
    // The figures the folders hold, so that a limit none of them has is refused.
    // Runs of two strategies, gathered into one table a game, table size and rules where
    // three or more share them.
    let mut gathered = Vec::new();
    let mut figures: Vec<String> = if ladders.is_empty() { Vec::new() } else { vec!["skill_depth".into()] };
    // Figures a sensitivity table holds for its base, as points only.
    let mut base_only: Vec<String> = Vec::new();
    // Of those, the figures a run's health card carries, with an interval.
    let mut health_names: Vec<&'static str> = Vec::new();
    for (i, dir) in dirs.iter().enumerate() {
        let prefix = format!("{}-", i + 1);
        let name = names[i].clone();
        let meta = match ["run.json", "study.json"]
            .iter()
            .find_map(|f| Some((f, std::fs::read_to_string(dir.join(f)).ok()?)))
        {
            // A record that will not read would leave the folder unnamed and its game unknown.
            Some((file, text)) => Some(serde_json::from_str::<serde_json::Value>(&text).map_err(|e| {
                InputError::new(format!(
                    "{}: not the record draftsim writes ({e}); write the folder again with the command that made it",
                    dir.join(file).display()
                ))
            })?),
            None => None,
        };
        let heading = folder_heading(&name, meta.as_ref());
        page.begin(&name, heading.clone(), meta.as_ref().map(describe).unwrap_or_default());
        // Folders that play one rule set: a run (its record has no kind) and the studies
        // that play one; a sweep, a tune or a versus plays several, and names them itself.
        let one_rule_set = |m: &&serde_json::Value| {
            m.get("kind").and_then(|k| k.as_str()).is_none_or(|k| {
                [kind::LADDER.name, kind::CALIBRATE.name, kind::COMPARE.name, kind::EXPLOITABILITY.name].contains(&k)
            })
        };
        if let Some(m) = meta.as_ref().filter(one_rule_set)
            && let (Some(game), Some(rules)) = (m["game"].as_str(), m["rules"].as_str())
        {
            page.rules(game, rules);
        }
        let shard = meta.as_ref().and_then(|m| Some((m["shard"]["index"].as_u64()?, m["shard"]["count"].as_u64()?)));
        if let Some((i, n)) = shard {
            page.caution(format!(
                "`{name}` is shard {i}/{n} of its run: its figures are from its share of the deals only; `draftsim merge` every shard's folder for the whole run's."
            ));
        }
        // A run's shard with no deal of its own (fewer chunks than shards) has nothing to say.
        if dir.join("run.json").exists() && meta.as_ref().is_some_and(|m| m["rounds"].as_u64() == Some(0)) {
            let which =
                shard.map_or(String::new(), |(i, n)| format!(" (shard {i}/{n} of a run too short for {n} shards)"));
            return Err(InputError::new(format!(
                "{}: played no units{which}: `draftsim merge` every shard's folder --out DIR, then report DIR",
                dir.display()
            ))
            .into());
        }
        let measures = meta.as_ref().and_then(game_measures);
        gathered.extend(pairings::pairing(dir, (&name, &heading), meta.as_ref(), measures.as_ref())?);
        // The limits given to the report, then those the study kept (sweep --require).
        let mut requires = options.requires.to_vec();
        for text in meta.as_ref().and_then(|m| m["require"].as_array()).into_iter().flatten() {
            let c = Constraint::parse(text.as_str().unwrap_or_default())?;
            if !requires.contains(&c) {
                requires.push(c);
            }
        }
        let requires = &requires[..];
        let mut found = false;
        if let Some(health) = load(dir, "health")? {
            figures.extend(texts(&health, "figure").map_err(|e| in_file(e, dir, "health"))?);
            // The skill depth of the same game and rules, when a ladder of them is reported too.
            let same = |m: &serde_json::Value, l: &SkillDepth| m["game"] == l.game && m["rules"] == l.rules;
            let depth = meta.as_ref().and_then(|m| ladders.iter().find(|l| same(m, l)));
            let game = meta.as_ref().and_then(|m| m["game"].as_str());
            health_section(&mut page, &health, requires, depth, game).map_err(|e| in_file(e, dir, "health"))?;
        }
        let folder = Folder {
            dir,
            name: &name,
            meta: meta.as_ref(),
            measures: measures.as_ref(),
            out,
            prefix: &prefix,
            palette: &palette,
            requires,
            bounded: (meta.as_ref().and_then(|m| m["game"].as_str()))
                .zip(dir.canonicalize().ok())
                .is_some_and(|(g, d)| bounds.iter().any(|(bg, bd)| bg == g && *bd == d)),
        };
        for (table, section) in SECTIONS {
            if let Some(frame) = load(dir, table)? {
                found = true;
                if table == kind::SWEEP.tables[0] {
                    figures.extend(sweep::sweep_figures(&frame, meta.as_ref()));
                }
                if table == kind::SENSITIVITY.tables[0] {
                    base_only.extend(texts(&frame, "figure").unwrap_or_default());
                    if let Some(m) = measures.as_ref() {
                        health_names.extend(crate::sim::figure_meanings(m, None).into_iter().map(|(n, _)| n));
                    }
                }
                section(&folder, &mut page, &frame).map_err(|e| in_file(e, dir, table))?;
            }
        }
        if let (false, Some((i, n)), true) = (found, shard, dir.join("study_shard.json").exists()) {
            // A study's shard holds its share's rows, which only a merge makes tables of.
            return Err(InputError::new(format!(
                "{}: shard {i}/{n} of a study: `draftsim merge` every shard's folder --out DIR, then report DIR",
                dir.display()
            ))
            .into());
        }
        if !found {
            let commands: Vec<&str> = kind::KINDS.iter().map(|k| k.name).collect();
            return Err(InputError::new(format!(
                "{}: no {} table here; give folders written by {} --out",
                dir.display(),
                or_list(&kind::key_tables()),
                or_list(&commands)
            ))
            .into());
        }
    }
    if let Some(c) = options.requires.iter().find(|c| !figures.contains(&c.metric) && base_only.contains(&c.metric)) {
        // A sensitivity table holds its base's figures as points: no interval to judge by.
        // A run's health card has the health figures (skill_gap only with a random seat).
        let health = health_names.contains(&c.metric.as_str());
        let fix = if health {
            format!(
                "run the base (`draftsim run` with its rules{}, --out DIR) and report that folder beside it",
                if c.metric == "skill_gap" { " and a random seat" } else { "" }
            )
        } else {
            format!("`draftsim sweep --set KEY=BASE_VALUE --require '{}'` judges it on the base", c.text())
        };
        return Err(InputError::new(format!(
            "--require '{}': a sensitivity table holds its base's {} without an interval, so no limit is judged on it; {fix}",
            c.text(),
            c.metric
        ))
        .into());
    }
    if let Some(c) = options.requires.iter().find(|c| !figures.contains(&c.metric)) {
        // Each figure once, in the order the folders hold them.
        let mut listed: Vec<String> = Vec::new();
        figures.retain(|f| {
            !f.ends_with("_lo") && !f.ends_with("_hi") && !listed.contains(f) && {
                listed.push(f.clone());
                true
            }
        });
        return Err(InputError::new(format!(
            "--require '{}': {} is not a figure of any folder reported; {}",
            c.text(),
            c.metric,
            if figures.is_empty() {
                "these folders hold none (a run's health card or a sweep has figures to require); drop --require"
                    .to_string()
            } else {
                format!("use one of {}", figures.join(", "))
            }
        ))
        .into());
    }
    let left_out = pairings::gather(&mut page, &gathered, out, &palette)?;
    let charts = out.path().to_path_buf();
    let content = |file: &str| std::fs::read(charts.join(file)).ok();
    let (md, capped) = page.assemble(options.regenerate, options.notes, options.all_charts, &content);
    for file in left_out.into_iter().chain(capped) {
        let path = out.path().join(&file);
        std::fs::remove_file(&path).map_err(|e| Error::Io { path: path.display().to_string(), error: e })?;
    }
    out.write_text("report.md", &md)?;
    out.write_text("report.html", &html(&md, out.path())?)?;
    Ok(md)
}

/// A folder's subsection heading: what it holds and its name.
/// Each folder's name on the page: its last component, or where folders of one name are
/// reported together, as many of its last components as tell it from the others
/// (`a/runs/x` and `b/runs/x` are `a/runs/x` and `b/runs/x`; `a/x` and `b/y/x` are `a/x`
/// and `y/x`). Headings, summary lines and chart titles say which folder they are about.
fn folder_names(dirs: &[PathBuf]) -> Vec<String> {
    let parts = |d: &PathBuf| -> Vec<String> {
        let parts: Vec<String> = (d.components())
            .filter(|c| matches!(c, std::path::Component::Normal(_)))
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if parts.is_empty() { vec![d.display().to_string()] } else { parts }
    };
    let all: Vec<Vec<String>> = dirs.iter().map(parts).collect();
    let tail = |p: &[String], n: usize| p[p.len().saturating_sub(n)..].join("/");
    (all.iter())
        .map(|p| {
            // The fewest last components no other folder of the report ends in.
            let clashes = |n: usize| all.iter().filter(|q| tail(q, n) == tail(p, n)).count() > 1;
            let n = (1..=p.len()).find(|&n| !clashes(n)).unwrap_or(p.len());
            tail(p, n)
        })
        .collect()
}

/// The title of the game a folder's `meta` names ("Seven Card Draft").
fn game_title(meta: Option<&serde_json::Value>) -> Option<String> {
    let g = meta.and_then(|m| m["game"].as_str())?;
    Some(crate::games::find(g).map_or_else(|_| capitalised(&g.replace('-', " ")), |i| i.title.to_string()))
}

fn folder_heading(name: &str, meta: Option<&serde_json::Value>) -> String {
    let text = |k: &str| meta.and_then(|m| m[k].as_str()).map(str::to_string);
    let game = game_title(meta);
    let kind = text("kind").unwrap_or_else(|| "run".to_string());
    match game {
        Some(game) => format!("{game}, {kind} `{name}`"),
        None => format!("{} `{name}`", capitalised(&kind)),
    }
}

/// The report as one self-contained HTML page: the Markdown rendered (pulldown-cmark),
/// each chart's SVG inlined in place of its image link.
fn html(md: &str, dir: &Path) -> Result<String, Error> {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let mut events = Vec::new();
    let mut in_image = false;
    let mut in_cell = false;
    // An interval's ends stay on one line: "0.2880 – 0.3271" (or "0.28–0.33") never breaks
    // at its dash.
    let md = md.replace(" – ", "\u{a0}–\u{a0}").replace('–', "\u{2060}–\u{2060}");
    for event in Parser::new_ext(&md, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Image { dest_url, .. }) => {
                let path = dir.join(dest_url.as_ref());
                let svg = std::fs::read_to_string(&path)
                    .map_err(|e| Error::Io { path: path.display().to_string(), error: e })?;
                // Drop the XML declaration: the SVG is inlined into HTML.
                let svg = svg
                    .trim_start()
                    .strip_prefix("<?xml")
                    .and_then(|r| r.split_once("?>"))
                    .map_or(svg.as_str(), |(_, rest)| rest);
                events.push(Event::Html(format!("<figure>{}</figure>", svg.trim()).into()));
                in_image = true;
            }
            Event::End(TagEnd::Image) => in_image = false,
            _ if in_image => {}
            Event::Start(Tag::TableCell) => {
                in_cell = true;
                events.push(Event::Start(Tag::TableCell));
            }
            Event::End(TagEnd::TableCell) => {
                in_cell = false;
                events.push(Event::End(TagEnd::TableCell));
            }
            // A long derived preset's name may break after each of its settings, so it
            // does not stretch its table's column.
            Event::Text(text) if in_cell && text.len() > 24 && text.contains(';') => {
                let mut pieces = text.split_inclusive(';').peekable();
                while let Some(piece) = pieces.next() {
                    events.push(Event::Text(piece.to_string().into()));
                    if pieces.peek().is_some() {
                        events.push(Event::InlineHtml("<wbr>".into()));
                    }
                }
            }
            // Another report's notes are read on its page, where their headings have ids.
            Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
                let dest = match dest_url.split_once("notes.md") {
                    Some((folder, anchor))
                        if folder.starts_with("../")
                            && folder.ends_with('/')
                            && (anchor.is_empty() || anchor.starts_with('#')) =>
                    {
                        format!("{folder}report.html{anchor}").into()
                    }
                    _ => dest_url,
                };
                events.push(Event::Start(Tag::Link { link_type, dest_url: dest, title, id }));
            }
            other => events.push(other),
        }
    }
    let mut body = String::new();
    pulldown_cmark::html::push_html(&mut body, events.into_iter());
    // Anchors for the contents' and the notes' links: each section heading's id as GitHub
    // makes it.
    let mut anchored = String::new();
    let mut rest = body.as_str();
    // A heading's slug seen before takes "-1", "-2", ... as GitHub's does: ids stay unique.
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let next = |rest: &str| ["<h2>", "<h3>", "<h4>"].iter().filter_map(|h| rest.find(h).map(|at| (at, &h[1..3]))).min();
    while let Some((at, level)) = next(rest) {
        let end = rest[at..].find(&format!("</{level}>")).map_or(rest.len(), |e| at + e);
        let text = &rest[at + 4..end];
        let plain =
            strip_tags(text).replace("&amp;", "&").replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">");
        let slug = page::slug(&plain);
        let count = seen.entry(slug.clone()).or_insert(0);
        let id = if *count == 0 { slug } else { format!("{slug}-{count}") };
        *count += 1;
        let _ = write!(anchored, "{}<{level} id=\"{id}\">{text}", &rest[..at]);
        rest = &rest[end..];
    }
    anchored.push_str(rest);
    let body = anchored;
    // The page's own title (the notes' `# ` line) names its tab, as it heads the page.
    let title = md.lines().find_map(|l| l.strip_prefix("# ")).unwrap_or("draftsim balance report");
    let title = title.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace(['`', '\u{2060}'], "");
    // A table wider than the page (long derived-preset names) scrolls inside it.
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title>\n<style>body{{font-family:sans-serif;max-width:84rem;margin:2rem auto;padding:0 1rem;line-height:1.4}}p,ul,ol,details,pre,h1,h2,h3,h4{{max-width:60rem}}table{{border-collapse:collapse;margin:1rem 0;display:block;max-width:100%;overflow-x:auto}}td,th{{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}}figure{{margin:1rem 0;overflow-x:auto}}pre{{background:#f4f4f4;padding:.5rem;overflow:auto}}</style></head>\n<body>\n{body}</body></html>\n"
    ))
}

/// `html` without its tags: a heading's words, for its id.
fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut inside = false;
    for c in html.chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            _ if !inside => out.push(c),
            _ => {}
        }
    }
    out
}

/// The measures of the game a run or study played, from its metadata (its rules and
/// seats where given, else the game's defaults).
fn game_measures(meta: &serde_json::Value) -> Option<Measures> {
    let info = crate::games::find(meta.get("game")?.as_str()?).ok()?;
    let rules = meta.get("rules").and_then(|r| r.as_str()).filter(|r| !r.trim().is_empty());
    let seats: Option<Vec<String>> = meta
        .get("seats")
        .and_then(|s| s.as_array())
        .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect());
    let built = (info.build)(rules, None, seats.as_deref()).or_else(|_| (info.build)(rules, None, None));
    let (runner, _) = built.or_else(|_| info.with_defaults()).ok()?;
    Some(runner.measures().clone())
}

/// The run's settings, from its metadata: a line of settings, its notes, the rules in force.
fn describe(m: &serde_json::Value) -> String {
    let mut text = String::new();
    let md = &mut text;
    let field = |k: &str| m.get(k).filter(|v| !v.is_null()).map(|v| v.to_string().trim_matches('"').to_string());
    let mut parts = Vec::new();
    // A training's own settings too: how its policy was made.
    let keys = [
        ("game", "game"),
        ("seed", "seed"),
        ("rounds", "rounds"),
        ("kind", "kind"),
        ("algorithm", "algorithm"),
        ("iterations", "iterations"),
        ("in batches of", "batch"),
        ("fallback", "fallback"),
        ("field share", "field_share"),
    ];
    for (label, key) in keys {
        if let Some(v) = field(key) {
            parts.push(format!("{label} {v}"));
        }
    }
    // A run plays whole deals, a shard its share of them, and `--until-ci` stops early: a
    // count other than the one asked for says which.
    if let (Some(asked), Some(played)) = (m["rounds_requested"].as_u64(), m["rounds"].as_u64())
        && asked != played
        && let Some(at) = parts.iter().position(|p| p.starts_with("rounds "))
    {
        parts[at] += &if !m["shard"].is_null() {
            format!(" (this shard's share of the {asked} asked)")
        } else if let Some(w) = m["until_ci"].as_str().filter(|_| played < asked) {
            format!(" (at most {asked} asked; --until-ci {w} stopped the run once every win rate was that close)")
        } else {
            format!(" ({asked} asked, rounded up to whole deals)")
        };
    }
    // A study records what each of its parts played as its opening line said it (a pair's,
    // a step's, a variant's whole deals): that, for the count asked.
    if let Some(played) = m["played"].as_str()
        && let Some(at) = parts.iter().position(|p| p.starts_with("rounds "))
    {
        parts[at] = format!("played {played}");
    }
    let list = |key: &str| -> Option<String> {
        let values = m.get(key)?.as_array()?;
        Some(values.iter().map(|s| s.as_str().unwrap_or("").to_string()).collect::<Vec<_>>().join(","))
    };
    // A comparison seats its strategies a pair at a time: name them all, not the first pair.
    if let Some(strategies) = list("strategies") {
        parts.push(format!("strategies {strategies}"));
    } else if let Some(seats) = list("seats") {
        parts.push(format!("seats {seats}"));
    }
    // A training's other players.
    if let Some(field) = list("field") {
        parts.push(format!("field {field}"));
    }
    // A versus's smallest effects that matter, as given (the rest are the defaults).
    let effects: Vec<String> = (m.get("min_effect").and_then(|e| e.as_array()).into_iter().flatten())
        .filter_map(|e| Some(format!("{}={}", e.get(0)?.as_str()?, e.get(1)?.as_f64()?)))
        .collect();
    if !effects.is_empty() {
        parts.push(format!("--min-effect {}", effects.join(" ")));
    }
    if let Some(cmd) = field("command") {
        parts.push(format!("command `{cmd}`"));
    }
    let _ = writeln!(md, "{}.\n", parts.join(" · "));
    if let (Some(i), Some(n)) = (m["shard"]["index"].as_u64(), m["shard"]["count"].as_u64()) {
        let _ = writeln!(
            md,
            "**Note:** shard {i}/{n} of the run: its figures are from its share of the deals only; `draftsim merge` every shard's folder for the whole run's.\n"
        );
    }
    for note in m.get("notes").and_then(|n| n.as_array()).into_iter().flatten() {
        let _ = writeln!(md, "**Note:** {}.\n", note.as_str().unwrap_or_default());
    }
    let rules = |key: &str| m.get(key).and_then(|r| r.as_str()).filter(|r| !r.trim().is_empty());
    // A versus holds two sides' rules.
    let sides = match rules("rules_b") {
        Some(b) => vec![(" under A", rules("rules")), (" under B", Some(b))],
        None => vec![("", rules("rules"))],
    };
    // A sweep's base holds one value of each swept key, which no variant need play.
    let swept: Vec<crate::study::sweep::Axis> = (m.get("set").and_then(|s| s.as_array()).into_iter().flatten())
        .filter_map(|s| crate::study::sweep::Axis::parse(s.as_str()?).ok())
        .collect();
    // And the keys a swept key brought along: each variant sets its own.
    let followed: Vec<(&str, &str)> = (m.get("followed").and_then(|s| s.as_array()).into_iter().flatten())
        .filter_map(|f| Some((f["key"].as_str()?, f["follows"].as_str()?)))
        .collect();
    for (side, text) in sides {
        if let Some(text) = text {
            let text = mark_swept(text, &swept, &followed);
            let _ =
                writeln!(md, "<details><summary>Rules in force{side}</summary>\n\n```toml\n{text}```\n</details>\n");
        }
    }
    text
}

/// Rules text with each swept key's line turned into a comment listing the values swept
/// (added at the top where the text does not set the key), so that the base's own value of
/// a swept key is not read as played; a key a swept key brought along (`followed`: the key,
/// the swept key) is turned into a comment saying so.
fn mark_swept(rules: &str, swept: &[crate::study::sweep::Axis], followed: &[(&str, &str)]) -> String {
    let line_for =
        |a: &crate::study::sweep::Axis| format!("# {} = {}: swept, one variant each", a.key, a.values.join(", "));
    let followed_line = |key: &str| {
        let (k, f) = followed.iter().find(|(k, _)| *k == key)?;
        Some(format!("# {k}: follows {f}, set in each variant"))
    };
    let mut marked = vec![false; swept.len()];
    let mut body = String::new();
    // Only the top-level keys are rules keys: a `[table]` header ends them.
    let mut top = true;
    for line in rules.lines() {
        let trimmed = line.trim_start();
        top &= !trimmed.starts_with('[');
        let key = trimmed.split_once('=').map(|(k, _)| k.trim());
        match swept.iter().position(|a| top && key == Some(a.key.as_str())) {
            Some(i) => {
                marked[i] = true;
                body += &line_for(&swept[i]);
            }
            None => match key.filter(|_| top).and_then(followed_line) {
                Some(said) => body += &said,
                None => body += line,
            },
        }
        body.push('\n');
    }
    let mut head: String = swept.iter().zip(&marked).filter(|(_, m)| !**m).map(|(a, _)| line_for(a) + "\n").collect();
    head += &body;
    head
}

/// A p-value for a reader: "< 0.001" below it.
fn p_value(p: f64) -> String {
    let text = crate::stats::p_text(p);
    if p < 0.001 { text } else { format!("= {text}") }
}

fn fmt4(v: f64) -> String {
    if v.is_nan() { "-".to_string() } else { crate::output::fixed(v, 4) }
}

/// An estimate in words: `mean [lo, hi]`, or where the interval says nothing (one unit,
/// or units all alike, as in a short `play`) the mean with why it has none.
fn estimate_text(mean: f64, lo: f64, hi: f64) -> String {
    if !(lo.is_finite() && hi.is_finite()) {
        format!("{} (no interval: too few units)", fmt4(mean))
    } else if lo == hi {
        format!("{} (no interval: every unit alike)", fmt4(mean))
    } else {
        format!("{} [{}, {}]", fmt4(mean), fmt4(lo), fmt4(hi))
    }
}

/// A chart's image link, its title as the alternative text, and the sentence under it,
/// marked so the page can leave it out past the chart cap.
fn image(md: &mut String, file: &str, title: &str, sentence: &str) {
    image_as(md, file, title, sentence, false);
}

/// As [`image`]; a `quiet` chart shows no difference beyond noise, and is kept only where
/// the chart budget has room after every other.
fn image_as(md: &mut String, file: &str, title: &str, sentence: &str, quiet: bool) {
    // A caption whose conclusion is empty (one strategy charted) starts at its method.
    let text = if quiet { page::quiet_chart_text } else { page::chart_text };
    md.push_str(&text(file, title, sentence.trim_start()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_of_one_name_are_told_apart_by_as_much_of_their_path_as_it_takes() {
        let dirs: Vec<PathBuf> = ["a/runs/x", "b/runs/x", "c/x/", "y", "./z", "."].iter().map(PathBuf::from).collect();
        assert_eq!(folder_names(&dirs), ["a/runs/x", "b/runs/x", "c/x", "y", "z", "."]);
        let dirs: Vec<PathBuf> = ["out/x", "out/deep/y", "x"].iter().map(PathBuf::from).collect();
        assert_eq!(folder_names(&dirs), ["out/x", "y", "x"]);
    }

    #[test]
    fn every_kind_of_study_has_its_section() {
        let tables: Vec<&str> = SECTIONS.iter().map(|(t, _)| *t).collect();
        assert_eq!(tables, kind::key_tables());
        assert_eq!(or_list(&["a", "b", "c"]), "a, b or c");
    }

    /// Bars exactly level at the top or the bottom are named together, not one of them.
    #[test]
    fn level_leaders_and_laggards_are_named_together() {
        let labels: Vec<String> = ["tight", "bluffer", "greedy", "random"].map(String::from).to_vec();
        let v = |mean: Vec<f64>| WithInterval {
            lo: mean.iter().map(|m| m - 0.01).collect(),
            hi: mean.iter().map(|m| m + 0.01).collect(),
            mean,
        };
        let said = leader_sentence(&labels, &v(vec![0.2, 0.0, 0.0, 0.0]), "fold rate", None);
        assert!(said.starts_with("`tight` (0.2000"), "{said}");
        assert!(said.ends_with(" `bluffer`, `greedy` and `random` share the lowest, 0.0000."), "{said}");
        let said = leader_sentence(&labels, &v(vec![0.3, 0.3, 0.1, 0.0]), "win rate", None);
        assert!(said.starts_with("`tight` and `bluffer` share the highest win rate, 0.3000."), "{said}");
        assert!(said.ends_with("`random` (0.0000 [-0.0100, 0.0100]) has the lowest."), "{said}");
    }

    /// A sweep's rules in force show each swept key's values where the base's value stood,
    /// not the base's value; a key the base leaves unset is listed at the top; a nested
    /// table's key of the same name is not a rules key.
    /// Column names read as words; a preset's path keeps the spelling it is typed with.
    #[test]
    fn columns_read_as_words_and_paths_as_typed() {
        assert_eq!(super::words("fold_rate_r2"), "fold rate in round 2");
        assert_eq!(super::words("seat_advantage"), "seat advantage");
        assert_eq!(super::words("tight.bet.fold_below[0]"), "tight.bet.fold_below[0]");
    }

    #[test]
    fn a_sweeps_rules_show_the_swept_values_not_the_base() {
        let axes = ["raise_cap=1,2,3", "players=2,4"].map(|a| crate::study::sweep::Axis::parse(a).unwrap());
        let text = mark_swept("ante = 1\nraise_cap = 2\n\n[deck]\nraise_cap = 9\n", &axes, &[]);
        assert_eq!(
            text,
            "# players = 2, 4: swept, one variant each\nante = 1\n# raise_cap = 1, 2, 3: swept, one variant each\n\n[deck]\nraise_cap = 9\n"
        );
        assert!(toml::from_str::<toml::Table>(&text).is_ok());
        let m = serde_json::json!({"kind": "sweep", "set": ["raise_cap=1,3"], "rules": "raise_cap = 2\n"});
        let shown = describe(&m);
        assert!(shown.contains("# raise_cap = 1, 3: swept") && !shown.contains("raise_cap = 2"), "{shown}");
        // A key the swept key brought along shows as such, not at the base's value.
        let m = serde_json::json!({"kind": "sweep", "set": ["pack_size=5,7"], "rules": "pack_size = 7\nbet_after_picks = [2, 4, 7]\n",
            "followed": [{"key": "bet_after_picks", "follows": "pack_size"}]});
        let shown = describe(&m);
        assert!(
            shown.contains("# bet_after_picks: follows pack_size, set in each variant") && !shown.contains("[2, 4, 7]"),
            "{shown}"
        );
    }

    /// A notes heading named as a section takes the plain anchor: the contents link the
    /// section's own, on the page and in the Markdown alike.
    #[test]
    fn the_contents_link_a_section_and_not_a_notes_heading_of_its_name() {
        let mut page = Page::default();
        page.begin("a", "a".into(), String::new());
        page.at(Question::WhoWins).push_str("The section's own text.\n");
        let notes = "# Mine\n\n## Who wins?\n\nThe notes' text.\n\n# Findings\n\nMore.\n";
        let (md, _) = page.assemble(None, Some(notes), false, &|_| None);
        assert!(md.contains("- [Who wins?](#who-wins-1)\n") && md.contains("- [Findings](#findings)\n"), "{md}");
        let html = html(&md, Path::new(".")).unwrap();
        let section = html.find("<h2 id=\"who-wins-1\">Who wins?</h2>").expect(&html);
        assert!(html[section..].contains("The section's own text."), "{html}");
        assert!(!html[section..].contains("The notes' text."), "{html}");
    }

    /// A long derived preset's name in a table may break after each setting; prose and
    /// short names are left whole.
    #[test]
    fn a_long_name_in_a_table_may_break_after_its_settings() {
        let name = "search{rollout=tight;opponents=rollout;worlds=16}";
        let md = format!("# t\n\n| strategy | x |\n|---|---|\n| **{name}** | 1 |\n| a;b | 2 |\n\nProse {name}.\n");
        let page = html(&md, Path::new(".")).unwrap();
        assert!(page.contains("search{rollout=tight;<wbr>opponents=rollout;<wbr>worlds=16}"), "{page}");
        assert!(page.contains("<td>a;b</td>") && page.contains(&format!("Prose {name}.")), "{page}");
        // The dash's joiners stay out of a heading's id.
        let page = html("# t\n\n## Seats 1–2\n", Path::new(".")).unwrap();
        assert!(page.contains(&format!("<h2 id=\"{}\">", page::slug("Seats 1–2"))), "{page}");
        // Lower headings have ids too, a code span's words in them; another report's notes
        // are linked on its page, its anchor kept; other links are left as they are.
        let md = "# t\n\n### Speed of `cfr`\n\n[a](../x/notes.md#y) [b](#speed-of-cfr) [c](notes.md) [d](../x/data/notes.md.csv)\n";
        let page = html(md, Path::new(".")).unwrap();
        assert!(page.contains("<h3 id=\"speed-of-cfr\">Speed of <code>cfr</code></h3>"), "{page}");
        let twice = html("# t\n\n## Findings\n\n### Findings\n\n#### Findings\n", Path::new(".")).unwrap();
        for id in ["\"findings\"", "\"findings-1\"", "\"findings-2\""] {
            assert_eq!(twice.matches(&format!("id={id}")).count(), 1, "{twice}");
        }
        assert!(page.contains("href=\"../x/report.html#y\"") && page.contains("href=\"#speed-of-cfr\""), "{page}");
        assert!(page.contains("href=\"notes.md\"") && page.contains("href=\"../x/data/notes.md.csv\""), "{page}");
    }
}
