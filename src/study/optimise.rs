//! The optimiser behind `tune` (rules options) and `exploit` (a preset's parameters):
//! candidates drawn by Latin hypercube, raced by successive halving on common random
//! numbers (every candidate alive at a rung plays the same deals), refined locally around
//! the leaders, then the winner and runners-up re-evaluated on held-out seeds that the
//! search never used. Every evaluation is kept in a [`OptimiserState`], so a search stopped
//! part way and started again with the same state gives the same result.

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

use crate::error::{Error, InputError};
use crate::sim::mix_seed;
use crate::stats::Estimate;

/// The values one parameter may take.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Range {
    /// Real numbers from `lo` to `hi`, written to 4 decimals.
    Float {
        /// Lowest value.
        lo: f64,
        /// Highest value.
        hi: f64,
    },
    /// Integers from `lo` to `hi` inclusive.
    Int {
        /// Lowest value.
        lo: i64,
        /// Highest value.
        hi: i64,
    },
    /// One of these values (TOML text: numbers, strings, lists).
    Choice(Vec<String>),
}

/// One searched parameter: a rules key, or a preset path such as `draft.weight` or
/// `bet.fold_below[0]` (an element of a per-round vector).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// The key or path.
    pub name: String,
    /// Its values.
    pub range: Range,
}

impl Param {
    /// Parses `NAME=LO..HI` (a range: integers when both ends are) or `NAME=A,B,C` (choices).
    pub fn parse(text: &str) -> Result<Param, InputError> {
        let bad = || {
            InputError::new(format!(
                "--param '{text}': write NAME=LO..HI or NAME=A,B,C, e.g. weight=0.0..1.0 (reals) or deal_size=5..9 (integers)"
            ))
        };
        let (name, values) = text.split_once('=').ok_or_else(bad)?;
        let name = name.trim().to_string();
        if name.is_empty() {
            return Err(bad());
        }
        if let Some((lo, hi)) = values.split_once("..") {
            let (lo, hi) = (lo.trim(), hi.trim());
            // Two numbers the wrong way round are a range backwards, not a malformed one.
            if let (Ok(l), Ok(h)) = (lo.parse::<f64>(), hi.parse::<f64>())
                && l > h
            {
                return Err(InputError::new(format!(
                    "--param '{text}': the range runs backwards; write {name}={hi}..{lo}"
                )));
            }
            return Param::range(name, lo, hi).ok_or_else(bad);
        }
        let choices = crate::games::presets::split_top(values, ',');
        if choices.is_empty() {
            return Err(bad());
        }
        Ok(Param { name, range: Range::Choice(choices) })
    }

    /// A range from its ends as text; `None` unless both are numbers with lo <= hi.
    fn range(name: String, lo: &str, hi: &str) -> Option<Param> {
        let range = match (lo.parse::<i64>(), hi.parse::<i64>()) {
            (Ok(lo), Ok(hi)) => Range::Int { lo, hi },
            _ => Range::Float { lo: lo.parse().ok()?, hi: hi.parse().ok()? },
        };
        let ordered = match range {
            Range::Int { lo, hi } => lo <= hi,
            Range::Float { lo, hi } => lo <= hi && lo.is_finite() && hi.is_finite(),
            Range::Choice(_) => true,
        };
        ordered.then_some(Param { name, range })
    }

    /// The parameter as a range of reals where its key holds a real (`declared` gives the
    /// value a path holds, `bet.fold_below[0]` an element of a list): `weight=0..2` then
    /// searches between the whole numbers too.
    pub fn real_where_declared(self, declared: &dyn Fn(&str) -> Option<toml::Value>) -> Param {
        match self.range {
            Range::Int { lo, hi } if matches!(declared(&self.name), Some(toml::Value::Float(_))) => {
                Param { range: Range::Float { lo: lo as f64, hi: hi as f64 }, ..self }
            }
            _ => self,
        }
    }

