//! Seven Poker cards: seven colours of `per` cards each, as bits of a `u64` (card id =
//! colour * per + number - 1), and hand categories.

/// Number of colours.
pub const COLOURS: usize = 7;

/// Colour names, for replays.
pub const COLOUR_NAMES: [&str; COLOURS] = ["red", "orange", "yellow", "green", "blue", "indigo", "violet"];

/// Category names, weakest first (the `categories` table's bins).
pub const CATEGORY_NAMES: [&str; 7] = ["2-same", "3-same", "4-same", "5-same", "6-same", "7-same", "seven-colours"];

/// Strength of "all seven colours", above seven of one colour.
pub const SEVEN_COLOURS: u8 = 8;

/// A deck's layout: cards per colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Cards per colour.
    pub per: usize,
}

impl Layout {
    /// Every card of the deck.
    pub fn all(self) -> u64 {
        if self.per * COLOURS == 64 { u64::MAX } else { (1u64 << (self.per * COLOURS)) - 1 }
    }

    /// The cards of colour `c`.
    pub fn colour_mask(self, c: usize) -> u64 {
        ((1u64 << self.per) - 1) << (c * self.per)
    }

    /// The colour of card `id`.
    pub fn colour(self, id: u8) -> usize {
        id as usize / self.per
    }

    /// How many cards of each colour a set holds.
    pub fn counts(self, cards: u64) -> [u8; COLOURS] {
        // One mask shifted colour by colour (the bots count colours on every decision).
        let mut out = [0u8; COLOURS];
        let mut mask = (1u64 << self.per) - 1;
        for n in &mut out {
            *n = (cards & mask).count_ones() as u8;
            mask <<= self.per;
        }
        out
    }

    /// A hand's strength: 8 for all seven colours, else its longest colour's count.
    pub fn strength(self, hand: u64) -> u8 {
        let counts = self.counts(hand);
        if counts.iter().all(|&n| n == 1) { SEVEN_COLOURS } else { counts.iter().copied().max().unwrap_or(0) }
    }

    /// A hand's strength in words, as a showdown compares it: `all seven colours`, its
    /// longest colour's count and which colour (`4 of one colour: red`), or the colours tied
    /// for longest (`2 each of red and blue`).
    pub fn strength_text(self, hand: u64) -> String {
        let strength = self.strength(hand);
        let counts = self.counts(hand);
        let longest: Vec<&str> = (0..COLOURS).filter(|&c| counts[c] == strength).map(|c| COLOUR_NAMES[c]).collect();
        match longest.as_slice() {
            _ if strength == SEVEN_COLOURS => "all seven colours".to_string(),
            _ if strength <= 1 => "no two of one colour".to_string(),
            [one] => format!("{strength} of one colour: {one}"),
            [first @ .., last] => format!("{strength} each of {} and {last}", first.join(", ")),
            [] => "no cards".to_string(),
        }
    }

    /// A card as text, e.g. `red-3`.
    pub fn card_name(self, id: u8) -> String {
        format!("{}-{}", COLOUR_NAMES[self.colour(id)], id as usize % self.per + 1)
    }

    /// A set as text.
    pub fn set_name(self, cards: u64) -> String {
        let names: Vec<String> = ids(cards).map(|id| self.card_name(id)).collect();
        if names.is_empty() { "-".to_string() } else { names.join(" ") }
    }
}

/// The bin of a strength in [`CATEGORY_NAMES`] (none below a pair of one colour).
pub fn category_bin(strength: u8) -> Option<usize> {
    match strength {
        SEVEN_COLOURS => Some(6),
        2..=7 => Some(strength as usize - 2),
        _ => None,
    }
}

/// The `i`-th lowest card of a set (`i` below its size).
pub fn nth(mut cards: u64, i: u32) -> u8 {
    for _ in 0..i {
        cards &= cards - 1;
    }
    cards.trailing_zeros() as u8
}

/// The cards of `cards` taken colour by colour in `colours` order (lowest first within a
/// colour), at most `limit`: no allocation, for the bots' per-round choices.
pub fn take_by_colour(layout: Layout, cards: u64, colours: &[usize], limit: usize) -> u64 {
    let mut out = 0u64;
    for &c in colours {
        let mut left = cards & layout.colour_mask(c);
        while left != 0 && (out.count_ones() as usize) < limit {
            out |= left & left.wrapping_neg();
            left &= left - 1;
        }
    }
    out
}

/// The card ids of a set, lowest first.
pub fn ids(mut cards: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (cards != 0).then(|| {
            let id = cards.trailing_zeros() as u8;
            cards &= cards - 1;
            id
        })
    })
}

/// Exact numbers of 7-card hands from a full deck of `per` cards per colour in each
/// category bin (counted over colour compositions: a composition (k_0..k_6) has
/// prod C(per, k_c) hands).
pub fn dealt_categories(per: usize) -> [u64; 7] {
    fn choose(n: usize, k: usize) -> u64 {
        if k > n {
            return 0;
        }
        (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i as u64 + 1))
    }
    let mut out = [0u64; 7];
    let mut counts = [0usize; COLOURS];
    fn walk(
        c: usize,
        left: usize,
        per: usize,
        counts: &mut [usize; COLOURS],
        out: &mut [u64; 7],
        choose: fn(usize, usize) -> u64,
    ) {
        if c == COLOURS {
            if left == 0 {
                let ways: u64 = counts.iter().map(|&k| choose(per, k)).product();
                let strength = if counts.iter().all(|&k| k == 1) {
                    SEVEN_COLOURS
                } else {
                    *counts.iter().max().expect("colours") as u8
                };
                if let Some(bin) = category_bin(strength) {
                    out[bin] += ways;
                }
            }
            return;
        }
        for k in 0..=left.min(per) {
            counts[c] = k;
            walk(c + 1, left - k, per, counts, out, choose);
        }
        counts[c] = 0;
    }
    walk(0, 7, per, &mut counts, &mut out, choose);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hands_strength_reads_in_words_as_a_showdown_ranks_it() {
        let layout = Layout { per: 7 };
        // Card `n` of colour `c` (both from 0) as a bit.
        let card = |c: usize, n: usize| 1u64 << (c * 7 + n);
        let hand = |cards: &[(usize, usize)]| cards.iter().fold(0, |h, &(c, n)| h | card(c, n));
        assert_eq!(layout.strength_text(hand(&[(0, 0), (0, 1), (0, 2), (0, 3), (4, 0)])), "4 of one colour: red");
        assert_eq!(layout.strength_text(hand(&[(0, 0), (0, 1), (4, 0), (4, 1), (2, 0)])), "2 each of red and blue");
        let tied = hand(&[(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]);
        assert_eq!(layout.strength_text(tied), "2 each of red, orange and yellow");
        // Six colours once each (a hand short of victory cards taken): no two alike.
        let six = (0..6).fold(0, |h, c| h | card(c, 0));
        assert_eq!(layout.strength_text(six), "no two of one colour");
        assert_eq!(layout.strength_text(six | card(6, 3)), "all seven colours");
    }
}
