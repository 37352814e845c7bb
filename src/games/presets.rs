//! What every game's presets and rules files share: TOML parsed with one-line errors, and
//! strategies found by preset name or by file path.

use serde::de::DeserializeOwned;

use crate::error::{Fault, InputError};

/// The presets of a game, embedded in the binary from `strategies/<dir>/<name>.toml`:
/// `embedded_presets!("sevens": "random", "tight")` is the `PRESETS` list of (name, TOML).
#[macro_export]
macro_rules! embedded_presets {
    ($dir:literal: $($name:literal),+ $(,)?) => {
        &[$(($name, include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/strategies/", $dir, "/", $name, ".toml")))),+]
    };
}

/// Parses TOML into `T`; a failure is one line naming the line, the table and the key
/// (unknown keys, bad values).
pub fn parse_toml<T: DeserializeOwned>(text: &str) -> Result<T, InputError> {
    toml::from_str::<T>(text)
        .map_err(|e| InputError::new(first_unknown::<T>(text).unwrap_or_else(|| toml_error(text, &e))))
}

/// Of several unknown keys, the one on the earliest line: the parser meets a table's keys
/// in sorted order, not the file's. Each unknown key's line is blanked in turn (line
/// numbers kept) until another error, or none, is left.
fn first_unknown<T: DeserializeOwned>(text: &str) -> Option<String> {
    let mut lines: Vec<&str> = text.lines().collect();
    let mut first: Option<(usize, String)> = None;
    for _ in 0..16 {
        let current = lines.join("\n");
        let Err(e) = toml::from_str::<T>(&current) else { break };
        if !e.message().starts_with("unknown field `") {
            break;
        }
        let said = toml_error(&current, &e);
        // A key found before stays found where a later error names no line.
        let Some(line) = said.strip_prefix("line ").and_then(|r| r.split([',', ':']).next()?.parse::<usize>().ok())
        else {
            break;
        };
        if line == 0 || lines.get(line - 1).is_none_or(|l| l.trim_start().starts_with('[')) {
            break;
        }
        if first.as_ref().is_none_or(|(at, _)| line < *at) {
            first = Some((line, said));
        }
        lines[line - 1] = "";
    }
    first.map(|(_, said)| said)
}

/// A parser error as one line: where (the line, and the `[table]` it is in) and what.
fn toml_error(text: &str, e: &toml::de::Error) -> String {
    let what = in_words(&one_line(e.message()));
    let Some(span) = e.span() else { return what };
    let mut line = text[..span.start.min(text.len())].matches('\n').count() + 1;
    // A list left open runs on into the next lines, and the parser stops at one of those:
    // the place to mend is the line that opened it.
    if let Some(open) = unclosed_list(text, line) {
        let at = text.lines().nth(open - 1).unwrap_or_default();
        let key = at.split_once('=').map_or("", |(k, _)| k.trim());
        // The table: the last header line before it, its comment left out.
        let table = (text.lines().take(open))
            .map(|l| l.split('#').next().unwrap_or_default().trim())
            .filter(|l| l.starts_with('[') && l.ends_with(']') && !l.contains('=') && !l.contains(','))
            .last();
        let key = match table {
            Some(t) => format!("{}.{key}", t.trim_matches(['[', ']'])),
            None => key.to_string(),
        };
        return format!("line {open}, {key}: the list opened here is not closed; end it with `]`");
    }
    // A table read through a tagged enum (a preset's `[bet]`) is reported at its header,
    // its keys' places lost: find the unknown key's own line inside that table.
    let unknown = e.message().strip_prefix("unknown field `").and_then(|r| r.split('`').next());
    if let Some(field) = unknown.filter(|_| text.lines().nth(line - 1).is_some_and(|l| l.trim_start().starts_with('[')))
    {
        let mut inside = text.lines().enumerate().skip(line).take_while(|(_, l)| !l.trim_start().starts_with('['));
        if let Some((i, _)) = inside.find(|(_, l)| l.split_once('=').is_some_and(|(k, _)| k.trim() == field)) {
            line = i + 1;
        }
    }
    let table = text.lines().take(line).filter(|l| l.trim_start().starts_with('[')).last().map(str::trim);
    let at = text.lines().nth(line - 1).unwrap_or_default().trim();
    // The key the line sets, under its table (`bet.fold_below`); at a table's own line (an
    // unknown field is reported there), the table.
    let key = at.split_once('=').map(|(k, _)| k.trim()).filter(|k| !k.is_empty() && !at.starts_with('['));
    // `key =` with nothing after it: the parser asks for quotes, but a value is missing.
    let bare = at.split_once('=').is_some_and(|(_, v)| v.split('#').next().unwrap_or_default().trim().is_empty());
    let what = if key.is_some() && bare { "no value after `=`: give one or drop the line".to_string() } else { what };
    match (key, table) {
        (Some(key), Some(table)) => format!("line {line}, {}.{key}: {what}", table.trim_matches(['[', ']'])),
        (Some(key), None) => format!("line {line}, {key}: {what}"),
        (None, Some(table)) => format!("line {line}, in {table}: {what}"),
        (None, None) => format!("line {line}: {what}"),
    }
}

/// The line (from 1) of a `key = [` whose list is never closed, where the parser stopped at
/// or after it (at line `line`): brackets counted outside strings (quotes kept across lines
/// for a multi-line string, escapes skipped) and comments, over the whole text, so a list
/// closed later is not blamed for a mistake inside it.
fn unclosed_list(text: &str, line: usize) -> Option<usize> {
    let (mut depth, mut opened) = (0i32, None);
    // The string open: its quote, and whether it is a multi-line one (three quotes).
    let mut quoted: Option<(char, bool)> = None;
    for (i, l) in text.lines().enumerate() {
        // A header (`[bet]`, `[[cards]]`) starts a line outside any list or string.
        let header = depth == 0 && quoted.is_none() && l.trim_start().starts_with('[');
        let chars: Vec<char> = l.chars().collect();
        let mut k = 0;
        while k < chars.len() {
            let c = chars[k];
            let triple = |q: char| chars.get(k..k + 3).is_some_and(|w| w.iter().all(|&x| x == q));
            match quoted {
                Some(('"', _)) if c == '\\' => k += 1,
                Some((q, true)) if c == q && triple(q) => {
                    quoted = None;
                    k += 2;
                }
                Some((q, false)) if c == q => quoted = None,
                Some(_) => {}
                None if c == '"' || c == '\'' => {
                    let multi = triple(c);
                    quoted = Some((c, multi));
                    if multi {
                        k += 2;
                    }
                }
                None if c == '#' => break,
                None if c == '[' && !header => {
                    if depth == 0 {
                        opened = Some(i + 1);
                    }
                    depth += 1;
                }
                None if c == ']' && !header && depth > 0 => depth -= 1,
                None => {}
            }
            k += 1;
        }
        // A one-line string left open ends with its line (the parser says so itself).
        if matches!(quoted, Some((_, false))) {
            quoted = None;
        }
    }
    opened.filter(|&at| depth > 0 && at <= line)
}

/// An error without its leading `line N` (of a text draftsim wrote, not the user's file).
pub(crate) fn without_line(message: &str) -> String {
    let Some(rest) = message.strip_prefix("line ") else { return message.to_string() };
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    rest.strip_prefix(", ").or_else(|| rest.strip_prefix(": ")).unwrap_or(rest).to_string()
}

/// What [`in_words`] says of a value none of a key's forms takes (a rules file adds where
/// its values are listed).
pub(crate) const NOT_A_VALUE: &str = "not a value this key takes";

/// A parser message in a user's words: the number a field takes instead of Rust's type
/// name, and for an unknown field the known one it most resembles.
fn in_words(what: &str) -> String {
    // Each type, in words, and the whole numbers it holds (none for a real number).
    type Holds = Option<(i64, i64)>;
    const TYPES: [(&str, &str, Holds); 9] = [
        ("u8", "a whole number of 0 or more", Some((0, u8::MAX as i64))),
        ("u16", "a whole number of 0 or more", Some((0, u16::MAX as i64))),
        ("u32", "a whole number of 0 or more", Some((0, u32::MAX as i64))),
        ("u64", "a whole number of 0 or more", Some((0, i64::MAX))),
        ("usize", "a whole number of 0 or more", Some((0, i64::MAX))),
        ("i32", "a whole number", Some((i32::MIN as i64, i32::MAX as i64))),
        ("i64", "a whole number", Some((i64::MIN, i64::MAX))),
        ("f32", "a number", None),
        ("f64", "a number", None),
    ];
    if let Some((head, ty)) = what.rsplit_once(", expected ")
        && let Some(&(_, words, whole)) = TYPES.iter().find(|(t, ..)| *t == ty)
    {
        // A number in quotes is text to the parser: where the same text unquoted is a value
        // the key's type holds, only the quotes are wrong. (A value given on the command
        // line is quoted only where it is no TOML number, so this never blames it.)
        let quoted = head.strip_prefix("invalid type: string \"").and_then(|r| r.strip_suffix('"'));
        let unquoted = |n: &str| toml::from_str::<toml::Table>(&format!("x = {n}")).ok()?.remove("x");
        let holds = |v: toml::Value| match (v, whole) {
            (toml::Value::Integer(i), Some((lo, hi))) => lo <= i && i <= hi,
            (toml::Value::Integer(_) | toml::Value::Float(_), None) => true,
            _ => false,
        };
        if let Some(n) = quoted.filter(|n| unquoted(n).is_some_and(holds)) {
            return format!("{head}; write {n} without quotes");
        }
        // "Of 0 or more" answers a value below zero only: a key may refuse 0 as well.
        let words =
            if head.starts_with("invalid value: integer `-") { words } else { words.trim_end_matches(" of 0 or more") };
        return format!("{head}; give {words}");
    }
    // Shapes the parser names in its own terms.
    const SHAPES: [(&str, &str); 3] = [
        (", expected a boolean", "give true or false"),
        (", expected a sequence", "give a list in brackets ([x, y])"),
        (", expected a string", "give a value in quotes"),
    ];
    if let Some((shape, words)) = SHAPES.iter().find(|(s, _)| what.ends_with(s)) {
        return format!("{}; {words}", &what[..what.len() - shape.len()]);
    }
    if what.starts_with("wanted string or table") || what.starts_with("data did not match any variant") {
        return NOT_A_VALUE.into();
    }
    // A key given to a module that takes none (`weight` for `greedy`'s drafting): another
    // module of the section may take it.
    if let Some(name) = what.strip_prefix("unknown field `").and_then(|r| r.strip_suffix("`, there are no fields")) {
        return format!(
            "unknown field `{name}`: the module set here takes no parameters; another may (set its `module` too: the game's page in docs/games lists each module's)"
        );
    }
    // An unknown key or value ("unknown field `x`, expected one of `a`, `b`", "unknown
    // variant `x`, expected `a` or `b`"): the near names first.
    for kind in ["field", "variant"] {
        if let Some(rest) = what.strip_prefix(&format!("unknown {kind} `"))
            && let Some((name, expected)) = rest.split_once("`, expected ")
        {
            let known = expected.strip_prefix("one of ").unwrap_or(expected);
            let names = known.split(", ").flat_map(|k| k.split(" or ")).map(|k| k.trim_matches('`'));
            let close: Vec<String> = closest(name, names).iter().map(|k| format!("`{k}`")).collect();
            if !close.is_empty() {
                return format!("unknown {kind} `{name}`: did you mean {}? (expected {expected})", close.join(" or "));
            }
        }
    }
    what.to_string()
}

/// The names of `names` a typo away from `name`, closest first, at most two: what a "did
/// you mean" offers. A typo is at most two edits leaving two of the typed letters, or
/// three with the first two letters right (`tite` is two from `hate` and three from
/// `tight`), and fewer than the name's length. Without one, the names that begin with
/// `name`, if one or two do (`loose` for `loose-aggressive`).
pub(crate) fn closest<'a>(name: &str, names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let names: Vec<&str> = names.into_iter().collect();
    let typed = name.chars().count();
    let prefix: String = name.chars().take(2).collect();
    let typo = |d: usize, n: &str| {
        d < n.len() && ((d <= 2 && d + 2 <= typed) || (d == 3 && typed >= 4 && n.starts_with(&prefix)))
    };
    let mut close: Vec<(usize, &str)> =
        names.iter().map(|&n| (strsim::levenshtein(name, n), n)).filter(|&(d, n)| typo(d, n)).collect();
    close.sort();
    if close.is_empty() && typed >= 3 {
        let begins: Vec<&str> = names.iter().copied().filter(|n| n.starts_with(name)).collect();
        return if begins.len() <= 2 { begins } else { Vec::new() };
    }
    close.into_iter().take(2).map(|(_, n)| n).collect()
}

/// " (did you mean 'x'?)" for the one or two of `names` that `name` is a typo of, or
/// nothing.
pub fn suggestion<'a>(name: &str, names: impl IntoIterator<Item = &'a str>) -> String {
    did_you_mean(&closest(name, names), "'")
}

/// " (did you mean 'a'?)", " (did you mean 'a' or 'b'?)", or nothing, each name within
/// `quote`s.
pub(crate) fn did_you_mean(close: &[&str], quote: &str) -> String {
    if close.is_empty() {
        return String::new();
    }
    let names: Vec<String> = close.iter().map(|n| format!("{quote}{n}{quote}")).collect();
    format!(" (did you mean {}?)", names.join(" or "))
}

/// Collapses a multi-line parser message into one line.
fn one_line(text: &str) -> String {
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('|')).collect::<Vec<_>>().join(" ")
}

