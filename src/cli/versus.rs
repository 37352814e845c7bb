//! `draftsim versus A.toml B.toml`: two rule sets on the same deals, and a one-screen verdict.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use draftsim::games;
use draftsim::output::{Format, OutputDir};
use draftsim::sim::{Lineup, Seatings};
use draftsim::study::kind::{self, Kind};
use draftsim::study::sensitivity::VariantGroups;
use draftsim::study::versus::{self, Difference, Verdict, VersusSpec};
use draftsim::{Fault, InputError};

use super::args::{BatchArgs, PlayersArg, QuietArg, SeatsArg};
use super::interrupt::INTERRUPTED;
use super::study::{MergedTables, Merging, ShardArg, Study, StudyShard, play, write_shard, write_study};

/// Arguments of `draftsim versus`.
#[derive(Args, Debug)]
pub struct VersusArgs {
    /// Rule set A: a rules file (TOML), or `defaults` for the game's defaults.
    #[arg(value_name = "A", value_hint = clap::ValueHint::FilePath)]
    pub a: PathBuf,
    /// Rule set B: a rules file (TOML), or `defaults`.
    #[arg(value_name = "B", value_hint = clap::ValueHint::FilePath)]
    pub b: PathBuf,
    #[arg(long, value_parser = super::args::Known(super::args::game_names), help = super::args::GAME_HELP)]
    pub game: Option<String>,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub seats: SeatsArg,
    #[command(flatten)]
    pub batch: BatchArgs,
    /// The smallest difference that matters for a figure, over its default (docs/studies.md
    /// lists them): FIGURE=VALUE, repeatable; `score` and `win_rate` (`win_rate_over_fair`
    /// where A and B seat different numbers) cover every strategy, `score:NAME` one.
    #[arg(long, value_name = "FIGURE=VALUE")]
    pub min_effect: Vec<String>,
    /// Print every figure's row, not only the verdict.
    #[arg(long)]
    pub all: bool,
    /// Play until every figure is decided (its interval clear of its smallest effect, or
    /// within it): deals double from a sixteenth of the rounds asked for (at least 64
    /// deals) up to all of them, each step replaying from the first deal, so the tables
    /// equal a plain run of the rounds played.
    #[arg(long, conflicts_with = "shard")]
    pub until_ci: bool,
    /// A folder `draftsim exploitability --out` wrote for this game: the verdict warns of
    /// each seated strategy measured there at least a score change that matters from
    /// optimal.
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub exploitability: Option<PathBuf>,
    #[command(flatten)]
    pub shard: ShardArg,
}

/// A side's rules file text (`None` for `defaults`).
fn rules_text(path: &std::path::Path, side: &str) -> Result<Option<String>> {
    if path.as_os_str() == "defaults" {
        return Ok(None);
    }
    draftsim::error::read_named_file(side, path, "give a rules file or `defaults`").map(Some).map_err(Into::into)
}

