//! Mergeable accumulators: integer counts and sums only, so any grouping of chunks or
//! shards adds up to exactly the same tally.

use serde::{Deserialize, Serialize};

use super::{SHARE_UNIT, SeatResult, Shard};
use crate::stats;

/// Counts and sums for one strategy or one seat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Rounds played.
    pub rounds: u64,
    /// Pot shares won, in units of `1 / SHARE_UNIT`.
    pub share_units: u64,
    /// Sum of net chips.
    pub net: i64,
    /// Sum of squared net chips.
    pub net_sq: u64,
    /// Rounds that reached a showdown.
    pub showdowns: u64,
    /// Showdowns won (at least part of a pot).
    pub showdown_wins: u64,
    /// Folds per betting round.
    pub folds: Vec<u64>,
    /// Picks made.
    pub picks: u64,
    /// Picks that were hate picks.
    pub hate_picks: u64,
    /// Rounds with at least one hate pick.
    pub hate_rounds: u64,
    /// Net chips summed over rounds with at least one hate pick.
    pub hate_rounds_net: i64,
    /// Showdown wins with a wild card in the hand.
    pub wild_wins: u64,
    /// Rounds in which each game-specific event bit was set for this seat.
    #[serde(default)]
    pub events: Vec<u64>,
}

impl Counts {
    fn new(betting_rounds: usize) -> Counts {
        Counts { folds: vec![0; betting_rounds], events: vec![0; super::EVENT_KINDS], ..Counts::default() }
    }

    fn add(&mut self, r: &SeatResult) {
        self.rounds += 1;
        self.share_units += r.share_units as u64;
        self.net += r.net;
        self.net_sq += (r.net * r.net) as u64;
        self.showdowns += u64::from(r.showdown);
        self.showdown_wins += u64::from(r.won_showdown);
        if let Some(b) = r.fold_round {
            self.folds[b as usize] += 1;
        }
        self.picks += r.picks as u64;
        self.hate_picks += r.hate_picks as u64;
        if r.hate_picks > 0 {
            self.hate_rounds += 1;
            self.hate_rounds_net += r.net;
        }
        self.wild_wins += u64::from(r.wild_in_win);
        for (bit, count) in self.events.iter_mut().enumerate() {
            *count += u64::from(r.events >> bit & 1);
        }
    }

    fn merge(&mut self, o: &Counts) {
        self.rounds += o.rounds;
        self.share_units += o.share_units;
        self.net += o.net;
        self.net_sq += o.net_sq;
        self.showdowns += o.showdowns;
        self.showdown_wins += o.showdown_wins;
        self.folds.iter_mut().zip(&o.folds).for_each(|(a, b)| *a += b);
        self.picks += o.picks;
        self.hate_picks += o.hate_picks;
        self.hate_rounds += o.hate_rounds;
        self.hate_rounds_net += o.hate_rounds_net;
        self.wild_wins += o.wild_wins;
        self.events.iter_mut().zip(&o.events).for_each(|(a, b)| *a += b);
    }

    /// Pot shares won, as a number of whole pots.
    pub fn wins(&self) -> f64 {
        self.share_units as f64 / SHARE_UNIT as f64
    }

    /// Win rate (pot share per round) with its Wilson 95% interval.
    pub fn win_rate(&self) -> stats::Estimate {
        stats::wilson(self.wins(), self.rounds)
    }

    /// Net chips per round with a t interval over rounds.
    pub fn chips_per_round(&self) -> stats::Estimate {
        stats::mean_interval(self.rounds, self.net as f64, self.net_sq as f64)
    }
}

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

/// Everything a run counted; tables are computed from it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Rounds played.
    pub rounds: u64,
    /// Sum of round lengths (game mode: rounds per game).
    pub length_sum: u64,
    /// Per strategy.
    pub strategies: Vec<Counts>,
    /// Per seat position.
    pub seats: Vec<Counts>,
    /// Per strategy: its net chips summed over each deal group.
    pub groups: Vec<PairedSums>,
    /// Instances of each strategy in one deal group.
    pub instances: Vec<i64>,
    /// Per pair (a, b) with a < b, in order: S_a * m_b - S_b * m_a per deal group.
    pub pairs: Vec<PairedSums>,
    /// Finished hands per strategy and category.
    pub finished: Vec<Vec<u64>>,
    /// Winning hands per strategy and category.
    pub winning: Vec<Vec<u64>>,
    /// The shard this tally covers, if only one.
    pub shard: Option<Shard>,
}

