//! Sevens (Naykuh D'alg, "Wealthy Merchant"): three cards, bet, trade once, closest to 7
//! without going over. Rules: `docs/games/sevens.md`.
//!
//! - [`rules`]: the rules struct and its options; [`cards`]: the 36-card deck;
//! - [`engine`]: the hand (and carry-over) state machine; [`view`]: what a seat sees and
//!   the [`Bot`] trait; [`bots`]: trade and betting modules, presets; [`odds`]: what a
//!   final hand is worth against the players still in.
//!
//! In the tables, "category" is the final total (3 to 18) of a revealed hand, written to the
//! `totals` table; fold round 1 is a fold at the seat's first turn, round 2 a later one.

pub mod bots;
pub mod cards;
pub mod engine;
pub mod measures;
pub mod odds;
pub mod rules;
pub mod view;

pub use bots::{Preset, SevensBot};
pub use rules::Rules;
pub use view::{Action, Bot, BotRng, SeatView};

use std::fmt::Write;

use engine::Event;

use super::{Built, GameInfo, Setup, presets};
use crate::error::{Error, InputError};
use crate::search::{self, Scratch, SeatBot, Strategy};
use crate::sim::{Game, Measures, RoundResult, SHARE_UNIT};

/// The game's name on the command line.
pub const NAME: &str = "sevens";

/// Final totals 3 to 18, as category names.
pub const TOTALS: [&str; 16] =
    ["3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18"];

/// The registry entry.
pub const INFO: GameInfo = GameInfo {
    name: NAME,
    description: "three cards, bet, trade once: closest to 7 without going over (2-6 players)",
    rules_help: rules::RULES_HELP,
    rule_steps: rules::RULE_STEPS,
    default_rules: || toml::to_string(&Rules::default()).unwrap_or_default(),
    presets: || presets::listing(bots::PRESETS),
    preset_text: |name| crate::games::presets::preset_text(bots::PRESETS, name, NAME),
    random_rules: |seed| toml::to_string(&rules::random_rules(seed)).unwrap_or_default(),
    default_seats,
    build,
};

/// The default lineup, cycled over the seats: at 4 players tight, bluffer, greedy and
/// random. Every module's decisions matter in it: bluffer's raises put tight's fold timing
/// to work and make the calling stations (greedy, random) call, tight raises its strong
/// hands into them, and three trade modules (exact, in tight and bluffer; greedy; random)
/// each face the public trade counts of the others. The random seat keeps the skill gap
/// measurable. At 5 and 6 players exact (a calling station) and no-trade join.
const DEFAULT_MIX: [&str; 6] = ["tight", "bluffer", "greedy", "random", "exact", "no-trade"];

fn default_seats(players: usize) -> Vec<String> {
    presets::mix_seats(&DEFAULT_MIX, players)
}

fn build(rules_text: Option<&str>, players: Option<usize>, seats: Option<&[String]>) -> Result<Built, InputError> {
    let mut rules = rules_text.map_or_else(|| Ok(Rules::default()), Rules::from_toml)?;
    rules.players = presets::players_asked(players, rules_text, seats).unwrap_or(rules.players);
    let seats = presets::seats_or_mix(seats, &DEFAULT_MIX, rules.players);
    Ok((Box::new(Sevens::new(&rules, &seats)?), seats))
}

/// Sevens with a lineup of bots, ready for the harness.
#[derive(Clone, Debug)]
pub struct Sevens {
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

impl Sevens {
    /// The game with these rules and strategies, one per seat.
    pub fn new(rules: &Rules, seats: &[String]) -> Result<Sevens, InputError> {
        rules.check()?;
        let lineup = presets::lineup(seats, rules.players, load_strategy)?;
        Ok(Sevens { rules: rules.clone(), lineup, measures: measures::measures() })
    }
}

impl Sevens {
    /// Plays one unit on a worker, events to `sink`.
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

impl Game for Sevens {
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
        self.play_into(worker, deal_seed, bot_seed, seating, &mut engine::NoEvents, out)
    }

    fn set_checking(&self, worker: &mut Worker, on: bool) {
        worker.table.verify = on || cfg!(debug_assertions);
    }

    fn replay(&self, deal_seed: u64, bot_seed: u64, _deal_index: u64, seating: &[usize]) -> Result<String, Error> {
        let mut events = Vec::new();
        let mut out = RoundResult::default();
        self.play_into(&mut self.worker(), deal_seed, bot_seed, seating, &mut events, &mut out)?;
        let names: Vec<&str> = seating.iter().map(|&i| self.lineup[i].0.as_str()).collect();
        Ok(tell(&names, &events, &out))
    }
}

impl Setup for Sevens {
    fn rules_toml(&self) -> String {
        toml::to_string(&self.rules).unwrap_or_default()
    }

    fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.rules.all_over != rules::AllOver::CarryOver
            && self.rules.max_carry_hands != Rules::default().max_carry_hands
        {
            out.push(
                "max_carry_hands: counts only with all_over = \"carry-over\"; drop it or set all_over = \"carry-over\""
                    .into(),
            );
        }
        out
    }
}

/// A unit of play told move by move.
fn tell(names: &[&str], events: &[Event], out: &RoundResult) -> String {
    let mut text = String::new();
    let seat = |s: usize| format!("seat {s} ({})", names[s]);
    for e in events {
        let _ = match *e {
            Event::HandStart { hand, carried } => writeln!(
                text,
                "== Hand {} · dealer seat 0 · play starts at seat 1{}",
                hand + 1,
                if carried > 0 { format!(" · {carried} chips carried over") } else { String::new() }
            ),
            Event::Deal { seat: s, hand } => writeln!(text, "{} is dealt {hand} (total {})", seat(s), hand.total()),
            Event::Act { seat: s, action, paid } => {
                writeln!(
                    text,
                    "  {} {action}s{}",
                    seat(s),
                    if paid > 0 { format!(" ({paid} in)") } else { String::new() }
                )
            }
            Event::Trade { seat: s, gave, drew } => {
                writeln!(text, "  {} trades {} card(s): gives {gave}, draws {drew}", seat(s), gave.cards().len())
            }
            Event::Reveal { seat: s, hand } => writeln!(text, "  {} shows {hand}: total {}", seat(s), hand.total()),
            Event::NobodyQualifies => writeln!(text, "-- Everyone still in is over 7"),
            Event::Award { seat: s, chips } => writeln!(text, "  {} wins {chips}", seat(s)),
            Event::Refund { seat: s, chips } => writeln!(text, "  {} takes back {chips}", seat(s)),
            Event::LastStanding { seat: s } => writeln!(text, "-- Everyone else folded: {} wins at once", seat(s)),
            Event::Search(note) => writeln!(text, "  ({note})"),
        };
    }
    let _ = writeln!(text, "== Result");
    for (s, name) in names.iter().enumerate() {
        let r = &out.seats[s];
        let _ = writeln!(
            text,
            "  seat {s} ({name}): {:+} chips, pot share {:.3}",
            r.score,
            r.share_units as f64 / SHARE_UNIT as f64
        );
    }
    text
}
