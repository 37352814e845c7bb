//! Studies built from many runs: comparing strategies pair by pair, and sweeping rules
//! options over a grid.

pub mod compare;
pub mod equilibrium;
pub mod ladder;
pub mod search;
pub mod sensitivity;
pub mod sweep;
pub mod tune;

pub use compare::{
    CompareSpec, Comparison, PairResult, compare, compare_from_pairs, compare_interruptible, compare_shard,
};
pub use sweep::{
    Axis, SweepSpec, VariantResult, sweep, sweep_from_tallies, sweep_interruptible, sweep_shard, sweep_table,
};

use crate::sim::Shard;

/// The units (a sweep's variants, a comparison's pairs) that `shard` plays of `units`:
/// every unit i with i mod n equal to the shard's index, as `run` deals out its chunks;
/// all of them without a shard.
pub fn shard_units(units: usize, shard: Option<Shard>) -> Vec<usize> {
    match shard {
        Some(s) => (0..units).filter(|&i| i as u64 % s.count == s.index).collect(),
        None => (0..units).collect(),
    }
}
