//! The harness: identical tallies whatever the thread count or sharding, and intervals
//! that cover a known win probability about 95% of the time.

use draftsim::error::{Error, InputError};
use draftsim::games::seven_card_draft::{Rules, SevenCardDraft};
use draftsim::games::{Built, GameInfo};
use draftsim::sim::{
    self, CardCatalog, Game, Lineup, Measure, Measures, Mode, Plan, RoundResult, SHARE_UNIT, Score, Shard, Shown,
    Tally, UnitSeeds,
};
use draftsim::stats::Estimate;
use draftsim::study::compare::{CompareSpec, compare};
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
    Plan { seed, rounds, rotate: true, shard: None, until_ci: None, cards: false, first_deal: 0 }
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
    // Whole deals of twelve seatings.
    assert_eq!(one.rounds, 40_008);
}

/// A threshold bot keeps its opponents' strengths while its view's key stays the same, and
/// the seatings of one deal can meet that key again in the next unit. A seat that had
/// folded when the key was last met must be worked out then, not read stale. This table
/// (low raise bars, so rounds fold early) differed between one and two threads before: a
/// batch of units splits a deal's seatings differently.
#[test]
fn a_bots_memory_of_one_seating_does_not_change_the_next() {
    let (game, lineup) = scd(&["calibrated", "greedy", "calibrated", "tight"]);
    let p = plan(20261121, 20_000);
    assert_eq!(run_with_threads(&game, &lineup, &p, 1), run_with_threads(&game, &lineup, &p, 2));
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
    // A wide interval is reached within the first few chunks (it used to take a whole batch
    // of 8,192 deals), at the same place on one thread as on two.
    let p = Plan { until_ci: Some(0.1), ..plan(3, 10_000_000) };
    let (one, two) = (run_with_threads(&game, &lineup, &p, 1), run_with_threads(&game, &lineup, &p, 2));
    assert!(two.max_win_rate_half_width() <= 0.1);
    assert!(two.rounds <= 1_024, "stopped after {} rounds", two.rounds);
    assert_eq!((one.rounds, one.max_win_rate_half_width()), (two.rounds, two.max_win_rate_half_width()));
}

