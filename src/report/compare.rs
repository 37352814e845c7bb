//! Comparisons: the pairwise matrix and the meta-game equilibrium.

use super::*;

pub(super) fn compare_section(
    page: &mut Page,
    (dir, name, matrix): (&Path, &str, &DataFrame),
    out: &OutputDir,
    prefix: &str,
    measures: Option<&Measures>,
    palette: &charts::Palette,
) -> Result<(), Error> {
    let units = measures.map_or("rounds".to_string(), Measures::units);
    // A zero-sum score (chips) is what a unit is played for: dominance and the meta-game
    // were judged by it (see `Comparison::by_score`) where the study says so; a folder from
    // before then judged them by win shares.
    let record: Option<serde_json::Value> =
        std::fs::read_to_string(dir.join("study.json")).ok().and_then(|t| serde_json::from_str(&t).ok());
    let by_score = (record.as_ref().and_then(|m| m["meta_game"].as_str()) == Some("score"))
        .then(|| measures.map(|m| m.score.pair_column.clone()))
        .flatten()
        .filter(|c| has(matrix, c));
    // The difference's column in words per the game's own unit.
    let pair_words = |column: &str| measures.map_or_else(|| column.replace('_', " "), Measures::pair_words);
    let rows = texts(matrix, "strategy")?;
    let cols = texts(matrix, "opponent")?;
    let (ws, lo, hi) = (floats(matrix, "win_share")?, floats(matrix, "win_share_lo")?, floats(matrix, "win_share_hi")?);
    let rounds = floats(matrix, "rounds")?.first().copied().unwrap_or(0.0);
    let names = distinct(&rows);
    // The table a pair played at: a win share of one half means another thing heads-up
    // than at four seats, so it is said beside the matrix, not only in the rules.
    let table_size = record.as_ref().and_then(|m| m["players"].as_u64()).map_or(String::new(), |n| {
        let seating = record.as_ref().and_then(|m| m["seating"].as_str()).map_or(String::new(), |s| format!(" ({s})"));
        format!(", at tables of {n} players{seating}")
    });
    let md = page.at(Question::WhoWins);
    let _ = writeln!(
        md,
        "Win share of the row strategy against the column strategy (0.5 = even), 95% interval; {rounds:.0} {units} per pair{table_size}.\n"
    );
    // A row strategy against each column strategy, each cell the matrix row's `cell`.
    let table = |md: &mut String, cell: &dyn Fn(usize) -> String| {
        let _ = writeln!(md, "| | {} |\n|---|{}", names.join(" | "), "---|".repeat(names.len()));
        for r in &names {
            let cells: Vec<String> = names
                .iter()
                .map(|c| (0..rows.len()).find(|&i| &rows[i] == r && &cols[i] == c).map_or("–".to_string(), cell))
                .collect();
            let _ = writeln!(md, "| **{r}** | {} |", cells.join(" | "));
        }
        md.push('\n');
    };
    table(md, &|i| format!("{:.3} ({:.3}–{:.3})", ws[i], lo[i], hi[i]));
    if let Some(column) = &by_score {
        let (d, d_lo, d_hi) = (
            floats(matrix, column)?,
            floats(matrix, &format!("{column}_lo"))?,
            floats(matrix, &format!("{column}_hi"))?,
        );
        let _ = writeln!(
            md,
            "What the {units} are played for: the {}, row minus column, 95% interval.\n",
            pair_words(column)
        );
        let sg = |x: f64| crate::output::signed(x, 3);
        table(md, &|i| format!("{} ({} to {})", sg(d[i]), sg(d_lo[i]), sg(d_hi[i])));
    }
    let shares: Vec<Vec<f64>> = names
        .iter()
        .map(|r| {
            names
                .iter()
                .map(|c| (0..rows.len()).find(|&i| &rows[i] == r && &cols[i] == c).map_or(f64::NAN, |i| ws[i]))
                .collect()
        })
        .collect();
    // Who beats whom beyond noise: the row's win share with its interval above one half.
    let beaten: Vec<usize> = names
        .iter()
        .map(|r| (0..rows.len()).filter(|&i| &rows[i] == r && &cols[i] != r && lo[i] > 0.5).count())
        .collect();
    // The first of the most and the first of the fewest, in the table's order.
    let most = (0..names.len()).min_by_key(|&i| std::cmp::Reverse(beaten[i]));
    let fewest = (0..names.len()).min_by_key(|&i| beaten[i]);
    let others = names.len().saturating_sub(1);
    let against = |k: usize| match k {
        0 => "none".to_string(),
        1 if others == 1 => "the other".to_string(),
        k if k == others => format!("all {others} others"),
        k => format!("{k} of the {others} others"),
    };
    let conclusion = match (most, fewest) {
        (Some(t), _) if beaten[t] == 0 => {
            "No strategy wins more than half against any other beyond noise (an interval wholly above 0.5).".to_string()
        }
        (Some(t), Some(b)) => format!(
            "`{}` wins more than half beyond noise (its interval wholly above 0.5) against {}{}.",
            names[t],
            against(beaten[t]),
            if beaten[b] < beaten[t] {
                format!("; `{}` against {}", names[b], against(beaten[b]))
            } else {
                String::new()
            }
        ),
        _ => String::new(),
    };
    // Units won are not what they are played for: a strategy that wins many small pots and
    // loses large ones leads the win shares and ratings while losing the score.
    let score_note = match &by_score {
        Some(column) => {
            let (d_hi, words) = (floats(matrix, &format!("{column}_hi"))?, pair_words(column));
            let misled: Vec<String> = (0..rows.len())
                .filter(|&i| rows[i] != cols[i] && lo[i] > 0.5 && d_hi[i] < 0.0)
                .map(|i| format!("`{}` against `{}`", rows[i], cols[i]))
                .collect();
            let contrary = if misled.is_empty() {
                String::new()
            } else {
                format!(
                    " Beyond noise, more {units} won yet a {words} below zero (the table above): {}.",
                    misled.join(", ")
                )
            };
            format!(
                " Win shares and ratings count {units} won, whatever their size; dominance and the meta-game below are judged by the {words}, what the {units} are played for.{contrary}"
            )
        }
        None => String::new(),
    };
    let file = format!("{prefix}matrix.svg");
    // Preset files are labelled by their file name.
    let short: Vec<String> = names.iter().map(|n| short_name(n)).collect();
    // Short enough for the chart's width (the caption says it in full), and named by its
    // folder: a page may hold several matrices.
    // A game played for its score is charted in it: the headline and dominance read it,
    // and win shares can run against it.
    if let Some(column) = &by_score {
        let (d, d_lo, d_hi) = (
            floats(matrix, column)?,
            floats(matrix, &format!("{column}_lo"))?,
            floats(matrix, &format!("{column}_hi"))?,
        );
        // Beyond noise as dominance judges it (a table written before it kept its deal
        // groups: by the lower bound alone).
        let groups = if has(matrix, "deal_groups") { floats(matrix, "deal_groups")? } else { Vec::new() };
        let above = |i: usize| {
            let e = crate::stats::Estimate { mean: d[i], lo: d_lo[i], hi: d_hi[i] };
            crate::study::versus::decides_above(&e, 0.0, groups.get(i).map_or(u64::MAX, |&g| g as u64))
        };
        let cell = |r: &String, c: &String| (0..rows.len()).find(|&i| &rows[i] == r && &cols[i] == c);
        let diffs: Vec<Vec<f64>> = names
            .iter()
            .map(|r| names.iter().map(|c| cell(r, c).filter(|_| r != c).map_or(f64::NAN, |i| d[i])).collect())
            .collect();
        // Full colour from the upper quartile of the sizes: one far weaker strategy would
        // otherwise pale every other cell.
        let mut sizes: Vec<f64> = diffs.iter().flatten().filter(|v| v.is_finite()).map(|v| v.abs()).collect();
        sizes.sort_by(f64::total_cmp);
        let span = sizes.get(sizes.len() * 3 / 4).or(sizes.last()).copied().unwrap_or(0.0);
        let ahead: Vec<usize> = names
            .iter()
            .map(|r| (0..rows.len()).filter(|&i| &rows[i] == r && &cols[i] != r && above(i)).count())
            .collect();
        let words = pair_words(column);
        let best = (0..names.len()).min_by_key(|&i| std::cmp::Reverse(ahead[i]));
        let conclusion = match best {
            Some(t) if ahead[t] > 0 => {
                format!("`{}` beats {} beyond noise (its {words} wholly above zero).", names[t], against(ahead[t]))
            }
            _ => format!("No strategy beats any other beyond noise (a {words} wholly above zero)."),
        };
        let title = format!("{}, row minus column: {name}", capitalised(&words));
        charts::heatmap(&out.path().join(&file), &title, &short, &diffs, (0.0, span, true))?;
        image(
            md,
            &file,
            &title,
            &format!(
                "{conclusion} The {words} of the row strategy against the column strategy, on the same deals (blue: the row gets more, red: less; the tables above give the intervals); {rounds:.0} {units} per pair.{score_note}"
            ),
        );
    } else {
        let title = format!("Win share, row against column: {name}");
        charts::heatmap(&out.path().join(&file), &title, &short, &shares, (0.5, 0.5, false))?;
        image(
            md,
            &file,
            &title,
            &format!(
                "{conclusion} Win share of the row strategy against the column strategy (blue: the row wins more than half, red: less); {rounds:.0} {units} per pair.{score_note}"
            ),
        );
    }
    if let Some(ratings) = load(dir, "ratings")? {
        let strategies = texts(&ratings, "strategy")?;
        let file = format!("{prefix}ratings.svg");
        let rating = with_interval(&ratings, "rating")?;
        let title = "Rating by strategy";
        let labels: Vec<String> = strategies.iter().map(|s| short_name(s)).collect();
        let axes = charts::Axes::new(title, "", "rating (Elo scale, mean 1500)", &labels);
        // Points on an axis spanning the ratings: a bar from zero would hide their spread.
        whisker_chart(out, &file, &axes, &rating, &strategy_colours(palette, &strategies), false)?;
        image(
            md,
            &file,
            title,
            &format!(
                "{} Bradley-Terry ratings from the pairwise win shares, on the Elo scale, with 95% bootstrap intervals; {rounds:.0} {units} per pair.{}",
                leader_sentence(&labels, &rating, "rating", Some(0)),
                if by_score.is_some() { format!(" They rate {units} won, not the score.") } else { String::new() }
            ),
        );
        let mut support = Vec::new();
        // Whether some pair is told apart in neither direction, in what the meta-game is
        // paid in.
        let (column, even) = by_score.as_ref().map_or(("win_share", 0.5), |c| (c.as_str(), 0.0));
        let paid = with_interval(matrix, column)?;
        let groups = if has(matrix, "deal_groups") { floats(matrix, "deal_groups")? } else { Vec::new() };
        let edges: Vec<_> = (0..rows.len())
            .map(|i| {
                let at = |n: &String| names.iter().position(|x| x == n).unwrap_or(0);
                let e = crate::stats::Estimate { mean: paid.mean[i], lo: paid.lo[i], hi: paid.hi[i] };
                ((at(&rows[i]), at(&cols[i])), e, groups.get(i).map_or(u64::MAX, |&g| g as u64))
            })
            .collect();
        let noisy = crate::study::compare::some_pair_undecided(&edges, even);
        if let Some(eq) = load(dir, "equilibrium")? {
            let (names, weights) = (texts(&eq, "strategy")?, floats(&eq, "weight")?);
            // Folders written before the column was named for the meta-game call it
            // `exploitability`.
            let exploit = match eq.column("meta_exploitability") {
                Ok(_) => floats(&eq, "meta_exploitability")?,
                Err(_) if eq.column("exploitability").is_ok() => floats(&eq, "exploitability")?,
                Err(_) => floats(&eq, "meta_exploitability")?,
            };
            support = (0..names.len())
                .filter(|&i| weights[i] > 1e-6)
                .map(|i| format!("{} {:.3}", names[i], weights[i]))
                .collect();
            let most = (0..names.len()).max_by(|&a, &b| exploit[a].total_cmp(&exploit[b]));
            let (game, gain): (String, &dyn Fn(f64) -> String) = match &by_score {
                Some(c) => (format!("game paid in {}", pair_words(c)), &|x| format!("gains {x:.3} against it")),
                None => ("win-share game".to_string(), &|x| format!("wins {x:.3} above an even share against it")),
            };
            let dominated = floats(&ratings, "dominant")?.iter().any(|&d| d > 0.5);
            let _ = writeln!(
                md,
                "Meta-game equilibrium (the Nash mixture of the symmetric {game}, by linear programming): {}.{}{}\n",
                support.join(", "),
                most.map_or(String::new(), |i| format!(
                    " In this meta-game the most exploitable strategy is {}: the best of the strategies listed {} (against every strategy, not only these, `draftsim exploitability` measures it).",
                    names[i],
                    gain(exploit[i])
                )),
                if dominated || !noisy { "" } else { crate::study::compare::NOISY_EQUILIBRIUM }
            );
        }
        let dominant = floats(&ratings, "dominant")?;
        if let Some(column) = &by_score {
            let score = pair_words(column);
            let dominates = dominant.iter().position(|&d| d > 0.5);
            let verdict = match dominates {
                Some(i) => format!(
                    "**{}** dominates: its {score}'s interval is above zero against every other strategy.",
                    strategies[i]
                ),
                None => format!(
                    "No strategy dominates: none has a {score} whose interval lies above zero against every other."
                ),
            };
            let _ = writeln!(md, "{verdict}\n");
            let headline = format!(
                "Head to head by {score} (what the {units} are played for): {}; the meta-game's equilibrium plays {}{}.",
                match dominates {
                    Some(i) => format!("{} beats every other strategy beyond noise", strategies[i]),
                    None => "no strategy surely beats every other".to_string(),
                },
                if support.is_empty() { "nothing".to_string() } else { support.join(", ") },
                if dominates.is_none() && noisy && !support.is_empty() {
                    " on the mean payoffs, which more rounds may change"
                } else {
                    ""
                }
            );
            page.headline(Question::WhoWins, headline);
            return Ok(());
        }
        let top = (0..strategies.len()).max_by(|&a, &b| rating.mean[a].total_cmp(&rating.mean[b]));
        let headline = top.map(|t| {
            format!(
                "Head to head by units won (not by score), {} rates highest: {:.0} [{:.0}, {:.0}] on the Elo scale over {} strategies; {}.",
                strategies[t],
                rating.mean[t],
                rating.lo[t],
                rating.hi[t],
                strategies.len(),
                match dominant.iter().position(|&d| d > 0.5) {
                    Some(i) => format!("{} wins more than half against every other, beyond noise", strategies[i]),
                    None => "no strategy's win share is surely above one half against every other".to_string(),
                }
            )
        });
        match dominant.iter().position(|&d| d > 0.5) {
            Some(i) => {
                let _ = writeln!(
                    md,
                    "**{}** dominates: its win share's interval is above 0.5 against every other strategy.\n",
                    strategies[i]
                );
            }
            None => {
                let _ = writeln!(
                    md,
                    "No strategy dominates: none has a win share whose interval lies above one half against every other.\n"
                );
            }
        }
        if let Some(text) = headline {
            page.headline(Question::WhoWins, text);
        }
    }
    Ok(())
}
