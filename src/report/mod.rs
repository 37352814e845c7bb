//! Balance reports: `report.md` with SVG charts, read back from run, compare or sweep
//! tables (CSV or Parquet) with polars doing the aggregation.

mod charts;

use std::fmt::Write;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::error::{Error, InputError};
use crate::output::{OutputDir, read_frame};
use crate::sim::{Measures, Shown};
use crate::stats::Estimate;
use crate::study::tune::{Constraint, Verdict};

fn table_error(name: &str, e: impl std::fmt::Display) -> Error {
    Error::Table { name: name.to_string(), message: e.to_string() }
}

/// The table `name` of a folder, in whichever format it was written.
fn find_table(dir: &Path, name: &str) -> Option<PathBuf> {
    ["parquet", "csv"].iter().map(|ext| dir.join(format!("{name}.{ext}"))).find(|p| p.exists())
}

fn load(dir: &Path, name: &str) -> Result<Option<DataFrame>, Error> {
    find_table(dir, name).map(|p| read_frame(&p)).transpose()
}

/// A column as floats (nulls and missing columns as NaN).
fn floats(df: &DataFrame, name: &str) -> Result<Vec<f64>, Error> {
    let col = df.column(name).map_err(|e| table_error(name, e))?;
    let cast = col.cast(&DataType::Float64).map_err(|e| table_error(name, e))?;
    let ca = cast.f64().map_err(|e| table_error(name, e))?;
    Ok((0..ca.len()).map(|i| ca.get(i).unwrap_or(f64::NAN)).collect())
}

