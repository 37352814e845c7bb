//! The `draftsim` command: a thin layer over the library.

mod cli;

fn main() -> std::process::ExitCode {
    // SIGPIPE stays ignored (Rust's default): a reader gone (`draftsim ... 2>&1 | head`)
    // must not end a command before its tables are written. Writes to the closed pipe then
    // fail, and the command lets those failures pass and ends as it would have.
    cli::main()
}
