//! Tables: built from a tally, written to CSV (csv crate) or Parquet (polars, zstd, run
//! metadata in the file's key-value metadata), always through a staging folder that is
//! renamed into place, so a failed or interrupted run leaves no partial output.

pub mod provenance;
mod tables;

pub use tables::{RunMeta, health_table, outside_table, run_tables};

use std::fs;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::error::{Error, InputError};

/// The noun a count takes: `one` for 1 and -1 ("1 chip", "-1 point"), else `many`.
pub fn noun<'a>(n: i64, one: &'a str, many: &'a str) -> &'a str {
    if n.abs() == 1 { one } else { many }
}

/// "a", "a and b", "a, b and c".
pub fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// "a", "a or b", "a, b or c".
pub fn or_list(items: &[&str]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => items.join(""),
    }
}

/// The text with its first letter capitalised, to open a title or a sentence.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// A column's values.
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    /// Text.
    Text(Vec<String>),
    /// Whole numbers.
    Int(Vec<i64>),
    /// Real numbers (NaN, an undefined value, is written as an empty CSV field and as a
    /// null in Parquet).
    Float(Vec<f64>),
    /// Real numbers always written with a decimal point (`1.0`, not `1`), so a CSV reader
    /// reads them back as reals: a swept real key whose values happen to be whole.
    Real(Vec<f64>),
    /// Yes or no: `true` and `false` in CSV, booleans in Parquet.
    Bool(Vec<bool>),
    /// Whole numbers that may be missing: an empty CSV field, a null in Parquet (a rank
    /// where nothing was ranked).
    MaybeInt(Vec<Option<i64>>),
}

impl Values {
    fn len(&self) -> usize {
        match self {
            Values::Text(v) => v.len(),
            Values::Int(v) => v.len(),
            Values::Float(v) | Values::Real(v) => v.len(),
            Values::Bool(v) => v.len(),
            Values::MaybeInt(v) => v.len(),
        }
    }

    /// One cell as text (as in CSV).
    pub fn cell(&self, row: usize) -> String {
        match self {
            Values::Text(v) => v[row].clone(),
            Values::Int(v) => v[row].to_string(),
            Values::Float(v) | Values::Real(v) if v[row].is_nan() => String::new(),
            // Exponent form for the very small and large, as `{:?}` writes them: a p-value of
            // 1e-111 is not a hundred zeros.
            Values::Float(v) if v[row] != 0.0 && !(1e-4..1e16).contains(&v[row].abs()) => format!("{:?}", v[row]),
            // Adding zero turns a negative zero (a negated nothing) into zero: no `-0` in a file.
            Values::Float(v) => (v[row] + 0.0).to_string(),
            Values::Real(v) => format!("{:?}", v[row] + 0.0),
            Values::Bool(v) => v[row].to_string(),
            Values::MaybeInt(v) => v[row].map_or_else(String::new, |x| x.to_string()),
        }
    }

    /// The value at `row` as a terminal shows it: a float to `float_digits` places, a real as
    /// written (`0.5`, `1`, the way a flag gives it), anything else as in a file.
    pub fn shown(&self, row: usize, float_digits: usize) -> String {
        match self {
            Values::Float(x) if !x[row].is_nan() => fixed(x[row], float_digits),
            Values::Real(x) if !x[row].is_nan() => (x[row] + 0.0).to_string(),
            other => other.cell(row),
        }
    }
}

/// A named table of equal-length columns.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The table's name (its file name without extension).
    pub name: String,
    /// Columns in order.
    pub columns: Vec<(String, Values)>,
}

impl Table {
    /// An empty table.
    pub fn new(name: &str) -> Table {
        Table { name: name.to_string(), columns: Vec::new() }
    }

    /// Adds a column.
    pub fn with(mut self, name: &str, values: Values) -> Table {
        self.columns.push((name.to_string(), values));
        self
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.columns.first().map_or(0, |c| c.1.len())
    }

