//! What every game shares once its forward model exists: a game is a [`GameDef`] (its
//! rules file, forward model, presets and replay text) and the framework does the rest. A
//! [`Contest`] is rules plus a lineup of strategies; it plays units for the harness
//! (`run`, `check`, `replay`, health, card analytics and every study) through one driver,
//! [`play_unit`], and [`GameInfo::of`] makes the registry entry.

use std::sync::atomic::AtomicBool;

use rand::SeedableRng;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Built, GameInfo, RuleStep, Runner, presets};
use crate::error::{Error, Fault, InputError};
use crate::output::Table;
use crate::search::{self, Forward, Rollout, Scratch, SeatBot, Strategy, Worker, play_unit};
use crate::sim::{Game, Measures, NoEvents, RoundResult, RuleUse, Tally, UnitSeeds, mix_seed};
use crate::solver::{TabularPolicy, Tree};

/// The compiled rules a game's forward model reads.
pub type VariantOf<G> = <<G as GameDef>::State as Forward>::Variant;

/// The generator random rules are drawn with.
pub type RulesRng = rand_xoshiro::Xoshiro256PlusPlus;

/// A game's rules file: its contents (serde, defaults, unknown keys refused), its keys'
/// meanings and its checks.
pub trait GameRules: Clone + Default + Serialize + DeserializeOwned + std::fmt::Debug + Send + Sync {
    /// Every rules key with its meaning.
    const HELP: &'static [(&'static str, &'static str)];
    /// The rules keys a sensitivity study steps.
    const STEPS: &'static [(&'static str, RuleStep)];
    /// Number of seats.
    fn players(&self) -> usize;
    /// Checks every key and their combinations (one-line errors naming the key).
    fn check(&self) -> Result<(), InputError>;
    /// The player count, to set from `--players` or the seats.
    fn players_mut(&mut self) -> &mut usize;
    /// Rules drawn at random over every option, for soak and property tests.
    fn random_from(rng: &mut RulesRng) -> Self;
    /// [`GameRules::random_from`] a generator seeded with `seed`.
    fn random(seed: u64) -> Self {
        Self::random_from(&mut RulesRng::seed_from_u64(seed))
    }
    /// These rules with each key whose unset meaning depends on another key (the player
    /// count, the deck) set to what it means: two rules files that play alike resolve to
    /// the same rules.
    fn resolved(&self) -> Self {
        self.clone()
    }
    /// After a study set `key`, brings into line the keys whose valid values depend on it,
    /// but for those in `named` (set by the study too); whether anything changed. Seven Card
    /// Draft's betting rounds follow its pack size, so that a sensitivity step of
    /// `pack_size` is a variant the game plays, not one it refuses.
    fn follow(&mut self, _key: &str, _named: &[&str]) -> bool {
        false
    }
    /// Parses a rules file (one-line errors naming the key); checks come in `check`.
    fn from_toml(text: &str) -> Result<Self, InputError> {
        presets::parse_toml(text).map_err(|e| below_zero::<Self>(text, e))
    }
}

/// A rules key given below zero and refused at 0 too is told what it takes.
fn below_zero<R: GameRules>(text: &str, e: InputError) -> InputError {
    presets::below_zero(text, e, |t| presets::parse_toml::<R>(t)?.check())
}

/// The rules a forward model reads, compiled from a rules file: the rules file itself
/// where the game needs nothing more.
pub trait Compiled<R>: Sized {
    /// Checks the rules and compiles them.
    fn compile(rules: &R) -> Result<Self, InputError>;
    /// The rules file these came from.
    fn rules_file(&self) -> &R;
}

impl<R: GameRules> Compiled<R> for R {
    fn compile(rules: &R) -> Result<R, InputError> {
        rules.check()?;
        Ok(rules.clone())
    }
    fn rules_file(&self) -> &R {
        self
    }
}

/// A heuristic preset's parameters and the bot that plays them.
pub trait GamePreset: Clone + std::fmt::Debug + Send + Sync + DeserializeOwned + serde::Serialize {
    /// The heuristic bot.
    type Bot;
    /// The bot playing this preset for the seat named `name`.
    fn bot(&self, name: &str) -> Self::Bot;
    /// Checks what the TOML's types allow but the modules do not (one line naming the key).
    fn check(&self) -> Result<(), InputError>;
    /// Parses a preset's TOML: unknown modules or parameters list the valid ones.
    fn from_toml(text: &str) -> Result<Self, InputError> {
        let preset: Self = presets::parse_toml(text)?;
        preset.check()?;
        Ok(preset)
    }
}

