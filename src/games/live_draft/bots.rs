//! Live-Draft strategy modules and presets.
//!
//! Pick (what to take from the row, whether to take the rummy discard, what to discard):
//! `random`; `best-card` (highest power plus toughness per mana; a land is worth
//! `land_value` while it holds fewer than `lands_wanted` lands); `curve` (as best-card,
//! plus a bonus for a cost its curve lacks, and lands while short for its turn);
//! `colour` (commits to its two main colours once it holds `commit_after` cards; other
//! colours are worth a fifth); `hate` (best-card plus `weight` times the card's worth to
//! the next player, judged from that player's lands and creatures in play and the cards
//! it was seen to take into its hand; a pick whose denial outweighs its own worth is a
//! hate pick; in rummy it also keeps such cards off the discard pile). In rummy every
//! module but `random` takes the discard pile's top only when its worth beats the expected
//! gain of drawing two and discarding one: the best of two cards drawn from those it has
//! not seen, plus the other one where it beats the hand's least card. Mulligan (quick
//! opening): `never`, `lands` (exchanges with fewer than `min` or more than `max` lands).
//! Play: `default` (plays the land its hand needs, casts the most expensive creatures it
//! can, attacks with creatures no untapped blocker can kill and survive (the worst is a
//! trade), blocks when the blocker survives or to stay alive), `cautious` (attacks only
//! when no untapped blocker is left, and also trades blockers for dearer attackers),
//! `aggressive` (attacks with everything, blocks only to stay alive). Every play module
//! attacks with everything when that is lethal, and attacks the opponent with the least
//! life; `default` and `cautious` keep enough attackers home, untapped, that the
//! opponents' next attacks cannot kill them through chump blocks (when staying home can
//! save them).

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::engine::Phase;
use super::rules::{COLOURS, MAX_LIBRARY};
use super::view::{Bot, BotRng, Card, CardBits, MAX_PERMANENTS, NO_CARD, Pick, View};
use crate::error::InputError;
use crate::games::GamePreset;

/// How a bot values cards when it picks, takes and discards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum PickModule {
    /// Uniformly at random.
    Random {},
    /// Highest stats for cost; lands while short.
    BestCard {
        /// A land's worth while short of lands.
        land_value: f64,
        /// Lands (in play and in hand) it wants.
        lands_wanted: usize,
    },
    /// Fills its mana curve; lands while short for its turn.
    Curve {
        /// Lands (in play and in hand) it wants at most.
        lands_wanted: usize,
    },
    /// Commits to two colours.
    Colour {
        /// Cards held before it commits.
        commit_after: usize,
        /// Lands (in play and in hand) it wants.
        lands_wanted: usize,
    },
    /// Denies the next player what it needs most.
    Hate {
        /// Weight of the next player's need against its own.
        weight: f64,
        /// Lands (in play and in hand) it wants.
        lands_wanted: usize,
    },
}

/// Whether a bot exchanges cards in the quick opening.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum MulliganModule {
    /// Never.
    Never {},
    /// With fewer than `min` or more than `max` lands.
    Lands {
        /// Fewest lands it keeps.
        min: usize,
        /// Most lands it keeps.
        max: usize,
    },
}

/// How a bot plays its turn and blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum PlayModule {
    /// Safe attacks, value blocks, blocks to stay alive.
    Default {},
    /// Attacks only an empty board; trades blockers for dearer attackers.
    Cautious {},
    /// Attacks with everything; blocks only to stay alive.
    Aggressive {},
}

/// A Live-Draft preset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    /// One line for `draftsim list strategies`.
    pub description: String,
    /// The pick module.
    pub pick: PickModule,
    /// The mulligan module.
    pub mulligan: MulliganModule,
    /// The play module.
    pub play: PlayModule,
}

/// The presets in `strategies/live-draft/`, embedded in the binary.
pub const PRESETS: &[(&str, &str)] = crate::embedded_presets!(
    "live-draft":
        "random", "best-card", "curve", "colour", "hate", "aggro", "cautious", "search",
);