    /// The column of this name.
    pub fn column(&self, name: &str) -> Option<&Values> {
        self.columns.iter().find(|c| c.0 == name).map(|c| &c.1)
    }

    /// The table as a polars DataFrame; an undefined real (NaN) is a null.
    pub fn to_frame(&self) -> Result<DataFrame, Error> {
        let cols: Vec<Column> = self
            .columns
            .iter()
            .map(|(name, values)| match values {
                Values::Text(v) => Column::new(name.into(), v),
                Values::Int(v) => Column::new(name.into(), v),
                // As in CSV: no negative zero.
                Values::Float(v) | Values::Real(v) => {
                    Column::new(name.into(), v.iter().map(|x| (!x.is_nan()).then_some(*x + 0.0)).collect::<Vec<_>>())
                }
                Values::Bool(v) => Column::new(name.into(), v),
                Values::MaybeInt(v) => Column::new(name.into(), v),
            })
            .collect();
        DataFrame::new(self.rows(), cols).map_err(|e| table_error(&self.name, e))
    }

    /// Text as an aligned plain-text table (for stdout).
    pub fn to_aligned_text(&self, float_digits: usize) -> String {
        let cell = |v: &Values, r: usize| v.shown(r, float_digits);
        let widths: Vec<usize> = self
            .columns
            .iter()
            .map(|(name, v)| (0..self.rows()).map(|r| cell(v, r).len()).chain([name.len()]).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        let line = |cells: Vec<String>, out: &mut String| {
            let parts: Vec<String> = cells
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(i, (c, w))| if i == 0 { format!("{c:<w$}") } else { format!("{c:>w$}") })
                .collect();
            out.push_str(parts.join("  ").trim_end());
            out.push('\n');
        };
        line(self.columns.iter().map(|c| c.0.clone()).collect(), &mut out);
        for r in 0..self.rows() {
            line(self.columns.iter().map(|c| cell(&c.1, r)).collect(), &mut out);
        }
        out
    }
}

/// `x` with `digits` decimals, as `{:.N}` writes it but without the sign of a value that
/// rounds to zero ("0.0000", not "-0.0000": the sign of a figure too small to show is noise).
pub fn fixed(x: f64, digits: usize) -> String {
    let text = format!("{x:.digits$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_string(),
        _ => text,
    }
}

/// [`fixed`] with a `+` before a figure above zero as shown: a difference, whose sign is
/// what it says.
pub fn signed(x: f64, digits: usize) -> String {
    let text = fixed(x, digits);
    if text.starts_with('-') || text.bytes().all(|b| b == b'0' || b == b'.') { text } else { format!("+{text}") }
}

fn table_error(name: &str, e: impl std::fmt::Display) -> Error {
    Error::Table { name: name.to_string(), message: first_paragraph(&e.to_string()) }
}

/// A reader's error as one line: its first paragraph (polars follows it with advice for
/// its Python API), line breaks inside it written `\n`.
fn first_paragraph(text: &str) -> String {
    let first = text.split("\n\n").next().unwrap_or_default().trim();
    first.replace('\n', "\\n")
}

fn io_error(path: &Path, error: std::io::Error) -> Error {
    Error::Io { path: path.display().to_string(), error }
}

/// File format of the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Comma-separated values, metadata in `run.json`.
    Csv,
    /// Parquet, zstd-compressed, metadata in the file too.
    Parquet,
}

impl Format {
    /// The file extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Parquet => "parquet",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = InputError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "csv" => Ok(Format::Csv),
            "parquet" => Ok(Format::Parquet),
            _ => Err(InputError::new(format!("--format '{s}': use csv or parquet"))),
        }
    }
}

