//! Seven Poker: exact category frequencies of dealt hands, scripted rounds for each rule,
//! and the whole harness on the game.

use draftsim::games::contest::GameDef;
use draftsim::games::seven_poker;
use draftsim::games::{GamePreset, GameRules};
use draftsim::sim::UnitSeeds;
use std::process::Command;

use draftsim::games::seven_poker::cards::{CATEGORY_NAMES, dealt_categories};
use draftsim::games::seven_poker::engine::testing::Stacked;
use draftsim::games::seven_poker::engine::{self, Event, State};
use draftsim::games::seven_poker::measures::{
    BLUFF_STAYS, BLUFF_WINS, CAPPED, EXCHANGED, KEPT_FOLDS, KEPT_FOLDS_PAID, NOBODY_STAYS, ROUND_WINS,
    SEVEN_COLOUR_WINS, SHORT_DEALS, SHORT_ENDS, SHOWDOWN, STAYS, TIE_OUTS, WINNING,
};
use draftsim::games::seven_poker::rules::{AllFold, LeftSwap, LoneStayer, Rules, ShortPile, Unit, VictoryColours};
use draftsim::games::seven_poker::{Bot, BotRng, SeatView, SevenPoker, SevenPokerBot};
use draftsim::sim::{self, Lineup, Plan, RoundResult, SHARE_UNIT};

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
    names.iter().map(|n| seven_poker::Def::load_preset(n).unwrap().bot(n)).collect()
}

