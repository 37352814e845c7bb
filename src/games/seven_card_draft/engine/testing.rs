//! Scripted positions and stacked deals for the crate's tests: not part of the library's
//! API (hidden from its documentation, free to change). A game's rules stay in its steps;
//! these only place cards where a test wants them and play on through the same steps.

use super::*;

#[doc(hidden)]
impl State {
    /// Starts one round on packs given seat by seat (a stacked deck) and these stacks.
    pub fn reset_stacked(
        &mut self,
        variant: &Variant,
        packs: &[CardSet],
        stacks: &[u32],
        deal_index: u64,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Step {
        let n = variant.rules.players;
        assert!(
            packs.len() == n && packs.iter().all(|p| p.len() as usize == variant.rules.pack_size),
            "one full pack per seat"
        );
        self.stacked_packs[..n].copy_from_slice(packs);
        self.stacked = true;
        self.start_unit(variant, 0, Some(stacks), deal_index, sink, out)
    }
}

/// A stacked deal for scripted play: packs given seat by seat and the starting stacks.
#[derive(Clone, Copy, Debug)]
pub struct StackedDeal<'a> {
    /// Each seat's first pack.
    pub packs: &'a [CardSet],
    /// Each seat's starting stack.
    pub stacks: &'a [u32],
    /// Seeds the seats' bot streams.
    pub bot_seed: u64,
    /// The unit's deal in the run (sets the passing direction).
    pub deal_index: u64,
}

/// Plays one round on a stacked deal.
pub fn play_stacked<B: Bot>(
    variant: &Variant,
    table: &mut State,
    bots: &mut [B],
    seating: &[usize],
    deal: &StackedDeal<'_>,
    sink: &mut impl Sink,
    out: &mut RoundResult,
) -> Step {
    let mut rngs = SeatRngs::new(deal.bot_seed, variant.rules.players);
    table.reset_stacked(variant, deal.packs, deal.stacks, deal.deal_index, sink, out)?;
    let result = crate::search::play_on(variant, table, &mut rngs, sink, out, |t, s, rng| {
        t.ask_bot(variant, &mut bots[seating[s]], rng)
    });
    table.stacked = false;
    result?;
    out.length = 1;
    Ok(())
}
