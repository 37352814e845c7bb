//! `sweep`: a grid over rules options named by their TOML keys, every variant played on the
//! same seed (common random numbers), one long table with a row per (variant, strategy).

use crate::error::{Error, InputError};
use crate::games::GameInfo;
use crate::output::{Table, Values, run_tables};
use crate::sim::{Lineup, Plan, Tally};

/// One swept key and its values, as written on the command line (`players=3,4,5`).
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// The rules key.
    pub key: String,
    /// Its values, as text.
    pub values: Vec<String>,
}

impl Axis {
    /// Parses `KEY=V1,V2,...`; commas inside brackets (TOML lists) do not split.
    pub fn parse(text: &str) -> Result<Axis, InputError> {
        let (key, values) = text
            .split_once('=')
            .ok_or_else(|| InputError::new(format!("--set '{text}': write KEY=V1,V2,..., e.g. players=3,4,5")))?;
        let mut out = Vec::new();
        let (mut depth, mut cur) = (0, String::new());
        for ch in values.chars() {
            match ch {
                '[' => depth += 1,
                ']' => depth -= 1,
                ',' if depth == 0 => {
                    out.push(std::mem::take(&mut cur));
                    continue;
                }
                _ => {}
            }
            cur.push(ch);
        }
        out.push(cur);
        let out: Vec<String> = out.into_iter().map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).collect();
        if key.trim().is_empty() || out.is_empty() {
            return Err(InputError::new(format!("--set '{text}': give a key and at least one value")));
        }
        Ok(Axis { key: key.trim().to_string(), values: out })
    }
}

