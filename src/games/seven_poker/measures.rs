//! What Seven Poker measures. Counters count per round (rates per seat-round); the score is
//! the victory cards a seat holds at the end of the unit.

use super::cards::CATEGORY_NAMES;
use super::rules::{Rules, Unit};
use crate::sim::{Bins, Measure, Measures, Score, Shown};

/// Counter: the seat stayed.
pub const STAYS: usize = 0;
/// Counter: a stay whose shown cards suggested more than the hand held (cards of all
/// different colours from a hand without all seven).
pub const BLUFF_STAYS: usize = 1;
/// Counter: a bluff stay that won the round.
pub const BLUFF_WINS: usize = 2;
/// Counter: the seat won the round.
pub const ROUND_WINS: usize = 3;
/// Counter: a round won with all seven colours.
pub const SEVEN_COLOUR_WINS: usize = 4;
/// Counter: a round in which ties made every stayer lose (counted at every seat).
pub const TIE_OUTS: usize = 5;
/// Counter: the seat folded and kept cards, counted when the next round is played.
pub const KEPT_FOLDS: usize = 6;
/// Counter: a kept fold followed by a win in the next round.
pub const KEPT_FOLDS_PAID: usize = 7;
/// Counter: a round with nobody staying (counted at every seat).
pub const NOBODY_STAYS: usize = 8;
/// Counter: a round whose deck could not refill every hand (counted at every seat).
pub const SHORT_DEALS: usize = 9;
/// Sum: victory cards held at the end of the unit.
pub const VICTORY_CARDS: usize = 0;
/// Sum: cards exchanged.
pub const EXCHANGED: usize = 1;
/// Sum: a game that reached the round cap with no winner (1 at every seat).
pub const CAPPED: usize = 2;
/// Sum: a game ended by a deck too short to deal (`short_pile = "ends-game"`; 1 at every
/// seat).
pub const SHORT_ENDS: usize = 3;
/// Histogram offset: category of each hand at a showdown.
pub const SHOWDOWN: usize = 0;
/// Histogram offset: category of each winning hand.
pub const WINNING: usize = CATEGORY_NAMES.len();

/// The declaration for these rules.
pub fn measures(rules: &Rules) -> Measures {
    let categories = Bins::new("categories", "category", CATEGORY_NAMES).ranked();
    let unit = match rules.unit {
        Unit::Game => "game",
        Unit::Round => "round",
    };
    Measures {
        score: Score {
            key: "victory_cards".into(),
            column: "victory_cards_per_game".into(),
            pair_column: "victory_cards_diff_per_game".into(),
            description: "victory cards held at the end of the unit".into(),
            zero_sum: false,
            bounds: crate::stats::Bounds::at_least(0.0),
        },
        unit: unit.into(),
        length: "rounds per unit: a game's rounds (1 with unit = round)".into(),
        first_seat: match rules.unit {
            Unit::Game => "seat 0 plays first in the first round; the first player moves left each round",
            Unit::Round => "seat 0 plays first, at the dealer's left",
        }
        .into(),
        always_won: false,
        measures: vec![
            Measure::rate(STAYS, "stays", "stay_rate", Shown::Both, "share of seat-rounds that stayed in"),
            Measure::rate(ROUND_WINS, "round_wins", "round_win_rate", Shown::Both, "share of seat-rounds won"),
            Measure::rate_per(
                BLUFF_STAYS,
                STAYS,
                "bluff_stays",
                "bluff_stay_rate",
                Shown::Summary,
                "share of stays whose shown cards suggested more than the hand held (different colours without all seven)",
            ),
            Measure::rate_per(
                BLUFF_WINS,
                BLUFF_STAYS,
                "bluff_wins",
                "bluff_win_rate",
                Shown::Summary,
                "share of bluff stays that won the round",
            ),
            Measure::rate(
                SEVEN_COLOUR_WINS,
                "seven_colour_wins",
                "seven_colour_win_rate",
                Shown::Summary,
                "share of seat-rounds won with all seven colours",
            ),
            Measure::rate(
                TIE_OUTS,
                "tie_outs",
                "tie_out_rate",
                Shown::Summary,
                "share of rounds in which ties made every stayer lose",
            ),
            Measure::rate(
                NOBODY_STAYS,
                "nobody_stays",
                "nobody_stays_rate",
                Shown::Hidden,
                "share of rounds in which everyone folded",
            ),
            Measure::rate(
                KEPT_FOLDS,
                "kept_folds",
                "kept_fold_rate",
                Shown::Summary,
                "share of seat-rounds that follow a fold keeping cards (counted when the next round is played)",
            ),
            Measure::rate_per(
                KEPT_FOLDS_PAID,
                KEPT_FOLDS,
                "kept_folds_paid",
                "kept_fold_paid_rate",
                Shown::Summary,
                "share of kept folds followed by a win in the next round (fold to keep paid off)",
            ),
            Measure::mean(
                VICTORY_CARDS,
                "victory_cards_held",
                "mean_victory_cards",
                Shown::Hidden,
                "victory cards held at the end of the unit",
            )
            .in_score(),
            Measure::mean(
                EXCHANGED,
                "exchanged",
                "mean_cards_exchanged",
                Shown::Summary,
                "cards exchanged per seat and unit",
            ),
            Measure::rate(
                SHORT_DEALS,
                "short_deals",
                "short_deal_rate",
                Shown::Hidden,
                "share of rounds whose deck could not refill every hand",
            ),
            Measure::mean(
                SHORT_ENDS,
                "short_ends",
                "short_end_rate",
                Shown::Hidden,
                "share of units ended by a deck too short to deal (short_pile = ends-game)",
            ),
            Measure::mean(
                CAPPED,
                "capped",
                "capped_rate",
                Shown::Hidden,
                "share of units that reached the round cap with no winner",
            ),
        ],
        histograms: vec![
            categories.histogram("showdown_hands", SHOWDOWN, "category of each hand at a showdown"),
            categories.histogram("winning_hands", WINNING, "category of each hand that won at a showdown"),
        ],
        cards: None,
    }
}
