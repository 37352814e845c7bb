//! The seatings a deal is played under, balanced for seat and neighbour.
//!
//! A strategy's result depends on who passes to it and who acts after it, so every deal is
//! played under a set of seatings in which each strategy holds each seat equally often and
//! each ordered pair of strategies sits in each ordered pair of seats (neighbours in either
//! passing direction among them) equally often. The set comes from a permutation group of
//! the seats that is 2-transitive with every ordered pair of seats hit equally often:
//!
//! | seats | group | seatings |
//! |---|---|---|
//! | 2 | S2 | 2 |
//! | 3 | AGL(1,3) = S3 | 6 |
//! | 4 | AGL(1,4) = A4 | 12 |
//! | 5 | AGL(1,5) | 20 |
//! | 6 | PSL(2,5) on the projective line | 60 |
//! | 7 | AGL(1,7) | 42 |
//! | 8 | AGL(1,8) | 56 |
//!
//! Each group element applied to the lineup sorted by strategy name gives a seating;
//! repeats (a lineup with one strategy twice) are dropped. A group hits each distinct
//! seating of its orbit equally often, so dropping repeats keeps both balances, and the set
//! depends on the multiset of strategies only: the order in which they are listed changes
//! nothing. A lineup with fewer distinct seatings than seats plays them again, so a deal is played
//! at least once a seat.
//!
//! A *field* is more or fewer strategies than seats, each with an equal share of the seats:
//! at `n = q k + r` seats, `k` strategies get `q` seats each and `r` of them one more. The
//! deal is played by one lineup for each set of `r` strategies that the group of the `k`
//! strategies reaches, so over a deal every strategy holds every seat, and every pair of
//! strategies meets, equally often.

use crate::error::InputError;

use super::{Lineup, MAX_SEATS};

/// The seatings of one deal: each seating's lineup entry at every seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seatings {
    players: usize,
    /// `players` entries a seating, seating after seating.
    entries: Vec<usize>,
}

