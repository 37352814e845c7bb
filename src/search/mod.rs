//! The forward model every game implements, the driver that plays a unit through it, and
//! the search bot: information-set MCTS that plays any game from its rules alone.
//!
//! A game's state ([`Forward`]) says whose turn it is, lists the legal moves, applies one
//! (chance steps, such as draws, happen inside `apply` from the state's own deal stream),
//! gives each seat its observation and builds a full state from an observation alone
//! ([`Forward::determinize`]). `play`, `check` and `replay` run every game through
//! [`play_unit`]; the heuristic bots answer from their typed views, the search bot from an
//! observation, so it never reads a hidden card.

pub mod ismcts;
pub mod leaks;
pub mod params;

pub use ismcts::{Ismcts, NoteKind, Reason, SearchNote};
pub use params::{Rollout, SearchParams, Strategy, load_strategy};

use crate::error::Error;
use crate::outside::{Decision, Outside, UnitEnd, UnitStart};
use crate::sim::{BotRng, EventSink, MAX_SEATS, RoundResult, SeatRngs, UnitSeeds};

/// A game as a state machine: the state of one unit of play (a round, or a whole game).
pub trait Forward: Clone + Default + Send {
    /// The variant in force: the rules as the forward model reads them (a game whose rules
    /// need no preparation uses its rules file).
    type Variant: Sync;
    /// Every decision of the game, as one small value.
    type Move: Copy + PartialEq + std::fmt::Debug + Send;
    /// What one seat has seen: everything it may know, and no hidden card.
    type Obs: Clone + Default + Send;
    /// What happened, for replays.
    type Event: From<SearchNote>;
    /// The game's heuristic bot.
    type Bot: Send;

