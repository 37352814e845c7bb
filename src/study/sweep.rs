//! `sweep`: a grid over rules options named by their TOML keys, every variant played on the
//! same seed (common random numbers), one long table with a row per (variant, strategy).

use std::sync::atomic::AtomicBool;

use crate::error::{Error, InputError};
use crate::games::presets::{closest, derived_name, did_you_mean, split_top, toml_value};
use crate::games::{GameInfo, Runner};
use crate::output::{Table, Values};
use crate::sim::{Lineup, Measures, Mode, Plan, Seatings, Shard, Shown, Tally};
use crate::stats::Estimate;

/// One swept key and its values, as written on the command line (`players=3,4,5`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Axis {
    /// The rules key.
    pub key: String,
    /// Its values, as text.
    pub values: Vec<String>,
}

impl Axis {
    /// Parses `KEY=V1,V2,...` as `--set` takes it; commas inside brackets (TOML lists) do
    /// not split.
    pub fn parse(text: &str) -> Result<Axis, InputError> {
        Axis::parse_flag("--set", "players=3,4,5", text)
    }

    /// As [`Axis::parse`], for the command-line flag `flag`, whose refusals name it and show
    /// `example` of what it takes.
    pub fn parse_flag(flag: &str, example: &str, text: &str) -> Result<Axis, InputError> {
        let refused = |what: &str| InputError::new(format!("{flag} {text}: {what}, e.g. {flag} {example}"));
        let (key, values) = text.split_once('=').ok_or_else(|| refused("write the key, = and its values"))?;
        let out = split_top(values, ',');
        if key.trim().is_empty() || out.is_empty() {
            return Err(refused("give a key and at least one value"));
        }
        Ok(Axis { key: key.trim().to_string(), values: out })
    }
}

/// What to sweep.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SweepSpec {
    /// Base rules file text, if any.
    pub rules: Option<String>,
    /// The swept rules keys.
    pub axes: Vec<Axis>,
    /// Swept strategy parameters: keys `PRESET.PATH` (e.g. `hate.draft.weight`); every seat
    /// playing PRESET plays the derived preset instead.
    pub vary: Vec<Axis>,
    /// Seats (cycled to each variant's player count); `None` for the game's default seats
    /// with one `random` seat, so the skill gap can be measured.
    pub seats: Option<Vec<String>>,
    /// Players in every variant (over the rules file's), unless `players` is swept.
    pub players: Option<usize>,
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
    /// Each axis's value as the rules or preset read it (a whole number written for a key
    /// that holds a real is a real), so the table's key columns keep their types.
    pub typed: Vec<toml::Value>,
    /// The strategies seated.
    pub strategies: Vec<String>,
    /// The run's tally.
    pub tally: Tally,
    /// What the variant measures.
    pub measures: Measures,
    /// Options of the variant's rules that change nothing (see `Runner::warnings`).
    pub warnings: Vec<String>,
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

/// The field at `players` seats. The field is the seats given, or the game's mix at the
/// base's player count (`base_players`) with one `random` seat so the skill gap can be
/// measured; it stays the same at every size. At its own size it is the lineup; at any
/// other, each strategy keeps an equal share of the seats ([`crate::sim::field`]), and a
/// field that cannot (a strategy listed twice) is refused in one line.
pub fn seats_for(
    info: &GameInfo,
    seats: Option<&[String]>,
    base_players: usize,
    players: usize,
) -> Result<Vec<String>, InputError> {
    // Each count in the game's own range, said as `run` says it (and before the mix is
    // asked for no seats).
    let counts = [base_players, players];
    for &n in &counts[..if base_players == players { 1 } else { 2 }] {
        (info.build)(None, Some(n), None)?;
    }
    let field = match seats {
        Some(s) => s.to_vec(),
        None => {
            let mut seats = (info.default_seats)(base_players);
            if !seats.iter().any(|s| s == "random") {
                *seats.last_mut().expect("at least two seats") = "random".to_string();
            }
            seats
        }
    };
    // The game's mix repeats a preset past its own length: at another size its presets
    // share the seats equally.
    let field = if seats.is_none() && field.len() != players { Lineup::new(&field).strategies } else { field };
    if field.len() != players
        && let Some(twice) = super::repeated(&field)
    {
        return Err(InputError::new(format!(
            "--seats: at {players} players the seats are a field, each strategy an equal share of the seats: list each strategy once ({twice} is listed twice)"
        )));
    }
    let entries = crate::sim::field(&field, players);
    crate::sim::Seatings::new(&Lineup::new(&entries), players, true).map_err(|e| {
        // Said once where the fault is the count itself.
        if e.to_string().starts_with("players =") { e } else { InputError::new(format!("players = {players}: {e}")) }
    })?;
    Ok(entries)
}

