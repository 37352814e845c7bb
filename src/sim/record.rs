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
/// Distinct bins a seat's record lists as observed; past this the harness reads and clears
/// every declared bin (a game-mode game observing many).
const MAX_TOUCHED: usize = 6;

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
    /// Histogram bins (each histogram's bins from its declared offset), written through
    /// [`SeatResult::observe`] so the harness knows which to read.
    pub(crate) bins: [u32; MAX_BINS],
    /// The first distinct bins observed, in order (the harness reads only these).
    pub(crate) touched: [u8; MAX_TOUCHED],
    /// Distinct bins observed, counted up to `MAX_TOUCHED + 1`.
    pub(crate) n_touched: u8,
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
            touched: [0; MAX_TOUCHED],
            n_touched: 0,
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
        let i = offset + bin;
        if self.bins[i] == 0 && self.n_touched as usize <= MAX_TOUCHED {
            if let Some(slot) = self.touched.get_mut(self.n_touched as usize) {
                *slot = i as u8;
            }
            self.n_touched += 1;
        }
        self.bins[i] += 1;
    }

    /// Adds `n` observations to bin `bin` of the histogram starting at `offset` (none if 0).
    #[inline]
    pub fn observe_n(&mut self, offset: usize, bin: usize, n: u32) {
        if n > 0 {
            self.observe(offset, bin);
            self.bins[offset + bin] += n - 1;
        }
    }

    /// Every bin's count (each histogram's bins from its declared offset).
    pub fn bins(&self) -> &[u32; MAX_BINS] {
        &self.bins
    }

    /// The bins observed, as (bin, count); all of the first `declared` when many were.
    #[inline]
    pub fn observed(&self, declared: usize) -> impl Iterator<Item = (usize, u32)> + '_ {
        let sparse = self.n_touched as usize <= MAX_TOUCHED;
        let listed = if sparse { &self.touched[..self.n_touched as usize] } else { &[][..] };
        let dense = if sparse { 0..0 } else { 0..declared };
        listed.iter().map(|&b| b as usize).chain(dense).map(|b| (b, self.bins[b]))
    }

    /// Resets the record for a new unit of play. The whole counter and sum arrays are
    /// zeroed (a few vector stores); of the bins only those observed.
    #[inline]
    fn clear(&mut self, shape: Shape) {
        self.score = 0;
        self.share_units = 0;
        self.rounds = 1;
        self.counters = [0; MAX_COUNTERS];
        self.sums = [0; MAX_SUMS];
        if self.n_touched as usize <= MAX_TOUCHED {
            for &b in &self.touched[..self.n_touched as usize] {
                self.bins[b as usize] = 0;
            }
        } else {
            self.bins[..shape.bins].fill(0);
        }
        self.n_touched = 0;
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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundResult {
    /// Per seat; only the first `players` entries are used.
    pub seats: [SeatResult; MAX_SEATS],
    /// Rounds played (1 in round mode; the game's length in game mode).
    pub length: u32,
    /// The unit's card events, logged only when the run asks for cards.
    pub cards: super::CardLog,
    /// What the unit tells the health card (filled by the driver and the game).
    pub health: super::UnitHealth,
    /// Rules the unit's play used, one bit each as the game declares them
    /// ([`RuleUse`](super::RuleUse)): a key set away from its default whose bit stays
    /// clear in every unit changed nothing a seat did.
    pub rules_used: u32,
}

impl RoundResult {
    /// Makes this result a copy of `other` in all but the seats past `players`, which no
    /// engine writes, and reuses its buffers: the solver copies one at every branch.
    pub fn copy_from(&mut self, other: &RoundResult, players: usize) {
        self.seats[..players].copy_from_slice(&other.seats[..players]);
        self.length = other.length;
        self.cards.clone_from(&other.cards);
        self.health = other.health;
        self.rules_used = other.rules_used;
    }

    /// Resets the first `players` seats for a new unit of play.
    #[inline]
    pub fn clear(&mut self, players: usize, shape: Shape) {
        for seat in &mut self.seats[..players] {
            seat.clear(shape);
        }
        self.length = 1;
        self.health = super::UnitHealth::default();
        self.rules_used = 0;
        if self.cards.on() {
            self.cards.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A spare result copied from another equals it, whatever the spare held in the seats
    /// in play, its card log included; and it copies a log that is off as off.
    #[test]
    fn a_result_copied_into_a_used_spare_equals_its_source() {
        let mut source = RoundResult::default();
        source.cards.set_on(true);
        source.seats[0].score = 5;
        source.seats[1].score = -5;
        source.seats[1].counters[3] = 2;
        source.length = 3;
        source.health.decisions = 7;
        source.rules_used = 0b101;
        source.cards.picked_from(1, 0b1011, 3, 1);
        source.cards.kept(0, 70);
        let mut spare = RoundResult::default();
        spare.seats[0].score = 9;
        spare.seats[1].sums[0] = 4;
        spare.length = 8;
        spare.health.capped = true;
        spare.cards.set_on(true);
        spare.cards.seen(0, 2, 1);
        spare.cards.picked_from(1, 0b110, 2, 1);
        spare.cards.picked_from(1, 0b100, 2, 2);
        spare.copy_from(&source, 2);
        assert_eq!(spare, source);
        let off = RoundResult::default();
        spare.copy_from(&off, 2);
        assert_eq!(spare, off);
        assert!(!spare.cards.on());
    }
}
