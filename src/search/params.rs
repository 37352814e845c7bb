//! The search bot's parameters, read from a preset, and strategies that may be either a
//! heuristic preset or the search bot.

use serde::{Deserialize, Serialize};

use crate::error::InputError;
use crate::games::presets;

/// The `module` value that marks a search preset.
pub const SEARCH_MODULE: &str = "search";

/// A search preset's TOML.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchToml {
    description: String,
    module: String,
    iterations: u32,
    #[serde(default = "default_exploration")]
    exploration: f64,
    rollout: String,
    #[serde(default)]
    horizon: u32,
    #[serde(default)]
    opponents: Opponents,
    #[serde(default = "one_world")]
    worlds: u32,
    #[serde(default)]
    searches: Searches,
    #[serde(default)]
    margin: f64,
    #[serde(default)]
    depth: u32,
    #[serde(default)]
    particles: u32,
    #[serde(default = "default_mismatch")]
    mismatch: f64,
    #[serde(default)]
    models: Vec<String>,
    #[serde(default)]
    menu: u32,
}

fn default_exploration() -> f64 {
    DEFAULT_EXPLORATION
}

/// The UCB constant unless a preset sets `exploration`: results are scaled to 0..1 in
/// every game, so one value fits all.
pub const DEFAULT_EXPLORATION: f64 = 0.7;

fn default_mismatch() -> f64 {
    DEFAULT_MISMATCH
}

/// The floor of a seen move's chance under the rollout policy unless a preset sets
/// `mismatch`: never zero, so a table that plays unlike the policy still leaves worlds to
/// draw.
pub const DEFAULT_MISMATCH: f64 = 0.05;

fn one_world() -> u32 {
    1
}

/// Most candidate worlds one iteration may draw.
pub const MAX_WORLDS: u32 = 1024;

/// Most worlds one decision may weigh.
pub const MAX_PARTICLES: u32 = 65_536;

/// Most players the other seats may be modelled as besides the rollout policy (with it,
/// a seat's model fits in four bits).
pub const MAX_MODELS: usize = 7;

/// How the search plays the other seats' decisions inside its tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Opponents {
    /// As tree nodes chosen by UCB on their own results (single-observer ISMCTS): cheap
    /// and rules-only, but an opponent's choice there does not depend on its own cards.
    #[default]
    Search,
    /// By the rollout policy, which sees the opponent's cards in the sampled world: a
    /// preset's raise then says what a preset's raise says.
    Rollout,
}

/// Which decisions the search bot searches; the rollout policy makes the others, in its
/// tree as at its own turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Searches {
    /// Every decision.
    #[default]
    All,
    /// The betting decisions only ([`crate::search::Forward::is_bet`]): a preset that
    /// computes its trades or picks exactly plays them, and the search spends its
    /// iterations where the bets are.
    Bets,
    /// Every decision but the bets, which the rollout policy makes (a trained policy's
    /// betting with the search's picks).
    Others,
}

