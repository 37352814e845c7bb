//! `draftsim list`: games, strategies and rules options.

use anyhow::Result;
use clap::{Args, Subcommand};
use draftsim::games::{self, GAMES};

use super::args::{DEFAULT_GAME, Known, game_names};

/// Arguments of `draftsim list`.
#[derive(Args, Debug)]
pub struct ListArgs {
    /// Without one, the games and what else can be listed.
    #[command(subcommand)]
    what: Option<What>,
}

#[derive(Subcommand, Debug)]
enum What {
    /// The games.
    #[command(after_help = "Example:\n  draftsim list games")]
    Games,
    /// Strategy presets, with one line each: every game's, or one game's; `--show NAME`
    /// prints one preset's TOML, the start of a custom one.
    #[command(
        after_help = "Example:\n  draftsim list strategies sevens\n  draftsim list strategies --game sevens --show tight > my-tight.toml",
        mut_arg("game", |a| a.help("The game whose presets to list (see `draftsim list games`) [default: every game's]")),
    )]
    Strategies {
        #[command(flatten)]
        game: GameChoice,
        /// Print this preset's TOML (edit a copy and seat it by its path); without --game,
        /// seven-card-draft's.
        #[arg(long, value_name = "NAME")]
        show: Option<String>,
    },
    /// Every measure a game declares, with its table and description.
    #[command(after_help = "Example:\n  draftsim list metrics sevens", mut_arg("game", |a| a.help(GAME_OR_DEFAULT)))]
    Metrics {
        #[command(flatten)]
        game: GameChoice,
    },
    /// Every rules option of a game, with its default and meaning.
    #[command(after_help = "Example:\n  draftsim list rules seven-card-draft", mut_arg("game", |a| a.help(GAME_OR_DEFAULT)))]
    Rules {
        #[command(flatten)]
        game: GameChoice,
    },
    /// What a trained policy was trained for: its game, table, training and the rules it
    /// plays under; `--rules` prints those rules alone, a rules file to seat it with.
    #[command(
        after_help = "Example:\n  draftsim list policy strategies/sevens/cfr\n  draftsim list policy my-policy --rules > trained-rules.toml"
    )]
    Policy {
        /// The folder `draftsim train --out DIR` wrote (or its policy.json).
        #[arg(value_name = "DIR")]
        dir: String,
        /// Print only the rules it was trained under (TOML), to pass as --rules.
        #[arg(long)]
        rules: bool,
    },
}

/// `list metrics` and `list rules`'s game.
const GAME_OR_DEFAULT: &str =
    concat!("The game (see `draftsim list games`) [default: ", super::args::default_game!(), "]");

/// The game a list is about: named as every list names it, `list rules sevens`, or with
/// `--game sevens` as the commands that play take it.
#[derive(Args, Debug)]
struct GameChoice {
    /// The game (see `draftsim list games`).
    #[arg(value_name = "GAME", value_parser = Known(game_names), conflicts_with = "game_flag")]
    game: Option<String>,
    /// The game, as the commands that play take it.
    #[arg(long = "game", id = "game_flag", value_name = "GAME", value_parser = Known(game_names), hide_possible_values = true)]
    game_flag: Option<String>,
}

impl GameChoice {
    /// The game named, if one was.
    fn name(&self) -> Option<&str> {
        self.game.as_deref().or(self.game_flag.as_deref())
    }
}

