//! Live-Draft: all players draw from one common library by tableau, pipeline, rummy or
//! blind draws, then play a small abstract limited game of lands and creatures. Rules:
//! `docs/games/live-draft.md`.
//!
//! - [`rules`]: the rules struct and its options; [`engine`]: library, openings, draws,
//!   turns and combat as one state machine; [`view`]: cards, boards, what a seat sees and
//!   the [`Bot`] trait; [`bots`]: pick, mulligan and play modules, presets;
//!   [`measures`]: what it measures.
//!
//! The unit of play is a game. Seat 0 plays first. The score is `players - 1` for a sole
//! winner and -1 for each other player; a game drawn at the turn cap, or shared on mill
//! counters, scores 0 for all.

pub mod bots;
pub mod engine;
pub mod measures;
pub mod rules;
pub mod view;

pub use bots::{LiveDraftBot, Preset};
pub use rules::Rules;
pub use view::{Bot, BotRng};

use std::fmt::Write;

use engine::{Event, How};

use super::{Built, GameInfo, Setup, presets};
use crate::error::{Error, InputError};
use crate::search::{self, Scratch, SeatBot, Strategy};
use crate::sim::{Game, Measures, RoundResult};
use view::{Card, NO_CARD};

/// The game's name on the command line.
pub const NAME: &str = "live-draft";

/// The registry entry.
pub const INFO: GameInfo = GameInfo {
    name: NAME,
    description: "one shared library drawn by tableau, pipeline, rummy or blind; lands and creatures (2-4 players)",
    rules_help: rules::RULES_HELP,
    rule_steps: rules::RULE_STEPS,
    default_rules: || toml::to_string(&Rules::default()).unwrap_or_default(),
    presets: || presets::listing(bots::PRESETS),
    preset_text: |name| crate::games::presets::preset_text(bots::PRESETS, name, NAME),
    random_rules: |seed| toml::to_string(&rules::random_rules(seed)).unwrap_or_default(),
    default_seats,
    build,
};

const DEFAULT_MIX: [&str; 4] = ["best-card", "curve", "colour", "hate"];

fn default_seats(players: usize) -> Vec<String> {
    presets::mix_seats(&DEFAULT_MIX, players)
}

fn build(rules_text: Option<&str>, players: Option<usize>, seats: Option<&[String]>) -> Result<Built, InputError> {
    let mut rules = rules_text.map_or_else(|| Ok(Rules::default()), Rules::from_toml)?;
    rules.players = presets::players_asked(players, rules_text, seats).unwrap_or(rules.players);
    let seats = presets::seats_or_mix(seats, &DEFAULT_MIX, rules.players);
    Ok((Box::new(LiveDraft::new(&rules, &seats)?), seats))
}

/// Live-Draft with a lineup of bots, ready for the harness.
#[derive(Clone, Debug)]
pub struct LiveDraft {
    /// The checked rules.
    pub rules: Rules,
    /// One (name, strategy) per seat of the lineup.
    pub lineup: Vec<(String, Strategy<Preset>)>,
    /// What the game measures.
    pub measures: Measures,
}

/// Per-thread state: the table, one player per lineup entry, and the driver's buffers.
pub struct Worker {
    table: Box<engine::Table>,
    bots: Vec<SeatBot<engine::Table>>,
    scratch: Box<Scratch<engine::Table>>,
}

/// A strategy by preset name, file, derived preset or search preset.
pub fn load_strategy(name: &str) -> Result<Strategy<Preset>, InputError> {
    search::load_strategy(bots::PRESETS, name, NAME, Preset::from_toml)
}

