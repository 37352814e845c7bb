//! Computes the table evaluator's row displacements (`src/eval/keys.rs`) once, at build
//! time, into `$OUT_DIR/row_offsets.rs`, and records the commit built (`DRAFTSIM_COMMIT`,
//! shown by `draftsim --version`, with `-modified` when the sources built differ from it).

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
    record_commit();
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
