//! Seven Card Draft engine: scripted rounds on stacked decks, one per rule, plus a
//! property test over random rules and random legal bots, and the category frequencies
//! of randomly drafted hands against the exact seven-card figures.

use draftsim::games::GameRules;
use draftsim::sim::UnitSeeds;
use std::collections::VecDeque;

use draftsim::cards::{Card, CardSet};
use draftsim::error::Error;
use draftsim::games::seven_card_draft::SevenCardDraft;
use draftsim::games::seven_card_draft::engine::testing::StackedDeal;
use draftsim::games::seven_card_draft::engine::{self, Event, State};
use draftsim::games::seven_card_draft::measures::{FINISHED, FOLDS, PICKS, SHOWDOWN_WINS, SHOWDOWNS, WILD_WINS};
use draftsim::games::seven_card_draft::rules::{Limit, Rules};
use draftsim::games::seven_card_draft::view::{Action, Bot, BotRng, PickChoice, SeatView};
use draftsim::sim::{self, Lineup, Plan, RoundResult, SHARE_UNIT};
use proptest::prelude::*;
use rand::Rng;

fn card(text: &str) -> Card {
    text.parse().unwrap()
}

/// What a scripted bot does at a bet.
#[derive(Clone, Copy, Debug)]
enum Step {
    Passive,
    Fold,
    Raise(u32),
}

/// Takes the first card of `prefer` found in the pack (else the pack's first card) and
/// plays its betting steps in order, then checks or calls.
struct Scripted {
    name: String,
    prefer: Vec<Card>,
    steps: VecDeque<Step>,
}

impl Scripted {
    fn boxed(picks: &[&str], steps: &[Step]) -> Box<dyn Bot> {
        Box::new(Scripted {
            name: "scripted".into(),
            prefer: picks.iter().map(|c| card(c)).collect(),
            steps: steps.iter().copied().collect(),
        })
    }
}

impl Bot for Scripted {
    fn name(&self) -> &str {
        &self.name
    }
    fn pick(&mut self, view: &SeatView<'_>, _: &mut BotRng) -> PickChoice {
        let card =
            self.prefer.iter().copied().find(|c| view.pack.contains(*c)).unwrap_or_else(|| view.pack.nth(0).unwrap());
        PickChoice::own(card)
    }
    fn bet(&mut self, view: &SeatView<'_>, _: &mut BotRng) -> Action {
        let options = view.betting.unwrap();
        match self.steps.pop_front() {
            Some(Step::Fold) => Action::Fold,
            Some(Step::Raise(by)) => Action::Raise(by),
            Some(Step::Passive) | None => options.check_or_call(),
        }
    }
}

/// Packs such that, passing left with nobody folding, seat s takes `picks[s][p]` at pick p + 1.
fn packs_for(picks: &[[&str; 7]]) -> Vec<CardSet> {
    let n = picks.len();
    let mut packs = vec![CardSet::EMPTY; n];
    for (s, seq) in picks.iter().enumerate() {
        for (p, c) in seq.iter().enumerate() {
            packs[(s + n * 7 - p) % n].insert(card(c));
        }
    }
    packs
}

struct Played {
    result: RoundResult,
    events: Vec<Event>,
}

fn play(
    rules: &Rules,
    picks: &[[&str; 7]],
    steps: &[&[Step]],
    stacks: Option<&[u32]>,
    round_index: u64,
) -> Result<Played, Error> {
    let variant = rules.compile().unwrap();
    let mut table = State::new(&variant).verify(true);
    let mut bots: Vec<Box<dyn Bot>> = picks.iter().zip(steps).map(|(p, s)| Scripted::boxed(p, s)).collect();
    let seating: Vec<usize> = (0..picks.len()).collect();
    let packs = packs_for(picks);
    let default_stacks = vec![rules.starting_stack; picks.len()];
    let mut events = Vec::new();
    let mut result = RoundResult::default();
    engine::testing::play_stacked(
        &variant,
        &mut table,
        &mut bots,
        &seating,
        &StackedDeal { packs: &packs, stacks: stacks.unwrap_or(&default_stacks), bot_seed: 1, deal_index: round_index },
        &mut events,
        &mut result,
    )?;
    Ok(Played { result, events })
}

fn rules(players: usize) -> Rules {
    Rules { players, ..Rules::default() }
}

const JUNK: [[&str; 7]; 3] = [
    ["2c", "3c", "4d", "6h", "8s", "9c", "Jd"],
    ["2d", "3d", "4h", "6s", "8c", "9d", "Jh"],
    ["2h", "3h", "4s", "6c", "8d", "9h", "Js"],
];

