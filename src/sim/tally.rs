//! Mergeable accumulators: integer counts and sums only, so any grouping of chunks or
//! shards adds up to exactly the same tally.
//!
//! The hot path adds each seat's record once, into the cell of its (strategy, seat); the
//! per-strategy and per-seat figures are sums of cells, made when tables are written.

use serde::{Deserialize, Serialize};

use super::measures::{Kind, Measure, Measures};
use super::{CardCounts, CardEstimates, CardGroupSums, MAX_COUNTERS, MAX_SUMS, SHARE_UNIT, SeatResult, Shard};
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
    /// Units won outright (the whole win share).
    #[serde(default)]
    pub outright: u64,
    /// Units whose win was shared with other seats (a part of the share).
    #[serde(default)]
    pub split: u64,
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
        self.outright += u64::from(r.share_units == SHARE_UNIT);
        self.split += u64::from(r.share_units > 0 && r.share_units < SHARE_UNIT);
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
        self.outright += o.outright;
        self.split += o.split;
        self.score += o.score;
        self.score_sq += o.score_sq;
        add_all(&mut self.counters, &o.counters);
        add_all(&mut self.sums, &o.sums);
        add_all(&mut self.sums_sq, &o.sums_sq);
        add_all(&mut self.bins, &o.bins);
    }

    /// Wins with split ones counted by their share, as a number of whole wins.
    pub fn wins(&self) -> f64 {
        self.share_units as f64 / SHARE_UNIT as f64
    }

    /// Win rate (win share per unit) with its Wilson 95% interval.
    pub fn win_rate(&self) -> stats::Estimate {
        rate(self.wins(), self.rounds)
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
                (rate(self.counters[slot] as f64, n), n)
            }
            Kind::Mean { slot } => {
                (stats::mean_interval(self.rounds, self.sums[slot] as f64, self.sums_sq[slot] as f64), self.rounds)
            }
            Kind::MeanPer { slot, per } => {
                let n = self.counters[per];
                let e = stats::mean_interval(n, self.sums[slot] as f64, self.sums_sq[slot] as f64);
                // Where a unit spans rounds its squares span them too: no interval over units.
                match self.rounds == self.seat_rounds {
                    true => (e, n),
                    false => (stats::Estimate { lo: f64::NAN, hi: f64::NAN, ..e }, n),
                }
            }
        }
    }
}

/// A rate's Wilson interval; with nothing to count, the rate and its interval are
/// undefined (empty in the tables), not the whole of 0 to 1.
fn rate(successes: f64, n: u64) -> stats::Estimate {
    if n == 0 {
        return stats::Estimate { mean: f64::NAN, lo: f64::NAN, hi: f64::NAN };
    }
    stats::wilson(successes, n)
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
    #[inline]
    pub(crate) fn add(&mut self, a: i64, b: i64) {
        self.groups += 1;
        self.b += b;
        self.b2 += (b as i128 * b as i128) as u128;
        // Many measures count rare events: most groups add nothing to a's sums.
        if a != 0 {
            self.a += a;
            self.a2 += (a as i128 * a as i128) as u128;
            self.ab += a as i128 * b as i128;
        }
    }

    pub(crate) fn merge(&mut self, o: &RatioSums) {
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
        self.ratio_scaled(rate, 1.0)
    }

    /// As [`RatioSums::ratio`] for a numerator counted in `scale`ths of an event (win
    /// shares in units of `1 / SHARE_UNIT`): Σa / (scale Σb), the events a rate needs
    /// counted in whole events.
    pub fn ratio_scaled(&self, rate: bool, scale: f64) -> Option<stats::Estimate> {
        let min = MIN_PAIRED_GROUPS as f64;
        let effective = self.effective_groups()?;
        let events = self.a as f64 / scale;
        if effective < min || (rate && (events < min || self.b as f64 - events < min)) {
            return None;
        }
        let n = self.groups as f64;
        let r = self.a as f64 / self.b as f64;
        let var = (self.residual_sq(r) / (n - 1.0)).max(0.0);
        if var <= 1e-12 * (self.a2 as f64).max(1.0) / n {
            return None;
        }
        let mean_b = self.b as f64 / n;
        let half = stats::t_quantile_975(effective as u64 - 1) * (var / n).sqrt() / mean_b / scale;
        let r = r / scale;
        Some(stats::Estimate { mean: r, lo: r - half, hi: r + half })
    }

    /// (Σb)² / Σb²: the groups counted as if each had the mean denominator (`None` when no
    /// group has one).
    pub(crate) fn effective_groups(&self) -> Option<f64> {
        (self.b > 0 && self.b2 > 0).then(|| (self.b as f64).powi(2) / self.b2 as f64)
    }

    /// Σ(a - r b)² over the groups.
    pub(crate) fn residual_sq(&self, r: f64) -> f64 {
        self.a2 as f64 - 2.0 * r * self.ab as f64 + r * r * self.b2 as f64
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

    /// Whether enough groups, not all alike, back a t interval over them (the small-sample
    /// rule): otherwise an interval over units is used.
    pub fn backs_an_interval(&self) -> bool {
        let n = u128::from(self.groups);
        self.groups >= MIN_PAIRED_GROUPS && self.sum_sq * n != (i128::from(self.sum) * i128::from(self.sum)) as u128
    }
}

/// One seat's sums over deal groups, or every seat's together: its score, win shares and
/// each declared measure's numerator and denominator, for intervals that use the pairing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupSums {
    /// Score summed over each deal group.
    pub score: PairedSums,
    /// Win shares (in units of `1 / SHARE_UNIT`) summed over each deal group.
    pub share: PairedSums,
    /// Per declared measure: its numerator and denominator summed over each deal group.
    pub measures: Vec<RatioSums>,
}