/// Plays both rule sets and prints the verdict.
pub fn versus(args: VersusArgs) -> Result<()> {
    let info = games::find(args.game.as_deref().unwrap_or(super::args::DEFAULT_GAME))?;
    // `--rounds 0` is refused once the deal's seatings are known, naming the fewest that
    // give an interval.
    let rounds = match args.batch.rounds.rounds {
        Some(0) => 0,
        _ => args.batch.rounds.get(20_000)?,
    };
    let mut min_effects = Vec::new();
    for text in &args.min_effect {
        let (name, value) = versus::parse_min_effect(text)?;
        if min_effects.iter().any(|(n, _): &(String, f64)| *n == name) {
            return Err(InputError::new(format!("--min-effect {name}: given twice; give each figure once")).into());
        }
        min_effects.push((name, value));
    }
    let mut spec = VersusSpec {
        rules_a: rules_text(&args.a, "A")?,
        rules_b: rules_text(&args.b, "B")?,
        players: args.players.players,
        seats: args.seats.list(),
        deals: 0,
        seed: args.batch.seed.seed,
        min_effects,
    };
    // Both tables built before anything plays: bad rules or seats are refused in one line,
    // each file first as written (so an error names its own line).
    for (text, path) in [(&spec.rules_a, &args.a), (&spec.rules_b, &args.b)] {
        if let Some(text) = text {
            // --players over a file's own count would compare something else than the file:
            // refused, as sweep refuses --players beside --set players.
            let set = toml::from_str::<toml::Table>(text)
                .ok()
                .and_then(|t| t.get("players").and_then(toml::Value::as_integer));
            if let (Some(n), Some(set)) = (spec.players, set)
                && set != n as i64
            {
                return Err(InputError::new(format!(
                    "--players {n}: {} sets players = {set}; give the count in the rules files or --players, not both",
                    path.display()
                ))
                .into());
            }
            (info.build)(Some(text), spec.players, None).map_err(|e| {
                // A count --players set is the flag's fault, not the file's, but only under
                // that file's rules (a short deck seats fewer): both are named.
                if spec.players.is_some() && e.fault() == Fault::Players {
                    e.context(format!("--players under {}", path.display()))
                } else if let Some(hint) = super::args::game_it_reads_as(info, text, &e) {
                    InputError::new(format!("{e}; {hint}")).context(path.display())
                } else {
                    e.context(path.display())
                }
            })?;
        }
    }
    let mut built = Vec::new();
    for (s, path) in [&args.a, &args.b].iter().enumerate() {
        let (text, seats) = versus::side(info, &spec, s)?;
        let (game, seats) = (info.build)(Some(&text), None, Some(&seats)).map_err(|e| {
            // Told to train a policy for these rules, a user would find it refused under
            // the other side's: say why no one policy can sit on both.
            let policy = e.fault() == Fault::PolicyElsewhere;
            // A strategy no side knows is the seat list's fault, not a rules file's.
            let e = if e.fault() == Fault::UnknownStrategy && spec.seats.is_some() {
                e.context("--seats")
            } else {
                e.context(path.display())
            };
            if policy {
                InputError::new(format!(
                    "{e}; versus seats the same strategies under A and B, and a trained policy plays only under the rules it was trained for, so one cannot sit at both: set each side's own policy against the presets with `run`"
                ))
            } else {
                e
            }
        })?;
        // A rule that does nothing under its side's other rules would read as a change
        // that does not matter.
        for w in game.warnings() {
            super::args::warn(&format!("under {}, {w}", ["A", "B"][s]));
        }
        built.push((game, seats));
    }
    let per = Seatings::new(&Lineup::new(&built[0].1), built[0].0.players(), true)?.len() as u64;
    spec.deals = draftsim::sim::deals_for(rounds, per);
    // Each figure is a paired difference over deals: one deal gives no interval, and a
    // verdict of no change from it would be no verdict.
    if spec.deals < 2 {
        return Err(InputError::new(format!(
            "--rounds {rounds}: that is {} deal a side ({per} seatings a deal at {} players), and a difference's interval needs two; use --rounds {} or more",
            if rounds == 0 { "no" } else { "one" },
            built[0].0.players(),
            2 * per
        ))
        .into());
    }
    let figure_names = known_figures(built[0].0.as_ref(), built[1].0.as_ref());
    // The win rate compares as one figure or the other, by the tables' sizes: the other name
    // would be ignored.
    let (pa, pb) = (built[0].0.players(), built[1].0.players());
    let (compared, other) =
        if pa != pb { (versus::WIN_OVER_FAIR, "win_rate") } else { ("win_rate", versus::WIN_OVER_FAIR) };
    if let Some((name, value)) = spec.min_effects.iter().find(|(n, _)| n.split(':').next() == Some(other)) {
        let sizes = if pa != pb { format!("A seats {pa} and B {pb}") } else { format!("A and B both seat {pa}") };
        return Err(InputError::new(format!(
            "--min-effect {name}={value}: {sizes}, so the win rate is compared as {compared}; write {}={value}",
            name.replacen(other, compared, 1)
        ))
        .into());
    }
    for (name, _) in &spec.min_effects {
        let (figure, strategy) = name.split_once(':').map_or((name.as_str(), None), |(f, s)| (f, Some(s)));
        if !figure_names.iter().any(|f| f == figure) {
            return Err(InputError::new(format!(
                "--min-effect {name}: not a figure versus reports; use one of {}",
                figure_names.join(", ")
            ))
            .into());
        }
        // A strategy's figure names a seated strategy, or it would be ignored.
        if let Some(strategy) = strategy {
            let mut seated: Vec<&String> = built[0].1.iter().chain(&built[1].1).collect();
            seated.sort();
            seated.dedup();
            if !matches!(figure, "score" | "win_rate" | versus::WIN_OVER_FAIR) || !seated.iter().any(|s| *s == strategy)
            {
                return Err(InputError::new(format!(
                    "--min-effect {name}: FIGURE:STRATEGY is for score, win_rate or win_rate_over_fair and a seated strategy ({}); write e.g. score:{}=0.1",
                    seated.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", "),
                    seated.first().map_or("greedy", |s| s.as_str())
                ))
                .into());
            }
        }
    }
    if let Some(dir) = &args.exploitability {
        // Checked before anything plays: a wrong folder is refused in one line.
        versus::exploitability_warnings(dir, info.name, &[], ("", ""), (0, 0))?;
    }
    let shard = args.shard.get(&args.batch.output)?;
    let (format, out) = args.batch.output.open()?;
    // Said once nothing is left to refuse, so bad input stays one line.
    for (text, path) in [(&spec.rules_a, &args.a), (&spec.rules_b, &args.b)] {
        super::args::warn_default_game(args.game.as_deref(), path, text.as_deref());
    }
    let (players_a, players_b) = (built[0].0.players(), built[1].0.players());
    args.batch.exec.note(&format!(
        "{} · A {} · B {} · {} · seats {} · seed {} · {}{} deals each ({} {} of A)",
        info.name,
        args.a.display(),
        args.b.display(),
        if players_a == players_b {
            format!("{players_a} players")
        } else {
            format!("{players_a} players under A, {players_b} under B")
        },
        spec.seats.clone().unwrap_or_else(|| draftsim::sim::listed(&built[0].1, players_a)).join(","),
        spec.seed,
        if args.until_ci { "until every figure is decided, at most " } else { "" },
        spec.deals,
        spec.deals * per,
        built[0].0.measures().units()
    ));
    let differs = rules_differences(&built[0].0.rules_played(), &built[1].0.rules_played());
    if differs.is_empty() {
        args.batch.exec.note("A and B hold the same rules: every difference will be 0");
    }
    // Per-unit figures of a round against a game (Seven Card Draft's mode) are of different
    // things: said, since every score and count differs by the length of a game.
    let (unit_a, unit_b) = (&built[0].0.measures().unit, &built[1].0.measures().unit);
    if unit_a != unit_b {
        super::args::warn(&format!(
            "A's unit is a {unit_a} and B's a {unit_b}: every per-unit figure (scores, lengths, counts) compares a {unit_a} with a {unit_b}, not the rules' effect on one"
        ));
    }
    let work = draftsim::study::shard_work(2, shard);
    let sides = if args.until_ci {
        let cap = spec.deals;
        let mut deals = (cap / 16).max(64).min(cap);
        loop {
            spec.deals = deals;
            let sides = play(&args.batch.exec, |step| {
                versus::play(info, &spec, &work.units, work.part, Some(&INTERRUPTED), step)
            })?;
            let rows =
                judged(versus::differences(&sides[0], &sides[1], &spec, &scales(info, &spec)?), differs.is_empty());
            let decided = rows.iter().all(|r| r.verdict != Verdict::Undecided);
            if decided || deals == cap {
                args.batch.exec.note(&if decided {
                    format!(
                        "--until-ci: every figure decided after {deals} deals ({} {} of A)",
                        deals * per,
                        built[0].0.measures().units()
                    )
                } else {
                    format!("--until-ci: some figures still undecided at --rounds ({deals} deals)")
                });
                break sides;
            }
            deals = (deals * 2).min(cap);
        }
    } else {
        play(&args.batch.exec, |step| versus::play(info, &spec, &work.units, work.part, Some(&INTERRUPTED), step))?
    };
    let meta = serde_json::json!({
        "kind": kind::VERSUS.name,
        "differs": differs,
        "game": info.name,
        "seed": spec.seed,
        "rounds": spec.deals * per,
        "deals": spec.deals,
        "a": args.a.display().to_string(),
        "b": args.b.display().to_string(),
        "players": [players_a, players_b],
        "seats": spec.seats.clone().unwrap_or_else(|| draftsim::sim::listed(&built[0].1, players_a)),
        "rules": built[0].0.rules_toml(),
        "rules_b": built[1].0.rules_toml(),
        "min_effect": spec.min_effects,
    });
    let mut meta = meta;
    if args.until_ci {
        meta["until_ci"] = true.into();
    }
    if let Some(dir) = &args.exploitability {
        // Absolute, so that a merge run from elsewhere reads the same folder.
        let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.clone());
        meta["exploitability"] = dir.display().to_string().into();
    }
    if let Some(shard) = shard {
        // As sensitivity's variants are kept, so that merge reads both alike.
        let results = sides.iter().map(|s| serde_json::to_value(Ok::<_, String>(s))).collect::<Result<_, _>>()?;
        let part = StudyShard::new(&kind::VERSUS, info.name, &spec, meta, shard, 2, results)?;
        return write_shard(out, format, part, &args.batch.exec.quiet);
    }
    let mut sides = sides.into_iter();
    let (a, b) = (sides.next().expect("side A"), sides.next().expect("side B"));
    finish(info, &spec, (&a, &b), meta, out, format, (&args.batch.exec.quiet, args.all))
}