    /// Reads a `[space]` entry of a search file: `[lo, hi]` numbers for a range, any other
    /// list (or `{ choices = [...] }`) for choices.
    pub fn from_toml(name: &str, value: &toml::Value) -> Result<Param, InputError> {
        let bad = || {
            InputError::new(format!(
                "space.{name}: write [lo, hi] for a range or {{ choices = [...] }} (or a list of strings) for choices"
            ))
        };
        let text = |v: &toml::Value| match v {
            toml::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        match value {
            toml::Value::Array(items) if items.len() == 2 && items.iter().all(|v| v.is_integer() || v.is_float()) => {
                Param::range(name.to_string(), &text(&items[0]), &text(&items[1])).ok_or_else(bad)
            }
            toml::Value::Array(items) if !items.is_empty() => {
                Ok(Param { name: name.to_string(), range: Range::Choice(items.iter().map(text).collect()) })
            }
            toml::Value::Table(t) => match t.get("choices") {
                Some(toml::Value::Array(items)) if !items.is_empty() && t.len() == 1 => {
                    Ok(Param { name: name.to_string(), range: Range::Choice(items.iter().map(text).collect()) })
                }
                _ => Err(bad()),
            },
            _ => Err(bad()),
        }
    }

    /// The parameter as `--param` writes it: `NAME=LO..HI` or `NAME=A,B,C`.
    pub fn as_given(&self) -> String {
        match &self.range {
            Range::Float { lo, hi } => format!("{}={lo}..{hi}", self.name),
            Range::Int { lo, hi } => format!("{}={lo}..{hi}", self.name),
            Range::Choice(c) => format!("{}={}", self.name, c.join(",")),
        }
    }

    /// The value at unit coordinate `u` in [0, 1], as TOML text.
    fn value_at(&self, u: f64) -> String {
        let u = u.clamp(0.0, 1.0);
        match &self.range {
            Range::Float { lo, hi } => {
                let v = ((lo + u * (hi - lo)) * 1e4).round() / 1e4;
                format!("{v}")
            }
            Range::Int { lo, hi } => {
                let span = (hi - lo + 1) as f64;
                (lo + ((u * span).floor() as i64).min(hi - lo)).to_string()
            }
            Range::Choice(c) => c[((u * c.len() as f64).floor() as usize).min(c.len() - 1)].clone(),
        }
    }

    /// The unit coordinate at the middle of `value`'s cell (the inverse of `value_at`).
    fn unit_of(&self, value: &str) -> f64 {
        match &self.range {
            Range::Float { lo, hi } if hi > lo => (value.parse::<f64>().unwrap_or(*lo) - lo) / (hi - lo),
            Range::Float { .. } => 0.5,
            Range::Int { lo, hi } => {
                (value.parse::<i64>().unwrap_or(*lo) - lo) as f64 / (hi - lo + 1) as f64 + 0.5 / (hi - lo + 1) as f64
            }
            Range::Choice(c) => (c.iter().position(|x| x == value).unwrap_or(0) as f64 + 0.5) / c.len() as f64,
        }
    }
}

/// A candidate: one value (TOML text) per parameter, in the space's order.
pub type Setting = Vec<(String, String)>;

/// A setting as `key=value` pairs, space-separated.
pub fn describe_setting(setting: &Setting) -> String {
    setting.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
}

/// What a search evaluates: plays a candidate and scores what it played.
pub trait Evaluator {
    /// What one play returns; samples of a candidate merge exactly (integer sums).
    type Sample: Clone + Serialize + for<'de> Deserialize<'de>;
    /// Plays `rounds` units of `setting` on `seed`.
    fn play(&self, setting: &Setting, seed: u64, rounds: u64) -> Result<Self::Sample, Error>;
    /// Adds `more` to `into`.
    fn merge(&self, into: &mut Self::Sample, more: &Self::Sample);
    /// The objective (lower is better) with its 95% interval, from merged samples.
    fn score(&self, sample: &Self::Sample) -> Estimate;
    /// Rounds a sample holds.
    fn rounds(&self, sample: &Self::Sample) -> u64;
    /// Whether a sample meets every constraint of the objective (at its estimates' means);
    /// the held-out winner is a candidate that does, when one does.
    fn feasible(&self, _sample: &Self::Sample) -> bool {
        true
    }
    /// Checks that `setting` makes a table, without playing: bad values are refused before
    /// the search starts rather than when a candidate happens to draw them.
    fn check_setting(&self, _setting: &Setting) -> Result<(), InputError> {
        Ok(())
    }
    /// Whether the empty setting (the rules or the preset as given) is a starting point to
    /// hold out beside the winner, so the result says whether the search found better.
    fn has_starting_point(&self) -> bool {
        false
    }
}

/// Checks a search space before any play: every parameter at each end of its range, at a
/// value between (a real range draws fractions) and at each of its choices, the others at
/// their middles.
/// A refusal names the parameter to blame as it was given, and the value that failed.
pub fn check_space<E: Evaluator>(evaluator: &E, params: &[Param]) -> Result<(), Error> {
    let middle: Setting = params.iter().map(|p| (p.name.clone(), p.value_at(0.5))).collect();
    let told = describe_setting;
    if let Err(e) = evaluator.check_setting(&middle) {
        // The one to blame where one fails alone; else the combination.
        for (i, p) in params.iter().enumerate() {
            let alone = vec![middle[i].clone()];
            if let Err(e) = evaluator.check_setting(&alone) {
                return Err(e.context(format!("--param {}, at {}", p.as_given(), told(&alone))).into());
            }
        }
        let given: Vec<String> = params.iter().map(Param::as_given).collect();
        return Err(e.context(format!("--param {} together, at {}", given.join(" "), told(&middle))).into());
    }
    for (i, p) in params.iter().enumerate() {
        let units: Vec<f64> = match &p.range {
            Range::Float { .. } => vec![0.0, 0.3719, 1.0],
            Range::Int { .. } => vec![0.0, 1.0],
            Range::Choice(c) => (0..c.len()).map(|k| (k as f64 + 0.5) / c.len() as f64).collect(),
        };
        for u in units {
            let mut setting = middle.clone();
            setting[i].1 = p.value_at(u);
            let others = if params.len() > 1 { format!(" (the others at {})", told(&middle)) } else { String::new() };
            evaluator
                .check_setting(&setting)
                .map_err(|e| e.context(format!("--param {}, at {}={}{others}", p.as_given(), p.name, setting[i].1)))?;
        }
    }
    Ok(())
}

/// How much to search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptimiserConfig {
    /// The search's seed: candidates and every deal derive from it.
    pub seed: u64,
    /// Units of play for the whole search, held-out evaluation included.
    pub budget: u64,
    /// Candidates drawn at the start.
    pub candidates: usize,
    /// Runners-up re-evaluated on held-out seeds beside the winner.
    pub runners_up: usize,
}

