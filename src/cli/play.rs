//! `draftsim play`: a person takes a seat (`you`) against the bots, in the terminal or
//! from piped answers, and the units played are written as the usual tables.

use anyhow::Result;
use clap::Args;
use draftsim::error::Error;
use draftsim::output::{Table, Values};
use draftsim::outside::{HUMAN, Hint, terminal};
use draftsim::sim::{Lineup, Mode, Plan, Tally, mix_seed};
use draftsim::{Fault, InputError};

use super::args::{GameArgs, Offered, OutputArgs, RoundsArg, adviser_names, warn_rules, whole};
use super::interrupt::{self, INTERRUPTED};

/// Prints a line of the play at once; a failed write (the reader gone) is not an error,
/// but ends the play at a typing person's next decision.
macro_rules! show {
    ($($arg:tt)*) => {{
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        if writeln!(out, $($arg)*).and_then(|()| out.flush()).is_err() {
            terminal::output_gone();
        }
    }};
}

/// Stream tag of the seed of the run whose deals a play's units are.
const PLAY_STREAM: u64 = 0x9_1A7;

/// Arguments of `draftsim play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub rounds: RoundsArg,
    /// The seed the units are dealt from (default: drawn from the clock, and printed).
    #[arg(long, value_parser = whole::<u64>, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Show advice at each of your decisions: `--hint` (or `--hint search`) what the game's
    /// `search` preset would play, its top moves with their shares of its visits and mean
    /// results (0 worst, 1 best);
    /// `--hint cfr` (or another trained-policy preset) the policy's probabilities.
    #[arg(
        long,
        value_name = "WHO",
        num_args = 0..=1,
        default_missing_value = "search",
        value_parser = Offered(adviser_names),
        hide_possible_values = true
    )]
    pub hint: Option<String>,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Plays the units, one at a time, and writes the tables of those finished.
