//! Sevens strategy modules and presets.
//!
//! Trade modules: `none`; `random` (each card traded with probability one half);
//! `greedy` (keeps the cards that make ending on 6 or 7 most likely, drawing numbers as if
//! uniform); `exact` (keeps the cards that maximise the expected value of the final total,
//! drawing without replacement from the cards it has not seen). Betting modules:
//! `calling-station`, `threshold` (fold timing: per turn, a strength below which it folds and
//! one above which it raises) and `bluff`.
//!
//! The value of a final total is its chance of beating a random dealt hand (ties count half,
//! over 7 is worth 0). Both smart trade modules depend only on the three numbers held, so
//! their choices are computed once for all 56 sorted number triples.

use std::sync::LazyLock;

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::cards::{DECK_SIZE, SevensCard, SevensHand};
use super::view::{Action, Bot, BotRng, SeatView, TradeMask};
use crate::error::InputError;

/// How a bot trades.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum TradeModule {
    /// Never trades.
    None,
    /// Trades each card with probability one half.
    Random,
    /// Keeps the subset most likely to end on 6 or 7 (draws treated as uniform 1-6).
    Greedy,
    /// Keeps the subset with the best expected outcome over the unseen cards.
    Exact,
}

/// How a bot bets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum BetModule {
    /// Always checks or calls.
    CallingStation,
    /// Per turn (first, then later; the last value repeats): folds facing a raise below one
    /// strength, raises above another.
    Threshold {
        /// Strength below which it folds to a raise.
        fold_below: Vec<f32>,
        /// Strength above which it raises.
        raise_above: Vec<f32>,
    },
    /// Raises with probability `p` whatever it holds, otherwise checks or calls.
    Bluff {
        /// Chance of raising.
        p: f32,
    },
}

/// A Sevens preset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    /// One line for `draftsim list strategies`.
    pub description: String,
    /// The trade module.
    pub trade: TradeModule,
    /// The betting module.
    pub bet: BetModule,
}

/// The presets in `strategies/sevens/`, embedded in the binary.
pub const PRESETS: &[(&str, &str)] = &[
    ("random", include_str!("../../../strategies/sevens/random.toml")),
    ("no-trade", include_str!("../../../strategies/sevens/no-trade.toml")),
    ("greedy", include_str!("../../../strategies/sevens/greedy.toml")),
    ("exact", include_str!("../../../strategies/sevens/exact.toml")),
    ("tight", include_str!("../../../strategies/sevens/tight.toml")),
    ("bluffer", include_str!("../../../strategies/sevens/bluffer.toml")),
];

impl Preset {
    /// Parses a preset's TOML; unknown modules or parameters list the valid ones.
    pub fn from_toml(text: &str) -> Result<Preset, InputError> {
        let preset: Preset = crate::games::presets::parse_toml(text)?;
        match &preset.bet {
            BetModule::Threshold { fold_below, raise_above } if fold_below.is_empty() || raise_above.is_empty() => {
                Err(InputError::new("bet.fold_below and bet.raise_above: give at least one value each"))
            }
            BetModule::Bluff { p } if !(0.0..=1.0).contains(p) => {
                Err(InputError::new(format!("bet.p = {p}: use a value from 0 to 1")))
            }
            _ => Ok(preset),
        }
    }

    /// Loads a preset by name, or a TOML file by path.
    pub fn load(name_or_path: &str) -> Result<Preset, InputError> {
        crate::games::presets::load(PRESETS, name_or_path, super::NAME, Preset::from_toml)
    }

    /// A bot playing this preset under `name`.
    pub fn bot(&self, name: &str) -> SevensBot {
        SevensBot { name: name.to_string(), preset: self.clone() }
    }
}

/// The chance that a final total beats a random dealt three-card hand (ties count half;
/// a total over 7 is worth 0), indexed by total.
pub static TOTAL_VALUE: LazyLock<[f32; 19]> = LazyLock::new(|| {
    let dist = dealt_totals();
    let all: u64 = dist.iter().sum();
    let mut value = [0f32; 19];
    for (t, v) in value.iter_mut().enumerate().take(8).skip(3) {
        let below: u64 = dist[..t].iter().sum();
        let over: u64 = dist[8..].iter().sum();
        *v = ((below + over) as f64 + 0.5 * dist[t] as f64) as f32 / all as f32;
    }
    value
});

