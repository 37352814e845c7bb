//! `draftsim replay`: one round of a run, told move by move.

use anyhow::Result;
use clap::Args;

use super::run::{DEFAULT_SEED, GameArgs};

/// Arguments of `draftsim replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The run's seed.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// The round's index in the run (0-based, as in the rounds table).
    #[arg(long)]
    pub round: u64,
}

/// Prints the round.
pub fn run(args: ReplayArgs) -> Result<()> {
    let (game, _) = args.game.build()?;
    print!("{}", game.replay(args.seed, !args.game.no_rotate, args.round)?);
    Ok(())
}
