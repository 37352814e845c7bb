//! `draftsim sweep`: a grid of rules or strategy settings, every variant on the same deals.

use anyhow::Result;
use clap::Args;
use draftsim::output::{Format, OutputDir, Table, Values, fixed};
use draftsim::sim::Tally;
use draftsim::stats::Estimate;
use draftsim::study::kind::{self, Kind};
use draftsim::study::{self, Axis, SweepSpec, VariantResult};

use super::args::{BatchArgs, GameArgs, QuietArg};
use super::interrupt::INTERRUPTED;
use super::study::*;

/// Arguments of `draftsim sweep`: --set, --vary or both.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("swept").args(["set", "vary"]).required(true).multiple(true)))]
pub struct SweepArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub batch: BatchArgs,
    /// A rules key and its values, e.g. players=3,4,5 (repeat for a grid). Seats are cycled
    /// to each variant's player count; with no seats given, the game's mix with one random seat.
    #[arg(long = "set", value_name = "KEY=V1,V2")]
    pub set: Vec<String>,
    /// A strategy parameter and its values, e.g. hate.draft.weight=0,0.5,1 (repeatable,
    /// combinable with --set): every seat playing the preset plays each derived preset.
    #[arg(long = "vary", value_name = "PRESET.PATH=V1,V2")]
    pub vary: Vec<String>,
    #[command(flatten)]
    pub shard: ShardArg,
    /// A limit on a figure of every variant, e.g. 'timeouts<=0.01' or 'completion>=0.9'
    /// (repeatable): the variants whose interval crosses it are named, here and in the report.
    #[arg(long, value_name = "FIGURE<=X|FIGURE>=X")]
    pub require: Vec<String>,
    /// Print every column of the sweep table (the files always hold them all); by default
    /// the terminal gets a table per variant and one per strategy, each at most 120
    /// characters wide.
    #[arg(long)]
    pub wide: bool,
}

