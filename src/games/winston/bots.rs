//! Winston + Crazier Eights strategy modules and presets.
//!
//! Draft: `first` (takes the first non-empty pile it looks at), `random` (takes with
//! chance `p`), `size` (takes with chance `per_card` times the pile's size, like Forge's
//! Winston AI), `value` (takes when the pile's worth for its deck passes a threshold that
//! falls from `start` to `end` as the stack shrinks), `colour` (commits to `colours`
//! colours once it holds `commit_after` cards, values every card as 1 before, then only on-colour cards and wild
//! cards), `hate` (adds `weight` times the pile's worth to the opponent, judged from the
//! piles the opponent took and passed; a take whose denial outweighs its own worth is a
//! hate take). Every module but `random` uses the last-card rule when it would pass the
//! last non-empty pile.
//! Build: every set of one to `max_colours` colours is tried; `best-colours` keeps the
//! colours with the most usable cards, `quality` the colours whose best cards are worth
//! most (wild cards, then ability cards, then multicoloured). A tie goes to the more
//! consistent deck (more pairs of its cards that may follow one another on the discard
//! pile), then to fewer colours: a colour that adds nothing to the builder's score is
//! left out.
//! Play: `random` (a random play and a random legal discard), `greedy` (plays its ability
//! cards and the cards hardest to match, discards the card that leaves the most matches,
//! keeps wild cards for when stuck).

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::cards::{Cards, Pool, bit, count, ids};
use super::view::{Bot, BotRng, BuildView, DraftChoice, DraftView, PlayView};
use crate::error::InputError;
use crate::games::GamePreset;

/// How a bot drafts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum DraftModule {
    /// Takes the first non-empty pile it looks at.
    First {},
    /// Takes each pile with chance `p`.
    Random {
        /// Chance of taking a pile.
        p: f64,
    },
    /// Takes a pile with chance `per_card` times its size.
    Size {
        /// Chance per card in the pile.
        per_card: f64,
    },
    /// Takes a pile worth at least a threshold falling from `start` to `end`.
    Value {
        /// Threshold at the draft's start.
        start: f64,
        /// Threshold when the stack is empty.
        end: f64,
    },
    /// Commits to colours early and values on-colour cards and wild cards.
    Colour {
        /// Cards held before it commits.
        commit_after: usize,
        /// Colours it commits to.
        colours: usize,
        /// Worth of a wild card.
        wild: f64,
        /// Threshold at the draft's start.
        start: f64,
        /// Threshold when the stack is empty.
        end: f64,
    },
    /// As `value`, adding `weight` times the pile's worth to the opponent.
    Hate {
        /// Weight of denial against its own worth.
        weight: f64,
        /// Threshold at the draft's start.
        start: f64,
        /// Threshold when the stack is empty.
        end: f64,
    },
}

/// How a bot builds its deck.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum BuildModule {
    /// The colours (one to `max_colours`) with the most usable cards.
    BestColours {},
    /// The colours (one to `max_colours`) whose best cards are worth most.
    Quality {},
}

/// How a bot plays Crazier Eights.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum PlayModule {
    /// Random play and random legal discard.
    Random {},
    /// Sheds what is hardest to match, keeps wild cards.
    Greedy {},
}

/// A Winston + Crazier Eights preset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    /// One line for `draftsim list strategies`.
    pub description: String,
    /// The draft module.
    pub draft: DraftModule,
    /// The build module.
    pub build: BuildModule,
    /// The play module.
    pub play: PlayModule,
}

/// The presets in `strategies/winston-crazier-eights/`, embedded in the binary.
pub const PRESETS: &[(&str, &str)] = crate::embedded_presets!(
    "winston-crazier-eights":
        "random", "first", "forge", "value", "colour", "hate", "search",
);

impl GamePreset for Preset {
    type Bot = WinstonBot;

    /// A bot playing this preset under `name`.
    fn bot(&self, name: &str) -> WinstonBot {
        WinstonBot { name: name.to_string(), preset: self.clone() }
    }

