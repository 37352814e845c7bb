//! The health card's counts: what every unit of play tells about the variant itself
//! (does it finish, how long, how many real choices, how the lead moves), whatever the
//! game. The driver fills a unit's [`UnitHealth`] at each decision; a game only says when
//! a cap ended the unit and, if its state has one, each seat's standing.

use serde::{Deserialize, Serialize};

use super::record::{MAX_SEATS, SHARE_UNIT, SeatResult};
use super::tally::RatioSums;
use crate::stats::{self, Bounds, Estimate};

/// Unit lengths (decisions per unit) are counted exactly up to this; longer units share
/// the last bin.
pub const LENGTH_BINS: usize = 4096;

const NO_LEADER: u8 = u8::MAX;

/// What one unit of play tells the health card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitHealth {
    /// A cap (turns, rounds) ended the unit: set by the game.
    pub capped: bool,
    /// Whether the driver counts each decision's legal moves and follows the standings in
    /// this unit (set by the harness for a sample of deals: listing every legal move costs
    /// more than most moves).
    pub sampled: bool,
    /// Decisions taken (forced ones included).
    pub decisions: u32,
    /// Decisions whose legal moves were counted.
    pub counted: u32,
    /// Of those, decisions with more than one legal move.
    pub choices: u32,
    /// Legal moves summed over the counted decisions.
    pub legal: u32,
    /// Times the sole leader in standing changed.
    pub lead_changes: u32,
    /// Standings observed (after each move, in games that declare a standing).
    pub checkpoints: u32,
    /// Per seat: the leader's standing minus the seat's, summed over the checkpoints.
    pub behind: [i64; MAX_SEATS],
    /// The last sole leader, if any.
    leader: u8,
}

impl Default for UnitHealth {
    fn default() -> Self {
        UnitHealth {
            capped: false,
            sampled: false,
            decisions: 0,
            counted: 0,
            choices: 0,
            legal: 0,
            lead_changes: 0,
            checkpoints: 0,
            behind: [0; MAX_SEATS],
            leader: NO_LEADER,
        }
    }
}

impl UnitHealth {
    /// Records a decision among `legal` moves.
    #[inline]
    pub fn decision(&mut self, legal: usize) {
        self.decisions += 1;
        self.counted += 1;
        self.choices += u32::from(legal > 1);
        self.legal += legal as u32;
    }

    /// Records every seat's standing at one moment (higher is better).
    #[inline]
    pub fn standings(&mut self, standing: &[i64]) {
        let top = standing.iter().copied().max().unwrap_or(0);
        let mut leaders = standing.iter().enumerate().filter(|&(_, &v)| v == top);
        let first = leaders.next().map_or(NO_LEADER, |(s, _)| s as u8);
        if leaders.next().is_none() {
            if self.leader != NO_LEADER && self.leader != first {
                self.lead_changes += 1;
            }
            self.leader = first;
        }
        for (b, &v) in self.behind.iter_mut().zip(standing) {
            *b += top - v;
        }
        self.checkpoints += 1;
    }
}

/// Slots of one deal group's health sums.
pub(crate) mod slot {
    pub const UNITS: usize = 0;
    pub const DECISIVE: usize = 1;
    pub const DRAWN: usize = 2;
    pub const CAPPED: usize = 3;
    pub const DECISIONS: usize = 4;
    pub const CHOICES: usize = 5;
    pub const LEGAL: usize = 6;
    pub const STANDING_UNITS: usize = 7;
    pub const LEAD_CHANGES: usize = 8;
    pub const WINNER_BEHIND: usize = 9;
    pub const WINNER_CHECKPOINTS: usize = 10;
    pub const COUNTED: usize = 11;
    /// Each seat's win-share units, seat after seat (set only in the groups a
    /// [`Mode::DealGroups`](crate::sim::Mode::DealGroups) run keeps).
    pub const SEAT_SHARES: usize = 12;
    pub const COUNT: usize = SEAT_SHARES + super::MAX_SEATS;
}

/// Per deal group: the health slots' sums (see [`GROUP_SLOTS`]).
pub type GroupHealth = [i64; GROUP_SLOTS];

/// Slots of [`GroupHealth`].
pub const GROUP_SLOTS: usize = slot::COUNT;

/// One figure of the health card that is a ratio of two group sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RatioFigure {
    /// Its name (the `figure` column, and a metric name for `tune` and `--require`).
    pub name: &'static str,
    /// What it means, in a line.
    pub description: &'static str,
    numerator: usize,
    denominator: usize,
    /// Whether it is a share of its denominator (between 0 and 1).
    pub rate: bool,
}