/// Writes a table as CSV.
pub fn write_csv(path: &Path, table: &Table) -> Result<(), Error> {
    let mut w = csv::Writer::from_path(path).map_err(|e| table_error(&table.name, e))?;
    w.write_record(table.columns.iter().map(|c| c.0.as_str())).map_err(|e| table_error(&table.name, e))?;
    for r in 0..table.rows() {
        w.write_record(table.columns.iter().map(|c| c.1.cell(r))).map_err(|e| table_error(&table.name, e))?;
    }
    w.flush().map_err(|e| io_error(path, e))
}

/// Writes a table as zstd Parquet with this key-value metadata, both as the file's
/// key-value pairs and in the embedded Arrow schema (which pyarrow, pandas and polars
/// readers show as the schema's metadata).
pub fn write_parquet(path: &Path, table: &Table, metadata: &[(String, String)]) -> Result<(), Error> {
    let mut df = table.to_frame()?;
    let write = |out: &mut dyn std::io::Write, df: &mut DataFrame, kv: Vec<(String, String)>| {
        ParquetWriter::new(out)
            .with_compression(ParquetCompression::Zstd(None))
            .with_key_value_metadata(Some(KeyValueMetadata::from_static(kv)))
            .finish(df)
            .map_err(|e| table_error(&table.name, e))
    };
    // Polars writes the Arrow schema without custom metadata: write once to memory, take
    // that schema, add the metadata to it, and write the file with the schema replaced.
    let mut first = Vec::new();
    write(&mut first, &mut df, metadata.to_vec())?;
    let meta = ParquetReader::new(std::io::Cursor::new(first))
        .get_metadata()
        .map_err(|e| table_error(&table.name, e))?
        .clone();
    let arrow_schema = meta
        .key_value_metadata()
        .iter()
        .flatten()
        .find(|kv| kv.key == ARROW_SCHEMA_KEY)
        .and_then(|kv| kv.value.clone());
    let mut kv = metadata.to_vec();
    if let Some(schema) = arrow_schema {
        kv.insert(
            0,
            (
                ARROW_SCHEMA_KEY.to_string(),
                schema_with_metadata(&schema, metadata).map_err(|e| table_error(&table.name, e))?,
            ),
        );
    }
    let mut file = fs::File::create(path).map_err(|e| io_error(path, e))?;
    write(&mut file, &mut df, kv)?;
    Ok(())
}

/// The custom metadata of a Parquet file's embedded Arrow schema (what pyarrow's
/// `read_table(f).schema.metadata` shows).
pub fn arrow_schema_metadata(path: &Path) -> Result<Vec<(String, String)>, Error> {
    use base64::Engine;
    use planus::ReadAsRoot;
    use polars_arrow_format::ipc;
    let name = path.display().to_string();
    let encoded = parquet_metadata(path)?
        .into_iter()
        .find(|(k, _)| k == ARROW_SCHEMA_KEY)
        .map(|(_, v)| v)
        .ok_or_else(|| table_error(&name, "no embedded Arrow schema"))?;
    let bytes = base64::engine::general_purpose::STANDARD.decode(encoded).map_err(|e| table_error(&name, e))?;
    let message =
        ipc::MessageRef::read_as_root(bytes.get(8..).unwrap_or_default()).map_err(|e| table_error(&name, e))?;
    let message = ipc::Message::try_from(message).map_err(|e| table_error(&name, e))?;
    let Some(ipc::MessageHeader::Schema(schema)) = message.header else {
        return Err(table_error(&name, "the embedded Arrow message is not a schema"));
    };
    Ok(schema
        .custom_metadata
        .unwrap_or_default()
        .into_iter()
        .map(|kv| (kv.key.unwrap_or_default(), kv.value.unwrap_or_default()))
        .collect())
}

/// The key under which Parquet files embed their Arrow schema.
const ARROW_SCHEMA_KEY: &str = "ARROW:schema";

