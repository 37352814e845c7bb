//! Exact values of a policy over a [`Tree`]: each seat's expected payoff, a best response
//! to it, and NashConv / exploitability with OpenSpiel's definitions.

use super::tree::{NodeKind, TabularPolicy, Tree};

/// Marks, in [`best_response`]'s action list, an information set of another seat.
pub const NOT_RESPONDER: usize = usize::MAX;

fn check_policy(tree: &Tree, policy: &TabularPolicy) {
    assert_eq!(policy.len(), tree.infosets.len(), "the policy must have one row per information set");
}

/// Each seat's expected payoff when every seat plays `policy` and chance plays its
/// probabilities.
pub fn policy_values(tree: &Tree, policy: &TabularPolicy) -> Vec<f64> {
    check_policy(tree, policy);
    let mut totals = vec![0.0; tree.players];
    if tree.nodes.is_empty() {
        return totals;
    }
    // Forward pass with the path probability: every terminal adds its share once.
    let mut stack = vec![(0u32, 1.0f64)];
    while let Some((n, reach)) = stack.pop() {
        let node = &tree.nodes[n as usize];
        match &node.kind {
            NodeKind::Terminal { payoffs } => {
                for (t, p) in totals.iter_mut().zip(payoffs) {
                    *t += reach * p;
                }
            }
            NodeKind::Chance { probs } => {
                for (&c, &p) in node.children.iter().zip(probs) {
                    if p > 0.0 {
                        stack.push((c, reach * p));
                    }
                }
            }
            NodeKind::Decision { infoset, .. } => {
                for (&c, &p) in node.children.iter().zip(&policy[*infoset as usize]) {
                    if p > 0.0 {
                        stack.push((c, reach * p));
                    }
                }
            }
        }
    }
    totals
}

/// The state of one best-response computation: values are memoised per node and actions
/// per information set, so each node is evaluated once.
struct Responder<'a> {
    tree: &'a Tree,
    policy: &'a TabularPolicy,
    seat: usize,
    /// Reach probability of chance and the other seats (the responder's own actions left out).
    reach: Vec<f64>,
    /// The responder's decision nodes, grouped by information set.
    members: Vec<Vec<u32>>,
    best: Vec<usize>,
    value: Vec<f64>,
    known: Vec<bool>,
}

impl Responder<'_> {
    fn value(&mut self, n: u32) -> f64 {
        let i = n as usize;
        if self.known[i] {
            return self.value[i];
        }
        let tree = self.tree;
        let node = &tree.nodes[i];
        let v = match &node.kind {
            NodeKind::Terminal { payoffs } => payoffs[self.seat],
            NodeKind::Chance { probs } => node.children.iter().zip(probs).map(|(&c, &p)| p * self.value(c)).sum(),
            NodeKind::Decision { seat, infoset } if *seat == self.seat => {
                let a = self.best_action(*infoset as usize);
                self.value(node.children[a])
            }
            NodeKind::Decision { infoset, .. } => {
                let policy = self.policy;
                node.children.iter().zip(&policy[*infoset as usize]).map(|(&c, &p)| p * self.value(c)).sum()
            }
        };
        self.value[i] = v;
        self.known[i] = true;
        v
    }

    /// The action maximising the counterfactual value summed over the set's histories: one
    /// choice for the whole set, since the responder cannot tell its histories apart.
    fn best_action(&mut self, infoset: usize) -> usize {
        if self.best[infoset] != NOT_RESPONDER {
            return self.best[infoset];
        }
        let (mut best_a, mut best_q) = (0, f64::NEG_INFINITY);
        for a in 0..self.tree.infosets[infoset].actions {
            let mut q = 0.0;
            for k in 0..self.members[infoset].len() {
                let h = self.members[infoset][k] as usize;
                let child = self.tree.nodes[h].children[a];
                // Perfect recall: the histories below belong to later sets only, so the
                // recursion never comes back to this one.
                q += self.reach[h] * self.value(child);
            }
            if q > best_q {
                (best_a, best_q) = (a, q);
            }
        }
        self.best[infoset] = best_a;
        best_a
    }
}

