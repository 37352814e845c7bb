//! The forward model: each seat's observation, determinization, move keys and results.

use super::*;

impl Forward for State {
    crate::forward_steps!(variant: Variant, moves: Move, bot: ModularBot);

    fn new(variant: &Variant) -> State {
        State::new(variant)
    }

    /// Game mode's stacks (a round alone has no standing: chips move at its showdown).
    fn has_standing(variant: &Variant) -> bool {
        variant.rules.mode == Mode::Game
    }

    fn standing(&self, _variant: &Variant, seat: usize) -> i64 {
        i64::from(self.public.stacks[seat])
    }

    #[inline(always)]
    fn to_act(&self) -> Option<usize> {
        match self.public.phase {
            Phase::Pick(s) | Phase::Bet(s) => Some(s as usize),
            Phase::Over => None,
        }
    }

    fn is_bet(&self, _variant: &Variant) -> bool {
        matches!(self.public.phase, Phase::Bet(_))
    }

    /// Every card of the pack; at a bet, fold (unless checking is free: a fold then only
    /// throws the pot away), check or call, and the raises of [`BetOptions::raise_menu`].
    fn legal(&self, variant: &Variant, out: &mut Vec<Move>) {
        out.clear();
        match self.public.phase {
            Phase::Pick(s) => out.extend(self.packs[s as usize].iter().map(|c| Move::Pick(PickChoice::own(c)))),
            Phase::Bet(s) => {
                let options = self.bet_options(variant, s as usize);
                if options.to_call > 0 {
                    out.push(Move::Bet(Action::Fold));
                }
                out.push(Move::Bet(options.check_or_call()));
                if options.can_raise {
                    let (sizes, n) = options.raise_menu(self.public.pot);
                    out.extend(sizes[..n].iter().map(|&by| Move::Bet(Action::Raise(by))));
                }
            }
            Phase::Over => {}
        }
    }

    /// At a pick, the cards in the order `greedy` rates the hands they make, its pick first;
    /// bets stay whole.
    fn narrow(&self, variant: &Variant, keep: usize, legal: &mut Vec<Move>) {
        let Phase::Pick(s) = self.public.phase else { return };
        let mut ranked = [Card::from_index(0); MAX_PACK];
        let n = ranked_picks(&self.view(variant, s as usize, None), &mut ranked);
        legal.clear();
        legal.extend(ranked[..n.min(keep)].iter().map(|&c| Move::Pick(PickChoice::own(c))));
    }

    fn explain(&self, _variant: &Variant, bot: &ModularBot) -> Option<String> {
        // Each kind of decision reads its own note: the other kind's is left from before.
        match self.public.phase {
            Phase::Bet(_) => bot.judged().map(|j| j.to_string()),
            Phase::Pick(_) => {
                bot.picked().map(|p| format!("the hand with its pick expected to finish at percentile {p:.2}"))
            }
            Phase::Over => None,
        }
    }

    fn observe(&self, _variant: &Variant, seat: usize, out: &mut Observation) {
        let p = &self.public;
        out.seat = seat;
        out.public = *p;
        out.history.clear();
        out.history.extend_from_slice(&self.history);
        out.hand = self.hands[seat];
        out.pack = self.packs[seat];
        out.seen = self.seen[seat];
        out.pack_seen = self.pack_seen[seat];
        out.took = self.picks[seat];
        out.left_in = self.left_in[seat];
        let back = self.came_back_len[seat] as usize;
        out.came_back = [CardSet::EMPTY; MAX_PICKS];
        out.came_back[..back].copy_from_slice(&self.came_back[seat][..back]);
        out.came_back_len = back as u8;
        out.last_pick = self.last_pick[seat];
        out.hated = self.hated[seat];
        out.chosen = match p.phase {
            Phase::Pick(a) if seat < a as usize && !p.folded[seat] => Some(self.choices[seat]),
            _ => None,
        };
    }