impl GroupSums {
    fn merge(&mut self, o: &GroupSums) {
        self.score.merge(&o.score);
        self.share.merge(&o.share);
        self.measures.iter_mut().zip(&o.measures).for_each(|(a, b)| a.merge(b));
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

pub(crate) mod i128_string {
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
    /// Per seat, then one for every seat together: sums over each deal group, so that seat
    /// and whole-run intervals treat a deal as one observation too (empty in tallies
    /// written before they were counted).
    #[serde(default)]
    pub seat_groups: Vec<GroupSums>,
    /// Per rules-use bit ([`RuleUse`](super::RuleUse)): the units that set it.
    #[serde(default)]
    pub rules_used: Vec<u64>,
    /// Every seat's win shares per deal group, for the seat figures (empty in tallies
    /// written before they were counted).
    #[serde(default)]
    pub seat_shares: super::SeatShares,
    /// Per pair (a, b) with a < b, in order: S_a * m_b - S_b * m_a per deal group.
    pub pairs: Vec<PairedSums>,
    /// Per pair (a, b) with a < b, in order: a's win shares minus b's (in units of
    /// `1 / SHARE_UNIT`) per deal group, for head-to-head win shares over deal groups.
    #[serde(default)]
    pub share_pairs: Vec<PairedSums>,
    /// The shard this tally covers, if only one.
    pub shard: Option<Shard>,
    /// Card analytics per (strategy, id), strategy-major, ids being the catalog's cards then
    /// its groups; empty unless asked for.
    #[serde(default)]
    pub cards: Vec<CardCounts>,
    /// Per (strategy, id) as `cards`: the counts summed per deal group (empty in tallies
    /// written before they were counted).
    #[serde(default)]
    pub card_group_sums: Vec<CardGroupSums>,
    /// Deal groups folded into `card_group_sums`: the card intervals are over deal groups
    /// when this is every group of the run.
    #[serde(default)]
    pub card_groups: u64,
    /// Per histogram bin, every seat together: the bin's count (a) and its histogram's
    /// count (b) summed over each deal group, for a bin's share with an interval over deal
    /// groups (empty in tallies written before they were counted).
    #[serde(default)]
    pub bin_groups: Vec<RatioSums>,
    /// The health card's counts.
    #[serde(default)]
    pub health: super::HealthSums,
    /// What one seat can score in a unit (the game's declaration): the score's intervals
    /// are cut there. None in tallies written before it was kept.
    #[serde(default)]
    pub score_bounds: stats::Bounds,
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
            seat_groups: vec![
                GroupSums {
                    measures: vec![RatioSums::default(); measures.measures.len()],
                    ..GroupSums::default()
                };
                seats + 1
            ],
            rules_used: Vec::new(),
            seat_shares: super::SeatShares::new(seats),
            pairs: vec![PairedSums::default(); strategies * strategies.saturating_sub(1) / 2],
            share_pairs: vec![PairedSums::default(); strategies * strategies.saturating_sub(1) / 2],
            shard: None,
            cards: Vec::new(),
            card_group_sums: Vec::new(),
            card_groups: 0,
            bin_groups: vec![RatioSums::default(); measures.shape().bins],
            health: super::HealthSums::default(),
            score_bounds: measures.score.bounds,
        }
    }