/// A best response for `seat` against the other seats playing `policy`: its value to
/// `seat`, and the action it takes at each information set, indexed like
/// [`Tree::infosets`]. Sets of the other seats hold [`NOT_RESPONDER`] (`usize::MAX`). Ties
/// go to the lowest action.
///
/// Computed over information sets, not per history (maximising per history lets the
/// responder see hidden information and overstates the value).
pub fn best_response(tree: &Tree, policy: &TabularPolicy, seat: usize) -> (f64, Vec<usize>) {
    check_policy(tree, policy);
    assert!(seat < tree.players, "seat {seat} out of range for {} players", tree.players);
    let mut best = vec![NOT_RESPONDER; tree.infosets.len()];
    if tree.nodes.is_empty() {
        return (0.0, best);
    }
    let mut reach = vec![0.0; tree.nodes.len()];
    let mut members = vec![Vec::new(); tree.infosets.len()];
    let mut stack = vec![(0u32, 1.0f64)];
    while let Some((n, r)) = stack.pop() {
        reach[n as usize] = r;
        let node = &tree.nodes[n as usize];
        match &node.kind {
            NodeKind::Terminal { .. } => {}
            NodeKind::Chance { probs } => stack.extend(node.children.iter().zip(probs).map(|(&c, &p)| (c, r * p))),
            NodeKind::Decision { seat: s, infoset } if *s == seat => {
                members[*infoset as usize].push(n);
                stack.extend(node.children.iter().map(|&c| (c, r)));
            }
            NodeKind::Decision { infoset, .. } => {
                let probs = &policy[*infoset as usize];
                stack.extend(node.children.iter().zip(probs).map(|(&c, &p)| (c, r * p)));
            }
        }
    }
    let mut responder = Responder {
        tree,
        policy,
        seat,
        reach,
        members,
        best: best.clone(),
        value: vec![0.0; tree.nodes.len()],
        known: vec![false; tree.nodes.len()],
    };
    let value = responder.value(0);
    // Every set reachable from the root is decided by now; fill any unreachable one too.
    for (i, info) in tree.infosets.iter().enumerate() {
        if info.seat == seat {
            best[i] = responder.best_action(i);
        }
    }
    (value, best)
}

/// Sum over seats of (best-response value - the policy's value).
pub fn nash_conv(tree: &Tree, policy: &TabularPolicy) -> f64 {
    let values = policy_values(tree, policy);
    (0..tree.players).map(|s| best_response(tree, policy, s).0 - values[s]).sum()
}

/// NashConv divided by the number of seats (OpenSpiel's exploitability). With three or
/// more seats it measures quality but does not bound the distance to an equilibrium.
pub fn exploitability(tree: &Tree, policy: &TabularPolicy) -> f64 {
    nash_conv(tree, policy) / tree.players as f64
}

/// Kuhn poker built by hand, for the solver's tests.
#[cfg(test)]
pub(crate) mod kuhn {
    use super::super::tree::{InfoSet, Node, NodeKind, Tree};
    use std::collections::HashMap;

    /// The betting sequences of Kuhn poker ('p' pass/check/fold, 'b' bet/call) that end it.
    pub const TERMINALS: [&str; 5] = ["pp", "pbp", "pbb", "bp", "bb"];

    /// Seat 0's payoff at a terminal sequence with cards `c0`, `c1` (0 J, 1 Q, 2 K),
    /// straight from the rules.
    pub fn payoff0(c0: usize, c1: usize, seq: &str) -> f64 {
        let sign = if c0 > c1 { 1.0 } else { -1.0 };
        match seq {
            "pp" => sign,
            "pbp" => -1.0,
            "bp" => 1.0,
            "pbb" | "bb" => 2.0 * sign,
            _ => unreachable!("not terminal: {seq}"),
        }
    }

    struct Builder {
        tree: Tree,
        keys: HashMap<u64, u32>,
    }

    impl Builder {
        fn push(&mut self, kind: NodeKind) -> u32 {
            self.tree.nodes.push(Node { kind, children: Vec::new() });
            (self.tree.nodes.len() - 1) as u32
        }

