//! Mergeable accumulators: integer counts and sums only, so any grouping of chunks or
//! shards adds up to exactly the same tally.
//!
//! The hot path adds each seat's record once, into the cell of its (strategy, seat); the
//! per-strategy and per-seat figures are sums of cells, made when tables are written.

use serde::{Deserialize, Serialize};

use super::measures::{Kind, Measure, Measures};
use super::{CardCounts, MAX_COUNTERS, MAX_SUMS, SHARE_UNIT, SeatResult, Shard};
use crate::stats;

/// Counts and sums for one (strategy, seat) cell, or a sum of cells.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Units of play (rounds, or games in game mode).
    pub rounds: u64,
    /// Rounds dealt into (equal to `rounds` outside game mode): the rates' denominator.
    pub seat_rounds: u64,
    /// Win shares, in units of `1 / SHARE_UNIT`.
    pub share_units: u64,
    /// Sum of scores.
    pub score: i64,
    /// Sum of squared scores.
    pub score_sq: u64,
    /// Per counter slot.
    pub counters: Vec<u64>,
    /// Per sum slot.
    pub sums: Vec<i64>,
    /// Per sum slot, the sum of squares.
    pub sums_sq: Vec<u64>,
    /// Per histogram bin.
    pub bins: Vec<u64>,
}

impl Counts {
    fn new(shape: super::Shape) -> Counts {
        Counts {
            counters: vec![0; shape.counters],
            sums: vec![0; shape.sums],
            sums_sq: vec![0; shape.sums],
            bins: vec![0; shape.bins],
            ..Counts::default()
        }
    }

    #[inline]
    fn add(&mut self, r: &SeatResult) {
        self.rounds += 1;
        self.seat_rounds += u64::from(r.rounds);
        self.share_units += u64::from(r.share_units);
        self.score += r.score;
        self.score_sq += r.score.unsigned_abs().pow(2);
        // The vectors hold exactly the declared slots, so zip stops there.
        for (a, &b) in self.counters.iter_mut().zip(&r.counters) {
            *a += u64::from(b);
        }
        for ((a, sq), &b) in self.sums.iter_mut().zip(&mut self.sums_sq).zip(&r.sums) {
            *a += b;
            *sq += b.unsigned_abs().pow(2);
        }
        for (b, count) in r.observed(self.bins.len()) {
            self.bins[b] += u64::from(count);
        }
    }

    /// Adds another cell's counts.
    pub fn merge(&mut self, o: &Counts) {
        self.rounds += o.rounds;
        self.seat_rounds += o.seat_rounds;
        self.share_units += o.share_units;
        self.score += o.score;
        self.score_sq += o.score_sq;
        add_all(&mut self.counters, &o.counters);
        add_all(&mut self.sums, &o.sums);
        add_all(&mut self.sums_sq, &o.sums_sq);
        add_all(&mut self.bins, &o.bins);
    }

    /// Wins (win shares as a number of whole wins).
    pub fn wins(&self) -> f64 {
        self.share_units as f64 / SHARE_UNIT as f64
    }

    /// Win rate (win share per unit) with its Wilson 95% interval.
    pub fn win_rate(&self) -> stats::Estimate {
        stats::wilson(self.wins(), self.rounds)
    }

    /// Score per unit with a t interval over units.
    pub fn score_per_round(&self) -> stats::Estimate {
        stats::mean_interval(self.rounds, self.score as f64, self.score_sq as f64)
    }

    /// A declared measure's estimate and the count it is over.
    pub fn measure(&self, m: &Measure) -> (stats::Estimate, u64) {
        match m.kind {
            Kind::Rate { slot, per } => {
                let n = per.map_or(self.seat_rounds, |p| self.counters[p]);
                (stats::wilson(self.counters[slot] as f64, n), n)
            }
            Kind::Mean { slot } => {
                (stats::mean_interval(self.rounds, self.sums[slot] as f64, self.sums_sq[slot] as f64), self.rounds)
            }
        }
    }
}

fn add_all<T: Copy + std::ops::AddAssign>(a: &mut [T], b: &[T]) {
    a.iter_mut().zip(b).for_each(|(x, &y)| *x += y);
}

