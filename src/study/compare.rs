//! `compare`: every strategy against every other on paired deals with seat rotation, a
//! win-share matrix with intervals, Bradley-Terry ratings, and which strategy dominates.

use std::sync::atomic::AtomicBool;

use rand::SeedableRng;
use rand_distr::{Distribution, Normal};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::error::{Error, InputError};
use crate::games::{GameInfo, Runner};
use crate::output::{Table, Values};
use crate::sim::{
    CHUNK_DEALS, Lineup, MIN_PAIRED_GROUPS, Mode, PairedSums, Plan, RoundRow, SHARE_UNIT, Shard, Tally, rounds_per_deal,
};
use crate::stats::{self, Estimate};
use crate::study::equilibrium::{self, Equilibrium};

/// What to compare.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CompareSpec {
    /// Rules file text, if any.
    pub rules: Option<String>,
    /// Strategies (names or preset paths), at least two.
    pub strategies: Vec<String>,
    /// Seats at the table.
    pub players: usize,
    /// Rounds for each pair of strategies.
    pub rounds_per_pair: u64,
    /// The seed (the same deals for every pair).
    pub seed: u64,
}

/// One cell of the matrix: `strategy` against `opponent`.
#[derive(Clone, Debug, PartialEq)]
pub struct Matchup {
    /// Row strategy index.
    pub strategy: usize,
    /// Column strategy index.
    pub opponent: usize,
    /// Rounds played.
    pub rounds: u64,
    /// Share of the pots the row strategy won, with a 95% interval over deal groups (see
    /// `head_to_head`; 0.5 = even).
    pub win_share: Estimate,
    /// Paired difference in chips per round, row minus column, per seat.
    pub chips_diff: Estimate,
}

/// The comparison's result.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// Strategy names.
    pub strategies: Vec<String>,
    /// Every ordered pair (both directions).
    pub matchups: Vec<Matchup>,
    /// Bradley-Terry ratings on the Elo scale (mean 1500) with 95% bootstrap intervals.
    pub ratings: Vec<Estimate>,
    /// The strategy whose win share beats 0.5 (interval above it) against every other.
    pub dominant: Option<usize>,
    /// The game's column name for the paired score difference (e.g. `chips_diff_per_round`).
    pub pair_column: String,
    /// The meta-game's equilibrium, payoff = win share above one half.
    pub equilibrium: Equilibrium,
}

/// Plays every pair: with an even table the seats alternate A, B, A, B...; with an odd one
/// both A-major and B-major tables are played for half the rounds each, so each side
/// holds the same number of seats overall. `on_pair` hears (pairs done, pairs, the next
/// pair) before each pair and once at the end.
pub fn compare(
    info: &GameInfo,
    spec: &CompareSpec,
    on_pair: &mut dyn FnMut(usize, usize, &str),
) -> Result<Comparison, Error> {
    compare_interruptible(info, spec, None, on_pair)
}

/// [`compare`], stopping with [`Error::Interrupted`] soon after `interrupt` is set (Ctrl-C).
pub fn compare_interruptible(
    info: &GameInfo,
    spec: &CompareSpec,
    interrupt: Option<&AtomicBool>,
    on_pair: &mut dyn FnMut(usize, usize, &str),
) -> Result<Comparison, Error> {
    let pairs = compare_shard(info, spec, None, interrupt, on_pair)?;
    compare_from_pairs(spec, pairs)
}

/// Refuses fewer than two strategies or one named twice.
fn check_strategies(spec: &CompareSpec) -> Result<(), InputError> {
    if spec.strategies.len() < 2 {
        return Err(InputError::new("--strategies: name at least two strategies, comma-separated"));
    }
    if let Some(twice) = spec.strategies.iter().enumerate().find(|(i, s)| spec.strategies[..*i].contains(s)) {
        return Err(InputError::new(format!("--strategies: {} is named twice; name each strategy once", twice.1)));
    }
    Ok(())
}

