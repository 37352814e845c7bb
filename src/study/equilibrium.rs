//! The meta-game of a comparison: the Nash equilibrium mixture of a symmetric two-player
//! zero-sum game (its payoff the paired score difference, or the win share above one half;
//! see `compare`), solved exactly as a linear programme (microlp), and how far a best pure
//! response exploits each strategy.

use microlp::{ComparisonOp, OptimizationDirection, Problem, SolveOutcome};

use crate::error::Error;

/// The equilibrium of a symmetric meta-game.
#[derive(Clone, Debug, PartialEq)]
pub struct Equilibrium {
    /// Each strategy's weight in the equilibrium mixture (they sum to one).
    pub mixture: Vec<f64>,
    /// The game's value for the row player at the equilibrium (zero for a symmetric game).
    pub value: f64,
    /// Per strategy: what the best pure response gains against it (0 = unexploitable).
    pub exploitability: Vec<f64>,
    /// Per strategy: that best pure response.
    pub best_response: Vec<usize>,
    /// What the best pure response gains against the equilibrium mixture (zero up to
    /// rounding: the check that the solve is right).
    pub mixture_exploitability: f64,
}

/// Solves the meta-game with `payoff[i][j]`, the row strategy i's gain against column j.
pub fn solve(payoff: &[Vec<f64>]) -> Result<Equilibrium, Error> {
    let k = payoff.len();
    // Maximise v subject to: for every column j, the mixture's payoff against j is >= v.
    let mut lp = Problem::new(OptimizationDirection::Maximize);
    let x: Vec<_> = (0..k).map(|_| lp.add_var(0.0, (0.0, 1.0))).collect();
    let v = lp.add_var(1.0, (f64::NEG_INFINITY, f64::INFINITY));
    for j in 0..k {
        let mut terms: Vec<(microlp::Variable, f64)> = x.iter().zip(payoff).map(|(&xi, row)| (xi, row[j])).collect();
        terms.push((v, -1.0));
        lp.add_constraint(terms, ComparisonOp::Ge, 0.0);
    }
    lp.add_constraint(x.iter().map(|&xi| (xi, 1.0)).collect::<Vec<_>>(), ComparisonOp::Eq, 1.0);
    let solution = match lp.solve() {
        Ok(SolveOutcome::Solution(s)) => s,
        Ok(other) => return Err(Error::Invariant(format!("equilibrium: the solver stopped early ({other:?})"))),
        Err(e) => return Err(Error::Invariant(format!("equilibrium: the solver failed ({e})"))),
    };
    let total: f64 = x.iter().map(|&xi| solution[xi].max(0.0)).sum();
    let mixture: Vec<f64> = x.iter().map(|&xi| solution[xi].max(0.0) / total).collect();
    // The best pure response to a mixed or pure column strategy, and its gain.
    let best_against = |column: &dyn Fn(usize) -> f64| -> (usize, f64) {
        let gain = |r: usize| (0..k).map(|c| payoff[r][c] * column(c)).sum::<f64>();
        (0..k).map(|r| (r, gain(r))).fold((0, f64::NEG_INFINITY), |a, b| if b.1 > a.1 { b } else { a })
    };
    let (best_response, exploitability) = (0..k).map(|i| best_against(&|c| f64::from(u8::from(c == i)))).unzip();
    let mixture_exploitability = best_against(&|c| mixture[c]).1;
    Ok(Equilibrium { mixture, value: solution[v], exploitability, best_response, mixture_exploitability })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rock_paper_scissors_mixes_evenly() {
        let rps = vec![vec![0.0, -1.0, 1.0], vec![1.0, 0.0, -1.0], vec![-1.0, 1.0, 0.0]];
        let e = solve(&rps).unwrap();
        for w in &e.mixture {
            assert!((w - 1.0 / 3.0).abs() < 1e-9, "{:?}", e.mixture);
        }
        assert!(e.value.abs() < 1e-9 && e.mixture_exploitability.abs() < 1e-9);
        assert_eq!(e.exploitability, vec![1.0, 1.0, 1.0]);
        assert_eq!(e.best_response, vec![1, 2, 0]);
    }

    #[test]
    fn a_dominant_strategy_is_the_equilibrium() {
        // Strategy 1 beats both others; 0 and 2 split their game.
        let m = vec![vec![0.0, -0.2, 0.05], vec![0.2, 0.0, 0.1], vec![-0.05, -0.1, 0.0]];
        let e = solve(&m).unwrap();
        assert!((e.mixture[1] - 1.0).abs() < 1e-9, "{:?}", e.mixture);
        assert!(e.exploitability[1].abs() < 1e-12);
        assert!((e.exploitability[0] - 0.2).abs() < 1e-12 && e.best_response[0] == 1);
    }

    #[test]
    fn a_cycle_with_unequal_margins_gets_the_analytic_mixture() {
        // Generalised RPS with payoffs a, b, c: the mixture is proportional to (b, c, a).
        let (a, b, c) = (1.0, 2.0, 3.0);
        let m = vec![vec![0.0, -a, c], vec![a, 0.0, -b], vec![-c, b, 0.0]];
        let e = solve(&m).unwrap();
        let s = a + b + c;
        for (w, want) in e.mixture.iter().zip([b / s, c / s, a / s]) {
            assert!((w - want).abs() < 1e-9, "{:?}", e.mixture);
        }
    }
}
