//! The harness: identical tallies whatever the thread count or sharding, and intervals
//! that cover a known win probability about 95% of the time.

use draftsim::error::Error;
use draftsim::games::seven_card_draft::{Rules, SevenCardDraft};
use draftsim::sim::{self, Game, Lineup, Measures, Mode, Plan, RoundResult, SHARE_UNIT, Score, Shard, Tally};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn scd(seats: &[&str]) -> (SevenCardDraft, Lineup) {
    let seats: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
    (SevenCardDraft::new(&Rules { players: seats.len(), ..Rules::default() }, &seats).unwrap(), Lineup::new(&seats))
}

fn run_with_threads<G: Game>(game: &G, lineup: &Lineup, plan: &Plan, threads: usize) -> Tally {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| sim::run(game, lineup, plan, Mode::Tally, None, |_, _| Ok(())).unwrap())
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
    assert_eq!(t.seat(0).rounds, 1000);
    assert_eq!(t.strategy(0).rounds, 1000);
    assert_eq!(t.groups[0].groups, 500);
    let p = Plan { until_ci: Some(0.02), ..plan(3, 10_000_000) };
    let t = run_with_threads(&game, &lineup, &p, 2);
    assert!(t.max_win_rate_half_width() <= 0.02);
    assert!(t.rounds < 1_000_000, "stopped after {} rounds", t.rounds);
}

/// A game whose seat 0 wins each round with probability 0.3 and otherwise seat 1 does;
/// the winner takes 1 chip from the loser. With `broken_at`, that round's loser pays
/// nothing (a planted break of zero-sum chips).
struct Coin {
    measures: Measures,
    broken_at: Option<u64>,
}

impl Coin {
    fn new(broken_at: Option<u64>) -> Coin {
        let score = Score {
            key: "net".into(),
            column: "chips_per_round".into(),
            pair_column: "chips_diff_per_round".into(),
            description: String::new(),
            zero_sum: true,
        };
        Coin {
            measures: Measures {
                score,
                unit: "round".into(),
                length: String::new(),
                always_won: true,
                measures: vec![],
                histograms: vec![],
            },
            broken_at,
        }
    }
}

impl Game for Coin {
    type Worker = ();
    fn players(&self) -> usize {
        2
    }
    fn worker(&self) {}
    fn measures(&self) -> &Measures {
        &self.measures
    }
    fn play_checked(
        &self,
        w: &mut (),
        deal_seed: u64,
        bot_seed: u64,
        round: u64,
        seating: &[usize],
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        self.play(w, deal_seed, bot_seed, round, seating, out)?;
        if self.broken_at == Some(round) {
            out.seats.iter_mut().filter(|s| s.score < 0).for_each(|s| s.score = 0);
        }
        Ok(())
    }
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
        out.seats[winner].share_units = SHARE_UNIT;
        out.seats[winner].score = 1;
        out.seats[1 - winner].score = -1;
        Ok(())
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
        let t = sim::run(&Coin::new(None), &lineup, &p, Mode::Tally, None, |_, _| Ok(())).unwrap();
        win_covered += u32::from(t.strategy(0).win_rate().contains(0.3));
        // Expected chips per round for the edge: 0.3 - 0.7 = -0.4.
        chips_covered += u32::from(t.score_per_round(0).contains(-0.4));
    }
    let rate = |c: u32| c as f64 / runs as f64;
    assert!((0.92..=0.98).contains(&rate(win_covered)), "Wilson coverage {}", rate(win_covered));
    assert!((0.92..=0.98).contains(&rate(chips_covered)), "t coverage {}", rate(chips_covered));
}

#[test]
fn check_reports_a_planted_break_with_its_round() {
    let lineup = Lineup::new(&["edge".to_string(), "field".to_string()]);
    let p = Plan { seed: 4, rounds: 50_000, rotate: true, shard: None, until_ci: None };
    let clean = sim::check(&Coin::new(None), &lineup, &p, None, |_, _| Ok(())).unwrap();
    assert_eq!(clean.violation, None);
    assert_eq!(clean.rounds, 50_000);
    for broken in [0, 777, 31_337] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let found = pool.install(|| sim::check(&Coin::new(Some(broken)), &lineup, &p, None, |_, _| Ok(())).unwrap());
        let v = found.violation.expect("the planted break is found");
        assert_eq!(v.round, broken, "the first violation is reported: {v:?}");
        assert!(v.message.contains("zero"), "{}", v.message);
    }
}

#[test]
fn a_game_mode_game_keeps_per_round_measures_and_its_cards_do_not_depend_on_busting() {
    use draftsim::games::seven_card_draft::{Event, rules::Mode as Unit};
    let rules = Rules { mode: Unit::Game, starting_stack: 12, ..Rules::default() };
    let seats: Vec<String> = ["tight", "loose-aggressive", "random", "greedy"].iter().map(|s| s.to_string()).collect();
    let game = SevenCardDraft::new(&rules, &seats).unwrap();
    let lineup = Lineup::new(&seats);
    let t = run_with_threads(&game, &lineup, &plan(8, 400), 2);
    let m = game.measures();
    let showdowns = t.total().measure(m.find("showdown_rate").unwrap());
    assert!(showdowns.0.mean > 0.05 && showdowns.1 > t.rounds * 4, "rates are per seat-round: {showdowns:?}");
    assert!(t.mean_length().mean > 2.0);
    // Round r's packs come from (deal seed, r): the same whoever plays.
    let deals = |seed: u64, seating: &[usize]| {
        let mut events = Vec::new();
        game.play_with_events(seed, 1, 0, seating, &mut events).unwrap();
        let mut round = 0;
        events
            .iter()
            .filter_map(|e| match e {
                Event::RoundStart { round: r, .. } => {
                    round = *r;
                    None
                }
                Event::Deal { pack, .. } => Some((round, *pack)),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let dealt = |d: &[(u32, draftsim::cards::CardSet)], r: u32| {
        let packs: Vec<_> = d.iter().filter(|x| x.0 == r).map(|x| x.1).collect();
        (packs.len(), packs.iter().fold(draftsim::cards::CardSet::EMPTY, |acc, p| acc.union(*p)))
    };
    let mut same_size = 0;
    for seed in 0..20 {
        let a = deals(seed, &[0, 1, 2, 3]);
        let b = deals(seed, &[3, 2, 1, 0]);
        let last = a.last().unwrap().0.min(b.last().unwrap().0);
        for r in 1..=last {
            let (x, y) = (dealt(&a, r), dealt(&b, r));
            if x.0 == y.0 {
                assert_eq!(x.1, y.1, "round {r}: as many players dealt in, so the same cards");
                same_size += 1;
            }
        }
    }
    assert!(same_size >= 10, "later rounds compared: {same_size}");
}
