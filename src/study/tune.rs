//! `tune` and `exploit`: the optimiser bound to the games through their declared
//! measures. `tune` searches rules options toward an objective over the variant-level
//! metrics; `exploit` searches one preset's parameters for the best payoff against a field.

use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use crate::error::{Error, InputError};
use crate::games::GameInfo;
use crate::games::presets::derived_name;
use crate::sim::{Lineup, Measures, Mode, Plan, Tally, health_figures};
use crate::stats::Estimate;
use crate::study::optimise::{Evaluator, Setting, describe_setting};
use crate::study::sweep::{RulesBase, seats_for};

/// How one term's value is judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Term {
    /// Smaller is better.
    Minimize(String),
    /// Larger is better.
    Maximize(String),
    /// Closer to the value is better (absolute distance).
    Target(String, f64),
}

/// A constraint `metric >= bound` (or `<=`); a violated one costs [`PENALTY`] per unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Constraint {
    /// The metric.
    pub metric: String,
    /// `true` for `>=`, `false` for `<=`.
    pub at_least: bool,
    /// The bound.
    pub bound: f64,
}

/// What a constraint's violation costs per unit, so any feasible candidate beats any
/// infeasible one by a wide margin at the scale of the metrics draftsim reports.
pub const PENALTY: f64 = 1000.0;

/// An objective over a variant's metrics: a sum of terms plus penalties; lower is better.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Objective {
    /// The terms, summed.
    pub terms: Vec<Term>,
    /// The constraints.
    pub constraints: Vec<Constraint>,
}

impl Objective {
    /// Builds it from `--minimize`, `--maximize`, `--target NAME=V` and `--require 'NAME>=V'`.
    pub fn from_flags(
        minimize: &[String],
        maximize: &[String],
        targets: &[String],
        require: &[String],
    ) -> Result<Objective, InputError> {
        let mut o = Objective::default();
        o.terms.extend(minimize.iter().map(|m| Term::Minimize(m.trim().to_string())));
        o.terms.extend(maximize.iter().map(|m| Term::Maximize(m.trim().to_string())));
        for t in targets {
            let (name, value) = t
                .split_once('=')
                .and_then(|(n, v)| Some((n.trim(), v.trim().parse::<f64>().ok()?)))
                .ok_or_else(|| InputError::new(format!("--target '{t}': write NAME=VALUE, e.g. mean_length=12")))?;
            o.terms.push(Term::Target(name.to_string(), value));
        }
        for r in require {
            o.constraints.push(Constraint::parse(r)?);
        }
        Ok(o)
    }

    /// Adds the `[objective]` table of a search file: `minimize`, `maximize` (lists of
    /// names), `target` (a table of name = value) and `require` (list of "name >= v").
    pub fn add_toml(&mut self, table: &toml::Table) -> Result<(), InputError> {
        let names = |key: &str| -> Result<Vec<String>, InputError> {
            match table.get(key) {
                None => Ok(Vec::new()),
                // One name alone, as the flag takes it.
                Some(toml::Value::String(one)) => Ok(vec![one.clone()]),
                Some(toml::Value::Array(a)) => a
                    .iter()
                    .map(|v| v.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| InputError::new(format!("objective.{key}: write a name or a list of names"))),
                Some(_) => Err(InputError::new(format!("objective.{key}: write a name or a list of names"))),
            }
        };
        self.terms.extend(names("minimize")?.into_iter().map(Term::Minimize));
        self.terms.extend(names("maximize")?.into_iter().map(Term::Maximize));
        for r in names("require")? {
            self.constraints.push(Constraint::parse(&r)?);
        }
        if let Some(t) = table.get("target") {
            let t = t.as_table().ok_or_else(|| InputError::new("objective.target: write { name = value, ... }"))?;
            for (name, v) in t {
                let v = v
                    .as_float()
                    .or(v.as_integer().map(|i| i as f64))
                    .ok_or_else(|| InputError::new(format!("objective.target.{name}: give a number")))?;
                self.terms.push(Term::Target(name.clone(), v));
            }
        }
        for key in table.keys() {
            if !["minimize", "maximize", "require", "target"].contains(&key.as_str()) {
                return Err(InputError::new(format!(
                    "objective.{key}: unknown; use minimize, maximize, target or require"
                )));
            }
        }
        Ok(())
    }