/// A value from the command line as TOML: a number, boolean or list when it parses as one,
/// otherwise a string.
fn toml_value(text: &str) -> toml::Value {
    toml::from_str::<toml::Table>(&format!("v = {text}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(text.to_string()))
}

/// What to sweep.
#[derive(Clone, Debug)]
pub struct SweepSpec {
    /// Base rules file text, if any.
    pub rules: Option<String>,
    /// The swept keys.
    pub axes: Vec<Axis>,
    /// Seats (cycled to each variant's player count); `None` for the game's default seats
    /// with one `random` seat, so the skill gap can be measured.
    pub seats: Option<Vec<String>>,
    /// Rounds per variant.
    pub rounds: u64,
    /// The seed, the same for every variant.
    pub seed: u64,
}

/// One variant: its key values and its tally.
#[derive(Clone, Debug)]
pub struct VariantResult {
    /// (key, value) per axis.
    pub setting: Vec<(String, String)>,
    /// The strategies seated.
    pub strategies: Vec<String>,
    /// The run's tally.
    pub tally: Tally,
}

/// Every combination of the axes' values, first axis slowest.
fn grid(axes: &[Axis]) -> Vec<Vec<(String, String)>> {
    axes.iter().fold(vec![Vec::new()], |acc, axis| {
        acc.iter()
            .flat_map(|prefix| {
                axis.values.iter().map(move |v| {
                    let mut next = prefix.clone();
                    next.push((axis.key.clone(), v.clone()));
                    next
                })
            })
            .collect()
    })
}

/// The seats for `players` players.
fn seats_for(info: &GameInfo, spec: &SweepSpec, players: usize) -> Vec<String> {
    match &spec.seats {
        Some(s) => s.iter().cycle().take(players).cloned().collect(),
        None => {
            let mut seats = (info.default_seats)(players);
            if !seats.iter().any(|s| s == "random") {
                *seats.last_mut().expect("at least two seats") = "random".to_string();
            }
            seats
        }
    }
}

/// Plays every variant of the grid.
pub fn sweep(info: &GameInfo, spec: &SweepSpec) -> Result<Vec<VariantResult>, Error> {
    let base: toml::Table = match &spec.rules {
        Some(text) => toml::from_str(text).map_err(|e| InputError::new(format!("--rules: {}", e.message())))?,
        None => toml::Table::new(),
    };
    let defaults: toml::Table = toml::from_str(&(info.default_rules)()).unwrap_or_default();
    let mut out = Vec::new();
    for setting in grid(&spec.axes) {
        let mut rules = base.clone();
        for (key, value) in &setting {
            if !defaults.contains_key(key) && !base.contains_key(key) && !info.rules_help.iter().any(|(k, _)| k == key)
            {
                let keys: Vec<&str> = info.rules_help.iter().map(|(k, _)| *k).collect();
                return Err(InputError::new(format!(
                    "--set {key}: not a rules key of {}; use one of {}",
                    info.name,
                    keys.join(", ")
                ))
                .into());
            }
            rules.insert(key.clone(), toml_value(value));
        }
        let text = toml::to_string(&rules).expect("a TOML table prints");
        let players =
            rules.get("players").or(defaults.get("players")).and_then(toml::Value::as_integer).unwrap_or(2) as usize;
        let seats = seats_for(info, spec, players);
        let (runner, seats) = (info.build)(Some(&text), None, Some(&seats)).map_err(|e| {
            let at: Vec<String> = setting.iter().map(|(k, v)| format!("{k}={v}")).collect();
            e.context(format!("variant {}", at.join(" ")))
        })?;
        let lineup = Lineup::new(&seats);
        let plan = Plan { seed: spec.seed, rounds: spec.rounds, rotate: true, shard: None, until_ci: None };
        let tally = runner.run(&lineup, &plan, false, None, &mut |_, _| Ok(()))?;
        out.push(VariantResult { setting, strategies: lineup.strategies, tally });
    }
    Ok(out)
}

/// The variant-level metrics of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantMetrics {
    /// Best seat's win rate minus the worst seat's.
    pub seat_advantage: f64,
    /// Chips per round of the best strategy minus those of `random` (NaN without `random`).
    pub skill_gap: f64,
    /// Share of seat-rounds that reached a showdown.
    pub showdown_rate: f64,
    /// Share of seat-rounds folded in each betting round.
    pub fold_rates: Vec<f64>,
    /// Categories seen among finished hands, rarest first.
    pub rarity_order: Vec<String>,
    /// Whether rarity agrees with the standard ranking (rarer never ranks lower).
    pub standard_order_holds: bool,
}

/// Computes a run's variant metrics.
pub fn metrics(tally: &Tally, strategies: &[String], categories: &[&str]) -> VariantMetrics {
    let seats = &tally.seats;
    let rates: Vec<f64> = seats.iter().map(|c| c.win_rate().mean).collect();
    let seat_advantage =
        rates.iter().copied().fold(f64::MIN, f64::max) - rates.iter().copied().fold(f64::MAX, f64::min);
    let chips: Vec<f64> = (0..strategies.len()).map(|x| tally.chips_per_round(x).mean).collect();
    let skill_gap = match strategies.iter().position(|s| s == "random") {
        Some(r) => {
            chips.iter().enumerate().filter(|(i, _)| *i != r).map(|(_, c)| *c).fold(f64::NAN, f64::max) - chips[r]
        }
        None => f64::NAN,
    };
    let seat_rounds: u64 = seats.iter().map(|c| c.rounds).sum();
    let showdowns: u64 = seats.iter().map(|c| c.showdowns).sum();
    let betting_rounds = seats.first().map_or(0, |c| c.folds.len());
    let fold_rates = (0..betting_rounds)
        .map(|b| seats.iter().map(|c| c.folds[b]).sum::<u64>() as f64 / seat_rounds.max(1) as f64)
        .collect();
    let (rarity_order, standard_order_holds) = rarity(tally, categories);
    VariantMetrics {
        seat_advantage,
        skill_gap,
        showdown_rate: showdowns as f64 / seat_rounds.max(1) as f64,
        fold_rates,
        rarity_order,
        standard_order_holds,
    }
}

/// Categories among finished hands, rarest first, and whether that order agrees with the
/// standard ranking (each category no more common than the one below it).
pub fn rarity(tally: &Tally, categories: &[&str]) -> (Vec<String>, bool) {
    let counts: Vec<u64> = (0..categories.len()).map(|c| tally.finished.iter().map(|f| f[c]).sum()).collect();
    let mut seen: Vec<usize> = (0..categories.len()).filter(|&c| counts[c] > 0).collect();
    let holds = seen.windows(2).all(|w| counts[w[1]] <= counts[w[0]]);
    seen.sort_by_key(|&c| (counts[c], std::cmp::Reverse(c)));
    (seen.iter().map(|&c| categories[c].to_string()).collect(), holds)
}

/// The long sweep table: a row per (variant, strategy).
pub fn sweep_table(results: &[VariantResult], spec: &crate::output::TableSpec) -> Table {
    let categories = spec.categories;
    let keys: Vec<String> = results.first().map_or(Vec::new(), |r| r.setting.iter().map(|(k, _)| k.clone()).collect());
    let mut key_cols: Vec<Vec<String>> = vec![Vec::new(); keys.len()];
    let mut strategy = Vec::new();
    let mut cols: Vec<Vec<f64>> = vec![Vec::new(); 10];
    let mut rounds = Vec::new();
    let mut folds: Vec<Vec<f64>> = Vec::new();
    let mut order = Vec::new();
    let mut holds = Vec::new();
    for r in results {
        let m = metrics(&r.tally, &r.strategies, categories);
        let summary = &run_tables(&r.tally, &r.strategies, spec)[0];
        let get = |name: &str| match summary.column(name) {
            Some(Values::Float(v)) => v.clone(),
            _ => Vec::new(),
        };
        let (wr, wlo, whi) = (get("win_rate"), get("win_rate_lo"), get("win_rate_hi"));
        let (cr, clo, chi) = (get("chips_per_round"), get("chips_per_round_lo"), get("chips_per_round_hi"));
        folds.resize(folds.len().max(m.fold_rates.len()), Vec::new());
        for (x, name) in r.strategies.iter().enumerate() {
            for (k, (_, v)) in r.setting.iter().enumerate() {
                key_cols[k].push(v.clone());
            }
            strategy.push(name.clone());
            rounds.push(r.tally.strategies[x].rounds as i64);
            for (col, v) in cols.iter_mut().zip([
                wr[x],
                wlo[x],
                whi[x],
                cr[x],
                clo[x],
                chi[x],
                m.seat_advantage,
                m.skill_gap,
                m.showdown_rate,
            ]) {
                col.push(v);
            }
            for (b, f) in folds.iter_mut().enumerate() {
                f.push(m.fold_rates.get(b).copied().unwrap_or(f64::NAN));
            }
            order.push(m.rarity_order.join(">"));
            holds.push(i64::from(m.standard_order_holds));
        }
    }
    let mut t = Table::new("sweep");
    for (k, values) in keys.iter().zip(key_cols) {
        t = t.with(k, Values::Text(values));
    }
    t = t.with("strategy", Values::Text(strategy)).with("rounds", Values::Int(rounds));
    let names = [
        "win_rate",
        "win_rate_lo",
        "win_rate_hi",
        "chips_per_round",
        "chips_per_round_lo",
        "chips_per_round_hi",
        "seat_advantage",
        "skill_gap",
        "showdown_rate",
    ];
    for (name, values) in names.iter().zip(cols) {
        t = t.with(name, Values::Float(values));
    }
    for (b, f) in folds.into_iter().enumerate() {
        t = t.with(&format!("fold_rate_r{}", b + 1), Values::Float(f));
    }
    t.with("rarity_order", Values::Text(order)).with("standard_order_holds", Values::Int(holds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_parse_values_and_lists() {
        let a = Axis::parse("players=3,4,5").unwrap();
        assert_eq!(a.values, vec!["3", "4", "5"]);
        let a = Axis::parse("bet_sizes=[1,1,2],[2,2,4]").unwrap();
        assert_eq!(a.values, vec!["[1,1,2]", "[2,2,4]"]);
        assert!(Axis::parse("players").is_err());
        assert_eq!(toml_value("3"), toml::Value::Integer(3));
        assert_eq!(toml_value("last-pick"), toml::Value::String("last-pick".into()));
        assert_eq!(toml_value("true"), toml::Value::Boolean(true));
        let g = grid(&[Axis::parse("a=1,2").unwrap(), Axis::parse("b=x,y,z").unwrap()]);
        assert_eq!(g.len(), 6);
        assert_eq!(g[1], vec![("a".to_string(), "1".to_string()), ("b".to_string(), "y".to_string())]);
    }
}