/// A strategy by preset name (from `presets`, embedded TOML) or by path to a TOML file,
/// parsed with `parse`; an unknown name lists the presets of `game`. A derived preset is
/// written `BASE{PATH=VALUE;...}` (see [`derived`]), its parameters set over the base's.
pub fn load<T>(
    presets: &[(&str, &str)],
    name_or_path: &str,
    game: &str,
    parse: fn(&str) -> Result<T, InputError>,
) -> Result<T, InputError> {
    let text = preset_text(presets, name_or_path, game)?;
    parse(&text).map_err(|e| in_strategy(below_zero(&text, e, parse), name_or_path, game))
}

/// A value given below zero is refused by its type as "a whole number of 0 or more";
/// where the key refuses 0 as well (a search's `iterations`, Sevens' `raise_cap`), the
/// refusal of 0 by `parse` (the same parse and checks) says what the key takes instead.
pub(crate) fn below_zero<T>(text: &str, e: InputError, parse: impl Fn(&str) -> Result<T, InputError>) -> InputError {
    /// Sets the first integer below zero to 0; returns its dotted path.
    fn zero_first_negative(table: &mut toml::Table) -> Option<String> {
        for (key, value) in table.iter_mut() {
            match value {
                toml::Value::Integer(i) if *i < 0 => {
                    *i = 0;
                    return Some(key.clone());
                }
                toml::Value::Table(inner) => {
                    if let Some(path) = zero_first_negative(inner) {
                        return Some(format!("{key}.{path}"));
                    }
                }
                _ => {}
            }
        }
        None
    }
    let message = e.to_string();
    let Some(head) = message.strip_suffix("give a whole number of 0 or more") else { return e };
    let Ok(mut table) = toml::from_str::<toml::Table>(text) else { return e };
    let Some(path) = zero_first_negative(&mut table) else { return e };
    let Ok(at_zero) = toml::to_string(&table) else { return e };
    let Err(refusal) = parse(&at_zero) else { return e };
    let refusal = refusal.to_string();
    // The check names the key by its path or by its last name.
    let last = path.rsplit('.').next().unwrap_or(&path);
    for key in [path.as_str(), last] {
        // The check speaks of the 0 tried in the user's place: what stays is what the key takes.
        if let Some(takes) = refusal.strip_prefix(&format!("{key} = 0: ")) {
            return InputError::new(format!("{head}{takes}"));
        }
        if refusal.starts_with(&format!("{key} ")) {
            return InputError::new(format!("{head}{refusal}"));
        }
    }
    e
}

