//! Wild-card rules as data: which cards of a hand are wild.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::cards::{Card, CardSet, Rank, Suit};
use crate::error::InputError;

/// One rule that makes cards wild.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WildRule {
    /// The card taken at the final pick is wild, whatever its rank.
    LastPick,
    /// Every card of a rank is wild; with `with_face`, only when its holder also holds a
    /// J, Q or K of the wild card's suit.
    Rank {
        /// The wild rank.
        rank: Rank,
        /// Whether a same-suit face card is needed.
        with_face: bool,
    },
}

impl WildRule {
    /// The names `list rules` shows, with what each means.
    pub const HELP: &'static [(&'static str, &'static str)] = &[
        ("none", "no wild cards"),
        ("deuces", "every 2 is wild"),
        ("deuces-with-face", "a 2 is wild only if its holder also holds a J, Q or K of the 2's suit"),
        ("last-pick", "the card taken at the final pick is wild"),
        ("rank-R", "every card of rank R (2-9, T, J, Q, K, A) is wild, e.g. rank-9"),
        ("rank-R-with-face", "a card of rank R is wild only with another J, Q or K of its suit"),
    ];
}

impl fmt::Display for WildRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            WildRule::LastPick => f.write_str("last-pick"),
            WildRule::Rank { rank: Rank::TWO, with_face: false } => f.write_str("deuces"),
            WildRule::Rank { rank: Rank::TWO, with_face: true } => f.write_str("deuces-with-face"),
            WildRule::Rank { rank, with_face } => {
                write!(f, "rank-{}{}", rank.to_char(), if with_face { "-with-face" } else { "" })
            }
        }
    }
}

impl FromStr for WildRule {
    type Err = InputError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let rule = match s {
            "deuces" => Some(WildRule::Rank { rank: Rank::TWO, with_face: false }),
            "deuces-with-face" => Some(WildRule::Rank { rank: Rank::TWO, with_face: true }),
            "last-pick" => Some(WildRule::LastPick),
            _ => s.strip_prefix("rank-").and_then(|rest| {
                let (rank, with_face) = match rest.strip_suffix("-with-face") {
                    Some(r) => (r, true),
                    None => (rest, false),
                };
                rank.parse::<Rank>().ok().map(|rank| WildRule::Rank { rank, with_face })
            }),
        };
        rule.ok_or_else(|| {
            InputError::new(format!(
                "unknown wild rule '{s}': use none, deuces, deuces-with-face, last-pick, rank-R or rank-R-with-face (R one of 2-9 T J Q K A)"
            ))
        })
    }
}

/// The wild rules in force together; empty means no wild cards.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "WildSpec", into = "Vec<String>")]
pub struct WildRules {
    rules: Vec<WildRule>,
    /// Cards wild whatever else is held.
    plain: CardSet,
    /// Ranks wild only beside a same-suit face card, as a 13-bit mask.
    with_face: u16,
    last_pick: bool,
}

/// How a rules file may write the wild rules: one name or a list of names.
#[derive(Deserialize)]
#[serde(untagged)]
enum WildSpec {
    One(String),
    Many(Vec<String>),
}

impl TryFrom<WildSpec> for WildRules {
    type Error = InputError;
    fn try_from(spec: WildSpec) -> Result<Self, Self::Error> {
        match spec {
            WildSpec::One(name) => WildRules::parse_names([name.as_str()]),
            WildSpec::Many(names) => WildRules::parse_names(names.iter().map(String::as_str)),
        }
    }
}

impl From<WildRules> for Vec<String> {
    fn from(rules: WildRules) -> Self {
        rules.rules.iter().map(ToString::to_string).collect()
    }
}

impl WildRules {
    /// No wild cards.
    pub fn none() -> WildRules {
        WildRules::default()
    }

    /// The rules of these names (`none` adds nothing; names may also be joined by `,` or `+`).
    pub fn parse_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<WildRules, InputError> {
        let mut rules = Vec::new();
        for name in names.into_iter().flat_map(|n| n.split([',', '+'])).map(str::trim) {
            if name == "none" || name.is_empty() {
                continue;
            }
            let rule: WildRule = name.parse()?;
            if !rules.contains(&rule) {
                rules.push(rule);
            }
        }
        Ok(WildRules::from_rules(rules))
    }