/// A base rules file over the game's defaults, from which variants are made.
pub(crate) struct RulesBase<'a> {
    info: &'a GameInfo,
    base: toml::Table,
    defaults: toml::Table,
}

impl<'a> RulesBase<'a> {
    /// The base: the rules file's text, or the defaults alone.
    pub(crate) fn new(info: &'a GameInfo, rules: Option<&str>) -> Result<RulesBase<'a>, InputError> {
        let base = match rules {
            Some(text) => toml::from_str(text).map_err(|e| InputError::new(format!("--rules: {}", e.message())))?,
            None => toml::Table::new(),
        };
        let defaults = toml::from_str(&(info.default_rules)()).unwrap_or_default();
        Ok(RulesBase { info, base, defaults })
    }

    /// The base with `players` set (from `--players`).
    pub(crate) fn with_players(mut self, players: Option<usize>) -> RulesBase<'a> {
        if let Some(n) = players {
            self.base.insert("players".into(), toml::Value::Integer(n as i64));
        }
        self
    }

    /// The value `key` has before any variant sets it: the base's, else the default.
    pub(crate) fn declared(&self, key: &str) -> Option<&toml::Value> {
        self.base.get(key).or(self.defaults.get(key))
    }

    /// The rules text with `setting`'s keys set and nothing brought along, and its player
    /// count.
    fn unfollowed(&self, setting: &[(String, String)], flag: &str) -> Result<(String, usize), InputError> {
        let mut rules = self.base.clone();
        for (key, value) in setting {
            let known = self.defaults.contains_key(key)
                || self.base.contains_key(key)
                || self.info.rules_help.iter().any(|(k, _)| k == key);
            if !known {
                let keys: Vec<&str> = self.info.rules_help.iter().map(|(k, _)| *k).collect();
                let close = did_you_mean(&closest(key, keys.iter().copied()), "");
                return Err(InputError::new(format!(
                    "{flag} {key}: not a rules key of {}{}; use one of {}",
                    self.info.name,
                    close,
                    keys.join(", ")
                )));
            }
            rules.insert(key.clone(), toml_value(value));
        }
        let players = match rules.get("players").or(self.defaults.get("players")) {
            None => 2,
            Some(v) => v.as_integer().filter(|&n| n >= 0).ok_or_else(|| {
                InputError::new(format!("players = {v}: give a whole number of players, e.g. players = 4"))
            })?,
        };
        // Written out, so a field of more or fewer strategies than seats keeps the count.
        if self.defaults.contains_key("players") {
            rules.insert("players".into(), toml::Value::Integer(players));
        }
        Ok((toml::to_string(&rules).expect("a TOML table prints"), players as usize))
    }

    /// The rules text with `setting`'s keys set and the keys they bring along
    /// ([`GameInfo::follow`]), and its player count; an unknown key is an error naming
    /// `flag` and the game's keys.
    pub(crate) fn variant(&self, setting: &[(String, String)], flag: &str) -> Result<(String, usize), InputError> {
        self.variant_followed(setting, flag).map(|(text, players, _)| (text, players))
    }

    /// As [`RulesBase::variant`], with the keys brought along, each with the set key it
    /// follows.
    fn variant_followed(&self, setting: &[(String, String)], flag: &str) -> Result<VariantText, InputError> {
        let (mut text, players) = self.unfollowed(setting, flag)?;
        let named: Vec<&str> = setting.iter().map(|(k, _)| k.as_str()).collect();
        let mut brought = Vec::new();
        for key in &named {
            if let Some((next, moved)) = (self.info.follow)(&text, key, &named) {
                text = next;
                brought.extend(moved.into_iter().map(|k| (k, key.to_string())));
            }
        }
        Ok((text, players, brought))
    }
}

/// A variant's rules text, player count and the keys brought along (the key, the set key it
/// follows).
type VariantText = (String, usize, Vec<(String, String)>);