/// A game whose seat 0 wins each round with probability 0.3 and otherwise seat 1 does;
/// the winner takes 1 chip from the loser. With `broken_at`, the losers of that deal pay
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
            bounds: draftsim::stats::Bounds::NONE,
        };
        Coin {
            measures: Measures {
                score,
                unit: "round".into(),
                length: String::new(),
                first_seat: "seat 0 calls first".into(),
                always_won: true,
                measures: vec![],
                histograms: vec![],
                cards: None,
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
        seeds: UnitSeeds,
        seating: &[usize],
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        self.play(w, seeds, seating, out)?;
        if self.broken_at == Some(seeds.deal_index) {
            out.seats.iter_mut().filter(|s| s.score < 0).for_each(|s| s.score = 0);
        }
        Ok(())
    }
    fn play(&self, _: &mut (), seeds: UnitSeeds, seating: &[usize], out: &mut RoundResult) -> Result<(), Error> {
        let seat0_wins = Xoshiro256PlusPlus::seed_from_u64(seeds.deal).random::<f64>() < 0.3;
        // The edge belongs to lineup entry 0, wherever it sits.
        let entry0_seat = seating.iter().position(|&e| e == 0).unwrap();
        award(out, if seat0_wins { entry0_seat } else { 1 - entry0_seat });
        Ok(())
    }
    fn replay(&self, _: UnitSeeds, _: &[usize]) -> Result<String, Error> {
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
        let p = Plan { seed, rounds: 2_000, rotate: false, shard: None, until_ci: None, cards: false, first_deal: 0 };
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
    let p = Plan { seed: 4, rounds: 50_000, rotate: true, shard: None, until_ci: None, cards: false, first_deal: 0 };
    let clean = sim::check(&Coin::new(None), &lineup, &p, None, |_, _| Ok(())).unwrap();
    assert_eq!(clean.violation, None);
    assert_eq!(clean.rounds, 50_000);
    for broken in [0, 777, 12_345] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let found = pool.install(|| sim::check(&Coin::new(Some(broken)), &lineup, &p, None, |_, _| Ok(())).unwrap());
        let v = found.violation.expect("the planted break is found");
        // Two seatings a deal: the broken deal's first seating is round 2 x deal.
        assert_eq!(v.round, 2 * broken, "the first violation is reported: {v:?}");
        assert!(v.message.contains("zero"), "{}", v.message);
    }
    // A run from a later deal counts its rounds from there, and names the same round.
    let later = Plan { first_deal: 700, ..p.clone() };
    let found = sim::check(&Coin::new(Some(777)), &lineup, &later, None, |_, _| Ok(())).unwrap();
    assert_eq!((found.violation.expect("found").round, found.rounds), (2 * 777, 2 * 77));
    // A run of one deal from deal k plays exactly deal k of a run from deal 0.
    let rows = |plan: &Plan| {
        let mut all = Vec::new();
        sim::run(&Coin::new(None), &lineup, plan, Mode::Rows, None, |_, r| {
            all.extend_from_slice(r);
            Ok(())
        })
        .unwrap();
        all
    };
    let whole = rows(&Plan { rounds: 20, ..p.clone() });
    let one = rows(&Plan { rounds: 2, first_deal: 7, ..p.clone() });
    let deal_7: Vec<_> = whole.iter().filter(|r| r.round / 2 == 7).copied().collect();
    assert!(!one.is_empty() && one == deal_7, "{one:?} against {deal_7:?}");
    // A score past what the game declares a seat can score is a violation too.
    let mut declared = Coin::new(None);
    declared.measures.score.bounds = draftsim::stats::Bounds::between(-1.0, 1.0);
    assert_eq!(sim::check(&declared, &lineup, &p, None, |_, _| Ok(())).unwrap().violation, None);
    declared.measures.score.bounds = draftsim::stats::Bounds::at_least(0.0);
    let v = sim::check(&declared, &lineup, &p, None, |_, _| Ok(())).unwrap().violation.expect("a loss below 0");
    assert_eq!(v.round, 0, "{v:?}");
    assert!(
        v.message.contains("seat") && v.message.contains("-1, outside what the rules allow (at least 0)"),
        "{}",
        v.message
    );
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
        game.play_with_events(UnitSeeds::new(seed, 1), seating, &mut events).unwrap();
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

/// One unit of a planted game, from (deal seed, bot seed, seating), written to the result.
type Unit = Box<dyn Fn(u64, u64, &[usize], &mut RoundResult) + Send + Sync>;

/// A planted game of `players` seats (two unless set): `unit` plays each unit; `cards`
/// gives it card identities.
struct Planted {
    measures: Measures,
    players: usize,
    unit: Unit,
}

impl Planted {
    fn new(unit: fn(u64, u64, &[usize], &mut RoundResult), cards: &[&str]) -> Planted {
        let mut measures = Coin::new(None).measures;
        if !cards.is_empty() {
            measures.cards = Some(CardCatalog { names: cards.iter().map(|c| c.to_string()).collect(), groups: vec![] });
        }
        Planted { measures, players: 2, unit: Box::new(unit) }
    }
}

impl Game for Planted {
    type Worker = ();
    fn players(&self) -> usize {
        self.players
    }
    fn worker(&self) {}
    fn measures(&self) -> &Measures {
        &self.measures
    }
    fn play(&self, _: &mut (), seeds: UnitSeeds, seating: &[usize], out: &mut RoundResult) -> Result<(), Error> {
        (self.unit)(seeds.deal, seeds.bots, seating, out);
        Ok(())
    }
    fn replay(&self, _: UnitSeeds, _: &[usize]) -> Result<String, Error> {
        Ok(String::new())
    }
}

/// `winner` takes the unit: all of the win share and 1 chip from the other seat.
fn award(out: &mut RoundResult, winner: usize) {
    out.seats[winner].share_units = SHARE_UNIT;
    out.seats[winner].score = 1;
    out.seats[1 - winner].score = -1;
}

/// A planted draft: one pack of cards 0-3 goes seat 0, 1, 0, 1. Seat 0 always takes card
/// 0 first; every other pick is uniform (from the deal seed); whoever ends holding card 1
/// wins. So for seat 0: card 0 is taken at pick 1 every time, card 1 is in hand a third of
/// the time and then always wins, card 2 is taken at a rate of 1/3 per 5/3 sightings, and
/// card 3 is last seen at pick 3 two times in three (ALSA 7/3).
fn planted_draft(deal_seed: u64, _: u64, _: &[usize], out: &mut RoundResult) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(deal_seed);
    let mut pack: Vec<u16> = vec![0, 1, 2, 3];
    let mut holder = [0usize; 4];
    for pick in 1..=4 {
        let seat = (pick - 1) % 2;
        for &c in &pack {
            out.cards.seen(seat, c, pick);
        }
        let i = if pick == 1 { 0 } else { rng.random_range(0..pack.len()) };
        let card = pack.remove(i);
        out.cards.taken(seat, card, pick);
        out.cards.kept(seat, card);
        holder[card as usize] = seat;
    }
    award(out, holder[1]);
}

