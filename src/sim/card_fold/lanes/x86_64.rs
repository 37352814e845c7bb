//! The lane folder's copies for x86-64 vector instructions: the byte spreads and folds of
//! the baseline build (SSSE3 and SSE), and the AVX-512 copies of folding and group
//! closing that [`super::LaneFolder`] picks at run time. Each is the portable
//! code's twin over the same lanes, checked against the event folder by the tests.

use super::*;
use crate::sim::card_fold::GroupValues;
use std::arch::x86_64::__m512i;

/// A mask as bytes: 0xFF in the lanes it holds, 0 elsewhere. Each 16 lanes are two mask
/// bytes shuffled out to eight lanes apiece and compared against the lanes' bits: four
/// instructions per 16 lanes, about 20 in all, where a plain loop compiles to about 70.
#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
#[inline(always)]
pub(super) fn spread(mask: u64) -> Bytes {
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

/// Per group of lanes modulo `W`, the largest of the `grouped` lanes of `last`: four
/// 16-lane vectors folded onto each other in registers (folded through memory, each step
/// read back half of what it had just stored and waited for the store to land).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn fold_last_stride<const W: usize>(last: &Bytes, grouped: &Bytes, out: &mut Bytes) {
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

/// The largest of 64 lanes, in AVX-512 registers: folded as a plain iterator it compiled
/// to 64 scalar compares, 1.7% of a cards run's samples.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
#[inline]
pub(super) fn largest(a: &[u32; LANES]) -> u32 {
    use std::arch::x86_64::{__m512i, _mm512_loadu_si512, _mm512_max_epu32, _mm512_reduce_max_epu32};
    // SAFETY: four 16-lane loads inside the array, unaligned.
    let v: [__m512i; 4] =
        std::array::from_fn(|k| unsafe { _mm512_loadu_si512(a.as_ptr().add(16 * k).cast::<__m512i>()) });
    _mm512_reduce_max_epu32(_mm512_max_epu32(_mm512_max_epu32(v[0], v[1]), _mm512_max_epu32(v[2], v[3])))
}

impl Counter {
    /// [`add`](Self::add) from a register: the first `N` (16 or 64) byte lanes of `values`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    #[inline]
    pub(super) fn add_vector<const N: usize>(&mut self, values: std::arch::x86_64::__m512i) {
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
}

impl LaneTotals {
    /// [`add`](Self::add) with AVX-512: the group's terms in two registers, each word's two
    /// factors permuted out of them and multiplied 8 words at a time (every term is under
    /// 2^32, which [`LaneFolder::takes`] sees to, so 32-bit factors give exact products).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    #[inline]
    pub(super) unsafe fn add_vectors(&mut self, v: &GroupValues) {
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
}

impl Block {
    /// [`add_unit`](Self::add_unit) with AVX-512, the last picks in a register: stored and
    /// read back as an array, each seat's read waited for the store (a 64-byte store is not
    /// forwarded here), the fold's costliest instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    #[inline]
    pub(super) fn add_unit_vectors<const N: usize>(
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
    pub(super) fn add_shares_masked<const N: usize>(&mut self, kept: u64, passed: u64, share: u64) {
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

    /// Adds the deal group to [`Block::sums`], given the counts kept outside the block (each
    /// lane's, under 2^16, as its counters' bytes are) and, for card lanes, the squares of
    /// picks taken, which it clears with the win shares. Call
    /// [`LaneSums::make_room`] first.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    pub(super) fn add_to_sums(
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
}

impl Pooling {
    /// [`fold_last`](Self::fold_last) with AVX-512, from a register to a register: for strides
    /// of 16 and over, folded in registers; other poolings go through `out`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    #[inline]
    pub(super) fn fold_last_vector(&self, last: __m512i, seen: u64, out: &mut Bytes) -> __m512i {
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
    pub(super) fn sum_whole(&self, lanes: [&[u32; LANES]; 3]) -> Option<[[u32; LANES]; 3]> {
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

impl SeatLanes {
    /// [`fold_row`](Self::fold_row) with AVX-512: a pick's cards are a mask register, which
    /// counts and raises their lanes in one instruction each, the lanes held in registers
    /// (`fresh`: the seat's lanes are still [`SeatLanes::new`]'s). Returns the lanes'
    /// counts and last picks, which stay in registers: [`SeatLanes::count`] and
    /// [`SeatLanes::last`] are left as they were.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    #[inline]
    pub(super) fn fold_row_masked(
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
}

impl LaneFolder {
    /// [`fold_lanes`](Self::fold_lanes) compiled for AVX-512 in a function of its own, not
    /// in [`with_isa`]'s closure, which is compiled without AVX-512: there the compiler
    /// could not inline the AVX-512 seat-unit, a call that passed its vectors on the stack.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    pub(super) fn fold_avx512(&mut self, log: &CardLog, strategy_at: &[usize], share: &[u32]) {
        self.fold_lanes::<true>(log, strategy_at, share);
    }

    /// One seat's row and unit with AVX-512 (`kept`: lanes in use only; `fresh`: `unit` is
    /// still [`SeatLanes::new`]'s): its counts and last picks stay in registers from its row
    /// to its strategy's blocks.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn fold_seat_vectors(
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

    /// The AVX-512 copy of the group close: a block whose counts are under 2^16 is added to
    /// its [`LaneSums`] 16 lanes at a time, any other lane by lane, its totals as vectors.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
    pub(super) fn close_group_vectors(&mut self) {
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
}