/// Sums over deal groups of a ratio's numerator a and denominator b (a declared measure:
/// counter over seat-rounds, counter over counter, or sum over units), for a ratio estimate
/// whose interval treats each deal group as one observation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatioSums {
    /// Deal groups.
    pub groups: u64,
    /// Sum of a.
    pub a: i64,
    /// Sum of a squared (a decimal string in JSON).
    #[serde(with = "u128_string")]
    pub a2: u128,
    /// Sum of b.
    pub b: i64,
    /// Sum of b squared (a decimal string in JSON).
    #[serde(with = "u128_string")]
    pub b2: u128,
    /// Sum of a times b (a decimal string in JSON).
    #[serde(with = "i128_string")]
    pub ab: i128,
}

impl RatioSums {
    fn add(&mut self, a: i64, b: i64) {
        self.groups += 1;
        self.a += a;
        self.a2 += (a as i128 * a as i128) as u128;
        self.b += b;
        self.b2 += (b as i128 * b as i128) as u128;
        self.ab += a as i128 * b as i128;
    }

    fn merge(&mut self, o: &RatioSums) {
        self.groups += o.groups;
        self.a += o.a;
        self.a2 += o.a2;
        self.b += o.b;
        self.b2 += o.b2;
        self.ab += o.ab;
    }

    /// Σa / Σb with a 95% t interval over groups (the delta method for a ratio of sums:
    /// the spread of a - r b between groups). `None`, so that an interval over units is
    /// used, when the groups are too few to trust a t interval: fewer than
    /// [`MIN_PAIRED_GROUPS`] effective groups ((Σb)² / Σb², which discounts groups where
    /// b is 0), no spread between groups, or for a rate (`rate`: a counts events among b)
    /// fewer than that many events or non-events.
    pub fn ratio(&self, rate: bool) -> Option<stats::Estimate> {
        let min = MIN_PAIRED_GROUPS as f64;
        if self.b <= 0 || self.b2 == 0 {
            return None;
        }
        let effective = (self.b as f64).powi(2) / self.b2 as f64;
        if effective < min || (rate && ((self.a as f64) < min || ((self.b - self.a) as f64) < min)) {
            return None;
        }
        let n = self.groups as f64;
        let r = self.a as f64 / self.b as f64;
        let resid = self.a2 as f64 - 2.0 * r * self.ab as f64 + r * r * self.b2 as f64;
        let var = (resid / (n - 1.0)).max(0.0);
        if var <= 1e-12 * (self.a2 as f64).max(1.0) / n {
            return None;
        }
        let mean_b = self.b as f64 / n;
        let half = stats::t_quantile_975(effective as u64 - 1) * (var / n).sqrt() / mean_b;
        Some(stats::Estimate { mean: r, lo: r - half, hi: r + half })
    }
}

/// Most measures a game may declare (counters plus sums, each at most once).
pub const MAX_MEASURES: usize = MAX_COUNTERS + MAX_SUMS;

/// Fewest deal groups (effective ones, for a ratio), and fewest events and non-events,
/// for an interval over groups: t intervals on fewer are unreliable for shares near 0 or
/// 1, so below it the interval over units is used.
pub const MIN_PAIRED_GROUPS: u64 = 30;

/// Sums over deal groups of one quantity, for paired intervals.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedSums {
    /// Deal groups.
    pub groups: u64,
    /// Sum of the per-group values.
    pub sum: i64,
    /// Sum of their squares (as a decimal string in JSON: it can pass 2^64).
    #[serde(with = "u128_string")]
    pub sum_sq: u128,
}

impl PairedSums {
    fn add(&mut self, v: i64) {
        self.groups += 1;
        self.sum += v;
        self.sum_sq += (v as i128 * v as i128) as u128;
    }

    fn merge(&mut self, o: &PairedSums) {
        self.groups += o.groups;
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
    }

    /// Mean of the per-group values divided by `scale`, with a t interval over groups.
    pub fn mean(&self, scale: f64) -> stats::Estimate {
        stats::mean_interval(self.groups, self.sum as f64 / scale, self.sum_sq as f64 / (scale * scale))
    }
}

