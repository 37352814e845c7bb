//! A trained policy on disk and in play: for each information set (seat and information
//! key) the probability of each legal move, in the order the forward model lists them.
//! `policy.json` holds a header (game, rules and their hash, abstraction, algorithm,
//! iterations, exploitability) and the sets; the `cfr` preset plays from it.

use std::collections::HashMap;
use std::path::Path;

include!(concat!(env!("OUT_DIR"), "/shipped_policies.rs"));

use serde::{Deserialize, Serialize};

use super::tree::{TabularPolicy, Tree};
use crate::error::{Fault, InputError};

/// The file a policy folder holds.
pub const POLICY_FILE: &str = "policy.json";
/// The version of the policy file's layout.
pub const FORMAT: u32 = 1;

/// How a refused policy's fix names the rules to train under, where the rules file (if
/// any) is not known here: a command that knows it puts the file's path in its place, or
/// drops it under the default rules.
pub const RULES_FILE: &str = "--rules FILE";

/// What a policy was trained on and how far it is from optimal.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyHeader {
    /// The file layout's version.
    pub format: u32,
    /// The game's name.
    pub game: String,
    /// The rules file it was trained under (TOML).
    pub rules: String,
    /// A hash of those rules (CRC-32 of the TOML, hex), checked when a seat plays it.
    pub rules_hash: String,
    /// How decisions are told apart ("exact information sets" for the reference games).
    pub abstraction: String,
    /// The algorithm (`cfr`, `cfr+`, `dcfr`, `es-mccfr`).
    pub algorithm: String,
    /// Iterations trained.
    pub iterations: u64,
    /// Its exploitability (NashConv over the players), where it was measured exactly.
    pub exploitability: Option<f64>,
    /// Seats at the table it was trained for.
    pub players: usize,
    /// The heuristic preset that made the decisions the abstraction leaves out (a game's
    /// picks) in training, and makes them, and any it never trained on, in play. None:
    /// those are played uniformly at random.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<String>,
    /// The fallback's TOML as it was read in training: a seat plays it rather than what
    /// the name finds where the policy is played (a preset file by a relative path, or
    /// one changed since).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback_toml: Option<String>,
    /// The strategies that took other seats' places in training (`train --field`), none
    /// for self-play alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub field: Vec<String>,
    /// The chance that each other seat of a traversal was one of the field's strategies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field_share: Option<f64>,
    /// Iterations a batch, where a sampled run read its strategies once a batch
    /// (`train --batch`); none for one at a time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<u64>,
}

/// The hash of a rules file's TOML a policy records.
pub fn rules_hash(rules_toml: &str) -> String {
    format!("{:08x}", crc32fast::hash(rules_toml.as_bytes()))
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PolicyFile {
    header: PolicyHeader,
    /// (seat, information key, probability of each move).
    sets: Vec<(usize, u64, Vec<f64>)>,
    /// [`sets_hash`] of `sets`, checked when read: a set changed by hand (a probability
    /// added, a key or a figure edited) is a damaged file, refused before it plays. Files
    /// written without one are read unchecked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sets_hash: Option<String>,
}

/// CRC-32 (hex) of sets in (seat, key) order: each seat, key, count of probabilities and
/// the probabilities' bits, little-endian.
fn sets_hash<'a>(sets: impl IntoIterator<Item = &'a (usize, u64, Vec<f64>)>) -> String {
    let mut h = crc32fast::Hasher::new();
    for (seat, key, p) in sets {
        h.update(&(*seat as u64).to_le_bytes());
        h.update(&key.to_le_bytes());
        h.update(&(p.len() as u64).to_le_bytes());
        for x in p {
            h.update(&x.to_bits().to_le_bytes());
        }
    }
    format!("{:08x}", h.finalize())
}

/// A policy: each information set's move probabilities.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    /// What it was trained on.
    pub header: PolicyHeader,
    sets: HashMap<(usize, u64), Vec<f64>, foldhash::fast::FixedState>,
    /// Where it was read from (named in errors found in play); empty for one trained here.
    source: String,
    /// Read from a folder that stands where a shipped policy's name points, holding another
    /// policy (one retrained in this checkout): what a seat plays is then not the shipped one.
    pub shadows_shipped: bool,
}