    /// Every metric the objective reads.
    pub fn metrics(&self) -> Vec<&str> {
        let terms = self.terms.iter().map(|t| match t {
            Term::Minimize(m) | Term::Maximize(m) | Term::Target(m, _) => m.as_str(),
        });
        terms.chain(self.constraints.iter().map(|c| c.metric.as_str())).collect()
    }

    /// The objective's value with a 95% interval, from the metrics' estimates: the value
    /// ranked, penalties included. The terms' half-widths add in quadrature (as if
    /// independent); so does, on each side, how far a constraint's penalty moves when its
    /// metric moves to either end of its interval. The interval is that of the objective
    /// actually ranked: a candidate whose metric's interval crosses a bound has a penalty
    /// of zero at its mean but a wide upper end, and one well short of the bound has an
    /// interval a thousand times its metric's.
    pub fn evaluate(&self, metric: &dyn Fn(&str) -> Option<Estimate>) -> Estimate {
        let mut value = 0.0;
        let get = |name: &str| -> Estimate {
            metric(name).unwrap_or(Estimate { mean: f64::NAN, lo: f64::NAN, hi: f64::NAN })
        };
        // Each side of the interval on its own: a metric bounded below (a seat advantage of
        // 0 [0, 0.004]) keeps its one-sided interval, so one term gives its metric's.
        let (mut var_below, mut var_above) = (0.0, 0.0);
        for t in &self.terms {
            let e = match t {
                Term::Minimize(m) | Term::Maximize(m) | Term::Target(m, _) => get(m),
            };
            let (below, above) = (e.mean - e.lo, e.hi - e.mean);
            let (below, above) = match t {
                Term::Minimize(_) => {
                    value += e.mean;
                    (below, above)
                }
                Term::Maximize(_) => {
                    value -= e.mean;
                    (above, below)
                }
                Term::Target(_, v) => {
                    value += (e.mean - v).abs();
                    let h = e.half_width();
                    (h, h)
                }
            };
            var_below += below.powi(2);
            var_above += above.powi(2);
        }
        for c in &self.constraints {
            let e = get(&c.metric);
            let penalty = |x: f64| PENALTY * c.shortfall(x).max(0.0);
            let at_mean = penalty(e.mean);
            value += at_mean;
            let (a, b) = (penalty(e.lo), penalty(e.hi));
            if a.is_finite() && b.is_finite() {
                var_below += (at_mean - a.min(b)).powi(2);
                var_above += (a.max(b) - at_mean).powi(2);
            }
        }
        Estimate { mean: value, lo: value - var_below.sqrt(), hi: value + var_above.sqrt() }
    }

    /// Whether every constraint holds at the metrics' means (a missing metric counts as
    /// met, as it adds no penalty).
    pub fn met(&self, metric: &dyn Fn(&str) -> Option<Estimate>) -> bool {
        self.constraints.iter().all(|c| metric(&c.metric).is_none_or(|e| c.shortfall(e.mean).max(0.0) <= 0.0))
    }

    /// The constraints as written, e.g. `skill_gap >= 0.5 and mean_length <= 12`.
    pub fn constraints_text(&self) -> String {
        let parts: Vec<String> = self
            .constraints
            .iter()
            .map(|c| format!("{} {} {}", c.metric, if c.at_least { ">=" } else { "<=" }, c.bound))
            .collect();
        parts.join(" and ")
    }

    /// Whether every term maximises a figure: the objective is then shown with its sign
    /// turned back, as the figure itself (higher is better), though it is ranked minimised.
    pub fn maximises_only(&self) -> bool {
        !self.terms.is_empty() && self.terms.iter().all(|t| matches!(t, Term::Maximize(_)))
    }

    /// Which way the objective shown is better, in words.
    pub fn direction(&self) -> &'static str {
        if self.maximises_only() {
            "higher is better"
        } else if self.terms.iter().any(|t| matches!(t, Term::Maximize(_))) {
            "lower is better: a maximised figure counts with its sign turned"
        } else {
            "lower is better"
        }
    }

    /// One line: the objective as written.
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = self
            .terms
            .iter()
            .map(|t| match t {
                Term::Minimize(m) => format!("minimise {m}"),
                Term::Maximize(m) => format!("maximise {m}"),
                Term::Target(m, v) => format!("bring {m} to {v}"),
            })
            .collect();
        parts.extend(
            self.constraints
                .iter()
                .map(|c| format!("subject to {} {} {}", c.metric, if c.at_least { ">=" } else { "<=" }, c.bound)),
        );
        parts.join(", ")
    }
}

