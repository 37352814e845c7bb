//! Folding units' card logs into per (strategy, id) counts and per deal group sums.
//!
//! Two folders give the same integers. The event folder follows each logged card through
//! a state per (seat, id) and a cell per (strategy, id); it takes any catalog. The lane
//! folder takes catalogs of at most 64 cards, where a card is a lane and a set of cards a
//! 64-bit mask: a strategy's counts in the current deal group are byte lanes that a whole
//! mask adds to at once, a seat's last pick seen is a byte per lane, and each pooling
//! (ranks, say) has lanes of its own, filled from the cards' masks when a seat's unit
//! ends. A seat's picks come in a row of their own ([`CardLog::picked_from`]), folded in
//! one pass with the seat's lanes held in registers (in the AVX-512 copy, until they are
//! added to its strategy's counters). When a deal group ends, the lanes it touched are
//! read once: their counts and the squares and products the intervals need go to 64-bit
//! totals (the AVX-512 copy adds them to term-major 32- and 64-bit sums, 16 lanes an
//! instruction, moved to the totals before these are read or the sums could overflow),
//! handed to the run's tally when it drains the folder (once a batch). A unit the lanes
//! cannot take (a pick over 255, or sums that could outgrow the totals) goes to the event
//! folder, which then finishes its deal group. The lanes' folding and group closing are
//! compiled for the build's baseline and again for AVX2 and AVX-512, and a folder runs the
//! widest copy its processor has.

use super::MAX_SEATS;
use super::cards::{Action, CardCatalog, CardCounts, CardGroupSums, CardLog, SeatPick};
use super::tally::RatioSums;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::__m512i;

/// Folds units' card logs into per (strategy, id) counts, each card's groups included,
/// one deal group at a time; a run keeps each from chunk to chunk and drains it once a
/// batch.
pub(crate) struct CardFolder {
    events: EventFolder,
    lanes: Option<LaneFolder>,
    /// Whether a unit of the current deal group went to the event folder.
    events_in_group: bool,
    /// Counts and group sums held until [`drain_into`](Self::drain_into): the deal groups
    /// the event folder finished, and the lanes' totals when they must be moved early.
    cells: Vec<CardCounts>,
    sums: Vec<CardGroupSums>,
}

impl CardFolder {
    /// A folder for `seats` seats and `strategies` strategies.
    pub(crate) fn new(catalog: &CardCatalog, seats: usize, strategies: usize) -> CardFolder {
        CardFolder {
            events: EventFolder::new(catalog, seats, strategies),
            lanes: LaneFolder::new(catalog, strategies),
            events_in_group: false,
            cells: vec![CardCounts::default(); catalog.ids() * strategies],
            sums: vec![CardGroupSums::default(); catalog.ids() * strategies],
        }
    }

    /// A folder whose lanes run the copy compiled for `isa`.
    #[cfg(test)]
    fn with_isa(catalog: &CardCatalog, seats: usize, strategies: usize, isa: Isa) -> CardFolder {
        let mut folder = CardFolder::new(catalog, seats, strategies);
        if let Some(lanes) = folder.lanes.as_mut() {
            lanes.isa = isa;
        }
        folder
    }

    /// A folder that takes every unit through the event folder, to check the lanes by.
    #[cfg(test)]
    fn events_only(catalog: &CardCatalog, seats: usize, strategies: usize) -> CardFolder {
        CardFolder { lanes: None, ..CardFolder::new(catalog, seats, strategies) }
    }

    /// Adds one unit to the deal group's counts: `strategy_at[s]` is seat `s`'s strategy,
    /// `share[s]` its win share.
    pub(crate) fn fold(&mut self, log: &CardLog, strategy_at: &[usize], share: &[u32]) {
        if let Some(lanes) = self.lanes.as_mut()
            && let Some(bound) = lanes.takes(log, strategy_at, share)
        {
            lanes.fold(log, strategy_at, share, bound);
        } else {
            self.events.fold(log, strategy_at, share);
            self.events_in_group = true;
        }
    }

    /// Ends a deal group: its counts and their group sums are held until
    /// [`drain_into`](Self::drain_into).
    pub(crate) fn end_group(&mut self) {
        if self.events_in_group {
            // The group's sums square whole-group counts: the lanes' part joins the
            // events' before the group is summed.
            if let Some(lanes) = self.lanes.as_mut() {
                lanes.end_group_into(&mut self.events);
            }
            self.events.end_group(&mut self.cells, &mut self.sums);
            self.events_in_group = false;
        } else if let Some(lanes) = self.lanes.as_mut() {
            lanes.end_group(&mut self.cells, &mut self.sums);
        }
    }

