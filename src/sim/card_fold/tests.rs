use super::super::SHARE_UNIT;
use super::super::cards::{CrossSums, PICKS_PER_SEAT};
use super::*;
use crate::sim::CardGroup;

/// Folds `units` (each a log and its seats' shares) into deal groups of `per` units
/// with `folder`, drained every seventh group and at the end, and returns the tally's
/// cells and sums.
fn fold_all(
    mut folder: CardFolder,
    catalog: &CardCatalog,
    strategies: usize,
    strategy_at: &[usize],
    units: &[(CardLog, Vec<u32>)],
    per: usize,
) -> (Vec<CardCounts>, Vec<CardGroupSums>) {
    let n = catalog.ids();
    let mut cells = vec![CardCounts::default(); strategies * n];
    let mut sums = vec![CardGroupSums::default(); strategies * n];
    for (g, group) in units.chunks(per).enumerate() {
        for (log, share) in group {
            folder.fold(log, strategy_at, share);
        }
        folder.end_group();
        // Drained now and then, as a run drains each batch's folders.
        if g % 7 == 6 {
            folder.drain_into(&mut cells, &mut sums);
        }
    }
    folder.drain_into(&mut cells, &mut sums);
    (cells, sums)
}

#[test]
fn a_unit_folds_into_seen_taken_kept_and_passed() {
    let mut log = CardLog::default();
    log.set_on(true);
    // Seat 0 sees cards 1 and 2 at pick 1, takes 1; seat 1 sees 2 at pick 2, takes it.
    log.seen(0, 1, 1);
    log.seen(0, 2, 1);
    log.taken(0, 1, 1);
    log.seen(1, 2, 2);
    log.taken(1, 2, 2);
    log.kept(0, 1);
    log.kept(1, 2);
    log.kept(1, 2);
    let catalog = CardCatalog {
        names: ["a", "b", "c"].map(String::from).to_vec(),
        groups: vec![CardGroup { level: "all".into(), names: vec!["any".into()], of_card: vec![Some(0); 3] }],
    };
    let n = catalog.ids();
    let once = vec![(log.clone(), vec![SHARE_UNIT, 0])];
    let three = vec![(log.clone(), vec![SHARE_UNIT, 0]); 3];
    for lanes in [true, false] {
        let folder = || {
            if lanes { CardFolder::new(&catalog, 2, 2) } else { CardFolder::events_only(&catalog, 2, 2) }
        };
        assert_eq!(folder().lanes.is_some(), lanes);
        let (cells, sums) = fold_all(folder(), &catalog, 2, &[0, 1], &once, 1);
        let c1 = &cells[1];
        assert_eq!((c1.seen, c1.taken, c1.taken_pick, c1.in_hand, c1.in_hand_share), (1, 1, 1, 1, SHARE_UNIT as u64));
        let c2 = &cells[2];
        assert_eq!((c2.seen, c2.passed, c2.passed_share, c2.last_seen), (1, 1, SHARE_UNIT as u64, 1));
        let d2 = &cells[n + 2];
        assert_eq!((d2.seen, d2.taken, d2.taken_pick, d2.last_seen, d2.in_hand, d2.in_hand_share), (1, 1, 2, 2, 1, 0));
        // The pooled group counts each seat-unit once: seat 0 saw two cards and kept one.
        let g0 = &cells[3];
        assert_eq!((g0.seen, g0.seen_picks, g0.taken, g0.in_hand, g0.passed), (1, 2, 1, 1, 0));
        // One group: its sums are the counts, squared where they should be.
        assert_eq!((sums[3].take.groups, sums[3].take.a, sums[3].take.b, sums[3].take.b2), (1, 1, 2, 4));
        assert_eq!(sums[1].in_hand.ab, i128::from(SHARE_UNIT));
        // The scratch is reset: the same unit once in a group, then twice in the next,
        // and the group's sums see a group of single counts and one of doubled counts.
        let (cells, sums) = fold_all(folder(), &catalog, 2, &[0, 1], &three, 2);
        assert_eq!(cells[n + 2].in_hand, 3);
        assert_eq!(cells[2].passed, 3);
        assert_eq!(cells[3].seen, 3);
        let take = &sums[3].take;
        assert_eq!((take.groups, take.a, take.a2, take.b, take.b2, take.ab), (2, 3, 4 + 1, 6, 16 + 4, 8 + 2));
        assert_eq!(sums[2].cross, CrossSums::default(), "card c was never in hand");
    }
}

