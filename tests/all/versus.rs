//! `draftsim versus`: two rule sets on the same deals, a planted difference found, none
//! found between identical rules, shards merged into the whole, every game played.

use crate::common::*;

const FILE: &str = "versus";

/// The `versus` table's rows as (figure:strategy, verdict, difference, lo, hi, change).
fn verdicts(dir: &std::path::Path) -> Vec<(String, String, f64, f64, f64, i64)> {
    let mut reader = csv::Reader::from_path(dir.join("versus.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            let name = if r[at("strategy")].is_empty() {
                r[at("figure")].to_string()
            } else {
                format!("{}:{}", &r[at("figure")], &r[at("strategy")])
            };
            let float = |c: &str| r[at(c)].parse::<f64>().unwrap_or(f64::NAN);
            let change = r[at("change")].parse().unwrap();
            (
                name,
                r[at("verdict")].to_string(),
                float("difference"),
                float("difference_lo"),
                float("difference_hi"),
                change,
            )
        })
        .collect()
}

#[test]
fn a_rule_that_lengthens_units_is_found_and_identical_rules_change_nothing() {
    let dir = scratch(FILE, "planted");
    let bo3 = dir.join("bo3.toml");
    std::fs::write(&bo3, "games = 3\n").unwrap();
    let copy = dir.join("copy.toml");
    std::fs::write(&copy, "games = 3\n").unwrap();
    let game = ["--game", "winston-crazier-eights", "--rounds", "4000"];
    // Best of three: matches last longer.
    let out = dir.join("planted");
    let o = draftsim(
        &[&["versus", "defaults", bo3.to_str().unwrap()], &game[..], &["--out", out.to_str().unwrap()]].concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("B differs from A in: games = 1 -> 3."), "{text}");
    assert!(text.contains("B: length_mean rises from"), "{text}");
    let rows = verdicts(&out);
    let row = |name: &str| rows.iter().find(|r| r.0 == name).unwrap_or_else(|| panic!("no {name} row: {rows:?}"));
    let length = row("length_mean");
    assert_eq!(length.1, "changed");
    assert!(length.3 > 20.0, "a best of three is more than 20 decisions longer: {length:?}");
    // A match always has a winner under both: completion cannot move.
    assert_eq!(row("completion").1, "unchanged");
    assert!(rows.iter().any(|r| r.0 == "score:value") && rows.iter().any(|r| r.0 == "win_rate:random"));
    // One effect seen in several figures is one change: two strategies' scores and win
    // rates move as one; the length moves on its own; an unchanged figure is in none.
    let of = |name: &str| row(name).5;
    assert!(of("score:value") > 0, "{rows:?}");
    for name in ["win_rate:value", "score:random", "win_rate:random"] {
        assert_eq!(of(name), of("score:value"), "{rows:?}");
    }
    assert!(of("length_mean") > 0 && of("length_mean") != of("score:value"), "{rows:?}");
    assert_eq!(of("completion"), 0);
    let separate = rows.iter().map(|r| r.5).max().unwrap();
    assert!(
        text.contains(&format!("They come to {separate} separate changes: "))
            && text.contains("value's score, value's win_rate, random's score and random's win_rate"),
        "{text}"
    );
    // The same rules in two files: the same play, so every difference is exactly 0.
    let same = dir.join("same");
    let o = draftsim(
        &[&["versus", bo3.to_str().unwrap(), copy.to_str().unwrap()], &game[..], &["--out", same.to_str().unwrap()]]
            .concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("No figure changed"), "{}", stdout(&o));
    assert!(stderr(&o).contains("the same rules"), "{}", stderr(&o));
    let rows = verdicts(&same);
    assert!(rows.len() > 20);
    assert!(rows.iter().all(|r| r.1 == "unchanged" && r.2 == 0.0), "{rows:?}");
    // The report opens the section with the verdict and draws the chart.
    let report = dir.join("report");
    let o = draftsim(&["report", out.to_str().unwrap(), "--out", report.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("**Verdict:** B changes") && md.contains("- Mean decisions per unit rises from"), "{md}");
    assert!(md.contains(&format!("They come to {separate} separate changes: ")), "{md}");
    assert!(md.contains(&format!(" figures, {separate} separate; the largest change")), "{md}");
    // What B changed, as the command said it.
    assert!(md.contains("B differs from A in: `games = 1 -> 3`."), "{md}");
    assert!(report.join("1-versus.svg").exists());
}

/// study.json of a written folder.
fn study(dir: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("study.json")).unwrap()).unwrap()
}