mod u128_string {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &u128, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

mod i128_string {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &i128, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i128, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

/// Everything a run counted; tables are computed from it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Units of play.
    pub rounds: u64,
    /// Sum of unit lengths (game mode: rounds per game).
    pub length_sum: u64,
    /// Sum of squared unit lengths.
    pub length_sq: u64,
    /// Seats at the table.
    pub seat_count: usize,
    /// Per (strategy, seat), strategy-major.
    pub cells: Vec<Counts>,
    /// Per strategy: its score summed over each deal group.
    pub groups: Vec<PairedSums>,
    /// Per (strategy, declared measure), strategy-major: the measure's numerator and
    /// denominator summed over each deal group.
    #[serde(default)]
    pub measure_groups: Vec<RatioSums>,
    /// Per strategy: its win shares (in units of `1 / SHARE_UNIT`) summed over each deal
    /// group, for win-rate intervals that use the pairing.
    #[serde(default)]
    pub share_groups: Vec<PairedSums>,
    /// Instances of each strategy in one deal group.
    pub instances: Vec<i64>,
    /// Per pair (a, b) with a < b, in order: S_a * m_b - S_b * m_a per deal group.
    pub pairs: Vec<PairedSums>,
    /// The shard this tally covers, if only one.
    pub shard: Option<Shard>,
    /// Card analytics per (strategy, id), strategy-major, ids being the catalog's cards then
    /// its groups; empty unless asked for.
    #[serde(default)]
    pub cards: Vec<CardCounts>,
}

impl Tally {
    /// An empty tally for this many strategies and seats and these measures.
    pub fn new(strategies: usize, seats: usize, measures: &Measures) -> Tally {
        Tally {
            rounds: 0,
            length_sum: 0,
            length_sq: 0,
            seat_count: seats,
            cells: vec![Counts::new(measures.shape()); strategies * seats],
            groups: vec![PairedSums::default(); strategies],
            share_groups: vec![PairedSums::default(); strategies],
            measure_groups: vec![RatioSums::default(); strategies * measures.measures.len()],
            instances: vec![0; strategies],
            pairs: vec![PairedSums::default(); strategies * strategies.saturating_sub(1) / 2],
            shard: None,
            cards: Vec::new(),
        }
    }

    /// Starts counting card analytics over `cards` card ids.
    pub(crate) fn start_cards(&mut self, cards: usize) {
        self.cards = vec![CardCounts::default(); self.strategy_count() * cards];
    }

    /// Ids counted per strategy: the catalog's cards, then its groups (0 without card
    /// analytics; see [`CardCatalog::ids`](super::CardCatalog::ids)).
    pub fn card_count(&self) -> usize {
        self.cards.len() / self.strategy_count().max(1)
    }

    /// Strategy `x`'s counts for id `card` (a card, or past the cards a group).
    pub fn card(&self, x: usize, card: usize) -> &CardCounts {
        &self.cards[x * self.card_count() + card]
    }

    /// Number of strategies.
    pub fn strategy_count(&self) -> usize {
        self.groups.len()
    }

    #[inline]
    pub(crate) fn add_seat(&mut self, strategy: usize, seat: usize, r: &SeatResult) {
        self.cells[strategy * self.seat_count + seat].add(r);
    }

    pub(crate) fn add_length(&mut self, length: u32) {
        self.rounds += 1;
        self.length_sum += u64::from(length);
        self.length_sq += u64::from(length).pow(2);
    }

    /// Every seat's counts for strategy `x`.
    pub fn strategy(&self, x: usize) -> Counts {
        self.sum_cells((0..self.seat_count).map(|s| x * self.seat_count + s))
    }

    /// Every strategy's counts at seat `s`.
    pub fn seat(&self, s: usize) -> Counts {
        self.sum_cells((0..self.strategy_count()).map(|x| x * self.seat_count + s))
    }

    /// All counts together.
    pub fn total(&self) -> Counts {
        self.sum_cells(0..self.cells.len())
    }

