//! Scripted positions and stacked deals for the crate's tests: not part of the library's
//! API (hidden from its documentation, free to change). A game's rules stay in its steps;
//! these only place cards where a test wants them and play on through the same steps.

use super::*;

/// A stacked round for tests and examples: these hands, this pile (drawn from the end),
/// these victory colours already held.
pub struct Stacked<'a> {
    /// Each seat's hand.
    pub hands: &'a [u64],
    /// The draw pile; the last card is drawn first.
    pub pile: &'a [u8],
    /// Each seat's victory colours, as bits.
    pub victory: &'a [u8],
}

/// Plays one round on a stacked deal (first player seat 0); returns its winner.
pub fn play_stacked<B: Bot>(
    rules: &Rules,
    t: &mut State,
    bots: &mut [B],
    stacked: &Stacked<'_>,
    bot_seed: u64,
    sink: &mut impl Sink,
    out: &mut RoundResult,
) -> Result<Option<usize>, Error> {
    let n = rules.players;
    let layout = Layout { per: rules.cards_per_colour };
    let mut rngs = SeatRngs::new(bot_seed, n);
    t.public = Public { players: n, ..Public::default() };
    t.hands = [0; MAX_SEATS];
    t.hands[..n].copy_from_slice(stacked.hands);
    t.public.victory[..n].copy_from_slice(stacked.victory);
    // Victory cards already taken are out of play: one card of each held colour not dealt.
    let dealt = stacked.hands.iter().fold(0, |a, h| a | h) | stacked.pile.iter().fold(0, |m, &id| m | 1 << id);
    t.public.removed = layout.all() & !dealt;
    t.pile[..stacked.pile.len()].copy_from_slice(stacked.pile);
    t.public.pile = stacked.pile.len() as u8;
    t.deal_seed = 0;
    t.last_round = u32::MAX;
    t.truncated = false;
    t.stacked = true;
    t.single_round = true;
    let mut round = || -> Result<(), Error> {
        t.start_round(rules, sink, out)?;
        t.stacked = false;
        crate::search::play_on(rules, t, &mut rngs, sink, out, |t, s, rng| t.ask_bot(rules, &mut bots[s], rng))
    };
    let result = round();
    t.stacked = false;
    t.single_round = false;
    result.map(|()| t.public.round_winner.map(usize::from))
}