    /// Rebuilds the round's picks pack by pack. A pack the observer held is known as it
    /// was then: the cards taken from it before are unseen cards; the cards taken between
    /// two of its visits are the ones that went missing (in a random order); after its last
    /// visit the holders took any of what it left. A face-up pick is where it was shown.
    /// A pack it never held is all unseen cards. Unseen cards are dealt at random; the
    /// choices others have made at the pick in progress are random cards of their packs.
    fn determinize(variant: &Variant, obs: &Observation, rng: &mut BotRng, out: &mut State) {
        let p = &obs.public;
        let n = p.players;
        let o = obs.seat;
        out.public = *p;
        out.history.clear();
        out.history.extend_from_slice(&obs.history);
        out.verify = false;
        out.stacked = false;
        out.last_deal = None;
        if out.deck_buf.len() != variant.deck_cards.len() {
            out.deck_buf.clear();
            out.deck_buf.extend_from_slice(&variant.deck_cards);
        }
        out.deal_seed = rng.next_u64();
        out.set_order();
        out.update_next();
        for s in 0..n {
            out.face_up_value[s] = State::face_up_value_of(variant, p.face_up[s]);
        }
        let (resolved, received) = State::pick_counts(p);
        // holder[k][d]: the seat holding pack d at pick k + 1.
        let mut holder = [[NONE; MAX_SEATS]; MAX_PICKS];
        for k in 1..=received {
            for s in (0..n).filter(|&s| State::picked_at(variant, p, s, k)) {
                holder[k - 1][p.held[k - 1][s] as usize] = s as u8;
            }
        }
        // The unseen cards, dealt by a partial shuffle as they are needed.
        let mut shown = CardSet::EMPTY;
        for s in 0..n {
            shown = shown.union(p.face_up[s]);
        }
        let mut pool = [Card::from_index(0); 64];
        let mut pool_len = 0;
        for c in variant.deck.cards.minus(obs.seen).minus(shown).iter() {
            pool[pool_len] = c;
            pool_len += 1;
        }
        let mut dealt = 0;
        let mut draw = |rng: &mut BotRng| {
            let j = dealt + rng.random_range(0..pool_len - dealt);
            pool.swap(dealt, j);
            dealt += 1;
            pool[dealt - 1]
        };
        let any_of = |set: &mut CardSet, rng: &mut BotRng| {
            let c = set.nth(rng.random_range(0..set.len())).expect("a card left");
            set.remove(c);
            c
        };
        let mut taken = [[Card::from_index(0); MAX_PICKS]; MAX_SEATS];
        let mut rest = [CardSet::EMPTY; MAX_SEATS];
        for d in (0..n).filter(|&d| p.round_stacks[d] > 0) {
            let slots = (1..=resolved).filter(|&k| holder[k - 1][d] != NONE).count();
            let fixed = |k: usize| {
                let h = holder[k - 1][d];
                (h != NONE && h as usize != o && p.shown[h as usize][k - 1] != NONE)
                    .then(|| Card::from_index(p.shown[h as usize][k - 1]))
            };
            // Face-up picks first, then the slots in order of the observer's visits.
            let mut free = [true; MAX_PICKS];
            for k in 1..=slots {
                if let Some(c) = fixed(k) {
                    taken[d][k - 1] = c;
                    free[k - 1] = false;
                }
            }
            let mut visit: Option<usize> = None;
            for k in 1..=received.min(slots + 1) {
                if holder[k - 1][d] as usize != o {
                    continue;
                }
                let content = obs.pack_seen[k - 1];
                match visit {
                    // Before the first visit: unseen cards.
                    None => {
                        for j in (1..k).filter(|&j| free[j - 1]) {
                            taken[d][j - 1] = draw(rng);
                        }
                    }
                    // Between two visits: what went missing.
                    Some(prev) => {
                        let mut gone = obs.pack_seen[prev - 1].minus(content);
                        gone.remove(obs.took[prev - 1].card.expect("a resolved pick"));
                        for j in prev + 1..k {
                            if !free[j - 1] {
                                gone.remove(taken[d][j - 1]);
                            }
                        }
                        for j in (prev + 1..k).filter(|&j| free[j - 1]) {
                            taken[d][j - 1] = any_of(&mut gone, rng);
                        }
                    }
                }
                if k <= resolved {
                    taken[d][k - 1] = obs.took[k - 1].card.expect("a resolved pick");
                    free[k - 1] = false;
                }
                visit = Some(k);
            }
            match visit {
                None => {
                    for j in (1..=slots).filter(|&j| free[j - 1]) {
                        taken[d][j - 1] = draw(rng);
                    }
                    let mut left = CardSet::EMPTY;
                    for _ in 0..variant.rules.pack_size - slots {
                        left.insert(draw(rng));
                    }
                    rest[d] = left;
                }
                Some(last) => {
                    // After the last visit: any of what it left there.
                    let mut left = obs.pack_seen[last - 1];
                    if last <= resolved {
                        left.remove(taken[d][last - 1]);
                    }
                    for j in last + 1..=slots {
                        if !free[j - 1] {
                            left.remove(taken[d][j - 1]);
                        }
                    }
                    for j in (last + 1..=slots).filter(|&j| free[j - 1]) {
                        taken[d][j - 1] = any_of(&mut left, rng);
                    }
                    rest[d] = left;
                }
            }
        }
        // Hands, packs and memories from the rebuilt picks; the observer's are its own.
        // A pack is in play while a seat still in holds it (a seat that folds discards it).
        let live_pack = |d: usize| (0..n).any(|s| !p.folded[s] && p.round_stacks[s] > 0 && p.pack_of[s] as usize == d);
        let mut discarded = CardSet::EMPTY;
        for d in (0..n).filter(|&d| p.round_stacks[d] > 0 && !live_pack(d)) {
            discarded = discarded.union(rest[d]);
        }
        // contents[k][d]: pack d before pick k + 1.
        let mut contents = [[CardSet::EMPTY; MAX_SEATS]; MAX_PICKS];
        let mut now = rest;
        for k in (1..=received).rev() {
            for d in 0..n {
                if k <= resolved && holder[k - 1][d] != NONE {
                    now[d].insert(taken[d][k - 1]);
                }
                contents[k - 1][d] = now[d];
            }
        }
        for s in 0..n {
            let mut hand = CardSet::EMPTY;
            out.picks[s] = [PickRecord::default(); MAX_PICKS];
            out.seen[s] = CardSet::EMPTY;
            out.pack_seen[s] = [CardSet::EMPTY; MAX_PICKS];
            out.left_in[s] = [CardSet::EMPTY; MAX_SEATS];
            out.came_back_len[s] = 0;
            for k in (1..=received).filter(|&k| State::picked_at(variant, p, s, k)) {
                let d = p.held[k - 1][s] as usize;
                let content = contents[k - 1][d];
                out.seen[s] = out.seen[s].union(content);
                out.pack_seen[s][k - 1] = content;
                let left = out.left_in[s][d];
                if !left.is_empty() {
                    out.came_back[s][out.came_back_len[s] as usize] = left.minus(content);
                    out.came_back_len[s] += 1;
                }
                if k <= resolved {
                    let c = taken[d][k - 1];
                    hand.insert(c);
                    out.left_in[s][d] = content.minus(CardSet::single(c));
                    out.picks[s][k - 1] = PickRecord { card: Some(c), hate: false, pack_of: d as u8 };
                }
            }
            out.hated[s] = false;
            out.last_pick[s] = if resolved == variant.rules.pack_size { out.picks[s][resolved - 1].card } else { None };
            if p.folded[s] {
                discarded = discarded.union(hand);
                out.hands[s] = CardSet::EMPTY;
                out.packs[s] = CardSet::EMPTY;
            } else {
                out.hands[s] = hand;
                out.packs[s] = if received > 0 { rest[p.pack_of[s] as usize] } else { CardSet::EMPTY };
            }
        }
        out.hands[o] = obs.hand;
        out.packs[o] = obs.pack;
        out.seen[o] = obs.seen;
        out.pack_seen[o] = obs.pack_seen;
        out.picks[o] = obs.took;
        out.left_in[o] = obs.left_in;
        out.came_back[o] = obs.came_back;
        out.came_back_len[o] = obs.came_back_len;
        out.last_pick[o] = obs.last_pick;
        out.hated[o] = obs.hated;
        let mut undealt = CardSet::EMPTY;
        for &c in &pool[dealt..pool_len] {
            undealt.insert(c);
        }
        out.undealt = undealt;
        out.discarded = discarded;
        if let Phase::Pick(a) = p.phase {
            for s in (0..a as usize).filter(|&s| !p.folded[s]) {
                let mut pack = out.packs[s];
                out.choices[s] = PickChoice::own(any_of(&mut pack, rng));
            }
            if let Some(choice) = obs.chosen {
                out.choices[o] = choice;
            }
        }
    }

