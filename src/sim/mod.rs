//! The generic simulation harness: seeding, chunks, paired deals, balanced seatings,
//! stopping rules and shards.
//!
//! Reproducibility: every deal's seed comes from (run seed, global deal index) and every
//! bot stream from (run seed, deal index, the seating's place in the design), so a round's
//! play does not depend on which thread, chunk or shard ran it, nor on the order the
//! strategies were listed in. Work is cut into chunks of [`CHUNK_DEALS`] deals; chunks run
//! in parallel in batches and their tallies are merged in chunk order. Tallies hold integer
//! counts and sums only, so merging shards is exact.

mod card_fold;
mod cards;
mod check;
mod events;
mod health;
mod measures;
mod record;
mod seat_figures;
mod seatings;
mod streams;
mod tally;

pub use cards::{CardCatalog, CardCounts, CardEstimates, CardGroup, CardGroupSums, CardLog, CrossSums};
pub use check::{CheckReport, Violation, check};
pub use events::{EventSink, NoEvents};
pub use health::{
    GROUP_SLOTS, GroupHealth, HealthFigure, HealthSums, LENGTH_BINS, RATIO_FIGURES, RatioFigure, UnitHealth,
    deals_sampling, figure_meanings, group_value, health_figures, sampled_deal, seat_share,
};
pub use measures::{Bins, Histogram, Kind, Measure, Measures, Score, Shown};
pub use record::{MAX_BINS, MAX_COUNTERS, MAX_SEATS, MAX_SUMS, RoundResult, SHARE_UNIT, SeatResult, Shape};
pub use seat_figures::{SeatFigures, SeatShares};
pub use seatings::{Seatings, field, listed};
pub use streams::{BotRng, Deal, SeatRngs, UnitSeeds};
pub use tally::{Counts, GroupSums, MAX_MEASURES, MIN_PAIRED_GROUPS, PairedSums, RatioSums, Tally};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;

use crate::error::{Error, InputError};

/// Deals per chunk: the unit of parallel work and of sharding.
pub const CHUNK_DEALS: u64 = 64;
/// Chunks run in parallel before their tallies are merged (bounds memory and sets how
/// often `--until-ci` and progress are checked).
const BATCH_CHUNKS: u64 = 128;

/// A game the harness can run: a rules-and-lineup object that plays one unit (a round, or
/// a whole game) at a time.
pub trait Game: Sync {
    /// Per-thread state (table scratch, one bot per lineup entry), made once per job.
    type Worker: Send;
    /// Number of seats.
    fn players(&self) -> usize;
    /// A fresh worker.
    fn worker(&self) -> Self::Worker;
    /// What the game measures (the slots `play` fills).
    fn measures(&self) -> &Measures;
    /// Plays one unit with lineup entry `seating[s]` at seat `s`, adding to `out` (cleared
    /// by the caller).
    fn play(
        &self,
        worker: &mut Self::Worker,
        seeds: UnitSeeds,
        seating: &[usize],
        out: &mut RoundResult,
    ) -> Result<(), Error>;
    /// Turns the engine's invariant checks on or off in `worker` (debug builds keep them on).
    fn set_checking(&self, worker: &mut Self::Worker, on: bool) {
        let _ = (worker, on);
    }
    /// Plays one unit as `play` does, checking the game's invariants after every step; a
    /// violation is [`Error::Invariant`]. The result must equal `play`'s.
    fn play_checked(
        &self,
        worker: &mut Self::Worker,
        seeds: UnitSeeds,
        seating: &[usize],
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        self.set_checking(worker, true);
        let result = self.play(worker, seeds, seating, out);
        self.set_checking(worker, false);
        result
    }
    /// The unit told move by move.
    fn replay(&self, seeds: UnitSeeds, seating: &[usize]) -> Result<String, Error>;
}

/// A shard: this run plays chunks `j` with `j % count == index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// This shard, 0-based.
    pub index: u64,
    /// Number of shards.
    pub count: u64,
}

