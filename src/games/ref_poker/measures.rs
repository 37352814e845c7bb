//! What the reference poker games measure: showdowns, folds, showdown wins and raises.

use crate::sim::{Measure, Measures, Shown};

/// Counter: the seat's card was shown at the showdown.
pub const SHOWDOWNS: usize = 0;
/// Counter: the seat folded.
pub const FOLDS: usize = 1;
/// Counter: the seat won (part of) the pot at the showdown.
pub const SHOWDOWN_WINS: usize = 2;
/// Sum: raises the seat made.
pub const RAISES: usize = 0;

/// The declaration for these rules.
pub fn measures<F: super::Flavour>(rules: &super::Rules<F>) -> Measures {
    Measures {
        score: crate::games::chips_score("net chips won per hand", Some(rules.most_staked()), rules.players),
        unit: "hand".into(),
        length: "one hand a unit".into(),
        first_seat: "seat 0 opens every betting round".into(),
        always_won: true,
        measures: vec![
            Measure::rate(SHOWDOWNS, "showdowns", "showdown_rate", Shown::Both, "share of seat-hands shown down"),
            Measure::rate(FOLDS, "folds", "fold_rate", Shown::Both, "share of seat-hands folded"),
            Measure::rate(
                SHOWDOWN_WINS,
                "showdown_wins",
                "showdown_win_rate",
                Shown::Hidden,
                "share of seat-hands that won (part of) the pot at the showdown",
            ),
            Measure::mean(
                RAISES,
                "raises",
                "mean_raises",
                Shown::Both,
                "bets and raises per seat and hand (a round's first bet counts as one)",
            ),
        ],
        histograms: Vec::new(),
        cards: None,
    }
}