/// A column as text.
fn texts(df: &DataFrame, name: &str) -> Result<Vec<String>, Error> {
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
/// round 2").
fn words(column: &str) -> String {
    let text = column.replace('_', " ");
    match text.rsplit_once(" r") {
        Some((head, n)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => format!("{head} in round {n}"),
        _ => text,
    }
}

/// The text with its first letter capitalised, to open a title.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
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

/// Writes `report.md` and its charts for these result folders; returns the Markdown.
/// `notes` (Markdown) go right under the title, for the findings a person wrote.
pub fn write_report(
    dirs: &[PathBuf],
    out: &OutputDir,
    regenerate: Option<&str>,
    notes: Option<&str>,
    requires: &[Constraint],
) -> Result<String, Error> {
    let mut md = String::new();
    // One palette for the whole report: a strategy keeps its colour in every chart.
    let palette = charts::Palette::default();
    let _ = writeln!(md, "# draftsim balance report\n");
    if let Some(cmd) = regenerate {
        let _ = writeln!(md, "Regenerate with:\n\n```sh\n{cmd}\n```\n");
    }
    if let Some(text) = notes {
        let _ = writeln!(md, "{}\n", text.trim_end());
    }
    let ladders = ladder_depths(dirs)?;
    for (i, dir) in dirs.iter().enumerate() {
        let prefix = format!("{}-", i + 1);
        let name = dir.file_name().map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into_owned());
        let meta = std::fs::read_to_string(dir.join("run.json"))
            .or_else(|_| std::fs::read_to_string(dir.join("study.json")))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
        let _ = writeln!(md, "## {name}\n");
        if let Some(m) = &meta {
            describe(&mut md, m);
        }
        let measures = meta.as_ref().and_then(game_measures);
        // The limits given to the report, then those the study kept (sweep --require).
        let mut requires = requires.to_vec();
        for text in meta.as_ref().and_then(|m| m["require"].as_array()).into_iter().flatten() {
            let c = Constraint::parse(text.as_str().unwrap_or_default())?;
            if !requires.contains(&c) {
                requires.push(c);
            }
        }
        let requires = &requires[..];
        let mut found = false;
        // The health card first: does the variant finish, how long, is it even.
        if let Some(health) = load(dir, "health")? {
            // The skill depth of the same game and rules, when a ladder of them is reported too.
            let same = |m: &serde_json::Value, l: &SkillDepth| m["game"] == l.game && m["rules"] == l.rules;
            let depth = meta.as_ref().and_then(|m| ladders.iter().find(|l| same(m, l)));
            health_section(&mut md, &health, requires, depth)?;
        }
        if let Some(table) = load(dir, "sensitivity")? {
            found = true;
            sensitivity_section(&mut md, &table, out, &prefix)?;
        }
        if let Some(summary) = load(dir, "summary")? {
            found = true;
            let measures = measures.as_ref().ok_or_else(|| {
                InputError::new(format!("{}: run.json is missing or names no known game", dir.display()))
            })?;
            run_section(&mut md, (dir, &summary), out, &prefix, measures, &palette)?;
            if let Some(cards) = load(dir, "cards")? {
                // The unit's first word ("match (one game)" is a match), for "in N matches".
                let unit = measures.unit.split_whitespace().next().unwrap_or("round");
                cards_section(&mut md, &cards, out, &prefix, unit, &palette)?;
            }
        }
        if let Some(matrix) = load(dir, "matrix")? {
            found = true;
            compare_section(&mut md, (dir, &matrix), out, &prefix, measures.as_ref(), &palette)?;
        }
        if let Some(sweep) = load(dir, "sweep")? {
            found = true;
            sweep_section(&mut md, &sweep, out, &prefix, measures.as_ref(), &palette, requires)?;
        }
        if let Some(candidates) = load(dir, "candidates")? {
            found = true;
            search_section(&mut md, dir, &candidates, meta.as_ref(), out, &prefix)?;
        }
        if let Some(calibration) = load(dir, "calibration")? {
            found = true;
            calibration_section(&mut md, &calibration)?;
        }
        if let Some(ladder) = load(dir, "ladder")? {
            found = true;
            ladder_section(&mut md, &ladder, out, &prefix)?;
        }
        if !found {
            return Err(InputError::new(format!(
                "{}: no summary, matrix, sweep, candidates, calibration, ladder or sensitivity table here; give folders written by run, compare, sweep, tune, exploit, calibrate, ladder or sensitivity --out",
                dir.display()
            ))
            .into());
        }
    }
    out.write_text("report.md", &md)?;
    out.write_text("report.html", &html(&md, out.path())?)?;
    Ok(md)
}

/// The health card: each figure with its interval, a warning when caps fire in more than
/// 1% of units, and every `--require` limit an interval crosses.
fn health_section(
    md: &mut String,
    health: &DataFrame,
    requires: &[Constraint],
    depth: Option<&SkillDepth>,
) -> Result<(), Error> {
    let mut names = texts(health, "figure")?;
    let mut v = with_interval(health, "value")?;
    let mut descriptions = texts(health, "description")?;
    if let Some(d) = depth {
        // A count of ladder steps, exact for the ladder played: no interval of its own (each
        // step's win share has one, in the ladder's section).
        names.push("skill_depth".into());
        for column in [&mut v.mean, &mut v.lo, &mut v.hi] {
            column.push(d.depth as f64);
        }
        descriptions.push(format!(
            "steps up the search ladder that still win the score, of {} (more search wins up to {} iterations; ladder in {})",
            d.steps, d.deepest, d.folder
        ));
    }
    let _ = writeln!(md, "### Health\n");
    let _ = writeln!(md, "| figure | value | 95% interval | meaning |\n|---|---:|---|---|");
    for i in 0..names.len() {
        let (value, interval) = if names[i] == "skill_depth" {
            (format!("{:.0}", v.mean[i]), "–".to_string())
        } else {
            (fmt4(v.mean[i]), format!("{} – {}", fmt4(v.lo[i]), fmt4(v.hi[i])))
        };
        let _ = writeln!(md, "| {} | {value} | {interval} | {} |", names[i], descriptions[i]);
    }
    let _ = writeln!(md);
    let at = |name: &str| names.iter().position(|n| n == name);
    if let Some(i) = at("timeouts")
        && v.mean[i] > 0.01
    {
        let _ = writeln!(
            md,
            "**Caps fire**: {:.1}% of units end at a cap (turns or rounds). A safety net that fires this often is a defect of the variant or of the bots: the figures below describe games that did not finish by the rules.\n",
            100.0 * v.mean[i]
        );
    }
    for c in requires {
        let Some(i) = at(&c.metric) else {
            let _ = writeln!(md, "**Not checked**: `{}` is not a figure of this health card.\n", c.metric);
            continue;
        };
        let e = Estimate { mean: v.mean[i], lo: v.lo[i], hi: v.hi[i] };
        let sign = if c.at_least { ">=" } else { "<=" };
        match c.verdict(&e) {
            Verdict::Met => {
                let _ = writeln!(
                    md,
                    "Limit met: {} {sign} {} (interval {} – {}).\n",
                    names[i],
                    c.bound,
                    fmt4(e.lo),
                    fmt4(e.hi)
                );
            }
            verdict => {
                let _ = writeln!(
                    md,
                    "**Limit {}**: {} should be {sign} {}, and is {} ({} – {}).\n",
                    verdict.words(),
                    names[i],
                    c.bound,
                    fmt4(e.mean),
                    fmt4(e.lo),
                    fmt4(e.hi)
                );
            }
        }
    }
    Ok(())
}

/// A ladder's skill depth, for the health card of a run of the same game and rules.
struct SkillDepth {
    game: serde_json::Value,
    rules: serde_json::Value,
    depth: i64,
    steps: i64,
    deepest: i64,
    folder: String,
}

/// The skill depth of every ladder folder among `dirs`.
fn ladder_depths(dirs: &[PathBuf]) -> Result<Vec<SkillDepth>, Error> {
    let mut out = Vec::new();
    for dir in dirs {
        let meta = std::fs::read_to_string(dir.join("study.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .filter(|m| m["kind"] == "ladder");
        let (Some(meta), Some(ladder)) = (meta, load(dir, "ladder")?) else { continue };
        // Judged by the score from the ladder itself (a skill_depth table written before
        // the depth was judged by the score counted units won).
        let (depth, _) = depth_by_score(&ladder)?;
        let (budget, opponent) = (floats(&ladder, "budget")?, floats(&ladder, "opponent_budget")?);
        let deepest = if depth == 0 { opponent.first().copied() } else { budget.get(depth - 1).copied() };
        out.push(SkillDepth {
            game: meta["game"].clone(),
            rules: meta["rules"].clone(),
            depth: depth as i64,
            steps: budget.len() as i64,
            deepest: deepest.unwrap_or(f64::NAN) as i64,
            folder: dir.file_name().map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into_owned()),
        });
    }
    Ok(out)
}

/// A sweep's limits: for each `--require` (given to the report or kept by the sweep), the
/// variants whose interval crosses it, or that every variant meets it.
fn sweep_limits(
    md: &mut String,
    variants: &DataFrame,
    keys: &[String],
    variant_keys: &[Vec<String>],
    requires: &[Constraint],
) -> Result<(), Error> {
    if requires.is_empty() {
        return Ok(());
    }
    let _ = writeln!(md, "**Limits**\n");
    for c in requires {
        let Ok(e) = with_interval(variants, &c.metric) else {
            let _ = writeln!(md, "- `{}`: not checked, `{}` is not a column of this sweep.", c.text(), c.metric);
            continue;
        };
        let mut missed = Vec::new();
        for row in 0..variants.height() {
            let setting: Vec<String> = keys.iter().zip(variant_keys).map(|(k, v)| format!("{k}={}", v[row])).collect();
            if e.mean[row].is_nan() {
                missed.push(format!("{} not measured", setting.join(" ")));
                continue;
            }
            let verdict = c.verdict(&Estimate { mean: e.mean[row], lo: e.lo[row], hi: e.hi[row] });
            if verdict != Verdict::Met {
                missed.push(format!(
                    "{} {} ({} – {})",
                    setting.join(" "),
                    verdict.words().split(" (").next().unwrap_or_default(),
                    fmt4(e.lo[row]),
                    fmt4(e.hi[row])
                ));
            }
        }
        if missed.is_empty() {
            let _ = writeln!(md, "- `{}`: met in every variant (each interval inside the limit).", c.text());
        } else {
            let _ = writeln!(
                md,
                "- `{}`: met in {} of {} variants; not surely met in: {}.",
                c.text(),
                variants.height() - missed.len(),
                variants.height(),
                missed.join("; ")
            );
        }
    }
    let _ = writeln!(md);
    Ok(())
}

/// A sensitivity study: for each figure some deviation moves significantly, a tornado
/// chart of the deviations' effects (largest first, with intervals), and the list of
/// significant deviations.
fn sensitivity_section(md: &mut String, table: &DataFrame, out: &OutputDir, prefix: &str) -> Result<(), Error> {
    let keys = texts(table, "key")?;
    let values = texts(table, "value")?;
    let figures = texts(table, "figure")?;
    let effect = with_interval(table, "effect")?;
    let base = floats(table, "base")?;
    let holm = floats(table, "p_holm")?;
    let significant: Vec<usize> = (0..keys.len()).filter(|&i| holm[i] < 0.05).collect();
    let _ = writeln!(md, "### One-step sensitivity\n");
    // Deviations no seated strategy used (older tables have no such column: all used).
    let exercised = floats(table, "exercised").unwrap_or_else(|_| vec![1.0; keys.len()]);
    let mut unexercised: Vec<String> = Vec::new();
    for i in (0..keys.len()).filter(|&i| exercised[i] == 0.0) {
        let label = format!("`{}={}`", keys[i], values[i]);
        if !unexercised.contains(&label) {
            unexercised.push(label);
        }
    }
    if !unexercised.is_empty() {
        let _ = writeln!(
            md,
            "Unexercised: {}. No seated strategy did anything these change, so their rows say nothing of the rule (not \"no effect\").\n",
            unexercised.join(", ")
        );
    }
    if significant.is_empty() {
        let _ = writeln!(
            md,
            "No one-step deviation moves any figure significantly (Holm-corrected, 5%): the variant is robust to every single change tried.\n"
        );
        return Ok(());
    }
    // A chart per health figure (the seat figures and the skill gap too) that some
    // deviation moves; balance mirrors the seat advantage, so only the latter gets one. The
    // game's own measures are in the table below.
    let charted = |f: &str| {
        ["skill_gap", "seat_advantage", "first_seat_edge"].contains(&f)
            || crate::sim::RATIO_FIGURES.iter().any(|r| r.name == f)
    };
    let mut moved: Vec<String> = Vec::new();
    for &i in &significant {
        if charted(&figures[i]) && !moved.contains(&figures[i]) {
            moved.push(figures[i].clone());
        }
    }
    for (n, figure) in moved.iter().enumerate() {
        let mut rows: Vec<usize> = (0..keys.len()).filter(|&i| figures[i] == *figure).collect();
        rows.sort_by(|&a, &b| effect.mean[b].abs().total_cmp(&effect.mean[a].abs()));
        rows.truncate(12);
        let labels: Vec<String> = rows.iter().map(|&i| format!("{}={}", keys[i], values[i])).collect();
        let v = WithInterval {
            mean: rows.iter().map(|&i| effect.mean[i]).collect(),
            lo: rows.iter().map(|&i| effect.lo[i]).collect(),
            hi: rows.iter().map(|&i| effect.hi[i]).collect(),
        };
        let colours: Vec<charts::Colour> =
            rows.iter().map(|&i| if holm[i] < 0.05 { charts::sequence(0, 3) } else { charts::NEUTRAL }).collect();
        let file = format!("{prefix}sensitivity-{}.svg", n + 1);
        let title = format!("Effect of each one-step change on {figure}");
        let axes = charts::Axes { title: &title, x: "", y: "change from the base", labels: &labels };
        whisker_chart(out, &file, &axes, &v, &colours, true)?;
        let top = rows[0];
        let sentence = format!(
            "{} (base {}) moves most under {}={}: by {} ({} – {}). Coloured bars are significant after the Holm correction; grey ones may be noise.",
            capitalised(&words(figure)),
            fmt4(base[top]),
            keys[top],
            values[top],
            fmt4(effect.mean[top]),
            fmt4(effect.lo[top]),
            fmt4(effect.hi[top])
        );
        image(md, &file, &title, &sentence);
    }
    let _ = writeln!(md, "| change | figure | base | effect | 95% interval | Holm p |\n|---|---|---:|---:|---|---:|");
    for &i in significant.iter().take(30) {
        let _ = writeln!(
            md,
            "| {}={} | {} | {} | {} | {} – {} | {:.2e} |",
            keys[i],
            values[i],
            figures[i],
            fmt4(base[i]),
            fmt4(effect.mean[i]),
            fmt4(effect.lo[i]),
            fmt4(effect.hi[i]),
            holm[i]
        );
    }
    let _ = writeln!(md);
    Ok(())
}

/// A ladder's skill depth, judged by the score: the steps from the first whose score
/// difference's lower bound is above zero; with the score column's name (the column after
/// the win share's).
fn depth_by_score(ladder: &DataFrame) -> Result<(usize, String), Error> {
    let diff = ladder.get_column_names().get(6).map(|c| c.to_string()).unwrap_or_default();
    let lo = floats(ladder, &format!("{diff}_lo"))?;
    Ok((lo.iter().take_while(|&&lo| lo > 0.0).count(), diff))
}

/// The skill ladder: each step's win share with its interval, charted against one half,
/// and the skill depth.
fn ladder_section(md: &mut String, ladder: &DataFrame, out: &OutputDir, prefix: &str) -> Result<(), Error> {
    let budget = floats(ladder, "budget")?;
    let opponent = floats(ladder, "opponent_budget")?;
    let share = with_interval(ladder, "win_share")?;
    let (depth, diff) = depth_by_score(ladder)?;
    let labels: Vec<String> = (0..budget.len()).map(|i| format!("{:.0} v {:.0}", budget[i], opponent[i])).collect();
    let file = format!("{prefix}ladder.svg");
    let title = "Win share of the search bot against itself at the budget before";
    let axes = charts::Axes {
        title,
        x: "iterations per decision (step)",
        y: "win share of the larger budget",
        labels: &labels,
    };
    let series = [
        charts::Series {
            name: "larger budget".into(),
            colour: charts::NEUTRAL,
            values: share.mean.clone(),
            band: Some((share.lo.clone(), share.hi.clone())),
        },
        charts::Series {
            name: "even".into(),
            colour: charts::sequence(1, 3),
            values: vec![0.5; budget.len()],
            band: None,
        },
    ];
    charts::lines(&out.path().join(&file), &axes, &series)?;
    let sentence = match depth {
        0 => "The first step up does not win the score reliably: at these budgets more search does not pay, so skill (as search measures it) hardly matters in this variant.".to_string(),
        d if d == budget.len() => format!("Every one of the {d} steps still wins (skill depth {d}): skill keeps paying at every budget tried; try larger budgets to see where it stops."),
        d => format!("Skill depth {d}: more search keeps winning up to {:.0} iterations, then a step no longer wins reliably; the variant rewards skill up to about there.", budget[d - 1]),
    };
    image(md, &file, title, &sentence);
    let _ = writeln!(md, "| budget | against | win share | 95% interval |\n|---:|---:|---:|---|");
    for i in 0..budget.len() {
        let _ = writeln!(
            md,
            "| {:.0} | {:.0} | {} | {} – {} |",
            budget[i],
            opponent[i],
            fmt4(share.mean[i]),
            fmt4(share.lo[i]),
            fmt4(share.hi[i])
        );
    }
    let by_wins = share.lo.iter().take_while(|&&lo| lo > 0.5).count();
    let _ = writeln!(
        md,
        "\nSkill depth: **{depth}** of {} steps, judged by the score ({diff} lower bound above 0); by units won alone, {by_wins}.\n",
        budget.len()
    );
    Ok(())
}

/// The strength estimate's calibration: for each pick and bin of the estimate with enough
/// estimates, the mean estimate beside the mean finished percentile, and the largest gap.
fn calibration_section(md: &mut String, cal: &DataFrame) -> Result<(), Error> {
    let pick = floats(cal, "after_pick")?;
    let n = floats(cal, "estimates")?;
    let (lo, hi) = (floats(cal, "bin_low")?, floats(cal, "bin_high")?);
    let est = floats(cal, "mean_estimate")?;
    let fin = with_interval(cal, "mean_finished")?;
    let rows: Vec<usize> = (0..pick.len()).filter(|&i| n[i] >= 200.0).collect();
    let gap = |i: usize| (est[i] - fin.mean[i]).abs();
    let worst = rows.iter().map(|&i| gap(i)).fold(0.0, f64::max);
    // The bins that hold most estimates say how far a typical decision is off.
    let per_pick = |p: f64| (0..pick.len()).filter(|&i| pick[i] == p).map(|i| n[i]).sum::<f64>();
    let common: Vec<usize> = rows.iter().copied().filter(|&i| n[i] >= 0.01 * per_pick(pick[i])).collect();
    let worst_common = common.iter().map(|&i| gap(i)).fold(0.0, f64::max);
    let later = common.iter().filter(|&&i| pick[i] > 1.0).map(|&i| gap(i)).fold(0.0, f64::max);
    let _ = writeln!(
        md,
        "How well does the strength estimate predict? After every pick, each seat's estimate of its finished hand's percentile (bins of a tenth) against the percentile the hand reached, every seat drafting with the same module and nobody folding; bins with at least 200 estimates. Among the bins holding at least 1% of a pick's estimates the largest gap between the mean estimate and the mean finished percentile is {worst_common:.3} ({later:.3} from pick 2 on); over every bin shown, {worst:.3}. A gap of a few hundredths means the bots' fold and raise thresholds mean what they say.\n"
    );
    let _ = writeln!(
        md,
        "| after pick | estimate bin | estimates | mean estimate | mean finished | 95% interval |\n|---:|---|---:|---:|---:|---|"
    );
    for &i in &rows {
        let _ = writeln!(
            md,
            "| {:.0} | {:.1} – {:.1} | {:.0} | {} | {} | {} – {} |",
            pick[i],
            lo[i],
            hi[i],
            n[i],
            fmt4(est[i]),
            fmt4(fin.mean[i]),
            fmt4(fin.lo[i]),
            fmt4(fin.hi[i])
        );
    }
    md.push('\n');
    Ok(())
}

/// The report as one self-contained HTML page: the Markdown rendered (pulldown-cmark),
/// each chart's SVG inlined in place of its image link.
fn html(md: &str, dir: &Path) -> Result<String, Error> {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let mut events = Vec::new();
    let mut in_image = false;
    for event in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Image { dest_url, .. }) => {
                let path = dir.join(dest_url.as_ref());
                let svg = std::fs::read_to_string(&path)
                    .map_err(|e| Error::Io { path: path.display().to_string(), source: e })?;
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
            other => events.push(other),
        }
    }
    let mut body = String::new();
    pulldown_cmark::html::push_html(&mut body, events.into_iter());
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>draftsim balance report</title>\n<style>body{{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.4}}table{{border-collapse:collapse;margin:1rem 0}}td,th{{border:1px solid #ccc;padding:.2rem .5rem}}td{{text-align:right}}td:first-child{{text-align:left}}figure{{margin:1rem 0}}svg{{max-width:100%;height:auto}}pre{{background:#f4f4f4;padding:.5rem;overflow:auto}}</style></head>\n<body>\n{body}</body></html>\n"
    ))
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

/// The run's settings, from its metadata.
fn describe(md: &mut String, m: &serde_json::Value) {
    let field = |k: &str| m.get(k).map(|v| v.to_string().trim_matches('"').to_string());
    let mut parts = Vec::new();
    for (label, key) in [("game", "game"), ("seed", "seed"), ("rounds", "rounds"), ("kind", "kind")] {
        if let Some(v) = field(key) {
            parts.push(format!("{label} {v}"));
        }
    }
    if let Some(seats) = m.get("seats").and_then(|s| s.as_array()) {
        let names: Vec<String> = seats.iter().map(|s| s.as_str().unwrap_or("").to_string()).collect();
        parts.push(format!("seats {}", names.join(",")));
    }
    if let Some(cmd) = field("command") {
        parts.push(format!("command `{cmd}`"));
    }
    let _ = writeln!(md, "{}.\n", parts.join(" · "));
    for note in m.get("notes").and_then(|n| n.as_array()).into_iter().flatten() {
        let _ = writeln!(md, "**Note:** {}.\n", note.as_str().unwrap_or_default());
    }
    if let Some(rules) = m.get("rules").and_then(|r| r.as_str()).filter(|r| !r.trim().is_empty()) {
        let _ = writeln!(md, "<details><summary>Rules in force</summary>\n\n```toml\n{}```\n</details>\n", rules);
    }
}

/// A p-value for a reader: "< 0.001" below it.
fn p_value(p: f64) -> String {
    if p < 0.001 { "< 0.001".to_string() } else { format!("= {p:.3}") }
}

fn fmt4(v: f64) -> String {
    if v.is_nan() { "-".to_string() } else { format!("{v:.4}") }
}

/// A chart's image link, its title as the alternative text, and the sentence under it.
fn image(md: &mut String, file: &str, title: &str, sentence: &str) {
    let alt = title.replace('[', "(").replace(']', ")");
    let _ = writeln!(md, "![{alt}]({file})\n\n{sentence}\n");
}

fn run_section(
    md: &mut String,
    (dir, summary): (&Path, &DataFrame),
    out: &OutputDir,
    prefix: &str,
    measures: &Measures,
    palette: &charts::Palette,
) -> Result<(), Error> {
    let strategies = texts(summary, "strategy")?;
    let colours = strategy_colours(palette, &strategies);
    let rounds = floats(summary, "rounds")?;
    let win = with_interval(summary, "win_rate")?;
    let (wr, lo, hi) = (&win.mean, &win.lo, &win.hi);
    let score_column = &measures.score.column;
    let score = with_interval(summary, score_column)?;
    let (sc, slo, shi) = (&score.mean, &score.lo, &score.hi);
    let unit = &measures.unit;
    let units = measures.units();

    let file = format!("{prefix}win-share.svg");
    let title = "Win share by strategy";
    let y = format!("win share per {unit}");
    let axes = charts::Axes { title, x: "", y: &y, labels: &strategies };
    whisker_chart(out, &file, &axes, &win, &colours, true)?;
    let n = rounds.iter().copied().fold(0.0, f64::max);
    image(
        md,
        &file,
        title,
        &format!(
            "Share of the wins each strategy took per {unit}, with 95% intervals over deal groups (all seatings of a deal are one observation; over units where the groups are too few or all alike); {n:.0} seat-{units} per strategy."
        ),
    );

    let _ = writeln!(
        md,
        "| strategy | {units} | win rate | 95% interval | {} | 95% interval |\n|---|---:|---:|---|---:|---|",
        score_column.replace('_', " ")
    );
    for i in 0..strategies.len() {
        let _ = writeln!(
            md,
            "| {} | {:.0} | {} | {} – {} | {} | {} – {} |",
            strategies[i],
            rounds[i],
            fmt4(wr[i]),
            fmt4(lo[i]),
            fmt4(hi[i]),
            fmt4(sc[i]),
            fmt4(slo[i]),
            fmt4(shi[i]),
        );
    }
    md.push('\n');

    if let Some(seats) = load(dir, "seats")? {
        let labels: Vec<String> = texts(&seats, "seat")?.iter().map(|s| format!("seat {s}")).collect();
        let seat_win = with_interval(&seats, "win_rate")?;
        let file = format!("{prefix}seat-advantage.svg");
        let title = "Win share by seat";
        let axes = charts::Axes { title, x: "", y: &y, labels: &labels };
        whisker_chart(out, &file, &axes, &seat_win, &[], true)?;
        let srounds = floats(&seats, "rounds")?.first().copied().unwrap_or(0.0);
        // The test of equal seats from the health card: a gap between the best and the
        // worst seat is there even for equal seats.
        let p = match load(dir, "health")? {
            Some(h) => {
                let names = texts(&h, "figure")?;
                let values = floats(&h, "value")?;
                names.iter().position(|n| n == "seats_equal_p").map_or(f64::NAN, |i| values[i])
            }
            None => f64::NAN,
        };
        let verdict = if p.is_nan() {
            String::new()
        } else if p < 0.05 {
            format!(" The seats differ beyond noise (test of equal seats: p {}).", p_value(p))
        } else {
            format!(" No seat differs beyond noise (test of equal seats: p {}).", p_value(p))
        };
        image(
            md,
            &file,
            title,
            &format!(
                "Share of the wins taken from each seat, with 95% intervals; {srounds:.0} {units} per seat.{verdict}"
            ),
        );
    }

    let fold_cols: Vec<String> =
        summary.get_column_names().iter().map(|c| c.to_string()).filter(|c| c.starts_with("fold_rate_r")).collect();
    if !fold_cols.is_empty() {
        let labels: Vec<String> = (1..=fold_cols.len()).map(|b| format!("round {b}")).collect();
        let series = strategies
            .iter()
            .enumerate()
            .map(|(i, s)| {
                Ok(charts::Series {
                    name: short_name(s),
                    colour: colours[i],
                    values: fold_cols
                        .iter()
                        .map(|c| floats(summary, c).map(|v| v[i]))
                        .collect::<Result<Vec<_>, Error>>()?,
                    band: None,
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let file = format!("{prefix}fold-rate.svg");
        let title = "Fold rate by betting round and strategy";
        let axes = charts::Axes { title, x: "betting round", y: "share of rounds folded", labels: &labels };
        charts::lines(&out.path().join(&file), &axes, &series)?;
        image(
            md,
            &file,
            title,
            &format!(
                "Share of each strategy's rounds folded in each betting round (fold timing); {n:.0} seat-rounds per strategy."
            ),
        );
    }

    if let Some(table) = load(dir, "measures")? {
        measures_section(md, &table, out, prefix, measures, palette)?;
    }
    for (name, histograms) in measures.histogram_tables() {
        if let Some(table) = load(dir, name)? {
            histogram_section(md, &table, out, &format!("{prefix}{name}"), &histograms)?;
        }
    }
    if let Some(pairs) = load(dir, "pairs")?.filter(|p| p.height() > 0) {
        let (a, b) = (texts(&pairs, "strategy_a")?, texts(&pairs, "strategy_b")?);
        let diff = with_interval(&pairs, &measures.score.pair_column)?;
        let (d, dlo, dhi) = (&diff.mean, &diff.lo, &diff.hi);
        let _ = writeln!(
            md,
            "Paired differences in {} (same deals, seatings balanced):\n\n| a | b | a minus b | 95% interval |\n|---|---|---:|---|",
            score_column.replace('_', " ")
        );
        for i in 0..a.len() {
            let _ = writeln!(md, "| {} | {} | {} | {} – {} |", a[i], b[i], fmt4(d[i]), fmt4(dlo[i]), fmt4(dhi[i]));
        }
        md.push('\n');
    }
    if let Some(picks) = load(dir, "picks")? {
        let hate = floats(&picks, "hate_picks")?;
        if hate.iter().any(|&h| h > 0.0) {
            let names = texts(&picks, "strategy")?;
            let (rate, with, without) = (
                floats(&picks, "hate_pick_rate")?,
                floats(&picks, "chips_per_round_with_hate")?,
                floats(&picks, "chips_per_round_without_hate")?,
            );
            let _ = writeln!(
                md,
                "Hate picks (picks that were not the best card for the bot itself):\n\n| strategy | hate-pick rate | chips per round, rounds with a hate pick | without |\n|---|---:|---:|---:|"
            );
            for i in 0..names.len() {
                let _ = writeln!(md, "| {} | {} | {} | {} |", names[i], fmt4(rate[i]), fmt4(with[i]), fmt4(without[i]));
            }
            md.push('\n');
        }
    }
    Ok(())
}

/// One chart per declared measure shown in the wide tables, by strategy, with its 95%
/// interval, read from the `measures` table (no code per game).
fn measures_section(
    md: &mut String,
    table: &DataFrame,
    out: &OutputDir,
    prefix: &str,
    measures: &Measures,
    palette: &charts::Palette,
) -> Result<(), Error> {
    let (by, group, measure) = (texts(table, "by")?, texts(table, "group")?, texts(table, "measure")?);
    let value = with_interval(table, "value")?;
    let n = floats(table, "n")?;
    for m in measures.measures.iter().filter(|m| m.shown != Shown::Hidden && !m.column.starts_with("fold_rate_r")) {
        let rows: Vec<usize> = (0..by.len()).filter(|&i| by[i] == "strategy" && measure[i] == m.column).collect();
        if rows.is_empty() || rows.iter().all(|&i| value.mean[i].is_nan() || value.mean[i] == 0.0) {
            continue;
        }
        let pick = |v: &[f64]| rows.iter().map(|&i| v[i]).collect::<Vec<f64>>();
        let labels: Vec<String> = rows.iter().map(|&i| group[i].clone()).collect();
        let v = WithInterval { mean: pick(&value.mean), lo: pick(&value.lo), hi: pick(&value.hi) };
        let file = format!("{prefix}{}.svg", m.column.replace('_', "-"));
        let title = format!("{} by strategy", capitalised(&words(&m.column)));
        let axes = charts::Axes { title: &title, x: "", y: &words(&m.column), labels: &labels };
        whisker_chart(out, &file, &axes, &v, &strategy_colours(palette, &labels), true)?;
        let most = pick(&n).into_iter().fold(0.0, f64::max);
        image(
            md,
            &file,
            &title,
            &format!(
                "{} ({}), by strategy, with 95% intervals over deal groups (all seatings of a deal are one observation; over units where the groups are too few or all alike); up to {most:.0} observations per strategy.",
                m.column.replace('_', " "),
                m.description
            ),
        );
    }
    if let Some(i) = (0..by.len()).find(|&i| by[i] == "run" && measure[i] == "mean_length")
        && value.mean[i] > 1.0
    {
        let _ = writeln!(
            md,
            "Mean {} length: {} {} (95% interval {} – {}).\n",
            measures.unit,
            fmt4(value.mean[i]),
            measures.length_counts(),
            fmt4(value.lo[i]),
            fmt4(value.hi[i])
        );
    }
    Ok(())
}

/// A histogram table's bins: each histogram's share of its observations per bin,
/// aggregated over strategies with polars, and for a ranked histogram the order its
/// rarity suggests against the declared one.
fn histogram_section(
    md: &mut String,
    table: &DataFrame,
    out: &OutputDir,
    prefix: &str,
    histograms: &[&crate::sim::Histogram],
) -> Result<(), Error> {
    let bin_column = histograms[0].bin_column.as_str();
    let agg = table
        .clone()
        .lazy()
        .group_by_stable([col(bin_column)])
        .agg(histograms.iter().map(|h| col(h.key.as_str()).sum()).collect::<Vec<_>>())
        .collect()
        .map_err(|e| table_error(&histograms[0].table, e))?;
    let names = texts(&agg, bin_column)?;
    let counts: Vec<Vec<f64>> = histograms.iter().map(|h| floats(&agg, &h.key)).collect::<Result<_, _>>()?;
    let totals: Vec<f64> = counts.iter().map(|c| c.iter().sum()).collect();
    if totals[0] == 0.0 {
        return Ok(());
    }
    let shares: Vec<Vec<f64>> = counts
        .iter()
        .zip(&totals)
        .map(|(c, &t)| c.iter().map(|v| if t > 0.0 { v / t } else { 0.0 }).collect())
        .collect();
    let file = format!("{prefix}.svg");
    let series: Vec<charts::Series> = histograms
        .iter()
        .zip(&shares)
        .enumerate()
        .map(|(k, (h, s))| charts::Series {
            name: words(&h.key),
            colour: charts::sequence(k, histograms.len()),
            values: s.clone(),
            band: None,
        })
        .collect();
    let keys: Vec<String> = histograms.iter().map(|h| words(&h.key)).collect();
    let title = format!("Share of {} by {}", keys.join(" and "), words(bin_column));
    let axes = charts::Axes { title: &title, x: &words(bin_column), y: "share", labels: &names };
    charts::grouped_bars(&out.path().join(&file), &axes, &series)?;
    let described: Vec<String> = histograms
        .iter()
        .zip(&totals)
        .map(|(h, t)| {
            format!(
                "{} by {} ({t:.0} in all: {})",
                h.key.replace('_', " "),
                bin_column.replace('_', " "),
                h.description
            )
        })
        .collect();
    image(md, &file, &title, &format!("Share of {}.", described.join("; and of ")));
    if !histograms[0].ranked {
        return Ok(());
    }
    let (finished, share_f) = (&counts[0], &shares[0]);
    let share_w = shares.get(1).cloned().unwrap_or_else(|| vec![f64::NAN; names.len()]);
    // Standard rank: the declared bin order, lowest first. Rarity rank: rarer ranks higher.
    let present: Vec<usize> = (0..names.len()).filter(|&i| finished[i] > 0.0).collect();
    let mut by_rarity = present.clone();
    by_rarity.sort_by(|&a, &b| finished[b].total_cmp(&finished[a]).then(a.cmp(&b)));
    let _ = writeln!(
        md,
        "Ranking by rarity against the standard ranking (1 = lowest hand):\n\n| {bin_column} | {} share | {} share | standard rank | rank by rarity | |\n|---|---:|---:|---:|---:|---|",
        histograms[0].key.replace('_', " "),
        histograms.get(1).map_or("-".to_string(), |h| h.key.replace('_', " "))
    );
    for (std_rank, &i) in present.iter().enumerate() {
        let rarity_rank = by_rarity.iter().position(|&x| x == i).expect("present") + 1;
        let flag = if rarity_rank != std_rank + 1 { "⚑ disagrees" } else { "" };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} |",
            names[i],
            fmt4(share_f[i]),
            fmt4(share_w[i]),
            std_rank + 1,
            rarity_rank,
            flag
        );
    }
    md.push('\n');
    Ok(())
}

fn compare_section(
    md: &mut String,
    (dir, matrix): (&Path, &DataFrame),
    out: &OutputDir,
    prefix: &str,
    measures: Option<&Measures>,
    palette: &charts::Palette,
) -> Result<(), Error> {
    let units = measures.map_or("rounds".to_string(), Measures::units);
    let rows = texts(matrix, "strategy")?;
    let cols = texts(matrix, "opponent")?;
    let (ws, lo, hi) = (floats(matrix, "win_share")?, floats(matrix, "win_share_lo")?, floats(matrix, "win_share_hi")?);
    let rounds = floats(matrix, "rounds")?.first().copied().unwrap_or(0.0);
    let names = distinct(&rows);
    let _ = writeln!(
        md,
        "Win share of the row strategy against the column strategy (0.5 = even), 95% interval; {rounds:.0} {units} per pair.\n"
    );
    let _ = writeln!(md, "| | {} |\n|---|{}", names.join(" | "), "---|".repeat(names.len()));
    for r in &names {
        let cells: Vec<String> = names
            .iter()
            .map(|c| match (0..rows.len()).find(|&i| &rows[i] == r && &cols[i] == c) {
                Some(i) => format!("{:.3} ({:.3}–{:.3})", ws[i], lo[i], hi[i]),
                None => "–".to_string(),
            })
            .collect();
        let _ = writeln!(md, "| **{r}** | {} |", cells.join(" | "));
    }
    md.push('\n');
    let shares: Vec<Vec<f64>> = names
        .iter()
        .map(|r| {
            names
                .iter()
                .map(|c| (0..rows.len()).find(|&i| &rows[i] == r && &cols[i] == c).map_or(f64::NAN, |i| ws[i]))
                .collect()
        })
        .collect();
    let file = format!("{prefix}matrix.svg");
    // Preset files are labelled by their file name.
    let short: Vec<String> = names.iter().map(|n| short_name(n)).collect();
    let title = "Win share of the row strategy against the column strategy";
    charts::heatmap(&out.path().join(&file), title, &short, &shares)?;
    image(
        md,
        &file,
        title,
        &format!(
            "Win share of the row strategy against the column strategy (blue: the row wins more than half, red: less); {rounds:.0} {units} per pair."
        ),
    );
    if let Some(ratings) = load(dir, "ratings")? {
        let strategies = texts(&ratings, "strategy")?;
        let file = format!("{prefix}ratings.svg");
        let rating = with_interval(&ratings, "rating")?;
        let title = "Rating by strategy";
        let labels: Vec<String> = strategies.iter().map(|s| short_name(s)).collect();
        let axes = charts::Axes { title, x: "", y: "rating (Elo scale, mean 1500)", labels: &labels };
        // Points on an axis spanning the ratings: a bar from zero would hide their spread.
        whisker_chart(out, &file, &axes, &rating, &strategy_colours(palette, &strategies), false)?;
        image(
            md,
            &file,
            title,
            &format!(
                "Bradley-Terry ratings from the pairwise win shares, on the Elo scale, with 95% bootstrap intervals; {rounds:.0} {units} per pair."
            ),
        );
        if let Some(eq) = load(dir, "equilibrium")? {
            let (names, weights) = (texts(&eq, "strategy")?, floats(&eq, "weight")?);
            let exploit = floats(&eq, "exploitability")?;
            let support: Vec<String> = (0..names.len())
                .filter(|&i| weights[i] > 1e-6)
                .map(|i| format!("{} {:.3}", names[i], weights[i]))
                .collect();
            let most = (0..names.len()).max_by(|&a, &b| exploit[a].total_cmp(&exploit[b]));
            let _ = writeln!(
                md,
                "Meta-game equilibrium (the Nash mixture of the symmetric win-share game, by linear programming): {}.{}\n",
                support.join(", "),
                most.map_or(String::new(), |i| format!(
                    " The most exploitable strategy is {}: its best response wins {:.3} above an even share against it.",
                    names[i], exploit[i]
                ))
            );
        }
        let dominant = floats(&ratings, "dominant")?;
        match dominant.iter().position(|&d| d > 0.5) {
            Some(i) => {
                let _ = writeln!(
                    md,
                    "**{}** dominates: its win share is above 0.5 against every other strategy.\n",
                    strategies[i]
                );
            }
            None => {
                let _ = writeln!(md, "No strategy dominates: none wins more than half against every other.\n");
            }
        }
    }
    Ok(())
}

/// A tune or exploit folder: the winner and runners-up with held-out figures beside the
/// in-search ones, and the search's convergence.
fn search_section(
    md: &mut String,
    dir: &Path,
    candidates: &DataFrame,
    meta: Option<&serde_json::Value>,
    out: &OutputDir,
    prefix: &str,
) -> Result<(), Error> {
    let columns: Vec<String> = candidates.get_column_names().iter().map(|c| c.to_string()).collect();
    let params: Vec<String> = columns.iter().skip(1).take_while(|c| *c != "stage").cloned().collect();
    let what = if has(candidates, "payoff") { "payoff" } else { "objective" };
    let better = if what == "payoff" { "higher" } else { "lower" };
    let field = |k: &str| meta.and_then(|m| m.get(k)).map(|v| v.to_string().trim_matches('"').to_string());
    let question = match (field("kind").as_deref(), field("objective")) {
        (Some("tune"), Some(o)) => format!("Tuning the rules to {o}"),
        _ => format!(
            "Best response of `{}` to the field {}",
            field("preset").unwrap_or_default(),
            meta.and_then(|m| m.get("field")).and_then(|f| f.as_array()).map_or(String::new(), |f| f
                .iter()
                .filter_map(|v| v.as_str())
                .collect::<Vec<_>>()
                .join(", "))
        ),
    };
    let rank = floats(candidates, "rank")?;
    let in_search = with_interval(candidates, what)?;
    let held = with_interval(candidates, &format!("held_out_{what}"))?;
    let stages = texts(candidates, "stage")?;
    let settings: Vec<Vec<String>> = params.iter().map(|p| texts(candidates, p)).collect::<Result<_, _>>()?;
    let setting = |i: usize| -> String {
        params.iter().zip(&settings).map(|(p, v)| format!("`{p}={}`", v[i])).collect::<Vec<_>>().join(" ")
    };
    let _ = writeln!(
        md,
        "{question} ({better} is better): {} candidates raced on common deals; the best re-evaluated on held-out deals the search never played. Only the held-out figures should be quoted; the in-search figures show the winner's curse.\n",
        candidates.height()
    );
    let _ = writeln!(
        md,
        "| rank | setting | held-out {what} (95% interval) | in-search {what} | last stage |\n|---|---|---|---|---|"
    );
    let mut ranked: Vec<usize> = (0..rank.len()).filter(|&i| rank[i] > 0.0).collect();
    ranked.sort_by(|&a, &b| rank[a].total_cmp(&rank[b]));
    for &i in &ranked {
        let _ = writeln!(
            md,
            "| {} | {} | {} ({} to {}) | {} ({} to {}) | {} |",
            rank[i],
            setting(i),
            fmt4(held.mean[i]),
            fmt4(held.lo[i]),
            fmt4(held.hi[i]),
            fmt4(in_search.mean[i]),
            fmt4(in_search.lo[i]),
            fmt4(in_search.hi[i]),
            stages[i]
        );
    }
    md.push('\n');
    if let Some(trace) = load(dir, "convergence")? {
        let spent = floats(&trace, "rounds_spent")?;
        let best = with_interval(&trace, &format!("best_{what}"))?;
        let labels: Vec<String> = spent.iter().map(|r| format!("{r:.0}")).collect();
        let file = format!("{prefix}convergence.svg");
        let title = format!("Best in-search {what} so far, by units of play spent");
        let y = format!("best {what} so far ({better} is better)");
        let axes = charts::Axes { title: &title, x: "units of play spent (not to scale)", y: &y, labels: &labels };
        let series = charts::Series {
            name: String::new(),
            colour: charts::NEUTRAL,
            values: best.mean,
            band: Some((best.lo, best.hi)),
        };
        charts::lines(&out.path().join(&file), &axes, &[series])?;
        image(
            md,
            &file,
            &title,
            &format!(
                "Each point is a new best in-search {what}, against the units of play spent so far (x axis, not to scale), with its 95% interval. A flat tail means more budget would not have changed the answer; the held-out figures above are the ones to trust."
            ),
        );
    }
    Ok(())
}

/// A sweep row's strategy as a chart series: a varied preset's derived name
/// (`hate{draft.weight=0.1}` where the row's `hate.draft.weight` is 0.1) is its base preset,
/// so the preset is one line across the swept values.
fn swept_strategy(name: &str, keys: &[String], row: &[String]) -> String {
    let same = |a: &str, b: &str| a == b || matches!((a.parse::<f64>(), b.parse::<f64>()), (Ok(x), Ok(y)) if x == y);
    if let Some((base, overrides)) = crate::games::presets::derived(name) {
        let swept = crate::games::presets::split_top(overrides, ';').iter().all(|o| {
            o.split_once('=').is_some_and(|(path, value)| {
                let key = format!("{base}.{}", path.trim());
                keys.iter().zip(row).any(|(k, v)| *k == key && same(v, value.trim()))
            })
        });
        if swept {
            return short_name(base);
        }
    }
    short_name(name)
}

fn sweep_section(
    md: &mut String,
    sweep: &DataFrame,
    out: &OutputDir,
    prefix: &str,
    measures: Option<&Measures>,
    palette: &charts::Palette,
    requires: &[Constraint],
) -> Result<(), Error> {
    let columns: Vec<String> = sweep.get_column_names().iter().map(|c| c.to_string()).collect();
    let keys: Vec<String> = columns.iter().take_while(|c| *c != "strategy").cloned().collect();
    if keys.is_empty() {
        return Ok(());
    }
    let units = measures.map_or("rounds".to_string(), Measures::units);
    // One row per variant (polars keeps the first row of each key combination).
    let variants = sweep
        .clone()
        .lazy()
        .group_by_stable(keys.iter().map(|k| col(k.as_str())).collect::<Vec<_>>())
        .agg([all().exclude_cols(keys.clone()).as_expr().first()])
        .collect()
        .map_err(|e| table_error("sweep", e))?;
    let variant_keys: Vec<Vec<String>> = keys.iter().map(|k| key_texts(&variants, k)).collect::<Result<_, _>>()?;
    // Along x: the key with the most values (the first of equals); the others facet, so no
    // chart averages over a swept key.
    let counts: Vec<usize> = variant_keys.iter().map(|v| distinct(v).len()).collect();
    let main = (0..keys.len()).fold(0, |best, k| if counts[k] > counts[best] { k } else { best });
    let main_key = &keys[main];
    let labels = distinct(&variant_keys[main]);
    let others: Vec<usize> = (0..keys.len()).filter(|&k| k != main).collect();
    let other_keys: Vec<&str> = others.iter().map(|&k| keys[k].as_str()).collect();
    // The setting of the other keys ("ante=1 wild=none"; empty for a one-key sweep).
    let facet = |values: &[Vec<String>], row: usize| -> String {
        others.iter().map(|&k| format!("{}={}", keys[k], values[k][row])).collect::<Vec<_>>().join(" ")
    };
    let settings = distinct(&(0..variants.height()).map(|row| facet(&variant_keys, row)).collect::<Vec<_>>());
    let x_of = |values: &[Vec<String>], row: usize| labels.iter().position(|l| *l == values[main][row]);
    // Seat-units per strategy: the same in every variant unless the player count varies.
    let all_rounds = floats(sweep, "rounds")?;
    let (fewest, most) = all_rounds.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &r| (lo.min(r), hi.max(r)));
    let rounds = if fewest >= most { format!("{most:.0}") } else { format!("{fewest:.0} to {most:.0}") };
    // Variant-level columns: from seat_advantage up to the rarity columns.
    let score_column = measures.map_or("chips_per_round", |m| m.score.column.as_str());
    let metrics: Vec<(&str, String)> = columns
        .iter()
        .skip_while(|c| *c != "seat_advantage")
        .take_while(|c| !c.starts_with("rarity_order") && *c != "standard_order_holds")
        .filter(|c| !c.ends_with("_lo") && !c.ends_with("_hi"))
        .map(|c| {
            let meaning = match c.as_str() {
                "seat_advantage" => "spread of the seats' win rates, noise taken off (0 for equal seats)".to_string(),
                "skill_gap" => format!("{} of the best strategy minus random's", words(score_column)),
                "mean_length" => measures.map_or("rounds per unit of play".to_string(), |m| m.length.clone()),
                other => measures.and_then(|m| m.find(other)).map_or_else(|| words(other), |m| m.description.clone()),
            };
            (c.as_str(), meaning)
        })
        .collect();
    let others_text = format!("`{}`", other_keys.join("`, `"));
    let _ = writeln!(
        md,
        "Sweep over `{}`; every variant played on the same seed; {rounds} seat-{units} per strategy per variant. Charts run along `{main_key}`{}.\n",
        keys.join("`, `"),
        if others.is_empty() {
            String::new()
        } else {
            format!(", with one line or one chart per setting of {others_text}")
        }
    );
    sweep_limits(md, &variants, &keys, &variant_keys, requires)?;
    for (metric, meaning) in &metrics {
        let values = floats(&variants, metric)?;
        // Nothing to chart: no values, or a unit of one round in every variant.
        if values.iter().all(|v| v.is_nan()) || (*metric == "mean_length" && values.iter().all(|&v| v == 1.0)) {
            continue;
        }
        // Its interval's ends, where the sweep table has them.
        let ends = if has(&variants, &format!("{metric}_lo")) {
            Some((floats(&variants, &format!("{metric}_lo"))?, floats(&variants, &format!("{metric}_hi"))?))
        } else {
            None
        };
        // One line per setting of the other keys.
        let mut series: Vec<charts::Series> = Vec::new();
        for row in 0..variants.height() {
            let name = facet(&variant_keys, row);
            let Some(x) = x_of(&variant_keys, row) else { continue };
            let entry = match series.iter().position(|s| s.name == name) {
                Some(i) => &mut series[i],
                None => {
                    let empty = vec![f64::NAN; labels.len()];
                    let step = settings.iter().position(|s| *s == name).unwrap_or(0);
                    let colour = if name.is_empty() { charts::NEUTRAL } else { charts::sequence(step, settings.len()) };
                    let band = ends.as_ref().map(|_| (empty.clone(), empty.clone()));
                    series.push(charts::Series { name, colour, values: empty, band });
                    series.last_mut().expect("just pushed")
                }
            };
            entry.values[x] = values[row];
            if let (Some((lo, hi)), Some((band_lo, band_hi))) = (&ends, entry.band.as_mut()) {
                band_lo[x] = lo[row];
                band_hi[x] = hi[row];
            }
        }
        let file = format!("{prefix}sweep-{metric}.svg");
        let title = format!("{} by {}", capitalised(&words(metric)), words(main_key));
        let axes = charts::Axes { title: &title, x: main_key, y: &words(metric), labels: &labels };
        charts::lines(&out.path().join(&file), &axes, &series)?;
        image(
            md,
            &file,
            &title,
            &format!(
                "{} ({meaning}) for each value of `{main_key}`{}{}; {rounds} seat-{units} per strategy per variant.",
                capitalised(&words(metric)),
                if others.is_empty() { String::new() } else { format!(", one line per setting of {others_text}") },
                if ends.is_some() { ", shaded with its 95% interval" } else { "" }
            ),
        );
    }
    // Score per round of each strategy along the main key, with its 95% interval as a
    // band: one chart per setting of the other keys.
    let row_keys: Vec<Vec<String>> = keys.iter().map(|k| key_texts(sweep, k)).collect::<Result<_, _>>()?;
    let row_key = |row: usize| -> Vec<String> { row_keys.iter().map(|v| v[row].clone()).collect() };
    let strategies: Vec<String> =
        texts(sweep, "strategy")?.iter().enumerate().map(|(row, s)| swept_strategy(s, &keys, &row_key(row))).collect();
    let score = with_interval(sweep, score_column)?;
    let facets = distinct(&(0..sweep.height()).map(|row| facet(&row_keys, row)).collect::<Vec<_>>());
    for (j, setting) in facets.iter().enumerate() {
        let rows: Vec<usize> = (0..sweep.height()).filter(|&r| facet(&row_keys, r) == *setting).collect();
        let names = distinct(&rows.iter().map(|&r| strategies[r].clone()).collect::<Vec<_>>());
        let series: Vec<charts::Series> = names
            .iter()
            .map(|name| {
                let mut ends: [Vec<f64>; 3] = std::array::from_fn(|_| vec![f64::NAN; labels.len()]);
                for &r in rows.iter().filter(|&&r| strategies[r] == *name) {
                    if let Some(x) = x_of(&row_keys, r) {
                        (ends[0][x], ends[1][x], ends[2][x]) = (score.mean[r], score.lo[r], score.hi[r]);
                    }
                }
                let [values, lo, hi] = ends;
                charts::Series { name: name.clone(), colour: palette.colour(name), values, band: Some((lo, hi)) }
            })
            .collect();
        let file = if facets.len() == 1 {
            format!("{prefix}sweep-chips-by-strategy.svg")
        } else {
            format!("{prefix}sweep-chips-by-strategy-{}.svg", j + 1)
        };
        let facet_title = if setting.is_empty() { String::new() } else { format!(", {}", setting.replace('=', " = ")) };
        let title = format!("{} by strategy and {}{facet_title}", capitalised(&words(score_column)), words(main_key));
        let axes = charts::Axes { title: &title, x: main_key, y: &words(score_column), labels: &labels };
        charts::lines(&out.path().join(&file), &axes, &series)?;
        image(
            md,
            &file,
            &title,
            &format!(
                "{} of each strategy for each value of `{main_key}`{}, shaded with its 95% interval; {rounds} seat-{units} per strategy per variant.",
                capitalised(&words(score_column)),
                if setting.is_empty() { String::new() } else { format!(" with `{}`", setting.replace(' ', "`, `")) }
            ),
        );
    }
    if has(&variants, "rarity_order") {
        let order = texts(&variants, "rarity_order")?;
        let holds = floats(&variants, "standard_order_holds")?;
        let _ = writeln!(
            md,
            "Hand categories by rarity (rarest first) in each variant:\n\n| variant | rarest first | standard ranking holds |\n|---|---|---|"
        );
        for row in 0..variants.height() {
            let setting: Vec<String> = keys.iter().zip(&variant_keys).map(|(k, v)| format!("{k}={}", v[row])).collect();
            let _ = writeln!(
                md,
                "| {} | {} | {} |",
                setting.join(" "),
                order[row].replace('>', " > "),
                if holds[row] > 0.5 { "yes" } else { "⚑ no" }
            );
        }
        md.push('\n');
    }
    Ok(())
}

/// Fewest units in hand (and takes) for a card to be charted and ranked.
const CARD_MIN_UNITS: f64 = 30.0;

/// Ranks 1..n of `values` (1 = first in the order `better` gives).
fn ranks(values: &[f64], better: impl Fn(f64, f64) -> std::cmp::Ordering) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| better(values[a], values[b]));
    let mut out = vec![0.0; values.len()];
    for (r, &i) in order.iter().enumerate() {
        out[i] = (r + 1) as f64;
    }
    out
}