impl Shard {
    /// Parses `i/n`, or `auto/n` with the index from `SLURM_ARRAY_TASK_ID` or `JOB_COMPLETION_INDEX`.
    pub fn parse(text: &str) -> Result<Shard, InputError> {
        let bad = || InputError::new(format!("--shard '{text}': write i/n with 0 <= i < n, e.g. 0/4, or auto/n"));
        // A value may start with a hyphen (`-1/3`, refused below): a flag in its place
        // means the value was left out.
        if text.starts_with("--") {
            return Err(InputError::new(format!("--shard: give i/n before {text}, e.g. --shard 0/4")));
        }
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        let auto = i.trim() == "auto";
        let index: u64 = if auto {
            let (name, var) = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"]
                .iter()
                .find_map(|v| std::env::var(v).ok().map(|value| (v, value)))
                .ok_or_else(|| InputError::new("--shard auto/n: set SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX"))?;
            var.trim().parse().map_err(|_| {
                InputError::new(format!(
                    "--shard auto: {name} is '{var}', not a task index; run it as an array task (Slurm's --array, an indexed Job) or give --shard i/n"
                ))
            })?
        } else {
            i.trim().parse().map_err(|_| bad())?
        };
        if auto && count > 0 && index >= count {
            return Err(InputError::new(format!(
                "--shard '{text}': the task index is {index}, but {count} shards run 0 to {}; give auto/N with N the array's size",
                count - 1
            )));
        }
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Chunks of a run of `deals` deals that this shard plays (chunks are dealt round the
    /// shards in turn): none when the run has no more chunks than this shard's index.
    pub fn chunks_of(&self, deals: u64) -> u64 {
        deals.div_ceil(CHUNK_DEALS).saturating_sub(self.index).div_ceil(self.count)
    }

    /// Deals of a run of `deals` deals that this shard plays (the last chunk may be short).
    pub fn deals_of(&self, deals: u64) -> u64 {
        (0..self.chunks_of(deals))
            .map(|k| (self.index + k * self.count) * CHUNK_DEALS)
            .map(|start| (deals - start).min(CHUNK_DEALS))
            .sum()
    }
}

/// The deals a run of `rounds` plays with `seatings` seatings a deal: rounds are rounded up
/// to whole deals, and a run plays at least one.
pub fn deals_for(rounds: u64, seatings: u64) -> u64 {
    rounds.div_ceil(seatings).max(1)
}

/// How a run is cut and seeded.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The run's seed.
    pub seed: u64,
    /// Rounds wanted (rounded up to whole deals); with `until_ci`, the most to play.
    pub rounds: u64,
    /// Play each deal under the seatings balanced for seat and neighbour ([`Seatings`]);
    /// false: once, as listed.
    pub rotate: bool,
    /// Play only this shard's chunks.
    pub shard: Option<Shard>,
    /// Stop once every strategy's win-rate interval half-width is at most this.
    pub until_ci: Option<f64>,
    /// Tally card analytics (the game must declare a card catalog).
    pub cards: bool,
    /// The run's first deal: deals are numbered (and seeded) from here, so a run of one
    /// deal can play deal k of a longer run (`play` plays its units one run at a time).
    pub first_deal: u64,
}

/// The lineup's strategies: distinct names, and which one each lineup entry plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lineup {
    /// Distinct strategy names, in order of first appearance.
    pub strategies: Vec<String>,
    /// For each lineup entry, its strategy index.
    pub entry_strategy: Vec<usize>,
}

impl Lineup {
    /// Groups a list of seat strategies by name.
    pub fn new(seats: &[String]) -> Lineup {
        let mut strategies: Vec<String> = Vec::new();
        let entry_strategy = seats
            .iter()
            .map(|s| match strategies.iter().position(|x| x == s) {
                Some(i) => i,
                None => {
                    strategies.push(s.clone());
                    strategies.len() - 1
                }
            })
            .collect();
        Lineup { strategies, entry_strategy }
    }
}

/// Mixes a seed, an index and a stream tag into an independent 64-bit seed (SplitMix64).
pub fn mix_seed(seed: u64, index: u64, stream: u64) -> u64 {
    let mut z = seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    for _ in 0..2 {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
    }
    z
}

const DEAL_STREAM: u64 = 0xDEA1;
const BOT_STREAM: u64 = 0xB075;
const SEATING_STREAM: u64 = 0x5EA71;