/// The rules keys that some variant's swept key brings along ([`GameInfo::follow`]:
/// Seven Card Draft's betting rounds follow its `pack_size`), each with the swept key it
/// follows, first met first.
pub fn followed(info: &GameInfo, spec: &SweepSpec) -> Result<Vec<(String, String)>, InputError> {
    let base = RulesBase::new(info, spec.rules.as_deref())?.with_players(spec.players);
    let mut out: Vec<(String, String)> = Vec::new();
    for setting in grid(&spec.axes) {
        for (k, f) in base.variant_followed(&setting, "--set")?.2 {
            if !out.iter().any(|(o, _)| *o == k) {
                out.push((k, f));
            }
        }
    }
    Ok(out)
}

/// A `--vary` key's preset and path: the longest seated strategy the key starts with,
/// since a preset file's name holds a dot of its own (`mine.toml.bet.p`).
fn split_vary_key<'k>(key: &'k str, seats: &[String]) -> Option<(&'k str, &'k str)> {
    let seated = seats.iter().map(String::as_str).filter(|s| key.len() > s.len() + 1 && key.starts_with(s));
    let n = seated.filter(|s| key.as_bytes()[s.len()] == b'.').map(str::len).max()?;
    Some((&key[..n], &key[n + 1..]))
}

/// The seats with every seat playing a varied preset replaced by its derived preset
/// (`hate` with `hate.draft.weight=0.5` becomes `hate{draft.weight=0.5}`).
fn vary_seats(info: &GameInfo, seats: Vec<String>, vary: &[(String, String)]) -> Result<Vec<String>, InputError> {
    let mut overrides: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for (key, value) in vary {
        let (preset, path) = match split_vary_key(key, &seats) {
            Some(split) => split,
            None => {
                let (preset, _) = key.split_once('.').ok_or_else(|| {
                    InputError::new(format!(
                        "--vary {key}: write PRESET.PATH=V1,V2, e.g. {}",
                        vary_example(info, &seats)
                    ))
                })?;
                let mut distinct: Vec<&str> = Vec::new();
                for s in &seats {
                    if !distinct.contains(&s.as_str()) {
                        distinct.push(s);
                    }
                }
                // Seating a name the game does not know would only fail next.
                if (info.preset_text)(preset).is_err() {
                    return Err(InputError::new(format!(
                        "--vary {key}: '{preset}' is no strategy of {}{}; vary a seated one, e.g. {}",
                        info.name,
                        did_you_mean(&closest(preset, distinct.iter().copied()), "'"),
                        vary_example(info, &seats)
                    )));
                }
                return Err(InputError::new(format!(
                    "--vary {key}: no seat plays '{preset}'; seat it with --seats (seated now: {})",
                    distinct.join(",")
                )));
            }
        };
        match overrides.iter_mut().find(|(p, _)| p == preset) {
            Some((_, list)) => list.push((path.to_string(), value.clone())),
            None => overrides.push((preset.to_string(), vec![(path.to_string(), value.clone())])),
        }
    }
    Ok(seats
        .into_iter()
        .map(|s| match overrides.iter().find(|(p, _)| *p == s) {
            Some((p, list)) => derived_name(p, list),
            None => s,
        })
        .collect())
}

/// A `--vary` this game takes: the first seated preset with a number among its parameters,
/// that number's path and two values around it.
fn vary_example(info: &GameInfo, seats: &[String]) -> String {
    fn first_number(prefix: &str, table: &toml::Table) -> Option<(String, toml::Value)> {
        table.iter().find_map(|(k, v)| {
            let path = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
            match v {
                toml::Value::Integer(_) | toml::Value::Float(_) => Some((path, v.clone())),
                toml::Value::Table(t) => first_number(&path, t),
                toml::Value::Array(a) if a.first().is_some_and(|x| x.is_integer() || x.is_float()) => {
                    Some((format!("{path}[0]"), a[0].clone()))
                }
                _ => None,
            }
        })
    }
    // A derived seat (`tight{...}`) is no name to vary by.
    let found = seats.iter().filter(|s| !s.contains('{')).find_map(|s| {
        let table: toml::Table = toml::from_str(&(info.preset_text)(s).ok()?).ok()?;
        Some((s, first_number("", &table)?))
    });
    match found {
        Some((seat, (path, toml::Value::Integer(i)))) => format!("{seat}.{path}={i},{}", i + 1),
        // Halved, not doubled: a share or a probability stays in range.
        Some((seat, (path, value))) => {
            let x = value.as_float().filter(|&x| x != 0.0).unwrap_or(0.5);
            format!("{seat}.{path}={x:?},{:?}", x / 2.0)
        }
        None => "hate.draft.weight=0,0.5,1 (Seven Card Draft)".to_string(),
    }
}

