//! External-sampling Monte Carlo CFR over a game's forward model, for games whose tree is
//! too large to hold: each iteration deals one unit per seat and walks it, the traversing
//! seat trying every move at its own decisions and every other seat drawing one move from
//! its current strategy. Decisions are told apart by the game's information key (its
//! abstraction); a decision with no key (a draft game's picks) is made by the fallback
//! preset at every seat, in training as in play. Regrets and strategy sums live in a map
//! keyed by (seat, information key), filled as decisions are met.
//!
//! Where a unit holds many of one seat's keyed decisions (a Seven Poker game of many rounds),
//! branching at every one is out of reach: `mccfr-probe` plays the traversal on the current
//! strategies to the end, picks one of the traversing seat's decisions uniformly on the way,
//! and tries every move there, each followed to the end by one probe on the current
//! strategies. The regrets at the picked decision are weighted by the number of decisions it
//! was picked from, so that over traversals each decision counts once.
//!
//! `os-mccfr` (outcome sampling, Lanctot et al. 2009) walks one path per traversal: every
//! seat draws one move, the traversing seat from its strategy mixed with uniform
//! exploration, and each of its decisions on the path gets every move's regret weighted by
//! the chance of the sampled path (importance sampling); its average strategy grows by its
//! own reach over the sample's. Cheapest per iteration, noisiest per sample.
//!
//! `train --field` trains against more than itself: each other seat of a traversal is, with
//! a set chance, one of the field's heuristic strategies, which plays all its decisions and
//! learns nothing; the trained seats then answer a table where those players sit too.
//!
//! An iteration is fixed by the seed and its index (its deal, the fallback bots' streams and
//! the other seats' draws), so a run is the same on any machine and after any resume.
//!
//! `train --batch N` runs N iterations at a time in parallel: every traversal of a batch
//! reads the strategies as the batch began and logs its updates, and the logs are added in
//! iteration order once the batch is done. The policy then depends on N but never on the
//! number of threads; with N = 1 (the default) each traversal sees the last one's updates.
//! The rows are split in shards by key, and each shard adds its rows' updates on a thread
//! of its own: a row still gets its updates in iteration order. Workers and logs are kept
//! from batch to batch, so that a batch of short traversals is not spent making bots and
//! allocating and freeing its logs.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

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
/// Stream tag of which other seats a traversal gives to the field.
const FIELD_STREAM: u64 = 0x5A3_0004;

/// One information set's cumulative regrets and strategy sums, a value per legal move.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    pub regrets: Vec<f64>,
    pub sums: Vec<f64>,
}

/// Every information set met so far, in (seat, key) order: (seat, key, regrets, sums).
pub type Tables = Vec<(usize, u64, Vec<f64>, Vec<f64>)>;

/// How a traversal walks the unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Walk {
    /// External sampling (`es-mccfr`): the traversing seat tries every move at each of its
    /// decisions.
    #[default]
    External,
    /// `mccfr-probe`: it tries every move at one of its decisions, picked uniformly.
    Probe,
    /// Outcome sampling (`os-mccfr`): one path, every seat drawing one move.
    Outcome,
}

/// The most iterations a batch holds: every traversal's updates are kept until the batch
/// ends.
pub const MAX_BATCH: u64 = 1 << 20;

/// Exploration at the traversing seat's decisions in outcome sampling: the share of its
/// draws made uniformly rather than from its strategy (OpenSpiel's default).
const EXPLORATION: f64 = 0.6;

/// How a sampled run trains, beyond its game, seed and fallback.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// How a traversal walks the unit.
    pub walk: Walk,
    /// Strategies (heuristic presets) that may take the other seats' places.
    pub field: Vec<String>,
    /// The chance that each other seat of a traversal is one of `field`, drawn uniformly.
    pub field_share: f64,
    /// Iterations whose traversals read the same strategies and run in parallel (1: each
    /// reads the last one's updates).
    pub batch: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options { walk: Walk::default(), field: Vec::new(), field_share: 0.0, batch: 1 }
    }
}

/// A sampled training run, whatever the game.
pub trait SampledTrainer: Send {
    /// One step: one iteration (one traversal per seat), or a whole batch of them.
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

/// Shards the rows are split in (a power of two): enough to keep every thread of a large
/// machine busy adding a batch's updates.
const SHARDS: usize = 64;

/// The shard of seat `s`'s row at `key`: keys are hashes already, their top bits even.
fn shard_of(s: usize, key: u64) -> usize {
    ((key ^ s as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SHARDS.trailing_zeros())) as usize
}

/// The rows by (seat, information key), in shards by [`shard_of`].
struct Rows {
    shards: Vec<Shard>,
}

type Shard = HashMap<(usize, u64), Row, foldhash::fast::FixedState>;

impl Rows {
    fn get(&self, s: usize, key: u64) -> Option<&Row> {
        self.shards[shard_of(s, key)].get(&(s, key))
    }

