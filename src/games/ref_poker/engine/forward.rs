//! The forward model: each seat's observation, its information key, determinization, and
//! the deals the solver walks.

use rand::RngCore;

use super::*;

/// What one seat has seen: the public betting and its own card.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Observation {
    /// The seat.
    pub seat: usize,
    /// Its card.
    pub card: u8,
    /// Everything public.
    pub public: Public,
}

impl Observation {
    /// The information key: the seat, its card, the public card once turned and every
    /// action so far, packed two bits an action. Two decisions share a key exactly when
    /// the seat cannot tell them apart (OpenSpiel's information state).
    pub fn key(&self) -> u64 {
        let p = &self.public;
        let mut k: u64 = 1;
        k = k << 2 | self.seat as u64;
        k = k << 6 | u64::from(self.card);
        k = k << 6 | p.board.map_or(63, u64::from);
        for &a in &p.history[..usize::from(p.len)] {
            k = k << 2 | u64::from(a);
        }
        k
    }
}

impl<F: Flavour> State<F> {
    /// This state with every card `seat` has not seen dealt again at random (the leak
    /// test's state made from the truth).
    pub fn redeal(&self, rules: &Rules<F>, seat: usize, rng: &mut BotRng) -> State<F> {
        let mut obs = Observation::default();
        self.observe(seat, &mut obs);
        let mut t = State::default();
        <State<F> as Forward>::determinize(rules, &obs, rng, &mut t);
        t.verify = self.verify;
        t
    }

    fn observe(&self, seat: usize, out: &mut Observation) {
        *out = Observation { seat, card: self.cards[seat], public: self.public };
    }
}

impl<F: Flavour> Forward for State<F> {
    crate::forward_steps!(variant: Rules<F>, moves: Action, bot: PokerBot);

    fn to_act(&self) -> Option<usize> {
        self.public.to_act.map(usize::from)
    }

    fn legal(&self, rules: &Rules<F>, out: &mut Vec<Action>) {
        out.clear();
        if let Some(s) = self.public.to_act {
            let view = self.view(rules, usize::from(s));
            out.extend(Action::ALL.into_iter().filter(|a| view.allows(*a)));
        }
    }

    fn explain(&self, rules: &Rules<F>, bot: &PokerBot) -> Option<String> {
        bot.explain(&self.view(rules, usize::from(self.public.to_act?)))
    }

    fn observe(&self, _rules: &Rules<F>, seat: usize, out: &mut Observation) {
        State::observe(self, seat, out);
    }

    fn determinize(rules: &Rules<F>, obs: &Observation, rng: &mut BotRng, out: &mut State<F>) {
        out.public = obs.public;
        out.verify = false;
        // The cards the observer has not seen, dealt at random to the other seats and,
        // while it is face down, the public card.
        let mut unseen = [0u8; 52];
        let mut left = 0;
        for c in (0..rules.deck() as u8).filter(|&c| c != obs.card && obs.public.board != Some(c)) {
            unseen[left] = c;
            left += 1;
        }
        let mut draw = |rng: &mut BotRng| {
            let i = (rng.next_u64() % left as u64) as usize;
            left -= 1;
            unseen.swap(i, left);
            unseen[left]
        };
        for s in 0..rules.players {
            out.cards[s] = if s == obs.seat { obs.card } else { draw(rng) };
        }
        out.board = match obs.public.board {
            Some(b) => b,
            None if rules.rounds == 2 => draw(rng),
            None => 0,
        };
    }

    const REWINDS: bool = true;

    fn rewind(&self, rules: &Rules<F>, start: &mut State<F>, moves: &mut Vec<Action>) -> bool {
        // Every card is fixed at the start and every action is public: the same cards,
        // opened again, and the history's actions replay this state.
        start.clone_from(self);
        start.open(rules, &mut crate::sim::NoEvents);
        moves.clear();
        let p = &self.public;
        moves.extend(
            p.history[..usize::from(p.len)].iter().filter(|&&a| a > 0).map(|&a| Action::ALL[usize::from(a) - 1]),
        );
        true
    }

    fn key(&self, _rules: &Rules<F>, _actor: usize, _observer: usize, m: Action) -> u32 {
        // Every action is public.
        m as u32
    }

    fn returns(&self, rules: &Rules<F>, out: &RoundResult, seat: usize) -> f64 {
        // Net chips scaled by the most one seat can put in.
        let span = (rules.players as u32 * rules.most_staked()).max(1) as f64;
        (0.5 + out.seats[seat].score as f64 / (2.0 * span)).clamp(0.0, 1.0)
    }

    fn observation_json(rules: &Rules<F>, obs: &Observation) -> serde_json::Value {
        let p = &obs.public;
        let n = p.players;
        // A call with no raise to match in its round is a check, and a raise a bet, as
        // `describe` and the move menus say; a round's end is the board card it turned.
        let mut facing = false;
        let history: Vec<String> = (p.history[..usize::from(p.len)].iter())
            .map(|&a| match a {
                0 => {
                    facing = false;
                    p.board.map_or_else(|| "round ends".to_string(), |c| format!("board {}", card_text(rules, c)))
                }
                1 => "fold".into(),
                2 if facing => "call".into(),
                2 => "check".into(),
                _ => {
                    let word = if facing { "raise" } else { "bet" };
                    facing = true;
                    word.into()
                }
            })
            .collect();
        serde_json::json!({
            "seat": obs.seat,
            "card": card_text(rules, obs.card),
            "board": p.board.map(|c| card_text(rules, c)),
            "round": p.round,
            "pot": p.pot,
            "stakes": p.stakes,
            "put_in": &p.put_in[..n],
            "folded": &p.folded[..n],
            "raises": p.raises,
            "history": history,
        })
    }

    fn describe(&self, _rules: &Rules<F>, m: Action, _observer: usize) -> String {
        // Every action is public. With no bet to match, a call is a check and a raise a bet,
        // as the account tells them.
        let facing = self.public.to_act.is_some_and(|s| self.public.put_in[usize::from(s)] < self.public.stakes);
        match m {
            Action::Call if !facing => "check".into(),
            Action::Raise if !facing => "bet".into(),
            other => other.to_string(),
        }
    }

    fn info_key(_rules: &Rules<F>, obs: &Observation) -> Option<u64> {
        Some(obs.key())
    }

    fn deal_count(rules: &Rules<F>) -> Option<u64> {
        Some(deal_count(rules))
    }

    fn start_deal(&mut self, rules: &Rules<F>, index: u64, _out: &mut RoundResult) -> Result<(), Error> {
        self.reset_to(rules, index);
        Ok(())
    }
}
