//! Seven Card Draft strategy modules and the presets built from them.
//!
//! A bot is one draft module (how it picks) plus one betting module (how it bets), each
//! with parameters, described in a TOML preset:
//!
//! ```toml
//! description = "Greedy picks, folds weak hands early"
//! [draft]
//! module = "greedy"
//! [bet]
//! module = "threshold"
//! fold_below = [0.30, 0.40, 0.50]
//! raise_above = [0.80, 0.85, 0.90]
//! ```
//!
//! Strengths are the expected percentile of the finished hand (see [`super::strength`]);
//! the betting modules judge it against the opponents still in ([`field_strength`]).

use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};

use super::calibration::FieldMap;
use super::strength::{Arrivals, Outlook, estimate};
use super::view::{Action, BetOptions, Bot, BotRng, PickChoice, SeatView};
use crate::cards::{Card, CardSet, Rank};
use crate::error::InputError;
use crate::games::GamePreset;
use crate::sim::MAX_SEATS;

/// How a bot picks.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum DraftModule {
    /// A uniformly random card of the pack.
    Random {},
    /// The card that most raises the own hand's expected final strength.
    Greedy {},
    /// Greedy plus `weight` times what taking the card denies the player who receives the
    /// pack next: how much worse that player's best choice from the pack becomes, averaged
    /// over `samples` hands it may hold given what this seat knows.
    Hate {
        /// Weight of denial against own gain.
        #[serde(default = "default_hate_weight")]
        weight: f32,
        /// Hands of the next player sampled per pick (its face-down cards are unknown).
        #[serde(default = "default_samples")]
        samples: u32,
    },
    /// Greedy that also counts wilds still to come: a conditional wild whose face card may
    /// still arrive, and the last-pick wild.
    WildAware {},
}

fn default_hate_weight() -> f32 {
    1.0
}

fn default_samples() -> u32 {
    2
}

/// How a bot bets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum BetModule {
    /// Always checks or calls; never folds or raises.
    CallingStation {},
    /// Judges its strength against the field (see [`field_strength`]) per betting round:
    /// folds to a bet below one strength or when the pot odds do not pay (fold timing),
    /// raises above another.
    Threshold {
        /// Fold timing: strength against the field below which it folds to a bet, per
        /// betting round (last value repeats).
        fold_below: Vec<f32>,
        /// Strength against the field above which it raises, per betting round (last
        /// value repeats).
        raise_above: Vec<f32>,
        /// Fold timing: how much the pot odds count, per betting round (last value
        /// repeats): it folds when its chance of winning is below this times the share of
        /// the pot a call costs (0 ignores the pot odds).
        #[serde(default = "default_odds_weight")]
        odds_weight: Vec<f32>,
        /// How much an opponent's raise says: each raise moves that opponent's expected
        /// strength this share of the way to the top (half as much for earlier rounds).
        #[serde(default = "default_respect")]
        respect: f32,
        /// The chance that, where it would check or call, it raises instead (a bluff or a
        /// semi-bluff); 0 (the default) never does.
        #[serde(default)]
        bluff: f32,
        /// Bet sizing under pot and no limit, per betting round (last value repeats): a
        /// raise for value is this share of the pot after its call, within the legal
        /// raises; 0 (the default) raises the least allowed. Fixed limit has one size.
        #[serde(default = "default_size")]
        size: Vec<f32>,
        /// Which chance of beating the field it judges by: `raw`, the estimate as it
        /// is (the default), or `calibrated`, corrected by what such estimates won in a
        /// table of greedy drafters under the same rules (see `draftsim calibrate`).
        #[serde(default)]
        field: FieldEstimate,
        /// Whether its field estimate reads the packs it passed: an opponent's face-down
        /// picks it can work out from them (see [`deduced_hidden`]) count as shown. False
        /// (the default) reads face-up cards and raises only.
        #[serde(default)]
        read_packs: bool,
    },
    /// Raises whenever its strength against the field reaches `raise_above`, otherwise
    /// checks or calls.
    Aggressive {
        /// Strength from which it raises.
        #[serde(default = "default_aggressive")]
        raise_above: f32,
    },
    /// Raises with probability `p` whatever it holds, otherwise checks or calls.
    Bluff {
        /// Chance of raising at each decision.
        p: f32,
    },
}

/// Which chance of beating the field a threshold module judges by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FieldEstimate {
    /// The estimate from the own hand and what each opponent shows.
    #[default]
    Raw,
    /// The estimate corrected by a calibration measured under the same rules.
    Calibrated,
}

fn default_aggressive() -> f32 {
    0.35
}