    fn len(&self) -> usize {
        self.shards.iter().map(Shard::len).sum()
    }

    fn iter(&self) -> impl Iterator<Item = (&(usize, u64), &Row)> {
        self.shards.iter().flat_map(|shard| shard.iter())
    }

    /// Adds a batch's updates, `logs` in iteration order (each listed by shard): each shard
    /// on a thread, adding its rows' updates in that order, whichever thread takes it.
    fn add_batch(&mut self, logs: &[&Updates]) -> Result<(), Error> {
        (self.shards.par_iter_mut().enumerate())
            .try_for_each(|(j, shard)| logs.iter().try_for_each(|u| u.apply(j, shard)))
    }
}

impl FromIterator<((usize, u64), Row)> for Rows {
    fn from_iter<I: IntoIterator<Item = ((usize, u64), Row)>>(rows: I) -> Self {
        let mut shards: Vec<Shard> = (0..SHARDS).map(|_| Shard::default()).collect();
        for ((s, key), row) in rows {
            shards[shard_of(s, key)].insert((s, key), row);
        }
        Rows { shards }
    }
}

/// Where a traversal reads the current strategies and puts its updates.
trait Store {
    /// Seat `s`'s current strategy at `key`, a set of `n` moves, into `strategy`.
    fn strategy(&mut self, s: usize, key: u64, n: usize, strategy: &mut Vec<f64>) -> Result<(), Error>;
    /// Adds `delta` to the set's cumulative regrets (`sums` false) or strategy sums.
    fn add(&mut self, s: usize, key: u64, sums: bool, delta: &[f64]);
}

fn two_menus(s: usize, key: u64) -> Error {
    Error::Invariant(format!("information key {key:#x} of seat {s} has two menus"))
}

/// Updated in place: each decision reads every update made before it.
impl Store for Rows {
    fn strategy(&mut self, s: usize, key: u64, n: usize, strategy: &mut Vec<f64>) -> Result<(), Error> {
        let row = self.shards[shard_of(s, key)]
            .entry((s, key))
            .or_insert_with(|| Row { regrets: vec![0.0; n], sums: vec![0.0; n] });
        if row.regrets.len() != n {
            return Err(two_menus(s, key));
        }
        strategy.clear();
        strategy.resize(n, 0.0);
        regret_match(&row.regrets, strategy);
        Ok(())
    }

    fn add(&mut self, s: usize, key: u64, sums: bool, delta: &[f64]) {
        let row =
            (self.shards[shard_of(s, key)].get_mut(&(s, key))).expect("the strategy was read first, making the row");
        let to = if sums { &mut row.sums } else { &mut row.regrets };
        for (x, d) in to.iter_mut().zip(delta) {
            *x += d;
        }
    }
}

/// A batched traversal's updates, in the order it made them: (seat, key, sums or regrets,
/// where its values start in `values`, how many).
#[derive(Default)]
struct Updates {
    entries: Vec<(usize, u64, bool, usize, usize)>,
    values: Vec<f64>,
    /// The entries' indices by shard, each shard's in order ([`Updates::by_shard`]).
    order: Vec<u32>,
    /// Where each shard's indices start in `order`, and the end.
    starts: Vec<u32>,
}

impl Updates {
    /// Empties the log for another traversal, keeping its buffers.
    fn clear(&mut self) {
        self.entries.clear();
        self.values.clear();
    }

    /// Lists the entries by shard (a counting sort, stable), once the traversal is done.
    fn by_shard(&mut self) {
        let shard = |&(s, key, ..): &(usize, u64, bool, usize, usize)| shard_of(s, key);
        self.starts.clear();
        self.starts.resize(SHARDS + 1, 0);
        for e in &self.entries {
            self.starts[shard(e) + 1] += 1;
        }
        for j in 0..SHARDS {
            self.starts[j + 1] += self.starts[j];
        }
        let mut at = [0u32; SHARDS];
        at.copy_from_slice(&self.starts[..SHARDS]);
        self.order.clear();
        self.order.resize(self.entries.len(), 0);
        for (i, e) in self.entries.iter().enumerate() {
            let j = shard(e);
            self.order[at[j] as usize] = i as u32;
            at[j] += 1;
        }
    }