/// The pairs (a, b), a < b, in the order a comparison plays them.
pub fn pair_list(strategies: usize) -> Vec<(usize, usize)> {
    (0..strategies).flat_map(|a| (a + 1..strategies).map(move |b| (a, b))).collect()
}

/// What one pair's play left, all the comparison needs of it: kept whole so that shards
/// playing different pairs merge into exactly the unsharded comparison.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PairResult {
    /// The first strategy's index.
    pub a: usize,
    /// The second strategy's index.
    pub b: usize,
    /// A's head-to-head wins (draws counted half).
    pub share_a: f64,
    /// Units played.
    pub rounds: u64,
    /// Per deal group: A's score per seat and round minus B's.
    pub diff: DealValues,
    /// Per deal group: A's share of the wins per round.
    pub share_groups: DealValues,
    /// The game's column name for the paired score difference.
    pub column: String,
}

/// Plays `shard`'s pairs (see [`crate::study::shard_units`]; every pair without one),
/// each whole and as the unsharded comparison plays it; their results in pair order.
/// `on_pair` hears (pairs done, pairs, the next pair) before each pair and once at the end.
pub fn compare_shard(
    info: &GameInfo,
    spec: &CompareSpec,
    shard: Option<Shard>,
    interrupt: Option<&AtomicBool>,
    on_pair: &mut dyn FnMut(usize, usize, &str),
) -> Result<Vec<PairResult>, Error> {
    check_strategies(spec)?;
    let all = pair_list(spec.strategies.len());
    let wanted = crate::study::shard_units(all.len(), shard);
    let mut out = Vec::with_capacity(wanted.len());
    for (done, &(a, b)) in wanted.iter().map(|&i| &all[i]).enumerate() {
        on_pair(done, wanted.len(), &format!("{} v {}", spec.strategies[a], spec.strategies[b]));
        let (share_a, rounds, diff, share_groups, column) = play_pair(info, spec, a, b, interrupt)?;
        out.push(PairResult { a, b, share_a, rounds, diff, share_groups, column });
    }
    on_pair(wanted.len(), wanted.len(), "");
    Ok(out)
}

/// The comparison from every pair's result, in pair order (as [`compare_shard`] gives
/// them, whole or from shards put back in order).
pub fn compare_from_pairs(spec: &CompareSpec, pairs: Vec<PairResult>) -> Result<Comparison, Error> {
    check_strategies(spec)?;
    let k = spec.strategies.len();
    let expected = pair_list(k);
    if pairs.iter().map(|p| (p.a, p.b)).ne(expected.iter().copied()) {
        return Err(
            InputError::new(format!("compare: the results do not hold the {} pairs in order", expected.len())).into()
        );
    }
    let mut matchups = Vec::new();
    let mut pair_column = String::new();
    for PairResult { a, b, share_a, rounds, diff, share_groups, column } in pairs {
        pair_column = column;
        let share = head_to_head(share_a, rounds, &share_groups);
        let chips = stats::mean_interval(diff.groups, diff.sum, diff.sum_sq);
        matchups.push(Matchup { strategy: a, opponent: b, rounds, win_share: share, chips_diff: chips });
        matchups.push(Matchup {
            strategy: b,
            opponent: a,
            rounds,
            win_share: Estimate { mean: 1.0 - share.mean, lo: 1.0 - share.hi, hi: 1.0 - share.lo },
            chips_diff: Estimate { mean: -chips.mean, lo: -chips.hi, hi: -chips.lo },
        });
    }
    let ratings = bradley_terry_with_intervals(k, &matchups, spec.seed);
    let dominant = (0..k).find(|&i| matchups.iter().filter(|m| m.strategy == i).all(|m| m.win_share.lo > 0.5));
    let mut payoff = vec![vec![0.0; k]; k];
    for m in &matchups {
        payoff[m.strategy][m.opponent] = m.win_share.mean - 0.5;
    }
    let equilibrium = equilibrium::solve(&payoff)?;
    Ok(Comparison { strategies: spec.strategies.clone(), matchups, ratings, dominant, pair_column, equilibrium })
}

