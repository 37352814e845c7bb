//! The conformance suite every registered game passes, one line a game at the bottom:
//!
//! - no player reads a hidden card: at decision points of real play, under the default
//!   rules and rules drawn at random, every heuristic preset and the search bot decide the
//!   same when the cards the seat has not seen are re-dealt from the truth, and in worlds
//!   that re-deal every card and every hidden choice the seat could not see
//!   (determinizations of its observation); each such world plays to its end with the
//!   rules' invariants checked after every step, and rarely equals the truth;
//! - a planted leak (a player that reads every seat's observation) is caught, so the leak
//!   test can fail;
//! - where the game rewinds (`Forward::rewind`), the truth and worlds sampled from the
//!   observation replay to states every seat sees as the same, agree on whether they
//!   rewind, and the truth's past is likelier than its worlds' under the preset the table
//!   played, so the search's `worlds` has something to weigh;
//! - every game's measures are well formed under its default rules and rules drawn at
//!   random;
//! - a replay is a pure function of (seed, seating, round), and a run's tally does not
//!   depend on the thread count; a bad search parameter is refused in one line;
//! - a seat decided outside the process gets its observation as JSON (unchanged when the
//!   cards it has not seen are re-dealt) and its legal moves in words, none named alike,
//!   and the others' moves in words that say no more than it can see.
//!
//! Random play with every invariant checked over random rules is the soak test's.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use draftsim::games::contest::{GameDef, VariantOf, load_strategy};
use draftsim::games::presets::mix_seats;
use draftsim::games::ref_poker::Flavour;
use draftsim::games::{self, live_draft, ref_poker, seven_card_draft, seven_poker, sevens, winston};
use draftsim::search::leaks::{LeakCheck, LeakReport, check_decider, decision_points};
use draftsim::search::params::{is_policy, is_search};
use draftsim::search::{Forward, SeatBot, decide};
use draftsim::sim::{BotRng, Lineup, Mode, NoEvents, Plan, Seatings};
use rand::SeedableRng;

type Obs<G> = <<G as GameDef>::State as Forward>::Obs;

/// The default rules, compiled.
fn default_rules<G: GameDef>() -> VariantOf<G> {
    G::compile(&G::RulesFile::default()).expect("the default rules are valid")
}

/// The seat bot of a strategy name of game `G`.
fn seat_bot<G: GameDef>(name: &str, players: usize) -> SeatBot<G::State> {
    let strategy = load_strategy::<G>(name).unwrap_or_else(|e| panic!("{}: {name}: {e}", G::NAME));
    SeatBot::new(name, &strategy, players, G::bot)
}

/// A heuristic preset of the game other than `random` (a model for the search's `worlds`).
fn model<G: GameDef>() -> &'static str {
    let preset = G::PRESETS.iter().find(|(name, text)| *name != "random" && !is_search(text) && !is_policy(text));
    preset.expect("a heuristic preset").0
}

/// A heuristic preset of the game other than `random` and [`model`] (`model` itself
/// where it is the only one).
fn other_model<G: GameDef>() -> &'static str {
    let model = model::<G>();
    let preset = G::PRESETS
        .iter()
        .find(|(name, text)| *name != "random" && *name != model && !is_search(text) && !is_policy(text));
    preset.map_or(model, |p| p.0)
}