    /// Adds every count held to `cells` and `sums` (per (strategy, id), strategy-major) and
    /// clears them: call it between deal groups. Counts are integer sums, so which folder
    /// folded which deal groups, and when they are drained, does not change the totals.
    pub(crate) fn drain_into(&mut self, cells: &mut [CardCounts], sums: &mut [CardGroupSums]) {
        if let Some(lanes) = self.lanes.as_mut() {
            lanes.flush(cells, sums);
        }
        for (to, from) in cells.iter_mut().zip(&mut self.cells) {
            to.merge(&std::mem::take(from));
        }
        for (to, from) in sums.iter_mut().zip(&mut self.sums) {
            to.merge(&std::mem::take(from));
        }
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

/// The folder for any catalog: one state per (seat, id) and one cell per (strategy, id).
struct EventFolder {
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
    fn new(catalog: &CardCatalog, seats: usize, strategies: usize) -> EventFolder {
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

    fn fold(&mut self, log: &CardLog, strategy_at: &[usize], share: &[u32]) {
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
    fn end_group(&mut self, cells: &mut [CardCounts], sums: &mut [CardGroupSums]) {
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
    fn add_to_group(&mut self, x: usize, id: usize, v: &GroupValues) {
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

/// Lanes per mask: one per card id under 64, or per group of a pooling.
const LANES: usize = 64;

/// A byte per lane.
type Bytes = [u8; LANES];

/// A mask as bytes: 0xFF in the lanes it holds, 0 elsewhere. Each 16 lanes are two mask
/// bytes shuffled out to eight lanes apiece and compared against the lanes' bits: four
/// instructions per 16 lanes, about 20 in all, where a plain loop compiles to about 70.
#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
#[inline(always)]
fn spread(mask: u64) -> Bytes {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_set_epi64x, _mm_set1_epi64x, _mm_shuffle_epi8, _mm_storeu_si128,
    };
    let mut out = [0u8; LANES];
    // SAFETY: SSSE3 is enabled for the whole build (the cfg above), and each store writes
    // one 16-byte chunk of `out`, unaligned.
    unsafe {
        let source = _mm_set_epi64x(0, mask as i64);
        let lane_bits = _mm_set1_epi64x(0x8040_2010_0804_0201_u64 as i64);
        for (k, chunk) in out.chunks_exact_mut(16).enumerate() {
            // Lanes 16k..16k+7 read mask byte 2k, the next eight byte 2k+1.
            let low = 0x0101_0101_0101_0101_u64 * (2 * k as u64);
            let which = _mm_set_epi64x((low + 0x0101_0101_0101_0101) as i64, low as i64);
            let bytes = _mm_shuffle_epi8(source, which);
            let lanes = _mm_cmpeq_epi8(_mm_and_si128(bytes, lane_bits), lane_bits);
            _mm_storeu_si128(chunk.as_mut_ptr().cast::<__m128i>(), lanes);
        }
    }
    out
}

/// A mask as bytes: 0xFF in the lanes it holds, 0 elsewhere.
#[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
#[inline]
fn spread(mask: u64) -> Bytes {
    let mut out = [0u8; LANES];
    for (i, o) in out.iter_mut().enumerate() {
        *o = 0u8.wrapping_sub((mask >> i) as u8 & 1);
    }
    out
}

/// The set bits of `mask`, lowest first.
#[inline]
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

/// A count per lane in bytes, so that a mask or a row of bytes adds to all lanes in a few
/// instructions; before any lane could pass 255 the bytes spill into 64-bit counts. Its
/// owner keeps the [`Room`] (one for several counters that grow together).
struct Counter {
    bytes: Bytes,
    /// Counts spilled this deal group (allocated at the first spill).
    spill: Vec<u64>,
}

/// What may still be added to the lanes of some [`Counter`]s before their bytes must spill.
struct Room(u32);

impl Room {
    fn new() -> Room {
        Room(255)
    }

    /// Takes `need` from the room; where it has less, first calls `spill` to empty the
    /// counters' bytes.
    #[inline(always)]
    fn take(&mut self, need: u32, spill: impl FnOnce()) {
        if self.0 < need {
            spill();
            self.0 = 255;
        }
        self.0 -= need;
    }
}

impl Counter {
    fn new() -> Counter {
        Counter { bytes: [0; LANES], spill: Vec::new() }
    }

    #[cold]
    fn spill_bytes(&mut self) {
        self.spill.resize(LANES, 0);
        for (wide, byte) in self.spill.iter_mut().zip(&mut self.bytes) {
            *wide += u64::from(std::mem::take(byte));
        }
    }

    /// Adds one to each of the first `N` lanes where `spread` is 0xFF.
    #[inline(always)]
    fn add_spread<const N: usize>(&mut self, spread: &Bytes) {
        // 0xFF is -1 in a byte.
        // By index over whole arrays: measured faster than zipped iterators here.
        #[allow(clippy::needless_range_loop)]
        for i in 0..N {
            self.bytes[i] = self.bytes[i].wrapping_sub(spread[i]);
        }
    }

    /// Adds the first `N` of `values`.
    #[inline(always)]
    fn add<const N: usize>(&mut self, values: &Bytes) {
        // By index over whole arrays: measured faster than zipped iterators here.
        #[allow(clippy::needless_range_loop)]
        for i in 0..N {
            self.bytes[i] = self.bytes[i].wrapping_add(values[i]);
        }
    }

    /// [`add`](Self::add) from a register: the first `N` (16 or 64) byte lanes of `values`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    #[inline]
    fn add_vector<const N: usize>(&mut self, values: std::arch::x86_64::__m512i) {
        use std::arch::x86_64::{
            __m128i, __m512i, _mm_add_epi8, _mm_loadu_si128, _mm_storeu_si128, _mm512_add_epi8, _mm512_castsi512_si128,
            _mm512_loadu_si512, _mm512_storeu_si512,
        };
        const { assert!(N == 16 || N == LANES) };
        // SAFETY: the first 16 or all 64 bytes of the array, unaligned.
        unsafe {
            if N == 16 {
                let at = self.bytes.as_mut_ptr().cast::<__m128i>();
                _mm_storeu_si128(at, _mm_add_epi8(_mm_loadu_si128(at), _mm512_castsi512_si128(values)));
            } else {
                let at = self.bytes.as_mut_ptr().cast::<__m512i>();
                _mm512_storeu_si512(at, _mm512_add_epi8(_mm512_loadu_si512(at), values));
            }
        }
    }

    #[inline(always)]
    fn get(&self, lane: usize) -> u64 {
        u64::from(self.bytes[lane]) + self.spill.get(lane).copied().unwrap_or(0)
    }

    fn clear(&mut self) {
        self.bytes = [0; LANES];
        self.spill.clear();
    }
}

/// One lane's counts for one deal group: the terms of [`CardGroupSums`].
#[derive(Clone, Copy, Debug, Default)]
struct GroupValues {
    seen: u64,
    seen_picks: u64,
    taken: u64,
    taken_pick: u64,
    last_seen: u64,
    in_hand: u64,
    in_hand_share: u64,
    passed: u64,
    passed_share: u64,
}

/// Sums over deal groups of the squares and products of a lane's [`GroupValues`] that
/// the group sums of [`CardGroupSums`] hold.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Moments {
    groups: u64,
    taken_sq: u64,
    seen_picks_sq: u64,
    taken_seen_picks: u64,
    taken_pick_sq: u64,
    taken_pick_taken: u64,
    last_seen_sq: u64,
    seen_sq: u64,
    last_seen_seen: u64,
    in_hand_share_sq: u64,
    in_hand_sq: u64,
    in_hand_share_in_hand: u64,
    passed_share_sq: u64,
    passed_sq: u64,
    passed_share_passed: u64,
    in_hand_share_passed_share: u64,
    in_hand_share_passed: u64,
    in_hand_passed_share: u64,
    in_hand_passed: u64,
}

/// A lane's counts and moments since the folder last handed them over: in C layout, 30
/// 64-bit words (the counts' 11, then the moments' 19), which the AVX-512 copy adds as
/// four vectors.
#[derive(Clone, Debug, Default)]
#[repr(C)]
struct LaneTotals {
    counts: CardCounts,
    moments: Moments,
}

// The words [`TOTALS_TERMS`] names, where it names them.
const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(size_of::<LaneTotals>() == 30 * 8);
    assert!(offset_of!(LaneTotals, counts) == 0 && offset_of!(LaneTotals, moments) == 11 * 8);
    assert!(offset_of!(CardCounts, taken_pick_sq) == 4 * 8 && offset_of!(CardCounts, passed_share) == 10 * 8);
    assert!(offset_of!(Moments, groups) == 0 && offset_of!(Moments, in_hand_passed) == 18 * 8);
};

/// For each of the 30 words of [`LaneTotals`] (and 2 of padding), the two terms whose
/// product it adds: 0-7 are the group's seen, seen_picks, taken, taken_pick, last_seen,
/// in_hand, in_hand_share and passed; 8 is passed_share, 9 one and 10 zero.
#[rustfmt::skip]
const TOTALS_TERMS: [(u8, u8); 32] = [
    // Counts: seen, seen_picks, taken, taken_pick, taken_pick_sq (moved apart), last_seen,
    // last_seen_sq (moved apart), in_hand, in_hand_share, passed, passed_share.
    (0, 9), (1, 9), (2, 9), (3, 9), (10, 10), (4, 9), (10, 10), (5, 9), (6, 9), (7, 9), (8, 9),
    // Moments, in their fields' order: groups, taken_sq, seen_picks_sq, taken_seen_picks,
    // taken_pick_sq, taken_pick_taken, last_seen_sq, seen_sq, last_seen_seen,
    (9, 9), (2, 2), (1, 1), (2, 1), (3, 3), (3, 2), (4, 4), (0, 0), (4, 0),
    // in_hand_share_sq, in_hand_sq, in_hand_share_in_hand, passed_share_sq, passed_sq,
    // passed_share_passed, in_hand_share_passed_share, in_hand_share_passed,
    // in_hand_passed_share, in_hand_passed; then two words of padding.
    (6, 6), (5, 5), (6, 5), (8, 8), (7, 7), (8, 7), (6, 8), (6, 7), (5, 8), (5, 7), (10, 10), (10, 10),
];

impl LaneTotals {
    /// [`add`](Self::add) with AVX-512: the group's terms in two registers, each word's two
    /// factors permuted out of them and multiplied 8 words at a time (every term is under
    /// 2^32, which [`LaneFolder::takes`] sees to, so 32-bit factors give exact products).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    #[inline]
    unsafe fn add_vectors(&mut self, v: &GroupValues) {
        use std::arch::x86_64::{
            __m512i, _mm512_add_epi64, _mm512_loadu_si512, _mm512_mask_storeu_epi64, _mm512_maskz_loadu_epi64,
            _mm512_mul_epu32, _mm512_permutex2var_epi64, _mm512_set_epi64, _mm512_storeu_si512,
        };
        const fn index(k: usize, right: bool) -> [i64; 8] {
            let mut out = [0i64; 8];
            let mut i = 0;
            while i < 8 {
                let (l, r) = TOTALS_TERMS[8 * k + i];
                out[i] = if right { r as i64 } else { l as i64 };
                i += 1;
            }
            out
        }
        const LEFT: [[i64; 8]; 4] = [index(0, false), index(1, false), index(2, false), index(3, false)];
        const RIGHT: [[i64; 8]; 4] = [index(0, true), index(1, true), index(2, true), index(3, true)];
        let low = _mm512_set_epi64(
            v.passed as i64,
            v.in_hand_share as i64,
            v.in_hand as i64,
            v.last_seen as i64,
            v.taken_pick as i64,
            v.taken as i64,
            v.seen_picks as i64,
            v.seen as i64,
        );
        let high = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 1, v.passed_share as i64);
        let words = (self as *mut LaneTotals).cast::<i64>();
        for k in 0..4 {
            // SAFETY: each index row is 8 words; the totals' words 8k to 8k+7 lie inside
            // them for k < 3, and the mask keeps the last row to words 24 to 29.
            unsafe {
                let left = _mm512_permutex2var_epi64(low, _mm512_loadu_si512(LEFT[k].as_ptr().cast()), high);
                let right = _mm512_permutex2var_epi64(low, _mm512_loadu_si512(RIGHT[k].as_ptr().cast()), high);
                let product = _mm512_mul_epu32(left, right);
                let at = words.add(8 * k);
                if k < 3 {
                    let sum = _mm512_add_epi64(_mm512_loadu_si512(at.cast::<__m512i>()), product);
                    _mm512_storeu_si512(at.cast::<__m512i>(), sum);
                } else {
                    let sum = _mm512_add_epi64(_mm512_maskz_loadu_epi64(0x3F, at), product);
                    _mm512_mask_storeu_epi64(at, 0x3F, sum);
                }
            }
        }
    }

    #[inline(always)]
    fn add(&mut self, v: &GroupValues) {
        let c = &mut self.counts;
        c.seen += v.seen;
        c.seen_picks += v.seen_picks;
        c.taken += v.taken;
        c.taken_pick += v.taken_pick;
        c.last_seen += v.last_seen;
        c.in_hand += v.in_hand;
        c.in_hand_share += v.in_hand_share;
        c.passed += v.passed;
        c.passed_share += v.passed_share;
        let m = &mut self.moments;
        m.groups += 1;
        m.taken_sq += v.taken * v.taken;
        m.seen_picks_sq += v.seen_picks * v.seen_picks;
        m.taken_seen_picks += v.taken * v.seen_picks;
        m.taken_pick_sq += v.taken_pick * v.taken_pick;
        m.taken_pick_taken += v.taken_pick * v.taken;
        m.last_seen_sq += v.last_seen * v.last_seen;
        m.seen_sq += v.seen * v.seen;
        m.last_seen_seen += v.last_seen * v.seen;
        m.in_hand_share_sq += v.in_hand_share * v.in_hand_share;
        m.in_hand_sq += v.in_hand * v.in_hand;
        m.in_hand_share_in_hand += v.in_hand_share * v.in_hand;
        m.passed_share_sq += v.passed_share * v.passed_share;
        m.passed_sq += v.passed * v.passed;
        m.passed_share_passed += v.passed_share * v.passed;
        m.in_hand_share_passed_share += v.in_hand_share * v.passed_share;
        m.in_hand_share_passed += v.in_hand_share * v.passed;
        m.in_hand_passed_share += v.in_hand * v.passed_share;
        m.in_hand_passed += v.in_hand * v.passed;
    }

    /// Adds these totals to a tally's cell and its group sums, as the groups' one by one
    /// would have.
    fn hand_over(&self, cell: &mut CardCounts, sums: &mut CardGroupSums) {
        let (c, m) = (&self.counts, &self.moments);
        cell.merge(c);
        if m.groups == 0 {
            return;
        }
        let ratio = |r: &mut RatioSums, a: u64, a2: u64, b: u64, b2: u64, ab: u64| {
            r.groups += m.groups;
            r.a += a as i64;
            r.a2 += u128::from(a2);
            r.b += b as i64;
            r.b2 += u128::from(b2);
            r.ab += i128::from(ab);
        };
        ratio(&mut sums.take, c.taken, m.taken_sq, c.seen_picks, m.seen_picks_sq, m.taken_seen_picks);
        ratio(&mut sums.ata, c.taken_pick, m.taken_pick_sq, c.taken, m.taken_sq, m.taken_pick_taken);
        ratio(&mut sums.alsa, c.last_seen, m.last_seen_sq, c.seen, m.seen_sq, m.last_seen_seen);
        let (ihs, ih, ps, p) = (c.in_hand_share, c.in_hand, c.passed_share, c.passed);
        ratio(&mut sums.in_hand, ihs, m.in_hand_share_sq, ih, m.in_hand_sq, m.in_hand_share_in_hand);
        ratio(&mut sums.passed, ps, m.passed_share_sq, p, m.passed_sq, m.passed_share_passed);
        let x = &mut sums.cross;
        x.a1a2 += i128::from(m.in_hand_share_passed_share);
        x.a1b2 += i128::from(m.in_hand_share_passed);
        x.b1a2 += i128::from(m.in_hand_passed_share);
        x.b1b2 += i128::from(m.in_hand_passed);
    }
}

/// The 32-bit terms of [`LaneSums`], in the order the AVX-512 close computes them: the
/// lanes' deal groups, their counts, then the squares and products of counts.
mod narrow {
    pub(super) const GROUPS: usize = 0;
    pub(super) const SEEN: usize = 1;
    pub(super) const SEEN_PICKS: usize = 2;
    pub(super) const TAKEN: usize = 3;
    pub(super) const TAKEN_PICK: usize = 4;
    pub(super) const LAST_SEEN: usize = 5;
    pub(super) const IN_HAND: usize = 6;
    pub(super) const PASSED: usize = 7;
    pub(super) const TAKEN_SQ: usize = 8;
    pub(super) const SEEN_PICKS_SQ: usize = 9;
    pub(super) const TAKEN_SEEN_PICKS: usize = 10;
    pub(super) const TAKEN_PICK_SQ: usize = 11;
    pub(super) const TAKEN_PICK_TAKEN: usize = 12;
    pub(super) const LAST_SEEN_SQ: usize = 13;
    pub(super) const SEEN_SQ: usize = 14;
    pub(super) const LAST_SEEN_SEEN: usize = 15;
    pub(super) const IN_HAND_SQ: usize = 16;
    pub(super) const PASSED_SQ: usize = 17;
    pub(super) const IN_HAND_PASSED: usize = 18;
    /// How many.
    pub(super) const TERMS: usize = 19;
}

/// The 64-bit terms of [`LaneSums`], in the order the AVX-512 close computes them: the win
/// shares, their squares and products, and the squares of picks taken (card lanes only).
mod wide {
    pub(super) const IN_HAND_SHARE: usize = 0;
    pub(super) const PASSED_SHARE: usize = 1;
    pub(super) const IN_HAND_SHARE_SQ: usize = 2;
    pub(super) const IN_HAND_SHARE_IN_HAND: usize = 3;
    pub(super) const PASSED_SHARE_SQ: usize = 4;
    pub(super) const PASSED_SHARE_PASSED: usize = 5;
    pub(super) const IN_HAND_SHARE_PASSED_SHARE: usize = 6;
    pub(super) const IN_HAND_SHARE_PASSED: usize = 7;
    pub(super) const IN_HAND_PASSED_SHARE: usize = 8;
    pub(super) const TAKEN_PICK_SQ: usize = 9;
    /// How many.
    pub(super) const TERMS: usize = 10;
}

/// A block's sums over deal groups, a term's 64 lanes side by side, which the AVX-512
/// close adds a deal group to 16 or 8 lanes per instruction, touching only the chunks of
/// lanes the group touched (a lane's [`LaneTotals`] are 30 words apart, each lane's added
/// by itself). Terms whose factors are counts are 32-bit (a group's counts under 2^16, so
/// that each product fits); terms with a win share are 64-bit. They move to the lanes'
/// totals before those are read, and before a 32-bit sum could overflow.
#[repr(C, align(64))]
struct LaneSums {
    narrow: [[u32; LANES]; narrow::TERMS],
    wide: [[u64; LANES]; wide::TERMS],
    /// What each 32-bit sum may still grow by.
    room: u32,
}

impl LaneSums {
    fn new() -> Box<LaneSums> {
        Box::new(LaneSums { narrow: [[0; LANES]; narrow::TERMS], wide: [[0; LANES]; wide::TERMS], room: u32::MAX })
    }

    /// Makes room for a deal group whose counts are at most `largest` (under 2^16): every
    /// 32-bit sum grows by at most its square.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn make_room(&mut self, largest: u32, totals: &mut [LaneTotals]) {
        let need = largest * largest;
        if self.room < need {
            self.settle(totals);
        }
        self.room -= need;
    }

    /// Adds the sums to `totals` (a lane each) and clears them.
    fn settle(&mut self, totals: &mut [LaneTotals]) {
        if self.room == u32::MAX {
            // Every deal group added takes some room: nothing was added.
            return;
        }
        for (lane, t) in totals.iter_mut().enumerate() {
            let n = |term: usize| u64::from(self.narrow[term][lane]);
            let w = |term: usize| self.wide[term][lane];
            let c = &mut t.counts;
            c.seen += n(narrow::SEEN);
            c.seen_picks += n(narrow::SEEN_PICKS);
            c.taken += n(narrow::TAKEN);
            c.taken_pick += n(narrow::TAKEN_PICK);
            c.taken_pick_sq += w(wide::TAKEN_PICK_SQ);
            c.last_seen += n(narrow::LAST_SEEN);
            c.in_hand += n(narrow::IN_HAND);
            c.in_hand_share += w(wide::IN_HAND_SHARE);
            c.passed += n(narrow::PASSED);
            c.passed_share += w(wide::PASSED_SHARE);
            let m = &mut t.moments;
            m.groups += n(narrow::GROUPS);
            m.taken_sq += n(narrow::TAKEN_SQ);
            m.seen_picks_sq += n(narrow::SEEN_PICKS_SQ);
            m.taken_seen_picks += n(narrow::TAKEN_SEEN_PICKS);
            m.taken_pick_sq += n(narrow::TAKEN_PICK_SQ);
            m.taken_pick_taken += n(narrow::TAKEN_PICK_TAKEN);
            m.last_seen_sq += n(narrow::LAST_SEEN_SQ);
            m.seen_sq += n(narrow::SEEN_SQ);
            m.last_seen_seen += n(narrow::LAST_SEEN_SEEN);
            m.in_hand_share_sq += w(wide::IN_HAND_SHARE_SQ);
            m.in_hand_sq += n(narrow::IN_HAND_SQ);
            m.in_hand_share_in_hand += w(wide::IN_HAND_SHARE_IN_HAND);
            m.passed_share_sq += w(wide::PASSED_SHARE_SQ);
            m.passed_sq += n(narrow::PASSED_SQ);
            m.passed_share_passed += w(wide::PASSED_SHARE_PASSED);
            m.in_hand_share_passed_share += w(wide::IN_HAND_SHARE_PASSED_SHARE);
            m.in_hand_share_passed += w(wide::IN_HAND_SHARE_PASSED);
            m.in_hand_passed_share += w(wide::IN_HAND_PASSED_SHARE);
            m.in_hand_passed += n(narrow::IN_HAND_PASSED);
        }
        self.narrow = [[0; LANES]; narrow::TERMS];
        self.wide = [[0; LANES]; wide::TERMS];
        self.room = u32::MAX;
    }
}

/// One strategy's lanes of one kind (the cards, or one pooling's groups) in the current
/// deal group, and their totals.
struct Block {
    /// Lanes some event touched this deal group.
    touched: u64,
    /// The room of the four counters below: a seat-unit adds at most its largest pick
    /// seen, and at least one, to any of their lanes.
    room: Room,
    seen: Counter,
    passed: Counter,
    in_hand: Counter,
    last_seen: Counter,
    /// Squares of the last pick seen: 16-bit lanes, moved to the totals before they fill.
    last_seen_sq: [u16; LANES],
    last_seen_sq_room: u32,
    /// Win shares this deal group: under 2^32 ([`LaneFolder::takes`]), so 32-bit lanes,
    /// which a vector adds to twice as many of as 64-bit ones.
    in_hand_share: [u32; LANES],
    passed_share: [u32; LANES],
    /// Per lane in use.
    totals: Vec<LaneTotals>,
    /// Sums the AVX-512 close adds to, moved to `totals` before these are read.
    sums: Box<LaneSums>,
}

impl Block {
    fn new(lanes: usize) -> Block {
        Block {
            touched: 0,
            room: Room::new(),
            seen: Counter::new(),
            passed: Counter::new(),
            in_hand: Counter::new(),
            last_seen: Counter::new(),
            last_seen_sq: [0; LANES],
            last_seen_sq_room: u32::from(u16::MAX),
            in_hand_share: [0; LANES],
            passed_share: [0; LANES],
            totals: vec![LaneTotals::default(); lanes],
            sums: LaneSums::new(),
        }
    }

    /// Adds one seat's unit: the lanes it saw, took and kept (all among the first `N`), the
    /// last pick at which it saw each (0 where it did not; none over `max_pick`), and its
    /// win share. A block of at most 16 lanes takes `N` = 16: its vectors are then a
    /// quarter as wide.
    #[inline(always)]
    fn add_unit<const N: usize>(&mut self, seen: u64, taken: u64, kept: u64, last: &Bytes, max_pick: u8, share: u64) {
        self.touched |= seen | taken | kept;
        let passed = seen & !taken;
        // A lane was seen where its last pick seen is set (at least 1).
        let seen_once: Bytes = std::array::from_fn(|i| last[i].min(1));
        self.make_room(max_pick);
        self.seen.add::<N>(&seen_once);
        self.passed.add_spread::<N>(&spread(passed));
        self.in_hand.add_spread::<N>(&spread(kept));
        self.last_seen.add::<N>(last);
        self.make_squares_room(max_pick);
        // By index over whole arrays: measured faster than zipped iterators here.
        #[allow(clippy::needless_range_loop)]
        for i in 0..N {
            self.last_seen_sq[i] += u16::from(last[i]) * u16::from(last[i]);
        }
        if share != 0 {
            // A deal group's shares stay under 2^32 ([`LaneFolder::takes`]).
            let share = share as u32;
            for lane in bits(kept) {
                self.in_hand_share[lane] += share;
            }
            for lane in bits(passed) {
                self.passed_share[lane] += share;
            }
        }
    }

    /// [`add_unit`](Self::add_unit) with AVX-512, the last picks in a register: stored and
    /// read back as an array, each seat's read waited for the store (a 64-byte store is not
    /// forwarded here), the fold's costliest instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    #[inline]
    fn add_unit_vectors<const N: usize>(
        &mut self,
        seen: u64,
        taken: u64,
        kept: u64,
        last: std::arch::x86_64::__m512i,
        max_pick: u8,
        share: u64,
    ) {
        use std::arch::x86_64::{
            __m256i, __m512i, _mm256_add_epi16, _mm256_cvtepu8_epi16, _mm256_loadu_si256, _mm256_mullo_epi16,
            _mm256_storeu_si256, _mm512_add_epi16, _mm512_castsi512_si128, _mm512_cvtepu8_epi16,
            _mm512_extracti64x4_epi64, _mm512_loadu_si512, _mm512_maskz_set1_epi8, _mm512_min_epu8, _mm512_mullo_epi16,
            _mm512_set1_epi8, _mm512_storeu_si512,
        };
        self.touched |= seen | taken | kept;
        let passed = seen & !taken;
        self.make_room(max_pick);
        // A lane was seen where its last pick seen is set (at least 1).
        self.seen.add_vector::<N>(_mm512_min_epu8(last, _mm512_set1_epi8(1)));
        self.passed.add_vector::<N>(_mm512_maskz_set1_epi8(passed, 1));
        self.in_hand.add_vector::<N>(_mm512_maskz_set1_epi8(kept, 1));
        self.last_seen.add_vector::<N>(last);
        self.make_squares_room(max_pick);
        let squares = self.last_seen_sq.as_mut_ptr();
        // SAFETY: 16 lanes, or two halves of 32, of the 64-lane array, unaligned.
        unsafe {
            if N <= 16 {
                let words = _mm256_cvtepu8_epi16(_mm512_castsi512_si128(last));
                let at = squares.cast::<__m256i>();
                _mm256_storeu_si256(at, _mm256_add_epi16(_mm256_loadu_si256(at), _mm256_mullo_epi16(words, words)));
            } else {
                let halves = [_mm512_extracti64x4_epi64::<0>(last), _mm512_extracti64x4_epi64::<1>(last)];
                for (k, half) in halves.into_iter().enumerate() {
                    let words = _mm512_cvtepu8_epi16(half);
                    let at = squares.add(32 * k).cast::<__m512i>();
                    _mm512_storeu_si512(at, _mm512_add_epi16(_mm512_loadu_si512(at), _mm512_mullo_epi16(words, words)));
                }
            }
        }
        if share != 0 {
            self.add_shares_masked::<N>(kept, passed, share);
        }
    }

    /// Adds `share` to the win shares of the lanes kept and passed (all among the first
    /// `N`), 16 lanes an instruction: a loop over their bits mispredicted its end.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    #[inline]
    fn add_shares_masked<const N: usize>(&mut self, kept: u64, passed: u64, share: u64) {
        use std::arch::x86_64::{
            __m512i, _mm512_loadu_si512, _mm512_mask_add_epi32, _mm512_set1_epi32, _mm512_storeu_si512,
        };
        // A deal group's shares stay under 2^32 ([`LaneFolder::takes`]).
        let share = _mm512_set1_epi32(share as u32 as i32);
        for (lanes, mask) in [(&mut self.in_hand_share, kept), (&mut self.passed_share, passed)] {
            for k in 0..N / 16 {
                // SAFETY: 16 lanes from lane 16k of a 64-lane array, unaligned.
                unsafe {
                    let at = lanes.as_mut_ptr().add(16 * k).cast::<__m512i>();
                    let v = _mm512_loadu_si512(at);
                    _mm512_storeu_si512(at, _mm512_mask_add_epi32(v, (mask >> (16 * k)) as u16, v, share));
                }
            }
        }
    }

    /// Makes room in the four counters for a seat-unit whose largest pick seen is
    /// `max_pick`: one check for the four.
    #[inline(always)]
    fn make_room(&mut self, max_pick: u8) {
        let Block { room, seen, passed, in_hand, last_seen, .. } = self;
        room.take(u32::from(max_pick.max(1)), || {
            for counter in [seen, passed, in_hand, last_seen] {
                counter.spill_bytes();
            }
        });
    }

    /// Makes room in the squares of last picks for a seat-unit whose largest pick seen is
    /// `max_pick`.
    #[inline(always)]
    fn make_squares_room(&mut self, max_pick: u8) {
        let need = u32::from(max_pick) * u32::from(max_pick);
        if self.last_seen_sq_room < need {
            self.move_squares();
        }
        self.last_seen_sq_room -= need;
    }

    /// Moves the squares of last picks into the totals.
    fn move_squares(&mut self) {
        for (t, sq) in self.totals.iter_mut().zip(&mut self.last_seen_sq) {
            t.counts.last_seen_sq += u64::from(std::mem::take(sq));
        }
        self.last_seen_sq_room = u32::from(u16::MAX);
    }

    /// The deal group's counts of `lane`, given those kept outside the block; its win
    /// shares are cleared.
    #[inline(always)]
    fn values(&mut self, lane: usize, seen_picks: u64, taken: u64, taken_pick: u64) -> GroupValues {
        GroupValues {
            seen: self.seen.get(lane),
            seen_picks,
            taken,
            taken_pick,
            last_seen: self.last_seen.get(lane),
            in_hand: self.in_hand.get(lane),
            in_hand_share: u64::from(std::mem::take(&mut self.in_hand_share[lane])),
            passed: self.passed.get(lane),
            passed_share: u64::from(std::mem::take(&mut self.passed_share[lane])),
        }
    }

    /// Whether the deal group's counts in this block's counters are all bytes (none spilled).
    #[cfg(target_arch = "x86_64")]
    fn counts_in_bytes(&self) -> bool {
        [&self.seen, &self.passed, &self.in_hand, &self.last_seen].iter().all(|c| c.spill.is_empty())
    }

    /// Adds the deal group to [`Block::sums`], given the counts kept outside the block (each
    /// lane's, under 2^16, as its counters' bytes are) and, for card lanes, the squares of
    /// picks taken, which it clears with the win shares. Call
    /// [`LaneSums::make_room`] first.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    fn add_to_sums(
        &mut self,
        seen_picks: &[u32; LANES],
        taken: &[u32; LANES],
        taken_pick: &[u32; LANES],
        mut taken_pick_sq: Option<&mut [u64; LANES]>,
    ) {
        use std::arch::x86_64::{
            __m128i, __m512i, _mm_loadu_si128, _mm512_add_epi32, _mm512_add_epi64, _mm512_cvtepu8_epi32,
            _mm512_cvtepu32_epi64, _mm512_extracti64x4_epi64, _mm512_loadu_si512, _mm512_maskz_set1_epi32,
            _mm512_mul_epu32, _mm512_mullo_epi32, _mm512_setzero_si512, _mm512_storeu_si512,
        };
        let Block { touched, seen, passed, in_hand, last_seen, in_hand_share, passed_share, sums, .. } = self;
        for k in 0..LANES / 16 {
            let lanes = (*touched >> (16 * k)) as u16;
            if lanes == 0 {
                continue;
            }
            let at = 16 * k;
            // SAFETY: every load and store below reads or writes 16 lanes from lane `at` (or
            // 8 from lane `at + 8 * half`, inside the same 16) of a 64-lane array, unaligned.
            unsafe {
                let bytes =
                    |c: &Counter| _mm512_cvtepu8_epi32(_mm_loadu_si128(c.bytes.as_ptr().add(at).cast::<__m128i>()));
                let words = |a: &[u32; LANES]| _mm512_loadu_si512(a.as_ptr().add(at).cast::<__m512i>());
                let (seen, last_seen, in_hand, passed) = (bytes(seen), bytes(last_seen), bytes(in_hand), bytes(passed));
                let (seen_picks, taken, taken_pick) = (words(seen_picks), words(taken), words(taken_pick));
                let mul = |a, b| _mm512_mullo_epi32(a, b);
                let terms: [__m512i; narrow::TERMS] = [
                    _mm512_maskz_set1_epi32(lanes, 1),
                    seen,
                    seen_picks,
                    taken,
                    taken_pick,
                    last_seen,
                    in_hand,
                    passed,
                    mul(taken, taken),
                    mul(seen_picks, seen_picks),
                    mul(taken, seen_picks),
                    mul(taken_pick, taken_pick),
                    mul(taken_pick, taken),
                    mul(last_seen, last_seen),
                    mul(seen, seen),
                    mul(last_seen, seen),
                    mul(in_hand, in_hand),
                    mul(passed, passed),
                    mul(in_hand, passed),
                ];
                for (sum, term) in sums.narrow.iter_mut().zip(terms) {
                    let to = sum.as_mut_ptr().add(at).cast::<__m512i>();
                    _mm512_storeu_si512(to, _mm512_add_epi32(_mm512_loadu_si512(to), term));
                }
                let zero = _mm512_setzero_si512();
                let in_hand_share_at = in_hand_share.as_mut_ptr().add(at).cast::<__m512i>();
                let passed_share_at = passed_share.as_mut_ptr().add(at).cast::<__m512i>();
                let (in_hand_share, passed_share) =
                    (_mm512_loadu_si512(in_hand_share_at), _mm512_loadu_si512(passed_share_at));
                _mm512_storeu_si512(in_hand_share_at, zero);
                _mm512_storeu_si512(passed_share_at, zero);
                for half in 0..2 {
                    let at = at + 8 * half;
                    let wide = |v: __m512i| {
                        let words = if half == 0 {
                            _mm512_extracti64x4_epi64::<0>(v)
                        } else {
                            _mm512_extracti64x4_epi64::<1>(v)
                        };
                        _mm512_cvtepu32_epi64(words)
                    };
                    let (in_hand, passed) = (wide(in_hand), wide(passed));
                    let (ihs, ps) = (wide(in_hand_share), wide(passed_share));
                    // Shares are under 2^32 ([`LaneFolder::takes`]): 32-bit factors are exact.
                    let mul = |a, b| _mm512_mul_epu32(a, b);
                    // Every wide term but the last, the squares of picks taken, added below.
                    let terms: [__m512i; wide::TAKEN_PICK_SQ] = [
                        ihs,
                        ps,
                        mul(ihs, ihs),
                        mul(ihs, in_hand),
                        mul(ps, ps),
                        mul(ps, passed),
                        mul(ihs, ps),
                        mul(ihs, passed),
                        mul(in_hand, ps),
                    ];
                    for (sum, term) in sums.wide.iter_mut().zip(terms) {
                        let to = sum.as_mut_ptr().add(at).cast::<__m512i>();
                        _mm512_storeu_si512(to, _mm512_add_epi64(_mm512_loadu_si512(to), term));
                    }
                    if let Some(squares) = taken_pick_sq.as_deref_mut() {
                        let from = squares.as_mut_ptr().add(at).cast::<__m512i>();
                        let to = sums.wide[wide::TAKEN_PICK_SQ].as_mut_ptr().add(at).cast::<__m512i>();
                        _mm512_storeu_si512(to, _mm512_add_epi64(_mm512_loadu_si512(to), _mm512_loadu_si512(from)));
                        _mm512_storeu_si512(from, zero);
                    }
                }
            }
        }
    }

    /// Clears the deal group's counts (the win shares are cleared as they are read).
    fn clear_group(&mut self) {
        self.touched = 0;
        self.room = Room::new();
        self.seen.clear();
        self.passed.clear();
        self.in_hand.clear();
        self.last_seen.clear();
    }
}

/// How a pooling's groups are found from card lanes.
struct Pooling {
    /// Its first id among the counted ids, and its number of groups.
    first_id: usize,
    groups: usize,
    /// Card lanes in some group.
    grouped: u64,
    /// [`Pooling::grouped`] as bytes.
    grouped_bytes: Bytes,
    /// Where a card's group is its lane modulo this power of two (ranks in lanes of 16),
    /// halves of a mask fold onto its groups.
    stride: Option<usize>,
    /// Each card lane's group (any value for lanes in no group).
    of_card: [u8; LANES],
    /// Each group's card lanes.
    cards_of: Vec<u64>,
}

impl Pooling {
    /// The pooling's lanes, if every group has a lane under 64 (else `None`).
    fn new(group: &crate::sim::CardGroup, first_id: usize, cards: usize) -> Option<Pooling> {
        let groups = group.names.len();
        if groups > LANES {
            return None;
        }
        let mut of_card = [0u8; LANES];
        let mut cards_of = vec![0u64; groups];
        let mut grouped = 0u64;
        for (c, g) in group.of_card.iter().enumerate().take(cards) {
            if let Some(g) = g.map(usize::from) {
                if g >= groups {
                    return None;
                }
                of_card[c] = g as u8;
                cards_of[g] |= 1 << c;
                grouped |= 1 << c;
            }
        }
        let stride = (0..=6).map(|k| 1usize << k).find(|&w| bits(grouped).all(|c| usize::from(of_card[c]) == c % w));
        let grouped_bytes = spread(grouped);
        Some(Pooling { first_id, groups, grouped, grouped_bytes, stride, of_card, cards_of })
    }

