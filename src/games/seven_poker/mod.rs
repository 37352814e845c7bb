//! Seven Poker: seven colours, exchanges, show three, stay or fold, race to five victory
//! cards. Rules: `docs/games/seven-poker.md`.
//!
//! - [`rules`]: the rules struct and its options; [`cards`]: colours, hands as bitsets,
//!   categories and their exact frequencies;
//! - [`engine`]: the game state machine; [`view`]: what a seat sees and the [`Bot`] trait;
//! - [`bots`]: exchange, show, stay and keep modules, presets; [`measures`]: what it measures.
//!
//! The unit of play is a whole game (`unit = "round"` for single rounds); the score is the
//! victory cards held at its end, and the win share goes to the game's winner (none for a
//! game that reaches the round cap). The rules file's open points are rules keys:
//! `left_swap`, `victory_colours`, `lone_stayer`, `all_fold`, `short_pile` (see
//! [`engine`] for each reading).

pub mod bots;
pub mod cards;
pub mod engine;
pub mod measures;
pub mod rules;
pub mod view;

pub use bots::{Preset, SevenPokerBot};
pub use rules::Rules;
pub use view::{Bot, BotRng, SeatView};

use std::fmt::Write;

use engine::Event;

use super::{Built, GameInfo, Setup, presets};
use crate::error::{Error, InputError};
use crate::search::{self, Scratch, SeatBot, Strategy};
use crate::sim::{Game, Measures, RoundResult, SHARE_UNIT};
use cards::{COLOUR_NAMES, Layout};

/// The game's name on the command line.
pub const NAME: &str = "seven-poker";

/// The registry entry.
pub const INFO: GameInfo = GameInfo {
    name: NAME,
    description: "seven colours: exchange, show three, stay or fold, race to five victory cards (3-5 players)",
    rules_help: rules::RULES_HELP,
    rule_steps: rules::RULE_STEPS,
    default_rules: || toml::to_string(&Rules::default()).unwrap_or_default(),
    presets: || presets::listing(bots::PRESETS),
    preset_text: |name| crate::games::presets::preset_text(bots::PRESETS, name, NAME),
    random_rules: |seed| toml::to_string(&rules::random_rules(seed)).unwrap_or_default(),
    default_seats,
    build,
};

const DEFAULT_MIX: [&str; 5] = ["adaptive", "colour", "rainbow", "bluffer", "fold-to-keep"];

fn default_seats(players: usize) -> Vec<String> {
    presets::mix_seats(&DEFAULT_MIX, players)
}

fn build(rules_text: Option<&str>, players: Option<usize>, seats: Option<&[String]>) -> Result<Built, InputError> {
    let mut rules = rules_text.map_or_else(|| Ok(Rules::default()), Rules::from_toml)?;
    rules.players = presets::players_asked(players, rules_text, seats).unwrap_or(rules.players);
    let seats = presets::seats_or_mix(seats, &DEFAULT_MIX, rules.players);
    Ok((Box::new(SevenPoker::new(&rules, &seats)?), seats))
}

/// Seven Poker with a lineup of bots, ready for the harness.
#[derive(Clone, Debug)]
pub struct SevenPoker {
    /// The checked rules.
    pub rules: Rules,
    /// One (name, strategy) per seat of the lineup.
    pub lineup: Vec<(String, Strategy<Preset>)>,
    /// What the game measures.
    pub measures: Measures,
}

/// Per-thread state: the table, one player per lineup entry, and the driver's buffers.
pub struct Worker {
    table: engine::Table,
    bots: Vec<SeatBot<engine::Table>>,
    scratch: Box<Scratch<engine::Table>>,
}

/// A strategy by preset name, file, derived preset or search preset.
pub fn load_strategy(name: &str) -> Result<Strategy<Preset>, InputError> {
    search::load_strategy(bots::PRESETS, name, NAME, Preset::from_toml)
}

impl SevenPoker {
    /// The game with these rules and strategies, one per seat.
    pub fn new(rules: &Rules, seats: &[String]) -> Result<SevenPoker, InputError> {
        rules.check()?;
        let lineup = presets::lineup(seats, rules.players, load_strategy)?;
        Ok(SevenPoker { rules: rules.clone(), lineup, measures: measures::measures(rules) })
    }

    fn play_into(
        &self,
        worker: &mut Worker,
        deal_seed: u64,
        bot_seed: u64,
        seating: &[usize],
        sink: &mut impl crate::sim::EventSink<Event>,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let Worker { table, bots, scratch } = worker;
        engine::play_seats(&self.rules, table, bots, seating, deal_seed, bot_seed, scratch, sink, out)
    }
}