/// Shares of the budget, in percent: racing, refinement, held-out.
const RACE_SHARE: u64 = 60;
const REFINE_SHARE: u64 = 25;
const HELD_OUT_SHARE: u64 = 15;
/// Refinement steps, and the entrants of each: two leaders and four neighbours each.
const REFINE_STEPS: u64 = 2;
const REFINE_ENTRANTS: u64 = 2 + 2 * 4;

/// How each stage's share of the budget is divided: the race's rungs, and the number of
/// evaluations each stage's share is split into (the race's at its first rung, whose
/// evaluations are the shortest).
struct Stages {
    rungs: u64,
    race: u64,
    refine: u64,
    held_out: u64,
}

impl Stages {
    fn new(candidates: usize, runners_up: usize) -> Stages {
        // The race as it will run: every live candidate plays rung r for 2^r units, and
        // each rung halves the field until two are left; its share is split over exactly
        // those units, so a small space (few distinct candidates) spends it all too.
        let (mut alive, mut rungs, mut race) = (candidates.max(2), 0, 0);
        loop {
            race += (alive as u64) << rungs;
            rungs += 1;
            if alive <= 2 {
                break;
            }
            alive = alive.div_ceil(2).max(2);
        }
        Stages { rungs, race, refine: REFINE_STEPS * REFINE_ENTRANTS, held_out: (runners_up as u64).saturating_add(1) }
    }
}

/// The smallest budget under which every evaluation of the search plays at least
/// `per_evaluation` rounds; `starting_point` where the evaluator holds one out too.
pub fn smallest_budget(candidates: usize, runners_up: usize, starting_point: bool, per_evaluation: u64) -> u64 {
    let s = Stages::new(candidates, runners_up);
    let held_out = s.held_out + u64::from(starting_point);
    [(RACE_SHARE, s.race), (REFINE_SHARE, s.refine), (HELD_OUT_SHARE, held_out)]
        .into_iter()
        .map(|(share, parts)| (100 * per_evaluation * parts).div_ceil(share))
        .max()
        .unwrap_or(per_evaluation)
}

/// The candidates a search of `asked` draws over `params` from `seed`, each once: a small
/// discrete space gives fewer than asked.
fn distinct_settings(params: &[Param], asked: usize, seed: u64) -> Vec<Setting> {
    let mut settings: Vec<Setting> = Vec::new();
    for setting in latin_hypercube(params, asked.max(2), seed) {
        if !settings.contains(&setting) {
            settings.push(setting);
        }
    }
    settings
}

/// How many distinct candidates a search of `asked` over `params` from `seed` races, which
/// its budget is planned on.
pub fn distinct_candidates(params: &[Param], asked: usize, seed: u64) -> usize {
    distinct_settings(params, asked, seed).len()
}

/// The rounds of an evaluation at the race's first rung under `budget`: most of the search's
/// evaluations are a few times this.
pub fn first_rung_rounds(budget: u64, candidates: usize, runners_up: usize) -> u64 {
    (budget * RACE_SHARE / 100 / Stages::new(candidates, runners_up).race).max(1)
}

/// Stream tags that keep the search's seeds and the held-out seeds apart.
const RACE_STREAM: u64 = 0x5EA2C4;
const REFINE_STREAM: u64 = 0x2EF1E;
const HELD_OUT_STREAM: u64 = 0x4E1D;
const DRAW_STREAM: u64 = 0xD2A3;

/// Every evaluation done so far, by (candidate, seed, rounds): a resumed search replays
/// the same steps and finds them here instead of playing them again.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct OptimiserState<S> {
    /// The search these evaluations belong to (checked on resume).
    pub fingerprint: String,
    /// Samples by key `candidate|seed|rounds`.
    pub samples: BTreeMap<String, S>,
}

/// One candidate's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateResult {
    /// Its setting.
    pub setting: Setting,
    /// How far it went: `race 0`, `race 1`, ..., `refine 1`, ...
    pub stage: String,
    /// Rounds it played in the search.
    pub rounds: u64,
    /// The in-search estimate at its last stage (on that stage's common seeds).
    pub estimate: Estimate,
    /// Held-out estimate (fresh seeds), for the winner and runners-up.
    pub held_out: Option<Estimate>,
    /// Rank among the held-out (1 = the winner), 0 for the others.
    pub rank: usize,
    /// Whether it meets the objective's constraints: on its held-out figures when it was
    /// held out, else at its last stage.
    pub constraint_met: bool,
}

/// A finished search.
#[derive(Clone, Debug)]
pub struct OptimiserResult {
    /// Every candidate, in the order first played.
    pub candidates: Vec<CandidateResult>,
    /// The winner's index in `candidates`.
    pub best: usize,
    /// Convergence: (rounds spent, the best in-search estimate so far, whether its
    /// candidate met every constraint there).
    pub trace: Vec<(u64, Estimate, bool)>,
    /// Seeds the search played (racing and refinement).
    pub search_seeds: Vec<u64>,
    /// Seeds the held-out evaluation played.
    pub held_out_seeds: Vec<u64>,
    /// Rounds each held-out candidate played.
    pub held_out_rounds: u64,
    /// The starting point, no parameter changed (the rules or the preset as given), on the
    /// same held-out deals, and whether it meets the constraints there (see
    /// [`Evaluator::has_starting_point`]).
    pub as_given: Option<(Estimate, bool)>,
}