#[test]
fn card_analytics_recover_a_planted_draft_and_merge_exactly() {
    let lineup = Lineup::new(&["first".to_string(), "second".to_string()]);
    let p = Plan { seed: 21, rounds: 60_000, rotate: false, shard: None, until_ci: None, cards: true, first_deal: 0 };
    let game = Planted::new(planted_draft, &["A", "B", "C", "D"]);
    let t = run_with_threads(&game, &lineup, &p, 2);
    let a = t.card(0, 0);
    assert_eq!((a.seen, a.seen_picks, a.taken, a.in_hand), (60_000, 60_000, 60_000, 60_000));
    assert_eq!(a.ata().mean, 1.0, "the card always taken first has ATA 1");
    assert_eq!(a.take_rate().mean, 1.0);
    let b = t.card(0, 1);
    assert_eq!(b.win_share_in_hand().mean, 1.0, "card B in hand always wins");
    assert_eq!(b.win_share_passed().mean, 0.0);
    assert_eq!(b.in_hand_difference().mean, 1.0);
    assert!(b.win_share_in_hand().lo > 0.99);
    assert!((b.in_hand as f64 / 60_000.0 - 1.0 / 3.0).abs() < 0.01, "{}", b.in_hand);
    assert!(t.card(0, 2).take_rate().contains(0.2), "{:?}", t.card(0, 2).take_rate());
    assert!(t.card(0, 3).alsa().contains(7.0 / 3.0), "{:?}", t.card(0, 3).alsa());
    // Seat 1 never sees card A.
    assert!(t.card(1, 0).is_empty());
    // Threads and shards merge to the same integers.
    assert_eq!(run_with_threads(&game, &lineup, &p, 1), t);
    let shard =
        |index| run_with_threads(&game, &lineup, &Plan { shard: Some(Shard { index, count: 3 }), ..p.clone() }, 2);
    let mut merged = shard(2);
    merged.merge(&shard(0));
    merged.merge(&shard(1));
    assert_eq!(merged.cards, t.cards);
    assert_eq!((&merged.card_group_sums, merged.card_groups), (&t.card_group_sums, t.card_groups));
    // The group sums' 128-bit terms survive tally.json, which `merge` reads.
    let back: Tally = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
    assert_eq!(back, t);
    // A tally.json written before the group sums existed reads back with unit intervals,
    // alone or merged with a new shard.
    let mut old = serde_json::to_value(shard(0)).unwrap();
    for field in ["card_group_sums", "card_groups"] {
        old.as_object_mut().unwrap().remove(field);
    }
    let old: Tally = serde_json::from_value(old).unwrap();
    assert_eq!(old.card_estimates(0, 2), old.card(0, 2).unit_estimates());
    let mut mixed = shard(1);
    mixed.merge(&old);
    mixed.merge(&shard(2));
    assert_eq!(mixed.cards, t.cards);
    assert_eq!(mixed.card_estimates(0, 2), mixed.card(0, 2).unit_estimates());
    assert_ne!(t.card_estimates(0, 2), t.card(0, 2).unit_estimates(), "the whole run's is over groups");
    assert!(t.card_group_sums.iter().any(|g| g.in_hand.b2 > 0 && g.take.ab > 0));
    // Without cards asked for, nothing is tallied.
    let off = run_with_threads(&game, &lineup, &Plan { cards: false, ..p }, 2);
    assert_eq!(off.card_count(), 0);
}

/// A planted draft whose deal decides how good card X is, for both rotations: on a hot
/// deal each seat sees X and takes it with chance 0.9, on a cold one 0.1. A seat holding X
/// against one without wins; otherwise a coin decides. The true take rate is 0.5, the win
/// share with X in hand 0.59, having passed it 0.41 (in hand, the deal was hot nine times
/// in ten and the other seat then holds X too with chance 0.9).
fn hot_card(deal_seed: u64, bot_seed: u64, _: &[usize], out: &mut RoundResult) {
    let hot = Xoshiro256PlusPlus::seed_from_u64(deal_seed).random::<u64>() & 1 == 1;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(bot_seed);
    let take = if hot { 0.9 } else { 0.1 };
    let mut holds = [false; 2];
    for (seat, held) in holds.iter_mut().enumerate() {
        out.cards.seen(seat, 0, 1);
        if rng.random::<f64>() < take {
            *held = true;
            out.cards.taken(seat, 0, 1);
            out.cards.kept(seat, 0);
        }
    }
    let coin = (rng.random::<u64>() & 1) as usize;
    award(out, if holds[0] != holds[1] { usize::from(holds[1]) } else { coin });
}

