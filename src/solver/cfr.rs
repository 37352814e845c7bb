//! Tabular counterfactual regret minimisation over a [`Tree`]: full-width CFR (vanilla,
//! CFR+, discounted CFR) and external-sampling Monte Carlo CFR.
//!
//! Both keep, per information set, the cumulative regrets and the strategy sums (the
//! average policy's numerators), in [`Tree::infosets`] order, so the tables can be saved
//! with [`Tabular::tables`] and resumed with [`Tables::resume`].

use std::fmt;
use std::str::FromStr;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::tree::{NodeKind, TabularPolicy, Tree};

/// How regrets are kept and the average strategy weighted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Variant {
    /// Regret matching on the plain sums; every iteration weighs the same in the average.
    Vanilla,
    /// CFR+ (Tammelin 2014): regrets clipped at zero after each update (regret-matching+),
    /// iteration t weighs t in the average.
    Plus,
    /// Discounted CFR (Brown and Sandholm 2019): after iteration t, positive regrets are
    /// multiplied by t^alpha / (t^alpha + 1) and negative ones by t^beta / (t^beta + 1);
    /// iteration t weighs t^gamma in the average.
    Discounted { alpha: f64, beta: f64, gamma: f64 },
}

impl Variant {
    /// DCFR with the paper's recommended parameters: alpha 1.5, beta 0, gamma 2.
    pub fn dcfr() -> Self {
        Variant::Discounted { alpha: 1.5, beta: 0.0, gamma: 2.0 }
    }

    /// The weight of iteration `t` (1-based) in the average strategy.
    fn average_weight(self, t: u64) -> f64 {
        match self {
            Variant::Vanilla => 1.0,
            Variant::Plus => t as f64,
            Variant::Discounted { gamma, .. } => (t as f64).powf(gamma),
        }
    }

    /// The factors (positive, negative) regrets are multiplied by after iteration `t`.
    fn discounts(self, t: u64) -> Option<(f64, f64)> {
        match self {
            Variant::Discounted { alpha, beta, .. } => {
                let (a, b) = ((t as f64).powf(alpha), (t as f64).powf(beta));
                Some((a / (a + 1.0), b / (b + 1.0)))
            }
            _ => None,
        }
    }

    fn clips(self) -> bool {
        self == Variant::Plus
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Variant::Vanilla => f.write_str("cfr"),
            Variant::Plus => f.write_str("cfr+"),
            Variant::Discounted { alpha, beta, gamma } => write!(f, "dcfr(alpha {alpha}, beta {beta}, gamma {gamma})"),
        }
    }
}

/// A name [`Variant::from_str`] does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown CFR variant {0:?}: expected one of cfr, cfr+, dcfr")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// "cfr", "cfr+" or "dcfr" (with [`Variant::dcfr`]'s parameters), case-insensitive.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "cfr" => Ok(Variant::Vanilla),
            "cfr+" => Ok(Variant::Plus),
            "dcfr" => Ok(Variant::dcfr()),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

/// Regret matching: probabilities proportional to the positive regrets, uniform when none
/// is positive.
pub(super) fn regret_match(regrets: &[f64], out: &mut [f64]) {
    let total: f64 = regrets.iter().map(|r| r.max(0.0)).sum();
    if total > 0.0 {
        for (o, r) in out.iter_mut().zip(regrets) {
            *o = r.max(0.0) / total;
        }
    } else {
        out.fill(1.0 / out.len() as f64);
    }
}

/// The normalised strategy sums: the average policy, uniform where nothing accumulated.
fn normalise(sums: &[Vec<f64>]) -> TabularPolicy {
    sums.iter()
        .map(|row| {
            let total: f64 = row.iter().sum();
            if total > 0.0 { row.iter().map(|s| s / total).collect() } else { vec![1.0 / row.len() as f64; row.len()] }
        })
        .collect()
}

fn zeros(tree: &Tree) -> Vec<Vec<f64>> {
    tree.infosets.iter().map(|i| vec![0.0; i.actions]).collect()
}

fn by_seat(tree: &Tree) -> Vec<Vec<u32>> {
    let mut seats = vec![Vec::new(); tree.players];
    for (i, info) in tree.infosets.iter().enumerate() {
        seats[info.seat].push(i as u32);
    }
    seats
}