fn default_size() -> Vec<f32> {
    vec![0.0]
}

fn default_odds_weight() -> Vec<f32> {
    vec![1.0]
}

/// How much an opponent's raise lifts its estimated strength, unless a preset says.
pub fn default_respect() -> f32 {
    0.3
}

/// A bot preset: a description and its two modules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    /// One line for `draftsim list strategies`.
    pub description: String,
    /// The draft module.
    pub draft: DraftModule,
    /// The betting module.
    pub bet: BetModule,
}

/// The presets shipped in `strategies/seven-card-draft/`, embedded in the binary.
pub const PRESETS: &[(&str, &str)] = crate::embedded_presets!(
    "seven-card-draft":
        "random", "greedy", "hate", "tight", "loose-aggressive", "wild-hunter", "late-folder", "bluffer", "calibrated",
        "search", "cfr", "cfr-heads-up", "cfr-heads-up-search", "cfr-search",
);

impl GamePreset for Preset {
    type Bot = ModularBot;

    /// A bot playing this preset under `name`.
    fn bot(&self, name: &str) -> ModularBot {
        ModularBot {
            name: name.to_string(),
            preset: self.clone(),
            opponents: OpponentMemo::default(),
            field_map: None,
            judged: None,
            picked: None,
        }
    }

    /// Checks what the TOML's types allow but the modules do not.
    fn check(&self) -> Result<(), InputError> {
        let within = |v: f32, what: &str, top: f32| {
            if (0.0..=top).contains(&v) {
                Ok(())
            } else {
                Err(InputError::new(format!("{what} = {v}: use a value from 0 to {top}")))
            }
        };
        let unit = |v: f32, what: &str| within(v, what, 1.0);
        match &self.bet {
            BetModule::Threshold { fold_below, raise_above, odds_weight, respect, bluff, size, .. } => {
                if fold_below.is_empty() || raise_above.is_empty() || odds_weight.is_empty() || size.is_empty() {
                    return Err(InputError::new(
                        "bet.fold_below, bet.raise_above, bet.odds_weight and bet.size: give at least one value each",
                    ));
                }
                size.iter().try_for_each(|&v| within(v, "bet.size", 10.0))?;
                fold_below.iter().try_for_each(|&v| unit(v, "bet.fold_below"))?;
                raise_above.iter().try_for_each(|&v| unit(v, "bet.raise_above"))?;
                odds_weight.iter().try_for_each(|&v| within(v, "bet.odds_weight", 10.0))?;
                unit(*respect, "bet.respect")?;
                unit(*bluff, "bet.bluff")?;
            }
            BetModule::Aggressive { raise_above } => unit(*raise_above, "bet.raise_above")?,
            BetModule::Bluff { p } => unit(*p, "bet.p")?,
            BetModule::CallingStation {} => {}
        }
        if let DraftModule::Hate { weight, samples } = self.draft {
            within(weight, "draft.weight", 100.0)?;
            if !(1..=64).contains(&samples) {
                return Err(InputError::new(format!("draft.samples = {samples}: use 1 to 64")));
            }
        }
        Ok(())
    }
}

/// A bot made of one draft module and one betting module.
#[derive(Clone, Debug)]
pub struct ModularBot {
    name: String,
    preset: Preset,
    opponents: OpponentMemo,
    /// The calibration of its chance of beating the field, once asked for.
    field_map: Option<std::sync::Arc<FieldMap>>,
    /// What drove its last betting decision, for replays.
    judged: Option<Judgement>,
    /// The expected percentile of the finished hand with its last informed pick, for replays.
    picked: Option<f32>,
}

/// The estimates and thresholds behind one betting decision of a threshold module.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judgement {
    /// Its strength against the field (the percentile it is judged at).
    pub strength: f32,
    /// Its chance of beating every opponent still in.
    pub win: f32,
    /// That chance before calibration, where the module calibrates it.
    pub raw_win: Option<f32>,
    /// The strength below which it folds to a bet (none for a module that never folds).
    pub fold_below: Option<f32>,
    /// The strength above which it raises.
    pub raise_above: f32,
    /// The chance of winning the pot odds ask for (the odds weight times the pot odds).
    pub odds_needed: Option<f32>,
}

impl std::fmt::Display for Judgement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "strength against the field {:.2}", self.strength)?;
        match self.fold_below {
            Some(fold) => write!(f, " (folds to a bet below {fold:.2}, raises above {:.2})", self.raise_above)?,
            None => write!(f, " (raises above {:.2})", self.raise_above)?,
        }
        write!(f, ", chance to win {:.2}", self.win)?;
        if let Some(raw) = self.raw_win {
            write!(f, ", calibrated from {raw:.2}")?;
        }
        if let Some(need) = self.odds_needed.filter(|n| *n > 0.0) {
            write!(f, " (the pot odds ask {need:.2})")?;
        }
        Ok(())
    }
}

