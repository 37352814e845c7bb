//! `sensitivity`: the base rules and every one-step deviation from them (each other value
//! of a choice key, each numeric key one step down and up), all on the base's seeds, so
//! that each deviation's effect on each health figure, the skill gap and each declared
//! measure is a paired difference over deal groups; p-values Holm-corrected per figure.

use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use super::sweep::{RulesBase, seats_for};
use crate::error::{Error, InputError};
use crate::games::{GameInfo, RuleStep};
use crate::output::{Table, Values};
use crate::sim::{
    CHUNK_DEALS, GroupHealth, Lineup, Mode, Plan, RATIO_FIGURES, SeatShares, Seatings, Shard, group_value, seat_share,
};
use crate::stats::{self, Estimate};

/// What to study.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SensitivitySpec {
    /// Base rules file text, if any.
    pub rules: Option<String>,
    /// Only these keys (all the game's steppable keys when empty).
    pub keys: Vec<String>,
    /// Players (over the rules file's).
    pub players: Option<usize>,
    /// Seats, cycled to each variant's player count; `None`: the game's mix with one
    /// `random` seat, so the skill gap is measured.
    pub seats: Option<Vec<String>>,
    /// Deal groups per variant (the same for every variant, whatever its player count).
    pub deals: u64,
    /// The seed, the same for every variant.
    pub seed: u64,
}

/// One deviation: a key and the value it takes instead of the base's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deviation {
    /// The rules key.
    pub key: String,
    /// Its base value, as TOML text (empty where the base leaves it unset).
    pub base: String,
    /// Its deviated value, as TOML text.
    pub value: String,
}

/// What one variant's play keeps for pairing: per deal group, the health sums, the
/// declared measures over every seat and each strategy's score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariantGroups {
    /// Per deal group, the health sums.
    pub health: Vec<GroupHealth>,
    /// The declared measures' columns.
    pub measures: Vec<String>,
    /// Those of them that are rates (0 to 1), whose differences lie in [-1, 1] (empty in
    /// results written before they were kept).
    #[serde(default)]
    pub rates: Vec<String>,
    /// Per deal group, each measure's (numerator, denominator), measure after measure.
    pub measure_sums: Vec<(i64, i64)>,
    /// Per deal group, each strategy's score summed, strategy after strategy.
    pub scores: Vec<i64>,
    /// Per deal group, each strategy's win share units summed, as `scores` (empty in
    /// results written before they were kept).
    #[serde(default)]
    pub shares: Vec<i64>,
    /// Strategies seated, and their units in one deal group.
    pub strategies: Vec<(String, i64)>,
    /// Seats at the table.
    #[serde(default)]
    pub players: usize,
    /// Rules set away from their defaults that no seated strategy used (see
    /// [`Runner::unused_rules`](crate::games::Runner)), one line each.
    #[serde(default)]
    pub unused: Vec<String>,
}

impl VariantGroups {
    /// Whether play used rules key `key`: false when the game recorded that no seated
    /// strategy did anything the key changes.
    pub fn exercised(&self, key: &str) -> bool {
        !self.unused.iter().any(|n| n.starts_with(&format!("{key} =")))
    }
}

/// Everything played so far: the base and each deviation in order (a resumed study plays
/// only what is missing).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SensitivityState {
    /// The study these results belong to (checked on resume).
    pub fingerprint: String,
    /// Deal groups per variant (kept so a study sized by a time budget resumes alike).
    #[serde(default)]
    pub deals: u64,
    /// The base's groups, once played.
    pub base: Option<VariantGroups>,
    /// Each played deviation's groups, or why the game refused it.
    pub deviations: Vec<(Deviation, Result<VariantGroups, String>)>,
}

/// The base's rules text, player count and seats as every variant derives them: the
/// rules' players unless `--players` is given, the seats cycled to them (as in a sweep).
pub fn base(info: &GameInfo, spec: &SensitivitySpec) -> Result<(String, usize, Vec<String>), InputError> {
    let (text, players) =
        RulesBase::new(info, spec.rules.as_deref())?.with_players(spec.players).variant(&[], "--keys")?;
    Ok((text, players, seats_for(info, spec.seats.as_deref(), players, players)?))
}

