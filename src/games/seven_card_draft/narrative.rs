//! A round told move by move: the packs, each pick, each bet, the showdown, who got what.

use std::fmt::Write;

use super::engine::Event;
use super::rules::{Mode, Variant};
use super::view::Action;
use crate::cards::cards_to_string;
use crate::sim::{RoundResult, SHARE_UNIT};

/// Tells the events of one round (or game) as text, closed by the result where `result` is
/// given; `names[s]` is seat `s`'s strategy.
pub fn tell(variant: &Variant, names: &[&str], events: &[Event], result: Option<&RoundResult>) -> String {
    let mut out = String::new();
    let seat = |s: usize| format!("seat {s} ({})", names[s]);
    let mut pick_shown = 0;
    let pick_header = |out: &mut String, shown: &mut usize, pick: usize, face_up: bool| {
        if pick != *shown {
            *shown = pick;
            let _ = writeln!(out, "-- Pick {pick}{}", if face_up { " (turned face up)" } else { "" });
        }
    };
    for (i, event) in events.iter().enumerate() {
        let _ = match *event {
            Event::RoundStart { round, dealer, direction } => {
                pick_shown = 0;
                // In round mode the unit is this one round, which the replay's header
                // names by its index in the run; a game numbers its own rounds.
                let round = match variant.rules.mode {
                    Mode::Round => String::new(),
                    Mode::Game => format!("Round {} of the game · ", round + 1),
                };
                writeln!(
                    out,
                    "== {round}Dealer seat {dealer} · packs and betting go {}",
                    if direction > 0 { "left (to higher seats)" } else { "right (to lower seats)" }
                )
            }
            Event::Ante { seat: s, chips } => writeln!(out, "{} antes {chips}", seat(s)),
            Event::Deal { seat: s, pack } => writeln!(out, "{} is dealt {}", seat(s), pack),
            Event::Pick { seat: s, pick, choice, face_up, pack_of, pack } => {
                pick_header(&mut out, &mut pick_shown, pick, face_up);
                writeln!(
                    out,
                    "  {} takes {}{} from seat {pack_of}'s pack [{}]{}",
                    seat(s),
                    choice.card,
                    if face_up { " face up" } else { "" },
                    pack,
                    if choice.hate { " · hate pick" } else { "" }
                )
            }
            Event::BettingStart { round, leader, leader_face_up } => {
                writeln!(out, "-- Betting round {} · led by {} showing [{}]", round + 1, seat(leader), leader_face_up)
            }
            Event::Act { action, all_in } => {
                let s = action.seat as usize;
                let what = match action.action {
                    Action::Fold => "folds".to_string(),
                    Action::Check => "checks".to_string(),
                    Action::Call => format!("calls {}", action.paid),
                    // With nothing to call, a raise opens the betting: a bet.
                    Action::Raise(by) if action.paid == by => format!("bets {by}"),
                    Action::Raise(by) => format!("raises by {by} (puts in {})", action.paid),
                };
                writeln!(out, "  {} {what}{}", seat(s), if all_in { ", all-in" } else { "" })
            }
            Event::Show { seat: s, hand, wilds, last_pick } => {
                let best = variant.eval.best_hand(hand.minus(wilds), &wilds.iter().collect::<Vec<_>>());
                let wild_text: Vec<String> = best
                    .cards
                    .iter()
                    .zip(&best.wild_for)
                    .filter_map(|(c, w)| w.map(|w| format!("{w} as {c}")))
                    .collect();
                writeln!(
                    out,
                    "  {} shows [{}]{}: {} with {}{}",
                    seat(s),
                    hand,
                    last_pick.map(|c| format!(" (last pick {c})")).unwrap_or_default(),
                    best.value.category(),
                    cards_to_string(best.cards.iter().copied()),
                    if wild_text.is_empty() { String::new() } else { format!(" (wild: {})", wild_text.join(", ")) }
                )
            }
            Event::Award { seat: s, chips, pot } => writeln!(
                out,
                "  {} wins {chips} from the {}",
                seat(s),
                if pot == 0 { "main pot".to_string() } else { format!("side pot {pot}") }
            ),
            Event::Refund { seat: s, chips } => writeln!(out, "  {} takes back {chips} uncalled", seat(s)),
            Event::LastStanding { seat: s } => writeln!(out, "-- Everyone else folded: {} wins at once", seat(s)),
            Event::Search(note) => {
                // A bot's note comes before the move it explains: a pick opening a new pick
                // gets its header first, so the note sits under the pick it belongs to.
                if let Some(&Event::Pick { pick, face_up, .. }) =
                    events[i + 1..].iter().find(|e| !matches!(e, Event::Search(_)))
                {
                    pick_header(&mut out, &mut pick_shown, pick, face_up);
                }
                writeln!(out, "  ({note})")
            }
        };
    }
    // A game the round limit ended is scored by its stacks: said, or the result reads as
    // if one player had won every chip.
    if let Some(r) = result.filter(|r| r.health.capped) {
        let _ = writeln!(
            out,
            "-- The game reached its round limit (max_rounds_per_game = {}) after {} {} with more than one player holding chips: the biggest stack wins it, shared on a tie",
            variant.rules.max_rounds_per_game,
            r.length,
            crate::output::noun(i64::from(r.length), "round", "rounds")
        );
    }
    // A game sums its rounds: its share is of the game won, and its folds are counted.
    let game = variant.rules.mode == Mode::Game;
    crate::games::write_results(&mut out, names, result, |r| {
        let folds =
            (0..variant.betting_rounds()).filter(|&b| r.counters[super::measures::FOLDS + b] > 0).map(|b| {
                match (game, r.counters[super::measures::FOLDS + b]) {
                    (false, _) => format!(", folded in betting round {}", b + 1),
                    (true, 1) => format!(", folded once in betting round {}", b + 1),
                    (true, n) => format!(", folded {n} times in betting round {}", b + 1),
                }
            });
        format!(
            "{:+} {}, {} share {:.3}{}",
            r.score,
            crate::output::noun(r.score, "chip", "chips"),
            if game { "game" } else { "pot" },
            r.share_units as f64 / SHARE_UNIT as f64,
            folds.collect::<String>()
        )
    });
    out
}
