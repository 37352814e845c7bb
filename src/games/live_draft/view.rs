//! What a Live-Draft seat may see, and the bot trait. A view holds the seat's own hand and
//! public information only: every battlefield and graveyard, the face-up row, the discard
//! pile, life totals, hand sizes, mill counters and the library's size. Other hands and
//! the library's order are not in it: they live in the engine's private fields. What a
//! player took from the face-up row or the discard pile is public, and stays known while it
//! is in that player's hand ([`Board::known_hand`]).

use super::rules::{COLOUR_NAMES, COLOURS, MAX_LIBRARY, Rules};

pub use crate::sim::BotRng;

/// No card (an empty slot of the row).
pub const NO_CARD: u8 = u8::MAX;
/// Most creatures (and most lands) one player may have in play.
pub const MAX_PERMANENTS: usize = 64;

/// Bits of creature slots `0..n` (`n` up to [`MAX_PERMANENTS`], where a plain shift
/// would overflow).
#[inline]
pub fn slot_mask(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// Card ids as bits (ids below [`MAX_LIBRARY`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CardBits([u64; MAX_LIBRARY.div_ceil(64)]);

impl CardBits {
    /// Adds card `id`.
    #[inline]
    pub fn insert(&mut self, id: u8) {
        self.0[usize::from(id) / 64] |= 1 << (id % 64);
    }

    /// Takes card `id` out.
    #[inline]
    pub fn remove(&mut self, id: u8) {
        self.0[usize::from(id) / 64] &= !(1 << (id % 64));
    }

    /// Whether card `id` is in.
    #[inline]
    pub fn contains(&self, id: u8) -> bool {
        self.0[usize::from(id) / 64] >> (id % 64) & 1 == 1
    }

    /// The cards, by id.
    pub fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    (w * 64) as u8 + b as u8
                })
            })
        })
    }
}

/// A card: a land (cost 0) or a creature.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Card {
    /// Colour index (see [`COLOUR_NAMES`]).
    pub colour: u8,
    /// Mana cost; 0 for a land.
    pub cost: u8,
    /// Power.
    pub power: u8,
    /// Toughness.
    pub toughness: u8,
}

impl Card {
    /// Whether it is a land.
    #[inline]
    pub fn is_land(self) -> bool {
        self.cost == 0
    }

    /// Its name, e.g. `red land` or `green 3/2 (cost 2)`.
    pub fn name(self) -> String {
        let colour = COLOUR_NAMES[usize::from(self.colour)];
        if self.is_land() {
            format!("{colour} land")
        } else {
            format!("{colour} {}/{} (cost {})", self.power, self.toughness, self.cost)
        }
    }
}

/// What everyone sees of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Life.
    pub life: i32,
    /// Still in the game.
    pub alive: bool,
    /// Lands in play by colour.
    pub lands: [u8; COLOURS],
    pub(crate) land_ids: [u8; MAX_PERMANENTS],
    pub(crate) n_lands: usize,
    pub(crate) creatures: [u8; MAX_PERMANENTS],
    pub(crate) n_creatures: usize,
    /// Creatures (by slot bit) that came into play this turn and cannot attack yet.
    pub sick: u64,
    /// Creatures (by slot bit) tapped by attacking: they cannot block until their
    /// controller's next turn untaps them.
    pub tapped: u64,
    /// Cards in hand that every player saw it take: from the face-up row or the rummy
    /// discard pile (public information).
    pub known_hand: CardBits,
    pub(crate) graveyard: [u8; MAX_LIBRARY],
    pub(crate) n_graveyard: usize,
    /// Cards in hand.
    pub hand_size: usize,
    /// Mill counters.
    pub mill: u32,
}

impl Default for Board {
    fn default() -> Self {
        Board {
            life: 0,
            alive: true,
            lands: [0; COLOURS],
            land_ids: [0; MAX_PERMANENTS],
            n_lands: 0,
            creatures: [0; MAX_PERMANENTS],
            n_creatures: 0,
            sick: 0,
            tapped: 0,
            known_hand: CardBits::default(),
            graveyard: [0; MAX_LIBRARY],
            n_graveyard: 0,
            hand_size: 0,
            mill: 0,
        }
    }
}

impl Board {
    /// Creatures in play, by slot.
    pub fn creatures(&self) -> &[u8] {
        &self.creatures[..self.n_creatures]
    }