    /// Checks what the TOML's types allow but the modules do not.
    fn check(&self) -> Result<(), InputError> {
        let chance = match &self.draft {
            DraftModule::Random { p } => Some(("draft.p", *p)),
            DraftModule::Size { per_card } => Some(("draft.per_card", *per_card)),
            _ => None,
        };
        if let Some((key, p)) = chance.filter(|(_, p)| !(0.0..=1.0).contains(p)) {
            return Err(InputError::new(format!("{key} = {p}: use a value from 0 to 1")));
        }
        if let DraftModule::Colour { colours, .. } = self.draft
            && !(1..=6).contains(&colours)
        {
            return Err(InputError::new(format!("draft.colours = {colours}: use 1 to 6")));
        }
        Ok(())
    }
}

/// A bot made of the three modules.
#[derive(Clone, Debug)]
pub struct WinstonBot {
    name: String,
    preset: Preset,
}

/// The `k` colours (bits) with the most weight, ties to the lower colour.
fn top_colours(weights: &[f64; 6], n_colours: usize, k: usize) -> u8 {
    // Ordered as `total_cmp` orders them, and never 0 (0 marks a colour already taken).
    let mut keys = weights.map(|w| {
        let bits = w.to_bits();
        (if bits >> 63 == 1 { !bits } else { bits | 1 << 63 }).max(1)
    });
    top_k(&mut keys, n_colours, k)
}

/// The `k` of the first `n` keys (all above 0) that are largest, ties to the lower index,
/// as bits; the chosen keys are zeroed. Picked one at a time rather than by sorting: this
/// runs at almost every Winston decision, on at most six colours.
fn top_k(keys: &mut [u64; 6], n: usize, k: usize) -> u8 {
    if k >= n {
        return ((1u16 << n) - 1) as u8;
    }
    let mut chosen = 0u8;
    for _ in 0..k {
        let mut best = 0;
        for c in 1..n {
            // Only a strictly larger key replaces the best, so ties go to the lower colour.
            if keys[c] > keys[best] {
                best = c;
            }
        }
        chosen |= 1 << best;
        keys[best] = 0;
    }
    chosen
}

/// The colours a pool points to: the `k` colours with the most cards.
fn pool_colours(pool: &Pool, own: Cards, k: usize) -> u8 {
    top_k(&mut pool.colour_counts(own).map(|c| c as u64 + 1), pool.n_colours(), k)
}

/// A card's worth to a deck of `colours` (all colours count while `open`).
fn worth(pool: &Pool, id: u8, colours: u8, open: bool, wild: f64) -> f64 {
    let b = bit(id);
    if pool.wild & b != 0 {
        return wild;
    }
    let on = open || pool.colours[usize::from(id)] & colours != 0;
    let base = if on { 1.0 } else { 0.15 };
    base + if on && pool.with_ability & b != 0 { 0.25 } else { 0.0 }
}

fn pile_worth(pool: &Pool, cards: Cards, colours: u8, open: bool, wild: f64) -> f64 {
    ids(cards).map(|id| worth(pool, id, colours, open, wild)).sum()
}

/// A threshold falling from `start` to `end` as the stack empties.
fn threshold(view: &DraftView<'_>, start: f64, end: f64) -> f64 {
    let left = if view.stack_start == 0 { 0.0 } else { view.stack as f64 / view.stack_start as f64 };
    end + (start - end) * left
}

/// Passing, or taking the stack's last card rather than feed it to the last pile.
fn pass(view: &DraftView<'_>) -> DraftChoice {
    if view.may_take_last_card() && !view.later_piles() { DraftChoice::TakeLastCard } else { DraftChoice::Pass }
}

/// Cards held before a seat's colours count.
const SETTLED: usize = 6;

/// The opponent's colours as judged from what it took and passed, if enough is known.
fn opponent_colours(view: &DraftView<'_>) -> Option<u8> {
    let pool = view.pool;
    if count(view.opponent_took) < 3 {
        return None;
    }
    let took = pool.colour_counts(view.opponent_took);
    let passed = pool.colour_counts(view.opponent_passed);
    let weights: [f64; 6] = std::array::from_fn(|c| took[c] as f64 - 0.5 * passed[c] as f64);
    Some(top_colours(&weights, pool.n_colours(), view.rules.max_colours))
}

