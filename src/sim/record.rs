//! What a game hands the harness after each unit of play (a round, or a whole game): per
//! seat, a fixed-size record of plain integers, indexed by the slots the game declared in
//! its [`Measures`](super::Measures). Nothing here allocates.

/// Most seats any game supports.
pub const MAX_SEATS: usize = 8;
/// Most counters a game may declare.
pub const MAX_COUNTERS: usize = 16;
/// Most sums a game may declare.
pub const MAX_SUMS: usize = 8;
/// Most histogram bins a game may declare, over all its histograms together.
pub const MAX_BINS: usize = 64;

/// Win shares are counted in these units per unit of play, so shares stay integers and
/// shards merge exactly; 5040 = 7! divides evenly among any 1 to 7 tied winners.
pub const SHARE_UNIT: u32 = 5040;

/// What one seat did in one unit of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatResult {
    /// The payoff the game declares: net chips, +1/-1, victory cards, ...
    pub score: i64,
    /// Share of the win, in units of `1 / SHARE_UNIT` (split wins by share).
    pub share_units: u32,
    /// Rounds this seat was dealt into (1 in round mode; a game's rounds in game mode):
    /// the denominator of per-seat-round rates.
    pub rounds: u32,
    /// Counters by declared slot.
    pub counters: [u32; MAX_COUNTERS],
    /// Sums by declared slot.
    pub sums: [i64; MAX_SUMS],
    /// Histogram bins (each histogram's bins from its declared offset).
    pub bins: [u32; MAX_BINS],
}

impl Default for SeatResult {
    fn default() -> Self {
        SeatResult {
            score: 0,
            share_units: 0,
            rounds: 1,
            counters: [0; MAX_COUNTERS],
            sums: [0; MAX_SUMS],
            bins: [0; MAX_BINS],
        }
    }
}

impl SeatResult {
    /// Adds one to counter `slot`.
    #[inline]
    pub fn count(&mut self, slot: usize) {
        self.counters[slot] += 1;
    }

    /// Adds one observation to bin `bin` of the histogram starting at `offset`.
    #[inline]
    pub fn observe(&mut self, offset: usize, bin: usize) {
        self.bins[offset + bin] += 1;
    }

    /// Resets the first `shape` entries of each part (the rest are never read).
    #[inline]
    fn clear(&mut self, shape: Shape) {
        self.score = 0;
        self.share_units = 0;
        self.rounds = 1;
        self.counters[..shape.counters].fill(0);
        self.sums[..shape.sums].fill(0);
        self.bins[..shape.bins].fill(0);
    }
}

/// How many counters, sums and bins a game uses: the harness clears only these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Counter slots in use.
    pub counters: usize,
    /// Sum slots in use.
    pub sums: usize,
    /// Bins in use.
    pub bins: usize,
}

/// Every seat's result for one unit of play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundResult {
    /// Per seat; only the first `players` entries are used.
    pub seats: [SeatResult; MAX_SEATS],
    /// Rounds played (1 in round mode; the game's length in game mode).
    pub length: u32,
}

impl RoundResult {
    /// Resets the first `players` seats for a new unit of play.
    #[inline]
    pub fn clear(&mut self, players: usize, shape: Shape) {
        for seat in &mut self.seats[..players] {
            seat.clear(shape);
        }
        self.length = 1;
    }
}