    /// A state ready to start units under these rules (buffers sized to them).
    fn new(rules: &Self::Variant) -> Self {
        let _ = rules;
        Self::default()
    }
    /// Starts a unit: deals from `deal_seed` and plays the chance steps up to the first
    /// decision. `deal_index` is the unit's deal in the run (every seating of a deal shares
    /// it; a game may turn something with it, such as the passing direction).
    fn start<S: EventSink<Self::Event>>(
        &mut self,
        rules: &Self::Variant,
        deal_seed: u64,
        deal_index: u64,
        sink: &mut S,
        out: &mut RoundResult,
    ) -> Result<(), Error>;
    /// Turns the invariant checks after every step on or off (debug builds keep them on).
    fn set_verify(&mut self, on: bool);
    /// The seat to move, or `None` when the unit is over.
    fn to_act(&self) -> Option<usize>;
    /// The legal moves of the seat to move, written into `out` (cleared first).
    fn legal(&self, rules: &Self::Variant, out: &mut Vec<Self::Move>);
    /// How many legal moves the seat to move has (what the health card counts): by
    /// default `legal`'s length, with `scratch` to list them in; a game whose menus are
    /// long may count them without listing.
    fn legal_count(&self, rules: &Self::Variant, scratch: &mut Vec<Self::Move>) -> usize {
        self.legal(rules, scratch);
        scratch.len()
    }
    /// Applies the move of the seat to move, then any chance steps up to the next decision
    /// (or the end), recording measures and the score into `out` and events into `sink`.
    fn apply<S: EventSink<Self::Event>>(
        &mut self,
        rules: &Self::Variant,
        m: Self::Move,
        sink: &mut S,
        out: &mut RoundResult,
    ) -> Result<(), Error>;
    /// A heuristic bot's move for the seat to move, from that seat's typed view; a move the
    /// rules do not allow is [`Error::IllegalAction`].
    fn ask(&self, rules: &Self::Variant, bot: &mut Self::Bot, rng: &mut BotRng) -> Result<Self::Move, Error>;
    /// What drove a heuristic bot's decision just made in this state (its estimate and
    /// thresholds), in words, for replays; `None` where the game's bots say nothing.
    fn explain(&self, rules: &Self::Variant, bot: &Self::Bot) -> Option<String> {
        let _ = (rules, bot);
        None
    }
    /// What `seat` has seen, written into `out`.
    fn observe(&self, rules: &Self::Variant, seat: usize, out: &mut Self::Obs);
    /// This state with every card `seat` has not seen dealt again at random, made from the
    /// truth rather than from an observation (the leak test's second state: the seat's
    /// observation must not change).
    fn redeal(&self, rules: &Self::Variant, seat: usize, rng: &mut BotRng) -> Self;
    /// A full state consistent with `obs`: everything the observer saw kept where it saw
    /// it, every other card dealt at random among the places it could be, and the chance
    /// stream reseeded from `rng`. It takes no state, so it cannot read the truth.
    fn determinize(rules: &Self::Variant, obs: &Self::Obs, rng: &mut BotRng, out: &mut Self);
    /// Whether [`Forward::rewind`] rebuilds a world's past (the search's `worlds` needs it).
    const REWINDS: bool = false;
    /// This state's past, where the game can rebuild it from the state alone: `start` set
    /// to a state this unit passed through, with this state's cards, and `moves` to every
    /// move made since, in order, so that applying them to `start` reaches this state. The
    /// search replays a sampled world's past to weigh it by how likely the other seats'
    /// moves were in it. False where the game cannot.
    fn rewind(&self, rules: &Self::Variant, start: &mut Self, moves: &mut Vec<Self::Move>) -> bool {
        let _ = (rules, start, moves);
        false
    }
    /// How `observer` sees `actor`'s move `m` (made in this state): a move the observer
    /// cannot tell apart from another gets the same key. Keys of one seat's moves at one
    /// decision are distinct when that seat is the observer.
    fn key(&self, rules: &Self::Variant, actor: usize, observer: usize, m: Self::Move) -> u32;
    /// Whether the seat to move makes a betting decision: what the search bot's
    /// `searches = "bets"` searches, leaving the rest to its rollout policy. It agrees with
    /// [`Forward::info_key`] where the game has one (keys are for bets). True by default: a
    /// game without such a split searches everything.
    fn is_bet(&self, rules: &Self::Variant) -> bool {
        let _ = rules;
        true
    }
    /// Narrows `legal`, the seat to move's legal moves as [`Forward::legal`] lists them, to
    /// the `keep` the game's own judgement rates best, best first: the menu of a search over
    /// an abstraction of the moves. By default, and at decisions the game does not rate,
    /// every move stays, in order.
    fn narrow(&self, rules: &Self::Variant, keep: usize, legal: &mut Vec<Self::Move>) {
        let _ = (rules, keep, legal);
    }
    /// The information key of an observation, for the solver and its policies: equal
    /// exactly when the seat cannot tell the decisions apart (or, for a large game, when
    /// its abstraction puts them together). `None` where the game has none.
    fn info_key(rules: &Self::Variant, obs: &Self::Obs) -> Option<u64> {
        let _ = (rules, obs);
        None
    }
    /// How many equally likely deals a unit starts from, where the solver may list them
    /// all (every chance event of a unit fixed at its start). `None` by default.
    fn deal_count(rules: &Self::Variant) -> Option<u64> {
        let _ = rules;
        None
    }
    /// Starts a unit on deal `index` of [`Forward::deal_count`].
    fn start_deal(&mut self, rules: &Self::Variant, index: u64, out: &mut RoundResult) -> Result<(), Error> {
        let _ = (rules, index, out);
        Err(Error::Invariant("this game does not list its deals".into()))
    }
    /// The seat's observation as JSON, for seats decided outside the process (docs/protocol.md):
    /// what `obs` holds, no more, with cards by name and per-seat lists as long as the table.
    fn observation_json(rules: &Self::Variant, obs: &Self::Obs) -> serde_json::Value;
    /// The move `m` of the seat to move, in words, as seat `observer` sees it: the mover
    /// sees all of it (`pick A♠`, `raise 2`); another seat only what the rules show it
    /// (`picks a card`). Two moves `key` gives one key for `observer` read alike to it.
    fn describe(&self, rules: &Self::Variant, m: Self::Move, observer: usize) -> String;
    /// Seat `seat`'s result of a finished unit, scaled to 0..=1 (1 best).
    fn returns(&self, rules: &Self::Variant, out: &RoundResult, seat: usize) -> f64;
    /// Seat `seat`'s estimated result when a rollout stops at the search's horizon before
    /// the unit ends, scaled as [`Forward::returns`]. By default an even share.
    fn estimate(&self, rules: &Self::Variant, out: &RoundResult, seat: usize, players: usize) -> f64 {
        let _ = (rules, out, seat);
        1.0 / players as f64
    }
    /// Whether the state under these rules has a standing per seat (chips over a game,
    /// victory cards, life): the health card's lead changes and drama follow it.
    fn has_standing(rules: &Self::Variant) -> bool {
        let _ = rules;
        false
    }
    /// The seat's standing now, higher being better (asked only where [`Forward::has_standing`]).
    fn standing(&self, rules: &Self::Variant, seat: usize) -> i64 {
        let _ = (rules, seat);
        0
    }
}

/// What every game's event enum `$event` needs beside it: `From<SearchNote>` for its
/// `Search` variant (the drivers note the search bot's decisions through it), and the
/// trait `Sink`, any sink of these events, which the rules' steps write to.
#[macro_export]
macro_rules! game_events {
    ($event:ident) => {
        impl From<$crate::search::SearchNote> for $event {
            fn from(note: $crate::search::SearchNote) -> $event {
                $event::Search(note)
            }
        }

        /// Where the rules' steps write this game's events: any sink of them.
        pub trait Sink: $crate::sim::EventSink<$event> {}
        impl<T: $crate::sim::EventSink<$event>> Sink for T {}
    };
}

