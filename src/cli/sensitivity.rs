//! `draftsim sensitivity`: the base rules and every one-step deviation, on common deals.

use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use draftsim::InputError;
use draftsim::games;
use draftsim::study::kind::{self, Kind};
use draftsim::study::sensitivity::{self, SensitivitySpec, SensitivityState};

use draftsim::output::{Format, OutputDir, signed};
use draftsim::sim::{CHUNK_DEALS, Lineup, Mode, Plan, Seatings};

use super::args::{BatchArgs, ExecArgs, GameArgs, QuietArg, seconds};
use super::interrupt::INTERRUPTED;
use super::study::{
    MergedTables, Merging, ShardArg, Study, StudyShard, play, state_file_for, write_shard, write_study,
};

/// Arguments of `draftsim sensitivity`.
#[derive(Args, Debug)]
pub struct SensitivityArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub batch: BatchArgs,
    /// Only these rules keys, comma-separated (default: every key the game steps; `draftsim
    /// list rules GAME` names them).
    #[arg(long, value_delimiter = ',')]
    pub keys: Vec<String>,
    #[command(flatten)]
    pub shard: ShardArg,
    /// A budget in seconds instead of --rounds: a short pilot of the base measures the
    /// speed, a few deals of each variant its cost beside the base, and the budget left
    /// sets the deals per variant (kept in the study's state, so a resumed study plays the
    /// same).
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true, conflicts_with = "rounds")]
    pub budget_time: Option<f64>,
}

/// Deals per variant that the study's variants can play in `seconds`, from a pilot of the
/// base (doubled until it runs half a second) on the study's seats, and a short run of every
/// variant for its cost beside the base's. The pilots' own time comes off the budget.
fn pilot_deals(
    info: &games::GameInfo,
    spec: &SensitivitySpec,
    seats: &[String],
    seconds: f64,
    exec: &ExecArgs,
) -> Result<u64> {
    let started = Instant::now();
    let (runner, seats) = (info.build)(spec.rules.as_deref(), spec.players, Some(seats))?;
    let lineup = Lineup::new(&seats);
    // Rounds per deal: the seatings a deal is played under.
    let per = Seatings::new(&lineup, runner.players(), true)?.len() as u64;
    let pool = exec.pool()?;
    let mut deals = CHUNK_DEALS;
    let elapsed = loop {
        let plan = Plan {
            seed: spec.seed ^ 0x9110,
            rounds: deals * per,
            rotate: true,
            shard: None,
            until_ci: None,
            cards: false,
            first_deal: 0,
        };
        let start = Instant::now();
        pool.install(|| runner.run(&lineup, &plan, Mode::DealGroups, None, &mut |_, _| Ok(())))?;
        let elapsed = start.elapsed().as_secs_f64();
        if elapsed >= 0.5 {
            break elapsed;
        }
        deals *= 2;
    };
    let per_second = deals as f64 / elapsed;
    // Each variant on the same few deals (about a twentieth of a second of the base's
    // play): its cost in deals of the base.
    let probe = ((per_second / 20.0) as u64).clamp(1, 4 * CHUNK_DEALS);
    let times = pool.install(|| sensitivity::time_variants(info, spec, probe, Some(&INTERRUPTED)))?;
    let played = times.iter().filter(|&&t| t > 0.0).count();
    let base_time = times[0].max(f64::MIN_POSITIVE);
    let cost: f64 = times.iter().map(|t| t / base_time).sum();
    let left = (seconds - started.elapsed().as_secs_f64()).max(0.0);
    let wanted = per_second * left / cost;
    // A budget past any machine's reach would overflow the rounds; refuse it in words.
    if wanted * per as f64 > 1e15 {
        return Err(InputError::new(format!(
            "--budget-time {seconds}: that budget would play {wanted:.0} deals a variant; give a budget of hours at most, or --rounds"
        ))
        .into());
    }
    let chosen = (wanted as u64).max(2);
    if left == 0.0 {
        super::args::warn(&format!(
            "--budget-time {seconds}: the pilots took {:.1} s of it, leaving the fewest deals a study plays (2 a variant); give a longer budget",
            started.elapsed().as_secs_f64()
        ));
    }
    exec.note(&format!(
        "--budget-time {seconds}s: {per_second:.0} deals/s in a pilot of the base, and the {played} variants played cost {cost:.1} bases, so {chosen} deals ({} rounds) for each",
        chosen * per
    ));
    Ok(chosen)
}