/// What a pile is worth to a value or colour module, against the bar it must reach.
struct PileJudgement {
    /// Its worth to the seat's own deck.
    own: f64,
    /// What taking it denies the opponent (hate only).
    deny: f64,
    /// The worth it takes from, falling as the stack empties.
    bar: f64,
}

impl PileJudgement {
    fn value(view: &DraftView<'_>, start: f64, end: f64, hate: f64) -> PileJudgement {
        let pool = view.pool;
        let open = count(view.own) < SETTLED;
        let colours = pool_colours(pool, view.own, view.rules.max_colours);
        let own = pile_worth(pool, view.cards, colours, open, 2.0);
        let deny = match (hate > 0.0, opponent_colours(view)) {
            (true, Some(theirs)) => {
                hate * ids(view.cards)
                    .map(|id| if worth(pool, id, theirs, false, 1.5) >= 1.0 { 1.0 } else { 0.0 })
                    .sum::<f64>()
            }
            _ => 0.0,
        };
        PileJudgement { own, deny, bar: threshold(view, start, end) }
    }

    fn colour(view: &DraftView<'_>, commit_after: usize, k: usize, wild: f64, start: f64, end: f64) -> PileJudgement {
        let pool = view.pool;
        let committed = count(view.own) >= commit_after;
        let colours = pool_colours(pool, view.own, k);
        let own: f64 = ids(view.cards)
            .map(|id| {
                if pool.wild & bit(id) != 0 {
                    wild
                } else if !committed || pool.colours[usize::from(id)] & colours != 0 {
                    1.0
                } else {
                    0.0
                }
            })
            .sum();
        PileJudgement { own, deny: 0.0, bar: threshold(view, start, end) }
    }

    fn choice(&self, view: &DraftView<'_>) -> DraftChoice {
        if self.own + self.deny >= self.bar { DraftChoice::Take { deny: self.deny > self.own } } else { pass(view) }
    }
}

impl WinstonBot {
    /// The judgement behind a draft decision of a value, hate or colour module.
    #[inline(always)]
    fn judge(&self, view: &DraftView<'_>) -> Option<PileJudgement> {
        match self.preset.draft {
            DraftModule::Value { start, end } => Some(PileJudgement::value(view, start, end, 0.0)),
            DraftModule::Hate { weight, start, end } => Some(PileJudgement::value(view, start, end, weight)),
            DraftModule::Colour { commit_after, colours, wild, start, end } => {
                Some(PileJudgement::colour(view, commit_after, colours, wild, start, end))
            }
            DraftModule::First {} | DraftModule::Random { .. } | DraftModule::Size { .. } => None,
        }
    }

    /// The estimate behind a draft decision in `view`, in words for replays: the pile's
    /// worth against the bar it must reach; `None` where the module estimates nothing.
    pub fn explain_draft(&self, view: &DraftView<'_>) -> Option<String> {
        if let DraftModule::Size { per_card } = self.preset.draft {
            return Some(format!(
                "takes a pile of {} with chance {:.2}",
                count(view.cards),
                (per_card * count(view.cards) as f64).min(1.0)
            ));
        }
        let j = self.judge(view)?;
        let deny = if j.deny > 0.0 { format!(" and denies {:.1}", j.deny) } else { String::new() };
        Some(format!("pile {} worth {:.1} to its deck{deny} (takes from {:.1})", view.pile + 1, j.own, j.bar))
    }
}

/// Every colour set of exactly `k` of `n` colours.
pub(super) fn colour_sets(n: usize, k: usize) -> impl Iterator<Item = u8> {
    (1u8..(1 << n)).filter(move |m| m.count_ones() as usize == k.min(n))
}

/// The `k` lowest cards of `cards` (all of them if fewer).
fn lowest(cards: Cards, k: usize) -> Cards {
    if count(cards) <= k {
        return cards;
    }
    let (mut rest, mut taken) = (cards, 0);
    for _ in 0..k {
        let low = rest & rest.wrapping_neg();
        taken |= low;
        rest ^= low;
    }
    taken
}

