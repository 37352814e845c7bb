//! What Seven Card Draft measures: showdowns, folds by betting round, wild wins, hate picks,
//! and finished and winning hand categories. The engine fills these slots; in game mode a
//! counter counts over the game's rounds and its rate is per seat-round dealt.

use super::CATEGORY_NAMES;
use super::rules::{Mode, Variant};
use crate::cards::{Card, RANK_CHARS};
use crate::output::{Table, Values};
use crate::sim::{Bins, CardCatalog, CardGroup, Counts, Measure, Measures, Shown, Tally};
use crate::stats::Estimate;

/// Counter: the seat's hand went to a showdown.
pub const SHOWDOWNS: usize = 0;
/// Counter: the seat won at least part of a pot at showdown.
pub const SHOWDOWN_WINS: usize = 1;
/// Counter: a showdown win with a wild card in the hand.
pub const WILD_WINS: usize = 2;
/// Counter: a round in which the seat made at least one hate pick.
pub const HATE_ROUNDS: usize = 3;
/// Counter: a round in which the seat made no hate pick.
pub const ROUNDS_WITHOUT_HATE: usize = 4;
/// Counter: a round in which the seat folded, in any betting round.
pub const FOLDED: usize = 5;
/// Counter: a fold in betting round `b` is slot `FOLDS + b`.
pub const FOLDS: usize = 6;
/// Sum: picks made.
pub const PICKS: usize = 0;
/// Sum: hate picks made.
pub const HATE_PICKS: usize = 1;
/// Sum: net chips over rounds with at least one hate pick.
pub const HATE_ROUNDS_NET: usize = 2;
/// Sum: net chips over rounds without a hate pick.
pub const ROUNDS_WITHOUT_HATE_NET: usize = 3;
/// Histogram offset: category of each finished hand (shown at showdown).
pub const FINISHED: usize = 0;
/// Histogram offset: category of each hand that won at showdown.
pub const WINNING: usize = CATEGORY_NAMES.len();

/// The declaration for a variant (the fold columns follow its betting rounds).
pub fn measures(variant: &Variant) -> Measures {
    let mut list = vec![Measure::rate(
        SHOWDOWNS,
        "showdowns",
        "showdown_rate",
        Shown::Both,
        "share of seat-rounds whose hand went to a showdown",
    )];
    for b in 0..variant.betting_rounds() {
        list.push(Measure::rate(
            FOLDS + b,
            &format!("folds_r{}", b + 1),
            &format!("fold_rate_r{}", b + 1),
            Shown::Both,
            &format!("share of seat-rounds folded in betting round {} (fold timing)", b + 1),
        ));
    }
    // The rounds' shares add up to it; its own interval is over deal groups.
    list.push(Measure::rate(
        FOLDED,
        "folds",
        "fold_rate",
        Shown::Hidden,
        "share of seat-rounds folded, in any betting round",
    ));
    list.extend([
        Measure::rate_per(
            WILD_WINS,
            SHOWDOWN_WINS,
            "wild_wins",
            "wild_win_rate",
            // Without a wild rule the rate is zero by the rules, not a finding.
            if variant.rules.wild.rules().is_empty() { Shown::Hidden } else { Shown::Summary },
            "share of showdown wins with a wild card in the winning hand",
        ),
        Measure::rate(
            SHOWDOWN_WINS,
            "showdown_wins",
            "showdown_win_rate",
            Shown::Hidden,
            "share of seat-rounds that won at least part of a pot at showdown",
        ),
        Measure::rate(
            HATE_ROUNDS,
            "hate_rounds",
            "hate_round_rate",
            Shown::Hidden,
            "share of seat-rounds with at least one hate pick",
        ),
        Measure::mean(PICKS, "picks", "mean_picks", Shown::Hidden, "picks made per seat and unit"),
        Measure::mean(
            HATE_PICKS,
            "hate_picks",
            "mean_hate_picks",
            Shown::Hidden,
            "hate picks (not the best card for the bot itself) per seat and unit",
        ),
        // Per round with and without a hate pick, so that the two compare; the picks table
        // gives them beside the hate-pick rate.
        Measure::mean_per(
            HATE_ROUNDS_NET,
            HATE_ROUNDS,
            "hate_rounds_net",
            "chips_per_round_with_hate",
            Shown::Hidden,
            "net chips won per round with a hate pick",
        )
        .in_score(),
        Measure::mean_per(
            ROUNDS_WITHOUT_HATE_NET,
            ROUNDS_WITHOUT_HATE,
            "rounds_without_hate_net",
            "chips_per_round_without_hate",
            Shown::Hidden,
            "net chips won per round without a hate pick",
        )
        .in_score(),
    ]);
    let categories = Bins::new("categories", "category", CATEGORY_NAMES).ranked();
    Measures {
        score: crate::games::chips_score(
            "net chips won per unit (chips won minus chips put in)",
            Some(match variant.rules.mode {
                Mode::Round => super::engine::round_stake(variant),
                // Chips only change hands within a game, so no seat ends it below zero.
                Mode::Game => variant.rules.starting_stack,
            }),
            variant.rules.players,
        ),
        unit: match variant.rules.mode {
            Mode::Round => "round".into(),
            Mode::Game => "game".into(),
        },
        length: "rounds per unit: 1 in round mode, a game's rounds in game mode".into(),
        first_seat: match variant.rules.mode {
            Mode::Round => "seat 0 deals".into(),
            Mode::Game => "seat 0 deals the first round; the deal moves left".into(),
        },
        always_won: true,
        measures: list,
        histograms: vec![
            categories.histogram("finished_hands", FINISHED, "category of each hand shown at a showdown"),
            categories.histogram(
                "winning_hands",
                WINNING,
                "category of each hand that won at least part of a pot at showdown",
            ),
        ],
        // In game mode one unit spans many drafts: a card's sightings and holdings would
        // blur across rounds, so card analytics are offered per round only.
        cards: (variant.rules.mode == Mode::Round).then(card_catalog),
    }
}

