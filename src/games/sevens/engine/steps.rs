//! The rules' steps: the deal, betting, trades, settling and carry-over, and the heuristic bots' driver.

use super::*;

impl State {
    /// A table that checks the invariants after every hand, in any build.
    pub fn verified() -> State {
        State { verify: true, ..State::default() }
    }

    /// The public part of the state.
    pub fn public(&self) -> &Public {
        &self.public
    }

    /// Seat `s`'s cards.
    pub fn hand(&self, s: usize) -> SevensHand {
        self.hands[s]
    }

    /// Checks that every card is in one place: the pile is a permutation of the deck, and
    /// the hands hold distinct cards already drawn from it.
    #[cold]
    #[inline(never)]
    pub(super) fn check(&self, rules: &Rules) -> Result<(), Error> {
        let broken = |what: String| Err(Error::Invariant(what));
        let mut place = [0u8; DECK_SIZE];
        for &c in &self.pile.cards {
            if usize::from(c) >= DECK_SIZE || std::mem::replace(&mut place[usize::from(c)], 1) != 0 {
                return broken(format!("card {c} is in the pile twice"));
            }
        }
        let drawn = &self.pile.cards[..self.pile.next];
        for s in 0..rules.players {
            for card in self.hands[s].cards() {
                if !drawn.contains(&card.0) {
                    return broken(format!("seat {s} holds card {} that was never drawn", card.0));
                }
                if std::mem::replace(&mut place[usize::from(card.0)], 2) == 2 {
                    return broken(format!("card {} is in two hands", card.0));
                }
            }
        }
        Ok(())
    }

    /// Starts a unit with this deal seed: antes, the first hand's deal, up to the first
    /// decision (the deal's index changes nothing here).
    pub fn reset(&mut self, rules: &Rules, deal: Deal, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        self.public.players = rules.players;
        self.public.put_in = [0; MAX_SEATS];
        self.public.hand_no = 0;
        self.public.carried = 0;
        self.deal_seed = deal.seed;
        self.deal_rng = Xoshiro256PlusPlus::seed_from_u64(deal.seed);
        self.start_hand(rules, sink);
        // A unit may not need a decision when the deal decides it (one player left).
        self.advance(rules, sink, out)
    }

    /// Antes and deals a hand (one card at a time from the dealer's left).
    #[inline(always)]
    pub(super) fn start_hand(&mut self, rules: &Rules, sink: &mut impl Sink) {
        let n = rules.players;
        let p = &mut self.public;
        sink.event(Event::HandStart { hand: p.hand_no, carried: p.carried });
        self.pile.reset();
        p.pot = p.carried;
        p.logged = 0;
        for s in 0..n {
            p.folded[s] = false;
            p.traded[s] = false;
            p.cards_traded[s] = 0;
            p.turns[s] = 0;
            p.street[s] = 0;
            p.put_in[s] += rules.ante;
            p.pot += rules.ante;
            self.gave[s] = SevensHand::default();
        }
        let mut cards = [[SevensCard(0); 3]; MAX_SEATS];
        for (round, k) in (0..3).flat_map(|r| (1..=n).map(move |k| (r, k))) {
            let s = k % n;
            cards[s][round] = self.pile.draw(&mut self.deal_rng).expect("36 cards cover every deal");
        }
        for (s, dealt) in cards[..n].iter().enumerate() {
            self.hands[s] = SevensHand::new(dealt);
            sink.event(Event::Deal { seat: s, hand: self.hands[s] });
        }
        p.current = 0;
        p.raises = 0;
        p.pending = n;
        p.next_seat = 1 % n;
        p.active = n;
        p.drawn = self.pile.next;
    }

    /// Moves on to the next decision: the next seat still in, or the end of the hand
    /// (settling it, then the next hand of a carry-over or the end of the unit).
    #[inline(always)]
    pub(super) fn advance(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        let n = rules.players;
        loop {
            let p = &mut self.public;
            if p.pending > 0 && p.active > 1 {
                let s = p.next_seat;
                p.next_seat = (s + 1) % n;
                if !p.folded[s] {
                    p.phase = Phase::Bet(s as u8);
                    return Ok(());
                }
                continue;
            }
            p.hand_no += 1;
            let pot = p.pot;
            let nobody_qualified = settle(rules, self, pot, sink, out);
            if self.verify {
                self.check(rules)?;
            }
            let p = &mut self.public;
            match nobody_qualified && rules.all_over == AllOver::CarryOver {
                true if p.hand_no < rules.max_carry_hands => {
                    p.carried = pot;
                    let hand_seed = mix_seed(self.deal_seed, u64::from(p.hand_no), HAND_STREAM);
                    self.deal_rng = Xoshiro256PlusPlus::seed_from_u64(hand_seed);
                    self.start_hand(rules, sink);
                    continue;
                }
                true => {
                    // The carry limit is reached: every stake goes back.
                    for s in 0..n {
                        sink.event(Event::Refund { seat: s, chips: p.put_in[s] });
                        p.put_in[s] = 0;
                    }
                }
                false => {}
            }
            return self.finish(rules, out);
        }
    }