/// The ratio figures, in the card's order.
pub const RATIO_FIGURES: [RatioFigure; 8] = [
    RatioFigure {
        name: "completion",
        description: "share of units won outright by one seat",
        numerator: slot::DECISIVE,
        denominator: slot::UNITS,
        rate: true,
    },
    RatioFigure {
        name: "drawishness",
        description: "share of units drawn or split between seats, caps excluded",
        numerator: slot::DRAWN,
        denominator: slot::UNITS,
        rate: true,
    },
    RatioFigure {
        name: "timeouts",
        description: "share of units ended by a cap (turns, rounds): a safety net that should not fire",
        numerator: slot::CAPPED,
        denominator: slot::UNITS,
        rate: true,
    },
    RatioFigure {
        name: "length_mean",
        description: "decisions per unit (every seat's, forced ones included)",
        numerator: slot::DECISIONS,
        denominator: slot::UNITS,
        rate: false,
    },
    RatioFigure {
        name: "decision_density",
        description: "share of decisions with more than one legal move, over a sample of deals",
        numerator: slot::CHOICES,
        denominator: slot::COUNTED,
        rate: true,
    },
    RatioFigure {
        name: "legal_moves_mean",
        description: "legal moves per decision, over a sample of deals",
        numerator: slot::LEGAL,
        denominator: slot::COUNTED,
        rate: false,
    },
    RatioFigure {
        name: "lead_changes",
        description: "changes of the sole leader in standing per unit, over a sample of deals",
        numerator: slot::LEAD_CHANGES,
        denominator: slot::STANDING_UNITS,
        rate: false,
    },
    RatioFigure {
        name: "drama",
        description: "how far the eventual sole winner stood behind the leader, on average, over a sample of deals",
        numerator: slot::WINNER_BEHIND,
        denominator: slot::WINNER_CHECKPOINTS,
        rate: false,
    },
];

/// Index of `lead_changes` in [`RATIO_FIGURES`] (its denominator counts units with a standing).
const LEAD_CHANGES: usize = 6;

/// Whether the units of deal `deal` count their legal moves and standings: the first
/// [`SAMPLE_FIRST`] deals and every [`SAMPLE_EVERY`]th after, so short runs have a fair
/// sample and long ones pay little (listing Seven Poker's exchange menus at every
/// decision would cost more than playing the whole unit; `docs/performance.md` has the
/// card's measured cost).
#[inline]
pub fn sampled_deal(deal: u64) -> bool {
    deal < SAMPLE_FIRST || deal.is_multiple_of(SAMPLE_EVERY)
}

/// The deals a run plays before [`sampled_deal`] has measured `groups` of them.
pub fn deals_sampling(groups: u64) -> u64 {
    if groups <= SAMPLE_FIRST { groups } else { (groups - SAMPLE_FIRST) * SAMPLE_EVERY + 1 }
}

/// See [`sampled_deal`].
pub const SAMPLE_FIRST: u64 = 16;
/// See [`sampled_deal`].
pub const SAMPLE_EVERY: u64 = 128;

/// A group's health sums for one finished unit.
#[inline]
pub fn add_unit(group: &mut GroupHealth, health: &UnitHealth, seats: &[SeatResult]) {
    group[slot::UNITS] += 1;
    group[slot::DECISIONS] += i64::from(health.decisions);
    group[slot::COUNTED] += i64::from(health.counted);
    group[slot::CHOICES] += i64::from(health.choices);
    group[slot::LEGAL] += i64::from(health.legal);
    let mut winners = seats.iter().enumerate().filter(|(_, r)| r.share_units > 0);
    let sole = match (winners.next(), winners.next()) {
        (Some((s, _)), None) => Some(s),
        _ => None,
    };
    if health.capped {
        group[slot::CAPPED] += 1;
    } else if sole.is_some() {
        group[slot::DECISIVE] += 1;
    } else {
        group[slot::DRAWN] += 1;
    }
    if health.checkpoints > 0 {
        group[slot::STANDING_UNITS] += 1;
        group[slot::LEAD_CHANGES] += i64::from(health.lead_changes);
        if let (Some(w), false) = (sole, health.capped) {
            group[slot::WINNER_BEHIND] += health.behind[w];
            group[slot::WINNER_CHECKPOINTS] += i64::from(health.checkpoints);
        }
    }
}