/// The bots' seed for seating `index` of `deal`: the seating's place in the (order-free)
/// design, not which strategy was listed first, picks the streams.
fn bot_seed(seed: u64, deal: u64, index: usize) -> u64 {
    mix_seed(mix_seed(seed, deal, BOT_STREAM), index as u64, SEATING_STREAM)
}

/// Seeds and seating of one round of a run, by its index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundAddress {
    /// The deal it belongs to.
    pub deal: u64,
    /// Its seating's index among the deal's seatings.
    pub seating_index: usize,
    /// The deal's seed (the same for every seating).
    pub deal_seed: u64,
    /// The bots' seed.
    pub bot_seed: u64,
    /// Lineup entry at each seat.
    pub seating: Vec<usize>,
}

impl RoundAddress {
    /// The unit's seeds.
    pub fn seeds(&self) -> UnitSeeds {
        UnitSeeds { deal: self.deal_seed, bots: self.bot_seed, deal_index: self.deal }
    }
}

/// Where round `k` of a run sits: its deal, seating, seeds.
pub fn round_address(seed: u64, seatings: &Seatings, k: u64) -> RoundAddress {
    let per = seatings.len() as u64;
    let deal = k / per;
    let index = (k % per) as usize;
    RoundAddress {
        deal,
        seating_index: index,
        deal_seed: mix_seed(seed, deal, DEAL_STREAM),
        bot_seed: bot_seed(seed, deal, index),
        seating: seatings.get(index).to_vec(),
    }
}

/// A rules key set away from its default that a game can see being used: bit `bit` of
/// [`RoundResult::rules_used`] is set in a unit where the key changed something a seat did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleUse {
    /// The bit.
    pub bit: u32,
    /// The setting, as in a rules file (`limit = "no-limit"`).
    pub setting: String,
    /// What it means that no unit used it (`no seated strategy bet more than the fixed
    /// amount; these are fixed-limit results`).
    pub unused: String,
}

impl RuleUse {
    /// The notes for the settings no unit of `tally` used: one line each, naming the key.
    pub fn unused_notes(uses: &[RuleUse], tally: &Tally) -> Vec<String> {
        uses.iter()
            .filter(|u| tally.rules_used.get(u.bit as usize).copied().unwrap_or(0) == 0)
            .map(|u| format!("{}: {}", u.setting, u.unused))
            .collect()
    }
}

/// One row of the optional per-round table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundRow {
    /// Round index in the run.
    pub round: u64,
    /// Seat.
    pub seat: u8,
    /// Strategy index.
    pub strategy: u16,
    /// What happened.
    pub result: SeatResult,
}

/// How the harness plays each unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Tally only.
    Tally,
    /// Tally and keep one row per unit and seat (for the `rounds` table).
    Rows,
    /// Tally with every invariant checked (`draftsim check`).
    Checked,
    /// Tally and keep one row per deal group and strategy: the strategy's score and win
    /// share units summed over the group's rounds (`round`: the group's first round,
    /// `seat`: 0), for pairing runs of other lineups on the same deals.
    DealRows,
    /// [`Mode::DealRows`], and the tally keeps each group's health sums too (for the
    /// sensitivity study's paired health figures): memory grows with the deals.
    DealGroups,
}