impl GamePreset for Preset {
    type Bot = LiveDraftBot;

    /// A bot playing this preset under `name`.
    fn bot(&self, name: &str) -> LiveDraftBot {
        LiveDraftBot { name: name.to_string(), preset: self.clone() }
    }

    /// Checks what the TOML's types allow but the modules do not.
    fn check(&self) -> Result<(), InputError> {
        if let MulliganModule::Lands { min, max } = self.mulligan
            && min > max
        {
            return Err(InputError::new(format!("mulligan.min = {min} is above mulligan.max = {max}")));
        }
        if let PickModule::Hate { weight, .. } = self.pick
            && !(0.0..=10.0).contains(&weight)
        {
            return Err(InputError::new(format!("pick.weight = {weight}: use 0 to 10")));
        }
        Ok(())
    }
}

/// A bot made of the three modules.
#[derive(Clone, Debug)]
pub struct LiveDraftBot {
    name: String,
    preset: Preset,
}

/// Power plus toughness per mana.
fn stats(c: Card) -> f64 {
    f64::from(c.power + c.toughness) / f64::from(c.cost.max(1))
}

/// Lands a seat holds in play and in hand (for another seat, the lands it was seen to take).
fn lands_held(view: &View<'_>, seat: usize) -> usize {
    let hand = if seat == view.seat {
        view.hand.iter().filter(|&&c| view.card(c).is_land()).count()
    } else {
        view.boards[seat].known_hand.iter().filter(|&c| view.card(c).is_land()).count()
    };
    view.boards[seat].land_count() + hand
}

/// A seat's colours by weight: its lands and creatures in play, and its hand (for another
/// seat, the cards it was seen to take).
fn colour_weights(view: &View<'_>, seat: usize) -> [usize; COLOURS] {
    let b = &view.boards[seat];
    let mut w: [usize; COLOURS] = std::array::from_fn(|c| usize::from(b.lands[c]));
    for &c in b.creatures() {
        w[usize::from(view.card(c).colour)] += 1;
    }
    if seat == view.seat {
        for &c in view.hand {
            w[usize::from(view.card(c).colour)] += 1;
        }
    } else {
        for c in b.known_hand.iter() {
            w[usize::from(view.card(c).colour)] += 1;
        }
    }
    w
}

/// The cards this seat has not seen: in the library, in other hands unseen, or removed.
fn unseen(view: &View<'_>) -> CardBits {
    let mut seen = CardBits::default();
    let public = view.row.iter().chain(view.discard).chain(view.hand);
    for &c in public.filter(|&&c| c != NO_CARD) {
        seen.insert(c);
    }
    for b in view.boards {
        for &c in b.land_ids().iter().chain(b.creatures()).chain(b.graveyard()) {
            seen.insert(c);
        }
        for c in b.known_hand.iter() {
            seen.insert(c);
        }
    }
    let mut out = CardBits::default();
    for id in (0..view.cards.len()).map(|i| i as u8).filter(|&id| !seen.contains(id)) {
        out.insert(id);
    }
    out
}

/// The two heaviest colours, as bits.
fn main_colours(w: &[usize; COLOURS]) -> u8 {
    let mut order: [usize; COLOURS] = std::array::from_fn(|c| c);
    order.sort_by_key(|&c| (std::cmp::Reverse(w[c]), c));
    (1 << order[0]) | (1 << order[1])
}

/// What a card is worth to the next player, judged from its board.
fn their_need(view: &View<'_>, id: u8) -> f64 {
    let next = view.next_player();
    if next == view.seat {
        return 0.0;
    }
    let c = view.card(id);
    let theirs = colour_weights(view, next);
    if theirs[usize::from(c.colour)] == 0 {
        return 0.0;
    }
    if c.is_land() { if lands_held(view, next) < 5 { 2.0 } else { 0.2 } } else { stats(c) }
}

