//! Seven Card Draft rules: every option of `docs/games/seven-card-draft.md`, with the
//! source's schedule and the documented defaults for the points it leaves open.

use crate::games::RuleStep;
use serde::{Deserialize, Serialize};

use crate::cards::{Card, Deck, DeckPreset, Rank};
use crate::error::{Fault, InputError};
use crate::eval::{Evaluator, WildRules};
use crate::games::GameRules;
use crate::games::contest::Compiled;
use crate::games::contest::RulesRng;
use crate::sim::MAX_SEATS;

/// How large a bet or raise may be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Limit {
    /// Every bet and raise is exactly the betting round's size.
    #[default]
    FixedLimit,
    /// A raise is at least the round's size (or the last raise) and at most the pot after calling.
    PotLimit,
    /// A raise is at least the round's size (or the last raise), up to the whole stack.
    NoLimit,
}

impl Limit {
    /// The value as a rules file writes it.
    pub fn name(self) -> &'static str {
        match self {
            Limit::FixedLimit => "fixed-limit",
            Limit::PotLimit => "pot-limit",
            Limit::NoLimit => "no-limit",
        }
    }
}

/// The [`RoundResult::rules_used`](crate::sim::RoundResult::rules_used) bit of a bet or
/// raise other than the fixed amount.
pub const LIMIT_USED: u32 = 0;

/// The [`RoundResult::rules_used`](crate::sim::RoundResult::rules_used) bit of a decision
/// whose moves the raise cap changed (a raise one cap allows and the default does not, or
/// the other way round).
pub const RAISE_CAP_USED: u32 = 1;

/// What one simulated unit is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// One round with fresh equal stacks; round k passes left when k is even.
    #[default]
    Round,
    /// Rounds until one player holds every chip.
    Game,
}

/// The rules of a Seven Card Draft variant, as written in a rules file.
///
/// Unknown keys are refused; every key has the default shown by `draftsim list rules
/// seven-card-draft`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// Number of players.
    pub players: usize,
    /// Deck preset (ignored when `ranks` is given).
    pub deck: DeckPreset,
    /// The deck's ranks, e.g. ["6","7","8","9","T","J","Q","K","A"]; overrides `deck`.
    pub ranks: Option<Vec<String>>,
    /// Whether a flush beats a full house; unset means the deck's convention.
    pub flush_beats_full_house: Option<bool>,
    /// Cards in each pack, which is also the number of picks.
    pub pack_size: usize,
    /// Picks (1-based) that are turned face up once everyone has picked.
    pub face_up_picks: Vec<usize>,
    /// Picks (1-based) after which a betting round is played.
    pub bet_after_picks: Vec<usize>,
    /// Chips each player antes.
    pub ante: u32,
    /// Chips each player starts with.
    pub starting_stack: u32,
    /// Bet size of each betting round (fixed limit), or its minimum (pot and no limit).
    pub bet_sizes: Vec<u32>,
    /// Most raises in one betting round, the opening bet included; 0 means no cap.
    pub raise_cap: u32,
    /// Betting structure.
    pub limit: Limit,
    /// Wild rules in force: one name or a list.
    pub wild: WildRules,
    /// `round` or `game`.
    pub mode: Mode,
    /// In game mode, the most rounds a game may last before it is scored by stacks.
    pub max_rounds_per_game: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            players: 4,
            deck: DeckPreset::Standard52,
            ranks: None,
            flush_beats_full_house: None,
            pack_size: 7,
            face_up_picks: vec![2, 4],
            bet_after_picks: vec![2, 4, 7],
            ante: 1,
            starting_stack: 100,
            bet_sizes: vec![1, 1, 2],
            raise_cap: 3,
            limit: Limit::FixedLimit,
            wild: WildRules::none(),
            mode: Mode::Round,
            max_rounds_per_game: 1000,
        }
    }
}

