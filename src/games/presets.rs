//! What every game's presets and rules files share: TOML parsed with one-line errors, and
//! strategies found by preset name or by file path.

use serde::de::DeserializeOwned;

use crate::error::InputError;

/// Parses TOML into `T`; a failure is one line naming the key (unknown keys, bad values).
pub fn parse_toml<T: DeserializeOwned>(text: &str) -> Result<T, InputError> {
    toml::from_str(text).map_err(|e| InputError::new(one_line(&e.to_string())))
}

/// Collapses a multi-line parser message into one line.
fn one_line(text: &str) -> String {
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('|')).collect::<Vec<_>>().join(" ")
}

/// A strategy by preset name (from `presets`, embedded TOML) or by path to a TOML file,
/// parsed with `parse`; an unknown name lists the presets of `game`.
pub fn load<T>(
    presets: &[(&str, &str)],
    name_or_path: &str,
    game: &str,
    parse: fn(&str) -> Result<T, InputError>,
) -> Result<T, InputError> {
    if let Some((_, text)) = presets.iter().find(|(n, _)| *n == name_or_path) {
        return parse(text).map_err(|e| e.context(format!("preset {name_or_path}")));
    }
    let path = std::path::Path::new(name_or_path);
    if path.extension().is_some_and(|e| e == "toml") || path.exists() {
        let text =
            std::fs::read_to_string(path).map_err(|e| InputError::new(format!("strategy file {name_or_path}: {e}")))?;
        return parse(&text).map_err(|e| e.context(name_or_path));
    }
    let names: Vec<&str> = presets.iter().map(|(n, _)| *n).collect();
    Err(InputError::new(format!(
        "unknown strategy '{name_or_path}' for {game}: use one of {} or a path to a .toml file",
        names.join(", ")
    )))
}

/// Each embedded preset's name with its `description` line, for `draftsim list strategies`.
pub fn listing(presets: &[(&str, &str)]) -> Vec<(String, String)> {
    presets
        .iter()
        .map(|(name, text)| {
            let table: toml::Table = toml::from_str(text).unwrap_or_default();
            let description = table.get("description").and_then(toml::Value::as_str).unwrap_or_default();
            (name.to_string(), description.to_string())
        })
        .collect()
}

/// The seats for `players` players: the game's default mix, repeated as needed.
pub fn mix_seats(mix: &[&str], players: usize) -> Vec<String> {
    mix.iter().cycle().take(players).map(|s| s.to_string()).collect()
}

/// The seats in play: the given ones, or the default mix for the rules' player count.
pub fn seats_or_mix(seats: Option<&[String]>, mix: &[&str], players: usize) -> Vec<String> {
    seats.map_or_else(|| mix_seats(mix, players), <[String]>::to_vec)
}

/// The player count a command line asks for: `--players`, else one per `--seats` entry.
pub fn players_asked(players: Option<usize>, seats: Option<&[String]>) -> Option<usize> {
    players.or(seats.map(<[String]>::len))
}

/// One (name, preset) per seat, checking there is one strategy per player.
pub fn lineup<P>(
    seats: &[String],
    players: usize,
    load: fn(&str) -> Result<P, InputError>,
) -> Result<Vec<(String, P)>, InputError> {
    if seats.len() != players {
        return Err(InputError::new(format!(
            "--seats: {} strategies given for {players} players; give one per seat (or set --players)",
            seats.len()
        )));
    }
    seats.iter().map(|s| Ok((s.clone(), load(s)?))).collect()
}
