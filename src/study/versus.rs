//! `versus`: two rule sets played on the same deal seeds and seatings, every figure as A,
//! B and B - A with a paired interval over deal groups and a Holm-corrected p-value, and
//! a verdict: what changed by at least a figure's smallest effect that matters, what did
//! not, and what the deals played cannot decide.

use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use super::sensitivity::{FigureEffect, VariantGroups, figure_effects, holm, paired_mean_series, play_groups};
use super::sweep::{RulesBase, seats_for};
use crate::error::{Error, InputError};
use crate::games::GameInfo;
use crate::output::{Table, Values};
use crate::sim::{RATIO_FIGURES, Shard};
use crate::stats::Estimate;

/// What to compare.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VersusSpec {
    /// Rule set A's file text (`None`: the game's defaults).
    pub rules_a: Option<String>,
    /// Rule set B's file text (`None`: the game's defaults).
    pub rules_b: Option<String>,
    /// Players (over both rules files').
    pub players: Option<usize>,
    /// Seats, cycled to each side's player count; `None`: the game's mix with one `random`
    /// seat, so the skill gap is measured.
    pub seats: Option<Vec<String>>,
    /// Deal groups each side plays.
    pub deals: u64,
    /// The seed, the same for both sides.
    pub seed: u64,
    /// Smallest effects that matter, by figure (see [`min_effect`]), over the defaults.
    #[serde(default)]
    pub min_effects: Vec<(String, f64)>,
}

/// Side `side`'s (0: A, 1: B) rules text and seats, as the play of that side uses them.
pub fn side(info: &GameInfo, spec: &VersusSpec, side: usize) -> Result<(String, Vec<String>), InputError> {
    let rules = if side == 0 { &spec.rules_a } else { &spec.rules_b };
    let name = if side == 0 { "A" } else { "B" };
    let base = RulesBase::new(info, rules.as_deref()).map_err(|e| e.context(name))?.with_players(spec.players);
    let (text, players) = base.variant(&[], "--players").map_err(|e| e.context(name))?;
    // A field the size of A's table, at each side's count: the same strategies on both.
    let a_players = RulesBase::new(info, spec.rules_a.as_deref())?.with_players(spec.players).variant(&[], "")?.1;
    let seats = seats_for(info, spec.seats.as_deref(), a_players, players).map_err(|e| e.context(name))?;
    Ok((text, seats))
}

/// Plays the sides listed in `wanted` (0: A, 1: B; each whole, or `part` of its chunks),
/// calling `on_side(done, total, label)` before each; a side the game refuses is an error
/// naming it.
pub fn play(
    info: &GameInfo,
    spec: &VersusSpec,
    wanted: &[usize],
    part: Option<Shard>,
    interrupt: Option<&AtomicBool>,
    on_side: &mut dyn FnMut(usize, usize, &str),
) -> Result<Vec<VariantGroups>, Error> {
    let mut out = Vec::with_capacity(wanted.len());
    for (done, &s) in wanted.iter().enumerate() {
        let label = if s == 0 { "A" } else { "B" };
        on_side(done, wanted.len(), label);
        let (text, seats) = side(info, spec, s)?;
        let groups = play_groups(info, &text, &seats, spec.seed, spec.deals, part, interrupt)?
            .map_err(|why| InputError::new(format!("{label}: {why}")))?;
        out.push(groups);
    }
    on_side(wanted.len(), wanted.len(), "");
    Ok(out)
}

/// What a difference says, once its interval is set against the smallest effect that
/// matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Verdict {
    /// Significant (Holm-corrected, 5%) and at least the smallest effect that matters.
    Changed,
    /// The whole interval lies within the smallest effect that matters either way.
    Unchanged,
    /// Neither: more deals would tell.
    Undecided,
}

impl Verdict {
    /// The word in the `versus` table.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Changed => "changed",
            Verdict::Unchanged => "unchanged",
            Verdict::Undecided => "undecided",
        }
    }
}

/// One figure under both rule sets.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// The figure (`score` and `win_rate`, or [`WIN_OVER_FAIR`], come once per strategy).
    pub figure: String,
    /// The strategy, for a strategy's figure.
    pub strategy: Option<String>,
    /// Its value under A.
    pub a: f64,
    /// Its value under B.
    pub b: f64,
    /// B - A with its 95% interval over paired deal groups.
    pub difference: Estimate,
    /// Two-sided p-value of no difference.
    pub p: f64,
    /// Holm-corrected over every figure compared.
    pub p_holm: f64,
    /// The smallest difference that matters for this figure.
    pub min_effect: f64,
    /// What the difference says.
    pub verdict: Verdict,
    /// The deal groups that measured the figure (see [`FigureEffect::groups`]).
    pub groups: usize,
    /// Each deal group's difference (see [`FigureEffect::series`]).
    pub series: Vec<f64>,
    /// Which separate change a changed figure belongs to, from 1 (see [`group_changes`]);
    /// 0 for a figure not changed.
    pub change: usize,
}

