//! The forward model: each seat's observation, determinization, move keys and results.

use super::*;
use crate::games::live_draft::rules::COLOUR_NAMES;

/// What one seat has seen: the table with every card it has not seen blanked (the
/// library's order, the other hands but for the cards seen taken into them, the others'
/// unrevealed opening discards), and no deal seed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Observation {
    /// The seat.
    pub seat: usize,
    /// The table as the seat knows it.
    pub table: State,
}

/// Sets `a[n..]` to `v` (stale entries of reused arrays would tell states apart).
pub(super) fn blank_tail<T: Copy>(a: &mut [T], n: usize, v: T) {
    let from = n.min(a.len());
    a[from..].fill(v);
}

/// Marks every card in `ids` (but [`NO_CARD`]) in `bits`.
pub(super) fn mark(bits: &mut CardBits, ids: &[u8]) {
    for &c in ids.iter().filter(|&&c| c != NO_CARD) {
        bits.insert(c);
    }
}

impl State {
    /// The pending rummy opening discards of each seat, as ranges of `discard`.
    pub(super) fn pending_range(&self, seat: usize) -> std::ops::Range<usize> {
        let start = self.n_discard + self.pending[..seat].iter().map(|&c| usize::from(c)).sum::<usize>();
        start..start + usize::from(self.pending[seat])
    }

    /// This state with every card `seat` has not seen dealt again at random (the library,
    /// the other hands' unseen cards, the others' unrevealed opening discards), with a new
    /// deal seed. Made from the truth, not from an observation: the leak test's second state.
    pub fn redeal(&self, rules: &Rules, seat: usize, rng: &mut BotRng) -> State {
        let mut t = self.clone();
        let mut hidden = Vec::new();
        hidden.extend_from_slice(&t.library[..t.n_library]);
        for s in (0..rules.players).filter(|&s| s != seat) {
            let known = t.boards[s].known_hand;
            hidden.extend(t.hands[s][..t.boards[s].hand_size].iter().filter(|&&c| !known.contains(c)));
            hidden.extend_from_slice(&t.discard[t.pending_range(s)]);
        }
        rand::seq::SliceRandom::shuffle(&mut hidden[..], rng);
        let mut next = hidden.into_iter();
        for i in 0..t.n_library {
            t.library[i] = next.next().expect("as many cards as places");
        }
        for s in (0..rules.players).filter(|&s| s != seat) {
            let known = t.boards[s].known_hand;
            for i in 0..t.boards[s].hand_size {
                if !known.contains(t.hands[s][i]) {
                    t.hands[s][i] = next.next().expect("as many cards as places");
                }
            }
            for i in t.pending_range(s) {
                t.discard[i] = next.next().expect("as many cards as places");
            }
        }
        t.deal_seed = rng.next_u64();
        t
    }

    /// A game's value to each seat when a search stops early: a seat out of the game has
    /// none; a live seat has its life plus twice the power and once the toughness of its
    /// creatures, plus its lands and cards in hand.
    pub(super) fn strength(&self, seat: usize) -> f64 {
        let b = &self.boards[seat];
        if !b.alive {
            return 0.0;
        }
        let board: u32 = b
            .creatures()
            .iter()
            .map(|&c| self.cards[usize::from(c)])
            .map(|c| 2 * u32::from(c.power) + u32::from(c.toughness))
            .sum();
        f64::from(b.life.max(0)) + f64::from(board) + (b.n_lands + b.hand_size) as f64
    }

    /// The search's short menu of attacks (any set of ready creatures is allowed): none,
    /// all, each creature alone, all but each one.
    pub(super) fn attack_menu(&self, out: &mut Vec<Move>) {
        let ready = self.boards[usize::from(self.seat)].ready();
        let mut push = |m: u64| {
            if !out.contains(&Move::Attack(m)) {
                out.push(Move::Attack(m));
            }
        };
        push(0);
        push(ready);
        let mut bits = ready;
        while bits != 0 {
            let one = bits & bits.wrapping_neg();
            bits &= bits - 1;
            push(one);
            push(ready & !one);
        }
    }

