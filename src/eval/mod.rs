//! Poker hand evaluation: the best five-card hand out of any number of cards.
//!
//! [`Evaluator::eval`] is the fast path for hands without wild cards: a few bit operations
//! on the suit masks and one table look-up for straights. [`Evaluator::eval_wild`] is the
//! exact path with wild cards: it finds, category by category, the best hand any
//! substitution gives (a wild stands for any card of the deck, duplicates of held cards
//! allowed, so five of a kind exists). Both return a [`HandValue`], a totally ordered `u32`.

mod keys;
mod table;
mod wild;

pub use keys::MAX_TABLE_CARDS;
pub use table::HandKey;

pub use wild::{WildRule, WildRules};

use keys::MAX_TABLE_WILDS;
use table::{ExactValues, ValueTables};

use std::fmt;

use serde::Serialize;

use crate::cards::{Card, CardSet, Deck, Rank, Suit};

/// A hand category, from high card up to five of a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// No pair, no straight, no flush.
    HighCard = 0,
    /// Two cards of one rank.
    Pair,
    /// Two pairs.
    TwoPair,
    /// Three cards of one rank.
    ThreeOfAKind,
    /// Five consecutive ranks.
    Straight,
    /// Five cards of one suit.
    Flush,
    /// Three of one rank and two of another.
    FullHouse,
    /// Four cards of one rank.
    FourOfAKind,
    /// A straight in one suit.
    StraightFlush,
    /// Five cards of one rank (only with wild cards).
    FiveOfAKind,
}

impl Category {
    /// Every category, lowest first (standard order).
    pub const ALL: [Category; 10] = [
        Category::HighCard,
        Category::Pair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
        Category::FiveOfAKind,
    ];

    /// The category's name, as in tables and `--json`.
    pub fn name(self) -> &'static str {
        match self {
            Category::HighCard => "high-card",
            Category::Pair => "pair",
            Category::TwoPair => "two-pair",
            Category::ThreeOfAKind => "three-of-a-kind",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::FullHouse => "full-house",
            Category::FourOfAKind => "four-of-a-kind",
            Category::StraightFlush => "straight-flush",
            Category::FiveOfAKind => "five-of-a-kind",
        }
    }

    /// The category with this index (`self as usize`).
    pub fn from_index(i: usize) -> Category {
        Category::ALL[i]
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The strength of a hand: compare two values to compare the hands.
///
/// Layout: bits 24-27 the category's place in the deck's ordering, bits 20-23 the
/// category, bits 0-19 up to five tie-break ranks (4 bits each, rank + 1, most
/// significant first; 0 where a partial hand has no card).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HandValue(pub u32);

impl HandValue {
    /// The hand's category.
    pub fn category(self) -> Category {
        Category::from_index(((self.0 >> 20) & 15) as usize)
    }

    /// The tie-break ranks, most significant first (fewer for partial hands).
    pub fn tie_breaks(self) -> Vec<Rank> {
        (0..5)
            .map(|i| (self.0 >> (16 - 4 * i)) & 15)
            .take_while(|&slot| slot != 0)
            .map(|slot| Rank(slot as u8 - 1))
            .collect()
    }
}

/// The best hand with the five cards it uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestHand {
    /// The hand's strength.
    pub value: HandValue,
    /// The cards the hand uses, as they count (a wild shows the card it stands for).
    pub cards: Vec<Card>,
    /// For each of `cards`, the wild card that stood for it, if any.
    pub wild_for: Vec<Option<Card>>,
}

/// Ranks a hand of any size under one deck's straights and category order.
#[derive(Clone, Debug)]
pub struct Evaluator {
    /// Top rank + 1 of the best straight inside each 13-bit rank mask, 0 if none.
    straight_top: Box<[u8]>,
    /// The deck's straights, highest first, with the rank that names each.
    straights: Vec<(u16, Rank)>,
    /// For 1 to 4 wilds (index w - 1): top rank + 1 of the best straight each 13-bit
    /// mask can complete with that many wild cards, 0 if none.
    straight_with_wilds: Box<[u8]>,
    /// Each category's place in the ordering.
    ordinal: [u8; 10],
    /// The deck's ranks, as a mask.
    rank_mask: u16,
    /// This deck's tables for the table path.
    values: ValueTables,
}

impl Evaluator {
    /// An evaluator for this deck, with its `flush_beats_full_house` setting.
    pub fn new(deck: &Deck) -> Evaluator {
        Evaluator::with_order(deck, deck.flush_beats_full_house)
    }

