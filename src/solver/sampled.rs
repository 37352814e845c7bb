//! External-sampling Monte Carlo CFR over a game's forward model, for games whose tree is
//! too large to hold: each iteration deals one unit per seat and walks it, the traversing
//! seat trying every move at its own decisions and every other seat drawing one move from
//! its current strategy. Decisions are told apart by the game's information key (its
//! abstraction); a decision with no key (a draft game's picks) is made by the fallback
//! preset at every seat, in training as in play. Regrets and strategy sums live in a map
//! keyed by (seat, information key), filled as decisions are met.
//!
//! An iteration is fixed by the seed and its index (its deal, the fallback bots' streams and
//! the other seats' draws), so a run is the same on any machine and after any resume.

use std::collections::HashMap;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::cfr::regret_match;
use crate::error::Error;
use crate::games::contest::{GameDef, VariantOf};
use crate::search::{Forward, draw};
use crate::sim::{NoEvents, RoundResult, SeatRngs, mix_seed};

/// Stream tag of a traversal's deal seed.
const DEAL_STREAM: u64 = 0x5A3_0001;
/// Stream tag of a traversal's fallback bots' seed.
const BOT_STREAM: u64 = 0x5A3_0002;
/// Stream tag of a traversal's draws for the other seats.
const DRAW_STREAM: u64 = 0x5A3_0003;

/// One information set's cumulative regrets and strategy sums, a value per legal move.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    pub regrets: Vec<f64>,
    pub sums: Vec<f64>,
}

/// Every information set met so far, in (seat, key) order: (seat, key, regrets, sums).
pub type Tables = Vec<(usize, u64, Vec<f64>, Vec<f64>)>;

/// A sampled training run, whatever the game.
pub trait SampledTrainer {
    /// One iteration: one traversal per seat.
    fn iterate(&mut self) -> Result<(), Error>;
    /// Iterations done.
    fn iterations(&self) -> u64;
    /// Information sets met so far.
    fn sets(&self) -> usize;
    /// The tables to save, in (seat, key) order.
    fn tables(&self) -> Tables;
    /// The average policy: (seat, key, probability of each move), in (seat, key) order,
    /// uniform where nothing accumulated.
    fn average(&self) -> Vec<(usize, u64, Vec<f64>)>;
}

/// External-sampling MCCFR over game `G`'s forward model.
pub struct Sampled<'a, G: GameDef> {
    rules: &'a VariantOf<G>,
    players: usize,
    seed: u64,
    iterations: u64,
    rows: HashMap<(usize, u64), Row>,
    /// The fallback preset's bot, one per seat.
    bots: Vec<<G::State as Forward>::Bot>,
    obs: <G::State as Forward>::Obs,
    root: Box<G::State>,
}

impl<'a, G: GameDef> Sampled<'a, G> {
    /// A run under `rules` whose keyless decisions `bot` makes (a fresh bot per seat),
    /// resumed from `tables` after `iterations` iterations.
    pub fn new(
        rules: &'a VariantOf<G>,
        bot: impl Fn() -> <G::State as Forward>::Bot,
        seed: u64,
        iterations: u64,
        tables: Tables,
    ) -> Self {
        let players = G::players(rules);
        let rows = tables.into_iter().map(|(s, k, regrets, sums)| ((s, k), Row { regrets, sums })).collect();
        Sampled {
            rules,
            players,
            seed,
            iterations,
            rows,
            bots: (0..players).map(|_| bot()).collect(),
            obs: Default::default(),
            root: Box::new(G::State::new(rules)),
        }
    }

    /// The sampled counterfactual value to seat `p` of the unit from `state` on.
    fn traverse(
        &mut self,
        mut state: G::State,
        mut out: RoundResult,
        mut rngs: SeatRngs,
        p: usize,
        draws: &mut Xoshiro256PlusPlus,
    ) -> Result<f64, Error> {
        let rules = self.rules;
        let mut legal = Vec::new();
        loop {
            let Some(s) = state.to_act() else {
                return Ok(out.seats[p].score as f64);
            };
            state.observe(rules, s, &mut self.obs);
            let key = <G::State as Forward>::info_key(rules, &self.obs);
            state.legal(rules, &mut legal);
            let (Some(key), true) = (key, legal.len() > 1) else {
                let m = state.ask(rules, &mut self.bots[s], rngs.seat(s))?;
                state.apply(rules, m, &mut NoEvents, &mut out)?;
                continue;
            };
            let n = legal.len();
            let row = self.rows.entry((s, key)).or_insert_with(|| Row { regrets: vec![0.0; n], sums: vec![0.0; n] });
            if row.regrets.len() != n {
                return Err(Error::Invariant(format!("information key {key:#x} of seat {s} has two menus")));
            }
            let mut strategy = vec![0.0; n];
            regret_match(&row.regrets, &mut strategy);
            if s != p {
                for (sum, x) in row.sums.iter_mut().zip(&strategy) {
                    *sum += x;
                }
                let m = legal[draw(&strategy, draws)];
                state.apply(rules, m, &mut NoEvents, &mut out)?;
                continue;
            }
            let mut values = vec![0.0; n];
            let mut v = 0.0;
            for (a, &m) in legal.iter().enumerate() {
                let (mut child, mut child_out) = (state.clone(), out.clone());
                child.apply(rules, m, &mut NoEvents, &mut child_out)?;
                values[a] = self.traverse(child, child_out, rngs.clone(), p, draws)?;
                v += strategy[a] * values[a];
            }
            let row = self.rows.get_mut(&(s, key)).expect("the row was made above");
            for (r, va) in row.regrets.iter_mut().zip(&values) {
                *r += va - v;
            }
            return Ok(v);
        }
    }
}