/// A strategy's win rate over its fair share of the wins (win rate × players, 1 for a fair
/// share), the figure `versus` compares in its place where A and B seat different numbers.
pub const WIN_OVER_FAIR: &str = "win_rate_over_fair";

/// The game's measures by the scale a change in them is judged on: rates, and those
/// counted in the score's units (see [`min_effect`]).
#[derive(Clone, Debug, Default)]
pub struct Scales {
    /// The measures that are rates (shares, 0 to 1).
    pub rates: Vec<String>,
    /// The measures counted in the score's units (chips, victory cards).
    pub in_score: Vec<String>,
}

impl Scales {
    /// The scales of these measures.
    pub fn of(measures: &crate::sim::Measures) -> Scales {
        let names = |keep: &dyn Fn(&crate::sim::Measure) -> bool| {
            measures.measures.iter().filter(|m| keep(m)).map(|m| m.column.clone()).collect()
        };
        Scales { rates: names(&|m| matches!(m.kind, crate::sim::Kind::Rate { .. })), in_score: names(&|m| m.in_score) }
    }
}

/// Whether a figure is a rate: a share of units, decisions or seats (0 to 1).
fn is_rate(figure: &str, scales: &Scales) -> bool {
    RATIO_FIGURES.iter().any(|f| f.name == figure && f.rate)
        || figure == "win_rate"
        || scales.rates.iter().any(|m| m == figure)
}

/// The smallest effect that matters for `figure` by default: for a rate one point (0.01),
/// or a tenth of the rarer outcome's share where that is smaller (a fold rate of 1% that
/// falls to 0.4% has changed); one point for a seat figure (a difference of shares); 2% of
/// the mean absolute score per unit for a score, the skill gap and any measure counted in
/// the score's units (the scale of the game's stakes); 1% of the larger of A's and B's
/// values for any other figure.
pub fn min_effect(figure: &str, a: f64, b: f64, scales: &Scales, stakes: f64) -> f64 {
    if is_rate(figure, scales) {
        let rarer = a.max(b).min(1.0 - a.min(b)).max(0.0);
        0.01_f64.min(0.1 * rarer)
    } else if matches!(figure, "seat_advantage" | "balance" | "first_seat_edge") {
        0.01
    } else if matches!(figure, "score" | "skill_gap") || scales.in_score.iter().any(|m| m == figure) {
        0.02 * stakes
    } else {
        0.01 * a.abs().max(b.abs())
    }
}

/// The deal groups a difference alike on every one of them needs before it decides a
/// verdict: by the rule of three, when none of n groups differed otherwise, at most 3/n of
/// all groups would (95%), a twentieth from 60 on.
pub const ALIKE_GROUPS: usize = 60;

/// Whether every deal group differed alike (all by 0, say): an interval of no width, up to
/// rounding, which says little over a few groups (see [`ALIKE_GROUPS`]): the groups that
/// measured the figure, not those played, for a figure counted on a sample of deals.
pub fn alike(difference: &Estimate) -> bool {
    difference.hi - difference.lo <= 1e-9 * (1.0 + difference.mean.abs())
}

/// Whether an interval is above `floor` as evidence: not one of no width over fewer deal
/// groups than [`ALIKE_GROUPS`], where every group differing alike says little (the rule of
/// three), as `versus` and `sensitivity` judge it.
pub fn decides_above(e: &Estimate, floor: f64, groups: u64) -> bool {
    e.lo > floor && !(alike(e) && groups < ALIKE_GROUPS as u64)
}

/// The figures alike on every deal group (`named`, each with its difference), in words:
/// those with no difference at all (the same figure under A and B) apart from those that
/// moved by the same amount on every group.
pub fn alike_words(named: &[String], differences: &[f64]) -> String {
    let them = |n: usize| if n == 1 { "it" } else { "them" };
    let (zero, moved): (Vec<_>, Vec<_>) = named.iter().zip(differences).partition(|(_, d)| **d == 0.0);
    let list = |part: &[(&String, &f64)]| part.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ");
    match (zero.is_empty(), moved.is_empty()) {
        (false, true) => {
            format!("{} showed no difference on any deal group that measured {}", list(&zero), them(zero.len()))
        }
        (true, _) => {
            format!(
                "{} showed the same difference on every deal group that measured {}",
                list(&moved),
                them(moved.len())
            )
        }
        (false, false) => format!(
            "{} showed no difference on any deal group that measured {}, and {} the same difference on every one",
            list(&zero),
            them(zero.len()),
            list(&moved)
        ),
    }
}