impl ModularBot {
    /// What drove its last betting decision, if a module judged its strength.
    pub fn judged(&self) -> Option<Judgement> {
        self.judged
    }

    /// The expected percentile of the finished hand with its last pick, where a module
    /// estimated it.
    pub fn picked(&self) -> Option<f32> {
        self.picked
    }
}

/// The opponents' expected strengths of the last betting decision, kept while nothing they
/// depend on changes (one betting round asks a seat again after each raise).
#[derive(Clone, Debug, Default)]
pub struct OpponentMemo {
    /// (seat, pick, own hand, every seat's face-up cards): all the strengths depend on.
    key: Option<(usize, usize, CardSet, [CardSet; MAX_SEATS])>,
    strengths: [f32; MAX_SEATS],
    /// The seats whose strength was worked out under `key` (one still in now may have
    /// been out when the key was last met: its strength is worked out then).
    known: u32,
}

fn outlook<'a>(view: &SeatView<'a>, arrivals: Arrivals) -> Outlook<'a> {
    Outlook {
        eval: &view.variant.eval,
        percentiles: &view.variant.percentiles,
        straights: &view.variant.straights,
        deck: view.variant.deck.cards,
        arrivals,
    }
}

/// Cards no seat shows face up and this seat has not seen: where its unknowns come from.
fn unseen(view: &SeatView<'_>) -> CardSet {
    let up = view.face_up.iter().fold(CardSet::EMPTY, |a, &f| a.union(f));
    view.variant.deck.cards.minus(view.seen).minus(up)
}

/// The pack card with the highest score. Exact ties (a card that changes nothing) go to
/// the higher rank, which keeps the better kicker and denies it to the next seat, then to
/// the suit the hand holds more of; a lone card is taken without scoring.
fn best_card(pack: CardSet, hand: CardSet, mut score: impl FnMut(Card) -> f32) -> (Card, f32) {
    if pack.len() == 1 {
        return (pack.nth(0).expect("one card"), 0.0);
    }
    let key = |c: Card| (c.rank(), hand.suit_mask(c.suit()).count_ones());
    let mut best: Option<(f32, (Rank, u32), Card)> = None;
    for card in pack.iter() {
        let s = score(card);
        let better = match best {
            None => true,
            Some((b, k, _)) => s > b || (s == b && key(card) > k),
        };
        if better {
            best = Some((s, key(card), card));
        }
    }
    let (s, _, card) = best.expect("a pack is never empty at a pick");
    (card, s)
}

/// The strength a module judges: the own hand with the wilds the rules make of it now
/// (and the last-pick wild once promised), against the packs still to come.
pub fn own_strength(view: &SeatView<'_>, future_wilds: bool) -> f32 {
    let o = outlook(view, Arrivals::for_seat(view));
    let rules = &view.variant.rules.wild;
    let wilds = rules.wild_cards(view.hand, view.last_pick);
    let future = u32::from(future_wilds && rules.has_last_pick() && view.picks_left() > 0);
    estimate(&o, view.hand, wilds, future)
}

/// What taking `c` makes of the own hand, as `greedy` judges a pick: the hand with the card,
/// its wilds as the rules make them now, against the packs still to come.
fn with_card(view: &SeatView<'_>, o: &Outlook<'_>, c: Card) -> f32 {
    let wild = &view.variant.rules.wild;
    let hand = view.hand.union(CardSet::single(c));
    let wilds = if wild.is_empty() { CardSet::EMPTY } else { wild.wild_cards(hand, None) };
    estimate(o, hand, wilds, 0)
}

/// The pack's cards in the order `greedy` rates them, its pick first (ties as
/// [`best_card`] breaks them), written into `out`; returns how many.
pub fn ranked_picks(view: &SeatView<'_>, out: &mut [Card; MAX_PACK]) -> usize {
    let o = outlook(view, Arrivals::for_seat(view));
    let mut rated = [(0f32, (Rank(0), 0u32), Card::from_index(0)); MAX_PACK];
    let mut len = 0;
    for c in view.pack.iter().take(MAX_PACK) {
        rated[len] = (with_card(view, &o, c), (c.rank(), view.hand.suit_mask(c.suit()).count_ones()), c);
        len += 1;
    }
    rated[..len].sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)));
    for (slot, r) in out.iter_mut().zip(&rated[..len]) {
        *slot = r.2;
    }
    len
}