/// Prints the list.
pub fn run(args: ListArgs) -> Result<()> {
    let Some(what) = args.what else {
        list_games();
        say!("\nMore: draftsim list strategies [GAME], list rules [GAME], list metrics [GAME], list policy DIR");
        return Ok(());
    };
    match what {
        What::Games => list_games(),
        What::Strategies { game, show: Some(preset) } => {
            // A derived preset (`tight{bet.bluff=0.2}`) is found by its base's name; a file
            // by the game named, or the default game.
            let base = preset.split('{').next().unwrap_or(&preset).trim().to_string();
            let path = base.contains('/') || base.ends_with(".toml");
            // The default game, as every command has, where it has the preset.
            let default_has =
                || path || games::find(DEFAULT_GAME).is_ok_and(|g| (g.presets)().iter().any(|(n, _)| *n == base));
            let name = game.name().or_else(|| default_has().then_some(DEFAULT_GAME)).ok_or_else(|| {
                // An example that works: a game with a preset of that name.
                match GAMES.iter().find(|g| (g.presets)().iter().any(|(n, _)| *n == base)) {
                    Some(having) => draftsim::InputError::new(format!(
                        "--show {preset}: name the game too, e.g. draftsim list strategies --game {} --show {preset}",
                        having.name
                    )),
                    None => {
                        let mut all: Vec<String> =
                            GAMES.iter().flat_map(|g| (g.presets)().into_iter().map(|(n, _)| n)).collect();
                        all.sort();
                        all.dedup();
                        let close = draftsim::games::presets::suggestion(&base, all.iter().map(String::as_str));
                        draftsim::InputError::new(format!(
                            "--show {preset}: no game has a preset of that name{close}; `draftsim list strategies` lists them"
                        ))
                    }
                }
            })?;
            let g = games::find(name)?;
            // Every parameter as the preset plays it, defaults included: the keys a preset
            // leaves out are those a player would not know to change.
            let in_full = (g.preset_in_full)(&preset).ok().and_then(|mut full| {
                full.remove("description");
                shortest_floats(&mut full);
                toml::to_string(&full).ok()
            });
            let text = match ((g.preset_text)(&preset), in_full) {
                // The search and trained policies have no such parameters.
                (Ok(text), None) => text,
                (Ok(text), Some(in_full)) => {
                    // A file shown before holds a list already: the new one replaces it.
                    let text = text.split("\n\n# Every parameter as ").next().unwrap_or(&text).to_string();
                    let commented: String = (in_full.lines())
                        .map(|l| if l.is_empty() { "#\n".to_string() } else { format!("# {l}\n") })
                        .collect();
                    format!(
                        "{}\n\n# Every parameter as {preset} plays it, defaults included; to change one, copy its line\n# under the same [section] above:\n{commented}",
                        text.trim_end()
                    )
                }
                // A derived preset or a file: as played, in full.
                (Err(_), Some(in_full)) => format!("# {preset}, every parameter as it plays\n{in_full}"),
                (Err(e), None) => return Err(e.into()),
            };
            // Shown only if a seat can play it (a derived preset's keys are checked then), at
            // the game's default table or heads-up, whichever a trained policy was made for.
            let players = (g.build)(None, None, None)?.0.players();
            let seated = |n: usize| (g.build)(None, Some(n), Some(&vec![preset.clone(); n])).map(|_| ());
            seated(players).or_else(|e| seated(2).map_err(|_| e))?;
            super::say_text(&text);
        }
        What::Strategies { game, show: None } => {
            let chosen: Vec<_> = match game.name() {
                Some(name) => vec![games::find(name)?],
                None => GAMES.iter().collect(),
            };
            for g in chosen {
                say!("{}:", g.name);
                let presets = (g.presets)();
                let width = presets.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
                for (name, description) in presets {
                    say!("  {name:<width$} {description}");
                }
            }
        }
        What::Metrics { game } => {
            let g = games::find(game.name().unwrap_or(DEFAULT_GAME))?;
            super::say_text(&metrics_text(g)?);
        }
        What::Rules { game } => {
            let g = games::find(game.name().unwrap_or(DEFAULT_GAME))?;
            let defaults: toml::Table = toml::from_str(&(g.default_rules)()).unwrap_or_default();
            say!("{} rules (TOML keys; default in brackets):", g.name);
            for (key, meaning) in g.rules_help {
                let default = defaults.get(*key).map_or("unset".to_string(), |v| v.to_string());
                say!("  {key:<24} [{default}] {meaning}");
            }
        }
        What::Policy { dir, rules } => {
            if dir.ends_with(".toml") && std::path::Path::new(&dir).is_file() {
                return Err(preset_not_policy(&dir).into());
            }
            if let Some(e) = preset_name_not_folder(&dir) {
                return Err(e.into());
            }
            let policy = draftsim::solver::policy::Policy::open(&dir)?;
            match rules {
                true => super::say_text(&policy.header.rules),
                false => super::say_text(&policy_text(&dir, &policy)?),
            }
        }
    }
    Ok(())
}

