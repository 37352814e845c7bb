//! The solver's sections: a training curve (`draftsim train`) and the exploitability of
//! each strategy (`draftsim exploitability`).

use super::*;

/// How a policy's exploitability fell as it trained.
pub(super) fn training_section(
    page: &mut Page,
    t: &DataFrame,
    out: &OutputDir,
    prefix: &str,
    bounded: bool,
) -> Result<(), Error> {
    let md = page.at(Question::Skill);
    let iterations = floats(t, "iterations")?;
    let seconds = floats(t, "seconds")?;
    let n = iterations.len();
    if n == 0 {
        return Ok(());
    }
    // A sampled run over a forward model has no exact exploitability to chart.
    let (Ok(expl), Ok(value)) = (floats(t, "exploitability"), floats(t, "value_seat0")) else {
        let sets = floats(t, "information_sets")?;
        // Where the report holds `draftsim exploitability`'s table, the bound is on this page.
        let (bound, headline) = match bounded {
            true => (
                "the exploitability section of this report bounds it from below by play",
                "bounded from below in this report's exploitability section",
            ),
            false => (
                "`draftsim exploitability` bounds the policy from below by play",
                "bounded by `draftsim exploitability`, not here",
            ),
        };
        let _ = writeln!(
            md,
            "Trained {:.0} iterations in {:.1} s over {:.0} information sets of the game's abstraction. No best response is exact for a game this large: {bound}, and `run` shows how it fares against the presets.\n",
            iterations[n - 1],
            seconds[n - 1],
            sets[n - 1]
        );
        page.headline(
            Question::Skill,
            format!(
                "A policy trained {:.0} iterations over {:.0} information sets; its distance from optimal is {headline}.",
                iterations[n - 1],
                sets[n - 1]
            ),
        );
        return Ok(());
    };
    let labels: Vec<String> = iterations.iter().map(|i| format!("{i:.0}")).collect();
    let file = format!("{prefix}training.svg");
    // Exploitability falls by orders of magnitude: drawn as its base-10 logarithm.
    let logs: Vec<f64> = expl.iter().map(|e| if *e > 0.0 { e.log10() } else { f64::NAN }).collect();
    let axes = charts::Axes::new(
        "Exploitability of the average policy as it trains",
        "iterations (1, 2, 5, 10, ...; not to scale)",
        "log10 exploitability (lower is closer to an equilibrium)",
        &labels,
    );
    let series = charts::Series { name: String::new(), colour: charts::NEUTRAL, values: logs, band: None };
    charts::lines(&out.path().join(&file), &axes, &[series])?;
    let sentence = format!(
        "After {:.0} iterations ({:.1} s) a best response gains {:.6} chips a hand on average over the players against the policy; seat 0's value is {:+.6}. The lower this figure, the closer the policy is to an equilibrium of these rules (where it is 0).",
        iterations[n - 1],
        seconds[n - 1],
        expl[n - 1],
        value[n - 1]
    );
    // The figure is the finding, so it stands outside the chart: a report with more charts
    // than it draws leaves the chart out, not the figure.
    image(
        md,
        &file,
        axes.title,
        "A line that keeps falling says more iterations would bring the policy closer still; a flat end, that the training has done what it can.",
    );
    let _ = writeln!(md, "{sentence}\n");
    page.headline(
        Question::Skill,
        format!(
            "The trained policy's exploitability is {} after {} iterations (0 at an equilibrium).",
            // Below the sixth decimal in exponent form: a tiny figure is not a zero.
            if expl[n - 1] != 0.0 && expl[n - 1].abs() < 1e-6 {
                format!("{:.1e}", expl[n - 1])
            } else {
                format!("{:.6}", expl[n - 1])
            },
            super::optimise::thousands(iterations[n - 1])
        ),
    );
    Ok(())
}

/// A lower bound by play in words: "at least x [lo, hi]" where its interval lies above 0;
/// else the estimate with its interval and that it is not shown above 0, since then the
/// responders may gain nothing at all; where none gained, that, and no interval of no width
/// that would read as a proof.
fn lower_bound(x: f64, lo: f64, hi: f64, responder: &str) -> String {
    if responder == "none gained" && hi > 0.0 {
        format!("no responder gained: no bound above 0 (the responders' intervals reach {hi:.3})")
    } else if responder == "none gained" {
        "no responder gained: no bound above 0".to_string()
    } else if lo > 0.0 {
        format!("at least {x:.3} [{lo:.3}, {hi:.3}]")
    } else {
        format!("{x:.3} [{lo:.3}, {hi:.3}], not shown above 0")
    }
}