    /// The groups of the card lanes in `mask`.
    #[inline(always)]
    fn fold(&self, mask: u64) -> u64 {
        let m = mask & self.grouped;
        match self.stride {
            Some(1) => fold_stride::<1>(m),
            Some(2) => fold_stride::<2>(m),
            Some(4) => fold_stride::<4>(m),
            Some(8) => fold_stride::<8>(m),
            Some(16) => fold_stride::<16>(m),
            Some(32) => fold_stride::<32>(m),
            Some(_) => m,
            None => bits(m).fold(0, |acc, c| acc | 1 << self.of_card[c]),
        }
    }

    /// Per group, the largest of its cards' `last` bytes (`seen`: the lanes not zero).
    #[inline(always)]
    fn fold_last(&self, last: &Bytes, seen: u64, out: &mut Bytes) {
        let grouped = &self.grouped_bytes;
        match self.stride {
            Some(1) => fold_last_stride::<1>(last, grouped, out),
            Some(2) => fold_last_stride::<2>(last, grouped, out),
            Some(4) => fold_last_stride::<4>(last, grouped, out),
            Some(8) => fold_last_stride::<8>(last, grouped, out),
            Some(16) => fold_last_stride::<16>(last, grouped, out),
            Some(32) => fold_last_stride::<32>(last, grouped, out),
            Some(_) => fold_last_stride::<64>(last, grouped, out),
            None => {
                *out = [0; LANES];
                for c in bits(seen & self.grouped) {
                    let g = usize::from(self.of_card[c]);
                    out[g] = out[g].max(last[c]);
                }
            }
        }
    }
}

impl Pooling {
    /// [`fold_last`](Self::fold_last) with AVX-512, from a register to a register: for strides
    /// of 16 and over, folded in registers; other poolings go through `out`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    #[inline]
    fn fold_last_vector(&self, last: __m512i, seen: u64, out: &mut Bytes) -> __m512i {
        use std::arch::x86_64::{
            _mm_max_epu8, _mm256_max_epu8, _mm512_castsi128_si512, _mm512_castsi256_si512, _mm512_extracti32x4_epi32,
            _mm512_extracti64x4_epi64, _mm512_loadu_si512, _mm512_maskz_mov_epi8, _mm512_storeu_si512,
        };
        let v = _mm512_maskz_mov_epi8(self.grouped, last);
        // The cast lanes above the folded ones are undefined: cleared by the mask.
        match self.stride {
            Some(16) => {
                let low = _mm_max_epu8(_mm512_extracti32x4_epi32::<0>(v), _mm512_extracti32x4_epi32::<1>(v));
                let high = _mm_max_epu8(_mm512_extracti32x4_epi32::<2>(v), _mm512_extracti32x4_epi32::<3>(v));
                _mm512_maskz_mov_epi8(0xFFFF, _mm512_castsi128_si512(_mm_max_epu8(low, high)))
            }
            Some(32) => {
                let halves = _mm256_max_epu8(_mm512_extracti64x4_epi64::<0>(v), _mm512_extracti64x4_epi64::<1>(v));
                _mm512_maskz_mov_epi8(0xFFFF_FFFF, _mm512_castsi256_si512(halves))
            }
            Some(64) => v,
            _ => {
                let mut from = [0; LANES];
                // SAFETY: whole 64-byte arrays, unaligned.
                unsafe { _mm512_storeu_si512(from.as_mut_ptr().cast::<__m512i>(), last) };
                self.fold_last(&from, seen, out);
                // SAFETY: as above.
                unsafe { _mm512_loadu_si512(out.as_ptr().cast::<__m512i>()) }
            }
        }
    }