/// Every game with its one-line description.
fn list_games() {
    let width = GAMES.iter().map(|g| g.name.len()).max().unwrap_or(0);
    for g in GAMES {
        say!("{:<width$}  {}", g.name, g.description);
    }
}

/// The error for a preset's name (`cfr`) given where a policy folder goes and no folder
/// of that name is here: the shipped policies of that name, each game's, by their folders.
fn preset_name_not_folder(dir: &str) -> Option<draftsim::InputError> {
    if std::path::Path::new(dir).exists() || dir.contains('/') {
        return None;
    }
    let folders: Vec<&str> = draftsim::solver::policy::SHIPPED
        .iter()
        .map(|(folder, _)| *folder)
        .filter(|f| f.rsplit('/').next() == Some(dir))
        .collect();
    let first = folders.first()?;
    Some(draftsim::InputError::new(format!(
        "{dir} is a preset's name, not a policy folder: the shipped policies it names are {} (one a game); give one, e.g. `draftsim list policy {first}`",
        folders.join(", ")
    )))
}

/// The error for a preset file given where a policy folder goes: the policy it plays, if
/// it names one.
fn preset_not_policy(file: &str) -> draftsim::InputError {
    let named = std::fs::read_to_string(file)
        .ok()
        .and_then(|t| t.parse::<toml::Table>().ok())
        .and_then(|t| t.get("policy").and_then(|p| p.as_str().map(String::from)));
    draftsim::InputError::new(match named {
        Some(policy) => {
            format!("{file} is a preset; the policy it plays is {policy}: draftsim list policy {policy}")
        }
        None => {
            format!("{file} is a preset file, not a trained policy: give the folder `draftsim train --out DIR` wrote")
        }
    })
}

/// A policy's header in words: what it was trained for, how, how far from optimal, how to
/// seat it, and the rules it plays under.
fn policy_text(dir: &str, policy: &draftsim::solver::policy::Policy) -> Result<String> {
    let h = &policy.header;
    let g = games::find(&h.game)?;
    let thousands = |n: u64| draftsim::output::thousands(n as f64);
    let mut lines = vec![
        ("game", format!("{}, {} players", h.game, h.players)),
        (
            "trained",
            format!(
                "{}, {} iterations{}, {} information sets",
                h.algorithm,
                thousands(h.iterations),
                h.batch.map_or(String::new(), |b| format!(" in batches of {}", thousands(b))),
                thousands(policy.len() as u64)
            ),
        ),
        (
            "abstraction",
            match &h.fallback {
                Some(f) => format!("{}; {f} makes the decisions it leaves out", h.abstraction),
                None => h.abstraction.clone(),
            },
        ),
    ];
    if !h.field.is_empty() {
        let share = h.field_share.map_or(String::new(), |s| format!(" at {s} of the other seats"));
        lines.push(("field", format!("{}{share}", h.field.join(", "))));
    }
    // The game's defaults at the policy's table, to name the keys its rules change.
    let defaults = (g.build)(None, Some(h.players), None).map(|(r, _)| r.rules_toml())?;
    let changed: Vec<String> = draftsim::games::presets::differing_keys(&defaults, &h.rules)
        .into_iter()
        .filter(|(k, _, _)| k != "players")
        .map(|(k, default, trained)| format!("{k} = {trained} (default {default})"))
        .collect();
    let rules_flag = match changed.is_empty() {
        true => String::new(),
        false => " --rules FILE".to_string(),
    };
    let seat = super::args::shell_word(&format!("cfr{{policy=\"{dir}\"}}"));
    lines.push((
        "exploitability",
        match h.exploitability {
            Some(e) => format!("{e:.6} (exact)"),
            None => format!(
                "not measured exactly; bound it with `draftsim exploitability --game {} --players {}{rules_flag} --seats {seat}`",
                h.game, h.players
            ),
        },
    ));
    lines.push((
        "rules",
        match changed.is_empty() {
            // The table size is a rule too: the game's line gives it, and this repeats it
            // so that "defaults" is not read as the game's default table.
            true => format!("the game's defaults at {} players", h.players),
            false => changed.join("; "),
        },
    ));
    // Against its fallback preset where it has one, as an example of a table.
    let seats =
        super::args::shell_word(&format!("cfr{{policy=\"{dir}\"}},{}", h.fallback.as_deref().unwrap_or("random")));
    let command = format!("draftsim run --game {} --players {}{rules_flag} --seats {seats}", h.game, h.players);
    lines.push(("seat it", command));
    if !changed.is_empty() {
        lines.push(("", format!("FILE holding the rules below: draftsim list policy {dir} --rules > FILE")));
    }
    let width = lines.iter().map(|l| l.0.len()).max().unwrap_or(0);
    let mut out = format!("policy {dir}\n");
    for (label, text) in lines {
        out += &format!("  {label:<width$}  {text}\n");
    }
    out += "\nthe rules it was trained under:\n";
    out += &h.rules;
    Ok(out)
}