    /// Checks the counts against each other, for a tally read from a file: each unit seats
    /// every seat once, no seat wins more units than it played, and no rule is used in more
    /// units than were played.
    pub fn count_fault(&self) -> Option<String> {
        let seated = self.cells.iter().try_fold(0u64, |sum, c| sum.checked_add(c.rounds));
        let expected = self.rounds.checked_mul(self.seat_count as u64);
        if seated.is_none() || seated != expected {
            return Some(format!(
                "its seats played {} units, not {} seats x {} units",
                seated.map_or("too many".to_string(), |s| s.to_string()),
                self.seat_count,
                self.rounds
            ));
        }
        let won_more = |c: &Counts| {
            c.outright.checked_add(c.split).is_none_or(|w| w > c.rounds)
                || c.share_units > c.rounds.saturating_mul(u64::from(SHARE_UNIT))
        };
        if self.cells.iter().any(won_more) {
            return Some("a seat won more units than it played".to_string());
        }
        if self.rules_used.iter().any(|&u| u > self.rounds) {
            return Some("a rule used in more units than were played".to_string());
        }
        None
    }

    /// What makes this tally (read from a file) unfit to merge with `template`, an empty
    /// tally of the same run: a list whose length differs where merging and the tables
    /// index by position. Lists the template leaves empty (card analytics, rules used) and
    /// lists left empty by older versions are not compared.
    pub fn shape_fault(&self, template: &Tally) -> Option<String> {
        fn fault(path: &str, a: &serde_json::Value, t: &serde_json::Value) -> Option<String> {
            use serde_json::Value;
            match (a, t) {
                (Value::Object(a), Value::Object(t)) => {
                    t.iter().find_map(|(k, tv)| a.get(k).and_then(|av| fault(&format!("{path}.{k}"), av, tv)))
                }
                (Value::Array(a), Value::Array(t)) if !a.is_empty() && !t.is_empty() => {
                    if a.len() != t.len() {
                        return Some(format!("{} entries in {path}, not {}", a.len(), t.len()));
                    }
                    a.iter().zip(t).find_map(|(av, tv)| fault(path, av, tv))
                }
                _ => None,
            }
        }
        let (Ok(a), Ok(t)) = (serde_json::to_value(self), serde_json::to_value(template)) else {
            return Some("it does not serialise".to_string());
        };
        if self.seat_count != template.seat_count {
            return Some(format!("{} seats, not {}", self.seat_count, template.seat_count));
        }
        fault("tally", &a, &t)
    }

