//! Seven Poker strategy modules and presets.
//!
//! Exchange: `none`; `random` (up to the limit, at random); `colour` (keeps its plan's
//! colour and discards other cards, rarest colours first); `rainbow` (with `min_distinct`
//! colours or more, discards duplicates to chase one of each colour, else plays `colour`);
//! `adaptive` (rainbow when the missing colours are few, can be drawn this exchange and are
//! still unseen, colour otherwise). Every plan but `random` keeps a made seven-colour hand
//! whole. A one-colour plan builds the colour with the most cards, counting a colour it
//! already holds as a victory colour `held_penalty` cards short (a win in it takes nothing).
//! Show: `honest` (three of its longest colour), `bluff` (with probability `p`: three of a
//! colour it holds exactly three of while another colour is as long, else three different
//! colours), `conceal` (three different colours), `random`. Stay: `always`, `random`
//! (`p`), `threshold` (stays with strength at least `min` and at least what earlier
//! stayers' shown cards suggest plus `margin`), `fold-to-keep` (stays only from `min`; folds
//! otherwise, to keep its plan); both read the victory cards: they count `near_win` steps
//! stronger when a win now would reach the target, and `contest` steps stronger while an
//! opponent who could reach it this round is still in. Keep (after folding): `nothing` or
//! `plan` (the cards its exchange plan needs). Victory colours, when the winner chooses:
//! `scarce` (the colours with the fewest cards left in play, so those it can still win
//! with are the plentiful ones), `lowest`, `random`.
//!
//! A shown set suggests its holder's strength: k cards of one colour suggest k + 1; cards
//! all of different colours suggest all seven colours with the chance of it given what is
//! visible ([`seven_colour_chance`]), three of a colour otherwise; anything else three.

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::cards::{COLOURS, Layout, SEVEN_COLOURS, ids, take_by_colour};
use super::view::{Bot, BotRng, SeatView};
use crate::error::InputError;
use crate::games::GamePreset;

fn default_held_penalty() -> u8 {
    2
}

fn one_step() -> u8 {
    1
}

/// How a bot exchanges.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ExchangeModule {
    /// Never exchanges.
    None {},
    /// Discards a random number of random cards.
    Random {},
    /// Keeps its plan's colour.
    Colour {
        /// Cards a colour already held as a victory colour counts short when choosing
        /// the plan's colour (0 ignores victory cards).
        #[serde(default = "default_held_penalty")]
        held_penalty: u8,
    },
    /// Chases one card of each colour from `min_distinct` colours up.
    Rainbow {
        /// Distinct colours from which it goes for the rainbow.
        min_distinct: u8,
        /// As for `colour`, when it builds one colour.
        #[serde(default = "default_held_penalty")]
        held_penalty: u8,
    },
    /// Picks the plan with the better chance given the cards seen.
    Adaptive {
        /// As for `colour`, when it builds one colour.
        #[serde(default = "default_held_penalty")]
        held_penalty: u8,
    },
}

/// How a bot shows three cards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ShowModule {
    /// Three of its longest colour.
    Honest {},
    /// With probability `p`, a misleading three; otherwise honest.
    Bluff {
        /// Chance of bluffing.
        p: f32,
    },
    /// Three different colours, whatever it holds.
    Conceal {},
    /// Random cards.
    Random {},
}

/// How a bot declares.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum StayModule {
    /// Always stays.
    Always {},
    /// Stays with probability `p`.
    Random {
        /// Chance of staying.
        p: f32,
    },
    /// Stays with enough strength against what earlier stayers showed.
    Threshold {
        /// Least strength to stay (2-7; 8 is all seven colours).
        min: u8,
        /// Strength it wants above the strongest suggestion of an earlier stayer.
        margin: i8,
        /// Steps it counts itself stronger when a win now would reach the victory target.
        #[serde(default = "one_step")]
        near_win: u8,
        /// Steps it counts itself stronger while an opponent who could reach the target
        /// this round has not folded (staying to beat or tie them stops them).
        #[serde(default = "one_step")]
        contest: u8,
    },
    /// Stays from `min` only; folds otherwise, keeping its plan for the next round.
    FoldToKeep {
        /// Least strength to stay.
        min: u8,
        /// As for `threshold`.
        #[serde(default = "one_step")]
        near_win: u8,
        /// As for `threshold`.
        #[serde(default = "one_step")]
        contest: u8,
    },
}