        /// Key: the card, then the history as digits (1 pass, 2 bet).
        fn infoset(&mut self, seat: usize, card: usize, history: &str) -> u32 {
            let key = history.bytes().fold(card as u64 + 1, |k, b| k * 10 + if b == b'p' { 1 } else { 2 });
            let next = self.tree.infosets.len() as u32;
            *self.keys.entry(key).or_insert_with(|| {
                self.tree.infosets.push(InfoSet { seat, actions: 2, key });
                next
            })
        }

        fn subtree(&mut self, cards: [usize; 2], history: &str) -> u32 {
            if TERMINALS.contains(&history) {
                let p = payoff0(cards[0], cards[1], history);
                return self.push(NodeKind::Terminal { payoffs: vec![p, -p] });
            }
            let seat = history.len() % 2;
            let infoset = self.infoset(seat, cards[seat], history);
            let n = self.push(NodeKind::Decision { seat, infoset });
            for a in ["p", "b"] {
                let c = self.subtree(cards, &format!("{history}{a}"));
                self.tree.nodes[n as usize].children.push(c);
            }
            n
        }
    }

    /// Chance deals one of the six ordered pairs of distinct cards, then the betting.
    pub fn tree() -> Tree {
        let mut b = Builder { tree: Tree { players: 2, ..Tree::default() }, keys: HashMap::new() };
        let root = b.push(NodeKind::Chance { probs: vec![1.0 / 6.0; 6] });
        for c0 in 0..3 {
            for c1 in (0..3).filter(|&c| c != c0) {
                let c = b.subtree([c0, c1], "");
                b.tree.nodes[root as usize].children.push(c);
            }
        }
        b.tree
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The value of the best response taken per history: it sees the hidden cards, so it
    /// is too high. Here only to show the tests can tell the two apart.
    fn cheating_value(tree: &Tree, policy: &TabularPolicy, seat: usize, n: u32) -> f64 {
        let node = &tree.nodes[n as usize];
        match &node.kind {
            NodeKind::Terminal { payoffs } => payoffs[seat],
            NodeKind::Chance { probs } => {
                node.children.iter().zip(probs).map(|(&c, p)| p * cheating_value(tree, policy, seat, c)).sum()
            }
            NodeKind::Decision { seat: s, .. } if *s == seat => {
                node.children.iter().map(|&c| cheating_value(tree, policy, seat, c)).fold(f64::NEG_INFINITY, f64::max)
            }
            NodeKind::Decision { infoset, .. } => node
                .children
                .iter()
                .zip(&policy[*infoset as usize])
                .map(|(&c, p)| p * cheating_value(tree, policy, seat, c))
                .sum(),
        }
    }

    fn random_policy(tree: &Tree, rng: &mut Xoshiro256PlusPlus) -> TabularPolicy {
        tree.infosets
            .iter()
            .map(|i| {
                // Some zeros, so unreached sets are covered too.
                let w: Vec<f64> =
                    (0..i.actions).map(|_| if rng.random::<f64>() < 0.2 { 0.0 } else { rng.random::<f64>() }).collect();
                let s: f64 = w.iter().sum();
                if s > 0.0 { w.iter().map(|x| x / s).collect() } else { vec![1.0 / i.actions as f64; i.actions] }
            })
            .collect()
    }

    #[test]
    fn kuhn_tree_has_the_expected_shape() {
        let tree = kuhn::tree();
        assert_eq!(tree.infosets.len(), 12);
        assert_eq!(tree.infosets.iter().filter(|i| i.seat == 0).count(), 6);
        // Root, 6 deals x (4 decisions + 5 terminals).
        assert_eq!(tree.nodes.len(), 1 + 6 * 9);
    }

    #[test]
    fn uniform_kuhn_values_match_an_enumeration_of_the_rules() {
        let tree = kuhn::tree();
        // Independent of the tree: every deal and terminal sequence, each action 1/2.
        let mut direct = 0.0;
        for c0 in 0..3 {
            for c1 in (0..3).filter(|&c| c != c0) {
                for seq in kuhn::TERMINALS {
                    direct += kuhn::payoff0(c0, c1, seq) / 6.0 * 0.5f64.powi(seq.len() as i32);
                }
            }
        }
        let values = policy_values(&tree, &tree.uniform());
        assert!((values[0] - direct).abs() < 1e-12, "{values:?} vs {direct}");
        assert!((values[0] - 0.125).abs() < 1e-12);
        assert!((values[1] + 0.125).abs() < 1e-12);
    }

    #[test]
    fn uniform_kuhn_exploitability_is_openspiels() {
        let tree = kuhn::tree();
        let e = exploitability(&tree, &tree.uniform());
        assert!((e - 0.458333).abs() < 1e-6, "{e}");
        let (_, actions) = best_response(&tree, &tree.uniform(), 0);
        for (i, info) in tree.infosets.iter().enumerate() {
            assert_eq!(actions[i] == NOT_RESPONDER, info.seat != 0);
        }
    }

    #[test]
    fn best_response_is_never_worse_than_the_policy() {
        let tree = kuhn::tree();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for _ in 0..200 {
            let policy = random_policy(&tree, &mut rng);
            let values = policy_values(&tree, &policy);
            for (seat, &value) in values.iter().enumerate() {
                let (br, actions) = best_response(&tree, &policy, seat);
                assert!(br >= value - 1e-12, "seat {seat}: {br} < {value}");
                // Playing the chosen actions as a pure policy earns the reported value.
                let mut pure = policy.clone();
                for (i, &a) in actions.iter().enumerate().filter(|(_, a)| **a != NOT_RESPONDER) {
                    pure[i].iter_mut().enumerate().for_each(|(j, p)| *p = if j == a { 1.0 } else { 0.0 });
                }
                assert!((policy_values(&tree, &pure)[seat] - br).abs() < 1e-12);
                assert!(br <= cheating_value(&tree, &policy, seat, 0) + 1e-12);
            }
        }
    }

    #[test]
    fn best_response_equals_the_best_pure_strategy() {
        // Brute force: every pure strategy of the responder (2^6 in Kuhn), valued exactly.
        let tree = kuhn::tree();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        for _ in 0..20 {
            let policy = random_policy(&tree, &mut rng);
            for seat in 0..2 {
                let sets: Vec<usize> = (0..tree.infosets.len()).filter(|&i| tree.infosets[i].seat == seat).collect();
                let mut best = f64::NEG_INFINITY;
                for mask in 0..1u32 << sets.len() {
                    let mut pure = policy.clone();
                    for (bit, &i) in sets.iter().enumerate() {
                        let a = (mask >> bit & 1) as usize;
                        pure[i] = (0..2).map(|j| if j == a { 1.0 } else { 0.0 }).collect();
                    }
                    best = best.max(policy_values(&tree, &pure)[seat]);
                }
                let (br, _) = best_response(&tree, &policy, seat);
                assert!((br - best).abs() < 1e-12, "seat {seat}: {br} vs brute force {best}");
            }
        }
    }

    #[test]
    fn per_history_maximising_would_be_caught() {
        let tree = kuhn::tree();
        let uniform = tree.uniform();
        // Against uniform, seat 0's best pure play happens not to depend on the hidden
        // card; seat 1's does (with the queen: bet into a jack, check against a king).
        let (br0, _) = best_response(&tree, &uniform, 0);
        assert!((cheating_value(&tree, &uniform, 0, 0) - br0).abs() < 1e-12);
        let (br1, _) = best_response(&tree, &uniform, 1);
        let cheat1 = cheating_value(&tree, &uniform, 1, 0);
        assert!(cheat1 > br1 + 0.05, "seat 1: cheating {cheat1} vs {br1}");
        // The cheating figure would break the known constant.
        let values = policy_values(&tree, &uniform);
        let cheat_conv: f64 = (0..2).map(|s| cheating_value(&tree, &uniform, s, 0) - values[s]).sum();
        assert!(cheat_conv / 2.0 - 0.458333 > 0.025, "{cheat_conv}");
    }
}
