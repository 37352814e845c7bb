//! Scripted positions and stacked deals for the crate's tests: not part of the library's
//! API (hidden from its documentation, free to change). A game's rules stay in its steps;
//! these only place cards where a test wants them and play on through the same steps.

use super::*;

#[doc(hidden)]
impl State {
    /// Sets up a scripted position for tests: these cards, this library (top last), this
    /// row, and each seat's hand; every board empty with `rules.life`.
    pub fn set_position(&mut self, rules: &Rules, cards: &[Card], library: &[u8], row: &[u8], hands: &[&[u8]]) {
        self.cards[..cards.len()].copy_from_slice(cards);
        self.n_cards = cards.len();
        self.library[..library.len()].copy_from_slice(library);
        self.n_library = library.len();
        self.row[..row.len()].copy_from_slice(row);
        self.n_row = row.len();
        self.n_discard = 0;
        self.n_removed = 0;
        self.wipes = 0;
        self.reshuffles = 0;
        for (s, hand) in hands.iter().enumerate().take(rules.players) {
            self.boards[s] = Board { life: rules.life, ..Board::default() };
            self.hands[s][..hand.len()].copy_from_slice(hand);
            self.boards[s].hand_size = hand.len();
            self.turns[s] = 0;
            self.flood[s] = (0, 0);
        }
    }

    /// Puts cards into play for scripted tests: lands and creatures (not sick).
    pub fn set_board(&mut self, seat: usize, lands: &[u8], creatures: &[u8]) {
        let b = &mut self.boards[seat];
        for &l in lands {
            b.lands[usize::from(self.cards[usize::from(l)].colour)] += 1;
            b.land_ids[b.n_lands] = l;
            b.n_lands += 1;
        }
        for &c in creatures {
            b.creatures[b.n_creatures] = c;
            b.n_creatures += 1;
        }
    }

    /// Sets a seat's mill counters and life, for scripted tests.
    pub fn set_counters(&mut self, seat: usize, mill: u32, life: i32) {
        self.boards[seat].mill = mill;
        self.boards[seat].life = life;
    }

    /// Sets the cards removed from the game, in this order, for scripted tests.
    pub fn set_removed(&mut self, cards: &[u8]) {
        self.removed[..cards.len()].copy_from_slice(cards);
        self.n_removed = cards.len();
    }

    /// Sets the rummy discard pile (top last), for scripted tests.
    pub fn set_discard(&mut self, cards: &[u8]) {
        self.discard[..cards.len()].copy_from_slice(cards);
        self.n_discard = cards.len();
    }
}

/// Plays from the position in `t` (opening included), for scripted tests.
pub fn play_game<B: Bot>(
    rules: &Rules,
    t: &mut State,
    bots: &mut [B],
    seating: &[usize],
    bot_rngs: &mut SeatRngs,
    sink: &mut impl Sink,
    out: &mut RoundResult,
) -> Step {
    t.begin(rules, sink, out)?;
    crate::search::play_on(rules, t, bot_rngs, sink, out, |t, s, rng| t.ask_bot(rules, &mut bots[seating[s]], rng))
}

/// One turn of `seat` (game turn `game_turn`) on the position in `t`, for scripted tests:
/// draw, land, creatures, attack, blocks, damage, discard to hand size; `bots[s]` plays
/// seat `s`, its stream seeded from 0. Returns an ending when the draw ran dry under mill
/// counters.
pub fn take_turn<B: Bot>(
    rules: &Rules,
    t: &mut State,
    bots: &mut [B],
    seat: usize,
    game_turn: u32,
    sink: &mut impl Sink,
    out: &mut RoundResult,
) -> Result<Option<(u8, &'static str)>, Error> {
    let mut bot_rngs = SeatRngs::new(0, bots.len());
    t.stop_after_turn = true;
    t.ended = None;
    t.seat = seat as u8;
    t.game_turn = game_turn;
    let result = t.start_turn(rules, sink, out).and_then(|()| {
        crate::search::play_on(rules, t, &mut bot_rngs, sink, out, |t, s, rng| t.ask_bot(rules, &mut bots[s], rng))
    });
    t.stop_after_turn = false;
    result.map(|()| t.ended)
}
