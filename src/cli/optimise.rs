//! `draftsim tune` and `draftsim exploit`: one optimiser, two questions.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use draftsim::InputError;
use draftsim::games;
use draftsim::output::{OutputDir, Table, Values};
use draftsim::stats::Estimate;
use draftsim::study::kind;

use super::interrupt::INTERRUPTED;
use draftsim::study::optimise::{self, Evaluator, OptimiserConfig, OptimiserResult, OptimiserState, Param, Setting};
use draftsim::study::tune::{ExploitEvaluator, Objective, Played, TuneEvaluator, Verdict};

use super::args::{
    BatchArgs, ExecArgs, GameRulesArgs, Known, OutputArgs, PlayersArg, SeatsArg, preset_names, seconds, warn,
    warn_rules, whole,
};
use super::study::state_file_for;

/// What every search takes: the space, the budget, the candidates.
#[derive(Args, Debug, Clone)]
pub struct OptimiseArgs {
    /// A searched parameter: NAME=LO..HI (reals, e.g. 0.0..1.0; integers when both ends
    /// are, e.g. 5..9, unless the key holds a real) or NAME=A,B,C (choices). Repeatable.
    #[arg(long = "param", value_name = "NAME=RANGE")]
    pub params: Vec<String>,
    /// A search file: a [space] table (name = [lo, hi] or { choices = [...] }) and, for
    /// tune, an [objective] table (minimize, maximize, target, require).
    #[arg(long, value_name = "FILE")]
    pub space: Option<PathBuf>,
    /// A budget in seconds instead of --rounds: a short pilot measures the speed and sets the rounds
    /// (kept in the search state, so a resumed search uses the same).
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true, conflicts_with = "rounds")]
    pub budget_time: Option<f64>,
    /// Candidates drawn at the start (Latin hypercube).
    #[arg(long, default_value_t = 16, value_parser = candidates, allow_negative_numbers = true)]
    pub candidates: usize,
    /// Runners-up re-evaluated on held-out seeds beside the winner.
    #[arg(long, default_value_t = 2, value_parser = whole::<usize>, allow_negative_numbers = true)]
    pub runners_up: usize,
}

/// Parses `--candidates`: 1 to 100,000 (each is played and kept in memory).
fn candidates(text: &str) -> Result<usize, String> {
    match whole::<usize>(text)? {
        0 => Err("no candidates: give 1 or more".into()),
        n if n > 100_000 => Err("more than 100000 candidates: give at most 100000".into()),
        n => Ok(n),
    }
}

impl OptimiseArgs {
    /// The parameters from --param and the search file, and the file's objective table.
    fn space(&self) -> Result<(Vec<Param>, Option<toml::Table>)> {
        let mut params = self.params.iter().map(|p| Param::parse(p)).collect::<Result<Vec<_>, _>>()?;
        let mut objective = None;
        if let Some(path) = &self.space {
            let text = draftsim::error::read_named_file(
                "--space",
                path,
                "give a search file with a [space] table, or name each parameter with --param",
            )?;
            let mut file: toml::Table = toml::from_str(&text)
                .map_err(|e| InputError::new(format!("--space {}: {}", path.display(), e.message())))?;
            if let Some(space) = file.remove("space") {
                let space = space
                    .as_table()
                    .ok_or_else(|| InputError::new(format!("--space {}: [space] must be a table", path.display())))?;
                for (name, value) in space {
                    params.push(Param::from_toml(name, value)?);
                }
            }
            objective = match file.remove("objective") {
                Some(toml::Value::Table(t)) => Some(t),
                Some(_) => return Err(InputError::new("--space: [objective] must be a table").into()),
                None => None,
            };
            if let Some(key) = file.keys().next() {
                return Err(
                    InputError::new(format!("--space: unknown table '{key}'; use [space] and [objective]")).into()
                );
            }
        }
        if params.is_empty() {
            return Err(InputError::new("give at least one --param NAME=LO..HI (or a [space] table in --space)").into());
        }
        // A parameter given twice would have one range silently win over the other.
        if let Some(twice) = params.iter().enumerate().find(|(i, p)| params[..*i].iter().any(|q| q.name == p.name)) {
            return Err(InputError::new(format!(
                "--param {}: given twice (in --param or --space); give each parameter one range",
                twice.1.name
            ))
            .into());
        }
        Ok((params, objective))
    }
}

/// Arguments of `draftsim tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    #[command(flatten)]
    pub game: GameRulesArgs,
    #[command(flatten)]
    pub seats: SeatsArg,
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub search: OptimiseArgs,
    /// A metric to minimise (seat_advantage, skill_gap, mean_length or a measure column).
    #[arg(long)]
    pub minimize: Vec<String>,
    /// A metric to maximise.
    #[arg(long)]
    pub maximize: Vec<String>,
    /// A metric to bring to a value: NAME=VALUE, e.g. mean_length=12.
    #[arg(long)]
    pub target: Vec<String>,
    /// A constraint: 'NAME>=VALUE' or 'NAME<=VALUE', e.g. 'skill_gap>=5'. Each unit of
    /// shortfall costs 1000 (added to an objective minimised, taken off one that only
    /// maximises); a candidate that meets every constraint on
    /// held-out deals wins over one that does not, and one that does not is marked
    /// "constraint not met".
    #[arg(long)]
    pub require: Vec<String>,
}