/// Runs the sweep.
pub fn sweep(args: SweepArgs) -> Result<()> {
    let info = args.game.game.info()?;
    let axes = args.set.iter().map(|s| Axis::parse(s)).collect::<Result<Vec<_>, _>>()?;
    let vary = (args.vary.iter().map(|s| Axis::parse_flag("--vary", "hate.draft.weight=0,0.5", s)))
        .collect::<Result<Vec<_>, _>>()?;
    let rounds = args.batch.rounds.get(100_000)?;
    let spec = SweepSpec {
        rules: args.game.game.rules_text()?,
        axes,
        vary,
        seats: args.game.seats.list(),
        players: args.game.players.players,
        rounds,
        seed: args.batch.seed.seed,
    };
    // The rules file as written first, so an error names its own line (a swept player
    // count may mend the file's).
    if spec.rules.is_some() && !spec.axes.iter().any(|a| a.key == "players") {
        args.game.game.build(info, spec.rules.as_deref(), spec.players, None)?;
    }
    let (base_rules, players, seats) = study::sweep::base(info, &spec)?;
    // Said (held till play) where the file did not go through the build above.
    if let Some(path) = &args.game.game.rules {
        super::args::warn_default_game(args.game.game.game.as_deref(), path, spec.rules.as_deref());
    }
    let requires = args.require.iter().map(|r| study::tune::Constraint::parse(r)).collect::<Result<Vec<_>, _>>()?;
    if !requires.is_empty() {
        let known = study::tune::known_metrics(info, Some(&base_rules), Some(&seats))?;
        study::tune::check_requires(&requires, &known, info.name)?;
    }
    // The base's rules in force (every default written out), when the base alone builds.
    let rules = (info.build)(Some(&base_rules), None, Some(&seats)).map_or(base_rules, |(g, _)| g.rules_toml());
    let shard = args.shard.get(&args.batch.output)?;
    let (format, out) = args.batch.output.open()?;
    let variants = study::sweep::variant_count(&spec);
    let players_note = match spec.axes.iter().find(|a| a.key == "players") {
        Some(a) => format!("players {}", a.values.join(",")),
        None => format!("{players} players"),
    };
    let played = study::sweep::units_per_variant(info, &spec)?;
    let units_played = super::args::units_each(rounds, played.played, (&played.words.0, &played.words.1), "variant");
    let note = format!(
        "{} · {players_note} · seats {}{} · seed {} · {}, {variants} variant{}",
        info.name,
        spec.seats.clone().unwrap_or_else(|| draftsim::sim::listed(&seats, players)).join(","),
        match &spec.seats {
            // Swept sizes share the base size's field: say which size that is.
            None if spec.axes.iter().any(|a| a.key == "players") => {
                format!(" (the game's mix at {players} players with one random seat, a field filling every size)")
            }
            None => " (the game's mix with one random seat)".to_string(),
            // A field fills the table, where `run` would seat one player each: say so.
            Some(s) if s.len() != players && !spec.axes.iter().any(|a| a.key == "players") => {
                // Offered only where the game seats that many (Winston seats two).
                let one_each = (info.build)(spec.rules.as_deref(), Some(s.len()), Some(s)).is_ok();
                let hint = if one_each { format!("; --players {} seats one each", s.len()) } else { String::new() };
                format!(" (a field filling the {players} seats{hint})")
            }
            Some(_) => String::new(),
        },
        spec.seed,
        units_played,
        if variants == 1 { "" } else { "s" }
    );
    let mut meta = serde_json::json!({
        "kind": kind::SWEEP.name,
        "game": info.name,
        "seed": spec.seed,
        "rounds": spec.rounds,
        "set": args.set,
        "vary": args.vary,
        // A swept player count is listed; the seats are the field every variant seats.
        "players": spec.axes.iter().find(|a| a.key == "players").map_or(serde_json::json!(players), |a| serde_json::json!(a.values)),
        "seats": spec.seats.clone().unwrap_or_else(|| draftsim::sim::listed(&seats, players)),
        "rules": rules,
        // What each variant played, as the opening line says it (whole deals).
        "played": units_played,
    });
    // Keys a swept key brings along (Seven Card Draft's betting rounds with its pack):
    // said, so a variant's rules are not read as the base's with one key changed.
    let followed = study::sweep::followed(info, &spec)?;
    let followed_note = (!followed.is_empty()).then(|| {
        let mut by: Vec<(&str, Vec<&str>)> = Vec::new();
        for (k, f) in &followed {
            match by.iter_mut().find(|(g, _)| g == f) {
                Some((_, ks)) => ks.push(k),
                None => by.push((f, vec![k])),
            }
        }
        let parts: Vec<String> = by
            .iter()
            .map(|(f, ks)| format!("{} follow{} {f}", ks.join(", "), if ks.len() == 1 { "s" } else { "" }))
            .collect();
        format!(
            "{} in each variant, unless --set names {}",
            parts.join("; "),
            if followed.len() == 1 { "it" } else { "them" }
        )
    });
    if let Some(n) = &followed_note {
        meta["notes"] = serde_json::json!([n]);
        meta["followed"] = serde_json::json!(
            followed.iter().map(|(k, f)| serde_json::json!({"key": k, "follows": f})).collect::<Vec<_>>()
        );
    }
    if !requires.is_empty() {
        meta["require"] = serde_json::json!(requires.iter().map(study::tune::Constraint::text).collect::<Vec<_>>());
    }
    // On Ctrl-C the error returns through here, dropping the staging folder unwritten.
    let results = play(&args.batch.exec, |step| {
        // The note once the first variant is built: bad rules or seats are refused in one
        // line, before it.
        let mut noted = false;
        study::sweep_shard(info, &spec, shard, Some(&INTERRUPTED), &mut |done, total, label| {
            if !std::mem::replace(&mut noted, true) {
                args.batch.exec.note(&note);
                if let Some(n) = &followed_note {
                    args.batch.exec.note(n);
                }
            }
            step(done, total, label);
        })
    })?;
    if let Some(shard) = shard {
        let results = results.iter().map(|r| serde_json::to_value(&r.tally)).collect::<Result<_, _>>()?;
        let part = StudyShard::new(&kind::SWEEP, info.name, &spec, meta, shard, variants, results)?;
        return write_shard(out, format, part, &args.batch.exec.quiet);
    }
    finish_sweep(&results, meta, out, format, (&args.batch.exec.quiet, args.wide))
}

/// A variant's setting as the terminal names it: `players=4 ante=1`.
fn setting_label(r: &VariantResult) -> String {
    r.setting.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
}

