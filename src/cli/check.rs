//! `draftsim check`: play rounds of any game on any rules file with every invariant
//! checked, and report the first violation with the seed and round that replay it.

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use draftsim::sim::{Lineup, Plan, Seatings};

use super::args::{ExecArgs, GameArgs, RotateArg, RoundsArg, SeedArg, warn_rules};
use super::interrupt::INTERRUPTED;

/// Arguments of `draftsim check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub rounds: RoundsArg,
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub exec: ExecArgs,
    #[command(flatten)]
    pub rotate: RotateArg,
}

/// Plays the rounds; exit code 1 on a violation.
pub fn run(args: CheckArgs) -> Result<ExitCode> {
    let rounds = args.rounds.get(100_000)?;
    let seed = args.seed.seed;
    let (game, seats) = args.game.build()?;
    warn_rules(game.as_ref());
    let lineup = Lineup::new(&seats);
    let plan =
        Plan { seed, rounds, rotate: !args.rotate.no_rotate, shard: None, until_ci: None, cards: false, first_deal: 0 };
    let per = Seatings::new(&lineup, game.players(), plan.rotate)?.len() as u64;
    let planned = draftsim::sim::deals_for(rounds, per) * per;
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
            // As `run` says them: a field is not a seat list, and a count rounded up says so.
            let seated = match seats.len() == game.players() {
                true => format!("seats {}", seats.join(",")),
                false => format!("field {}", lineup.strategies.join(",")),
            };
            let asked =
                if planned == rounds { String::new() } else { format!(" ({rounds} asked, rounded up to whole deals)") };
            say!(
                "{}: {planned} {}{asked} checked, {seated}, seed {}: no invariant broken",
                args.game.name(),
                game.measures().units(),
                seed
            );
            Ok(ExitCode::SUCCESS)
        }
        Some(v) => {
            // Quoted for a shell: a path with a space, an external bot's command.
            let quote = super::args::shell_word;
            let mut replay = format!("draftsim replay --game {} --seed {} --round {}", args.game.name(), seed, v.round);
            if let Some(rules) = &args.game.game.rules {
                replay.push_str(&format!(" --rules {}", quote(&rules.display().to_string())));
            }
            replay.push_str(&format!(" --seats {}", quote(&seats.join(","))));
            if args.rotate.no_rotate {
                replay.push_str(" --no-rotate");
            }
            say!("{}: violation in round {} (seed {}): {}", args.game.name(), v.round, seed, v.message);
            say!("replay it with: {replay}");
            Ok(ExitCode::FAILURE)
        }
    }
}
