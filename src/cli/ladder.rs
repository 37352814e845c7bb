//! `draftsim ladder`: the search bot against itself a budget lower, step by step.

use anyhow::Result;
use clap::Args;
use draftsim::output::{Format, OutputDir};
use draftsim::study::kind::{self, Kind};
use draftsim::study::{self};

use super::args::{BatchArgs, GameRulesArgs, PlayersArg, QuietArg, warn_rules, whole};
use super::interrupt::INTERRUPTED;
use super::study::*;

/// Arguments of `draftsim ladder`.
#[derive(Args, Debug)]
pub struct LadderArgs {
    #[command(flatten)]
    pub game: GameRulesArgs,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub batch: BatchArgs,
    /// Search budgets (iterations per decision), increasing, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,4,16,64,256,1024", value_parser = whole::<u32>, allow_negative_numbers = true)]
    pub budgets: Vec<u32>,
    #[command(flatten)]
    pub shard: ShardArg,
}

/// Plays the skill ladder.
pub fn ladder(args: LadderArgs) -> Result<()> {
    let info = args.game.info()?;
    let rounds = args.batch.rounds.get(2_000)?;
    let spec = study::ladder::LadderSpec {
        rules: args.game.rules_text()?,
        budgets: args.budgets.clone(),
        players: match args.players.players {
            Some(p) => p,
            None => args.game.build(info, args.game.rules_text()?.as_deref(), None, None)?.0.players(),
        },
        rounds_per_step: rounds,
        seed: args.batch.seed.seed,
    };
    study::ladder::check_budgets(&spec.budgets)?;
    // The first step's table, built up front: bad rules, a player count the game refuses
    // or a game without the search bot are refused before anything is written.
    let seats: Vec<String> = [spec.budgets[1], spec.budgets[0]]
        .iter()
        .cycle()
        .take(spec.players)
        .map(|&b| study::ladder::search_seat(b))
        .collect();
    let (game, _) = args.game.build(info, spec.rules.as_deref(), Some(spec.players), Some(&seats))?;
    let shard = args.shard.get(&args.batch.output)?;
    let (format, out) = args.batch.output.open()?;
    let budgets: Vec<String> = spec.budgets.iter().map(u32::to_string).collect();
    let played = study::ladder::units_per_step(info, &spec)?;
    let units = game.measures().units();
    let units_played = super::args::units_each(rounds, (played, played), (&game.measures().unit, &units), "step");
    args.batch.exec.note(&format!(
        "{} · {} players · search budgets {} · seed {} · {}",
        info.name,
        spec.players,
        budgets.join(","),
        spec.seed,
        units_played
    ));
    warn_rules(game.as_ref());
    let meta = serde_json::json!({
        "kind": kind::LADDER.name,
        "game": info.name,
        "seed": spec.seed,
        "rounds": spec.rounds_per_step,
        "players": spec.players,
        "budgets": spec.budgets,
        "seating": "each step seated A, B, A, B, ... (both orders at an odd table), under balanced seatings",
        "rules": game.rules_toml(),
        // What each step played, as the opening line says it (whole deals).
        "played": units_played,
    });
    if let Some(shard) = shard {
        let steps = study::ladder::step_count(&spec);
        let work = study::shard_work(steps, Some(shard));
        let label = |k: usize, part: draftsim::sim::Shard| {
            format!("part {}/{} of {} v {} iterations", part.index, part.count, spec.budgets[k + 1], spec.budgets[k])
        };
        let results = shard_results(
            &args.batch.exec,
            &work,
            label,
            |k, part| study::ladder::ladder_part(info, &spec, k, part, Some(&INTERRUPTED)),
            |step| study::ladder::ladder_shard(info, &spec, Some(shard), Some(&INTERRUPTED), step),
        )?;
        let part = StudyShard::new(&kind::LADDER, info.name, &spec, meta, shard, steps, results)?;
        return write_shard(out, format, part, &args.batch.exec.quiet);
    }
    let result = play(&args.batch.exec, |step| study::ladder::ladder(info, &spec, Some(&INTERRUPTED), step))?;
    finish_ladder(&result, meta, out, format, &args.batch.exec.quiet)
}

/// Prints a ladder and writes its tables: the same for a whole ladder and one merged from
/// shards.
pub(super) fn finish_ladder(
    result: &study::ladder::Ladder,
    meta: serde_json::Value,
    out: Option<OutputDir>,
    format: Format,
    quiet: &QuietArg,
) -> Result<()> {
    // A step of one deal leaves its score interval unbounded (as `run` warns too).
    if let Some(s) = result.steps.iter().find(|s| !s.score_diff.half_width().is_finite()) {
        let intervals = "its score intervals need two deals and are unbounded (-inf, inf)";
        let (unit, units) = super::study::meta_units(&meta);
        let subject = format!("{} {} a step", s.rounds, draftsim::output::noun(s.rounds as i64, &unit, &units));
        super::args::warn_one_deal(&subject, "", intervals, 2 * s.rounds);
    }
    let tables = [result.ladder_table(), result.depth_table()];
    say!("{}", tables[0].to_aligned_text(4));
    say!("{}", result.summary());
    write_study(out, &tables, format, meta, quiet)
}

/// `ladder` as a sharded study: its units are the budget steps.
pub(super) struct Ladder;

impl Study for Ladder {
    fn kind(&self) -> &'static Kind {
        &kind::LADDER
    }

    fn units(&self, m: &Merging) -> Result<usize> {
        Ok(study::ladder::step_count(&m.spec()?))
    }

    fn merge(&self, m: Merging, to: MergedTables) -> Result<()> {
        let MergedTables { meta, out, format, quiet } = to;
        let spec: study::ladder::LadderSpec = m.spec()?;
        let pairs = read_pairs(m.results, m.in_parts, spec.players, m.wrong, &|k, parts| {
            study::ladder::step_from_parts(m.info, &spec, k, parts)
        })?;
        let result = study::ladder::ladder_from_pairs(&spec, pairs)?;
        finish_ladder(&result, meta, Some(out), format, quiet)
    }
}
