//! The folder for catalogs of at most 64 cards: a card is a byte lane and a set of cards
//! a 64-bit mask (see the module above). The code here is portable; `x86_64` holds the
//! vector copies it calls where the processor has them.

use super::events::EventFolder;
use super::{GroupValues, Isa, bits};
use crate::sim::MAX_SEATS;
use crate::sim::cards::{Action, CardCatalog, CardCounts, CardGroupSums, CardLog, SeatPick};
use crate::sim::tally::RatioSums;

#[cfg(target_arch = "x86_64")]
mod x86_64;
#[cfg(target_arch = "x86_64")]
use x86_64::fold_last_stride;
#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
use x86_64::spread;

/// Lanes per mask: one per card id under 64, or per group of a pooling.
const LANES: usize = 64;

/// A byte per lane.
type Bytes = [u8; LANES];

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

    #[inline(always)]
    fn get(&self, lane: usize) -> u64 {
        u64::from(self.bytes[lane]) + self.spill.get(lane).copied().unwrap_or(0)
    }

    fn clear(&mut self) {
        self.bytes = [0; LANES];
        self.spill.clear();
    }
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
pub(super) struct LaneFolder {
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
    pub(super) isa: Isa,
}

impl LaneFolder {
    /// Each pooling's stride, where its groups are the lanes modulo one (for tests).
    #[cfg(test)]
    pub(super) fn pooling_strides(&self) -> Vec<Option<usize>> {
        self.poolings.iter().map(|p| p.stride).collect()
    }

    pub(super) fn new(catalog: &CardCatalog, strategies: usize) -> Option<LaneFolder> {
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
            isa: Isa::chosen(),
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
    pub(super) fn takes(&self, log: &CardLog, strategy_at: &[usize], share: &[u32]) -> Option<u64> {
        let bound = Self::unit_bound(log, share);
        (log.max_pick <= u32::from(u8::MAX)
            && log.len() <= usize::from(u8::MAX)
            && strategy_at.len() <= MAX_SEATS
            && self.group_bound.saturating_add(bound) <= u64::from(u32::MAX))
        .then_some(bound)
    }

    /// Folds a unit that [`takes`](Self::takes) gave `bound`.
    pub(super) fn fold(&mut self, log: &CardLog, strategy_at: &[usize], share: &[u32], bound: u64) {
        self.group_bound += bound;
        match self.isa {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Isa::detect` saw this processor run AVX-512.
            Isa::Avx512 => unsafe { self.fold_avx512(log, strategy_at, share) },
            _ => self.fold_lanes::<false>(log, strategy_at, share),
        }
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
    pub(super) fn end_group(&mut self, cells: &mut [CardCounts], sums: &mut [CardGroupSums]) {
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

    /// Ends a deal group that the event folder finishes: its counts go there.
    pub(super) fn end_group_into(&mut self, events: &mut EventFolder) {
        self.close_group(|x, id, v, _| events.add_to_group(x, id, v));
    }

    /// Hands the totals to `cells` and `sums`, and clears them.
    pub(super) fn flush(&mut self, cells: &mut [CardCounts], sums: &mut [CardGroupSums]) {
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