/// What a bot keeps after folding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum KeepModule {
    /// Discards everything.
    Nothing {},
    /// Keeps what its exchange plan needs for the next round: its plan colour's cards, or
    /// one card of each colour for a rainbow plan (a made seven colours whole).
    Plan {},
}

/// How a winner picks its victory colours when it has a choice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum VictoryModule {
    /// The colours with the fewest cards left in play (ties: the lowest): a win in a held
    /// colour takes nothing, so it holds the colours it is least likely to build again.
    Scarce {},
    /// The lowest colours.
    Lowest {},
    /// Colours at random.
    Random {},
}

impl Default for VictoryModule {
    fn default() -> Self {
        VictoryModule::Scarce {}
    }
}

/// A Seven Poker preset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    /// One line for `draftsim list strategies`.
    pub description: String,
    /// The exchange module.
    pub exchange: ExchangeModule,
    /// The show module.
    pub show: ShowModule,
    /// The stay module.
    pub stay: StayModule,
    /// The keep module.
    pub keep: KeepModule,
    /// How it picks victory colours (`scarce` when left out).
    #[serde(default)]
    pub victory: VictoryModule,
}

/// The presets in `strategies/seven-poker/`, embedded in the binary.
pub const PRESETS: &[(&str, &str)] = crate::embedded_presets!(
    "seven-poker":
        "random", "pat", "colour", "rainbow", "bluffer", "fold-to-keep", "adaptive", "search", "cfr",
);

impl GamePreset for Preset {
    type Bot = SevenPokerBot;

    /// A bot playing this preset under `name`.
    fn bot(&self, name: &str) -> SevenPokerBot {
        SevenPokerBot { name: name.to_string(), preset: self.clone() }
    }

    /// Checks what the TOML's types allow but the modules do not.
    fn check(&self) -> Result<(), InputError> {
        let show_p = match &self.show {
            ShowModule::Bluff { p } => Some(("show.p", *p)),
            _ => None,
        };
        let stay_p = match &self.stay {
            StayModule::Random { p } => Some(("stay.p", *p)),
            _ => None,
        };
        if let Some((key, p)) = show_p.into_iter().chain(stay_p).find(|(_, p)| !(0.0..=1.0).contains(p)) {
            return Err(InputError::new(format!("{key} = {p}: use a value from 0 to 1")));
        }
        Ok(())
    }
}

/// A bot made of the modules.
#[derive(Clone, Debug)]
pub struct SevenPokerBot {
    name: String,
    preset: Preset,
}

/// What an exchange plan builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plan {
    /// One card of each colour (a made seven colours: the whole hand).
    Rainbow,
    /// As many cards of this colour as it can.
    Colour(usize),
}

/// Cards of `hand` (whose colour counts are `counts`) outside `keep`, rarest colours first
/// (ties: the lowest), at most `limit`.
fn discard_outside(layout: Layout, hand: u64, counts: &[u8; COLOURS], keep: u64, limit: usize) -> u64 {
    let mut out = 0u64;
    let mut left = limit;
    // Colours by count, one count at a time (no sort on the per-round path).
    for level in 1..=counts.iter().copied().max().unwrap_or(0) {
        for c in (0..COLOURS).filter(|&c| counts[c] == level) {
            if left == 0 {
                return out;
            }
            let taken = take_by_colour(layout, hand & !keep, &[c], left);
            left -= taken.count_ones() as usize;
            out |= taken;
        }
    }
    out
}

