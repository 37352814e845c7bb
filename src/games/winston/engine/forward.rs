//! The forward model: each seat's observation, determinization, move keys and results.

use super::*;

impl State {
    /// Whether the match is in a game of Crazier Eights (a play, peek or discard).
    pub(super) fn in_game(&self) -> bool {
        matches!(self.phase, Phase::Play(_) | Phase::Peek(_) | Phase::Discard(_))
    }

    /// What seat `seat` sees of side `s`.
    pub(super) fn side_seen(&self, seat: usize, s: usize) -> SideSeen {
        let side = &self.sides[s];
        let own = s == seat;
        SideSeen {
            hand: if own { side.hand } else { 0 },
            hand_size: count(side.hand),
            under: side.under,
            top: side.top,
            colours: side.colours,
            rank: side.rank,
            deck_len: side.deck_len,
            known_top: if own { self.peeked[s].0 } else { NO_CARD },
            known_bottom: if own { self.peeked[s].1 } else { NO_CARD },
        }
    }

    /// This state with every card `seat` has not seen dealt again at random among the
    /// places it could be (the unseen part of each pile, of the opponent's pool, the
    /// stack, the removed cards; in a game the opponent's hand and deck, and this seat's
    /// deck order), with new chance streams. Made from the truth, not from an observation:
    /// the leak test's second state.
    pub fn redeal(&self, _variant: &Variant, seat: usize, rng: &mut BotRng) -> State {
        let mut t = self.clone();
        let (o, p) = (seat, 1 - seat);
        let in_deck = if t.phase == Phase::Build(0) { 0 } else { t.decks[p] };
        let pool_fixed = t.opponent_took[o] | t.shown[p] | in_deck;
        let mut hidden = Vec::new();
        for i in 0..3 {
            hidden.extend(ids(t.piles[i] & !t.known[o][i]));
        }
        hidden.extend(ids(t.pools[p] & !pool_fixed));
        hidden.extend_from_slice(&t.stack[..t.stack_len]);
        hidden.extend(ids(t.removed));
        rand::seq::SliceRandom::shuffle(&mut hidden[..], rng);
        let mut next = hidden.into_iter();
        for i in 0..3 {
            let k = count(t.piles[i] & !t.known[o][i]);
            t.piles[i] = t.known[o][i] | next.by_ref().take(k).fold(0, |m, id| m | bit(id));
            if t.known[p][i] != 0 {
                t.known[p][i] = t.piles[i];
            }
        }
        let k = count(t.pools[p] & !pool_fixed);
        t.pools[p] = (t.pools[p] & pool_fixed) | next.by_ref().take(k).fold(0, |m, id| m | bit(id));
        for slot in &mut t.stack[..t.stack_len] {
            *slot = next.next().expect("as many cards as places");
        }
        t.removed = next.fold(0, |m, id| m | bit(id));
        if t.in_game() {
            let side = &mut t.sides[p];
            let mut cards: Vec<u8> = ids(side.hand).chain(side.deck[..side.deck_len].iter().copied()).collect();
            rand::seq::SliceRandom::shuffle(&mut cards[..], rng);
            let hand = count(side.hand);
            side.hand = cards[..hand].iter().fold(0, |m, &id| m | bit(id));
            side.deck[..side.deck_len].copy_from_slice(&cards[hand..]);
            // This seat's deck order, but for a card it knows from a peek.
            let (top, bottom) = t.peeked[o];
            let side = &mut t.sides[o];
            let len = side.deck_len;
            let lo = usize::from(bottom != NO_CARD && len > 0);
            let hi = len - usize::from(top != NO_CARD && len > lo);
            rand::seq::SliceRandom::shuffle(&mut side.deck[lo..hi], rng);
        }
        t.deal_seed = rng.next_u64();
        t.rngs = [Xoshiro256PlusPlus::seed_from_u64(rng.next_u64()), Xoshiro256PlusPlus::seed_from_u64(rng.next_u64())];
        t
    }
}

impl Forward for State {
    crate::forward_steps!(variant: Variant, moves: Move, bot: WinstonBot);

