//! The state one load carries around: the file name every error and warning names, the
//! warnings already given (each kind is said once per file), and the decoding budget.

use std::collections::HashSet;

use crate::asset::budget::Budget;
use crate::asset::{ErrorKind, LoadError, LoadOptions};
use crate::text::printable;

/// One load: file name, warnings, budget.
pub(super) struct Ctx {
    /// The file name as the caller gave it; every error and warning starts with it.
    pub file: String,
    warned: HashSet<String>,
    warnings: Vec<String>,
    /// The load's memory budget: everything the file makes the loader hold is charged here.
    pub budget: Budget,
    /// Cap on any one external file read (`LoadOptions::max_file_size`).
    pub max_file_size: u64,
}

impl Ctx {
    /// A load of `file` of `input_bytes` bytes under the default limits.
    #[cfg(test)]
    pub fn new(file: &str, input_bytes: u64) -> Self {
        Self::with_options(file, input_bytes, &LoadOptions::default())
    }

    /// A load of `file` of `input_bytes` bytes under `options`' limits.
    pub fn with_options(file: &str, input_bytes: u64, options: &LoadOptions) -> Self {
        Self {
            file: file.to_string(),
            warned: HashSet::new(),
            warnings: Vec::new(),
            budget: Budget::new(input_bytes, options),
            max_file_size: options.max_file_size,
        }
    }

    /// Adds bytes that arrived after the start (external buffers and images).
    pub fn add_input(&mut self, bytes: u64) {
        self.budget.add_input(bytes);
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

    /// Reserves `bytes` for `what` in `section` before they are allocated (see
    /// [`crate::asset::budget`]). Every accessor read, node table, skeleton and clip passes
    /// through here, so a small file cannot make the loader allocate without bound (reading
    /// one accessor from thousands of primitives, thousands of empty animations over
    /// thousands of joints, millions of empty nodes).
    pub fn charge_for(
        &mut self,
        section: &str,
        bytes: u64,
        what: impl FnOnce() -> String,
    ) -> Result<(), LoadError> {
        let file = &self.file;
        self.budget
            .charge(bytes, what)
            .map_err(|e| e.into_load_error(file.clone(), section))
    }

    /// [`Ctx::charge_for`] the decoded data of `section` (an accessor, a primitive).
    pub fn charge(&mut self, section: &str, bytes: u64) -> Result<(), LoadError> {
        self.charge_for(section, bytes, || "its decoded data".to_string())
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