    fn sum_cells(&self, cells: impl Iterator<Item = usize>) -> Counts {
        let mut out: Option<Counts> = None;
        for c in cells {
            match out.as_mut() {
                Some(o) => o.merge(&self.cells[c]),
                None => out = Some(self.cells[c].clone()),
            }
        }
        out.unwrap_or_default()
    }

    pub(crate) fn add_group(&mut self, sums: &[i64], shares: &[i64], instances: &[i64]) {
        self.instances.copy_from_slice(instances);
        let n = sums.len();
        let mut p = 0;
        for a in 0..n {
            self.groups[a].add(sums[a]);
            self.share_groups[a].add(shares[a]);
            for b in a + 1..n {
                self.pairs[p].add(sums[a] * instances[b] - sums[b] * instances[a]);
                p += 1;
            }
        }
    }

    /// Adds another tally of the same run.
    pub fn merge(&mut self, o: &Tally) {
        self.rounds += o.rounds;
        self.length_sum += o.length_sum;
        self.length_sq += o.length_sq;
        self.cells.iter_mut().zip(&o.cells).for_each(|(a, b)| a.merge(b));
        self.groups.iter_mut().zip(&o.groups).for_each(|(a, b)| a.merge(b));
        self.share_groups.iter_mut().zip(&o.share_groups).for_each(|(a, b)| a.merge(b));
        self.measure_groups.iter_mut().zip(&o.measure_groups).for_each(|(a, b)| a.merge(b));
        self.pairs.iter_mut().zip(&o.pairs).for_each(|(a, b)| a.merge(b));
        if self.cards.is_empty() {
            self.cards.clone_from(&o.cards);
        } else {
            self.cards.iter_mut().zip(&o.cards).for_each(|(a, b)| a.merge(b));
        }
        if o.instances.iter().any(|&i| i != 0) {
            self.instances.clone_from(&o.instances);
        }
    }

    /// Mean length of a unit of play (rounds per game in game mode), with a t interval.
    pub fn mean_length(&self) -> stats::Estimate {
        stats::mean_interval(self.rounds, self.length_sum as f64, self.length_sq as f64)
    }

    /// Score per unit of strategy `x`, with a t interval over deal groups (paired).
    pub fn score_per_round(&self, x: usize) -> stats::Estimate {
        self.groups[x].mean(self.instances[x].max(1) as f64)
    }

    /// Paired difference in score per unit, strategy `a` minus `b` (a < b), with its interval.
    pub fn pair_difference(&self, a: usize, b: usize) -> stats::Estimate {
        let n = self.strategy_count();
        let index = a * n - a * (a + 1) / 2 + (b - a - 1);
        self.pairs[index].mean((self.instances[a] * self.instances[b]).max(1) as f64)
    }

    /// Win rate (win share per unit) of strategy `x` with its 95% interval over deal
    /// groups: all rotations of one deal are one observation, so what the rotations share
    /// (the deal's luck) cancels as it does in the paired score. Small-sample rule: with
    /// fewer than [`MIN_PAIRED_GROUPS`] groups, wins or non-wins, when every group scored
    /// alike (no spread to estimate), or when not every merged shard carried the group
    /// sums, the Wilson interval over seat-units is used instead.
    pub fn win_rate(&self, x: usize) -> stats::Estimate {
        let counts = self.strategy(x);
        let units = counts.win_rate();
        let min = MIN_PAIRED_GROUPS as f64;
        // Group sums from every shard (a tally merged with an older one lacking them falls
        // back), and enough wins and non-wins for a t interval.
        let complete = |g: &&PairedSums| g.groups >= MIN_PAIRED_GROUPS && g.groups == self.groups[x].groups;
        let events = counts.wins() >= min && counts.rounds as f64 - counts.wins() >= min;
        match self.share_groups.get(x).filter(complete) {
            Some(g) if events => {
                let e = g.mean(self.instances[x].max(1) as f64 * SHARE_UNIT as f64);
                // Exactly in integers: every group alike means n * sum_sq = sum^2.
                let spread =
                    u128::from(g.groups).checked_mul(g.sum_sq) != Some(u128::from(g.sum.unsigned_abs()).pow(2));
                let half = e.half_width();
                if spread {
                    stats::Estimate {
                        mean: units.mean,
                        lo: (units.mean - half).max(0.0),
                        hi: (units.mean + half).min(1.0),
                    }
                } else {
                    units
                }
            }
            _ => units,
        }
    }

