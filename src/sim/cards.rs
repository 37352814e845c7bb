//! Card analytics in the style of 17lands: which cards each strategy sees and takes, at
//! which pick, and how its units of play go when a card ended in its hand against when it
//! saw the card and passed it.
//!
//! A game with a draft declares a [`CardCatalog`] in its measures and, when the run asks
//! for cards, logs what each seat saw, took and kept into the [`CardLog`] of the unit's
//! result. The harness folds the log into integer [`CardCounts`] per (strategy, card), so
//! threads and shards merge exactly. Without `--cards` the log is off and a game pays one
//! branch per pick for it.

use serde::{Deserialize, Serialize};

use super::SHARE_UNIT;
use crate::stats::{self, Estimate};

/// The card identities a drafting game reports on, and coarser groups of them.
#[derive(Clone, Debug, PartialEq)]
pub struct CardCatalog {
    /// Name of each card identity, by id; an empty name is an id no deck uses.
    pub names: Vec<String>,
    /// Ways of pooling cards, e.g. by rank.
    pub groups: Vec<CardGroup>,
}

impl CardCatalog {
    /// Ids the harness counts: every card, then each pooling's groups in turn (so a group
    /// counts each seat-unit once, however many of its cards the seat met).
    pub fn ids(&self) -> usize {
        self.names.len() + self.groups.iter().map(|g| g.names.len()).sum::<usize>()
    }

    /// Where each pooling's groups start among the counted ids.
    pub fn group_offsets(&self) -> Vec<usize> {
        let mut at = self.names.len();
        self.groups
            .iter()
            .map(|g| {
                at += g.names.len();
                at - g.names.len()
            })
            .collect()
    }
}

/// A pooling of card identities into groups (e.g. by rank), reported beside the cards.
#[derive(Clone, Debug, PartialEq)]
pub struct CardGroup {
    /// What the groups are, written in the `level` column, e.g. `rank`.
    pub level: String,
    /// Group names.
    pub names: Vec<String>,
    /// For each card id, its group's index (`None` for ids in no group).
    pub of_card: Vec<Option<u16>>,
}

/// What a seat did with a card, as logged by the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    /// The card was in front of the seat to choose from, at a pick.
    Seen,
    /// The seat took it, at a pick.
    Taken,
    /// The card ended the unit in the seat's hand (or deck).
    Kept,
}

/// One logged action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CardEvent {
    seat: u8,
    action: Action,
    pick: u16,
    card: u16,
}

/// A unit's card events, filled by the engine when the run asks for cards. The buffer is
/// reused from unit to unit, so logging allocates only while it first grows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CardLog {
    on: bool,
    events: Vec<CardEvent>,
}

impl CardLog {
    /// Whether the run asked for cards: engines log only when this is true.
    #[inline]
    pub fn on(&self) -> bool {
        self.on
    }

    /// Card `card` was among the cards `seat` chose from at pick `pick` (1-based).
    #[inline]
    pub fn seen(&mut self, seat: usize, card: u16, pick: usize) {
        self.push(seat, Action::Seen, pick, card);
    }

    /// `seat` took card `card` at pick `pick` (1-based).
    #[inline]
    pub fn taken(&mut self, seat: usize, card: u16, pick: usize) {
        self.push(seat, Action::Taken, pick, card);
    }

    /// Card `card` ended the unit in `seat`'s hand (logging it twice counts it once).
    #[inline]
    pub fn kept(&mut self, seat: usize, card: u16) {
        self.push(seat, Action::Kept, 0, card);
    }

    #[inline]
    fn push(&mut self, seat: usize, action: Action, pick: usize, card: u16) {
        self.events.push(CardEvent { seat: seat as u8, action, pick: pick.min(usize::from(u16::MAX)) as u16, card });
    }

    pub(crate) fn set_on(&mut self, on: bool) {
        self.on = on;
    }

    #[inline]
    pub(crate) fn clear(&mut self) {
        self.events.clear();
    }
}