fn check_tables(tree: &Tree, regrets: &[Vec<f64>], sums: &[Vec<f64>]) {
    for table in [regrets, sums] {
        assert_eq!(table.len(), tree.infosets.len(), "the tables must have one row per information set");
        for (row, info) in table.iter().zip(&tree.infosets) {
            assert_eq!(row.len(), info.actions, "a table row must have one entry per action");
        }
    }
}

/// Applies the variant's clipping or discount to one seat's regrets after iteration `t`.
fn finish_regrets(variant: Variant, t: u64, regrets: &mut [Vec<f64>], sets: &[u32]) {
    if let Some((pos, neg)) = variant.discounts(t) {
        for &i in sets {
            for r in &mut regrets[i as usize] {
                *r *= if *r > 0.0 { pos } else { neg };
            }
        }
    }
}

/// What both tabular solvers keep: the scheme, the iterations done, and per information
/// set (in [`Tree::infosets`] order) the cumulative regrets and strategy sums.
#[derive(Clone, Debug)]
pub struct Tables {
    variant: Variant,
    iterations: u64,
    regrets: Vec<Vec<f64>>,
    sums: Vec<Vec<f64>>,
    /// Each seat's information sets.
    by_seat: Vec<Vec<u32>>,
}

impl Tables {
    /// Empty tables for `tree`, before the first iteration.
    pub fn fresh(tree: &Tree, variant: Variant) -> Tables {
        Tables::resume(tree, variant, 0, zeros(tree), zeros(tree))
    }

    /// Saved tables ([`Tabular::tables`]) after `iterations` iterations.
    ///
    /// # Panics
    /// If a table's shape does not match the tree's information sets.
    pub fn resume(
        tree: &Tree,
        variant: Variant,
        iterations: u64,
        regrets: Vec<Vec<f64>>,
        sums: Vec<Vec<f64>>,
    ) -> Tables {
        check_tables(tree, &regrets, &sums);
        Tables { variant, iterations, regrets, sums, by_seat: by_seat(tree) }
    }

    /// Counts the next iteration in and returns its number (from 1) and its weight in the
    /// average strategy, or `None` for a tree with no nodes.
    fn begin(&mut self, tree: &Tree) -> Option<(u64, f64)> {
        assert_eq!(self.regrets.len(), tree.infosets.len(), "not the tree this solver was made for");
        if tree.nodes.is_empty() {
            return None;
        }
        self.iterations += 1;
        Some((self.iterations, self.variant.average_weight(self.iterations)))
    }
}

/// What the tabular solvers share: their tables, and the policies read off them.
pub trait Tabular {
    /// The solver's tables.
    fn state(&self) -> &Tables;

    /// Goes on from `t` ([`Tables::resume`]).
    fn from_tables(tree: &Tree, t: Tables) -> Self
    where
        Self: Sized;

    /// A solver that has not iterated yet.
    fn new(tree: &Tree, variant: Variant) -> Self
    where
        Self: Sized,
    {
        Self::from_tables(tree, Tables::fresh(tree, variant))
    }

    fn variant(&self) -> Variant {
        self.state().variant
    }

    /// Iterations done so far.
    fn iterations(&self) -> u64 {
        self.state().iterations
    }

    /// (cumulative regrets, strategy sums), one row per information set.
    fn tables(&self) -> (&[Vec<f64>], &[Vec<f64>]) {
        (&self.state().regrets, &self.state().sums)
    }

    /// The average policy (what converges to an equilibrium in two-player zero-sum
    /// games), uniform where nothing accumulated.
    fn average_policy(&self) -> TabularPolicy {
        normalise(&self.state().sums)
    }

    /// The strategy the next iteration plays: regret matching on the current regrets.
    fn current_policy(&self) -> TabularPolicy {
        self.state()
            .regrets
            .iter()
            .map(|r| {
                let mut p = vec![0.0; r.len()];
                regret_match(r, &mut p);
                p
            })
            .collect()
    }
}

/// Full-width tabular CFR with alternating updates (as CFR+ prescribes, for every
/// variant): each iteration traverses the tree once per seat in turn, and a seat's regrets
/// and current strategy change right after its own traversal, so later seats answer it.
#[derive(Clone, Debug)]
pub struct Cfr {
    t: Tables,
    /// The current strategy (regret matching on `regrets`).
    current: Vec<Vec<f64>>,
    /// This traversal's counterfactual regrets, folded into `regrets` once it ends, so the
    /// current strategy stays fixed during it.
    delta: Vec<Vec<f64>>,
}