/// The most cards a pack holds (`pack_size` is at most 7).
pub const MAX_PACK: usize = 8;

impl ModularBot {
    /// A pick by one of the modules that estimate strengths (all but `random`).
    fn informed_pick(&mut self, view: &SeatView<'_>, module: DraftModule, rng: &mut BotRng) -> PickChoice {
        let o = outlook(view, Arrivals::for_seat(view));
        let own = |c: Card| with_card(view, &o, c);
        let mut best = |(card, value): (Card, f32)| {
            self.picked = (view.pack.len() > 1).then_some(value);
            PickChoice::own(card)
        };
        match module {
            DraftModule::Random {} => unreachable!("random picks need no estimate"),
            DraftModule::Greedy {} => best(best_card(view.pack, view.hand, own)),
            DraftModule::WildAware {} => best(best_card(view.pack, view.hand, |c| wild_aware_value(view, &o, c))),
            DraftModule::Hate { weight, samples } => {
                let next = view.next_seat();
                if view.pack.len() == 1 || next == view.seat {
                    return best(best_card(view.pack, view.hand, own));
                }
                let mut scores = [(Card::from_index(0), 0f32); MAX_PACK];
                let mut len = 0;
                for c in view.pack.iter().take(MAX_PACK) {
                    scores[len] = (c, own(c));
                    len += 1;
                }
                let score_of = |c: Card| scores[..len].iter().find(|(x, _)| *x == c).map_or(0.0, |s| s.1);
                let (greedy, top) = best_card(view.pack, view.hand, score_of);
                // Denial is at most `weight` (a percentile gap is at most 1): when no other
                // card comes within it of the greedy one, it cannot change the choice.
                let runner_up =
                    scores[..len].iter().filter(|(c, _)| *c != greedy).map(|s| s.1).fold(f32::MIN, f32::max);
                if top - runner_up > weight {
                    return best((greedy, top));
                }
                let denial = denial(view, next, samples, rng);
                let (card, _) = best_card(view.pack, view.hand, |c| {
                    score_of(c) + weight * denial.iter().find(|(x, _)| *x == c).map_or(0.0, |d| d.1)
                });
                self.picked = Some(score_of(card));
                PickChoice { card, hate: card != greedy }
            }
        }
    }
}

/// The wild-aware value of taking `c`: the wilds of the hand now, the last-pick wild if
/// promised, and a conditional wild whose face card has not come yet credited with the
/// chance that one of its suit still arrives.
fn wild_aware_value(view: &SeatView<'_>, o: &Outlook<'_>, c: Card) -> f32 {
    let rules = &view.variant.rules.wild;
    let left = view.picks_left() as u32;
    let hand = view.hand.union(CardSet::single(c));
    let last = (left == 0).then_some(c);
    let wilds = rules.wild_cards(hand, last);
    let future = u32::from(rules.has_last_pick() && left > 0);
    let now = estimate(o, hand, wilds, future);
    let waiting = rules.with_face_cards(hand).minus(wilds);
    if waiting.is_empty() || left == 0 {
        return now;
    }
    // The chance a face card of each waiting card's suit arrives; the best one counts.
    let mut best = now;
    for card in waiting.iter() {
        let faces = CardSet(o.deck.0 & (0b111u64 << Rank::JACK.0) << (16 * card.suit().0));
        let p = arrival_chance(&o.arrivals, hand, faces);
        let with = estimate(o, hand, wilds.union(CardSet::single(card)), future);
        best = best.max(now + p * (with - now));
    }
    best
}

/// The chance that at least one pack still to come holds a card of `target`.
fn arrival_chance(arrivals: &Arrivals, hand: CardSet, target: CardSet) -> f32 {
    let mut miss = 1.0;
    for (pool, draws) in arrivals.iter() {
        let pool = pool.minus(hand);
        let n = pool.len();
        let s = pool.intersect(target).len();
        miss *= super::strength::none_drawn(n, s, draws);
    }
    1.0 - miss
}