fn stacked(
    rules: &Rules,
    hands: &[u64],
    pile: &[u8],
    victory: &[u8],
    names: &[&str],
) -> (Option<usize>, RoundResult, Vec<Event>, State) {
    let mut table = State::verified();
    let mut out = RoundResult::default();
    let mut events = Vec::new();
    let mut b = bots(names);
    let winner = engine::testing::play_stacked(
        rules,
        &mut table,
        &mut b,
        &Stacked { hands, pile, victory },
        1,
        &mut events,
        &mut out,
    )
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
    let plan =
        Plan { seed: 5, rounds: 60_000, rotate: false, shard: None, until_ci: None, cards: false, first_deal: 0 };
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
    assert!(replay.contains("== Round 1 of the game") && replay.contains("victory cards"), "{replay}");
    // A revealed hand's strength is told in words that its cards bear out.
    let reveals: Vec<&str> = replay.lines().filter(|l| l.contains(" reveals ")).collect();
    assert!(!reveals.is_empty(), "{replay}");
    for line in reveals {
        let (cards, said) = line.split_once(" reveals ").unwrap().1.split_once(" (").unwrap();
        let mut counts = std::collections::BTreeMap::<&str, usize>::new();
        for card in cards.split(' ') {
            *counts.entry(card.split('-').next().unwrap()).or_default() += 1;
        }
        let longest = *counts.values().max().unwrap();
        let said = said.trim_end_matches(')');
        let long: Vec<&str> = counts.iter().filter(|(_, n)| **n == longest).map(|(c, _)| *c).collect();
        if counts.len() == 7 {
            assert_eq!(said, "all seven colours", "{line}");
        } else if longest == 1 {
            assert_eq!(said, "no two of one colour", "{line}");
        } else if let Some(one) = said.strip_prefix(&format!("{longest} of one colour: ")) {
            assert_eq!(vec![one], long, "{line}");
        } else {
            let tied = said.strip_prefix(&format!("{longest} each of ")).expect(line);
            let mut named: Vec<&str> = tied.split([',', ' ']).filter(|w| !w.is_empty() && *w != "and").collect();
            named.sort_unstable();
            assert!(long.len() > 1 && named == long, "{line}");
        }
    }
    // Every exchange is told, an empty one too, so a seat's judgement is always followed by
    // its move.
    let replay = run(&["replay", "--game", "seven-poker", "--seats", "adaptive,pat,adaptive", "--round", "0"]);
    assert!(replay.contains("seat 2 (pat) exchanges nothing"), "{replay}");
    let lines: Vec<&str> = replay.lines().collect();
    for w in lines.windows(2).filter(|w| w[0].contains("judged")) {
        let seat = w[0].trim_start().trim_start_matches('(').split(" judged").next().unwrap();
        assert!(w[1].trim_start().starts_with(seat), "a judgement with no move after it: {w:?}");
    }
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
    fn victory_colours(
        &mut self,
        _: &draftsim::games::seven_poker::SeatView<'_>,
        candidates: u8,
        _: usize,
        _: &mut draftsim::games::seven_poker::BotRng,
    ) -> u8 {
        candidates & candidates.wrapping_neg()
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
    let err = engine::testing::play_stacked(
        &rules,
        &mut State::verified(),
        &mut bots,
        &Stacked { hands: &hands, pile: &pile, victory: &[0, 0, 0] },
        1,
        &mut Vec::new(),
        &mut RoundResult::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("discard-three") && err.to_string().contains("the pile holds 1"), "{err}");
}

/// A bot the test drives: stays (from round `stays_from`, or never), discards its lowest
/// cards, shows what it is told (else its lowest cards), gives a chosen card to its left
/// neighbour and returns its highest, keeps everything when `keeps`, takes the victory
/// colours it is told (else the lowest); records what it saw.
#[derive(Clone, Debug, Default)]
struct Scripted {
    stays_from: Option<u32>,
    discard: usize,
    ignore_limit: bool,
    show: Option<u64>,
    give: Option<u8>,
    keeps: bool,
    victory_pick: Option<u8>,
    /// Other seats' shown cards seen when choosing its own show.
    shown_before_show: Vec<u64>,
    /// Seats with a declaration when it declared.
    declared_before: Vec<usize>,
    /// Times asked to give a card back.
    returns: usize,
    /// Victory choices asked for: (candidates, count).
    victory_asked: Vec<(u8, usize)>,
}

impl Scripted {
    fn stays() -> Scripted {
        Scripted { stays_from: Some(0), ..Scripted::default() }
    }
    fn folds() -> Scripted {
        Scripted::default()
    }
}

/// The `k` lowest cards of a set.
fn lowest(mut set: u64, k: usize) -> u64 {
    let mut out = 0;
    for _ in 0..k {
        if set == 0 {
            break;
        }
        out |= set & set.wrapping_neg();
        set &= set - 1;
    }
    out
}

impl Bot for Scripted {
    fn name(&self) -> &str {
        "scripted"
    }
    fn exchange(&mut self, view: &SeatView<'_>, _: &mut BotRng) -> u64 {
        let k = if self.ignore_limit { self.discard } else { self.discard.min(view.rules.max_exchange).min(view.pile) };
        lowest(view.hand, k)
    }
    fn swap_give(&mut self, _: &SeatView<'_>, _: &mut BotRng) -> Option<u8> {
        self.give
    }
    fn swap_return(&mut self, view: &SeatView<'_>, received: u8, _: &mut BotRng) -> u8 {
        self.returns += 1;
        63 - (view.hand & !(1 << received)).leading_zeros() as u8
    }
    fn show(&mut self, view: &SeatView<'_>, _: &mut BotRng) -> u64 {
        self.shown_before_show.push(view.shown.iter().fold(0, |a, s| a | s));
        self.show.unwrap_or_else(|| lowest(view.hand, view.rules.shown.min(view.hand.count_ones() as usize)))
    }
    fn stay(&mut self, view: &SeatView<'_>, _: &mut BotRng) -> bool {
        self.declared_before.push(view.declared.iter().filter(|d| d.is_some()).count());
        self.stays_from.is_some_and(|r| view.round >= r)
    }
    fn keep(&mut self, view: &SeatView<'_>, _: &mut BotRng) -> u64 {
        if self.keeps { view.hand } else { 0 }
    }
    fn victory_colours(&mut self, _: &SeatView<'_>, candidates: u8, count: usize, _: &mut BotRng) -> u8 {
        self.victory_asked.push((candidates, count));
        self.victory_pick
            .unwrap_or_else(|| (0..7).filter(|c| candidates >> c & 1 == 1).take(count).fold(0, |m, c| m | 1 << c))
    }
}

/// One stacked round of scripted bots: (winner, result, events, table, bots).
fn scripted_round(
    rules: &Rules,
    hands: &[u64],
    pile: &[u8],
    victory: &[u8],
    mut bots: Vec<Scripted>,
) -> (Option<usize>, RoundResult, Vec<Event>, State, Vec<Scripted>) {
    let mut table = State::verified();
    let mut out = RoundResult::default();
    let mut events = Vec::new();
    let winner = engine::testing::play_stacked(
        rules,
        &mut table,
        &mut bots,
        &Stacked { hands, pile, victory },
        1,
        &mut events,
        &mut out,
    )
    .unwrap();
    (winner, out, events, table, bots)
}

/// A whole game of scripted bots on deal `seed`: (result, events, bots).
fn scripted_game(rules: &Rules, mut bots: Vec<Scripted>, seed: u64) -> (RoundResult, Vec<Event>, Vec<Scripted>) {
    let mut out = RoundResult::default();
    let mut events = Vec::new();
    let seating: Vec<usize> = (0..rules.players).collect();
    draftsim::search::play_with(
        rules,
        &mut State::verified(),
        seating.len(),
        UnitSeeds::new(seed, 2),
        &mut events,
        &mut out,
        |t, s, rng| t.ask_bot(rules, &mut bots[seating[s]], rng),
    )
    .unwrap();
    (out, events, bots)
}

/// Every card no hand holds, lowest first (the last is drawn first).
fn rest_of_deck(hands: &[u64]) -> Vec<u8> {
    (0..49u8).filter(|id| hands.iter().all(|h| h >> id & 1 == 0)).collect()
}

fn exchanges(events: &[Event]) -> Vec<(usize, u32)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Exchange { seat, discarded, .. } => Some((seat, discarded.count_ones())),
            _ => None,
        })
        .collect()
}