impl Constraint {
    /// How far `value` falls short of the bound (negative when it holds with room).
    pub fn shortfall(&self, value: f64) -> f64 {
        if self.at_least { self.bound - value } else { value - self.bound }
    }

    /// Parses `NAME>=V` or `NAME<=V`.
    pub fn parse(text: &str) -> Result<Constraint, InputError> {
        let bad =
            || InputError::new(format!("--require '{text}': write NAME>=VALUE or NAME<=VALUE, e.g. skill_gap>=5"));
        let (metric, bound, at_least) = if let Some((m, b)) = text.split_once(">=") {
            (m, b, true)
        } else if let Some((m, b)) = text.split_once("<=") {
            (m, b, false)
        } else {
            return Err(bad());
        };
        let bound: f64 = bound.trim().parse().map_err(|_| bad())?;
        if !bound.is_finite() {
            return Err(bad());
        }
        Ok(Constraint { metric: metric.trim().to_string(), at_least, bound })
    }

    /// Whether an estimate meets the limit: surely (its whole interval on the right side),
    /// surely not (its whole interval on the wrong side), or maybe (its interval crosses it).
    pub fn verdict(&self, e: &Estimate) -> Verdict {
        let (lo, hi) = if self.at_least { (e.lo, e.hi) } else { (-e.hi, -e.lo) };
        let bound = if self.at_least { self.bound } else { -self.bound };
        if lo >= bound {
            Verdict::Met
        } else if hi < bound {
            Verdict::Fails
        } else {
            Verdict::MayFail
        }
    }

    /// The limit as written: `completion>=0.9`.
    pub fn text(&self) -> String {
        format!("{}{}{}", self.metric, if self.at_least { ">=" } else { "<=" }, self.bound)
    }
}

/// How an estimate stands against a [`Constraint`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Its whole interval meets the limit.
    Met,
    /// Its interval crosses the limit.
    MayFail,
    /// Its whole interval is on the wrong side.
    Fails,
}

impl Verdict {
    /// In words a designer reads.
    pub fn words(self) -> &'static str {
        match self {
            Verdict::Met => "met",
            Verdict::MayFail => "may fail (its interval crosses the limit)",
            Verdict::Fails => "fails",
        }
    }
}

/// The metrics [`metric_estimates`] gives for `rules` with `seats` (the game's mix with one
/// random seat when none are given), from one deal: what a tune objective or a `--require`
/// may name.
pub fn known_metrics(
    info: &GameInfo,
    rules: Option<&str>,
    seats: Option<&[String]>,
) -> Result<Vec<String>, InputError> {
    // The seats as given (a field of fewer strategies than seats stays a field), as the
    // evaluator seats them.
    let (runner, _) = (info.build)(rules, None, seats)?;
    let seats = seats_for(info, seats, runner.players(), runner.players())?;
    let (runner, seats) = (info.build)(rules, None, Some(&seats))?;
    let lineup = Lineup::new(&seats);
    // One deal played: a figure exists only where the game has what it counts (an empty
    // tally has no ratio figures at all; a game without standings has no lead changes).
    let plan = Plan { seed: 0, rounds: 1, rotate: true, shard: None, until_ci: None, cards: false, first_deal: 0 };
    let tally = runner
        .run(&lineup, &plan, Mode::Tally, None, &mut |_, _| Ok(()))
        .map_err(|e| InputError::new(format!("the base rules: {e}")))?;
    Ok(metric_estimates(&tally, &lineup.strategies, runner.measures()).into_iter().map(|(n, _)| n).collect())
}

/// Refuses a `--require` naming a metric not in `known`, in one line naming it.
pub fn check_requires(requires: &[Constraint], known: &[String], game: &str) -> Result<(), InputError> {
    for c in requires {
        if !known.contains(&c.metric) {
            let hint = if c.metric == "skill_gap" { " (skill_gap needs a random seat)" } else { "" };
            return Err(InputError::new(format!(
                "--require '{}': {} is not a figure of {game}{hint}; use one of {}",
                c.text(),
                c.metric,
                known.join(", ")
            )));
        }
    }
    Ok(())
}

