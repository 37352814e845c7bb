//! The search bot in Winston + Crazier Eights: it cannot see hidden cards (the stack, the
//! blind cards, the opponent's pool, hand and deck order), it is deterministic, and it plays.

use crate::common;
use draftsim::games::GamePreset;

use common::{on_one_and_two_threads, row_value};

use draftsim::games::winston::engine::{State, Variant};
use draftsim::games::winston::{self, Rules, load_strategy};
use draftsim::search::leaks::{LeakCheck, LeakReport, check_point, decision_points};
use draftsim::search::{Forward, SeatBot, Strategy};
use draftsim::sim::BotRng;
use rand::SeedableRng;

fn seat_bot(name: &str) -> SeatBot<State> {
    let strategy: Strategy<winston::Preset> = load_strategy(name).unwrap();
    SeatBot::new(name, &strategy, 2, winston::Preset::bot)
}

fn points(variant: &Variant, seats: [&str; 2], count: usize, every: u32) -> Vec<State> {
    let mut bots: Vec<SeatBot<State>> = seats.iter().map(|n| seat_bot(n)).collect();
    decision_points(variant, &mut bots, 7, count, every)
}

#[test]
fn the_search_bot_decides_the_same_whatever_the_hidden_cards() {
    let mut report = LeakReport::default();
    // Default rules, and a best of 3 of the classic game without the last-card rule.
    let variants = [
        Rules::default(),
        Rules { games: 3, classic: true, last_card_rule: false, pass_when_empty: false, ..Rules::default() },
    ];
    let mut search = seat_bot("search{iterations=24}");
    let mut rng = BotRng::seed_from_u64(3);
    let mut phases = [0usize; 5];
    for (v, rules) in variants.iter().enumerate() {
        let variant = Variant::new(rules);
        let seats = if v == 0 { ["value", "colour"] } else { ["random", "hate"] };
        for (i, point) in points(&variant, seats, 60, 40).iter().enumerate() {
            let seat = point.to_act().unwrap();
            phases[match point.phase() {
                winston::engine::Phase::Draft { .. } => 0,
                winston::engine::Phase::Build(_) => 1,
                winston::engine::Phase::Play(_) => 2,
                winston::engine::Phase::Peek(_) => 3,
                _ => 4,
            }] += 1;
            let redealt: Vec<State> = (0..3).map(|_| point.redeal(&variant, seat, &mut rng)).collect();
            check_point(
                &variant,
                point,
                &redealt,
                &mut search,
                LeakCheck { players: 2, bot_seed: 100 + i as u64, worlds: 4 },
                &mut report,
            )
            .unwrap_or_else(|e| panic!("rules {v}, decision point {i}: {e}"));
        }
    }
    assert_eq!(report.points, 120);
    assert!(phases[0] > 10 && phases[2] >= 3 && phases[4] > 10, "draft, play and discard points: {phases:?}");
    // The stack, the opponent's pool and hand hide dozens of cards: a world equal to the
    // truth is rare, unless the observation leaks them.
    assert!(report.same_worlds * 20 < report.worlds, "{report:?}");
}

#[test]
fn every_deck_build_is_a_decision_point_and_stays_hidden() {
    // Build points are few among all decisions: take every decision of a few matches.
    let variant = Variant::new(&Rules::default());
    let builds: Vec<State> = points(&variant, ["value", "colour"], 400, 1)
        .into_iter()
        .filter(|t| matches!(t.phase(), winston::engine::Phase::Build(_)))
        .collect();
    assert!(builds.len() >= 2, "{}", builds.len());
    let mut search = seat_bot("search{iterations=24}");
    let mut rng = BotRng::seed_from_u64(5);
    let mut report = LeakReport::default();
    for (i, point) in builds.iter().enumerate() {
        let redealt: Vec<State> = (0..3).map(|_| point.redeal(&variant, point.to_act().unwrap(), &mut rng)).collect();
        check_point(
            &variant,
            point,
            &redealt,
            &mut search,
            LeakCheck { players: 2, bot_seed: i as u64, worlds: 4 },
            &mut report,
        )
        .unwrap_or_else(|e| panic!("build point {i}: {e}"));
    }
}

#[test]
fn default_points_are_decisions_of_the_default_rules() {
    let (variant, points) = draftsim::games::contest::default_points::<winston::Def>(31, 20, 8);
    assert_eq!(points.len(), 20);
    assert!(points.iter().all(|t| t.to_act().is_some()));
    let mut legal = Vec::new();
    for t in &points {
        t.legal(&variant, &mut legal);
        assert!(!legal.is_empty());
    }
}

fn draftsim(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_draftsim")).args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_search_bot_beats_random_and_is_reproducible() {
    let table = on_one_and_two_threads(&[
        "run",
        "--game",
        "winston-crazier-eights",
        "--seats",
        "search,random",
        "--rounds",
        "60",
    ]);
    assert!(row_value(&table, "search", "win_rate_lo") > 0.5, "search against random: {table}");
}

#[test]
fn a_replay_shows_the_search_notes() {
    let text = draftsim(&[
        "replay",
        "--game",
        "winston-crazier-eights",
        "--seats",
        "search{iterations=20},value",
        "--round",
        "1",
    ]);
    assert!(text.contains("searched 20 iterations: ") && text.contains("% (mean "), "{text}");
}