#[test]
fn exchanges_go_round_the_table_per_orbit_three_cards_at_most() {
    let hands = [four_of(0, [1, 2, 3], 1), four_of(1, [0, 2, 3], 2), three_blue()];
    let pile = rest_of_deck(&hands);
    let greedy = Scripted { discard: 5, ..Scripted::stays() };
    for orbits in [1, 2] {
        let rules = Rules { exchange_orbits: orbits, ..three() };
        let (_, out, events, _, _) = scripted_round(&rules, &hands, &pile, &[0; 3], vec![greedy.clone(); 3]);
        let expected: Vec<(usize, u32)> = (0..orbits).flat_map(|_| (0..3).map(|s| (s, 3))).collect();
        assert_eq!(exchanges(&events), expected, "{orbits} orbits from the first player, 3 cards each");
        assert_eq!(out.seats[2].sums[EXCHANGED], 3 * orbits as i64);
    }
    // Seven cards in the pile: 3, 3, then the last one; an empty pile ends the exchanges.
    let rules = Rules { exchange_orbits: 2, ..three() };
    let (_, _, events, _, _) = scripted_round(&rules, &hands, &pile[..7], &[0; 3], vec![greedy.clone(); 3]);
    assert_eq!(exchanges(&events), [(0, 3), (1, 3), (2, 1)]);
    // Four cards where three is the limit: an illegal action.
    let mut bots = vec![Scripted { ignore_limit: true, discard: 4, ..Scripted::stays() }; 3];
    let err = engine::testing::play_stacked(
        &rules,
        &mut State::verified(),
        &mut bots,
        &Stacked { hands: &hands, pile: &pile, victory: &[0; 3] },
        1,
        &mut Vec::new(),
        &mut RoundResult::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("4 cards"), "{err}");
}

#[test]
fn shows_are_chosen_blind_and_declarations_go_from_the_dealer() {
    let hands = [four_of(0, [1, 2, 3], 1), four_of(1, [0, 2, 3], 2), three_blue()];
    let (_, _, events, _, bots) = scripted_round(&three(), &hands, &[], &[0; 3], vec![Scripted::stays(); 3]);
    for b in &bots {
        assert_eq!(b.shown_before_show, [0], "no show is seen before every seat has chosen");
    }
    let first_declaration = events.iter().position(|e| matches!(e, Event::Declare { .. })).unwrap();
    let shows = events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Show { .. }));
    assert!(shows.clone().count() == 3 && shows.clone().all(|(i, _)| i < first_declaration));
    let order: Vec<usize> = events
        .iter()
        .filter_map(|e| match *e {
            Event::Declare { seat, .. } => Some(seat),
            _ => None,
        })
        .collect();
    assert_eq!(order, [2, 0, 1], "the dealer (right of the first player) declares first");
    assert_eq!([&bots[2].declared_before, &bots[0].declared_before, &bots[1].declared_before], [&[0], &[1], &[2]]);
}

