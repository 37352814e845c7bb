//! `draftsim report`: a balance report over output folders.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use draftsim::InputError;
use draftsim::study::{self};

use super::args::QuietArg;

/// Arguments of `draftsim report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Folders written with --out by run, compare, sweep, ladder, sensitivity, versus, tune,
    /// exploit, calibrate, train or exploitability.
    #[arg(required = true, value_hint = clap::ValueHint::DirPath)]
    pub dirs: Vec<PathBuf>,
    /// Folder for report.md, report.html (the same report, charts inline) and the SVG charts.
    #[arg(long, value_hint = clap::ValueHint::DirPath)]
    pub out: PathBuf,
    /// Replace an existing --out folder of results (one draftsim wrote, never other files).
    #[arg(long)]
    pub force: bool,
    /// The command that regenerates this report, printed at its top.
    #[arg(long)]
    pub regenerate: Option<String>,
    /// A Markdown file of findings: its `# ` title heads the report, the rest is the
    /// report's Findings section, after the summary.
    #[arg(long)]
    pub notes: Option<PathBuf>,
    /// Draw every chart; by default the report keeps 12, every study's first chart before
    /// any second one, and names the others.
    #[arg(long)]
    pub all_charts: bool,
    /// A limit on a health figure, e.g. 'timeouts<=0.01' or 'completion>=0.9' (repeatable):
    /// the report flags every figure whose interval crosses it.
    #[arg(long, value_name = "FIGURE<=X|FIGURE>=X")]
    pub require: Vec<String>,
    #[command(flatten)]
    pub quiet: QuietArg,
}

/// Writes the report.
pub fn report(args: ReportArgs) -> Result<()> {
    for (i, d) in args.dirs.iter().enumerate() {
        if !d.exists() {
            return Err(InputError::new(format!(
                "{}: no such folder; give a folder a command wrote with --out",
                d.display()
            ))
            .into());
        }
        if !d.is_dir() {
            return Err(InputError::new(format!(
                "{}: a file, not a folder of results; give a folder a command wrote with --out",
                d.display()
            ))
            .into());
        }
        // The same folder twice would be drawn twice.
        let same = |e: &std::path::PathBuf| e.canonicalize().ok() == d.canonicalize().ok();
        if args.dirs[..i].iter().any(same) {
            return Err(InputError::new(format!("{}: named twice; name each folder once", d.display())).into());
        }
    }
    draftsim::output::check_out_not_input(&args.out, &args.dirs)?;
    draftsim::output::check_out_beside_inputs(&args.out, &args.dirs)?;
    let notes = match &args.notes {
        Some(p) => Some(draftsim::error::read_named_file(
            "--notes",
            p,
            "give a Markdown file of findings, or leave out --notes",
        )?),
        None => None,
    };
    let requires = args.require.iter().map(|r| study::tune::Constraint::parse(r)).collect::<Result<Vec<_>, _>>()?;
    let out = super::interrupt::create(&args.out, args.force, false)?;
    let options = draftsim::report::ReportOptions {
        regenerate: args.regenerate.as_deref(),
        notes: notes.as_deref(),
        requires: &requires,
        all_charts: args.all_charts,
    };
    draftsim::report::write_report(&args.dirs, &out, &options)?;
    let path = super::interrupt::commit(out)?;
    args.quiet.note(&format!(
        "report written to {} (to read in a browser) and {}",
        path.join("report.html").display(),
        path.join("report.md").display()
    ));
    Ok(())
}
