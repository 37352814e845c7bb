//! Table evaluation of hands of at most seven cards.
//!
//! The key method is OMPEval's (zekyll, MIT), as rs_poker 5 also uses it. Each rank has a
//! multiplier chosen so that the sum over a hand's ranks (with repeats) differs for every
//! rank multiset of up to seven cards; a row-displacement perfect hash turns that sum
//! into a slot of a table holding the hand's value. Unlike theirs, the hash also holds a
//! key for every flush pattern (five to seven cards of one suit, which with seven cards
//! or fewer beats whatever else the hand makes), and a [`HandKey`] switches to it when a
//! suit reaches five cards: ranking a ready key is then one hashed look-up, no flush
//! test. A card set is ranked by summing its four suits' keys (a table), testing a flush
//! flag in that sum, and the same look-up. The key structure is shared by every deck; the
//! values are filled per [`Evaluator`](super::Evaluator) from its own exact bitwise path,
//! so short decks, custom rank lists and the flush/full-house order come out exactly as
//! that path ranks them.

use std::sync::{Arc, Mutex, OnceLock};

use crate::cards::{Card, CardSet, Suit};

use super::HandValue;
use super::keys::{
    self, FLUSH_KEY_BASE, MAX_TABLE_CARDS, MAX_TABLE_WILDS, RANK_KEYS, ROW_SHIFT, ROWS, SLOTS, WILD_ROW_SHIFT,
    WILD_ROWS, WILD_SLOTS,
};

/// Set in a suit's key when that suit alone holds five cards or more, so that the sum
/// over four suits flags a flush (with seven cards at most one suit can).
const FLUSH_FLAG: u32 = 1 << 31;

include!(concat!(env!("OUT_DIR"), "/row_offsets.rs"));

/// The deck-independent part: each suit pattern's key, and every key's slot with a hand
/// that has it.
pub(crate) struct KeyHash {
    /// Sum of the rank multipliers of each 13-bit suit pattern, with [`FLUSH_FLAG`].
    suit_keys: Box<[u32]>,
    /// Each rank multiset of at most seven cards, dealt so no suit holds five; each pattern
    /// of five to seven cards of one suit, as that suit alone.
    keyed_hands: Vec<(u32, CardSet)>,
    /// For 1 to 4 wilds, each multiset leaving room for them: slot, naturals, wilds.
    wild_keyed_hands: Vec<(u32, CardSet, u32)>,
}

impl KeyHash {
    /// The shared key hash, built on first use (a few milliseconds).
    pub(crate) fn get() -> &'static KeyHash {
        static HASH: OnceLock<KeyHash> = OnceLock::new();
        HASH.get_or_init(KeyHash::build)
    }

    fn build() -> KeyHash {
        let suit_keys = (0..1usize << 13)
            .map(|mask| {
                let counts = std::array::from_fn(|r| u8::from(mask & (1 << r) != 0));
                keys::rank_key(&counts) | if mask.count_ones() >= 5 { FLUSH_FLAG } else { 0 }
            })
            .collect();
        let multisets = keys::rank_multisets();
        let hands: Vec<CardSet> = multisets.iter().map(spread_hand).collect();
        let main_slot = |key| keys::slot(key, &ROW_OFFSETS, ROW_SHIFT, SLOTS) as u32;
        let keyed_hands = keys::main_keys(&multisets)
            .into_iter()
            .zip(hands.iter().copied().chain(keys::flush_patterns().map(|p| CardSet(p as u64))))
            .map(|(key, hand)| (main_slot(key), hand))
            .collect();
        let wild_keyed_hands = keys::wild_keys(&multisets)
            .into_iter()
            .map(|(key, i, w)| (keys::slot(key, &WILD_ROW_OFFSETS, WILD_ROW_SHIFT, WILD_SLOTS) as u32, hands[i], w))
            .collect();
        let hash = KeyHash { suit_keys, keyed_hands, wild_keyed_hands };
        let distinct = |slots: Vec<u32>, len: usize| {
            let mut taken = vec![false; len];
            slots.into_iter().all(|slot| !std::mem::replace(&mut taken[slot as usize], true))
        };
        assert!(distinct(hash.keyed_hands.iter().map(|k| k.0).collect(), SLOTS), "every key has its own slot");
        assert!(distinct(hash.wild_keyed_hands.iter().map(|k| k.0).collect(), WILD_SLOTS), "every wild key too");
        hash
    }
}