    /// The search's menu of blocks (any assignment of untapped blockers is allowed): none;
    /// one blocker on one attacker (the first eight of each); and every attacker,
    /// strongest first, blocked by the untapped creature of most toughness left.
    pub(super) fn block_menu(&self, out: &mut Vec<Move>) {
        let (a, d) = (&self.boards[usize::from(self.seat)], &self.boards[usize::from(self.defender)]);
        let free = d.untapped_creatures();
        out.push(Move::Block([NO_CARD; MAX_PERMANENTS]));
        let attackers = (0..a.n_creatures).filter(|&s| self.attackers >> s & 1 == 1);
        let blockers = (0..d.n_creatures).filter(|&b| free >> b & 1 == 1);
        for slot in attackers.clone().take(8) {
            for b in blockers.clone().take(8) {
                let mut blocks = [NO_CARD; MAX_PERMANENTS];
                blocks[slot] = b as u8;
                out.push(Move::Block(blocks));
            }
        }
        if free.count_ones() > 1 && self.attackers.count_ones() > 1 {
            let mut order: [u8; MAX_PERMANENTS] = [0; MAX_PERMANENTS];
            let mut n = 0;
            for slot in attackers {
                order[n] = slot as u8;
                n += 1;
            }
            let power = |s: u8| self.cards[usize::from(a.creatures[usize::from(s)])].power;
            order[..n].sort_unstable_by_key(|&s| (std::cmp::Reverse(power(s)), s));
            let mut left = free;
            let mut blocks = [NO_CARD; MAX_PERMANENTS];
            for &slot in &order[..n] {
                let toughness = |b: usize| self.cards[usize::from(d.creatures[b])].toughness;
                let Some(b) = (0..d.n_creatures)
                    .filter(|&b| left >> b & 1 == 1)
                    .max_by_key(|&b| (toughness(b), std::cmp::Reverse(b)))
                else {
                    break;
                };
                blocks[usize::from(slot)] = b as u8;
                left &= !(1 << b);
            }
            out.push(Move::Block(blocks));
        }
    }
}

/// Key tags: the kind of decision, above the card or slot.
pub(super) const KEY_PICK: u32 = 1 << 24;
pub(super) const KEY_TAKE_TOP: u32 = 2 << 24;
pub(super) const KEY_DISCARD: u32 = 3 << 24;
pub(super) const KEY_UNSEEN_DISCARD: u32 = 4 << 24;
pub(super) const KEY_MULLIGAN: u32 = 5 << 24;
pub(super) const KEY_LAND: u32 = 6 << 24;
pub(super) const KEY_CAST: u32 = 7 << 24;
pub(super) const KEY_TARGET: u32 = 8 << 24;
pub(super) const KEY_ATTACK: u32 = 9 << 24;
pub(super) const KEY_BLOCK: u32 = 10 << 24;
/// "None" in a key's card or slot field.
pub(super) const KEY_NONE: u32 = 0xFFFF;

/// A 16-bit digest of a set of slots, for moves outside the search's menus.
pub(super) fn digest(bits: u64) -> u32 {
    let h = bits.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 48) as u32 & 0x0FFF
}

impl Forward for State {
    crate::forward_steps!(variant: Rules, moves: Move, bot: LiveDraftBot);

    /// Life.
    fn has_standing(_rules: &Rules) -> bool {
        true
    }

    fn standing(&self, _rules: &Rules, seat: usize) -> i64 {
        i64::from(self.boards[seat].life)
    }

    #[inline(always)]
    fn to_act(&self) -> Option<usize> {
        match self.phase {
            Phase::OpeningDiscard(s)
            | Phase::Mulligan(s)
            | Phase::Pick(s)
            | Phase::TakeTop(s)
            | Phase::DrawDiscard(s)
            | Phase::Land(s)
            | Phase::Cast(s)
            | Phase::Target(s)
            | Phase::Attack(s)
            | Phase::Block(s)
            | Phase::EndDiscard(s) => Some(usize::from(s)),
            Phase::Over => None,
        }
    }