/// Plays the sensitivity study.
pub fn sensitivity(args: SensitivityArgs) -> Result<()> {
    let info = args.game.game.info()?;
    let rules = args.game.game.rules_text()?;
    let rounds = args.batch.rounds.get(20_000)?;
    let mut spec = SensitivitySpec {
        rules,
        keys: args.keys.clone(),
        players: args.game.players.players,
        seats: args.game.seats.list(),
        deals: 0,
        seed: args.batch.seed.seed,
    };
    // The rules file as written first, so an error names its own line; then the base as
    // every variant plays it: bad rules or seats are refused before anything plays.
    if spec.rules.is_some() {
        args.game.game.build(info, spec.rules.as_deref(), spec.players, None)?;
    }
    let (base_text, players, seats) = sensitivity::base(info, &spec)?;
    let (base, _) = args.game.game.build(info, Some(&base_text), None, Some(&seats))?;
    let per = Seatings::new(&Lineup::new(&seats), players, true)?.len() as u64;
    spec.deals = draftsim::sim::deals_for(rounds, per);
    // An effect is a paired difference over deal groups: one group gives no interval, so a
    // study of one would find nothing and seem to say the variant is robust.
    if args.budget_time.is_none() && spec.deals < 2 {
        return Err(InputError::new(format!(
            "--rounds {rounds}: that is one deal a variant ({per} seatings a deal at {players} players), and an effect's interval needs two; use --rounds {} or more",
            2 * per
        ))
        .into());
    }
    let list = sensitivity::deviations(info, &spec)?;
    let shard = args.shard.get(&args.batch.output)?;
    if shard.is_some() && args.budget_time.is_some() {
        return Err(
            InputError::new("--budget-time: every shard must play the same deals; give --rounds with --shard").into()
        );
    }
    let (format, out) = args.batch.output.open()?;
    let state_path = args.batch.output.out.as_deref().map(|o| state_file_for("sensitivity", o));
    let fingerprint_of = |spec: &SensitivitySpec| {
        serde_json::to_string(&(info.name, spec, shard, env!("CARGO_PKG_VERSION"))).expect("a spec prints")
    };
    let saved: Option<SensitivityState> = state_path
        .as_ref()
        .and_then(|path| std::fs::read_to_string(path).ok())
        .map(|text| serde_json::from_str(&text).unwrap_or_default());
    if let Some(seconds) = args.budget_time {
        // A resumed study plays the deals it started with; a new one times a pilot.
        match saved
            .as_ref()
            .filter(|s| s.fingerprint == fingerprint_of(&SensitivitySpec { deals: s.deals, ..spec.clone() }))
        {
            Some(s) => spec.deals = s.deals,
            None => spec.deals = pilot_deals(info, &spec, &seats, seconds, &args.batch.exec)?,
        }
    }
    let rounds = if args.budget_time.is_some() { spec.deals * per } else { rounds };
    args.batch.exec.note(&format!(
        "{} · {players} players · seats {} · seed {} · {} deals per variant, {} deviation{}",
        info.name,
        spec.seats.clone().unwrap_or_else(|| draftsim::sim::listed(&seats, players)).join(","),
        spec.seed,
        spec.deals,
        list.len(),
        if list.len() == 1 { "" } else { "s" }
    ));
    let fingerprint = fingerprint_of(&spec);
    let mut state =
        SensitivityState { fingerprint: fingerprint.clone(), deals: spec.deals, ..SensitivityState::default() };
    if let (Some(path), Some(saved)) = (&state_path, saved) {
        match saved {
            saved if saved.fingerprint == fingerprint => {
                args.batch.exec.note(&format!(
                    "resuming the study in {} ({} of {} deviations done)",
                    path.display(),
                    saved.deviations.len(),
                    list.len()
                ));
                state = saved;
            }
            _ if args.batch.output.force => {}
            _ => {
                // Only the deals differ: another --rounds, or a budget the pilot sized.
                let why = if saved.fingerprint
                    == fingerprint_of(&SensitivitySpec { deals: saved.deals, ..spec.clone() })
                {
                    format!(
                        "it plays {} deals a variant, this command {}; give the --rounds or --budget-time it was started with",
                        saved.deals, spec.deals
                    )
                } else {
                    // The fingerprint is the settings as JSON: the first that differs is named,
                    // the deals aside (a budget sizes them anew once another setting differs).
                    let parse = |f: &str| serde_json::from_str::<serde_json::Value>(f).ok();
                    let same_deals = fingerprint_of(&SensitivitySpec { deals: saved.deals, ..spec.clone() });
                    match (parse(&saved.fingerprint), parse(&same_deals)) {
                        (Some(was), Some(now)) => {
                            let differs = ["game", "settings", "shard", "version"]
                                .iter()
                                .enumerate()
                                .find(|(i, _)| was[*i] != now[*i])
                                .map(|(i, name)| match *name {
                                    "settings" => super::merge::first_difference(&was[i], &now[i])
                                        .map_or("settings".to_string(), |k| format!("--{}", k.replace('_', "-"))),
                                    other => other.to_string(),
                                });
                            format!("its {} differs", differs.unwrap_or_else(|| "state".into()))
                        }
                        _ => "a state that cannot be read".to_string(),
                    }
                };
                return Err(InputError::new(format!(
                    "{}: a different study's state is there ({why}); pass --force to start afresh",
                    path.display()
                ))
                .into());
            }
        }
    }
    let mut save = |s: &SensitivityState| -> Result<(), draftsim::Error> {
        if let Some(path) = &state_path {
            let text = serde_json::to_string(s).map_err(|e| draftsim::Error::Invariant(e.to_string()))?;
            super::study::save_state(path, &text, "sensitivity")?;
        }
        Ok(())
    };
    let result = play(&args.batch.exec, |step| {
        sensitivity::run(info, &spec, shard, &mut state, Some(&INTERRUPTED), &mut save, step)
    });
    if result.is_err() && INTERRUPTED.load(Ordering::SeqCst) {
        // Said even with --quiet: it is what the interruption leaves behind.
        match &state_path {
            Some(path) if path.exists() => to_stderr!(
                "draftsim: {} deviation{} saved in {}; the same command resumes the study",
                state.deviations.len(),
                if state.deviations.len() == 1 { " is" } else { "s are" },
                path.display()
            ),
            // Interrupted before the base was saved: nothing to resume from yet.
            Some(_) => to_stderr!("draftsim: interrupted before the first variant was saved; nothing to resume"),
            None => to_stderr!("draftsim: without --out nothing was saved; give --out DIR to make the study resumable"),
        }
    }
    result?;
    let meta = serde_json::json!({
        "kind": kind::SENSITIVITY.name,
        "game": info.name,
        "seed": spec.seed,
        "rounds": rounds,
        "deals": spec.deals,
        "players": players,
        "seats": spec.seats.clone().unwrap_or_else(|| draftsim::sim::listed(&seats, players)),
        "keys": spec.keys,
        "rules": base.rules_toml(),
    });
    if let Some(shard) = shard {
        let results = sensitivity::shard_results(info, &spec, shard, &state)?;
        let results = results.iter().map(serde_json::to_value).collect::<Result<_, _>>()?;
        let part = StudyShard::new(&kind::SENSITIVITY, info.name, &spec, meta, shard, list.len() + 1, results)?;
        write_shard(out, format, part, &args.batch.exec.quiet)?;
    } else {
        finish_sensitivity(&state, meta, out, format, &args.batch.exec.quiet)?;
    }
    if let Some(path) = &state_path {
        super::study::forget_state(path);
    }
    Ok(())
}

