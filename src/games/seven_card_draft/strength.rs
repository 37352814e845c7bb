//! A cheap strength estimate for partial hands: the expected percentile of the finished
//! hand among random seven-card hands, counting the picks still to come.
//!
//! The made hand gives a floor; flush, straight and pairing draws add their chance of
//! completing (a binomial over the picks left, with a per-pick hit chance scaled by how
//! many outs this seat has not yet seen go by). No allocation, a few dozen operations.

use crate::cards::{Card, CardSet, Suit};
use crate::eval::{Category, Evaluator, HandValue};

/// Share of random seven-card hands in each category (standard deck), lowest first.
const SEVEN_CARD_SHARE: [f32; 10] = [0.1741, 0.4382, 0.2350, 0.0483, 0.0462, 0.0303, 0.0260, 0.00168, 0.000311, 0.0];

/// Share of random seven-card hands below each category.
const SHARE_BELOW: [f32; 10] = {
    let mut below = [0.0f32; 10];
    let mut i = 1;
    while i < 10 {
        below[i] = below[i - 1] + SEVEN_CARD_SHARE[i - 1];
        i += 1;
    }
    below
};

/// [`percentile`] for each category and top tie-break slot (0 = none, else rank + 1).
const PERCENTILE: [[f32; 16]; 10] = {
    let mut table = [[0.0f32; 16]; 10];
    let mut cat = 0;
    while cat < 10 {
        let own = if SEVEN_CARD_SHARE[cat] > 0.0002 { SEVEN_CARD_SHARE[cat] } else { 0.0002 };
        let mut slot = 0;
        while slot < 16 {
            let top = if slot == 0 { 0.0 } else { (slot - 1) as f32 / 12.0 };
            let p = SHARE_BELOW[cat] + own * (0.1 + 0.8 * top);
            table[cat][slot] = if p < 1.0 { p } else { 1.0 };
            slot += 1;
        }
        cat += 1;
    }
    table
};

/// The percentile of a finished hand of this value: the share of random seven-card hands
/// below its category plus a part of its own category by its top rank.
#[inline]
pub fn percentile(value: HandValue) -> f32 {
    PERCENTILE[value.category() as usize][((value.0 >> 16) & 15) as usize]
}

const fn category_mid(cat: Category) -> f32 {
    SHARE_BELOW[cat as usize] + SEVEN_CARD_SHARE[cat as usize] * 0.5
}

/// Hit chances are looked up on a grid of this many steps between 0 and 1.
const Q_STEPS: usize = 64;

const CHANCE_LEN: usize = 7 * 7 * (Q_STEPS + 1);

/// P(at least `need` hits in `k` tries) for need 0-6 (6 standing for anything above 5,
/// which counts as out of reach), k 0-6 and q on the grid, built at compile time so a
/// look-up needs no test.
static CHANCE: [f32; CHANCE_LEN] = {
    let mut table = [0.0f32; CHANCE_LEN];
    let mut need = 0;
    while need < 6 {
        let mut k = 0;
        while k < 7 {
            let mut step = 0;
            while step <= Q_STEPS {
                table[(need * 7 + k) * (Q_STEPS + 1) + step] = if need == 0 {
                    1.0
                } else {
                    binomial_at_least(need as u32, k as u32, step as f64 / Q_STEPS as f64) as f32
                };
                step += 1;
            }
            k += 1;
        }
        need += 1;
    }
    table
};

/// P(at least `need` successes in `k` Bernoulli trials of chance `q`).
const fn binomial_at_least(need: u32, k: u32, q: f64) -> f64 {
    if need > k {
        return 0.0;
    }
    // P(X = i) term by term, from (1 - q)^k.
    let mut term = 1.0;
    let mut i = 0;
    while i < k {
        term *= 1.0 - q;
        i += 1;
    }
    let mut below = 0.0;
    let mut i = 0;
    while i < need {
        below += term;
        term = if q < 1.0 { term * q / (1.0 - q) * (k - i) as f64 / (i + 1) as f64 } else { 0.0 };
        i += 1;
    }
    let p = 1.0 - below;
    if p < 0.0 {
        0.0
    } else if p > 1.0 {
        1.0
    } else {
        p
    }
}

/// The grid step of min(cap, factor * num / den) for num, den up to 52, built at compile
/// time so the estimate does no float division.
const fn step_table(factor: f64, cap: f64) -> [[u8; 53]; 53] {
    let mut table = [[0u8; 53]; 53];
    let mut num = 0;
    while num < 53 {
        let mut den = 1;
        while den < 53 {
            let q = factor * num as f64 / den as f64;
            let q = if q > cap { cap } else { q };
            table[num][den] = (q * Q_STEPS as f64 + 0.5) as u8;
            den += 1;
        }
        num += 1;
    }
    table
}