/// A small deterministic generator for the logs below.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A catalog of `cards` cards pooled by lane modulo 16 (lanes 13 to 15 in no group)
/// and by an irregular rule (every third card in none).
fn pooled_catalog(cards: usize) -> CardCatalog {
    let strided = (0..cards).map(|c| (c % 16 < 13).then_some((c % 16) as u16)).collect();
    let listed = (0..cards).map(|c| (c % 3 != 0).then_some(((c * 7) % 5) as u16)).collect();
    let group = |level: &str, groups: usize, of_card: Vec<Option<u16>>| CardGroup {
        level: level.into(),
        names: (0..groups).map(|g| g.to_string()).collect(),
        of_card,
    };
    CardCatalog {
        names: (0..cards).map(|c| format!("card {c}")).collect(),
        groups: vec![
            group("rank", 13, strided),
            group("odd", 5, listed),
            // Folded by the other strides: lane modulo 8, 4 and 2, every card in one
            // group, and each card its own group (modulo 32 or 64).
            group("eighth", 8, (0..cards).map(|c| Some((c % 8) as u16)).collect()),
            group("quarter", 4, (0..cards).map(|c| Some((c % 4) as u16)).collect()),
            group("parity", 2, (0..cards).map(|c| Some((c % 2) as u16)).collect()),
            group("all", 1, vec![Some(0); cards]),
            group("self", cards, (0..cards).map(|c| Some(c as u16)).collect()),
        ],
    }
}

/// Random units: packs chosen from and taken at mostly rising picks (some falling,
/// some 0), single sightings and takes, kept cards, ids past the catalog and seats
/// past the table, and the odd unit with a pick over 255.
fn random_units(rng: &mut Xorshift, units: usize, seats: usize) -> Vec<(CardLog, Vec<u32>)> {
    (0..units)
        .map(|u| {
            let mut log = CardLog::default();
            log.set_on(true);
            for pick in 1..=rng.below(9) as usize {
                for seat in 0..=seats {
                    let pick = match rng.below(12) {
                        0 => 0,
                        1 => pick / 2,
                        2 if u % 7 == 3 => 300,
                        _ => pick,
                    };
                    let pack = rng.next() & rng.next();
                    let card = match rng.below(10) {
                        0 => 70,
                        _ => rng.below(64) as u16,
                    };
                    match rng.below(6) {
                        0 => log.seen(seat, card, pick),
                        1 => log.taken(seat, card, pick),
                        _ => log.picked_from(seat, pack, card, pick),
                    }
                    if rng.below(3) == 0 {
                        log.kept(seat, if rng.below(8) == 0 { 70 } else { card });
                    }
                }
            }
            let share = (0..seats).map(|_| [0, 0, SHARE_UNIT, SHARE_UNIT / 2, 1680][rng.below(5) as usize]).collect();
            (log, share)
        })
        .collect()
}

#[test]
fn the_lanes_count_what_the_events_count() {
    let mut rng = Xorshift(0x9E37_79B9_7F4A_7C15);
    let strategy_at = [0, 2, 1, 0, 2];
    for cards in [64, 20, 3] {
        let catalog = pooled_catalog(cards);
        let folder = CardFolder::new(&catalog, 5, 3);
        let lanes = folder.lanes.as_ref().expect("the lanes take at most 64 cards");
        if cards == 64 {
            let strides = lanes.pooling_strides();
            assert_eq!(
                strides,
                [Some(16), None, Some(8), Some(4), Some(2), Some(1), Some(64)],
                "every way of folding is tried"
            );
        }
        // Deal groups of 40 units spill counts past a byte, which the close takes lane by
        // lane.
        for per in [1, 3, 5, 40] {
            let units = random_units(&mut rng, 60, strategy_at.len());
            let events = fold_all(CardFolder::events_only(&catalog, 5, 3), &catalog, 3, &strategy_at, &units, per);
            // Each compiled copy of the lanes this processor runs.
            for isa in Isa::available() {
                let folder = CardFolder::with_isa(&catalog, 5, 3, isa);
                let lanes = fold_all(folder, &catalog, 3, &strategy_at, &units, per);
                assert!(lanes.0.iter().any(|c| c.passed_share > 0 && c.last_seen_sq > 0), "the units count");
                assert_eq!(lanes, events, "{cards} cards, deal groups of {per}, {isa:?}");
            }
        }
    }
}

/// Folds `units` in deal groups of `per` with the events and with each compiled copy of
/// the lanes, and checks that they agree.
fn assert_lanes_match_events(catalog: &CardCatalog, strategy_at: &[usize], units: &[(CardLog, Vec<u32>)], per: usize) {
    let seats = strategy_at.len();
    let events = fold_all(CardFolder::events_only(catalog, seats, 1), catalog, 1, strategy_at, units, per);
    for isa in Isa::available() {
        let lanes = fold_all(CardFolder::with_isa(catalog, seats, 1, isa), catalog, 1, strategy_at, units, per);
        assert_eq!(lanes, events, "deal groups of {per}, {isa:?}");
    }
}