/// For each card of the pack: how much taking it lowers the next seat's best choice from
/// the pack, averaged over hands it may hold. The next seat holds its face-up cards, one
/// card of each group that went missing from a pack this seat passed it (it was the first
/// to pick from it), and the rest unseen cards.
fn denial(view: &SeatView<'_>, next: usize, samples: u32, rng: &mut BotRng) -> [(Card, f32); MAX_PACK] {
    let mut out = [(Card::from_index(0), 0f32); MAX_PACK];
    let mut len = 0;
    for c in view.pack.iter().take(MAX_PACK) {
        out[len] = (c, 0.0);
        len += 1;
    }
    let up = view.face_up[next];
    let elsewhere =
        (0..view.players).filter(|&s| s != next).fold(CardSet::EMPTY, |a, s| a.union(view.face_up[s])).union(view.hand);
    let pool = unseen(view);
    // The next seat has made as many picks as this one, the current one aside.
    let hidden = (view.pick - 1).saturating_sub(up.len() as usize);
    let pack_size = view.variant.rules.pack_size;
    let wild = &view.variant.rules.wild;
    for _ in 0..samples {
        let mut theirs = up;
        let mut left = hidden;
        for &group in view.memory.came_back {
            if left == 0 || !group.intersect(up).is_empty() {
                continue;
            }
            let group = group.minus(elsewhere);
            if let Some(card) = random_card(group, rng) {
                theirs.insert(card);
                left -= 1;
            }
        }
        for _ in 0..left {
            if let Some(card) = random_card(pool.minus(theirs), rng) {
                theirs.insert(card);
            }
        }
        // Their packs after this one, from what this seat cannot place.
        let mut arrivals = Arrivals::default();
        let rest = view.variant.deck.cards.minus(elsewhere).minus(theirs).minus(view.pack);
        for j in 2..=view.picks_left() {
            arrivals.push(rest, (pack_size + 1).saturating_sub(view.pick + j) as u32);
        }
        let o = outlook(view, arrivals);
        let mut vals = [0f32; MAX_PACK];
        for (i, &(c, _)) in out[..len].iter().enumerate() {
            let hand = theirs.union(CardSet::single(c));
            vals[i] = estimate(&o, hand, wild.wild_cards(hand, None), 0);
        }
        // Taking their favourite leaves them the second best; any other card, nothing.
        let (mut top, mut second, mut at) = (f32::NEG_INFINITY, f32::NEG_INFINITY, 0);
        for (i, &v) in vals[..len].iter().enumerate() {
            if v > top {
                (second, top, at) = (top, v, i);
            } else if v > second {
                second = v;
            }
        }
        if len > 1 {
            out[at].1 += (top - second) / samples as f32;
        }
    }
    out
}

/// A uniformly random card of `set`, if any.
fn random_card(set: CardSet, rng: &mut BotRng) -> Option<Card> {
    let n = set.len();
    (n > 0).then(|| set.nth(((rng.next_u64() as u128 * n as u128) >> 64) as u32).expect("index inside the set"))
}

/// This seat's strength against the field: the chance of beating each opponent still in,
/// from the own estimate and what each opponent shows (its face-up cards, its face-down
/// picks as draws from the unseen cards, its raises), combined as (chance of beating them
/// all, the per-opponent geometric mean). The geometric mean reads like a strength against
/// one opponent whatever the table's size.
pub fn field_strength(
    view: &SeatView<'_>,
    own: f32,
    respect: f32,
    read_packs: bool,
    memo: &mut OpponentMemo,
) -> (f32, f32) {
    let mut opponents = [(0f32, 0f32); MAX_SEATS];
    let mut len = 0;
    let mut own_spread = 0.0;
    for_each_opponent(view, respect, read_packs, memo, |theirs, spread_theirs, spread_own| {
        opponents[len] = (theirs, spread_theirs);
        own_spread = spread_own;
        len += 1;
    });
    if len == 0 {
        return (1.0, 1.0);
    }
    // Over the own finished strength (normal around the estimate, 8 points over three
    // spreads each side), the chance of beating every opponent at once: the chances move
    // together with the own hand, so they are not multiplied outright.
    let beat_all = |x: f32| opponents[..len].iter().map(|&(m, b)| beat_chance(x, 0.0, m, b)).product::<f32>();
    let win = if own_spread < 1e-4 {
        beat_all(own)
    } else {
        // The points and their normal weights, worked out once.
        static POINTS: std::sync::LazyLock<[(f32, f32); 8]> = std::sync::LazyLock::new(|| {
            let mut points = [(0.0, 0.0); 8];
            for (i, p) in points.iter_mut().enumerate() {
                let z = -3.0 + 6.0 * (i as f32 + 0.5) / 8.0;
                *p = (z, (-0.5 * z * z).exp());
            }
            let total: f32 = points.iter().map(|p| p.1).sum();
            points.map(|(z, w)| (z, w / total))
        });
        POINTS.iter().map(|&(z, w)| w * beat_all(own + z * own_spread)).sum()
    };
    (win, win.powf(1.0 / len as f32))
}