#[test]
fn the_first_player_moves_left_and_a_capped_game_has_no_winner() {
    let rules = Rules { players: 3, max_rounds: 7, ..Rules::default() };
    let bots = vec![Scripted { discard: 1, ..Scripted::folds() }; 3];
    let (out, events, _) = scripted_game(&rules, bots, 11);
    let firsts: Vec<usize> = events
        .iter()
        .filter_map(|e| match *e {
            Event::RoundStart { first, .. } => Some(first),
            _ => None,
        })
        .collect();
    assert_eq!(firsts, [0, 1, 2, 0, 1, 2, 0]);
    // Each round's exchanges start at its first player; declarations at the seat before it.
    let mut first = 0;
    let mut expect_exchange = None;
    let mut expect_declare = None;
    for e in &events {
        match *e {
            Event::RoundStart { first: f, .. } => {
                first = f;
                expect_exchange = Some(f);
                expect_declare = Some((f + 2) % 3);
            }
            Event::Exchange { seat, .. } if expect_exchange.is_some() => {
                assert_eq!(Some(seat), expect_exchange.take(), "round with first player {first}");
            }
            Event::Declare { seat, .. } if expect_declare.is_some() => {
                assert_eq!(Some(seat), expect_declare.take(), "round with first player {first}");
            }
            _ => {}
        }
    }
    assert_eq!(out.length, 7);
    for s in 0..3 {
        assert_eq!((out.seats[s].sums[CAPPED], out.seats[s].share_units, out.seats[s].rounds), (1, 0, 7));
    }
}

#[test]
fn a_lone_stayer_wins_without_a_showdown_and_discards() {
    let hands = [three_blue(), four_of(1, [0, 2, 3], 2), four_of(0, [1, 2, 6], 3)];
    let bots = vec![Scripted::stays(), Scripted { keeps: true, ..Scripted::folds() }, Scripted::folds()];
    let (winner, out, events, table, _) = scripted_round(&three(), &hands, &[], &[0; 3], bots);
    assert_eq!(winner, Some(0), "three blue win alone against two folded fours");
    assert!(!events.iter().any(|e| matches!(e, Event::Reveal { .. })), "no showdown");
    assert_eq!(table.victory(0), 1 << 4);
    assert_eq!((out.seats[0].counters[ROUND_WINS], out.seats[0].counters[STAYS]), (1, 1));
    assert_eq!(table.hand(0), 0, "the lone stayer discards its hand");
    assert_eq!(table.hand(1), hands[1], "a folder keeps what it chooses");
    assert_eq!(table.hand(2), 0);
}

#[test]
fn the_left_swap_gives_a_card_and_takes_one_back() {
    let hands = [four_of(0, [1, 2, 3], 1), four_of(1, [0, 2, 3], 2), three_blue()];
    let pile = rest_of_deck(&hands);
    let red7 = cards(&[(0, 7)]).trailing_zeros() as u8;
    let bots = || vec![Scripted { give: Some(red7), ..Scripted::stays() }, Scripted::stays(), Scripted::stays()];
    let swaps = |events: &[Event]| -> Vec<(usize, u8, u8)> {
        events
            .iter()
            .filter_map(|e| match *e {
                Event::Swap { seat, gave, got } => Some((seat, gave, got)),
                _ => None,
            })
            .collect()
    };
    let revealed = |events: &[Event], s: usize| {
        events.iter().find_map(|e| match *e {
            Event::Reveal { seat, cards } if seat == s => Some(cards),
            _ => None,
        })
    };
    let rules = Rules { exchange_orbits: 1, left_swap: LeftSwap::Chosen, ..three() };
    let (_, _, events, _, bots_after) = scripted_round(&rules, &hands, &pile, &[0; 3], bots());
    // Seat 1 gives back its highest card other than red-7: green-2.
    let green2 = cards(&[(3, 2)]).trailing_zeros() as u8;
    assert_eq!(swaps(&events), [(0, red7, green2)]);
    assert_eq!(bots_after[1].returns, 1);
    assert_eq!(revealed(&events, 0).unwrap(), hands[0] & !(1 << red7) | 1 << green2);
    assert_eq!(revealed(&events, 1).unwrap(), hands[1] & !(1 << green2) | 1 << red7);
    // A random card back: the neighbour is not asked; the card is one of its own.
    let rules = Rules { left_swap: LeftSwap::Random, ..rules };
    let (_, _, events, _, bots_after) = scripted_round(&rules, &hands, &pile, &[0; 3], bots());
    let [(0, gave, got)] = swaps(&events)[..] else { panic!("one swap by seat 0: {events:?}") };
    assert_eq!(gave, red7);
    assert!(hands[1] >> got & 1 == 1, "the card back is one seat 1 held");
    assert_eq!(bots_after[1].returns, 0);
    let (_, _, again, _, _) = scripted_round(&rules, &hands, &pile, &[0; 3], bots());
    assert_eq!(swaps(&again), swaps(&events), "the random card comes from the deal's stream");
}

