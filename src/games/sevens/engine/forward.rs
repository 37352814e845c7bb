//! The forward model: each seat's observation, determinization, move keys and results.

use super::*;

impl State {
    /// This state with every card `seat` has not seen dealt again at random: the other
    /// seats' hands and traded-away cards and the undrawn pile, with a new chance stream.
    /// Made from the truth, not from an observation: the leak test's second state.
    pub fn redeal(&self, rules: &Rules, seat: usize, rng: &mut BotRng) -> State {
        let mut t = self.clone();
        let mut hidden = Vec::new();
        for s in (0..rules.players).filter(|&s| s != seat) {
            hidden.extend(t.hands[s].cards().iter().chain(t.gave[s].cards()).copied());
        }
        hidden.extend(t.pile.cards[t.pile.next..].iter().map(|&c| SevensCard(c)));
        rand::seq::SliceRandom::shuffle(&mut hidden[..], rng);
        let mut next = hidden.into_iter();
        for s in (0..rules.players).filter(|&s| s != seat) {
            let hand: Vec<SevensCard> = next.by_ref().take(3).collect();
            t.hands[s] = SevensHand::new(&hand);
            let gave: Vec<SevensCard> = next.by_ref().take(t.gave[s].cards().len()).collect();
            t.gave[s] = SevensHand::new(&gave);
        }
        let drawn: Vec<u8> = (0..rules.players)
            .flat_map(|s| t.hands[s].cards().iter().chain(t.gave[s].cards()).map(|c| c.0).collect::<Vec<_>>())
            .collect();
        let rest: Vec<u8> = next.map(|c| c.0).collect();
        for (slot, c) in t.pile.cards.iter_mut().zip(drawn.iter().chain(&rest)) {
            *slot = *c;
        }
        t.deal_seed = rng.next_u64();
        t.deal_rng = Xoshiro256PlusPlus::seed_from_u64(rng.next_u64());
        t
    }
}

impl Default for State {
    fn default() -> Self {
        State {
            public: Public::default(),
            pile: Pile { cards: [0; DECK_SIZE], next: 0, stacked: false },
            hands: [SevensHand::default(); MAX_SEATS],
            gave: [SevensHand::default(); MAX_SEATS],
            deal_rng: Xoshiro256PlusPlus::seed_from_u64(0),
            deal_seed: 0,
            verify: cfg!(debug_assertions),
        }
    }
}

impl Forward for State {
    crate::forward_steps!(variant: Rules, moves: Move, bot: SevensBot);

    #[inline(always)]
    fn to_act(&self) -> Option<usize> {
        match self.public.phase {
            Phase::Bet(s) | Phase::Trade(s) => Some(s as usize),
            Phase::Over => None,
        }
    }

    fn is_bet(&self, _rules: &Rules) -> bool {
        matches!(self.public.phase, Phase::Bet(_))
    }

    fn legal(&self, rules: &Rules, out: &mut Vec<Move>) {
        out.clear();
        match self.public.phase {
            Phase::Bet(s) => {
                let view = self.view(rules, s as usize, true);
                for a in [Action::Fold, Action::Check, Action::Call, Action::Raise] {
                    if view.allows(a) {
                        out.push(Move::Bet(a));
                    }
                }
            }
            Phase::Trade(_) => out.extend((0..8).map(Move::Trade)),
            Phase::Over => {}
        }
    }

    fn explain(&self, rules: &Rules, bot: &SevensBot) -> Option<String> {
        match self.public.phase {
            Phase::Bet(s) => bot.explain(&self.view(rules, usize::from(s), true), true),
            Phase::Trade(s) => bot.explain(&self.view(rules, usize::from(s), false), false),
            Phase::Over => None,
        }
    }

    fn observe(&self, _rules: &Rules, seat: usize, out: &mut Observation) {
        *out = Observation { seat, public: self.public, hand: self.hands[seat], gave: self.gave[seat] };
    }

