//! Card analytics in the style of 17lands: which cards each strategy sees and takes, at
//! which pick, and how its units of play go when a card ended in its hand against when it
//! saw the card and passed it.
//!
//! A game with a draft declares a [`CardCatalog`] in its measures and, when the run asks
//! for cards, logs what each seat saw, took and kept into the [`CardLog`] of the unit's
//! result. The harness folds the log into integer [`CardCounts`] per (strategy, card), so
//! threads and shards merge exactly. Without `--cards` the log is off and a game pays one
//! branch per pick for it.

use serde::{Deserialize, Serialize};

use super::tally::{RatioSums, i128_string};
use super::{MAX_SEATS, SHARE_UNIT};
use crate::stats::{self, Estimate};

/// The card identities a drafting game reports on, and coarser groups of them.
#[derive(Clone, Debug, PartialEq)]
pub struct CardCatalog {
    /// Name of each card identity, by id; an empty name is an id no deck uses.
    pub names: Vec<String>,
    /// Ways of pooling cards, e.g. by rank.
    pub groups: Vec<CardGroup>,
}

impl CardCatalog {
    /// Ids the harness counts: every card, then each pooling's groups in turn (so a group
    /// counts each seat-unit once, however many of its cards the seat met).
    pub fn ids(&self) -> usize {
        self.names.len() + self.groups.iter().map(|g| g.names.len()).sum::<usize>()
    }

    /// Where each pooling's groups start among the counted ids.
    pub fn group_offsets(&self) -> Vec<usize> {
        let mut at = self.names.len();
        self.groups
            .iter()
            .map(|g| {
                at += g.names.len();
                at - g.names.len()
            })
            .collect()
    }
}

/// A pooling of card identities into groups (e.g. by rank), reported beside the cards.
#[derive(Clone, Debug, PartialEq)]
pub struct CardGroup {
    /// What the groups are, written in the `level` column, e.g. `rank`.
    pub level: String,
    /// Group names.
    pub names: Vec<String>,
    /// For each card id, its group's index (`None` for ids in no group).
    pub of_card: Vec<Option<u16>>,
}

/// What a seat did with a card, as logged by the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Action {
    /// The card was in front of the seat to choose from, at a pick.
    Seen,
    /// The seat took it, at a pick.
    Taken,
    /// The card ended the unit in the seat's hand (or deck); ids under 64 go to
    /// [`CardLog::kept`] instead.
    Kept,
    /// The seat chose from the cards of `CardEvent::seen` and took `card`.
    Picked,
}

/// One logged action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CardEvent {
    /// For [`Action::Picked`], the ids chosen from, as bits.
    pub(super) seen: u64,
    pub(super) seat: u8,
    pub(super) action: Action,
    pub(super) pick: u16,
    pub(super) card: u16,
}

/// Picks per seat and unit that [`CardLog::picked_from`] keeps in the seat's own row; any
/// later ones go to the events.
pub(super) const PICKS_PER_SEAT: usize = 32;

/// One pick of [`CardLog::picked_from`], in its seat's row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct SeatPick {
    /// The ids chosen from, as bits.
    pub(super) seen: u64,
    pub(super) pick: u16,
    pub(super) card: u16,
}

/// A unit's card events, filled by the engine when the run asks for cards. The buffers are
/// reused from unit to unit, so logging allocates only while the events first grow.
#[derive(Debug, Default)]
pub struct CardLog {
    on: bool,
    /// Every action but the picks the seats' rows hold.
    pub(super) events: Vec<CardEvent>,
    /// Per seat, its picks in order (the first `pick_count`): a folder reads a seat's row in
    /// one pass, its lanes held in registers, where interleaved events kept them in memory.
    /// Boxed: held inline, its 4 KiB made every worker larger and card runs slower.
    pub(super) picks: Box<[[SeatPick; PICKS_PER_SEAT]; MAX_SEATS]>,
    pub(super) pick_count: [u8; MAX_SEATS],
    /// Per seat, the ids under 64 it kept, as bits: keeping is a flag, so a set holds it.
    pub(super) kept: [u64; MAX_SEATS],
    /// The largest pick logged this unit (the folder's fast path takes picks up to 255),
    /// at most `u16::MAX`. Kept in 32 bits: each event reads it back right after the last
    /// one wrote it, and a 16-bit store is not forwarded to the 32-bit load the compiler
    /// makes of it, which cost Seven Card Draft's logging a stall at every pick.
    pub(super) max_pick: u32,
}

