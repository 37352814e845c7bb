//! `draftsim calibrate`: the strength estimates of the first seat's strategy against the
//! percentile of the hands it finishes with and the fields it beats, every seat drafting
//! alike and nobody folding.

use anyhow::Result;
use clap::Args;
use draftsim::study::kind;

use super::args::{BatchArgs, GameArgs, warn_rules};
use super::interrupt::INTERRUPTED;
use super::study::write_study;

/// Arguments of `draftsim calibrate`.
#[derive(Args, Debug)]
pub struct CalibrateArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// Plays the rounds and prints (and writes) the `calibration` and `field_calibration` tables.
pub fn run(args: CalibrateArgs) -> Result<()> {
    let rounds = args.batch.rounds.get(20_000)?;
    let (format, out) = args.batch.output.open()?;
    // Every seat drafts with the calibrated strategy's module, so a list naming others
    // would be read as one strategy: refuse it rather than drop the rest unsaid.
    if let Some(list) = args.game.seats.list()
        && let Some(other) = list.iter().find(|s| **s != list[0])
    {
        return Err(draftsim::error::InputError::new(format!(
            "--seats {}: calibrate seats one strategy at every seat (here {other} would be ignored); name one, e.g. --seats {}, and --players for the table size",
            list.join(","),
            list[0]
        ))
        .into());
    }
    // One strategy named means every seat drafts with it, at the rules' table size; none
    // named, the first of the game's default seats, which is the one calibrated, and which
    // the study's record then names at every seat.
    let mut game_args = args.game.clone();
    let named = args.game.seats.list();
    let mut table = args.game.clone();
    table.seats.seats = None;
    let (table, defaults) = table.build()?;
    let pool = args.batch.exec.pool()?;
    // A game without estimates is refused as such before a strategy it lacks is named.
    pool.install(|| table.calibration(0, args.batch.seed.seed, None, &|_| {}))?;
    if named.as_ref().is_none_or(|l| l.len() == 1) {
        let one = named.and_then(|l| l.into_iter().next()).unwrap_or_else(|| defaults[0].clone());
        game_args.seats.seats = Some(vec![one; table.players()]);
    }
    let (game, seats) = game_args.build()?;
    // Nothing played: refuses a strategy without an estimate before the note says it is
    // calibrating.
    pool.install(|| game.calibration(0, args.batch.seed.seed, None, &|_| {}))?;
    args.batch.exec.note(&format!(
        "calibrating {}'s estimate (its drafting module's, before any betting correction): {}, {} players, {rounds} {}, seed {}",
        seats[0],
        game_args.name(),
        game.players(),
        draftsim::output::noun(rounds as i64, "round", "rounds"),
        args.batch.seed.seed
    ));
    warn_rules(game.as_ref());
    let progress = args.batch.exec.bar(rounds);
    let table = pool.install(|| {
        game.calibration(rounds, args.batch.seed.seed, Some(&INTERRUPTED), &|done| {
            if let Some(bar) = &progress {
                bar.set_position(done);
            }
        })
    });
    if let Some(bar) = &progress {
        bar.finish_and_clear();
    }
    // On Ctrl-C the error returns through here, dropping the staging folder unwritten.
    let tables = table?;
    for table in &tables {
        // What each table sets against what: a column name alone does not say.
        let caption = match table.name.as_str() {
            "calibration" => {
                "Own hand: estimates after each pick, by tenth of the estimate, against the percentile the hands finished at (mean_finished, 95% interval)"
            }
            "field_calibration" => {
                "Against the field: estimated chance of beating the opponents still in, by tenth, against the share of the pot those hands took from them at the showdown (won, 95% interval)"
            }
            _ => "",
        };
        if !caption.is_empty() {
            say!("{caption}:");
        }
        say!("{}\n", table.to_aligned_text(3).trim_end());
    }
    let meta = serde_json::json!({
        "kind": kind::CALIBRATE.name,
        "game": game_args.name(),
        "seed": args.batch.seed.seed,
        "rounds": rounds,
        "strategy": seats[0],
        "seats": seats,
        "rules": game.rules_toml(),
    });
    write_study(out, &tables, format, meta, &args.batch.exec.quiet)
}
