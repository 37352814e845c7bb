//! The forward model: each seat's observation, determinization, move keys and results.

use super::*;
use crate::games::seven_poker::cards::COLOUR_NAMES;

/// Whether seat `s` keeps cards at the round's end: it did not compete.
pub(super) fn keeps(p: &Public, s: usize) -> bool {
    !p.all_compete && (p.declared[s] != Some(true) || p.lone_keeps)
}

impl Forward for State {
    crate::forward_steps!(variant: Rules, moves: Move, bot: SevenPokerBot);

    /// Victory cards held.
    fn has_standing(_rules: &Rules) -> bool {
        true
    }

    fn standing(&self, _rules: &Rules, seat: usize) -> i64 {
        i64::from(self.public.victory[seat].count_ones())
    }

    #[inline(always)]
    fn to_act(&self) -> Option<usize> {
        match self.public.phase {
            Phase::SwapGive(s)
            | Phase::SwapReturn(s)
            | Phase::Exchange(s)
            | Phase::Show(s)
            | Phase::Declare(s)
            | Phase::Victory(s)
            | Phase::Keep(s) => Some(usize::from(s)),
            Phase::Over => None,
        }
    }

    /// Staying or folding is Seven Poker's bet.
    fn is_bet(&self, _rules: &Rules) -> bool {
        matches!(self.public.phase, Phase::Declare(_))
    }

    fn legal(&self, rules: &Rules, out: &mut Vec<Move>) {
        out.clear();
        let layout = Layout { per: rules.cards_per_colour };
        let p = &self.public;
        match p.phase {
            Phase::SwapGive(s) => {
                out.push(Move::SwapGive(None));
                let (prefix, len) = colour_prefixes(layout, self.hands[usize::from(s)]);
                for c in (0..COLOURS).filter(|&c| len[c] > 0) {
                    out.push(Move::SwapGive(Some(prefix[c][1].trailing_zeros() as u8)));
                }
            }
            Phase::SwapReturn(left) => {
                let (prefix, len) = colour_prefixes(layout, self.hands[usize::from(left)] & !(1 << self.swap_card));
                for c in (0..COLOURS).filter(|&c| len[c] > 0) {
                    out.push(Move::SwapReturn(prefix[c][1].trailing_zeros() as u8));
                }
            }
            Phase::Exchange(_) | Phase::Show(_) | Phase::Keep(_) => {
                let (hand, lo, hi, wrap) = self.subset_menu(rules).expect("a phase of colour subsets");
                colour_subsets(layout, hand, lo, hi, out, wrap);
            }
            Phase::Declare(_) => out.extend([Move::Stay(true), Move::Stay(false)]),
            Phase::Victory(w) => {
                let (candidates, wanted) = self.victory_candidates(layout, usize::from(w));
                let mut sub = candidates;
                loop {
                    if sub.count_ones() as usize == wanted {
                        out.push(Move::Victory(sub));
                    }
                    if sub == 0 {
                        break;
                    }
                    sub = (sub - 1) & candidates;
                }
            }
            Phase::Over => {}
        }
    }

    fn legal_count(&self, rules: &Rules, scratch: &mut Vec<Move>) -> usize {
        match self.subset_menu(rules) {
            // Exchanges, shows and keeps can run to hundreds of moves: counted, not listed.
            Some((hand, lo, hi, _)) => colour_subset_count(Layout { per: rules.cards_per_colour }, hand, lo, hi),
            None => {
                self.legal(rules, scratch);
                scratch.len()
            }
        }
    }

    fn explain(&self, rules: &Rules, bot: &SevenPokerBot) -> Option<String> {
        use crate::games::seven_poker::bots::Decision;
        let (seat, decision) = match self.public.phase {
            Phase::Declare(s) => (s, Decision::Stay),
            Phase::Exchange(s) | Phase::SwapGive(s) | Phase::SwapReturn(s) => (s, Decision::Exchange),
            Phase::Keep(s) => (s, Decision::Keep),
            Phase::Show(s) | Phase::Victory(s) => (s, Decision::Other),
            Phase::Over => return None,
        };
        bot.explain(&self.view(rules, usize::from(seat)), decision)
    }

    fn observe(&self, _rules: &Rules, seat: usize, out: &mut Observation) {
        let phase = self.public.phase;
        *out = Observation {
            seat,
            public: self.public,
            hand: self.hands[seat],
            received: (phase == Phase::SwapReturn(seat as u8)).then_some(self.swap_card),
            chosen: if matches!(phase, Phase::Show(_)) { self.choices[seat] } else { 0 },
        };
    }