/// Every preset of the game, heuristic or search (the search on a small budget), and
/// where the game rewinds, the search weighing its worlds by a heuristic preset. Trained
/// policies only under the rules they were trained for (`policies`): under others a seat
/// refuses them, and their keys may name other menus.
fn every_bot<G: GameDef>(players: usize, policies: bool) -> Vec<(String, SeatBot<G::State>)> {
    let mut names: Vec<String> = (G::PRESETS.iter())
        .filter(|(_, text)| policies || !is_policy(text))
        .map(|(name, text)| if is_search(text) { format!("{name}{{iterations=40}}") } else { name.to_string() })
        .collect();
    if !names.iter().any(|n| n.starts_with("search")) {
        names.push("search{iterations=40}".into());
    }
    if <G::State as Forward>::REWINDS {
        names.push(format!("search{{iterations=40;rollout={};worlds=4;particles=0;models=[]}}", model::<G>()));
        // Each seat drawn as one of two players, in the weights and in the rollouts.
        let (m, other) = (model::<G>(), other_model::<G>());
        names.push(format!("search{{iterations=40;rollout={m};worlds=1;particles=64;models=[\"{other}\"]}}"));
    }
    for searches in ["bets", "others"] {
        names.push(format!("search{{iterations=40;rollout={};searches={searches}}}", model::<G>()));
    }
    names.into_iter().map(|n| (n.clone(), seat_bot::<G>(&n, players))).collect()
}

/// `count` states before a decision, from units the default mix plays.
fn points<G: GameDef>(rules: &VariantOf<G>, count: usize) -> Vec<G::State> {
    let players = G::players(rules);
    let mut bots: Vec<SeatBot<G::State>> =
        mix_seats(G::DEFAULT_MIX, players).iter().map(|n| seat_bot::<G>(n, players)).collect();
    decision_points(rules, &mut bots, 11, count, 3)
}

/// The rules the leak test plays: the defaults and two drawn from every option.
fn leak_rules<G: GameDef>() -> Vec<VariantOf<G>> {
    let mut out = vec![default_rules::<G>()];
    out.extend([3, 4].map(|seed| G::compile(&G::random_rules(seed)).expect("random rules are valid")));
    out
}

/// Every bot of the game decides from what its seat saw only, under the default rules and
/// rules drawn at random: the same decision when the cards it did not see are re-dealt
/// from the truth (the game's `redeal`) and in determinizations of its observation.
fn no_bot_reads_hidden_cards<G: GameDef>(hidden: Hidden)
where
    Obs<G>: PartialEq + std::fmt::Debug,
{
    let mut worlds = LeakReport::default();
    for (r, rules) in leak_rules::<G>().iter().enumerate() {
        let players = G::players(rules);
        let points = points::<G>(rules, 16);
        let mut rng = BotRng::seed_from_u64(r as u64);
        let redealt: Vec<Vec<G::State>> = (points.iter())
            .map(|p| (0..2).map(|_| p.redeal(rules, p.to_act().expect("a decision"), &mut rng)).collect())
            .collect();
        for (name, mut bot) in every_bot::<G>(players, r == 0) {
            let mut report = LeakReport::default();
            let mut scratch = Obs::<G>::default();
            let mut decider = |state: &G::State, seat: usize, rng: &mut BotRng| {
                decide(rules, state, &mut bot, seat, rng, &mut scratch, &mut NoEvents)
            };
            for (i, point) in points.iter().enumerate() {
                let check = LeakCheck { players, bot_seed: 100 + i as u64, worlds: 3 };
                check_decider(rules, point, &redealt[i], &mut decider, check, &mut report)
                    .unwrap_or_else(|e| panic!("{}: rules {r}, {name}, decision point {i}: {e}", G::NAME));
            }
            assert_eq!(report.points, points.len(), "{}: {name}", G::NAME);
            worlds.worlds += report.worlds;
            worlds.same_worlds += report.same_worlds;
        }
    }
    // A sampled world equal to the truth is rare where hidden cards are many; where they
    // are few (Kuhn poker's one unseen card of two) it still must not be the rule.
    let most = match hidden {
        Hidden::Many => worlds.worlds / 20,
        Hidden::Few => worlds.worlds * 2 / 3,
    };
    assert!(worlds.same_worlds < most, "{}: {worlds:?}", G::NAME);
}