    /// Adds this traversal's updates that fall in shard `j` to it, making the rows first met.
    fn apply(&self, j: usize, rows: &mut Shard) -> Result<(), Error> {
        for &i in &self.order[self.starts[j] as usize..self.starts[j + 1] as usize] {
            let (s, key, sums, start, n) = self.entries[i as usize];
            let row = rows.entry((s, key)).or_insert_with(|| Row { regrets: vec![0.0; n], sums: vec![0.0; n] });
            if row.regrets.len() != n {
                return Err(two_menus(s, key));
            }
            let to = if sums { &mut row.sums } else { &mut row.regrets };
            for (x, d) in to.iter_mut().zip(&self.values[start..start + n]) {
                *x += d;
            }
        }
        Ok(())
    }
}

/// A batched traversal's store: the strategies as the batch began, and its own updates.
struct Logged<'r> {
    frozen: &'r Rows,
    updates: &'r mut Updates,
}

impl Store for Logged<'_> {
    fn strategy(&mut self, s: usize, key: u64, n: usize, strategy: &mut Vec<f64>) -> Result<(), Error> {
        strategy.clear();
        strategy.resize(n, 0.0);
        match self.frozen.get(s, key) {
            Some(row) if row.regrets.len() != n => return Err(two_menus(s, key)),
            Some(row) => regret_match(&row.regrets, strategy),
            // A set no earlier batch met: zero regrets, so uniform.
            None => strategy.fill(1.0 / n as f64),
        }
        Ok(())
    }

    fn add(&mut self, s: usize, key: u64, sums: bool, delta: &[f64]) {
        let u = &mut *self.updates;
        u.entries.push((s, key, sums, u.values.len(), delta.len()));
        u.values.extend_from_slice(delta);
    }
}

/// What a sampled run is: the game, its rules and how it trains, and how to make the bots
/// of one worker.
struct Spec<'a, G: GameDef> {
    rules: &'a VariantOf<G>,
    players: usize,
    walk: Walk,
    seed: u64,
    field_share: f64,
    /// The fallback preset's bot.
    bot: Box<dyn Fn() -> <G::State as Forward>::Bot + Send + Sync + 'a>,
    /// The field's bots, one per strategy.
    field: Box<dyn Fn() -> Vec<<G::State as Forward>::Bot> + Send + Sync + 'a>,
}

impl<'a, G: GameDef> Spec<'a, G> {
    fn worker(&self) -> Worker<'a, G> {
        let players = self.players;
        Worker {
            rules: self.rules,
            players,
            walk: self.walk,
            seed: self.seed,
            field_share: self.field_share,
            bots: (0..players).map(|_| (self.bot)()).collect(),
            field: (0..players).map(|_| (self.field)()).collect(),
            seated: vec![None; players],
            obs: Default::default(),
            root: Box::new(G::State::new(self.rules)),
            spare: Vec::new(),
            blank: Box::default(),
        }
    }
}

/// Monte Carlo CFR over game `G`'s forward model.
pub struct Sampled<'a, G: GameDef> {
    spec: Spec<'a, G>,
    batch: u64,
    iterations: u64,
    rows: Rows,
    /// The worker of unbatched iterations.
    worker: Worker<'a, G>,
    /// The batches' workers and logs, kept from batch to batch so that a batch neither
    /// makes bots nor allocates and frees its logs.
    pool: Mutex<Vec<Worker<'a, G>>>,
    logs: Vec<Updates>,
}

/// A worker taken from the pool for a run of a batch's iterations, put back when done.
struct Lent<'p, 'a, G: GameDef> {
    worker: Option<Worker<'a, G>>,
    pool: &'p Mutex<Vec<Worker<'a, G>>>,
}

impl<G: GameDef> Drop for Lent<'_, '_, G> {
    fn drop(&mut self) {
        if let Some(worker) = self.worker.take() {
            self.pool.lock().unwrap_or_else(PoisonError::into_inner).push(worker);
        }
    }
}

/// What plays traversals: a bot per seat and the buffers of one unit.
struct Worker<'a, G: GameDef> {
    rules: &'a VariantOf<G>,
    players: usize,
    walk: Walk,
    seed: u64,
    field_share: f64,
    /// The fallback preset's bot, one per seat.
    bots: Vec<<G::State as Forward>::Bot>,
    /// The field's bots, one list per seat.
    field: Vec<Vec<<G::State as Forward>::Bot>>,
    /// This traversal's field bot at each seat (by index into its list), none for the
    /// trained strategy.
    seated: Vec<Option<usize>>,
    obs: <G::State as Forward>::Obs,
    root: Box<G::State>,
    /// Results to copy into at a branch, one per level the traversals have reached; boxed,
    /// since moving a result in or out of the list is copying it.
    #[allow(clippy::vec_box)]
    spare: Vec<Box<RoundResult>>,
    /// A result as a unit starts, copied into a spare for each traversal.
    blank: Box<RoundResult>,
}

