//! Any player as a tabular policy over a game's exact tree: asked at one state of each
//! information set, as OpenSpiel's `is_mcts_exploitability` tabulates its search bot, so
//! the best response can measure how exploitable it is.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::{Rng, SeedableRng};

use super::best_response::exploitability;
use super::tree::{TabularPolicy, Tree};
use crate::error::Error;
use crate::games::contest::{GameDef, VariantOf};
use crate::search::{Forward, SeatBot, decide};
use crate::sim::{BotRng, NoEvents, RoundResult, mix_seed};

fn stopped(interrupt: Option<&AtomicBool>) -> bool {
    interrupt.is_some_and(|i| i.load(Ordering::Relaxed))
}

/// One state of each of the tree's information sets (the first met, walking the deals in
/// the tree's order), indexed as `tree.infosets`.
pub fn representatives<G: GameDef>(
    rules: &VariantOf<G>,
    tree: &Tree,
    interrupt: Option<&AtomicBool>,
) -> Result<Vec<G::State>, Error> {
    let index: HashMap<(usize, u64), usize> =
        tree.infosets.iter().enumerate().map(|(i, s)| ((s.seat, s.key), i)).collect();
    let mut found: Vec<Option<G::State>> = vec![None; tree.infosets.len()];
    let deals = <G::State as Forward>::deal_count(rules).unwrap_or(0);
    let mut obs = <G::State as Forward>::Obs::default();
    let mut legal = Vec::new();
    let mut stack: Vec<(G::State, RoundResult)> = Vec::new();
    for d in 0..deals {
        if stopped(interrupt) {
            return Err(Error::Interrupted);
        }
        let mut state = <G::State as Forward>::new(rules);
        let mut out = RoundResult::default();
        state.start_deal(rules, d, &mut out)?;
        stack.push((state, out));
        while let Some((state, out)) = stack.pop() {
            let Some(seat) = state.to_act() else { continue };
            state.observe(rules, seat, &mut obs);
            let key = <G::State as Forward>::info_key(rules, &obs).unwrap_or(0);
            if let Some(&i) = index.get(&(seat, key))
                && found[i].is_none()
            {
                found[i] = Some(state.clone());
            }
            state.legal(rules, &mut legal);
            for &m in &legal {
                let (mut child, mut child_out) = (state.clone(), out.clone());
                child.apply(rules, m, &mut NoEvents, &mut child_out)?;
                stack.push((child, child_out));
            }
        }
    }
    found
        .into_iter()
        .enumerate()
        .map(|(i, s)| s.ok_or_else(|| Error::Invariant(format!("information set {i} of the tree was not met again"))))
        .collect()
}

/// `bot`'s policy at every information set of `tree`: a trained policy's own
/// probabilities (uniform at a set it never saw); any other player's share of `samples`
/// decisions, each with its own stream from `seed` (a deterministic heuristic gives its
/// one move exactly). With it, the count of sets a trained policy never saw (a damaged
/// file, or a short sampled training), 0 for any other player. `Err(Interrupted)` where
/// `interrupt` is set between sets (a searching player takes long over a big tree).
pub fn tabulate<G: GameDef>(
    rules: &VariantOf<G>,
    tree: &Tree,
    states: &[G::State],
    (bot, samples, seed): (&mut SeatBot<G::State>, u32, u64),
    interrupt: Option<&AtomicBool>,
) -> Result<(TabularPolicy, usize), Error> {
    let mut obs = <G::State as Forward>::Obs::default();
    let mut legal = Vec::new();
    let mut policy = Vec::with_capacity(tree.infosets.len());
    let mut unseen = 0;
    for (i, (set, state)) in tree.infosets.iter().zip(states).enumerate() {
        if stopped(interrupt) {
            return Err(Error::Interrupted);
        }
        state.legal(rules, &mut legal);
        if let SeatBot::Policy(p) = bot {
            let probs = p.policy().probs_for(set.seat, set.key, set.actions)?;
            unseen += usize::from(probs.is_none());
            policy.push(probs.map_or_else(|| vec![1.0 / set.actions as f64; set.actions], <[f64]>::to_vec));
            continue;
        }
        let mut counts = vec![0u32; set.actions];
        for k in 0..samples {
            let mut rng = BotRng::seed_from_u64(mix_seed(seed, i as u64, u64::from(k)));
            let m = decide(rules, state, bot, set.seat, &mut rng, &mut obs, &mut NoEvents)?;
            let at = legal.iter().position(|l| *l == m).ok_or_else(|| Error::IllegalAction {
                bot: "tabulated player".into(),
                seat: set.seat,
                action: format!("{m:?}"),
            })?;
            counts[at] += 1;
        }
        policy.push(counts.iter().map(|&c| f64::from(c) / f64::from(samples)).collect());
    }
    Ok((policy, unseen))
}

