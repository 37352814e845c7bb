//! The run's tables, computed from a [`Tally`].

use serde::{Deserialize, Serialize};

use super::{Table, Values};
use crate::sim::{Shard, Tally};

/// What a run was: written to `run.json` and to every Parquet file's metadata.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunMeta {
    /// draftsim's version.
    pub version: String,
    /// The game.
    pub game: String,
    /// The run's seed.
    pub seed: u64,
    /// Rounds asked for.
    pub rounds_requested: u64,
    /// Rounds played (whole deals; fewer with `--until-ci`, or in a shard).
    pub rounds: u64,
    /// The rules in force, as TOML.
    pub rules: String,
    /// Strategy at each seat of the unrotated deal.
    pub seats: Vec<String>,
    /// Whether seats were rotated over each deal.
    pub rotate: bool,
    /// The shard, if the run was one.
    pub shard: Option<Shard>,
    /// `--until-ci` target, if any.
    pub until_ci: Option<String>,
}

impl RunMeta {
    /// The metadata as key-value pairs (Parquet).
    pub fn key_values(&self) -> Vec<(String, String)> {
        vec![
            ("draftsim_version".into(), self.version.clone()),
            ("game".into(), self.game.clone()),
            ("seed".into(), self.seed.to_string()),
            ("rounds".into(), self.rounds.to_string()),
            ("rules".into(), self.rules.clone()),
            ("bots".into(), self.seats.join(",")),
            ("rotate".into(), self.rotate.to_string()),
            ("run_json".into(), serde_json::to_string(self).unwrap_or_default()),
        ]
    }
}

fn floats(it: impl Iterator<Item = f64>) -> Values {
    Values::Float(it.collect())
}

fn ints(it: impl Iterator<Item = i64>) -> Values {
    Values::Int(it.collect())
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { f64::NAN } else { a as f64 / b as f64 }
}

/// A game-specific summary column, computed from a strategy's counts.
#[derive(Clone, Copy, Debug)]
pub enum Extra {
    /// Share of the strategy's rounds with this event bit set.
    EventRate(usize),
    /// Picks (or cards traded) per round.
    PicksPerRound,
    /// Share of showdown wins with a wild card in the hand.
    WildWinRate,
}

/// How a game's tables are shaped beyond the common columns.
#[derive(Clone, Copy, Debug)]
pub struct TableSpec {
    /// Names of the finished-hand categories.
    pub categories: &'static [&'static str],
    /// Name of the category table (`categories`).
    pub category_table: &'static str,
    /// Its category column (`category`).
    pub category_column: &'static str,
    /// Its finished-hand count column (`finished_hands`).
    pub finished_column: &'static str,
    /// Whether the game writes the `picks` table (hate picks).
    pub picks_table: bool,
    /// Extra summary columns.
    pub extras: &'static [(&'static str, Extra)],
}