#[test]
fn until_ci_stops_once_every_figure_is_decided_and_equals_a_plain_run() {
    let dir = scratch(FILE, "until");
    let bo3 = dir.join("bo3.toml");
    std::fs::write(&bo3, "games = 3\n").unwrap();
    let copy = dir.join("copy.toml");
    std::fs::write(&copy, "games = 3\n").unwrap();
    let game = ["--game", "winston-crazier-eights", "--until-ci"];
    // Identical rules: every difference is 0, decided at the first step (a sixteenth).
    let same = dir.join("same");
    let (b, c) = (bo3.to_str().unwrap(), copy.to_str().unwrap());
    let o = draftsim(&[&["versus", b, c], &game[..], &["--rounds", "64000", "--out", same.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let meta = study(&same);
    assert_eq!(meta["until_ci"], true);
    let deals = meta["deals"].as_u64().unwrap();
    assert!(stderr(&o).contains(&format!("every figure decided after {deals} deals")), "{}", stderr(&o));
    assert!(meta["rounds"].as_u64().unwrap() * 16 <= 64000 + 16 * 2, "{meta}");
    // A planted difference: what it played equals a plain run of as many rounds.
    let planted = dir.join("planted");
    let o = draftsim(
        &[&["versus", "defaults", b], &game[..], &["--rounds", "3000", "--out", planted.to_str().unwrap()]].concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let rounds = study(&planted)["rounds"].as_u64().unwrap().to_string();
    let plain = dir.join("plain");
    let o = draftsim(&[
        "versus",
        "defaults",
        b,
        "--game",
        "winston-crazier-eights",
        "--rounds",
        &rounds,
        "--out",
        plain.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(planted.join("versus.csv")).unwrap(),
        std::fs::read_to_string(plain.join("versus.csv")).unwrap()
    );
    // Sharded runs play a fixed number of rounds.
    let o = draftsim(&[&["versus", b, c], &game[..], &["--shard", "0/2"]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn a_field_far_from_optimal_is_warned_of() {
    let dir = scratch(FILE, "exploitability");
    let xp = dir.join("xp");
    let o = draftsim(&[
        "exploitability",
        "--game",
        "sevens",
        "--players",
        "2",
        "--seats",
        "tight,random",
        "--rounds",
        "1000",
        "--quiet",
        "--out",
        xp.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let cap = dir.join("cap.toml");
    std::fs::write(&cap, "raise_cap = 2\n").unwrap();
    let args = ["versus", "--game", "sevens", "defaults", cap.to_str().unwrap(), "--seats", "tight,random,greedy"];
    let v = dir.join("v");
    let xp_arg =
        ["--rounds", "2000", "--exploitability", xp.to_str().unwrap(), "--quiet", "--out", v.to_str().unwrap()];
    let o = draftsim(&[&args[..], &xp_arg[..]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    // Warnings go to stderr, --quiet or not.
    let text = stderr(&o);
    assert!(!stdout(&o).contains("optimal"), "{}", stdout(&o));
    // Random play gives away far more than 2% of a hand's stakes; measured under the
    // defaults, A's rules, at 2 players.
    let warning = text
        .lines()
        .find(|l| l.starts_with("draftsim: warning: random is at least"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        warning.contains("measured at 2 players and under A's rules, not B's")
            && warning.contains("could change this verdict"),
        "{warning}"
    );
    assert!(text.contains("draftsim: warning: greedy not measured in"), "{text}");
    // The report carries the same warnings, and both sides' rules.
    let report = dir.join("report");
    let o = draftsim(&["report", v.to_str().unwrap(), "--out", report.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("**Warning:** random is at least") && md.contains("greedy not measured in"), "{md}");
    assert!(md.contains("Rules in force under A") && md.contains("Rules in force under B"), "{md}");
    assert!(md.contains("raise_cap = 2"), "{md}");
    // Another game's folder, or none: one line, before anything plays.
    for (game, folder, says) in
        [("seven-poker", xp.to_str().unwrap(), "measured for sevens"), ("sevens", "nope", "not a folder")]
    {
        let o = draftsim(&["versus", "--game", game, "defaults", "defaults", "--exploitability", folder]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(says) && stderr(&o).lines().count() == 1, "{}", stderr(&o));
    }
}

#[test]
fn sharded_versus_merges_into_the_whole_and_bad_input_is_refused() {
    let dir = scratch(FILE, "shards");
    let b = dir.join("b.toml");
    std::fs::write(&b, "raise_cap = 1\n").unwrap();
    let args = |extra: &[&str]| -> Vec<String> {
        ["versus", "defaults", b.to_str().unwrap(), "--rounds", "3000", "--quiet"]
            .iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect()
    };
    let run = |a: Vec<String>| {
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        let o = draftsim(&refs);
        assert!(o.status.success(), "{a:?}: {}", stderr(&o));
        o
    };
    let whole = dir.join("whole");
    run(args(&["--out", whole.to_str().unwrap()]));
    let mut shards = Vec::new();
    for i in 0..3 {
        let s = dir.join(format!("s{i}"));
        run(args(&["--shard", &format!("{i}/3"), "--out", s.to_str().unwrap()]));
        shards.push(s.to_str().unwrap().to_string());
    }
    let merged = dir.join("merged");
    let mut merge = vec!["merge".to_string()];
    merge.extend(shards.iter().cloned());
    merge.extend(["--out".to_string(), merged.to_str().unwrap().to_string(), "--quiet".to_string()]);
    run(merge);
    assert_eq!(std::fs::read(merged.join("versus.csv")).unwrap(), std::fs::read(whole.join("versus.csv")).unwrap());
    // The same tables on one thread and two.
    let one = dir.join("one");
    run(args(&["--threads", "1", "--out", one.to_str().unwrap()]));
    assert_eq!(std::fs::read(one.join("versus.csv")).unwrap(), std::fs::read(whole.join("versus.csv")).unwrap());
    let three = dir.join("three.toml");
    std::fs::write(&three, "players = 3\n").unwrap();
    // At another table size a fair share of the wins is another: each strategy's win rate
    // is compared over its fair share, not as a rate that falls with the players alone.
    let sizes = dir.join("sizes");
    let o = draftsim(&[
        "versus",
        "defaults",
        three.to_str().unwrap(),
        "--game",
        "sevens",
        "--seats",
        "tight,random",
        "--rounds",
        "2000",
        "--quiet",
        "--out",
        sizes.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = std::fs::read_to_string(sizes.join("versus.csv")).unwrap();
    let fair: Vec<&str> = table.lines().filter(|l| l.starts_with("win_rate_over_fair,")).collect();
    assert_eq!(fair.len(), 2, "{table}");
    assert!(!table.lines().any(|l| l.starts_with("win_rate,")), "{table}");
    // random wins less than a fair share at either size: under 1 on both sides, and over
    // a quarter of one, which its raw win rate (about 0.1 and 0.15) is not.
    let random = fair.iter().find(|l| l.contains(",random,")).unwrap();
    let cells: Vec<&str> = random.split(',').collect();
    let (under_a, under_b): (f64, f64) = (cells[2].parse().unwrap(), cells[3].parse().unwrap());
    assert!(under_a > 0.25 && under_a < 1.0 && under_b > 0.25 && under_b < 1.0, "{random}");
    // Its smallest effect is one point of win rate at the larger table, in the scaled units.
    assert!((cells[9].parse::<f64>().unwrap() - 0.04).abs() < 1e-9, "{random}");
    // The raw win rate's smallest effect is refused here, naming the figure compared.
    let o = draftsim(&[
        "versus",
        "defaults",
        three.to_str().unwrap(),
        "--game",
        "sevens",
        "--seats",
        "tight,random",
        "--rounds",
        "2000",
        "--min-effect",
        "win_rate=0.02",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--min-effect win_rate=0.02: A seats 4 and B 3, so the win rate is compared as win_rate_over_fair; write win_rate_over_fair=0.02"), "{}", stderr(&o));
    for (bad, says) in [
        (vec!["versus", "defaults", "/no/such.toml"], "B /no/such.toml"),
        (vec!["versus", "defaults", b.to_str().unwrap(), "--min-effect", "nonesuch=1"], "not a figure versus reports"),
        (
            vec!["versus", "defaults", b.to_str().unwrap(), "--min-effect", "length_mean=-1"],
            "an effect is a size, 0 or more; write length_mean=1",
        ),
        // A strategy not seated would be ignored; a count the flag set is the flag's fault.
        (
            vec!["versus", "defaults", b.to_str().unwrap(), "--min-effect", "score:tigh=0.1"],
            "--min-effect score:tigh: FIGURE:STRATEGY is for score, win_rate or win_rate_over_fair and a seated strategy (",
        ),
        (vec!["versus", "defaults", b.to_str().unwrap(), "--players", "1"], "b.toml: players = 1"),
        // No deal: the fix names the fewest units that give an interval, not 1.
        (vec!["versus", "defaults", b.to_str().unwrap(), "--rounds", "0"], "--rounds 0: that is no deal a side ("),
        // --players over a file's own count is refused, not applied over it.
        (
            vec!["versus", "defaults", three.to_str().unwrap(), "--players", "5"],
            "three.toml sets players = 3; give the count",
        ),
        // A round of Seven Card Draft has no standing, so these two are never reported.
        (
            vec!["versus", "defaults", b.to_str().unwrap(), "--min-effect", "lead_changes=0.1"],
            "not a figure versus reports",
        ),
    ] {
        let o = draftsim(&bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says) && stderr(&o).lines().count() == 1, "{bad:?}: {}", stderr(&o));
    }
    let o = draftsim(&["versus", "defaults", b.to_str().unwrap(), "--min-effect", "drama=0.1"]);
    let listed = stderr(&o);
    assert!(
        listed.contains("use one of completion") && !listed.contains("drama,") && !listed.contains("lead_changes"),
        "{listed}"
    );
    // With game mode on both sides they are reported, and so can be given; on one side
    // only, a paired figure still has no rows.
    let game = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let (a, b) = (game("game-a.toml", "mode = \"game\"\n"), game("game-b.toml", "mode = \"game\"\nraise_cap = 1\n"));
    let o = draftsim(&["versus", &a, &b, "--min-effect", "nonesuch=0.1"]);
    assert!(stderr(&o).contains("lead_changes, drama"), "{}", stderr(&o));
    let o = draftsim(&["versus", "defaults", &b, "--min-effect", "nonesuch=0.1"]);
    assert!(!stderr(&o).contains("lead_changes"), "{}", stderr(&o));
    // A round against a game compares units of different lengths: said.
    let short = game("short.toml", "mode = \"game\"\nmax_rounds_per_game = 2\n");
    let o = draftsim(&["versus", "defaults", &short, "--rounds", "96", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("A's unit is a round and B's a game: every per-unit figure"), "{}", stderr(&o));
}

#[test]
fn versus_plays_every_game() {
    let dir = scratch(FILE, "games");
    for (game, b) in [
        ("seven-card-draft", "raise_cap = 1\n"),
        ("sevens", "raise_cap = 1\n"),
        ("seven-poker", "exchange_orbits = 1\n"),
        ("winston-crazier-eights", "games = 3\n"),
        ("live-draft", "opening = \"careful\"\n"),
    ] {
        let file = dir.join(format!("{game}.toml"));
        std::fs::write(&file, b).unwrap();
        let o = draftsim(&["versus", "--game", game, "defaults", file.to_str().unwrap(), "--rounds", "400", "--quiet"]);
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        assert!(stdout(&o).starts_with("B differs from A in:"), "{game}: {}", stdout(&o));
    }
}

/// The same rules on both sides, on few deals: no figure is left undecided, not even one
/// whose interval is wide (the seat advantage), since both sides play the same deals alike.
#[test]
fn the_same_rules_leave_nothing_undecided() {
    let o =
        draftsim(&["versus", "defaults", "defaults", "--game", "winston-crazier-eights", "--rounds", "200", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("No figure changed") && !stdout(&o).contains("Undecided"), "{}", stdout(&o));
}

#[test]
fn a_rule_that_does_nothing_is_warned_of_under_its_side() {
    // Deuces wild in a deck without 2s: B would read as a change that does not matter.
    let dir = scratch(FILE, "dead-rule");
    let b = dir.join("short.toml");
    std::fs::write(&b, "deck = \"short-36\"\nwild = [\"deuces\"]\n").unwrap();
    let o = draftsim(&["versus", "defaults", b.to_str().unwrap(), "--rounds", "240", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.lines().any(|l| l.starts_with("draftsim: warning: under B, wild") && l.contains("no 2")), "{err}");
    assert!(!err.contains("under A,"), "{err}");
}

#[test]
fn a_difference_alike_on_a_few_deals_decides_nothing() {
    let dir = scratch(FILE, "few-deals");
    let b = dir.join("cap.toml");
    std::fs::write(&b, "raise_cap = 1\n").unwrap();
    let b = b.to_str().unwrap();
    // The raise cap moves chips, not who holds the best hand: every win rate differs by 0 on
    // every deal. Twelve seatings a deal at four seats: 24 rounds are two deals.
    let few = dir.join("few");
    let o = draftsim(&["versus", "--game", "sevens", "defaults", b, "--rounds", "24", "--out", few.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = verdicts(&few);
    let win = rows.iter().find(|r| r.0 == "win_rate:tight").unwrap();
    assert_eq!((win.1.as_str(), win.3, win.4), ("undecided", 0.0, 0.0), "{rows:?}");
    // Nor does a score that moved alike on both deals change.
    assert!(!stdout(&o).contains("Unchanged") && !stdout(&o).contains("What B changes"), "{}", stdout(&o));
    // The verdict says its players' distance from optimal is not measured, and how to.
    let err = stderr(&o);
    assert!(err.contains("how far the seated players are from optimal is not measured"), "{err}");
    assert!(err.contains("`draftsim exploitability --game sevens --players 4 --seats 'tight,"), "{err}");
    assert!(
        stdout(&o).contains(
            "showed no difference on any deal group that measured them, and bluffer's score the same difference on every one, which decides only over 60 deal groups measuring it; 2 played: about 30.0 times the rounds would decide."
        ),
        "{}",
        stdout(&o)
    );
    let report = dir.join("report");
    let r = draftsim(&["report", few.to_str().unwrap(), "--out", report.to_str().unwrap(), "--quiet"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("How far the seated players are from optimal is not measured here"), "{md}");
    // Sixty deals alike decide it: unchanged.
    let enough = dir.join("enough");
    let o =
        draftsim(&["versus", "--game", "sevens", "defaults", b, "--rounds", "720", "--out", enough.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = verdicts(&enough);
    let win = rows.iter().find(|r| r.0 == "win_rate:tight").unwrap();
    assert_eq!((win.1.as_str(), win.3, win.4), ("unchanged", 0.0, 0.0), "{rows:?}");
    // A figure counted on a sample of deals (the first 16 here) is judged by the groups
    // that measured it: alike on those, it stays undecided.
    let density = rows.iter().find(|r| r.0 == "decision_density").unwrap();
    assert_eq!((density.1.as_str(), density.3, density.4), ("undecided", 0.0, 0.0), "{rows:?}");
    // The table says how many groups judged each figure.
    let table = std::fs::read_to_string(enough.join("versus.csv")).unwrap();
    let groups = |figure: &str| -> String {
        let header: Vec<&str> = table.lines().next().unwrap().split(',').collect();
        let at = header.iter().position(|h| *h == "groups").expect("a groups column");
        let line = table.lines().find(|l| l.starts_with(&format!("{figure},"))).unwrap();
        line.split(',').nth(at).unwrap().to_string()
    };
    assert_eq!((groups("decision_density"), groups("completion")), ("16".to_string(), "60".to_string()), "{table}");
    assert!(
        stdout(&o).contains("Of those, decision_density (measured in 16 deal groups) showed no difference on any deal group that measured it, which decides only over 60 deal groups measuring it; 60 played, a sample of which measure it: about 93.9 times the rounds would decide."),
        "{}",
        stdout(&o)
    );
    // The same file without --game: the game it reads as is named.
    let b_sevens = dir.join("trade.toml");
    std::fs::write(&b_sevens, "trade_timing = \"any-turn\"\n").unwrap();
    let o = draftsim(&["versus", "defaults", b_sevens.to_str().unwrap(), "--rounds", "24"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("the file reads as sevens's rules: add --game sevens"), "{}", stderr(&o));
}

/// `--all` tables every figure with its columns in line, however long a figure's name
/// (Seven Card Draft's `chips_per_round_without_hate`).
#[test]
fn all_figures_line_up() {
    let dir = scratch(FILE, "all");
    let rules = dir.join("ante.toml");
    std::fs::write(&rules, "ante = 2\n").unwrap();
    let o = draftsim(&["versus", "defaults", rules.to_str().unwrap(), "--rounds", "240", "--all", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let mut lines = text.lines().skip_while(|l| !l.starts_with("figure "));
    let header = lines.next().unwrap_or_else(|| panic!("{text}"));
    let rows: Vec<&str> = lines.take_while(|l| !l.is_empty()).collect();
    assert!(rows.iter().any(|r| r.starts_with("chips_per_round_without_hate ")), "{text}");
    // Each column starts where its heading does: after a space, with a value.
    for heading in ["A ", "B ", "B - A ", "95% interval", "verdict"] {
        let at = header.find(&format!(" {heading}")).unwrap() + 1;
        for row in &rows {
            let (before, here) = (row.as_bytes()[at - 1], row.as_bytes().get(at).copied().unwrap_or(b' '));
            assert!(before == b' ' && here != b' ', "{heading:?} out of line:\n{header}\n{row}");
        }
    }
}

/// The skill gap's row names the strategy it measures against random (A's best by score),
/// and a measure counted in chips is judged on the game's stakes, as the score is.
#[test]
fn the_skill_gap_names_its_strategy_and_chip_measures_are_judged_on_the_stakes() {
    let dir = scratch(FILE, "skill-gap");
    let b = dir.join("b.toml");
    std::fs::write(&b, "ante = 2\n").unwrap();
    let out = dir.join("out");
    let o = draftsim(&[
        "versus",
        "--game",
        "seven-card-draft",
        "defaults",
        b.to_str().unwrap(),
        "--rounds",
        "240",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut reader = csv::Reader::from_path(out.join("versus.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let row = |figure: &'static str| rows.iter().filter(move |r| &r[at("figure")] == figure);
    let best = row("score")
        .filter(|r| &r[at("strategy")] != "random")
        .max_by(|x, y| x[at("a")].parse::<f64>().unwrap().total_cmp(&y[at("a")].parse().unwrap()))
        .unwrap();
    let gap = row("skill_gap").next().unwrap();
    assert_eq!(&gap[at("strategy")], &best[at("strategy")]);
    let min = |r: &csv::StringRecord| r[at("min_effect")].parse::<f64>().unwrap();
    let chips = row("chips_per_round_with_hate").next().unwrap();
    assert!(min(chips) > 0.0 && (min(chips) - min(gap)).abs() < 1e-12, "{} against {}", min(chips), min(gap));
}

/// A figure that differed alike on each of a few deal groups is undecided, and its p-value
/// (of no meaning there) is 1, kept out of Holm's smallest: it would loosen every other's.
#[test]
fn a_difference_alike_on_a_few_deals_has_no_p_value_of_zero() {
    let dir = scratch("versus", "alike");
    let lp = dir.join("lp.toml");
    std::fs::write(&lp, "wild = [\"last-pick\"]\n").unwrap();
    let out = dir.join("v");
    let o = draftsim(&[
        "versus",
        "defaults",
        lp.to_str().unwrap(),
        "--rounds",
        "240",
        "--all",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = std::fs::read_to_string(out.join("versus.csv")).unwrap();
    let row = table.lines().find(|l| l.starts_with("wild_win_rate,")).unwrap_or_else(|| panic!("{table}"));
    let cells: Vec<&str> = row.split(',').collect();
    // figure, strategy, a, b, difference, lo, hi, p_value, p_holm, ..., verdict
    assert_eq!((cells[5], cells[6]), ("1", "1"), "{row}");
    assert_eq!((cells[7], cells[8]), ("1", "1"), "{row}");
    assert!(row.contains(",undecided,"), "{row}");
}
