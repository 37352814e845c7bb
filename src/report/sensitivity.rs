//! Sensitivity: each one-step deviation's paired effect, as tornado charts and a table.

use super::*;

/// A sensitivity study: for each figure some deviation moves significantly, a tornado
/// chart of the deviations' effects (largest first, with intervals), and the list of
/// significant deviations; the deviations the game refused, named with why.
pub(super) fn sensitivity_section(
    page: &mut Page,
    (table, refused): (&DataFrame, Option<&DataFrame>),
    (out, prefix): (&OutputDir, &str),
    measures: Option<&Measures>,
) -> Result<(), Error> {
    let keys = texts(table, "key")?;
    let values = texts(table, "value")?;
    let figures = texts(table, "figure")?;
    let effect = with_interval(table, "effect")?;
    let base = floats(table, "base")?;
    let holm = floats(table, "p_holm")?;
    let significant: Vec<usize> = (0..keys.len()).filter(|&i| holm[i] < 0.05).collect();
    let md = page.at(Question::Rules);
    let _ = writeln!(md, "Each rule changed one step at a time, on the base's deals.\n");
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
    // Deviations the game refused were not tried: named, so a key asked for is not taken
    // for one that moves nothing.
    let mut not_tried: Vec<String> = Vec::new();
    if let Some(r) = refused.filter(|r| r.height() > 0) {
        let (k, v, why) = (texts(r, "key")?, texts(r, "value")?, texts(r, "why")?);
        not_tried = (0..k.len()).map(|i| format!("`{}={}` ({})", k[i], v[i], why[i])).collect();
        let _ = writeln!(md, "Refused by the game, so not tried: {}.\n", not_tried.join("; "));
    }
    let refused_words = match not_tried.len() {
        0 => String::new(),
        1 => " One change asked for was refused by the game and not tried.".to_string(),
        n => format!(" {n} changes asked for were refused by the game and not tried."),
    };
    if keys.is_empty() {
        let why = match not_tried.is_empty() {
            true => "the study played too few deals for an interval (two a variant at least)",
            false => "the game refused every deviation asked for (above)",
        };
        let _ = writeln!(md, "No deviation's effect could be measured: {why}.\n");
        page.headline(Question::Rules, format!("No one-step change of the rules was measured: {why}."));
        return Ok(());
    }
    if significant.is_empty() {
        // Nothing shown is not nothing there: how much was played says how small a move
        // the study could have missed, and a change no seat used says nothing at all.
        let groups =
            floats(table, "deal_groups").ok().and_then(|g| g.into_iter().filter(|g| g.is_finite()).reduce(f64::max));
        let played = groups.map_or(String::new(), |g| format!(" over {g:.0} deal groups"));
        let used = distinct(
            &(0..keys.len())
                .filter(|&i| exercised[i] != 0.0)
                .map(|i| format!("{}={}", keys[i], values[i]))
                .collect::<Vec<_>>(),
        )
        .len();
        let _ = writeln!(
            md,
            "No one-step deviation is shown to move any figure (Holm-corrected, 5%){played}. That is not evidence that none does: each effect's interval in the folder's `sensitivity` table spans the moves the study could have missed, and more `--rounds` narrow them.{}\n",
            if unexercised.is_empty() {
                String::new()
            } else {
                " The unexercised changes above were played, but no seat used them.".to_string()
            }
        );
        let headline = match used {
            0 => format!(
                "No seated strategy used any of the one-step changes of rules played{played}, so they say nothing of the rules.{refused_words}"
            ),
            _ => format!(
                "None of the {used} one-step changes of rules the seated bots' play used is shown to move any figure (Holm-corrected, 5%){played}, which does not show that none does.{refused_words}"
            ),
        };
        page.headline(Question::Rules, headline);
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
    // The figures a designer asks about first lead: skill, seats, then how units end.
    const FIRST: [&str; 6] =
        ["skill_gap", "seat_advantage", "first_seat_edge", "completion", "drawishness", "timeouts"];
    let rank = |f: &String| FIRST.iter().position(|x| x == f).unwrap_or(FIRST.len());
    moved.sort_by_key(rank);
    // Changes counted once however many figures they move, and only those a seat used.
    let change = |i: &usize| format!("{}={}", keys[*i], values[*i]);
    let used: Vec<usize> = (0..keys.len()).filter(|&i| exercised[i] != 0.0).collect();
    let changes = distinct(&significant.iter().filter(|&&i| exercised[i] != 0.0).map(change).collect::<Vec<_>>()).len();
    let tried = distinct(&used.iter().map(change).collect::<Vec<_>>()).len();
    let mut headline = format!(
        "{changes} of the {tried} one-step changes (of rules the seated bots' play used) move some figure significantly (Holm-corrected, 5%)."
    );
    for (n, figure) in moved.iter().enumerate() {
        let mut rows: Vec<usize> = (0..keys.len()).filter(|&i| figures[i] == *figure).collect();
        rows.sort_by(|&a, &b| effect.mean[b].abs().total_cmp(&effect.mean[a].abs()));
        // The largest move shown beyond noise leads (a chart is drawn only for a figure that
        // has one), and is charted even where a dozen larger ones may be noise.
        let top = rows.iter().copied().find(|&i| holm[i] < 0.05).unwrap_or(rows[0]);
        rows.truncate(12);
        if !rows.contains(&top) {
            rows[11] = top;
        }
        let labels: Vec<String> = rows.iter().map(|&i| format!("{}={}", keys[i], values[i])).collect();
        let v = WithInterval {
            mean: rows.iter().map(|&i| effect.mean[i]).collect(),
            lo: rows.iter().map(|&i| effect.lo[i]).collect(),
            hi: rows.iter().map(|&i| effect.hi[i]).collect(),
        };
        let colours: Vec<charts::Colour> =
            rows.iter().map(|&i| if holm[i] < 0.05 { charts::sequence(0, 3) } else { charts::NEUTRAL }).collect();
        let file = format!("{prefix}sensitivity-{}.svg", n + 1);
        let title = format!("Effect of each one-step change on {}", words(figure));
        let axes = charts::Axes::new(&title, "", "change from the base", &labels);
        whisker_chart(out, &file, &axes, &v, &colours, true)?;
        // The skill gap is a score: in the game's own units (chips per round), which a
        // key that scales the stakes moves with them.
        let unit = match measures {
            Some(m) if figure == "skill_gap" => format!(", in {}", m.score_words()),
            _ => String::new(),
        };
        let beyond = if top == rows[0] { "" } else { " beyond noise" };
        let mut most = format!(
            "{}{unit} (base {}) changes most{beyond} under `{}={}`: by {} [{}, {}]",
            capitalised(&words(figure)),
            fmt4(base[top]),
            keys[top],
            values[top],
            fmt4(effect.mean[top]),
            fmt4(effect.lo[top]),
            fmt4(effect.hi[top])
        );
        // A larger move that may be noise is named after the lead, not as the change that
        // moves the figure most.
        if top != rows[0] {
            let larger = rows[0];
            most += &format!(
                " (`{}={}` moves it further, by {} [{}, {}], but not beyond noise after the Holm correction)",
                keys[larger],
                values[larger],
                fmt4(effect.mean[larger]),
                fmt4(effect.lo[larger]),
                fmt4(effect.hi[larger])
            );
        }
        let sentence =
            format!("{most}. Coloured bars are significant after the Holm correction; grey ones may be noise.");
        image(md, &file, &title, &sentence);
        if n == 0 {
            // Inside the sentence the figure's name is not capitalised.
            let mut chars = most.chars();
            let inner: String = chars.next().map_or_else(String::new, |c| c.to_lowercase().chain(chars).collect());
            headline += &format!(" Among them, {inner}.");
        }
    }
    let _ = writeln!(md, "| change | figure | base | effect | 95% interval | Holm p |\n|---|---|---:|---:|---|---:|");
    for &i in significant.iter().take(30) {
        let _ = writeln!(
            md,
            "| {}={} | {} | {} | {} | {} – {} | {} |",
            keys[i],
            values[i],
            figures[i],
            fmt4(base[i]),
            fmt4(effect.mean[i]),
            fmt4(effect.lo[i]),
            fmt4(effect.hi[i]),
            crate::stats::p_text(holm[i])
        );
    }
    let _ = writeln!(md);
    if significant.len() > 30 {
        let _ = writeln!(
            md,
            "The first 30 of {} significant rows, most significant first; `sensitivity` in the study's folder holds every row.\n",
            significant.len()
        );
    }
    headline += &refused_words;
    page.headline(Question::Rules, headline);
    Ok(())
}
