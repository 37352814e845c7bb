//! Studies built from many runs: comparing strategies pair by pair, sweeping rules options
//! over a grid, the search bot's ladder, one-step sensitivity and exploitability by play.

pub mod compare;
pub mod equilibrium;
pub mod exploitability;
pub mod kind;
pub mod ladder;
pub mod optimise;
pub mod sensitivity;
pub mod sweep;
pub mod tune;
pub mod versus;

pub use compare::{CompareSpec, Comparison, PairResult, compare, compare_from_pairs, compare_shard};
pub use sweep::{Axis, SweepSpec, VariantResult, sweep_from_tallies, sweep_shard, sweep_table};

use crate::sim::Shard;

/// The first item of `list` that an earlier one repeats, for "X is named twice" refusals.
pub fn repeated<T: PartialEq>(list: &[T]) -> Option<&T> {
    list.iter().enumerate().find(|(i, x)| list[..*i].contains(x)).map(|(_, x)| x)
}

/// The units (a sweep's variants, a comparison's pairs) that `shard` plays of `units`:
/// every unit i with i mod n equal to the shard's index, as `run` deals out its chunks;
/// all of them without a shard.
pub fn shard_units(units: usize, shard: Option<Shard>) -> Vec<usize> {
    match shard {
        Some(s) => (0..units).filter(|&i| i as u64 % s.count == s.index).collect(),
        None => (0..units).collect(),
    }
}

/// What one shard of a study plays: whole units, or, when the study has fewer units than
/// shards, a share of one unit's chunks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardWork {
    /// The units it plays, ascending.
    pub units: Vec<usize>,
    /// With fewer units than shards: which share of the one unit's chunks (`run`'s
    /// chunk split, among the shards holding that unit).
    pub part: Option<Shard>,
}

/// [`shard_units`] for a study whose units can also be split by chunks: with fewer units
/// than shards, shard i plays unit i mod units, sharing its chunks with the other shards
/// that hold it, so that no shard idles.
pub fn shard_work(units: usize, shard: Option<Shard>) -> ShardWork {
    match shard {
        Some(s) if units > 0 && (units as u64) < s.count => {
            let u = units as u64;
            let unit = s.index % u;
            ShardWork {
                units: vec![unit as usize],
                part: Some(Shard { index: s.index / u, count: (s.count - unit).div_ceil(u) }),
            }
        }
        _ => ShardWork { units: shard_units(units, shard), part: None },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shard_works_and_every_unit_is_covered_once() {
        for units in 1..6 {
            for count in 1..12u64 {
                // (unit, part index, part count) over every shard.
                let mut seen: Vec<(usize, u64, u64)> = Vec::new();
                for index in 0..count {
                    let w = shard_work(units, Some(Shard { index, count }));
                    assert!(!w.units.is_empty() || (units as u64) < count, "{units} {index}/{count}");
                    match w.part {
                        None => seen.extend(w.units.iter().map(|&u| (u, 0, 1))),
                        Some(p) => {
                            assert!(p.index < p.count && count > units as u64);
                            seen.push((w.units[0], p.index, p.count));
                        }
                    }
                }
                seen.sort();
                for unit in 0..units {
                    let parts: Vec<_> = seen.iter().filter(|s| s.0 == unit).collect();
                    let n = parts[0].2;
                    assert_eq!(parts.len() as u64, n, "{units} units, {count} shards: unit {unit}");
                    assert!(parts.iter().enumerate().all(|(i, p)| p.1 == i as u64 && p.2 == n));
                }
            }
        }
    }
}