impl Game for SevenPoker {
    type Worker = Worker;

    fn players(&self) -> usize {
        self.rules.players
    }

    fn worker(&self) -> Worker {
        Worker {
            table: engine::Table::default(),
            bots: (self.lineup.iter())
                .map(|(name, strategy)| SeatBot::new(name, strategy, self.rules.players, Preset::bot))
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
        _deal_index: u64,
        seating: &[usize],
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        self.play_into(worker, deal_seed, bot_seed, seating, &mut crate::sim::NoEvents, out)
    }

    fn set_checking(&self, worker: &mut Worker, on: bool) {
        worker.table.verify = on || cfg!(debug_assertions);
    }

    fn replay(&self, deal_seed: u64, bot_seed: u64, _deal_index: u64, seating: &[usize]) -> Result<String, Error> {
        let mut events = Vec::new();
        let mut out = RoundResult::default();
        self.play_into(&mut self.worker(), deal_seed, bot_seed, seating, &mut events, &mut out)?;
        let names: Vec<&str> = seating.iter().map(|&i| self.lineup[i].0.as_str()).collect();
        Ok(tell(Layout { per: self.rules.cards_per_colour }, &names, &events, &out))
    }
}

impl Setup for SevenPoker {
    fn rules_toml(&self) -> String {
        toml::to_string(&self.rules).unwrap_or_default()
    }

    fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.rules.unit == rules::Unit::Round && self.rules.max_rounds != Rules::default().max_rounds {
            out.push(
                "max_rounds: counts only with unit = \"game\" (a unit is one round here); drop it or set unit = \"game\""
                    .into(),
            );
        }
        out
    }
}

/// A unit told move by move.
fn tell(layout: Layout, names: &[&str], events: &[Event], out: &RoundResult) -> String {
    let mut text = String::new();
    let seat = |s: usize| format!("seat {s} ({})", names[s]);
    let colours = |bits: u8| -> String {
        let v: Vec<&str> = (0..7).filter(|c| bits >> c & 1 == 1).map(|c| COLOUR_NAMES[c]).collect();
        v.join(", ")
    };
    for e in events {
        let _ = match *e {
            Event::RoundStart { round, first } => {
                writeln!(text, "== Round {} of the game · first player seat {first}", round + 1)
            }
            Event::Hand { seat: s, cards } => writeln!(text, "{} holds {}", seat(s), layout.set_name(cards)),
            Event::Swap { seat: s, gave, got } => writeln!(
                text,
                "  {} gives {} to its left neighbour and gets {}",
                seat(s),
                layout.card_name(gave),
                layout.card_name(got)
            ),
            Event::Exchange { seat: s, discarded, drew } => writeln!(
                text,
                "  {} discards {} face up, draws {}",
                seat(s),
                layout.set_name(discarded),
                layout.set_name(drew)
            ),
            Event::Show { seat: s, cards } => writeln!(text, "  {} shows {}", seat(s), layout.set_name(cards)),
            Event::Declare { seat: s, stays } => {
                writeln!(text, "  {} {}", seat(s), if stays { "stays" } else { "folds" })
            }
            Event::Reveal { seat: s, cards } => {
                writeln!(text, "  {} reveals {} (strength {})", seat(s), layout.set_name(cards), layout.strength(cards))
            }
            Event::Outcome { winner: Some(w), colours: c, .. } => {
                writeln!(
                    text,
                    "-- {} wins the round; victory colours taken: {}",
                    seat(w),
                    if c == 0 { "none".to_string() } else { colours(c) }
                )
            }
            Event::Outcome { winner: None, tie_out, .. } => {
                writeln!(text, "-- Nobody wins the round{}", if tie_out { ": every stayer tied" } else { "" })
            }
            Event::Keep { seat: s, cards } => {
                writeln!(text, "  {} keeps {} for the next round", seat(s), layout.set_name(cards))
            }
            Event::Search(note) => writeln!(text, "  ({note})"),
        };
    }
    let _ = writeln!(text, "== Result");
    for (s, name) in names.iter().enumerate() {
        let r = &out.seats[s];
        let _ = writeln!(
            text,
            "  seat {s} ({name}): {} victory cards{}",
            r.score,
            if r.share_units == SHARE_UNIT { ", wins the game" } else { "" }
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_are_well_formed() {
        measures::measures(&Rules::default()).validate().unwrap();
    }
}