/// The game a strategy file is kept for, where it lies in another game's folder of
/// `strategies/` (a Sevens preset given to a Seven Card Draft run).
fn other_games_preset(path: &str, game: &str) -> Option<String> {
    let dir = std::path::Path::new(path).parent()?;
    let folder = dir.file_name()?.to_str()?;
    let a_game = super::GAMES.iter().any(|g| g.name == folder);
    (dir.parent()?.file_name()? == "strategies" && a_game && folder != game).then(|| folder.to_string())
}

/// The games whose heuristic presets `path`, a file `game` could not read, is one of
/// ("seven-card-draft", or "kuhn-poker or leduc-poker"), if any: a preset saved from one
/// game and seated in another.
fn games_that_read(path: &str, game: &str) -> Option<String> {
    thread_local! {
        // Another game's parser may fail too and land here: it is not asked again.
        static PROBING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    if derived(path).is_some() || !std::path::Path::new(path).is_file() || PROBING.get() {
        return None;
    }
    PROBING.set(true);
    let others: Vec<&str> =
        super::GAMES.iter().filter(|g| g.name != game && (g.preset_in_full)(path).is_ok()).map(|g| g.name).collect();
    PROBING.set(false);
    (!others.is_empty()).then(|| others.join(" or "))
}

/// A strategy's parse error with the strategy named in front; a derived preset's without
/// the line, which is a line of the TOML built from the overrides, not one the user wrote.
pub fn in_strategy(e: InputError, name_or_path: &str, game: &str) -> InputError {
    if let Some(other) = other_games_preset(name_or_path, game).or_else(|| games_that_read(name_or_path, game)) {
        return InputError::new(format!(
            "{name_or_path}: a strategy of {other}, not of {game} ({e}); give --game {other}, or a {game} strategy (`draftsim list strategies --game {game}`)"
        ));
    }
    match derived(name_or_path) {
        Some(_) => InputError::new(without_line(&e.to_string())).context(name_or_path),
        None => e.context(name_or_path),
    }
}

/// The TOML text of a preset name, preset file or derived preset.
pub fn preset_text(presets: &[(&str, &str)], name_or_path: &str, game: &str) -> Result<String, InputError> {
    if let Some((base, overrides)) = derived(name_or_path) {
        check_separators(name_or_path, base, overrides)?;
        let text = preset_text(presets, base, game)?;
        let mut table: toml::Table = toml::from_str(&text).map_err(|e| InputError::new(toml_error(&text, &e)))?;
        let mut set: Vec<String> = Vec::new();
        for item in split_top(overrides, ';') {
            let (path, value) = item.split_once('=').ok_or_else(|| {
                InputError::new(format!(
                    "strategy '{name_or_path}': write BASE{{PATH=VALUE;...}}, e.g. hate{{draft.weight=0.5}}"
                ))
            })?;
            // A key set twice would have its last value win unseen.
            if set.iter().any(|p| p == path.trim()) {
                return Err(InputError::new(format!(
                    "strategy '{name_or_path}': {} is set twice; give each key once",
                    path.trim()
                )));
            }
            set.push(path.trim().to_string());
            // A key of a section written bare (`weight` for `draft.weight`) would be refused
            // as an unknown field of the whole preset: name the section it belongs to.
            let path = path.trim();
            if !path.contains(['.', '[']) && !table.contains_key(path) {
                let sections: Vec<&String> = table
                    .iter()
                    .filter(|(_, v)| v.as_table().is_some_and(|t| t.contains_key(path)))
                    .map(|(k, _)| k)
                    .collect();
                if !sections.is_empty() {
                    let full: Vec<String> =
                        sections.iter().map(|k| format!("{base}{{{k}.{path}={}}}", value.trim())).collect();
                    return Err(InputError::new(format!(
                        "strategy '{name_or_path}': {path} is a key of [{}]: write {}",
                        sections.iter().map(|k| k.as_str()).collect::<Vec<_>>().join("] and ["),
                        full.join(" or ")
                    )));
                }
            }
            set_path(&mut table, path, toml_value(value.trim()))
                .map_err(|e| e.context(format!("strategy '{name_or_path}'")))?;
        }
        return Ok(toml::to_string(&table).expect("a TOML table prints"));
    }
    if let Some((_, text)) = presets.iter().find(|(n, _)| *n == name_or_path) {
        return Ok(text.to_string());
    }
    let path = std::path::Path::new(name_or_path);
    if path.join("policy.json").is_file() {
        return Err(InputError::new(format!(
            "strategy '{name_or_path}' is a trained policy's folder: seat it as 'cfr{{policy=\"{name_or_path}\"}}'"
        ))
        .about(Fault::UnknownStrategy));
    }
    if path.extension().is_some_and(|e| e == "toml") || path.exists() {
        return std::fs::read_to_string(path).map_err(|e| {
            let fault = match e.kind() {
                std::io::ErrorKind::NotFound => Fault::UnknownStrategy,
                _ => Fault::Other,
            };
            let why = crate::error::unreadable(&e);
            InputError::new(format!(
                "strategy file {name_or_path}: {why}; give a path to a .toml file or a preset name (`draftsim list strategies --game {game}`)"
            ))
            .about(fault)
        });
    }
    // A bracket left open swallows the rest of the list into one name.
    let open = |o: char, c: char| name_or_path.matches(o).count() != name_or_path.matches(c).count();
    if open('{', '}') || open('[', ']') {
        return Err(InputError::new(format!(
            "strategy '{name_or_path}': a bracket is not closed; write BASE{{PATH=VALUE;...}}, e.g. hate{{bet.fold_below=[0.7,0.6,0.3]}}"
        ))
        .about(Fault::UnknownStrategy));
    }
    let names: Vec<&str> = presets.iter().map(|(n, _)| *n).collect();
    let close = did_you_mean(&closest(name_or_path, names.iter().copied()), "'");
    Err(InputError::new(format!(
        "unknown strategy '{name_or_path}' for {game}{close}: use one of {} or a path to a .toml file",
        names.join(", ")
    ))
    .about(Fault::UnknownStrategy))
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

/// The lineup entries in play: the given seats (a field when there are more or fewer than
/// players, see [`crate::sim::field`]), or the default mix for the rules' player count.
pub fn seats_or_mix(seats: Option<&[String]>, mix: &[&str], players: usize) -> Vec<String> {
    seats.map_or_else(|| mix_seats(mix, players), |s| crate::sim::field(s, players))
}

/// The player count asked for: `--players`, else the rules file's `players` where it sets
/// one (more or fewer seats are then a field), else one per `--seats` entry.
pub fn players_asked(players: Option<usize>, rules_text: Option<&str>, seats: Option<&[String]>) -> Option<usize> {
    let in_rules = || {
        let table: toml::Table = toml::from_str(rules_text?).ok()?;
        usize::try_from(table.get("players")?.as_integer()?).ok()
    };
    players.or_else(in_rules).or(seats.map(<[String]>::len))
}

/// One (name, preset) per lineup entry, checking the entries seat `players` players: one
/// per seat, or a field in which each strategy gets an equal share of the seats.
pub fn lineup<P>(
    seats: &[String],
    players: usize,
    load: fn(&str) -> Result<P, InputError>,
) -> Result<Vec<(String, P)>, InputError> {
    if seats.is_empty() {
        return Err(InputError::new("--seats: no strategy given; give one per seat, e.g. --seats greedy,random"));
    }
    if seats.len() != players {
        crate::sim::Seatings::new(&crate::sim::Lineup::new(seats), players, true)?;
    }
    seats.iter().map(|s| Ok((s.clone(), load(s)?))).collect()
}

/// Splits a derived preset's name `BASE{OVERRIDES}` into its base and overrides.
pub fn derived(name: &str) -> Option<(&str, &str)> {
    let inner = name.strip_suffix('}')?;
    let open = inner.find('{')?;
    Some((&inner[..open], &inner[open + 1..]))
}

/// Refuses the settings inside a seat's braces separated by `,` (which separates seats):
/// `search{iterations=3, worlds=1}` would read `3, worlds=1` as one value.
pub fn check_separators(name: &str, base: &str, inner: &str) -> Result<(), InputError> {
    // Single quotes and escapes are not read apart here: nothing is refused that holds them.
    if inner.contains(['\'', '\\']) {
        return Ok(());
    }
    let items = split_top(inner, ';');
    let pieces: Vec<Vec<String>> = items.iter().map(|item| split_top(item, ',')).collect();
    if !pieces.iter().any(|p| p.iter().skip(1).any(|piece| piece.contains('='))) {
        return Ok(());
    }
    let fixed: Vec<String> = pieces.concat();
    Err(InputError::new(format!(
        "strategy '{name}': separate the settings inside braces with `;`, not `,` (which separates seats): {base}{{{}}}",
        fixed.join(";")
    )))
}

/// The derived preset `base` with `overrides` (PATH, VALUE) set, as a seat name. A base
/// that is itself derived (`hate{draft.weight=0.5}`) keeps its own settings in one pair of
/// braces, each replaced by an override of the same path.
pub fn derived_name(base: &str, overrides: &[(String, String)]) -> String {
    if overrides.is_empty() {
        return base.to_string();
    }
    let (base, mut items) = match derived(base) {
        Some((b, inner)) => {
            let kept = split_top(inner, ';').into_iter().filter(|item| {
                let path = item.split_once('=').map_or(item.as_str(), |(p, _)| p.trim());
                !overrides.iter().any(|(p, _)| p == path)
            });
            (b, kept.collect::<Vec<_>>())
        }
        None => (base, Vec::new()),
    };
    items.extend(overrides.iter().map(|(p, v)| format!("{p}={v}")));
    format!("{base}{{{}}}", items.join(";"))
}

/// Splits `text` at `sep` outside brackets, braces and double quotes (so TOML lists,
/// derived presets and an external bot's command stay whole); pieces are trimmed and empty ones dropped.
pub fn split_top(text: &str, sep: char) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut cur, mut quoted) = (0i32, String::new(), false);
    for ch in text.chars() {
        match ch {
            '"' => quoted = !quoted,
            _ if quoted => {}
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    out.push(cur);
    out.into_iter().map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).collect()
}

/// Joins again the pieces of a comma-separated list that clap split inside brackets or
/// braces (`hate{bet.fold_below=[0.7,0.6,0.3]},random` is two strategies, not four).
pub fn rejoin(pieces: &[String]) -> Vec<String> {
    one_name_a_file(split_top(&pieces.join(","), ','))
}

/// A preset file named by several paths (`mine.toml`, `./mine.toml`) is one strategy, not
/// one a path: a later path to the file an earlier one names takes its text. Only what reads
/// as a path (a folder in it, or `.toml` at its end) is a file here: a preset's name stays
/// the preset, whatever file the folder holds under that name.
fn one_name_a_file(mut specs: Vec<String>) -> Vec<String> {
    let path_like = |s: &str| s.contains('/') || s.contains(std::path::MAIN_SEPARATOR) || s.ends_with(".toml");
    let files: Vec<Option<std::path::PathBuf>> = (specs.iter())
        .map(|s| if derived(s).is_some() || !path_like(s) { None } else { std::fs::canonicalize(s).ok() })
        .collect();
    for i in 0..specs.len() {
        if let Some(j) = (0..i).find(|&j| files[j].is_some() && files[j] == files[i]) {
            specs[i] = specs[j].clone();
        }
    }
    specs
}

/// Each key two rules texts set to different values, in key order: (key, A's value, B's
/// value), a value `unset` where that side leaves the key out.
pub fn differing_keys(a: &str, b: &str) -> Vec<(String, String, String)> {
    let (a, b): (toml::Table, toml::Table) =
        (toml::from_str(a).unwrap_or_default(), toml::from_str(b).unwrap_or_default());
    let shown = |v: Option<&toml::Value>| v.map_or_else(|| "unset".to_string(), ToString::to_string);
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter().filter(|k| a.get(*k) != b.get(*k)).map(|k| (k.clone(), shown(a.get(k)), shown(b.get(k)))).collect()
}

/// A value from the command line as TOML: a number, boolean or list when it parses as one,
/// otherwise a string.
pub fn toml_value(text: &str) -> toml::Value {
    toml::from_str::<toml::Table>(&format!("v = {text}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(text.to_string()))
}

/// Sets `path` (dot-separated keys, the last may end in `[i]` for a list element) in
/// `table`, creating tables on the way; the preset's own parser then checks the result.
pub fn set_path(table: &mut toml::Table, path: &str, value: toml::Value) -> Result<(), InputError> {
    let bad = |why: &str| InputError::new(format!("{path}: {why}"));
    let mut keys: Vec<&str> = path.split('.').collect();
    let last = keys.pop().filter(|k| !k.is_empty()).ok_or_else(|| bad("give a key, e.g. draft.weight"))?;
    let mut at = table;
    for key in keys {
        let entry = at.entry(key.to_string()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
        at = entry.as_table_mut().ok_or_else(|| bad(&format!("'{key}' is not a table")))?;
    }
    match last.strip_suffix(']').and_then(|k| k.split_once('[')) {
        Some((key, index)) => {
            let i: usize = index.parse().map_err(|_| bad("write a list element as key[i], e.g. fold_below[0]"))?;
            // A key the preset does not write has no element to set: a typo is offered the
            // preset's near names, and a key left at its default is to be given whole.
            if !at.contains_key(key) {
                let close = closest(key, at.keys().map(String::as_str));
                return Err(match close.is_empty() {
                    true => bad(&format!(
                        "the preset does not set {key}, so it has no element {i}: give the whole list, e.g. {key}=[...]"
                    )),
                    false => bad(&format!("the preset sets no {key}{}", did_you_mean(&close, "`"))),
                });
            }
            let list = at
                .get_mut(key)
                .and_then(toml::Value::as_array_mut)
                .ok_or_else(|| bad(&format!("{key} is not a list")))?;
            let len = list.len();
            let slot = list.get_mut(i).ok_or_else(|| bad(&format!("index {i} is past the list's {len} elements")))?;
            *slot = value;
        }
        None => {
            at.insert(last.to_string(), value);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_key_or_value_is_offered_its_near_names() {
        assert_eq!(
            in_words("unknown variant `any_turn`, expected `first-turn` or `any-turn`"),
            "unknown variant `any_turn`: did you mean `any-turn`? (expected `first-turn` or `any-turn`)"
        );
        assert_eq!(
            in_words("unknown field `weight`, there are no fields"),
            "unknown field `weight`: the module set here takes no parameters; another may (set its `module` too: the game's page in docs/games lists each module's)"
        );
        assert_eq!(
            in_words("unknown field `wieght`, expected one of `weight`, `p`, `rank`"),
            "unknown field `wieght`: did you mean `weight`? (expected one of `weight`, `p`, `rank`)"
        );
        let far = "unknown variant `carry`, expected `split` or `house`";
        assert_eq!(in_words(far), far);
    }

    /// A list left open is told at the line that opened it, not where the parser gave up.
    #[test]
    fn an_unclosed_list_is_told_where_it_opens() {
        let said = |text: &str| toml_error(text, &toml::from_str::<toml::Table>(text).unwrap_err());
        let text = "description = \"x # [\"\n[bet]\nmodule = \"t\"  # a [\nfold_below = [0.5, 0.45, 0.42\nraise_above = [0.6]\n";
        assert_eq!(said(text), "line 4, bet.fold_below: the list opened here is not closed; end it with `]`");
        assert_eq!(
            said("players = [4\nante = 1\n"),
            "line 1, players: the list opened here is not closed; end it with `]`"
        );
        // A list closed on a later line is no error; a mistake after it, or inside it, is
        // told where it is.
        let text = "a = [1,\n  2]\nb = [3 4]\n";
        assert!(said(text).starts_with("line 3, b: "), "{}", said(text));
        let text = "players = [3,\n  4 5,\n]\n";
        assert!(!said(text).contains("not closed"), "{}", said(text));
        // A header's comment, a nested list's line, a multi-line string and an escaped
        // quote holding brackets: none is taken for a list or a table.
        let text = "s = \"\"\"\n[x = \"\"\"\nq = \"say \\\"hi [there\\\"\"\n[bet] # betting\nm = [[1, 2],\n  [3, 4]]\nf = [0.5, 0.4\ng = 1\n";
        assert_eq!(said(text), "line 7, bet.f: the list opened here is not closed; end it with `]`");
    }

    #[test]
    fn a_sections_key_written_bare_is_told_its_section() {
        let hate = "description = \"x\"\n[draft]\nmodule = \"hate\"\nweight = 0.1\n[bet]\nmodule = \"threshold\"\n";
        let presets = [("hate", hate)];
        let e = preset_text(&presets, "hate{weight=0.5}", "g").unwrap_err().to_string();
        assert_eq!(e, "strategy 'hate{weight=0.5}': weight is a key of [draft]: write hate{draft.weight=0.5}");
        let e = preset_text(&presets, "hate{module=greedy}", "g").unwrap_err().to_string();
        assert!(e.contains("hate{draft.module=greedy}") && e.contains("hate{bet.module=greedy}"), "{e}");
        assert!(preset_text(&presets, "hate{draft.weight=0.5;description=y}", "g").is_ok());
    }

    #[test]
    fn a_typo_is_offered_the_nearest_names_with_a_longer_one_when_it_starts_alike() {
        let names = ["greedy", "hate", "tight", "bluffer", "random", "cfr"];
        assert_eq!(closest("tite", names), ["hate", "tight"]);
        assert_eq!(closest("hat", names), ["hate"]);
        // Two edits of three letters leave too little of them: no typo of `hate`.
        assert!(closest("bat", names).is_empty());
        assert!(closest("cat", names).is_empty());
        assert!(closest("xyz", names).is_empty());
        // A name's beginning is offered where no typo is, if it begins at most two names.
        assert_eq!(closest("blu", names), ["bluffer"]);
        assert_eq!(closest("raise", ["raise_size", "raise_cap", "ante"]), ["raise_size", "raise_cap"]);
        assert!(closest("r", names).is_empty());
        assert_eq!(did_you_mean(&closest("tite", names), "'"), " (did you mean 'hate' or 'tight'?)");
        assert_eq!(did_you_mean(&[], "'"), "");
    }

    /// An unknown key in a table read through a tagged enum is placed on its own line, not
    /// the table's header.
    #[test]
    fn an_unknown_key_of_a_tagged_table_is_named_at_its_line() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Preset {
            bet: Bet,
        }
        #[derive(Debug, serde::Deserialize)]
        #[serde(tag = "module", deny_unknown_fields)]
        #[allow(dead_code)]
        enum Bet {
            Threshold { raise_above: f32 },
        }
        let text = "[bet]\nmodule = \"Threshold\"\n\nraise_abov = 1.5\n";
        let e = parse_toml::<Preset>(text).unwrap_err().to_string();
        assert!(e.starts_with("line 4, bet.raise_abov: unknown field `raise_abov`"), "{e}");
    }

    /// A key with nothing after its `=` is told its value is missing, not to quote it.
    #[test]
    fn a_key_without_a_value_is_told_so() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Rules {
            games: u32,
        }
        for text in ["games = \n", "\ngames =   # best of 3\n"] {
            let e = parse_toml::<Rules>(text).unwrap_err().to_string();
            assert!(e.contains("games: no value after `=`: give one or drop the line"), "{text:?}: {e}");
        }
        let e = parse_toml::<Rules>("games = abc\n").unwrap_err().to_string();
        assert!(e.contains("quoted"), "{e}");
    }

    /// Rust's type names become the number a field takes, and a misspelt field is named.
    #[test]
    fn a_key_below_zero_that_refuses_zero_says_what_it_takes() {
        let e = || InputError::new("draft.depth: invalid value: integer `-2`; give a whole number of 0 or more");
        let refuses_zero = |t: &str| -> Result<(), InputError> {
            let table: toml::Table = toml::from_str(t).unwrap();
            match table["draft"]["depth"].as_integer() {
                Some(0) => Err(InputError::new("depth = 0: give 1 or more")),
                _ => Ok(()),
            }
        };
        let text = "module = \"x\"\n[draft]\ndepth = -2\n";
        assert_eq!(
            below_zero(text, e(), refuses_zero).to_string(),
            "draft.depth: invalid value: integer `-2`; give 1 or more"
        );
        // Where 0 is taken, the type's words stand.
        assert_eq!(below_zero(text, e(), |_| Ok(())).to_string(), e().to_string());
    }

    #[test]
    fn parser_messages_are_put_in_a_users_words() {
        assert_eq!(
            in_words("invalid value: integer `-5`, expected u32"),
            "invalid value: integer `-5`; give a whole number of 0 or more"
        );
        assert_eq!(
            in_words("invalid type: string \"abc\", expected f32"),
            "invalid type: string \"abc\"; give a number"
        );
        let unknown = "unknown field `iteration`, expected one of `module`, `iterations`, `exploration`";
        assert_eq!(
            in_words(unknown),
            "unknown field `iteration`: did you mean `iterations`? (expected one of `module`, `iterations`, `exploration`)"
        );
        let far = "unknown field `widht`, expected one of `module`, `iterations`";
        assert_eq!(in_words(far), far);
        assert_eq!(in_words("expected a table"), "expected a table");
    }

    #[test]
    fn derived_presets_set_paths_and_list_elements() {
        let presets = [("base", "description = \"b\"\n[bet]\nfold_below = [0.1, 0.2]\n")];
        let text = preset_text(&presets, "base{bet.fold_below[1]=0.5;draft.weight=2}", "g").unwrap();
        let t: toml::Table = toml::from_str(&text).unwrap();
        assert_eq!(t["bet"]["fold_below"][1].as_float(), Some(0.5));
        assert_eq!(t["draft"]["weight"].as_integer(), Some(2));
        assert!(preset_text(&presets, "base{bet.fold_below[5]=1}", "g").is_err());
        assert!(preset_text(&presets, "base{nonsense}", "g").is_err());
        // An element of a list the preset does not write: a typo is named as one.
        let e = preset_text(&presets, "base{bet.fold_blow[0]=0.3}", "g").unwrap_err().to_string();
        assert!(e.ends_with("bet.fold_blow[0]: the preset sets no fold_blow (did you mean `fold_below`?)"), "{e}");
        let e = preset_text(&presets, "base{bet.raise_at[0]=0.3}", "g").unwrap_err().to_string();
        assert!(e.ends_with("no element 0: give the whole list, e.g. raise_at=[...]"), "{e}");
        let e = preset_text(&presets, "base{description[0]=0.3}", "g").unwrap_err().to_string();
        assert!(e.ends_with("description[0]: description is not a list"), "{e}");
        // Settings separated as seats are: the fix is named; a list's commas are its own.
        let e = preset_text(&presets, "base{bet.fold_below[1]=0.5, draft.weight=2}", "g").unwrap_err().to_string();
        assert!(e.contains("with `;`, not `,`") && e.ends_with("base{bet.fold_below[1]=0.5;draft.weight=2}"), "{e}");
        assert!(preset_text(&presets, "base{bet.fold_below=[0.3, 0.4]}", "g").is_ok());
        assert_eq!(derived_name("hate", &[("draft.weight".into(), "0.5".into())]), "hate{draft.weight=0.5}");
        // A derived base keeps one pair of braces: its settings, each replaced by an
        // override of the same path.
        let on = |base: &str| derived_name(base, &[("bet.p".into(), "0.3".into()), ("policy".into(), "b".into())]);
        assert_eq!(on("hate{draft.weight=0.5}"), "hate{draft.weight=0.5;bet.p=0.3;policy=b}");
        assert_eq!(on("cfr{policy=\"a\"; bet.p = 1}"), "cfr{bet.p=0.3;policy=b}");
        let pieces: Vec<String> = ["hate{bet.x=[1", "2]}", "random"].iter().map(|s| s.to_string()).collect();
        assert_eq!(rejoin(&pieces), vec!["hate{bet.x=[1,2]}", "random"]);
        // One file by two paths is one strategy, named as first given.
        let dir = std::env::temp_dir().join(format!("draftsim-rejoin-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let file = dir.join("mine.toml");
        std::fs::write(&file, "module = \"random\"\n").unwrap();
        let (a, b) = (file.display().to_string(), dir.join("sub/../mine.toml").display().to_string());
        let pieces: Vec<String> = [a.as_str(), "random", b.as_str(), "mine.toml"].map(String::from).to_vec();
        assert_eq!(rejoin(&pieces), vec![a.clone(), "random".into(), a.clone(), "mine.toml".into()]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A parse error names the line and the key (or table) of a file, and for a derived
    /// preset the key alone (its TOML is built, not written).
    #[test]
    fn parse_errors_say_where_in_words_the_user_wrote() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Bet {
            p: f64,
        }
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct P {
            description: String,
            bet: Bet,
        }
        let parse = |t: &str| parse_toml::<P>(t);
        let presets = [("base", "description = \"b\"\n[bet]\np = 0.5\n")];
        let e = parse("description = \"b\"\n\n[bet]\np = 0.5\nq = 1\n").unwrap_err().to_string();
        assert!(e.starts_with("line 5, bet.q: unknown field `q`"), "{e}");
        assert!(!e.contains('|') && !e.contains("TOML parse error"), "{e}");
        let e = load(&presets, "base{bet.q=1}", "g", parse).unwrap_err().to_string();
        assert!(e.starts_with("base{bet.q=1}: bet.q: unknown field `q`"), "{e}");
        let e = load(&presets, "base{bet.p=\"x\"}", "g", parse).unwrap_err().to_string();
        assert!(e.starts_with("base{bet.p=\"x\"}: bet.p: invalid type"), "{e}");
        assert!(!e.contains("line"), "{e}");
        let e = parse("description = 1\n").unwrap_err().to_string();
        assert!(e.starts_with("line 1, description: invalid type"), "{e}");
    }
}