impl GameRules for Rules {
    /// Each rules key with its meaning, for `draftsim list rules seven-card-draft`.
    const HELP: &'static [(&'static str, &'static str)] = &[
        ("players", "number of players, 2 up to 7 (and at most deck size / pack size)"),
        ("deck", "deck preset: standard-52, no-deuces-48, short-36, piquet-32"),
        (
            "ranks",
            "the deck's ranks as a list, e.g. [\"6\",\"7\",\"8\",\"9\",\"T\",\"J\",\"Q\",\"K\",\"A\"]; overrides deck",
        ),
        ("flush_beats_full_house", "true or false; unset follows the deck (true for short-36 and piquet-32)"),
        ("pack_size", "cards in each pack and so picks per round, 5 to 7"),
        ("face_up_picks", "picks turned face up once everyone has picked"),
        ("bet_after_picks", "picks after which a betting round is played; the last must be the final pick"),
        ("ante", "chips each player antes"),
        ("starting_stack", "chips each player starts a round (or game) with"),
        ("bet_sizes", "bet size per betting round (fixed limit) or minimum bet (pot and no limit)"),
        ("raise_cap", "most raises per betting round, the opening bet included; 0 means no cap"),
        ("limit", "fixed-limit, pot-limit or no-limit"),
        ("wild", "wild rules: none, deuces, deuces-with-face, last-pick, rank-R, rank-R-with-face, or a list"),
        ("mode", "round (one round, fresh stacks) or game (until one player holds every chip)"),
        ("max_rounds_per_game", "game mode: rounds after which a game is scored by stacks"),
    ];

    /// The keys `sensitivity` steps (see [`crate::games::RuleStep`]).
    const STEPS: &'static [(&'static str, RuleStep)] = &[
        ("players", RuleStep::Int { min: 2, max: 7, step: 1 }),
        ("deck", RuleStep::Choice(&["\"standard-52\"", "\"no-deuces-48\"", "\"short-36\"", "\"piquet-32\""])),
        ("pack_size", RuleStep::Int { min: 5, max: 7, step: 1 }),
        ("face_up_picks", RuleStep::Choice(&["[]", "[2, 4]", "[2, 4, 6]"])),
        ("ante", RuleStep::Int { min: 0, max: 100, step: 1 }),
        ("raise_cap", RuleStep::Int { min: 0, max: 10, step: 1 }),
        ("limit", RuleStep::Choice(&["\"fixed-limit\"", "\"pot-limit\"", "\"no-limit\""])),
        ("wild", RuleStep::Choice(&["\"none\"", "\"deuces\"", "\"last-pick\""])),
    ];

    fn players(&self) -> usize {
        self.players
    }

    fn resolved(&self) -> Self {
        let deck = self.deck_in_play().map(|d| d.flush_beats_full_house).ok();
        Self { flush_beats_full_house: deck.or(self.flush_beats_full_house), ..self.clone() }
    }

    fn follow(&mut self, key: &str, named: &[&str]) -> bool {
        let n = self.pack_size;
        if key != "pack_size" || n == 0 {
            return false;
        }
        let before = (self.bet_after_picks.clone(), self.bet_sizes.clone(), self.face_up_picks.clone());
        // The last betting round follows the final pick, wherever the pack now ends; the
        // earlier rounds and face-up picks stay where the pack still reaches.
        if !named.contains(&"bet_after_picks") && !self.bet_after_picks.is_empty() {
            let last_size = self.bet_sizes.last().copied();
            self.bet_after_picks.pop();
            let kept = self.bet_after_picks.iter().take_while(|&&p| p < n).count();
            self.bet_after_picks.truncate(kept);
            self.bet_after_picks.push(n);
            if !named.contains(&"bet_sizes") && self.bet_sizes.len() == before.0.len() {
                self.bet_sizes.truncate(kept);
                self.bet_sizes.extend(last_size);
            }
        }
        if !named.contains(&"face_up_picks") {
            self.face_up_picks.retain(|&p| p <= n);
        }
        before != (self.bet_after_picks.clone(), self.bet_sizes.clone(), self.face_up_picks.clone())
    }

    /// Checks the rules by compiling them.
    fn check(&self) -> Result<(), InputError> {
        self.compile().map(|_| ())
    }

    fn players_mut(&mut self) -> &mut usize {
        &mut self.players
    }

    /// Valid rules drawn at random over every option (for soak and property tests).
    fn random_from(rng: &mut RulesRng) -> Rules {
        use rand::Rng;
        use rand::seq::IndexedRandom;
        let deck = *[DeckPreset::Standard52, DeckPreset::NoDeuces48, DeckPreset::Short36, DeckPreset::Piquet32]
            .choose(rng)
            .expect("decks");
        let ranks = rng.random_bool(0.15).then(|| {
            let all = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
            all[rng.random_range(0..=5)..].iter().map(|r| r.to_string()).collect::<Vec<_>>()
        });
        let cards = ranks.as_ref().map_or(deck.deck().len(), |r| r.len() * 4);
        let pack_size = rng.random_range(5..=7);
        let players = rng.random_range(2..=(cards / pack_size).min(7));
        let mut bet_after: Vec<usize> = (1..pack_size).filter(|_| rng.random_bool(0.35)).collect();
        bet_after.push(pack_size);
        let face_up: Vec<usize> = (1..=pack_size).filter(|_| rng.random_bool(0.3)).collect();
        let wild = ["none", "deuces", "deuces-with-face", "last-pick", "rank-9", "rank-K-with-face"];
        let mut names: Vec<&str> = vec![wild.choose(rng).expect("wilds")];
        if rng.random_bool(0.2) {
            names.push("last-pick");
            names.dedup();
        }
        let ante = rng.random_range(0..=2);
        let game = rng.random_bool(0.3);
        Rules {
            players,
            deck,
            ranks,
            flush_beats_full_house: [None, Some(true), Some(false)][rng.random_range(0..3)],
            pack_size,
            face_up_picks: face_up,
            bet_sizes: bet_after.iter().map(|_| rng.random_range(1..=3)).collect(),
            bet_after_picks: bet_after,
            ante,
            starting_stack: ante + rng.random_range(1..=60),
            raise_cap: rng.random_range(0..=4),
            limit: [Limit::FixedLimit, Limit::PotLimit, Limit::NoLimit][rng.random_range(0..3)],
            wild: WildRules::parse_names(names).expect("known wild rules"),
            mode: if game { Mode::Game } else { Mode::Round },
            max_rounds_per_game: rng.random_range(1..=40),
        }
    }
}