/// The key of one evaluation in a [`OptimiserState`].
pub fn sample_key(setting: &Setting, seed: u64, rounds: u64) -> String {
    let text: Vec<String> = setting.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("{}|{seed}|{rounds}", text.join(";"))
}

/// Called with the state after each new evaluation (to write it where a resumed search
/// finds it).
pub type Save<'a, S> = dyn FnMut(&OptimiserState<S>) -> Result<(), Error> + 'a;

/// Progress: (rounds spent, budget, what is playing).
pub type OnStep<'a> = dyn FnMut(u64, u64, &str) + 'a;

/// Runs the search over `params` (at least one). `save` is called after each new
/// evaluation with the state, so an interruption loses at most one evaluation.
pub fn optimise<E: Evaluator>(
    evaluator: &E,
    params: &[Param],
    config: &OptimiserConfig,
    state: &mut OptimiserState<E::Sample>,
    save: &mut Save<'_, E::Sample>,
    on_step: &mut OnStep<'_>,
) -> Result<OptimiserResult, Error> {
    if params.is_empty() {
        return Err(
            InputError::new("give at least one parameter to search (--param NAME=LO..HI or a [space] table)").into()
        );
    }

    let mut run = Run {
        evaluator,
        state,
        save,
        on_step,
        spent: 0,
        budget: config.budget,
        best: f64::INFINITY,
        trace: Vec::new(),
    };
    let mut candidates: Vec<Candidate<E::Sample>> =
        distinct_settings(params, config.candidates, config.seed).into_iter().map(Candidate::new).collect();
    let mut search_seeds = Vec::new();
    // Planned on the distinct candidates: a small discrete space draws fewer than asked.
    let stages = Stages::new(candidates.len(), config.runners_up);
    let (rungs, refine_steps, held) = (stages.rungs, REFINE_STEPS, stages.held_out);
    let race_unit = first_rung_rounds(config.budget, candidates.len(), config.runners_up);
    let refine_share = config.budget * REFINE_SHARE / 100 / refine_steps;

    // Racing: at rung r every live candidate plays the rung's seed for race_unit * 2^r
    // rounds; its estimate merges its rungs, which every live candidate shares.
    let mut alive: Vec<usize> = (0..candidates.len()).collect();
    for r in 0..rungs {
        let seed = mix_seed(config.seed, r, RACE_STREAM);
        search_seeds.push(seed);
        let label = format!("race {r}");
        for &i in &alive {
            let sample = run.play(&candidates[i].setting, seed, race_unit << r, &label)?;
            let e = candidates[i].add(evaluator, sample, &label, false);
            run.note(e, candidates[i].feasible);
        }
        alive.sort_by(|&a, &b| order(&candidates[a], &candidates[b]));
        if alive.len() <= 2 {
            break;
        }
        alive.truncate(alive.len().div_ceil(2).max(2));
    }

    // Refinement: the two leaders and four neighbours of each, all on one fresh seed per
    // step (compared on that seed alone), the neighbourhood shrinking each step.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix_seed(config.seed, 1, DRAW_STREAM));
    let mut leaders: Vec<usize> = alive.iter().take(2).copied().collect();
    // Every candidate refinement played, each judged by its own last step's seed.
    let mut refined: Vec<usize> = Vec::new();
    for step in 0..refine_steps {
        let seed = mix_seed(config.seed, step, REFINE_STREAM);
        search_seeds.push(seed);
        let label = format!("refine {}", step + 1);
        let scale = 0.15 / (1u64 << step) as f64;
        let mut entrants = leaders.clone();
        for &l in &leaders {
            for _ in 0..4 {
                let setting = neighbour(params, &candidates[l].setting, scale, &mut rng);
                let i = match candidates.iter().position(|c| c.setting == setting) {
                    Some(i) => i,
                    None => {
                        candidates.push(Candidate::new(setting));
                        candidates.len() - 1
                    }
                };
                if !entrants.contains(&i) {
                    entrants.push(i);
                }
            }
        }
        // The step's share split among its entrants: fewer where neighbours repeat.
        let refine_rounds = (refine_share / entrants.len() as u64).max(1);
        for &i in &entrants {
            let sample = run.play(&candidates[i].setting, seed, refine_rounds, &label)?;
            let e = candidates[i].add(evaluator, sample, &label, true);
            run.note(e, candidates[i].feasible);
            if !refined.contains(&i) {
                refined.push(i);
            }
        }
        entrants.sort_by(|&a, &b| order(&candidates[a], &candidates[b]));
        leaders = entrants;
        if step + 1 < refine_steps {
            leaders.truncate(2);
        }
    }

    // Held-out: the best few of every candidate refinement played (by its last step's
    // figure: a neighbour that led one step and was not carried on is not dropped), on seeds
    // the search never played; the winner is the best on those figures (the search
    // proposes, fresh deals decide).
    if !refined.is_empty() {
        refined.sort_by(|&a, &b| order(&candidates[a], &candidates[b]));
        leaders = refined;
    }
    // Where refinement played fewer than --runners-up asks (a small space whose neighbours
    // repeat), the race's best of the rest make up the number.
    if leaders.len() < held as usize {
        let mut rest: Vec<usize> = (0..candidates.len()).filter(|i| !leaders.contains(i)).collect();
        rest.sort_by(|&a, &b| order(&candidates[a], &candidates[b]));
        leaders.extend(rest);
    }
    let mut held_out_seeds = Vec::new();
    let mut held_out: Vec<(usize, Estimate, bool)> = Vec::new();
    // One held-out seed for all of them, so they are compared on common deals too.
    let seed = mix_seed(config.seed, 0, HELD_OUT_STREAM);
    held_out_seeds.push(seed);
    // The held-out share is split among those actually held out and the starting point:
    // fewer candidates than --runners-up asks for each get more deals, not the same few.
    let given = u64::from(evaluator.has_starting_point());
    let taken = leaders.len().min(held as usize).max(1) as u64 + given;
    let held_rounds = (config.budget * HELD_OUT_SHARE / 100 / taken).max(1);
    for &i in leaders.iter().take(held as usize) {
        let sample = run.play(&candidates[i].setting, seed, held_rounds, "held-out")?;
        held_out.push((i, evaluator.score(&sample), evaluator.feasible(&sample)));
    }
    // What the user starts from, on the same deals: a best that does no better than it has
    // found nothing.
    let as_given = if given == 1 {
        let sample = run.play(&Setting::new(), seed, held_rounds, "held-out, as given")?;
        Some((evaluator.score(&sample), evaluator.feasible(&sample)))
    } else {
        None
    };
    // A candidate that meets the constraints beats one that does not, whatever the scores:
    // the penalty alone may not separate them when a shortfall is small.
    held_out.sort_by(|a, b| b.2.cmp(&a.2).then(a.1.mean.total_cmp(&b.1.mean)).then(a.0.cmp(&b.0)));
    (run.on_step)(run.spent, run.budget, "");
    let trace = run.trace;
    let nan = Estimate { mean: f64::NAN, lo: f64::NAN, hi: f64::NAN };
    let mut results: Vec<CandidateResult> = candidates
        .into_iter()
        .map(|c| CandidateResult {
            setting: c.setting,
            stage: c.stage,
            rounds: c.rounds,
            estimate: c.estimate.unwrap_or(nan),
            held_out: None,
            rank: 0,
            constraint_met: c.feasible,
        })
        .collect();
    for (rank, (i, e, feasible)) in held_out.iter().enumerate() {
        results[*i].held_out = Some(*e);
        results[*i].rank = rank + 1;
        results[*i].constraint_met = *feasible;
    }
    Ok(OptimiserResult {
        best: held_out[0].0,
        candidates: results,
        trace,
        search_seeds,
        held_out_seeds,
        held_out_rounds: held_rounds,
        as_given,
    })
}