/// What every game's `mod.rs` declares alike, in one place: its `NAME`, its registry entry
/// `INFO`, the `Def` the framework reads, the game with a lineup of bots (`contest`), and
/// `Def`'s `GameDef` impl, whose state is `engine::State`, rules file `Rules`, preset
/// `Preset` and presets `bots::PRESETS` (names the game's module holds), followed by the
/// items written after the `;`: what is the game's own.
#[macro_export]
macro_rules! game_def {
    (title: $title:literal, name: $name:literal, contest: $contest:ident, description: $description:expr;
     $($items:tt)*) => {
        /// The game's name on the command line.
        pub const NAME: &str = $name;

        /// The registry entry.
        pub const INFO: $crate::games::GameInfo = $crate::games::GameInfo::of::<Def>();

        #[doc = concat!($title, " for the framework.")]
        pub struct Def;

        #[doc = concat!($title, " with a lineup of bots, ready for the harness.")]
        pub type $contest = $crate::games::contest::Contest<Def>;

        impl $crate::games::contest::GameDef for Def {
            type State = engine::State;
            type RulesFile = Rules;
            type Preset = Preset;

            const NAME: &'static str = NAME;
            const TITLE: &'static str = $title;
            const DESCRIPTION: &'static str = $description;
            const PRESETS: &'static [(&'static str, &'static str)] = bots::PRESETS;
            $($items)*
        }
    };
}

