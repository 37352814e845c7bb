//! The search bot in Seven Poker: it cannot see hidden cards, it is deterministic, and it
//! plays.

use crate::common;
use draftsim::games::GamePreset;

use common::{on_one_and_two_threads, row_value};

use draftsim::games::seven_poker::engine::State;
use draftsim::games::seven_poker::rules::{AllFold, LeftSwap, LoneStayer};
use draftsim::games::seven_poker::{self, Rules, load_strategy};
use draftsim::search::leaks::decision_points;
use draftsim::search::{Forward, SeatBot, Strategy};

fn seat_bot(name: &str, players: usize) -> SeatBot<State> {
    let strategy: Strategy<seven_poker::Preset> = load_strategy(name).unwrap();
    SeatBot::new(name, &strategy, players, seven_poker::Preset::bot)
}

fn points(rules: &Rules, count: usize) -> Vec<State> {
    let mut bots: Vec<SeatBot<State>> = ["adaptive", "colour", "rainbow", "bluffer", "fold-to-keep"]
        .iter()
        .take(rules.players)
        .map(|n| seat_bot(n, rules.players))
        .collect();
    decision_points(rules, &mut bots, 7, count, 9)
}

#[test]
fn the_search_bot_beats_random_and_is_reproducible() {
    let table = on_one_and_two_threads(&[
        "run",
        "--game",
        "seven-poker",
        "--seats",
        "search{iterations=40},random,random",
        "--rounds",
        "30",
    ]);
    // Three seats: a third of the games is an even share; the interval's low end must be
    // above it.
    assert!(row_value(&table, "search", "win_rate_lo") > 1.0 / 3.0, "search against random: {table}");
}

#[test]
fn replays_show_the_search_bots_decisions() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_draftsim"))
        .args(["replay", "--game", "seven-poker", "--seats", "search{iterations=20},colour,rainbow", "--round", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("searched 20 iterations: ") && text.contains("% (mean "), "{text}");
}

#[test]
fn the_counted_menus_are_as_long_as_the_listed_ones() {
    use draftsim::games::seven_poker::engine::Phase;
    let variant = Rules {
        players: 5,
        cards_per_colour: 6,
        max_exchange: 5,
        shown: 4,
        left_swap: LeftSwap::Chosen,
        lone_stayer: LoneStayer::Keeps,
        all_fold: AllFold::Showdown,
        ..Rules::default()
    };
    let mut seen = [0usize; 3];
    for rules in [Rules::default(), variant] {
        let mut listed = Vec::new();
        for point in points(&rules, 400) {
            point.legal(&rules, &mut listed);
            let count = point.legal_count(&rules, &mut Vec::new());
            assert_eq!(count, listed.len(), "{:?}", point.public().phase);
            match point.public().phase {
                Phase::Exchange(_) => seen[0] += 1,
                Phase::Show(_) => seen[1] += 1,
                Phase::Keep(_) => seen[2] += 1,
                _ => {}
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "exchange, show and keep menus all counted: {seen:?}");
}

#[test]
fn the_search_preset_searches_whether_to_stay_and_beats_adaptive() {
    // The preset searches the stay-or-fold only and exchanges as `adaptive`; searching
    // every decision at random (`search{rollout=random;searches=all;particles=0}`) loses about two
    // victory cards a game to `adaptive` here instead.
    let out = common::scratch("search_seven_poker", "beats-adaptive").join("run");
    let o = common::draftsim(&[
        "run",
        "--game",
        "seven-poker",
        "--seats",
        "search,adaptive,search,adaptive",
        "--rounds",
        "480",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", common::stderr(&o));
    let mut pairs = csv::Reader::from_path(out.join("pairs.csv")).unwrap();
    let header = pairs.headers().unwrap().clone();
    let row = pairs.records().next().unwrap().unwrap();
    let get = |k: &str| row[header.iter().position(|h| h == k).unwrap()].to_string();
    assert_eq!((get("strategy_a"), get("strategy_b")), ("search".into(), "adaptive".into()));
    let lo: f64 = get("victory_cards_diff_per_game_lo").parse().unwrap();
    assert!(lo > 0.0, "search minus adaptive: {row:?}");
}
