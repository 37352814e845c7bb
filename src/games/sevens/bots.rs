//! Sevens strategy modules and presets.
//!
//! Trade modules: `none`; `random` (each card traded with probability one half);
//! `greedy` (keeps the cards that make ending on 6 or 7 most likely, drawing numbers as if
//! uniform: the naive trader); `exact` (keeps the cards with the best expected share of the
//! pot against the players still in, by what their trade counts showed, drawing without
//! replacement from the cards it has not seen: [`super::odds`]). Betting modules:
//! `calling-station`, `threshold` (judges its expected share of the pot against the field;
//! fold timing: per turn, the return on a call below which it folds and the return on a
//! raise above which it raises) and `bluff`.

use std::sync::LazyLock;

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::cards::{DECK_SIZE, SevensCard, SevensHand};
use super::odds::{self, TRIPLE_NUMBERS, TRIPLES, triple_index};
use super::view::{Action, Bot, BotRng, SeatView, TradeMask};
use crate::error::InputError;
use crate::games::GamePreset;

/// How a bot trades.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum TradeModule {
    /// Never trades.
    None {},
    /// Trades each card with probability one half.
    Random {},
    /// Keeps the subset most likely to end on 6 or 7 (draws treated as uniform 1-6).
    Greedy {},
    /// Keeps the subset with the best expected share of the pot against the players still
    /// in, given their trade counts, over the unseen cards.
    Exact {},
}

