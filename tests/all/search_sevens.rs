//! The search bot in Sevens beats random play, the same on one thread and two (its leak
//! test is the conformance suite's).

use crate::common;

use common::{on_one_and_two_threads, row_value};

#[test]
fn the_search_bot_beats_random_and_is_reproducible() {
    let table = on_one_and_two_threads(&[
        "run",
        "--game",
        "sevens",
        "--seats",
        "search{iterations=300},random",
        "--rounds",
        "400",
    ]);
    // Heads-up, half the hands end with nobody at 7 or under: chips tell the winner.
    assert!(row_value(&table, "search", "chips_per_round_lo") > 0.0, "search against random: {table}");
}
