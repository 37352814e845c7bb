//! A strength estimate for partial hands: the expected percentile of the finished hand
//! among random hands of the deck, counting the picks still to come.
//!
//! The made hand gives a floor. Each pick still to come brings a pack whose possible cards
//! the seat can name: a pack it passed before holds what it left in it, less the cards the
//! seats in between take; a pack it has not seen holds cards from those it has not seen
//! anywhere. Each such pack is an [`Arrivals`] pool with the number of cards it will hold,
//! so the chance that it holds a card the hand wants is hypergeometric, and the chance of
//! completing a draw is the chance that enough of those packs do (a Poisson binomial).
//! Flushes, straights and pairing up (pair, two pair, trips, full house, quads) are the
//! draws; each adds its chance times what it lifts the hand above the floor.

use std::sync::{Arc, Mutex};

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::view::SeatView;
use crate::cards::{CardSet, Deck, Rank, Suit};
use crate::eval::{Category, Evaluator, HandValue};

/// Hands sampled to build a deck's percentile table: the percentiles carry a sampling
/// error of about 1/sqrt(this) (0.002).
const PERCENTILE_SAMPLES: usize = 1 << 18;

/// The percentile of every hand value of one deck: the share of random hands of the
/// finished size ranking below it, plus half the share ranking level with it, by category
/// and the top two tie-break ranks (so K-K-9-9 ranks above K-K-3-3).
#[derive(Debug)]
pub struct Percentiles {
    /// By (category << 8 | top slot << 4 | second slot).
    table: Box<[f32]>,
    /// Each category's middle percentile: the value of completing a draw to it.
    mid: [f32; 10],
}

impl Percentiles {
    /// The table for hands of `hand_size` cards of this deck, sampled once per deck shape
    /// and shared.
    pub fn of_deck(deck: &Deck, eval: &Evaluator, hand_size: usize) -> Arc<Percentiles> {
        type Key = (u16, bool, usize);
        static CACHE: Mutex<Vec<(Key, Arc<Percentiles>)>> = Mutex::new(Vec::new());
        let key = (deck.rank_mask, deck.flush_beats_full_house, hand_size);
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, p)) = cache.iter().find(|(k, _)| *k == key) {
            return p.clone();
        }
        let p = Arc::new(Percentiles::sample(deck, eval, hand_size));
        cache.push((key, p.clone()));
        p
    }

    /// Samples random hands with a fixed seed, so the table is the same in every run.
    fn sample(deck: &Deck, eval: &Evaluator, hand_size: usize) -> Percentiles {
        let mut cards = deck.card_list();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5EED_9E2C);
        // Counts by bucket, and each bucket's place in the deck's order of values.
        let mut counts = vec![0u32; 1 << 12];
        let mut order_key = vec![0u32; 1 << 12];
        for _ in 0..PERCENTILE_SAMPLES {
            let hand: CardSet =
                crate::cards::shuffle::partial_shuffle(&mut cards, &mut rng, hand_size).0.iter().copied().collect();
            let v = eval.eval(hand);
            counts[bucket(v)] += 1;
        }
        // A bucket's order: the category's place (bits 24-27 of any of its values), then
        // the two slots. Buckets never sampled still get their place, from a value built
        // the same way.
        let ordinal = |cat: usize| if cat < 10 { (eval_ordinal(eval, cat) << 8) as u32 } else { u32::MAX };
        for (b, key) in order_key.iter_mut().enumerate() {
            *key = ordinal(b >> 8).saturating_add((b & 0xff) as u32);
        }
        let mut by_order: Vec<usize> = (0..1 << 12).collect();
        by_order.sort_by_key(|&b| order_key[b]);
        let mut table = vec![0f32; 1 << 12].into_boxed_slice();
        let total = PERCENTILE_SAMPLES as f64;
        let mut below = 0u64;
        let mut cat_below = [f64::MAX; 10];
        let mut cat_count = [0u64; 10];
        for &b in &by_order {
            let c = u64::from(counts[b]);
            table[b] = ((below as f64 + c as f64 / 2.0) / total) as f32;
            if b >> 8 < 10 {
                cat_below[b >> 8] = cat_below[b >> 8].min(below as f64);
                cat_count[b >> 8] += c;
            }
            below += c;
        }
        let mid = std::array::from_fn(|cat| ((cat_below[cat] + cat_count[cat] as f64 / 2.0) / total).min(1.0) as f32);
        Percentiles { table, mid }
    }

    /// The percentile of a hand of this value (a partial hand's value is a floor).
    #[inline]
    pub fn of(&self, value: HandValue) -> f32 {
        self.table[bucket(value)]
    }

    /// The percentile of a hand of this category whose top two tie-break slots are these
    /// (rank + 1; 0 for none).
    #[inline]
    pub fn bucket(&self, cat: Category, top: u8, second: u8) -> f32 {
        self.table[(cat as usize) << 8 | usize::from(top & 15) << 4 | usize::from(second & 15)]
    }

    /// The middle percentile of a category: what completing a draw to it is worth.
    #[inline]
    pub fn mid(&self, cat: Category) -> f32 {
        self.mid[cat as usize]
    }
}

