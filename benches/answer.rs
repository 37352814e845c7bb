//! Time to an answer: for each game with its default mix, on one core, the seconds to reach
//! a win-share half-width of 0.005 for every strategy, so speed and statistics are judged
//! as one figure. Each game plays a pilot of fixed length, then the rounds it would need
//! follow from the half-width shrinking as one over the square root of the rounds.
//!
//! The half-width is the harness's: over deal groups (all seatings of a deal are one
//! observation). The last column gives the units the Wilson interval over seat-units would
//! need on the same pilot, so what the pairing saves is read off one run.
//!
//! Run: `cargo bench --bench answer` (prints a table; about a minute).

use std::time::Instant;

use draftsim::games::GAMES;
use draftsim::sim::{Lineup, Mode, Plan};

const TARGET: f64 = 0.005;

fn main() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a thread");
    println!(
        "{:<24} {:>10} {:>12} {:>12} {:>16} {:>10} {:>16}",
        "game", "pilot", "units/s", "half-width", "units to 0.005", "seconds", "Wilson: units"
    );
    for info in GAMES {
        let (runner, seats) = info.with_defaults().expect("defaults build");
        let lineup = Lineup::new(&seats);
        // A pilot of about two seconds: grow it until it takes one.
        let mut rounds = 2_000u64;
        let (tally, seconds) = loop {
            let plan = Plan { seed: 7, rounds, rotate: true, shard: None, until_ci: None, cards: false, first_deal: 0 };
            let start = Instant::now();
            let tally = pool.install(|| runner.run(&lineup, &plan, Mode::Tally, None, &mut |_, _| Ok(()))).unwrap();
            let seconds = start.elapsed().as_secs_f64();
            if seconds > 1.0 {
                break (tally, seconds);
            }
            rounds *= 2;
        };
        let rate = tally.rounds as f64 / seconds;
        let half_width = tally.max_win_rate_half_width();
        let needed = tally.rounds as f64 * (half_width / TARGET).powi(2);
        let wilson =
            (0..lineup.strategies.len()).map(|x| tally.strategy(x).win_rate().half_width()).fold(0.0, f64::max);
        let wilson_needed = tally.rounds as f64 * (wilson / TARGET).powi(2);
        println!(
            "{:<24} {:>10} {:>12.0} {:>12.5} {:>16.0} {:>10.2} {:>16.0}",
            info.name,
            tally.rounds,
            rate,
            half_width,
            needed,
            needed / rate,
            wilson_needed
        );
    }
}