/// The deviations of `spec`'s base: for each steppable key (or each of `spec.keys`), each
/// other value of a choice and each numeric value one step away within its range.
pub fn deviations(info: &GameInfo, spec: &SensitivitySpec) -> Result<Vec<Deviation>, InputError> {
    let base = RulesBase::new(info, spec.rules.as_deref())?.with_players(spec.players);
    for (i, key) in spec.keys.iter().enumerate() {
        // Named twice, a key would be recorded twice though played once.
        if spec.keys[..i].contains(key) {
            return Err(InputError::new(format!(
                "--keys {}: {key} is named twice; name each key once",
                spec.keys.join(",")
            )));
        }
        if !info.rule_steps.iter().any(|(k, _)| k == key) {
            let keys: Vec<&str> = info.rule_steps.iter().map(|(k, _)| *k).collect();
            return Err(InputError::new(format!(
                "--keys {key}: not a key sensitivity steps in {}; use some of {}",
                info.name,
                keys.join(", ")
            )));
        }
    }
    let mut out = Vec::new();
    for &(key, step) in info.rule_steps {
        if !spec.keys.is_empty() && !spec.keys.iter().any(|k| k == key) {
            continue;
        }
        let declared = base.declared(key).cloned();
        let base_text = declared.as_ref().map_or_else(String::new, |v| v.to_string());
        let mut push = |value: String| {
            out.push(Deviation { key: key.to_string(), base: base_text.clone(), value });
        };
        match step {
            RuleStep::Choice(values) => {
                for v in values {
                    let same = declared.as_ref().is_some_and(|d| crate::games::presets::toml_value(v) == *d);
                    if !same {
                        push(v.to_string());
                    }
                }
            }
            RuleStep::Int { min, max, step } => {
                let Some(v) = declared.as_ref().and_then(toml::Value::as_integer) else { continue };
                for w in [v - step, v + step] {
                    if (min..=max).contains(&w) {
                        push(w.to_string());
                    }
                }
            }
            RuleStep::Real { min, max, step } => {
                let Some(v) = declared.as_ref().and_then(|d| d.as_float().or(d.as_integer().map(|i| i as f64))) else {
                    continue;
                };
                for w in [v - step, v + step] {
                    // Rounded, so 0.25 - 0.05 is written 0.2 and not 0.19999999999999998.
                    let w = (w * 1e9).round() / 1e9;
                    if w >= min - 1e-12 && w <= max + 1e-12 {
                        push(format!("{w:?}"));
                    }
                }
            }
        }
    }
    // A value written otherwise that sets the same rules (`wild = []` and `wild = "none"`)
    // is no deviation: it would be played, and counted in the correction, for nothing.
    let rules_of = |setting: &[(String, String)]| -> Option<String> {
        let (text, _) = base.variant(setting, "--keys").ok()?;
        Some((info.build)(Some(&text), None, None).ok()?.0.rules_played())
    };
    if let Some(base_rules) = rules_of(&[]) {
        out.retain(|d| rules_of(&[(d.key.clone(), d.value.clone())]).is_none_or(|r| r != base_rules));
    }
    if out.is_empty() {
        let keys = match spec.keys.is_empty() {
            true => String::new(),
            false => format!(" --keys {}:", spec.keys.join(",")),
        };
        return Err(InputError::new(format!(
            "sensitivity:{keys} no deviation to play for {} (a key unset in the rules has no step, and a value that sets the rules as they are is none); name other keys with --keys, or set the key in --rules",
            info.name
        )));
    }
    Ok(out)
}

/// Plays one variant (`setting` over the base) and keeps its groups; `Err(message)` when
/// the game refuses the variant's rules.
fn play_variant(
    info: &GameInfo,
    spec: &SensitivitySpec,
    setting: &[(String, String)],
    part: Option<Shard>,
    interrupt: Option<&AtomicBool>,
) -> Result<Result<VariantGroups, String>, Error> {
    let base = RulesBase::new(info, spec.rules.as_deref())?.with_players(spec.players);
    let (text, players) = match base.variant(setting, "--keys") {
        Ok(v) => v,
        Err(e) => return Ok(Err(e.to_string())),
    };
    let (_, base_players) = base.variant(&[], "--keys")?;
    let seats = match seats_for(info, spec.seats.as_deref(), base_players, players) {
        Ok(s) => s,
        Err(e) => return Ok(Err(e.to_string())),
    };
    play_groups(info, &text, &seats, spec.seed, spec.deals, part, interrupt)
}

/// Seconds each variant, the base first and then each deviation in order, takes to play
/// `deals` deal groups on the current pool; 0 for one the game refuses. Variants differ in
/// cost (more players, bigger packs), so a time budget is shared by these, not by the
/// base's cost alone.
pub fn time_variants(
    info: &GameInfo,
    spec: &SensitivitySpec,
    deals: u64,
    interrupt: Option<&AtomicBool>,
) -> Result<Vec<f64>, Error> {
    let spec = SensitivitySpec { deals, ..spec.clone() };
    let settings = std::iter::once(Vec::new())
        .chain(deviations(info, &spec)?.into_iter().map(|d| vec![(d.key, d.value)]))
        .collect::<Vec<_>>();
    let mut seconds = Vec::with_capacity(settings.len());
    for setting in &settings {
        let start = std::time::Instant::now();
        let played = play_variant(info, &spec, setting, None, interrupt)?;
        seconds.push(if played.is_ok() { start.elapsed().as_secs_f64() } else { 0.0 });
    }
    Ok(seconds)
}

