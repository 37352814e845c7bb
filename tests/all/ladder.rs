//! `draftsim ladder`: the search bot against itself a budget lower, the skill depth, the
//! shared flags, bad input, and the report's chart.

use crate::common;

use common::{csv_rows, draftsim, scratch, stderr, stdout};

#[test]
fn the_ladder_writes_each_step_and_the_skill_depth() {
    let dir = scratch("ladder", "steps");
    let out = dir.join("ladder");
    let args = ["ladder", "--game", "sevens", "--players", "2", "--budgets", "1,8,64", "--rounds", "400"];
    let o = draftsim(&[&args[..], &["--quiet", "--out", out.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let header = std::fs::read_to_string(out.join("ladder.csv")).unwrap();
    let header: Vec<&str> = header.lines().next().unwrap().split(',').collect();
    assert_eq!(header[..6], ["budget", "opponent_budget", "rounds", "win_share", "win_share_lo", "win_share_hi"]);
    // The score's columns follow the win share's, named by the game's unit.
    let score = header[6];
    assert_eq!(header[7], format!("{score}_lo"));
    let ladder = csv_rows(&out.join("ladder.csv"));
    assert_eq!(ladder.len(), 2, "two steps");
    assert_eq!((ladder[0]["budget"].as_str(), ladder[0]["opponent_budget"].as_str()), ("8", "1"));
    assert_eq!((ladder[1]["budget"].as_str(), ladder[1]["opponent_budget"].as_str()), ("64", "8"));
    let lo: Vec<f64> = ladder.iter().map(|r| r["win_share_lo"].parse().unwrap()).collect();
    let score_lo: Vec<f64> = ladder.iter().map(|r| r[&format!("{score}_lo")].parse().unwrap()).collect();
    let depth = &csv_rows(&out.join("skill_depth.csv"))[0];
    // Judged by the score: the leading steps whose score difference is above zero.
    let expected = score_lo.iter().take_while(|&&l| l > 0.0).count();
    assert_eq!(depth["skill_depth"], expected.to_string(), "skill depth counts the leading steps that win");
    let by_wins = lo.iter().take_while(|&&l| l > 0.5).count();
    assert_eq!(depth["skill_depth_by_wins"], by_wins.to_string());
    assert_eq!(depth["judged_by"], format!("{score} lower bound above 0"));
    // The terminal's verdict names both judgements against the steps there are.
    let said = stdout(&o);
    assert!(said.contains(&format!("skill depth {expected} of 2")), "{said}");
    assert!(said.contains(&format!("; judged by units won alone, {by_wins} of 2")), "{said}");
    // Eight iterations against one: a planted skill gap the ladder must find.
    assert!(lo[0] > 0.5, "8 v 1 iterations should win: {ladder:?}");
    // Same tables on one thread as on two.
    let again = dir.join("again");
    let o = draftsim(&[&args[..], &["--quiet", "--threads", "1", "--out", again.to_str().unwrap()]].concat());
    assert!(o.status.success());
    assert_eq!(std::fs::read(out.join("ladder.csv")).unwrap(), std::fs::read(again.join("ladder.csv")).unwrap());
    // The report draws it.
    let report = dir.join("report");
    let o = draftsim(&["report", out.to_str().unwrap(), "--out", report.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("1-ladder.svg") && md.contains(&format!("Skill depth: **{expected}**")), "{md}");
    // The chart draws what the depth is judged by, the score, against zero.
    let svg = std::fs::read_to_string(report.join("1-ladder.svg")).unwrap();
    // Named by its game: a report may hold several games' ladders.
    assert!(svg.contains("Sevens: score of the search bot") && svg.contains("of the larger budget"), "{svg}");
    // Zero is a reference, not a series: no legend names it.
    assert!(!svg.contains(">\neven\n<") && md.contains("the dashed line is an even score"), "{svg}");
    assert!(
        md.contains("| budget | against | chips_diff_per_round | 95% interval | win share | 95% interval |"),
        "{md}"
    );
    // A limit on the skill depth is judged on the ladder alone, met or not, in its section
    // and the summary.
    let limited = dir.join("limited");
    let (met, missed) = (format!("skill_depth>={expected}"), format!("skill_depth>={}", expected + 1));
    let (out, limited_out) = (out.to_str().unwrap(), limited.to_str().unwrap());
    let o = draftsim(&["report", out, "--require", &met, "--require", &missed, "--quiet", "--out", limited_out]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(limited.join("report.md")).unwrap();
    assert_eq!(md.matches(&format!("Limit met: skill_depth >= {expected}.")).count(), 2, "{md}");
    let fails = format!("**Limit fails**: skill_depth should be >= {}, and is {expected}.", expected + 1);
    assert_eq!(md.matches(&fails).count(), 2, "{md}");
}

#[test]
fn bad_budgets_are_refused_in_one_line_before_anything_is_written() {
    let dir = scratch("ladder", "bad");
    let out = dir.join("never");
    for (budgets, key) in [("4,4", "--budgets"), ("16,4", "--budgets"), ("0,4", "--budgets"), ("8", "--budgets")] {
        let o = draftsim(&["ladder", "--game", "sevens", "--budgets", budgets, "--out", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{budgets}");
        let err = stderr(&o);
        assert!(err.contains(key) && err.trim().lines().count() == 1, "{budgets}: {err}");
        assert!(!out.exists(), "{budgets}: nothing written");
    }
}

/// A first step that leans up on too few deal groups to show it is said as undecided, with
/// the fix, not as a finding that skill hardly matters; one that leans down still is.
#[test]
fn a_first_step_not_shown_is_undecided_not_skill_that_hardly_matters() {
    let dir = scratch("ladder", "undecided");
    let source = std::path::Path::new("reports/search-bot/data/sevens-ladder-lowest-wins");
    let header = "budget,opponent_budget,rounds,win_share,win_share_lo,win_share_hi,chips_diff_per_round,chips_diff_per_round_lo,chips_diff_per_round_hi,deal_groups\n";
    // Leaning down is as undecided while the interval reaches a gain, on 8 groups or on
    // 500; only an interval at or below 0 is a finding.
    for (name, first) in [
        ("up", "4,1,48,0.646,0.504,0.766,2.73,-0.05,5.51,8\n"),
        ("few", "4,1,48,0.45,0.30,0.60,-0.40,-2.1,1.3,8\n"),
        ("level", "4,1,3000,0.49,0.47,0.51,-0.04,-0.12,0.04,500\n"),
        ("down", "4,1,3000,0.47,0.45,0.49,-0.07,-0.12,-0.02,500\n"),
    ] {
        let folder = dir.join(name);
        std::fs::create_dir_all(&folder).unwrap();
        for file in ["study.json", "provenance.json"] {
            std::fs::copy(source.join(file), folder.join(file)).unwrap();
        }
        std::fs::write(folder.join("ladder.csv"), format!("{header}{first}16,4,48,0.52,0.40,0.64,0.2,-1.5,1.9,8\n"))
            .unwrap();
        let report = dir.join(format!("report-{name}"));
        let o = draftsim(&["report", folder.to_str().unwrap(), "--out", report.to_str().unwrap(), "--quiet"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let md = std::fs::read_to_string(report.join("report.md")).unwrap();
        if name == "up" {
            assert!(md.contains("Skill depth 0 of 2 steps, undecided: the first step's chips diff per hand 2.7300 [-0.0500, 5.5100] leans to the larger budget, but its interval on 8 deal groups reaches 0"), "{md}");
            assert!(md.contains("play more rounds (`--rounds`) to tell") && !md.contains("hardly matters"), "{md}");
        } else if name == "few" || name == "level" {
            let groups = if name == "few" { 8 } else { 500 };
            let why = format!(
                "leans to the smaller budget, but its interval on {groups} deal groups reaches a gain for the larger"
            );
            assert!(md.contains(&why) && !md.contains("hardly matters"), "{md}");
        } else {
            assert!(md.contains("hardly matters") && !md.contains("undecided:"), "{md}");
        }
    }
}