impl Policy {
    /// Where it was read from: a file, or the shipped policy's name; empty for one trained
    /// here.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The tree's tabular policy, keyed by its information sets.
    pub fn from_tree(tree: &Tree, policy: &TabularPolicy, header: PolicyHeader) -> Policy {
        let sets = tree.infosets.iter().zip(policy).map(|(i, p)| ((i.seat, i.key), p.clone())).collect();
        Policy { header, sets, source: String::new(), shadows_shipped: false }
    }

    /// A policy of (seat, information key, probability of each move) sets.
    pub fn from_sets(header: PolicyHeader, sets: Vec<(usize, u64, Vec<f64>)>) -> Policy {
        Policy {
            header,
            sets: sets.into_iter().map(|(s, k, p)| ((s, k), p)).collect(),
            source: String::new(),
            shadows_shipped: false,
        }
    }

    /// The probabilities of the moves at `seat`'s information set `key`, if it was trained.
    pub fn probs(&self, seat: usize, key: u64) -> Option<&[f64]> {
        self.sets.get(&(seat, key)).map(Vec::as_slice)
    }

    /// [`Policy::probs`] at a decision of `moves` legal moves: a trained set with another
    /// number of probabilities is a damaged file or another abstraction's, refused (training
    /// gives one key one menu).
    pub fn probs_for(&self, seat: usize, key: u64, moves: usize) -> Result<Option<&[f64]>, InputError> {
        match self.probs(seat, key) {
            Some(p) if p.len() != moves => Err(self.menu_mismatch(seat, key, p.len(), moves)),
            found => Ok(found),
        }
    }

    /// The error of a set whose probabilities do not fit the decision's menu.
    pub fn menu_mismatch(&self, seat: usize, key: u64, probs: usize, moves: usize) -> InputError {
        let which = if self.source.is_empty() { format!("for {}", self.header.game) } else { self.source.clone() };
        InputError::new(format!(
            "policy {which}: set {key:#x} of seat {seat} holds {probs} probabilities where the decision has {moves} moves: the file is damaged or from another abstraction; train it again"
        ))
    }

    /// Information sets it holds.
    pub fn len(&self) -> usize {
        self.sets.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }

    /// This policy as a tabular policy over `tree` (an information set it lacks: uniform).
    pub fn tabular(&self, tree: &Tree) -> TabularPolicy {
        tree.infosets
            .iter()
            .map(|i| match self.probs(i.seat, i.key) {
                Some(p) if p.len() == i.actions => p.to_vec(),
                _ => vec![1.0 / i.actions as f64; i.actions],
            })
            .collect()
    }

    /// Writes `policy.json` into `dir`'s staging folder (sets in key order, so the bytes
    /// depend on the policy alone).
    pub fn to_json(&self) -> String {
        let mut sets: Vec<(usize, u64, Vec<f64>)> = self.sets.iter().map(|(&(s, k), p)| (s, k, p.clone())).collect();
        sets.sort_by_key(|s| (s.0, s.1));
        let sets_hash = Some(sets_hash(&sets));
        serde_json::to_string(&PolicyFile { header: self.header.clone(), sets, sets_hash })
            .expect("a policy serialises")
    }

    /// Reads a policy folder (or its `policy.json`); one line naming what is wrong.
    pub fn read(path: &Path) -> Result<Policy, InputError> {
        let (label, text) = Policy::read_text(path)?;
        Policy::parse(&text, &label)
    }