/// Each rules key whose value differs between A and B (rules in force, every default
/// written out): `games = 1 -> 3`.
fn rules_differences(a: &str, b: &str) -> Vec<String> {
    draftsim::games::presets::differing_keys(a, b).into_iter().map(|(k, a, b)| format!("{k} = {a} -> {b}")).collect()
}

/// The figures versus reports for this table: the health card's, the seat figures, the
/// skill gap, the game's measures, `score` and `win_rate` (`win_rate_over_fair` where the
/// tables differ in size).
fn known_figures(game: &dyn games::Runner, other: &dyn games::Runner) -> Vec<String> {
    // Both sides must have a standing for these two: a paired figure needs both.
    let standing = game.has_standing() && other.has_standing();
    let mut names: Vec<String> = (draftsim::sim::RATIO_FIGURES.iter())
        .filter(|f| standing || !matches!(f.name, "lead_changes" | "drama"))
        .map(|f| f.name.to_string())
        .collect();
    names.extend(
        ["first_seat_edge", "seat_advantage", "balance", "skill_gap", "score", "win_rate", versus::WIN_OVER_FAIR]
            .map(String::from),
    );
    names.extend(game.measures().measures.iter().map(|m| m.column.clone()));
    names
}

/// The game's measures by the scale their smallest effect is judged on.
fn scales(info: &games::GameInfo, spec: &VersusSpec) -> Result<versus::Scales> {
    let (text, seats) = versus::side(info, spec, 0)?;
    let (game, _) = (info.build)(Some(&text), None, Some(&seats))?;
    Ok(versus::Scales::of(game.measures()))
}