/// Every responder's gain against every strategy: what beats each, and by how much.
fn responses_table(md: &mut String, r: &DataFrame, unit: &str) -> Result<(), Error> {
    let (strategy, responder) = (texts(r, "strategy")?, texts(r, "responder")?);
    let gain = with_interval(r, "gain")?;
    let _ = writeln!(
        md,
        "What each responder gains at one seat against the strategy at every other, {unit}, with its plain 95% interval: a gain wholly above 0 is a way to beat the strategy. The bound above widens each interval for the number of responders, so a gain above 0 here alone may not set a bound there.\n\n| strategy | responder | gain | above 0 |\n|---|---|---|---|"
    );
    for i in 0..strategy.len() {
        let beats = if gain.lo[i] > 0.0 { "yes" } else { "no" };
        let _ = writeln!(
            md,
            "| {} | {} | {:+.3} [{:+.3}, {:+.3}] | {beats} |",
            strategy[i], responder[i], gain.mean[i], gain.lo[i], gain.hi[i]
        );
    }
    md.push('\n');
    Ok(())
}

/// Each strategy's exploitability, as a table with a sentence: exact figures, or lower
/// bounds by play ("at least x [lo, hi]") with the responder that set them.
pub(super) fn exploitability_section(
    page: &mut Page,
    t: &DataFrame,
    responses: Option<&DataFrame>,
    measures: Option<&Measures>,
    players: Option<u64>,
) -> Result<(), Error> {
    // Past two players a best response to a profile is no distance to an equilibrium (which
    // need not be unique, nor what strong players play): said beside every claim of closeness.
    let many = players
        .filter(|&p| p > 2)
        .map(|p| format!(" At {p} players exploitability is a quality signal, not a distance to an equilibrium."));
    let many = many.as_deref().unwrap_or("");
    // The game's score unit (chips per hand), where the folder names its game.
    let unit = measures.map_or("per unit of play".to_string(), |m| format!("in {}", m.score_words()));
    let md = page.at(Question::Skill);
    let names = texts(t, "strategy")?;
    let expl = floats(t, "exploitability")?;
    let method = texts(t, "method")?;
    // Tables written before the lower bound existed hold exact figures only.
    let lower = texts(t, "bound").is_ok_and(|b| b.iter().any(|b| b == "lower"));
    if lower {
        let (lo, hi) = (floats(t, "exploitability_lo")?, floats(t, "exploitability_hi")?);
        let responder = texts(t, "best_responder")?;
        let _ = writeln!(md, "| strategy | exploitability | best responder | method |\n|---|---|---|---|");
        for i in 0..names.len() {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} |",
                names[i],
                lower_bound(expl[i], lo[i], hi[i], &responder[i]),
                responder[i],
                method[i]
            );
        }
        // Ranked by the estimate the table shows; its interval says whether the responders
        // told the strategy from optimal at all.
        let most = (0..names.len()).max_by(|&a, &b| expl[a].total_cmp(&expl[b]));
        if let Some(m) = most {
            let bound = |i: usize| lower_bound(expl[i], lo[i], hi[i], &responder[i]);
            let _ = write!(
                md,
                "\nEach figure is a lower bound: what the best responder tried gains at one seat against the strategy at every other seat, {unit}, with its interval; the true distance from optimal is at least this.{many} "
            );
            let text = if expl[m] <= 0.0 {
                let _ = writeln!(
                    md,
                    "No responder tried gains against any strategy here: that says nothing of how far they are from optimal, only that these responders did not find a way to beat them.\n"
                );
                format!(
                    "No best response tried gains against {}: these responders found no distance from optimal, which does not show them near it.",
                    names.join(", ")
                )
            } else {
                // The caution rests on a strategy shown beatable (its interval above 0): the
                // most exploitable of those.
                let beaten = (0..names.len()).filter(|&i| lo[i] > 0.0).max_by(|&a, &b| expl[a].total_cmp(&expl[b]));
                let why = match beaten {
                    Some(k) => format!(
                        "A finding that rests on players as easy to beat as {} may not hold among strong ones.",
                        names[k]
                    ),
                    None => format!(
                        "No interval lies above 0: the responders tried showed no strategy here beatable, which does not show any near optimal (the widest interval reaches {:.3}; more --rounds narrow them).",
                        hi.iter().copied().filter(|h| h.is_finite()).fold(0.0, f64::max)
                    ),
                };
                // The most exploitable shown is the largest figure among those shown above 0
                // (a larger figure whose interval reaches 0 is not shown to be more).
                let m = beaten.unwrap_or(m);
                // Without an interval above 0 the largest figure is noise, not "the most
                // exploitable".
                let _ = match beaten {
                    Some(_) => writeln!(md, "The most exploitable here is {} ({}). {why}\n", names[m], bound(m)),
                    None => writeln!(
                        md,
                        "The largest figure is {}'s ({}), but {}\n",
                        names[m],
                        bound(m),
                        lowercase_first(&why)
                    ),
                };
                // Named apart only where its figure is lower: at a tie none is least. A low
                // bound is not closeness to optimal: stronger responders may find more.
                // Least among the bounds shown above 0: a bound that is not says no more than
                // that the responders found nothing.
                let least = (0..names.len())
                    .filter(|&i| lo[i] > 0.0)
                    .min_by(|&a, &b| expl[a].total_cmp(&expl[b]))
                    .filter(|&l| expl[l] < expl[m]);
                // Those whose bound is not shown above 0: no responder told them from
                // optimal, which does not make them near it.
                let unshown = || {
                    let rest: Vec<&str> =
                        (0..names.len()).filter(|&i| lo[i] <= 0.0).map(|i| names[i].as_str()).collect();
                    if rest.is_empty() {
                        String::new()
                    } else {
                        format!(" Against {} no bound is shown above 0.", and_list(&rest))
                    }
                };
                match least {
                    _ if beaten.is_none() => format!(
                        "No best response tried beats any strategy here beyond noise (the largest figure is {}'s, {}), which does not show any near optimal: more --rounds narrow the intervals.",
                        names[m],
                        bound(m)
                    ),
                    Some(l) => format!(
                        "By the best responses tried, {} is {} from optimal {unit}; of the strategies they were shown to beat, they gained least against {} ({}), a bound from below that does not say it is closer to optimal.{} {why}",
                        names[m],
                        bound(m),
                        names[l],
                        bound(l),
                        unshown()
                    ),
                    None => format!(
                        "By the best responses tried, {} is {} from optimal {unit}.{} {why}",
                        names[m],
                        bound(m),
                        unshown()
                    ),
                }
            };
            page.headline(Question::Skill, format!("{text}{many}"));
        }
        if let Some(r) = responses.filter(|r| r.height() > 0) {
            responses_table(page.at(Question::Skill), r, &unit)?;
        }
        return Ok(());
    }
    // Tables written before exact figures carried intervals have none.
    let ends = floats(t, "exploitability_lo").and_then(|lo| Ok((lo, floats(t, "exploitability_hi")?))).ok();
    let figure = |i: usize| match &ends {
        // One decision a set leaves no interval (NaN at both ends).
        Some((lo, hi)) if lo[i] != hi[i] && lo[i].is_finite() => format!("{:.6} [{:.6}, {:.6}]", expl[i], lo[i], hi[i]),
        _ => format!("{:.6}", expl[i]),
    };
    let _ = writeln!(md, "| strategy | exploitability | method |\n|---|---|---|");
    for i in 0..names.len() {
        let _ = writeln!(md, "| {} | {} | {} |", names[i], figure(i), method[i]);
    }
    let best = (0..names.len()).min_by(|&a, &b| expl[a].total_cmp(&expl[b]));
    if let Some(b) = best {
        let _ = writeln!(
            md,
            "\nExploitability is what a best response wins per hand against a strategy played at every seat (0 at an equilibrium); a player asked a number of times at each information set carries the sampling noise of its answers, and its interval says how far asking again could move the figure. The closest to optimal here is {} ({}); a finding that holds only against far more exploitable players may vanish against strong ones.{many}\n",
            names[b],
            figure(b)
        );
        let worst = (0..names.len()).max_by(|&a, &b| expl[a].total_cmp(&expl[b])).unwrap_or(b);
        page.headline(
            Question::Skill,
            format!(
                "Closest to optimal: {} (exploitability {}); furthest: {} ({}).{many}",
                names[b],
                figure(b),
                names[worst],
                figure(worst)
            ),
        );
    }
    Ok(())
}

/// `text` with its first letter lower-cased, to follow a comma.
fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_lowercase().chain(chars).collect())
}