/// One card of each colour held (the lowest of each).
fn one_of_each(layout: Layout, hand: u64) -> u64 {
    (0..COLOURS)
        .map(|c| hand & layout.colour_mask(c))
        .filter(|m| *m != 0)
        .fold(0, |acc, m| acc | (m & m.wrapping_neg()))
}

/// Cards a seat has seen besides its hand: discards, victory cards, shown cards.
fn seen(view: &SeatView<'_>) -> u64 {
    view.discards | view.removed | view.shown.iter().fold(0, |a, s| a | s)
}

/// The cards seen besides the hand, this round or (`next_round`) for a folder's plan: then
/// the discards and shown cards go back into the deck and only the victory cards stay out.
fn seen_for(view: &SeatView<'_>, next_round: bool) -> u64 {
    if next_round { view.removed } else { seen(view) }
}

/// The chance that seat `s` holds all seven colours, from what `view`'s seat can see.
/// Zero unless its hand has seven cards and the cards it showed are all of different
/// colours; then the chance that the cards it drew for its hidden places (as many as it
/// hides, plus those it discarded face up this round), taken at random from the cards the
/// viewer has not seen, include every colour it did not show: how likely a player chasing
/// the rainbow would have completed it.
pub fn seven_colour_chance(view: &SeatView<'_>, s: usize) -> f64 {
    let shown_counts = view.layout.counts(view.shown[s]);
    if shown_counts.iter().any(|&k| k > 1) { 0.0 } else { chance_of_seven(view, s, &shown_counts) }
}

/// [`seven_colour_chance`] for a show of all different colours (counts `shown_counts`).
fn chance_of_seven(view: &SeatView<'_>, s: usize, shown_counts: &[u8; COLOURS]) -> f64 {
    let layout = view.layout;
    if usize::from(view.hand_sizes[s]) != COLOURS {
        return 0.0;
    }
    let unseen_cards = layout.all() & !view.hand & !seen(view);
    let unseen = layout.counts(unseen_cards);
    let missing = (0..COLOURS).filter(|&c| shown_counts[c] == 0).fold(0u8, |m, c| m | 1 << c);
    if (0..COLOURS).any(|c| missing >> c & 1 == 1 && unseen[c] == 0) {
        return 0.0;
    }
    let total = unseen_cards.count_ones();
    let hidden = COLOURS as u32 - view.shown[s].count_ones();
    let draws = (hidden + view.discarded.get(s).map_or(0, |d| d.count_ones())).min(total);
    // Inclusion-exclusion over the sets of missing colours the draws could all miss: each
    // term counts the draws from the cards outside those colours, total - avoided falling
    // draws, over all draws, total falling draws.
    let falling = |from: u32| (0..draws).fold(1.0, |product, i| product * f64::from(from.saturating_sub(i)));
    let mut ways = 0.0;
    let mut avoided_colours = missing;
    loop {
        let mut avoided = 0;
        let mut bits = avoided_colours;
        while bits != 0 {
            avoided += u32::from(unseen[bits.trailing_zeros() as usize]);
            bits &= bits - 1;
        }
        let term = falling(total - avoided);
        ways += if avoided_colours.count_ones() % 2 == 0 { term } else { -term };
        if avoided_colours == 0 {
            break;
        }
        avoided_colours = (avoided_colours - 1) & missing;
    }
    (ways / falling(total)).clamp(0.0, 1.0)
}

/// How a show reads: a fixed strength, or all seven colours against three of a colour,
/// weighed by the chance of seven colours (a show of different colours; its counts).
enum Reading {
    /// This strength.
    Fixed(f64),
    /// Seven colours or three of a colour: the shown cards' colour counts.
    MaybeSevenColours([u8; COLOURS]),
}

/// How seat `s`'s shown cards read.
fn read_show(view: &SeatView<'_>, s: usize) -> Reading {
    let shown = view.shown[s];
    let k = shown.count_ones() as u8;
    let counts = view.layout.counts(shown);
    if k >= 2 && counts.contains(&k) {
        Reading::Fixed(f64::from(k) + 1.0)
    } else if counts.iter().any(|&n| n > 1) {
        Reading::Fixed(3.0)
    } else {
        Reading::MaybeSevenColours(counts)
    }
}