impl CardLog {
    /// Whether the run asked for cards: engines log only when this is true.
    #[inline]
    pub fn on(&self) -> bool {
        self.on
    }

    /// Card `card` was among the cards `seat` chose from at pick `pick` (1-based).
    #[inline]
    pub fn seen(&mut self, seat: usize, card: u16, pick: usize) {
        self.push(seat, Action::Seen, pick, card, 0);
    }

    /// `seat` took card `card` at pick `pick` (1-based).
    #[inline]
    pub fn taken(&mut self, seat: usize, card: u16, pick: usize) {
        self.push(seat, Action::Taken, pick, card, 0);
    }

    /// At pick `pick` (1-based), `seat` chose from the ids whose bits are set in `cards`
    /// (each seen once) and took `card`: [`seen`](Self::seen) for each and
    /// [`taken`](Self::taken) in one event, for catalogs of at most 64 ids.
    #[inline]
    pub fn picked_from(&mut self, seat: usize, cards: u64, card: u16, pick: usize) {
        let n = self.pick_count.get(seat).map_or(PICKS_PER_SEAT, |&n| usize::from(n));
        if let Some(row) = self.picks.get_mut(seat)
            && let Some(at) = row.get_mut(n)
        {
            let pick = pick.min(usize::from(u16::MAX)) as u16;
            self.max_pick = self.max_pick.max(u32::from(pick));
            *at = SeatPick { seen: cards, pick, card };
            self.pick_count[seat] = n as u8 + 1;
        } else {
            self.push_cold(seat, Action::Picked, pick, card, cards);
        }
    }

    /// [`push`](Self::push), out of the engines' way.
    #[cold]
    #[inline(never)]
    fn push_cold(&mut self, seat: usize, action: Action, pick: usize, card: u16, seen: u64) {
        self.push(seat, action, pick, card, seen);
    }

    /// The seat's picks in its row, in order.
    #[inline]
    pub(super) fn seat_picks(&self, seat: usize) -> &[SeatPick] {
        &self.picks[seat][..usize::from(self.pick_count[seat])]
    }

    /// Actions logged this unit, each pick one.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.events.len() + self.pick_count.iter().map(|&n| usize::from(n)).sum::<usize>()
    }

    /// Card `card` ended the unit in `seat`'s hand (logging it twice counts it once).
    #[inline]
    pub fn kept(&mut self, seat: usize, card: u16) {
        if card < 64 && seat < MAX_SEATS {
            self.kept[seat] |= 1 << card;
        } else {
            self.push(seat, Action::Kept, 0, card, 0);
        }
    }

    #[inline]
    fn push(&mut self, seat: usize, action: Action, pick: usize, card: u16, seen: u64) {
        let pick = pick.min(usize::from(u16::MAX)) as u16;
        self.max_pick = self.max_pick.max(u32::from(pick));
        self.events.push(CardEvent { seen, seat: seat.min(usize::from(u8::MAX)) as u8, action, pick, card });
    }

    pub(crate) fn set_on(&mut self, on: bool) {
        self.on = on;
    }

    #[inline]
    pub(crate) fn clear(&mut self) {
        self.events.clear();
        self.pick_count = [0; MAX_SEATS];
        self.kept = [0; MAX_SEATS];
        self.max_pick = 0;
    }
}

impl Clone for CardLog {
    fn clone(&self) -> Self {
        CardLog {
            on: self.on,
            events: self.events.clone(),
            picks: self.picks.clone(),
            pick_count: self.pick_count,
            kept: self.kept,
            max_pick: self.max_pick,
        }
    }

    /// Into the buffers already held, and only the rows' picks in use: the solver copies a
    /// log at every branch it expands.
    fn clone_from(&mut self, source: &Self) {
        self.on = source.on;
        self.events.clone_from(&source.events);
        for (row, (from, &n)) in self.picks.iter_mut().zip(source.picks.iter().zip(&source.pick_count)) {
            row[..usize::from(n)].copy_from_slice(&from[..usize::from(n)]);
        }
        self.pick_count = source.pick_count;
        self.kept = source.kept;
        self.max_pick = source.max_pick;
    }
}

/// Logs are equal when they hold the same actions: rows past their counts are stale.
impl PartialEq for CardLog {
    fn eq(&self, other: &CardLog) -> bool {
        self.on == other.on
            && self.events == other.events
            && (0..MAX_SEATS).all(|s| self.seat_picks(s) == other.seat_picks(s))
            && self.kept == other.kept
            && self.max_pick == other.max_pick
    }
}