/// A game as the framework sees it: everything here is the game's own; the harness glue
/// (workers, the driver, replays, the registry entry) is generic over it.
pub trait GameDef: Sized + Send + Sync + 'static {
    /// The forward model: the state of one unit of play, reading rules compiled from
    /// the rules file.
    type State: Forward<Variant: Compiled<Self::RulesFile>>;
    /// The rules file.
    type RulesFile: GameRules;
    /// A heuristic preset's parameters.
    type Preset: GamePreset<Bot = <Self::State as Forward>::Bot>;

    /// Name on the command line.
    const NAME: &'static str;
    /// Name in prose and report headings ("Seven Card Draft").
    const TITLE: &'static str;
    /// One line for `draftsim list games`.
    const DESCRIPTION: &'static str;
    /// Presets: (name, TOML text).
    const PRESETS: &'static [(&'static str, &'static str)];
    /// The default lineup, cycled over the seats.
    const DEFAULT_MIX: &'static [&'static str];
    /// The preset that makes the decisions the game's information key leaves out (its
    /// picks) when a policy is trained, unless `train --fallback` names another.
    const POLICY_FALLBACK: Option<&'static str> = None;
    /// What the labels of a seat's observation that do not explain themselves mean, a line
    /// each (`label: meaning`), for a person reading the view in `play`.
    const VIEW_LEGEND: &'static str = "";
    /// The rules that decide units with no sole winner, as the health card names them where
    /// too many end that way.
    const UNDECIDED_RULES: &'static str = "its tie and split rules";

    /// What a trained policy maximises for `seat` at the end of a unit: its score by
    /// default (chips); a game whose score is not what its players play for says otherwise.
    fn training_value(rules: &VariantOf<Self>, state: &Self::State, out: &RoundResult, seat: usize) -> f64 {
        let _ = (rules, state);
        out.seats[seat].score as f64
    }
    /// Whether a unit under these rules holds so many of one seat's keyed decisions that
    /// training branches at one sampled decision per traversal (`mccfr-probe`) rather than
    /// at every one (`es-mccfr`).
    fn probe_training(rules: &VariantOf<Self>) -> bool {
        let _ = rules;
        false
    }

    /// Parses a rules file (one-line errors naming the key); checks come in `compile`.
    fn parse_rules(text: &str) -> Result<Self::RulesFile, InputError> {
        GameRules::from_toml(text).map_err(|e| match e.to_string() {
            m if m.ends_with(presets::NOT_A_VALUE) => {
                InputError::new(format!("{m}: `draftsim list rules {}` lists those it takes", Self::NAME))
            }
            _ => e,
        })
    }
    /// The rules file's player count, to set from `--players` or the seats.
    fn players_mut(rules: &mut Self::RulesFile) -> &mut usize {
        rules.players_mut()
    }
    /// Checks the rules and compiles them for the forward model.
    fn compile(rules: &Self::RulesFile) -> Result<VariantOf<Self>, InputError> {
        Compiled::compile(rules)
    }
    /// The rules file the compiled rules came from.
    fn rules_file(rules: &VariantOf<Self>) -> &Self::RulesFile {
        rules.rules_file()
    }
    /// Number of seats.
    fn players(rules: &VariantOf<Self>) -> usize {
        Self::rules_file(rules).players()
    }
    /// Rules drawn at random from the game's options, for soak and property tests.
    fn random_rules(seed: u64) -> Self::RulesFile {
        GameRules::random(seed)
    }
    /// Parses a preset's TOML.
    fn parse_preset(text: &str) -> Result<Self::Preset, InputError> {
        GamePreset::from_toml(text)
    }
    /// A heuristic preset by name, derived preset or TOML file path.
    fn load_preset(name_or_path: &str) -> Result<Self::Preset, InputError> {
        presets::load(Self::PRESETS, name_or_path, Self::NAME, Self::parse_preset)
    }
    /// The heuristic bot of a preset, for the seat named `name`.
    fn bot(preset: &Self::Preset, name: &str) -> <Self::State as Forward>::Bot {
        preset.bot(name)
    }
    /// What the game measures under these rules.
    fn measures(rules: &VariantOf<Self>) -> Measures;
    /// A unit told move by move, from its events and the finished state.
    fn tell(
        rules: &VariantOf<Self>,
        state: &Self::State,
        names: &[&str],
        events: &[<Self::State as Forward>::Event],
        out: &RoundResult,
    ) -> String;
    /// `event` told to a person at seat `observer` as it happens (`play`), in the words of
    /// [`Game::tell`], where the seat may see it and the moves told to it do not carry it:
    /// a result, a hand shown, the cards the seat itself draws. `dealt` is the unit as
    /// dealt (started from the same deal seed, before any decision), for a game whose
    /// telling needs its deal (Live-Draft's card table). `None` for the rest (by default
    /// every event).
    fn news(
        rules: &VariantOf<Self>,
        dealt: &Self::State,
        names: &[&str],
        event: &<Self::State as Forward>::Event,
        observer: usize,
    ) -> Option<String> {
        let _ = (rules, dealt, names, event, observer);
        None
    }

    /// Options of these rules that change nothing, one line each (none by default).
    fn warnings(rules: &VariantOf<Self>) -> Vec<String> {
        let _ = rules;
        Vec::new()
    }
    /// Parameters of a heuristic preset these rules never read, one line each starting with
    /// the key's path (none by default): a per-round list longer than the rules' rounds.
    fn unread(rules: &VariantOf<Self>, preset: &Self::Preset) -> Vec<String> {
        let _ = (rules, preset);
        Vec::new()
    }
    /// The game's own tables beyond the generic ones (none by default).
    fn extra_tables(rules: &VariantOf<Self>, tally: &Tally, strategies: &[String]) -> Vec<Table> {
        let _ = (rules, tally, strategies);
        Vec::new()
    }
    /// The rules set away from their defaults whose use the game records (none by default).
    fn rule_uses(rules: &VariantOf<Self>) -> Vec<RuleUse> {
        let _ = rules;
        Vec::new()
    }
    /// The `calibration` and `field_calibration` tables of the first seat's strength
    /// estimates (only games whose bots estimate a hand's strength have them).
    fn calibration(
        contest: &Contest<Self>,
        rounds: u64,
        seed: u64,
        interrupt: Option<&AtomicBool>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<Table>, Error> {
        let _ = (contest, rounds, seed, interrupt, progress);
        Err(InputError::new(
            "calibrate: only Seven Card Draft's strength estimates are calibrated so far; use --game seven-card-draft",
        )
        .into())
    }
}

/// A game's rules with a lineup of strategies: what the harness runs.
pub struct Contest<G: GameDef> {
    /// The checked, compiled rules.
    pub rules: VariantOf<G>,
    /// One (name, strategy) per seat of the lineup.
    pub lineup: Vec<(String, Strategy<G::Preset>)>,
    /// What the game measures.
    pub measures: Measures,
}

impl<G: GameDef> std::fmt::Debug for Contest<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct(G::NAME).field("rules", G::rules_file(&self.rules)).field("lineup", &self.lineup).finish()
    }
}

