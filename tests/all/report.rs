//! Reports and their charts: the sweep table's column types, and what every chart must
//! show (data drawn, legends beside the data, one colour per strategy, sensible axes,
//! sentences for titles, facets instead of means), read from real and hand-written tables.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use polars::prelude::DataType;

use crate::common;

/// Runs the binary and insists it succeeds.
fn draftsim(args: &[&str]) {
    let o = common::draftsim(args);
    assert!(o.status.success(), "{args:?}: {}", common::stderr(&o));
}

fn scratch(name: &str) -> PathBuf {
    common::scratch("report", name)
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Writes `report.md` and every chart (`--all-charts`) for these folders into `dir/report`.
fn report(dir: &Path, inputs: &[&Path]) -> PathBuf {
    let out = dir.join("report");
    let mut args = vec!["report"];
    args.extend(inputs.iter().map(|p| path(p)));
    args.extend(["--out", path(&out), "--quiet", "--all-charts"]);
    draftsim(&args);
    out
}

/// `compare` of greedy, tight and random, 300 rounds a pair, into `dir/compare`.
fn compare_three(dir: &Path) -> PathBuf {
    let compare = dir.join("compare");
    draftsim(&[
        "compare",
        "--strategies",
        "greedy,tight,random",
        "--rounds",
        "300",
        "--quiet",
        "--out",
        path(&compare),
    ]);
    compare
}

/// A hand-written result folder: `study.json` of this kind for Seven Card Draft, and CSV
/// tables (name, text).
fn folder(dir: &Path, name: &str, kind: &str, tables: &[(&str, String)]) -> PathBuf {
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).unwrap();
    let meta = format!("{{\"game\": \"seven-card-draft\", \"kind\": \"{kind}\", \"seed\": 1, \"rounds\": 1000}}");
    std::fs::write(folder.join("study.json"), meta).unwrap();
    for (table, text) in tables {
        std::fs::write(folder.join(format!("{table}.csv")), text).unwrap();
    }
    folder
}

/// A hand-written sweep table: `keys` (name, values per row), then per row the strategy,
/// its chips per round (interval ±0.05) and a showdown rate.
fn sweep_csv(keys: &[(&str, Vec<&str>)], strategies: &[&str], chips: &[f64], showdown: &[f64]) -> String {
    let names: Vec<&str> = keys.iter().map(|k| k.0).collect();
    let mut text = format!(
        "{},strategy,rounds,win_rate,win_rate_lo,win_rate_hi,chips_per_round,chips_per_round_lo,chips_per_round_hi,seat_advantage,seat_advantage_lo,seat_advantage_hi,skill_gap,skill_gap_lo,skill_gap_hi,showdown_rate,showdown_rate_lo,showdown_rate_hi\n",
        names.join(",")
    );
    for (row, strategy) in strategies.iter().enumerate() {
        let key_values: Vec<&str> = keys.iter().map(|k| k.1[row]).collect();
        let (c, s) = (chips[row], showdown[row]);
        text += &format!(
            "{},{strategy},1000,0.5,0.47,0.53,{c},{},{},0.02,0.01,0.03,,,,{s},{s},{s}\n",
            key_values.join(","),
            c - 0.05,
            c + 0.05
        );
    }
    text
}

/// One element of an SVG, in document order.
#[derive(Clone, Debug)]
struct Element {
    tag: String,
    attributes: BTreeMap<String, String>,
    text: String,
}

impl Element {
    fn number(&self, name: &str) -> f64 {
        self.attributes.get(name).and_then(|v| v.parse().ok()).unwrap_or(f64::NAN)
    }

    fn attribute(&self, name: &str) -> &str {
        self.attributes.get(name).map_or("", String::as_str)
    }

    /// Where it starts across the image: a circle's centre, a rectangle's left side, a
    /// line's or polygon's first point.
    fn left(&self) -> f64 {
        match self.tag.as_str() {
            "circle" => self.number("cx"),
            "polyline" | "polygon" => {
                let first = self.attribute("points").split_whitespace().next().unwrap_or("");
                first.split(',').next().and_then(|x| x.parse().ok()).unwrap_or(f64::NAN)
            }
            _ => self.number("x"),
        }
    }

    /// Its fill or stroke when that is a colour, not black, white or a grey.
    fn colour(&self) -> Option<String> {
        ["fill", "stroke"].iter().map(|a| self.attribute(a).to_uppercase()).find(|c| {
            let rgb = |i: usize| u8::from_str_radix(c.get(i..i + 2).unwrap_or("00"), 16).unwrap_or(0);
            c.len() == 7 && c.starts_with('#') && !(rgb(1) == rgb(3) && rgb(3) == rgb(5))
        })
    }
}

/// A chart's elements; panics unless it parses as an SVG document.
fn svg(path: &Path) -> Vec<Element> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(doc.root_element().tag_name().name(), "svg", "{}", path.display());
    doc.descendants()
        .filter(|n| n.is_element())
        .map(|n| Element {
            tag: n.tag_name().name().to_string(),
            attributes: n.attributes().map(|a| (a.name().to_string(), a.value().to_string())).collect(),
            text: n.text().unwrap_or("").trim().to_string(),
        })
        .collect()
}

/// The texts of a chart, in order.
fn texts(elements: &[Element]) -> Vec<String> {
    elements.iter().filter(|e| e.tag == "text").map(|e| e.text.clone()).collect()
}

/// The y axis's tick labels: numbers written right-aligned left of the plot.
fn y_ticks(elements: &[Element]) -> Vec<f64> {
    elements
        .iter()
        .filter(|e| e.tag == "text" && e.attribute("text-anchor") == "end" && e.attribute("transform").is_empty())
        .filter_map(|e| e.text.parse().ok())
        .collect()
}

/// The image links of a report, in order: (alternative text, file).
fn images(md: &str) -> Vec<(String, String)> {
    md.lines()
        .filter_map(|l| l.strip_prefix("!["))
        .filter_map(|l| l.split_once("]("))
        .map(|(alt, rest)| (alt.to_string(), rest.trim_end_matches(')').to_string()))
        .collect()
}

#[test]
fn sweep_key_columns_keep_their_types_and_undefined_values_are_null() {
    let dir = scratch("types");
    let args = [
        "sweep",
        "--set",
        "players=3,4",
        "--set",
        "wild=none,last-pick",
        "--vary",
        "hate.draft.weight=0,1",
        "--seats",
        "hate,greedy",
        "--rounds",
        "150",
        "--quiet",
    ];
    let (parquet, csv) = (dir.join("parquet"), dir.join("csv"));
    draftsim(&[&args[..], &["--format", "parquet", "--out", path(&parquet)]].concat());
    draftsim(&[&args[..], &["--out", path(&csv)]].concat());
    for table in [parquet.join("sweep.parquet"), csv.join("sweep.csv")] {
        let df = draftsim::output::read_frame(&table).unwrap();
        assert_eq!(df.height(), 2 * 2 * 2 * 2, "8 variants x 2 strategies");
        let dtype = |c: &str| df.column(c).unwrap().dtype().clone();
        assert_eq!(dtype("players"), DataType::Int64, "{}", table.display());
        assert_eq!(dtype("wild"), DataType::String, "{}", table.display());
        // The weight is a real in the preset, though both values are written whole.
        assert_eq!(dtype("hate.draft.weight"), DataType::Float64, "{}", table.display());
        // No random seat: the skill gap is undefined, a null (not NaN) in every row.
        let gap = df.column("skill_gap").unwrap();
        assert_eq!(gap.null_count(), df.height(), "{}: skill_gap {gap:?}", table.display());
    }
    let text = std::fs::read_to_string(csv.join("sweep.csv")).unwrap();
    let row = text.lines().nth(1).unwrap();
    assert!(row.starts_with("3,none,0.0,hate{draft.weight=0},"), "{row}");
    // The report reads the typed keys back and writes them as they were given.
    let out = report(&dir, &[&parquet]);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("| players=3 wild=none hate.draft.weight=0 |"), "{md}");
    assert!(md.contains("| players=4 wild=last-pick hate.draft.weight=1 |"), "{md}");
}

#[test]
fn sweep_seat_advantage_and_skill_gap_come_with_intervals_and_are_charted_with_them() {
    let dir = scratch("intervals");
    let out = dir.join("sweep");
    draftsim(&[
        "sweep",
        "--set",
        "players=3,4",
        "--seats",
        "greedy,random",
        "--rounds",
        "400",
        "--quiet",
        "--out",
        path(&out),
    ]);
    let df = draftsim::output::read_frame(&out.join("sweep.csv")).unwrap();
    let floats = |c: &str| -> Vec<f64> {
        let col = df.column(c).unwrap_or_else(|_| panic!("{c} missing")).cast(&DataType::Float64).unwrap();
        let ca = col.f64().unwrap();
        (0..ca.len()).map(|i| ca.get(i).unwrap_or(f64::NAN)).collect()
    };
    for metric in ["seat_advantage", "skill_gap"] {
        let (v, lo, hi) = (floats(metric), floats(&format!("{metric}_lo")), floats(&format!("{metric}_hi")));
        for row in 0..df.height() {
            // The seat advantage reads zero for equal seats, so its lower end may be it.
            assert!(lo[row] <= v[row] && v[row] < hi[row], "{metric} row {row}: {} {} {}", lo[row], v[row], hi[row]);
            // The half-width of a difference of two estimates over a few hundred rounds.
            assert!(hi[row] - lo[row] > 0.01, "{metric} row {row}: interval {} to {}", lo[row], hi[row]);
        }
    }
    let charts = report(&dir, &[&out]);
    let md = std::fs::read_to_string(charts.join("report.md")).unwrap();
    // The skill gap moves with the table's size; the seat advantage is drawn only where it
    // moves beyond noise, and otherwise named among the figures not charted.
    for (metric, name) in [("skill_gap", "skill gap"), ("seat_advantage", "seat advantage")] {
        let chart = format!("1-sweep-{metric}.svg");
        let (v, lo, hi) = (floats(metric), floats(&format!("{metric}_lo")), floats(&format!("{metric}_hi")));
        // The first row is of 3 players, the last of 4.
        let last = v.len() - 1;
        let (l, h) = if v[0] <= v[last] { (0, last) } else { (last, 0) };
        let moves = hi[l] < lo[h];
        assert_eq!(charts.join(&chart).exists(), moves, "{chart}: {md}");
        let listed =
            md.lines().any(|line| line.starts_with("Not charted, the lowest") && line.contains(&format!(" {name} ")));
        assert_eq!(listed, !moves, "{chart}: {md}");
        if moves {
            let bands = svg(&charts.join(&chart)).iter().filter(|e| e.tag == "polygon").count();
            assert_eq!(bands, 1, "{chart}: one shaded interval band");
        }
    }
    assert!(charts.join("1-sweep-skill_gap.svg").exists(), "{md}");
}

