//! The rules' steps: deals, picks and passing, betting rounds, showdown and settling, and the heuristic bots' driver.

use super::*;

impl State {
    /// A table for this variant.
    pub fn new(variant: &Variant) -> State {
        State { deck_buf: variant.deck_cards.clone(), ..State::default() }
    }

    /// Checks the invariants (chips conserved, every card in one place) after every step,
    /// returning [`Error::Invariant`] on a violation; on by default in debug builds.
    pub fn verify(mut self, on: bool) -> State {
        self.verify = on;
        self
    }

    /// The picks each seat made in the last round played.
    pub fn picks(&self, seat: usize) -> &[PickRecord] {
        &self.picks[seat][..self.public.pick]
    }

    /// The public part of the state.
    pub fn public(&self) -> &Public {
        &self.public
    }

    /// Seat `s`'s hand.
    pub fn hand(&self, s: usize) -> CardSet {
        self.hands[s]
    }

    pub(super) fn view<'a>(&'a self, variant: &'a Variant, seat: usize, betting: Option<BetOptions>) -> SeatView<'a> {
        let own = Own {
            hand: self.hands[seat],
            last_pick: self.last_pick[seat],
            pack: self.packs[seat],
            seen: self.seen[seat],
            left_in: &self.left_in[seat],
            came_back: &self.came_back[seat][..self.came_back_len[seat] as usize],
            history: &self.history,
        };
        self.public.view(variant, seat, own, betting)
    }

    pub(super) fn next_seat(&self, seat: usize, skip: impl Fn(usize) -> bool) -> usize {
        let mut s = seat;
        loop {
            s = self.turn(s);
            if !skip(s) || s == seat {
                return s;
            }
        }
    }

    /// The seat one step round the table in the direction of play (no division).
    #[inline]
    pub(super) fn turn(&self, seat: usize) -> usize {
        let n = self.public.players;
        if self.public.dir > 0 {
            if seat + 1 == n { 0 } else { seat + 1 }
        } else if seat == 0 {
            n - 1
        } else {
            seat - 1
        }
    }

    /// Recomputes who passes to whom after the set of active seats changed.
    pub(super) fn update_next(&mut self) {
        for s in 0..self.public.players {
            self.next[s] = self.next_seat(s, |x| self.public.folded[x]) as u8;
        }
    }

    /// Betting order: from the seat after the dealer in the direction of play round to the
    /// dealer, stepped rather than taken modulo n (a division per seat).
    pub(super) fn set_order(&mut self) {
        let n = self.public.players;
        let mut seat = self.public.dealer;
        for k in 0..n {
            seat = if self.public.dir > 0 {
                if seat + 1 == n { 0 } else { seat + 1 }
            } else if seat == 0 {
                n - 1
            } else {
                seat - 1
            };
            self.order[k] = seat as u8;
        }
    }