/// How many of the C(36,3) three-card hands have each total.
pub fn dealt_totals() -> [u64; 19] {
    let mut dist = [0u64; 19];
    for a in 0..DECK_SIZE as u8 {
        for b in a + 1..DECK_SIZE as u8 {
            for c in b + 1..DECK_SIZE as u8 {
                let t = SevensCard(a).number() + SevensCard(b).number() + SevensCard(c).number();
                dist[t as usize] += 1;
            }
        }
    }
    dist
}

/// The best choice for one sorted number triple: which sorted positions to trade, and the
/// expected value of the result.
#[derive(Clone, Copy, Debug, Default)]
struct Choice {
    trade: u8,
    value: f32,
}

/// Index of a sorted triple of numbers 1-6.
fn triple_index(n: [u8; 3]) -> usize {
    (n[0] as usize - 1) * 36 + (n[1] as usize - 1) * 6 + (n[2] as usize - 1)
}

/// Expected value of the kept numbers plus `draws` numbers drawn from `counts` (per number
/// 1-6, without replacement), with `value` scoring final totals.
fn expected(kept: u8, draws: u32, counts: &mut [u32; 7], left: u32, value: &dyn Fn(u8) -> f32) -> f32 {
    if draws == 0 {
        return value(kept);
    }
    let mut sum = 0.0;
    for n in 1..=6u8 {
        let c = counts[n as usize];
        if c == 0 {
            continue;
        }
        let p = c as f32 / left as f32;
        counts[n as usize] -= 1;
        sum += p * expected(kept + n, draws - 1, counts, left - 1, value);
        counts[n as usize] += 1;
    }
    sum
}

/// The best trade for every sorted triple, under a card model and a value of totals.
fn choices(without_replacement: bool, value: &dyn Fn(u8) -> f32) -> Vec<Choice> {
    let mut table = vec![Choice::default(); 216];
    for a in 1..=6u8 {
        for b in a..=6 {
            for c in b..=6 {
                let nums = [a, b, c];
                // Unseen cards: six of each number, less the own ones (or a uniform model).
                let mut counts = [0u32, 6, 6, 6, 6, 6, 6];
                if without_replacement {
                    nums.iter().for_each(|&n| counts[n as usize] -= 1);
                } else {
                    // Uniform draws: a pool so large that removals do not matter.
                    counts = [0, 6000, 6000, 6000, 6000, 6000, 6000];
                }
                let mut best = Choice { trade: 0, value: f32::NEG_INFINITY };
                // Fewer cards traded first, so ties keep more cards.
                for trade in [0u8, 1, 2, 4, 3, 5, 6, 7] {
                    let kept: u8 = (0..3).filter(|i| trade >> i & 1 == 0).map(|i| nums[i]).sum();
                    let draws = trade.count_ones();
                    let mut c = counts;
                    let left = c.iter().sum();
                    let v = expected(kept, draws, &mut c, left, value);
                    if v > best.value + 1e-6 {
                        best = Choice { trade, value: v };
                    }
                }
                table[triple_index(nums)] = best;
            }
        }
    }
    table
}

/// `exact`: expected value over the unseen cards.
static EXACT: LazyLock<Vec<Choice>> = LazyLock::new(|| choices(true, &|t| TOTAL_VALUE[t as usize]));
/// `greedy`: chance of ending on 6 or 7, numbers drawn as if uniform.
static GREEDY: LazyLock<Vec<Choice>> = LazyLock::new(|| choices(false, &|t| f32::from(t == 6 || t == 7)));

