//! Computes the table evaluator's row displacements (`src/eval/keys.rs`) once, at build
//! time, into `$OUT_DIR/row_offsets.rs`.

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
}