/// The part of a game's [`Forward`] impl that every game writes alike, placed inside the
/// impl: its types (the engine's `Observation` and `Event`, the variant, move and bot
/// named) and `start`, `set_verify`, `redeal`, `apply` and `ask` handed to the state's own
/// `reset`, `verify` flag, `redeal`, `step` and `ask_bot`, which take the trait's arguments.
/// The rules then live in the engine's steps alone, and a game's impl holds only what is
/// its own.
#[macro_export]
macro_rules! forward_steps {
    (variant: $variant:ty, moves: $move:ty, bot: $bot:ty $(,)?) => {
        type Variant = $variant;
        type Move = $move;
        type Obs = Observation;
        type Event = Event;
        type Bot = $bot;

        fn start<S: $crate::sim::EventSink<Event>>(
            &mut self,
            rules: &$variant,
            deal_seed: u64,
            deal_index: u64,
            sink: &mut S,
            out: &mut $crate::sim::RoundResult,
        ) -> Result<(), $crate::error::Error> {
            self.reset(rules, $crate::sim::Deal { seed: deal_seed, index: deal_index }, sink, out)
        }

        fn set_verify(&mut self, on: bool) {
            self.verify = on;
        }

        fn redeal(&self, rules: &$variant, seat: usize, rng: &mut $crate::sim::BotRng) -> Self {
            Self::redeal(self, rules, seat, rng)
        }

        #[inline(always)]
        fn apply<S: $crate::sim::EventSink<Event>>(
            &mut self,
            rules: &$variant,
            m: $move,
            sink: &mut S,
            out: &mut $crate::sim::RoundResult,
        ) -> Result<(), $crate::error::Error> {
            self.step(rules, m, sink, out)
        }

        #[inline(always)]
        fn ask(
            &self,
            rules: &$variant,
            bot: &mut $bot,
            rng: &mut $crate::sim::BotRng,
        ) -> Result<$move, $crate::error::Error> {
            self.ask_bot(rules, bot, rng)
        }
    };
}

/// A driver's reusable buffers: an observation for the search bot and the legal moves the
/// health card counts.
pub struct Scratch<F: Forward> {
    /// The deciding seat's observation.
    pub obs: F::Obs,
    /// The legal moves at the current decision.
    pub legal: Vec<F::Move>,
    /// Every seat's standing at the last checkpoint.
    standing: [i64; MAX_SEATS],
}

impl<F: Forward> Default for Scratch<F> {
    fn default() -> Self {
        Scratch { obs: F::Obs::default(), legal: Vec::with_capacity(64), standing: [0; MAX_SEATS] }
    }
}

/// The move `bot` makes for seat `seat`, the seat to move in `state`: a heuristic bot
/// answers from its typed view, the search bot from the seat's observation alone (its
/// decision is noted in `sink`).
#[inline(always)]
pub fn decide<F: Forward, S: EventSink<F::Event>>(
    rules: &F::Variant,
    state: &F,
    bot: &mut SeatBot<F>,
    seat: usize,
    rng: &mut BotRng,
    obs: &mut F::Obs,
    sink: &mut S,
) -> Result<F::Move, Error> {
    match bot {
        SeatBot::Heuristic(bot) => {
            let m = state.ask(rules, bot, rng)?;
            if S::ACTIVE
                && S::NOTES
                && let Some(text) = state.explain(rules, bot)
            {
                sink.event(
                    SearchNote { seat, kind: NoteKind::Heuristic, reason: Reason::new(&text), ..SearchNote::default() }
                        .into(),
                );
            }
            Ok(m)
        }
        SeatBot::Policy(bot) => {
            let m = bot.decide(rules, state, seat, rng, obs)?;
            if S::ACTIVE && S::NOTES {
                let reason = Reason::new(&bot.reason(rules, state, seat, obs));
                sink.event(SearchNote { seat, kind: NoteKind::Policy, reason, ..SearchNote::default() }.into());
            }
            Ok(m)
        }
        SeatBot::Search(search) => {
            state.observe(rules, seat, obs);
            let m = search.decide(rules, seat, obs, rng);
            if S::ACTIVE && S::NOTES {
                let mut note = search.note(seat);
                // The tree is the last search's where the rollout policy moved.
                if note.choices > 1 && matches!(note.kind, NoteKind::Search | NoteKind::Kept) {
                    let mut legal = Vec::new();
                    note.reason = Reason::new(&top_moves(rules, state, search, seat, &mut legal));
                }
                sink.event(note.into());
            }
            Ok(m)
        }
        SeatBot::Outside(bot) => bot.decide(rules, state, seat, rng, obs),
    }
}

/// Fills `obs` with what the seat to move has seen and `legal` with its moves (never none).
fn observe_and_list<F: Forward>(
    rules: &F::Variant,
    state: &F,
    seat: usize,
    obs: &mut F::Obs,
    legal: &mut Vec<F::Move>,
) -> Result<(), Error> {
    state.observe(rules, seat, obs);
    state.legal(rules, legal);
    if legal.is_empty() {
        return Err(Error::Invariant(format!("seat {seat} was asked to move with no legal move")));
    }
    Ok(())
}