/// The strength a show of different colours suggests, given the chance of seven colours.
fn weighed(chance: f64) -> f64 {
    3.0 + chance * f64::from(SEVEN_COLOURS - 3)
}

/// What seat `s`'s shown cards suggest about its strength: k cards of one colour suggest
/// k + 1; cards all of different colours weigh all seven colours (8) by the chance of it
/// given what is visible against three of a colour; anything else three of a colour.
pub fn suggested_strength(view: &SeatView<'_>, s: usize) -> f64 {
    match read_show(view, s) {
        Reading::Fixed(strength) => strength,
        Reading::MaybeSevenColours(counts) => weighed(chance_of_seven(view, s, &counts)),
    }
}

/// Whether [`suggested_strength`] of seat `s` is at most `bar`, working out the chance of
/// seven colours only when the bar does not settle it (such a show weighs 3 to 8).
fn suggestion_at_most(view: &SeatView<'_>, s: usize, bar: f64) -> bool {
    match read_show(view, s) {
        Reading::Fixed(strength) => strength <= bar,
        Reading::MaybeSevenColours(counts) => {
            weighed(1.0) <= bar || (weighed(0.0) <= bar && weighed(chance_of_seven(view, s, &counts)) <= bar)
        }
    }
}

/// Victory cards a win with a hand of these colour counts would take, for a seat holding
/// the colours `held`.
fn victory_gain(counts: &[u8; COLOURS], held: u8) -> u32 {
    let new = |c: usize| counts[c] > 0 && held >> c & 1 == 0;
    if counts.iter().all(|&k| k == 1) {
        return (0..COLOURS).filter(|&c| new(c)).count().min(2) as u32;
    }
    let longest = counts.iter().copied().max().unwrap_or(0);
    u32::from((0..COLOURS).any(|c| counts[c] == longest && new(c)))
}

impl SevenPokerBot {
    fn limit(view: &SeatView<'_>) -> usize {
        view.rules.max_exchange.min(view.pile)
    }

    fn held_penalty(&self) -> u8 {
        match &self.preset.exchange {
            ExchangeModule::Colour { held_penalty }
            | ExchangeModule::Rainbow { held_penalty, .. }
            | ExchangeModule::Adaptive { held_penalty } => *held_penalty,
            ExchangeModule::None {} | ExchangeModule::Random {} => 0,
        }
    }

    /// The colour a one-colour plan builds from a hand of these colour counts: the most
    /// cards, a colour already held as a victory colour counting `held_penalty` short;
    /// ties to more cards still unseen ([`seen_for`] the moment), then the lowest.
    fn plan_colour(&self, view: &SeatView<'_>, counts: &[u8; COLOURS], next_round: bool) -> usize {
        let held = view.victory.get(view.seat).copied().unwrap_or(0);
        let penalty = i16::from(self.held_penalty());
        let worth: [i16; COLOURS] =
            std::array::from_fn(|c| i16::from(counts[c]) - if held >> c & 1 == 1 { penalty } else { 0 });
        let best = worth.iter().copied().max().unwrap_or(0);
        let tied = (0..COLOURS).filter(|&c| worth[c] == best).fold(0u8, |m, c| m | 1 << c);
        if tied.count_ones() == 1 {
            return tied.trailing_zeros() as usize;
        }
        let unseen = view.layout.counts(view.layout.all() & !seen_for(view, next_round) & !view.hand);
        (0..COLOURS).filter(|&c| tied >> c & 1 == 1).max_by_key(|&c| (unseen[c], std::cmp::Reverse(c))).expect("tied")
    }

