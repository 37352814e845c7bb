//! `sensitivity` and the health card from the command line: planted effects found and
//! not found, resuming after an interruption, refusals, and the report's sections.

use crate::common;

use common::{draftsim, files, report_part, scratch, stderr, stdout};
use draftsim::Error;
use draftsim::games::{GameInfo, RuleStep, sevens};
use draftsim::study::sensitivity::{self, SensitivitySpec, SensitivityState};

fn spec(rounds_as_deals: u64) -> SensitivitySpec {
    SensitivitySpec { rules: None, keys: Vec::new(), players: None, seats: None, deals: rounds_as_deals, seed: 5 }
}

/// Sevens with two planted keys: the player count certainly moves a hand's length; under
/// the default refund rule `max_carry_hands` changes nothing at all.
const PLANTED: GameInfo = GameInfo {
    rule_steps: &[
        ("players", RuleStep::Int { min: 2, max: 6, step: 1 }),
        ("max_carry_hands", RuleStep::Int { min: 1, max: 30, step: 1 }),
    ],
    ..sevens::INFO
};

fn play(info: &GameInfo, spec: &SensitivitySpec) -> SensitivityState {
    let mut state = SensitivityState::default();
    sensitivity::run(info, spec, None, &mut state, None, &mut |_| Ok(()), &mut |_, _, _| {}).unwrap();
    state
}

#[test]
fn a_planted_effect_is_found_and_a_key_that_changes_nothing_is_not() {
    let state = play(&PLANTED, &spec(400));
    let effects = sensitivity::effects(&state);
    let length = |key: &str, value: &str| {
        effects
            .iter()
            .find(|e| e.deviation.key == key && e.deviation.value == value && e.figure == "length_mean")
            .unwrap_or_else(|| panic!("{key}={value}: no length row in {effects:?}"))
    };
    // Players: 4 -> 3 shortens a hand, 4 -> 5 lengthens it, both significantly.
    assert!(length("players", "3").effect.hi < 0.0 && length("players", "3").p_holm < 0.05);
    assert!(length("players", "5").effect.lo > 0.0 && length("players", "5").p_holm < 0.05);
    // The key that does nothing: the very same play, so every effect is exactly zero.
    for e in effects.iter().filter(|e| e.deviation.key == "max_carry_hands") {
        assert_eq!(e.effect.mean, 0.0, "{e:?}");
        assert!(e.p_holm >= 0.05, "{e:?}");
    }
    assert!(effects.iter().any(|e| e.deviation.key == "max_carry_hands"));
    // Significant rows come first.
    let first_plain = effects.iter().position(|e| e.p_holm >= 0.05).unwrap();
    assert!(effects[first_plain..].iter().all(|e| e.p_holm >= 0.05));
}

#[test]
fn an_interrupted_study_resumes_to_the_uninterrupted_result() {
    let spec = SensitivitySpec { keys: vec!["raise_cap".into(), "ante".into()], ..spec(120) };
    let whole = play(&sevens::INFO, &spec);
    // Interrupted after the base and one deviation: what was saved is kept.
    let mut saved = SensitivityState::default();
    let mut saves = 0;
    let mut state = SensitivityState::default();
    let result = sensitivity::run(
        &sevens::INFO,
        &spec,
        None,
        &mut state,
        None,
        &mut |s| {
            saves += 1;
            saved = s.clone();
            if saves == 2 { Err(Error::Interrupted) } else { Ok(()) }
        },
        &mut |_, _, _| {},
    );
    assert!(matches!(result, Err(Error::Interrupted)));
    assert_eq!(saved.deviations.len(), 1);
    let mut resumed = saved;
    sensitivity::run(&sevens::INFO, &spec, None, &mut resumed, None, &mut |_| Ok(()), &mut |_, _, _| {}).unwrap();
    assert_eq!(resumed, whole);
    assert_eq!(sensitivity::effects(&resumed), sensitivity::effects(&whole));
}