    fn legal(&self, rules: &Rules, out: &mut Vec<Move>) {
        out.clear();
        match self.phase {
            Phase::OpeningDiscard(s) | Phase::DrawDiscard(s) | Phase::EndDiscard(s) => {
                out.extend((0..self.boards[usize::from(s)].hand_size).map(|i| Move::Discard(i as u8)));
            }
            Phase::Mulligan(s) => {
                out.push(Move::Mulligan(None));
                let size = self.boards[usize::from(s)].hand_size;
                for i in 0..size {
                    out.extend((i + 1..size).map(|j| Move::Mulligan(Some((i as u8, j as u8)))));
                }
            }
            Phase::Pick(_) => {
                let slots = (0..self.n_row).filter(|&i| self.row[i] != NO_CARD);
                out.extend(slots.map(|index| Move::Pick(Pick { index, hate: false })));
            }
            Phase::TakeTop(_) => out.extend([Move::TakeTop(true), Move::TakeTop(false)]),
            Phase::Land(s) => {
                out.push(Move::Land(None));
                let s = usize::from(s);
                let hand = &self.hands[s][..self.boards[s].hand_size];
                let lands = (0..hand.len()).filter(|&i| self.cards[usize::from(hand[i])].is_land());
                out.extend(lands.map(|i| Move::Land(Some(i as u8))));
            }
            Phase::Cast(s) => {
                out.push(Move::Cast(None));
                let view = self.view(rules, usize::from(s));
                let castable = (0..view.hand.len()).filter(|&i| view.castable(view.hand[i]));
                out.extend(castable.map(|i| Move::Cast(Some(i as u8))));
            }
            Phase::Target(s) => {
                let others = (0..rules.players).filter(|&d| d != usize::from(s) && self.boards[d].alive);
                out.extend(others.map(|d| Move::Target(d as u8)));
            }
            Phase::Attack(_) => self.attack_menu(out),
            Phase::Block(_) => self.block_menu(out),
            Phase::Over => {}
        }
    }

    fn explain(&self, rules: &Rules, bot: &LiveDraftBot) -> Option<String> {
        let seat = self.to_act()?;
        bot.explain(&self.view(rules, seat), self.phase, usize::from(self.defender))
    }

    fn observation_json(rules: &Rules, obs: &Observation) -> serde_json::Value {
        let t = &obs.table;
        let name = |id: u8| t.cards[usize::from(id)].name();
        let names = |ids: &[u8]| ids.iter().filter(|&&c| c != NO_CARD).map(|&c| name(c)).collect::<Vec<_>>();
        let seats: Vec<serde_json::Value> = (0..rules.players)
            .map(|s| {
                let b = &t.boards[s];
                let creatures: Vec<String> = (b.creatures().iter().enumerate())
                    .map(|(slot, &c)| {
                        let mut n = name(c);
                        if b.sick >> slot & 1 == 1 {
                            n.push_str(", summoning sick");
                        }
                        if b.tapped >> slot & 1 == 1 {
                            n.push_str(", tapped");
                        }
                        n
                    })
                    .collect();
                serde_json::json!({
                    "life": b.life,
                    "alive": b.alive,
                    "lands": (0..COLOURS).filter(|&c| b.lands[c] > 0).map(|c| format!("{} {}", b.lands[c], COLOUR_NAMES[c])).collect::<Vec<_>>(),
                    "creatures": creatures,
                    "hand_size": b.hand_size,
                    "hand_cards_seen_taken": b.known_hand.iter().map(name).collect::<Vec<_>>(),
                    "graveyard": names(b.graveyard()),
                    "mill": b.mill,
                })
            })
            .collect();
        let me = obs.seat;
        let mut v = serde_json::json!({
            "seat": me,
            "phase": t.phase.to_string(),
            "turn_of": t.seat,
            "game_turn": t.game_turn,
            "hand": names(&t.hands[me][..t.boards[me].hand_size]),
            "row": names(&t.row[..t.n_row]),
            "discard_pile": names(&t.discard[..t.n_discard]),
            "library_left": t.n_library,
        });
        // The mana of the seat whose turn it is: its lands untap at its land step, so
        // before then (openings, draws) there is none to show.
        if matches!(t.phase, Phase::Land(_) | Phase::Cast(_) | Phase::Target(_) | Phase::Attack(_) | Phase::Block(_)) {
            v["untapped_lands"] = (0..COLOURS)
                .filter(|&c| t.untapped[c] > 0)
                .map(|c| format!("{} {}", t.untapped[c], COLOUR_NAMES[c]))
                .collect::<Vec<_>>()
                .into();
        }
        if matches!(t.phase, Phase::Attack(_) | Phase::Block(_)) {
            v["attacked_seat"] = t.defender.into();
            // The attacking creatures by name, as the moves name them.
            let attacking = t.boards[usize::from(t.seat)].creatures();
            v["attackers"] = (0..attacking.len())
                .filter(|&slot| t.attackers >> slot & 1 == 1)
                .map(|slot| name(attacking[slot]))
                .collect::<Vec<_>>()
                .into();
        }
        v["seats"] = seats.into();
        v
    }