/// Prints the deviations that move the variant and writes the study's tables: the same
/// for a whole study and one merged from shards.
pub(super) fn finish_sensitivity(
    state: &SensitivityState,
    meta: serde_json::Value,
    out: Option<OutputDir>,
    format: Format,
    quiet: &QuietArg,
) -> Result<()> {
    let effects = sensitivity::effects(state);
    let table = sensitivity::sensitivity_table(&effects);
    let refused = sensitivity::refused_table(state);
    let significant = effects.iter().filter(|e| e.p_holm < 0.05).count();
    let moved: Vec<String> = effects
        .iter()
        .filter(|e| e.p_holm < 0.05)
        .take(10)
        .map(|e| {
            format!(
                "  {}={} moves {} by {} [{}, {}] (Holm p {})",
                e.deviation.key,
                e.deviation.value.trim_matches('"'),
                e.figure,
                signed(e.effect.mean, 4),
                signed(e.effect.lo, 4),
                signed(e.effect.hi, 4),
                draftsim::stats::p_text(e.p_holm)
            )
        })
        .collect();
    let played = state.deviations.iter().filter(|(_, r)| r.is_ok()).count();
    if played == 0 {
        say!(
            "The game refused every deviation asked for (each warned of on stderr, with why): nothing was compared with the base; choose keys or values this table can play."
        );
    } else if moved.is_empty() {
        say!("No deviation moves any figure significantly (Holm-corrected, 5%).");
    } else {
        // Figures differ in units, so effects are ordered by the strength of the evidence,
        // not by size.
        say!(
            "Deviations that surely move the variant (Holm-corrected, 5%), strongest evidence first{}:\n{}",
            if significant > moved.len() {
                format!("; {} of {significant} shown, the sensitivity table has all", moved.len())
            } else {
                String::new()
            },
            moved.join("\n")
        );
    }
    let few_alike: Vec<String> = (effects.iter())
        .filter(|e| e.few_alike && e.effect.mean != 0.0)
        .map(|e| {
            format!("{}={} on {} ({} groups)", e.deviation.key, e.deviation.value.trim_matches('"'), e.figure, e.groups)
        })
        .collect();
    if !few_alike.is_empty() {
        say!(
            "Undecided: {} moved alike on every deal group, which decides only over {} groups; more --rounds would decide.",
            few_alike.join(", "),
            draftsim::study::versus::ALIKE_GROUPS
        );
    }
    // A deviation that moved a figure was exercised (see `sensitivity::effects`).
    let moved_any = |d: &sensitivity::Deviation| effects.iter().any(|e| e.exercised && e.deviation == *d);
    let unexercised: Vec<String> = state
        .deviations
        .iter()
        .filter_map(|(d, r)| r.as_ref().ok().filter(|v| !v.exercised(&d.key) && !moved_any(d)).map(|_| (d, r)))
        .map(|(d, _)| format!("{}={}", d.key, d.value.trim_matches('"')))
        .collect();
    if !unexercised.is_empty() {
        say!(
            "Unexercised (no seated strategy did anything these change; no effect is no finding): {}",
            unexercised.join(", ")
        );
    }
    for (d, r) in &state.deviations {
        if let Err(why) = r {
            quiet.note(&format!("{}={}: refused by the game: {why}", d.key, d.value.trim_matches('"')));
        }
    }
    write_study(out, &[table, refused], format, meta, quiet)
}