/// Stream tag of the seeds each lineup entry is tabulated with.
const TABULATE_STREAM: u64 = 0x7AB0_0001;

/// A rules file as the TOML a trained policy records (and hashes).
pub fn rules_toml<G: GameDef>(rules: &G::RulesFile) -> String {
    toml::to_string(rules).expect("a rules file prints as TOML")
}

/// The trained policies a strategy plays: its own, or a search's rollout and models.
fn policies_of<P>(strategy: &Strategy<P>) -> Vec<&std::sync::Arc<crate::solver::policy::Policy>> {
    match strategy {
        Strategy::Policy(policy, _) => vec![policy],
        Strategy::Search(_, rollout, models) => (std::iter::once(rollout).chain(models))
            .filter_map(|r| if let Rollout::Policy(policy, _) = r { Some(policy) } else { None })
            .collect(),
        Strategy::Outside(..) | Strategy::Heuristic(_) => Vec::new(),
    }
}

/// A strategy of game `G` by preset name, file, derived preset or search preset.
pub fn load_strategy<G: GameDef>(name: &str) -> Result<Strategy<G::Preset>, InputError> {
    let strategy = search::load_strategy(G::PRESETS, name, G::NAME, G::parse_preset)?;
    if let Strategy::Search(params, ..) = &strategy
        && (params.worlds > 1 || params.particles > 0)
        && !<G::State as Forward>::REWINDS
    {
        let (key, value, off) =
            if params.worlds > 1 { ("worlds", params.worlds, 1) } else { ("particles", params.particles, 0) };
        let models = if params.models.is_empty() { "" } else { " and remove models" };
        return Err(InputError::new(format!(
            "{name}: {key} = {value}: {} cannot replay a sampled world's past to weigh it; set {key} = {off}{models}",
            G::NAME
        )));
    }
    Ok(strategy)
}

impl<G: GameDef> Contest<G> {
    /// The game with these rules and strategies (names or preset file paths), one per seat.
    pub fn new(rules: &G::RulesFile, seats: &[String]) -> Result<Contest<G>, InputError> {
        let rules = G::compile(rules)?;
        let mut lineup = presets::lineup(seats, G::players(&rules), load_strategy::<G>)?;
        // A program seated twice is one strategy: one pool of programs, one count of faults.
        for i in 1..lineup.len() {
            if let Some(first) = lineup[..i].iter().position(|(n, _)| *n == lineup[i].0)
                && matches!(lineup[i].1, Strategy::Outside(..))
            {
                lineup[i].1 = lineup[first].1.clone();
            }
        }
        for (name, strategy) in &lineup {
            if let Strategy::Outside(spec, _) = strategy {
                spec.bind(G::NAME, &rules_toml::<G>(G::rules_file(&rules)), G::players(&rules));
            }
            for policy in policies_of(strategy) {
                (policy.check(G::NAME, &rules_toml::<G>(G::rules_file(&rules)), G::players(&rules)))
                    .map_err(|e| e.context(name))?;
            }
        }
        let measures = G::measures(&rules);
        Ok(Contest { rules, lineup, measures })
    }

    /// The rules file in force.
    pub fn rules_file(&self) -> &G::RulesFile {
        G::rules_file(&self.rules)
    }

    /// Plays one unit with every event sent to `sink` and the invariants checked (for
    /// replays and tests); returns the result and the finished state.
    pub fn play_with_events(
        &self,
        seeds: UnitSeeds,
        seating: &[usize],
        sink: &mut impl crate::sim::EventSink<<G::State as Forward>::Event>,
    ) -> Result<(RoundResult, Box<G::State>), Error> {
        let mut out = RoundResult::default();
        let mut worker = self.worker();
        worker.state.set_verify(true);
        play_unit(&self.rules, &mut worker, seeds, seating, sink, &mut out)?;
        if worker.outside {
            search::end_outside(&mut worker, seating, &out, None)?;
        }
        Ok((out, worker.state))
    }

