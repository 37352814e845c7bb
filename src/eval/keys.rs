//! The keys of the table evaluator and their perfect hashes: plain code with no crate
//! imports, shared with `build.rs`, which computes the row displacements once at build time
//! (a first-fit search of a few hundred million steps) so no run pays for them.
#![allow(dead_code)] // build.rs and the library each use part of this.

/// Per-rank multipliers from OMPEval (zekyll, MIT): the sums of any multiset of at most
/// seven ranks, each at most four times, are distinct (the hash build asserts it).
pub const RANK_KEYS: [u32; 13] = [
    0x2000, 0x8001, 0x11000, 0x3a000, 0x91000, 0x176005, 0x366000, 0x41a013, 0x47802e, 0x479068, 0x48c0e4, 0x48f211,
    0x494493,
];

/// Most cards the table path ranks.
pub const MAX_TABLE_CARDS: u32 = 7;

/// Low bits of a key that pick the column within a row of the hash.
pub const ROW_SHIFT: u32 = 12;

/// Rows of the hash, a power of two: every key is below `ROWS << ROW_SHIFT`.
pub const ROWS: usize = 1 << 14;

/// Slots of the value table; a power of two so a slot is a mask, not a modulo.
pub const SLOTS: usize = 1 << 17;

/// Flush keys are this plus the suit's 13-bit pattern, above every rank key of seven
/// cards or fewer (the largest is 0x1ffe87f).
pub const FLUSH_KEY_BASE: u32 = 1 << 25;

/// Low bits of a wild key that pick the column within a row of the wild hash.
pub const WILD_ROW_SHIFT: u32 = 14;

/// Rows of the wild hash: a wild key is below `4 << 25`, so `WILD_ROWS << WILD_ROW_SHIFT`.
pub const WILD_ROWS: usize = 1 << 13;

/// Slots of the wild value table.
pub const WILD_SLOTS: usize = 1 << 16;

/// Most wild cards the wild tables cover (with five or more the hand is five aces).
pub const MAX_TABLE_WILDS: u32 = 4;

/// The key of naturals with this rank key and `wilds` wild cards (1 to 4): one band of
/// 2^25 keys per number of wilds.
#[inline(always)]
pub fn wild_key(rank_key: u32, wilds: u32) -> u32 {
    rank_key + ((wilds - 1) << 25)
}

/// The rank key of a multiset given as counts per rank.
pub fn rank_key(counts: &[u8; 13]) -> u32 {
    counts.iter().zip(RANK_KEYS).fold(0u32, |key, (&n, k)| key.wrapping_add(k.wrapping_mul(n as u32)))
}

/// Every rank multiset of at most seven cards (each rank at most four times), as counts.
pub fn rank_multisets() -> Vec<[u8; 13]> {
    fn go(from: usize, cards: u32, counts: &mut [u8; 13], out: &mut Vec<[u8; 13]>) {
        if from == 13 {
            out.push(*counts);
            return;
        }
        for n in 0..=4u8.min((MAX_TABLE_CARDS - cards) as u8) {
            counts[from] = n;
            go(from + 1, cards + n as u32, counts, out);
        }
        counts[from] = 0;
    }
    let mut out = Vec::with_capacity(77_000);
    go(0, 0, &mut [0; 13], &mut out);
    out
}

/// Every flush pattern of five to seven cards of one suit, as a 13-bit mask.
pub fn flush_patterns() -> impl Iterator<Item = u32> {
    (0..1u32 << 13).filter(|p| (5..=MAX_TABLE_CARDS).contains(&p.count_ones()))
}

/// The main hash's keys: every rank multiset's, then every flush pattern's.
pub fn main_keys(multisets: &[[u8; 13]]) -> Vec<u32> {
    let keys: Vec<u32> = multisets.iter().map(rank_key).collect();
    assert!(keys.iter().all(|&k| k < FLUSH_KEY_BASE), "rank keys stay below the flush keys");
    keys.into_iter().chain(flush_patterns().map(|p| FLUSH_KEY_BASE + p)).collect()
}

/// The wild hash's keys with their multiset index and number of wilds: for 1 to 4 wilds,
/// every multiset that leaves room for them within seven cards.
pub fn wild_keys(multisets: &[[u8; 13]]) -> Vec<(u32, usize, u32)> {
    (1..=MAX_TABLE_WILDS)
        .flat_map(|w| {
            multisets.iter().enumerate().filter_map(move |(i, counts)| {
                let cards: u32 = counts.iter().map(|&n| n as u32).sum();
                (cards + w <= MAX_TABLE_CARDS).then(|| (wild_key(rank_key(counts), w), i, w))
            })
        })
        .collect()
}

/// A key's slot under a displacement table.
#[inline(always)]
pub fn slot(key: u32, offsets: &[u32], row_shift: u32, slots: usize) -> usize {
    key.wrapping_add(offsets[(key >> row_shift) as usize & (offsets.len() - 1)]) as usize & (slots - 1)
}

/// A row-displacement perfect hash of distinct keys (rs_poker's build): densest rows
/// first, each at the first displacement where all its keys land on free slots. Returns
/// each row's displacement; panics if two keys are equal.
pub fn displace(keys: &[u32], row_shift: u32, rows: usize, slots: usize) -> Vec<u32> {
    let mut by_row: Vec<Vec<u32>> = vec![Vec::new(); rows];
    for &key in keys {
        by_row[(key >> row_shift) as usize].push(key);
    }
    let mut order: Vec<usize> = (0..rows).filter(|&r| !by_row[r].is_empty()).collect();
    order.sort_by_key(|&r| std::cmp::Reverse(by_row[r].len()));
    let mut used = vec![false; slots];
    let mut offsets = vec![0u32; rows];
    for row in order {
        let keys = &by_row[row];
        let wrap = |key: u32, off: u32| key.wrapping_add(off) as usize & (slots - 1);
        let offset = (0..slots as u32)
            .find(|&off| keys.iter().all(|&k| !used[wrap(k, off)]))
            .expect("the value table has room for every key");
        for &k in keys {
            assert!(!std::mem::replace(&mut used[wrap(k, offset)], true), "keys are distinct");
        }
        offsets[row] = offset;
    }
    offsets
}
