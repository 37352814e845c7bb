//! Command-line parsing (clap derive) and dispatch; each command lives in its own module.

/// Prints a line once the command is done (see [`say_line`]).
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::say_line(format!($($arg)*))
    };
}

/// `eprintln!` that lets a closed standard error pass: under `2>&1 | head` the reader may
/// be gone while the command still has its tables to write (`eprintln!` would panic).
macro_rules! to_stderr {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

mod args;
mod calibrate;
mod check;
mod compare;
mod completions;
mod exploitability;
mod hand;
mod interrupt;
mod ladder;
mod list;
mod merge;
mod optimise;
mod play;
mod replay;
mod report;
mod run;
mod sensitivity;
mod study;
mod sweep;
mod train;
mod versus;

use std::process::ExitCode;

use clap::{ColorChoice, CommandFactory, FromArgMatches, Parser, Subcommand};

/// The version `--version` prints: the package's and the commit built (build.rs).
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("DRAFTSIM_COMMIT"), ")");

/// Monte Carlo strategy simulator for draft- and draw-based card games.
#[derive(Parser, Debug)]
#[command(
    name = "draftsim",
    version = VERSION,
    about,
    long_about = None,
    after_help = "Example:\n  draftsim run --rounds 200000 --out results\n  draftsim report results --out report"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// `--players` where the seats listed set the table when nothing else does.
const PLAYERS_BY_SEATS: &str =
    "Number of players (default: the rules file's, else one per --seats entry, else the game's)";