impl Eq for CardLog {}

/// One strategy's counts for one card (or a group of cards): integer sums only. In C
/// layout, so that the card folder's AVX-512 copy can add a deal group's counts as vectors.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[repr(C)]
pub struct CardCounts {
    /// Seat-units in which the seat saw the card at least once.
    pub seen: u64,
    /// Sightings: picks at which the card was among the seat's choices (each copy of an
    /// identity counted; for a group, each of its cards).
    pub seen_picks: u64,
    /// Times the seat took it.
    pub taken: u64,
    /// Sum and sum of squares of the pick at which it was taken.
    pub taken_pick: u64,
    /// See `taken_pick`.
    pub taken_pick_sq: u64,
    /// Sum and sum of squares of the last pick at which the seat saw it (per seat-unit).
    pub last_seen: u64,
    /// See `last_seen`.
    pub last_seen_sq: u64,
    /// Seat-units in which it ended in the seat's hand.
    pub in_hand: u64,
    /// Win share of those seat-units, in units of `1 / SHARE_UNIT`.
    pub in_hand_share: u64,
    /// Seat-units in which the seat saw it and never took it.
    pub passed: u64,
    /// Win share of those seat-units, in units of `1 / SHARE_UNIT`.
    pub passed_share: u64,
}

/// A card's counts summed per deal group, for intervals that treat a deal (all its
/// seatings) as one observation: each estimate's numerator and denominator, and the
/// cross terms of the two win shares for their difference. Kept apart from
/// [`CardCounts`] so that the folder's per-unit scratch of those stays small in the cache.
/// Only groups in which the strategy met the card add terms; the others add zeros, so each
/// `RatioSums`' `groups` counts the groups that met the card, and the estimates take the
/// run's deal groups as their count instead.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardGroupSums {
    /// Taken over sightings.
    pub take: RatioSums,
    /// Pick taken over times taken.
    pub ata: RatioSums,
    /// Last pick seen over seat-units seen.
    pub alsa: RatioSums,
    /// Win share units over seat-units in hand.
    pub in_hand: RatioSums,
    /// Win share units over seat-units seen and passed.
    pub passed: RatioSums,
    /// The products of the two win shares' terms, for their covariance.
    pub cross: CrossSums,
}

/// Per deal group, in hand (a1 share units over b1 seat-units) against passed (a2 over
/// b2): the sums of their products (decimal strings in JSON).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrossSums {
    /// Σ a1 a2.
    #[serde(with = "i128_string")]
    pub a1a2: i128,
    /// Σ a1 b2.
    #[serde(with = "i128_string")]
    pub a1b2: i128,
    /// Σ b1 a2.
    #[serde(with = "i128_string")]
    pub b1a2: i128,
    /// Σ b1 b2.
    #[serde(with = "i128_string")]
    pub b1b2: i128,
}

impl CardGroupSums {
    /// Adds one deal group's counts of a card.
    pub(crate) fn add(&mut self, g: &CardCounts) {
        let i = |v: u64| v as i64;
        self.take.add(i(g.taken), i(g.seen_picks));
        self.ata.add(i(g.taken_pick), i(g.taken));
        self.alsa.add(i(g.last_seen), i(g.seen));
        self.in_hand.add(i(g.in_hand_share), i(g.in_hand));
        self.passed.add(i(g.passed_share), i(g.passed));
        let (a1, b1, a2, b2) = (g.in_hand_share as i128, g.in_hand as i128, g.passed_share as i128, g.passed as i128);
        let c = &mut self.cross;
        (c.a1a2, c.a1b2, c.b1a2, c.b1b2) = (c.a1a2 + a1 * a2, c.a1b2 + a1 * b2, c.b1a2 + b1 * a2, c.b1b2 + b1 * b2);
    }

    /// Adds another cell's sums.
    pub fn merge(&mut self, o: &CardGroupSums) {
        self.take.merge(&o.take);
        self.ata.merge(&o.ata);
        self.alsa.merge(&o.alsa);
        self.in_hand.merge(&o.in_hand);
        self.passed.merge(&o.passed);
        let (c, o) = (&mut self.cross, &o.cross);
        (c.a1a2, c.a1b2, c.b1a2, c.b1b2) = (c.a1a2 + o.a1a2, c.a1b2 + o.a1b2, c.b1a2 + o.b1a2, c.b1b2 + o.b1b2);
    }
}

