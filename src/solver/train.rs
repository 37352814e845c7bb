//! Training a policy over a game's exact tree (or, through [`super::sampled`], over its
//! forward model): the algorithm chosen by name, iterations
//! fixed by their index (so a run is the same for any thread count and resumes exactly),
//! and the state a stopped run keeps.

use serde::{Deserialize, Serialize};

use super::best_response::{exploitability, policy_values};
use super::cfr::{Cfr, ExternalSampling, Tables, Tabular, Variant};
use super::tree::{TabularPolicy, Tree};
use crate::error::InputError;
use crate::sim::mix_seed;

/// Stream tag of the external-sampling iterations' seeds.
const ITERATION_STREAM: u64 = 0xCF2_0001;

/// The training algorithms, by the name `--algorithm` takes.
pub const ALGORITHMS: &[(&str, &str)] = &[
    ("cfr+", "full-width CFR with regret-matching+ and linear averaging (the default: fastest to converge here)"),
    ("dcfr", "full-width discounted CFR (alpha 1.5, beta 0, gamma 2)"),
    ("cfr", "full-width vanilla CFR"),
    ("es-mccfr", "external-sampling Monte Carlo CFR (samples chance and the other seats; for wide games)"),
    (
        "os-mccfr",
        "outcome-sampling Monte Carlo CFR over the forward model: one sampled path per traversal, regrets weighted by its chance (cheapest iterations)",
    ),
    (
        "mccfr-probe",
        "Monte Carlo CFR branching at one sampled decision per traversal, each move followed by one probe (for units of many decisions: Seven Poker games)",
    ),
];

/// A training algorithm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Algorithm {
    /// Full-width CFR with this regret and averaging scheme.
    Full(Variant),
    /// External-sampling Monte Carlo CFR (vanilla regrets).
    ExternalSampling,
    /// Monte Carlo CFR over the forward model branching at one sampled decision per
    /// traversal ([`super::sampled`]).
    Probe,
    /// Outcome-sampling Monte Carlo CFR over the forward model ([`super::sampled`]).
    Outcome,
}

impl std::str::FromStr for Algorithm {
    type Err = InputError;
    fn from_str(s: &str) -> Result<Self, InputError> {
        Ok(match s {
            "cfr+" => Algorithm::Full(Variant::Plus),
            "dcfr" => Algorithm::Full(Variant::dcfr()),
            "cfr" => Algorithm::Full(Variant::Vanilla),
            "es-mccfr" => Algorithm::ExternalSampling,
            "mccfr-probe" => Algorithm::Probe,
            "os-mccfr" => Algorithm::Outcome,
            other => {
                let names: Vec<&str> = ALGORITHMS.iter().map(|a| a.0).collect();
                return Err(InputError::new(format!("--algorithm {other}: use one of {}", names.join(", "))));
            }
        })
    }
}

/// What a training run has done: enough to resume it exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainState {
    /// The game's name.
    pub game: String,
    /// The rules' hash ([`super::policy::rules_hash`]).
    pub rules_hash: String,
    /// The rules trained under (TOML), to say which keys another command changes (empty in
    /// a state saved before it was kept).
    #[serde(default)]
    pub rules: String,
    /// The algorithm's name.
    pub algorithm: String,
    /// The seed of the sampled iterations.
    pub seed: u64,
    /// Iterations done.
    pub iterations: u64,
    /// Seconds spent training so far.
    pub seconds: f64,
    /// A sampled run's information sets, (seat, key), one per row of the tables (empty for
    /// a run over an exact tree, whose rows follow the tree's sets).
    #[serde(default)]
    pub keys: Vec<(usize, u64)>,
    /// Cumulative regrets, one row per information set.
    pub regrets: Vec<Vec<f64>>,
    /// Strategy sums, one row per information set.
    pub sums: Vec<Vec<f64>>,
    /// The measured points so far.
    pub points: Vec<Point>,
    /// A sampled run's field (`train --field`) and its share of the other seats.
    #[serde(default)]
    pub field: Vec<String>,
    #[serde(default)]
    pub field_share: f64,
    /// A sampled run's iterations a batch (`train --batch`).
    #[serde(default = "one")]
    pub batch: u64,
    /// A sampled run's fallback preset, which makes the decisions without a key.
    #[serde(default)]
    pub fallback: Option<String>,
    /// A hash of the field's and the fallback's TOML as they were read (CRC-32, hex), so
    /// that a preset file changed between two runs is not resumed as the same training.
    #[serde(default)]
    pub presets_hash: String,
    /// CRC-32 (hex) of the state's JSON written with this field empty ([`TrainState::seal`]),
    /// so that a state changed by hand is not resumed; empty in a state saved before it was
    /// kept.
    #[serde(default)]
    pub checksum: String,
}