/// How the search bot searches.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Iterations (determinized simulations) per decision.
    pub iterations: u32,
    /// The UCB exploration constant (0 = greedy on the mean).
    pub exploration: f64,
    /// The rollout policy's name: `random` (uniform over legal moves) or a preset.
    pub rollout: String,
    /// Moves a rollout plays before it stops and estimates (0 = play to the end).
    pub horizon: u32,
    /// How the other seats decide inside the tree.
    pub opponents: Opponents,
    /// Candidate worlds each iteration draws, keeping one in proportion to how likely the
    /// other seats' seen moves were in it under the rollout policy (1 = every world as
    /// likely as any other).
    pub worlds: u32,
    /// Which decisions it searches.
    pub searches: Searches,
    /// By how much more (on the search's result scale, 0 worst to 1 best) the most visited
    /// move's mean result must beat the rollout policy's own move, tried at least once,
    /// for the search to play it; 0 always plays the most visited move, 1 always the
    /// policy's. Above 0 the search is the rollout policy corrected where it is sure enough.
    pub margin: f64,
    /// Decisions an iteration takes by the tree before the rollout policy plays every seat
    /// to the end (0 = no limit; 1 = the root only: each move of this decision judged by
    /// the rollout policy playing on, a one-step improvement of that policy).
    pub depth: u32,
    /// Worlds drawn and weighed once a decision, each iteration playing one of them in
    /// proportion to its weight (0 = none: `worlds` fresh candidates every iteration).
    /// Weighing once lets far more candidates be drawn for the same time.
    pub particles: u32,
    /// The weight a seen move keeps in a world where the rollout policy would never make
    /// it: a world's weight multiplies, per seen move, `mismatch + (1 - mismatch) * p`,
    /// with `p` the policy's chance of the move. Lower trusts the model more.
    pub mismatch: f64,
    /// Players each other seat may be besides the rollout policy: every weighed world
    /// draws each other seat's player from these and the rollout policy alike, and is
    /// weighed by that player's chance of the seat's seen moves, so the worlds kept say
    /// which player each seat most likely is too; in the world, that seat plays as it.
    pub models: Vec<String>,
    /// At its own decisions in the tree, the most moves the search weighs: the ones the
    /// game's own judgement rates best ([`super::Forward::narrow`]; 0 = every legal move).
    /// It shows how much of the search's play lies beyond a few candidate moves.
    pub menu: u32,
}

/// What the search bot's rollouts (and, with `opponents = "rollout"` or `worlds`, its model
/// of the other seats) play.
#[derive(Clone, Debug, PartialEq)]
pub enum Rollout<P> {
    /// Uniformly random legal moves.
    Random,
    /// A heuristic preset.
    Preset(P),
    /// A trained policy, with the preset its header names for decisions it has no
    /// probabilities for.
    Policy(std::sync::Arc<crate::solver::policy::Policy>, Option<P>),
}

/// A seat's strategy: a preset of the game's modules, the search bot with its rollout
/// policy, a trained policy, or a seat decided outside.
#[derive(Clone, Debug, PartialEq)]
pub enum Strategy<P> {
    /// A heuristic preset.
    Heuristic(P),
    /// The search bot, its rollout policy and the other players it may model a seat as.
    Search(SearchParams, Rollout<P>, Vec<Rollout<P>>),
    /// A trained policy (the `cfr` module): each information set's move probabilities,
    /// with the preset its header names for the decisions it has no probabilities for.
    Policy(std::sync::Arc<crate::solver::policy::Policy>, Option<P>),
    /// A seat decided outside the process: an external bot (`ext{cmd="..."}`) or the
    /// human seat of `draftsim play` (`you`), with the game's `search` preset, which gives
    /// its hints.
    Outside(std::sync::Arc<crate::outside::OutsideSpec>, Option<Box<Strategy<P>>>),
}

/// The `module` value that marks a trained-policy preset.
pub const POLICY_MODULE: &str = "cfr";

/// A trained-policy preset's TOML.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PolicyToml {
    description: String,
    module: String,
    /// The folder `draftsim train --out` wrote (or its policy.json).
    policy: String,
}

/// The `module` a preset's TOML text names, if any.
fn module_of(text: &str) -> Option<String> {
    toml::from_str::<toml::Table>(text).ok()?.get("module")?.as_str().map(str::to_string)
}

/// Whether a preset's TOML text is a trained-policy preset (played from its probabilities).
pub fn is_policy(text: &str) -> bool {
    module_of(text).as_deref() == Some(POLICY_MODULE)
}

/// Whether a preset's TOML text is a search preset.
pub fn is_search(text: &str) -> bool {
    toml::from_str::<toml::Table>(text)
        .ok()
        .and_then(|t| t.get("module").and_then(|m| m.as_str().map(|m| m == SEARCH_MODULE)))
        .unwrap_or(false)
}