/// The separate changes among these change numbers, in order, each once.
pub fn changes(numbers: impl IntoIterator<Item = usize>) -> Vec<usize> {
    let mut numbers: Vec<usize> = numbers.into_iter().collect();
    numbers.sort_unstable();
    numbers.dedup();
    numbers
}

/// The changed figures' separate changes in words (`changed`: each changed figure's name
/// as the reader sees it, with its change's number), or `None` where each figure is a
/// change of its own: "They come to 2 separate changes: a and b move together, one change
/// seen in several figures (...)".
pub fn together_words(changed: &[(String, usize)]) -> Option<String> {
    let numbers = changes(changed.iter().map(|c| c.1));
    if numbers.len() == changed.len() {
        return None;
    }
    let and = |names: Vec<&str>| match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    };
    let sets: Vec<String> = numbers
        .iter()
        .map(|&n| changed.iter().filter(|c| c.1 == n).map(|c| c.0.as_str()).collect::<Vec<_>>())
        .filter(|names| names.len() > 1)
        .map(and)
        .collect();
    let (first, rest) = sets.split_first()?;
    let others: String = rest.iter().map(|s| format!(", as do {s}")).collect();
    let mirror =
        if sets.iter().any(|s| s.contains("balance")) { "; the balance mirrors the seat advantage" } else { "" };
    Some(format!(
        "They come to {} separate change{}: {first} move together{others}, one change seen in several figures (their differences across deal groups correlate by {TOGETHER} or more in size{mirror}).",
        numbers.len(),
        if numbers.len() == 1 { "" } else { "s" }
    ))
}

/// Every figure of A against B, Holm-corrected over all of them; each judged against its
/// smallest effect that matters (`spec.min_effects` over [`min_effect`]).
pub fn differences(a: &VariantGroups, b: &VariantGroups, spec: &VersusSpec, scales: &Scales) -> Vec<Difference> {
    // Each figure, with the strategy it belongs to where it is one strategy's.
    // The skill gap is A's best strategy's over random under both (as sensitivity measures
    // it), so its row names that strategy.
    let mut rows: Vec<(Option<String>, FigureEffect)> = figure_effects(a, b)
        .into_iter()
        .map(|f| (if f.figure == "skill_gap" { a.best_strategy().map(str::to_string) } else { None }, f))
        .collect();
    // Each strategy seated under both, by name: its score and its win rate per unit. Where
    // the tables differ in size a fair share of the wins differs too (1/players), so the
    // win rate is compared as a multiple of it: a strategy that only keeps its share has
    // not changed.
    let other_tables = a.players > 0 && b.players > 0 && a.players != b.players;
    let (win_figure, scale_a, scale_b) =
        if other_tables { (WIN_OVER_FAIR, a.players as f64, b.players as f64) } else { ("win_rate", 1.0, 1.0) };
    for (x, (name, _)) in a.strategies.iter().enumerate() {
        let Some(y) = b.strategies.iter().position(|(n, _)| n == name) else { continue };
        let score_a: Vec<f64> = a.score_per_unit(x).collect();
        let score_b: Vec<f64> = b.score_per_unit(y).collect();
        let win_a: Vec<f64> = a.win_rate_per_group(x).into_iter().map(|w| w * scale_a).collect();
        let win_b: Vec<f64> = b.win_rate_per_group(y).into_iter().map(|w| w * scale_b).collect();
        for (figure, found) in
            [("score", paired_mean_series(&score_a, &score_b)), (win_figure, paired_mean_series(&win_a, &win_b))]
        {
            if let Some((base, effect, p, series)) = found {
                let groups = series.len();
                rows.push((
                    Some(name.clone()),
                    FigureEffect { figure: figure.into(), base, effect, p, groups, series },
                ));
            }
        }
    }
    let stakes = {
        let per: Vec<f64> = (0..a.strategies.len()).flat_map(|x| a.score_per_unit(x)).map(f64::abs).collect();
        if per.is_empty() { 0.0 } else { per.iter().sum::<f64>() / per.len() as f64 }
    };
    // A difference alike on every one of a few deal groups has an interval of no width and
    // a p-value of 0 that says nothing: it is undecided, and kept out of the correction's
    // smallest p-values (as in sensitivity), where it would loosen every other figure's.
    for (_, f) in rows.iter_mut() {
        if alike(&f.effect) && f.groups < ALIKE_GROUPS && f.effect.mean != 0.0 {
            f.p = 1.0;
        }
    }
    let corrected = holm(&rows.iter().map(|r| r.1.p).collect::<Vec<_>>());
    let mut rows: Vec<Difference> = rows
        .into_iter()
        .zip(corrected)
        .map(|((strategy, FigureEffect { figure, base, effect: difference, p, groups, series }), p_holm)| {
            let b = base + difference.mean;
            let given = spec.min_effects.iter().rev().find(|(name, _)| {
                *name == figure || strategy.as_ref().is_some_and(|s| *name == format!("{figure}:{s}"))
            });
            let min = given.map_or_else(
                || match figure.as_str() {
                    // A win rate's smallest effect, judged on the rates themselves, in the
                    // scaled figure's units at the larger table.
                    WIN_OVER_FAIR => {
                        min_effect("win_rate", base / scale_a, b / scale_b, scales, stakes) * scale_a.max(scale_b)
                    }
                    _ => min_effect(&figure, base, b, scales, stakes),
                },
                |(_, v)| *v,
            );
            let verdict = if alike(&difference) && groups < ALIKE_GROUPS {
                Verdict::Undecided
            } else if p_holm < 0.05 && difference.mean.abs() >= min && difference.mean != 0.0 {
                Verdict::Changed
            } else if (difference.lo > -min && difference.hi < min) || (difference.lo == 0.0 && difference.hi == 0.0) {
                Verdict::Unchanged
            } else {
                Verdict::Undecided
            };
            Difference {
                figure,
                strategy,
                a: base,
                b,
                difference,
                p,
                p_holm,
                min_effect: min,
                verdict,
                groups,
                series,
                change: 0,
            }
        })
        .collect();
    group_changes(&mut rows);
    rows
}