/// One deal a variant leaves no interval: no effect is reported, and none is significant.
#[test]
fn one_deal_is_refused_and_two_report_no_significant_effect() {
    let dir = scratch("sensitivity", "one-deal");
    let out = dir.join("o");
    let args = ["sensitivity", "--game", "kuhn-poker", "--keys", "ante", "--threads", "1", "--quiet"];
    // One deal gives no interval: refused, naming the rounds that give two.
    let o = draftsim(&[&args[..], &["--rounds", "1", "--out", out.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("use --rounds 4 or more") && !out.exists(), "{}", stderr(&o));
    let o = draftsim(&[&args[..], &["--rounds", "4", "--out", out.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).contains("NaN"), "{}", stdout(&o));
    let table = std::fs::read_to_string(out.join("sensitivity.csv")).unwrap();
    // Two deals of Kuhn poker move nothing significantly.
    assert!(table.lines().count() > 1, "{table}");
    assert!(table.lines().skip(1).all(|l| l.split(',').nth(10) == Some("false")), "{table}");
    // The report says nothing was shown, over how much play, and claims no robustness.
    let report = dir.join("report");
    let o = draftsim(&["report", out.to_str().unwrap(), "--out", report.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(
        md.contains(
            "is shown to move any figure (Holm-corrected, 5%) over 2 deal groups, which does not show that none does"
        ) && !md.contains("robust"),
        "{md}"
    );
    // A key whose values are words below rows of numbers (Sevens' trade timing after its
    // ante) reads back from CSV, as from Parquet.
    let sevens = dir.join("sevens");
    let o =
        draftsim(&["sensitivity", "--game", "sevens", "--rounds", "120", "--quiet", "--out", sevens.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = draftsim(&["report", sevens.to_str().unwrap(), "--out", dir.join("r2").to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn the_cli_writes_the_study_on_any_thread_count_and_refuses_bad_keys() {
    let dir = scratch("sensitivity", "cli");
    let base = ["sensitivity", "--game", "sevens", "--keys", "raise_cap,all_over", "--rounds", "800", "--quiet"];
    let mut outs = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.join(format!("t{threads}"));
        let o = draftsim(&[&base[..], &["--threads", threads, "--out", out.to_str().unwrap()]].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        outs.push(files(&out));
        // Effects in different units are not ranked by size: the order is the evidence's.
        let said = stdout(&o);
        assert!(
            said.contains("Deviations that surely move the variant (Holm-corrected, 5%), strongest evidence first"),
            "{said}"
        );
        assert!(!said.contains("move the variant most"), "{said}");
    }
    assert_eq!(outs[0], outs[1], "tables identical on one and two threads");
    let table = String::from_utf8(outs[0].iter().find(|(n, _)| n == "sensitivity.csv").unwrap().1.clone()).unwrap();
    assert!(
        table.starts_with("key,base_value,value,figure,base,effect,effect_lo,effect_hi,p_value,p_holm,significant")
    );
    for row in ["raise_cap,3,2,", "raise_cap,3,4,", "all_over,refund,carry-over,", "all_over,refund,lowest-wins,"] {
        assert!(table.contains(row), "{row} missing:\n{table}");
    }
    // The report draws it.
    let report = dir.join("report");
    let o = draftsim(&["report", dir.join("t1").to_str().unwrap(), "--out", report.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(report_part(&md, "What do the rules change?", "t1").contains("one step at a time"), "{md}");
    // A limit on a base figure the table holds as a point is refused, naming how to get
    // one with an interval.
    let limited = dir.join("limited");
    let t1 = dir.join("t1");
    let o =
        draftsim(&["report", t1.to_str().unwrap(), "--require", "completion>=0.5", "--out", limited.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("a sensitivity table holds its base's completion without an interval")
            && stderr(&o).lines().count() == 1,
        "{}",
        stderr(&o)
    );
    assert!(!limited.exists());
    // A game's measure is no health figure: a run would not carry it either.
    let o = draftsim(&[
        "report",
        t1.to_str().unwrap(),
        "--require",
        "showdown_rate>=0.5",
        "--out",
        limited.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`draftsim sweep --set KEY=BASE_VALUE --require 'showdown_rate>=0.5'`"),
        "{}",
        stderr(&o)
    );
    // A key the game does not step: one line naming it, exit 2, nothing written.
    let bad = dir.join("bad");
    let o = draftsim(&["sensitivity", "--game", "sevens", "--keys", "colour", "--out", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--keys colour") && stderr(&o).lines().count() == 1, "{}", stderr(&o));
    assert!(!bad.exists());
}

#[test]
fn seats_without_players_are_a_field_at_the_rules_players_as_every_variant_plays_them() {
    let dir = scratch("sensitivity", "seats");
    let out = dir.join("out");
    let o = draftsim(&[
        "sensitivity",
        "--game",
        "sevens",
        "--keys",
        "ante",
        "--seats",
        "tight,bluffer,random",
        "--rounds",
        "40",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let study: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("study.json")).unwrap()).unwrap();
    // Sevens' rules seat 4: the study describes the 4-seat game it played, not 3 seats,
    // with the three strategies as a field: three lineups (each strategy twice in one of
    // them) of twelve seatings, so 36 rounds a deal.
    assert_eq!(study["players"], 4);
    assert_eq!(study["seats"], serde_json::json!(["tight", "bluffer", "random"]));
    assert_eq!(study["deals"], 2);
}

#[test]
fn a_time_budget_sizes_the_study_and_a_resumed_one_keeps_its_deals() {
    let dir = scratch("sensitivity", "budget");
    let base = ["sensitivity", "--game", "sevens", "--keys", "ante", "--seed", "7", "--quiet"];
    let deals_of = |out: &std::path::Path| -> u64 {
        let study: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("study.json")).unwrap()).unwrap();
        study["deals"].as_u64().unwrap()
    };
    let timed = dir.join("timed");
    let o = draftsim(&[&base[..], &["--budget-time", "0.3", "--out", timed.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    // The budget, not the default of 20,000 rounds, sized the study; its rounds are its deals'.
    let study: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(timed.join("study.json")).unwrap()).unwrap();
    let deals = deals_of(&timed);
    assert_ne!(deals, 5000, "sized by the pilot, not by the default rounds");
    // Twelve seatings a deal: four strategies at four seats.
    assert_eq!(study["rounds"].as_u64(), Some(deals * 12));
    assert!(timed.join("sensitivity.csv").exists());
    // A saved state of the same study started with 100 deals: the budget does not resize it.
    let spec =
        SensitivitySpec { rules: None, keys: vec!["ante".into()], players: None, seats: None, deals: 100, seed: 7 };
    let fingerprint =
        serde_json::to_string(&("sevens", &spec, None::<draftsim::sim::Shard>, env!("CARGO_PKG_VERSION"))).unwrap();
    let state = SensitivityState { fingerprint, deals: 100, ..SensitivityState::default() };
    std::fs::write(dir.join(".resumed.sensitivity-state.json"), serde_json::to_string(&state).unwrap()).unwrap();
    let resumed = dir.join("resumed");
    let o = draftsim(&[&base[..], &["--budget-time", "0.3", "--out", resumed.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(deals_of(&resumed), 100);
    assert!(!dir.join(".resumed.sensitivity-state.json").exists(), "the finished study's state is removed");
    // That state met by --rounds sizing other deals: refused, naming the deals, not
    // --budget-time alone.
    std::fs::write(dir.join(".other.sensitivity-state.json"), serde_json::to_string(&state).unwrap()).unwrap();
    let o = draftsim(&[&base[..], &["--rounds", "2400", "--out", dir.join("other").to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("it plays 100 deals a variant, this command 200"), "{}", stderr(&o));
    // Met by another seed: the seed is named, not every setting there could be.
    std::fs::write(dir.join(".seeded.sensitivity-state.json"), serde_json::to_string(&state).unwrap()).unwrap();
    let seeded = [&base[..5], &["--seed", "8", "--quiet", "--rounds", "1200"]].concat();
    let o = draftsim(&[&seeded[..], &["--out", dir.join("seeded").to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("a different study's state is there (its --seed differs)"), "{}", stderr(&o));
    // The budget is shared by what each variant costs: the note says how many bases.
    let noted = dir.join("noted");
    let o = draftsim(&[&base[..7], &["--budget-time", "0.3", "--out", noted.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("and the 2 variants played cost "), "{}", stderr(&o));
    // With --rounds, or with --shard (whose shards must play the same deals): refused.
    for extra in [&["--rounds", "100"][..], &["--shard", "0/2"][..]] {
        let out = dir.join("refused");
        let o = draftsim(&[&base[..], &["--budget-time", "1", "--out", out.to_str().unwrap()], extra].concat());
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("--budget-time") || stderr(&o).contains("--rounds"), "{}", stderr(&o));
        assert!(!out.exists());
    }
}

#[test]
fn every_run_writes_a_health_card_and_the_report_flags_a_crossed_limit() {
    let dir = scratch("sensitivity", "health");
    let run = dir.join("run");
    let o = draftsim(&[
        "run",
        "--game",
        "winston-crazier-eights",
        "--rounds",
        "400",
        "--quiet",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let health = std::fs::read_to_string(run.join("health.csv")).unwrap();
    for figure in
        ["completion", "drawishness", "timeouts", "length_p50", "decision_density", "lead_changes", "drama", "balance"]
    {
        assert!(health.lines().any(|l| l.starts_with(&format!("{figure},"))), "{figure} missing:\n{health}");
    }
    let report = dir.join("report");
    let o = draftsim(&[
        "report",
        run.to_str().unwrap(),
        "--out",
        report.to_str().unwrap(),
        "--require",
        "length_mean<=10",
        "--require",
        "timeouts<=0.5",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    let health = report_part(&md, "Is it healthy?", "run");
    assert!(health.contains("| completion |"), "{health}");
    // The summary says a limit failed before any section does.
    let summary = &md[..md.find("## Contents").unwrap()];
    assert!(summary.contains("**Limits not surely met:** `length_mean<=10` fails"), "{summary}");
    assert!(md.contains("**Limit fails**: length_mean should be <= 10"), "{md}");
    assert!(md.contains("Limit met: timeouts <= 0.5"), "{md}");
    let o = draftsim(&["report", run.to_str().unwrap(), "--out", dir.join("r2").to_str().unwrap(), "--require", "x=1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
}

#[test]
fn a_sweep_names_the_variants_that_cross_a_limit_and_its_report_repeats_them() {
    let dir = scratch("sensitivity", "sweep-require");
    let out = dir.join("sweep");
    let sweep = ["sweep", "--game", "sevens", "--set", "all_over=refund,lowest-wins", "--rounds", "4000", "--quiet"];
    // Refunded all-overs end about a fifth of hands without a winner; lowest-wins very few.
    // A measure of the game the sweep table has no column for (split_rate) is kept with
    // the sweep's limit, so its report checks it too.
    let limits = ["--require", "completion>=0.85", "--require", "timeouts<=0.01", "--require", "split_rate<=0.5"];
    let o = draftsim(&[&sweep[..], &limits[..], &["--out", out.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("completion>=0.85: met in 1 of 2 variants; not surely met in: all_over=refund fails"),
        "{text}"
    );
    assert!(text.contains("timeouts<=0.01: met in every variant."), "{text}");
    let report = dir.join("report");
    let o = draftsim(&["report", out.to_str().unwrap(), "--out", report.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(
        md.contains("- `completion>=0.85`: met in 1 of 2 variants; not surely met in: all_over=refund fails"),
        "{md}"
    );
    assert!(md.contains("- `split_rate<=0.5`: met in every variant"), "{md}");
    // The summary and the charts lead with the limited figure, the question asked.
    let headline = md.lines().find(|l| l.contains("Over 2 variants of `all_over`")).unwrap();
    assert!(headline.contains("Over 2 variants of `all_over`: limits `completion>=0.85` surely met in 1 of 2 variants; `timeouts<=0.01` surely met in 2 of 2 variants; `split_rate<=0.5` surely met in 2 of 2 variants. The largest move"), "{headline}");
    // A limit given to the report reads the kept figure too; a strategy's figure is no
    // variant's, refused as the sweep refuses it, not judged on the first strategy's row.
    let again = dir.join("again");
    let o =
        draftsim(&["report", out.to_str().unwrap(), "--out", again.to_str().unwrap(), "--require", "split_rate<=0.01"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(again.join("report.md")).unwrap();
    assert!(
        md.contains("- `split_rate<=0.01`: met in 0 of 2 variants; not surely met in: all_over=refund fails"),
        "{md}"
    );
    // The kept figures name their variants: listed in another order, each is still its
    // own variant's; one the table does not hold leaves the limit unchecked.
    let study: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("study.json")).unwrap()).unwrap();
    let kept = &study["limit_figures"]["split_rate"];
    let named: Vec<String> = kept["variants"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().into()).collect();
    assert_eq!(named, ["all_over=refund", "all_over=lowest-wins"], "{kept}");
    let read =
        |part: &str| -> Vec<f64> { kept[part].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect() };
    let (mean, hi) = (read("mean"), read("hi"));
    // A limit the better variant surely meets (its whole interval under it) and the
    // worse does not.
    let worse = usize::from(mean[1] > mean[0]);
    let line = ((hi[1 - worse] + 0.0001) * 1e4).ceil() / 1e4;
    let turned = dir.join("turned");
    std::fs::create_dir_all(&turned).unwrap();
    for entry in std::fs::read_dir(&out).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), turned.join(entry.file_name())).unwrap();
    }
    let mut reversed = study.clone();
    for part in ["variants", "mean", "lo", "hi"] {
        reversed["limit_figures"]["split_rate"][part].as_array_mut().unwrap().reverse();
    }
    std::fs::write(turned.join("study.json"), serde_json::to_string_pretty(&reversed).unwrap()).unwrap();
    let limit = format!("split_rate<={line:.4}");
    let checked = dir.join("checked");
    let o = draftsim(&["report", turned.to_str().unwrap(), "--out", checked.to_str().unwrap(), "--require", &limit]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(checked.join("report.md")).unwrap();
    let verdict = md.lines().find(|l| l.starts_with(&format!("- `{limit}`"))).unwrap();
    assert!(verdict.contains(&format!("not surely met in: {}", named[worse])), "{verdict} ({mean:?})");
    assert!(!verdict.contains(&named[1 - worse]), "{verdict} ({mean:?})");
    reversed["limit_figures"]["split_rate"]["variants"][0] = "all_over=never".into();
    std::fs::write(turned.join("study.json"), serde_json::to_string_pretty(&reversed).unwrap()).unwrap();
    let unmatched = dir.join("unmatched");
    let o = draftsim(&["report", turned.to_str().unwrap(), "--out", unmatched.to_str().unwrap(), "--require", &limit]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(unmatched.join("report.md")).unwrap();
    assert!(
        md.contains(&format!("- `{limit}`: not checked, the figures the sweep kept for it name other variants")),
        "{md}"
    );
    let refused = dir.join("refused");
    let o =
        draftsim(&["report", out.to_str().unwrap(), "--out", refused.to_str().unwrap(), "--require", "win_rate>=0.01"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let said = stderr(&o);
    assert!(said.contains("win_rate is not a figure of any folder reported") && !said.contains(" strategy,"), "{said}");
    assert!(!refused.exists());
    // The strategies' charts (chips, win share) come first; then the figures, led by it.
    let first_chart = md.lines().find(|l| l.starts_with("![") && !l.contains("by strategy")).unwrap();
    assert!(first_chart.contains("ompletion"), "{first_chart}");
    // A figure the game does not have: one line naming it, exit 2, nothing written.
    let bad = dir.join("bad");
    let o = draftsim(&[&sweep[..], &["--require", "lead_changes>=1", "--out", bad.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("lead_changes is not a figure of sevens") && stderr(&o).lines().count() == 1);
    assert!(!bad.exists());
}

#[test]
fn seat_balance_effects_are_the_difference_of_the_two_runs_health_cards() {
    let dir = scratch("sensitivity", "seat-balance");
    let study = dir.join("study");
    let o = draftsim(&[
        "sensitivity",
        "--game",
        "sevens",
        "--keys",
        "players",
        "--rounds",
        "4000",
        "--seed",
        "11",
        "--quiet",
        "--out",
        study.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = std::fs::read_to_string(study.join("sensitivity.csv")).unwrap();
    let row = |value: &str, figure: &str| -> (f64, f64) {
        let line = table
            .lines()
            .find(|l| l.starts_with(&format!("players,4,{value},{figure},")))
            .unwrap_or_else(|| panic!("players={value} {figure} missing:\n{table}"));
        let cells: Vec<f64> = line.split(',').skip(4).take(2).map(|c| c.parse().unwrap()).collect();
        (cells[0], cells[1])
    };
    // The same deals played as runs: the base (its 334 deals of twelve seatings at four
    // seats) and the three-player deviation (the same 334 deals, the study's mix as a
    // field: four lineups of six seatings a deal).
    let card = |players: &str, seats: &str, rounds: &str| -> std::collections::HashMap<String, f64> {
        let out = dir.join(format!("run-{players}"));
        let o = draftsim(&[
            "run",
            "--game",
            "sevens",
            "--players",
            players,
            "--seats",
            seats,
            "--rounds",
            rounds,
            "--seed",
            "11",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::read_to_string(out.join("health.csv"))
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| {
                let c: Vec<&str> = l.split(',').collect();
                (c[0].to_string(), c[1].parse().unwrap())
            })
            .collect()
    };
    let base = card("4", "tight,bluffer,greedy,random", "4000");
    let three = card("3", "tight,bluffer,greedy,random", "8016");
    for figure in ["seat_advantage", "balance", "first_seat_edge", "completion"] {
        let (b, effect) = row("3", figure);
        assert!((b - base[figure]).abs() < 1e-12, "{figure}: base {b} against the run's {}", base[figure]);
        let want = three[figure] - base[figure];
        assert!((effect - want).abs() < 1e-12, "{figure}: effect {effect} against the runs' {want}");
    }
}

#[test]
fn a_runs_health_card_shows_the_skill_depth_of_a_ladder_of_the_same_rules() {
    let dir = scratch("sensitivity", "depth");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    for args in [
        vec!["run", "--game", "sevens", "--rounds", "2000", "--out", &path("run")],
        vec!["run", "--game", "sevens", "--players", "3", "--rounds", "2000", "--out", &path("three")],
        vec!["ladder", "--game", "sevens", "--budgets", "1,2,4", "--rounds", "200", "--out", &path("ladder")],
    ] {
        let o = draftsim(&[&args[..], &["--quiet"]].concat());
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }
    let depth: String = std::fs::read_to_string(dir.join("ladder/skill_depth.csv")).unwrap();
    let depth = depth.lines().nth(1).unwrap().split(',').next().unwrap().to_string();
    let o = draftsim(&[
        "report",
        &path("run"),
        &path("three"),
        &path("ladder"),
        "--require",
        "skill_depth>=3",
        "--out",
        &path("report"),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(dir.join("report/report.md")).unwrap();
    let (run, three) = (report_part(&md, "Is it healthy?", "run"), report_part(&md, "Is it healthy?", "three"));
    assert!(
        run.contains(&format!(
            "| skill_depth | {depth} | – | steps up the search ladder that still win the score, of 2"
        )),
        "{run}"
    );
    assert!(!three.contains("| skill_depth |"), "another player count has no ladder here:\n{three}");
    // Two steps can never give a depth of three: judged once, by the ladder, and no health
    // card calls it unchecked.
    assert_eq!(md.matches(&format!("**Limit fails**: skill_depth should be >= 3, and is {depth}.")).count(), 2, "{md}");
    assert!(!run.contains("Limit fails") && !md.contains("`skill_depth` is not a figure"), "{md}");
    // Nor does a health card count it among its limits, met or not.
    assert!(!md.contains("Every limit is met") && !md.contains("Limits not surely met"), "{md}");
}

/// A deviation changes the rules: a value written otherwise that sets the same rules is
/// not one, a list-valued key steps through lists, a key named twice is refused, a study
/// whose every deviation the game refuses says so, and a deviation that moves a figure is
/// not called unexercised.
#[test]
fn deviations_change_the_rules_and_a_study_of_refused_ones_says_so() {
    use draftsim::games::seven_card_draft;
    let keyed = |rules: Option<&str>, keys: &[&str]| SensitivitySpec {
        rules: rules.map(str::to_string),
        keys: keys.iter().map(|k| k.to_string()).collect(),
        ..spec(10)
    };
    let values = |rules: Option<&str>, key: &str| -> Vec<String> {
        let d = sensitivity::deviations(&seven_card_draft::INFO, &keyed(rules, &[key])).unwrap();
        d.into_iter().map(|d| d.value).collect()
    };
    assert_eq!(values(Some("wild = []\n"), "wild"), ["\"deuces\"", "\"last-pick\""]);
    assert_eq!(values(None, "face_up_picks"), ["[]", "[2, 4, 6]"]);
    // Unset, Live-Draft's first player skips its first draw at two players and draws at
    // three: only the other value deviates.
    let live = |players: usize| -> Vec<String> {
        let spec = SensitivitySpec { players: Some(players), ..keyed(None, &["first_player_draws"]) };
        sensitivity::deviations(&draftsim::games::live_draft::INFO, &spec)
            .unwrap()
            .into_iter()
            .map(|d| d.value)
            .collect()
    };
    assert_eq!(live(2), ["true"]);
    assert_eq!(live(3), ["false"]);
    let e = sensitivity::deviations(&seven_card_draft::INFO, &keyed(None, &["ante", "ante"])).unwrap_err();
    assert!(e.to_string().contains("ante is named twice"), "{e}");

    let dir = scratch("sensitivity", "refused");
    // A 20-card deck seats two players at most: the one step of players is refused.
    let tiny = dir.join("tiny.toml");
    std::fs::write(&tiny, "ranks = [\"A\", \"K\", \"Q\", \"J\", \"T\"]\nplayers = 2\n").unwrap();
    let o = draftsim(&[
        "sensitivity",
        "--keys",
        "players",
        "--rules",
        tiny.to_str().unwrap(),
        "--rounds",
        "24",
        "--out",
        dir.join("players").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("The game refused every deviation"), "{}", stdout(&o));
    assert!(stderr(&o).contains("players=3: refused by the game"), "{}", stderr(&o));
    // Its report names the refusal and why, and says nothing was measured for that reason.
    let report = dir.join("players-report");
    let o = draftsim(&["report", dir.join("players").to_str().unwrap(), "--out", report.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("Refused by the game, so not tried: `players=3` ("), "{md}");
    assert!(
        md.contains("No one-step change of the rules was measured: the game refused every deviation asked for"),
        "{md}"
    );
    assert!(!md.contains("or the study played too few deals"), "{md}");
    // A smaller pack takes the last betting round with it: played, not refused.
    let o = draftsim(&[
        "sensitivity",
        "--keys",
        "pack_size",
        "--rounds",
        "24",
        "--out",
        dir.join("pack").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).contains("refused every deviation"), "{}", stdout(&o));
    let table = std::fs::read_to_string(dir.join("pack").join("sensitivity.csv")).unwrap();
    assert!(table.lines().any(|l| l.starts_with("pack_size,7,6,")), "{table}");
    assert!(!stderr(&o).contains("refused by the game"), "{}", stderr(&o));
    // No strategy sizes its bets, but no limit lengthens the menus: the game changed.
    // Every deal group moves it alike: over fewer than 60 groups that decides nothing.
    let o = draftsim(&["sensitivity", "--seats", "random", "--keys", "limit", "--rounds", "200"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let said = stdout(&o);
    assert!(said.contains("Undecided: limit=pot-limit on legal_moves_mean (16 groups), limit=no-limit on legal_moves_mean (16 groups) moved alike on every deal group, which decides only over 60 groups"), "{said}");
    assert!(said.contains("No deviation moves any figure significantly"), "{said}");
    let o = draftsim(&["sensitivity", "--seats", "random", "--keys", "limit", "--rounds", "40000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let said = stdout(&o);
    assert!(said.contains("limit=no-limit moves legal_moves_mean"), "{said}");
    let unexercised = said.lines().find(|l| l.starts_with("Unexercised")).unwrap_or_default();
    assert!(!unexercised.contains("limit=no-limit"), "{said}");
}

/// A difference of two rates lies in [-1, 1], a game's rate measures' as the health
/// card's: over few deal groups a t interval would reach past it.
#[test]
fn a_rate_measures_effect_interval_stays_within_one() {
    let dir = scratch("sensitivity", "rates-within-one");
    let out = dir.join("o");
    let o = draftsim(&["sensitivity", "--keys", "wild", "--rounds", "24", "--quiet", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut reader = csv::Reader::from_path(out.join("sensitivity.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let mut checked = 0;
    for r in reader.records().map(Result::unwrap) {
        if ["wild_win_rate", "fold_rate_r1", "showdown_rate"].contains(&&r[at("figure")]) {
            let (lo, hi): (f64, f64) = (r[at("effect_lo")].parse().unwrap(), r[at("effect_hi")].parse().unwrap());
            assert!((-1.0..=1.0).contains(&lo) && (-1.0..=1.0).contains(&hi), "{r:?}");
            checked += 1;
        }
    }
    assert!(checked >= 3, "{checked}");
}
