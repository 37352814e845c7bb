//! `draftsim train`: a policy trained by counterfactual regret minimisation over a game's
//! exact tree, measured as it goes, or, for a game too large for one, by external-sampling
//! MCCFR over its forward model and its information keys; Ctrl-C keeps the state beside
//! `--out` and the same command resumes (the state goes once the policy is written, unless
//! `--keep-state` keeps it for a later run with more iterations).

use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use draftsim::InputError;
use draftsim::output::{Table, Values};
use draftsim::solver::best_response::{exploitability, policy_values};
use draftsim::solver::policy::{self, FORMAT, POLICY_FILE, Policy, PolicyHeader};
use draftsim::solver::sampled::{SampledTrainer, Walk};
use draftsim::solver::train::{self, Algorithm, Point, TrainState, Trainer};
use draftsim::solver::tree::Tree;
use draftsim::study::kind;

use super::args::{ExecArgs, GameRulesArgs, OutputArgs, PlayersArg, SeedArg, number, seconds, whole};
use super::interrupt::INTERRUPTED;
use super::study::{state_file_for, write_study};

/// Fewer batches than this in a run are warned of.
const FEW_BATCHES: u64 = 100;

/// Arguments of `draftsim train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    #[command(flatten)]
    pub game: GameRulesArgs,
    #[command(flatten)]
    pub players: PlayersArg,
    /// cfr+, dcfr, cfr, es-mccfr, os-mccfr or mccfr-probe [default: cfr+ where the game's whole tree
    /// is held (kuhn-poker, leduc-poker); over the forward model elsewhere, mccfr-probe for
    /// Seven Poker games, es-mccfr for the rest].
    #[arg(long)]
    pub algorithm: Option<String>,
    /// The heuristic preset that makes the decisions the game's information key leaves out
    /// (Seven Card Draft's picks), in training and in play [default: the game's, e.g. greedy].
    #[arg(long, value_name = "PRESET")]
    pub fallback: Option<String>,
    /// Heuristic strategies that take other seats' places in sampled training, so the
    /// policy learns to answer them too: comma-separated, as for --seats.
    #[arg(long, value_delimiter = ',', value_name = "STRATEGIES")]
    pub field: Option<Vec<String>>,
    /// The chance that each other seat of a traversal is one of --field's strategies
    /// (drawn uniformly), 0 to 1 [default: 0.5 with --field].
    #[arg(long, value_name = "SHARE", requires = "field", value_parser = number, allow_negative_numbers = true)]
    pub field_share: Option<f64>,
    /// Iterations in all (a resumed run counts those it had) [default: 1000].
    #[arg(long, value_parser = whole::<u64>, allow_negative_numbers = true)]
    pub iterations: Option<u64>,
    /// Iterations whose traversals read the same strategies and run in parallel on
    /// --threads, for the sampled algorithms (es-mccfr, os-mccfr, mccfr-probe): the policy
    /// depends on the batch, never on the threads [default: 1, each iteration reading the
    /// last one's updates, on one thread].
    #[arg(long, value_parser = whole::<u64>, allow_negative_numbers = true)]
    pub batch: Option<u64>,
    /// Train for this many seconds instead of a number of iterations.
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true, conflicts_with = "iterations")]
    pub budget_time: Option<f64>,
    /// Keep the training's state beside --out once the policy is written, so that the same
    /// command with more --iterations trains on from it and replaces the policy (without it
    /// the state goes, and a finished training cannot be extended).
    #[arg(long)]
    pub keep_state: bool,
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub exec: ExecArgs,
}

/// The games `train` trains: those whose whole tree is held, and those that key their
/// decisions for sampled training.
fn trainable() -> &'static [&'static str] {
    static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        (draftsim::games::GAMES.iter())
            .filter(|g| g.with_defaults().is_ok_and(|(g, _)| g.has_tree() || g.policy_fallback().is_some()))
            .map(|g| g.name)
            .collect()
    })
}

/// `--game`'s help: only the games it trains (the others are refused with this list).
pub fn game_help() -> String {
    format!("Game: {} [default: {}]", draftsim::output::or_list(trainable()), super::args::DEFAULT_GAME)
}

