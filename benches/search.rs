//! Search speed on one core: ISMCTS simulations (iterations) per second of the `search`
//! bot, from decision points of each game's default rules and default mix, one benchmark
//! per game. Sevens' and Seven Card Draft's presets weigh several worlds an iteration by a
//! heuristic rollout, and Seven Poker's searches its stay-or-fold only; the benchmark times
//! one world, random rollouts there and every decision searched, so that it measures the
//! forward model's speed alike in every game. Each sample runs one decision of `ITERATIONS` iterations at the next point
//! that offers more than one legal move.
//!
//! Run: `cargo bench --bench search`.

use divan::{Bencher, counter::ItemsCount};
use draftsim::games::contest::{GameDef, default_points, seat_bots};
use draftsim::search::{Forward, SeatBot};
use draftsim::sim::BotRng;
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

/// Times the `search` preset of game `G` at `ITERATIONS` iterations and one world (with
/// the keys of `overrides`, where given, in place of the preset's), at decision points of
/// its default rules and default seats (one in `every` decisions).
fn bench_game<G: GameDef>(bencher: Bencher, every: u32, overrides: Option<&str>) {
    let (rules, points) = default_points::<G>(11, POINTS, every);
    let overrides = overrides.map(|o| format!(";{o}")).unwrap_or_default();
    let name = format!("search{{iterations={ITERATIONS};worlds=1{overrides}}}");
    let search = seat_bots::<G>(&[name.as_str()], G::players(&rules)).unwrap().remove(0);
    simulations_per_second(bencher, &rules, &points, search);
}

#[divan::bench(sample_count = 40)]
fn sevens_simulations(bencher: Bencher) {
    bench_game::<draftsim::games::sevens::Def>(bencher, 2, Some("rollout=random;particles=0;depth=0;margin=0"));
}

#[divan::bench(sample_count = 40)]
fn seven_card_draft_simulations(bencher: Bencher) {
    bench_game::<draftsim::games::seven_card_draft::Def>(bencher, 5, Some("rollout=random;particles=0;models=[]"));
}

#[divan::bench(sample_count = 20)]
fn seven_poker_simulations(bencher: Bencher) {
    bench_game::<draftsim::games::seven_poker::Def>(bencher, 7, Some("rollout=random;searches=all;particles=0"));
}

#[divan::bench(sample_count = 20)]
fn winston_simulations(bencher: Bencher) {
    bench_game::<draftsim::games::winston::Def>(bencher, 8, None);
}

#[divan::bench(sample_count = 20)]
fn live_draft_simulations(bencher: Bencher) {
    bench_game::<draftsim::games::live_draft::Def>(bencher, 3, None);
}
