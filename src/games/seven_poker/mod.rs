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

use super::contest;
use crate::error::InputError;
use crate::search::{Forward, Strategy};
use crate::sim::{Measures, RoundResult, SHARE_UNIT};
use cards::{COLOUR_NAMES, Layout};

crate::game_def! {
    title: "Seven Poker", name: "seven-poker", contest: SevenPoker,
    description: "seven colours: exchange, show three, stay or fold, race to five victory cards (3-5 players)";

    const DEFAULT_MIX: &'static [&'static str] = &["adaptive", "colour", "rainbow", "bluffer", "fold-to-keep"];
    const POLICY_FALLBACK: Option<&'static str> = Some("adaptive");
    const VIEW_LEGEND: &'static str = "
        round, first: the round of the game, from 0, and its first player
        received: the card your right neighbour gave you, while you choose one to give back
        discards, discarded: the discard pile, and the cards each seat discarded face up this round
        pile: cards left to draw
        hand_sizes, held: each hand's size as dealt (less victory cards taken), and what it holds now
        shown, known: cards each seat showed this round; all the cards everyone knows it holds
        kept_after_folding: whether the seat folded keeping cards for the next round
        exchange, show, keep moves: only how many cards of each colour count (never their numbers), so each names a colour's lowest-numbered cards";

    /// The game's win share: players race to the victory target, not to victory cards.
    fn training_value(rules: &Rules, state: &engine::State, out: &RoundResult, seat: usize) -> f64 {
        state.returns(rules, out, seat)
    }
    /// A game holds a stay-or-fold decision of every seat each round.
    fn probe_training(rules: &Rules) -> bool {
        rules.unit == rules::Unit::Game
    }

    fn measures(rules: &Rules) -> Measures {
        measures::measures(rules)
    }
    fn tell(rules: &Rules, _state: &engine::State, names: &[&str], events: &[Event], out: &RoundResult) -> String {
        tell(Layout { per: rules.cards_per_colour }, rules.max_rounds, names, events, Some(out))
    }
    fn news(rules: &Rules, _dealt: &engine::State, names: &[&str], event: &Event, observer: usize) -> Option<String> {
        let told = match *event {
            Event::RoundStart { .. } | Event::Show { .. } | Event::Reveal { .. } | Event::Outcome { .. } => true,
            Event::Hand { seat, .. } | Event::Swap { seat, .. } => seat == observer,
            Event::Exchange { seat, discarded, .. } => seat == observer && discarded != 0,
            _ => false,
        };
        told.then(|| tell(Layout { per: rules.cards_per_colour }, rules.max_rounds, names, std::slice::from_ref(event), None))
    }

    fn warnings(rules: &Rules) -> Vec<String> {
        let mut out = Vec::new();
        if rules.unit == rules::Unit::Round && rules.max_rounds != Rules::default().max_rounds {
            out.push(
                "max_rounds: counts only with unit = \"game\" (a unit is one round here); drop it or set unit = \"game\""
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

/// A unit told move by move, its result closing it where `out` is given.
fn tell(layout: Layout, max_rounds: u32, names: &[&str], events: &[Event], out: Option<&RoundResult>) -> String {
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
            Event::Exchange { seat: s, discarded: 0, .. } => writeln!(text, "  {} exchanges nothing", seat(s)),
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
                writeln!(text, "  {} reveals {} ({})", seat(s), layout.set_name(cards), layout.strength_text(cards))
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
    // A game the round limit ended has no winner: said, or the result reads as unfinished.
    if let Some(r) = out.filter(|r| r.health.capped) {
        let _ = writeln!(
            text,
            "-- The game reached its round limit (max_rounds = {}) after {} {}: nobody wins it",
            max_rounds,
            r.length,
            crate::output::noun(i64::from(r.length), "round", "rounds")
        );
    }
    super::write_results(&mut text, names, out, |r| {
        let cards = crate::output::noun(r.score, "victory card", "victory cards");
        format!("{} {cards}{}", r.score, if r.share_units == SHARE_UNIT { ", wins the game" } else { "" })
    });
    text
}