#[test]
fn a_legend_sits_beside_the_data_never_on_it() {
    let dir = scratch("legend");
    // Both lines end in the top right corner, where a legend inside the plot would sit.
    let keys = [("players", vec!["3", "3", "4", "4", "5", "5"])];
    let strategies = ["greedy", "random", "greedy", "random", "greedy", "random"];
    let chips = [-2.0, -1.9, 0.0, 0.1, 2.0, 2.0];
    let sweep = sweep_csv(&keys, &strategies, &chips, &[0.3; 6]);
    let input = folder(&dir, "sweep", "sweep", &[("sweep", sweep)]);
    let out = report(&dir, &[&input]);
    let elements = svg(&out.join("1-sweep-chips-by-strategy.svg"));
    // Data points: circles not marking a legend entry (a mark is followed by its name).
    let points: Vec<&Element> = (0..elements.len())
        .filter(|&i| elements[i].tag == "circle" && elements.get(i + 1).is_none_or(|n| n.tag != "text"))
        .map(|i| &elements[i])
        .collect();
    assert_eq!(points.len(), 6, "three points per strategy");
    let legend: Vec<&Element> =
        elements.iter().filter(|e| e.tag == "text" && (e.text == "greedy" || e.text == "random")).collect();
    assert_eq!(legend.len(), 2, "a legend entry per strategy");
    let rightmost = points.iter().map(|p| p.number("cx") + p.number("r")).fold(f64::MIN, f64::max);
    // The plot's right edge: where its horizontal grid lines end.
    let edge = elements.iter().filter(|e| e.tag == "line").map(|e| e.number("x2")).fold(f64::MIN, f64::max);
    assert!(edge >= rightmost, "grid lines end at {edge}, data at {rightmost}");
    for entry in legend {
        let x = entry.number("x");
        assert!(x > edge, "legend '{}' at x {x}, inside the plot (right edge {edge})", entry.text);
    }
}

#[test]
fn a_varied_preset_is_one_line_across_its_values() {
    let dir = scratch("varied");
    let weights = vec!["0", "0", "0.5", "0.5", "1", "1"];
    let strategies =
        ["hate{draft.weight=0}", "greedy", "hate{draft.weight=0.5}", "greedy", "hate{draft.weight=1}", "greedy"];
    let sweep =
        sweep_csv(&[("hate.draft.weight", weights)], &strategies, &[0.1, -0.1, 0.2, -0.2, -0.3, 0.3], &[0.3; 6]);
    let input = folder(&dir, "sweep", "sweep", &[("sweep", sweep)]);
    let out = report(&dir, &[&input]);
    let elements = svg(&out.join("1-sweep-chips-by-strategy.svg"));
    let labels = texts(&elements);
    assert!(labels.contains(&"hate".to_string()) && labels.contains(&"greedy".to_string()), "{labels:?}");
    assert!(!labels.iter().any(|t| t.contains('{')), "one series per derived name: {labels:?}");
    // Two lines of three points each (left of the legend, whose marks are short lines).
    let lines: Vec<usize> = elements
        .iter()
        .filter(|e| e.tag == "polyline" && e.colour().is_some() && e.left() < 860.0)
        .map(|e| e.attribute("points").split_whitespace().count())
        .collect();
    assert_eq!(lines, vec![3, 3], "{lines:?}");
}

#[test]
fn a_flat_series_gets_a_sensible_axis_not_a_zoom_into_noise() {
    let dir = scratch("flat");
    let keys = [("players", vec!["3", "4", "5"])];
    let sweep = sweep_csv(&keys, &["greedy"; 3], &[0.1, 0.2, 0.3], &[1.0, 0.99999999, 1.0]);
    let input = folder(&dir, "sweep", "sweep", &[("sweep", sweep)]);
    let out = report(&dir, &[&input]);
    let ticks = y_ticks(&svg(&out.join("1-sweep-showdown_rate.svg")));
    assert!(ticks.len() >= 3, "{ticks:?}");
    let span = ticks.iter().copied().fold(f64::MIN, f64::max) - ticks.iter().copied().fold(f64::MAX, f64::min);
    assert!(span >= 0.01, "ticks {ticks:?} zoom into a difference of 1e-8");
}

#[test]
fn a_figure_the_same_in_every_variant_is_named_not_drawn_flat() {
    let dir = scratch("unchanged");
    // One strategy against itself: no score to tell apart, no interval.
    let keys = [("starter", vec!["first", "second", "random"])];
    let sweep = sweep_csv(&keys, &["value"; 3], &[0.0; 3], &[0.2, 0.3, 0.25]).replace("0,-0.05,0.05", "0,0,0");
    let input = folder(&dir, "sweep", "sweep", &[("sweep", sweep)]);
    let out = report(&dir, &[&input]);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(!out.join("1-sweep-chips-by-strategy.svg").exists(), "{md}");
    assert!(md.contains("In every variant every seat plays `value`, so chips per round is 0 (not charted)."), "{md}");
    // seat_advantage is 0.02 in every row; the showdown rate moves and is drawn.
    assert!(!out.join("1-sweep-seat_advantage.svg").exists() && md.contains("seat advantage 0.02"), "{md}");
    assert!(out.join("1-sweep-showdown_rate.svg").exists());
    // A mirror whose table gives its score an interval is as flat.
    let sweep = sweep_csv(&keys, &["value"; 3], &[0.0; 3], &[0.2, 0.3, 0.25]);
    assert!(sweep.contains("0,-0.05,0.05"), "{sweep}");
    let input = folder(&dir.join("with-interval"), "sweep", "sweep", &[("sweep", sweep)]);
    let out = report(&dir.join("with-interval"), &[&input]);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(!out.join("1-sweep-chips-by-strategy.svg").exists(), "{md}");
    assert!(md.contains("every seat plays `value`, so chips per round is 0 (not charted)."), "{md}");
}

/// A sweep of a preset's settings alone is filed under its own question, and a figure whose
/// every move lies within its intervals is named with its range rather than charted.
#[test]
fn a_settings_sweep_asks_its_own_question_and_charts_only_what_moves() {
    let dir = scratch("settings");
    let head = "hate.draft.weight,strategy,rounds,win_rate,win_rate_lo,win_rate_hi,chips_per_round,chips_per_round_lo,chips_per_round_hi,seat_advantage,seat_advantage_lo,seat_advantage_hi,seats_equal_p,showdown_rate,showdown_rate_lo,showdown_rate_hi";
    let rows = [
        "0,hate{draft.weight=0},1000,0.55,0.52,0.58,0.1,0.05,0.15,0.02,0.0,0.05,0.4,0.40,0.39,0.41",
        "0,greedy,1000,0.45,0.42,0.48,-0.1,-0.15,-0.05,0.02,0.0,0.05,0.4,0.40,0.39,0.41",
        "1,hate{draft.weight=1},1000,0.35,0.32,0.38,0.3,0.25,0.35,0.03,0.0,0.06,0.6,0.50,0.49,0.51",
        "1,greedy,1000,0.65,0.62,0.68,-0.3,-0.35,-0.25,0.03,0.0,0.06,0.6,0.50,0.49,0.51",
    ];
    let input = folder(&dir, "sweep", "sweep", &[("sweep", format!("{head}\n{}\n", rows.join("\n")))]);
    let meta = r#"{"game": "seven-card-draft", "kind": "sweep", "seed": 1, "rounds": 1000, "set": [], "vary": ["hate.draft.weight=0,1"]}"#;
    std::fs::write(input.join("study.json"), meta).unwrap();
    let out = report(&dir, &[&input]);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## What do the strategies' settings change?"), "{md}");
    assert!(!md.contains("What do the rules change?"), "{md}");
    assert!(out.join("1-sweep-showdown_rate.svg").exists(), "{md}");
    assert!(!out.join("1-sweep-seat_advantage.svg").exists(), "{md}");
    assert!(
        md.contains(
            "along every key: seat advantage 0.02 to 0.03, the p-value of equal seats 0.4 to 0.6, never below 0.05."
        ),
        "{md}"
    );
    assert!(!out.join("1-sweep-seats_equal_p.svg").exists(), "{md}");
    // Chips and wins part ways here: both are drawn by strategy.
    let said = caption(&md, "1-sweep-win-share-by-strategy.svg");
    assert!(said.starts_with("Which strategy has the highest win share per round changes with"), "{said}");
    assert!(said.contains("`hate` at 0; `greedy` at 1"), "{said}");
    assert!(caption(&md, "1-sweep-chips-by-strategy.svg").starts_with("`hate` has the highest chips"), "{md}");
    // The same table swept over a rule is the rules' question.
    let rules =
        r#"{"game": "seven-card-draft", "kind": "sweep", "seed": 1, "rounds": 1000, "set": ["ante=0,1"], "vary": []}"#;
    std::fs::write(input.join("study.json"), rules).unwrap();
    // Where the test rejects equal seats in a variant, its p-value is drawn.
    let text = std::fs::read_to_string(input.join("sweep.csv")).unwrap().replace(",0.6,", ",0.01,");
    std::fs::write(input.join("sweep.csv"), text).unwrap();
    let page = report(&dir.join("rules"), &[&input]);
    let md = std::fs::read_to_string(page.join("report.md")).unwrap();
    assert!(md.contains("## What do the rules change?") && !md.contains("settings change"), "{md}");
    assert!(page.join("1-sweep-seats_equal_p.svg").exists() && !md.contains("equal seats 0.01"), "{md}");
}

/// Fold lines that lie on one another are named in the caption, so no strategy seems
/// missing from the chart.
#[test]
fn fold_lines_on_one_another_are_named() {
    let dir = scratch("fold-alike");
    let run = dir.join("run");
    let seats = "bluffer{bet.p=1},bluffer{bet.p=0},tight";
    draftsim(&[
        "run",
        "--game",
        "sevens",
        "--seats",
        seats,
        "--players",
        "3",
        "--rounds",
        "300",
        "--quiet",
        "--out",
        path(&run),
    ]);
    let summary = common::csv_rows(&run.join("summary.csv"));
    let never: Vec<String> = (summary.iter())
        .filter(|r| {
            r.iter().filter(|(k, _)| k.starts_with("fold_rate_r")).all(|(_, v)| v.parse::<f64>().unwrap() == 0.0)
        })
        .map(|r| format!("`{}`", r["strategy"]))
        .collect();
    assert_eq!(never.len(), 2, "{summary:?}");
    let md = std::fs::read_to_string(report(&dir, &[&run]).join("report.md")).unwrap();
    let said = caption(&md, "1-fold-rate.svg");
    assert!(
        said.contains(&format!("{} and {} never fold: their lines lie on one another at 0.", never[0], never[1])),
        "{said}"
    );
    assert!(!said.starts_with(' '), "{said}");
}