/// An embedded Arrow schema (base64 of a length-prefixed IPC schema message) with these
/// pairs set as the schema's custom metadata.
fn schema_with_metadata(encoded: &str, metadata: &[(String, String)]) -> Result<String, String> {
    use base64::Engine;
    use planus::ReadAsRoot;
    use polars_arrow_format::ipc;
    let engine = base64::engine::general_purpose::STANDARD;
    let bytes = engine.decode(encoded).map_err(|e| e.to_string())?;
    // Legacy framing: 0xFFFFFFFF, the message length (u32, little-endian), the message.
    let body = bytes.get(8..).filter(|_| bytes[..4] == [255; 4]).ok_or("unexpected Arrow schema framing")?;
    let message_ref = ipc::MessageRef::read_as_root(body).map_err(|e| e.to_string())?;
    let mut message = ipc::Message::try_from(message_ref).map_err(|e| e.to_string())?;
    let Some(ipc::MessageHeader::Schema(schema)) = message.header.as_mut() else {
        return Err("the embedded Arrow message is not a schema".into());
    };
    let pairs = metadata.iter().map(|(k, v)| ipc::KeyValue { key: Some(k.clone()), value: Some(v.clone()) });
    schema.custom_metadata.get_or_insert_with(Vec::new).extend(pairs);
    let mut builder = planus::Builder::new();
    let serialized = builder.finish(&message, None);
    let mut framed = Vec::with_capacity(serialized.len() + 8);
    framed.extend_from_slice(&[255; 4]);
    framed.extend_from_slice(&(serialized.len() as u32).to_le_bytes());
    framed.extend_from_slice(serialized);
    Ok(engine.encode(framed))
}

/// Reads a CSV or Parquet table back as a DataFrame.
pub fn read_frame(path: &Path) -> Result<DataFrame, Error> {
    let name = path.display().to_string();
    if path.extension().is_some_and(|e| e == "parquet") {
        let file = fs::File::open(path).map_err(|e| io_error(path, e))?;
        ParquetReader::new(file).finish().map_err(|e| table_error(&name, e))
    } else {
        // Every table draftsim writes ends its last line: one that does not was cut short.
        let bytes = fs::read(path).map_err(|e| io_error(path, e))?;
        if bytes.last().is_some_and(|&b| b != b'\n') {
            return Err(Error::Input(InputError::new(format!(
                "{name}: cut short (its last line is unfinished); write it again with the command that made it"
            ))));
        }
        // Types inferred from every row: a column of numbers that turns to words past
        // the first rows (a rules key's values) would otherwise fail to read.
        CsvReadOptions::default()
            .with_has_header(true)
            .with_infer_schema_length(None)
            .try_into_reader_with_file_path(Some(path.to_path_buf()))
            .and_then(|r| r.finish())
            .map_err(|e| table_error(&name, e))
    }
}

/// Reads the key-value metadata of a Parquet file.
pub fn parquet_metadata(path: &Path) -> Result<Vec<(String, String)>, Error> {
    let file = fs::File::open(path).map_err(|e| io_error(path, e))?;
    let mut reader = ParquetReader::new(file);
    let meta = reader.get_metadata().map_err(|e| table_error(&path.display().to_string(), e))?;
    Ok(meta
        .key_value_metadata()
        .iter()
        .flatten()
        .map(|kv| (kv.key.clone(), kv.value.clone().unwrap_or_default()))
        .collect())
}

/// An output folder written through a staging folder beside it, renamed into place by
/// [`OutputDir::commit`]; dropped uncommitted, it removes the staging folder.
#[derive(Debug)]
pub struct OutputDir {
    target: PathBuf,
    staging: PathBuf,
    force: bool,
    committed: bool,
    /// When the folder was opened: the command's start, as provenance.json records it.
    started: std::time::SystemTime,
    /// The TOML files the command line names, read then.
    files: Vec<(String, String)>,
    /// The policy files the command line names, with their checksums then.
    policies: Vec<(String, String)>,
    /// For a merge: each shard folder's own provenance record, where it has one.
    shards: Vec<serde_json::Value>,
}

/// Whether `path` is a folder with nothing in it (not a link to one).
fn empty_dir(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) && fs::read_dir(path).is_ok_and(|mut d| d.next().is_none())
}