    /// The exchange plan for a hand of these colour counts, for this round's exchanges or
    /// (`next_round`) for the cards a folder keeps: then the pile is fresh and only the
    /// victory cards stay seen.
    fn plan(&self, view: &SeatView<'_>, counts: &[u8; COLOURS], next_round: bool) -> Plan {
        if counts.iter().all(|&k| k == 1) {
            // A made seven colours: every plan keeps it whole.
            return Plan::Rainbow;
        }
        let limit = if next_round { view.rules.max_exchange } else { Self::limit(view) };
        let rainbow = match &self.preset.exchange {
            ExchangeModule::Colour { .. } => false,
            ExchangeModule::Rainbow { min_distinct, .. } => {
                counts.iter().filter(|&&k| k > 0).count() >= usize::from(*min_distinct)
            }
            ExchangeModule::Adaptive { .. } | ExchangeModule::None {} | ExchangeModule::Random {} => {
                Self::rainbow_in_reach(view, counts, next_round, limit)
            }
        };
        if rainbow { Plan::Rainbow } else { Plan::Colour(self.plan_colour(view, counts, next_round)) }
    }

    /// The cards of the hand (of these colour counts) the plan keeps, for this round or
    /// (`next_round`) a folder's.
    fn plan_cards(&self, view: &SeatView<'_>, counts: &[u8; COLOURS], next_round: bool) -> u64 {
        match self.plan(view, counts, next_round) {
            Plan::Rainbow => one_of_each(view.layout, view.hand),
            Plan::Colour(c) => view.hand & view.layout.colour_mask(c),
        }
    }

    /// Whether the rainbow is within reach: the missing colours can all be drawn in one
    /// exchange of `limit` cards, and each still has an unseen card ([`seen_for`] the moment).
    fn rainbow_in_reach(view: &SeatView<'_>, counts: &[u8; COLOURS], next_round: bool, limit: usize) -> bool {
        let missing = counts.iter().filter(|&&k| k == 0).count();
        let duplicates = (view.hand.count_ones() as usize).saturating_sub(COLOURS - missing);
        let longest = counts.iter().copied().max().unwrap_or(0);
        missing <= 2 && missing <= duplicates.min(limit) && longest < 5 && {
            let unseen = view.layout.counts(view.layout.all() & !seen_for(view, next_round) & !view.hand);
            (0..COLOURS).all(|c| counts[c] > 0 || unseen[c] > 0)
        }
    }

    /// Steps of strength the stay modules add for the victory cards: `near_win` when a win
    /// now would reach the target, `contest` while an opponent who could reach it this
    /// round (two short with a show of different colours: seven colours take two) has not
    /// folded.
    fn readiness(view: &SeatView<'_>, near_win: u8, contest: u8) -> u8 {
        let target = view.rules.victory_target as u32;
        let held = |s: usize| view.victory.get(s).map_or(0, |v| v.count_ones());
        // Nobody within two cards of the target: nothing to read (most rounds).
        let near = held(view.seat) + 2 >= target && {
            let gain = victory_gain(&view.layout.counts(view.hand), view.victory[view.seat]);
            gain > 0 && held(view.seat) + gain >= target
        };
        let threat = (0..view.declared.len()).any(|s| {
            s != view.seat
                && view.declared[s] != Some(false)
                && held(s) + 2 >= target
                && (held(s) + 1 >= target || !view.layout.counts(view.shown[s]).iter().any(|&k| k > 1))
        });
        (if near { near_win } else { 0 }).saturating_add(if threat { contest } else { 0 })
    }

    fn random_subset(hand: u64, k: usize, rng: &mut BotRng) -> u64 {
        // The ids on the stack, drawn with swap-remove.
        let mut cards = [0u8; 64];
        let mut len = 0;
        for id in ids(hand) {
            cards[len] = id;
            len += 1;
        }
        let mut out = 0;
        for _ in 0..k.min(len) {
            let i = rng.random_range(0..len);
            out |= 1 << cards[i];
            len -= 1;
            cards[i] = cards[len];
        }
        out
    }

