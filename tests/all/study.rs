//! compare, sweep and report on real output files.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common;

/// Runs the binary and insists it succeeds.
fn draftsim(args: &[&str]) -> Output {
    let o = common::draftsim(args);
    assert!(o.status.success(), "{args:?}: {}", common::stderr(&o));
    o
}

fn scratch(name: &str) -> PathBuf {
    common::scratch("study", name)
}

fn frame(path: &Path) -> polars::prelude::DataFrame {
    draftsim::output::read_frame(path).unwrap()
}

fn floats(df: &polars::prelude::DataFrame, name: &str) -> Vec<f64> {
    let c = df.column(name).unwrap().cast(&polars::prelude::DataType::Float64).unwrap();
    let ca = c.f64().unwrap();
    (0..ca.len()).map(|i| ca.get(i).unwrap_or(f64::NAN)).collect()
}

fn texts(df: &polars::prelude::DataFrame, name: &str) -> Vec<String> {
    let c = df.column(name).unwrap().cast(&polars::prelude::DataType::String).unwrap();
    let ca = c.str().unwrap();
    (0..ca.len()).map(|i| ca.get(i).unwrap_or("").to_string()).collect()
}

#[test]
fn compare_ranks_known_unequal_bots_in_order() {
    let dir = scratch("compare");
    // A bot that folds at the first bet it faces is worse than random, which is worse than greedy.
    let folder = dir.join("folder.toml");
    std::fs::write(
        &folder,
        "description = \"folds to any bet\"\n[draft]\nmodule = \"random\"\n[bet]\nmodule = \"threshold\"\nfold_below = [1.0]\nraise_above = [1.0]\n",
    )
    .unwrap();
    let out = dir.join("cmp");
    let strategies = format!("greedy,random,{}", folder.display());
    let o = draftsim(&[
        "compare",
        "--strategies",
        &strategies,
        "--players",
        "3",
        "--rounds",
        "6000",
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("greedy dominates"), "{text}");
    let ratings = frame(&out.join("ratings.csv"));
    let r = floats(&ratings, "rating");
    assert!(r[0] > r[1] && r[1] > r[2], "ratings out of order: {r:?}");
    let (lo, hi) = (floats(&ratings, "rating_lo"), floats(&ratings, "rating_hi"));
    assert!(lo[0] > hi[1] && lo[1] > hi[2], "intervals overlap: {lo:?} {hi:?}");
    let matrix = frame(&out.join("matrix.csv"));
    assert_eq!(matrix.height(), 6);
    let (rows, cols, ws) = (texts(&matrix, "strategy"), texts(&matrix, "opponent"), floats(&matrix, "win_share"));
    let at = |a: &str, b: &str| (0..rows.len()).find(|&i| rows[i] == a && cols[i] == b).map(|i| ws[i]).unwrap();
    assert!(at("greedy", "random") > 0.5);
    assert!((at("greedy", "random") + at("random", "greedy") - 1.0).abs() < 1e-9);
}

/// In Kuhn poker each hand has one winner, so every win share between deterministic bots
/// is one half: the chips matrix tells them apart, and compare says to read it.
#[test]
fn compare_shows_the_score_matrix_where_win_shares_tie() {
    let o = draftsim(&[
        "compare",
        "--game",
        "kuhn-poker",
        "--strategies",
        "tight,calling-station",
        "--rounds",
        "2000",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", common::stderr(&o));
    let text = common::stdout(&o);
    let row = text.lines().find(|l| l.starts_with("tight ") && l.contains('+')).unwrap_or_else(|| panic!("{text}"));
    let cells: Vec<f64> = row
        .split(|c: char| c.is_whitespace() || "[],".contains(c))
        .filter_map(|c| c.trim_start_matches('+').parse().ok())
        .collect();
    // Tight bets only its king; the calling station never bets and calls everything. In
    // either seat tight nets +2 with the king twice in six deals, +1 - 1 with the queen
    // and -2 with the jack: 2/6 a hand, and the station loses as much, so the difference
    // is 2/3.
    assert!(cells.len() == 3 && cells[1] <= 2.0 / 3.0 && 2.0 / 3.0 <= cells[2], "{row}");
    assert!(text.contains("chips diff per hand (row minus column)"), "{text}");
    // Win shares tie, and the hands are played for chips: dominance is judged by them.
    assert!(text.contains("tight dominates: its chips diff per hand is above zero"), "{text}");
    assert!(text.contains("judged by the chips diff per hand"), "{text}");
    // Two deals alike give an interval of no width: too few to call anything dominant, and
    // the equilibrium on their means is said to be that.
    let args = ["compare", "--game", "kuhn-poker", "--players", "3", "--strategies", "tight,aggressive"];
    let o = draftsim(&[&args[..], &["--rounds", "12", "--quiet"]].concat());
    assert!(o.status.success(), "{}", common::stderr(&o));
    let text = common::stdout(&o);
    assert!(text.contains("+0.500 [+0.500,+0.500]") && text.contains("No strategy dominates."), "{text}");
    assert!(
        text.contains(
            "It is solved on the mean payoffs, some of which are not told from even: more rounds may change it."
        ),
        "{text}"
    );
}

#[test]
fn head_to_head_win_shares_are_estimated_over_deal_groups() {
    // Greedy and tight play Sevens much alike, so most of a round's outcome is the deal,
    // which the rotations of a deal share: over deal groups the head-to-head interval is
    // far narrower than Wilson's over rounds (about 3x at this seed), centred alike.
    let out = scratch("compare-groups").join("cmp");
    let args = ["compare", "--game", "sevens", "--strategies", "greedy,tight", "--rounds", "6000", "--seed", "3"];
    let o = draftsim(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let matrix = frame(&out.join("matrix.csv"));
    let (share, lo, hi) =
        (floats(&matrix, "win_share"), floats(&matrix, "win_share_lo"), floats(&matrix, "win_share_hi"));
    let rounds = floats(&matrix, "rounds")[0];
    let wilson = draftsim::stats::wilson(share[0] * rounds, rounds as u64);
    assert!((share[0] + share[1] - 1.0).abs() < 1e-12);
    assert!((lo[0] + hi[1] - 1.0).abs() < 1e-12 && (hi[0] + lo[1] - 1.0).abs() < 1e-12, "mirrored");
    assert!(lo[0] < share[0] && share[0] < hi[0]);
    let ratio = wilson.half_width() / ((hi[0] - lo[0]) / 2.0);
    assert!(ratio > 2.0, "Wilson / over groups half-width {ratio}");
}

#[test]
fn sweep_rows_match_separate_runs_with_the_same_seed() {
    let dir = scratch("sweep");
    let out = dir.join("sw");
    draftsim(&[
        "sweep",
        "--set",
        "players=3,4",
        "--set",
        "ante=1,2",
        "--seats",
        "greedy,random",
        "--rounds",
        "3000",
        "--seed",
        "8",
        "--out",
        out.to_str().unwrap(),
    ]);
    let sweep = frame(&out.join("sweep.csv"));
    assert_eq!(sweep.height(), 4 * 2, "4 variants x 2 strategies");
    let (players, ante, strategy) = (texts(&sweep, "players"), texts(&sweep, "ante"), texts(&sweep, "strategy"));
    let (wr, chips) = (floats(&sweep, "win_rate"), floats(&sweep, "chips_per_round"));
    // The sweep keeps the field: at 3 players greedy and random share the seats equally,
    // as a run of the same two at 3 players does (the rules file's player count).
    for (p, a, seats) in [("3", "2", "greedy,random"), ("4", "1", "greedy,random,greedy,random")] {
        let rules = dir.join(format!("rules-{p}-{a}.toml"));
        std::fs::write(&rules, format!("players = {p}\nante = {a}\n")).unwrap();
        let run = dir.join(format!("run-{p}-{a}"));
        draftsim(&[
            "run",
            "--rules",
            rules.to_str().unwrap(),
            "--seats",
            seats,
            "--rounds",
            "3000",
            "--seed",
            "8",
            "--quiet",
            "--out",
            run.to_str().unwrap(),
        ]);
        let summary = frame(&run.join("summary.csv"));
        let (names, swr, schips) =
            (texts(&summary, "strategy"), floats(&summary, "win_rate"), floats(&summary, "chips_per_round"));
        for (i, name) in names.iter().enumerate() {
            let row = (0..strategy.len()).find(|&r| players[r] == p && ante[r] == a && strategy[r] == *name).unwrap();
            assert_eq!(wr[row], swr[i], "{p} players, ante {a}, {name}");
            assert_eq!(chips[row], schips[i], "{p} players, ante {a}, {name}");
        }
    }
    for col in ["seat_advantage", "skill_gap", "showdown_rate", "fold_rate_r1", "rarity_order"] {
        assert!(sweep.column(col).is_ok(), "{col} missing");
    }
    // Every hand category is in the order, those no hand reached among the rarest.
    let categories = draftsim::games::seven_card_draft::CATEGORY_NAMES;
    for order in texts(&sweep, "rarity_order") {
        let listed: Vec<&str> = order.split('>').map(|c| c.trim_end_matches(" (never)")).collect();
        assert_eq!(listed.len(), categories.len(), "{order}");
        assert!(categories.iter().all(|c| listed.contains(c)), "{order}");
        // Without wilds no hand is five of a kind: never seen, and said so.
        assert!(order.starts_with("five-of-a-kind (never)>"), "{order}");
    }
}

#[test]
fn report_files_exist_hold_the_input_numbers_and_parse_as_svg() {
    let dir = scratch("report");
    let run = dir.join("run");
    draftsim(&["run", "--rounds", "4000", "--quiet", "--format", "parquet", "--out", run.to_str().unwrap()]);
    let sweep = dir.join("sweep");
    draftsim(&["sweep", "--set", "wild=none,last-pick", "--rounds", "2000", "--out", sweep.to_str().unwrap()]);
    let report = dir.join("report");
    draftsim(&[
        "report",
        run.to_str().unwrap(),
        sweep.to_str().unwrap(),
        "--out",
        report.to_str().unwrap(),
        "--regenerate",
        "sh make.sh",
    ]);
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("sh make.sh"));
    // The numbers of the summary table appear in the report as written there.
    let summary = frame(&run.join("summary.parquet"));
    for (name, rate) in texts(&summary, "strategy").iter().zip(floats(&summary, "win_rate")) {
        // 4,000 rounds asked, 4,008 played: whole deals of twelve seatings.
        let row = format!("| {name} | 4008 | {rate:.4} |");
        assert!(md.contains(&row), "missing {row:?}");
    }
    let mut svgs = 0;
    for entry in std::fs::read_dir(&report).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "svg") {
            let text = std::fs::read_to_string(&path).unwrap();
            let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(doc.root_element().tag_name().name(), "svg");
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(md.contains(&format!("]({name})")), "{name} not in the report");
            svgs += 1;
        }
    }
    assert!(svgs >= 6, "only {svgs} charts");
    // report.html: one self-contained page with every chart inline, no external files.
    let html = std::fs::read_to_string(report.join("report.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    assert_eq!(html.matches("<svg").count(), svgs, "every chart inlined once");
    assert!(!html.contains("<img") && !html.contains(".svg\""), "no link to a chart file");
    assert!(html.contains("<table>") && html.contains("sh make.sh"));
    for chart in
        ["1-win-share.svg", "1-seat-advantage.svg", "1-fold-rate.svg", "1-categories.svg", "2-sweep-skill_gap.svg"]
    {
        assert!(report.join(chart).exists(), "{chart}");
    }
}

/// The sweep's terminal tables fit 120 columns; `--wide` prints the whole table, which the
/// file holds anyway.
#[test]
fn sweep_prints_tables_that_fit_a_terminal() {
    let base = ["sweep", "--set", "players=3,4", "--set", "wild=none,deuces", "--rounds", "400", "--quiet"];
    let text = common::stdout(&draftsim(&base));
    assert!(text.lines().all(|l| l.len() <= 120), "{text}");
    // Four variants, then four variants of four strategies, each figure with its interval.
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with('3') || l.starts_with('4')).collect();
    assert_eq!(rows.len(), 4 + 16, "{text}");
    assert!(text.contains("seat_advantage") && text.contains("win_rate") && text.contains(" ["), "{text}");
    let wide = common::stdout(&draftsim(&[&base[..], &["--wide"]].concat()));
    assert!(wide.lines().any(|l| l.len() > 120) && wide.contains("seat_share"), "{wide}");
}

/// A sweep over Seven Card Draft's pack size says which keys follow it, on the terminal
/// and in the report's rules, where the base's betting rounds would read as played.
#[test]
fn a_pack_size_sweep_says_which_keys_follow_it() {
    let dir = scratch("sweep-follow");
    let out = dir.join("sweep");
    let rules = dir.join("four-bets.toml");
    let text = "face_up_picks = [2, 4, 6]\nbet_after_picks = [2, 4, 6, 7]\nbet_sizes = [1, 1, 1, 2]\n";
    std::fs::write(&rules, text).unwrap();
    let rules = rules.to_str().unwrap();
    let args = ["sweep", "--rules", rules, "--set", "pack_size=5,7", "--rounds", "40", "--out", out.to_str().unwrap()];
    let o = draftsim(&args);
    let said = common::stderr(&o);
    let line =
        said.lines().find(|l| l.contains("follow pack_size in each variant")).unwrap_or_else(|| panic!("{said}"));
    for key in ["bet_after_picks", "bet_sizes", "face_up_picks"] {
        assert!(line.contains(key), "{line}");
    }
    let report = dir.join("report");
    draftsim(&["report", out.to_str().unwrap(), "--out", report.to_str().unwrap(), "--quiet"]);
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("# bet_after_picks: follows pack_size, set in each variant"), "{md}");
    assert!(!md.contains("bet_after_picks = [2, 4, 6, 7]"), "{md}");
    // A key the sweep sets itself is not brought along.
    let o =
        draftsim(&["sweep", "--rules", rules, "--set", "pack_size=5,7", "--set", "face_up_picks=[]", "--rounds", "40"]);
    let said = common::stderr(&o);
    assert!(
        said.contains("bet_after_picks, bet_sizes follow pack_size") && !said.contains("face_up_picks follow"),
        "{said}"
    );
}

/// A variant that seats a deal many more ways (six players) plays a handful of deal groups
/// from the rounds the others share: the sweep says so, naming it, where the table's
/// intervals would read as sure as the others'.
#[test]
fn a_sweep_names_the_variants_of_few_deal_groups() {
    let dir = scratch("few-groups");
    let out = dir.join("sweep");
    let sweep = ["sweep", "--game", "sevens", "--set", "players=4,6", "--rounds", "2000", "--seed", "3"];
    let o = draftsim(&[&sweep[..], &["--out", out.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", common::stderr(&o));
    let said = common::stderr(&o);
    let warning = said.lines().find(|l| l.contains("fewer than 30 deal groups")).expect(&said);
    assert!(warning.contains("warning: players=6 (6 deal groups)") && !warning.contains("players=4"), "{warning}");
    assert!(warning.contains("use --rounds "), "{warning}");
}