    /// Every card the observer has not seen (not in its hand, shown, revealed, discarded
    /// face up or taken as a victory card) is dealt at random to the other hands (as many
    /// as each holds) and the pile; show choices still hidden are drawn from those hands.
    /// The world stops at the end of the round after the observer's (the search's horizon
    /// in a game: every decision of a round pays off in it or, through kept cards, in the
    /// next), and [`Forward::returns`] then estimates the game from the victory cards.
    fn determinize(rules: &Rules, obs: &Observation, rng: &mut BotRng, out: &mut State) {
        let n = rules.players;
        let layout = Layout { per: rules.cards_per_colour };
        let p = &obs.public;
        out.public = *p;
        out.verify = false;
        out.stacked = false;
        out.single_round = false;
        out.truncated = false;
        out.last_round = p.round + 1;
        let mut seen = obs.hand | p.discards | p.removed | p.gone;
        for s in 0..n {
            seen |= p.known[s];
        }
        let mut total = 0;
        for id in ids(layout.all() & !seen) {
            out.pile[total] = id;
            total += 1;
        }
        // One shuffle of the unseen cards: the other hands first, then the pile.
        for i in 0..total.saturating_sub(1) {
            let j = i + rng.random_range(0..total - i);
            out.pile.swap(i, j);
        }
        let mut at = 0;
        for s in 0..n {
            if s == obs.seat {
                out.hands[s] = obs.hand;
                continue;
            }
            let unseen = usize::from(p.held[s]) - p.known[s].count_ones() as usize;
            out.hands[s] = p.known[s] | out.pile[at..at + unseen].iter().fold(0, |m, &id| m | 1 << id);
            at += unseen;
        }
        out.pile.copy_within(at..at + usize::from(p.pile), 0);
        out.choices = [0; MAX_SEATS];
        out.choices[obs.seat] = obs.chosen;
        out.hide_choices(rules, obs.seat, rng);
        out.swap_card = obs.received.unwrap_or(0);
        out.deal_seed = rng.next_u64();
        out.round_rng = Xoshiro256PlusPlus::seed_from_u64(rng.next_u64());
    }

    const REWINDS: bool = true;

    /// At a declaration, the declarations made so far this round, from the first one
    /// (they move no card, so a sampled world's cards replay them as they stand). Every
    /// other decision's past moves cards a sampled world does not place (which cards an
    /// exchange drew, a swap's card), so it is not rebuilt.
    fn rewind(&self, rules: &Rules, start: &mut State, moves: &mut Vec<Move>) -> bool {
        let (p, n) = (&self.public, rules.players);
        if !matches!(p.phase, Phase::Declare(_)) {
            return false;
        }
        start.clone_from(self);
        moves.clear();
        for k in 0..usize::from(p.pass) {
            // Declarations run from the dealer, the seat before the first player.
            let s = (p.first + n - 1 + k) % n;
            let Some(stays) = p.declared[s] else { return false };
            moves.push(Move::Stay(stays));
            start.public.declared[s] = None;
        }
        start.public.pass = 0;
        start.public.phase = Phase::Declare(((p.first + n - 1) % n) as u8);
        true
    }

    fn key(&self, rules: &Rules, actor: usize, observer: usize, m: Move) -> u32 {
        let layout = Layout { per: rules.cards_per_colour };
        let n = rules.players;
        let own = actor == observer;
        match m {
            Move::SwapGive(None) => 0x1000_0000,
            // The left neighbour receives the card and sees it; the others see a swap.
            Move::SwapGive(Some(c)) if own || observer == (actor + 1) % n => 0x1100_0000 | layout.colour(c) as u32,
            Move::SwapGive(Some(_)) => 0x1200_0000,
            Move::SwapReturn(c) if own || observer == (actor + n - 1) % n => 0x2000_0000 | layout.colour(c) as u32,
            Move::SwapReturn(_) => 0x2100_0000,
            Move::Exchange(cards) => 0x3000_0000 | colour_key(layout, cards),
            // Shown cards are revealed only once every seat has chosen.
            Move::Show(cards) if own => 0x4000_0000 | colour_key(layout, cards),
            Move::Show(_) => 0x4100_0000,
            Move::Stay(stays) => 0x5000_0000 | u32::from(stays),
            Move::Victory(colours) => 0x6000_0000 | u32::from(colours),
            Move::Keep(cards) if own => 0x7000_0000 | colour_key(layout, cards),
            Move::Keep(cards) => 0x7100_0000 | cards.count_ones(),
        }
    }