/// The last search's top three moves of the seat to move in `state`, in words, each with
/// its share of the root's visits and its mean result (0 worst, 1 best).
fn top_moves<F: Forward>(
    rules: &F::Variant,
    state: &F,
    search: &Ismcts<F>,
    seat: usize,
    legal: &mut Vec<F::Move>,
) -> String {
    state.legal(rules, legal);
    let mut top: Vec<(F::Move, u32, f64)> = (legal.iter())
        .filter_map(|&m| search.root_child(seat, state.key(rules, seat, seat, m)).map(|(v, mean)| (m, v, mean)))
        .collect();
    top.sort_by_key(|t| std::cmp::Reverse(t.1));
    let total: u32 = top.iter().map(|t| t.1).sum::<u32>().max(1);
    let parts: Vec<String> = (top.iter().take(3))
        .map(|&(m, v, mean)| {
            format!(
                "{} {:.0}% (mean {mean:.2})",
                state.describe(rules, m, seat),
                100.0 * f64::from(v) / f64::from(total)
            )
        })
        .collect();
    parts.join(", ")
}

/// A seat's player: a heuristic bot or the search bot.
pub enum SeatBot<F: Forward> {
    /// A preset of the game's own modules.
    Heuristic(F::Bot),
    /// The search bot.
    Search(Box<Ismcts<F>>),
    /// A trained policy.
    Policy(Box<PolicyBot<F>>),
    /// A seat decided outside the process: an external bot or the person at the terminal.
    Outside(Box<OutsideBot<F>>),
}

/// A seat decided outside the process ([`crate::outside`]): it is given its observation
/// as JSON and its legal moves in words, and answers one of them; where no usable answer
/// comes, it plays a legal move drawn uniformly from the seat's own stream.
pub struct OutsideBot<F: Forward> {
    seat: Box<dyn Outside>,
    legal: Vec<F::Move>,
    texts: Vec<String>,
    /// Who hints, where the seat wants hints.
    hint: Hinter<F>,
    /// Whether its last move was played for it (its program gave no usable answer).
    fell_back: bool,
    /// How many of its moves this unit were played for it, for the unit's account.
    fell_back_in_unit: u32,
}

/// What gives an outside seat its hints.
enum Hinter<F: Forward> {
    None,
    Search(Box<Ismcts<F>>),
    Policy(String, std::sync::Arc<crate::solver::policy::Policy>, Option<Box<F::Bot>>),
}

/// Iterations of the search behind a hint.
const HINT_ITERATIONS: u32 = 2000;

/// The seed of a hinting fallback preset's draws.
const HINT_STREAM: u64 = 0x4849_4E54;

impl<F: Forward> OutsideBot<F> {
    /// A seat decided by `seat`, at a table of `players`; `search`, the game's `search`
    /// preset, gives its search hints (without one, a search from the rules alone does);
    /// `fallback`, a hinting policy's fallback preset, its hints where the policy has none.
    pub fn new(
        seat: Box<dyn Outside>,
        players: usize,
        search: Option<Box<Ismcts<F>>>,
        fallback: Option<F::Bot>,
    ) -> Self {
        let hint = match (seat.hint(), search) {
            (crate::outside::Hint::None, _) => Hinter::None,
            (crate::outside::Hint::Search, Some(search)) => Hinter::Search(search),
            (crate::outside::Hint::Search, None) => {
                let params = SearchParams {
                    iterations: HINT_ITERATIONS,
                    exploration: 0.7,
                    rollout: "random".into(),
                    horizon: 0,
                    opponents: params::Opponents::Search,
                    worlds: 1,
                    searches: params::Searches::All,
                    margin: 0.0,
                    depth: 0,
                    particles: 0,
                    mismatch: params::DEFAULT_MISMATCH,
                    models: Vec::new(),
                    menu: 0,
                };
                Hinter::Search(Box::new(Ismcts::new(params, players, Vec::new(), Vec::new())))
            }
            (crate::outside::Hint::Policy(name, policy), _) => Hinter::Policy(name, policy, fallback.map(Box::new)),
        };
        OutsideBot { seat, legal: Vec::new(), texts: Vec::new(), hint, fell_back: false, fell_back_in_unit: 0 }
    }