/// A run's health counts: each ratio figure's sums over deal groups, and the unit lengths.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HealthSums {
    /// Per ratio figure, in [`RATIO_FIGURES`] order.
    pub ratios: Vec<RatioSums>,
    /// Units by length in decisions (the last bin holds every longer unit).
    pub lengths: Vec<u64>,
    /// Every deal group's sums, in deal order, when the run keeps them (a sensitivity
    /// study pairs them with the base's); otherwise empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<GroupHealth>,
    /// With `groups`: each deal group's declared measures over every seat, as (numerator,
    /// denominator) pairs, measure after measure.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub measure_groups: Vec<(i64, i64)>,
}

impl Default for HealthSums {
    fn default() -> Self {
        HealthSums {
            ratios: vec![RatioSums::default(); RATIO_FIGURES.len()],
            lengths: vec![0; LENGTH_BINS],
            groups: Vec::new(),
            measure_groups: Vec::new(),
        }
    }
}

impl HealthSums {
    /// Adds one deal group; `keep` also keeps its sums and its measures' (every seat's).
    pub(crate) fn add_group(&mut self, group: &GroupHealth, keep: Option<impl Iterator<Item = (i64, i64)>>) {
        for (sums, f) in self.ratios.iter_mut().zip(&RATIO_FIGURES) {
            sums.add(group[f.numerator], group[f.denominator]);
        }
        if let Some(measures) = keep {
            self.groups.push(*group);
            self.measure_groups.extend(measures);
        }
    }

    /// Counts one unit's length.
    #[inline]
    pub(crate) fn add_length(&mut self, decisions: u32) {
        self.lengths[(decisions as usize).min(LENGTH_BINS - 1)] += 1;
    }

    /// Adds another part of the same run (parts in deal order).
    pub(crate) fn merge(&mut self, o: &HealthSums) {
        self.ratios.iter_mut().zip(&o.ratios).for_each(|(a, b)| a.merge(b));
        self.lengths.iter_mut().zip(&o.lengths).for_each(|(a, b)| *a += b);
        self.groups.extend_from_slice(&o.groups);
        self.measure_groups.extend_from_slice(&o.measure_groups);
    }

    /// Units counted.
    pub fn units(&self) -> u64 {
        self.lengths.iter().sum()
    }

    /// Whether any unit reported a standing (the game declares one).
    pub fn has_standing(&self) -> bool {
        self.ratios.get(LEAD_CHANGES).is_some_and(|r| r.b > 0)
    }

    /// Figure `i` of [`RATIO_FIGURES`] with its interval over deal groups (over units, or
    /// unbounded, when the groups are too few to trust); `None` when nothing was counted.
    pub fn figure(&self, i: usize) -> Option<Estimate> {
        let sums = &self.ratios[i];
        if sums.b == 0 {
            return None;
        }
        let rate = RATIO_FIGURES[i].rate;
        // A share lies in [0, 1]; the other figures count (decisions, legal moves).
        let bounds = if rate { Bounds::between(0.0, 1.0) } else { Bounds::at_least(0.0) };
        Some(bounds.clamp(sums.ratio(rate).unwrap_or_else(|| fallback(sums, rate))))
    }

    /// The `q` quantile of the unit length (0 < q < 1) with a distribution-free 95%
    /// interval from the binomial order statistics of the units.
    pub fn length_quantile(&self, q: f64) -> Option<Estimate> {
        let n = self.units();
        if n == 0 {
            return None;
        }
        let nf = n as f64;
        let half = 1.959_963_984_540_054 * (nf * q * (1.0 - q)).sqrt();
        let rank = |r: f64| (r.ceil().clamp(1.0, nf)) as u64;
        let at = |k: u64| {
            let mut seen = 0;
            self.lengths.iter().position(|&c| {
                seen += c;
                seen >= k
            })
        };
        // The last bin holds every longer unit: a quantile there is past what is kept (none),
        // and an interval's end there is open.
        let overflow = LENGTH_BINS - 1;
        let value = at(rank(nf * q)).filter(|&b| b < overflow)? as f64;
        let lo = at(rank(nf * q - half))? as f64;
        let hi = at(rank(nf * q + half + 1.0))
            .map_or(f64::INFINITY, |b| if b < overflow { b as f64 } else { f64::INFINITY });
        Some(Estimate { mean: value, lo, hi })
    }

    /// Share of units whose length in decisions lies in `min..=max`, with a Wilson interval
    /// over units; none where `max` reaches the last bin and it holds units, which may be
    /// longer than `max`.
    pub fn share_between(&self, min: u32, max: u32) -> Option<Estimate> {
        let n = self.units();
        let overflow = LENGTH_BINS - 1;
        let unknown = max as usize >= overflow && self.lengths.get(overflow).is_some_and(|&c| c > 0);
        (n > 0 && !unknown).then(|| {
            let hi = (max as usize).min(overflow);
            let inside: u64 = self.lengths.get(min as usize..=hi).map_or(0, |b| b.iter().sum());
            stats::wilson(inside as f64, n)
        })
    }
}

