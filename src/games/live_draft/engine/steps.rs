//! The rules' steps: a game's opening, turns (draws, lands, casts, combat, discards) and end, and the heuristic bots' driver.

use super::*;

impl State {
    /// Starts a game with this deal seed: the library, the opening up to the first
    /// decision (or the end, when the opening decides the game).
    pub fn reset(&mut self, rules: &Rules, deal: Deal, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        deal_library(rules, self, deal.seed);
        let lands = (0..self.n_cards).filter(|&i| self.cards[i].is_land()).count();
        sink.event(Event::Library { cards: self.n_cards, lands });
        self.begin(rules, sink, out)
    }

    /// Where the game stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Starts play from the position in the table (the opening included, unless hands
    /// are already dealt).
    pub(super) fn begin(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        let n = rules.players;
        self.untapped = [0; COLOURS];
        self.drawn = [0; MAX_SEATS];
        self.game_turn = 0;
        self.seat = 0;
        self.winners = 0;
        self.stop_after_turn = false;
        self.phase = Phase::Over;
        let already: usize = (0..n).map(|s| self.boards[s].hand_size).sum();
        if already == 0 {
            match rules.opening {
                Opening::Quick => {
                    let dealt = if rules.method == Method::Rummy { 2 * rules.hand_size } else { rules.hand_size };
                    for s in 0..n {
                        for _ in 0..dealt {
                            if let Some(card) = self.take_library(rules, Some(s)) {
                                self.put_in_hand(s, card, false);
                                if out.cards.on() {
                                    log_draw(&mut out.cards, self, s, card, true);
                                }
                                sink.event(Event::Draw { seat: s, card, how: How::Library, hate: false });
                            }
                        }
                    }
                    if rules.method == Method::Rummy {
                        self.chosen = self.n_discard;
                        self.pending = [0; MAX_SEATS];
                        return self.opening_discard_next(rules, sink, out);
                    }
                    self.set_out_row(rules, sink);
                }
                Opening::Careful => {
                    self.set_out_row(rules, sink);
                    return self.careful_next(rules, sink, out);
                }
            }
        }
        self.opening_dealt(rules, sink, out)
    }

    /// Rummy's quick opening: the next seat still above the hand size discards; once none
    /// is, the chosen cards go on the pile in seat order (every seat chose unseen).
    pub(super) fn opening_discard_next(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        while (self.seat as usize) < rules.players {
            if self.boards[usize::from(self.seat)].hand_size > rules.hand_size {
                self.phase = Phase::OpeningDiscard(self.seat);
                return Ok(());
            }
            self.seat += 1;
        }
        let mut i = self.n_discard;
        for (s, &count) in self.pending.iter().enumerate().take(rules.players) {
            for _ in 0..count {
                sink.event(Event::Discard { seat: s, card: self.discard[i], to: "discard pile" });
                i += 1;
            }
        }
        self.n_discard = self.chosen;
        self.chosen = 0;
        self.pending = [0; MAX_SEATS];
        self.set_out_row(rules, sink);
        self.opening_dealt(rules, sink, out)
    }

    /// The careful opening: the next seat short of a full hand draws, from the first
    /// player round the table.
    pub(super) fn careful_next(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        let n = rules.players;
        while (0..n).any(|p| self.boards[p].hand_size < rules.hand_size) {
            let s = usize::from(self.seat);
            if self.boards[s].hand_size < rules.hand_size {
                return self.begin_draw(rules, s, DrawFor::Careful, sink, out);
            }
            self.seat = ((s + 1) % n) as u8;
        }
        self.opening_dealt(rules, sink, out)
    }