/// The run's tables: summary, seats, pairs, categories (as the game names them), picks.
pub fn run_tables(tally: &Tally, strategies: &[String], spec: &TableSpec) -> Vec<Table> {
    let categories = spec.categories;
    let s = &tally.strategies;
    let betting_rounds = s.first().map_or(0, |c| c.folds.len());
    let win: Vec<_> = s.iter().map(|c| c.win_rate()).collect();
    let chips: Vec<_> = (0..s.len()).map(|x| tally.chips_per_round(x)).collect();
    let mut summary = Table::new("summary")
        .with("strategy", Values::Text(strategies.to_vec()))
        .with("rounds", ints(s.iter().map(|c| c.rounds as i64)))
        .with("wins", floats(s.iter().map(|c| c.wins())))
        .with("win_rate", floats(win.iter().map(|e| e.mean)))
        .with("win_rate_lo", floats(win.iter().map(|e| e.lo)))
        .with("win_rate_hi", floats(win.iter().map(|e| e.hi)))
        .with("chips_per_round", floats(chips.iter().map(|e| e.mean)))
        .with("chips_per_round_lo", floats(chips.iter().map(|e| e.lo)))
        .with("chips_per_round_hi", floats(chips.iter().map(|e| e.hi)))
        .with("showdown_rate", floats(s.iter().map(|c| ratio(c.showdowns, c.rounds))));
    for b in 0..betting_rounds {
        summary = summary.with(&format!("fold_rate_r{}", b + 1), floats(s.iter().map(|c| ratio(c.folds[b], c.rounds))));
    }
    for (name, extra) in spec.extras {
        let values = s.iter().map(|c| match *extra {
            Extra::EventRate(bit) => ratio(c.events.get(bit).copied().unwrap_or(0), c.rounds),
            Extra::PicksPerRound => ratio(c.picks, c.rounds),
            Extra::WildWinRate => ratio(c.wild_wins, c.showdown_wins),
        });
        summary = summary.with(name, floats(values));
    }

    let seats = &tally.seats;
    let seat_win: Vec<_> = seats.iter().map(|c| c.win_rate()).collect();
    let seat_chips: Vec<_> = seats.iter().map(|c| c.chips_per_round()).collect();
    let mut seat_table = Table::new("seats")
        .with("seat", ints(0..seats.len() as i64))
        .with("rounds", ints(seats.iter().map(|c| c.rounds as i64)))
        .with("wins", floats(seats.iter().map(|c| c.wins())))
        .with("win_rate", floats(seat_win.iter().map(|e| e.mean)))
        .with("win_rate_lo", floats(seat_win.iter().map(|e| e.lo)))
        .with("win_rate_hi", floats(seat_win.iter().map(|e| e.hi)))
        .with("chips_per_round", floats(seat_chips.iter().map(|e| e.mean)))
        .with("chips_per_round_lo", floats(seat_chips.iter().map(|e| e.lo)))
        .with("chips_per_round_hi", floats(seat_chips.iter().map(|e| e.hi)))
        .with("showdown_rate", floats(seats.iter().map(|c| ratio(c.showdowns, c.rounds))));
    for b in 0..betting_rounds {
        seat_table = seat_table
            .with(&format!("fold_rate_r{}", b + 1), floats(seats.iter().map(|c| ratio(c.folds[b], c.rounds))));
    }

    let mut pair_rows = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for a in 0..strategies.len() {
        for b in a + 1..strategies.len() {
            let e = tally.pair_difference(a, b);
            pair_rows.0.push(strategies[a].clone());
            pair_rows.1.push(strategies[b].clone());
            pair_rows.2.push(tally.groups[a].groups as i64);
            pair_rows.3.push(e);
        }
    }
    let pairs = Table::new("pairs")
        .with("strategy_a", Values::Text(pair_rows.0))
        .with("strategy_b", Values::Text(pair_rows.1))
        .with("deals", Values::Int(pair_rows.2))
        .with("chips_diff_per_round", floats(pair_rows.3.iter().map(|e| e.mean)))
        .with("chips_diff_per_round_lo", floats(pair_rows.3.iter().map(|e| e.lo)))
        .with("chips_diff_per_round_hi", floats(pair_rows.3.iter().map(|e| e.hi)));

    let mut cat_rows = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (x, name) in strategies.iter().enumerate() {
        for (c, cat) in categories.iter().enumerate() {
            cat_rows.0.push(name.clone());
            cat_rows.1.push(cat.to_string());
            cat_rows.2.push(tally.finished[x][c] as i64);
            cat_rows.3.push(tally.winning[x][c] as i64);
        }
    }
    let category_table = Table::new(spec.category_table)
        .with("strategy", Values::Text(cat_rows.0))
        .with(spec.category_column, Values::Text(cat_rows.1))
        .with(spec.finished_column, Values::Int(cat_rows.2))
        .with("winning_hands", Values::Int(cat_rows.3));

    let picks =
        Table::new("picks")
            .with("strategy", Values::Text(strategies.to_vec()))
            .with("picks", ints(s.iter().map(|c| c.picks as i64)))
            .with("hate_picks", ints(s.iter().map(|c| c.hate_picks as i64)))
            .with("hate_pick_rate", floats(s.iter().map(|c| ratio(c.hate_picks, c.picks))))
            .with("rounds_with_hate", ints(s.iter().map(|c| c.hate_rounds as i64)))
            .with(
                "chips_per_round_with_hate",
                floats(s.iter().map(|c| {
                    if c.hate_rounds == 0 { f64::NAN } else { c.hate_rounds_net as f64 / c.hate_rounds as f64 }
                })),
            )
            .with(
                "chips_per_round_without_hate",
                floats(s.iter().map(|c| {
                    let n = c.rounds - c.hate_rounds;
                    if n == 0 { f64::NAN } else { (c.net - c.hate_rounds_net) as f64 / n as f64 }
                })),
            );
    let mut tables = vec![summary, seat_table, pairs, category_table];
    if spec.picks_table {
        tables.push(picks);
    }
    tables
}
