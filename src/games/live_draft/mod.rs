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

use super::contest;
use crate::error::InputError;
use crate::search::Strategy;
use crate::sim::{Measures, RoundResult};
use view::{Card, NO_CARD};

crate::game_def! {
    title: "Live-Draft", name: "live-draft", contest: LiveDraft,
    description: "one shared library drawn by tableau, pipeline, rummy or blind; lands and creatures (2-4 players)";

    const DEFAULT_MIX: &'static [&'static str] = &["best-card", "curve", "colour", "hate"];
    const VIEW_LEGEND: &'static str = "
        row: the face-up cards a seat may take instead of drawing
        hand_cards_seen_taken: cards in each seat's hand that you saw it take
        mill: mill counters: a card a seat took from the library (the fewest win when it runs out)
        untapped_lands: the mana left this turn to the seat whose turn it is
        attacks, blocks: offered as the search bot's menu: no attack, all, each creature alone or all but one; no block, one blocker on one attacker, or every attacker met by the toughest blocker left";

    fn measures(rules: &Rules) -> Measures {
        measures::measures(rules)
    }
    fn tell(rules: &Rules, state: &engine::State, names: &[&str], events: &[Event], out: &RoundResult) -> String {
        tell(&card_table(rules, state), names, events, Some(out))
    }
    fn news(rules: &Rules, dealt: &engine::State, names: &[&str], event: &Event, observer: usize) -> Option<String> {
        // Moves (picks, discards, lands, casts, attacks, blocks) are told as moves; what
        // happens without one is news. Another seat's draw from the library is hidden.
        let told = match *event {
            Event::Library { .. }
            | Event::Turn { .. }
            | Event::Wipe { .. }
            | Event::Slide { .. }
            | Event::Dies { .. }
            | Event::Damage { .. }
            | Event::End { .. } => true,
            Event::Opening { seat, .. } => seat == observer,
            Event::Draw { seat, how, .. } => seat == observer && how == How::Library,
            _ => false,
        };
        told.then(|| tell(&card_table(rules, dealt), names, std::slice::from_ref(event), None))
    }

    fn warnings(rules: &Rules) -> Vec<String> {
        use rules::{Method, Opening};
        let mut out = Vec::new();
        let default = Rules::default();
        let method = match rules.method {
            Method::Rummy => "rummy",
            Method::Blind => "blind",
            Method::Tableau | Method::Pipeline => "",
        };
        if !method.is_empty() && rules.row != default.row {
            out.push(format!(
                "row: counts only with method = \"tableau\" or \"pipeline\" (this is {method}); drop it or change method"
            ));
        }
        if rules.cards.is_some() {
            // A card list is the library: the generated library's keys say nothing.
            for (key, changed) in [
                ("library_size", rules.library_size != default.library_size),
                ("land_share", rules.land_share != default.land_share),
            ] {
                if changed {
                    out.push(format!(
                        "{key}: counts only for the generated library, and [[cards]] lists this one; drop it or the [[cards]]"
                    ));
                }
            }
        }
        if rules.opening == Opening::Careful && rules.max_mulligans != default.max_mulligans {
            out.push(
                "max_mulligans: counts only with opening = \"quick\" (the careful opening has no exchange); drop it or set opening = \"quick\""
                    .into(),
            );
        }
        if rules.wipe_counters != default.wipe_counters {
            if rules.method != Method::Tableau {
                out.push(
                    "wipe_counters: counts only with method = \"tableau\" (only a tableau is wiped); drop it or set method = \"tableau\""
                        .into(),
                );
            } else if !rules.mill_counters {
                out.push(
                    "wipe_counters: counts only with mill_counters = true; drop it or set mill_counters = true".into(),
                );
            }
        }
        out
    }
}

/// The unit's cards by id, as the deal made them.
fn card_table(rules: &Rules, state: &engine::State) -> Vec<Card> {
    (0..rules.library_cards()).map(|i| state.card(i as u8)).collect()
}

/// A strategy by preset name, file, derived preset or search preset.
pub fn load_strategy(name: &str) -> Result<Strategy<Preset>, InputError> {
    contest::load_strategy::<Def>(name)
}

/// A game told move by move, closed by its result where `out` is given.
pub fn tell(cards: &[Card], names: &[&str], events: &[Event], out: Option<&RoundResult>) -> String {
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
            Event::Opening { seat: s, lands } => {
                writeln!(
                    text,
                    "  {} opens with {lands} {}",
                    seat(s),
                    crate::output::noun(lands as i64, "land", "lands")
                )
            }
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
            Event::Wipe { mill_to } => writeln!(
                text,
                "  the tableau is all lands or all creatures: wiped and dealt again{}",
                mill_to.map_or(String::new(), |s| format!(
                    " (the new cards are mill counters for {})",
                    seat(usize::from(s))
                ))
            ),
            Event::Slide { card: c } => writeln!(text, "  the pipeline's leftmost card leaves the game: {}", card(c)),
            Event::Land { seat: s, card: c } => writeln!(text, "  {} plays {}", seat(s), card(c)),
            Event::Cast { seat: s, card: c } => writeln!(text, "  {} casts {}", seat(s), card(c)),
            Event::Attack { seat: s, defender, attackers } => {
                let noun = crate::output::noun(attackers as i64, "creature", "creatures");
                writeln!(text, "  {} attacks seat {defender} with {attackers} {noun}", seat(s))
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
    super::write_results(&mut text, names, out, |r| {
        format!("{} {}", r.score, crate::output::noun(r.score, "point", "points"))
    });
    text
}
