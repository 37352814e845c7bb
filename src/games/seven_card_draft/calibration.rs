//! How well the bots' strength estimate predicts: after every pick, each seat's estimate
//! against the percentile its finished hand reached, by bins of the estimate.
//!
//! Every seat drafts with one draft module and never folds or raises, so every hand is
//! finished and the cards do not depend on the betting; a check after every pick stands in
//! for the betting rounds (checks move no chips and no cards).

use super::bots::{BetModule, DraftModule, ModularBot, Preset, own_strength};
use super::engine::{self, Event};
use super::rules::{Rules, Variant};
use super::view::{Action, BetOptions, Bot, BotRng, PickChoice, SeatView};
use crate::cards::CardSet;
use crate::error::{Error, InputError};
use crate::output::{Table, Values};
use crate::sim::{MAX_SEATS, RoundResult, UnitSeeds, mix_seed};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Bins of the estimate, each a tenth of the range.
pub const BINS: usize = 10;

/// One bin: the estimates that fell in it after one pick, and what the hands became.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bin {
    /// Estimates in the bin.
    pub count: u64,
    /// Sum of the estimates.
    pub predicted: f64,
    /// Sum of the finished hands' percentiles.
    pub realised: f64,
    /// Sum of their squares (for the interval).
    pub realised_sq: f64,
}

impl Bin {
    /// The mean estimate.
    pub fn mean_predicted(&self) -> f64 {
        self.predicted / self.count.max(1) as f64
    }

    /// The mean finished percentile.
    pub fn mean_realised(&self) -> f64 {
        self.realised / self.count.max(1) as f64
    }

    /// Half-width of the 95% interval of the mean finished percentile (NaN, written empty, under two estimates).
    pub fn half_width(&self) -> f64 {
        let n = self.count as f64;
        if n < 2.0 {
            return f64::NAN;
        }
        let var = (self.realised_sq - self.realised * self.realised / n) / (n - 1.0);
        1.96 * (var.max(0.0) / n).sqrt()
    }
}

/// Bins by the pick after which the estimate was made (index pick - 1) and the estimate.
pub type Calibration = Vec<[Bin; BINS]>;

/// A bot that drafts as its preset and checks or calls, noting its estimate each time it
/// is asked to bet.
struct Recorder {
    inner: ModularBot,
    wild_aware: bool,
    notes: Vec<(usize, usize, f32)>,
}

