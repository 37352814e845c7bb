//! `draftsim check`: play rounds of any game on any rules file with every invariant
//! checked, and report the first violation with the seed and round that replay it.

use std::process::ExitCode;
use std::sync::atomic::Ordering;

use anyhow::Result;
use clap::Args;
use draftsim::InputError;
use draftsim::sim::{Lineup, Plan, rounds_per_deal};

use super::run::{DEFAULT_SEED, ExecArgs, GameArgs, INTERRUPTED};

/// Arguments of `draftsim check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Rounds to play (games, in game mode); rounded up to whole deals.
    #[arg(long, default_value_t = 100_000)]
    pub rounds: u64,
    /// The run's seed.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    #[command(flatten)]
    pub exec: ExecArgs,
}

/// Plays the rounds; exit code 1 on a violation.
pub fn run(args: CheckArgs) -> Result<ExitCode> {
    if args.rounds == 0 {
        return Err(InputError::new("--rounds 0: check at least 1 round").into());
    }
    let (game, seats) = args.game.build()?;
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    let lineup = Lineup::new(&seats);
    let plan = Plan { seed: args.seed, rounds: args.rounds, rotate: !args.game.no_rotate, shard: None, until_ci: None };
    let per = rounds_per_deal(game.players(), plan.rotate);
    let planned = args.rounds.div_ceil(per) * per;
    let progress = args.exec.bar(planned);
    let report = args.exec.pool()?.install(|| {
        game.check(&lineup, &plan, Some(&INTERRUPTED), &mut |done, _| {
            if let Some(bar) = &progress {
                bar.set_position(done);
            }
            Ok(())
        })
    });
    if let Some(bar) = &progress {
        bar.finish_and_clear();
    }
    let report = report?;
    match report.violation {
        None => {
            println!(
                "{}: {planned} rounds checked, seats {}, seed {}: no invariant broken",
                args.game.game,
                seats.join(","),
                args.seed
            );
            Ok(ExitCode::SUCCESS)
        }
        Some(v) => {
            let mut replay =
                format!("draftsim replay --game {} --seed {} --round {}", args.game.game, args.seed, v.round);
            if let Some(rules) = &args.game.rules {
                replay.push_str(&format!(" --rules {}", rules.display()));
            }
            replay.push_str(&format!(" --seats {}", seats.join(",")));
            if args.game.no_rotate {
                replay.push_str(" --no-rotate");
            }
            println!("{}: violation in round {} (seed {}): {}", args.game.game, v.round, args.seed, v.message);
            println!("replay it with: {replay}");
            Ok(ExitCode::FAILURE)
        }
    }
}