/// A hand with these rank counts that deals each rank's copies to consecutive suits round
/// the four, so no suit holds more than two of seven cards.
fn spread_hand(counts: &[u8; 13]) -> CardSet {
    let mut hand = CardSet::EMPTY;
    let mut next_suit = 0u8;
    for (rank, &n) in counts.iter().enumerate() {
        for _ in 0..n {
            hand.insert(Card::new(crate::cards::Rank(rank as u8), Suit(next_suit)));
            next_suit = (next_suit + 1) % 4;
        }
    }
    hand
}

/// Where each part of the main table starts in its one array.
const ROW_OFFSETS_AT: usize = 0;
const SUIT_KEYS_AT: usize = ROWS;
const FLUSH_AT: usize = SUIT_KEYS_AT + (1 << 13);
const SLOTS_AT: usize = FLUSH_AT + (1 << 13);
const TABLE_LEN: usize = SLOTS_AT + SLOTS;

/// Where each part of the wild table starts in its one array.
const WILD_ROW_OFFSETS_AT: usize = 0;
const WILD_FLUSH_AT: usize = WILD_ROWS;
const WILD_SLOTS_AT: usize = WILD_FLUSH_AT + (MAX_TABLE_WILDS as usize) * (1 << 13);
const WILD_LEN: usize = WILD_SLOTS_AT + WILD_SLOTS;

/// One deck's tables, each in one array so that a look-up needs one base address (apart,
/// or with two-byte value names in a short list to halve the slots, look-ups were slower
/// and cache misses no fewer).
struct Tables {
    /// The hash's row offsets and suit keys (copied), the best flush by suit pattern (0
    /// below five cards), and the value of each key by slot (0 in unused slots).
    main: Box<[u32; TABLE_LEN]>,
    /// Each slot's category and top tie-break slot (bits 16-23 of its value): a quarter of
    /// the bytes, for callers that need no more (the strength estimate's percentile), so
    /// their look-ups crowd the cache less.
    coarse: Box<[u8; SLOTS]>,
    /// Filled when a hand with wilds is first ranked: the wild hash's row offsets, for 1
    /// to 4 wilds the best flush or straight flush of each suit pattern, and the best
    /// hand of any other category of each (naturals, wilds) key by slot.
    wild: OnceLock<Box<[u32; WILD_LEN]>>,
}

/// The exact values the tables are filled from.
pub(crate) trait ExactValues {
    /// The best hand of these cards, none wild.
    fn exact(&self, cards: CardSet) -> HandValue;
    /// The best hand of naturals and wilds in categories that need no suit.
    fn exact_unsuited(&self, naturals: CardSet, wilds: u32) -> HandValue;
    /// The best flush or straight flush of naturals and wilds.
    fn exact_suited(&self, naturals: CardSet, wilds: u32) -> HandValue;
}

/// One deck's tables, shared by every evaluator of the same ranks and order.
#[derive(Clone)]
pub(crate) struct ValueTables(Arc<Tables>);

impl ValueTables {
    /// The tables of a deck with these ranks and flush/full-house order, filled from
    /// `exact` the first time this process asks for them.
    pub(crate) fn get(rank_mask: u16, flush_beats_full_house: bool, exact: &impl ExactValues) -> ValueTables {
        static CACHE: Mutex<Vec<((u16, bool), ValueTables)>> = Mutex::new(Vec::new());
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        let shape = (rank_mask, flush_beats_full_house);
        if let Some((_, tables)) = cache.iter().find(|(s, _)| *s == shape) {
            return tables.clone();
        }
        let main = build_main(exact);
        let coarse = coarse_of(&main);
        let tables = ValueTables(Arc::new(Tables { main, coarse, wild: OnceLock::new() }));
        cache.push((shape, tables.clone()));
        tables
    }