#[test]
fn large_deal_groups_move_their_sums_early_or_go_lane_by_lane() {
    let catalog = pooled_catalog(64);
    // A unit in which seat 0 takes card 5 at pick `pick`, 150 times.
    let unit = |pick: usize| {
        let mut log = CardLog::default();
        log.set_on(true);
        for _ in 0..150 {
            log.taken(0, 5, pick);
        }
        log.picked_from(1, 0b110, 1, 3);
        (log, vec![SHARE_UNIT, 0])
    };
    // Deal groups of two units: picks taken sum to 60,000 per group, whose square
    // leaves the 32-bit sums room for one group, so each next group moves them to the
    // totals first; at pick 250 they sum past 2^16, and the group goes lane by lane.
    let units: Vec<_> = [200, 200, 200, 200, 200, 200, 250, 250, 200, 200].into_iter().map(unit).collect();
    assert_lanes_match_events(&catalog, &[0, 0], &units, 2);
    let folder = || CardFolder::new(&catalog, 2, 1);
    let (cells, sums) = fold_all(folder(), &catalog, 1, &[0, 0], &units, 2);
    assert_eq!((cells[5].taken, cells[5].taken_pick), (1500, 150 * (8 * 200 + 2 * 250)));
    assert_eq!(sums[5].ata.a2, 4 * 60_000u128.pow(2) + 75_000u128.pow(2));
}

#[test]
fn sightings_past_a_byte_in_a_deal_group_spill() {
    let catalog = pooled_catalog(64);
    // Seat 0 chooses 30 times from packs holding card 3, seat 1 once: in deal groups of
    // ten units, card 3's sightings reach 300 and must spill out of their byte.
    let mut log = CardLog::default();
    log.set_on(true);
    for pick in 1..=30 {
        log.picked_from(0, 0b1000 | 1 << (pick + 8), (pick + 8) as u16, pick);
    }
    log.picked_from(1, 0b1001, 0, 1);
    let units = vec![(log, vec![SHARE_UNIT, 0]); 20];
    assert_lanes_match_events(&catalog, &[0, 0], &units, 10);
    let (cells, _) = fold_all(CardFolder::new(&catalog, 2, 1), &catalog, 1, &[0, 0], &units, 10);
    assert_eq!(cells[3].seen_picks, 20 * 31);
}

#[test]
fn picks_past_a_seat_s_row_are_logged_as_events() {
    let catalog = pooled_catalog(64);
    let mut log = CardLog::default();
    log.set_on(true);
    for pick in 1..=40 {
        log.picked_from(0, 0b1110 << (pick % 7), (pick % 50) as u16, pick);
        log.picked_from(1, 0b11, 1, pick);
    }
    assert_eq!((log.seat_picks(0).len(), log.events.len(), log.len()), (PICKS_PER_SEAT, 16, 80));
    // Rows past their counts are stale, not logged: a cleared log that logs the same
    // picks equals a new one.
    let mut reused = log.clone();
    reused.clear();
    let mut fresh = CardLog::default();
    fresh.set_on(true);
    for log in [&mut reused, &mut fresh] {
        log.picked_from(2, 0b101, 0, 1);
    }
    assert_eq!(reused, fresh);
    assert_ne!(reused, log);
    let units = vec![(log, vec![0, SHARE_UNIT, 0]), (fresh, vec![SHARE_UNIT, 0, 0])];
    assert_lanes_match_events(&catalog, &[0, 0, 0], &units, 2);
}

#[test]
fn a_unit_with_a_pick_over_255_goes_to_the_events_and_its_group_with_it() {
    let catalog = pooled_catalog(64);
    let mut folder = CardFolder::new(&catalog, 2, 1);
    let mut log = CardLog::default();
    log.set_on(true);
    log.picked_from(0, 0b1011, 1, 2);
    folder.fold(&log, &[0, 0], &[SHARE_UNIT, 0]);
    assert!(!folder.events_in_group);
    log.clear();
    log.picked_from(1, 0b11, 1, 256);
    folder.fold(&log, &[0, 0], &[SHARE_UNIT, 0]);
    assert!(folder.events_in_group);
    let n = catalog.ids();
    let (mut cells, mut sums) = (vec![CardCounts::default(); n], vec![CardGroupSums::default(); n]);
    folder.end_group();
    folder.drain_into(&mut cells, &mut sums);
    // Card 1: seen and taken by a seat in each unit, one deal group of both.
    assert_eq!((cells[1].seen, cells[1].taken, sums[1].take.groups, sums[1].take.a2), (2, 2, 1, 4));
    assert_eq!((cells[0].seen, cells[0].last_seen, cells[0].last_seen_sq), (2, 256 + 2, 256 * 256 + 4));
}