/// The value at `path` in `table`: keys between dots, `[k]` for a list's element.
pub fn toml_at(table: &toml::Table, path: &str) -> Option<toml::Value> {
    let first = path.split(['.', '[']).next()?;
    let mut at = table.get(first)?;
    let mut rest = &path[first.len()..];
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let key = r.split(['.', '[']).next()?;
            at = at.as_table()?.get(key)?;
            rest = &r[key.len()..];
        } else {
            let (index, r) = rest.strip_prefix('[')?.split_once(']')?;
            at = at.as_array()?.get(index.parse::<usize>().ok()?)?;
            rest = r;
        }
    }
    Some(at.clone())
}

/// A candidate during the search.
struct Candidate<S> {
    setting: Setting,
    /// The last stage it played.
    stage: String,
    /// Its sample at that stage (racing merges its rungs; refinement is one seed).
    sample: Option<S>,
    estimate: Option<Estimate>,
    /// Whether its sample at that stage meets the constraints.
    feasible: bool,
    /// Rounds played over every stage.
    rounds: u64,
}

impl<S: Clone> Candidate<S> {
    fn new(setting: Setting) -> Candidate<S> {
        Candidate { setting, stage: String::new(), sample: None, estimate: None, feasible: true, rounds: 0 }
    }

    /// Adds a stage's play; `fresh` starts the estimate over (a new stage's own seed).
    fn add<E: Evaluator<Sample = S>>(&mut self, evaluator: &E, sample: S, stage: &str, fresh: bool) -> Estimate {
        self.rounds += evaluator.rounds(&sample);
        match (&mut self.sample, fresh) {
            (Some(into), false) => evaluator.merge(into, &sample),
            _ => self.sample = Some(sample),
        }
        let sample = self.sample.as_ref().expect("set above");
        let e = evaluator.score(sample);
        self.feasible = evaluator.feasible(sample);
        self.stage = stage.to_string();
        self.estimate = Some(e);
        e
    }
}

/// Lower estimate first; NaN last; ties by setting text so the order is total.
fn order<S>(a: &Candidate<S>, b: &Candidate<S>) -> std::cmp::Ordering {
    let key =
        |c: &Candidate<S>| c.estimate.map_or(f64::INFINITY, |e| if e.mean.is_nan() { f64::INFINITY } else { e.mean });
    key(a).total_cmp(&key(b)).then_with(|| a.setting.cmp(&b.setting))
}

