//! Hand evaluation throughput on the same random 7-card hands: our ready keys
//! ([`HandKey`]) beside rs_poker 5.0's ready accumulators, our evaluation from a card set
//! (what the engines call), and our exact wild path from card sets.
//!
//! Run: `cargo bench --bench eval`. Each figure is per hand; divan also prints hands/s.

use divan::{Bencher, black_box, counter::ItemsCount};
use draftsim::cards::{Card, CardSet, DeckPreset};
use draftsim::eval::{Evaluator, HandKey};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

const HANDS: usize = 10_000;

fn main() {
    divan::main();
}

fn random_hands(size: usize) -> Vec<Vec<Card>> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(42);
    let mut deck: Vec<Card> = CardSet::FULL.iter().collect();
    (0..HANDS)
        .map(|_| {
            deck.partial_shuffle(&mut rng, size);
            deck[..size].to_vec()
        })
        .collect()
}

fn to_rs(card: Card) -> rs_poker::core::Card {
    let suit = [
        rs_poker::core::Suit::Club,
        rs_poker::core::Suit::Diamond,
        rs_poker::core::Suit::Heart,
        rs_poker::core::Suit::Spade,
    ];
    rs_poker::core::Card::new(rs_poker::core::Value::from_u8(card.rank().0), suit[card.suit().0 as usize])
}

/// Our fast path on random 7-card hands (no wilds).
#[divan::bench]
fn draftsim_seven_cards(bencher: Bencher) {
    let eval = Evaluator::new(&DeckPreset::Standard52.deck());
    let hands: Vec<CardSet> = random_hands(7).iter().map(|h| h.iter().copied().collect()).collect();
    bencher.counter(ItemsCount::new(HANDS)).bench_local(|| {
        let mut acc = 0u32;
        for &h in black_box(&hands) {
            acc = acc.wrapping_add(eval.eval(h).0);
        }
        acc
    });
}

/// Our ready keys ([`HandKey`], the counterpart of rs_poker's accumulators) on the same
/// hands, built before the timed loop as theirs are.
#[divan::bench]
fn draftsim_ready_keys(bencher: Bencher) {
    let eval = Evaluator::new(&DeckPreset::Standard52.deck());
    let hands: Vec<HandKey> =
        random_hands(7).iter().map(|h| HandKey::of(h.iter().copied().collect()).expect("seven cards")).collect();
    bencher.counter(ItemsCount::new(HANDS)).bench_local(|| {
        let mut acc = 0u32;
        for h in black_box(&hands) {
            acc = acc.wrapping_add(eval.eval_key(h).0);
        }
        acc
    });
}

/// rs_poker 5.0 on the same hands: its ready perfect-hash accumulators (`SevenCardAccum`,
/// the form its own simulators rank), built before the timed loop as ours are.
#[divan::bench]
fn rs_poker_seven_cards(bencher: Bencher) {
    let hands: Vec<rs_poker::core::SevenCardAccum> = random_hands(7)
        .iter()
        .map(|h| {
            let mut acc = rs_poker::core::SevenCardAccum::new();
            h.iter().for_each(|&c| acc.add(to_rs(c)));
            acc
        })
        .collect();
    bencher.counter(ItemsCount::new(HANDS)).bench_local(|| {
        let mut acc = 0u32;
        for h in black_box(&hands) {
            acc = acc.wrapping_add(u32::from(h.rank() >= rs_poker::core::Rank::FLUSH_MIN));
        }
        acc
    });
}

/// Our exact wild path on random 7-card hands with one or two of the cards wild.
#[divan::bench(args = [1, 2])]
fn draftsim_wild_seven_cards(bencher: Bencher, wilds: u32) {
    let eval = Evaluator::new(&DeckPreset::Standard52.deck());
    let hands: Vec<CardSet> = random_hands(7).iter().map(|h| h[wilds as usize..].iter().copied().collect()).collect();
    // The wild tables fill on the first hand with wilds; fill them before timing.
    black_box(eval.eval_wild(hands[0], wilds));
    bencher.counter(ItemsCount::new(HANDS)).bench_local(|| {
        let mut acc = 0u32;
        for &h in black_box(&hands) {
            acc = acc.wrapping_add(eval.eval_wild(h, wilds).0);
        }
        acc
    });
}
