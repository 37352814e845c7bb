//! Seven Card Draft strategy modules and the presets built from them.
//!
//! A bot is one draft module (how it picks) plus one betting module (how it bets), each
//! with parameters, described in a TOML preset:
//!
//! ```toml
//! description = "Greedy picks, folds weak hands early"
//! [draft]
//! module = "greedy"
//! [bet]
//! module = "threshold"
//! fold_below = [0.30, 0.40, 0.50]
//! raise_above = [0.80, 0.85, 0.90]
//! ```
//!
//! Strengths are the expected percentile of the finished hand (see [`super::strength`]).

use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};

use super::strength::{Candidates, EstimateCache, Outlook};
use super::view::{Action, BetOptions, Bot, BotRng, PickChoice, SeatView};
use crate::cards::{Card, CardSet};
use crate::error::InputError;

/// How a bot picks.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum DraftModule {
    /// A uniformly random card of the pack.
    Random,
    /// The card that most raises the own hand's expected final strength.
    Greedy,
    /// Greedy plus `weight` times how much the card would help the player who receives
    /// the pack next, judged from that player's face-up cards.
    Hate {
        /// Weight of denial against own gain.
        #[serde(default = "default_hate_weight")]
        weight: f32,
    },
    /// Greedy that values the wild rules in force (conditional wilds, the last-pick wild).
    WildAware,
}

fn default_hate_weight() -> f32 {
    1.0
}

/// How a bot bets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum BetModule {
    /// Always checks or calls; never folds or raises.
    CallingStation,
    /// Per betting round: folds (when facing a bet) below one strength, raises above another.
    Threshold {
        /// Strength below which it folds to a bet, per betting round (last value repeats).
        fold_below: Vec<f32>,
        /// Strength above which it raises, per betting round (last value repeats).
        raise_above: Vec<f32>,
    },
    /// Raises whenever its strength reaches `raise_above`, otherwise checks or calls.
    Aggressive {
        /// Strength from which it raises.
        #[serde(default = "default_aggressive")]
        raise_above: f32,
    },
    /// Raises with probability `p` whatever it holds, otherwise checks or calls.
    Bluff {
        /// Chance of raising at each decision.
        p: f32,
    },
}

fn default_aggressive() -> f32 {
    0.35
}

/// A bot preset: a description and its two modules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    /// One line for `draftsim list strategies`.
    pub description: String,
    /// The draft module.
    pub draft: DraftModule,
    /// The betting module.
    pub bet: BetModule,
}

/// The presets shipped in `strategies/seven-card-draft/`, embedded in the binary.
pub const PRESETS: &[(&str, &str)] = &[
    ("random", include_str!("../../../strategies/seven-card-draft/random.toml")),
    ("greedy", include_str!("../../../strategies/seven-card-draft/greedy.toml")),
    ("hate", include_str!("../../../strategies/seven-card-draft/hate.toml")),
    ("tight", include_str!("../../../strategies/seven-card-draft/tight.toml")),
    ("loose-aggressive", include_str!("../../../strategies/seven-card-draft/loose-aggressive.toml")),
    ("wild-hunter", include_str!("../../../strategies/seven-card-draft/wild-hunter.toml")),
    ("late-folder", include_str!("../../../strategies/seven-card-draft/late-folder.toml")),
    ("bluffer", include_str!("../../../strategies/seven-card-draft/bluffer.toml")),
];

impl Preset {
    /// Parses a preset's TOML; unknown modules or parameters list the valid ones.
    pub fn from_toml(text: &str) -> Result<Preset, InputError> {
        let preset: Preset = crate::games::presets::parse_toml(text)?;
        preset.check()?;
        Ok(preset)
    }

    /// Loads a preset by name, or a TOML file by path.
    pub fn load(name_or_path: &str) -> Result<Preset, InputError> {
        crate::games::presets::load(PRESETS, name_or_path, super::NAME, Preset::from_toml)
    }

