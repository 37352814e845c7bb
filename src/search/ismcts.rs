//! Single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012).
//!
//! Each iteration samples one world from the searching seat's observation
//! ([`Forward::determinize`]), descends the tree choosing among the children whose move is
//! legal in that world by UCB over availability counts, adds one untried move, plays the
//! world out with the rollout policy, and adds every seat's result to the nodes on the
//! path (each node keeps the result of the seat that moved into it). Tree nodes are keyed
//! by how the searching seat sees each move ([`Forward::key`]), never by hidden cards.
//! The tree lives in an arena kept between decisions, so a warm search allocates nothing.

use rand::{Rng, RngCore, SeedableRng};

use super::params::{Opponents, Searches};
use super::{Forward, RolloutBot, SearchParams};
use crate::sim::{BotRng, MAX_BINS, MAX_COUNTERS, MAX_SEATS, MAX_SUMS, NoEvents, RoundResult, Shape};

/// No node.
const NONE: u32 = u32::MAX;

/// The whole record is cleared between iterations.
const FULL: Shape = Shape { counters: MAX_COUNTERS, sums: MAX_SUMS, bins: MAX_BINS };

/// One tree node: a move (as the searching seat sees it) from its parent.
#[derive(Clone, Copy, Debug)]
struct Node {
    key: u32,
    actor: u8,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    availability: u32,
    reward: f64,
}

impl Node {
    fn new(key: u32, actor: u8) -> Node {
        Node { key, actor, first_child: NONE, next_sibling: NONE, visits: 0, availability: 0, reward: 0.0 }
    }
}

/// What the search bot's last decision looked like, for replays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchNote {
    /// The seat that searched.
    pub seat: usize,
    /// Iterations run.
    pub iterations: u32,
    /// Visits of the chosen move.
    pub visits: u32,
    /// Moves the seat could choose from.
    pub choices: u32,
    /// Whose reasoning it is.
    pub kind: NoteKind,
    /// The reasoning in words, where a replay asked for it: the search's top moves with
    /// their visit shares and mean results, or the policy's probabilities.
    pub reason: Reason,
}

/// Whose reasoning a [`SearchNote`] tells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NoteKind {
    /// The search bot's.
    #[default]
    Search,
    /// A trained policy's.
    Policy,
    /// A heuristic bot's: the estimate and thresholds behind its choice.
    Heuristic,
    /// The search's rollout policy's, for a decision its `searches` leaves out.
    Rollout,
    /// The search's, keeping its rollout policy's move: no move was better by its `margin`.
    Kept,
}

/// Bytes a [`Reason`] holds.
const REASON_BYTES: usize = 160;

/// A decision's reasoning in words, in a fixed buffer so that events stay `Copy`; a longer
/// text is cut at a character boundary and ends with `...`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Reason {
    len: u8,
    text: [u8; REASON_BYTES],
}

impl Default for Reason {
    fn default() -> Self {
        Reason { len: 0, text: [0; REASON_BYTES] }
    }
}

impl Reason {
    /// `text`, cut to fit.
    pub fn new(text: &str) -> Reason {
        let mut r = Reason::default();
        let text = if text.len() <= REASON_BYTES {
            text.to_string()
        } else {
            let mut end = REASON_BYTES - 3;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            format!("{}...", &text[..end])
        };
        r.text[..text.len()].copy_from_slice(text.as_bytes());
        r.len = text.len() as u8;
        r
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.text[..usize::from(self.len)]).unwrap_or("")
    }
}

impl std::fmt::Debug for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl std::fmt::Display for SearchNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let reason = self.reason.as_str();
        match self.kind {
            NoteKind::Policy => return write!(f, "seat {} played its policy: {reason}", self.seat),
            NoteKind::Heuristic => return write!(f, "seat {} judged: {reason}", self.seat),
            NoteKind::Rollout => {
                return write!(f, "seat {} left this move to its rollout policy: no search", self.seat);
            }
            NoteKind::Kept => {
                return write!(
                    f,
                    "seat {} searched {} iterations and kept its rollout policy's move, none being better by the margin: {reason}",
                    self.seat, self.iterations
                );
            }
            NoteKind::Search => {}
        }
        if self.choices == 1 {
            return write!(f, "seat {} had one legal move: no search", self.seat);
        }
        if !reason.is_empty() {
            return write!(f, "seat {} searched {} iterations: {reason}", self.seat, self.iterations);
        }
        write!(
            f,
            "seat {} searched: {} of {} iterations on the chosen move ({} choices)",
            self.seat, self.visits, self.iterations, self.choices
        )
    }
}

