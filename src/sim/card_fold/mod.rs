//! Folding units' card logs into per (strategy, id) counts and per deal group sums.
//!
//! Two folders give the same integers. The event folder follows each logged card through
//! a state per (seat, id) and a cell per (strategy, id); it takes any catalog. The lane
//! folder takes catalogs of at most 64 cards, where a card is a lane and a set of cards a
//! 64-bit mask: a strategy's counts in the current deal group are byte lanes that a whole
//! mask adds to at once, a seat's last pick seen is a byte per lane, and each pooling
//! (ranks, say) has lanes of its own, filled from the cards' masks when a seat's unit
//! ends. A seat's picks come in a row of their own ([`CardLog::picked_from`]), folded in
//! one pass with the seat's lanes held in registers (in the AVX-512 copy, until they are
//! added to its strategy's counters). When a deal group ends, the lanes it touched are
//! read once: their counts and the squares and products the intervals need go to 64-bit
//! totals (the AVX-512 copy adds them to term-major 32- and 64-bit sums, 16 lanes an
//! instruction, moved to the totals before these are read or the sums could overflow),
//! handed to the run's tally when it drains the folder (once a batch). A unit the lanes
//! cannot take (a pick over 255, or sums that could outgrow the totals) goes to the event
//! folder, which then finishes its deal group. The lanes' folding and group closing are
//! compiled for the build's baseline and again for AVX-512, and a folder runs the widest
//! copy its processor has.

//!
//! The event folder is in `events`, the lanes in `lanes`, and their copies for x86-64
//! vector instructions in `lanes/x86_64`.

use super::cards::{CardCatalog, CardCounts, CardGroupSums, CardLog};
use events::EventFolder;
use lanes::LaneFolder;

/// Folds units' card logs into per (strategy, id) counts, each card's groups included,
/// one deal group at a time; a run keeps each from chunk to chunk and drains it once a
/// batch.
pub(crate) struct CardFolder {
    events: EventFolder,
    lanes: Option<LaneFolder>,
    /// Whether a unit of the current deal group went to the event folder.
    events_in_group: bool,
    /// Counts and group sums held until [`drain_into`](Self::drain_into): the deal groups
    /// the event folder finished, and the lanes' totals when they must be moved early.
    cells: Vec<CardCounts>,
    sums: Vec<CardGroupSums>,
}

impl CardFolder {
    /// A folder for `seats` seats and `strategies` strategies.
    pub(crate) fn new(catalog: &CardCatalog, seats: usize, strategies: usize) -> CardFolder {
        CardFolder {
            events: EventFolder::new(catalog, seats, strategies),
            lanes: LaneFolder::new(catalog, strategies),
            events_in_group: false,
            cells: vec![CardCounts::default(); catalog.ids() * strategies],
            sums: vec![CardGroupSums::default(); catalog.ids() * strategies],
        }
    }

    /// A folder whose lanes run the copy compiled for `isa`.
    #[cfg(test)]
    fn with_isa(catalog: &CardCatalog, seats: usize, strategies: usize, isa: Isa) -> CardFolder {
        let mut folder = CardFolder::new(catalog, seats, strategies);
        if let Some(lanes) = folder.lanes.as_mut() {
            lanes.isa = isa;
        }
        folder
    }

    /// A folder that takes every unit through the event folder, to check the lanes by.
    #[cfg(test)]
    fn events_only(catalog: &CardCatalog, seats: usize, strategies: usize) -> CardFolder {
        CardFolder { lanes: None, ..CardFolder::new(catalog, seats, strategies) }
    }

    /// Adds one unit to the deal group's counts: `strategy_at[s]` is seat `s`'s strategy,
    /// `share[s]` its win share.
    pub(crate) fn fold(&mut self, log: &CardLog, strategy_at: &[usize], share: &[u32]) {
        if let Some(lanes) = self.lanes.as_mut()
            && let Some(bound) = lanes.takes(log, strategy_at, share)
        {
            lanes.fold(log, strategy_at, share, bound);
        } else {
            self.events.fold(log, strategy_at, share);
            self.events_in_group = true;
        }
    }