/// Runs a plan; `on_batch` sees the rounds done so far and each batch's rows (per round
/// with [`Mode::Rows`], per deal group with [`Mode::DealRows`] and [`Mode::DealGroups`],
/// else none), in order.
/// Returns the merged tally.
pub fn run<G: Game>(
    game: &G,
    lineup: &Lineup,
    plan: &Plan,
    mode: Mode,
    interrupt: Option<&AtomicBool>,
    mut on_batch: impl FnMut(u64, &[RoundRow]) -> Result<(), Error>,
) -> Result<Tally, Error> {
    let players = game.players();
    let seatings = Seatings::new(lineup, players, plan.rotate)?;
    let per = seatings.len() as u64;
    let deals = deals_for(plan.rounds, per);
    let chunks = deals.div_ceil(CHUNK_DEALS);
    let shard = plan.shard.unwrap_or(Shard { index: 0, count: 1 });
    let mut tally = Tally::new(lineup.strategies.len(), players, game.measures());
    let card_ids = game.measures().cards.as_ref().filter(|_| plan.cards).map(CardCatalog::ids);
    // Card folders kept from chunk to chunk and drained into the run's tally once a
    // batch: a chunk's tally has no card counts of its own (making, filling and merging
    // one per chunk cost about 20 first-level cache misses a round with 4 random seats).
    let folders: Mutex<Vec<card_fold::CardFolder>> = Mutex::new(Vec::new());
    let mut next_chunk = shard.index;
    // A run that stops at an interval's width checks it after batches that double from
    // two chunks, so it stops within about twice the deals it needs; the batches depend on
    // the plan alone, so where it stops does not depend on the threads.
    let mut batch_chunks = if plan.until_ci.is_some() { 2 } else { BATCH_CHUNKS };
    while next_chunk < chunks {
        if interrupt.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Err(Error::Interrupted);
        }
        let batch: Vec<u64> =
            (0..batch_chunks).map(|i| next_chunk + i * shard.count).take_while(|&c| c < chunks).collect();
        next_chunk += batch_chunks * shard.count;
        batch_chunks = (batch_chunks * 2).min(BATCH_CHUNKS);
        let parts: Vec<Result<(Tally, Vec<RoundRow>), Error>> = batch
            .par_iter()
            .map_init(
                || game.worker(),
                |worker, &chunk| {
                    let first = plan.first_deal + chunk * CHUNK_DEALS;
                    let last = plan.first_deal + ((chunk + 1) * CHUNK_DEALS).min(deals);
                    run_deals(game, worker, &folders, (lineup, &seatings), (plan, interrupt), first..last, mode)
                },
            )
            .collect();
        let mut rows = Vec::new();
        // In chunk order, so the error reported is the run's first (as `check` promises).
        for part in parts {
            let (part, part_rows) = part?;
            tally.merge(&part);
            rows.extend(part_rows);
        }
        if let Some(ids) = card_ids
            && tally.cards.is_empty()
        {
            // Only once a chunk has played: a shard with none writes no card counts.
            tally.start_cards(ids);
        }
        for folder in folders.lock().unwrap_or_else(PoisonError::into_inner).iter_mut() {
            folder.drain_into(&mut tally.cards, &mut tally.card_group_sums);
        }
        on_batch(tally.rounds, &rows)?;
        if let Some(w) = plan.until_ci
            && tally.max_win_rate_half_width() <= w
        {
            break;
        }
    }
    tally.shard = plan.shard;
    Ok(tally)
}