impl Seatings {
    /// The balanced seatings of `lineup` at `players` seats (see the module's doc), or the
    /// lineup as listed, once, when `balanced` is false (`--no-rotate`).
    ///
    /// The lineup holds one entry per seat, or is a field: each strategy listed equally
    /// often, enough times to fill its largest share of the seats (see [`field`]).
    pub fn new(lineup: &Lineup, players: usize, balanced: bool) -> Result<Seatings, InputError> {
        let entries = lineup.entry_strategy.len();
        if !(1..=MAX_SEATS).contains(&players) {
            return Err(InputError::new(format!("players = {players}: give between 1 and {MAX_SEATS}")));
        }
        if !balanced {
            if entries != players {
                return Err(InputError::new(format!(
                    "--no-rotate: {entries} strategies given for {players} seats; give one per seat"
                )));
            }
            return Ok(Seatings { players, entries: (0..players).collect() });
        }
        // Strategies ranked by name: the design is built on ranks, so it depends on the
        // multiset of names and not on the order they were listed in.
        let k = lineup.strategies.len();
        if k == 0 {
            return Err(InputError::new("--seats: no strategy given; give one per seat, e.g. --seats greedy,random"));
        }
        if k > MAX_SEATS {
            return Err(InputError::new(format!("--seats: {k} strategies; give at most {MAX_SEATS} different ones")));
        }
        let mut by_name: Vec<usize> = (0..k).collect();
        by_name.sort_by(|&a, &b| lineup.strategies[a].cmp(&lineup.strategies[b]));
        // Each strategy's lineup entries, in entry order.
        let mut entries_of: Vec<Vec<usize>> = vec![Vec::new(); k];
        for (e, &x) in lineup.entry_strategy.iter().enumerate() {
            entries_of[x].push(e);
        }
        let lineups: Vec<Vec<usize>> = if entries == players {
            // One lineup: each strategy as often as it is listed.
            vec![by_name.iter().flat_map(|&x| std::iter::repeat_n(x, entries_of[x].len())).collect()]
        } else {
            let listed = entries_of[0].len();
            // Listed once (as given) or as often as the largest share needs (as
            // [`field`] lists it); a strategy listed twice in a field given is refused.
            let copies = players.div_ceil(k);
            if entries_of.iter().any(|e| e.len() != listed) || (listed != 1 && listed != copies) {
                return Err(InputError::new(format!(
                    "--seats: with other than {players} strategies the seats are a field, each strategy an equal share of the seats: list each strategy once"
                )));
            }
            let (q, r) = (players / k, players % k);
            // The first lineup gives the first r strategies in name order one seat more;
            // the others relabel it by the elements of a 2-transitive group of the k
            // strategies that move those r to a set not seen yet, so every strategy gets
            // the extra seat, and every pair of strategies meets, equally often. All share
            // one shape, and so one number of distinct seatings.
            let first: Vec<usize> = (0..k).flat_map(|i| std::iter::repeat_n(i, q + usize::from(i < r))).collect();
            let mut extras: Vec<Vec<usize>> = Vec::new();
            let mut out = Vec::new();
            for h in group(k) {
                let mut extra = h[..r].to_vec();
                extra.sort_unstable();
                if !extras.contains(&extra) {
                    out.push(first.iter().map(|&i| by_name[h[i]]).collect());
                    extras.push(extra);
                }
            }
            out
        };
        if let Some(x) =
            (0..k).find(|&x| lineups.iter().any(|l| l.iter().filter(|&&y| y == x).count() > entries_of[x].len()))
        {
            return Err(InputError::new(format!(
                "--seats: '{}' is listed too few times to fill its share of {players} seats",
                lineup.strategies[x]
            )));
        }
        let group = group(players);
        let mut out = Vec::new();
        let mut seen: Vec<Vec<usize>> = Vec::new();
        let mut used = vec![0usize; k];
        for base in &lineups {
            seen.clear();
            for g in &group {
                let arrangement: Vec<usize> = g.iter().map(|&p| base[p]).collect();
                if seen.contains(&arrangement) {
                    continue;
                }
                // The j-th seat a strategy holds gets its j-th entry.
                used.fill(0);
                for &x in &arrangement {
                    out.push(entries_of[x][used[x]]);
                    used[x] += 1;
                }
                seen.push(arrangement);
            }
        }
        // A lineup with fewer distinct seatings than seats (one strategy everywhere) plays
        // them again, each time with bots seeded apart, so a deal is still played at least
        // once a seat: a deal costs about as much as a unit, and this keeps its share of
        // the work what it was.
        let distinct = out.len() / players;
        if distinct < players {
            out = out.repeat(players.div_ceil(distinct));
        }
        Ok(Seatings { players, entries: out })
    }

    /// Seats at the table.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Seatings a deal is played under.
    pub fn len(&self) -> usize {
        self.entries.len() / self.players
    }

    /// Whether there are none (never, once built).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Seating `i`: the lineup entry at each seat.
    #[inline]
    pub fn get(&self, i: usize) -> &[usize] {
        &self.entries[i * self.players..][..self.players]
    }

    /// Every seating, in order.
    pub fn iter(&self) -> impl Iterator<Item = &[usize]> + '_ {
        self.entries.chunks_exact(self.players)
    }
}

/// The lineup entries of a field: `seats` (each strategy listed once) at `players` seats,
/// each strategy repeated as often as its largest share of the seats needs. One per seat
/// as given when there are as many as seats.
pub fn field(seats: &[String], players: usize) -> Vec<String> {
    // A count past any table's is refused by `Seatings::new`; the seats as listed spare a
    // list that long.
    if seats.len() == players || seats.is_empty() || players > MAX_SEATS {
        return seats.to_vec();
    }
    let copies = players.div_ceil(seats.len());
    seats.iter().flat_map(|s| std::iter::repeat_n(s.clone(), copies)).collect()
}

/// The strategies as listed for the lineup entries `entries` at `players` seats: the
/// entries themselves when there is one a seat, else the field, each strategy once.
pub fn listed(entries: &[String], players: usize) -> Vec<String> {
    if entries.len() == players { entries.to_vec() } else { Lineup::new(entries).strategies }
}

