//! What Winston + Crazier Eights measures, per seat and match. Seat 0 drafts first; the
//! seats table therefore shows the first-pick advantage.

use super::rules::{Rules, Starter};
use crate::sim::{Bins, Measure, Measures, Score, Shown};

/// Counter: the deck was short (fewer usable cards than a deck holds).
pub const SHORT_DECK: usize = 0;
/// Counter: the seat played first in the match's first game.
pub const PLAYED_FIRST: usize = 1;
/// Counter: the seat played first and won the match.
pub const WON_PLAYING_FIRST: usize = 2;
/// Counter: the match ended level (no winner: capped games, or wins level), at both seats.
pub const DRAWN: usize = 3;
/// Counter: the seat took the stack's last card under the last-card rule.
pub const LAST_CARD_TAKES: usize = 4;
/// Sum: cards drafted.
pub const POOL_SIZE: usize = 0;
/// Sum: piles taken (blind cards not counted).
pub const PILES: usize = 1;
/// Sum: blind cards taken after rejecting every pile.
pub const BLIND_TAKES: usize = 2;
/// Sum: piles taken mainly to deny the opponent.
pub const HATE_TAKES: usize = 3;
/// Sum: eights drafted.
pub const EIGHTS: usize = 4;
/// Sum: multicoloured cards drafted.
pub const MULTI: usize = 5;
/// Sum: cards in the deck.
pub const DECK_SIZE: usize = 6;
/// Sum: cards played for an ability.
pub const ABILITY_PLAYS: usize = 7;
/// Largest pile-size bin (it holds that size and above).
pub const PILE_BINS: usize = 12;
/// Histogram offset: sizes of the piles taken.
pub const PILE_SIZES: usize = 0;
/// Histogram offset: cards drafted by colour, multicoloured cards last.
pub const COLOURS_DRAFTED: usize = PILE_BINS;
/// Histogram offset: decks by the number of colours chosen (0 to `max_colours`), after
/// the colour bins (at most 6 colours and the multicoloured bin).
pub const DECK_COLOURS: usize = COLOURS_DRAFTED + 7;

/// The declaration for these rules.
pub fn measures(rules: &Rules) -> Measures {
    let mut pile_bins: Vec<String> = (1..PILE_BINS).map(|s| s.to_string()).collect();
    pile_bins.push(format!("{PILE_BINS}+"));
    let mut colour_bins = rules.colours.clone();
    colour_bins.push("multicoloured".into());
    let unit = if rules.games == 1 { "match (one game)" } else { "match (best of 3)" };
    Measures {
        score: Score {
            key: "points".into(),
            column: "points_per_match".into(),
            pair_column: "points_diff_per_match".into(),
            description: "+1 for a match won, -1 for a match lost, 0 for a drawn match".into(),
            zero_sum: true,
            bounds: crate::stats::Bounds::between(-1.0, 1.0),
        },
        unit: "match".into(),
        length: format!("turns per {unit}, both players' turns together"),
        first_seat: match rules.starter {
            Starter::SecondDrafter => "seat 0 drafts first; seat 1 starts the first game",
            Starter::FirstDrafter => "seat 0 drafts first and starts the first game",
            Starter::Random => "seat 0 drafts first; a coin decides who starts the first game",
        }
        .into(),
        always_won: false,
        measures: vec![
            Measure::rate(
                SHORT_DECK,
                "short_decks",
                "short_deck_rate",
                Shown::Both,
                "share of decks short of deck_size",
            ),
            Measure::rate(
                PLAYED_FIRST,
                "played_first",
                "played_first_rate",
                Shown::Both,
                "share of matches in which the seat played first in the first game",
            ),
            Measure::rate_per(
                WON_PLAYING_FIRST,
                PLAYED_FIRST,
                "won_playing_first",
                "win_rate_playing_first",
                Shown::Both,
                "share of the matches it played first in that the seat won",
            ),
            Measure::rate(
                DRAWN,
                "drawn",
                "drawn_rate",
                Shown::Summary,
                "share of matches ended level (games drawn at the turn cap, or wins level)",
            ),
            Measure::rate(
                LAST_CARD_TAKES,
                "last_card_takes",
                "last_card_rate",
                Shown::Hidden,
                "share of drafts in which the seat took the stack's last card under the last-card rule",
            ),
            Measure::mean(POOL_SIZE, "pool", "mean_pool_size", Shown::Both, "cards drafted per match"),
            Measure::mean(PILES, "piles", "mean_piles_taken", Shown::Summary, "piles taken per draft"),
            Measure::mean(
                BLIND_TAKES,
                "blind_takes",
                "mean_blind_takes",
                Shown::Both,
                "blind cards taken per draft after rejecting every pile (last-card takes apart)",
            ),
            Measure::mean(
                HATE_TAKES,
                "hate_takes",
                "mean_hate_takes",
                Shown::Summary,
                "piles taken mainly to deny the opponent, per draft",
            ),
            Measure::mean(EIGHTS, "eights", "mean_eights_drafted", Shown::Both, "eights drafted per match"),
            Measure::mean(
                MULTI,
                "multicoloured",
                "mean_multicoloured_drafted",
                Shown::Summary,
                "multicoloured cards drafted per match",
            ),
            Measure::mean(DECK_SIZE, "deck", "mean_deck_size", Shown::Summary, "cards in the deck built"),
            Measure::mean(
                ABILITY_PLAYS,
                "ability_plays",
                "mean_ability_plays",
                Shown::Summary,
                "cards played for their ability per match",
            ),
        ],
        histograms: vec![
            Bins::new("piles", "pile_size", pile_bins).histogram(
                "piles_taken",
                PILE_SIZES,
                &format!("piles taken by size (the last bin is {PILE_BINS} cards or more)"),
            ),
            Bins::new("colours", "colour", colour_bins).histogram(
                "cards_drafted",
                COLOURS_DRAFTED,
                "cards drafted by colour, multicoloured cards in their own bin",
            ),
            Bins::new("deck_colours", "colours", 0..=rules.max_colours).histogram(
                "decks",
                DECK_COLOURS,
                "decks by the number of colours chosen for them",
            ),
        ],
        cards: Some(super::cards::Pool::new(rules).card_catalog()),
    }
}