fn pack_of_at(events: &[Event], seat: usize, pick: usize) -> usize {
    events
        .iter()
        .find_map(|e| match *e {
            Event::Pick { seat: s, pick: p, pack_of, .. } if s == seat && p == pick => Some(pack_of),
            _ => None,
        })
        .expect("the pick happened")
}

fn leaders(events: &[Event]) -> Vec<usize> {
    events
        .iter()
        .filter_map(|e| if let Event::BettingStart { leader, .. } = e { Some(*leader) } else { None })
        .collect()
}

#[test]
fn packs_pass_left_in_even_rounds_and_right_in_odd_ones() {
    let left = play(&rules(3), &JUNK, &[&[], &[], &[]], None, 0).unwrap();
    assert_eq!(pack_of_at(&left.events, 1, 2), 0, "seat 1 gets seat 0's pack when passing left");
    assert_eq!(pack_of_at(&left.events, 0, 2), 2);
    let right = play(&rules(3), &JUNK, &[&[], &[], &[]], None, 1).unwrap();
    assert_eq!(pack_of_at(&right.events, 1, 2), 2, "seat 1 gets seat 2's pack when passing right");
    assert_eq!(pack_of_at(&right.events, 0, 2), 1);
}

#[test]
fn passing_skips_a_folded_player_and_its_pack_leaves_play() {
    let played = play(&rules(3), &JUNK, &[&[], &[], &[Step::Fold]], None, 0).unwrap();
    // After pick 2, seat 2 folds holding seat 1's pack; seats 0 and 1 swap the other two.
    assert_eq!(pack_of_at(&played.events, 0, 3), 0);
    assert_eq!(pack_of_at(&played.events, 1, 3), 2);
    assert_eq!(played.result.seats[2].counters[FOLDS], 1);
    let picked_from_pack1 =
        played.events.iter().filter(|e| matches!(e, Event::Pick { pack_of: 1, pick, .. } if *pick > 2)).count();
    assert_eq!(picked_from_pack1, 0, "the folded seat's pack left play");
    assert_eq!(played.result.seats[0].sums[PICKS], 7);
    assert_eq!(played.result.seats[2].sums[PICKS], 2);
}

#[test]
fn ties_for_the_lead_go_to_the_first_seat_after_the_dealer() {
    // Face-up pick 2: seats 0 and 2 show a king, seat 1 a three.
    let picks = [
        ["2c", "Kc", "4d", "6h", "8s", "9c", "Jd"],
        ["2d", "3d", "4h", "6s", "8c", "9d", "Jh"],
        ["2h", "Kh", "4s", "6c", "8d", "9h", "Js"],
    ];
    let left = play(&rules(3), &picks, &[&[], &[], &[]], None, 0).unwrap();
    // Dealer 0, betting left: order 1, 2, 0; the tie goes to seat 2.
    assert_eq!(leaders(&left.events)[0], 2);
    // The best face-up hand leads outright.
    let mut solo = picks;
    solo[1][1] = "Ad";
    let led = play(&rules(3), &solo, &[&[], &[], &[]], None, 0).unwrap();
    assert_eq!(leaders(&led.events)[0], 1);
}

#[test]
fn all_in_players_build_side_pots() {
    let picks = [
        ["As", "Ah", "Ad", "Ks", "Kh", "2c", "3c"],
        ["Qs", "Qh", "Qd", "7s", "5h", "2d", "3d"],
        ["9s", "8h", "6d", "4c", "Th", "2h", "3h"],
    ];
    let r = Rules { players: 3, limit: Limit::NoLimit, ..Rules::default() };
    // Seat 0 leads with the ace face up and shoves 4; seat 1 raises 10 more; seat 2 calls.
    let played =
        play(&r, &picks, &[&[Step::Raise(4)], &[Step::Raise(10)], &[Step::Passive]], Some(&[5, 20, 20]), 0).unwrap();
    let seats = played.result.seats;
    assert_eq!(leaders(&played.events)[0], 0);
    assert_eq!(
        (seats[0].score, seats[1].score, seats[2].score),
        (10, 5, -15),
        "main pot 15 to seat 0, side pot 20 to seat 1"
    );
    let awards: Vec<(usize, u32, usize)> = played
        .events
        .iter()
        .filter_map(|e| if let Event::Award { seat, chips, pot } = e { Some((*seat, *chips, *pot)) } else { None })
        .collect();
    assert_eq!(awards, vec![(0, 15, 0), (1, 20, 1)]);
    assert_eq!(seats.iter().map(|s| s.share_units).sum::<u32>(), SHARE_UNIT);
}

