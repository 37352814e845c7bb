//! Live-Draft: the exact opening-land law, scripted turns for every drawing rule and
//! opening, mill counters, combat arithmetic (tapping, sickness, colour payment, 64
//! creatures), the bots' rummy and hate decisions, conservation, and a million games checked.

use draftsim::games::contest::GameDef;
use draftsim::games::live_draft;
use draftsim::games::{GamePreset, GameRules};
use draftsim::sim::UnitSeeds;
use std::collections::VecDeque;

use draftsim::error::Error;
use draftsim::games::live_draft::engine::{self, Event, How, State};
use draftsim::games::live_draft::measures::{CAPPED, LAND_BINS, MULLIGANED, OPENING_LANDS};
use draftsim::games::live_draft::rules::{Method, Opening, Rules, WipeCounters};
use draftsim::games::live_draft::view::{Bot, BotRng, Card, MAX_PERMANENTS, NO_CARD, Pick, View};
use draftsim::games::live_draft::{LiveDraft, LiveDraftBot};
use draftsim::sim::{Game, Lineup, Plan, RoundResult, SeatRngs};

/// A bot that plays a script: picks, rummy choices, discards, exchanges, casts and attacks
/// as queued; no land, no creature, no attack, no block unless told. With `preset`, the
/// preset bot picks, takes, attacks and blocks instead.
#[derive(Default)]
struct Script {
    picks: VecDeque<usize>,
    take_top: VecDeque<bool>,
    discards: VecDeque<usize>,
    mulligans: VecDeque<(usize, usize)>,
    casts: VecDeque<usize>,
    /// Plays the first land of its hand each turn.
    lands: bool,
    attack: u64,
    blocks: Vec<(usize, u8)>,
    /// The discard pile's size each time it was asked to discard.
    piles_seen: Vec<usize>,
    preset: Option<LiveDraftBot>,
}

impl Script {
    fn preset(name: &str) -> Script {
        Script { preset: Some(live_draft::Def::load_preset(name).unwrap().bot(name)), ..Script::default() }
    }
}

impl Bot for Script {
    fn name(&self) -> &str {
        "script"
    }
    fn pick(&mut self, v: &View<'_>, r: &mut BotRng) -> Pick {
        match &mut self.preset {
            Some(p) => p.pick(v, r),
            None => Pick { index: self.picks.pop_front().unwrap_or(0), hate: false },
        }
    }
    fn take_discard(&mut self, v: &View<'_>, r: &mut BotRng) -> bool {
        match &mut self.preset {
            Some(p) => p.take_discard(v, r),
            None => self.take_top.pop_front().unwrap_or(false),
        }
    }
    fn discard(&mut self, v: &View<'_>, _: &mut BotRng) -> usize {
        self.piles_seen.push(v.discard.len());
        self.discards.pop_front().unwrap_or(0)
    }
    fn mulligan(&mut self, _: &View<'_>, _: &mut BotRng) -> Option<(usize, usize)> {
        self.mulligans.pop_front()
    }
    fn land(&mut self, v: &View<'_>, _: &mut BotRng) -> Option<usize> {
        if self.lands { (0..v.hand.len()).find(|&i| v.card(v.hand[i]).is_land()) } else { None }
    }
    fn cast(&mut self, _: &View<'_>, _: &mut BotRng) -> Option<usize> {
        self.casts.pop_front()
    }
    fn target(&mut self, v: &View<'_>, _: &mut BotRng) -> usize {
        v.next_player()
    }
    fn attack(&mut self, v: &View<'_>, defender: usize, r: &mut BotRng) -> u64 {
        match &mut self.preset {
            Some(p) => p.attack(v, defender, r),
            None => self.attack,
        }
    }
    fn block(&mut self, v: &View<'_>, a: usize, bits: u64, r: &mut BotRng, blocks: &mut [u8; MAX_PERMANENTS]) {
        if let Some(p) = &mut self.preset {
            return p.block(v, a, bits, r, blocks);
        }
        for &(a, b) in &self.blocks {
            blocks[a] = b;
        }
    }
}