/// Sums over deal groups of one value per group (a chips difference per round, or a share
/// of the wins). With an odd table a deal's value is the mean of its two lineups' values:
/// both play the same deals, so each deal is one observation of the pair.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DealValues {
    /// Deal groups.
    pub groups: u64,
    /// Sum of the values.
    pub sum: f64,
    /// Sum of their squares.
    pub sum_sq: f64,
}

impl DealValues {
    fn add(&mut self, value: f64) {
        self.groups += 1;
        self.sum += value;
        self.sum_sq += value * value;
    }
}

/// One deal's values for A against B in one lineup: A's mean score per seat-unit minus
/// B's, and A's share of the deal's wins per round (a unit nobody won counts half).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct PairValue {
    diff: f64,
    share: f64,
}

/// Folds a lineup's deal rows ([`Mode::DealRows`], in order) into each deal's
/// [`PairValue`]: `per` rounds a deal, A and B the lineup's strategies `ia` and `ib` with
/// `units` seat-units each per deal.
struct DealFolder {
    ia: u16,
    ib: u16,
    per: u64,
    units: [f64; 2],
    /// The deal being folded (its first round): A's and B's score sums, then win-share units.
    current: Option<(u64, [i64; 4])>,
    values: Vec<PairValue>,
}

impl DealFolder {
    fn new(lineup: &Lineup, ia: usize, ib: usize, per: u64) -> DealFolder {
        let units = [ia, ib].map(|x| (lineup.entry_strategy.iter().filter(|&&e| e == x).count() as u64 * per) as f64);
        DealFolder { ia: ia as u16, ib: ib as u16, per, units, current: None, values: Vec::new() }
    }

    fn add(&mut self, rows: &[RoundRow]) {
        for row in rows {
            if self.current.is_some_and(|(round, _)| round != row.round) {
                self.flush();
            }
            let (_, sums) = self.current.get_or_insert((row.round, [0; 4]));
            let side = if row.strategy == self.ia {
                0
            } else if row.strategy == self.ib {
                1
            } else {
                continue;
            };
            sums[side] += row.result.score;
            sums[2 + side] += i64::from(row.result.share_units);
        }
    }

    fn flush(&mut self) {
        if let Some((_, [sa, sb, wa, wb])) = self.current.take() {
            let per_round = self.per as f64 * f64::from(SHARE_UNIT);
            self.values.push(PairValue {
                diff: sa as f64 / self.units[0] - sb as f64 / self.units[1],
                share: 0.5 + 0.5 * (wa - wb) as f64 / per_round,
            });
        }
    }

    /// Each deal's values, in the order played.
    fn finish(mut self) -> Vec<PairValue> {
        self.flush();
        self.values
    }
}

/// Most deals an odd table's two lineups pair at a time (16 MiB of values per lineup): a
/// longer run is played in that many slices of whole chunks, so memory stays bounded.
const PAIRED_DEALS_AT_ONCE: u64 = 1 << 20;

/// Adds a lineup's head-to-head result to A's wins and the units played. A unit nobody
/// won (a drawn or capped game) counts half to each side, so the two sides' shares add to
/// one and draws are not handed to either.
fn add_wins(share_a: &mut f64, rounds: &mut u64, tally: &Tally, ia: usize, ib: usize) {
    let (wins_a, wins_b) = (tally.strategy(ia).wins(), tally.strategy(ib).wins());
    *share_a += wins_a + 0.5 * (tally.rounds as f64 - wins_a - wins_b).max(0.0);
    *rounds += tally.rounds;
}

