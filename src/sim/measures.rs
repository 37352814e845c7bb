//! A game's measures, declared once: the outcome every game has (win share, a score, the
//! unit's length) plus the game's own named counters, sums and histograms. The harness
//! tallies them by slot, the output writes them by name, and `report` charts them, so a
//! new measure touches only its game's folder.

use super::record::{MAX_BINS, MAX_COUNTERS, MAX_SUMS, Shape};

/// Where a counter or sum appears besides the long `measures` table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Shown {
    /// As a column of the summary (per strategy) and seats (per seat) tables.
    Both,
    /// As a column of the summary table only.
    Summary,
    /// Only in the `measures` table.
    Hidden,
}

/// How a measure is estimated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A counter shown as a rate with a Wilson 95% interval: per seat-round, or per count
    /// of another counter slot (e.g. wild wins per showdown win).
    Rate {
        /// Counter slot.
        slot: usize,
        /// The denominator's counter slot; `None` for seat-rounds.
        per: Option<usize>,
    },
    /// A sum shown as a mean per seat and unit of play, with a t interval.
    Mean {
        /// Sum slot.
        slot: usize,
    },
    /// A sum shown as a mean per count of a counter (e.g. net chips per round with a hate
    /// pick), with a t interval. Over units each counted unit is one observation, which
    /// holds where a unit counts at most one; where a unit spans rounds only the interval
    /// over deal groups is given.
    MeanPer {
        /// Sum slot.
        slot: usize,
        /// The denominator's counter slot.
        per: usize,
    },
}

/// One named counter or sum.
#[derive(Clone, Debug, PartialEq)]
pub struct Measure {
    /// The raw count's name (a column of the per-round `rounds` table), e.g. `showdowns`.
    pub key: String,
    /// The estimate's column name, e.g. `showdown_rate`.
    pub column: String,
    /// How it is estimated, and its slot.
    pub kind: Kind,
    /// One line: what it measures.
    pub description: String,
    /// Which wide tables show it.
    pub shown: Shown,
    /// What one seat's count can be in one unit (checked by `draftsim check`), and so its
    /// mean: no interval is reported past it.
    pub bounds: crate::stats::Bounds,
    /// Whether it is counted in the score's units (chips, victory cards), so that a change
    /// in it is judged on the game's stakes, as the score is.
    pub in_score: bool,
}

impl Measure {
    /// A rate per seat-round of counter `slot`.
    pub fn rate(slot: usize, key: &str, column: &str, shown: Shown, description: &str) -> Measure {
        Measure {
            key: key.into(),
            column: column.into(),
            kind: Kind::Rate { slot, per: None },
            description: description.into(),
            shown,
            bounds: crate::stats::Bounds::between(0.0, 1.0),
            in_score: false,
        }
    }

    /// A rate of counter `slot` per count of counter `per`.
    pub fn rate_per(slot: usize, per: usize, key: &str, column: &str, shown: Shown, description: &str) -> Measure {
        Measure { kind: Kind::Rate { slot, per: Some(per) }, ..Measure::rate(slot, key, column, shown, description) }
    }

    /// A mean of sum `slot` per seat and unit of play, a count: never below 0.
    pub fn mean(slot: usize, key: &str, column: &str, shown: Shown, description: &str) -> Measure {
        Measure {
            kind: Kind::Mean { slot },
            bounds: crate::stats::Bounds::at_least(0.0),
            ..Measure::rate(0, key, column, shown, description)
        }
    }

    /// A mean of sum `slot` per count of counter `per`, which may be negative (net chips).
    pub fn mean_per(slot: usize, per: usize, key: &str, column: &str, shown: Shown, description: &str) -> Measure {
        Measure { kind: Kind::MeanPer { slot, per }, ..Measure::signed_mean(slot, key, column, shown, description) }
    }

    /// A mean of sum `slot` per seat and unit of play that may be negative (net chips).
    pub fn signed_mean(slot: usize, key: &str, column: &str, shown: Shown, description: &str) -> Measure {
        Measure { bounds: crate::stats::Bounds::NONE, ..Measure::mean(slot, key, column, shown, description) }
    }

