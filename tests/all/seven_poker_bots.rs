//! Seven Poker bots on hand-built views: what each preset does with a made seven-colour
//! hand, how a show of different colours is read, victory cards, and the bluff measure.

use draftsim::games::GamePreset;
use draftsim::games::contest::GameDef;
use draftsim::games::seven_poker;
use draftsim::games::seven_poker::Bot;
use draftsim::games::seven_poker::bots::{seven_colour_chance, suggested_strength};
use draftsim::games::seven_poker::cards::Layout;
use draftsim::games::seven_poker::engine::is_bluff;
use draftsim::games::seven_poker::rules::Rules;
use draftsim::games::seven_poker::{BotRng, SeatView, SevenPokerBot};
use rand::SeedableRng;

/// Cards by colour index and number, e.g. `cards(&[(0, 1), (0, 2)])`.
fn cards(list: &[(usize, usize)]) -> u64 {
    list.iter().fold(0, |m, &(c, n)| m | 1 << (c * 7 + n - 1))
}

/// Every card of colour `c` from number `from` to `to`.
fn run(c: usize, from: usize, to: usize) -> u64 {
    (from..=to).fold(0, |m, n| m | cards(&[(c, n)]))
}

/// One card of each colour (number 1).
fn seven_colours() -> u64 {
    (0..7).fold(0, |m, c| m | cards(&[(c, 1)]))
}

const LAYOUT: Layout = Layout { per: 7 };

fn bot(name: &str) -> SevenPokerBot {
    seven_poker::Def::load_preset(name).unwrap().bot(name)
}

fn rng() -> BotRng {
    BotRng::seed_from_u64(3)
}

/// A view for `seat` of four, first player seat 0, nothing shown or declared, a full pile.
fn view<'a>(rules: &'a Rules, seat: usize, hand: u64, victory: &'a [u8]) -> SeatView<'a> {
    SeatView {
        rules,
        layout: LAYOUT,
        seat,
        first: 0,
        hand,
        discards: 0,
        discarded: &[0; 4],
        hand_sizes: &[7; 4],
        removed: 0,
        shown: &[0; 4],
        declared: &[None; 4],
        victory,
        pile: 21,
        round: 0,
    }
}

#[test]
fn no_preset_breaks_a_made_seven_colour_hand() {
    let rules = Rules::default();
    let hand = seven_colours();
    let v = view(&rules, 0, hand, &[0; 4]);
    for name in ["pat", "colour", "rainbow", "bluffer", "fold-to-keep", "adaptive"] {
        let mut b = bot(name);
        assert_eq!(b.exchange(&v, &mut rng()), 0, "{name} discards from a made seven-colour hand");
        assert_eq!(b.swap_give(&v, &mut rng()), None, "{name} gives a card of its seven colours away");
        if name != "pat" {
            assert_eq!(b.keep(&v, &mut rng()), hand, "{name} keeps less than its seven colours");
        }
    }
}

/// Seat 0's six face-up discards: two each of red, orange and yellow.
fn six_discards() -> [u64; 4] {
    [run(0, 2, 3) | run(1, 2, 3) | run(2, 2, 3), 0, 0, 0]
}

/// Seat 0 stayed showing red, orange and yellow after discarding six cards (duplicates of
/// those colours): every card of the four colours it lacks may still be unseen. Seat 1
/// holds four green; seats 2 and 3 show three orange and three red.
fn three_colours_after_six_draws<'a>(
    rules: &'a Rules,
    shown: &'a [u64],
    declared: &'a [Option<bool>],
    discarded: &'a [u64; 4],
) -> SeatView<'a> {
    SeatView {
        discards: discarded[0],
        discarded,
        shown,
        declared,
        ..view(rules, 1, run(3, 4, 7) | cards(&[(0, 7), (1, 7), (2, 7)]), &[0; 4])
    }
}

