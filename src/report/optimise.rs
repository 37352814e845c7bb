//! Tune and exploit: the optimiser's convergence, the winner and the runners-up on held-out deals.

use super::*;

/// A tune or exploit folder: the winner and runners-up with held-out figures beside the
/// in-search ones, and the search's convergence.
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
    let better = if what == "payoff" { "higher" } else { "lower" };
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
    let _ = writeln!(
        md,
        "{question} ({better} is better): {} candidate{} raced on common deals; the best re-evaluated on held-out deals the search never played. Only the held-out figures should be quoted; the in-search figures of the best can flatter them (the winner's curse).\n",
        candidates.height(),
        if candidates.height() == 1 { "" } else { "s" }
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
    let unmet = texts(candidates, "constraint").unwrap_or_default();
    let headline = ranked.first().map(|&i| {
        format!(
            "{question}: {} {}, held-out {what} {} [{}, {}] ({better} is better){}.",
            if candidates.height() == 1 { "the only setting tried is" } else { "the best setting is" },
            setting(i),
            fmt4(held.mean[i]),
            fmt4(held.lo[i]),
            fmt4(held.hi[i]),
            if unmet.get(i).is_some_and(|c| c == "not met") {
                "; **it does not meet the constraint on the held-out deals**, so its figure includes the penalty"
            } else {
                ""
            }
        )
    });
    if let Some(trace) = load(dir, "convergence")? {
        let mut spent = floats(&trace, "rounds_spent")?;
        let mut best = with_interval(&trace, &format!("best_{what}"))?;
        // Under constraints the first bests may still pay a shortfall's penalty, far off
        // the scale of the rest: leave out those more than a hundredth of a penalty above
        // the final best, and say so.
        let penalised = if has(candidates, "constraint") {
            let last = best.mean.last().copied().unwrap_or(f64::NAN);
            let far = |v: f64| (v - last).abs() > crate::study::tune::PENALTY / 100.0;
            let n = best.mean.iter().take_while(|&&v| far(v)).count();
            for column in [&mut spent, &mut best.mean, &mut best.lo, &mut best.hi] {
                column.drain(..n);
            }
            n
        } else {
            0
        };
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
                "Each point is a new best in-search {what}, against the units of play spent so far (x axis, not to scale), with its 95% interval. Every estimate that beat all earlier ones is a point; an estimate on few deals is noisy, so the line can end better than the winner's final in-search figure in the table. A flat tail means more budget would not have changed the answer; the held-out figures above are the ones to trust.{}",
                if penalised == 0 {
                    String::new()
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