impl LiveDraftBot {
    /// What `id` is worth to this seat.
    fn worth(&self, view: &View<'_>, id: u8) -> f64 {
        let c = view.card(id);
        let lands = lands_held(view, view.seat);
        let land = |value: f64, wanted: usize| if lands < wanted { value } else { 0.3 };
        match &self.preset.pick {
            PickModule::Random {} => 1.0,
            PickModule::BestCard { land_value, lands_wanted } => {
                if c.is_land() {
                    land(*land_value, *lands_wanted)
                } else {
                    stats(c)
                }
            }
            PickModule::Hate { lands_wanted, .. } => {
                if c.is_land() {
                    land(3.0, *lands_wanted)
                } else {
                    stats(c)
                }
            }
            PickModule::Curve { lands_wanted } => {
                if c.is_land() {
                    let short = (view.turn as usize + 3).min(*lands_wanted);
                    land(4.0, short)
                } else {
                    let same = view
                        .hand
                        .iter()
                        .chain(view.boards[view.seat].creatures())
                        .filter(|&&h| view.card(h).cost == c.cost)
                        .count();
                    let target = [0, 2, 3, 3, 2, 1, 1][usize::from(c.cost.min(6))];
                    stats(c) + if same < target { 1.0 } else { 0.0 }
                }
            }
            PickModule::Colour { commit_after, lands_wanted } => {
                let held =
                    view.hand.len() + view.boards[view.seat].creatures().len() + view.boards[view.seat].land_count();
                let on = held < *commit_after || main_colours(&colour_weights(view, view.seat)) >> c.colour & 1 == 1;
                let base = if c.is_land() { land(3.0, *lands_wanted) } else { stats(c) };
                if on { base } else { base * 0.2 }
            }
        }
    }

    /// Row slot `i`'s worth to a pick (its own worth and what it denies the next seat),
    /// and whether the denial is the larger part.
    fn score(&self, view: &View<'_>, i: usize) -> (f64, bool) {
        let id = view.row[i];
        let (own, deny) = (self.worth(view, id), self.hate_weight() * their_need(view, id));
        (own + deny, deny > own)
    }

    /// The estimate behind a decision in `view` at `phase`, in words for replays: the
    /// best card's worth at a pick, the discard pile's top against drawing two,
    /// an attack's lethal or the threat it holds back against (`defender` the seat attacked);
    /// `None` where the module estimates nothing.
    pub fn explain(&self, view: &View<'_>, phase: Phase, defender: usize) -> Option<String> {
        let judges = self.preset.pick != (PickModule::Random {});
        match phase {
            Phase::Pick(_) if judges => {
                let mut scores: Vec<f64> =
                    (0..view.row.len()).filter(|&i| view.row[i] != NO_CARD).map(|i| self.score(view, i).0).collect();
                scores.sort_unstable_by(|a, b| b.total_cmp(a));
                let mut text = format!("best card of the row worth {:.1}", scores.first()?);
                if let Some(next) = scores.get(1) {
                    text += &format!(", the next {next:.1}");
                }
                Some(text)
            }
            Phase::TakeTop(_) if judges => {
                let top = *view.discard.last()?;
                Some(format!(
                    "the discard pile's top worth {:.1} against {:.1} expected from drawing two",
                    self.worth(view, top),
                    self.draw_two_gain(view)
                ))
            }
            Phase::Attack(_) => {
                let own = &view.boards[view.seat];
                let d = &view.boards[defender];
                if Self::lethal(view, defender, own.ready()) {
                    return Some(format!("its ready creatures are lethal to seat {defender} (life {})", d.life));
                }
                if self.preset.play == (PlayModule::Aggressive {}) {
                    return None;
                }
                let blockers = d.untapped_creatures().count_ones();
                Some(format!(
                    "seat {defender} has {blockers} untapped blocker{}; if all its creatures attack, the opponents could hit back for {} (its life {})",
                    if blockers == 1 { "" } else { "s" },
                    Self::threat(view, 0),
                    own.life
                ))
            }
            _ => None,
        }
    }

    fn hate_weight(&self) -> f64 {
        match self.preset.pick {
            PickModule::Hate { weight, .. } => weight,
            _ => 0.0,
        }
    }