#[test]
fn a_show_of_different_colours_may_mean_seven_colours() {
    let rules = Rules::default();
    let shown = [cards(&[(0, 1), (1, 1), (2, 1)]), 0, run(1, 4, 6), run(0, 4, 6)];
    let declared = [Some(true), None, None, Some(false)];
    let discarded = six_discards();
    let v = three_colours_after_six_draws(&rules, &shown, &declared, &discarded);
    // An ideal chaser drawing ten cards for its four hidden places from the 27 unseen
    // completes the rainbow with chance 0.709: the show weighs 3 + 5 x 0.709 = 6.5, above
    // four of a colour.
    assert!(!bot("colour").stay(&v, &mut rng()), "four green stay against a likely seven colours");
    // With every violet in sight seven colours are impossible: the show is weak.
    let seen_violets = run(6, 1, 7);
    let v = SeatView { discards: v.discards | seen_violets, ..v };
    assert!(bot("colour").stay(&v, &mut rng()), "four green fold to a show that cannot be seven colours");
}

#[test]
fn a_bluff_is_a_show_that_suggests_more_than_the_hand_holds() {
    let three_red_four_blue = run(0, 1, 3) | run(4, 1, 4);
    assert!(!is_bluff(LAYOUT, three_red_four_blue, run(0, 1, 3)), "three red from four blue suggest less");
    assert!(!is_bluff(LAYOUT, three_red_four_blue, run(4, 1, 3)));
    let three_colours = cards(&[(0, 1), (2, 1), (4, 1)]);
    let hand = run(0, 1, 3) | run(4, 1, 3) | cards(&[(2, 1)]);
    assert!(is_bluff(LAYOUT, hand, three_colours), "different colours from a hand without seven colours");
    assert!(!is_bluff(LAYOUT, seven_colours(), cards(&[(0, 1), (1, 1), (2, 1)])), "seven colours shown honestly");
    assert!(!is_bluff(LAYOUT, hand, cards(&[(0, 1), (0, 2), (4, 1)])), "two red and a blue suggest no more");
}

#[test]
fn colours_already_held_as_victory_cards_are_not_built() {
    let rules = Rules::default();
    // Four red, three blue; red is already a victory colour of this seat.
    let hand = run(0, 1, 4) | run(4, 1, 3);
    let victory = [1u8, 0, 0, 0];
    let discard = bot("colour").exchange(&view(&rules, 0, hand, &victory), &mut rng());
    assert_eq!(discard, run(0, 1, 3), "builds blue, which can still win a victory card");
    let discard = bot("colour").exchange(&view(&rules, 0, hand, &[0; 4]), &mut rng());
    assert_eq!(discard, run(4, 1, 3), "without the victory card red is the plan");
}

#[test]
fn a_one_colour_plan_keeps_only_its_colour() {
    let rules = Rules::default();
    // Three red and one card of four other colours: five colours, a red plan.
    let hand = run(0, 1, 3) | cards(&[(1, 1), (2, 1), (3, 1), (4, 1)]);
    let v = view(&rules, 0, hand, &[0; 4]);
    for name in ["colour", "bluffer", "fold-to-keep"] {
        assert_eq!(bot(name).keep(&v, &mut rng()), run(0, 1, 3), "{name}");
    }
    assert_eq!(bot("rainbow").keep(&v, &mut rng()), cards(&[(0, 1), (1, 1), (2, 1), (3, 1), (4, 1)]));
}

#[test]
fn an_opponent_one_card_from_winning_is_contested() {
    let rules = Rules::default();
    // Three of a colour is below the colour preset's four; seat 2 holds four victory colours
    // and has not declared yet.
    let hand = run(3, 1, 3) | cards(&[(0, 7), (1, 7), (2, 7), (4, 7)]);
    let declared = [None, None, None, Some(false)];
    let calm = SeatView { declared: &declared, ..view(&rules, 0, hand, &[0; 4]) };
    assert!(!bot("colour").stay(&calm, &mut rng()));
    let victory = [0u8, 0, 0b1111, 0];
    let threat = SeatView { victory: &victory, ..calm };
    assert!(bot("colour").stay(&threat, &mut rng()), "stays to stop seat 2 winning the game");
    // Seat 2 folded: no threat left.
    let declared = [None, None, Some(false), Some(false)];
    assert!(!bot("colour").stay(&SeatView { declared: &declared, ..threat }, &mut rng()));
}