/// The sweep's base before any swept key: its rules text (the rules file with
/// `--players`), its player count and its seats.
pub fn base(info: &GameInfo, spec: &SweepSpec) -> Result<(String, usize, Vec<String>), InputError> {
    // A key given twice would have its later values silently win over the earlier ones,
    // labelling rows with values that were never played.
    for (flag, axes) in [("--set", &spec.axes), ("--vary", &spec.vary)] {
        let repeat =
            axes.iter().enumerate().find_map(|(i, a)| axes[..i].iter().find(|b| b.key == a.key).map(|b| (b, a)));
        if let Some((first, again)) = repeat {
            return Err(InputError::new(format!(
                "{flag} {}: given twice; list every value once, e.g. {flag} {}={},{}",
                again.key,
                again.key,
                first.values.join(","),
                again.values.join(",")
            )));
        }
    }
    // A value given twice would play one variant twice under one label.
    for (flag, axes) in [("--set", &spec.axes), ("--vary", &spec.vary)] {
        for a in axes.iter() {
            if let Some(v) = super::repeated(&a.values) {
                return Err(InputError::new(format!(
                    "{flag} {}={}: {v} is given twice; list each value once",
                    a.key,
                    a.values.join(",")
                )));
            }
        }
    }
    if let Some(n) = spec.players
        && let Some(axis) = spec.axes.iter().find(|a| a.key == "players")
    {
        return Err(InputError::new(format!(
            "--players {n} and --set players={}: give one of them",
            axis.values.join(",")
        )));
    }
    let (text, players) =
        RulesBase::new(info, spec.rules.as_deref())?.with_players(spec.players).variant(&[], "--set")?;
    Ok((text, players, seats_for(info, spec.seats.as_deref(), players, players)?))
}

/// The value a varied preset parameter (`PRESET.PATH`, `PRESET.PATH[k]`) holds in its
/// preset, its default where the file leaves it out.
fn preset_value(info: &GameInfo, key: &str, seats: &[String]) -> Option<toml::Value> {
    let (preset, path) = split_vary_key(key, seats).or_else(|| key.split_once('.'))?;
    super::optimise::toml_at(&(info.preset_in_full)(preset).ok()?, path)
}

/// `text` read as TOML, a whole number made a real where the key holds a real.
fn typed_value(text: &str, declared: Option<&toml::Value>) -> toml::Value {
    match (toml_value(text), declared) {
        (toml::Value::Integer(i), Some(toml::Value::Float(_))) => toml::Value::Float(i as f64),
        (value, _) => value,
    }
}

/// How many variants the sweep's grid holds.
pub fn variant_count(spec: &SweepSpec) -> usize {
    spec.axes.iter().chain(&spec.vary).map(|a| a.values.len()).product()
}

/// Plays every variant of the grid (`shard` `None`), or only `shard`'s work (see
/// [`super::shard_work`]): its variants, each whole and exactly as the unsharded sweep
/// plays it, or its share of one variant's chunks when there are fewer variants than
/// shards; their results in grid order. `on_variant` hears (variants done, variants, the
/// next variant) once each variant is built, before it plays, and once at the end; the
/// sweep stops with [`Error::Interrupted`] soon after `interrupt` is set (Ctrl-C).
pub fn sweep_shard(
    info: &GameInfo,
    spec: &SweepSpec,
    shard: Option<Shard>,
    interrupt: Option<&AtomicBool>,
    on_variant: &mut dyn FnMut(usize, usize, &str),
) -> Result<Vec<VariantResult>, Error> {
    let super::ShardWork { units: wanted, part } = super::shard_work(variant_count(spec), shard);
    let plan = Plan {
        seed: spec.seed,
        rounds: spec.rounds,
        rotate: true,
        shard: part,
        until_ci: None,
        cards: false,
        first_deal: 0,
    };
    let results = variants(info, spec, &wanted, on_variant, &mut |runner, lineup| {
        runner.run(lineup, &plan, Mode::Tally, interrupt, &mut |_, _| Ok(()))
    })?;
    Ok(results)
}