    const REWINDS: bool = true;

    /// At a bet, the betting round back to its cut (its start, or just after its last
    /// fold) and the bets made since; a pick's past holds the other seats' hidden picks,
    /// which a sampled world does not keep, so it is not rebuilt.
    fn rewind(&self, _variant: &Variant, start: &mut State, moves: &mut Vec<Move>) -> bool {
        let p = &self.public;
        let cut = p.cut_acts as usize;
        if !matches!(p.phase, Phase::Bet(_)) || cut > self.history.len() {
            return false;
        }
        start.clone_from(self);
        let q = &mut start.public;
        for a in &self.history[cut..] {
            let s = usize::from(a.seat);
            q.stacks[s] += a.paid;
            q.street[s] -= a.paid;
            q.committed[s] -= a.paid;
            q.pot -= a.paid;
        }
        q.betting = p.cut;
        q.phase = Phase::Bet(p.cut_seat);
        start.history.truncate(cut);
        moves.clear();
        moves.extend(self.history[cut..].iter().map(|a| Move::Bet(a.action)));
        true
    }

    /// A pick by card for the seat that makes it; every other seat's pick is one key (it
    /// is face down until all have picked). Bets by action and size.
    fn key(&self, _variant: &Variant, actor: usize, observer: usize, m: Move) -> u32 {
        match m {
            Move::Pick(choice) if actor == observer => u32::from(choice.card.index()),
            Move::Pick(_) => 0x100,
            Move::Bet(Action::Fold) => 0x200,
            Move::Bet(Action::Check) => 0x201,
            Move::Bet(Action::Call) => 0x202,
            Move::Bet(Action::Raise(by)) => 0x300 + by,
        }
    }