/// The best `size` cards of `usable` by the quality worth: wild cards (4), then ability
/// cards (3), then multicoloured (2), then the rest (1), ties to the lower card; and
/// their total worth.
pub(super) fn best_cards(pool: &Pool, usable: Cards, size: usize) -> (Cards, u32) {
    let wild = usable & pool.wild;
    let ability = usable & pool.with_ability & !wild;
    let multi = usable & pool.multi & !(wild | ability);
    let plain = usable & !(wild | ability | multi);
    let (mut deck, mut total) = (0, 0);
    for (class, worth) in [(wild, 4), (ability, 3), (multi, 2), (plain, 1)] {
        let taken = lowest(class, size - count(deck));
        deck |= taken;
        total += worth * count(taken) as u32;
    }
    (deck, total)
}

/// The deck's consistency: ordered pairs of its cards in which the second may be discarded
/// on the first (shares a colour or the rank, or is wild). Fewer colours make more pairs.
fn follow_pairs(pool: &Pool, deck: Cards) -> u64 {
    ids(deck).map(|id| count(deck & pool.follow[usize::from(id)]) as u64).sum::<u64>() - count(deck) as u64
}

/// Cards of `hand` a discard of `card` would let match next (colour or rank), besides itself.
fn follow_ups(pool: &Pool, hand: Cards, card: u8) -> usize {
    count(hand & pool.follow[usize::from(card)] & !bit(card))
}

/// The colour with the most cards of `hand` (ties to the lower colour).
fn main_colour(pool: &Pool, hand: Cards) -> usize {
    let counts = pool.colour_counts(hand);
    (0..pool.n_colours()).max_by_key(|&c| (counts[c], std::cmp::Reverse(c))).unwrap_or(0)
}

fn random_card(cards: Cards, rng: &mut BotRng) -> Option<u8> {
    let n = count(cards);
    if n == 0 { None } else { ids(cards).nth(rng.random_range(0..n)) }
}

impl WinstonBot {
    fn greedy_discard(view: &PlayView<'_>) -> Option<(u8, usize)> {
        let pool = view.pool;
        let natural = view.playable & !pool.wild;
        if natural != 0 {
            let card = ids(natural).max_by_key(|&c| (follow_ups(pool, view.hand, c), std::cmp::Reverse(c)))?;
            return Some((card, 0));
        }
        let card = ids(view.playable).next()?;
        Some((card, main_colour(pool, view.hand & !bit(card))))
    }

    fn greedy_play(view: &PlayView<'_>) -> Option<u8> {
        let pool = view.pool;
        let hand = view.hand;
        if count(hand) <= 1 {
            return ids(hand).next();
        }
        // Keep the discard it plans; with two cards, play the one it cannot discard.
        let planned = Self::greedy_discard(view).map_or(0, |(c, _)| bit(c));
        let spare = hand & !planned;
        let candidates = if spare & !pool.wild != 0 { spare & !pool.wild } else { spare };
        let useful = |c: u8| {
            let ability = pool.with_ability & bit(c) != 0;
            (!ability, follow_ups(pool, hand, c), c)
        };
        ids(candidates).min_by_key(|&c| useful(c))
    }
}