/// Why --force would not replace the existing folder `target`, if it would not: it
/// replaces earlier results, never a folder of someone's files (every folder draftsim
/// writes holds its provenance record, which lists what was written).
fn not_replaced(target: &Path) -> Option<String> {
    // Through a link too: a link to an empty folder is replaced as before.
    if !target.is_dir() || fs::read_dir(target).is_ok_and(|mut d| d.next().is_none()) {
        return None;
    }
    if !target.join(provenance::PROVENANCE_FILE).is_file() {
        return Some(format!(
            "the folder holds files draftsim did not write (no {}), so --force will not replace it; choose another name",
            provenance::PROVENANCE_FILE
        ));
    }
    let written = provenance::written(target)?;
    let added: Vec<String> =
        files_below(target).into_iter().filter(|f| f != provenance::PROVENANCE_FILE && !written.contains(f)).collect();
    let first = added.first()?;
    Some(format!(
        "it holds {first}{}, which draftsim did not write, so --force will not replace it; move {} or choose another name",
        if added.len() > 1 { format!(" and {} more files", added.len() - 1) } else { String::new() },
        if added.len() > 1 { "them" } else { "it" }
    ))
}

impl OutputDir {
    /// Checks the target and creates the staging folder; refuses an existing target
    /// unless `force`.
    pub fn create(target: &Path, force: bool) -> Result<OutputDir, InputError> {
        // Results are a folder: a file of that name is someone's data, not an older result.
        if fs::symlink_metadata(target).is_ok_and(|m| m.is_file()) {
            return Err(InputError::new(format!(
                "--out {}: a file of that name exists, not a folder; choose another name (--force replaces only a folder)",
                target.display()
            )));
        }
        // An empty folder holds nothing to lose: it is written into as a new one is.
        if target.exists() && !empty_dir(target) {
            // Said before --force is tried, where it would be refused too.
            if let Some(refusal) = not_replaced(target) {
                return Err(InputError::new(format!("--out {}: {refusal}", target.display())));
            }
            if !force {
                return Err(InputError::new(format!(
                    "--out {}: the folder exists; choose another or pass --force to replace it",
                    target.display()
                )));
            }
        }
        let name = target
            .file_name()
            .ok_or_else(|| InputError::new(format!("--out {}: not a folder name", target.display())))?;
        let parent = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let name = staging_stem(&name.to_string_lossy());
        remove_stale(parent, &name);
        let staging = parent.join(format!(".{name}.tmp-{}", std::process::id()));
        let _ = fs::remove_dir_all(&staging);
        fs::create_dir_all(&staging)
            .map_err(|e| InputError::new(format!("--out {}: cannot write there ({e})", target.display())))?;
        Ok(OutputDir {
            target: target.to_path_buf(),
            staging,
            force,
            committed: false,
            started: std::time::SystemTime::now(),
            files: provenance::named_file_texts(),
            policies: provenance::named_policies(),
            shards: Vec::new(),
        })
    }

    /// Keeps each of `dirs`' provenance records (the shards a merge reads) in this folder's:
    /// the commands, files and policies that played the merged results.
    pub fn keep_shard_records(&mut self, dirs: &[PathBuf]) {
        self.shards = dirs
            .iter()
            .map(|d| {
                let record = fs::read_to_string(d.join(provenance::PROVENANCE_FILE)).ok();
                let record: Option<serde_json::Value> = record.and_then(|t| serde_json::from_str(&t).ok());
                serde_json::json!({ "folder": d.display().to_string(), "provenance": record })
            })
            .collect();
    }

    /// Where to write files before the commit.
    pub fn path(&self) -> &Path {
        &self.staging
    }

    /// Writes a table in the format, with metadata in Parquet files.
    pub fn write_table(&self, table: &Table, format: Format, metadata: &[(String, String)]) -> Result<(), Error> {
        let path = self.staging.join(format!("{}.{}", table.name, format.extension()));
        match format {
            Format::Csv => write_csv(&path, table),
            Format::Parquet => write_parquet(&path, table, metadata),
        }
    }