impl Tally {
    /// An empty tally for this shape.
    pub fn new(strategies: usize, seats: usize, categories: usize, betting_rounds: usize) -> Tally {
        Tally {
            rounds: 0,
            length_sum: 0,
            strategies: vec![Counts::new(betting_rounds); strategies],
            seats: vec![Counts::new(betting_rounds); seats],
            groups: vec![PairedSums::default(); strategies],
            instances: vec![0; strategies],
            pairs: vec![PairedSums::default(); strategies * strategies.saturating_sub(1) / 2],
            finished: vec![vec![0; categories]; strategies],
            winning: vec![vec![0; categories]; strategies],
            shard: None,
        }
    }

    pub(crate) fn add_seat(&mut self, strategy: usize, seat: usize, r: &SeatResult) {
        self.strategies[strategy].add(r);
        self.seats[seat].add(r);
        if let Some(c) = r.finished {
            self.finished[strategy][c as usize] += 1;
            if r.won_showdown {
                self.winning[strategy][c as usize] += 1;
            }
        }
    }

    pub(crate) fn add_group(&mut self, sums: &[i64], instances: &[i64]) {
        self.instances.copy_from_slice(instances);
        let n = sums.len();
        let mut p = 0;
        for a in 0..n {
            self.groups[a].add(sums[a]);
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
        self.strategies.iter_mut().zip(&o.strategies).for_each(|(a, b)| a.merge(b));
        self.seats.iter_mut().zip(&o.seats).for_each(|(a, b)| a.merge(b));
        self.groups.iter_mut().zip(&o.groups).for_each(|(a, b)| a.merge(b));
        self.pairs.iter_mut().zip(&o.pairs).for_each(|(a, b)| a.merge(b));
        if o.instances.iter().any(|&i| i != 0) {
            self.instances.clone_from(&o.instances);
        }
        for (a, b) in self.finished.iter_mut().zip(&o.finished) {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
        for (a, b) in self.winning.iter_mut().zip(&o.winning) {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
    }

    /// Net chips per round of strategy `x`, with a t interval over deal groups (paired).
    pub fn chips_per_round(&self, x: usize) -> stats::Estimate {
        self.groups[x].mean(self.instances[x].max(1) as f64)
    }

    /// Paired difference in chips per round, strategy `a` minus `b` (a < b), with its interval.
    pub fn pair_difference(&self, a: usize, b: usize) -> stats::Estimate {
        let n = self.strategies.len();
        let index = a * n - a * (a + 1) / 2 + (b - a - 1);
        self.pairs[index].mean((self.instances[a] * self.instances[b]).max(1) as f64)
    }

    /// The widest win-rate interval half-width among the strategies.
    pub fn max_win_rate_half_width(&self) -> f64 {
        self.strategies.iter().map(|c| c.win_rate().half_width()).fold(0.0, f64::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_indexed_in_order() {
        let mut t = Tally::new(3, 3, 1, 1);
        t.add_group(&[3, 0, -3], &[1, 1, 1]);
        assert_eq!(t.pair_difference(0, 1).mean, 3.0);
        assert_eq!(t.pair_difference(0, 2).mean, 6.0);
        assert_eq!(t.pair_difference(1, 2).mean, 3.0);
    }

    #[test]
    fn tallies_round_trip_through_json() {
        let mut t = Tally::new(2, 2, 3, 3);
        t.add_group(&[i64::from(i32::MAX), -5], &[2, 2]);
        t.add_group(&[i64::from(i32::MAX), -5], &[2, 2]);
        let back: Tally = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
        assert_eq!(back, t);
        assert!(t.groups[0].sum_sq > u64::MAX as u128 / 4);
    }
}