    fn decide(
        &mut self,
        rules: &F::Variant,
        state: &F,
        seat: usize,
        rng: &mut BotRng,
        obs: &mut F::Obs,
    ) -> Result<F::Move, Error> {
        use rand::Rng;
        observe_and_list(rules, state, seat, obs, &mut self.legal)?;
        self.texts.clear();
        self.texts.extend(self.legal.iter().map(|&m| state.describe(rules, m, seat)));
        let hint = match &mut self.hint {
            Hinter::None => None,
            _ if self.legal.len() == 1 => Some("one legal move".to_string()),
            Hinter::Search(search) => {
                let m = search.decide(rules, seat, obs, rng);
                // A rollout policy may pick a move the menu lists under another card of the
                // same kind (Seven Poker's exchanges): name the menu's.
                let m = if self.legal.contains(&m) {
                    m
                } else {
                    let key = state.key(rules, seat, seat, m);
                    self.legal.iter().copied().find(|&x| state.key(rules, seat, seat, x) == key).unwrap_or(m)
                };
                let mut legal = Vec::new();
                Some(match search.note(seat).kind {
                    // A decision the preset leaves to its rollout policy is not searched.
                    NoteKind::Rollout => {
                        format!(
                            "search: {} (its rollout policy's move: it searches no such decision)",
                            state.describe(rules, m, seat)
                        )
                    }
                    NoteKind::Kept => format!(
                        "search: {} (its rollout policy's move, none better by its margin); {}",
                        state.describe(rules, m, seat),
                        top_moves(rules, state, search, seat, &mut legal)
                    ),
                    _ => format!("search: {}", top_moves(rules, state, search, seat, &mut legal)),
                })
            }
            Hinter::Policy(name, policy, fallback) => {
                let advice = policy_advice(policy, rules, state, seat, obs, &self.legal);
                // Where the policy has no key, what its fallback preset would play (its own
                // stream, so the seat's draws are not moved by a hint).
                let fallback_move = match (policy_probs::<F>(policy, rules, seat, obs, self.legal.len()), fallback) {
                    (None, Some(bot)) => {
                        let m =
                            state.ask(rules, bot, &mut <BotRng as rand::SeedableRng>::seed_from_u64(HINT_STREAM))?;
                        // Said as the menu offers it: a preset may name another of the
                        // moves that are one to the seat (Seven Poker's same-colour cards).
                        let key = state.key(rules, seat, seat, m);
                        let m =
                            self.legal.iter().copied().find(|&l| state.key(rules, seat, seat, l) == key).unwrap_or(m);
                        format!(": {}", state.describe(rules, m, seat))
                    }
                    _ => String::new(),
                };
                Some(format!("{name}: {advice}{fallback_move}"))
            }
        };
        let observation = F::observation_json(rules, obs);
        let decision = Decision { seat, observation: &observation, legal: &self.texts, hint: hint.as_deref() };
        let chosen = self.seat.decide(&decision)?;
        self.fell_back = chosen.is_none();
        self.fell_back_in_unit += u32::from(self.fell_back);
        match chosen {
            Some(i) => Ok(self.legal[i]),
            None => Ok(self.legal[rng.random_range(0..self.legal.len())]),
        }
    }
}

/// A trained policy's probabilities at a seat's decision, each move in words, likeliest
/// first; or why it has none.
fn policy_advice<F: Forward>(
    policy: &crate::solver::policy::Policy,
    rules: &F::Variant,
    state: &F,
    seat: usize,
    obs: &F::Obs,
    legal: &[F::Move],
) -> String {
    match (policy_probs::<F>(policy, rules, seat, obs, legal.len()), &policy.header.fallback) {
        (Some(probs), _) => {
            // Moves that read alike are one entry of a person's menu: their shares are summed.
            let mut moves: Vec<(f64, String)> = Vec::new();
            for (&m, &p) in legal.iter().zip(probs) {
                let text = state.describe(rules, m, seat);
                match moves.iter_mut().find(|(_, t)| *t == text) {
                    Some(entry) => entry.0 += p,
                    None => moves.push((p, text)),
                }
            }
            moves.sort_by(|a, b| b.0.total_cmp(&a.0));
            moves.iter().map(|(p, text)| format!("{text} {:.0}%", p * 100.0)).collect::<Vec<_>>().join(", ")
        }
        (None, Some(name)) => format!("not one of its trained decisions (it plays these as {name})"),
        (None, None) => "a decision it never trained on (it plays uniformly at random)".into(),
    }
}

/// A trained policy's probabilities at seat `seat`'s decision (its observation `obs`), where
/// it has them for a menu of `moves` moves.
fn policy_probs<'p, F: Forward>(
    policy: &'p crate::solver::policy::Policy,
    rules: &F::Variant,
    seat: usize,
    obs: &F::Obs,
    moves: usize,
) -> Option<&'p [f64]> {
    F::info_key(rules, obs).and_then(|k| policy.probs(seat, k)).filter(|p| p.len() == moves)
}

/// A seat playing a trained policy: it looks its observation's information key up and
/// draws a move by the policy's probabilities. A decision with no key or a set the policy
/// never saw (or with another number of moves) is played by the fallback preset the
/// policy names, else uniformly at random over the legal moves.
pub struct PolicyBot<F: Forward> {
    policy: std::sync::Arc<crate::solver::policy::Policy>,
    fallback: Option<F::Bot>,
    legal: Vec<F::Move>,
}

impl<F: Forward> PolicyBot<F> {
    /// A seat playing `policy`, with `fallback` for what it has no probabilities for.
    pub fn new(policy: std::sync::Arc<crate::solver::policy::Policy>, fallback: Option<F::Bot>) -> Self {
        PolicyBot { policy, fallback, legal: Vec::with_capacity(16) }
    }