/// Arguments of `draftsim exploit`.
#[derive(Args, Debug)]
pub struct ExploitArgs {
    #[command(flatten)]
    pub game: GameRulesArgs,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub search: OptimiseArgs,
    /// The preset whose parameters are searched (a name, a file or a derived preset); it
    /// plays the first seat, and the balanced seatings give it every seat in turn.
    #[arg(long, value_parser = Known(preset_names), hide_possible_values = true)]
    pub preset: String,
    /// The fixed strategies at the other seats, comma-separated, cycled to fill them: with
    /// --players 4 and --field greedy,tight the table is PRESET, greedy, tight, greedy.
    #[arg(long, value_delimiter = ',', required = true, value_parser = Known(preset_names), hide_possible_values = true)]
    pub field: Vec<String>,
}

/// Runs `tune`.
pub fn tune(args: TuneArgs) -> Result<()> {
    let info = args.game.info()?;
    let (params, objective_table) = args.search.space()?;
    let mut objective = Objective::from_flags(&args.minimize, &args.maximize, &args.target, &args.require)?;
    if let Some(t) = &objective_table {
        let (flags, flag_terms) = (objective.describe(), !objective.terms.is_empty());
        objective.add_toml(t).map_err(|e| e.context("--space"))?;
        let mut from_file = Objective::default();
        from_file.add_toml(t)?;
        if flag_terms && !from_file.terms.is_empty() {
            // Both count: a flag's figure does not replace the file's, which may surprise (a
            // limit beside a figure to tune is the usual way, and not warned of).
            warn(&format!(
                "the objective adds the flags' ({flags}) to the [objective] table of --space ({}); both are scored, so drop one to tune by the other alone",
                from_file.describe()
            ));
        }
    }
    let evaluator = TuneEvaluator {
        info,
        rules: args.game.rules_text()?,
        seats: args.seats.list(),
        objective,
        interrupt: Some(&INTERRUPTED),
    };
    // The rules file alone first: its errors name it, and another game's it reads as.
    args.game.build(info, evaluator.rules.as_deref(), None, None)?;
    evaluator.check().map_err(|e| match e.fault() {
        // tune has no --players: the table size is the rules file's.
        draftsim::error::Fault::SeatCount => {
            e.fixed_by("name one strategy per seat, or set players in --rules to seat them as a field")
        }
        _ => e,
    })?;
    // A whole range over a real rules key searches reals.
    let rules: toml::Table = (info.build)(evaluator.rules.as_deref(), None, evaluator.seats.as_deref())
        .ok()
        .and_then(|(base, _)| toml::from_str(&base.rules_toml()).ok())
        .unwrap_or_default();
    let params: Vec<Param> =
        params.into_iter().map(|p| p.real_where_declared(&|path| optimise::toml_at(&rules, path))).collect();
    // Check every parameter is a rules key before playing.
    let first = pilot_setting(&params);
    evaluator.variant(&first)?;
    if let Ok((base, _)) = (info.build)(evaluator.rules.as_deref(), None, evaluator.seats.as_deref()) {
        warn_rules(base.as_ref());
    }
    let fingerprint = serde_json::json!({
        "kind": kind::TUNE.name, "game": info.name, "rules": evaluator.rules, "seats": evaluator.seats,
        "objective": evaluator.objective, "params": params, "seed": args.batch.seed.seed,
        "candidates": args.search.candidates, "runners_up": args.search.runners_up,
    });
    let budget = args.batch.rounds.get(400_000)?;
    let (result, state, out, format, budget) =
        run_search(&evaluator, &params, &args.search, budget, &args.batch, &fingerprint)?;
    let best = &result.candidates[result.best];
    let (rules_text, seats) = evaluator.variant(&best.setting)?;
    // The winner's metrics on its held-out deals.
    let key = optimise::sample_key(&best.setting, result.held_out_seeds[0], result.held_out_rounds);
    let metrics = state.samples.get(&key).map(|s: &Played| evaluator.metrics(s)).unwrap_or_default();
    let constrained = !evaluator.objective.constraints.is_empty();
    // The search minimises; an objective that only maximises is shown as its figures' sum.
    let flip = evaluator.objective.maximises_only();
    say!("Objective: {} ({}).", evaluator.objective.describe(), evaluator.objective.direction());
    if constrained {
        say!(
            "(The objective ranked {} {} per unit of a constraint's shortfall; its interval includes the penalty's.)",
            if flip { "loses" } else { "adds" },
            draftsim::study::tune::PENALTY
        );
    }
    print_result(&result, "objective", flip, &args.search, ("as given", "the rules as given"));
    // A seat figure measured between unlike players mostly measures them: the stronger
    // player's wins, spread over every seat by the rotation, hide what the seats give.
    let seat_figures: Vec<&str> = (evaluator.objective.metrics().into_iter())
        .filter(|m| matches!(*m, "seat_advantage" | "first_seat_edge" | "balance"))
        .collect();
    let mut kinds: Vec<&String> = Vec::new();
    for s in &seats {
        if !kinds.contains(&s) {
            kinds.push(s);
        }
    }
    if !seat_figures.is_empty() && kinds.len() > 1 {
        warn(&format!(
            "{} measured between unlike players ({}): the gap between them hides what the seats give; to tune the seats' fairness seat one strategy at every seat (--seats {})",
            seat_figures.join(", "),
            kinds.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", "),
            vec![kinds[0].as_str(); seats.len()].join(",")
        ));
    }
    // A figure the parameters cannot move (Sevens' hands per unit are always 1) makes the
    // "best" an accident of order.
    let first = result.candidates[0].estimate.mean;
    let arbitrary = result.candidates.len() > 1
        && result.candidates.iter().all(|c| c.estimate.lo == c.estimate.hi && c.estimate.mean == first);
    if arbitrary {
        let first = shown(result.candidates[0].estimate, flip).mean;
        let names = evaluator.objective.metrics().join(", ");
        let hint = if evaluator.objective.metrics().contains(&"mean_length") {
            " (mean_length is the game's own units' length: rounds in a game, hands in a unit; length_mean counts decisions)"
        } else {
            ""
        };
        warn(&format!(
            "every candidate scored the objective {first:.4} exactly: these parameters do not move {names}{hint}, so the best is arbitrary; tune a figure they move"
        ));
    }
    // "Met" ranks by the estimates' means; each limit's verdict on the interval says
    // whether the held-out deals show it surely met, as sweep's --require does. Kept for
    // the report as said here.
    let mut held_figures = serde_json::Map::new();
    for (name, e) in metrics.iter().filter(|(n, _)| evaluator.objective.metrics().contains(&n.as_str())) {
        let limits: Vec<String> = (evaluator.objective.constraints.iter())
            .filter(|c| c.metric == *name)
            .map(|c| {
                let verdict = match c.verdict(e) {
                    Verdict::Met => "met",
                    Verdict::MayFail => "may fail, its interval crossing the limit",
                    Verdict::Fails => "fails",
                };
                format!("{}: {verdict}", c.text())
            })
            .collect();
        held_figures.insert(
            name.clone(),
            serde_json::json!({ "mean": e.mean, "lo": e.lo, "hi": e.hi, "limits": limits.clone() }),
        );
        let limits = if limits.is_empty() { String::new() } else { format!(" ({})", limits.join("; ")) };
        say!("  held-out {name}: {}{limits}", interval4(e));
    }
    if !best.constraint_met {
        say!(
            "Constraint not met: no candidate held out meets {}; the best shown falls short.",
            evaluator.objective.constraints_text()
        );
    }
    let rules_toml = (info.build)(Some(&rules_text), None, Some(&seats))
        .map_or_else(|_| rules_text.clone(), |(g, _)| g.rules_toml());
    let meta = serde_json::json!({
        "kind": kind::TUNE.name, "game": info.name, "seed": args.batch.seed.seed, "rounds": budget, "budget": budget,
        "objective": evaluator.objective.describe(), "higher_is_better": flip, "seats": seats,
        "base_rules": evaluator.rules.clone().unwrap_or_default(),
        "rules": rules_toml,
        "best": best.setting.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>(),
        "constraint_met": best.constraint_met,
        "held_out_figures": held_figures,
        "search_seeds": result.search_seeds, "held_out_seeds": result.held_out_seeds,
    });
    let best_held = best.held_out.unwrap_or(Estimate { mean: f64::NAN, lo: f64::NAN, hi: f64::NAN });
    // A best no better than the rules as given, or one of candidates all alike, is no
    // finding: the file holds the rules as given, ready for --rules, each figure in its
    // comments naming its rules, so that the file and the advice agree. The rules as given
    // are kept only where they meet the limits as well as the best does: the held-out
    // ranking puts meeting them first.
    let given = result.as_given.filter(|&(given, met)| given.mean <= best_held.mean && (met || !best.constraint_met));
    let best_words = best.setting.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ");
    let figure = |e: Estimate, met: bool| {
        format!("{}{}", interval4(&shown(e, flip)), if met || !constrained { "" } else { "; constraint not met" })
    };
    let tuned = format!("# Tuned by draftsim tune ({}): {}\n", info.name, evaluator.objective.describe());
    let best_file = match given {
        _ if arbitrary => format!(
            "{tuned}# every candidate scored the objective exactly alike ({}), so the search's best ({best_words}) is arbitrary: these are the rules as given; keep those\n{}",
            figure(best_held, best.constraint_met),
            evaluator.rules.clone().unwrap_or_default()
        ),
        Some((given, met)) => format!(
            "{tuned}# the rules as given: held-out objective {}\n# the search's best ({best_words}): held-out objective {}, no better on the held-out deals; keep the rules as given\n{}",
            figure(given, met),
            figure(best_held, best.constraint_met),
            evaluator.rules.clone().unwrap_or_default()
        ),
        _ => format!("{tuned}# held-out objective {}\n{rules_text}", figure(best_held, best.constraint_met)),
    };
    finish(
        out,
        format,
        &result,
        ("objective", flip, constrained),
        ("best-rules.toml", best_file),
        meta,
        &args.batch.exec,
    )?;
    forget_state(&args.batch.output);
    Ok(())
}