#[test]
fn a_winner_with_colours_tied_for_longest_takes_one_it_does_not_hold() {
    // Three red, three blue, one green: red is held, so blue is taken.
    let tied = cards(&[(0, 1), (0, 2), (0, 3), (4, 1), (4, 2), (4, 3), (3, 1)]);
    let pairs = cards(&[(1, 2), (1, 3), (2, 2), (2, 3), (3, 2), (3, 3), (5, 3)]);
    let others = cards(&[(1, 4), (2, 4), (3, 4), (5, 4), (6, 4), (6, 5), (5, 5)]);
    let (winner, _, events, table, _) =
        scripted_round(&three(), &[tied, pairs, others], &[], &[1, 0, 0], vec![Scripted::stays(); 3]);
    assert_eq!(winner, Some(0));
    assert_eq!(table.victory(0), 1 | 1 << 4);
    assert!(events.iter().any(|e| matches!(e, Event::Outcome { winner: Some(0), colours: 0b1_0000, .. })));
}

#[test]
fn a_game_ends_when_a_seat_reaches_the_victory_target() {
    for target in [1, 2, 3] {
        let rules = Rules { players: 3, victory_target: target, ..Rules::default() };
        let (out, events, _) = scripted_game(&rules, vec![Scripted::stays(); 3], 5);
        let mut held = [0u32; 3];
        let mut rounds = 0;
        let mut ended = false;
        for e in &events {
            match *e {
                Event::RoundStart { .. } => {
                    assert!(!ended, "a round after the target was reached");
                    rounds += 1;
                }
                Event::Outcome { winner: Some(w), colours, .. } => {
                    held[w] += colours.count_ones();
                    ended = held[w] as usize >= target;
                }
                _ => {}
            }
        }
        assert!(ended, "target {target}: the game ended early");
        assert_eq!(out.length, rounds);
        let winners: Vec<usize> = (0..3).filter(|&s| out.seats[s].share_units == SHARE_UNIT).collect();
        assert_eq!(winners.len(), 1);
        assert!(out.seats[winners[0]].score as usize >= target);
        assert_eq!(out.seats[0].sums[CAPPED], 0);
    }
}

#[test]
fn folders_draw_back_up_to_seven() {
    let rules = Rules::default();
    let names = ["fold-to-keep", "colour", "fold-to-keep", "adaptive"];
    let mut b = bots(&names);
    let mut kept = 0;
    for seed in 0..20 {
        let mut events = Vec::new();
        let mut out = RoundResult::default();
        draftsim::search::play_with(
            &rules,
            &mut State::verified(),
            [0, 1, 2, 3].len(),
            UnitSeeds::new(seed, 1),
            &mut events,
            &mut out,
            |t, s, rng| t.ask_bot(&rules, &mut b[[0, 1, 2, 3][s]], rng),
        )
        .unwrap();
        let mut keeps = [None; 4];
        for e in &events {
            match *e {
                Event::Keep { seat, cards } => {
                    keeps[seat] = Some(cards);
                    kept += 1;
                }
                Event::Hand { seat, cards } => {
                    assert_eq!(cards.count_ones(), 7, "seed {seed}: seat {seat} is dealt back to seven");
                    if let Some(k) = keeps[seat].take() {
                        assert_eq!(cards & k, k, "seed {seed}: kept cards stay in the hand");
                    }
                }
                _ => {}
            }
        }
    }
    assert!(kept > 20, "only {kept} kept folds");
}

#[test]
fn a_short_pile_deals_what_is_left_in_turn() {
    // Five cards each after folds; three in the pile: seat 0 draws two, seat 1 one.
    let hands = [run_of(0, 1, 5), run_of(1, 1, 5), run_of(2, 1, 5)];
    let pile = [cards(&[(3, 1)]), cards(&[(3, 2)]), cards(&[(3, 3)])].map(|c| c.trailing_zeros() as u8);
    let (_, _, events, _, _) = scripted_round(&three(), &hands, &pile, &[0; 3], vec![Scripted::stays(); 3]);
    let sizes: Vec<u32> = events
        .iter()
        .filter_map(|e| match *e {
            Event::Hand { cards, .. } => Some(cards.count_ones()),
            _ => None,
        })
        .collect();
    assert_eq!(sizes, [7, 6, 5]);
}