    /// The same measure, counted in the score's units.
    pub fn in_score(self) -> Measure {
        Measure { in_score: true, ..self }
    }
}

/// A named histogram: counts per bin, per strategy, written as a long table.
#[derive(Clone, Debug, PartialEq)]
pub struct Histogram {
    /// The count column's name, e.g. `finished_hands`.
    pub key: String,
    /// The table it is written to, e.g. `categories`; histograms sharing a table share bins.
    pub table: String,
    /// The bin column's name in that table, e.g. `category`.
    pub bin_column: String,
    /// Bin names, lowest first.
    pub bins: Vec<String>,
    /// Where its bins start in [`SeatResult::bins`](super::SeatResult::bins).
    pub offset: usize,
    /// Whether the bins are a ranking (lowest first), so rarity can be checked against it.
    pub ranked: bool,
    /// One line: what it counts.
    pub description: String,
}

/// The bins of one histogram table, from which each histogram written to it is made.
#[derive(Clone, Debug)]
pub struct Bins {
    table: &'static str,
    column: &'static str,
    names: Vec<String>,
    ranked: bool,
}

impl Bins {
    /// Bins named `names` (lowest first) in `table`'s bin column `column`, not a ranking.
    pub fn new<T: ToString>(table: &'static str, column: &'static str, names: impl IntoIterator<Item = T>) -> Bins {
        Bins { table, column, names: names.into_iter().map(|n| n.to_string()).collect(), ranked: false }
    }

    /// The same bins read as a ranking, lowest first.
    pub fn ranked(self) -> Bins {
        Bins { ranked: true, ..self }
    }

    /// A histogram over these bins, counted from `offset` in a seat's bins.
    pub fn histogram(&self, key: &str, offset: usize, description: &str) -> Histogram {
        Histogram {
            key: key.into(),
            table: self.table.into(),
            bin_column: self.column.into(),
            bins: self.names.clone(),
            offset,
            ranked: self.ranked,
            description: description.into(),
        }
    }
}

/// The payoff every seat gets each unit of play.
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    /// The per-round table's column, e.g. `net`.
    pub key: String,
    /// The mean's column in summary and seats, e.g. `chips_per_round`.
    pub column: String,
    /// The paired difference's column in `pairs`, e.g. `chips_diff_per_round`.
    pub pair_column: String,
    /// One line: what it is.
    pub description: String,
    /// Whether scores sum to zero over the seats every unit (checked by `draftsim check`).
    pub zero_sum: bool,
    /// What one seat can score in one unit under these rules (checked by `draftsim
    /// check`): no interval on the score is reported past it.
    pub bounds: crate::stats::Bounds,
}

/// Everything a game measures.
#[derive(Clone, Debug, PartialEq)]
pub struct Measures {
    /// The score.
    pub score: Score,
    /// What one unit of play is (`round`, `game`, `match`), for descriptions.
    pub unit: String,
    /// What the unit's length counts, e.g. "rounds per game (1 in round mode)".
    pub length: String,
    /// What seat 0 does first at this table, e.g. "seat 0 drafts first": the seat the
    /// first-seat edge measures.
    pub first_seat: String,
    /// Whether a unit always has a winner (win shares sum to one), checked by `check`.
    pub always_won: bool,
    /// Counters and sums, in the order of their columns.
    pub measures: Vec<Measure>,
    /// Histograms.
    pub histograms: Vec<Histogram>,
    /// The card identities of a game with a draft, for card analytics (`--cards`).
    pub cards: Option<super::CardCatalog>,
}

impl Measures {
    /// Slots and bins in use: one past the highest declared.
    pub fn shape(&self) -> Shape {
        let mut shape = Shape::default();
        for m in &self.measures {
            match m.kind {
                Kind::Rate { slot, per } => {
                    shape.counters = shape.counters.max(slot + 1).max(per.map_or(0, |p| p + 1));
                }
                Kind::Mean { slot } => shape.sums = shape.sums.max(slot + 1),
                Kind::MeanPer { slot, per } => {
                    shape.sums = shape.sums.max(slot + 1);
                    shape.counters = shape.counters.max(per + 1);
                }
            }
        }
        shape.bins = self.histograms.iter().map(|h| h.offset + h.bins.len()).max().unwrap_or(0);
        shape
    }

