//! Scripted positions and stacked deals for the crate's tests: not part of the library's
//! API (hidden from its documentation, free to change). A game's rules stay in its steps;
//! these only place cards where a test wants them and play on through the same steps.

use super::*;

#[doc(hidden)]
impl State {
    /// Sets the stack (the last card is the top) and the removed cards, for scripted tests.
    pub fn set_stack(&mut self, stack: &[u8], removed: Cards) {
        self.stack[..stack.len()].copy_from_slice(stack);
        self.stack_len = stack.len();
        self.stack_dealt = stack.len();
        self.removed = removed;
    }

    /// Sets `seat`'s side of a game, for scripted tests: its deck list is every card given,
    /// `deck` is drawn from the end, and `named` is the colour named if `top` is wild.
    pub fn set_side(&mut self, pool: &Pool, seat: usize, deck: &[u8], hand: Cards, top: u8, named: Option<usize>) {
        let side = &mut self.sides[seat];
        *side = Side::default();
        side.deck[..deck.len()].copy_from_slice(deck);
        side.deck_len = deck.len();
        side.hand = hand;
        set_top(pool, side, top, named);
        self.decks[seat] = side.deck_cards() | hand | bit(top);
    }
}

/// Plays one match from the stack already in `t` (the last card is the top), with
/// `t.removed` set.
pub fn play_stacked<B: Bot>(
    variant: &Variant,
    t: &mut State,
    bots: &mut [B],
    seating: &[usize],
    seeds: UnitSeeds,
    sink: &mut impl Sink,
    out: &mut RoundResult,
) -> Step {
    t.start_stacked(&variant.rules, &variant.pool, seeds.deal, sink, out)?;
    let mut rngs = SeatRngs::new(seeds.bots, 2);
    crate::search::play_on(variant, t, &mut rngs, sink, out, |t, s, rng| t.ask_bot(variant, &mut bots[seating[s]], rng))
}

/// The Winston draft from the stack in `t` until no card is left (public for scripted
/// tests); the table then waits for seat 0's deck.
pub fn draft<B: Bot>(
    variant: &Variant,
    t: &mut State,
    bots: &mut [B],
    seating: &[usize],
    bot_rngs: &mut SeatRngs,
    sink: &mut impl Sink,
    out: &mut RoundResult,
) -> Step {
    let (rules, pool) = (&variant.rules, &variant.pool);
    t.begin_draft();
    t.run(rules, pool, Stage::DraftTurn, sink, out)?;
    while let Phase::Draft { seat, .. } = t.phase {
        let s = usize::from(seat);
        let m = t.ask_bot(variant, &mut bots[seating[s]], bot_rngs.seat(s))?;
        t.step(variant, m, sink, out)?;
    }
    Ok(())
}

/// One scripted turn of `seat` on the sides set with [`State::set_side`] (reshuffles
/// seeded from 0); returns (won, takes another turn).
pub fn scripted_turn<B: Bot>(
    variant: &Variant,
    t: &mut State,
    bot: &mut B,
    seat: usize,
    sink: &mut impl Sink,
    out: &mut RoundResult,
) -> Result<(bool, bool), Error> {
    t.rngs = [Xoshiro256PlusPlus::seed_from_u64(0), Xoshiro256PlusPlus::seed_from_u64(1)];
    t.peeked = [(NO_CARD, NO_CARD); 2];
    let mut rng = BotRng::seed_from_u64(0);
    t.turn_seat = seat;
    t.game_turns = 0;
    t.one_turn = true;
    let mut result = t.run(&variant.rules, &variant.pool, Stage::StartTurn, sink, out);
    while result.is_ok() && t.to_act().is_some() {
        result = t.ask_bot(variant, bot, &mut rng).and_then(|m| t.step(variant, m, sink, out));
    }
    t.one_turn = false;
    t.phase = Phase::Over;
    result?;
    t.check_game()?;
    Ok(t.turn_result)
}
