//! Evaluator tests that can fail: exact enumeration, an independent oracle, and brute
//! force over wild substitutions.

use draftsim::cards::{Card, CardSet, Deck, DeckPreset, Rank, Suit};
use draftsim::eval::{Category, Evaluator};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

/// Every seven-card hand of the 52-card deck, counted by category, equals the published counts.
#[test]
fn all_seven_card_hands_have_the_published_category_counts() {
    let eval = Evaluator::new(&DeckPreset::Standard52.deck());
    let cards: Vec<Card> = CardSet::FULL.iter().collect();
    let counts = (0..52usize)
        .into_par_iter()
        .map(|a| {
            let mut counts = [0u64; 10];
            let s1 = CardSet::single(cards[a]);
            for b in a + 1..52 {
                let s2 = s1.union(CardSet::single(cards[b]));
                for c in b + 1..52 {
                    let s3 = s2.union(CardSet::single(cards[c]));
                    for d in c + 1..52 {
                        let s4 = s3.union(CardSet::single(cards[d]));
                        for e in d + 1..52 {
                            let s5 = s4.union(CardSet::single(cards[e]));
                            for f in e + 1..52 {
                                let s6 = s5.union(CardSet::single(cards[f]));
                                for &g in &cards[f + 1..] {
                                    let hand = s6.union(CardSet::single(g));
                                    counts[eval.eval(hand).category() as usize] += 1;
                                }
                            }
                        }
                    }
                }
            }
            counts
        })
        .reduce(
            || [0u64; 10],
            |mut x, y| {
                x.iter_mut().zip(y).for_each(|(a, b)| *a += b);
                x
            },
        );
    let expected: [u64; 10] =
        [23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184, 224_848, 41_584, 0];
    assert_eq!(counts, expected);
    assert_eq!(counts.iter().sum::<u64>(), 133_784_560);
}

fn to_rs(card: Card) -> rs_poker::core::Card {
    rs_poker::core::Card::new(
        rs_poker::core::Value::from_u8(card.rank().0),
        match card.suit().0 {
            0 => rs_poker::core::Suit::Club,
            1 => rs_poker::core::Suit::Diamond,
            2 => rs_poker::core::Suit::Heart,
            _ => rs_poker::core::Suit::Spade,
        },
    )
}

fn rs_category(rank: rs_poker::core::Rank) -> Category {
    use rs_poker::core::CoreRank as R;
    match rank.category() {
        R::HighCard => Category::HighCard,
        R::OnePair => Category::Pair,
        R::TwoPair => Category::TwoPair,
        R::ThreeOfAKind => Category::ThreeOfAKind,
        R::Straight => Category::Straight,
        R::Flush => Category::Flush,
        R::FullHouse => Category::FullHouse,
        R::FourOfAKind => Category::FourOfAKind,
        R::StraightFlush => Category::StraightFlush,
    }
}

/// Our evaluator agrees with rs_poker 5.0 (its perfect-hash evaluator) on category and on the order of consecutive hands.
#[test]
fn agrees_with_rs_poker_on_millions_of_random_hands() {
    use rs_poker::core::Rankable;
    let eval = Evaluator::new(&DeckPreset::Standard52.deck());
    for size in [5usize, 6, 7] {
        let disagreements: usize = (0..8u64)
            .into_par_iter()
            .map(|t| {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(1000 * size as u64 + t);
                let mut deck: Vec<Card> = CardSet::FULL.iter().collect();
                let mut prev = None;
                let mut bad = 0;
                for _ in 0..125_000 {
                    deck.partial_shuffle(&mut rng, size);
                    let hand: CardSet = deck[..size].iter().copied().collect();
                    let ours = eval.eval(hand);
                    let theirs = deck[..size].iter().map(|&c| to_rs(c)).collect::<Vec<_>>().rank();
                    if ours.category() != rs_category(theirs) {
                        bad += 1;
                    }
                    if let Some((po, pt)) = prev
                        && ours.cmp(&po) != theirs.cmp(&pt)
                    {
                        bad += 1;
                    }
                    prev = Some((ours, theirs));
                }
                bad
            })
            .sum();
        assert_eq!(disagreements, 0, "{size}-card hands");
    }
}

