//! Head-to-head runs gathered: where a report holds several runs that each seat two
//! strategies, every pair's paired difference in one table and one chart per game and
//! table size, and one summary line each, in place of a summary line and charts per run.

use super::*;

/// The fewest two-strategy runs of one game, table size and rules a report gathers; fewer
/// keep their own lines and charts.
const MIN_GATHERED: usize = 3;

/// One run of two strategies: its pair's paired difference, the first seat's strategy
/// first.
pub(super) struct Pairing {
    /// The folder's name and its subsection heading.
    folder: String,
    pub(super) heading: String,
    /// What groups it: the game's title, its seats and rules.
    game: String,
    seats: usize,
    rules: String,
    /// The score's words (`chips per round`) and the game's units (`rounds`).
    words: String,
    units: String,
    a: String,
    b: String,
    deals: f64,
    mean: f64,
    lo: f64,
    hi: f64,
}

/// The pairing a run's folder is: a whole run (not one shard of it) whose seats hold exactly
/// two strategies, rotated, and whose `pairs` table has their one pair. `None` for any
/// other folder: a shard's figures are a share of its run's, and without rotation a seat's
/// edge is in the difference.
pub(super) fn pairing(
    dir: &Path,
    (name, heading): (&str, &str),
    meta: Option<&serde_json::Value>,
    measures: Option<&Measures>,
) -> Result<Option<Pairing>, Error> {
    let (Some(meta), Some(measures)) = (meta, measures) else { return Ok(None) };
    if !dir.join("run.json").exists() || !meta["shard"].is_null() || meta["rotate"] == false {
        return Ok(None);
    }
    let seats: Vec<&str> = meta["seats"].as_array().into_iter().flatten().filter_map(|s| s.as_str()).collect();
    let Some(pairs) = load(dir, "pairs")? else { return Ok(None) };
    if pairs.height() != 1 || distinct(&seats.iter().map(|s| s.to_string()).collect::<Vec<_>>()).len() != 2 {
        return Ok(None);
    }
    let (a, b) = (texts(&pairs, "strategy_a")?.remove(0), texts(&pairs, "strategy_b")?.remove(0));
    let d = with_interval(&pairs, &measures.score.pair_column)?;
    let deals = floats(&pairs, "deals")?[0];
    // The first seat's strategy first: a report's runs name the player under study there.
    let flip = seats.first().is_some_and(|&s| s == b);
    let (a, b, mean, lo, hi) =
        if flip { (b, a, -d.mean[0], -d.hi[0], -d.lo[0]) } else { (a, b, d.mean[0], d.lo[0], d.hi[0]) };
    let game = meta["game"].as_str().unwrap_or_default();
    Ok(Some(Pairing {
        folder: name.to_string(),
        heading: heading.to_string(),
        game: crate::games::find(game).map_or_else(|_| capitalised(&game.replace('-', " ")), |i| i.title.to_string()),
        seats: seats.len(),
        rules: meta["rules"].as_str().unwrap_or_default().to_string(),
        words: measures.score_words(),
        units: measures.units(),
        a,
        b,
        deals,
        mean,
        lo,
        hi,
    }))
}

/// How a pair's difference stands: ahead, level or behind, by its interval.
fn standing(p: &Pairing) -> std::cmp::Ordering {
    if p.lo > 0.0 {
        std::cmp::Ordering::Greater
    } else if p.hi < 0.0 {
        std::cmp::Ordering::Less
    } else {
        std::cmp::Ordering::Equal
    }
}

/// The pairings by game, seats and rules, each group in the report's folder order; a
/// group's label names the game and table size (and which rules, where two groups of one
/// size differ in them).
fn groups(pairings: &[Pairing]) -> Vec<(String, Vec<&Pairing>)> {
    let mut groups: Vec<Vec<&Pairing>> = Vec::new();
    for p in pairings {
        match groups.iter_mut().find(|g| g[0].game == p.game && g[0].seats == p.seats && g[0].rules == p.rules) {
            Some(g) => g.push(p),
            None => groups.push(vec![p]),
        }
    }
    let size = |p: &Pairing| {
        if p.seats == 2 { format!("{}, heads-up", p.game) } else { format!("{}, {} seats", p.game, p.seats) }
    };
    (groups.iter())
        .map(|g| {
            let shared = groups.iter().filter(|o| size(o[0]) == size(g[0])).count() > 1;
            let label = if shared { format!("{} (the rules of `{}`)", size(g[0]), g[0].folder) } else { size(g[0]) };
            (label, g.clone())
        })
        .collect()
}