/// The permutation group of `n` seats the design uses, each element as the base position
/// each seat reads from, identity first, in a fixed order.
fn group(n: usize) -> Vec<Vec<usize>> {
    let affine = |mul: usize| -> Vec<Vec<usize>> {
        // x -> x + 1 and x -> mul * x (mod n), mul a primitive root.
        vec![(0..n).map(|x| (x + 1) % n).collect(), (0..n).map(|x| (mul * x) % n).collect()]
    };
    let generators: Vec<Vec<usize>> = match n {
        1 => Vec::new(),
        2 => vec![vec![1, 0]],
        3 => affine(2),
        // AGL(1,4), which is A4: a 3-cycle and a double transposition.
        4 => vec![vec![1, 2, 0, 3], vec![1, 0, 3, 2]],
        5 => affine(2),
        // PSL(2,5) on {0..4, infinity = 5}: x -> x + 1 and x -> -1/x.
        6 => vec![vec![1, 2, 3, 4, 0, 5], vec![5, 4, 2, 3, 1, 0]],
        7 => affine(3),
        // AGL(1,8) over GF(8) = GF(2)[a]/(a^3 + a + 1): x -> x + 1 and x -> a x.
        8 => vec![
            (0..8).map(|x| x ^ 1).collect(),
            (0..8).map(|x| if x & 4 != 0 { ((x << 1) ^ 0b1011) & 7 } else { x << 1 }).collect(),
        ],
        _ => unreachable!("at most {MAX_SEATS} seats"),
    };
    // Closure by breadth-first search from the identity: a fixed order.
    let mut elements: Vec<Vec<usize>> = vec![(0..n).collect()];
    let mut next = 0;
    while next < elements.len() {
        let g = elements[next].clone();
        next += 1;
        for h in &generators {
            let gh: Vec<usize> = (0..n).map(|s| g[h[s]]).collect();
            if !elements.contains(&gh) {
                elements.push(gh);
            }
        }
    }
    elements
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &str) -> Vec<String> {
        list.split(',').map(str::to_string).collect()
    }

    /// Each strategy's count at each seat, and each ordered pair's count at each ordered
    /// pair of seats, over the seatings.
    fn counts(lineup: &Lineup, s: &Seatings) -> (Vec<Vec<usize>>, Vec<Vec<Vec<usize>>>) {
        let k = lineup.strategies.len();
        let n = s.players();
        let mut seat = vec![vec![0; n]; k];
        let mut pair = vec![vec![vec![0; n * n]; k]; k];
        for seating in s.iter() {
            let x: Vec<usize> = seating.iter().map(|&e| lineup.entry_strategy[e]).collect();
            for a in 0..n {
                seat[x[a]][a] += 1;
                for b in 0..n {
                    if a != b {
                        pair[x[a]][x[b]][a * n + b] += 1;
                    }
                }
            }
        }
        (seat, pair)
    }

    #[test]
    fn groups_have_their_orders() {
        let orders: Vec<usize> = (1..=MAX_SEATS).map(|n| group(n).len()).collect();
        assert_eq!(orders, vec![1, 2, 6, 12, 20, 60, 42, 56]);
    }

    #[test]
    fn every_multiset_is_balanced_for_seat_and_every_pair_of_seats() {
        // Every multiset of up to n strategies at n seats, n = 2..=MAX_SEATS.
        for n in 2..=MAX_SEATS {
            for k in 1..=n {
                // Compositions of n into k positive counts, a few shapes each.
                let mut shapes = vec![vec![1; k]];
                shapes[0][0] += n - k;
                if k >= 2 {
                    let mut even = vec![n / k; k];
                    for c in even.iter_mut().take(n % k) {
                        *c += 1;
                    }
                    shapes.push(even);
                }
                for shape in shapes {
                    let seats: Vec<String> =
                        shape.iter().enumerate().flat_map(|(i, &c)| std::iter::repeat_n(format!("s{i}"), c)).collect();
                    let lineup = Lineup::new(&seats);
                    let s = Seatings::new(&lineup, n, true).unwrap();
                    let (seat, pair) = counts(&lineup, &s);
                    let m = s.len();
                    for (x, row) in seat.iter().enumerate() {
                        // Strategy x holds each seat in shape[x] / n of the seatings.
                        assert!(row.iter().all(|&c| c * n == shape[x] * m), "n {n} shape {shape:?} seat {row:?}");
                    }
                    for (x, rows) in pair.iter().enumerate() {
                        for (y, cells) in rows.iter().enumerate() {
                            let same = usize::from(x == y);
                            // Ordered entries (a, b), a != b: c_x (c_y - [x = y]) of n (n - 1).
                            let want = shape[x] * (shape[y] - same) * m;
                            for a in 0..n {
                                for b in (0..n).filter(|&b| b != a) {
                                    assert_eq!(cells[a * n + b] * n * (n - 1), want, "n {n} {shape:?} {x}->{y}");
                                }
                            }
                        }
                    }
                    // Every distinct seating equally often, and at least one seating a seat.
                    let mut all: Vec<Vec<usize>> =
                        s.iter().map(|e| e.iter().map(|&e| lineup.entry_strategy[e]).collect()).collect();
                    all.sort();
                    let total = all.len();
                    all.dedup();
                    assert_eq!(total % all.len(), 0);
                    assert_eq!(total, all.len() * n.div_ceil(all.len()).max(1), "n {n} {shape:?}");
                    assert!(m >= n);
                }
            }
        }
    }

    #[test]
    fn the_listing_order_changes_nothing() {
        let by_name = |list: &str, n: usize| -> Vec<Vec<String>> {
            let seats = field(&names(list), n);
            let lineup = Lineup::new(&seats);
            let s = Seatings::new(&lineup, n, true).unwrap();
            s.iter().map(|e| e.iter().map(|&e| seats[e].clone()).collect()).collect()
        };
        for n in 2..=7 {
            assert_eq!(by_name("greedy,hate,tight,random", n), by_name("random,tight,hate,greedy", n), "n {n}");
        }
        assert_eq!(by_name("a,b,a,b", 4), by_name("b,b,a,a", 4));
        assert_eq!(by_name("a,b,a,b", 4).len(), 6, "the distinct seatings of two pairs");
        assert_eq!(by_name("a,b,c,d", 4).len(), 12);
        assert_eq!(by_name("a,a,a,a", 4).len(), 4, "one seating, played once a seat");
    }

    #[test]
    fn a_field_gives_each_strategy_an_equal_share_at_every_size() {
        for k in 1..=5 {
            let seats: Vec<String> = (0..k).map(|i| format!("s{i}")).collect();
            for n in 2..=MAX_SEATS {
                let entries = field(&seats, n);
                let lineup = Lineup::new(&entries);
                let s = Seatings::new(&lineup, n, true).unwrap();
                let (seat, pair) = counts(&lineup, &s);
                let held: Vec<usize> = seat.iter().map(|r| r.iter().sum()).collect();
                assert!(held.iter().all(|&h| h == held[0]), "k {k} n {n}: {held:?}");
                assert_eq!(held[0] * k, s.len() * n);
                // And each at every seat equally often.
                assert!(seat.iter().flatten().all(|&c| c == seat[0][0]), "k {k} n {n}");
                // Every pair of different strategies meets equally often, and so does every
                // strategy with itself.
                let met = |x: usize, y: usize| -> usize { pair[x][y].iter().sum() };
                for x in 0..k {
                    assert_eq!(met(x, x), met(0, 0), "k {k} n {n}: {x} with itself");
                    for y in (0..k).filter(|&y| y != x) {
                        assert_eq!(met(x, y), met(0, 1), "k {k} n {n}: {x} meets {y}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_field_must_list_each_strategy_equally_often() {
        let lineup = Lineup::new(&names("a,a,b"));
        assert!(Seatings::new(&lineup, 2, true).is_err());
        assert!(Seatings::new(&lineup, 3, true).is_ok(), "as many as seats: a lineup");
        assert!(Seatings::new(&Lineup::new(&names("a,b")), 3, true).is_err(), "too few copies");
        // A field given with a strategy twice: `field` lists it four times for three seats.
        assert!(Seatings::new(&Lineup::new(&field(&names("a,a"), 3)), 3, true).is_err());
        assert!(Seatings::new(&Lineup::new(&field(&names("a,b"), 3)), 3, true).is_ok());
        assert_eq!(Seatings::new(&lineup, 3, false).unwrap().len(), 1);
    }
}