/// Plays `deals` deal groups (or `part` of their chunks) of the rules `text` with `seats`
/// from `seed`, keeping each group's sums for pairing; `Err(message)` when the game refuses
/// the rules or seats.
pub fn play_groups(
    info: &GameInfo,
    text: &str,
    seats: &[String],
    seed: u64,
    deals: u64,
    part: Option<Shard>,
    interrupt: Option<&AtomicBool>,
) -> Result<Result<VariantGroups, String>, Error> {
    let (runner, seats) = match (info.build)(Some(text), None, Some(seats)) {
        Ok(b) => b,
        Err(e) => return Ok(Err(e.to_string())),
    };
    let lineup = Lineup::new(&seats);
    let players = runner.players();
    let per = Seatings::new(&lineup, players, true)?.len() as u64;
    let plan =
        Plan { seed, rounds: deals * per, rotate: true, shard: part, until_ci: None, cards: false, first_deal: 0 };
    let (mut scores, mut shares) = (Vec::new(), Vec::new());
    let tally = runner.run(&lineup, &plan, Mode::DealGroups, interrupt, &mut |_, rows| {
        scores.extend(rows.iter().map(|r| r.result.score));
        shares.extend(rows.iter().map(|r| i64::from(r.result.share_units)));
        Ok(())
    })?;
    let unused = runner.unused_rules(&tally);
    Ok(Ok(VariantGroups {
        measures: runner.measures().measures.iter().map(|m| m.column.clone()).collect(),
        rates: super::versus::Scales::of(runner.measures()).rates,
        strategies: lineup.strategies.into_iter().zip(tally.instances).collect(),
        players,
        unused,
        health: tally.health.groups,
        measure_sums: tally.health.measure_groups,
        scores,
        shares,
    }))
}

impl VariantGroups {
    /// One variant's groups from the parts that shards played of its `deals` deal groups,
    /// part 0 first (part p holds chunks c with c mod parts = p, as `run` shares them):
    /// each part's groups put back in chunk order, as one unsharded run keeps them.
    /// `Err(part)` when part `part` does not hold its share of the groups.
    pub fn from_parts(parts: &[VariantGroups], deals: u64) -> Result<VariantGroups, usize> {
        let first = parts.first().ok_or(0usize)?;
        let (m, k) = (first.measures.len(), first.strategies.len());
        let chunks = deals.div_ceil(CHUNK_DEALS);
        let groups_of_chunk = |chunk: u64| CHUNK_DEALS.min(deals - chunk * CHUNK_DEALS) as usize;
        for (p, part) in parts.iter().enumerate() {
            let want: usize = (p as u64..chunks).step_by(parts.len()).map(groups_of_chunk).sum();
            if part.health.len() != want
                || part.measure_sums.len() != want * m
                || part.scores.len() != want * k
                || !(part.shares.is_empty() || part.shares.len() == want * k)
                || part.measures != first.measures
                || part.strategies.len() != k
            {
                return Err(p);
            }
        }
        let mut out = VariantGroups {
            health: Vec::with_capacity(deals as usize),
            measures: first.measures.clone(),
            rates: first.rates.clone(),
            measure_sums: Vec::with_capacity(deals as usize * m),
            scores: Vec::with_capacity(deals as usize * k),
            shares: Vec::with_capacity(deals as usize * k),
            strategies: first.strategies.clone(),
            players: first.players,
            // Unused only if no part used it.
            unused: first.unused.iter().filter(|n| parts.iter().all(|p| p.unused.contains(n))).cloned().collect(),
        };
        // A part that played no chunk has its strategies' unit counts unset.
        for p in &parts[1..] {
            for (a, b) in out.strategies.iter_mut().zip(&p.strategies) {
                a.1 = a.1.max(b.1);
            }
        }
        let mut at = vec![0usize; parts.len()];
        for chunk in 0..chunks {
            let p = (chunk % parts.len() as u64) as usize;
            let n = groups_of_chunk(chunk);
            let (from, part) = (at[p], &parts[p]);
            out.health.extend_from_slice(&part.health[from..from + n]);
            out.measure_sums.extend_from_slice(&part.measure_sums[from * m..(from + n) * m]);
            out.scores.extend_from_slice(&part.scores[from * k..(from + n) * k]);
            if let Some(shares) = part.shares.get(from * k..(from + n) * k) {
                out.shares.extend_from_slice(shares);
            }
            at[p] += n;
        }
        Ok(out)
    }