/// (place in the order, category, tie-break ranks) as the reference evaluator gives it.
type Reference = (u8, Category, Vec<u8>);

/// A deliberately simple evaluator of exactly five cards, duplicates allowed.
/// Returns (place in the order, category, tie-break ranks).
fn reference_five(cards: &[Card; 5], deck: &Deck) -> Reference {
    let mut counts = [0u8; 13];
    for c in cards {
        counts[c.rank().0 as usize] += 1;
    }
    let flush = cards.iter().all(|c| c.suit() == cards[0].suit());
    let mask: u16 = cards.iter().fold(0, |m, c| m | (1 << c.rank().0));
    let straight = deck.straights().into_iter().find(|&(s, _)| s == mask).map(|(_, name)| name.0);
    // Groups by count, then rank, highest first.
    let mut groups: Vec<(u8, u8)> =
        (0..13u8).filter(|&r| counts[r as usize] > 0).map(|r| (counts[r as usize], r)).collect();
    groups.sort_by(|a, b| b.cmp(a));
    let shape: Vec<u8> = groups.iter().map(|g| g.0).collect();
    let grouped: Vec<u8> = groups.iter().map(|g| g.1).collect();
    let (cat, tb) = match (shape.as_slice(), flush, straight) {
        ([5], _, _) => (Category::FiveOfAKind, grouped),
        (_, true, Some(top)) => (Category::StraightFlush, vec![top]),
        ([4, 1], _, _) => (Category::FourOfAKind, grouped),
        ([3, 2], _, _) => (Category::FullHouse, grouped),
        (_, true, None) => {
            let mut ranks: Vec<u8> = cards.iter().map(|c| c.rank().0).collect();
            ranks.sort_by(|a, b| b.cmp(a));
            (Category::Flush, ranks)
        }
        (_, false, Some(top)) => (Category::Straight, vec![top]),
        ([3, 1, 1], _, _) => (Category::ThreeOfAKind, grouped),
        ([2, 2, 1], _, _) => (Category::TwoPair, grouped),
        ([2, 1, 1, 1], _, _) => (Category::Pair, grouped),
        _ => (Category::HighCard, grouped),
    };
    let mut place = cat as u8;
    if deck.flush_beats_full_house && matches!(cat, Category::Flush | Category::FullHouse) {
        place = if cat == Category::Flush { Category::FullHouse as u8 } else { Category::Flush as u8 };
    }
    (place, cat, tb)
}

/// Best hand by brute force: every 5-card choice of naturals and every substitution of
/// the wilds by any card of the deck (repetition allowed).
fn brute_force(naturals: &[Card], wilds: usize, deck: &Deck) -> Reference {
    let deck_cards: Vec<Card> = deck.cards.iter().collect();
    let mut best: Option<Reference> = None;
    let used_wilds = wilds.min(5);
    for j in 0..=used_wilds {
        let n_nat = 5 - j;
        if n_nat > naturals.len() {
            continue;
        }
        for nat in combinations(naturals.len(), n_nat) {
            for subs in multisets(deck_cards.len(), j) {
                let mut five = [Card::from_index(0); 5];
                for (slot, &i) in nat.iter().enumerate() {
                    five[slot] = naturals[i];
                }
                for (k, &i) in subs.iter().enumerate() {
                    five[n_nat + k] = deck_cards[i];
                }
                let v = reference_five(&five, deck);
                if best.as_ref().is_none_or(|b| (v.0, &v.2) > (b.0, &b.2)) {
                    best = Some(v);
                }
            }
        }
    }
    best.expect("at least one five-card hand")
}

fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn go(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            go(i + 1, n, k, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    go(0, n, k, &mut Vec::new(), &mut out);
    out
}

fn multisets(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn go(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            go(i, n, k, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    go(0, n, k, &mut Vec::new(), &mut out);
    out
}

/// The exact wild path agrees with brute-force substitution on random hands with 1-3 wilds.
#[test]
fn wild_path_agrees_with_brute_force() {
    let decks = [DeckPreset::Standard52.deck(), DeckPreset::Short36.deck(), DeckPreset::Piquet32.deck()];
    let evals: Vec<Evaluator> = decks.iter().map(Evaluator::new).collect();
    let cases: Vec<(usize, usize, usize, u64)> = decks
        .iter()
        .enumerate()
        .flat_map(|(d, _)| {
            [(1usize, 400usize), (2, 150), (3, 12)]
                .into_iter()
                .flat_map(move |(w, n)| (0..n as u64).map(move |i| (d, w, 5 + (i % 3) as usize, i)))
        })
        .collect();
    let failures: Vec<String> = cases
        .par_iter()
        .filter_map(|&(d, wilds, size, i)| {
            let deck = &decks[d];
            let eval = &evals[d];
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(i * 31 + wilds as u64 * 7 + d as u64);
            let mut cards: Vec<Card> = deck.cards.iter().collect();
            cards.shuffle(&mut rng);
            let naturals = &cards[..size - wilds];
            let ours = eval.eval_wild(naturals.iter().copied().collect(), wilds as u32);
            let (_, cat, tb) = brute_force(naturals, wilds, deck);
            let our_tb: Vec<u8> = ours.tie_breaks().iter().map(|r| r.0).collect();
            (ours.category() != cat || our_tb != tb).then(|| {
                format!(
                    "{} naturals {:?} + {wilds} wild: ours {:?} {our_tb:?}, brute {cat:?} {tb:?}",
                    deck.name,
                    naturals.iter().map(ToString::to_string).collect::<Vec<_>>(),
                    ours.category()
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{} failures, e.g. {:?}", failures.len(), &failures[..failures.len().min(5)]);
}

/// Without wilds the exact path and the fast path agree; values order like brute force.
#[test]
fn fast_path_agrees_with_reference_on_five_cards() {
    for deck in [DeckPreset::Standard52.deck(), DeckPreset::Short36.deck()] {
        let eval = Evaluator::new(&deck);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut cards: Vec<Card> = deck.cards.iter().collect();
        let mut prev: Option<(draftsim::eval::HandValue, Reference)> = None;
        for _ in 0..100_000 {
            cards.partial_shuffle(&mut rng, 5);
            let five: [Card; 5] = cards[..5].try_into().unwrap();
            let ours = eval.eval(five.iter().copied().collect());
            let reference = reference_five(&five, &deck);
            assert_eq!(ours.category(), reference.1);
            if let Some((pv, pr)) = &prev {
                assert_eq!(ours.cmp(pv), (reference.0, &reference.2).cmp(&(pr.0, &pr.2)), "{five:?}");
            }
            prev = Some((ours, reference));
        }
    }
}

/// Random partial substitution never beats the exact wild path, and some substitution reaches it.
#[test]
fn wild_path_is_an_upper_bound_of_substitutions() {
    let deck = DeckPreset::Standard52.deck();
    let eval = Evaluator::new(&deck);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(99);
    for _ in 0..2_000 {
        let mut cards: Vec<Card> = deck.cards.iter().collect();
        cards.shuffle(&mut rng);
        let naturals: CardSet = cards[..5].iter().copied().collect();
        let exact = eval.eval_wild(naturals, 2);
        for _ in 0..20 {
            let sub = Card::new(Rank(rng.random_range(0..13)), Suit(rng.random_range(0..4)));
            let with_sub = eval.eval_wild(naturals.union(CardSet::single(sub)), 1);
            assert!(with_sub <= exact);
        }
    }
}
