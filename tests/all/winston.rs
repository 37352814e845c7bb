//! Winston Draft + Crazier Eights: conservation, scripted draft and play turns, the colour
//! rule, an exact distribution, and a million matches checked.

use draftsim::games::GamePreset;
use draftsim::games::contest::GameDef;
use draftsim::games::winston;
use draftsim::sim::UnitSeeds;
use std::collections::VecDeque;

use draftsim::games::winston::cards::{Cards, Pool, bit, count, ids};
use draftsim::games::winston::engine::{self, Event, State};
use draftsim::games::winston::measures;
use draftsim::games::winston::rules::{Ability, LaterStarter, Multicolour, Rules, Starter};
use draftsim::games::winston::view::{Bot, BotRng, BuildView, DraftChoice, DraftView, PlayView};
use draftsim::games::winston::{Preset, Winston, tell};
use draftsim::sim::{Game, Lineup, Plan, RoundResult};

/// A bot that plays a script, then passes and discards nothing.
#[derive(Default)]
struct Script {
    draft: VecDeque<DraftChoice>,
    build: Option<(u8, Cards)>,
    play: VecDeque<Option<u8>>,
    discard: VecDeque<Option<(u8, usize)>>,
    keep: bool,
    draft_views: Vec<(usize, Cards, [usize; 3], usize, Cards, Cards)>,
    playable: Vec<Cards>,
}

impl Bot for Script {
    fn name(&self) -> &str {
        "script"
    }
    fn draft(&mut self, v: &DraftView<'_>, _: &mut BotRng) -> DraftChoice {
        self.draft_views.push((v.pile, v.cards, v.sizes, v.stack, v.opponent_took, v.opponent_passed));
        self.draft.pop_front().unwrap_or(DraftChoice::Pass)
    }
    fn build(&mut self, _: &BuildView<'_>, _: &mut BotRng) -> (u8, Cards) {
        self.build.unwrap_or((0, 0))
    }
    /// The queued play, else the highest card other than the next queued discard.
    fn play(&mut self, v: &PlayView<'_>, _: &mut BotRng) -> Option<u8> {
        if let Some(p) = self.play.pop_front() {
            return p;
        }
        let keep = self.discard.front().copied().flatten().map_or(0, |(c, _)| bit(c));
        ids(v.hand & !keep).last().or_else(|| ids(v.hand).last())
    }
    /// The queued discard, else the first matching card.
    fn discard(&mut self, v: &PlayView<'_>, _: &mut BotRng) -> Option<(u8, usize)> {
        self.playable.push(v.playable);
        match self.discard.pop_front() {
            Some(d) => d,
            None => ids(v.playable).next().map(|c| (c, 0)),
        }
    }
    fn keep_peeked(&mut self, _: &PlayView<'_>, _: u8, _: &mut BotRng) -> bool {
        self.keep
    }
}

/// The main set's card of colour `c` (0 red, 1 purple, 2 blue, 3 green) and rank `r`.
fn card(c: u8, r: u8) -> u8 {
    c * 13 + r - 1
}

fn set(cards: &[u8]) -> Cards {
    cards.iter().fold(0, |m, &c| m | bit(c))
}

fn game(seats: &[&str]) -> Winston {
    let seats: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
    Winston::new(&Rules::default(), &seats).unwrap()
}

#[test]
fn pools_conserve_the_stack_and_first_against_first_takes_42_each() {
    let rules = Rules::default();
    let pool = Pool::new(&rules);
    for seats in [["first", "first"], ["value", "hate"], ["random", "forge"], ["colour", "value"]] {
        let mut bots: Vec<_> = seats.iter().map(|s| winston::Def::load_preset(s).unwrap().bot(s)).collect();
        let mut t = State::verified();
        for seed in 0..300 {
            let mut out = RoundResult::default();
            draftsim::search::play_with(
                &variant(&rules, &pool),
                &mut t,
                [0, 1].len(),
                UnitSeeds::new(seed, seed + 7),
                &mut Vec::new(),
                &mut out,
                |t, s, rng| t.ask_bot(&variant(&rules, &pool), &mut bots[[0, 1][s]], rng),
            )
            .unwrap();
            let (a, b) = (t.pool(0), t.pool(1));
            assert_eq!(a & b, 0);
            assert_eq!(count(a) + count(b), 84, "pools add up to the main stack");
            assert_eq!(out.seats[0].sums[0] + out.seats[1].sums[0], 84);
            if seats[0] == "first" {
                assert_eq!((count(a), count(b)), (42, 42));
                assert_eq!(out.seats[0].sums[2], 0, "first never takes a blind card");
            }
            assert!(out.seats[0].score + out.seats[1].score == 0);
        }
    }
}