    /// Strategy `x`'s score per unit in each deal group.
    pub fn score_per_unit(&self, x: usize) -> impl Iterator<Item = f64> + '_ {
        let n = self.strategies.len();
        let units = self.strategies[x].1.max(1) as f64;
        self.scores.iter().skip(x).step_by(n).map(move |&s| s as f64 / units)
    }

    /// Strategy `x`'s win rate (win share per unit) in each deal group (empty where the
    /// shares were not kept).
    pub fn win_rate_per_group(&self, x: usize) -> Vec<f64> {
        let n = self.strategies.len();
        let units = self.strategies[x].1.max(1) as f64 * crate::sim::SHARE_UNIT as f64;
        self.shares.iter().skip(x).step_by(n).map(|&s| s as f64 / units).collect()
    }

    /// Per deal group, `best`'s score per unit minus `random`'s (empty unless both are seated).
    fn skill_gap(&self, best: &str) -> Vec<f64> {
        let at = |name: &str| self.strategies.iter().position(|(s, _)| s == name);
        let (Some(b), Some(r)) = (at(best), at("random")) else { return Vec::new() };
        self.score_per_unit(b).zip(self.score_per_unit(r)).map(|(b, r)| b - r).collect()
    }

    /// Every seat's win shares over the groups, and the win-share units a seat can take in
    /// a group, for the seat figures.
    fn seat_shares(&self) -> (SeatShares, f64) {
        let mut sums = SeatShares::new(self.players);
        let mut shares = vec![0; self.players];
        for g in &self.health {
            for (s, v) in shares.iter_mut().enumerate() {
                *v = seat_share(g, s).0;
            }
            sums.add(&shares);
        }
        (sums, self.health.first().map_or(0, |g| seat_share(g, 0).1) as f64)
    }

    /// Per deal group, the first seat's win rate minus the other seats' mean.
    fn first_seat_edge(&self) -> Vec<f64> {
        let k = self.players as f64;
        self.health
            .iter()
            .map(|g| {
                let units = seat_share(g, 0).1 as f64;
                let others: i64 = (1..self.players).map(|s| seat_share(g, s).0).sum();
                (seat_share(g, 0).0 as f64 - others as f64 / (k - 1.0)) / units
            })
            .collect()
    }

    /// The strategy other than `random` with the best score per unit, if `random` is seated.
    pub fn best_strategy(&self) -> Option<&str> {
        let random = self.strategies.iter().position(|(s, _)| s == "random")?;
        let mean = |x: usize| self.score_per_unit(x).sum::<f64>();
        let best = (0..self.strategies.len()).filter(|&x| x != random).max_by(|&a, &b| mean(a).total_cmp(&mean(b)))?;
        Some(&self.strategies[best].0)
    }
}

/// Plays the base and every deviation not yet in `state` (only `shard`'s work when given,
/// see [`crate::study::shard_work`]: unit 0 is the base, unit `i + 1` deviation `i`),
/// calling `save` after each and `on_variant(done, total, label)` before each.
pub fn run(
    info: &GameInfo,
    spec: &SensitivitySpec,
    shard: Option<Shard>,
    state: &mut SensitivityState,
    interrupt: Option<&AtomicBool>,
    save: &mut dyn FnMut(&SensitivityState) -> Result<(), Error>,
    on_variant: &mut dyn FnMut(usize, usize, &str),
) -> Result<(), Error> {
    let list = deviations(info, spec)?;
    let crate::study::ShardWork { units: wanted, part } = crate::study::shard_work(list.len() + 1, shard);
    let total = wanted.len();
    for (done, &unit) in wanted.iter().enumerate() {
        if unit == 0 {
            if state.base.is_none() {
                on_variant(done, total, "base");
                match play_variant(info, spec, &[], part, interrupt)? {
                    Ok(groups) => state.base = Some(groups),
                    Err(why) => return Err(InputError::new(format!("the base rules: {why}")).into()),
                }
                save(state)?;
            }
            continue;
        }
        let d = &list[unit - 1];
        if state.deviations.iter().any(|(played, _)| played == d) {
            continue;
        }
        on_variant(done, total, &format!("{}={}", d.key, d.value));
        let played = play_variant(info, spec, &[(d.key.clone(), d.value.clone())], part, interrupt)?;
        state.deviations.push((d.clone(), played));
        save(state)?;
    }
    on_variant(total, total, "");
    Ok(())
}