#[test]
fn card_intervals_over_deal_groups_cover_where_unit_intervals_are_too_narrow() {
    // A strategy meets X twice per deal group under the same deal, so its two sightings are
    // correlated: group variance 0.82 against 0.5 for independent ones, and Wilson over
    // sightings is about 1.28x too narrow.
    let game = Planted::new(hot_card, &["X"]);
    let lineup = Lineup::new(&["first".to_string(), "second".to_string()]);
    let runs = 400;
    let truths = [0.5, 0.59, 0.41, 0.18];
    let (mut covered, mut unit_covered) = ([0u32; 4], [0u32; 4]);
    let (mut grouped_width, mut unit_width) = (0.0, 0.0);
    for seed in 0..runs {
        let p = Plan { seed, rounds: 2_000, rotate: true, shard: None, until_ci: None, cards: true, first_deal: 0 };
        let t = sim::run(&game, &lineup, &p, Mode::Tally, None, |_, _| Ok(())).unwrap();
        assert_eq!(t.card_groups, 1_000);
        let (grouped, units) = (t.card_estimates(0, 0), t.card(0, 0).unit_estimates());
        let take = &t.card_group_sums[0].take;
        assert!((take.a as f64 / take.b as f64 - units.take_rate.mean).abs() < 1e-12, "group sums hold the counts");
        let pick = |e: &draftsim::sim::CardEstimates| {
            [e.take_rate, e.win_share_in_hand, e.win_share_passed, e.in_hand_minus_passed]
        };
        for (i, (g, u)) in pick(&grouped).into_iter().zip(pick(&units)).enumerate() {
            // Every figure takes the path over groups here (enough groups and wins).
            assert_ne!(g, u, "figure {i}, seed {seed}: an interval over groups");
            covered[i] += u32::from(g.contains(truths[i]));
            unit_covered[i] += u32::from(u.contains(truths[i]));
        }
        grouped_width += grouped.take_rate.half_width();
        unit_width += units.take_rate.half_width();
    }
    let rate = |c: u32| c as f64 / runs as f64;
    for (i, name) in ["take rate", "in hand", "passed", "in hand minus passed"].iter().enumerate() {
        // 400 runs: a binomial sd of 0.011 around 0.95.
        assert!((0.92..=0.975).contains(&rate(covered[i])), "{name}: coverage over groups {}", rate(covered[i]));
    }
    // Wilson over sightings should cover about 0.87 (1.28x too narrow).
    assert!(rate(unit_covered[0]) < 0.92, "Wilson over sightings covers {}", rate(unit_covered[0]));
    let ratio = grouped_width / unit_width;
    assert!((1.2..1.36).contains(&ratio), "grouped / Wilson half-width {ratio}");
}

/// A planted hand category: a deal is hot or cold, a coin's toss; on a hot deal each seat
/// finishes with the `high` category with chance 0.9, on a cold one 0.1, else `low`. The
/// true share of `high` is 0.5, and the hands of one deal's seatings are correlated.
fn hot_hand(deal_seed: u64, bot_seed: u64, _: &[usize], out: &mut RoundResult) {
    let hot = Xoshiro256PlusPlus::seed_from_u64(deal_seed).random::<u64>() & 1 == 1;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(bot_seed);
    for seat in 0..2 {
        let high = rng.random::<f64>() < if hot { 0.9 } else { 0.1 };
        out.seats[seat].observe(0, usize::from(high));
    }
    award(out, 0);
}

#[test]
fn hand_category_shares_over_deal_groups_cover_where_wilson_is_too_narrow() {
    // Four hands a deal group (two seatings, two seats) under one deal, any two of them
    // with covariance 0.16: the group's mean has variance 0.73/4 against 0.25/4 for
    // independent hands, so Wilson over hands is about 1.71x too narrow and covers about
    // 0.75.
    let mut game = Planted::new(hot_hand, &[]);
    let bins = draftsim::sim::Bins::new("categories", "category", ["low", "high"]).ranked();
    game.measures.histograms = vec![bins.histogram("finished", 0, "hands")];
    let lineup = Lineup::new(&["first".to_string(), "second".to_string()]);
    let runs = 400;
    let (mut covered, mut wilson_covered, mut grouped_width, mut wilson_width) = (0u32, 0u32, 0.0, 0.0);
    for seed in 0..runs {
        let p = Plan { seed, rounds: 2_000, rotate: true, shard: None, until_ci: None, cards: false, first_deal: 0 };
        let t = sim::run(&game, &lineup, &p, Mode::Tally, None, |_, _| Ok(())).unwrap();
        let grouped = t.bin_share(1).expect("every group counted, and high is common");
        let counts = t.total();
        let (high, hands) = (counts.bins[1] as f64, (counts.bins[0] + counts.bins[1]) as u64);
        assert_eq!(hands, 4_000);
        assert!((grouped.mean - high / hands as f64).abs() < 1e-12, "the share is the counts'");
        let wilson = draftsim::stats::wilson(high, hands);
        covered += u32::from(grouped.contains(0.5));
        wilson_covered += u32::from(wilson.contains(0.5));
        grouped_width += grouped.half_width();
        wilson_width += wilson.half_width();
    }
    let rate = |c: u32| c as f64 / runs as f64;
    // 400 runs: a binomial sd of 0.011 around 0.95.
    assert!((0.92..=0.975).contains(&rate(covered)), "coverage over groups {}", rate(covered));
    assert!(rate(wilson_covered) < 0.85, "Wilson over hands covers {}", rate(wilson_covered));
    let ratio = grouped_width / wilson_width;
    assert!((1.6..1.82).contains(&ratio), "grouped / Wilson half-width {ratio}");
}