    fn honest_show(view: &SeatView<'_>, k: usize) -> u64 {
        let counts = view.layout.counts(view.hand);
        let mut colours: [usize; COLOURS] = std::array::from_fn(|c| c);
        colours.sort_by_key(|&c| std::cmp::Reverse(counts[c]));
        take_by_colour(view.layout, view.hand, &colours, k)
    }

    fn distinct_show(view: &SeatView<'_>, k: usize) -> u64 {
        let mut out = one_of_each(view.layout, view.hand);
        while out.count_ones() as usize > k {
            out &= out - 1;
        }
        // Fewer colours than k: fill with other cards.
        let rest = view.hand & !out;
        out | ids(rest).take(k.saturating_sub(out.count_ones() as usize)).fold(0, |m, id| m | 1 << id)
    }
}

/// Which of a bot's decisions [`SevenPokerBot::explain`] is asked about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Stay or fold.
    Stay,
    /// An exchange or a swap, read by this round's plan.
    Exchange,
    /// What a folder keeps, read by the next round's plan.
    Keep,
    /// Anything else (shows, victory colours): nothing estimated.
    Other,
}

impl SevenPokerBot {
    /// The estimate behind the decision this bot makes in `view`, in words for replays:
    /// a stay's strength against its bar, an exchange's or a keep's plan; `None` where its
    /// module estimates nothing.
    pub fn explain(&self, view: &SeatView<'_>, decision: Decision) -> Option<String> {
        let plan = |next_round: bool| match self.plan(view, &view.layout.counts(view.hand), next_round) {
            Plan::Rainbow => "plans seven colours".to_string(),
            Plan::Colour(c) => format!("plans {}", super::cards::COLOUR_NAMES[c]),
        };
        match decision {
            Decision::Exchange => {
                (!matches!(self.preset.exchange, ExchangeModule::None {} | ExchangeModule::Random {}))
                    .then(|| plan(false))
            }
            Decision::Keep => (self.preset.keep == (KeepModule::Plan {})).then(|| plan(true)),
            Decision::Stay => {
                let (min, margin, near_win, contest) = match self.preset.stay {
                    StayModule::Threshold { min, margin, near_win, contest } => (min, Some(margin), near_win, contest),
                    StayModule::FoldToKeep { min, near_win, contest } => (min, None, near_win, contest),
                    StayModule::Always {} | StayModule::Random { .. } => return None,
                };
                let strength = view.layout.strength(view.hand);
                let ready = Self::readiness(view, near_win, contest);
                let mut text = format!("strength {strength}");
                if ready > 0 {
                    text += &format!(", +{ready} for the victory cards");
                }
                text += &format!(" (stays from {min})");
                let Some(margin) = margin else { return Some(text) };
                let strongest = (0..view.declared.len())
                    .filter(|&s| s != view.seat && view.declared[s] == Some(true))
                    .map(|s| suggested_strength(view, s))
                    .reduce(f64::max);
                if let Some(shown) = strongest {
                    let bar = f64::from(strength) + f64::from(ready) - f64::from(margin);
                    text += &format!("; an earlier stayer's show suggests {shown:.1} (it stays only to {bar:.1})");
                }
                Some(text)
            }
            Decision::Other => None,
        }
    }
}

