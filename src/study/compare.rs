//! `compare`: every strategy against every other on paired deals under balanced seatings, a
//! win-share matrix with intervals, Bradley-Terry ratings, and which strategy dominates.

use std::sync::atomic::AtomicBool;

use rand::SeedableRng;
use rand_distr::{Distribution, Normal};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::error::{Error, InputError};
use crate::games::{GameInfo, Runner};
use crate::output::{Table, Values};
use crate::sim::{
    CHUNK_DEALS, Lineup, MIN_PAIRED_GROUPS, Mode, PairedSums, Plan, RoundRow, SHARE_UNIT, Score, Seatings, Shard, Tally,
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
    /// The deal groups the intervals are over.
    pub groups: u64,
}

impl Matchup {
    /// The row's edge in what the meta-game is paid in, with its even value: the score
    /// difference (even at 0) where the game is played for its score, else the win share
    /// (even at one half).
    pub fn paid(&self, by_score: bool) -> (Estimate, f64) {
        if by_score { (self.chips_diff, 0.0) } else { (self.win_share, 0.5) }
    }
}

/// Said of an equilibrium where no strategy dominates and some pair is not told apart
/// either way: it is solved on mean payoffs some of which may be noise.
pub const NOISY_EQUILIBRIUM: &str =
    " It is solved on the mean payoffs, some of which are not told from even: more rounds may change it.";

/// Whether some pair's edge (mean, lo, hi over its deal groups, one row per ordered pair
/// `(row, column)`) is told from `even` in neither direction.
pub fn some_pair_undecided(edges: &[((usize, usize), Estimate, u64)], even: f64) -> bool {
    let decided = |e: &Estimate, g: u64| {
        super::versus::decides_above(e, even, g)
            || super::versus::decides_above(&Estimate { mean: -e.mean, lo: -e.hi, hi: -e.lo }, -even, g)
    };
    edges.iter().any(|&((r, c), e, g)| r != c && !decided(&e, g))
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
    /// The strategy that beats every other (interval clear of even): by score where
    /// scores sum to zero, else by win share.
    pub dominant: Option<usize>,
    /// Whether dominance and the meta-game are judged by the score (a zero-sum score such
    /// as chips, where a unit's winner may still lose on the bets) rather than win shares.
    pub by_score: bool,
    /// The game's column name for the paired score difference (e.g. `chips_diff_per_round`).
    pub pair_column: String,
    /// That column in words per the game's unit (`chips diff per hand` in Sevens).
    pub pair_words: String,
    /// The meta-game's equilibrium: payoff the score difference where `by_score`, else the
    /// win share above one half.
    pub equilibrium: Equilibrium,
}

/// Plays every pair: with an even table the seats alternate A, B, A, B...; with an odd one
/// both A-major and B-major tables are played for half the rounds each, so each side
/// holds the same number of seats overall. `on_pair` hears (pairs done, pairs, the next
/// pair) before each pair and once at the end; the comparison stops with
/// [`Error::Interrupted`] soon after `interrupt` is set (Ctrl-C).
pub fn compare(
    info: &GameInfo,
    spec: &CompareSpec,
    interrupt: Option<&AtomicBool>,
    on_pair: &mut dyn FnMut(usize, usize, &str),
) -> Result<Comparison, Error> {
    let pairs = compare_shard(info, spec, None, interrupt, on_pair)?;
    compare_from_pairs(spec, pairs)
}

/// Refuses fewer than two strategies or one named twice.
pub fn check_strategies(spec: &CompareSpec) -> Result<(), InputError> {
    if spec.strategies.len() < 2 {
        return Err(InputError::new("--strategies: name at least two strategies, comma-separated"));
    }
    if let Some(twice) = super::repeated(&spec.strategies) {
        return Err(InputError::new(format!("--strategies: {twice} is named twice; name each strategy once")));
    }
    Ok(())
}