/// The search's bookkeeping: the cache of evaluations, rounds spent, the trace.
struct Run<'a, E: Evaluator> {
    evaluator: &'a E,
    state: &'a mut OptimiserState<E::Sample>,
    save: &'a mut Save<'a, E::Sample>,
    on_step: &'a mut OnStep<'a>,
    spent: u64,
    budget: u64,
    best: f64,
    trace: Vec<(u64, Estimate, bool)>,
}

impl<E: Evaluator> Run<'_, E> {
    /// Plays (or finds in the state) one evaluation.
    fn play(&mut self, setting: &Setting, seed: u64, rounds: u64, label: &str) -> Result<E::Sample, Error> {
        let text: Vec<String> = setting.iter().map(|(k, v)| format!("{k}={v}")).collect();
        (self.on_step)(self.spent, self.budget, &format!("{label}: {}", text.join(" ")));
        let key = sample_key(setting, seed, rounds);
        let sample = match self.state.samples.get(&key) {
            Some(s) => s.clone(),
            None => {
                let s = self.evaluator.play(setting, seed, rounds)?;
                self.state.samples.insert(key, s.clone());
                (self.save)(self.state)?;
                s
            }
        };
        self.spent += self.evaluator.rounds(&sample);
        Ok(sample)
    }

    /// Records an in-search estimate on the convergence trace when it is the best yet.
    fn note(&mut self, e: Estimate, feasible: bool) {
        if e.mean < self.best {
            self.best = e.mean;
            self.trace.push((self.spent, e, feasible));
        }
    }
}

/// `n` settings by Latin hypercube: each parameter's range cut in `n` strata, one draw in
/// each, the strata shuffled independently per parameter.
fn latin_hypercube(params: &[Param], n: usize, seed: u64) -> Vec<Setting> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix_seed(seed, 0, DRAW_STREAM));
    let columns: Vec<Vec<f64>> = params
        .iter()
        .map(|_| {
            let mut strata: Vec<usize> = (0..n).collect();
            rand::seq::SliceRandom::shuffle(strata.as_mut_slice(), &mut rng);
            strata.iter().map(|&s| (s as f64 + rng.random::<f64>()) / n as f64).collect()
        })
        .collect();
    (0..n).map(|i| params.iter().zip(&columns).map(|(p, c)| (p.name.clone(), p.value_at(c[i]))).collect()).collect()
}

