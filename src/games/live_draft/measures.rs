//! What Live-Draft measures, per seat and game. Seat 0 plays first, so the seats table
//! shows the first-player advantage.

use super::engine::IDENTITIES_PER_COLOUR;
use super::rules::{COLOUR_NAMES, COLOURS};
use crate::sim::{Bins, CardCatalog, CardGroup, Measure, Measures, Score, Shown};

/// Counter: land screw (a turn 1-4 with no land in hand at the land step).
pub const SCREWED: usize = 0;
/// Counter: flood (a quarter or more of its turns 5+ drew a land with 5+ lands in play).
pub const FLOODED: usize = 1;
/// Counter: the game ended on mill counters (at every seat).
pub const MILL_END: usize = 2;
/// Counter: the game reached the turn cap, drawn (at every seat).
pub const CAPPED: usize = 3;
/// Counter: the seat used at least one quick-opening exchange.
pub const MULLIGANED: usize = 4;
/// Sum: tableau wipes in the game (at every seat).
pub const WIPES: usize = 0;
/// Sum: lands played.
pub const LANDS_PLAYED: usize = 1;
/// Sum: creatures cast.
pub const CAST: usize = 2;
/// Sum: combat damage dealt to players.
pub const DAMAGE: usize = 3;
/// Sum: mill counters at the end.
pub const MILL: usize = 4;
/// Sum: picks made mainly to deny the next player.
pub const HATE_PICKS: usize = 5;
/// Sum: cards removed from the game in the game (at every seat).
pub const REMOVED: usize = 6;
/// Sum: lands in the opening hand, before any exchange.
pub const OPENING_LAND_SUM: usize = 7;
/// Histogram offset: lands in each opening hand.
pub const OPENING_LANDS: usize = 0;
/// Bins of the opening-lands histogram (0 to this, the last holding more).
pub const LAND_BINS: usize = 8;

/// The declaration for these rules.
pub fn measures(rules: &super::Rules) -> Measures {
    let mut bins: Vec<String> = (0..LAND_BINS - 1).map(|l| l.to_string()).collect();
    bins.push(format!("{}+", LAND_BINS - 1));
    Measures {
        score: Score {
            key: "points".into(),
            column: "points_per_game".into(),
            pair_column: "points_diff_per_game".into(),
            description: "players - 1 for a sole winner, -1 for each loser, 0 for all in a drawn or shared game".into(),
            zero_sum: true,
            bounds: crate::stats::Bounds::between(-1.0, rules.players.saturating_sub(1) as f64),
        },
        unit: "game".into(),
        length: "turns per game, all players' turns together".into(),
        first_seat: "seat 0 plays first".into(),
        always_won: false,
        measures: vec![
            Measure::rate(
                SCREWED,
                "screwed",
                "screw_rate",
                Shown::Both,
                "share of seat-games with land screw (a turn 1-4 with no land in hand)",
            ),
            Measure::rate(
                FLOODED,
                "flooded",
                "flood_rate",
                Shown::Both,
                "share of seat-games with flood (a quarter or more of turns 5+ drew a land with 5+ in play)",
            ),
            Measure::rate(
                MILL_END,
                "mill_ends",
                "mill_end_rate",
                Shown::Summary,
                "share of games ended on mill counters",
            ),
            Measure::rate(CAPPED, "capped", "capped_rate", Shown::Summary, "share of games drawn at the turn cap"),
            Measure::rate(
                MULLIGANED,
                "mulliganed",
                "mulligan_rate",
                Shown::Summary,
                "share of seat-games with a quick-opening exchange (remove two, draw one)",
            ),
            Measure::mean(WIPES, "wipes", "mean_tableau_wipes", Shown::Summary, "tableau wipes per game"),
            Measure::mean(
                LANDS_PLAYED,
                "lands_played",
                "mean_lands_played",
                Shown::Summary,
                "lands played per seat and game",
            ),
            Measure::mean(CAST, "cast", "mean_creatures_cast", Shown::Summary, "creatures cast per seat and game"),
            Measure::mean(
                DAMAGE,
                "damage",
                "mean_damage_dealt",
                Shown::Summary,
                "combat damage dealt to players per seat and game",
            ),
            Measure::mean(
                MILL,
                "mill",
                "mean_mill_counters",
                Shown::Hidden,
                "mill counters at the end, per seat and game",
            ),
            Measure::mean(
                HATE_PICKS,
                "hate_picks",
                "mean_hate_picks",
                Shown::Summary,
                "picks made mainly to deny the next player",
            ),
            Measure::mean(
                OPENING_LAND_SUM,
                "opening_lands",
                "mean_opening_lands",
                Shown::Summary,
                "lands in the opening hand before any exchange, per seat and game",
            ),
            Measure::mean(
                REMOVED,
                "removed",
                "mean_cards_removed",
                Shown::Hidden,
                "cards removed from the game per game",
            ),
        ],
        histograms: vec![Bins::new("opening_lands", "lands", bins).histogram(
            "hands",
            OPENING_LANDS,
            "lands in each opening hand (before any exchange)",
        )],
        cards: Some(card_catalog()),
    }
}

/// Card analytics identities (see [`super::engine::card_identity`]): each colour's land and
/// its creatures by cost and role, pooled by colour, by cost and by role.
pub fn card_catalog() -> CardCatalog {
    const ROLES: [&str; 3] = ["attacker", "blocker", "even"];
    let per = usize::from(IDENTITIES_PER_COLOUR);
    let ids = 0..COLOURS * per;
    let kind = |id: usize| id % per;
    let cost = |k: usize| if k == 0 { 0 } else { (k - 1) / 3 + 1 };
    let role = |k: usize| if k == 0 { 0 } else { (k - 1) % 3 + 1 };
    let name = |id: usize| {
        let (colour, k) = (COLOUR_NAMES[id / per], kind(id));
        if k == 0 { format!("{colour} land") } else { format!("{colour} {} cost {}", ROLES[role(k) - 1], cost(k)) }
    };
    let group = |level: &str, names: Vec<String>, of: &dyn Fn(usize) -> usize| CardGroup {
        level: level.into(),
        names,
        of_card: ids.clone().map(|id| Some(of(id) as u16)).collect(),
    };
    let costs = std::iter::once("land".to_string()).chain((1..=6).map(|c| c.to_string())).collect();
    let roles = std::iter::once("land").chain(ROLES).map(String::from).collect();
    CardCatalog {
        names: ids.clone().map(name).collect(),
        groups: vec![
            group("colour", COLOUR_NAMES.map(String::from).to_vec(), &|id| id / per),
            group("cost", costs, &|id| cost(kind(id))),
            group("role", roles, &|id| role(kind(id))),
        ],
    }
}