/// A's share of the head-to-head wins (`share_a` of `rounds`, draws counted half) with a t
/// interval over deal groups (`groups`: a's share per round in each group), as strategies'
/// win rates have it: the Wilson interval over rounds under the same small-sample rule
/// (too few groups, wins or non-wins, or no spread between groups).
fn head_to_head(share_a: f64, rounds: u64, groups: &DealValues) -> Estimate {
    let wilson = stats::wilson(share_a, rounds);
    let min = MIN_PAIRED_GROUPS as f64;
    if groups.groups < MIN_PAIRED_GROUPS || share_a < min || rounds as f64 - share_a < min {
        return wilson;
    }
    let half = stats::mean_interval(groups.groups, groups.sum, groups.sum_sq).half_width();
    if half.is_nan() || half <= 1e-9 {
        return wilson;
    }
    Estimate { mean: wilson.mean, lo: (wilson.mean - half).max(0.0), hi: (wilson.mean + half).min(1.0) }
}

/// Plays strategy a against b; returns a's wins, rounds, the paired score difference
/// sums (a minus b, per seat, per round), a's share of each deal group's wins per round,
/// and the game's name for that difference.
fn play_pair(
    info: &GameInfo,
    spec: &CompareSpec,
    a: usize,
    b: usize,
    interrupt: Option<&AtomicBool>,
) -> Result<(f64, u64, DealValues, DealValues, String), Error> {
    let names = [&spec.strategies[a], &spec.strategies[b]];
    let lineups: Vec<Vec<String>> = if spec.players.is_multiple_of(2) {
        vec![(0..spec.players).map(|s| names[s % 2].clone()).collect()]
    } else {
        (0..2).map(|first| (0..spec.players).map(|s| names[(s + first) % 2].clone()).collect()).collect()
    };
    let plan = Plan {
        seed: spec.seed,
        rounds: spec.rounds_per_pair.div_ceil(lineups.len() as u64),
        rotate: true,
        shard: None,
        until_ci: None,
        cards: false,
    };
    let mut pair_column = String::new();
    let mut sides = Vec::new();
    for seats in &lineups {
        let (runner, seats) = (info.build)(spec.rules.as_deref(), Some(spec.players), Some(seats))?;
        let lineup = Lineup::new(&seats);
        pair_column.clone_from(&runner.measures().score.pair_column);
        let ia = lineup.strategies.iter().position(|s| s == names[0]).expect("a is seated");
        let ib = lineup.strategies.iter().position(|s| s == names[1]).expect("b is seated");
        sides.push((runner, lineup, ia, ib));
    }
    if let [(runner, lineup, ia, ib)] = &sides[..] {
        let (mut share_a, mut rounds) = (0.0, 0);
        let (mut diff, mut share_groups) = (DealValues::default(), DealValues::default());
        let (ia, ib) = (*ia, *ib);
        let tally = runner.run(lineup, &plan, Mode::Tally, interrupt, &mut |_, _| Ok(()))?;
        add_wins(&mut share_a, &mut rounds, &tally, ia, ib);
        // Per-group difference of per-seat means, in chips per round: scale each group's
        // integer difference by the instance counts, as `pair_difference` does.
        let (lo, hi) = (ia.min(ib), ia.max(ib));
        let scale = (tally.instances[lo] * tally.instances[hi]) as f64;
        let sign = if ia < ib { 1.0 } else { -1.0 };
        let p: &PairedSums = &tally.pairs[0];
        diff.groups += p.groups;
        diff.sum += sign * p.sum as f64 / scale;
        diff.sum_sq += p.sum_sq as f64 / (scale * scale);
        add_share_groups(&mut share_groups, &tally, sign);
        return Ok((share_a, rounds, diff, share_groups, pair_column));
    }
    let (share_a, rounds, diff, share_groups) = pair_lineups(&sides, &plan, PAIRED_DEALS_AT_ONCE, interrupt)?;
    Ok((share_a, rounds, diff, share_groups, pair_column))
}