    /// Rummy: the expected gain in hand worth of drawing two cards (one if the library
    /// holds one) from those this seat has not seen and then discarding the least of the
    /// hand and the drawn: the best drawn card, plus the other where it beats the hand's
    /// least.
    fn draw_two_gain(&self, view: &View<'_>) -> f64 {
        let least = view.hand.iter().map(|&c| self.worth(view, c)).fold(f64::INFINITY, f64::min);
        let mut worths = [0.0f64; MAX_LIBRARY];
        let mut n = 0;
        for id in unseen(view).iter() {
            worths[n] = self.worth(view, id);
            n += 1;
        }
        let w = &mut worths[..n];
        if n == 0 {
            return 0.0;
        }
        // What keeping a drawn card of worth `x` adds when the least hand card goes.
        let over_least = |x: f64| if least.is_finite() { (x - least).max(0.0) } else { 0.0 };
        if n == 1 || view.library == 1 {
            // One card drawn, and one card (it, or the hand's least) discarded.
            return w.iter().map(|&x| over_least(x)).sum::<f64>() / n as f64;
        }
        w.sort_unstable_by(f64::total_cmp);
        // Over every pair i < j (ascending worths): the better, w[j], is kept; the other
        // replaces the hand's least where it beats it.
        let pairs = (n * (n - 1) / 2) as f64;
        let best: f64 = w.iter().enumerate().map(|(j, &x)| x * j as f64).sum();
        let second: f64 = w.iter().enumerate().map(|(i, &x)| over_least(x) * (n - 1 - i) as f64).sum();
        (best + second) / pairs
    }

    /// The hand card to let go: the least worth (for `hate`, counting what it would give
    /// the next player from the rummy discard pile).
    fn least(&self, view: &View<'_>, rng: &mut BotRng) -> usize {
        if self.preset.pick == (PickModule::Random {}) {
            return rng.random_range(0..view.hand.len());
        }
        let w = self.hate_weight();
        let gives = view.rules.method == super::rules::Method::Rummy;
        let cost = |id: u8| self.worth(view, id) + if gives { w * their_need(view, id) } else { 0.0 };
        (0..view.hand.len()).min_by(|&a, &b| cost(view.hand[a]).total_cmp(&cost(view.hand[b]))).unwrap_or(0)
    }

    fn lethal(view: &View<'_>, defender: usize, ready: u64) -> bool {
        let own = &view.boards[view.seat];
        let power: i32 = (0..own.creatures().len())
            .filter(|s| ready >> s & 1 == 1)
            .map(|s| i32::from(view.card(own.creatures()[s]).power))
            .sum();
        view.boards[defender].untapped_creatures() == 0 && power >= view.boards[defender].life
    }

    /// Damage the opponents' next attacks could deal this seat with `home` of its
    /// creatures untapped to chump-block the strongest attackers of each.
    fn threat(view: &View<'_>, home: usize) -> i32 {
        let mut total = 0;
        for (s, b) in view.boards.iter().enumerate() {
            if s == view.seat || !b.alive {
                continue;
            }
            let mut powers = [0u8; MAX_PERMANENTS];
            let n = b.creatures().len();
            for (p, &c) in powers.iter_mut().zip(b.creatures()) {
                *p = view.card(c).power;
            }
            powers[..n].sort_unstable_by(|a, b| b.cmp(a));
            total += powers[home.min(n)..n].iter().map(|&p| i32::from(p)).sum::<i32>();
        }
        total
    }

    /// `attackers` less those that must stay home, untapped, so that the opponents' next
    /// attacks cannot kill this seat; the weakest stay first. Unchanged under vigilance,
    /// or when even keeping every creature home would not save it.
    fn hold_back(view: &View<'_>, mut attackers: u64) -> u64 {
        let own = &view.boards[view.seat];
        let n = own.creatures().len();
        if view.rules.vigilance || Self::threat(view, n) >= own.life {
            return attackers;
        }
        let mut home = n - attackers.count_ones() as usize;
        while attackers != 0 && Self::threat(view, home) >= own.life {
            let weakest = (0..n)
                .filter(|&s| attackers >> s & 1 == 1)
                .min_by_key(|&s| (view.card(own.creatures()[s]).power, s))
                .expect("an attacker");
            attackers &= !(1 << weakest);
            home += 1;
        }
        attackers
    }
}