/// One strategy's counts for one card (or a group of cards): integer sums only.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardCounts {
    /// Seat-units in which the seat saw the card at least once.
    pub seen: u64,
    /// Sightings: picks at which the card was among the seat's choices (each copy of an
    /// identity counted; for a group, each of its cards).
    pub seen_picks: u64,
    /// Times the seat took it.
    pub taken: u64,
    /// Sum and sum of squares of the pick at which it was taken.
    pub taken_pick: u64,
    /// See `taken_pick`.
    pub taken_pick_sq: u64,
    /// Sum and sum of squares of the last pick at which the seat saw it (per seat-unit).
    pub last_seen: u64,
    /// See `last_seen`.
    pub last_seen_sq: u64,
    /// Seat-units in which it ended in the seat's hand.
    pub in_hand: u64,
    /// Win share of those seat-units, in units of `1 / SHARE_UNIT`.
    pub in_hand_share: u64,
    /// Seat-units in which the seat saw it and never took it.
    pub passed: u64,
    /// Win share of those seat-units, in units of `1 / SHARE_UNIT`.
    pub passed_share: u64,
}

impl CardCounts {
    /// Adds another cell's counts.
    pub fn merge(&mut self, o: &CardCounts) {
        self.seen += o.seen;
        self.seen_picks += o.seen_picks;
        self.taken += o.taken;
        self.taken_pick += o.taken_pick;
        self.taken_pick_sq += o.taken_pick_sq;
        self.last_seen += o.last_seen;
        self.last_seen_sq += o.last_seen_sq;
        self.in_hand += o.in_hand;
        self.in_hand_share += o.in_hand_share;
        self.passed += o.passed;
        self.passed_share += o.passed_share;
    }

    /// Whether nothing was counted.
    pub fn is_empty(&self) -> bool {
        self.seen == 0 && self.taken == 0 && self.in_hand == 0
    }

    /// Taken per pick at which it was seen (Wilson interval).
    pub fn take_rate(&self) -> Estimate {
        stats::wilson(self.taken as f64, self.seen_picks)
    }

    /// Average pick at which it was taken (ATA), with a t interval.
    pub fn ata(&self) -> Estimate {
        stats::mean_interval(self.taken, self.taken_pick as f64, self.taken_pick_sq as f64)
    }

    /// Average last pick at which the seat saw it (ALSA), with a t interval.
    pub fn alsa(&self) -> Estimate {
        stats::mean_interval(self.seen, self.last_seen as f64, self.last_seen_sq as f64)
    }

    /// Win share of seat-units with the card in hand (GIH-like), Wilson interval.
    pub fn win_share_in_hand(&self) -> Estimate {
        stats::wilson(self.in_hand_share as f64 / SHARE_UNIT as f64, self.in_hand)
    }

    /// Win share of seat-units where the seat saw it and passed it, Wilson interval.
    pub fn win_share_passed(&self) -> Estimate {
        stats::wilson(self.passed_share as f64 / SHARE_UNIT as f64, self.passed)
    }

    /// In hand minus passed (IWD-like), Newcombe's interval for a difference of proportions.
    pub fn in_hand_difference(&self) -> Estimate {
        stats::difference(&self.win_share_in_hand(), &self.win_share_passed())
    }
}

/// What one seat has done with one card so far this unit.
#[derive(Clone, Copy, Debug, Default)]
struct SeatCard {
    listed: bool,
    last_seen: u16,
    taken: bool,
    kept: bool,
}

/// Folds units' card logs into per (strategy, id) counts, each card's groups included;
/// scratch made once per chunk.
pub(crate) struct CardFolder {
    /// Cards, then groups (see [`CardCatalog::ids`]).
    ids: usize,
    cards: usize,
    /// Per card: the ids of its groups.
    groups_of: Vec<Vec<u16>>,
    state: Vec<SeatCard>,
    touched: Vec<u32>,
}

impl CardFolder {
    pub(crate) fn new(catalog: &CardCatalog, seats: usize) -> CardFolder {
        let offsets = catalog.group_offsets();
        let groups_of = (0..catalog.names.len())
            .map(|c| {
                let of = catalog.groups.iter().zip(&offsets);
                of.filter_map(|(g, &at)| g.of_card.get(c).copied().flatten().map(|i| (at + usize::from(i)) as u16))
                    .collect()
            })
            .collect();
        let ids = catalog.ids();
        CardFolder {
            ids,
            cards: catalog.names.len(),
            groups_of,
            state: vec![SeatCard::default(); ids * seats],
            touched: Vec::with_capacity(256),
        }
    }