    /// Adds one deal group's numerator and denominator of each declared measure, per
    /// strategy (`ab[x][i]` for strategy `x`, measure `i`).
    pub(crate) fn add_measure_groups(&mut self, ab: &[[(i64, i64); MAX_MEASURES]]) {
        let per = self.measure_groups.len() / self.strategy_count().max(1);
        for (x, row) in ab.iter().enumerate() {
            for (i, &(a, b)) in row.iter().enumerate().take(per) {
                self.measure_groups[x * per + i].add(a, b);
            }
        }
    }

    /// Strategy `x`'s estimate of declared measure `m` (its `index` among the game's
    /// measures) with the count it is over: over deal groups where there are enough and
    /// they spread, else over units as [`Counts::measure`] gives it.
    pub fn measure(&self, x: usize, index: usize, m: &Measure) -> (stats::Estimate, u64) {
        let units = self.strategy(x).measure(m);
        let per = self.measure_groups.len() / self.strategy_count().max(1);
        let rate = matches!(m.kind, Kind::Rate { .. });
        let sums = self.measure_groups.get(x * per + index).filter(|_| index < per);
        // Only group sums from every shard (see `win_rate`).
        let grouped = sums.filter(|g| g.groups == self.groups[x].groups).and_then(|g| g.ratio(rate));
        match grouped {
            Some(e) => {
                debug_assert!(
                    (e.mean - units.0.mean).abs() <= 1e-9 * units.0.mean.abs().max(1.0),
                    "{}: group ratio {} against the unit mean {}",
                    m.column,
                    e.mean,
                    units.0.mean
                );
                let half = e.half_width();
                let (mut lo, mut hi) = (units.0.mean - half, units.0.mean + half);
                if rate {
                    (lo, hi) = (lo.max(0.0), hi.min(1.0));
                }
                (stats::Estimate { mean: units.0.mean, lo, hi }, units.1)
            }
            None => units,
        }
    }