/// Plays `deals` into a tally of their own, their card counts into a folder of `folders`
/// (one made when none is free: under 56,000 instructions with Seven Card Draft's
/// catalog), put back when done holding no unfinished deal group; on an error the folder
/// is dropped here, its counts with it, and the run fails.
fn run_deals<G: Game>(
    game: &G,
    worker: &mut G::Worker,
    folders: &Mutex<Vec<card_fold::CardFolder>>,
    (lineup, seatings): (&Lineup, &Seatings),
    (plan, interrupt): (&Plan, Option<&AtomicBool>),
    deals: std::ops::Range<u64>,
    mode: Mode,
) -> Result<(Tally, Vec<RoundRow>), Error> {
    let players = game.players();
    let per = seatings.len() as u64;
    let n_strat = lineup.strategies.len();
    let measures = game.measures();
    let shape = measures.shape();
    let mut tally = Tally::new(n_strat, players, measures);
    let mut rows = Vec::new();
    let mut result = RoundResult::default();
    let catalog = measures.cards.as_ref().filter(|_| plan.cards);
    let mut folder = catalog.map(|c| {
        result.cards.set_on(true);
        let spare = folders.lock().unwrap_or_else(PoisonError::into_inner).pop();
        spare.unwrap_or_else(|| card_fold::CardFolder::new(c, players, n_strat))
    });
    let mut strategy_at = [0usize; MAX_SEATS];
    let mut share = [0u32; MAX_SEATS];
    // Units of each row in one deal group (each strategy, then each seat, then every
    // seat): the same for every deal.
    let mut instances = [0i64; GROUP_ROWS];
    for seating in seatings.iter() {
        for &entry in seating {
            instances[lineup.entry_strategy[entry]] += 1;
        }
    }
    instances[n_strat..=n_strat + players].fill(per as i64);
    instances[n_strat + players] *= players as i64;
    let group_rows = n_strat + players + 1;
    // One deal group's sums per row.
    let mut sums = GroupRows::new(measures, instances);
    // One deal group's count in each histogram bin, every seat together, and each
    // histogram's bins.
    let mut group_bins = vec![0i64; shape.bins];
    let histograms: Vec<std::ops::Range<usize>> =
        measures.histograms.iter().map(|h| h.offset..h.offset + h.bins.len()).collect();
    for deal in deals {
        // Read each deal, not only each batch: a batch of slow bots can take minutes.
        if interrupt.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Err(Error::Interrupted);
        }
        sums.clear(group_rows);
        let mut health: GroupHealth = [0; GROUP_SLOTS];
        let deal_seed = mix_seed(plan.seed, deal, DEAL_STREAM);
        for (index, seating) in seatings.iter().enumerate() {
            let seeds = UnitSeeds { deal: deal_seed, bots: bot_seed(plan.seed, deal, index), deal_index: deal };
            let round = deal * per + index as u64;
            result.clear(players, shape);
            result.health.sampled = sampled_deal(deal);
            if mode == Mode::Checked {
                game.play_checked(worker, seeds, seating, &mut result)
                    .and_then(|()| check::outcome(measures, &result.seats[..players]))
                    .map_err(|e| check::at_round(e, round))?;
            } else {
                game.play(worker, seeds, seating, &mut result)?;
            }
            tally.add_length(result.length);
            if result.rules_used != 0 {
                tally.add_rules_used(result.rules_used);
            }
            tally.health.add_length(result.health.decisions);
            health::add_unit(&mut health, &result.health, &result.seats[..players]);
            for (s, (&entry, r)) in seating.iter().zip(&result.seats).enumerate() {
                let x = lineup.entry_strategy[entry];
                tally.add_seat(x, s, r);
                sums.add([x, n_strat + s], r);
                for (b, count) in r.observed(shape.bins) {
                    group_bins[b] += i64::from(count);
                }
                if mode == Mode::Rows {
                    rows.push(RoundRow { round, seat: s as u8, strategy: x as u16, result: *r });
                }
            }
            if let Some(folder) = folder.as_mut() {
                for (s, &entry) in seating.iter().enumerate() {
                    strategy_at[s] = lineup.entry_strategy[entry];
                    share[s] = result.seats[s].share_units;
                }
                folder.fold(&result.cards, &strategy_at[..players], &share[..players]);
            }
        }
        if let Some(folder) = folder.as_mut() {
            folder.end_group();
            tally.card_groups += 1;
        }
        if matches!(mode, Mode::DealRows | Mode::DealGroups) {
            for x in 0..n_strat {
                let mut result = SeatResult { score: sums.score[x], ..SeatResult::default() };
                // At most `per` whole wins, so it fits.
                result.share_units = u32::try_from(sums.share[x]).expect("a group's win share units fit a u32");
                rows.push(RoundRow { round: deal * per, seat: 0, strategy: x as u16, result });
            }
        }
        sums.total(n_strat, players);
        tally.add_group(&sums.score[..n_strat], &sums.share[..n_strat], &sums.units[..n_strat]);
        for x in 0..n_strat {
            tally.add_measure_group(x, sums.ratios(x));
        }
        for s in 0..=players {
            let row = n_strat + s;
            tally.add_seat_group(s, sums.score[row], sums.share[row], sums.ratios(row));
        }
        tally.seat_shares.add(&sums.share[n_strat..n_strat + players]);
        if !histograms.is_empty() {
            tally.add_bin_group(&group_bins, &histograms);
            group_bins.fill(0);
        }
        let keep = (mode == Mode::DealGroups).then(|| {
            // Each seat's win-share units, which the seat rows already sum, for the seat figures.
            health[health::slot::SEAT_SHARES..][..players].copy_from_slice(&sums.share[n_strat..n_strat + players]);
            sums.ratios(n_strat + players)
        });
        tally.health.add_group(&health, keep);
    }
    if let Some(folder) = folder {
        folders.lock().unwrap_or_else(PoisonError::into_inner).push(folder);
    }
    Ok((tally, rows))
}

/// Rows of a deal group's sums: up to `MAX_SEATS` strategies, then each seat, then every
/// seat together.
const GROUP_ROWS: usize = 2 * MAX_SEATS + 1;