/// A health card with more than one unit in ten surely undecided says so, and one without
/// says nothing of it.
#[test]
fn a_card_with_many_undecided_units_flags_them() {
    let dir = scratch("undecided");
    for (game, flagged) in [("sevens", true), ("kuhn-poker", false)] {
        let run = dir.join(game);
        draftsim(&["run", "--game", game, "--rounds", "2000", "--quiet", "--out", path(&run)]);
        let health = common::csv_rows(&run.join("health.csv"));
        let lo: f64 = health.iter().find(|r| r["figure"] == "drawishness").unwrap()["value_lo"].parse().unwrap();
        assert_eq!(lo > 0.1, flagged, "{game}: drawishness from {lo}");
        let md = std::fs::read_to_string(report(&dir.join(format!("page-{game}")), &[&run]).join("report.md")).unwrap();
        assert_eq!(md.contains("**Often undecided**"), flagged, "{md}");
        // Sevens' undecided hands are those everyone goes over: its advice names that rule.
        assert_eq!(md.contains("the place to look is `all_over`: under `refund`"), flagged, "{md}");
        let summary = md.lines().find(|l| l.starts_with("- **Is it healthy?**")).unwrap();
        assert_eq!(summary.contains("Often undecided"), flagged, "{summary}");
    }
}

#[test]
fn ratings_are_drawn_on_an_axis_that_spans_them_not_from_zero() {
    let dir = scratch("ratings");
    let matrix = "strategy,opponent,rounds,win_share,win_share_lo,win_share_hi\ngreedy,random,1000,0.7,0.67,0.73\nrandom,greedy,1000,0.3,0.27,0.33\n";
    let ratings = "strategy,rating,rating_lo,rating_hi,dominant\ngreedy,1574,1560,1588,1\nrandom,1426,1412,1440,0\n";
    let input = folder(&dir, "compare", "compare", &[("matrix", matrix.to_string()), ("ratings", ratings.to_string())]);
    let out = report(&dir, &[&input]);
    let ticks = y_ticks(&svg(&out.join("1-ratings.svg")));
    let lowest = ticks.iter().copied().fold(f64::MAX, f64::min);
    assert!(!ticks.is_empty() && lowest > 1300.0, "ticks {ticks:?}");
}

/// Each strategy's colours in a chart: a legend mark's (the element before its name), or
/// a bar's or point's centred over its name on the x axis.
fn strategy_colours(elements: &[Element], names: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, e) in elements.iter().enumerate() {
        if e.tag != "text" || !names.contains(&e.text.as_str()) {
            continue;
        }
        let mark = elements[..i].last().filter(|m| m.tag == "circle" || m.tag == "rect").and_then(|m| m.colour());
        let over = || {
            let x = e.number("x");
            elements.iter().find_map(|m| {
                let centre = match m.tag.as_str() {
                    "rect" => m.number("x") + m.number("width") / 2.0,
                    "circle" => m.number("cx"),
                    _ => return None,
                };
                m.colour().filter(|_| (centre - x).abs() <= 2.0)
            })
        };
        if let Some(colour) = mark.or_else(over) {
            out.push((e.text.clone(), colour));
        }
    }
    out
}

#[test]
fn a_strategy_keeps_one_colour_in_every_chart_and_titles_are_sentences() {
    let dir = scratch("colours");
    let run = dir.join("run");
    draftsim(&["run", "--seats", "greedy,random", "--rounds", "300", "--quiet", "--out", path(&run)]);
    // The other folders name the strategies in the other order.
    let matrix = "strategy,opponent,rounds,win_share,win_share_lo,win_share_hi\nrandom,greedy,1000,0.3,0.27,0.33\ngreedy,random,1000,0.7,0.67,0.73\n";
    let ratings = "strategy,rating,rating_lo,rating_hi,dominant\nrandom,1426,1412,1440,0\ngreedy,1574,1560,1588,1\n";
    let compare =
        folder(&dir, "compare", "compare", &[("matrix", matrix.to_string()), ("ratings", ratings.to_string())]);
    let keys = [("players", vec!["3", "3", "4", "4"])];
    let sweep = sweep_csv(&keys, &["random", "greedy", "random", "greedy"], &[-1.0, 1.0, -1.2, 1.2], &[0.3; 4]);
    let sweep = folder(&dir, "sweep", "sweep", &[("sweep", sweep)]);
    let out = report(&dir, &[&run, &compare, &sweep]);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let mut colours: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for (alt, file) in images(&md) {
        let elements = svg(&out.join(&file));
        // The title is a sentence, the same in the chart and in its link.
        assert_eq!(texts(&elements).first(), Some(&alt), "{file}");
        let opens = alt.chars().next().is_some_and(char::is_uppercase);
        assert!(opens && alt.contains(' ') && !alt.contains('_') && !alt.contains(".svg"), "{file}: title '{alt}'");
        // The heatmap's colours are shares, not strategies.
        let marks =
            if file.contains("matrix") { Vec::new() } else { strategy_colours(&elements, &["greedy", "random"]) };
        for (name, colour) in marks {
            colours.entry(name).or_default().push((colour, file.clone()));
        }
    }
    let first = |name: &str| colours[name][0].0.clone();
    for (name, seen) in &colours {
        assert!(seen.len() >= 4, "{name} found in only {seen:?}");
        assert!(seen.iter().all(|(c, _)| *c == first(name)), "{name}: {seen:?}");
    }
    assert_ne!(first("greedy"), first("random"));
}

#[test]
fn charts_over_one_swept_key_facet_the_other_instead_of_averaging_it() {
    let dir = scratch("facets");
    let keys = [
        ("players", vec!["3", "3", "4", "4", "3", "3", "4", "4"]),
        ("ante", vec!["1", "1", "1", "1", "2", "2", "2", "2"]),
    ];
    let strategies = ["greedy", "random", "greedy", "random", "greedy", "random", "greedy", "random"];
    // Under ante 1 greedy gains with players, under ante 2 it loses, at thrice the stakes: a
    // mean over ante would hide both.
    let chips = [1.0, -1.0, 3.0, -3.0, -3.0, 3.0, -9.0, 9.0];
    let sweep = sweep_csv(&keys, &strategies, &chips, &[0.3, 0.3, 0.4, 0.4, 0.5, 0.5, 0.6, 0.6]);
    let input = folder(&dir, "sweep", "sweep", &[("sweep", sweep)]);
    let out = report(&dir, &[&input]);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(!md.contains("mean over"), "{md}");
    for (file, ante) in [("1-sweep-chips-by-strategy-1.svg", "1"), ("1-sweep-chips-by-strategy-2.svg", "2")] {
        let elements = svg(&out.join(file));
        assert!(texts(&elements)[0].ends_with(&format!("ante = {ante}")), "{file}: {:?}", texts(&elements)[0]);
        // Every line slopes: no point of a line sits level with the line's other point.
        let lines: Vec<Vec<&str>> = elements
            .iter()
            .filter(|e| e.tag == "polyline" && e.colour().is_some() && e.left() < 860.0)
            .map(|e| e.attribute("points").split_whitespace().collect())
            .collect();
        assert_eq!(lines.len(), 2, "{file}");
        for points in lines {
            let y: Vec<&str> = points.iter().map(|p| p.split(',').nth(1).unwrap()).collect();
            assert_ne!(y[0], y[1], "{file}: a flat line, as a mean over ante would draw");
        }
    }
    // Both settings' charts on one scale, so they compare by eye.
    let ticks = |file: &str| y_ticks(&svg(&out.join(file)));
    assert_eq!(ticks("1-sweep-chips-by-strategy-1.svg"), ticks("1-sweep-chips-by-strategy-2.svg"));
    assert!(!out.join("1-sweep-chips-by-strategy.svg").exists());
    // The variant-level chart: one line per ante.
    let labels = texts(&svg(&out.join("1-sweep-showdown_rate.svg")));
    assert!(labels.contains(&"ante=1".to_string()) && labels.contains(&"ante=2".to_string()), "{labels:?}");
}

#[test]
fn every_chart_a_report_links_exists_has_data_drawn_and_is_inlined_in_the_page() {
    let dir = scratch("charts");
    let run = dir.join("run");
    draftsim(&["run", "--rounds", "400", "--quiet", "--format", "parquet", "--out", path(&run)]);
    let compare = compare_three(&dir);
    let sweep = dir.join("sweep");
    draftsim(&[
        "sweep",
        "--set",
        "players=3,4",
        "--set",
        "ante=1,2",
        "--rounds",
        "200",
        "--quiet",
        "--out",
        path(&sweep),
    ]);
    let out = report(&dir, &[&run, &compare, &sweep]);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    let links = images(&md);
    assert!(links.len() >= 12, "only {} charts", links.len());
    for (_, file) in &links {
        let chart = out.join(file);
        assert!(chart.exists(), "{file} is linked but missing");
        let elements = svg(&chart);
        // Data: a coloured mark (bar, point, line, band or heatmap cell) in the plot, left
        // of any legend panel; axes and grids are black or grey.
        let drawn = elements.iter().filter(|e| e.colour().is_some() && e.left() < 860.0).count();
        assert!(drawn >= 2, "{file}: nothing drawn but axes");
        // Inlined in the page: its drawing, not a link to it.
        let body: String =
            std::fs::read_to_string(&chart).unwrap().lines().skip(1).take(3).collect::<Vec<_>>().join("\n");
        assert!(html.contains(&body), "{file} not inlined in report.html");
    }
    assert_eq!(html.matches("<svg").count(), links.len(), "every chart inlined once");
    assert!(!html.contains("<img") && !html.contains(".svg\""), "no link to a chart file");
}

/// A headless browser to screenshot pages with: `DRAFTSIM_BROWSER`, else the first of
/// chromium, chromium-browser, google-chrome on the PATH.
fn browser() -> Option<String> {
    if let Ok(b) = std::env::var("DRAFTSIM_BROWSER") {
        return Some(b);
    }
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .map(String::from)
        .find(|b| std::process::Command::new("which").arg(b).output().is_ok_and(|o| o.status.success()))
}