    /// An evaluator for this deck with an explicit flush/full-house order.
    pub fn with_order(deck: &Deck, flush_beats_full_house: bool) -> Evaluator {
        let straights = deck.straights();
        let mut straight_top = vec![0u8; 1 << 13].into_boxed_slice();
        for (mask, top) in straight_top.iter_mut().enumerate() {
            if let Some(&(_, name)) = straights.iter().find(|&&(s, _)| mask as u16 & s == s) {
                *top = name.0 + 1;
            }
        }
        let mut straight_with_wilds = vec![0u8; 4 << 13].into_boxed_slice();
        for (i, top) in straight_with_wilds.iter_mut().enumerate() {
            let (w, mask) = ((i >> 13) as u32 + 1, (i & 0x1fff) as u16);
            if let Some(&(_, name)) = straights.iter().find(|&&(s, _)| (s & !mask).count_ones() <= w) {
                *top = name.0 + 1;
            }
        }
        let mut ordinal = [0u8; 10];
        for (i, o) in ordinal.iter_mut().enumerate() {
            *o = i as u8;
        }
        if flush_beats_full_house {
            ordinal.swap(Category::Flush as usize, Category::FullHouse as usize);
        }
        let mut eval = Evaluator {
            straight_top,
            straight_with_wilds,
            straights,
            ordinal,
            rank_mask: deck.rank_mask,
            values: ValueTables::placeholder(),
        };
        eval.values = ValueTables::get(deck.rank_mask, flush_beats_full_house, &eval);
        eval
    }

    /// The bytes of this deck's look-up tables: the table path's without wilds, its wild
    /// tables (filled when a hand with wilds is first ranked), and the bitwise path's.
    pub fn table_bytes(&self) -> (usize, usize, usize) {
        let (plain, wild) = self.values.bytes();
        (plain, wild, self.straight_top.len() + self.straight_with_wilds.len())
    }

    /// A category's place in this evaluator's order (0 lowest; a flush may sit above a
    /// full house).
    pub fn category_place(&self, cat: Category) -> u8 {
        self.ordinal[cat as usize]
    }

    /// A value from a category and up to five tie-break rank slots (already rank + 1).
    #[inline(always)]
    fn value(&self, cat: Category, slots: u32) -> HandValue {
        HandValue(((self.ordinal[cat as usize] as u32) << 24) | ((cat as u32) << 20) | slots)
    }

    /// The fast path: the best hand of these cards, none wild.
    ///
    /// Up to seven cards: the suits' keys summed and two look-ups (the table path);
    /// more cards: the bitwise path.
    #[inline]
    pub fn eval(&self, cards: CardSet) -> HandValue {
        if cards.len() > MAX_TABLE_CARDS {
            return self.eval_bits(cards);
        }
        let t = &self.values;
        let (masks, key) = t.suits_and_key(cards);
        if table::has_flush_flag(key) {
            return HandValue(masks.iter().map(|&m| t.flush(m)).fold(0, u32::max));
        }
        HandValue(t.by_key(key))
    }

    /// The category and top tie-break rank slot of these cards' best hand, none wild, as
    /// bits 16-23 of its [`HandValue`] (category * 16 + slot): all a percentile needs,
    /// from a table a quarter the size of the values'.
    #[inline]
    pub fn eval_coarse(&self, cards: CardSet) -> u8 {
        if cards.len() > MAX_TABLE_CARDS {
            return (self.eval_bits(cards).0 >> 16) as u8;
        }
        let t = &self.values;
        let (masks, key) = t.suits_and_key(cards);
        if table::has_flush_flag(key) {
            return (masks.iter().map(|&m| t.flush(m)).fold(0, u32::max) >> 16) as u8;
        }
        t.coarse_by_key(key)
    }

    /// A ready [`HandKey`]'s value: one hashed look-up.
    #[inline]
    pub fn eval_key(&self, hand: &HandKey) -> HandValue {
        HandValue(self.values.by_key(hand.key()))
    }

    /// The bitwise path, exact for any number of cards.
    fn eval_bits(&self, cards: CardSet) -> HandValue {
        let a = cards.suit_mask(Suit(0));
        let b = cards.suit_mask(Suit(1));
        let c = cards.suit_mask(Suit(2));
        let d = cards.suit_mask(Suit(3));
        let any = a | b | c | d;

        let mut flush = None;
        for m in [a, b, c, d] {
            if m.count_ones() >= 5 {
                flush = Some(m);
            }
        }
        if let Some(m) = flush {
            let top = self.straight_top[m as usize];
            if top != 0 {
                return self.value(Category::StraightFlush, (top as u32) << 16);
            }
        }

        let ge2 = (a & b) | (c & d) | ((a | b) & (c | d));
        let ge3 = (a & b & (c | d)) | (c & d & (a | b));
        let quads = a & b & c & d;
        if quads != 0 {
            let q = top_bit(quads);
            return self.value(Category::FourOfAKind, pack(&[q], any & !q, 1));
        }
        let trips = ge3;
        let pairs = ge2 & !ge3;
        let full = if trips != 0 {
            let t = top_bit(trips);
            let rest = (trips & !t) | pairs;
            (rest != 0).then(|| self.value(Category::FullHouse, pack(&[t, top_bit(rest)], 0, 0)))
        } else {
            None
        };
        if let Some(m) = flush {
            let fl = self.value(Category::Flush, pack(&[], m, 5));
            return full.map_or(fl, |f| f.max(fl));
        }
        if let Some(f) = full {
            return f;
        }
        let top = self.straight_top[any as usize];
        if top != 0 {
            return self.value(Category::Straight, (top as u32) << 16);
        }
        if trips != 0 {
            return self.value(Category::ThreeOfAKind, pack(&[trips], any & !trips, 2));
        }
        if pairs != 0 {
            let p1 = top_bit(pairs);
            let rest = pairs & !p1;
            if rest != 0 {
                let p2 = top_bit(rest);
                return self.value(Category::TwoPair, pack(&[p1, p2], any & !(p1 | p2), 1));
            }
            return self.value(Category::Pair, pack(&[p1], any & !p1, 3));
        }
        self.value(Category::HighCard, pack(&[], any, 5))
    }