/// The search bot of one seat, with its reusable tree and scratch state.
pub struct Ismcts<F: Forward> {
    params: SearchParams,
    players: usize,
    /// Rollout players, one per seat (empty: uniformly random legal moves).
    rollout: Vec<RolloutBot<F>>,
    /// The other players a seat may be (`models`), one bot per seat each.
    models: Vec<Vec<RolloutBot<F>>>,
    /// The player each seat is in the world at hand: 0 the rollout policy, `m` the
    /// `m`-th model (this seat is always 0).
    types: [u8; MAX_SEATS],
    /// An observation for a rollout policy to read.
    obs: F::Obs,
    nodes: Vec<Node>,
    path: Vec<u32>,
    world: F,
    legal: Vec<F::Move>,
    keys: Vec<u32>,
    out: RoundResult,
    note: SearchNote,
    /// A candidate world and its past, while worlds are weighed.
    candidate: F,
    past: F,
    moves: Vec<F::Move>,
    past_out: RoundResult,
    /// Worlds weighed once this decision (`particles`): the seed each was dealt from (a
    /// world is dealt again from its seed rather than stored), the first `weighed` in use,
    /// and their running total weights.
    particles: Vec<u64>,
    /// Each particle's players, four bits a seat.
    particle_types: Vec<u32>,
    weighed: usize,
    cumulative: Vec<f64>,
}

impl<F: Forward> Ismcts<F> {
    /// A search bot for a game of `players` seats; `rollout` holds one bot per seat, or is
    /// empty for random rollouts, and each of `models` one bot per seat.
    pub fn new(
        params: SearchParams,
        players: usize,
        rollout: Vec<RolloutBot<F>>,
        models: Vec<Vec<RolloutBot<F>>>,
    ) -> Ismcts<F> {
        assert!(rollout.is_empty() || rollout.len() == players, "one rollout bot per seat");
        assert!(models.iter().all(|m| m.len() == players) && models.len() < 16, "one model bot per seat");
        let capacity = params.iterations as usize + 1;
        Ismcts {
            params,
            players,
            rollout,
            models,
            types: [0; MAX_SEATS],
            obs: F::Obs::default(),
            nodes: Vec::with_capacity(capacity),
            path: Vec::with_capacity(64),
            world: F::default(),
            legal: Vec::with_capacity(64),
            keys: Vec::with_capacity(64),
            out: RoundResult::default(),
            note: SearchNote::default(),
            candidate: F::default(),
            past: F::default(),
            moves: Vec::with_capacity(64),
            past_out: RoundResult::default(),
            particles: Vec::new(),
            particle_types: Vec::new(),
            weighed: 0,
            cumulative: Vec::new(),
        }
    }

    /// The parameters.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// The last decision's summary.
    pub fn note(&self, seat: usize) -> SearchNote {
        SearchNote { seat, ..self.note }
    }

    /// Chooses `seat`'s move from its observation alone. Its random numbers come from one
    /// draw of `rng` (the seat's bot stream).
    pub fn decide(&mut self, rules: &F::Variant, seat: usize, obs: &F::Obs, rng: &mut BotRng) -> F::Move {
        let mut rng = BotRng::seed_from_u64(rng.next_u64());
        self.types = [0; MAX_SEATS];
        // A forced move needs no search (the legal moves are the seat's to know).
        F::determinize(rules, obs, &mut rng, &mut self.world);
        self.own_moves(rules);
        if self.legal.len() == 1 {
            self.note = SearchNote { seat, iterations: 0, visits: 0, choices: 1, ..SearchNote::default() };
            return self.legal[0];
        }
        if !self.searched(rules) {
            // The rollout policy decides from this seat's view, which every world shares.
            if let Some(m) = self.policy_move(rules, seat, &mut rng) {
                let choices = self.legal.len() as u32;
                self.note = SearchNote { seat, choices, kind: NoteKind::Rollout, ..SearchNote::default() };
                return m;
            }
        }
        self.nodes.clear();
        self.nodes.push(Node::new(0, seat as u8));
        self.weigh_particles(rules, seat, obs, &mut rng);
        for _ in 0..self.params.iterations {
            self.iterate(rules, seat, obs, &mut rng);
        }
        self.choose(rules, seat, obs, &mut rng)
    }

