//! The `draftsim` binary: real runs, real files, bad input.

use crate::common;
use common::{draftsim, files, interrupt, row_value, stderr, stdout};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(name: &str) -> PathBuf {
    common::scratch("cli", name)
}

#[test]
fn output_files_are_identical_for_one_and_two_threads() {
    let dir = scratch("threads");
    for format in ["csv", "parquet"] {
        for threads in ["1", "2"] {
            let out = dir.join(format!("{format}-{threads}"));
            let o = draftsim(&[
                "run",
                "--rounds",
                "20000",
                "--seed",
                "9",
                "--threads",
                threads,
                "--out",
                out.to_str().unwrap(),
                "--format",
                format,
                "--quiet",
                "--cards",
            ]);
            assert!(o.status.success(), "{}", stderr(&o));
        }
        let one = files(&dir.join(format!("{format}-1")));
        let two = files(&dir.join(format!("{format}-2")));
        let names: Vec<&str> = one.iter().map(|f| f.0.as_str()).collect();
        for table in ["summary", "seats", "pairs", "categories", "picks", "cards"] {
            assert!(names.contains(&format!("{table}.{format}").as_str()), "{names:?}");
        }
        assert!(names.contains(&"run.json") && names.contains(&"tally.json"));
        assert_eq!(one, two, "{format} files differ between thread counts");
    }
}