    /// Lands in play.
    pub fn land_ids(&self) -> &[u8] {
        &self.land_ids[..self.n_lands]
    }

    /// The graveyard, oldest first.
    pub fn graveyard(&self) -> &[u8] {
        &self.graveyard[..self.n_graveyard]
    }

    /// Lands in play.
    pub fn land_count(&self) -> usize {
        self.n_lands
    }

    /// Creatures that may block now (slot bits): those not tapped.
    pub fn untapped_creatures(&self) -> u64 {
        slot_mask(self.n_creatures) & !self.tapped
    }

    /// Creatures that may attack this turn (slot bits): neither sick nor tapped.
    pub fn ready(&self) -> u64 {
        self.untapped_creatures() & !self.sick
    }
}

/// Everything one seat may know at a decision.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    /// The rules in force.
    pub rules: &'a Rules,
    /// Every card's face, by id (the card list is public; the library's order is not).
    pub cards: &'a [Card],
    /// This seat.
    pub seat: usize,
    /// This seat's hand.
    pub hand: &'a [u8],
    /// Every player's board.
    pub boards: &'a [Board],
    /// The face-up row (tableau slots or pipeline order; [`NO_CARD`] for an empty slot).
    pub row: &'a [u8],
    /// The rummy discard pile, bottom first.
    pub discard: &'a [u8],
    /// Cards left in the library.
    pub library: usize,
    /// This seat's own turn number (1 on its first turn; 0 during the opening).
    pub turn: u32,
    /// This seat's untapped lands by colour (its mana left this turn).
    pub untapped: [u8; COLOURS],
}

impl View<'_> {
    /// The card with this id.
    #[inline]
    pub fn card(&self, id: u8) -> Card {
        self.cards[usize::from(id)]
    }

    /// The next player still in the game after this seat.
    pub fn next_player(&self) -> usize {
        let n = self.boards.len();
        (1..n).map(|k| (self.seat + k) % n).find(|&s| self.boards[s].alive).unwrap_or(self.seat)
    }

    /// Whether this seat could cast `id` now: enough untapped lands, one of its colour.
    pub fn castable(&self, id: u8) -> bool {
        let c = self.card(id);
        !c.is_land()
            && self.untapped[usize::from(c.colour)] > 0
            && self.untapped.iter().map(|&u| usize::from(u)).sum::<usize>() >= usize::from(c.cost)
    }
}

/// A pick from the row, and whether it was made mainly to deny the next player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick {
    /// Index into the row.
    pub index: usize,
    /// Taken mainly to deny the next player.
    pub hate: bool,
}

/// A Live-Draft bot: pick, mulligan and play decisions.
pub trait Bot: Send {
    /// The bot's name as tables show it.
    fn name(&self) -> &str;
    /// A card of the row to take (a slot holding a card).
    fn pick(&mut self, view: &View<'_>, rng: &mut BotRng) -> Pick;
    /// Rummy: take the discard pile's top (true), or draw two and discard one.
    fn take_discard(&mut self, view: &View<'_>, rng: &mut BotRng) -> bool;
    /// A card of the hand (its index) to discard.
    fn discard(&mut self, view: &View<'_>, rng: &mut BotRng) -> usize;
    /// Quick opening: two cards of the hand (indices) to remove from the game to draw one.
    fn mulligan(&mut self, view: &View<'_>, rng: &mut BotRng) -> Option<(usize, usize)>;
    /// A land of the hand (its index) to play, or none.
    fn land(&mut self, view: &View<'_>, rng: &mut BotRng) -> Option<usize>;
    /// A creature of the hand (its index) to cast, or none; asked until none.
    fn cast(&mut self, view: &View<'_>, rng: &mut BotRng) -> Option<usize>;
    /// The opponent to attack (a live player other than this seat).
    fn target(&mut self, view: &View<'_>, rng: &mut BotRng) -> usize;
    /// Attackers: bits of this seat's creature slots (not sick ones).
    fn attack(&mut self, view: &View<'_>, defender: usize, rng: &mut BotRng) -> u64;
    /// Blocks against `attacker`'s creatures in `attackers` (slot bits): for each attacker
    /// slot, this seat's blocking creature slot or [`NO_CARD`]; each blocker once.
    fn block(
        &mut self,
        view: &View<'_>,
        attacker: usize,
        attackers: u64,
        rng: &mut BotRng,
        blocks: &mut [u8; MAX_PERMANENTS],
    );
}