impl<'a, G: GameDef> Sampled<'a, G> {
    /// A run under `rules` whose keyless decisions `bot` makes (a fresh bot per seat),
    /// resumed from `tables` after `iterations` iterations, walking and batching as
    /// `options` say; `field` makes a fresh bot of each of the field's strategies, which
    /// take each other seat's place with chance `options.field_share`.
    pub fn new(
        rules: &'a VariantOf<G>,
        bot: impl Fn() -> <G::State as Forward>::Bot + Send + Sync + 'a,
        field: impl Fn() -> Vec<<G::State as Forward>::Bot> + Send + Sync + 'a,
        seed: u64,
        (iterations, tables): (u64, Tables),
        options: &Options,
    ) -> Self {
        let spec = Spec {
            rules,
            players: G::players(rules),
            walk: options.walk,
            seed,
            field_share: options.field_share,
            bot: Box::new(bot),
            field: Box::new(field),
        };
        let rows = tables.into_iter().map(|(s, k, regrets, sums)| ((s, k), Row { regrets, sums })).collect();
        Sampled {
            worker: spec.worker(),
            spec,
            batch: options.batch.max(1),
            iterations,
            rows,
            pool: Mutex::default(),
            logs: Vec::new(),
        }
    }
}

impl<G: GameDef> Worker<'_, G> {
    /// Plays the unit on from `state` to the next keyed decision with a choice, the field's
    /// seats and the keyless decisions made by their bots, and returns its seat and key,
    /// with its moves in `legal` and its current strategy in `strategy`; `None` at the
    /// unit's end.
    fn next_decision(
        &mut self,
        store: &mut impl Store,
        state: &mut G::State,
        out: &mut RoundResult,
        rngs: &mut SeatRngs,
        legal: &mut Vec<<G::State as Forward>::Move>,
        strategy: &mut Vec<f64>,
    ) -> Result<Option<(usize, u64)>, Error> {
        let rules = self.rules;
        loop {
            let Some(s) = state.to_act() else {
                return Ok(None);
            };
            if let Some(i) = self.seated[s] {
                let m = state.ask(rules, &mut self.field[s][i], rngs.seat(s))?;
                state.apply(rules, m, &mut NoEvents, out)?;
                continue;
            }
            state.observe(rules, s, &mut self.obs);
            // Keyless decisions go to the fallback unlisted (a Seven Poker exchange lists
            // hundreds of moves).
            let key = <G::State as Forward>::info_key(rules, &self.obs);
            if key.is_some() {
                state.legal(rules, legal);
            }
            let (Some(key), true) = (key, legal.len() > 1) else {
                let m = state.ask(rules, &mut self.bots[s], rngs.seat(s))?;
                state.apply(rules, m, &mut NoEvents, out)?;
                continue;
            };
            store.strategy(s, key, legal.len(), strategy)?;
            return Ok(Some((s, key)));
        }
    }

    /// The sampled counterfactual value to seat `p` of the unit from `state` on.
    fn traverse(
        &mut self,
        store: &mut impl Store,
        mut state: G::State,
        out: &mut RoundResult,
        mut rngs: SeatRngs,
        p: usize,
        draws: &mut Xoshiro256PlusPlus,
    ) -> Result<f64, Error> {
        let rules = self.rules;
        let (mut legal, mut strategy) = (Vec::new(), Vec::new());
        loop {
            let Some((s, key)) = self.next_decision(store, &mut state, out, &mut rngs, &mut legal, &mut strategy)?
            else {
                return Ok(G::training_value(rules, &state, out, p));
            };
            if s != p {
                store.add(s, key, true, &strategy);
                let m = legal[draw(&strategy, draws)];
                state.apply(rules, m, &mut NoEvents, out)?;
                continue;
            }
            let mut values = vec![0.0; legal.len()];
            let mut v = 0.0;
            for (a, &m) in legal.iter().enumerate() {
                // A result from the spares, not a clone: a result is large, and copying
                // only the seats in play spares most of it.
                let mut child_out = self.spare.pop().unwrap_or_default();
                child_out.copy_from(out, self.players);
                let mut child = state.clone();
                child.apply(rules, m, &mut NoEvents, &mut child_out)?;
                values[a] = self.traverse(store, child, &mut child_out, rngs.clone(), p, draws)?;
                self.spare.push(child_out);
                v += strategy[a] * values[a];
            }
            // Each move's regret: its value less the strategy's.
            for va in &mut values {
                *va -= v;
            }
            store.add(s, key, false, &values);
            return Ok(v);
        }
    }

    /// Plays the unit from `state` to its end on the current strategies and returns seat
    /// `p`'s value. With `pick`, it also adds the other seats' strategies to their sums and
    /// keeps one of `p`'s keyed decisions, uniformly, with the number it was picked from.
    fn walk(
        &mut self,
        store: &mut impl Store,
        (mut state, mut out, mut rngs): (G::State, RoundResult, SeatRngs),
        p: usize,
        draws: &mut Xoshiro256PlusPlus,
        mut pick: Option<&mut Option<Picked<G>>>,
    ) -> Result<f64, Error> {
        let rules = self.rules;
        let mut legal = Vec::new();
        let mut strategy = Vec::new();
        let mut seen = 0u64;
        loop {
            let Some((s, key)) =
                self.next_decision(store, &mut state, &mut out, &mut rngs, &mut legal, &mut strategy)?
            else {
                return Ok(G::training_value(rules, &state, &out, p));
            };
            if let Some(picked) = pick.as_deref_mut() {
                if s != p {
                    store.add(s, key, true, &strategy);
                } else {
                    // Reservoir sampling: each of p's decisions is kept with equal chance.
                    seen += 1;
                    if draws.random_range(0..seen) == 0 {
                        *picked =
                            Some(Picked { state: state.clone(), out: out.clone(), rngs: rngs.clone(), key, of: 0 });
                    }
                    if let Some(k) = picked.as_mut() {
                        k.of = seen;
                    }
                }
            }
            let m = legal[draw(&strategy, draws)];
            state.apply(rules, m, &mut NoEvents, &mut out)?;
        }
    }

    /// One `mccfr-probe` traversal for seat `p` from the unit's start.
    fn probe_traverse(
        &mut self,
        store: &mut impl Store,
        root: G::State,
        out: RoundResult,
        rngs: SeatRngs,
        p: usize,
        draws: &mut Xoshiro256PlusPlus,
    ) -> Result<(), Error> {
        let mut picked = None;
        self.walk(store, (root, out, rngs), p, draws, Some(&mut picked))?;
        let Some(Picked { state, out, rngs, key, of }) = picked else {
            return Ok(());
        };
        let rules = self.rules;
        let mut legal = Vec::new();
        state.legal(rules, &mut legal);
        let mut strategy = Vec::new();
        store.strategy(p, key, legal.len(), &mut strategy)?;
        // Every move's probe draws the same numbers, so the moves are compared on one future.
        let from = draws.clone();
        let mut values = vec![0.0; legal.len()];
        let mut v = 0.0;
        for (a, &m) in legal.iter().enumerate() {
            let (mut child, mut child_out) = (state.clone(), out.clone());
            child.apply(rules, m, &mut NoEvents, &mut child_out)?;
            let mut d = from.clone();
            values[a] = self.walk(store, (child, child_out, rngs.clone()), p, &mut d, None)?;
            v += strategy[a] * values[a];
        }
        let weight = of as f64;
        for va in &mut values {
            *va = weight * (*va - v);
        }
        store.add(p, key, false, &values);
        Ok(())
    }

    /// One outcome-sampling traversal for seat `p` from the unit's start: one path, each
    /// seat drawing its move from its current strategy (`p` mixing in uniform exploration).
    /// Each of `p`'s decisions on the path then gets every move's sampled counterfactual
    /// regret (the drawn move's value over its chance of being drawn, the others' 0, times
    /// the other seats' reach over the path's chance), and its average strategy grows by
    /// `p`'s own reach over the path's chance.
    fn outcome_traverse(
        &mut self,
        store: &mut impl Store,
        mut state: G::State,
        mut out: RoundResult,
        mut rngs: SeatRngs,
        p: usize,
        draws: &mut Xoshiro256PlusPlus,
    ) -> Result<(), Error> {
        let rules = self.rules;
        let (mut legal, mut strategy, mut sample) = (Vec::new(), Vec::new(), Vec::new());
        let mut path: Vec<Visited> = Vec::new();
        // Seat p's reach, the other seats' and the sampled path's, chance left out of all
        // three (it cancels in their ratios).
        let (mut mine, mut others, mut reach) = (1.0, 1.0, 1.0);
        while let Some((s, key)) =
            self.next_decision(store, &mut state, &mut out, &mut rngs, &mut legal, &mut strategy)?
        {
            sample.clear();
            if s == p {
                let uniform = EXPLORATION / legal.len() as f64;
                sample.extend(strategy.iter().map(|x| uniform + (1.0 - EXPLORATION) * x));
            } else {
                sample.extend_from_slice(&strategy);
            }
            let a = draw(&sample, draws);
            if s == p {
                path.push(Visited {
                    key,
                    strategy: strategy.clone(),
                    drawn: a,
                    chance: sample[a],
                    mine,
                    others,
                    reach,
                });
                mine *= strategy[a];
            } else {
                others *= strategy[a];
            }
            reach *= sample[a];
            state.apply(rules, legal[a], &mut NoEvents, &mut out)?;
        }
        // The path's value to p, carried up: at another seat's decision the sample is its
        // strategy, so the estimate passes unchanged; at p's it is reweighted.
        let mut value = G::training_value(rules, &state, &out, p);
        let (mut regrets, mut sums) = (Vec::new(), Vec::new());
        for v in path.iter().rev() {
            let drawn = value / v.chance;
            let estimate = v.strategy[v.drawn] * drawn;
            let (weight, average) = (v.others / v.reach, v.mine / v.reach);
            regrets.clear();
            regrets.extend((0..v.strategy.len()).map(|b| {
                let child = if b == v.drawn { drawn } else { 0.0 };
                weight * (child - estimate)
            }));
            sums.clear();
            sums.extend(v.strategy.iter().map(|x| average * x));
            store.add(p, v.key, false, &regrets);
            store.add(p, v.key, true, &sums);
            value = estimate;
        }
        Ok(())
    }

    /// Iteration `t`: one traversal per seat, each from its own deal.
    fn iteration(&mut self, store: &mut impl Store, t: u64) -> Result<(), Error> {
        for p in 0..self.players {
            let at = t * self.players as u64 + p as u64;
            // A fresh result in a reused buffer rather than a new one each traversal.
            let mut out = self.spare.pop().unwrap_or_default();
            out.copy_from(&self.blank, self.players);
            // A stream of its own, so that a run without a field draws as before.
            if self.field_share > 0.0 {
                let mut fielding = Xoshiro256PlusPlus::seed_from_u64(mix_seed(self.seed, at, FIELD_STREAM));
                for (s, seat) in self.seated.iter_mut().enumerate() {
                    let n = self.field[s].len();
                    *seat = (s != p && n > 0 && fielding.random::<f64>() < self.field_share)
                        .then(|| fielding.random_range(0..n));
                }
            }
            let deal = mix_seed(self.seed, at, DEAL_STREAM);
            self.root.start(self.rules, deal, at, &mut NoEvents, &mut out)?;
            let rngs = SeatRngs::new(mix_seed(self.seed, at, BOT_STREAM), self.players);
            let mut draws = Xoshiro256PlusPlus::seed_from_u64(mix_seed(self.seed, at, DRAW_STREAM));
            let root = (*self.root).clone();
            match self.walk {
                Walk::External => {
                    self.traverse(store, root, &mut out, rngs, p, &mut draws)?;
                }
                Walk::Probe => self.probe_traverse(store, root, (*out).clone(), rngs, p, &mut draws)?,
                Walk::Outcome => self.outcome_traverse(store, root, (*out).clone(), rngs, p, &mut draws)?,
            }
            self.spare.push(out);
        }
        Ok(())
    }
}