    /// Fewest cards left in hand.
    fn has_standing(_model: &Variant) -> bool {
        true
    }

    fn standing(&self, _model: &Variant, seat: usize) -> i64 {
        // Hands are dealt when play starts; before that the sides hold the last match's.
        match self.phase {
            Phase::Draft { .. } | Phase::Build(_) => 0,
            _ => -i64::from(self.sides[seat].hand.count_ones()),
        }
    }

    #[inline(always)]
    fn to_act(&self) -> Option<usize> {
        match self.phase {
            Phase::Draft { seat, .. } => Some(usize::from(seat)),
            Phase::Build(s) | Phase::Play(s) | Phase::Peek(s) | Phase::Discard(s) => Some(usize::from(s)),
            Phase::Over => None,
        }
    }

    fn legal(&self, variant: &Variant, out: &mut Vec<Move>) {
        let (rules, pool) = (&variant.rules, &variant.pool);
        out.clear();
        match self.phase {
            Phase::Draft { pile, .. } => {
                out.push(Move::Draft(DraftChoice::Take { deny: false }));
                // Passing the last pile with the stack empty takes it: the same as a take.
                if !self.last_pile(usize::from(pile)) {
                    out.push(Move::Draft(DraftChoice::Pass));
                }
                if rules.last_card_rule && self.stack_len == 1 {
                    out.push(Move::Draft(DraftChoice::TakeLastCard));
                }
            }
            Phase::Build(seat) => {
                // For each colour choice, the deck of its best cards (wild, ability,
                // multicoloured, then plain): the card choice within colours is left to
                // that fixed rule, so the search chooses among colour choices.
                let own = self.pools[usize::from(seat)];
                for k in 1..=rules.max_colours.min(pool.n_colours()) {
                    for colours in colour_sets(pool.n_colours(), k) {
                        let usable = pool.usable(rules, own, colours);
                        let deck = best_cards(pool, usable, rules.deck_size).0;
                        if !out.iter().any(|m| matches!(*m, Move::Build { deck: d, .. } if d == deck)) {
                            out.push(Move::Build { colours, deck });
                        }
                    }
                }
            }
            Phase::Play(seat) => {
                let hand = self.sides[usize::from(seat)].hand;
                out.extend(ids(hand).map(|c| Move::Play(Some(c))));
                if hand == 0 {
                    out.push(Move::Play(None));
                }
            }
            Phase::Peek(_) => out.extend([Move::Keep(true), Move::Keep(false)]),
            Phase::Discard(seat) => {
                for c in ids(playable(pool, &self.sides[usize::from(seat)])) {
                    if pool.wild & bit(c) != 0 {
                        out.extend((0..pool.n_colours()).map(|colour| Move::Discard(Some((c, colour)))));
                    } else {
                        out.push(Move::Discard(Some((c, 0))));
                    }
                }
                if !rules.classic && self.discard_at > 0 {
                    out.push(Move::Discard(None));
                }
            }
            Phase::Over => {}
        }
    }

    fn explain(&self, variant: &Variant, bot: &WinstonBot) -> Option<String> {
        let Phase::Draft { seat, pile } = self.phase else { return None };
        bot.explain_draft(&self.draft_view(&variant.rules, &variant.pool, usize::from(seat), usize::from(pile)))
    }

    fn observe(&self, _model: &Variant, seat: usize, out: &mut Observation) {
        let other = 1 - seat;
        let built = match self.phase {
            Phase::Draft { .. } | Phase::Build(0) => [false, false],
            Phase::Build(_) => [true, false],
            _ => [true, true],
        };
        *out = Observation {
            seat,
            phase: self.phase,
            pool: self.pools[seat],
            known: self.known[seat],
            pile_sizes: self.piles.map(count),
            stack: (self.stack_len, self.stack_start),
            opponent_pool: count(self.pools[other]),
            opponent_took: self.opponent_took[seat],
            opponent_passed: self.opponent_passed[seat],
            draft: (self.draft_seat, self.draft_turns),
            deck: if built[seat] { self.decks[seat] } else { 0 },
            opponent_deck: if built[other] { count(self.decks[other]) } else { 0 },
            ..Observation::default()
        };
        if self.in_game() {
            out.opponent_shown = self.shown[other];
            out.own = self.side_seen(seat, seat);
            out.opponent = self.side_seen(seat, other);
            out.games = (self.game, self.wins, self.starter, self.first_starter);
            out.turns = (self.match_turns, self.game_turns);
            out.turn = (self.turn_seat, self.discards, self.discard_at, self.again);
            out.shown_to_opponent = self.shown[seat];
        }
    }

