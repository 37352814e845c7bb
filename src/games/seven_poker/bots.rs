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
    None,
    /// Discards a random number of random cards.
    Random,
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
    Honest,
    /// With probability `p`, a misleading three; otherwise honest.
    Bluff {
        /// Chance of bluffing.
        p: f32,
    },
    /// Three different colours, whatever it holds.
    Conceal,
    /// Random cards.
    Random,
}

/// How a bot declares.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum StayModule {
    /// Always stays.
    Always,
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
    Nothing,
    /// Keeps what its exchange plan needs for the next round: its plan colour's cards, or
    /// one card of each colour for a rainbow plan (a made seven colours whole).
    Plan,
}

/// How a winner picks its victory colours when it has a choice.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "module", rename_all = "kebab-case", deny_unknown_fields)]
pub enum VictoryModule {
    /// The colours with the fewest cards left in play (ties: the lowest): a win in a held
    /// colour takes nothing, so it holds the colours it is least likely to build again.
    #[default]
    Scarce,
    /// The lowest colours.
    Lowest,
    /// Colours at random.
    Random,
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
pub const PRESETS: &[(&str, &str)] = &[
    ("random", include_str!("../../../strategies/seven-poker/random.toml")),
    ("pat", include_str!("../../../strategies/seven-poker/pat.toml")),
    ("colour", include_str!("../../../strategies/seven-poker/colour.toml")),
    ("rainbow", include_str!("../../../strategies/seven-poker/rainbow.toml")),
    ("bluffer", include_str!("../../../strategies/seven-poker/bluffer.toml")),
    ("fold-to-keep", include_str!("../../../strategies/seven-poker/fold-to-keep.toml")),
    ("adaptive", include_str!("../../../strategies/seven-poker/adaptive.toml")),
];

impl Preset {
    /// Parses a preset's TOML.
    pub fn from_toml(text: &str) -> Result<Preset, InputError> {
        let preset: Preset = crate::games::presets::parse_toml(text)?;
        let show_p = match &preset.show {
            ShowModule::Bluff { p } => Some(("show.p", *p)),
            _ => None,
        };
        let stay_p = match &preset.stay {
            StayModule::Random { p } => Some(("stay.p", *p)),
            _ => None,
        };
        if let Some((key, p)) = show_p.into_iter().chain(stay_p).find(|(_, p)| !(0.0..=1.0).contains(p)) {
            return Err(InputError::new(format!("{key} = {p}: use a value from 0 to 1")));
        }
        Ok(preset)
    }

    /// Loads a preset by name, or a TOML file by path.
    pub fn load(name_or_path: &str) -> Result<Preset, InputError> {
        crate::games::presets::load(PRESETS, name_or_path, super::NAME, Preset::from_toml)
    }