/// A shard's results, unit after unit as [`run`] played them: the base's groups for unit
/// 0, a deviation's groups or refusal for the others.
pub fn shard_results(
    info: &GameInfo,
    spec: &SensitivitySpec,
    shard: Shard,
    state: &SensitivityState,
) -> Result<Vec<Result<VariantGroups, String>>, Error> {
    let list = deviations(info, spec)?;
    let played = crate::study::shard_work(list.len() + 1, Some(shard)).units;
    let mut results = Vec::with_capacity(played.len());
    for &unit in &played {
        let found = if unit == 0 {
            state.base.clone().map(Ok)
        } else {
            state.deviations.iter().find(|(d, _)| *d == list[unit - 1]).map(|(_, r)| r.clone())
        };
        results.push(found.ok_or_else(|| Error::Invariant(format!("unit {unit} of the shard was not played")))?);
    }
    Ok(results)
}

/// The whole study's state from every unit's result in unit order (from shards put back
/// in order).
pub fn state_from_units(
    info: &GameInfo,
    spec: &SensitivitySpec,
    results: Vec<Result<VariantGroups, String>>,
) -> Result<SensitivityState, Error> {
    let list = deviations(info, spec)?;
    if results.len() != list.len() + 1 {
        return Err(Error::Invariant(format!("{} results for {} variants", results.len(), list.len() + 1)));
    }
    let mut results = results.into_iter();
    let base =
        results.next().expect("the base is unit 0").map_err(|why| InputError::new(format!("the base rules: {why}")))?;
    Ok(SensitivityState {
        fingerprint: String::new(),
        deals: spec.deals,
        base: Some(base),
        deviations: list.into_iter().zip(results).collect(),
    })
}

/// One row of the study: a deviation's effect on one figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Effect {
    /// The deviation.
    pub deviation: Deviation,
    /// The figure.
    pub figure: String,
    /// The figure under the base rules.
    pub base: f64,
    /// The deviation's value minus the base's, with its 95% interval over paired deal groups.
    pub effect: Estimate,
    /// Two-sided p-value of no effect.
    pub p: f64,
    /// Holm-corrected over every deviation of the same figure.
    pub p_holm: f64,
    /// Whether the deviation's play used its key at all, or moved some figure (the game
    /// itself changed): an unexercised deviation (a betting limit no seated strategy bet
    /// beyond, no figure moved) says nothing of the rule.
    pub exercised: bool,
    /// The deal groups that measured the figure (see [`FigureEffect::groups`]).
    pub groups: usize,
    /// Whether every deal group that measured the figure differed alike, and they were
    /// fewer than [`super::versus::ALIKE_GROUPS`]: too few to decide (its p is then 1).
    pub few_alike: bool,
}

/// A paired difference of two ratios of sums over the same deal groups, `(a1, b1)` minus
/// `(a0, b0)`, by the delta method, with each group's linearised difference (the series
/// the interval is over); `None` when a denominator sums to 0 or groups are few.
pub fn paired_ratio(base: &[(i64, i64)], other: &[(i64, i64)]) -> Option<(f64, Estimate, f64, Vec<f64>)> {
    let n = base.len().min(other.len());
    if n < 2 {
        return None;
    }
    let (base, other) = (&base[..n], &other[..n]);
    let sum = |v: &[(i64, i64)]| v.iter().fold((0.0, 0.0), |(a, b), &(x, y)| (a + x as f64, b + y as f64));
    let ((a0, b0), (a1, b1)) = (sum(base), sum(other));
    if b0 == 0.0 || b1 == 0.0 {
        return None;
    }
    let (r0, r1) = (a0 / b0, a1 / b1);
    let (m0, m1) = (b0 / n as f64, b1 / n as f64);
    let z: Vec<f64> = base
        .iter()
        .zip(other)
        .map(|(&(x0, y0), &(x1, y1))| (x1 as f64 - r1 * y1 as f64) / m1 - (x0 as f64 - r0 * y0 as f64) / m0)
        .collect();
    let (effect, p) = mean_test(&z, r1 - r0);
    Some((r0, effect, p, z))
}

/// A difference of two rates lies in [-1, 1]: a t interval over few groups can reach past
/// it, and is cut there.
fn within_rates(e: Estimate) -> Estimate {
    Estimate { mean: e.mean, lo: e.lo.max(-1.0), hi: e.hi.min(1.0) }
}

/// A paired difference of per-group values: the mean of `other - base`.
pub fn paired_mean(base: &[f64], other: &[f64]) -> Option<(f64, Estimate, f64)> {
    paired_mean_series(base, other).map(|(m, e, p, _)| (m, e, p))
}