    /// Empty tables, shared, to stand in while an evaluator's own are found.
    pub(crate) fn placeholder() -> ValueTables {
        static EMPTY: OnceLock<ValueTables> = OnceLock::new();
        EMPTY
            .get_or_init(|| {
                let main: Box<[u32; TABLE_LEN]> = vec![0u32; TABLE_LEN].try_into().expect("TABLE_LEN entries");
                let coarse = coarse_of(&main);
                ValueTables(Arc::new(Tables { main, coarse, wild: OnceLock::new() }))
            })
            .clone()
    }

    /// The four suits' patterns of a card set, and the sum of their keys: the rank key,
    /// with the flush flag if a suit holds five cards (seven cards at most).
    #[inline(always)]
    pub(crate) fn suits_and_key(&self, cards: CardSet) -> ([u16; 4], u32) {
        let masks = [0, 1, 2, 3].map(|s| cards.suit_mask(Suit(s)));
        let key =
            masks.iter().fold(0u32, |sum, &m| sum.wrapping_add(self.0.main[SUIT_KEYS_AT + (m as usize & 0x1fff)]));
        (masks, key)
    }

    /// The best flush or straight flush of a suit pattern (0 below five cards).
    #[inline(always)]
    pub(crate) fn flush(&self, mask: u16) -> u32 {
        self.0.main[FLUSH_AT + (mask as usize & 0x1fff)]
    }

    /// The value of the hand with this key (a rank key or a flush key).
    #[inline(always)]
    pub(crate) fn by_key(&self, key: u32) -> u32 {
        let t = &self.0.main;
        let offset = t[ROW_OFFSETS_AT + ((key >> ROW_SHIFT) as usize & (ROWS - 1))];
        t[SLOTS_AT + (key.wrapping_add(offset) as usize & (SLOTS - 1))]
    }

    /// Bits 16-23 of the value of the hand with this key (a rank key or a flush key).
    #[inline(always)]
    pub(crate) fn coarse_by_key(&self, key: u32) -> u8 {
        let offset = self.0.main[ROW_OFFSETS_AT + ((key >> ROW_SHIFT) as usize & (ROWS - 1))];
        self.0.coarse[key.wrapping_add(offset) as usize & (SLOTS - 1)]
    }

    /// The wild tables, filled on first use.
    #[inline(always)]
    pub(crate) fn wild(&self, exact: &impl ExactValues) -> WildTables<'_> {
        WildTables(self.0.wild.get_or_init(|| build_wild(exact)))
    }

    /// The bytes of one deck's tables: without wilds, and the wild tables (filled on
    /// first use).
    pub(crate) fn bytes(&self) -> (usize, usize) {
        (4 * TABLE_LEN + SLOTS, 4 * WILD_LEN)
    }
}

/// A deck's wild tables.
pub(crate) struct WildTables<'a>(&'a [u32; WILD_LEN]);

impl WildTables<'_> {
    /// The best flush or straight flush of a suit pattern with 1 to 4 wilds.
    #[inline(always)]
    pub(crate) fn flush(&self, mask: u16, wilds: u32) -> u32 {
        self.0[WILD_FLUSH_AT + (((wilds as usize - 1) & 3) << 13) + (mask as usize & 0x1fff)]
    }

    /// The best hand of any other category for a wild key.
    #[inline(always)]
    pub(crate) fn by_key(&self, key: u32) -> u32 {
        let offset = self.0[WILD_ROW_OFFSETS_AT + ((key >> WILD_ROW_SHIFT) as usize & (WILD_ROWS - 1))];
        self.0[WILD_SLOTS_AT + (key.wrapping_add(offset) as usize & (WILD_SLOTS - 1))]
    }
}

fn build_main(exact: &impl ExactValues) -> Box<[u32; TABLE_LEN]> {
    let hash = KeyHash::get();
    let mut t: Box<[u32; TABLE_LEN]> = vec![0u32; TABLE_LEN].try_into().expect("TABLE_LEN entries");
    t[ROW_OFFSETS_AT..ROW_OFFSETS_AT + ROWS].copy_from_slice(&ROW_OFFSETS);
    t[SUIT_KEYS_AT..SUIT_KEYS_AT + (1 << 13)].copy_from_slice(&hash.suit_keys);
    for mask in 0..1usize << 13 {
        if mask.count_ones() >= 5 {
            t[FLUSH_AT + mask] = exact.exact(CardSet(mask as u64)).0;
        }
    }
    for &(slot, hand) in &hash.keyed_hands {
        t[SLOTS_AT + slot as usize] = exact.exact(hand).0;
    }
    t
}