impl Bot for Recorder {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn pick(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> PickChoice {
        self.inner.pick(view, rng)
    }
    fn pick_from_pack(&mut self, pack: CardSet, rng: &mut BotRng) -> Option<PickChoice> {
        self.inner.pick_from_pack(pack, rng)
    }
    fn bet(&mut self, view: &SeatView<'_>, _: &mut BotRng) -> Action {
        self.notes.push((view.seat, view.pick, own_strength(view, self.wild_aware)));
        view.betting.expect("asked while betting").check_or_call()
    }
    fn bet_from_options(&mut self, _: BetOptions, _: &mut BotRng) -> Option<Action> {
        None
    }
}

/// Rounds per chunk: chunks run in parallel and are merged in order, so the table does not
/// depend on the thread count.
const CHUNK: u64 = 2_000;

/// The calibration of `draft`'s estimate under `rules`, every seat drafting with it, over
/// `rounds` rounds from `seed`, in parallel on the current rayon pool. `progress` is told the
/// rounds played after each chunk; `interrupt`, once set, stops the work with
/// [`Error::Interrupted`].
pub fn calibrate(
    rules: &Rules,
    draft: DraftModule,
    rounds: u64,
    seed: u64,
    interrupt: Option<&AtomicBool>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Calibration, Error> {
    use rayon::prelude::*;
    let mut rules = rules.clone();
    let picks = rules.pack_size;
    rules.bet_after_picks = (1..=picks).collect();
    rules.bet_sizes = vec![1; picks];
    let variant: Variant = rules.compile()?;
    if draft == DraftModule::Random {
        return Err(InputError::new("calibration: the random draft module makes no estimate").into());
    }
    let done = AtomicU64::new(0);
    let chunks: Vec<Calibration> = (0..rounds.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            if interrupt.is_some_and(|i| i.load(Ordering::Relaxed)) {
                return Err(Error::Interrupted);
            }
            let range = c * CHUNK..((c + 1) * CHUNK).min(rounds);
            let played = range.end - range.start;
            let out = calibrate_rounds(&variant, draft, range, seed)?;
            progress(done.fetch_add(played, Ordering::Relaxed) + played);
            Ok(out)
        })
        .collect::<Result<_, Error>>()?;
    let mut out = vec![[Bin::default(); BINS]; picks];
    for chunk in chunks {
        for (total, bins) in out.iter_mut().zip(chunk) {
            for (t, b) in total.iter_mut().zip(bins) {
                t.count += b.count;
                t.predicted += b.predicted;
                t.realised += b.realised;
                t.realised_sq += b.realised_sq;
            }
        }
    }
    Ok(out)
}

/// The bins of the rounds `range` (each round's deal and bot seeds come from its index).
fn calibrate_rounds(variant: &Variant, draft: DraftModule, range: Range<u64>, seed: u64) -> Result<Calibration, Error> {
    let preset = Preset { description: String::new(), draft, bet: BetModule::CallingStation };
    let n = variant.rules.players;
    let mut bots: Vec<Recorder> = (0..n)
        .map(|_| Recorder {
            inner: preset.bot("calibrated"),
            wild_aware: draft == DraftModule::WildAware,
            notes: Vec::new(),
        })
        .collect();
    let seating: Vec<usize> = (0..n).collect();
    let mut table = engine::State::new(variant);
    let mut out = vec![[Bin::default(); BINS]; variant.rules.pack_size];
    let mut events: Vec<Event> = Vec::new();
    for round in range {
        events.clear();
        for b in &mut bots {
            b.notes.clear();
        }
        let mut result = RoundResult::default();
        result.clear(n, super::measures::measures(variant).shape());
        let seeds =
            UnitSeeds { deal: mix_seed(seed, round, 0xCA1), bots: mix_seed(seed, round, 0xCA2), deal_index: round };
        crate::search::play_with(variant, &mut table, n, seeds, &mut events, &mut result, |t, s, rng| {
            t.ask_bot(variant, &mut bots[seating[s]], rng)
        })?;
        let mut finished = [0f32; MAX_SEATS];
        for e in &events {
            if let Event::Show { seat, hand, wilds, .. } = *e {
                finished[seat] = variant.percentiles.of(variant.eval.eval_wild(hand.minus(wilds), wilds.len()));
            }
        }
        for b in &bots {
            for &(seat, pick, est) in &b.notes {
                let bin = &mut out[pick - 1][((est * BINS as f32) as usize).min(BINS - 1)];
                let real = f64::from(finished[seat]);
                bin.count += 1;
                bin.predicted += f64::from(est);
                bin.realised += real;
                bin.realised_sq += real * real;
            }
        }
    }
    Ok(out)
}

/// The calibration as a table: one row per pick and bin with estimates in it.
pub fn table(calibration: &Calibration) -> Table {
    let rows: Vec<(usize, usize, &Bin)> = calibration
        .iter()
        .enumerate()
        .flat_map(|(p, bins)| bins.iter().enumerate().filter(|(_, b)| b.count > 0).map(move |(i, b)| (p + 1, i, b)))
        .collect();
    let ints = |f: &dyn Fn(&(usize, usize, &Bin)) -> i64| Values::Int(rows.iter().map(f).collect());
    let floats = |f: &dyn Fn(&(usize, usize, &Bin)) -> f64| Values::Float(rows.iter().map(f).collect());
    Table::new("calibration")
        .with("after_pick", ints(&|r| r.0 as i64))
        .with("bin_low", floats(&|r| r.1 as f64 / BINS as f64))
        .with("bin_high", floats(&|r| (r.1 + 1) as f64 / BINS as f64))
        .with("estimates", ints(&|r| r.2.count as i64))
        .with("mean_estimate", floats(&|r| r.2.mean_predicted()))
        .with("mean_finished", floats(&|r| r.2.mean_realised()))
        .with("mean_finished_lo", floats(&|r| r.2.mean_realised() - r.2.half_width()))
        .with("mean_finished_hi", floats(&|r| r.2.mean_realised() + r.2.half_width()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Prints the calibration of the greedy estimate (for tuning by hand).
    #[test]
    #[ignore = "prints a table"]
    fn print_calibration() {
        let rounds = std::env::var("CAL_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(4000);
        let c = calibrate(&Rules::default(), DraftModule::Greedy, rounds, 7, None, &|_| ()).unwrap();
        println!("{}", table(&c).to_aligned_text(3));
    }
}