/// The units each pair plays: the rounds asked for, split between an odd table's two
/// lineups and rounded up to whole deals (every pair seats two strategies alike, so the
/// count is every pair's).
pub fn units_per_pair(info: &GameInfo, spec: &CompareSpec) -> Result<u64, Error> {
    let (sides, _) = pair_sides(info, spec, 0, 1)?;
    let lineups = sides.len() as u64;
    let per = seatings_per_deal(&sides[0]);
    Ok(lineups * crate::sim::deals_for(spec.rounds_per_pair.div_ceil(lineups), per) * per)
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
    /// That column in words per the game's unit (`chips diff per hand`); empty in results
    /// written before it was kept.
    #[serde(default)]
    pub words: String,
    /// Whether the game's scores sum to zero (chips): the meta-game is then played for
    /// the score, not for units won.
    #[serde(default)]
    pub zero_sum: bool,
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
        let sides = pair_sides(info, spec, a, b)?;
        let part = play_pair(&sides, spec, None, interrupt)?;
        out.push(finish_pair(&sides, a, b, part));
    }
    on_pair(wanted.len(), wanted.len(), "");
    Ok(out)
}

/// What a shard plays of one pair when a comparison has fewer pairs than shards: its share
/// of the pair's chunks, kept as integer counts and sums so that the parts add up to
/// exactly the whole pair.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PairPart {
    /// Each lineup's tally (one at an even table, two at an odd one).
    pub tallies: Vec<Tally>,
    /// An odd table's per-deal sums over both lineups (zero at an even table).
    pub deals: DealSums,
}

impl PairPart {
    /// Adds another part of the same pair.
    pub fn merge(&mut self, other: &PairPart) {
        for (t, o) in self.tallies.iter_mut().zip(&other.tallies) {
            t.merge(o);
        }
        self.deals.merge(&other.deals);
    }
}

/// An odd table's sums over deals of each deal's two integer numerators: A's score
/// difference over both lineups (on the common denominator of the four seat-unit counts)
/// and A's wins minus B's over both lineups (in share units), with their squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DealSums {
    /// Deals.
    pub groups: u64,
    /// Sum of the score-difference numerators.
    pub diff: i128,
    /// Sum of their squares.
    pub diff_sq: i128,
    /// Sum of the win-difference numerators.
    pub share: i128,
    /// Sum of their squares.
    pub share_sq: i128,
}

impl DealSums {
    fn merge(&mut self, o: &DealSums) {
        self.groups += o.groups;
        self.diff += o.diff;
        self.diff_sq += o.diff_sq;
        self.share += o.share;
        self.share_sq += o.share_sq;
    }
}

/// Plays the part `part` (see [`crate::study::shard_work`]) of pair `index` of the
/// comparison: a share of that pair's chunks.
pub fn compare_part(
    info: &GameInfo,
    spec: &CompareSpec,
    index: usize,
    part: Shard,
    interrupt: Option<&AtomicBool>,
) -> Result<PairPart, Error> {
    check_strategies(spec)?;
    let (a, b) = pair_list(spec.strategies.len())[index];
    play_pair(&pair_sides(info, spec, a, b)?, spec, Some(part), interrupt)
}

/// Pair `index`'s result from its parts (all of them, in part order).
pub fn pair_from_parts(
    info: &GameInfo,
    spec: &CompareSpec,
    index: usize,
    parts: &[PairPart],
) -> Result<PairResult, Error> {
    check_strategies(spec)?;
    let (a, b) = pair_list(spec.strategies.len())[index];
    let sides = pair_sides(info, spec, a, b)?;
    if let Some(p) = parts.iter().find(|p| p.tallies.len() != sides.0.len()) {
        return Err(InputError::new(format!(
            "a part of pair {index} holds {} seatings' tallies, not {}; play its shards again",
            p.tallies.len(),
            sides.0.len()
        ))
        .into());
    }
    let mut total = parts.first().cloned().ok_or_else(|| Error::Invariant("a pair with no part".into()))?;
    for p in &parts[1..] {
        total.merge(p);
    }
    Ok(finish_pair(&sides, a, b, total))
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
    let (mut pair_column, mut pair_words) = (String::new(), String::new());
    let mut by_score = false;
    for PairResult { a, b, share_a, rounds, diff, share_groups, column, words, zero_sum } in pairs {
        pair_words = if words.is_empty() { column.replace('_', " ") } else { words };
        pair_column = column;
        by_score = zero_sum;
        let share = head_to_head(share_a, rounds, &share_groups);
        let chips = stats::mean_interval(diff.groups, diff.sum, diff.sum_sq);
        let groups = diff.groups;
        matchups.push(Matchup { strategy: a, opponent: b, rounds, win_share: share, chips_diff: chips, groups });
        matchups.push(Matchup {
            strategy: b,
            opponent: a,
            rounds,
            win_share: Estimate { mean: 1.0 - share.mean, lo: 1.0 - share.hi, hi: 1.0 - share.lo },
            chips_diff: Estimate { mean: -chips.mean, lo: -chips.hi, hi: -chips.lo },
            groups,
        });
    }
    let ratings = bradley_terry_with_intervals(k, &matchups, spec.seed);
    // What a unit is played for: in a game of chips the hand's winner may lose on the bets
    // (a calling station wins half of Kuhn's hands and loses chips to every sound player).
    // An edge of no width over a few deal groups decides nothing (as in the ladder).
    let dominant = (0..k).find(|&i| {
        matchups.iter().filter(|m| m.strategy == i).all(|m| {
            let (e, even) = m.paid(by_score);
            super::versus::decides_above(&e, even, m.groups)
        })
    });
    let mut payoff = vec![vec![0.0; k]; k];
    for m in &matchups {
        let (e, even) = m.paid(by_score);
        payoff[m.strategy][m.opponent] = e.mean - even;
    }
    let equilibrium = equilibrium::solve(&payoff)?;
    Ok(Comparison {
        strategies: spec.strategies.clone(),
        matchups,
        ratings,
        dominant,
        by_score,
        pair_column,
        pair_words,
        equilibrium,
    })
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

/// One deal's integer numerators for A against B in one lineup: A's score sum times B's
/// seat-units minus B's times A's (A's mean score per seat-unit minus B's, on the
/// denominator a b), and A's win-share units minus B's.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct PairValue {
    diff: i64,
    share: i64,
}