impl Bot for WinstonBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn draft(&mut self, view: &DraftView<'_>, rng: &mut BotRng) -> DraftChoice {
        match self.preset.draft {
            DraftModule::First {} => DraftChoice::Take { deny: false },
            DraftModule::Random { p } => {
                if rng.random_bool(p) {
                    DraftChoice::Take { deny: false }
                } else if view.may_take_last_card() && rng.random_bool(0.5) {
                    DraftChoice::TakeLastCard
                } else {
                    DraftChoice::Pass
                }
            }
            DraftModule::Size { per_card } => {
                let chance = (per_card * count(view.cards) as f64).min(1.0);
                if rng.random_bool(chance) { DraftChoice::Take { deny: false } } else { pass(view) }
            }
            DraftModule::Value { .. } | DraftModule::Hate { .. } | DraftModule::Colour { .. } => {
                self.judge(view).expect("a judging module").choice(view)
            }
        }
    }

    fn build(&mut self, view: &BuildView<'_>, _rng: &mut BotRng) -> (u8, Cards) {
        let (pool, rules) = (view.pool, view.rules);
        let size = rules.deck_size;
        let mut best: Option<((u32, u64), u8, Cards)> = None;
        // Fewer colours first, so that a tie keeps the deck with fewer colours.
        for k in 1..=rules.max_colours.min(pool.n_colours()) {
            for colours in colour_sets(pool.n_colours(), k) {
                let usable = pool.usable(rules, view.own, colours);
                let (deck, total) = best_cards(pool, usable, size);
                let own_score = match self.preset.build {
                    BuildModule::BestColours {} => count(usable) as u32,
                    BuildModule::Quality {} => total,
                };
                // A tie of the builder's own score goes to the more consistent deck.
                let score = (own_score, follow_pairs(pool, deck));
                if best.is_none_or(|(s, _, _)| score > s) {
                    best = Some((score, colours, deck));
                }
            }
        }
        best.map_or((0, 0), |(_, colours, deck)| (colours, deck))
    }

    fn play(&mut self, view: &PlayView<'_>, rng: &mut BotRng) -> Option<u8> {
        match self.preset.play {
            PlayModule::Random {} => random_card(view.hand, rng),
            PlayModule::Greedy {} => Self::greedy_play(view),
        }
    }

    fn discard(&mut self, view: &PlayView<'_>, rng: &mut BotRng) -> Option<(u8, usize)> {
        match self.preset.play {
            PlayModule::Random {} => {
                let card = random_card(view.playable, rng)?;
                Some((card, rng.random_range(0..view.pool.n_colours())))
            }
            PlayModule::Greedy {} => Self::greedy_discard(view),
        }
    }

    fn keep_peeked(&mut self, view: &PlayView<'_>, card: u8, rng: &mut BotRng) -> bool {
        match self.preset.play {
            PlayModule::Random {} => rng.random_bool(0.5),
            PlayModule::Greedy {} => {
                let pool = view.pool;
                let i = usize::from(card);
                (pool.wild | pool.with_ability) & bit(card) != 0
                    || pool.colours[i] & view.colours != 0
                    || pool.colours[i] >> main_colour(pool, view.hand) & 1 == 1
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::contest::GameDef;
    use crate::games::winston::Def;

    #[test]
    fn top_colours_picks_what_a_sort_by_weight_then_colour_picks() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        for _ in 0..20_000 {
            let n = rng.random_range(1..=6);
            let k = rng.random_range(0..=7);
            // Few distinct values, so ties are common; negative ones and -0.0 too.
            let weights: [f64; 6] = std::array::from_fn(|_| [-1.5, -0.0, 0.0, 0.5, 2.0, 3.25][rng.random_range(0..6)]);
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&a, &b| weights[b].total_cmp(&weights[a]).then(a.cmp(&b)));
            let want = order[..k.min(n)].iter().fold(0u8, |m, &c| m | 1 << c);
            assert_eq!(top_colours(&weights, n, k), want, "{weights:?} n {n} k {k}");
            let counts = weights.map(|w| (w * 4.0).abs() as u64);
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&a, &b| counts[b].cmp(&counts[a]).then(a.cmp(&b)));
            let want = order[..k.min(n)].iter().fold(0u8, |m, &c| m | 1 << c);
            assert_eq!(top_k(&mut counts.map(|c| c + 1), n, k), want, "{counts:?} n {n} k {k}");
        }
    }

    #[test]
    fn presets_parse_and_bad_chances_are_refused() {
        for (name, text) in PRESETS {
            if crate::search::params::is_search(text) {
                super::super::load_strategy(name).unwrap();
            } else {
                Def::load_preset(name).unwrap();
            }
        }
        let bad = "description = \"x\"\n[draft]\nmodule = \"size\"\nper_card = 2.0\n[build]\nmodule = \"quality\"\n[play]\nmodule = \"greedy\"\n";
        assert!(Preset::from_toml(bad).unwrap_err().to_string().contains("draft.per_card"));
    }
}