/// The sweep's results from every variant's tally (in grid order, as shards of it played
/// them): each variant is built again, not played, so the results are those of the
/// unsharded sweep.
pub fn sweep_from_tallies(info: &GameInfo, spec: &SweepSpec, tallies: Vec<Tally>) -> Result<Vec<VariantResult>, Error> {
    let count = variant_count(spec);
    if tallies.len() != count {
        return Err(InputError::new(format!("sweep: {} variant tallies for {count} variants", tallies.len())).into());
    }
    let mut tallies = tallies.into_iter();
    let all: Vec<usize> = (0..count).collect();
    variants(info, spec, &all, &mut |_, _, _| {}, &mut |_, _| Ok(tallies.next().expect("one tally per variant")))
}

/// What the variants of a sweep play, as its opening line says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantUnits {
    /// The fewest and the most units a variant plays: its rounds rounded up to whole
    /// deals, whose seatings follow the variant's player count and seats.
    pub played: (u64, u64),
    /// The variants' unit, singular and plural ("round or game" where they differ).
    pub words: (String, String),
}

/// Each variant of the grid, in grid order: its setting, its rules text and its seats (not
/// yet built).
type VariantRules = Vec<(Vec<(String, String)>, String, Vec<String>)>;

/// The sweep's variants' rules and seats; a bad key, value or seat is refused.
fn variant_rules(info: &GameInfo, spec: &SweepSpec) -> Result<VariantRules, InputError> {
    let (_, base_players, _) = base(info, spec)?;
    let base = RulesBase::new(info, spec.rules.as_deref())?.with_players(spec.players);
    let all_axes: Vec<Axis> = spec.axes.iter().chain(&spec.vary).cloned().collect();
    grid(&all_axes)
        .into_iter()
        .map(|setting| {
            let (rules_setting, vary_setting) = setting.split_at(spec.axes.len());
            let (text, players) = base.variant(rules_setting, "--set")?;
            let seats = seats_for(info, spec.seats.as_deref(), base_players, players)?;
            let seats = vary_seats(info, seats, vary_setting)?;
            Ok((setting, text, seats))
        })
        .collect()
}

/// What the variants of a sweep play. A variant that does not build is left out (playing
/// it refuses it, naming the variant).
pub fn units_per_variant(info: &GameInfo, spec: &SweepSpec) -> Result<VariantUnits, Error> {
    let (mut units, mut one, mut many) = (Vec::new(), Vec::<String>::new(), Vec::<String>::new());
    for (_, text, seats) in variant_rules(info, spec)? {
        let built = (info.build)(Some(&text), None, Some(&seats)).ok().and_then(|(runner, seats)| {
            let seatings = Seatings::new(&Lineup::new(&seats), runner.players(), true).ok()?;
            Some((seatings.len() as u64, runner.measures().clone()))
        });
        if let Some((per, measures)) = built {
            units.push(crate::sim::deals_for(spec.rounds, per) * per);
            if !one.contains(&measures.unit) {
                one.push(measures.unit.clone());
                many.push(measures.units());
            }
        }
    }
    let (fewest, most) = (units.iter().min().copied(), units.iter().max().copied());
    let words = if one.is_empty() {
        ("round".to_string(), "rounds".to_string())
    } else {
        (one.join(" or "), many.join(" or "))
    };
    Ok(VariantUnits { played: (fewest.unwrap_or(spec.rounds), most.unwrap_or(spec.rounds)), words })
}

/// Gives a built variant (its runner and lineup) its tally: by playing it, or from a shard.
type TallyOf<'a> = dyn FnMut(&dyn Runner, &Lineup) -> Result<Tally, Error> + 'a;