#[test]
fn bluff_kept_fold_and_seven_colour_measures_count_what_they_say() {
    // Seat 0 shows red, orange, yellow from five red: a bluff, and it wins. Seat 1 shows
    // three blue from four indigo: it suggests less than it holds, no bluff. Seat 2 shows
    // three green honestly.
    let hands = [
        run_of(0, 1, 5) | cards(&[(1, 1), (2, 1)]),
        run_of(4, 1, 3) | run_of(5, 1, 4),
        run_of(3, 1, 4) | cards(&[(1, 2), (2, 2), (6, 1)]),
    ];
    let shows = [cards(&[(0, 1), (1, 1), (2, 1)]), run_of(4, 1, 3), run_of(3, 1, 3)];
    let bots = shows.iter().map(|&s| Scripted { show: Some(s), ..Scripted::stays() }).collect();
    let (winner, out, _, _, _) = scripted_round(&three(), &hands, &[], &[0; 3], bots);
    assert_eq!(winner, Some(0));
    let bluffs = |s: usize| (out.seats[s].counters[BLUFF_STAYS], out.seats[s].counters[BLUFF_WINS]);
    assert_eq!([bluffs(0), bluffs(1), bluffs(2)], [(1, 1), (0, 0), (0, 0)]);
    // Seven colours win: counted, and binned as a winning seven-colour hand.
    let rainbow = (0..7).fold(0, |m, c| m | cards(&[(c, 1)]));
    let hands = [four_of(0, [1, 2, 3], 2), rainbow, run_of(4, 2, 4) | run_of(5, 2, 3) | run_of(6, 2, 3)];
    let (winner, out, _, _, _) = scripted_round(&three(), &hands, &[], &[0; 3], vec![Scripted::stays(); 3]);
    assert_eq!(winner, Some(1));
    assert_eq!(out.seats[1].counters[SEVEN_COLOUR_WINS], 1);
    assert_eq!(out.seats[1].bins()[WINNING + 6], 1);
    assert_eq!(out.seats[0].counters[SEVEN_COLOUR_WINS], 0);
    // A fold that kept its hand, then a lone win in the next round: the fold paid off.
    let rules = Rules { players: 3, victory_target: 1, ..Rules::default() };
    let keeper = Scripted { stays_from: Some(1), keeps: true, ..Scripted::default() };
    let (out, events, _) = scripted_game(&rules, vec![keeper, Scripted::folds(), Scripted::folds()], 3);
    assert_eq!(out.length, 2, "{events:?}");
    assert_eq!((out.seats[0].counters[KEPT_FOLDS], out.seats[0].counters[KEPT_FOLDS_PAID]), (1, 1));
    assert_eq!((out.seats[1].counters[KEPT_FOLDS], out.seats[0].counters[NOBODY_STAYS]), (0, 1));
    assert_eq!(out.seats[0].share_units, SHARE_UNIT);
}

/// Colour `c`, numbers `from` to `to`.
fn run_of(c: usize, from: usize, to: usize) -> u64 {
    (from..=to).fold(0, |m, n| m | cards(&[(c, n)]))
}

#[test]
fn the_winner_chooses_its_victory_colours_unless_the_lowest_are_taken() {
    let rainbow = (0..7).fold(0, |m, c| m | cards(&[(c, 1)]));
    let hands = [rainbow, four_of(0, [1, 2, 3], 2), run_of(4, 2, 4) | run_of(5, 2, 3) | run_of(6, 2, 3)];
    let picker = |pick: u8| Scripted { victory_pick: Some(pick), ..Scripted::stays() };
    // All seven colours, red held: the bot picks two of the other six.
    let bots = vec![picker(0b110_0000), Scripted::stays(), Scripted::stays()];
    let (winner, _, events, table, bots) = scripted_round(&three(), &hands, &[], &[1, 0, 0], bots);
    assert_eq!(winner, Some(0));
    assert_eq!(bots[0].victory_asked, [(0b111_1110, 2)]);
    assert_eq!(table.victory(0), 0b110_0001);
    assert!(events.iter().any(|e| matches!(e, Event::Outcome { colours: 0b110_0000, .. })));
    // `lowest`: the bot is not asked; orange and yellow are taken.
    let rules = Rules { victory_colours: VictoryColours::Lowest, ..three() };
    let bots = vec![picker(0b110_0000), Scripted::stays(), Scripted::stays()];
    let (_, _, _, table, bots) = scripted_round(&rules, &hands, &[], &[1, 0, 0], bots);
    assert_eq!((table.victory(0), bots[0].victory_asked.len()), (0b111, 0));
    // Colours tied for longest, none held: blue chosen over red; the lowest would be red.
    let tied = cards(&[(0, 1), (0, 2), (0, 3), (4, 1), (4, 2), (4, 3), (3, 1)]);
    let pairs = cards(&[(1, 2), (1, 3), (2, 2), (2, 3), (3, 2), (3, 3), (5, 3)]);
    let others = cards(&[(1, 4), (2, 4), (3, 4), (5, 4), (6, 4), (6, 5), (5, 5)]);
    let bots = vec![picker(0b1_0000), Scripted::stays(), Scripted::stays()];
    let (_, _, _, table, bots) = scripted_round(&three(), &[tied, pairs, others], &[], &[0; 3], bots);
    assert_eq!((table.victory(0), &bots[0].victory_asked[..]), (0b1_0000, &[(0b1_0001, 1)][..]));
    let bots = vec![picker(0b1_0000), Scripted::stays(), Scripted::stays()];
    let (_, _, _, table, _) = scripted_round(&rules, &[tied, pairs, others], &[], &[0; 3], bots);
    assert_eq!(table.victory(0), 1);
    // A choice outside the candidates is an illegal action.
    let mut bots = vec![picker(0b1000), Scripted::stays(), Scripted::stays()];
    let err = engine::testing::play_stacked(
        &three(),
        &mut State::verified(),
        &mut bots,
        &Stacked { hands: &[tied, pairs, others], pile: &[], victory: &[0; 3] },
        1,
        &mut Vec::new(),
        &mut RoundResult::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("victory colours"), "{err}");
}