/// A value's bucket: its category and top two tie-break slots.
#[inline]
fn bucket(v: HandValue) -> usize {
    ((v.0 >> 12) & 0xfff) as usize
}

/// A category's place in the evaluator's order (a flush may rank above a full house).
fn eval_ordinal(eval: &Evaluator, cat: usize) -> usize {
    eval.category_place(Category::from_index(cat)) as usize
}

/// Most packs an estimate counts: picks still to come, and for an opponent also the
/// picks it made face down (a pack of at most 7 cards each).
pub const MAX_ARRIVALS: usize = 14;

/// The ordered ways to draw each count `a` (0 to 7) of `n` cards: n (n - 1) ... (n - a + 1),
/// in f64 so that both tables below round from the same exact value.
const fn falling_row(n: usize) -> [f64; 8] {
    let mut row = [0f64; 8];
    let mut a = 0;
    let mut v = 1.0f64;
    while a < 8 {
        row[a] = v;
        v *= if n >= a { (n - a) as f64 } else { 0.0 };
        a += 1;
    }
    row
}

/// Every `falling_row` for n from 0 to 64, or (`inverse`) their reciprocals where not zero.
const fn falling_table(inverse: bool) -> [[f32; 8]; 65] {
    let mut t = [[0f32; 8]; 65];
    let mut n = 0;
    while n < 65 {
        let row = falling_row(n);
        let mut a = 0;
        while a < 8 {
            t[n][a] = match (inverse, row[a] > 0.0) {
                (false, _) => row[a] as f32,
                (true, true) => (1.0 / row[a]) as f32,
                (true, false) => 0.0,
            };
            a += 1;
        }
        n += 1;
    }
    t
}

/// `FALLING[n][a]` = n (n - 1) ... (n - a + 1), the ordered ways to draw `a` of `n`.
static FALLING: [[f32; 8]; 65] = falling_table(false);

/// `1 / FALLING[n][a]` where it is not zero.
static INV_FALLING: [[f32; 8]; 65] = falling_table(true);

/// P(none of `s` marked cards among `a` drawn from `n`): hypergeometric, by two look-ups.
#[inline(always)]
pub fn none_drawn(n: u32, s: u32, a: u32) -> f32 {
    let (n, s, a) = (n.min(64) as usize, s.min(n) as usize, a.min(n).min(7) as usize);
    FALLING[n - s][a] * INV_FALLING[n][a]
}

