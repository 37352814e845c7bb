//! Seven Card Draft bots: each module's decision on hand-built views, and the presets'
//! results over enough rounds.

use draftsim::cards::{Card, CardSet};
use draftsim::games::seven_card_draft::view::{BetOptions, Bot, BotRng, SeatView};
use draftsim::games::seven_card_draft::{Action, Preset, Rules, SevenCardDraft};
use draftsim::sim::{self, Lineup, Plan};
use rand::SeedableRng;

fn set(text: &str) -> CardSet {
    CardSet::parse_list(text).unwrap().into_iter().collect()
}

fn card(text: &str) -> Card {
    text.parse().unwrap()
}

/// A view for seat 0 of 2, passing left (seat 1 receives the pack next).
fn view<'a>(
    variant: &'a draftsim::games::seven_card_draft::Variant,
    face_up: &'a [CardSet],
    hand: &str,
    pack: &str,
    pick: usize,
    betting: Option<BetOptions>,
) -> SeatView<'a> {
    SeatView {
        variant,
        seat: 0,
        players: 2,
        direction: 1,
        pick,
        hand: set(hand),
        own_face_up: face_up[0],
        last_pick: None,
        face_up,
        folded: &[false, false],
        pack: set(pack),
        seen: set(pack),
        pot: 2,
        stacks: &[99, 99],
        committed: &[1, 1],
        betting,
        history: &[],
    }
}

fn decide_pick(preset: &str, v: &SeatView<'_>) -> (Card, bool) {
    let mut bot = Preset::load(preset).unwrap().bot(preset);
    let choice = bot.pick(v, &mut BotRng::seed_from_u64(1));
    (choice.card, choice.hate)
}

#[test]
fn greedy_takes_the_card_that_completes_its_flush() {
    let variant = Rules { players: 2, ..Rules::default() }.compile().unwrap();
    let up = [CardSet::EMPTY, CardSet::EMPTY];
    let v = view(&variant, &up, "Ah Kh 9h 4h", "Qh Ac Kd", 5, None);
    assert_eq!(decide_pick("greedy", &v), (card("Qh"), false));
}

#[test]
fn hate_takes_the_card_the_next_players_face_up_cards_need() {
    let variant = Rules { players: 2, ..Rules::default() }.compile().unwrap();
    let up = [CardSet::EMPTY, set("9s Ts Js Qs")];
    let v = view(&variant, &up, "Ac Ad 4h 6c", "Ah 8s 2d", 5, None);
    assert_eq!(decide_pick("greedy", &v).0, card("Ah"), "for itself the ace is best");
    let heavy = Preset::from_toml(
        "description = \"x\"\n[draft]\nmodule = \"hate\"\nweight = 10.0\n[bet]\nmodule = \"calling-station\"",
    )
    .unwrap();
    let choice = heavy.bot("heavy-hate").pick(&v, &mut BotRng::seed_from_u64(1));
    assert_eq!((choice.card, choice.hate), (card("8s"), true), "denies the straight flush");
}

#[test]
fn wild_aware_values_a_deuce_beside_a_face_card() {
    let rules = Rules {
        players: 2,
        wild: draftsim::eval::WildRules::parse_names(["deuces-with-face"]).unwrap(),
        ..Rules::default()
    };
    let variant = rules.compile().unwrap();
    let up = [CardSet::EMPTY, CardSet::EMPTY];
    // Holding Kh: the 2h is wild and makes trips kings; plain greedy sees a lone deuce.
    let v = view(&variant, &up, "Kh Kc 7d 5s", "2h Ac 3d", 5, None);
    assert_eq!(decide_pick("wild-hunter", &v).0, card("2h"));
    assert_ne!(decide_pick("greedy", &v).0, card("2h"));
}

#[test]
fn betting_modules_follow_their_rules() {
    let variant = Rules { players: 2, ..Rules::default() }.compile().unwrap();
    let up = [CardSet::EMPTY, CardSet::EMPTY];
    let facing = BetOptions { round: 2, to_call: 2, can_raise: true, min_raise: 2, max_raise: 2, raises: 1 };
    let weak = view(&variant, &up, "2c 7d 9h 4s 3c Jd 8h", "", 7, Some(facing));
    let strong = view(&variant, &up, "Ac Ad Ah As Kd 8h 2c", "", 7, Some(facing));
    let act = |preset: &str, v: &SeatView<'_>| {
        Preset::load(preset).unwrap().bot(preset).bet(v, &mut BotRng::seed_from_u64(3))
    };
    assert_eq!(act("random", &weak), Action::Call, "the calling station calls");
    assert_eq!(act("random", &strong), Action::Call, "and never raises");
    assert_eq!(act("tight", &weak), Action::Fold);
    assert_eq!(act("tight", &strong), Action::Raise(2));
    assert_eq!(act("loose-aggressive", &weak), Action::Call);
    let bluffs = (0..400u64)
        .filter(|&s| {
            Preset::load("bluffer").unwrap().bot("b").bet(&weak, &mut BotRng::seed_from_u64(s)) == Action::Raise(2)
        })
        .count();
    assert!((60..=140).contains(&bluffs), "bluffs a quarter of the time: {bluffs}/400");
}

fn paired_edge(a: &str, b: &str, rounds: u64) -> draftsim::stats::Estimate {
    let seats = vec![a.to_string(), b.to_string(), a.to_string(), b.to_string()];
    let game = SevenCardDraft::new(&Rules::default(), &seats).unwrap();
    let lineup = Lineup::new(&seats);
    let plan = Plan { seed: 2026, rounds, rotate: true, shard: None, until_ci: None, cards: false };
    sim::run(&game, &lineup, &plan, sim::Mode::Tally, None, |_, _| Ok(())).unwrap().pair_difference(0, 1)
}

#[test]
fn greedy_and_tight_beat_random_with_intervals_excluding_zero() {
    let greedy = paired_edge("greedy", "random", 20_000);
    assert!(greedy.lo > 0.0, "greedy - random: {greedy:?}");
    let tight = paired_edge("tight", "random", 20_000);
    assert!(tight.lo > 0.0, "tight - random: {tight:?}");
}