/// A planted game with deal luck shared by the rotations: each deal makes one seat lucky;
/// lineup entry 0 wins 90% of rounds from the lucky seat and 30% from the other. With
/// seats rotated every deal puts entry 0 in both, so its true win rate is 0.6 and the
/// deal's luck cancels within the deal group.
fn seat_luck(deal_seed: u64, bot_seed: u64, seating: &[usize], out: &mut RoundResult) {
    let lucky = (Xoshiro256PlusPlus::seed_from_u64(deal_seed).random::<u64>() & 1) as usize;
    let entry0 = seating.iter().position(|&e| e == 0).unwrap();
    let p = if entry0 == lucky { 0.9 } else { 0.3 };
    let entry0_wins = Xoshiro256PlusPlus::seed_from_u64(bot_seed).random::<f64>() < p;
    award(out, if entry0_wins { entry0 } else { 1 - entry0 });
}

/// Over 400 rotated runs of 2,000 rounds of `seat_luck`: the share of runs whose interval
/// over deal groups, and whose Wilson interval, cover `truth`, and the ratio of their mean
/// half-widths (grouped over Wilson). `pick` gives both intervals from a run's tally.
fn seat_luck_coverage(truth: f64, pick: impl Fn(&Tally) -> (Estimate, Estimate)) -> (f64, f64, f64) {
    let game = Planted::new(seat_luck, &[]);
    let lineup = Lineup::new(&["edge".to_string(), "field".to_string()]);
    let runs = 400;
    let (mut covered, mut wilson_covered) = (0, 0);
    let (mut grouped_width, mut wilson_width) = (0.0, 0.0);
    for seed in 0..runs {
        let p = Plan { seed, rounds: 2_000, rotate: true, shard: None, until_ci: None, cards: false, first_deal: 0 };
        let t = sim::run(&game, &lineup, &p, Mode::Tally, None, |_, _| Ok(())).unwrap();
        let (grouped, wilson) = pick(&t);
        covered += u32::from(grouped.contains(truth));
        wilson_covered += u32::from(wilson.contains(truth));
        grouped_width += grouped.half_width();
        wilson_width += wilson.half_width();
    }
    let rate = |c: u32| c as f64 / runs as f64;
    (rate(covered), rate(wilson_covered), grouped_width / wilson_width)
}

#[test]
fn win_rate_intervals_over_deal_groups_cover_and_are_narrower_than_wilson_under_rotation() {
    let (covered, wilson_covered, ratio) = seat_luck_coverage(0.6, |t| (t.win_rate(0), t.strategy(0).win_rate()));
    // 400 runs: a binomial sd of 0.011 around 0.95.
    assert!((0.92..=0.975).contains(&covered), "paired coverage {covered}");
    // Group variance 0.075 against Wilson's 0.12: about 1.26x narrower, and Wilson over-covers.
    assert!((1.2..1.33).contains(&(1.0 / ratio)), "Wilson / paired half-width {}", 1.0 / ratio);
    assert!(wilson_covered > covered, "Wilson {wilson_covered} against paired {covered}");
}

#[test]
fn seat_intervals_over_deal_groups_cover_where_wilson_is_too_narrow() {
    // In `seat_luck` a seat keeps its luck through the rotations of a deal: seat 0 wins 0.9
    // and 0.7 of the two rounds of a deal where it is lucky, 0.3 and 0.1 where it is not.
    // Its true win rate is 0.5, but a deal group's two rounds are correlated (group
    // variance 0.66 against 0.5 for independent rounds), so Wilson over seat-rounds is
    // about 1.15x too narrow and under-covers (about 91%).
    let (covered, wilson_covered, ratio) = seat_luck_coverage(0.5, |t| {
        let (grouped, wilson) = (t.seat_win_rate(0), t.seat(0).win_rate());
        let shares = &t.seat_groups[0].share;
        let units_per_group = 2.0 * f64::from(SHARE_UNIT);
        assert!((shares.sum as f64 / shares.groups as f64 / units_per_group - wilson.mean).abs() < 1e-12);
        // The score: +1 or -1 a round, the same pairing.
        let score = t.seat_score_per_round(0);
        assert!((score.mean - (2.0 * grouped.mean - 1.0)).abs() < 1e-12);
        assert!((score.half_width() / grouped.half_width() - 2.0).abs() < 0.01, "{score:?} {grouped:?}");
        (grouped, wilson)
    });
    assert!((0.92..=0.975).contains(&covered), "seat coverage over groups {covered}");
    assert!((1.1..1.2).contains(&ratio), "grouped / Wilson half-width {ratio}");
    assert!(wilson_covered < covered, "Wilson {wilson_covered} against grouped {covered}");
}