    /// Per group, the sums of its cards' lanes of each of `lanes` (under 2^32), for strides
    /// of 16 and over: the 16-lane chunks of the grouped lanes added in registers. `None`
    /// for other poolings.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    #[inline]
    fn sum_whole(&self, lanes: [&[u32; LANES]; 3]) -> Option<[[u32; LANES]; 3]> {
        use std::arch::x86_64::{__m512i, _mm512_add_epi32, _mm512_maskz_loadu_epi32, _mm512_setzero_si512};
        let stride = self.stride.filter(|&w| w >= 16)?;
        Some(lanes.map(|a| {
            // SAFETY: four 16-lane loads inside the array, unaligned.
            let v: [__m512i; 4] = std::array::from_fn(|k| unsafe {
                _mm512_maskz_loadu_epi32((self.grouped >> (16 * k)) as u16, a.as_ptr().add(16 * k).cast::<i32>())
            });
            let zero = _mm512_setzero_si512();
            let chunks = match stride {
                16 => [_mm512_add_epi32(_mm512_add_epi32(v[0], v[1]), _mm512_add_epi32(v[2], v[3])), zero, zero, zero],
                32 => [_mm512_add_epi32(v[0], v[2]), _mm512_add_epi32(v[1], v[3]), zero, zero],
                _ => v,
            };
            // SAFETY: a vector is 16 u32 lanes, and four of them are 64.
            unsafe { std::mem::transmute::<[__m512i; 4], [u32; LANES]>(chunks) }
        }))
    }
}

/// The groups of the card lanes in `mask` (only grouped lanes set) where a card's group is
/// its lane modulo `W`: the mask's halves folded onto each other. `W` is a constant so
/// that the folding unrolls.
#[inline(always)]
fn fold_stride<const W: usize>(mut mask: u64) -> u64 {
    let mut width = LANES;
    while width > W {
        width /= 2;
        mask |= mask >> width;
    }
    if W == LANES { mask } else { mask & ((1 << W) - 1) }
}

/// Per group of lanes modulo `W`, the largest of the `grouped` lanes of `last`: four
/// 16-lane vectors folded onto each other in registers (folded through memory, each step
/// read back half of what it had just stored and waited for the store to land).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn fold_last_stride<const W: usize>(last: &Bytes, grouped: &Bytes, out: &mut Bytes) {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_loadu_si128, _mm_max_epu8, _mm_setzero_si128, _mm_srli_si128, _mm_storeu_si128,
    };
    // SAFETY: SSE2 is part of x86_64, and each load reads 16 bytes inside its array.
    let folded: [__m128i; 4] = unsafe {
        let chunk = |bytes: &Bytes, k: usize| _mm_loadu_si128(bytes.as_ptr().add(16 * k).cast::<__m128i>());
        let mut v: [__m128i; 4] = std::array::from_fn(|k| _mm_and_si128(chunk(last, k), chunk(grouped, k)));
        let zero = _mm_setzero_si128();
        if W <= 32 {
            v = [_mm_max_epu8(v[0], v[2]), _mm_max_epu8(v[1], v[3]), zero, zero];
        }
        if W <= 16 {
            v[0] = _mm_max_epu8(v[0], v[1]);
            v[1] = zero;
        }
        // Within 16 lanes, shifting in zeros: the lanes from `W` up are cleared below.
        if W <= 8 {
            v[0] = _mm_max_epu8(v[0], _mm_srli_si128::<8>(v[0]));
        }
        if W <= 4 {
            v[0] = _mm_max_epu8(v[0], _mm_srli_si128::<4>(v[0]));
        }
        if W <= 2 {
            v[0] = _mm_max_epu8(v[0], _mm_srli_si128::<2>(v[0]));
        }
        if W <= 1 {
            v[0] = _mm_max_epu8(v[0], _mm_srli_si128::<1>(v[0]));
        }
        v
    };
    for (k, v) in folded.into_iter().enumerate() {
        // SAFETY: each store writes 16 bytes inside `out`, unaligned.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().add(16 * k).cast::<__m128i>(), v) };
    }
    if W < 16 {
        out[W..16].fill(0);
    }
}

