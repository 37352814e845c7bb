//! `draftsim train`: a policy trained by counterfactual regret minimisation over a game's
//! exact tree, measured as it goes; Ctrl-C keeps the state beside `--out` and the same
//! command resumes (the state goes once the policy is written).

use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use draftsim::InputError;
use draftsim::output::{Table, Values};
use draftsim::solver::policy::{self, FORMAT, POLICY_FILE, Policy, PolicyHeader};
use draftsim::solver::train::{self, Algorithm, Point, TrainState, Trainer};
use draftsim::study::kind;

use super::args::{ExecArgs, GameRulesArgs, OutputArgs, PlayersArg, SeedArg, seconds, whole};
use super::interrupt::INTERRUPTED;
use super::study::{state_file_for, write_study};

/// Arguments of `draftsim train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    #[command(flatten)]
    pub game: GameRulesArgs,
    #[command(flatten)]
    pub players: PlayersArg,
    /// cfr+ (default), dcfr, cfr or es-mccfr.
    #[arg(long, default_value = "cfr+")]
    pub algorithm: String,
    /// Iterations in all (a resumed run counts those it had) [default: 1000].
    #[arg(long, value_parser = whole::<u64>, allow_negative_numbers = true)]
    pub iterations: Option<u64>,
    /// Train for this many seconds instead of a number of iterations.
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true, conflicts_with = "iterations")]
    pub budget_time: Option<f64>,
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub exec: ExecArgs,
}

