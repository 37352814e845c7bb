//! The seat figures of the health card, from every seat's win shares per deal group.
//!
//! A seat's win rate is noisy, so the best seat minus the worst is biased upwards: equal
//! seats show a gap. The figures here read zero for equal seats:
//! - `first_seat_edge`: seat 0's win rate minus the mean of the other seats', paired over
//!   deal groups (the other seats played the same deals);
//! - `seat_advantage`: the root mean square of the seats' departures from the mean seat,
//!   with the sampling noise taken off the squares first (their sum, before it is clipped
//!   at zero, is unbiased);
//! - `seats_equal_p`: the p-value of the test that every seat wins equally often
//!   (Hotelling's T² on the seats' per-group differences, as an F statistic).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use statrs::distribution::{ContinuousCDF, FisherSnedecor};

use crate::stats::{self, Estimate};

/// Every seat's win shares summed over deal groups, and the sums of their products.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatShares {
    /// Deal groups.
    pub groups: u64,
    /// Per seat: win-share units summed over groups.
    pub sum: Vec<i64>,
    /// Per pair of seats (i, j), i <= j, row by row: the products of their win-share units
    /// summed over groups (decimal strings in JSON: they can pass 2^64).
    #[serde(serialize_with = "strings", deserialize_with = "from_strings")]
    pub cross: Vec<u128>,
}

fn strings<S: Serializer>(v: &[u128], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(v.iter().map(u128::to_string))
}

fn from_strings<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u128>, D::Error> {
    Vec::<String>::deserialize(d)?.iter().map(|t| t.parse().map_err(serde::de::Error::custom)).collect()
}

/// The three seat figures of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatFigures {
    /// Seat 0's win rate minus the other seats' mean.
    pub first_seat_edge: Estimate,
    /// Root mean square of the seats' win rates about their mean, noise taken off.
    pub seat_advantage: Estimate,
    /// p-value of "every seat wins equally often" (NaN where it cannot be tested).
    pub seats_equal_p: f64,
}

impl SeatShares {
    /// Empty sums for `seats` seats.
    pub fn new(seats: usize) -> SeatShares {
        SeatShares { groups: 0, sum: vec![0; seats], cross: vec![0; seats * (seats + 1) / 2] }
    }

    /// Adds one deal group's win-share units, seat by seat.
    #[inline]
    pub fn add(&mut self, shares: &[i64]) {
        self.groups += 1;
        let mut p = 0;
        for (i, &a) in shares.iter().enumerate() {
            self.sum[i] += a;
            for &b in &shares[i..] {
                self.cross[p] += (a as i128 * b as i128) as u128;
                p += 1;
            }
        }
    }

    /// Adds another run's sums (the same seats).
    pub fn merge(&mut self, o: &SeatShares) {
        if self.sum.is_empty() {
            self.clone_from(o);
            return;
        }
        if self.sum.len() != o.sum.len() {
            // Not the same seats: no group count can match the run's again.
            self.groups = u64::MAX;
            return;
        }
        self.groups = self.groups.saturating_add(o.groups);
        self.sum.iter_mut().zip(&o.sum).for_each(|(a, b)| *a += b);
        self.cross.iter_mut().zip(&o.cross).for_each(|(a, b)| *a += b);
    }

    fn seats(&self) -> usize {
        self.sum.len()
    }

    /// `G` times the covariance sum of seats i and j over groups, exactly:
    /// G Σ s_i s_j - Σ s_i Σ s_j (that is G (G - 1) times their sample covariance).
    fn scaled_cov(&self, i: usize, j: usize) -> f64 {
        let (i, j) = (i.min(j), i.max(j));
        let k = self.seats();
        let at = i * k - i * (i + 1) / 2 + j;
        let g = i128::from(self.groups);
        (g * self.cross[at] as i128 - i128::from(self.sum[i]) * i128::from(self.sum[j])) as f64
    }

