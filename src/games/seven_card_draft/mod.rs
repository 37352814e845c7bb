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
pub use engine::{Event, Table};
pub use rules::{Rules, Variant};
pub use view::{Action, Bot, BotRng, PickChoice, SeatView};

use super::{Built, GameInfo, Setup, presets};
use crate::error::{Error, InputError};
use crate::search::{self, Scratch, SeatBot, Strategy};
use crate::sim::{Game, Measures, RoundResult, Tally};
use std::sync::atomic::AtomicBool;

/// The registry entry.
pub const INFO: GameInfo = GameInfo {
    name: NAME,
    description: "draft poker: 7-card packs passed like a booster draft, 3 betting rounds",
    rules_help: rules::RULES_HELP,
    rule_steps: rules::RULE_STEPS,
    default_rules: || toml::to_string(&Rules::default()).unwrap_or_default(),
    presets: || presets::listing(bots::PRESETS),
    preset_text: |name| crate::games::presets::preset_text(bots::PRESETS, name, NAME),
    random_rules: |seed| toml::to_string(&rules::random_rules(seed)).unwrap_or_default(),
    default_seats,
    build,
};

/// The default mix of presets, seat by seat.
const DEFAULT_MIX: [&str; 7] = ["greedy", "hate", "tight", "random", "loose-aggressive", "wild-hunter", "late-folder"];

fn default_seats(players: usize) -> Vec<String> {
    presets::mix_seats(&DEFAULT_MIX, players)
}

fn build(rules_text: Option<&str>, players: Option<usize>, seats: Option<&[String]>) -> Result<Built, InputError> {
    let mut rules = rules_text.map_or_else(|| Ok(Rules::default()), Rules::from_toml)?;
    rules.players = presets::players_asked(players, rules_text, seats).unwrap_or(rules.players);
    let seats = presets::seats_or_mix(seats, &DEFAULT_MIX, rules.players);
    Ok((Box::new(SevenCardDraft::new(&rules, &seats)?), seats))
}

impl Setup for SevenCardDraft {
    fn rules_toml(&self) -> String {
        toml::to_string(&self.variant.rules).unwrap_or_default()
    }

    fn warnings(&self) -> Vec<String> {
        self.variant.warnings()
    }

    fn extra_tables(&self, tally: &Tally, strategies: &[String]) -> Vec<crate::output::Table> {
        vec![measures::picks_table(tally, strategies)]
    }

    fn rule_uses(&self) -> Vec<crate::sim::RuleUse> {
        self.variant.rule_uses()
    }

    fn calibration(
        &self,
        rounds: u64,
        seed: u64,
        interrupt: Option<&AtomicBool>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<crate::output::Table, Error> {
        // The search bot drafts with its rollout preset's module (random rollouts: greedy).
        let draft = match &self.lineup[0].1 {
            Strategy::Heuristic(preset) | Strategy::Search(_, Some(preset)) => preset.draft,
            Strategy::Search(_, None) => bots::DraftModule::Greedy,
        };
        let c = calibration::calibrate(&self.variant.rules, draft, rounds, seed, interrupt, progress)?;
        Ok(calibration::table(&c))
    }
}

/// The game's name in the registry and on the command line.
pub const NAME: &str = "seven-card-draft";

/// Category names, indexed like [`Category`].
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

/// Seven Card Draft with a lineup of bots, ready for the harness.
#[derive(Clone, Debug)]
pub struct SevenCardDraft {
    /// The checked rules.
    pub variant: Variant,
    /// One (name, strategy) per seat of the lineup.
    pub lineup: Vec<(String, Strategy<Preset>)>,
    /// What the variant measures.
    pub measures: Measures,
}

/// Per-thread state: the table, one player per lineup entry, and the driver's buffers.
pub struct Worker {
    table: Table,
    bots: Vec<SeatBot<Table>>,
    scratch: Box<Scratch<engine::Table>>,
}

/// A strategy by preset name, file, derived preset or search preset.
pub fn load_strategy(name: &str) -> Result<Strategy<Preset>, InputError> {
    search::load_strategy(bots::PRESETS, name, NAME, Preset::from_toml)
}

impl SevenCardDraft {
    /// The game with these rules and these strategies (names or preset file paths), one per seat.
    pub fn new(rules: &Rules, seats: &[String]) -> Result<SevenCardDraft, InputError> {
        let variant = rules.compile()?;
        let lineup = presets::lineup(seats, variant.rules.players, load_strategy)?;
        let measures = measures::measures(&variant);
        Ok(SevenCardDraft { variant, lineup, measures })
    }

    /// Plays one round (a game in game mode) on a worker, events to `sink`.
    #[allow(clippy::too_many_arguments)]
    fn play_into(
        &self,
        worker: &mut Worker,
        deal_seed: u64,
        bot_seed: u64,
        deal_index: u64,
        seating: &[usize],
        sink: &mut impl EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let Worker { table, bots, scratch } = worker;
        engine::play_seats(&self.variant, table, bots, seating, deal_seed, bot_seed, deal_index, scratch, sink, out)
    }

    /// Plays one round with every event sent to `sink` (for replays and tests), with the
    /// invariants checked.
    pub fn play_with_events(
        &self,
        deal_seed: u64,
        bot_seed: u64,
        deal_index: u64,
        seating: &[usize],
        sink: &mut impl EventSink<Event>,
    ) -> Result<RoundResult, Error> {
        let mut out = RoundResult::default();
        let mut worker = self.worker();
        worker.table.set_verify(true);
        self.play_into(&mut worker, deal_seed, bot_seed, deal_index, seating, sink, &mut out)?;
        Ok(out)
    }
}

impl Game for SevenCardDraft {
    type Worker = Worker;

    fn players(&self) -> usize {
        self.variant.rules.players
    }

    fn worker(&self) -> Worker {
        Worker {
            table: Table::new(&self.variant),
            bots: (self.lineup.iter())
                .map(|(name, strategy)| SeatBot::new(name, strategy, self.variant.rules.players, Preset::bot))
                .collect(),
            scratch: Box::default(),
        }
    }

    fn measures(&self) -> &Measures {
        &self.measures
    }

    fn play(
        &self,
        worker: &mut Worker,
        deal_seed: u64,
        bot_seed: u64,
        deal_index: u64,
        seating: &[usize],
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        self.play_into(worker, deal_seed, bot_seed, deal_index, seating, &mut NoEvents, out)
    }

    fn set_checking(&self, worker: &mut Worker, on: bool) {
        worker.table.set_verify(on || cfg!(debug_assertions));
    }

    fn replay(&self, deal_seed: u64, bot_seed: u64, deal_index: u64, seating: &[usize]) -> Result<String, Error> {
        let mut events = Vec::new();
        let result = self.play_with_events(deal_seed, bot_seed, deal_index, seating, &mut events)?;
        let names: Vec<&str> = seating.iter().map(|&i| self.lineup[i].0.as_str()).collect();
        Ok(narrative::tell(&self.variant, &names, &events, &result))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Category;

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