/// How strongly two changed figures' differences must correlate across deal groups (in
/// size, either sign) to count as one change: a rule that makes more rounds end in a fold
/// moves the fold rate and the showdown rate together, one change seen twice.
pub const TOGETHER: f64 = 0.7;

/// Fewest deal groups two series share before their correlation links them.
const TOGETHER_GROUPS: usize = 10;

/// Pearson's correlation of two series over the groups both hold; `None` on too few
/// groups or a series without spread.
pub fn correlation(x: &[f64], y: &[f64]) -> Option<f64> {
    (x.len().min(y.len()) >= TOGETHER_GROUPS).then(|| crate::stats::correlation(x, y)).flatten()
}

/// Numbers the changed figures' separate changes: two changed figures whose differences
/// correlate across deal groups by at least [`TOGETHER`] in size share a change, as do the
/// seat advantage and the balance, and so does a chain of such pairs. Changes are numbered
/// from 1 in the rows' order; every figure not changed gets 0.
pub fn group_changes(rows: &mut [Difference]) {
    let changed: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].verdict == Verdict::Changed).collect();
    let mut root: Vec<usize> = (0..rows.len()).collect();
    fn find(root: &mut [usize], mut i: usize) -> usize {
        while root[i] != i {
            root[i] = root[root[i]];
            i = root[i];
        }
        i
    }
    // The balance is one minus the seat advantage: one figure read two ways.
    let mirrored = |a: &Difference, b: &Difference| {
        let (x, y) = (a.figure.as_str(), b.figure.as_str());
        matches!((x, y), ("seat_advantage", "balance") | ("balance", "seat_advantage"))
    };
    for (k, &i) in changed.iter().enumerate() {
        for &j in &changed[k + 1..] {
            let together = correlation(&rows[i].series, &rows[j].series).is_some_and(|r| r.abs() >= TOGETHER);
            if together || mirrored(&rows[i], &rows[j]) {
                let (ri, rj) = (find(&mut root, i), find(&mut root, j));
                root[ri.max(rj)] = ri.min(rj);
            }
        }
    }
    let mut number = vec![0; rows.len()];
    let mut next = 0;
    for &i in &changed {
        let r = find(&mut root, i);
        if number[r] == 0 {
            next += 1;
            number[r] = next;
        }
        number[i] = number[r];
    }
    for (row, n) in rows.iter_mut().zip(number) {
        row.change = n;
    }
}

