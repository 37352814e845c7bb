//! `ladder`: the search bot at each budget against the budget before it, on paired deals
//! under balanced seatings, and the variant's skill depth: how many steps up the ladder more
//! thinking still wins the score (Ludii's skill trace, TabletopGames' skill ladder).

use std::sync::atomic::AtomicBool;

use crate::error::{Error, InputError};
use crate::games::GameInfo;
use crate::output::{Table, Values};
use crate::sim::Shard;
use crate::stats::Estimate;
use crate::study::compare::{PairPart, compare_part, pair_from_parts};
use crate::study::versus::decides_above;
use crate::study::{CompareSpec, PairResult, compare_from_pairs, compare_shard};

/// What the ladder plays.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LadderSpec {
    /// Rules file text, if any.
    pub rules: Option<String>,
    /// Search budgets (iterations per decision), increasing.
    pub budgets: Vec<u32>,
    /// Seats at the table (budgets seated A, B, A, B, ...).
    pub players: usize,
    /// Units each step plays.
    pub rounds_per_step: u64,
    /// The seed (the same deals at every step).
    pub seed: u64,
}

/// One step: `budget` against `opponent`.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderStep {
    /// Iterations per decision of the stronger side.
    pub budget: u32,
    /// Iterations per decision of the side it plays.
    pub opponent: u32,
    /// Units played.
    pub rounds: u64,
    /// The stronger side's share of the wins (draws counted half), with a 95% interval.
    pub win_share: Estimate,
    /// Its paired score difference per seat and unit, with a 95% interval.
    pub score_diff: Estimate,
    /// The deal groups the intervals are over.
    pub groups: u64,
}

/// The ladder's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Ladder {
    /// Every step, lowest budget first.
    pub steps: Vec<LadderStep>,
    /// Consecutive steps from the first whose score difference's lower bound is above zero:
    /// the larger budget wins the score (chips, victory cards), not only more units.
    pub skill_depth: usize,
    /// Consecutive steps from the first whose win share's lower bound is above one half
    /// (units won, whatever their size).
    pub skill_depth_by_wins: usize,
    /// The game's column name for the paired score difference.
    pub pair_column: String,
}

/// The steps after the skill depth's unbroken run that win the score again (`wins`: each
/// step's score above zero as evidence, see [`decides_above`]), named as "B v A" in words,
/// or `None` where there are none: the depth counts only the run from the first step, and a
/// curve that dips and rises again is not one that flattens.
pub fn winning_again(budgets: &[(f64, f64)], wins: &[bool], depth: usize) -> Option<String> {
    let again = named_steps(budgets, wins, depth + 1);
    (!again.is_empty()).then(|| {
        format!(
            "a later step wins again ({}): the depth counts only the unbroken run from the first step, so skill may pay again at larger budgets",
            again.join(", ")
        )
    })
}

/// The steps from the first the skill depth's run left out whose larger budget loses the
/// score (`losses`: each step's score below zero as evidence, see [`decides_above`]),
/// named as "B v A", or `None`: such a curve does not flatten, it turns down.
pub fn losing_after(budgets: &[(f64, f64)], losses: &[bool], depth: usize) -> Option<String> {
    let lost = named_steps(budgets, losses, depth);
    (!lost.is_empty()).then(|| {
        format!(
            "the larger budget loses the score at {} (upper bound below 0): there more search plays worse",
            lost.join(", ")
        )
    })
}

/// The steps from `from` on whose flag is set, each as "B v A".
fn named_steps(budgets: &[(f64, f64)], flags: &[bool], from: usize) -> Vec<String> {
    (from..budgets.len().min(flags.len()))
        .filter(|&i| flags[i])
        .map(|i| format!("{:.0} v {:.0}", budgets[i].0, budgets[i].1))
        .collect()
}

/// Whether a score difference is below zero as evidence (its negation above zero).
pub fn decides_below(e: &Estimate, groups: u64) -> bool {
    decides_above(&Estimate { mean: -e.mean, lo: -e.hi, hi: -e.lo }, 0.0, groups)
}