/// A ratio's interval when the groups are too few for the t interval over groups: Wilson
/// over the denominator's units for a rate, else the delta method's normal interval (or
/// none at all from a single group).
fn fallback(sums: &RatioSums, rate: bool) -> Estimate {
    let r = sums.a as f64 / sums.b as f64;
    if rate {
        let e = stats::wilson(sums.a as f64, sums.b as u64);
        // None seen: the interval starts at 0 exactly (not at a rounding error above it).
        return if sums.a == 0 { Estimate { lo: 0.0, ..e } } else { e };
    }
    let n = sums.groups as f64;
    if sums.groups < 2 {
        return Estimate { mean: r, lo: f64::NEG_INFINITY, hi: f64::INFINITY };
    }
    let var = (sums.residual_sq(r) / (n - 1.0)).max(0.0);
    let half = stats::t_quantile_975(sums.groups - 1) * (var / n).sqrt() / (sums.b as f64 / n);
    Estimate { mean: r, lo: r - half, hi: r + half }
}

/// Figure `i`'s (numerator, denominator) in one deal group's sums.
pub fn group_value(group: &GroupHealth, i: usize) -> (i64, i64) {
    let f = &RATIO_FIGURES[i];
    (group[f.numerator], group[f.denominator])
}

/// Seat `s`'s win-share units and its units times [`SHARE_UNIT`] in one deal group's sums:
/// the seat's win rate as a ratio of group sums.
pub fn seat_share(group: &GroupHealth, s: usize) -> (i64, i64) {
    (group[slot::SEAT_SHARES + s], group[slot::UNITS] * i64::from(SHARE_UNIT))
}

/// One line of the health card.
#[derive(Clone, Debug, PartialEq)]
pub struct HealthFigure {
    /// Its name (a metric name for `tune` and `--require`).
    pub name: String,
    /// The estimate with its 95% interval.
    pub value: Estimate,
    /// What it means, in a line.
    pub description: String,
}

/// Every figure a health card may hold, by name, with its meaning in a line, in the card's
/// order (`ideal_length` where `ideal` gives its span; `run --ideal-length` sets it).
pub fn figure_meanings(measures: &super::Measures, ideal: Option<(u32, u32)>) -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = RATIO_FIGURES.iter().map(|f| (f.name, f.description.into())).collect();
    for (name, nth) in [("length_p10", 10), ("length_p50", 50), ("length_p90", 90)] {
        out.push((name, format!("{nth}th percentile of decisions per unit (interval from the order statistics)")));
    }
    out.push((
        "ideal_length",
        match ideal {
            Some((min, max)) => format!("share of units lasting {min} to {max} decisions"),
            None => "share of units lasting MIN to MAX decisions (run --ideal-length MIN..MAX)".into(),
        },
    ));
    out.push((
        "seat_advantage",
        "spread of the seats' win rates: root mean square of each seat's minus the mean seat's, noise taken off; 0 for equal seats".into(),
    ));
    out.push(("balance", "one minus the seat advantage".into()));
    out.push((
        "first_seat_edge",
        format!("seat 0's win rate minus the other seats' mean, paired over deal groups ({})", measures.first_seat),
    ));
    out.push(("seats_equal_p", "p-value of the test that every seat wins equally often".into()));
    out.push(("skill_gap", "best strategy's score per unit minus random's, paired on the same deals".into()));
    out
}