/// Deal groups under which a variant's intervals are warned of as rough.
const FEW_GROUPS: u64 = 30;

/// Notes the variants' warnings, prints the sweep table and writes it: the same for a
/// whole sweep and one merged from shards.
pub(super) fn finish_sweep(
    results: &[VariantResult],
    mut meta: serde_json::Value,
    out: Option<OutputDir>,
    format: Format,
    (quiet, wide): (&QuietArg, bool),
) -> Result<()> {
    // Each warning once, with the variants it holds in.
    let mut warnings: Vec<(String, Vec<String>)> = Vec::new();
    for r in results {
        for w in &r.warnings {
            match warnings.iter_mut().find(|(text, _)| text == w) {
                Some((_, at)) => at.push(setting_label(r)),
                None => warnings.push((w.clone(), vec![setting_label(r)])),
            }
        }
    }
    for (text, at) in warnings {
        let at = if at.len() == results.len() { "every variant".to_string() } else { at.join("; ") };
        super::args::warn(&format!("{text} (in {at})"));
    }
    // A variant of one deal leaves its whole-run figures over deals unbounded (as `run`
    // warns too).
    if let Some(r) = results.iter().find(|r| r.tally.deal_groups() == 1) {
        let intervals = "its whole-run figures over deals (length_mean, skill_gap) need two deals: with one they span all they can be";
        let n = r.tally.rounds;
        let subject =
            format!("{n} {} a variant", draftsim::output::noun(n as i64, &r.measures.unit, &r.measures.units()));
        super::args::warn_one_deal(&subject, "", intervals, 2 * n);
    }
    // A variant whose table seats many more ways a deal (more players) plays fewer deal
    // groups from the same rounds: its intervals rest on a handful, however many units.
    let few: Vec<&VariantResult> =
        results.iter().filter(|r| (2..FEW_GROUPS).contains(&r.tally.deal_groups())).collect();
    if let Some(most) = few.iter().map(|r| r.tally.rounds.div_ceil(r.tally.deal_groups())).max() {
        let named: Vec<String> =
            few.iter().map(|r| format!("{} ({} deal groups)", setting_label(r), r.tally.deal_groups())).collect();
        super::args::warn(&format!(
            "{}: fewer than {FEW_GROUPS} deal groups (every seating of a deal is one), so their intervals rest on so few observations that they are rough; use --rounds {} or more",
            named.join("; "),
            most * FEW_GROUPS
        ));
    }
    let table = study::sweep_table(results);
    if wide {
        say!("{}", table.to_aligned_text(4));
    } else {
        let (variants, strategies) = terminal_views(&table);
        say!("{}\n{}", variants.to_aligned_text(4), strategies.to_aligned_text(4));
    }
    // As `run` says it: the column keeps one name in every study (only the wide table has it).
    if let Some(r) = results
        .iter()
        .find(|r| (0..r.tally.strategy_count()).any(|x| r.tally.strategy(x).rounds > r.tally.rounds))
        .filter(|_| wide)
    {
        say!(
            "(a strategy's rounds column counts seat-{} where it holds several seats: a {} once for each seat)",
            r.measures.units(),
            r.measures.unit
        );
    }
    // As `run` says it: a score column named per round is per the game's unit.
    let mut units: Vec<&str> = Vec::new();
    for r in results.iter().filter(|r| r.measures.score.column.contains("_per_round")) {
        if !units.contains(&r.measures.unit.as_str()) {
            units.push(&r.measures.unit);
        }
    }
    if units.iter().any(|u| *u != "round") {
        say!(
            "({} is per {}; the columns keep these names in every game)",
            results[0].measures.score.column,
            match units.as_slice() {
                [one] => one.to_string(),
                several => format!("each variant's unit ({})", several.join(" or ")),
            }
        );
    }
    // Where a swept key changes what is dealt (players, deck) the variants play other
    // deals, and a figure that repeats says nothing of why.
    let deals_alike = !results.iter().flat_map(|r| &r.setting).any(|(k, _)| study::versus::changes_the_deal(k));
    let same = same_in_every_variant(&table);
    if results.len() > 1 && deals_alike && !same.is_empty() {
        say!(
            "{} the same in every variant: each variant plays the same deals from the same seed, so a figure \
             that no swept setting changes for these seats repeats exactly.",
            match same.as_slice() {
                [one] => format!("{one} is"),
                [first @ .., last] => format!("{} and {last} are", first.join(", ")),
                [] => unreachable!("not empty"),
            }
        );
    }
    // The limits the sweep keeps: each variant that does not surely meet one, by name.
    // Each limit's figure is kept too, a variant a row named by its setting: a figure of the
    // whole game that the table has no column for (a game's own measure) is then checked
    // by `report` as here.
    let mut kept = serde_json::Map::new();
    let requires: Vec<String> =
        meta["require"].as_array().into_iter().flatten().map(|t| t.as_str().unwrap_or_default().to_string()).collect();
    for text in &requires {
        let c = study::tune::Constraint::parse(text)?;
        let mut missed = Vec::new();
        let mut values: [Vec<f64>; 3] = Default::default();
        let mut labels = Vec::new();
        for r in results {
            let metrics = study::tune::metric_estimates(&r.tally, &r.strategies, &r.measures);
            let label = setting_label(r);
            labels.push(label.clone());
            let found = metrics.iter().find(|(n, _)| *n == c.metric).map(|(_, e)| *e);
            let e = found.unwrap_or(Estimate { mean: f64::NAN, lo: f64::NAN, hi: f64::NAN });
            for (v, x) in values.iter_mut().zip([e.mean, e.lo, e.hi]) {
                v.push(x);
            }
            // A variant that does not have the figure (or measured none of it) is no pass.
            let Some(e) = found.filter(|e| !e.mean.is_nan()) else {
                missed.push(format!("{} not measured", label));
                continue;
            };
            let verdict = c.verdict(&e);
            if verdict != study::tune::Verdict::Met {
                missed.push(format!(
                    "{} {} ({}, {} – {})",
                    label,
                    verdict.words().split(" (").next().unwrap_or_default(),
                    fixed(e.mean, 4),
                    fixed(e.lo, 4),
                    fixed(e.hi, 4)
                ));
            }
        }
        // NaN is written as null: a variant that did not measure the figure.
        let [mean, lo, hi] = values;
        // Each value's variant by its setting, so the report matches them by name.
        kept.insert(c.metric.clone(), serde_json::json!({ "variants": labels, "mean": mean, "lo": lo, "hi": hi }));
        if missed.is_empty() {
            say!("{}: met in every variant.", c.text());
        } else {
            say!(
                "{}: met in {} of {} variants; not surely met in: {}.",
                c.text(),
                results.len() - missed.len(),
                results.len(),
                missed.join("; ")
            );
        }
    }
    if !kept.is_empty() {
        meta["limit_figures"] = serde_json::Value::Object(kept);
    }
    write_study(out, &[table], format, meta, quiet)
}