/// The pixels of `page` as a real browser draws it (RGBA rows), at this window size.
fn screenshot(browser: &str, page: &Path, width: u32, height: u32) -> Vec<[u8; 4]> {
    let png = page.with_extension("png");
    let o = std::process::Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"])
        .arg(format!("--screenshot={}", path(&png)))
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("file://{}", path(&std::fs::canonicalize(page).unwrap())))
        .output()
        .unwrap();
    assert!(png.exists(), "{browser} wrote no screenshot of {}: {}", page.display(), common::stderr(&o));
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    buf[..info.buffer_size()]
        .chunks(channels)
        .map(|p| match channels {
            4 => [p[0], p[1], p[2], p[3]],
            3 => [p[0], p[1], p[2], 255],
            _ => [p[0], p[0], p[0], 255],
        })
        .collect()
}

/// Pixels with a colour of their own: data marks; text, axes, grids and the page are grey.
fn coloured(pixels: &[[u8; 4]]) -> usize {
    pixels.iter().filter(|p| p[0].max(p[1]).max(p[2]) - p[0].min(p[1]).min(p[2]) > 20).count()
}

/// Every chart of a real report, drawn by a real browser from the page that inlines it,
/// shows data: a missing or empty chart fails. Skipped (with a note) where no headless
/// browser is installed.
#[test]
fn every_chart_shows_data_in_a_real_browser() {
    let Some(browser) = browser() else {
        assert!(
            std::env::var_os("DRAFTSIM_REQUIRE_BROWSER").is_none(),
            "DRAFTSIM_REQUIRE_BROWSER is set and no chromium is installed"
        );
        eprintln!("no headless browser (chromium) on this machine: screenshot test skipped");
        return;
    };
    let dir = scratch("browser");
    let run = dir.join("run");
    draftsim(&["run", "--rounds", "400", "--quiet", "--out", path(&run)]);
    let sweep = dir.join("sweep");
    draftsim(&["sweep", "--set", "players=3,4", "--rounds", "200", "--quiet", "--out", path(&sweep)]);
    let out = report(&dir, &[&run, &sweep]);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    // The whole page renders, charts and all.
    let page = screenshot(&browser, &out.join("report.html"), 1000, 3000);
    assert!(coloured(&page) > 20_000, "report.html shows almost no chart: {} coloured pixels", coloured(&page));
    // Each chart alone, as the page inlines it.
    let links = images(&md);
    assert!(links.len() >= 8, "only {} charts", links.len());
    assert_eq!(html.matches("<svg").count(), links.len(), "report.html does not inline every chart");
    for (_, file) in &links {
        let chart = out.join(file);
        let svg = std::fs::read_to_string(&chart).unwrap_or_else(|_| panic!("{file} is linked but missing"));
        let alone = dir.join(format!("{file}.html"));
        std::fs::write(&alone, format!("<html><body style=\"margin:0;background:#fff\">{svg}</body></html>")).unwrap();
        let n = coloured(&screenshot(&browser, &alone, 1100, 700));
        assert!(n > 400, "{file}: the browser draws no data ({n} coloured pixels)");
    }
    // The check can fail: axes and text alone are not data.
    let empty = dir.join("empty.html");
    std::fs::write(
        &empty,
        "<html><body style=\"margin:0;background:#fff\"><svg width=\"800\" height=\"400\"><line x1=\"40\" y1=\"360\" x2=\"780\" y2=\"360\" stroke=\"#333\"/><line x1=\"40\" y1=\"20\" x2=\"40\" y2=\"360\" stroke=\"#333\"/><text x=\"300\" y=\"15\">Win share by strategy</text></svg></body></html>",
    )
    .unwrap();
    assert!(coloured(&screenshot(&browser, &empty, 1100, 700)) < 50, "an empty chart counted as data");
}

/// A report opens with its summary and contents, answers by question (each study a
/// subsection), ends with how the figures were made, and draws at most 12 charts unless
/// asked for all: every study's first chart kept, the rest named and their files gone.
#[test]
fn a_report_answers_first_by_question_with_at_most_twelve_charts() {
    let dir = scratch("layout");
    let run = dir.join("run");
    draftsim(&["run", "--rounds", "400", "--quiet", "--out", path(&run)]);
    let sweep = dir.join("sweep");
    draftsim(&["sweep", "--set", "wild=none,deuces", "--rounds", "200", "--quiet", "--out", path(&sweep)]);
    let notes = dir.join("notes.md");
    std::fs::write(&notes, "# Deuces wild\n\n## Findings\n\nDeuces shorten nothing.\n\n## What moved\n\nNothing.\n")
        .unwrap();
    let out = dir.join("capped");
    draftsim(&["report", path(&run), path(&sweep), "--out", path(&out), "--quiet", "--notes", path(&notes)]);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let at = |s: &str| md.find(s).unwrap_or_else(|| panic!("no {s:?} in the report:\n{md}"));
    assert!(md.starts_with("# Deuces wild\n"), "the notes' title heads the page");
    // ... and names its tab; a table wider than the page scrolls inside it.
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<title>Deuces wild</title>"), "{}", &html[..300]);
    assert!(
        html.contains("table{border-collapse:collapse;margin:1rem 0;display:block;max-width:100%;overflow-x:auto}")
    );
    let order = ["## Summary", "## Contents", "## Findings", "## Who wins?", "## Is it fair?", "## Is it healthy?"];
    let order =
        [&order[..], &["## What do the rules change?", "## Which cards?", "## How these figures were made"]].concat();
    for pair in order.windows(2) {
        assert!(at(pair[0]) < at(pair[1]), "{} should come before {}", pair[0], pair[1]);
    }
    // The summary: a headline with an interval per question answered, naming its folder.
    let summary = &md[at("## Summary")..at("## Contents")];
    for q in ["**Who wins?**", "**Is it fair?**", "**Is it healthy?**", "**What do the rules change?**"] {
        let line = summary.lines().find(|l| l.contains(q)).unwrap_or_else(|| panic!("no headline for {q}: {summary}"));
        assert!(line.contains('[') && line.contains(", ") && line.contains(']'), "{line}: no interval");
    }
    assert!(summary.contains("(`sweep`)") && summary.contains("(`run`)"), "{summary}");
    assert!(md.contains("- [Is it fair?](#is-it-fair)") && md.contains("### What moved"));
    assert!(md.contains("### Seven Card Draft, sweep `sweep`"), "studies are subsections named by what they are");
    let kept = images(&md);
    assert_eq!(kept.len(), 12, "at most 12 charts by default");
    // One part's charts or another's ("1 more chart here" where a quiet seat chart gave way).
    let left = md.lines().find(|l| l.contains(" more chart")).expect("the charts left out are named");
    assert!(left.contains("`draftsim report --all-charts`"), "{left}");
    let svgs = std::fs::read_dir(&out)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "svg"))
        .count();
    assert_eq!(svgs, 12, "the files of charts left out are not written");
    // Both studies keep their first chart.
    assert!(kept.iter().any(|(_, f)| f.starts_with("1-")) && kept.iter().any(|(_, f)| f.starts_with("2-")));
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<h2 id=\"is-it-fair\">") && html.contains("href=\"#is-it-fair\""), "contents links resolve");
    // --all-charts draws the rest.
    let all = report(&dir, &[&run, &sweep]);
    let every = images(&std::fs::read_to_string(all.join("report.md")).unwrap());
    assert!(every.len() > 12, "{} charts with --all-charts", every.len());
}

/// The page's script that measures every chart's text as the browser lays it out: each
/// label's rendered font size, and each pair of labels of one chart whose boxes overlap.
const LABEL_CHECK: &str = r#"<script>
window.addEventListener('load', () => {
  const faults = [];
  let texts = 0;
  document.querySelectorAll('svg').forEach((svg, k) => {
    const scale = svg.getBoundingClientRect().width / parseFloat(svg.getAttribute('width'));
    const boxes = [];
    svg.querySelectorAll('text').forEach(t => {
      const text = t.textContent.trim();
      if (!text) return;
      texts++;
      const size = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (size < 11) faults.push(`chart ${k}: "${text}" at ${size.toFixed(1)} px`);
      const r = t.getBoundingClientRect();
      boxes.push([text, r.left + 1, r.top + 1, r.right - 1, r.bottom - 1]);
    });
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      if (a[1] < b[3] && b[1] < a[3] && a[2] < b[4] && b[2] < a[4]) faults.push(`chart ${k}: "${a[0]}" overlaps "${b[0]}"`);
    }
  });
  const pre = document.createElement('pre');
  pre.id = 'label-check';
  pre.textContent = JSON.stringify({texts, faults});
  document.body.appendChild(pre);
});
</script>"#;

/// The labels' faults in `page` as Chromium lays it out at 1400 px: (texts measured,
/// faults).
fn label_faults(browser: &str, page: &Path) -> (u64, Vec<String>) {
    let html = std::fs::read_to_string(page).unwrap();
    let checked = page.with_extension("check.html");
    std::fs::write(&checked, html.replace("</body>", &format!("{LABEL_CHECK}</body>"))).unwrap();
    let o = std::process::Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"])
        .args(["--window-size=1400,1000", "--virtual-time-budget=10000", "--dump-dom"])
        .arg(format!("file://{}", path(&std::fs::canonicalize(&checked).unwrap())))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&o.stdout);
    let json = dom
        .split("<pre id=\"label-check\">")
        .nth(1)
        .and_then(|r| r.split("</pre>").next())
        .unwrap_or_else(|| panic!("{browser} ran no check on {}: {}", page.display(), common::stderr(&o)));
    let json = json.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let faults = v["faults"].as_array().unwrap().iter().map(|f| f.as_str().unwrap().to_string()).collect();
    (v["texts"].as_u64().unwrap(), faults)
}