    /// The exact path: the best hand of `naturals` plus `wilds` wild cards.
    ///
    /// Every wild is used (a wild can copy any natural card, so using it never hurts); the
    /// answer is the best value over the categories the cards can make, each category
    /// taking its best ranks.
    #[inline]
    pub fn eval_wild(&self, naturals: CardSet, wilds: u32) -> HandValue {
        // The common case, no wilds, inlines into the caller; the rest stays out of line.
        if wilds == 0 { self.eval(naturals) } else { self.eval_with_wilds(naturals, wilds) }
    }

    /// [`Evaluator::eval_wild`] with at least one wild: the table path inlines, the exact
    /// paths for the rare rest stay out of line.
    #[inline]
    fn eval_with_wilds(&self, naturals: CardSet, wilds: u32) -> HandValue {
        match wilds {
            0 => self.eval(naturals),
            // The wild tables know only the deck's ranks; naturals of other ranks (which
            // no deal gives, but a library caller may) take the bitwise path.
            1..=MAX_TABLE_WILDS
                if naturals.len() + wilds <= MAX_TABLE_CARDS && naturals.rank_mask() & !self.rank_mask == 0 =>
            {
                self.eval_wild_table(naturals, wilds)
            }
            _ if naturals.len() + wilds >= 5 => self.eval_wild_full(naturals, wilds),
            _ => self.eval_wild_generic(naturals, wilds, Kinds::All),
        }
    }

    /// The table wild path (1 to 4 wilds, seven cards at most): the best hand needing no
    /// suit, by the naturals' rank key and the number of wilds, against each suit's best
    /// flush with the wilds.
    #[inline]
    fn eval_wild_table(&self, naturals: CardSet, wilds: u32) -> HandValue {
        let t = &self.values;
        let (masks, key) = t.suits_and_key(naturals);
        let wild = t.wild(self);
        let unsuited = wild.by_key(keys::wild_key(table::without_flush_flag(key), wilds));
        let suited = masks.iter().map(|&m| wild.flush(m, wilds)).fold(0, u32::max);
        HandValue(unsuited.max(suited))
    }

    /// The exact wild path for hands of five cards or more, by bit masks and tables.
    ///
    /// With at least one wild, only five of a kind, straight flush, four of a kind, full
    /// house (one wild and two pairs), flush, straight, three of a kind and pair can be
    /// best: anything lower is beaten by pairing a natural card with a wild.
    #[inline(never)]
    fn eval_wild_full(&self, naturals: CardSet, wilds: u32) -> HandValue {
        let deck_top = 1u16 << (15 - self.rank_mask.leading_zeros());
        if wilds >= 5 {
            return self.value(Category::FiveOfAKind, pack(&[deck_top], 0, 0));
        }
        let w = wilds;
        let suits = [
            naturals.suit_mask(Suit(0)),
            naturals.suit_mask(Suit(1)),
            naturals.suit_mask(Suit(2)),
            naturals.suit_mask(Suit(3)),
        ];
        let [a, b, c, d] = suits;
        let any = a | b | c | d;
        // at_least[i]: ranks held i + 1 times or more.
        let at_least =
            [any, (a & b) | (c & d) | ((a | b) & (c | d)), (a & b & (c | d)) | (c & d & (a | b)), a & b & c & d];
        // The best rank that reaches `n` of a kind with the wilds, as a one-bit mask.
        let best_of_kind = |n: u32| -> u16 {
            if w >= n {
                deck_top
            } else {
                let m = at_least[(n - w - 1) as usize];
                if m == 0 { 0 } else { top_bit(m) }
            }
        };
        let five = best_of_kind(5);
        if five != 0 {
            return self.value(Category::FiveOfAKind, pack(&[five], 0, 0));
        }
        let table = &self.straight_with_wilds[((w as usize - 1) << 13)..(w as usize) << 13];
        let mut best = HandValue(0);
        for m in suits {
            let top = table[m as usize];
            if top != 0 {
                best = best.max(self.value(Category::StraightFlush, (top as u32) << 16));
            }
            if m.count_ones() + w >= 5 {
                // Every wild becomes the suit's top card (duplicates allowed).
                let mut slots = 0u32;
                for _ in 0..w {
                    slots = (slots << 4) | (16 - deck_top.leading_zeros());
                }
                let rest = pack(&[], m, 5 - w) >> (4 * w);
                best = best.max(self.value(Category::Flush, (slots << (4 * (5 - w))) | rest));
            }
        }
        if best.category() == Category::StraightFlush {
            return best;
        }
        let quads = best_of_kind(4);
        if quads != 0 {
            return self.value(Category::FourOfAKind, pack(&[quads], any & !quads, 1));
        }
        if w == 1 && at_least[1].count_ones() >= 2 {
            let t = top_bit(at_least[1]);
            let p = top_bit(at_least[1] & !t);
            best = best.max(self.value(Category::FullHouse, pack(&[t, p], 0, 0)));
        }
        if best != HandValue(0) {
            return best;
        }
        let top = table[any as usize];
        if top != 0 {
            return self.value(Category::Straight, (top as u32) << 16);
        }
        let trips = best_of_kind(3);
        if trips != 0 {
            return self.value(Category::ThreeOfAKind, pack(&[trips], any & !trips, 2));
        }
        let pair = best_of_kind(2);
        self.value(Category::Pair, pack(&[pair], any & !pair, 3))
    }