/// One of the traversing seat's decisions on an outcome-sampling path.
struct Visited {
    key: u64,
    /// Its current strategy there.
    strategy: Vec<f64>,
    /// The move drawn, and its chance of being drawn.
    drawn: usize,
    chance: f64,
    /// The seat's own reach, the other seats' and the path's chance, before it.
    mine: f64,
    others: f64,
    reach: f64,
}

/// The decision a `mccfr-probe` traversal branches at: the state before it, its key, and
/// how many of the seat's decisions it was picked from.
struct Picked<G: GameDef> {
    state: G::State,
    out: RoundResult,
    rngs: SeatRngs,
    key: u64,
    of: u64,
}

impl<G: GameDef> SampledTrainer for Sampled<'_, G> {
    fn iterate(&mut self) -> Result<(), Error> {
        let t = self.iterations;
        if self.batch == 1 {
            self.worker.iteration(&mut self.rows, t)?;
            self.iterations += 1;
            return Ok(());
        }
        // Which worker plays which iteration depends on the threads; what each iteration
        // logs does not (its bots' streams are its own), and the logs are added in order.
        let batch = self.batch as usize;
        if self.logs.len() < batch {
            self.logs.resize_with(batch, Updates::default);
        }
        let (spec, pool, frozen) = (&self.spec, &self.pool, &self.rows);
        let take = || {
            let kept = pool.lock().unwrap_or_else(PoisonError::into_inner).pop();
            Lent { worker: Some(kept.unwrap_or_else(|| spec.worker())), pool }
        };
        (self.logs[..batch].par_iter_mut().enumerate()).try_for_each_init(take, |lent, (i, updates)| {
            let worker = lent.worker.as_mut().expect("a lent worker is held until it is put back");
            updates.clear();
            worker.iteration(&mut Logged { frozen, updates: &mut *updates }, t + i as u64)?;
            updates.by_shard();
            Ok::<(), Error>(())
        })?;
        let logs: Vec<&Updates> = self.logs[..batch].iter().collect();
        self.rows.add_batch(&logs)?;
        self.iterations += self.batch;
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

    /// A batch's updates added shard by shard on every thread give each row the sums that
    /// adding every traversal's updates in order gives, bit for bit, with values mixed in
    /// size so that adding them in another order would change the sums.
    #[test]
    fn a_batch_added_by_shard_equals_its_updates_added_in_order() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut logs = Vec::new();
        for _ in 0..40 {
            let mut u = Updates::default();
            for _ in 0..300 {
                let (s, k) = (rng.random_range(0..3usize), rng.random_range(0..50u64));
                let key = k.wrapping_mul(0xD6E8_FEB8_6659_FD93);
                let n = 2 + (k % 3) as usize;
                let size = if rng.random::<bool>() { 1e16 } else { 1.0 };
                u.entries.push((s, key, rng.random::<bool>(), u.values.len(), n));
                u.values.extend((0..n).map(|_| size * (rng.random::<f64>() - 0.5)));
            }
            u.by_shard();
            logs.push(u);
        }
        let mut in_order: HashMap<(usize, u64), Row> = HashMap::new();
        for u in &logs {
            for &(s, key, sums, start, n) in &u.entries {
                let row = in_order.entry((s, key)).or_insert_with(|| Row { regrets: vec![0.0; n], sums: vec![0.0; n] });
                let to = if sums { &mut row.sums } else { &mut row.regrets };
                for (x, d) in to.iter_mut().zip(&u.values[start..start + n]) {
                    *x += d;
                }
            }
        }
        let mut rows: Rows = std::iter::empty().collect();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        pool.install(|| rows.add_batch(&logs.iter().collect::<Vec<_>>())).unwrap();
        assert_eq!(rows.len(), in_order.len());
        assert!(rows.shards.iter().filter(|shard| !shard.is_empty()).count() > 16, "the rows spread over the shards");
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        for (&(s, key), want) in &in_order {
            let got = rows.get(s, key).expect("every row met is made");
            assert_eq!(bits(&got.regrets), bits(&want.regrets), "regrets of ({s}, {key:#x})");
            assert_eq!(bits(&got.sums), bits(&want.sums), "sums of ({s}, {key:#x})");
        }
    }
    /// A log kept from an earlier traversal, cleared and refilled, lists its entries by
    /// shard exactly as a fresh log of the same entries does.
    #[test]
    fn a_reused_log_lists_its_entries_as_a_fresh_one() {
        let fill = |u: &mut Updates, seed: u64, n: usize| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            for _ in 0..n {
                let key = rng.random::<u64>();
                u.entries.push((rng.random_range(0..4usize), key, rng.random::<bool>(), u.values.len(), 2));
                u.values.extend([rng.random::<f64>(), rng.random::<f64>()]);
            }
            u.by_shard();
        };
        let mut kept = Updates::default();
        fill(&mut kept, 1, 500);
        kept.clear();
        fill(&mut kept, 2, 120);
        let mut fresh = Updates::default();
        fill(&mut fresh, 2, 120);
        assert_eq!(kept.entries, fresh.entries);
        assert_eq!(kept.values, fresh.values);
        assert_eq!(kept.starts, fresh.starts);
        assert_eq!(kept.order, fresh.order);
    }

    use crate::solver::best_response::exploitability;
    use crate::solver::build::build;
    use crate::solver::policy::{Policy, PolicyHeader};

    /// A Kuhn poker run walking as `walk` from `seed`, resumed at `from` iterations with
    /// `tables`, trained to `to` iterations.
    fn kuhn<'a>(rules: &'a Rules<Kuhn>, walk: Walk, seed: u64, from: (u64, Tables), to: u64) -> Sampled<'a, Def<Kuhn>> {
        kuhn_with(rules, &Options { walk, ..Options::default() }, seed, from, to)
    }

    /// The same, trained as `options` say.
    fn kuhn_with<'a>(
        rules: &'a Rules<Kuhn>,
        options: &Options,
        seed: u64,
        (from, tables): (u64, Tables),
        to: u64,
    ) -> Sampled<'a, Def<Kuhn>> {
        let text = crate::games::presets::preset_text(Def::<Kuhn>::PRESETS, "random", "kuhn-poker").unwrap();
        let preset = Def::<Kuhn>::parse_preset(&text).unwrap();
        let bot = move || Def::<Kuhn>::bot(&preset, "random");
        let mut run = Sampled::<Def<Kuhn>>::new(rules, bot, Vec::new, seed, (from, tables), options);
        while run.iterations() < to {
            run.iterate().unwrap();
        }
        run
    }

    /// The average policy's exploitability and seat 0's value over Kuhn poker's tree.
    fn measured(rules: &Rules<Kuhn>, run: &Sampled<'_, Def<Kuhn>>) -> (f64, f64) {
        let tree = build::<Def<Kuhn>>(rules).unwrap();
        let policy = Policy::from_sets(PolicyHeader::default(), run.average()).tabular(&tree);
        (exploitability(&tree, &policy), crate::solver::best_response::policy_values(&tree, &policy)[0])
    }

    /// Kuhn poker played through the forward model (not its tree) reaches an equilibrium,
    /// deterministically, and a resumed run equals an unbroken one.
    #[test]
    fn sampled_training_over_the_forward_model_solves_kuhn() {
        let rules = Rules::<Kuhn>::default();
        let whole = kuhn(&rules, Walk::External, 3, (0, Vec::new()), 20_000);
        assert_eq!(whole.sets(), 12);
        let (expl, _) = measured(&rules, &whole);
        assert!(expl < 0.02, "exploitability {expl}");
        let first = kuhn(&rules, Walk::External, 3, (0, Vec::new()), 7_000);
        let rest = kuhn(&rules, Walk::External, 3, (7_000, first.tables()), 20_000);
        assert_eq!(rest.tables(), whole.tables());
    }

    /// Outcome sampling (`os-mccfr`) approaches Kuhn poker's equilibrium and its value
    /// (-1/18 to the first player), and a resumed run equals an unbroken one.
    #[test]
    fn outcome_sampling_nears_kuhns_equilibrium() {
        let rules = Rules::<Kuhn>::default();
        let (early, _) = measured(&rules, &kuhn(&rules, Walk::Outcome, 5, (0, Vec::new()), 100));
        let (late, value) = measured(&rules, &kuhn(&rules, Walk::Outcome, 5, (0, Vec::new()), 200_000));
        assert!(late < 0.01 && late < early / 5.0, "exploitability {early} then {late}");
        assert!((value + 1.0 / 18.0).abs() < 0.01, "value {value}");
        let first = kuhn(&rules, Walk::Outcome, 5, (0, Vec::new()), 300);
        let rest = kuhn(&rules, Walk::Outcome, 5, (300, first.tables()), 1_000);
        assert_eq!(rest.tables(), kuhn(&rules, Walk::Outcome, 5, (0, Vec::new()), 1_000).tables());
    }

    /// Branching at one sampled decision per traversal (`mccfr-probe`) also approaches
    /// Kuhn poker's equilibrium.
    #[test]
    fn probe_training_nears_kuhns_equilibrium() {
        let rules = Rules::<Kuhn>::default();
        let (early, _) = measured(&rules, &kuhn(&rules, Walk::Probe, 3, (0, Vec::new()), 1_000));
        let (late, _) = measured(&rules, &kuhn(&rules, Walk::Probe, 3, (0, Vec::new()), 40_000));
        let at = [early, late];
        eprintln!("probe exploitability {at:?}");
        assert!(at[1] < 0.03 && at[1] < at[0] / 2.0, "exploitability {at:?}");
    }

    /// Batched iterations read one strategy a batch and run in parallel: the tables are the
    /// same on one thread and on two, a run resumed at a batch's end equals an unbroken one,
    /// batches change the run, and it still nears Kuhn poker's equilibrium.
    #[test]
    fn batched_training_is_the_same_on_any_threads_and_nears_kuhns_equilibrium() {
        let rules = Rules::<Kuhn>::default();
        let on = |threads: usize, walk: Walk, from: (u64, Tables), to: u64| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let options = Options { walk, batch: 64, ..Options::default() };
            pool.install(|| kuhn_with(&rules, &options, 3, from, to))
        };
        for walk in [Walk::External, Walk::Outcome, Walk::Probe] {
            let one = on(1, walk, (0, Vec::new()), 6_400);
            assert_eq!(one.iterations(), 6_400);
            assert_eq!(one.tables(), on(2, walk, (0, Vec::new()), 6_400).tables(), "{walk:?}");
            let first = on(2, walk, (0, Vec::new()), 1_280);
            assert_eq!(on(1, walk, (1_280, first.tables()), 6_400).tables(), one.tables(), "{walk:?}");
            assert_ne!(kuhn(&rules, walk, 3, (0, Vec::new()), 6_400).tables(), one.tables(), "{walk:?}");
        }
        let (expl, _) = measured(&rules, &on(2, Walk::External, (0, Vec::new()), 20_000));
        assert!(expl < 0.03, "exploitability {expl}");
    }
}