/// Every chart of a report with long labels (sensitivity's changes, derived presets, 52
/// cards on a scatter) reads in a real browser at 1400 px: no two labels of a chart
/// overlap and none is drawn under 11 px. Skipped where no headless browser is installed,
/// unless `DRAFTSIM_REQUIRE_BROWSER` is set (CI sets it).
#[test]
fn chart_labels_never_overlap_and_read_at_eleven_pixels_in_a_real_browser() {
    let Some(browser) = browser() else {
        assert!(
            std::env::var_os("DRAFTSIM_REQUIRE_BROWSER").is_none(),
            "DRAFTSIM_REQUIRE_BROWSER is set and no chromium is installed"
        );
        eprintln!("no headless browser (chromium) on this machine: label test skipped");
        return;
    };
    let dir = scratch("labels");
    let run = dir.join("run");
    draftsim(&["run", "--rounds", "1000", "--cards", "--quiet", "--out", path(&run)]);
    let compare = dir.join("compare");
    let field = "greedy,hate,tight,random,bluffer{bet.p=1},loose-aggressive,tight{bet.bluff=0.25}";
    draftsim(&["compare", "--strategies", field, "--rounds", "100", "--quiet", "--out", path(&compare)]);
    let sweep = dir.join("sweep");
    draftsim(&[
        "sweep",
        "--set",
        "wild=none,deuces,deuces-with-face,last-pick",
        "--rounds",
        "200",
        "--quiet",
        "--out",
        path(&sweep),
    ]);
    let sensitivity = dir.join("sensitivity");
    draftsim(&["sensitivity", "--game", "sevens", "--rounds", "1000", "--quiet", "--out", path(&sensitivity)]);
    let out = report(&dir, &[&run, &compare, &sweep, &sensitivity]);
    let (texts, faults) = label_faults(&browser, &out.join("report.html"));
    assert!(texts > 500, "only {texts} labels measured");
    assert!(faults.is_empty(), "{} faults, e.g. {:?}", faults.len(), &faults[..faults.len().min(10)]);
    // The check can fail: two labels on one spot, and one drawn small.
    let planted = dir.join("planted.html");
    std::fs::write(&planted, "<html><body><svg width=\"400\" height=\"200\"><text x=\"10\" y=\"50\" font-size=\"14\">players=5</text><text x=\"20\" y=\"52\" font-size=\"14\">players=3</text><text x=\"10\" y=\"150\" font-size=\"9\">tiny</text></svg></body></html>").unwrap();
    let (_, faults) = label_faults(&browser, &planted);
    assert!(faults.iter().any(|f| f.contains("overlaps")) && faults.iter().any(|f| f.contains("tiny")), "{faults:?}");
}

/// A sweep's summary names the largest move along the key it steps through first, and a
/// larger one along a key set beside it after; the length figures read by what they count.
#[test]
fn a_sweep_summary_names_the_move_along_its_charted_key() {
    let dir = scratch("sweep-lead");
    let mut text = String::from(
        "players,hate.draft.weight,strategy,rounds,win_rate,win_rate_lo,win_rate_hi,chips_per_round,chips_per_round_lo,chips_per_round_hi,seat_advantage,seat_advantage_lo,seat_advantage_hi,showdown_rate,showdown_rate_lo,showdown_rate_hi,length_mean,length_mean_lo,length_mean_hi\n",
    );
    for (players, base) in [("3", 0.3), ("6", 0.9)] {
        for (k, weight) in ["0", "0.5", "1"].iter().enumerate() {
            // Showdowns move 0.6 with the players and 0.1 with the weight; length by 1.
            let s = base + 0.05 * k as f64;
            let l = 30.0 + k as f64;
            // hate's chips fall 0.5 a step of the weight, beyond their interval.
            let hate = format!("hate{{draft.weight={weight}}}");
            for (strategy, chips) in [(hate.as_str(), 1.1 - 0.5 * k as f64), ("greedy", -0.1)] {
                text += &format!(
                    "{players},{weight},{strategy},1000,0.5,0.47,0.53,{chips},{},{},0.02,0.01,0.03,{s},{},{},{l},{},{}\n",
                    chips - 0.05,
                    chips + 0.05,
                    s - 0.01,
                    s + 0.01,
                    l - 0.1,
                    l + 0.1
                );
            }
        }
    }
    let input = folder(&dir, "sweep", "sweep", &[("sweep", text)]);
    let out = report(&dir, &[&input]);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let summary = md.lines().find(|l| l.starts_with("- **What do the rules change?**")).unwrap();
    // The figure of play that moves most leads; the length, narrow of interval, outmoves
    // it in half-widths and is named after it.
    assert!(summary.contains("the largest move is in showdown rate with `hate.draft.weight`"), "{summary}");
    assert!(
        summary.contains(
            "A unit's length moves further in its intervals' widths: mean decisions per unit with `hate.draft.weight`"
        ),
        "{summary}"
    );
    // The players move the showdown rate further than the charted key moves anything: said
    // after the charted key's move, not left out.
    assert!(
        summary.contains("Along another key the move is larger still: showdown rate with `players`: from 0.3000"),
        "{summary}"
    );
    assert_eq!(summary.matches("Along another key").count(), 1, "said once: {summary}");
    assert!(md.contains("Mean decisions per unit") && !md.contains("Length mean"), "{md}");
    // The varied preset's own score moves too: named beside the figures.
    assert!(
        summary.contains(
            "Of the strategies' scores, `hate`'s chips per round moves most with `hate.draft.weight`: from 1.1000"
        ),
        "{summary}"
    );
}

/// A figure of the whole table (every strategy at every hand) is one sentence, not a
/// chart of equal bars; a figure that differs by strategy keeps its chart.
#[test]
fn figures_of_the_table_are_stated_once() {
    let dir = scratch("table-figures");
    let run = dir.join("run");
    draftsim(&["run", "--game", "sevens", "--rounds", "2400", "--seed", "4", "--quiet", "--out", path(&run)]);
    let out = report(&dir, &[&run]);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("The same for every strategy, since every strategy sat at every hand (figures of the table): nobody qualifies rate "),
        "{md}"
    );
    assert!(!out.join("1-nobody-qualifies-rate.svg").exists() && !out.join("1-split-rate.svg").exists());
    assert!(out.join("1-mean-cards-traded.svg").exists(), "cards traded differ by strategy");
    // A hand nobody wins counts for none: the win shares are parts of a hand won, not
    // shares of the wins (they add to less than one here).
    assert!(
        md.contains(
            "The part of a hand each strategy won (a split counted as its share; a hand nobody wins counts for none"
        ),
        "{md}"
    );
    assert!(md.contains("The part of a hand each seat won (a split counted as its share)"), "{md}");
}

/// The most exploitable is named among the bounds shown above 0: a larger figure whose
/// interval reaches 0 is not shown to be more.
#[test]
fn the_most_exploitable_is_one_shown_above_zero() {
    let dir = scratch("bounds-mixed");
    let table = "strategy,exploitability,exploitability_lo,exploitability_hi,bound,method,best_responder\n\
        wide,0.3,-0.05,0.65,lower,best of 2 responders,search\n\
        tight,0.2,0.1,0.3,lower,best of 2 responders,search\n\
        greedy,0.05,0.01,0.09,lower,best of 2 responders,search\n";
    let bounds = folder(&dir, "bounds", "exploitability", &[("exploitability", table.to_string())]);
    let md = std::fs::read_to_string(report(&dir, &[&bounds]).join("report.md")).unwrap();
    assert!(md.contains("The most exploitable here is tight (at least 0.200 [0.100, 0.300])"), "{md}");
    assert!(md.contains("By the best responses tried, tight is at least 0.200 [0.100, 0.300] from optimal"), "{md}");
    assert!(!md.contains("not shown above 0 from optimal"), "{md}");
    assert!(md.contains("they gained least against greedy (at least 0.050 [0.010, 0.090])"), "{md}");
    assert!(md.contains("Against wide no bound is shown above 0."), "{md}");
}

/// A strategy no responder gained against has no bound above 0, which is said in words,
/// not as an interval of no width that would read as a proof.
#[test]
fn a_bound_no_responder_set_is_not_shown_as_zero() {
    let dir = scratch("bounds-none-gained");
    let table = "strategy,exploitability,exploitability_lo,exploitability_hi,bound,method,best_responder\n\
        search,0,0,0,lower,best of 1 responder,none gained\n\
        cfr,0,0,0.285,lower,best of 1 responder,none gained\n\
        random,0.47,0.3,0.6,lower,best of 1 responder,search\n";
    let bounds = folder(&dir, "bounds", "exploitability", &[("exploitability", table.to_string())]);
    let md = std::fs::read_to_string(report(&dir, &[&bounds]).join("report.md")).unwrap();
    assert!(md.contains("| search | no responder gained: no bound above 0 | none gained |"), "{md}");
    // Where a responder's interval reached above 0, the most it might gain stays in sight.
    assert!(
        md.contains("| cfr | no responder gained: no bound above 0 (the responders' intervals reach 0.285) |"),
        "{md}"
    );
    assert!(!md.contains("0.000 [0.000, 0.000]"), "{md}");
    // Least is said of a bound shown above 0 only; the rest are named as what they are.
    assert!(md.contains("from optimal in chips per round. Against search and cfr no bound is shown above 0."), "{md}");
    assert!(!md.contains("gained least against search"), "{md}");
}

/// Lower bounds whose intervals all reach 0 name no strategy "the most exploitable".
#[test]
fn bounds_that_reach_zero_name_no_strategy_most_exploitable() {
    let dir = scratch("bounds-at-zero");
    let table = "strategy,exploitability,exploitability_lo,exploitability_hi,bound,method,best_responder\n\
        tight,0.08,0,0.267,lower,best of 2 responders,search\n\
        greedy,0.02,0,0.1,lower,best of 2 responders,search\n";
    let bounds = folder(&dir, "bounds", "exploitability", &[("exploitability", table.to_string())]);
    let md = std::fs::read_to_string(report(&dir, &[&bounds]).join("report.md")).unwrap();
    assert!(!md.contains("most exploitable"), "{md}");
    assert!(
        md.contains(
            "The largest figure is tight's (0.080 [0.000, 0.267], not shown above 0), but no interval lies above 0"
        ),
        "{md}"
    );
    // A bound whose interval reaches 0 is not called "at least" its estimate.
    assert!(md.contains("| tight | 0.080 [0.000, 0.267], not shown above 0 | search |"), "{md}");
    assert!(!md.contains("at least 0.080"), "{md}");
    assert!(
        md.contains("No best response tried beats any strategy here beyond noise (the largest figure is tight's"),
        "{md}"
    );
    // Nothing shown beatable is not shown near optimal.
    assert!(md.contains("which does not show any near optimal") && !md.contains("apart from optimal"), "{md}");
}