    /// The exact wild path for any number of cards, category by category, among `kinds`.
    #[inline(never)]
    fn eval_wild_generic(&self, naturals: CardSet, wilds: u32, kinds: Kinds) -> HandValue {
        let slots = (naturals.len() + wilds).min(5);
        let w = wilds.min(5);
        let mut counts = [0u32; 13];
        for card in naturals.iter() {
            counts[card.rank().0 as usize] += 1;
        }
        let ranks_desc: Vec<u8> = (0..13u8).rev().filter(|r| self.rank_mask & (1 << r) != 0).collect();
        let need = |r: u8, n: u32| n.saturating_sub(counts[r as usize]);
        let any = naturals.rank_mask();
        let mut best = HandValue(0);
        let mut consider = |v: HandValue| {
            if kinds.allows(v.category()) {
                best = best.max(v);
            }
        };

        // Kickers: best distinct ranks outside `exclude`, from naturals or leftover wilds.
        let kickers = |exclude: u16, n: u32, mut leftover: u32| -> u32 {
            let mut slots = 0u32;
            let mut taken = 0;
            for &r in &ranks_desc {
                if taken == n {
                    break;
                }
                if exclude & (1 << r) != 0 {
                    continue;
                }
                if counts[r as usize] > 0 || leftover > 0 {
                    if counts[r as usize] == 0 {
                        leftover -= 1;
                    }
                    slots = (slots << 4) | (r as u32 + 1);
                    taken += 1;
                }
            }
            slots << (4 * (5 - taken))
        };
        let made = |ranks: &[u8]| ranks.iter().fold(0u32, |s, &r| (s << 4) | (r as u32 + 1));

        if slots == 5 {
            if let Some(&r) = ranks_desc.iter().find(|&&r| need(r, 5) <= w) {
                consider(self.value(Category::FiveOfAKind, made(&[r]) << 16));
            }
            for suit in Suit::ALL {
                let m = naturals.suit_mask(suit);
                if let Some(&(_, name)) = self.straights.iter().find(|&&(s, _)| (s & !m).count_ones() <= w) {
                    consider(self.value(Category::StraightFlush, made(&[name.0]) << 16));
                }
                if m.count_ones() + w >= 5 {
                    // Wilds become the top card of the suit again and again: the best flush.
                    let top = ranks_desc[0];
                    let mut ranks: Vec<u8> = vec![top; w as usize];
                    ranks.extend(bits_desc(m).take(5 - w as usize));
                    consider(self.value(Category::Flush, made(&ranks)));
                }
            }
            'full: for &t in &ranks_desc {
                for &p in &ranks_desc {
                    if p != t && need(t, 3) + need(p, 2) <= w {
                        consider(self.value(Category::FullHouse, made(&[t, p]) << 12));
                        break 'full;
                    }
                }
            }
            if let Some(&(_, name)) = self.straights.iter().find(|&&(s, _)| (s & !any).count_ones() <= w) {
                consider(self.value(Category::Straight, made(&[name.0]) << 16));
            }
        }
        if slots >= 4 {
            if let Some(&r) = ranks_desc.iter().find(|&&r| need(r, 4) <= w) {
                let left = w - need(r, 4);
                let k = kickers(1 << r, slots - 4, left);
                consider(self.value(Category::FourOfAKind, (made(&[r]) << 16) | (k >> 4)));
            }
            'two: for &p1 in &ranks_desc {
                for &p2 in ranks_desc.iter().filter(|&&p2| p2 < p1) {
                    let used = need(p1, 2) + need(p2, 2);
                    if used <= w {
                        let k = kickers((1 << p1) | (1 << p2), slots - 4, w - used);
                        consider(self.value(Category::TwoPair, (made(&[p1, p2]) << 12) | (k >> 8)));
                        break 'two;
                    }
                }
            }
        }
        if slots >= 3
            && let Some(&r) = ranks_desc.iter().find(|&&r| need(r, 3) <= w)
        {
            let k = kickers(1 << r, slots - 3, w - need(r, 3));
            consider(self.value(Category::ThreeOfAKind, (made(&[r]) << 16) | (k >> 4)));
        }
        if slots >= 2
            && let Some(&r) = ranks_desc.iter().find(|&&r| need(r, 2) <= w)
        {
            let k = kickers(1 << r, slots - 2, w - need(r, 2));
            consider(self.value(Category::Pair, (made(&[r]) << 16) | (k >> 4)));
        }
        consider(self.value(Category::HighCard, kickers(0, slots, w)));
        best
    }

    /// The best hand of `naturals` plus `wilds`, with the five cards it uses.
    ///
    /// Each wild is shown as the card it stands for; `wild_for` says which wild that was.
    pub fn best_hand(&self, naturals: CardSet, wilds: &[Card]) -> BestHand {
        let value = self.eval_wild(naturals, wilds.len() as u32);
        let ranks = self.expand(value);
        let suited = matches!(value.category(), Category::Flush | Category::StraightFlush);
        let suits: Vec<Suit> = if suited { Suit::ALL.to_vec() } else { vec![Suit(3)] };
        for suit in suits.into_iter().rev() {
            if let Some(hand) = assign(&ranks, suited.then_some(suit), naturals, wilds) {
                return BestHand { value, cards: hand.0, wild_for: hand.1 };
            }
        }
        unreachable!("a hand's value can always be rebuilt from its own cards")
    }

    /// The ranks a value's hand is made of, most significant first.
    fn expand(&self, value: HandValue) -> Vec<Rank> {
        let tb = value.tie_breaks();
        let rep = |r: Rank, n: usize| std::iter::repeat_n(r, n);
        match value.category() {
            Category::Straight | Category::StraightFlush => {
                let (s, _) = *self.straights.iter().find(|&&(_, name)| name == tb[0]).expect("a known straight");
                let mut ranks: Vec<Rank> = bits_desc(s).map(Rank).collect();
                if ranks[0] != tb[0] {
                    // The wheel: the ace plays low, last.
                    ranks.rotate_left(1);
                }
                ranks
            }
            Category::FiveOfAKind => rep(tb[0], 5).collect(),
            Category::FourOfAKind => rep(tb[0], 4).chain(tb[1..].iter().copied()).collect(),
            Category::FullHouse => rep(tb[0], 3).chain(rep(tb[1], 2)).collect(),
            Category::ThreeOfAKind => rep(tb[0], 3).chain(tb[1..].iter().copied()).collect(),
            Category::TwoPair => rep(tb[0], 2).chain(rep(tb[1], 2)).chain(tb[2..].iter().copied()).collect(),
            Category::Pair => rep(tb[0], 2).chain(tb[1..].iter().copied()).collect(),
            Category::HighCard | Category::Flush => tb,
        }
    }
}