/// Deletes a finished search's saved state, once its tables are in place: until then the
/// same command can still resume it.
fn forget_state(output: &OutputArgs) {
    if let Some(out) = output.out.as_deref() {
        super::study::forget_state(&state_file_for("search", out));
    }
}

/// The middle value of a parameter (a probe that its name is valid).
/// The setting a pilot plays: each parameter at its middle (a choice at its first).
fn pilot_setting(params: &[Param]) -> Setting {
    params.iter().map(|p| (p.name.clone(), p_value(p))).collect()
}

fn p_value(p: &Param) -> String {
    match &p.range {
        optimise::Range::Float { lo, hi } => format!("{}", (lo + hi) / 2.0),
        optimise::Range::Int { lo, hi } => ((lo + hi) / 2).to_string(),
        optimise::Range::Choice(c) => c[0].clone(),
    }
}

/// Runs `exploit`.
pub fn exploit(args: ExploitArgs) -> Result<()> {
    let info = args.game.info()?;
    let (params, objective_table) = args.search.space()?;
    if objective_table.is_some() {
        return Err(InputError::new("--space: exploit's objective is the payoff; remove the [objective] table").into());
    }
    let field = games::presets::rejoin(&args.field);
    let evaluator = ExploitEvaluator {
        info,
        rules: args.game.rules_text()?,
        preset: args.preset.clone(),
        players: args.players.players.or(args.game.rules_players()?).unwrap_or(field.len() + 1),
        field,
        interrupt: Some(&INTERRUPTED),
    };
    args.game.build(info, evaluator.rules.as_deref(), None, None)?;
    evaluator.check()?;
    // The payoff's unit, to name it beside the figures.
    let mut payoff = String::new();
    if let Ok((base, _)) = (info.build)(evaluator.rules.as_deref(), Some(evaluator.players), None) {
        warn_rules(base.as_ref());
        let score = &base.measures().score;
        payoff = format!(" (payoff: {}, `{}`)", score.description, score.column);
    }
    // A whole range over a real parameter (`draft.weight=0..2`) searches reals.
    let preset: toml::Table = (info.preset_in_full)(&evaluator.preset).unwrap_or_default();
    // A range over a whole list would set it to a number: one of its elements is meant
    // (choices may be whole lists).
    let range_over_list = |p: &&Param| {
        !matches!(p.range, optimise::Range::Choice(_))
            && optimise::toml_at(&preset, &p.name).is_some_and(|v| v.is_array())
    };
    if let Some(p) = params.iter().find(range_over_list) {
        return Err(InputError::new(format!(
            "--param {}: {} is a list in {}; search one element, e.g. --param '{}[0]=...'",
            p.name, p.name, evaluator.preset, p.name
        ))
        .into());
    }
    let params: Vec<Param> =
        params.into_iter().map(|p| p.real_where_declared(&|path| optimise::toml_at(&preset, path))).collect();
    let first = pilot_setting(&params);
    (info.preset_text)(&evaluator.strategy(&first)).map_err(|e| e.context("--param"))?;
    let fingerprint = serde_json::json!({
        "kind": kind::EXPLOIT.name, "game": info.name, "rules": evaluator.rules, "preset": evaluator.preset,
        "field": evaluator.field, "players": evaluator.players, "params": params, "seed": args.batch.seed.seed,
        "candidates": args.search.candidates, "runners_up": args.search.runners_up,
    });
    let budget = args.batch.rounds.get(400_000)?;
    let (result, _, out, format, budget) =
        run_search(&evaluator, &params, &args.search, budget, &args.batch, &fingerprint)?;
    let best = &result.candidates[result.best];
    let name = evaluator.strategy(&best.setting);
    say!("Against the field {} at {} seats{payoff}:", evaluator.field.join(","), evaluator.players);
    let given = (&*format!("as given ({})", evaluator.preset), &*format!("the preset as given ({})", evaluator.preset));
    print_result(&result, "payoff", true, &args.search, given);
    // Candidates that play alike score alike on the deals they share (each stage's, and the
    // held-out ones): a parameter the preset never reads makes the "best" an accident.
    let alike = |a: &Estimate, b: &Estimate| a.mean == b.mean && a.lo == b.lo && a.hi == b.hi;
    let c = &result.candidates;
    let same_stage = c.iter().all(|x| c.iter().filter(|y| y.stage == x.stage).all(|y| alike(&x.estimate, &y.estimate)));
    let held: Vec<&Estimate> = c.iter().filter_map(|x| x.held_out.as_ref()).collect();
    let arbitrary = c.len() > 1 && same_stage && held.len() > 1 && held.iter().all(|h| alike(h, held[0]));
    if arbitrary {
        warn(&format!(
            "every candidate scored exactly alike on the deals they shared: these parameters do not change how {} plays against this field, so the best is arbitrary; search a parameter it uses",
            evaluator.preset
        ));
    }
    let seats = evaluator.seats(&best.setting);
    let rules_toml = (info.build)(evaluator.rules.as_deref(), Some(evaluator.players), Some(&seats))
        .map_or_else(|_| evaluator.rules.clone().unwrap_or_default(), |(g, _)| g.rules_toml());
    let meta = serde_json::json!({
        "kind": kind::EXPLOIT.name, "game": info.name, "seed": args.batch.seed.seed, "rounds": budget, "budget": budget,
        "preset": evaluator.preset, "field": evaluator.field, "players": evaluator.players,
        "seats": seats, "rules": rules_toml, "best": name,
        "search_seeds": result.search_seeds, "held_out_seeds": result.held_out_seeds,
    });
    let held = best.held_out.map_or(f64::NAN, |e| -e.mean);
    // The preset as given, on the same held-out deals, at least as good as the best: its payoff.
    let no_better = result.as_given.filter(|(g, _)| g.mean <= -held).map(|(g, _)| -g.mean);
    let text = (info.preset_text)(&name)?;
    let mut preset: toml::Table = toml::from_str(&text).map_err(|e| InputError::new(e.message().to_string()))?;
    preset.insert(
        "description".into(),
        toml::Value::String(if let Some(given) = no_better.filter(|_| !arbitrary) {
            // The preset as given did as well: the file says so, as the command's advice does.
            format!(
                "{name}: no better than {} as given on the held-out deals (payoff {held:.4} against {given:.4}); keep {} as given",
                evaluator.preset, evaluator.preset
            )
        } else if arbitrary {
            // Every candidate played alike: the file says so, as the warning does.
            format!(
                "{name}: every candidate of draftsim exploit played alike (payoff {held:.4} held out), so this best is arbitrary; keep {} as given",
                evaluator.preset
            )
        } else {
            format!("{name}: best response found by draftsim exploit, payoff {held:.4} held out")
        }),
    );
    let text = toml::to_string(&preset).expect("a TOML table prints");
    finish(out, format, &result, ("payoff", true, false), ("best-preset.toml", text), meta, &args.batch.exec)?;
    forget_state(&args.batch.output);
    Ok(())
}