/// A's head-to-head wins and the units played, and the per-deal sums of the chips
/// difference and of A's share of the wins, for an odd table's two lineups (runner,
/// lineup, A's and B's strategy index in it). Both play the same deals (same seed, same
/// rounds), and a deal's value is the mean of its two lineups' values; at most `at_once`
/// deals are paired at a time.
fn pair_lineups(
    sides: &[(Box<dyn Runner>, Lineup, usize, usize)],
    plan: &Plan,
    at_once: u64,
    interrupt: Option<&AtomicBool>,
) -> Result<(f64, u64, DealValues, DealValues), Error> {
    let mut share_a = 0.0;
    let mut rounds = 0;
    let mut diff = DealValues::default();
    let mut share_groups = DealValues::default();
    let per = rounds_per_deal(sides[0].0.players(), true);
    let deals = plan.rounds.div_ceil(per).max(1);
    let slices = deals.div_ceil(at_once).min(deals.div_ceil(CHUNK_DEALS)).max(1);
    for index in 0..slices {
        let slice = Plan { shard: (slices > 1).then_some(Shard { index, count: slices }), ..plan.clone() };
        let mut values = Vec::new();
        for (runner, lineup, ia, ib) in sides {
            let mut folder = DealFolder::new(lineup, *ia, *ib, per);
            let tally = runner.run(lineup, &slice, Mode::DealRows, interrupt, &mut |_, rows| {
                folder.add(rows);
                Ok(())
            })?;
            add_wins(&mut share_a, &mut rounds, &tally, *ia, *ib);
            values.push(folder.finish());
        }
        assert_eq!(values[0].len(), values[1].len(), "both lineups play the same deals");
        for (x, y) in values[0].iter().zip(&values[1]) {
            diff.add(0.5 * (x.diff + y.diff));
            share_groups.add(0.5 * (x.share + y.share));
        }
    }
    Ok((share_a, rounds, diff, share_groups))
}

/// Adds a two-strategy tally's deal groups to `groups` as the first strategy's (`sign`
/// 1.0, else -1.0 for the second's) share of each group's wins per round, draws counted
/// half: 1/2 + (S_a - S_b) / 2 per round, from the group's win shares a minus b.
fn add_share_groups(groups: &mut DealValues, tally: &Tally, sign: f64) {
    let d: &PairedSums = &tally.share_pairs[0];
    let per = (tally.rounds / d.groups.max(1)) as f64 * SHARE_UNIT as f64;
    let (d_sum, d_sq) = (sign * d.sum as f64 / per, d.sum_sq as f64 / (per * per));
    groups.groups += d.groups;
    groups.sum += 0.5 * d.groups as f64 + 0.5 * d_sum;
    groups.sum_sq += 0.25 * d.groups as f64 + 0.5 * d_sum + 0.25 * d_sq;
}

/// Bradley-Terry strengths by minorisation-maximisation (Hunter 2004), on the Elo scale
/// (400 log10, mean 1500), with a parametric bootstrap of the pairwise results.
pub fn bradley_terry_with_intervals(k: usize, matchups: &[Matchup], seed: u64) -> Vec<Estimate> {
    let wins = |draws: &mut dyn FnMut(&Matchup) -> f64| {
        let mut w = vec![vec![0.0; k]; k];
        let mut n = vec![vec![0.0; k]; k];
        for m in matchups.iter().filter(|m| m.strategy < m.opponent) {
            let wa = draws(m);
            w[m.strategy][m.opponent] = wa;
            w[m.opponent][m.strategy] = m.rounds as f64 - wa;
            n[m.strategy][m.opponent] = m.rounds as f64;
            n[m.opponent][m.strategy] = m.rounds as f64;
        }
        bradley_terry(&w, &n)
    };
    let point = wins(&mut |m| m.win_share.mean * m.rounds as f64);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0xB7);
    let samples: Vec<Vec<f64>> = (0..200)
        .map(|_| {
            wins(&mut |m| {
                let n = m.rounds as f64;
                let p = m.win_share.mean;
                let sd = (n * p * (1.0 - p)).sqrt().max(1e-9);
                Normal::new(n * p, sd).map_or(n * p, |d| d.sample(&mut rng)).clamp(0.0, n)
            })
        })
        .collect();
    (0..k)
        .map(|i| {
            let mut xs: Vec<f64> = samples.iter().map(|s| s[i]).collect();
            xs.sort_by(f64::total_cmp);
            Estimate {
                mean: point[i],
                lo: xs[(xs.len() as f64 * 0.025) as usize],
                hi: xs[(xs.len() as f64 * 0.975) as usize - 1],
            }
        })
        .collect()
}