/// Which categories an exact wild evaluation considers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kinds {
    /// Every category.
    All,
    /// Those that need no suit: all but flush and straight flush.
    Unsuited,
    /// Flush and straight flush.
    Suited,
}

impl Kinds {
    fn allows(self, category: Category) -> bool {
        let suited = matches!(category, Category::Flush | Category::StraightFlush);
        match self {
            Kinds::All => true,
            Kinds::Unsuited => !suited,
            Kinds::Suited => suited,
        }
    }
}

impl ExactValues for Evaluator {
    fn exact(&self, cards: CardSet) -> HandValue {
        self.eval_bits(cards)
    }

    fn exact_unsuited(&self, naturals: CardSet, wilds: u32) -> HandValue {
        self.eval_wild_generic(naturals, wilds, Kinds::Unsuited)
    }

    fn exact_suited(&self, naturals: CardSet, wilds: u32) -> HandValue {
        self.eval_wild_generic(naturals, wilds, Kinds::Suited)
    }
}

/// Matches wanted ranks to natural cards first, then to wilds; `None` if wilds run out.
fn assign(
    ranks: &[Rank],
    suit: Option<Suit>,
    naturals: CardSet,
    wilds: &[Card],
) -> Option<(Vec<Card>, Vec<Option<Card>>)> {
    let mut free = naturals;
    let mut wild_iter = wilds.iter();
    let mut cards = Vec::with_capacity(5);
    let mut wild_for = Vec::with_capacity(5);
    for &rank in ranks {
        let candidates = match suit {
            Some(s) => free.intersect(CardSet::single(Card::new(rank, s))),
            None => free.of_rank(rank),
        };
        if let Some(card) = candidates.iter().last() {
            free.remove(card);
            cards.push(card);
            wild_for.push(None);
        } else {
            let wild = *wild_iter.next()?;
            let used: CardSet = cards.iter().copied().collect();
            let stand_in = match suit {
                Some(s) => Card::new(rank, s),
                None => Suit::ALL
                    .iter()
                    .rev()
                    .map(|&s| Card::new(rank, s))
                    .find(|c| !naturals.contains(*c) && !used.contains(*c))
                    .unwrap_or(Card::new(rank, Suit(3))),
            };
            cards.push(stand_in);
            wild_for.push(Some(wild));
        }
    }
    Some((cards, wild_for))
}

