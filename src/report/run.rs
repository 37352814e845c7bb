//! A run: scores and win rates, the game's measures and its histograms.

use super::*;

pub(super) fn run_section(
    page: &mut Page,
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

    let md = page.at(Question::WhoWins);
    let file = format!("{prefix}win-share.svg");
    let title = "Win share by strategy";
    let y = format!("win share per {unit}");
    let n = rounds.iter().copied().fold(0.0, f64::max);
    if let [sole] = &strategies[..] {
        // One strategy at every seat: a chart of one bar would compare nothing.
        let _ = writeln!(
            md,
            "`{sole}` held every seat, so no strategy is compared and its figures are the table's. The table gives the part of a {unit} it won (a split counted as its share; a {unit} nobody wins counts for none), with 95% intervals over deal groups; {n:.0} seat-{units}.\n"
        );
    } else {
        let axes = charts::Axes::new(title, "", &y, &strategies);
        whisker_chart(out, &file, &axes, &win, &colours, true)?;
        image(
            md,
            &file,
            title,
            &format!(
                "{} The part of a {unit} each strategy won (a split counted as its share; a {unit} nobody wins counts for none, so the shares of the table may add to less than one), with 95% intervals over deal groups (all seatings of a deal are one observation; over units where the groups are too few or all alike); {n:.0} seat-{units} per strategy.",
                leader_sentence(&strategies, &win, &y, None)
            ),
        );
    }

    let _ = writeln!(
        md,
        "| strategy | {units} | win rate | 95% interval | {} | 95% interval |\n|---|---:|---:|---|---:|---|",
        measures.score_words()
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
    let mut order: Vec<usize> = (0..strategies.len()).filter(|&i| sc[i].is_finite()).collect();
    order.sort_by(|&a, &b| sc[b].total_cmp(&sc[a]));
    if let (Some(&b), Some(&second), Some(&w)) = (order.first(), order.get(1), order.last()) {
        let words = measures.score_words();
        let at = |i: usize| estimate_text(sc[i], slo[i], shi[i]);
        // The leader against each other strategy on the same deals: a lead inside the noise
        // is no lead, so every strategy level with the leader shares it.
        let pairs = load(dir, "pairs")?
            .map(|pairs| -> Result<_, Error> {
                let (a, bb) = (texts(&pairs, "strategy_a")?, texts(&pairs, "strategy_b")?);
                Ok((a, bb, with_interval(&pairs, &measures.score.pair_column)?))
            })
            .transpose()?;
        let ahead_of = |x: usize| -> Option<(f64, f64, f64)> {
            let (a, bb, d) = pairs.as_ref()?;
            (0..a.len()).find_map(|i| {
                if a[i] == strategies[b] && bb[i] == strategies[x] {
                    Some((d.mean[i], d.lo[i], d.hi[i]))
                } else if a[i] == strategies[x] && bb[i] == strategies[b] {
                    Some((-d.mean[i], -d.hi[i], -d.lo[i]))
                } else {
                    None
                }
            })
        };
        // Down the order while each is level with the leader: a lower scorer never shares
        // the lead that a higher one is shown not to.
        let level: Vec<usize> = order[1..]
            .iter()
            .copied()
            .take_while(|&x| ahead_of(x).is_some_and(|(_, l, h)| l <= 0.0 && h >= 0.0))
            .collect();
        let top = match ahead_of(second) {
            Some(_) if !level.is_empty() => {
                let mut names: Vec<&str> = vec![&strategies[b]];
                names.extend(level.iter().map(|&x| strategies[x].as_str()));
                let all = level.len() + 1 == order.len();
                let differences: Vec<String> = level
                    .iter()
                    .map(|&x| {
                        let (d, l, h) = ahead_of(x).expect("level strategies have a pair");
                        format!("over {} {}", strategies[x], estimate_text(d, l, h))
                    })
                    .collect();
                let scores: Vec<String> = std::iter::once(b).chain(level.iter().copied()).map(at).collect();
                format!(
                    "{} {} level within noise: {words} {} (on the same deals, {}'s lead {})",
                    and_list(&names),
                    if all { "are" } else { "lead" },
                    and_list(&scores.iter().map(String::as_str).collect::<Vec<_>>()),
                    strategies[b],
                    differences.join(", ")
                )
            }
            Some((d, l, h)) => format!(
                "{}: {words} {}, {} ahead of {} on the same deals",
                person(&strategies[b], "scores most"),
                at(b),
                estimate_text(d, l, h),
                strategies[second]
            ),
            None => format!("{}: {words} {}", person(&strategies[b], "scores most"), at(b)),
        };
        // The last is named unless the lead's words named it already (the runner-up is
        // named beside the leader wherever the pair was played).
        let named = w == b || level.contains(&w) || (w == second && ahead_of(second).is_some());
        let mut text = if named {
            format!("{top}.")
        } else {
            format!("{top}; {}: {}.", person(&strategies[w], "scores least"), at(w))
        };
        // Said only where another strategy wins more often than the top scorer (not ties),
        // with the top scorer's beside it: the ranking above is by score, not by units won.
        if let Some(m) = (0..strategies.len()).filter(|&i| wr[i].is_finite()).max_by(|&x, &y| wr[x].total_cmp(&wr[y]))
            && wr[m] > wr[b]
        {
            let whose = |i: usize| {
                if strategies[i] == crate::outside::HUMAN {
                    "yours".to_string()
                } else {
                    format!("{}'s", strategies[i])
                }
            };
            let overlap = if lo[m] <= hi[b] { ", the intervals overlapping" } else { "" };
            text += &format!(
                " The highest win rate is {}: {} [{}, {}], against {} {} [{}, {}]{overlap}; win rate counts units won, the ranking above the {words}.",
                whose(m),
                fmt4(wr[m]),
                fmt4(lo[m]),
                fmt4(hi[m]),
                whose(b),
                fmt4(wr[b]),
                fmt4(lo[b]),
                fmt4(hi[b])
            );
        }
        page.headline(Question::WhoWins, text);
    }
    // An outside program's faults were played by the fallback: its figures are partly the
    // fallback's, which the page says beside them.
    if let Some(outside) = load(dir, "outside")? {
        let (names, decisions, fallbacks) =
            (texts(&outside, "strategy")?, floats(&outside, "decisions")?, floats(&outside, "fallbacks")?);
        let md = page.at(Question::WhoWins);
        for i in (0..names.len()).filter(|&i| fallbacks[i] > 0.0) {
            let _ = writeln!(
                md,
                "**Warning:** `{}` made {:.0} of its {:.0} decisions by the fallback, a random legal move, after a fault (outside.csv counts them by kind): its figures are partly the fallback's.\n",
                names[i], fallbacks[i], decisions[i]
            );
        }
    }

    if let Some(seats) = load(dir, "seats")? {
        let labels: Vec<String> = texts(&seats, "seat")?.iter().map(|s| format!("seat {s}")).collect();
        let seat_win = with_interval(&seats, "win_rate")?;
        let file = format!("{prefix}seat-advantage.svg");
        let title = "Win share by seat";
        let axes = charts::Axes::new(title, "", &y, &labels);
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
        let sentence = format!(
            "The part of a {unit} each seat won (a split counted as its share), with 95% intervals; {srounds:.0} {units} per seat.{verdict}"
        );
        // Seats alike within noise are no finding: the chart is drawn only where the
        // budget has room after the others.
        let quiet = !p.is_nan() && p >= 0.05;
        image_as(page.at(Question::Fair), &file, title, &sentence, quiet);
        let top = (0..labels.len()).max_by(|&a, &b| seat_win.mean[a].total_cmp(&seat_win.mean[b]));
        let bottom = (0..labels.len()).min_by(|&a, &b| seat_win.mean[a].total_cmp(&seat_win.mean[b]));
        if let (Some(t), Some(b)) = (top, bottom) {
            page.headline(
                Question::Fair,
                format!(
                    "Win share by seat runs from {} [{}, {}] ({}) to {} [{}, {}] ({}).{verdict}",
                    fmt4(seat_win.mean[b]),
                    fmt4(seat_win.lo[b]),
                    fmt4(seat_win.hi[b]),
                    labels[b],
                    fmt4(seat_win.mean[t]),
                    fmt4(seat_win.lo[t]),
                    fmt4(seat_win.hi[t]),
                    labels[t]
                ),
            );
        }
    }
    let md = page.at(Question::WhoWins);

    let fold_cols: Vec<String> =
        summary.get_column_names().iter().map(|c| c.to_string()).filter(|c| c.starts_with("fold_rate_r")).collect();
    if !fold_cols.is_empty() {
        let labels: Vec<String> = (1..=fold_cols.len()).map(|b| format!("round {b}")).collect();
        // Each rate's interval as the measures table gives it, over deal groups; a folder
        // without one gets the Wilson interval over the strategy's seat-rounds.
        let seat_rounds = floats(summary, "rounds")?;
        let measured = load(dir, "measures")?.map(|t| measure_intervals(&t)).transpose()?.unwrap_or_default();
        let interval = |s: &str, column: &str, v: f64, n: u64| match measured.get(&(s.to_string(), column.to_string()))
        {
            Some(&e) => (e, true),
            None => (crate::stats::wilson(v * n as f64, n), false),
        };
        let mut over_groups = true;
        let series = strategies
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let values =
                    fold_cols.iter().map(|c| floats(summary, c).map(|v| v[i])).collect::<Result<Vec<_>, Error>>()?;
                let n = seat_rounds[i].max(0.0) as u64;
                let bounds: Vec<_> = (values.iter().zip(&fold_cols))
                    .map(|(&v, c)| {
                        let (e, grouped) = interval(s, c, v, n);
                        over_groups &= grouped;
                        e
                    })
                    .collect();
                Ok(charts::Series {
                    name: short_name(s),
                    colour: colours[i],
                    values,
                    band: Some((bounds.iter().map(|e| e.lo).collect(), bounds.iter().map(|e| e.hi).collect())),
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        // A seat folds at most once a unit, so its rounds' shares add up to the share of
        // its units it folded at all.
        let totals: Vec<(f64, crate::stats::Estimate)> = (0..series.len())
            .map(|i| {
                let (total, n) = (series[i].values.iter().sum::<f64>(), seat_rounds[i].max(0.0));
                let (e, grouped) = interval(&strategies[i], "fold_rate", total, n as u64);
                over_groups &= grouped;
                (total, e)
            })
            .collect();
        let folded = WithInterval {
            mean: totals.iter().map(|t| t.0).collect(),
            lo: totals.iter().map(|t| t.1.lo).collect(),
            hi: totals.iter().map(|t| t.1.hi).collect(),
        };
        let names: Vec<String> = series.iter().map(|s| s.name.clone()).collect();
        let mut conclusion = leader_sentence(&names, &folded, &format!("share of its {units} folded in all"), None);
        // Lines that coincide hide one another: named, so that no strategy seems missing.
        let mut alike: Vec<Vec<usize>> = Vec::new();
        for i in 0..series.len() {
            match alike.iter_mut().find(|g| series[g[0]].values == series[i].values) {
                Some(g) => g.push(i),
                None => alike.push(vec![i]),
            }
        }
        for group in alike.iter().filter(|g| g.len() > 1) {
            let quoted: Vec<String> = group.iter().map(|&i| format!("`{}`", names[i])).collect();
            let who = crate::output::and_list(&quoted.iter().map(String::as_str).collect::<Vec<_>>());
            conclusion += &if series[group[0]].values.iter().all(|&v| v == 0.0) {
                format!(" {who} never fold: their lines lie on one another at 0.")
            } else {
                format!(" {who} fold alike in every round: their lines lie on one another.")
            };
        }
        let conclusion = conclusion.trim_start();
        let file = format!("{prefix}fold-rate.svg");
        let title = "Fold rate by betting round and strategy";
        let y = format!("share of {units} folded");
        let axes = charts::Axes::new(title, "betting round", &y, &labels);
        charts::lines(&out.path().join(&file), &axes, &series)?;
        image(
            md,
            &file,
            title,
            &format!(
                "{conclusion} Share of each strategy's {units} folded in each betting round (fold timing), with 95% intervals ({}); {n:.0} seat-{units} per strategy.",
                match over_groups {
                    true => "over deal groups, as the measures table gives them".to_string(),
                    false => format!("Wilson, over seat-{units}"),
                }
            ),
        );
    }

    if let Some(table) = load(dir, "measures")? {
        measures_section(md, &table, out, prefix, measures, palette)?;
    }
    for (name, histograms) in measures.histogram_tables() {
        if let Some(table) = load(dir, name)? {
            histogram_section(page.at(Question::Cards), &table, out, &format!("{prefix}{name}"), &histograms)?;
        }
    }
    let md = page.at(Question::WhoWins);
    if let Some(pairs) = load(dir, "pairs")?.filter(|p| p.height() > 0) {
        let (a, b) = (texts(&pairs, "strategy_a")?, texts(&pairs, "strategy_b")?);
        let diff = with_interval(&pairs, &measures.score.pair_column)?;
        let (d, dlo, dhi) = (&diff.mean, &diff.lo, &diff.hi);
        let _ = writeln!(
            md,
            "Paired differences in {} (same deals, seatings balanced):\n\n| a | b | a minus b | 95% interval |\n|---|---|---:|---|",
            measures.score_words()
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
            let rate = floats(&picks, "hate_pick_rate")?;
            // Tables written before the intervals were kept give the means alone.
            let chips = |name: &str| -> Result<Vec<String>, Error> {
                let mean = floats(&picks, name)?;
                let bounds = floats(&picks, &format!("{name}_lo"))
                    .and_then(|lo| Ok((lo, floats(&picks, &format!("{name}_hi"))?)));
                Ok((0..mean.len())
                    .map(|i| match &bounds {
                        Ok((lo, hi)) if lo[i].is_finite() && hi[i].is_finite() => {
                            format!("{} [{}, {}]", fmt4(mean[i]), fmt4(lo[i]), fmt4(hi[i]))
                        }
                        _ => fmt4(mean[i]),
                    })
                    .collect())
            };
            let (with, without) = (chips("chips_per_round_with_hate")?, chips("chips_per_round_without_hate")?);
            // Tables written before the measures table held these chips gave intervals over
            // seat-rounds; since then, over deal groups as the measures table does.
            let declared = load(dir, "measures")?
                .and_then(|m| texts(&m, "measure").ok())
                .is_some_and(|names| names.iter().any(|n| n == "chips_per_round_with_hate"));
            let over = if declared { "deal groups" } else { "seat-rounds" };
            let _ = writeln!(
                md,
                "Hate picks (picks that were not the best card for the bot itself), chips per round with 95% intervals over {over}:\n\n| strategy | hate-pick rate | chips per round, rounds with a hate pick | without |\n|---|---:|---:|---:|"
            );
            for i in 0..names.len() {
                let _ = writeln!(md, "| {} | {} | {} | {} |", names[i], fmt4(rate[i]), with[i], without[i]);
            }
            // The rounds differ in more than the hate pick: a bot hate-picks where its own
            // hand can spare the pick, so the gap is no measure of what denial earns.
            md.push_str(
                "\nThe two columns compare rounds, not choices: a bot hate-picks where its hand can spare a pick, so rounds with one differ in more than the pick. What denial earns shows in a sweep of the preset's hate weight (`sweep --vary hate.draft.weight=0,0.5,1`).\n",
            );
            md.push('\n');
        }
    }
    Ok(())
}

/// The `measures` table's estimates by (strategy, measure column).
fn measure_intervals(
    table: &DataFrame,
) -> Result<std::collections::HashMap<(String, String), crate::stats::Estimate>, Error> {
    let (by, group, measure) = (texts(table, "by")?, texts(table, "group")?, texts(table, "measure")?);
    let value = with_interval(table, "value")?;
    Ok((0..by.len())
        .filter(|&i| by[i] == "strategy")
        .map(|i| {
            let e = crate::stats::Estimate { mean: value.mean[i], lo: value.lo[i], hi: value.hi[i] };
            ((group[i].clone(), measure[i].clone()), e)
        })
        .collect())
}

/// One chart per declared measure shown in the wide tables, by strategy, with its 95%
/// interval, read from the `measures` table (no code per game).
pub(super) fn measures_section(
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
    let mut of_the_table = Vec::new();
    // The one strategy of a table where it held every seat.
    let mut sole = None;
    for m in measures.measures.iter().filter(|m| m.shown != Shown::Hidden && !m.column.starts_with("fold_rate_r")) {
        let rows: Vec<usize> = (0..by.len()).filter(|&i| by[i] == "strategy" && measure[i] == m.column).collect();
        if rows.is_empty() || rows.iter().all(|&i| value.mean[i].is_nan() || value.mean[i] == 0.0) {
            continue;
        }
        // A figure of the whole table (a Sevens hand nobody qualifies in), where every
        // strategy sat at every unit, is one number for all: a chart would repeat it. So is
        // every figure where one strategy held every seat.
        if rows.len() == 1 {
            sole = Some(group[rows[0]].clone());
        }
        if rows.iter().all(|&i| value.mean[i] == value.mean[rows[0]] && n[i] == n[rows[0]]) {
            let i = rows[0];
            of_the_table.push(format!(
                "{} {}",
                words(&m.column),
                estimate_text(value.mean[i], value.lo[i], value.hi[i])
            ));
            continue;
        }
        let pick = |v: &[f64]| rows.iter().map(|&i| v[i]).collect::<Vec<f64>>();
        let labels: Vec<String> = rows.iter().map(|&i| group[i].clone()).collect();
        let v = WithInterval { mean: pick(&value.mean), lo: pick(&value.lo), hi: pick(&value.hi) };
        let file = format!("{prefix}{}.svg", m.column.replace('_', "-"));
        let title = format!("{} by strategy", capitalised(&words(&m.column)));
        let y = words(&m.column);
        let axes = charts::Axes::new(&title, "", &y, &labels);
        whisker_chart(out, &file, &axes, &v, &strategy_colours(palette, &labels), true)?;
        let most = pick(&n).into_iter().fold(0.0, f64::max);
        image(
            md,
            &file,
            &title,
            &format!(
                "{} {} ({}), by strategy, with 95% intervals over deal groups (all seatings of a deal are one observation; over units where the groups are too few or all alike); up to {most:.0} observations per strategy.",
                leader_sentence(&labels, &v, &y, None),
                capitalised(&m.column.replace('_', " ")),
                m.description
            ),
        );
    }
    match (sole, of_the_table.is_empty()) {
        (_, true) => {}
        (Some(sole), false) => {
            let _ = writeln!(
                md,
                "Figures of the table, `{sole}` at every seat, with 95% intervals: {}.\n",
                of_the_table.join("; ")
            );
        }
        (None, false) => {
            let _ = writeln!(
                md,
                "The same for every strategy, since every strategy sat at every {} (figures of the table): {}.\n",
                measures.unit,
                of_the_table.join("; ")
            );
        }
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
pub(super) fn histogram_section(
    md: &mut String,
    table: &DataFrame,
    out: &OutputDir,
    prefix: &str,
    histograms: &[&crate::sim::Histogram],
) -> Result<(), Error> {
    let bin_column = histograms[0].bin_column.as_str();
    // The first histogram's shares over deal groups, the same on each strategy's row
    // (absent from tables written before they were counted).
    let grouped = [format!("{}_share_lo", histograms[0].key), format!("{}_share_hi", histograms[0].key)];
    let has_grouped = grouped.iter().all(|c| table.column(c).is_ok());
    let mut aggs: Vec<Expr> = histograms.iter().map(|h| col(h.key.as_str()).sum()).collect();
    if has_grouped {
        aggs.extend(grouped.iter().map(|c| col(c.as_str()).first()));
    }
    let agg = table
        .clone()
        .lazy()
        .group_by_stable([col(bin_column)])
        .agg(aggs)
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
    let x = words(bin_column);
    let axes = charts::Axes::new(&title, &x, "share", &names);
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
    // Every bin, those never observed too: left out, they would shift both ranks.
    let bins: Vec<usize> = (0..names.len()).collect();
    let mut by_rarity = bins.clone();
    by_rarity.sort_by(|&a, &b| finished[b].total_cmp(&finished[a]).then(a.cmp(&b)));
    // A category disagrees only where the counts show it: a higher one surely more common
    // (their 95% intervals apart), not a rank swapped by noise.
    let n = totals[0].max(0.0) as u64;
    // Over deal groups (every seating of a deal one observation) where the table has it;
    // a category too rare or too common for that, by Wilson over single hands.
    let (lo, hi) = match has_grouped {
        true => (floats(&agg, &grouped[0])?, floats(&agg, &grouped[1])?),
        false => (vec![f64::NAN; names.len()], vec![f64::NAN; names.len()]),
    };
    let by_hand: Vec<usize> = (0..names.len()).filter(|&i| lo[i].is_nan() || hi[i].is_nan()).collect();
    let interval: Vec<crate::stats::Estimate> = (0..names.len())
        .map(|i| match by_hand.contains(&i) {
            true => crate::stats::wilson(finished[i], n),
            false => crate::stats::Estimate { mean: share_f[i], lo: lo[i], hi: hi[i] },
        })
        .collect();
    let surely_more = |a: usize, b: usize| interval[a].lo > interval[b].hi;
    let wilson = format!(
        "Wilson over {} observations, each hand one: hands of one deal's seatings are alike, so these intervals are narrower than intervals over deal groups would be",
        thousands(n as f64)
    );
    let how = if by_hand.len() == names.len() {
        wilson
    } else if by_hand.is_empty() {
        "over deal groups, every seating of a deal one observation".to_string()
    } else {
        format!(
            "over deal groups, every seating of a deal one observation; for {}, too rare or too common for that, {wilson}",
            by_hand.iter().map(|&i| format!("`{}`", names[i])).collect::<Vec<_>>().join(", ")
        )
    };
    let _ = writeln!(
        md,
        "Ranking by rarity against the standard ranking (1 = lowest hand); a category is flagged where a higher one is surely more common, or a lower one surely rarer (95% intervals apart, {how}):\n\n| {bin_column} | {} share (95% interval) | {} share | standard rank | rank by rarity | |\n|---|---:|---:|---:|---:|---|",
        histograms[0].key.replace('_', " "),
        histograms.get(1).map_or("-".to_string(), |h| h.key.replace('_', " "))
    );
    let mut flagged = 0;
    for (std_rank, &i) in bins.iter().enumerate() {
        let rarity_rank = by_rarity.iter().position(|&x| x == i).expect("every bin is ranked") + 1;
        let (lower, higher) = bins.split_at(std_rank);
        // Each flag names what it disagrees with, so a table of flags still says where.
        let listed = |js: Vec<usize>| js.iter().map(|&j| format!("`{}`", names[j])).collect::<Vec<_>>().join(", ");
        let rarer_than = listed(higher[1..].iter().copied().filter(|&j| surely_more(j, i)).collect());
        let commoner_than = listed(lower.iter().copied().filter(|&j| surely_more(i, j)).collect());
        let flag = match (rarer_than.is_empty(), commoner_than.is_empty()) {
            (true, true) => String::new(),
            (false, true) => format!("⚑ disagrees: rarer than higher-ranked {rarer_than}"),
            (true, false) => format!("⚑ disagrees: commoner than lower-ranked {commoner_than}"),
            (false, false) => format!(
                "⚑ disagrees: rarer than higher-ranked {rarer_than}; commoner than lower-ranked {commoner_than}"
            ),
        };
        flagged += usize::from(!flag.is_empty());
        let _ = writeln!(
            md,
            "| {} | {} [{}, {}] | {} | {} | {} | {} |",
            names[i],
            fmt4(share_f[i]),
            fmt4(interval[i].lo),
            fmt4(interval[i].hi),
            fmt4(share_w[i]),
            std_rank + 1,
            rarity_rank,
            flag
        );
    }
    md.push('\n');
    if flagged == bins.len() {
        let _ = writeln!(
            md,
            "Every category disagrees with the ranking somewhere: these hands' rarity does not follow it (where players choose which cards to show, the shares count their choices, not the deal).\n"
        );
    }
    Ok(())
}

/// `name` and a third-person verb phrase ("scores most"), in the second person where the
/// name is the person who played (`play`'s seat `you`).
fn person(name: &str, phrase: &str) -> String {
    match phrase.split_once(' ') {
        Some((verb, rest)) if name == crate::outside::HUMAN => {
            format!("{name} {} {rest}", verb.strip_suffix('s').unwrap_or(verb))
        }
        _ => format!("{name} {phrase}"),
    }
}

#[cfg(test)]
mod tests {
    use polars::prelude::*;

    /// A category is flagged only where the counts show the ranking inverted: a higher one
    /// surely more common, not one a few observations apart.
    #[test]
    fn rarity_flags_only_inversions_the_counts_show() {
        let bins = ["low", "mid", "high", "top"];
        let h = crate::sim::Histogram {
            key: "finished".into(),
            table: "categories".into(),
            bin_column: "category".into(),
            bins: bins.iter().map(|b| b.to_string()).collect(),
            offset: 0,
            ranked: true,
            description: "hands".into(),
        };
        let dir = std::env::temp_dir().join(format!("draftsim-rarity-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let out = crate::output::OutputDir::create(&dir, false).unwrap();
        let flagged = |counts: [f64; 4]| -> (Vec<bool>, String) {
            let table = df!("category" => bins, "finished" => counts).unwrap();
            let mut md = String::new();
            super::histogram_section(&mut md, &table, &out, "h", &[&h]).unwrap();
            let flags = bins
                .iter()
                .map(|b| md.lines().any(|l| l.starts_with(&format!("| {b} |")) && l.contains("disagrees")))
                .collect();
            (flags, md)
        };
        // mid and high swapped by 2 in 1,000: noise, no flag.
        let (flags, md) = flagged([500.0, 200.0, 202.0, 98.0]);
        assert_eq!(flags, [false; 4], "{md}");
        assert!(md.contains("| low | 0.5000 [0.4691, 0.5309] |"), "{md}");
        // top surely commoner than mid and high: those three flagged, low not.
        let (flags, md) = flagged([500.0, 150.0, 100.0, 250.0]);
        assert_eq!(flags, [false, true, true, true], "{md}");
        // A category never seen keeps its place: the rarest, below a higher one seen.
        let (flags, md) = flagged([500.0, 200.0, 0.0, 98.0]);
        assert_eq!(flags, [false, false, true, true], "{md}");
        assert!(
            md.lines().any(|l| l.starts_with("| high | 0.0000 [")
                && l.ends_with("| 3 | 4 | ⚑ disagrees: rarer than higher-ranked `top` |")),
            "{md}"
        );
        assert!(
            md.lines().any(|l| l.starts_with("| top |")
                && l.ends_with("| 4 | 3 | ⚑ disagrees: commoner than lower-ranked `high` |")),
            "{md}"
        );
        // Flags on both sides name both; a table all flagged says so once.
        let (flags, md) = flagged([50.0, 150.0, 100.0, 300.0]);
        assert_eq!(flags, [true; 4], "{md}");
        assert!(
            md.lines().any(|l| l.starts_with("| mid |")
                && l.ends_with("⚑ disagrees: rarer than higher-ranked `top`; commoner than lower-ranked `low` |")),
            "{md}"
        );
        assert!(md.contains("Every category disagrees"), "{md}");
        let (_, md) = flagged([500.0, 150.0, 100.0, 250.0]);
        assert!(!md.contains("Every category disagrees"), "{md}");
        // Intervals over deal groups where the table has them: wider ones (a deal's
        // seatings alike) take back the flags single hands would raise; a category without
        // one keeps Wilson's, and is named.
        let table = df!(
            "category" => bins,
            "finished" => [500.0, 150.0, 100.0, 250.0],
            "finished_share_lo" => [0.40, 0.05, 0.02, f64::NAN],
            "finished_share_hi" => [0.60, 0.25, 0.18, f64::NAN]
        )
        .unwrap();
        let mut md = String::new();
        super::histogram_section(&mut md, &table, &out, "h", &[&h]).unwrap();
        assert!(md.contains("| mid | 0.1500 [0.0500, 0.2500] |"), "{md}");
        assert!(md.contains("95% intervals apart, over deal groups, every seating of a deal one observation; for `top`, too rare or too common for that, Wilson over 1,000 observations"), "{md}");
        // Over single hands mid, high and top were flagged; now top is surely commoner
        // than high alone, not than mid.
        let flagged: Vec<&str> = md.lines().filter(|l| l.contains("disagrees")).collect();
        assert_eq!(flagged.len(), 2, "{md}");
        assert!(
            flagged[1].starts_with("| top |") && flagged[1].ends_with("commoner than lower-ranked `high` |"),
            "{md}"
        );
    }

    #[test]
    fn the_person_who_played_is_spoken_to() {
        assert_eq!(super::person("you", "scores least"), "you score least");
        assert_eq!(super::person("tight", "scores least"), "tight scores least");
    }
}