#[test]
fn merged_shards_give_the_tables_of_the_unsharded_run() {
    let dir = scratch("shards");
    let whole = dir.join("whole");
    let base = [
        "run",
        "--rounds",
        "12000",
        "--seed",
        "4",
        "--quiet",
        "--seats",
        "greedy,random,tight",
        "--cards",
        "--rounds-out",
    ];
    let o = draftsim(&[&base[..], &["--out", whole.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let mut shard_dirs = Vec::new();
    for i in 0..4 {
        let d = dir.join(format!("shard-{i}"));
        let shard = format!("{i}/4");
        let o = draftsim(&[&base[..], &["--shard", &shard, "--out", d.to_str().unwrap()]].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        shard_dirs.push(d.to_str().unwrap().to_string());
    }
    let merged = dir.join("merged");
    let mut args = vec!["merge"];
    args.extend(shard_dirs.iter().map(String::as_str));
    args.extend(["--out", merged.to_str().unwrap()]);
    let o = draftsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    // The rounds table too, though each shard holds every fourth stretch of rounds.
    assert!(files(&merged).iter().any(|(name, _)| name == "rounds.csv"));
    assert_eq!(files(&merged), files(&whole));
    // A field (fewer strategies than seats, each its share) merges as it was played.
    let field = ["run", "--players", "5", "--seats", "greedy,hate,tight", "--rounds", "8000", "--seed", "4", "--quiet"];
    let at = |name: &str| dir.join(format!("field-{name}"));
    let o = draftsim(&[&field[..], &["--out", at("whole").to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    for i in 0..2 {
        let shard = format!("{i}/2");
        let o = draftsim(&[&field[..], &["--shard", &shard, "--out", at(&i.to_string()).to_str().unwrap()]].concat());
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let (a, b, m) = (at("0"), at("1"), at("merged"));
    let o = draftsim(&["merge", a.to_str().unwrap(), b.to_str().unwrap(), "--out", m.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(files(&m), files(&at("whole")));
    let as_parquet = dir.join("merged-parquet");
    let o = draftsim(&[&args[..args.len() - 1], &[as_parquet.to_str().unwrap(), "--format", "parquet"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let whole_parquet = dir.join("whole-parquet");
    let o = draftsim(&[&base[..], &["--out", whole_parquet.to_str().unwrap(), "--format", "parquet"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let read = |p: std::path::PathBuf| draftsim::output::read_frame(&p).unwrap();
    assert!(read(as_parquet.join("rounds.parquet")).equals_missing(&read(whole_parquet.join("rounds.parquet"))));
    // Sevens' histograms are named by numbers, one a row or none: read by the game's
    // types, not guessed from the text, from CSV and from Parquet shards alike.
    for format in ["csv", "parquet"] {
        let sevens = [
            "run",
            "--game",
            "sevens",
            "--rounds",
            // Each shard's table longer than a batch the merge reads at a time.
            "15000",
            "--seed",
            "4",
            "--quiet",
            "--rounds-out",
            "--format",
            format,
        ];
        let at = |name: &str| dir.join(format!("sevens-{format}-{name}"));
        let o = draftsim(&[&sevens[..], &["--out", at("whole").to_str().unwrap()]].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        for i in 0..3 {
            let o = draftsim(
                &[&sevens[..], &["--shard", &format!("{i}/3"), "--out", at(&i.to_string()).to_str().unwrap()]].concat(),
            );
            assert!(o.status.success(), "{}", stderr(&o));
        }
        let (s0, s1, s2, m) = (at("0"), at("1"), at("2"), at("merged"));
        let shards = [s0.to_str().unwrap(), s1.to_str().unwrap(), s2.to_str().unwrap()];
        // Unasked, the merged tables keep the shards' format.
        let o = draftsim(&[&["merge"][..], &shards, &["--out", m.to_str().unwrap()]].concat());
        assert!(o.status.success(), "{format}: {}", stderr(&o));
        let name = format!("rounds.{format}");
        assert!(read(m.join(&name)).equals_missing(&read(at("whole").join(&name))), "{format}");
        // Asked, the format named.
        let csv = at("as-csv");
        let o = draftsim(&[&["merge"][..], &shards, &["--out", csv.to_str().unwrap(), "--format", "csv"]].concat());
        assert!(o.status.success() && csv.join("rounds.csv").exists(), "{format}: {}", stderr(&o));
    }
    // A shard without its rounds table: the merge warns and writes none.
    let away = Path::new(&shard_dirs[3]).join("rounds.away");
    std::fs::rename(Path::new(&shard_dirs[3]).join("rounds.csv"), &away).unwrap();
    let without = dir.join("merged-without");
    let o = draftsim(&[&args[..args.len() - 1], &[without.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("no rounds table, though other shards have one"), "{}", stderr(&o));
    assert!(!without.join("rounds.csv").exists());
    // A shard's table short of rows its tally counts: refused, nothing written.
    std::fs::rename(&away, Path::new(&shard_dirs[3]).join("rounds.csv")).unwrap();
    let short = Path::new(&shard_dirs[2]).join("rounds.csv");
    let text = std::fs::read_to_string(&short).unwrap();
    let kept: Vec<&str> = text.lines().collect();
    std::fs::write(&short, kept[..kept.len() - 3].join("\n") + "\n").unwrap();
    let refused = dir.join("merged-short");
    let o = draftsim(&[&args[..args.len() - 1], &[refused.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("rows, not the"), "{}", stderr(&o));
    assert!(!refused.exists());
    // One cut inside its last line: refused as cut short.
    std::fs::write(&short, &text[..text.len() - 2]).unwrap();
    let o = draftsim(&[&args[..args.len() - 1], &[refused.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("cut short"), "{}", stderr(&o));
    assert!(!refused.exists());
    // A missing shard is refused.
    let o = draftsim(&["merge", &shard_dirs[0], &shard_dirs[1], "--out", dir.join("partial").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing"), "{}", stderr(&o));
    // A shard of another run is refused, naming what differs.
    let other = dir.join("other-3");
    let o = draftsim(
        &["run", "--rounds", "12000", "--seed", "5", "--quiet", "--seats", "greedy,random,tight", "--cards"]
            .iter()
            .copied()
            .chain(["--shard", "3/4", "--out", other.to_str().unwrap()])
            .collect::<Vec<_>>(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let parts = [&shard_dirs[0], &shard_dirs[1], &shard_dirs[2], other.to_str().unwrap()];
    let o = draftsim(&[&["merge"][..], &parts[..], &["--out", dir.join("mixed").to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("(seed differs;"), "{}", stderr(&o));
}

#[test]
fn parquet_tables_carry_the_run_metadata_and_read_back() {
    let dir = scratch("parquet");
    let out = dir.join("p");
    let o = draftsim(&[
        "run",
        "--rounds",
        "4000",
        "--seed",
        "77",
        "--out",
        out.to_str().unwrap(),
        "--format",
        "parquet",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = draftsim::output::read_frame(&out.join("summary.parquet")).unwrap();
    assert_eq!(summary.height(), 4);
    let names: Vec<String> = summary.get_column_names().iter().map(|n| n.to_string()).collect();
    for col in [
        "strategy",
        "rounds",
        "wins",
        "win_rate",
        "win_rate_lo",
        "win_rate_hi",
        "chips_per_round",
        "showdown_rate",
        "fold_rate_r1",
    ] {
        assert!(names.iter().any(|n| n == col), "{col} missing from {names:?}");
    }
    let meta = draftsim::output::parquet_metadata(&out.join("summary.parquet")).unwrap();
    let get = |k: &str| meta.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
    assert_eq!(get("seed").as_deref(), Some("77"));
    assert!(get("rules").unwrap().contains("players = 4"));
    assert_eq!(get("bots").as_deref(), Some("greedy,hate,tight,random"));
    assert!(get("draftsim_version").is_some());
    // The same pairs in the embedded Arrow schema, where pyarrow and pandas look.
    let schema_meta = draftsim::output::arrow_schema_metadata(&out.join("summary.parquet")).unwrap();
    for key in ["seed", "rules", "bots", "game", "draftsim_version", "run_json"] {
        let in_schema = schema_meta.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
        assert_eq!(in_schema, get(key), "{key} in the Arrow schema's metadata");
    }
    // The CSV form has the same columns, and its numbers match.
    let csv_out = dir.join("c");
    let o = draftsim(&["run", "--rounds", "4000", "--seed", "77", "--out", csv_out.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success());
    let csv = draftsim::output::read_frame(&csv_out.join("summary.csv")).unwrap();
    assert_eq!(csv.get_column_names(), summary.get_column_names());
    assert_eq!(
        csv.column("rounds").unwrap().i64().unwrap().get(0),
        summary.column("rounds").unwrap().i64().unwrap().get(0)
    );
}

/// Counts are integers, yes-or-no columns booleans, missing values null and numbered bins
/// numbers, in Parquet as in CSV: wins outright and split wins as their own whole numbers
/// (the share of split wins is in the win rate, which lies between them), the sweep's
/// ranking flag and a comparison's dominance as booleans, a tune's unranked candidates with
/// no rank, and Sevens' totals as numbers.
#[test]
fn tables_are_typed_counts_whole_flags_boolean_missing_null() {
    use polars::prelude::DataType;
    let dir = scratch("typed");
    let path = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let parquet = ["--format", "parquet", "--quiet", "--force"];
    let run = |args: &[&str]| {
        let o = draftsim(&[args, &parquet[..]].concat());
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    };
    run(&["run", "--game", "sevens", "--rounds", "2000", "--out", &path("sevens")]);
    let summary = draftsim::output::read_frame(&dir.join("sevens/summary.parquet")).unwrap();
    let dtype = |df: &polars::prelude::DataFrame, c: &str| df.column(c).unwrap().dtype().clone();
    assert_eq!(dtype(&summary, "wins"), DataType::Int64);
    assert_eq!(dtype(&summary, "split_wins"), DataType::Int64);
    let col = |df: &polars::prelude::DataFrame, c: &str| -> Vec<f64> {
        let c = df.column(c).unwrap().cast(&DataType::Float64).unwrap();
        c.f64().unwrap().into_no_null_iter().collect()
    };
    let (wins, split, rounds, rate) =
        (col(&summary, "wins"), col(&summary, "split_wins"), col(&summary, "rounds"), col(&summary, "win_rate"));
    assert!(split.iter().sum::<f64>() > 0.0, "Sevens splits some pots: {split:?}");
    for i in 0..wins.len() {
        let shared = rate[i] * rounds[i] - wins[i];
        assert!(shared > -1e-6 && shared < split[i] + 1e-6, "row {i}: win rate {} outside its wins", rate[i]);
    }
    assert_eq!(
        dtype(&draftsim::output::read_frame(&dir.join("sevens/totals.parquet")).unwrap(), "total"),
        DataType::Int64
    );
    run(&["sweep", "--set", "wild=none,deuces", "--rounds", "200", "--out", &path("sweep")]);
    let sweep = draftsim::output::read_frame(&dir.join("sweep/sweep.parquet")).unwrap();
    assert_eq!(dtype(&sweep, "standard_order_holds"), DataType::Boolean);
    run(&["compare", "--strategies", "greedy,random,tight", "--rounds", "100", "--out", &path("compare")]);
    let ratings = draftsim::output::read_frame(&dir.join("compare/ratings.parquet")).unwrap();
    assert_eq!(dtype(&ratings, "dominant"), DataType::Boolean);
    let tune = ["tune", "--game", "sevens", "--param", "raise_cap=1..5", "--minimize", "seat_advantage"];
    run(&[&tune[..], &["--rounds", "40000", "--candidates", "4", "--out", &path("tune")]].concat());
    let candidates = draftsim::output::read_frame(&dir.join("tune/candidates.parquet")).unwrap();
    let rank = candidates.column("rank").unwrap();
    assert_eq!(rank.dtype(), &DataType::Int64);
    assert!(rank.null_count() > 0 && rank.null_count() < rank.len(), "unranked candidates have no rank: {rank:?}");
    // CSV says the same: an empty rank, true or false.
    let o =
        draftsim(&["sweep", "--set", "wild=none,deuces", "--rounds", "200", "--quiet", "--out", &path("sweep-csv")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(dir.join("sweep-csv/sweep.csv")).unwrap();
    assert!(text.lines().skip(1).all(|l| l.ends_with(",true") || l.ends_with(",false")), "{text}");
}

#[test]
fn a_sweep_says_why_a_figure_repeats_in_every_variant() {
    // Sevens' raise cap moves chips, not who holds the best hand among these seats: the same
    // deals give the same winners, so the win rate repeats to the last bit.
    let o = draftsim(&["sweep", "--game", "sevens", "--set", "raise_cap=1,2", "--rounds", "200", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let said = text.lines().find(|l| l.contains("the same in every variant")).unwrap_or_else(|| panic!("{text}"));
    assert!(said.contains("win_rate") && !said.contains("chips_per_round"), "{said}");
    // A column named per round is per hand, as `run` says.
    assert!(text.contains("(chips_per_round is per hand; the columns keep these names in every game)"), "{text}");
    // Other table sizes deal other cards: a repeat would be chance, and nothing is said.
    let o = draftsim(&["sweep", "--game", "sevens", "--set", "players=3,4", "--rounds", "200", "--quiet"]);
    assert!(o.status.success() && !stdout(&o).contains("the same in every variant"), "{}", stdout(&o));
    // A wild card changes the winners: nothing about the win rate is said.
    let o = draftsim(&["sweep", "--set", "wild=none,deuces", "--rounds", "200", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    // Seven Card Draft's unit is a round: nothing to say of the column's name.
    assert!(!text.contains("is per"), "{text}");
    assert!(
        !text.contains("win_rate and") && !text.contains("win_rate are") && !text.contains("win_rate is"),
        "{text}"
    );
}

#[test]
fn rounds_out_streams_one_row_per_round_and_seat() {
    let dir = scratch("rounds");
    let out = dir.join("r");
    let o = draftsim(&[
        "run",
        "--rounds",
        "3000",
        "--out",
        out.to_str().unwrap(),
        "--rounds-out",
        "--quiet",
        "--seats",
        "greedy,random",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rounds = draftsim::output::read_frame(&out.join("rounds.csv")).unwrap();
    assert_eq!(rounds.height(), 3000 * 2);
    let net = rounds.column("net").unwrap().i64().unwrap();
    let nets: i64 = (0..net.len()).map(|i| net.get(i).unwrap()).sum();
    assert_eq!(nets, 0, "chips are conserved");
}

#[test]
fn replay_tells_a_round_the_same_way_every_time() {
    let a = draftsim(&["replay", "--seed", "5", "--round", "13"]);
    let b = draftsim(&["replay", "--seed", "5", "--round", "13"]);
    assert!(a.status.success(), "{}", stderr(&a));
    assert_eq!(stdout(&a), stdout(&b));
    let text = stdout(&a);
    for part in ["== Round 13 of the run", "-- Pick 1", "-- Pick 2 (turned face up)", "-- Betting round 1", "== Result"]
    {
        assert!(text.contains(part), "missing {part:?} in\n{text}");
    }
    assert!(
        text.contains(" · seating 1 (of 12, from 0: each deal is played at every seating"),
        "the seating explained: {text}"
    );
    assert_ne!(text, stdout(&draftsim(&["replay", "--seed", "5", "--round", "14"])));
}

/// A game the round limit ended says so before its result, in Seven Card Draft (scored by
/// stacks) and Seven Poker (no winner); a game played out does not.
#[test]
fn replay_says_when_the_round_limit_ended_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let told = |game: &str, rules: &str| -> String {
        let path = dir.path().join(format!("{game}.toml"));
        std::fs::write(&path, rules).unwrap();
        let out = draftsim(&["replay", "--game", game, "--rules", path.to_str().unwrap(), "--round", "0"]);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let draft = told("seven-card-draft", "mode = \"game\"\nmax_rounds_per_game = 1\n");
    let said = "-- The game reached its round limit (max_rounds_per_game = 1) after 1 round with more than one player holding chips: the biggest stack wins it, shared on a tie\n== Result";
    assert!(draft.contains(said), "{draft}");
    // A game's result is its share of the game, and each seat's folds over its rounds counted.
    let long = told("seven-card-draft", "mode = \"game\"\nstarting_stack = 10\n");
    let result = long.split("== Result").nth(1).unwrap();
    assert!(result.contains(", game share ") && !result.contains("pot share"), "{long}");
    assert!(!result.contains(", folded in betting round"), "{long}");
    assert!(result.contains(" times in betting round") || result.contains(" once in betting round"), "{long}");
    let poker = told("seven-poker", "max_rounds = 1\n");
    assert!(
        poker.contains("-- The game reached its round limit (max_rounds = 1) after 1 round: nobody wins it\n== Result"),
        "{poker}"
    );
    let played_out = told("seven-poker", "max_rounds = 200\n");
    assert!(!played_out.contains("round limit"), "{played_out}");
}

/// A run whose units a cap ends says so on the terminal, as its report does; one that
/// finishes by the rules does not.
#[test]
fn a_run_whose_caps_fire_warns() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("short.toml");
    std::fs::write(&rules, "mode = \"game\"\nmax_rounds_per_game = 2\n").unwrap();
    let o = draftsim(&["run", "--rules", rules.to_str().unwrap(), "--rounds", "48", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("% of the games ended at a cap on their length (timeouts "), "{}", stderr(&o));
    let o = draftsim(&["run", "--rounds", "48", "--quiet"]);
    assert!(!stderr(&o).contains("ended at a cap"), "{}", stderr(&o));
}

/// Kuhn and Leduc's replays call a round's first wager a bet and later ones raises, as their
/// rules do: Kuhn, with one wager a round, never raises.
#[test]
fn reference_poker_replays_bet_before_they_raise() {
    let told = |game: &str| -> String {
        (0..12)
            .map(|r| {
                stdout(&draftsim(&[
                    "replay",
                    "--game",
                    game,
                    "--seats",
                    "aggressive,aggressive",
                    "--round",
                    &r.to_string(),
                ]))
            })
            .collect()
    };
    let kuhn = told("kuhn-poker");
    assert!(kuhn.contains(" bets (1 in)") && !kuhn.contains(" raises ("), "{kuhn}");
    let leduc = told("leduc-poker");
    let mut opened = false;
    for line in leduc.lines() {
        if (line.starts_with("== ") && line.contains(" of the run")) || line.starts_with("-- The public card") {
            opened = false;
        } else if line.contains(" bets (") {
            assert!(!std::mem::replace(&mut opened, true), "a second bet in one round: {line}");
        } else if line.contains(" raises (") {
            assert!(opened, "a raise before a bet: {line}");
        }
    }
    assert!(leduc.contains(" bets (2 in)") && leduc.contains(" raises ("), "{leduc}");
    // A fold puts nothing in, and is not said as "(0 in)".
    let folds: String = (0..24)
        .map(|r| {
            stdout(&draftsim(&[
                "replay",
                "--game",
                "kuhn-poker",
                "--seats",
                "random,random",
                "--round",
                &r.to_string(),
            ]))
        })
        .collect();
    assert!(folds.contains(" folds\n") && !folds.contains("folds ("), "{folds}");
}

/// In round mode every seating of a deal passes the same way, and deals alternate: with
/// four seats (twelve seatings a deal) rounds 0-11 pass left, 12-23 right.
#[test]
fn the_pass_direction_follows_the_deal() {
    for (round, way) in [("0", "go left"), ("11", "go left"), ("12", "go right"), ("23", "go right"), ("24", "go left")]
    {
        let text = stdout(&draftsim(&["replay", "--seed", "5", "--round", round]));
        let dealer = text.lines().find(|l| l.starts_with("== Dealer")).unwrap_or_default();
        assert!(dealer.contains(way), "round {round}: {text}");
    }
}

/// A CSV table's rows by their first column, each row's other fields as text.
fn rows_by_first(path: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut rows: Vec<(String, String)> = text
        .lines()
        .skip(1)
        .map(|l| {
            let (first, rest) = l.split_once(',').unwrap_or((l, ""));
            (first.to_string(), rest.to_string())
        })
        .collect();
    rows.sort();
    rows
}

/// Listing the same strategies in another order changes no figure of any strategy, seat
/// or pair: the seatings depend on who is seated, not on the order they are listed in.
#[test]
fn the_order_the_seats_are_listed_in_changes_no_figure() {
    let dir = scratch("order");
    let run = |seats: &str, name: &str| {
        let out = dir.join(name);
        let o = draftsim(&["run", "--seats", seats, "--rounds", "2400", "--out", out.to_str().unwrap(), "--quiet"]);
        assert!(o.status.success(), "{}", stderr(&o));
        out
    };
    let a = run("greedy,hate,tight,random", "a");
    let b = run("random,tight,hate,greedy", "b");
    for table in ["summary.csv", "seats.csv", "health.csv", "picks.csv"] {
        assert_eq!(rows_by_first(&a.join(table)), rows_by_first(&b.join(table)), "{table}");
    }
    // The pairs, each as a minus b: the same figures with the sign of the order.
    let pairs = |dir: &Path| -> Vec<(String, f64)> {
        let mut out: Vec<(String, f64)> = std::fs::read_to_string(dir.join("pairs.csv"))
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                let (x, y, v): (&str, &str, f64) = (f[0], f[1], f[3].parse().unwrap());
                if x < y { (format!("{x}-{y}"), v) } else { (format!("{y}-{x}"), -v) }
            })
            .collect();
        out.sort_by(|p, q| p.0.cmp(&q.0));
        out
    };
    let (pa, pb) = (pairs(&a), pairs(&b));
    assert_eq!(pa.len(), 6);
    for ((na, va), (nb, vb)) in pa.iter().zip(&pb) {
        assert_eq!(na, nb);
        assert!((va - vb).abs() < 1e-12, "{na}: {va} against {vb}");
    }
}

/// A sweep over the player count keeps the field: every strategy given holds an equal
/// share of the seats at every size.
#[test]
fn a_sweep_over_players_keeps_every_strategy_s_share_of_the_seats() {
    let dir = scratch("field");
    let out = dir.join("s");
    let o = draftsim(&[
        "sweep",
        "--set",
        "players=3,4,5",
        "--seats",
        "greedy,hate,tight,random",
        "--rounds",
        "1200",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let t = draftsim::output::read_frame(&out.join("sweep.csv")).unwrap();
    let players = t.column("players").unwrap().i64().unwrap();
    let strategy = t.column("strategy").unwrap().str().unwrap();
    let share = t.column("seat_share").unwrap().f64().unwrap();
    for n in [3, 4, 5] {
        let rows: Vec<usize> = (0..t.height()).filter(|&i| players.get(i) == Some(n)).collect();
        let mut names: Vec<&str> = rows.iter().map(|&i| strategy.get(i).unwrap()).collect();
        names.sort();
        assert_eq!(names, ["greedy", "hate", "random", "tight"], "players {n}");
        for &i in &rows {
            assert!((share.get(i).unwrap() - 0.25).abs() < 1e-12, "players {n}: {:?}", share.get(i));
        }
    }
}

/// A tiny run's intervals stop at what the rules allow: a Winston match scores -1 to 1 (a
/// t quantile on one degree of freedom would give 12.7 either way), two strategies differ
/// by at most 2, and no match lasts under one turn.
#[test]
fn intervals_stop_at_what_the_rules_allow() {
    let o = draftsim(&["run", "--game", "winston-crazier-eights", "--rounds", "1", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    for strategy in ["value", "colour"] {
        let (lo, hi) =
            (row_value(&text, strategy, "points_per_match_lo"), row_value(&text, strategy, "points_per_match_hi"));
        assert!((lo, hi) == (-1.0, 1.0), "{strategy}: [{lo}, {hi}]\n{text}");
    }
    let pairs = &text[text.find("paired differences").expect(&text)..];
    assert_eq!(row_value(pairs, "value", "points_diff_per_match_lo"), -2.0, "{text}");
    assert_eq!(row_value(pairs, "value", "points_diff_per_match_hi"), 2.0, "{text}");
    let length = text.lines().find(|l| l.starts_with("mean match length")).expect(&text);
    assert!(length.contains("(95% interval 1.00 to "), "{length}");
}

/// A study's opening line counts the game's own units (Sevens' hands, Kuhn's hands), as
/// many as its tables hold: the rounds asked for, rounded up to whole deals.
#[test]
fn studies_count_the_games_units() {
    let dir = scratch("studies_count_units");
    let rounds_column = |file: &Path| {
        let text = std::fs::read_to_string(file).unwrap();
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        let at = header.iter().position(|&c| c == "rounds").expect(&text);
        text.lines().skip(1).map(|l| l.split(',').nth(at).unwrap().to_string()).collect::<Vec<_>>()
    };
    let o = draftsim(&["compare", "--game", "sevens", "--strategies", "tight,random", "--rounds", "48"]);
    assert!(o.status.success() && stderr(&o).contains(" · 48 hands per pair, 1 pair"), "{}", stderr(&o));
    // Three players seat a pair both ways round, 54 hands in whole deals.
    let out = dir.join("compare");
    let o = draftsim(&[
        "compare",
        "--game",
        "sevens",
        "--players",
        "3",
        "--strategies",
        "tight,random",
        "--rounds",
        "50",
        "--out",
        out.to_str().unwrap(),
    ]);
    let said = " · 54 hands per pair (50 asked, rounded up to whole deals), 1 pair";
    assert!(o.status.success() && stderr(&o).contains(said), "{}", stderr(&o));
    assert_eq!(rounds_column(&out.join("matrix.csv")), ["54", "54"]);
    let out = dir.join("ladder");
    let o = draftsim(&[
        "ladder",
        "--game",
        "kuhn-poker",
        "--budgets",
        "1,2",
        "--rounds",
        "21",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success() && stderr(&o).contains(" · 22 hands per step (21 asked, rounded"), "{}", stderr(&o));
    assert_eq!(rounds_column(&out.join("ladder.csv")), ["22"]);
    // A sweep of player counts plays each count's whole deals: 72 hands at three players
    // (each of the four strategies seated in three quarters of them), 60 at four.
    let out = dir.join("sweep");
    let o = draftsim(&[
        "sweep",
        "--game",
        "sevens",
        "--set",
        "players=3,4",
        "--rounds",
        "50",
        "--out",
        out.to_str().unwrap(),
    ]);
    let said = " · 60 to 72 hands per variant (50 asked, rounded up to each variant's whole deals), 2 variants";
    assert!(o.status.success() && stderr(&o).contains(said), "{}", stderr(&o));
    assert_eq!(rounds_column(&out.join("sweep.csv")), ["54", "54", "54", "54", "60", "60", "60", "60"]);
}

/// What a study says around its tables names the game's unit and seats: a one-deal
/// warning counts hands, a sweep of `mode` plays rounds or games, a sweep's seat-units are
/// said, a field is not told to seat one each where the game cannot, and `--units` is
/// `--rounds`.
#[test]
fn study_words_follow_the_game() {
    let dir = scratch("study_words");
    let o = draftsim(&["compare", "--game", "leduc-poker", "--strategies", "tight,random", "--rounds", "2"]);
    assert!(o.status.success() && stderr(&o).contains("warning: 2 hands a pair is one deal"), "{}", stderr(&o));
    let o = draftsim(&["sweep", "--game", "seven-card-draft", "--set", "mode=round,game", "--rounds", "4"]);
    assert!(stderr(&o).contains(" rounds or games per variant"), "{}", stderr(&o));
    // Swept table sizes share one field: the mix at the base's size, which is named.
    let o = draftsim(&["sweep", "--set", "players=3,5", "--rounds", "4"]);
    let said =
        "seats greedy,hate,tight,random (the game's mix at 4 players with one random seat, a field filling every size)";
    assert!(stderr(&o).contains(said), "{}", stderr(&o));
    let varied = ["sweep", "--game", "seven-card-draft", "--seats", "hate,greedy,tight", "--rounds", "50"];
    let vary = |wide: &[&str]| draftsim(&[&varied[..], &["--vary", "hate.draft.weight=0,1"], wide].concat());
    // The note is about a column only the wide table shows.
    let note = "(a strategy's rounds column counts seat-rounds where it holds several seats";
    let o = vary(&[]);
    assert!(!stdout(&o).contains(note), "{}", stdout(&o));
    let narrow = stdout(&o);
    let o = vary(&["--wide"]);
    assert!(stdout(&o).contains(note), "{}", stdout(&o));
    // Both views name a variant by its value as the flag gave it.
    let firsts = |text: &str| -> Vec<String> {
        let rows = text.lines().skip(1).take_while(|l| !l.trim().is_empty());
        rows.map(|l| l.split_whitespace().next().unwrap().to_string()).collect()
    };
    assert_eq!(firsts(&narrow)[..2], ["0", "1"], "{narrow}");
    assert!(firsts(&stdout(&o)).iter().all(|v| v == "0" || v == "1"), "{}", stdout(&o));
    let o = draftsim(&[
        "sweep",
        "--game",
        "winston-crazier-eights",
        "--seats",
        "hate,value,first",
        "--vary",
        "hate.draft.weight=0,1",
        "--rounds",
        "5",
    ]);
    let said = stderr(&o);
    assert!(
        o.status.success() && said.contains("(a field filling the 2 seats)") && !said.contains("--players 3"),
        "{said}"
    );
    let o = draftsim(&[
        "sweep",
        "--game",
        "sevens",
        "--seats",
        "tight,random,greedy",
        "--vary",
        "tight.bet.fold_below=[1]",
        "--rounds",
        "6",
    ]);
    assert!(stderr(&o).contains("(a field filling the 4 seats; --players 3 seats one each)"), "{}", stderr(&o));
    let [a, b] = ["--rounds", "--units"].map(|flag| {
        let out = dir.join(flag.trim_start_matches('-'));
        let o = draftsim(&["run", "--game", "sevens", flag, "12", "--out", out.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::read_to_string(out.join("summary.csv")).unwrap()
    });
    assert_eq!(a, b);
}

/// `replay --unit` names the unit to tell as `--round` does, whatever the game calls it.
#[test]
fn replay_takes_the_unit_by_either_name() {
    let by = |flag: &str| draftsim(&["replay", "--game", "seven-poker", flag, "3"]);
    let (round, unit) = (by("--round"), by("--unit"));
    assert!(unit.status.success(), "{}", stderr(&unit));
    assert!(stdout(&unit).starts_with("== Game 3 of the run"), "{}", stdout(&unit));
    assert_eq!(stdout(&round), stdout(&unit));
}

/// The skill gap is the pairs table's row of the best strategy against random, figure and
/// interval alike; a tie for the most wins is not told as a lead; a health figure that
/// counts stays at 0 or above; and a run's shard that played nothing is refused by
/// `report` in one line, writing nothing.
#[test]
fn the_skill_gap_is_the_paired_row_and_a_report_says_no_more_than_the_run() {
    let dir = scratch("skill-gap");
    let out = dir.join("kuhn");
    let o = draftsim(&["run", "--game", "kuhn-poker", "--rounds", "200", "--quiet", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let row = |table: &str, start: &str| -> Vec<String> {
        let text = std::fs::read_to_string(out.join(table)).unwrap();
        let line = text.lines().find(|l| l.starts_with(start)).unwrap_or_else(|| panic!("no {start} in {text}"));
        line.split(',').map(str::to_string).collect()
    };
    let (gap, pair) = (row("health.csv", "skill_gap,"), row("pairs.csv", "tight,random,"));
    assert_eq!(gap[1..4], pair[3..6], "skill gap {gap:?} against the pair {pair:?}");
    // Tight and random split Kuhn's hands evenly (each deal at both seatings).
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(summary.lines().skip(1).all(|l| l.split(',').nth(4) == Some("0.5")), "{summary}");
    let report = dir.join("report");
    let o = draftsim(&["report", out.to_str().unwrap(), "--out", report.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(!md.contains("The highest win rate is"), "a tie told as a lead:\n{md}");
    // One deal: the decisions per hand have no spread over deals to measure, and stay >= 0.
    let one = dir.join("one");
    let o = draftsim(&["run", "--game", "kuhn-poker", "--rounds", "2", "--quiet", "--out", one.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let health = std::fs::read_to_string(one.join("health.csv")).unwrap();
    for figure in ["length_mean,", "legal_moves_mean,"] {
        let line = health.lines().find(|l| l.starts_with(figure)).unwrap_or_else(|| panic!("{health}"));
        let lo: f64 = line.split(',').nth(2).unwrap().parse().unwrap();
        assert!(lo >= 0.0, "{line}");
    }
    // A shard of a run of one deal in two: the second plays nothing.
    let empty = dir.join("empty");
    let args = ["run", "--game", "kuhn-poker", "--rounds", "2", "--shard", "1/2", "--quiet", "--out"];
    let o = draftsim(&[&args[..], &[empty.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let refused = dir.join("refused");
    let o = draftsim(&["report", empty.to_str().unwrap(), "--out", refused.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stderr(&o).trim().lines().count(), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("played no units (shard 1/2 of a run too short for 2 shards)"), "{}", stderr(&o));
    assert!(!refused.exists(), "a refused report writes nothing");
}

/// Warnings print under `--quiet` too: a rules option that does nothing, and a run too short
/// for its score intervals (one deal), which says how many rounds give two.
#[test]
fn warnings_print_under_quiet() {
    let dir = scratch("quiet-warnings");
    let rules = dir.join("r.toml");
    // A raise cap that random seats never reach.
    std::fs::write(&rules, "raise_cap = 1\n").unwrap();
    let o = draftsim(&[
        "run",
        "--rules",
        rules.to_str().unwrap(),
        "--seats",
        "random,random,random",
        "--rounds",
        "600",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("warning: raise_cap = 1"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("seed"), "notes stay quiet: {}", stderr(&o));
    // The default table plays a deal under twelve seatings.
    let o = draftsim(&["run", "--rounds", "4", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("12 rounds is one deal") && e.contains("use --rounds 24 or more"), "{e}");
    assert!(e.contains("paired score differences"), "{e}");
    // The summary's intervals follow the small-sample rule instead: over the units, bounded.
    // The pairs span all the rules allow: a seat loses at most its 13-chip stake a round
    // and wins at most the three others', so two seats differ by at most 52.
    let text = stdout(&o);
    let (summary, pairs) = text.split_at(text.find("paired differences").expect(&text));
    assert!(!summary.contains("inf") && !pairs.contains("inf"), "{text}");
    assert_eq!(row_value(pairs, "greedy", "chips_diff_per_round_lo"), -52.0, "{text}");
    assert_eq!(row_value(pairs, "greedy", "chips_diff_per_round_hi"), 52.0, "{text}");
    let o = draftsim(&["run", "--rounds", "24", "--quiet"]);
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    // So do a compare, a ladder, a sweep and a lower bound by play of one deal.
    let kuhn = ["--game", "kuhn-poker", "--rounds", "1", "--quiet"];
    for (args, said) in [
        (&["compare", "--strategies", "tight,random"][..], "a pair is one deal"),
        (&["ladder", "--budgets", "1,2"][..], "a step is one deal"),
        (&["sweep", "--set", "ante=1,2"][..], "2 hands a variant is one deal"),
        (&["exploitability", "--seats", "random,tight", "--bound", "lower"][..], "a responder is one deal"),
    ] {
        let o = draftsim(&[args, &kuhn[..]].concat());
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(said) && stderr(&o).contains("use --rounds"), "{args:?}: {}", stderr(&o));
    }
    // An --until-ci that --rounds stopped short of is a warning; one reached is a note.
    let o = draftsim(&["run", "--rounds", "48", "--until-ci", "0.001", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("warning: --until-ci 0.001 not reached"), "{}", stderr(&o));
    let o = draftsim(&["run", "--rounds", "48", "--until-ci", "0.45", "--quiet"]);
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

/// A game that seats no two players is compared at the fewest it seats, and a lone seat
/// for such a table says how to fill it.
#[test]
fn a_table_of_too_few_is_filled_or_named() {
    let o =
        draftsim(&["compare", "--game", "seven-poker", "--strategies", "adaptive,random", "--rounds", "12", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("adaptive"), "{}", stdout(&o));
    let o = draftsim(&["run", "--game", "seven-poker", "--seats", "adaptive", "--rounds", "12", "--quiet"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("give --players 4 to seat them in turn"), "{}", stderr(&o));
    let o = draftsim(&[
        "run",
        "--game",
        "seven-poker",
        "--seats",
        "adaptive",
        "--players",
        "3",
        "--rounds",
        "12",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A rules setting no seated strategy uses is named in a warning and in run.json.
#[test]
fn a_betting_limit_no_seat_uses_is_named() {
    let dir = scratch("unused");
    let rules = dir.join("nl.toml");
    std::fs::write(&rules, "limit = \"no-limit\"\n").unwrap();
    let out = dir.join("r");
    // Seats that raise the least allowed (the shipped threshold presets size their raises).
    let seats = "tight{bet.size=[0]},greedy{bet.size=[0]},bluffer,random";
    let (rules_path, out_path) = (rules.to_str().unwrap(), out.to_str().unwrap());
    let o = draftsim(&["run", "--rules", rules_path, "--seats", seats, "--rounds", "1200", "--out", out_path]);
    assert!(o.status.success(), "{}", stderr(&o));
    let warning = "limit = \"no-limit\": no seated strategy bet more than the fixed amount";
    assert!(stderr(&o).contains(&format!("warning: {warning}")), "{}", stderr(&o));
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert!(meta["notes"][0].as_str().unwrap().starts_with(warning), "{meta}");
    // Fixed limit (the default) needs no such note, nor no limit with the default seats.
    let o = draftsim(&["run", "--rounds", "1200"]);
    assert!(!stderr(&o).contains("no seated strategy"), "{}", stderr(&o));
    let o = draftsim(&["run", "--rules", rules_path, "--rounds", "1200"]);
    assert!(!stderr(&o).contains("no seated strategy"), "{}", stderr(&o));
    // A raise cap of 1 matters where seats bet, not among calling stations.
    std::fs::write(&rules, "raise_cap = 1\n").unwrap();
    let cap = |seats: &str| {
        stderr(&draftsim(&["run", "--rules", rules.to_str().unwrap(), "--seats", seats, "--rounds", "600"]))
    };
    let unused = "warning: raise_cap = 1: no betting round reached the raises where it differs";
    assert!(cap("random,random,random").contains(unused), "{}", cap("random,random,random"));
    assert!(!cap("greedy,hate,random").contains(unused), "{}", cap("greedy,hate,random"));
    // Sevens likewise: a cap of 5 among calling stations never comes into play.
    let five = rules.with_file_name("sevens-cap.toml");
    std::fs::write(&five, "raise_cap = 5\n").unwrap();
    let sevens = |seats: &str| {
        let args = ["run", "--game", "sevens", "--rules", five.to_str().unwrap(), "--seats", seats, "--rounds", "2000"];
        stderr(&draftsim(&args))
    };
    let unused = "warning: raise_cap = 5: no seat acted where it differs from the default cap of 3";
    assert!(sevens("bluffer{bet.p=0},exact").contains(unused), "{}", sevens("bluffer{bet.p=0},exact"));
    assert!(!sevens("tight,bluffer,greedy,random").contains(unused), "{}", sevens("tight,bluffer,greedy,random"));
    // versus names it on stderr too, leaving stdout to the verdict.
    let args = ["versus", "defaults", rules.to_str().unwrap(), "--seats", "random", "--rounds", "600"];
    let o = draftsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("warning: under B, raise_cap = 1: no betting round"), "{}", stderr(&o));
    assert!(!stdout(&o).contains("raise_cap = 1:"), "{}", stdout(&o));
}

#[test]
fn check_passes_clean_games_and_names_the_replay() {
    for game in ["seven-card-draft", "sevens"] {
        let o = draftsim(&["check", "--game", game, "--rounds", "20000", "--quiet"]);
        assert!(o.status.success(), "{game}: {}{}", stdout(&o), stderr(&o));
        assert!(stdout(&o).contains("no invariant broken"), "{}", stdout(&o));
    }
    // A field is said as `run` says it, and a count rounded up to whole deals says so.
    let o = draftsim(&["check", "--seats", "greedy,tight", "--players", "3", "--rounds", "1", "--quiet"]);
    let said = stdout(&o);
    assert!(said.contains(" rounds (1 asked, rounded up to whole deals) checked, field greedy,tight,"), "{said}");
    let dir = scratch("check");
    let rules = dir.join("game.toml");
    std::fs::write(&rules, "mode = \"game\"\nstarting_stack = 20\nwild = [\"rank-K-with-face\", \"last-pick\"]\n")
        .unwrap();
    let o = draftsim(&["check", "--rules", rules.to_str().unwrap(), "--rounds", "2000", "--quiet"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let o = draftsim(&["check", "--rounds", "0"]);
    assert_eq!(o.status.code(), Some(2));
}

/// `list metrics` prints every declared measure, and each game's page in `docs/games/`
/// names them all.
#[test]
fn metrics_are_listed_and_documented_on_each_game_page() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/games");
    for game in draftsim::games::GAMES {
        let page = std::fs::read_to_string(docs.join(format!("{}.md", game.name)))
            .unwrap_or_else(|e| panic!("docs/games/{}.md: {e}", game.name));
        let o = draftsim(&["list", "metrics", "--game", game.name]);
        assert!(o.status.success(), "{}", stderr(&o));
        let (runner, _) = game.with_defaults().unwrap();
        let m = runner.measures();
        let names = m
            .measures
            .iter()
            .map(|x| x.column.clone())
            .chain(m.histograms.iter().map(|h| h.key.clone()))
            .chain([m.score.column.clone(), m.score.pair_column.clone()]);
        for name in names {
            assert!(stdout(&o).contains(&name), "{}: {name} not listed", game.name);
            assert!(page.contains(&format!("`{name}`")), "docs/games/{}.md does not document `{name}`", game.name);
        }
        // The health card's figures, metrics for tune and --require too, are listed with
        // their table; the standings' two only where the game has standings.
        let listed = |name: &str| stdout(&o).lines().any(|l| l.split_whitespace().take(2).eq([name, "health"]));
        for name in draftsim::sim::RATIO_FIGURES.iter().map(|f| f.name).chain(["skill_gap", "seat_advantage"]) {
            let expected = runner.has_standing() || !["lead_changes", "drama"].contains(&name);
            assert_eq!(listed(name), expected, "{}: {name}\n{}", game.name, stdout(&o));
        }
    }
}

/// The README stays a short guide, and every relative link in it and in `docs/` leads to
/// a file that exists.
#[test]
fn the_readme_is_a_short_guide_and_no_documentation_link_is_broken() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(readme.lines().count() <= 300, "README.md has {} lines; keep it at most 300", readme.lines().count());
    let mut pages = vec![root.join("README.md")];
    for dir in [root.join("docs"), root.join("docs/games")] {
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_some_and(|x| x == "md") {
                pages.push(path);
            }
        }
    }
    let mut checked = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let words = ["session", "shared/rules"];
        for w in words {
            assert!(!text.contains(w), "{} mentions {w:?}", page.display());
        }
        // Markdown links: ](target), relative ones only, anchors dropped.
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let target = &rest[..rest.find(')').unwrap()];
            if target.contains("://") || target.starts_with('#') {
                continue;
            }
            let file = target.split('#').next().unwrap();
            let path = page.parent().unwrap().join(file);
            assert!(path.exists(), "{}: broken link to {target}", page.display());
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} links checked");
}

/// The `measures` table holds every measure with its interval, by strategy, by seat and
/// for the run, and its figures equal the summary's.
#[test]
fn the_measures_table_reads_back_and_matches_the_summary() {
    let dir = scratch("measures");
    let out = dir.join("m");
    // Twelve seatings a deal: 4,008 rounds are whole deals.
    let o = draftsim(&["run", "--game", "sevens", "--rounds", "4008", "--quiet", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Sevens' unit is a hand: the summary says what its `rounds` column counts.
    let said =
        "(the rounds column counts hands, and chips_per_round is per hand; the columns keep these names in every game)";
    assert!(stdout(&o).contains(said), "{}", stdout(&o));
    // A strategy at two seats counts each hand twice, and is told so.
    let o = draftsim(&["run", "--game", "kuhn-poker", "--rounds", "30", "--seats", "tight,tight,random", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let said = "(the rounds column counts seat-hands (a hand once for each seat the strategy holds), and chips_per_round is per hand;";
    assert!(stdout(&o).contains(said), "{}", stdout(&o));
    let measures = std::fs::read_to_string(out.join("measures.csv")).unwrap();
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let header: Vec<&str> = summary.lines().next().unwrap().split(',').collect();
    let exact: Vec<&str> = summary.lines().nth(1).unwrap().split(',').collect();
    let col = header.iter().position(|h| *h == "mean_cards_traded").unwrap();
    let row = measures
        .lines()
        .find(|l| l.starts_with(&format!("strategy,{},mean_cards_traded,", exact[0])))
        .expect("a row per strategy and measure");
    let fields: Vec<&str> = row.split(',').collect();
    assert_eq!(fields[4], exact[col], "the same value as the summary");
    assert!(fields[5].parse::<f64>().unwrap() < fields[4].parse::<f64>().unwrap(), "an interval around it");
    assert!(measures.lines().any(|l| l.starts_with("seat,0,showdown_rate,")));
    assert!(measures.lines().any(|l| l.starts_with("run,all,mean_length,4008,1,")), "{measures}");
}

#[test]
fn the_summary_is_printed_as_an_aligned_table() {
    let o = draftsim(&["run", "--rounds", "2000", "--quiet", "--seats", "tight,random"]);
    assert!(o.status.success());
    let text = stdout(&o);
    let header = text.lines().next().unwrap();
    assert!(header.starts_with("strategy") && header.contains("win_rate_lo"), "{header}");
    assert!(text.lines().nth(1).unwrap().starts_with("tight"));
    assert!(stderr(&o).is_empty(), "--quiet: nothing on stderr");
    let o = draftsim(&["run", "--rounds", "2000", "--seats", "tight,random"]);
    assert!(stderr(&o).contains("seed 20261121"), "the default seed is printed");
}

/// Each bad input: exit code 2, one line on stderr, no output folder.
#[test]
fn bad_input_is_one_line_exit_2_and_writes_nothing() {
    let dir = scratch("bad");
    let rules = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let unknown_key = rules("unknown.toml", "playerz = 4\n");
    // Of two unknown keys, the first in the file is named (not the first alphabetically).
    let two_typos = rules("typos.toml", "wildz = 1\nantee = 2\n");
    let valid = rules("valid.toml", "ante = 2\n");
    let fourth = rules("fourth.toml", "# a comment\nplayers = 4\nante = 1\nnosuch = 1\n");
    let malformed = rules("malformed.toml", "players = [\n");
    let poker = rules("poker.toml", "victory_target = 4\n");
    let shared = rules("shared.toml", "ante = 2\nraise_cap = 2\n");
    // A strategy of the user's own folder under strategies/ is not taken for a game's.
    std::fs::create_dir_all(dir.join("strategies/mine")).unwrap();
    let mine = rules("strategies/mine/odd.toml", "[trade]\nmodule = \"tight\"\n");
    let mine_seats = format!("{mine},greedy");
    // A preset saved from one game and seated in another, wherever the file lies.
    let saved = rules("my-hate.toml", &std::fs::read_to_string("strategies/seven-card-draft/hate.toml").unwrap());
    let saved_seats = format!("{saved},tight");
    // Values of the wrong shape are answered in a user's words, not the parser's.
    let wild = rules("wild.toml", "wild = 3\n");
    let sizes = rules("sizes.toml", "bet_sizes = 2\n");
    let flag = rules("flag.toml", "flush_beats_full_house = \"yes\"\n");
    // A folder of earlier results (an empty one is written into).
    let existing = dir.join("exists");
    let o = draftsim(&["run", "--rounds", "24", "--quiet", "--out", existing.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.join("never");
    let out_s = out.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["run", "--game", "chess"], "unknown game 'chess'"),
        (vec!["run", "--seats", "greedy,nonesuch,random,random"], "unknown strategy 'nonesuch'"),
        (vec!["run", "--seats", &mine_seats], "odd.toml: line 1, in [trade]: unknown field `trade`"),
        (
            vec!["run", "--seats", "greedy,hat,random,random"],
            "unknown strategy 'hat' for seven-card-draft (did you mean 'hate'?)",
        ),
        (
            vec!["run", "--seats", "nonexist.toml,greedy"],
            "strategy file nonexist.toml: no such file; give a path to a .toml file or a preset name",
        ),
        (
            vec!["run", "--seats", "strategies/sevens/tight.toml,greedy"],
            "strategies/sevens/tight.toml: a strategy of sevens, not of seven-card-draft (line 2, in [trade]: unknown field `trade`",
        ),
        (
            vec!["run", "--game", "sevens", "--seats", &saved_seats],
            "my-hate.toml: a strategy of seven-card-draft, not of sevens (",
        ),
        (vec!["run", "--rules", &unknown_key], "did you mean `players`?"),
        (vec!["run", "--rules", &two_typos], "typos.toml: line 1, wildz: unknown field `wildz`"),
        (vec!["run", "--rules", &poker], "the file reads as seven-poker's rules: add --game seven-poker"),
        // Every command that reads a rules file names it and the game it reads as.
        (
            vec!["train", "--rules", &poker, "--out", out_s],
            "the file reads as seven-poker's rules: add --game seven-poker",
        ),
        (vec!["exploitability", "--rules", &poker], "the file reads as seven-poker's rules: add --game seven-poker"),
        (vec!["ladder", "--rules", &poker], "the file reads as seven-poker's rules: add --game seven-poker"),
        // A file that fits several other games names them all.
        (
            vec!["train", "--game", "kuhn-poker", "--rules", &shared, "--out", out_s],
            "the file reads as the rules of seven-card-draft or sevens: add the one it is for (--game seven-card-draft or --game sevens)",
        ),
        (
            vec!["tune", "--rules", &poker, "--param", "ante=1..2", "--minimize", "seat_advantage"],
            "poker.toml: line 1, victory_target: unknown field `victory_target`",
        ),
        (
            vec!["exploit", "--rules", &poker, "--preset", "tight", "--field", "greedy", "--param", "bet.p=0..1"],
            "the file reads as seven-poker's rules: add --game seven-poker",
        ),
        (
            vec!["run", "--seats", "search{iterations=-5},random", "--players", "2"],
            "iterations: invalid value: integer `-5`; give at least 1 iteration per decision",
        ),
        (vec!["run", "--rules", &malformed], "malformed.toml"),
        (
            vec!["run", "--rules", &wild],
            "wild: not a value this key takes: `draftsim list rules seven-card-draft` lists",
        ),
        (vec!["run", "--rules", &sizes], "bet_sizes: invalid type: integer `2`; give a list in brackets"),
        (vec!["run", "--rules", &flag], "flush_beats_full_house: invalid type: string \"yes\"; give true or false"),
        (vec!["run", "--players", "9"], "players = 9"),
        (vec!["run", "--rounds", "0"], "--rounds 0"),
        (vec!["run", "--out", existing.to_str().unwrap()], "--force"),
        (vec!["run", "--out", "/proc/draftsim/out"], "cannot write"),
        (vec!["run", "--format", "xlsx"], "--format 'xlsx'"),
        (vec!["run", "--shard", "4/4"], "--shard '4/4'"),
        // A negative index is read as the value, not as a flag.
        (vec!["run", "--shard", "-1/3"], "--shard '-1/3'"),
        (vec!["ladder", "--shard", "-1/3"], "--shard '-1/3'"),
        (vec!["run", "--shard", "--no-rotate"], "--shard: give i/n before --no-rotate"),
        (vec!["run", "--players", "3", "--seats", "greedy,greedy"], "list each strategy once"),
        (
            vec!["sweep", "--set", "players=4,6", "--seats", "greedy,greedy", "--rounds", "100", "--out", out_s],
            "greedy is listed twice",
        ),
        (vec!["hand", "As", "Kd", "Qh"], "5 to 7 cards"),
        (vec!["hand", "As", "Kd", "Qh", "Jc", "Xx"], "'Xx'"),
        (vec!["hand", "As", "As", "Qh", "Jc", "Tc"], "duplicate card 'As'"),
        (vec!["hand", "As", "Kd", "Qh", "Jc", "Tc", "--deck", "tarot"], "unknown deck 'tarot'"),
        (vec!["hand", "As", "Kd", "Qh", "Jc", "Tc", "--wild", "jokers"], "unknown wild rule 'jokers'"),
        (vec!["hand", "As", "Kd", "Qh", "Jc", "2c", "--deck", "short-36"], "'2c' is not in the short-36 deck"),
        (
            vec!["compare", "--strategies", "greedy,random,greedy", "--rounds", "100", "--out", out_s],
            "greedy is named twice",
        ),
        (vec!["run", "--seats", "tight{bet.fold_below=[1,},greedy"], "a bracket is not closed"),
        // A module without parameters takes none: a typo is not played as the module.
        (vec!["run", "--seats", "tight{draft.nosuch=1},greedy"], "unknown field `nosuch`"),
        (vec!["run", "--game", "sevens", "--seats", "exact{trade.x=1},tight"], "unknown field `x`"),
        // The player count of a study: in the game's own range, a whole number, and never
        // a panic at zero.
        (vec!["sweep", "--players", "0", "--set", "ante=1,2", "--rounds", "24", "--out", out_s], "players = 0"),
        (vec!["sensitivity", "--players", "0", "--rounds", "24", "--out", out_s], "players = 0"),
        (
            vec![
                "sweep",
                "--game",
                "kuhn-poker",
                "--players",
                "9",
                "--set",
                "ante=1,2",
                "--rounds",
                "24",
                "--out",
                out_s,
            ],
            "players = 9: give 2 to 3 players with this deck of 3 cards (4 with more ranks or suits)",
        ),
        (vec!["sweep", "--set", "players=abc", "--rounds", "24", "--out", out_s], "give a whole number"),
        (vec!["sweep", "--set", "players=3,3", "--rounds", "24", "--out", out_s], "3 is given twice"),
        // A rules file's error names its own line in every study.
        (vec!["sweep", "--rules", &fourth, "--set", "ante=1,2", "--rounds", "24", "--out", out_s], "line 4, nosuch"),
        (vec!["sensitivity", "--rules", &fourth, "--rounds", "24", "--out", out_s], "line 4, nosuch"),
        (vec!["versus", &fourth, "defaults", "--rounds", "24", "--out", out_s], "line 4, nosuch"),
        (vec!["versus", &valid, "defaults", "--players", "0", "--rounds", "24", "--out", out_s], "players = 0"),
    ];
    for (mut args, needle) in cases {
        if args[0] == "run" {
            if !args.contains(&"--rounds") {
                args.extend(["--rounds", "100"]);
            }
            args.push("--quiet");
            if !args.contains(&"--out") {
                args.extend(["--out", out_s]);
            }
        }
        let o = draftsim(&args);
        let err = stderr(&o);
        let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(lines.len(), 1, "{args:?}: {err}");
        assert!(lines[0].contains(needle), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} wrote output");
    }
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "staging folders left behind");
}

/// `--out` naming a file is refused, `--force` or not, and the file is kept; `report
/// --require` refuses a figure no folder holds.
#[test]
fn out_never_replaces_a_file_and_report_limits_name_real_figures() {
    let dir = scratch("out-file");
    let file = dir.join("results.txt");
    std::fs::write(&file, "data").unwrap();
    for force in [false, true] {
        let mut args = vec!["run", "--rounds", "24", "--quiet", "--out", file.to_str().unwrap()];
        if force {
            args.push("--force");
        }
        let o = draftsim(&args);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("a file of that name exists"), "{}", stderr(&o));
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "data");
    }
    let run = dir.join("run");
    let o = draftsim(&["run", "--rounds", "24", "--quiet", "--out", run.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report = dir.join("report");
    let (run_s, report_s) = (run.to_str().unwrap(), report.to_str().unwrap());
    let args = |limit| vec!["report", run_s, "--require", limit, "--out", report_s, "--force"];
    let o = draftsim(&args("nosuch<=1"));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("nosuch is not a figure") && stderr(&o).contains("timeouts"), "{}", stderr(&o));
    assert!(!report.exists());
    let o = draftsim(&args("timeouts<=0.01"));
    assert!(o.status.success(), "{}", stderr(&o));
    // A folder named twice would be drawn twice.
    let o = draftsim(&["report", run_s, run_s, "--out", report_s, "--force"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("named twice"), "{}", stderr(&o));
    // A table that will not read is bad input too.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::write(empty.join("summary.csv"), "").unwrap();
    let o = draftsim(&["report", empty.to_str().unwrap(), "--out", report_s, "--force"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("summary.csv") && stderr(&o).lines().count() == 1, "{}", stderr(&o));
    // Nor a damaged record of the run, which names the folder's game.
    std::fs::write(run.join("run.json"), "{ not json").unwrap();
    let o = draftsim(&["report", run_s, "--out", report_s, "--force"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("run.json: not the record draftsim writes"), "{}", stderr(&o));
}

#[test]
fn force_replaces_an_existing_folder() {
    let dir = scratch("force");
    let out = dir.join("o");
    // An earlier run's folder is replaced whole; with a file added since, it is kept.
    let o = draftsim(&["run", "--rounds", "50", "--quiet", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let first = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let o = draftsim(&["run", "--rounds", "500", "--quiet", "--out", out.to_str().unwrap(), "--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_ne!(std::fs::read_to_string(out.join("summary.csv")).unwrap(), first);
    std::fs::write(out.join("old.txt"), "old").unwrap();
    let o = draftsim(&["run", "--rounds", "50", "--quiet", "--out", out.to_str().unwrap(), "--force"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(out.join("summary.csv").exists() && out.join("old.txt").exists());
}

#[test]
fn hand_prints_category_cards_and_wilds() {
    let o = draftsim(&["hand", "As", "Kd", "2s", "Jh", "Th", "--wild", "deuces"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("category: straight") && text.contains("2s as Q"), "{text}");
    let o = draftsim(&["hand", "Ah", "Kh", "Qh", "Jh", "7c", "2d", "9s", "--wild", "last-pick", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["category"], "straight-flush");
    assert_eq!(json["cards"].as_array().unwrap().len(), 5);
    assert_eq!(json["wild"][0]["card"], "9s");
    let o = draftsim(&["hand", "9c", "7h", "Ac", "6c", "8c", "--deck", "short-36", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["category"], "straight", "A-6-7-8-9 is the short deck's wheel");
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    // A wild rank the deck lacks is warned of, as in a rules file.
    let o = draftsim(&["hand", "9c", "7h", "Ac", "6c", "8c", "--deck", "short-36", "--wild", "deuces"]);
    assert!(o.status.success() && stderr(&o).contains("warning: wild: 2s wild"), "{}", stderr(&o));
}

#[test]
fn lists_and_completions() {
    let o = draftsim(&["list", "strategies"]);
    let text = stdout(&o);
    for preset in ["random", "greedy", "hate", "tight", "loose-aggressive", "wild-hunter"] {
        assert!(text.lines().any(|l| l.trim_start().starts_with(preset)), "{preset} missing:\n{text}");
    }
    // Within a game the descriptions line up, past the longest preset name.
    let block: Vec<&str> =
        text.lines().skip_while(|l| *l != "seven-card-draft:").skip(1).take_while(|l| l.starts_with("  ")).collect();
    let starts: Vec<usize> = block
        .iter()
        .map(|l| {
            let name_end = 2 + l[2..].find(' ').unwrap();
            name_end + l[name_end..].find(|c| c != ' ').unwrap()
        })
        .collect();
    assert!(starts.len() > 10 && starts.iter().all(|&c| c == starts[0]), "{block:#?}");
    let o = draftsim(&["list", "rules", "seven-card-draft"]);
    assert!(stdout(&o).contains("raise_cap") && stdout(&o).contains("[3]"), "{}", stdout(&o));
    let o = draftsim(&["list", "games"]);
    assert!(stdout(&o).starts_with("seven-card-draft"));
    // The descriptions start in one column, past the longest name.
    let starts: Vec<usize> = stdout(&o)
        .lines()
        .map(|l| l.find("  ").unwrap() + l[l.find("  ").unwrap()..].find(|c| c != ' ').unwrap())
        .collect();
    assert!(starts.len() >= 7 && starts.iter().all(|&c| c == starts[0]), "{}", stdout(&o));
    // Bare, `list` lists the games and says what else it lists.
    let bare = draftsim(&["list"]);
    assert!(bare.status.success() && stdout(&bare).starts_with(&stdout(&o)), "{}", stderr(&bare));
    assert!(stdout(&bare).contains("list strategies [GAME], list rules [GAME]"), "{}", stdout(&bare));
    let o = draftsim(&["completions", "bash"]);
    assert!(o.status.success() && stdout(&o).contains("draftsim"));
    // A shell it has no script for: one line that lists those it has.
    let o = draftsim(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).trim().lines().count() == 1 && stderr(&o).contains("use one of bash, elvish, fish"),
        "{}",
        stderr(&o)
    );
    // A preset's TOML, shown, is a preset file that plays as the preset does.
    let dir = scratch("show");
    let shown = dir.join("my-greedy.toml");
    let o = draftsim(&["list", "strategies", "--game", "sevens", "--show", "greedy"]);
    assert!(o.status.success() && stdout(&o).contains("[bet]"), "{}", stderr(&o));
    std::fs::write(&shown, stdout(&o)).unwrap();
    let play = |seat: &str| {
        let o =
            draftsim(&["run", "--game", "sevens", "--seats", &format!("{seat},random"), "--rounds", "400", "--quiet"]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o).lines().nth(1).unwrap_or_default().split_whitespace().skip(1).collect::<Vec<_>>().join(" ")
    };
    assert_eq!(play(shown.to_str().unwrap()), play("greedy"), "the shown preset plays as greedy");
    // It lists every parameter as played, those the preset leaves to their defaults too; a
    // derived preset as played, and a file as written, each with the list.
    let scd = |show: &str| draftsim(&["list", "strategies", "--game", "seven-card-draft", "--show", show]);
    let tight = stdout(&scd("tight"));
    let listed = &tight[tight.find("# Every parameter as tight plays it").expect(&tight)..];
    assert!(listed.contains("# bluff = 0.0") && listed.contains("# respect = "), "{tight}");
    let derived = scd("tight{bet.bluff=0.25}");
    assert!(derived.status.success() && stdout(&derived).contains("\nbluff = 0.25\n"), "{}", stderr(&derived));
    let file = dir.join("my-tight.toml");
    std::fs::write(&file, &tight).unwrap();
    let o = scd(file.to_str().unwrap());
    assert!(o.status.success() && stdout(&o).contains("\n# bluff = 0.0\n"), "{}", stderr(&o));
    assert!(stdout(&o).starts_with(&tight[..tight.find("\n\n# Every").unwrap()]), "{}", stdout(&o));
    assert_eq!(stdout(&o).matches("# Every parameter as ").count(), 1, "{}", stdout(&o));
    // A derived preset is shown only if a seat can play it, and sets each key once; the
    // shipped heads-up policy shows though the default table is larger.
    for (show, says) in [("tight{raise_at=0.5}", "raise_at"), ("search{iterations=200;iterations=300}", "set twice")] {
        let o = draftsim(&["list", "strategies", "--game", "kuhn-poker", "--show", show]);
        assert_eq!(o.status.code(), Some(2), "{show}: {}", stdout(&o));
        assert!(stderr(&o).contains(says) && stdout(&o).is_empty(), "{show}: {}", stderr(&o));
    }
    let o = draftsim(&["list", "strategies", "--game", "sevens", "--show", "cfr-heads-up"]);
    assert!(o.status.success() && stdout(&o).contains("policy"), "{}", stderr(&o));
    // Without a game, the default game's preset, as every command defaults to it ...
    let o = draftsim(&["list", "strategies", "--show", "hate"]);
    let scd = draftsim(&["list", "strategies", "--game", "seven-card-draft", "--show", "hate"]);
    assert!(o.status.success() && o.stdout == scd.stdout, "{}", stderr(&o));
    // ... and for a preset it has not, the example it gives is a game that has it.
    let o = draftsim(&["list", "strategies", "--show", "exact"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--game sevens --show exact"), "{}", stderr(&o));
    // A preset no game has is called unknown, with its near names.
    let o = draftsim(&["list", "strategies", "--show", "tihgt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no game has a preset of that name (did you mean 'tight'?)"), "{}", stderr(&o));
    // A key of a preset's section written bare is told its section.
    let o = draftsim(&["run", "--seats", "hate{weight=0.5},greedy", "--rounds", "10"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("weight is a key of [draft]: write hate{draft.weight=0.5}"), "{}", stderr(&o));
    for command in [
        &[][..],
        &["run"],
        &["replay"],
        &["merge"],
        &["versus"],
        &["compare"],
        &["sweep"],
        &["report"],
        &["hand"],
        &["list"],
        &["list", "games"],
        &["list", "strategies"],
        &["list", "rules"],
        &["list", "metrics"],
        &["check"],
        &["completions"],
    ] {
        let o = draftsim(&[command, &["--help"]].concat());
        let last = stdout(&o).trim_end().lines().last().unwrap_or_default().to_string();
        assert!(last.trim_start().starts_with("draftsim "), "{command:?} --help ends with {last:?}, not an example");
    }
}

#[test]
fn an_interrupted_run_leaves_no_table() {
    let dir = scratch("interrupt");
    let out = dir.join("never");
    let args = ["run", "--rounds", "1000000000", "--quiet", "--out", out.to_str().unwrap()];
    let o = interrupt(&args, std::time::Duration::from_millis(1500));
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(stderr(&o).contains("interrupted"));
    assert!(!out.exists());
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "no staging folder left");
}

/// `--quiet` and `--threads` work alike on every command that plays rounds, and the
/// results do not depend on the thread count.
#[test]
fn every_command_that_plays_takes_every_shared_flag() {
    let dir = scratch("shared-flags");
    let bad_rules = dir.join("bad.toml");
    std::fs::write(&bad_rules, "max_turns = 0\n").unwrap();
    let good_rules = dir.join("good.toml");
    std::fs::write(&good_rules, "max_turns = 250\n").unwrap();
    let game = ["--game", "winston-crazier-eights"];
    // Each command with what it needs besides the shared flags, and the shared flags it takes.
    let commands: [(&[&str], &[&str]); 7] = [
        (&["run"], &["players", "seats", "rounds", "out", "threads"]),
        (&["check"], &["players", "seats", "rounds", "threads"]),
        (&["replay", "--round", "3"], &["players", "seats"]),
        (&["compare", "--strategies", "value,first"], &["players", "rounds", "out", "threads"]),
        (&["sweep", "--set", "games=1,3"], &["players", "seats", "rounds", "out", "threads"]),
        (&["tune", "--param", "removed=0..9", "--minimize", "length_mean"], &["seats", "rounds", "out", "threads"]),
        (
            &["exploit", "--preset", "value", "--field", "first", "--param", "draft.start=1.0..4.0"],
            &["players", "rounds", "out", "threads"],
        ),
    ];
    let play = |base: &[&str], extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend(game);
        if base[0] != "replay" {
            args.extend(["--rounds", "1000"]);
        }
        args.extend(extra);
        draftsim(&args)
    };
    let refused = |o: &Output, what: &str, base: &[&str]| {
        assert_eq!(o.status.code(), Some(2), "{base:?} {what}: {}", stderr(o));
        let err = stderr(o);
        assert_eq!(err.trim().lines().count(), 1, "{base:?} {what}: one line: {err}");
    };
    for (i, (base, takes)) in commands.iter().enumerate() {
        // --game and --rules: read by every command (bad rules are refused, good ones applied).
        let o = play(base, &["--rules", bad_rules.to_str().unwrap()]);
        refused(&o, "--rules", base);
        assert!(stderr(&o).contains("max_turns"), "{}", stderr(&o));
        // --quiet (not for replay, which prints only the result): nothing on stderr.
        let quiet: &[&str] = if base[0] == "replay" { &[] } else { &["--quiet"] };
        let o = play(base, &[&["--rules", good_rules.to_str().unwrap()], quiet].concat());
        assert!(o.status.success(), "{base:?}: {}", stderr(&o));
        assert!(stderr(&o).is_empty() && !stdout(&o).is_empty(), "{base:?} --quiet: {}", stderr(&o));
        // --seed: the same seed gives the same result, another seed another.
        let seeded = |seed: &str| stdout(&play(base, &[quiet, &["--seed", seed]].concat()));
        assert_eq!(seeded("5"), seeded("5"), "{base:?} --seed");
        assert_ne!(seeded("5"), seeded("6"), "{base:?} --seed");
        if takes.contains(&"players") {
            refused(&play(base, &["--players", "3"]), "--players", base);
        }
        if takes.contains(&"seats") {
            let o = play(base, &["--seats", "value,nope"]);
            refused(&o, "--seats", base);
            assert!(stderr(&o).contains("'nope'"), "{}", stderr(&o));
        }
        if takes.contains(&"rounds") {
            let mut args = base.to_vec();
            args.extend(game);
            args.extend(["--rounds", "0"]);
            refused(&draftsim(&args), "--rounds 0", base);
        }
        if takes.contains(&"threads") {
            let one = stdout(&play(base, &["--quiet", "--threads", "1"]));
            assert_eq!(one, stdout(&play(base, &["--quiet", "--threads", "2"])), "{base:?} --threads");
        }
        if takes.contains(&"out") {
            // --out and --format write the tables; an existing folder needs --force.
            let out = dir.join(format!("out-{i}"));
            let o = play(base, &["--quiet", "--out", out.to_str().unwrap(), "--format", "parquet"]);
            assert!(o.status.success(), "{base:?}: {}", stderr(&o));
            let names: Vec<String> = files(&out).into_iter().map(|f| f.0).collect();
            assert!(names.iter().any(|n| n.ends_with(".parquet")), "{base:?} --format: {names:?}");
            assert!(!names.iter().any(|n| n.ends_with(".csv")), "{base:?} --format: {names:?}");
            refused(&play(base, &["--out", out.to_str().unwrap()]), "--out without --force", base);
            let o = play(base, &["--quiet", "--out", out.to_str().unwrap(), "--force"]);
            assert!(o.status.success(), "{base:?} --force: {}", stderr(&o));
            assert!(files(&out).iter().any(|f| f.0.ends_with(".csv")), "{base:?} --force replaced the folder");
        }
    }
    // merge takes --out, --force, --format and --quiet.
    let shards: Vec<String> = (0..2)
        .map(|i| {
            let d = dir.join(format!("shard-{i}"));
            let o = play(&["run"], &["--quiet", "--shard", &format!("{i}/2"), "--out", d.to_str().unwrap()]);
            assert!(o.status.success(), "{}", stderr(&o));
            d.to_str().unwrap().to_string()
        })
        .collect();
    let merged = dir.join("merged");
    let merge = |extra: &[&str]| {
        let mut args = vec!["merge", &shards[0], &shards[1]];
        args.extend(extra);
        draftsim(&args)
    };
    let o = merge(&["--quiet", "--out", merged.to_str().unwrap(), "--format", "parquet"]);
    assert!(o.status.success() && stderr(&o).is_empty(), "{}", stderr(&o));
    assert!(files(&merged).iter().any(|f| f.0 == "summary.parquet"));
    refused(&merge(&["--out", merged.to_str().unwrap()]), "merge --out without --force", &["merge"]);
    assert!(merge(&["--out", merged.to_str().unwrap(), "--force"]).status.success());
    refused(&merge(&[]), "merge without --out", &["merge"]);
}

/// A command that cannot run without --out says so in its help.
#[test]
fn help_marks_a_required_out() {
    for command in ["train", "merge"] {
        let help = stdout(&draftsim(&[command, "--help"]));
        let line = help.lines().find(|l| l.trim_start().starts_with("--out")).unwrap_or_default();
        assert!(line.contains("--out <DIR>") && line.contains("Required"), "{command} --help: {line:?}");
    }
}

/// A shared flag's help speaks of the command it is shown in: `--format`'s default names
/// the shards only under merge, and train's `--threads` says what runs in parallel.
#[test]
fn shared_flags_help_speaks_of_its_own_command() {
    let line = |command: &str, flag: &str| -> String {
        let help = stdout(&draftsim(&[command, "--help"]));
        let at = help.lines().position(|l| l.trim_start().starts_with(flag)).unwrap_or_else(|| panic!("{flag}"));
        // The flag's line and its wrapped continuation, up to the next flag.
        let rest = help.lines().skip(at + 1).take_while(|l| !l.trim_start().starts_with('-'));
        std::iter::once(help.lines().nth(at).unwrap()).chain(rest).collect::<Vec<_>>().join(" ")
    };
    for command in ["run", "train", "exploitability", "compare"] {
        let format = line(command, "--format");
        assert!(!format.contains("merge") && !format.contains("shards"), "{command} --help: {format}");
    }
    assert!(line("merge", "--format").contains("the shards' format"));
    let threads = line("train", "--threads");
    assert!(threads.contains("--batch") && threads.contains("one thread"), "train --help: {threads}");
}

/// Every command lists the shared flags in one order, and NO_COLOR turns colour off.
#[test]
fn help_lists_shared_flags_in_one_order_and_no_color_is_respected() {
    let order = [
        "--game",
        "--rules",
        "--players",
        "--seats",
        "--rounds",
        "--seed",
        "--out",
        "--force",
        "--format",
        "--threads",
        "--quiet",
    ];
    for command in ["run", "check", "replay", "versus", "compare", "sweep", "tune", "exploit", "merge"] {
        let help = stdout(&draftsim(&[command, "--help"]));
        let listed: Vec<&str> = help
            .lines()
            .filter(|l| l.trim_start().starts_with('-'))
            .filter_map(|l| l.trim_start().split([' ', ',']).find(|w| w.starts_with("--")))
            .filter(|f| order.contains(f))
            .collect();
        let expected: Vec<&str> = order.iter().copied().filter(|f| listed.contains(f)).collect();
        assert_eq!(listed, expected, "{command} --help lists the shared flags out of order");
        assert!(help.contains("Example:"), "{command} --help ends with an example");
    }
    let colour = |no_color: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_draftsim"))
            .args(["run", "--bogus"])
            .env("CLICOLOR_FORCE", "1")
            .env("NO_COLOR", no_color)
            .output()
            .unwrap();
        stderr(&o).contains('\x1b')
    };
    assert!(colour(""), "CLICOLOR_FORCE colours clap's usage errors");
    assert!(!colour("1"), "NO_COLOR wins");
}

/// A game through every command: shards merge to the unsharded tables, replays tell the
/// unit the same way twice, compare, sweep and report run; `tables` are written.
fn through_every_command(game: &str, tables: &[&str], replay_parts: &[&str], strategies: &str, set: &str) -> String {
    let dir = scratch(game);
    let base = ["run", "--game", game, "--rounds", "6000", "--seed", "3", "--quiet"];
    let whole = dir.join("whole");
    let o = draftsim(&[&base[..], &["--out", whole.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let names: Vec<String> = files(&whole).into_iter().map(|f| f.0).collect();
    for table in tables.iter().chain(&["summary.csv", "seats.csv", "measures.csv"]) {
        assert!(names.iter().any(|n| n == table), "{game}: {table} missing: {names:?}");
    }
    let mut shard_dirs = Vec::new();
    for i in 0..3 {
        let d = dir.join(format!("shard-{i}"));
        let o = draftsim(&[&base[..], &["--shard", &format!("{i}/3"), "--out", d.to_str().unwrap()]].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        shard_dirs.push(d.to_str().unwrap().to_string());
    }
    let merged = dir.join("merged");
    let mut args = vec!["merge"];
    args.extend(shard_dirs.iter().map(String::as_str));
    args.extend(["--out", merged.to_str().unwrap()]);
    let o = draftsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(files(&merged), files(&whole), "{game}: merged shards differ from the whole run");

    let replay = |round: &str| draftsim(&["replay", "--game", game, "--seed", "3", "--round", round]);
    let (a, b) = (replay("5"), replay("5"));
    assert!(a.status.success(), "{}", stderr(&a));
    assert_eq!(stdout(&a), stdout(&b));
    for part in replay_parts {
        assert!(stdout(&a).contains(part), "missing {part:?} in\n{}", stdout(&a));
    }
    let study = dir.join("compare");
    let study_args = ["--game", game, "--rounds", "2000", "--quiet", "--out"];
    let o = draftsim(&[&["compare", "--strategies", strategies], &study_args[..], &[study.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let sweep = dir.join("sweep");
    let o = draftsim(&[&["sweep", "--set", set], &study_args[..], &[sweep.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let header = std::fs::read_to_string(sweep.join("sweep.csv")).unwrap();
    assert!(!header.contains("rarity_order"), "no ranked histogram, no rarity columns: {header}");
    let report = dir.join("report");
    let dirs = [whole.to_str().unwrap(), study.to_str().unwrap(), sweep.to_str().unwrap()];
    let o = draftsim(&[&["report"], &dirs[..], &["--out", report.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::read_to_string(report.join("report.md")).unwrap()
}

#[test]
fn winston_runs_shards_merges_replays_and_studies() {
    let md = through_every_command(
        "winston-crazier-eights",
        &["piles.csv", "colours.csv"],
        &["== Match ", "== Draft", "looks at pile 1", "builds 30 cards", "== Game 1", "discards", "== Result"],
        "value,first,random",
        "games=1,3",
    );
    assert!(md.contains("seat-matches") && md.contains("turns") && !md.contains("pots"), "{md}");
    let o = draftsim(&["run", "--game", "winston-crazier-eights", "--players", "3", "--rounds", "10"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("exactly 2 players"), "{}", stderr(&o));
    let o = draftsim(&["check", "--game", "winston-crazier-eights", "--rounds", "20000", "--quiet"]);
    assert!(o.status.success() && stdout(&o).contains("no invariant broken"), "{}", stdout(&o));
}

#[test]
fn live_draft_runs_shards_merges_replays_and_studies() {
    let md = through_every_command(
        "live-draft",
        &["opening_lands.csv"],
        &["== Game ", "== Library", "row:", "== Turn 1", "plays", "== Result"],
        "best-card,hate,random",
        "method=tableau,pipeline,rummy,blind",
    );
    assert!(md.contains("seat-games") && md.contains("opening"), "{md}");
    // Drawn games count half to each side: the win share and the points agree in sign.
    let dir = scratch("live-draft-draws");
    let out = dir.join("cmp");
    let o = draftsim(&[
        "compare",
        "--game",
        "live-draft",
        "--strategies",
        "best-card,cautious",
        "--rounds",
        "4000",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let matrix = std::fs::read_to_string(out.join("matrix.csv")).unwrap();
    for row in matrix.lines().skip(1) {
        let v: Vec<&str> = row.split(',').collect();
        let (share, points): (f64, f64) = (v[3].parse().unwrap(), v[6].parse().unwrap());
        assert!((share - 0.5) * points >= 0.0, "share {share} and points {points} disagree: {matrix}");
    }
    let o = draftsim(&["run", "--game", "live-draft", "--players", "5", "--rounds", "10"]);
    assert_eq!(o.status.code(), Some(2));
    let o = draftsim(&[
        "check",
        "--game",
        "live-draft",
        "--rules",
        "/dev/null",
        "--players",
        "4",
        "--rounds",
        "4000",
        "--quiet",
    ]);
    assert!(o.status.success() && stdout(&o).contains("no invariant broken"), "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn cards_table_and_report_section() {
    let dir = scratch("cards");
    let out = dir.join("run");
    let rules = dir.join("rules.toml");
    std::fs::write(&rules, "wild = \"deuces-with-face\"\n").unwrap();
    let o = draftsim(&[
        "run",
        "--rounds",
        "20000",
        "--seed",
        "5",
        "--rules",
        rules.to_str().unwrap(),
        "--cards",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(out.join("cards.csv")).unwrap();
    let header = text.lines().next().unwrap();
    for col in ["strategy", "level", "card", "seen", "taken", "take_rate_lo", "ata", "alsa", "win_share_in_hand_hi"] {
        assert!(header.split(',').any(|c| c == col), "{col} missing from {header}");
    }
    assert!(header.ends_with("in_hand_minus_passed,in_hand_minus_passed_lo,in_hand_minus_passed_hi"), "{header}");
    // 4 strategies x (52 cards + 13 ranks).
    assert_eq!(text.lines().count(), 1 + 4 * 65);
    assert!(text.lines().any(|l| l.starts_with("greedy,rank,2,")), "rank rows are written");
    let meta = std::fs::read_to_string(out.join("run.json")).unwrap();
    assert!(meta.contains("\"cards\": true"), "{meta}");
    let report = dir.join("report");
    let o = draftsim(&["report", out.to_str().unwrap(), "--out", report.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("## Which cards?") && md.contains("Rank correlation of pick order"), "{md}");
    assert!(md.contains("over-drafted") && md.contains("| 2 |"), "{md}");
    assert!(report.join("1-cards-1.svg").exists());
    // A game without card identities, and --cards without --out, are refused.
    let o =
        draftsim(&["run", "--game", "sevens", "--cards", "--rounds", "100", "--out", dir.join("s").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--cards"), "{}", stderr(&o));
    assert!(!dir.join("s").exists());
    let o = draftsim(&["run", "--cards", "--rounds", "100"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // In game mode a unit spans many drafts: card analytics are per round only.
    std::fs::write(&rules, "mode = \"game\"\n").unwrap();
    let game = dir.join("game");
    let o = draftsim(&[
        "run",
        "--rules",
        rules.to_str().unwrap(),
        "--cards",
        "--rounds",
        "10",
        "--out",
        game.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!game.exists());
}

#[test]
fn printing_into_a_closed_pipe_ends_quietly() {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_draftsim"))
        .args(["list", "games"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end before the command prints, as `| head` does once satisfied.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_ne!(out.status.code(), Some(101), "it panicked: {}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
}

/// Its notes and warnings written into a closed pipe (`2>&1 | head -1`), a study still
/// writes its tables and ends as a success.
#[test]
fn a_closed_pipe_costs_no_tables() {
    use std::process::Stdio;
    let dir = scratch("closed-pipe");
    let rules = dir.join("cap.toml");
    std::fs::write(&rules, "raise_cap = 2\n").unwrap();
    let out = dir.join("v");
    let mut child = Command::new(env!("CARGO_BIN_EXE_draftsim"))
        .args(["versus", "--game", "sevens", "defaults", rules.to_str().unwrap(), "--rounds", "100"])
        .args(["--threads", "1", "--out", out.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    assert!(out.join("versus.csv").is_file());
}

#[test]
fn calibrate_writes_the_same_table_for_any_thread_count_and_refuses_games_without_an_estimate() {
    let dir = scratch("calibrate");
    let mut written = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.join(format!("t{threads}"));
        let o = draftsim(&[
            "calibrate",
            "--seats",
            "greedy",
            "--rounds",
            "5000",
            "--seed",
            "3",
            "--threads",
            threads,
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains("mean_finished") && stdout(&o).contains("won_lo"), "{}", stdout(&o));
        assert!(stdout(&o).contains("Own hand: ") && stdout(&o).contains("Against the field: "), "{}", stdout(&o));
        written.push(std::fs::read(out.join("calibration.csv")).unwrap());
        written.push(std::fs::read(out.join("field_calibration.csv")).unwrap());
    }
    assert_eq!(written[0], written[2], "the table depends on the thread count");
    assert_eq!(written[1], written[3], "the field table depends on the thread count");
    // Against the whole field (three opponents) the four seats' shares make one pot at
    // every check: a quarter each, on average exactly.
    let field = String::from_utf8(written[1].clone()).unwrap();
    let header: Vec<&str> = field.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (pick, opponents, count, won) = (col("after_pick"), col("opponents"), col("estimates"), col("won"));
    let mut pot = [(0u64, 0f64); 8];
    for line in field.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if f[opponents] == "3" {
            let n = f[count].parse::<u64>().unwrap();
            let p = &mut pot[f[pick].parse::<usize>().unwrap()];
            p.0 += n;
            p.1 += n as f64 * f[won].parse::<f64>().unwrap();
        }
    }
    for (p, &(n, won)) in pot.iter().enumerate().skip(1) {
        assert_eq!(n, 20_000, "after pick {p}");
        assert!((won / n as f64 - 0.25).abs() < 1e-6, "after pick {p}: {}", won / n as f64);
    }
    written.truncate(1);
    let text = String::from_utf8(written.remove(0)).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (pick, count) = (col("after_pick"), col("estimates"));
    // One strategy named: all four seats draft with it and estimate after each of 7 picks.
    let mut per_pick = [0u64; 8];
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        per_pick[f[pick].parse::<usize>().unwrap()] += f[count].parse::<u64>().unwrap();
    }
    assert_eq!(&per_pick[1..], &[20_000; 7], "{per_pick:?}");

    let refused = dir.join("sevens");
    let o = draftsim(&["calibrate", "--game", "sevens", "--rounds", "10", "--out", refused.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("seven-card-draft"), "{}", stderr(&o));
    assert!(!refused.exists(), "a refused command left a folder");
    // The game is refused as such before a strategy it lacks is named.
    let o = draftsim(&["calibrate", "--game", "seven-poker", "--seats", "tight", "--rounds", "10"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("only Seven Card Draft's strength estimates are calibrated"), "{}", stderr(&o));
    // Every seat drafts alike: a second strategy named is refused, not dropped unsaid.
    let o = draftsim(&["calibrate", "--seats", "greedy,tight", "--rounds", "10", "--out", refused.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("tight would be ignored") && stderr(&o).contains("--seats greedy"), "{}", stderr(&o));
    assert!(!refused.exists(), "a refused command left a folder");
    let o = draftsim(&["calibrate", "--seats", "greedy,greedy", "--rounds", "10", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A strategy that drafts at random is named as seated, not by its module.
    let o = draftsim(&["calibrate", "--seats", "greedy{draft.module=\"random\"}", "--rounds", "10"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("greedy{draft.module=\"random\"}: its draft module is random"), "{}", stderr(&o));
    // No strategy named: the first default seat is calibrated, and recorded at every seat.
    let unnamed = dir.join("unnamed");
    let o = draftsim(&["calibrate", "--rounds", "12", "--out", unnamed.to_str().unwrap()]);
    assert!(stderr(&o).contains("calibrating greedy's estimate"), "{}", stderr(&o));
    let study: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(unnamed.join("study.json")).unwrap()).unwrap();
    assert_eq!(study["seats"], serde_json::json!(["greedy", "greedy", "greedy", "greedy"]), "{study}");
    // The search bot searches its picks: it has no estimate to calibrate. A trained player
    // picks as its fallback preset (`cfr-heads-up`: hate), so calibrates as that preset.
    let o = draftsim(&["calibrate", "--seats", "search", "--rounds", "10", "--out", refused.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("searches its picks"), "{}", stderr(&o));
    assert!(!refused.exists(), "a refused command left a folder");
    let table = |seat: &str| {
        let o = draftsim(&["calibrate", "--seats", seat, "--players", "2", "--rounds", "200", "--quiet"]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let policy = table("cfr-heads-up");
    assert_eq!(policy, table("hate"));
    assert_ne!(policy, table("greedy"));
}

/// A format asked for without a folder to write it in: said, not silently ignored.
#[test]
fn a_format_without_out_is_warned_of() {
    let o = draftsim(&["run", "--rounds", "10", "--format", "parquet", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("--format parquet: tables are written only with --out DIR"), "{}", stderr(&o));
    let o = draftsim(&["run", "--rounds", "100", "--quiet"]);
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    // So is --force, which has no folder to replace.
    let o = draftsim(&["ladder", "--game", "sevens", "--budgets", "1,2", "--rounds", "24", "--quiet", "--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--force replaces an --out folder; without --out nothing is written"),
        "{}",
        stderr(&o)
    );
}

/// The hate-pick table's chips per round, with a hate pick and without, come with t
/// intervals over deal groups (a deal's seatings together, as the summary's are), which the
/// per-round table reproduces; in game mode, where a unit spans rounds, none over units.
#[test]
fn hate_pick_chips_carry_the_intervals_the_rounds_give() {
    let dir = scratch("hate-intervals");
    let out = dir.join("run");
    let seats = ["greedy", "hate", "tight", "random"];
    let o = draftsim(&[
        "run",
        "--seats",
        &seats.join(","),
        "--rounds",
        "1200",
        "--rounds-out",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = |name: &str| common::csv_rows(&out.join(name));
    let picks = table("picks.csv");
    let hate = picks.iter().find(|r| r["strategy"] == "hate").unwrap();
    // A deal is played under every balanced seating, in consecutive rounds.
    let lineup = draftsim::sim::Lineup::new(&seats.map(String::from));
    let per_deal = draftsim::sim::Seatings::new(&lineup, 4, true).unwrap().len() as u64;
    assert!(per_deal > 1);
    // hate's net chips and rounds in each deal group, split by whether a round held a hate pick.
    let groups = 1200u64.div_ceil(per_deal) as usize;
    let (mut with, mut without) = (vec![(0.0, 0.0); groups], vec![(0.0, 0.0); groups]);
    let mut counted = 0;
    for r in table("rounds.csv").iter().filter(|r| r["strategy"] == "hate") {
        let g = (r["round"].parse::<u64>().unwrap() / per_deal) as usize;
        let net: f64 = r["net"].parse().unwrap();
        let (sum, n) = if r["hate_rounds"] == "1" { &mut with[g] } else { &mut without[g] };
        *sum += net;
        *n += 1.0;
        counted += usize::from(r["hate_rounds"] == "1");
    }
    for (name, groups) in [("chips_per_round_with_hate", &with), ("chips_per_round_without_hate", &without)] {
        // The ratio of sums, its spread by the delta method between groups, t on the
        // effective groups.
        let n = groups.len() as f64;
        let (a, b): (f64, f64) = (groups.iter().map(|g| g.0).sum(), groups.iter().map(|g| g.1).sum());
        let ratio = a / b;
        let var = groups.iter().map(|g| (g.0 - ratio * g.1).powi(2)).sum::<f64>() / (n - 1.0);
        let effective = b * b / groups.iter().map(|g| g.1 * g.1).sum::<f64>();
        let half = draftsim::stats::t_quantile_975(effective as u64 - 1) * (var / n).sqrt() / (b / n);
        let got = |k: &str| hate[&format!("{name}{k}")].parse::<f64>().unwrap();
        assert!((got("") - ratio).abs() < 1e-9, "{name}: {} against {ratio}", got(""));
        let (lo, hi) = (got("_lo"), got("_hi"));
        assert!((lo - (ratio - half)).abs() < 1e-9 && (hi - (ratio + half)).abs() < 1e-9, "{name}: {lo} {hi} {half}");
        // The measures table gives the same.
        let measures = table("measures.csv");
        let row =
            measures.iter().find(|r| r["by"] == "strategy" && r["group"] == "hate" && r["measure"] == name).unwrap();
        assert_eq!(
            (&row["value"], &row["value_lo"], &row["value_hi"]),
            (&hate[name], &hate[&format!("{name}_lo")], &hate[&format!("{name}_hi")])
        );
    }
    assert!(counted > 30, "{counted} rounds with a hate pick");
    // The report shows them.
    let report = dir.join("report");
    let o = draftsim(&["report", out.to_str().unwrap(), "--out", report.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    let row = md.lines().find(|l| l.starts_with("| hate | 0.")).unwrap_or_else(|| panic!("{md}"));
    assert_eq!(row.matches(" [").count(), 2, "{row}");
    assert!(md.contains("chips per round with 95% intervals over deal groups"), "{md}");
    // The two columns are not what a hate pick earns: the report says so.
    assert!(md.contains("The two columns compare rounds, not choices"), "{md}");
    // Game mode: the means, no interval; the rounds with a hate pick and those without are
    // the rounds each seat was dealt into (not those it sat out with no chips).
    let rules = dir.join("game.toml");
    std::fs::write(&rules, "mode = \"game\"\n").unwrap();
    let game = dir.join("game");
    let o = draftsim(&[
        "run",
        "--rules",
        rules.to_str().unwrap(),
        "--rounds",
        "24",
        "--rounds-out",
        "--quiet",
        "--out",
        game.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let read = |name: &str| common::csv_rows(&game.join(name));
    let rows = read("picks.csv");
    let hate = rows.iter().find(|r| r["strategy"] == "hate").unwrap();
    assert!(
        !hate["chips_per_round_without_hate"].is_empty() && hate["chips_per_round_without_hate_lo"].is_empty(),
        "{hate:?}"
    );
    let rounds = read("rounds.csv");
    let measures = read("measures.csv");
    for strategy in ["greedy", "hate"] {
        let dealt: u64 = rounds
            .iter()
            .filter(|r| r["strategy"] == strategy)
            .map(|r| r["rounds_played"].parse::<u64>().unwrap())
            .sum();
        let counted: u64 = ["chips_per_round_with_hate", "chips_per_round_without_hate"]
            .iter()
            .map(|m| {
                let row =
                    measures.iter().find(|r| r["by"] == "strategy" && r["group"] == strategy && r["measure"] == *m);
                row.unwrap()["n"].parse::<u64>().unwrap()
            })
            .sum();
        assert_eq!(counted, dealt, "{strategy}");
    }
}

/// A Leduc pot split at the showdown is said as a split, not as two seats each winning.
#[test]
fn a_split_leduc_pot_reads_as_a_split() {
    let o = draftsim(&["replay", "--game", "leduc-poker", "--seats", "tight,tight", "--seed", "1", "--round", "18"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("  seat 0 (tight) wins 1, splitting the pot 2 ways\n"), "{text}");
    assert!(text.contains("  seat 1 (tight) wins 1, splitting the pot 2 ways\n"), "{text}");
}

/// A rules file that reads as the default game's and another's, run without `--game`: the
/// default game plays, and a warning says which and how to choose.
#[test]
fn a_rules_file_of_two_games_without_a_game_warns_which_is_played() {
    let dir = scratch("default-game");
    let shared = dir.join("shared.toml");
    std::fs::write(&shared, "ante = 2\nraise_cap = 2\n").unwrap();
    let shared = shared.to_str().unwrap();
    let said = format!(
        "draftsim: warning: {shared}: playing seven-card-draft, the default game, but the file reads as sevens's rules too: add --game sevens if it is for it, or --game seven-card-draft to say it is not"
    );
    for args in [
        vec!["run", "--rules", shared, "--rounds", "8", "--quiet"],
        vec!["versus", "defaults", shared, "--rounds", "24", "--quiet"],
    ] {
        let o = draftsim(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o).matches(&said).count(), 1, "{args:?}: {}", stderr(&o));
    }
    // Named, or a file only the default game reads: nothing to say.
    let own = dir.join("own.toml");
    std::fs::write(&own, "ante = 2\nwild = \"none\"\n").unwrap();
    for args in [
        vec!["run", "--game", "seven-card-draft", "--rules", shared, "--rounds", "8", "--quiet"],
        vec!["run", "--rules", own.to_str().unwrap(), "--rounds", "8", "--quiet"],
    ] {
        let o = draftsim(&args);
        assert!(o.status.success() && !stderr(&o).contains("default game"), "{args:?}: {}", stderr(&o));
    }
}