    /// The root move with the most visits; ties go to the better mean result, then to a
    /// random one of the tied (a fixed tie-break would favour whichever move is listed
    /// first, which decides most choices at tiny budgets).
    fn choose(&mut self, rules: &F::Variant, seat: usize, obs: &F::Obs, rng: &mut BotRng) -> F::Move {
        F::determinize(rules, obs, rng, &mut self.world);
        self.own_moves(rules);
        let (mut best, mut best_visits, mut best_mean, mut tied) = (0, 0, f64::NEG_INFINITY, 0u32);
        for (i, &m) in self.legal.iter().enumerate() {
            let key = self.world.key(rules, seat, seat, m);
            let Some(c) = self.child(0, seat as u8, key) else { continue };
            let node = &self.nodes[c as usize];
            if node.visits == 0 {
                continue;
            }
            let mean = node.reward / f64::from(node.visits);
            let order = node.visits.cmp(&best_visits).then(mean.total_cmp(&best_mean));
            if order.is_gt() {
                (best, best_visits, best_mean, tied) = (i, node.visits, mean, 1);
            } else if order.is_eq() {
                // Reservoir choice: each of the k tied moves is kept with probability 1/k.
                tied += 1;
                if rng.random_range(0..tied) == 0 {
                    best = i;
                }
            }
        }
        self.note = SearchNote {
            seat,
            iterations: self.params.iterations,
            visits: best_visits,
            choices: self.legal.len() as u32,
            ..SearchNote::default()
        };
        let chosen = self.legal[best];
        if self.params.margin > 0.0 {
            // The policy's move stands unless the search found one better by the margin:
            // a search's noisy means should not overturn a sound policy on a hair.
            // A policy move the search never tried stands too: nothing overturns it.
            // A policy move outside the search's menu is not one it may play.
            let menu = self.params.menu;
            if let Some(own) = self.policy_move(rules, seat, rng).filter(|m| menu == 0 || self.legal.contains(m)) {
                let key = self.world.key(rules, seat, seat, own);
                let (own_visits, own_mean) = self.root_child(seat, key).unwrap_or((0, f64::NEG_INFINITY));
                if own != chosen && (own_visits == 0 || best_mean - own_mean <= self.params.margin) {
                    self.note.kind = NoteKind::Kept;
                    self.note.visits = own_visits;
                    return own;
                }
            }
        }
        chosen
    }

    /// The searching seat's moves in this world: the legal ones, narrowed to the game's
    /// best-rated `menu` where one is set.
    fn own_moves(&mut self, rules: &F::Variant) {
        self.world.legal(rules, &mut self.legal);
        if self.params.menu > 0 {
            self.world.narrow(rules, self.params.menu as usize, &mut self.legal);
        }
    }

    /// Nodes in the last search's tree, the root included.
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Visits and mean result of the last search's root move that `seat` sees as `key`
    /// (for hints).
    pub fn root_child(&self, seat: usize, key: u32) -> Option<(u32, f64)> {
        let c = self.child(0, seat as u8, key)?;
        let n = &self.nodes[c as usize];
        (n.visits > 0).then(|| (n.visits, n.reward / f64::from(n.visits)))
    }