    fn observation_json(rules: &Rules, obs: &Observation) -> serde_json::Value {
        let layout = Layout { per: rules.cards_per_colour };
        let p = &obs.public;
        let n = p.players;
        let cards = |set: u64| ids(set).map(|id| layout.card_name(id)).collect::<Vec<_>>();
        let colours =
            |bits: u8| (0..COLOURS).filter(|c| bits >> c & 1 == 1).map(|c| COLOUR_NAMES[c]).collect::<Vec<_>>();
        serde_json::json!({
            "seat": obs.seat,
            "phase": p.phase.to_string(),
            "round": p.round,
            "first": p.first,
            "hand": cards(obs.hand),
            "received": obs.received.map(|c| layout.card_name(c)),
            "chosen_to_show": cards(obs.chosen),
            "hand_sizes": &p.sizes[..n],
            "held": &p.held[..n],
            "discards": cards(p.discards),
            "discarded": (0..n).map(|s| cards(p.discarded[s])).collect::<Vec<_>>(),
            "shown": (0..n).map(|s| cards(p.shown[s])).collect::<Vec<_>>(),
            "known": (0..n).map(|s| cards(p.known[s])).collect::<Vec<_>>(),
            "declared": (0..n).map(|s| p.declared[s].map(|stay| if stay { "stays" } else { "folds" })).collect::<Vec<_>>(),
            "victory_colours": (0..n).map(|s| colours(p.victory[s])).collect::<Vec<_>>(),
            "kept_after_folding": &p.kept_fold[..n],
            "victory_cards_removed": cards(p.removed),
            "gone_back_to_deck": cards(p.gone),
            "pile": p.pile,
            "round_winner": p.round_winner,
            "game_winner": p.game_winner,
        })
    }

    fn describe(&self, rules: &Rules, m: Move, observer: usize) -> String {
        let layout = Layout { per: rules.cards_per_colour };
        let n = rules.players;
        let actor = self.to_act().unwrap_or(0);
        let own = actor == observer;
        // Another seat reads what it sees by colour (a card's number never matters): the
        // card a swap gives it, the cards exchanged face up; it does not see a swap between
        // two others, the cards chosen to show (revealed once every seat has chosen) or
        // which cards are kept.
        let by_colour = |cards: u64| {
            let counts = layout.counts(cards);
            let parts: Vec<String> =
                (0..COLOURS).filter(|&c| counts[c] > 0).map(|c| format!("{} {}", counts[c], COLOUR_NAMES[c])).collect();
            parts.join(", ")
        };
        if !own {
            match m {
                Move::SwapGive(Some(c)) if observer == (actor + 1) % n => {
                    return format!("gives you a {} card", COLOUR_NAMES[layout.colour(c)]);
                }
                Move::SwapGive(Some(_)) => return "gives a card to the left".into(),
                Move::SwapReturn(c) if observer == (actor + n - 1) % n => {
                    return format!("gives you back a {} card", COLOUR_NAMES[layout.colour(c)]);
                }
                Move::SwapReturn(_) => return "gives a card back".into(),
                Move::Exchange(cards) if cards != 0 => return format!("exchange {}", by_colour(cards)),
                Move::Show(_) => return "chooses the cards to show".into(),
                Move::Keep(cards) => {
                    let n = cards.count_ones();
                    return format!("keeps {n} {}", crate::output::noun(i64::from(n), "card", "cards"));
                }
                _ => {}
            }
        }
        let set = |cards: u64| layout.set_name(cards);
        let colours = |bits: u8| {
            let names: Vec<&str> = (0..COLOURS).filter(|c| bits >> c & 1 == 1).map(|c| COLOUR_NAMES[c]).collect();
            if names.is_empty() { "no colour".to_string() } else { names.join(" ") }
        };
        match m {
            Move::SwapGive(None) => "give no card".into(),
            Move::SwapGive(Some(c)) => format!("give {} to the left", layout.card_name(c)),
            Move::SwapReturn(c) => format!("give back {}", layout.card_name(c)),
            Move::Exchange(0) => "exchange nothing".into(),
            Move::Exchange(cards) => format!("exchange {}", set(cards)),
            Move::Show(0) => "show nothing".into(),
            Move::Show(cards) => format!("show {}", set(cards)),
            Move::Stay(true) => "stay".into(),
            Move::Stay(false) => "fold".into(),
            Move::Victory(bits) => format!("take victory colours {}", colours(bits)),
            Move::Keep(0) => "keep nothing".into(),
            Move::Keep(cards) => format!("keep {}", set(cards)),
        }
    }

    /// Stay-or-fold decisions only, bucketed (the abstraction a trained policy plays;
    /// exchanges, shows and keeps have no key and are left to the policy's fallback
    /// preset): see [`declare_key`].
    fn info_key(rules: &Rules, obs: &Observation) -> Option<u64> {
        declare_key(rules, obs)
    }