pub fn run(mut args: PlayArgs) -> Result<()> {
    let info = draftsim::games::find(args.game.name())?;
    let hint = match args.hint.as_deref() {
        None => Hint::None,
        Some("search") => Hint::Search,
        Some(name) => {
            let is_policy = |n: &str| (info.preset_text)(n).is_ok_and(|t| draftsim::search::params::is_policy(&t));
            if !is_policy(name) {
                // Only the advisers --hint takes, not every strategy of the game.
                let advisers: Vec<String> = std::iter::once("search".to_string())
                    .chain((info.presets)().into_iter().map(|(n, _)| n).filter(|n| is_policy(n)))
                    .collect();
                return Err(InputError::new(format!(
                    "--hint {name}: neither search nor a trained policy of {}{}; use --hint with one of {}",
                    info.name,
                    draftsim::games::presets::suggestion(name, advisers.iter().map(String::as_str)),
                    advisers.join(", ")
                ))
                .into());
            }
            let text = (info.preset_text)(name).map_err(|e| e.context("--hint"))?;
            let policy = draftsim::search::params::read_policy(&text, name, info.name)?;
            Hint::Policy(name.to_string(), std::sync::Arc::new(policy))
        }
    };
    let trained_for = match &hint {
        Hint::Policy(name, policy) => Some((name.clone(), policy.clone())),
        _ => None,
    };
    terminal::setup(hint, &INTERRUPTED);
    let seats = match args.game.seats.list() {
        Some(seats) => seats,
        None => {
            // You, then the game's mix for the other seats.
            let players = match args.game.players.players {
                Some(n) => n,
                None => args
                    .game
                    .game
                    .rules_players()?
                    .unwrap_or_else(|| info.with_defaults().map(|(g, _)| g.players()).unwrap_or(2)),
            };
            let mut seats = (info.default_seats)(players);
            seats[0] = HUMAN.to_string();
            seats
        }
    };
    // Play seats the list as given, never cycled: a cycled list would seat `you` twice.
    if let Some(n) = args.game.players.players
        && n != seats.len()
    {
        return Err(InputError::new(format!(
            "--seats: {} named for --players {n}; play seats them as listed, so name one strategy a seat (or leave out --players)",
            seats.len()
        ))
        .into());
    }
    let yours = seats.iter().filter(|s| *s == HUMAN).count();
    if yours != 1 {
        // The seat a person plays is named `you`, whatever else the list holds (`me`).
        // The table keeps its size: each later `you` becomes the game's default seat there.
        let mix = (info.default_seats)(seats.len());
        let (said, example): (String, Vec<&str>) = if yours == 0 {
            let rest = seats.iter().skip(1).map(String::as_str);
            (format!("none of {} is `{HUMAN}`", seats.join(",")), std::iter::once(HUMAN).chain(rest).collect())
        } else {
            let mut kept = false;
            let once = seats.iter().zip(&mix).map(|(s, other)| {
                if s == HUMAN && std::mem::replace(&mut kept, true) { other.as_str() } else { s.as_str() }
            });
            (format!("`{HUMAN}` is named {yours} times"), once.collect())
        };
        return Err(InputError::new(format!(
            "--seats: {said}: name the seat you play `{HUMAN}` once, e.g. --seats {}",
            example.join(",")
        ))
        .into());
    }
    args.game.seats.seats = Some(seats);
    let rounds = args.rounds.get(3)?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
    });
    let (game, seats) = args.game.build().map_err(|e| match e.downcast::<InputError>() {
        // Play seats its list as given, never in turn: the fix is a longer list.
        Ok(e) if e.fault() == Fault::SeatCount => {
            let players = info.with_defaults().map_or(2, |(g, _)| g.players());
            let mut example = (info.default_seats)(players);
            example[0] = HUMAN.to_string();
            e.fixed_by(format!(
                "play seats the list as given: name a strategy for every seat, e.g. --seats {} (or leave out --seats: you and the game's mix)",
                example.join(",")
            ))
            .into()
        }
        Ok(e) => e.into(),
        Err(e) => e,
    })?;
    if let Some((name, policy)) = trained_for {
        // The table's rules and size, as a seat playing the policy would be checked.
        policy
            .check(info.name, &game.rules_toml(), game.players())
            .map_err(|e| InputError::new(format!("--hint {name}: {e}; or hint with search")))?;
    }
    let (format, out) = args.output.open()?;
    if out.is_some() {
        terminal::keep_accounts();
    }
    warn_rules(game.as_ref());
    let unit = game.measures().unit.clone();
    let units = game.measures().units();
    let players = game.players();
    let listed: Vec<String> = seats.iter().enumerate().map(|(s, n)| format!("seat {s} {n}")).collect();
    // The rules file in force, where one is: the table plays its rules, not the defaults.
    let rules = args.game.game.rules.as_ref().map(|r| format!(" · rules {}", r.display())).unwrap_or_default();
    let header = format!(
        "{}{rules} · {players} players · {} · seed {seed} · {rounds} {}\nType a move's number, or its words (any of them that fit no other move will do); ? shows the rules in force.\nCtrl-C or the end of input stops, keeping the {units} finished.",
        args.game.name(),
        listed.join(", "),
        if rounds == 1 { &unit } else { &units }
    );
    show!("{}", terminal::fit(&header));
    let legend: String = (info.view_legend.lines().map(str::trim))
        .filter(|line| !line.is_empty())
        .map(|line| format!("\n  {line}"))
        .collect();
    if !legend.is_empty() {
        show!("{}", terminal::fit(&format!("In your view:{legend}")));
    }
    let rules_text: String = game.rules_toml().lines().map(|line| format!("\n  {line}")).collect();
    let mut help = format!("Rules in force ({}):{rules_text}", args.game.name());
    if !legend.is_empty() {
        help.push_str(&format!("\nIn your view:{legend}"));
    }
    help.push_str(&format!("\nCtrl-C or the end of input stops, keeping the {units} finished."));
    terminal::set_help(help);
    let lineup = Lineup::new(&seats);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    let mut tally: Option<Tally> = None;
    // Stopped by Ctrl-C (not by the end of the input): the finished units are written, and
    // the exit code says the play was cut short, as every command's does.
    let mut stopped = false;
    let mut failed: Option<Error> = None;
    for k in 0..rounds {
        show!("\n=== {unit} {} of {rounds}", k + 1);
        // Unit k is deal k of one run, so what a game does from deal to deal (Seven Card
        // Draft's passing direction) goes on from unit to unit.
        let plan = Plan {
            seed: mix_seed(seed, 0, PLAY_STREAM),
            rounds: 1,
            rotate: false,
            shard: None,
            until_ci: None,
            cards: false,
            first_deal: k,
        };
        let played = pool.install(|| game.run(&lineup, &plan, Mode::Tally, Some(&INTERRUPTED), &mut |_, _| Ok(())));
        match played {
            Ok(t) => {
                match tally.as_mut() {
                    Some(all) => all.merge(&t),
                    None => tally = Some(t),
                }
                let all = tally.as_ref().expect("just set");
                let tables = game.tables(all, &lineup.strategies);
                show!(
                    "\nAfter {} {}:\n{}{}",
                    all.rounds,
                    if all.rounds == 1 { &unit } else { &units },
                    standing(&tables[0], all.rounds, &unit, &units).to_aligned_text(3),
                    shared_seats(&seats, (&unit, &units))
                );
                if interrupt::interrupted() {
                    // Ctrl-C while the bots finished the unit: it counts, and play stops.
                    show!("\nstopped");
                    stopped = true;
                    break;
                }
            }
            Err(Error::Interrupted) if terminal::refused().is_some() => {
                show!("\nstopped at an answer that fits no move: the {unit} under way is not counted");
                break;
            }
            Err(Error::Interrupted) => {
                interrupt::handled();
                stopped = !terminal::input_ended();
                let why = if stopped { "stopped" } else { "input ended" };
                show!("\n{why}: the {unit} under way is not counted");
                break;
            }
            // A bot that fails (an outside program lost) ends the play as Ctrl-C does: the
            // units finished are kept, and the command fails on it.
            Err(e) => {
                show!("\nstopped by a failed seat: the {unit} under way is not counted");
                failed = Some(e);
                break;
            }
        }
    }
    if interrupt::interrupted() {
        // Ctrl-C while the bots finished the last unit: the units are kept all the same.
        interrupt::handled();
    }
    // Units finished before a refused answer are kept, and the command fails on it.
    let mut cut_short = || match terminal::refused() {
        _ if failed.is_some() => Err(failed.take().expect("just checked").into()),
        Some(why) => Err(InputError::new(why).into()),
        None if stopped => Err(draftsim::Error::Interrupted.into()),
        None => Ok(()),
    };
    let Some(tally) = tally else {
        // Stopped by a signal, the command's own last line says no results were written.
        if out.is_some() && !stopped {
            to_stderr!("draftsim: no {unit} finished: nothing to write");
        }
        return cut_short();
    };
    let tables = game.tables(&tally, &lineup.strategies);
    let meta = draftsim::output::RunMeta {
        notes: vec![format!(
            "played by `draftsim play`: {unit} k was deal k of one run seeded from seed {seed}, the seats as listed"
        )],
        ..draftsim::output::RunMeta::new(args.game.name(), seed, rounds, tally.rounds, game.rules_toml(), seats.clone())
    };
    if let Some(dir) = out {
        // Every unit's whole account, which the reveal may cut to fit a screen.
        dir.write_text("accounts.txt", &terminal::accounts())?;
        let path = super::run::write_run(dir, &tables, &tally, &meta, format)?;
        to_stderr!("draftsim: tables written to {}", path.display());
    }
    cut_short()
}