/// Trains, then writes the policy, the `training` table and study.json.
pub fn run(args: TrainArgs) -> Result<()> {
    let Some(out_path) = args.output.out.clone() else {
        return Err(
            InputError::new("train: give --out DIR for the policy (the cfr preset plays it: cfr{policy=DIR})").into()
        );
    };
    let info = args.game.info()?;
    let rules = args.game.rules_text()?;
    let (mut game, _) = args.game.build(info, rules.as_deref(), args.players.players, None)?;
    let exact = game.has_tree();
    let algorithm_name = args.algorithm.clone().unwrap_or_else(|| {
        if exact {
            "cfr+"
        } else if game.probe_training() {
            "mccfr-probe"
        } else {
            "es-mccfr"
        }
        .into()
    });
    let algorithm: Algorithm = algorithm_name.parse()?;
    match algorithm {
        Algorithm::Probe if exact => {
            return Err(InputError::new(format!(
                "--algorithm mccfr-probe: {} has a whole tree; use cfr+, dcfr, cfr, es-mccfr or os-mccfr",
                info.name
            ))
            .into());
        }
        Algorithm::Full(_) if !exact => {
            // Suggest only what this game takes (es-mccfr is refused where it probes).
            let sampled =
                if game.probe_training() { "mccfr-probe or os-mccfr" } else { "es-mccfr, os-mccfr or mccfr-probe" };
            return Err(InputError::new(format!(
                "--algorithm {algorithm_name}: {} has no exact tree to sweep; use {sampled} (over its forward model)",
                info.name
            ))
            .into());
        }
        Algorithm::ExternalSampling if !exact && game.probe_training() => {
            return Err(InputError::new(format!(
                "--algorithm es-mccfr: a unit of {} holds too many of one seat's decisions to branch at every one; use mccfr-probe",
                info.name
            ))
            .into());
        }
        _ => {}
    }
    let field: Vec<String> = args.field.as_deref().map(draftsim::games::presets::rejoin).unwrap_or_default();
    let field_share = if field.is_empty() { 0.0 } else { args.field_share.unwrap_or(0.5) };
    if !(0.0..=1.0).contains(&field_share) {
        return Err(InputError::new(format!("--field-share {field_share}: give a chance from 0 to 1")).into());
    }
    for name in &field {
        heuristic(info, "--field", name, "search and trained players are too slow to train against")?;
    }
    if exact && !field.is_empty() {
        return Err(InputError::new(format!(
            "--field: {} trains over its whole tree, every seat by regret; train against a field only over a forward model",
            info.name
        ))
        .into());
    }
    if exact && args.fallback.is_some() {
        return Err(InputError::new(format!(
            "--fallback: {} keys every decision, so no preset is needed; leave it out",
            info.name
        ))
        .into());
    }
    let fallback = if exact {
        None
    } else {
        // A game trains by sampling once it keys its decisions, and it then names the
        // preset for the rest.
        let Some(default) = game.policy_fallback() else {
            return Err(InputError::new(format!(
                "{}: no abstraction of its decisions to train on yet; train {}",
                info.name,
                draftsim::output::or_list(trainable())
            ))
            .into());
        };
        let name = args.fallback.clone().unwrap_or_else(|| default.to_string());
        // Said before the strategy is seated: a policy for another table would be refused
        // for its table first, and the fix for that leads to this refusal.
        heuristic(info, "--fallback", &name, "the fallback makes the decisions the policy has no key for")?;
        let players = game.players();
        game = (info.build)(rules.as_deref(), Some(players), Some(std::slice::from_ref(&name)))
            .map_err(|e| e.context("--fallback"))?
            .0;
        Some(name)
    };
    super::args::warn_rules(&*game);
    // What the field and the fallback play, as read now: a preset file may change or be
    // found elsewhere later. A strategy without text (an outside or human seat) is left to
    // the trainer, which refuses it with its own message.
    let fallback_toml = fallback.as_deref().and_then(|f| (info.preset_text)(f).ok());
    let mut presets_text = fallback_toml.clone().unwrap_or_default();
    for strategy in &field {
        presets_text += &(info.preset_text)(strategy).unwrap_or_default();
    }
    let presets_hash = if presets_text.is_empty() { String::new() } else { policy::rules_hash(&presets_text) };
    let rules_toml = game.rules_toml();
    let rules_hash = policy::rules_hash(&rules_toml);
    let tree = match exact.then(|| game.game_tree()).transpose() {
        // A sampled method walks the forward model: rules too large for the whole tree
        // train without its exact figures.
        Err(e) if draftsim::solver::build::too_large(&e) && !matches!(algorithm, Algorithm::Full(_)) => {
            args.exec.note(&format!("{e}: training over the forward model, with no exact exploitability"));
            None
        }
        Err(e) if draftsim::solver::build::too_large(&e) => {
            return Err(InputError::new(format!(
                "{e}; train it with --algorithm es-mccfr or os-mccfr, which sample it"
            ))
            .into());
        }
        other => other?,
    };
    let batch = args.batch.unwrap_or(1);
    if batch == 0 {
        return Err(InputError::new("--batch 0: give at least 1 iteration a batch").into());
    }
    if batch > draftsim::solver::sampled::MAX_BATCH {
        return Err(InputError::new(format!(
            "--batch {batch}: give at most {} iterations a batch (a batch's updates are held in memory until it ends)",
            draftsim::solver::sampled::MAX_BATCH
        ))
        .into());
    }
    if batch > 1 && matches!(algorithm, Algorithm::Full(_)) {
        return Err(InputError::new(format!(
            "--batch {batch}: {algorithm_name} sweeps the whole tree each iteration; batches are for es-mccfr, os-mccfr and mccfr-probe"
        ))
        .into());
    }
    // Flags that change nothing here are said to, as --force without --out is.
    if let Some(threads) = args.exec.threads.filter(|&t| t > 1 && batch == 1) {
        super::args::warn(&match algorithm {
            Algorithm::Full(_) => format!("--threads {threads}: {algorithm_name} sweeps the whole tree on one thread"),
            _ => format!(
                "--threads {threads}: without --batch each iteration reads the last one's updates, so training runs on one thread; --batch 64 runs a batch's iterations in parallel"
            ),
        });
    }
    if matches!(algorithm, Algorithm::Full(_)) && args.seed.seed != super::args::DEFAULT_SEED {
        super::args::warn(&format!(
            "--seed {}: {algorithm_name} sweeps the whole tree and draws nothing at random, so the seed changes no figure",
            args.seed.seed
        ));
    }
    let mut target = args.iterations.unwrap_or(1000);
    if target == 0 {
        return Err(InputError::new("--iterations 0: give at least 1").into());
    }
    // A run stops between batches only, so that a resumed run equals an unbroken one (a
    // run by the clock stops between batches anyway, and has no count to round).
    if args.budget_time.is_none() && !target.is_multiple_of(batch) {
        target = target.div_ceil(batch).checked_mul(batch).ok_or_else(|| {
            InputError::new(format!(
                "--iterations {target}: give at most {} with --batch {batch}",
                u64::MAX / batch * batch
            ))
        })?;
        args.exec.note(&format!("--iterations rounded up to whole batches of {batch}: {target}"));
    }
    // A batch's traversals all read the strategies as it began: a run of few batches
    // updates them a few times only, and trains little.
    if batch > 1 && args.budget_time.is_none() && target / batch < FEW_BATCHES {
        // The count the user gave, not the one rounded up to whole batches.
        let asked = args.iterations.map_or_else(|| format!("{target} iterations"), |n| format!("--iterations {n}"));
        super::args::warn(&format!(
            "{asked} in batches of {batch} updates the strategies only {} times, and trains little: keep at least a few hundred batches (a smaller --batch)",
            target / batch
        ));
    }
    let state_path = state_file_for("train", &out_path);
    let saved: Option<Result<TrainState, serde_json::Error>> =
        std::fs::read_to_string(&state_path).ok().map(|t| serde_json::from_str(&t));
    // What differs between a saved state and this command, in words ("algorithm cfr+
    // there, dcfr here"): none, and the state is this training's.
    let differences = |s: &TrainState| -> Vec<String> {
        let mut d = Vec::new();
        let mut differ = |what: &str, there: String, here: String| {
            if there != here {
                d.push(format!("{what} {there} there, {here} here"));
            }
        };
        differ("game", s.game.clone(), info.name.to_string());
        // Under the same game, the keys that differ, where the state keeps its rules; else
        // (or where only the text differs, a comment say) the hashes.
        let keys = match s.game == info.name && !s.rules.is_empty() && s.rules_hash != rules_hash {
            true => draftsim::games::presets::differing_keys(&s.rules, &rules_toml),
            false => Vec::new(),
        };
        if keys.is_empty() {
            differ("rules hash", s.rules_hash.clone(), rules_hash.clone());
        }
        for (key, there, here) in keys {
            differ(&format!("{key} ="), there, here);
        }
        differ("algorithm", s.algorithm.clone(), algorithm_name.clone());
        // Full-width CFR draws nothing at random: its seed changes no figure.
        if !matches!(algorithm, Algorithm::Full(_)) {
            differ("seed", s.seed.to_string(), args.seed.seed.to_string());
        }
        differ("field", format!("[{}]", s.field.join(",")), format!("[{}]", field.join(",")));
        differ("field share", s.field_share.to_string(), field_share.to_string());
        differ("batch", s.batch.to_string(), batch.to_string());
        let named = |f: &Option<String>| f.clone().unwrap_or_else(|| "none".into());
        differ("fallback", named(&s.fallback), named(&fallback));
        // A state saved before the presets were hashed holds none: resumed as before.
        // Another game's presets differ anyway, and another field or fallback is said above.
        if s.game == info.name
            && !s.presets_hash.is_empty()
            && s.presets_hash != presets_hash
            && s.field == field
            && s.fallback == fallback
        {
            d.push("a field or fallback preset file changed since".to_string());
        }
        d
    };
    let same = |s: &TrainState| differences(s).is_empty();
    // The iterations of the policy the folder holds, where it is one this state's training
    // wrote (at its end, or before an extension that was stopped): anything else there
    // (another policy, another command's tables) is replaced only with --force.
    let there = saved.is_some().then(|| Policy::read(&out_path).ok().map(|p| p.header)).flatten();
    let its_policy = |s: &TrainState| {
        there.as_ref().and_then(|h| {
            let ours = h.game == s.game && h.rules_hash == s.rules_hash && h.algorithm == s.algorithm;
            (ours && h.iterations <= s.iterations).then_some(h.iterations)
        })
    };
    // --force starts afresh from a state that is not this training's; without it, refused.
    let not_this = |why: String| -> Result<Option<TrainState>> {
        if args.output.force {
            // Said, since the iterations saved there are lost.
            args.exec.note(&format!(
                "--force: training afresh; the state in {} ({why}) will be replaced",
                state_path.display()
            ));
            return Ok(None);
        }
        Err(InputError::new(format!("{}: {why}; pass --force to start afresh", state_path.display())).into())
    };
    // What resuming is said as, once the folder is known to take the result.
    let mut said: Option<String> = None;
    let resumed = match saved {
        None => None,
        Some(Err(e)) => not_this(format!("not a training state ({e})"))?,
        Some(Ok(s)) if !s.intact() => {
            not_this("a damaged training state (its checksum does not match its contents)".into())?
        }
        // A finished training kept with --keep-state: more iterations extend it.
        Some(Ok(s)) if same(&s) && its_policy(&s).is_some() => {
            // A finished training with nothing to add: --force trains afresh (resuming a
            // stopped one is what the same command, --force or not, does).
            if args.budget_time.is_none() && s.iterations >= target && its_policy(&s) == Some(s.iterations) {
                if !args.output.force {
                    return Err(InputError::new(format!(
                        "--out {}: holds this training at {} iterations; give --iterations above {} to train on, or pass --force to train afresh",
                        out_path.display(),
                        s.iterations,
                        s.iterations
                    ))
                    .into());
                }
                args.exec.note(&format!(
                    "--force: training afresh; the kept training in {} ({} iterations) will be replaced",
                    state_path.display(),
                    s.iterations
                ));
                None
            } else {
                said = Some(format!(
                    "extending the training in {} from {} iterations (its state is in {})",
                    out_path.display(),
                    s.iterations,
                    state_path.display()
                ));
                Some(s)
            }
        }
        Some(Ok(s)) if same(&s) => {
            said =
                Some(format!("resuming the training in {} ({} iterations done)", state_path.display(), s.iterations));
            if args.budget_time.is_none() && s.iterations > target {
                // A warning, under --quiet too: the policy is not what --iterations asked.
                super::args::warn(&format!(
                    "the saved training has {} iterations, more than --iterations {target}: its policy is written as it stands",
                    s.iterations
                ));
            }
            Some(s)
        }
        Some(Ok(s)) => not_this(format!("another training's state is there ({})", differences(&s).join("; ")))?,
    };
    // A resumed run already past --iterations writes its policy as it stands.
    if let Some(s) = &resumed
        && args.budget_time.is_none()
    {
        target = target.max(s.iterations);
    }
    // A policy whose state went cannot be extended: say so, not only that the folder exists.
    if resumed.is_none() && !args.output.force && out_path.join(POLICY_FILE).exists() {
        // Another game's or table's policy is no training to extend: say whose it is.
        if let Ok(there) = draftsim::solver::policy::Policy::read(&out_path)
            && (there.header.game != info.name
                || there.header.players != game.players()
                || there.header.rules_hash != rules_hash)
        {
            let h = &there.header;
            let whose = if h.game != info.name {
                format!("{}, not {}", h.game, info.name)
            } else if h.players != game.players() {
                format!("{} players, not {}", h.players, game.players())
            } else {
                "other rules".to_string()
            };
            return Err(InputError::new(format!(
                "--out {}: holds a policy trained for {whose}; give another --out, or pass --force to replace it",
                out_path.display()
            ))
            .into());
        }
        return Err(InputError::new(format!(
            "--out {}: holds a trained policy whose training state was not kept, so it cannot be extended; pass --force to train afresh (--keep-state keeps a training's state to extend it later)",
            out_path.display()
        ))
        .into());
    }
    // Extending replaces the policy this training wrote before.
    let extending = resumed.as_ref().is_some_and(|s| its_policy(s).is_some());
    // A state of this training beside a folder that no longer holds its policy: the
    // folder was changed since, and is not replaced unasked.
    if resumed.is_some()
        && !extending
        && !args.output.force
        && out_path.read_dir().is_ok_and(|mut d| d.next().is_some())
    {
        return Err(InputError::new(format!(
            "--out {}: no longer holds the policy of the training saved in {}; give another --out to resume it there, or pass --force to replace the folder",
            out_path.display(),
            state_path.display()
        ))
        .into());
    }
    let (format, out) = OutputArgs { force: args.output.force || extending, ..args.output.clone() }.open_over(true)?;
    let out = out.expect("--out was given");
    if let Some(n) = &said {
        args.exec.note(n);
    }
    // Outcome sampling and batches walk the forward model whatever the game; a whole tree
    // then only measures it.
    let mut training = match &tree {
        Some(tree) if algorithm != Algorithm::Outcome && batch == 1 => {
            Training::Exact(tree, Trainer::new(tree, algorithm, args.seed.seed, resumed.as_ref())?)
        }
        _ => {
            let (iterations, tables) = match &resumed {
                Some(s) => {
                    let fits = s.keys.len() == s.regrets.len()
                        && s.keys.len() == s.sums.len()
                        && s.regrets.iter().zip(&s.sums).all(|(r, m)| r.len() == m.len() && !r.is_empty());
                    if !fits {
                        return Err(InputError::new(
                            "the saved training state is damaged; pass --force to start afresh",
                        )
                        .into());
                    }
                    let rows = s.keys.iter().zip(&s.regrets).zip(&s.sums);
                    (s.iterations, rows.map(|((&(seat, key), r), m)| (seat, key, r.clone(), m.clone())).collect())
                }
                None => (0, Vec::new()),
            };
            {
                let options = draftsim::solver::sampled::Options {
                    walk: match algorithm {
                        Algorithm::Probe => Walk::Probe,
                        Algorithm::Outcome => Walk::Outcome,
                        _ => Walk::External,
                    },
                    field: field.clone(),
                    field_share,
                    batch,
                };
                Training::Sampled(game.sampled_trainer(args.seed.seed, iterations, tables, &options)?, tree.as_ref())
            }
        }
    };
    let mut points: Vec<Point> = resumed.as_ref().map_or_else(Vec::new, |s| s.points.clone());
    let spent = resumed.as_ref().map_or(0.0, |s| s.seconds);
    args.exec.note(&format!(
        "training {} · {} players · {} · {} · {}",
        info.name,
        game.players(),
        algorithm_name,
        match (&tree, &fallback) {
            (Some(tree), _) => format!("{} information sets", tree.infosets.len()),
            (None, Some(name)) => format!("information keys of the forward model, {name} where it has none"),
            (None, None) => "information keys of the forward model".into(),
        } + &if field.is_empty() {
            String::new()
        } else {
            format!(" · field {} at {field_share} of the other seats", field.join(","))
        } + &if batch > 1 { format!(" · batches of {batch}") } else { String::new() },
        match args.budget_time {
            Some(s) => format!("{s} s"),
            None => format!("{target} iterations"),
        }
    ));
    let bar = args.exec.bar(args.budget_time.map_or(target, |s| (s * 1000.0) as u64));
    let pool = args.exec.pool()?;
    let started = Instant::now();
    let save = |training: &Training, points: &[Point], seconds: f64| -> Result<()> {
        let (keys, regrets, sums) = training.tables();
        let state = TrainState {
            game: info.name.into(),
            rules_hash: rules_hash.clone(),
            rules: rules_toml.clone(),
            algorithm: algorithm_name.clone(),
            seed: args.seed.seed,
            iterations: training.iterations(),
            seconds,
            keys,
            regrets,
            sums,
            points: points.to_vec(),
            field: field.clone(),
            field_share,
            batch,
            fallback: fallback.clone(),
            presets_hash: presets_hash.clone(),
            checksum: String::new(),
        };
        super::study::save_state(&state_path, &state.seal()?, "training")?;
        Ok(())
    };
    // The whole loop runs on the pool: entering it once an iteration costs a thread wake-up
    // and a sleep, more than a sampled iteration itself.
    let resumed_at = training.iterations();
    pool.install(|| -> Result<()> {
        loop {
            let elapsed = started.elapsed().as_secs_f64();
            let done = match args.budget_time {
                Some(s) => elapsed >= s && training.iterations() > 0,
                None => training.iterations() >= target,
            };
            // A signal is looked at first, so one on the last batch still saves the state.
            if INTERRUPTED.load(Ordering::SeqCst) {
                if let Some(b) = &bar {
                    b.finish_and_clear();
                }
                save(&training, &points, spent + elapsed)?;
                to_stderr!(
                    "draftsim: {} iterations are saved in {}; the same command resumes the training",
                    training.iterations(),
                    state_path.display()
                );
                return Err(draftsim::Error::Interrupted.into());
            }
            if done {
                break;
            }
            let before = training.iterations();
            training.iterate()?;
            if train::measured_in(before, training.iterations()) {
                let p = training.measure(spent + started.elapsed().as_secs_f64());
                if let Some(b) = &bar {
                    b.set_message(match p.exploitability {
                        Some(e) => format!("exploitability {e:.5}"),
                        None => format!("{} information sets", p.information_sets),
                    });
                }
                points.push(p);
            }
            if let Some(b) = &bar {
                b.set_position(match args.budget_time {
                    Some(_) => (started.elapsed().as_secs_f64() * 1000.0) as u64,
                    None => training.iterations(),
                });
                // The first iteration sets the training up and a resumed one starts part
                // way: the rate and ETA count from after it, not from nothing.
                if before == resumed_at {
                    b.tick();
                    b.reset_eta();
                }
            }
        }
        Ok(())
    })?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let seconds = spent + started.elapsed().as_secs_f64();
    // The table's last point where it measured this iteration: measured again (long on a
    // big tree) it would say a later time than the table does, for the same figures.
    let last = match points.last() {
        Some(p) if p.iterations == training.iterations() => *p,
        _ => training.measure(seconds),
    };
    // A state kept for later holds the grid's points only: an extended run's table then
    // has the rows an unbroken one has.
    let on_grid = points.len();
    if points.last().is_none_or(|p| p.iterations != last.iterations) {
        points.push(last);
    }
    let header = PolicyHeader {
        format: FORMAT,
        game: info.name.into(),
        rules: rules_toml.clone(),
        rules_hash: rules_hash.clone(),
        abstraction: if exact { "exact information sets" } else { "the game's information keys" }.into(),
        algorithm: algorithm_name.clone(),
        iterations: training.iterations(),
        exploitability: last.exploitability,
        players: game.players(),
        fallback: fallback.clone(),
        fallback_toml: fallback_toml.clone(),
        field: field.clone(),
        field_share: (!field.is_empty()).then_some(field_share),
        batch: (batch > 1).then_some(batch),
    };
    let policy = training.policy(header);
    out.write_text(POLICY_FILE, &policy.to_json())?;
    // A run by the clock is known to be short of batches only at its end.
    if batch > 1 && args.budget_time.is_some() && last.iterations / batch < FEW_BATCHES {
        super::args::warn(&format!(
            "--budget-time {} in batches of {batch} updated the strategies only {} times, and trained little: keep at least a few hundred batches (a smaller --batch, or more time)",
            args.budget_time.unwrap_or_default(),
            last.iterations / batch
        ));
    }
    let table = training_table(&points);
    say!("{}", table.to_aligned_text(6));
    let iterations = draftsim::output::noun(last.iterations as i64, "iteration", "iterations");
    match (last.exploitability, last.value_seat0) {
        (Some(e), Some(v)) => {
            say!(
                "{} {iterations} in {:.1} s: exploitability {e:.6}, seat 0's value {v:+.6}",
                last.iterations,
                last.seconds
            )
        }
        _ => say!(
            "{} {iterations} in {:.1} s: {} information sets; no exact exploitability for {}: bound it with `draftsim exploitability --game {} --players {}{} --seats {}`",
            last.iterations,
            last.seconds,
            last.information_sets,
            info.name,
            info.name,
            game.players(),
            args.game
                .rules
                .as_ref()
                .map_or(String::new(), |r| format!(" --rules {}", super::args::shell_word(&r.display().to_string()))),
            super::args::shell_word(&format!("cfr{{policy=\"{}\"}}", out_path.display()))
        ),
    }
    let mut meta = serde_json::Map::new();
    let mut put = |key: &str, value: serde_json::Value| meta.insert(key.into(), value);
    put("kind", kind::TRAIN.name.into());
    put("game", info.name.into());
    put("players", game.players().into());
    put("seed", args.seed.seed.into());
    put("algorithm", algorithm_name.clone().into());
    put("fallback", fallback.clone().into());
    if !field.is_empty() {
        put("field", field.clone().into());
        put("field_share", field_share.into());
    }
    if batch > 1 {
        put("batch", batch.into());
    }
    put("iterations", last.iterations.into());
    put("exploitability", last.exploitability.into());
    put("rules", rules_toml.clone().into());
    let meta = serde_json::Value::Object(meta);
    if args.keep_state {
        // Saved before the policy is written: a failure after it leaves no policy without
        // its state.
        save(&training, &points[..on_grid], seconds)?;
    }
    if let Err(e) = write_study(Some(out), &[table], format, meta, &args.exec.quiet) {
        // A signal while the tables were written: the training is kept for the same command.
        if INTERRUPTED.load(Ordering::SeqCst) {
            save(&training, &points[..on_grid], seconds)?;
            to_stderr!(
                "draftsim: {} iterations are saved in {}; the same command writes the policy",
                training.iterations(),
                state_path.display()
            );
        }
        return Err(e);
    }
    if args.keep_state {
        let more = match args.budget_time {
            Some(_) => "trains on for another --budget-time",
            None => "with more --iterations trains on",
        };
        args.exec.note(&format!("the training's state stays in {}: the same command {more}", state_path.display()));
    } else {
        // The policy is written: the state of a stopped run is no longer needed.
        super::study::forget_state(&state_path);
    }
    Ok(())
}