    /// The child of `node` for (actor, key).
    fn child(&self, node: u32, actor: u8, key: u32) -> Option<u32> {
        let mut c = self.nodes[node as usize].first_child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            if n.key == key && n.actor == actor {
                return Some(c);
            }
            c = n.next_sibling;
        }
        None
    }

    fn iterate(&mut self, rules: &F::Variant, seat: usize, obs: &F::Obs, rng: &mut BotRng) {
        self.sample_world(rules, seat, obs, rng);
        self.out.clear(self.players, FULL);
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        let mut expanded = false;
        let mut tree_moves = 0u32;
        while let Some(actor) = self.world.to_act() {
            if self.params.depth > 0 && tree_moves >= self.params.depth {
                // Past the tree's depth the rollout policy plays every seat, outside the tree.
                break;
            }
            if (actor != seat && self.params.opponents == Opponents::Rollout) || !self.searched(rules) {
                // The rollout policy moves, with the mover's cards in this world; the tree
                // follows the move as this seat sees it.
                let Some(m) = self.policy_move(rules, actor, rng) else { break };
                let (key, actor8) = (self.world.key(rules, actor, seat, m), actor as u8);
                let child = self.child(node, actor8, key).unwrap_or_else(|| {
                    let c = self.nodes.len() as u32;
                    let mut fresh = Node::new(key, actor8);
                    fresh.next_sibling = self.nodes[node as usize].first_child;
                    self.nodes.push(fresh);
                    self.nodes[node as usize].first_child = c;
                    c
                });
                if self.world.apply(rules, m, &mut NoEvents, &mut self.out).is_err() {
                    break;
                }
                self.path.push(child);
                node = child;
                continue;
            }
            tree_moves += 1;
            if actor == seat {
                self.own_moves(rules);
            } else {
                self.world.legal(rules, &mut self.legal);
            }
            self.keys.clear();
            for &m in &self.legal {
                self.keys.push(self.world.key(rules, actor, seat, m));
            }
            let actor8 = actor as u8;
            // Every child legal here is available once; untried keys are counted.
            let mut untried = 0usize;
            let (mut best, mut best_score) = (NONE, f64::NEG_INFINITY);
            for i in 0..self.keys.len() {
                let key = self.keys[i];
                if self.keys[..i].contains(&key) {
                    continue;
                }
                match self.child(node, actor8, key) {
                    None => untried += 1,
                    Some(c) => {
                        let n = &mut self.nodes[c as usize];
                        n.availability += 1;
                        let score = n.reward / f64::from(n.visits)
                            + self.params.exploration * (f64::from(n.availability).ln() / f64::from(n.visits)).sqrt();
                        if score > best_score {
                            (best, best_score) = (c, score);
                        }
                    }
                }
            }
            let (key, child) = if untried > 0 {
                // Expand: one untried key, at random.
                let mut pick = rng.random_range(0..untried);
                let mut chosen = 0;
                for i in 0..self.keys.len() {
                    let key = self.keys[i];
                    if self.keys[..i].contains(&key) || self.child(node, actor8, key).is_some() {
                        continue;
                    }
                    if pick == 0 {
                        chosen = key;
                        break;
                    }
                    pick -= 1;
                }
                let c = self.nodes.len() as u32;
                let mut fresh = Node::new(chosen, actor8);
                fresh.availability = 1;
                fresh.next_sibling = self.nodes[node as usize].first_child;
                self.nodes.push(fresh);
                self.nodes[node as usize].first_child = c;
                expanded = true;
                (chosen, c)
            } else {
                (self.nodes[best as usize].key, best)
            };
            let m = self.move_with_key(key, rng);
            if self.world.apply(rules, m, &mut NoEvents, &mut self.out).is_err() {
                break;
            }
            self.path.push(child);
            node = child;
            if expanded {
                break;
            }
        }
        let finished = self.rollout(rules, rng);
        let mut result = [0.0f64; MAX_SEATS];
        for (s, r) in result[..self.players].iter_mut().enumerate() {
            *r = if finished {
                self.world.returns(rules, &self.out, s)
            } else {
                self.world.estimate(rules, &self.out, s, self.players)
            };
        }
        for &n in &self.path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.reward += result[node.actor as usize];
        }
    }

    /// Samples the iteration's world: with `worlds` above 1, draws that many and keeps one
    /// in proportion to its likelihood (sampling importance resampling, one reservoir
    /// pass), so a world in which the other seats' seen moves were likely is played more.
    fn sample_world(&mut self, rules: &F::Variant, seat: usize, obs: &F::Obs, rng: &mut BotRng) {
        if self.weighed > 0 {
            let total = self.cumulative[self.weighed - 1];
            let u = rng.random::<f64>() * total;
            let i = self.cumulative[..self.weighed].partition_point(|&c| c <= u).min(self.weighed - 1);
            F::determinize(rules, obs, &mut BotRng::seed_from_u64(self.particles[i]), &mut self.world);
            self.set_types(self.particle_types[i]);
            return;
        }
        if self.params.worlds <= 1 || self.rollout.is_empty() || !F::REWINDS {
            F::determinize(rules, obs, rng, &mut self.world);
            return;
        }
        let mut total = 0.0;
        for _ in 0..self.params.worlds {
            F::determinize(rules, obs, rng, &mut self.candidate);
            let Some(w) = self.likelihood(rules, seat, rng) else {
                // The game does not replay this decision's past (a public fact, the same
                // in every world): every world weighs alike, so the first will do.
                std::mem::swap(&mut self.world, &mut self.candidate);
                return;
            };
            total += w;
            if rng.random::<f64>() * total <= w {
                std::mem::swap(&mut self.world, &mut self.candidate);
            }
        }
    }

    /// With `particles`, draws and weighs this decision's worlds once; `weighed` stays 0
    /// where the game does not replay this past (every world then weighs alike) or no
    /// world has any weight.
    fn weigh_particles(&mut self, rules: &F::Variant, seat: usize, obs: &F::Obs, rng: &mut BotRng) {
        self.weighed = 0;
        let n = self.params.particles as usize;
        if n == 0 || self.rollout.is_empty() || !F::REWINDS {
            return;
        }
        self.cumulative.clear();
        self.particles.clear();
        self.particle_types.clear();
        let mut total = 0.0;
        let choices = self.models.len() as u32 + 1;
        for _ in 0..n {
            let seed = rng.next_u64();
            // Each other seat's player, drawn alike from the rollout policy and the models.
            let mut code = 0u32;
            if choices > 1 {
                for s in (0..self.players).filter(|&s| s != seat) {
                    code |= rng.random_range(0..choices) << (4 * s);
                }
            }
            self.set_types(code);
            F::determinize(rules, obs, &mut BotRng::seed_from_u64(seed), &mut self.candidate);
            let w = self.likelihood(rules, seat, rng);
            self.types = [0; MAX_SEATS];
            let Some(w) = w else { return };
            total += w;
            self.cumulative.push(total);
            self.particles.push(seed);
            self.particle_types.push(code);
        }
        if total > 0.0 {
            self.weighed = n;
        }
    }

    /// Seats each seat as the player `code` names (four bits a seat).
    fn set_types(&mut self, code: u32) {
        const { assert!(MAX_SEATS * 4 <= 32 && super::params::MAX_MODELS < 16) };
        for (s, t) in self.types[..self.players].iter_mut().enumerate() {
            *t = ((code >> (4 * s)) & 0xF) as u8;
        }
    }

    /// The bot that plays `actor` in the world at hand.
    fn player<'a>(
        rollout: &'a mut [RolloutBot<F>],
        models: &'a mut [Vec<RolloutBot<F>>],
        types: &[u8; MAX_SEATS],
        actor: usize,
    ) -> &'a mut RolloutBot<F> {
        match types[actor] {
            0 => &mut rollout[actor],
            t => &mut models[t as usize - 1][actor],
        }
    }

    /// How likely the other seats' moves so far were in the candidate world, had each
    /// played the player drawn for it (the rollout policy unless `models`): the product
    /// over their decisions of the chance that the player makes a move this seat would see
    /// as the one it saw, mixed with the `mismatch` floor; `None` where the game does not
    /// rebuild this past.
    fn likelihood(&mut self, rules: &F::Variant, seat: usize, rng: &mut BotRng) -> Option<f64> {
        if !self.candidate.rewind(rules, &mut self.past, &mut self.moves) {
            return None;
        }
        self.past_out.clear(self.players, FULL);
        let mut w = 1.0;
        for &m in &self.moves {
            let Some(actor) = self.past.to_act() else { break };
            if actor != seat {
                let key = self.past.key(rules, actor, seat, m);
                let bot = Self::player(&mut self.rollout, &mut self.models, &self.types, actor);
                let p = bot.chance_of(rules, &self.past, seat, key, rng, &mut self.obs);
                w *= self.params.mismatch + (1.0 - self.params.mismatch) * p;
            }
            if self.past.apply(rules, m, &mut NoEvents, &mut self.past_out).is_err() {
                break;
            }
        }
        Some(w)
    }

    /// One of the legal moves with this key, at random when several share it.
    fn move_with_key(&self, key: u32, rng: &mut BotRng) -> F::Move {
        let count = self.keys.iter().filter(|&&k| k == key).count();
        let mut pick = if count > 1 { rng.random_range(0..count) } else { 0 };
        for (i, &k) in self.keys.iter().enumerate() {
            if k == key {
                if pick == 0 {
                    return self.legal[i];
                }
                pick -= 1;
            }
        }
        unreachable!("the key comes from a legal move")
    }

    /// The rollout policy's move for `actor` in the world (`None` if its bot fails).
    /// Whether the world's seat to move decides by the tree (else by the rollout policy).
    fn searched(&self, rules: &F::Variant) -> bool {
        match self.params.searches {
            Searches::All => true,
            Searches::Bets => self.world.is_bet(rules),
            Searches::Others => !self.world.is_bet(rules),
        }
    }

    fn policy_move(&mut self, rules: &F::Variant, actor: usize, rng: &mut BotRng) -> Option<F::Move> {
        if self.rollout.is_empty() {
            self.world.legal(rules, &mut self.legal);
            return Some(self.legal[rng.random_range(0..self.legal.len())]);
        }
        Self::player(&mut self.rollout, &mut self.models, &self.types, actor)
            .decide(rules, &self.world, rng, &mut self.obs)
            .ok()
    }

    /// Plays the world on with the rollout policy; false when it stopped at the horizon.
    fn rollout(&mut self, rules: &F::Variant, rng: &mut BotRng) -> bool {
        let mut moves = 0u32;
        while let Some(actor) = self.world.to_act() {
            if self.params.horizon > 0 && moves >= self.params.horizon {
                return false;
            }
            let Some(m) = self.policy_move(rules, actor, rng) else { return true };
            if self.world.apply(rules, m, &mut NoEvents, &mut self.out).is_err() {
                return true;
            }
            moves += 1;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::search::SearchNote;
    use crate::search::params::DEFAULT_MISMATCH;
    use crate::sim::EventSink;

    /// A toy game: seat 0 picks a number 0..=3, then a hidden coin (unseen by seat 0)
    /// doubles or halves it; seat 0 scores the result over 6.
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Toy {
        picked: Option<u8>,
        coin: bool,
    }

    struct Note;
    impl From<SearchNote> for Note {
        fn from(_: SearchNote) -> Note {
            Note
        }
    }

    impl Forward for Toy {
        type Variant = ();
        type Move = u8;
        type Obs = Option<u8>;
        type Event = Note;
        type Bot = ();
        fn start<S: EventSink<Note>>(
            &mut self,
            _: &(),
            _: u64,
            _: u64,
            _: &mut S,
            _: &mut RoundResult,
        ) -> Result<(), Error> {
            *self = Toy::default();
            Ok(())
        }
        fn set_verify(&mut self, _: bool) {}
        fn redeal(&self, _: &(), _: usize, rng: &mut BotRng) -> Toy {
            Toy { picked: self.picked, coin: rng.random() }
        }
        fn to_act(&self) -> Option<usize> {
            self.picked.is_none().then_some(0)
        }
        fn legal(&self, _: &(), out: &mut Vec<u8>) {
            out.clear();
            out.extend(0..4);
        }
        fn narrow(&self, _: &(), keep: usize, legal: &mut Vec<u8>) {
            // The toy's own judgement rates the smaller numbers best, wrongly.
            legal.sort_unstable();
            legal.truncate(keep);
        }
        fn apply<S: EventSink<Note>>(&mut self, _: &(), m: u8, _: &mut S, _: &mut RoundResult) -> Result<(), Error> {
            self.picked = Some(m);
            Ok(())
        }
        fn ask(&self, _: &(), _: &mut (), _: &mut BotRng) -> Result<u8, Error> {
            // The rollout preset's move: good, not the best.
            Ok(2)
        }
        fn observe(&self, _: &(), _: usize, out: &mut Option<u8>) {
            *out = self.picked;
        }
        fn determinize(_: &(), obs: &Option<u8>, rng: &mut BotRng, out: &mut Toy) {
            *out = Toy { picked: *obs, coin: rng.random() };
        }
        fn observation_json(_: &(), obs: &Option<u8>) -> serde_json::Value {
            serde_json::json!({ "seat": 0, "card": obs })
        }
        fn describe(&self, _: &(), m: u8, _: usize) -> String {
            format!("move {m}")
        }
        fn key(&self, _: &(), _: usize, _: usize, m: u8) -> u32 {
            u32::from(m)
        }
        fn returns(&self, _: &(), _: &RoundResult, _: usize) -> f64 {
            let v = f64::from(self.picked.unwrap_or(0));
            if self.coin { v * 2.0 / 6.0 } else { v / 2.0 / 6.0 }
        }
    }

    fn params(iterations: u32) -> SearchParams {
        SearchParams {
            iterations,
            exploration: 0.7,
            rollout: "random".into(),
            horizon: 0,
            opponents: Opponents::Search,
            worlds: 1,
            searches: Searches::All,
            margin: 0.0,
            depth: 0,
            particles: 0,
            mismatch: DEFAULT_MISMATCH,
            models: Vec::new(),
            menu: 0,
        }
    }

    #[test]
    fn it_finds_the_best_move_and_reuses_its_arena() {
        let mut search: Ismcts<Toy> = Ismcts::new(params(400), 1, Vec::new(), Vec::new());
        let mut rng = BotRng::seed_from_u64(1);
        assert_eq!(search.decide(&(), 0, &None, &mut rng), 3);
        let note = search.note(0);
        assert!(note.visits > 200 && note.choices == 4, "{note:?}");
        let capacity = search.nodes.capacity();
        for _ in 0..10 {
            assert_eq!(search.decide(&(), 0, &None, &mut rng), 3);
        }
        assert_eq!(search.nodes.capacity(), capacity, "a warm search does not grow its arena");
        assert!(search.nodes.len() <= 401);
    }

    #[test]
    fn a_menu_weighs_only_the_moves_the_game_rates_best() {
        // The toy rates 0, 1, 2 best, in that order: a menu of three plays 2, the best of
        // them; a menu of one plays 0 without searching; no menu plays 3.
        for (menu, expected, choices) in [(3, 2, 3), (1, 0, 1), (0, 3, 4)] {
            let mut search: Ismcts<Toy> = Ismcts::new(SearchParams { menu, ..params(400) }, 1, Vec::new(), Vec::new());
            let mut rng = BotRng::seed_from_u64(11);
            for _ in 0..10 {
                assert_eq!(search.decide(&(), 0, &None, &mut rng), expected, "menu {menu}");
                assert_eq!(search.note(0).choices, choices, "menu {menu}");
            }
        }
        // The rollout preset's move (2) lies outside a menu of two: a margin never keeps it.
        let params = SearchParams { menu: 2, margin: 0.3, ..params(400) };
        let mut search: Ismcts<Toy> = Ismcts::new(params, 1, vec![RolloutBot::Preset(())], Vec::new());
        let mut rng = BotRng::seed_from_u64(12);
        for _ in 0..10 {
            assert_eq!(search.decide(&(), 0, &None, &mut rng), 1);
        }
    }

    #[test]
    fn with_one_iteration_it_still_plays_a_legal_move_and_repeats_itself() {
        let mut a: Ismcts<Toy> = Ismcts::new(params(1), 1, Vec::new(), Vec::new());
        let mut b: Ismcts<Toy> = Ismcts::new(params(1), 1, Vec::new(), Vec::new());
        let (mut ra, mut rb) = (BotRng::seed_from_u64(9), BotRng::seed_from_u64(9));
        for _ in 0..20 {
            let m = a.decide(&(), 0, &None, &mut ra);
            assert!(m < 4);
            assert_eq!(m, b.decide(&(), 0, &None, &mut rb), "same stream, same decision");
        }
    }

    #[test]
    fn ties_in_visits_go_to_the_better_mean_result_not_the_first_move() {
        // Four iterations visit each of the four moves once; move 0 always scores 0, every
        // other move more, so a tie-break by list order would always play move 0.
        let mut search: Ismcts<Toy> = Ismcts::new(params(4), 1, Vec::new(), Vec::new());
        let mut rng = BotRng::seed_from_u64(5);
        let mut played = [0u32; 4];
        for _ in 0..200 {
            played[usize::from(search.decide(&(), 0, &None, &mut rng))] += 1;
            assert_eq!(search.note(0).visits, 1);
        }
        assert_eq!(played[0], 0, "{played:?}");
        assert!(played[3] > played[1], "{played:?}");
    }

    #[test]
    fn a_margin_keeps_the_policy_move_unless_the_best_is_better_by_more() {
        // Move 3's mean result is 0.625, the preset's move 2's 0.417: a margin below the
        // gap of 0.208 plays 3, one above it keeps 2.
        for (margin, expected, kind) in [(0.1, 3, NoteKind::Search), (0.3, 2, NoteKind::Kept)] {
            let mut search: Ismcts<Toy> =
                Ismcts::new(SearchParams { margin, ..params(2000) }, 1, vec![RolloutBot::Preset(())], Vec::new());
            let mut rng = BotRng::seed_from_u64(3);
            for _ in 0..20 {
                assert_eq!(search.decide(&(), 0, &None, &mut rng), expected, "margin {margin}");
                assert_eq!(search.note(0).kind, kind, "margin {margin}");
            }
        }
    }
}
