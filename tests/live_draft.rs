//! Live-Draft: the exact opening-land law, scripted turns for every drawing rule, mill
//! counters, combat arithmetic, conservation, and a million games checked.

use std::collections::VecDeque;

use draftsim::games::live_draft::engine::{self, Event, Table};
use draftsim::games::live_draft::measures::{LAND_BINS, OPENING_LANDS};
use draftsim::games::live_draft::rules::{Method, Rules};
use draftsim::games::live_draft::view::{Bot, BotRng, Card, MAX_PERMANENTS, NO_CARD, Pick, View};
use draftsim::games::live_draft::{LiveDraft, Preset};
use draftsim::sim::{Game, Lineup, Plan, RoundResult};

/// A bot that plays a script: picks, rummy choices and discards as queued; no land, no
/// creature, no attack, no block unless told.
#[derive(Default)]
struct Script {
    picks: VecDeque<usize>,
    take_top: VecDeque<bool>,
    discards: VecDeque<usize>,
    attack: u64,
    blocks: Vec<(usize, u8)>,
}

impl Bot for Script {
    fn name(&self) -> &str {
        "script"
    }
    fn pick(&mut self, _: &View<'_>, _: &mut BotRng) -> Pick {
        Pick { index: self.picks.pop_front().unwrap_or(0), hate: false }
    }
    fn take_discard(&mut self, _: &View<'_>, _: &mut BotRng) -> bool {
        self.take_top.pop_front().unwrap_or(false)
    }
    fn discard(&mut self, _: &View<'_>, _: &mut BotRng) -> usize {
        self.discards.pop_front().unwrap_or(0)
    }
    fn mulligan(&mut self, _: &View<'_>, _: &mut BotRng) -> Option<(usize, usize)> {
        None
    }
    fn land(&mut self, _: &View<'_>, _: &mut BotRng) -> Option<usize> {
        None
    }
    fn cast(&mut self, _: &View<'_>, _: &mut BotRng) -> Option<usize> {
        None
    }
    fn target(&mut self, v: &View<'_>, _: &mut BotRng) -> usize {
        v.next_player()
    }
    fn attack(&mut self, _: &View<'_>, _: usize, _: &mut BotRng) -> u64 {
        self.attack
    }
    fn block(&mut self, _: &View<'_>, _: usize, _: u64, _: &mut BotRng, blocks: &mut [u8; MAX_PERMANENTS]) {
        for &(a, b) in &self.blocks {
            blocks[a] = b;
        }
    }
}

const LAND: Card = Card { colour: 0, cost: 0, power: 0, toughness: 0 };

fn creature(cost: u8, power: u8, toughness: u8) -> Card {
    Card { colour: 0, cost, power, toughness }
}

/// A position of 30 cards: ids 0-14 lands, 15-29 2/2 creatures of cost 2.
fn cards() -> Vec<Card> {
    (0..30).map(|i| if i < 15 { LAND } else { creature(2, 2, 2) }).collect()
}

