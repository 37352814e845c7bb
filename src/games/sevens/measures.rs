//! What Sevens measures: showdowns, folds at the first and later turns, hands nobody
//! qualified for, suit tie-breaks, split pots, cards traded, and the final totals of
//! revealed and winning hands. With `carry-over`, counters count over the unit's hands and
//! their rates are per seat-hand.

use super::TOTALS;
use crate::sim::{Bins, Measure, Measures, Shown};

/// Counter: the seat's hand was revealed.
pub const SHOWDOWNS: usize = 0;
/// Counter: the seat folded at its first turn.
pub const FOLDS_FIRST: usize = 1;
/// Counter: the seat folded at a later turn.
pub const FOLDS_LATER: usize = 2;
/// Counter: a hand in which everyone still in was over 7.
pub const NOBODY_QUALIFIES: usize = 3;
/// Counter: a pot decided by the suit tie-break.
pub const SUIT_TIEBREAK: usize = 4;
/// Counter: a split pot.
pub const SPLIT: usize = 5;
/// Counter: the seat won (part of) a pot at the reveal.
pub const SHOWDOWN_WINS: usize = 6;
/// Sum: cards traded.
pub const CARDS_TRADED: usize = 0;
/// Histogram offset: final total of each revealed hand.
pub const REVEALED: usize = 0;
/// Histogram offset: final total of each hand that won at the reveal.
pub const WINNING: usize = TOTALS.len();

/// The declaration.
pub fn measures(rules: &super::Rules) -> Measures {
    let totals = Bins::new("totals", "total", TOTALS);
    // A hand costs at most the ante and every raise; a carry-over run repeats that for each
    // of its hands. Without a raise cap nothing bounds it.
    let carry = rules.all_over == super::rules::AllOver::CarryOver;
    let hands = if carry { rules.max_carry_hands } else { 1 };
    let stake = (rules.raise_cap > 0).then(|| hands * (rules.ante + rules.raise_size * rules.raise_cap));
    // With carry-over a unit is a pot's run of hands: named so, since every figure per unit
    // is per run, not per hand.
    let (score, unit, length) = if carry {
        (
            "net chips won per pot (a run of hands until one is won, or refunded after max_carry_hands)",
            "pot",
            "hands per pot",
        )
    } else {
        ("net chips won per hand", "hand", "hands per unit: 1")
    };
    Measures {
        score: crate::games::chips_score(score, stake, rules.players),
        unit: unit.into(),
        length: length.into(),
        first_seat: "seat 0 deals and plays last, play starting at seat 1".into(),
        always_won: false,
        measures: vec![
            Measure::rate(SHOWDOWNS, "showdowns", "showdown_rate", Shown::Both, "share of seat-hands revealed"),
            Measure::rate(
                FOLDS_FIRST,
                "folds_r1",
                "fold_rate_r1",
                Shown::Both,
                "share of seat-hands folded at the seat's first turn",
            ),
            Measure::rate(
                FOLDS_LATER,
                "folds_r2",
                "fold_rate_r2",
                Shown::Both,
                "share of seat-hands folded at a later turn",
            ),
            Measure::rate(
                NOBODY_QUALIFIES,
                "nobody_qualifies",
                "nobody_qualifies_rate",
                Shown::Summary,
                "share of hands in which everyone still in was over 7",
            ),
            Measure::mean(
                CARDS_TRADED,
                "cards_traded",
                "mean_cards_traded",
                Shown::Summary,
                "cards traded per seat and hand (per run of hands with carry-over)",
            ),
            Measure::rate(
                SUIT_TIEBREAK,
                "suit_tiebreaks",
                "suit_tiebreak_rate",
                Shown::Summary,
                "share of hands whose pot the suit tie-break decided",
            ),
            Measure::rate(SPLIT, "splits", "split_rate", Shown::Summary, "share of hands whose pot was split"),
            Measure::rate(
                SHOWDOWN_WINS,
                "showdown_wins",
                "showdown_win_rate",
                Shown::Hidden,
                "share of seat-hands that won (part of) a pot at the reveal",
            ),
        ],
        histograms: vec![
            totals.histogram("hands", REVEALED, "final total of each revealed hand"),
            totals.histogram("winning_hands", WINNING, "final total of each hand that won at the reveal"),
        ],
        cards: None,
    }
}
