//! `ladder`: the search bot at each budget against the budget before it, on paired deals
//! with seats rotated, and the variant's skill depth: how many steps up the ladder more
//! thinking still wins (Ludii's skill trace, TabletopGames' skill ladder).

use std::sync::atomic::AtomicBool;

use crate::error::{Error, InputError};
use crate::games::GameInfo;
use crate::output::{Table, Values};
use crate::stats::Estimate;
use crate::study::{CompareSpec, compare_interruptible};

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
}

/// The ladder's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Ladder {
    /// Every step, lowest budget first.
    pub steps: Vec<LadderStep>,
    /// Consecutive steps from the first whose win share's lower bound is above one half.
    pub skill_depth: usize,
    /// The game's column name for the paired score difference.
    pub pair_column: String,
}

/// The seat name of the search bot at this budget.
pub fn search_seat(budget: u32) -> String {
    format!("search{{iterations={budget}}}")
}

/// Refuses fewer than two budgets, a zero budget, or budgets that do not increase.
pub fn check_budgets(budgets: &[u32]) -> Result<(), InputError> {
    if budgets.len() < 2 {
        return Err(InputError::new("--budgets: give at least two budgets, increasing, e.g. 1,4,16,64"));
    }
    if budgets[0] == 0 {
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

/// Plays every step; `on_step` hears (steps done, steps, the next step) before each step
/// and once at the end. Stops with [`Error::Interrupted`] soon after `interrupt` is set.
pub fn ladder(
    info: &GameInfo,
    spec: &LadderSpec,
    interrupt: Option<&AtomicBool>,
    on_step: &mut dyn FnMut(usize, usize, &str),
) -> Result<Ladder, Error> {
    check_budgets(&spec.budgets)?;
    let count = spec.budgets.len() - 1;
    let mut steps = Vec::with_capacity(count);
    let mut pair_column = String::new();
    for (k, pair) in spec.budgets.windows(2).enumerate() {
        let (low, high) = (pair[0], pair[1]);
        let label = format!("{high} v {low} iterations");
        let compare = CompareSpec {
            rules: spec.rules.clone(),
            strategies: vec![search_seat(high), search_seat(low)],
            players: spec.players,
            rounds_per_pair: spec.rounds_per_step,
            seed: spec.seed,
        };
        let result = compare_interruptible(info, &compare, interrupt, &mut |done, _, _| {
            if done == 0 {
                on_step(k, count, &label);
            }
        })?;
        let m = &result.matchups[0];
        pair_column.clone_from(&result.pair_column);
        steps.push(LadderStep {
            budget: high,
            opponent: low,
            rounds: m.rounds,
            win_share: m.win_share,
            score_diff: m.chips_diff,
        });
    }
    on_step(count, count, "");
    let skill_depth = steps.iter().take_while(|s| s.win_share.lo > 0.5).count();
    Ok(Ladder { steps, skill_depth, pair_column })
}

impl Ladder {
    /// The `ladder` table: one row per step.
    pub fn ladder_table(&self) -> Table {
        let s = &self.steps;
        let diff = self.pair_column.clone();
        Table::new("ladder")
            .with("budget", Values::Int(s.iter().map(|x| i64::from(x.budget)).collect()))
            .with("opponent_budget", Values::Int(s.iter().map(|x| i64::from(x.opponent)).collect()))
            .with("rounds", Values::Int(s.iter().map(|x| x.rounds as i64).collect()))
            .with("win_share", Values::Float(s.iter().map(|x| x.win_share.mean).collect()))
            .with("win_share_lo", Values::Float(s.iter().map(|x| x.win_share.lo).collect()))
            .with("win_share_hi", Values::Float(s.iter().map(|x| x.win_share.hi).collect()))
            .with(&diff, Values::Float(s.iter().map(|x| x.score_diff.mean).collect()))
            .with(&format!("{diff}_lo"), Values::Float(s.iter().map(|x| x.score_diff.lo).collect()))
            .with(&format!("{diff}_hi"), Values::Float(s.iter().map(|x| x.score_diff.hi).collect()))
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
    }

    /// One sentence for the terminal.
    pub fn summary(&self) -> String {
        match self.skill_depth {
            0 => "skill depth 0: the first step up the ladder does not win reliably (lower bound not above 0.5)".into(),
            d if d == self.steps.len() => {
                format!("skill depth {d}: every step up the ladder still wins; skill keeps paying at these budgets")
            }
            d => format!(
                "skill depth {d}: more search wins up to {} iterations, then the curve flattens",
                self.steps[d - 1].budget
            ),
        }
    }
}