/// Folds a lineup's deal rows ([`Mode::DealRows`], in order) into each deal's
/// [`PairValue`]: A and B the lineup's strategies `ia` and `ib` with `units` seat-units
/// each per deal.
struct DealFolder {
    ia: u16,
    ib: u16,
    units: [i64; 2],
    /// The deal being folded (its first round): A's and B's score sums, then win-share units.
    current: Option<(u64, [i64; 4])>,
    values: Vec<PairValue>,
}

impl DealFolder {
    fn new(side: &Side, per: u64) -> DealFolder {
        DealFolder {
            ia: side.2 as u16,
            ib: side.3 as u16,
            units: side_units(side, per),
            current: None,
            values: Vec::new(),
        }
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
            self.values.push(PairValue { diff: sa * self.units[1] - sb * self.units[0], share: wa - wb });
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

/// A built lineup of a pair: its runner, lineup, and A's and B's strategy index in it.
type Side = (Box<dyn Runner>, Lineup, usize, usize);

/// The lineups strategy a plays b in: one at an even table (A, B, A, B, ...), both orders
/// at an odd one; and the game's name for the paired score difference.
fn pair_sides(info: &GameInfo, spec: &CompareSpec, a: usize, b: usize) -> Result<(Vec<Side>, Score), Error> {
    let names = [&spec.strategies[a], &spec.strategies[b]];
    let lineups: Vec<Vec<String>> = if spec.players.is_multiple_of(2) {
        vec![(0..spec.players).map(|s| names[s % 2].clone()).collect()]
    } else {
        (0..2).map(|first| (0..spec.players).map(|s| names[(s + first) % 2].clone()).collect()).collect()
    };
    let mut score = None;
    let mut sides = Vec::new();
    for seats in &lineups {
        let (runner, seats) = (info.build)(spec.rules.as_deref(), Some(spec.players), Some(seats))?;
        let lineup = Lineup::new(&seats);
        score = Some(runner.measures().score.clone());
        let ia = lineup.strategies.iter().position(|s| s == names[0]).expect("a is seated");
        let ib = lineup.strategies.iter().position(|s| s == names[1]).expect("b is seated");
        sides.push((runner, lineup, ia, ib));
    }
    Ok((sides, score.expect("at least one lineup")))
}

/// Plays a pair's lineups (only `part`'s share of the chunks, when given), keeping integer
/// counts and sums.
fn play_pair(
    (sides, _): &(Vec<Side>, Score),
    spec: &CompareSpec,
    part: Option<Shard>,
    interrupt: Option<&AtomicBool>,
) -> Result<PairPart, Error> {
    let plan = Plan {
        seed: spec.seed,
        rounds: spec.rounds_per_pair.div_ceil(sides.len() as u64),
        rotate: true,
        shard: part,
        until_ci: None,
        cards: false,
        first_deal: 0,
    };
    if let [(runner, lineup, _, _)] = &sides[..] {
        let mut tally = runner.run(lineup, &plan, Mode::Tally, interrupt, &mut |_, _| Ok(()))?;
        // The part it played, which a merge checks against the part it is read as.
        tally.shard = part;
        return Ok(PairPart { tallies: vec![tally], deals: DealSums::default() });
    }
    pair_lineups(sides, &plan, PAIRED_DEALS_AT_ONCE, interrupt)
}

/// A pair's result from its play: A's wins and rounds, the paired score difference sums
/// (A minus B, per seat, per round) and A's share of each deal group's wins per round.
fn finish_pair((sides, score): &(Vec<Side>, Score), a: usize, b: usize, part: PairPart) -> PairResult {
    let (mut share_a, mut rounds) = (0.0, 0);
    let (mut diff, mut share_groups) = (DealValues::default(), DealValues::default());
    for ((_, _, ia, ib), tally) in sides.iter().zip(&part.tallies) {
        add_wins(&mut share_a, &mut rounds, tally, *ia, *ib);
    }
    if let ([(_, _, ia, ib)], [tally]) = (&sides[..], &part.tallies[..]) {
        // Per-group difference of per-seat means, in chips per round: scale each group's
        // integer difference by the instance counts, as `pair_difference` does.
        let (lo, hi) = ((*ia).min(*ib), (*ia).max(*ib));
        let scale = (tally.instances[lo] * tally.instances[hi]) as f64;
        let sign = if ia < ib { 1.0 } else { -1.0 };
        let p: &PairedSums = &tally.pairs[0];
        diff.groups += p.groups;
        diff.sum += sign * p.sum as f64 / scale;
        diff.sum_sq += p.sum_sq as f64 / (scale * scale);
        add_share_groups(&mut share_groups, tally, sign);
    } else {
        let d = &part.deals;
        let per = seatings_per_deal(&sides[0]);
        let denominator = odd_denominator(sides, per) as f64;
        diff = DealValues {
            groups: d.groups,
            sum: d.diff as f64 / denominator,
            sum_sq: d.diff_sq as f64 / (denominator * denominator),
        };
        // A deal's share is 1/2 + W / (4 P), W its wins difference over both lineups and P
        // the share units of one lineup's rounds.
        let p = (per * u64::from(SHARE_UNIT)) as f64;
        let (n, w, w_sq) = (d.groups as f64, d.share as f64, d.share_sq as f64);
        share_groups = DealValues {
            groups: d.groups,
            sum: 0.5 * n + 0.25 * w / p,
            sum_sq: 0.25 * n + 0.25 * w / p + 0.0625 * w_sq / (p * p),
        };
    }
    PairResult {
        a,
        b,
        share_a,
        rounds,
        diff,
        share_groups,
        column: score.pair_column.clone(),
        words: sides.first().map_or_else(|| score.pair_column.replace('_', " "), |s| s.0.measures().pair_words()),
        zero_sum: score.zero_sum,
    }
}

/// Seatings a deal of this side is played under (both sides of an odd table have the same
/// number: their lineups are one shape with the strategies swapped).
fn seatings_per_deal((runner, lineup, _, _): &Side) -> u64 {
    Seatings::new(lineup, runner.players(), true).expect("a pair's lineup has one strategy a seat").len() as u64
}

/// Seat-units of A and of B per deal in a lineup.
fn side_units((_, lineup, ia, ib): &Side, per: u64) -> [i64; 2] {
    [*ia, *ib].map(|x| (lineup.entry_strategy.iter().filter(|&&e| e == x).count() as u64 * per) as i64)
}

/// The common denominator of an odd table's deal values: a deal's score difference is
/// (dA0 / (a0 b0) + dA1 / (a1 b1)) / 2, a_i and b_i the sides' seat-units in lineup i.
fn odd_denominator(sides: &[Side], per: u64) -> i128 {
    let [a0, b0] = side_units(&sides[0], per);
    let [a1, b1] = side_units(&sides[1], per);
    2 * i128::from(a0 * b0) * i128::from(a1 * b1)
}

/// An odd table's two lineups (runner, lineup, A's and B's strategy index in it) played on
/// the same deals (same seed, same rounds; only `plan.shard`'s chunks when it has one):
/// each lineup's tally and the integer sums over deals of the deal's numerators over both
/// lineups. At most `at_once` deals are paired at a time, so memory stays bounded.
fn pair_lineups(sides: &[Side], plan: &Plan, at_once: u64, interrupt: Option<&AtomicBool>) -> Result<PairPart, Error> {
    let per = seatings_per_deal(&sides[0]);
    let [a0, b0] = side_units(&sides[0], per);
    let [a1, b1] = side_units(&sides[1], per);
    let (scale0, scale1) = (i128::from(a1 * b1), i128::from(a0 * b0));
    let part = plan.shard.unwrap_or(Shard { index: 0, count: 1 });
    let deals = crate::sim::deals_for(plan.rounds, per);
    let chunks = deals.div_ceil(CHUNK_DEALS).div_ceil(part.count);
    let slices = deals.div_ceil(part.count).div_ceil(at_once).min(chunks).max(1);
    let mut out = PairPart { tallies: Vec::new(), deals: DealSums::default() };
    for index in 0..slices {
        // The part's chunks j (j mod parts = p) are those with j mod (parts x slices) in
        // p, p + parts, ...: slice s takes p + parts s.
        let slice = Shard { index: part.index + part.count * index, count: part.count * slices };
        let slice = Plan { shard: (slice.count > 1).then_some(slice), ..plan.clone() };
        let mut values = Vec::new();
        for (at, side) in sides.iter().enumerate() {
            let mut folder = DealFolder::new(side, per);
            let tally = side.0.run(&side.1, &slice, Mode::DealRows, interrupt, &mut |_, rows| {
                folder.add(rows);
                Ok(())
            })?;
            match out.tallies.get_mut(at) {
                Some(t) => t.merge(&tally),
                None => out.tallies.push(tally),
            }
            values.push(folder.finish());
        }
        assert_eq!(values[0].len(), values[1].len(), "both lineups play the same deals");
        let d = &mut out.deals;
        for (x, y) in values[0].iter().zip(&values[1]) {
            let diff = i128::from(x.diff) * scale0 + i128::from(y.diff) * scale1;
            let share = i128::from(x.share + y.share);
            d.groups += 1;
            d.diff += diff;
            d.diff_sq += diff * diff;
            d.share += share;
            d.share_sq += share * share;
        }
    }
    // The part played, not its slices: a merge checks it against the part it is read as.
    for t in &mut out.tallies {
        t.shard = plan.shard;
    }
    Ok(out)
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
        Table::new(super::kind::COMPARE.tables[0])
            .with("strategy", Values::Text(m.iter().map(|x| name(x.strategy)).collect()))
            .with("opponent", Values::Text(m.iter().map(|x| name(x.opponent)).collect()))
            .with("rounds", Values::Int(m.iter().map(|x| x.rounds as i64).collect()))
            .with("win_share", Values::Float(m.iter().map(|x| x.win_share.mean).collect()))
            .with("win_share_lo", Values::Float(m.iter().map(|x| x.win_share.lo).collect()))
            .with("win_share_hi", Values::Float(m.iter().map(|x| x.win_share.hi).collect()))
            .with(&self.pair_column, Values::Float(m.iter().map(|x| x.chips_diff.mean).collect()))
            .with(&format!("{}_lo", self.pair_column), Values::Float(m.iter().map(|x| x.chips_diff.lo).collect()))
            .with(&format!("{}_hi", self.pair_column), Values::Float(m.iter().map(|x| x.chips_diff.hi).collect()))
            .with("deal_groups", Values::Int(m.iter().map(|x| x.groups as i64).collect()))
    }

    /// The `ratings` table: one row per strategy.
    pub fn ratings_table(&self) -> Table {
        let r = &self.ratings;
        Table::new("ratings")
            .with("strategy", Values::Text(self.strategies.clone()))
            .with("rating", Values::Float(r.iter().map(|e| e.mean).collect()))
            .with("rating_lo", Values::Float(r.iter().map(|e| e.lo).collect()))
            .with("rating_hi", Values::Float(r.iter().map(|e| e.hi).collect()))
            .with("dominant", Values::Bool((0..self.strategies.len()).map(|i| self.dominant == Some(i)).collect()))
    }

    /// The `equilibrium` table: each strategy's weight in the meta-game's equilibrium
    /// mixture, and what the best pure response gains against it (in the score where
    /// `by_score`, else in win share).
    pub fn equilibrium_table(&self) -> Table {
        let e = &self.equilibrium;
        Table::new("equilibrium")
            .with("strategy", Values::Text(self.strategies.clone()))
            .with("weight", Values::Float(e.mixture.clone()))
            // Within the meta-game of the listed strategies, not the game's own exploitability
            // (`draftsim exploitability`): named apart so one word means one figure.
            .with("meta_exploitability", Values::Float(e.exploitability.clone()))
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
            "Meta-game equilibrium (Nash mixture of the {}): {}; a best response gains {:.4} against it.{}",
            self.meta_game(),
            parts.join(", "),
            e.mixture_exploitability.max(0.0),
            if self.dominant.is_none() && self.rests_on_noise() { NOISY_EQUILIBRIUM } else { "" }
        )
    }