    /// The rules from a list.
    pub fn from_rules(rules: Vec<WildRule>) -> WildRules {
        let mut out = WildRules { rules, ..WildRules::default() };
        for rule in &out.rules {
            match *rule {
                WildRule::LastPick => out.last_pick = true,
                WildRule::Rank { rank, with_face: false } => out.plain = out.plain.union(CardSet::FULL.of_rank(rank)),
                WildRule::Rank { rank, with_face: true } => out.with_face |= 1 << rank.0,
            }
        }
        out
    }

    /// The rules in force.
    pub fn rules(&self) -> &[WildRule] {
        &self.rules
    }

    /// Whether no card can be wild.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Whether the last-pick rule is in force.
    pub fn has_last_pick(&self) -> bool {
        self.last_pick
    }

    /// The wild cards among `hand`; `last_pick` is the card taken at the final pick, when
    /// the hand is complete (pass `None` while judging face-up cards during betting).
    #[inline]
    pub fn wild_cards(&self, hand: CardSet, last_pick: Option<Card>) -> CardSet {
        let mut wild = hand.intersect(self.plain);
        if self.with_face != 0 {
            for suit in Suit::ALL {
                let m = hand.suit_mask(suit);
                let faces = m & (0b111 << Rank::JACK.0);
                // Each candidate needs a face card of its suit other than itself: a lone
                // K of spades is not wild under rank-K-with-face.
                let mut candidates = m & self.with_face;
                while candidates != 0 {
                    let bit = candidates & candidates.wrapping_neg();
                    if faces & !bit != 0 {
                        wild.0 |= (bit as u64) << (suit.0 * 16);
                    }
                    candidates &= candidates - 1;
                }
            }
        }
        if self.last_pick
            && let Some(card) = last_pick.filter(|c| hand.contains(*c))
        {
            wild.insert(card);
        }
        wild
    }
}

impl fmt::Display for WildRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rules.is_empty() {
            return f.write_str("none");
        }
        let names: Vec<String> = self.rules.iter().map(ToString::to_string).collect();
        f.write_str(&names.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(text: &str) -> CardSet {
        CardSet::parse_list(text).unwrap().into_iter().collect()
    }

    #[test]
    fn names_round_trip() {
        for name in ["deuces", "deuces-with-face", "last-pick", "rank-9", "rank-A-with-face"] {
            assert_eq!(name.parse::<WildRule>().unwrap().to_string(), name);
        }
        assert_eq!("rank-2".parse::<WildRule>().unwrap().to_string(), "deuces");
        let err = "jokers".parse::<WildRule>().unwrap_err().to_string();
        assert!(err.contains("'jokers'") && err.contains("last-pick"), "{err}");
        assert!(WildRules::parse_names(["none"]).unwrap().is_empty());
    }

    #[test]
    fn each_rule_judges_its_cards() {
        let deuces = WildRules::parse_names(["deuces"]).unwrap();
        assert_eq!(deuces.wild_cards(set("2s 2h Ac"), None), set("2s 2h"));
        let with_face = WildRules::parse_names(["deuces-with-face"]).unwrap();
        assert_eq!(with_face.wild_cards(set("2s 2h Ks Qc"), None), set("2s"));
        assert_eq!(with_face.wild_cards(set("2s 2h As Tc"), None), CardSet::EMPTY);
        let last = WildRules::parse_names(["last-pick"]).unwrap();
        let seven = "7d".parse().unwrap();
        assert_eq!(last.wild_cards(set("7d 2h"), Some(seven)), set("7d"));
        assert_eq!(last.wild_cards(set("7d 2h"), None), CardSet::EMPTY);
        let both = WildRules::parse_names(["deuces-with-face+last-pick"]).unwrap();
        assert_eq!(both.wild_cards(set("7d 2h Jh"), Some(seven)), set("7d 2h"));
        let nines = WildRules::parse_names(["rank-9-with-face"]).unwrap();
        assert_eq!(nines.wild_cards(set("9c Jc 9d"), None), set("9c"));
    }

    #[test]
    fn toml_takes_one_name_or_a_list() {
        #[derive(Deserialize)]
        struct R {
            wild: WildRules,
        }
        let one: R = toml::from_str("wild = \"deuces\"").unwrap();
        assert_eq!(one.wild.to_string(), "deuces");
        let many: R = toml::from_str("wild = [\"deuces-with-face\", \"last-pick\"]").unwrap();
        assert_eq!(many.wild.to_string(), "deuces-with-face,last-pick");
        assert!(toml::from_str::<R>("wild = \"bogus\"").is_err());
    }
}
