//! Seven Poker: exact category frequencies of dealt hands, scripted rounds for each rule,
//! and the whole harness on the game.

use std::process::Command;

use draftsim::games::seven_poker::cards::{CATEGORY_NAMES, dealt_categories};
use draftsim::games::seven_poker::engine::{self, Event, Stacked, Table};
use draftsim::games::seven_poker::measures::{
    KEPT_FOLDS, NOBODY_STAYS, ROUND_WINS, SEVEN_COLOUR_WINS, SHOWDOWN, TIE_OUTS,
};
use draftsim::games::seven_poker::rules::{Rules, Unit};
use draftsim::games::seven_poker::{Preset, SevenPoker, SevenPokerBot};
use draftsim::sim::{self, Lineup, Plan, RoundResult};

/// Cards by colour index and number, e.g. `hand(&[(0, 1), (0, 2)])`.
fn cards(list: &[(usize, usize)]) -> u64 {
    list.iter().fold(0, |m, &(c, n)| m | 1 << (c * 7 + n - 1))
}

/// Four of colour `c` (numbers 4-7) plus one each of three other colours (number `k`).
fn four_of(c: usize, others: [usize; 3], k: usize) -> u64 {
    cards(&[(c, 4), (c, 5), (c, 6), (c, 7)]) | cards(&others.map(|o| (o, k)))
}

/// Three blue, two indigo, two violet.
fn three_blue() -> u64 {
    cards(&[(4, 1), (4, 2), (4, 3), (5, 1), (5, 2), (6, 1), (6, 2)])
}

fn bots(names: &[&str]) -> Vec<SevenPokerBot> {
    names.iter().map(|n| Preset::load(n).unwrap().bot(n)).collect()
}

fn stacked(
    rules: &Rules,
    hands: &[u64],
    pile: &[u8],
    victory: &[u8],
    names: &[&str],
) -> (Option<usize>, RoundResult, Vec<Event>, Table) {
    let mut table = Table::verified();
    let mut out = RoundResult::default();
    let mut events = Vec::new();
    let mut b = bots(names);
    let winner =
        engine::play_stacked(rules, &mut table, &mut b, &Stacked { hands, pile, victory }, 1, &mut events, &mut out)
            .unwrap();
    (winner, out, events, table)
}

fn three() -> Rules {
    Rules { players: 3, exchange_orbits: 0, unit: Unit::Round, ..Rules::default() }
}

#[test]
fn exact_category_counts_of_the_49_card_deck() {
    let exact = dealt_categories(7);
    assert_eq!(exact.iter().sum::<u64>(), 85_900_584, "C(49, 7): every hand has a category");
    assert_eq!(exact[6], 7u64.pow(7), "all seven colours: one of 7 cards in each colour");
    assert_eq!(exact[5], 7, "seven of one colour: one hand per colour");
    assert_eq!(exact[4], 7 * 7 * 42, "six of a colour: 7 colours x 7 sixes x 42 other cards");
    assert!(exact[5] < exact[6], "the ranking does not follow rarity");
}

/// With pat bots (no exchange, everyone stays) every dealt hand goes to the showdown:
/// chi-square of the categories against the exact counts (bins 5-same and up merged).
#[test]
fn dealt_hands_follow_the_exact_categories() {
    let seats: Vec<String> = vec!["pat".into(); 5];
    let rules = Rules { players: 5, unit: Unit::Round, exchange_orbits: 0, ..Rules::default() };
    let game = SevenPoker::new(&rules, &seats).unwrap();
    let plan = Plan { seed: 5, rounds: 60_000, rotate: false, shard: None, until_ci: None, cards: false };
    let tally = sim::run(&game, &Lineup::new(&seats), &plan, sim::Mode::Tally, None, |_, _| Ok(())).unwrap();
    let counts = &tally.strategy(0).bins[SHOWDOWN..SHOWDOWN + 7];
    let hands: u64 = counts.iter().sum();
    assert_eq!(hands, 5 * 60_000);
    let exact = dealt_categories(7);
    let total: u64 = exact.iter().sum();
    let merge = |v: &[u64]| [v[0], v[1], v[2], v[3] + v[4] + v[5], v[6]];
    let (obs, exp) = (merge(counts), merge(&exact));
    let chi2: f64 = obs
        .iter()
        .zip(exp)
        .map(|(&o, e)| {
            let expected = hands as f64 * e as f64 / total as f64;
            (o as f64 - expected).powi(2) / expected
        })
        .sum();
    assert!(chi2 < 18.47, "chi-square {chi2:.2} (4 degrees of freedom, p = 0.001): {counts:?}");
    assert_eq!(CATEGORY_NAMES, ["2-same", "3-same", "4-same", "5-same", "6-same", "7-same", "seven-colours"]);
}

