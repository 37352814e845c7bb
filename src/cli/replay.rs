//! `draftsim replay`: one round of a run, told move by move.

use anyhow::Result;
use clap::Args;

use super::args::{GameArgs, RotateArg, SeedArg};

/// Arguments of `draftsim replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub rotate: RotateArg,
    /// The round's index in the run (0-based, as in the rounds table).
    #[arg(long)]
    pub round: u64,
}

/// Prints the round.
pub fn run(args: ReplayArgs) -> Result<()> {
    let (game, _) = args.game.build()?;
    print!("{}", game.replay(args.seed.seed, !args.rotate.no_rotate, args.round)?);
    Ok(())
}