#[test]
fn a_split_pot_gives_the_odd_chip_to_the_first_winner_in_betting_order() {
    let picks = [
        ["9c", "Tc", "Jd", "Qh", "Ks", "2c", "3d"],
        ["9d", "Td", "Jh", "Qs", "Kc", "2d", "3h"],
        ["4c", "5d", "7h", "8s", "Ah", "2h", "6c"],
    ];
    let played = play(&rules(3), &picks, &[&[], &[], &[]], None, 0).unwrap();
    let s = played.result.seats;
    // Pot 3 split between seats 0 and 1; betting order is 1, 2, 0, so seat 1 gets the odd chip.
    assert_eq!((s[0].score, s[1].score, s[2].score), (0, 1, -1));
    assert_eq!((s[0].share_units, s[1].share_units, s[2].share_units), (SHARE_UNIT / 2, SHARE_UNIT / 2, 0));
}

/// A folded seat's smaller stake makes no side pot: with nobody all-in there is one pot, and
/// its odd chip is split once.
#[test]
fn a_folded_stake_makes_no_side_pot() {
    let picks = [
        ["9c", "Tc", "Jd", "Qh", "Ks", "2c", "3d"],
        ["9d", "Td", "Jh", "Qs", "Kc", "2d", "3h"],
        ["4c", "5d", "7h", "8s", "Ah", "2h", "6c"],
    ];
    // In the last betting round seat 1 raises and seat 2 folds on its ante alone.
    let steps: [&[Step]; 3] =
        [&[], &[Step::Passive, Step::Passive, Step::Raise(2)], &[Step::Passive, Step::Passive, Step::Fold]];
    let played = play(&rules(3), &picks, &steps, None, 0).unwrap();
    let awards: Vec<(usize, u32, usize)> = played
        .events
        .iter()
        .filter_map(|e| if let Event::Award { seat, chips, pot } = e { Some((*seat, *chips, *pot)) } else { None })
        .collect();
    let s = played.result.seats;
    assert_eq!(s[2].score, -1, "{awards:?}");
    // One pot, split between the tied straights; seat 1 is first in betting order.
    assert_eq!(awards.len(), 2, "{awards:?}");
    assert!(awards.iter().all(|&(_, _, pot)| pot == 0), "{awards:?}");
    assert_eq!((awards[0].0, awards[1].0), (1, 0), "{awards:?}");
    assert_eq!(awards[0].1, awards[1].1 + 1, "{awards:?}");
}

#[test]
fn the_last_pick_is_wild_under_last_pick() {
    // Every seat's last pick is wild: seat 1's makes a royal flush, seat 0's five aces.
    let picks = [["As", "Ah", "Ad", "Ac", "5d", "3h", "2c"], ["Ks", "Qs", "Js", "Ts", "9s", "8h", "4c"]];
    let plain = play(&rules(2), &picks, &[&[], &[]], None, 0).unwrap();
    assert!(plain.result.seats[1].score > 0, "without wilds the straight flush wins");
    let wild = Rules { wild: draftsim::eval::WildRules::parse_names(["last-pick"]).unwrap(), ..rules(2) };
    let played = play(&wild, &picks, &[&[], &[]], None, 0).unwrap();
    assert!(played.result.seats[0].score > 0, "the last pick makes five aces");
    assert_eq!(played.result.seats[0].counters[WILD_WINS], 1);
    assert_eq!(played.result.seats[0].bins()[FINISHED + draftsim::eval::Category::FiveOfAKind as usize], 1);
    assert_eq!(played.result.seats[1].bins()[FINISHED + draftsim::eval::Category::StraightFlush as usize], 1);
}

#[test]
fn a_deuce_is_wild_only_beside_a_face_card_of_its_suit() {
    let rules_wild = Rules { wild: draftsim::eval::WildRules::parse_names(["deuces-with-face"]).unwrap(), ..rules(2) };
    let with_face = [["2h", "Jh", "As", "Ad", "Ac", "7s", "5d"], ["Ks", "Kh", "Kd", "Qs", "Qh", "9c", "8c"]];
    let played = play(&rules_wild, &with_face, &[&[], &[]], None, 0).unwrap();
    assert!(played.result.seats[0].score > 0, "2h with Jh is wild: four aces beat the full house");
    let without = [["2h", "Js", "As", "Ad", "Ac", "7s", "5d"], ["Ks", "Kh", "Kd", "Qs", "Qh", "9c", "8c"]];
    let played = play(&rules_wild, &without, &[&[], &[]], None, 0).unwrap();
    assert!(played.result.seats[1].score > 0, "2h beside the jack of spades is not wild");
}