/// Per-pick chance of landing a flush out: three times the outs' share of the unseen cards.
static FLUSH_STEP: [[u8; 53]; 53] = step_table(3.0, 0.9);
/// Per-pick chance of landing a straight card: 0.35 times the unseen share of the deck.
static STRAIGHT_STEP: [[u8; 53]; 53] = step_table(0.35, 0.6);

/// P(at least `need` hits in `k` tries with the hit chance at grid step `step`); no more
/// than five hits are ever needed and no more than six tries made.
#[inline]
fn chance(need: u32, k: u32, step: u8) -> f32 {
    CHANCE[((need.min(6) as usize * 7) + k.min(6) as usize) * (Q_STEPS + 1) + step as usize]
}

/// The grid step of a chance between 0 and 1.
const fn step_of(q: f64) -> u8 {
    (q * Q_STEPS as f64 + 0.5) as u8
}

/// For each 13-bit rank mask, the most ranks of any one of these straights it holds.
pub fn straight_cover_table(straights: &[(u16, crate::cards::Rank)]) -> Vec<u8> {
    (0..1u32 << 13)
        .map(|m| straights.iter().map(|&(s, _)| (s & m as u16).count_ones() as u8).max().unwrap_or(0))
        .collect()
}

/// What the estimate needs to know besides the hand.
#[derive(Clone, Copy, Debug)]
pub struct Outlook<'a> {
    /// The evaluator of the deck in play.
    pub eval: &'a Evaluator,
    /// For each 13-bit rank mask, the most ranks of any one straight of the deck it holds
    /// (see [`straight_cover_table`]).
    pub straight_cover: &'a [u8],
    /// Cards of the deck.
    pub deck: CardSet,
    /// Cards this seat has seen go by (they are less likely to come back).
    pub seen: CardSet,
}

/// A direct-mapped memo of [`estimate`]: the same hands recur across the rotations of a
/// deal (and among bots that draft alike), and a look-up is far cheaper than the estimate.
#[derive(Clone, Debug)]
pub struct EstimateCache {
    entries: Box<[CacheEntry]>,
}

/// One remembered estimate: (hand, seen, wilds, future wilds << 8 | picks left, value).
type CacheEntry = (u64, u64, u64, u32, f32);

impl Default for EstimateCache {
    fn default() -> Self {
        // 512 entries: 16 KiB per bot, allocated once per worker. The hits are near repeats
        // (the same hand scored again within a pick or a betting round): 4096 entries hit
        // no more often over a default-mix bench (same instruction count) but crowd the
        // evaluator's tables out of the cache (default mix 1.26x against 1.32x faster).
        EstimateCache { entries: vec![(u64::MAX, 0, 0, 0, 0.0); 512].into_boxed_slice() }
    }
}

impl EstimateCache {
    /// [`estimate`], remembered.
    pub fn estimate(
        &mut self,
        o: &Outlook<'_>,
        hand: CardSet,
        wilds: CardSet,
        future_wilds: u32,
        picks_left: u32,
    ) -> f32 {
        let tag = (future_wilds << 8) | picks_left;
        let h = (hand.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ o.seen.0.wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ wilds.0)
            .wrapping_add(tag as u64)
            .wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let slot = &mut self.entries[(h >> 55) as usize];
        if slot.0 == hand.0 && slot.1 == o.seen.0 && slot.2 == wilds.0 && slot.3 == tag {
            return slot.4;
        }
        let v = estimate(o, hand, wilds, future_wilds, picks_left);
        *slot = (hand.0, o.seen.0, wilds.0, tag, v);
        v
    }
}

/// Expected percentile (0 to 1) of the finished hand, from `hand` (of which `wilds` cards
/// are wild, plus `future_wilds` promised later) and `picks_left` picks to come.
pub fn estimate(o: &Outlook<'_>, hand: CardSet, wilds: CardSet, future_wilds: u32, picks_left: u32) -> f32 {
    let naturals = hand.minus(wilds);
    let w = wilds.len();
    let floor = if w == 0 { plain_floor(o, naturals) } else { percentile(o.eval.eval_wild(naturals, w)) };
    if picks_left == 0 && future_wilds == 0 {
        return floor;
    }
    let gone = o.seen.minus(hand);
    let unseen = (o.deck.len() - hand.len() - gone.len()).clamp(1, 52) as usize;
    let suits = Suit::ALL.map(|suit| naturals.suit_mask(suit));
    let outs = flush_outs(o, &suits, gone);
    draws(o, floor, &suits, &outs, naturals.len(), w, future_wilds, picks_left, unseen)
}

