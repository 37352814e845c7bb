//! What a game hands the harness after each round: per seat, plain numbers.

/// Most seats any game supports.
pub const MAX_SEATS: usize = 8;

/// Pot shares are counted in these units per round, so shares stay integers and shards
/// merge exactly; 5040 = 7! divides evenly among any 1 to 7 tied winners.
pub const SHARE_UNIT: u32 = 5040;

/// What one seat did in one round (or one game in game mode).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatResult {
    /// Chips won minus chips put in.
    pub net: i64,
    /// Share of the pot won, in units of `1 / SHARE_UNIT`.
    pub share_units: u32,
    /// The betting round (0-based) in which the seat folded, if it did.
    pub fold_round: Option<u8>,
    /// Whether the seat's hand went to a showdown.
    pub showdown: bool,
    /// The category (game-specific index) of the finished hand, if the seat finished one.
    pub finished: Option<u8>,
    /// Whether the finished hand won at least part of a pot at showdown.
    pub won_showdown: bool,
    /// Whether a wild card was in the seat's hand when it won at showdown.
    pub wild_in_win: bool,
    /// Picks (or draws) the seat made.
    pub picks: u8,
    /// Picks that were not the best card for the seat itself (hate picks).
    pub hate_picks: u8,
    /// Game-specific round events this seat took part in, as bits (see [`EVENT_KINDS`]).
    pub events: u8,
}

/// How many event bits [`SeatResult::events`] may use; the tally counts each.
pub const EVENT_KINDS: usize = 4;

/// Every seat's result for one round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundResult {
    /// Per seat; only the first `players` entries are used.
    pub seats: [SeatResult; MAX_SEATS],
    /// Rounds played (1 in round mode; the game's length in game mode).
    pub length: u32,
}