    fn determinize(variant: &Variant, obs: &Observation, rng: &mut BotRng, out: &mut State) {
        let (rules, pool) = (&variant.rules, &variant.pool);
        let (o, p) = (obs.seat, 1 - obs.seat);
        out.verify = false;
        out.one_turn = false;
        out.phase = obs.phase;
        (out.stack_len, out.stack_start) = obs.stack;
        out.stack_dealt = obs.stack.0;
        (out.draft_seat, out.draft_turns) = obs.draft;
        out.pools[o] = obs.pool;
        out.known[o] = obs.known;
        out.opponent_took[o] = obs.opponent_took;
        out.opponent_passed[o] = obs.opponent_passed;
        // The opponent's own deductions are not seen: it is taken to know the piles as
        // they are and the observer's pool, and to have seen nothing passed.
        out.opponent_took[p] = obs.pool;
        out.opponent_passed[p] = 0;
        // Every card not seen is dealt among the unseen part of each pile, of the
        // opponent's pool, the stack (in a random order) and the removed cards.
        let fixed = obs.opponent_took | obs.opponent_shown;
        let seen = obs.pool | obs.known[0] | obs.known[1] | obs.known[2] | fixed;
        let mut unseen = [0u8; MAX_CARDS];
        let n = list(pool.all & !seen, &mut unseen);
        let unseen = &mut unseen[..n];
        let mut at = 0;
        for i in 0..3 {
            let k = obs.pile_sizes[i] - count(obs.known[i]);
            out.piles[i] = obs.known[i] | deal(unseen, &mut at, k, rng);
            out.known[p][i] = out.piles[i];
        }
        out.pools[p] = fixed | deal(unseen, &mut at, obs.opponent_pool - count(fixed), rng);
        let from = at;
        deal(unseen, &mut at, obs.stack.0, rng);
        out.stack[..obs.stack.0].copy_from_slice(&unseen[from..at]);
        out.removed = unseen[at..].iter().fold(0, |m, &id| m | bit(id));
        out.decks = [0; 2];
        out.decks[o] = obs.deck;
        let opponent_built = match obs.phase {
            Phase::Draft { .. } | Phase::Build(0) => false,
            Phase::Build(_) => o == 1,
            _ => true,
        };
        if opponent_built {
            out.decks[p] = guess_deck(rules, pool, out.pools[p], obs.opponent_shown, obs.opponent_deck, rng);
        }
        out.shown = [0; 2];
        out.peeked = [(NO_CARD, NO_CARD); 2];
        if matches!(obs.phase, Phase::Play(_) | Phase::Peek(_) | Phase::Discard(_)) {
            out.shown[p] = obs.opponent_shown;
            out.shown[o] = obs.shown_to_opponent;
            (out.game, out.wins, out.starter, out.first_starter) = obs.games;
            (out.match_turns, out.game_turns) = obs.turns;
            (out.turn_seat, out.discards, out.discard_at, out.again) = obs.turn;
            let mut buf = [0u8; MAX_CARDS];
            for (s, seen) in [(o, &obs.own), (p, &obs.opponent)] {
                let side = &mut out.sides[s];
                let top = if seen.top == NO_CARD { 0 } else { bit(seen.top) };
                let rest = out.decks[s] & !seen.under & !top;
                let hand = if s == o {
                    seen.hand
                } else {
                    let n = list(rest, &mut buf);
                    let mut at = 0;
                    deal(&mut buf[..n], &mut at, seen.hand_size, rng)
                };
                let n = list(rest & !hand, &mut buf);
                let len = n.min(MAX_DECK);
                side.deck[..len].copy_from_slice(&buf[..len]);
                rand::seq::SliceRandom::shuffle(&mut side.deck[..len], rng);
                // A card known from a peek keeps its place.
                for (known, place) in [(seen.known_bottom, 0), (seen.known_top, len.saturating_sub(1))] {
                    if let Some(i) = side.deck[..len].iter().position(|&c| c == known) {
                        side.deck.swap(i, place);
                    }
                }
                side.deck_len = len;
                side.hand = hand;
                side.under = seen.under;
                side.top = seen.top;
                side.colours = seen.colours;
                side.rank = seen.rank;
            }
            out.peeked[o] = (obs.own.known_top, obs.own.known_bottom);
        }
        out.deal_seed = rng.next_u64();
        out.rngs =
            [Xoshiro256PlusPlus::seed_from_u64(rng.next_u64()), Xoshiro256PlusPlus::seed_from_u64(rng.next_u64())];
    }