    /// Plays one unit with seats decided outside the process: as [`Game::play`], then tells
    /// them the end (and the unit move by move, to a seat that wants it).
    fn play_outside(
        &self,
        worker: &mut Worker<G::State>,
        seeds: UnitSeeds,
        seating: &[usize],
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        if !search::wants_reveal(worker, seating) {
            play_unit(&self.rules, worker, seeds, seating, &mut NoEvents, out)?;
            return search::end_outside(worker, seating, out, None);
        }
        let names: Vec<&str> = seating.iter().map(|&i| self.lineup[i].0.as_str()).collect();
        // The person at the terminal is told what happens between its decisions as it
        // happens: a round's result, the cards it draws.
        let person = seating
            .iter()
            .position(|&i| matches!(&self.lineup[i].1, Strategy::Outside(spec, _) if matches!(**spec, crate::outside::OutsideSpec::Human(_))));
        // The unit as dealt, for the news: the worker's own state is played meanwhile.
        let dealt = match person {
            Some(_) => {
                let mut state = Box::new(G::State::new(&self.rules));
                state.start(&self.rules, seeds.deal, seeds.deal_index, &mut NoEvents, &mut out.clone())?;
                Some(state)
            }
            None => None,
        };
        let mut sink = News {
            events: Vec::new(),
            say: |e: &<G::State as Forward>::Event| {
                let (Some(p), Some(dealt)) = (person, &dealt) else { return };
                if let Some(text) = G::news(&self.rules, dealt, &names, e, p) {
                    crate::outside::terminal::news(&text);
                }
            },
        };
        play_unit(&self.rules, worker, seeds, seating, &mut sink, out)?;
        let told = G::tell(&self.rules, &worker.state, &names, &sink.events, out);
        search::end_outside(worker, seating, out, Some(&told))
    }

    /// The `outside` table: for each external bot of the lineup, its decisions and faults.
    pub fn outside_table(&self) -> Option<Table> {
        let mut done: Vec<&str> = Vec::new();
        let mut rows = Vec::new();
        for (name, strategy) in &self.lineup {
            let Strategy::Outside(spec, _) = strategy else { continue };
            let Some(f) = spec.faults() else { continue };
            if done.contains(&name.as_str()) {
                continue;
            }
            done.push(name);
            rows.push((name.clone(), f));
        }
        (!rows.is_empty()).then(|| crate::output::outside_table(&rows))
    }
}

impl<G: GameDef> Game for Contest<G> {
    type Worker = Worker<G::State>;

    fn players(&self) -> usize {
        G::players(&self.rules)
    }

    fn worker(&self) -> Worker<G::State> {
        let players = G::players(&self.rules);
        Worker {
            state: Box::new(G::State::new(&self.rules)),
            bots: (self.lineup.iter()).map(|(name, strategy)| SeatBot::new(name, strategy, players, G::bot)).collect(),
            scratch: Box::<Scratch<G::State>>::default(),
            names: self.lineup.iter().map(|(name, _)| name.clone()).collect(),
            outside: self.lineup.iter().any(|(_, s)| matches!(s, Strategy::Outside(..))),
        }
    }

    fn measures(&self) -> &Measures {
        &self.measures
    }

    #[inline]
    fn play(
        &self,
        worker: &mut Worker<G::State>,
        seeds: UnitSeeds,
        seating: &[usize],
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        if worker.outside {
            return self.play_outside(worker, seeds, seating, out);
        }
        play_unit(&self.rules, worker, seeds, seating, &mut NoEvents, out)
    }

    fn set_checking(&self, worker: &mut Worker<G::State>, on: bool) {
        worker.state.set_verify(on || cfg!(debug_assertions));
    }

    fn replay(&self, seeds: UnitSeeds, seating: &[usize]) -> Result<String, Error> {
        let mut events = Vec::new();
        let (out, state) = self.play_with_events(seeds, seating, &mut events)?;
        let names: Vec<&str> = seating.iter().map(|&i| self.lineup[i].0.as_str()).collect();
        Ok(G::tell(&self.rules, &state, &names, &events, &out))
    }
}

impl<G: GameDef> Runner for Contest<G> {
    crate::runner_from_game!();