#[test]
fn a_bot_one_card_from_the_target_stays_more_readily() {
    let rules = Rules::default();
    let hand = run(3, 1, 3) | cards(&[(0, 7), (1, 7), (2, 7), (4, 7)]);
    // Red, blue, indigo and violet held: green is new.
    let victory = [0b111_0001u8, 0, 0, 0];
    assert!(bot("colour").stay(&view(&rules, 0, hand, &victory), &mut rng()), "a green win ends the game");
    // Green already held: a win takes nothing, so nothing to hurry for.
    let victory = [0b0000_1111u8, 0, 0, 0];
    assert!(!bot("colour").stay(&view(&rules, 0, hand, &victory), &mut rng()));
}

/// The number of ways to take `draws` of the `unseen` cards (counts per colour) with at
/// least one of every colour in `missing`, over all ways: the chance by counting.
fn cover_chance(unseen: [u64; 7], missing: u8, draws: usize) -> f64 {
    fn choose(n: u64, k: u64) -> f64 {
        if k > n { 0.0 } else { (0..k).fold(1.0, |a, i| a * (n - i) as f64 / (i + 1) as f64) }
    }
    let mut ways = vec![0.0; draws + 1];
    ways[0] = 1.0;
    for (c, &available) in unseen.iter().enumerate() {
        let least = u64::from(missing >> c & 1);
        let mut next = vec![0.0; draws + 1];
        for (j, &w) in ways.iter().enumerate() {
            for k in least..=available {
                if j + k as usize <= draws {
                    next[j + k as usize] += w * choose(available, k);
                }
            }
        }
        ways = next;
    }
    ways[draws] / choose(unseen.iter().sum(), draws as u64)
}

#[test]
fn the_chance_of_seven_colours_counts_the_unseen_cards() {
    let rules = Rules::default();
    let shown = [cards(&[(0, 1), (1, 1), (2, 1)]), 0, run(1, 4, 6), run(0, 4, 6)];
    let declared = [Some(true), None, None, Some(false)];
    let discarded = six_discards();
    let v = three_colours_after_six_draws(&rules, &shown, &declared, &discarded);
    // Unseen: red 0, orange 0, yellow 3, green 3, blue 7, indigo 7, violet 7 (27 cards).
    let unseen = [0, 0, 3, 3, 7, 7, 7];
    let missing = 0b111_1000;
    let p = seven_colour_chance(&v, 0);
    assert!((p - cover_chance(unseen, missing, 10)).abs() < 1e-12, "{p}");
    assert!((p - 0.708_838_072_682_466).abs() < 1e-9);
    // No discards: its four hidden cards are one of each missing colour, 3 x 7^3 / C(27, 4).
    let none = [0; 4];
    let p = seven_colour_chance(&SeatView { discarded: &none, ..v }, 0);
    assert!((p - 3.0 * 343.0 / 17_550.0).abs() < 1e-12, "{p}");
    assert!((suggested_strength(&SeatView { discarded: &none, ..v }, 0) - (3.0 + 5.0 * p)).abs() < 1e-12);
    // Two cards of a colour shown, or a short hand: no seven colours.
    let shown_pair = [cards(&[(0, 1), (0, 2), (2, 1)]), 0, run(1, 4, 6), run(0, 4, 6)];
    assert_eq!(seven_colour_chance(&SeatView { shown: &shown_pair, ..v }, 0), 0.0);
    assert_eq!(seven_colour_chance(&SeatView { hand_sizes: &[6, 7, 7, 7], ..v }, 0), 0.0);
}

#[test]
fn a_winner_takes_the_scarcest_colours() {
    let rules = Rules::default();
    // Two blue and one violet are other seats' victory cards: blue, then violet are the
    // scarcest of the colours offered.
    let v = SeatView { removed: cards(&[(4, 7), (6, 7), (4, 6)]), ..view(&rules, 0, seven_colours(), &[0; 4]) };
    assert_eq!(bot("colour").victory_colours(&v, 0b111_1111, 2, &mut rng()), 0b101_0000);
    assert_eq!(bot("pat").victory_colours(&v, 0b111_1111, 2, &mut rng()), 0b11, "pat takes the lowest");
    assert_eq!(bot("colour").victory_colours(&v, 0b101_0001, 1, &mut rng()), 0b1_0000);
}