/// A sampled policy's training says where its distance from optimal is bounded: in the
/// exploitability section when the report holds one, else by the command that measures it.
#[test]
fn a_sampled_trainings_bound_is_found_in_the_same_report() {
    let dir = scratch("training-bounded");
    let curve = "iterations,seconds,information_sets\n1,0.01,10\n1000,1.5,400\n".to_string();
    let training = folder(&dir, "policy", "train", &[("training", curve)]);
    let alone = std::fs::read_to_string(report(&dir, &[&training]).join("report.md")).unwrap();
    assert!(alone.contains("its distance from optimal is bounded by `draftsim exploitability`, not here"), "{alone}");
    let head = "strategy,exploitability,exploitability_lo,exploitability_hi,bound,method,best_responder\n";
    // A table of other players bounds nothing of this policy.
    let others = format!("{head}tight,0.2,0.1,0.3,lower,best of 2 responders,search\n");
    let elsewhere = folder(&dir, "others", "exploitability", &[("exploitability", others)]);
    let md = std::fs::read_to_string(report(&scratch("training-others"), &[&training, &elsewhere]).join("report.md"))
        .unwrap();
    assert!(md.contains("bounded by `draftsim exploitability`, not here"), "{md}");
    // One that plays the policy from its folder (quoted in CSV) does.
    let played = format!("\"cfr{{policy=\"\"{}\"\"}}\"", training.display());
    let table = format!("{head}{played},0.2,0.1,0.3,lower,best of 2 responders,search\n");
    let bounds = folder(&dir, "bounds", "exploitability", &[("exploitability", table.clone())]);
    let again = scratch("training-bounded-both");
    let both = std::fs::read_to_string(report(&again, &[&training, &bounds]).join("report.md")).unwrap();
    assert!(
        both.contains("its distance from optimal is bounded from below in this report's exploitability section"),
        "{both}"
    );
    assert!(both.contains("the exploitability section of this report bounds it from below by play"), "{both}");
    // A relative folder is the exploitability command's, found from where it ran
    // (provenance.json), not from where the report runs.
    let relative = folder(
        &dir,
        "relative",
        "exploitability",
        &[("exploitability", format!("{head}cfr{{policy=policy}},0.2,0.1,0.3,lower,best of 2 responders,search\n"))],
    );
    std::fs::write(
        relative.join("provenance.json"),
        format!("{{\"working_directory\": {:?}}}", dir.display().to_string()),
    )
    .unwrap();
    let md = std::fs::read_to_string(report(&scratch("training-relative"), &[&training, &relative]).join("report.md"))
        .unwrap();
    assert!(md.contains("bounded from below in this report's exploitability section"), "{md}");
    assert!(!both.contains("not here"), "{both}");
    // Bounds of another game's folder of that name are not this policy's.
    let other = dir.join("other-game");
    std::fs::create_dir_all(&other).unwrap();
    let meta = "{\"game\": \"sevens\", \"kind\": \"exploitability\", \"seed\": 1, \"rounds\": 1000}";
    std::fs::write(other.join("study.json"), meta).unwrap();
    std::fs::write(other.join("exploitability.csv"), table).unwrap();
    let third = scratch("training-bounded-other");
    let md = std::fs::read_to_string(report(&third, &[&training, &other]).join("report.md")).unwrap();
    assert!(md.contains("bounded by `draftsim exploitability`, not here"), "{md}");
}

/// The summary names every strategy level with the leader on the same deals, not only the
/// runner-up; and a count rounded up to whole deals is explained where the report says how
/// its figures were made.
#[test]
fn every_strategy_level_with_the_leader_shares_the_lead() {
    let dir = scratch("level-lead");
    let run = dir.join("run");
    draftsim(&["run", "--rounds", "2000", "--quiet", "--out", path(&run)]);
    let md = std::fs::read_to_string(report(&dir, &[&run]).join("report.md")).unwrap();
    // Default seed: hate leads; tight and greedy trail it by intervals that cross 0.
    assert!(md.contains("hate, tight and greedy lead level within noise: chips per round"), "{md}");
    assert!(
        md.contains("(on the same deals, hate's lead over tight 0.2285 [-0.2025, 0.6596], over greedy 0.3992"),
        "{md}"
    );
    assert!(md.contains("random scores least"), "{md}");
    assert!(md.contains("rounds 2004 (2000 asked, rounded up to whole deals)"), "{md}");
    // A shard plays its share, and --until-ci stops early: neither is a rounding up.
    let shard = dir.join("shard");
    std::fs::create_dir_all(&shard).unwrap();
    draftsim(&["run", "--rounds", "2000", "--shard", "0/2", "--quiet", "--out", path(&shard.join("run"))]);
    let md = std::fs::read_to_string(report(&shard, &[&shard.join("run")]).join("report.md")).unwrap();
    assert!(md.contains("(this shard's share of the 2000 asked)"), "{md}");
    let early = dir.join("early");
    std::fs::create_dir_all(&early).unwrap();
    let args = ["--game", "kuhn-poker", "--until-ci", "0.05", "--rounds", "100000", "--quiet", "--out"];
    draftsim(&[&["run"][..], &args, &[path(&early.join("run"))]].concat());
    let md = std::fs::read_to_string(report(&early, &[&early.join("run")]).join("report.md")).unwrap();
    assert!(
        md.contains("(at most 100000 asked; --until-ci 0.05 stopped the run once every win rate was that close)"),
        "{md}"
    );
    // So do a study's, as its opening line says them: what each pair played.
    let compare = dir.join("compare");
    let o = common::draftsim(&[
        "compare",
        "--strategies",
        "greedy,tight",
        "--players",
        "4",
        "--rounds",
        "500",
        "--out",
        path(&compare),
    ]);
    let said = "504 rounds per pair (500 asked, rounded up to whole deals)";
    assert!(String::from_utf8_lossy(&o.stderr).contains(said), "{}", String::from_utf8_lossy(&o.stderr));
    let matrix = common::csv_rows(&compare.join("matrix.csv"));
    assert!(matrix.iter().all(|r| r["rounds"] == "504"), "{matrix:?}");
    let md = std::fs::read_to_string(report(&dir.join("compare-page"), &[&compare]).join("report.md")).unwrap();
    assert!(md.contains(&format!("played {said}")), "{md}");
    // And a run's opening line, as the report does.
    let o = common::draftsim(&["run", "--rounds", "2000"]);
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("2004 rounds (2000 asked, rounded up to whole deals; 12 seatings a deal)"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A versus section gives each listed figure its smallest effect, says why a figure alike
/// on every group is undecided, counts every changed or undecided figure under its chart
/// and reads a strategy's figure as its own; a calibration names the strategy calibrated
/// and the worst bin's count, and charts its gaps under a title naming the widest.
#[test]
fn versus_and_calibration_sections_say_what_their_verdicts_rest_on() {
    let dir = scratch("verdicts-rest-on");
    let cap = dir.join("cap.toml");
    std::fs::write(&cap, "raise_cap = 2\n").unwrap();
    let v = dir.join("v");
    draftsim(&["versus", "--game", "sevens", "defaults", path(&cap), "--rounds", "400", "--quiet", "--out", path(&v)]);
    let md = std::fs::read_to_string(report(&dir, &[&v]).join("report.md")).unwrap();
    assert!(md.contains("`completion` (±0.0100)") && md.contains("`timeouts` (±0)"), "{md}");
    // A figure listed by its words, with the name --min-effect takes; no brackets promised.
    assert!(md.contains("fold rate in round 1 (`fold_rate_r1`, ±"), "{md}");
    assert!(!md.contains("brackets") && !md.contains("`fold_rate_r1` (±"), "{md}");
    // A smallest effect given is a setting of how the figures were made.
    let e = dir.join("e");
    let effect = ["--min-effect", "completion=0.05", "--out", path(&e)];
    draftsim(
        &[&["versus", "--game", "sevens", "defaults", path(&cap), "--rounds", "400", "--quiet"][..], &effect].concat(),
    );
    let second = dir.join("second");
    std::fs::create_dir_all(&second).unwrap();
    let made = std::fs::read_to_string(report(&second, &[&e]).join("report.md")).unwrap();
    let made = &made[made.find("## How these figures were made").expect(&made)..];
    assert!(made.contains(" · --min-effect completion=0.05"), "{made}");
    assert!(
        md.contains("`timeouts`") && md.contains("showed no difference on any deal group that measured them"),
        "{md}"
    );
    let table = std::fs::read_to_string(v.join("versus.csv")).unwrap();
    let verdict = table.lines().next().unwrap().split(',').position(|c| c == "verdict").unwrap();
    let is = |line: &str, v: &str| line.split(',').nth(verdict) == Some(v);
    let open = table.lines().filter(|l| is(l, "changed") || is(l, "undecided")).count();
    assert!(md.contains(&format!("largest of the {open} changed or undecided figures")), "{open}: {md}");
    // A strategy's changed figure reads as its own, in the score's units.
    let mut owned = 0;
    for line in table.lines().filter(|l| is(l, "changed")) {
        let cells: Vec<&str> = line.split(',').collect();
        if cells[0] == "score" && !cells[1].is_empty() {
            assert!(md.contains(&format!("- `{}`'s score (chips per hand) ", cells[1])), "{line}: {md}");
            owned += 1;
        }
    }
    assert!(owned > 0 && !md.lines().any(|l| l.starts_with("- ") && l.contains("score:")), "{table}: {md}");
    let k = dir.join("k");
    draftsim(&["calibrate", "--seats", "tight", "--rounds", "1000", "--quiet", "--out", path(&k)]);
    let out = dir.join("k-report");
    draftsim(&["report", path(&k), "--out", path(&out), "--quiet"]);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("every seat drafting with `tight`'s module"), "{md}");
    assert!(md.contains(" estimates, after pick "), "{md}");
    // Each calibration has its chart, titled with the widest gap: at the full table, the bin
    // of 200 estimates or more whose share won is farthest from its estimate.
    assert!(out.join("1-calibration.svg").is_file() && out.join("1-field_calibration.svg").is_file(), "{md}");
    let field = std::fs::read_to_string(k.join("field_calibration.csv")).unwrap();
    let mut lines = field.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let rows: Vec<Vec<f64>> = lines.map(|l| l.split(',').map(|v| v.parse().unwrap_or(f64::NAN)).collect()).collect();
    let at = |row: &[f64], name: &str| row[header.iter().position(|h| *h == name).unwrap()];
    let full = rows.iter().map(|r| at(r, "opponents")).fold(0.0, f64::max);
    let worst = rows
        .iter()
        .filter(|r| at(r, "opponents") == full && at(r, "estimates") >= 200.0)
        .max_by(|a, b| {
            let gap = |r: &[f64]| (at(r, "mean_estimate") - at(r, "won")).abs();
            gap(a).total_cmp(&gap(b))
        })
        .unwrap();
    let title = format!(
        "![Beating {full:.0} opponents: estimates {:.1}–{:.1} after pick {:.0} won {:.3}](1-field_calibration.svg)",
        at(worst, "bin_low"),
        at(worst, "bin_high"),
        at(worst, "after_pick"),
        at(worst, "won")
    );
    assert!(md.contains(&title), "{title}: {md}");
    // Both summary lines carry an interval.
    let line =
        |start: &str| md.lines().find(|l| l.contains(start)).unwrap_or_else(|| panic!("{start}: {md}")).to_string();
    assert!(
        line("predicts the finished hand's percentile to within")
            .contains("percentile points in the common bins (the widest gap, after pick"),
        "{md}"
    );
    assert!(line("The chance of beating the field is off by up to").contains("] (after pick"), "{md}");
    // A largest gap at fewer opponents than the table's full field says the table lacks it.
    let all = rows.iter().filter(|r| at(r, "estimates") >= 200.0).max_by(|a, b| {
        let gap = |r: &[f64]| (at(r, "mean_estimate") - at(r, "won")).abs();
        gap(a).total_cmp(&gap(b))
    });
    let fewer = all.is_some_and(|r| at(r, "opponents") < full);
    let only = format!("; the table shows {full:.0} opponents only):");
    assert_eq!(line("The chance of beating the field is off by up to").contains(&only), fewer, "{md}");
    // Too few rounds for any bin: nothing measured, and nothing claimed.
    let few = dir.join("few");
    draftsim(&["calibrate", "--rounds", "50", "--quiet", "--out", path(&few)]);
    let out = dir.join("few-report");
    draftsim(&["report", path(&few), "--out", path(&out), "--quiet"]);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("calibration is not measured: no bin holds 200 estimates") && !md.contains("within 0.0"),
        "{md}"
    );
}