/// A turn's outcome: the ending (if any) or the error.
type Ending = Result<Option<(u8, &'static str)>, Error>;

/// Plays `seat`'s turn (game turn `game_turn`) on the position; the ending or the error,
/// and the events.
fn play_turn(rules: &Rules, t: &mut State, bots: &mut [Script], seat: usize, game_turn: u32) -> (Ending, Vec<Event>) {
    let mut events = Vec::new();
    let end = engine::testing::take_turn(rules, t, bots, seat, game_turn, &mut events, &mut RoundResult::default());
    (end, events)
}

/// Plays the whole game (opening included) from the position; the result and the events.
fn play_from(rules: &Rules, t: &mut State, bots: &mut [Script]) -> (RoundResult, Vec<Event>) {
    let mut events = Vec::new();
    let mut out = RoundResult::default();
    let seating: Vec<usize> = (0..bots.len()).collect();
    engine::testing::play_game(rules, t, bots, &seating, &mut SeatRngs::new(0, bots.len()), &mut events, &mut out)
        .unwrap();
    (out, events)
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
fn turn(rules: &Rules, t: &mut State, bots: &mut [Script; 2]) -> (Option<(u8, &'static str)>, Vec<Event>) {
    // (Scripted positions hold only some of the cards, so conservation is checked by the
    // property test below, not here.)
    let (end, events) = play_turn(rules, t, bots, 0, 3);
    (end.unwrap(), events)
}

#[test]
fn a_tableau_of_one_kind_is_wiped_and_dealt_again() {
    let rules = Rules { method: Method::Tableau, ..Rules::default() };
    let mut t = State::verified();
    // Row: six lands and creature 15; the library's top (last) is land 6, then lands 8
    // and 7 and creatures 20 down to 16.
    let library: Vec<u8> = vec![16, 17, 18, 19, 20, 7, 8, 6];
    t.set_position(&rules, &cards(), &library, &[0, 1, 2, 3, 4, 5, 15], &[&[], &[]]);
    let mut bots = [Script::default(), Script::default()];
    bots[0].picks.push_back(6);
    let (end, events) = turn(&rules, &mut t, &mut bots);
    assert!(end.is_none());
    // Taking 15 and replacing it with land 6 made seven lands: removed, seven new dealt.
    assert!(events.iter().any(|e| matches!(e, Event::Wipe { .. })));
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
    let mut t = State::verified();
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
    let mut t = State::verified();
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
    let mut t = State::verified();
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
    let mut t = State::verified();
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
    let mut bots: Vec<_> = (0..2).map(|_| live_draft::Def::load_preset("random").unwrap().bot("random")).collect();
    let mut t = Box::new(State::default());
    let mut seen = [0u64; LAND_BINS];
    let games = 20_000;
    for seed in 0..games {
        let mut out = RoundResult::default();
        draftsim::search::play_with(
            &rules,
            &mut *t,
            [0, 1].len(),
            UnitSeeds::new(seed, seed),
            &mut draftsim::sim::NoEvents,
            &mut out,
            |t, s, rng| t.ask_bot(&rules, &mut bots[[0, 1][s]], rng),
        )
        .unwrap();
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
                g.play_checked(&mut w, UnitSeeds::new(seed, seed), &[0, 1, 2], &mut out).unwrap();
                let shares: u32 = out.seats[..3].iter().map(|s| s.share_units).sum();
                assert!(shares == 0 || shares >= draftsim::sim::SHARE_UNIT - 2, "{method} {opening}");
            }
        }
    }
    let seats: Vec<String> = ["best-card", "curve"].map(String::from).to_vec();
    let g = LiveDraft::new(&Rules::default(), &seats).unwrap();
    let plan =
        Plan { seed: 13, rounds: 1_000_000, rotate: true, shard: None, until_ci: None, cards: false, first_deal: 0 };
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
        let plan =
            Plan { seed: 6, rounds: 6_000, rotate: true, shard: None, until_ci: None, cards: true, first_deal: 0 };
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

/// A library (top last) that deals these runs of cards in this order, first run first.
fn stack(runs: &[&[u8]]) -> Vec<u8> {
    runs.iter().flat_map(|r| r.iter()).rev().copied().collect()
}

/// Ids `0..n` not in `used`, for a library that makes a scripted position whole.
fn rest(n: u8, used: &[u8]) -> Vec<u8> {
    (0..n).filter(|id| !used.contains(id)).collect()
}

#[test]
fn attackers_tap_and_cannot_block_until_their_controllers_next_turn() {
    // 0-3 lands; 4 a 2/4, 5 a 2/2.
    let faces = vec![LAND, LAND, LAND, LAND, creature(3, 2, 4), creature(2, 2, 2)];
    let position = |rules: &Rules| {
        let mut t = State::verified();
        t.set_position(rules, &faces, &[0, 1, 2, 3], &[], &[&[], &[]]);
        t.set_board(0, &[], &[4]);
        t.set_board(1, &[], &[5]);
        t
    };
    for vigilance in [false, true] {
        let rules = Rules { method: Method::Blind, vigilance, ..Rules::default() };
        let mut t = position(&rules);
        let mut bots = [Script { attack: 0b1, ..Script::default() }, Script { attack: 0b1, ..Script::default() }];
        play_turn(&rules, &mut t, &mut bots, 0, 3).0.unwrap();
        assert_eq!(t.board(1).life, 18);
        assert_eq!(t.board(0).tapped, if vigilance { 0 } else { 0b1 });
        // Seat 1 strikes back; seat 0 blocks with the 2/4 that attacked.
        bots[0].blocks = vec![(0, 0)];
        let (end, events) = play_turn(&rules, &mut t, &mut bots, 1, 4);
        if vigilance {
            end.unwrap();
            assert!(events.contains(&Event::Block { attacker: 5, blocker: 4 }));
            assert_eq!(t.board(0).life, 20);
        } else {
            assert!(matches!(end, Err(Error::IllegalAction { .. })), "a tapped creature blocked: {end:?}");
        }
    }
    // The attacker untaps at its controller's next turn.
    let rules = Rules { method: Method::Blind, ..Rules::default() };
    let mut t = position(&rules);
    let mut bots = [Script { attack: 0b1, ..Script::default() }, Script::default()];
    play_turn(&rules, &mut t, &mut bots, 0, 3).0.unwrap();
    play_turn(&rules, &mut t, &mut bots, 1, 4).0.unwrap();
    assert_eq!(t.board(0).tapped, 0b1, "still tapped through the opponent's turn");
    bots[0].attack = 0;
    play_turn(&rules, &mut t, &mut bots, 0, 5).0.unwrap();
    assert_eq!(t.board(0).tapped, 0);
    // A preset attacks with its 2/4 (no blocker can kill it), then cannot block the 2/2
    // with it: it takes 2 (an untapped 2/4 would block and live).
    let mut t = position(&rules);
    let mut bots = [Script::preset("best-card"), Script { attack: 0b1, ..Script::default() }];
    play_turn(&rules, &mut t, &mut bots, 0, 3).0.unwrap();
    assert_eq!(t.board(1).life, 18);
    let (end, events) = play_turn(&rules, &mut t, &mut bots, 1, 4);
    end.unwrap();
    assert!(!events.iter().any(|e| matches!(e, Event::Block { .. })), "{events:?}");
    assert_eq!(t.board(0).life, 18);
}

#[test]
fn bots_keep_enough_creatures_home_to_survive_the_counterattack() {
    // Seat 0 (5 life): two 3/1s that no blocker of seat 1 can kill and survive; seat 1: two
    // 1/1s and a 6/1 that can attack next turn. Attacking with both would leave nothing to
    // chump the 6/1 (6 + 1 + 1 damage); one stays home.
    let faces =
        vec![LAND, creature(2, 3, 1), creature(2, 3, 1), creature(1, 1, 1), creature(1, 1, 1), creature(6, 6, 1)];
    for (vigilance, attackers) in [(false, 1), (true, 2)] {
        let rules = Rules { method: Method::Blind, vigilance, ..Rules::default() };
        let mut t = State::verified();
        t.set_position(&rules, &faces, &[0], &[], &[&[], &[]]);
        t.set_board(0, &[], &[1, 2]);
        t.set_board(1, &[], &[3, 4, 5]);
        t.set_counters(0, 0, 5);
        let mut bots = [Script::preset("best-card"), Script::default()];
        let (end, events) = play_turn(&rules, &mut t, &mut bots, 0, 3);
        end.unwrap();
        assert!(events.contains(&Event::Attack { seat: 0, defender: 1, attackers }), "{events:?}");
    }
}

#[test]
fn the_turn_cap_is_a_safety_net_under_the_default_rules() {
    let rules = Rules::default();
    assert_eq!(rules.turn_cap(), 240, "twice the library's 120 cards");
    assert_eq!(Rules { max_turns: 60, ..Rules::default() }.turn_cap(), 60);
    let seats: Vec<String> = ["best-card", "curve"].map(String::from).to_vec();
    let g = LiveDraft::new(&rules, &seats).unwrap();
    let mut w = g.worker();
    let games = 20_000;
    let mut capped = 0;
    for seed in 0..games {
        let mut out = RoundResult::default();
        g.play(&mut w, UnitSeeds::new(seed, seed ^ 0x5EED), if seed % 2 == 0 { &[0, 1] } else { &[1, 0] }, &mut out)
            .unwrap();
        capped += out.seats[0].counters[CAPPED];
    }
    let rate = f64::from(capped) / games as f64;
    println!("capped: {capped} of {games} default games ({rate:.4})");
    assert!(rate < 0.01, "{rate}");
}

#[test]
fn rummy_bots_take_the_discard_top_only_when_it_beats_drawing_two() {
    // 0-9 lands; 10-39 2/2s of cost 1 (worth 4 a mana); 40 a 2/2 of cost 2 (worth 2); 41 a
    // 6/6 of cost 1. The hand: three lands and four 2/2s of cost 1.
    let mut faces: Vec<Card> = (0..42).map(|i| if i < 10 { LAND } else { creature(1, 2, 2) }).collect();
    faces[40] = creature(2, 2, 2);
    faces[41] = creature(1, 6, 6);
    let rules = Rules { method: Method::Rummy, ..Rules::default() };
    for (pile, takes) in [(vec![40u8], false), (vec![40, 41], true)] {
        let mut t = State::verified();
        let library: Vec<u8> = (3..10).chain(14..40).collect();
        t.set_position(&rules, &faces, &library, &[], &[&[0, 1, 2, 10, 11, 12, 13], &[]]);
        t.set_discard(&pile);
        let mut bots = [Script::preset("best-card"), Script::default()];
        let (end, events) = play_turn(&rules, &mut t, &mut bots, 0, 3);
        end.unwrap();
        let took = events.iter().any(|e| matches!(e, Event::Draw { how: How::DiscardTop, .. }));
        assert_eq!(took, takes, "pile {pile:?}: {events:?}");
    }
}

/// Rummy under the default rules with the default mix: the discard top is taken on a
/// minority of draws (it was 81% when any creature on top was taken).
#[test]
fn rummy_takes_the_discard_top_on_a_minority_of_draws() {
    let rules = Rules { method: Method::Rummy, ..Rules::default() };
    let mut bots: Vec<_> =
        ["best-card", "curve"].iter().map(|n| live_draft::Def::load_preset(n).unwrap().bot(n)).collect();
    let mut t = Box::new(State::default());
    let (mut top, mut draws) = (0, 0);
    for seed in 0..2_000 {
        let mut events = Vec::new();
        draftsim::search::play_with(
            &rules,
            &mut *t,
            [0, 1].len(),
            UnitSeeds::new(seed, seed),
            &mut events,
            &mut RoundResult::default(),
            |t, s, rng| t.ask_bot(&rules, &mut bots[[0, 1][s]], rng),
        )
        .unwrap();
        // A turn's first card drawn tells which way it drew (a draw of two shows two).
        let mut in_turn = false;
        for e in &events {
            match *e {
                Event::Turn { .. } => in_turn = true,
                Event::Draw { how, .. } if in_turn => {
                    draws += 1;
                    top += usize::from(how == How::DiscardTop);
                    in_turn = false;
                }
                _ => {}
            }
        }
    }
    let share = top as f64 / draws as f64;
    println!("rummy draws that took the discard top: {top} of {draws} ({share:.3})");
    assert!(share < 0.5, "{share}");
}

#[test]
fn sixty_four_creatures_a_side_still_attack_and_block() {
    // 0-127 1/1s of cost 1, 128-139 lands: 64 creatures on each side.
    let faces: Vec<Card> = (0..140).map(|i| if i < 128 { creature(1, 1, 1) } else { LAND }).collect();
    let rules = Rules { method: Method::Blind, life: 200, library_size: 240, ..Rules::default() };
    let position = || {
        let mut t = State::verified();
        t.set_position(&rules, &faces, &(128..140).collect::<Vec<u8>>(), &[], &[&[], &[]]);
        t.set_board(0, &[], &(0..64).collect::<Vec<u8>>());
        t.set_board(1, &[], &(64..128).collect::<Vec<u8>>());
        t
    };
    let mut t = position();
    let mut bots = [Script { attack: u64::MAX, ..Script::default() }, Script::default()];
    bots[1].blocks = vec![(63, 63)];
    let (end, events) = play_turn(&rules, &mut t, &mut bots, 0, 3);
    end.unwrap();
    assert!(events.contains(&Event::Attack { seat: 0, defender: 1, attackers: 64 }), "{events:?}");
    assert!(events.contains(&Event::Block { attacker: 63, blocker: 127 }));
    assert_eq!(t.board(1).life, 200 - 63);
    assert_eq!(t.board(0).tapped, u64::MAX >> 1, "63 attackers left, all tapped");
    // The presets: `best-card` attacks with all 64 (the worst is a trade), `cautious` trades
    // a blocker for each, its 64th slot included.
    let mut t = position();
    let mut bots = [Script::preset("best-card"), Script::preset("cautious")];
    let (end, events) = play_turn(&rules, &mut t, &mut bots, 0, 3);
    end.unwrap();
    assert!(events.contains(&Event::Attack { seat: 0, defender: 1, attackers: 64 }), "{events:?}");
    assert!(events.contains(&Event::Block { attacker: 63, blocker: 127 }));
    assert!(t.board(0).creatures().is_empty() && t.board(1).creatures().is_empty());
}

#[test]
fn crowded_boards_keep_every_invariant() {
    // Life 200, a 240-card library, the cautious mirror: boards fill towards 64 creatures.
    let rules = Rules::from_toml("life = 200\nlibrary_size = 240\nland_share = 0.4").unwrap();
    let seats: Vec<String> = ["cautious", "cautious"].map(String::from).to_vec();
    let g = LiveDraft::new(&rules, &seats).unwrap();
    let mut w = g.worker();
    for seed in 0..20 {
        g.play_checked(&mut w, UnitSeeds::new(seed, seed), &[0, 1], &mut RoundResult::default()).unwrap();
    }
}

#[test]
fn the_first_player_skips_its_first_draw_only_in_two_player_games() {
    let first_hand = |players: usize, first_player_draws: Option<bool>| {
        let rules = Rules { players, method: Method::Blind, max_turns: 1, first_player_draws, ..Rules::default() };
        let hands: Vec<u8> = (15..15 + players as u8).collect();
        let mut t = State::verified();
        let one: Vec<&[u8]> = hands.iter().map(std::slice::from_ref).collect();
        t.set_position(&rules, &cards(), &rest(30, &hands), &[], &one);
        let mut bots: Vec<Script> = (0..players).map(|_| Script::default()).collect();
        play_from(&rules, &mut t, &mut bots);
        t.hand(0).len()
    };
    assert_eq!(first_hand(2, None), 1, "two players: no draw (the Magic rule)");
    assert_eq!(first_hand(3, None), 2, "three players: the first player draws");
    assert_eq!(first_hand(4, None), 2);
    assert_eq!(first_hand(3, Some(false)), 1);
    assert_eq!(first_hand(2, Some(true)), 2);
}

#[test]
fn a_one_kind_tableau_is_not_wiped_when_the_library_cannot_deal_a_new_one() {
    // Taking creature 15 puts land 6 in its slot: seven lands. With six cards left the
    // library cannot deal seven: the lands stay. (Seven left: wiped, as tested above.)
    let rules = Rules { method: Method::Tableau, ..Rules::default() };
    for library in [vec![6u8], vec![16, 17, 18, 19, 20, 21, 6]] {
        let mut t = State::verified();
        t.set_position(&rules, &cards(), &library, &[0, 1, 2, 3, 4, 5, 15], &[&[], &[]]);
        let mut bots = [Script { picks: VecDeque::from([6]), ..Script::default() }, Script::default()];
        let (_, events) = turn(&rules, &mut t, &mut bots);
        assert!(!events.iter().any(|e| matches!(e, Event::Wipe { .. })), "library {library:?}");
        assert_eq!(t.row(), &[0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(t.wipes(), 0);
        assert!(t.removed().is_empty());
    }
}

#[test]
fn a_wipe_removes_all_seven_before_dealing_and_counts_as_the_rules_say() {
    // Reshuffle: taking creature 15 brings land 0 into its slot (seven lands); one card, 16,
    // is left. All seven leave, 16 fills slot 0, and slots 1-6 come from the seven
    // reshuffled: one land stays in the new library, none is left removed.
    let rules = Rules { method: Method::Tableau, reshuffle_removed: true, ..Rules::default() };
    let mut t = State::verified();
    t.set_position(&rules, &cards(), &[16, 0], &[15, 1, 2, 3, 4, 5, 6], &[&[], &[]]);
    let mut bots = [Script::default(), Script::default()];
    let (_, events) = turn(&rules, &mut t, &mut bots);
    assert_eq!(events.iter().filter(|e| matches!(e, Event::Wipe { .. })).count(), 1);
    assert_eq!(t.row()[0], 16);
    assert!(t.row()[1..].iter().all(|&c| c <= 6), "{:?}", t.row());
    assert!(t.removed().is_empty(), "{:?}", t.removed());
    assert_eq!(t.library().len(), 1);
    // wipe_counters: the redeal counts for the drawer, or for nobody.
    for (wipe_counters, mill) in [(WipeCounters::Drawer, 8), (WipeCounters::Nobody, 1)] {
        let rules = Rules { method: Method::Tableau, wipe_counters, ..Rules::default() };
        let mut t = State::verified();
        t.set_position(&rules, &cards(), &[16, 17, 18, 19, 20, 7, 8, 6], &[0, 1, 2, 3, 4, 5, 15], &[&[], &[]]);
        let mut bots = [Script { picks: VecDeque::from([6]), ..Script::default() }, Script::default()];
        let (_, events) = turn(&rules, &mut t, &mut bots);
        let to = if wipe_counters == WipeCounters::Drawer { Some(0) } else { None };
        assert!(events.contains(&Event::Wipe { mill_to: to }), "{wipe_counters:?}: {events:?}");
        assert_eq!(t.board(0).mill, mill, "{wipe_counters:?}");
        // The telling names whose counters they are.
        let told = draftsim::games::live_draft::tell(&[], &["a", "b"], &events, None);
        assert_eq!(told.contains("mill counters for seat 0 (a)"), to.is_some(), "{told}");
    }
}

#[test]
fn a_one_kind_first_tableau_is_wiped_and_counts_for_nobody() {
    // The quick opening deals 15-21 and 22-28; the tableau's first seven are lands 0-6:
    // wiped, and 7, 8, 29, 9-12 dealt.
    let rules = Rules { method: Method::Tableau, max_turns: 1, ..Rules::default() };
    let library = stack(&[
        &[15, 16, 17, 18, 19, 20, 21],
        &[22, 23, 24, 25, 26, 27, 28],
        &[0, 1, 2, 3, 4, 5, 6],
        &[7, 8, 29, 9, 10, 11, 12, 13, 14],
    ]);
    let mut t = State::verified();
    t.set_position(&rules, &cards(), &library, &[], &[&[], &[]]);
    let mut bots = [Script::default(), Script::default()];
    let (_, events) = play_from(&rules, &mut t, &mut bots);
    assert_eq!(events.iter().filter(|e| **e == Event::Wipe { mill_to: None }).count(), 1);
    assert_eq!(t.removed(), &[0, 1, 2, 3, 4, 5, 6]);
    assert_eq!(t.row(), &[7, 8, 29, 9, 10, 11, 12]);
    assert_eq!(t.hand(0), &[15, 16, 17, 18, 19, 20, 21]);
    assert_eq!((t.board(0).mill, t.board(1).mill), (7, 7), "only the cards dealt to each");
}

#[test]
fn rummy_deals_fourteen_and_every_player_discards_to_seven_unseen() {
    // 30 cards, top first: seat 0 is dealt 29 down to 16, seat 1 15 down to 2. Each
    // discards its hand's first card seven times.
    let rules = Rules { method: Method::Rummy, max_turns: 1, ..Rules::default() };
    let mut t = State::verified();
    t.set_position(&rules, &cards(), &(0..30).collect::<Vec<u8>>(), &[], &[&[], &[]]);
    let mut bots = [Script::default(), Script::default()];
    let (_, events) = play_from(&rules, &mut t, &mut bots);
    assert_eq!(bots[0].piles_seen, vec![0; 7]);
    assert_eq!(bots[1].piles_seen, vec![0; 7], "seat 1 chose before seat 0's discards were on the pile");
    assert_eq!(t.discard_pile(), &[29, 28, 27, 26, 25, 24, 23, 15, 14, 13, 12, 11, 10, 9]);
    assert_eq!(t.hand(0), &[22, 21, 20, 19, 18, 17, 16]);
    assert_eq!(t.hand(1), &[8, 7, 6, 5, 4, 3, 2]);
    assert_eq!((t.board(0).mill, t.board(1).mill), (14, 14));
    let to_pile = events.iter().filter(|e| matches!(e, Event::Discard { to: "discard pile", .. })).count();
    assert_eq!(to_pile, 14);
}

#[test]
fn the_quick_exchange_removes_two_and_draws_one_by_the_method() {
    // Seat 0 is dealt 15-21, seat 1 22-28; the tableau is 0, 1, 29, 2-5; 6-14 remain.
    let rules = Rules { method: Method::Tableau, max_turns: 1, ..Rules::default() };
    let library = stack(&[
        &[15, 16, 17, 18, 19, 20, 21],
        &[22, 23, 24, 25, 26, 27, 28],
        &[0, 1, 29, 2, 3, 4, 5],
        &[6, 7, 8, 9, 10, 11, 12, 13, 14],
    ]);
    let mut t = State::verified();
    t.set_position(&rules, &cards(), &library, &[], &[&[], &[]]);
    // Seat 0 exchanges hand cards 0 and 1 (15 and 16) and takes tableau slot 3 (land 2); a
    // second exchange is past max_mulligans = 1.
    let mut bots = [
        Script { mulligans: VecDeque::from([(0, 1), (0, 1)]), picks: VecDeque::from([3]), ..Script::default() },
        Script::default(),
    ];
    let (out, events) = play_from(&rules, &mut t, &mut bots);
    assert_eq!(t.removed(), &[16, 15]);
    assert!(events.contains(&Event::Discard { seat: 0, card: 15, to: "removed" }));
    assert_eq!(t.hand(0), &[17, 18, 19, 20, 21, 2]);
    assert_eq!(t.row(), &[0, 1, 29, 6, 3, 4, 5]);
    assert_eq!(t.board(0).mill, 8, "seven dealt and the replacement");
    assert_eq!(t.hand(1).len(), 7);
    assert_eq!((out.seats[0].counters[MULLIGANED], out.seats[1].counters[MULLIGANED]), (1, 0));
    assert_eq!(bots[0].mulligans.len(), 1, "asked once only");
}

#[test]
fn the_careful_opening_deals_one_card_at_a_time_from_the_first_player() {
    for players in [2usize, 3] {
        let rules =
            Rules { players, method: Method::Blind, opening: Opening::Careful, max_turns: 1, ..Rules::default() };
        let mut t = State::verified();
        let empty: [&[u8]; 3] = [&[], &[], &[]];
        t.set_position(&rules, &cards(), &(0..30).collect::<Vec<u8>>(), &[], &empty[..players]);
        let mut bots: Vec<Script> = (0..players).map(|_| Script::default()).collect();
        let (_, events) = play_from(&rules, &mut t, &mut bots);
        let order: Vec<(usize, u8)> = events
            .iter()
            .take_while(|e| !matches!(e, Event::Opening { .. }))
            .filter_map(|e| if let Event::Draw { seat, card, .. } = *e { Some((seat, card)) } else { None })
            .collect();
        let expected: Vec<(usize, u8)> = (0..7 * players).map(|k| (k % players, 29 - k as u8)).collect();
        assert_eq!(order, expected, "{players} players");
    }
}

#[test]
fn pipeline_edge_cases_first_and_last_slot_and_a_dry_library() {
    let rules = Rules { method: Method::Pipeline, ..Rules::default() };
    let row = [15u8, 16, 17, 18, 19, 20, 21];
    // (library, pick, row after, removed)
    type Case<'a> = (&'a [u8], usize, &'a [u8], &'a [u8]);
    let cases: [Case; 5] = [
        // The leftmost taken: the next leftmost leaves the game.
        (&[29, 28, 27], 0, &[17, 18, 19, 20, 21, 27, 28], &[16]),
        // The rightmost taken.
        (&[29, 28, 27], 6, &[16, 17, 18, 19, 20, 27, 28], &[15]),
        // One card left in the library: the row shrinks by one.
        (&[27], 3, &[16, 17, 19, 20, 21, 27], &[15]),
        // None left: by two.
        (&[], 3, &[16, 17, 19, 20, 21], &[15]),
        (&[], 0, &[17, 18, 19, 20, 21], &[16]),
    ];
    for (library, pick, after, removed) in cases {
        let mut t = State::verified();
        t.set_position(&rules, &cards(), library, &row, &[&[], &[]]);
        let mut bots = [Script { picks: VecDeque::from([pick]), ..Script::default() }, Script::default()];
        turn(&rules, &mut t, &mut bots);
        assert_eq!(t.row(), after, "library {library:?}, pick {pick}");
        assert_eq!(t.removed(), removed);
        assert_eq!(t.hand(0), &[row[pick]]);
    }
    // A row of one card: taken, nothing slides; then nothing is left: mill counters end it.
    let mut t = State::verified();
    t.set_position(&rules, &cards(), &[], &[15], &[&[], &[]]);
    let mut bots = [Script::default(), Script::default()];
    let (end, events) = turn(&rules, &mut t, &mut bots);
    assert!(end.is_none() && !events.iter().any(|e| matches!(e, Event::Slide { .. })));
    assert!(t.row().is_empty() && t.removed().is_empty());
    t.set_counters(1, 3, 20);
    assert_eq!(turn(&rules, &mut t, &mut bots).0, Some((0b01, "mill counters")));
}

#[test]
fn reshuffle_removed_makes_a_new_library_from_the_removed_cards_in_any_order() {
    let rules = Rules { method: Method::Blind, reshuffle_removed: true, ..Rules::default() };
    let removed: Vec<u8> = (15..27).collect();
    let mut reversed = removed.clone();
    reversed.reverse();
    let mut results = Vec::new();
    for order in [&removed, &reversed] {
        let mut t = State::verified();
        t.set_position(&rules, &cards(), &[], &[], &[&[], &[]]);
        t.set_removed(order);
        let mut bots = [Script::default(), Script::default()];
        turn(&rules, &mut t, &mut bots);
        assert!(t.removed().is_empty());
        assert_eq!(t.library().len(), 11);
        assert_eq!(t.board(0).mill, 1);
        let mut all: Vec<u8> = t.library().iter().chain(t.hand(0)).copied().collect();
        all.sort_unstable();
        assert_eq!(all, removed);
        results.push((t.library().to_vec(), t.hand(0).to_vec()));
    }
    assert_eq!(results[0], results[1], "the new library depends on the removed cards, not their order");
    // Without the option, an empty library stays empty.
    let rules = Rules { reshuffle_removed: false, mill_counters: false, ..rules };
    let mut t = State::verified();
    t.set_position(&rules, &cards(), &[], &[], &[&[], &[]]);
    t.set_removed(&removed);
    turn(&rules, &mut t, &mut [Script::default(), Script::default()]);
    assert!(t.hand(0).is_empty() && t.removed().len() == 12);
}

#[test]
fn the_hand_limit_discards_to_the_graveyard_at_the_end_of_the_turn() {
    let rules = Rules { method: Method::Blind, max_hand: 7, ..Rules::default() };
    let mut t = State::verified();
    t.set_position(&rules, &cards(), &[0], &[], &[&[15, 16, 17, 18, 19, 20, 21, 22], &[]]);
    let mut bots = [Script { discards: VecDeque::from([0, 3]), ..Script::default() }, Script::default()];
    let (_, events) = turn(&rules, &mut t, &mut bots);
    assert_eq!(t.hand(0), &[16, 17, 18, 20, 21, 22, 0]);
    assert_eq!(t.board(0).graveyard(), &[15, 19]);
    assert!(events.contains(&Event::Discard { seat: 0, card: 19, to: "graveyard" }));
}

#[test]
fn casting_needs_a_land_of_the_colour_and_a_new_creature_cannot_attack_but_can_block() {
    let c = |colour, cost, power, toughness| Card { colour, cost, power, toughness };
    // 0 a white land, 1 a blue land, 2 a blue 2/2 of cost 2, 3 a black 1/1 of cost 1, 4 a
    // blue 1/2 of cost 1, 5 a 1/1 of seat 1's, 6-9 lands to draw, 10 a 1/1 of seat 0's.
    let faces = vec![
        LAND,
        c(1, 0, 0, 0),
        c(1, 2, 2, 2),
        c(2, 1, 1, 1),
        c(1, 1, 1, 2),
        c(0, 1, 1, 1),
        LAND,
        LAND,
        LAND,
        LAND,
        c(0, 1, 1, 1),
    ];
    let rules = Rules { method: Method::Blind, ..Rules::default() };
    let position = || {
        let mut t = State::verified();
        t.set_position(&rules, &faces, &[6, 7, 8, 9], &[], &[&[2, 3, 4], &[]]);
        t.set_board(0, &[0, 1], &[10]);
        t.set_board(1, &[], &[5]);
        t
    };
    let casting = |casts: &[usize]| {
        let mut t = position();
        let mut bots = [Script { casts: casts.iter().copied().collect(), ..Script::default() }, Script::default()];
        let end = play_turn(&rules, &mut t, &mut bots, 0, 3).0;
        (end.map(|_| ()), t.board(0).creatures()[1..].to_vec())
    };
    // The black 1/1: no black land.
    assert!(matches!(casting(&[1]).0, Err(Error::IllegalAction { .. })));
    // The blue 2/2 from a white and a blue land.
    let (end, cast) = casting(&[0]);
    assert!(end.is_ok() && cast == [2], "{end:?} {cast:?}");
    // The blue 1/2 taps the blue land: the 2/2 can no longer be paid for.
    assert!(matches!(casting(&[2, 0]).0, Err(Error::IllegalAction { .. })));
    // The new 2/2 (slot 1) cannot attack this turn; it blocks on the next; it attacks on
    // its own next.
    let mut t = position();
    let mut bots = [Script { casts: VecDeque::from([0]), attack: 0b10, ..Script::default() }, Script::default()];
    assert!(matches!(play_turn(&rules, &mut t, &mut bots, 0, 3).0, Err(Error::IllegalAction { .. })));
    let mut t = position();
    let mut bots =
        [Script { casts: VecDeque::from([0]), ..Script::default() }, Script { attack: 0b1, ..Script::default() }];
    play_turn(&rules, &mut t, &mut bots, 0, 3).0.unwrap();
    bots[0].blocks = vec![(0, 1)];
    let (end, events) = play_turn(&rules, &mut t, &mut bots, 1, 4);
    end.unwrap();
    assert!(events.contains(&Event::Block { attacker: 5, blocker: 2 }));
    bots[0].attack = 0b10;
    let (end, events) = play_turn(&rules, &mut t, &mut bots, 0, 5);
    end.unwrap();
    assert!(events.contains(&Event::Damage { seat: 1, amount: 2, life: 18 }));
}

#[test]
fn a_dead_player_leaves_the_turn_order_and_the_last_standing_wins() {
    // Three players; seats 1 and 2 at 2 life; seat 0's 2/2 attacks the next live player.
    let rules = Rules { players: 3, method: Method::Blind, ..Rules::default() };
    let mut t = State::verified();
    t.set_position(&rules, &cards(), &rest(30, &[0, 1, 2, 15]), &[], &[&[0], &[1], &[2]]);
    t.set_board(0, &[], &[15]);
    t.set_counters(1, 0, 2);
    t.set_counters(2, 0, 2);
    let mut bots = [Script { attack: 0b1, ..Script::default() }, Script::default(), Script::default()];
    let (out, events) = play_from(&rules, &mut t, &mut bots);
    let turns: Vec<usize> =
        events.iter().filter_map(|e| if let Event::Turn { seat, .. } = *e { Some(seat) } else { None }).collect();
    assert_eq!(turns, vec![0, 2, 0]);
    assert!(!t.board(1).alive && !t.board(2).alive);
    assert!(events.contains(&Event::End { winners: 0b001, why: "last standing" }));
    let scores: Vec<i64> = out.seats[..3].iter().map(|s| s.score).collect();
    assert_eq!(scores, vec![2, -1, -1]);
}

#[test]
fn the_library_order_does_not_depend_on_the_bots() {
    // The same deal under two lineups: what is left of the library is the bottom of one
    // order (cards only ever leave from the top).
    for method in ["tableau", "pipeline", "rummy", "blind"] {
        for opening in ["quick", "careful"] {
            let rules = Rules::from_toml(&format!("method = \"{method}\"\nopening = \"{opening}\"")).unwrap();
            let mut left = Vec::new();
            for lineup in [["random", "aggro"], ["hate", "colour"]] {
                let mut bots: Vec<_> = lineup.iter().map(|n| live_draft::Def::load_preset(n).unwrap().bot(n)).collect();
                let mut t = Box::new(State::verified());
                let mut runs = Vec::new();
                for seed in 0..30 {
                    let mut out = RoundResult::default();
                    draftsim::search::play_with(
                        &rules,
                        &mut *t,
                        [0, 1].len(),
                        UnitSeeds::new(seed, 7),
                        &mut draftsim::sim::NoEvents,
                        &mut out,
                        |t, s, rng| t.ask_bot(&rules, &mut bots[[0, 1][s]], rng),
                    )
                    .unwrap();
                    runs.push(t.library().to_vec());
                }
                left.push(runs);
            }
            for (a, b) in left[0].iter().zip(&left[1]) {
                let n = a.len().min(b.len());
                assert_eq!(a[..n], b[..n], "{method} {opening}");
            }
        }
    }
}

#[test]
fn opponents_see_what_a_player_took_from_the_row_and_the_hate_bot_denies_it() {
    // 0 a red 2/3 and 2 a red 2/3 (cost 2), 1 a green 3/3 (cost 2); 3-16 white lands. Seat 0
    // (hate) holds seven lands, so lands are worth little to it.
    let red = Card { colour: 3, cost: 2, power: 2, toughness: 3 };
    let mut faces = vec![red, Card { colour: 4, cost: 2, power: 3, toughness: 3 }, red];
    faces.extend(std::iter::repeat_n(LAND, 14));
    let rules = Rules { method: Method::Tableau, ..Rules::default() };
    let mut t = State::verified();
    t.set_position(&rules, &faces, &[7, 8, 9], &[2, 0, 1, 3, 4, 5, 6], &[&[10, 11, 12, 13, 14, 15, 16], &[]]);
    // Seat 1 takes the red 2/3 from slot 0: everyone saw it.
    let mut bots = [Script::preset("hate"), Script { picks: VecDeque::from([0]), ..Script::default() }];
    play_turn(&rules, &mut t, &mut bots, 1, 2).0.unwrap();
    assert!(t.board(1).known_hand.contains(2));
    // The hate bot weighs the other red 2/3 at 2.5 plus half of 2.5 to seat 1, above the
    // green 3/3's 3.0.
    play_turn(&rules, &mut t, &mut bots, 0, 3).0.unwrap();
    assert!(t.hand(0).contains(&0), "hand {:?}", t.hand(0));
}
