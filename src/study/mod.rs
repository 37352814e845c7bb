//! Studies built from many runs: comparing strategies pair by pair, and sweeping rules
//! options over a grid.

pub mod compare;
pub mod equilibrium;
pub mod search;
pub mod sweep;
pub mod tune;

pub use compare::{CompareSpec, Comparison, compare, compare_interruptible};
pub use sweep::{Axis, SweepSpec, VariantResult, sweep, sweep_interruptible, sweep_table};