impl Rules {
    /// The deck these rules play: `ranks` over `deck`, with `flush_beats_full_house` over
    /// the deck's convention.
    fn deck_in_play(&self) -> Result<Deck, InputError> {
        let mut deck = match &self.ranks {
            Some(list) => {
                let ranks = list
                    .iter()
                    .map(|r| r.parse::<Rank>().map_err(|e| e.context("ranks")))
                    .collect::<Result<Vec<_>, _>>()?;
                Deck::from_ranks(&ranks)?
            }
            None => self.deck.deck(),
        };
        if let Some(v) = self.flush_beats_full_house {
            deck.flush_beats_full_house = v;
        }
        Ok(deck)
    }

    /// Checks the rules and prepares what the engine needs.
    pub fn compile(&self) -> Result<Variant, InputError> {
        let deck = self.deck_in_play()?;
        if !(5..=7).contains(&self.pack_size) {
            return Err(InputError::new(format!("pack_size = {}: use 5, 6 or 7", self.pack_size)));
        }
        let max_players = (deck.len() / self.pack_size).min(MAX_SEATS.min(7));
        if self.players < 2 || self.players > max_players {
            return Err(InputError::new(format!(
                "players = {}: a {}-card deck seats 2 to {max_players} players at {} cards a pack",
                self.players,
                deck.len(),
                self.pack_size
            ))
            .about(Fault::Players));
        }
        // What the picks would be had the pack size brought them along (as a study's step
        // does), offered as the fix where the pack is smaller than they reach.
        let mut fitted = self.clone();
        fitted.follow("pack_size", &[]);
        let fix = |key: &str| {
            let (picks, sizes) = match key {
                "face_up_picks" => (&fitted.face_up_picks, None),
                _ => (&fitted.bet_after_picks, Some(&fitted.bet_sizes).filter(|s| **s != self.bet_sizes)),
            };
            // Nothing to offer where bringing the picks along changes nothing (no rounds).
            let given = if key == "face_up_picks" { &self.face_up_picks } else { &self.bet_after_picks };
            if picks == given {
                return String::new();
            }
            let list = |v: &[String]| format!("[{}]", v.join(", "));
            let picks: Vec<String> = picks.iter().map(usize::to_string).collect();
            let sizes = sizes.map_or(String::new(), |s| {
                format!(" and bet_sizes = {}", list(&s.iter().map(u32::to_string).collect::<Vec<_>>()))
            });
            format!("; with pack_size = {}, set {key} = {}{sizes}", self.pack_size, list(&picks))
        };
        for (key, picks) in [("face_up_picks", &self.face_up_picks), ("bet_after_picks", &self.bet_after_picks)] {
            if let Some(p) = picks.iter().find(|&&p| p == 0 || p > self.pack_size) {
                return Err(InputError::new(format!(
                    "{key}: pick {p} does not exist; picks run 1 to {}{}",
                    self.pack_size,
                    if *p > self.pack_size { fix(key) } else { String::new() }
                )));
            }
            if picks.windows(2).any(|w| w[0] >= w[1]) {
                return Err(InputError::new(format!("{key}: list the picks in increasing order, each once")));
            }
        }
        if self.bet_after_picks.last() != Some(&self.pack_size) {
            return Err(InputError::new(format!(
                "bet_after_picks: the last betting round must follow the final pick ({}){}",
                self.pack_size,
                fix("bet_after_picks")
            )));
        }
        if self.bet_sizes.len() != self.bet_after_picks.len() {
            return Err(InputError::new(format!(
                "bet_sizes: give one size per betting round ({} rounds in bet_after_picks, {} sizes)",
                self.bet_after_picks.len(),
                self.bet_sizes.len()
            )));
        }
        if self.bet_sizes.contains(&0) {
            return Err(InputError::new("bet_sizes: every bet size must be at least 1"));
        }
        if self.starting_stack <= self.ante {
            return Err(InputError::new("starting_stack: must be larger than the ante"));
        }
        if self.mode == Mode::Game && self.max_rounds_per_game == 0 {
            return Err(InputError::new("max_rounds_per_game: must be at least 1"));
        }
        let mut face_up = 0u16;
        self.face_up_picks.iter().for_each(|&p| face_up |= 1 << p);
        let mut bet_round_after = [u8::MAX; 8];
        for (i, &p) in self.bet_after_picks.iter().enumerate() {
            bet_round_after[p] = i as u8;
        }
        let eval = Evaluator::new(&deck);
        Ok(Variant {
            percentiles: super::strength::Percentiles::of_deck(&deck, &eval, self.pack_size),
            eval,
            straights: deck.straights(),
            deck_cards: deck.card_list(),
            deck,
            face_up_mask: face_up,
            bet_round_after,
            raise_cap_differs_from: {
                let (cap, default) = (self.raise_cap, Rules::default().raise_cap);
                // 0 is no cap: the two differ from the smaller cap on.
                let or_never = |c: u32| if c == 0 { u32::MAX } else { c };
                if cap == default { u32::MAX } else { or_never(cap).min(or_never(default)) }
            },
            rules: self.clone(),
        })
    }
}