    /// Adds one unit: `strategy_at[s]` is seat `s`'s strategy, `share[s]` its win share.
    pub(crate) fn fold(&mut self, log: &CardLog, strategy_at: &[usize], share: &[u32], cells: &mut [CardCounts]) {
        let n = self.ids;
        for e in &log.events {
            let card = e.card as usize;
            let seat = e.seat as usize;
            if card >= self.cards || seat >= strategy_at.len() {
                continue;
            }
            // The card itself, then each group it belongs to.
            let groups = &self.groups_of[card];
            for id in std::iter::once(card).chain(groups.iter().map(|&g| usize::from(g))) {
                let idx = seat * n + id;
                let st = &mut self.state[idx];
                if !st.listed {
                    st.listed = true;
                    self.touched.push(idx as u32);
                }
                let cell = &mut cells[strategy_at[seat] * n + id];
                let pick = u64::from(e.pick);
                match e.action {
                    Action::Seen => {
                        cell.seen_picks += 1;
                        st.last_seen = st.last_seen.max(e.pick.max(1));
                    }
                    Action::Taken => {
                        cell.taken += 1;
                        cell.taken_pick += pick;
                        cell.taken_pick_sq += pick * pick;
                        st.taken = true;
                    }
                    Action::Kept => st.kept = true,
                }
            }
        }
        for &idx in &self.touched {
            let idx = idx as usize;
            let (seat, card) = (idx / n, idx % n);
            let st = std::mem::take(&mut self.state[idx]);
            let cell = &mut cells[strategy_at[seat] * n + card];
            let won = u64::from(share[seat]);
            if st.last_seen > 0 {
                let last = u64::from(st.last_seen);
                cell.seen += 1;
                cell.last_seen += last;
                cell.last_seen_sq += last * last;
                if !st.taken {
                    cell.passed += 1;
                    cell.passed_share += won;
                }
            }
            if st.kept {
                cell.in_hand += 1;
                cell.in_hand_share += won;
            }
        }
        self.touched.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_folds_into_seen_taken_kept_and_passed() {
        let mut log = CardLog::default();
        log.set_on(true);
        // Seat 0 sees cards 1 and 2 at pick 1, takes 1; seat 1 sees 2 at pick 2, takes it.
        log.seen(0, 1, 1);
        log.seen(0, 2, 1);
        log.taken(0, 1, 1);
        log.seen(1, 2, 2);
        log.taken(1, 2, 2);
        log.kept(0, 1);
        log.kept(1, 2);
        log.kept(1, 2);
        let catalog = CardCatalog {
            names: ["a", "b", "c"].map(String::from).to_vec(),
            groups: vec![CardGroup { level: "all".into(), names: vec!["any".into()], of_card: vec![Some(0); 3] }],
        };
        let mut folder = CardFolder::new(&catalog, 2);
        let n = catalog.ids();
        let mut cells = vec![CardCounts::default(); 2 * n];
        folder.fold(&log, &[0, 1], &[SHARE_UNIT, 0], &mut cells);
        let c1 = &cells[1];
        assert_eq!((c1.seen, c1.taken, c1.taken_pick, c1.in_hand, c1.in_hand_share), (1, 1, 1, 1, SHARE_UNIT as u64));
        let c2 = &cells[2];
        assert_eq!((c2.seen, c2.passed, c2.passed_share, c2.last_seen), (1, 1, SHARE_UNIT as u64, 1));
        let d2 = &cells[n + 2];
        assert_eq!((d2.seen, d2.taken, d2.taken_pick, d2.last_seen, d2.in_hand, d2.in_hand_share), (1, 1, 2, 2, 1, 0));
        // The pooled group counts each seat-unit once: seat 0 saw two cards and kept one.
        let g0 = &cells[3];
        assert_eq!((g0.seen, g0.seen_picks, g0.taken, g0.in_hand, g0.passed), (1, 2, 1, 1, 0));
        // The scratch is reset: folding the same unit again doubles every count.
        folder.fold(&log, &[0, 1], &[SHARE_UNIT, 0], &mut cells);
        assert_eq!(cells[n + 2].in_hand, 2);
        assert_eq!(cells[2].passed, 2);
        assert_eq!(cells[3].seen, 2);
    }
}