    /// Ends the unit: stakes come off the scores.
    pub(super) fn finish(&mut self, rules: &Rules, out: &mut RoundResult) -> Result<(), Error> {
        let n = rules.players;
        let p = &mut self.public;
        p.phase = Phase::Over;
        for s in 0..n {
            out.seats[s].score -= p.put_in[s] as i64;
            out.seats[s].rounds = p.hand_no;
        }
        out.length = p.hand_no;
        if self.verify {
            let total: i64 = out.seats[..n].iter().map(|r| r.score).sum();
            if total != 0 {
                return Err(Error::Invariant(format!("chips not conserved over the unit: seats net {total:+}")));
            }
        }
        Ok(())
    }

    /// What seat `s` sees now; `betting` for a bet (a trade sees no call or raise).
    pub(super) fn view<'a>(&'a self, rules: &'a Rules, s: usize, betting: bool) -> SeatView<'a> {
        self.public.view(rules, s, self.hands[s], betting)
    }

    /// Asks `bot` for the seat to move's decision, from its view.
    #[inline(always)]
    pub fn ask_bot<B: Bot + ?Sized>(&self, rules: &Rules, bot: &mut B, rng: &mut BotRng) -> Result<Move, Error> {
        match self.public.phase {
            Phase::Bet(s) => {
                let view = self.view(rules, s as usize, true);
                let action = bot.act(&view, rng);
                if !view.allows(action) {
                    return Err(Error::IllegalAction {
                        bot: bot.name().to_string(),
                        seat: s as usize,
                        action: format!("{action} (to call {}, raises so far {})", view.to_call, self.public.raises),
                    });
                }
                Ok(Move::Bet(action))
            }
            Phase::Trade(s) => Ok(Move::Trade(bot.trade(&self.view(rules, s as usize, false), rng) & 0b111)),
            Phase::Over => Err(Error::Invariant("a bot was asked to move after the unit ended".into())),
        }
    }

    /// Applies the seat to move's decision, then moves on to the next one.
    #[inline(always)]
    pub fn step(&mut self, rules: &Rules, m: Move, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        match (self.public.phase, m) {
            (Phase::Bet(s), Move::Bet(action)) => {
                if self.bet(rules, s as usize, action, sink, out) {
                    return Ok(());
                }
            }
            (Phase::Trade(s), Move::Trade(mask)) => self.trade(rules, s as usize, mask & 0b111, sink, out)?,
            (phase, m) => return Err(Error::Invariant(format!("move {m:?} does not fit phase {phase:?}"))),
        }
        self.advance(rules, sink, out)
    }