/// Pearson correlation (of ranks: Spearman's).
fn correlation(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let cov: f64 = a.iter().zip(b).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = a.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = b.iter().map(|y| (y - mb).powi(2)).sum();
    cov / (va * vb).sqrt()
}

fn cards_section(
    md: &mut String,
    cards: &DataFrame,
    out: &OutputDir,
    prefix: &str,
    unit: &str,
    palette: &charts::Palette,
) -> Result<(), Error> {
    let strategy = texts(cards, "strategy")?;
    let level = texts(cards, "level")?;
    let card = texts(cards, "card")?;
    let in_hand = floats(cards, "in_hand")?;
    let taken = floats(cards, "taken")?;
    let ata = with_interval(cards, "ata")?;
    let gih = with_interval(cards, "win_share_in_hand")?;
    let diff = with_interval(cards, "in_hand_minus_passed")?;
    let units = if unit.ends_with("ch") { format!("{unit}es") } else { format!("{unit}s") };
    let interval = |v: &WithInterval, i: usize| format!("{} ({} to {})", fmt4(v.mean[i]), fmt4(v.lo[i]), fmt4(v.hi[i]));
    let _ = writeln!(
        md,
        "### Cards: what each strategy takes, when, and whether taking it wins\n\nATA is the average pick at which the strategy took a card; the win share in hand is over the {units} it ended holding the card, against the {units} it saw the card and passed it. A card taken earlier than its win share ranks is over-drafted by that strategy; one taken later is under-drafted.\n"
    );
    for (k, s) in distinct(&strategy).iter().enumerate() {
        let rows: Vec<usize> = (0..strategy.len())
            .filter(|&i| {
                &strategy[i] == s
                    && level[i] == "card"
                    && in_hand[i] >= CARD_MIN_UNITS
                    && taken[i] >= CARD_MIN_UNITS
                    && gih.mean[i].is_finite()
            })
            .collect();
        // Chart and rankings need a few cards with data; the pooled tables do not.
        if rows.len() >= 3 {
            let pick = |v: &[f64]| rows.iter().map(|&i| v[i]).collect::<Vec<f64>>();
            let labels: Vec<String> = rows.iter().map(|&i| card[i].clone()).collect();
            let (x, xlo, xhi) = (pick(&ata.mean), pick(&ata.lo), pick(&ata.hi));
            let (y, ylo, yhi) = (pick(&gih.mean), pick(&gih.lo), pick(&gih.hi));
            let file = format!("{prefix}cards-{}.svg", k + 1);
            let title = format!("Average pick against win share in hand, {}", short_name(s));
            let colour = palette.colour(&short_name(s));
            charts::scatter_with_intervals(
                &out.path().join(&file),
                &title,
                "average pick taken (ATA; later to the right)",
                &format!("win share per {unit} with the card in hand"),
                &charts::Scatter { labels: &labels, x: (&x, &xlo, &xhi), y: (&y, &ylo, &yhi), colour },
            )?;
            let pick_rank = ranks(&x, |a, b| a.total_cmp(&b));
            let win_rank = ranks(&y, |a, b| b.total_cmp(&a));
            let rho = correlation(&pick_rank, &win_rank);
            image(
                md,
                &file,
                &title,
                &format!(
                    "`{s}`: one point per card with at least {CARD_MIN_UNITS:.0} {units} in hand, with 95% intervals on both axes. Rank correlation of pick order with win order: {rho:.2} (1 would mean it takes cards exactly in the order they win). Points low and left are taken early but win little (over-drafted); high and right, taken late but win often (under-drafted)."
                ),
            );
            let n = rows.len();
            let mut by_gap: Vec<usize> = (0..n).collect();
            // Over-drafted first: picked much earlier (a better pick rank) than its win rank.
            by_gap.sort_by(|&a, &b| (win_rank[b] - pick_rank[b]).total_cmp(&(win_rank[a] - pick_rank[a])));
            let over: Vec<usize> = by_gap.iter().copied().filter(|&j| win_rank[j] > pick_rank[j]).take(10).collect();
            let under: Vec<usize> =
                by_gap.iter().rev().copied().filter(|&j| win_rank[j] < pick_rank[j]).take(10).collect();
            for (title, list) in [
                ("over-drafted (taken before cards that win more)", over),
                ("under-drafted (taken after cards that win less)", under),
            ] {
                if list.is_empty() {
                    continue;
                }
                let _ = writeln!(
                    md,
                    "Most {title} by `{s}`, ranks among {n} cards:\n\n| card | ATA (95% interval) | pick rank | win share in hand (95% interval) | win rank | in hand minus passed (95% interval) |\n|---|---|---:|---|---:|---|"
                );
                for j in list {
                    let i = rows[j];
                    let _ = writeln!(
                        md,
                        "| {} | {} | {} | {} | {} | {} |",
                        card[i],
                        interval(&ata, i),
                        pick_rank[j],
                        interval(&gih, i),
                        win_rank[j],
                        interval(&diff, i)
                    );
                }
                md.push('\n');
            }
        }
        for pooled in distinct(&level).iter().filter(|l| *l != "card") {
            let groups: Vec<usize> =
                (0..strategy.len()).filter(|&i| &strategy[i] == s && &level[i] == pooled && taken[i] > 0.0).collect();
            if groups.is_empty() {
                continue;
            }
            let _ = writeln!(
                md,
                "`{s}` by {pooled}:\n\n| {pooled} | taken | ATA (95% interval) | win share in hand (95% interval) | in hand minus passed (95% interval) |\n|---|---:|---|---|---|"
            );
            for i in groups {
                let _ = writeln!(
                    md,
                    "| {} | {:.0} | {} | {} | {} |",
                    card[i],
                    taken[i],
                    interval(&ata, i),
                    interval(&gih, i),
                    interval(&diff, i)
                );
            }
            md.push('\n');
        }
    }
    Ok(())
}