/// The training curve: the average policy measured at 1, 2, 5, 10, 20, 50, ... iterations
/// (its exploitability and seat 0's value where the game's whole tree gives them).
fn training_table(points: &[Point]) -> Table {
    let mut t = Table::new(kind::TRAIN.tables[0])
        .with("iterations", Values::Int(points.iter().map(|p| p.iterations as i64).collect()))
        .with("seconds", Values::Float(points.iter().map(|p| p.seconds).collect()));
    if let (Some(e), Some(v)) = (
        points.iter().map(|p| p.exploitability).collect::<Option<Vec<f64>>>(),
        points.iter().map(|p| p.value_seat0).collect::<Option<Vec<f64>>>(),
    ) {
        t = t.with("exploitability", Values::Float(e)).with("value_seat0", Values::Float(v));
    }
    t.with("information_sets", Values::Int(points.iter().map(|p| p.information_sets as i64).collect()))
}

/// What a stopped run saves: a sampled run's (seat, key) per row, regrets, strategy sums.
type Saved = (Vec<(usize, u64)>, Vec<Vec<f64>>, Vec<Vec<f64>>);

/// A run over the game's whole tree, or a sampled one over its forward model.
enum Training<'a> {
    Exact(&'a Tree, Trainer),
    /// Measured over the game's whole tree where it has one.
    Sampled(Box<dyn SampledTrainer + 'a>, Option<&'a Tree>),
}