impl Tabular for Cfr {
    fn state(&self) -> &Tables {
        &self.t
    }

    fn from_tables(tree: &Tree, t: Tables) -> Cfr {
        let mut current = zeros(tree);
        for (c, r) in current.iter_mut().zip(&t.regrets) {
            regret_match(r, c);
        }
        Cfr { t, current, delta: zeros(tree) }
    }
}

impl Cfr {
    /// One iteration: a traversal and regret update for each seat in turn.
    pub fn iterate(&mut self, tree: &Tree) {
        let Some((t, weight)) = self.t.begin(tree) else {
            return;
        };
        for seat in 0..tree.players {
            self.traverse(tree, 0, seat, 1.0, 1.0, weight);
            let Cfr { t: Tables { variant, regrets, by_seat, .. }, current, delta } = self;
            for &i in &by_seat[seat] {
                let i = i as usize;
                for (r, d) in regrets[i].iter_mut().zip(&mut delta[i]) {
                    *r += *d;
                    *d = 0.0;
                    if variant.clips() {
                        *r = r.max(0.0);
                    }
                }
            }
            finish_regrets(*variant, t, regrets, &by_seat[seat]);
            for &i in &by_seat[seat] {
                regret_match(&regrets[i as usize], &mut current[i as usize]);
            }
        }
    }

    /// The expected payoff to `seat` below node `n` under the current strategy, adding the
    /// node's counterfactual regrets (weighted by the others' and chance's reach `reach_o`)
    /// and its strategy sums (weighted by the seat's own reach `reach_p`).
    fn traverse(&mut self, tree: &Tree, n: u32, seat: usize, reach_p: f64, reach_o: f64, weight: f64) -> f64 {
        // Nothing below can change a regret or a strategy sum.
        if reach_p == 0.0 && reach_o == 0.0 {
            return 0.0;
        }
        let node = &tree.nodes[n as usize];
        match &node.kind {
            NodeKind::Terminal { payoffs } => payoffs[seat],
            NodeKind::Chance { probs } => {
                let mut v = 0.0;
                for (&c, &p) in node.children.iter().zip(probs) {
                    v += p * self.traverse(tree, c, seat, reach_p, reach_o * p, weight);
                }
                v
            }
            NodeKind::Decision { seat: s, infoset } if *s == seat => {
                let i = *infoset as usize;
                let mut v = 0.0;
                for (a, &c) in node.children.iter().enumerate() {
                    let p = self.current[i][a];
                    let va = self.traverse(tree, c, seat, reach_p * p, reach_o, weight);
                    v += p * va;
                    // Regret of a = reach_o * (va - v): the v part is taken off below, once
                    // v is known, so no per-node buffer is needed.
                    self.delta[i][a] += reach_o * va;
                    self.t.sums[i][a] += weight * reach_p * p;
                }
                for d in &mut self.delta[i] {
                    *d -= reach_o * v;
                }
                v
            }
            NodeKind::Decision { infoset, .. } => {
                let i = *infoset as usize;
                let mut v = 0.0;
                for (a, &c) in node.children.iter().enumerate() {
                    let p = self.current[i][a];
                    v += p * self.traverse(tree, c, seat, reach_p, reach_o * p, weight);
                }
                v
            }
        }
    }
}

/// Picks an index with probability proportional to `probs` (which sum to about 1).
fn sample(probs: impl Iterator<Item = f64>, rng: &mut Xoshiro256PlusPlus) -> usize {
    let u: f64 = rng.random();
    let (mut cum, mut last) = (0.0, 0);
    for (i, p) in probs.enumerate() {
        if p > 0.0 {
            cum += p;
            last = i;
            if u < cum {
                return i;
            }
        }
    }
    // Rounding left u above the total: the last possible outcome.
    last
}

/// External-sampling Monte Carlo CFR (Lanctot et al. 2009). Each iteration traverses the
/// tree once per seat: the traverser tries every action, the other seats and chance are
/// sampled once per node. Regrets change as the traversal goes; the average strategy is
/// accumulated at the other seats' nodes, where sampling by their own strategy already
/// weighs it by their reach.
///
/// With [`Variant::Discounted`] each iteration also rescales the traversing seats' whole
/// regret tables, a cost in the number of information sets: fine for small tables, slow
/// for large abstractions.
#[derive(Clone, Debug)]
pub struct ExternalSampling {
    t: Tables,
    /// A stack of (strategy, action values) for the traverser's nodes on the current path,
    /// sized up front for the deepest path.
    scratch: Vec<f64>,
}