/// A game-mode-like planted game: each unit deals every seat 1 to 3 rounds, counts events
/// per round (a rate per seat-round), wins among them (a rate over another counter) and a
/// sum (a mean per unit), all at random.
fn varying_rounds(deal_seed: u64, bot_seed: u64, seating: &[usize], out: &mut RoundResult) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(deal_seed ^ bot_seed);
    for (s, r) in out.seats[..2].iter_mut().enumerate() {
        r.rounds = rng.random_range(1..=3);
        let edge = if seating[s] == 0 { 0.2 } else { 0.0 };
        for _ in 0..r.rounds {
            if rng.random::<f64>() < 0.4 + edge {
                r.count(0);
                if rng.random::<f64>() < 0.5 {
                    r.count(1);
                }
            }
        }
        r.sums[0] = rng.random_range(0..10);
    }
    award(out, (rng.random::<u64>() & 1) as usize);
}

#[test]
fn measures_over_deal_groups_keep_the_unit_means_whatever_the_denominator() {
    let mut game = Planted::new(varying_rounds, &[]);
    game.measures.measures = vec![
        Measure::rate(0, "events", "event_rate", Shown::Both, "events per seat-round"),
        Measure::rate_per(1, 0, "wins", "win_share_of_events", Shown::Summary, "wins among events"),
        Measure::mean(0, "points", "mean_points", Shown::Both, "points per unit"),
    ];
    let lineup = Lineup::new(&["edge".to_string(), "field".to_string()]);
    let t = run_with_threads(&game, &lineup, &plan(9, 4_000), 2);
    for x in 0..2 {
        for (i, m) in game.measures.measures.iter().enumerate() {
            let g = &t.measure_groups[x * 3 + i];
            let units = t.strategy(x).measure(m).0;
            assert!((g.a as f64 / g.b as f64 - units.mean).abs() < 1e-12, "{}: {g:?} against {units:?}", m.column);
            let (grouped, _) = t.measure(x, i, m);
            assert_eq!(grouped.mean, units.mean);
            assert!(grouped.half_width() > 0.0 && grouped.half_width() < 2.0 * units.half_width(), "{grouped:?}");
        }
    }
    // Seats and the whole run: the group sums' ratio is the mean over units, and the
    // interval is over groups.
    for (i, m) in game.measures.measures.iter().enumerate() {
        let rows = (0..2).map(|s| (t.seat(s), t.seat_measure(s, i, m))).chain([(t.total(), t.total_measure(i, m))]);
        for (row, (units, (grouped, n))) in rows.enumerate() {
            let units = units.measure(m);
            let g = &t.seat_groups[row].measures[i];
            assert_eq!(g.groups, t.groups[0].groups, "a sum for every deal group");
            assert!((g.a as f64 / g.b as f64 - units.0.mean).abs() < 1e-12, "{}: {g:?} against {units:?}", m.column);
            assert_eq!((grouped.mean, n), (units.0.mean, units.1), "{}", m.column);
            assert_ne!(grouped, units.0, "{}: over groups", m.column);
            assert!(grouped.half_width() > 0.0 && grouped.half_width() < 2.0 * units.0.half_width(), "{grouped:?}");
        }
    }
}

impl draftsim::games::Runner for Planted {
    draftsim::runner_from_game!();

    fn rules_toml(&self) -> String {
        String::new()
    }
    fn rules_played(&self) -> String {
        String::new()
    }
}

/// A three-seat planted game for `compare`, seats named `a` (`is_a`) or otherwise: half the
/// deals favour `a` (decided by the deal seed, so shared by every rotation and by both
/// lineups of an odd table), and then each of its seats weighs 4 against 1 in the draw for
/// the winner (from the bot seed). The winner takes 2 chips, 1 from each other seat.
fn favoured(is_a: Vec<bool>) -> Unit {
    Box::new(move |deal, bot, seating, out| {
        let favoured = Xoshiro256PlusPlus::seed_from_u64(deal).random::<bool>();
        let weight = |s: usize| if favoured && is_a[seating[s]] { 4 } else { 1 };
        let mut draw = Xoshiro256PlusPlus::seed_from_u64(bot).random_range(0..(0..3).map(weight).sum::<u32>());
        let winner = (0..3)
            .find(|&s| {
                let hit = draw < weight(s);
                draw = draw.saturating_sub(weight(s));
                hit
            })
            .expect("a winner");
        for (s, r) in out.seats[..3].iter_mut().enumerate() {
            r.score = if s == winner { 2 } else { -1 };
        }
        out.seats[winner].share_units = SHARE_UNIT;
    })
}

fn build_favoured(_: Option<&str>, _: Option<usize>, seats: Option<&[String]>) -> Result<Built, InputError> {
    let seats = seats.expect("compare gives the seats").to_vec();
    let unit = favoured(seats.iter().map(|s| s == "a").collect());
    Ok((Box::new(Planted { measures: Coin::new(None).measures, players: 3, unit }), seats))
}

