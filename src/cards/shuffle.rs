//! Shuffles that give exactly `rand` 0.9's results, faster.
//!
//! `rand`'s `partial_shuffle` draws one 32-bit number for several swaps and takes each
//! swap's index out of it by dividing by the next slice length: 28 dependent hardware
//! divisions for a four-seat Seven Card Draft deal, 10% of a random-bot round. Here each
//! division by a small length is a multiplication by its reciprocal (Lemire, Kaser and
//! Kurz, "Faster remainder by direct computation", 2019: exact for every 32-bit
//! dividend), and each chunk's bound comes from a table. Every deal, and so every
//! committed figure, stays as it was; a test checks that against `rand` itself.

use rand::RngCore;

/// Slices up to this long take the fast path; longer ones go to `rand` itself.
const FAST_LEN: usize = 256;

/// `ceil(2^64 / d)` for each divisor `d` of the fast path (0 where unused).
static RECIPROCALS: [u64; FAST_LEN + 1] = {
    let mut table = [0u64; FAST_LEN + 1];
    let mut d = 2;
    while d <= FAST_LEN {
        table[d] = u64::MAX / d as u64 + 1;
        d += 1;
    }
    table
};

/// For each `m`, `rand`'s chunk: the product `m (m + 1) ... (m + count - 1)` that still
/// fits in 32 bits, and `count`.
static CHUNKS: [(u32, u8); FAST_LEN + 1] = {
    let mut table = [(0u32, 0u8); FAST_LEN + 1];
    let mut m = 1;
    while m <= FAST_LEN {
        let mut product = m as u32;
        let mut current = m as u32 + 1;
        while let Some(p) = product.checked_mul(current) {
            product = p;
            current += 1;
        }
        table[m] = (product, (current - m as u32) as u8);
        m += 1;
    }
    table
};

/// `x / d` for `2 <= d <= FAST_LEN`, by multiplication.
#[inline(always)]
fn divide(x: u32, d: u32) -> u32 {
    ((u128::from(RECIPROCALS[d as usize]) * u128::from(x)) >> 64) as u32
}

/// A number below `bound` exactly as `rand` 0.9's `random_range(..bound)` draws it for
/// `u32` (Canon's method, one extra draw when the first may be biased).
#[inline(always)]
fn below<R: RngCore + ?Sized>(rng: &mut R, bound: u32) -> u32 {
    let wide = u64::from(rng.next_u32()) * u64::from(bound);
    let (mut result, low) = ((wide >> 32) as u32, wide as u32);
    if low > bound.wrapping_neg() {
        let high = ((u64::from(rng.next_u32()) * u64::from(bound)) >> 32) as u32;
        result += u32::from(low.checked_add(high).is_none());
    }
    result
}

/// `rand::seq::SliceRandom::partial_shuffle`, with the same result for the same generator
/// state: the last `amount` items (returned first) are a uniform random selection in
/// random order, the rest (returned second) what is left.
#[inline]
pub fn partial_shuffle<'a, T, R: RngCore + ?Sized>(
    items: &'a mut [T],
    rng: &mut R,
    amount: usize,
) -> (&'a mut [T], &'a mut [T]) {
    let len = items.len();
    if len > FAST_LEN {
        return rand::seq::SliceRandom::partial_shuffle(items, rng, amount);
    }
    let m = len.saturating_sub(amount);
    // `rand`'s increasing uniform: `chunk` holds the indices still to be taken from the
    // last draw, `left` how many.
    let mut n = m as u32;
    let mut chunk = 0u32;
    let mut left: u8 = u8::from(n == 0);
    for i in m..len {
        let next_n = n + 1;
        let next_left = match left.checked_sub(1) {
            Some(l) => l,
            None => {
                let (bound, count) = CHUNKS[next_n as usize];
                chunk = below(rng, bound);
                count - 1
            }
        };
        let index = if next_left == 0 {
            chunk
        } else {
            let quotient = divide(chunk, next_n);
            let rest = chunk - quotient * next_n;
            chunk = quotient;
            rest
        };
        left = next_left;
        n = next_n;
        items.swap(i, index as usize);
    }
    let (rest, chosen) = items.split_at_mut(m);
    (chosen, rest)
}

/// `rand::seq::SliceRandom::shuffle`, with the same result for the same generator state.
#[inline]
pub fn shuffle<T, R: RngCore + ?Sized>(items: &mut [T], rng: &mut R) {
    if items.len() > 1 {
        let len = items.len();
        partial_shuffle(items, rng, len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    use rand_xoshiro::{Xoshiro256Plus, Xoshiro256PlusPlus};

    #[test]
    fn reciprocals_divide_exactly() {
        for d in 2..=FAST_LEN as u32 {
            for x in [0, 1, d - 1, d, d + 1, u32::MAX / d * d, u32::MAX - 1, u32::MAX] {
                assert_eq!(divide(x, d), x / d, "{x} / {d}");
            }
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        for _ in 0..1_000_000 {
            let (x, d) = (rng.next_u32(), 2 + rng.next_u32() % (FAST_LEN as u32 - 1));
            assert_eq!(divide(x, d), x / d, "{x} / {d}");
        }
    }

    #[test]
    fn same_deals_as_rand() {
        let mut sizes = Xoshiro256Plus::seed_from_u64(7);
        for seed in 0..20_000u64 {
            let len = match seed % 4 {
                0 => 52,
                1 => 36,
                _ => 1 + (sizes.next_u32() as usize % (FAST_LEN + 40)),
            };
            let amount = sizes.next_u32() as usize % (len + 3);
            let mut ours: Vec<u16> = (0..len as u16).collect();
            let mut theirs = ours.clone();
            let mut ours_rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut theirs_rng = ours_rng.clone();
            let (a, b) = partial_shuffle(&mut ours, &mut ours_rng, amount);
            let (c, d) = theirs.partial_shuffle(&mut theirs_rng, amount);
            assert_eq!((&*a, &*b), (&*c, &*d), "len {len}, amount {amount}, seed {seed}");
            assert_eq!(ours, theirs);
            assert_eq!(ours_rng.next_u64(), theirs_rng.next_u64(), "the generators end in the same state");
            shuffle(&mut ours, &mut ours_rng);
            theirs.shuffle(&mut theirs_rng);
            assert_eq!(ours, theirs, "whole shuffle, len {len}, seed {seed}");
        }
    }
}