impl Compiled<Rules> for Variant {
    fn compile(rules: &Rules) -> Result<Variant, InputError> {
        rules.compile()
    }
    fn rules_file(&self) -> &Rules {
        &self.rules
    }
}

/// Checked rules plus what the engine derives from them once.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The rules as given.
    pub rules: Rules,
    /// The deck in play.
    pub deck: Deck,
    /// The deck's cards, in index order (the deal shuffles a copy).
    pub deck_cards: Vec<Card>,
    /// The hand evaluator for this deck.
    pub eval: Evaluator,
    /// The deck's straights, highest first.
    pub straights: Vec<(u16, Rank)>,
    /// Where each hand value ranks among random finished hands (bots' estimates).
    pub percentiles: std::sync::Arc<super::strength::Percentiles>,
    /// Bit p set when pick p is turned face up.
    face_up_mask: u16,
    /// For each pick number, the betting round that follows it (`u8::MAX` if none).
    bet_round_after: [u8; 8],
    /// Raises already made in a betting round from which this raise cap and the default's
    /// allow different moves (`u32::MAX`: the same cap, or never).
    pub raise_cap_differs_from: u32,
}

impl Variant {
    /// Whether pick `p` (1-based) is turned face up.
    pub fn is_face_up(&self, pick: usize) -> bool {
        self.face_up_mask & (1 << pick) != 0
    }