    /// The hands are dealt: opening lands are measured, then the quick opening's
    /// exchanges, then the first turn.
    pub(super) fn opening_dealt(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        for s in 0..rules.players {
            let hand = &self.hands[s][..self.boards[s].hand_size];
            let lands = hand.iter().filter(|&&c| self.cards[usize::from(c)].is_land()).count();
            out.seats[s].observe(OPENING_LANDS, lands.min(LAND_BINS - 1));
            out.seats[s].sums[OPENING_LAND_SUM] = lands as i64;
            sink.event(Event::Opening { seat: s, lands });
        }
        self.seat = 0;
        self.mulligans_done = 0;
        if rules.opening == Opening::Quick {
            return self.mulligan_next(rules, sink, out);
        }
        self.opening_done(rules, sink, out)
    }

    /// The quick opening's exchanges: the seat asked next, or the first turn.
    pub(super) fn mulligan_next(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        while usize::from(self.seat) < rules.players {
            let s = usize::from(self.seat);
            if (self.mulligans_done as usize) < rules.max_mulligans && self.boards[s].hand_size >= 2 {
                self.phase = Phase::Mulligan(self.seat);
                return Ok(());
            }
            self.seat += 1;
            self.mulligans_done = 0;
        }
        self.opening_done(rules, sink, out)
    }

    /// The opening is over: seat 0 takes the first turn.
    pub(super) fn opening_done(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        if self.verify {
            self.check(rules.players)?;
        }
        self.seat = 0;
        self.next_turn(rules, sink, out)
    }

    /// The next turn (of `self.seat`), or the end at the turn cap.
    #[inline]
    pub(super) fn next_turn(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        if self.game_turn >= rules.turn_cap() {
            return self.finish(rules, None, sink, out);
        }
        self.game_turn += 1;
        self.start_turn(rules, sink, out)
    }

    /// Untap, then the draw (skipped on the first player's first turn where the rules say).
    pub(super) fn start_turn(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        let seat = usize::from(self.seat);
        self.turns[seat] += 1;
        sink.event(Event::Turn { seat, turn: self.game_turn });
        // Untap: the creatures that attacked on this seat's last turn may block again.
        self.boards[seat].sick = 0;
        self.boards[seat].tapped = 0;
        self.untapped = [0; COLOURS];
        if self.game_turn != 1 || rules.first_player_draws() {
            return self.begin_draw(rules, seat, DrawFor::Turn, sink, out);
        }
        if self.turns[seat] >= 5 {
            self.flood[seat].0 += 1;
        }
        self.turn_land(seat, out);
        Ok(())
    }

    /// Before the land: land screw is measured, the lands untap.
    pub(super) fn turn_land(&mut self, seat: usize, out: &mut RoundResult) {
        let hand = &self.hands[seat][..self.boards[seat].hand_size];
        let has_land = hand.iter().any(|&c| self.cards[usize::from(c)].is_land());
        if self.turns[seat] <= 4 && !has_land {
            out.seats[seat].counters[SCREWED] = 1;
        }
        self.untapped = self.boards[seat].lands;
        self.phase = Phase::Land(seat as u8);
    }