/// A search preset with a bad parameter is refused in one line naming the key.
fn bad_search_parameters_name_the_key<G: GameDef>() {
    for (seat, key) in [
        ("search{iterations=0}", "iterations"),
        ("search{exploration=-1}", "exploration"),
        ("search{rollout=psychic}", "rollout"),
        ("search{rollout=search}", "rollout"),
        ("search{width=3}", "width"),
        ("search{depth=-1}", "depth"),
        ("search{particles=70000}", "particles"),
        ("search{mismatch=0}", "mismatch"),
        ("search{margin=2}", "margin"),
        ("search{rollout=random;worlds=1;particles=0;models=[];searches=all;margin=0.1}", "margin"),
        ("search{opponents=psychic}", "opponents"),
        ("search{worlds=0}", "worlds"),
        ("search{worlds=5000}", "worlds"),
        ("search{searches=psychic}", "searches"),
        ("search{rollout=random;worlds=1;particles=0;models=[];searches=bets}", "searches"),
        ("search{rollout=random;worlds=1;particles=0;models=[];searches=others}", "searches"),
    ] {
        refused_naming::<G>(seat, key);
    }
    // `models` needs weighed particles, and names players of the game.
    let rollout = model::<G>();
    for seat in [
        format!("search{{rollout={rollout};worlds=1;particles=0;models=[\"{rollout}\"]}}"),
        format!("search{{rollout={rollout};worlds=1;particles=64;models=[\"psychic\"]}}"),
        format!("search{{rollout={rollout};worlds=1;particles=64;models=[\"random\"]}}"),
    ] {
        refused_naming::<G>(&seat, "models");
    }
}

/// `seat` is refused in one line that names `key` after the seat's own text (which names
/// every key it sets).
fn refused_naming<G: GameDef>(seat: &str, key: &str) {
    let err = load_strategy::<G>(seat).err().unwrap_or_else(|| panic!("{}: {seat} should be refused", G::NAME));
    let err = err.to_string();
    let told = err.strip_prefix(seat).unwrap_or(&err);
    assert!(told.contains(key) && !err.contains('\n'), "{}: {seat}: {err}", G::NAME);
}

/// A game that rewinds gives, for the truth and for worlds sampled from the observation
/// of the seat to move, a start and moves that replay to a state every seat sees as the
/// same; whether it rewinds a decision's past is the same for the truth and its worlds
/// (the search stops drawing worlds when it cannot); a game that does not rewind refuses
/// the search's `worlds` in one line.
fn a_rewound_world_replays_to_itself<G: GameDef>()
where
    Obs<G>: PartialEq + std::fmt::Debug,
{
    if !<G::State as Forward>::REWINDS {
        let err =
            load_strategy::<G>(&format!("search{{rollout={};worlds=4}}", model::<G>())).expect_err("worlds refused");
        assert!(err.to_string().contains("cannot replay") && !err.to_string().contains('\n'), "{}: {err}", G::NAME);
        return;
    }
    let rules = default_rules::<G>();
    let players = G::players(&rules);
    let mut rng = BotRng::seed_from_u64(8);
    let (mut start, mut moves, mut out) = (G::State::default(), Vec::new(), draftsim::sim::RoundResult::default());
    let (mut a, mut b) = (Obs::<G>::default(), Obs::<G>::default());
    let mut replayed = 0;
    for point in points::<G>(&rules, 120) {
        let seat = point.to_act().expect("a decision");
        point.observe(&rules, seat, &mut a);
        let mut world = G::State::default();
        <G::State as Forward>::determinize(&rules, &a, &mut rng, &mut world);
        let rewinds = point.rewind(&rules, &mut start, &mut moves);
        for state in [&point, &world] {
            assert_eq!(
                state.rewind(&rules, &mut start, &mut moves),
                rewinds,
                "{}: the truth and a world differ",
                G::NAME
            );
            if !rewinds {
                continue;
            }
            for &m in &moves {
                start.apply(&rules, m, &mut NoEvents, &mut out).unwrap_or_else(|e| panic!("{}: {e}", G::NAME));
            }
            for s in 0..players {
                state.observe(&rules, s, &mut a);
                start.observe(&rules, s, &mut b);
                assert_eq!(a, b, "{}: seat {s} sees the replay otherwise", G::NAME);
            }
            replayed += usize::from(!moves.is_empty());
        }
    }
    assert!(replayed > 40, "{}: only {replayed} states had a past", G::NAME);
}