/// Plays seat 0's turn (its second, so it draws) on the position and returns the events.
fn turn(rules: &Rules, t: &mut Table, bots: &mut [Script; 2]) -> (Option<(u8, &'static str)>, Vec<Event>) {
    let mut events = Vec::new();
    let end = engine::take_turn(
        rules,
        t,
        bots,
        &[0, 1],
        0,
        3,
        &mut draftsim::sim::SeatRngs::new(0, 2),
        &mut events,
        &mut RoundResult::default(),
    )
    .unwrap();
    // (Scripted positions hold only some of the cards, so conservation is checked by the
    // property test below, not here.)
    (end, events)
}

#[test]
fn a_tableau_of_one_kind_is_wiped_and_dealt_again() {
    let rules = Rules { method: Method::Tableau, ..Rules::default() };
    let mut t = Table::verified();
    // Row: six lands and creature 15; the library's top (last) is land 6, then lands 8
    // and 7 and creatures 20 down to 16.
    let library: Vec<u8> = vec![16, 17, 18, 19, 20, 7, 8, 6];
    t.set_position(&rules, &cards(), &library, &[0, 1, 2, 3, 4, 5, 15], &[&[], &[]]);
    let mut bots = [Script::default(), Script::default()];
    bots[0].picks.push_back(6);
    let (end, events) = turn(&rules, &mut t, &mut bots);
    assert!(end.is_none());
    // Taking 15 and replacing it with land 6 made seven lands: removed, seven new dealt.
    assert!(events.contains(&Event::Wipe));
    assert_eq!(t.wipes(), 1);
    assert_eq!(t.removed(), &[0, 1, 2, 3, 4, 5, 6]);
    assert_eq!(t.row(), &[8, 7, 20, 19, 18, 17, 16]);
    assert_eq!(t.hand(0), &[15]);
    assert_eq!(t.board(0).mill, 8, "the replacement and the seven dealt count for the drawer");
    assert!(t.library().is_empty());
}

#[test]
fn a_pipeline_take_removes_the_leftmost_slides_and_adds_two() {
    let rules = Rules { method: Method::Pipeline, ..Rules::default() };
    let mut t = Table::verified();
    t.set_position(&rules, &cards(), &[29, 28, 27], &[15, 16, 17, 18, 19, 20, 21], &[&[], &[]]);
    let mut bots = [Script::default(), Script::default()];
    bots[0].picks.push_back(2);
    let (_, events) = turn(&rules, &mut t, &mut bots);
    assert_eq!(t.hand(0), &[17]);
    assert!(events.contains(&Event::Slide { card: 15 }));
    assert_eq!(t.removed(), &[15]);
    // 16, 18, 19, 20, 21 slide left; the library's two top cards (27, then 28) join.
    assert_eq!(t.row(), &[16, 18, 19, 20, 21, 27, 28]);
    assert_eq!(t.library(), &[29]);
    assert_eq!(t.board(0).mill, 2);
}

#[test]
fn rummy_draws_two_and_discards_one_or_takes_the_discard_top() {
    let rules = Rules { method: Method::Rummy, ..Rules::default() };
    let mut t = Table::verified();
    t.set_position(&rules, &cards(), &[20, 21, 22], &[], &[&[15], &[]]);
    t.set_discard(&[0, 1]);
    let mut bots = [Script::default(), Script::default()];
    bots[0].take_top.push_back(false);
    bots[0].discards.push_back(0);
    let (_, events) = turn(&rules, &mut t, &mut bots);
    // Drew 22 and 21, discarded hand card 0 (15) onto the pile.
    assert_eq!(t.hand(0), &[22, 21]);
    assert_eq!(t.discard_pile(), &[0, 1, 15]);
    assert_eq!(t.board(0).mill, 2);
    assert!(events.contains(&Event::Discard { seat: 0, card: 15, to: "discard pile" }));
    bots[0].take_top.push_back(true);
    turn(&rules, &mut t, &mut bots);
    assert_eq!(t.hand(0), &[22, 21, 15]);
    assert_eq!(t.discard_pile(), &[0, 1]);
    assert_eq!(t.board(0).mill, 2, "the discard pile's top is not the library");
}

#[test]
fn an_exhausted_draw_ends_the_game_for_the_fewest_mill_counters() {
    let rules = Rules { method: Method::Tableau, ..Rules::default() };
    let mut t = Table::verified();
    t.set_position(&rules, &cards(), &[], &[NO_CARD; 7], &[&[], &[]]);
    t.set_counters(0, 9, 20);
    t.set_counters(1, 7, 20);
    let mut bots = [Script::default(), Script::default()];
    let (end, _) = turn(&rules, &mut t, &mut bots);
    assert_eq!(end, Some((0b10, "mill counters")));
    // Tied counters share the win; without mill counters the draw is skipped.
    t.set_counters(0, 7, 20);
    assert_eq!(turn(&rules, &mut t, &mut bots).0, Some((0b11, "mill counters")));
    let rules = Rules { mill_counters: false, ..rules };
    assert_eq!(turn(&rules, &mut t, &mut bots).0, None);
}

#[test]
fn combat_deals_damage_kills_by_toughness_and_trades() {
    let rules = Rules { method: Method::Blind, ..Rules::default() };
    let faces = vec![
        LAND,
        creature(3, 3, 3),
        creature(2, 2, 2),
        creature(4, 4, 4),
        creature(3, 2, 4),
        creature(3, 3, 3),
        creature(1, 1, 1),
        LAND,
    ];
    let mut t = Table::verified();
    t.set_position(&rules, &faces, &[7, 0], &[], &[&[], &[]]);
    // Seat 0: 3/3 (slot 0), 2/2 (slot 1), 4/4 (slot 2). Seat 1: 2/4 (slot 0), 3/3 (slot 1), 1/1 (slot 2).
    t.set_board(0, &[], &[1, 2, 3]);
    t.set_board(1, &[], &[4, 5, 6]);
    let mut bots = [Script { attack: 0b111, ..Script::default() }, Script::default()];
    // 3/3 meets 2/4: neither dies. 4/4 meets 3/3: the 3/3 dies. 2/2 is unblocked: 2 damage.
    bots[1].blocks = vec![(0, 0), (2, 1)];
    let (_, events) = turn(&rules, &mut t, &mut bots);
    assert!(events.contains(&Event::Damage { seat: 1, amount: 2, life: 18 }));
    assert!(events.contains(&Event::Dies { seat: 1, card: 5 }));
    assert_eq!(t.board(1).creatures(), &[4, 6]);
    assert_eq!(t.board(0).creatures(), &[1, 2, 3]);
    assert_eq!(t.board(1).graveyard(), &[5]);
    // Lethal damage is damage at least the toughness: the 2/4 blocks the 2/2 and kills it.
    let mut bots =
        [Script { attack: 0b010, ..Script::default() }, Script { blocks: vec![(1, 0)], ..Script::default() }];
    let (_, events) = turn(&rules, &mut t, &mut bots);
    assert!(events.contains(&Event::Dies { seat: 0, card: 2 }));
    assert_eq!(t.board(0).creatures(), &[1, 3]);
    assert_eq!(t.board(1).life, 18);
}

/// Under blind draws with the quick opening and no exchanges, each opening seven is a
/// uniformly random 7 of the shuffled library: its lands follow the hypergeometric law.
#[test]
fn opening_lands_under_blind_follow_the_exact_hypergeometric_law() {
    let rules = Rules { method: Method::Blind, ..Rules::default() };
    let (n, k, drawn) = (120u64, 30u64, 7u64);
    let choose = |n: u64, k: u64| -> f64 { (0..k).fold(1.0, |a, i| a * (n - i) as f64 / (i + 1) as f64) };
    let exact: Vec<f64> = (0..=drawn).map(|j| choose(k, j) * choose(n - k, drawn - j) / choose(n, drawn)).collect();
    let mut bots: Vec<_> = (0..2).map(|_| Preset::load("random").unwrap().bot("random")).collect();
    let mut t = Box::new(Table::default());
    let mut seen = [0u64; LAND_BINS];
    let games = 20_000;
    for seed in 0..games {
        let mut out = RoundResult::default();
        engine::play(&rules, &mut t, &mut bots, &[0, 1], seed, seed, &mut draftsim::sim::NoEvents, &mut out).unwrap();
        for s in 0..2 {
            for (b, slot) in seen.iter_mut().enumerate() {
                *slot += u64::from(out.seats[s].bins()[OPENING_LANDS + b]);
            }
        }
    }
    let hands = (2 * games) as f64;
    let (mut chi, mut df, mut rest_e, mut rest_o) = (0.0, 0, 0.0, 0.0);
    for (j, &p) in exact.iter().enumerate() {
        let e = p * hands;
        if e >= 5.0 {
            chi += (seen[j] as f64 - e).powi(2) / e;
            df += 1;
        } else {
            rest_e += e;
            rest_o += seen[j] as f64;
        }
    }
    if rest_e > 0.0 {
        chi += (rest_o - rest_e).powi(2) / rest_e;
        df += 1;
    }
    // The two seats' hands of one deal are not independent, so allow more than the 99.9%
    // quantile of chi-square with 6 degrees of freedom (22.5).
    assert!(df >= 6 && chi < 30.0, "chi-square {chi:.1} over {df} bins: {seen:?} against {exact:?}");
}

#[test]
fn cards_are_conserved_and_check_is_clean_on_a_million_games() {
    for method in ["tableau", "pipeline", "rummy", "blind"] {
        for opening in ["quick", "careful"] {
            let rules =
                Rules::from_toml(&format!("method = \"{method}\"\nopening = \"{opening}\"\nplayers = 3")).unwrap();
            let seats: Vec<String> = ["hate", "curve", "random"].map(String::from).to_vec();
            let g = LiveDraft::new(&rules, &seats).unwrap();
            let mut w = g.worker();
            for seed in 0..200 {
                let mut out = RoundResult::default();
                g.play_checked(&mut w, seed, seed, 0, &[0, 1, 2], &mut out).unwrap();
                let shares: u32 = out.seats[..3].iter().map(|s| s.share_units).sum();
                assert!(shares == 0 || shares >= draftsim::sim::SHARE_UNIT - 2, "{method} {opening}");
            }
        }
    }
    let seats: Vec<String> = ["best-card", "curve"].map(String::from).to_vec();
    let g = LiveDraft::new(&Rules::default(), &seats).unwrap();
    let plan = Plan { seed: 13, rounds: 1_000_000, rotate: true, shard: None, until_ci: None, cards: false };
    let report = draftsim::sim::check(&g, &Lineup::new(&seats), &plan, None, |_, _| Ok(())).unwrap();
    assert!(report.violation.is_none(), "{:?}", report.violation);
}

/// Card analytics: under blind draws every card is met as it is drawn (take rate 1,
/// nothing passed) and a land comes at the same average pick as a creature (the library's
/// order is random); from a tableau a seat sees more than it takes.
#[test]
fn card_analytics_blind_draws_take_all_they_see_and_lands_come_at_no_special_pick() {
    use draftsim::games::live_draft::engine::IDENTITIES_PER_COLOUR;
    let seats: Vec<String> = ["best-card", "curve"].iter().map(|s| s.to_string()).collect();
    for method in [Method::Blind, Method::Tableau] {
        let rules = Rules { method, ..Rules::default() };
        let game = LiveDraft::new(&rules, &seats).unwrap();
        let plan = Plan { seed: 6, rounds: 6_000, rotate: true, shard: None, until_ci: None, cards: true };
        let t = draftsim::sim::run(&game, &Lineup::new(&seats), &plan, draftsim::sim::Mode::Tally, None, |_, _| Ok(()))
            .unwrap();
        let mut land = draftsim::sim::CardCounts::default();
        let mut creature = draftsim::sim::CardCounts::default();
        let cards = game.measures().cards.as_ref().unwrap().names.len();
        for x in 0..2 {
            for c in 0..cards {
                let k = t.card(x, c);
                assert!(k.taken <= k.seen_picks);
                if method == Method::Blind {
                    assert_eq!((k.taken, k.passed), (k.seen_picks, 0), "blind draws: {k:?}");
                }
                if c % usize::from(IDENTITIES_PER_COLOUR) == 0 { &mut land } else { &mut creature }.merge(k);
            }
        }
        assert!(land.taken > 10_000 && creature.taken > 10_000);
        if method == Method::Blind {
            let (a, b) = (land.ata(), creature.ata());
            let se = (a.half_width().powi(2) + b.half_width().powi(2)).sqrt() / 1.96;
            assert!((a.mean - b.mean).abs() < 4.0 * se, "land ATA {a:?} against creature ATA {b:?}");
        } else {
            assert!(
                land.passed + creature.passed > 0
                    && land.seen_picks + creature.seen_picks > 3 * (land.taken + creature.taken)
            );
        }
    }
}
