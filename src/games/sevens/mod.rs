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

use super::contest;
use crate::error::InputError;
use crate::search::Strategy;
use crate::sim::{Measures, RoundResult, SHARE_UNIT};

/// Final totals 3 to 18, as category names.
pub const TOTALS: [&str; 16] =
    ["3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18"];

crate::game_def! {
    title: "Sevens", name: "sevens", contest: Sevens,
    description: "three cards, bet, trade once: closest to 7 without going over (2-6 players)";

    /// At 4 players tight, bluffer, greedy and random. Every module's decisions matter in
    /// it: bluffer's raises put tight's fold timing to work and make the calling stations
    /// (greedy, random) call, tight raises its strong hands into them, and three trade
    /// modules (exact, in tight and bluffer; greedy; random) each face the public trade
    /// counts of the others. The random seat keeps the skill gap measurable. At 5 and 6
    /// players exact (a calling station) and no-trade join.
    const DEFAULT_MIX: &'static [&'static str] = &["tight", "bluffer", "greedy", "random", "exact", "no-trade"];
    const POLICY_FALLBACK: Option<&'static str> = Some("tight");
    const UNDECIDED_RULES: &'static str = "`all_over`: under `refund` a hand where everyone still in is over 7 has no winner, where `carry-over` or `lowest-wins` give it one";
    const VIEW_LEGEND: &'static str = "
        cards: a number and a suit, the suits written c, u, s (coins, cups, swords): 6u is the 6 of cups
        total: your cards' total: closest to 7 without going over wins
        hand_no: the hand of this unit, from 0
        carried: chips carried into this hand from a pot nobody won
        to_match: the bet every seat still in must have put in this hand
        street, put_in: chips each seat has put in this hand's betting, and over the whole unit
        traded, cards_traded: whether each seat has traded this hand, and how many cards it drew
        turns: turns each seat has taken this hand
        cards_drawn: cards drawn from the pile this hand, every seat's together";

    fn measures(rules: &Rules) -> Measures {
        measures::measures(rules)
    }
    fn tell(_rules: &Rules, _state: &engine::State, names: &[&str], events: &[Event], out: &RoundResult) -> String {
        tell(names, events, Some(out))
    }
    fn news(_rules: &Rules, _dealt: &engine::State, names: &[&str], event: &Event, observer: usize) -> Option<String> {
        let told = match *event {
            Event::HandStart { .. }
            | Event::Reveal { .. }
            | Event::NobodyQualifies
            | Event::Award { .. }
            | Event::Forfeit { .. }
            | Event::Refund { .. }
            | Event::LastStanding { .. } => true,
            Event::Deal { seat, .. } | Event::Trade { seat, .. } => seat == observer,
            _ => false,
        };
        told.then(|| tell(names, std::slice::from_ref(event), None))
    }

    fn rule_uses(rules: &Rules) -> Vec<crate::sim::RuleUse> {
        if rules.raise_cap == rules::DEFAULT_RAISE_CAP {
            return Vec::new();
        }
        vec![crate::sim::RuleUse {
            bit: rules::RAISE_CAP_USED,
            setting: format!("raise_cap = {}", rules.raise_cap),
            unused: format!(
                "no seat acted where it differs from the default cap of {}; these are the default's results",
                rules::DEFAULT_RAISE_CAP
            ),
        }]
    }

    fn warnings(rules: &Rules) -> Vec<String> {
        let mut out = Vec::new();
        if rules.all_over != rules::AllOver::CarryOver && rules.max_carry_hands != Rules::default().max_carry_hands {
            out.push(
                "max_carry_hands: counts only with all_over = \"carry-over\"; drop it or set all_over = \"carry-over\""
                    .into(),
            );
        }
        out
    }
}

/// A strategy by preset name, file, derived preset or search preset.
pub fn load_strategy(name: &str) -> Result<Strategy<Preset>, InputError> {
    contest::load_strategy::<Def>(name)
}

/// A unit of play told move by move, its result closing it where `out` is given.
pub fn tell(names: &[&str], events: &[Event], out: Option<&RoundResult>) -> String {
    let mut text = String::new();
    let seat = |s: usize| format!("seat {s} ({})", names[s]);
    for e in events {
        let _ = match *e {
            // The unit is "a hand" to a reader; only a carry-over's later deals get a number,
            // so play's "hand 2 of 3" is never followed by a "Hand 1".
            Event::HandStart { hand: 0, .. } => writeln!(text, "== The deal · dealer seat 0 · play starts at seat 1"),
            Event::HandStart { hand, carried } => writeln!(
                text,
                "== Deal {} of this hand (nobody won the last) · dealer seat 0 · play starts at seat 1 · {carried} {} carried over",
                hand + 1,
                crate::output::noun(i64::from(carried), "chip", "chips")
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
                let n = gave.cards().len();
                let cards = crate::output::noun(n as i64, "card", "cards");
                writeln!(text, "  {} trades {n} {cards}: gives {gave}, draws {drew}", seat(s))
            }
            Event::Keep { seat: s, pile_empty: false } => writeln!(text, "  {} keeps all three cards", seat(s)),
            Event::Keep { seat: s, pile_empty: true } => {
                writeln!(text, "  {} keeps its cards: the pile is empty", seat(s))
            }
            Event::Reveal { seat: s, hand } => writeln!(text, "  {} shows {hand}: total {}", seat(s), hand.total()),
            Event::NobodyQualifies => writeln!(text, "-- Everyone still in is over 7"),
            Event::Award { seat: s, chips } => writeln!(text, "  {} wins {chips}", seat(s)),
            Event::Forfeit { seat: s, chips } => {
                writeln!(text, "  {} takes {chips} of what the folded forfeited (no win)", seat(s))
            }
            Event::Refund { seat: s, chips } => writeln!(text, "  {} takes back {chips}", seat(s)),
            Event::LastStanding { seat: s } => writeln!(text, "-- Everyone else folded: {} wins at once", seat(s)),
            Event::Search(note) => writeln!(text, "  ({note})"),
        };
    }
    super::write_results(&mut text, names, out, |r| {
        let chips = crate::output::noun(r.score, "chip", "chips");
        format!("{:+} {chips}, pot share {:.3}", r.score, r.share_units as f64 / SHARE_UNIT as f64)
    });
    text
}