/// The search's output: result, its evaluations, folder, format and budget.
type Finished<S> = (OptimiserResult, OptimiserState<S>, Option<OutputDir>, draftsim::output::Format, u64);

/// Opens the output, resumes or starts the state, runs the search with a progress bar.
#[allow(clippy::too_many_arguments)]
fn run_search<E: Evaluator<Sample = Played> + Sync>(
    evaluator: &E,
    params: &[Param],
    args: &OptimiseArgs,
    rounds: u64,
    batch: &BatchArgs,
    fingerprint: &serde_json::Value,
) -> Result<Finished<Played>> {
    let (exec, output, seed) = (&batch.exec, &batch.output, batch.seed.seed);
    optimise::check_space(evaluator, params)?;
    let (format, out) = output.open()?;
    let fingerprint = fingerprint.to_string();
    let state_path = output.out.as_deref().map(|o| state_file_for("search", o));
    let mut state: OptimiserState<Played> =
        OptimiserState { fingerprint: fingerprint.clone(), samples: Default::default() };
    let mut budget = rounds;
    // The budget as asked when the search started: its rounds, or the seconds they were
    // bought with (a state saved before it kept them reads as rounds).
    let mut asked_first = args.budget_time;
    let mut resumed = false;
    if let Some(path) = &state_path
        && let Ok(text) = std::fs::read_to_string(path)
    {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Saved {
            Asked(u64, OptimiserState<Played>, Option<f64>),
            Rounds(u64, OptimiserState<Played>),
        }
        let saved = serde_json::from_str::<Saved>(&text).map(|s| match s {
            Saved::Asked(b, state, seconds) => (b, state, seconds),
            Saved::Rounds(b, state) => (b, state, None),
        });
        match saved {
            Ok((b, saved, seconds)) if saved.fingerprint == fingerprint => {
                exec.note(&format!(
                    "resuming the search in {} ({} evaluations done)",
                    path.display(),
                    saved.samples.len()
                ));
                let same = match (args.budget_time, seconds) {
                    (Some(now), Some(then)) => now == then,
                    (None, None) => b == rounds,
                    _ => false,
                };
                if !same {
                    // A resumed search keeps the budget it was started with, so that its
                    // evaluations stay comparable: warned even under --quiet, as the figures
                    // written are not the budget asked for.
                    super::args::warn(&format!(
                        "it keeps its budget of {b} rounds{}, not the {} asked now; pass --force to start afresh with the new one",
                        seconds.map_or(String::new(), |s| format!(" (bought with --budget-time {s})")),
                        args.budget_time.map_or(format!("{rounds} rounds"), |s| format!("--budget-time {s}")),
                    ));
                }
                asked_first = seconds;
                state = saved;
                budget = b;
                resumed = true;
            }
            _ if output.force => {}
            _ => {
                return Err(InputError::new(format!(
                    "{}: a different search's state is there; pass --force to start afresh",
                    path.display()
                ))
                .into());
            }
        }
    }
    // A forced fresh start times its pilot as a first one does.
    let mut pilot = None;
    if !resumed && let Some(seconds) = args.budget_time {
        let (b, took, rate) = pilot_budget(evaluator, params, (seed, seconds), args, exec)?;
        budget = b;
        pilot = Some((took, rate));
    }
    if !resumed {
        check_budget(evaluator, params, args, (seed, budget, pilot), exec)?;
    }
    let config = OptimiserConfig { seed, budget, candidates: args.candidates, runners_up: args.runners_up };
    let bar = exec.bar(budget);
    let mut save = |s: &OptimiserState<Played>| -> Result<(), draftsim::Error> {
        if let Some(path) = &state_path {
            let text = serde_json::to_string(&(budget, s, asked_first))
                .map_err(|e| draftsim::Error::Invariant(e.to_string()))?;
            super::study::save_state(path, &text, "search")?;
        }
        Ok(())
    };
    let mut on_step = |done: u64, _total: u64, label: &str| {
        if let Some(b) = &bar {
            b.set_position(done.min(budget));
            b.set_message(label.to_string());
        }
    };
    let result =
        exec.pool()?.install(|| optimise::optimise(evaluator, params, &config, &mut state, &mut save, &mut on_step));
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if matches!(result, Err(draftsim::Error::Interrupted)) {
        // Said even with --quiet: it is what the interruption leaves behind. The state is
        // saved even before a first evaluation ends, so the file the message names is there.
        match &state_path {
            Some(path) if save(&state).is_ok() => to_stderr!(
                "draftsim: the search's {} evaluations are saved in {}; the same command resumes it",
                state.samples.len(),
                path.display()
            ),
            Some(_) => {}
            None => to_stderr!("draftsim: without --out nothing was saved; give --out DIR to make a search resumable"),
        }
    } else if let Err(e) = &result
        && e.is_input()
        && !resumed
        && let Some(path) = &state_path
    {
        // A search that failed on its own input leaves nothing a corrected command would
        // have to be forced past; one stopped by anything else keeps what it played.
        super::study::forget_state(path);
    }
    // The state stays until the tables are written (see `forget_state`).
    Ok((result?, state, out, format, budget))
}

