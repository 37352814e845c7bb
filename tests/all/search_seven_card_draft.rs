//! The search bot in Seven Card Draft: it cannot see hidden cards (face-down picks, packs it
//! has not held, undealt cards), its worlds keep every rule, it is deterministic, and it
//! plays.

use crate::common;
use draftsim::games::{GamePreset, GameRules};

use common::{on_one_and_two_threads, row_value};

use draftsim::games::seven_card_draft::engine::{NoEvents, State};
use draftsim::games::seven_card_draft::{self, Rules, Variant, load_strategy};
use draftsim::search::leaks::decision_points;
use draftsim::search::{Forward, SeatBot, Strategy};
use draftsim::sim::{BotRng, RoundResult};
use rand::{Rng, SeedableRng};

fn seat_bot(name: &str, players: usize) -> SeatBot<State> {
    let strategy: Strategy<seven_card_draft::Preset> = load_strategy(name).unwrap();
    SeatBot::new(name, &strategy, players, seven_card_draft::Preset::bot)
}

fn points(variant: &Variant, count: usize, seed: u64) -> Vec<State> {
    let players = variant.rules.players;
    let mut bots: Vec<SeatBot<State>> = ["greedy", "hate", "tight", "random", "loose-aggressive"]
        .iter()
        .take(players)
        .map(|n| seat_bot(n, players))
        .collect();
    decision_points(variant, &mut bots, seed, count, 4)
}

fn variants() -> Vec<Variant> {
    [
        Rules::default(),
        Rules::from_toml("players = 3\nlimit = \"no-limit\"\nstarting_stack = 12").unwrap(),
        Rules::from_toml("players = 5\nmode = \"game\"\nstarting_stack = 8\nwild = [\"last-pick\"]").unwrap(),
    ]
    .iter()
    .map(|r| r.compile().unwrap())
    .collect()
}

#[test]
fn determinized_worlds_keep_every_card_in_one_place() {
    // Played to the end with the invariants checked: each card in one place (hands, packs,
    // discards, undealt), chips conserved, face-up cards held.
    let mut rng = BotRng::seed_from_u64(11);
    let mut obs = Default::default();
    let mut world = State::default();
    let mut legal = Vec::new();
    for variant in variants() {
        for point in points(&variant, 40, 21) {
            let seat = point.to_act().unwrap();
            point.observe(&variant, seat, &mut obs);
            for _ in 0..4 {
                State::determinize(&variant, &obs, &mut rng, &mut world);
                world.set_verify(true);
                let mut out = RoundResult::default();
                while world.to_act().is_some() {
                    world.legal(&variant, &mut legal);
                    let m = legal[rng.random_range(0..legal.len())];
                    world.apply(&variant, m, &mut NoEvents, &mut out).unwrap();
                }
            }
        }
    }
}

fn cli(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_draftsim")).args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_search_bot_beats_random_and_is_reproducible() {
    let table =
        on_one_and_two_threads(&["run", "--game", "seven-card-draft", "--seats", "search,random", "--rounds", "300"]);
    assert!(row_value(&table, "search", "chips_per_round_lo") > 0.0, "search against random: {table}");
}

#[test]
fn replays_show_the_search_bot_decisions() {
    let text = cli(&[
        "replay",
        "--game",
        "seven-card-draft",
        "--seats",
        "search{iterations=40},greedy,tight,random",
        "--round",
        "0",
    ]);
    // Round 0 is the first seating, by name: the search bot sits at seat 2.
    assert!(text.contains("seat 2 searched 40 iterations: "), "{text}");
    // The top moves in words, with their visit shares and mean results.
    assert!(text.contains("pick ") && text.contains("% (mean 0."), "{text}");
}

#[test]
fn the_heads_up_join_searches_its_picks_and_bets_by_the_trained_policy() {
    // The shipped `cfr-heads-up-search`: every pick with a choice searched, every bet left
    // to `cfr-heads-up`, which its replay names.
    let text = cli(&["replay", "--game", "seven-card-draft", "--seats", "cfr-heads-up-search,tight", "--round", "0"]);
    let mine = |l: &&str| l.contains("seat 0 ");
    let searched: Vec<&str> = text.lines().filter(mine).filter(|l| l.contains("searched 600 iterations")).collect();
    let left = text.lines().filter(mine).filter(|l| l.contains("left this move to its rollout policy")).count();
    assert!(searched.len() >= 3 && searched.iter().all(|l| l.contains(": pick ")), "{text}");
    assert!(left >= 1, "{text}");
}

#[test]
fn the_view_shows_betting_figures_only_while_betting() {
    // While picking, a betting round's figures would be the last one's, or none: the view
    // names the betting round to come and the pick it follows instead.
    let variant = Rules::default().compile().unwrap();
    let mut obs = Default::default();
    let (mut picks, mut bets) = (0, 0);
    for state in points(&variant, 80, 3) {
        let seat = state.to_act().unwrap();
        state.observe(&variant, seat, &mut obs);
        let json = State::observation_json(&variant, &obs);
        let pick = json["pick"].as_u64().unwrap();
        if state.is_bet(&variant) {
            bets += 1;
            assert!(json["betting_round"].as_u64().is_some_and(|b| (1..=3).contains(&b)), "{json}");
            assert!(json.get("bet_to_match").is_some() && json.get("next_betting_round").is_none(), "{json}");
        } else {
            picks += 1;
            assert!(json.get("betting_round").is_none() && json.get("bet_to_match").is_none(), "{json}");
            assert!(json.get("this_betting_round").is_none(), "{json}");
            // The default bets after picks 2, 4 and 7.
            let (next, after) = match pick {
                1 | 2 => (1, 2),
                3 | 4 => (2, 4),
                _ => (3, 7),
            };
            assert_eq!(
                (json["next_betting_round"].as_u64(), json["after_pick"].as_u64()),
                (Some(next), Some(after)),
                "{json}"
            );
        }
    }
    assert!(picks > 10 && bets > 10, "{picks} picks, {bets} bets");
}