/// A value and its interval in one cell, three decimals: `0.041 [0.013, 0.070]`.
fn with_interval(table: &Table, name: &str, row: usize) -> String {
    let at = |column: &str| match table.column(column) {
        Some(Values::Float(v) | Values::Real(v)) => v[row],
        _ => f64::NAN,
    };
    let (mean, lo, hi) = (at(name), at(&format!("{name}_lo")), at(&format!("{name}_hi")));
    match (mean.is_nan(), lo.is_nan() || hi.is_nan()) {
        (true, _) => "-".to_string(),
        (false, true) => fixed(mean, 3),
        (false, false) => format!("{} [{}, {}]", fixed(mean, 3), fixed(lo, 3), fixed(hi, 3)),
    }
}

/// The figures the terminal shows that are equal to the last bit, interval and all, in every
/// variant (each strategy's own across the variants); not one left undefined (`-`), nor
/// one whose interval has no width anywhere (a completion of 1 in a game without ties).
fn same_in_every_variant(table: &Table) -> Vec<String> {
    let score = table.columns.iter().position(|(n, _)| n == "win_rate_hi").and_then(|i| table.columns.get(i + 1));
    let figures = ["seat_advantage", "skill_gap", "completion", "length_mean", "win_rate"];
    let figures = figures.into_iter().map(str::to_string).chain(score.map(|(name, _)| name.clone()));
    let Some(Values::Text(strategy)) = table.column("strategy") else { return Vec::new() };
    figures
        .filter(|figure| {
            let value = |column: &str, row: usize| match table.column(column) {
                Some(Values::Float(v) | Values::Real(v)) => v[row].to_bits(),
                _ => f64::NAN.to_bits(),
            };
            let cells = |row: usize| ["", "_lo", "_hi"].map(|end| value(&format!("{figure}{end}"), row));
            let constant = |row: usize| {
                let [mean, lo, hi] = cells(row).map(f64::from_bits);
                mean.is_nan() || lo == hi
            };
            table.column(figure).is_some()
                && !(0..table.rows()).any(constant)
                && (0..table.rows()).all(|r| {
                    let first = strategy.iter().position(|s| *s == strategy[r]).expect("its own row");
                    cells(r) == cells(first)
                })
        })
        .collect()
}