impl TrainState {
    /// The state's JSON with its checksum set.
    pub fn seal(mut self) -> Result<String, serde_json::Error> {
        self.checksum.clear();
        self.checksum = format!("{:08x}", crc32fast::hash(serde_json::to_string(&self)?.as_bytes()));
        serde_json::to_string(&self)
    }

    /// Whether the state is as it was sealed (a state without a checksum is taken as it is).
    pub fn intact(&self) -> bool {
        if self.checksum.is_empty() {
            return true;
        }
        let unsealed = TrainState { checksum: String::new(), ..self.clone() };
        serde_json::to_string(&unsealed)
            .is_ok_and(|t| format!("{:08x}", crc32fast::hash(t.as_bytes())) == self.checksum)
    }
}

fn one() -> u64 {
    1
}

/// One measurement of the average policy during training.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// Iterations done.
    pub iterations: u64,
    /// Seconds of training.
    pub seconds: f64,
    /// Exploitability (NashConv over the players) of the average policy, where the game's
    /// whole tree gives it exactly.
    pub exploitability: Option<f64>,
    /// Seat 0's expected payoff when every seat plays the average policy (exactly, as above).
    pub value_seat0: Option<f64>,
    /// Information sets met so far.
    #[serde(default)]
    pub information_sets: u64,
}

enum Solver {
    Full(Cfr),
    Sampled(ExternalSampling),
}

/// A training run over one tree.
pub struct Trainer {
    solver: Solver,
    seed: u64,
}

impl Trainer {
    /// A new run, or one resumed from `state` (whose tables must fit the tree).
    pub fn new(
        tree: &Tree,
        algorithm: Algorithm,
        seed: u64,
        state: Option<&TrainState>,
    ) -> Result<Trainer, InputError> {
        let (iterations, regrets, sums) = match state {
            Some(s) => {
                let fits = s.regrets.len() == tree.infosets.len()
                    && s.sums.len() == tree.infosets.len()
                    && tree
                        .infosets
                        .iter()
                        .zip(&s.regrets)
                        .zip(&s.sums)
                        .all(|((i, r), m)| r.len() == i.actions && m.len() == i.actions);
                if !fits {
                    return Err(InputError::new(
                        "the saved training state does not fit this game's tree; pass --force to start afresh",
                    ));
                }
                (s.iterations, s.regrets.clone(), s.sums.clone())
            }
            None => {
                let zeros: Vec<Vec<f64>> = tree.infosets.iter().map(|i| vec![0.0; i.actions]).collect();
                (0, zeros.clone(), zeros)
            }
        };
        let solver = match algorithm {
            Algorithm::Full(v) => {
                Solver::Full(Cfr::from_tables(tree, Tables::resume(tree, v, iterations, regrets, sums)))
            }
            Algorithm::ExternalSampling => Solver::Sampled(ExternalSampling::from_tables(
                tree,
                Tables::resume(tree, Variant::Vanilla, iterations, regrets, sums),
            )),
            Algorithm::Probe | Algorithm::Outcome => {
                return Err(InputError::new(
                    "--algorithm mccfr-probe and os-mccfr train over the forward model; over a whole tree use cfr+, dcfr, cfr or es-mccfr",
                ));
            }
        };
        Ok(Trainer { solver, seed })
    }

    /// One iteration (a sampled one drawn from the seed and its index).
    pub fn iterate(&mut self, tree: &Tree) {
        match &mut self.solver {
            Solver::Full(c) => c.iterate(tree),
            Solver::Sampled(e) => {
                let seed = mix_seed(self.seed, e.iterations(), ITERATION_STREAM);
                e.iterate(tree, seed);
            }
        }
    }

    /// Iterations done.
    pub fn iterations(&self) -> u64 {
        match &self.solver {
            Solver::Full(c) => c.iterations(),
            Solver::Sampled(e) => e.iterations(),
        }
    }

