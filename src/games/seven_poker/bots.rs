//! Seven Poker strategy modules and presets.
//!
//! Exchange: `none`; `random` (up to the limit, at random); `colour` (keeps its longest
//! colour and discards other cards, rarest colours first); `rainbow` (with `min_distinct`
//! colours or more, discards duplicates to chase one of each colour, else plays `colour`);
//! `adaptive` (rainbow when the missing colours are few, can be drawn this exchange and are
//! still unseen, colour otherwise). Show: `honest` (three of its longest colour), `bluff`
//! (with probability `p`: three of a colour it holds exactly three of, else three
//! different colours), `conceal` (three different colours), `random`. Stay: `always`,
//! `random` (`p`), `threshold` (stays with strength at least `min` and at least what earlier
//! stayers' shown cards suggest plus `margin`), `fold-to-keep` (stays only from `min`; folds
//! otherwise, to keep its plan). Keep (after folding): `nothing` or `plan`.

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::cards::{COLOURS, Layout, SEVEN_COLOURS, ids, take_by_colour};
use super::view::{Bot, BotRng, SeatView};
use crate::error::InputError;

/// How a bot exchanges.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ExchangeModule {
    /// Never exchanges.
    None,
    /// Discards a random number of random cards.
    Random,
    /// Keeps its longest colour.
    Colour,
    /// Chases one card of each colour from `min_distinct` colours up.
    Rainbow {
        /// Distinct colours from which it goes for the rainbow.
        min_distinct: u8,
    },
    /// Picks the plan with the better chance given the cards seen.
    Adaptive,
}

/// How a bot shows three cards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ShowModule {
    /// Three of its longest colour.
    Honest,
    /// With probability `p`, a misleading three; otherwise honest.
    Bluff {
        /// Chance of bluffing.
        p: f32,
    },
    /// Three different colours, whatever it holds.
    Conceal,
    /// Random cards.
    Random,
}

/// How a bot declares.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum StayModule {
    /// Always stays.
    Always,
    /// Stays with probability `p`.
    Random {
        /// Chance of staying.
        p: f32,
    },
    /// Stays with enough strength against what earlier stayers showed.
    Threshold {
        /// Least strength to stay (2-7; 8 is all seven colours).
        min: u8,
        /// Strength it wants above the strongest suggestion of an earlier stayer.
        margin: i8,
    },
    /// Stays from `min` only; folds otherwise, keeping its plan for the next round.
    FoldToKeep {
        /// Least strength to stay.
        min: u8,
    },
}

/// What a bot keeps after folding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum KeepModule {
    /// Discards everything.
    Nothing,
    /// Keeps its plan: its longest colour, or one card of each colour when it holds five
    /// or more colours.
    Plan,
}

/// A Seven Poker preset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    /// One line for `draftsim list strategies`.
    pub description: String,
    /// The exchange module.
    pub exchange: ExchangeModule,
    /// The show module.
    pub show: ShowModule,
    /// The stay module.
    pub stay: StayModule,
    /// The keep module.
    pub keep: KeepModule,
}

/// The presets in `strategies/seven-poker/`, embedded in the binary.
pub const PRESETS: &[(&str, &str)] = &[
    ("random", include_str!("../../../strategies/seven-poker/random.toml")),
    ("pat", include_str!("../../../strategies/seven-poker/pat.toml")),
    ("colour", include_str!("../../../strategies/seven-poker/colour.toml")),
    ("rainbow", include_str!("../../../strategies/seven-poker/rainbow.toml")),
    ("bluffer", include_str!("../../../strategies/seven-poker/bluffer.toml")),
    ("fold-to-keep", include_str!("../../../strategies/seven-poker/fold-to-keep.toml")),
    ("adaptive", include_str!("../../../strategies/seven-poker/adaptive.toml")),
];

impl Preset {
    /// Parses a preset's TOML.
    pub fn from_toml(text: &str) -> Result<Preset, InputError> {
        let preset: Preset = crate::games::presets::parse_toml(text)?;
        let show_p = match &preset.show {
            ShowModule::Bluff { p } => Some(("show.p", *p)),
            _ => None,
        };
        let stay_p = match &preset.stay {
            StayModule::Random { p } => Some(("stay.p", *p)),
            _ => None,
        };
        if let Some((key, p)) = show_p.into_iter().chain(stay_p).find(|(_, p)| !(0.0..=1.0).contains(p)) {
            return Err(InputError::new(format!("{key} = {p}: use a value from 0 to 1")));
        }
        Ok(preset)
    }