    /// Writes a text file.
    pub fn write_text(&self, name: &str, text: &str) -> Result<(), Error> {
        let path = self.staging.join(name);
        fs::write(&path, text).map_err(|e| io_error(&path, e))
    }

    /// Writes provenance.json ([`provenance`]) and moves the staging folder into place
    /// (replacing the target when forced).
    pub fn commit(mut self) -> Result<PathBuf, Error> {
        let written = files_below(&self.staging);
        let record = serde_json::to_string_pretty(&provenance::provenance(
            self.started,
            (&self.files, &self.policies, &self.shards),
            &written,
        ))
        .expect("JSON prints");
        self.write_text(provenance::PROVENANCE_FILE, &(record + "\n"))?;
        // The replaced folder is set aside under this process's own name, so a leftover of
        // another run cannot block it, and put back if the new one cannot take its place.
        let old = self.staging.with_extension(format!("old-{}", std::process::id()));
        remove_path(&old);
        // An empty folder is kept (its permissions, a shell's working directory in it): the
        // results move into it.
        if empty_dir(&self.target) {
            for entry in fs::read_dir(&self.staging).map_err(|e| io_error(&self.staging, e))? {
                let entry = entry.map_err(|e| io_error(&self.staging, e))?;
                let to = self.target.join(entry.file_name());
                fs::rename(entry.path(), &to).map_err(|e| io_error(&to, e))?;
            }
            remove_path(&self.staging);
            self.committed = true;
            return Ok(self.target.clone());
        }
        let replaced = self.target.exists() && self.force;
        if replaced {
            fs::rename(&self.target, &old).map_err(|e| io_error(&self.target, e))?;
        }
        if let Err(e) = fs::rename(&self.staging, &self.target) {
            if replaced {
                let _ = fs::rename(&old, &self.target);
            }
            return Err(io_error(&self.target, e));
        }
        remove_path(&old);
        self.committed = true;
        Ok(self.target.clone())
    }
}

/// Refuses `target` inside one of the folders `dirs` a command reads (`report`, `merge`):
/// that folder's own `--force` would then find a folder it did not write.
pub fn check_out_beside_inputs(target: &Path, dirs: &[PathBuf]) -> Result<(), InputError> {
    let mut existing = target.to_path_buf();
    let mut rest = Vec::new();
    while !existing.exists() {
        let Some(name) = existing.file_name() else { break };
        rest.push(name.to_os_string());
        existing = existing.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        if existing.as_os_str().is_empty() {
            existing = PathBuf::from(".");
        }
    }
    if let Ok(mut at) = existing.canonicalize() {
        at.extend(rest.iter().rev());
        for input in dirs.iter().filter(|i| i.is_dir()) {
            if let Ok(i) = input.canonicalize()
                && at != i
                && at.starts_with(&i)
            {
                return Err(InputError::new(format!(
                    "--out {}: it lies inside the input {}; write it beside the input, not inside",
                    target.display(),
                    input.display()
                )));
            }
        }
    }
    Ok(())
}

/// Refuses an `--out` that is one of `inputs` or holds one: replacing it with `--force`
/// would delete what the command reads.
pub fn check_out_not_input(target: &Path, inputs: &[PathBuf]) -> Result<(), InputError> {
    let Ok(t) = target.canonicalize() else { return Ok(()) };
    for input in inputs {
        if input.canonicalize().is_ok_and(|c| c.starts_with(&t)) {
            return Err(InputError::new(format!(
                "--out {}: it holds the input {}; write to another folder",
                target.display(),
                input.display()
            )));
        }
    }
    Ok(())
}