/// The health card of a run: its ratio figures, seat balance, the skill gap when `random`
/// is seated, and the unit length's percentiles (and the share of units whose length lies
/// in `ideal`, when given).
pub fn health_figures(
    tally: &super::Tally,
    strategies: &[String],
    measures: &super::Measures,
    ideal: Option<(u32, u32)>,
) -> Vec<HealthFigure> {
    let meanings = figure_meanings(measures, ideal);
    let mut out = Vec::new();
    let mut push = |name: &str, value: Estimate| {
        let description = meanings.iter().find(|(n, _)| *n == name).map_or_else(String::new, |(_, d)| d.clone());
        out.push(HealthFigure { name: name.into(), value, description });
    };
    let h = &tally.health;
    for (i, f) in RATIO_FIGURES.iter().enumerate() {
        if let Some(value) = h.figure(i) {
            push(f.name, value);
        }
    }
    for (q, name) in [(0.1, "length_p10"), (0.5, "length_p50"), (0.9, "length_p90")] {
        if let Some(value) = h.length_quantile(q) {
            push(name, value);
        }
    }
    if let Some((min, max)) = ideal
        && let Some(value) = h.share_between(min, max)
    {
        push("ideal_length", value);
    }
    if let Some(f) = tally.seat_figures() {
        push("seat_advantage", f.seat_advantage);
        let a = f.seat_advantage;
        push("balance", Estimate { mean: 1.0 - a.mean, lo: 1.0 - a.hi, hi: 1.0 - a.lo });
        push("first_seat_edge", f.first_seat_edge);
        // A p-value has no interval: its ends are left undefined (empty in a table).
        push("seats_equal_p", Estimate { mean: f.seats_equal_p, lo: f64::NAN, hi: f64::NAN });
    }
    if let Some(r) = strategies.iter().position(|s| s == "random") {
        let best = (0..strategies.len())
            .filter(|&x| x != r)
            .max_by(|&a, &b| tally.score_per_round(a).mean.total_cmp(&tally.score_per_round(b).mean));
        if let Some(b) = best {
            // The paired difference on the same deals, as the pairs table gives it.
            let d = tally.pair_difference(b.min(r), b.max(r));
            let gap = if b < r { d } else { Estimate { mean: -d.mean, lo: -d.hi, hi: -d.lo } };
            push("skill_gap", gap);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(share: u32) -> SeatResult {
        SeatResult { share_units: share, ..SeatResult::default() }
    }

    #[test]
    fn a_unit_is_decisive_drawn_or_capped_and_its_choices_counted() {
        let mut g = [0; GROUP_SLOTS];
        let mut h = UnitHealth::default();
        for legal in [1, 3, 2, 1] {
            h.decision(legal);
        }
        add_unit(&mut g, &h, &[seat(5040), seat(0)]);
        add_unit(&mut g, &UnitHealth::default(), &[seat(2520), seat(2520)]);
        add_unit(&mut g, &UnitHealth { capped: true, ..UnitHealth::default() }, &[seat(2520), seat(2520)]);
        assert_eq!(g[slot::UNITS..=slot::LEGAL], [3, 1, 1, 1, 4, 2, 7]);
        assert_eq!(g[slot::COUNTED], 4);
        assert_eq!(g[slot::STANDING_UNITS], 0, "no standing declared");
    }

    #[test]
    fn standings_count_lead_changes_and_how_far_the_winner_trailed() {
        let mut h = UnitHealth::default();
        // Seat 0 leads, a tie (no sole leader), seat 1 leads, seat 1 still leads.
        for s in [[5, 3], [4, 4], [2, 6], [1, 9]] {
            h.standings(&s);
        }
        assert_eq!((h.lead_changes, h.checkpoints), (1, 4));
        assert_eq!(h.behind[..2], [4 + 8, 2]);
        let mut g = [0; GROUP_SLOTS];
        add_unit(&mut g, &h, &[seat(0), seat(5040)]);
        assert_eq!((g[slot::WINNER_BEHIND], g[slot::WINNER_CHECKPOINTS]), (2, 4));
        assert_eq!((g[slot::STANDING_UNITS], g[slot::LEAD_CHANGES]), (1, 1));
    }

    #[test]
    fn length_quantiles_come_from_the_histogram() {
        let mut h = HealthSums::default();
        for len in 1..=100 {
            h.add_length(len);
        }
        let median = h.length_quantile(0.5).unwrap();
        assert_eq!(median.mean, 50.0);
        // n = 100, q = 0.5: ranks 50 -+ 9.8, so 41..=61 (the order statistics' interval).
        assert_eq!((median.lo, median.hi), (41.0, 61.0));
        assert_eq!(h.length_quantile(0.9).unwrap().mean, 90.0);
        let inside = h.share_between(11, 30).unwrap();
        assert!((inside.mean - 0.2).abs() < 1e-12);
        // Units past the histogram's last bin: a quantile there is not known, nor is the
        // share up to a length it may exceed; an interval reaching it is open above.
        let mut long = HealthSums::default();
        for len in 1..=100 {
            long.add_length(if len > 45 { 10 * LENGTH_BINS as u32 } else { len });
        }
        assert_eq!(long.length_quantile(0.9), None);
        let median = long.length_quantile(0.4).unwrap();
        assert_eq!((median.mean, median.hi), (40.0, f64::INFINITY));
        assert_eq!(long.share_between(1, 10_000), None);
        assert!((long.share_between(1, 45).unwrap().mean - 0.45).abs() < 1e-12);
    }
}