/// Bits 16-23 (category and top tie-break slot) of each slot's value.
fn coarse_of(main: &[u32; TABLE_LEN]) -> Box<[u8; SLOTS]> {
    let coarse: Vec<u8> = main[SLOTS_AT..].iter().map(|&v| (v >> 16) as u8).collect();
    coarse.try_into().expect("SLOTS entries")
}

fn build_wild(exact: &impl ExactValues) -> Box<[u32; WILD_LEN]> {
    let hash = KeyHash::get();
    let mut t: Box<[u32; WILD_LEN]> = vec![0u32; WILD_LEN].try_into().expect("WILD_LEN entries");
    t[WILD_ROW_OFFSETS_AT..WILD_ROW_OFFSETS_AT + WILD_ROWS].copy_from_slice(&WILD_ROW_OFFSETS);
    for w in 1..=MAX_TABLE_WILDS {
        for mask in 0..1usize << 13 {
            if mask.count_ones() + w >= 5 && mask.count_ones() + w <= MAX_TABLE_CARDS {
                t[WILD_FLUSH_AT + ((w as usize - 1) << 13) + mask] = exact.exact_suited(CardSet(mask as u64), w).0;
            }
        }
    }
    for &(slot, naturals, w) in &hash.wild_keyed_hands {
        t[WILD_SLOTS_AT + slot as usize] = exact.exact_unsuited(naturals, w).0;
    }
    t
}

impl std::fmt::Debug for ValueTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ValueTables({} bytes, {} with wilds)", self.bytes().0, self.bytes().1)
    }
}

/// A hand of at most seven cards kept ready for ranking: cards are added one at a time
/// (a shared prefix can be copied), and ranking it is one hashed look-up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandKey {
    /// The key ranked: the rank key, or the flush key once a suit holds five cards.
    key: u32,
    /// Sum of the cards' rank multipliers.
    rank_key: u32,
    /// The cards.
    cards: CardSet,
}

impl HandKey {
    /// A hand with no cards.
    pub const EMPTY: HandKey = HandKey { key: 0, rank_key: 0, cards: CardSet::EMPTY };

    /// Adds a card. Panics on an eighth card or a card already held: the key only
    /// describes distinct hands of seven cards or fewer.
    #[inline]
    pub fn add(&mut self, card: Card) {
        assert!(
            self.cards.len() < MAX_TABLE_CARDS && !self.cards.contains(card),
            "a HandKey holds at most seven distinct cards"
        );
        self.rank_key = self.rank_key.wrapping_add(RANK_KEYS[card.rank().0 as usize]);
        self.cards.insert(card);
        let suit = self.cards.suit_mask(card.suit());
        if suit.count_ones() >= 5 {
            self.key = FLUSH_KEY_BASE + suit as u32;
        } else if self.key < FLUSH_KEY_BASE {
            // Off-suit cards leave a flush as it is: with seven cards it still beats all.
            self.key = self.rank_key;
        }
    }

    /// The key of a set of at most seven cards; `None` for more.
    pub fn of(cards: CardSet) -> Option<HandKey> {
        (cards.len() <= MAX_TABLE_CARDS).then(|| {
            let mut key = HandKey::EMPTY;
            cards.iter().for_each(|c| key.add(c));
            key
        })
    }

    /// The cards held.
    pub fn cards(&self) -> CardSet {
        self.cards
    }

    /// The key ranked.
    #[inline(always)]
    pub(crate) fn key(&self) -> u32 {
        self.key
    }
}

/// A suit key sum without its flush flag: the rank key (at most one suit has the flag).
#[inline(always)]
pub(crate) fn without_flush_flag(key: u32) -> u32 {
    key & !FLUSH_FLAG
}

/// Whether a suit key sum flags a flush.
#[inline(always)]
pub(crate) fn has_flush_flag(key: u32) -> bool {
    key & FLUSH_FLAG != 0
}