/// The variant-level metrics a tune objective may name, each with a 95% interval: every
/// figure of the health card (`completion`, `timeouts`, `seat_advantage`, `skill_gap`, ...),
/// `mean_length`, and every measure the game declares (over all seats).
pub fn metric_estimates(tally: &Tally, strategies: &[String], measures: &Measures) -> Vec<(String, Estimate)> {
    let mut out: Vec<(String, Estimate)> =
        health_figures(tally, strategies, measures, None).into_iter().map(|f| (f.name, f.value)).collect();
    out.push(("mean_length".to_string(), tally.mean_length()));
    for (i, m) in measures.measures.iter().enumerate() {
        out.push((m.column.clone(), tally.total_measure(i, m).0));
    }
    out
}

/// What one evaluation keeps: the tally and who was seated (so a resumed search can score
/// it without playing again).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Played {
    /// The tally.
    pub tally: Tally,
    /// The strategies seated, in lineup order.
    pub strategies: Vec<String>,
    /// The rules played (their measures may depend on them).
    pub rules: Option<String>,
}

impl Played {
    /// Seats that rebuild the game (each strategy once per seat it held, cycled).
    fn strategies_by_seat(&self) -> Vec<String> {
        self.strategies.iter().cycle().take(self.tally.seat_count).cloned().collect()
    }
}

/// Plays `rounds` of a built game on `seed` under balanced seatings.
fn play(
    info: &GameInfo,
    (rules, players): (Option<&str>, Option<usize>),
    seats: &[String],
    seed: u64,
    rounds: u64,
    interrupt: Option<&AtomicBool>,
    context: &str,
) -> Result<(Played, Measures), Error> {
    let (runner, seats) = (info.build)(rules, players, Some(seats)).map_err(|e| e.context(context))?;
    let lineup = Lineup::new(&seats);
    let plan = Plan { seed, rounds, rotate: true, shard: None, until_ci: None, cards: false, first_deal: 0 };
    let tally = runner.run(&lineup, &plan, Mode::Tally, interrupt, &mut |_, _| Ok(()))?;
    Ok((Played { tally, strategies: lineup.strategies, rules: rules.map(str::to_string) }, runner.measures().clone()))
}

/// `tune`: a candidate is a set of rules values over a base rules file.
pub struct TuneEvaluator<'a> {
    /// The game.
    pub info: &'a GameInfo,
    /// The base rules file's text.
    pub rules: Option<String>,
    /// Seats (cycled to each variant's player count), or the game's mix with a random seat.
    pub seats: Option<Vec<String>>,
    /// What to minimise.
    pub objective: Objective,
    /// Ctrl-C.
    pub interrupt: Option<&'a AtomicBool>,
}

impl TuneEvaluator<'_> {
    /// The rules text and seats of a candidate.
    pub fn variant(&self, setting: &Setting) -> Result<(String, Vec<String>), InputError> {
        let base = RulesBase::new(self.info, self.rules.as_deref())?;
        let (_, base_players) = base.variant(&[], "--param")?;
        let (text, players) = base.variant(setting, "--param")?;
        Ok((text, seats_for(self.info, self.seats.as_deref(), base_players, players)?))
    }

    /// Every metric of a sample.
    pub fn metrics(&self, sample: &Played) -> Vec<(String, Estimate)> {
        match (self.info.build)(sample.rules.as_deref(), None, Some(&sample.strategies_by_seat())) {
            Ok((runner, _)) => metric_estimates(&sample.tally, &sample.strategies, runner.measures()),
            Err(_) => Vec::new(),
        }
    }

    /// Checks that the objective names metrics the game has, before any search.
    pub fn check(&self) -> Result<(), InputError> {
        if self.objective.terms.is_empty() {
            return Err(InputError::new(
                "tune: give an objective: --minimize NAME, --maximize NAME or --target NAME=VALUE (e.g. --minimize seat_advantage)",
            ));
        }
        // A figure in two terms pulls against itself (maximised and minimised cancel), or
        // counts twice: named once.
        fn flag(t: &Term) -> (&str, &'static str) {
            match t {
                Term::Minimize(m) => (m, "--minimize"),
                Term::Maximize(m) => (m, "--maximize"),
                Term::Target(m, _) => (m, "--target"),
            }
        }
        for (i, t) in self.objective.terms.iter().enumerate() {
            let (m, this) = flag(t);
            if let Some((_, first)) = self.objective.terms[..i].iter().map(flag).find(|(n, _)| *n == m) {
                return Err(InputError::new(format!(
                    "objective: {first} {m} and {this} {m}: a figure named twice pulls against itself or counts twice; name it once"
                )));
            }
        }
        let known = known_metrics(self.info, self.rules.as_deref(), self.seats.as_deref())?;
        for m in self.objective.metrics() {
            if !known.iter().any(|k| k == m) {
                let hint = if m == "skill_gap" { " (skill_gap needs a random seat)" } else { "" };
                return Err(InputError::new(format!(
                    "objective: '{m}' is not a metric of {}{hint}; use one of {}",
                    self.info.name,
                    known.join(", ")
                )));
            }
        }
        Ok(())
    }
}

