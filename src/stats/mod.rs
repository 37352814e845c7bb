//! Confidence intervals: Wilson for proportions, Student t for means.

use serde::{Deserialize, Serialize};

/// A point estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The estimate.
    pub mean: f64,
    /// Lower end of the 95% interval.
    pub lo: f64,
    /// Upper end of the 95% interval.
    pub hi: f64,
}

impl Estimate {
    /// Half the interval's width.
    pub fn half_width(&self) -> f64 {
        (self.hi - self.lo) / 2.0
    }

    /// Whether the interval contains a value.
    pub fn contains(&self, v: f64) -> bool {
        self.lo <= v && v <= self.hi
    }
}

/// What a quantity can possibly be, at either end: an interval is never reported past
/// it. The true value lies within, so cutting the interval there keeps its coverage, and a
/// tiny sample's t interval (a quantile of 12.7 on one degree of freedom) stays readable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Bounds {
    /// The least it can be, if bounded below.
    pub lo: Option<f64>,
    /// The most it can be, if bounded above.
    pub hi: Option<f64>,
}

impl Bounds {
    /// No bound either way.
    pub const NONE: Bounds = Bounds { lo: None, hi: None };

    /// Between `lo` and `hi`.
    pub fn between(lo: f64, hi: f64) -> Bounds {
        Bounds { lo: Some(lo), hi: Some(hi) }
    }

    /// At least `lo`.
    pub fn at_least(lo: f64) -> Bounds {
        Bounds { lo: Some(lo), hi: None }
    }

    /// The bounds of a difference `a - b` of two quantities within these bounds.
    pub fn difference(&self) -> Bounds {
        match (self.lo, self.hi) {
            (Some(lo), Some(hi)) => Bounds::between(lo - hi, hi - lo),
            _ => Bounds::NONE,
        }
    }

    /// Whether `v` is within.
    pub fn contains(&self, v: f64) -> bool {
        self.lo.is_none_or(|lo| v >= lo) && self.hi.is_none_or(|hi| v <= hi)
    }

    /// The estimate with its interval cut at the bounds (never past its own mean, so a
    /// mean outside, which only a wrong declaration gives, shows as it is).
    pub fn clamp(&self, e: Estimate) -> Estimate {
        if e.mean.is_nan() {
            return e;
        }
        let lo = self.lo.map_or(e.lo, |b| e.lo.max(b.min(e.mean)));
        let hi = self.hi.map_or(e.hi, |b| e.hi.min(b.max(e.mean)));
        Estimate { lo, hi, ..e }
    }
}

// Bounds are whole figures a game declares, never NaN, so equality is total.
impl Eq for Bounds {}

impl std::fmt::Display for Bounds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.lo, self.hi) {
            (Some(lo), Some(hi)) => write!(f, "{lo} to {hi}"),
            (Some(lo), None) => write!(f, "at least {lo}"),
            (None, Some(hi)) => write!(f, "at most {hi}"),
            (None, None) => write!(f, "any value"),
        }
    }
}

/// The 97.5% quantile of the standard normal.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Pearson's correlation of two series over the length both hold; `None` where either
/// has no spread.
pub fn correlation(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len().min(y.len());
    let (x, y) = (&x[..n], &y[..n]);
    let (mx, my) = (x.iter().sum::<f64>() / n as f64, y.iter().sum::<f64>() / n as f64);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        let (dx, dy) = (a - mx, b - my);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
}

/// Wilson score 95% interval for `successes` out of `n` (successes may be fractional,
/// as with split pots).
pub fn wilson(successes: f64, n: u64) -> Estimate {
    if n == 0 {
        return Estimate { mean: f64::NAN, lo: 0.0, hi: 1.0 };
    }
    let n = n as f64;
    let p = successes / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).max(0.0).sqrt() / denom;
    // At none (or all) the bound is 0 (or 1) exactly; the arithmetic leaves rounding noise.
    let lo = if successes <= 0.0 { 0.0 } else { (centre - half).max(0.0) };
    let hi = if successes >= n { 1.0 } else { (centre + half).min(1.0) };
    Estimate { mean: p, lo, hi }
}