/// Files the gathered pairings on the page: per group a part (at the front of "Who
/// wins?") with its chart and table and a summary line; the gathered runs lose their own
/// summary lines and charts, their tables kept. Returns the chart files no longer shown.
pub(super) fn gather(
    page: &mut Page,
    pairings: &[Pairing],
    out: &OutputDir,
    palette: &charts::Palette,
) -> Result<Vec<String>, Error> {
    let groups: Vec<(String, Vec<&Pairing>)> =
        groups(pairings).into_iter().filter(|(_, g)| g.len() >= MIN_GATHERED).collect();
    let gathered = || groups.iter().flat_map(|(_, g)| g.iter());
    page.drop_headlines(&gathered().map(|p| p.folder.clone()).collect::<Vec<_>>());
    let dropped = page.drop_charts(&gathered().map(|p| p.heading.clone()).collect::<Vec<_>>());
    for (i, (label, mut group)) in groups.iter().cloned().enumerate().rev() {
        // Each first-seat strategy together, in the order the folders first seat it,
        // then by its difference, largest first.
        let first = distinct(&group.iter().map(|p| p.a.clone()).collect::<Vec<_>>());
        group.sort_by(|x, y| {
            let at = |p: &Pairing| first.iter().position(|a| *a == p.a);
            at(x).cmp(&at(y)).then(y.mean.total_cmp(&x.mean))
        });
        let words = &group[0].words;
        let mut md = String::new();
        // A pair played in several runs is told apart by the run.
        let pair = |p: &Pairing| format!("{} vs {}", p.a, p.b);
        let labels: Vec<String> = (group.iter())
            .map(|p| match group.iter().filter(|q| pair(q) == pair(p)).count() {
                1 => pair(p),
                _ => format!("{} ({})", pair(p), p.folder),
            })
            .collect();
        let firsts: Vec<String> = group.iter().map(|p| p.a.clone()).collect();
        let values = WithInterval {
            mean: group.iter().map(|p| p.mean).collect(),
            lo: group.iter().map(|p| p.lo).collect(),
            hi: group.iter().map(|p| p.hi).collect(),
        };
        let file = format!("pairings-{}.svg", i + 1);
        // A chart's title is plain text, not Markdown.
        let title = format!("{}: the first-named strategy minus the other", label.replace('`', ""));
        let y = format!("difference in {words}");
        let mut axes = charts::Axes::new(&title, "", &y, &labels);
        axes.zero_line = true;
        // Whole labels: two long names would otherwise lose the second, which tells the bars apart.
        axes.label_chars = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0).min(64);
        // A colour per first-seat strategy, the report's own unless two of them share one.
        let mut colours = strategy_colours(palette, &firsts);
        let names = distinct(&firsts);
        let theirs: Vec<charts::Colour> =
            names.iter().map(|n| colours[firsts.iter().position(|f| f == n).unwrap_or(0)]).collect();
        if (0..theirs.len()).any(|i| theirs[..i].contains(&theirs[i])) {
            colours = (firsts.iter())
                .map(|f| charts::sequence(names.iter().position(|n| n == f).unwrap_or(0), names.len()))
                .collect();
        }
        whisker_chart(out, &file, &axes, &values, &colours, true)?;
        image(
            &mut md,
            &file,
            &title,
            &format!(
                "Each bar is one run's paired difference in {words}: the score of the strategy its `--seats` names first minus the other's, on the same deals at every seating of the two (the seats rotate, so this is no seat advantage), with its 95% interval; above zero the first-named strategy gets more, and a bar's colour is that strategy's (named in the table below). It scores {}.",
                count_words(&group)
            ),
        );
        let _ = writeln!(
            md,
            "| named first | other | the first-named's minus the other's, {words} | 95% interval | deals | run |\n|---|---|---:|---|---:|---|"
        );
        for p in &group {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} – {} | {:.0} | `{}` |",
                p.a,
                p.b,
                fmt4(p.mean),
                fmt4(p.lo),
                fmt4(p.hi),
                p.deals,
                p.folder
            );
        }
        let _ = writeln!(
            md,
            "\nA deal is played at every seating of the two, so a run plays more {units} than it has deals. Each run's scores follow under its name below and its health under *Is it healthy?*; its own summary lines and charts are left out for this table.",
            units = group[0].units
        );
        page.front(Question::WhoWins, format!("Head to head: {label}"), md);
        page.front_headline(Question::WhoWins, headline(&label, &group));
    }
    Ok(dropped)
}

/// (ahead, level, behind): how many of the group's first-seat strategies score more than
/// the other with the interval above zero, level within it, less with it below.
fn counts(group: &[&Pairing]) -> (usize, usize, usize) {
    let n = |o: std::cmp::Ordering| group.iter().filter(|p| standing(p) == o).count();
    (n(std::cmp::Ordering::Greater), n(std::cmp::Ordering::Equal), n(std::cmp::Ordering::Less))
}