/// The first seat's edge says what seat 0 does at the game's table: in Winston it drafts
/// first, and who starts the first game follows the rules.
#[test]
fn the_first_seat_edge_says_what_seat_0_does() {
    let dir = scratch("first-seat");
    let rules = dir.join("first.toml");
    std::fs::write(&rules, "starter = \"first-drafter\"\n").unwrap();
    for (name, extra, said) in [
        ("second", vec![], "seat 0 drafts first; seat 1 starts the first game"),
        ("first", vec!["--rules", path(&rules)], "seat 0 drafts first and starts the first game"),
    ] {
        let run = dir.join(name);
        let mut args =
            vec!["run", "--game", "winston-crazier-eights", "--rounds", "40", "--quiet", "--out", path(&run)];
        args.extend(extra);
        draftsim(&args);
        let health = std::fs::read_to_string(run.join("health.csv")).unwrap();
        let line = health.lines().find(|l| l.starts_with("first_seat_edge,")).unwrap();
        assert!(line.contains(said), "{line}");
        let md = std::fs::read_to_string(report(&dir.join(format!("page-{name}")), &[&run]).join("report.md")).unwrap();
        assert!(md.lines().any(|l| l.starts_with("| first_seat_edge |") && l.contains(said)), "{md}");
    }
}

/// The sentence under a chart, found by the chart's file name.
fn caption(md: &str, file: &str) -> String {
    let at = md.find(&format!("]({file})")).unwrap_or_else(|| panic!("{file}: {md}"));
    md[at..].lines().nth(2).unwrap().to_string()
}

/// A chart's sentence says what it shows before how it was made: who leads (and whether
/// clear of the next), who folds most, who beats whom, who scores most along a sweep;
/// each read back from the tables the charts were drawn from.
#[test]
fn chart_captions_say_what_the_chart_shows() {
    let dir = scratch("captions");
    let run = dir.join("run");
    draftsim(&["run", "--seats", "greedy,tight,random", "--rounds", "1500", "--quiet", "--out", path(&run)]);
    let md = std::fs::read_to_string(report(&dir.join("run-page"), &[&run]).join("report.md")).unwrap();
    let summary = common::csv_rows(&run.join("summary.csv"));
    let f = |row: &std::collections::HashMap<String, String>, k: &str| row[k].parse::<f64>().unwrap();
    let mut by_win: Vec<_> = summary.iter().collect();
    by_win.sort_by(|a, b| f(b, "win_rate").total_cmp(&f(a, "win_rate")));
    let (top, next) = (by_win[0], by_win[1]);
    let said = caption(&md, "1-win-share.svg");
    assert!(said.starts_with(&format!("`{}` (", top["strategy"])), "{said}");
    assert!(said.contains("has the highest win share per round"), "{said}");
    let clear = f(top, "win_rate_lo") > f(next, "win_rate_hi");
    assert_eq!(said.contains("its interval clear of the next's"), clear, "{said}");
    assert!(said.contains(&format!("`{}` (", by_win[2]["strategy"])) && said.contains("has the lowest"), "{said}");
    let folded = |row: &std::collections::HashMap<String, String>| {
        (1..=3).map(|r| f(row, &format!("fold_rate_r{r}"))).sum::<f64>()
    };
    let most = summary.iter().max_by(|a, b| folded(a).total_cmp(&folded(b))).unwrap();
    let said = caption(&md, "1-fold-rate.svg");
    assert!(said.starts_with(&format!("`{}` ({:.4} [", most["strategy"], folded(most))), "{said}");
    assert!(said.contains("has the highest share of its rounds folded in all"), "{said}");
    // The share folded in all is a measure of its own, whose interval over deal groups the
    // sentence gives, as every round's in the chart.
    let measures = common::csv_rows(&run.join("measures.csv"));
    let row = measures
        .iter()
        .find(|r| r["by"] == "strategy" && r["group"] == most["strategy"] && r["measure"] == "fold_rate")
        .unwrap();
    assert!((f(row, "value") - folded(most)).abs() < 1e-9, "{row:?}");
    let told = format!("({:.4} [{:.4}, {:.4}])", folded(most), f(row, "value_lo"), f(row, "value_hi"));
    assert!(said.contains(&told), "{told}: {said}");
    assert!(said.contains("95% intervals (over deal groups, as the measures table gives them)"), "{said}");

    let compare = compare_three(&dir);
    let md = std::fs::read_to_string(report(&dir.join("compare-page"), &[&compare]).join("report.md")).unwrap();
    let matrix = common::csv_rows(&compare.join("matrix.csv"));
    // Seven Card Draft is played for chips: the matrix charted is the chips one.
    let beats = |s: &str| {
        (matrix.iter())
            .filter(|r| r["strategy"] == s && r["opponent"] != s && f(r, "chips_diff_per_round_lo") > 0.0)
            .count()
    };
    let best = ["greedy", "tight", "random"].into_iter().max_by_key(|s| (beats(s), std::cmp::Reverse(*s))).unwrap();
    let said = caption(&md, "1-matrix.svg");
    let told = match beats(best) {
        0 => "No strategy beats any other beyond noise".to_string(),
        2 => format!("`{best}` beats all 2 others beyond noise (its chips diff per round wholly above zero)."),
        k => format!("`{best}` beats {k} of the 2 others beyond noise (its chips diff per round wholly above zero)."),
    };
    assert!(said.starts_with(&told), "{told}: {said}");
    assert!(said.contains("The chips diff per round of the row strategy against the column strategy"), "{said}");
    let svg = std::fs::read_to_string(dir.join("compare-page").join("report").join("1-matrix.svg")).unwrap();
    assert!(svg.contains("Chips diff per round, row minus column"), "the chips chart");
    // The table a pair played at is said beside the matrix, as study.json records it.
    let study: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(compare.join("study.json")).unwrap()).unwrap();
    let at = format!(
        "per pair, at tables of {} players ({}).",
        study["players"].as_u64().unwrap(),
        study["seating"].as_str().unwrap()
    );
    assert!(md.lines().any(|l| l.starts_with("Win share of the row strategy") && l.contains(&at)), "{at}: {md}");
    let ratings = common::csv_rows(&compare.join("ratings.csv"));
    let top = ratings.iter().max_by(|a, b| f(a, "rating").total_cmp(&f(b, "rating"))).unwrap();
    let said = caption(&md, "1-ratings.svg");
    assert!(said.starts_with(&format!("`{}` ({:.0} [", top["strategy"], f(top, "rating"))), "{said}");

    let sweep = dir.join("sweep");
    draftsim(&[
        "sweep",
        "--seats",
        "greedy,random",
        "--set",
        "ante=1,4",
        "--rounds",
        "300",
        "--quiet",
        "--out",
        path(&sweep),
    ]);
    let md = std::fs::read_to_string(report(&dir.join("sweep-page"), &[&sweep]).join("report.md")).unwrap();
    let rows = common::csv_rows(&sweep.join("sweep.csv"));
    let lead = |ante: &str| {
        let here: Vec<_> = rows.iter().filter(|r| r["ante"] == ante).collect();
        here.iter().max_by(|a, b| f(a, "chips_per_round").total_cmp(&f(b, "chips_per_round"))).unwrap()["strategy"]
            .clone()
    };
    let said = caption(&md, "1-sweep-chips-by-strategy.svg");
    let told = if lead("1") == lead("4") {
        format!("`{}` has the highest chips per round at every value of `ante`.", lead("1"))
    } else {
        format!(
            "Which strategy has the highest chips per round changes with `ante`: `{}` at 1; `{}` at 4.",
            lead("1"),
            lead("4")
        )
    };
    assert!(said.starts_with(&told), "{told}: {said}");
    // At draft.weight 0 hate drafts as greedy does: the two score exactly alike there, and
    // neither is named the leader alone.
    let tie = dir.join("tie");
    let vary = ["--seats", "hate,greedy", "--vary", "hate.draft.weight=0,1", "--rounds", "120", "--quiet"];
    draftsim(&[&["sweep"], &vary[..], &["--out", path(&tie)]].concat());
    let md = std::fs::read_to_string(report(&dir.join("tie-page"), &[&tie]).join("report.md")).unwrap();
    let said = caption(&md, "1-sweep-chips-by-strategy.svg");
    assert!(
        said.contains("`hate` and `greedy` (level) at 0") || said.contains("`greedy` and `hate` (level) at 0"),
        "{said}"
    );
}