    /// The seat figures, each seat playing `units` units a group (`units` times the share
    /// unit is a seat's most win-share units in a group). `None` with fewer than two seats;
    /// undefined (NaN) with fewer than two groups.
    pub fn figures(&self, units: f64) -> Option<SeatFigures> {
        let k = self.seats();
        let n = self.groups;
        if k < 2 {
            return None;
        }
        if n < 2 || units <= 0.0 {
            let none = Estimate { mean: f64::NAN, lo: f64::NAN, hi: f64::NAN };
            return Some(SeatFigures { first_seat_edge: none, seat_advantage: none, seats_equal_p: f64::NAN });
        }
        let g = n as f64;
        let kf = k as f64;
        // Covariance of seats' per-group win rates, and the covariance of the mean of each.
        let cov = |i: usize, j: usize| self.scaled_cov(i, j) / (g * (g - 1.0) * units * units);
        let rate = |i: usize| self.sum[i] as f64 / (g * units);
        let t = stats::t_quantile_975(n - 1);

        // Seat 0 against the others: weights (k - 1, -1, ..., -1) / (k - 1).
        let w: Vec<f64> = (0..k).map(|i| if i == 0 { 1.0 } else { -1.0 / (kf - 1.0) }).collect();
        let quad = |a: &[f64], b: &[f64]| -> f64 {
            (0..k).map(|i| (0..k).map(|j| a[i] * b[j] * cov(i, j)).sum::<f64>()).sum()
        };
        let edge = (0..k).map(|i| w[i] * rate(i)).sum::<f64>();
        let half = t * (quad(&w, &w).max(0.0) / g).sqrt();
        // A difference of two win rates: within -1 and 1 however few the groups.
        let first_seat_edge = Estimate { mean: edge, lo: (edge - half).max(-1.0), hi: (edge + half).min(1.0) };

        // Departures from the mean seat: e = C r with C = I - J / k; their covariance over
        // groups V = C S C / G.
        let mean = (0..k).map(rate).sum::<f64>() / kf;
        let e: Vec<f64> = (0..k).map(|i| rate(i) - mean).collect();
        let c = |i: usize| -> Vec<f64> { (0..k).map(|j| f64::from(u8::from(i == j)) - 1.0 / kf).collect() };
        let rows: Vec<Vec<f64>> = (0..k).map(c).collect();
        let v: Vec<Vec<f64>> = (0..k).map(|i| (0..k).map(|j| quad(&rows[i], &rows[j]) / g).collect()).collect();
        // E[Σ e²] = Σ departures² + tr V: take tr V off. Var(Σ e²) ≈ 4 e'Ve + 2 tr(V²).
        let trace: f64 = (0..k).map(|i| v[i][i]).sum();
        let squares = e.iter().map(|x| x * x).sum::<f64>() - trace;
        let eve: f64 = (0..k).map(|i| (0..k).map(|j| e[i] * v[i][j] * e[j]).sum::<f64>()).sum();
        let tr_v2: f64 = (0..k).map(|i| (0..k).map(|j| v[i][j] * v[j][i]).sum::<f64>()).sum();
        let spread = (4.0 * eve + 2.0 * tr_v2).max(0.0).sqrt();
        let root = |x: f64| (x.max(0.0) / kf).sqrt();
        // The upper end by inverting the test: the largest true sum of squares S that the
        // estimate is not too far below, its variance there at most 4 λ S + 2 tr V² (λ the
        // largest eigenvalue of V). The variance read at the estimate itself is too small
        // where the sample happens to show little spread, and the end falls short of the truth.
        let lambda = largest_eigenvalue(&v);
        let z2 = stats::Z95 * stats::Z95;
        let b = squares + 2.0 * z2 * lambda;
        let upper = b + (b * b - squares * squares + 2.0 * z2 * tr_v2).max(0.0).sqrt();
        let seat_advantage = Estimate {
            mean: root(squares),
            lo: root(squares - stats::Z95 * spread),
            hi: root(upper.max(squares + stats::Z95 * spread)).min(1.0),
        };

        // Hotelling's T² of the differences to the last seat, as F(p, G - p).
        let p = k - 1;
        let d: Vec<f64> = (0..p).map(|i| rate(i) - rate(p)).collect();
        let s: Vec<Vec<f64>> =
            (0..p).map(|i| (0..p).map(|j| cov(i, j) - cov(i, p) - cov(p, j) + cov(p, p)).collect()).collect();
        let seats_equal_p = match solve(s, d.clone()) {
            Some(x) if n > p as u64 + 1 => {
                let t2 = g * d.iter().zip(&x).map(|(a, b)| a * b).sum::<f64>();
                let f = (g - p as f64) / (p as f64 * (g - 1.0)) * t2;
                FisherSnedecor::new(p as f64, g - p as f64).map_or(f64::NAN, |dist| dist.sf(f.max(0.0)))
            }
            _ => f64::NAN,
        };
        Some(SeatFigures { first_seat_edge, seat_advantage, seats_equal_p })
    }
}