const FAVOURED: GameInfo = GameInfo {
    name: "favoured",
    title: "Favoured",
    description: "a planted three-seat game",
    rules_help: &[],
    rule_steps: &[],
    default_rules: String::new,
    presets: Vec::new,
    preset_text: |_| Ok(String::new()),
    preset_in_full: |_| Ok(toml::Table::new()),
    random_rules: |_| String::new(),
    follow: |_, _, _| None,
    default_seats: |_| Vec::new(),
    build: build_favoured,
    rewinds: false,
    view_legend: "",
    undecided_rules: "its tie rules",
};

#[test]
fn compare_on_an_odd_table_pairs_the_two_lineups_deal_by_deal() {
    // Lineups a,b,a and b,a,b. In a favoured deal a wins 8/9 and 4/6 of the rounds and is
    // 1 and 1.5 chips a round ahead; otherwise 2/3 and 1/3, and level. Over both lineups
    // and both kinds of deal: a's share (8/9 + 2/3 + 2/3 + 1/3) / 4 = 23/36, and a chips
    // difference of (1 + 1.5) / 4 = 0.625. The favour is shared by the two lineups'
    // values of a deal, which the interval must pair. (Pooling the two lineups' groups as
    // independent, as compare did before, covered 0.985 and 0.965 here with intervals
    // 1.31x and 1.19x wider than the paired ones: 0.9425 and 0.9425.)
    let runs = 400;
    let (mut share_covered, mut diff_covered) = (0, 0);
    for seed in 0..runs {
        let spec = CompareSpec {
            rules: None,
            strategies: vec!["a".into(), "b".into()],
            players: 3,
            rounds_per_pair: 600,
            seed,
        };
        let c = compare(&FAVOURED, &spec, None, &mut |_, _, _| {}).unwrap();
        let m = &c.matchups[0];
        assert_eq!((m.strategy, m.rounds), (0, 600));
        share_covered += u32::from(m.win_share.contains(23.0 / 36.0));
        diff_covered += u32::from(m.chips_diff.contains(0.625));
    }
    let rate = |c: u32| c as f64 / runs as f64;
    assert!((0.92..=0.975).contains(&rate(share_covered)), "win share coverage {}", rate(share_covered));
    assert!((0.92..=0.975).contains(&rate(diff_covered)), "chips difference coverage {}", rate(diff_covered));
}

/// A planted unit whose health follows from its deal seed: 1 to 7 decisions alternating
/// forced and three-way, and by `deal_seed % 4` a win for seat 0 or 1, a split, or a cap.
fn planted_health(deal_seed: u64, _: u64, _: &[usize], out: &mut RoundResult) {
    for i in 0..=deal_seed % 7 {
        out.health.decision(if i % 2 == 0 { 1 } else { 3 });
    }
    match deal_seed % 4 {
        0 | 1 => award(out, (deal_seed % 4) as usize),
        k => {
            out.seats[0].share_units = SHARE_UNIT / 2;
            out.seats[1].share_units = SHARE_UNIT / 2;
            out.health.capped = k == 3;
        }
    }
}

#[test]
fn the_health_card_is_exact_on_a_planted_game() {
    let game = Planted::new(planted_health, &[]);
    let lineup = Lineup::new(&["a".to_string(), "b".to_string()]);
    let plan = plan(77, 3000);
    let tally = run_with_threads(&game, &lineup, &plan, 2);
    let seatings = sim::Seatings::new(&lineup, 2, true).unwrap();
    // The same units counted by hand from their seeds.
    let (mut decisive, mut drawn, mut capped, mut decisions, mut choices) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut lengths = Vec::new();
    for k in 0..tally.rounds {
        let seed = sim::round_address(plan.seed, &seatings, k).deal_seed;
        match seed % 4 {
            0 | 1 => decisive += 1,
            2 => drawn += 1,
            _ => capped += 1,
        }
        let n = seed % 7 + 1;
        decisions += n;
        choices += n / 2;
        lengths.push(n);
    }
    let h = &tally.health;
    let units = tally.rounds as f64;
    let figure = |name: &str| {
        let i = sim::RATIO_FIGURES.iter().position(|f| f.name == name).unwrap();
        h.figure(i).unwrap().mean
    };
    assert_eq!(figure("completion"), decisive as f64 / units);
    assert_eq!(figure("drawishness"), drawn as f64 / units);
    assert_eq!(figure("timeouts"), capped as f64 / units);
    assert_eq!(figure("length_mean"), decisions as f64 / units);
    assert_eq!(figure("decision_density"), choices as f64 / decisions as f64);
    assert_eq!(figure("legal_moves_mean"), (decisions + 2 * choices) as f64 / decisions as f64);
    lengths.sort_unstable();
    let n = lengths.len() as f64;
    for q in [0.1, 0.5, 0.9] {
        let want = lengths[((n * q).ceil() as usize).max(1) - 1] as f64;
        assert_eq!(h.length_quantile(q).unwrap().mean, want, "quantile {q}");
    }
    let inside = lengths.iter().filter(|&&l| (2..=4).contains(&l)).count() as f64;
    assert_eq!(h.share_between(2, 4).unwrap().mean, inside / n);
    // No standing declared: no lead changes or drama; every figure but the p-value has an
    // interval, and the p-value none.
    assert!(!h.has_standing());
    let card = sim::health_figures(&tally, &lineup.strategies, &Coin::new(None).measures, Some((2, 4)));
    let (p, estimates): (Vec<_>, Vec<_>) = card.iter().partition(|f| f.name == "seats_equal_p");
    assert!(estimates.iter().all(|f| f.value.lo <= f.value.mean && f.value.mean <= f.value.hi), "{card:?}");
    assert!(p[0].value.lo.is_nan() && p[0].value.hi.is_nan() && p[0].value.mean.is_finite(), "{p:?}");
    assert!(card.iter().any(|f| f.name == "ideal_length"));
    assert!(!card.iter().any(|f| f.name == "drama"));
}