#[test]
fn a_lone_stayer_may_keep_its_cards() {
    let hands = [three_blue(), four_of(1, [0, 2, 3], 2), four_of(0, [1, 2, 6], 3)];
    let rules = Rules { lone_stayer: LoneStayer::Keeps, ..three() };
    let bots = vec![Scripted { keeps: true, ..Scripted::stays() }, Scripted::folds(), Scripted::folds()];
    let (winner, _, events, table, _) = scripted_round(&rules, &hands, &[], &[0; 3], bots);
    assert_eq!(winner, Some(0));
    let blue1 = cards(&[(4, 1)]);
    assert_eq!(table.hand(0), hands[0] & !blue1, "keeps its hand but the victory card");
    assert!(events.iter().any(|e| matches!(*e, Event::Keep { seat: 0, cards } if cards == hands[0] & !blue1)));
    // Two stayers competed at a showdown: both discard.
    let bots = vec![Scripted { keeps: true, ..Scripted::stays() }, Scripted { keeps: true, ..Scripted::stays() }];
    let bots = [bots, vec![Scripted::folds()]].concat();
    let (_, _, _, table, _) = scripted_round(&rules, &hands, &[], &[0; 3], bots);
    assert_eq!((table.hand(0), table.hand(1)), (0, 0));
}

#[test]
fn when_everyone_folds_the_rules_say_who_wins() {
    // Four orange (seat 1) beat three blue and two red.
    let hands =
        [three_blue(), four_of(1, [0, 2, 3], 2), cards(&[(0, 4), (0, 5), (1, 3), (2, 3), (3, 3), (6, 3), (6, 4)])];
    let folders = || vec![Scripted { keeps: true, ..Scripted::folds() }; 3];
    let (winner, out, events, table, _) = scripted_round(&three(), &hands, &[], &[0; 3], folders());
    assert_eq!(winner, None);
    assert_eq!(out.seats[0].counters[NOBODY_STAYS], 1);
    assert!(!events.iter().any(|e| matches!(e, Event::Reveal { .. })));
    assert_eq!(table.hand(1), hands[1], "folders keep their cards");
    // A showdown of every hand: four orange win; everyone discards.
    let rules = Rules { all_fold: AllFold::Showdown, ..three() };
    let (winner, out, events, table, _) = scripted_round(&rules, &hands, &[], &[0; 3], folders());
    assert_eq!(winner, Some(1));
    assert_eq!(events.iter().filter(|e| matches!(e, Event::Reveal { .. })).count(), 3);
    assert_eq!((table.victory(1), out.seats[1].counters[STAYS]), (0b10, 0));
    assert_eq!((table.hand(0), table.hand(1), table.hand(2)), (0, 0, 0));
    // The last to declare (seat 1: the dealer is seat 2) must stay and wins alone.
    let rules = Rules { all_fold: AllFold::LastStays, ..three() };
    let (winner, _, events, _, bots) = scripted_round(&rules, &hands, &[], &[0; 3], folders());
    assert_eq!(winner, Some(1));
    assert!(events.iter().any(|e| matches!(e, Event::Declare { seat: 1, stays: true })));
    assert!(bots[1].declared_before.is_empty(), "a forced stay asks nobody");
    assert!(!events.iter().any(|e| matches!(e, Event::Reveal { .. })));
    // Someone stayed before: the last may fold.
    let bots = vec![Scripted::stays(), Scripted { keeps: true, ..Scripted::folds() }, Scripted::folds()];
    let (winner, _, _, _, _) = scripted_round(&rules, &hands, &[], &[0; 3], bots);
    assert_eq!(winner, Some(0));
}

