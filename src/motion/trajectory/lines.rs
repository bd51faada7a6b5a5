//! Reading untrusted text line by line: a bounded line length, UTF-8 checked, the byte-order
//! mark and `\r\n` endings removed, and the line number kept for messages.

use std::io::{BufRead, Read};

use super::TrajectoryError;

/// Longer lines are refused: no trajectory format needs them, and a file without newlines
/// would otherwise be read whole into one line.
pub(crate) const MAX_LINE: usize = 1 << 20;

/// The lines of a text file.
pub(crate) struct Lines<R> {
    reader: R,
    file: String,
    number: u64,
    buf: Vec<u8>,
    text: String,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `reader`, naming `file` in errors.
    pub(crate) fn new(file: &str, reader: R) -> Self {
        Self {
            reader,
            file: file.to_owned(),
            number: 0,
            buf: Vec::new(),
            text: String::new(),
        }
    }

    /// The file name given to [`Lines::new`].
    pub(crate) fn file(&self) -> &str {
        &self.file
    }

    /// The current line's number (1-based; 0 before the first).
    pub(crate) fn number(&self) -> u64 {
        self.number
    }

    /// An error on the current line.
    pub(crate) fn error(&self, message: impl Into<String>) -> TrajectoryError {
        TrajectoryError::line(&self.file, self.number, message)
    }

    /// The current line, without its ending.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// Moves to the next line; `false` at the end of the file.
    pub(crate) fn advance(&mut self) -> Result<bool, TrajectoryError> {
        self.buf.clear();
        self.text.clear();
        let limit = MAX_LINE as u64 + 1;
        let read = (&mut self.reader)
            .take(limit)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| {
                TrajectoryError::line(&self.file, self.number + 1, format!("cannot read: {e}"))
            })?;
        if read == 0 {
            return Ok(false);
        }
        self.number += 1;
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
        } else if self.buf.len() > MAX_LINE {
            return Err(self.error(format!("longer than {} bytes", MAX_LINE)));
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        let start = if self.number == 1 && self.buf.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        match std::str::from_utf8(&self.buf[start..]) {
            Ok(text) => self.text.push_str(text),
            Err(e) => {
                let column = e.valid_up_to() + start + 1;
                return Err(self.error(format!("byte {column} is not UTF-8 text")));
            }
        }
        Ok(true)
    }

    /// Moves to the next line that is neither blank nor a `#` comment; `false` at the end.
    pub(crate) fn advance_to_data(&mut self) -> Result<bool, TrajectoryError> {
        while self.advance()? {
            let t = self.text.trim();
            if !t.is_empty() && !t.starts_with('#') {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Moves to the next data line, or fails with `missing` (about the whole file) at the end:
    /// for the header and first row that a reader must find before it can stream.
    pub(crate) fn expect_data(&mut self, missing: &str) -> Result<(), TrajectoryError> {
        if self.advance_to_data()? {
            Ok(())
        } else {
            Err(TrajectoryError::file(&self.file, missing))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Lines, MAX_LINE};

    #[test]
    fn endings_bom_and_limits() {
        let mut l = Lines::new("f", &b"\xEF\xBB\xBFa b\r\n\n# c\nd"[..]);
        assert!(l.advance().unwrap());
        assert_eq!((l.text(), l.number()), ("a b", 1));
        assert!(l.advance_to_data().unwrap());
        assert_eq!((l.text(), l.number()), ("d", 4));
        assert!(!l.advance().unwrap());

        let long = vec![b'1'; MAX_LINE + 10];
        let mut l = Lines::new("f", &long[..]);
        assert!(
            l.advance()
                .unwrap_err()
                .to_string()
                .starts_with("f: line 1: longer")
        );
        let mut l = Lines::new("f", &b"ok\n\xFF\xFE\n"[..]);
        assert!(l.advance().unwrap());
        assert_eq!(
            l.advance().unwrap_err().to_string(),
            "f: line 2: byte 1 is not UTF-8 text"
        );
    }
}