    /// Loads a preset by name, or a TOML file by path.
    pub fn load(name_or_path: &str) -> Result<Preset, InputError> {
        crate::games::presets::load(PRESETS, name_or_path, super::NAME, Preset::from_toml)
    }

    /// A bot playing this preset under `name`.
    pub fn bot(&self, name: &str) -> SevenPokerBot {
        SevenPokerBot { name: name.to_string(), preset: self.clone() }
    }
}

/// A bot made of the four modules.
#[derive(Clone, Debug)]
pub struct SevenPokerBot {
    name: String,
    preset: Preset,
}

/// The colour with the most cards in `hand` (ties: the one with more cards still unseen).
fn longest(layout: Layout, hand: u64, seen: u64) -> usize {
    let counts = layout.counts(hand);
    let unseen = layout.counts(layout.all() & !seen & !hand);
    (0..COLOURS).max_by_key(|&c| (counts[c], unseen[c], std::cmp::Reverse(c))).expect("colours")
}

/// Cards of `hand` outside `keep`, rarest colours first, at most `limit`.
fn discard_outside(layout: Layout, hand: u64, keep: u64, limit: usize) -> u64 {
    let counts = layout.counts(hand);
    let mut colours: [usize; COLOURS] = std::array::from_fn(|c| c);
    colours.sort_by_key(|&c| counts[c]);
    take_by_colour(layout, hand & !keep, &colours, limit)
}

/// One card of each colour held (the lowest of each).
fn one_of_each(layout: Layout, hand: u64) -> u64 {
    (0..COLOURS)
        .map(|c| hand & layout.colour_mask(c))
        .filter(|m| *m != 0)
        .fold(0, |acc, m| acc | (m & m.wrapping_neg()))
}

/// Cards a seat has seen besides its hand: discards, victory cards, shown cards.
fn seen(view: &SeatView<'_>) -> u64 {
    view.discards | view.removed | view.shown.iter().fold(0, |a, s| a | s)
}

/// What a shown set suggests about its holder's strength.
fn suggested(layout: Layout, shown: u64) -> u8 {
    let counts = layout.counts(shown);
    let n = shown.count_ones() as u8;
    if n >= 2 && counts.contains(&n) { n + 1 } else { 3 }
}

impl SevenPokerBot {
    fn limit(view: &SeatView<'_>) -> usize {
        view.rules.max_exchange.min(view.pile)
    }

    fn colour_plan(view: &SeatView<'_>) -> u64 {
        let c = longest(view.layout, view.hand, seen(view));
        discard_outside(view.layout, view.hand, view.layout.colour_mask(c), Self::limit(view))
    }

    fn rainbow_plan(view: &SeatView<'_>) -> u64 {
        let keep = one_of_each(view.layout, view.hand);
        discard_outside(view.layout, view.hand, keep, Self::limit(view))
    }

    /// Whether the rainbow is within reach this exchange: the missing colours can all be
    /// drawn for now, and each still has an unseen card.
    fn rainbow_in_reach(view: &SeatView<'_>) -> bool {
        let counts = view.layout.counts(view.hand);
        let missing = counts.iter().filter(|&&k| k == 0).count();
        let duplicates = view.hand.count_ones() as usize - (COLOURS - missing);
        let unseen = view.layout.counts(view.layout.all() & !seen(view) & !view.hand);
        let longest = counts.iter().copied().max().unwrap_or(0);
        missing <= 2
            && missing <= duplicates.min(Self::limit(view))
            && (0..COLOURS).all(|c| counts[c] > 0 || unseen[c] > 0)
            && longest < 5
    }

    fn plan_keep(view: &SeatView<'_>) -> u64 {
        let distinct = view.layout.counts(view.hand).iter().filter(|&&k| k > 0).count();
        if distinct >= 5 {
            one_of_each(view.layout, view.hand)
        } else {
            let c = longest(view.layout, view.hand, seen(view));
            view.hand & view.layout.colour_mask(c)
        }
    }