impl LiveDraft {
    /// The game with these rules and strategies, one per seat.
    pub fn new(rules: &Rules, seats: &[String]) -> Result<LiveDraft, InputError> {
        rules.check()?;
        let lineup = presets::lineup(seats, rules.players, load_strategy)?;
        Ok(LiveDraft { rules: rules.clone(), lineup, measures: measures::measures() })
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

impl Game for LiveDraft {
    type Worker = Worker;

    fn players(&self) -> usize {
        self.rules.players
    }

    fn worker(&self) -> Worker {
        Worker {
            table: Box::default(),
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
        let mut worker = self.worker();
        self.play_into(&mut worker, deal_seed, bot_seed, seating, &mut events, &mut out)?;
        let names: Vec<&str> = seating.iter().map(|&i| self.lineup[i].0.as_str()).collect();
        let cards: Vec<Card> = (0..self.rules.library_cards()).map(|i| worker.table.card(i as u8)).collect();
        Ok(tell(&cards, &names, &events, &out))
    }
}

impl Setup for LiveDraft {
    fn rules_toml(&self) -> String {
        toml::to_string(&self.rules).unwrap_or_default()
    }
}

/// A game told move by move.
pub fn tell(cards: &[Card], names: &[&str], events: &[Event], out: &RoundResult) -> String {
    let mut text = String::new();
    let seat = |s: usize| format!("seat {s} ({})", names[s]);
    let card = |id: u8| cards.get(usize::from(id)).map_or("nothing".to_string(), |c| c.name());
    for e in events {
        let _ = match *e {
            Event::Library { cards, lands } => writeln!(text, "== Library: {cards} cards, {lands} lands"),
            Event::Row { cards: row, len } => {
                let shown: Vec<String> =
                    row[..len].iter().map(|&c| if c == NO_CARD { "-".to_string() } else { card(c) }).collect();
                writeln!(text, "  row: {}", shown.join(" | "))
            }
            Event::Opening { seat: s, lands } => writeln!(text, "  {} opens with {lands} lands", seat(s)),
            Event::Turn { seat: s, turn } => writeln!(text, "== Turn {turn} · {}", seat(s)),
            Event::Draw { seat: s, card: c, how, hate } => {
                let from = match how {
                    How::Library => "draws",
                    How::Row => "takes from the row",
                    How::DiscardTop => "takes the discard pile's top",
                };
                writeln!(text, "  {} {from} {}{}", seat(s), card(c), if hate { " (to deny it)" } else { "" })
            }
            Event::Discard { seat: s, card: c, to } => writeln!(text, "  {} puts {} to {to}", seat(s), card(c)),
            Event::Wipe => writeln!(text, "  the tableau is all lands or all creatures: wiped and dealt again"),
            Event::Slide { card: c } => writeln!(text, "  the pipeline's leftmost card leaves the game: {}", card(c)),
            Event::Land { seat: s, card: c } => writeln!(text, "  {} plays {}", seat(s), card(c)),
            Event::Cast { seat: s, card: c } => writeln!(text, "  {} casts {}", seat(s), card(c)),
            Event::Attack { seat: s, defender, attackers } => {
                writeln!(text, "  {} attacks seat {defender} with {attackers} creatures", seat(s))
            }
            Event::Block { attacker, blocker } => {
                writeln!(text, "    {} blocks {}", card(blocker), card(attacker))
            }
            Event::Dies { seat: s, card: c } => writeln!(text, "    {}'s {} dies", seat(s), card(c)),
            Event::Damage { seat: s, amount, life } => {
                writeln!(text, "    {} takes {amount} damage: {life} life", seat(s))
            }
            Event::Search(note) => writeln!(text, "  ({note})"),
            Event::End { winners, why } => {
                let w: Vec<String> = (0..names.len()).filter(|&s| winners >> s & 1 == 1).map(seat).collect();
                if w.is_empty() {
                    writeln!(text, "-- Drawn: {why}")
                } else {
                    writeln!(
                        text,
                        "-- {} {} ({why})",
                        w.join(" and "),
                        if w.len() == 1 { "wins" } else { "share the win" }
                    )
                }
            }
        };
    }
    let _ = writeln!(text, "== Result");
    for (s, name) in names.iter().enumerate() {
        let _ = writeln!(text, "  seat {s} ({name}): {} points", out.seats[s].score);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_are_well_formed() {
        measures::measures().validate().unwrap();
    }
}