/// P(at least `need` successes) over independent tries of these chances (a Poisson
/// binomial), for `need` up to 5.
#[inline]
fn at_least(q: &[f32], need: u32) -> f32 {
    let need = need as usize;
    if need == 0 {
        return 1.0;
    }
    if need > q.len() || need > 5 {
        return 0.0;
    }
    // dist[i]: P(exactly i successes so far), for i < need; the rest is done.
    let mut dist = [0f32; 5];
    dist[0] = 1.0;
    let mut done = 0.0;
    for &p in q {
        done += dist[need - 1] * p;
        for i in (1..need).rev() {
            dist[i] = dist[i] * (1.0 - p) + dist[i - 1] * p;
        }
        dist[0] *= 1.0 - p;
    }
    done
}

/// P(at least one success) and P(at least two) over independent tries of these chances.
#[inline]
fn one_and_two(q: &[f32]) -> (f32, f32) {
    let (mut none, mut one) = (1.0f32, 0.0f32);
    for &p in q {
        one = one * (1.0 - p) + none * p;
        none *= 1.0 - p;
    }
    (1.0 - none, 1.0 - none - one)
}

/// The packs still to reach a seat, in order: for each, the cards it may hold (a pool)
/// and how many it will hold when it arrives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Arrivals {
    pools: [CardSet; MAX_ARRIVALS],
    draws: [u8; MAX_ARRIVALS],
    len: u8,
}

impl Arrivals {
    /// Adds a pack of `cards` cards drawn from `pool` (ignored past [`MAX_ARRIVALS`]).
    pub fn push(&mut self, pool: CardSet, cards: u32) {
        if (self.len as usize) < MAX_ARRIVALS {
            self.pools[self.len as usize] = pool;
            self.draws[self.len as usize] = cards.min(7) as u8;
            self.len += 1;
        }
    }

    /// Number of packs.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Each pack as (pool, cards it will hold).
    pub fn iter(&self) -> impl Iterator<Item = (CardSet, u32)> + '_ {
        self.pools[..self.len()].iter().zip(&self.draws).map(|(&p, &d)| (p, u32::from(d)))
    }

    /// Whether no pack is to come.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The packs still to reach `view`'s seat after its current pick (or, while betting,
    /// after its last one), if nobody else folds.
    pub fn for_seat(view: &SeatView<'_>) -> Arrivals {
        let mut out = Arrivals::default();
        let pack_size = view.variant.rules.pack_size;
        let picking = view.betting.is_none();
        let others_up =
            (0..view.players).filter(|&s| s != view.seat).fold(CardSet::EMPTY, |a, s| a.union(view.face_up[s]));
        let unknown = view.variant.deck.cards.minus(view.seen).minus(others_up);
        let mut holder = view.seat;
        for j in 1..=view.picks_left() {
            // The pack now j seats behind, against the direction of play, arrives in j passes.
            holder = view.previous_seat(holder);
            let origin = view.memory.pack_of.get(holder).map_or(usize::MAX, |&o| o as usize);
            let pool = if holder == view.seat && picking {
                view.pack
            } else {
                match view.memory.left_in.get(origin) {
                    Some(&left) if !left.is_empty() => left,
                    _ => unknown,
                }
            };
            out.push(pool.minus(others_up), (pack_size + 1).saturating_sub(view.pick + j) as u32);
        }
        out
    }
}

/// What the estimate needs to know besides the hand.
#[derive(Clone, Copy, Debug)]
pub struct Outlook<'a> {
    /// The evaluator of the deck in play.
    pub eval: &'a Evaluator,
    /// The deck's percentiles.
    pub percentiles: &'a Percentiles,
    /// The deck's straights, highest first.
    pub straights: &'a [(u16, Rank)],
    /// Cards of the deck.
    pub deck: CardSet,
    /// The packs still to come.
    pub arrivals: Arrivals,
}

/// The cards of the deck with a rank in `ranks`.
#[inline(always)]
fn of_ranks(deck: CardSet, ranks: u16) -> CardSet {
    let m = u64::from(ranks);
    CardSet(deck.0 & (m | m << 16 | m << 32 | m << 48))
}

