//! The search bot in Sevens: it cannot see hidden cards, it is deterministic, and it plays.

use crate::common;

use common::{assert_bad_search_parameters, on_one_and_two_threads, row_value};

use draftsim::games::sevens::engine::{NoEvents, State};
use draftsim::games::sevens::{self, Rules, load_strategy};
use draftsim::search::leaks::{LeakCheck, LeakReport, check_point, decision_points};
use draftsim::search::{Forward, SeatBot, Strategy};
use draftsim::sim::BotRng;
use draftsim::sim::RoundResult;
use rand::SeedableRng;

fn seat_bot(name: &str, players: usize) -> SeatBot<State> {
    let strategy: Strategy<sevens::Preset> = load_strategy(name).unwrap();
    SeatBot::new(name, &strategy, players, sevens::Preset::bot)
}

fn points(rules: &Rules, count: usize) -> Vec<State> {
    let mut bots: Vec<SeatBot<State>> = ["tight", "bluffer", "greedy", "random"]
        .iter()
        .take(rules.players)
        .map(|n| seat_bot(n, rules.players))
        .collect();
    decision_points(rules, &mut bots, 7, count, 3, |t: &mut State, seed| {
        t.reset(rules, seed, &mut NoEvents, &mut RoundResult::default())
    })
}

#[test]
fn the_search_bot_decides_the_same_whatever_the_hidden_cards() {
    let mut report = LeakReport::default();
    for rules in [Rules::default(), Rules { players: 3, ..Rules::default() }] {
        let mut search = seat_bot("search{iterations=200}", rules.players);
        let mut informed = seat_bot("search{iterations=100;rollout=tight;opponents=rollout}", rules.players);
        let mut rng = BotRng::seed_from_u64(3);
        for (i, point) in points(&rules, 60).iter().enumerate() {
            let search = if i % 2 == 0 { &mut search } else { &mut informed };
            let seat = point.to_act().unwrap();
            let redealt: Vec<State> = (0..3).map(|_| point.redeal(&rules, seat, &mut rng)).collect();
            check_point(
                &rules,
                point,
                &redealt,
                search,
                LeakCheck { players: rules.players, bot_seed: 100 + i as u64, worlds: 6 },
                &mut report,
            )
            .unwrap_or_else(|e| panic!("decision point {i}: {e}"));
        }
    }
    assert_eq!(report.points, 120);
    // Opponents hold three cards each of some thirty unseen: a world equal to the truth is
    // rare, unless the observation leaks them.
    assert!(report.same_worlds * 20 < report.worlds, "{report:?}");
}

#[test]
fn the_search_bot_beats_random_and_is_reproducible() {
    let table = on_one_and_two_threads(&[
        "run",
        "--game",
        "sevens",
        "--seats",
        "search{iterations=300},random",
        "--rounds",
        "400",
    ]);
    // Heads-up, half the hands end with nobody at 7 or under: chips tell the winner.
    assert!(row_value(&table, "search", 7) > 0.0, "search against random: {table}");
}

#[test]
fn bad_search_parameters_name_the_key() {
    assert_bad_search_parameters(load_strategy, "hate");
}