#[test]
fn tied_strongest_hands_all_lose_and_the_next_wins() {
    let pat = ["pat", "pat", "pat"];
    let hands = [four_of(0, [1, 2, 3], 1), four_of(1, [0, 2, 3], 2), three_blue()];
    let (winner, out, _, table) = stacked(&three(), &hands, &[], &[0, 0, 0], &pat);
    assert_eq!(winner, Some(2), "two fours tie and lose; three of a colour wins");
    assert_eq!(out.seats[2].counters[ROUND_WINS], 1);
    assert_eq!(table.victory(2), 1 << 4, "the winning colour (blue) is taken");
    // Everyone tied: nobody wins.
    let hands = [four_of(0, [1, 2, 3], 1), four_of(1, [0, 2, 3], 2), four_of(4, [5, 6, 2], 3)];
    let (winner, out, events, _) = stacked(&three(), &hands, &[], &[0, 0, 0], &pat);
    assert_eq!(winner, None);
    assert_eq!(out.seats[0].counters[TIE_OUTS], 1);
    assert!(events.iter().any(|e| matches!(e, Event::Outcome { winner: None, tie_out: true, .. })));
}

#[test]
fn a_held_victory_colour_is_not_taken_twice_and_seven_colours_take_two() {
    let pat = ["pat", "pat", "pat"];
    let pairs = cards(&[(1, 2), (1, 3), (2, 2), (2, 3), (3, 2), (3, 3), (5, 3)]);
    let hands = [four_of(0, [1, 2, 3], 1), three_blue(), pairs];
    // Seat 0 wins with four red but already holds red: it takes nothing.
    let (winner, _, events, table) = stacked(&three(), &hands, &[], &[1, 0, 0], &pat);
    assert_eq!(winner, Some(0));
    assert_eq!(table.victory(0), 1);
    assert!(events.iter().any(|e| matches!(e, Event::Outcome { winner: Some(0), colours: 0, .. })));
    // All seven colours: two victory cards, colours not held yet.
    let rainbow = cards(&[(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1)]);
    let hands = [rainbow, four_of(0, [1, 2, 3], 2), cards(&[(4, 2), (4, 3), (4, 4), (5, 2), (5, 3), (6, 2), (6, 3)])];
    let (winner, out, _, table) = stacked(&three(), &hands, &[], &[0b1, 0, 0], &pat);
    assert_eq!(winner, Some(0));
    assert_eq!(out.seats[0].counters[SEVEN_COLOUR_WINS], 1);
    assert_eq!(table.victory(0), 0b111, "red was held; orange and yellow are taken");
}

#[test]
fn a_fold_keeps_cards_and_an_empty_pile_stops_exchanges() {
    // Seat 1 (fold-to-keep) holds only four of a colour: it folds and keeps its plan.
    let five_indigo = cards(&[(5, 1), (5, 2), (5, 3), (5, 4), (5, 5), (6, 1), (6, 2)]);
    let hands = [four_of(0, [1, 2, 3], 1), four_of(4, [1, 2, 3], 2), five_indigo];
    let rules = Rules { exchange_orbits: 2, ..three() };
    let (winner, out, events, table) = stacked(&rules, &hands, &[], &[0, 0, 0], &["pat", "fold-to-keep", "pat"]);
    assert_eq!(winner, Some(2), "five indigo beat four red");
    assert!(events.iter().any(|e| matches!(e, Event::Keep { seat: 1, .. })));
    assert_eq!(out.seats[1].counters[KEPT_FOLDS], 0, "counted only when a next round is played");
    assert_eq!(table.hand(1), cards(&[(4, 4), (4, 5), (4, 6), (4, 7)]), "keeps its four blue");
    assert_eq!(table.hand(0), 0, "a player who competed discards the hand");
    assert!(!events.iter().any(|e| matches!(e, Event::Exchange { .. })), "the pile was empty: no exchange");
    // With a pile, the colour bot exchanges.
    let pile: Vec<u8> = (0..49u8).filter(|id| hands.iter().all(|h| h >> id & 1 == 0)).collect();
    let (_, _, events, _) = stacked(&rules, &hands, &pile, &[0, 0, 0], &["colour", "colour", "colour"]);
    assert!(events.iter().any(|e| matches!(e, Event::Exchange { .. })));
    // Everyone folds: nobody wins.
    let weak =
        |k: usize| cards(&[(0, 2 * k + 1), (0, 2 * k + 2), (1, k + 1), (2, k + 1), (3, k + 1), (4, k + 1), (5, k + 1)]);
    let hands = [weak(0), weak(1), weak(2)];
    let (winner, out, _, _) = stacked(&three(), &hands, &[], &[0, 0, 0], &["fold-to-keep"; 3]);
    assert_eq!(winner, None);
    assert_eq!(out.seats[0].counters[NOBODY_STAYS], 1);
}

