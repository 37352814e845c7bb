//! The kinds of study: the name each records as its `kind`, the tables it writes (the
//! first is the one `report` finds it by) and, where its shards split it into whole units,
//! what it calls a unit. `merge`, `report` and the shard notes read this registry, so a new
//! study is one entry here, one file in `cli/` (its command and, if it shards, its merge)
//! and one in `report/` (its section).

/// One kind of study.
#[derive(Debug, PartialEq, Eq)]
pub struct Kind {
    /// The `kind` in its study.json (and its command's name).
    pub name: &'static str,
    /// The tables it always writes (a game may add its own); `report` finds the study by
    /// the first.
    pub tables: &'static [&'static str],
    /// What its units are called (plural) where `--shard` splits it into whole units;
    /// `None` where a shard plays a share of one run's chunks, or it does not shard.
    pub units: Option<&'static str>,
}

/// `draftsim run`.
pub const RUN: Kind =
    Kind { name: "run", tables: &["summary", "seats", "pairs", "health", "measures", "cards"], units: None };
/// `draftsim versus`.
pub const VERSUS: Kind = Kind { name: "versus", tables: &["versus"], units: Some("rule sets") };
/// `draftsim compare`.
pub const COMPARE: Kind = Kind { name: "compare", tables: &["matrix", "ratings", "equilibrium"], units: Some("pairs") };
/// `draftsim sweep`.
pub const SWEEP: Kind = Kind { name: "sweep", tables: &["sweep"], units: Some("variants") };
/// `draftsim ladder`.
pub const LADDER: Kind = Kind { name: "ladder", tables: &["ladder", "skill_depth"], units: Some("steps") };
/// `draftsim sensitivity`.
pub const SENSITIVITY: Kind =
    Kind { name: "sensitivity", tables: &["sensitivity", "sensitivity_refused"], units: Some("variants") };
/// `draftsim tune`.
pub const TUNE: Kind = Kind { name: "tune", tables: &["candidates", "convergence"], units: None };
/// `draftsim exploit`.
pub const EXPLOIT: Kind = Kind { name: "exploit", tables: &["candidates", "convergence"], units: None };
/// `draftsim calibrate`.
pub const CALIBRATE: Kind = Kind { name: "calibrate", tables: &["calibration", "field_calibration"], units: None };

/// `draftsim train`.
pub const TRAIN: Kind = Kind { name: "train", tables: &["training"], units: None };
/// `draftsim exploitability`.
pub const EXPLOITABILITY: Kind = Kind { name: "exploitability", tables: &["exploitability", "responses"], units: None };

/// Every kind of study, in the order the report shows their sections.
pub const KINDS: [&Kind; 11] =
    [&VERSUS, &SENSITIVITY, &RUN, &COMPARE, &SWEEP, &TUNE, &EXPLOIT, &CALIBRATE, &LADDER, &TRAIN, &EXPLOITABILITY];

/// The kind of study named `name` (as its study.json records it).
pub fn find(name: &str) -> Option<&'static Kind> {
    KINDS.iter().copied().find(|k| k.name == name)
}

/// The tables `report` finds studies by, each once, in report order.
pub fn key_tables() -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = Vec::new();
    for k in KINDS {
        if !keys.contains(&k.tables[0]) {
            keys.push(k.tables[0]);
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found() {
        for k in KINDS {
            assert_eq!(find(k.name), Some(k));
            assert!(!k.tables.is_empty());
        }
        assert_eq!(find("nonesuch"), None);
        // Only tune and exploit share a key table: one section draws both.
        assert_eq!(key_tables().len(), KINDS.len() - 1);
    }
}