/// Builds the variants listed in `wanted` (grid indices, ascending) and gives each the
/// tally `tally_of` returns for it; every variant's rules and seats are checked first.
fn variants(
    info: &GameInfo,
    spec: &SweepSpec,
    wanted: &[usize],
    on_variant: &mut dyn FnMut(usize, usize, &str),
    tally_of: &mut TallyOf,
) -> Result<Vec<VariantResult>, Error> {
    let (_, _, base_seats) = base(info, spec)?;
    let base = RulesBase::new(info, spec.rules.as_deref())?.with_players(spec.players);
    let mut out = Vec::new();
    if spec.axes.is_empty() && spec.vary.is_empty() {
        return Err(InputError::new("sweep: give --set KEY=V1,V2 or --vary PRESET.PATH=V1,V2").into());
    }
    let declared: Vec<Option<toml::Value>> = spec
        .axes
        .iter()
        .map(|a| base.declared(&a.key).cloned())
        .chain(spec.vary.iter().map(|a| preset_value(info, &a.key, &base_seats)))
        .collect();
    let label = |setting: &[(String, String)]| setting.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>();
    let build = |text: &str, seats: &[String], label: &[String]| {
        (info.build)(Some(text), None, Some(seats))
            // The rules text is the base's with the variant's keys set: its line numbers
            // are none of the user's.
            .map_err(|e| {
                let e = InputError::new(crate::games::presets::without_line(&e.to_string()))
                    .context(format!("variant {}", label.join(" ")));
                // A range, as tune's --param takes, is one value here.
                match label.iter().find(|l| l.contains("..")) {
                    Some(range) => {
                        let (key, value) = range.split_once('=').unwrap_or(("KEY", range));
                        let (from, to) = value.split_once("..").unwrap_or((value, value));
                        let listed = match (from.trim().parse::<i64>(), to.trim().parse::<i64>()) {
                            (Ok(a), Ok(b)) if b.checked_sub(a).is_some_and(|d| (1..12).contains(&d)) => {
                                (a..=b).map(|v| v.to_string()).collect::<Vec<_>>().join(",")
                            }
                            _ => "A,B,C".to_string(),
                        };
                        e.fixed_by(format!(
                            "a sweep plays the values listed, not a range: list them, e.g. {key}={listed}"
                        ))
                    }
                    None => e,
                }
            })
    };
    // Every variant this call plays is built first, so a bad key, value or seat is refused
    // before anything plays (and before the sweep says what it plays); each is built again
    // just before it plays, so that only one is held at a time.
    let variants = variant_rules(info, spec)?;
    for &index in wanted {
        let (setting, text, seats) = &variants[index];
        build(text, seats, &label(setting))?;
    }
    for &index in wanted {
        let (setting, text, seats) = &variants[index];
        let label = label(setting);
        let (runner, seats) = build(text, seats, &label)?;
        on_variant(out.len(), wanted.len(), &label.join(" "));
        let lineup = Lineup::new(&seats);
        let tally = tally_of(runner.as_ref(), &lineup)?;
        let typed = setting.iter().zip(&declared).map(|((_, v), d)| typed_value(v, d.as_ref())).collect();
        out.push(VariantResult {
            setting: setting.clone(),
            typed,
            strategies: lineup.strategies,
            tally,
            measures: runner.measures().clone(),
            warnings: runner.warnings(),
        });
    }
    on_variant(wanted.len(), wanted.len(), "");
    Ok(out)
}

/// The variant-level metrics of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantMetrics {
    /// The seats' spread of win rates (see [`crate::sim::SeatFigures`]), with its interval.
    pub seat_advantage: Estimate,
    /// Score per round of the best strategy minus that of `random`, with its interval
    /// (NaN without `random`).
    pub skill_gap: Estimate,
    /// The health card's other figures, then each measure shown per seat, over every
    /// seat-round of the run, each with its interval.
    pub measures: Vec<(String, Estimate)>,
    /// Mean length of a unit of play, with its interval.
    pub mean_length: Estimate,
    /// Bins of the first ranked histogram seen in the run, rarest first.
    pub rarity_order: Vec<String>,
    /// Whether rarity agrees with that histogram's order (rarer never ranks lower).
    pub standard_order_holds: bool,
}

/// Computes a run's variant metrics from its health card (seat advantage and skill gap
/// among them) and its declared measures.
pub fn metrics(tally: &Tally, strategies: &[String], measures: &Measures) -> VariantMetrics {
    let undefined = Estimate { mean: f64::NAN, lo: f64::NAN, hi: f64::NAN };
    let (mut seat_advantage, mut skill_gap, mut values) = (undefined, undefined, Vec::new());
    for f in crate::sim::health_figures(tally, strategies, measures, None) {
        match f.name.as_str() {
            "seat_advantage" => seat_advantage = f.value,
            "skill_gap" => skill_gap = f.value,
            _ => values.push((f.name, f.value)),
        }
    }
    let shown = measures.measures.iter().enumerate().filter(|(_, m)| m.shown == Shown::Both);
    values.extend(shown.map(|(i, m)| (m.column.clone(), tally.total_measure(i, m).0)));
    let (rarity_order, standard_order_holds) = rarity(tally, measures);
    VariantMetrics {
        seat_advantage,
        skill_gap,
        measures: values,
        mean_length: tally.mean_length(),
        rarity_order,
        standard_order_holds,
    }
}