    /// The betting round (0-based) played after pick `p`, if any.
    pub fn betting_round_after(&self, pick: usize) -> Option<usize> {
        let r = self.bet_round_after[pick];
        (r != u8::MAX).then_some(r as usize)
    }

    /// Number of betting rounds.
    pub fn betting_rounds(&self) -> usize {
        self.rules.bet_after_picks.len()
    }

    /// The settings away from the defaults whose use the engine records per unit: a limit
    /// other than fixed is used when a seat bets or raises other than the fixed amount
    /// (bit [`LIMIT_USED`]); a raise cap other than the default's when a seat decides with
    /// as many raises made as the smaller of the two caps (bit [`RAISE_CAP_USED`]).
    pub fn rule_uses(&self) -> Vec<crate::sim::RuleUse> {
        let mut out = Vec::new();
        if self.rules.limit != Limit::FixedLimit {
            out.push(crate::sim::RuleUse {
                bit: LIMIT_USED,
                setting: format!("limit = \"{}\"", self.rules.limit.name()),
                unused: "no seated strategy bet more than the fixed amount; these are fixed-limit results".into(),
            });
        }
        if self.raise_cap_differs_from != u32::MAX {
            out.push(crate::sim::RuleUse {
                bit: RAISE_CAP_USED,
                setting: format!("raise_cap = {}", self.rules.raise_cap),
                unused: format!(
                    "no betting round reached the raises where it differs from the default cap of {}; these are the default's results",
                    Rules::default().raise_cap
                ),
            });
        }
        out
    }