/// Each suit's flush outs: the deck's cards of it neither held (`suits`) nor gone by.
#[inline(always)]
fn flush_outs(o: &Outlook<'_>, suits: &[u16; 4], gone: CardSet) -> [u32; 4] {
    Suit::ALL.map(|suit| (o.deck.suit_mask(suit) & !suits[suit.0 as usize] & !gone.suit_mask(suit)).count_ones())
}

/// The made-hand floor of a hand with no wilds.
#[inline(always)]
fn plain_floor(o: &Outlook<'_>, naturals: CardSet) -> f32 {
    // Only the category and top rank matter: the coarse table is a quarter of the values'
    // bytes, which the bots' memos sharing the cache notice.
    let coarse = o.eval.eval_coarse(naturals);
    PERCENTILE[(coarse >> 4) as usize][(coarse & 15) as usize]
}

/// [`estimate`] from the made-hand floor on: the draws' chances of completing over the
/// picks left, given each suit's held pattern and outs, `naturals` cards held, `w` wilds
/// held and `future_wilds` promised, and `unseen` cards not yet seen.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn draws(
    o: &Outlook<'_>,
    floor: f32,
    suits: &[u16; 4],
    outs: &[u32; 4],
    naturals: u32,
    w: u32,
    future_wilds: u32,
    picks_left: u32,
    unseen: usize,
) -> f32 {
    let fw = future_wilds.min(picks_left);
    let k = picks_left - fw;
    let flush = best_flush(&suits.map(u16::count_ones), outs);
    let p_flush = chance(5u32.saturating_sub(flush.0 + w + fw), k, FLUSH_STEP[flush.1 as usize][unseen]);
    let ranks = suits[0] | suits[1] | suits[2] | suits[3];
    let p_straight = straight_chance(o, ranks, w + fw, k, unseen);
    let held = naturals.min(4) as usize;
    let (p_trips, p_pair) = pairing_chances(is_paired(suits) || w + fw >= 1, k, held);
    combine(floor, [p_flush, p_straight, p_trips, p_pair])
}

/// Flush: the suit we hold most of (the first on a tie), as (cards held, its outs), from
/// each suit's cards held and outs. Every suit's outs are counted so the choice is a
/// select, not a mispredicted branch.
#[inline(always)]
fn best_flush(held: &[u32; 4], outs: &[u32; 4]) -> (u32, u32) {
    let mut flush = (0u32, 0u32);
    for (&held, &outs) in held.iter().zip(outs) {
        flush = if held > flush.0 { (held, outs) } else { flush };
    }
    flush
}

/// Straight: the chance of completing the window of the deck's straights we cover best,
/// with `extra` wilds (held or promised) and `k` natural picks to come.
#[inline(always)]
fn straight_chance(o: &Outlook<'_>, ranks: u16, extra: u32, k: u32, unseen: usize) -> f32 {
    let cover = o.straight_cover[ranks as usize] as u32;
    chance(5u32.saturating_sub(cover + extra), k, STRAIGHT_STEP[unseen][o.deck.len().min(52) as usize])
}

/// Whether any rank is held twice.
#[inline(always)]
fn is_paired(suits: &[u16; 4]) -> bool {
    let [a, b, c, d] = *suits;
    (a & b) | (c & d) | ((a | b) & (c | d)) != 0
}

/// Pairing up, as (trips or better, a pair): more of the ranks we hold, `held` cards (up
/// to four counted), `k` picks to come; `paired` when a rank is held twice or a wild
/// stands in.
#[inline(always)]
fn pairing_chances(paired: bool, k: u32, held: usize) -> (f32, f32) {
    // Chance per pick of pairing a held rank: 0.12 per distinct card held, up to four.
    const PAIR_STEP: [u8; 5] = [step_of(0.12), step_of(0.12), step_of(0.24), step_of(0.36), step_of(0.48)];
    const TRIPS_STEP: [u8; 5] = [step_of(0.06), step_of(0.06), step_of(0.12), step_of(0.18), step_of(0.24)];
    let p_trips = if paired { chance(1, k, TRIPS_STEP[held]) } else { chance(2, k, TRIPS_STEP[held]) };
    let p_pair = if paired { 0.0 } else { chance(1, k, PAIR_STEP[held]) };
    (p_trips, p_pair)
}