    fn observation_json(variant: &Variant, obs: &Observation) -> serde_json::Value {
        let p = &obs.public;
        let n = p.players;
        let cards = |set: CardSet| set.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        let picks = p.pick.min(MAX_PICKS);
        let took: Vec<serde_json::Value> = (obs.took[..picks].iter())
            .filter_map(|r| r.card.map(|c| serde_json::json!({"card": c.to_string(), "pack_of": r.pack_of})))
            .collect();
        let history: Vec<String> = (obs.history.iter())
            .map(|a| {
                let chips = crate::output::noun(i64::from(a.paid), "chip", "chips");
                let action = match a.action {
                    // With nothing to call, a raise opens the betting: a bet, as the replay
                    // says it.
                    Action::Raise(by) if a.paid == by => format!("bet {by}"),
                    other => other.to_string(),
                };
                format!("betting round {}: seat {} {action} ({} {chips})", a.betting_round + 1, a.seat, a.paid)
            })
            .collect();
        // The betting figures mean something only while a betting round is under way; while
        // picking the seat is told which betting round comes next, and after which pick.
        let betting = if matches!(p.phase, Phase::Bet(_)) {
            serde_json::json!({
                "betting_round": p.betting.round + 1,
                "bet_to_match": p.betting.current,
                "raises": p.betting.raises,
                "this_betting_round": &p.street[..n],
            })
        } else {
            let after = variant.rules.bet_after_picks.iter().position(|&after| after >= p.pick);
            match after {
                Some(b) => serde_json::json!({
                    "next_betting_round": b + 1,
                    "after_pick": variant.rules.bet_after_picks[b],
                }),
                None => serde_json::json!({}),
            }
        };
        let object = |v: serde_json::Value| match v {
            serde_json::Value::Object(fields) => fields,
            _ => unreachable!("json! of braces is an object"),
        };
        let mut fields = object(serde_json::json!({
            "seat": obs.seat,
            "round": p.round,
            "pick": p.pick,
            "dealer": p.dealer,
            "passing": if p.dir > 0 { "left" } else { "right" },
            "hand": cards(obs.hand),
            "pack": cards(obs.pack),
            "face_up": (0..n).map(|s| cards(p.face_up[s])).collect::<Vec<_>>(),
            "pot": p.pot,
            "stacks": &p.stacks[..n],
            "committed": &p.committed[..n],
            "folded": &p.folded[..n],
        }));
        fields.extend(object(betting));
        fields.extend(object(serde_json::json!({
            "betting": history,
            "picks": took,
            "seen": cards(obs.seen),
            "left_in_pack_of": (0..n).map(|s| cards(obs.left_in[s])).collect::<Vec<_>>(),
            "taken_from_packs_that_came_back": (obs.came_back[..usize::from(obs.came_back_len)].iter())
                .map(|&c| cards(c))
                .collect::<Vec<_>>(),
            // A seat out of the round holds no pack.
            "holds_pack_of": (0..n).map(|s| (!p.folded[s]).then_some(p.pack_of[s])).collect::<Vec<_>>(),
        })));
        serde_json::Value::Object(fields)
    }