    /// The policy it plays.
    pub fn policy(&self) -> &crate::solver::policy::Policy {
        &self.policy
    }

    /// The policy's probabilities at the seat's decision (its observation in `obs`, its
    /// moves in `self.legal`), where it has them.
    fn probs(&self, rules: &F::Variant, seat: usize, obs: &F::Obs) -> Option<&[f64]> {
        policy_probs::<F>(&self.policy, rules, seat, obs, self.legal.len())
    }

    /// The probabilities it played the decision just made by (its observation still in
    /// `obs`), each move in words.
    fn reason(&self, rules: &F::Variant, state: &F, seat: usize, obs: &F::Obs) -> String {
        match (self.probs(rules, seat, obs), &self.policy.header.fallback) {
            (Some(probs), _) => (self.legal.iter().zip(probs))
                .map(|(&m, p)| format!("{} {p:.2}", state.describe(rules, m, seat)))
                .collect::<Vec<_>>()
                .join(", "),
            (None, Some(name)) => format!("outside the policy: played by {name}"),
            (None, None) => "an information set it never trained on: uniformly at random".into(),
        }
    }

    fn decide(
        &mut self,
        rules: &F::Variant,
        state: &F,
        seat: usize,
        rng: &mut BotRng,
        obs: &mut F::Obs,
    ) -> Result<F::Move, Error> {
        use rand::Rng;
        state.observe(rules, seat, obs);
        // Moves are listed only where the policy has probabilities for them (a Seven Poker
        // exchange lists hundreds).
        // The key is worked out once: in some games it estimates the hand's strength.
        if let Some(key) = F::info_key(rules, obs)
            && let Some(probs) = self.policy.probs(seat, key)
        {
            observe_and_list(rules, state, seat, obs, &mut self.legal)?;
            if probs.len() != self.legal.len() {
                return Err(self.policy.menu_mismatch(seat, key, probs.len(), self.legal.len()).into());
            }
            return Ok(self.legal[draw(probs, rng)]);
        }
        match self.fallback.as_mut() {
            Some(bot) => state.ask(rules, bot, rng),
            None => {
                observe_and_list(rules, state, seat, obs, &mut self.legal)?;
                Ok(self.legal[rng.random_range(0..self.legal.len())])
            }
        }
    }
}

/// A player of the search bot's rollouts and model of the other seats.
pub enum RolloutBot<F: Forward> {
    /// A heuristic preset.
    Preset(F::Bot),
    /// A trained policy.
    Policy(PolicyBot<F>),
}

impl<F: Forward> RolloutBot<F> {
    /// Its move for the seat to move in `state` (`obs` is scratch).
    fn decide(&mut self, rules: &F::Variant, state: &F, rng: &mut BotRng, obs: &mut F::Obs) -> Result<F::Move, Error> {
        match self {
            RolloutBot::Preset(bot) => state.ask(rules, bot, rng),
            RolloutBot::Policy(bot) => {
                let seat = state.to_act().ok_or_else(|| Error::Invariant("a move after the unit ended".into()))?;
                bot.decide(rules, state, seat, rng, obs)
            }
        }
    }

    /// The chance that the seat to move in `state` makes a move `observer` sees as `key`:
    /// a policy's probabilities of the moves with that key, where it has them, else 1 or 0
    /// by one decision asked (unbiased for a player that randomises).
    fn chance_of(
        &mut self,
        rules: &F::Variant,
        state: &F,
        observer: usize,
        key: u32,
        rng: &mut BotRng,
        obs: &mut F::Obs,
    ) -> f64 {
        let Some(actor) = state.to_act() else { return 0.0 };
        if let RolloutBot::Policy(bot) = self {
            state.observe(rules, actor, obs);
            if let Some(probs) = F::info_key(rules, obs).and_then(|k| bot.policy.probs(actor, k)) {
                state.legal(rules, &mut bot.legal);
                if probs.len() == bot.legal.len() {
                    return (bot.legal.iter().zip(probs))
                        .filter(|&(&m, _)| state.key(rules, actor, observer, m) == key)
                        .map(|(_, p)| p)
                        .sum();
                }
            }
        }
        match self.decide(rules, state, rng, obs) {
            Ok(m) if state.key(rules, actor, observer, m) == key => 1.0,
            _ => 0.0,
        }
    }
}

/// A move index drawn by `probs` (a distribution) from `rng`.
pub fn draw(probs: &[f64], rng: &mut impl rand::Rng) -> usize {
    let mut u: f64 = rng.random();
    for (i, p) in probs.iter().enumerate() {
        if u < *p {
            return i;
        }
        u -= p;
    }
    // Rounding left a sliver: the last move with any probability.
    probs.iter().rposition(|p| *p > 0.0).unwrap_or(0)
}