/// The counts in words, those of none left out: "more than the other in 5 (interval
/// above zero), level in 1 and behind in 2", or "in all 3" where every pair is ahead.
fn count_words(group: &[&Pairing]) -> String {
    let (ahead, level, behind) = counts(group);
    let more = if ahead == group.len() && ahead > 1 {
        format!("more than the other in all {ahead} (interval above zero)")
    } else {
        format!("more than the other in {ahead} (interval above zero)")
    };
    let parts: Vec<String> =
        [(true, more), (level > 0, format!("is level in {level}")), (behind > 0, format!("is behind in {behind}"))]
            .into_iter()
            .filter_map(|(said, text)| said.then_some(text))
            .collect();
    and_list(&parts.iter().map(String::as_str).collect::<Vec<_>>())
}

/// The summary line of a group: the counts, then every pair behind and level (the few a
/// reader looks for), named with their figures.
fn headline(label: &str, group: &[&Pairing]) -> String {
    let (_, level, behind) = counts(group);
    let said = |o: std::cmp::Ordering| {
        let mut these: Vec<&&Pairing> = group.iter().filter(|p| standing(p) == o).collect();
        these.sort_by(|x, y| x.mean.total_cmp(&y.mean));
        let named: Vec<String> = these
            .iter()
            .take(4)
            .map(|p| format!("`{}` against `{}` {}", p.a, p.b, estimate_text(p.mean, p.lo, p.hi)))
            .collect();
        let more = these.len().saturating_sub(named.len());
        let named = and_list(&named.iter().map(String::as_str).collect::<Vec<_>>());
        if more > 0 { format!("{named} and {more} more") } else { named }
    };
    let mut text = format!(
        "{label}: of {} runs of two strategies, the strategy named first scores {}, in {} on the same deals",
        group.len(),
        count_words(group),
        group[0].words
    );
    if behind > 0 {
        let _ = write!(text, "; behind: {}", said(std::cmp::Ordering::Less));
    }
    if level > 0 {
        let _ = write!(text, "; level: {}", said(std::cmp::Ordering::Equal));
    }
    text + "."
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(game: &str, seats: usize, a: &str, b: &str, (mean, lo, hi): (f64, f64, f64)) -> Pairing {
        Pairing {
            folder: format!("{a}-{b}"),
            heading: format!("run `{a}-{b}`"),
            game: game.to_string(),
            seats,
            rules: String::new(),
            words: "chips per round".to_string(),
            units: "rounds".to_string(),
            a: a.to_string(),
            b: b.to_string(),
            deals: 100.0,
            mean,
            lo,
            hi,
        }
    }

    #[test]
    fn a_groups_line_counts_by_interval_and_names_those_behind_and_level() {
        let pairs = [
            pair("Sevens", 4, "cfr", "tight", (0.5, 0.1, 0.9)),
            pair("Sevens", 4, "cfr", "search", (-0.7, -1.0, -0.3)),
            pair("Sevens", 4, "cfr", "hate", (0.1, -0.1, 0.3)),
            pair("Sevens", 4, "cfr", "exact", (-0.2, -0.3, -0.1)),
            pair("Sevens", 2, "cfr", "tight", (0.2, 0.1, 0.3)),
        ];
        let groups = groups(&pairs);
        assert_eq!(
            groups.iter().map(|(l, g)| (l.as_str(), g.len())).collect::<Vec<_>>(),
            [("Sevens, 4 seats", 4), ("Sevens, heads-up", 1)]
        );
        let line = headline(&groups[0].0, &groups[0].1);
        assert!(line.contains("of 4 runs of two strategies, the strategy named first scores more than the other in 1 (interval above zero), is level in 1 and is behind in 2, in chips per round"), "{line}");
        assert!(
            line.contains(
                "behind: `cfr` against `search` -0.7000 [-1.0000, -0.3000] and `cfr` against `exact` -0.2000 [-0.3000, -0.1000]"
            ),
            "{line}"
        );
        assert!(line.contains("level: `cfr` against `hate` 0.1000"), "{line}");
        assert!(!line.contains("`tight`"), "{line}");
    }

    #[test]
    fn groups_of_one_size_with_other_rules_are_told_apart() {
        let mut other = pair("Sevens", 4, "cfr", "greedy", (0.5, 0.1, 0.9));
        other.rules = "raise_cap = 1".into();
        let pairs = [pair("Sevens", 4, "cfr", "tight", (0.5, 0.1, 0.9)), other];
        let labels: Vec<String> = groups(&pairs).into_iter().map(|(l, _)| l).collect();
        assert_eq!(
            labels,
            ["Sevens, 4 seats (the rules of `cfr-tight`)", "Sevens, 4 seats (the rules of `cfr-greedy`)"]
        );
    }
}