/// Replicates of a sampled tabulation that [`sampling_interval`] draws.
pub const REPLICATES: u32 = 200;

/// A 95% interval for the exploitability of a player tabulated from `samples` decisions
/// per set (`policy`, the shares it chose): `REPLICATES` tabulations are drawn again from
/// those shares, as many decisions per set, and measured. The interval is the basic
/// bootstrap's (the measured figure less the replicates' spread about it, both ends), so that
/// the upward pull of sampling noise on exploitability is taken out once rather than
/// doubled; its lower end is at least 0. A player whose every set had one answer in two or
/// more asks gives its figure at both ends; one ask a set tells nothing of the spread, so
/// no interval (NaN at both ends). `Err(Interrupted)` where `interrupt` is set between
/// replicates (each a whole best response, long on a big tree).
pub fn sampling_interval(
    tree: &Tree,
    policy: &TabularPolicy,
    samples: u32,
    seed: u64,
    interrupt: Option<&AtomicBool>,
) -> Result<(f64, f64), Error> {
    if samples < 2 {
        return Ok((f64::NAN, f64::NAN));
    }
    let measured = exploitability(tree, policy);
    if policy.iter().all(|p| p.iter().all(|&x| x == 0.0 || x == 1.0)) {
        return Ok((measured, measured));
    }
    let mut rng = BotRng::seed_from_u64(seed);
    let mut again: TabularPolicy = policy.clone();
    let mut figures: Vec<f64> = (0..REPLICATES)
        .map(|_| {
            if stopped(interrupt) {
                return Err(Error::Interrupted);
            }
            for (shares, redrawn) in policy.iter().zip(again.iter_mut()) {
                redrawn.iter_mut().for_each(|x| *x = 0.0);
                for _ in 0..samples {
                    let mut u: f64 = rng.random();
                    let at = shares.iter().position(|&x| {
                        u -= x;
                        u < 0.0
                    });
                    redrawn[at.unwrap_or(shares.len() - 1)] += 1.0 / f64::from(samples);
                }
            }
            Ok(exploitability(tree, &again))
        })
        .collect::<Result<_, _>>()?;
    figures.sort_by(f64::total_cmp);
    let quantile = |q: f64| figures[((q * f64::from(REPLICATES - 1)).round() as usize).min(figures.len() - 1)];
    Ok(((2.0 * measured - quantile(0.975)).max(0.0), 2.0 * measured - quantile(0.025)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A signal set before a tabulation stops it before the first set is asked (a searching
    /// player over Leduc's tree is long); unset, every set gets its policy.
    #[test]
    fn a_signal_stops_a_tabulation() {
        let info = crate::games::find("leduc-poker").unwrap();
        let (game, _) = (info.build)(None, None, Some(&["random".to_string(), "random".to_string()])).unwrap();
        let tree = game.game_tree().unwrap();
        let stop = std::sync::atomic::AtomicBool::new(true);
        assert!(matches!(game.tabulate(&tree, (2, 1), Some(&stop)), Err(crate::Error::Interrupted)));
        let policies = game.tabulate(&tree, (2, 1), None).unwrap();
        assert_eq!(policies[0].0.len(), tree.infosets.len());
        // Within a tabulation too, the states found: the signal is heard between sets.
        type Leduc = crate::games::ref_poker::Def<crate::games::ref_poker::rules::Leduc>;
        let rules = Leduc::compile(&<Leduc as GameDef>::RulesFile::default()).unwrap();
        let states = representatives::<Leduc>(&rules, &tree, None).unwrap();
        let mut bot = crate::games::contest::seat_bots::<Leduc>(&["random"], 2).unwrap().remove(0);
        let asked = tabulate::<Leduc>(&rules, &tree, &states, (&mut bot, 2, 1), Some(&stop));
        assert!(matches!(asked, Err(crate::Error::Interrupted)));
    }

    /// A signal set before the replicates stops them, and the interval is not made; unset,
    /// an interval is made.
    #[test]
    fn a_signal_stops_the_sampling_interval_between_replicates() {
        let tree = crate::solver::best_response::kuhn::tree();
        let uniform = tree.uniform();
        let stop = std::sync::atomic::AtomicBool::new(true);
        assert!(matches!(sampling_interval(&tree, &uniform, 8, 1, Some(&stop)), Err(crate::Error::Interrupted)));
        let (lo, hi) = sampling_interval(&tree, &uniform, 8, 1, None).unwrap();
        assert!(lo.is_finite() && hi.is_finite() && 0.0 <= lo && lo <= hi, "{lo} {hi}");
    }
}