    fn rules_toml(&self) -> String {
        toml::to_string(self.rules_file()).unwrap_or_default()
    }
    fn rules_played(&self) -> String {
        toml::to_string(&self.rules_file().resolved()).unwrap_or_default()
    }
    fn has_tree(&self) -> bool {
        <G::State as Forward>::deal_count(&self.rules).is_some()
    }
    fn game_tree(&self) -> Result<Tree, Error> {
        crate::solver::build::build::<G>(&self.rules)
    }
    fn policy_fallback(&self) -> Option<&'static str> {
        G::POLICY_FALLBACK
    }
    fn probe_training(&self) -> bool {
        G::probe_training(&self.rules)
    }
    fn sampled_trainer(
        &self,
        seed: u64,
        iterations: u64,
        tables: crate::solver::sampled::Tables,
        options: &crate::solver::sampled::Options,
    ) -> Result<Box<dyn crate::solver::sampled::SampledTrainer + '_>, Error> {
        let (name, strategy) = &self.lineup[0];
        let Strategy::Heuristic(preset) = strategy else {
            return Err(InputError::new(format!(
                "--fallback {name}: the fallback must be a heuristic preset of {}",
                G::NAME
            ))
            .into());
        };
        let bot = || G::bot(preset, name);
        let mut field = Vec::with_capacity(options.field.len());
        for name in &options.field {
            match load_strategy::<G>(name).map_err(|e| e.context("--field"))? {
                Strategy::Heuristic(preset) => field.push((name.clone(), preset)),
                _ => {
                    return Err(InputError::new(format!(
                        "--field {name}: a field strategy must be a heuristic preset of {} (search and trained players are too slow to train against)",
                        G::NAME
                    ))
                    .into());
                }
            }
        }
        let field_bots = move || field.iter().map(|(name, preset)| G::bot(preset, name)).collect();
        Ok(Box::new(crate::solver::sampled::Sampled::<G>::new(
            &self.rules,
            bot,
            field_bots,
            seed,
            (iterations, tables),
            options,
        )))
    }
    fn tabulate(
        &self,
        tree: &Tree,
        (samples, seed): (u32, u64),
        interrupt: Option<&AtomicBool>,
    ) -> Result<Vec<(TabularPolicy, usize)>, Error> {
        let states = crate::solver::tabulate::representatives::<G>(&self.rules, tree, interrupt)?;
        let players = G::players(&self.rules);
        let mut done: Vec<(&str, usize)> = Vec::new();
        let mut out: Vec<(TabularPolicy, usize)> = Vec::with_capacity(self.lineup.len());
        for (i, (name, strategy)) in self.lineup.iter().enumerate() {
            // A strategy seated twice is the same player: tabulated once.
            if let Some(&(_, at)) = done.iter().find(|(n, _)| n == name) {
                out.push(out[at].clone());
                continue;
            }
            if matches!(strategy, Strategy::Outside(..)) {
                return Err(crate::outside::not_tabulable(name).into());
            }
            let mut bot = SeatBot::new(name, strategy, players, G::bot);
            // Streams by name, not by place: the figure does not depend on where --seats lists it.
            let seed = mix_seed(seed, u64::from(crc32fast::hash(name.as_bytes())), TABULATE_STREAM);
            let policy = (&mut bot, samples, seed);
            out.push(crate::solver::tabulate::tabulate::<G>(&self.rules, tree, &states, policy, interrupt)?);
            done.push((name, i));
        }
        Ok(out)
    }
    fn has_standing(&self) -> bool {
        <G::State as Forward>::has_standing(&self.rules)
    }
    fn warnings(&self) -> Vec<String> {
        let mut out = G::warnings(&self.rules);
        let mut named: Vec<&str> = Vec::new();
        for (name, strategy) in &self.lineup {
            // A shipped preset is written for the default rules and is not the user's to
            // mend; a derived one is warned about for the keys its overrides set.
            let shipped = G::PRESETS.iter().any(|(p, _)| p == name);
            if let Strategy::Heuristic(preset) = strategy
                && !shipped
                && !named.contains(&name.as_str())
            {
                named.push(name);
                let derived = presets::derived(name).map(|(_, overrides)| overrides);
                let set_here = |w: &String| derived.is_none_or(|o| o.contains(w.split(' ').next().unwrap_or(w)));
                out.extend(G::unread(&self.rules, preset).into_iter().filter(set_here).map(|w| format!("{name}: {w}")));
            }
            for policy in policies_of(strategy).into_iter().filter(|p| p.shadows_shipped) {
                let line = format!(
                    "{name}: plays the policy in {} under this folder, which differs from the one draftsim ships; run elsewhere to play the shipped one",
                    policy.source()
                );
                if !out.contains(&line) {
                    out.push(line);
                }
            }
        }
        out
    }
    fn extra_tables(&self, tally: &Tally, strategies: &[String]) -> Vec<Table> {
        G::extra_tables(&self.rules, tally, strategies)
    }
    fn rule_uses(&self) -> Vec<RuleUse> {
        G::rule_uses(&self.rules)
    }
    fn outside_table(&self) -> Option<Table> {
        Contest::outside_table(self)
    }
    fn calibration(
        &self,
        rounds: u64,
        seed: u64,
        interrupt: Option<&AtomicBool>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<Table>, Error> {
        G::calibration(self, rounds, seed, interrupt, progress)
    }
}

