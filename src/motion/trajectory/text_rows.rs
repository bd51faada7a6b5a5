//! What every text reader does the same way once its header is read: step to the next data
//! line, parse it, name the line in any error, and stop for good at the end or the first error.
//! Each reader keeps only how one line becomes rows, and gets `Iterator` and [`RowSource`] from
//! one line of [`row_per_line`] (or [`row_source_from_lines`] where a line gives several rows).
//!
//! [`RowSource`]: super::RowSource

use std::io::BufRead;

use super::TrajectoryError;
use super::lines::Lines;

/// A text file's data lines (blank and `#` lines skipped), walked once.
pub(crate) struct DataLines<R> {
    lines: Lines<R>,
    /// The current line is data that opening the file read (to learn its layout) and that is
    /// yet to be parsed, so the next step stays on it.
    pending: bool,
    /// The end or an error was met: a reader yields nothing after either.
    done: bool,
}

impl<R: BufRead> DataLines<R> {
    /// Continues `lines` from where opening the file left them; `on_data` says the current line
    /// is the first data line, still to be parsed.
    pub(crate) fn new(lines: Lines<R>, on_data: bool) -> Self {
        Self {
            lines,
            pending: on_data,
            done: false,
        }
    }

    /// Moves to the next data line and parses it with `parse`, whose message becomes an error on
    /// that line; `None` once the file or a previous error ended the walk.
    pub(crate) fn next_row<T>(
        &mut self,
        parse: impl FnOnce(&Lines<R>) -> Result<T, String>,
    ) -> Option<Result<T, TrajectoryError>> {
        if self.done {
            return None;
        }
        if !std::mem::take(&mut self.pending) {
            match self.lines.advance_to_data() {
                Ok(true) => {}
                Ok(false) => {
                    self.done = true;
                    return None;
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
        let parsed = parse(&self.lines).map_err(|e| self.lines.error(e));
        self.done = parsed.is_err();
        Some(parsed)
    }

    /// The file's name, as given to the reader.
    pub(crate) fn file(&self) -> &str {
        self.lines.file()
    }

    /// The current line (`"line 12"`), for messages about the row it gave.
    pub(crate) fn location(&self) -> Option<String> {
        Some(format!("line {}", self.lines.number()))
    }
}

/// Implements [`RowSource`](super::RowSource) for a reader whose `lines` field is a
/// [`DataLines`]. A macro, invoked beside each reader so that `lines` stays private: a blanket
/// impl would put a crate-private trait into the public readers' impls.
macro_rules! row_source_from_lines {
    ($reader:ident) => {
        impl<R: std::io::BufRead> $crate::motion::trajectory::RowSource for $reader<R> {
            fn file(&self) -> &str {
                self.lines.file()
            }

            fn location(&self) -> Option<String> {
                self.lines.location()
            }
        }
    };
}

/// Implements `Iterator` and [`RowSource`](super::RowSource) for a reader of one row per data
/// line: its `lines` field is a [`DataLines`] and its `layout` field parses a line with
/// `parse(&mut self, &Lines<impl BufRead>) -> Result<Row, String>` (or `&self`). A macro, as
/// `Iterator` is not this crate's trait and so cannot be implemented once for all the readers.
macro_rules! row_per_line {
    ($reader:ident) => {
        impl<R: std::io::BufRead> Iterator for $reader<R> {
            type Item = Result<
                $crate::motion::trajectory::Row,
                $crate::motion::trajectory::TrajectoryError,
            >;

            fn next(&mut self) -> Option<Self::Item> {
                self.lines.next_row(|line| self.layout.parse(line))
            }
        }

        $crate::motion::trajectory::text_rows::row_source_from_lines!($reader);
    };
}

pub(crate) use {row_per_line, row_source_from_lines};
