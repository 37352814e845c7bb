//! Seven Card Draft: draft poker, packs passed like a booster draft, three betting rounds.
//!
//! - [`rules`]: the rules struct (TOML, defaults, validation) and the compiled [`Variant`];
//! - [`engine`]: the round (and game) state machine;
//! - [`view`]: what a seat may see, the actions, and the [`Bot`] trait;
//! - [`bots`]: the strategy modules and presets; [`strength`]: the partial-hand estimate;
//! - [`measures`]: what the game measures, and its `picks` table;
//! - [`narrative`]: a round told move by move, for `draftsim replay`.

pub mod bots;
pub mod calibration;
pub mod engine;
pub mod measures;
pub mod narrative;
pub mod rules;
pub mod strength;
pub mod view;

pub use crate::sim::{EventSink, NoEvents};
pub use bots::{ModularBot, Preset};
pub use engine::{Event, State};
pub use rules::{Rules, Variant};
pub use view::{Action, Bot, BotRng, PickChoice, SeatView};

use super::contest;
use crate::error::{Error, InputError};
use crate::search::Strategy;
use crate::sim::{Measures, RoundResult, Tally};
use std::sync::atomic::AtomicBool;

/// Category names, indexed like [`Category`](crate::eval::Category).
pub const CATEGORY_NAMES: [&str; 10] = [
    "high-card",
    "pair",
    "two-pair",
    "three-of-a-kind",
    "straight",
    "flush",
    "full-house",
    "four-of-a-kind",
    "straight-flush",
    "five-of-a-kind",
];

crate::game_def! {
    title: "Seven Card Draft", name: "seven-card-draft", contest: SevenCardDraft,
    description: "draft poker: 7-card packs passed like a booster draft, 3 betting rounds";

    const DEFAULT_MIX: &'static [&'static str] =
        &["greedy", "hate", "tight", "random", "loose-aggressive", "wild-hunter", "late-folder"];
    const POLICY_FALLBACK: Option<&'static str> = Some("greedy");
    const VIEW_LEGEND: &'static str = "
        round: the round of the game, from 0; pick and the betting rounds count from 1
        next_betting_round, after_pick: while picking, the betting round to come and the pick it follows
        betting_round, bet_to_match, raises: while betting, the round under way, the bet to match and its raises
        seen: every card you saw in the packs you held this round
        picks: your picks this round, each with the seat whose pack it came from (pack_of)
        taken_from_packs_that_came_back: for each pack back with you, what was taken since you passed it
        committed, this_betting_round: chips each seat has put in this round, and (while betting) in this betting round
        left_in_pack_of: what you left in each seat's pack (by the seat dealt it) when you last passed it
        holds_pack_of: the seat dealt the pack each seat holds now (none for a seat out of the round)";

    fn measures(variant: &Variant) -> Measures {
        measures::measures(variant)
    }
    fn tell(variant: &Variant, _state: &State, names: &[&str], events: &[Event], out: &RoundResult) -> String {
        narrative::tell(variant, names, events, Some(out))
    }
    fn news(variant: &Variant, _dealt: &engine::State, names: &[&str], event: &Event, observer: usize) -> Option<String> {
        let told = match *event {
            Event::RoundStart { .. }
            | Event::BettingStart { .. }
            | Event::Show { .. }
            | Event::Award { .. }
            | Event::Refund { .. }
            | Event::LastStanding { .. } => true,
            // The last card of a pack is taken without asking.
            Event::Pick { seat, pack, .. } => seat == observer && pack.len() == 1,
            _ => false,
        };
        told.then(|| narrative::tell(variant, names, std::slice::from_ref(event), None))
    }

    fn warnings(variant: &Variant) -> Vec<String> {
        variant.warnings()
    }
    fn unread(variant: &Variant, preset: &bots::Preset) -> Vec<String> {
        let bots::BetModule::Threshold { fold_below, raise_above, odds_weight, size, .. } = &preset.bet else {
            return Vec::new();
        };
        let rounds = variant.rules.bet_after_picks.len();
        let lists = [("fold_below", fold_below), ("raise_above", raise_above), ("odds_weight", odds_weight), ("size", size)];
        (lists.into_iter().filter(|(_, values)| values.len() > rounds))
            .map(|(key, values)| {
                format!(
                    "bet.{key} gives {} values, but these rules bet in {rounds} rounds (bet_after_picks): only the first {rounds} are read",
                    values.len(),
                )
            })
            .collect()
    }
    fn extra_tables(variant: &Variant, tally: &Tally, strategies: &[String]) -> Vec<crate::output::Table> {
        vec![measures::picks_table(variant, tally, strategies)]
    }
    fn rule_uses(variant: &Variant) -> Vec<crate::sim::RuleUse> {
        variant.rule_uses()
    }
    fn calibration(
        contest: &SevenCardDraft,
        rounds: u64,
        seed: u64,
        interrupt: Option<&AtomicBool>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<crate::output::Table>, Error> {
        // A trained player picks with its fallback preset's module; the search bot searches
        // its picks and has no estimate of its own to calibrate.
        let name = &contest.lineup[0].0;
        let draft = match &contest.lineup[0].1 {
            Strategy::Heuristic(preset) | Strategy::Policy(_, Some(preset)) => preset.draft,
            Strategy::Policy(_, None) => bots::DraftModule::Random {},
            Strategy::Search(..) => {
                return Err(InputError::new(format!(
                    "{name}: the search bot searches its picks and has no estimate of its own to calibrate: name a preset (its rollouts pick as its rollout preset does)"
                ))
                .into());
            }
            Strategy::Outside(..) => {
                return Err(InputError::new(format!(
                    "{name}: calibrate drafts with a seat's drafting module, which a program does not show: name a preset (a trained player picks as its fallback preset)"
                ))
                .into());
            }
        };
        // Named by the strategy seated: a derived preset's module says nothing of its name.
        if draft == (bots::DraftModule::Random {}) {
            return Err(InputError::new(format!("{name}: {}", calibration::RANDOM_DRAFT)).into());
        }
        let c = calibration::calibrate(&contest.rules.rules, draft, rounds, seed, interrupt, progress)?;
        Ok(vec![calibration::table(&c.own), calibration::field_table(&c.field)])
    }
}

/// A strategy by preset name, file, derived preset or search preset.
pub fn load_strategy(name: &str) -> Result<Strategy<Preset>, InputError> {
    contest::load_strategy::<Def>(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Category;
    use crate::games::GameRules;

    #[test]
    fn measures_are_well_formed() {
        for mode in ["round", "game"] {
            let rules = Rules::from_toml(&format!(
                "mode = \"{mode}\"\nbet_after_picks = [1, 2, 3, 4, 5, 6, 7]\nbet_sizes = [1, 1, 1, 1, 1, 1, 1]"
            ))
            .unwrap();
            measures::measures(&rules.compile().unwrap()).validate().unwrap();
        }
    }

    #[test]
    fn category_names_match_the_evaluator() {
        for cat in Category::ALL {
            assert_eq!(CATEGORY_NAMES[cat as usize], cat.name());
        }
    }
}