/// Builds game `G` from a rules file's text (or the defaults), a player count and seats.
fn build<G: GameDef>(
    rules_text: Option<&str>,
    players: Option<usize>,
    seats: Option<&[String]>,
) -> Result<Built, InputError>
where
    Contest<G>: Runner,
{
    let mut rules = rules_text.map_or_else(|| Ok(G::RulesFile::default()), G::parse_rules)?;
    let asked = presets::players_asked(players, rules_text, seats).unwrap_or(*G::players_mut(&mut rules));
    *G::players_mut(&mut rules) = asked;
    // Whether the seats alone set the player count.
    let from_seats = seats.is_some() && presets::players_asked(players, rules_text, None).is_none();
    if !from_seats {
        // The rules check the player count before a seat list of that length is built.
        G::compile(&rules)?;
    }
    let seats = presets::seats_or_mix(seats, G::DEFAULT_MIX, asked);
    match Contest::<G>::new(&rules, &seats) {
        Ok(contest) => Ok((Box::new(contest), seats)),
        // Where the seats set the player count, a seat that names no strategy (`--seats
        // tigth`) is the fault to report, not the count of one it implied.
        Err(e) if from_seats => {
            for name in &seats {
                load_strategy::<G>(name)?;
            }
            let one = if asked == 1 { "strategy" } else { "strategies" };
            // The game's own table, named so the fix can be typed as it stands.
            let table = *G::players_mut(&mut G::RulesFile::default());
            // A field lists each strategy once: with one named twice, seating them in turn
            // would be refused too.
            let repeated = seats.iter().enumerate().any(|(i, s)| seats[..i].contains(s));
            let turn = if repeated { "list each strategy once and give" } else { "give" };
            Err(if e.fault() == Fault::Players {
                InputError::with_fix(
                    format!("--seats names {asked} {one}, so {e}"),
                    format!("name one strategy per seat, or {turn} --players {table} to seat them in turn"),
                )
                .about(Fault::SeatCount)
            } else {
                e
            })
        }
        Err(e) => Err(e),
    }
}

fn default_rules<G: GameDef>() -> String {
    toml::to_string(&G::RulesFile::default()).unwrap_or_default()
}

/// The rules text `text` with the keys that depend on `key` brought into line
/// ([`GameRules::follow`]) and those keys, or `None` where nothing changed or the text does
/// not parse.
fn follow<G: GameDef>(text: &str, key: &str, named: &[&str]) -> Option<super::Followed> {
    let mut rules = G::RulesFile::from_toml(text).ok()?;
    let table = |r: &G::RulesFile| toml::Table::try_from(r).ok();
    let before = table(&rules)?;
    if !rules.follow(key, named) {
        return None;
    }
    let after = table(&rules)?;
    let moved = after.iter().filter(|(k, v)| before.get(*k) != Some(*v)).map(|(k, _)| k.clone()).collect();
    Some((toml::to_string(&rules).ok()?, moved))
}

fn random_rules<G: GameDef>(seed: u64) -> String {
    toml::to_string(&G::random_rules(seed)).unwrap_or_default()
}

fn listing<G: GameDef>() -> Vec<(String, String)> {
    presets::listing(G::PRESETS)
}

fn preset_text<G: GameDef>(name: &str) -> Result<String, InputError> {
    presets::preset_text(G::PRESETS, name, G::NAME)
}

fn preset_in_full<G: GameDef>(name: &str) -> Result<toml::Table, InputError> {
    let preset = G::load_preset(name)?;
    toml::Table::try_from(&preset)
        .map_err(|e| InputError::new(format!("{name}: its parameters do not print as TOML: {e}")))
}

fn default_seats<G: GameDef>(players: usize) -> Vec<String> {
    presets::mix_seats(G::DEFAULT_MIX, players)
}

