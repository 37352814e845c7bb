//! Tables: built from a tally, written to CSV (csv crate) or Parquet (polars, zstd, run
//! metadata in the file's key-value metadata), always through a staging folder that is
//! renamed into place, so a failed or interrupted run leaves no partial output.

mod tables;

pub use tables::{RunMeta, run_tables};

use std::fs;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::error::{Error, InputError};

/// A column's values.
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    /// Text.
    Text(Vec<String>),
    /// Whole numbers.
    Int(Vec<i64>),
    /// Real numbers (NaN is written as an empty CSV field).
    Float(Vec<f64>),
}

impl Values {
    fn len(&self) -> usize {
        match self {
            Values::Text(v) => v.len(),
            Values::Int(v) => v.len(),
            Values::Float(v) => v.len(),
        }
    }

    /// One cell as text (as in CSV).
    pub fn cell(&self, row: usize) -> String {
        match self {
            Values::Text(v) => v[row].clone(),
            Values::Int(v) => v[row].to_string(),
            Values::Float(v) if v[row].is_nan() => String::new(),
            Values::Float(v) => v[row].to_string(),
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

    /// The table as a polars DataFrame.
    pub fn to_frame(&self) -> Result<DataFrame, Error> {
        let cols: Vec<Column> = self
            .columns
            .iter()
            .map(|(name, values)| match values {
                Values::Text(v) => Column::new(name.into(), v),
                Values::Int(v) => Column::new(name.into(), v),
                Values::Float(v) => Column::new(name.into(), v),
            })
            .collect();
        DataFrame::new(self.rows(), cols).map_err(|e| table_error(&self.name, e))
    }

    /// Text as an aligned plain-text table (for stdout).
    pub fn to_aligned_text(&self, float_digits: usize) -> String {
        let cell = |v: &Values, r: usize| match v {
            Values::Float(x) if !x[r].is_nan() => format!("{:.*}", float_digits, x[r]),
            other => other.cell(r),
        };
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

fn table_error(name: &str, e: impl std::fmt::Display) -> Error {
    Error::Table { name: name.to_string(), message: e.to_string() }
}

fn io_error(path: &Path, source: std::io::Error) -> Error {
    Error::Io { path: path.display().to_string(), source }
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

/// Writes a table as zstd Parquet with this key-value metadata.
pub fn write_parquet(path: &Path, table: &Table, metadata: &[(String, String)]) -> Result<(), Error> {
    let mut df = table.to_frame()?;
    let file = fs::File::create(path).map_err(|e| io_error(path, e))?;
    ParquetWriter::new(file)
        .with_compression(ParquetCompression::Zstd(None))
        .with_key_value_metadata(Some(KeyValueMetadata::from_static(metadata.to_vec())))
        .finish(&mut df)
        .map_err(|e| table_error(&table.name, e))?;
    Ok(())
}

/// Reads a CSV or Parquet table back as a DataFrame.
pub fn read_frame(path: &Path) -> Result<DataFrame, Error> {
    let name = path.display().to_string();
    if path.extension().is_some_and(|e| e == "parquet") {
        let file = fs::File::open(path).map_err(|e| io_error(path, e))?;
        ParquetReader::new(file).finish().map_err(|e| table_error(&name, e))
    } else {
        CsvReadOptions::default()
            .with_has_header(true)
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
}

impl OutputDir {
    /// Checks the target and creates the staging folder; refuses an existing target
    /// unless `force`.
    pub fn create(target: &Path, force: bool) -> Result<OutputDir, InputError> {
        if target.exists() && !force {
            return Err(InputError::new(format!(
                "--out {}: the folder exists; choose another or pass --force to replace it",
                target.display()
            )));
        }
        let name = target
            .file_name()
            .ok_or_else(|| InputError::new(format!("--out {}: not a folder name", target.display())))?;
        let parent = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let staging = parent.join(format!(".{}.tmp-{}", name.to_string_lossy(), std::process::id()));
        let _ = fs::remove_dir_all(&staging);
        fs::create_dir_all(&staging)
            .map_err(|e| InputError::new(format!("--out {}: cannot write there ({e})", target.display())))?;
        Ok(OutputDir { target: target.to_path_buf(), staging, force, committed: false })
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

    /// Moves the staging folder into place (replacing the target when forced).
    pub fn commit(mut self) -> Result<PathBuf, Error> {
        let old = self.staging.with_extension("old");
        if self.target.exists() && self.force {
            fs::rename(&self.target, &old).map_err(|e| io_error(&self.target, e))?;
        }
        fs::rename(&self.staging, &self.target).map_err(|e| io_error(&self.target, e))?;
        let _ = fs::remove_dir_all(&old);
        self.committed = true;
        Ok(self.target.clone())
    }
}

impl Drop for OutputDir {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.staging);
        }
    }
}