    fn describe(&self, variant: &Variant, m: Move, observer: usize) -> String {
        let seat = self.to_act().unwrap_or(0);
        match m {
            // A pick is seen by the others only when it is turned face up.
            Move::Pick(_) if seat != observer && variant.is_face_up(self.public.pick) => {
                "picks a card, turned face up once every seat has picked".into()
            }
            Move::Pick(_) if seat != observer => "picks a card".into(),
            // Said where the choice is made: a face-up pick is shown to the table.
            Move::Pick(choice) if variant.is_face_up(self.public.pick) => {
                format!("pick {} (turned face up)", choice.card)
            }
            Move::Pick(choice) => format!("pick {}", choice.card),
            Move::Bet(a @ (Action::Fold | Action::Check)) => a.to_string(),
            Move::Bet(Action::Call) => format!("call {}", self.bet_options(variant, seat).to_call),
            // With nothing to call, a raise opens the betting: a bet, as the replay says.
            Move::Bet(Action::Raise(by)) => match self.bet_options(variant, seat).to_call {
                0 => format!("bet {by}"),
                to_call => format!("raise {by} (put in {})", to_call + by),
            },
        }
    }

    /// Betting decisions only, bucketed (the abstraction a trained policy plays; picks have
    /// no key and are left to the policy's fallback preset): see [`betting_key`].
    fn info_key(variant: &Variant, obs: &Observation) -> Option<u64> {
        betting_key(variant, obs)
    }

    /// Round mode: net chips over the most a seat can win (`players` stakes), from 0 to 1
    /// with 1/2 for breaking even. Game mode: the seat's share of the game's win.
    fn returns(&self, variant: &Variant, out: &RoundResult, seat: usize) -> f64 {
        match variant.rules.mode {
            Mode::Round => {
                let span = (self.public.players as u32 * round_stake(variant)).max(1) as f64;
                (0.5 + out.seats[seat].score as f64 / (2.0 * span)).clamp(0.0, 1.0)
            }
            Mode::Game => f64::from(out.seats[seat].share_units) / f64::from(SHARE_UNIT),
        }
    }

    /// At a horizon: the seat's share of the chips (its stack and what it has put in the
    /// pot), the chance a chip-proportional model gives it of winning the game.
    fn estimate(&self, _variant: &Variant, _out: &RoundResult, seat: usize, players: usize) -> f64 {
        let p = &self.public;
        let total: u64 = (0..p.players).map(|s| u64::from(p.stacks[s] + p.committed[s])).sum();
        if total == 0 {
            return 1.0 / players as f64;
        }
        f64::from(p.stacks[seat] + p.committed[seat]) / total as f64
    }
}

/// Buckets of the strength estimate in a betting key.
pub const STRENGTH_BUCKETS: u32 = 20;