/// The first ranked histogram's bins by the run's observations, rarest first (those never
/// observed first of all, marked `(never)`), and whether that order agrees with the declared one (each bin
/// no more common than the one below it). Histograms that are not a ranking (pile sizes, colours) have no such order.
pub fn rarity(tally: &Tally, measures: &Measures) -> (Vec<String>, bool) {
    let Some(h) = measures.histograms.iter().find(|h| h.ranked) else { return (Vec::new(), true) };
    let total = tally.total();
    let counts = &total.bins[h.offset..h.offset + h.bins.len()];
    // Every bin, those never seen too: a category with no hand is the rarest, and left
    // out it would make the next rarest look rarest.
    let mut bins: Vec<usize> = (0..h.bins.len()).collect();
    let holds = bins.windows(2).all(|w| counts[w[1]] <= counts[w[0]]);
    bins.sort_by_key(|&c| (counts[c], std::cmp::Reverse(c)));
    // A category no hand reached says so: rarest by being impossible here, or unseen.
    let named = |c: usize| if counts[c] == 0 { format!("{} (never)", h.bins[c]) } else { h.bins[c].clone() };
    (bins.iter().map(|&c| named(c)).collect(), holds)
}

/// A swept key's column: whole numbers if every value is one, reals if every value is a
/// number, else the values as written.
fn key_column(typed: &[&toml::Value], written: Vec<String>) -> Values {
    if typed.iter().all(|v| v.is_integer()) {
        Values::Int(typed.iter().filter_map(|v| v.as_integer()).collect())
    } else if typed.iter().all(|v| v.is_integer() || v.is_float()) {
        Values::Real(typed.iter().map(|v| v.as_float().unwrap_or_else(|| v.as_integer().unwrap_or(0) as f64)).collect())
    } else {
        Values::Text(written)
    }
}