    /// Seats in betting order: from the seat after the dealer round to the dealer.
    pub(super) fn betting_order(&self) -> impl Iterator<Item = usize> + '_ {
        self.order[..self.public.players].iter().map(|&s| s as usize)
    }

    /// The value of a seat's face-up cards (wilds judged on them alone).
    pub(super) fn face_up_value_of(variant: &Variant, up: CardSet) -> HandValue {
        let wilds = variant.rules.wild.wild_cards(up, None);
        variant.eval.eval_wild(up.minus(wilds), wilds.len())
    }

    /// Checks that chips are conserved and every card is in exactly one place.
    #[cold]
    #[inline(never)]
    pub(super) fn check_invariants(&self, variant: &Variant) -> Result<(), Error> {
        let broken = |what: String| Err(Error::Invariant(what));
        let p = &self.public;
        let n = p.players;
        let chips: u64 = (0..n).map(|s| p.stacks[s] as u64 + p.committed[s] as u64).sum();
        if chips != p.chips_total {
            return broken(format!("chips not conserved: {chips} in play, {} at the start", p.chips_total));
        }
        if p.pot != p.committed[..n].iter().sum::<u32>() {
            return broken(format!("the pot ({}) is out of step with the stakes", p.pot));
        }
        let mut seen = self.discarded.0 & self.undealt.0;
        let mut all = self.discarded.union(self.undealt);
        for s in 0..n {
            for part in [self.packs[s], self.hands[s]] {
                seen |= all.0 & part.0;
                all = all.union(part);
            }
        }
        if seen != 0 {
            return broken(format!("a card is in two places: {}", CardSet(seen)));
        }
        if all != variant.deck.cards {
            return broken(format!("cards went missing: {}", variant.deck.cards.minus(all)));
        }
        if p.active as usize != p.folded[..n].iter().filter(|f| !**f).count() {
            return broken(format!("{} seats counted active, {:?} folded", p.active, &p.folded[..n]));
        }
        for s in (0..n).filter(|&s| !p.folded[s]) {
            if !p.face_up[s].minus(self.hands[s]).is_empty() {
                return broken(format!("seat {s} shows cards it does not hold"));
            }
        }
        Ok(())
    }

    /// Starts a unit (a round, or a game in game mode) on the deal seed, up to the first
    /// decision. `deal_index` is the unit's deal in the run: round mode passes left on
    /// even deals, so each passing direction sees every seating of a deal.
    pub fn reset(&mut self, variant: &Variant, deal: Deal, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        self.stacked = false;
        self.start_unit(variant, deal.seed, None, deal.index, sink, out)
    }

    pub(super) fn start_unit(
        &mut self,
        variant: &Variant,
        deal_seed: u64,
        stacks: Option<&[u32]>,
        deal_index: u64,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Step {
        let n = variant.rules.players;
        if self.deck_buf.len() != variant.deck_cards.len() {
            self.deck_buf.clear();
            self.deck_buf.extend_from_slice(&variant.deck_cards);
        }
        self.deal_seed = deal_seed;
        let p = &mut self.public;
        p.players = n;
        p.stacks = [0; MAX_SEATS];
        match stacks {
            Some(stacks) => p.stacks[..n].copy_from_slice(stacks),
            None => p.stacks[..n].fill(variant.rules.starting_stack),
        }
        p.dealer = 0;
        p.round = 0;
        p.dealt_in = [0; MAX_SEATS];
        match variant.rules.mode {
            Mode::Round => {
                let dir = if deal_index.is_multiple_of(2) { 1 } else { -1 };
                self.start_round(variant, dir, sink, out)
            }
            Mode::Game => self.next_game_round(variant, sink, out),
        }
    }

    /// In game mode: deals the next round while more than one player has chips (and the
    /// round limit is not reached), else ends the game.
    pub(super) fn next_game_round(&mut self, variant: &Variant, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        let n = variant.rules.players;
        let p = &mut self.public;
        if p.stacks[..n].iter().filter(|&&s| s > 0).count() > 1 && p.round < variant.rules.max_rounds_per_game {
            let dir = if p.round.is_multiple_of(2) { 1 } else { -1 };
            for s in 0..n {
                p.dealt_in[s] += u32::from(p.stacks[s] > 0);
            }
            return self.start_round(variant, dir, sink, out);
        }
        // The game goes to the player holding every chip (or, at the round limit, the
        // biggest stack, shared on a tie).
        let start = variant.rules.starting_stack;
        // More than one stack left: the round limit ended the game.
        out.health.capped = p.stacks[..n].iter().filter(|&&s| s > 0).count() > 1;
        let best = *p.stacks[..n].iter().max().expect("players");
        let leaders = p.stacks[..n].iter().filter(|&&s| s == best).count() as u32;
        for (s, (r, &stack)) in out.seats.iter_mut().zip(&p.stacks[..n]).enumerate() {
            r.score = stack as i64 - start as i64;
            r.share_units = if stack == best { SHARE_UNIT / leaders } else { 0 };
            r.rounds = p.dealt_in[s];
        }
        out.length = p.round;
        p.phase = Phase::Over;
        Ok(())
    }

    /// Antes and deals a round on the stacks in play (seats with no chips sit out), then
    /// plays up to its first decision.
    pub(super) fn start_round(
        &mut self,
        variant: &Variant,
        dir: i8,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Step {
        let n = variant.rules.players;
        let pack_size = variant.rules.pack_size;
        let p = &mut self.public;
        p.dir = dir;
        p.pick = 0;
        p.round_stacks = p.stacks;
        p.held = [[NONE; MAX_SEATS]; MAX_PICKS];
        self.history.clear();
        self.discarded = CardSet::EMPTY;
        for s in 0..n {
            p.folded[s] = p.stacks[s] == 0;
            p.face_up[s] = CardSet::EMPTY;
            p.shown[s] = [NONE; MAX_PICKS];
            p.committed[s] = 0;
            p.street[s] = 0;
            p.fold_round[s] = None;
            p.pack_of[s] = s as u8;
            self.hands[s] = CardSet::EMPTY;
            self.seen[s] = CardSet::EMPTY;
            self.pack_seen[s] = [CardSet::EMPTY; MAX_PICKS];
            self.left_in[s] = [CardSet::EMPTY; MAX_SEATS];
            self.came_back_len[s] = 0;
            self.packs[s] = CardSet::EMPTY;
            self.last_pick[s] = None;
            self.hated[s] = false;
            self.picks[s] = [PickRecord::default(); MAX_PICKS];
            self.face_up_value[s] = HandValue(0);
        }
        p.active = p.folded[..n].iter().filter(|f| !**f).count() as u8;
        p.pot = 0;
        p.chips_total = p.stacks[..n].iter().map(|&s| s as u64).sum();
        let (round, dealer) = (p.round, p.dealer);
        self.update_next();
        self.set_order();
        sink.event(Event::RoundStart { round, dealer, direction: dir });

        // Antes, then the deal.
        let p = &mut self.public;
        for s in (0..n).filter(|&s| !p.folded[s]) {
            let chips = variant.rules.ante.min(p.stacks[s]);
            p.stacks[s] -= chips;
            p.committed[s] += chips;
            p.pot += chips;
            sink.event(Event::Ante { seat: s, chips });
        }
        let playing = p.active as usize;
        let mut packs = [CardSet::EMPTY; MAX_SEATS];
        if self.stacked {
            for s in (0..n).filter(|&s| !self.public.folded[s]) {
                packs[s] = self.stacked_packs[s];
            }
        } else {
            let seed = match variant.rules.mode {
                Mode::Round => self.deal_seed,
                Mode::Game => mix_seed(self.deal_seed, u64::from(round), ROUND_STREAM),
            };
            if self.last_deal != Some((seed, playing)) {
                // The deck is reset to its sorted order first, so a deal's cards depend on
                // its seed alone.
                self.deck_buf.copy_from_slice(&variant.deck_cards);
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let dealt = partial_shuffle(&mut self.deck_buf, &mut rng, playing * pack_size).0;
                for (pack, cards) in self.last_packs.iter_mut().zip(dealt.chunks_exact(pack_size)) {
                    *pack = cards.iter().copied().collect();
                }
                self.last_deal = Some((seed, playing));
            }
            // The k-th pack dealt goes to the k-th seat still in.
            for (s, &pack) in (0..n).filter(|&s| !self.public.folded[s]).zip(&self.last_packs) {
                packs[s] = pack;
            }
        }
        let mut dealt_set = CardSet::EMPTY;
        for s in (0..n).filter(|&s| !self.public.folded[s]) {
            let pack = packs[s];
            self.packs[s] = pack;
            dealt_set = dealt_set.union(pack);
            sink.event(Event::Deal { seat: s, pack });
        }
        self.undealt = variant.deck.cards.minus(dealt_set);
        self.begin_pick(1);
        self.seek_picker(variant, 0, sink, out)
    }

    /// Passes the packs (after the first pick) and lets every seat look at the one it gets.
    #[inline(always)]
    pub(super) fn begin_pick(&mut self, pick: usize) {
        self.public.pick = pick;
        if pick > 1 {
            pass_packs(self);
        }
        let n = self.public.players;
        self.public.held[pick - 1] = self.public.pack_of;
        for s in 0..n {
            if self.public.folded[s] {
                continue;
            }
            let pack = self.packs[s];
            self.seen[s] = self.seen[s].union(pack);
            self.pack_seen[s][pick - 1] = pack;
            let left = self.left_in[s][self.public.pack_of[s] as usize];
            if !left.is_empty() {
                // A pack this seat passed before is back: what is gone was taken downstream.
                self.came_back[s][self.came_back_len[s] as usize] = left.minus(pack);
                self.came_back_len[s] += 1;
            }
            if pack.len() == 1 {
                // A forced pick: the bot has no choice to make, so it is not asked.
                self.choices[s] = PickChoice::own(pack.nth(0).expect("one card"));
            }
        }
    }

    /// The next seat from `from` (in seat order) with a choice to make at this pick; once
    /// every seat has chosen, the picks are revealed and play goes on to the next decision.
    #[inline(always)]
    pub(super) fn seek_picker(
        &mut self,
        variant: &Variant,
        mut from: usize,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Step {
        loop {
            let n = self.public.players;
            for s in from..n {
                if !self.public.folded[s] && self.packs[s].len() > 1 {
                    self.public.phase = Phase::Pick(s as u8);
                    return Ok(());
                }
            }
            self.reveal_picks(variant, sink, out)?;
            let bet = variant.betting_round_after(self.public.pick);
            if let Some(b) = bet
                && self.start_betting(variant, b, sink)
            {
                return Ok(());
            }
            if self.close_pick(variant, bet.is_some(), sink, out)? {
                return Ok(());
            }
            from = 0;
        }
    }

    /// Every seat's choice at this pick goes into its hand (face up at a face-up pick).
    #[inline(always)]
    pub(super) fn reveal_picks(&mut self, variant: &Variant, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        let n = self.public.players;
        let pick = self.public.pick;
        let face_up = variant.is_face_up(pick);
        let log_cards = out.cards.on();
        for s in 0..n {
            if self.public.folded[s] {
                continue;
            }
            let choice = self.choices[s];
            let pack_of = self.public.pack_of[s];
            sink.event(Event::Pick { seat: s, pick, choice, face_up, pack_of: pack_of as usize, pack: self.packs[s] });
            if log_cards {
                log_pick(&mut out.cards, s, self.packs[s], choice.card, pick);
            }
            self.packs[s].remove(choice.card);
            self.left_in[s][pack_of as usize] = self.packs[s];
            self.hands[s].insert(choice.card);
            if face_up {
                let p = &mut self.public;
                p.face_up[s].insert(choice.card);
                p.shown[s][pick - 1] = choice.card.index();
                self.face_up_value[s] = State::face_up_value_of(variant, p.face_up[s]);
            }
            self.picks[s][pick - 1] = PickRecord { card: Some(choice.card), hate: choice.hate, pack_of };
            out.seats[s].sums[PICKS] += 1;
            out.seats[s].sums[HATE_PICKS] += i64::from(choice.hate);
            self.hated[s] |= choice.hate;
        }
        if pick == variant.rules.pack_size {
            for s in 0..n {
                self.last_pick[s] = self.picks[s][pick - 1].card;
            }
        }
        if self.verify {
            self.check_invariants(variant)?;
        }
        Ok(())
    }

    /// After a pick and its betting round (`betting`: the rules have one after it, played
    /// or not): the round ends with one player left or after the last pick, else the next
    /// pick begins. Returns whether the round ended.
    pub(super) fn close_pick(
        &mut self,
        variant: &Variant,
        betting: bool,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Result<bool, Error> {
        let n = self.public.players;
        if betting {
            if self.verify {
                self.check_invariants(variant)?;
            }
            if self.public.active == 1 {
                let p = &mut self.public;
                let winner = (0..n).find(|&s| !p.folded[s]).expect("one seat left");
                sink.event(Event::LastStanding { seat: winner });
                let pot = p.pot;
                p.stacks[winner] += pot;
                sink.event(Event::Award { seat: winner, chips: pot, pot: 0 });
                p.committed = [0; MAX_SEATS];
                p.pot = 0;
                out.seats[winner].share_units = SHARE_UNIT;
                self.end_round(variant, sink, out)?;
                return Ok(true);
            }
        }
        if self.public.pick == variant.rules.pack_size {
            showdown(variant, self, sink, out)?;
            self.end_round(variant, sink, out)?;
            return Ok(true);
        }
        self.begin_pick(self.public.pick + 1);
        Ok(false)
    }

    /// Scores the round; in game mode the deal moves on and the next round begins.
    pub(super) fn end_round(&mut self, variant: &Variant, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        finish(self, out)?;
        match variant.rules.mode {
            Mode::Round => {
                out.length = 1;
                self.public.phase = Phase::Over;
                Ok(())
            }
            Mode::Game => {
                let n = variant.rules.players;
                let p = &mut self.public;
                p.round += 1;
                // The deal moves one seat to the left, to a seat that still has chips.
                let dealer = p.dealer;
                p.dealer = (1..n).map(|k| (dealer + k) % n).find(|&s| p.stacks[s] > 0).unwrap_or(dealer);
                self.next_game_round(variant, sink, out)
            }
        }
    }

    /// Starts betting round `round` if at least two seats can act; returns whether a seat
    /// now bets.
    pub(super) fn start_betting(&mut self, variant: &Variant, round: usize, sink: &mut impl Sink) -> bool {
        let p = &mut self.public;
        let n = p.players;
        // Seats that can act (in, with chips) as bits; only the seat acting changes them.
        let mut can_act = 0u32;
        for s in 0..n {
            can_act |= u32::from(!p.folded[s] && p.stacks[s] > 0) << s;
        }
        if p.active < 2 || can_act.count_ones() < 2 {
            return false;
        }
        p.street = [0; MAX_SEATS];
        let size = variant.rules.bet_sizes[round];
        let lead = leader(self);
        let p = &mut self.public;
        sink.event(Event::BettingStart { round, leader: lead, leader_face_up: p.face_up[lead] });
        p.betting = Betting {
            round: round as u8,
            current: 0,
            raises: 0,
            last_raise: size,
            pending: can_act.count_ones(),
            can_act,
        };
        let mut seat = lead;
        while can_act & (1 << seat) == 0 {
            seat = self.turn(seat);
        }
        self.public.phase = Phase::Bet(seat as u8);
        self.set_cut(seat);
        true
    }

    /// Marks where a sampled world's past replays from: here, with `seat` to bet.
    fn set_cut(&mut self, seat: usize) {
        let p = &mut self.public;
        p.cut = p.betting;
        p.cut_acts = self.history.len() as u32;
        p.cut_seat = seat as u8;
    }

    /// The betting facts of `seat`, the seat to bet.
    #[inline(always)]
    pub(super) fn bet_options(&self, variant: &Variant, seat: usize) -> BetOptions {
        self.public.bet_options(variant, seat)
    }

    /// Asks `bot` for the decision of the seat to move, from its view; a choice the rules
    /// do not allow is [`Error::IllegalAction`].
    #[inline(always)]
    pub fn ask_bot<B: Bot + ?Sized>(&self, variant: &Variant, bot: &mut B, rng: &mut BotRng) -> Result<Move, Error> {
        match self.public.phase {
            Phase::Pick(s) => {
                let s = s as usize;
                let choice = match bot.pick_from_pack(self.packs[s], rng) {
                    Some(choice) => choice,
                    None => bot.pick(&self.view(variant, s, None), rng),
                };
                if !self.packs[s].contains(choice.card) {
                    return Err(Error::IllegalAction {
                        bot: bot.name().to_string(),
                        seat: s,
                        action: format!("pick {} of a pack without it ({})", choice.card, self.packs[s]),
                    });
                }
                Ok(Move::Pick(choice))
            }
            Phase::Bet(s) => {
                let s = s as usize;
                let options = self.bet_options(variant, s);
                let action = match bot.bet_from_options(options, rng) {
                    Some(action) => action,
                    None => bot.bet(&self.view(variant, s, Some(options)), rng),
                };
                let stack = self.public.stacks[s];
                if !options.allows(action, stack) {
                    return Err(Error::IllegalAction {
                        bot: bot.name().to_string(),
                        seat: s,
                        action: format!(
                            "{action} (to call {}, stack {stack}, raise {}..={})",
                            options.to_call, options.min_raise, options.max_raise
                        ),
                    });
                }
                Ok(Move::Bet(action))
            }
            Phase::Over => Err(Error::Invariant("a bot was asked to move after the unit ended".into())),
        }
    }

    /// Applies the decision of the seat to move, then plays on to the next decision.
    #[inline(always)]
    pub fn step(&mut self, variant: &Variant, m: Move, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        match (self.public.phase, m) {
            (Phase::Pick(s), Move::Pick(choice)) => {
                let s = s as usize;
                if !self.packs[s].contains(choice.card) {
                    return Err(Error::Invariant(format!("seat {s} picks {} from a pack without it", choice.card)));
                }
                self.choices[s] = choice;
                self.seek_picker(variant, s + 1, sink, out)
            }
            (Phase::Bet(s), Move::Bet(action)) => self.bet(variant, s as usize, action, sink, out),
            (phase, m) => Err(Error::Invariant(format!("move {m:?} does not fit phase {phase:?}"))),
        }
    }

    /// A betting action, then the next seat to bet or the end of the betting round.
    #[inline(always)]
    pub(super) fn bet(
        &mut self,
        variant: &Variant,
        seat: usize,
        action: Action,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Step {
        let options = self.bet_options(variant, seat);
        if !options.allows(action, self.public.stacks[seat]) {
            return Err(Error::Invariant(format!("seat {seat} may not {action} here")));
        }
        let to_call = options.to_call;
        let round = self.public.betting.round;
        let room = self.public.stacks[seat] - to_call;
        if self.public.betting.raises >= variant.raise_cap_differs_from && room > 0 {
            out.rules_used |= 1 << super::super::rules::RAISE_CAP_USED;
        }
        let paid = match action {
            Action::Fold => {
                let p = &mut self.public;
                p.folded[seat] = true;
                p.active -= 1;
                p.fold_round[seat] = Some(round);
                // The folded seat's pack leaves play.
                self.discarded = self.discarded.union(self.packs[seat]).union(self.hands[seat]);
                self.packs[seat] = CardSet::EMPTY;
                self.hands[seat] = CardSet::EMPTY;
                self.update_next();
                self.public.betting.pending -= 1;
                0
            }
            Action::Check => {
                self.public.betting.pending -= 1;
                0
            }
            Action::Call => {
                self.public.betting.pending -= 1;
                to_call
            }
            Action::Raise(by) => {
                // Fixed limit allows exactly the round's size (all that is left, if less).
                if by != variant.rules.bet_sizes[round as usize].min(room) {
                    out.rules_used |= 1 << super::super::rules::LIMIT_USED;
                }
                let b = &mut self.public.betting;
                b.raises += 1;
                b.last_raise = b.last_raise.max(by);
                to_call + by
            }
        };
        let p = &mut self.public;
        p.stacks[seat] -= paid;
        p.street[seat] += paid;
        p.committed[seat] += paid;
        p.pot += paid;
        if p.folded[seat] || p.stacks[seat] == 0 {
            p.betting.can_act &= !(1 << seat);
        }
        if let Action::Raise(_) = action {
            p.betting.current = p.street[seat];
            p.betting.pending = (p.betting.can_act & !(1 << seat)).count_ones();
        }
        let public = PublicAction { betting_round: round, seat: seat as u8, action, paid };
        self.history.push(public);
        sink.event(Event::Act { action: public, all_in: p.stacks[seat] == 0 && !p.folded[seat] });
        let mut next = seat;
        while self.public.betting.pending > 0 && self.public.active > 1 {
            next = self.turn(next);
            if self.public.betting.can_act & (1 << next) != 0 {
                self.public.phase = Phase::Bet(next as u8);
                if matches!(action, Action::Fold) {
                    self.set_cut(next);
                }
                return Ok(());
            }
        }
        if self.close_pick(variant, true, sink, out)? {
            return Ok(());
        }
        self.seek_picker(variant, 0, sink, out)
    }
}

/// Logs a pick for card analytics: the pack the seat chose from, and the card it took.
/// Only the copy of the round that logs cards calls it.
#[inline]
pub(super) fn log_pick(log: &mut CardLog, seat: usize, pack: CardSet, card: Card, pick: usize) {
    // Card ids are the set's bit indices: the pack goes to the log as it is.
    log.picked_from(seat, pack.0, u16::from(card.index()), pick);
    // Kept as it is taken: a seat that folds later has its hand cleared, yet held the card.
    log.kept(seat, u16::from(card.index()));
}

/// Passes every active seat's pack to the next active seat in the direction of play.
pub(super) fn pass_packs(t: &mut State) {
    let n = t.public.players;
    if t.public.active as usize == n {
        // Everyone is in: the packs simply turn one seat round (by hand: the slice
        // rotations called `memmove` for a handful of words).
        if t.public.dir > 0 {
            let (pack, of) = (t.packs[n - 1], t.public.pack_of[n - 1]);
            for s in (1..n).rev() {
                t.packs[s] = t.packs[s - 1];
                t.public.pack_of[s] = t.public.pack_of[s - 1];
            }
            (t.packs[0], t.public.pack_of[0]) = (pack, of);
        } else {
            let (pack, of) = (t.packs[0], t.public.pack_of[0]);
            for s in 0..n - 1 {
                t.packs[s] = t.packs[s + 1];
                t.public.pack_of[s] = t.public.pack_of[s + 1];
            }
            (t.packs[n - 1], t.public.pack_of[n - 1]) = (pack, of);
        }
        return;
    }
    let mut packs = [CardSet::EMPTY; MAX_SEATS];
    let mut pack_of = [0u8; MAX_SEATS];
    for s in 0..t.public.players {
        if !t.public.folded[s] {
            let to = t.next[s] as usize;
            packs[to] = t.packs[s];
            pack_of[to] = t.public.pack_of[s];
        }
    }
    t.packs = packs;
    t.public.pack_of = pack_of;
}

/// The seat that leads a betting round: the best face-up hand (wilds judged on the face-up
/// cards alone), ties to the first in betting order.
pub(super) fn leader(t: &State) -> usize {
    let mut best: Option<(HandValue, usize)> = None;
    for s in t.betting_order().filter(|&s| !t.public.folded[s]) {
        let value = t.face_up_value[s];
        if best.is_none_or(|(b, _)| value > b) {
            best = Some((value, s));
        }
    }
    best.expect("at least two active seats").1
}

/// Most cards a seat can lose in one round: its stake under fixed limit with a raise cap
/// (every raise of every betting round), else its stack.
pub(crate) fn round_stake(variant: &Variant) -> u32 {
    let r = &variant.rules;
    let capped = r.ante + r.bet_sizes.iter().map(|&size| size * r.raise_cap).sum::<u32>();
    if r.limit == Limit::FixedLimit && r.raise_cap > 0 { capped.min(r.starting_stack) } else { r.starting_stack }
}

impl State {
    /// Picks resolved this round, and picks whose packs have been looked at.
    pub(super) fn pick_counts(p: &Public) -> (usize, usize) {
        match p.phase {
            Phase::Pick(_) => (p.pick - 1, p.pick),
            _ => (p.pick, p.pick),
        }
    }

    /// Whether seat `s` took part in pick `k` (1-based): dealt in, and not folded before it.
    pub(super) fn picked_at(variant: &Variant, p: &Public, s: usize, k: usize) -> bool {
        p.round_stacks[s] > 0 && p.fold_round[s].is_none_or(|b| k <= variant.rules.bet_after_picks[b as usize])
    }

    /// This state with every card `seat` has not seen swapped at random for another such
    /// card (the same swap everywhere: hands, packs, the discards, the undealt cards and
    /// every seat's memory), and a new deal seed for later rounds. Made from the truth, not
    /// from an observation: the leak test's second state. Cards the seat saw (its packs)
    /// and face-up cards stay where they are.
    pub fn redeal(&self, variant: &Variant, seat: usize, rng: &mut BotRng) -> State {
        let mut t = self.clone();
        let n = self.public.players;
        let fixed = (0..n).fold(self.seen[seat], |set, s| set.union(self.public.face_up[s]));
        let hidden: Vec<Card> = variant.deck.cards.minus(fixed).iter().collect();
        let mut shuffled = hidden.clone();
        rand::seq::SliceRandom::shuffle(&mut shuffled[..], rng);
        let mut map = [0u8; 64];
        for (i, m) in map.iter_mut().enumerate() {
            *m = i as u8;
        }
        for (from, to) in hidden.iter().zip(&shuffled) {
            map[from.index() as usize] = to.index();
        }
        let card = |c: Card| Card::from_index(map[c.index() as usize]);
        let set = |s: CardSet| s.iter().map(card).collect::<CardSet>();
        for s in 0..n {
            t.packs[s] = set(t.packs[s]);
            t.hands[s] = set(t.hands[s]);
            t.seen[s] = set(t.seen[s]);
            for k in 0..MAX_PICKS {
                t.pack_seen[s][k] = set(t.pack_seen[s][k]);
                t.came_back[s][k] = set(t.came_back[s][k]);
                t.picks[s][k].card = t.picks[s][k].card.map(card);
            }
            for d in 0..MAX_SEATS {
                t.left_in[s][d] = set(t.left_in[s][d]);
            }
            t.last_pick[s] = t.last_pick[s].map(card);
            t.choices[s].card = card(t.choices[s].card);
        }
        t.discarded = set(t.discarded);
        t.undealt = set(t.undealt);
        t.last_deal = None;
        t.deal_seed = rng.next_u64();
        t
    }
}

impl Public {
    /// Seat `seat`'s betting options in the betting round in progress (all public).
    pub fn bet_options(&self, variant: &Variant, seat: usize) -> BetOptions {
        let p = self;
        let b = &p.betting;
        let size = variant.rules.bet_sizes[b.round as usize];
        let stack = p.stacks[seat];
        let to_call = (b.current - p.street[seat]).min(stack);
        let room = stack - to_call;
        let pot_after_call = p.pot + to_call;
        let (min_raise, max_raise) = match variant.rules.limit {
            Limit::FixedLimit => (size, size),
            Limit::PotLimit => (size.max(b.last_raise), pot_after_call.max(size.max(b.last_raise))),
            Limit::NoLimit => (size.max(b.last_raise), room),
        };
        let cap = variant.rules.raise_cap;
        BetOptions {
            round: b.round as usize,
            to_call,
            can_raise: (cap == 0 || b.raises < cap) && room > 0,
            min_raise: min_raise.min(room),
            max_raise: max_raise.min(room),
            raises: b.raises,
        }
    }
}

/// What one seat holds and remembers: its part of a view beyond the public state.
pub(super) struct Own<'a> {
    pub(super) hand: CardSet,
    pub(super) last_pick: Option<Card>,
    pub(super) pack: CardSet,
    pub(super) seen: CardSet,
    /// Per pack: what the seat left in it (at least `players` entries).
    pub(super) left_in: &'a [CardSet],
    pub(super) came_back: &'a [CardSet],
    pub(super) history: &'a [PublicAction],
}

impl Public {
    /// Seat `seat`'s view from the public state and what it holds (`betting`: its options
    /// at its bet; a view while betting shows no pack).
    #[inline(always)]
    pub(super) fn view<'a>(
        &'a self,
        variant: &'a Variant,
        seat: usize,
        own: Own<'a>,
        betting: Option<BetOptions>,
    ) -> SeatView<'a> {
        let n = self.players;
        SeatView {
            variant,
            seat,
            players: n,
            direction: self.dir,
            pick: self.pick,
            hand: own.hand,
            own_face_up: self.face_up[seat],
            last_pick: own.last_pick,
            face_up: &self.face_up[..n],
            folded: &self.folded[..n],
            pack: if betting.is_some() { CardSet::EMPTY } else { own.pack },
            seen: own.seen,
            memory: PackMemory {
                left_in: &own.left_in[..n],
                came_back: own.came_back,
                pack_of: &self.pack_of[..n],
                held: &self.held[..self.pick.min(MAX_PICKS)],
            },
            pot: self.pot,
            stacks: &self.stacks[..n],
            committed: &self.committed[..n],
            betting,
            history: own.history,
        }
    }
}