/// A setting near `from`: numbers moved by a normal step of `scale` (in unit coordinates),
/// each choice switched to a random one with probability `2 * scale`.
fn neighbour(params: &[Param], from: &Setting, scale: f64, rng: &mut Xoshiro256PlusPlus) -> Setting {
    params
        .iter()
        .zip(from)
        .map(|(p, (name, value))| {
            let u = p.unit_of(value);
            let v = match p.range {
                Range::Choice(_) if rng.random::<f64>() < 2.0 * scale => p.value_at(rng.random()),
                Range::Choice(_) => value.clone(),
                _ => {
                    let z: f64 = rng.sample(rand_distr::StandardNormal);
                    p.value_at(u + scale * z)
                }
            };
            (name.clone(), v)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;
    use crate::stats::mean_interval;

    /// A planted objective: (x - 0.3)^2 + (y == "b" ? 0 : 0.05) plus noise that depends on
    /// the seed and round only (common random numbers), so its minimum is known.
    struct Planted {
        plays: Cell<usize>,
        fail_after: Option<usize>,
        seeds: std::cell::RefCell<Vec<u64>>,
        /// The fewest rounds any evaluation asked for.
        shortest: Cell<u64>,
        /// Whether the empty setting (x = 0.5, y = a) is held out too.
        start: bool,
    }

    #[derive(Clone, Default, Serialize, Deserialize)]
    struct Sums {
        n: u64,
        sum: f64,
        sum_sq: f64,
    }

    impl Evaluator for Planted {
        type Sample = Sums;
        fn play(&self, setting: &Setting, seed: u64, rounds: u64) -> Result<Sums, Error> {
            if self.fail_after.is_some_and(|n| self.plays.get() >= n) {
                return Err(Error::Interrupted);
            }
            self.plays.set(self.plays.get() + 1);
            self.seeds.borrow_mut().push(seed);
            self.shortest.set(self.shortest.get().min(rounds));
            let x: f64 = setting.first().map_or(0.5, |(_, v)| v.parse().unwrap());
            let base = (x - 0.3).powi(2) + if setting.get(1).is_some_and(|(_, v)| v == "b") { 0.0 } else { 0.05 };
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut s = Sums { n: rounds, sum: 0.0, sum_sq: 0.0 };
            for _ in 0..rounds {
                let v = base + 0.2 * (rng.random::<f64>() - 0.5);
                s.sum += v;
                s.sum_sq += v * v;
            }
            Ok(s)
        }
        fn merge(&self, into: &mut Sums, more: &Sums) {
            into.n += more.n;
            into.sum += more.sum;
            into.sum_sq += more.sum_sq;
        }
        fn score(&self, s: &Sums) -> Estimate {
            mean_interval(s.n, s.sum, s.sum_sq)
        }
        fn rounds(&self, s: &Sums) -> u64 {
            s.n
        }
        fn has_starting_point(&self) -> bool {
            self.start
        }
    }

    fn planted(fail_after: Option<usize>) -> Planted {
        Planted {
            plays: Cell::new(0),
            fail_after,
            seeds: Default::default(),
            shortest: Cell::new(u64::MAX),
            start: false,
        }
    }

    fn space() -> Vec<Param> {
        vec![Param::parse("x=0.0..1.0").unwrap(), Param::parse("y=a,b,c").unwrap()]
    }

    fn config() -> OptimiserConfig {
        OptimiserConfig { seed: 7, budget: 200_000, candidates: 16, runners_up: 2 }
    }

    #[test]
    fn the_held_out_are_the_best_of_every_refined_candidate() {
        let mut earlier = 0;
        for seed in 0..12 {
            let e = planted(None);
            let mut state = OptimiserState::default();
            let config = OptimiserConfig { seed, ..config() };
            let r = optimise(&e, &space(), &config, &mut state, &mut |_| Ok(()), &mut |_, _, _| {}).unwrap();
            let c = &r.candidates;
            let mut refined: Vec<usize> = (0..c.len()).filter(|&i| c[i].stage.starts_with("refine")).collect();
            refined.sort_by(|&a, &b| c[a].estimate.mean.total_cmp(&c[b].estimate.mean));
            refined.truncate(config.runners_up + 1);
            refined.sort();
            let held: Vec<usize> = (0..c.len()).filter(|&i| c[i].held_out.is_some()).collect();
            assert_eq!(held, refined, "seed {seed}");
            let last = format!("refine {REFINE_STEPS}");
            earlier += usize::from(held.iter().any(|&i| c[i].stage != last));
        }
        // A candidate whose last step was an earlier one is held out too, at some seed.
        assert!(earlier > 0);
    }

    /// The search spends its budget, a small discrete space (four distinct candidates of
    /// sixteen asked, neighbours repeating) as well as a wide one.
    #[test]
    fn the_budget_is_spent_however_few_the_distinct_candidates() {
        let small = vec![Param::parse("x=0.2,0.3").unwrap(), Param::parse("y=a,b").unwrap()];
        for (params, distinct) in [(space(), 16..100), (small, 4..5)] {
            let spent = Cell::new(0);
            let r = optimise(
                &planted(None),
                &params,
                &config(),
                &mut OptimiserState::default(),
                &mut |_| Ok(()),
                &mut |s, _, _| spent.set(s),
            )
            .unwrap();
            assert!(distinct.contains(&r.candidates.len()), "{} candidates", r.candidates.len());
            let share = spent.get() as f64 / config().budget as f64;
            assert!(share > 0.9 && share <= 1.0, "{} candidates spent {share:.3} of the budget", r.candidates.len());
        }
    }

    /// More runners-up than refinement played: the race's candidates make up the number,
    /// up to every candidate the search played.
    #[test]
    fn runners_up_beyond_the_refined_come_from_the_race() {
        let e = planted(None);
        let config = OptimiserConfig { runners_up: 50, ..config() };
        let r = optimise(&e, &space(), &config, &mut OptimiserState::default(), &mut |_| Ok(()), &mut |_, _, _| {})
            .unwrap();
        let c = &r.candidates;
        let refined = c.iter().filter(|x| x.stage.starts_with("refine")).count();
        assert!(refined < c.len() && c.len() < 51, "{refined} refined of {}", c.len());
        assert!(c.iter().all(|x| x.held_out.is_some()));
    }

    #[test]
    fn finds_the_planted_optimum_and_holds_out_fresh_seeds() {
        let e = planted(None);
        let mut state = OptimiserState::default();
        let r = optimise(&e, &space(), &config(), &mut state, &mut |_| Ok(()), &mut |_, _, _| {}).unwrap();
        let best = &r.candidates[r.best];
        let x: f64 = best.setting[0].1.parse().unwrap();
        assert!((x - 0.3).abs() < 0.1, "x = {x}");
        assert_eq!(best.setting[1].1, "b");
        assert_eq!(best.rank, 1);
        assert!(best.held_out.unwrap().hi > best.held_out.unwrap().lo);
        assert!(r.held_out_seeds.iter().all(|s| !r.search_seeds.contains(s)));
        // The held-out seed was played only in the held-out stage: the last plays.
        let seeds = e.seeds.borrow();
        let held = config().runners_up + 1;
        assert!(seeds[..seeds.len() - held].iter().all(|s| !r.held_out_seeds.contains(s)));
        assert!(r.trace.windows(2).all(|w| w[1].1.mean < w[0].1.mean && w[1].0 >= w[0].0));
    }

    #[test]
    fn a_resumed_search_gives_the_uninterrupted_result() {
        let first = planted(None);
        let whole =
            optimise(&first, &space(), &config(), &mut OptimiserState::default(), &mut |_| Ok(()), &mut |_, _, _| {})
                .unwrap();
        let mut saved: OptimiserState<Sums> = OptimiserState::default();
        let mut keep = |s: &OptimiserState<Sums>| {
            saved = s.clone();
            Ok(())
        };
        let mut state = OptimiserState::default();
        let stopped = optimise(&planted(Some(13)), &space(), &config(), &mut state, &mut keep, &mut |_, _, _| {});
        assert!(matches!(stopped, Err(Error::Interrupted)));
        assert_eq!(saved.samples.len(), 13);
        // Through JSON, as the state file goes.
        let mut state: OptimiserState<Sums> = serde_json::from_str(&serde_json::to_string(&saved).unwrap()).unwrap();
        let resumed = planted(None);
        let r = optimise(&resumed, &space(), &config(), &mut state, &mut |_| Ok(()), &mut |_, _, _| {}).unwrap();
        assert_eq!(r.candidates, whole.candidates);
        assert_eq!(r.best, whole.best);
        assert_eq!(r.trace, whole.trace);
        assert_eq!(resumed.plays.get() + 13, first.plays.get());
    }

    /// More runners-up asked than candidates exist: the held-out share goes to those there
    /// are, not to slices sized for the ones missing.
    #[test]
    fn the_held_out_share_is_split_among_the_candidates_held_out() {
        let space = vec![Param::parse("x=0.3..0.3").unwrap(), Param::parse("y=b,c").unwrap()];
        let config = OptimiserConfig { runners_up: 100, ..config() };
        let r = optimise(
            &planted(None),
            &space,
            &config,
            &mut OptimiserState::default(),
            &mut |_| Ok(()),
            &mut |_, _, _| {},
        )
        .unwrap();
        let held = r.candidates.iter().filter(|c| c.held_out.is_some()).count() as u64;
        assert_eq!(held, 2);
        assert_eq!(r.held_out_rounds, config.budget * 15 / 100 / held);
    }

    /// The smallest budget gives every evaluation the rounds asked for, and one round less
    /// leaves some evaluation short.
    #[test]
    fn the_smallest_budget_gives_every_evaluation_its_rounds() {
        let cases = [(16, 2, 24, false), (2, 2, 24, false), (5, 0, 7, false), (64, 1, 2, false), (2, 12, 24, true)];
        for (candidates, runners_up, per, start) in cases {
            let least = smallest_budget(candidates, runners_up, start, per);
            for (budget, enough) in [(least, true), (least - 1, false)] {
                let e = Planted { start, ..planted(None) };
                let config = OptimiserConfig { budget, candidates, runners_up, ..config() };
                optimise(&e, &space(), &config, &mut OptimiserState::default(), &mut |_| Ok(()), &mut |_, _, _| {})
                    .unwrap();
                assert_eq!(e.shortest.get() >= per, enough, "{candidates} {runners_up} {per}: budget {budget}");
            }
        }
    }

    #[test]
    fn a_whole_range_over_a_real_key_is_searched_as_reals() {
        let preset: toml::Table =
            toml::from_str("[draft]\nweight = 0.5\nn = 3\n[bet]\nfold_below = [0.1, 0.2]\n").unwrap();
        let declared = |path: &str| toml_at(&preset, path);
        let real = |text: &str| Param::parse(text).unwrap().real_where_declared(&declared).range;
        assert_eq!(real("draft.weight=0..2"), Range::Float { lo: 0.0, hi: 2.0 });
        assert_eq!(real("bet.fold_below[1]=0..1"), Range::Float { lo: 0.0, hi: 1.0 });
        assert_eq!(real("draft.n=1..5"), Range::Int { lo: 1, hi: 5 });
        assert_eq!(real("draft.missing=1..5"), Range::Int { lo: 1, hi: 5 });
        assert_eq!(toml_at(&preset, "bet.fold_below[2]"), None);
    }

    #[test]
    fn params_parse_ranges_and_choices() {
        assert_eq!(Param::parse("n=2..9").unwrap().range, Range::Int { lo: 2, hi: 9 });
        assert_eq!(Param::parse("w=0..1.5").unwrap().range, Range::Float { lo: 0.0, hi: 1.5 });
        assert_eq!(
            Param::parse("b=[1,1,2],[2,2,4]").unwrap().range,
            Range::Choice(vec!["[1,1,2]".into(), "[2,2,4]".into()])
        );
        assert!(Param::parse("w=2..1").is_err() && Param::parse("w").is_err());
        let p = Param::parse("n=2..4").unwrap();
        assert_eq!([0.0, 0.34, 0.99, 1.0].map(|u| p.value_at(u)), ["2", "3", "4", "4"]);
        assert_eq!(p.value_at(p.unit_of("3")), "3");
        let t: toml::Table =
            toml::from_str("a = [1, 5]\nb = [0.5, 2.0]\nc = ['x', 'y']\nd = { choices = [1, 2] }").unwrap();
        assert_eq!(Param::from_toml("a", &t["a"]).unwrap().range, Range::Int { lo: 1, hi: 5 });
        assert_eq!(Param::from_toml("b", &t["b"]).unwrap().range, Range::Float { lo: 0.5, hi: 2.0 });
        assert_eq!(Param::from_toml("c", &t["c"]).unwrap().range, Range::Choice(vec!["x".into(), "y".into()]));
        assert_eq!(Param::from_toml("d", &t["d"]).unwrap().range, Range::Choice(vec!["1".into(), "2".into()]));
    }
}