/// Per group of lanes modulo `W`, the largest of the `grouped` lanes of `last`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn fold_last_stride<const W: usize>(last: &Bytes, grouped: &Bytes, out: &mut Bytes) {
    *out = std::array::from_fn(|i| last[i] & grouped[i]);
    let mut width = LANES;
    while width > W {
        width /= 2;
        let before = *out;
        *out = std::array::from_fn(|i| if i < width { before[i].max(before[i + width]) } else { 0 });
    }
}

/// What one seat has done this unit, a lane per card.
struct SeatLanes {
    seen: u64,
    taken: u64,
    /// Sightings logged (at most 255: [`LaneFolder::takes`] sees to it), and per card.
    sightings: u8,
    count: Bytes,
    /// The last pick at which it saw each card (0: not seen).
    last: Bytes,
    /// The largest pick at which it saw a card.
    last_pick: u8,
}

impl SeatLanes {
    fn new() -> SeatLanes {
        SeatLanes { seen: 0, taken: 0, sightings: 0, count: [0; LANES], last: [0; LANES], last_pick: 0 }
    }

    /// Folds the seat's row of picks (none over 255: [`LaneFolder::takes`]), its takes into
    /// its strategy's `lanes`.
    #[inline(always)]
    fn fold_row(&mut self, picks: &[SeatPick], valid: u64, cards: usize, lanes: &mut StrategyLanes) {
        for p in picks {
            // A sighting counts from 1.
            let pick = p.pick as u8;
            let mask = p.seen & valid;
            if mask != 0 {
                self.see(mask, pick.max(1));
            }
            let c = usize::from(p.card);
            if c < cards {
                self.taken |= 1 << c;
                lanes.take(c, pick);
            }
        }
    }

    /// [`fold_row`](Self::fold_row) with AVX-512: a pick's cards are a mask register, which
    /// counts and raises their lanes in one instruction each, the lanes held in registers
    /// (`fresh`: the seat's lanes are still [`SeatLanes::new`]'s). Returns the lanes'
    /// counts and last picks, which stay in registers: [`SeatLanes::count`] and
    /// [`SeatLanes::last`] are left as they were.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    #[inline]
    fn fold_row_masked(
        &mut self,
        picks: &[SeatPick],
        valid: u64,
        cards: usize,
        lanes: &mut StrategyLanes,
        fresh: bool,
    ) -> (__m512i, __m512i) {
        use std::arch::x86_64::{
            _mm512_loadu_si512, _mm512_mask_max_epu8, _mm512_mask_sub_epi8, _mm512_set1_epi8, _mm512_setzero_si512,
        };
        // A fresh seat's lanes are zero: loaded, they would wait for the zeros just stored.
        let (mut count, mut last) = if fresh {
            (_mm512_setzero_si512(), _mm512_setzero_si512())
        } else {
            // SAFETY: each load is of a whole 64-byte array, unaligned.
            unsafe {
                (
                    _mm512_loadu_si512(self.count.as_ptr().cast::<__m512i>()),
                    _mm512_loadu_si512(self.last.as_ptr().cast()),
                )
            }
        };
        let minus_one = _mm512_set1_epi8(-1);
        // In locals: as fields, the seen mask went through memory at every pick.
        let (mut seen, mut taken, mut sightings, mut last_pick) =
            (self.seen, self.taken, self.sightings, self.last_pick);
        for p in picks {
            let pick = p.pick as u8;
            let mask = p.seen & valid;
            if mask != 0 {
                let seen_at = pick.max(1);
                seen |= mask;
                sightings += 1;
                last_pick = last_pick.max(seen_at);
                count = _mm512_mask_sub_epi8(count, mask, count, minus_one);
                last = _mm512_mask_max_epu8(last, mask, last, _mm512_set1_epi8(seen_at as i8));
            }
            let c = usize::from(p.card);
            if c < cards {
                taken |= 1 << c;
                lanes.take(c, pick);
            }
        }
        (self.seen, self.taken, self.sightings, self.last_pick) = (seen, taken, sightings, last_pick);
        (count, last)
    }

    /// Saw the cards of `mask` (lanes in use only, not empty) at `pick` (1 to 255).
    #[inline(always)]
    fn see(&mut self, mask: u64, pick: u8) {
        let lanes = spread(mask);
        self.seen |= mask;
        self.sightings += 1;
        self.last_pick = self.last_pick.max(pick);
        // By index over whole arrays: measured faster than zipped iterators here.
        #[allow(clippy::needless_range_loop)]
        for i in 0..LANES {
            // 0xFF is -1 in a byte.
            self.count[i] = self.count[i].wrapping_sub(lanes[i]);
            self.last[i] = self.last[i].max(lanes[i] & pick);
        }
    }
}

/// One strategy's lanes: the counts only cards have, then a block for the cards and one
/// for each pooling.
struct StrategyLanes {
    seen_picks: Counter,
    /// [`StrategyLanes::seen_picks`]' room: a seat-unit adds its sightings.
    seen_picks_room: Room,
    /// Takes and the sum of their picks this deal group: a deal group's counts stay under
    /// 2^32 ([`LaneFolder::takes`]), and 32-bit lanes are what the AVX-512 close reads.
    taken: [u32; LANES],
    taken_pick: [u32; LANES],
    /// Squares of the picks taken this deal group: a count only, moved to the totals when
    /// the group closes (their cache lines are cold during play, so writing them at each
    /// take was slower).
    taken_pick_sq: [u64; LANES],
    blocks: Vec<Block>,
}

impl StrategyLanes {
    /// Adds a seat-unit's `sightings` to [`StrategyLanes::seen_picks`] by `add`, with room
    /// made for them.
    #[inline(always)]
    fn add_sightings(&mut self, sightings: u8, add: impl FnOnce(&mut Counter)) {
        let StrategyLanes { seen_picks, seen_picks_room, .. } = self;
        seen_picks_room.take(u32::from(sightings), || seen_picks.spill_bytes());
        add(seen_picks);
    }