    fn describe(&self, _rules: &Rules, m: Move, observer: usize) -> String {
        let name = |id: u8| self.cards[usize::from(id)].name();
        let actor = self.to_act().unwrap_or(0);
        if actor != observer && matches!((m, self.phase), (Move::Discard(_), Phase::OpeningDiscard(_))) {
            // Unseen until every seat has chosen.
            return "discards a card face down".into();
        }
        let hand = |i: u8| name(self.hands[actor][usize::from(i)]);
        let creatures = |seat: usize, bits: u64| {
            let b = &self.boards[seat];
            (b.creatures().iter().enumerate())
                .filter(|(slot, _)| bits >> slot & 1 == 1)
                .map(|(_, &c)| name(c))
                .collect::<Vec<_>>()
        };
        match m {
            Move::Pick(p) => format!("take {} from the row", name(self.row[p.index])),
            Move::TakeTop(true) => match self.discard[..self.n_discard].last() {
                Some(&c) => format!("take {} from the discard pile", name(c)),
                None => "take the discard pile's top".into(),
            },
            Move::TakeTop(false) => "draw two".into(),
            Move::Discard(i) => format!("discard {}", hand(i)),
            Move::Mulligan(None) => "keep the hand".into(),
            // In one order whatever the hand's, so that pairs of the same two cards read alike
            // (and a person's menu offers them once).
            Move::Mulligan(Some((i, j))) => {
                let (a, b) = (hand(i), hand(j));
                let (a, b) = if a <= b { (a, b) } else { (b, a) };
                format!("remove {a} and {b} to draw one")
            }
            Move::Land(Some(i)) => format!("play {}", hand(i)),
            Move::Land(None) => "play no land".into(),
            Move::Cast(Some(i)) => format!("cast {}", hand(i)),
            Move::Cast(None) => "cast nothing more".into(),
            Move::Target(d) => format!("attack seat {d}"),
            Move::Attack(0) => "attack with nothing".into(),
            Move::Attack(bits) => format!("attack with {}", creatures(actor, bits).join(", ")),
            Move::Block(blocks) => {
                let attacker = usize::from(self.seat);
                let attackers = &self.boards[attacker];
                let defenders = &self.boards[actor];
                let pairs: Vec<String> = (0..attackers.creatures().len())
                    .filter(|&slot| self.attackers >> slot & 1 == 1 && blocks[slot] != NO_CARD)
                    .filter_map(|slot| {
                        let blocker = *defenders.creatures().get(usize::from(blocks[slot]))?;
                        Some(format!("{} blocks {}", name(blocker), name(attackers.creatures()[slot])))
                    })
                    .collect();
                if pairs.is_empty() { "block nothing".into() } else { pairs.join("; ") }
            }
        }
    }

