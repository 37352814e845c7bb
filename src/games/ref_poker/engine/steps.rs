//! The rules' steps: antes, actions, the end of a round, the showdown.

use super::*;

impl<F: Flavour> State<F> {
    /// Antes and opens the first round (the cards are dealt).
    pub(super) fn open<S: Sink>(&mut self, rules: &Rules<F>, sink: &mut S) {
        let n = rules.players;
        let p = &mut self.public;
        *p = Public { players: n, to_act: Some(0), active: n, stakes: rules.ante, ..Public::default() };
        for s in 0..n {
            p.put_in[s] = rules.ante;
            p.pot += rules.ante;
            sink.event(Event::Deal { seat: s, card: self.cards[s] });
        }
    }

    /// Applies the seat to act's action, then moves to the next decision or the end.
    pub fn step<S: Sink>(
        &mut self,
        rules: &Rules<F>,
        action: Action,
        sink: &mut S,
        out: &mut RoundResult,
    ) -> Result<(), Error> {
        let Some(seat) = self.public.to_act.map(usize::from) else {
            return Err(Error::Invariant("a move after the unit ended".into()));
        };
        let p = &mut self.public;
        let to_call = p.stakes - p.put_in[seat];
        let legal = match action {
            Action::Fold => to_call > 0,
            Action::Call => true,
            Action::Raise => p.raises < rules.max_raises,
        };
        if !legal {
            return Err(Error::Invariant(format!("seat {seat} may not {action} now")));
        }
        let mut paid = 0;
        match action {
            Action::Fold => {
                p.folded[seat] = true;
                p.active -= 1;
                out.seats[seat].count(FOLDS);
            }
            Action::Call => {
                paid = to_call;
                p.calls += 1;
            }
            Action::Raise => {
                paid = to_call + rules.raise_sizes[usize::from(p.round)];
                p.stakes += rules.raise_sizes[usize::from(p.round)];
                p.raises += 1;
                p.calls = 0;
                out.seats[seat].sums[RAISES] += 1;
            }
        }
        p.put_in[seat] += paid;
        p.pot += paid;
        p.history[usize::from(p.len)] = 1 + Action::ALL.iter().position(|a| *a == action).unwrap_or(0) as u8;
        p.len += 1;
        sink.event(Event::Act { seat, action, paid });
        let ready =
            (p.raises == 0 && p.calls as usize == p.active) || (p.raises > 0 && p.calls as usize + 1 == p.active);
        if p.active == 1 || (ready && usize::from(p.round) + 1 == usize::from(rules.rounds)) {
            self.settle(rules, sink, out);
        } else if ready {
            p.round += 1;
            p.raises = 0;
            p.calls = 0;
            p.board = Some(self.board);
            p.history[usize::from(p.len)] = 0;
            p.len += 1;
            sink.event(Event::Board { card: self.board });
            p.to_act = next_in(p, 0);
        } else {
            p.to_act = next_in(p, seat + 1);
        }
        if self.verify {
            self.check(rules)?;
        }
        Ok(())
    }

    /// A hand's showdown rank (higher wins): a pair with the public card above every
    /// unpaired hand, then the higher card, then the other.
    pub fn hand_rank(&self, rules: &Rules<F>, seat: usize) -> u32 {
        let r = u32::from(rank(rules, self.cards[seat]));
        let n = u32::from(rules.ranks);
        match self.public.board {
            None => r,
            Some(b) => {
                let b = u32::from(rank(rules, b));
                if b == r { n * n + r } else { r.max(b) * n + r.min(b) }
            }
        }
    }

    /// Ends the unit: the last seat in takes the pot, or the best hands at the showdown
    /// share it.
    fn settle<S: Sink>(&mut self, rules: &Rules<F>, sink: &mut S, out: &mut RoundResult) {
        let n = rules.players;
        let in_hand = |s: &usize| !self.public.folded[*s];
        let showdown = self.public.active > 1;
        let best = (0..n).filter(in_hand).map(|s| self.hand_rank(rules, s)).max().unwrap_or(0);
        let wins = |s: usize| in_hand(&s) && (!showdown || self.hand_rank(rules, s) == best);
        let winners = (0..n).filter(|&s| wins(s)).count();
        let pot = self.public.pot;
        let each = pot / winners as u32;
        let odd = pot as usize % winners;
        for s in (0..n).filter(in_hand) {
            if showdown {
                out.seats[s].count(SHOWDOWNS);
                sink.event(Event::Show { seat: s, card: self.cards[s] });
            }
        }
        for s in 0..n {
            out.seats[s].score = -i64::from(self.public.put_in[s]);
        }
        for (k, s) in (0..n).filter(|&s| wins(s)).enumerate() {
            let won = each + u32::from(k < odd);
            out.seats[s].score += i64::from(won);
            out.seats[s].share_units = share(winners);
            if showdown {
                out.seats[s].count(SHOWDOWN_WINS);
            }
            sink.event(Event::Award { seat: s, chips: won, among: winners as u8 });
        }
        self.public.to_act = None;
    }

    /// The invariants: chips are conserved, every seat still in has put in the stakes when
    /// the unit ends, and the pot is what was put in.
    pub fn check(&self, rules: &Rules<F>) -> Result<(), Error> {
        let p = &self.public;
        let put: u32 = p.put_in[..rules.players].iter().sum();
        if put != p.pot {
            return Err(Error::Invariant(format!("pot {} but {put} put in", p.pot)));
        }
        if p.active != (0..rules.players).filter(|&s| !p.folded[s]).count() || p.active == 0 {
            return Err(Error::Invariant("the count of seats still in is wrong".into()));
        }
        if p.raises > rules.max_raises {
            return Err(Error::Invariant(format!("{} raises in a round", p.raises)));
        }
        let mut seen = 0u64;
        for &c in self.cards[..rules.players].iter().chain((rules.rounds == 2).then_some(&self.board)) {
            if usize::from(c) >= rules.deck() || seen >> c & 1 == 1 {
                return Err(Error::Invariant(format!("card {c} dealt twice or not in the deck")));
            }
            seen |= 1 << c;
        }
        Ok(())
    }
}

/// The first seat still in from `from` on, round the table.
fn next_in(p: &Public, from: usize) -> Option<u8> {
    let n = p.players;
    (0..n).map(|k| (from + k) % n).find(|&s| !p.folded[s]).map(|s| s as u8)
}