/// The highest set bit of a nonzero mask, as a one-bit mask.
#[inline(always)]
fn top_bit(m: u16) -> u16 {
    1 << (15 - m.leading_zeros())
}

/// Bit positions of a mask, highest first.
fn bits_desc(mut m: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let top = 15 - m.leading_zeros() as u8;
            m &= !(1 << top);
            top
        })
    })
}

/// Packs the made ranks (one-bit masks) and the top `n` kickers of `kick` into slots.
#[inline(always)]
fn pack(made: &[u16], mut kick: u16, n: u32) -> u32 {
    let mut slots = 0u32;
    let mut used = 0;
    for &m in made {
        slots = (slots << 4) | (16 - m.leading_zeros());
        used += 1;
    }
    for _ in 0..n {
        if kick == 0 {
            break;
        }
        let top = 15 - kick.leading_zeros();
        kick &= !(1 << top);
        slots = (slots << 4) | (top + 1);
        used += 1;
    }
    slots << (4 * (5 - used))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Deck, DeckPreset};

    fn set(text: &str) -> CardSet {
        CardSet::parse_list(text).unwrap().into_iter().collect()
    }

    fn std_eval() -> Evaluator {
        Evaluator::new(&DeckPreset::Standard52.deck())
    }

    #[test]
    fn categories_at_their_boundaries() {
        let e = std_eval();
        let cases = [
            ("Ah Kd 9c 7s 4h 3d 2c", Category::HighCard),
            ("Ah Ad 9c 7s 4h 3d 2c", Category::Pair),
            ("Ah Ad 9c 9s 4h 4d 2c", Category::TwoPair),
            ("Ah Ad Ac 9s 4h 3d 2c", Category::ThreeOfAKind),
            ("Ah 2d 3c 4s 5h Kd Kc", Category::Straight),
            ("Th Jd Qc Ks Ah 2d 2c", Category::Straight),
            ("Ah 9h 7h 4h 2h Kd Kc", Category::Flush),
            ("Ah Ad Ac 9s 9h 3d 2c", Category::FullHouse),
            ("Ah Ad Ac 9s 9h 9d 2c", Category::FullHouse),
            ("Ah Ad Ac As 9h 9d 9c", Category::FourOfAKind),
            ("Ah 2h 3h 4h 5h Kd Kc", Category::StraightFlush),
            ("Ah Kh Qh Jh Th 9h 8h", Category::StraightFlush),
        ];
        for (text, cat) in cases {
            assert_eq!(e.eval(set(text)).category(), cat, "{text}");
        }
        // No wrap-around: Q-K-A-2-3 is not a straight.
        assert_eq!(e.eval(set("Qh Kd Ac 2s 3h")).category(), Category::HighCard);
    }

    #[test]
    fn order_within_and_across_categories() {
        let e = std_eval();
        let v = |t: &str| e.eval(set(t));
        assert!(v("6h 2d 3c 4s 5h") > v("Ah 2d 3c 4s 5h"), "six-high beats the wheel");
        assert!(v("Ah Ad Kc Qs 9h") > v("Ah Ad Kc Qs 8h"), "last kicker counts");
        assert!(v("Ah Ad 3c 3s 2h") > v("Kh Kd Qc Qs Ah"), "top pair first");
        assert!(v("2h 2d 2c 3s 3h") > v("Ah Kh 9h 7h 2h"), "full house beats flush");
        assert!(v("2h 2d 2c 2s 3h") > v("Ah Ad Ac Kh Kd"));
        assert_eq!(v("Ah Ad Kc Qs 9h 3c 2d"), v("As Ac Kd Qh 9c 4c 2d"), "only five cards count");
    }

    #[test]
    fn short_decks_rank_flush_over_full_house_and_use_their_wheel() {
        let deck = DeckPreset::Short36.deck();
        let e = Evaluator::new(&deck);
        assert_eq!(e.eval(set("Ah 6d 7c 8s 9h")).category(), Category::Straight);
        assert!(e.eval(set("Ah Kh 9h 7h 6h")) > e.eval(set("Ah Ad Ac Ks Kh")));
        let plain = Evaluator::with_order(&deck, false);
        assert!(plain.eval(set("Ah Kh 9h 7h 6h")) < plain.eval(set("Ah Ad Ac Ks Kh")));
    }

    #[test]
    fn partial_hands_rank_by_what_they_hold() {
        let e = std_eval();
        assert_eq!(e.eval(set("Ah Ad")).category(), Category::Pair);
        assert!(e.eval(set("Kh Qd")) > e.eval(set("Kh Jd")));
        assert!(e.eval(set("Kh 2d")) > e.eval(set("Kh")));
        assert_eq!(e.eval(set("9h 9d 9c 9s")).category(), Category::FourOfAKind);
    }

    #[test]
    fn wilds_make_the_best_substitution() {
        let e = std_eval();
        let w = |t: &str, n| e.eval_wild(set(t), n).category();
        assert_eq!(w("Ah Ad Ac As", 1), Category::FiveOfAKind);
        assert_eq!(w("Ah Kh Qh Jh 3c", 1), Category::StraightFlush);
        assert_eq!(w("Ah Ad Kc Ks 3c", 1), Category::FullHouse);
        assert_eq!(w("Ah 9d 6c 4s", 1), Category::Pair);
        assert_eq!(w("Ah Kh 9h 4h 2c", 1), Category::Flush);
        assert_eq!(w("", 5), Category::FiveOfAKind);
        assert_eq!(w("7c", 2), Category::ThreeOfAKind);
        // Duplicates allowed: the wild is a second ace of hearts in the flush.
        let v = e.eval_wild(set("Ah Kh 9h 4h 2c"), 1);
        assert_eq!(v.tie_breaks(), vec![Rank::ACE, Rank::ACE, Rank::KING, Rank(7), Rank(2)]);
    }

    #[test]
    fn table_wild_path_agrees_with_the_generic_one() {
        use rand::SeedableRng;
        use rand::seq::SliceRandom;
        for deck in [DeckPreset::Standard52.deck(), DeckPreset::Short36.deck(), DeckPreset::Piquet32.deck()] {
            let e = Evaluator::new(&deck);
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
            let mut cards: Vec<Card> = deck.cards.iter().collect();
            for i in 0..200_000u32 {
                let wilds = 1 + i % 5;
                let size = 5 + (i / 5) % 3;
                cards.shuffle(&mut rng);
                let naturals: CardSet = cards[..(size - wilds.min(size)) as usize].iter().copied().collect();
                assert_eq!(
                    e.eval_wild_full(naturals, wilds),
                    e.eval_wild_generic(naturals, wilds, Kinds::All),
                    "{naturals} + {wilds} wild ({})",
                    deck.name
                );
            }
        }
    }

    /// Every hand of up to seven cards of this deck, as a closure call per hand.
    fn for_each_hand(deck: &Deck, most: usize, mut f: impl FnMut(CardSet)) {
        fn go(cards: &[Card], start: usize, hand: CardSet, left: usize, f: &mut dyn FnMut(CardSet)) {
            f(hand);
            if left == 0 {
                return;
            }
            for i in start..cards.len() {
                go(cards, i + 1, hand.union(CardSet::single(cards[i])), left - 1, f);
            }
        }
        let cards: Vec<Card> = deck.cards.iter().collect();
        go(&cards, 0, CardSet::EMPTY, most, &mut f);
    }

    /// The 36-card, 32-card and a custom 28-card deck (2-4-6-8-T a straight), each with
    /// either flush/full-house order, and an evaluator of each.
    fn short_decks() -> Vec<(Deck, bool, Evaluator)> {
        let r = |s: &str| s.chars().map(|c| Rank::from_char(c).unwrap()).collect::<Vec<_>>();
        let decks = [DeckPreset::Short36.deck(), DeckPreset::Piquet32.deck(), Deck::from_ranks(&r("2468TQA")).unwrap()];
        decks
            .into_iter()
            .flat_map(|deck| [false, true].map(|order| (deck.clone(), order, Evaluator::with_order(&deck, order))))
            .collect()
    }

    #[test]
    fn table_path_equals_the_bitwise_path_on_every_short_deck_hand() {
        for (deck, order, e) in short_decks() {
            let mut hands = 0u64;
            for_each_hand(&deck, 7, |hand| {
                let (table, bits) = (e.eval(hand), e.eval_bits(hand));
                assert_eq!(table, bits, "{hand} ({}, flush over full house: {order})", deck.name);
                hands += 1;
            });
            let n = deck.len() as u64;
            let choose = |k: u64| (0..k).fold(1u64, |c, i| c * (n - i) / (i + 1));
            assert_eq!(hands, (0..=7).map(choose).sum::<u64>(), "every hand of up to seven cards");
        }
    }

    /// The exact wild value without the tables.
    fn exact_wild(e: &Evaluator, naturals: CardSet, wilds: u32) -> HandValue {
        if naturals.len() + wilds >= 5 {
            e.eval_wild_full(naturals, wilds)
        } else {
            e.eval_wild_generic(naturals, wilds, Kinds::All)
        }
    }

    #[test]
    fn wild_tables_equal_the_exact_wild_path_on_every_short_deck_hand() {
        for (deck, order, e) in short_decks() {
            for_each_hand(&deck, 6, |naturals| {
                for w in 1..=7 - naturals.len() {
                    let (table, exact) = (e.eval_wild(naturals, w), exact_wild(&e, naturals, w));
                    assert_eq!(table, exact, "{naturals} + {w} wild ({}, flush over full house: {order})", deck.name);
                }
            });
        }
    }

    #[test]
    fn naturals_outside_the_deck_keep_the_bitwise_wild_path() {
        let e = Evaluator::new(&DeckPreset::Short36.deck());
        let naturals = set("2h 2d 2c 7s");
        assert_eq!(e.eval_wild(naturals, 1), e.eval_wild_full(naturals, 1));
        assert_eq!(e.eval_wild(naturals, 1).category(), Category::FourOfAKind);
    }

    /// `count` random sets of the full deck from a fixed seed, the i-th of `size(i)` cards.
    fn random_sets(seed: u64, count: usize, size: impl Fn(usize) -> usize) -> impl Iterator<Item = (usize, CardSet)> {
        use rand::SeedableRng;
        use rand::seq::SliceRandom;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut cards: Vec<Card> = CardSet::FULL.iter().collect();
        (0..count).map(move |i| {
            cards.partial_shuffle(&mut rng, size(i));
            (i, cards[..size(i)].iter().copied().collect())
        })
    }

    #[test]
    fn wild_tables_equal_the_exact_wild_path_on_random_full_deck_hands() {
        let e = std_eval();
        for (i, naturals) in random_sets(12, 1_000_000, |i| i / 6 % 8) {
            let wilds = 1 + (i % 6) as u32;
            assert_eq!(e.eval_wild(naturals, wilds), exact_wild(&e, naturals, wilds), "{naturals} + {wilds} wild");
        }
    }

    #[test]
    fn table_path_and_ready_keys_equal_the_bitwise_path_on_random_full_deck_hands() {
        let e = std_eval();
        for (_, hand) in random_sets(11, 2_000_000, |i| i % 10) {
            let bits = e.eval_bits(hand);
            assert_eq!(e.eval(hand), bits, "{hand}");
            if let Some(key) = HandKey::of(hand) {
                assert_eq!(e.eval_key(&key), bits, "{hand} as a ready key");
            }
        }
    }

    #[test]
    fn table_bytes_are_those_the_readme_gives() {
        // README, Performance: 786,432 bytes of tables, 425,984 with wilds, 40,960 bitwise.
        assert_eq!(std_eval().table_bytes(), (786_432, 425_984, 40_960));
    }

    #[test]
    fn coarse_values_are_the_values_category_and_top_slot() {
        let e = std_eval();
        for (_, hand) in random_sets(13, 500_000, |i| i % 10) {
            assert_eq!(e.eval_coarse(hand), (e.eval(hand).0 >> 16) as u8, "{hand}");
        }
        for (_, deck, e) in short_decks().into_iter().map(|(d, o, e)| (o, d, e)) {
            for_each_hand(&deck, 5, |hand| assert_eq!(e.eval_coarse(hand), (e.eval(hand).0 >> 16) as u8, "{hand}"));
        }
        // Every hand of up to four cards, exactly (they keep the tables: a bitwise short cut
        // cost more instructions and was no faster).
        let deck = DeckPreset::Standard52.deck();
        for_each_hand(&deck, 4, |hand| {
            assert_eq!(e.eval_coarse(hand), (e.eval_bits(hand).0 >> 16) as u8, "{hand}");
            assert_eq!(e.eval_coarse(hand), (e.eval(hand).0 >> 16) as u8, "{hand}");
        });
    }

    #[test]
    fn ready_keys_refuse_an_eighth_or_repeated_card() {
        let seven = set("Ah Kd 9c 7s 4h 3d 2c");
        assert!(HandKey::of(seven).is_some());
        assert!(HandKey::of(seven.union(set("5s"))).is_none());
        let mut key = HandKey::of(seven).unwrap();
        assert!(std::panic::catch_unwind(move || key.add("5s".parse().unwrap())).is_err());
        let mut key = HandKey::of(set("Ah")).unwrap();
        assert!(std::panic::catch_unwind(move || key.add("Ah".parse().unwrap())).is_err());
    }

    #[test]
    fn best_hand_names_five_cards_and_the_wilds() {
        let e = std_eval();
        let best = e.best_hand(set("Ah Kh Qh Jh 3c 4d"), &["2s".parse().unwrap()]);
        assert_eq!(best.value.category(), Category::StraightFlush);
        assert_eq!(crate::cards::cards_to_string(best.cards.iter().copied()), "Ah Kh Qh Jh Th");
        assert_eq!(best.wild_for[4], Some("2s".parse().unwrap()));
        let best = e.best_hand(set("Ah 2d 3c 4s 5h Kd Kc"), &[]);
        assert_eq!(crate::cards::cards_to_string(best.cards.iter().copied()), "5h 4s 3c 2d Ah");
    }
}