    /// Whether some pair's edge, as the meta-game is paid, is told from even in neither
    /// direction.
    pub fn rests_on_noise(&self) -> bool {
        let edges: Vec<_> =
            self.matchups.iter().map(|m| ((m.strategy, m.opponent), m.paid(self.by_score).0, m.groups)).collect();
        some_pair_undecided(&edges, if self.by_score { 0.0 } else { 0.5 })
    }

    /// The meta-game in words: "game paid in" the score difference (e.g. "chips diff per
    /// round"), or the "win-share game".
    pub fn meta_game(&self) -> String {
        if self.by_score { format!("game paid in {}", self.pair_words) } else { "win-share game".to_string() }
    }

    /// The win-share matrix as aligned text: row strategy against column strategy.
    pub fn matrix_text(&self) -> String {
        self.matrix_of("win share (row vs column)", |m| {
            let f = |x: f64| crate::output::fixed(x, 3);
            format!("{} [{},{}]", f(m.win_share.mean), f(m.win_share.lo), f(m.win_share.hi))
        })
    }

    /// The paired score difference per round, row minus column, as aligned text: what a
    /// game of chips is won by where win shares tie (each Kuhn hand has one winner).
    pub fn score_matrix_text(&self) -> String {
        let title = format!("{} (row minus column)", self.pair_words);
        self.matrix_of(&title, |m| {
            let f = |x: f64| crate::output::signed(x, 3);
            format!("{} [{},{}]", f(m.chips_diff.mean), f(m.chips_diff.lo), f(m.chips_diff.hi))
        })
    }