impl<G: GameDef> SampledTrainer for Sampled<'_, G> {
    fn iterate(&mut self) -> Result<(), Error> {
        let t = self.iterations;
        for p in 0..self.players {
            let at = t * self.players as u64 + p as u64;
            let mut out = RoundResult::default();
            for bot in &mut self.bots {
                <G::State as Forward>::ready_bot(bot);
            }
            let deal = mix_seed(self.seed, at, DEAL_STREAM);
            self.root.start(self.rules, deal, at, &mut NoEvents, &mut out)?;
            let rngs = SeatRngs::new(mix_seed(self.seed, at, BOT_STREAM), self.players);
            let mut draws = Xoshiro256PlusPlus::seed_from_u64(mix_seed(self.seed, at, DRAW_STREAM));
            let root = (*self.root).clone();
            self.traverse(root, out, rngs, p, &mut draws)?;
        }
        self.iterations += 1;
        Ok(())
    }

    fn iterations(&self) -> u64 {
        self.iterations
    }

    fn sets(&self) -> usize {
        self.rows.len()
    }

    fn tables(&self) -> Tables {
        let mut t: Tables = self.rows.iter().map(|(&(s, k), r)| (s, k, r.regrets.clone(), r.sums.clone())).collect();
        t.sort_by_key(|r| (r.0, r.1));
        t
    }

    fn average(&self) -> Vec<(usize, u64, Vec<f64>)> {
        let mut sets: Vec<(usize, u64, Vec<f64>)> = (self.rows.iter())
            .map(|(&(s, k), r)| {
                let total: f64 = r.sums.iter().sum();
                let p = if total > 0.0 {
                    r.sums.iter().map(|x| x / total).collect()
                } else {
                    vec![1.0 / r.sums.len() as f64; r.sums.len()]
                };
                (s, k, p)
            })
            .collect();
        sets.sort_by_key(|r| (r.0, r.1));
        sets
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ref_poker::{Def, Kuhn, Rules};
    use crate::solver::best_response::exploitability;
    use crate::solver::build::build;
    use crate::solver::policy::{Policy, PolicyHeader};

    fn header() -> PolicyHeader {
        PolicyHeader {
            format: 1,
            game: "kuhn-poker".into(),
            rules: String::new(),
            rules_hash: String::new(),
            abstraction: String::new(),
            algorithm: "es-mccfr".into(),
            iterations: 0,
            exploitability: None,
            players: 2,
            fallback: None,
        }
    }

    /// Kuhn poker played through the forward model (not its tree) reaches an equilibrium,
    /// deterministically, and a resumed run equals an unbroken one.
    #[test]
    fn sampled_training_over_the_forward_model_solves_kuhn() {
        let rules = Rules::<Kuhn>::default();
        let text = crate::games::presets::preset_text(Def::<Kuhn>::PRESETS, "random", "kuhn-poker").unwrap();
        let preset = Def::<Kuhn>::parse_preset(&text).unwrap();
        let bot = || Def::<Kuhn>::bot(&preset, "random");
        let mut a = Sampled::<Def<Kuhn>>::new(&rules, bot, 3, 0, Vec::new());
        for _ in 0..20_000 {
            a.iterate().unwrap();
        }
        assert_eq!(a.sets(), 12);
        let tree = build::<Def<Kuhn>>(&rules).unwrap();
        let policy = Policy::from_sets(header(), a.average());
        let expl = exploitability(&tree, &policy.tabular(&tree));
        assert!(expl < 0.02, "exploitability {expl}");
        let mut first = Sampled::<Def<Kuhn>>::new(&rules, bot, 3, 0, Vec::new());
        for _ in 0..7_000 {
            first.iterate().unwrap();
        }
        let mut rest = Sampled::<Def<Kuhn>>::new(&rules, bot, 3, 7_000, first.tables());
        for _ in 7_000..20_000 {
            rest.iterate().unwrap();
        }
        assert_eq!(rest.tables(), a.tables());
    }
}