/// A difference with its sign.
fn signed(x: f64) -> String {
    if x > 0.0 { format!("+{}", versus::short(x)) } else { versus::short(x) }
}

/// A figure as the verdict's sentences name it: `length_mean`, `value's score`.
fn spoken(d: &Difference) -> String {
    match &d.strategy {
        Some(s) => format!("{s}'s {}", d.figure),
        None => d.figure.clone(),
    }
}

/// One changed figure as a sentence: `B: length_mean rises from 41.2 to 44.3, +3.1 [+2.8,
/// +3.4] (decisions per unit ...)`.
fn sentence(d: &Difference) -> String {
    let what = spoken(d);
    let describe = draftsim::sim::RATIO_FIGURES
        .iter()
        .find(|f| f.name == d.figure)
        .map(|f| format!(": {}", f.description))
        .or_else(|| (d.figure == "skill_gap").then(|| ": its score over random's, A's best strategy".to_string()))
        .unwrap_or_default();
    format!(
        "B: {what} {} from {} to {}, {} [{}, {}]{describe}{}",
        if d.difference.mean > 0.0 { "rises" } else { "falls" },
        versus::short(d.a),
        versus::short(d.b),
        signed(d.difference.mean),
        signed(d.difference.lo),
        signed(d.difference.hi),
        versus::size_uncertain(d.difference, d.min_effect).map_or(String::new(), |s| format!(" ({s})"))
    )
}

