//! Simulation throughput on one core: Seven Card Draft rounds per second for 4 `random`
//! seats and for the default mix, decisions per second of each bot module, Sevens hands
//! per second with four fixed bots, and Seven Poker games and rounds per second; Seven
//! Card Draft again with card analytics on (`--cards`).
//!
//! Run: `cargo bench --bench sim`.

use divan::{Bencher, black_box, counter::ItemsCount};
use draftsim::cards::CardSet;
use draftsim::games::GamePreset;
use draftsim::games::contest::GameDef;
use draftsim::games::seven_card_draft;
use draftsim::games::seven_card_draft::view::{BetOptions, Bot, BotRng, PackMemory, SeatView};
use draftsim::games::seven_card_draft::{Rules, SevenCardDraft};
use draftsim::sim::{self, Game, Lineup, Plan};
use rand::SeedableRng;

const ROUNDS: u64 = 20_000;

fn main() {
    divan::main();
}

/// Times `rounds` rounds of `game` on one thread, a new seed each sample.
fn rounds_per_second<G: Game>(bencher: Bencher, game: &G, seats: &[String], rounds: u64) {
    rounds_per_second_with(bencher, game, seats, rounds, false);
}

/// As [`rounds_per_second`], with card analytics on or off.
fn rounds_per_second_with<G: Game>(bencher: Bencher, game: &G, seats: &[String], rounds: u64, cards: bool) {
    let lineup = Lineup::new(seats);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let mut seed = 0;
    bencher.counter(ItemsCount::new(rounds)).bench_local(|| {
        seed += 1;
        let plan = Plan { seed, rounds, rotate: true, shard: None, until_ci: None, cards, first_deal: 0 };
        pool.install(|| sim::run(game, &lineup, &plan, sim::Mode::Tally, None, |_, _| Ok(())).unwrap())
    });
}

fn seven_card_draft_rounds(bencher: Bencher, seats: &[&str]) {
    let seats: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
    let game = SevenCardDraft::new(&Rules::default(), &seats).unwrap();
    rounds_per_second(bencher, &game, &seats, ROUNDS);
}

/// Four `random` seats (random picks, calling station).
#[divan::bench(sample_count = 20)]
fn rounds_random_4_seats(bencher: Bencher) {
    seven_card_draft_rounds(bencher, &["random", "random", "random", "random"]);
}

/// The default mix of `draftsim run`: greedy, hate, tight, random.
#[divan::bench(sample_count = 20)]
fn rounds_default_mix(bencher: Bencher) {
    seven_card_draft_rounds(bencher, &["greedy", "hate", "tight", "random"]);
}

/// The default mix with card analytics on (`run --cards`): what the cards table costs.
#[divan::bench(sample_count = 20)]
fn rounds_default_mix_with_cards(bencher: Bencher) {
    let seats: Vec<String> = ["greedy", "hate", "tight", "random"].iter().map(|s| s.to_string()).collect();
    let game = SevenCardDraft::new(&Rules::default(), &seats).unwrap();
    rounds_per_second_with(bencher, &game, &seats, ROUNDS, true);
}

/// Four `random` seats with card analytics on.
#[divan::bench(sample_count = 20)]
fn rounds_random_4_seats_with_cards(bencher: Bencher) {
    let seats = vec!["random".to_string(); 4];
    let game = SevenCardDraft::new(&Rules::default(), &seats).unwrap();
    rounds_per_second_with(bencher, &game, &seats, ROUNDS, true);
}

/// Sevens hands per second with the bots exact, greedy, tight and random (the default mix
/// before it became tight, bluffer, greedy, random; kept for comparison).
#[divan::bench(sample_count = 20)]
fn sevens_hands_default_bots(bencher: Bencher) {
    let seats: Vec<String> = ["exact", "greedy", "tight", "random"].iter().map(|s| s.to_string()).collect();
    let game = draftsim::games::sevens::Sevens::new(&draftsim::games::sevens::Rules::default(), &seats).unwrap();
    rounds_per_second(bencher, &game, &seats, 4 * ROUNDS);
}

/// Seven Poker whole games per second with the default mix (adaptive, colour, rainbow,
/// bluffer); multiply by the mean game length for rounds per second.
#[divan::bench(sample_count = 20)]
fn seven_poker_games_default_mix(bencher: Bencher) {
    let seats: Vec<String> = ["adaptive", "colour", "rainbow", "bluffer"].iter().map(|s| s.to_string()).collect();
    let rules = draftsim::games::seven_poker::Rules::default();
    let game = draftsim::games::seven_poker::SevenPoker::new(&rules, &seats).unwrap();
    rounds_per_second(bencher, &game, &seats, ROUNDS / 4);
}