#[test]
fn a_short_pile_may_be_shared_or_end_the_game() {
    let hands = [run_of(0, 1, 5), run_of(1, 1, 5), run_of(2, 1, 5)];
    let pile = [cards(&[(3, 1)]), cards(&[(3, 2)]), cards(&[(3, 3)])].map(|c| c.trailing_zeros() as u8);
    let sizes = |events: &[Event]| -> Vec<u32> {
        events
            .iter()
            .filter_map(|e| match *e {
                Event::Hand { cards, .. } => Some(cards.count_ones()),
                _ => None,
            })
            .collect()
    };
    let rules = Rules { short_pile: ShortPile::OneAtATime, ..three() };
    let (_, out, events, _, _) = scripted_round(&rules, &hands, &pile, &[0; 3], vec![Scripted::stays(); 3]);
    assert_eq!(sizes(&events), [6, 6, 6], "one card each around the table");
    assert_eq!(out.seats[2].counters[SHORT_DEALS], 1);
    // A full deal is not short, and is drawn in turn whatever the option.
    let full = [three_blue(), four_of(1, [0, 2, 3], 2), four_of(0, [1, 2, 6], 3)];
    let (_, out, _, _, _) = scripted_round(&rules, &full, &rest_of_deck(&full), &[0; 3], vec![Scripted::stays(); 3]);
    assert_eq!(out.seats[0].counters[SHORT_DEALS], 0);
    // 35 cards for five players: once a victory card leaves play the deck is short.
    let five = |short_pile| Rules { players: 5, cards_per_colour: 5, short_pile, ..Rules::default() };
    let (out, events, _) = scripted_game(&five(ShortPile::EndsGame), vec![Scripted::stays(); 5], 4);
    let first_winner = events.iter().find_map(|e| match *e {
        Event::Outcome { winner, .. } => Some(winner),
        _ => None,
    });
    let Some(Some(w)) = first_winner else { panic!("deal 4 has a winner in round 1: {events:?}") };
    assert_eq!(out.length, 1, "the game ends when the deck cannot deal again");
    assert_eq!((out.seats[w].share_units, out.seats[w].score), (SHARE_UNIT, 1));
    assert_eq!((out.seats[0].sums[SHORT_ENDS], out.seats[0].sums[CAPPED]), (1, 0));
    let (out, events, _) = scripted_game(&five(ShortPile::InTurn), vec![Scripted::stays(); 5], 4);
    assert!(out.length > 1 && out.seats[0].counters[SHORT_DEALS] >= 1);
    let second: Vec<u32> = sizes(&events)[5..10].to_vec();
    assert_eq!(second, [7, 7, 7, 7, 6], "round 2 from seat 1: the last to draw (seat 0) is short");
}

#[test]
fn new_rules_keys_default_to_the_old_behaviour_but_victory_colours() {
    let r = Rules::from_toml("players = 4").unwrap();
    assert_eq!(
        (r.victory_colours, r.lone_stayer, r.all_fold, r.short_pile),
        (VictoryColours::Chosen, LoneStayer::Discards, AllFold::Nobody, ShortPile::InTurn)
    );
    let err = Rules::from_toml("all_fold = \"everyone\"").unwrap_err().to_string();
    assert!(err.contains("all_fold") || err.contains("everyone"), "{err}");
    // Random rules reach every value of every new key.
    let drawn: Vec<Rules> = (0..300).map(Rules::random).collect();
    for key in ["victory_colours", "lone_stayer", "all_fold", "short_pile"] {
        let values: std::collections::BTreeSet<String> = drawn
            .iter()
            .map(|r| toml::to_string(r).unwrap().lines().find(|l| l.starts_with(key)).unwrap().to_string())
            .collect();
        let expected = if key == "victory_colours" || key == "lone_stayer" { 2 } else { 3 };
        assert_eq!(values.len(), expected, "{key}: {values:?}");
    }
}