impl Tabular for ExternalSampling {
    fn state(&self) -> &Tables {
        &self.t
    }

    fn from_tables(tree: &Tree, t: Tables) -> ExternalSampling {
        // The most scratch any root-to-leaf path needs: two entries per action of each
        // decision on it.
        let mut deepest = 0;
        if !tree.nodes.is_empty() {
            let mut stack = vec![(0u32, 0usize)];
            while let Some((n, need)) = stack.pop() {
                let node = &tree.nodes[n as usize];
                let need =
                    need + if matches!(node.kind, NodeKind::Decision { .. }) { 2 * node.children.len() } else { 0 };
                deepest = deepest.max(need);
                stack.extend(node.children.iter().map(|&c| (c, need)));
            }
        }
        ExternalSampling { t, scratch: Vec::with_capacity(deepest) }
    }
}

impl ExternalSampling {
    /// One iteration, fixed by `iteration_seed`: one sampled traversal per seat in turn,
    /// all drawing from one generator seeded with it.
    pub fn iterate(&mut self, tree: &Tree, iteration_seed: u64) {
        let Some((t, weight)) = self.t.begin(tree) else {
            return;
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(iteration_seed);
        for seat in 0..tree.players {
            self.traverse(tree, 0, seat, weight, &mut rng);
            let Tables { variant, regrets, by_seat, .. } = &mut self.t;
            finish_regrets(*variant, t, regrets, &by_seat[seat]);
        }
    }

    /// The sampled counterfactual value to `seat` of node `n`.
    fn traverse(&mut self, tree: &Tree, n: u32, seat: usize, weight: f64, rng: &mut Xoshiro256PlusPlus) -> f64 {
        let node = &tree.nodes[n as usize];
        match &node.kind {
            NodeKind::Terminal { payoffs } => payoffs[seat],
            NodeKind::Chance { probs } => {
                let k = sample(probs.iter().copied(), rng);
                self.traverse(tree, node.children[k], seat, weight, rng)
            }
            NodeKind::Decision { seat: s, infoset } if *s == seat => {
                let i = *infoset as usize;
                let actions = node.children.len();
                // The strategy and action values live on the scratch stack until every
                // child has returned: no allocation per node.
                let base = self.scratch.len();
                self.scratch.resize(base + 2 * actions, 0.0);
                regret_match(&self.t.regrets[i], &mut self.scratch[base..base + actions]);
                let mut v = 0.0;
                for (a, &c) in node.children.iter().enumerate() {
                    let va = self.traverse(tree, c, seat, weight, rng);
                    self.scratch[base + actions + a] = va;
                    v += self.scratch[base + a] * va;
                }
                let clip = self.t.variant.clips();
                for (r, va) in self.t.regrets[i].iter_mut().zip(&self.scratch[base + actions..]) {
                    *r += va - v;
                    if clip {
                        *r = r.max(0.0);
                    }
                }
                self.scratch.truncate(base);
                v
            }
            NodeKind::Decision { infoset, .. } => {
                let i = *infoset as usize;
                let regrets = &self.t.regrets[i];
                let total: f64 = regrets.iter().map(|r| r.max(0.0)).sum();
                let uniform = 1.0 / regrets.len() as f64;
                let prob = |r: f64| if total > 0.0 { r.max(0.0) / total } else { uniform };
                for (s, &r) in self.t.sums[i].iter_mut().zip(regrets) {
                    *s += weight * prob(r);
                }
                let k = sample(regrets.iter().map(|&r| prob(r)), rng);
                self.traverse(tree, node.children[k], seat, weight, rng)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::best_response::{exploitability, kuhn, policy_values};
    use super::*;

    const KUHN_VALUE: f64 = -1.0 / 18.0;

    fn run_full(variant: Variant, iterations: u64) -> (f64, f64) {
        let tree = kuhn::tree();
        let mut cfr = Cfr::new(&tree, variant);
        for _ in 0..iterations {
            cfr.iterate(&tree);
        }
        assert_eq!(cfr.iterations(), iterations);
        let avg = cfr.average_policy();
        (policy_values(&tree, &avg)[0], exploitability(&tree, &avg))
    }

    fn assert_solved(name: &str, (value, expl): (f64, f64)) {
        assert!((value - KUHN_VALUE).abs() < 1e-3, "{name}: seat 0 value {value}");
        assert!(expl <= 1e-3, "{name}: exploitability {expl}");
    }

    #[test]
    fn variant_names_parse() {
        assert_eq!("cfr".parse(), Ok(Variant::Vanilla));
        assert_eq!("CFR+".parse(), Ok(Variant::Plus));
        assert_eq!("dcfr".parse(), Ok(Variant::dcfr()));
        let err = "lcfr".parse::<Variant>().unwrap_err().to_string();
        assert!(err.contains("lcfr") && err.contains("cfr+") && err.contains("dcfr"), "{err}");
    }

    #[test]
    fn vanilla_cfr_solves_kuhn() {
        assert_solved("cfr", run_full(Variant::Vanilla, 4000));
    }

    #[test]
    fn cfr_plus_solves_kuhn() {
        assert_solved("cfr+", run_full(Variant::Plus, 2000));
    }

    #[test]
    fn dcfr_solves_kuhn() {
        assert_solved("dcfr", run_full(Variant::dcfr(), 2000));
    }

    #[test]
    fn cfr_plus_regrets_stay_non_negative_and_policies_are_distributions() {
        let tree = kuhn::tree();
        let mut cfr = Cfr::new(&tree, Variant::Plus);
        for _ in 0..50 {
            cfr.iterate(&tree);
        }
        assert!(cfr.tables().0.iter().flatten().all(|&r| r >= 0.0));
        for policy in [cfr.average_policy(), cfr.current_policy()] {
            for row in policy {
                assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12 && row.iter().all(|&p| p >= 0.0));
            }
        }
    }

    #[test]
    fn resuming_from_tables_continues_the_same_run() {
        let tree = kuhn::tree();
        let mut whole = Cfr::new(&tree, Variant::dcfr());
        let mut first = Cfr::new(&tree, Variant::dcfr());
        for _ in 0..30 {
            whole.iterate(&tree);
            first.iterate(&tree);
        }
        let (r, s) = first.tables();
        let mut resumed =
            Cfr::from_tables(&tree, Tables::resume(&tree, Variant::dcfr(), first.iterations(), r.to_vec(), s.to_vec()));
        for _ in 0..30 {
            whole.iterate(&tree);
            resumed.iterate(&tree);
        }
        assert_eq!(whole.average_policy(), resumed.average_policy());

        let mut es = ExternalSampling::new(&tree, Variant::Vanilla);
        let mut es_whole = ExternalSampling::new(&tree, Variant::Vanilla);
        for seed in 0..100 {
            es.iterate(&tree, seed);
            es_whole.iterate(&tree, seed);
        }
        let (r, s) = es.tables();
        let mut es_resumed =
            ExternalSampling::from_tables(&tree, Tables::resume(&tree, Variant::Vanilla, 100, r.to_vec(), s.to_vec()));
        for seed in 100..200 {
            es_whole.iterate(&tree, seed);
            es_resumed.iterate(&tree, seed);
        }
        assert_eq!(es_whole.average_policy(), es_resumed.average_policy());
    }

    fn run_external(variant: Variant, iterations: u64) -> TabularPolicy {
        let tree = kuhn::tree();
        let mut es = ExternalSampling::new(&tree, variant);
        for i in 0..iterations {
            es.iterate(&tree, 0x5EED_0000 + i);
        }
        es.average_policy()
    }

    #[test]
    fn external_sampling_solves_kuhn_deterministically() {
        let tree = kuhn::tree();
        let avg = run_external(Variant::Vanilla, 100_000);
        let expl = exploitability(&tree, &avg);
        assert!(expl < 0.01, "exploitability {expl}");
        let again = run_external(Variant::Vanilla, 100_000);
        let bits = |p: &TabularPolicy| p.iter().flatten().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&avg), bits(&again));
    }

    #[test]
    fn external_sampling_plus_and_dcfr_solve_kuhn() {
        let tree = kuhn::tree();
        for variant in [Variant::Plus, Variant::dcfr()] {
            let expl = exploitability(&tree, &run_external(variant, 100_000));
            assert!(expl < 0.01, "{variant}: exploitability {expl}");
        }
    }
}