/// Card analytics identities: every card by its bit index (the names of lanes no deck
/// uses are empty), pooled by rank.
pub fn card_catalog() -> CardCatalog {
    let ids = 0..64u8;
    let valid = |i: u8| usize::from(i & 15) < RANK_CHARS.len();
    CardCatalog {
        names: ids.clone().map(|i| if valid(i) { Card::from_index(i).to_string() } else { String::new() }).collect(),
        groups: vec![CardGroup {
            level: "rank".into(),
            names: RANK_CHARS.iter().map(|&c| char::from(c).to_string()).collect(),
            of_card: ids.map(|i| valid(i).then_some(u16::from(i & 15))).collect(),
        }],
    }
}

/// The `picks` table: hate picks and what rounds with one were worth against rounds
/// without, each mean with its 95% interval over deal groups as the `measures` table
/// gives it (over units under the small-sample rule; none where a unit spans rounds).
pub fn picks_table(variant: &Variant, tally: &Tally, strategies: &[String]) -> Table {
    let counts: Vec<_> = (0..strategies.len()).map(|x| tally.strategy(x)).collect();
    let ratio = |a: i64, b: u64| if b == 0 { f64::NAN } else { a as f64 / b as f64 };
    let col = |f: &dyn Fn(&Counts) -> f64| Values::Float(counts.iter().map(f).collect());
    let mut table = Table::new("picks")
        .with("strategy", Values::Text(strategies.to_vec()))
        .with("picks", Values::Int(counts.iter().map(|c| c.sums[PICKS]).collect()))
        .with("hate_picks", Values::Int(counts.iter().map(|c| c.sums[HATE_PICKS]).collect()))
        .with("hate_pick_rate", col(&|c| ratio(c.sums[HATE_PICKS], c.sums[PICKS].max(0) as u64)))
        .with("rounds_with_hate", Values::Int(counts.iter().map(|c| c.counters[HATE_ROUNDS] as i64).collect()));
    let declared = measures(variant).measures;
    for key in ["hate_rounds_net", "rounds_without_hate_net"] {
        let (index, m) = declared.iter().enumerate().find(|(_, m)| m.key == key).expect("declared above");
        let estimates: Vec<Estimate> = (0..strategies.len()).map(|x| tally.measure(x, index, m).0).collect();
        let column = |f: fn(&Estimate) -> f64| Values::Float(estimates.iter().map(f).collect());
        table = table
            .with(&m.column, column(|e| e.mean))
            .with(&format!("{}_lo", m.column), column(|e| e.lo))
            .with(&format!("{}_hi", m.column), column(|e| e.hi));
    }
    table
}