/// Prints the verdict and writes the `versus` table: the same for a whole study and one
/// merged from shards.
pub(super) fn finish(
    info: &games::GameInfo,
    spec: &VersusSpec,
    (a, b): (&VariantGroups, &VariantGroups),
    meta: serde_json::Value,
    out: Option<OutputDir>,
    format: Format,
    (quiet, all): (&QuietArg, bool),
) -> Result<()> {
    let differs: Vec<String> = meta["differs"]
        .as_array()
        .map(|d| d.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    let rows = judged(versus::differences(a, b, spec, &scales(info, spec)?), differs.is_empty());
    if !differs.is_empty() {
        say!("B differs from A in: {}.", differs.join(", "));
    }
    let of = |v: Verdict| rows.iter().filter(move |r| r.verdict == v);
    let changed: Vec<&Difference> = of(Verdict::Changed).collect();
    if changed.is_empty() {
        say!("No figure changed by at least its smallest effect that matters (Holm-corrected, 5%).");
    } else {
        say!(
            "What B changes (significant after Holm's correction, its estimate at least the smallest effect that matters):"
        );
        for d in &changed {
            say!("  {}", sentence(d));
        }
        let named: Vec<(String, usize)> = changed.iter().map(|d| (spoken(d), d.change)).collect();
        if let Some(words) = versus::together_words(&named) {
            say!("{words}");
        }
    }
    // Named as the sentences above name them (`tight's score`).
    let unchanged: Vec<String> = of(Verdict::Unchanged).map(spoken).collect();
    if !unchanged.is_empty() {
        say!("Unchanged (within the smallest effect either way): {}.", unchanged.join(", "));
    }
    let undecided: Vec<String> = of(Verdict::Undecided).map(spoken).collect();
    if !undecided.is_empty() {
        say!(
            "Undecided (neither shown to change by at least its smallest effect that matters after Holm's correction, nor shown to stay within it; more --rounds would decide): {}.",
            undecided.join(", ")
        );
        let played = a.health.len().min(b.health.len());
        let alike: Vec<&Difference> = of(Verdict::Undecided)
            .filter(|r| versus::alike(&r.difference) && r.groups < versus::ALIKE_GROUPS)
            .collect();
        // A figure counted on a sample of deals is named with the groups that measured it.
        let named: Vec<String> = (alike.iter())
            .map(|r| match r.groups {
                n if n == played => spoken(r),
                n => format!("{} (measured in {n} deal groups)", spoken(r)),
            })
            .collect();
        if !named.is_empty() {
            let differences: Vec<f64> = alike.iter().map(|r| r.difference.mean).collect();
            // How many times the rounds would give every such figure its groups: a figure
            // counted on a sample of deals (the first, then one in many) needs far more.
            let needed = |r: &&Difference| -> f64 {
                let want = versus::ALIKE_GROUPS as u64;
                if r.groups < played {
                    draftsim::sim::deals_sampling(want) as f64 / played.max(1) as f64
                } else {
                    want as f64 / r.groups.max(1) as f64
                }
            };
            let times = alike.iter().map(needed).fold(1.0, f64::max);
            let sampled = if alike.iter().any(|r| r.groups != played) { ", a sample of which measure it" } else { "" };
            say!(
                "Of those, {}, which decides only over {} deal groups measuring it; {played} played{sampled}: about {:.1} times the rounds would decide.",
                versus::alike_words(&named, &differences),
                versus::ALIKE_GROUPS,
                (times * 10.0).ceil() / 10.0
            );
        }
    }
    for (name, side) in [("A", a), ("B", b)] {
        for note in &side.unused {
            super::args::warn(&format!("under {name}, {note}"));
        }
    }
    if let Some(dir) = meta["exploitability"].as_str() {
        let rules = (meta["rules"].as_str().unwrap_or_default(), meta["rules_b"].as_str().unwrap_or_default());
        let seated = versus::seated_score_effects(&rows);
        match versus::exploitability_warnings(
            std::path::Path::new(dir),
            info.name,
            &seated,
            rules,
            (a.players, b.players),
        ) {
            Ok(warnings) => warnings.iter().for_each(|w| super::args::warn(w)),
            // Checked when the study started: gone since (a merge elsewhere), it is said.
            Err(e) => super::args::warn(&e.to_string()),
        }
    } else {
        let seated: Vec<String> = versus::seated_score_effects(&rows).into_iter().map(|(s, _)| s).collect();
        let rules = match meta["a"].as_str() {
            Some(a) if a != "defaults" => format!(" --rules '{a}'"),
            _ => String::new(),
        };
        quiet.note(&format!(
            "how far the seated players are from optimal is not measured, so a stronger field might judge B otherwise: \
             `draftsim exploitability --game {}{rules} --players {} --seats '{}' --out DIR` measures them under A, and \
             --exploitability DIR weighs this verdict against it",
            info.name,
            a.players,
            seated.join(",")
        ));
    }
    if let Some(note) = versus::pairing_note(a.players, b.players, &differs, true) {
        say!("Note: {note}");
    }
    if all {
        // The first two columns as wide as their longest name, so every row lines up.
        let fw = rows.iter().map(|d| d.figure.len()).chain([22]).max().unwrap_or(22);
        let sw = rows.iter().map(|d| d.strategy.as_deref().map_or(0, str::len)).chain([15]).max().unwrap_or(15);
        say!(
            "\n{:<fw$} {:<sw$} A            B            B - A        95% interval                Holm p     verdict",
            "figure",
            "strategy"
        );
        for d in &rows {
            let interval = format!("[{}, {}]", versus::short(d.difference.lo), versus::short(d.difference.hi));
            say!(
                "{:<fw$} {:<sw$} {:<12} {:<12} {:<12} {interval:<27} {:<10} {}",
                d.figure,
                d.strategy.as_deref().unwrap_or(""),
                versus::short(d.a),
                versus::short(d.b),
                versus::short(d.difference.mean),
                draftsim::stats::p_text(d.p_holm),
                d.verdict.word()
            );
        }
    }
    write_study(out, &[versus::versus_table(&rows)], format, meta, quiet)
}

/// `versus` as a sharded study: its two units are A and B.
pub(super) struct Versus;

impl Study for Versus {
    fn kind(&self) -> &'static Kind {
        &kind::VERSUS
    }

    fn units(&self, _: &Merging) -> Result<usize> {
        Ok(2)
    }

    fn path_labels(&self) -> &'static [&'static str] {
        &["a", "b"]
    }

    fn merge(&self, m: Merging, to: MergedTables) -> Result<()> {
        let MergedTables { meta, out, format, quiet } = to;
        let spec: VersusSpec = m.spec()?;
        let mut sides = Vec::with_capacity(2);
        for (side, parts) in m.results.into_iter().enumerate() {
            let name = if side == 0 { "A" } else { "B" };
            let groups = super::sensitivity::unit_groups(parts, spec.deals, m.wrong)?;
            sides.push(groups.map_err(|why| InputError::new(format!("{name}: {why}")))?);
        }
        finish(m.info, &spec, (&sides[0], &sides[1]), meta, Some(out), format, (quiet, false))
    }
}

/// The differences as judged: under the same rules both sides play the same deals the same
/// way, so every figure is unchanged, even one whose interval (of two unpaired estimates,
/// such as the seat advantage) is wide.
fn judged(mut rows: Vec<Difference>, same_rules: bool) -> Vec<Difference> {
    if same_rules {
        for r in &mut rows {
            r.verdict = Verdict::Unchanged;
            r.change = 0;
        }
    }
    rows
}