#[test]
fn the_last_player_standing_wins_at_once() {
    let played = play(&rules(3), &JUNK, &[&[], &[Step::Fold], &[Step::Fold]], None, 0).unwrap();
    let s = played.result.seats;
    assert_eq!((s[0].score, s[1].score, s[2].score), (2, -1, -1));
    assert_eq!(s[0].share_units, SHARE_UNIT);
    assert_eq!(s[0].counters[SHOWDOWNS], 0, "no showdown");
    assert_eq!(s[0].sums[PICKS], 2, "no more picks after everyone else folds");
    assert!(played.events.iter().any(|e| matches!(e, Event::LastStanding { seat: 0 })));
}

#[test]
fn a_raise_is_capped_and_an_illegal_action_is_an_error_naming_the_bot() {
    // Four raises in a row: the fourth is over the cap of three.
    let steps: [&[Step]; 2] = [&[Step::Raise(1), Step::Raise(1)], &[Step::Raise(1), Step::Raise(1)]];
    let err = play(&rules(2), &JUNK[..2], &steps, None, 0).err().expect("over the cap");
    let text = err.to_string();
    assert!(text.contains("'scripted'") && text.contains("raise 1"), "{text}");
    // Raising the wrong amount in fixed limit is refused too.
    let err = play(&rules(2), &JUNK[..2], &[&[Step::Raise(5)], &[]], None, 0).err().expect("wrong size");
    assert!(matches!(err, Error::IllegalAction { .. }));
}

/// A bot that picks at random and chooses uniformly among the legal actions.
struct RandomLegal;

