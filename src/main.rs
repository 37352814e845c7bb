//! The `draftsim` command: a thin layer over the library.

mod cli;

fn main() -> std::process::ExitCode {
    // Rust ignores SIGPIPE, so printing into a closed pipe (`draftsim ... | head`) would
    // panic; the default action ends the command quietly, as other Unix tools do.
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to the default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    cli::main()
}
