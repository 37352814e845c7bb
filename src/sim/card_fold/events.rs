//! The folder for any catalog: it follows each logged card through a state per (seat, id)
//! and a cell per (strategy, id). It is the reference the lanes are checked against, and
//! it finishes any deal group a unit of which the lanes could not take.

use super::{GroupValues, bits};
use crate::sim::MAX_SEATS;
use crate::sim::cards::{Action, CardCatalog, CardCounts, CardGroupSums, CardLog};

/// What one seat has done with one card so far this unit.
#[derive(Clone, Copy, Debug, Default)]
struct SeatCard {
    listed: bool,
    last_seen: u16,
    taken: bool,
    kept: bool,
}

/// The folder for any catalog: one state per (seat, id) and one cell per (strategy, id).
pub(super) struct EventFolder {
    /// Cards, then groups (see [`CardCatalog::ids`]).
    ids: usize,
    cards: usize,
    /// Per card: the ids of its groups.
    groups_of: Vec<Vec<u16>>,
    state: Vec<SeatCard>,
    touched: Vec<u32>,
    /// This deal group's counts per (strategy, id), whether it touched each, and which.
    group: Vec<CardCounts>,
    group_listed: Vec<bool>,
    group_touched: Vec<u32>,
}

impl EventFolder {
    pub(super) fn new(catalog: &CardCatalog, seats: usize, strategies: usize) -> EventFolder {
        let offsets = catalog.group_offsets();
        let groups_of = (0..catalog.names.len())
            .map(|c| {
                let of = catalog.groups.iter().zip(&offsets);
                of.filter_map(|(g, &at)| g.of_card.get(c).copied().flatten().map(|i| (at + usize::from(i)) as u16))
                    .collect()
            })
            .collect();
        let ids = catalog.ids();
        EventFolder {
            ids,
            cards: catalog.names.len(),
            groups_of,
            state: vec![SeatCard::default(); ids * seats],
            touched: Vec::with_capacity(256),
            group: vec![CardCounts::default(); ids * strategies],
            group_listed: vec![false; ids * strategies],
            group_touched: Vec::with_capacity(256),
        }
    }

    pub(super) fn fold(&mut self, log: &CardLog, strategy_at: &[usize], share: &[u32]) {
        for seat in 0..MAX_SEATS {
            for p in log.seat_picks(seat) {
                for card in bits(p.seen) {
                    self.note(seat as u8, Action::Seen, p.pick, card as u16, strategy_at);
                }
                self.note(seat as u8, Action::Taken, p.pick, p.card, strategy_at);
            }
        }
        for e in &log.events {
            if e.action == Action::Picked {
                for card in bits(e.seen) {
                    self.note(e.seat, Action::Seen, e.pick, card as u16, strategy_at);
                }
                self.note(e.seat, Action::Taken, e.pick, e.card, strategy_at);
            } else {
                self.note(e.seat, e.action, e.pick, e.card, strategy_at);
            }
        }
        for (seat, &kept) in log.kept.iter().enumerate().take(strategy_at.len()) {
            for card in bits(kept) {
                self.note(seat as u8, Action::Kept, 0, card as u16, strategy_at);
            }
        }
        let n = self.ids;
        for &idx in &self.touched {
            let idx = idx as usize;
            let (seat, card) = (idx / n, idx % n);
            let st = std::mem::take(&mut self.state[idx]);
            // Every cell an event touched is listed here, once per seat and unit.
            let at = strategy_at[seat] * n + card;
            if !std::mem::replace(&mut self.group_listed[at], true) {
                self.group_touched.push(at as u32);
            }
            let cell = &mut self.group[at];
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

    /// One card's action: the card itself, then each group it belongs to.
    fn note(&mut self, seat: u8, action: Action, pick: u16, card: u16, strategy_at: &[usize]) {
        let (card, seat) = (usize::from(card), usize::from(seat));
        if card >= self.cards || seat >= strategy_at.len() {
            return;
        }
        let n = self.ids;
        let groups = &self.groups_of[card];
        for id in std::iter::once(card).chain(groups.iter().map(|&g| usize::from(g))) {
            let idx = seat * n + id;
            let st = &mut self.state[idx];
            if !st.listed {
                st.listed = true;
                self.touched.push(idx as u32);
            }
            let cell = &mut self.group[strategy_at[seat] * n + id];
            let wide = u64::from(pick);
            match action {
                Action::Seen => {
                    cell.seen_picks += 1;
                    st.last_seen = st.last_seen.max(pick.max(1));
                }
                Action::Taken => {
                    cell.taken += 1;
                    cell.taken_pick += wide;
                    cell.taken_pick_sq += wide * wide;
                    st.taken = true;
                }
                Action::Kept => st.kept = true,
                Action::Picked => unreachable!("picks are split into sightings and a take"),
            }
        }
    }

    /// Ends a deal group: adds its counts to `cells` and their group sums to `sums`.
    pub(super) fn end_group(&mut self, cells: &mut [CardCounts], sums: &mut [CardGroupSums]) {
        for &idx in &self.group_touched {
            let idx = idx as usize;
            self.group_listed[idx] = false;
            let g = std::mem::take(&mut self.group[idx]);
            cells[idx].merge(&g);
            sums[idx].add(&g);
        }
        self.group_touched.clear();
    }

    /// Adds counts of the current deal group to (strategy `x`, id `id`).
    pub(super) fn add_to_group(&mut self, x: usize, id: usize, v: &GroupValues) {
        let at = x * self.ids + id;
        if !std::mem::replace(&mut self.group_listed[at], true) {
            self.group_touched.push(at as u32);
        }
        let cell = &mut self.group[at];
        cell.seen += v.seen;
        cell.seen_picks += v.seen_picks;
        cell.taken += v.taken;
        cell.taken_pick += v.taken_pick;
        cell.last_seen += v.last_seen;
        cell.in_hand += v.in_hand;
        cell.in_hand_share += v.in_hand_share;
        cell.passed += v.passed;
        cell.passed_share += v.passed_share;
    }
}
