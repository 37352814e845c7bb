//! The test that the search bot cannot cheat, shared by every game's tests. At a decision
//! point, the game re-deals every card the deciding seat has not seen straight from the true
//! state (not through the observation): the seat's observation must not change, and the
//! search bot with the same seed must decide the same. Every determinization must reproduce
//! the observation, be playable to the end, and rarely equal the true state.

use rand::{Rng, SeedableRng};

use super::{Forward, SeatBot, decide};
use crate::sim::{BotRng, NoEvents, RoundResult};

/// What the checks saw over many decision points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LeakReport {
    /// Decision points checked.
    pub points: usize,
    /// Determinized worlds built.
    pub worlds: usize,
    /// Worlds in which every seat's observation equals the true state's (the hidden cards
    /// all landed where they really are).
    pub same_worlds: usize,
}

/// How a decision point is checked.
#[derive(Clone, Copy, Debug)]
pub struct LeakCheck {
    /// Seats in the game.
    pub players: usize,
    /// The deciding seat's stream seed, the same for the truth and every world.
    pub bot_seed: u64,
    /// Determinizations to build.
    pub worlds: usize,
}

/// Checks one decision point of `truth` (the seat to move decides) against `redealt`
/// (states with the cards that seat has not seen dealt again, made from the truth by the
/// game) and `check.worlds` determinizations, adding to `report`; the first failure is
/// described.
pub fn check_point<F: Forward>(
    rules: &F::Variant,
    truth: &F,
    redealt: &[F],
    bot: &mut SeatBot<F>,
    check: LeakCheck,
    report: &mut LeakReport,
) -> Result<(), String>
where
    F::Obs: PartialEq + std::fmt::Debug,
{
    let mut scratch = F::Obs::default();
    let mut decider =
        |state: &F, seat: usize, rng: &mut BotRng| decide(rules, state, bot, seat, rng, &mut scratch, &mut NoEvents);
    check_decider(rules, truth, redealt, &mut decider, check, report)
}

/// How a player under test decides: the move for `seat`, the seat to move in the state,
/// from the seat's stream.
pub type Decider<'a, F> = dyn FnMut(&F, usize, &mut BotRng) -> Result<<F as Forward>::Move, crate::Error> + 'a;

/// [`check_point`] for any player, given as a [`Decider`]. Every determinization re-deals
/// every card and every hidden choice the seat could not see, consistently with its
/// observation: the decision must not change, and the world must play to its end with the
/// rules' invariants checked after every step.
pub fn check_decider<F: Forward>(
    rules: &F::Variant,
    truth: &F,
    redealt: &[F],
    decider: &mut Decider<'_, F>,
    check: LeakCheck,
    report: &mut LeakReport,
) -> Result<(), String>
where
    F::Obs: PartialEq + std::fmt::Debug,
{
    let LeakCheck { players, bot_seed, worlds } = check;
    let Some(seat) = truth.to_act() else { return Ok(()) };
    let (mut obs, mut seen, mut other) = (F::Obs::default(), F::Obs::default(), F::Obs::default());
    truth.observe(rules, seat, &mut obs);
    let reference = decider(truth, seat, &mut BotRng::seed_from_u64(bot_seed)).map_err(|e| e.to_string())?;
    for (r, state) in redealt.iter().enumerate() {
        state.observe(rules, seat, &mut seen);
        if seen != obs {
            return Err(format!(
                "re-deal {r}: what seat {seat} sees changed with cards it has not seen\n  truth: {obs:?}\n  re-dealt: {seen:?}"
            ));
        }
        let m = decider(state, seat, &mut BotRng::seed_from_u64(bot_seed)).map_err(|e| e.to_string())?;
        if m != reference {
            return Err(format!("re-deal {r}: seat {seat} chose {m:?} where the true state gave {reference:?}"));
        }
    }
    let mut rng = BotRng::seed_from_u64(bot_seed ^ 0x1EA4_C0DE);
    let mut world = F::default();
    let mut legal = Vec::new();
    let mut out = RoundResult::default();
    report.points += 1;
    for w in 0..worlds {
        F::determinize(rules, &obs, &mut rng, &mut world);
        report.worlds += 1;
        world.observe(rules, seat, &mut seen);
        if seen != obs {
            return Err(format!(
                "world {w}: seat {seat} would see something else\n  observed: {obs:?}\n  in world: {seen:?}"
            ));
        }
        let same = (0..players).all(|s| {
            truth.observe(rules, s, &mut seen);
            world.observe(rules, s, &mut other);
            seen == other
        });
        report.same_worlds += usize::from(same);
        let m = decider(&world, seat, &mut BotRng::seed_from_u64(bot_seed)).map_err(|e| e.to_string())?;
        if m != reference {
            return Err(format!("world {w}: seat {seat} chose {m:?} where the true state gave {reference:?}"));
        }
        // The world must play on to the end under the rules, every invariant checked.
        let mut playout = world.clone();
        playout.set_verify(true);
        while playout.to_act().is_some() {
            playout.legal(rules, &mut legal);
            if legal.is_empty() {
                return Err(format!("world {w}: a seat to move has no legal move"));
            }
            let m = legal[rng.random_range(0..legal.len())];
            playout.apply(rules, m, &mut NoEvents, &mut out).map_err(|e| format!("world {w} breaks a rule: {e}"))?;
        }
    }
    Ok(())
}

/// `count` states just before a decision, taken at random (one in `every` decisions) from
/// successive units that `bots` play (seat `s` by `bots[s]`). For tests and benchmarks.
pub fn decision_points<F: Forward>(
    rules: &F::Variant,
    bots: &mut [SeatBot<F>],
    seed: u64,
    count: usize,
    every: u32,
) -> Vec<F> {
    let mut points = Vec::with_capacity(count);
    let mut rng = BotRng::seed_from_u64(seed);
    let mut state = F::new(rules);
    let mut obs = F::Obs::default();
    let mut out = RoundResult::default();
    let players = bots.len();
    let mut unit = 0u64;
    while points.len() < count {
        let deal_seed = crate::sim::mix_seed(seed, unit, 0x9017);
        if state.start(rules, deal_seed, unit, &mut NoEvents, &mut out).is_err() {
            unit += 1;
            continue;
        }
        let mut rngs = crate::sim::SeatRngs::new(crate::sim::mix_seed(seed, unit, 0x9018), players);
        unit += 1;
        while let Some(s) = state.to_act() {
            if points.len() < count && rng.random_range(0..every.max(1)) == 0 {
                points.push(state.clone());
            }
            let Ok(m) = decide(rules, &state, &mut bots[s], s, rngs.seat(s), &mut obs, &mut NoEvents) else { break };
            if state.apply(rules, m, &mut NoEvents, &mut out).is_err() {
                break;
            }
        }
    }
    points
}
