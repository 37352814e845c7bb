//! The reference poker games, Kuhn poker and Leduc Hold'em, with OpenSpiel's rules and
//! payoffs, so the solver's figures compare with OpenSpiel's on the same games. One engine
//! plays both: Kuhn poker is its one-round, one-suit case. Rules:
//! `docs/games/leduc-poker.md` and `docs/games/kuhn-poker.md`.
//!
//! - [`rules`]: the rules struct, with each game's defaults ([`Kuhn`], [`Leduc`]);
//! - [`engine`]: the hand's state machine and forward model; [`view`]: what a seat sees
//!   and the [`Bot`] trait; [`bots`]: betting modules and presets; [`measures`].

pub mod bots;
pub mod engine;
pub mod measures;
pub mod rules;
pub mod view;

pub use bots::{PokerBot, Preset};
pub use rules::{Flavour, Kuhn, Leduc, Rules};
pub use view::{Action, Bot, SeatView};

use std::fmt::Write;
use std::marker::PhantomData;

use engine::{Event, State, card_text};

use super::GameInfo;
use super::contest::{Contest, GameDef};
use crate::sim::{Measures, RoundResult};

/// A reference poker game for the framework.
pub struct Def<F: Flavour>(PhantomData<F>);

/// Kuhn poker's registry entry.
pub const KUHN_INFO: GameInfo = GameInfo::of::<Def<Kuhn>>();
/// Leduc Hold'em's registry entry.
pub const LEDUC_INFO: GameInfo = GameInfo::of::<Def<Leduc>>();

/// Kuhn poker with a lineup of bots, ready for the harness.
pub type KuhnPoker = Contest<Def<Kuhn>>;
/// Leduc Hold'em with a lineup of bots, ready for the harness.
pub type LeducPoker = Contest<Def<Leduc>>;

impl<F: Flavour> GameDef for Def<F> {
    type State = State<F>;
    type RulesFile = Rules<F>;
    type Preset = Preset;

    const NAME: &'static str = F::NAME;
    const TITLE: &'static str = F::TITLE;
    const DESCRIPTION: &'static str = F::DESCRIPTION;
    const PRESETS: &'static [(&'static str, &'static str)] = F::PRESETS;
    /// A thinking player, a loose one, an aggressive one and the random baseline.
    const DEFAULT_MIX: &'static [&'static str] = &["tight", "random", "aggressive", "calling-station"];
    const VIEW_LEGEND: &'static str = F::VIEW_LEGEND;

    fn measures(rules: &Rules<F>) -> Measures {
        measures::measures(rules)
    }
    fn tell(rules: &Rules<F>, _state: &State<F>, names: &[&str], events: &[Event], out: &RoundResult) -> String {
        tell(rules, names, events, Some(out))
    }
    fn news(rules: &Rules<F>, _dealt: &State<F>, names: &[&str], event: &Event, observer: usize) -> Option<String> {
        let told = match *event {
            Event::Board { .. } | Event::Show { .. } | Event::Award { .. } => true,
            Event::Deal { seat, .. } => seat == observer,
            _ => false,
        };
        told.then(|| tell(rules, names, std::slice::from_ref(event), None))
    }
}

/// A hand told move by move, its result closing it where `out` is given.
fn tell<F: Flavour>(rules: &Rules<F>, names: &[&str], events: &[Event], out: Option<&RoundResult>) -> String {
    let mut text = String::new();
    let seat = |s: usize| format!("seat {s} ({})", names[s]);
    // The first wager of a betting round is a bet, as the rules call it; later ones raise.
    let mut opened = false;
    for e in events {
        let _ = match *e {
            Event::Deal { seat: s, card } => writeln!(text, "{} is dealt {}", seat(s), card_text(rules, card)),
            Event::Board { card } => {
                opened = false;
                writeln!(text, "-- The public card: {}", card_text(rules, card))
            }
            Event::Act { seat: s, action, paid } => match (action, paid) {
                (Action::Call, 0) => writeln!(text, "  {} checks", seat(s)),
                // A fold puts nothing in: "(0 in)" would read as the seat's whole stake.
                (Action::Fold, _) => writeln!(text, "  {} folds", seat(s)),
                (Action::Raise, _) if !std::mem::replace(&mut opened, true) => {
                    writeln!(text, "  {} bets ({paid} in)", seat(s))
                }
                _ => writeln!(text, "  {} {action}s ({paid} in)", seat(s)),
            },
            Event::Show { seat: s, card } => writeln!(text, "  {} shows {}", seat(s), card_text(rules, card)),
            Event::Award { seat: s, chips, among: 1 } => writeln!(text, "  {} wins {chips}", seat(s)),
            // A tie is said as one: two "wins" lines would read as two pots.
            Event::Award { seat: s, chips, among } => {
                writeln!(text, "  {} wins {chips}, splitting the pot {among} ways", seat(s))
            }
            Event::Search(note) => writeln!(text, "  ({note})"),
        };
    }
    super::write_results(&mut text, names, out, |r| {
        format!("{:+} {}", r.score, crate::output::noun(r.score, "chip", "chips"))
    });
    text
}