    /// Checks the declaration: slots within the record, names unique, bins not
    /// overlapping, histograms of one table with the same bins. Games test this.
    pub fn validate(&self) -> Result<(), String> {
        let shape = self.shape();
        if shape.counters > MAX_COUNTERS || shape.sums > MAX_SUMS || shape.bins > MAX_BINS {
            return Err(format!("too many slots: {shape:?}"));
        }
        if self.measures.len() > super::MAX_MEASURES {
            return Err(format!("{} measures declared; at most {}", self.measures.len(), super::MAX_MEASURES));
        }
        let mut names: Vec<&str> = vec![&self.score.column, "win_rate"];
        for m in &self.measures {
            if names.contains(&m.column.as_str()) {
                return Err(format!("column {} declared twice", m.column));
            }
            names.push(&m.column);
        }
        let mut used = [false; MAX_BINS];
        for h in &self.histograms {
            for (b, slot) in used.iter_mut().enumerate().skip(h.offset).take(h.bins.len()) {
                if std::mem::replace(slot, true) {
                    return Err(format!("histogram {} overlaps another at bin {b}", h.key));
                }
            }
            if self.histograms.iter().any(|o| o.table == h.table && (o.bins != h.bins || o.bin_column != h.bin_column))
            {
                return Err(format!("histograms of table {} differ in bins", h.table));
            }
        }
        Ok(())
    }

    /// The unit in the plural, for captions: `rounds`, `games`, `matches`.
    pub fn units(&self) -> String {
        if self.unit.ends_with("ch") || self.unit.ends_with('s') {
            format!("{}es", self.unit)
        } else {
            format!("{}s", self.unit)
        }
    }

    /// The score in words per the game's own unit (`chips per hand` in Sevens, whose column,
    /// shared by the betting games, reads `chips_per_round`).
    pub fn score_words(&self) -> String {
        self.per_unit(&self.score.column)
    }

    /// The paired difference's column in words per the game's unit (`chips diff per hand`).
    pub fn pair_words(&self) -> String {
        self.per_unit(&self.score.pair_column)
    }

    /// A `..._per_<unit>` column in words, with this game's unit.
    fn per_unit(&self, column: &str) -> String {
        match column.rsplit_once("_per_") {
            Some((what, _)) => format!("{} per {}", what.replace('_', " "), self.unit),
            None => column.replace('_', " "),
        }
    }

    /// What the unit's length counts, the first word of its description: `rounds`, `turns`.
    pub fn length_counts(&self) -> &str {
        self.length.split_whitespace().next().unwrap_or("rounds")
    }

    /// The measure whose column is `column`.
    pub fn find(&self, column: &str) -> Option<&Measure> {
        self.measures.iter().find(|m| m.column == column)
    }

    /// The histogram tables, each with its histograms, in order of first declaration.
    pub fn histogram_tables(&self) -> Vec<(&str, Vec<&Histogram>)> {
        let mut out: Vec<(&str, Vec<&Histogram>)> = Vec::new();
        for h in &self.histograms {
            match out.iter_mut().find(|(t, _)| *t == h.table) {
                Some((_, list)) => list.push(h),
                None => out.push((&h.table, vec![h])),
            }
        }
        out
    }
}

#[cfg(test)]
impl Measures {
    /// A zero-sum game's outcome with these declared measures, no histograms: for tests.
    pub(crate) fn declaring(measures: Vec<Measure>) -> Measures {
        Measures {
            score: Score {
                key: "net".into(),
                column: "chips_per_round".into(),
                pair_column: "chips_diff_per_round".into(),
                description: String::new(),
                zero_sum: true,
                bounds: crate::stats::Bounds::NONE,
            },
            unit: "round".into(),
            length: String::new(),
            first_seat: "seat 0 deals".into(),
            always_won: true,
            measures,
            histograms: vec![],
            cards: None,
        }
    }
}