impl Evaluator for TuneEvaluator<'_> {
    type Sample = Played;

    fn play(&self, setting: &Setting, seed: u64, rounds: u64) -> Result<Played, Error> {
        let (text, seats) = self.variant(setting)?;
        let context = format!("candidate {}", describe_setting(setting));
        Ok(play(self.info, (Some(&text), None), &seats, seed, rounds, self.interrupt, &context)?.0)
    }

    fn check_setting(&self, setting: &Setting) -> Result<(), InputError> {
        let (text, seats) = self.variant(setting)?;
        // The rules text is the candidate's, written here: its line numbers mean nothing.
        (self.info.build)(Some(&text), None, Some(&seats)).map_err(InputError::unlined)?;
        Ok(())
    }

    fn merge(&self, into: &mut Played, more: &Played) {
        into.tally.merge(&more.tally);
    }

    fn score(&self, sample: &Played) -> Estimate {
        let metrics = self.metrics(sample);
        self.objective.evaluate(&|name| metrics.iter().find(|(n, _)| n == name).map(|(_, e)| *e))
    }

    fn rounds(&self, sample: &Played) -> u64 {
        sample.tally.rounds
    }

    fn has_starting_point(&self) -> bool {
        true
    }

    fn feasible(&self, sample: &Played) -> bool {
        if self.objective.constraints.is_empty() {
            return true;
        }
        let metrics = self.metrics(sample);
        self.objective.met(&|name| metrics.iter().find(|(n, _)| n == name).map(|(_, e)| *e))
    }
}

/// `exploit`: a candidate is a set of parameter values over a base preset, seated once
/// against the field; its payoff is its score per unit of play (the seatings give it every
/// seat), and the search minimises the negated payoff.
pub struct ExploitEvaluator<'a> {
    /// The game.
    pub info: &'a GameInfo,
    /// The rules file's text.
    pub rules: Option<String>,
    /// The preset whose parameters are searched.
    pub preset: String,
    /// The fixed strategies at the other seats (cycled).
    pub field: Vec<String>,
    /// Seats at the table.
    pub players: usize,
    /// Ctrl-C.
    pub interrupt: Option<&'a AtomicBool>,
}

impl ExploitEvaluator<'_> {
    /// The candidate's derived preset name.
    pub fn strategy(&self, setting: &Setting) -> String {
        derived_name(&self.preset, setting)
    }

    /// The candidate's seats: itself, then the field.
    pub fn seats(&self, setting: &Setting) -> Vec<String> {
        std::iter::once(self.strategy(setting))
            .chain(self.field.iter().cycle().take(self.players - 1).cloned())
            .collect()
    }

    /// Checks the preset, field and player count before any search.
    pub fn check(&self) -> Result<(), InputError> {
        if self.field.is_empty() || self.players < 2 {
            return Err(InputError::new("exploit: give --field with at least one strategy and --players 2 or more"));
        }
        // A strategy of the field with no seat would be named in the result unplayed.
        if self.field.len() > self.players - 1 {
            return Err(InputError::new(format!(
                "--field: {} strategies, but {} players seat {} beside the preset; give --players {} or more, or fewer --field strategies",
                self.field.len(),
                self.players,
                self.players - 1,
                self.field.len() + 1
            )));
        }
        (self.info.preset_text)(&self.preset).map_err(|e| e.context("--preset"))?;
        let seats: Vec<String> = std::iter::once(self.preset.clone())
            .chain(self.field.iter().cycle().take(self.players - 1).cloned())
            .collect();
        // The preset loaded above: a strategy no one knows is the field's.
        (self.info.build)(self.rules.as_deref(), Some(self.players), Some(&seats))
            .map_err(|e| if e.fault() == crate::error::Fault::UnknownStrategy { e.context("--field") } else { e })?;
        Ok(())
    }
}

