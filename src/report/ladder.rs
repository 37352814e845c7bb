//! The skill ladder: each step's score difference against zero, and the skill depth.

use super::*;

/// A ladder's skill depth, for the health card of a run of the same game and rules.
pub(super) struct SkillDepth {
    pub(super) game: serde_json::Value,
    pub(super) rules: serde_json::Value,
    pub(super) depth: i64,
    pub(super) steps: i64,
    pub(super) deepest: i64,
    pub(super) folder: String,
}

/// The skill depth of every ladder folder among `dirs`.
pub(super) fn ladder_depths(dirs: &[PathBuf], names: &[String]) -> Result<Vec<SkillDepth>, Error> {
    let mut out = Vec::new();
    for (dir, name) in dirs.iter().zip(names) {
        let meta = std::fs::read_to_string(dir.join("study.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .filter(|m| m["kind"] == kind::LADDER.name);
        let (Some(meta), Some(ladder)) = (meta, load(dir, kind::LADDER.tables[0])?) else { continue };
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
            folder: name.clone(),
        });
    }
    Ok(out)
}

/// A ladder's skill depth, judged by the score: the steps from the first whose score
/// difference's lower bound is above zero; with the score column's name (the column after
/// the win share's).
pub(super) fn depth_by_score(ladder: &DataFrame) -> Result<(usize, String), Error> {
    let diff = ladder.get_column_names().get(6).map(|c| c.to_string()).unwrap_or_default();
    Ok((step_wins(ladder, &diff)?.iter().take_while(|&&w| w).count(), diff))
}

/// Whether each step wins the score as evidence ([`crate::study::versus::decides_above`]);
/// a table written before it kept its deal groups is judged by the lower bound alone.
fn step_wins(ladder: &DataFrame, diff: &str) -> Result<Vec<bool>, Error> {
    step_flags(ladder, diff, &|e, g| crate::study::versus::decides_above(e, 0.0, g))
}

/// Whether each step loses the score as evidence ([`crate::study::ladder::decides_below`]).
fn step_losses(ladder: &DataFrame, diff: &str) -> Result<Vec<bool>, Error> {
    step_flags(ladder, diff, &crate::study::ladder::decides_below)
}

/// `judge` of each step's score difference and deal groups.
fn step_flags(
    ladder: &DataFrame,
    diff: &str,
    judge: &dyn Fn(&crate::stats::Estimate, u64) -> bool,
) -> Result<Vec<bool>, Error> {
    let score = with_interval(ladder, diff)?;
    let groups = if ladder.column("deal_groups").is_ok() { floats(ladder, "deal_groups")? } else { Vec::new() };
    Ok((0..score.lo.len())
        .map(|i| {
            let e = crate::stats::Estimate { mean: score.mean[i], lo: score.lo[i], hi: score.hi[i] };
            judge(&e, groups.get(i).map_or(u64::MAX, |&g| g as u64))
        })
        .collect())
}

/// Deal groups under which a step's interval is too rough to call skill unimportant.
const FEW_GROUPS: u64 = 30;