/// As [`paired_mean`], with each group's difference.
pub fn paired_mean_series(base: &[f64], other: &[f64]) -> Option<(f64, Estimate, f64, Vec<f64>)> {
    let n = base.len().min(other.len());
    if n < 2 {
        return None;
    }
    let d: Vec<f64> = base[..n].iter().zip(&other[..n]).map(|(a, b)| b - a).collect();
    let mean = d.iter().sum::<f64>() / n as f64;
    let centred: Vec<f64> = d.iter().map(|v| v - mean).collect();
    let (effect, p) = mean_test(&centred, mean);
    Some((base[..n].iter().sum::<f64>() / n as f64, effect, p, d))
}

/// The interval and two-sided p-value of `effect` from centred per-group values `z`.
fn mean_test(z: &[f64], effect: f64) -> (Estimate, f64) {
    let n = z.len() as f64;
    let var = z.iter().map(|v| v * v).sum::<f64>() / (n - 1.0);
    let se = (var / n).sqrt();
    let half = stats::t_quantile_975(z.len() as u64 - 1) * se;
    // Student's t for the p-value as for the interval, so that a figure is called
    // significant only where its interval leaves out zero.
    let p = if se > 0.0 {
        stats::two_sided_p_t(effect / se, z.len() as u64 - 1)
    } else if effect == 0.0 {
        1.0
    } else {
        0.0
    };
    (Estimate { mean: effect, lo: effect - half, hi: effect + half }, p)
}

/// Holm's step-down correction of `p` (Holm 1979): the k-th smallest of m p-values is
/// multiplied by m - k + 1, made non-decreasing, and capped at 1.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut out = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (k, &i) in order.iter().enumerate() {
        running = running.max(((m - k) as f64 * p[i]).min(1.0));
        out[i] = running;
    }
    out
}

/// One figure of a variant against the base over the same deal groups.
#[derive(Clone, Debug)]
pub struct FigureEffect {
    /// The figure's name.
    pub figure: String,
    /// Its value under the base.
    pub base: f64,
    /// The variant minus the base, with its 95% interval.
    pub effect: Estimate,
    /// Two-sided p-value of no effect.
    pub p: f64,
    /// The deal groups that measured it on either side: fewer than those played where the
    /// figure is counted on a sample of deals (legal moves) or only where it arises.
    pub groups: usize,
    /// Each deal group's difference, in order (linearised for a ratio): what tells
    /// figures that move together apart from figures that move on their own. Empty for a
    /// figure that is not a mean over groups (the seats' spread).
    pub series: Vec<f64>,
}

/// The pairs of groups in which either side counted something: a figure's denominator
/// above 0 under the base or the variant.
fn measured_groups(base: &[(i64, i64)], other: &[(i64, i64)]) -> usize {
    base.iter().zip(other).filter(|(a, b)| a.1 != 0 || b.1 != 0).count()
}

/// Each figure of `v` against `base` over the same deal groups, for the health card, the
/// seat figures, the base's best strategy's skill gap and the declared measures.
pub fn figure_effects(base: &VariantGroups, v: &VariantGroups) -> Vec<FigureEffect> {
    let mut rows = Vec::new();
    let groups =
        |v: &VariantGroups, i: usize| -> Vec<(i64, i64)> { v.health.iter().map(|g| group_value(g, i)).collect() };
    let played = base.health.len().min(v.health.len());
    let mut push = |figure: &str, found: Option<(f64, Estimate, f64, Vec<f64>)>, groups: usize| {
        if let Some((base, effect, p, series)) = found {
            rows.push(FigureEffect { figure: figure.to_string(), base, effect, p, groups, series });
        }
    };
    for (i, f) in RATIO_FIGURES.iter().enumerate() {
        let (b, o) = (groups(base, i), groups(v, i));
        let found = paired_ratio(&b, &o).map(|(r0, e, p, z)| (r0, if f.rate { within_rates(e) } else { e }, p, z));
        push(f.name, found, measured_groups(&b, &o));
    }
    // The first seat's edge, paired over the same deals.
    push("first_seat_edge", paired_mean_series(&base.first_seat_edge(), &v.first_seat_edge()), played);
    // The seats' spread is not a mean over groups: the two variants' estimates with
    // their intervals combined as if independent (wider than paired: conservative).
    let spread = |g: &VariantGroups| {
        let (sums, units) = g.seat_shares();
        sums.figures(units).map(|f| f.seat_advantage)
    };
    // Too few deals leave the spread without an interval: no effect to report, and never
    // one called significant.
    let finite = |a: &crate::stats::Estimate| a.mean.is_finite() && a.half_width().is_finite();
    if let (Some(a0), Some(a1)) = (spread(base), spread(v))
        && finite(&a0)
        && finite(&a1)
    {
        let effect = a1.mean - a0.mean;
        let half = (a0.half_width().powi(2) + a1.half_width().powi(2)).sqrt();
        let p = if half > 0.0 {
            stats::two_sided_p(effect / (half / stats::Z95))
        } else {
            f64::from(u8::from(effect == 0.0))
        };
        let e = Estimate { mean: effect, lo: effect - half, hi: effect + half };
        push("seat_advantage", Some((a0.mean, e, p, Vec::new())), played);
        push("balance", Some((1.0 - a0.mean, Estimate { mean: -effect, lo: -e.hi, hi: -e.lo }, p, Vec::new())), played);
    }
    // The skill gap of the base's best strategy, in every variant.
    if let Some(best) = base.best_strategy() {
        push("skill_gap", paired_mean_series(&base.skill_gap(best), &v.skill_gap(best)), played);
    }
    let (mb, mv) = (base.measures.len(), v.measures.len());
    for (j, name) in base.measures.iter().enumerate() {
        let Some(k) = v.measures.iter().position(|m| m == name) else { continue };
        let pick = |sums: &[(i64, i64)], m: usize, at: usize| -> Vec<(i64, i64)> {
            if m == 0 { Vec::new() } else { sums.iter().skip(at).step_by(m).copied().collect() }
        };
        let (b, o) = (pick(&base.measure_sums, mb, j), pick(&v.measure_sums, mv, k));
        let rate = base.rates.contains(name);
        let found = paired_ratio(&b, &o).map(|(r0, e, p, z)| (r0, if rate { within_rates(e) } else { e }, p, z));
        push(name, found, measured_groups(&b, &o));
    }
    rows
}