/// The long sweep table: a row per (variant, strategy).
pub fn sweep_table(results: &[VariantResult]) -> Table {
    let keys: Vec<String> = results.first().map_or(Vec::new(), |r| r.setting.iter().map(|(k, _)| k.clone()).collect());
    let score_column = results.first().map_or("score_per_round".to_string(), |r| r.measures.score.column.clone());
    let metrics: Vec<VariantMetrics> = results.iter().map(|r| metrics(&r.tally, &r.strategies, &r.measures)).collect();
    // Measure columns in order of first appearance (variants may differ, e.g. in betting rounds).
    let mut measure_columns: Vec<String> = Vec::new();
    for m in &metrics {
        for (c, _) in &m.measures {
            if !measure_columns.contains(c) {
                measure_columns.push(c.clone());
            }
        }
    }
    let mut key_cols: Vec<Vec<String>> = vec![Vec::new(); keys.len()];
    let mut strategy = Vec::new();
    let mut rounds = Vec::new();
    let mut seat_share = Vec::new();
    let mut cols: Vec<Vec<f64>> = vec![Vec::new(); 12];
    // Each measure's value, then its interval's ends.
    let mut measure_values: Vec<[Vec<f64>; 3]> = vec![Default::default(); measure_columns.len()];
    let mut order = Vec::new();
    let mut holds = Vec::new();
    for (r, m) in results.iter().zip(&metrics) {
        for (x, name) in r.strategies.iter().enumerate() {
            for (k, (_, v)) in r.setting.iter().enumerate() {
                key_cols[k].push(v.clone());
            }
            strategy.push(name.clone());
            let counts = r.tally.strategy(x);
            rounds.push(counts.rounds as i64);
            // Who sat where: the strategy's share of every seat-unit of the variant.
            seat_share.push(counts.rounds as f64 / (r.tally.rounds * r.tally.seat_count as u64).max(1) as f64);
            let (win, score) = (r.tally.win_rate(x), r.tally.score_per_round(x));
            let (sa, gap) = (&m.seat_advantage, &m.skill_gap);
            let row = [
                win.mean, win.lo, win.hi, score.mean, score.lo, score.hi, sa.mean, sa.lo, sa.hi, gap.mean, gap.lo,
                gap.hi,
            ];
            for (col, v) in cols.iter_mut().zip(row) {
                col.push(v);
            }
            for (c, values) in measure_columns.iter().zip(&mut measure_values) {
                let e = m.measures.iter().find(|(name, _)| name == c).map(|(_, e)| *e);
                let e = e.unwrap_or(Estimate { mean: f64::NAN, lo: f64::NAN, hi: f64::NAN });
                for (v, x) in values.iter_mut().zip([e.mean, e.lo, e.hi]) {
                    v.push(x);
                }
            }
            order.push(m.rarity_order.join(">"));
            holds.push(m.standard_order_holds);
        }
    }
    let mut t = Table::new(super::kind::SWEEP.tables[0]);
    for (k, (key, values)) in keys.iter().zip(key_cols).enumerate() {
        let typed: Vec<&toml::Value> =
            results.iter().flat_map(|r| std::iter::repeat_n(&r.typed[k], r.strategies.len())).collect();
        t = t.with(key, key_column(&typed, values));
    }
    t = t
        .with("strategy", Values::Text(strategy))
        .with("rounds", Values::Int(rounds))
        .with("seat_share", Values::Float(seat_share));
    let names = [
        "win_rate".to_string(),
        "win_rate_lo".to_string(),
        "win_rate_hi".to_string(),
        score_column.clone(),
        format!("{score_column}_lo"),
        format!("{score_column}_hi"),
        "seat_advantage".to_string(),
        "seat_advantage_lo".to_string(),
        "seat_advantage_hi".to_string(),
        "skill_gap".to_string(),
        "skill_gap_lo".to_string(),
        "skill_gap_hi".to_string(),
    ];
    for (name, values) in names.iter().zip(cols) {
        t = t.with(name, Values::Float(values));
    }
    for (name, [values, lo, hi]) in measure_columns.iter().zip(measure_values) {
        t = t
            .with(name, Values::Float(values))
            .with(&format!("{name}_lo"), Values::Float(lo))
            .with(&format!("{name}_hi"), Values::Float(hi));
    }
    let length = |end: fn(&Estimate) -> f64| -> Vec<f64> {
        results
            .iter()
            .zip(&metrics)
            .flat_map(|(r, m)| std::iter::repeat_n(end(&m.mean_length), r.strategies.len()))
            .collect()
    };
    t = t
        .with("mean_length", Values::Float(length(|e| e.mean)))
        .with("mean_length_lo", Values::Float(length(|e| e.lo)))
        .with("mean_length_hi", Values::Float(length(|e| e.hi)));
    if results.iter().any(|r| r.measures.histograms.iter().any(|h| h.ranked)) {
        t = t.with("rarity_order", Values::Text(order)).with("standard_order_holds", Values::Bool(holds));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_varied_preset_file_is_named_by_its_whole_file_name() {
        let seats: Vec<String> = ["mine.toml", "tight", "mine.toml", "tight"].map(String::from).to_vec();
        let vary = [("mine.toml.bet.p".to_string(), "0.5".to_string())];
        let scd = crate::games::find("seven-card-draft").unwrap();
        let varied = vary_seats(scd, seats.clone(), &vary).unwrap();
        assert_eq!(varied, ["mine.toml{bet.p=0.5}", "tight", "mine.toml{bet.p=0.5}", "tight"]);
        let hate = [("hate.draft.weight".to_string(), "0".to_string())];
        let e = vary_seats(scd, seats.clone(), &hate).unwrap_err().to_string();
        assert!(e.contains("no seat plays 'hate'") && e.ends_with("(seated now: mine.toml,tight)"), "{e}");
        // A game without that preset says so, with an example from what it seats.
        let sevens = crate::games::find("sevens").unwrap();
        let seats: Vec<String> = ["tight", "greedy"].map(String::from).to_vec();
        let e = vary_seats(sevens, seats.clone(), &hate).unwrap_err().to_string();
        assert_eq!(
            e,
            "--vary hate.draft.weight: 'hate' is no strategy of sevens; vary a seated one, e.g. tight.bet.fold_below[0]=1.0,0.5"
        );
        let e = vary_seats(sevens, seats, &[("tight".to_string(), "0".to_string())]).unwrap_err().to_string();
        assert!(e.ends_with("e.g. tight.bet.fold_below[0]=1.0,0.5"), "{e}");
    }

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