    /// Starts counting card analytics over `cards` card ids.
    pub(crate) fn start_cards(&mut self, cards: usize) {
        self.cards = vec![CardCounts::default(); self.strategy_count() * cards];
        self.card_group_sums = vec![CardGroupSums::default(); self.strategy_count() * cards];
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

    /// Strategy `x`'s estimates for id `card`, with intervals over deal groups where every
    /// merged shard counted them (see [`CardCounts::estimates`]), else over units.
    pub fn card_estimates(&self, x: usize, card: usize) -> CardEstimates {
        let counts = self.card(x, card);
        let deals = self.deal_groups();
        let sums = self.card_group_sums.get(x * self.card_count() + card);
        match sums.filter(|_| self.card_groups == deals && deals > 0 && self.card_group_sums.len() == self.cards.len())
        {
            Some(sums) => counts.estimates(sums, deals),
            None => counts.unit_estimates(),
        }
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
                self.share_pairs[p].add(shares[a] - shares[b]);
                p += 1;
            }
        }
    }

    /// Counts one unit's rules-use bits.
    pub(crate) fn add_rules_used(&mut self, bits: u32) {
        let top = 32 - bits.leading_zeros() as usize;
        if self.rules_used.len() < top {
            self.rules_used.resize(top, 0);
        }
        for (b, n) in self.rules_used.iter_mut().enumerate() {
            *n += u64::from(bits >> b & 1);
        }
    }

    /// Adds another tally of the same run.
    pub fn merge(&mut self, o: &Tally) {
        if self.score_bounds == stats::Bounds::NONE {
            self.score_bounds = o.score_bounds;
        }
        self.rounds += o.rounds;
        self.length_sum += o.length_sum;
        self.length_sq += o.length_sq;
        self.cells.iter_mut().zip(&o.cells).for_each(|(a, b)| a.merge(b));
        self.groups.iter_mut().zip(&o.groups).for_each(|(a, b)| a.merge(b));
        self.share_groups.iter_mut().zip(&o.share_groups).for_each(|(a, b)| a.merge(b));
        self.measure_groups.iter_mut().zip(&o.measure_groups).for_each(|(a, b)| a.merge(b));
        self.pairs.iter_mut().zip(&o.pairs).for_each(|(a, b)| a.merge(b));
        self.share_pairs.iter_mut().zip(&o.share_pairs).for_each(|(a, b)| a.merge(b));
        self.seat_groups.iter_mut().zip(&o.seat_groups).for_each(|(a, b)| a.merge(b));
        self.seat_shares.merge(&o.seat_shares);
        if self.rules_used.len() < o.rules_used.len() {
            self.rules_used.resize(o.rules_used.len(), 0);
        }
        self.rules_used.iter_mut().zip(&o.rules_used).for_each(|(a, b)| *a += b);
        if self.cards.is_empty() {
            self.cards.clone_from(&o.cards);
        } else {
            self.cards.iter_mut().zip(&o.cards).for_each(|(a, b)| a.merge(b));
        }
        if self.card_group_sums.is_empty() {
            self.card_group_sums.clone_from(&o.card_group_sums);
        } else {
            self.card_group_sums.iter_mut().zip(&o.card_group_sums).for_each(|(a, b)| a.merge(b));
        }
        self.card_groups += o.card_groups;
        self.bin_groups.iter_mut().zip(&o.bin_groups).for_each(|(a, b)| a.merge(b));
        self.health.merge(&o.health);
        if o.instances.iter().any(|&i| i != 0) {
            self.instances.clone_from(&o.instances);
        }
    }

    /// Mean length of a unit of play (rounds per game in game mode), with a t interval.
    pub fn mean_length(&self) -> stats::Estimate {
        // Every unit lasts at least one of what its length counts.
        stats::Bounds::at_least(1.0).clamp(stats::mean_interval(
            self.rounds,
            self.length_sum as f64,
            self.length_sq as f64,
        ))
    }

    /// Score per unit of strategy `x`, with a t interval over deal groups (paired); under
    /// [`MIN_PAIRED_GROUPS`] groups or with every group alike, the small-sample rule's t
    /// interval over its units (a t quantile on one or two groups' degrees of freedom spans
    /// more than a unit can score; groups alike show no spread at all). Either is cut at
    /// what the rules let a seat score.
    pub fn score_per_round(&self, x: usize) -> stats::Estimate {
        self.score_bounds.clamp(if self.groups[x].backs_an_interval() {
            self.paired_score_per_round(x)
        } else {
            self.strategy(x).score_per_round()
        })
    }

    /// Score per unit of strategy `x` with its t interval over deal groups however few
    /// (unbounded on one): for a bound that must not be narrower than the pairing allows
    /// (exploitability by play, the optimisers' racing).
    pub fn paired_score_per_round(&self, x: usize) -> stats::Estimate {
        self.groups[x].mean(self.instances[x].max(1) as f64)
    }

    /// Paired difference in score per unit, strategy `a` minus `b` (a < b), with its interval
    /// (cut at what the rules let two seats' scores differ by).
    pub fn pair_difference(&self, a: usize, b: usize) -> stats::Estimate {
        let n = self.strategy_count();
        let index = a * n - a * (a + 1) / 2 + (b - a - 1);
        self.score_bounds
            .difference()
            .clamp(self.pairs[index].mean((self.instances[a] * self.instances[b]).max(1) as f64))
    }

    /// Win rate (win share per unit) of strategy `x` with its 95% interval over deal
    /// groups: all seatings of one deal are one observation, so what the seatings share
    /// (the deal's luck) cancels as it does in the paired score. Small-sample rule: see
    /// [`grouped_win_rate`].
    pub fn win_rate(&self, x: usize) -> stats::Estimate {
        let share = self.share_groups.get(x).filter(|g| g.groups == self.groups[x].groups);
        grouped_win_rate(&self.strategy(x), share, self.instances[x])
    }

    /// Adds one deal group's numerator and denominator of each declared measure, in order,
    /// for strategy `x`.
    #[inline]
    pub(crate) fn add_measure_group(&mut self, x: usize, ab: impl Iterator<Item = (i64, i64)>) {
        let per = self.measure_groups.len() / self.strategy_count().max(1);
        for (m, (a, b)) in self.measure_groups[x * per..(x + 1) * per].iter_mut().zip(ab) {
            m.add(a, b);
        }
    }

    /// Adds one deal group's sums for seat `s` (`s == seat_count`: every seat together): its
    /// score, win shares, and each declared measure's numerator and denominator in order.
    #[inline]
    pub(crate) fn add_seat_group(&mut self, s: usize, score: i64, share: i64, ab: impl Iterator<Item = (i64, i64)>) {
        let g = &mut self.seat_groups[s];
        g.score.add(score);
        g.share.add(share);
        for (m, (a, b)) in g.measures.iter_mut().zip(ab) {
            m.add(a, b);
        }
    }

    /// Strategy `x`'s estimate of declared measure `m` (its `index` among the game's
    /// measures) with the count it is over: over deal groups where there are enough and
    /// they spread, else over units as [`Counts::measure`] gives it.
    pub fn measure(&self, x: usize, index: usize, m: &Measure) -> (stats::Estimate, u64) {
        let per = self.measure_groups.len() / self.strategy_count().max(1);
        let sums = self.measure_groups.get(x * per + index).filter(|_| index < per);
        // Only group sums from every shard (see `grouped_win_rate`).
        grouped_measure(self.strategy(x).measure(m), sums.filter(|g| g.groups == self.groups[x].groups), m)
    }

    /// Adds one deal group's bin counts, every seat together (`counts`: each bin's count in
    /// the group), to each bin's share of its histogram (`histograms`: each one's bins).
    pub(crate) fn add_bin_group(&mut self, counts: &[i64], histograms: &[std::ops::Range<usize>]) {
        for bins in histograms {
            let total = counts[bins.clone()].iter().sum();
            for (sums, &count) in self.bin_groups[bins.clone()].iter_mut().zip(&counts[bins.clone()]) {
                sums.add(count, total);
            }
        }
    }

    /// Bin `bin`'s share of its histogram's counts, every strategy together, with a 95%
    /// interval over deal groups: `None` where a merged shard did not count it, or where
    /// the groups are too few or the bin too rare or too common for a t interval.
    pub fn bin_share(&self, bin: usize) -> Option<stats::Estimate> {
        let sums = self.bin_groups.get(bin).filter(|g| g.groups == self.deal_groups())?;
        sums.ratio(true).map(|e| stats::Bounds::between(0.0, 1.0).clamp(e))
    }

    /// Deal groups the run played (every strategy has a sum for each).
    pub fn deal_groups(&self) -> u64 {
        self.groups.first().map_or(0, |g| g.groups)
    }

    /// Seat `s`'s sums over deal groups (`s == seat_count`: every seat's), if every merged
    /// shard carried them.
    fn seat_group(&self, s: usize) -> Option<&GroupSums> {
        self.seat_groups.get(s).filter(|g| g.score.groups == self.deal_groups() && g.share.groups == g.score.groups)
    }

    /// The seat figures ([`SeatShares::figures`](super::SeatShares::figures)), if every
    /// merged shard counted the seats' shares.
    pub fn seat_figures(&self) -> Option<super::SeatFigures> {
        let units = (self.seat_instances() * i64::from(SHARE_UNIT)) as f64;
        Some(&self.seat_shares).filter(|s| s.groups == self.deal_groups())?.figures(units)
    }

    /// Rounds (units) a seat plays in one deal group: one per seating.
    fn seat_instances(&self) -> i64 {
        self.instances.iter().sum::<i64>() / self.seat_count.max(1) as i64
    }

    /// Win rate at seat `s` with its 95% interval over deal groups: a seat meets the same
    /// cards in every seating of a deal, so its rounds within a group are not independent
    /// and an interval over units would be too narrow. Small-sample rule as for strategies.
    pub fn seat_win_rate(&self, s: usize) -> stats::Estimate {
        grouped_win_rate(&self.seat(s), self.seat_group(s).map(|g| &g.share), self.seat_instances())
    }

    /// Score per unit at seat `s`, with a t interval over deal groups (over units when the
    /// group sums are missing or too few), cut at what the rules let a seat score.
    pub fn seat_score_per_round(&self, s: usize) -> stats::Estimate {
        let e = match self.seat_group(s).filter(|g| g.score.backs_an_interval()) {
            Some(g) => g.score.mean(self.seat_instances().max(1) as f64),
            None => self.seat(s).score_per_round(),
        };
        self.score_bounds.clamp(e)
    }

    /// Seat `s`'s estimate of declared measure `m` (its `index`), over deal groups where
    /// there are enough and they spread, as [`Tally::measure`].
    pub fn seat_measure(&self, s: usize, index: usize, m: &Measure) -> (stats::Estimate, u64) {
        grouped_measure(self.seat(s).measure(m), self.seat_measure_sums(s, index), m)
    }

    /// Seat `s`'s (or every seat's) sums of measure `index` over deal groups, if they cover
    /// every deal group (a merged tally from before the game declared the measure lacks
    /// them for its part).
    fn seat_measure_sums(&self, s: usize, index: usize) -> Option<&RatioSums> {
        let deals = self.deal_groups();
        self.seat_group(s).and_then(|g| g.measures.get(index)).filter(|m| m.groups == deals)
    }

    /// The whole run's estimate of declared measure `m` (its `index`), every seat together,
    /// over deal groups where there are enough and they spread.
    pub fn total_measure(&self, index: usize, m: &Measure) -> (stats::Estimate, u64) {
        grouped_measure(self.total().measure(m), self.seat_measure_sums(self.seat_count, index), m)
    }

    /// The widest win-rate interval half-width among the strategies.
    pub fn max_win_rate_half_width(&self) -> f64 {
        (0..self.strategy_count()).map(|x| self.win_rate(x).half_width()).fold(0.0, f64::max)
    }
}