/// Every file below `dir`, as paths relative to it with `/` between folders, and every
/// empty folder below it with a `/` after its name (a folder someone made is theirs too),
/// sorted.
fn files_below(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), String::new())];
    while let Some((path, prefix)) = stack.pop() {
        let Ok(entries) = fs::read_dir(&path) else { continue };
        let mut entries = entries.flatten().peekable();
        if entries.peek().is_none() && !prefix.is_empty() {
            out.push(prefix.clone());
        }
        for entry in entries {
            let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push((entry.path(), format!("{name}/")));
            } else {
                out.push(name);
            }
        }
    }
    out.sort();
    out
}

/// Removes a file or a folder, whichever `path` is (nothing if it is neither).
fn remove_path(path: &Path) {
    if fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) {
        let _ = fs::remove_dir_all(path);
    } else {
        let _ = fs::remove_file(path);
    }
}

/// The part of the staging and set-aside names that comes from the target's name: the name
/// itself, or where the name is near the file system's 255-byte limit, its start and a
/// checksum of the whole, so that the decorated names fit.
pub fn staging_stem(name: &str) -> String {
    const KEEP: usize = 200;
    if name.len() <= KEEP {
        return name.to_string();
    }
    let cut = (0..=KEEP).rev().find(|&i| name.is_char_boundary(i)).unwrap_or(0);
    format!("{}~{:08x}", &name[..cut], crc32fast::hash(name.as_bytes()))
}

/// Removes what dead runs left beside `--out NAME` in `parent`: staging folders
/// (`.NAME.tmp-PID`) and set-aside folders (`.NAME.old-PID`, or `.NAME.old` of older
/// versions) whose process is gone. A live process's are left alone.
fn remove_stale(parent: &Path, name: &str) {
    let Ok(entries) = fs::read_dir(parent) else { return };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(rest) = file.to_str().and_then(|f| f.strip_prefix(&prefix)) else { continue };
        let pid = match rest.strip_prefix("tmp-").or_else(|| rest.strip_prefix("old-")) {
            Some(pid) => match pid.parse::<u32>() {
                Ok(pid) => Some(pid),
                Err(_) => continue,
            },
            None if rest == "old" => None,
            None => continue,
        };
        if pid.is_none_or(|pid| !process_alive(pid)) {
            remove_path(&entry.path());
        }
    }
}

/// Whether process `pid` is running; where that cannot be told (no `/proc`), it is assumed
/// to be, so nothing of a live run is ever removed.
fn process_alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    pid == std::process::id() || !proc.join("self").exists() || proc.join(pid.to_string()).exists()
}

impl Drop for OutputDir {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.staging);
        }
    }
}

/// A count with its thousands separated: 10050072 as "10,050,072".
pub fn thousands(v: f64) -> String {
    let digits = format!("{:.0}", v.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if v < 0.0 { format!("-{out}") } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_drops_the_sign_of_a_figure_that_rounds_to_zero() {
        assert_eq!(fixed(-0.00001, 4), "0.0000");
        assert_eq!(fixed(-0.0, 2), "0.00");
        assert_eq!(fixed(-0.00006, 4), "-0.0001");
        assert_eq!(fixed(-1.5, 1), "-1.5");
        assert_eq!(fixed(0.25, 2), "0.25");
        assert_eq!(
            [signed(0.25, 2), signed(-0.001, 2), signed(0.001, 2), signed(-0.25, 2)],
            ["+0.25", "0.00", "0.00", "-0.25"]
        );
        let t = Table::new("t").with("x", Values::Float(vec![-0.00001, -2.0, 2.8e-111, 0.0, 0.25, -0.0]));
        let cells: Vec<String> = (0..6).map(|r| t.columns[0].1.cell(r)).collect();
        assert_eq!(cells, ["-1e-5", "-2", "2.8e-111", "0", "0.25", "0"]);
        assert_eq!(Values::Real(vec![-0.0]).cell(0), "0.0");
        let text = t.to_aligned_text(4);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(&lines[1..3], ["0.0000", "-2.0000"], "{text}");
    }
}
