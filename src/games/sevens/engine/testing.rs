//! Scripted positions and stacked deals for the crate's tests: not part of the library's
//! API (hidden from its documentation, free to change). A game's rules stay in its steps;
//! these only place cards where a test wants them and play on through the same steps.

use super::*;

/// A stacked deck for scripted play: the draw pile's order (cards are dealt one at a time
/// from seat 1 round to seat 0, then trades draw the next ones), holding all 36 card ids
/// once, and the seats' bot stream seed.
#[derive(Clone, Copy, Debug)]
pub struct StackedDeck<'a> {
    /// The draw pile, first card first.
    pub order: &'a [SevensCard],
    /// Seeds the seats' bot streams.
    pub bot_seed: u64,
}

/// Plays one unit on a stacked deck.
pub fn play_stacked<B: Bot>(
    rules: &Rules,
    t: &mut State,
    bots: &mut [B],
    seating: &[usize],
    deck: &StackedDeck<'_>,
    sink: &mut impl Sink,
    out: &mut RoundResult,
) -> Step {
    let StackedDeck { order, bot_seed } = *deck;
    let mut ids: Vec<u8> = order.iter().map(|c| c.0).collect();
    ids.sort_unstable();
    assert!(ids == (0..DECK_SIZE as u8).collect::<Vec<_>>(), "a stacked deck holds every card once");
    for (slot, c) in t.pile.cards.iter_mut().zip(order) {
        *slot = c.0;
    }
    t.pile.stacked = true;
    let seeds = UnitSeeds { deal: 0, bots: bot_seed, deal_index: 0 };
    let result = crate::search::play_with(rules, t, rules.players, seeds, sink, out, |t, s, rng| {
        t.ask_bot(rules, &mut bots[seating[s]], rng)
    });
    t.pile.stacked = false;
    result
}