/// A card's estimates for one strategy, each with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CardEstimates {
    /// Taken per sighting.
    pub take_rate: Estimate,
    /// Average pick taken (ATA).
    pub ata: Estimate,
    /// Average last pick seen (ALSA).
    pub alsa: Estimate,
    /// Win share with the card in hand.
    pub win_share_in_hand: Estimate,
    /// Win share having seen and passed it.
    pub win_share_passed: Estimate,
    /// In hand minus passed.
    pub in_hand_minus_passed: Estimate,
}

impl CardEstimates {
    /// A figure with nothing to measure (no unit passed the card) has no interval either,
    /// and a pick's number is never below the first.
    fn tidied(mut self) -> CardEstimates {
        for e in [
            &mut self.take_rate,
            &mut self.ata,
            &mut self.alsa,
            &mut self.win_share_in_hand,
            &mut self.win_share_passed,
            &mut self.in_hand_minus_passed,
        ] {
            if e.mean.is_nan() {
                *e = Estimate { mean: f64::NAN, lo: f64::NAN, hi: f64::NAN };
            }
        }
        for e in [&mut self.ata, &mut self.alsa] {
            if e.lo < 1.0 {
                e.lo = 1.0;
            }
        }
        self
    }
}

impl CardCounts {
    /// Every estimate with its interval over units (each sighting, pick or seat-unit one
    /// observation).
    pub fn unit_estimates(&self) -> CardEstimates {
        CardEstimates {
            take_rate: self.take_rate(),
            ata: self.ata(),
            alsa: self.alsa(),
            win_share_in_hand: self.win_share_in_hand(),
            win_share_passed: self.win_share_passed(),
            in_hand_minus_passed: self.in_hand_difference(),
        }
        .tidied()
    }

    /// Every estimate, its interval over the run's `deal_groups` deal groups from `sums`
    /// (these counts summed per group) where they allow it (the small-sample rule of
    /// [`RatioSums::ratio`]: enough groups, events and spread), else over units. A seat
    /// meets the same packs in every seating of a deal, so its units within a group are
    /// not independent.
    pub fn estimates(&self, sums: &CardGroupSums, deal_groups: u64) -> CardEstimates {
        let units = self.unit_estimates();
        let share = f64::from(SHARE_UNIT);
        let over = |sums: &RatioSums| RatioSums { groups: deal_groups, ..sums.clone() };
        let (in_hand, passed) = (over(&sums.in_hand), over(&sums.passed));
        CardEstimates {
            take_rate: centered(units.take_rate, over(&sums.take).ratio(true), true),
            ata: centered(units.ata, over(&sums.ata).ratio(false), false),
            alsa: centered(units.alsa, over(&sums.alsa).ratio(false), false),
            win_share_in_hand: centered(units.win_share_in_hand, in_hand.ratio_scaled(true, share), true),
            win_share_passed: centered(units.win_share_passed, passed.ratio_scaled(true, share), true),
            in_hand_minus_passed: centered(
                units.in_hand_minus_passed,
                share_difference(&in_hand, &passed, &sums.cross),
                false,
            ),
        }
        .tidied()
    }
}

/// The estimate over units with the half-width of the one over groups, if there is one
/// (within 0 and 1 for a rate): the means agree, up to rounding.
fn centered(units: Estimate, groups: Option<Estimate>, rate: bool) -> Estimate {
    let Some(g) = groups else { return units };
    let half = g.half_width();
    let (mut lo, mut hi) = (units.mean - half, units.mean + half);
    if rate {
        (lo, hi) = (lo.max(0.0), hi.min(1.0));
    }
    Estimate { mean: units.mean, lo, hi }
}

/// Win share in hand minus passed over deal groups: the delta method for a difference of
/// two ratios of sums, with their covariance between groups. `None` unless both win shares
/// have intervals over groups.
fn share_difference(in_hand: &RatioSums, passed: &RatioSums, cross: &CrossSums) -> Option<Estimate> {
    let share = f64::from(SHARE_UNIT);
    in_hand.ratio_scaled(true, share)?;
    passed.ratio_scaled(true, share)?;
    let n = in_hand.groups as f64;
    let (r1, r2) = (in_hand.a as f64 / in_hand.b as f64, passed.a as f64 / passed.b as f64);
    let (m1, m2) = (in_hand.b as f64 / n, passed.b as f64 / n);
    let f = |c: i128| c as f64;
    let e1e2 = f(cross.a1a2) - r2 * f(cross.a1b2) - r1 * f(cross.b1a2) + r1 * r2 * f(cross.b1b2);
    let var = (in_hand.residual_sq(r1) / (m1 * m1) + passed.residual_sq(r2) / (m2 * m2) - 2.0 * e1e2 / (m1 * m2))
        / (n * (n - 1.0));
    let df = in_hand.effective_groups()?.min(passed.effective_groups()?);
    // Both shares passed the small-sample rule, so df is at least MIN_PAIRED_GROUPS.
    let half = stats::t_quantile_975(df as u64 - 1) * var.max(0.0).sqrt() / share;
    let d = (r1 - r2) / share;
    Some(Estimate { mean: d, lo: d - half, hi: d + half })
}