    fn check(&self) -> Result<(), InputError> {
        let unit = |v: f32, what: &str| {
            if (0.0..=1.0).contains(&v) {
                Ok(())
            } else {
                Err(InputError::new(format!("{what} = {v}: use a value from 0 to 1")))
            }
        };
        match &self.bet {
            BetModule::Threshold { fold_below, raise_above } => {
                if fold_below.is_empty() || raise_above.is_empty() {
                    return Err(InputError::new("bet.fold_below and bet.raise_above: give at least one value each"));
                }
                fold_below.iter().try_for_each(|&v| unit(v, "bet.fold_below"))?;
                raise_above.iter().try_for_each(|&v| unit(v, "bet.raise_above"))?;
            }
            BetModule::Aggressive { raise_above } => unit(*raise_above, "bet.raise_above")?,
            BetModule::Bluff { p } => unit(*p, "bet.p")?,
            BetModule::CallingStation => {}
        }
        if let DraftModule::Hate { weight } = self.draft
            && !(0.0..=100.0).contains(&weight)
        {
            return Err(InputError::new(format!("draft.weight = {weight}: use a value from 0 to 100")));
        }
        Ok(())
    }

    /// A bot playing this preset under `name`.
    pub fn bot(&self, name: &str) -> ModularBot {
        ModularBot { name: name.to_string(), preset: self.clone(), cache: EstimateCache::default() }
    }
}

/// A bot made of one draft module and one betting module.
#[derive(Clone, Debug)]
pub struct ModularBot {
    name: String,
    preset: Preset,
    cache: EstimateCache,
}

fn outlook<'a>(view: &SeatView<'a>) -> Outlook<'a> {
    Outlook {
        eval: &view.variant.eval,
        straight_cover: &view.variant.straight_cover,
        deck: view.variant.deck.cards,
        seen: view.seen,
    }
}

/// Own strength of `hand` after this pick, as a plain greedy player sees it (no wilds).
fn plain_value(cache: &mut EstimateCache, o: &Outlook<'_>, hand: CardSet, picks_left: u32) -> f32 {
    cache.estimate(o, hand, CardSet::EMPTY, 0, picks_left)
}

/// Own strength counting the wild rules in force; `last` is the card taken at the final pick.
fn wild_value(
    cache: &mut EstimateCache,
    view: &SeatView<'_>,
    o: &Outlook<'_>,
    hand: CardSet,
    last: Option<Card>,
    picks_left: u32,
) -> f32 {
    let rules = &view.variant.rules.wild;
    let wilds = rules.wild_cards(hand, last);
    let future = u32::from(rules.has_last_pick() && picks_left > 0);
    cache.estimate(o, hand, wilds, future, picks_left)
}

/// The pack card with the highest score (first in card order on ties); a lone card is
/// taken without scoring.
fn best_card(pack: CardSet, mut score: impl FnMut(Card) -> f32) -> Card {
    if pack.len() == 1 {
        return pack.nth(0).expect("one card");
    }
    let mut best = (f32::NEG_INFINITY, None);
    for card in pack.iter() {
        let s = score(card);
        if s > best.0 {
            best = (s, Some(card));
        }
    }
    best.1.expect("a pack is never empty at a pick")
}

/// The strength a betting module judges: the whole own hand, wilds as the rules say.
fn betting_strength(cache: &mut EstimateCache, view: &SeatView<'_>) -> f32 {
    let o = outlook(view);
    wild_value(cache, view, &o, view.hand, view.last_pick, view.picks_left() as u32)
}

impl ModularBot {
    /// A pick by one of the modules that estimate strengths (all but `random`).
    fn informed_pick(&mut self, view: &SeatView<'_>, module: DraftModule) -> PickChoice {
        let o = outlook(view);
        let left = view.picks_left() as u32;
        match module {
            DraftModule::Random => unreachable!("random picks need no estimate"),
            DraftModule::Greedy => {
                let own = Candidates::new(&o, view.hand, left);
                PickChoice::own(best_card(view.pack, |c| own.estimate(c)))
            }
            DraftModule::WildAware => {
                let last_pick = left == 0;
                PickChoice::own(best_card(view.pack, |c| {
                    let hand = view.hand.union(CardSet::single(c));
                    wild_value(&mut self.cache, view, &o, hand, last_pick.then_some(c), left)
                }))
            }
            DraftModule::Hate { weight } => {
                let next = view.next_seat();
                let mine = Candidates::new(&o, view.hand, left);
                if view.pack.len() == 1 || next == view.seat {
                    return PickChoice::own(best_card(view.pack, |c| mine.estimate(c)));
                }
                // Each card scored once for this seat and once for the next one.
                let theirs = view.face_up[next];
                let base = plain_value(&mut self.cache, &o, theirs, left);
                let denied = Candidates::new(&o, theirs, left);
                let (mut greedy, mut choice) = ((f32::NEG_INFINITY, None), (f32::NEG_INFINITY, None));
                for c in view.pack.iter() {
                    let own = mine.estimate(c);
                    let denial = denied.estimate(c) - base;
                    if own > greedy.0 {
                        greedy = (own, Some(c));
                    }
                    if own + weight * denial > choice.0 {
                        choice = (own + weight * denial, Some(c));
                    }
                }
                let (card, greedy) = (choice.1.expect("a card"), greedy.1.expect("a card"));
                PickChoice { card, hate: card != greedy }
            }
        }
    }
}