/// The skill ladder: each step's score difference with its interval, charted against zero
/// (the skill depth is judged by it), and its win share in the table.
pub(super) fn ladder_section(
    page: &mut Page,
    ladder: &DataFrame,
    (out, prefix): (&OutputDir, &str),
    measures: Option<&Measures>,
    game: Option<String>,
    requires: &[Constraint],
) -> Result<(), Error> {
    let md = page.at(Question::Skill);
    let budget = floats(ladder, "budget")?;
    let opponent = floats(ladder, "opponent_budget")?;
    let share = with_interval(ladder, "win_share")?;
    let (depth, diff) = depth_by_score(ladder)?;
    let labels: Vec<String> = (0..budget.len()).map(|i| format!("{:.0} v {:.0}", budget[i], opponent[i])).collect();
    let file = format!("{prefix}ladder.svg");
    let score = with_interval(ladder, &diff)?;
    // The game named: a report may hold several games' ladders.
    let title = match game {
        Some(g) => format!("{g}: score of the search bot against itself at the budget before"),
        None => "Score of the search bot against itself at the budget before".to_string(),
    };
    // The difference in words per the game's own unit (a Sevens hand, not a round).
    let y = format!("{} of the larger budget", measures.map_or_else(|| diff.replace('_', " "), Measures::pair_words));
    let mut axes = charts::Axes::new(&title, "iterations per decision (step)", &y, &labels);
    axes.zero_line = true;
    let series = [charts::Series {
        name: String::new(),
        colour: charts::NEUTRAL,
        values: score.mean.clone(),
        band: Some((score.lo.clone(), score.hi.clone())),
    }];
    charts::lines(&out.path().join(&file), &axes, &series)?;
    let pairs: Vec<(f64, f64)> = budget.iter().zip(&opponent).map(|(&b, &o)| (b, o)).collect();
    let again = crate::study::ladder::winning_again(&pairs, &step_wins(ladder, &diff)?, depth);
    let lost = crate::study::ladder::losing_after(&pairs, &step_losses(ladder, &diff)?, depth);
    // A first step not shown to win is no finding that skill hardly matters where its
    // interval still reaches a gain, or where its deal groups are too few to say: more
    // rounds would tell. Only an interval at or below 0 shows that more search does not pay.
    let groups = if ladder.column("deal_groups").is_ok() { floats(ladder, "deal_groups")? } else { Vec::new() };
    let few = groups.first().is_some_and(|&g| g < FEW_GROUPS as f64);
    let leaning = depth == 0 && score.mean.first().is_some_and(|&m| m > 0.0 || few || score.hi[0] > 0.0);
    let on_groups = groups.first().map_or(String::new(), |g| format!(" on {g:.0} deal groups"));
    let words = measures.map_or_else(|| diff.replace('_', " "), Measures::pair_words);
    let undecided = || {
        let (mean, lo, hi) = (score.mean[0], score.lo[0], score.hi[0]);
        let why = if lo == hi {
            format!("is alike on every one of its deal groups{on_groups}, which says little")
        } else if mean > 0.0 {
            format!("leans to the larger budget, but its interval{on_groups} reaches 0")
        } else if mean < 0.0 && hi > 0.0 {
            format!("leans to the smaller budget, but its interval{on_groups} reaches a gain for the larger")
        } else if hi > 0.0 {
            format!("is level, and its interval{on_groups} reaches a gain for the larger budget")
        } else {
            format!("has an interval{on_groups} too wide to say")
        };
        format!(
            "the first step's {words} {} [{}, {}] {why}, so whether more search pays is not shown: play more rounds (`--rounds`) to tell",
            fmt4(mean),
            fmt4(lo),
            fmt4(hi)
        )
    };
    let sentence = match depth {
        0 if leaning => format!("Skill depth 0, undecided: {}.", undecided()),
        0 => "The first step up does not win the score: its interval lies at or below an even score, so at these budgets more search does not pay, and skill (as search measures it) hardly matters in this variant.".to_string(),
        d if d == budget.len() => format!("Every one of the {d} steps still wins (skill depth {d}): skill keeps paying at every budget tried; try larger budgets to see where it stops."),
        d => match &again {
            None => format!("Skill depth {d}: more search keeps winning up to {:.0} iterations, then a step no longer wins reliably; the variant rewards skill up to about there.", budget[d - 1]),
            Some(_) => format!("Skill depth {d}: more search keeps winning up to {:.0} iterations, then a step does not win reliably.", budget[d - 1]),
        },
    };
    // Steps that win again after the run, or lose: said, so the depth is not read as where
    // skill stops, or the curve as flat.
    let sentence = [&again, &lost].into_iter().flatten().fold(sentence, |s, words| format!("{s} But {words}."));
    image(md, &file, &title, &format!("The band is the 95% interval; the dashed line is an even score. {sentence}"));
    let headline = match depth {
        0 if leaning => format!("Skill depth 0 of {} steps, undecided: {}.", budget.len(), undecided()),
        0 => format!(
            "Skill depth 0 of {} steps: the search bot at {:.0} iterations does not beat itself at {:.0} (its interval lies at or below an even score), so more search does not pay here.",
            budget.len(),
            budget.first().copied().unwrap_or(f64::NAN),
            opponent.first().copied().unwrap_or(f64::NAN)
        ),
        d if d == budget.len() => format!(
            "Skill still pays at the largest budget tried: each of the {d} steps up the search ladder wins the score, up to {:.0} iterations (skill depth {d}).",
            budget[d - 1]
        ),
        d => format!(
            "Skill depth {d} of {} steps: more search wins the score up to {:.0} iterations; the next step no longer does reliably.",
            budget.len(),
            budget[d - 1]
        ),
    };
    let mut headline = [&again, &lost].into_iter().flatten().fold(headline, |s, words| format!("{s} But {words}."));
    // A limit on the skill depth (`--require skill_depth>=2`) is judged here, on the ladder
    // itself: the depth is a count of the steps played, exact for this ladder.
    let limits: Vec<String> = requires
        .iter()
        .filter(|c| c.metric == "skill_depth")
        .map(|c| {
            let d = depth as f64;
            let sign = if c.at_least { ">=" } else { "<=" };
            match c.verdict(&crate::stats::Estimate { mean: d, lo: d, hi: d }) {
                Verdict::Met => format!("Limit met: skill_depth {sign} {}.", c.bound),
                v => format!("**Limit {}**: skill_depth should be {sign} {}, and is {depth}.", v.words(), c.bound),
            }
        })
        .collect();
    for limit in &limits {
        headline.push(' ');
        headline.push_str(limit);
    }
    let _ = writeln!(
        md,
        "| budget | against | {diff} | 95% interval | win share | 95% interval |\n|---:|---:|---:|---|---:|---|"
    );
    for i in 0..budget.len() {
        let _ = writeln!(
            md,
            "| {:.0} | {:.0} | {} | {} – {} | {} | {} – {} |",
            budget[i],
            opponent[i],
            fmt4(score.mean[i]),
            fmt4(score.lo[i]),
            fmt4(score.hi[i]),
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
    for limit in &limits {
        let _ = writeln!(md, "{limit}\n");
    }
    page.headline(Question::Skill, headline);
    Ok(())
}