/// A game's measures under its default rules: one line each, `column  tables  description`.
pub fn metrics_text(g: &games::GameInfo) -> Result<String> {
    use draftsim::sim::{Kind, Shown};
    let (runner, _) = g.with_defaults()?;
    let m = runner.measures();
    let mut rows: Vec<(String, String, String)> = vec![
        ("wins".into(), "summary, seats".into(), format!("{} won outright, a whole number", m.units())),
        (
            "split_wins".into(),
            "summary, seats".into(),
            format!("{} whose win was shared with other seats (their shares count in win_rate)", m.units()),
        ),
        (
            "win_rate".into(),
            "summary, seats, measures".into(),
            format!(
                "win share per {} (split wins by share), 95% interval over deal groups, per strategy and per seat (Wilson over units under the small-sample rule)",
                m.unit
            ),
        ),
        (
            m.score.column.clone(),
            "summary, seats, measures".into(),
            format!(
                "{}, 95% interval over deal groups (t over units under the small-sample rule)",
                m.score.description
            ),
        ),
        (
            m.score.pair_column.clone(),
            "pairs".into(),
            "paired difference in score between two strategies on the same deals".into(),
        ),
    ];
    for x in &m.measures {
        let tables = match x.shown {
            Shown::Both => "summary, seats, measures",
            Shown::Summary => "summary, measures",
            Shown::Hidden => "measures",
        };
        let interval = match x.kind {
            Kind::Rate { .. } => "rate, 95% interval over deal groups (Wilson over units under the small-sample rule)",
            Kind::Mean { .. } => "mean, 95% interval over deal groups (t over units under the small-sample rule)",
            Kind::MeanPer { .. } => {
                "mean per count, 95% interval over deal groups (t over the units counted under the small-sample rule; none in game mode)"
            }
        };
        rows.push((x.column.clone(), tables.into(), format!("{} ({interval})", x.description)));
    }
    for h in &m.histograms {
        rows.push((h.key.clone(), h.table.clone(), format!("{} (count per {})", h.description, h.bin_column)));
    }
    rows.push((
        "mean_length".into(),
        "measures".into(),
        format!("{} (mean, t 95% interval over units; length_mean counts decisions)", m.length),
    ));
    // The health card's figures: metrics for tune and --require too.
    for (name, meaning) in draftsim::sim::figure_meanings(m, None) {
        let when = match name {
            "lead_changes" | "drama" if !runner.has_standing() => continue,
            "skill_gap" => " (with random seated)",
            _ => "",
        };
        rows.push((name.into(), "health".into(), format!("{meaning}{when}")));
    }
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let twidth = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    let mut out = format!("{} measures (one unit of play = one {}):\n", g.name, m.unit);
    for (c, t, d) in rows {
        out.push_str(&format!("  {c:<width$}  {t:<twidth$}  {d}\n"));
    }
    Ok(out)
}

/// Each real number held as a single-precision one (a preset's thresholds) written as the
/// shortest decimal that reads back to it, `0.56` rather than `0.5600000023841858`.
fn shortest_floats(table: &mut toml::Table) {
    fn walk(v: &mut toml::Value) {
        match v {
            toml::Value::Float(x) if f64::from(*x as f32) == *x => {
                *x = (*x as f32).to_string().parse().unwrap_or(*x);
            }
            toml::Value::Array(items) => items.iter_mut().for_each(walk),
            toml::Value::Table(t) => t.iter_mut().for_each(|(_, v)| walk(v)),
            _ => {}
        }
    }
    table.iter_mut().for_each(|(_, v)| walk(v));
}