/// The seat name of the search bot at this budget: the game's preset searching every move
/// to the end (`depth = 0`) and playing its most visited move (`margin = 0`). A preset that
/// leans on its rollout policy in either way plays that policy at a budget of one, so its
/// budget would say little about how far deeper thinking pays.
pub fn search_seat(budget: u32) -> String {
    format!("search{{iterations={budget};depth=0;margin=0}}")
}

/// Refuses fewer than two budgets, a zero budget, or budgets that do not increase.
pub fn check_budgets(budgets: &[u32]) -> Result<(), InputError> {
    if budgets.len() < 2 {
        return Err(InputError::new("--budgets: give at least two budgets, increasing, e.g. 1,4,16,64"));
    }
    // A zero anywhere is named as one, not as a budget out of order.
    if budgets.contains(&0) {
        return Err(InputError::new("--budgets: a budget of 0 iterations cannot search; start at 1"));
    }
    if let Some(w) = budgets.windows(2).find(|w| w[1] <= w[0]) {
        return Err(InputError::new(format!(
            "--budgets: {} after {} does not increase; list budgets in increasing order, e.g. 1,4,16,64",
            w[1], w[0]
        )));
    }
    Ok(())
}

/// The comparison that step `k` plays: budget `k + 1` against budget `k`.
fn step_spec(spec: &LadderSpec, k: usize) -> CompareSpec {
    CompareSpec {
        rules: spec.rules.clone(),
        strategies: vec![search_seat(spec.budgets[k + 1]), search_seat(spec.budgets[k])],
        players: spec.players,
        rounds_per_pair: spec.rounds_per_step,
        seed: spec.seed,
    }
}

/// The units each step plays (its rounds rounded up to whole deals).
pub fn units_per_step(info: &GameInfo, spec: &LadderSpec) -> Result<u64, Error> {
    super::compare::units_per_pair(info, &step_spec(spec, 0))
}

/// The number of steps the ladder plays.
pub fn step_count(spec: &LadderSpec) -> usize {
    spec.budgets.len().saturating_sub(1)
}

/// Plays every step; `on_step` hears (steps done, steps, the next step) before each step
/// and once at the end. Stops with [`Error::Interrupted`] soon after `interrupt` is set.
pub fn ladder(
    info: &GameInfo,
    spec: &LadderSpec,
    interrupt: Option<&AtomicBool>,
    on_step: &mut dyn FnMut(usize, usize, &str),
) -> Result<Ladder, Error> {
    let pairs = ladder_shard(info, spec, None, interrupt, on_step)?;
    ladder_from_pairs(spec, pairs)
}

/// Plays `shard`'s steps (see [`crate::study::shard_units`]; every step without one), each
/// whole and as the unsharded ladder plays it; each step's pair result in step order.
pub fn ladder_shard(
    info: &GameInfo,
    spec: &LadderSpec,
    shard: Option<Shard>,
    interrupt: Option<&AtomicBool>,
    on_step: &mut dyn FnMut(usize, usize, &str),
) -> Result<Vec<PairResult>, Error> {
    check_budgets(&spec.budgets)?;
    let wanted = crate::study::shard_units(step_count(spec), shard);
    let mut out = Vec::with_capacity(wanted.len());
    for (done, &k) in wanted.iter().enumerate() {
        let label = format!("{} v {} iterations", spec.budgets[k + 1], spec.budgets[k]);
        let mut pairs = compare_shard(info, &step_spec(spec, k), None, interrupt, &mut |played, _, _| {
            if played == 0 {
                on_step(done, wanted.len(), &label);
            }
        })?;
        out.push(pairs.pop().expect("a step is one pair"));
    }
    on_step(wanted.len(), wanted.len(), "");
    Ok(out)
}

/// Plays the part `part` of step `k` (see [`crate::study::shard_work`]): a share of its
/// chunks, for a ladder split over more shards than it has steps.
pub fn ladder_part(
    info: &GameInfo,
    spec: &LadderSpec,
    k: usize,
    part: Shard,
    interrupt: Option<&AtomicBool>,
) -> Result<PairPart, Error> {
    check_budgets(&spec.budgets)?;
    compare_part(info, &step_spec(spec, k), 0, part, interrupt)
}

/// Step `k`'s pair result from all its parts, in part order.
pub fn step_from_parts(info: &GameInfo, spec: &LadderSpec, k: usize, parts: &[PairPart]) -> Result<PairResult, Error> {
    check_budgets(&spec.budgets)?;
    pair_from_parts(info, &step_spec(spec, k), 0, parts)
}