impl Evaluator for ExploitEvaluator<'_> {
    type Sample = Played;

    fn play(&self, setting: &Setting, seed: u64, rounds: u64) -> Result<Played, Error> {
        let context = format!("candidate {}", self.strategy(setting));
        // The table's count, which --players may set over the rules file's.
        let rules = (self.rules.as_deref(), Some(self.players));
        Ok(play(self.info, rules, &self.seats(setting), seed, rounds, self.interrupt, &context)?.0)
    }

    fn check_setting(&self, setting: &Setting) -> Result<(), InputError> {
        (self.info.build)(self.rules.as_deref(), Some(self.players), Some(&self.seats(setting)))?;
        Ok(())
    }

    fn merge(&self, into: &mut Played, more: &Played) {
        into.tally.merge(&more.tally);
    }

    fn score(&self, sample: &Played) -> Estimate {
        let payoff = sample.tally.paired_score_per_round(0);
        Estimate { mean: -payoff.mean, lo: -payoff.hi, hi: -payoff.lo }
    }

    fn rounds(&self, sample: &Played) -> u64 {
        sample.tally.rounds
    }

    fn has_starting_point(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objectives_sum_terms_and_penalise_violations() {
        let o = Objective::from_flags(
            &["seat_advantage".into()],
            &[],
            &["mean_length=12".into()],
            &["skill_gap>=5".into()],
        )
        .unwrap();
        let at = |sa: f64, len: f64, gap: f64| {
            o.evaluate(&|n| {
                let v = match n {
                    "seat_advantage" => sa,
                    "mean_length" => len,
                    "skill_gap" => gap,
                    _ => return None,
                };
                Some(Estimate { mean: v, lo: v - 0.3, hi: v + 0.3 })
            })
        };
        assert!((at(0.1, 11.0, 6.0).mean - 1.1).abs() < 1e-12);
        assert!((at(0.1, 13.0, 4.0).mean - (1.1 + PENALTY)).abs() < 1e-9);
        assert!((at(0.1, 12.0, 6.0).half_width() - (2.0f64 * 0.09).sqrt()).abs() < 1e-12);
        // One term bounded below keeps its metric's one-sided interval, and a maximised
        // one turns it round.
        let one = |terms: (&[String], &[String])| {
            Objective::from_flags(terms.0, terms.1, &[], &[])
                .unwrap()
                .evaluate(&|_| Some(Estimate { mean: 0.0, lo: 0.0, hi: 0.0044 }))
        };
        let min = one((&["seat_advantage".into()], &[]));
        assert!(min.lo == 0.0 && (min.hi - 0.0044).abs() < 1e-15, "{min:?}");
        let max = one((&[], &["seat_advantage".into()]));
        assert!((max.lo + 0.0044).abs() < 1e-15 && max.hi == 0.0, "{max:?}");
        assert!(Constraint::parse("skill_gap=5").is_err());
        assert!(Objective::from_flags(&[], &[], &["x".into()], &[]).is_err());
        let mut t = Objective::default();
        t.add_toml(&toml::from_str("minimize = ['a']\ntarget = { b = 2 }\nrequire = ['c <= 1']").unwrap()).unwrap();
        assert_eq!(t.metrics(), vec!["a", "b", "c"]);
        assert!(t.add_toml(&toml::from_str("minimise = ['a']").unwrap()).is_err());
        // One name alone, as the flag takes it.
        let mut t = Objective::default();
        t.add_toml(&toml::from_str("minimize = 'seat_advantage'\nrequire = 'timeouts<=0.01'").unwrap()).unwrap();
        assert_eq!(t.metrics(), vec!["seat_advantage", "timeouts"]);
        assert!(t.add_toml(&toml::from_str("minimize = 3").unwrap()).is_err());
    }
}