    fn observe(&self, rules: &Rules, seat: usize, out: &mut Observation) {
        out.seat = seat;
        let t = &mut out.table;
        t.clone_from(self);
        t.verify = false;
        t.deal_seed = 0;
        t.drawn = [0; MAX_SEATS];
        t.flood = [(0, 0); MAX_SEATS];
        blank_tail(&mut t.cards, t.n_cards, Card::default());
        t.library = [0; MAX_LIBRARY];
        blank_tail(&mut t.row, t.n_row, NO_CARD);
        for s in 0..MAX_SEATS {
            if s != seat && s < rules.players {
                for i in self.pending_range(s) {
                    t.discard[i] = NO_CARD;
                }
            }
            if s == seat {
                blank_tail(&mut t.hands[s], t.boards[s].hand_size, 0);
            } else {
                t.hands[s] = [0; MAX_HAND];
                if self.phase == Phase::DrawDiscard(s as u8) {
                    t.draw_lands = 0;
                }
            }
            let b = &mut t.boards[s];
            blank_tail(&mut b.land_ids, b.n_lands, 0);
            blank_tail(&mut b.creatures, b.n_creatures, 0);
            blank_tail(&mut b.graveyard, b.n_graveyard, 0);
        }
        blank_tail(&mut t.discard, self.chosen.max(self.n_discard), 0);
        blank_tail(&mut t.removed, t.n_removed, 0);
        if !matches!(self.phase, Phase::Attack(_) | Phase::Block(_)) {
            t.defender = 0;
        }
        if self.phase != Phase::Block(self.defender) {
            t.attackers = 0;
        }
    }

    fn determinize(rules: &Rules, obs: &Observation, rng: &mut BotRng, out: &mut State) {
        out.clone_from(&obs.table);
        let seat = obs.seat;
        let mut seen = CardBits::default();
        mark(&mut seen, &out.row[..out.n_row]);
        mark(&mut seen, &out.discard[..out.chosen.max(out.n_discard)]);
        mark(&mut seen, &out.removed[..out.n_removed]);
        mark(&mut seen, &out.hands[seat][..out.boards[seat].hand_size]);
        for b in &out.boards[..rules.players] {
            mark(&mut seen, b.land_ids());
            mark(&mut seen, b.creatures());
            mark(&mut seen, b.graveyard());
            for c in b.known_hand.iter() {
                seen.insert(c);
            }
        }
        // The unseen cards, shuffled, fill the places the seat cannot see.
        let mut unseen = [0u8; MAX_LIBRARY];
        let mut k = 0;
        for id in (0..out.n_cards as u8).filter(|&id| !seen.contains(id)) {
            unseen[k] = id;
            k += 1;
        }
        shuffle(&mut unseen[..k], rng);
        let mut next = 0;
        for s in (0..rules.players).filter(|&s| s != seat) {
            let b = &out.boards[s];
            let mut i = 0;
            for c in b.known_hand.iter() {
                out.hands[s][i] = c;
                i += 1;
            }
            for slot in &mut out.hands[s][i..b.hand_size] {
                *slot = unseen[next];
                next += 1;
            }
            for i in obs.table.pending_range(s) {
                out.discard[i] = unseen[next];
                next += 1;
            }
        }
        out.library[..out.n_library].copy_from_slice(&unseen[next..next + out.n_library]);
        debug_assert_eq!(next + out.n_library, k, "every unseen card has one place");
        out.deal_seed = rng.next_u64();
    }

    fn key(&self, _rules: &Rules, actor: usize, observer: usize, m: Move) -> u32 {
        let hand = |i: u8| u32::from(self.hands[actor][usize::from(i)]);
        match m {
            Move::Pick(pick) => KEY_PICK | u32::from(self.row[pick.index]),
            Move::TakeTop(top) => KEY_TAKE_TOP | u32::from(top),
            Move::Discard(_) if actor != observer && matches!(self.phase, Phase::OpeningDiscard(_)) => {
                KEY_UNSEEN_DISCARD
            }
            Move::Discard(i) => KEY_DISCARD | hand(i),
            Move::Mulligan(None) => KEY_MULLIGAN | KEY_NONE,
            Move::Mulligan(Some((i, j))) => {
                let (a, b) = (hand(i), hand(j));
                KEY_MULLIGAN | a.min(b) << 8 | a.max(b)
            }
            Move::Land(choice) => KEY_LAND | choice.map_or(KEY_NONE, hand),
            Move::Cast(choice) => KEY_CAST | choice.map_or(KEY_NONE, hand),
            Move::Target(d) => KEY_TARGET | u32::from(d),
            Move::Attack(bits) => {
                let ready = self.boards[actor].ready();
                KEY_ATTACK
                    | match bits {
                        0 => 0,
                        b if b == ready => 1,
                        b if b.count_ones() == 1 => 0x1000 | b.trailing_zeros(),
                        b if (ready & !b).count_ones() == 1 => 0x2000 | (ready & !b).trailing_zeros(),
                        b => 0x4000 | digest(b),
                    }
            }
            Move::Block(blocks) => {
                let mut pairs = 0u64;
                let mut count = 0;
                let mut last = 0u32;
                for (slot, &b) in blocks.iter().enumerate().filter(|&(_, &b)| b != NO_CARD) {
                    pairs = pairs.rotate_left(13) ^ ((slot as u64) << 8 | u64::from(b));
                    count += 1;
                    last = (slot as u32) << 6 | u32::from(b);
                }
                KEY_BLOCK
                    | match count {
                        0 => 0,
                        1 => 0x1000 | last,
                        _ => 0x8000 | digest(pairs),
                    }
            }
        }
    }