    fn determinize(rules: &Rules, obs: &Observation, rng: &mut BotRng, out: &mut State) {
        let n = rules.players;
        let p = &obs.public;
        out.public = *p;
        out.verify = false;
        // Cards the observer has seen go first; the rest are shuffled among the other
        // seats' hands and trades and the pile.
        let mut seen = 0u64;
        let mut k = 0;
        for c in obs.hand.cards().iter().chain(obs.gave.cards()) {
            seen |= 1 << c.0;
            out.pile.cards[k] = c.0;
            k += 1;
        }
        for id in (0..DECK_SIZE as u8).filter(|id| seen >> id & 1 == 0) {
            out.pile.cards[k] = id;
            k += 1;
        }
        let mut at = obs.hand.cards().len() + obs.gave.cards().len();
        let own = at;
        // A partial shuffle of the unseen cards deals the other hands and their trades.
        let mut take = |out: &mut State, count: usize, rng: &mut BotRng| -> usize {
            let from = at;
            for i in at..at + count {
                let j = i + rng.random_range(0..DECK_SIZE - i);
                out.pile.cards.swap(i, j);
            }
            at += count;
            from
        };
        for s in 0..n {
            if s == obs.seat {
                out.hands[s] = obs.hand;
                out.gave[s] = obs.gave;
                continue;
            }
            let from = take(out, 3, rng);
            let cards = [0, 1, 2].map(|i| SevensCard(out.pile.cards[from + i]));
            out.hands[s] = SevensHand::new(&cards);
            let traded = usize::from(p.cards_traded[s]);
            let from = take(out, traded, rng);
            let cards = [0, 1, 2].map(|i| SevensCard(out.pile.cards[(from + i).min(DECK_SIZE - 1)]));
            out.gave[s] = SevensHand::new(&cards[..traded]);
        }
        debug_assert!(own <= at && at == p.drawn, "the determinized deal draws what was drawn");
        out.pile.next = p.drawn;
        out.pile.stacked = false;
        out.deal_seed = rng.next_u64();
        out.deal_rng = Xoshiro256PlusPlus::seed_from_u64(rng.next_u64());
    }

    const REWINDS: bool = true;

    fn rewind(&self, rules: &Rules, start: &mut State, moves: &mut Vec<Move>) -> bool {
        let (p, n) = (&self.public, rules.players);
        if p.phase == Phase::Over || usize::from(p.logged) > HAND_LOG {
            return false;
        }
        let log = &p.log[..usize::from(p.logged)];
        // Each seat's cards as the hand began. Where a trade drew, the replay puts its draws
        // in the hand's first places: the cards a seat gave up held them. (A sampled world
        // does not say which places a trade filled; its cards lie in random order, so any
        // places will do, and the replay still ends on this very hand.)
        let mut first = self.hands;
        for (hand, gave) in first[..n].iter_mut().zip(&self.gave) {
            for (i, &c) in gave.cards().iter().enumerate() {
                hand.replace(i, c);
            }
        }
        // The pile in the order the replay draws it: the deal, one card a seat at a time
        // from the dealer's left, then each trade's draws in turn, then the undrawn rest.
        let mut order = [0u8; DECK_SIZE];
        let mut at = 0;
        for r in 0..3 {
            for k in 1..=n {
                order[at] = first[k % n].cards()[r].0;
                at += 1;
            }
        }
        for &e in log.iter().filter(|&&e| e & 0xF >= 8) {
            for c in &self.hands[usize::from(e >> 4)].cards()[..usize::from((e & 0xF) - 8)] {
                order[at] = c.0;
                at += 1;
            }
        }
        if at != self.pile.next {
            return false;
        }
        order[at..].copy_from_slice(&self.pile.cards[at..]);
        start.clone_from(self);
        for s in 0..n {
            start.public.put_in[s] -= p.street[s] + rules.ante;
        }
        start.pile.cards = order;
        start.pile.stacked = true;
        start.start_hand(rules, &mut NoEvents);
        // The first turn, as `advance` opens a hand nobody has folded in.
        start.public.phase = Phase::Bet((1 % n) as u8);
        start.public.next_seat = 2 % n;
        moves.clear();
        moves.extend(log.iter().map(|&e| match e & 0xF {
            code @ 1..=4 => {
                Move::Bet([Action::Fold, Action::Check, Action::Call, Action::Raise][usize::from(code - 1)])
            }
            code => Move::Trade((1u8 << (code - 8)) - 1),
        }));
        true
    }

    fn key(&self, _rules: &Rules, actor: usize, observer: usize, m: Move) -> u32 {
        match m {
            Move::Bet(a) => a as u32,
            Move::Trade(mask) if actor == observer => 0x10 | u32::from(mask & 0b111),
            Move::Trade(mask) => 0x20 | (mask & 0b111).count_ones().min(self.pile.left() as u32),
        }
    }

    fn observation_json(_rules: &Rules, obs: &Observation) -> serde_json::Value {
        let p = &obs.public;
        let n = p.players;
        let names = |h: &SevensHand| h.cards().iter().map(|c| c.to_string()).collect::<Vec<_>>();
        serde_json::json!({
            "seat": obs.seat,
            "hand": names(&obs.hand),
            "total": obs.hand.total(),
            "traded_away": names(&obs.gave),
            "hand_no": p.hand_no,
            "pot": p.pot,
            "carried": p.carried,
            "to_match": p.current,
            "raises": p.raises,
            "street": &p.street[..n],
            "put_in": &p.put_in[..n],
            "folded": &p.folded[..n],
            "traded": &p.traded[..n],
            "cards_traded": &p.cards_traded[..n],
            "turns": &p.turns[..n],
            "cards_drawn": p.drawn,
        })
    }

    /// Betting decisions only, bucketed (the abstraction a trained policy plays; trades have
    /// no key and are left to the policy's fallback preset): see [`betting_key`].
    fn info_key(rules: &Rules, obs: &Observation) -> Option<u64> {
        betting_key(rules, obs)
    }

