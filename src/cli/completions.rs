//! Shell completion scripts: clap_complete's, with the flags that name strategies narrowed
//! to the presets of the game on the command line. A static script cannot see `--game`, so
//! in bash, zsh and fish a small shell function reads it from the words typed so far (no
//! `--game`: the default game's presets, as the command would play it).

use clap::CommandFactory;
use clap_complete::Shell;
use draftsim::games::GAMES;

use super::Cli;
use super::args::{DEFAULT_GAME, preset_names};

/// The completion script for `shell`.
pub fn script(shell: Shell) -> String {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "draftsim", &mut out);
    let script = String::from_utf8_lossy(&out).into_owned();
    let all = preset_names();
    match shell {
        Shell::Bash => {
            let every = format!("compgen -W \"{}\"", all.join(" "));
            with_function(script.replace(&every, "compgen -W \"$(__draftsim_presets)\""), &bash_function(), None)
        }
        Shell::Zsh => {
            let every = format!(":({})", all.join(" "));
            // The function must exist before the last lines call or register `_draftsim`.
            let tail = "if [ \"$funcstack[1]\" = \"_draftsim\" ]; then";
            with_function(script.replace(&every, ":_draftsim_presets"), &zsh_function(), Some(tail))
        }
        Shell::Fish => {
            let every: Vec<String> = all.iter().map(|p| format!("{p}\\t''")).collect();
            let every = format!("-a \"{}\"", every.join("\n"));
            with_function(script.replace(&every, "-a \"(__draftsim_presets)\""), &fish_function(), None)
        }
        _ => script,
    }
}

/// `script` with `function` placed before the line starting `before` (or at the end).
fn with_function(script: String, function: &str, before: Option<&str>) -> String {
    match before.and_then(|b| script.find(b)) {
        Some(at) => format!("{}{function}\n{}", &script[..at], &script[at..]),
        None => format!("{script}\n{function}"),
    }
}

/// One case of the shell's `case` (or `switch`) a game, from each game's name and its
/// presets, space-separated.
fn arms(arm: impl Fn(&str, &str) -> String) -> String {
    (GAMES.iter())
        .map(|g| arm(g.name, &(g.presets)().into_iter().map(|(name, _)| name).collect::<Vec<_>>().join(" ")))
        .collect()
}

/// The presets of the game named by `--game` (`--game G` or `--game=G`) in the words typed,
/// each led by what the word holds up to its last comma, so that every strategy of a
/// comma-separated list completes (`tight,gr` to `tight,greedy`); under `play`, `you` too.
fn bash_function() -> String {
    let arms = arms(|game, presets| format!("        {game}) list=\"{presets}\" ;;\n"));
    format!(
        r#"__draftsim_presets() {{
    local i p list prefix="" game="{DEFAULT_GAME}" cur="${{COMP_WORDS[COMP_CWORD]}}"
    [[ "$cur" == *,* ]] && prefix="${{cur%,*}},"
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${{COMP_WORDS[i]}}" in
            --game=*) game="${{COMP_WORDS[i]#--game=}}" ;;
            --game)
                # Bash splits `--game=G` into three words where `=` breaks words.
                if [[ "${{COMP_WORDS[i+1]}}" == "=" ]]; then game="${{COMP_WORDS[i+2]}}"; else game="${{COMP_WORDS[i+1]}}"; fi ;;
        esac
    done
    case "$game" in
{arms}        *) list="{}" ;;
    esac
    [[ "${{COMP_WORDS[1]}}" == play ]] && list="you $list"
    for p in $list; do printf '%s ' "$prefix$p"; done
}}
"#,
        preset_names().join(" ")
    )
}

fn zsh_function() -> String {
    let arms = arms(|game, presets| format!("        {game}) presets=({presets}) ;;\n"));
    format!(
        r#"(( $+functions[_draftsim_presets] )) ||
_draftsim_presets() {{
    local i game="{DEFAULT_GAME}" cur="${{words[CURRENT]}}"
    local -a presets lead
    [[ "$cur" == *,* ]] && lead=(-P "${{cur%,*}},")
    for ((i = 1; i < CURRENT; i++)); do
        case "${{words[i]}}" in
            --game=*) game="${{words[i]#--game=}}" ;;
            --game) game="${{words[i+1]}}" ;;
        esac
    done
    case "$game" in
{arms}        *) presets=({}) ;;
    esac
    (( ${{words[(Ie)play]}} )) && presets=(you $presets)
    compadd "${{lead[@]}}" -a presets
}}
"#,
        preset_names().join(" ")
    )
}

fn fish_function() -> String {
    // An empty description after each name, as clap's own values have.
    let arms = arms(|game, presets| format!("        case {game}\n            set presets {presets}\n"));
    format!(
        r#"function __draftsim_presets
    set -l game {DEFAULT_GAME}
    set -l presets
    set -l prefix (string match -r -- '^.*,' (commandline -ct))
    set -l words (commandline -opc)
    for i in (seq (count $words))
        switch $words[$i]
            case '--game=*'
                set game (string replace -- '--game=' '' $words[$i])
            case --game
                if test $i -lt (count $words)
                    set game $words[(math $i + 1)]
                end
        end
    end
    switch $game
{arms}        case '*'
            set presets {}
    end
    if test "$words[2]" = play
        set presets you $presets
    end
    for p in $presets
        printf '%s\t\n' "$prefix$p"
    end
end
"#,
        preset_names().join(" ")
    )
}