impl SearchParams {
    /// Parses and checks a search preset; the rollout name is checked by [`load_strategy`].
    pub fn from_toml(text: &str) -> Result<SearchParams, InputError> {
        let t: SearchToml = presets::parse_toml(text)?;
        if t.iterations == 0 {
            return Err(InputError::new("iterations = 0: give at least 1 iteration per decision (e.g. 1000)"));
        }
        if !(t.exploration.is_finite() && t.exploration >= 0.0) {
            return Err(InputError::new(format!(
                "exploration = {}: use a number of 0 or more (0.7 is a good start)",
                t.exploration
            )));
        }
        if !(1..=MAX_WORLDS).contains(&t.worlds) {
            return Err(InputError::new(format!(
                "worlds = {}: give 1 (worlds as likely as each other) up to {MAX_WORLDS} candidate worlds an iteration (e.g. 16)",
                t.worlds
            )));
        }
        if !(t.margin.is_finite() && (0.0..=1.0).contains(&t.margin)) {
            return Err(InputError::new(format!(
                "margin = {}: use a number from 0 (always the most visited move) to 1 (always the rollout policy's move), e.g. 0.01",
                t.margin
            )));
        }
        if t.particles > MAX_PARTICLES {
            return Err(InputError::new(format!(
                "particles = {}: give 0 (worlds weighed every iteration) up to {MAX_PARTICLES} worlds weighed once a decision (e.g. 4096)",
                t.particles
            )));
        }
        if t.particles > 0 && t.worlds > 1 {
            return Err(InputError::new(format!(
                "particles = {}: worlds weighed once a decision replace the worlds = {} weighed every iteration; set worlds = 1, or particles = 0",
                t.particles, t.worlds
            )));
        }
        if !(t.mismatch.is_finite() && t.mismatch > 0.0 && t.mismatch <= 1.0) {
            return Err(InputError::new(format!(
                "mismatch = {}: use a number above 0 and at most 1 (1 weighs every world alike), e.g. 0.05",
                t.mismatch
            )));
        }
        if t.rollout == "random" {
            // Every key that needs moves of the rollout policy's own, named at once: a
            // preset that sets several (`search{rollout=random}`) is mended in one go.
            let mut clash: Vec<(String, &str)> = Vec::new();
            if t.worlds > 1 {
                clash.push((format!("worlds = {}", t.worlds), "worlds = 1"));
            }
            if t.searches != Searches::All {
                let searched = if t.searches == Searches::Bets { "bets" } else { "others" };
                clash.push((format!("searches = \"{searched}\""), "searches = \"all\""));
            }
            if t.particles > 0 {
                clash.push((format!("particles = {}", t.particles), "particles = 0"));
            }
            if t.margin > 0.0 {
                clash.push((format!("margin = {}", t.margin), "margin = 0"));
            }
            if !clash.is_empty() {
                let (keys, fixes): (Vec<String>, Vec<&str>) = clash.into_iter().unzip();
                return Err(InputError::new(format!(
                    "{} with rollout = \"random\": these weigh worlds by the rollout policy's moves or keep its moves, and a random rollout has none of its own; set {}, or name one of the game's presets or trained policies as rollout (`draftsim list strategies`)",
                    keys.join(", "),
                    fixes.join(", ")
                )));
            }
        }
        if !t.models.is_empty() && t.particles == 0 {
            return Err(InputError::new(
                "models: a seat's player is drawn with each world weighed once a decision; set particles (e.g. particles = 4096), or remove models",
            ));
        }
        if t.models.len() > MAX_MODELS {
            return Err(InputError::new(format!(
                "models: {} players given; name at most {MAX_MODELS} besides the rollout policy",
                t.models.len()
            )));
        }
        if t.models.iter().any(|m| m == "random") {
            return Err(InputError::new(
                "models: \"random\" makes every seen move as likely and tells no world apart; name heuristic presets or trained policies of the game (`draftsim list strategies`)",
            ));
        }
        Ok(SearchParams {
            iterations: t.iterations,
            exploration: t.exploration,
            rollout: t.rollout,
            horizon: t.horizon,
            opponents: t.opponents,
            worlds: t.worlds,
            searches: t.searches,
            margin: t.margin,
            depth: t.depth,
            particles: t.particles,
            mismatch: t.mismatch,
            models: t.models,
            menu: t.menu,
        })
    }
}

