//! `provenance.json`: what made an output folder, beside its tables. The tables depend only
//! on what was played, so that merged shards equal the whole run byte for byte; this file
//! says who asked for them, when, with which binary and which files: the commit built, the
//! command line and working folder, the start and end times, and the text of every rules
//! file and custom preset named on the command line.

use std::path::Path;
use std::time::SystemTime;

/// The file's name.
pub const PROVENANCE_FILE: &str = "provenance.json";

/// The command line, each argument as text (lossily where it is not UTF-8).
fn command_line() -> Vec<String> {
    std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect()
}

/// The TOML files the command line names, with their text as it is now: read when the
/// command starts, so that a file edited during a long run is recorded as it was played.
pub fn named_file_texts() -> Vec<(String, String)> {
    named_files(&command_line())
        .into_iter()
        .filter_map(|path| Some((path.clone(), std::fs::read_to_string(&path).ok()?)))
        .collect()
}

/// The trained policies the command line names (`cfr{policy=DIR}`), each policy file with a
/// checksum (CRC-32, hex) of it as it is when the command starts: a policy trained again
/// since is told apart from the one played. Too large to keep whole, as `files` keeps a
/// rules file.
pub fn named_policies() -> Vec<(String, String)> {
    named_policies_in(&command_line())
}

/// The trained policies a strategy or command-line word names (`cfr{policy="DIR"}`: a
/// folder, or the policy file itself), as written: relative to where the command ran.
pub fn policy_paths(word: &str) -> Vec<std::path::PathBuf> {
    (word.split("policy=").skip(1))
        .map(|part| part.split([';', '}', ',']).next().unwrap_or_default().trim().trim_matches(['"', '\'']).into())
        .collect()
}

fn named_policies_in(args: &[String]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for arg in args.iter().skip(1) {
        for given in policy_paths(arg) {
            let file = if given.is_dir() { given.join(crate::solver::policy::POLICY_FILE) } else { given };
            let name = file.display().to_string();
            if let Ok(bytes) = std::fs::read(&file)
                && !out.iter().any(|(f, _)| *f == name)
            {
                out.push((name, format!("{:08x}", crc32fast::hash(&bytes))));
            }
        }
    }
    out
}

/// Paths named on the command line, each with what it held (a text, or a checksum).
pub type Named<'a> = &'a [(String, String)];

/// The provenance of a folder whose command started at `started` with `files` named
/// ([`named_file_texts`]) and `policies` ([`named_policies`]), and ends now, having written
/// `written` (paths in the folder); a merge keeps its `shards`' own records beside.
pub fn provenance(
    started: SystemTime,
    (files, policies, shards): (Named<'_>, Named<'_>, &[serde_json::Value]),
    written: &[String],
) -> serde_json::Value {
    let args = command_line();
    let files: Vec<serde_json::Value> =
        files.iter().map(|(path, text)| serde_json::json!({ "path": path, "text": text })).collect();
    let policies: Vec<serde_json::Value> =
        policies.iter().map(|(path, crc)| serde_json::json!({ "path": path, "crc32": crc })).collect();
    let mut record = serde_json::json!({
        "version": env!("CARGO_PKG_VERSION"),
        "commit": env!("DRAFTSIM_COMMIT"),
        "command_line": args,
        "working_directory": std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_default(),
        "started": humantime::format_rfc3339_seconds(started).to_string(),
        "finished": humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
        "files": files,
        "policies": policies,
        "written": written,
    });
    if !shards.is_empty() {
        record["shards"] = serde_json::Value::Array(shards.to_vec());
    }
    record
}

/// The files a folder's provenance record says draftsim wrote there; `None` without a
/// record, or with one from before the files were listed.
pub fn written(folder: &Path) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(folder.join(PROVENANCE_FILE)).ok()?;
    let record: serde_json::Value = serde_json::from_str(&text).ok()?;
    record.get("written")?.as_array()?.iter().map(|v| v.as_str().map(str::to_string)).collect()
}

/// The TOML files the command line names: whole arguments, values after `=`, and the
/// entries of comma-separated lists (seats, fields), each once, in order.
fn named_files(args: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for arg in args.iter().skip(1) {
        let value = arg.split_once('=').filter(|_| arg.starts_with("--")).map_or(arg.as_str(), |(_, v)| v);
        for part in std::iter::once(value).chain(value.split(',')) {
            if part.ends_with(".toml") && Path::new(part).is_file() && !out.iter().any(|p| p == part) {
                out.push(part.to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_a_command_line_names_are_found_once() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.toml"), dir.path().join("b.toml"));
        std::fs::write(&a, "players = 3\n").unwrap();
        std::fs::write(&b, "description = \"x\"\n").unwrap();
        let (a, b) = (a.display().to_string(), b.display().to_string());
        let args: Vec<String> = ["draftsim", "run", "--rules", &a, &format!("--seats={b},tight"), &a, "missing.toml"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(named_files(&args), vec![a, b]);
    }

    #[test]
    fn the_policies_a_command_line_names_are_found_with_their_checksums() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("policy.json"), "{}").unwrap();
        let d = dir.path().display().to_string();
        let args: Vec<String> =
            ["draftsim", "run", &format!("--seats=cfr{{policy=\"{d}\"}},tight"), &format!("cfr{{policy={d};x=1}}")]
                .iter()
                .map(|s| s.to_string())
                .collect();
        let file = dir.path().join("policy.json").display().to_string();
        assert_eq!(named_policies_in(&args), vec![(file, format!("{:08x}", crc32fast::hash(b"{}")))]);
        assert!(named_policies_in(&["draftsim".into(), "cfr{policy=\"nowhere\"}".into()]).is_empty());
    }
}