/// A line under the running table for each strategy that holds several seats, whose
/// units count one a seat (two seats of `tight`: two hands a hand dealt); empty where none
/// does.
fn shared_seats(seats: &[String], (unit, units): (&str, &str)) -> String {
    let lineup = Lineup::new(seats);
    (lineup.strategies.iter().enumerate())
        .map(|(x, name)| (name, lineup.entry_strategy.iter().filter(|&&e| e == x).count()))
        .filter(|&(_, held)| held > 1)
        .map(|(name, held)| {
            format!("\n{name} holds {held} seats: each {unit} dealt counts {held} of its {units}, and its rates are per seat")
        })
        .collect()
}

/// The running table a player reads between units: each strategy's units (named as
/// `units`), wins, win rate and score per unit, the score's interval once it is bounded (it
/// needs two deals that ended differently), from the summary table's columns; `deals` the
/// units played.
fn standing(summary: &Table, deals: u64, unit: &str, units: &str) -> Table {
    let mut t = Table::new(&summary.name);
    let names = &summary.columns;
    for want in ["strategy", "rounds", "wins", "win_rate"] {
        if let Some(c) = summary.column(want) {
            // The units by their own name (`matches`), as the line above the table says.
            t = t.with(if want == "rounds" { units } else { want }, c.clone());
        }
    }
    // The score: the first column after the win rate's interval that has one of its own.
    let score = names.iter().position(|(n, _)| n == "win_rate_hi").and_then(|w| {
        (w + 1..names.len().saturating_sub(2))
            .find(|&i| names[i + 1].0 == format!("{}_lo", names[i].0) && names[i + 2].0 == format!("{}_hi", names[i].0))
    });
    if let Some(i) = score {
        // The score per unit by the unit's own name too (`chips_per_hand` beside `hands`).
        let per_unit = |name: &str| name.replace("_per_round", &format!("_per_{unit}"));
        t = t.with(&per_unit(&names[i].0), names[i].1.clone());
        fn floats(v: &Values) -> Option<&[f64]> {
            match v {
                Values::Float(x) => Some(x),
                _ => None,
            }
        }
        // Deals that all ended alike give an interval of no width, which would read as
        // certainty, and one deal the whole range the rules allow: it waits until two
        // deals' scores differ.
        let bounded = deals >= 2
            && match (floats(&names[i + 1].1), floats(&names[i + 2].1)) {
                (Some(lo), Some(hi)) => {
                    lo.iter().zip(hi.iter()).all(|(lo, hi)| lo.is_finite() && hi.is_finite() && lo < hi)
                }
                _ => true,
            };
        if bounded {
            t = t
                .with(&per_unit(&names[i + 1].0), names[i + 1].1.clone())
                .with(&per_unit(&names[i + 2].0), names[i + 2].1.clone());
        }
    }
    t
}