    /// The game's win share; a search world stopped at its last round estimates it from
    /// the victory cards ([`race_share`]).
    fn returns(&self, rules: &Rules, out: &RoundResult, seat: usize) -> f64 {
        if self.truncated {
            return race_share(&self.public.victory[..rules.players], seat);
        }
        f64::from(out.seats[seat].share_units) / f64::from(SHARE_UNIT)
    }

    /// As [`Forward::returns`] for a world stopped at a move horizon: the victory cards'
    /// race share.
    fn estimate(&self, rules: &Rules, _out: &RoundResult, seat: usize, _players: usize) -> f64 {
        race_share(&self.public.victory[..rules.players], seat)
    }
}

/// The abstraction of a stay-or-fold decision, built from the seat's observation alone: its
/// hand's strength (all seven colours, else the longest colour's count); whether a win
/// would bring it a victory card (a longest colour, or for all seven any colour, it does
/// not hold yet); the seats that stayed before it and the seats still to declare (0, 1, 2
/// and more), each with the most cards of one colour any of them shows (0 to 3 and more);
/// its victory cards and the most any other seat holds, each by how far it is from the
/// target (one, two, three and more short). `None` at every other decision.
pub fn declare_key(rules: &Rules, obs: &Observation) -> Option<u64> {
    let p = &obs.public;
    if p.phase != Phase::Declare(obs.seat as u8) {
        return None;
    }
    let layout = Layout { per: rules.cards_per_colour };
    let counts = layout.counts(obs.hand);
    let strength = layout.strength(obs.hand);
    let held = p.victory[obs.seat];
    let gains = if strength == SEVEN_COLOURS {
        held != 0x7F
    } else {
        (0..COLOURS).any(|c| counts[c] == strength && held >> c & 1 == 0)
    };
    let (mut stayed, mut stayed_shows, mut waiting, mut waiting_shows) = (0u64, 0u64, 0u64, 0u64);
    let mut rival_victory = 0;
    for t in (0..p.players).filter(|&t| t != obs.seat) {
        let shows = u64::from(layout.counts(p.shown[t]).into_iter().max().unwrap_or(0)).min(3);
        match p.declared[t] {
            Some(true) => {
                stayed += 1;
                stayed_shows = stayed_shows.max(shows);
            }
            None => {
                waiting += 1;
                waiting_shows = waiting_shows.max(shows);
            }
            Some(false) => {}
        }
        rival_victory = rival_victory.max(p.victory[t].count_ones());
    }
    // Victory cards by distance to the target: far, two short, one short.
    let near = |held: u32| u64::from(rules.victory_target.saturating_sub(held as usize).clamp(1, 3) as u32);
    Some(
        u64::from(strength)
            | u64::from(gains) << 4
            | stayed.min(2) << 5
            | stayed_shows << 7
            | waiting.min(2) << 9
            | waiting_shows << 11
            | near(held.count_ones()) << 13
            | near(rival_victory) << 15,
    )
}

/// The step in words.
impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Phase::SwapGive(s) => write!(f, "swap: seat {s} may give its left neighbour a card"),
            Phase::SwapReturn(s) => write!(f, "swap: seat {s} gives a card back"),
            Phase::Exchange(s) => write!(f, "exchange: seat {s} exchanges cards with the pile"),
            Phase::Show(s) => write!(f, "show: seat {s} chooses the cards it shows"),
            Phase::Declare(s) => write!(f, "declare: seat {s} stays or folds"),
            Phase::Victory(s) => write!(f, "victory: seat {s} chooses its victory colours"),
            Phase::Keep(s) => write!(f, "keep: seat {s} keeps cards for the next round"),
            Phase::Over => f.write_str("over"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stay-or-fold key is met at every declaration and nowhere else, and reads nothing
    /// hidden: a world re-dealt from the seat's observation gives the same key.
    #[test]
    fn declare_keys_read_only_the_observation() {
        let (rules, points) = crate::games::contest::default_points::<crate::games::seven_poker::Def>(7, 400, 1);
        let (mut obs, mut again) = (Observation::default(), Observation::default());
        let mut rng = BotRng::seed_from_u64(5);
        let mut declares = 0;
        for state in &points {
            let s = state.to_act().unwrap();
            state.observe(&rules, s, &mut obs);
            let key = declare_key(&rules, &obs);
            assert_eq!(key.is_some(), matches!(state.public.phase, Phase::Declare(_)));
            if key.is_none() {
                continue;
            }
            let world = Forward::redeal(state, &rules, s, &mut rng);
            world.observe(&rules, s, &mut again);
            assert_eq!(declare_key(&rules, &again), key);
            declares += 1;
        }
        assert!(declares > 30, "{declares}");
    }
}