    fn random_subset(hand: u64, k: usize, rng: &mut BotRng) -> u64 {
        // The ids on the stack, drawn with swap-remove.
        let mut cards = [0u8; 64];
        let mut len = 0;
        for id in ids(hand) {
            cards[len] = id;
            len += 1;
        }
        let mut out = 0;
        for _ in 0..k.min(len) {
            let i = rng.random_range(0..len);
            out |= 1 << cards[i];
            len -= 1;
            cards[i] = cards[len];
        }
        out
    }

    fn honest_show(view: &SeatView<'_>, k: usize) -> u64 {
        let counts = view.layout.counts(view.hand);
        let mut colours: [usize; COLOURS] = std::array::from_fn(|c| c);
        colours.sort_by_key(|&c| std::cmp::Reverse(counts[c]));
        take_by_colour(view.layout, view.hand, &colours, k)
    }

    fn distinct_show(view: &SeatView<'_>, k: usize) -> u64 {
        let mut out = one_of_each(view.layout, view.hand);
        while out.count_ones() as usize > k {
            out &= out - 1;
        }
        // Fewer colours than k: fill with other cards.
        let rest = view.hand & !out;
        out | ids(rest).take(k.saturating_sub(out.count_ones() as usize)).fold(0, |m, id| m | 1 << id)
    }
}

impl Bot for SevenPokerBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn exchange(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> u64 {
        match &self.preset.exchange {
            ExchangeModule::None => 0,
            ExchangeModule::Random => {
                let k = rng.random_range(0..=Self::limit(view));
                Self::random_subset(view.hand, k, rng)
            }
            ExchangeModule::Colour => Self::colour_plan(view),
            ExchangeModule::Rainbow { min_distinct } => {
                let distinct = view.layout.counts(view.hand).iter().filter(|&&k| k > 0).count();
                if distinct >= *min_distinct as usize { Self::rainbow_plan(view) } else { Self::colour_plan(view) }
            }
            ExchangeModule::Adaptive => {
                if view.layout.strength(view.hand) == SEVEN_COLOURS {
                    0
                } else if Self::rainbow_in_reach(view) {
                    Self::rainbow_plan(view)
                } else {
                    Self::colour_plan(view)
                }
            }
        }
    }

    fn swap_give(&mut self, view: &SeatView<'_>, _: &mut BotRng) -> Option<u8> {
        // Give away a card outside the plan, if any.
        let plan = Self::plan_keep(view);
        ids(view.hand & !plan).next()
    }

    fn swap_return(&mut self, view: &SeatView<'_>, received: u8, _: &mut BotRng) -> u8 {
        let plan = Self::plan_keep(view);
        let spare = view.hand & !plan & !(1 << received);
        ids(if spare != 0 { spare } else { view.hand & !(1 << received) }).next().unwrap_or(received)
    }

    fn show(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> u64 {
        let k = view.rules.shown.min(view.hand.count_ones() as usize);
        match &self.preset.show {
            ShowModule::Honest => Self::honest_show(view, k),
            ShowModule::Conceal => Self::distinct_show(view, k),
            ShowModule::Random => Self::random_subset(view.hand, k, rng),
            ShowModule::Bluff { p } => {
                if rng.random::<f32>() >= *p {
                    return Self::honest_show(view, k);
                }
                let counts = view.layout.counts(view.hand);
                match (0..COLOURS).find(|&c| counts[c] as usize == k && k >= 2) {
                    Some(c) if counts.iter().filter(|&&n| n as usize >= k).count() > 1 => {
                        view.hand & view.layout.colour_mask(c)
                    }
                    _ => Self::distinct_show(view, k),
                }
            }
        }
    }

    fn stay(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> bool {
        let strength = view.layout.strength(view.hand);
        match &self.preset.stay {
            StayModule::Always => true,
            StayModule::Random { p } => rng.random::<f32>() < *p,
            StayModule::FoldToKeep { min } => strength >= *min,
            StayModule::Threshold { min, margin } => {
                let best = (0..view.declared.len())
                    .filter(|&s| s != view.seat && view.declared[s] == Some(true))
                    .map(|s| suggested(view.layout, view.shown[s]))
                    .max()
                    .unwrap_or(0);
                strength >= *min && i16::from(strength) >= i16::from(best) + i16::from(*margin)
            }
        }
    }

    fn keep(&mut self, view: &SeatView<'_>, _: &mut BotRng) -> u64 {
        match self.preset.keep {
            KeepModule::Nothing => 0,
            KeepModule::Plan => Self::plan_keep(view),
        }
    }
}