/// How likely `model`, asked at every other seat's decision of `state`'s replayed past,
/// makes the move `seat` saw there (1 or 0 a decision, multiplied); `None` where the game
/// does not rewind `state` or no other seat moved since its start.
fn past_likelihood<G: GameDef>(
    rules: &VariantOf<G>,
    state: &G::State,
    seat: usize,
    model: &mut SeatBot<G::State>,
    rng: &mut BotRng,
) -> Option<f64> {
    let (mut start, mut moves) = (G::State::default(), Vec::new());
    let (mut obs, mut out) = (Obs::<G>::default(), draftsim::sim::RoundResult::default());
    if !state.rewind(rules, &mut start, &mut moves) {
        return None;
    }
    let (mut p, mut asked) = (1.0, false);
    for &m in &moves {
        let actor = start.to_act()?;
        if actor != seat {
            let d = decide(rules, &start, model, actor, rng, &mut obs, &mut NoEvents).ok()?;
            p *= f64::from(u8::from(start.key(rules, actor, seat, d) == start.key(rules, actor, seat, m)));
            asked = true;
        }
        start.apply(rules, m, &mut NoEvents, &mut out).ok()?;
    }
    asked.then_some(p)
}

/// A replayed past carries what the other seats did: at decision points of units in which
/// every seat plays one preset, that preset makes the seen moves more often in the truth's
/// past than in the pasts of worlds sampled from the observation, for at least one of the
/// game's heuristic presets (one whose moves ignore its cards cannot tell them apart). A
/// rewind that dropped or garbled the others' moves would weigh every world alike.
fn the_truth_is_likelier_than_its_worlds<G: GameDef>() {
    if !<G::State as Forward>::REWINDS {
        return;
    }
    let rules = default_rules::<G>();
    let players = G::players(&rules);
    let mut rng = BotRng::seed_from_u64(9);
    let (mut obs, mut world) = (Obs::<G>::default(), G::State::default());
    let mut gaps = Vec::new();
    let presets = G::PRESETS.iter().filter(|(name, text)| *name != "random" && !is_search(text) && !is_policy(text));
    for &(name, _) in presets {
        let mut table: Vec<SeatBot<G::State>> = (0..players).map(|_| seat_bot::<G>(name, players)).collect();
        let mut model = seat_bot::<G>(name, players);
        let (mut truth, mut worlds, mut n) = (0.0, 0.0, 0);
        for point in decision_points(&rules, &mut table, 21, 80, 2) {
            let seat = point.to_act().expect("a decision");
            let Some(t) = past_likelihood::<G>(&rules, &point, seat, &mut model, &mut rng) else { continue };
            point.observe(&rules, seat, &mut obs);
            for _ in 0..4 {
                <G::State as Forward>::determinize(&rules, &obs, &mut rng, &mut world);
                worlds += past_likelihood::<G>(&rules, &world, seat, &mut model, &mut rng).unwrap_or(1.0) / 4.0;
            }
            truth += t;
            n += 1;
        }
        if n >= 10 {
            gaps.push((name, (truth - worlds) / f64::from(n), n));
        }
    }
    assert!(gaps.iter().any(|&(_, gap, _)| gap > 0.1), "{}: truth minus worlds a point, by preset: {gaps:?}", G::NAME);
}

