//! A cheap strength estimate for partial hands: the expected percentile of the finished
//! hand among random seven-card hands, counting the picks still to come.
//!
//! The made hand gives a floor; flush, straight and pairing draws add their chance of
//! completing (a binomial over the picks left, with a per-pick hit chance scaled by how
//! many outs this seat has not yet seen go by). No allocation, a few dozen operations.

use crate::cards::{CardSet, Suit};
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

/// The percentile of a finished hand of this value: the share of random seven-card hands
/// below its category plus a part of its own category by its top rank.
#[inline]
pub fn percentile(value: HandValue) -> f32 {
    let cat = value.category() as usize;
    let own = SEVEN_CARD_SHARE[cat].max(0.0002);
    let top_slot = (value.0 >> 16) & 15;
    let top = if top_slot == 0 { 0.0 } else { (top_slot - 1) as f32 / 12.0 };
    (SHARE_BELOW[cat] + own * (0.1 + 0.8 * top)).min(1.0)
}

const fn category_mid(cat: Category) -> f32 {
    SHARE_BELOW[cat as usize] + SEVEN_CARD_SHARE[cat as usize] * 0.5
}

/// Hit chances are looked up on a grid of this many steps between 0 and 1.
const Q_STEPS: usize = 64;

/// P(at least `need` hits in `k` tries) for need 1-5, k 0-6 and q on the grid.
static CHANCE: std::sync::LazyLock<Vec<f32>> = std::sync::LazyLock::new(|| {
    let mut table = vec![0.0f32; 6 * 7 * (Q_STEPS + 1)];
    for need in 1..6u32 {
        for k in 0..7u32 {
            for step in 0..=Q_STEPS {
                table[((need as usize * 7) + k as usize) * (Q_STEPS + 1) + step] =
                    binomial_at_least(need, k, step as f64 / Q_STEPS as f64) as f32;
            }
        }
    }
    table
});

fn binomial_at_least(need: u32, k: u32, q: f64) -> f64 {
    let mut below = 0.0;
    let mut term = (1.0 - q).powi(k as i32);
    for i in 0..need.min(k + 1) {
        below += term;
        if q < 1.0 {
            term *= q / (1.0 - q) * (k - i) as f64 / (i + 1) as f64;
        } else {
            term = 0.0;
        }
    }
    if need > k { 0.0 } else { (1.0 - below).clamp(0.0, 1.0) }
}

/// P(at least `need` hits in `k` tries with hit chance `q` each), from the table.
#[inline]
fn chance(need: u32, k: u32, q: f32) -> f32 {
    if need == 0 {
        return 1.0;
    }
    if need > k || need > 5 {
        return 0.0;
    }
    let step = (q.clamp(0.0, 1.0) * Q_STEPS as f32 + 0.5) as usize;
    CHANCE[((need as usize * 7) + k.min(6) as usize) * (Q_STEPS + 1) + step]
}

/// What the estimate needs to know besides the hand.
#[derive(Clone, Copy, Debug)]
pub struct Outlook<'a> {
    /// The evaluator of the deck in play.
    pub eval: &'a Evaluator,
    /// The deck's straights.
    pub straights: &'a [(u16, crate::cards::Rank)],
    /// Cards of the deck.
    pub deck: CardSet,
    /// Cards this seat has seen go by (they are less likely to come back).
    pub seen: CardSet,
}