/// Seven Poker single rounds (`unit = "round"`) per second with the default mix.
#[divan::bench(sample_count = 20)]
fn seven_poker_rounds_default_mix(bencher: Bencher) {
    use draftsim::games::seven_poker::rules::{Rules, Unit};
    let seats: Vec<String> = ["adaptive", "colour", "rainbow", "bluffer"].iter().map(|s| s.to_string()).collect();
    let rules = Rules { unit: Unit::Round, ..Rules::default() };
    let game = draftsim::games::seven_poker::SevenPoker::new(&rules, &seats).unwrap();
    rounds_per_second(bencher, &game, &seats, ROUNDS);
}

/// Winston + Crazier Eights whole matches (draft, build, one game) per second with the
/// default mix (value, colour).
#[divan::bench(sample_count = 20)]
fn winston_matches_default_mix(bencher: Bencher) {
    let seats: Vec<String> = ["value", "colour"].iter().map(|s| s.to_string()).collect();
    let rules = draftsim::games::winston::Rules::default();
    let game = draftsim::games::winston::Winston::new(&rules, &seats).unwrap();
    rounds_per_second(bencher, &game, &seats, ROUNDS / 8);
}

/// Live-Draft whole games per second with the default mix (best-card, curve), tableau.
#[divan::bench(sample_count = 20)]
fn live_draft_games_default_mix(bencher: Bencher) {
    let seats: Vec<String> = ["best-card", "curve"].iter().map(|s| s.to_string()).collect();
    let rules = draftsim::games::live_draft::Rules::default();
    let game = draftsim::games::live_draft::LiveDraft::new(&rules, &seats).unwrap();
    rounds_per_second(bencher, &game, &seats, ROUNDS / 8);
}

fn set(text: &str) -> CardSet {
    CardSet::parse_list(text).unwrap().into_iter().collect()
}

/// A 4-seat view for seat 0 with the given own cards, pack and betting options.
fn bench_view<'a>(
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
        players: 4,
        direction: 1,
        pick,
        hand: set(hand),
        own_face_up: face_up[0],
        last_pick: None,
        face_up,
        folded: &[false; 4],
        pack: set(pack),
        seen: set(pack),
        memory: PackMemory::default(),
        pot: 8,
        stacks: &[97; 4],
        committed: &[3, 3, 1, 1],
        betting,
        history: &[],
    }
}

/// One pick decision (pick 4 of 7, a 4-card pack) by a fresh bot, for each draft module's preset.
#[divan::bench(args = ["random", "greedy", "hate", "wild-hunter"])]
fn pick_decisions(bencher: Bencher, preset: &str) {
    let rules =
        Rules { wild: draftsim::eval::WildRules::parse_names(["deuces-with-face"]).unwrap(), ..Rules::default() };
    let variant = rules.compile().unwrap();
    let face_up = [set("Kh 9c"), set("Js Ts"), set("4d 4c"), set("Ac 2h")];
    let view = bench_view(&variant, &face_up, "Kh 9c 8h 2s", "Qs 7h 3c 9s", 4, None);
    let preset_def = seven_card_draft::Def::load_preset(preset).unwrap();
    // A fresh bot each time, so its memo cache is cold: this times the decision itself.
    bencher
        .counter(ItemsCount::new(1u32))
        .with_inputs(|| (preset_def.bot(preset), BotRng::seed_from_u64(1)))
        .bench_local_values(|(mut bot, mut rng)| {
            let choice = bot.pick(black_box(&view), &mut rng);
            (bot, choice)
        });
}

/// One betting decision (final betting round, facing a bet) by a fresh bot, per betting module.
#[divan::bench(args = ["random", "tight", "loose-aggressive", "bluffer"])]
fn bet_decisions(bencher: Bencher, preset: &str) {
    let variant = Rules::default().compile().unwrap();
    let face_up = [set("Kh 9c"), set("Js Ts"), set("4d 4c"), set("Ac 2h")];
    let options = BetOptions { round: 2, to_call: 2, can_raise: true, min_raise: 2, max_raise: 2, raises: 1 };
    let view = bench_view(&variant, &face_up, "Kh 9c 8h 2s Qh 7h 3h", "", 7, Some(options));
    let preset_def = seven_card_draft::Def::load_preset(preset).unwrap();
    bencher
        .counter(ItemsCount::new(1u32))
        .with_inputs(|| (preset_def.bot(preset), BotRng::seed_from_u64(1)))
        .bench_local_values(|(mut bot, mut rng)| {
            let action = bot.bet(black_box(&view), &mut rng);
            (bot, action)
        });
}
