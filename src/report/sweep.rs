//! Sweeps: each figure over the swept key, faceted by strategy, and the variants that cross a limit.

use super::*;

/// A sweep's limits: for each `--require` (given to the report or kept by the sweep), the
/// variants whose interval crosses it, or that every variant meets it. Returns a short
/// line per limit for the summary.
pub(super) fn sweep_limits(
    md: &mut String,
    (variants, meta): (&DataFrame, Option<&serde_json::Value>),
    keys: &[String],
    variant_keys: &[Vec<String>],
    requires: &[Constraint],
) -> Result<Vec<String>, Error> {
    let mut short = Vec::new();
    if requires.is_empty() {
        return Ok(short);
    }
    let _ = writeln!(md, "**Limits**\n");
    let columns: Vec<String> = variants.get_column_names().iter().map(|c| c.to_string()).collect();
    let settings: Vec<String> = (0..variants.height())
        .map(|row| keys.iter().zip(variant_keys).map(|(k, v)| format!("{k}={}", v[row])).collect::<Vec<_>>().join(" "))
        .collect();
    for c in requires {
        // A figure of the whole game: its column, or the values the sweep kept for its own
        // limit on it (a measure the table has no column for). A strategy's figure is no
        // variant's: it is not checked, as `sweep --require` refuses it.
        let kept = meta.and_then(|m| kept_figure(m, &c.metric, &settings));
        let e = if figure_columns(&columns).contains(&c.metric) {
            with_interval(variants, &c.metric).ok().or(kept)
        } else {
            kept
        };
        let Some(e) = e else {
            if meta.is_some_and(|m| m["limit_figures"][&c.metric].is_object()) {
                let _ = writeln!(
                    md,
                    "- `{}`: not checked, the figures the sweep kept for it name other variants than its table's: \
                     run the sweep again.",
                    c.text()
                );
            } else {
                let _ = writeln!(
                    md,
                    "- `{}`: not checked, `{}` is not a figure of this sweep's variants.",
                    c.text(),
                    c.metric
                );
            }
            short.push(format!("`{}` not checked", c.text()));
            continue;
        };
        let mut missed = Vec::new();
        for (row, setting) in settings.iter().enumerate() {
            if e.mean[row].is_nan() {
                missed.push(format!("{setting} not measured"));
                continue;
            }
            let verdict = c.verdict(&Estimate { mean: e.mean[row], lo: e.lo[row], hi: e.hi[row] });
            if verdict != Verdict::Met {
                missed.push(format!(
                    "{} {} ({} – {})",
                    setting,
                    verdict.words().split(" (").next().unwrap_or_default(),
                    fmt4(e.lo[row]),
                    fmt4(e.hi[row])
                ));
            }
        }
        short.push(format!(
            "`{}` surely met in {} of {} variants",
            c.text(),
            variants.height() - missed.len(),
            variants.height()
        ));
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
    Ok(short)
}

/// The sweep table's figures of a whole variant (from `seat_advantage` up to the rarity
/// columns), without their interval columns: what a limit may name.
fn figure_columns(columns: &[String]) -> Vec<String> {
    (columns.iter())
        .skip_while(|c| *c != "seat_advantage")
        .take_while(|c| !c.starts_with("rarity_order") && *c != "standard_order_holds")
        .filter(|c| !c.ends_with("_lo") && !c.ends_with("_hi"))
        .cloned()
        .collect()
}

/// The values a sweep kept for its own limit on `metric` (`limit_figures` in study.json),
/// one for each of the table's variants (`settings`, in its rows' order); a variant that did
/// not measure it is NaN. Each kept value names its variant's setting, matched here by name
/// (numbers by value); a file from before they were named is read in the table's order. A
/// variant the kept figures do not name leaves the limit unchecked.
fn kept_figure(meta: &serde_json::Value, metric: &str, settings: &[String]) -> Option<WithInterval> {
    let figure = &meta["limit_figures"][metric];
    let read = |part: &str| -> Option<Vec<f64>> {
        Some(figure[part].as_array()?.iter().map(|v| v.as_f64().unwrap_or(f64::NAN)).collect())
    };
    let kept = WithInterval { mean: read("mean")?, lo: read("lo")?, hi: read("hi")? };
    let Some(named) = figure["variants"].as_array() else {
        return (kept.mean.len() == settings.len()).then_some(kept);
    };
    let named: Vec<&str> = named.iter().map(|v| v.as_str().unwrap_or_default()).collect();
    let mut out = WithInterval { mean: Vec::new(), lo: Vec::new(), hi: Vec::new() };
    for setting in settings {
        let at = named.iter().position(|n| same_setting(n, setting))?;
        out.mean.push(*kept.mean.get(at)?);
        out.lo.push(*kept.lo.get(at)?);
        out.hi.push(*kept.hi.get(at)?);
    }
    Some(out)
}

/// Two settings (`key=value` words) alike, values that read as numbers compared as numbers
/// (`0.5` and `0.50`).
fn same_setting(a: &str, b: &str) -> bool {
    let (a, b): (Vec<&str>, Vec<&str>) = (a.split(' ').collect(), b.split(' ').collect());
    a.len() == b.len()
        && a.iter().zip(&b).all(|(x, y)| match (x.split_once('='), y.split_once('=')) {
            (Some((kx, vx)), Some((ky, vy))) => {
                kx == ky && (vx == vy || matches!((vx.parse::<f64>(), vy.parse::<f64>()), (Ok(p), Ok(q)) if p == q))
            }
            _ => x == y,
        })
}

/// What a limit given to `report` may name in a sweep folder: its variants' figures and
/// those the sweep kept for its own limits.
pub(super) fn sweep_figures(sweep: &DataFrame, meta: Option<&serde_json::Value>) -> Vec<String> {
    let columns: Vec<String> = sweep.get_column_names().iter().map(|c| c.to_string()).collect();
    let mut out = figure_columns(&columns);
    let kept = meta.and_then(|m| m["limit_figures"].as_object());
    out.extend(kept.into_iter().flat_map(|o| o.keys().cloned()).filter(|k| !columns.contains(k)));
    out
}

/// A sweep row's strategy as a chart series: a varied preset's derived name
/// (`hate{draft.weight=0.1}` where the row's `hate.draft.weight` is 0.1) is its base preset,
/// so the preset is one line across the swept values.
pub(super) fn swept_strategy(name: &str, keys: &[String], row: &[String]) -> String {
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

/// Which strategy scores most at each value of the main key, in a sentence (with a space
/// after it): one name where one leads everywhere, else each leader with its values;
/// strategies exactly level at a value are named together, and values where the leader's
/// interval overlaps another strategy's are said to have no clear leader.
fn best_by_value(series: &[charts::Series], labels: &[String], main_key: &str, score_words: &str) -> String {
    // Who has the most at each value: one strategy, or several exactly level (identical
    // players on the same deals score alike), named together.
    let mut leaders: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    let mut unclear: Vec<String> = Vec::new();
    for (x, label) in labels.iter().enumerate() {
        let Some(most) = series.iter().map(|s| s.values[x]).filter(|v| v.is_finite()).max_by(f64::total_cmp) else {
            continue;
        };
        let best: Vec<String> = series.iter().filter(|s| s.values[x] == most).map(|s| s.name.clone()).collect();
        // A lead inside another strategy's interval is no finding: said as such.
        let lead_lo = series.iter().filter(|s| s.values[x] == most).filter_map(|s| s.band.as_ref().map(|b| b.0[x]));
        let lead_lo = lead_lo.fold(f64::INFINITY, f64::min);
        let overlapped = series
            .iter()
            .filter(|s| s.values[x] != most && s.values[x].is_finite())
            .any(|s| s.band.as_ref().is_some_and(|b| b.1[x] >= lead_lo));
        if overlapped {
            unclear.push(label.clone());
            continue;
        }
        match leaders.iter_mut().find(|(names, _)| *names == best) {
            Some((_, values)) => values.push(label.clone()),
            None => leaders.push((best, vec![label.clone()])),
        }
    }
    if series.len() >= 2 && !unclear.is_empty() {
        let none = "no strategy leads clear of the next (the leader's 95% interval overlaps another's)".to_string();
        if leaders.is_empty() {
            return format!("At every value of `{main_key}` {none}. ");
        }
        let named = |names: &[String]| {
            let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            let list = and_list(&quoted.iter().map(String::as_str).collect::<Vec<_>>());
            if names.len() == 1 { list } else { format!("{list} (level)") }
        };
        let clear: Vec<String> =
            leaders.iter().map(|(names, values)| format!("{} at {}", named(names), values.join(", "))).collect();
        return format!("The highest {score_words}: {}; at {} {none}. ", clear.join("; "), unclear.join(", "));
    }
    let named = |names: &[String]| {
        let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        and_list(&quoted.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let who = |names: &[String]| if names.len() == 1 { named(names) } else { format!("{} (level)", named(names)) };
    match leaders.as_slice() {
        [] => String::new(),
        _ if series.len() < 2 => String::new(),
        [(names, _)] if names.len() == 1 => {
            format!("{} has the highest {score_words} at every value of `{main_key}`. ", named(names))
        }
        [(names, _)] => format!("{} share the highest {score_words} at every value of `{main_key}`. ", named(names)),
        _ => format!(
            "Which strategy has the highest {score_words} changes with `{main_key}`: {}. ",
            leaders
                .iter()
                .map(|(names, values)| format!("{} at {}", who(names), values.join(", ")))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    }
}

/// A value to three significant figures without trailing zeros (0.02, 1, 4.29, 42).
fn plain(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return if v == 0.0 { "0".to_string() } else { fmt4(v) };
    }
    let decimals = (2 - v.abs().log10().floor() as i32).max(0) as usize;
    let text = format!("{v:.decimals$}");
    if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text }
}

/// The finite values' range in words ("0.2 to 0.31", or one value where both ends read
/// alike); `None` where there are none.
fn span(values: &[f64]) -> Option<String> {
    let finite = values.iter().copied().filter(|v| v.is_finite());
    let (low, high) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| (l.min(v), h.max(v)));
    match (low.is_finite(), plain(low) == plain(high)) {
        (false, _) => None,
        (true, true) => Some(plain(low)),
        (true, false) => Some(format!("{} to {}", plain(low), plain(high))),
    }
}

/// The one value every finite entry has, if there is at least one and no other.
fn one_value(values: &[f64]) -> Option<f64> {
    let mut finite = values.iter().copied().filter(|v| v.is_finite());
    let first = finite.next()?;
    finite.all(|v| v == first).then_some(first)
}

pub(super) fn sweep_section(page: &mut Page, sweep: &DataFrame, folder: &Folder<'_>) -> Result<(), Error> {
    let Folder { meta, measures, out, prefix, palette, requires, .. } = *folder;
    let columns: Vec<String> = sweep.get_column_names().iter().map(|c| c.to_string()).collect();
    let keys: Vec<String> = columns.iter().take_while(|c| *c != "strategy").cloned().collect();
    if keys.is_empty() {
        return Ok(());
    }
    if sweep.height() == 0 {
        return Err(Error::Input(crate::InputError::new(
            "the sweep table has no rows (cut short?); run the sweep again",
        )));
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
    let score_words = measures.map_or_else(|| words(score_column), Measures::score_words);
    let figures = figure_columns(&columns);
    let metrics: Vec<(&str, String)> = (figures.iter())
        .map(|c| {
            let meaning = match c.as_str() {
                "seat_advantage" => "spread of the seats' win rates, noise taken off: 0 for equal seats".to_string(),
                "skill_gap" => format!("{} of the best strategy minus random's", score_words),
                "mean_length" => measures.map_or("rounds per unit of play".to_string(), |m| m.length.clone()),
                "balance" => "one minus the seat advantage".to_string(),
                "first_seat_edge" => measures.map_or_else(
                    || "seat 0's win rate minus the other seats' mean".to_string(),
                    |m| format!("seat 0's win rate minus the other seats' mean: {}", m.first_seat),
                ),
                "seats_equal_p" => "p-value of the test that every seat wins equally often".to_string(),
                // The name says what is counted (see `words`).
                "length_mean" | "length_p10" | "length_p50" | "length_p90" => {
                    "every seat's decisions, forced ones included".to_string()
                }
                other => match crate::sim::RATIO_FIGURES.iter().find(|f| f.name == other) {
                    Some(f) => f.description.to_string(),
                    // Nothing to add to the figure's name: no parenthesis repeating it.
                    None => measures.and_then(|m| m.find(other)).map_or_else(String::new, |m| m.description.clone()),
                },
            };
            (c.as_str(), meaning)
        })
        .collect();
    let others_text = format!("`{}`", other_keys.join("`, `"));
    // Values that are not all numbers are categories: drawn as points, never joined.
    let categorical = labels.iter().any(|l| l.parse::<f64>().is_err());
    let draw = |path: &Path, axes: &charts::Axes<'_>, series: &[charts::Series]| {
        if categorical { charts::points(path, axes, series) } else { charts::lines(path, axes, series) }
    };
    // The figure that moves most with one key, for the summary: the move in units of its
    // intervals' half-widths; along the charted key first (the one the sweep steps
    // through), and along another too where that move is larger.
    let mut largest: [Option<(f64, String)>; 2] = [None, None];
    // The same over the figures of play, length aside: a unit's length has narrow intervals
    // and outmoves them in half-widths while saying nothing of balance or skill.
    let mut largest_of_play: [Option<(f64, String)>; 2] = [None, None];
    // A sweep that sets no rules and varies presets' parameters asks about the settings.
    let listed = |key: &str| meta.and_then(|m| m[key].as_array()).map_or(0, Vec::len);
    let question = if listed("set") == 0 && listed("vary") > 0 { Question::Settings } else { Question::Rules };
    let md = page.at(question);
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
    let limits = sweep_limits(md, (&variants, meta), &keys, &variant_keys, requires)?;
    // Each figure's chart with how far it moves across the variants (in half-widths of its
    // intervals): the page shows those that move most first.
    // Each chart's place: (limited, not a length, spread), and its figure in words.
    let mut blocks: Vec<((bool, bool, f64), String, String)> = Vec::new();
    // Figures with one value in every variant: named in a line, not drawn flat.
    let mut unchanged: Vec<String> = Vec::new();
    // Figures whose variants' intervals all overlap: named with their range, not drawn.
    let mut within_noise: Vec<String> = Vec::new();
    for (metric, meaning) in &metrics {
        let values = floats(&variants, metric)?;
        // Nothing to chart: no values, or a unit of one round in every variant.
        if values.iter().all(|v| v.is_nan()) || (*metric == "mean_length" && values.iter().all(|&v| v == 1.0)) {
            continue;
        }
        // Its interval's ends, where the sweep table has them.
        let ends = if has(&variants, &format!("{metric}_lo")) {
            Some((floats(&variants, &format!("{metric}_lo"))?, floats(&variants, &format!("{metric}_hi"))?))
                // A figure without an interval (a p-value) leaves its ends empty.
                .filter(|(lo, _)| !lo.iter().all(|v| v.is_nan()))
        } else {
            None
        };
        // The same figure and interval in every variant: a flat chart says nothing more.
        let flat_ends = ends.as_ref().is_none_or(|(lo, hi)| one_value(lo).is_some() && one_value(hi).is_some());
        if let Some(v) = one_value(&values).filter(|_| labels.len() > 1 && flat_ends) {
            // A p-value has no level to report; the test's verdict is in the health table.
            if *metric != "seats_equal_p" {
                unchanged.push(format!("{} {}", words(metric), plain(v)));
            }
            continue;
        }
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
        // How far the figure moves with one key, the others held: the largest move over
        // the keys and the settings of the others, in half-widths of its intervals.
        let mut spread = 0.0;
        let mut beyond_noise = false;
        if let Some((lo, hi)) = &ends {
            for k in 0..keys.len() {
                let held = |r: usize| {
                    (0..keys.len()).filter(|&j| j != k).map(|j| variant_keys[j][r].clone()).collect::<Vec<_>>()
                };
                let rows: Vec<usize> = (0..values.len()).filter(|&r| values[r].is_finite()).collect();
                for group in distinct(&rows.iter().map(|&r| held(r).join("\u{1}")).collect::<Vec<_>>()) {
                    let members: Vec<usize> =
                        rows.iter().copied().filter(|&r| held(r).join("\u{1}") == group).collect();
                    let low = members.iter().copied().min_by(|&a, &b| values[a].total_cmp(&values[b]));
                    let high = members.iter().copied().max_by(|&a, &b| values[a].total_cmp(&values[b]));
                    let (Some(l), Some(h)) = (low, high) else { continue };
                    let half = ((hi[l] - lo[l]) + (hi[h] - lo[h])) / 4.0;
                    beyond_noise |= l != h && hi[l] < lo[h];
                    if l == h || half.is_nan() || half <= 0.0 || hi[l] >= lo[h] {
                        continue;
                    }
                    let moved = (values[h] - values[l]) / half;
                    spread = f64::max(spread, moved);
                    // Percentiles of length move in whole steps with narrow intervals; the
                    // mean speaks for them.
                    if metric.starts_with("length_p") {
                        continue;
                    }
                    let length = *metric == "mean_length" || *metric == "length_mean";
                    let slots = [Some(&mut largest), (!length).then_some(&mut largest_of_play)];
                    let beaten = |slot: &Option<(f64, String)>| slot.as_ref().is_none_or(|(s, _)| moved > *s);
                    let slots: Vec<_> = slots
                        .into_iter()
                        .flatten()
                        .map(|l| &mut l[usize::from(k != main)])
                        .filter(|s| beaten(s))
                        .collect();
                    if slots.is_empty() {
                        continue;
                    }
                    let fixed: Vec<String> = (0..keys.len())
                        .filter(|&j| j != k)
                        .map(|j| format!("`{}={}`", keys[j], variant_keys[j][l]))
                        .collect();
                    let text = format!(
                        "the largest move is in {} with `{}`: {}{}.",
                        words(metric),
                        keys[k],
                        told_move((&values, lo, hi), &variant_keys[k], l, h),
                        if fixed.is_empty() { String::new() } else { format!(" (with {})", fixed.join(", ")) }
                    );
                    for slot in slots {
                        *slot = Some((moved, text.clone()));
                    }
                }
            }
        }
        // A figure that no key moves beyond noise is named with its range, not drawn: its
        // chart would take a place a moving figure needs.
        let limited = requires.iter().any(|c| c.metric == *metric);
        // A p-value has no interval: drawn only where the test rejects equal seats somewhere.
        if *metric == "seats_equal_p" && !limited && !values.iter().any(|&p| p < 0.05) {
            if let Some(range) = span(&values) {
                within_noise.push(format!("the p-value of equal seats {range}, never below 0.05"));
            }
            continue;
        }
        if ends.is_some() && !beyond_noise && !limited {
            within_noise.push(format!("{} {}", words(metric), span(&values).unwrap_or_default()));
            continue;
        }
        let file = format!("{prefix}sweep-{metric}.svg");
        let title = format!("{} by {}", capitalised(&words(metric)), words(main_key));
        let y = words(metric);
        let axes = charts::Axes::new(&title, main_key, &y, &labels);
        draw(&out.path().join(&file), &axes, &series)?;
        let mut block = String::new();
        image(
            &mut block,
            &file,
            &title,
            &format!(
                "{}{} for each value of `{main_key}`{}{}; {rounds} seat-{units} per strategy per variant.",
                capitalised(&words(metric)),
                if meaning.is_empty() { String::new() } else { format!(" ({meaning})") },
                if others.is_empty() { String::new() } else { format!(", one line per setting of {others_text}") },
                match (ends.is_some(), categorical) {
                    (false, _) => "",
                    (true, false) => ", shaded with its 95% interval",
                    (true, true) => ", with its 95% interval",
                }
            ),
        );
        // A figure the sweep was limited by leads: the limit is the question asked. A
        // unit's length follows the figures of play (balance, skill, folds): its narrow
        // intervals outmove theirs in half-widths while saying nothing of either.
        let lengthy = *metric == "mean_length" || metric.starts_with("length_");
        blocks.push(((limited, !lengthy, spread), block, words(metric)));
    }
    // Score per unit (and win share) of each strategy along the main key, with its 95%
    // interval as a band: one chart per setting of the other keys.
    let row_keys: Vec<Vec<String>> = keys.iter().map(|k| key_texts(sweep, k)).collect::<Result<_, _>>()?;
    let row_key = |row: usize| -> Vec<String> { row_keys.iter().map(|v| v[row].clone()).collect() };
    let strategies: Vec<String> =
        texts(sweep, "strategy")?.iter().enumerate().map(|(row, s)| swept_strategy(s, &keys, &row_key(row))).collect();
    let score = with_interval(sweep, score_column)?;
    let win = if score_column != "win_rate" && has(sweep, "win_rate_lo") {
        Some(with_interval(sweep, "win_rate")?)
    } else {
        None
    };
    let win_words = measures.map_or_else(|| "win share".to_string(), |m| format!("win share per {}", m.unit));
    let facets = distinct(&(0..sweep.height()).map(|row| facet(&row_keys, row)).collect::<Vec<_>>());
    // Whose score moves, and how, along key `k` between rows `l` and `h`, the other keys
    // held at `setting`: worded as the only move or as one beside another.
    let score_said = |name: &str, k: usize, (l, h): (usize, usize), setting: &str| {
        let held =
            if setting.is_empty() { String::new() } else { format!(" (with `{}`)", setting.replace(' ', "`, `")) };
        (
            format!("`{name}`'s {score_words}"),
            format!(
                " with `{}`: {}{held}.",
                keys[k],
                told_move((&score.mean, &score.lo, &score.hi), &row_keys[k], l, h)
            ),
        )
    };
    let mut said_flat = false;
    // A strategy's score that moves beyond noise along the main key, for the summary where
    // no variant-wide figure does (a varied preset moves its own strategy's score).
    let mut score_largest: Option<(f64, (String, String))> = None;
    for (j, setting) in facets.iter().enumerate() {
        let rows: Vec<usize> = (0..sweep.height()).filter(|&r| facet(&row_keys, r) == *setting).collect();
        for name in distinct(&rows.iter().map(|&r| strategies[r].clone()).collect::<Vec<_>>()) {
            let own: Vec<usize> =
                rows.iter().copied().filter(|&r| strategies[r] == name && score.mean[r].is_finite()).collect();
            let Some((l, h, moved)) = score_move(&score, &own) else { continue };
            if score_largest.as_ref().is_some_and(|(s, _)| moved <= *s) {
                continue;
            }
            score_largest = Some((moved, score_said(&name, main, (l, h), setting)));
        }
        // A strategy seated against itself in a zero-sum game scores the same in every
        // variant: a flat line says nothing, whatever interval the table gives it.
        let all: Vec<f64> = rows.iter().flat_map(|&r| [score.mean[r], score.lo[r], score.hi[r]]).collect();
        let means: Vec<f64> = rows.iter().map(|&r| score.mean[r]).collect();
        let names = distinct(&rows.iter().map(|&r| strategies[r].clone()).collect::<Vec<_>>());
        let flat = one_value(&all).or_else(|| one_value(&means).filter(|_| names.len() == 1));
        if let Some(v) = flat.filter(|_| labels.len() > 1) {
            // Said once a sweep, not once a facet.
            if !said_flat {
                said_flat = true;
                let who = match names.as_slice() {
                    [one] => format!("every seat plays `{one}`, so"),
                    _ => "every strategy scores the same:".to_string(),
                };
                let _ = writeln!(md, "In every variant {who} {} is {} (not charted).\n", score_words, plain(v));
            }
            continue;
        }
        // The score, and the win share where the score is another figure: a designer reads
        // both (chips can rise while wins fall).
        let mut charted: Vec<(&WithInterval, &str, &str)> = vec![(&score, score_words.as_str(), "chips")];
        if let Some(w) = &win {
            let all: Vec<f64> = rows.iter().flat_map(|&r| [w.mean[r], w.lo[r], w.hi[r]]).collect();
            if one_value(&all).is_none() {
                charted.push((w, win_words.as_str(), "win-share"));
            }
        }
        for (figure, what, stem) in charted {
            let series: Vec<charts::Series> = names
                .iter()
                .map(|name| {
                    let mut ends: [Vec<f64>; 3] = std::array::from_fn(|_| vec![f64::NAN; labels.len()]);
                    for &r in rows.iter().filter(|&&r| strategies[r] == *name) {
                        if let Some(x) = x_of(&row_keys, r) {
                            (ends[0][x], ends[1][x], ends[2][x]) = (figure.mean[r], figure.lo[r], figure.hi[r]);
                        }
                    }
                    let [values, lo, hi] = ends;
                    charts::Series { name: name.clone(), colour: palette.colour(name), values, band: Some((lo, hi)) }
                })
                .collect();
            let file = if facets.len() == 1 {
                format!("{prefix}sweep-{stem}-by-strategy.svg")
            } else {
                format!("{prefix}sweep-{stem}-by-strategy-{}.svg", j + 1)
            };
            let facet_title =
                if setting.is_empty() { String::new() } else { format!(", {}", setting.replace('=', " = ")) };
            let best = best_by_value(&series, &labels, main_key, what);
            let title = format!("{} by strategy and {}{facet_title}", capitalised(what), words(main_key));
            // Every setting's chart of a figure on one scale, so they compare by eye.
            let shared: Vec<f64> = match facets.len() {
                1 => Vec::new(),
                _ => {
                    figure.mean.iter().chain(&figure.lo).chain(&figure.hi).copied().filter(|v| v.is_finite()).collect()
                }
            };
            let axes = charts::Axes { shared: &shared, ..charts::Axes::new(&title, main_key, what, &labels) };
            draw(&out.path().join(&file), &axes, &series)?;
            image(
                md,
                &file,
                &title,
                &format!(
                    "{best}{} of each strategy for each value of `{main_key}`{}, {} its 95% interval; {rounds} seat-{units} per strategy per variant.",
                    capitalised(what),
                    if setting.is_empty() {
                        String::new()
                    } else {
                        format!(" with `{}`", setting.replace(' ', "`, `"))
                    },
                    if categorical { "with" } else { "shaded with" }
                ),
            );
        }
    }
    // A strategy's score along each other key, every other key held: where it moves
    // further than along the charted key, the summary says so.
    let mut score_other: Option<(f64, (String, String))> = None;
    for &k in &others {
        let held = |r: usize| -> String {
            (0..keys.len())
                .filter(|&o| o != k)
                .map(|o| format!("{}={}", keys[o], row_keys[o][r]))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let groups =
            distinct(&(0..sweep.height()).map(|r| format!("{}\u{1}{}", strategies[r], held(r))).collect::<Vec<_>>());
        for group in groups {
            let own: Vec<usize> = (0..sweep.height())
                .filter(|&r| format!("{}\u{1}{}", strategies[r], held(r)) == group && score.mean[r].is_finite())
                .collect();
            let Some((l, h, moved)) = score_move(&score, &own) else { continue };
            if score_other.as_ref().is_some_and(|(s, _)| moved <= *s) {
                continue;
            }
            let (name, setting) = group.split_once('\u{1}').unwrap_or_default();
            score_other = Some((moved, score_said(name, k, (l, h), setting)));
        }
    }
    let score_largest = match (score_largest, score_other) {
        (Some(m), Some(o)) if o.0 > m.0 => {
            let (who, how) = o.1;
            let further = format!("{}; along another key further still: {who}{how}", m.1.1.trim_end_matches('.'));
            Some((m.0, (m.1.0, further)))
        }
        (m, o) => m.or(o),
    };
    let [along_main, along_other] = largest;
    let [play_main, play_other] = largest_of_play;
    // The charted key's move, and another key's where it is larger (worded to follow it).
    let lead = |main: Option<(f64, String)>, other: Option<(f64, String)>| match (main, other) {
        (Some(m), Some(o)) if o.0 > m.0 => {
            let further = o.1.replacen("the largest move is in ", "", 1);
            Some((m.0, format!("{} Along another key the move is larger still: {further}", m.1)))
        }
        (m, o) => m.or(o),
    };
    let mut beside = String::new();
    // Where a unit's length moves most along the charted key, the figure of play that moves
    // most leads (the length's narrow intervals outmove it in half-widths, saying nothing of
    // balance or skill), and the length follows it.
    let first = match (along_main, play_main) {
        // A length moves most along the charted key: a figure of play leads instead.
        (Some(all), play) if play.as_ref().is_none_or(|p| all.1 != p.1) && (play.is_some() || play_other.is_some()) => {
            let length = all.1.replacen("the largest move is in ", "", 1);
            beside += &format!(" A unit's length moves further in its intervals' widths: {length}");
            lead(play, play_other)
        }
        (along_main, _) => {
            // Another key's move of a figure of play, where the length's is the one said.
            let said =
                along_other.as_ref().filter(|o| along_main.as_ref().is_none_or(|m| o.0 > m.0)).map(|o| o.1.clone());
            if let Some(p) = play_other.filter(|p| said.as_ref().is_some_and(|s| *s != p.1)) {
                let further = p.1.replacen("the largest move is in ", "", 1);
                beside += &format!(" Of the figures of play, along another key the largest move is in {further}");
            }
            lead(along_main, along_other)
        }
    };
    // A strategy's score that moves beyond noise is named beside them: a varied preset's
    // own score is most often the point of the sweep.
    let named = match (first, &score_largest) {
        (Some((_, text)), Some((_, (who, how)))) => {
            beside += &format!(" Of the strategies' scores, {who} moves most{how}");
            Some(text)
        }
        (Some((_, text)), None) => Some(text),
        (None, Some((_, (who, how)))) => {
            Some(format!("no variant-wide figure moves beyond noise, but {who} does{how}"))
        }
        (None, None) => None,
    };
    // The figures the summary names (along the charted key, and along another where it
    // moves further) lead the charts after the limits: a capped report draws them before
    // the sweep's other charts.
    let said = |w: &str| {
        named.as_ref().is_some_and(|t| {
            t.starts_with(&format!("the largest move is in {w} with")) || t.contains(&format!("larger still: {w} with"))
        })
    };
    blocks.sort_by(|a, b| (b.0.0, said(&b.2), b.0.1).cmp(&(a.0.0, said(&a.2), a.0.1)).then(b.0.2.total_cmp(&a.0.2)));
    for (_, block, _) in blocks {
        md.push_str(&block);
    }
    if !unchanged.is_empty() {
        let _ = writeln!(md, "The same in every variant: {}.\n", unchanged.join(", "));
    }
    if !within_noise.is_empty() {
        let _ = writeln!(
            md,
            "Not charted, the lowest and the highest variant's 95% intervals overlapping along every key: {}. Overlap is no proof of no change: `versus` pairs two variants on the same deals and can tell apart figures this leaves out.\n",
            within_noise.join(", ")
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
    let mut headline = format!("Over {} variants of `{}`: ", variants.height(), keys.join("`, `"));
    let moved = match named {
        Some(text) => text + &beside,
        None => "no figure with an interval moves beyond noise with any one key.".to_string(),
    };
    // The limits the sweep was asked to check come first; then what moves most.
    if limits.is_empty() {
        headline += &moved;
    } else {
        headline += &format!("limits {}. {}", limits.join("; "), capitalised(&moved));
    }
    page.headline(question, headline);
    Ok(())
}

/// The lowest and highest score among `rows` and how far apart, in half-widths of their
/// intervals, where their intervals are apart.
fn score_move(score: &WithInterval, rows: &[usize]) -> Option<(usize, usize, f64)> {
    let l = rows.iter().copied().min_by(|&a, &b| score.mean[a].total_cmp(&score.mean[b]))?;
    let h = rows.iter().copied().max_by(|&a, &b| score.mean[a].total_cmp(&score.mean[b]))?;
    let half = ((score.hi[l] - score.lo[l]) + (score.hi[h] - score.lo[h])) / 4.0;
    if l == h || half.is_nan() || half <= 0.0 || score.hi[l] >= score.lo[h] {
        return None;
    }
    Some((l, h, (score.mean[h] - score.mean[l]) / half))
}

/// A figure's move between rows `l` and `h` ("from x [lo, hi] at `v` to ..."), told in the
/// order the key's values (`key_values`, one a row) were swept.
fn told_move(figure: (&[f64], &[f64], &[f64]), key_values: &[String], l: usize, h: usize) -> String {
    let (mean, lo, hi) = figure;
    let order = distinct(key_values);
    let at = |r: usize| order.iter().position(|v| *v == key_values[r]);
    let (a, b) = if at(l) <= at(h) { (l, h) } else { (h, l) };
    format!(
        "from {} [{}, {}] at `{}` to {} [{}, {}] at `{}`",
        fmt4(mean[a]),
        fmt4(lo[a]),
        fmt4(hi[a]),
        key_values[a],
        fmt4(mean[b]),
        fmt4(lo[b]),
        fmt4(hi[b]),
        key_values[b]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(name: &str, values: &[f64], half: f64) -> charts::Series {
        let lo = values.iter().map(|v| v - half).collect();
        let hi = values.iter().map(|v| v + half).collect();
        charts::Series {
            name: name.into(),
            colour: plotters::style::RGBColor(0, 0, 0),
            values: values.to_vec(),
            band: Some((lo, hi)),
        }
    }

    #[test]
    fn a_lead_inside_another_strategys_interval_is_not_called_a_lead() {
        let labels: Vec<String> = ["tableau", "blind"].iter().map(|s| s.to_string()).collect();
        let said = |half: f64| {
            let s = [series("search", &[0.8, -0.03], half), series("random", &[-0.8, 0.03], half)];
            best_by_value(&s, &labels, "method", "points per game")
        };
        assert_eq!(
            said(0.05),
            "The highest points per game: `search` at tableau; at blind no strategy leads clear of the next (the leader's 95% interval overlaps another's). "
        );
        assert_eq!(
            said(0.01),
            "Which strategy has the highest points per game changes with `method`: `search` at tableau; `random` at blind. "
        );
        assert!(
            said(1.0).starts_with("At every value of `method` no strategy leads clear of the next"),
            "{}",
            said(1.0)
        );
    }
}