/// The floor plus the draws (flush, straight, trips or better, a pair), best first: each
/// adds its chance of the part of the mass still unimproved.
#[inline(always)]
fn combine(floor: f32, chances: [f32; 4]) -> f32 {
    const DRAW_VALUE: [f32; 4] = [
        category_mid(Category::Flush),
        category_mid(Category::Straight),
        category_mid(Category::FullHouse) * 0.9,
        category_mid(Category::Pair),
    ];
    let mut est = floor;
    let mut rest = 1.0;
    for (p, v) in chances.into_iter().zip(DRAW_VALUE) {
        // Draws below the floor count for nothing: multiplying by 0 or 1 keeps the sums
        // bit for bit those of a test, without a branch the data would mispredict.
        let counts = f32::from(u8::from(v > floor));
        est += counts * rest * p * (v - floor);
        rest *= 1.0 - counts * p;
    }
    est.min(1.0)
}

/// The estimates of one hand with each candidate card added in turn, none wild: what a
/// drafter scores for every card of its pack. Each is [`estimate`] of the hand plus the
/// card, bit for bit, with what the candidates share worked out once: the cards gone by,
/// the unseen count and each suit's outs change by at most the candidate itself, so the
/// flush draw depends only on the candidate's suit and whether it was seen.
#[derive(Clone, Copy, Debug)]
pub struct Candidates<'o, 'a> {
    o: &'o Outlook<'a>,
    hand: CardSet,
    picks_left: u32,
    /// The hand's ranks.
    ranks: u16,
    /// Whether the hand already holds a rank twice.
    paired: bool,
    /// By the candidate's suit: the flush suit's cards held and outs with the candidate
    /// held and seen, and whether the flush suit is the candidate's own.
    flush: [(u32, u32, bool); 4],
    /// The unseen count for a candidate not seen and one seen (clamped as the estimate
    /// clamps it).
    unseen: [usize; 2],
    /// Cards held with the candidate, up to the four the pairing chances count.
    held: usize,
    /// Whether the shortcut applies: hand and cards seen all in the deck (else the counts
    /// above could go below zero where the full estimate's do not).
    within_deck: bool,
}

impl<'o, 'a> Candidates<'o, 'a> {
    /// Candidates to add to `hand` (no wilds) with `picks_left` picks to come after.
    pub fn new(o: &'o Outlook<'a>, hand: CardSet, picks_left: u32) -> Self {
        let gone = o.seen.minus(hand);
        let suits = Suit::ALL.map(|suit| hand.suit_mask(suit));
        let outs = flush_outs(o, &suits, gone);
        // Cards neither held nor gone by, before the candidate is added. A candidate seen
        // was gone by and is now held: the count and the outs stay. One not seen leaves
        // both.
        let base = o.deck.len().saturating_sub(hand.len() + gone.len());
        let unseen = [base.saturating_sub(1).clamp(1, 52) as usize, base.clamp(1, 52) as usize];
        let held = suits.map(u16::count_ones);
        let flush = [0, 1, 2, 3].map(|suit| {
            let mut with = held;
            with[suit] += 1;
            // The suits' indices ride along as outs, to tell which suit was chosen.
            let (count, chosen) = best_flush(&with, &[0, 1, 2, 3]);
            (count, outs[chosen as usize], chosen == suit as u32)
        });
        Candidates {
            o,
            hand,
            picks_left,
            ranks: suits[0] | suits[1] | suits[2] | suits[3],
            paired: is_paired(&suits),
            flush,
            unseen,
            held: (hand.len() + 1).min(4) as usize,
            within_deck: hand.union(o.seen).minus(o.deck).is_empty(),
        }
    }