/// The ladder from every step's pair result, in step order (as [`ladder_shard`] gives
/// them, whole or from shards put back in order).
pub fn ladder_from_pairs(spec: &LadderSpec, pairs: Vec<PairResult>) -> Result<Ladder, Error> {
    check_budgets(&spec.budgets)?;
    if pairs.len() != step_count(spec) {
        return Err(Error::Invariant(format!("{} step results for {} steps", pairs.len(), step_count(spec))));
    }
    let mut steps = Vec::with_capacity(pairs.len());
    let mut pair_column = String::new();
    for (k, pair) in pairs.into_iter().enumerate() {
        let groups = pair.diff.groups;
        let result = compare_from_pairs(&step_spec(spec, k), vec![pair])?;
        let m = &result.matchups[0];
        pair_column.clone_from(&result.pair_column);
        steps.push(LadderStep {
            budget: spec.budgets[k + 1],
            opponent: spec.budgets[k],
            rounds: m.rounds,
            win_share: m.win_share,
            score_diff: m.chips_diff,
            groups,
        });
    }
    let skill_depth = steps.iter().take_while(|s| decides_above(&s.score_diff, 0.0, s.groups)).count();
    let skill_depth_by_wins = steps.iter().take_while(|s| decides_above(&s.win_share, 0.5, s.groups)).count();
    Ok(Ladder { steps, skill_depth, skill_depth_by_wins, pair_column })
}

impl Ladder {
    /// The `ladder` table: one row per step.
    pub fn ladder_table(&self) -> Table {
        let s = &self.steps;
        let diff = self.pair_column.clone();
        Table::new(super::kind::LADDER.tables[0])
            .with("budget", Values::Int(s.iter().map(|x| i64::from(x.budget)).collect()))
            .with("opponent_budget", Values::Int(s.iter().map(|x| i64::from(x.opponent)).collect()))
            .with("rounds", Values::Int(s.iter().map(|x| x.rounds as i64).collect()))
            .with("win_share", Values::Float(s.iter().map(|x| x.win_share.mean).collect()))
            .with("win_share_lo", Values::Float(s.iter().map(|x| x.win_share.lo).collect()))
            .with("win_share_hi", Values::Float(s.iter().map(|x| x.win_share.hi).collect()))
            .with(&diff, Values::Float(s.iter().map(|x| x.score_diff.mean).collect()))
            .with(&format!("{diff}_lo"), Values::Float(s.iter().map(|x| x.score_diff.lo).collect()))
            .with(&format!("{diff}_hi"), Values::Float(s.iter().map(|x| x.score_diff.hi).collect()))
            .with("deal_groups", Values::Int(s.iter().map(|x| x.groups as i64).collect()))
    }

    /// The `skill_depth` table: one row.
    pub fn depth_table(&self) -> Table {
        // With no winning step the deepest budget that still pays is the ladder's base.
        let top = match self.skill_depth {
            0 => self.steps.first().map_or(0, |s| i64::from(s.opponent)),
            d => i64::from(self.steps[d - 1].budget),
        };
        Table::new("skill_depth")
            .with("skill_depth", Values::Int(vec![self.skill_depth as i64]))
            .with("steps", Values::Int(vec![self.steps.len() as i64]))
            .with("deepest_budget_that_still_wins", Values::Int(vec![top]))
            .with("judged_by", Values::Text(vec![format!("{} lower bound above 0", self.pair_column)]))
            .with("skill_depth_by_wins", Values::Int(vec![self.skill_depth_by_wins as i64]))
    }