    /// The text of a policy folder's (or a file's) `policy.json`, with the file's name.
    fn read_text(path: &Path) -> Result<(String, String), InputError> {
        let train = "give the folder `draftsim train --out DIR` wrote, or train one";
        if path.as_os_str().is_empty() {
            return Err(InputError::new(format!("policy is empty: {train}")));
        }
        if !path.exists() {
            return Err(InputError::new(format!("policy {}: no such folder or file; {train}", path.display())));
        }
        let file = if path.is_dir() { path.join(POLICY_FILE) } else { path.to_path_buf() };
        if !file.exists() {
            return Err(InputError::new(format!(
                "policy {}: the folder holds no {POLICY_FILE}, so it is no trained policy; {train}",
                path.display()
            )));
        }
        let text = std::fs::read_to_string(&file)
            .map_err(|e| InputError::new(format!("policy {}: cannot be read ({e}); {train}", file.display())))?;
        Ok((file.display().to_string(), text))
    }

    /// A preset's policy: the folder (or policy.json) as given where it exists, else the
    /// shipped policy of that name, which the binary carries.
    pub fn open(path: &str) -> Result<Policy, InputError> {
        let given = Path::new(path);
        let folder = path.strip_suffix(POLICY_FILE).unwrap_or(path).trim_end_matches('/');
        let shipped = SHIPPED.iter().find(|(f, _)| *f == folder).map(|(_, text)| *text);
        match shipped {
            Some(text) if !given.exists() => Policy::parse(text, path),
            Some(shipped) => {
                let (label, text) = Policy::read_text(given)?;
                let mut policy = Policy::parse(&text, &label)?;
                // The same text is the same policy; other text (reindented, other line
                // endings) is compared as the policy it reads as.
                policy.shadows_shipped = text != shipped
                    && Policy::parse(shipped, path).is_ok_and(|s| s.header != policy.header || s.sets != policy.sets);
                Ok(policy)
            }
            None => Policy::read(given),
        }
    }

    /// Parses a policy file's text (`label` names it in errors).
    fn parse(text: &str, label: &str) -> Result<Policy, InputError> {
        let bad = |what: String| InputError::new(format!("policy {label}: {what}"));
        let f: PolicyFile = serde_json::from_str(text).map_err(|e| bad(format!("not a policy file ({e})")))?;
        if f.header.format != FORMAT {
            return Err(bad(format!("format {} is not {FORMAT}; train it again", f.header.format)));
        }
        let damaged = "the file was changed since draftsim wrote it (damaged); train it again";
        if f.header.rules_hash != rules_hash(&f.header.rules) {
            return Err(bad(format!("its rules do not match the rules hash its header records: {damaged}")));
        }
        // The table size is read from the header but the rules record it too: a header
        // edited against them would send a user between two refusals.
        let players_in_rules = toml::from_str::<toml::Table>(&f.header.rules)
            .ok()
            .and_then(|t| t.get("players").and_then(toml::Value::as_integer));
        if let Some(n) = players_in_rules
            && n != f.header.players as i64
        {
            return Err(bad(format!(
                "its header says {} players but its rules say players = {n}: {damaged}",
                f.header.players
            )));
        }
        if let Some(recorded) = &f.sets_hash {
            let mut sorted: Vec<&(usize, u64, Vec<f64>)> = f.sets.iter().collect();
            sorted.sort_by_key(|s| (s.0, s.1));
            if sets_hash(sorted) != *recorded {
                return Err(bad(format!("its sets do not match the hash it records: {damaged}")));
            }
        }
        let mut sets = HashMap::with_capacity_and_hasher(f.sets.len(), Default::default());
        for (seat, key, p) in f.sets {
            let sum: f64 = p.iter().sum();
            if p.is_empty() || p.iter().any(|x| !(x.is_finite() && *x >= 0.0)) || (sum - 1.0).abs() > 1e-6 {
                return Err(bad(format!("the probabilities of set {key:#x} of seat {seat} are not a distribution")));
            }
            if seat >= f.header.players {
                return Err(bad(format!(
                    "set {key:#x} is of seat {seat}, but the policy is for {} players",
                    f.header.players
                )));
            }
            if sets.insert((seat, key), p).is_some() {
                return Err(bad(format!("set {key:#x} of seat {seat} appears twice")));
            }
        }
        Ok(Policy { header: f.header, sets, source: label.to_string(), shadows_shipped: false })
    }