    /// One draw by the method in force: done at once (blind, or nothing left), or the
    /// seat's decision next.
    #[inline]
    pub(super) fn begin_draw(
        &mut self,
        rules: &Rules,
        seat: usize,
        why: DrawFor,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Step {
        self.draw_for = why;
        match rules.method {
            Method::Blind => {
                let drawn = match self.take_library(rules, Some(seat)) {
                    Some(card) => {
                        self.put_in_hand(seat, card, false);
                        if out.cards.on() {
                            log_draw(&mut out.cards, self, seat, card, true);
                        }
                        sink.event(Event::Draw { seat, card, how: How::Library, hate: false });
                        Drawn::Cards(usize::from(self.cards[usize::from(card)].is_land()))
                    }
                    None => Drawn::Exhausted,
                };
                self.after_draw(rules, seat, drawn, sink, out)
            }
            Method::Tableau | Method::Pipeline => {
                if self.row[..self.n_row].iter().all(|&c| c == NO_CARD) {
                    return self.after_draw(rules, seat, Drawn::Exhausted, sink, out);
                }
                self.phase = Phase::Pick(seat as u8);
                Ok(())
            }
            Method::Rummy => {
                let has_top = self.n_discard > 0;
                let library = self.n_library > 0 || (rules.reshuffle_removed && self.n_removed > 0);
                if !has_top && !library {
                    return self.after_draw(rules, seat, Drawn::Exhausted, sink, out);
                }
                if has_top && out.cards.on() {
                    let top = self.discard[self.n_discard - 1];
                    out.cards.seen(seat, card_identity(self.cards[usize::from(top)]), self.drawn[seat] + 1);
                }
                if has_top && library {
                    self.phase = Phase::TakeTop(seat as u8);
                    return Ok(());
                }
                if has_top {
                    return self.take_top(rules, seat, sink, out);
                }
                self.draw_two(rules, seat, sink, out);
                Ok(())
            }
        }
    }

    /// Rummy: the discard pile's top goes to the seat's hand.
    pub(super) fn take_top(&mut self, rules: &Rules, seat: usize, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        self.n_discard -= 1;
        let card = self.discard[self.n_discard];
        if out.cards.on() {
            log_draw(&mut out.cards, self, seat, card, false);
        }
        self.put_in_hand(seat, card, true);
        sink.event(Event::Draw { seat, card, how: How::DiscardTop, hate: false });
        let lands = usize::from(self.cards[usize::from(card)].is_land());
        self.after_draw(rules, seat, Drawn::Cards(lands), sink, out)
    }

    /// Rummy: two cards from the library, then the seat discards one.
    pub(super) fn draw_two(&mut self, rules: &Rules, seat: usize, sink: &mut impl Sink, out: &mut RoundResult) {
        let mut lands = 0;
        for _ in 0..2 {
            if let Some(card) = self.take_library(rules, Some(seat)) {
                self.put_in_hand(seat, card, false);
                if out.cards.on() {
                    log_draw(&mut out.cards, self, seat, card, true);
                }
                lands += u8::from(self.cards[usize::from(card)].is_land());
                sink.event(Event::Draw { seat, card, how: How::Library, hate: false });
            }
        }
        self.draw_lands = lands;
        self.phase = Phase::DrawDiscard(seat as u8);
    }

    /// A row pick: tableau (replace from the library, then the wipe check) or pipeline
    /// (remove the leftmost, slide, add two at the right).
    pub(super) fn take_from_row(
        &mut self,
        rules: &Rules,
        seat: usize,
        pick: Pick,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Step {
        let card = self.row[pick.index];
        if out.cards.on() {
            log_row(&mut out.cards, self, seat);
            log_draw(&mut out.cards, self, seat, card, false);
        }
        self.put_in_hand(seat, card, true);
        if pick.hate {
            out.seats[seat].sums[HATE_PICKS] += 1;
        }
        sink.event(Event::Draw { seat, card, how: How::Row, hate: pick.hate });
        if rules.method == Method::Tableau {
            self.row[pick.index] = self.take_library(rules, Some(seat)).unwrap_or(NO_CARD);
            self.wipe_check(rules, Some(seat), sink);
        } else {
            self.row.copy_within(pick.index + 1..self.n_row, pick.index);
            self.n_row -= 1;
            let first = self.row[..self.n_row].iter().position(|&c| c != NO_CARD);
            if let Some(i) = first {
                let gone = self.row[i];
                self.remove_from_game(gone);
                sink.event(Event::Slide { card: gone });
                self.row.copy_within(i + 1..self.n_row, i);
                self.n_row -= 1;
            }
            // Empty slots (a dry library) drop out as the row slides.
            let mut kept = 0;
            for i in 0..self.n_row {
                if self.row[i] != NO_CARD {
                    self.row[kept] = self.row[i];
                    kept += 1;
                }
            }
            self.n_row = kept;
            for _ in 0..2 {
                if self.n_row < rules.row
                    && let Some(c) = self.take_library(rules, Some(seat))
                {
                    self.row[self.n_row] = c;
                    self.n_row += 1;
                }
            }
        }
        self.row_event(sink);
        let lands = usize::from(self.cards[usize::from(card)].is_land());
        self.after_draw(rules, seat, Drawn::Cards(lands), sink, out)
    }

    /// What follows a draw: the careful opening's next seat, the next exchange, or the
    /// rest of the turn (the end, when the draw ran dry under mill counters).
    #[inline]
    pub(super) fn after_draw(
        &mut self,
        rules: &Rules,
        seat: usize,
        drawn: Drawn,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Step {
        match (self.draw_for, drawn) {
            (DrawFor::Careful, Drawn::Exhausted) => match ran_dry(rules, self) {
                Some(end) => self.finish(rules, Some(end), sink, out),
                None => self.opening_dealt(rules, sink, out),
            },
            (DrawFor::Careful, Drawn::Cards(_)) => {
                self.seat = ((seat + 1) % rules.players) as u8;
                self.careful_next(rules, sink, out)
            }
            (DrawFor::Mulligan, drawn) => {
                if drawn == Drawn::Exhausted
                    && let Some(end) = ran_dry(rules, self)
                {
                    return self.finish(rules, Some(end), sink, out);
                }
                self.mulligans_done += 1;
                self.mulligan_next(rules, sink, out)
            }
            (DrawFor::Turn, Drawn::Exhausted) => match ran_dry(rules, self) {
                Some(end) => self.turn_over(rules, Some(end), sink, out),
                None => {
                    self.turn_land(seat, out);
                    Ok(())
                }
            },
            (DrawFor::Turn, Drawn::Cards(lands)) => {
                if self.turns[seat] >= 5 {
                    self.flood[seat].0 += 1;
                    if lands > 0 && self.boards[seat].n_lands >= 5 {
                        self.flood[seat].1 += 1;
                    }
                }
                self.turn_land(seat, out);
                Ok(())
            }
        }
    }

    /// After the creatures: combat if a creature can attack, else the end of the turn.
    pub(super) fn combat_or_end(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        if self.boards[usize::from(self.seat)].ready() != 0 {
            self.phase = Phase::Target(self.seat);
            return Ok(());
        }
        self.end_discards(rules, sink, out)
    }

    /// End of turn: discard down to the hand limit, one card at a time.
    pub(super) fn end_discards(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        if self.boards[usize::from(self.seat)].hand_size > rules.max_hand {
            self.phase = Phase::EndDiscard(self.seat);
            return Ok(());
        }
        self.untapped = [0; COLOURS];
        self.turn_over(rules, None, sink, out)
    }

    /// The turn is over (`end`: the draw ran dry under mill counters): the invariants,
    /// then the end of the game or the next live seat's turn.
    pub(super) fn turn_over(
        &mut self,
        rules: &Rules,
        end: Option<(u8, &'static str)>,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Step {
        if self.stop_after_turn {
            self.ended = end;
            self.phase = Phase::Over;
            return Ok(());
        }
        let n = rules.players;
        if self.verify {
            self.check(n)?;
        }
        if end.is_some() {
            return self.finish(rules, end, sink, out);
        }
        let alive = (0..n).filter(|&s| self.boards[s].alive).fold(0u8, |m, s| m | 1 << s);
        if alive.count_ones() <= 1 {
            // The lowest live seat (none: nobody wins).
            let first = alive & alive.wrapping_neg();
            return self.finish(rules, Some((first, "last standing")), sink, out);
        }
        let seat = usize::from(self.seat);
        self.seat = (1..=n).map(|k| (seat + k) % n).find(|&s| self.boards[s].alive).unwrap_or(seat) as u8;
        self.next_turn(rules, sink, out)
    }

    /// Ends the game: the winners (none at the turn cap), scores and measures.
    pub(super) fn finish(
        &mut self,
        rules: &Rules,
        end: Option<(u8, &'static str)>,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Step {
        let n = rules.players;
        self.phase = Phase::Over;
        out.length = self.game_turn;
        let (winners, why) = end.unwrap_or((0, "turn cap"));
        out.health.capped = end.is_none();
        self.winners = winners;
        sink.event(Event::End { winners, why });
        let k = winners.count_ones();
        for s in 0..n {
            let r = &mut out.seats[s];
            r.sums[MILL] = i64::from(self.boards[s].mill);
            r.sums[WIPES] = i64::from(self.wipes);
            r.sums[REMOVED] = self.n_removed as i64;
            if winners == 0 {
                r.count(CAPPED);
            }
            if why == "mill counters" {
                r.count(MILL_END);
            }
            if winners >> s & 1 == 1 {
                r.share_units = SHARE_UNIT / k;
            }
            if k == 1 {
                r.score = if winners >> s & 1 == 1 { n as i64 - 1 } else { -1 };
            }
            // Flood: a quarter or more of turns 5+ drew a land with 5+ lands in play.
            let (late, hits) = self.flood[s];
            if late > 0 && 4 * hits >= late {
                r.count(FLOODED);
            }
        }
        Ok(())
    }

    /// Asks `bot` for the decision of the seat to move, from that seat's view; a choice
    /// the rules do not allow is [`Error::IllegalAction`].
    #[inline]
    pub fn ask_bot<B: Bot + ?Sized>(&self, rules: &Rules, bot: &mut B, rng: &mut BotRng) -> Result<Move, Error> {
        let bad = |bot: &B, seat: usize, action: String| Err(illegal(bot, seat, action));
        match self.phase {
            Phase::OpeningDiscard(s) | Phase::DrawDiscard(s) => {
                let s = usize::from(s);
                let index = bot.discard(&self.view(rules, s), rng);
                let size = self.boards[s].hand_size;
                if index >= size {
                    return bad(bot, s, format!("discarded hand card {index} of {size}"));
                }
                Ok(Move::Discard(index as u8))
            }
            Phase::EndDiscard(s) => {
                let s = usize::from(s);
                let index = bot.discard(&self.view(rules, s), rng);
                if index >= self.boards[s].hand_size {
                    return bad(bot, s, format!("discarded hand card {index}"));
                }
                Ok(Move::Discard(index as u8))
            }
            Phase::Mulligan(s) => {
                let s = usize::from(s);
                let Some((i, j)) = bot.mulligan(&self.view(rules, s), rng) else { return Ok(Move::Mulligan(None)) };
                let size = self.boards[s].hand_size;
                if i == j || i >= size || j >= size {
                    return bad(bot, s, format!("exchanged hand cards {i} and {j} of {size}"));
                }
                Ok(Move::Mulligan(Some((i as u8, j as u8))))
            }
            Phase::Pick(s) => {
                let s = usize::from(s);
                let pick = bot.pick(&self.view(rules, s), rng);
                if pick.index >= self.n_row || self.row[pick.index] == NO_CARD {
                    return bad(bot, s, format!("picked row slot {}, which holds no card", pick.index));
                }
                Ok(Move::Pick(pick))
            }
            Phase::TakeTop(s) => Ok(Move::TakeTop(bot.take_discard(&self.view(rules, usize::from(s)), rng))),
            Phase::Land(s) => {
                let s = usize::from(s);
                let choice = bot.land(&self.view(rules, s), rng);
                if let Some(i) = choice
                    && (i >= self.boards[s].hand_size || !self.cards[usize::from(self.hands[s][i])].is_land())
                {
                    return bad(bot, s, format!("played hand card {i} as a land"));
                }
                Ok(Move::Land(choice.map(|i| i as u8)))
            }
            Phase::Cast(s) => {
                let s = usize::from(s);
                let view = self.view(rules, s);
                let choice = bot.cast(&view, rng);
                if let Some(i) = choice
                    && (i >= view.hand.len() || !view.castable(view.hand[i]))
                {
                    return bad(bot, s, format!("cast hand card {i}, which it cannot pay for"));
                }
                Ok(Move::Cast(choice.map(|i| i as u8)))
            }
            Phase::Target(s) => {
                let s = usize::from(s);
                let defender = bot.target(&self.view(rules, s), rng);
                if defender == s || defender >= rules.players || !self.boards[defender].alive {
                    return bad(bot, s, format!("attacked seat {defender}"));
                }
                Ok(Move::Target(defender as u8))
            }
            Phase::Attack(s) => {
                let s = usize::from(s);
                let attackers = bot.attack(&self.view(rules, s), usize::from(self.defender), rng);
                if attackers & !self.boards[s].ready() != 0 {
                    return bad(bot, s, "attacked with a creature that cannot attack".into());
                }
                Ok(Move::Attack(attackers))
            }
            Phase::Block(d) => {
                let d = usize::from(d);
                let mut blocks = [NO_CARD; MAX_PERMANENTS];
                bot.block(&self.view(rules, d), usize::from(self.seat), self.attackers, rng, &mut blocks);
                let (a, board) = (&self.boards[usize::from(self.seat)], &self.boards[d]);
                let mut used = 0u64;
                for (slot, &b) in blocks.iter().enumerate().take(a.n_creatures) {
                    if self.attackers >> slot & 1 == 0 || b == NO_CARD {
                        continue;
                    }
                    let b = usize::from(b);
                    if b >= board.n_creatures || used >> b & 1 == 1 || board.tapped >> b & 1 == 1 {
                        return bad(
                            bot,
                            d,
                            format!("blocked with creature slot {b}: twice, tapped or past its creatures"),
                        );
                    }
                    used |= 1 << b;
                }
                Ok(Move::Block(blocks))
            }
            Phase::Over => Err(Error::Invariant("a bot was asked to move in a finished game".into())),
        }
    }

    /// Applies the decision of the seat to move (checked by [`State::ask_bot`], or one of
    /// [`Forward::legal`]), then everything up to the next decision.
    #[inline]
    pub fn step(&mut self, rules: &Rules, m: Move, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        match (self.phase, m) {
            (Phase::OpeningDiscard(s), Move::Discard(i)) => {
                let s = usize::from(s);
                self.discard[self.chosen] = self.take_from_hand(s, usize::from(i));
                self.chosen += 1;
                self.pending[s] += 1;
                self.opening_discard_next(rules, sink, out)
            }
            (Phase::DrawDiscard(s), Move::Discard(i)) => {
                let s = usize::from(s);
                let card = self.take_from_hand(s, usize::from(i));
                self.discard[self.n_discard] = card;
                self.n_discard += 1;
                sink.event(Event::Discard { seat: s, card, to: "discard pile" });
                let lands = usize::from(self.draw_lands);
                self.after_draw(rules, s, Drawn::Cards(lands), sink, out)
            }
            (Phase::EndDiscard(s), Move::Discard(i)) => {
                let s = usize::from(s);
                let card = self.take_from_hand(s, usize::from(i));
                let b = &mut self.boards[s];
                b.graveyard[b.n_graveyard] = card;
                b.n_graveyard += 1;
                sink.event(Event::Discard { seat: s, card, to: "graveyard" });
                self.end_discards(rules, sink, out)
            }
            (Phase::Mulligan(_), Move::Mulligan(None)) => {
                self.seat += 1;
                self.mulligans_done = 0;
                self.mulligan_next(rules, sink, out)
            }
            (Phase::Mulligan(s), Move::Mulligan(Some((i, j)))) => {
                let s = usize::from(s);
                let (hi, lo) = (i.max(j), i.min(j));
                for index in [hi, lo] {
                    let card = self.take_from_hand(s, usize::from(index));
                    self.remove_from_game(card);
                    sink.event(Event::Discard { seat: s, card, to: "removed" });
                }
                out.seats[s].counters[MULLIGANED] = 1;
                self.begin_draw(rules, s, DrawFor::Mulligan, sink, out)
            }
            (Phase::Pick(s), Move::Pick(pick)) => self.take_from_row(rules, usize::from(s), pick, sink, out),
            (Phase::TakeTop(s), Move::TakeTop(true)) => self.take_top(rules, usize::from(s), sink, out),
            (Phase::TakeTop(s), Move::TakeTop(false)) => {
                self.draw_two(rules, usize::from(s), sink, out);
                Ok(())
            }
            (Phase::Land(s), Move::Land(choice)) => {
                let s = usize::from(s);
                if let Some(i) = choice
                    && self.boards[s].n_lands < MAX_PERMANENTS
                {
                    let card = self.take_from_hand(s, usize::from(i));
                    let colour = usize::from(self.cards[usize::from(card)].colour);
                    let b = &mut self.boards[s];
                    b.land_ids[b.n_lands] = card;
                    b.n_lands += 1;
                    b.lands[colour] += 1;
                    self.untapped[colour] += 1;
                    out.seats[s].sums[LANDS_PLAYED] += 1;
                    sink.event(Event::Land { seat: s, card });
                }
                self.phase = Phase::Cast(s as u8);
                Ok(())
            }
            (Phase::Cast(s), Move::Cast(Some(i))) => {
                let s = usize::from(s);
                if self.boards[s].n_creatures >= MAX_PERMANENTS {
                    return self.combat_or_end(rules, sink, out);
                }
                let card = self.take_from_hand(s, usize::from(i));
                let c = self.cards[usize::from(card)];
                tap(&mut self.untapped, usize::from(c.colour), c.cost);
                let b = &mut self.boards[s];
                b.creatures[b.n_creatures] = card;
                b.sick |= 1 << b.n_creatures;
                b.n_creatures += 1;
                out.seats[s].sums[CAST] += 1;
                sink.event(Event::Cast { seat: s, card });
                Ok(())
            }
            (Phase::Cast(_), Move::Cast(None)) => self.combat_or_end(rules, sink, out),
            (Phase::Target(s), Move::Target(d)) => {
                self.defender = d;
                self.phase = Phase::Attack(s);
                Ok(())
            }
            (Phase::Attack(s), Move::Attack(attackers)) => {
                if attackers == 0 {
                    return self.end_discards(rules, sink, out);
                }
                let (s, defender) = (usize::from(s), usize::from(self.defender));
                sink.event(Event::Attack { seat: s, defender, attackers: attackers.count_ones() as usize });
                if !rules.vigilance {
                    self.boards[s].tapped |= attackers;
                }
                self.attackers = attackers;
                self.phase = Phase::Block(self.defender);
                Ok(())
            }
            (Phase::Block(d), Move::Block(blocks)) => {
                self.combat(usize::from(self.seat), usize::from(d), &blocks, sink, out);
                self.end_discards(rules, sink, out)
            }
            (phase, m) => Err(Error::Invariant(format!("{m:?} does not answer {phase:?}"))),
        }
    }

    /// Combat damage: `seat`'s attackers against `defender`'s blocks.
    pub(super) fn combat(
        &mut self,
        seat: usize,
        defender: usize,
        blocks: &Blocks,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) {
        let attackers = self.attackers;
        let (a, d) = (&self.boards[seat], &self.boards[defender]);
        let mut dead_a = 0u64;
        let mut dead_d = 0u64;
        let mut damage = 0i32;
        for (slot, &b) in blocks.iter().enumerate().take(a.n_creatures) {
            if attackers >> slot & 1 == 0 {
                continue;
            }
            let ac = self.cards[usize::from(a.creatures[slot])];
            if b == NO_CARD {
                damage += i32::from(ac.power);
                continue;
            }
            let b = usize::from(b);
            let bc = self.cards[usize::from(d.creatures[b])];
            sink.event(Event::Block { attacker: a.creatures[slot], blocker: d.creatures[b] });
            if ac.power >= bc.toughness {
                dead_d |= 1 << b;
            }
            if bc.power >= ac.toughness {
                dead_a |= 1 << slot;
            }
        }
        bury(self, seat, dead_a, sink);
        bury(self, defender, dead_d, sink);
        if damage > 0 {
            let d = &mut self.boards[defender];
            d.life -= damage;
            out.seats[seat].sums[DAMAGE] += i64::from(damage);
            sink.event(Event::Damage { seat: defender, amount: damage, life: d.life });
            if d.life <= 0 {
                d.alive = false;
            }
        }
    }
}

/// Under mill counters, the ending when a draw finds nothing: the fewest counters win.
pub(super) fn ran_dry(rules: &Rules, t: &State) -> Option<(u8, &'static str)> {
    if !rules.mill_counters {
        return None;
    }
    let alive = (0..rules.players).filter(|&s| t.boards[s].alive);
    let fewest = alive.clone().map(|s| t.boards[s].mill).min()?;
    let winners = alive.filter(|&s| t.boards[s].mill == fewest).fold(0u8, |m, s| m | 1 << s);
    Some((winners, "mill counters"))
}

/// Card analytics identities: colour x cost x role, ids `colour * 19 + kind` where kind 0
/// is a land and `1 + (cost - 1) * 3 + role` a creature (role 0: power above toughness,
/// an attacker; 1: below, a blocker; 2: even).
pub fn card_identity(card: Card) -> u16 {
    let kind = if card.is_land() {
        0
    } else {
        let role = match card.power.cmp(&card.toughness) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => 2,
        };
        1 + (u16::from(card.cost.clamp(1, 6)) - 1) * 3 + role
    };
    u16::from(card.colour) * IDENTITIES_PER_COLOUR + kind
}

/// Card identities per colour: a land and 6 costs x 3 roles.
pub const IDENTITIES_PER_COLOUR: u16 = 19;

/// Logs the row a seat chooses from, at its next pick.
#[cold]
#[inline(never)]
pub(super) fn log_row(log: &mut CardLog, t: &State, seat: usize) {
    for &c in t.row[..t.n_row].iter().filter(|&&c| c != NO_CARD) {
        log.seen(seat, card_identity(t.cards[usize::from(c)]), t.drawn[seat] + 1);
    }
}

/// Logs a card entering `seat`'s hand as its next pick: taken, and so held this game; a
/// card drawn unseen (`blind`) is logged as seen as it is taken.
#[cold]
#[inline(never)]
pub(super) fn log_draw(log: &mut CardLog, t: &mut State, seat: usize, card: u8, blind: bool) {
    t.drawn[seat] += 1;
    let id = card_identity(t.cards[usize::from(card)]);
    if blind {
        log.seen(seat, id, t.drawn[seat]);
    }
    log.taken(seat, id, t.drawn[seat]);
    log.kept(seat, id);
}

/// Taps lands for a creature of `colour` and `cost`: one of its colour, the rest from the
/// colours with the most untapped lands.
pub(super) fn tap(untapped: &mut [u8; COLOURS], colour: usize, cost: u8) {
    untapped[colour] -= 1;
    for _ in 1..cost {
        let most = (0..COLOURS).max_by_key(|&c| (untapped[c], std::cmp::Reverse(c))).expect("colours");
        untapped[most] -= 1;
    }
}
/// Moves the creatures in `dead` (slot bits) to their controller's graveyard, compacting
/// the slots (and their summoning sickness and tapping).
pub(super) fn bury(t: &mut State, seat: usize, dead: u64, sink: &mut impl Sink) {
    if dead == 0 {
        return;
    }
    let b = &mut t.boards[seat];
    let (mut kept, mut sick, mut tapped) = (0, 0u64, 0u64);
    for slot in 0..b.n_creatures {
        let card = b.creatures[slot];
        if dead >> slot & 1 == 1 {
            b.graveyard[b.n_graveyard] = card;
            b.n_graveyard += 1;
            sink.event(Event::Dies { seat, card });
        } else {
            b.creatures[kept] = card;
            sick |= (b.sick >> slot & 1) << kept;
            tapped |= (b.tapped >> slot & 1) << kept;
            kept += 1;
        }
    }
    b.n_creatures = kept;
    b.sick = sick;
    b.tapped = tapped;
}