    /// One sentence for the terminal.
    pub fn summary(&self) -> String {
        let judged = match self.skill_depth {
            0 => format!(
                "skill depth 0: the first step up the ladder does not win the score reliably ({} lower bound not above 0)",
                self.pair_column
            ),
            d if d == self.steps.len() => format!(
                "skill depth {d} of {d}: every step up the ladder still wins the score ({} lower bound above 0); skill keeps paying at these budgets",
                self.pair_column
            ),
            d => format!(
                "skill depth {d} of {}: more search wins the score ({} lower bound above 0) up to {} iterations, then a step does not",
                self.steps.len(),
                self.pair_column,
                self.steps[d - 1].budget
            ),
        };
        let pairs: Vec<(f64, f64)> = self.steps.iter().map(|s| (f64::from(s.budget), f64::from(s.opponent))).collect();
        let wins: Vec<bool> = self.steps.iter().map(|s| decides_above(&s.score_diff, 0.0, s.groups)).collect();
        let losses: Vec<bool> = self.steps.iter().map(|s| decides_below(&s.score_diff, s.groups)).collect();
        let judged =
            match (winning_again(&pairs, &wins, self.skill_depth), losing_after(&pairs, &losses, self.skill_depth)) {
                (Some(again), Some(lost)) => format!("{judged}; {again}; {lost}"),
                (Some(words), None) | (None, Some(words)) => format!("{judged}; {words}"),
                (None, None) if self.skill_depth > 0 && self.skill_depth < self.steps.len() => {
                    format!("{judged}: the curve flattens")
                }
                (None, None) => judged,
            };
        format!("{judged}; judged by units won alone, {} of {}", self.skill_depth_by_wins, self.steps.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(budget: u32, lo: f64) -> LadderStep {
        let e = Estimate { mean: lo + 0.1, lo, hi: lo + 0.2 };
        LadderStep { budget, opponent: budget / 4, rounds: 100, win_share: e, score_diff: e, groups: 100 }
    }

    /// A step whose every deal group gave the larger budget the same lead has an interval of
    /// no width: over a few groups it does not count as a win, over enough it does.
    #[test]
    fn a_step_alike_on_a_few_deal_groups_does_not_decide() {
        let e = Estimate { mean: 0.5, lo: 0.5, hi: 0.5 };
        assert!(!decides_above(&e, 0.0, 4));
        assert!(decides_above(&e, 0.0, 60));
        let wide = Estimate { mean: 0.5, lo: 0.1, hi: 0.9 };
        assert!(decides_above(&wide, 0.0, 4));
        assert!(!decides_above(&wide, 0.2, 400));
    }

    #[test]
    fn a_step_that_wins_again_after_the_run_is_named() {
        // 4 v 1 wins, 16 v 4 does not, 64 v 16 wins again: depth 1, not "flattens".
        let steps = vec![step(4, 0.05), step(16, -0.02), step(64, 0.2)];
        let ladder = Ladder { steps, skill_depth: 1, skill_depth_by_wins: 0, pair_column: "chips_diff".into() };
        let said = ladder.summary();
        assert!(said.contains("up to 4 iterations, then a step does not; a later step wins again (64 v 16)"), "{said}");
        assert!(!said.contains("flattens"), "{said}");
        // Without one, the curve flattens.
        let steps = vec![step(4, 0.05), step(16, -0.02), step(64, -0.1)];
        let flat = Ladder { steps, skill_depth: 1, skill_depth_by_wins: 0, pair_column: "chips_diff".into() };
        assert!(flat.summary().contains("then a step does not: the curve flattens"), "{}", flat.summary());
        // A step whose larger budget surely loses turns the curve down: not "flattens".
        let alike_loss = Ladder {
            steps: vec![
                step(4, 0.05),
                LadderStep { score_diff: Estimate { mean: -0.5, lo: -0.5, hi: -0.5 }, groups: 4, ..step(16, -0.5) },
            ],
            skill_depth: 1,
            skill_depth_by_wins: 0,
            pair_column: "chips_diff".into(),
        };
        assert!(
            alike_loss.summary().contains("the curve flattens"),
            "a loss alike on four groups decides nothing: {}",
            alike_loss.summary()
        );
        let steps = vec![step(4, 0.05), step(16, -0.5)];
        let down = Ladder { steps, skill_depth: 1, skill_depth_by_wins: 0, pair_column: "chips_diff".into() };
        let said = down.summary();
        assert!(
            said.contains("then a step does not; the larger budget loses the score at 16 v 4 (upper bound below 0)"),
            "{said}"
        );
        assert!(!said.contains("flattens"), "{said}");
        let again = winning_again(&[(4.0, 1.0), (16.0, 4.0)], &[false, true], 0).unwrap();
        assert!(again.starts_with("a later step wins again (16 v 4):"), "{again}");
    }
}