/// The trade mask (over the hand's own card positions) for a table's choice.
fn trade_mask(table: &[Choice], hand: &SevensHand) -> TradeMask {
    let cards = hand.cards();
    let mut order = [0usize, 1, 2];
    order.sort_by_key(|&i| (cards[i].number(), i));
    let nums = [cards[order[0]].number(), cards[order[1]].number(), cards[order[2]].number()];
    let sorted_trade = table[triple_index(nums)].trade;
    (0..3).filter(|k| sorted_trade >> k & 1 == 1).fold(0, |m, k| m | 1 << order[k])
}

/// The strength a betting module judges: the hand's value, or its expected value after the
/// best trade while this seat may still trade.
pub fn strength(view: &SeatView<'_>) -> f32 {
    if view.traded || view.deck_left == 0 {
        TOTAL_VALUE[view.hand.total() as usize]
    } else {
        EXACT[triple_index(view.hand.numbers())].value
    }
}

/// A bot made of one trade module and one betting module.
#[derive(Clone, Debug)]
pub struct SevensBot {
    name: String,
    preset: Preset,
}

impl Bot for SevensBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn act(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> Action {
        let passive = view.check_or_call();
        let raise = if view.can_raise { Action::Raise } else { passive };
        match &self.preset.bet {
            BetModule::CallingStation => passive,
            BetModule::Threshold { fold_below, raise_above } => {
                let at = |v: &[f32]| v[view.turn.min(v.len() - 1)];
                let s = strength(view);
                if view.to_call > 0 && s < at(fold_below) {
                    Action::Fold
                } else if s > at(raise_above) {
                    raise
                } else {
                    passive
                }
            }
            BetModule::Bluff { p } => {
                if rng.random::<f32>() < *p {
                    raise
                } else {
                    passive
                }
            }
        }
    }

    fn trade(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> TradeMask {
        match self.preset.trade {
            TradeModule::None => 0,
            TradeModule::Random => rng.random::<u8>() & 0b111,
            TradeModule::Greedy => trade_mask(&GREEDY, &view.hand),
            TradeModule::Exact => trade_mask(&EXACT, &view.hand),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(numbers: [u8; 3]) -> SevensHand {
        // Card ids: suit 0, first copy of each number, then other suits for repeats.
        let mut used = [0u8; 7];
        let cards: Vec<SevensCard> = numbers
            .iter()
            .map(|&n| {
                let copy = used[n as usize];
                used[n as usize] += 1;
                SevensCard((copy / 2) * 12 + (n - 1) * 2 + copy % 2)
            })
            .collect();
        SevensHand::new(&cards)
    }

    #[test]
    fn values_rank_totals() {
        let v = &*TOTAL_VALUE;
        assert!(v[7] > v[6] && v[6] > v[5] && v[5] > v[4]);
        assert_eq!(v[8], 0.0);
        assert_eq!(dealt_totals().iter().sum::<u64>(), 7140);
    }

    #[test]
    fn trades_keep_what_a_player_would_keep() {
        // 1-2-4 is 7 already: nobody trades.
        assert_eq!(trade_mask(&EXACT, &hand([1, 2, 4])), 0);
        assert_eq!(trade_mask(&GREEDY, &hand([1, 2, 4])), 0);
        // 6-6-6 is 18: both throw away sixes.
        assert!(trade_mask(&EXACT, &hand([6, 6, 6])).count_ones() >= 2);
        // 1-1-6 (8): trading the six is the way back under 7.
        let m = trade_mask(&EXACT, &hand([1, 1, 6]));
        assert_eq!(m, 0b100, "trade the six only");
    }

    #[test]
    fn every_preset_loads_and_round_trips() {
        for (name, _) in PRESETS {
            let p = Preset::load(name).unwrap();
            assert_eq!(Preset::from_toml(&toml::to_string(&p).unwrap()).unwrap(), p, "{name}");
        }
        let err = Preset::load("psychic").unwrap_err().to_string();
        assert!(err.contains("no-trade") && err.contains("exact"), "{err}");
        let err =
            Preset::from_toml("description = \"x\"\n[trade]\nmodule = \"clever\"\n[bet]\nmodule = \"calling-station\"")
                .unwrap_err()
                .to_string();
        assert!(err.contains("clever") && err.contains("greedy"), "{err}");
    }
}
