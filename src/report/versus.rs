//! Versus: rule set B against A on the same deals, the verdict first, then a chart of what
//! changed and the table.

use super::*;

/// A `versus` study: the verdict in sentences, a chart of the changed and undecided
/// figures' differences in units of their smallest effect that matters, and the table of
/// the changed figures.
pub(super) fn versus_section(
    page: &mut Page,
    table: &DataFrame,
    meta: Option<&serde_json::Value>,
    out: &OutputDir,
    prefix: &str,
    measures: Option<&Measures>,
) -> Result<(), Error> {
    let figures = texts(table, "figure")?;
    let strategies = texts(table, "strategy")?;
    let (a, b) = (floats(table, "a")?, floats(table, "b")?);
    let diff = with_interval(table, "difference")?;
    let holm = floats(table, "p_holm")?;
    let min = floats(table, "min_effect")?;
    let verdicts = texts(table, "verdict")?;
    // Tables written before changes were numbered have no `change` column.
    let change = table.column("change").is_ok().then(|| floats(table, "change")).transpose()?;
    let change = change.as_deref();
    // The name `--min-effect` takes: the skill gap's strategy is A's best, not a choice.
    let name = |i: usize| {
        if strategies[i].is_empty() || figures[i] == "skill_gap" {
            figures[i].clone()
        } else {
            format!("{}:{}", figures[i], strategies[i])
        }
    };
    // In prose a strategy's figure reads as its own ("`tight`'s score"), not as the
    // table's key ("score:tight"), and a figure in the score's units says them; a chart's
    // label is kept short, without code marks.
    let spoken = |i: usize, mark: &str| {
        let unit = match (figures[i].as_str(), measures) {
            ("score" | "skill_gap", Some(m)) if !mark.is_empty() => format!(" ({})", m.score_words()),
            _ => String::new(),
        };
        match strategies[i].is_empty() {
            true => format!("{}{unit}", words(&figures[i])),
            false => format!("{mark}{}{mark}'s {}{unit}", strategies[i], words(&figures[i])),
        }
    };
    let side = |key: &str| meta.and_then(|m| m[key].as_str()).unwrap_or(key).to_string();
    let md = page.at(Question::Rules);
    let _ = writeln!(md, "B is `{}`, A is `{}`.\n", side("b"), side("a"));
    // What B changes, as the command said it: a reader of the page sees the rules, not
    // only their file names. Studies written before `differs` was kept say nothing here.
    if let Some(differs) = meta.and_then(|m| m["differs"].as_array()) {
        let differs: Vec<String> = differs.iter().filter_map(|v| v.as_str().map(str::to_string)).collect();
        if differs.is_empty() {
            let _ = writeln!(md, "A and B hold the same rules.\n");
        } else {
            let _ = writeln!(
                md,
                "B differs from A in: {}.\n",
                differs.iter().map(|d| format!("`{d}`")).collect::<Vec<_>>().join(", ")
            );
        }
        let players =
            meta.and_then(|m| m["players"].as_array()).map(|p| p.iter().filter_map(|v| v.as_u64()).collect::<Vec<_>>());
        if let Some(&[pa, pb]) = players.as_deref()
            && let Some(note) = crate::study::versus::pairing_note(
                pa as usize,
                pb as usize,
                &differs,
                figures.iter().any(|f| f == crate::study::versus::WIN_OVER_FAIR),
            )
        {
            let _ = writeln!(md, "{note}\n");
        }
    }
    // How far the seated players are from optimal, as the command warned: a verdict from a
    // weak field may not hold among strong players.
    let (mut warned, mut unread) = (0, false);
    if let Some(m) = meta
        && let Some(dir) = m["exploitability"].as_str()
    {
        let seated: Vec<(String, f64)> =
            (0..figures.len()).filter(|&i| figures[i] == "score").map(|i| (strategies[i].clone(), min[i])).collect();
        let rules = (m["rules"].as_str().unwrap_or_default(), m["rules_b"].as_str().unwrap_or_default());
        let side = |k: usize| m["players"][k].as_u64().unwrap_or(0) as usize;
        let players = (side(0), side(1));
        let game = m["game"].as_str().unwrap_or_default();
        match crate::study::versus::exploitability_warnings(Path::new(dir), game, &seated, rules, players) {
            Ok(warnings) => {
                warned = warnings.len();
                warnings.iter().for_each(|w| {
                    let _ = writeln!(md, "**Warning:** {w}.\n");
                })
            }
            Err(e) => {
                unread = true;
                let _ =
                    writeln!(md, "**Warning:** {e}; how far the seated players are from optimal is not shown here.\n");
            }
        }
    }
    let of = |v: &str| (0..figures.len()).filter(|&i| verdicts[i] == v).collect::<Vec<_>>();
    let (changed, unchanged, undecided) = (of("changed"), of("unchanged"), of("undecided"));
    if changed.is_empty() {
        let _ = writeln!(
            md,
            "**Verdict:** no figure changed by at least its smallest effect that matters (Holm-corrected, 5%).\n"
        );
    } else {
        let _ = writeln!(
            md,
            "**Verdict:** B changes {} figure{}:\n",
            changed.len(),
            if changed.len() == 1 { "" } else { "s" }
        );
        for &i in &changed {
            let _ = writeln!(
                md,
                "- {} {} from {} to {} (B - A {} [{}, {}], Holm p {}{}).",
                capitalised(&spoken(i, "`")),
                if diff.mean[i] > 0.0 { "rises" } else { "falls" },
                fmt4(a[i]),
                fmt4(b[i]),
                fmt4(diff.mean[i]),
                fmt4(diff.lo[i]),
                fmt4(diff.hi[i]),
                crate::stats::p_text(holm[i]),
                crate::study::versus::size_uncertain(
                    crate::stats::Estimate { mean: diff.mean[i], lo: diff.lo[i], hi: diff.hi[i] },
                    min[i]
                )
                .map_or(String::new(), |s| format!("; {s}"))
            );
        }
        let _ = writeln!(md);
        if let Some(words) = crate::study::versus::together_words(
            &changed.iter().filter_map(|&i| Some((spoken(i, "`"), change?[i] as usize))).collect::<Vec<_>>(),
        ) {
            let _ = writeln!(md, "{words}\n");
        }
    }
    // Figures that move together are one change seen several times (`change` numbers them).
    let separate = match change {
        Some(c) => {
            let numbers = crate::study::versus::changes(changed.iter().map(|&i| c[i] as usize));
            if numbers.len() < changed.len() { format!(", {} separate", numbers.len()) } else { String::new() }
        }
        None => String::new(),
    };
    // A figure that is zero on one side (a wild win rate where A has no wilds) says only
    // what the rules say: it leads only where every changed figure is such a one.
    let size = |x: usize| ((a[x] != 0.0 && b[x] != 0.0), (diff.mean[x] / min[x]).abs());
    let mut headline = match changed.iter().max_by(|&&x, &&y| {
        let ((x_both, x_size), (y_both, y_size)) = (size(x), size(y));
        x_both.cmp(&y_both).then(x_size.total_cmp(&y_size))
    }) {
        None => format!(
            "`{}` against `{}`: no figure changed by at least its smallest effect that matters ({} undecided).",
            side("b"),
            side("a"),
            undecided.len()
        ),
        Some(&i) => format!(
            "`{}` against `{}` changes {} figure{}{}; the largest change, in smallest effects that matter, is in {}: {} from {} to {} (B - A {} [{}, {}]){}.",
            side("b"),
            side("a"),
            changed.len(),
            if changed.len() == 1 { "" } else { "s" },
            separate,
            spoken(i, "`"),
            if diff.mean[i] > 0.0 { "up" } else { "down" },
            fmt4(a[i]),
            fmt4(b[i]),
            fmt4(diff.mean[i]),
            fmt4(diff.lo[i]),
            fmt4(diff.hi[i]),
            if undecided.is_empty() { String::new() } else { format!("; {} undecided", undecided.len()) }
        ),
    };
    // A verdict holds for the players seated: the headline says how far they are known to
    // be from optimal.
    let measured = meta.is_some_and(|m| m["exploitability"].is_string()) && !unread;
    if !measured {
        headline.push_str(
            " How far the seated players are from optimal is not measured here (`versus --exploitability DIR`).",
        );
    } else if warned > 0 {
        headline.push_str(
            " The seated players are not all shown near optimal: a stronger field could judge B otherwise (the warnings below).",
        );
    }
    // Each figure with the smallest effect that matters for it, the yardstick of its verdict.
    // In the verdict's words, with the name `--min-effect` takes: "mean decisions per unit
    // (`length_mean`, ±0.09)".
    let named = |i: usize| {
        let effect = if min[i] == 0.0 { "0".into() } else { fmt4(min[i]) };
        let said = spoken(i, "`");
        match said.strip_suffix(')') {
            // A figure whose words are its name is said once.
            _ if said == name(i) => format!("`{said}` (±{effect})"),
            Some(head) => format!("{head}; `{}`, ±{effect})", name(i)),
            None => format!("{said} (`{}`, ±{effect})", name(i)),
        }
    };
    if !unchanged.is_empty() {
        let list: Vec<String> = unchanged.iter().map(|&i| named(i)).collect();
        let _ = writeln!(
            md,
            "Unchanged (within the smallest effect that matters, given in parentheses with its `--min-effect` name, either way): {}.\n",
            list.join(", ")
        );
    }
    if !undecided.is_empty() {
        let list: Vec<String> = undecided.iter().map(|&i| named(i)).collect();
        let _ = writeln!(
            md,
            "Undecided (neither shown to change by at least its smallest effect that matters, given in parentheses with its `--min-effect` name, after Holm's correction, nor shown to stay within it; more rounds would tell): {}.\n",
            list.join(", ")
        );
        // A difference alike on every deal group (exactly 0, say) has an interval of no
        // width, which decides only over enough groups: said, or it reads as a puzzle.
        if let Ok(groups) = floats(table, "groups") {
            let alike: Vec<usize> = undecided
                .iter()
                .copied()
                .filter(|&i| {
                    crate::study::versus::alike(&crate::stats::Estimate {
                        mean: diff.mean[i],
                        lo: diff.lo[i],
                        hi: diff.hi[i],
                    }) && groups[i] < crate::study::versus::ALIKE_GROUPS as f64
                })
                .collect();
            if !alike.is_empty() {
                let list: Vec<String> = alike.iter().map(|&i| spoken(i, "`")).collect();
                let fewest = alike.iter().map(|&i| groups[i]).fold(f64::INFINITY, f64::min);
                let most = alike.iter().map(|&i| groups[i]).fold(0.0, f64::max);
                let over = if fewest == most { format!("{most:.0}") } else { format!("{fewest:.0} to {most:.0}") };
                let differences: Vec<f64> = alike.iter().map(|&i| diff.mean[i]).collect();
                let _ = writeln!(
                    md,
                    "Of these, {}, which decides a verdict only over {} deal groups or more; they were measured over {over}.\n",
                    crate::study::versus::alike_words(&list, &differences),
                    crate::study::versus::ALIKE_GROUPS
                );
            }
        }
    }
    // One chart, in units of each figure's smallest effect: past ±1 matters.
    let mut shown: Vec<usize> = changed.iter().chain(&undecided).copied().filter(|&i| min[i] > 0.0).collect();
    shown.sort_by(|&x, &y| (diff.mean[y] / min[y]).abs().total_cmp(&(diff.mean[x] / min[x]).abs()));
    let all = changed.len() + undecided.len();
    shown.truncate(12);
    if !shown.is_empty() {
        let labels: Vec<String> = shown.iter().map(|&i| spoken(i, "")).collect();
        let v = WithInterval {
            mean: shown.iter().map(|&i| diff.mean[i] / min[i]).collect(),
            lo: shown.iter().map(|&i| diff.lo[i] / min[i]).collect(),
            hi: shown.iter().map(|&i| diff.hi[i] / min[i]).collect(),
        };
        let colours: Vec<charts::Colour> = shown
            .iter()
            .map(|&i| if verdicts[i] == "changed" { charts::sequence(0, 3) } else { charts::NEUTRAL })
            .collect();
        let file = format!("{prefix}versus.svg");
        let title = "What B changes, in smallest effects that matter";
        let axes = charts::Axes::new(title, "", "B - A / smallest effect", &labels);
        whisker_chart(out, &file, &axes, &v, &colours, true)?;
        image(
            md,
            &file,
            title,
            &format!(
                "Each bar is B's difference from A divided by the smallest difference that matters for that figure: beyond 1 either way it matters.{}{}",
                if shown.iter().any(|&i| verdicts[i] != "changed") {
                    " Coloured bars are changes; grey ones are undecided: a whisker wholly past 1 is not a change until it also survives Holm's correction over every figure compared."
                } else {
                    ""
                },
                if all > shown.len() {
                    format!(
                        " The {} largest of the {all} changed or undecided figures are drawn (a figure whose smallest effect is 0 cannot be drawn in its units); the lists above name them all.",
                        shown.len()
                    )
                } else {
                    String::new()
                }
            ),
        );
    }
    page.headline(Question::Rules, headline);
    Ok(())
}