    /// Ends a deal group: its counts and their group sums are held until
    /// [`drain_into`](Self::drain_into).
    pub(crate) fn end_group(&mut self) {
        if self.events_in_group {
            // The group's sums square whole-group counts: the lanes' part joins the
            // events' before the group is summed.
            if let Some(lanes) = self.lanes.as_mut() {
                lanes.end_group_into(&mut self.events);
            }
            self.events.end_group(&mut self.cells, &mut self.sums);
            self.events_in_group = false;
        } else if let Some(lanes) = self.lanes.as_mut() {
            lanes.end_group(&mut self.cells, &mut self.sums);
        }
    }

    /// Adds every count held to `cells` and `sums` (per (strategy, id), strategy-major) and
    /// clears them: call it between deal groups. Counts are integer sums, so which folder
    /// folded which deal groups, and when they are drained, does not change the totals.
    pub(crate) fn drain_into(&mut self, cells: &mut [CardCounts], sums: &mut [CardGroupSums]) {
        if let Some(lanes) = self.lanes.as_mut() {
            lanes.flush(cells, sums);
        }
        for (to, from) in cells.iter_mut().zip(&mut self.cells) {
            to.merge(&std::mem::take(from));
        }
        for (to, from) in sums.iter_mut().zip(&mut self.sums) {
            to.merge(&std::mem::take(from));
        }
    }
}

/// The widest vector instructions the lane folder has a compiled copy for that the
/// processor runs: the build's baseline, or AVX-512 (whose byte ops take 64 lanes in one
/// instruction, where the baseline takes four). An AVX2 copy did not earn its keep in the
/// benchmarks, so AVX2 machines run the baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Isa {
    Baseline,
    Avx512,
}

impl Isa {
    /// The copy a folder runs: the widest this processor runs, or the baseline where the
    /// environment variable `DRAFTSIM_ISA` is `baseline`, so that one copy can be measured
    /// against the other on the same machine.
    fn chosen() -> Isa {
        static CHOSEN: std::sync::OnceLock<Isa> = std::sync::OnceLock::new();
        *CHOSEN.get_or_init(|| match std::env::var("DRAFTSIM_ISA").as_deref() {
            Ok("baseline") => Isa::Baseline,
            _ => Isa::detect(),
        })
    }

    /// The widest this processor runs.
    fn detect() -> Isa {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512bw") && std::arch::is_x86_feature_detected!("avx512vl") {
                return Isa::Avx512;
            }
        }
        Isa::Baseline
    }

    /// Every copy this processor runs, narrowest first.
    #[cfg(test)]
    fn available() -> Vec<Isa> {
        let widest = Isa::detect();
        [Isa::Baseline, Isa::Avx512].into_iter().filter(|&isa| isa as u8 <= widest as u8).collect()
    }
}

/// Runs `$body` (an expression over the folder) compiled for the folder's [`Isa`].
macro_rules! with_isa {
    ($isa:expr, $body:expr) => {{
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
            fn avx512<R>(f: impl FnOnce() -> R) -> R {
                f()
            }
            match $isa {
                // SAFETY: `Isa::detect` saw the processor run these instructions.
                Isa::Avx512 => unsafe { avx512(|| $body) },
                Isa::Baseline => $body,
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            $body
        }
    }};
}

/// The set bits of `mask`, lowest first.
#[inline]
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

/// One lane's counts for one deal group: the terms of [`CardGroupSums`].
#[derive(Clone, Copy, Debug, Default)]
struct GroupValues {
    seen: u64,
    seen_picks: u64,
    taken: u64,
    taken_pick: u64,
    last_seen: u64,
    in_hand: u64,
    in_hand_share: u64,
    passed: u64,
    passed_share: u64,
}

mod events;
mod lanes;
#[cfg(test)]
mod tests;