/// The difference of two independent proportions, `a - b`, with Newcombe's hybrid score
/// interval built from their Wilson intervals (sound at small counts and near 0 or 1).
pub fn difference(a: &Estimate, b: &Estimate) -> Estimate {
    if !a.mean.is_finite() || !b.mean.is_finite() {
        return Estimate { mean: f64::NAN, lo: -1.0, hi: 1.0 };
    }
    let d = a.mean - b.mean;
    let lo = d - ((a.mean - a.lo).powi(2) + (b.hi - b.mean).powi(2)).sqrt();
    let hi = d + ((a.hi - a.mean).powi(2) + (b.mean - b.lo).powi(2)).sqrt();
    Estimate { mean: d, lo, hi }
}

/// Mean with a t-based 95% interval from a count, a sum and a sum of squares.
pub fn mean_interval(n: u64, sum: f64, sum_sq: f64) -> Estimate {
    if n == 0 {
        return Estimate { mean: f64::NAN, lo: f64::NAN, hi: f64::NAN };
    }
    let nf = n as f64;
    let mean = sum / nf;
    if n < 2 {
        return Estimate { mean, lo: f64::NEG_INFINITY, hi: f64::INFINITY };
    }
    let var = ((sum_sq - sum * sum / nf) / (nf - 1.0)).max(0.0);
    let half = t_quantile_975(n - 1) * (var / nf).sqrt();
    Estimate { mean, lo: mean - half, hi: mean + half }
}

/// A p-value for a reader: three decimals, or "< 0.001" below that.
pub fn p_text(p: f64) -> String {
    if p < 0.001 { "< 0.001".to_string() } else { format!("{p:.3}") }
}

/// The two-sided p-value of a standard normal statistic `z`: erfc(|z| / sqrt 2), by the
/// Chebyshev fit of Numerical Recipes (fractional error below 1.2e-7).
pub fn two_sided_p(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * x);
    let poly = -x * x - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    (t * poly.exp()).min(1.0)
}