/// Expected percentile (0 to 1) of the finished hand, from `hand` (of which `wilds` cards
/// are wild, plus `future_wilds` promised later) and `picks_left` picks to come.
pub fn estimate(o: &Outlook<'_>, hand: CardSet, wilds: CardSet, future_wilds: u32, picks_left: u32) -> f32 {
    let naturals = hand.minus(wilds);
    let w = wilds.len();
    let made = o.eval.eval_wild(naturals, w);
    let floor = percentile(made);
    if picks_left == 0 && future_wilds == 0 {
        return floor;
    }
    let fw = future_wilds.min(picks_left);
    let k = picks_left - fw;
    let gone = o.seen.minus(hand);
    let unseen = (o.deck.len() - hand.len() - gone.len()).max(1) as f32;
    let suits = [
        naturals.suit_mask(Suit(0)),
        naturals.suit_mask(Suit(1)),
        naturals.suit_mask(Suit(2)),
        naturals.suit_mask(Suit(3)),
    ];

    // Flush: the suit we hold most of, with its outs not yet seen go by.
    let mut flush = (0u32, 0u32);
    for suit in Suit::ALL {
        let held = suits[suit.0 as usize].count_ones();
        if held > flush.0 {
            let outs = (o.deck.suit_mask(suit) & !suits[suit.0 as usize] & !gone.suit_mask(suit)).count_ones();
            flush = (held, outs);
        }
    }
    let p_flush = chance(5u32.saturating_sub(flush.0 + w + fw), k, (flush.1 as f32 / unseen * 3.0).min(0.9));

    // Straight: the window of the deck's straights we cover best.
    let ranks = suits[0] | suits[1] | suits[2] | suits[3];
    let cover = o.straights.iter().map(|&(s, _)| (s & ranks).count_ones()).max().unwrap_or(0);
    let p_straight = chance(5u32.saturating_sub(cover + w + fw), k, (unseen / o.deck.len() as f32 * 0.35).min(0.6));

    // Pairing up: more of the ranks we hold.
    let [a, b, c, d] = suits;
    let paired = (a & b) | (c & d) | ((a | b) & (c | d)) != 0;
    let pair_q = 0.12 * (naturals.len().max(1) as f32).min(4.0);
    let p_trips = if paired || w + fw >= 1 { chance(1, k, pair_q * 0.5) } else { chance(2, k, pair_q * 0.5) };
    let p_pair = if paired || w + fw >= 1 { 0.0 } else { chance(1, k, pair_q) };

    // Best draws first: each adds its chance of the part of the mass still unimproved.
    const DRAW_VALUE: [f32; 4] = [
        category_mid(Category::Flush),
        category_mid(Category::Straight),
        category_mid(Category::FullHouse) * 0.9,
        category_mid(Category::Pair),
    ];
    let mut est = floor;
    let mut rest = 1.0;
    for (p, v) in [p_flush, p_straight, p_trips, p_pair].into_iter().zip(DRAW_VALUE) {
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

    #[test]
    fn estimates_order_sensible_hands() {
        let deck = DeckPreset::Standard52.deck();
        let eval = Evaluator::new(&deck);
        let straights = deck.straights();
        let o = Outlook { eval: &eval, straights: &straights, deck: deck.cards, seen: CardSet::EMPTY };
        let e = |h: &str, k| estimate(&o, set(h), CardSet::EMPTY, 0, k);
        assert!(e("Ah Ad Ac Ks Kh Qd 2c", 0) > e("Ah Kd 9c 7s 4h 3d 2c", 0));
        assert!(e("Ah Kh 9h 7h", 3) > e("Ah Kd 9c 7s", 3), "four to a flush");
        assert!(e("Ah Ad", 5) > e("7h 2d", 5));
        assert!(e("Ah Kh 9h 7h", 3) > e("Ah Kh 9h 7h", 0), "picks to come add value");
        assert!((0.0..=1.0).contains(&e("Ah Kh Qh Jh Th 9h 8h", 0)));
        assert!(chance(2, 3, 0.5) > chance(2, 3, 0.2));
        assert_eq!(chance(3, 2, 0.9), 0.0);
        // P(at least 1 hit in 1 try) is q; P(at least 2 in 3 at 0.5) is 0.5.
        assert!((chance(1, 1, 0.25) - 0.25).abs() < 1e-6);
        assert!((chance(2, 3, 0.5) - 0.5).abs() < 1e-6);
        assert!((binomial_at_least(2, 4, 0.3) - (1.0 - 0.7f64.powi(4) - 4.0 * 0.3 * 0.7f64.powi(3))).abs() < 1e-12);
    }
}