/// What one thread needs to play units: the state, one player per lineup entry and the
/// driver's buffers.
pub struct Worker<F: Forward> {
    /// The unit's state (boxed: some games' states are large).
    pub state: Box<F>,
    /// One player per lineup entry.
    pub bots: Vec<SeatBot<F>>,
    /// The driver's buffers.
    pub scratch: Box<Scratch<F>>,
    /// Each lineup entry's name.
    pub names: Vec<String>,
    /// Whether a lineup entry is decided outside the process (then the driver tells it the
    /// unit's start, the moves it sees and the end).
    pub outside: bool,
}

/// Plays one unit of `players` seats from its start on the deal of `seeds` to its end,
/// `ask` answering for the seat to move with that seat's own stream from `seeds.bots`: the
/// loop for bots that are not seated presets (scripted and test bots, calibration's field).
/// A seated lineup plays through [`play_unit`].
pub fn play_with<F: Forward>(
    rules: &F::Variant,
    state: &mut F,
    players: usize,
    seeds: UnitSeeds,
    sink: &mut impl EventSink<F::Event>,
    out: &mut RoundResult,
    ask: impl FnMut(&F, usize, &mut BotRng) -> Result<F::Move, Error>,
) -> Result<(), Error> {
    let mut rngs = SeatRngs::new(seeds.bots, players);
    state.start(rules, seeds.deal, seeds.deal_index, sink, out)?;
    play_on(rules, state, &mut rngs, sink, out, ask)
}

/// Plays on from the position in `state` (started, stacked or scripted) until it ends,
/// `ask` answering for the seat to move with that seat's stream of `rngs`.
pub fn play_on<F: Forward>(
    rules: &F::Variant,
    state: &mut F,
    rngs: &mut SeatRngs,
    sink: &mut impl EventSink<F::Event>,
    out: &mut RoundResult,
    mut ask: impl FnMut(&F, usize, &mut BotRng) -> Result<F::Move, Error>,
) -> Result<(), Error> {
    while let Some(s) = state.to_act() {
        let m = ask(state, s, rngs.seat(s))?;
        state.apply(rules, m, sink, out)?;
    }
    Ok(())
}

/// Plays one unit from its start: deals from `seeds.deal`, then `worker.bots[seating[s]]`
/// plays seat `s` with the seat's own stream from `seeds.bots`, until the unit ends. The
/// search bot gets only the seat's observation.
#[inline]
pub fn play_unit<F: Forward, S: EventSink<F::Event>>(
    rules: &F::Variant,
    worker: &mut Worker<F>,
    seeds: UnitSeeds,
    seating: &[usize],
    sink: &mut S,
    out: &mut RoundResult,
) -> Result<(), Error> {
    let Worker { state, bots, scratch, names, outside } = worker;
    let mut rngs = SeatRngs::new(seeds.bots, seating.len());
    if *outside {
        start_outside(bots, names, seating, &mut rngs)?;
    }
    state.start(rules, seeds.deal, seeds.deal_index, sink, out)?;
    let players = seating.len();
    let standing = out.health.sampled && F::has_standing(rules);
    while let Some(s) = state.to_act() {
        if out.health.sampled {
            out.health.decision(state.legal_count(rules, &mut scratch.legal));
        } else {
            out.health.decisions += 1;
        }
        let m = decide(rules, &**state, &mut bots[seating[s]], s, rngs.seat(s), &mut scratch.obs, sink)?;
        if *outside {
            let fell_back = matches!(&bots[seating[s]], SeatBot::Outside(b) if b.fell_back);
            tell_outside(rules, &**state, bots, seating, s, m, fell_back)?;
        }
        state.apply(rules, m, sink, out)?;
        if standing {
            for (seat, v) in scratch.standing[..players].iter_mut().enumerate() {
                *v = state.standing(rules, seat);
            }
            out.health.standings(&scratch.standing[..players]);
        }
    }
    Ok(())
}

/// Tells each seat decided outside that a unit starts, with its own seed.
fn start_outside<F: Forward>(
    bots: &mut [SeatBot<F>],
    names: &[String],
    seating: &[usize],
    rngs: &mut SeatRngs,
) -> Result<(), Error> {
    let seat_names: Vec<&str> = seating.iter().map(|&e| names[e].as_str()).collect();
    for (s, &entry) in seating.iter().enumerate() {
        if let SeatBot::Outside(bot) = &mut bots[entry] {
            bot.fell_back_in_unit = 0;
            let seed = rand::RngCore::next_u64(rngs.seat(s));
            bot.seat.start(&UnitStart { seat: s, seed, names: &seat_names })?;
        }
    }
    Ok(())
}

