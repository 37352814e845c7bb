//! The run's tables, computed from a [`Tally`].

use serde::{Deserialize, Serialize};

use super::{Table, Values};
use crate::sim::{CardCatalog, CardCounts, CardEstimates, Counts, Measures, Shard, Shown, Tally, health_figures};
use crate::stats::Estimate;

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
    /// The lineup's entries as given (one per seat, or a field); every deal is played under
    /// the seatings balanced for seat and neighbour that they make.
    pub seats: Vec<String>,
    /// Whether each deal was played under the balanced seatings (false: once, as listed).
    pub rotate: bool,
    /// The shard, if the run was one.
    pub shard: Option<Shard>,
    /// `--until-ci` target, if any.
    pub until_ci: Option<String>,
    /// Whether card analytics were tallied (`--cards`).
    #[serde(default)]
    pub cards: bool,
    /// Rules set away from their defaults that no seated strategy used, one line each: the
    /// results are those of the default.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// CRC-32 of the `tally.json` written beside it, so that `merge` takes no tally that
    /// is not this run's (absent in folders written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tally_crc32: Option<u32>,
    /// A shard's named files (preset and rules files, policies) with the CRC-32 of what
    /// they held, so that `merge` takes no shard played with another file of one name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<(String, u32)>,
    /// `--ideal-length`'s band, where given: the health table's `ideal_length` is the share
    /// of units inside it, and a merge of shards writes it as the run did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ideal_length: Option<(u32, u32)>,
}