/// The two-sided p-value of `t` under Student's t with `df` degrees of freedom: the test
/// that goes with an interval from [`t_quantile_975`] (p below 0.05 exactly when that
/// interval leaves out zero).
pub fn two_sided_p_t(t: f64, df: u64) -> f64 {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    if t.is_nan() {
        return f64::NAN;
    }
    match StudentsT::new(0.0, 1.0, df as f64) {
        Ok(d) => (2.0 * d.cdf(-t.abs())).min(1.0),
        Err(_) => two_sided_p(t),
    }
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom.
///
/// Exact table values up to 30, then the Cornish-Fisher expansion around the normal
/// quantile (error below 1e-5 there).
pub fn t_quantile_975(df: u64) -> f64 {
    const TABLE: [f64; 30] = [
        12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157, 2.228139, 2.200985,
        2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963, 2.079614, 2.073873,
        2.068658, 2.063899, 2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272,
    ];
    if df == 0 {
        return f64::INFINITY;
    }
    if df <= 30 {
        return TABLE[df as usize - 1];
    }
    let z = Z95;
    let v = df as f64;
    let g1 = (z.powi(3) + z) / 4.0;
    let g2 = (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / 96.0;
    let g3 = (3.0 * z.powi(7) + 19.0 * z.powi(5) + 17.0 * z.powi(3) - 15.0 * z) / 384.0;
    z + g1 / v + g2 / (v * v) + g3 / (v * v * v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_cut_an_interval_and_keep_its_mean() {
        // Two units of a +-1 score, one won and one lost: t(1) spans +-12.7.
        let wide = mean_interval(2, 0.0, 2.0);
        assert!(wide.lo < -12.0 && wide.hi > 12.0);
        let points = Bounds::between(-1.0, 1.0);
        assert_eq!(points.clamp(wide), Estimate { mean: 0.0, lo: -1.0, hi: 1.0 });
        assert_eq!(points.difference(), Bounds::between(-2.0, 2.0));
        // One unit: an unbounded interval is cut to the bounds, an unbounded side stays.
        let one = mean_interval(1, 3.0, 9.0);
        assert_eq!(Bounds::at_least(1.0).clamp(one), Estimate { mean: 3.0, lo: 1.0, hi: f64::INFINITY });
        // Inside the bounds nothing moves; a mean past a bound is shown as it is.
        let narrow = Estimate { mean: 0.1, lo: 0.0, hi: 0.2 };
        assert_eq!(points.clamp(narrow), narrow);
        let past = Estimate { mean: 2.0, lo: 1.5, hi: 2.5 };
        assert_eq!(points.clamp(past), Estimate { mean: 2.0, lo: 1.5, hi: 2.0 });
        assert_eq!(Bounds::NONE.clamp(wide), wide);
        assert!(Bounds::NONE.difference() == Bounds::NONE && Bounds::at_least(0.0).difference() == Bounds::NONE);
        assert!(points.contains(1.0) && !points.contains(1.5) && Bounds::at_least(0.0).contains(1e9));
    }

    #[test]
    fn wilson_matches_a_known_value() {
        // 50 of 100: Wilson interval (0.4038, 0.5962).
        let e = wilson(50.0, 100);
        assert!((e.lo - 0.4038).abs() < 1e-4 && (e.hi - 0.5962).abs() < 1e-4, "{e:?}");
        let e = wilson(0.0, 10);
        assert_eq!(e.lo, 0.0);
        // Exactly, not rounding noise above it, at every count (and 1 at all).
        assert!((1..2000).all(|n| wilson(0.0, n).lo == 0.0 && wilson(n as f64, n).hi == 1.0));
        assert!(e.hi > 0.2 && e.hi < 0.35);
    }

    #[test]
    fn t_quantiles_are_close_to_known_values() {
        assert!((t_quantile_975(40) - 2.021075).abs() < 1e-4);
        assert!((t_quantile_975(120) - 1.979930).abs() < 1e-5);
        assert!((t_quantile_975(1_000_000) - Z95).abs() < 1e-5);
    }

    #[test]
    fn two_sided_p_values_match_the_normal_table() {
        assert!((two_sided_p(Z95) - 0.05).abs() < 1e-7);
        assert!((two_sided_p(-1.0) - 0.317_310_5).abs() < 1e-6);
        assert!((two_sided_p(0.0) - 1.0).abs() < 1e-7);
        assert!(two_sided_p(6.0) < 1e-8);
        // Student's t: its p is 0.05 at the quantile its intervals use, at any df.
        for df in [1, 2, 4, 10, 30, 200] {
            let p = two_sided_p_t(t_quantile_975(df), df);
            assert!((p - 0.05).abs() < 1e-4, "df {df}: {p}");
        }
        assert!((two_sided_p_t(2.0, 1) - 0.295_167).abs() < 1e-5);
        assert!((two_sided_p_t(-1.0, 100_000) - two_sided_p(1.0)).abs() < 1e-5);
    }

    #[test]
    fn mean_interval_from_sums() {
        // Values 1..=5: mean 3, sd sqrt(2.5), t(4) = 2.776445.
        let e = mean_interval(5, 15.0, 55.0);
        assert_eq!(e.mean, 3.0);
        let half = 2.776445 * (2.5f64 / 5.0).sqrt();
        assert!((e.half_width() - half).abs() < 1e-9);
    }

    #[test]
    fn difference_matches_newcombes_example() {
        // Newcombe (1998), method 10: 56/70 - 48/80 = 0.2000, interval (0.0524, 0.3339).
        let e = difference(&wilson(56.0, 70), &wilson(48.0, 80));
        assert!((e.mean - 0.2).abs() < 1e-12);
        assert!((e.lo - 0.0524).abs() < 1e-4 && (e.hi - 0.3339).abs() < 1e-4, "{e:?}");
    }
}