/// Every deviation's effect on every figure, Holm-corrected per figure; the rows whose
/// corrected p is below 0.05 first (smallest first), then the rest in the study's order.
pub fn effects(state: &SensitivityState) -> Vec<Effect> {
    let Some(base) = &state.base else { return Vec::new() };
    let mut rows: Vec<Effect> = Vec::new();
    for (d, played) in &state.deviations {
        let Ok(v) = played else { continue };
        for FigureEffect { figure, base: b, effect, p, groups, .. } in figure_effects(base, v) {
            // A difference alike on every one of a few groups has an interval of no width
            // and a p of 0, yet says little (the rule of three): not evidence of a move, as
            // `versus` calls it undecided.
            let few_alike = super::versus::alike(&effect) && groups < super::versus::ALIKE_GROUPS;
            let p = if few_alike && effect.mean != 0.0 { 1.0 } else { p };
            rows.push(Effect {
                deviation: d.clone(),
                figure,
                base: b,
                effect,
                p,
                p_holm: p,
                exercised: v.exercised(&d.key),
                groups,
                few_alike,
            });
        }
    }
    let mut figures: Vec<String> = Vec::new();
    for r in &rows {
        if !figures.contains(&r.figure) {
            figures.push(r.figure.clone());
        }
    }
    for f in &figures {
        let at: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].figure == *f).collect();
        let corrected = holm(&at.iter().map(|&i| rows[i].p).collect::<Vec<_>>());
        for (&i, c) in at.iter().zip(corrected) {
            rows[i].p_holm = c;
        }
    }
    // A deviation that moved a figure was exercised, whatever the strategies did: the game
    // itself changed (a bet size's menu, say).
    let moved: Vec<Deviation> = rows.iter().filter(|r| r.p_holm < 0.05).map(|r| r.deviation.clone()).collect();
    for r in &mut rows {
        r.exercised |= moved.contains(&r.deviation);
    }
    let (mut significant, rest): (Vec<Effect>, Vec<Effect>) = rows.into_iter().partition(|r| r.p_holm < 0.05);
    significant.sort_by(|a, b| a.p_holm.total_cmp(&b.p_holm).then(b.effect.mean.abs().total_cmp(&a.effect.mean.abs())));
    significant.extend(rest);
    significant
}

/// The `sensitivity` table: a row per (deviation, figure).
pub fn sensitivity_table(rows: &[Effect]) -> Table {
    let text = |f: &dyn Fn(&Effect) -> String| Values::Text(rows.iter().map(f).collect());
    let float = |f: &dyn Fn(&Effect) -> f64| Values::Float(rows.iter().map(f).collect());
    Table::new(super::kind::SENSITIVITY.tables[0])
        .with("key", text(&|r| r.deviation.key.clone()))
        .with("base_value", text(&|r| r.deviation.base.trim_matches('"').to_string()))
        .with("value", text(&|r| r.deviation.value.trim_matches('"').to_string()))
        .with("figure", text(&|r| r.figure.clone()))
        .with("base", float(&|r| r.base))
        .with("effect", float(&|r| r.effect.mean))
        .with("effect_lo", float(&|r| r.effect.lo))
        .with("effect_hi", float(&|r| r.effect.hi))
        .with("p_value", float(&|r| r.p))
        .with("p_holm", float(&|r| r.p_holm))
        .with("significant", Values::Bool(rows.iter().map(|r| r.p_holm < 0.05).collect()))
        .with("exercised", Values::Bool(rows.iter().map(|r| r.exercised).collect()))
        .with("deal_groups", Values::Int(rows.iter().map(|r| r.groups as i64).collect()))
}

