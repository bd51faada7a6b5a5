//! `throng`: the command-line program. Parses arguments, wires the library together and
//! prints results; the math lives in the library.

mod cli;

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    restore_default_sigpipe();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format(|buf, record| {
            // Warnings quote file names and names from files: escaped like every other line.
            let text = record.args().to_string();
            writeln!(
                buf,
                "[{:<5} {}] {}",
                record.level(),
                record.target(),
                throng::text::printable(&text)
            )
        })
        .init();
    let args = match cli::parse() {
        Ok(args) => args,
        Err(code) => return code,
    };
    match cli::execute(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // One line, whatever went wrong: the chain of causes joined by ": ", with any
            // control character from an argument or a file escaped. A failure to write it
            // leaves only the exit code to tell.
            let line = format!("{e:#}");
            let _ = writeln!(
                std::io::stderr().lock(),
                "throng: error: {}",
                throng::text::printable(&line)
            );
            // Arguments that only make sense once the model is loaded (a --pose clip, say)
            // are still argument errors.
            if matches!(e, cli::CliError::Argument(_)) {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// Rust ignores SIGPIPE, which turns `throng info --json | head` into a write error (or a
/// panic inside `println!`). Command-line tools conventionally just stop when the reader goes
/// away, so restore the default disposition.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
