//! The state one load carries around: the file name every error and warning names, the
//! warnings already given (each kind is said once per file), and the decoding budget.

use std::collections::HashSet;

use crate::asset::{ErrorKind, LoadError};
use crate::text::printable;

/// Decoded data a load may produce on top of what its inputs justify (see [`Ctx::charge`]).
const BASE_BUDGET: u64 = 64 << 20;
/// How many decoded bytes each input byte may justify.
const BUDGET_PER_INPUT_BYTE: u64 = 16;

/// One load: file name, warnings, budget.
pub(super) struct Ctx {
    /// The file name as the caller gave it; every error and warning starts with it.
    pub file: String,
    warned: HashSet<String>,
    warnings: Vec<String>,
    budget: u64,
    /// Cap on any one external file read (`LoadOptions::max_file_size`).
    pub max_file_size: u64,
}

impl Ctx {
    /// A load of `file` whose inputs (file and buffers) hold `input_bytes` bytes.
    pub fn new(file: &str, input_bytes: u64) -> Self {
        Self {
            file: file.to_string(),
            warned: HashSet::new(),
            warnings: Vec::new(),
            budget: BASE_BUDGET.saturating_add(input_bytes.saturating_mul(BUDGET_PER_INPUT_BYTE)),
            max_file_size: crate::asset::source::DEFAULT_MAX_FILE_SIZE,
        }
    }

    /// Adds bytes that arrived after the start (external buffers and images).
    pub fn add_input(&mut self, bytes: u64) {
        self.budget = self
            .budget
            .saturating_add(bytes.saturating_mul(BUDGET_PER_INPUT_BYTE));
    }

    /// An error in `section` (such as `accessors[3]`).
    pub fn error(
        &self,
        kind: ErrorKind,
        section: impl Into<String>,
        message: impl Into<String>,
    ) -> LoadError {
        LoadError::new(self.file.clone(), kind, message).in_section(section)
    }

    /// Logs `message` unless a warning with the same `key` was already given for this file.
    pub fn warn_once(&mut self, key: impl Into<String>, message: impl AsRef<str>) {
        if self.warned.insert(key.into()) {
            let line = flatten(&format!("{}: {}", self.file, message.as_ref()));
            log::warn!("{line}");
            self.warnings.push(line);
        }
    }

    /// The warnings given so far, one line each.
    pub fn into_warnings(self) -> Vec<String> {
        self.warnings
    }

    /// Reserves `bytes` of decoded output. Every accessor read passes through here before it
    /// allocates, so a small file cannot make the loader allocate without bound (for example
    /// by reading one accessor from thousands of primitives, or by declaring a huge
    /// accessor that has no buffer behind it).
    pub fn charge(&mut self, section: &str, bytes: u64) -> Result<(), LoadError> {
        if bytes > self.budget {
            return Err(self.error(
                ErrorKind::TooLarge,
                section,
                format!(
                    "decoding needs {bytes} more bytes, more than the file's size can justify \
                     ({} left)",
                    self.budget
                ),
            ));
        }
        self.budget -= bytes;
        Ok(())
    }
}

/// Errors are one line even when the file's own strings (node names, URIs) hold line breaks
/// or other control characters: those are escaped (the one rule of [`printable`], which
/// `LoadError`'s display applies again harmlessly: escaping twice changes nothing).
pub(super) fn one_line(mut e: LoadError) -> LoadError {
    e.file = flatten(&e.file);
    e.section = e.section.map(|s| flatten(&s));
    e.record = e.record.map(|r| flatten(&r));
    e.message = flatten(&e.message);
    e
}

fn flatten(s: &str) -> String {
    printable(s).into_owned()
}