impl Bot for ModularBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn pick(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> PickChoice {
        match self.preset.draft {
            DraftModule::Random => random_pick(view.pack, rng),
            module => self.informed_pick(view, module),
        }
    }

    fn pick_from_pack(&mut self, pack: CardSet, rng: &mut BotRng) -> Option<PickChoice> {
        (self.preset.draft == DraftModule::Random).then(|| random_pick(pack, rng))
    }

    fn bet_from_options(&mut self, options: BetOptions, rng: &mut BotRng) -> Option<Action> {
        match self.preset.bet {
            BetModule::CallingStation => Some(options.check_or_call()),
            BetModule::Bluff { p } => Some(bluff(options, p, rng)),
            _ => None,
        }
    }

    fn bet(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> Action {
        let options = view.betting.expect("bet is only asked while betting");
        match &self.preset.bet {
            BetModule::CallingStation => options.check_or_call(),
            BetModule::Threshold { fold_below, raise_above } => {
                let at = |v: &[f32]| v[options.round.min(v.len() - 1)];
                let strength = betting_strength(&mut self.cache, view);
                if options.to_call > 0 && strength < at(fold_below) {
                    Action::Fold
                } else if strength > at(raise_above) {
                    options.min_raise_or_call()
                } else {
                    options.check_or_call()
                }
            }
            BetModule::Aggressive { raise_above } => {
                if betting_strength(&mut self.cache, view) >= *raise_above {
                    options.min_raise_or_call()
                } else {
                    options.check_or_call()
                }
            }
            BetModule::Bluff { p } => bluff(options, *p, rng),
        }
    }
}

/// A uniformly random card of the pack: multiply-high maps a 64-bit draw onto the pack
/// (bias below 2^-60).
#[inline]
fn random_pick(pack: CardSet, rng: &mut BotRng) -> PickChoice {
    let i = ((rng.next_u64() as u128 * pack.len() as u128) >> 64) as u32;
    PickChoice::own(pack.nth(i).expect("index inside the pack"))
}

/// Raises with chance `p` whatever the hand, otherwise checks or calls.
fn bluff(options: BetOptions, p: f32, rng: &mut BotRng) -> Action {
    if rng.random::<f32>() < p { options.min_raise_or_call() } else { options.check_or_call() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_loads_and_round_trips() {
        for (name, _) in PRESETS {
            let preset = Preset::load(name).unwrap();
            let back = Preset::from_toml(&toml::to_string(&preset).unwrap()).unwrap();
            assert_eq!(back, preset, "{name}");
            assert!(!preset.description.is_empty());
        }
    }

    #[test]
    fn bad_presets_list_the_valid_choices() {
        let err = Preset::load("nonesuch").unwrap_err().to_string();
        assert!(err.contains("'nonesuch'") && err.contains("greedy") && err.contains("wild-hunter"), "{err}");
        let err = Preset::from_toml(
            "description = \"x\"\n[draft]\nmodule = \"psychic\"\n[bet]\nmodule = \"calling-station\"",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("psychic") && err.contains("greedy") && err.contains("wild-aware"), "{err}");
        let err = Preset::from_toml(
            "description = \"x\"\n[draft]\nmodule = \"greedy\"\n[bet]\nmodule = \"bluff\"\np = 0.2\nq = 1",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("`q`") && err.contains("`p`"), "{err}");
        let err =
            Preset::from_toml("description = \"x\"\n[draft]\nmodule = \"greedy\"\n[bet]\nmodule = \"bluff\"\np = 2.0")
                .unwrap_err()
                .to_string();
        assert!(err.contains("bet.p"), "{err}");
    }
}