impl Bot for SevenPokerBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn exchange(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> u64 {
        match &self.preset.exchange {
            ExchangeModule::None {} => 0,
            ExchangeModule::Random {} => {
                let k = rng.random_range(0..=Self::limit(view));
                Self::random_subset(view.hand, k, rng)
            }
            _ => {
                let counts = view.layout.counts(view.hand);
                let keep = self.plan_cards(view, &counts, false);
                discard_outside(view.layout, view.hand, &counts, keep, Self::limit(view))
            }
        }
    }

    fn swap_give(&mut self, view: &SeatView<'_>, _: &mut BotRng) -> Option<u8> {
        // Give away a card outside the plan, if any.
        let plan = self.plan_cards(view, &view.layout.counts(view.hand), false);
        ids(view.hand & !plan).next()
    }

    fn swap_return(&mut self, view: &SeatView<'_>, received: u8, _: &mut BotRng) -> u8 {
        // A card outside the plan; else one of the received card's colour (the plan keeps
        // the received card in its place); else the lowest other card.
        let plan = self.plan_cards(view, &view.layout.counts(view.hand), false);
        let others = view.hand & !(1 << received);
        let same_colour = others & view.layout.colour_mask(view.layout.colour(received));
        let pick = [others & !plan, same_colour, others].into_iter().find(|&set| set != 0).unwrap_or(0);
        ids(pick).next().unwrap_or(received)
    }

    fn show(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> u64 {
        let k = view.rules.shown.min(view.hand.count_ones() as usize);
        match &self.preset.show {
            ShowModule::Honest {} => Self::honest_show(view, k),
            ShowModule::Conceal {} => Self::distinct_show(view, k),
            ShowModule::Random {} => Self::random_subset(view.hand, k, rng),
            ShowModule::Bluff { p } => {
                if rng.random::<f32>() >= *p {
                    return Self::honest_show(view, k);
                }
                let counts = view.layout.counts(view.hand);
                match (0..COLOURS).find(|&c| counts[c] as usize == k && k >= 2) {
                    Some(c) if counts.iter().filter(|&&n| n as usize >= k).count() > 1 => {
                        view.hand & view.layout.colour_mask(c)
                    }
                    _ => Self::distinct_show(view, k),
                }
            }
        }
    }

    fn stay(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> bool {
        let strength = view.layout.strength(view.hand);
        match &self.preset.stay {
            StayModule::Always {} => true,
            StayModule::Random { p } => rng.random::<f32>() < *p,
            StayModule::FoldToKeep { min, near_win, contest } => {
                strength.saturating_add(Self::readiness(view, *near_win, *contest)) >= *min
            }
            StayModule::Threshold { min, margin, near_win, contest } => {
                let ready = f64::from(strength) + f64::from(Self::readiness(view, *near_win, *contest));
                // Every earlier stayer's suggestion must be at most `bar`; the chance of
                // seven colours is worked out only where it decides.
                let bar = ready - f64::from(*margin);
                ready >= f64::from(*min)
                    && (0..view.declared.len())
                        .filter(|&s| s != view.seat && view.declared[s] == Some(true))
                        .all(|s| suggestion_at_most(view, s, bar))
            }
        }
    }

    fn keep(&mut self, view: &SeatView<'_>, _: &mut BotRng) -> u64 {
        match self.preset.keep {
            KeepModule::Nothing {} => 0,
            KeepModule::Plan {} => self.plan_cards(view, &view.layout.counts(view.hand), true),
        }
    }

    fn victory_colours(&mut self, view: &SeatView<'_>, candidates: u8, count: usize, rng: &mut BotRng) -> u8 {
        let removed = view.layout.counts(view.removed);
        let mut left = candidates;
        let mut out = 0u8;
        for _ in 0..count {
            let pick = match self.preset.victory {
                VictoryModule::Lowest {} => left.trailing_zeros() as usize,
                VictoryModule::Scarce {} => (0..COLOURS)
                    .filter(|&c| left >> c & 1 == 1)
                    .max_by_key(|&c| (removed[c], std::cmp::Reverse(c)))
                    .unwrap_or(COLOURS),
                VictoryModule::Random {} => {
                    let n = left.count_ones();
                    if n == 0 { COLOURS } else { nth_bit(left, rng.random_range(0..n)) }
                }
            };
            if pick >= COLOURS {
                break;
            }
            out |= 1 << pick;
            left &= !(1 << pick);
        }
        out
    }
}

/// The index of the `i`-th lowest set bit of `bits`.
fn nth_bit(mut bits: u8, i: u32) -> usize {
    for _ in 0..i {
        bits &= bits - 1;
    }
    bits.trailing_zeros() as usize
}