    /// The average policy so far.
    pub fn average_policy(&self) -> TabularPolicy {
        match &self.solver {
            Solver::Full(c) => c.average_policy(),
            Solver::Sampled(e) => e.average_policy(),
        }
    }

    /// The average policy measured: its exploitability and seat 0's value.
    pub fn measure(&self, tree: &Tree, seconds: f64) -> Point {
        let p = self.average_policy();
        Point {
            iterations: self.iterations(),
            seconds,
            exploitability: Some(exploitability(tree, &p)),
            value_seat0: Some(policy_values(tree, &p)[0]),
            information_sets: tree.infosets.len() as u64,
        }
    }

    /// The tables to save.
    pub fn tables(&self) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
        let (r, s) = match &self.solver {
            Solver::Full(c) => c.tables(),
            Solver::Sampled(e) => e.tables(),
        };
        (r.to_vec(), s.to_vec())
    }
}

/// Whether the training curve measures a run that went from `before` to `after`
/// iterations in one step: whether one of the counts it measures (1, 2, 5, 10, 20, 50, ...)
/// lies past `before` and up to `after`.
pub fn measured_in(before: u64, after: u64) -> bool {
    let mut step = 1u64;
    while step <= after {
        if [step, 2 * step, 5 * step].iter().any(|&n| n > before && n <= after) {
            return true;
        }
        step = step.saturating_mul(10);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ref_poker::{Def, Kuhn, Leduc, Rules};
    use crate::solver::build::build;

    #[test]
    fn cfr_plus_solves_kuhn_to_its_value_and_leduc_below_a_hundredth() {
        let kuhn = build::<Def<Kuhn>>(&Rules::default()).unwrap();
        let mut t = Trainer::new(&kuhn, "cfr+".parse().unwrap(), 1, None).unwrap();
        for _ in 0..2000 {
            t.iterate(&kuhn);
        }
        let p = t.measure(&kuhn, 0.0);
        assert!((p.value_seat0.unwrap() + 1.0 / 18.0).abs() < 1e-3, "{p:?}");
        assert!(p.exploitability.unwrap() < 1e-3, "{p:?}");
        let leduc = build::<Def<Leduc>>(&Rules::default()).unwrap();
        let mut t = Trainer::new(&leduc, "cfr+".parse().unwrap(), 1, None).unwrap();
        for _ in 0..400 {
            t.iterate(&leduc);
        }
        let p = t.measure(&leduc, 0.0);
        assert!(p.exploitability.unwrap() < 0.01, "{p:?}");
        assert!((p.value_seat0.unwrap() + 0.0856).abs() < 0.005, "{p:?}");
    }

    #[test]
    fn a_resumed_run_equals_an_unbroken_one() {
        let kuhn = build::<Def<Kuhn>>(&Rules::default()).unwrap();
        for algorithm in ["cfr+", "es-mccfr"] {
            let a: Algorithm = algorithm.parse().unwrap();
            let mut whole = Trainer::new(&kuhn, a, 7, None).unwrap();
            for _ in 0..60 {
                whole.iterate(&kuhn);
            }
            let mut first = Trainer::new(&kuhn, a, 7, None).unwrap();
            for _ in 0..25 {
                first.iterate(&kuhn);
            }
            let (regrets, sums) = first.tables();
            let state = TrainState {
                game: "kuhn-poker".into(),
                rules_hash: String::new(),
                rules: String::new(),
                algorithm: algorithm.into(),
                seed: 7,
                iterations: 25,
                seconds: 0.0,
                keys: Vec::new(),
                regrets,
                sums,
                points: Vec::new(),
                field: Vec::new(),
                field_share: 0.0,
                batch: 1,
                fallback: None,
                presets_hash: String::new(),
                checksum: String::new(),
            };
            let mut rest = Trainer::new(&kuhn, a, 7, Some(&state)).unwrap();
            for _ in 25..60 {
                rest.iterate(&kuhn);
            }
            assert_eq!(rest.average_policy(), whole.average_policy(), "{algorithm}");
        }
        assert!("nope".parse::<Algorithm>().unwrap_err().to_string().contains("cfr+"));
        assert!(measured_in(0, 1) && measured_in(49, 50) && measured_in(1999, 2000) && !measured_in(29, 30));
        assert!(measured_in(0, 1) && measured_in(1024, 2048) && measured_in(49, 50) && !measured_in(50, 99));
        assert!(!measured_in(2048, 3072) && measured_in(4096, 5120));
    }
}