/// The policy a trained-policy preset's TOML `text` (of `name_or_path`) plays, checked to
/// be `game`'s.
pub fn read_policy(text: &str, name_or_path: &str, game: &str) -> Result<crate::solver::policy::Policy, InputError> {
    let t: PolicyToml = presets::parse_toml(text).map_err(|e| presets::in_strategy(e, name_or_path, game))?;
    let policy = crate::solver::policy::Policy::open(&t.policy).map_err(|e| e.context(name_or_path))?;
    if policy.header.game != game {
        return Err(InputError::new(format!(
            "{name_or_path}: the policy was trained for {}, not {game}; train one with `draftsim train --game {game}`",
            policy.header.game
        )));
    }
    Ok(policy)
}

/// A strategy by name, file or derived preset (see [`presets::load`]): a search preset
/// (`module = "search"`) becomes [`Strategy::Search`] with its rollout preset loaded from
/// the same game, anything else is parsed by `parse`.
pub fn load_strategy<P>(
    presets_list: &[(&str, &str)],
    name_or_path: &str,
    game: &str,
    parse: fn(&str) -> Result<P, InputError>,
) -> Result<Strategy<P>, InputError> {
    if let Some(spec) = crate::outside::parse_seat(name_or_path)? {
        // A hint is what the game's `search` preset would play, not a search of its own;
        // a person hinted by a trained policy gets the policy, whose fallback preset hints
        // at the decisions it has no key for.
        let adviser = match &spec {
            crate::outside::OutsideSpec::Human(_) => crate::outside::terminal::policy_hint(),
            _ => None,
        };
        let hint = load_strategy(presets_list, adviser.as_deref().unwrap_or("search"), game, parse).ok().map(Box::new);
        return Ok(Strategy::Outside(std::sync::Arc::new(spec), hint));
    }
    let text = presets::preset_text(presets_list, name_or_path, game)?;
    if module_of(&text).as_deref() == Some(POLICY_MODULE) {
        let (policy, fallback) = load_policy(presets_list, &text, name_or_path, game, parse)?;
        return Ok(Strategy::Policy(policy, fallback));
    }
    if !is_search(&text) {
        return (parse(&text).map(Strategy::Heuristic))
            .map_err(|e| presets::in_strategy(presets::below_zero(&text, e, parse), name_or_path, game));
    }
    let params = SearchParams::from_toml(&text).map_err(|e| {
        presets::in_strategy(presets::below_zero(&text, e, SearchParams::from_toml), name_or_path, game)
    })?;
    let load = |name: &str, key: &str| -> Result<Rollout<P>, InputError> {
        Ok(match name {
            "random" => Rollout::Random,
            name => {
                let context = format!("{name_or_path}: {key}");
                let text = presets::preset_text(presets_list, name, game).map_err(|e| e.context(&context))?;
                if is_search(&text) {
                    return Err(InputError::new(format!(
                        "{name_or_path}: {key} = \"{name}\" is a search preset; use \"random\", a heuristic preset or a trained policy of {game}"
                    )));
                }
                if is_policy(&text) {
                    let (policy, fallback) =
                        load_policy(presets_list, &text, name, game, parse).map_err(|e| e.context(&context))?;
                    Rollout::Policy(policy, fallback)
                } else {
                    Rollout::Preset(parse(&text).map_err(|e| e.context(&context))?)
                }
            }
        })
    };
    let rollout = load(&params.rollout, "rollout")?;
    let models = params.models.iter().map(|m| load(m, "models")).collect::<Result<Vec<_>, _>>()?;
    Ok(Strategy::Search(params, rollout, models))
}