#[test]
fn the_whole_harness_works_for_seven_poker() {
    let bin = env!("CARGO_BIN_EXE_draftsim");
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let run = |args: &[&str]| {
        let o = Command::new(bin).args(args).output().unwrap();
        assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let base = ["run", "--game", "seven-poker", "--rounds", "4000", "--seed", "9", "--quiet"];
    run(&[&base[..], &["--out", &path("whole")]].concat());
    for i in 0..2 {
        run(&[&base[..], &["--shard", &format!("{i}/2"), "--out", &path(&format!("s{i}"))]].concat());
    }
    run(&["merge", &path("s0"), &path("s1"), "--out", &path("merged")]);
    for table in ["summary.csv", "seats.csv", "categories.csv", "measures.csv"] {
        let a = std::fs::read(dir.path().join("whole").join(table)).unwrap();
        let b = std::fs::read(dir.path().join("merged").join(table)).unwrap();
        assert_eq!(a, b, "{table}: merged shards equal the whole run");
    }
    let replay = run(&["replay", "--game", "seven-poker", "--seed", "9", "--round", "3"]);
    assert!(replay.contains("== Round 1") && replay.contains("victory cards"), "{replay}");
    run(&[
        "compare",
        "--game",
        "seven-poker",
        "--strategies",
        "adaptive,colour",
        "--players",
        "4",
        "--rounds",
        "2000",
        "--out",
        &path("cmp"),
    ]);
    run(&[
        "sweep",
        "--game",
        "seven-poker",
        "--set",
        "left_swap=none,chosen",
        "--rounds",
        "1000",
        "--out",
        &path("sweep"),
    ]);
    run(&["report", &path("whole"), &path("cmp"), &path("sweep"), "--out", &path("report")]);
    let md = std::fs::read_to_string(dir.path().join("report/report.md")).unwrap();
    assert!(md.contains("seven-colours") && md.contains("bluff stay rate"), "{md}");
    let check = run(&["check", "--game", "seven-poker", "--rounds", "20000", "--quiet"]);
    assert!(check.contains("no invariant broken"));
    let o =
        Command::new(bin).args(["run", "--game", "seven-poker", "--players", "6", "--rounds", "10"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("players = 6"));
}

/// Discards three whatever the pile holds; otherwise plays like `pat`.
struct DiscardThree;

impl draftsim::games::seven_poker::Bot for DiscardThree {
    fn name(&self) -> &str {
        "discard-three"
    }
    fn exchange(
        &mut self,
        view: &draftsim::games::seven_poker::SeatView<'_>,
        _: &mut draftsim::games::seven_poker::BotRng,
    ) -> u64 {
        let mut hand = view.hand;
        (0..3).fold(0, |m, _| {
            let low = hand & hand.wrapping_neg();
            hand &= hand - 1;
            m | low
        })
    }
    fn swap_give(
        &mut self,
        _: &draftsim::games::seven_poker::SeatView<'_>,
        _: &mut draftsim::games::seven_poker::BotRng,
    ) -> Option<u8> {
        None
    }
    fn swap_return(
        &mut self,
        view: &draftsim::games::seven_poker::SeatView<'_>,
        _: u8,
        _: &mut draftsim::games::seven_poker::BotRng,
    ) -> u8 {
        view.hand.trailing_zeros() as u8
    }
    fn show(
        &mut self,
        view: &draftsim::games::seven_poker::SeatView<'_>,
        _: &mut draftsim::games::seven_poker::BotRng,
    ) -> u64 {
        self.exchange_like(view)
    }
    fn stay(
        &mut self,
        _: &draftsim::games::seven_poker::SeatView<'_>,
        _: &mut draftsim::games::seven_poker::BotRng,
    ) -> bool {
        true
    }
    fn keep(
        &mut self,
        _: &draftsim::games::seven_poker::SeatView<'_>,
        _: &mut draftsim::games::seven_poker::BotRng,
    ) -> u64 {
        0
    }
}

impl DiscardThree {
    fn exchange_like(&self, view: &draftsim::games::seven_poker::SeatView<'_>) -> u64 {
        let mut hand = view.hand;
        (0..view.rules.shown).fold(0, |m, _| {
            let low = hand & hand.wrapping_neg();
            hand &= hand - 1;
            m | low
        })
    }
}

/// A bot may not discard more cards than the pile can replace: that is an illegal action
/// naming it, not a short hand.
#[test]
fn discarding_more_than_the_pile_holds_is_refused() {
    let rules = Rules { exchange_orbits: 1, ..three() };
    let hands = [four_of(0, [1, 2, 3], 1), four_of(1, [0, 2, 3], 2), three_blue()];
    let mut bots: Vec<Box<dyn draftsim::games::seven_poker::Bot>> =
        vec![Box::new(DiscardThree), Box::new(DiscardThree), Box::new(DiscardThree)];
    let pile = [48u8];
    let err = engine::play_stacked(
        &rules,
        &mut Table::verified(),
        &mut bots,
        &Stacked { hands: &hands, pile: &pile, victory: &[0, 0, 0] },
        1,
        &mut Vec::new(),
        &mut RoundResult::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("discard-three") && err.to_string().contains("the pile holds 1"), "{err}");
}