    /// True when no pair's win share is told from one half but some pair's score
    /// difference is told from zero: the ratings then cannot rank what the scores do.
    pub fn only_scores_separate(&self) -> bool {
        let apart = |e: &Estimate, at: f64| e.lo > at || e.hi < at;
        !self.matchups.iter().any(|m| apart(&m.win_share, 0.5))
            && self.matchups.iter().any(|m| apart(&m.chips_diff, 0.0))
    }

    fn matrix_of(&self, title: &str, text: impl Fn(&Matchup) -> String) -> String {
        let k = self.strategies.len();
        let cell = |i: usize, j: usize| {
            if i == j {
                return "-".to_string();
            }
            text(self.matchups.iter().find(|m| m.strategy == i && m.opponent == j).expect("every pair"))
        };
        let mut table = Table::new(super::kind::COMPARE.tables[0]).with(title, Values::Text(self.strategies.clone()));
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
        let plan =
            Plan { seed: 9, rounds: 3_000, rotate: true, shard: None, until_ci: None, cards: false, first_deal: 0 };
        let mut side: Side = (runner, lineup, 0, 1);
        for (ia, ib) in [(0, 1), (1, 0)] {
            (side.2, side.3) = (ia, ib);
            let per = seatings_per_deal(&side);
            let [ua, ub] = side_units(&side, per);
            let mut folder = DealFolder::new(&side, per);
            let tally = side
                .0
                .run(&side.1, &plan, Mode::DealRows, None, &mut |_, rows| {
                    folder.add(rows);
                    Ok(())
                })
                .unwrap();
            let values = folder.finish();
            assert_eq!(values.len() as u64, tally.pairs[0].groups);
            let sign = if ia < ib { 1.0 } else { -1.0 };
            let scale = (tally.instances[0] * tally.instances[1]) as f64;
            let diff = |v: &PairValue| v.diff as f64 / (ua * ub) as f64;
            let sum: f64 = values.iter().map(diff).sum();
            let sum_sq: f64 = values.iter().map(|v| diff(v) * diff(v)).sum();
            assert!((sum - sign * tally.pairs[0].sum as f64 / scale).abs() < 1e-9, "{sum}");
            assert!((sum_sq - tally.pairs[0].sum_sq as f64 / (scale * scale)).abs() < 1e-9, "{sum_sq}");
            let mut shares = DealValues::default();
            add_share_groups(&mut shares, &tally, sign);
            let share = |v: &PairValue| 0.5 + 0.5 * v.share as f64 / (per * u64::from(SHARE_UNIT)) as f64;
            let share_sum: f64 = values.iter().map(share).sum();
            let share_sq: f64 = values.iter().map(|v| share(v) * share(v)).sum();
            assert!((share_sum - shares.sum).abs() < 1e-9 && (share_sq - shares.sum_sq).abs() < 1e-9);
            assert!(values.iter().any(|v| v.diff != values[0].diff), "the deals differ");
        }
    }