/// Each opponent still in as (its expected strength, that estimate's spread, the own
/// estimate's spread); with `read_packs`, the face-down picks [`deduced_hidden`] places
/// count as shown.
pub fn for_each_opponent(
    view: &SeatView<'_>,
    respect: f32,
    read_packs: bool,
    memo: &mut OpponentMemo,
    mut f: impl FnMut(f32, f32, f32),
) {
    let pack_size = view.variant.rules.pack_size;
    let left = view.picks_left();
    let deduced = if read_packs { deduced_hidden(view) } else { [(CardSet::EMPTY, 0); MAX_SEATS] };
    // An opponent's face-down picks may be any card this seat does not hold and nobody
    // shows (what it saw go missing from packs included), nor one it has placed.
    let up = view.face_up.iter().fold(CardSet::EMPTY, |a, &f| a.union(f));
    let placed = deduced.iter().fold(CardSet::EMPTY, |a, &(d, _)| a.union(d));
    let pool = view.variant.deck.cards.minus(view.hand).minus(up).minus(placed);
    let round = view.betting.map_or(0, |b| b.round) as u8;
    let wild = &view.variant.rules.wild;
    // The spread of a finished hand around its estimate: about 0.035 a pick still unknown
    // (the calibration's spread of finished percentiles: 0.18 with five picks to come),
    // and about 0.02 a face-down pick of an opponent's.
    let spread = |picks: usize| (0.035 * picks as f32).min(0.25);
    // What each seat shows, and what this seat has placed of its face-down picks.
    let mut shown = [CardSet::EMPTY; MAX_SEATS];
    for (s, out) in shown.iter_mut().enumerate().take(view.players) {
        *out = view.face_up[s].union(deduced[s].0);
    }
    let key = Some((view.seat, view.pick, view.hand, shown));
    if memo.key != key {
        memo.key = key;
        memo.known = 0;
    }
    for s in (0..view.players).filter(|&s| s != view.seat && !view.folded[s]) {
        let (placed, placed_picks) = deduced[s];
        let mut arrivals = Arrivals::default();
        let mut hidden = 0;
        for pick in 1..=view.pick {
            if !view.variant.is_face_up(pick) && placed_picks & 1 << pick == 0 {
                arrivals.push(pool, (pack_size + 1 - pick) as u32);
                hidden += 1;
            }
        }
        for j in 1..=left {
            arrivals.push(pool, (pack_size + 1).saturating_sub(view.pick + j) as u32);
        }
        if memo.known & 1 << s == 0 {
            let known = view.face_up[s].union(placed);
            memo.strengths[s] = estimate(&outlook(view, arrivals), known, wild.wild_cards(known, None), 0);
            memo.known |= 1 << s;
        }
        let mut theirs = memo.strengths[s];
        let raises = view
            .history
            .iter()
            .filter(|a| a.seat as usize == s && matches!(a.action, Action::Raise(_)))
            .map(|a| if a.betting_round == round { 1.0 } else { 0.5 })
            .sum::<f32>();
        // A raise speaks for the face-down picks, so it says less the more of them are placed.
        let unknown = if placed.is_empty() { 1.0 } else { hidden as f32 / (hidden + placed.len() as usize) as f32 };
        theirs += (1.0 - theirs) * (respect * raises * unknown).min(1.0);
        f(theirs, (spread(left) + 0.02 * hidden as f32).min(0.25), spread(left));
    }
}

