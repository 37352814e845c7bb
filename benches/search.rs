//! Search speed on one core: ISMCTS simulations (iterations) per second of the `search`
//! bot, from decision points of each game's default rules and default mix, one benchmark
//! per game. Each sample runs one decision of `ITERATIONS` iterations at the next point
//! that offers more than one legal move.
//!
//! Run: `cargo bench --bench search`.

use divan::{Bencher, counter::ItemsCount};
use draftsim::search::leaks::decision_points;
use draftsim::search::{Forward, SeatBot, Strategy};
use draftsim::sim::{BotRng, NoEvents, RoundResult};
use rand::SeedableRng;

/// Iterations per timed decision.
const ITERATIONS: u32 = 2_000;
/// Decision points each benchmark cycles through.
const POINTS: usize = 64;

fn main() {
    divan::main();
}

/// Times the search bot's decisions at `points`, `ITERATIONS` iterations each.
fn simulations_per_second<F: Forward>(bencher: Bencher, rules: &F::Variant, points: &[F], mut search: SeatBot<F>) {
    let SeatBot::Search(bot) = &mut search else { panic!("a search preset") };
    // A forced move is played without searching: only real choices count.
    let mut legal = Vec::new();
    let points: Vec<&F> = points
        .iter()
        .filter(|p| {
            p.legal(rules, &mut legal);
            legal.len() > 1
        })
        .collect();
    let mut obs = F::Obs::default();
    let mut rng = BotRng::seed_from_u64(1);
    let mut k = 0;
    bencher.counter(ItemsCount::new(ITERATIONS)).bench_local(|| {
        let point = points[k % points.len()];
        k += 1;
        let seat = point.to_act().expect("a decision point");
        point.observe(rules, seat, &mut obs);
        bot.decide(rules, seat, &obs, &mut rng)
    });
}

#[divan::bench(sample_count = 40)]
fn sevens_simulations(bencher: Bencher) {
    use draftsim::games::sevens::{self, Rules, engine::State};
    let rules = Rules::default();
    let seat = |name: &str| {
        let strategy: Strategy<sevens::Preset> = sevens::load_strategy(name).unwrap();
        SeatBot::<State>::new(name, &strategy, rules.players, sevens::Preset::bot)
    };
    let mut mix: Vec<SeatBot<State>> = (sevens::INFO.default_seats)(rules.players).iter().map(|s| seat(s)).collect();
    let points = decision_points(&rules, &mut mix, 11, POINTS, 2, |t: &mut State, seed| {
        t.reset(&rules, seed, &mut NoEvents, &mut RoundResult::default())
    });
    simulations_per_second(bencher, &rules, &points, seat(&format!("search{{iterations={ITERATIONS}}}")));
}

/// The `search` preset of a game at `ITERATIONS` iterations.
macro_rules! search_seat {
    ($game:ident, $players:expr) => {{
        let name = format!("search{{iterations={ITERATIONS}}}");
        let strategy = draftsim::games::$game::load_strategy(&name).unwrap();
        SeatBot::new(&name, &strategy, $players, draftsim::games::$game::Preset::bot)
    }};
}

#[divan::bench(sample_count = 40)]
fn seven_card_draft_simulations(bencher: Bencher) {
    let (variant, points) = draftsim::games::seven_card_draft::engine::bench_points(POINTS);
    let players = variant.rules.players;
    simulations_per_second(bencher, &variant, &points, search_seat!(seven_card_draft, players));
}

#[divan::bench(sample_count = 20)]
fn seven_poker_simulations(bencher: Bencher) {
    let (rules, points) = draftsim::games::seven_poker::engine::bench_points(POINTS);
    let players = rules.players;
    simulations_per_second(bencher, &rules, &points, search_seat!(seven_poker, players));
}

#[divan::bench(sample_count = 20)]
fn winston_simulations(bencher: Bencher) {
    let (model, points) = draftsim::games::winston::engine::bench_points(POINTS);
    simulations_per_second(bencher, &model, &points, search_seat!(winston, 2));
}

#[divan::bench(sample_count = 20)]
fn live_draft_simulations(bencher: Bencher) {
    let (rules, points) = draftsim::games::live_draft::engine::bench_points(POINTS);
    let players = rules.players;
    simulations_per_second(bencher, &rules, &points, search_seat!(live_draft, players));
}
