//! Tune and exploit: the optimiser's convergence, the winner and the runners-up on held-out deals.

use super::*;

/// A tune or exploit folder: the winner and runners-up with held-out figures beside the
/// in-search ones, and the search's convergence (none for one setting: nothing was searched).
pub(super) fn optimise_section(
    page: &mut Page,
    dir: &Path,
    candidates: &DataFrame,
    meta: Option<&serde_json::Value>,
    out: &OutputDir,
    prefix: &str,
) -> Result<(), Error> {
    let columns: Vec<String> = candidates.get_column_names().iter().map(|c| c.to_string()).collect();
    let params: Vec<String> = columns.iter().skip(1).take_while(|c| *c != "stage").cloned().collect();
    let what = if has(candidates, "payoff") { "payoff" } else { "objective" };
    // A tune objective that only maximises is written as its figures, higher being better.
    let higher =
        what == "payoff" || meta.and_then(|m| m.get("higher_is_better")).and_then(|v| v.as_bool()) == Some(true);
    let better = if higher { "higher" } else { "lower" };
    let field = |k: &str| meta.and_then(|m| m.get(k)).map(|v| v.to_string().trim_matches('"').to_string());
    let tuning = field("kind").as_deref() == Some(kind::TUNE.name);
    let asked = if tuning { Question::Rules } else { Question::Skill };
    let md = page.at(asked);
    let question = match (field("kind").as_deref(), field("objective")) {
        (Some(k), Some(o)) if k == kind::TUNE.name => format!("Tuning the rules to {o}"),
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
    if candidates.height() == 1 {
        let _ = writeln!(
            md,
            "{question} ({better} is better): one setting, played on the search's deals and again on held-out deals the search never played; quote the held-out figure.\n"
        );
    } else {
        let _ = writeln!(
            md,
            "{question} ({better} is better): {} candidates raced on common deals; the best re-evaluated on held-out deals the search never played. Only the held-out figures should be quoted; the in-search figures of the best can flatter them (the winner's curse).\n",
            candidates.height()
        );
    }
    // Under constraints each row says whether it met them on its held-out deals, by the
    // figures' means (how the search ranks); the best's limits are judged on their intervals
    // below the table.
    let unmet = texts(candidates, "constraint").ok();
    if unmet.is_some() {
        let _ = writeln!(
            md,
            "Under constraints the objective {} {} per unit of a limit's shortfall, and its figure and interval include that penalty; the held-out ranks put every candidate that meets the limits first.\n",
            if higher { "loses" } else { "adds" },
            crate::study::tune::PENALTY
        );
    }
    let (head, rule) = if unmet.is_some() { (" constraint (by the means) |", "---|") } else { ("", "") };
    let _ = writeln!(
        md,
        "| rank | setting | held-out {what} (95% interval) | in-search {what} | last stage |{head}\n|---|---|---|---|---|{rule}"
    );
    let mut ranked: Vec<usize> = (0..rank.len()).filter(|&i| rank[i] > 0.0).collect();
    ranked.sort_by(|&a, &b| rank[a].total_cmp(&rank[b]));
    for &i in &ranked {
        let met = unmet.as_ref().map_or(String::new(), |c| format!(" {} |", c[i]));
        let _ = writeln!(
            md,
            "| {} | {} | {} ({} to {}) | {} ({} to {}) | {} |{met}",
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
    // The starting point on the same held-out deals (folders written before it was played
    // lack it); a bound JSON could not hold (one deal gives none) reads as no bound.
    let given = meta.and_then(|m| m.get("as_given")).and_then(|g| {
        let at = |k: String| g.get(&k).and_then(|v| v.as_f64());
        let bound = |k: String| at(k).unwrap_or(f64::NAN);
        Some(Estimate { mean: at(what.to_string())?, lo: bound(format!("{what}_lo")), hi: bound(format!("{what}_hi")) })
    });
    let figure = |e: &Estimate, (open, to, close): (&str, &str, &str)| {
        if e.lo.is_finite() && e.hi.is_finite() {
            format!("{} {open}{}{to}{}{close}", fmt4(e.mean), fmt4(e.lo), fmt4(e.hi))
        } else {
            format!("{} (no interval)", fmt4(e.mean))
        }
    };
    let given_name = if tuning {
        "the rules as given".to_string()
    } else {
        format!("the preset as given (`{}`)", field("preset").unwrap_or_default())
    };
    if let Some(g) = given {
        let met = match meta.and_then(|m| m.get("as_given")).and_then(|g| g.get("constraint_met")) {
            Some(serde_json::Value::Bool(false)) if unmet.is_some() => " not met |",
            _ if unmet.is_some() => " met |",
            _ => "",
        };
        let _ = writeln!(md, "| – | {given_name} | {} | – | – |{met}", figure(&g, ("(", " to ", ")")));
    }
    md.push('\n');
    // The best's own figures on its held-out deals, each limit judged on its interval as the
    // command said it: a limit met by the mean may still fail.
    let held_figures = meta.and_then(|m| m["held_out_figures"].as_object()).filter(|f| !f.is_empty());
    if let Some(figures) = held_figures {
        let _ = writeln!(md, "The best's figures on its held-out deals, each limit judged on its 95% interval:\n");
        for (name, f) in figures {
            let number = |k: &str| f[k].as_f64().unwrap_or(f64::NAN);
            let limits: Vec<String> = (f["limits"].as_array().into_iter().flatten().filter_map(|l| l.as_str()))
                .map(|l| match l.split_once(": ") {
                    Some((limit, verdict)) => format!("`{limit}` {verdict}"),
                    None => format!("`{l}`"),
                })
                .collect();
            let limits = if limits.is_empty() { String::new() } else { format!("; {}", limits.join("; ")) };
            let _ = writeln!(
                md,
                "- `{name}`: {} [{}, {}]{}{limits}",
                fmt4(number("mean")),
                fmt4(number("lo")),
                fmt4(number("hi")),
                if number("lo") == number("hi") { " (every held-out deal alike)" } else { "" }
            );
        }
        md.push('\n');
    }
    let unmet = unmet.unwrap_or_default();
    // Runners-up whose held-out interval overlaps the best's are level with it: named by
    // the settings where they differ.
    let level = |best: usize| -> String {
        let differing = |j: usize| -> String {
            (params.iter().zip(&settings))
                .filter(|(_, v)| v[j] != v[best])
                .map(|(p, v)| format!("`{p}={}`", v[j]))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let tied: Vec<String> = (ranked.iter().skip(1))
            .filter(|&&j| held.lo[j] <= held.hi[best] && held.hi[j] >= held.lo[best])
            .map(|&j| differing(j))
            .collect();
        match tied.len() {
            0 => String::new(),
            1 => format!("; the runner-up {} is level with it within the intervals", tied[0]),
            n => format!("; {n} runners-up are level with it within the intervals ({})", tied.join(", ")),
        }
    };
    let headline = ranked.first().map(|&i| {
        format!(
            "{question}: {} {}, held-out {what} {} [{}, {}]{} ({better} is better){}{}{}.",
            if candidates.height() == 1 { "the only setting tried is" } else { "the best setting is" },
            setting(i),
            fmt4(held.mean[i]),
            fmt4(held.lo[i]),
            fmt4(held.hi[i]),
            // An interval of no width bounds nothing a rarer deal might change.
            if held.lo[i] == held.hi[i] { " (every held-out deal alike)" } else { "" },
            level(i),
            if unmet.get(i).is_some_and(|c| c == "not met") {
                "; **it does not meet the constraint on the held-out deals**, so its figure includes the penalty"
            } else {
                ""
            },
            given.map_or(String::new(), |g| {
                // Scores as shown, turned so that lower is better.
                let (b, g2) = if higher {
                    (
                        Estimate { mean: -held.mean[i], lo: -held.hi[i], hi: -held.lo[i] },
                        Estimate { mean: -g.mean, lo: -g.hi, hi: -g.lo },
                    )
                } else {
                    (Estimate { mean: held.mean[i], lo: held.lo[i], hi: held.hi[i] }, g)
                };
                let verdict = if b.hi < g2.lo {
                    "which the best beats"
                } else if g2.hi < b.lo {
                    "better than the best"
                } else if g2.mean == b.mean {
                    "exactly as the best: the objective does not tell them apart here, and the search found nothing that does better"
                } else if g2.mean < b.mean {
                    "ahead of the best within the intervals: the search found nothing shown to do better"
                } else {
                    "not told apart from the best"
                };
                format!("; {given_name} scores {} on the same deals, {verdict}", figure(&g, ("[", ", ", "]")))
            })
        )
    });
    let trace = load(dir, "convergence")?;
    if let Some(trace) = trace.filter(|_| candidates.height() > 1) {
        let mut spent = floats(&trace, "rounds_spent")?;
        let mut best = with_interval(&trace, &format!("best_{what}"))?;
        // Under constraints the first bests may still pay a shortfall's penalty, off the
        // scale of the rest: leave them out, and say so. The trace says which did; one
        // written before it did is judged by distance, those more than a hundredth of a
        // penalty from the final best.
        let penalised = if has(candidates, "constraint") {
            let n = if has(&trace, "constraint") {
                let met = texts(&trace, "constraint")?;
                // All of them left out would leave no line: a search that never met them
                // shows its penalties.
                let n = met.iter().take_while(|m| *m != "met").count();
                if n == met.len() { 0 } else { n }
            } else {
                let last = best.mean.last().copied().unwrap_or(f64::NAN);
                let far = |v: f64| (v - last).abs() > crate::study::tune::PENALTY / 100.0;
                best.mean.iter().take_while(|&&v| far(v)).count()
            };
            for column in [&mut spent, &mut best.mean, &mut best.lo, &mut best.hi] {
                column.drain(..n);
            }
            n
        } else {
            0
        };
        // The line runs on, flat, to everything the search spent: no later estimate beat
        // the last best.
        let total = floats(candidates, "rounds").map_or(0.0, |r| r.iter().filter(|r| r.is_finite()).sum());
        let total = spent.last().map_or(total, |&last| total.max(last));
        let file = format!("{prefix}convergence.svg");
        let title = format!("Best in-search {what} so far, by units of play spent");
        let y = format!("best {what} so far ({better} is better)");
        let mut axes = charts::Axes::new(&title, "units of play spent in the search", &y, &[]);
        axes.scale = &spent;
        axes.step_to = Some(total);
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
                "Quote the held-out figures above, not these: a line that stops improving early says more budget found nothing better, unless its last point rests on few deals (an estimate of a candidate dropped in an early round is noisy, and can stand as the best to the end). Each point is a new best in-search {what}, at the units of play the search had spent when it was found, with its 95% interval; each holds until the next, and the last to the {} units the search spent in all (the held-out deals apart). Every estimate that beat all earlier ones is a point, so the line can end better than the winner's final in-search figure in the table.{}",
                thousands(total),
                if penalised == 0 {
                    String::new()
                } else if penalised == 1 {
                    " The first best, which still paid a constraint's penalty, is left out so the scale shows the search."
                        .to_string()
                } else {
                    format!(
                        " The first {penalised} bests, which still paid a constraint's penalty, are left out so the scale shows the search."
                    )
                }
            ),
        );
    }
    if let Some(text) = headline {
        page.headline(asked, text);
    }
    Ok(())
}

pub(super) use crate::output::thousands;
