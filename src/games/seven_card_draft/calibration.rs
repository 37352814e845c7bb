//! How well the bots' strength estimates predict: after every pick, each seat's estimate
//! against the percentile its finished hand reached, and its chance of beating the field
//! against how often it did, by bins of the estimate. The second calibration also corrects
//! the threshold module's chance of beating the field when it reads `field = "calibrated"`.
//!
//! Every seat drafts with one draft module and never folds or raises, so every hand is
//! finished and the cards do not depend on the betting; a check after every pick stands in
//! for the betting rounds (checks move no chips and no cards).

use super::bots::{
    BetModule, DraftModule, ModularBot, OpponentMemo, Preset, default_respect, field_strength, own_strength,
};
use super::engine::{self, Event};
use super::rules::{Rules, Variant};
use super::view::{Action, BetOptions, Bot, BotRng, PickChoice, SeatView};
use crate::cards::CardSet;
use crate::error::{Error, InputError};
use crate::eval::HandValue;
use crate::games::GamePreset;
use crate::output::{Table, Values};
use crate::sim::{MAX_SEATS, RoundResult, UnitSeeds, mix_seed};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

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

    /// The mean finished percentile with its 95% t interval, kept within 0 to 1 where a
    /// percentile lies (NaN, written empty, under two estimates).
    pub fn finished(&self) -> crate::stats::Estimate {
        if self.count < 2 {
            return crate::stats::Estimate { mean: self.mean_realised(), lo: f64::NAN, hi: f64::NAN };
        }
        let e = crate::stats::mean_interval(self.count, self.realised, self.realised_sq);
        crate::stats::Estimate { lo: e.lo.max(0.0), hi: e.hi.min(1.0), ..e }
    }

    /// The share of the pot won with its 95% interval: by the small-sample rule, Wilson's
    /// under 30 wins or losses (pot shares summed, as split pots count), else t.
    pub fn won(&self) -> crate::stats::Estimate {
        let n = self.count as f64;
        if self.realised.min(n - self.realised) < 30.0 {
            return crate::stats::wilson(self.realised, self.count);
        }
        let e = crate::stats::mean_interval(self.count, self.realised, self.realised_sq);
        crate::stats::Estimate { lo: e.lo.max(0.0), hi: e.hi.min(1.0), ..e }
    }
}

/// Bins by the pick after which the estimate was made (index pick - 1) and the estimate.
pub type Calibration = Vec<[Bin; BINS]>;

/// Bins of the chance of beating the field by the pick after which it was judged (index
/// pick - 1) and the opponents it was judged against (index count - 1).
pub type FieldCalibration = Vec<Vec<[Bin; BINS]>>;

/// Both calibrations of one run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Calibrations {
    /// The own hand's expected percentile against the percentile it finished at.
    pub own: Calibration,
    /// The chance of beating the field against the share of those fields it beat.
    pub field: FieldCalibration,
}

/// One judgement of the field: (seat, pick, opponents judged against, the estimate).
type FieldNote = (usize, usize, usize, f32);

/// A bot that drafts as its preset and checks or calls, noting its estimates each time it
/// is asked to bet: its own strength, and its chance of beating the k seats after it for
/// every k (nobody folds, so each smaller field is judged as if the rest had folded).
struct Recorder {
    inner: ModularBot,
    wild_aware: bool,
    notes: Vec<(usize, usize, f32)>,
    field_notes: Vec<FieldNote>,
    memo: OpponentMemo,
    /// Whether its field estimates read the packs it passed.
    read_packs: bool,
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
        let own = own_strength(view, self.wild_aware);
        self.notes.push((view.seat, view.pick, own));
        let n = view.players;
        // The whole field first, so the memo holds every opponent's strength for the rest.
        for k in (1..n).rev() {
            let mut folded = [true; MAX_SEATS];
            folded[view.seat] = false;
            for j in 1..=k {
                folded[(view.seat + j) % n] = false;
            }
            let judged = SeatView { folded: &folded[..n], ..*view };
            let (win, _) = field_strength(&judged, own, default_respect(), self.read_packs, &mut self.memo);
            self.field_notes.push((view.seat, view.pick, k, win));
        }
        view.betting.expect("asked while betting").check_or_call()
    }
    fn bet_from_options(&mut self, _: BetOptions, _: &mut BotRng) -> Option<Action> {
        None
    }
}