/// The abstraction of a betting decision, built from the seat's observation alone: the
/// betting round, its strength against the field (the per-opponent chance of beating each
/// opponent still in, as the `threshold` bets read it, in twentieths), the raises so far this
/// betting round (0 to 3 and more), whether it faces a bet, how many raise sizes its menu
/// holds (1 to 4: see [`BetOptions::raise_menu`]), the
/// opponents still in (1 to 3 and more), the seats still to act after it (0 to 2 and
/// more), and the raises of earlier betting rounds, the others' (0 to 3 and more) and its
/// own (0 to 2 and more). Two decisions with one key have the same menu. `None` at a pick.
pub fn betting_key(variant: &Variant, obs: &Observation) -> Option<u64> {
    let p = &obs.public;
    if p.phase != Phase::Bet(obs.seat as u8) {
        return None;
    }
    let view = obs.view(variant);
    let options = view.betting.expect("a view at a bet has its options");
    let own = crate::games::seven_card_draft::bots::own_strength(&view, false);
    let (_, strength) = crate::games::seven_card_draft::bots::field_strength(
        &view,
        own,
        crate::games::seven_card_draft::bots::default_respect(),
        false,
        &mut Default::default(),
    );
    let bucket = ((strength.clamp(0.0, 1.0) * STRENGTH_BUCKETS as f32) as u32).min(STRENGTH_BUCKETS - 1);
    let opponents = (p.active as u32).saturating_sub(1).clamp(1, 3);
    let after = p.betting.pending.saturating_sub(1).min(2);
    let (_, sizes) = options.raise_menu(view.pot);
    let (mut theirs, mut own) = (0u64, 0u64);
    for a in obs.history.iter().filter(|a| usize::from(a.betting_round) < options.round) {
        if matches!(a.action, Action::Raise(_)) {
            if usize::from(a.seat) == obs.seat { own += 1 } else { theirs += 1 }
        }
    }
    // The menu's sizes beyond two lead, so keys of one- and two-size menus read as before.
    let fields = [
        (sizes.saturating_sub(2) as u64, 2),
        (u64::from(options.round.min(15) as u8), 4),
        (u64::from(bucket), 5),
        (u64::from(options.raises.min(3)), 2),
        (u64::from(options.to_call > 0), 1),
        (u64::from(options.can_raise), 1),
        (u64::from(sizes >= 2), 1),
        (u64::from(opponents), 2),
        (u64::from(after), 2),
        (theirs.min(3), 2),
        (own.min(2), 2),
    ];
    Some(fields.iter().fold(0, |key, &(v, bits)| (key << bits) | v))
}