    fn key(&self, _model: &Variant, actor: usize, observer: usize, m: Move) -> u32 {
        match m {
            Move::Draft(DraftChoice::Take { .. }) => 1,
            Move::Draft(DraftChoice::Pass) => 2,
            Move::Draft(DraftChoice::TakeLastCard) => 3,
            // The opponent's deck is not seen: all its builds are one move.
            Move::Build { colours, .. } if actor == observer => 0x100 | u32::from(colours),
            Move::Build { .. } => 0x100,
            // Plays, peeks' outcomes and discards are seen by both seats.
            Move::Play(card) => 0x200 | card.map_or(0xFF, u32::from),
            Move::Keep(kept) => 0x300 | u32::from(kept),
            Move::Discard(None) => 0x400,
            Move::Discard(Some((card, colour))) => 0x1000 | u32::from(card) << 3 | colour as u32,
        }
    }

    fn observation_json(variant: &Variant, obs: &Observation) -> serde_json::Value {
        let pool = &variant.pool;
        let cards = |set: Cards| ids(set).map(|id| pool.card_name(id)).collect::<Vec<_>>();
        let card = |id: u8| (id != NO_CARD).then(|| pool.card_name(id));
        let side = |s: &SideSeen, own: bool| {
            // After an eight only the colour it named is matched (its rank is 0); with no
            // top card any discard will do; an eight matches anything where eights are wild.
            let eight = if pool.wild != 0 { " (or an eight)" } else { "" };
            let to_match = match (s.top, s.rank) {
                (NO_CARD, _) => "anything".to_string(),
                (_, 0) => format!("{}{eight}", pool.colours_name(s.colours)),
                (_, rank) => format!("{} or rank {rank}{eight}", pool.colours_name(s.colours)),
            };
            let mut v = serde_json::json!({
                "hand_size": s.hand_size,
                "top_discard": card(s.top),
                "discards_under_top": cards(s.under),
                "to_match": to_match,
                "deck_left": s.deck_len,
                "deck_top_known": card(s.known_top),
                "deck_bottom_known": card(s.known_bottom),
            });
            // The opponent's hand is unseen: its size alone, not an empty list of cards.
            if own {
                v["hand"] = cards(s.hand).into();
            }
            v
        };
        let (game, won, next, first) = obs.games;
        let mut v = serde_json::json!({ "seat": obs.seat, "phase": obs.phase.to_string() });
        // Before the first game is dealt the two sides hold only placeholders, which would
        // read as cards (a top discard, a known deck top); once play begins the draft's
        // table no longer changes, so each phase shows its own fields.
        if matches!(obs.phase, Phase::Draft { .. } | Phase::Build(_)) {
            v["pool"] = cards(obs.pool).into();
            v["piles_as_last_seen"] = obs.known.iter().map(|&k| cards(k)).collect::<Vec<_>>().into();
            v["pile_sizes"] = obs.pile_sizes.to_vec().into();
            v["stack_left"] = obs.stack.0.into();
            v["opponent_pool_size"] = obs.opponent_pool.into();
            v["opponent_took"] = cards(obs.opponent_took).into();
            v["opponent_passed"] = cards(obs.opponent_passed).into();
        } else {
            // The deck as built (its cards left to draw are `own.deck_left`).
            v["deck_built"] = cards(obs.deck).into();
            v["opponent_took"] = cards(obs.opponent_took).into();
            v["opponent_deck_size"] = obs.opponent_deck.into();
            v["opponent_deck_seen"] = cards(obs.opponent_shown).into();
            v["own_deck_seen_by_opponent"] = cards(obs.shown_to_opponent).into();
            v["own"] = side(&obs.own, true);
            v["opponent"] = side(&obs.opponent, false);
            // Who starts is chosen as play begins: before then it is not yet known.
            v["next_starter"] = next.into();
            v["first_starter"] = first.into();
        }
        // Counted from 1, as the match is told ("game 2 of 3").
        v["game"] = (game + 1).into();
        v["games_won"] = serde_json::json!(won);
        v
    }

