//! The rules' steps: deals, exchanges, shows, stays and folds, scoring and the game, and the heuristic bots' driver.

use super::*;

impl State {
    /// A table that checks the invariants after every step, in any build.
    pub fn verified() -> State {
        State { verify: true, ..State::default() }
    }

    /// Each seat's victory colours after the last unit played.
    pub fn victory(&self, seat: usize) -> u8 {
        self.public.victory[seat]
    }

    /// Each seat's hand after the last round played (a folder's kept cards).
    pub fn hand(&self, seat: usize) -> u64 {
        self.hands[seat]
    }

    /// The public part of the state.
    pub fn public(&self) -> &Public {
        &self.public
    }

    /// Every card is in exactly one place: a hand, the pile, the face-up discards or the
    /// victory cards; shown cards are in their holder's hand.
    #[cold]
    #[inline(never)]
    pub(super) fn check(&self, layout: Layout, n: usize) -> Result<(), Error> {
        let broken = |what: String| Err(Error::Invariant(what));
        let p = &self.public;
        let pile_cards = &self.pile[..usize::from(p.pile)];
        let pile: u64 = pile_cards.iter().fold(0, |m, &id| m | 1 << id);
        if pile.count_ones() as usize != pile_cards.len() {
            return broken("a card is in the pile twice".into());
        }
        let mut all = pile;
        let mut total = pile.count_ones() + p.discards.count_ones() + p.removed.count_ones();
        all |= p.discards | p.removed;
        for s in 0..n {
            all |= self.hands[s];
            total += self.hands[s].count_ones();
            if p.shown[s] & !self.hands[s] != 0 {
                return broken(format!("seat {s} shows cards it does not hold"));
            }
            if p.victory[s].count_ones() as usize > COLOURS {
                return broken(format!("seat {s} holds too many victory colours"));
            }
            if usize::from(p.held[s]) != self.hands[s].count_ones() as usize {
                return broken(format!("seat {s}'s public hand size is wrong"));
            }
        }
        if total != all.count_ones() {
            return broken("a card is in two places".into());
        }
        if all != layout.all() {
            return broken(format!("cards went missing: {}", layout.set_name(layout.all() & !all)));
        }
        Ok(())
    }

    /// Starts a game with this deal seed, up to the first decision.
    pub fn reset(&mut self, rules: &Rules, deal: Deal, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        self.public = Public { players: rules.players, ..Public::default() };
        self.hands = [0; MAX_SEATS];
        self.deal_seed = deal.seed;
        self.stacked = false;
        self.single_round = false;
        self.last_round = u32::MAX;
        self.truncated = false;
        self.begin_round(rules, sink, out)
    }

    /// The next round, or the end of the game when the deck cannot refill the hands under
    /// `short_pile = "ends-game"` (the most victory cards wins, alone).
    pub(super) fn begin_round(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        let n = rules.players;
        let layout = Layout { per: rules.cards_per_colour };
        if rules.short_pile == ShortPile::EndsGame && cards_needed(rules, &self.hands) > deck_size(layout, self, n) {
            let p = &mut self.public;
            p.short_end = true;
            let most = p.victory[..n].iter().map(|v| v.count_ones()).max().unwrap_or(0);
            let mut leaders = (0..n).filter(|&s| p.victory[s].count_ones() == most);
            if let (Some(s), None) = (leaders.next(), leaders.next()) {
                p.game_winner = Some(s as u8);
            }
            return self.finish(rules, out);
        }
        self.start_round(rules, sink, out)
    }