#[derive(Subcommand, Debug)]
enum Command {
    /// Simulate rounds and print (and write) win-rate tables with 95% intervals.
    #[command(
        after_help = "Example:\n  draftsim run --seats greedy,hate,tight,random --rounds 200000 --out results --format parquet",
        mut_arg("rounds", |a| a.help("Rounds to play, in the game's units (rounds, games, matches) [default: 1000000]")),
        mut_arg("players", |a| a.help(PLAYERS_BY_SEATS)),
    )]
    Run(run::RunArgs),
    /// Tell one round of a run move by move (same game, rules, seats and seed as the run):
    /// its index, deal, deal seed and seating, then every move.
    #[command(
        after_help = "Example:\n  draftsim replay --seed 20261121 --round 17",
        mut_arg("seed", |a| a.help("The run's seed (the round is replayed as that run played it)")),
        mut_arg("players", |a| a.help(PLAYERS_BY_SEATS)),
    )]
    Replay(replay::ReplayArgs),
    /// Take a seat yourself (`you`) against the bots: your view and your legal moves in
    /// words, the others' moves as they happen, the reveal and a running table after each
    /// unit; answers may also be piped in, one a line.
    #[command(
        after_help = "Example:\n  draftsim play --game sevens --seats you,search,tight --rounds 5 --hint\n  printf '1\\n1\\n1\\n' | draftsim play --game kuhn-poker --seats you,tight --rounds 1 --seed 7",
        mut_arg("seats", |a| a.help("Strategy at each seat, comma-separated, with `you` once (default: you in the first seat, the game's mix in the others)")),
        mut_arg("rounds", |a| a.help("Units to play (rounds, hands, games, matches) [default: 3]")),
        mut_arg("players", |a| a.help(PLAYERS_BY_SEATS)),
    )]
    Play(play::PlayArgs),
    /// Rule set B against A on the same deals: every figure as A, B and B - A with a paired
    /// interval and a Holm-corrected p-value, and a one-screen verdict of what changed.
    #[command(
        after_help = "Example:\n  printf 'games = 3\\n' > best-of-3.toml\n  draftsim versus --game winston-crazier-eights defaults best-of-3.toml --rounds 20000 --out v",
        mut_arg("players", |a| a.help("Players on both sides (default: each rules file's, else the game's)")),
        mut_arg("seats", |a| a.help("The field, comma-separated: at each side's player count every strategy holds an equal share of the seats (default: the game's mix with one random seat, so the skill gap is measured)")),
        mut_arg("rounds", |a| a.help("Rounds of A, as deal groups that B plays too [default: 20000]")),
        mut_arg("seed", |a| a.help("The seed: both sides play the same deals from it")),
        mut_arg("shard", |a| a.help(study::shard_help("the two sides' deals"))),
    )]
    Versus(versus::VersusArgs),
    /// Play every strategy against every other: win-share matrix, ratings, dominance.
    #[command(
        after_help = "Example:\n  draftsim compare --strategies greedy,hate,tight,random --rounds 100000 --out cmp",
        mut_arg("players", |a| a.help("Players at each pair's table (default: the rules file's, else 2, or the fewest the game seats where that is more)")),
        mut_arg("rounds", |a| a.help("Rounds for each pair of strategies [default: 100000]")),
        mut_arg("seed", |a| a.help("The seed: every pair plays the same deals from it")),
        mut_arg("shard", |a| a.help(study::shard_help("the pairs of strategies"))),
    )]
    Compare(compare::CompareArgs),
    /// Sweep rules options (or strategy parameters) over a grid, every variant on the same
    /// seed: one table with a row per variant and strategy.
    #[command(
        after_help = "Example:\n  draftsim sweep --set players=3,4,5,6 --set wild=none,deuces-with-face --out sweep\n  draftsim sweep --seats hate,greedy,tight,random --vary hate.draft.weight=0,0.5,1 --out weights",
        mut_arg("players", |a| a.help("Players in every variant (default: the rules file's, else the game's); --set players=3,4,5 sweeps it instead")),
        mut_arg("seats", |a| a.help("The field, comma-separated: at each variant's player count every strategy holds an equal share of the seats (default: the game's mix with one random seat, so the skill gap is measured)")),
        mut_arg("rounds", |a| a.help("Rounds for each variant [default: 100000]")),
        mut_arg("seed", |a| a.help("The seed: every variant plays the same deals from it")),
        mut_arg("shard", |a| a.help(study::shard_help("the variants"))),
    )]
    Sweep(sweep::SweepArgs),
    /// The skill ladder: the search bot at each budget against the budget before it, on
    /// paired deals under balanced seatings; the skill depth is how many steps still win the score.
    #[command(
        after_help = "Example:\n  draftsim ladder --game sevens --budgets 1,4,16,64,256,1024 --rounds 2000 --out ladder",
        mut_arg("players", |a| a.help("Players at the table (default: the rules file's, else the game's)")),
        mut_arg("rounds", |a| a.help("Rounds for each step [default: 2000]")),
        mut_arg("seed", |a| a.help("The seed: every step plays the same deals from it")),
        mut_arg("shard", |a| a.help(study::shard_help("the steps"))),
    )]
    Ladder(ladder::LadderArgs),
    /// One-step sensitivity: the base rules and every one-step deviation (each other value
    /// of a choice key, each numeric key a step down and up), on the base's deals; each
    /// deviation's effect on the health card, the skill gap and the game's measures, with
    /// Holm-corrected p-values. Ctrl-C keeps what was played beside --out, and the same
    /// command resumes it.
    #[command(
        after_help = "Example:\n  draftsim sensitivity --game sevens --rounds 20000 --out sens\n  draftsim sensitivity --game live-draft --keys life,row --out sens-life",
        mut_arg("players", |a| a.help("Players in the base (default: the rules file's, else the game's)")),
        mut_arg("seats", |a| a.help("The field, comma-separated: at each variant's player count every strategy holds an equal share of the seats (default: the game's mix with one random seat, so the skill gap is measured)")),
        mut_arg("rounds", |a| a.help("Rounds for each variant, as deal groups of the base's player count [default: 20000]")),
        mut_arg("seed", |a| a.help("The seed: every variant plays the same deals from it")),
        mut_arg("out", |a| a.help("Write the sensitivity tables and study.json into this folder (it must not exist, unless --force); an interrupted study keeps its state beside it")),
        mut_arg("shard", |a| a.help(study::shard_help("the base and each deviation"))),
    )]
    Sensitivity(sensitivity::SensitivityArgs),
    /// Search rules options toward an objective over the game's metrics (racing on common
    /// deals, winner re-evaluated on held-out deals); Ctrl-C keeps the search's state
    /// beside --out, and the same command resumes it.
    #[command(
        after_help = "Example:\n  draftsim tune --game sevens --param ante=1..3 --minimize seat_advantage --out tuned",
        mut_arg("seats", |a| a.help("The field, comma-separated: at each candidate's player count every strategy holds an equal share of the seats (default: the game's mix with one random seat, so skill_gap is measured)")),
        mut_arg("rounds", |a| a.help("Rounds for the whole search, held-out evaluation included [default: 400000]")),
        mut_arg("seed", |a| a.help("The search's seed: the candidates, the racing deals and the held-out deals all derive from it")),
        mut_arg("out", |a| a.help("Write the candidates and convergence tables, best-rules.toml and study.json into this folder (it must not exist, unless --force); an interrupted search keeps its state beside it")),
    )]
    Tune(optimise::TuneArgs),
    /// Search a preset's parameters for the best payoff (score per unit of play) against a
    /// field of fixed presets; Ctrl-C keeps the search's state beside --out, and the same
    /// command resumes it.
    #[command(
        after_help = "Example:\n  draftsim exploit --preset hate --field greedy,tight --param draft.weight=0..2 --out best-hate",
        mut_arg("players", |a| a.help("Players at the table (default: the rules file's, else one seat for --preset plus one per --field strategy)")),
        mut_arg("rounds", |a| a.help("Rounds for the whole search, held-out evaluation included [default: 400000]")),
        mut_arg("seed", |a| a.help("The search's seed: the candidates, the racing deals and the held-out deals all derive from it")),
        mut_arg("out", |a| a.help("Write the candidates and convergence tables, best-preset.toml and study.json into this folder (it must not exist, unless --force); an interrupted search keeps its state beside it")),
    )]
    Exploit(optimise::ExploitArgs),
    /// Write report.md and report.html from the folders the other commands write with
    /// --out: a summary of headline figures first, then sections by question, at most 12
    /// SVG charts unless --all-charts.
    #[command(
        after_help = "Example:\n  draftsim run --rounds 200000 --out results\n  draftsim compare --strategies greedy,hate,tight,random --rounds 100000 --out cmp\n  draftsim report results cmp --out report"
    )]
    Report(report::ReportArgs),
    /// Play rounds with every invariant checked; report the first violation (exit code 1).
    #[command(
        after_help = "Example:\n  printf 'raise_cap = 2\\n' > my-variant.toml\n  draftsim check --game sevens --rules my-variant.toml --rounds 1000000",
        mut_arg("rounds", |a| a.help("Rounds to play, in the game's units (rounds, games, matches) [default: 100000]")),
        mut_arg("players", |a| a.help(PLAYERS_BY_SEATS)),
    )]
    Check(check::CheckArgs),
    /// How well a strategy's strength estimate predicts the hands it finishes with, by bins
    /// of the estimate after every pick (Seven Card Draft).
    #[command(
        after_help = "Example:\n  draftsim calibrate --seats greedy --rounds 20000 --out calibration",
        mut_arg("seats", |a| a.help("The strategy whose estimate is calibrated: every seat drafts with it, so name one (--players sets the table size)")),
        mut_arg("rounds", |a| a.help("Rounds to play [default: 20000]")),
    )]
    Calibrate(calibrate::CalibrateArgs),
    /// Train a policy by counterfactual regret minimisation: over a game's exact tree
    /// (kuhn-poker, leduc-poker), measuring its exploitability as it goes, or by Monte Carlo
    /// CFR over the forward model of Seven Card Draft, Sevens and Seven Poker; Ctrl-C keeps
    /// the state beside --out and the same command resumes. The `cfr` preset plays it.
    #[command(
        after_help = "Example:\n  draftsim train --game leduc-poker --iterations 400 --out leduc-cfr\n  draftsim run --game leduc-poker --seats 'cfr{policy=\"leduc-cfr\"}',tight\n  draftsim train --game seven-poker --iterations 20000 --field adaptive,bluffer --out sp-cfr",
        mut_arg("seed", |a| a.help("The seed of the sampled iterations (es-mccfr, os-mccfr, mccfr-probe); full-width CFR draws nothing at random")),
        mut_arg("threads", |a| a.help("Worker threads for a --batch's iterations, 1 or more (default: all cores); without --batch, training runs on one thread")),
        mut_arg("out", |a| a.value_name("DIR").help("Required: write policy.json, the training table and study.json into this folder (it must not exist, unless --force)")),
        mut_arg("game", |a| a.hide_possible_values(true).help(train::game_help())),
    )]
    Train(train::TrainArgs),
    /// How far each seated strategy is from optimal: its exploitability (NashConv over the
    /// players), exact by a best response where the game's whole tree fits in memory (Kuhn,
    /// Leduc), elsewhere at least what the best responder tried gains against it.
    #[command(
        after_help = "Example:\n  draftsim exploitability --game kuhn-poker --seats random,tight,search,cfr\n  draftsim exploitability --game sevens --players 2 --seats tight,exact --rounds 2000",
        mut_arg("seats", |a| a.help("The strategies to measure, comma-separated (each as every seat's policy) [default: the game's default seats]")),
        mut_arg("seed", |a| a.help("The seed: the deals each responder plays (lower bound), or the decisions a player is tabulated from (exact)")),
        mut_arg("rounds", |a| a.help("Rounds each responder plays against each strategy, for the lower bound [default: 2000]")),
    )]
    Exploitability(exploitability::ExploitabilityArgs),
    /// Merge the output folders of shards into the tables of the whole run.
    #[command(
        after_help = "Example:\n  draftsim run --rounds 400000 --shard 0/2 --out shard-0\n  draftsim run --rounds 400000 --shard 1/2 --out shard-1\n  draftsim merge shard-0 shard-1 --out merged",
        mut_arg("out", |a| a.value_name("DIR").help("Required: write the merged tables into this folder (it must not exist, unless --force)")),
        mut_arg("format", |a| a.help("Table format [default: the shards' format]")),
    )]
    Merge(merge::MergeArgs),
    /// Rank a poker hand of 5 to 7 cards, with optional wild rules.
    #[command(after_help = "Example:\n  draftsim hand As Kd 2s Jh Th --wild deuces")]
    Hand(hand::HandArgs),
    /// List games, strategy presets, a game's rules options or its measures.
    #[command(after_help = "Example:\n  draftsim list rules seven-card-draft")]
    List(list::ListArgs),
    /// Print a shell completion script.
    #[command(after_help = "Example:\n  draftsim completions bash > /etc/bash_completion.d/draftsim")]
    Completions {
        /// bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
}