/// Why a random drafter is not calibrated (the game names the strategy in front of it).
pub(crate) const RANDOM_DRAFT: &str = "its draft module is random, which drafts without a strength estimate; seat one that makes one, e.g. --seats greedy";

/// Rounds per chunk: chunks run in parallel and are merged in order, so the table does not
/// depend on the thread count.
const CHUNK: u64 = 2_000;

/// The calibrations of `draft`'s estimates under `rules`, every seat drafting with it, over
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
) -> Result<Calibrations, Error> {
    use rayon::prelude::*;
    // A round's draft and showdown, whatever the mode: in game mode a unit is many rounds,
    // and its last round's finish is not what each round's estimates predicted.
    let default = Rules::default();
    let rounds_rules = Rules { mode: default.mode, max_rounds_per_game: default.max_rounds_per_game, ..rules.clone() };
    let variant = every_pick_bets(&rounds_rules)?;
    if draft == (DraftModule::Random {}) {
        return Err(InputError::new(RANDOM_DRAFT).into());
    }
    let done = AtomicU64::new(0);
    let chunks: Vec<Calibrations> = (0..rounds.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            if interrupt.is_some_and(|i| i.load(Ordering::Relaxed)) {
                return Err(Error::Interrupted);
            }
            let range = c * CHUNK..((c + 1) * CHUNK).min(rounds);
            let played = range.end - range.start;
            let out = calibrate_rounds(&variant, draft, false, range, seed)?;
            progress(done.fetch_add(played, Ordering::Relaxed) + played);
            Ok(out)
        })
        .collect::<Result<_, Error>>()?;
    let mut out = empty(&variant);
    for chunk in chunks {
        for (total, bins) in out.own.iter_mut().zip(&chunk.own) {
            add(total, bins);
        }
        for (total, by_k) in out.field.iter_mut().zip(&chunk.field) {
            for (t, bins) in total.iter_mut().zip(by_k) {
                add(t, bins);
            }
        }
    }
    Ok(out)
}

/// The rules with a check after every pick: checks move no chips and no cards, so the
/// draft is the rules' own while every pick is judged.
fn every_pick_bets(rules: &Rules) -> Result<Variant, Error> {
    let mut rules = rules.clone();
    let picks = rules.pack_size;
    rules.bet_after_picks = (1..=picks).collect();
    rules.bet_sizes = vec![1; picks];
    Ok(rules.compile()?)
}

fn empty(variant: &Variant) -> Calibrations {
    let picks = variant.rules.pack_size;
    let opponents = variant.rules.players - 1;
    Calibrations {
        own: vec![[Bin::default(); BINS]; picks],
        field: vec![vec![[Bin::default(); BINS]; opponents]; picks],
    }
}

fn add(total: &mut [Bin; BINS], bins: &[Bin; BINS]) {
    for (t, b) in total.iter_mut().zip(bins) {
        t.count += b.count;
        t.predicted += b.predicted;
        t.realised += b.realised;
        t.realised_sq += b.realised_sq;
    }
}

impl Bin {
    fn note(&mut self, predicted: f32, realised: f64) {
        self.count += 1;
        self.predicted += f64::from(predicted);
        self.realised += realised;
        self.realised_sq += realised * realised;
    }
}

fn bin_of(estimate: f32) -> usize {
    ((estimate * BINS as f32) as usize).min(BINS - 1)
}