impl RunMeta {
    /// A run of `game` from `seed` that asked for `rounds_requested` rounds and played
    /// `rounds`, under `rules` with the lineup `seats`: each deal played once as listed,
    /// unsharded, without a stopping rule, card analytics or notes.
    pub fn new(
        game: &str,
        seed: u64,
        rounds_requested: u64,
        rounds: u64,
        rules: String,
        seats: Vec<String>,
    ) -> RunMeta {
        RunMeta {
            version: env!("CARGO_PKG_VERSION").to_string(),
            game: game.to_string(),
            seed,
            rounds_requested,
            rounds,
            rules,
            seats,
            rotate: false,
            shard: None,
            until_ci: None,
            cards: false,
            notes: Vec::new(),
            tally_crc32: None,
            ideal_length: None,
            files: Vec::new(),
        }
    }

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

/// Adds `NAME`, `NAME_lo` and `NAME_hi` columns.
fn with_interval(t: Table, name: &str, e: &[Estimate]) -> Table {
    t.with(name, floats(e.iter().map(|e| e.mean)))
        .with(&format!("{name}_lo"), floats(e.iter().map(|e| e.lo)))
        .with(&format!("{name}_hi"), floats(e.iter().map(|e| e.hi)))
}

/// Rounds, wins (outright) and split wins (shared), win rate and the declared measures shown in a wide table, one row per
/// entry of `counts`; `win` and `score` are each row's win-rate and score estimates.
fn wide(
    mut t: Table,
    counts: &[Counts],
    (win, score): (&[Estimate], &[Estimate]),
    measures: &Measures,
    seats: bool,
) -> Table {
    t = t
        .with("rounds", ints(counts.iter().map(|c| c.rounds as i64)))
        .with("wins", ints(counts.iter().map(|c| c.outright as i64)))
        .with("split_wins", ints(counts.iter().map(|c| c.split as i64)));
    t = with_interval(t, "win_rate", win);
    t = with_interval(t, &measures.score.column, score);
    for m in &measures.measures {
        if m.shown == Shown::Both || (m.shown == Shown::Summary && !seats) {
            t = t.with(&m.column, floats(counts.iter().map(|c| c.measure(m).0.mean)));
        }
    }
    t
}

/// The run's tables: summary, seats, pairs, one per declared histogram table, and
/// `measures` (every measure with its interval, by strategy and by seat).
pub fn run_tables(tally: &Tally, strategies: &[String], measures: &Measures) -> Vec<Table> {
    let by_strategy: Vec<Counts> = (0..strategies.len()).map(|x| tally.strategy(x)).collect();
    let by_seat: Vec<Counts> = (0..tally.seat_count).map(|s| tally.seat(s)).collect();
    let score: Vec<_> = (0..strategies.len()).map(|x| tally.score_per_round(x)).collect();
    let seat_score: Vec<_> = (0..tally.seat_count).map(|s| tally.seat_score_per_round(s)).collect();
    // Intervals are over deal groups (a deal and its rotations are one observation).
    let win: Vec<_> = (0..strategies.len()).map(|x| tally.win_rate(x)).collect();
    let seat_win: Vec<_> = (0..tally.seat_count).map(|s| tally.seat_win_rate(s)).collect();
    let summary = wide(
        Table::new(crate::study::kind::RUN.tables[0]).with("strategy", Values::Text(strategies.to_vec())),
        &by_strategy,
        (&win, &score),
        measures,
        false,
    );
    let seat_table = wide(
        Table::new("seats").with("seat", ints(0..by_seat.len() as i64)),
        &by_seat,
        (&seat_win, &seat_score),
        measures,
        true,
    );

    let mut pair_rows = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for a in 0..strategies.len() {
        for b in a + 1..strategies.len() {
            pair_rows.0.push(strategies[a].clone());
            pair_rows.1.push(strategies[b].clone());
            pair_rows.2.push(tally.groups[a].groups as i64);
            pair_rows.3.push(tally.pair_difference(a, b));
        }
    }
    let pairs = Table::new("pairs")
        .with("strategy_a", Values::Text(pair_rows.0))
        .with("strategy_b", Values::Text(pair_rows.1))
        .with("deals", Values::Int(pair_rows.2));
    let pairs = with_interval(pairs, &measures.score.pair_column, &pair_rows.3);

    let mut tables = vec![summary, seat_table, pairs, health_table(tally, strategies, measures, None)];
    for (name, histograms) in measures.histogram_tables() {
        let bins = &histograms[0].bins;
        let mut names = Vec::new();
        let mut bin_names = Vec::new();
        for strategy in strategies {
            names.extend(std::iter::repeat_n(strategy.clone(), bins.len()));
            bin_names.extend(bins.iter().cloned());
        }
        // Bins named by whole numbers (Sevens' totals) are numbers, not text.
        let numbers: Option<Vec<i64>> = bin_names.iter().map(|b| b.parse().ok()).collect();
        let bin_values = numbers.map_or(Values::Text(bin_names), Values::Int);
        let mut t = Table::new(name).with("strategy", Values::Text(names)).with(&histograms[0].bin_column, bin_values);
        for h in histograms {
            let counts = by_strategy.iter().flat_map(|c| c.bins[h.offset..h.offset + h.bins.len()].iter());
            t = t.with(&h.key, ints(counts.map(|&v| v as i64)));
            // Each bin's share of every strategy's counts together, over deal groups (the
            // same on each strategy's row): a deal's seatings deal alike, so an interval
            // over single counts would be too narrow.
            let shares: Vec<Option<crate::stats::Estimate>> =
                (h.offset..h.offset + h.bins.len()).map(|b| tally.bin_share(b)).collect();
            let side = |f: fn(&crate::stats::Estimate) -> f64| {
                let per_bin: Vec<f64> = shares.iter().map(|e| e.as_ref().map_or(f64::NAN, f)).collect();
                Values::Float(strategies.iter().flat_map(|_| per_bin.iter().copied()).collect())
            };
            t = t.with(&format!("{}_share_lo", h.key), side(|e| e.lo));
            t = t.with(&format!("{}_share_hi", h.key), side(|e| e.hi));
        }
        tables.push(t);
    }
    tables.push(measures_table(tally, strategies, measures, &by_strategy, &by_seat));
    if let Some(catalog) = measures.cards.as_ref().filter(|_| tally.card_count() > 0) {
        tables.push(cards_table(tally, strategies, catalog));
    }
    tables
}

/// The `health` table: one row per figure of the health card (see `docs/health.md`), with
/// its 95% interval; `ideal` adds the share of units whose length lies in that band.
pub fn health_table(tally: &Tally, strategies: &[String], measures: &Measures, ideal: Option<(u32, u32)>) -> Table {
    let figures = health_figures(tally, strategies, measures, ideal);
    let t = Table::new("health").with("figure", Values::Text(figures.iter().map(|f| f.name.clone()).collect()));
    let values: Vec<Estimate> = figures.iter().map(|f| f.value).collect();
    with_interval(t, "value", &values)
        .with("description", Values::Text(figures.iter().map(|f| f.description.clone()).collect()))
}

/// The `cards` table: per strategy, every card it met and every group of cards, with how
/// often it was seen and taken, when (ATA, ALSA), and the win share with it in hand
/// against seen and passed.
pub fn cards_table(tally: &Tally, strategies: &[String], catalog: &CardCatalog) -> Table {
    let mut rows: Vec<(String, String, String, CardCounts, CardEstimates)> = Vec::new();
    // Cards, then each pooling's groups, as the harness counted them.
    let mut labels: Vec<(&str, &str)> = catalog.names.iter().map(|n| ("card", n.as_str())).collect();
    for group in &catalog.groups {
        labels.extend(group.names.iter().map(|n| (group.level.as_str(), n.as_str())));
    }
    for (x, strategy) in strategies.iter().enumerate() {
        for (id, (level, name)) in labels.iter().enumerate().take(tally.card_count()) {
            let counts = tally.card(x, id);
            if !counts.is_empty() {
                let estimates = tally.card_estimates(x, id);
                rows.push((strategy.clone(), level.to_string(), name.to_string(), counts.clone(), estimates));
            }
        }
    }
    let text = |f: fn(&(String, String, String, CardCounts, CardEstimates)) -> &String| {
        Values::Text(rows.iter().map(|r| f(r).clone()).collect())
    };
    let count = |f: fn(&CardCounts) -> u64| ints(rows.iter().map(|r| f(&r.3) as i64));
    let estimate = |f: fn(&CardEstimates) -> Estimate| rows.iter().map(|r| f(&r.4)).collect::<Vec<_>>();
    let mut t = Table::new("cards")
        .with("strategy", text(|r| &r.0))
        .with("level", text(|r| &r.1))
        .with("card", text(|r| &r.2))
        .with("seen", count(|c| c.seen))
        .with("seen_picks", count(|c| c.seen_picks))
        .with("taken", count(|c| c.taken));
    t = with_interval(t, "take_rate", &estimate(|e| e.take_rate));
    t = with_interval(t, "ata", &estimate(|e| e.ata));
    t = with_interval(t, "alsa", &estimate(|e| e.alsa));
    t = t.with("in_hand", count(|c| c.in_hand));
    t = with_interval(t, "win_share_in_hand", &estimate(|e| e.win_share_in_hand));
    t = t.with("passed", count(|c| c.passed));
    t = with_interval(t, "win_share_passed", &estimate(|e| e.win_share_passed));
    with_interval(t, "in_hand_minus_passed", &estimate(|e| e.in_hand_minus_passed))
}

/// Every declared measure with its 95% interval, by strategy, by seat, and for the run.
fn measures_table(
    tally: &Tally,
    strategies: &[String],
    measures: &Measures,
    by_strategy: &[Counts],
    by_seat: &[Counts],
) -> Table {
    // (by, group, measure, n, estimate) per row.
    let mut rows: Vec<(&str, String, String, u64, Estimate)> = Vec::new();
    let mut push = |by: &'static str, group: String, measure: &str, n: u64, e: Estimate| {
        rows.push((by, group, measure.to_string(), n, e));
    };
    let groups = strategies
        .iter()
        .zip(by_strategy)
        .map(|(s, c)| ("strategy", s.clone(), c))
        .chain(by_seat.iter().enumerate().map(|(s, c)| ("seat", s.to_string(), c)));
    for (row, (by, group, c)) in groups.enumerate() {
        // Rows are the strategies, then the seats.
        let strategy = by == "strategy";
        let s = row.wrapping_sub(strategies.len());
        let win = if strategy { tally.win_rate(row) } else { tally.seat_win_rate(s) };
        push(by, group.clone(), "win_rate", c.rounds, win);
        let score = if strategy { tally.score_per_round(row) } else { tally.seat_score_per_round(s) };
        push(by, group.clone(), &measures.score.column, c.rounds, score);
        for (i, m) in measures.measures.iter().enumerate() {
            let (e, n) = if strategy { tally.measure(row, i, m) } else { tally.seat_measure(s, i, m) };
            push(by, group.clone(), &m.column, n, e);
        }
    }
    push("run", "all".into(), "mean_length", tally.rounds, tally.mean_length());
    let text = |f: fn(&(&str, String, String, u64, Estimate)) -> String| Values::Text(rows.iter().map(f).collect());
    let t = Table::new("measures")
        .with("by", text(|r| r.0.to_string()))
        .with("group", text(|r| r.1.clone()))
        .with("measure", text(|r| r.2.clone()))
        .with("n", Values::Int(rows.iter().map(|r| r.3 as i64).collect()));
    let estimates: Vec<Estimate> = rows.iter().map(|r| r.4).collect();
    with_interval(t, "value", &estimates)
}

/// The `outside` table: for each external bot, the decisions it was asked and how it
/// misbehaved (every fault played the fallback move: a legal move drawn at random).
pub fn outside_table(rows: &[(String, crate::outside::process::FaultCounts)]) -> Table {
    let col = |f: fn(&crate::outside::process::FaultCounts) -> u64| {
        Values::Int(rows.iter().map(|(_, c)| f(c) as i64).collect())
    };
    Table::new("outside")
        .with("strategy", Values::Text(rows.iter().map(|(n, _)| n.clone()).collect()))
        .with("decisions", col(|c| c.decisions))
        .with("illegal", col(|c| c.illegal))
        .with("garbage", col(|c| c.garbage))
        .with("timeouts", col(|c| c.timeouts))
        .with("crashes", col(|c| c.crashes))
        .with("fallbacks", col(|c| c.fallbacks))
}