    /// The widest win-rate interval half-width among the strategies.
    pub fn max_win_rate_half_width(&self) -> f64 {
        (0..self.strategy_count()).map(|x| self.win_rate(x).half_width()).fold(0.0, f64::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::measures::{Score, Shown};

    fn measures() -> Measures {
        Measures {
            score: Score {
                key: "net".into(),
                column: "chips_per_round".into(),
                pair_column: "chips_diff_per_round".into(),
                description: String::new(),
                zero_sum: true,
            },
            unit: "round".into(),
            length: String::new(),
            always_won: true,
            measures: vec![
                Measure::rate(0, "a", "a_rate", Shown::Both, ""),
                Measure::mean(0, "b", "mean_b", Shown::Both, ""),
            ],
            histograms: vec![],
            cards: None,
        }
    }

    #[test]
    fn pairs_are_indexed_in_order() {
        let mut t = Tally::new(3, 3, &measures());
        t.add_group(&[3, 0, -3], &[0, 0, 0], &[1, 1, 1]);
        assert_eq!(t.pair_difference(0, 1).mean, 3.0);
        assert_eq!(t.pair_difference(0, 2).mean, 6.0);
        assert_eq!(t.pair_difference(1, 2).mean, 3.0);
    }

    #[test]
    fn cells_sum_to_strategies_and_seats() {
        let mut t = Tally::new(2, 2, &measures());
        let mut r = SeatResult { score: 3, ..SeatResult::default() };
        r.count(0);
        r.sums[0] = 5;
        t.add_seat(0, 1, &r);
        t.add_seat(1, 1, &SeatResult { score: -3, ..SeatResult::default() });
        assert_eq!(t.strategy(0).score, 3);
        assert_eq!(t.seat(1).score, 0);
        assert_eq!(t.seat(1).rounds, 2);
        assert_eq!(t.seat(0).rounds, 0);
        let m = measures();
        assert_eq!(t.strategy(0).measure(&m.measures[0]).0.mean, 1.0);
        assert_eq!(t.seat(1).measure(&m.measures[1]).0.mean, 2.5);
    }

    #[test]
    fn tallies_round_trip_through_json() {
        let mut t = Tally::new(2, 2, &measures());
        t.add_group(&[i64::from(i32::MAX), -5], &[0, 0], &[2, 2]);
        t.add_group(&[i64::from(i32::MAX), -5], &[0, 0], &[2, 2]);
        t.add_seat(1, 0, &SeatResult { score: 7, ..SeatResult::default() });
        let back: Tally = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
        assert_eq!(back, t);
        assert!(t.groups[0].sum_sq > u64::MAX as u128 / 4);
    }

    #[test]
    fn win_rates_use_deal_groups_with_a_small_sample_rule() {
        let m = measures();
        let won = SeatResult { share_units: SHARE_UNIT, ..SeatResult::default() };
        let lost = SeatResult::default();
        // Strategy 0 at two seats per deal group; it wins one of the two rounds of every
        // group, so its groups do not vary and only the Wilson interval is honest.
        let build = |groups: u64, vary: bool| {
            let mut t = Tally::new(2, 2, &m);
            for g in 0..groups {
                let both = vary && g % 2 == 0;
                t.add_seat(0, 0, &won);
                t.add_seat(0, 1, if both { &won } else { &lost });
                t.add_seat(1, 1, &lost);
                t.add_seat(1, 0, if both { &lost } else { &won });
                let share = i64::from(SHARE_UNIT) * if both { 2 } else { 1 };
                t.add_group(&[0, 0], &[share, 2 * i64::from(SHARE_UNIT) - share], &[2, 2]);
            }
            t
        };
        let flat = build(100, false);
        assert_eq!(flat.win_rate(0), flat.strategy(0).win_rate(), "no spread between groups: Wilson");
        let few = build(MIN_PAIRED_GROUPS - 1, true);
        assert_eq!(few.win_rate(0), few.strategy(0).win_rate(), "too few groups: Wilson");
        let many = build(400, true);
        let (paired, wilson) = (many.win_rate(0), many.strategy(0).win_rate());
        assert_eq!(paired.mean, wilson.mean);
        assert_ne!(paired, wilson, "enough varied groups: over groups");
        // Group shares are 1 or 1/2 half the time each: sd 0.25 per group, 400 groups.
        let half = crate::stats::t_quantile_975(399) * 0.25 * (400.0f64 / 399.0).sqrt() / 20.0;
        assert!((paired.half_width() - half).abs() < 1e-9, "{paired:?} against {half}");
    }

    #[test]
    fn ratios_over_groups_follow_the_delta_method() {
        let mut r = RatioSums::default();
        for g in 0..400 {
            r.add(if g % 2 == 0 { 0 } else { 2 }, 2);
        }
        let e = r.ratio(false).unwrap();
        assert_eq!(e.mean, 0.5);
        // Residuals a - r b are -1 and +1: variance n / (n - 1), over a mean b of 2.
        let half = crate::stats::t_quantile_975(399) * (1.0f64 / 399.0).sqrt() / 2.0;
        assert!((e.half_width() - half).abs() < 1e-12, "{e:?} against {half}");
        let mut flat = RatioSums::default();
        (0..400).for_each(|_| flat.add(1, 2));
        assert_eq!(flat.ratio(false), None, "no spread between groups");
        let mut few = RatioSums::default();
        (0..10).for_each(|g| few.add(g, 2));
        assert_eq!(few.ratio(false), None, "too few groups");
        // A rare event: plenty of groups but few events keeps the interval over units.
        let mut rare = RatioSums::default();
        (0..1000).for_each(|g| rare.add(i64::from(g % 200 == 0), 1));
        assert_eq!(rare.ratio(true), None, "5 events in 1000 groups");
        assert!(rare.ratio(false).is_some());
    }
}