/// Refuses a budget that leaves an evaluation less than two deals: one deal gives no
/// interval, so every figure of the search would be NaN.
fn check_budget<E: Evaluator<Sample = Played> + Sync>(
    evaluator: &E,
    params: &[Param],
    args: &OptimiseArgs,
    (seed, budget, pilot): (u64, u64, Option<(f64, f64)>),
    exec: &ExecArgs,
) -> Result<()> {
    let setting = pilot_setting(params);
    // A run rounds up to whole deals, so one round plays one deal.
    let deal = evaluator.rounds(&exec.pool()?.install(|| evaluator.play(&setting, seed ^ 0x9110, 1))?);
    let distinct = optimise::distinct_candidates(params, args.candidates, seed);
    let least = optimise::smallest_budget(distinct, args.runners_up, evaluator.has_starting_point(), 2 * deal);
    if budget >= least {
        return Ok(());
    }
    let (asked, fix) = match (args.budget_time, pilot) {
        // The pilot's own seconds, then the rounds at its rate.
        (Some(s), Some((took, rate))) => (
            format!("--budget-time {s}: it buys {budget} rounds, which is"),
            format!("give --budget-time {} or more", (took + least as f64 / rate.max(f64::MIN_POSITIVE)).ceil()),
        ),
        _ => (format!("--rounds {budget}:"), format!("give --rounds {least} or more")),
    };
    // Fewer candidates are suggested only where they would need fewer rounds: the
    // refinement's share does not shrink with them.
    let fewest = optimise::smallest_budget(2, args.runners_up, evaluator.has_starting_point(), 2 * deal);
    let fewer = if fewest < least { ", or fewer --candidates" } else { "" };
    let candidates = if distinct < args.candidates {
        format!("the {distinct} distinct candidates of this space")
    } else {
        format!("{distinct} candidates")
    };
    Err(InputError::new(format!(
        "{asked} too few for {candidates}, since every evaluation needs two deals ({} rounds at this table); {fix}{fewer}",
        2 * deal
    ))
    .into())
}