    fn returns(&self, rules: &Rules, _out: &RoundResult, seat: usize) -> f64 {
        // The win share: a drawn game is shared by all.
        match self.winners {
            0 => 1.0 / rules.players as f64,
            w if w >> seat & 1 == 1 => 1.0 / f64::from(w.count_ones()),
            _ => 0.0,
        }
    }

    fn estimate(&self, rules: &Rules, _out: &RoundResult, seat: usize, players: usize) -> f64 {
        let total: f64 = (0..rules.players).map(|s| self.strength(s)).sum();
        if total > 0.0 { self.strength(seat) / total } else { 1.0 / players as f64 }
    }
}

/// The step in words.
impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Phase::OpeningDiscard(s) => write!(f, "opening: seat {s} discards down to its hand size"),
            Phase::Mulligan(s) => write!(f, "opening: seat {s} may remove two cards to draw one"),
            Phase::Pick(s) => write!(f, "draw: seat {s} takes a card from the row"),
            Phase::TakeTop(s) => write!(f, "draw: seat {s} takes the discard pile's top or draws two"),
            Phase::DrawDiscard(s) => write!(f, "draw: seat {s} drew two and discards any one card from its hand"),
            Phase::Land(s) => write!(f, "land: seat {s} may play a land"),
            Phase::Cast(s) => write!(f, "cast: seat {s} may cast a creature"),
            Phase::Target(s) => write!(f, "attack: seat {s} chooses the opponent to attack"),
            Phase::Attack(s) => write!(f, "attack: seat {s} chooses its attackers"),
            Phase::Block(s) => write!(f, "block: seat {s} blocks"),
            Phase::EndDiscard(s) => write!(f, "end of turn: seat {s} discards down to the hand limit"),
            Phase::Over => f.write_str("over"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two quick openings that remove the same two cards read alike, whatever the cards'
    /// places in the hand, so a person's menu offers them once.
    #[test]
    fn openings_of_the_same_two_cards_read_alike() {
        let (rules, points) = crate::games::contest::default_points::<crate::games::live_draft::Def>(7, 3000, 1);
        let mut legal = Vec::new();
        let mut twins = 0;
        for state in points.iter().filter(|s| matches!(s.phase, Phase::Mulligan(_))) {
            let seat = state.to_act().unwrap();
            state.legal(&rules, &mut legal);
            // Two copies of a card are two ids of one name: compared as named.
            let cards = |i: u8, j: u8| {
                let name = |k: u8| state.describe(&rules, Move::Discard(k), seat);
                let (a, b) = (name(i), name(j));
                if a <= b { (a, b) } else { (b, a) }
            };
            for &m in &legal {
                let Move::Mulligan(Some((i, j))) = m else { continue };
                for &n in &legal {
                    let Move::Mulligan(Some((k, l))) = n else { continue };
                    if (i, j) != (k, l) && cards(i, j) == cards(k, l) {
                        twins += 1;
                        assert_eq!(state.describe(&rules, m, seat), state.describe(&rules, n, seat));
                    }
                }
            }
        }
        assert!(twins > 0, "no hand held two of a card");
    }
}