/// Expected percentile (0 to 1) of the finished hand, from `hand` (of which `wilds` cards
/// are wild, plus `future_wilds` promised at the last picks) and the packs to come.
pub fn estimate(o: &Outlook<'_>, hand: CardSet, wilds: CardSet, future_wilds: u32) -> f32 {
    let naturals = hand.minus(wilds);
    let k = o.arrivals.len();
    let fw = (future_wilds as usize).min(k);
    let w = wilds.len() + fw as u32;
    // Promised wilds are certain: they count in the floor.
    let floor = o.percentiles.of(o.eval.eval_wild(naturals, w));
    let kn = k - fw;
    if kn == 0 {
        return floor;
    }
    let suits = Suit::ALL.map(|suit| naturals.suit_mask(suit));
    // Flush: the suit held most (the first on a tie).
    let mut flush = (0u32, 0usize);
    for (i, m) in suits.iter().enumerate() {
        let held = m.count_ones();
        flush = if held > flush.0 { (held, i) } else { flush };
    }
    let flush_need = 5u32.saturating_sub(flush.0 + w);
    let flush_cards = CardSet(o.deck.0 & (0xFFFF << (16 * flush.1)));
    // Straight: the window of the deck's straights with most ranks held.
    let ranks = suits[0] | suits[1] | suits[2] | suits[3];
    let mut window = (0u32, 0u16);
    for &(s, _) in o.straights {
        let cover = (s & ranks).count_ones();
        window = if cover > window.0 { (cover, s & !ranks) } else { window };
    }
    let straight_need = 5u32.saturating_sub(window.0 + w);
    // Pairing: ranks held once (a card of one pairs it) and ranks held more (a card of one
    // lifts a pair to trips, trips to quads). A wild pairs the best single.
    let [a, b, c, d] = suits;
    let twice = (a & b) | (c & d) | ((a | b) & (c | d));
    let thrice = (a & b & (c | d)) | (c & d & (a | b));
    let mut singles = ranks & !twice;
    let mut multi = twice;
    let mut most = if thrice & (a & b & c & d) != 0 {
        4
    } else if thrice != 0 {
        3
    } else if twice != 0 {
        2
    } else {
        u32::from(ranks != 0)
    };
    let pairs = twice.count_ones();
    if w > 0 && multi == 0 && singles != 0 {
        let top = 1u16 << (15 - singles.leading_zeros());
        singles &= !top;
        multi |= top;
    }
    most += w;
    let single_cards = of_ranks(o.deck, singles);
    let multi_cards = of_ranks(o.deck, multi);
    let h = singles.count_ones();
    let ranks_in_deck = o.deck.rank_mask().count_ones().max(1);
    // Only draws that can still complete are worked out.
    let flush_live = flush_need > 0 && flush_need as usize <= kn;
    let straight_live = straight_need > 0 && straight_need as usize <= kn && window.1 != 0;
    // A straight needs each missing rank once: per missing rank (up to five), the chance
    // that no pack to come holds one (the ranks taken as independent).
    let mut rank_miss = [1f32; 5];
    let missing: [u16; 5] = std::array::from_fn(|i| {
        let mut m = window.1;
        for _ in 0..i {
            m &= m.wrapping_sub(1);
        }
        m & m.wrapping_neg()
    });
    let n_missing = window.1.count_ones().min(5) as usize;

    let rank_cards = missing.map(|r| of_ranks(o.deck, r));
    let window_cards = of_ranks(o.deck, window.1);
    // Growth of the pairing target per earlier pick, as a share of the singles' live cards
    // (or, with none held, of an average rank's share of the pool).
    let per_pick = if h > 0 { 1.0 / h as f32 } else { 1.0 / ranks_in_deck as f32 };
    let mut q = [[0f32; MAX_ARRIVALS]; 4];
    // Packs often come from the same pool (every unseen one does): their counts are kept.
    let mut last = CardSet(u64::MAX);
    let mut counts = [0u32; 10];
    // `j` is a pack's place in four parallel chance rows and in the pools: one index reads best.
    #[allow(clippy::needless_range_loop)]
    for j in 0..kn {
        let pool = o.arrivals.pools[j].minus(hand);
        if pool != last {
            last = pool;
            let of = |target: CardSet| pool.intersect(target).len();
            counts[0] = pool.len().min(64);
            counts[1] = if flush_live { of(flush_cards) } else { 0 };
            if straight_live {
                for (c, &cards) in counts[2..7].iter_mut().zip(&rank_cards).take(n_missing) {
                    *c = of(cards);
                }
                counts[7] = of(window_cards);
            }
            counts[8] = of(single_cards);
            counts[9] = of(multi_cards);
        }
        let n = counts[0] as usize;
        let draws = usize::from(o.arrivals.draws[j]).min(n).min(7);
        let inv = INV_FALLING[n][draws];
        let hit = |s: u32| 1.0 - FALLING[n - (s as usize).min(n)][draws] * inv;
        if flush_live {
            q[0][j] = hit(counts[1]);
        }
        if straight_live {
            for (miss, &c) in rank_miss.iter_mut().zip(&counts[2..7]).take(n_missing) {
                *miss *= 1.0 - hit(c);
            }
            q[1][j] = hit(counts[7]);
        }
        // Each earlier pick that pairs nothing adds a rank to pair: the target grows by an
        // average held rank's live cards per earlier pick.
        let live = counts[8] as f32;
        let base = if h > 0 { live } else { n as f32 };
        q[2][j] = hit((live + j as f32 * base * per_pick + 0.5) as u32);
        q[3][j] = hit(counts[9]);
    }
    let p_flush = if flush_live { at_least(&q[0][..kn], flush_need) } else { 0.0 };
    // Wilds stand in for the hardest ranks to get: the easiest `straight_need` count.
    let p_straight = if straight_live {
        let mut chances = rank_miss.map(|m| 1.0 - m);
        for i in 1..n_missing {
            let mut k = i;
            while k > 0 && chances[k - 1] < chances[k] {
                chances.swap(k - 1, k);
                k -= 1;
            }
        }
        // ... and one pick each: no more likely than that many packs holding one.
        chances[..straight_need as usize].iter().product::<f32>().min(at_least(&q[1][..kn], straight_need))
    } else {
        0.0
    };
    // Pairing up is worth what the ranks held make of it (a pair of aces is worth far more
    // than a pair of threes): the best and the worst way of it, averaged.
    let pct = o.percentiles;
    let top = |m: u16| if m == 0 { 0 } else { 16 - m.leading_zeros() as u8 };
    let low = |m: u16| if m == 0 { 0 } else { m.trailing_zeros() as u8 + 1 };
    let (hi1, lo1) = (top(singles), low(singles));
    let hi2 = top(singles & !(1u16 << hi1.saturating_sub(1)));
    let by_ranks = |cat: Category, best: (u8, u8), worst: (u8, u8)| {
        if best.0 == 0 {
            pct.mid(cat)
        } else {
            (pct.bucket(cat, best.0, best.1) + pct.bucket(cat, worst.0, worst.1)) / 2.0
        }
    };
    let paired = top(multi);
    let two = |r: u8| (paired.max(r), paired.min(r));
    let values = [
        by_ranks(Category::Pair, (hi1, hi2), (lo1, hi1)),
        by_ranks(Category::TwoPair, (hi1, hi2), (hi2.max(lo1), lo1)),
        by_ranks(Category::ThreeOfAKind, (paired, hi1), (paired, hi1)),
        if hi1 == 0 { pct.mid(Category::TwoPair) } else { by_ranks(Category::TwoPair, two(hi1), two(lo1)) },
        pct.mid(Category::FullHouse),
        pct.mid(Category::FourOfAKind),
    ];
    // The pairing draws over the first `m` packs to come.
    let pairing = |m: usize, draws: &mut [(f32, f32); 6], len: &mut usize| {
        let (pair_one, pair_two) = one_and_two(&q[2][..m]);
        let up = 1.0 - q[3][..m].iter().map(|p| 1.0 - p).product::<f32>();
        let mut add = |value: f32, p: f32| {
            draws[*len] = (value, p);
            *len += 1;
        };
        match most {
            0 | 1 => {
                add(values[0], pair_one);
                add(values[1], pair_two);
            }
            2 if pairs >= 2 => add(values[4], up),
            2 => {
                add(values[2], up);
                add(values[3], pair_one);
                add(values[4], up * pair_one);
            }
            3 => {
                add(values[5], up);
                add(values[4], pair_one);
            }
            _ => {}
        }
    };
    // The draws counted together, as if each pick could serve every one of them: a pick
    // that holds a suited card of a held rank does. (Taking the best single plan instead,
    // a chase plus pairing with the packs left, drafted hands 0.1 weaker in percentile.)
    let mut draws = [(0f32, 0f32); 6];
    draws[0] = (pct.mid(Category::Flush), p_flush);
    draws[1] = (pct.mid(Category::Straight), p_straight);
    let mut len = 2;
    pairing(kn, &mut draws, &mut len);
    combine(floor, &mut draws[..len])
}