/// The `versus` table: a row per figure (per strategy for `score` and `win_rate`).
pub fn versus_table(rows: &[Difference]) -> Table {
    let float = |f: &dyn Fn(&Difference) -> f64| Values::Float(rows.iter().map(f).collect());
    Table::new(super::kind::VERSUS.tables[0])
        .with("figure", Values::Text(rows.iter().map(|r| r.figure.clone()).collect()))
        .with("strategy", Values::Text(rows.iter().map(|r| r.strategy.clone().unwrap_or_default()).collect()))
        .with("a", float(&|r| r.a))
        .with("b", float(&|r| r.b))
        .with("difference", float(&|r| r.difference.mean))
        .with("difference_lo", float(&|r| r.difference.lo))
        .with("difference_hi", float(&|r| r.difference.hi))
        .with("p_value", float(&|r| r.p))
        .with("p_holm", float(&|r| r.p_holm))
        .with("min_effect", float(&|r| r.min_effect))
        .with("groups", Values::Int(rows.iter().map(|r| r.groups as i64).collect()))
        .with("verdict", Values::Text(rows.iter().map(|r| r.verdict.word().to_string()).collect()))
        .with("change", Values::Int(rows.iter().map(|r| r.change as i64).collect()))
}

/// Parses `--min-effect NAME=VALUE` (a figure, `score`, `win_rate`, or one strategy's
/// `score:NAME`).
pub fn parse_min_effect(text: &str) -> Result<(String, f64), InputError> {
    let bad = || InputError::new(format!("--min-effect '{text}': write FIGURE=VALUE, e.g. length_mean=0.5"));
    let (name, value) = text.split_once('=').ok_or_else(bad)?;
    let value: f64 = value.trim().parse().map_err(|_| bad())?;
    if value.is_finite() && value < 0.0 && !name.trim().is_empty() {
        return Err(InputError::new(format!(
            "--min-effect '{text}': an effect is a size, 0 or more; write {}={}",
            name.trim(),
            -value
        )));
    }
    if !value.is_finite() || value < 0.0 || name.trim().is_empty() {
        return Err(bad());
    }
    Ok((name.trim().to_string(), value))
}

/// Each seated strategy with the smallest score change that matters for it: what
/// [`exploitability_warnings`] weighs each strategy's distance from optimal against.
pub fn seated_score_effects(rows: &[Difference]) -> Vec<(String, f64)> {
    rows.iter().filter(|r| r.figure == "score").filter_map(|r| Some((r.strategy.clone()?, r.min_effect))).collect()
}