    /// A bot playing this preset under `name`.
    pub fn bot(&self, name: &str) -> SevenPokerBot {
        SevenPokerBot { name: name.to_string(), preset: self.clone() }
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

/// Cards of `hand` outside `keep`, rarest colours first, at most `limit`.
fn discard_outside(layout: Layout, hand: u64, keep: u64, limit: usize) -> u64 {
    let counts = layout.counts(hand);
    let mut colours: [usize; COLOURS] = std::array::from_fn(|c| c);
    colours.sort_by_key(|&c| counts[c]);
    take_by_colour(layout, hand & !keep, &colours, limit)
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

/// Whether a set holds two cards of one colour (false: every card a different colour).
fn repeated_colours(layout: Layout, cards: u64) -> bool {
    layout.counts(cards).iter().any(|&k| k > 1)
}

/// The chance that seat `s` holds all seven colours, from what `view`'s seat can see.
/// Zero unless its hand has seven cards and the cards it showed are all of different
/// colours; then the chance that the cards it drew for its hidden places (as many as it
/// hides, plus those it discarded face up this round), taken at random from the cards the
/// viewer has not seen, include every colour it did not show: how likely a player chasing
/// the rainbow would have completed it.
pub fn seven_colour_chance(view: &SeatView<'_>, s: usize) -> f64 {
    let layout = view.layout;
    let shown = view.shown[s];
    if usize::from(view.hand_sizes[s]) != COLOURS || repeated_colours(layout, shown) {
        return 0.0;
    }
    let shown_counts = layout.counts(shown);
    let missing = (0..COLOURS).filter(|&c| shown_counts[c] == 0).fold(0u8, |m, c| m | 1 << c);
    let unseen_cards = layout.all() & !view.hand & !seen(view);
    let unseen = layout.counts(unseen_cards);
    let total = unseen_cards.count_ones();
    let hidden = COLOURS as u32 - shown.count_ones();
    let draws = (hidden + view.discarded.get(s).map_or(0, |d| d.count_ones())).min(total);
    // Inclusion-exclusion over the sets of missing colours the draws could all miss.
    let mut chance = 0.0;
    let mut avoided_colours = missing;
    loop {
        let avoided: u32 = (0..COLOURS).filter(|&c| avoided_colours >> c & 1 == 1).map(|c| u32::from(unseen[c])).sum();
        let sign = if avoided_colours.count_ones() % 2 == 0 { 1.0 } else { -1.0 };
        chance += sign * miss_chance(total, avoided, draws);
        if avoided_colours == 0 {
            break;
        }
        avoided_colours = (avoided_colours - 1) & missing;
    }
    chance.clamp(0.0, 1.0)
}

/// The chance that `draws` cards taken at random from `total` include none of `avoided`
/// given ones.
fn miss_chance(total: u32, avoided: u32, draws: u32) -> f64 {
    if avoided + draws > total {
        return 0.0;
    }
    (0..draws).map(|i| f64::from(total - avoided - i) / f64::from(total - i)).product()
}

/// What seat `s`'s shown cards suggest about its strength: k cards of one colour suggest
/// k + 1; cards all of different colours weigh all seven colours (8) by the chance of it
/// given what is visible against three of a colour; anything else three of a colour.
pub fn suggested_strength(view: &SeatView<'_>, s: usize) -> f64 {
    let shown = view.shown[s];
    let k = shown.count_ones() as u8;
    if k >= 2 && view.layout.counts(shown).contains(&k) {
        return f64::from(k) + 1.0;
    }
    if repeated_colours(view.layout, shown) {
        return 3.0;
    }
    let p = seven_colour_chance(view, s);
    3.0 + p * f64::from(SEVEN_COLOURS - 3)
}

/// Victory cards a win with `hand` would take, for a seat holding the colours `held`.
fn victory_gain(layout: Layout, hand: u64, held: u8) -> u32 {
    let counts = layout.counts(hand);
    let new = |c: usize| counts[c] > 0 && held >> c & 1 == 0;
    if layout.strength(hand) == SEVEN_COLOURS {
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
            ExchangeModule::None | ExchangeModule::Random => 0,
        }
    }

    /// The colour a one-colour plan builds: the most cards, a colour already held as a
    /// victory colour counting `held_penalty` short; ties to more cards still unseen.
    fn plan_colour(&self, view: &SeatView<'_>, seen: u64) -> usize {
        let counts = view.layout.counts(view.hand);
        let unseen = view.layout.counts(view.layout.all() & !seen & !view.hand);
        let held = view.victory.get(view.seat).copied().unwrap_or(0);
        let penalty = i16::from(self.held_penalty());
        let worth = |c: usize| i16::from(counts[c]) - if held >> c & 1 == 1 { penalty } else { 0 };
        (0..COLOURS).max_by_key(|&c| (worth(c), unseen[c], std::cmp::Reverse(c))).expect("colours")
    }

    /// The exchange plan, for this round's exchanges or (`next_round`) for the cards a
    /// folder keeps: then the pile is fresh and only the victory cards stay seen.
    fn plan(&self, view: &SeatView<'_>, next_round: bool) -> Plan {
        let layout = view.layout;
        if layout.strength(view.hand) == SEVEN_COLOURS {
            return Plan::Rainbow;
        }
        let seen = if next_round { view.removed } else { seen(view) };
        let limit = if next_round { view.rules.max_exchange } else { Self::limit(view) };
        let rainbow = match &self.preset.exchange {
            ExchangeModule::Colour { .. } => false,
            ExchangeModule::Rainbow { min_distinct, .. } => {
                let distinct = layout.counts(view.hand).iter().filter(|&&k| k > 0).count();
                distinct >= usize::from(*min_distinct)
            }
            ExchangeModule::Adaptive { .. } | ExchangeModule::None | ExchangeModule::Random => {
                Self::rainbow_in_reach(view, seen, limit)
            }
        };
        if rainbow { Plan::Rainbow } else { Plan::Colour(self.plan_colour(view, seen)) }
    }

    /// The cards of the hand a plan keeps.
    fn plan_cards(view: &SeatView<'_>, plan: Plan) -> u64 {
        match plan {
            Plan::Rainbow => one_of_each(view.layout, view.hand),
            Plan::Colour(c) => view.hand & view.layout.colour_mask(c),
        }
    }

    /// Whether the rainbow is within reach: the missing colours can all be drawn in one
    /// exchange of `limit` cards, and each still has an unseen card.
    fn rainbow_in_reach(view: &SeatView<'_>, seen: u64, limit: usize) -> bool {
        let counts = view.layout.counts(view.hand);
        let missing = counts.iter().filter(|&&k| k == 0).count();
        let duplicates = (view.hand.count_ones() as usize).saturating_sub(COLOURS - missing);
        let unseen = view.layout.counts(view.layout.all() & !seen & !view.hand);
        let longest = counts.iter().copied().max().unwrap_or(0);
        missing <= 2
            && missing <= duplicates.min(limit)
            && (0..COLOURS).all(|c| counts[c] > 0 || unseen[c] > 0)
            && longest < 5
    }

    /// Steps of strength the stay modules add for the victory cards: `near_win` when a win
    /// now would reach the target, `contest` while an opponent who could reach it this
    /// round (two short with a show of different colours: seven colours take two) has not
    /// folded.
    fn readiness(view: &SeatView<'_>, near_win: u8, contest: u8) -> u8 {
        let target = view.rules.victory_target as u32;
        let held = |s: usize| view.victory.get(s).map_or(0, |v| v.count_ones());
        let gain = victory_gain(view.layout, view.hand, view.victory.get(view.seat).copied().unwrap_or(0));
        let near = gain > 0 && held(view.seat) + gain >= target;
        let threat = (0..view.declared.len()).any(|s| {
            let reach = if repeated_colours(view.layout, view.shown[s]) { 1 } else { 2 };
            s != view.seat && view.declared[s] != Some(false) && held(s) + reach >= target
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

impl Bot for SevenPokerBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn exchange(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> u64 {
        match &self.preset.exchange {
            ExchangeModule::None => 0,
            ExchangeModule::Random => {
                let k = rng.random_range(0..=Self::limit(view));
                Self::random_subset(view.hand, k, rng)
            }
            _ => {
                let keep = Self::plan_cards(view, self.plan(view, false));
                discard_outside(view.layout, view.hand, keep, Self::limit(view))
            }
        }
    }

    fn swap_give(&mut self, view: &SeatView<'_>, _: &mut BotRng) -> Option<u8> {
        // Give away a card outside the plan, if any.
        let plan = Self::plan_cards(view, self.plan(view, false));
        ids(view.hand & !plan).next()
    }

    fn swap_return(&mut self, view: &SeatView<'_>, received: u8, _: &mut BotRng) -> u8 {
        // A card outside the plan; else one of the received card's colour (the plan keeps
        // the received card in its place); else the lowest other card.
        let plan = Self::plan_cards(view, self.plan(view, false));
        let others = view.hand & !(1 << received);
        let same_colour = others & view.layout.colour_mask(view.layout.colour(received));
        let pick = [others & !plan, same_colour, others].into_iter().find(|&set| set != 0).unwrap_or(0);
        ids(pick).next().unwrap_or(received)
    }

    fn show(&mut self, view: &SeatView<'_>, rng: &mut BotRng) -> u64 {
        let k = view.rules.shown.min(view.hand.count_ones() as usize);
        match &self.preset.show {
            ShowModule::Honest => Self::honest_show(view, k),
            ShowModule::Conceal => Self::distinct_show(view, k),
            ShowModule::Random => Self::random_subset(view.hand, k, rng),
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
            StayModule::Always => true,
            StayModule::Random { p } => rng.random::<f32>() < *p,
            StayModule::FoldToKeep { min, near_win, contest } => {
                strength.saturating_add(Self::readiness(view, *near_win, *contest)) >= *min
            }
            StayModule::Threshold { min, margin, near_win, contest } => {
                let ready = f64::from(strength) + f64::from(Self::readiness(view, *near_win, *contest));
                let best = (0..view.declared.len())
                    .filter(|&s| s != view.seat && view.declared[s] == Some(true))
                    .map(|s| suggested_strength(view, s))
                    .fold(0.0, f64::max);
                ready >= f64::from(*min) && ready >= best + f64::from(*margin)
            }
        }
    }

    fn keep(&mut self, view: &SeatView<'_>, _: &mut BotRng) -> u64 {
        match self.preset.keep {
            KeepModule::Nothing => 0,
            KeepModule::Plan => Self::plan_cards(view, self.plan(view, true)),
        }
    }

    fn victory_colours(&mut self, view: &SeatView<'_>, candidates: u8, count: usize, rng: &mut BotRng) -> u8 {
        let mut order: [usize; COLOURS] = std::array::from_fn(|c| c);
        match self.preset.victory {
            VictoryModule::Lowest => {}
            VictoryModule::Scarce => {
                let removed = view.layout.counts(view.removed);
                order.sort_by_key(|&c| (std::cmp::Reverse(removed[c]), c));
            }
            VictoryModule::Random => {
                for i in (1..COLOURS).rev() {
                    order.swap(i, rng.random_range(0..=i));
                }
            }
        }
        order.iter().filter(|&&c| candidates >> c & 1 == 1).take(count).fold(0, |m, &c| m | 1 << c)
    }
}