/// How a bot bets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum BetModule {
    /// Always checks or calls.
    CallingStation {},
    /// Judges its expected share of the pot against the players still in ([`strength`]).
    /// Per turn (first, then later; the last value repeats) it folds a raise whose call
    /// returns too little, and raises when a raise returns enough.
    Threshold {
        /// Fold timing: facing a raise, folds when its share of the pot after calling is below
        /// this multiple of the call (1 is the pot odds' break-even; higher folds more).
        fold_below: Vec<f32>,
        /// Raises when its share times the players still in (the return on a raise that all
        /// of them call, per chip raised) is above this (1 is break-even).
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
pub const PRESETS: &[(&str, &str)] = crate::embedded_presets!(
    "sevens":
        "random", "no-trade", "greedy", "exact", "tight", "bluffer", "search", "cfr", "cfr-heads-up",
);

impl GamePreset for Preset {
    type Bot = SevensBot;

    /// A bot playing this preset under `name`.
    fn bot(&self, name: &str) -> SevensBot {
        SevensBot { name: name.to_string(), preset: self.clone() }
    }

    /// Checks what the TOML's types allow but the modules do not.
    fn check(&self) -> Result<(), InputError> {
        match &self.bet {
            BetModule::Threshold { fold_below, raise_above } if fold_below.is_empty() || raise_above.is_empty() => {
                Err(InputError::new("bet.fold_below and bet.raise_above: give at least one value each"))
            }
            BetModule::Threshold { fold_below, raise_above }
                if fold_below.iter().chain(raise_above).any(|v| !(v.is_finite() && *v >= 0.0)) =>
            {
                Err(InputError::new(
                    "bet.fold_below and bet.raise_above: use numbers of 0 or more (multiples of break-even, 1 = break-even)",
                ))
            }
            BetModule::Bluff { p } if !(0.0..=1.0).contains(p) => {
                Err(InputError::new(format!("bet.p = {p}: use a value from 0 to 1")))
            }
            _ => Ok(()),
        }
    }
}

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

/// `greedy`'s trade (over sorted positions) for every sorted triple: the chance of ending
/// on 6 or 7, numbers drawn as if uniform (a pool so large that removals do not matter).
static GREEDY: LazyLock<[u8; TRIPLES]> = LazyLock::new(|| {
    std::array::from_fn(|t| {
        let nums = TRIPLE_NUMBERS[t];
        let (mut best, mut best_value) = (0u8, f32::NEG_INFINITY);
        // Fewer cards traded first, so ties keep more cards.
        for trade in [0u8, 1, 2, 4, 3, 5, 6, 7] {
            let kept: u8 = (0..3).filter(|i| trade >> i & 1 == 0).map(|i| nums[i]).sum();
            let mut counts = [0, 6000, 6000, 6000, 6000, 6000, 6000];
            let v = expected(kept, trade.count_ones(), &mut counts, 36_000, &|t| f32::from(t == 6 || t == 7));
            if v > best_value + 1e-6 {
                (best, best_value) = (trade, v);
            }
        }
        best
    })
});

/// The hand's numbers sorted, and where each sits in the hand (equal numbers keep their
/// order): three compare-and-swaps, as this runs at every decision.
#[inline(always)]
fn sorted(hand: &SevensHand) -> ([u8; 3], [usize; 3]) {
    let c = hand.cards();
    let mut keyed = [(c[0].number(), 0usize), (c[1].number(), 1), (c[2].number(), 2)];
    for (i, j) in [(0, 1), (1, 2), (0, 1)] {
        if keyed[i] > keyed[j] {
            keyed.swap(i, j);
        }
    }
    (keyed.map(|k| k.0), keyed.map(|k| k.1))
}

/// The trade mask over the hand's own positions for a trade over sorted positions.
#[inline]
fn hand_mask(sorted_trade: u8, positions: [usize; 3]) -> TradeMask {
    (0..3).filter(|k| sorted_trade >> k & 1 == 1).fold(0, |m, k| m | 1 << positions[k])
}

/// The strength a betting module judges: the seat's expected share of the pot against the
/// players still in, given what their trades showed ([`super::odds`]). Before its own trade
/// it counts on trading as `exact` would.
pub fn strength(view: &SeatView<'_>) -> f32 {
    let odds = odds::odds(view.rules);
    let field = odds.field(view);
    let (numbers, _) = sorted(&view.hand);
    if view.traded || view.deck_left == 0 {
        odds.share(field, numbers, view.hand.suit_run())
    } else {
        odds.best(field, numbers).share
    }
}

/// The estimate and thresholds behind a threshold module's bet.
struct BetJudgement {
    /// Its expected share of the pot against the players still in ([`strength`]).
    share: f32,
    /// What a call returns: its share of the pot the call completes.
    call_return: f32,
    /// The multiple of the call below which that return folds.
    fold_below: f32,
    /// What a raise everyone still in calls returns per chip raised.
    raise_return: f32,
    /// The return per chip above which it raises.
    raise_above: f32,
}

impl BetJudgement {
    #[inline]
    fn new(view: &SeatView<'_>, fold_below: &[f32], raise_above: &[f32]) -> BetJudgement {
        let at = |v: &[f32]| v[view.turn.min(v.len() - 1)];
        let share = strength(view);
        let in_hand = view.folded.iter().filter(|&&f| !f).count() as f32;
        BetJudgement {
            share,
            call_return: share * (view.pot + view.to_call) as f32,
            fold_below: at(fold_below),
            raise_return: share * in_hand,
            raise_above: at(raise_above),
        }
    }
}

/// A bot made of one trade module and one betting module.
#[derive(Clone, Debug)]
pub struct SevensBot {
    name: String,
    preset: Preset,
}

impl SevensBot {
    /// The estimate behind the decision this bot makes in `view` (a bet when `view` offers
    /// one, else a trade), in words for replays; `None` where its module judges nothing.
    pub fn explain(&self, view: &SeatView<'_>, betting: bool) -> Option<String> {
        if !betting {
            let TradeModule::Exact {} = self.preset.trade else { return None };
            let (numbers, _) = sorted(&view.hand);
            let odds = odds::odds(view.rules);
            let best = odds.best(odds.field(view), numbers);
            return Some(format!("the trade it keeps has the best expected share of the pot, {:.2}", best.share));
        }
        let BetModule::Threshold { fold_below, raise_above } = &self.preset.bet else { return None };
        let j = BetJudgement::new(view, fold_below, raise_above);
        let mut text = format!("expected share of the pot {:.2}", j.share);
        if view.to_call > 0 {
            text += &format!(
                "; a call returns {:.2} for {} (folds below {:.2})",
                j.call_return,
                view.to_call,
                j.fold_below * view.to_call as f32
            );
        }
        if view.can_raise {
            text += &format!("; a raise returns {:.2} a chip (raises above {:.2})", j.raise_return, j.raise_above);
        }
        Some(text)
    }
}

impl Bot for SevensBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn act(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> Action {
        let passive = view.check_or_call();
        let raise = if view.can_raise { Action::Raise } else { passive };
        match &self.preset.bet {
            BetModule::CallingStation {} => passive,
            BetModule::Threshold { fold_below, raise_above } => {
                let j = BetJudgement::new(view, fold_below, raise_above);
                if view.to_call > 0 && j.call_return < j.fold_below * view.to_call as f32 {
                    Action::Fold
                } else if j.raise_return > j.raise_above {
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
            TradeModule::None {} => 0,
            TradeModule::Random {} => rng.random::<u8>() & 0b111,
            TradeModule::Greedy {} => {
                let (numbers, positions) = sorted(&view.hand);
                hand_mask(GREEDY[triple_index(numbers)], positions)
            }
            TradeModule::Exact {} => {
                let (numbers, positions) = sorted(&view.hand);
                let odds = odds::odds(view.rules);
                hand_mask(odds.best(odds.field(view), numbers).trade, positions)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::contest::GameDef;
    use crate::games::sevens::Def;

    #[test]
    fn greedy_keeps_what_a_naive_player_would_keep() {
        // 1-2-4 is 7 already: keep it.
        assert_eq!(GREEDY[triple_index([1, 2, 4])], 0);
        // 6-6-6 is 18: throw away at least two sixes.
        assert!(GREEDY[triple_index([6, 6, 6])].count_ones() >= 2);
        assert_eq!(dealt_totals().iter().sum::<u64>(), 7140);
    }

    #[test]
    fn trade_masks_point_at_the_hand_s_own_cards() {
        // Cards held 6, 1, 1 (positions 0-2): the largest number, sorted position 2, is card 0.
        let (numbers, positions) = sorted(&SevensHand::new(&[SevensCard(10), SevensCard(0), SevensCard(1)]));
        assert_eq!((numbers, positions), ([1, 1, 6], [1, 2, 0]));
        assert_eq!(hand_mask(0b100, positions), 0b001);
        assert_eq!(hand_mask(0b011, positions), 0b110);
        for ids in [[0u8, 2, 4], [4, 2, 0], [2, 4, 0], [3, 2, 1], [20, 21, 8]] {
            let h = SevensHand::new(&ids.map(SevensCard));
            assert_eq!(sorted(&h).0, h.numbers(), "{ids:?}");
        }
    }

    #[test]
    fn every_preset_loads_and_round_trips() {
        for (name, text) in PRESETS {
            if crate::search::params::is_search(text) {
                assert!(super::super::load_strategy(name).is_ok(), "{name}");
                continue;
            }
            if crate::search::params::is_policy(text) {
                // A trained policy, its trades by its fallback preset.
                let strategy = super::super::load_strategy(name).unwrap();
                assert!(matches!(strategy, crate::search::Strategy::Policy(_, Some(_))), "{name}");
                continue;
            }
            let p = Def::load_preset(name).unwrap();
            assert_eq!(Preset::from_toml(&toml::to_string(&p).unwrap()).unwrap(), p, "{name}");
        }
        let err = Def::load_preset("psychic").unwrap_err().to_string();
        assert!(err.contains("no-trade") && err.contains("exact"), "{err}");
        let err =
            Preset::from_toml("description = \"x\"\n[trade]\nmodule = \"clever\"\n[bet]\nmodule = \"calling-station\"")
                .unwrap_err()
                .to_string();
        assert!(err.contains("clever") && err.contains("greedy"), "{err}");
        let threshold = |fold: &str| {
            Preset::from_toml(&format!(
                "description = \"x\"\n[trade]\nmodule = \"exact\"\n[bet]\nmodule = \"threshold\"\nfold_below = {fold}\nraise_above = [1.25]"
            ))
        };
        assert!(threshold("[1.0, 1.25]").is_ok());
        let err = threshold("[-0.5]").unwrap_err().to_string();
        assert!(err.starts_with("bet.fold_below") && err.contains("break-even"), "{err}");
    }
}
