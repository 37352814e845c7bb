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

use super::contest;
use crate::error::InputError;
use crate::search::Strategy;
use crate::sim::{Measures, RoundResult};
use cards::Pool;
use engine::Variant;

crate::game_def! {
    title: "Winston Draft + Crazier Eights", name: "winston-crazier-eights", contest: Winston,
    description: "Winston draft from three piles, 30-card decks, then Crazier Eights (2 players)";

    const DEFAULT_MIX: &'static [&'static str] = &["value", "colour"];
    const VIEW_LEGEND: &'static str = "
        piles_as_last_seen: each pile's cards as you saw them when you last looked (pile 1 first; none: no card in it you have seen)
        opponent_took, opponent_passed: cards you know the opponent took, and passed
        to_match: what the next discard on this pile must match: a colour or the rank (where eights are wild an eight always may, and after one the colour it named)
        deck_top_known, deck_bottom_known: a card of the deck known from a peek
        own_deck_seen_by_opponent: cards of your deck the opponent has seen face up this match";

    fn measures(variant: &Variant) -> Measures {
        measures::measures(&variant.rules)
    }
    fn tell(variant: &Variant, _state: &engine::State, names: &[&str], events: &[Event], out: &RoundResult) -> String {
        tell(&variant.pool, names, events, Some(out))
    }
    fn news(variant: &Variant, _dealt: &engine::State, names: &[&str], event: &Event, observer: usize) -> Option<String> {
        let told = match *event {
            Event::GameStart { .. } | Event::GameEnd { .. } | Event::Reshuffle { .. } => true,
            Event::Blind { seat, .. }
            | Event::Deck { seat, .. }
            | Event::Opening { seat, .. }
            | Event::Draw { seat, .. } => seat == observer,
            _ => false,
        };
        told.then(|| tell(&variant.pool, names, std::slice::from_ref(event), None))
    }

    fn warnings(variant: &Variant) -> Vec<String> {
        let mut out = Vec::new();
        let rules = &variant.rules;
        if rules.games == 1 && rules.later_starter != Rules::default().later_starter {
            out.push("later_starter: counts only in a best of 3 (games = 3); drop it or set games = 3".into());
        }
        if rules.eights_wild && rules.ranks < 8 {
            out.push(format!(
                "eights_wild: ranks = {} deals no eights, so no card is wild; set ranks = 8 or more, or eights_wild = false",
                rules.ranks
            ));
        }
        out
    }
}

impl Winston {
    /// The rules file in force.
    pub fn rules(&self) -> &Rules {
        &self.rules.rules
    }

    /// The card pool the rules make.
    pub fn pool(&self) -> &Pool {
        &self.rules.pool
    }
}

/// A strategy by preset name, file, derived preset or search preset.
pub fn load_strategy(name: &str) -> Result<Strategy<Preset>, InputError> {
    contest::load_strategy::<Def>(name)
}

/// A match told move by move, opened by its draft and closed by its result where `out` is
/// given.
pub fn tell(pool: &Pool, names: &[&str], events: &[Event], out: Option<&RoundResult>) -> String {
    let mut text = String::new();
    let seat = |s: usize| format!("seat {s} ({})", names[s]);
    let card = |id: u8| if id == NO_CARD { "nothing".to_string() } else { pool.card_name(id) };
    if out.is_some() {
        let _ = writeln!(text, "== Draft · seat 0 drafts first");
    }
    for e in events {
        let _ = match *e {
            Event::Look { seat: s, pile, cards } => {
                writeln!(text, "  {} looks at pile {}: {}", seat(s), pile + 1, pool.set_name(cards))
            }
            Event::Take { seat: s, pile, cards, deny, forced } => writeln!(
                text,
                "  {} takes pile {} ({} {}){}{}",
                seat(s),
                pile + 1,
                cards::count(cards),
                crate::output::noun(cards::count(cards) as i64, "card", "cards"),
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
    super::write_results(&mut text, names, out, |r| {
        match r.score {
            1 => "wins the match",
            -1 => "loses the match",
            _ => "draws",
        }
        .to_string()
    });
    text
}