/// `first` against `first` makes each pool a fixed set of positions of a shuffled stack:
/// a uniformly random 42 of the 87 cards. Its eights then follow the hypergeometric law.
#[test]
fn eights_drafted_by_first_follow_the_exact_hypergeometric_law() {
    let rules = Rules::default();
    let pool = Pool::new(&rules);
    let (n_cards, eights, drawn) = (87u64, count(pool.eights) as u64, 42u64);
    let choose = |n: u64, k: u64| -> f64 { (0..k).fold(1.0, |a, i| a * (n - i) as f64 / (i + 1) as f64) };
    let exact: Vec<f64> = (0..=eights)
        .map(|k| choose(eights, k) * choose(n_cards - eights, drawn - k) / choose(n_cards, drawn))
        .collect();
    assert!((exact.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    let mut bots: Vec<_> = (0..2).map(|_| winston::Def::load_preset("first").unwrap().bot("first")).collect();
    let mut t = State::default();
    let deals = 20_000;
    let mut seen = vec![0u64; exact.len()];
    for seed in 0..deals {
        let mut out = RoundResult::default();
        draftsim::search::play_with(
            &variant(&rules, &pool),
            &mut t,
            [0, 1].len(),
            UnitSeeds::new(seed, 0),
            &mut draftsim::sim::NoEvents,
            &mut out,
            |t, s, rng| t.ask_bot(&variant(&rules, &pool), &mut bots[[0, 1][s]], rng),
        )
        .unwrap();
        seen[count(t.pool(0) & pool.eights)] += 1;
    }
    // Pearson's chi-square over bins expecting at least 5, the rest merged into the last.
    let (mut chi, mut df, mut rest_e, mut rest_o) = (0.0, 0, 0.0, 0.0);
    for (k, &p) in exact.iter().enumerate() {
        let e = p * deals as f64;
        if e >= 5.0 {
            chi += (seen[k] as f64 - e).powi(2) / e;
            df += 1;
        } else {
            rest_e += e;
            rest_o += seen[k] as f64;
        }
    }
    if rest_e > 0.0 {
        chi += (rest_o - rest_e).powi(2) / rest_e;
        df += 1;
    }
    // 99.9% quantile of chi-square with df - 1 <= 7 degrees of freedom is at most 24.3.
    assert!(df >= 5 && chi < 24.3, "chi-square {chi:.1} over {df} bins: {seen:?} against {exact:?}");
}

fn scripted_draft(rules: &Rules, stack: &[u8], scripts: [Script; 2]) -> (State, [Script; 2], Vec<Event>) {
    let pool = Pool::new(rules);
    let mut t = State::verified();
    let kept = set(stack);
    t.set_stack(stack, pool.all & !kept);
    let mut bots = scripts;
    let mut events = Vec::new();
    engine::testing::draft(
        &variant(rules, &pool),
        &mut t,
        &mut bots,
        &[0, 1],
        &mut draftsim::sim::SeatRngs::new(0, 2),
        &mut events,
        &mut RoundResult::default(),
    )
    .unwrap();
    (t, bots, events)
}

#[test]
fn rejecting_every_pile_grows_each_and_takes_the_blind_card_unseen_by_the_opponent() {
    let rules = Rules::default();
    // The last card is the top: piles get 1, 2, 3; then 4, 5, 6 are added; 7 is blind.
    let stack = [20, 10, 7, 6, 5, 4, 3, 2, 1];
    let mut a = Script::default();
    a.draft.extend([DraftChoice::Pass; 3]);
    let mut b = Script::default();
    b.draft.push_back(DraftChoice::Take { deny: false });
    let (t, bots, events) = scripted_draft(&rules, &stack, [a, b]);
    assert!(events.contains(&Event::Blind { seat: 0, card: 7, last: false }));
    // Seat 1 looked at pile 1 (1 and 4), took it, and never learnt of card 7.
    assert!(events.contains(&Event::Take { seat: 1, pile: 0, cards: set(&[1, 4]), deny: false, forced: false }));
    let view = bots[1].draft_views[0];
    assert_eq!(view.2, [2, 2, 2], "each rejected pile got one more card");
    assert_eq!(view.3, 2, "two cards left in the stack");
    assert_eq!(view.5 & bit(7), 0);
    // Seat 0, looking again, knows seat 1 took 1 (seen) and that the rest of pile 1 is new.
    let again = bots[0].draft_views[3];
    assert_eq!(again.4, bit(1));
    assert_eq!(t.pool(0) | t.pool(1), set(&stack));
}

#[test]
fn the_last_card_rule_takes_the_stacks_last_card_only_when_allowed() {
    let mut rules = Rules::default();
    // Piles 1, 2, 3, and one card (4) left: seat 0 takes it under the rule.
    let stack = [4, 3, 2, 1];
    let mut a = Script::default();
    a.draft.push_back(DraftChoice::TakeLastCard);
    let (t, _, events) = scripted_draft(&rules, &stack, [a, Script::default()]);
    assert!(events.contains(&Event::Blind { seat: 0, card: 4, last: true }));
    assert_eq!(t.pool(0) & bit(4), bit(4));
    rules.last_card_rule = false;
    let pool = Pool::new(&rules);
    let mut t = State::verified();
    t.set_stack(&stack, pool.all & !set(&stack));
    let mut a = Script::default();
    a.draft.push_back(DraftChoice::TakeLastCard);
    let mut bots = [a, Script::default()];
    let err = engine::testing::draft(
        &variant(&rules, &pool),
        &mut t,
        &mut bots,
        &[0, 1],
        &mut draftsim::sim::SeatRngs::new(0, 2),
        &mut Vec::new(),
        &mut RoundResult::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("last card"), "{err}");
}

#[test]
fn with_the_stack_empty_piles_may_be_passed_but_the_last_must_be_taken() {
    let mut rules = Rules::default();
    let stack = [3, 2, 1];
    let mut a = Script::default();
    a.draft.extend([DraftChoice::Pass, DraftChoice::Pass, DraftChoice::Pass]);
    let (t, _, events) = scripted_draft(&rules, &stack, [a, Script::default()]);
    assert_eq!(events[1], Event::Pass { seat: 0, pile: 0 });
    assert!(events.contains(&Event::Take { seat: 0, pile: 2, cards: bit(3), deny: false, forced: true }));
    assert_eq!(t.piles(), [0, 0, 0]);
    assert_eq!(count(t.pool(0)) + count(t.pool(1)), 3);
    // Without passing once the stack is empty, the first pile looked at is taken unasked.
    rules.pass_when_empty = false;
    let (_, bots, events) = scripted_draft(&rules, &stack, [Script::default(), Script::default()]);
    assert!(events.contains(&Event::Take { seat: 0, pile: 0, cards: bit(1), deny: false, forced: true }));
    assert!(bots[0].draft_views.is_empty());
}

#[test]
fn decks_that_break_the_colour_rule_are_refused() {
    let rules = Rules::default();
    let pool = Pool::new(&rules);
    let run = |rules: &Rules, build: (u8, Cards)| {
        let mut t = State::verified();
        // The whole pool in the stack; first-like scripts take every first pile.
        let stack: Vec<u8> = (0..84).collect();
        t.set_stack(&stack, pool.all & !set(&stack));
        let taker = || {
            let mut s = Script { build: Some(build), ..Script::default() };
            s.draft.extend([DraftChoice::Take { deny: false }; 100]);
            s
        };
        let mut bots = [taker(), taker()];
        engine::testing::play_stacked(
            &variant(rules, &pool),
            &mut t,
            &mut bots,
            &[0, 1],
            UnitSeeds::new(0, 0),
            &mut Vec::new(),
            &mut RoundResult::default(),
        )
    };
    let err = run(&rules, (0b1111, 0)).unwrap_err().to_string();
    assert!(err.contains("max_colours"), "{err}");
    let err = run(&rules, (0b1, bit(13))).unwrap_err().to_string();
    assert!(err.contains("unusable") || err.contains("deck of"), "{err}");
    // The presets' decks obey every colour rule (the engine checks each deck it is given).
    for multicolour in [Multicolour::Always, Multicolour::SharesColour] {
        for max_colours in 1..=3 {
            let rules = Rules { multicolour, max_colours, ..Rules::default() };
            let g = Winston::new(&rules, &["value".to_string(), "forge".to_string()]).unwrap();
            let mut w = g.worker();
            for seed in 0..50 {
                g.play_checked(&mut w, UnitSeeds::new(seed, seed), &[0, 1], &mut RoundResult::default()).unwrap();
            }
        }
    }
}

fn turn_setup(rules: &Rules) -> (Pool, State) {
    let pool = Pool::new(rules);
    let mut t = State::verified();
    t.set_side(&pool, 1, &[card(3, 1), card(3, 2)], set(&[card(3, 3), card(3, 4)]), card(3, 5), None);
    (pool, t)
}

#[test]
fn a_discard_matches_colour_or_rank_and_an_eight_names_the_next_colour() {
    let rules = Rules::default();
    let (pool, mut t) = turn_setup(&rules);
    // Top red 5; hand blue 5 (rank), red 9 (colour), green 7 (neither), purple 8 (wild).
    let hand = set(&[card(2, 5), card(0, 9), card(3, 7), card(1, 8)]);
    t.set_side(&pool, 0, &[card(3, 9)], hand, card(0, 5), None);
    let mut bot = Script::default();
    bot.discard.extend([Some((card(1, 8), 2))]);
    let mut events = Vec::new();
    let (won, again) = turn(&rules, &pool, &mut t, &mut bot, &mut events).unwrap();
    assert!(!won && !again);
    assert_eq!(bot.playable[0], set(&[card(2, 5), card(0, 9), card(1, 8)]), "green 9 was drawn; green 7 never matches");
    assert!(events.contains(&Event::Discard { seat: 0, card: card(1, 8), named: Some(2) }));
    // Next turn the named blue is asked for: blue 5 and nothing else (no eights left).
    t.set_side(&pool, 0, &[card(2, 1)], set(&[card(2, 5), card(0, 9)]), card(1, 8), Some(2));
    let mut bot = Script::default();
    bot.play.push_back(Some(card(0, 9)));
    bot.discard.extend([Some((card(0, 9), 0))]);
    let err = turn(&rules, &pool, &mut t, &mut bot, &mut Vec::new()).unwrap_err();
    assert!(err.to_string().contains("does not match"), "{err}");
    assert_eq!(bot.playable[0], set(&[card(2, 5), card(2, 1)]));
}

#[test]
fn an_empty_deck_reshuffles_the_discards_under_the_top() {
    let rules = Rules::default();
    let (pool, mut t) = turn_setup(&rules);
    // Top red 5; hand blue 12 and green 2; deck green 3. Blue 12 is played (under the top);
    // nothing matches, so nothing is discarded.
    t.set_side(&pool, 0, &[card(3, 3)], set(&[card(2, 12), card(3, 2)]), card(0, 5), None);
    let mut bot = Script::default();
    bot.play.push_back(Some(card(2, 12)));
    turn(&rules, &pool, &mut t, &mut bot, &mut Vec::new()).unwrap();
    let (hand, top, deck, under) = t.side(0);
    assert_eq!((top, deck.len(), under), (card(0, 5), 0, bit(card(2, 12))));
    assert_eq!(hand, set(&[card(3, 2), card(3, 3)]));
    // The deck is empty: the discards under the top become the new deck and are drawn.
    let mut events = Vec::new();
    turn(&rules, &pool, &mut t, &mut Script::default(), &mut events).unwrap();
    assert_eq!(events[0], Event::Reshuffle { seat: 0, cards: 1 });
    assert_eq!(events[1], Event::Draw { seat: 0, card: card(2, 12) });
    assert_eq!(t.side(0).1, card(0, 5), "the top stays");
    // With nothing under the top either, there is no draw at all.
    t.set_side(&pool, 0, &[], set(&[card(3, 2), card(3, 3)]), card(0, 5), None);
    let mut events = Vec::new();
    turn(&rules, &pool, &mut t, &mut Script::default(), &mut events).unwrap();
    assert!(!events.iter().any(|e| matches!(e, Event::Draw { .. } | Event::Reshuffle { .. })));
}

#[test]
fn skipping_the_play_or_an_owed_discard_is_illegal() {
    let rules = Rules::default();
    let (pool, mut t) = turn_setup(&rules);
    t.set_side(&pool, 0, &[card(3, 9)], set(&[card(0, 9), card(3, 7)]), card(0, 5), None);
    let mut bot = Script::default();
    bot.play.push_back(None);
    let err = turn(&rules, &pool, &mut t, &mut bot, &mut Vec::new());
    assert!(err.unwrap_err().to_string().contains("play step"));
    t.set_side(&pool, 0, &[card(3, 9)], set(&[card(0, 9), card(3, 7)]), card(0, 5), None);
    let mut bot = Script::default();
    bot.play.push_back(Some(card(3, 7)));
    bot.discard.push_back(None);
    let err = turn(&rules, &pool, &mut t, &mut bot, &mut Vec::new());
    assert!(err.unwrap_err().to_string().contains("skipped the discard"));
}

fn ability_card(pool: &Pool, ability: Ability) -> u8 {
    ids(pool.with_ability)
        .find(|&id| pool.ability[usize::from(id)] == Some(ability) && pool.wild & bit(id) == 0)
        .unwrap()
}

#[test]
fn abilities_make_the_opponent_draw_give_a_turn_a_second_discard_or_a_peek() {
    let rules = Rules::default();
    let (pool, mut t) = turn_setup(&rules);
    let run = |t: &mut State, ability: Ability, bot: &mut Script| {
        let a = ability_card(&pool, ability);
        let hand = set(&[a, card(0, 9), card(0, 10), card(2, 11)]);
        t.set_side(&pool, 0, &[card(2, 1), card(2, 2)], hand, card(0, 5), None);
        bot.play.push_back(Some(a));
        let mut events = Vec::new();
        let mut out = RoundResult::default();
        let result = engine::testing::scripted_turn(&variant(&rules, &pool), t, bot, 0, &mut events, &mut out).unwrap();
        assert_eq!(out.seats[0].sums[7], 1, "an ability play is counted");
        (result, events)
    };
    let before = count(t.side(1).0);
    let (_, events) = run(&mut t, Ability::OpponentDraws, &mut Script::default());
    assert_eq!(count(t.side(1).0), before + 1);
    assert!(events.contains(&Event::Draw { seat: 1, card: card(3, 2) }));
    let ((_, again), _) = run(&mut t, Ability::ExtraTurn, &mut Script::default());
    assert!(again);
    let mut bot = Script::default();
    bot.discard.extend([Some((card(0, 9), 0)), Some((card(0, 10), 0))]);
    let (_, events) = run(&mut t, Ability::ExtraDiscard, &mut bot);
    assert_eq!(events.iter().filter(|e| matches!(e, Event::Discard { .. })).count(), 2);
    let (_, events) = run(&mut t, Ability::Peek, &mut Script { keep: false, ..Script::default() });
    // Blue 2 was drawn; blue 1 was on top and goes to the bottom of a one-card deck.
    assert!(events.contains(&Event::Peek { seat: 0, card: card(2, 1), kept: false }));
}

#[test]
fn classic_draws_until_a_card_matches_and_has_no_play_step() {
    let rules = Rules { classic: true, ..Rules::default() };
    let (pool, mut t) = turn_setup(&rules);
    // Top red 5; hand green 7; deck (top last): red 2 under blue 3 under green 9.
    t.set_side(&pool, 0, &[card(0, 2), card(2, 3), card(3, 9)], bit(card(3, 7)), card(0, 5), None);
    let mut bot = Script::default();
    bot.play.push_back(Some(card(3, 7)));
    bot.discard.push_back(Some((card(0, 2), 0)));
    let mut events = Vec::new();
    turn(&rules, &pool, &mut t, &mut bot, &mut events).unwrap();
    let draws = events.iter().filter(|e| matches!(e, Event::Draw { .. })).count();
    assert_eq!(draws, 3);
    assert!(!events.iter().any(|e| matches!(e, Event::Play { .. })));
    assert_eq!(t.side(0).1, card(0, 2));
}

#[test]
fn check_is_clean_on_a_million_default_matches() {
    let g = game(&["value", "colour"]);
    let seats = vec!["value".to_string(), "colour".to_string()];
    let plan =
        Plan { seed: 11, rounds: 1_000_000, rotate: true, shard: None, until_ci: None, cards: false, first_deal: 0 };
    let report = draftsim::sim::check(&g, &Lineup::new(&seats), &plan, None, |_, _| Ok(())).unwrap();
    assert!(report.violation.is_none(), "{:?}", report.violation);
    assert_eq!(report.rounds, 1_000_000);
}

/// Card analytics on the Winston draft: every card of the stack is taken once; `first`
/// takes every pile it looks at, so against itself each card it sees it takes (take rate
/// 1, nothing passed); and a card in hand is a card in the built deck.
#[test]
fn card_analytics_count_every_take_and_first_takes_all_it_sees() {
    let rules = Rules::default();
    let kept = (Pool::new(&rules).size - rules.removed) as u64;
    for seats in [["first", "first"], ["value", "colour"]] {
        let seats: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
        let game = Winston::new(&rules, &seats).unwrap();
        let plan =
            Plan { seed: 8, rounds: 4_000, rotate: true, shard: None, until_ci: None, cards: true, first_deal: 0 };
        let t = draftsim::sim::run(&game, &Lineup::new(&seats), &plan, draftsim::sim::Mode::Tally, None, |_, _| Ok(()))
            .unwrap();
        let strategies = Lineup::new(&seats).strategies.len();
        let cards = game.measures().cards.as_ref().unwrap().names.len();
        let cells = (0..strategies).flat_map(|x| (0..cards).map(move |c| (x, c)));
        let taken: u64 = cells.clone().map(|(x, c)| t.card(x, c).taken).sum();
        assert_eq!(taken, t.rounds * kept, "every card of the stack is drafted once");
        let in_hand: u64 = cells.clone().map(|(x, c)| t.card(x, c).in_hand).sum();
        assert!(in_hand <= t.rounds * 2 * rules.deck_size as u64 && in_hand > t.rounds * 40, "{in_hand}");
        for (x, c) in cells {
            let k = t.card(x, c);
            assert!(k.taken <= k.seen_picks, "blind takes are logged as seen: {k:?}");
            if seats[0] == "first" {
                assert_eq!((k.taken, k.passed), (k.seen_picks, 0), "first takes every card it sees");
            }
        }
    }
    let catalog = game(&["first", "first"]).measures().cards.clone().unwrap();
    assert!(catalog.names.contains(&"red 8".to_string()) && catalog.groups.len() == 3, "{:?}", catalog.names);
}

/// A scripted draft that also returns what it recorded.
fn scripted_draft_out(rules: &Rules, stack: &[u8], scripts: [Script; 2]) -> (Vec<Event>, RoundResult) {
    let pool = Pool::new(rules);
    let mut t = State::verified();
    t.set_stack(stack, pool.all & !set(stack));
    let mut bots = scripts;
    let mut events = Vec::new();
    let mut out = RoundResult::default();
    engine::testing::draft(
        &variant(rules, &pool),
        &mut t,
        &mut bots,
        &[0, 1],
        &mut draftsim::sim::SeatRngs::new(0, 2),
        &mut events,
        &mut out,
    )
    .unwrap();
    (events, out)
}

#[test]
fn taking_the_last_pile_by_choice_is_not_forced_and_a_denial_counts() {
    let rules = Rules::default();
    let pool = Pool::new(&rules);
    // Piles 1, 2, 3 and an empty stack: seat 0 passes two piles, then takes the last one
    // by choice, to deny it.
    let mut a = Script::default();
    a.draft.extend([DraftChoice::Pass, DraftChoice::Pass, DraftChoice::Take { deny: true }]);
    let (events, out) = scripted_draft_out(&rules, &[3, 2, 1], [a, Script::default()]);
    let take = Event::Take { seat: 0, pile: 2, cards: bit(3), deny: true, forced: false };
    assert!(events.contains(&take), "{events:?}");
    assert_eq!(out.seats[0].sums[measures::HATE_TAKES], 1, "the denial is a hate take");
    let text = tell(&pool, &["a", "b"], &events, Some(&out));
    assert!(text.contains("takes pile 3 (1 card), mainly to deny it\n"), "{text}");
    // Seat 1 then passes its last pile: that, and only that, is forced.
    assert!(events.contains(&Event::Take { seat: 1, pile: 1, cards: bit(2), deny: false, forced: true }));
    assert!(tell(&pool, &["a", "b"], &events, Some(&out)).contains("seat 1 (b) takes pile 2 (1 card), as it must"));
    // Taking the last pile without a denial is not forced either.
    let mut a = Script::default();
    a.draft.extend([DraftChoice::Pass, DraftChoice::Pass, DraftChoice::Take { deny: false }]);
    let (events, out) = scripted_draft_out(&rules, &[3, 2, 1], [a, Script::default()]);
    assert!(events.contains(&Event::Take { seat: 0, pile: 2, cards: bit(3), deny: false, forced: false }));
    assert_eq!(out.seats[0].sums[measures::HATE_TAKES], 0);
}

/// What the engine's rules say, written out again: who starts a later game.
fn expected_later_starter(rule: LaterStarter, starter: usize, winner: Option<usize>) -> usize {
    match (rule, winner) {
        (_, None) => 1 - starter,
        (LaterStarter::Loser, Some(w)) => 1 - w,
        (LaterStarter::Winner, Some(w)) => w,
        (LaterStarter::Alternate, Some(_)) => 1 - starter,
    }
}

/// Replays a match's games from its events with the rules of play written out here, and
/// checks each game against them: the opening deal (`hand_size` cards, then one face up),
/// every draw, reshuffle and discard, and that a game ends exactly when a hand empties.
/// Returns each game's (starter, winner) and how many openings turned up an eight.
fn replay_games(
    rules: &Rules,
    pool: &Pool,
    decks: [Cards; 2],
    events: &[Event],
) -> (Vec<(usize, Option<usize>)>, usize) {
    let mut games: Vec<(usize, Option<usize>)> = Vec::new();
    let mut hands = [0 as Cards; 2];
    let mut deck_left = [0usize; 2];
    // What the next discard must match: colours (all when nothing is face up) and rank.
    let mut need = [(0u8, 0u8); 2];
    let mut opened = 0;
    let mut eight_tops = 0;
    for (i, e) in events.iter().enumerate() {
        match *e {
            Event::GameStart { game, starter } => {
                assert_eq!(game, games.len());
                games.push((starter, None));
                opened = 0;
            }
            Event::Opening { seat, hand, top } => {
                let deck = count(decks[seat]);
                assert_eq!(count(hand), deck.min(rules.hand_size), "the opening hand");
                assert_eq!(hand & !decks[seat], 0);
                if deck > rules.hand_size {
                    assert!(top != engine::NO_CARD && decks[seat] & !hand & bit(top) != 0, "one card face up");
                    need[seat] = (pool.colours[usize::from(top)], pool.rank[usize::from(top)]);
                    eight_tops += usize::from(pool.eights & bit(top) != 0);
                } else {
                    assert_eq!(top, engine::NO_CARD);
                    need[seat] = (u8::MAX, 0);
                }
                hands[seat] = hand;
                deck_left[seat] = deck - count(hand) - usize::from(top != engine::NO_CARD);
                opened += 1;
            }
            Event::Reshuffle { seat, cards } => {
                assert_eq!(deck_left[seat], 0, "a deck is reshuffled only when empty");
                deck_left[seat] = cards;
            }
            Event::Draw { seat, card } => {
                assert!(deck_left[seat] > 0 && hands[seat] & bit(card) == 0 && decks[seat] & bit(card) != 0);
                deck_left[seat] -= 1;
                hands[seat] |= bit(card);
            }
            Event::Play { seat, card } => {
                assert_ne!(hands[seat] & bit(card), 0);
                hands[seat] &= !bit(card);
            }
            Event::Discard { seat, card, named } => {
                assert_ne!(hands[seat] & bit(card), 0);
                let c = usize::from(card);
                let wild = pool.wild & bit(card) != 0;
                let (colours, rank) = need[seat];
                assert!(wild || pool.colours[c] & colours != 0 || pool.rank[c] == rank, "{e:?} on {:?}", need[seat]);
                assert_eq!(named.is_some(), wild);
                need[seat] = match named {
                    Some(colour) => (1 << colour, 0),
                    None => (pool.colours[c], pool.rank[c]),
                };
                hands[seat] &= !bit(card);
            }
            Event::GameEnd { winner, .. } => {
                games.last_mut().unwrap().1 = winner;
                match winner {
                    Some(w) => assert!(hands[w] == 0 && hands[1 - w] != 0, "the winner alone has emptied its hand"),
                    None => assert!(hands[0] != 0 && hands[1] != 0),
                }
                opened = 0;
            }
            _ => {}
        }
        if opened == 2 && hands.contains(&0) {
            let s = usize::from(hands[1] == 0);
            let next = events.get(i + 1);
            assert!(
                matches!(next, Some(Event::GameEnd { winner: Some(w), .. }) if *w == s),
                "the game ends as soon as a hand empties, not with {next:?}"
            );
        }
    }
    (games, eight_tops)
}

fn preset_bots(seats: &[&str]) -> Vec<draftsim::games::winston::WinstonBot> {
    seats.iter().map(|s| winston::Def::load_preset(s).unwrap().bot(s)).collect()
}

fn decks_of(events: &[Event]) -> [Cards; 2] {
    let mut decks = [0; 2];
    for e in events {
        if let Event::Deck { seat, cards, .. } = *e {
            decks[seat] = cards;
        }
    }
    decks
}

#[test]
fn games_open_with_seven_and_one_face_up_and_end_when_a_hand_empties() {
    let rules = Rules::default();
    let pool = Pool::new(&rules);
    let mut eight_tops = 0;
    for seats in [["value", "colour"], ["random", "hate"]] {
        let mut bots = preset_bots(&seats);
        let mut t = State::verified();
        for seed in 0..300 {
            let mut events = Vec::new();
            let mut out = RoundResult::default();
            draftsim::search::play_with(
                &variant(&rules, &pool),
                &mut t,
                [0, 1].len(),
                UnitSeeds::new(seed, seed),
                &mut events,
                &mut out,
                |t, s, rng| t.ask_bot(&variant(&rules, &pool), &mut bots[[0, 1][s]], rng),
            )
            .unwrap();
            let (games, eights) = replay_games(&rules, &pool, decks_of(&events), &events);
            eight_tops += eights;
            assert_eq!(games.len(), 1);
            assert!(games[0].1.is_some(), "no default game reaches the turn cap");
        }
    }
    assert!(eight_tops > 20, "openings turning up an eight were met: {eight_tops}");
    // Scripted: top red 5, hand red 9, deck red 2. Drawing red 2, playing red 9 and
    // discarding red 2 empties the hand: the seat wins.
    let (pool, mut t) = turn_setup(&rules);
    t.set_side(&pool, 0, &[card(0, 2)], bit(card(0, 9)), card(0, 5), None);
    let mut bot = Script::default();
    bot.play.push_back(Some(card(0, 9)));
    let (won, _) = turn(&rules, &pool, &mut t, &mut bot, &mut Vec::new()).unwrap();
    assert!(won);
    // With nothing to draw, playing the last card wins before any discard.
    t.set_side(&pool, 0, &[], bit(card(0, 9)), card(0, 5), None);
    let mut events = Vec::new();
    let (won, _) = turn(&rules, &pool, &mut t, &mut Script::default(), &mut events).unwrap();
    assert!(won && events == [Event::Play { seat: 0, card: card(0, 9) }], "{events:?}");
}

#[test]
fn each_starter_and_later_starter_and_a_best_of_3_stops_at_two_wins() {
    let pool = Pool::new(&Rules::default());
    for starter in [Starter::SecondDrafter, Starter::FirstDrafter, Starter::Random] {
        for later_starter in [LaterStarter::Loser, LaterStarter::Winner, LaterStarter::Alternate] {
            // A low turn cap draws some games, so the rule after a drawn game is met too.
            for max_turns in [300, 14] {
                let rules = Rules { games: 3, starter, later_starter, max_turns, ..Rules::default() };
                let mut bots = preset_bots(&["value", "forge"]);
                let mut t = State::verified();
                let (mut first_starts, mut draws, mut third_games) = ([0; 2], 0, 0);
                for seed in 0..200 {
                    let mut events = Vec::new();
                    let mut out = RoundResult::default();
                    draftsim::search::play_with(
                        &variant(&rules, &pool),
                        &mut t,
                        [0, 1].len(),
                        UnitSeeds::new(seed, seed),
                        &mut events,
                        &mut out,
                        |t, s, rng| t.ask_bot(&variant(&rules, &pool), &mut bots[[0, 1][s]], rng),
                    )
                    .unwrap();
                    let (games, _) = replay_games(&rules, &pool, decks_of(&events), &events);
                    let first = games[0].0;
                    match starter {
                        Starter::SecondDrafter => assert_eq!(first, 1),
                        Starter::FirstDrafter => assert_eq!(first, 0),
                        Starter::Random => {}
                    }
                    first_starts[first] += 1;
                    assert_eq!(out.seats[first].counters[measures::PLAYED_FIRST], 1);
                    let mut wins = [0; 2];
                    for (g, &(s, winner)) in games.iter().enumerate() {
                        assert!(wins[0] < 2 && wins[1] < 2, "no game after two wins: {games:?}");
                        if g > 0 {
                            let (prev, prev_winner) = games[g - 1];
                            assert_eq!(s, expected_later_starter(later_starter, prev, prev_winner), "{games:?}");
                        }
                        match winner {
                            Some(w) => wins[w] += 1,
                            None => draws += 1,
                        }
                    }
                    assert!(wins.contains(&2) || games.len() == 3, "the match stops only at two wins: {games:?}");
                    third_games += usize::from(games.len() == 3);
                    let score = i64::from(wins[0] > wins[1]) - i64::from(wins[0] < wins[1]);
                    assert_eq!((out.seats[0].score, out.seats[1].score), (score, -score), "{games:?}");
                }
                assert!(third_games > 0, "three-game matches are met");
                if max_turns < 300 {
                    assert!(draws > 0, "some games are drawn at a cap of {max_turns}");
                } else {
                    assert!(third_games < 200, "matches stopping after two games are met");
                }
                if starter == Starter::Random {
                    assert!(first_starts[0] > 60 && first_starts[1] > 60, "{first_starts:?}");
                }
            }
        }
    }
    // A random starter is drawn from the deal, not the bots.
    let rules = Rules { starter: Starter::Random, ..Rules::default() };
    for seed in 0..50 {
        let starts: Vec<usize> = [["value", "hate"], ["random", "first"]]
            .iter()
            .map(|seats| {
                let mut events = Vec::new();
                let mut bots = preset_bots(seats);
                draftsim::search::play_with(
                    &variant(&rules, &pool),
                    &mut State::verified(),
                    [0, 1].len(),
                    UnitSeeds::new(seed, seed * 7 + 1),
                    &mut events,
                    &mut RoundResult::default(),
                    |t, s, rng| t.ask_bot(&variant(&rules, &pool), &mut bots[[0, 1][s]], rng),
                )
                .unwrap();
                events
                    .iter()
                    .find_map(|e| if let Event::GameStart { starter, .. } = *e { Some(starter) } else { None })
                    .unwrap()
            })
            .collect();
        assert_eq!(starts[0], starts[1]);
    }
}

#[test]
fn a_multicoloured_top_matches_through_either_colour_and_a_starting_eight_through_its_own() {
    let rules = Rules::default();
    let (pool, mut t) = turn_setup(&rules);
    // Expansion cards: 52 is red/purple 1, 53 purple/blue 2, 54 blue/green 3, 56 red/blue 5.
    assert_eq!(
        [pool.colours[52], pool.colours[53], pool.colours[54], pool.colours[56]],
        [0b0011, 0b0110, 0b1100, 0b0101]
    );
    let plain_top = |t: &mut State, top: u8, hand: Cards, named: Option<usize>| {
        // Green 10 is drawn and played; the discard's choices are kept.
        t.set_side(&pool, 0, &[card(3, 10)], hand, top, named);
        let mut bot = Script::default();
        bot.play.push_back(Some(card(3, 10)));
        turn(&rules, &pool, t, &mut bot, &mut Vec::new()).unwrap();
        bot.playable[0]
    };
    // A red/purple top: red 5 matches through red, purple 6 through purple.
    let hand = set(&[card(0, 5), card(1, 6), card(2, 7), card(3, 9)]);
    assert_eq!(plain_top(&mut t, 52, hand, None), set(&[card(0, 5), card(1, 6)]));
    // A blue top: multicoloured cards match through their first or their second colour.
    let hand = set(&[52, 53, 54, 56, card(3, 9)]);
    assert_eq!(plain_top(&mut t, card(2, 11), hand, None), set(&[53, 54, 56]));
    // A red eight turned up to start the pile names no colour: red and the wild cards match.
    let hand = set(&[card(0, 3), card(2, 8), card(2, 3), card(3, 9)]);
    assert_eq!(plain_top(&mut t, card(0, 8), hand, None), set(&[card(0, 3), card(2, 8)]));
    // Without wild eights, the blue eight still matches it by rank.
    let plain = Rules { eights_wild: false, ..Rules::default() };
    let pool_plain = Pool::new(&plain);
    t.set_side(&pool_plain, 0, &[card(3, 10)], hand, card(0, 8), None);
    let mut bot = Script::default();
    bot.play.push_back(Some(card(3, 10)));
    turn(&plain, &pool_plain, &mut t, &mut bot, &mut Vec::new()).unwrap();
    assert_eq!(bot.playable[0], set(&[card(0, 3), card(2, 8)]));
}

#[test]
fn shares_colour_and_always_differ_on_an_off_colour_multicoloured_card() {
    let rules = Rules { max_colours: 1, deck_size: 15, ..Rules::default() };
    let pool = Pool::new(&rules);
    let red: Cards = (1..=13).fold(0, |m, r| m | bit(card(0, r)));
    // Red, with purple/blue 2 (53) and blue/green 3 (54): neither shares red.
    let own = red | bit(53) | bit(54);
    assert_eq!(pool.usable(&rules, own, 0b0001), own);
    let shares = Rules { multicolour: Multicolour::SharesColour, ..rules.clone() };
    assert_eq!(pool.usable(&shares, own, 0b0001), red);
    assert_eq!(pool.usable(&shares, own, 0b0100), bit(53) | bit(54), "blue is shared by both");
    let mut rng = <BotRng as rand::SeedableRng>::seed_from_u64(0);
    for preset in ["value", "forge"] {
        let mut bot = winston::Def::load_preset(preset).unwrap().bot(preset);
        let (colours, deck) = bot.build(&BuildView { rules: &rules, pool: &pool, own }, &mut rng);
        assert_eq!((colours, deck), (0b0001, own), "always: the full 15 with both multicoloured cards");
        let (colours, deck) = bot.build(&BuildView { rules: &shares, pool: &pool, own }, &mut rng);
        assert_eq!((colours, deck), (0b0001, red), "shares-colour: 13 red cards, a short deck");
    }
}

#[test]
fn builders_leave_out_a_colour_that_adds_nothing_to_their_score() {
    let rules = Rules { deck_size: 20, ..Rules::default() };
    let pool = Pool::new(&rules);
    let colour = |c: u8, ranks: &[u8]| ranks.iter().fold(0, |m, &r| m | bit(card(c, r)));
    let all: Vec<u8> = (1..=13).collect();
    let mut rng = <BotRng as rand::SeedableRng>::seed_from_u64(0);
    let mut build = |rules: &Rules, own: Cards, preset: &str| {
        winston::Def::load_preset(preset).unwrap().bot(preset).build(&BuildView { rules, pool: &pool, own }, &mut rng)
    };
    // Only red and purple drafted: a third colour adds no card, so it is not chosen.
    let red_purple = colour(0, &all) | colour(1, &all);
    for preset in ["value", "forge"] {
        let (colours, deck) = build(&rules, red_purple, preset);
        assert_eq!((colours, count(deck)), (0b0011, 20), "{preset}");
    }
    // Purple and blue, and red 2 to 4: three colours are worth no more to `quality` (the
    // red cards are plain), and the two-colour deck is more consistent; `best-colours`
    // takes red for its three more usable cards, as its score says.
    let purple_blue = colour(1, &all) | colour(2, &all);
    let own = purple_blue | colour(0, &[2, 3, 4]);
    let (colours, deck) = build(&rules, own, "value");
    assert_eq!((colours, count(deck), deck & !purple_blue), (0b0110, 20, 0));
    let (colours, _) = build(&rules, own, "forge");
    assert_eq!(colours, 0b0111);
    // Red alone is worth as much to `quality` as red and purple for a 13-card deck.
    let small = Rules { deck_size: 13, ..rules.clone() };
    let own = colour(0, &all) | colour(1, &[1, 2, 3, 4, 5]);
    assert_eq!(build(&small, own, "value"), (0b0001, colour(0, &all)));
    assert_eq!(build(&small, own, "forge").0, 0b0011, "purple adds usable cards, a third colour none");
    // Two colours cannot fill 30 cards: both take a third.
    let full = Rules { deck_size: 30, ..rules.clone() };
    for preset in ["value", "forge"] {
        let (colours, deck) = build(&full, red_purple | colour(2, &all), preset);
        assert_eq!((colours, count(deck)), (0b0111, 30), "{preset}");
    }
}

#[test]
fn decks_hold_exactly_deck_size_cards_or_every_usable_card() {
    let mut short_seen = 0;
    for deck_size in [1, 7, 20, 30, 45, 60] {
        for max_colours in 1..=4 {
            for multicolour in [Multicolour::Always, Multicolour::SharesColour] {
                let rules = Rules { deck_size, max_colours, multicolour, ..Rules::default() };
                let pool = Pool::new(&rules);
                // Seat 0 builds by `best-colours`, seat 1 by `quality`.
                let mut bots = preset_bots(&["forge", "colour"]);
                let mut t = State::verified();
                for seed in 0..6 {
                    let mut events = Vec::new();
                    let mut out = RoundResult::default();
                    draftsim::search::play_with(
                        &variant(&rules, &pool),
                        &mut t,
                        [0, 1].len(),
                        UnitSeeds::new(seed, seed),
                        &mut events,
                        &mut out,
                        |t, s, rng| t.ask_bot(&variant(&rules, &pool), &mut bots[[0, 1][s]], rng),
                    )
                    .unwrap();
                    for e in &events {
                        let Event::Deck { seat, colours, cards, short } = *e else { continue };
                        let own = t.pool(seat);
                        let usable = pool.usable(&rules, own, colours);
                        assert!(colours.count_ones() as usize <= max_colours && cards & !usable == 0);
                        assert_eq!(out.seats[seat].sums[measures::DECK_SIZE], count(cards) as i64);
                        if short {
                            short_seen += 1;
                            assert_eq!(cards, usable, "a short deck is every usable card");
                            if seat == 1 {
                                // `quality` may prefer a short deck worth more.
                                continue;
                            }
                            let fills = (1u8..16).any(|c| {
                                c.count_ones() as usize <= max_colours
                                    && count(pool.usable(&rules, own, c)) >= deck_size
                            });
                            assert!(!fills, "a short deck although some colours fill {deck_size} cards");
                        } else {
                            assert_eq!(count(cards), deck_size);
                        }
                    }
                }
            }
        }
    }
    assert!(short_seen > 0);
}

#[test]
fn a_match_drawn_at_the_turn_cap_scores_zero() {
    // Two turns cannot empty a hand of 7: every game reaches the cap.
    for games in [1, 3] {
        let rules = Rules { max_turns: 2, games, ..Rules::default() };
        let pool = Pool::new(&rules);
        let mut bots = preset_bots(&["value", "hate"]);
        let mut t = State::verified();
        for seed in 0..40 {
            let mut events = Vec::new();
            let mut out = RoundResult::default();
            draftsim::search::play_with(
                &variant(&rules, &pool),
                &mut t,
                [0, 1].len(),
                UnitSeeds::new(seed, seed),
                &mut events,
                &mut out,
                |t, s, rng| t.ask_bot(&variant(&rules, &pool), &mut bots[[0, 1][s]], rng),
            )
            .unwrap();
            let ends: Vec<&Event> = events.iter().filter(|e| matches!(e, Event::GameEnd { .. })).collect();
            assert_eq!(ends.len(), games);
            assert!(ends.iter().all(|e| **e == Event::GameEnd { winner: None, turns: 2 }), "{ends:?}");
            for s in 0..2 {
                let r = &out.seats[s];
                assert_eq!((r.score, r.share_units, r.counters[measures::DRAWN]), (0, 0, 1));
            }
            assert_eq!(out.length, 2 * games as u32);
        }
    }
}

#[test]
fn deals_do_not_depend_on_the_bots() {
    let rules = Rules { games: 3, ..Rules::default() };
    let pool = Pool::new(&rules);
    // `first` with random play: the same draft and decks as `first`, other plays.
    let first_random = Preset::from_toml(
        "description = \"x\"\n[draft]\nmodule = \"first\"\n[build]\nmodule = \"best-colours\"\n[play]\nmodule = \"random\"\n",
    )
    .unwrap();
    let run = |bots: &mut Vec<draftsim::games::winston::WinstonBot>, deal: u64, bot_seed: u64| {
        let mut t = State::verified();
        let mut events = Vec::new();
        draftsim::search::play_with(
            &variant(&rules, &pool),
            &mut t,
            [0, 1].len(),
            UnitSeeds::new(deal, bot_seed),
            &mut events,
            &mut RoundResult::default(),
            |t, s, rng| t.ask_bot(&variant(&rules, &pool), &mut bots[[0, 1][s]], rng),
        )
        .unwrap();
        let openings: Vec<Event> = events.iter().filter(|e| matches!(e, Event::Opening { .. })).copied().collect();
        (t.dealt_stack().to_vec(), decks_of(&events), openings)
    };
    let mut differ = 0;
    for deal in 0..60 {
        let (stack, decks, openings) = run(&mut preset_bots(&["first", "first"]), deal, 1);
        assert_eq!(stack.len(), 84);
        assert_ne!(stack, run(&mut preset_bots(&["first", "first"]), deal + 1000, 1).0, "deals differ");
        for bots in [preset_bots(&["value", "hate"]), preset_bots(&["random", "colour"])] {
            let (other_stack, other_decks, _) = run(&mut bots.clone(), deal, deal * 3 + 5);
            assert_eq!(other_stack, stack, "the stack does not depend on the bots");
            differ += usize::from(other_decks != decks);
        }
        // The same decks, other plays and bot seeds: every game's deck order is the same.
        let mut random_play = vec![first_random.bot("a"), first_random.bot("b")];
        let (_, same_decks, other_openings) = run(&mut random_play, deal, deal + 99);
        assert_eq!(same_decks, decks);
        let shared = openings.len().min(other_openings.len());
        assert!(shared >= 4, "two games at least");
        assert_eq!(openings[..shared], other_openings[..shared]);
    }
    assert!(differ > 60, "other bots drafted other decks from the same stack");
}

/// The variant of these rules and their pool, as the engine's drivers take it.
/// One scripted turn of seat 0 (see [`engine::testing::scripted_turn`]).
fn turn(
    rules: &Rules,
    pool: &Pool,
    t: &mut State,
    bot: &mut Script,
    events: &mut Vec<Event>,
) -> Result<(bool, bool), draftsim::Error> {
    engine::testing::scripted_turn(&variant(rules, pool), t, bot, 0, events, &mut RoundResult::default())
}

fn variant(rules: &Rules, pool: &Pool) -> engine::Variant {
    engine::Variant { rules: rules.clone(), pool: pool.clone() }
}