impl Training<'_> {
    fn iterate(&mut self) -> Result<()> {
        match self {
            Training::Exact(tree, t) => t.iterate(tree),
            Training::Sampled(t, _) => t.iterate()?,
        }
        Ok(())
    }

    fn iterations(&self) -> u64 {
        match self {
            Training::Exact(_, t) => t.iterations(),
            Training::Sampled(t, _) => t.iterations(),
        }
    }

    /// The average policy measured: exactly over a tree, by its size otherwise.
    fn measure(&self, seconds: f64) -> Point {
        match self {
            Training::Exact(tree, t) => t.measure(tree, seconds),
            Training::Sampled(t, tree) => {
                let measured = tree.map(|tree| {
                    let p = Policy::from_sets(PolicyHeader::default(), t.average()).tabular(tree);
                    (exploitability(tree, &p), policy_values(tree, &p)[0])
                });
                Point {
                    iterations: t.iterations(),
                    seconds,
                    exploitability: measured.map(|m| m.0),
                    value_seat0: measured.map(|m| m.1),
                    information_sets: t.sets() as u64,
                }
            }
        }
    }

    /// (keys of a sampled run's rows, regrets, strategy sums) to save.
    fn tables(&self) -> Saved {
        match self {
            Training::Exact(_, t) => {
                let (r, s) = t.tables();
                (Vec::new(), r, s)
            }
            Training::Sampled(t, _) => {
                let rows = t.tables();
                let keys = rows.iter().map(|r| (r.0, r.1)).collect();
                let (regrets, sums) = rows.into_iter().map(|r| (r.2, r.3)).unzip();
                (keys, regrets, sums)
            }
        }
    }

    fn policy(&self, header: PolicyHeader) -> Policy {
        match self {
            Training::Exact(tree, t) => Policy::from_tree(tree, &t.average_policy(), header),
            Training::Sampled(t, _) => Policy::from_sets(header, t.average()),
        }
    }
}