/// Ratings from pairwise wins `w[i][j]` out of `n[i][j]` games.
fn bradley_terry(w: &[Vec<f64>], n: &[Vec<f64>]) -> Vec<f64> {
    let k = w.len();
    let mut pi = vec![1.0f64; k];
    for _ in 0..500 {
        let mut next = vec![0.0; k];
        for i in 0..k {
            let won: f64 = w[i].iter().sum::<f64>().max(1e-6);
            let denom: f64 = (0..k).filter(|&j| j != i).map(|j| n[i][j] / (pi[i] + pi[j])).sum();
            next[i] = won / denom.max(1e-12);
        }
        let geo = (next.iter().map(|p| p.ln()).sum::<f64>() / k as f64).exp();
        next.iter_mut().for_each(|p| *p /= geo);
        let change = next.iter().zip(&pi).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        pi = next;
        if change < 1e-10 {
            break;
        }
    }
    pi.iter().map(|p| 1500.0 + 400.0 * p.log10()).collect()
}

impl Comparison {
    /// The `matrix` table: one row per ordered pair.
    pub fn matrix_table(&self) -> Table {
        let m = &self.matchups;
        let name = |i: usize| self.strategies[i].clone();
        Table::new("matrix")
            .with("strategy", Values::Text(m.iter().map(|x| name(x.strategy)).collect()))
            .with("opponent", Values::Text(m.iter().map(|x| name(x.opponent)).collect()))
            .with("rounds", Values::Int(m.iter().map(|x| x.rounds as i64).collect()))
            .with("win_share", Values::Float(m.iter().map(|x| x.win_share.mean).collect()))
            .with("win_share_lo", Values::Float(m.iter().map(|x| x.win_share.lo).collect()))
            .with("win_share_hi", Values::Float(m.iter().map(|x| x.win_share.hi).collect()))
            .with(&self.pair_column, Values::Float(m.iter().map(|x| x.chips_diff.mean).collect()))
            .with(&format!("{}_lo", self.pair_column), Values::Float(m.iter().map(|x| x.chips_diff.lo).collect()))
            .with(&format!("{}_hi", self.pair_column), Values::Float(m.iter().map(|x| x.chips_diff.hi).collect()))
    }

    /// The `ratings` table: one row per strategy.
    pub fn ratings_table(&self) -> Table {
        let r = &self.ratings;
        Table::new("ratings")
            .with("strategy", Values::Text(self.strategies.clone()))
            .with("rating", Values::Float(r.iter().map(|e| e.mean).collect()))
            .with("rating_lo", Values::Float(r.iter().map(|e| e.lo).collect()))
            .with("rating_hi", Values::Float(r.iter().map(|e| e.hi).collect()))
            .with(
                "dominant",
                Values::Int((0..self.strategies.len()).map(|i| i64::from(self.dominant == Some(i))).collect()),
            )
    }

    /// The `equilibrium` table: each strategy's weight in the meta-game's equilibrium
    /// mixture, and what the best pure response gains against it (in win share).
    pub fn equilibrium_table(&self) -> Table {
        let e = &self.equilibrium;
        Table::new("equilibrium")
            .with("strategy", Values::Text(self.strategies.clone()))
            .with("weight", Values::Float(e.mixture.clone()))
            .with("exploitability", Values::Float(e.exploitability.clone()))
            .with("best_response", Values::Text(e.best_response.iter().map(|&r| self.strategies[r].clone()).collect()))
    }