/// Slots of one row of a deal group's sums: seat-rounds, units (constant), the counters,
/// then the sums.
const ROW_SLOTS: usize = 2 + MAX_COUNTERS + MAX_SUMS;
const SEAT_ROUNDS_SLOT: usize = 0;
const UNITS_SLOT: usize = 1;
const FIRST_COUNTER_SLOT: usize = 2;
const FIRST_SUM_SLOT: usize = FIRST_COUNTER_SLOT + MAX_COUNTERS;

/// One deal group's sums per row (a strategy, a seat, or every seat), for the intervals
/// that treat a deal as one observation.
struct GroupRows {
    score: [i64; GROUP_ROWS],
    share: [i64; GROUP_ROWS],
    slots: [[i64; ROW_SLOTS]; GROUP_ROWS],
    /// Units of each row in one deal group.
    units: [i64; GROUP_ROWS],
    /// Per declared measure, the slots of its numerator and denominator.
    ratio_slots: Vec<(usize, usize)>,
}

impl GroupRows {
    /// Rows for these measures, with `units[row]` units of each row in a deal group.
    fn new(measures: &Measures, units: [i64; GROUP_ROWS]) -> GroupRows {
        let ratio_slots = measures
            .measures
            .iter()
            .map(|m| match m.kind {
                Kind::Rate { slot, per: None } => (FIRST_COUNTER_SLOT + slot, SEAT_ROUNDS_SLOT),
                Kind::Rate { slot, per: Some(p) } => (FIRST_COUNTER_SLOT + slot, FIRST_COUNTER_SLOT + p),
                Kind::Mean { slot } => (FIRST_SUM_SLOT + slot, UNITS_SLOT),
                Kind::MeanPer { slot, per } => (FIRST_SUM_SLOT + slot, FIRST_COUNTER_SLOT + per),
            })
            .collect();
        GroupRows {
            score: [0; GROUP_ROWS],
            share: [0; GROUP_ROWS],
            slots: [[0; ROW_SLOTS]; GROUP_ROWS],
            units,
            ratio_slots,
        }
    }

    fn clear(&mut self, rows: usize) {
        self.score[..rows].fill(0);
        self.share[..rows].fill(0);
        for (row, &units) in self.slots[..rows].iter_mut().zip(&self.units) {
            *row = [0; ROW_SLOTS];
            row[UNITS_SLOT] = units;
        }
    }

    /// Adds a seat's record to each of `rows` (its strategy's and its seat's). The record
    /// is widened once into a row's slots; whole fixed-length arrays, so the adds are vector
    /// instructions (a record's undeclared slots are zero).
    #[inline]
    fn add(&mut self, rows: [usize; 2], r: &SeatResult) {
        let mut widened = [0i64; ROW_SLOTS];
        widened[SEAT_ROUNDS_SLOT] = i64::from(r.rounds);
        for (w, &c) in widened[FIRST_COUNTER_SLOT..FIRST_SUM_SLOT].iter_mut().zip(&r.counters) {
            *w = i64::from(c);
        }
        widened[FIRST_SUM_SLOT..].copy_from_slice(&r.sums);
        for row in rows {
            self.score[row] += r.score;
            self.share[row] += i64::from(r.share_units);
            for (g, &v) in self.slots[row].iter_mut().zip(&widened) {
                *g += v;
            }
        }
    }

    /// Fills the every-seat row (after the seats' rows, at `first_seat + players`) with the
    /// sum of the seats' rows.
    fn total(&mut self, first_seat: usize, players: usize) {
        let all = first_seat + players;
        let (seats, total) = self.slots[first_seat..=all].split_at_mut(players);
        let total = &mut total[0];
        for seat in seats.iter() {
            for (t, &v) in total.iter_mut().zip(seat) {
                *t += v;
            }
        }
        total[UNITS_SLOT] = self.units[all];
        self.score[all] = self.score[first_seat..all].iter().sum();
        self.share[all] = self.share[first_seat..all].iter().sum();
    }