    fn odd_sides() -> (Vec<Side>, Score) {
        let info = crate::games::find("sevens").unwrap();
        let spec = CompareSpec {
            rules: None,
            strategies: vec!["tight".into(), "greedy".into()],
            players: 3,
            rounds_per_pair: 6_000,
            seed: 4,
        };
        pair_sides(info, &spec, 0, 1).unwrap()
    }

    #[test]
    fn odd_tables_pair_the_same_deals_in_slices_as_at_once() {
        let (sides, _) = odd_sides();
        let plan =
            Plan { seed: 4, rounds: 3_000, rotate: true, shard: None, until_ci: None, cards: false, first_deal: 0 };
        let whole = pair_lineups(&sides, &plan, 1 << 20, None).unwrap();
        // 1,000 deals in slices of at most 300: four shards of whole 64-deal chunks.
        let sliced = pair_lineups(&sides, &plan, 300, None).unwrap();
        assert_eq!(whole.deals.groups, 1_000);
        assert_eq!(whole.tallies.iter().map(|t| t.rounds).sum::<u64>(), 6_000);
        assert!(sliced == whole, "integer sums: exactly the same");
    }

    #[test]
    fn a_pairs_parts_add_up_to_the_whole_pair() {
        let info = crate::games::find("sevens").unwrap();
        for players in [3, 4] {
            let spec = CompareSpec {
                rules: None,
                strategies: vec!["tight".into(), "greedy".into()],
                players,
                rounds_per_pair: 6_000,
                seed: 4,
            };
            let sides = pair_sides(info, &spec, 0, 1).unwrap();
            let whole = finish_pair(&sides, 0, 1, play_pair(&sides, &spec, None, None).unwrap());
            // Three parts, the middle one sliced too.
            let parts: Vec<PairPart> =
                (0..3).map(|index| compare_part(info, &spec, 0, Shard { index, count: 3 }, None).unwrap()).collect();
            assert!(pair_from_parts(info, &spec, 0, &parts).unwrap() == whole, "{players} players");
            let plan = Plan {
                seed: 4,
                rounds: 3_000,
                rotate: true,
                shard: Some(Shard { index: 1, count: 3 }),
                until_ci: None,
                cards: false,
                first_deal: 0,
            };
            if players == 3 {
                assert!(pair_lineups(&sides.0, &plan, 100, None).unwrap() == parts[1], "a part played in slices");
            }
        }
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

    /// A cycle whose every pair is decided rests on no noise, however many rounds; a pair
    /// told apart in neither direction, or alike over a few groups, does.
    #[test]
    fn an_equilibrium_rests_on_noise_only_where_a_pair_is_undecided() {
        let e = |mean: f64, half: f64| Estimate { mean, lo: mean - half, hi: mean + half };
        let both = |r: usize, c: usize, edge: Estimate, g: u64| {
            [((r, c), edge, g), ((c, r), Estimate { mean: -edge.mean, lo: -edge.hi, hi: -edge.lo }, g)]
        };
        let cycle: Vec<_> =
            [both(0, 1, e(0.3, 0.1), 100), both(1, 2, e(0.3, 0.1), 100), both(2, 0, e(0.3, 0.1), 100)].concat();
        assert!(!some_pair_undecided(&cycle, 0.0));
        let mut level = cycle.clone();
        level.extend(both(0, 3, e(0.05, 0.1), 100));
        assert!(some_pair_undecided(&level, 0.0));
        let mut alike = cycle;
        alike.extend(both(0, 3, e(0.5, 0.0), 2));
        assert!(some_pair_undecided(&alike, 0.0));
    }
}
