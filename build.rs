//! Computes the table evaluator's row displacements (`src/eval/keys.rs`) once, at build
//! time, into `$OUT_DIR/row_offsets.rs`, and records the commit built (`DRAFTSIM_COMMIT`,
//! shown by `draftsim --version`, with `-modified` when the sources built differ from it),
//! and lists the shipped policies (`strategies/<game>/<name>/policy.json`) for embedding,
//! so a `cfr` preset plays wherever the binary is run from.

use std::fmt::Write as _;

#[path = "src/eval/keys.rs"]
mod keys;

fn main() {
    println!("cargo::rerun-if-changed=src/eval/keys.rs");
    let multisets = keys::rank_multisets();
    let main = keys::displace(&keys::main_keys(&multisets), keys::ROW_SHIFT, keys::ROWS, keys::SLOTS);
    let wild_keys: Vec<u32> = keys::wild_keys(&multisets).iter().map(|k| k.0).collect();
    let wild = keys::displace(&wild_keys, keys::WILD_ROW_SHIFT, keys::WILD_ROWS, keys::WILD_SLOTS);
    let mut out = String::new();
    for (name, offsets) in [("ROW_OFFSETS", &main), ("WILD_ROW_OFFSETS", &wild)] {
        writeln!(out, "/// Row displacements of the hash, computed by build.rs.").unwrap();
        writeln!(out, "static {name}: [u32; {}] = {offsets:?};", offsets.len()).unwrap();
    }
    let path = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("row_offsets.rs");
    std::fs::write(path, out).expect("OUT_DIR is writable");
    list_shipped_policies();
    record_commit();
}

/// Writes `$OUT_DIR/shipped_policies.rs`: `SHIPPED`, the (folder, policy.json text) of
/// every policy folder under `strategies/`, in path order.
fn list_shipped_policies() {
    let root = std::path::PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for game in std::fs::read_dir(root.join("strategies")).expect("strategies/ exists").flatten() {
        for entry in std::fs::read_dir(game.path()).into_iter().flatten().flatten() {
            if entry.path().join("policy.json").is_file() {
                let name = format!("{}/{}", game.file_name().to_string_lossy(), entry.file_name().to_string_lossy());
                found.push(name);
            }
        }
    }
    found.sort();
    let mut out = String::from("/// The shipped policies, listed by build.rs: (folder, policy.json).\n");
    out.push_str("pub static SHIPPED: &[(&str, &str)] = &[\n");
    for name in &found {
        let file = root.join("strategies").join(name).join("policy.json");
        writeln!(out, "    (\"strategies/{name}\", include_str!({:?})),", file.display().to_string()).unwrap();
    }
    out.push_str("];\n");
    let path = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("shipped_policies.rs");
    std::fs::write(path, out).expect("OUT_DIR is writable");
}

/// Sets `DRAFTSIM_COMMIT` to the short hash of the commit built (`-modified` when the
/// sources built differ from it), or "unknown" outside a git checkout (a source archive)
/// or without git; rebuilt when HEAD moves or a source changes.
fn record_commit() {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let mut commit = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());
    // A binary built from sources that differ from the commit says so: results it writes
    // name a commit that would not rebuild it.
    let built_from = ["src", "build.rs", "Cargo.toml", "Cargo.lock", "strategies"];
    if commit != "unknown" && git(&[&["status", "--porcelain", "--"][..], &built_from[..]].concat()).is_some() {
        commit.push_str("-modified");
    }
    for path in built_from {
        println!("cargo::rerun-if-changed={path}");
    }
    println!("cargo::rustc-env=DRAFTSIM_COMMIT={commit}");
    // HEAD names the branch; the branch's ref (loose or packed) names the commit.
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name]) {
            let path = std::path::Path::new(&path);
            // A path git gives relative is relative to the package root, where cargo runs this.
            if path.exists() {
                println!("cargo::rerun-if-changed={}", path.display());
            }
        }
    }
}