    /// Each declared measure's numerator and denominator in `row`, in order.
    #[inline]
    fn ratios(&self, row: usize) -> impl Iterator<Item = (i64, i64)> + '_ {
        let slots = &self.slots[row];
        self.ratio_slots.iter().map(move |&(a, b)| (slots[a], slots[b]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_check() {
        assert_eq!(Shard::parse("1/4").unwrap(), Shard { index: 1, count: 4 });
        assert!(Shard::parse("4/4").is_err());
        assert!(Shard::parse("x").is_err());
        assert!(Shard::parse("0/0").is_err());
        // 1,667 deals are 27 chunks, the last of 3 deals: shard 0/2 plays 14 of them.
        let shards = [Shard { index: 0, count: 2 }, Shard { index: 1, count: 2 }];
        assert_eq!(shards.map(|s| s.deals_of(1667)), [13 * 64 + 3, 13 * 64]);
        assert_eq!(Shard { index: 3, count: 4 }.deals_of(100), 0, "two chunks, none for shard 3");
    }

    #[test]
    fn lineup_groups_names() {
        let l = Lineup::new(&["a".into(), "b".into(), "a".into()]);
        assert_eq!(l.strategies, vec!["a", "b"]);
        assert_eq!(l.entry_strategy, vec![0, 1, 0]);
    }

    #[test]
    fn rounds_map_to_deals_and_seatings() {
        let seats: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let seatings = Seatings::new(&Lineup::new(&seats), 4, true).unwrap();
        assert_eq!(seatings.len(), 12);
        let a = round_address(7, &seatings, 13);
        assert_eq!((a.deal, a.seating_index), (1, 1));
        assert_eq!(a.seating, seatings.get(1));
        let b = round_address(7, &seatings, 12);
        assert_eq!(b.seating, vec![0, 1, 2, 3], "the first seating is the lineup by name");
        assert_eq!(a.deal_seed, b.deal_seed, "seatings share the deal");
        assert_ne!(a.bot_seed, b.bot_seed);
        assert_ne!(mix_seed(1, 0, 0), mix_seed(2, 0, 0));
    }

    #[test]
    fn group_rows_sum_seats_into_the_last_row_and_pick_each_measure_s_slots() {
        let measures = Measures::declaring(vec![
            Measure::rate(0, "a", "a_rate", Shown::Both, ""),
            Measure::rate_per(1, 0, "b", "b_share", Shown::Both, ""),
            Measure::mean(0, "c", "mean_c", Shown::Both, ""),
            Measure::mean_per(0, 1, "c_per_b", "c_per_b", Shown::Hidden, ""),
        ]);
        // One strategy (row 0), two seats (rows 1, 2), every seat (row 3); 2 units a row,
        // 4 for every seat.
        let mut units = [0; GROUP_ROWS];
        units[..4].copy_from_slice(&[4, 2, 2, 4]);
        let mut rows = GroupRows::new(&measures, units);
        rows.clear(4);
        let seat = |score, a, b, c| {
            let mut r = SeatResult { score, share_units: SHARE_UNIT, rounds: 3, ..SeatResult::default() };
            r.counters[0] = a;
            r.counters[1] = b;
            r.sums[0] = c;
            r
        };
        for (s, r) in [(0, seat(5, 2, 1, 7)), (1, seat(-5, 1, 0, -1)), (0, seat(1, 0, 0, 4))] {
            rows.add([0, 1 + s], &r);
        }
        rows.total(1, 2);
        assert_eq!(rows.score[..4], [1, 6, -5, 1]);
        assert_eq!(rows.share[3], 3 * i64::from(SHARE_UNIT));
        // a over seat-rounds, b over a, c over units, c over b.
        assert_eq!(rows.ratios(1).collect::<Vec<_>>(), vec![(2, 6), (1, 2), (11, 2), (11, 1)]);
        assert_eq!(rows.ratios(2).collect::<Vec<_>>(), vec![(1, 3), (0, 1), (-1, 2), (-1, 0)]);
        assert_eq!(rows.ratios(3).collect::<Vec<_>>(), vec![(3, 9), (1, 3), (10, 4), (10, 1)]);
        assert_eq!(rows.ratios(0).collect::<Vec<_>>(), rows.ratios(3).collect::<Vec<_>>());
        // Cleared for the next deal, units kept.
        rows.clear(4);
        assert_eq!(rows.ratios(3).collect::<Vec<_>>(), vec![(0, 0), (0, 0), (0, 4), (0, 0)]);
    }
}