/// What the terminal shows of the sweep table: a table per variant (its keys, the seat
/// advantage, skill gap, completion and length) and one per strategy (its keys, win rate
/// and score), each figure with its interval in one cell.
fn terminal_views(table: &Table) -> (Table, Table) {
    let keys: Vec<&(String, Values)> = table.columns.iter().take_while(|(name, _)| name != "strategy").collect();
    // Keys as the full table shows them (`0.5`, `1`), so both views name a variant alike.
    let key_cell = |row: usize| keys.iter().map(|(_, v)| v.shown(row, 4)).collect::<Vec<_>>();
    // A variant's rows are consecutive: its first is where the keys change.
    let firsts: Vec<usize> = (0..table.rows()).filter(|&r| r == 0 || key_cell(r) != key_cell(r - 1)).collect();
    let pick = |rows: &[usize], name: &str, out: Table| {
        out.with(name, Values::Text(rows.iter().map(|&r| with_interval(table, name, r)).collect()))
    };
    let keyed = |rows: &[usize], name: &str| {
        keys.iter().fold(Table::new(name), |t, (key, v)| {
            t.with(key, Values::Text(rows.iter().map(|&r| v.shown(r, 4)).collect()))
        })
    };
    let mut variants = keyed(&firsts, "variants");
    for figure in ["seat_advantage", "skill_gap", "completion", "length_mean"] {
        if table.column(figure).is_some() {
            variants = pick(&firsts, figure, variants);
        }
    }
    let all: Vec<usize> = (0..table.rows()).collect();
    // The score column follows the win rate's three.
    let score = table.columns.iter().position(|(n, _)| n == "win_rate_hi").and_then(|i| table.columns.get(i + 1));
    let mut strategies = keyed(&all, "strategies");
    strategies = strategies.with("strategy", table.column("strategy").cloned().unwrap_or(Values::Text(Vec::new())));
    strategies = pick(&all, "win_rate", strategies);
    if let Some((name, _)) = score {
        strategies = pick(&all, name, strategies);
    }
    (variants, strategies)
}

/// `sweep` as a sharded study: its units are the variants; a unit played in parts is one
/// tally, its parts' merged.
pub(super) struct Sweep;

impl Study for Sweep {
    fn kind(&self) -> &'static Kind {
        &kind::SWEEP
    }

    fn units(&self, m: &Merging) -> Result<usize> {
        Ok(study::sweep::variant_count(&m.spec()?))
    }

    fn merge(&self, m: Merging, to: MergedTables) -> Result<()> {
        let MergedTables { meta, out, format, quiet } = to;
        let spec: SweepSpec = m.spec()?;
        let mut tallies = Vec::with_capacity(m.results.len());
        for parts in m.results {
            // A unit in parts: each tally its own part's chunks; a whole unit's, its counts.
            let count = parts.len();
            let in_parts = m.in_parts;
            let mut parts = parts.into_iter().enumerate().map(|(k, (at, v))| {
                let tally = serde_json::from_value::<Tally>(v).map_err(|e| (m.wrong)(at, &e.to_string()))?;
                let fault = if in_parts { part_fault(&tally, k, count) } else { tally.count_fault() };
                match fault {
                    Some(fault) => Err((m.wrong)(at, &fault)),
                    None => Ok(tally),
                }
            });
            let mut total = parts.next().expect("a unit has a part")?;
            for t in parts {
                total.merge(&t?);
            }
            total.shard = None;
            tallies.push(total);
        }
        let results = study::sweep_from_tallies(m.info, &spec, tallies)?;
        finish_sweep(&results, meta, Some(out), format, (quiet, false))
    }
}
