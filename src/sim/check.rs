//! `draftsim check`: play a run with every invariant checked and report the first
//! violation with the round that shows it.
//!
//! Each game checks its own invariants (cards conserved, legal actions, chips, the game
//! ending) in [`Game::play_checked`]; the harness adds what holds for every game: win
//! shares add up to one win (or none, where a unit may have no winner), scores sum to zero
//! where the game says they do, and every rate's count stays within its denominator.

use std::sync::atomic::AtomicBool;

use super::{Game, Kind, Lineup, Measures, Mode, Plan, SHARE_UNIT, SeatResult};
use crate::error::Error;

/// The first invariant a run broke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The unit's index in the run (`draftsim replay --round`).
    pub round: u64,
    /// What broke.
    pub message: String,
}

/// What `check` found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    /// Units played (rounds, or games in game mode).
    pub rounds: u64,
    /// Rounds played within them (equal to `rounds` outside game mode).
    pub length: u64,
    /// The first violation, if any.
    pub violation: Option<Violation>,
}

/// Plays the plan with invariants checked. A violation (or an illegal bot action) ends the
/// run and is reported with its round; other errors (an interrupt) are returned.
pub fn check<G: Game>(
    game: &G,
    lineup: &Lineup,
    plan: &Plan,
    interrupt: Option<&AtomicBool>,
    on_batch: impl FnMut(u64, &[super::RoundRow]) -> Result<(), Error>,
) -> Result<CheckReport, Error> {
    match super::run(game, lineup, plan, Mode::Checked, interrupt, on_batch) {
        Ok(tally) => Ok(CheckReport { rounds: tally.rounds, length: tally.length_sum, violation: None }),
        // A program seated outside that failed past its limit broke no rule of the game, and
        // replaying the round would not fail it again.
        Err(Error::AtRound { error, .. }) if matches!(*error, Error::Outside(_)) => Err(*error),
        Err(Error::AtRound { round, error }) => {
            let per = super::Seatings::new(lineup, game.players(), plan.rotate)?.len() as u64;
            // The rounds of the deals played before the one that failed, counted from the
            // run's first deal.
            let rounds = (round / per).saturating_sub(plan.first_deal) * per;
            Ok(CheckReport { rounds, length: rounds, violation: Some(Violation { round, message: error.to_string() }) })
        }
        Err(e) => Err(e),
    }
}

/// Tags an error with the round it happened in.
pub(super) fn at_round(e: Error, round: u64) -> Error {
    match e {
        Error::Interrupted | Error::AtRound { .. } => e,
        other => Error::AtRound { round, error: Box::new(other) },
    }
}

/// The invariants every game's outcome obeys.
pub(super) fn outcome(measures: &Measures, seats: &[SeatResult]) -> Result<(), Error> {
    let shares: u32 = seats.iter().map(|s| s.share_units).sum();
    let no_winner_allowed = shares == 0 && !measures.always_won;
    if shares != SHARE_UNIT && !no_winner_allowed {
        return Err(Error::Invariant(format!(
            "win shares add up to {:.4} wins, not {}",
            f64::from(shares) / f64::from(SHARE_UNIT),
            if measures.always_won { "1" } else { "1 or 0" }
        )));
    }
    if measures.score.zero_sum {
        let total: i64 = seats.iter().map(|s| s.score).sum();
        if total != 0 {
            return Err(Error::Invariant(format!(
                "{} does not sum to zero over the seats ({total:+})",
                measures.score.key
            )));
        }
    }
    for (s, seat) in seats.iter().enumerate() {
        if !measures.score.bounds.contains(seat.score as f64) {
            return Err(Error::Invariant(format!(
                "seat {s}: {} is {:+}, outside what the rules allow ({})",
                measures.score.key, seat.score, measures.score.bounds
            )));
        }
        for m in &measures.measures {
            if let Kind::Mean { slot } = m.kind
                && !m.bounds.contains(seat.sums[slot] as f64)
            {
                return Err(Error::Invariant(format!(
                    "seat {s}: {} is {}, outside what it can be ({})",
                    m.key, seat.sums[slot], m.bounds
                )));
            }
            // A sum over no counted rounds has nothing in it.
            if let Kind::MeanPer { slot, per } = m.kind
                && seat.counters[per] == 0
                && seat.sums[slot] != 0
            {
                return Err(Error::Invariant(format!(
                    "seat {s}: {} is {} over no counted rounds",
                    m.key, seat.sums[slot]
                )));
            }
            if let Kind::Rate { slot, per } = m.kind {
                let limit = per.map_or(seat.rounds, |p| seat.counters[p]);
                if seat.counters[slot] > limit {
                    return Err(Error::Invariant(format!(
                        "seat {s}: {} is {}, more than its denominator {limit}",
                        m.key, seat.counters[slot]
                    )));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Measure, Shown};

    /// Each declared measure's invariant catches a seat's record that breaks it, and a
    /// sound record passes.
    #[test]
    fn outcome_checks_each_measure_kind() {
        let measures = Measures::declaring(vec![
            Measure::rate_per(1, 0, "b", "b_share", Shown::Both, ""),
            Measure::mean(0, "c", "mean_c", Shown::Both, ""),
            Measure::mean_per(1, 0, "d", "d_per_a", Shown::Hidden, ""),
        ]);
        let seat = |a: u32, b: u32, c: i64, d: i64, share: u32| {
            let mut r = SeatResult { share_units: share, rounds: 1, ..SeatResult::default() };
            (r.counters[0], r.counters[1], r.sums[0], r.sums[1]) = (a, b, c, d);
            r
        };
        let pair = |one: SeatResult| outcome(&measures, &[one, seat(0, 0, 0, 0, 0)]);
        assert!(pair(seat(1, 1, 2, -3, SHARE_UNIT)).is_ok());
        let said = |r: Result<(), Error>| r.unwrap_err().to_string();
        assert!(said(pair(seat(1, 2, 0, 0, SHARE_UNIT))).contains("b is 2, more than its denominator 1"));
        assert!(said(pair(seat(0, 0, -1, 0, SHARE_UNIT))).contains("c is -1, outside what it can be"));
        assert!(said(pair(seat(0, 0, 0, 4, SHARE_UNIT))).contains("d is 4 over no counted rounds"));
    }
}
