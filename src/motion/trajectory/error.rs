//! The one error type of the trajectory readers: a single line naming the file, the place in it
//! and what is wrong, fit for a command line or a log.

use std::fmt;

/// Why a trajectory file could not be read.
///
/// `Display` gives one line, `FILE: line 12: what is wrong` (or `FILE: what is wrong` when there
/// is no better place than the whole file). Control characters in any part (a file name with a
/// newline, a database's own message) are shown as spaces so the line stays one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrajectoryError {
    /// The file as the caller named it.
    pub file: String,
    /// Where in the file: `"line 12"`, `"row 7 of trajectory_data"`, `"table metadata"`.
    pub at: Option<String>,
    /// What is wrong, in words.
    pub message: String,
}

impl TrajectoryError {
    /// An error about the whole file.
    pub(crate) fn file(file: &str, message: impl Into<String>) -> Self {
        Self {
            file: file.to_owned(),
            at: None,
            message: message.into(),
        }
    }

    /// An error at a place in the file.
    pub(crate) fn at(file: &str, at: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            file: file.to_owned(),
            at: Some(at.into()),
            message: message.into(),
        }
    }

    /// An error on a line of a text file (1-based).
    pub(crate) fn line(file: &str, line: u64, message: impl Into<String>) -> Self {
        Self::at(file, format!("line {line}"), message)
    }
}

/// Writes `text` with every control character (newlines included) replaced by a space.
fn write_one_line(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    for c in text.chars() {
        if c.is_control() {
            f.write_str(" ")?;
        } else {
            write!(f, "{c}")?;
        }
    }
    Ok(())
}

impl fmt::Display for TrajectoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_one_line(f, &self.file)?;
        f.write_str(": ")?;
        if let Some(at) = &self.at {
            write_one_line(f, at)?;
            f.write_str(": ")?;
        }
        write_one_line(f, &self.message)
    }
}

impl std::error::Error for TrajectoryError {}

#[cfg(test)]
mod tests {
    use super::TrajectoryError;

    #[test]
    fn display_is_one_line() {
        let e = TrajectoryError::at("a\nb.txt", "line 3", "bad\r\nthing");
        assert_eq!(e.to_string(), "a b.txt: line 3: bad  thing");
        assert_eq!(TrajectoryError::file("f", "empty").to_string(), "f: empty");
    }
}
