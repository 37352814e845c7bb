//! Soak: every registered game over rules drawn at random from its options and random
//! seats from its presets, with every invariant checked (`draftsim check`'s machinery).
//!
//! The default run plays a short version (a few seconds per game). Rounds are counted as
//! the unit's length, or as units where that length counts turns (a Winston match). A
//! Live-Draft unit is a whole game of tens of turns, so it plays a tenth as many games in
//! sets a tenth the size (as many rule sets). The full soak, at least 10 million rounds per
//! game (a million Live-Draft games), is
//! `cargo test --release --test all soak -- --ignored --nocapture`.

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
        let (rounds, units_per_set) = if info.name == draftsim::games::live_draft::NAME {
            (rounds / 10, units_per_set / 10)
        } else {
            (rounds, units_per_set)
        };
        // The search bot plays under every random rule set too, on a small budget (its
        // strength has its own tests; here only the rules it plays by matter): two weighed
        // worlds where the game's preset weighs several, 64 where it weighs them once a
        // decision (so replayed pasts are soaked too), one elsewhere.
        // A trained policy plays only the rules it was trained under: not seated here.
        let text = (info.preset_text)("search").expect("every game has a search preset");
        let weighs = text.lines().any(|l| l.starts_with("worlds") && l.trim_end() != "worlds = 1");
        let once = text.lines().any(|l| l.starts_with("particles"));
        let search = if once {
            "search{iterations=2;particles=64}".to_string()
        } else {
            format!("search{{iterations=2;worlds={}}}", if weighs { 2 } else { 1 })
        };
        let presets: Vec<String> = (info.presets)()
            .into_iter()
            .filter(|(name, _)| !name.starts_with("cfr"))
            .map(|(name, _)| if name == "search" { search.clone() } else { name })
            .collect();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let (mut sets, mut units, mut played) = (0, 0, 0);
        while played < rounds {
            let rules = (info.random_rules)(rng.random());
            let (probe, _) = (info.build)(Some(&rules), None, None)
                .unwrap_or_else(|e| panic!("{}: random rules refused: {e}\n{rules}", info.name));
            let seats: Vec<String> =
                (0..probe.players()).map(|_| presets.choose(&mut rng).expect("presets").clone()).collect();
            let (game, seats) = (info.build)(Some(&rules), None, Some(&seats)).unwrap();
            // A search seat rolls out with a preset to the unit's end, many times a preset's round:
            // fewer units a set, more sets.
            let searches = seats.iter().any(|s| s.starts_with("search"));
            let plan = Plan {
                seed: rng.random(),
                rounds: if searches { units_per_set / 20 } else { units_per_set },
                rotate: rng.random_bool(0.8),
                shard: None,
                until_ci: None,
                cards: rng.random_bool(0.5),
                first_deal: 0,
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

/// Live-Draft: the soak's random rules reach every value of every option, and every
/// drawing method and opening is played under each of the flags (tapping or vigilance,
/// reshuffled removed cards, mill counters, who counts a wipe's redeal, the first
/// player's draw), checked, with random seats.
#[test]
fn live_draft_is_soaked_under_every_option() {
    use draftsim::games::GameRules;
    use draftsim::games::live_draft::rules::{Method, Opening, Rules, WipeCounters};
    use draftsim::games::live_draft::{LiveDraft, bots::PRESETS};
    use std::collections::BTreeSet;

    let mut seen = BTreeSet::new();
    for seed in 0..300 {
        let r = Rules::random(seed);
        for value in [
            format!("method {:?}", r.method),
            format!("opening {:?}", r.opening),
            format!("players {}", r.players),
            format!("cards {}", r.cards.is_some()),
            format!("first_player_draws {:?}", r.first_player_draws),
            format!("mill_counters {}", r.mill_counters),
            format!("reshuffle_removed {}", r.reshuffle_removed),
            format!("vigilance {}", r.vigilance),
            format!("wipe_counters {:?}", r.wipe_counters),
            format!("scaled cap {}", r.max_turns == 0),
            format!("life 200 {}", r.life == 200),
            format!("max_mulligans {}", r.max_mulligans),
        ] {
            seen.insert(value);
        }
    }
    // 4 methods, 2 openings, 3 player counts, 2 x 3 first-draw values, 2 x 6 flags, 4 exchange limits.
    assert_eq!(seen.len(), 4 + 2 + 3 + 2 + 3 + 2 * 6 + 4, "{seen:?}");

    // The search bot has its own tests (tests/search_live_draft.rs).
    let presets: Vec<String> =
        PRESETS.iter().filter(|(name, _)| *name != "search").map(|(name, _)| name.to_string()).collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(29);
    let mut games = 0;
    for method in [Method::Tableau, Method::Pipeline, Method::Rummy, Method::Blind] {
        for opening in [Opening::Quick, Opening::Careful] {
            for flags in 0..16u32 {
                let mut rules = Rules::random(rng.random());
                rules.method = method;
                rules.opening = opening;
                rules.vigilance = flags & 1 == 1;
                rules.reshuffle_removed = flags & 2 == 2;
                rules.mill_counters = flags & 4 == 4;
                rules.wipe_counters = if flags & 8 == 8 { WipeCounters::Nobody } else { WipeCounters::Drawer };
                rules.first_player_draws = [None, Some(false), Some(true)][flags as usize % 3];
                if rules.check().is_err() {
                    rules.cards = None;
                    rules.library_size = 240;
                }
                let seats: Vec<String> =
                    (0..rules.players).map(|_| presets.choose(&mut rng).expect("presets").clone()).collect();
                let game = LiveDraft::new(&rules, &seats).unwrap_or_else(|e| panic!("{e}: {rules:?}"));
                let plan = Plan {
                    seed: rng.random(),
                    rounds: 200,
                    rotate: true,
                    shard: None,
                    until_ci: None,
                    cards: false,
                    first_deal: 0,
                };
                let report = draftsim::sim::check(&game, &Lineup::new(&seats), &plan, None, |_, _| Ok(())).unwrap();
                assert!(report.violation.is_none(), "{:?}\n{rules:?}", report.violation);
                games += report.rounds;
            }
        }
    }
    println!("live-draft: {games} games over every method, opening and flag, no violation");
}
