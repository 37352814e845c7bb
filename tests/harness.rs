//! The harness: identical tallies whatever the thread count or sharding, and intervals
//! that cover a known win probability about 95% of the time.

use draftsim::error::Error;
use draftsim::games::seven_card_draft::{Rules, SevenCardDraft};
use draftsim::sim::{self, Game, Lineup, Plan, RoundResult, SHARE_UNIT, Shard, Tally};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn scd(seats: &[&str]) -> (SevenCardDraft, Lineup) {
    let seats: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
    (SevenCardDraft::new(&Rules { players: seats.len(), ..Rules::default() }, &seats).unwrap(), Lineup::new(&seats))
}

fn run_with_threads<G: Game>(game: &G, lineup: &Lineup, plan: &Plan, threads: usize) -> Tally {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| sim::run(game, lineup, plan, false, None, |_, _| Ok(())).unwrap())
}

fn plan(seed: u64, rounds: u64) -> Plan {
    Plan { seed, rounds, rotate: true, shard: None, until_ci: None }
}

#[test]
fn tallies_do_not_depend_on_the_thread_count() {
    let (game, lineup) = scd(&["greedy", "hate", "tight", "random"]);
    let p = plan(11, 40_000);
    let one = run_with_threads(&game, &lineup, &p, 1);
    let two = run_with_threads(&game, &lineup, &p, 2);
    let five = run_with_threads(&game, &lineup, &p, 5);
    assert_eq!(one, two);
    assert_eq!(one, five);
    assert_eq!(one.rounds, 40_000);
}

#[test]
fn merged_shards_equal_the_whole_run() {
    let (game, lineup) = scd(&["greedy", "random", "loose-aggressive"]);
    let whole = run_with_threads(&game, &lineup, &plan(5, 30_000), 2);
    let mut merged: Option<Tally> = None;
    for index in 0..4 {
        let p = Plan { shard: Some(Shard { index, count: 4 }), ..plan(5, 30_000) };
        let part = run_with_threads(&game, &lineup, &p, 2);
        match merged.as_mut() {
            None => merged = Some(part),
            Some(m) => m.merge(&part),
        }
    }
    let mut merged = merged.unwrap();
    merged.shard = None;
    assert_eq!(merged, whole);
}

#[test]
fn rotation_plays_each_deal_once_per_seat_and_until_ci_stops_early() {
    let (game, lineup) = scd(&["greedy", "random"]);
    let t = run_with_threads(&game, &lineup, &plan(3, 1000), 2);
    // 2 seats: each deal is played twice, each strategy once per seat per deal.
    assert_eq!(t.seats[0].rounds, 1000);
    assert_eq!(t.strategies[0].rounds, 1000);
    assert_eq!(t.groups[0].groups, 500);
    let p = Plan { until_ci: Some(0.02), ..plan(3, 10_000_000) };
    let t = run_with_threads(&game, &lineup, &p, 2);
    assert!(t.max_win_rate_half_width() <= 0.02);
    assert!(t.rounds < 1_000_000, "stopped after {} rounds", t.rounds);
}

/// A game whose seat 0 wins each round with probability 0.3 and otherwise seat 1 does;
/// the winner takes 1 chip from the loser.
struct Coin;

impl Game for Coin {
    type Worker = ();
    fn players(&self) -> usize {
        2
    }
    fn worker(&self) {}
    fn play(
        &self,
        _: &mut (),
        deal_seed: u64,
        _: u64,
        _: u64,
        seating: &[usize],
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let seat0_wins = Xoshiro256PlusPlus::seed_from_u64(deal_seed).random::<f64>() < 0.3;
        // The edge belongs to lineup entry 0, wherever it sits.
        let entry0_seat = seating.iter().position(|&e| e == 0).unwrap();
        let winner = if seat0_wins { entry0_seat } else { 1 - entry0_seat };
        *out = RoundResult::default();
        out.seats[winner].share_units = SHARE_UNIT;
        out.seats[winner].net = 1;
        out.seats[1 - winner].net = -1;
        out.length = 1;
        Ok(())
    }
    fn category_names(&self) -> &'static [&'static str] {
        &[]
    }
    fn betting_rounds(&self) -> usize {
        0
    }
    fn replay(&self, _: u64, _: u64, _: u64, _: &[usize]) -> Result<String, Error> {
        Ok(String::new())
    }
}

#[test]
fn intervals_cover_a_known_win_probability_about_95_percent_of_the_time() {
    let lineup = Lineup::new(&["edge".to_string(), "field".to_string()]);
    let runs = 400;
    let mut win_covered = 0;
    let mut chips_covered = 0;
    for seed in 0..runs {
        let p = Plan { seed, rounds: 2_000, rotate: false, shard: None, until_ci: None };
        let t = sim::run(&Coin, &lineup, &p, false, None, |_, _| Ok(())).unwrap();
        win_covered += u32::from(t.strategies[0].win_rate().contains(0.3));
        // Expected chips per round for the edge: 0.3 - 0.7 = -0.4.
        chips_covered += u32::from(t.chips_per_round(0).contains(-0.4));
    }
    let rate = |c: u32| c as f64 / runs as f64;
    assert!((0.92..=0.98).contains(&rate(win_covered)), "Wilson coverage {}", rate(win_covered));
    assert!((0.92..=0.98).contains(&rate(chips_covered)), "t coverage {}", rate(chips_covered));
}
