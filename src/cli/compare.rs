//! `draftsim compare`: every pair of strategies on the same deals, and the meta-game.

use anyhow::Result;
use clap::Args;
use draftsim::output::{Format, OutputDir};
use draftsim::study::kind::{self, Kind};
use draftsim::study::{self, CompareSpec, Comparison};

use super::args::{BatchArgs, GameRulesArgs, Known, PlayersArg, QuietArg, preset_names, warn_rules};
use super::interrupt::INTERRUPTED;
use super::study::*;

/// Arguments of `draftsim compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    #[command(flatten)]
    pub game: GameRulesArgs,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub batch: BatchArgs,
    /// Strategies to compare, comma-separated (preset names or preset files); each pair
    /// plays at --players seats, seated A, B, A, B, ...
    #[arg(long, value_delimiter = ',', required = true, value_parser = Known(preset_names), hide_possible_values = true)]
    pub strategies: Vec<String>,
    #[command(flatten)]
    pub shard: ShardArg,
}

/// Runs the comparison.
pub fn compare(args: CompareArgs) -> Result<()> {
    let info = args.game.info()?;
    let rounds = args.batch.rounds.get(100_000)?;
    let spec = CompareSpec {
        rules: args.game.rules_text()?,
        strategies: draftsim::games::presets::rejoin(&args.strategies),
        // Heads-up unless told, or as few as the game seats (Seven Poker: three).
        players: args.players.players.or(args.game.rules_players()?).unwrap_or(info.fewest_players().max(2)),
        rounds_per_pair: rounds,
        seed: args.batch.seed.seed,
    };
    study::compare::check_strategies(&spec)?;
    // The table every pair plays at, built once up front: bad rules or strategies are
    // refused before anything is written, and its rules in force go into study.json.
    let seats: Vec<String> = spec.strategies.iter().cycle().take(spec.players).cloned().collect();
    let (game, _) = args.game.build(info, spec.rules.as_deref(), Some(spec.players), Some(&seats))?;
    // Each strategy's table too, so that a bad one is refused before the first pair plays.
    for strategy in &spec.strategies {
        let seats = vec![strategy.clone(); spec.players];
        (info.build)(spec.rules.as_deref(), Some(spec.players), Some(&seats))?;
    }
    let shard = args.shard.get(&args.batch.output)?;
    let (format, out) = args.batch.output.open()?;
    let pairs = spec.strategies.len() * spec.strategies.len().saturating_sub(1) / 2;
    let played = study::compare::units_per_pair(info, &spec)?;
    let units = game.measures().units();
    let units_played = super::args::units_each(rounds, (played, played), (&game.measures().unit, &units), "pair");
    args.batch.exec.note(&format!(
        "{} · {} players · strategies {} · seed {} · {}, {pairs} pair{}",
        info.name,
        spec.players,
        spec.strategies.join(","),
        spec.seed,
        units_played,
        if pairs == 1 { "" } else { "s" }
    ));
    warn_rules(game.as_ref());
    let meta = serde_json::json!({
        "kind": kind::COMPARE.name,
        "game": info.name,
        "seed": spec.seed,
        "rounds": spec.rounds_per_pair,
        "players": spec.players,
        "strategies": spec.strategies,
        "seating": "each pair seated A, B, A, B, ... (both orders at an odd table), under balanced seatings",
        "rules": game.rules_toml(),
        // What each pair played, as the opening line says it (whole deals).
        "played": units_played,
    });
    // On Ctrl-C the error returns through here, dropping the staging folder unwritten.
    if let Some(shard) = shard {
        let work = study::shard_work(pairs, Some(shard));
        let label = |index, part: draftsim::sim::Shard| {
            let (a, b) = study::compare::pair_list(spec.strategies.len())[index];
            format!("part {}/{} of {} v {}", part.index, part.count, spec.strategies[a], spec.strategies[b])
        };
        let results = shard_results(
            &args.batch.exec,
            &work,
            label,
            |index, part| study::compare::compare_part(info, &spec, index, part, Some(&INTERRUPTED)),
            |step| study::compare_shard(info, &spec, Some(shard), Some(&INTERRUPTED), step),
        )?;
        let part = StudyShard::new(&kind::COMPARE, info.name, &spec, meta, shard, pairs, results)?;
        return write_shard(out, format, part, &args.batch.exec.quiet);
    }
    let result = play(&args.batch.exec, |step| study::compare(info, &spec, Some(&INTERRUPTED), step))?;
    finish_compare(&result, meta, out, format, &args.batch.exec.quiet)
}

/// Prints a comparison and writes its tables: the same for a whole comparison and one
/// merged from shards.
pub(super) fn finish_compare(
    result: &Comparison,
    mut meta: serde_json::Value,
    out: Option<OutputDir>,
    format: Format,
    quiet: &QuietArg,
) -> Result<()> {
    // What the equilibrium and dominance were judged by, for the report.
    meta["meta_game"] = if result.by_score { "score" } else { "win share" }.into();
    // A pair of one deal leaves its score interval unbounded (as `run` warns too).
    if let Some(m) = result.matchups.iter().find(|m| !m.chips_diff.half_width().is_finite()) {
        let intervals = "its score intervals need two deals and are unbounded (-inf, inf)";
        let (unit, units) = meta_units(&meta);
        let subject = format!("{} {} a pair", m.rounds, draftsim::output::noun(m.rounds as i64, &unit, &units));
        super::args::warn_one_deal(&subject, "", intervals, 2 * m.rounds);
    }
    say!("{}", result.matrix_text());
    say!("{}", result.score_matrix_text());
    say!("{}", result.ratings_table().to_aligned_text(1));
    match result.dominant {
        Some(i) if result.by_score => say!(
            "{} dominates: its {} is above zero against every other strategy.",
            result.strategies[i],
            result.pair_words
        ),
        Some(i) => {
            say!("{} dominates: its win share is above 0.5 against every other strategy.", result.strategies[i])
        }
        None => say!("No strategy dominates."),
    }
    if result.by_score {
        say!(
            "The ratings rate units won; dominance and the meta-game below are judged by the {}, what the units are played for.",
            result.pair_words
        );
    } else if result.only_scores_separate() {
        say!(
            "No win share here is told from one half, but score differences are: the ratings above and the equilibrium below are of win shares; read the {} matrix.",
            result.pair_words
        );
    }
    say!("{}", result.equilibrium_text());
    say!("{}", result.equilibrium_table().to_aligned_text(4));
    write_study(out, &[result.matrix_table(), result.ratings_table(), result.equilibrium_table()], format, meta, quiet)
}

/// `compare` as a sharded study: its units are the strategy pairs.
pub(super) struct Compare;

impl Study for Compare {
    fn kind(&self) -> &'static Kind {
        &kind::COMPARE
    }

    fn units(&self, m: &Merging) -> Result<usize> {
        Ok(study::compare::pair_list(m.spec::<CompareSpec>()?.strategies.len()).len())
    }

    fn merge(&self, m: Merging, to: MergedTables) -> Result<()> {
        let MergedTables { meta, out, format, quiet } = to;
        let spec: CompareSpec = m.spec()?;
        let pairs = read_pairs(m.results, m.in_parts, spec.players, m.wrong, &|index, parts| {
            study::compare::pair_from_parts(m.info, &spec, index, parts)
        })?;
        let result = study::compare_from_pairs(&spec, pairs)?;
        finish_compare(&result, meta, Some(out), format, quiet)
    }
}
