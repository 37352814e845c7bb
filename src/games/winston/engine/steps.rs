//! The rules' steps: the Winston draft, deck building, Crazier Eights games and the match, and the heuristic bots' driver.

use super::*;

impl State {
    /// Where the match stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Starts a match with this deal seed: shuffles the stack (the removed cards are its
    /// last ones) and plays up to the first decision.
    pub fn reset(&mut self, variant: &Variant, deal: Deal, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        let (rules, pool) = (&variant.rules, &variant.pool);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix_seed(deal.seed, 0, STACK_STREAM));
        let mut order = [0u8; MAX_CARDS];
        for (i, slot) in order[..pool.size].iter_mut().enumerate() {
            *slot = i as u8;
        }
        shuffle(&mut order[..pool.size], &mut rng);
        let kept = pool.size - rules.removed;
        self.removed = order[kept..pool.size].iter().fold(0, |m, &id| m | bit(id));
        self.stack[..kept].copy_from_slice(&order[..kept]);
        self.stack_len = kept;
        self.stack_dealt = kept;
        self.start_stacked(rules, pool, deal.seed, sink, out)
    }

    /// Starts a match from the stack already in place (shuffled by the unit's start, or set
    /// by a scripted test) and plays up to the first decision.
    pub(super) fn start_stacked(
        &mut self,
        rules: &Rules,
        pool: &Pool,
        deal_seed: u64,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Step {
        self.deal_seed = deal_seed;
        self.begin_draft();
        self.run(rules, pool, Stage::DraftTurn, sink, out)
    }

    /// Lays out the three piles from the stack; seat 0 drafts first.
    pub(super) fn begin_draft(&mut self) {
        self.pools = [0; 2];
        self.known = [[0; 3]; 2];
        self.opponent_took = [0; 2];
        self.opponent_passed = [0; 2];
        self.decks = [0; 2];
        self.shown = [0; 2];
        self.piles = [0; 3];
        for pile in &mut self.piles {
            if self.stack_len > 0 {
                self.stack_len -= 1;
                *pile = bit(self.stack[self.stack_len]);
            }
        }
        self.stack_start = self.stack_len;
        self.draft_seat = 0;
        self.draft_turns = [0; 2];
    }

    /// Runs the chance and bookkeeping steps from `next` up to the next decision or the end.
    #[inline(always)]
    pub(super) fn run(
        &mut self,
        rules: &Rules,
        pool: &Pool,
        mut next: Stage,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Step {
        loop {
            next = match next {
                Stage::Decide => return Ok(()),
                Stage::DraftTurn => {
                    if self.stack_len > 0 || self.piles.iter().any(|&p| p != 0) {
                        self.draft_turns[self.draft_seat] += 1;
                        Stage::Look(0)
                    } else {
                        self.finish_draft(pool, out);
                        self.phase = Phase::Build(0);
                        Stage::Decide
                    }
                }
                Stage::Look(from) => self.look(rules, pool, from, sink, out),
                Stage::EndDraftTurn => {
                    if self.verify {
                        self.check_draft(pool)?;
                    }
                    self.draft_seat = 1 - self.draft_seat;
                    Stage::DraftTurn
                }
                Stage::StartMatch => self.start_match(rules, out),
                Stage::StartGame => self.start_game(rules, pool, sink)?,
                Stage::StartTurn => self.start_turn(rules, sink),
                Stage::ClassicDraw => self.classic_draw(pool, sink),
                Stage::NextDiscard(k) => self.next_discard(pool, k),
                Stage::EndTurn(won, again) => {
                    if self.verify {
                        self.check_game()?;
                    }
                    if self.one_turn {
                        self.turn_result = (won, again);
                        self.phase = Phase::Over;
                        return Ok(());
                    }
                    if won {
                        Stage::EndGame(Some(self.turn_seat), self.game_turns)
                    } else {
                        if !again {
                            self.turn_seat = 1 - self.turn_seat;
                        }
                        Stage::StartTurn
                    }
                }
                Stage::EndGame(winner, turns) => {
                    sink.event(Event::GameEnd { winner, turns });
                    // The match's last game decides whether a cap ended it.
                    out.health.capped = winner.is_none() && turns >= rules.max_turns;
                    self.match_turns += turns;
                    if let Some(w) = winner {
                        self.wins[w] += 1;
                    }
                    self.starter = next_starter(rules.later_starter, self.starter, winner);
                    if self.wins.contains(&(rules.games / 2 + 1)) || self.game + 1 >= rules.games {
                        Stage::FinishMatch
                    } else {
                        self.game += 1;
                        Stage::StartGame
                    }
                }
                Stage::FinishMatch => {
                    self.finish_match(out);
                    return Ok(());
                }
            };
        }
    }

    /// The draft seat looks at the piles from `from` on: the first non-empty one asks for a
    /// decision (or, with the stack empty and no passing, is taken unasked); with every pile
    /// rejected, the stack's top card is taken blind.
    #[inline(always)]
    pub(super) fn look(
        &mut self,
        rules: &Rules,
        pool: &Pool,
        from: usize,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Stage {
        let seat = self.draft_seat;
        let turn = self.draft_turns[seat];
        for i in from..3 {
            let cards = self.piles[i];
            if cards == 0 {
                continue;
            }
            self.known[seat][i] = cards;
            sink.event(Event::Look { seat, pile: i, cards });
            if out.cards.on() {
                log_cards(&mut out.cards, pool, seat, cards, turn, false);
            }
            if self.stack_len == 0 && !rules.pass_when_empty {
                // No choice at all: the first pile looked at is taken unasked.
                if out.cards.on() {
                    log_taken(&mut out.cards, pool, seat, cards, turn);
                }
                self.take_pile(seat, i, false, true, sink, out);
                return Stage::EndDraftTurn;
            }
            self.phase = Phase::Draft { seat: seat as u8, pile: i as u8 };
            return Stage::Decide;
        }
        if let Some(card) = self.pop_stack() {
            self.pools[seat] |= bit(card);
            if out.cards.on() {
                log_cards(&mut out.cards, pool, seat, bit(card), turn, true);
            }
            out.seats[seat].sums[BLIND_TAKES] += 1;
            sink.event(Event::Blind { seat, card, last: false });
        }
        Stage::EndDraftTurn
    }

    /// With the stack empty, the last non-empty pile cannot be put back: a pass of it takes
    /// it (forced). Taking it is still the player's own choice.
    #[inline(always)]
    pub(super) fn last_pile(&self, pile: usize) -> bool {
        self.stack_len == 0 && !self.piles[pile + 1..].iter().any(|&p| p != 0)
    }

    /// Applies a draft choice of the seat looking at `pile`.
    #[inline(always)]
    pub(super) fn draft_move(
        &mut self,
        pool: &Pool,
        pile: usize,
        choice: DraftChoice,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Stage {
        let seat = self.draft_seat;
        let other = 1 - seat;
        let turn = self.draft_turns[seat];
        let cards = self.piles[pile];
        match choice {
            DraftChoice::TakeLastCard => {
                // The opponent sees this pile rejected; the card is unseen.
                self.opponent_passed[other] |= self.known[other][pile];
                let card = self.pop_stack().expect("one card left");
                self.pools[seat] |= bit(card);
                if out.cards.on() {
                    log_cards(&mut out.cards, pool, seat, bit(card), turn, true);
                }
                out.seats[seat].count(LAST_CARD_TAKES);
                sink.event(Event::Blind { seat, card, last: true });
                Stage::EndDraftTurn
            }
            DraftChoice::Pass if self.last_pile(pile) => {
                if out.cards.on() {
                    log_taken(&mut out.cards, pool, seat, cards, turn);
                }
                self.take_pile(seat, pile, false, true, sink, out);
                Stage::EndDraftTurn
            }
            DraftChoice::Take { deny } => {
                if out.cards.on() {
                    log_taken(&mut out.cards, pool, seat, cards, turn);
                }
                self.take_pile(seat, pile, deny, false, sink, out);
                Stage::EndDraftTurn
            }
            DraftChoice::Pass => {
                self.opponent_passed[other] |= self.known[other][pile];
                sink.event(Event::Pass { seat, pile });
                if let Some(card) = self.pop_stack() {
                    self.piles[pile] |= bit(card);
                }
                Stage::Look(pile + 1)
            }
        }
    }

    /// Draws the stack's top card, if any.
    #[inline(always)]
    pub(super) fn pop_stack(&mut self) -> Option<u8> {
        if self.stack_len == 0 {
            return None;
        }
        self.stack_len -= 1;
        Some(self.stack[self.stack_len])
    }

    #[inline(always)]
    pub(super) fn take_pile(
        &mut self,
        seat: usize,
        i: usize,
        deny: bool,
        forced: bool,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) {
        let other = 1 - seat;
        let cards = self.piles[i];
        sink.event(Event::Take { seat, pile: i, cards, deny, forced });
        self.pools[seat] |= cards;
        self.opponent_took[other] |= self.known[other][i];
        self.opponent_passed[other] &= !cards;
        self.opponent_passed[seat] &= !cards;
        self.known[0][i] = 0;
        self.known[1][i] = 0;
        self.piles[i] = self.pop_stack().map_or(0, bit);
        let r = &mut out.seats[seat];
        r.sums[PILES] += 1;
        if deny {
            r.sums[HATE_TAKES] += 1;
        }
        r.observe(PILE_SIZES, count(cards).min(PILE_BINS) - 1);
    }

    /// Records what each seat drafted.
    pub(super) fn finish_draft(&self, pool: &Pool, out: &mut RoundResult) {
        for s in 0..2 {
            let own = self.pools[s];
            let r = &mut out.seats[s];
            r.sums[POOL_SIZE] = count(own) as i64;
            r.sums[EIGHTS] = count(own & pool.eights) as i64;
            r.sums[MULTI] = count(own & pool.multi) as i64;
            for c in 0..pool.n_colours() {
                r.observe_n(COLOURS_DRAFTED, c, count(own & pool.by_colour[c] & !pool.multi) as u32);
            }
            r.observe_n(COLOURS_DRAFTED, pool.n_colours(), count(own & pool.multi) as u32);
        }
    }

    /// Why a deck breaks the colour rule, if it does.
    pub(super) fn build_fault(rules: &Rules, pool: &Pool, own: Cards, colours: u8, deck: Cards) -> Option<String> {
        let all_colours = (1u16 << pool.n_colours()) - 1;
        if colours.count_ones() as usize > rules.max_colours || u16::from(colours) & !all_colours != 0 {
            return Some(format!("built with colours {colours:#b}, more than max_colours"));
        }
        let usable = pool.usable(rules, own, colours);
        let size = count(usable).min(rules.deck_size);
        if deck & !usable != 0 || count(deck) != size {
            return Some(format!(
                "built a deck of {} cards ({} usable, {} wanted) or with unusable cards",
                count(deck),
                count(usable),
                size
            ));
        }
        None
    }

    /// Applies `seat`'s deck: its colours and cards.
    pub(super) fn build_move(
        &mut self,
        rules: &Rules,
        pool: &Pool,
        seat: usize,
        (colours, deck): (u8, Cards),
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Stage {
        let own = self.pools[seat];
        let usable = pool.usable(rules, own, colours);
        self.decks[seat] = deck;
        if out.cards.on() {
            // The deck is what a seat plays with: a drafted card left out of it is not "in hand".
            for id in ids(deck) {
                out.cards.kept(seat, u16::from(pool.identity[usize::from(id)]));
            }
        }
        let short = count(usable) < rules.deck_size;
        let r = &mut out.seats[seat];
        r.sums[DECK_SIZE] = count(deck) as i64;
        r.observe(DECK_COLOURS, colours.count_ones() as usize);
        if short {
            r.count(SHORT_DECK);
        }
        sink.event(Event::Deck { seat, colours, cards: deck, short });
        if seat == 0 {
            self.phase = Phase::Build(1);
            Stage::Decide
        } else {
            Stage::StartMatch
        }
    }

    /// Chooses the first game's starter.
    pub(super) fn start_match(&mut self, rules: &Rules, out: &mut RoundResult) -> Stage {
        self.starter = match rules.starter {
            Starter::SecondDrafter => 1,
            Starter::FirstDrafter => 0,
            Starter::Random => (mix_seed(self.deal_seed, 0, STARTER_STREAM) & 1) as usize,
        };
        out.seats[self.starter].count(PLAYED_FIRST);
        self.first_starter = self.starter;
        self.match_turns = 0;
        self.wins = [0; 2];
        self.game = 0;
        Stage::StartGame
    }

    /// Shuffles each deck from (deal seed, game, seat), deals the hands and turns up the
    /// tops.
    pub(super) fn start_game(&mut self, rules: &Rules, pool: &Pool, sink: &mut impl Sink) -> Result<Stage, Error> {
        let game = self.game;
        sink.event(Event::GameStart { game, starter: self.starter });
        let deal_seed = self.deal_seed;
        self.rngs = std::array::from_fn(|s| {
            Xoshiro256PlusPlus::seed_from_u64(mix_seed(deal_seed, (game * 2 + s) as u64, DECK_STREAM))
        });
        self.peeked = [(NO_CARD, NO_CARD); 2];
        for s in 0..2 {
            let side = &mut self.sides[s];
            *side = Side::default();
            for id in ids(self.decks[s]) {
                side.deck[side.deck_len] = id;
                side.deck_len += 1;
            }
            shuffle(&mut side.deck[..side.deck_len], &mut self.rngs[s]);
            for _ in 0..rules.hand_size {
                if side.deck_len == 0 {
                    break;
                }
                side.deck_len -= 1;
                side.hand |= bit(side.deck[side.deck_len]);
            }
            if side.deck_len > 0 {
                side.deck_len -= 1;
                let top = side.deck[side.deck_len];
                set_top(pool, side, top, None);
                self.shown[s] |= bit(top);
            }
            sink.event(Event::Opening { seat: s, hand: side.hand, top: side.top });
        }
        if self.verify {
            self.check_game()?;
        }
        // An empty deck (no usable cards) cannot play: it loses, or both empty draw.
        Ok(match (self.decks[0] == 0, self.decks[1] == 0) {
            (false, false) => {
                self.turn_seat = self.starter;
                self.game_turns = 0;
                Stage::StartTurn
            }
            (true, true) => Stage::EndGame(None, 0),
            (empty0, _) => Stage::EndGame(Some(usize::from(empty0)), 0),
        })
    }

    /// Starts the next turn (or ends the game at the turn cap): the draw, then the play.
    #[inline(always)]
    pub(super) fn start_turn(&mut self, rules: &Rules, sink: &mut impl Sink) -> Stage {
        if self.game_turns >= rules.max_turns {
            return Stage::EndGame(None, self.game_turns);
        }
        self.game_turns += 1;
        if rules.classic {
            return Stage::ClassicDraw;
        }
        let seat = self.turn_seat;
        self.draw(seat, sink);
        self.discards = 1;
        self.again = false;
        self.phase = Phase::Play(seat as u8);
        Stage::Decide
    }

    /// Classic: draws until a card matches (then the seat discards) or nothing is left.
    #[inline(always)]
    pub(super) fn classic_draw(&mut self, pool: &Pool, sink: &mut impl Sink) -> Stage {
        let seat = self.turn_seat;
        loop {
            if playable(pool, &self.sides[seat]) != 0 {
                self.phase = Phase::Discard(seat as u8);
                return Stage::Decide;
            }
            if self.draw(seat, sink).is_none() {
                return Stage::EndTurn(false, false);
            }
        }
    }

    /// Draws one card for `seat`, reshuffling its discards (all but the top) when the deck
    /// is empty; `None` when there is nothing to draw.
    #[inline(always)]
    pub(super) fn draw(&mut self, seat: usize, sink: &mut impl Sink) -> Option<u8> {
        let card = draw(&mut self.sides[seat], &mut self.rngs[seat], seat, sink)?;
        let known = &mut self.peeked[seat];
        if known.0 == card {
            known.0 = NO_CARD;
        }
        if known.1 == card {
            known.1 = NO_CARD;
        }
        Some(card)
    }

    /// Applies the play step.
    #[inline(always)]
    pub(super) fn play_move(
        &mut self,
        pool: &Pool,
        played: Option<u8>,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Stage {
        let seat = self.turn_seat;
        let Some(card) = played else { return Stage::NextDiscard(0) };
        let side = &mut self.sides[seat];
        side.hand &= !bit(card);
        side.under |= bit(card);
        self.shown[seat] |= bit(card);
        sink.event(Event::Play { seat, card });
        if side.hand == 0 {
            return Stage::EndTurn(true, false);
        }
        if let Some(ability) = pool.ability[usize::from(card)] {
            out.seats[seat].sums[ABILITY_PLAYS] += 1;
            match ability {
                Ability::OpponentDraws => {
                    self.draw(1 - seat, sink);
                }
                Ability::ExtraTurn => self.again = true,
                Ability::ExtraDiscard => self.discards = 2,
                Ability::Peek => {
                    let side = &self.sides[seat];
                    if side.deck_len > 0 {
                        self.peeked[seat].0 = side.deck[side.deck_len - 1];
                        self.phase = Phase::Peek(seat as u8);
                        return Stage::Decide;
                    }
                }
            }
        }
        Stage::NextDiscard(0)
    }

    /// Applies the choice after a peek.
    #[inline(always)]
    pub(super) fn keep_move(&mut self, kept: bool, sink: &mut impl Sink) -> Stage {
        let seat = self.turn_seat;
        let side = &mut self.sides[seat];
        let top = side.deck[side.deck_len - 1];
        if !kept {
            side.deck[..side.deck_len].rotate_right(1);
            self.peeked[seat] = (NO_CARD, top);
        }
        sink.event(Event::Peek { seat, card: top, kept });
        Stage::NextDiscard(0)
    }

    /// Asks for the discard with index `k` when one is allowed and a card matches.
    #[inline(always)]
    pub(super) fn next_discard(&mut self, pool: &Pool, k: u8) -> Stage {
        let seat = self.turn_seat;
        if k >= self.discards || playable(pool, &self.sides[seat]) == 0 {
            return Stage::EndTurn(false, self.again);
        }
        self.discard_at = k;
        self.phase = Phase::Discard(seat as u8);
        Stage::Decide
    }

    /// Applies a discard (or, for an extra discard, the choice to stop).
    #[inline(always)]
    pub(super) fn discard_move(
        &mut self,
        rules: &Rules,
        pool: &Pool,
        choice: Option<(u8, usize)>,
        sink: &mut impl Sink,
    ) -> Stage {
        let seat = self.turn_seat;
        let Some((card, colour)) = choice else { return Stage::EndTurn(false, self.again) };
        let wild = pool.wild & bit(card) != 0;
        let side = &mut self.sides[seat];
        side.hand &= !bit(card);
        if side.top != NO_CARD {
            side.under |= bit(side.top);
        }
        let named = wild.then_some(colour);
        set_top(pool, side, card, named);
        self.shown[seat] |= bit(card);
        sink.event(Event::Discard { seat, card, named });
        let won = side.hand == 0;
        if rules.classic || won { Stage::EndTurn(won, false) } else { Stage::NextDiscard(self.discard_at + 1) }
    }

    /// Ends the match: +1 and -1, or a draw.
    pub(super) fn finish_match(&mut self, out: &mut RoundResult) {
        self.phase = Phase::Over;
        out.length = self.match_turns;
        let winner = match self.wins[0].cmp(&self.wins[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        match winner {
            Some(w) => {
                out.seats[w].share_units = SHARE_UNIT;
                out.seats[w].score = 1;
                out.seats[1 - w].score = -1;
                if w == self.first_starter {
                    out.seats[w].count(WON_PLAYING_FIRST);
                }
            }
            None => {
                out.seats[0].count(DRAWN);
                out.seats[1].count(DRAWN);
            }
        }
    }

    /// What the seat whose turn it is sees of the game.
    pub(super) fn play_view<'a>(&self, rules: &'a Rules, pool: &'a Pool, seat: usize) -> PlayView<'a> {
        let side = &self.sides[seat];
        let other = &self.sides[1 - seat];
        PlayView {
            rules,
            pool,
            hand: side.hand,
            top: side.top,
            colours: if side.top == NO_CARD { u8::MAX } else { side.colours },
            rank: side.rank,
            playable: playable(pool, side),
            deck: side.deck_len,
            deck_list: self.decks[seat],
            opponent_hand: count(other.hand),
            opponent_top: other.top,
        }
    }

    /// What `seat` sees looking at pile `i`.
    #[inline]
    pub(super) fn draft_view<'a>(&self, rules: &'a Rules, pool: &'a Pool, seat: usize, i: usize) -> DraftView<'a> {
        DraftView {
            rules,
            pool,
            own: self.pools[seat],
            pile: i,
            cards: self.piles[i],
            known: self.known[seat],
            sizes: self.piles.map(count),
            stack: self.stack_len,
            stack_start: self.stack_start,
            opponent_size: count(self.pools[1 - seat]),
            opponent_took: self.opponent_took[seat],
            opponent_passed: self.opponent_passed[seat],
        }
    }

    /// Asks `bot` for the seat to move's decision, from its view; a move the rules do not
    /// allow is [`Error::IllegalAction`].
    #[inline(always)]
    pub fn ask_bot<B: Bot + ?Sized>(&self, variant: &Variant, bot: &mut B, rng: &mut BotRng) -> Result<Move, Error> {
        let (rules, pool) = (&variant.rules, &variant.pool);
        match self.phase {
            Phase::Draft { seat, pile } => {
                let seat = usize::from(seat);
                let choice = bot.draft(&self.draft_view(rules, pool, seat, usize::from(pile)), rng);
                if choice == DraftChoice::TakeLastCard && !(rules.last_card_rule && self.stack_len == 1) {
                    return Err(illegal(
                        bot,
                        seat,
                        "took the stack's last card when the rule does not allow it".into(),
                    ));
                }
                Ok(Move::Draft(choice))
            }
            Phase::Build(seat) => {
                let seat = usize::from(seat);
                let own = self.pools[seat];
                let (colours, deck) = bot.build(&BuildView { rules, pool, own }, rng);
                if let Some(fault) = Self::build_fault(rules, pool, own, colours, deck) {
                    return Err(illegal(bot, seat, fault));
                }
                Ok(Move::Build { colours, deck })
            }
            Phase::Play(seat) => {
                let seat = usize::from(seat);
                let v = self.play_view(rules, pool, seat);
                let played = bot.play(&v, rng);
                match played {
                    None if v.hand != 0 => Err(illegal(bot, seat, "skipped the play step with cards in hand".into())),
                    Some(card) if v.hand & bit(card) == 0 => {
                        Err(illegal(bot, seat, format!("played {}, which it does not hold", pool.card_name(card))))
                    }
                    _ => Ok(Move::Play(played)),
                }
            }
            Phase::Peek(seat) => {
                let seat = usize::from(seat);
                let side = &self.sides[seat];
                let top = side.deck[side.deck_len - 1];
                Ok(Move::Keep(bot.keep_peeked(&self.play_view(rules, pool, seat), top, rng)))
            }
            Phase::Discard(seat) => {
                let seat = usize::from(seat);
                let v = self.play_view(rules, pool, seat);
                let choice = bot.discard(&v, rng);
                let Some((card, colour)) = choice else {
                    if rules.classic {
                        return Err(illegal(bot, seat, "passed with a matching card in the classic game".into()));
                    }
                    // The turn's discard is owed when a card matches; an extra one is optional.
                    if self.discard_at == 0 {
                        return Err(illegal(bot, seat, "skipped the discard with a matching card".into()));
                    }
                    return Ok(Move::Discard(None));
                };
                if v.playable & bit(card) == 0 {
                    return Err(illegal(
                        bot,
                        seat,
                        format!("discarded {}, which does not match", pool.card_name(card)),
                    ));
                }
                if pool.wild & bit(card) != 0 && colour >= pool.n_colours() {
                    return Err(illegal(bot, seat, format!("named colour {colour}, which is not in play")));
                }
                Ok(Move::Discard(choice))
            }
            Phase::Over => Err(Error::Invariant("a bot was asked to move after the match ended".into())),
        }
    }

    /// Applies the seat to move's decision, then plays on to the next one.
    #[inline(always)]
    pub fn step(&mut self, variant: &Variant, m: Move, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        let (rules, pool) = (&variant.rules, &variant.pool);
        let next = match (self.phase, m) {
            (Phase::Draft { pile, .. }, Move::Draft(choice)) => {
                if choice == DraftChoice::TakeLastCard && !(rules.last_card_rule && self.stack_len == 1) {
                    return Err(Error::Invariant("the stack's last card taken against the rule".into()));
                }
                self.draft_move(pool, usize::from(pile), choice, sink, out)
            }
            (Phase::Build(seat), Move::Build { colours, deck }) => {
                let seat = usize::from(seat);
                if self.verify
                    && let Some(fault) = Self::build_fault(rules, pool, self.pools[seat], colours, deck)
                {
                    return Err(Error::Invariant(format!("seat {seat}: {fault}")));
                }
                self.build_move(rules, pool, seat, (colours, deck), sink, out)
            }
            (Phase::Play(_), Move::Play(played)) => self.play_move(pool, played, sink, out),
            (Phase::Peek(_), Move::Keep(kept)) => self.keep_move(kept, sink),
            (Phase::Discard(_), Move::Discard(choice)) => self.discard_move(rules, pool, choice, sink),
            (phase, m) => return Err(Error::Invariant(format!("move {m:?} does not fit phase {phase:?}"))),
        };
        self.run(rules, pool, next, sink, out)
    }
}

/// Who starts the game after one that `starter` began and `winner` won (none: drawn at
/// the turn cap, after which the other player starts, whatever the rule).
pub fn next_starter(rule: LaterStarter, starter: usize, winner: Option<usize>) -> usize {
    match (rule, winner) {
        (LaterStarter::Loser, Some(w)) => 1 - w,
        (LaterStarter::Winner, Some(w)) => w,
        (LaterStarter::Alternate, _) | (_, None) => 1 - starter,
    }
}

/// Logs cards for card analytics: seen at this turn, and also taken when `taken`.
/// A blind card is logged as seen and taken at once (the seat met it as it took it).
#[cold]
#[inline(never)]
pub(super) fn log_cards(log: &mut CardLog, pool: &Pool, seat: usize, cards: Cards, turn: usize, taken: bool) {
    for id in ids(cards) {
        log.seen(seat, u16::from(pool.identity[usize::from(id)]), turn);
    }
    if taken {
        log_taken(log, pool, seat, cards, turn);
    }
}

/// Logs cards taken at this turn for card analytics.
#[cold]
#[inline(never)]
pub(super) fn log_taken(log: &mut CardLog, pool: &Pool, seat: usize, cards: Cards, turn: usize) {
    for id in ids(cards) {
        log.taken(seat, u16::from(pool.identity[usize::from(id)]), turn);
    }
}

/// What a discard must match next after `card` (a wild card names `named`).
pub(super) fn set_top(pool: &Pool, side: &mut Side, card: u8, named: Option<usize>) {
    side.top = card;
    match named {
        Some(c) => {
            side.colours = 1 << c;
            side.rank = 0;
        }
        None => {
            side.colours = pool.colours[usize::from(card)];
            side.rank = pool.rank[usize::from(card)];
        }
    }
}

/// The cards of `hand` that may be discarded on `side`'s pile.
#[inline]
pub(super) fn playable(pool: &Pool, side: &Side) -> Cards {
    if side.top == NO_CARD {
        return side.hand;
    }
    let rank = if side.rank == 0 { 0 } else { pool.by_rank[usize::from(side.rank)] };
    side.hand & (pool.of_colours(side.colours) | rank | pool.wild)
}

/// Draws one card for `side`, reshuffling its discards (all but the top) when the deck is
/// empty; `None` when there is nothing to draw.
#[inline(always)]
pub(super) fn draw(side: &mut Side, rng: &mut Xoshiro256PlusPlus, seat: usize, sink: &mut impl Sink) -> Option<u8> {
    if side.deck_len == 0 {
        if side.under == 0 {
            return None;
        }
        for id in ids(side.under) {
            side.deck[side.deck_len] = id;
            side.deck_len += 1;
        }
        side.under = 0;
        shuffle(&mut side.deck[..side.deck_len], rng);
        sink.event(Event::Reshuffle { seat, cards: side.deck_len });
    }
    side.deck_len -= 1;
    let card = side.deck[side.deck_len];
    side.hand |= bit(card);
    sink.event(Event::Draw { seat, card });
    Some(card)
}

/// Deals `k` cards at random from `cards[*at..]` (a partial shuffle), moving `at` on.
pub(super) fn deal(cards: &mut [u8], at: &mut usize, k: usize, rng: &mut BotRng) -> Cards {
    let mut dealt = 0;
    for i in *at..(*at + k).min(cards.len()) {
        let j = i + rng.random_range(0..cards.len() - i);
        cards.swap(i, j);
        dealt |= bit(cards[i]);
    }
    *at = (*at + k).min(cards.len());
    dealt
}

/// The cards of a set, in a fixed-size buffer (no allocation).
pub(super) fn list(cards: Cards, buf: &mut [u8; MAX_CARDS]) -> usize {
    let mut n = 0;
    for id in ids(cards) {
        buf[n] = id;
        n += 1;
    }
    n
}

/// A deck list of `size` cards for a seat whose pool is `own`, holding every card `shown`
/// of it: the cards usable under a colour choice drawn at random among those that allow
/// every shown card and `size` cards.
pub(super) fn guess_deck(rules: &Rules, pool: &Pool, own: Cards, shown: Cards, size: usize, rng: &mut BotRng) -> Cards {
    let mut chosen = own;
    let mut fits = 0;
    for k in 1..=rules.max_colours.min(pool.n_colours()) {
        for colours in colour_sets(pool.n_colours(), k) {
            let usable = pool.usable(rules, own, colours);
            if usable & shown == shown && count(usable) >= size {
                fits += 1;
                if rng.random_range(0..fits) == 0 {
                    chosen = usable;
                }
            }
        }
    }
    let mut buf = [0u8; MAX_CARDS];
    let mut deck = shown;
    for from in [chosen & !shown, own & !chosen & !shown] {
        let n = list(from, &mut buf);
        let mut at = 0;
        deck |= deal(&mut buf[..n], &mut at, size.saturating_sub(count(deck)), rng);
    }
    deck
}