impl Observation {
    /// The seat's typed view, as a heuristic bot gets it, made from the observation alone
    /// (with its betting options at its own bet).
    pub fn view<'a>(&'a self, variant: &'a Variant) -> SeatView<'a> {
        let p = &self.public;
        let betting = (p.phase == Phase::Bet(self.seat as u8)).then(|| p.bet_options(variant, self.seat));
        let own = Own {
            hand: self.hand,
            last_pick: self.last_pick,
            pack: self.pack,
            seen: self.seen,
            left_in: &self.left_in,
            came_back: &self.came_back[..usize::from(self.came_back_len)],
            history: &self.history,
        };
        p.view(variant, self.seat, own, betting)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The view a betting key reads, made from the observation, is the view the seat's
    /// heuristic bot gets from the state.
    #[test]
    fn the_observations_view_is_the_bots_view() {
        let (variant, points) =
            crate::games::contest::default_points::<crate::games::seven_card_draft::Def>(0x5CD, 400, 5);
        let mut obs = Observation::default();
        let mut bets = 0;
        for state in &points {
            let (Phase::Bet(s) | Phase::Pick(s)) = state.public.phase else { continue };
            let s = s as usize;
            state.observe(&variant, s, &mut obs);
            let betting = matches!(state.public.phase, Phase::Bet(_)).then(|| state.bet_options(&variant, s));
            assert_eq!(format!("{:?}", obs.view(&variant)), format!("{:?}", state.view(&variant, s, betting)));
            assert_eq!(betting_key(&variant, &obs).is_some(), betting.is_some());
            bets += usize::from(betting.is_some());
        }
        assert!(bets > 20, "{bets}");
    }

    /// The history a seat is shown calls a raise with nothing to call a bet, as the moves
    /// are said, and every other one a raise.
    #[test]
    fn a_rounds_first_raise_is_shown_as_a_bet() {
        let (variant, _) = crate::games::contest::default_points::<crate::games::seven_card_draft::Def>(1, 1, 1);
        let mut obs = Observation::default();
        let act = |betting_round, seat, action, paid| PublicAction { betting_round, seat, action, paid };
        obs.history.extend([
            act(0, 1, Action::Raise(1), 1),
            act(0, 2, Action::Raise(1), 2),
            act(0, 0, Action::Call, 2),
            act(1, 1, Action::Check, 0),
            act(1, 2, Action::Raise(2), 2),
        ]);
        let json = State::observation_json(&variant, &obs);
        let said: Vec<&str> = json["betting"].as_array().unwrap().iter().map(|h| h.as_str().unwrap()).collect();
        assert_eq!(
            said,
            [
                "betting round 1: seat 1 bet 1 (1 chip)",
                "betting round 1: seat 2 raise 1 (2 chips)",
                "betting round 1: seat 0 call (2 chips)",
                "betting round 2: seat 1 check (0 chips)",
                "betting round 2: seat 2 bet 2 (2 chips)",
            ]
        );
    }

    /// A narrowed pick lists `greedy`'s pick first and holds legal cards only, as many as
    /// asked for (or the whole pack); a bet stays whole and in order.
    #[test]
    fn narrowing_lists_greedys_pick_first_and_leaves_bets_whole() {
        use crate::games::GamePreset;
        use crate::search::params::Strategy;
        let (variant, points) =
            crate::games::contest::default_points::<crate::games::seven_card_draft::Def>(0x3E1, 400, 3);
        let Strategy::Heuristic(greedy) =
            crate::games::contest::load_strategy::<crate::games::seven_card_draft::Def>("greedy").unwrap()
        else {
            panic!("greedy is a heuristic preset")
        };
        let mut bot = greedy.bot("greedy");
        let mut rng = BotRng::seed_from_u64(7);
        let (mut legal, mut narrowed) = (Vec::new(), Vec::new());
        let (mut picks, mut reordered) = (0, 0);
        for state in &points {
            state.legal(&variant, &mut legal);
            for keep in [1, 3] {
                narrowed.clone_from(&legal);
                state.narrow(&variant, keep, &mut narrowed);
                if matches!(state.public.phase, Phase::Bet(_)) {
                    assert_eq!(narrowed, legal);
                    continue;
                }
                assert_eq!(narrowed.len(), keep.min(legal.len()));
                assert!(narrowed.iter().all(|m| legal.contains(m)));
                if keep == 3 {
                    picks += 1;
                    reordered += usize::from(narrowed[..] != legal[..narrowed.len()]);
                }
                assert_eq!(narrowed[0], state.ask(&variant, &mut bot, &mut rng).unwrap(), "greedy's pick first");
            }
        }
        // The menu follows greedy's judgement, not the pack's order.
        assert!(picks > 100 && reordered * 2 > picks, "{reordered} of {picks} picks reordered");
    }

    /// Every face-down pick a seat places from the packs it passed is in that seat's hand;
    /// at four seats with nobody out, the last betting places the third pick of the seat
    /// across (its first pack came back) and the last pick of the next seat (forced).
    #[test]
    fn placed_face_down_picks_are_held() {
        use crate::games::seven_card_draft::bots::deduced_hidden;
        use crate::games::seven_card_draft::rules::Rules;
        for players in [2, 3, 4, 5] {
            let variant = Rules { players, ..Rules::default() }.compile().unwrap();
            let names = vec!["greedy"; players];
            let mut bots =
                crate::games::contest::seat_bots::<crate::games::seven_card_draft::Def>(&names, players).unwrap();
            let points = crate::search::leaks::decision_points(&variant, &mut bots, 0xDED, 400, 2);
            let (mut placed, mut full_tables) = (0, 0);
            for state in &points {
                let (Phase::Bet(s) | Phase::Pick(s)) = state.public.phase else { continue };
                let s = s as usize;
                let betting = matches!(state.public.phase, Phase::Bet(_)).then(|| state.bet_options(&variant, s));
                let view = state.view(&variant, s, betting);
                let deduced = deduced_hidden(&view);
                for (t, &(cards, picks)) in deduced.iter().enumerate().take(players) {
                    // Exactly the cards the seat took at those picks, folded or not.
                    let taken = (1..=MAX_PICKS)
                        .filter(|&q| picks & 1 << q != 0)
                        .map(|q| state.picks[t][q - 1].card.expect("a placed pick was made"))
                        .fold(CardSet::EMPTY, |a, c| a.union(CardSet::single(c)));
                    assert_eq!(cards, taken, "{players} seats, seat {t}");
                    assert_eq!(cards.len(), picks.count_ones(), "{players} seats, seat {t}");
                    assert!(cards.intersect(view.face_up[t]).is_empty());
                    placed += cards.len();
                }
                assert!(deduced[s].0.is_empty());
                if players == 4 && betting.is_some() && view.pick == 7 && !view.folded.contains(&true) {
                    let next = view.next_seat();
                    let across = (next as isize + view.direction as isize).rem_euclid(4) as usize;
                    assert_eq!(deduced[across].1, 1 << 3, "{:?}", deduced);
                    assert_eq!(deduced[next].1, 1 << 7, "{:?}", deduced);
                    full_tables += 1;
                }
            }
            assert!(placed > 50, "{players} seats: {placed}");
            assert!(players != 4 || full_tables > 0);
        }
    }
}