impl Bot for RandomLegal {
    fn name(&self) -> &str {
        "random-legal"
    }
    fn pick(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> PickChoice {
        PickChoice::own(view.pack.nth(rng.random_range(0..view.pack.len())).unwrap())
    }
    fn bet(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> Action {
        let o = view.betting.unwrap();
        match rng.random_range(0..4) {
            0 => Action::Fold,
            1 if o.can_raise => {
                let stack = view.stacks[view.seat];
                let lo = o.min_raise.min(stack - o.to_call);
                Action::Raise(rng.random_range(lo..=o.max_raise.max(lo)))
            }
            _ => o.check_or_call(),
        }
    }
}

fn random_rules() -> impl Strategy<Value = Rules> {
    (
        2usize..=7,
        prop::sample::select(vec!["standard-52", "no-deuces-48", "short-36", "piquet-32"]),
        5usize..=7,
        prop::sample::select(vec![Limit::FixedLimit, Limit::PotLimit, Limit::NoLimit]),
        0u32..=4,
        prop::sample::select(vec![
            "none",
            "deuces",
            "deuces-with-face",
            "last-pick",
            "deuces-with-face,last-pick",
            "rank-9",
        ]),
        3u32..=40,
        1u32..=3,
        any::<bool>(),
    )
        .prop_map(|(players, deck, pack_size, limit, raise_cap, wild, stack, bet, game)| {
            let deck: draftsim::cards::DeckPreset = deck.parse().unwrap();
            let max_players = (deck.deck().len() / pack_size).min(7);
            let bet_after = if pack_size >= 4 { vec![2, 4, pack_size] } else { vec![pack_size] };
            Rules {
                players: players.min(max_players),
                deck,
                pack_size,
                face_up_picks: vec![2, 4],
                bet_after_picks: bet_after.clone(),
                bet_sizes: vec![bet; bet_after.len()],
                limit,
                raise_cap,
                wild: draftsim::eval::WildRules::parse_names([wild]).unwrap(),
                starting_stack: stack,
                mode: if game { draftsim::games::seven_card_draft::rules::Mode::Game } else { Default::default() },
                max_rounds_per_game: 30,
                ..Rules::default()
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 250, ..ProptestConfig::default() })]

    /// 250 random rule sets x 400 rounds of random legal play: invariants hold (checked
    /// after every step), chips sum to zero and pot shares to one, and nothing panics.
    #[test]
    fn random_rules_and_random_bots_keep_the_invariants(rules in random_rules(), seed in any::<u64>()) {
        let variant = rules.compile().unwrap();
        let mut table = State::new(&variant).verify(true);
        let n = variant.rules.players;
        let mut bots: Vec<Box<dyn Bot>> = (0..n).map(|_| Box::new(RandomLegal) as Box<dyn Bot>).collect();
        let seating: Vec<usize> = (0..n).collect();
        for k in 0..400u64 {
            let mut out = RoundResult::default();
            draftsim::search::play_with(&variant, &mut table, seating.len(), UnitSeeds { deal: seed ^ k, bots: k, deal_index: k }, &mut engine::NoEvents, &mut out, |t, s, rng| t.ask_bot(&variant, &mut bots[seating[s]], rng)).unwrap();
            prop_assert_eq!(out.seats[..n].iter().map(|s| s.score).sum::<i64>(), 0);
            prop_assert_eq!(out.seats[..n].iter().map(|s| s.share_units).sum::<u32>(), SHARE_UNIT);
            for s in &out.seats[..n] {
                let shown: u32 = s.bins()[FINISHED..FINISHED + 10].iter().sum();
                prop_assert_eq!(shown, s.counters[SHOWDOWNS], "one finished hand per showdown");
                prop_assert!(s.counters[SHOWDOWN_WINS] <= s.counters[SHOWDOWNS]);
            }
        }
    }
}

/// With random picks and nobody folding, finished hands are uniform seven-card hands, so
/// their categories follow the exact figures (chi-square, 8 degrees of freedom, p = 0.001).
#[test]
fn randomly_drafted_hands_follow_the_seven_card_category_figures() {
    let seats: Vec<String> = vec!["random".into(); 4];
    let game = SevenCardDraft::new(&Rules::default(), &seats).unwrap();
    let lineup = Lineup::new(&seats);
    let plan =
        Plan { seed: 99, rounds: 200_000, rotate: false, shard: None, until_ci: None, cards: false, first_deal: 0 };
    let tally = sim::run(&game, &lineup, &plan, sim::Mode::Tally, None, |_, _| Ok(())).unwrap();
    let counts = &tally.strategy(0).bins[FINISHED..FINISHED + 10];
    let hands: u64 = counts.iter().sum();
    assert_eq!(hands, 4 * 200_000, "nobody folds");
    let exact = [23_294_460u64, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184, 224_848, 41_584];
    let total: u64 = exact.iter().sum();
    let chi2: f64 = exact
        .iter()
        .zip(counts)
        .map(|(&e, &o)| {
            let expected = hands as f64 * e as f64 / total as f64;
            (o as f64 - expected).powi(2) / expected
        })
        .sum();
    assert_eq!(counts[9], 0, "no five of a kind without wilds");
    assert!(chi2 < 26.12, "chi-square {chi2:.2} over 26.12: {counts:?}");
    assert_eq!(game.measures.histograms[0].bins.len(), 10);
}

/// Each pick is recorded as data: the card taken, in pick order, and whose pack it came from.
#[test]
fn every_pick_is_recorded_with_its_pack() {
    let variant = rules(3).compile().unwrap();
    let mut table = State::new(&variant).verify(true);
    let mut bots: Vec<Box<dyn Bot>> = JUNK.iter().map(|p| Scripted::boxed(p, &[])).collect();
    let mut out = RoundResult::default();
    let packs = packs_for(&JUNK);
    engine::testing::play_stacked(
        &variant,
        &mut table,
        &mut bots,
        &[0, 1, 2],
        &StackedDeal { packs: &packs, stacks: &[100; 3], bot_seed: 1, deal_index: 0 },
        &mut engine::NoEvents,
        &mut out,
    )
    .unwrap();
    for (seat, seq) in JUNK.iter().enumerate() {
        let picks = table.picks(seat);
        assert_eq!(picks.len(), 7);
        for (p, record) in picks.iter().enumerate() {
            assert_eq!(record.card, Some(card(seq[p])), "seat {seat} pick {}", p + 1);
            // Passing left, pick p + 1 comes from the pack dealt p seats to the right.
            assert_eq!(record.pack_of as usize, (seat + 3 * 7 - p) % 3);
            assert!(!record.hate);
        }
    }
}

/// Under `rank-K-with-face`, a king needs another face card of its suit: it does not count
/// as its own.
#[test]
fn a_rank_with_face_wild_does_not_count_itself_as_the_face_card() {
    let wild = draftsim::eval::WildRules::parse_names(["rank-K-with-face"]).unwrap();
    let hand = |cards: &[&str]| cards.iter().map(|c| card(c)).collect::<CardSet>();
    assert!(wild.wild_cards(hand(&["Ks", "2h", "5d", "8c", "9c"]), None).is_empty(), "a lone king is not wild");
    let with_queen = wild.wild_cards(hand(&["Ks", "Qs", "5d", "8c", "9c"]), None);
    assert_eq!(with_queen, hand(&["Ks"]), "a king beside the queen of its suit is wild");
    assert!(wild.wild_cards(hand(&["Ks", "Qh", "5d"]), None).is_empty(), "the face card must share the suit");
    let deuces = draftsim::eval::WildRules::parse_names(["deuces-with-face"]).unwrap();
    assert_eq!(deuces.wild_cards(hand(&["2s", "Js", "5d"]), None), hand(&["2s"]));
}

/// A deck given by `ranks` ranks flush and full house as the matching preset does.
#[test]
fn a_short_deck_given_by_ranks_ranks_like_its_preset() {
    let by_ranks = |ranks: &[&str]| {
        let text = format!("ranks = [{}]", ranks.iter().map(|r| format!("\"{r}\"")).collect::<Vec<_>>().join(", "));
        Rules::from_toml(&text).unwrap().compile().unwrap().deck.flush_beats_full_house
    };
    assert!(by_ranks(&["6", "7", "8", "9", "T", "J", "Q", "K", "A"]), "as short-36");
    assert!(by_ranks(&["7", "8", "9", "T", "J", "Q", "K", "A"]), "as piquet-32");
    assert!(!by_ranks(&["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]), "as no-deuces-48");
    let forced = Rules::from_toml(
        "ranks = [\"6\",\"7\",\"8\",\"9\",\"T\",\"J\",\"Q\",\"K\",\"A\"]\nflush_beats_full_house = false",
    )
    .unwrap()
    .compile()
    .unwrap();
    assert!(!forced.deck.flush_beats_full_house, "the rules key decides when set");
    // The evaluator follows: a flush beats a full house in the short deck.
    let short = by_ranks_variant();
    let flush = short.eval.eval(["Ah", "Jh", "9h", "7h", "6h"].iter().map(|c| card(c)).collect());
    let full = short.eval.eval(["As", "Ad", "Ac", "Ks", "Kd"].iter().map(|c| card(c)).collect());
    assert!(flush > full);
}

fn by_ranks_variant() -> draftsim::games::seven_card_draft::Variant {
    Rules::from_toml("ranks = [\"6\",\"7\",\"8\",\"9\",\"T\",\"J\",\"Q\",\"K\",\"A\"]").unwrap().compile().unwrap()
}

/// With `random` drafters nobody folds and every pack is drafted to its last card, so a
/// card dealt into a pack of P is taken at a pick uniform over 1..=P and seen at every pick
/// up to that one: its take rate per sighting is 1 / (P + 1) * 2 (the mean of 1/cards-left
/// over the schedule, weighted by sightings) and its ATA is (P + 1) / 2.
#[test]
fn random_drafters_take_every_card_at_the_uniform_pick_rate() {
    for (players, pack_size) in [(4, 7), (3, 5)] {
        let rules = Rules {
            players,
            pack_size,
            bet_after_picks: vec![2, 4, pack_size],
            face_up_picks: vec![2, 4],
            ..Rules::default()
        };
        let seats = vec!["random".to_string(); players];
        let game = SevenCardDraft::new(&rules, &seats).unwrap();
        let plan =
            Plan { seed: 3, rounds: 40_000, rotate: true, shard: None, until_ci: None, cards: true, first_deal: 0 };
        let t = sim::run(&game, &Lineup::new(&seats), &plan, sim::Mode::Tally, None, |_, _| Ok(())).unwrap();
        let rate = 2.0 / (pack_size as f64 + 1.0);
        let ata = (pack_size as f64 + 1.0) / 2.0;
        let (mut taken, mut seen, mut cards) = (0, 0, 0);
        let catalog = game.measures.cards.as_ref().unwrap();
        for c in (0..catalog.names.len()).map(|c| t.card(0, c)).filter(|c| !c.is_empty()) {
            cards += 1;
            taken += c.taken;
            seen += c.seen_picks;
            // 4.5 standard errors: 52 cards tested at once must all pass.
            let r = c.take_rate();
            assert!((r.mean - rate).abs() < 4.5 * r.half_width() / 1.96, "take rate {r:?}, want {rate}");
            let a = c.ata();
            assert!((a.mean - ata).abs() < 4.5 * a.half_width() / 1.96, "ATA {a:?}, want {ata}");
            assert_eq!(c.in_hand, c.taken, "every card taken stays in the hand");
        }
        assert_eq!(cards, 52);
        let pooled = taken as f64 / seen as f64;
        assert!((pooled - rate).abs() < 0.002, "pooled take rate {pooled}, want {rate}");
        assert_eq!(taken, t.rounds * (players * pack_size) as u64, "every dealt card is taken once");
    }
}

/// A card taken stays in the hand even when the seat folds later (the engine clears a
/// folded hand), so with folding bots every card's rounds in hand equal its takes.
#[test]
fn cards_of_folded_hands_count_as_held() {
    let seats: Vec<String> = ["greedy", "hate", "tight", "late-folder"].iter().map(|s| s.to_string()).collect();
    let game = SevenCardDraft::new(&rules(4), &seats).unwrap();
    let plan = Plan { seed: 4, rounds: 8_000, rotate: true, shard: None, until_ci: None, cards: true, first_deal: 0 };
    let t = sim::run(&game, &Lineup::new(&seats), &plan, sim::Mode::Tally, None, |_, _| Ok(())).unwrap();
    let folds: u64 = (0..4).map(|x| t.strategy(x).counters[FOLDS..FOLDS + 3].iter().sum::<u64>()).sum();
    assert!(folds > 1_000, "the lineup folds: {folds}");
    for x in 0..4 {
        for c in 0..64 {
            let k = t.card(x, c);
            assert_eq!(k.in_hand, k.taken, "strategy {x}, card {c}: {k:?}");
        }
    }
}

/// A worker keeps the last deal's packs for the next rotation of that deal: a reused
/// worker must play every round exactly as a fresh one does, whether the next round
/// repeats the deal, moves to another, or comes back to an older one, in round mode and
/// in game mode (where each round of a game has its own deal).
#[test]
fn a_reused_worker_plays_each_round_as_a_fresh_one() {
    use draftsim::games::seven_card_draft::rules::Mode;
    use draftsim::sim::Game;
    let seats: Vec<String> = ["greedy", "hate", "tight", "random"].iter().map(|s| s.to_string()).collect();
    for mode in [Mode::Round, Mode::Game] {
        let rules = Rules { mode, starting_stack: 12, ..rules(4) };
        let game = SevenCardDraft::new(&rules, &seats).unwrap();
        let mut worker = game.worker();
        let schedule = [(7, 0), (7, 1), (7, 2), (8, 0), (7, 3), (7, 3), (8, 1), (9, 0)];
        for (i, &(deal_seed, rotation)) in schedule.iter().enumerate() {
            let seating: Vec<usize> = (0..4).map(|s| (s + rotation) % 4).collect();
            let (bot_seed, round) = (100 + i as u64, deal_seed * 4 + rotation as u64);
            let mut reused = RoundResult::default();
            game.play(
                &mut worker,
                UnitSeeds { deal: deal_seed, bots: bot_seed, deal_index: round },
                &seating,
                &mut reused,
            )
            .unwrap();
            let (fresh, _) = game
                .play_with_events(
                    UnitSeeds { deal: deal_seed, bots: bot_seed, deal_index: round },
                    &seating,
                    &mut Vec::new(),
                )
                .unwrap();
            assert_eq!(reused, fresh, "{mode:?}, deal {deal_seed}, rotation {rotation}");
        }
    }
}

/// `bet.bluff` raises where the threshold would check or call: at 1, tight's opponent folds
/// most hands in the first betting round; at 0 it plays exactly as `tight`.
#[test]
fn threshold_betting_bluffs_at_its_rate_and_not_at_zero() {
    use crate::common::{draftsim, row_value, stderr, stdout};
    let run = |seats: &str| {
        let o = draftsim(&["run", "--seats", seats, "--rounds", "2000", "--quiet"]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let bluffed = run("tight{bet.bluff=1},tight");
    let plain = run("tight,tight");
    // fold_rate_r1 of the seat facing the bluffer, and of tight against itself.
    let against_bluffs = row_value(&bluffed, "tight ", "fold_rate_r1");
    let alone = row_value(&plain, "tight ", "fold_rate_r1");
    assert!(against_bluffs > 0.5 && against_bluffs > 4.0 * alone, "{bluffed}\n{plain}");
    let (zero, greedy) = (run("tight{bet.bluff=0},greedy"), run("tight,greedy"));
    let numbers = |table: &str| -> Vec<String> {
        table.lines().skip(1).take(2).map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" ")).collect()
    };
    assert_eq!(numbers(&zero), numbers(&greedy));
}

/// `bet.size` sizes a value raise as a share of the pot: under pot limit a pot-sized raiser
/// plays otherwise than one raising the least allowed (and the rules' note that no seat bet
/// above the fixed amount goes), while under fixed limit, with one size, the tables are equal.
#[test]
fn threshold_betting_sizes_its_raises_under_pot_limit_only() {
    use crate::common::{draftsim, scratch, stderr, stdout};
    let dir = scratch("seven_card_draft", "bet-size");
    let pot = dir.join("pot.toml");
    std::fs::write(&pot, "limit = \"pot-limit\"\n").unwrap();
    let run = |seats: &str, rules: Option<&std::path::Path>| {
        let mut args = vec!["run", "--seats", seats, "--rounds", "2000"];
        if let Some(r) = rules {
            args.extend(["--rules", r.to_str().unwrap()]);
        }
        let o = draftsim(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        format!("{}{}", stdout(&o), stderr(&o))
    };
    let numbers = |table: &str| -> Vec<String> {
        let rows = table.lines().skip_while(|l| !l.starts_with("strategy")).skip(1).take(2);
        rows.map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" ")).collect()
    };
    let least = "tight{bet.size=[0]},greedy{bet.size=[0]}";
    let (sized, plain) = (run("tight{bet.size=[1]},greedy{bet.size=[0]}", Some(&pot)), run(least, Some(&pot)));
    assert_ne!(numbers(&sized), numbers(&plain), "{sized}\n{plain}");
    assert!(plain.contains("no seated strategy bet more than the fixed amount"), "{plain}");
    assert!(!sized.contains("no seated strategy bet more than the fixed amount"), "{sized}");
    let (sized, plain) = (run("tight{bet.size=[1]},greedy", None), run("tight{bet.size=[0]},greedy", None));
    assert_eq!(numbers(&sized), numbers(&plain));
    let o = draftsim(&["run", "--seats", "tight{bet.size=[-1]},greedy", "--rounds", "10"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bet.size"), "{}", stderr(&o));
}

/// A replay calls the first chips put in a betting round a bet, and only a later one a
/// raise (or a call): over many rounds of the default table, under fixed and pot limits.
#[test]
fn a_replay_tells_a_bet_from_a_raise() {
    use draftsim::sim::{Lineup, Seatings};
    for limit in ["", "limit = \"pot-limit\"\n"] {
        let info = draftsim::games::find("seven-card-draft").unwrap();
        let (game, seats) = (info.build)(Some(limit), None, None).unwrap();
        let seatings = Seatings::new(&Lineup::new(&seats), game.players(), true).unwrap();
        let (mut bets, mut raises) = (0, 0);
        for k in 0..60 {
            let text = game.replay(7, &seatings, k).unwrap();
            let mut opened = false;
            for line in text.lines() {
                if line.starts_with("-- Betting round") {
                    opened = false;
                } else if line.contains(") bets ") {
                    assert!(!opened, "a second bet in a round: {line}\n{text}");
                    (opened, bets) = (true, bets + 1);
                } else if line.contains(") raises by ") || line.contains(") calls ") {
                    assert!(opened, "a raise or call with no bet before it: {line}\n{text}");
                    raises += usize::from(line.contains("raises"));
                }
            }
        }
        assert!(bets > 20 && raises > 5, "{limit}: {bets} bets and {raises} raises told");
    }
}

/// A bot's note comes under the pick it explains: between a pick's header and its takes,
/// never before the first header.
#[test]
fn a_replay_tells_each_pick_note_under_its_pick() {
    use draftsim::sim::{Lineup, Seatings};
    let info = draftsim::games::find("seven-card-draft").unwrap();
    let seats = ["hate", "greedy"].map(String::from);
    let (game, seats) = (info.build)(None, Some(4), Some(&seats)).unwrap();
    let seatings = Seatings::new(&Lineup::new(&seats), game.players(), true).unwrap();
    let text = game.replay(1, &seatings, 0).unwrap();
    let first_pick = text.find("-- Pick 1\n").unwrap_or_else(|| panic!("{text}"));
    let first_note = text.find("judged: the hand with its pick").unwrap_or_else(|| panic!("{text}"));
    assert!(first_pick < first_note, "a pick's note told before its header:\n{text}");
    // Every pick's notes come before its first take and after its header.
    for part in text.split("-- Pick ").skip(1) {
        let notes = part.lines().take_while(|l| !l.contains(" takes ")).filter(|l| l.contains("judged")).count();
        assert!(notes > 0, "no note under the pick:\n{part}");
    }
}
