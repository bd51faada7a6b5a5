//! Printing helpers shared by the subcommands.

use std::io::Write;

use serde::Serialize;

use super::CliError;

/// Writes `value` as pretty JSON and a newline to stdout.
pub fn print_json(value: &impl Serialize) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let io = |source| CliError::Io {
        context: "writing to stdout".into(),
        source,
    };
    serde_json::to_writer_pretty(&mut out, value).map_err(|e| io(e.into()))?;
    writeln!(out).map_err(io)
}

/// Writes `text` to `path`, an error naming the file.
pub fn write_file(path: &std::path::Path, text: &str) -> Result<(), CliError> {
    std::fs::write(path, text).map_err(|source| CliError::Io {
        context: format!("writing {}", path.display()),
        source,
    })
}