/// Rounds the search can play in what is left of `seconds` after a pilot of one candidate:
/// from one deal, longer until a run lasts half a second (slow seats, a search, would spend
/// much of a short budget on a longer first try), then at the size of the search's own
/// evaluations, which under a short budget are too few deals to keep every thread busy.
fn pilot_budget<E: Evaluator<Sample = Played> + Sync>(
    evaluator: &E,
    params: &[Param],
    (seed, seconds): (u64, f64),
    args: &OptimiseArgs,
    exec: &ExecArgs,
) -> Result<(u64, f64, f64)> {
    let setting = pilot_setting(params);
    let pool = exec.pool()?;
    let started = Instant::now();
    let timed = |rounds: u64| -> Result<(u64, f64)> {
        let start = Instant::now();
        let played = pool.install(|| evaluator.play(&setting, seed ^ 0x9110, rounds))?;
        Ok((evaluator.rounds(&played), start.elapsed().as_secs_f64()))
    };
    // A run rounds up to whole deals, so one round plays one deal.
    let (mut rounds, mut elapsed) = timed(1)?;
    while elapsed < 0.5 {
        // Aimed at a little over half a second, from what the last run took.
        let grow = (0.6 / elapsed.max(1e-6)).clamp(2.0, 16.0);
        (rounds, elapsed) = timed((rounds as f64 * grow) as u64)?;
    }
    let mut rate = rounds as f64 / elapsed;
    let left = |started: Instant| (seconds - started.elapsed().as_secs_f64()).max(0.0);
    // Evaluations of the first rung's size and four times it (about half the search's
    // rounds are played in each kind), each kind for a fifth of a second: the rate is their
    // harmonic mean, as time adds up.
    // Sized as the search will size them: on the distinct candidates it races.
    let distinct = optimise::distinct_candidates(params, args.candidates, seed);
    let first = optimise::first_rung_rounds((rate * left(started)) as u64, distinct, args.runners_up);
    let at = |size: u64| -> Result<f64> {
        if size >= rounds {
            return Ok(rate);
        }
        let (mut played, mut took) = (0, 0.0);
        while took < 0.2 {
            let (r, t) = timed(size)?;
            (played, took) = (played + r, took + t);
        }
        Ok((played as f64 / took).min(rate))
    };
    let (small, large) = (at(first)?, at(4 * first)?);
    rate = 2.0 / (1.0 / small + 1.0 / large);
    let took = started.elapsed().as_secs_f64();
    let left = (seconds - took).max(0.0);
    let budget = (rate * left) as u64;
    exec.note(&format!(
        "--budget-time {seconds}s: {rate:.0} units/s in a pilot of {took:.1} s, so a budget of {budget} units for the {left:.1} s left"
    ));
    Ok((budget, took, rate))
}