/// What a command prints to stdout, held until it is done and its files are written: a
/// closed pipe (`| head`) then ends the process only when nothing is left to lose.
static STDOUT: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

/// Adds a line to what the command prints when it is done.
pub fn say_line(line: String) {
    let mut out = STDOUT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    out.push_str(&line);
    out.push('\n');
}

/// Adds text as it stands (no newline added) to what the command says.
pub fn say_text(text: &str) {
    STDOUT.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push_str(text);
}

/// Prints what the command said. A closed pipe is an error the caller lets pass (SIGPIPE
/// is ignored: see `main`); any other failure (a full disk) is the command's error, so it
/// never ends as a success with its output lost.
fn flush_said() -> std::io::Result<()> {
    use std::io::Write;
    let text = std::mem::take(&mut *STDOUT.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush())
}

/// Runs the command line and maps errors to exit codes: 2 for bad input, 1 otherwise.
pub fn main() -> ExitCode {
    // draftsim prints no colour of its own; clap's help and usage errors follow NO_COLOR
    // (any non-empty value) even where CLICOLOR_FORCE asks for colour.
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let command = Cli::command().color(if no_color { ColorChoice::Never } else { ColorChoice::Auto });
    let matches = command.try_get_matches().unwrap_or_else(|e| exit_on_usage_error(e));
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    interrupt::catch();
    let mut code = None;
    let result = match cli.command {
        Command::Check(args) => check::run(args).map(|c| code = Some(c)),
        Command::Run(args) => run::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Play(args) => play::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Calibrate(args) => calibrate::run(args),
        Command::Train(args) => train::run(args),
        Command::Exploitability(args) => exploitability::run(args),
        Command::Versus(args) => versus::versus(args),
        Command::Compare(args) => compare::compare(args),
        Command::Sweep(args) => sweep::sweep(args),
        Command::Ladder(args) => ladder::ladder(args),
        Command::Sensitivity(args) => sensitivity::sensitivity(args),
        Command::Tune(args) => optimise::tune(args),
        Command::Exploit(args) => optimise::exploit(args),
        Command::Report(args) => report::report(args),
        Command::Hand(args) => hand::run(args),
        Command::List(args) => list::run(args),
        Command::Completions { shell } => {
            say_text(&completions::script(shell));
            Ok(())
        }
    };
    // A command that finished its work after a signal still ends as interrupted, with
    // nothing written or printed, unless its output was already in place.
    let result = match result {
        Ok(()) if interrupt::stopped_before_writing() => Err(draftsim::Error::Interrupted.into()),
        other => other,
    };
    // A warning held for a command that said nothing more is said once it has succeeded.
    if result.is_ok() {
        args::say_held();
    }
    let stopped = result.as_ref().is_err_and(|err| {
        err.chain().any(|e| matches!(e.downcast_ref::<draftsim::Error>(), Some(draftsim::Error::Interrupted)))
    });
    // What a command says describes what it wrote: a command that failed says nothing.
    let result = match result {
        // A reader gone is no failure: the tables are written by now.
        Ok(()) => match flush_said() {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(anyhow::anyhow!("writing to standard output: {e}"))
            }
            _ => Ok(()),
        },
        other => other,
    };
    if result.is_ok() {
        for w in draftsim::outside::process::fault_warnings() {
            args::warn(&w);
        }
    }
    match result {
        Ok(()) => code.unwrap_or(ExitCode::SUCCESS),
        // Ctrl-C is asked for, not a failure: said as a note is (what it kept, if
        // anything, is said before), with the interrupted exit code.
        Err(err) if stopped && !is_input_error(&err) => {
            // A command stopped after its tables were in place (`play`) kept them.
            match interrupt::committed() {
                true => to_stderr!("draftsim: stopped early; the tables written hold what was finished"),
                false => to_stderr!("draftsim: {err:#}"),
            }
            ExitCode::from(130)
        }
        Err(err) => {
            to_stderr!("error: {}", interrupt::as_out_folder(format!("{err:#}")));
            if is_input_error(&err) {
                ExitCode::from(2)
            } else if stopped {
                ExitCode::from(130)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// Ends on a command-line error in one line, as draftsim's own input errors are: clap's
/// message, its tip where it has one (a similar flag), and which help to read; exit code 2.
/// Help and version print as clap prints them.
fn exit_on_usage_error(e: clap::Error) -> ! {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        e.exit()
    }
    let text = e.render().to_string();
    if matches!(e.kind(), ErrorKind::ValueValidation | ErrorKind::InvalidValue) {
        // The message names the flag, and the fix unless clap lists the values it takes
        // (or a near one) on the lines below: those join it.
        let mut lines = text.lines().map(str::trim);
        let mut line = lines.next().unwrap_or("error: invalid value").to_string();
        for more in lines {
            if let Some(values) = more.strip_prefix("[possible values: ").and_then(|v| v.strip_suffix(']')) {
                line.push_str(&format!("; use one of {values}"));
            } else if let Some(tip) = more.strip_prefix("tip: ") {
                line.push_str(&format!(" ({tip})"));
            }
        }
        to_stderr!("{line}");
    } else {
        let line = elsewhere(&e).unwrap_or_else(|| one_line_usage_error(&text));
        // Coloured where clap would colour it: on a terminal or under CLICOLOR_FORCE,
        // never under NO_COLOR.
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
        let colour =
            !set("NO_COLOR") && (set("CLICOLOR_FORCE") || std::io::IsTerminal::is_terminal(&std::io::stderr()));
        match line.strip_prefix("error:") {
            Some(rest) if colour => to_stderr!("\x1b[1m\x1b[31merror:\x1b[0m{rest}"),
            _ => to_stderr!("{line}"),
        }
    }
    std::process::exit(2);
}

/// A flag another command takes, given to one that takes none: what to do instead, where
/// clap would offer only a flag near in spelling (`replay --rounds`: `--round`).
const ELSEWHERE: &[(&str, &[&str], &str)] = &[
    (
        "run",
        &["--strategies"],
        "run seats a lineup: list it with --seats A,B,... (compare plays --strategies in pairs)",
    ),
    ("compare", &["--seats"], "compare seats each pair of its strategies itself: list them with --strategies A,B,..."),
    (
        "ladder",
        &["--seats", "--strategies"],
        "ladder seats the search bot at each budget itself: give --budgets and --players",
    ),
    (
        "sensitivity",
        &["--set"],
        "sensitivity steps each key one step from the base itself: name the keys with --keys K1,K2 and the base with --rules or --players (sweep takes --set KEY=V1,V2)",
    ),
    (
        "replay",
        &["--rounds", "--units"],
        "replay tells one unit of a run: name it with --round N (the run's --rounds is not needed)",
    ),
    (
        "replay",
        &["--out", "--format", "--threads", "--quiet", "--force"],
        "replay prints one unit to the terminal and takes none of a long command's --out, --format, --threads, --quiet or --force: drop it",
    ),
];

/// [`ELSEWHERE`]'s line for an unknown flag, if the command and flag are there.
fn elsewhere(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    if e.kind() != clap::error::ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(given)) = e.get(ContextKind::InvalidArg) else { return None };
    let flag = given.split('=').next().unwrap_or(given);
    // The first word that is no flag names the command: draftsim takes no option before it
    // that takes a value.
    let command = std::env::args().skip(1).find(|a| !a.starts_with('-'))?;
    if flag == "--shard" {
        // Clap's near spelling here is --threads, which is no way to split the work (and
        // some of these take no --threads at all).
        let instead = match command.as_str() {
            "merge" => "merge joins the shards' --out folders: list them".to_string(),
            "calibrate" | "tune" | "exploit" | "train" | "exploitability" | "check" => {
                format!("{command} plays on one machine (--threads N uses its cores)")
            }
            _ => format!("{command} does not split its work"),
        };
        return Some(format!(
            "error: {command} takes no --shard: {instead}; run, versus, compare, sweep, ladder and sensitivity split into shards; see `draftsim {command} --help`"
        ));
    }
    let (_, _, fix) = ELSEWHERE.iter().find(|(c, flags, _)| *c == command && flags.contains(&flag))?;
    Some(format!("error: {command} takes no {flag}: {fix}; see `draftsim {command} --help`"))
}

/// Clap's rendered error as one line: the message, any tips, and the command whose help
/// lists the choices (read from the usage line).
fn one_line_usage_error(text: &str) -> String {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let mut out = lines.next().unwrap_or("error: bad command line").to_string();
    let mut command = "draftsim".to_string();
    // A message ending in a colon lists what it names on the lines that follow
    // (the missing arguments), up to the usage line.
    let mut listing = out.ends_with(':');
    let mut listed = Vec::new();
    for line in lines {
        if listing && !line.starts_with("Usage:") && !line.starts_with("tip:") {
            listed.push(line);
            continue;
        }
        if listing && !listed.is_empty() {
            out = format!("{out} {}", listed.join(", "));
        }
        listing = false;
        if let Some(usage) = line.strip_prefix("Usage:") {
            let words: Vec<&str> =
                usage.split_whitespace().skip(1).take_while(|w| !w.starts_with(['[', '<', '-'])).collect();
            command = std::iter::once("draftsim").chain(words).collect::<Vec<_>>().join(" ");
        } else if line.starts_with("tip:") {
            out = format!("{out} ({line})");
        }
    }
    if listing && !listed.is_empty() {
        out = format!("{out} {}", listed.join(", "));
    }
    format!("{out}; see `{command} --help`")
}

/// Whether an error is the user's bad input (exit code 2).
fn is_input_error(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<draftsim::InputError>().is_some()
            || e.downcast_ref::<draftsim::Error>().is_some_and(draftsim::Error::is_input)
    })
}