    /// [`estimate`] of the hand plus `card`, no wilds.
    #[inline(always)]
    pub fn estimate(&self, card: Card) -> f32 {
        let o = self.o;
        let hand = self.hand.union(CardSet::single(card));
        if self.hand.contains(card) || !o.deck.contains(card) || self.picks_left == 0 || !self.within_deck {
            return estimate(o, hand, CardSet::EMPTY, 0, self.picks_left);
        }
        let k = self.picks_left;
        let floor = plain_floor(o, hand);
        let seen = o.seen.contains(card);
        let unseen = self.unseen[usize::from(seen)];
        let (count, outs, own) = self.flush[card.suit().0 as usize];
        let outs = outs - u32::from(own && !seen);
        let p_flush = chance(5u32.saturating_sub(count), k, FLUSH_STEP[outs as usize][unseen]);
        let rank = 1u16 << card.rank().0;
        let p_straight = straight_chance(o, self.ranks | rank, 0, k, unseen);
        let (p_trips, p_pair) = pairing_chances(self.paired || self.ranks & rank != 0, k, self.held);
        combine(floor, [p_flush, p_straight, p_trips, p_pair])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::DeckPreset;

    fn set(text: &str) -> CardSet {
        CardSet::parse_list(text).unwrap().into_iter().collect()
    }

    #[test]
    fn estimates_order_sensible_hands() {
        let deck = DeckPreset::Standard52.deck();
        let eval = Evaluator::new(&deck);
        let cover = straight_cover_table(&deck.straights());
        let o = Outlook { eval: &eval, straight_cover: &cover, deck: deck.cards, seen: CardSet::EMPTY };
        let e = |h: &str, k| estimate(&o, set(h), CardSet::EMPTY, 0, k);
        assert!(e("Ah Ad Ac Ks Kh Qd 2c", 0) > e("Ah Kd 9c 7s 4h 3d 2c", 0));
        assert!(e("Ah Kh 9h 7h", 3) > e("Ah Kd 9c 7s", 3), "four to a flush");
        assert!(e("Ah Ad", 5) > e("7h 2d", 5));
        assert!(e("Ah Kh 9h 7h", 3) > e("Ah Kh 9h 7h", 0), "picks to come add value");
        assert!((0.0..=1.0).contains(&e("Ah Kh Qh Jh Th 9h 8h", 0)));
        let mut cache = EstimateCache::default();
        for _ in 0..2 {
            assert_eq!(cache.estimate(&o, set("Ah Kh 9h 7h"), CardSet::EMPTY, 0, 3), e("Ah Kh 9h 7h", 3));
            assert_eq!(cache.estimate(&o, set("Ah Kh 9h 7h"), CardSet::EMPTY, 0, 2), e("Ah Kh 9h 7h", 2));
        }
        assert!(chance(2, 3, step_of(0.5)) > chance(2, 3, step_of(0.2)));
        assert_eq!(chance(3, 2, step_of(0.9)), 0.0);
        // P(at least 1 hit in 1 try) is q; P(at least 2 in 3 at 0.5) is 0.5.
        assert!((chance(1, 1, step_of(0.25)) - 0.25).abs() < 1e-6);
        assert!((chance(2, 3, step_of(0.5)) - 0.5).abs() < 1e-6);
        assert_eq!(FLUSH_STEP[9][45], step_of(0.6));
        assert_eq!(FLUSH_STEP[20][40], step_of(0.9), "capped");
        assert!((binomial_at_least(2, 4, 0.3) - (1.0 - 0.7f64.powi(4) - 4.0 * 0.3 * 0.7f64.powi(3))).abs() < 1e-12);
    }

    /// The candidates' shortcut gives each card exactly the full estimate's bits: random
    /// hands, cards seen and picks to come on four decks, candidates held or not, seen or
    /// not, in the deck or not.
    #[test]
    fn candidates_match_the_full_estimate_bit_for_bit() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for preset in [DeckPreset::Standard52, DeckPreset::NoDeuces48, DeckPreset::Short36, DeckPreset::Piquet32] {
            let deck = preset.deck();
            let eval = Evaluator::new(&deck);
            let cover = straight_cover_table(&deck.straights());
            let cards: Vec<Card> = deck.cards.iter().collect();
            let mut checked = 0;
            for _ in 0..20_000 {
                let pick = |n: u64, next: &mut dyn FnMut() -> u64| -> CardSet {
                    (0..n).map(|_| cards[(next() % cards.len() as u64) as usize]).collect()
                };
                let hand = pick(next() % 7, &mut next);
                let mut seen = pick(next() % 24, &mut next).union(pick(next() % 3, &mut next).intersect(hand));
                if next() % 50 == 0 && seen.union(hand).len() < deck.cards.len() {
                    // A card outside the deck among those seen: the full estimate's path.
                    seen.insert(Card::from_index(15));
                }
                let o = Outlook { eval: &eval, straight_cover: &cover, deck: deck.cards, seen };
                let picks_left = (next() % 7) as u32;
                let candidates = Candidates::new(&o, hand, picks_left);
                for c in pick(8, &mut next).iter().chain([Card::from_index(15)]) {
                    let want = estimate(&o, hand.union(CardSet::single(c)), CardSet::EMPTY, 0, picks_left);
                    assert_eq!(candidates.estimate(c).to_bits(), want.to_bits(), "{hand} + {c}, seen {seen}");
                    checked += 1;
                }
            }
            assert!(checked > 100_000);
        }
    }
}
