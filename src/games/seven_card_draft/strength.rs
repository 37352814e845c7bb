//! A cheap strength estimate for partial hands: the expected percentile of the finished
//! hand among random seven-card hands, counting the picks still to come.
//!
//! The made hand gives a floor; flush, straight and pairing draws add their chance of
//! completing (a binomial over the picks left, with a per-pick hit chance scaled by how
//! many outs this seat has not yet seen go by). No allocation, a few dozen operations.

use crate::cards::{CardSet, Suit};
use crate::eval::{Category, Evaluator, HandValue};

/// Share of random seven-card hands in each category (standard deck), lowest first.
const SEVEN_CARD_SHARE: [f32; 10] =
    [0.1741, 0.4382, 0.2350, 0.0483, 0.0462, 0.0303, 0.0260, 0.00168, 0.000311, 0.0];

/// The percentile of a finished hand of this value: the share of random seven-card hands
/// below its category plus a part of its own category by its top rank.
pub fn percentile(value: HandValue) -> f32 {
    let cat = value.category() as usize;
    let below: f32 = SEVEN_CARD_SHARE[..cat].iter().sum();
    let own = SEVEN_CARD_SHARE[cat].max(0.0002);
    let top = value.tie_breaks().first().map_or(0.0, |r| r.0 as f32 / 12.0);
    (below + own * (0.1 + 0.8 * top)).min(1.0)
}

fn category_mid(cat: Category) -> f32 {
    let c = cat as usize;
    SEVEN_CARD_SHARE[..c].iter().sum::<f32>() + SEVEN_CARD_SHARE[c] * 0.5
}

/// P(at least `need` hits in `k` tries with hit chance `q` each).
fn chance(need: u32, k: u32, q: f32) -> f32 {
    if need == 0 {
        return 1.0;
    }
    if need > k {
        return 0.0;
    }
    // 1 - P(fewer than need hits), summed term by term.
    let mut below = 0.0;
    let mut term = (1.0 - q).powi(k as i32);
    let ratio = q / (1.0 - q).max(1e-6);
    for i in 0..need {
        below += term;
        term *= ratio * (k - i) as f32 / (i + 1) as f32;
    }
    (1.0 - below).clamp(0.0, 1.0)
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
    let k = picks_left;
    let fw = future_wilds.min(k);
    let gone = o.seen.minus(hand);
    let unseen = (o.deck.len() - hand.len() - gone.len()).max(1) as f32;
    let mut draws = [(0.0f32, 0.0f32); 4];

    // Flush: the best suit, outs still unseen.
    let mut best_suit = (0u32, 0u32);
    for suit in Suit::ALL {
        let held = naturals.suit_mask(suit).count_ones();
        if held > best_suit.0 {
            let outs = (o.deck.suit_mask(suit) & !naturals.suit_mask(suit) & !gone.suit_mask(suit)).count_ones();
            best_suit = (held, outs);
        }
    }
    let q_flush = (best_suit.1 as f32 / unseen * 3.0).min(0.9);
    let need = 5u32.saturating_sub(best_suit.0 + w + fw);
    draws[0] = (chance(need, k - fw, q_flush), category_mid(Category::Flush));

    // Straight: the window of the deck's straights we cover best.
    let ranks = naturals.rank_mask();
    let cover = o.straights.iter().map(|&(s, _)| (s & ranks).count_ones()).max().unwrap_or(0);
    let need = 5u32.saturating_sub(cover + w + fw);
    draws[1] = (chance(need, k - fw, (unseen / o.deck.len() as f32 * 0.35).min(0.6)), category_mid(Category::Straight));

    // Pairing up: more of the ranks we hold.
    let top_count = (0..13).map(|r| naturals.of_rank(crate::cards::Rank(r)).len()).max().unwrap_or(0) + w + fw;
    let pair_q = 0.12 * (naturals.len().max(1) as f32).min(4.0);
    let trips_or_better = if top_count >= 2 { chance(1, k - fw, pair_q * 0.5) } else { chance(2, k - fw, pair_q * 0.5) };
    draws[2] = (trips_or_better, category_mid(Category::ThreeOfAKind).max(category_mid(Category::FullHouse) * 0.9));
    draws[3] = (if top_count >= 2 { 0.0 } else { chance(1, k - fw, pair_q) }, category_mid(Category::Pair));

    let mut est = floor;
    let mut rest = 1.0;
    draws.sort_by(|a, b| b.1.total_cmp(&a.1));
    for (p, v) in draws {
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
        assert!((chance(1, 1, 0.3) - 0.3).abs() < 1e-6);
    }
}