    /// A round's deck and deal, up to the first exchange.
    pub(super) fn start_round(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        let n = rules.players;
        let layout = Layout { per: rules.cards_per_colour };
        let first = self.public.first;
        let order = |k: usize| (first + k) % n;
        sink.event(Event::RoundStart { round: self.public.round, first });
        // The new deck: every card not held (kept cards) and not a victory card.
        self.round_rng =
            Xoshiro256PlusPlus::seed_from_u64(mix_seed(self.deal_seed, u64::from(self.public.round), ROUND_STREAM));
        if !self.stacked {
            let held: u64 = self.hands[..n].iter().fold(0, |a, h| a | h);
            let mut len = 0;
            for id in ids(layout.all() & !held & !self.public.removed) {
                self.pile[len] = id;
                len += 1;
            }
            shuffle(&mut self.pile[..len], &mut self.round_rng);
            self.public.pile = len as u8;
        }
        let p = &mut self.public;
        p.discards = 0;
        p.discarded = [0; MAX_SEATS];
        p.shown = [0; MAX_SEATS];
        p.known = [0; MAX_SEATS];
        p.gone = 0;
        p.declared = [None; MAX_SEATS];
        p.round_winner = None;
        p.tie_out = false;
        p.all_compete = false;
        p.lone_keeps = false;
        // A fold that kept cards counts once there is a next round to pay off in.
        for s in 0..n {
            if p.kept_fold[s] {
                out.seats[s].count(KEPT_FOLDS);
            }
        }
        let short = cards_needed(rules, &self.hands) > usize::from(p.pile);
        if short {
            for s in 0..n {
                out.seats[s].count(SHORT_DEALS);
            }
        }
        if short && rules.short_pile == ShortPile::OneAtATime {
            // Around the table from the first player, one card to each short hand per pass,
            // until the pile runs out.
            let mut dealt = true;
            while dealt {
                dealt = false;
                for s in (0..n).map(order) {
                    if (self.hands[s].count_ones() as usize) < rules.hand_size
                        && let Some(card) = self.draw()
                    {
                        self.hands[s] |= 1 << card;
                        dealt = true;
                    }
                }
            }
        } else {
            for s in (0..n).map(order) {
                while (self.hands[s].count_ones() as usize) < rules.hand_size {
                    let Some(card) = self.draw() else { break };
                    self.hands[s] |= 1 << card;
                }
            }
        }
        for s in (0..n).map(order) {
            let size = self.hands[s].count_ones() as u8;
            self.public.sizes[s] = size;
            self.public.held[s] = size;
            sink.event(Event::Hand { seat: s, cards: self.hands[s] });
        }
        if self.verify {
            self.check(layout, n)?;
        }
        self.public.orbit = 0;
        self.public.pass = 0;
        self.next_exchange(rules, sink, out)
    }

    /// The top card of the pile.
    #[inline(always)]
    pub(super) fn draw(&mut self) -> Option<u8> {
        let p = &mut self.public;
        if p.pile == 0 {
            return None;
        }
        p.pile -= 1;
        Some(self.pile[usize::from(p.pile)])
    }

    /// The next exchange turn (orbits from the first player, while the pile lasts), or the
    /// reveal.
    pub(super) fn next_exchange(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        let n = rules.players;
        let p = &mut self.public;
        if usize::from(p.pass) == n {
            p.pass = 0;
            p.orbit += 1;
        }
        if usize::from(p.orbit) >= rules.exchange_orbits || p.pile == 0 {
            p.pass = 0;
            self.choices = [0; MAX_SEATS];
            return self.next_show(rules, sink, out);
        }
        let s = ((p.first + usize::from(p.pass)) % n) as u8;
        p.phase = if rules.left_swap == LeftSwap::None { Phase::Exchange(s) } else { Phase::SwapGive(s) };
        Ok(())
    }

    /// Seat `s` gives `give` (or nothing) to its left neighbour.
    pub(super) fn swap_give(&mut self, rules: &Rules, s: usize, give: Option<u8>, sink: &mut impl Sink) {
        let n = rules.players;
        let Some(give) = give else {
            self.public.phase = Phase::Exchange(s as u8);
            return;
        };
        let left = (s + 1) % n;
        self.hands[s] &= !(1 << give);
        self.hands[left] |= 1 << give;
        if rules.left_swap == LeftSwap::Random {
            // Swaps happen while the pile is not empty, so every hand is full.
            let cards = self.hands[left] & !(1 << give);
            let got = nth(cards, self.round_rng.random_range(0..cards.count_ones().max(1)));
            self.swap_back(s, give, got, sink, n);
        } else {
            self.swap_card = give;
            self.public.held[s] -= 1;
            self.public.held[left] += 1;
            self.public.phase = Phase::SwapReturn(left as u8);
        }
    }

    /// The left neighbour of `s` gives back `got` for `give`; `s` exchanges next.
    pub(super) fn swap_back(&mut self, s: usize, give: u8, got: u8, sink: &mut impl Sink, n: usize) {
        let left = (s + 1) % n;
        self.hands[left] &= !(1 << got);
        self.hands[s] |= 1 << got;
        let p = &mut self.public;
        p.held[s] = self.hands[s].count_ones() as u8;
        p.held[left] = self.hands[left].count_ones() as u8;
        sink.event(Event::Swap { seat: s, gave: give, got });
        p.phase = Phase::Exchange(s as u8);
    }

