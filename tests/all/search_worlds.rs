//! The search bot's `worlds`: weighing sampled worlds by how likely the other seats' seen
//! moves were in them under the rollout policy reads a bet as the policy means it.

use draftsim::games::contest::{GameDef, load_strategy};
use draftsim::games::ref_poker::{self, Action, Kuhn};
use draftsim::search::{Forward, SeatBot, decide};
use draftsim::sim::{BotRng, NoEvents, RoundResult};
use rand::SeedableRng;

type Def = ref_poker::Def<Kuhn>;

/// Kuhn poker, seat 0 holding the king and seat 1 the queen, after seat 0's bet.
fn after_a_bet() -> (<Def as GameDef>::State, draftsim::games::contest::VariantOf<Def>) {
    let (mut state, rules) = dealt();
    state.apply(&rules, Action::Raise, &mut NoEvents, &mut RoundResult::default()).unwrap();
    (state, rules)
}

/// Kuhn poker, seat 0 holding the king and seat 1 the queen, before any move.
fn dealt() -> (<Def as GameDef>::State, draftsim::games::contest::VariantOf<Def>) {
    let rules = Def::compile(&Default::default()).unwrap();
    let mut state = <Def as GameDef>::State::default();
    let mut out = RoundResult::default();
    let deals = <<Def as GameDef>::State as Forward>::deal_count(&rules).unwrap();
    let king_queen = (0..deals)
        .find(|&i| {
            state.start_deal(&rules, i, &mut out).unwrap();
            (state.card(0), state.card(1)) == (2, 1)
        })
        .expect("a deal of king against queen");
    state.start_deal(&rules, king_queen, &mut out).unwrap();
    (state, rules)
}

/// How often seat 1's player folds at that spot, over `tries` decisions.
fn folds(name: &str, tries: u64) -> u64 {
    let (state, rules) = after_a_bet();
    let mut bot = SeatBot::new(name, &load_strategy::<Def>(name).unwrap(), 2, Def::bot);
    let mut obs = Default::default();
    (0..tries)
        .filter(|&t| {
            let mut rng = BotRng::seed_from_u64(t);
            decide(&rules, &state, &mut bot, 1, &mut rng, &mut obs, &mut NoEvents).unwrap() == Action::Fold
        })
        .count() as u64
}

#[test]
fn weighed_worlds_read_a_tight_bet_as_a_king_and_fold_the_queen() {
    // `tight` bets only the king, so facing its bet a queen loses to every hand it could
    // hold: fold (-1) beats call (-2). Worlds dealt as likely as each other give it the
    // jack half the time, where calling breaks even (0 against -1 for folding).
    assert_eq!(folds("search{rollout=tight;worlds=16}", 20), 20);
    assert_eq!(folds("search{rollout=tight}", 20), 0);
}

/// The mean result (0..1) the search found for calling at that spot.
fn mean_of_calling(name: &str) -> f64 {
    mean_at(name, after_a_bet(), 1, Action::Call)
}

/// The mean result (0..1) the search of `seat`, to move in `spot`, found for `action`.
fn mean_at(
    name: &str,
    (state, rules): (<Def as GameDef>::State, draftsim::games::contest::VariantOf<Def>),
    seat: usize,
    action: Action,
) -> f64 {
    let mut bot = SeatBot::new(name, &load_strategy::<Def>(name).unwrap(), 2, Def::bot);
    let mut obs = Default::default();
    decide(&rules, &state, &mut bot, seat, &mut BotRng::seed_from_u64(3), &mut obs, &mut NoEvents).unwrap();
    let SeatBot::Search(search) = &bot else { panic!("{name} is a search") };
    search.root_child(seat, action as u32).expect("the move was tried").1
}

#[test]
fn a_trained_policy_weighs_worlds_by_its_probabilities() {
    // The shipped equilibrium bets the king about three times as often as it bluffs the
    // jack, so after its bet the king is about three times as likely. A call wins 2 chips
    // against the jack and loses 2 against the king, scaled to 0.75 and 0.25: about 0.39
    // weighed (the floor on a move's chance pulls it a little toward one half), 0.5 not.
    let weighed = mean_of_calling("search{rollout=cfr;worlds=16}");
    let flat = mean_of_calling("search{rollout=cfr}");
    assert!((0.35..0.43).contains(&weighed), "weighed {weighed}");
    assert!((0.47..0.53).contains(&flat), "flat {flat}");
}

#[test]
fn worlds_weighed_once_a_decision_read_the_bet_as_worlds_weighed_every_iteration_do() {
    // The same reading as `worlds`, from 256 worlds weighed before the first iteration.
    assert_eq!(folds("search{rollout=tight;particles=256}", 20), 20);
    assert_eq!(folds("search{rollout=tight;particles=256;mismatch=1}", 20), 0);
}

#[test]
fn a_tree_of_depth_one_holds_the_root_moves_only() {
    let (state, rules) = dealt();
    let size = |name: &str| {
        let mut bot = SeatBot::new(name, &load_strategy::<Def>(name).unwrap(), 2, Def::bot);
        let mut obs = Default::default();
        decide(&rules, &state, &mut bot, 0, &mut BotRng::seed_from_u64(3), &mut obs, &mut NoEvents).unwrap();
        let SeatBot::Search(search) = &bot else { panic!("{name} is a search") };
        search.tree_size()
    };
    // Seat 0 checks or bets: the root and its two moves; the full tree goes on to seat 1's
    // answers and seat 0's answer to a bet after a check.
    assert_eq!(size("search{rollout=tight;depth=1}"), 3);
    assert!(size("search{rollout=tight}") > 3);
}

#[test]
fn models_let_a_bet_be_a_bluff_as_likely_as_the_model_that_explains_it() {
    // With `models = ["aggressive"]` each world draws the bettor as `tight` (bets the
    // king only) or `aggressive` (bets every card) alike, and weighs it by that player's
    // chance of the bet: king 1 + 1 against jack 0.05 + 1, so the king about 0.66. A call
    // (0.75 against the jack, 0.25 against the king) then means about 0.42, above a
    // fold's 0.375: the queen calls, where `tight` alone reads the bet as a king and folds.
    let name = "search{rollout=tight;particles=4096;models=[\"aggressive\"]}";
    let mean = mean_of_calling(name);
    assert!((0.40..0.45).contains(&mean), "mean {mean}");
    assert_eq!(folds(name, 20), 0);
    assert_eq!(folds("search{rollout=tight;particles=4096}", 20), 20);
}

/// The mean result (0..1) the search at the root, seat 0 holding the king, found for betting.
fn mean_of_betting(name: &str) -> f64 {
    mean_at(name, dealt(), 0, Action::Raise)
}

#[test]
fn a_seat_drawn_as_a_model_plays_as_that_model() {
    // A king's bet: `tight` folds the jack (+1, 0.625) and calls with the queen (+2,
    // 0.75), a mean of 0.6875; `calling-station` calls with both, 0.75. With nothing seen
    // yet every world keeps its weight, so with both players drawn alike the mean is
    // 0.71875: the answer to the bet comes from the player drawn for the seat.
    let alone = mean_of_betting("search{rollout=tight;opponents=rollout;particles=64;iterations=20000}");
    let drawn = "search{rollout=tight;opponents=rollout;particles=64;iterations=20000;models=[\"calling-station\"]}";
    let drawn = mean_of_betting(drawn);
    assert!((alone - 0.6875).abs() < 0.005, "alone {alone}");
    assert!((drawn - 0.71875).abs() < 0.01, "drawn {drawn}");
}