    /// Took card lane `c` at `pick`.
    #[inline(always)]
    fn take(&mut self, c: usize, pick: u8) {
        self.taken[c] += 1;
        self.taken_pick[c] += u32::from(pick);
        let pick = u64::from(pick);
        self.taken_pick_sq[c] += pick * pick;
    }
}

/// The lanes that sum over the log of a unit at most this per event: a lane's count in a
/// unit (a group's sums over up to 64 cards, a pick's up to 255) stays under this times
/// the unit's events and one, plus its win shares.
const LANE_BOUND_PER_EVENT: u64 = 64 * 256;

/// The folder for catalogs of at most 64 cards whose poolings have at most 64 groups.
struct LaneFolder {
    ids: usize,
    cards: usize,
    /// The card lanes in use.
    valid: u64,
    poolings: Vec<Pooling>,
    /// Scratch: the current seat-unit's last picks folded by each pooling.
    pooled_last: Vec<Bytes>,
    seats: Vec<SeatLanes>,
    strategies: Vec<StrategyLanes>,
    /// A bound on every lane's count in this deal group.
    group_bound: u64,
    /// What the totals' squares and products may still grow by.
    moment_room: u64,
    /// The vector instructions folding and closing groups are compiled for.
    isa: Isa,
}

/// The widest vector instructions the lane folder has a compiled copy for that the
/// processor runs: the build's baseline, AVX2, or AVX-512 (whose byte ops take 64 lanes in
/// one instruction, where the baseline takes four).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Isa {
    Baseline,
    Avx2,
    Avx512,
}

impl Isa {
    /// The widest this processor runs.
    fn detect() -> Isa {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512bw") && std::arch::is_x86_feature_detected!("avx512vl") {
                return Isa::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Isa::Avx2;
            }
        }
        Isa::Baseline
    }

    /// Every copy this processor runs, narrowest first.
    #[cfg(test)]
    fn available() -> Vec<Isa> {
        let widest = Isa::detect();
        [Isa::Baseline, Isa::Avx2, Isa::Avx512].into_iter().filter(|&isa| isa as u8 <= widest as u8).collect()
    }
}

/// Runs `$body` (an expression over the folder) compiled for the folder's [`Isa`].
macro_rules! with_isa {
    ($isa:expr, $body:expr) => {{
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx2")]
            fn avx2<R>(f: impl FnOnce() -> R) -> R {
                f()
            }
            #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
            fn avx512<R>(f: impl FnOnce() -> R) -> R {
                f()
            }
            match $isa {
                // SAFETY: `Isa::detect` saw the processor run these instructions.
                Isa::Avx512 => unsafe { avx512(|| $body) },
                // SAFETY: as above.
                Isa::Avx2 => unsafe { avx2(|| $body) },
                Isa::Baseline => $body,
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            $body
        }
    }};
}

/// The largest of 64 lanes, in AVX-512 registers: folded as a plain iterator it compiled
/// to 64 scalar compares, 1.7% of a cards run's samples.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
#[inline]
fn largest(a: &[u32; LANES]) -> u32 {
    use std::arch::x86_64::{__m512i, _mm512_loadu_si512, _mm512_max_epu32, _mm512_reduce_max_epu32};
    // SAFETY: four 16-lane loads inside the array, unaligned.
    let v: [__m512i; 4] =
        std::array::from_fn(|k| unsafe { _mm512_loadu_si512(a.as_ptr().add(16 * k).cast::<__m512i>()) });
    _mm512_reduce_max_epu32(_mm512_max_epu32(_mm512_max_epu32(v[0], v[1]), _mm512_max_epu32(v[2], v[3])))
}

impl LaneFolder {
    fn new(catalog: &CardCatalog, strategies: usize) -> Option<LaneFolder> {
        let cards = catalog.names.len();
        if cards > LANES {
            return None;
        }
        let offsets = catalog.group_offsets();
        let poolings: Vec<Pooling> =
            catalog.groups.iter().zip(offsets).map(|(g, at)| Pooling::new(g, at, cards)).collect::<Option<_>>()?;
        let blocks = || std::iter::once(Block::new(cards)).chain(poolings.iter().map(|p| Block::new(p.groups)));
        Some(LaneFolder {
            ids: catalog.ids(),
            cards,
            valid: if cards == LANES { u64::MAX } else { (1 << cards) - 1 },
            pooled_last: vec![[0; LANES]; poolings.len()],
            seats: (0..MAX_SEATS).map(|_| SeatLanes::new()).collect(),
            strategies: (0..strategies)
                .map(|_| StrategyLanes {
                    seen_picks: Counter::new(),
                    seen_picks_room: Room::new(),
                    taken: [0; LANES],
                    taken_pick: [0; LANES],
                    taken_pick_sq: [0; LANES],
                    blocks: blocks().collect(),
                })
                .collect(),
            poolings,
            group_bound: 0,
            moment_room: u64::MAX,
            isa: Isa::detect(),
        })
    }

    /// A bound on the count a unit adds to any lane (see [`LANE_BOUND_PER_EVENT`]).
    fn unit_bound(log: &CardLog, share: &[u32]) -> u64 {
        let events = log.len() as u64 + 1;
        let shares: u64 = share.iter().map(|&s| u64::from(s)).sum();
        events.saturating_mul(LANE_BOUND_PER_EVENT).saturating_add(shares)
    }

    /// Whether the lanes can take this unit: its picks and a seat's sightings fit a byte,
    /// and the deal group's counts stay small enough that a group's squares fit 64 bits.
    /// If so, the unit's [`unit_bound`](Self::unit_bound), which folding it adds to the
    /// group's.
    fn takes(&self, log: &CardLog, strategy_at: &[usize], share: &[u32]) -> Option<u64> {
        let bound = Self::unit_bound(log, share);
        (log.max_pick <= u32::from(u8::MAX)
            && log.len() <= usize::from(u8::MAX)
            && strategy_at.len() <= MAX_SEATS
            && self.group_bound.saturating_add(bound) <= u64::from(u32::MAX))
        .then_some(bound)
    }

