//! The search bot in Live-Draft: it cannot see hidden cards, it is deterministic, and it
//! plays.

use crate::common;
use draftsim::games::GamePreset;

use common::{on_one_and_two_threads, row_value};

use draftsim::games::live_draft::engine::State;
use draftsim::games::live_draft::rules::Method;
use draftsim::games::live_draft::{self as live_draft, Rules, load_strategy};
use draftsim::search::leaks::decision_points;
use draftsim::search::{Forward, SeatBot, Strategy};
use draftsim::sim::BotRng;
use rand::SeedableRng;

fn seat_bot(name: &str, players: usize) -> SeatBot<State> {
    let strategy: Strategy<live_draft::Preset> = load_strategy(name).unwrap();
    SeatBot::new(name, &strategy, players, live_draft::Preset::bot)
}

fn points(rules: &Rules, count: usize, every: u32) -> Vec<State> {
    let mut bots: Vec<SeatBot<State>> = ["best-card", "curve", "colour", "hate"]
        .iter()
        .take(rules.players)
        .map(|n| seat_bot(n, rules.players))
        .collect();
    decision_points(rules, &mut bots, 7, count, every)
}

#[test]
fn a_determinized_world_keeps_what_the_seat_saw_and_deals_the_rest() {
    let rules = Rules { method: Method::Rummy, ..Rules::default() };
    let mut rng = BotRng::seed_from_u64(5);
    let mut obs = live_draft::engine::Observation::default();
    let mut world = State::default();
    for point in points(&rules, 40, 7) {
        let seat = point.to_act().unwrap();
        point.observe(&rules, seat, &mut obs);
        State::determinize(&rules, &obs, &mut rng, &mut world);
        // The seat's own hand, every board and the pile are as it saw them; the other
        // hand is as large and holds the cards seen taken into it.
        assert_eq!(world.hand(seat), point.hand(seat));
        assert_eq!(world.discard_pile(), point.discard_pile());
        assert_eq!(world.library().len(), point.library().len());
        let other = 1 - seat;
        assert_eq!(world.hand(other).len(), point.hand(other).len());
        for c in point.board(other).known_hand.iter() {
            assert!(world.hand(other).contains(&c), "card {c} was seen taken");
        }
        // Every card is in one place.
        world.check(rules.players).unwrap();
    }
}

#[test]
fn the_search_bot_beats_random_and_is_reproducible() {
    let table = on_one_and_two_threads(&["run", "--game", "live-draft", "--seats", "search,random", "--rounds", "60"]);
    assert!(row_value(&table, "search", "win_rate_lo") > 0.5, "search against random: {table}");
}

#[test]
fn games_with_the_search_bot_keep_every_invariant() {
    for rules in ["tableau", "rummy"] {
        let path = std::env::temp_dir().join(format!("draftsim-search-live-draft-{rules}.toml"));
        std::fs::write(&path, format!("method = \"{rules}\"\nplayers = 3\n")).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_draftsim"))
            .args(["check", "--game", "live-draft", "--seats", "search{iterations=20},hate,random", "--rounds", "12"])
            .arg("--rules")
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("no invariant broken"));
    }
}

#[test]
fn a_replay_shows_the_search_bots_decisions() {
    let game =
        live_draft::LiveDraft::new(&Rules::default(), &["search{iterations=20}".into(), "curve".into()]).unwrap();
    let text = draftsim::sim::Game::replay(&game, draftsim::sim::UnitSeeds::new(1, 2), &[0, 1]).unwrap();
    assert!(text.contains("seat 0 (search{iterations=20}) searched") || text.contains("seat 0 searched"), "{text}");
    assert!(text.contains("searched 20 iterations: ") && text.contains("% (mean "), "{text}");
}