/// Warnings from `draftsim exploitability`'s folder `dir` on the seated strategies
/// (`seated`: each with its smallest score change that matters): one for each found at
/// least that far from optimal (a stronger field could change what B does), one for those
/// whose lower bound does not reach it (a bound from below does not show a strategy plays
/// well), and one naming those not measured there. `rules` are A's and B's in force,
/// `players` their tables', to say where the measurement came from another table.
pub fn exploitability_warnings(
    dir: &std::path::Path,
    game: &str,
    seated: &[(String, f64)],
    rules: (&str, &str),
    players: (usize, usize),
) -> Result<Vec<String>, Error> {
    let shown = dir.display();
    let meta: serde_json::Value = std::fs::read_to_string(dir.join("study.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .filter(|m: &serde_json::Value| m["kind"] == crate::study::kind::EXPLOITABILITY.name)
        .ok_or_else(|| {
            InputError::new(format!(
                "--exploitability {shown}: not a folder `draftsim exploitability --out` wrote; measure the seats there first"
            ))
        })?;
    if meta["game"] != game {
        return Err(InputError::new(format!(
            "--exploitability {shown}: measured for {}, not {game}",
            meta["game"].as_str().unwrap_or("another game")
        ))
        .into());
    }
    let table = crate::report::find_table(dir, crate::study::kind::EXPLOITABILITY.tables[0])
        .ok_or_else(|| InputError::new(format!("--exploitability {shown}: no exploitability table there")))?;
    let t = crate::output::read_frame(&table)?;
    let (names, values, bounds) = (
        crate::report::texts(&t, "strategy")?,
        crate::report::floats(&t, "exploitability")?,
        crate::report::texts(&t, "bound")?,
    );
    // A bound by play that no responder set (`none gained`) says nothing of the distance.
    let responders = crate::report::texts(&t, "best_responder").ok();
    let (los, his) =
        match (crate::report::floats(&t, "exploitability_lo"), crate::report::floats(&t, "exploitability_hi")) {
            (Ok(lo), Ok(hi)) => (lo, hi),
            _ => (values.clone(), values.clone()),
        };
    let mut where_from = Vec::new();
    if let Some(p) = meta["players"].as_u64().map(|p| p as usize) {
        let (a, b) = players;
        match (p == a, p == b) {
            (true, true) => {}
            (true, false) => where_from.push(format!("at A's table size ({p} players), not B's ({b})")),
            (false, true) => where_from.push(format!("at B's table size ({p} players), not A's ({a})")),
            (false, false) => where_from.push(format!("at {p} players")),
        }
    }
    // The table size is said apart: the rules are compared without it.
    if let Some(measured) = meta["rules"].as_str() {
        let same =
            |other: &str| crate::games::presets::differing_keys(measured, other).iter().all(|(k, _, _)| k == "players");
        match (same(rules.0), same(rules.1)) {
            (true, true) => {}
            (true, false) => where_from.push("under A's rules, not B's".to_string()),
            (false, true) => where_from.push("under B's rules, not A's".to_string()),
            (false, false) => where_from.push("under other rules than A's and B's".to_string()),
        }
    }
    let from = if where_from.is_empty() { String::new() } else { format!(", measured {}", where_from.join(" and ")) };
    let mut out = Vec::new();
    let (mut unsure, mut unmeasured, mut blind) = (Vec::new(), Vec::new(), Vec::new());
    for (name, min_effect) in seated {
        let Some(i) = names.iter().position(|n| n == name) else {
            unmeasured.push(name.as_str());
            continue;
        };
        // Exact or an estimate with its sampling interval: only a bound by play is "at least".
        let exact = bounds[i] != "lower";
        // The interval's lower end: an exact figure's sampling noise or a bound's (the figure
        // itself where there is no interval, as with one decision a set).
        let lo = if los[i].is_finite() { los[i] } else { values[i] };
        let interval =
            if los[i].is_finite() { format!(" [{}, {}]", short(los[i]), short(his[i])) } else { String::new() };
        if lo >= *min_effect {
            out.push(format!(
                "{name} is {}{} from optimal{interval} ({shown}{from}), more than the smallest score change that matters here ({}): a stronger field could change this verdict",
                if exact { "" } else { "at least " },
                short(values[i]),
                short(*min_effect),
            ));
        } else if !exact && responders.as_ref().is_some_and(|r| r[i] == "none gained") {
            blind.push(name.as_str());
        } else if !exact || his[i] >= *min_effect {
            unsure.push(format!("{name} {}{}{interval}", if exact { "" } else { "at least " }, short(values[i])));
        }
    }
    if !unsure.is_empty() {
        out.push(format!(
            "{} from optimal ({shown}{from}): not shown to be within the smallest score change that matters of it (a lower bound, or an interval that reaches it), so this field is not shown to be strong",
            unsure.join(", ")
        ));
    }
    if !blind.is_empty() {
        out.push(format!(
            "no responder tried in {shown} gained against {}{from}: a bound of 0, which does not show {} near optimal, so this field is not shown to be strong",
            blind.join(", "),
            if blind.len() == 1 { "it" } else { "them" }
        ));
    }
    if !unmeasured.is_empty() {
        out.push(format!(
            "{} not measured in {shown}: how far from optimal {} is unknown",
            unmeasured.join(", "),
            if unmeasured.len() == 1 { "it plays" } else { "they play" }
        ));
    }
    Ok(out)
}

/// Whether a rules difference (`key = a -> b`), or a swept key, changes what is dealt (the
/// deck, its size, the table).
pub fn changes_the_deal(difference: &str) -> bool {
    let key = difference.split(' ').next().unwrap_or_default();
    ["players", "deck", "ranks", "colours", "expansion", "multicoloured", "removed", "pack_size", "hand_size"]
        .iter()
        .any(|k| key.contains(k))
}

/// Where A and B deal differently, the sentence that says their deals are paired by index
/// only, so the intervals are as wide as two independent runs'.
/// `over_fair`: the win rates were compared as [`WIN_OVER_FAIR`] (tables written before it
/// compared them raw).
pub fn pairing_note(players_a: usize, players_b: usize, differs: &[String], over_fair: bool) -> Option<String> {
    (players_a != players_b || differs.iter().any(|d| changes_the_deal(d))).then(|| {
        let mut why: Vec<String> = differs.iter().filter(|d| changes_the_deal(d)).cloned().collect();
        // The table size is named once, and only where it differs.
        let players = players_a != players_b;
        if players {
            why.retain(|d| !d.starts_with("players "));
            why.insert(0, format!("{players_a} players under A, {players_b} under B"));
        }
        let share = if players && over_fair {
            format!(
                " A strategy's fair share of the wins is 1/{players_a} under A and 1/{players_b} under B, so its win rate is compared as {WIN_OVER_FAIR}, the win rate over that share (1 is a fair share): a win rate that moves with the table size alone has not changed."
            )
        } else if players {
            format!(
                " A strategy's fair share of the wins is 1/{players_a} under A and 1/{players_b} under B: win_rate moves with the table size alone."
            )
        } else {
            String::new()
        };
        format!(
            "A and B deal differently ({}): deal d of each comes from the same seed, so deals are paired by index rather than by identical cards, and the intervals are no narrower than two independent runs' would be.{share}",
            why.join("; ")
        )
    })
}

/// Where a change's interval reaches inside its smallest effect `min`: said, since the
/// change is shown but not that it is that large (more rounds would tell).
pub fn size_uncertain(d: Estimate, min: f64) -> Option<String> {
    let near = if d.mean > 0.0 { d.lo } else { -d.hi };
    let min_text = short(min);
    let min_text =
        if min_text.contains('.') { min_text.trim_end_matches('0').trim_end_matches('.') } else { &min_text };
    (near < min)
        .then(|| format!("its interval reaches within the smallest effect, ±{min_text}, so how large is not shown"))
}

/// A number in four significant figures at most, as the verdict shows it.
pub fn short(x: f64) -> String {
    // -0 reads as a sign the figure does not have.
    if x == 0.0 {
        return "0".to_string();
    }
    if !x.is_finite() {
        return format!("{x}");
    }
    let digits = (3 - x.abs().log10().floor() as i32).clamp(0, 6) as usize;
    format!("{x:.digits$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A change whose interval reaches inside its smallest effect says its size is not
    /// shown; one wholly past it, or a fall wholly past it, says nothing.
    #[test]
    fn a_change_reaching_inside_its_smallest_effect_is_said_uncertain_in_size() {
        let e = |mean, lo, hi| Estimate { mean, lo, hi };
        assert_eq!(
            size_uncertain(e(-0.0067, -0.0086, -0.0049), 0.0065).as_deref(),
            Some("its interval reaches within the smallest effect, ±0.0065, so how large is not shown")
        );
        assert!(size_uncertain(e(0.0104, 0.0054, 0.0155), 0.01).is_some_and(|s| s.contains("±0.01,")));
        assert_eq!(size_uncertain(e(0.1, 0.09, 0.11), 0.05), None);
        assert_eq!(size_uncertain(e(-0.1, -0.11, -0.09), 0.05), None);
    }

    /// A bound by play that no responder set is said as such, not as "at least 0 [0, 0]",
    /// which would read as a proof of optimal play.

    #[test]
    fn a_strategy_no_responder_gained_against_is_not_called_near_optimal() {
        let dir = std::env::temp_dir().join(format!("draftsim-versus-blind-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("study.json"), r#"{"kind": "exploitability", "game": "sevens", "players": 4}"#)
            .unwrap();
        std::fs::write(
            dir.join("exploitability.csv"),
            "strategy,exploitability,exploitability_lo,exploitability_hi,bound,method,best_responder\n\
             tight,0,0,0,lower,best of 1 responder,none gained\n\
             random,0.5,0.3,0.7,lower,best of 1 responder,tight\n",
        )
        .unwrap();
        let seated = [("tight".to_string(), 0.02), ("random".to_string(), 0.02)];
        let said = exploitability_warnings(&dir, "sevens", &seated, ("", ""), (4, 4)).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(said.iter().all(|w| !w.contains("tight at least 0")), "{said:?}");
        assert!(
            said.iter().any(|w| w.starts_with("no responder tried in ")
                && w.contains("gained against tight: a bound of 0, which does not show it near optimal")),
            "{said:?}"
        );
        assert!(
            said.iter().any(|w| w.starts_with("random is at least 0.5000 from optimal [0.3000, 0.7000]")),
            "{said:?}"
        );
    }

    /// Figures whose differences move together across deal groups are one change; a figure
    /// moving on its own, or one not changed, is not joined to them.
    #[test]
    fn figures_that_move_together_are_one_change() {
        // A planted effect per group (a rule ending some rounds in a fold) seen by three
        // figures, and a figure driven by other noise.
        let effect: Vec<f64> = (0..40).map(|g| ((g * 7919) % 13) as f64 - 6.0).collect();
        let noise: Vec<f64> = (0..40).map(|g| ((g * 104_729) % 11) as f64 - 5.0).collect();
        let row = |figure: &str, series: Vec<f64>, verdict: Verdict| Difference {
            figure: figure.into(),
            strategy: None,
            a: 0.0,
            b: 0.0,
            difference: Estimate { mean: 0.0, lo: 0.0, hi: 0.0 },
            p: 0.0,
            p_holm: 0.0,
            min_effect: 0.0,
            verdict,
            groups: series.len(),
            series,
            change: 7,
        };
        let mut rows = vec![
            row("fold_rate_r2", effect.clone(), Verdict::Changed),
            row("length_mean", noise.clone(), Verdict::Changed),
            // The showdown rate falls as folds rise: correlated with the opposite sign.
            row("showdown_rate", effect.iter().map(|e| -0.9 * e + 0.1).collect(), Verdict::Changed),
            row("completion", effect.clone(), Verdict::Undecided),
            // The same effect under a little noise of its own.
            row("pot", effect.iter().zip(&noise).map(|(e, n)| -e + 0.2 * n).collect(), Verdict::Changed),
            row("seat_advantage", Vec::new(), Verdict::Changed),
            row("balance", Vec::new(), Verdict::Changed),
        ];
        group_changes(&mut rows);
        let changes: Vec<usize> = rows.iter().map(|r| r.change).collect();
        assert_eq!(changes, [1, 2, 1, 0, 1, 3, 3]);
        assert!(correlation(&effect, &noise).unwrap().abs() < TOGETHER);
        assert_eq!(correlation(&effect[..9], &effect[..9]), None, "too few groups link nothing");
        let named: Vec<(String, usize)> =
            rows.iter().filter(|r| r.change > 0).map(|r| (format!("`{}`", r.figure), r.change)).collect();
        assert_eq!(
            together_words(&named).unwrap(),
            "They come to 3 separate changes: `fold_rate_r2`, `showdown_rate` and `pot` move together, as do \
             `seat_advantage` and `balance`, one change seen in several figures (their differences across deal \
             groups correlate by 0.7 or more in size; the balance mirrors the seat advantage)."
        );
        let two = [("a".to_string(), 1), ("b".to_string(), 1), ("c".to_string(), 2), ("d".to_string(), 2)];
        assert_eq!(
            together_words(&two).unwrap(),
            "They come to 2 separate changes: a and b move together, as do c and d, one change seen in several \
             figures (their differences across deal groups correlate by 0.7 or more in size)."
        );
        assert_eq!(together_words(&named[1..2]), None, "one change alone says nothing");
    }

    #[test]
    fn short_numbers_have_four_figures_and_no_negative_zero() {
        assert_eq!(short(-0.0), "0");
        assert_eq!(short(0.123456), "0.1235");
        assert_eq!(short(-41.26), "-41.26");
    }

    #[test]
    fn the_pairing_note_names_what_deals_differently() {
        let d = |t: &str| vec![t.to_string()];
        assert_eq!(pairing_note(4, 4, &d("raise_cap = 1 -> 2"), true), None);
        let deck = pairing_note(4, 4, &d("deck = \"standard\" -> \"short-36\""), true).unwrap();
        assert!(deck.starts_with("A and B deal differently (deck = ") && !deck.contains("players"), "{deck}");
        let table = pairing_note(4, 5, &d("players = 4 -> 5"), true).unwrap();
        assert!(table.starts_with("A and B deal differently (4 players under A, 5 under B): "), "{table}");
        assert!(table.ends_with("1/4 under A and 1/5 under B, so its win rate is compared as win_rate_over_fair, the win rate over that share (1 is a fair share): a win rate that moves with the table size alone has not changed."), "{table}");
    }

    #[test]
    fn a_verdict_needs_significance_and_size() {
        let spec = VersusSpec {
            rules_a: None,
            rules_b: None,
            players: None,
            seats: None,
            deals: 0,
            seed: 0,
            min_effects: vec![("length_mean".into(), 0.5)],
        };
        let none = Scales::default();
        assert_eq!(min_effect("completion", 0.8, 0.95, &none, 1.0), 0.01);
        // A rare outcome: a tenth of its share, on either side of the scale.
        let folds = Scales { rates: vec!["fold_rate_r1".to_string()], ..Scales::default() };
        assert!((min_effect("fold_rate_r1", 0.011, 0.004, &folds, 1.0) - 0.0011).abs() < 1e-12);
        assert!((min_effect("completion", 0.999, 0.995, &none, 1.0) - 0.0005).abs() < 1e-12);
        assert_eq!(min_effect("seat_advantage", 0.001, 0.002, &none, 1.0), 0.01);
        assert_eq!(min_effect("length_mean", 40.0, 50.0, &none, 1.0), 0.5);
        assert_eq!(min_effect("score", 4.0, 5.0, &none, 3.0), 0.06);
        // A measure in chips is judged on the stakes, not on its own size.
        let chips = Scales { in_score: vec!["chips_per_round_with_hate".to_string()], ..Scales::default() };
        assert_eq!(min_effect("chips_per_round_with_hate", 0.5, 0.7, &chips, 3.0), 0.06);
        assert!((min_effect("chips_per_round_with_hate", 0.5, 0.7, &none, 3.0) - 0.007).abs() < 1e-12);
        assert_eq!(parse_min_effect("length_mean=0.5").unwrap(), ("length_mean".into(), 0.5));
        assert!(parse_min_effect("length_mean=-1").is_err() && parse_min_effect("x").is_err());
        assert_eq!(spec.min_effects[0].1, 0.5);
    }
}