/// The floor plus the draws (value if completed, chance), best first: each adds its chance
/// of the part of the mass still unimproved.
#[inline]
fn combine(floor: f32, draws: &mut [(f32, f32)]) -> f32 {
    // Best first: an insertion sort of at most six, inline.
    for i in 1..draws.len() {
        let mut k = i;
        while k > 0 && draws[k - 1].0 < draws[k].0 {
            draws.swap(k - 1, k);
            k -= 1;
        }
    }
    let mut est = floor;
    let mut rest = 1.0;
    for &(v, p) in draws.iter() {
        if v > floor {
            est += rest * p * (v - floor);
            rest *= 1.0 - p;
        }
    }
    est.min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::DeckPreset;

    fn set(text: &str) -> CardSet {
        CardSet::parse_list(text).unwrap().into_iter().collect()
    }

    fn standard() -> (Deck, Evaluator, Arc<Percentiles>) {
        let deck = DeckPreset::Standard52.deck();
        let eval = Evaluator::new(&deck);
        let pct = Percentiles::of_deck(&deck, &eval, 7);
        (deck, eval, pct)
    }

    #[test]
    fn hypergeometric_and_poisson_binomial_are_exact() {
        // P(no ace in 5 of 52) = C(48,5)/C(52,5).
        let want = (48.0 * 47.0 * 46.0 * 45.0 * 44.0) / (52.0 * 51.0 * 50.0 * 49.0 * 48.0);
        assert!((none_drawn(52, 4, 5) - want).abs() < 1e-6);
        assert_eq!(none_drawn(10, 10, 1), 0.0);
        assert_eq!(none_drawn(10, 0, 4), 1.0);
        // Two tries of 0.5 and 0.2: at least one 0.6, both 0.1.
        assert!((at_least(&[0.5, 0.2], 1) - 0.6).abs() < 1e-6);
        assert!((at_least(&[0.5, 0.2], 2) - 0.1).abs() < 1e-6);
        assert_eq!(at_least(&[0.5], 2), 0.0);
        assert_eq!(at_least(&[], 0), 1.0);
        let (one, two) = one_and_two(&[0.5, 0.2, 0.1]);
        assert!((one - at_least(&[0.5, 0.2, 0.1], 1)).abs() < 1e-6);
        assert!((two - at_least(&[0.5, 0.2, 0.1], 2)).abs() < 1e-6);
    }

    #[test]
    fn percentiles_follow_the_seven_card_shares_and_split_two_pairs() {
        let (_, eval, pct) = standard();
        // Random seven-card hands: high card 17.4%, pair 43.8% (exact shares).
        let pair = pct.mid(Category::Pair);
        assert!((pair - (0.1741 + 0.4382 / 2.0)).abs() < 0.005, "{pair}");
        assert!((pct.mid(Category::HighCard) - 0.1741 / 2.0).abs() < 0.005);
        let kk99 = pct.of(eval.eval(set("Kh Kd 9s 9c 4h 3d 2c")));
        let kk33 = pct.of(eval.eval(set("Kh Kd 3s 3c 4h 6d 2c")));
        assert!(kk99 > kk33, "K-K-9-9 {kk99} above K-K-3-3 {kk33}");
        assert!(pct.of(eval.eval(set("Ah Kh Qh Jh Th 2c 3d"))) > 0.99);
    }

    /// A known pool gives the exact chance: one pack of 6 known cards arrives with 4 of
    /// them, one a heart, nothing pairing the hand or making a straight.
    #[test]
    fn one_known_pack_gives_its_exact_chance() {
        let (deck, eval, pct) = standard();
        let straights = deck.straights();
        let mut arrivals = Arrivals::default();
        arrivals.push(set("5h 2c 3c 4d 8s 6s"), 4);
        let o = Outlook { eval: &eval, percentiles: &pct, straights: &straights, deck: deck.cards, arrivals };
        let hand = set("Ah Kh 9h 7h Qd Jc");
        let est = estimate(&o, hand, CardSet::EMPTY, 0);
        let floor = pct.of(eval.eval(hand));
        // P(the heart is among the 4 that arrive) = 4/6.
        let flush_only = floor + (4.0 / 6.0) * (pct.mid(Category::Flush) - floor);
        assert!((est - flush_only).abs() < 1e-5, "{est} against {flush_only}");
    }

    #[test]
    #[ignore = "prints the estimates"]
    fn print_estimates() {
        let (deck, eval, pct) = standard();
        let straights = deck.straights();
        let pack = set("Ah 2c 7d 9s Js 3h 4c");
        let mut arrivals = Arrivals::default();
        for j in 1..=6u32 {
            arrivals.push(if j == 4 { pack } else { deck.cards.minus(pack) }, 7 - j);
        }
        let o = Outlook { eval: &eval, percentiles: &pct, straights: &straights, deck: deck.cards, arrivals };
        for c in pack.iter() {
            println!("{c}: {:.4}", estimate(&o, CardSet::single(c), CardSet::EMPTY, 0));
        }
    }

    #[test]
    fn estimates_order_sensible_hands() {
        let (deck, eval, pct) = standard();
        let straights = deck.straights();
        let unseen = |hand: &str, k: u32| {
            let mut arrivals = Arrivals::default();
            for j in 0..k {
                arrivals.push(deck.cards.minus(set(hand)), 6 - j);
            }
            Outlook { eval: &eval, percentiles: &pct, straights: &straights, deck: deck.cards, arrivals }
        };
        let e = |h: &str, k| estimate(&unseen(h, k), set(h), CardSet::EMPTY, 0);
        assert!(e("Ah Ad Ac Ks Kh Qd 2c", 0) > e("Ah Kd 9c 7s 4h 3d 2c", 0));
        assert!(e("Ah Kh 9h 7h", 3) > e("Ah Kd 9c 7s", 3), "four to a flush");
        assert!(e("Ah Ad", 5) > e("7h 2d", 5));
        assert!(e("Ah Kh 9h 7h", 3) > e("Ah Kh 9h 7h", 0), "picks to come add value");
        assert!(e("As Ah", 5) > e("As 2c", 5), "a pair of aces beats a lone ace and a deuce");
        // A lone card's flush chance is small: a suit is no reason to take a card.
        let one = e("Ah", 6);
        assert!((0.0..=1.0).contains(&one));
        assert!(e("Ah Kh Qh Jh Th 9h 8h", 0) > 0.99);
        // A promised wild counts: a pair and the last-pick wild is trips at least.
        let o = unseen("Ah Ad 7c", 4);
        let trips = pct.of(eval.eval(set("Ah Ad As 7c")));
        assert!(estimate(&o, set("Ah Ad 7c"), CardSet::EMPTY, 1) >= trips);
    }
}