/// Refuses a `--fallback` or `--field` strategy that is no heuristic preset (`why` a
/// heuristic is needed), listing those that are; a file or a derived preset is left to
/// the game to read.
fn heuristic(info: &draftsim::games::GameInfo, flag: &str, name: &str, why: &str) -> Result<(), InputError> {
    use draftsim::search::params::{is_policy, is_search};
    let heuristics: Vec<String> = ((info.presets)().into_iter().map(|(n, _)| n))
        .filter(|n| (info.preset_text)(n).is_ok_and(|t| !is_policy(&t) && !is_search(&t)))
        .collect();
    let listed = heuristics.join(", ");
    match (info.preset_text)(name) {
        Ok(t) if is_policy(&t) || is_search(&t) => Err(InputError::new(format!(
            "{flag} {name}: must be a heuristic preset of {}, not a search or a trained policy ({why}); use one of {listed}",
            info.name
        ))),
        Err(_) if !name.contains(['{', '/', '.']) && !std::path::Path::new(name).exists() => {
            Err(InputError::new(format!(
                "{flag}: unknown strategy '{name}' for {}{}: use one of {listed} or a path to a .toml file",
                info.name,
                draftsim::games::presets::suggestion(name, heuristics.iter().map(String::as_str))
            )))
        }
        _ => Ok(()),
    }
}