/// The face-down picks of each other seat that this seat can place from the packs it
/// passed, as (cards, a bit per pick they were taken at). A pack that came back lost one
/// card to each seat that held it meanwhile (the passes are public); the ones taken at
/// face-up picks show, so when every face-down pick among them was one seat's, the rest
/// are that seat's. The last card of a pack this seat passed went to the next holder.
pub fn deduced_hidden(view: &SeatView<'_>) -> [(CardSet, u16); MAX_SEATS] {
    let mut out = [(CardSet::EMPTY, 0u16); MAX_SEATS];
    let held = view.memory.held;
    let me = view.seat;
    // Picks whose cards are taken: while picking, the current one is not yet.
    let resolved = if view.betting.is_some() { view.pick } else { view.pick.saturating_sub(1) };
    // The last pick each seat made: a seat still in makes every one; a folded seat's entries
    // of `held` after its fold are not packs it held (a seat out from the start held none).
    let mut last_pick = [usize::MAX; MAX_SEATS];
    for t in (0..view.players).filter(|&t| view.folded[t]) {
        let fold = view.history.iter().find(|a| usize::from(a.seat) == t && a.action == Action::Fold);
        last_pick[t] = fold.map_or(0, |a| view.variant.rules.bet_after_picks[usize::from(a.betting_round)]);
    }
    let holder = |pick: usize, pack: usize| {
        (0..view.players).find(|&t| t != me && pick <= last_pick[t] && usize::from(held[pick - 1][t]) == pack)
    };
    // The pick at which this seat last held each pack (0: never).
    let mut last = [0usize; MAX_SEATS];
    let mut returns = view.memory.came_back.iter();
    for k in 1..=held.len() {
        let d = usize::from(held[k - 1][me]);
        if d >= MAX_SEATS {
            continue;
        }
        if last[d] > 0 {
            let Some(&gone) = returns.next() else { break };
            let mut rest = gone;
            let (mut taker, mut picks, mut single) = (None, 0u16, true);
            for q in last[d] + 1..k {
                let Some(t) = holder(q, d) else { continue };
                if view.variant.is_face_up(q) {
                    rest = rest.minus(view.face_up[t]);
                } else {
                    single &= taker.is_none_or(|x| x == t);
                    taker = Some(t);
                    picks |= 1 << q;
                }
            }
            if let (Some(t), true) = (taker, single)
                && rest.len() == picks.count_ones()
            {
                out[t].0 = out[t].0.union(rest);
                out[t].1 |= picks;
            }
        }
        last[d] = k;
    }
    // A pack passed with one card left: the next holder's pick was forced.
    for (d, &j) in last.iter().enumerate() {
        let lone = view.memory.left_in.get(d).copied().unwrap_or(CardSet::EMPTY);
        if j > 0
            && j < resolved
            && lone.len() == 1
            && !view.variant.is_face_up(j + 1)
            && let Some(t) = holder(j + 1, d)
        {
            out[t].0 = out[t].0.union(lone);
            out[t].1 |= 1 << (j + 1);
        }
    }
    out
}

/// P(X > Y) for finished strengths X around `own` and Y around `theirs` with these
/// spreads: the difference taken as normal (its chance of being above zero).
fn beat_chance(own: f32, a: f32, theirs: f32, b: f32) -> f32 {
    let sd = (a * a + b * b).sqrt();
    if sd < 1e-4 {
        return if own > theirs {
            1.0
        } else if own < theirs {
            0.0
        } else {
            0.5
        };
    }
    normal_cdf((own - theirs) / sd)
}

/// The standard normal distribution function (Abramowitz and Stegun 7.1.26, error below
/// 1.5e-7).
fn normal_cdf(z: f32) -> f32 {
    let x = z.abs() / std::f32::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t * (0.254_829_6 + t * (-0.284_496_7 + t * (1.421_413_7 + t * (-1.453_152 + t * 1.061_405_4))));
    let erf = 1.0 - poly * (-x * x).exp();
    if z >= 0.0 { 0.5 * (1.0 + erf) } else { 0.5 * (1.0 - erf) }
}