/// Tells each other seat decided outside that follows the moves what seat `actor` did, as
/// it sees it, and whether the move was played for it (`fell_back`: an outside seat whose
/// program gave no usable answer).
fn tell_outside<F: Forward>(
    rules: &F::Variant,
    state: &F,
    bots: &mut [SeatBot<F>],
    seating: &[usize],
    actor: usize,
    m: F::Move,
    fell_back: bool,
) -> Result<(), Error> {
    for (s, &entry) in seating.iter().enumerate() {
        let SeatBot::Outside(bot) = &mut bots[entry] else { continue };
        if s != actor && bot.seat.follows_moves() {
            let mut text = state.describe(rules, m, s);
            if fell_back {
                text.push_str(" (played for it at random: its program gave no usable answer)");
            }
            bot.seat.seen(actor, &text)?;
        }
    }
    Ok(())
}

/// Tells each seat decided outside that the unit is over, with every seat's result and,
/// where `reveal` is given, the unit told move by move with, before its result, the count of
/// moves played for a seat whose program gave no usable answer (its moves are not marked).
pub fn end_outside<F: Forward>(
    worker: &mut Worker<F>,
    seating: &[usize],
    out: &RoundResult,
    reveal: Option<&str>,
) -> Result<(), Error> {
    let marked = reveal.map(|told| {
        let mut lines = String::new();
        for (s, &entry) in seating.iter().enumerate() {
            if let SeatBot::Outside(bot) = &worker.bots[entry]
                && bot.fell_back_in_unit > 0
            {
                let n = bot.fell_back_in_unit;
                lines.push_str(&format!(
                    "-- seat {s} ({}) had {n} move{} played for it at random (its program gave no usable answer)\n",
                    worker.names[entry],
                    if n == 1 { "" } else { "s" }
                ));
            }
        }
        // Before the result, so they are not read as result rows.
        let at = told.rfind("== Result").unwrap_or(told.len());
        format!("{}{lines}{}", &told[..at], &told[at..])
    });
    let reveal = marked.as_deref();
    let players = seating.len();
    let scores: Vec<i64> = out.seats[..players].iter().map(|r| r.score).collect();
    let win_shares: Vec<f64> =
        out.seats[..players].iter().map(|r| f64::from(r.share_units) / f64::from(crate::sim::SHARE_UNIT)).collect();
    for (s, &entry) in seating.iter().enumerate() {
        if let SeatBot::Outside(bot) = &mut worker.bots[entry] {
            bot.seat.end(&UnitEnd { seat: s, scores: &scores, win_shares: &win_shares, reveal })?;
        }
    }
    Ok(())
}

/// Whether a seat of `seating` wants the unit told at its end.
pub fn wants_reveal<F: Forward>(worker: &Worker<F>, seating: &[usize]) -> bool {
    seating.iter().any(|&e| matches!(&worker.bots[e], SeatBot::Outside(b) if b.seat.wants_reveal()))
}

impl<F: Forward> SeatBot<F> {
    /// The player of a strategy for a game of `players` seats, named `name`; `bot` makes
    /// the game's heuristic bot of a preset (the search bot's rollout bots too).
    pub fn new<P>(name: &str, strategy: &Strategy<P>, players: usize, bot: impl Fn(&P, &str) -> F::Bot) -> SeatBot<F> {
        match strategy {
            Strategy::Heuristic(preset) => SeatBot::Heuristic(bot(preset, name)),
            Strategy::Search(params, rollout, models) => {
                SeatBot::Search(search_bot(name, params, rollout, models, players, &bot))
            }
            Strategy::Policy(policy, fallback) => {
                SeatBot::Policy(Box::new(PolicyBot::new(policy.clone(), fallback.as_ref().map(|p| bot(p, name)))))
            }
            Strategy::Outside(spec, hint) => {
                let (hint, fallback) = match hint.as_deref() {
                    Some(Strategy::Search(params, rollout, models)) => {
                        (Some(search_bot(name, params, rollout, models, players, &bot)), None)
                    }
                    Some(Strategy::Policy(_, fallback)) => (None, fallback.as_ref().map(|p| bot(p, name))),
                    _ => (None, None),
                };
                SeatBot::Outside(Box::new(OutsideBot::new(spec.open(), players, hint, fallback)))
            }
        }
    }
}

/// The search bot of a search strategy, its rollout and model bots made by `bot`.
fn search_bot<F: Forward, P>(
    name: &str,
    params: &SearchParams,
    rollout: &Rollout<P>,
    models: &[Rollout<P>],
    players: usize,
    bot: &dyn Fn(&P, &str) -> F::Bot,
) -> Box<Ismcts<F>> {
    // One bot per seat, so a bot's memory of a unit stays its seat's.
    let seats = |r: &Rollout<P>| -> Vec<RolloutBot<F>> {
        (0..players)
            .filter_map(|_| match r {
                Rollout::Random => None,
                Rollout::Preset(p) => Some(RolloutBot::Preset(bot(p, name))),
                Rollout::Policy(policy, fallback) => {
                    Some(RolloutBot::Policy(PolicyBot::new(policy.clone(), fallback.as_ref().map(|p| bot(p, name)))))
                }
            })
            .collect()
    };
    let models = models.iter().map(seats).collect();
    Box::new(Ismcts::new(params.clone(), players, seats(rollout), models))
}