    /// Folds a unit that [`takes`](Self::takes) gave `bound`.
    fn fold(&mut self, log: &CardLog, strategy_at: &[usize], share: &[u32], bound: u64) {
        self.group_bound += bound;
        match self.isa {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Isa::detect` saw this processor run AVX-512.
            Isa::Avx512 => unsafe { self.fold_avx512(log, strategy_at, share) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, AVX2.
            Isa::Avx2 => unsafe { self.fold_avx2(log, strategy_at, share) },
            _ => self.fold_lanes::<false>(log, strategy_at, share),
        }
    }

    /// [`fold_lanes`](Self::fold_lanes) compiled for AVX-512 in a function of its own, not
    /// in [`with_isa`]'s closure, which is compiled without AVX-512: there the compiler
    /// could not inline the AVX-512 seat-unit, a call that passed its vectors on the stack.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    fn fold_avx512(&mut self, log: &CardLog, strategy_at: &[usize], share: &[u32]) {
        self.fold_lanes::<true>(log, strategy_at, share);
    }

    /// [`fold_lanes`](Self::fold_lanes) compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn fold_avx2(&mut self, log: &CardLog, strategy_at: &[usize], share: &[u32]) {
        self.fold_lanes::<false>(log, strategy_at, share);
    }

    /// Folds a unit into the lanes (`AVX512`: the copy compiled for AVX-512, whose
    /// seat-units keep their lanes in registers).
    #[inline(always)]
    fn fold_lanes<const AVX512: bool>(&mut self, log: &CardLog, strategy_at: &[usize], share: &[u32]) {
        let LaneFolder { cards, valid, poolings, pooled_last, seats, strategies, .. } = self;
        let (cards, valid) = (*cards, *valid);
        // Fields in locals and the seats a slice of the table's: the compiler would
        // otherwise reload them after every store into the lanes.
        let seats = &mut seats[..strategy_at.len()];
        // A seat past the shares would keep its lanes into the next unit.
        assert_eq!(share.len(), strategy_at.len(), "a win share per seat");
        // Actions outside the seats' rows, in any order: a seat's lanes take maxima and sums.
        for e in &log.events {
            let seat = usize::from(e.seat);
            let Some(unit) = seats.get_mut(seat) else { continue };
            // Picks are at most 255 ([`LaneFolder::takes`]); a sighting counts from 1.
            let pick = e.pick as u8;
            let c = usize::from(e.card);
            match e.action {
                Action::Picked => {
                    let mask = e.seen & valid;
                    if mask != 0 {
                        unit.see(mask, pick.max(1));
                    }
                    if c < cards {
                        unit.taken |= 1 << c;
                        strategies[strategy_at[seat]].take(c, pick);
                    }
                }
                Action::Seen if c < cards => unit.see(1 << c, pick.max(1)),
                Action::Taken if c < cards => {
                    unit.taken |= 1 << c;
                    strategies[strategy_at[seat]].take(c, pick);
                }
                // Cards past the catalog, and kept ids of 64 and over (the only ones kept
                // as events): no lane holds them.
                Action::Seen | Action::Taken | Action::Kept => {}
            }
        }
        let other_events = !log.events.is_empty();
        for (seat, (&x, (&kept, &won))) in strategy_at.iter().zip(log.kept.iter().zip(share)).enumerate() {
            let lanes = &mut strategies[x];
            // The seat's lanes in a local, which its row of picks folds into in registers.
            let mut unit =
                if other_events { std::mem::replace(&mut seats[seat], SeatLanes::new()) } else { SeatLanes::new() };
            let (kept, won) = (kept & valid, u64::from(won));
            #[cfg(target_arch = "x86_64")]
            if AVX512 {
                // SAFETY: `Isa::detect` saw this processor run AVX-512.
                unsafe {
                    Self::fold_seat_vectors(
                        poolings,
                        pooled_last,
                        lanes,
                        &mut unit,
                        log.seat_picks(seat),
                        valid,
                        cards,
                        kept,
                        won,
                        !other_events,
                    )
                };
                continue;
            }
            unit.fold_row(log.seat_picks(seat), valid, cards, lanes);
            if unit.seen | unit.taken | kept == 0 {
                continue;
            }
            // Folded first and read after the cards' block: the folding writes its lanes in
            // narrower pieces than a block reads, and a read right behind such writes waits
            // for them to reach the cache.
            for (pooling, last) in poolings.iter().zip(pooled_last.iter_mut()) {
                pooling.fold_last(&unit.last, unit.seen, last);
            }
            lanes.add_sightings(unit.sightings, |seen_picks| seen_picks.add::<LANES>(&unit.count));
            let blocks = &mut lanes.blocks;
            blocks[0].add_unit::<LANES>(unit.seen, unit.taken, kept, &unit.last, unit.last_pick, won);
            for ((pooling, block), last) in poolings.iter().zip(&mut blocks[1..]).zip(pooled_last.iter()) {
                let (seen, taken, kept) = (pooling.fold(unit.seen), pooling.fold(unit.taken), pooling.fold(kept));
                if pooling.groups <= 16 {
                    block.add_unit::<16>(seen, taken, kept, last, unit.last_pick, won);
                } else {
                    block.add_unit::<LANES>(seen, taken, kept, last, unit.last_pick, won);
                }
            }
        }
    }

    /// One seat's row and unit with AVX-512 (`kept`: lanes in use only; `fresh`: `unit` is
    /// still [`SeatLanes::new`]'s): its counts and last picks stay in registers from its row
    /// to its strategy's blocks.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn fold_seat_vectors(
        poolings: &[Pooling],
        scratch: &mut [Bytes],
        lanes: &mut StrategyLanes,
        unit: &mut SeatLanes,
        picks: &[SeatPick],
        valid: u64,
        cards: usize,
        kept: u64,
        won: u64,
        fresh: bool,
    ) {
        let (count, last) = unit.fold_row_masked(picks, valid, cards, lanes, fresh);
        if unit.seen | unit.taken | kept == 0 {
            return;
        }
        lanes.add_sightings(unit.sightings, |seen_picks| seen_picks.add_vector::<LANES>(count));
        let blocks = &mut lanes.blocks;
        blocks[0].add_unit_vectors::<LANES>(unit.seen, unit.taken, kept, last, unit.last_pick, won);
        for ((pooling, block), out) in poolings.iter().zip(&mut blocks[1..]).zip(scratch) {
            let pooled = pooling.fold_last_vector(last, unit.seen, out);
            let (seen, taken, kept) = (pooling.fold(unit.seen), pooling.fold(unit.taken), pooling.fold(kept));
            if pooling.groups <= 16 {
                block.add_unit_vectors::<16>(seen, taken, kept, pooled, unit.last_pick, won);
            } else {
                // Through memory: a second call of the 64-lane copy would keep the compiler
                // from inlining either (poolings of over 16 groups are rare).
                // SAFETY: a whole 64-byte array, unaligned.
                unsafe { std::arch::x86_64::_mm512_storeu_si512(out.as_mut_ptr().cast::<__m512i>(), pooled) };
                block.add_unit::<LANES>(seen, taken, kept, out, unit.last_pick, won);
            }
        }
    }

    /// Reads the deal group's counts of every lane it touched into `to(strategy, id,
    /// counts)`, and clears them.
    #[inline(always)]
    fn close_group(&mut self, mut to: impl FnMut(usize, usize, &GroupValues, &mut LaneTotals)) {
        for (x, lanes) in self.strategies.iter_mut().enumerate() {
            let StrategyLanes { seen_picks, seen_picks_room, taken, taken_pick, taken_pick_sq, blocks } = lanes;
            let (cards, groups) = blocks.split_first_mut().expect("a block of cards");
            for c in bits(cards.touched) {
                let v = cards.values(c, seen_picks.get(c), u64::from(taken[c]), u64::from(taken_pick[c]));
                let totals = &mut cards.totals[c];
                to(x, c, &v, totals);
                // After the group's counts: the AVX-512 copy adds those as whole vectors,
                // and a vector load waits for a narrower store into it to land.
                totals.counts.taken_pick_sq += std::mem::take(&mut taken_pick_sq[c]);
            }
            // A group's sightings and takes are its cards'.
            for (pooling, block) in self.poolings.iter().zip(groups.iter_mut()) {
                for g in bits(block.touched) {
                    let mut sum = (0, 0, 0);
                    for c in bits(pooling.cards_of[g]) {
                        sum =
                            (sum.0 + seen_picks.get(c), sum.1 + u64::from(taken[c]), sum.2 + u64::from(taken_pick[c]));
                    }
                    let v = block.values(g, sum.0, sum.1, sum.2);
                    to(x, pooling.first_id + g, &v, &mut block.totals[g]);
                }
                block.clear_group();
            }
            for c in bits(cards.touched) {
                (taken[c], taken_pick[c]) = (0, 0);
            }
            cards.clear_group();
            seen_picks.clear();
            *seen_picks_room = Room::new();
        }
        self.group_bound = 0;
    }

    /// Ends a deal group: its counts, squares and products go to the totals.
    fn end_group(&mut self, cells: &mut [CardCounts], sums: &mut [CardGroupSums]) {
        // Every square or product of the group's counts is under the bound squared.
        let need = self.group_bound * self.group_bound;
        if self.moment_room < need {
            self.flush(cells, sums);
        }
        self.moment_room -= need;
        #[cfg(target_arch = "x86_64")]
        if self.isa == Isa::Avx512 {
            // SAFETY: `Isa::detect` saw this processor run AVX-512.
            unsafe { self.close_group_vectors() };
            return;
        }
        with_isa!(self.isa, self.close_group(|_, _, v, totals| totals.add(v)));
    }

    /// The AVX-512 copy of the group close: a block whose counts are under 2^16 is added to
    /// its [`LaneSums`] 16 lanes at a time, any other lane by lane, its totals as vectors.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    fn close_group_vectors(&mut self) {
        /// Counts a block's 32-bit sums take: their squares fit 32 bits.
        const LARGEST: u32 = u16::MAX as u32;
        for lanes in &mut self.strategies {
            let StrategyLanes { seen_picks, seen_picks_room, taken, taken_pick, taken_pick_sq, blocks } = lanes;
            let (cards, groups) = blocks.split_first_mut().expect("a block of cards");
            let card_seen_picks: [u32; LANES] = if seen_picks.spill.is_empty() {
                std::array::from_fn(|c| u32::from(seen_picks.bytes[c]))
            } else {
                // A deal group's counts stay under 2^32 ([`LaneFolder::takes`]).
                std::array::from_fn(|c| seen_picks.get(c) as u32)
            };
            let top = largest(&card_seen_picks).max(largest(taken)).max(largest(taken_pick)).max(255);
            if cards.touched != 0 {
                if cards.counts_in_bytes() && top <= LARGEST {
                    cards.sums.make_room(top, &mut cards.totals);
                    cards.add_to_sums(&card_seen_picks, taken, taken_pick, Some(taken_pick_sq));
                } else {
                    for c in bits(cards.touched) {
                        let v = cards.values(c, seen_picks.get(c), u64::from(taken[c]), u64::from(taken_pick[c]));
                        let totals = &mut cards.totals[c];
                        // SAFETY: this copy runs only where AVX-512 runs, as its callers check.
                        unsafe { totals.add_vectors(&v) };
                        totals.counts.taken_pick_sq += std::mem::take(&mut taken_pick_sq[c]);
                    }
                }
            }
            // A group's sightings and takes are its cards'.
            for (pooling, block) in self.poolings.iter().zip(groups.iter_mut()) {
                if block.touched == 0 {
                    continue;
                }
                let pooled = if let Some(pooled) = pooling.sum_whole([&card_seen_picks, taken, taken_pick]) {
                    pooled
                } else {
                    let mut pooled = [[0u32; LANES]; 3];
                    for g in bits(block.touched) {
                        // Summed in registers and stored once: added in place, each card's
                        // sums waited for the last card's stores.
                        let mut sum = [0u32; 3];
                        for c in bits(pooling.cards_of[g]) {
                            // Under 2^32 ([`LaneFolder::takes`]).
                            sum[0] = sum[0].wrapping_add(card_seen_picks[c]);
                            sum[1] = sum[1].wrapping_add(taken[c]);
                            sum[2] = sum[2].wrapping_add(taken_pick[c]);
                        }
                        for (pooled, sum) in pooled.iter_mut().zip(sum) {
                            pooled[g] = sum;
                        }
                    }
                    pooled
                };
                let top = largest(&pooled[0]).max(largest(&pooled[1])).max(largest(&pooled[2])).max(255);
                if block.counts_in_bytes() && top <= LARGEST {
                    block.sums.make_room(top, &mut block.totals);
                    block.add_to_sums(&pooled[0], &pooled[1], &pooled[2], None);
                } else {
                    for g in bits(block.touched) {
                        let (sp, tk, tp) = (pooled[0][g], pooled[1][g], pooled[2][g]);
                        let v = block.values(g, u64::from(sp), u64::from(tk), u64::from(tp));
                        // SAFETY: as above.
                        unsafe { block.totals[g].add_vectors(&v) };
                    }
                }
                block.clear_group();
            }
            *taken = [0; LANES];
            *taken_pick = [0; LANES];
            cards.clear_group();
            seen_picks.clear();
            *seen_picks_room = Room::new();
        }
        self.group_bound = 0;
    }

    /// Ends a deal group that the event folder finishes: its counts go there.
    fn end_group_into(&mut self, events: &mut EventFolder) {
        self.close_group(|x, id, v, _| events.add_to_group(x, id, v));
    }

    /// Hands the totals to `cells` and `sums`, and clears them.
    fn flush(&mut self, cells: &mut [CardCounts], sums: &mut [CardGroupSums]) {
        let n = self.ids;
        for (x, lanes) in self.strategies.iter_mut().enumerate() {
            for block in &mut lanes.blocks {
                block.move_squares();
                block.sums.settle(&mut block.totals);
            }
            let (cards, groups) = lanes.blocks.split_first_mut().expect("a block of cards");
            // A group's squares of picks taken are its cards'.
            for (pooling, block) in self.poolings.iter().zip(groups.iter_mut()) {
                for (g, totals) in block.totals.iter_mut().enumerate() {
                    totals.counts.taken_pick_sq +=
                        bits(pooling.cards_of[g]).map(|c| cards.totals[c].counts.taken_pick_sq).sum::<u64>();
                }
            }
            let ids = std::iter::once(0).chain(self.poolings.iter().map(|p| p.first_id));
            for (block, first) in lanes.blocks.iter_mut().zip(ids) {
                for (lane, totals) in block.totals.iter_mut().enumerate() {
                    let at = x * n + first + lane;
                    std::mem::take(totals).hand_over(&mut cells[at], &mut sums[at]);
                }
            }
        }
        self.moment_room = u64::MAX;
    }
}

#[cfg(test)]
mod tests {
    use super::super::SHARE_UNIT;
    use super::super::cards::{CrossSums, PICKS_PER_SEAT};
    use super::*;
    use crate::sim::CardGroup;

    /// Folds `units` (each a log and its seats' shares) into deal groups of `per` units
    /// with `folder`, drained every seventh group and at the end, and returns the tally's
    /// cells and sums.
    fn fold_all(
        mut folder: CardFolder,
        catalog: &CardCatalog,
        strategies: usize,
        strategy_at: &[usize],
        units: &[(CardLog, Vec<u32>)],
        per: usize,
    ) -> (Vec<CardCounts>, Vec<CardGroupSums>) {
        let n = catalog.ids();
        let mut cells = vec![CardCounts::default(); strategies * n];
        let mut sums = vec![CardGroupSums::default(); strategies * n];
        for (g, group) in units.chunks(per).enumerate() {
            for (log, share) in group {
                folder.fold(log, strategy_at, share);
            }
            folder.end_group();
            // Drained now and then, as a run drains each batch's folders.
            if g % 7 == 6 {
                folder.drain_into(&mut cells, &mut sums);
            }
        }
        folder.drain_into(&mut cells, &mut sums);
        (cells, sums)
    }

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
        let n = catalog.ids();
        let once = vec![(log.clone(), vec![SHARE_UNIT, 0])];
        let three = vec![(log.clone(), vec![SHARE_UNIT, 0]); 3];
        for lanes in [true, false] {
            let folder = || {
                if lanes { CardFolder::new(&catalog, 2, 2) } else { CardFolder::events_only(&catalog, 2, 2) }
            };
            assert_eq!(folder().lanes.is_some(), lanes);
            let (cells, sums) = fold_all(folder(), &catalog, 2, &[0, 1], &once, 1);
            let c1 = &cells[1];
            assert_eq!(
                (c1.seen, c1.taken, c1.taken_pick, c1.in_hand, c1.in_hand_share),
                (1, 1, 1, 1, SHARE_UNIT as u64)
            );
            let c2 = &cells[2];
            assert_eq!((c2.seen, c2.passed, c2.passed_share, c2.last_seen), (1, 1, SHARE_UNIT as u64, 1));
            let d2 = &cells[n + 2];
            assert_eq!(
                (d2.seen, d2.taken, d2.taken_pick, d2.last_seen, d2.in_hand, d2.in_hand_share),
                (1, 1, 2, 2, 1, 0)
            );
            // The pooled group counts each seat-unit once: seat 0 saw two cards and kept one.
            let g0 = &cells[3];
            assert_eq!((g0.seen, g0.seen_picks, g0.taken, g0.in_hand, g0.passed), (1, 2, 1, 1, 0));
            // One group: its sums are the counts, squared where they should be.
            assert_eq!((sums[3].take.groups, sums[3].take.a, sums[3].take.b, sums[3].take.b2), (1, 1, 2, 4));
            assert_eq!(sums[1].in_hand.ab, i128::from(SHARE_UNIT));
            // The scratch is reset: the same unit once in a group, then twice in the next,
            // and the group's sums see a group of single counts and one of doubled counts.
            let (cells, sums) = fold_all(folder(), &catalog, 2, &[0, 1], &three, 2);
            assert_eq!(cells[n + 2].in_hand, 3);
            assert_eq!(cells[2].passed, 3);
            assert_eq!(cells[3].seen, 3);
            let take = &sums[3].take;
            assert_eq!((take.groups, take.a, take.a2, take.b, take.b2, take.ab), (2, 3, 4 + 1, 6, 16 + 4, 8 + 2));
            assert_eq!(sums[2].cross, CrossSums::default(), "card c was never in hand");
        }
    }

    /// A small deterministic generator for the logs below.
    struct Xorshift(u64);

    impl Xorshift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// A catalog of `cards` cards pooled by lane modulo 16 (lanes 13 to 15 in no group)
    /// and by an irregular rule (every third card in none).
    fn pooled_catalog(cards: usize) -> CardCatalog {
        let strided = (0..cards).map(|c| (c % 16 < 13).then_some((c % 16) as u16)).collect();
        let listed = (0..cards).map(|c| (c % 3 != 0).then_some(((c * 7) % 5) as u16)).collect();
        let group = |level: &str, groups: usize, of_card: Vec<Option<u16>>| CardGroup {
            level: level.into(),
            names: (0..groups).map(|g| g.to_string()).collect(),
            of_card,
        };
        CardCatalog {
            names: (0..cards).map(|c| format!("card {c}")).collect(),
            groups: vec![
                group("rank", 13, strided),
                group("odd", 5, listed),
                // Folded by the other strides: lane modulo 8, 4 and 2, every card in one
                // group, and each card its own group (modulo 32 or 64).
                group("eighth", 8, (0..cards).map(|c| Some((c % 8) as u16)).collect()),
                group("quarter", 4, (0..cards).map(|c| Some((c % 4) as u16)).collect()),
                group("parity", 2, (0..cards).map(|c| Some((c % 2) as u16)).collect()),
                group("all", 1, vec![Some(0); cards]),
                group("self", cards, (0..cards).map(|c| Some(c as u16)).collect()),
            ],
        }
    }

    /// Random units: packs chosen from and taken at mostly rising picks (some falling,
    /// some 0), single sightings and takes, kept cards, ids past the catalog and seats
    /// past the table, and the odd unit with a pick over 255.
    fn random_units(rng: &mut Xorshift, units: usize, seats: usize) -> Vec<(CardLog, Vec<u32>)> {
        (0..units)
            .map(|u| {
                let mut log = CardLog::default();
                log.set_on(true);
                for pick in 1..=rng.below(9) as usize {
                    for seat in 0..=seats {
                        let pick = match rng.below(12) {
                            0 => 0,
                            1 => pick / 2,
                            2 if u % 7 == 3 => 300,
                            _ => pick,
                        };
                        let pack = rng.next() & rng.next();
                        let card = match rng.below(10) {
                            0 => 70,
                            _ => rng.below(64) as u16,
                        };
                        match rng.below(6) {
                            0 => log.seen(seat, card, pick),
                            1 => log.taken(seat, card, pick),
                            _ => log.picked_from(seat, pack, card, pick),
                        }
                        if rng.below(3) == 0 {
                            log.kept(seat, if rng.below(8) == 0 { 70 } else { card });
                        }
                    }
                }
                let share =
                    (0..seats).map(|_| [0, 0, SHARE_UNIT, SHARE_UNIT / 2, 1680][rng.below(5) as usize]).collect();
                (log, share)
            })
            .collect()
    }

    #[test]
    fn the_lanes_count_what_the_events_count() {
        let mut rng = Xorshift(0x9E37_79B9_7F4A_7C15);
        let strategy_at = [0, 2, 1, 0, 2];
        for cards in [64, 20, 3] {
            let catalog = pooled_catalog(cards);
            let folder = CardFolder::new(&catalog, 5, 3);
            let lanes = folder.lanes.as_ref().expect("the lanes take at most 64 cards");
            if cards == 64 {
                let strides: Vec<_> = lanes.poolings.iter().map(|p| p.stride).collect();
                assert_eq!(
                    strides,
                    [Some(16), None, Some(8), Some(4), Some(2), Some(1), Some(64)],
                    "every way of folding is tried"
                );
            }
            // Deal groups of 40 units spill counts past a byte, which the close takes lane by
            // lane.
            for per in [1, 3, 5, 40] {
                let units = random_units(&mut rng, 60, strategy_at.len());
                let events = fold_all(CardFolder::events_only(&catalog, 5, 3), &catalog, 3, &strategy_at, &units, per);
                // Each compiled copy of the lanes this processor runs.
                for isa in Isa::available() {
                    let folder = CardFolder::with_isa(&catalog, 5, 3, isa);
                    let lanes = fold_all(folder, &catalog, 3, &strategy_at, &units, per);
                    assert!(lanes.0.iter().any(|c| c.passed_share > 0 && c.last_seen_sq > 0), "the units count");
                    assert_eq!(lanes, events, "{cards} cards, deal groups of {per}, {isa:?}");
                }
            }
        }
    }

    /// Folds `units` in deal groups of `per` with the events and with each compiled copy of
    /// the lanes, and checks that they agree.
    fn assert_lanes_match_events(
        catalog: &CardCatalog,
        strategy_at: &[usize],
        units: &[(CardLog, Vec<u32>)],
        per: usize,
    ) {
        let seats = strategy_at.len();
        let events = fold_all(CardFolder::events_only(catalog, seats, 1), catalog, 1, strategy_at, units, per);
        for isa in Isa::available() {
            let lanes = fold_all(CardFolder::with_isa(catalog, seats, 1, isa), catalog, 1, strategy_at, units, per);
            assert_eq!(lanes, events, "deal groups of {per}, {isa:?}");
        }
    }

    #[test]
    fn large_deal_groups_move_their_sums_early_or_go_lane_by_lane() {
        let catalog = pooled_catalog(64);
        // A unit in which seat 0 takes card 5 at pick `pick`, 150 times.
        let unit = |pick: usize| {
            let mut log = CardLog::default();
            log.set_on(true);
            for _ in 0..150 {
                log.taken(0, 5, pick);
            }
            log.picked_from(1, 0b110, 1, 3);
            (log, vec![SHARE_UNIT, 0])
        };
        // Deal groups of two units: picks taken sum to 60,000 per group, whose square
        // leaves the 32-bit sums room for one group, so each next group moves them to the
        // totals first; at pick 250 they sum past 2^16, and the group goes lane by lane.
        let units: Vec<_> = [200, 200, 200, 200, 200, 200, 250, 250, 200, 200].into_iter().map(unit).collect();
        assert_lanes_match_events(&catalog, &[0, 0], &units, 2);
        let folder = || CardFolder::new(&catalog, 2, 1);
        let (cells, sums) = fold_all(folder(), &catalog, 1, &[0, 0], &units, 2);
        assert_eq!((cells[5].taken, cells[5].taken_pick), (1500, 150 * (8 * 200 + 2 * 250)));
        assert_eq!(sums[5].ata.a2, 4 * 60_000u128.pow(2) + 75_000u128.pow(2));
    }

    #[test]
    fn sightings_past_a_byte_in_a_deal_group_spill() {
        let catalog = pooled_catalog(64);
        // Seat 0 chooses 30 times from packs holding card 3, seat 1 once: in deal groups of
        // ten units, card 3's sightings reach 300 and must spill out of their byte.
        let mut log = CardLog::default();
        log.set_on(true);
        for pick in 1..=30 {
            log.picked_from(0, 0b1000 | 1 << (pick + 8), (pick + 8) as u16, pick);
        }
        log.picked_from(1, 0b1001, 0, 1);
        let units = vec![(log, vec![SHARE_UNIT, 0]); 20];
        assert_lanes_match_events(&catalog, &[0, 0], &units, 10);
        let (cells, _) = fold_all(CardFolder::new(&catalog, 2, 1), &catalog, 1, &[0, 0], &units, 10);
        assert_eq!(cells[3].seen_picks, 20 * 31);
    }

    #[test]
    fn picks_past_a_seat_s_row_are_logged_as_events() {
        let catalog = pooled_catalog(64);
        let mut log = CardLog::default();
        log.set_on(true);
        for pick in 1..=40 {
            log.picked_from(0, 0b1110 << (pick % 7), (pick % 50) as u16, pick);
            log.picked_from(1, 0b11, 1, pick);
        }
        assert_eq!((log.seat_picks(0).len(), log.events.len(), log.len()), (PICKS_PER_SEAT, 16, 80));
        // Rows past their counts are stale, not logged: a cleared log that logs the same
        // picks equals a new one.
        let mut reused = log.clone();
        reused.clear();
        let mut fresh = CardLog::default();
        fresh.set_on(true);
        for log in [&mut reused, &mut fresh] {
            log.picked_from(2, 0b101, 0, 1);
        }
        assert_eq!(reused, fresh);
        assert_ne!(reused, log);
        let units = vec![(log, vec![0, SHARE_UNIT, 0]), (fresh, vec![SHARE_UNIT, 0, 0])];
        assert_lanes_match_events(&catalog, &[0, 0, 0], &units, 2);
    }

    #[test]
    fn a_unit_with_a_pick_over_255_goes_to_the_events_and_its_group_with_it() {
        let catalog = pooled_catalog(64);
        let mut folder = CardFolder::new(&catalog, 2, 1);
        let mut log = CardLog::default();
        log.set_on(true);
        log.picked_from(0, 0b1011, 1, 2);
        folder.fold(&log, &[0, 0], &[SHARE_UNIT, 0]);
        assert!(!folder.events_in_group);
        log.clear();
        log.picked_from(1, 0b11, 1, 256);
        folder.fold(&log, &[0, 0], &[SHARE_UNIT, 0]);
        assert!(folder.events_in_group);
        let n = catalog.ids();
        let (mut cells, mut sums) = (vec![CardCounts::default(); n], vec![CardGroupSums::default(); n]);
        folder.end_group();
        folder.drain_into(&mut cells, &mut sums);
        // Card 1: seen and taken by a seat in each unit, one deal group of both.
        assert_eq!((cells[1].seen, cells[1].taken, sums[1].take.groups, sums[1].take.a2), (2, 2, 1, 4));
        assert_eq!((cells[0].seen, cells[0].last_seen, cells[0].last_seen_sq), (2, 256 + 2, 256 * 256 + 4));
    }
}
