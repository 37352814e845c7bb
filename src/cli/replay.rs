//! `draftsim replay`: one round of a run, told move by move.

use anyhow::Result;
use clap::Args;
use draftsim::sim::{Lineup, Seatings};

use super::args::{GameArgs, RotateArg, SeedArg, warn_rules, whole};

/// Arguments of `draftsim replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub rotate: RotateArg,
    /// The index in the run of the unit to tell, 0-based, as in the rounds table: a round,
    /// or the game's own unit (a Sevens hand, a Seven Poker game, a Winston match); `--unit`
    /// names the same.
    #[arg(long, visible_alias = "unit", value_parser = whole::<u64>, allow_negative_numbers = true)]
    pub round: u64,
}

/// Prints the round: a header naming it (its index, deal, deal seed and who sits where),
/// then the game's account of it.
pub fn run(args: ReplayArgs) -> Result<()> {
    let (game, seats) = args.game.build()?;
    warn_rules(game.as_ref());
    let (seed, k) = (args.seed.seed, args.round);
    let seatings = Seatings::new(&Lineup::new(&seats), game.players(), !args.rotate.no_rotate)?;
    let text = game.replay(seed, &seatings, k)?;
    super::say_text(&format!("{}{text}", header(seed, &seatings, k, &seats, &game.measures().unit)));
    // A fault of an external bot plays a random legal move in its name: the account above
    // cannot tell which moves those were, so their count is said after it.
    if let Some(t) = game.outside_table() {
        say!("external bots (a fault plays a random legal move instead):\n{}", t.to_aligned_text(4));
    }
    Ok(())
}

/// The replay's first lines: unit `k` of the run on `seed` (named as the game names its
/// unit), its deal and deal seed, and the strategy at each seat.
fn header(seed: u64, seatings: &Seatings, k: u64, seats: &[String], unit: &str) -> String {
    let a = draftsim::sim::round_address(seed, seatings, k);
    let seating: Vec<String> = a.seating.iter().enumerate().map(|(s, &i)| format!("seat {s} {}", seats[i])).collect();
    let which = if seatings.len() > 1 {
        // 0-based, as the round, the deal and the seats are; what a seating is, said once.
        format!(
            " · seating {} (of {}, from 0: each deal is played at every seating, the strategies moved round the seats)",
            a.seating_index,
            seatings.len()
        )
    } else {
        String::new()
    };
    let mut name = unit.to_string();
    if let Some(first) = name.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    format!(
        "== {name} {k} of the run (seed {seed}) · deal {}{which} · deal seed {}\n== Seating: {}\n",
        a.deal,
        a.deal_seed,
        seating.join(", ")
    )
}