/// Shows an estimate as lower-is-better, or flipped to a payoff.
fn shown(e: Estimate, flip: bool) -> Estimate {
    // Adding 0 turns a negated 0 into 0: "-0.0000" would read as a loss.
    if flip { Estimate { mean: -e.mean + 0.0, lo: -e.hi + 0.0, hi: -e.lo + 0.0 } } else { e }
}

/// "mean [lo, hi]" with four decimals, or as many more (up to eight) as an interval that
/// has a width needs to show one; an interval of none says every deal scored alike, since
/// it bounds nothing a rarer deal might change.
fn interval4(e: &Estimate) -> String {
    use draftsim::output::fixed;
    if e.lo == e.hi {
        return format!("{} [{}, {}] (every deal alike)", fixed(e.mean, 4), fixed(e.lo, 4), fixed(e.hi, 4));
    }
    let digits = (4..=8).find(|&d| fixed(e.lo, d) != fixed(e.hi, d)).unwrap_or(8);
    format!("{} [{}, {}]", fixed(e.mean, digits), fixed(e.lo, digits), fixed(e.hi, digits))
}

/// Prints the winner and runners-up: held-out figures beside the in-search ones.
/// `given` names the starting point in the list and in a sentence.
fn print_result(result: &OptimiserResult, what: &str, flip: bool, search: &OptimiseArgs, given: (&str, &str)) {
    let runners_up = search.runners_up;
    // More play is more time where the budget is a time.
    let more = if search.budget_time.is_some() { "give it more time (--budget-time)" } else { "play more (--rounds)" };
    let mut ranked: Vec<_> = result.candidates.iter().filter(|c| c.rank > 0).collect();
    ranked.sort_by_key(|c| c.rank);
    if ranked.len() < runners_up.saturating_add(1) {
        say!(
            "--runners-up {runners_up}: the search played {} {}, so {} held out",
            result.candidates.len(),
            draftsim::output::noun(result.candidates.len() as i64, "candidate", "candidates"),
            match ranked.len().saturating_sub(1) {
                1 => "1 runner-up is".to_string(),
                n => format!("{n} runners-up are"),
            }
        );
    }
    let level = ranked.len() > 1 && {
        let best = ranked[0].held_out.expect("ranked");
        ranked[1..].iter().all(|c| c.held_out.is_some_and(|h| h.lo <= best.hi && best.lo <= h.hi))
    };
    for c in &ranked {
        let setting: Vec<String> = c.setting.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let (h, s) = (shown(c.held_out.expect("ranked"), flip), shown(c.estimate, flip));
        say!(
            "{} {}: held-out {what} {}; in search {} (its last stage: {}){}",
            if c.rank == 1 { "best" } else { "  runner-up" },
            setting.join(" "),
            interval4(&h),
            interval4(&s),
            c.stage,
            if c.constraint_met { "" } else { "; constraint not met" }
        );
    }
    // Settings that score exactly alike, with no spread, are no closer apart with more play.
    let same = ranked.len() > 1 && {
        let best = ranked[0].held_out.expect("ranked");
        ranked[1..].iter().all(|c| c.held_out.is_some_and(|h| h == best && h.lo == h.hi))
    };
    if same {
        say!(
            "Every runner-up scored exactly as the best on the held-out deals, with no spread: the objective does not tell these settings apart, so the best among them is arbitrary."
        );
    } else if level {
        say!(
            "Every runner-up's held-out interval overlaps the best's: intervals that overlap do not show the best is better; {more} to separate them."
        );
    }
    if let Some((e, met)) = result.as_given {
        say!(
            "  {}: held-out {what} {}{}",
            given.0,
            interval4(&shown(e, flip)),
            if met { "" } else { "; constraint not met" }
        );
        say!("{}", against_given(ranked[0].held_out.expect("ranked"), e, given.1, more));
    }
}

/// Whether the best beats the starting point on the held-out deals (scores minimised): only
/// intervals apart tell them apart.
fn against_given(best: Estimate, given: Estimate, name: &str, more: &str) -> String {
    if best.hi < given.lo {
        format!("The best does better than {name} on the held-out deals (the intervals do not overlap).")
    } else if given.hi < best.lo {
        format!("{} does better than the best setting held out.", draftsim::output::capitalised(name))
    } else if given.mean == best.mean {
        // A floor every setting reaches (a seat advantage of 0) ranks candidates by their
        // order alone: the best then is no finding.
        format!(
            "{} scored exactly as the best did on the held-out deals: the objective does not tell them apart here, and the search found nothing that does better; keep {name}.",
            draftsim::output::capitalised(name)
        )
    } else if given.mean < best.mean {
        format!(
            "{} scored better than the best on the held-out deals, within the intervals: the search found nothing shown to do better; keep {name}, or {more} to tell them apart.",
            draftsim::output::capitalised(name)
        )
    } else {
        format!(
            "The best's held-out interval overlaps that of {name}: the search has not shown it does better; {more} to tell them apart."
        )
    }
}