/// A trained-policy preset's policy (its TOML `text`, of `name_or_path`) and the fallback
/// preset its header names.
fn load_policy<P>(
    presets_list: &[(&str, &str)],
    text: &str,
    name_or_path: &str,
    game: &str,
    parse: fn(&str) -> Result<P, InputError>,
) -> Result<(std::sync::Arc<crate::solver::policy::Policy>, Option<P>), InputError> {
    let policy = read_policy(text, name_or_path, game)?;
    let fallback = match policy.header.fallback.as_deref() {
        None => None,
        Some(name) => {
            let text = match &policy.header.fallback_toml {
                Some(text) => text.clone(),
                None => presets::preset_text(presets_list, name, game)
                    .map_err(|e| e.context(format!("{name_or_path}: fallback")))?,
            };
            if is_search(&text) || is_policy(&text) {
                return Err(InputError::new(format!(
                    "{name_or_path}: the policy's fallback \"{name}\" is not a heuristic preset of {game}; train it again with --fallback NAME"
                )));
            }
            Some(parse(&text).map_err(|e| e.context(format!("{name_or_path}: fallback")))?)
        }
    };
    Ok((std::sync::Arc::new(policy), fallback))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(extra: &str) -> Result<SearchParams, InputError> {
        SearchParams::from_toml(&format!(
            "description = \"x\"\nmodule = \"search\"\niterations = 100\nexploration = 0.7\n{extra}"
        ))
    }

    #[test]
    fn the_belief_and_policy_keys_default_off_and_refuse_what_cannot_work() {
        let p = parse("rollout = \"tight\"").unwrap();
        assert_eq!((p.margin, p.depth, p.particles, p.mismatch, p.menu), (0.0, 0, 0, DEFAULT_MISMATCH, 0));
        assert_eq!(parse("rollout = \"random\"\nmenu = 3").unwrap().menu, 3);
        let p = parse("rollout = \"tight\"\nparticles = 4096\ndepth = 1\nmismatch = 0.001\nmargin = 0.01").unwrap();
        assert_eq!((p.margin, p.depth, p.particles, p.mismatch), (0.01, 1, 4096, 0.001));
        // A random rollout has no move of its own to keep, nor a model to weigh by.
        for (extra, field) in [
            ("rollout = \"random\"\nmargin = 0.01", "margin"),
            ("rollout = \"random\"\nparticles = 64", "particles"),
            ("rollout = \"tight\"\nparticles = 64\nworlds = 16", "particles"),
            ("rollout = \"tight\"\nparticles = 70000", "particles"),
            ("rollout = \"tight\"\nmismatch = 0", "mismatch"),
            ("rollout = \"tight\"\nmodels = [\"exact\"]", "models"),
            ("rollout = \"tight\"\nparticles = 64\nmodels = [\"random\"]", "models"),
            (
                "rollout = \"tight\"\nparticles = 64\nmodels = [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\"]",
                "models",
            ),
            ("rollout = \"tight\"\nmargin = 2", "margin"),
        ] {
            let e = parse(extra).unwrap_err().to_string();
            assert!(e.starts_with(field), "{extra}: {e}");
        }
        // A preset may leave the UCB constant out.
        let bare = "description = \"x\"\nmodule = \"search\"\niterations = 100\nrollout = \"random\"";
        assert_eq!(SearchParams::from_toml(bare).unwrap().exploration, DEFAULT_EXPLORATION);
        // Depth alone is flat Monte Carlo under any rollout.
        assert_eq!(parse("rollout = \"random\"\ndepth = 1").unwrap().depth, 1);
        // Every key a random rollout cannot serve is named in one line, with every fix.
        let e = parse("rollout = \"random\"\nsearches = \"bets\"\nparticles = 1024").unwrap_err().to_string();
        assert!(e.starts_with("searches = \"bets\", particles = 1024 with rollout = \"random\""), "{e}");
        assert!(e.contains("set searches = \"all\", particles = 0,"), "{e}");
    }
}
