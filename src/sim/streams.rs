//! The bots' random streams: one per seat, so one bot's random choices never shift
//! another's (paired comparisons stay uncoupled).

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{MAX_SEATS, mix_seed};

/// The random stream a bot may use; separate from the deal's.
pub type BotRng = Xoshiro256PlusPlus;

/// Stream tag of a seat's bot stream within a unit's bot seed.
const SEAT_STREAM: u64 = 0x5EA7;

/// The deal a unit plays: the seed of its every card and chance step, and its index in the
/// run (every seating of a deal shares both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deal {
    /// Seeds every card and chance step.
    pub seed: u64,
    /// The deal's index in the run.
    pub index: u64,
}

/// Where a unit's randomness comes from: its deal (cards and chance steps) and its seats'
/// bot streams, kept apart so no bot decision changes later cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitSeeds {
    /// Seeds the deal: every card and chance step.
    pub deal: u64,
    /// Seeds the seats' bot streams.
    pub bots: u64,
    /// The unit's deal in the run (every seating of a deal shares it).
    pub deal_index: u64,
}

impl UnitSeeds {
    /// A unit's seeds as deal 0 of a run (scripted play and tests).
    pub fn new(deal: u64, bots: u64) -> UnitSeeds {
        UnitSeeds { deal, bots, deal_index: 0 }
    }
}

/// Each seat's own bot stream for one unit, seeded `mix_seed(bot_seed, seat, ..)`.
#[derive(Clone, Debug)]
pub struct SeatRngs {
    rngs: [BotRng; MAX_SEATS],
}

impl SeatRngs {
    /// The streams of seats `0..players` for a unit with this bot seed.
    pub fn new(bot_seed: u64, players: usize) -> SeatRngs {
        let seat = |s: usize| BotRng::seed_from_u64(mix_seed(bot_seed, s as u64, SEAT_STREAM));
        // Seats past `players` are never drawn from: they hold a copy of seat 0's stream
        // rather than a seeding each (seeding all eight cost Sevens 6% of a hand).
        let first = seat(0);
        SeatRngs { rngs: std::array::from_fn(|s| if s == 0 || s >= players { first.clone() } else { seat(s) }) }
    }

    /// Reseeds seats `0..players` in place for a new unit.
    pub fn reseed(&mut self, bot_seed: u64, players: usize) {
        for (s, rng) in self.rngs[..players].iter_mut().enumerate() {
            *rng = BotRng::seed_from_u64(mix_seed(bot_seed, s as u64, SEAT_STREAM));
        }
    }

    /// Seat `s`'s stream.
    #[inline]
    pub fn seat(&mut self, s: usize) -> &mut BotRng {
        &mut self.rngs[s]
    }
}

#[cfg(test)]
mod tests {
    use rand::Rng;

    use super::*;

    #[test]
    fn a_seat_s_draws_do_not_depend_on_another_seat_s() {
        let mut a = SeatRngs::new(42, 3);
        let mut b = SeatRngs::new(42, 3);
        // Seat 0 draws a lot in `a` only: seat 1's stream is unchanged.
        for _ in 0..100 {
            let _: u64 = a.seat(0).random();
        }
        let x: Vec<u64> = (0..8).map(|_| a.seat(1).random()).collect();
        let y: Vec<u64> = (0..8).map(|_| b.seat(1).random()).collect();
        assert_eq!(x, y);
        let z: Vec<u64> = (0..8).map(|_| b.seat(2).random()).collect();
        assert_ne!(y, z, "seats have different streams");
        let mut c = SeatRngs::new(43, 3);
        assert_ne!(c.seat(1).random::<u64>(), SeatRngs::new(42, 3).seat(1).random::<u64>());
    }
}