/// `sensitivity` as a sharded study: its units are the variant and each one-step deviation.
pub(super) struct Sensitivity;

impl Study for Sensitivity {
    fn kind(&self) -> &'static Kind {
        &kind::SENSITIVITY
    }

    fn units(&self, m: &Merging) -> Result<usize> {
        Ok(sensitivity::deviations(m.info, &m.spec()?)?.len() + 1)
    }

    fn merge(&self, m: Merging, to: MergedTables) -> Result<()> {
        let MergedTables { meta, out, format, quiet } = to;
        let spec: SensitivitySpec = m.spec()?;
        let mut units = Vec::with_capacity(m.results.len());
        for parts in m.results {
            units.push(unit_groups(parts, spec.deals, m.wrong)?);
        }
        let state = sensitivity::state_from_units(m.info, &spec, units)?;
        finish_sensitivity(&state, meta, Some(out), format, quiet)
    }
}

/// One unit's groups put back together from the parts its shard folders hold (each with
/// the folder it came from), or the game's refusal of the unit.
pub(super) fn unit_groups(
    parts: Vec<(usize, serde_json::Value)>,
    deals: u64,
    wrong: &dyn Fn(usize, &str) -> InputError,
) -> Result<Result<sensitivity::VariantGroups, String>> {
    let folders: Vec<usize> = parts.iter().map(|(at, _)| *at).collect();
    let parts = parts
        .into_iter()
        .map(|(at, v)| {
            serde_json::from_value::<Result<sensitivity::VariantGroups, String>>(v)
                .map_err(|e| wrong(at, &e.to_string()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    // A refused unit is refused in every part.
    if let Some(why) = parts.iter().find_map(|p| p.as_ref().err()) {
        return Ok(Err(why.clone()));
    }
    let groups: Vec<_> = parts.into_iter().map(|p| p.expect("no refusal")).collect();
    Ok(Ok(sensitivity::VariantGroups::from_parts(&groups, deals)
        .map_err(|part| wrong(folders[part], "its part does not hold its share of the deals"))?))
}