/// Three heads-up runs of Leduc Hold'em, each the trained player against one other: the
/// report gathers them into one table and chart, one summary line, and leaves out each
/// run's own summary lines and charts; two such runs keep their own.
#[test]
fn several_runs_of_two_strategies_are_gathered_into_one_table() {
    let dir = scratch("gathered");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let runs: Vec<PathBuf> = ["random", "calling-station", "aggressive"]
        .iter()
        .map(|other| {
            let out = dir.join(format!("cfr-{other}"));
            let seats = format!("cfr,{other}");
            draftsim(&[
                "run",
                "--game",
                "leduc-poker",
                "--seats",
                &seats,
                "--rounds",
                "2000",
                "--quiet",
                "--out",
                path(&out),
            ]);
            out
        })
        .collect();
    let out = dir.join("report");
    let inputs: Vec<&str> = runs.iter().map(|p| path(p)).collect();
    let mut args = vec!["report"];
    args.extend(&inputs);
    args.extend(["--out", path(&out), "--quiet"]);
    draftsim(&args);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let summary = &md[md.find("## Summary").unwrap()..md.find("## Contents").unwrap()];
    assert_eq!(summary.matches("- **").count(), 1, "one line for the three runs: {summary}");
    assert!(
        summary.contains("Leduc Hold'em, heads-up: of 3 runs of two strategies, the strategy named first scores more than the other in all 3 (interval above zero), in chips per hand on the same deals."),
        "{summary}"
    );
    let start = md.find("### Head to head: Leduc Hold'em, heads-up").expect("a gathered part");
    let section = &md[start..start + md[start..].find("\n### ").unwrap_or(md.len() - start)];
    for other in ["random", "calling-station", "aggressive"] {
        assert!(
            section.contains(&format!("| cfr | {other} | ")),
            "a row per run, the first-named strategy first: {section}"
        );
    }
    let charts: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".svg"))
        .collect();
    assert_eq!(charts, ["pairings-1.svg"], "the runs' own charts give way to the gathered one");
    assert!(md.contains("(pairings-1.svg)"));
    // Two runs are not gathered.
    let mut args = vec!["report"];
    args.extend(&inputs[..2]);
    args.extend(["--out", path(&out), "--quiet", "--force"]);
    draftsim(&args);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(!md.contains("Head to head"), "{md}");
    // Beside the three: a lone run of another game (its group has one run), a run without
    // rotation (a seat's edge in its difference) and a shard (a share of its run's deals)
    // keep their own summary lines; the three are still gathered.
    let others = [
        ("kuhn", vec!["--game", "kuhn-poker", "--seats", "cfr,random"]),
        ("fixed-seats", vec!["--game", "leduc-poker", "--seats", "cfr,tight", "--no-rotate"]),
        ("shard", vec!["--game", "leduc-poker", "--seats", "cfr,tight", "--shard", "0/2"]),
    ];
    let folders: Vec<PathBuf> = (others.iter())
        .map(|(name, flags)| {
            let folder = dir.join(name);
            let mut run = vec!["run", "--rounds", "2000", "--quiet", "--out", path(&folder)];
            run.extend(flags.iter().copied());
            draftsim(&run);
            folder
        })
        .collect();
    let mut args = vec!["report"];
    args.extend(&inputs);
    args.extend(folders.iter().map(|f| path(f)));
    args.extend(["--out", path(&out), "--quiet", "--force"]);
    draftsim(&args);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let summary = &md[md.find("## Summary").unwrap()..md.find("## Contents").unwrap()];
    assert_eq!(summary.matches("of 3 runs of two strategies").count(), 1, "{summary}");
    for (name, _) in &others {
        assert!(summary.contains(&format!("(`{name}`)")), "{name} keeps its own lines: {summary}");
    }
    assert_eq!(md.matches("### Head to head").count(), 1, "{md}");
    // A folder named as a gathered one, elsewhere, is told apart by its path: its own
    // heading and its own lines.
    let twin = dir.join("elsewhere").join("cfr-random");
    let seats = ["--game", "kuhn-poker", "--seats", "cfr,random", "--rounds", "2000", "--quiet"];
    draftsim(&[&["run", "--out", path(&twin)][..], &seats].concat());
    let mut args = vec!["report"];
    args.extend(&inputs);
    args.extend(["--out", path(&out), "--quiet", "--force", path(&twin)]);
    draftsim(&args);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let summary = &md[md.find("## Summary").unwrap()..md.find("## Contents").unwrap()];
    assert!(summary.contains("(`elsewhere/cfr-random`)"), "{summary}");
    assert!(md.contains("| cfr | random | ") && md.contains("gathered/cfr-random"), "{md}");
    assert!(md.contains("run `elsewhere/cfr-random`") && !md.contains("run `cfr-random`"), "{md}");
}

#[test]
fn a_run_of_one_strategy_says_its_figures_in_sentences_not_one_bar_charts() {
    let dir = scratch("mirror");
    let run = dir.join("run");
    draftsim(&[
        "run",
        "--game",
        "leduc-poker",
        "--seats",
        "tight,tight",
        "--rounds",
        "500",
        "--quiet",
        "--out",
        path(&run),
    ]);
    let out = dir.join("report");
    draftsim(&["report", path(&run), "--out", path(&out), "--quiet"]);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("`tight` held every seat, so no strategy is compared"), "{md}");
    let figures = md.lines().find(|l| l.starts_with("Figures of the table, `tight` at every seat")).expect(&md);
    assert!(figures.contains("showdown rate 0.") && figures.contains("mean raises "), "{figures}");
    assert!(!md.contains("by strategy](") && !out.join("1-win-share.svg").exists(), "{md}");
}

/// A table cut short is named once, with one fix, not the reader's words wrapped in the
/// report's.
#[test]
fn a_table_cut_short_is_named_once_with_one_fix() {
    let dir = scratch("cut-short");
    let run = dir.join("run");
    draftsim(&["run", "--rounds", "200", "--quiet", "--out", path(&run)]);
    let summary = run.join("summary.csv");
    let text = std::fs::read_to_string(&summary).unwrap();
    std::fs::write(&summary, &text[..text.len() - 3]).unwrap();
    let o = common::draftsim(&["report", path(&run), "--out", path(&dir.join("report"))]);
    assert_eq!(o.status.code(), Some(2), "{}", common::stderr(&o));
    let said = common::stderr(&o);
    assert_eq!(said.matches("summary.csv").count(), 1, "{said}");
    assert_eq!(said.matches("again").count(), 1, "{said}");
    assert!(said.contains("cut short (its last line is unfinished)"), "{said}");
}

/// A sensitivity chart's sentence leads with the largest change shown beyond noise; a
/// larger one that may be noise is named after it as such, not as what moves it most.
#[test]
fn a_sensitivity_caption_leads_with_a_change_beyond_noise() {
    let dir = scratch("sensitivity-noise");
    let source = Path::new("reports/health/data/seven-card-draft-sensitivity");
    let folder = dir.join("sensitivity");
    std::fs::create_dir_all(&folder).unwrap();
    for entry in std::fs::read_dir(source).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), folder.join(entry.file_name())).unwrap();
    }
    // The skill gap's two largest moves (pot and no limit) made noise.
    let table = std::fs::read_to_string(folder.join("sensitivity.csv")).unwrap();
    let table: String = table
        .lines()
        .map(|l| {
            if l.starts_with("limit,fixed-limit,") && l.contains(",skill_gap,") {
                let mut cells: Vec<String> = l.split(',').map(String::from).collect();
                (cells[8], cells[9], cells[10]) = ("0.4".into(), "0.9".into(), "false".into());
                cells.join(",") + "\n"
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    std::fs::write(folder.join("sensitivity.csv"), table).unwrap();
    let out = report(&dir, &[&folder]);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    // The skill gap in the game's own units, which a key that scales the stakes moves.
    let said =
        md.lines().find(|l| l.contains("Skill gap, in chips per round (base ")).unwrap_or_else(|| panic!("{md}"));
    assert!(
        !said.contains("changes most under `limit=") && said.contains(") changes most beyond noise under `"),
        "{said}"
    );
    assert!(said.contains("(`limit=pot-limit` moves it further, by 10.2019"), "{said}");
    assert!(said.contains("but not beyond noise after the Holm correction)"), "{said}");
}

/// A versus headline leads with a figure both sides have: adding wilds makes wild wins
/// appear (from zero, by the rules), which says nothing a designer did not write.
#[test]
fn a_versus_headline_leads_with_a_figure_both_sides_have() {
    let dir = scratch("headline-both-sides");
    let wild = dir.join("wild.toml");
    std::fs::write(&wild, "wild = [\"deuces\"]\n").unwrap();
    let v = dir.join("v");
    draftsim(&["versus", "defaults", path(&wild), "--rounds", "480", "--quiet", "--out", path(&v)]);
    let table = std::fs::read_to_string(v.join("versus.csv")).unwrap();
    assert!(table.lines().any(|l| l.starts_with("wild_win_rate,,0,") && l.contains(",changed,")), "{table}");
    let md = std::fs::read_to_string(report(&dir, &[&v]).join("report.md")).unwrap();
    let headline = md.lines().find(|l| l.contains("the largest change")).expect(&md);
    assert!(!headline.contains("wild win rate"), "{headline}");
}

/// Folders of one game under different rules name their rules beside their summary lines:
/// the keys set away from the defaults, or the default rules; under the same rules only
/// the folder is named.
#[test]
fn summary_lines_name_each_folders_rules_where_the_rules_differ() {
    let dir = scratch("rules-beside-lines");
    let ante = dir.join("ante.toml");
    std::fs::write(&ante, "ante = 2\n").unwrap();
    let (plain, raised, again) = (dir.join("plain"), dir.join("raised"), dir.join("again"));
    draftsim(&["run", "--rounds", "240", "--quiet", "--out", path(&plain)]);
    draftsim(&["run", "--rules", path(&ante), "--rounds", "240", "--quiet", "--out", path(&raised)]);
    draftsim(&["run", "--rounds", "240", "--seed", "2", "--quiet", "--out", path(&again)]);
    let md = std::fs::read_to_string(report(&dir, &[&plain, &raised]).join("report.md")).unwrap();
    let summary = &md[..md.find("## Contents").expect(&md)];
    assert!(summary.contains("(`plain`: default rules)") && summary.contains("(`raised`: `ante = 2`)"), "{summary}");
    let same = dir.join("same");
    std::fs::create_dir_all(&same).unwrap();
    let md = std::fs::read_to_string(report(&same, &[&plain, &again]).join("report.md")).unwrap();
    let summary = &md[..md.find("## Contents").expect(&md)];
    assert!(summary.contains("(`plain`)") && !summary.contains("default rules"), "{summary}");
}
