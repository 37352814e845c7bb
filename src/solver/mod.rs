//! The solver: counterfactual regret minimisation over a game's forward model, exact best
//! responses and exploitability.

pub mod tree;

pub use tree::{InfoSet, Node, NodeKind, TabularPolicy, Tree};