impl Bot for LiveDraftBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn pick(&mut self, view: &View<'_>, rng: &mut BotRng) -> Pick {
        let slots = (0..view.row.len()).filter(|&i| view.row[i] != NO_CARD);
        if self.preset.pick == (PickModule::Random {}) {
            let n = slots.clone().count();
            let index = slots.clone().nth(rng.random_range(0..n)).unwrap_or(0);
            return Pick { index, hate: false };
        }
        let best = slots.max_by(|&a, &b| self.score(view, a).0.total_cmp(&self.score(view, b).0).then(b.cmp(&a)));
        let best = best.unwrap_or(0);
        Pick { index: best, hate: self.score(view, best).1 }
    }

    fn take_discard(&mut self, view: &View<'_>, rng: &mut BotRng) -> bool {
        let Some(&top) = view.discard.last() else { return false };
        match self.preset.pick {
            PickModule::Random {} => rng.random_bool(0.5),
            _ => self.worth(view, top) > self.draw_two_gain(view),
        }
    }

    fn discard(&mut self, view: &View<'_>, rng: &mut BotRng) -> usize {
        self.least(view, rng)
    }

    fn mulligan(&mut self, view: &View<'_>, _rng: &mut BotRng) -> Option<(usize, usize)> {
        let MulliganModule::Lands { min, max } = self.preset.mulligan else { return None };
        let lands = view.hand.iter().filter(|&&c| view.card(c).is_land()).count();
        let want_land = if lands < min {
            false
        } else if lands > max {
            true
        } else {
            return None;
        };
        // Remove two of the kind it has too many of, the least worth first.
        let mut idx: Vec<usize> =
            (0..view.hand.len()).filter(|&i| view.card(view.hand[i]).is_land() == want_land).collect();
        if idx.len() < 2 {
            return None;
        }
        idx.sort_by(|&a, &b| self.worth(view, view.hand[a]).total_cmp(&self.worth(view, view.hand[b])));
        Some((idx[0], idx[1]))
    }

    fn land(&mut self, view: &View<'_>, _rng: &mut BotRng) -> Option<usize> {
        // The colour its creatures in hand need most against the lands it has.
        let b = &view.boards[view.seat];
        let mut need = [0i32; COLOURS];
        for &c in view.hand {
            let card = view.card(c);
            if !card.is_land() {
                need[usize::from(card.colour)] += 2;
            }
        }
        for (c, n) in need.iter_mut().enumerate() {
            *n -= i32::from(b.lands[c]);
        }
        (0..view.hand.len())
            .filter(|&i| view.card(view.hand[i]).is_land())
            .max_by_key(|&i| (need[usize::from(view.card(view.hand[i]).colour)], std::cmp::Reverse(i)))
    }

    fn cast(&mut self, view: &View<'_>, _rng: &mut BotRng) -> Option<usize> {
        (0..view.hand.len()).filter(|&i| view.castable(view.hand[i])).max_by_key(|&i| {
            let c = view.card(view.hand[i]);
            (c.cost, c.power + c.toughness, std::cmp::Reverse(i))
        })
    }

    fn target(&mut self, view: &View<'_>, _rng: &mut BotRng) -> usize {
        let n = view.boards.len();
        (1..n)
            .map(|k| (view.seat + k) % n)
            .filter(|&s| view.boards[s].alive)
            .min_by_key(|&s| view.boards[s].life)
            .unwrap_or((view.seat + 1) % n)
    }

    fn attack(&mut self, view: &View<'_>, defender: usize, _rng: &mut BotRng) -> u64 {
        let own = &view.boards[view.seat];
        let ready = own.ready();
        if self.preset.play == (PlayModule::Aggressive {}) || Self::lethal(view, defender, ready) {
            return ready;
        }
        let d = &view.boards[defender];
        let untapped = d.untapped_creatures();
        if untapped == 0 {
            return Self::hold_back(view, ready);
        }
        if self.preset.play == (PlayModule::Cautious {}) {
            return 0;
        }
        // Attack with a creature no untapped blocker can kill and survive: the worst is a trade.
        let safe = (0..own.creatures().len())
            .filter(|&s| {
                let a = view.card(own.creatures()[s]);
                ready >> s & 1 == 1
                    && (0..d.creatures().len()).filter(|&b| untapped >> b & 1 == 1).all(|b| {
                        let b = view.card(d.creatures()[b]);
                        b.power < a.toughness || a.power >= b.toughness
                    })
            })
            .fold(0, |m, s| m | 1 << s);
        Self::hold_back(view, safe)
    }

    fn block(
        &mut self,
        view: &View<'_>,
        attacker: usize,
        attackers: u64,
        _rng: &mut BotRng,
        blocks: &mut [u8; MAX_PERMANENTS],
    ) {
        let theirs = view.boards[attacker].creatures();
        let mine = view.boards[view.seat].creatures();
        let mut free: u64 = view.boards[view.seat].untapped_creatures();
        // Attacker slots, strongest first (a fixed array: blocking runs every turn).
        let mut slots = [0usize; MAX_PERMANENTS];
        let mut n = 0;
        for s in (0..theirs.len()).filter(|s| attackers >> s & 1 == 1) {
            slots[n] = s;
            n += 1;
        }
        let order = &mut slots[..n];
        order.sort_unstable_by_key(|&s| (std::cmp::Reverse(view.card(theirs[s]).power), s));
        let play = self.preset.play;
        let pick = |free: u64, good: &dyn Fn(Card) -> bool| -> Option<usize> {
            (0..mine.len()).filter(|&b| free >> b & 1 == 1 && good(view.card(mine[b]))).min_by_key(|&b| {
                let c = view.card(mine[b]);
                (c.cost, c.power + c.toughness)
            })
        };
        if play != (PlayModule::Aggressive {}) {
            for &a in order.iter() {
                let ac = view.card(theirs[a]);
                let kills_and_lives = |b: Card| b.power >= ac.toughness && b.toughness > ac.power;
                let lives = |b: Card| b.toughness > ac.power;
                let trades =
                    |b: Card| play == (PlayModule::Cautious {}) && b.power >= ac.toughness && b.cost <= ac.cost;
                if let Some(b) =
                    pick(free, &kills_and_lives).or_else(|| pick(free, &lives)).or_else(|| pick(free, &trades))
                {
                    blocks[a] = b as u8;
                    free &= !(1 << b);
                }
            }
        }
        // Stay alive: chump the biggest unblocked attackers while the rest would kill.
        let life = view.boards[view.seat].life;
        let unblocked = |blocks: &[u8; MAX_PERMANENTS]| -> i32 {
            order.iter().filter(|&&a| blocks[a] == NO_CARD).map(|&a| i32::from(view.card(theirs[a]).power)).sum()
        };
        for &a in order.iter() {
            if unblocked(blocks) < life {
                break;
            }
            if blocks[a] == NO_CARD
                && let Some(b) = pick(free, &|_| true)
            {
                blocks[a] = b as u8;
                free &= !(1 << b);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::contest::GameDef;
    use crate::games::live_draft::Def;

    #[test]
    fn presets_parse_and_bad_values_are_refused() {
        // The search preset is the search bot's (`crate::search::params`), not a Preset.
        for (name, _) in PRESETS.iter().filter(|(_, text)| !crate::search::params::is_search(text)) {
            Def::load_preset(name).unwrap();
        }
        let bad = "description = \"x\"\n[pick]\nmodule = \"random\"\n[mulligan]\nmodule = \"lands\"\nmin = 4\nmax = 2\n[play]\nmodule = \"default\"\n";
        assert!(Preset::from_toml(bad).unwrap_err().to_string().contains("mulligan.min"));
    }
}