    /// One line: the equilibrium mixture's support, heaviest first.
    pub fn equilibrium_text(&self) -> String {
        let e = &self.equilibrium;
        let mut support: Vec<usize> = (0..self.strategies.len()).filter(|&i| e.mixture[i] > 1e-6).collect();
        support.sort_by(|&a, &b| e.mixture[b].total_cmp(&e.mixture[a]));
        let parts: Vec<String> =
            support.iter().map(|&i| format!("{} {:.3}", self.strategies[i], e.mixture[i])).collect();
        format!(
            "Meta-game equilibrium (Nash mixture of the win-share game): {}; a best response gains {:.4} against it.",
            parts.join(", "),
            e.mixture_exploitability.max(0.0)
        )
    }

    /// The win-share matrix as aligned text: row strategy against column strategy.
    pub fn matrix_text(&self) -> String {
        let k = self.strategies.len();
        let cell = |i: usize, j: usize| {
            if i == j {
                return "-".to_string();
            }
            let m = self.matchups.iter().find(|m| m.strategy == i && m.opponent == j).expect("every pair");
            format!("{:.3} [{:.3},{:.3}]", m.win_share.mean, m.win_share.lo, m.win_share.hi)
        };
        let mut table = Table::new("matrix").with("win share (row vs column)", Values::Text(self.strategies.clone()));
        for j in 0..k {
            table = table.with(&self.strategies[j], Values::Text((0..k).map(|i| cell(i, j)).collect()));
        }
        table.to_aligned_text(3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_to_head_shares_per_group_follow_the_group_win_shares() {
        // Deal groups of two rounds: a wins both, one each, b wins both, a wins one and
        // the other is drawn (nobody's). A's share per round: 1, 1/2, 0, 3/4.
        let u = i64::from(SHARE_UNIT);
        let d = [2 * u, 0, -2 * u, u];
        let tally = Tally {
            rounds: 8,
            share_pairs: vec![PairedSums {
                groups: 4,
                sum: d.iter().sum(),
                sum_sq: d.iter().map(|&v| (v * v) as u128).sum(),
            }],
            ..Tally::default()
        };
        let x = [1.0, 0.5, 0.0, 0.75];
        for (sign, x) in [(1.0, x), (-1.0, x.map(|v| 1.0 - v))] {
            let mut g = DealValues::default();
            add_share_groups(&mut g, &tally, sign);
            assert_eq!(g.groups, 4);
            assert!((g.sum - x.iter().sum::<f64>()).abs() < 1e-12, "{sign}: {}", g.sum);
            assert!((g.sum_sq - x.iter().map(|v| v * v).sum::<f64>()).abs() < 1e-12, "{sign}: {}", g.sum_sq);
        }
    }

    #[test]
    fn deal_values_from_rows_match_the_tally_group_sums() {
        // One lineup of an odd table, folded from its deal rows, against the
        // tally's paired group sums (the even-table path): the same per-deal values.
        let info = crate::games::find("sevens").unwrap();
        let seats: Vec<String> = ["tight", "greedy", "tight"].map(String::from).to_vec();
        let (runner, seats) = (info.build)(None, Some(3), Some(&seats)).unwrap();
        let lineup = Lineup::new(&seats);
        let plan = Plan { seed: 9, rounds: 3_000, rotate: true, shard: None, until_ci: None, cards: false };
        for (ia, ib) in [(0, 1), (1, 0)] {
            let mut folder = DealFolder::new(&lineup, ia, ib, rounds_per_deal(3, true));
            let tally = runner
                .run(&lineup, &plan, Mode::DealRows, None, &mut |_, rows| {
                    folder.add(rows);
                    Ok(())
                })
                .unwrap();
            let values = folder.finish();
            assert_eq!(values.len() as u64, tally.pairs[0].groups);
            let sign = if ia < ib { 1.0 } else { -1.0 };
            let scale = (tally.instances[0] * tally.instances[1]) as f64;
            let sum: f64 = values.iter().map(|v| v.diff).sum();
            let sum_sq: f64 = values.iter().map(|v| v.diff * v.diff).sum();
            assert!((sum - sign * tally.pairs[0].sum as f64 / scale).abs() < 1e-9, "{sum}");
            assert!((sum_sq - tally.pairs[0].sum_sq as f64 / (scale * scale)).abs() < 1e-9, "{sum_sq}");
            let mut shares = DealValues::default();
            add_share_groups(&mut shares, &tally, sign);
            let share_sum: f64 = values.iter().map(|v| v.share).sum();
            let share_sq: f64 = values.iter().map(|v| v.share * v.share).sum();
            assert!((share_sum - shares.sum).abs() < 1e-9 && (share_sq - shares.sum_sq).abs() < 1e-9);
            assert!(values.iter().any(|v| v.diff != values[0].diff), "the deals differ");
        }
    }

    #[test]
    fn odd_tables_pair_the_same_deals_in_slices_as_at_once() {
        let info = crate::games::find("sevens").unwrap();
        let sides: Vec<_> = [["tight", "greedy", "tight"], ["greedy", "tight", "greedy"]]
            .iter()
            .map(|seats| {
                let seats: Vec<String> = seats.map(String::from).to_vec();
                let (runner, seats) = (info.build)(None, Some(3), Some(&seats)).unwrap();
                let lineup = Lineup::new(&seats);
                let ia = lineup.strategies.iter().position(|s| s == "tight").unwrap();
                (runner, lineup, ia, 1 - ia)
            })
            .collect();
        let plan = Plan { seed: 4, rounds: 3_000, rotate: true, shard: None, until_ci: None, cards: false };
        let (share, rounds, diff, shares) = pair_lineups(&sides, &plan, 1 << 20, None).unwrap();
        // 1,000 deals in slices of at most 300: four shards of whole 64-deal chunks.
        let (share_s, rounds_s, diff_s, shares_s) = pair_lineups(&sides, &plan, 300, None).unwrap();
        assert_eq!((share, rounds, diff.groups, shares.groups), (share_s, rounds_s, 1_000, 1_000));
        assert_eq!((diff_s.groups, shares_s.groups), (1_000, 1_000));
        for (x, y) in [(diff.sum, diff_s.sum), (diff.sum_sq, diff_s.sum_sq), (shares.sum, shares_s.sum)] {
            assert!((x - y).abs() < 1e-9 * x.abs().max(1.0), "{x} against {y}");
        }
        assert_eq!(rounds, 6_000);
    }

    #[test]
    fn head_to_head_intervals_fall_back_to_wilson_on_small_samples() {
        let spread = DealValues { groups: 400, sum: 200.0, sum_sq: 110.0 };
        let wilson = stats::wilson(400.0, 800);
        assert_eq!(head_to_head(400.0, 800, &DealValues { groups: 20, ..spread }), wilson, "few groups");
        assert_eq!(head_to_head(20.0, 800, &spread), stats::wilson(20.0, 800), "few wins");
        assert_eq!(
            head_to_head(400.0, 800, &DealValues { groups: 400, sum: 200.0, sum_sq: 100.0 }),
            wilson,
            "no spread"
        );
        let e = head_to_head(400.0, 800, &spread);
        // Group values with mean 1/2 and variance 0.025 (times n / (n - 1)).
        let half = stats::t_quantile_975(399) * (0.025f64 * 400.0 / 399.0 / 400.0).sqrt();
        assert_eq!(e.mean, 0.5);
        assert!((e.half_width() - half).abs() < 1e-12, "{e:?} against {half}");
    }
}