/// The `candidates` table: every candidate with its stage, rounds and estimates, and with
/// `constrained` a `constraint` column: "met" or "not met" (held-out figures for the
/// held-out candidates, the last stage's for the others).
fn candidates_table(result: &OptimiserResult, what: &str, flip: bool, constrained: bool) -> Table {
    let c = &result.candidates;
    let mut t = Table::new(kind::TUNE.tables[0]).with("candidate", Values::Int((0..c.len() as i64).collect()));
    if let Some(first) = c.first() {
        for (k, (name, _)) in first.setting.iter().enumerate() {
            t = t.with(name, Values::Text(c.iter().map(|x| x.setting[k].1.clone()).collect()));
        }
    }
    let nan = Estimate { mean: f64::NAN, lo: f64::NAN, hi: f64::NAN };
    let est: Vec<Estimate> = c.iter().map(|x| shown(x.estimate, flip)).collect();
    let held: Vec<Estimate> = c.iter().map(|x| x.held_out.map_or(nan, |e| shown(e, flip))).collect();
    t = t
        .with("stage", Values::Text(c.iter().map(|x| x.stage.clone()).collect()))
        .with("rounds", Values::Int(c.iter().map(|x| x.rounds as i64).collect()))
        .with(what, Values::Float(est.iter().map(|e| e.mean).collect()))
        .with(&format!("{what}_lo"), Values::Float(est.iter().map(|e| e.lo).collect()))
        .with(&format!("{what}_hi"), Values::Float(est.iter().map(|e| e.hi).collect()))
        .with(&format!("held_out_{what}"), Values::Float(held.iter().map(|e| e.mean).collect()))
        .with(&format!("held_out_{what}_lo"), Values::Float(held.iter().map(|e| e.lo).collect()))
        .with(&format!("held_out_{what}_hi"), Values::Float(held.iter().map(|e| e.hi).collect()))
        .with("rank", Values::MaybeInt(c.iter().map(|x| (x.rank > 0).then_some(x.rank as i64)).collect()));
    if constrained {
        let met = |x: &optimise::CandidateResult| if x.constraint_met { "met" } else { "not met" }.to_string();
        t = t.with("constraint", Values::Text(c.iter().map(met).collect()));
    }
    t
}

/// The `convergence` table: the best in-search estimate against rounds spent; under
/// constraints, whether its candidate met them there (a best that did not pays a penalty).
fn convergence_table(result: &OptimiserResult, what: &str, flip: bool, constrained: bool) -> Table {
    let t = &result.trace;
    let e: Vec<Estimate> = t.iter().map(|(_, e, _)| shown(*e, flip)).collect();
    let table = Table::new("convergence")
        .with("rounds_spent", Values::Int(t.iter().map(|(r, _, _)| *r as i64).collect()))
        .with(&format!("best_{what}"), Values::Float(e.iter().map(|e| e.mean).collect()))
        .with(&format!("best_{what}_lo"), Values::Float(e.iter().map(|e| e.lo).collect()))
        .with(&format!("best_{what}_hi"), Values::Float(e.iter().map(|e| e.hi).collect()));
    if !constrained {
        return table;
    }
    let met = t.iter().map(|(_, _, met)| (if *met { "met" } else { "not met" }).to_string());
    table.with("constraint", Values::Text(met.collect()))
}

/// Writes the tables, the best setting's file and study.json; `what` names the figure,
/// `flip` shows it as a payoff, `constrained` adds the candidates' constraint column.
fn finish(
    out: Option<OutputDir>,
    format: draftsim::output::Format,
    result: &OptimiserResult,
    (what, flip, constrained): (&str, bool, bool),
    (file, text): (&str, String),
    mut meta: serde_json::Value,
    exec: &ExecArgs,
) -> Result<()> {
    if let Some((e, met)) = result.as_given {
        let e = shown(e, flip);
        meta["as_given"] = serde_json::json!({
            what: e.mean, format!("{what}_lo"): e.lo, format!("{what}_hi"): e.hi, "constraint_met": met,
        });
    }
    let tables =
        [candidates_table(result, what, flip, constrained), convergence_table(result, what, flip, constrained)];
    if let Some(dir) = &out {
        dir.write_text(file, &text)?;
    } else {
        say!("\n{file}:\n{text}");
    }
    super::study::write_study(out, &tables, format, meta, &exec.quiet)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starting_point_is_compared_with_the_best_either_way() {
        let e = |mean: f64, half: f64| Estimate { mean, lo: mean - half, hi: mean + half };
        let (name, more) = ("the rules as given", "play more (--rounds)");
        // Minimised: the lower mean is better.
        assert!(against_given(e(1.0, 0.1), e(2.0, 0.1), name, more).starts_with("The best does better"));
        assert!(against_given(e(2.0, 0.1), e(1.0, 0.1), name, more).starts_with("The rules as given does better"));
        assert!(
            against_given(e(1.0, 1.0), e(1.5, 1.0), name, more).starts_with("The best's held-out interval overlaps")
        );
        let worse = against_given(e(1.5, 1.0), e(1.0, 1.0), name, more);
        assert!(worse.starts_with("The rules as given scored better than the best"), "{worse}");
        assert!(worse.ends_with("or play more (--rounds) to tell them apart."), "{worse}");
        let level = against_given(e(0.0, 0.1), e(0.0, 0.1), name, more);
        assert!(level.starts_with("The rules as given scored exactly as the best did"), "{level}");
        assert!(level.ends_with("keep the rules as given."), "{level}");
    }
}