/// Trains, then writes the policy, the `training` table and study.json.
pub fn run(args: TrainArgs) -> Result<()> {
    let algorithm: Algorithm = args.algorithm.parse()?;
    let Some(out_path) = args.output.out.clone() else {
        return Err(
            InputError::new("train: give --out DIR for the policy (the cfr preset plays it: cfr{policy=DIR})").into()
        );
    };
    let info = draftsim::games::find(&args.game.game)?;
    let rules = args.game.rules_text()?;
    let (game, _) = (info.build)(rules.as_deref(), args.players.players, None)?;
    let rules_toml = game.rules_toml();
    let rules_hash = policy::rules_hash(&rules_toml);
    let tree = game.game_tree()?;
    let target = args.iterations.unwrap_or(1000);
    if target == 0 {
        return Err(InputError::new("--iterations 0: give at least 1").into());
    }
    let (format, out) = args.output.open()?;
    let out = out.expect("--out was given");
    let state_path = state_file_for("train", &out_path);
    let saved: Option<Result<TrainState, serde_json::Error>> =
        std::fs::read_to_string(&state_path).ok().map(|t| serde_json::from_str(&t));
    let same = |s: &TrainState| {
        s.game == info.name && s.rules_hash == rules_hash && s.algorithm == args.algorithm && s.seed == args.seed.seed
    };
    let resumed = match saved {
        // --force starts afresh whatever is there.
        _ if args.output.force => None,
        None => None,
        Some(Err(e)) => {
            return Err(InputError::new(format!(
                "{}: not a training state ({e}); pass --force to start afresh",
                state_path.display()
            ))
            .into());
        }
        Some(Ok(s)) if same(&s) => {
            args.exec.note(&format!(
                "resuming the training in {} ({} iterations done)",
                state_path.display(),
                s.iterations
            ));
            Some(s)
        }
        Some(Ok(_)) => {
            return Err(InputError::new(format!(
                "{}: another training's state is there (other game, rules, algorithm or seed); pass --force to start afresh",
                state_path.display()
            ))
            .into());
        }
    };
    let mut trainer = Trainer::new(&tree, algorithm, args.seed.seed, resumed.as_ref())?;
    let mut points: Vec<Point> = resumed.as_ref().map_or_else(Vec::new, |s| s.points.clone());
    let spent = resumed.as_ref().map_or(0.0, |s| s.seconds);
    args.exec.note(&format!(
        "training {} · {} players · {} · {} information sets · {}",
        info.name,
        game.players(),
        args.algorithm,
        tree.infosets.len(),
        match args.budget_time {
            Some(s) => format!("{s} s"),
            None => format!("{target} iterations"),
        }
    ));
    let bar = args.exec.bar(args.budget_time.map_or(target, |s| (s * 1000.0) as u64));
    let started = Instant::now();
    let save = |trainer: &Trainer, points: &[Point], seconds: f64| -> Result<()> {
        let (regrets, sums) = trainer.tables();
        let state = TrainState {
            game: info.name.into(),
            rules_hash: rules_hash.clone(),
            algorithm: args.algorithm.clone(),
            seed: args.seed.seed,
            iterations: trainer.iterations(),
            seconds,
            regrets,
            sums,
            points: points.to_vec(),
        };
        super::study::save_state(&state_path, &serde_json::to_string(&state)?, "training")?;
        Ok(())
    };
    loop {
        let elapsed = started.elapsed().as_secs_f64();
        let done = match args.budget_time {
            Some(s) => elapsed >= s && trainer.iterations() > 0,
            None => trainer.iterations() >= target,
        };
        if done {
            break;
        }
        if INTERRUPTED.load(Ordering::SeqCst) {
            if let Some(b) = &bar {
                b.finish_and_clear();
            }
            save(&trainer, &points, spent + elapsed)?;
            eprintln!(
                "draftsim: {} iterations are saved in {}; the same command resumes the training",
                trainer.iterations(),
                state_path.display()
            );
            return Err(draftsim::Error::Interrupted.into());
        }
        trainer.iterate(&tree);
        if train::measured_at(trainer.iterations()) {
            let p = trainer.measure(&tree, spent + started.elapsed().as_secs_f64());
            if let Some(b) = &bar {
                b.set_message(format!("exploitability {:.5}", p.exploitability));
            }
            points.push(p);
        }
        if let Some(b) = &bar {
            b.set_position(match args.budget_time {
                Some(_) => (started.elapsed().as_secs_f64() * 1000.0) as u64,
                None => trainer.iterations(),
            });
        }
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let seconds = spent + started.elapsed().as_secs_f64();
    let last = trainer.measure(&tree, seconds);
    if points.last().is_none_or(|p| p.iterations != last.iterations) {
        points.push(last);
    }
    let header = PolicyHeader {
        format: FORMAT,
        game: info.name.into(),
        rules: rules_toml.clone(),
        rules_hash: rules_hash.clone(),
        abstraction: "exact information sets".into(),
        algorithm: args.algorithm.clone(),
        iterations: trainer.iterations(),
        exploitability: Some(last.exploitability),
        players: game.players(),
    };
    let policy = Policy::from_tree(&tree, &trainer.average_policy(), header);
    out.write_text(POLICY_FILE, &policy.to_json())?;
    let table = training_table(&points);
    say!("{}", table.to_aligned_text(6));
    say!(
        "{} iterations in {:.1} s: exploitability {:.6}, seat 0's value {:+.6}",
        last.iterations,
        seconds,
        last.exploitability,
        last.value_seat0
    );
    let meta = serde_json::json!({
        "kind": kind::TRAIN.name,
        "game": info.name,
        "players": game.players(),
        "seed": args.seed.seed,
        "algorithm": args.algorithm,
        "iterations": last.iterations,
        "exploitability": last.exploitability,
        "rules": rules_toml,
    });
    write_study(Some(out), &[table], format, meta, &args.exec.quiet)?;
    // The policy is written: the state of a stopped run is no longer needed.
    let _ = std::fs::remove_file(&state_path);
    Ok(())
}

/// The training curve: the average policy measured at 1, 2, 5, 10, 20, 50, ... iterations.
fn training_table(points: &[Point]) -> Table {
    Table::new(kind::TRAIN.tables[0])
        .with("iterations", Values::Int(points.iter().map(|p| p.iterations as i64).collect()))
        .with("seconds", Values::Float(points.iter().map(|p| p.seconds).collect()))
        .with("exploitability", Values::Float(points.iter().map(|p| p.exploitability).collect()))
        .with("value_seat0", Values::Float(points.iter().map(|p| p.value_seat0).collect()))
}