/// The `sensitivity_refused` table: deviations the game refused, and why.
pub fn refused_table(state: &SensitivityState) -> Table {
    let refused: Vec<(&Deviation, &String)> =
        state.deviations.iter().filter_map(|(d, r)| r.as_ref().err().map(|why| (d, why))).collect();
    Table::new("sensitivity_refused")
        .with("key", Values::Text(refused.iter().map(|(d, _)| d.key.clone()).collect()))
        .with("value", Values::Text(refused.iter().map(|(d, _)| d.value.trim_matches('"').to_string()).collect()))
        .with("why", Values::Text(refused.iter().map(|(_, why)| (*why).clone()).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holm_matches_a_hand_computation() {
        // Sorted 0.01, 0.02, 0.03, 0.04 of m = 4: 0.04, 0.06, 0.06 (made non-decreasing
        // from 0.06), 0.06 (0.04 * 1 = 0.04, raised to 0.06).
        let p = [0.03, 0.01, 0.04, 0.02];
        let h = holm(&p);
        let want = [0.06, 0.04, 0.06, 0.06];
        for (a, b) in h.iter().zip(want) {
            assert!((a - b).abs() < 1e-12, "{h:?}");
        }
        assert_eq!(holm(&[0.5, 0.9]), vec![1.0, 1.0]);
    }

    #[test]
    fn a_paired_ratio_sees_a_planted_shift_and_not_noise() {
        // Base: 1 of 4 per group; other: 2 of 4 per group, with group-level noise that
        // pairing cancels.
        let base: Vec<(i64, i64)> = (0..50).map(|g| (1 + g % 3, 4 + g % 3)).collect();
        let other: Vec<(i64, i64)> = base.iter().map(|&(a, b)| (a + 1, b)).collect();
        let (r0, effect, p, _) = paired_ratio(&base, &other).unwrap();
        assert!(
            (r0 - base.iter().map(|x| x.0).sum::<i64>() as f64 / base.iter().map(|x| x.1).sum::<i64>() as f64).abs()
                < 1e-12
        );
        assert!(effect.lo > 0.0 && p < 1e-6, "{effect:?} {p}");
        let (_, same, p_same, _) = paired_ratio(&base, &base).unwrap();
        assert_eq!((same.mean, p_same), (0.0, 1.0));
    }

    /// Three groups of one unit each whose rate goes from 0, 1, 0 to 1, 1, 0: a t interval
    /// of two degrees of freedom reaches past +1, which no difference of rates can.
    #[test]
    fn a_difference_of_rates_is_cut_to_plus_minus_one() {
        let (_, e, _, _) = paired_ratio(&[(0, 1), (1, 1), (0, 1)], &[(1, 1), (1, 1), (0, 1)]).unwrap();
        assert!(e.hi > 1.0 && e.lo < -0.5, "{e:?}");
        let cut = within_rates(e);
        assert_eq!((cut.mean, cut.lo, cut.hi), (e.mean, e.lo.max(-1.0), 1.0));
        let (_, e, _, _) = paired_ratio(&[(1, 1), (1, 1), (0, 1)], &[(0, 1), (1, 1), (0, 1)]).unwrap();
        assert_eq!(within_rates(e).lo, -1.0, "{e:?}");
    }

    /// On few deal groups the p-value follows the interval: two groups differing by 1 and
    /// 3 give a mean of 2 whose t interval (one degree of freedom) reaches far below zero,
    /// so p is far above 0.05 (the normal's would be 0.046: significant).
    #[test]
    fn a_figure_whose_interval_crosses_zero_is_not_significant() {
        let (_, effect, p) = paired_mean(&[0.0, 0.0], &[1.0, 3.0]).unwrap();
        assert_eq!(effect.mean, 2.0);
        assert!(effect.lo < 0.0 && effect.hi > 0.0, "{effect:?}");
        assert!((p - 0.295_167).abs() < 1e-5, "{p}");
        // At every group count, p < 0.05 exactly when the interval leaves out zero.
        for n in 2..40 {
            let other: Vec<f64> = (0..n).map(|g| 0.3 + (g % 4) as f64 * 0.5 - 0.75).collect();
            let (_, e, p) = paired_mean(&vec![0.0; n], &other).unwrap();
            assert_eq!(p < 0.05, e.lo > 0.0 || e.hi < 0.0, "n {n}: {e:?} p {p}");
        }
    }
}
