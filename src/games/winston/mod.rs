//! Winston Draft + Crazier Eights: two players draft from three piles, build decks of at
//! most three colours, and play Crazier Eights with them. Rules:
//! `docs/games/winston-crazier-eights.md`.
//!
//! - [`rules`]: the rules struct and its options; [`cards`]: the pool as bitsets;
//! - [`engine`]: draft, build and play as one state machine; [`view`]: what a seat sees and
//!   the [`Bot`] trait; [`bots`]: draft, build and play modules, presets;
//!   [`measures`]: what it measures.
//!
//! The unit of play is a match (one game, or best of 3). Seat 0 drafts first; by default
//! seat 1, having drafted second, starts the first game. The score is +1 for a match won
//! and -1 for one lost; a match drawn at the turn cap scores 0 and has no winner.

pub mod bots;
pub mod cards;
pub mod engine;
pub mod measures;
pub mod rules;
pub mod view;

pub use bots::{Preset, WinstonBot};
pub use rules::Rules;
pub use view::{Bot, BotRng};

use std::fmt::Write;

use engine::{Event, NO_CARD};

use super::{Built, GameInfo, Setup, presets};
use crate::error::{Error, InputError};
use crate::search::{self, Scratch, SeatBot, Strategy};
use crate::sim::{Game, Measures, RoundResult};
use cards::Pool;
use engine::Model;

/// The game's name on the command line.
pub const NAME: &str = "winston-crazier-eights";

/// The registry entry.
pub const INFO: GameInfo = GameInfo {
    name: NAME,
    description: "Winston draft from three piles, 30-card decks, then Crazier Eights (2 players)",
    rules_help: rules::RULES_HELP,
    rule_steps: rules::RULE_STEPS,
    default_rules: || toml::to_string(&Rules::default()).unwrap_or_default(),
    presets: || presets::listing(bots::PRESETS),
    preset_text: |name| crate::games::presets::preset_text(bots::PRESETS, name, NAME),
    random_rules: |seed| toml::to_string(&rules::random_rules(seed)).unwrap_or_default(),
    default_seats,
    build,
};

const DEFAULT_MIX: [&str; 2] = ["value", "colour"];

fn default_seats(players: usize) -> Vec<String> {
    presets::mix_seats(&DEFAULT_MIX, players)
}

fn build(rules_text: Option<&str>, players: Option<usize>, seats: Option<&[String]>) -> Result<Built, InputError> {
    let mut rules = rules_text.map_or_else(|| Ok(Rules::default()), Rules::from_toml)?;
    rules.players = presets::players_asked(players, rules_text, seats).unwrap_or(rules.players);
    let seats = presets::seats_or_mix(seats, &DEFAULT_MIX, rules.players);
    Ok((Box::new(Winston::new(&rules, &seats)?), seats))
}

/// Winston + Crazier Eights with a lineup of bots, ready for the harness.
#[derive(Clone, Debug)]
pub struct Winston {
    /// The checked rules and the pool they describe.
    pub model: Model,
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

impl Winston {
    /// The game with these rules and strategies, one per seat.
    pub fn new(rules: &Rules, seats: &[String]) -> Result<Winston, InputError> {
        rules.check()?;
        let lineup = presets::lineup(seats, rules.players, load_strategy)?;
        Ok(Winston { model: Model::new(rules), lineup, measures: measures::measures(rules) })
    }

    /// The checked rules.
    pub fn rules(&self) -> &Rules {
        &self.model.rules
    }

    /// The pool the rules describe.
    pub fn pool(&self) -> &Pool {
        &self.model.pool
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
        engine::play_seats(&self.model, table, bots, seating, deal_seed, bot_seed, scratch, sink, out)
    }
}

impl Game for Winston {
    type Worker = Worker;

    fn players(&self) -> usize {
        2
    }

    fn worker(&self) -> Worker {
        Worker {
            table: engine::Table::default(),
            bots: (self.lineup.iter()).map(|(name, strategy)| SeatBot::new(name, strategy, 2, Preset::bot)).collect(),
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
        Ok(tell(&self.model.pool, &names, &events, &out))
    }
}

impl Setup for Winston {
    fn rules_toml(&self) -> String {
        toml::to_string(&self.model.rules).unwrap_or_default()
    }

    fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        let rules = &self.model.rules;
        if rules.games == 1 && rules.later_starter != Rules::default().later_starter {
            out.push("later_starter: counts only in a best of 3 (games = 3); drop it or set games = 3".into());
        }
        out
    }
}

/// A match told move by move.
pub fn tell(pool: &Pool, names: &[&str], events: &[Event], out: &RoundResult) -> String {
    let mut text = String::new();
    let seat = |s: usize| format!("seat {s} ({})", names[s]);
    let card = |id: u8| if id == NO_CARD { "nothing".to_string() } else { pool.card_name(id) };
    let _ = writeln!(text, "== Draft · seat 0 drafts first");
    for e in events {
        let _ = match *e {
            Event::Look { seat: s, pile, cards } => {
                writeln!(text, "  {} looks at pile {}: {}", seat(s), pile + 1, pool.set_name(cards))
            }
            Event::Take { seat: s, pile, cards, deny, forced } => writeln!(
                text,
                "  {} takes pile {} ({} cards){}{}",
                seat(s),
                pile + 1,
                cards::count(cards),
                if deny { ", mainly to deny it" } else { "" },
                if forced { ", as it must" } else { "" }
            ),
            Event::Pass { seat: s, pile } => writeln!(text, "  {} passes pile {}", seat(s), pile + 1),
            Event::Blind { seat: s, card: c, last } => writeln!(
                text,
                "  {} takes the stack's {} card unseen: {}",
                seat(s),
                if last { "last" } else { "top" },
                card(c)
            ),
            Event::Deck { seat: s, colours, cards, short } => writeln!(
                text,
                "== {} builds {} cards in {}{}: {}",
                seat(s),
                cards::count(cards),
                pool.colours_name(colours),
                if short { " (short deck)" } else { "" },
                pool.set_name(cards)
            ),
            Event::GameStart { game, starter } => {
                writeln!(text, "== Game {} · {} starts", game + 1, seat(starter))
            }
            Event::Opening { seat: s, hand, top } => {
                writeln!(text, "  {} holds {}; turns up {}", seat(s), pool.set_name(hand), card(top))
            }
            Event::Draw { seat: s, card: c } => writeln!(text, "  {} draws {}", seat(s), card(c)),
            Event::Reshuffle { seat: s, cards } => {
                writeln!(text, "  {} shuffles {cards} discards into a new deck", seat(s))
            }
            Event::Play { seat: s, card: c } => writeln!(text, "  {} plays {}", seat(s), card(c)),
            Event::Peek { seat: s, card: c, kept } => writeln!(
                text,
                "  {} peeks at {} and {}",
                seat(s),
                card(c),
                if kept { "keeps it on top" } else { "puts it at the bottom" }
            ),
            Event::Discard { seat: s, card: c, named } => match named {
                Some(colour) => {
                    writeln!(text, "  {} discards {}, naming {}", seat(s), card(c), pool.colour_names[colour])
                }
                None => writeln!(text, "  {} discards {}", seat(s), card(c)),
            },
            Event::GameEnd { winner: Some(w), turns } => writeln!(text, "-- {} wins after {turns} turns", seat(w)),
            Event::GameEnd { winner: None, turns } => writeln!(text, "-- Drawn at the turn cap ({turns} turns)"),
            Event::Search(note) => writeln!(text, "  ({note})"),
        };
    }
    let _ = writeln!(text, "== Result");
    for (s, name) in names.iter().enumerate() {
        let r = &out.seats[s];
        let verdict = match r.score {
            1 => "wins the match",
            -1 => "loses the match",
            _ => "draws",
        };
        let _ = writeln!(text, "  seat {s} ({name}): {verdict}");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_are_well_formed() {
        measures::measures(&Rules::default()).validate().unwrap();
        for seed in 0..50 {
            measures::measures(&rules::random_rules(seed)).validate().unwrap();
        }
    }
}
