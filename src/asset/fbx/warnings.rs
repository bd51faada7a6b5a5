//! Warnings of one load: each kind once, logged and kept (callers and tests can see what was
//! ignored or repaired).

use std::collections::HashSet;

use crate::text::printable;

pub(super) struct Warnings {
    file: String,
    seen: HashSet<String>,
    lines: Vec<String>,
}

impl Warnings {
    pub fn new(file: &str) -> Self {
        Self {
            file: file.to_string(),
            seen: HashSet::new(),
            lines: Vec::new(),
        }
    }

    /// Logs `message` unless a warning of kind `key` was given already.
    pub fn once(&mut self, key: impl Into<String>, message: String) {
        if self.seen.insert(key.into()) {
            let line = printable(&format!("{}: {message}", self.file)).into_owned();
            log::warn!("{line}");
            self.lines.push(line);
        }
    }

    pub fn into_lines(self) -> Vec<String> {
        self.lines
    }
}