/// The largest eigenvalue of a symmetric positive semi-definite matrix, by power iteration
/// (0 for a zero matrix).
fn largest_eigenvalue(m: &[Vec<f64>]) -> f64 {
    let k = m.len();
    // Not all ones: the departures' covariance has that vector in its null space.
    let mut x: Vec<f64> = (0..k).map(|i| 1.0 + i as f64).collect();
    let mut lambda = 0.0;
    for _ in 0..200 {
        let y: Vec<f64> = (0..k).map(|i| (0..k).map(|j| m[i][j] * x[j]).sum()).collect();
        let norm = y.iter().map(|v| v * v).sum::<f64>().sqrt();
        if norm == 0.0 || !norm.is_finite() {
            return 0.0;
        }
        let next = norm / x.iter().map(|v| v * v).sum::<f64>().sqrt();
        x = y.iter().map(|v| v / norm).collect();
        if (next - lambda).abs() <= 1e-12 * next {
            return next;
        }
        lambda = next;
    }
    lambda
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` when `a` is
/// singular (for instance, seats that always win alike).
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    let scale = (0..n).map(|i| a[i][i].abs()).fold(0.0, f64::max);
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() <= 1e-12 * scale || scale == 0.0 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let top = a[col].clone();
        for row in col + 1..n {
            let f = a[row][col] / top[col];
            for (x, t) in a[row][col..].iter_mut().zip(&top[col..]) {
                *x -= f * t;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|c| a[row][c] * x[c]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;

    #[test]
    fn the_largest_eigenvalue_is_found() {
        let m = vec![vec![2.0, 1.0, 0.0], vec![1.0, 2.0, 0.0], vec![0.0, 0.0, 0.5]];
        assert!((largest_eigenvalue(&m) - 3.0).abs() < 1e-9);
        // The departures' covariance form: ones in its null space.
        let c = vec![vec![0.5, -0.5], vec![-0.5, 0.5]];
        assert!((largest_eigenvalue(&c) - 1.0).abs() < 1e-9);
        assert_eq!(largest_eigenvalue(&[vec![0.0, 0.0], vec![0.0, 0.0]]), 0.0);
    }

    /// Groups of `units` units at `k` seats: each unit one winner, seat s winning with
    /// weight `w[s]`, or nobody with probability `none`.
    fn play(k: usize, units: u32, groups: usize, w: &[f64], none: f64, seed: u64) -> SeatShares {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let total: f64 = w.iter().sum();
        let mut sums = SeatShares::new(k);
        let mut shares = vec![0i64; k];
        for _ in 0..groups {
            shares.fill(0);
            for _ in 0..units {
                if rng.random::<f64>() < none {
                    continue;
                }
                let mut x = rng.random::<f64>() * total;
                let s = (0..k).find(|&s| {
                    x -= w[s];
                    x < 0.0
                });
                shares[s.unwrap_or(k - 1)] += 1;
            }
            sums.add(&shares);
        }
        sums
    }

    #[test]
    fn equal_seats_read_zero_with_or_without_units_no_one_wins() {
        let mut covered = [0; 3];
        let mut rejected = 0;
        let runs = 200;
        for seed in 0..runs {
            let none = if seed % 2 == 0 { 0.0 } else { 0.3 };
            let f = play(4, 12, 400, &[1.0; 4], none, seed).figures(12.0).unwrap();
            covered[0] += usize::from(f.first_seat_edge.contains(0.0));
            covered[1] += usize::from(f.seat_advantage.lo == 0.0);
            rejected += usize::from(f.seats_equal_p < 0.05);
            // Never the old bias: the edge is centred on zero, not on -(1 - completion) / k.
            assert!(f.first_seat_edge.mean.abs() < 0.03, "{f:?}");
            assert!(f.seat_advantage.lo >= 0.0 && f.seat_advantage.hi <= 1.0);
            assert!(f.first_seat_edge.lo >= -1.0 && f.first_seat_edge.hi <= 1.0);
            covered[2] += usize::from(f.seat_advantage.mean == 0.0);
        }
        // 95% intervals cover zero about 95% of the time; the test rejects about 5%.
        assert!(covered[0] >= 180, "first seat edge covered zero {} of {runs}", covered[0]);
        assert!(covered[1] >= 180, "seat advantage's interval reached zero {} of {runs}", covered[1]);
        assert!((2..=20).contains(&rejected), "equal seats rejected {rejected} of {runs}");
        // About half the runs estimate no spread at all: the squares are unbiased.
        assert!((60..=150).contains(&covered[2]), "zero spread in {} of {runs}", covered[2]);
    }

    #[test]
    fn a_planted_seat_effect_is_found_and_measured() {
        // Seat 0 wins with weight 1.4 against 1, 1, 1: 1.4 / 4.4 against 1 / 4.4 each.
        for none in [0.0, 0.25] {
            let f = play(4, 12, 4000, &[1.4, 1.0, 1.0, 1.0], none, 7).figures(12.0).unwrap();
            let won = 1.0 - none;
            let edge = won * 0.4 / 4.4;
            assert!(f.first_seat_edge.contains(edge), "{f:?} against {edge}");
            assert!(f.first_seat_edge.lo > 0.0);
            // Departures: seat 0 by 3/4 of the edge, the others by 1/4 each.
            let rms = ((0.75f64.powi(2) + 3.0 * 0.25f64.powi(2)) / 4.0).sqrt() * edge;
            assert!(f.seat_advantage.contains(rms), "{f:?} against {rms}");
            assert!(f.seats_equal_p < 1e-6, "{f:?}");
        }
    }

    /// A small seat effect on few groups: the interval's upper end must not fall short of
    /// the truth more often than its share (it did where the sample showed little spread).
    #[test]
    fn a_small_seat_effect_is_covered_from_above() {
        let (w, runs) = ([1.3, 1.0], 600);
        let rates = [1.3 / 2.3, 1.0 / 2.3];
        let rms = ((rates[0] - 0.5f64).powi(2) + (rates[1] - 0.5f64).powi(2)) / 2.0;
        let rms = rms.sqrt();
        let (mut short, mut covered) = (0, 0);
        for seed in 0..runs {
            let f = play(2, 2, 100, &w, 0.0, 1000 + seed).figures(2.0).unwrap();
            short += usize::from(f.seat_advantage.hi < rms);
            covered += usize::from(f.seat_advantage.contains(rms));
        }
        assert!(short <= runs as usize * 3 / 100, "upper end below the truth in {short} of {runs}");
        assert!(covered >= runs as usize * 93 / 100, "covered {covered} of {runs}");
        // Two groups of one unit: a t quantile on one degree of freedom, cut at the
        // difference's range.
        for seed in 0..20 {
            let f = play(2, 1, 3, &[1.0, 1.0], 0.0, seed).figures(1.0).unwrap();
            let e = f.first_seat_edge;
            assert!(e.lo >= -1.0 && e.hi <= 1.0 && e.lo <= e.mean && e.mean <= e.hi, "{e:?}");
        }
    }

    #[test]
    fn sums_merge_as_one_run() {
        let a = play(3, 6, 50, &[1.0; 3], 0.1, 1);
        let b = play(3, 6, 70, &[1.0; 3], 0.1, 2);
        let mut merged = a.clone();
        merged.merge(&b);
        let mut both = SeatShares::new(3);
        for s in [&a, &b] {
            both.groups += s.groups;
            (0..3).for_each(|i| both.sum[i] += s.sum[i]);
            (0..6).for_each(|i| both.cross[i] += s.cross[i]);
        }
        assert_eq!(merged, both);
        let text = serde_json::to_string(&merged).unwrap();
        assert_eq!(serde_json::from_str::<SeatShares>(&text).unwrap(), merged);
    }

    #[test]
    fn solve_solves_and_refuses_a_singular_system() {
        let x = solve(vec![vec![2.0, 1.0], vec![1.0, 3.0]], vec![3.0, 5.0]).unwrap();
        assert!((x[0] - 0.8).abs() < 1e-12 && (x[1] - 1.4).abs() < 1e-12);
        assert!(solve(vec![vec![1.0, 2.0], vec![2.0, 4.0]], vec![1.0, 2.0]).is_none());
    }
}