/// A win rate with its 95% interval over deal groups (`share`: the win shares summed over
/// each group, `instances`: units per group) where that is sound. Small-sample rule: with
/// fewer than [`MIN_PAIRED_GROUPS`] groups, wins or non-wins, when every group scored alike
/// (no spread to estimate), or without group sums (`None`: not every merged shard carried
/// them), the Wilson interval over units is used instead.
fn grouped_win_rate(counts: &Counts, share: Option<&PairedSums>, instances: i64) -> stats::Estimate {
    let units = counts.win_rate();
    let min = MIN_PAIRED_GROUPS as f64;
    let events = counts.wins() >= min && counts.rounds as f64 - counts.wins() >= min;
    match share.filter(|g| g.groups >= MIN_PAIRED_GROUPS) {
        Some(g) if events => {
            // Exactly in integers: every group alike means n * sum_sq = sum^2.
            let spread = u128::from(g.groups).checked_mul(g.sum_sq) != Some(u128::from(g.sum.unsigned_abs()).pow(2));
            if !spread {
                return units;
            }
            let half = g.mean(instances.max(1) as f64 * SHARE_UNIT as f64).half_width();
            stats::Estimate { mean: units.mean, lo: (units.mean - half).max(0.0), hi: (units.mean + half).min(1.0) }
        }
        _ => units,
    }
}