/// A player that reads every seat's observation (so hidden cards) is caught.
fn a_planted_leak_is_caught<G: GameDef>()
where
    Obs<G>: PartialEq + std::fmt::Debug,
{
    let rules = default_rules::<G>();
    let players = G::players(&rules);
    let (mut legal, mut obs) = (Vec::new(), Obs::<G>::default());
    let mut peek = |state: &G::State, _seat: usize, _rng: &mut BotRng| {
        state.legal(&rules, &mut legal);
        let mut h = DefaultHasher::new();
        for s in 0..players {
            state.observe(&rules, s, &mut obs);
            format!("{obs:?}").hash(&mut h);
        }
        Ok(legal[(h.finish() % legal.len() as u64) as usize])
    };
    let caught = (points::<G>(&rules, 24).iter().enumerate())
        .filter(|(i, point)| {
            let check = LeakCheck { players, bot_seed: *i as u64, worlds: 3 };
            check_decider(&rules, *point, &[], &mut peek, check, &mut LeakReport::default()).is_err()
        })
        .count();
    assert!(caught >= 3, "{}: the planted leak was caught at {caught} of 24 decision points", G::NAME);
}

/// Replays repeat, and tallies do not depend on the thread count.
fn replays_repeat_and_threads_do_not_matter<G: GameDef>() {
    let info = games::find(G::NAME).unwrap();
    let (game, seats) = (info.build)(None, None, None).unwrap();
    let lineup = Lineup::new(&seats);
    let seatings = Seatings::new(&lineup, game.players(), true).unwrap();
    for k in [0, 5] {
        let text = game.replay(42, &seatings, k).unwrap();
        assert_eq!(text, game.replay(42, &seatings, k).unwrap(), "{}: replay {k}", G::NAME);
        assert!(text.lines().count() > 3, "{}: replay {k}:\n{text}", G::NAME);
    }
    let plan = Plan { seed: 7, rounds: 300, rotate: true, shard: None, until_ci: None, cards: false, first_deal: 0 };
    let tally = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| game.run(&lineup, &plan, Mode::Tally, None, &mut |_, _| Ok(()))).unwrap()
    };
    assert_eq!(tally(1), tally(2), "{}: one thread against two", G::NAME);
}

/// What a seat decided outside the process is given: its observation as a JSON object
/// naming its seat, the same when the cards it has not seen are re-dealt, and each legal
/// move in words, moves it can tell apart never named alike; another seat's move is named
/// alike wherever that seat cannot tell the moves apart.
fn outside_seats_see_the_observation_and_every_move_named<G: GameDef>() {
    let rules = default_rules::<G>();
    let mut rng = BotRng::seed_from_u64(5);
    let (mut obs, mut legal) = (Obs::<G>::default(), Vec::new());
    for state in points::<G>(&rules, 60) {
        let seat = state.to_act().expect("a decision point");
        state.observe(&rules, seat, &mut obs);
        let json = <G::State as Forward>::observation_json(&rules, &obs);
        assert_eq!(json["seat"], serde_json::json!(seat), "{}: {json}", G::NAME);
        let other = state.redeal(&rules, seat, &mut rng);
        other.observe(&rules, seat, &mut obs);
        assert_eq!(json, <G::State as Forward>::observation_json(&rules, &obs), "{}: hidden cards shown", G::NAME);
        state.legal(&rules, &mut legal);
        for observer in 0..G::players(&rules) {
            let named: Vec<(u32, String)> = (legal.iter())
                .map(|&m| (state.key(&rules, seat, observer, m), state.describe(&rules, m, observer)))
                .collect();
            for (i, (key, text)) in named.iter().enumerate() {
                assert!(!text.is_empty(), "{}: a move without words", G::NAME);
                if observer != seat {
                    // What another seat reads of a move says no more than it can see.
                    for (k, t) in &named[..i] {
                        assert!(k != key || t == text, "{}: seat {observer} tells '{t}' from '{text}'", G::NAME);
                    }
                }
            }
            if observer == seat && named.iter().any(|(k, _)| *k != named[0].0) {
                // The mover's moves are told apart in words (two copies of a card may read alike).
                assert!(named.iter().any(|(_, t)| *t != named[0].1), "{}: every move named '{}'", G::NAME, named[0].1);
            }
        }
    }
}