    /// Options that change nothing under these rules, one line each naming the key and
    /// the fix: a wild rank the deck lacks (or a with-face rule without face cards), a
    /// `deck` that `ranks` overrides, a game-mode cap in round mode.
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        let faces = self.deck.rank_mask & (0b111 << Rank::JACK.0);
        for rule in self.rules.wild.rules() {
            let crate::eval::WildRule::Rank { rank, with_face } = *rule else { continue };
            let r = rank.to_char();
            if self.deck.rank_mask & (1 << rank.0) == 0 {
                out.push(format!(
                    "wild: {r}s wild (\"{rule}\"), but the {}-card deck has no {r}, so this rule makes no card wild; drop it or use a deck with {r}s",
                    self.deck.len()
                ));
            } else if with_face && faces & !(1 << rank.0) == 0 {
                out.push(format!(
                    "wild: {r}s wild beside a face card (\"{rule}\"), but the deck has no other J, Q or K to stand beside a {r}, so this rule makes no card wild; drop it"
                ));
            }
        }
        let defaults = Rules::default();
        if self.rules.ranks.is_some() && self.rules.deck != defaults.deck {
            out.push(format!(
                "deck = \"{}\": ranks overrides it, so it does nothing; drop one of them",
                self.rules.deck
            ));
        }
        if self.rules.mode == Mode::Round && self.rules.max_rounds_per_game != defaults.max_rounds_per_game {
            out.push(
                "max_rounds_per_game: counts only in mode = \"game\" (this is round mode); drop it or set mode = \"game\""
                    .into(),
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_source() {
        let v = Rules::default().compile().unwrap();
        assert!(v.is_face_up(2) && v.is_face_up(4) && !v.is_face_up(7));
        assert_eq!(v.betting_round_after(2), Some(0));
        assert_eq!(v.betting_round_after(7), Some(2));
        assert_eq!(v.betting_round_after(3), None);
        assert_eq!(v.deck.len(), 52);
    }

    #[test]
    fn impossible_rules_name_the_field() {
        let err = Rules::from_toml("players = 8").unwrap().compile().unwrap_err().to_string();
        assert!(err.starts_with("players = 8") && err.contains("2 to 7"), "{err}");
        let err = Rules::from_toml("players = 5\ndeck = \"piquet-32\"").unwrap().compile().unwrap_err().to_string();
        assert!(err.contains("2 to 4"), "{err}");
        // A study's pack size takes the last betting round with it, earlier ones and face-up
        // picks where the pack still reaches, but not what the study set itself.
        let followed = |text: &str, named: &[&str]| {
            let mut r = Rules::from_toml(text).unwrap();
            let changed = r.follow("pack_size", named);
            (changed, r.bet_after_picks, r.bet_sizes, r.face_up_picks)
        };
        assert_eq!(followed("pack_size = 6", &["pack_size"]), (true, vec![2, 4, 6], vec![1, 1, 2], vec![2, 4]));
        let five = "pack_size = 5\nbet_after_picks = [2, 5, 7]\nbet_sizes = [1, 2, 3]\nface_up_picks = [2, 4, 6]";
        assert_eq!(followed(five, &["pack_size"]), (true, vec![2, 5], vec![1, 3], vec![2, 4]));
        let grown = "pack_size = 7\nbet_after_picks = [2, 4, 6]\nface_up_picks = [2, 4, 6]";
        assert_eq!(followed(grown, &["pack_size"]), (true, vec![2, 4, 7], vec![1, 1, 2], vec![2, 4, 6]));
        assert!(!followed("pack_size = 7", &["pack_size"]).0, "the defaults already fit");
        let named = followed("pack_size = 6", &["pack_size", "bet_after_picks"]);
        assert_eq!(named.1, vec![2, 4, 7], "a key the study set is kept");
        for text in ["pack_size = 5", "pack_size = 6", five, grown] {
            let mut r = Rules::from_toml(text).unwrap();
            r.follow("pack_size", &["pack_size"]);
            r.compile().unwrap();
        }
        // A pack size alone is told the picks that fit it.
        let err = Rules::from_toml("pack_size = 5").unwrap().compile().unwrap_err().to_string();
        assert_eq!(
            err,
            "bet_after_picks: pick 7 does not exist; picks run 1 to 5; with pack_size = 5, set bet_after_picks = [2, 4, 5]"
        );
        let err = Rules::from_toml("pack_size = 6\nbet_after_picks = [2, 4]\nbet_sizes = [1, 2]").unwrap();
        let err = err.compile().unwrap_err().to_string();
        assert!(err.ends_with("final pick (6); with pack_size = 6, set bet_after_picks = [2, 6]"), "{err}");
        let err = Rules::from_toml("bet_after_picks = []\nbet_sizes = []").unwrap().compile().unwrap_err().to_string();
        assert_eq!(err, "bet_after_picks: the last betting round must follow the final pick (7)");
        let err = Rules::from_toml("bet_sizes = [1, 2]").unwrap().compile().unwrap_err().to_string();
        assert!(err.starts_with("bet_sizes"), "{err}");
        let err = Rules::from_toml("bet_after_picks = [2, 4]").unwrap().compile().unwrap_err().to_string();
        assert!(err.starts_with("bet_after_picks"), "{err}");
        let err =
            Rules::from_toml("ranks = [\"2\", \"3\", \"X\", \"5\", \"6\"]").unwrap().compile().unwrap_err().to_string();
        assert!(err.contains("ranks") && err.contains("'X'"), "{err}");
    }

    #[test]
    fn unknown_keys_and_bad_values_are_refused() {
        let err = Rules::from_toml("playerz = 4").unwrap_err().to_string();
        assert!(err.contains("playerz") && !err.contains('\n'), "{err}");
        let err = Rules::from_toml("limit = \"spread\"").unwrap_err().to_string();
        assert!(err.contains("spread"), "{err}");
        let err = Rules::from_toml("wild = \"jokers\"").unwrap_err().to_string();
        assert!(err.contains("jokers"), "{err}");
        let r = Rules::from_toml("wild = [\"deuces-with-face\", \"last-pick\"]\nmode = \"game\"").unwrap();
        assert_eq!(r.wild.to_string(), "deuces-with-face,last-pick");
        assert_eq!(r.mode, Mode::Game);
        let back = Rules::from_toml(&toml::to_string(&r).unwrap()).unwrap();
        assert_eq!(back, r);
    }
}
