//! The solver: counterfactual regret minimisation over a game's forward model, exact best
//! responses and exploitability.

pub mod best_response;
pub mod build;
pub mod cfr;
pub mod policy;
pub mod sampled;
pub mod tabulate;
pub mod train;
pub mod tree;

pub use tree::{InfoSet, Node, NodeKind, TabularPolicy, Tree};
