//! The health card: each figure with its interval and one sentence, and the limits a run or sweep was asked to meet.

use super::*;

/// Drawn or split units above this share (the interval's lower end) are flagged.
const UNDECIDED: f64 = 0.1;

/// The health card: each figure with its interval, a warning when caps fire in more than
/// 1% of units or when more than one unit in ten surely has no sole winner, and every
/// `--require` limit an interval crosses.
pub(super) fn health_section(
    page: &mut Page,
    health: &DataFrame,
    requires: &[Constraint],
    depth: Option<&SkillDepth>,
    game: Option<&str>,
) -> Result<(), Error> {
    let mut names = texts(health, "figure")?;
    let mut v = with_interval(health, "value")?;
    let mut descriptions = texts(health, "description")?;
    if let Some(d) = depth {
        // A count of ladder steps, exact for the ladder played: no interval of its own (each
        // step's win share has one, in the ladder's section).
        names.push("skill_depth".into());
        for column in [&mut v.mean, &mut v.lo, &mut v.hi] {
            column.push(d.depth as f64);
        }
        descriptions.push(format!(
            "steps up the search ladder that still win the score, of {} (more search wins up to {} iterations; ladder in {})",
            d.steps, d.deepest, d.folder
        ));
    }
    let md = page.at(Question::Healthy);
    let _ = writeln!(md, "| figure | value | 95% interval | meaning |\n|---|---:|---|---|");
    for i in 0..names.len() {
        let (value, interval) = if names[i] == "skill_depth" {
            (format!("{:.0}", v.mean[i]), "–".to_string())
        } else if names[i] == "seats_equal_p" {
            // A p-value, not an estimate: the table's lo and hi only repeat it.
            (fmt4(v.mean[i]), "– (a p-value)".to_string())
        } else {
            (fmt4(v.mean[i]), format!("{} – {}", fmt4(v.lo[i]), fmt4(v.hi[i])))
        };
        let _ = writeln!(md, "| {} | {value} | {interval} | {} |", names[i], descriptions[i]);
    }
    let _ = writeln!(md);
    let at = |name: &str| names.iter().position(|n| n == name);
    if let Some(i) = at("timeouts")
        && v.mean[i] > 0.01
    {
        let _ = writeln!(
            md,
            "**Caps fire**: {:.1}% of units end at a cap (turns or rounds). A safety net that fires this often is a defect of the variant or of the bots: the figures below describe games that did not finish by the rules.\n",
            100.0 * v.mean[i]
        );
    }
    // More than one unit in ten without a sole winner (surely so) is worth a designer's eye.
    let undecided = at("drawishness").filter(|&i| v.lo[i] > UNDECIDED).map(|i| v.mean[i]);
    if let Some(share) = undecided {
        let _ = writeln!(
            md,
            "**Often undecided**: {:.0}% of units end drawn or split, with no sole winner (completion {}). Where a variant should name one winner a unit, the place to look is {}.\n",
            100.0 * share,
            at("completion").map_or("-".to_string(), |i| fmt4(v.mean[i])),
            game.and_then(|g| crate::games::find(g).ok())
                .map_or("its tie and split rules", |info| info.undecided_rules)
        );
    }
    let mut missed: Vec<String> = Vec::new();
    // A limit on the skill depth is judged once, in the ladder's own section: this card
    // neither judges it nor counts it among its limits.
    let requires: Vec<&Constraint> = requires.iter().filter(|c| c.metric != "skill_depth").collect();
    for c in &requires {
        let Some(i) = at(&c.metric) else {
            let _ = writeln!(md, "**Not checked**: `{}` is not a figure of this health card.\n", c.metric);
            continue;
        };
        let e = Estimate { mean: v.mean[i], lo: v.lo[i], hi: v.hi[i] };
        let sign = if c.at_least { ">=" } else { "<=" };
        match c.verdict(&e) {
            Verdict::Met => {
                let _ = writeln!(
                    md,
                    "Limit met: {} {sign} {} (interval {} – {}).\n",
                    names[i],
                    c.bound,
                    fmt4(e.lo),
                    fmt4(e.hi)
                );
            }
            verdict => {
                missed.push(format!("`{}` {}", c.text(), verdict.words()));
                let _ = writeln!(
                    md,
                    "**Limit {}**: {} should be {sign} {}, and is {} ({} – {}).\n",
                    verdict.words(),
                    names[i],
                    c.bound,
                    fmt4(e.mean),
                    fmt4(e.lo),
                    fmt4(e.hi)
                );
            }
        }
    }
    let figure = |(name, meaning): &(&str, &str)| {
        at(name).map(|i| format!("{meaning} ({name}) {} [{}, {}]", fmt4(v.mean[i]), fmt4(v.lo[i]), fmt4(v.hi[i])))
    };
    let named = [
        ("completion", "share of units won outright by one seat"),
        ("drawishness", "drawn or split"),
        ("timeouts", "ended by a cap"),
    ];
    let shown: Vec<String> = named.iter().filter_map(figure).collect();
    if !shown.is_empty() {
        let limits = if requires.is_empty() {
            String::new()
        } else if missed.is_empty() {
            " Every limit is met.".to_string()
        } else {
            format!(" **Limits not surely met:** {}.", missed.join("; "))
        };
        let caps = match at("timeouts") {
            Some(i) if v.mean[i] > 0.01 => {
                " Caps fire often: the figures describe games that did not finish by the rules."
            }
            _ => "",
        };
        let undecided =
            if undecided.is_some() { " Often undecided: more than one unit in ten has no sole winner." } else { "" };
        page.headline(Question::Healthy, format!("{}.{caps}{undecided}{limits}", capitalised(&shown.join("; "))));
    }
    Ok(())
}