/// The seats named, as a table seats them: each a heuristic preset, the search bot, a
/// trained policy or an outside program, by name or path (for tests and benchmarks that
/// play decision points).
pub fn seat_bots<G: GameDef>(names: &[&str], players: usize) -> Result<Vec<SeatBot<G::State>>, InputError> {
    names.iter().map(|name| Ok(SeatBot::new(name, &load_strategy::<G>(name)?, players, G::bot))).collect()
}

/// `count` states just before a decision (one in `every` decisions taken at random), from
/// units of the default rules played by the default seats: for tests and benchmarks of the
/// search, with the rules they need.
pub fn default_points<G: GameDef>(seed: u64, count: usize, every: u32) -> (VariantOf<G>, Vec<G::State>) {
    let rules = G::compile(&G::RulesFile::default()).expect("the default rules are valid");
    let names = default_seats::<G>(G::players(&rules));
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut bots = seat_bots::<G>(&names, G::players(&rules)).expect("the default seats load");
    let points = search::leaks::decision_points(&rules, &mut bots, seed, count, every);
    (rules, points)
}

impl GameInfo {
    /// The registry entry of game `G`.
    pub const fn of<G: GameDef>() -> GameInfo {
        GameInfo {
            name: G::NAME,
            title: G::TITLE,
            description: G::DESCRIPTION,
            rules_help: <G::RulesFile as GameRules>::HELP,
            rule_steps: <G::RulesFile as GameRules>::STEPS,
            default_rules: default_rules::<G>,
            presets: listing::<G>,
            preset_text: preset_text::<G>,
            preset_in_full: preset_in_full::<G>,
            random_rules: random_rules::<G>,
            follow: follow::<G>,
            default_seats: default_seats::<G>,
            build: build::<G>,
            rewinds: <G::State as Forward>::REWINDS,
            view_legend: G::VIEW_LEGEND,
            undecided_rules: G::UNDECIDED_RULES,
        }
    }
}

/// The events of a unit kept for its telling, each also handed to `say` as it happens.
struct News<E, F: Fn(&E)> {
    events: Vec<E>,
    say: F,
}

impl<E, F: Fn(&E)> crate::sim::EventSink<E> for News<E, F> {
    // The account goes to a seat at the table: the other players' reasons stay theirs.
    const NOTES: bool = false;
    fn event(&mut self, event: E) {
        (self.say)(&event);
        self.events.push(event);
    }
}

#[cfg(test)]
mod tests {
    use crate::study::optimise::toml_at;

    /// A preset in full holds the parameters its file leaves at their defaults, typed as the
    /// preset declares them, so a search over one knows it is a real.
    #[test]
    fn a_preset_in_full_writes_its_defaults() {
        let info = crate::games::find("seven-card-draft").unwrap();
        let written: toml::Table = toml::from_str(&(info.preset_text)("hate").unwrap()).unwrap();
        assert_eq!(toml_at(&written, "bet.respect"), None);
        let full = (info.preset_in_full)("hate").unwrap();
        assert!(matches!(toml_at(&full, "bet.respect"), Some(toml::Value::Float(_))), "{full}");
        assert!(matches!(toml_at(&full, "bet.fold_below[2]"), Some(toml::Value::Float(_))), "{full}");
        assert_eq!(toml_at(&full, "draft.module"), Some(toml::Value::String("hate".into())));
    }

    /// Commands blame their own flags by what a refusal is about, never by its words: every
    /// game marks a refused player count, and a seat list that set it, so.
    #[test]
    fn every_game_marks_what_its_refusals_are_about() {
        use crate::error::Fault;
        for info in crate::games::GAMES {
            let at = |players, seats: Option<&[String]>| (info.build)(None, players, seats).err().map(|e| e.fault());
            assert_eq!(at(Some(9), None), Some(Fault::Players), "{}", info.name);
            assert_eq!(at(None, Some(&["random".to_string()])), Some(Fault::SeatCount), "{}", info.name);
            let (_, mut seats) = info.with_defaults().unwrap();
            seats[0] = "no-such-preset".into();
            assert_eq!(at(None, Some(&seats)), Some(Fault::UnknownStrategy), "{}", info.name);
            seats[0] = "tight{".into();
            assert_eq!(at(None, Some(&seats)), Some(Fault::UnknownStrategy), "{}", info.name);
        }
    }
}
