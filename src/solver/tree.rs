//! A game's whole tree in memory, for the exact algorithms: full-width CFR, the best
//! response and exploitability. Built from a game's forward model (`build`), so the tree
//! plays the same rules as every other command.

/// What happens at a node.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// Chance picks a child; `probs[i]` is child i's probability (they sum to 1).
    Chance { probs: Vec<f64> },
    /// `seat` decides at its information set `infoset`; child i follows its action i.
    Decision { seat: usize, infoset: u32 },
    /// The unit is over: each seat's payoff (chips won or lost).
    Terminal { payoffs: Vec<f64> },
}

/// One node: what happens there and the nodes below it.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    /// Indices into [`Tree::nodes`]: one per chance outcome or action.
    pub children: Vec<u32>,
}

/// One information set: the decisions a seat cannot tell apart.
#[derive(Clone, Debug, PartialEq)]
pub struct InfoSet {
    /// The seat deciding.
    pub seat: usize,
    /// How many actions it has (every node of the set has this many children).
    pub actions: usize,
    /// The key the forward model gave the seat's observation (a policy file's key).
    pub key: u64,
}

/// A game tree with perfect recall.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tree {
    /// Number of seats.
    pub players: usize,
    /// Every node; the root is node 0.
    pub nodes: Vec<Node>,
    /// Every information set, indexed by `NodeKind::Decision::infoset`.
    pub infosets: Vec<InfoSet>,
}

/// A behaviour policy over a tree: for each information set, the probability of each of
/// its actions.
pub type TabularPolicy = Vec<Vec<f64>>;

impl Tree {
    /// The uniform random policy.
    pub fn uniform(&self) -> TabularPolicy {
        self.infosets.iter().map(|i| vec![1.0 / i.actions as f64; i.actions]).collect()
    }
}
