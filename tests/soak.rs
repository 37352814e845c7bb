//! Soak: every registered game over rules drawn at random from its options and random
//! seats from its presets, with every invariant checked (`draftsim check`'s machinery).
//!
//! The default run plays a short version (a few seconds per game). Rounds are counted as
//! the unit's length, or as units where that length counts turns (a Winston match). The
//! full soak, at least 10 million rounds per game, is
//! `cargo test --release --test soak -- --ignored --nocapture`.

use draftsim::games::GAMES;
use draftsim::sim::{Lineup, Plan};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Plays rule sets until `rounds` rounds per game are played; returns per game (name,
/// rule sets, units, rounds). Panics on the first violation, naming the rules and seed.
fn soak(rounds: u64, units_per_set: u64, seed: u64) -> Vec<(&'static str, u64, u64, u64)> {
    let mut out = Vec::new();
    for info in GAMES {
        let presets: Vec<String> = (info.presets)().into_iter().map(|(name, _)| name).collect();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let (mut sets, mut units, mut played) = (0, 0, 0);
        while played < rounds {
            let rules = (info.random_rules)(rng.random());
            let (probe, _) = (info.build)(Some(&rules), None, None)
                .unwrap_or_else(|e| panic!("{}: random rules refused: {e}\n{rules}", info.name));
            let seats: Vec<String> =
                (0..probe.players()).map(|_| presets.choose(&mut rng).expect("presets").clone()).collect();
            let (game, seats) = (info.build)(Some(&rules), None, Some(&seats)).unwrap();
            let plan = Plan {
                seed: rng.random(),
                rounds: units_per_set,
                rotate: rng.random_bool(0.8),
                shard: None,
                until_ci: None,
                cards: rng.random_bool(0.5),
            };
            let started = std::time::Instant::now();
            let report = game.check(&Lineup::new(&seats), &plan, None, &mut |_, _| Ok(())).unwrap();
            if std::env::var_os("SOAK_VERBOSE").is_some() {
                eprintln!(
                    "{:.2}s {} units {} rounds {}\n{rules}",
                    started.elapsed().as_secs_f64(),
                    report.rounds,
                    report.length,
                    seats.join(",")
                );
            }
            if let Some(v) = report.violation {
                panic!(
                    "{}: {} in round {} (seed {}, rotate {}, seats {})\nrules:\n{rules}",
                    info.name,
                    v.message,
                    v.round,
                    plan.seed,
                    plan.rotate,
                    seats.join(",")
                );
            }
            sets += 1;
            units += report.rounds;
            // Rounds, or units where the unit's length counts turns (a Winston match).
            played += if probe.measures().length_counts() == "turns" { report.rounds } else { report.length };
        }
        out.push((info.name, sets, units, played));
    }
    out
}

#[test]
fn random_rules_and_seats_keep_every_invariant() {
    for (game, sets, units, rounds) in soak(1_000_000, 5_000, 2026) {
        println!("{game}: {sets} rule sets, {units} units, {rounds} rounds, no violation");
        assert!(sets >= 20, "{game}: only {sets} rule sets");
    }
}

#[test]
#[ignore = "the full soak: 10 million rounds per game, a few minutes"]
fn soak_ten_million_rounds_per_game() {
    for (game, sets, units, rounds) in soak(10_000_000, 20_000, 7) {
        println!("{game}: {sets} rule sets, {units} units, {rounds} rounds, no violation");
    }
}