impl CardCounts {
    /// Adds another cell's counts.
    pub fn merge(&mut self, o: &CardCounts) {
        self.seen += o.seen;
        self.seen_picks += o.seen_picks;
        self.taken += o.taken;
        self.taken_pick += o.taken_pick;
        self.taken_pick_sq += o.taken_pick_sq;
        self.last_seen += o.last_seen;
        self.last_seen_sq += o.last_seen_sq;
        self.in_hand += o.in_hand;
        self.in_hand_share += o.in_hand_share;
        self.passed += o.passed;
        self.passed_share += o.passed_share;
    }

    /// Whether nothing was counted.
    pub fn is_empty(&self) -> bool {
        self.seen == 0 && self.taken == 0 && self.in_hand == 0
    }

    /// Taken per pick at which it was seen (Wilson interval).
    pub fn take_rate(&self) -> Estimate {
        stats::wilson(self.taken as f64, self.seen_picks)
    }

    /// Average pick at which it was taken (ATA), with a t interval.
    pub fn ata(&self) -> Estimate {
        stats::mean_interval(self.taken, self.taken_pick as f64, self.taken_pick_sq as f64)
    }

    /// Average last pick at which the seat saw it (ALSA), with a t interval.
    pub fn alsa(&self) -> Estimate {
        stats::mean_interval(self.seen, self.last_seen as f64, self.last_seen_sq as f64)
    }

    /// Win share of seat-units with the card in hand (GIH-like), Wilson interval.
    pub fn win_share_in_hand(&self) -> Estimate {
        stats::wilson(self.in_hand_share as f64 / SHARE_UNIT as f64, self.in_hand)
    }

    /// Win share of seat-units where the seat saw it and passed it, Wilson interval.
    pub fn win_share_passed(&self) -> Estimate {
        stats::wilson(self.passed_share as f64 / SHARE_UNIT as f64, self.passed)
    }