    /// Checks that it was trained for this game, rules and table. A fix that trains one
    /// names the rules as [`RULES_FILE`], for a command that knows the file to name it.
    pub fn check(&self, game: &str, rules_toml: &str, players: usize) -> Result<(), InputError> {
        let h = &self.header;
        if h.game != game {
            return Err(InputError::new(format!("policy for {}, not {game}: train one for {game}", h.game)));
        }
        // Rules that differ in more than the player count: a policy at its own table would
        // still be refused, so the fix is to train one.
        let differ = differing_keys(&h.rules, rules_toml);
        if h.players != players && !differ.is_empty() {
            return Err(InputError::with_fix(
                format!(
                    "policy trained for {} players (this table seats {players}) under other rules ({})",
                    h.players,
                    in_words(&differ, &h.rules)
                ),
                format!(
                    "train one for this table with `draftsim train --game {game} --players {players} {RULES_FILE}`"
                ),
            )
            .about(Fault::PolicyElsewhere));
        }
        if h.players != players {
            let shipped = match shipped_for(game, rules_toml, players) {
                Some(name) => format!(", seat `{name}` (shipped for this table)"),
                None => String::new(),
            };
            return Err(InputError::with_fix(
                format!("policy trained for {} players, not {players}", h.players),
                format!(
                    "seat it at its table (--players {}){shipped} or train one for this one with `draftsim train --game {game} --players {players} {RULES_FILE}`",
                    h.players
                ),
            )
            .about(Fault::PolicyElsewhere));
        }
        if h.rules_hash != rules_hash(rules_toml) {
            // A policy read from a file can print its rules as a file.
            let print = match self.source.is_empty() {
                true => String::new(),
                // The folder, as a preset names it, rather than the file in it.
                false => format!(
                    ": `draftsim list policy {} --rules > FILE` writes one",
                    match Path::new(&self.source) {
                        p if p.file_name().is_some_and(|n| n == POLICY_FILE) => p.parent().map_or_else(
                            || self.source.clone(),
                            |d| if d.as_os_str().is_empty() { ".".into() } else { d.display().to_string() }
                        ),
                        _ => self.source.clone(),
                    }
                ),
            };
            return Err(InputError::with_fix(
                format!("policy trained under other rules ({})", in_words(&differ, &h.rules)),
                format!(
                    "play it under the rules it was trained for (a rules file with those values{print}), or train one for these with `draftsim train --game {game} --players {players} {RULES_FILE}`"
                ),
            )
            .about(Fault::PolicyElsewhere));
        }
        Ok(())
    }
}

/// The preset of a shipped policy trained for this game, rules and table (its folder's
/// name, which the preset of that name plays), if there is one.
fn shipped_for(game: &str, rules_toml: &str, players: usize) -> Option<&'static str> {
    /// A policy file's header alone: the sets are skipped unread.
    #[derive(Deserialize)]
    struct HeaderOnly {
        header: PolicyHeader,
    }
    let hash = rules_hash(rules_toml);
    SHIPPED.iter().find_map(|(folder, text)| {
        let name = folder.strip_prefix("strategies/")?.strip_prefix(game)?.strip_prefix('/')?;
        let h = serde_json::from_str::<HeaderOnly>(text).ok()?.header;
        (h.game == game && h.players == players && h.rules_hash == hash).then_some(name)
    })
}

/// The keys two rules files set differently (the player count aside), each in words:
/// `ante = 2 in training, 1 here`.
fn differing_keys(trained: &str, here: &str) -> Vec<String> {
    crate::games::presets::differing_keys(trained, here)
        .into_iter()
        .filter(|(k, _, _)| k != "players")
        .map(|(k, a, b)| format!("{k} = {a} in training, {b} here"))
        .collect()
}

/// [`differing_keys`] as one phrase, at most three named; the trained rules' hash where no
/// key differs (the text does, e.g. a comment).
fn in_words(differ: &[String], trained: &str) -> String {
    match differ.len() {
        0 => format!("rules hash {}", rules_hash(trained)),
        n if n > 3 => format!("{} and {} more keys", differ[..3].join("; "), n - 3),
        _ => differ.join("; "),
    }
}