    /// A bet; returns whether the same seat trades next.
    #[inline(always)]
    pub(super) fn bet(
        &mut self,
        rules: &Rules,
        s: usize,
        action: Action,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> bool {
        let p = &mut self.public;
        let to_call = p.current - p.street[s];
        // A cap away from the default counts from the smaller cap on, where a raise is
        // allowed under one and not the other.
        if rules.raise_cap != DEFAULT_RAISE_CAP && p.raises >= rules.raise_cap.min(DEFAULT_RAISE_CAP) {
            out.rules_used |= 1 << RAISE_CAP_USED;
        }
        let paid = match action {
            Action::Fold => {
                p.folded[s] = true;
                out.seats[s].count(if p.turns[s] > 0 { FOLDS_LATER } else { FOLDS_FIRST });
                p.active -= 1;
                p.pending -= 1;
                0
            }
            Action::Check => {
                p.pending -= 1;
                0
            }
            Action::Call => {
                p.pending -= 1;
                to_call
            }
            Action::Raise => {
                p.raises += 1;
                p.current += rules.raise_size;
                p.pending = p.active - 1;
                to_call + rules.raise_size
            }
        };
        p.street[s] += paid;
        p.put_in[s] += paid;
        p.pot += paid;
        sink.event(Event::Act { seat: s, action, paid });
        p.record(s, 1 + action as u8);
        p.turns[s] += 1;
        let may_trade = !p.traded[s] && (p.turns[s] == 1 || rules.trade_timing == TradeTiming::AnyTurn);
        if !p.folded[s] && may_trade && self.pile.left() > 0 {
            p.phase = Phase::Trade(s as u8);
            return true;
        }
        false
    }

    /// A trade: the masked cards go, as many as the pile holds are drawn.
    #[inline(always)]
    pub(super) fn trade(
        &mut self,
        rules: &Rules,
        s: usize,
        mask: TradeMask,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Step {
        let p = &mut self.public;
        if mask != 0 || rules.trade_timing == TradeTiming::FirstTurn {
            p.traded[s] = true;
        }
        let (mut gave, mut drew) = ([SevensCard(0); 3], [SevensCard(0); 3]);
        let mut k = 0;
        for i in (0..3).filter(|i| mask >> i & 1 == 1) {
            let Some(card) = self.pile.draw(&mut self.deal_rng) else { break };
            gave[k] = self.hands[s].cards()[i];
            drew[k] = card;
            self.hands[s].replace(i, card);
            k += 1;
        }
        p.drawn = self.pile.next;
        p.record(s, 8 + k as u8);
        if self.verify && mask != 0 && k == 0 && self.pile.left() > 0 {
            return Err(Error::Invariant(format!("seat {s} asked to trade but drew nothing")));
        }
        if k > 0 {
            p.cards_traded[s] = k as u8;
            self.gave[s] = SevensHand::new(&gave[..k]);
            out.seats[s].sums[CARDS_TRADED] += k as i64;
            sink.event(Event::Trade { seat: s, gave: self.gave[s], drew: SevensHand::new(&drew[..k]) });
        } else {
            sink.event(Event::Keep { seat: s, pile_empty: mask != 0 });
        }
        Ok(())
    }
}

/// Reveals and pays out one hand's pot; returns whether nobody qualified.
pub(super) fn settle(rules: &Rules, t: &mut State, pot: u32, sink: &mut impl Sink, out: &mut RoundResult) -> bool {
    let n = rules.players;
    let p = &mut t.public;
    let hands = &t.hands;
    let folded = p.folded;
    let live = |s: &usize| !folded[*s];
    let order = |k: usize| (k + 1) % n; // reveal and odd chips from the dealer's left
    if (0..n).filter(live).count() == 1 {
        let s = (0..n).find(live).expect("one seat left");
        sink.event(Event::LastStanding { seat: s });
        sink.event(Event::Award { seat: s, chips: pot });
        out.seats[s].score += pot as i64;
        out.seats[s].share_units = SHARE_UNIT;
        return false;
    }
    for s in (0..n).map(order).filter(|s| live(s)) {
        sink.event(Event::Reveal { seat: s, hand: hands[s] });
        out.seats[s].count(SHOWDOWNS);
        out.seats[s].observe(REVEALED, usize::from(hands[s].total() - 3));
    }
    let qualifies = |s: &usize| live(s) && hands[*s].total() <= 7;
    let mut count_all = |slot: usize| out.seats[..n].iter_mut().for_each(|r| r.count(slot));
    // Rank the contenders: (qualifying total, suit run); lowest-wins ranks by lowness.
    let key = |s: usize| -> (i32, u8) {
        let total = hands[s].total() as i32;
        if qualifies(&s) { (total, hands[s].suit_run()) } else { (-total, hands[s].suit_run()) }
    };
    let contenders: u32 = if (0..n).any(|s| qualifies(&s)) {
        (0..n).filter(qualifies).fold(0, |m, s| m | 1 << s)
    } else {
        count_all(NOBODY_QUALIFIES);
        sink.event(Event::NobodyQualifies);
        match rules.all_over {
            AllOver::Refund => {
                // Players still in take their stakes back and share what the folded forfeited.
                let stakes: u32 = (0..n).filter(live).map(|s| p.street[s] + rules.ante).sum();
                let forfeited = pot - stakes;
                let k = (0..n).filter(live).count() as u32;
                for (i, s) in (0..n).map(order).filter(|s| live(s)).enumerate() {
                    let back = p.street[s] + rules.ante;
                    let share = forfeited / k + u32::from((i as u32) < forfeited % k);
                    p.put_in[s] -= back;
                    sink.event(Event::Refund { seat: s, chips: back });
                    if share > 0 {
                        out.seats[s].score += i64::from(share);
                        sink.event(Event::Forfeit { seat: s, chips: share });
                    }
                }
                return true;
            }
            AllOver::CarryOver => return true,
            AllOver::LowestWins => (0..n).filter(live).fold(0, |m, s| m | 1 << s),
        }
    };
    // Bit masks of seats, so the hot path does not allocate.
    let in_it = |s: usize| contenders >> s & 1 == 1;
    let best_total = (0..n).filter(|&s| in_it(s)).map(|s| key(s).0).max().expect("a contender");
    let at_total: u32 = (0..n).filter(|&s| in_it(s) && key(s).0 == best_total).fold(0, |m, s| m | 1 << s);
    let best_run = (0..n).filter(|&s| at_total >> s & 1 == 1).map(|s| key(s).1).max().expect("a contender");
    let winners: u32 = (0..n).filter(|&s| at_total >> s & 1 == 1 && key(s).1 == best_run).fold(0, |m, s| m | 1 << s);
    if at_total.count_ones() > 1 && winners != at_total {
        count_all(SUIT_TIEBREAK);
    }
    if winners.count_ones() > 1 {
        count_all(SPLIT);
    }
    let k = winners.count_ones();
    for (i, s) in (0..n).map(order).filter(|&s| winners >> s & 1 == 1).enumerate() {
        let chips = pot / k + u32::from((i as u32) < pot % k);
        let r = &mut out.seats[s];
        r.score += chips as i64;
        r.share_units = SHARE_UNIT / k;
        r.count(SHOWDOWN_WINS);
        r.observe(WINNING, usize::from(hands[s].total() - 3));
        sink.event(Event::Award { seat: s, chips });
    }
    false
}