/// The bins of the rounds `range` (each round's deal and bot seeds come from its index).
fn calibrate_rounds(
    variant: &Variant,
    draft: DraftModule,
    read_packs: bool,
    range: Range<u64>,
    seed: u64,
) -> Result<Calibrations, Error> {
    let preset = Preset { description: String::new(), draft, bet: BetModule::CallingStation {} };
    let n = variant.rules.players;
    let mut bots: Vec<Recorder> = (0..n)
        .map(|_| Recorder {
            inner: preset.bot("calibrated"),
            wild_aware: draft == (DraftModule::WildAware {}),
            notes: Vec::new(),
            field_notes: Vec::new(),
            memo: OpponentMemo::default(),
            read_packs,
        })
        .collect();
    let seating: Vec<usize> = (0..n).collect();
    let mut table = engine::State::new(variant);
    let mut out = empty(variant);
    let mut events: Vec<Event> = Vec::new();
    for round in range {
        events.clear();
        for b in &mut bots {
            b.notes.clear();
            b.field_notes.clear();
        }
        let mut result = RoundResult::default();
        result.clear(n, super::measures::measures(variant).shape());
        let seeds =
            UnitSeeds { deal: mix_seed(seed, round, 0xCA1), bots: mix_seed(seed, round, 0xCA2), deal_index: round };
        crate::search::play_with(variant, &mut table, n, seeds, &mut events, &mut result, |t, s, rng| {
            t.ask_bot(variant, &mut bots[seating[s]], rng)
        })?;
        let mut finished = [0f32; MAX_SEATS];
        let mut values = [HandValue::default(); MAX_SEATS];
        for e in &events {
            if let Event::Show { seat, hand, wilds, .. } = *e {
                values[seat] = variant.eval.eval_wild(hand.minus(wilds), wilds.len());
                finished[seat] = variant.percentiles.of(values[seat]);
            }
        }
        for b in &bots {
            for &(seat, pick, est) in &b.notes {
                out.own[pick - 1][bin_of(est)].note(est, f64::from(finished[seat]));
            }
            for &(seat, pick, k, win) in &b.field_notes {
                // The share of the pot the seat's hand takes against those k seats.
                let others = (1..=k).map(|j| values[(seat + j) % n]);
                let best = others.clone().max().expect("at least one opponent");
                let share = match values[seat].cmp(&best) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 1.0 / (1 + others.filter(|&v| v == best).count()) as f64,
                    std::cmp::Ordering::Less => 0.0,
                };
                out.field[pick - 1][k - 1][bin_of(win)].note(win, share);
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
        .with("mean_finished_lo", floats(&|r| r.2.finished().lo))
        .with("mean_finished_hi", floats(&|r| r.2.finished().hi))
}

/// The chance-of-beating-the-field calibration as a table: one row per pick, opponents
/// judged against and bin with estimates in it.
pub fn field_table(field: &FieldCalibration) -> Table {
    let rows: Vec<(usize, usize, usize, &Bin)> = field
        .iter()
        .enumerate()
        .flat_map(|(p, by_k)| {
            by_k.iter().enumerate().flat_map(move |(k, bins)| {
                bins.iter().enumerate().filter(|(_, b)| b.count > 0).map(move |(i, b)| (p + 1, k + 1, i, b))
            })
        })
        .collect();
    type Row<'a> = (usize, usize, usize, &'a Bin);
    let ints = |f: &dyn Fn(&Row) -> i64| Values::Int(rows.iter().map(f).collect());
    let floats = |f: &dyn Fn(&Row) -> f64| Values::Float(rows.iter().map(f).collect());
    Table::new("field_calibration")
        .with("after_pick", ints(&|r| r.0 as i64))
        .with("opponents", ints(&|r| r.1 as i64))
        .with("bin_low", floats(&|r| r.2 as f64 / BINS as f64))
        .with("bin_high", floats(&|r| (r.2 + 1) as f64 / BINS as f64))
        .with("estimates", ints(&|r| r.3.count as i64))
        .with("mean_estimate", floats(&|r| r.3.mean_predicted()))
        .with("won", floats(&|r| r.3.mean_realised()))
        .with("won_lo", floats(&|r| r.3.won().lo))
        .with("won_hi", floats(&|r| r.3.won().hi))
}

/// Rounds behind a [`FieldMap`]: about a second of one core at four seats.
const FIELD_ROUNDS: u64 = 12_000;
/// A bin's estimates below this are too few to move the map.
const FIELD_MIN_COUNT: u64 = 30;

/// The threshold module's correction of its chance of beating the field (`field =
/// "calibrated"`): for each pick and count of opponents still in, the share of the pot the
/// estimate's bin actually took in a table of greedy drafters who all reach the showdown,
/// made non-decreasing and read between the bins' mean estimates.
#[derive(Debug, Default, PartialEq)]
pub struct FieldMap {
    /// By (pick - 1, opponents - 1): (mean estimate, share won), ascending in both.
    curves: Vec<Vec<Vec<(f32, f32)>>>,
}

impl FieldMap {
    /// The map for `rules`, measured once per draft (the betting rules do not change what
    /// is dealt or picked) and estimate (`read_packs`), and shared.
    pub fn of(rules: &Rules, read_packs: bool) -> Result<Arc<FieldMap>, Error> {
        static CACHE: Mutex<Vec<(String, Arc<FieldMap>)>> = Mutex::new(Vec::new());
        let default = Rules::default();
        let draft = Rules {
            ante: default.ante,
            starting_stack: default.starting_stack,
            raise_cap: default.raise_cap,
            limit: default.limit,
            mode: default.mode,
            max_rounds_per_game: default.max_rounds_per_game,
            ..rules.clone()
        };
        let mut key = toml::to_string(&draft).map_err(|e| InputError::new(format!("rules: {e}")))?;
        if read_packs {
            key.push_str("# read_packs");
        }
        // Held while measuring: a second seat asking for the same rules waits rather than
        // measuring again. The measurement runs on this thread only, so it cannot steal a
        // job that asks for the lock again.
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, map)) = cache.iter().find(|(k, _)| *k == key) {
            return Ok(map.clone());
        }
        let variant = every_pick_bets(&draft)?;
        let measured = calibrate_rounds(&variant, DraftModule::Greedy {}, read_packs, 0..FIELD_ROUNDS, 0xF1E1D)?;
        let map = Arc::new(FieldMap::from_calibration(&measured.field));
        cache.push((key, map.clone()));
        Ok(map)
    }

    /// The map from a measured calibration.
    pub fn from_calibration(field: &FieldCalibration) -> FieldMap {
        let curve = |bins: &[Bin; BINS]| {
            // Pool adjacent violators: merge neighbouring bins until the share won rises.
            let mut blocks: Vec<(f64, f64, f64)> = Vec::new(); // (weight, sum estimate, sum won)
            for b in bins.iter().filter(|b| b.count >= FIELD_MIN_COUNT) {
                blocks.push((b.count as f64, b.predicted, b.realised));
                while let [.., (w0, x0, y0), (w1, x1, y1)] = blocks[..] {
                    if y0 / w0 <= y1 / w1 {
                        break;
                    }
                    blocks.truncate(blocks.len() - 2);
                    blocks.push((w0 + w1, x0 + x1, y0 + y1));
                }
            }
            blocks.iter().map(|&(w, x, y)| ((x / w) as f32, (y / w) as f32)).collect()
        };
        FieldMap { curves: field.iter().map(|by_k| by_k.iter().map(curve).collect()).collect() }
    }

    /// The calibrated chance of beating `opponents` still in, judged `win` after `pick`: read
    /// between the bins, from (0, 0) below the first and towards (1, 1) above the last; the
    /// estimate itself where nothing was measured.
    pub fn apply(&self, pick: usize, opponents: usize, win: f32) -> f32 {
        let Some(curve) = self.curves.get(pick.wrapping_sub(1)).and_then(|c| c.get(opponents.wrapping_sub(1))) else {
            return win;
        };
        if curve.is_empty() {
            return win;
        }
        let mut below = (0f32, 0f32);
        for &(x, y) in curve.iter().chain(std::iter::once(&(1.0, 1.0))) {
            if win <= x {
                let t = if x > below.0 { (win - below.0) / (x - below.0) } else { 1.0 };
                return below.1 + t.clamp(0.0, 1.0) * (y - below.1);
            }
            below = (x, y);
        }
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_mode_is_calibrated_round_by_round() {
        // After the last pick the estimate is the finished hand's own percentile, so each
        // bin's mean estimate is its mean finish: as in round mode, not a whole game's
        // last round.
        let game = Rules { mode: super::super::rules::Mode::Game, ..Rules::default() };
        let c = calibrate(&game, DraftModule::Greedy {}, 300, 5, None, &|_| ()).unwrap();
        let last = c.own.last().expect("a pick");
        assert!(last.iter().map(|b| b.count).sum::<u64>() > 0);
        for b in last.iter().filter(|b| b.count > 0) {
            assert!((b.mean_predicted() - b.mean_realised()).abs() < 1e-6, "{b:?}");
        }
    }

    /// A bin's intervals follow the small-sample rule: two wins of two are no certainty,
    /// and two estimates alike in spread still have one degree of freedom.
    #[test]
    fn few_estimates_give_honest_intervals() {
        let bin = |values: &[f64]| Bin {
            count: values.len() as u64,
            predicted: 0.0,
            realised: values.iter().sum(),
            realised_sq: values.iter().map(|v| v * v).sum(),
        };
        let two_wins = bin(&[1.0, 1.0]).won();
        assert_eq!((two_wins.mean, two_wins.hi), (1.0, 1.0));
        assert!((two_wins.lo - 0.342).abs() < 0.001, "Wilson's bound for 2 of 2: {two_wins:?}");
        assert!((bin(&[1.0]).won().lo - 0.207).abs() < 0.001);
        // Two percentiles 0.02 apart: t with one degree of freedom, 12.706 standard errors.
        let f = bin(&[0.19, 0.21]).finished();
        assert!((f.hi - f.lo - 2.0 * 12.706 * 0.01).abs() < 1e-3, "{f:?}");
        assert!(bin(&[0.3]).finished().lo.is_nan());
        // Percentiles far apart: the interval stops at 0 and 1, where a percentile ends.
        let wide = bin(&[0.05, 0.9]).finished();
        assert_eq!((wide.lo, wide.hi), (0.0, 1.0), "{wide:?}");
        // Many wins and losses: t, inside [0, 1].
        let many: Vec<f64> = (0..400).map(|i| f64::from(i % 4 == 0)).collect();
        let w = bin(&many).won();
        assert!(w.lo > 0.2 && w.hi < 0.3 && (w.mean - 0.25).abs() < 1e-12, "{w:?}");
    }

    /// A calibration is a function of its arguments: asked twice in one process, and in
    /// game mode as in round mode, it measures the same bins.
    #[test]
    fn calibrating_twice_measures_the_same_bins() {
        let once = calibrate(&Rules::default(), DraftModule::Greedy {}, 300, 5, None, &|_| ()).unwrap();
        let game = Rules { mode: super::super::rules::Mode::Game, ..Rules::default() };
        let in_game = calibrate(&game, DraftModule::Greedy {}, 300, 5, None, &|_| ()).unwrap();
        let twice = calibrate(&Rules::default(), DraftModule::Greedy {}, 300, 5, None, &|_| ()).unwrap();
        assert!(once == twice, "asked again");
        assert!(once == in_game, "in game mode");
    }

    /// Prints the calibration of the greedy estimate (for tuning by hand).
    #[test]
    #[ignore = "prints a table"]
    fn print_calibration() {
        let rounds = std::env::var("CAL_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(4000);
        let c = calibrate(&Rules::default(), DraftModule::Greedy {}, rounds, 7, None, &|_| ()).unwrap();
        println!("{}", table(&c.own).to_aligned_text(3));
        println!("{}", field_table(&c.field).to_aligned_text(3));
    }

    /// Every check's shares against the whole field add up to one pot among the seats, so
    /// their mean is exactly one over the players at every pick.
    #[test]
    fn the_whole_fields_shares_make_one_pot() {
        let c = calibrate(&Rules::default(), DraftModule::Greedy {}, 300, 11, None, &|_| ()).unwrap();
        let n = Rules::default().players;
        assert_eq!(c.field.len(), Rules::default().pack_size);
        for (pick, by_k) in c.field.iter().enumerate() {
            assert_eq!(by_k.len(), n - 1);
            let count: u64 = by_k[n - 2].iter().map(|b| b.count).sum();
            let won: f64 = by_k[n - 2].iter().map(|b| b.realised).sum();
            assert_eq!(count, 300 * n as u64, "pick {}", pick + 1);
            assert!((won / count as f64 - 1.0 / n as f64).abs() < 1e-9, "pick {}: {}", pick + 1, won / count as f64);
            // Against one opponent each seat's share is its own, not the table's.
            assert!(by_k[0].iter().map(|b| b.count).sum::<u64>() == count);
        }
    }

    /// Bins whose share won falls are pooled, and the map reads between the pooled points.
    #[test]
    fn the_map_rises_and_reads_between_bins() {
        let bin = |count: u64, est: f64, won: f64| Bin {
            count,
            predicted: est * count as f64,
            realised: won * count as f64,
            realised_sq: 0.0,
        };
        let mut bins = [Bin::default(); BINS];
        bins[2] = bin(100, 0.25, 0.10);
        bins[4] = bin(100, 0.45, 0.30);
        bins[5] = bin(300, 0.55, 0.20); // below its neighbour: pooled with it
        bins[8] = bin(100, 0.85, 0.60);
        bins[9] = bin(10, 0.95, 0.0); // too few to count
        let map = FieldMap::from_calibration(&vec![vec![bins]]);
        assert_eq!(map.curves[0][0].len(), 3);
        let (x, y) = map.curves[0][0][1];
        assert!((x - 0.525).abs() < 1e-6 && (y - 0.225).abs() < 1e-6, "{x} {y}");
        assert!((map.apply(1, 1, 0.25) - 0.10).abs() < 1e-6);
        assert!((map.apply(1, 1, 0.125) - 0.05).abs() < 1e-6);
        assert!((map.apply(1, 1, 0.925) - 0.80).abs() < 1e-6);
        assert!((map.apply(1, 1, 0.85) - 0.60).abs() < 1e-6);
        // Nothing measured for another pick or field: the estimate as it is.
        assert_eq!(map.apply(2, 1, 0.4), 0.4);
        assert_eq!(map.apply(1, 3, 0.4), 0.4);
    }

    /// The map measured once corrects a fresh run's estimates: over the well-filled bins the
    /// corrected estimate's mean gap to what was won is a fraction of the raw one's, and no
    /// bin is off by more than its sampling noise allows (two runs' noise, about 0.02 each).
    #[test]
    fn the_map_corrects_a_fresh_runs_estimates() {
        let rules = Rules::default();
        let map = FieldMap::of(&rules, false).unwrap();
        assert!(Arc::ptr_eq(&map, &FieldMap::of(&Rules { raise_cap: 1, ..rules.clone() }, false).unwrap()));
        let fresh = calibrate(&rules, DraftModule::Greedy {}, 4_000, 99, None, &|_| ()).unwrap();
        let (mut raw, mut corrected, mut count, mut worst) = (0f64, 0f64, 0f64, 0f64);
        for (pick, by_k) in fresh.field.iter().enumerate() {
            for (k, bins) in by_k.iter().enumerate() {
                for b in bins.iter().filter(|b| b.count >= 1_000) {
                    let est = b.mean_predicted();
                    let fixed = f64::from(map.apply(pick + 1, k + 1, est as f32));
                    let n = b.count as f64;
                    raw += n * (est - b.mean_realised()).abs();
                    corrected += n * (fixed - b.mean_realised()).abs();
                    count += n;
                    worst = worst.max((fixed - b.mean_realised()).abs());
                }
            }
        }
        let (raw, corrected) = (raw / count, corrected / count);
        assert!(corrected < 0.02 && raw > 3.0 * corrected, "mean gap corrected {corrected}, raw {raw}");
        assert!(worst < 0.07, "a corrected bin off by {worst}");
    }
}