impl Bot for ModularBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn pick(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> PickChoice {
        self.picked = None;
        match self.preset.draft {
            DraftModule::Random {} => random_pick(view.pack, rng),
            module => self.informed_pick(view, module, rng),
        }
    }

    fn pick_from_pack(&mut self, pack: CardSet, rng: &mut BotRng) -> Option<PickChoice> {
        (self.preset.draft == (DraftModule::Random {})).then(|| random_pick(pack, rng))
    }

    fn bet_from_options(&mut self, options: BetOptions, rng: &mut BotRng) -> Option<Action> {
        self.judged = None;
        match self.preset.bet {
            BetModule::CallingStation {} => Some(options.check_or_call()),
            BetModule::Bluff { p } => Some(bluff_or_call(options, p, rng)),
            _ => None,
        }
    }

    fn bet(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> Action {
        let options = view.betting.expect("bet is only asked while betting");
        let wild_aware = self.preset.draft == (DraftModule::WildAware {});
        match &self.preset.bet {
            BetModule::CallingStation {} => options.check_or_call(),
            BetModule::Threshold { fold_below, raise_above, odds_weight, respect, bluff, size, field, read_packs } => {
                let at = |v: &[f32]| v[options.round.min(v.len() - 1)];
                if *field == FieldEstimate::Calibrated && self.field_map.is_none() {
                    // Rules that compiled once compile again with a check after every pick.
                    self.field_map = Some(FieldMap::of(&view.variant.rules, *read_packs).expect("the rules compiled"));
                }
                let (mut win, mut strength) =
                    field_strength(view, own_strength(view, wild_aware), *respect, *read_packs, &mut self.opponents);
                let mut raw_win = None;
                let opponents = (0..view.players).filter(|&s| s != view.seat && !view.folded[s]).count();
                if let Some(map) =
                    self.field_map.as_deref().filter(|_| *field == FieldEstimate::Calibrated && opponents > 0)
                {
                    raw_win = Some(win);
                    win = map.apply(view.pick, opponents, win);
                    strength = win.powf(1.0 / opponents as f32);
                }
                let pot_odds = options.to_call as f32 / (view.pot + options.to_call) as f32;
                self.judged = Some(Judgement {
                    strength,
                    win,
                    raw_win,
                    fold_below: Some(at(fold_below)),
                    raise_above: at(raise_above),
                    odds_needed: (options.to_call > 0).then(|| at(odds_weight) * pot_odds),
                });
                if options.to_call > 0 && (strength < at(fold_below) || win < at(odds_weight) * pot_odds) {
                    Action::Fold
                } else if strength > at(raise_above) {
                    let pot = (view.pot + options.to_call) as f32;
                    options.raise_or_call((at(size) * pot).round() as u32)
                } else if *bluff > 0.0 {
                    // Drawn only when it may bluff, so that other presets' streams stay as they were.
                    bluff_or_call(options, *bluff, rng)
                } else {
                    options.check_or_call()
                }
            }
            BetModule::Aggressive { raise_above } => {
                let (win, strength) =
                    field_strength(view, own_strength(view, wild_aware), default_respect(), false, &mut self.opponents);
                self.judged = Some(Judgement {
                    strength,
                    win,
                    raw_win: None,
                    fold_below: None,
                    raise_above: *raise_above,
                    odds_needed: None,
                });
                if strength >= *raise_above { options.min_raise_or_call() } else { options.check_or_call() }
            }
            BetModule::Bluff { p } => bluff_or_call(options, *p, rng),
        }
    }
}

/// A uniformly random card of the pack: multiply-high maps a 64-bit draw onto the pack
/// (bias below 2^-60).
#[inline]
fn random_pick(pack: CardSet, rng: &mut BotRng) -> PickChoice {
    let i = ((rng.next_u64() as u128 * pack.len() as u128) >> 64) as u32;
    PickChoice::own(pack.nth(i).expect("index inside the pack"))
}

/// Raises with chance `p` whatever the hand, otherwise checks or calls.
fn bluff_or_call(options: BetOptions, p: f32, rng: &mut BotRng) -> Action {
    if rng.random::<f32>() < p { options.min_raise_or_call() } else { options.check_or_call() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::contest::GameDef;
    use crate::games::seven_card_draft::Def;

    #[test]
    fn every_preset_loads_and_round_trips() {
        for (name, text) in PRESETS {
            if crate::search::params::is_search(text) {
                // The search bot's preset is a search strategy, not a module preset.
                assert!(matches!(super::super::load_strategy(name), Ok(crate::search::Strategy::Search(..))), "{name}");
                continue;
            }
            if crate::search::params::is_policy(text) {
                // A trained policy, its picks by its fallback preset.
                let strategy = super::super::load_strategy(name).unwrap();
                assert!(matches!(strategy, crate::search::Strategy::Policy(_, Some(_))), "{name}");
                continue;
            }
            let preset = Def::load_preset(name).unwrap();
            let back = Preset::from_toml(&toml::to_string(&preset).unwrap()).unwrap();
            assert_eq!(back, preset, "{name}");
            assert!(!preset.description.is_empty());
        }
    }

    #[test]
    fn bad_presets_list_the_valid_choices() {
        let err = Def::load_preset("nonesuch").unwrap_err().to_string();
        assert!(err.contains("'nonesuch'") && err.contains("greedy") && err.contains("wild-hunter"), "{err}");
        let err = Preset::from_toml(
            "description = \"x\"\n[draft]\nmodule = \"psychic\"\n[bet]\nmodule = \"calling-station\"",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("psychic") && err.contains("greedy") && err.contains("wild-aware"), "{err}");
        let err = Preset::from_toml(
            "description = \"x\"\n[draft]\nmodule = \"greedy\"\n[bet]\nmodule = \"bluff\"\np = 0.2\nq = 1",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("`q`") && err.contains("`p`"), "{err}");
        let err =
            Preset::from_toml("description = \"x\"\n[draft]\nmodule = \"greedy\"\n[bet]\nmodule = \"bluff\"\np = 2.0")
                .unwrap_err()
                .to_string();
        assert!(err.contains("bet.p"), "{err}");
    }
}