/// The game's measures are well formed (unique keys, slots in range) under the default
/// rules and rules drawn at random.
fn measures_are_well_formed<G: GameDef>() {
    let drawn = (0..50).map(|seed| G::compile(&G::random_rules(seed)).expect("random rules are valid"));
    for (i, rules) in std::iter::once(default_rules::<G>()).chain(drawn).enumerate() {
        G::measures(&rules).validate().unwrap_or_else(|e| panic!("{}: rules {i}: {e}", G::NAME));
    }
}

/// The decisions the search's `searches = "bets"` searches are those the game's solver
/// abstraction keys, where it keys any; a game without keys searches every decision.
fn bets_are_what_the_solver_keys<G: GameDef>() {
    let rules = default_rules::<G>();
    let points = points::<G>(&rules, 200);
    let mut obs = Obs::<G>::default();
    let keyed: Vec<(bool, bool)> = (points.iter())
        .map(|p| {
            p.observe(&rules, p.to_act().expect("a decision"), &mut obs);
            (p.is_bet(&rules), <G::State as Forward>::info_key(&rules, &obs).is_some())
        })
        .collect();
    if keyed.iter().any(|&(_, key)| key) {
        for (i, &(bet, key)) in keyed.iter().enumerate() {
            assert_eq!(bet, key, "{}: decision point {i}: is_bet and info_key disagree", G::NAME);
        }
    } else {
        assert!(keyed.iter().all(|&(bet, _)| bet), "{}: a decision is called a bet's opposite without keys", G::NAME);
    }
}

/// How many cards a game hides from a seat: many, or so few (a reference game) that a
/// sampled world often equals the truth.
#[derive(Clone, Copy)]
enum Hidden {
    Many,
    Few,
}

/// The whole suite for one game.
fn conforms<G: GameDef>()
where
    Obs<G>: PartialEq + std::fmt::Debug,
{
    conforms_hiding::<G>(Hidden::Many);
}

/// The whole suite for a game that hides this many cards.
fn conforms_hiding<G: GameDef>(hidden: Hidden)
where
    Obs<G>: PartialEq + std::fmt::Debug,
{
    no_bot_reads_hidden_cards::<G>(hidden);
    a_planted_leak_is_caught::<G>();
    bad_search_parameters_name_the_key::<G>();
    bets_are_what_the_solver_keys::<G>();
    measures_are_well_formed::<G>();
    a_rewound_world_replays_to_itself::<G>();
    the_truth_is_likelier_than_its_worlds::<G>();
    replays_repeat_and_threads_do_not_matter::<G>();
    outside_seats_see_the_observation_and_every_move_named::<G>();
}

#[test]
fn every_game_is_registered_here() {
    let here = [
        seven_card_draft::NAME,
        sevens::NAME,
        seven_poker::NAME,
        winston::NAME,
        live_draft::NAME,
        ref_poker::Kuhn::NAME,
        ref_poker::Leduc::NAME,
    ];
    for info in games::GAMES {
        assert!(here.contains(&info.name), "{} has no conformance line below", info.name);
    }
}

#[test]
fn seven_card_draft_conforms() {
    conforms::<seven_card_draft::Def>();
}

#[test]
fn sevens_conforms() {
    conforms::<sevens::Def>();
}

#[test]
fn seven_poker_conforms() {
    conforms::<seven_poker::Def>();
}

#[test]
fn winston_conforms() {
    conforms::<winston::Def>();
}

#[test]
fn live_draft_conforms() {
    conforms::<live_draft::Def>();
}

#[test]
fn kuhn_poker_conforms() {
    conforms_hiding::<ref_poker::Def<ref_poker::Kuhn>>(Hidden::Few);
}

#[test]
fn leduc_poker_conforms() {
    conforms_hiding::<ref_poker::Def<ref_poker::Leduc>>(Hidden::Few);
}