/// Four seats; a unit's winner is drawn from its seeds: seat s with weight `w[s]`, nobody
/// (a refund: every score 0) with probability `none`. The winner takes 1 chip from each
/// other seat. Strategies do nothing, so equal weights make the seats exchangeable.
fn weighted_seats(w: [f64; 4], none: f64) -> Planted {
    let unit = move |deal: u64, bot: u64, _: &[usize], out: &mut RoundResult| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(sim::mix_seed(deal, bot, 7));
        if rng.random::<f64>() < none {
            return;
        }
        let mut x = rng.random::<f64>() * w.iter().sum::<f64>();
        let winner = (0..4).find(|&s| {
            x -= w[s];
            x < 0.0
        });
        let winner = winner.unwrap_or(3);
        for s in 0..4 {
            out.seats[s].score = if s == winner { 3 } else { -1 };
        }
        out.seats[winner].share_units = SHARE_UNIT;
    };
    Planted { measures: Coin::new(None).measures, players: 4, unit: Box::new(unit) }
}

fn figure(tally: &Tally, strategies: &[String], name: &str) -> Estimate {
    sim::health_figures(tally, strategies, &Coin::new(None).measures, None)
        .into_iter()
        .find(|f| f.name == name)
        .unwrap()
        .value
}

/// Equal seats read zero, whether or not some units have no winner (the old first-seat
/// edge compared seat 0 with a fair share and read -(1 - completion) / 4 there); a planted
/// seat effect is found and measured.
#[test]
fn seat_figures_read_zero_for_equal_seats_and_find_a_planted_edge() {
    let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
    let lineup = Lineup::new(&names);
    for none in [0.0, 0.3] {
        let game = weighted_seats([1.0; 4], none);
        let (mut covered, mut rejected) = (0, 0);
        for seed in 0..40 {
            let t = run_with_threads(&game, &lineup, &plan(seed, 6_000), 2);
            let edge = figure(&t, &names, "first_seat_edge");
            assert!(edge.mean.abs() < 0.04, "none {none}: {edge:?}");
            covered += usize::from(edge.contains(0.0));
            rejected += usize::from(figure(&t, &names, "seats_equal_p").mean < 0.05);
            let spread = figure(&t, &names, "seat_advantage");
            assert!(spread.lo >= 0.0 && spread.hi <= 1.0 && spread.lo <= spread.mean);
            let balance = figure(&t, &names, "balance");
            assert!(balance.hi <= 1.0, "{balance:?}");
        }
        assert!(covered >= 34, "none {none}: first seat edge covered zero {covered} of 40");
        assert!(rejected <= 6, "none {none}: equal seats rejected {rejected} of 40");
    }
    // Seat 0 wins with weight 1.5 against 1, 1, 1: an edge of (1 - none) 0.5 / 4.5.
    for none in [0.0, 0.3] {
        let t = run_with_threads(&weighted_seats([1.5, 1.0, 1.0, 1.0], none), &lineup, &plan(5, 60_000), 2);
        let truth = (1.0 - none) * 0.5 / 4.5;
        let edge = figure(&t, &names, "first_seat_edge");
        assert!(edge.contains(truth), "none {none}: {edge:?} against {truth}");
        assert!(figure(&t, &names, "seats_equal_p").mean < 1e-6);
        // The seats table agrees: seat 0's win rate minus the others' mean.
        let seats: Vec<f64> = (0..4).map(|s| t.seat_win_rate(s).mean).collect();
        assert!((edge.mean - (seats[0] - (seats[1] + seats[2] + seats[3]) / 3.0)).abs() < 1e-12);
    }
}