    fn describe(&self, _rules: &Rules, m: Move, observer: usize) -> String {
        let own = self.to_act() == Some(observer);
        match m {
            Move::Bet(a) => a.to_string(),
            Move::Trade(0) => "keep all three cards".into(),
            // The others see how many cards are drawn (no more than the pile holds).
            Move::Trade(mask) if !own => {
                let n = (mask & 0b111).count_ones().min(self.pile.left() as u32);
                format!("trade {n} card{}", if n == 1 { "" } else { "s" })
            }
            Move::Trade(mask) => {
                let hand = self.to_act().map(|s| self.hands[s]).unwrap_or_default();
                let cards: Vec<String> = (hand.cards().iter().enumerate())
                    .filter(|(i, _)| mask >> i & 1 == 1)
                    .map(|(_, c)| c.to_string())
                    .collect();
                format!("trade {}", cards.join(" "))
            }
        }
    }

    fn returns(&self, rules: &Rules, out: &RoundResult, seat: usize) -> f64 {
        // Net chips scaled by the largest pot one hand can reach.
        let stake = rules.ante + rules.raise_cap * rules.raise_size;
        let span = (rules.players as u32 * stake).max(1) as f64;
        (0.5 + out.seats[seat].score as f64 / (2.0 * span)).clamp(0.0, 1.0)
    }
}

/// Buckets of the share estimate in a betting key.
pub const SHARE_BUCKETS: u32 = 20;

/// The abstraction of a betting decision, built from the seat's observation alone: its
/// expected share of the pot as the `threshold` bets read it (from its cards, its trade to
/// come and what the others drew), in twentieths; its turn (first, second, later); whether
/// it has traded; the raises so far (0 to 3 and more); whether it faces a raise; whether it
/// may raise; the opponents still in (1 to 3 and more) and the seats still to act after it
/// (0 to 2 and more). Two decisions with one key have the same menu. `None` at a trade.
pub fn betting_key(rules: &Rules, obs: &Observation) -> Option<u64> {
    let p = &obs.public;
    if p.phase != Phase::Bet(obs.seat as u8) {
        return None;
    }
    let view = obs.view(rules);
    let share = crate::games::sevens::bots::strength(&view);
    let bucket = ((share.clamp(0.0, 1.0) * SHARE_BUCKETS as f32) as u32).min(SHARE_BUCKETS - 1);
    let opponents = p.active.saturating_sub(1).clamp(1, 3) as u64;
    let after = p.pending.saturating_sub(1).min(2) as u64;
    let fields = [
        (u64::from(bucket), 5),
        (view.turn.min(2) as u64, 2),
        (u64::from(view.traded), 1),
        (u64::from(p.raises.min(3)), 2),
        (u64::from(view.to_call > 0), 1),
        (u64::from(view.can_raise), 1),
        (opponents, 2),
        (after, 2),
    ];
    Some(fields.iter().fold(0, |key, &(v, bits)| (key << bits) | v))
}

impl Observation {
    /// The seat's typed view, as a heuristic bot gets it, made from the observation alone
    /// (with its betting facts at its own bet).
    pub fn view<'a>(&'a self, rules: &'a Rules) -> SeatView<'a> {
        let p = &self.public;
        p.view(rules, self.seat, self.hand, p.phase == Phase::Bet(self.seat as u8))
    }
}

impl Public {
    /// What seat `s`, holding `hand`, sees: everything else in its view is public.
    /// `betting` for a bet (a trade sees no call or raise).
    #[inline]
    pub fn view<'a>(&'a self, rules: &'a Rules, s: usize, hand: SevensHand, betting: bool) -> SeatView<'a> {
        let n = rules.players;
        SeatView {
            rules,
            seat: s,
            hand,
            traded: self.traded[s],
            cards_traded: &self.cards_traded[..n],
            trade_used: &self.traded[..n],
            folded: &self.folded[..n],
            pot: self.pot,
            to_call: if betting { self.current - self.street[s] } else { 0 },
            can_raise: betting && self.raises < rules.raise_cap,
            raised: self.raises > 0,
            turn: self.turns[s],
            deck_left: DECK_SIZE - self.drawn,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The view a betting key reads, made from the observation, is the view the seat's
    /// heuristic bot gets from the state.
    #[test]
    fn the_observations_view_is_the_bots_view() {
        let (rules, points) = crate::games::contest::default_points::<crate::games::sevens::Def>(7, 300, 1);
        let mut obs = Observation::default();
        let mut bets = 0;
        for state in &points {
            let Phase::Bet(s) = state.public.phase else { continue };
            state.observe(&rules, s as usize, &mut obs);
            assert_eq!(format!("{:?}", obs.view(&rules)), format!("{:?}", state.view(&rules, s as usize, true)));
            assert!(betting_key(&rules, &obs).is_some());
            bets += 1;
        }
        assert!(bets > 50, "{bets}");
    }
}