    /// Seat `s` discards `discard` face up and draws as many.
    #[inline(always)]
    pub(super) fn exchange(
        &mut self,
        rules: &Rules,
        s: usize,
        discard: u64,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Step {
        let layout = Layout { per: rules.cards_per_colour };
        if discard != 0 {
            self.hands[s] &= !discard;
            let p = &mut self.public;
            p.discards |= discard;
            p.discarded[s] |= discard;
            let mut drew = 0;
            for _ in 0..discard.count_ones() {
                let Some(card) = self.draw() else { break };
                drew |= 1 << card;
            }
            self.hands[s] |= drew;
            out.seats[s].sums[EXCHANGED] += i64::from(discard.count_ones());
            sink.event(Event::Exchange { seat: s, discarded: discard, drew });
        } else {
            // Told too, so that a replay shows every seat's choice.
            sink.event(Event::Exchange { seat: s, discarded: 0, drew: 0 });
        }
        if self.verify {
            self.check(layout, rules.players)?;
        }
        self.public.pass += 1;
        self.next_exchange(rules, sink, out)
    }

    /// The next seat to choose its shown cards, or the reveal (every choice at once) and
    /// the declarations.
    pub(super) fn next_show(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        let n = rules.players;
        let p = &mut self.public;
        let first = p.first;
        if usize::from(p.pass) < n {
            p.phase = Phase::Show(((first + usize::from(p.pass)) % n) as u8);
            return Ok(());
        }
        for s in (0..n).map(|k| (first + k) % n) {
            p.shown[s] = self.choices[s];
            p.known[s] = self.choices[s];
            sink.event(Event::Show { seat: s, cards: self.choices[s] });
        }
        p.pass = 0;
        self.next_declare(rules, sink, out)
    }

    /// The next declaration (from the dealer, the seat before the first player), or the
    /// showdown. Under `all_fold = "last-stays"` the last seat, seeing every other fold,
    /// stays without being asked.
    pub(super) fn next_declare(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        let n = rules.players;
        let p = &mut self.public;
        while usize::from(p.pass) < n {
            let k = usize::from(p.pass);
            let s = (p.first + n - 1 + k) % n;
            let forced = k == n - 1 && rules.all_fold == AllFold::LastStays && !p.declared.contains(&Some(true));
            if !forced {
                p.phase = Phase::Declare(s as u8);
                return Ok(());
            }
            p.declared[s] = Some(true);
            sink.event(Event::Declare { seat: s, stays: true });
            p.pass += 1;
        }
        self.showdown(rules, sink, out)
    }

    /// In a phase whose moves are colour subsets of a hand (exchange, show, keep): the hand,
    /// the range of card counts, and the move each subset makes; listed by `legal` and
    /// counted by `legal_count` from this one description.
    pub(super) fn subset_menu(&self, rules: &Rules) -> Option<SubsetMenu> {
        let p = &self.public;
        match p.phase {
            Phase::Exchange(s) => {
                Some((self.hands[usize::from(s)], 0, rules.max_exchange.min(usize::from(p.pile)), Move::Exchange))
            }
            Phase::Show(s) => {
                let hand = self.hands[usize::from(s)];
                let want = rules.shown.min(hand.count_ones() as usize);
                Some((hand, want, want, Move::Show))
            }
            Phase::Keep(s) => Some((self.hands[usize::from(s)], 0, COLOURS * 9, Move::Keep)),
            _ => None,
        }
    }

    /// The victory colours `w` may take and how many: one of the longest colour, or two
    /// for all seven; never a colour already held.
    pub(super) fn victory_candidates(&self, layout: Layout, w: usize) -> (u8, usize) {
        let counts = layout.counts(self.hands[w]);
        let seven = counts.iter().all(|&k| k == 1);
        let longest = counts.iter().copied().max().unwrap_or(0);
        let candidates = (0..COLOURS)
            .filter(|&c| counts[c] > 0 && (seven || counts[c] == longest) && self.public.victory[w] >> c & 1 == 0)
            .fold(0u8, |m, c| m | 1 << c);
        (candidates, if seven { 2 } else { 1 })
    }

    /// The showdown: the strongest category held by exactly one competitor wins. Those who
    /// stayed compete; when everyone folded, everyone does under `all_fold = "showdown"`.
    pub(super) fn showdown(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        let n = rules.players;
        let layout = Layout { per: rules.cards_per_colour };
        if self.verify {
            self.check(layout, n)?;
        }
        let hands = &self.hands;
        let p = &mut self.public;
        let declared = p.declared;
        let stayed = |s: usize| declared[s] == Some(true);
        let stayers = (0..n).filter(|&s| stayed(s)).count();
        let all_compete = stayers == 0 && rules.all_fold == AllFold::Showdown;
        let competes = |s: usize| stayed(s) || all_compete;
        // Each competitor's strength, once (the levels below look at it many times).
        let mut strengths = [0u8; MAX_SEATS];
        for s in (0..n).filter(|&s| competes(s)) {
            strengths[s] = layout.strength(hands[s]);
        }
        let strength = |s: usize| strengths[s];
        let mut tie_out = false;
        let winner = match if all_compete { n } else { stayers } {
            0 => None,
            1 => (0..n).find(|&s| stayed(s)),
            _ => {
                let mut best: Option<usize> = None;
                for level in (0..=SEVEN_COLOURS).rev() {
                    let mut at = (0..n).filter(|&s| competes(s) && strength(s) == level);
                    if let (Some(s), None) = (at.next(), at.next()) {
                        best = Some(s);
                        break;
                    }
                }
                tie_out = best.is_none();
                for s in (0..n).filter(|&s| competes(s)) {
                    sink.event(Event::Reveal { seat: s, cards: hands[s] });
                    p.known[s] = hands[s];
                    if let Some(bin) = category_bin(strength(s)) {
                        out.seats[s].observe(SHOWDOWN, bin);
                        if best == Some(s) {
                            out.seats[s].observe(WINNING, bin);
                        }
                    }
                }
                best
            }
        };
        for s in 0..n {
            let r = &mut out.seats[s];
            if stayers == 0 {
                r.count(NOBODY_STAYS);
            }
            if tie_out {
                r.count(TIE_OUTS);
            }
            if stayed(s) {
                r.count(STAYS);
                // A stayer competes, so its strength is known: `is_bluff` without counting again.
                if shows_more(layout, p.shown[s]) && strength(s) != SEVEN_COLOURS {
                    r.count(BLUFF_STAYS);
                    if winner == Some(s) {
                        r.count(BLUFF_WINS);
                    }
                }
            }
            if p.kept_fold[s] && winner == Some(s) {
                r.count(KEPT_FOLDS_PAID);
            }
        }
        p.round_winner = winner.map(|w| w as u8);
        p.tie_out = tie_out;
        p.all_compete = all_compete;
        p.lone_keeps = stayers == 1 && rules.lone_stayer == LoneStayer::Keeps;
        let Some(w) = winner else { return self.take_victory(rules, 0, sink, out) };
        out.seats[w].count(ROUND_WINS);
        let (candidates, wanted) = self.victory_candidates(layout, w);
        if wanted == 2 {
            out.seats[w].count(SEVEN_COLOUR_WINS);
        }
        if candidates.count_ones() as usize <= wanted {
            self.take_victory(rules, candidates, sink, out)
        } else if rules.victory_colours == VictoryColours::Lowest {
            self.take_victory(rules, lowest_bits(candidates, wanted), sink, out)
        } else {
            self.public.phase = Phase::Victory(w as u8);
            Ok(())
        }
    }

    /// The round's winner takes `colours` (one card of each leaves its hand and play), then
    /// the seats that did not compete keep cards.
    pub(super) fn take_victory(
        &mut self,
        rules: &Rules,
        colours: u8,
        sink: &mut impl Sink,
        out: &mut RoundResult,
    ) -> Step {
        let n = rules.players;
        let layout = Layout { per: rules.cards_per_colour };
        let p = &mut self.public;
        if let Some(w) = p.round_winner {
            let w = usize::from(w);
            for c in 0..COLOURS {
                if colours >> c & 1 == 1 {
                    let card = self.hands[w] & layout.colour_mask(c);
                    let card = card & card.wrapping_neg();
                    self.hands[w] &= !card;
                    p.removed |= card;
                    p.victory[w] |= 1 << c;
                }
            }
            p.sizes[w] = self.hands[w].count_ones() as u8;
            p.held[w] = p.sizes[w];
            p.known[w] &= self.hands[w];
        }
        sink.event(Event::Outcome { winner: p.round_winner.map(usize::from), colours, tie_out: p.tie_out });
        // Those who competed discard their hands; folders (and a lone stayer under
        // `lone_stayer = "keeps"`) keep what their bot keeps.
        for s in 0..n {
            p.kept_fold[s] = false;
            if !keeps(p, s) {
                self.hands[s] = 0;
                p.held[s] = 0;
                p.gone |= p.known[s];
                p.known[s] = 0;
            }
        }
        p.pass = 0;
        self.next_keep(rules, sink, out)
    }

    /// The next seat to keep cards, or the round's end.
    pub(super) fn next_keep(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        let n = rules.players;
        let p = &mut self.public;
        while usize::from(p.pass) < n {
            let s = usize::from(p.pass);
            if keeps(p, s) {
                p.phase = Phase::Keep(s as u8);
                return Ok(());
            }
            p.pass += 1;
        }
        self.end_round(rules, sink, out)
    }

    /// Ends the round: the game's winner, the round cap, a search world's last round, or
    /// the next round.
    pub(super) fn end_round(&mut self, rules: &Rules, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        let n = rules.players;
        let layout = Layout { per: rules.cards_per_colour };
        // Discards and unkept cards go back to the deck, rebuilt at the next round's start;
        // the check needs it now to see every card in one place.
        self.public.shown = [0; MAX_SEATS];
        self.public.known = [0; MAX_SEATS];
        if self.verify {
            self.public.discards = 0;
            let held = self.hands[..n].iter().fold(0, |a, h| a | h);
            let mut len = 0;
            for id in ids(layout.all() & !self.public.removed & !held) {
                self.pile[len] = id;
                len += 1;
            }
            self.public.pile = len as u8;
            self.check(layout, n)?;
        }
        let p = &mut self.public;
        p.round += 1;
        p.first = (p.first + 1) % n;
        if self.single_round {
            p.phase = Phase::Over;
            return Ok(());
        }
        if let Some(w) = p.round_winner
            && (rules.unit == Unit::Round || p.victory[usize::from(w)].count_ones() as usize >= rules.victory_target)
        {
            p.game_winner = Some(w);
        }
        let cap = if rules.unit == Unit::Round { 1 } else { rules.max_rounds };
        if p.game_winner.is_some() || p.round >= cap {
            return self.finish(rules, out);
        }
        if p.round > self.last_round {
            p.phase = Phase::Over;
            self.truncated = true;
            return Ok(());
        }
        self.begin_round(rules, sink, out)
    }

    /// Ends the game: scores are the victory cards held; the winner takes the share.
    pub(super) fn finish(&mut self, rules: &Rules, out: &mut RoundResult) -> Result<(), Error> {
        let p = &mut self.public;
        p.phase = Phase::Over;
        for s in 0..rules.players {
            let r = &mut out.seats[s];
            r.rounds = p.round;
            r.score = i64::from(p.victory[s].count_ones());
            r.sums[VICTORY_CARDS] = r.score;
            if p.short_end {
                r.sums[SHORT_ENDS] = 1;
            } else if rules.unit == Unit::Game && p.game_winner.is_none() {
                r.sums[CAPPED] = 1;
                out.health.capped = true;
            }
        }
        if let Some(w) = p.game_winner {
            out.seats[usize::from(w)].share_units = SHARE_UNIT;
        }
        out.length = p.round;
        Ok(())
    }

    /// What seat `s` sees now.
    pub(super) fn view<'a>(&'a self, rules: &'a Rules, s: usize) -> SeatView<'a> {
        let p = &self.public;
        let n = rules.players;
        SeatView {
            rules,
            layout: Layout { per: rules.cards_per_colour },
            seat: s,
            first: p.first,
            hand: self.hands[s],
            discards: p.discards,
            discarded: &p.discarded[..n],
            hand_sizes: &p.sizes[..n],
            removed: p.removed,
            shown: &p.shown[..n],
            declared: &p.declared[..n],
            victory: &p.victory[..n],
            pile: usize::from(p.pile),
            round: p.round,
        }
    }

    /// Asks `bot` for the seat to move's decision, from its view; a move the rules do not
    /// allow is [`Error::IllegalAction`].
    #[inline(always)]
    pub fn ask_bot<B: Bot + ?Sized>(&self, rules: &Rules, bot: &mut B, rng: &mut BotRng) -> Result<Move, Error> {
        let layout = Layout { per: rules.cards_per_colour };
        let p = &self.public;
        match p.phase {
            Phase::SwapGive(s) => {
                let s = usize::from(s);
                let offer = bot.swap_give(&self.view(rules, s), rng);
                if let Some(give) = offer
                    && (!in_deck(layout, give) || self.hands[s] >> give & 1 == 0)
                {
                    return Err(illegal(bot, s, format!("swap away card {give}, which it does not hold")));
                }
                Ok(Move::SwapGive(offer))
            }
            Phase::SwapReturn(left) => {
                let left = usize::from(left);
                let give = self.swap_card;
                let got = bot.swap_return(&self.view(rules, left), give, rng);
                if got == give || !in_deck(layout, got) || self.hands[left] >> got & 1 == 0 {
                    return Err(illegal(bot, left, format!("give back card {got}")));
                }
                Ok(Move::SwapReturn(got))
            }
            Phase::Exchange(s) => {
                let s = usize::from(s);
                let discard = bot.exchange(&self.view(rules, s), rng);
                let k = discard.count_ones() as usize;
                let pile = usize::from(p.pile);
                if discard & !self.hands[s] != 0 || k > rules.max_exchange || k > pile {
                    let shown = layout.set_name(discard & layout.all());
                    return Err(illegal(bot, s, format!("discard {shown} ({k} cards; the pile holds {pile})")));
                }
                Ok(Move::Exchange(discard))
            }
            Phase::Show(s) => {
                let s = usize::from(s);
                let want = rules.shown.min(self.hands[s].count_ones() as usize);
                let shown = bot.show(&self.view(rules, s), rng);
                if shown & !self.hands[s] != 0 || shown.count_ones() as usize != want {
                    let named = layout.set_name(shown & layout.all());
                    return Err(illegal(bot, s, format!("show {named} (must show {want} of its cards)")));
                }
                Ok(Move::Show(shown))
            }
            Phase::Declare(s) => Ok(Move::Stay(bot.stay(&self.view(rules, usize::from(s)), rng))),
            Phase::Victory(w) => {
                let w = usize::from(w);
                let (candidates, wanted) = self.victory_candidates(layout, w);
                let chosen = bot.victory_colours(&self.view(rules, w), candidates, wanted, rng);
                if chosen & !candidates != 0 || chosen.count_ones() as usize != wanted {
                    return Err(illegal(
                        bot,
                        w,
                        format!("take victory colours {chosen:#09b} (must be {wanted} of {candidates:#09b})"),
                    ));
                }
                Ok(Move::Victory(chosen))
            }
            Phase::Keep(s) => {
                let s = usize::from(s);
                let keep = bot.keep(&self.view(rules, s), rng);
                if keep & !self.hands[s] != 0 {
                    let named = layout.set_name(keep & layout.all());
                    return Err(illegal(bot, s, format!("keep {named} it does not hold")));
                }
                Ok(Move::Keep(keep))
            }
            Phase::Over => Err(Error::Invariant("a bot was asked to move after the unit ended".into())),
        }
    }

    /// Applies the seat to move's decision, then moves on to the next one.
    #[inline(always)]
    pub fn step(&mut self, rules: &Rules, m: Move, sink: &mut impl Sink, out: &mut RoundResult) -> Step {
        let n = rules.players;
        match (self.public.phase, m) {
            (Phase::SwapGive(s), Move::SwapGive(give)) => {
                self.swap_give(rules, usize::from(s), give, sink);
                Ok(())
            }
            (Phase::SwapReturn(left), Move::SwapReturn(got)) => {
                let s = (usize::from(left) + n - 1) % n;
                self.swap_back(s, self.swap_card, got, sink, n);
                Ok(())
            }
            (Phase::Exchange(s), Move::Exchange(discard)) => self.exchange(rules, usize::from(s), discard, sink, out),
            (Phase::Show(s), Move::Show(cards)) => {
                self.choices[usize::from(s)] = cards;
                self.public.pass += 1;
                self.next_show(rules, sink, out)
            }
            (Phase::Declare(s), Move::Stay(stays)) => {
                self.public.declared[usize::from(s)] = Some(stays);
                sink.event(Event::Declare { seat: usize::from(s), stays });
                self.public.pass += 1;
                self.next_declare(rules, sink, out)
            }
            (Phase::Victory(_), Move::Victory(colours)) => self.take_victory(rules, colours, sink, out),
            (Phase::Keep(s), Move::Keep(keep)) => {
                let s = usize::from(s);
                let p = &mut self.public;
                self.hands[s] = keep;
                p.held[s] = keep.count_ones() as u8;
                p.known[s] = 0;
                if keep != 0 {
                    p.kept_fold[s] = p.declared[s] != Some(true);
                    sink.event(Event::Keep { seat: s, cards: keep });
                }
                p.pass += 1;
                self.next_keep(rules, sink, out)
            }
            (phase, m) => Err(Error::Invariant(format!("move {m:?} does not fit phase {phase:?}"))),
        }
    }

    /// This state with every card `seat` has not seen dealt again at random: the other
    /// seats' unseen cards, the pile and hidden show choices, with new chance streams.
    /// Made from the truth, not from an observation: the leak test's second state.
    pub fn redeal(&self, rules: &Rules, seat: usize, rng: &mut BotRng) -> State {
        let n = rules.players;
        let mut t = self.clone();
        let p = &t.public;
        let mut hidden: Vec<u8> = self.pile[..usize::from(p.pile)].to_vec();
        for s in (0..n).filter(|&s| s != seat) {
            hidden.extend(ids(t.hands[s] & !p.known[s]));
        }
        rand::seq::SliceRandom::shuffle(&mut hidden[..], rng);
        let mut next = hidden.into_iter();
        for s in (0..n).filter(|&s| s != seat) {
            let unseen = (t.hands[s] & !p.known[s]).count_ones() as usize;
            t.hands[s] = p.known[s] | next.by_ref().take(unseen).fold(0, |m, id| m | 1 << id);
        }
        for (slot, id) in t.pile.iter_mut().zip(next) {
            *slot = id;
        }
        t.hide_choices(rules, seat, rng);
        t.deal_seed = rng.next_u64();
        t.round_rng = Xoshiro256PlusPlus::seed_from_u64(rng.next_u64());
        t
    }

    /// During the show choices, the choices of the seats before the one to move other than
    /// `seat`'s, drawn at random from their hands.
    pub(super) fn hide_choices(&mut self, rules: &Rules, seat: usize, rng: &mut BotRng) {
        let n = rules.players;
        let p = &self.public;
        if !matches!(p.phase, Phase::Show(_)) {
            return;
        }
        for k in 0..usize::from(p.pass) {
            let s = (p.first + k) % n;
            if s == seat {
                continue;
            }
            let want = rules.shown.min(self.hands[s].count_ones() as usize);
            let mut left = self.hands[s];
            let mut chosen = 0;
            for _ in 0..want {
                let card = nth(left, rng.random_range(0..left.count_ones()));
                chosen |= 1 << card;
                left &= !(1 << card);
            }
            self.choices[s] = chosen;
        }
    }
}

/// Whether a card id is in the deck (bots are outside code: check before shifting by it).
pub(super) fn in_deck(layout: Layout, id: u8) -> bool {
    (id as usize) < layout.per * COLOURS
}

/// Whether shown cards suggested more than the hand holds: two or more cards all of
/// different colours (they may mean all seven colours) from a hand without all seven.
/// Cards sharing a colour suggest that many of it, which the hand holds, so never more.
pub fn is_bluff(layout: Layout, hand: u64, shown: u64) -> bool {
    shows_more(layout, shown) && layout.strength(hand) != SEVEN_COLOURS
}

/// Whether shown cards may mean all seven colours: two or more, all of different colours.
pub(super) fn shows_more(layout: Layout, shown: u64) -> bool {
    shown.count_ones() >= 2 && layout.counts(shown).iter().all(|&k| k <= 1)
}

/// Cards in the next round's deck: every card not held and not a victory card.
pub(super) fn deck_size(layout: Layout, t: &State, n: usize) -> usize {
    let held = t.hands[..n].iter().fold(0, |a, h| a | h);
    (layout.all() & !held & !t.public.removed).count_ones() as usize
}

/// Cards the hands need to be full again.
pub(super) fn cards_needed(rules: &Rules, hands: &[u64; MAX_SEATS]) -> usize {
    hands[..rules.players].iter().map(|h| rules.hand_size.saturating_sub(h.count_ones() as usize)).sum()
}

/// The `k` lowest set bits of `bits`.
pub(super) fn lowest_bits(mut bits: u8, k: usize) -> u8 {
    let mut out = 0;
    for _ in 0..k {
        out |= bits & bits.wrapping_neg();
        bits &= bits.wrapping_sub(1);
    }
    out
}
