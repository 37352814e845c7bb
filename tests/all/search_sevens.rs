//! The search bot in Sevens beats random play, the same on one thread and two (its leak
//! test is the conformance suite's).

use crate::common;

use common::{on_one_and_two_threads, row_value};

#[test]
fn the_search_bot_beats_random_and_is_reproducible() {
    let table = on_one_and_two_threads(&[
        "run",
        "--game",
        "sevens",
        "--seats",
        "search{iterations=300},random",
        "--rounds",
        "400",
    ]);
    // Heads-up, half the hands end with nobody at 7 or under: chips tell the winner.
    assert!(row_value(&table, "search", "chips_per_round_lo") > 0.0, "search against random: {table}");
}

/// With `searches = "bets"` the search bot searches its bets only: every trade is its
/// rollout preset's (`tight`, whose exact trades and threshold bets draw no random
/// number), while its bets are its own; with `searches = "others"` the other way round.
/// The same search over every decision trades otherwise, so the check can fail. Each
/// searches every move to the end (the preset searches one step and keeps `tight`'s move
/// unless another is clearly better).
#[test]
fn a_search_of_bets_trades_as_its_rollout_preset_and_the_reverse() {
    use draftsim::games::contest::{GameDef, load_strategy};
    use draftsim::games::sevens::engine::State;
    use draftsim::games::sevens::{Def, Rules};
    use draftsim::search::leaks::decision_points;
    use draftsim::search::{Forward, SeatBot, decide};
    use draftsim::sim::{BotRng, NoEvents};
    use rand::SeedableRng;

    let rules = Def::compile(&Rules::default()).expect("the default rules");
    let players = Def::players(&rules);
    let bot = |name: &str| SeatBot::<State>::new(name, &load_strategy::<Def>(name).expect(name), players, Def::bot);
    let mut table: Vec<_> = ["tight", "bluffer", "greedy", "random"].into_iter().map(bot).collect();
    let points = decision_points(&rules, &mut table, 5, 300, 1);
    let mut tight = bot("tight");
    let mut obs = Default::default();
    let mut differ = |name: &str, bets: bool| {
        let mut search = bot(name);
        (points.iter().filter(|p| p.is_bet(&rules) == bets))
            .filter(|p| {
                let seat = p.to_act().expect("a decision");
                let mut decision = |b: &mut SeatBot<_>| {
                    decide(&rules, *p, b, seat, &mut BotRng::seed_from_u64(9), &mut obs, &mut NoEvents).expect("a move")
                };
                decision(&mut search) != decision(&mut tight)
            })
            .count()
    };
    let trades = points.iter().filter(|p| !p.is_bet(&rules)).count();
    assert!(trades >= 30, "only {trades} trades among the decision points");
    // (which decisions it searches, bets or trades looked at, whether any differ from tight's)
    for (searches, bets, differs, what) in [
        ("bets", false, false, "a trade the search of bets made itself"),
        ("bets", true, true, "the search of bets bet as tight at every bet"),
        ("all", false, true, "the search of every decision traded as tight at every trade"),
        ("others", true, false, "a bet the search of the rest made itself"),
        ("others", false, true, "the search of the rest traded as tight"),
    ] {
        let name = format!("search{{iterations=60;searches={searches};particles=0;depth=0;margin=0}}");
        assert_eq!(differ(&name, bets) > 0, differs, "{what}");
    }
}

/// A replay says which moves the search left to its rollout policy, and shows the search's
/// top moves only where it searched (never a stale tree's).
#[test]
fn a_replay_tells_the_moves_left_to_the_rollout() {
    let out = common::draftsim(&[
        "replay",
        "--game",
        "sevens",
        "--seats",
        "search{iterations=50;searches=bets},tight",
        "--round",
        "1",
    ]);
    let text = common::stdout(&out);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let left = text.lines().filter(|l| l.contains("left this move to its rollout policy")).count();
    let searched = text.lines().filter(|l| l.contains("searched 50 iterations")).count();
    assert!(left >= 1 && searched >= 1, "{text}");
}

/// With the widest margin the search plays its rollout policy's moves, and a replay says
/// where it kept one against its own most visited move.
#[test]
fn a_margin_of_one_plays_the_rollout_policy_and_says_so() {
    let replay = |seats: &str| {
        let out = common::draftsim(&["replay", "--game", "sevens", "--seats", seats, "--round", "2"]);
        assert!(out.status.success(), "{}", common::stderr(&out));
        common::stdout(&out)
    };
    // Seat 0's own lines (what it is dealt, does and wins), its name taken out.
    let seat0 = |text: &str, name: &str| -> Vec<String> {
        let label = format!("seat 0 ({name})");
        text.lines().filter(|l| l.contains(&label)).map(|l| l.replace(&label, "seat 0")).collect()
    };
    // A search of every move to the end, whose most visited move often is not tight's.
    let search = "search{iterations=50;margin=1;particles=0;depth=0;worlds=16;mismatch=0.05}";
    let kept = replay(&format!("{search},tight"));
    let tight = replay("tight{description=\"t\"},tight");
    assert!(seat0(&kept, search).len() >= 3, "{kept}");
    assert_eq!(seat0(&kept, search), seat0(&tight, "tight"), "{kept}\n{tight}");
    assert!(kept.contains("kept its rollout policy's move"), "{kept}");
}