    /// In hand minus passed (IWD-like), Newcombe's interval for a difference of proportions.
    pub fn in_hand_difference(&self) -> Estimate {
        stats::difference(&self.win_share_in_hand(), &self.win_share_passed())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ratio's per-group values, as (in-hand share units, in-hand units, passed share
    /// units, passed units), summed into group sums the way the folder does.
    fn sums_of(groups: &[(u64, u64, u64, u64)]) -> CardGroupSums {
        let mut sums = CardGroupSums::default();
        for &(a1, b1, a2, b2) in groups {
            let g =
                CardCounts { in_hand_share: a1, in_hand: b1, passed_share: a2, passed: b2, ..CardCounts::default() };
            sums.add(&g);
        }
        sums
    }

    #[test]
    fn the_in_hand_minus_passed_interval_is_the_spread_of_each_group_s_linearised_difference() {
        // 60 groups of varied counts, in-hand and passed correlated within a group.
        let unit = u64::from(SHARE_UNIT);
        let groups: Vec<(u64, u64, u64, u64)> = (0..60u64)
            .map(|i| {
                let (b1, b2) = (2 + i % 4, 2 + (i * 7) % 3);
                let won1 = (i * 5 + 3) % b1;
                let won2 = (won1 + i / 7) % b2;
                (won1 * unit + (i % 3) * unit / 2, b1, won2 * unit, b2)
            })
            .collect();
        let sums = sums_of(&groups);
        let n = groups.len() as f64;
        let total = |f: fn(&(u64, u64, u64, u64)) -> u64| groups.iter().map(f).sum::<u64>() as f64;
        let (r1, r2) = (total(|g| g.0) / total(|g| g.1), total(|g| g.2) / total(|g| g.3));
        let (m1, m2) = (total(|g| g.1) / n, total(|g| g.3) / n);
        // The linearised difference of each group: its residuals over the mean denominators.
        let z: Vec<f64> = groups
            .iter()
            .map(|&(a1, b1, a2, b2)| (a1 as f64 - r1 * b1 as f64) / m1 - (a2 as f64 - r2 * b2 as f64) / m2)
            .collect();
        let var = z.iter().map(|v| v * v).sum::<f64>() / (n - 1.0) / n;
        let over = |r: &RatioSums| RatioSums { groups: 60, ..r.clone() };
        let d = share_difference(&over(&sums.in_hand), &over(&sums.passed), &sums.cross).expect("enough groups");
        let df = sums.in_hand.effective_groups().unwrap().min(sums.passed.effective_groups().unwrap());
        let expected = stats::t_quantile_975(df as u64 - 1) * var.sqrt() / f64::from(SHARE_UNIT);
        assert!((d.mean - (r1 - r2) / f64::from(SHARE_UNIT)).abs() < 1e-12);
        assert!((d.half_width() / expected - 1.0).abs() < 1e-9, "{} against {expected}", d.half_width());
        // Too few groups, or a share with too few wins: no interval over groups.
        let few = sums_of(&groups[..20]);
        let over20 = |r: &RatioSums| RatioSums { groups: 20, ..r.clone() };
        assert!(share_difference(&over20(&few.in_hand), &over20(&few.passed), &few.cross).is_none());
        let rare: Vec<_> = groups.iter().map(|&(a1, b1, a2, b2)| (a1, b1, a2 / 8, b2)).collect();
        let rare = sums_of(&rare);
        assert!((rare.passed.a as f64 / f64::from(SHARE_UNIT)) < 30.0, "under 30 wins having passed");
        assert!(share_difference(&over(&rare.in_hand), &over(&rare.passed), &rare.cross).is_none());
        assert!(over(&rare.in_hand).ratio_scaled(true, f64::from(SHARE_UNIT)).is_some(), "in hand alone is fine");
    }

    #[test]
    fn nothing_measured_has_no_interval_and_no_pick_precedes_the_first() {
        // Taken three times, at picks 1, 1 and 30: a t interval on three reaches below 1.
        let counts = CardCounts {
            seen_picks: 3,
            taken: 3,
            taken_pick: 32,
            taken_pick_sq: 902,
            seen: 3,
            last_seen: 32,
            last_seen_sq: 902,
            in_hand: 3,
            in_hand_share: 2 * u64::from(SHARE_UNIT),
            ..CardCounts::default()
        };
        let e = counts.unit_estimates();
        assert_eq!((e.ata.lo, e.alsa.lo), (1.0, 1.0), "{e:?}");
        assert!(e.ata.hi > 20.0);
        // Never passed: no win share passed, no difference, and no interval for either.
        for f in [e.win_share_passed, e.in_hand_minus_passed] {
            assert!(f.mean.is_nan() && f.lo.is_nan() && f.hi.is_nan(), "{f:?}");
        }
        assert!(e.win_share_in_hand.lo > 0.0 && e.win_share_in_hand.hi <= 1.0);
    }

    #[test]
    fn card_estimates_count_the_groups_that_never_met_the_card() {
        // 60 groups met the card, 40 more did not: the sums of the 60 read with 100 groups
        // give what the sums of all 100, zeros added, give.
        let groups: Vec<CardCounts> = (0..60u64)
            .map(|i| CardCounts {
                seen_picks: 2 + i % 3,
                taken: (i * 7) % 3,
                taken_pick: ((i * 7) % 3) * (1 + i % 5),
                seen: 1 + i % 2,
                last_seen: (1 + i % 2) * (2 + i % 4),
                in_hand: 1 + i % 2,
                in_hand_share: (i % 3) * u64::from(SHARE_UNIT) / 2,
                passed: 1 + i % 3,
                passed_share: (i % 4 % 2) * u64::from(SHARE_UNIT),
                ..CardCounts::default()
            })
            .collect();
        let (mut met, mut all, mut counts) =
            (CardGroupSums::default(), CardGroupSums::default(), CardCounts::default());
        for g in &groups {
            met.add(g);
            all.add(g);
            counts.merge(g);
        }
        for _ in 0..40 {
            all.add(&CardCounts::default());
        }
        assert_eq!((met.take.groups, all.take.groups), (60, 100));
        assert_eq!(counts.estimates(&met, 100), counts.estimates(&all, 100));
        let (wide, narrow) = (counts.estimates(&met, 100), counts.estimates(&met, 60));
        assert_ne!(wide.take_rate, narrow.take_rate, "the count of groups matters");
        assert_ne!(wide.take_rate, counts.take_rate(), "and the interval is over groups");
    }
}
