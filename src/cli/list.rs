//! `draftsim list`: games, strategies and rules options.

use anyhow::Result;
use clap::{Args, Subcommand};
use draftsim::games::{self, GAMES};

/// Arguments of `draftsim list`.
#[derive(Args, Debug)]
pub struct ListArgs {
    #[command(subcommand)]
    what: What,
}

#[derive(Subcommand, Debug)]
enum What {
    /// The games.
    #[command(after_help = "Example:\n  draftsim list games")]
    Games,
    /// Strategy presets, with one line each.
    #[command(after_help = "Example:\n  draftsim list strategies --game sevens")]
    Strategies {
        /// Only this game's presets.
        #[arg(long)]
        game: Option<String>,
    },
    /// Every rules option of a game, with its default and meaning.
    #[command(after_help = "Example:\n  draftsim list rules seven-card-draft")]
    Rules {
        /// The game.
        game: String,
    },
}

/// Prints the list.
pub fn run(args: ListArgs) -> Result<()> {
    match args.what {
        What::Games => {
            for g in GAMES {
                println!("{:<20} {}", g.name, g.description);
            }
        }
        What::Strategies { game } => {
            let chosen: Vec<_> = match game {
                Some(name) => vec![games::find(&name)?],
                None => GAMES.iter().collect(),
            };
            for g in chosen {
                println!("{}:", g.name);
                for (name, description) in (g.presets)() {
                    println!("  {name:<18} {description}");
                }
            }
        }
        What::Rules { game } => {
            let g = games::find(&game)?;
            let defaults: toml::Table = toml::from_str(&(g.default_rules)()).unwrap_or_default();
            println!("{} rules (TOML keys; default in brackets):", g.name);
            for (key, meaning) in g.rules_help {
                let default = defaults.get(*key).map_or("unset".to_string(), |v| v.to_string());
                println!("  {key:<24} [{default}] {meaning}");
            }
        }
    }
    Ok(())
}