    fn describe(&self, variant: &Variant, m: Move, observer: usize) -> String {
        let pool = &variant.pool;
        let own = self.to_act() == Some(observer);
        match m {
            // The opponent sees which pile is taken, not what it holds, and no deck list.
            Move::Draft(DraftChoice::Take { .. }) if !own => match self.phase {
                Phase::Draft { pile, .. } => format!("take pile {}", pile + 1),
                _ => "take the pile".into(),
            },
            Move::Build { .. } if !own => "build a deck".into(),
            Move::Draft(DraftChoice::Take { .. }) => match self.phase {
                Phase::Draft { pile, .. } => {
                    format!("take pile {} ({})", pile + 1, pool.set_name(self.piles[usize::from(pile)]))
                }
                _ => "take the pile".into(),
            },
            // Past the last pile the seat takes the stack's top card blind: said, as the
            // opponent sees the pile put back and a card drawn.
            Move::Draft(DraftChoice::Pass) => match self.phase {
                Phase::Draft { pile, .. }
                    if self.piles[usize::from(pile) + 1..].iter().all(|&p| p == 0) && self.stack_len >= 2 =>
                {
                    "pass the pile, then take the stack's top card unseen".into()
                }
                _ => "pass the pile".into(),
            },
            Move::Draft(DraftChoice::TakeLastCard) => "take the stack's last card".into(),
            Move::Build { colours, deck } => {
                format!("build {} ({} cards): {}", pool.colours_name(colours), count(deck), pool.set_name(deck))
            }
            Move::Play(Some(card)) => format!("play {}", pool.card_name(card)),
            Move::Play(None) => "play nothing".into(),
            Move::Keep(true) => "keep the card on top".into(),
            Move::Keep(false) => "put the card at the bottom".into(),
            Move::Discard(None) => "stop discarding".into(),
            Move::Discard(Some((card, colour))) if pool.wild & bit(card) != 0 => {
                format!("discard {} naming {}", pool.card_name(card), pool.colours_name(1 << colour))
            }
            Move::Discard(Some((card, _))) => format!("discard {}", pool.card_name(card)),
        }
    }

    fn returns(&self, _model: &Variant, out: &RoundResult, seat: usize) -> f64 {
        // +1 for a match won, -1 lost, 0 drawn.
        (out.seats[seat].score as f64 + 1.0) / 2.0
    }
}

/// The step in words, seats as the tables number them and piles as moves do (from 1).
impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Phase::Draft { seat, pile } => write!(f, "draft: seat {seat} looks at pile {}", pile + 1),
            Phase::Build(s) => write!(f, "build: seat {s} builds its deck"),
            Phase::Play(s) => write!(f, "play: seat {s} plays a card from its hand (nothing where the hand is empty)"),
            Phase::Peek(s) => write!(f, "peek: seat {s} keeps its deck's top card there or puts it at the bottom"),
            Phase::Discard(s) => write!(f, "discard: seat {s} discards"),
            Phase::Over => f.write_str("over"),
        }
    }
}