/// A declared measure's estimate over deal groups (`sums`, complete ones only) where they
/// are enough and spread (see [`RatioSums::ratio`]), else `units`, the estimate over units;
/// either cut at what the measure can be.
fn grouped_measure(units: (stats::Estimate, u64), sums: Option<&RatioSums>, m: &Measure) -> (stats::Estimate, u64) {
    let (e, n) = grouped_or_units(units, sums, m);
    (m.bounds.clamp(e), n)
}

/// A declared measure's estimate over deal groups, or over units (see [`grouped_measure`]).
fn grouped_or_units(units: (stats::Estimate, u64), sums: Option<&RatioSums>, m: &Measure) -> (stats::Estimate, u64) {
    let rate = matches!(m.kind, Kind::Rate { .. });
    match sums.and_then(|g| g.ratio(rate)) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::measures::Shown;

    fn measures() -> Measures {
        Measures::declaring(vec![
            Measure::rate(0, "a", "a_rate", Shown::Both, ""),
            Measure::mean(0, "b", "mean_b", Shown::Both, ""),
        ])
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
    fn a_count_and_a_signed_sum_are_cut_where_they_can_be() {
        let counted = measures();
        let signed = Measures::declaring(vec![Measure::signed_mean(0, "b", "mean_b", Shown::Both, "")]);
        for (m, index, lo) in [(&counted, 1, Some(0.0)), (&signed, 0, None)] {
            let mut t = Tally::new(1, 1, m);
            // Two units counting 0 and 1: t on one degree of freedom spans 0.5 +- 6.35.
            for sum in [0, 1] {
                let mut r = SeatResult::default();
                r.sums[0] = sum;
                t.add_seat(0, 0, &r);
            }
            let (e, n) = t.measure(0, index, &m.measures[index]);
            assert_eq!((e.mean, n), (0.5, 2));
            assert!(e.hi > 6.0, "{e:?}");
            match lo {
                Some(lo) => assert_eq!(e.lo, lo, "a count's mean is never below 0"),
                None => assert!(e.lo < -5.0, "a signed sum is not cut: {e:?}"),
            }
        }
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
    fn scores_use_deal_groups_with_a_small_sample_rule() {
        let m = measures();
        // Strategy 0 at both seats of each group, scoring 3 and -1, or 5 and 1: groups of
        // 2 and 6, units of -1 to 5.
        let build = |groups: u64, alike: bool| {
            let mut t = Tally::new(2, 2, &m);
            for g in 0..groups {
                let up = if alike { 0 } else { 2 * (g % 2) as i64 };
                for (seat, score) in [(0, 3 + up), (1, -1 + up)] {
                    t.add_seat(0, seat, &SeatResult { score, ..SeatResult::default() });
                }
                t.add_group(&[2 + 2 * up, 0], &[0, 0], &[2, 2]);
            }
            t
        };
        let few = build(2, false);
        let units = few.strategy(0).score_per_round();
        assert_eq!(few.score_per_round(0), units, "two groups: a t interval over the units");
        // t on one degree of freedom spans far more than any unit scores.
        assert!(few.paired_score_per_round(0).half_width() > 3.0 * units.half_width());
        let many = build(40, false);
        assert_eq!(many.score_per_round(0), many.paired_score_per_round(0), "enough groups: over the groups");
        assert_eq!(many.score_per_round(0).mean, 2.0);
        // Every group alike: no spread over groups, so over the units (3 and -1).
        let alike = build(40, true);
        assert_eq!(alike.paired_score_per_round(0).half_width(), 0.0);
        assert_eq!(alike.score_per_round(0), alike.strategy(0).score_per_round());
        assert!(alike.score_per_round(0).half_width() > 0.4);
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
