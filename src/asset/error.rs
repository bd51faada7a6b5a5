//! `LoadError`: what went wrong reading a model, and where (file, section, record).

use std::fmt;

use crate::anim::AnimError;
use crate::text::printable;

/// The class of a load failure, for callers and tests that react to the kind rather than the
/// wording.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The file could not be read (missing, permissions, ...).
    Io,
    /// The file ends before the content its counts promise.
    Truncated,
    /// Something other than the expected keyword, banner or structure.
    Syntax,
    /// A token that should be a number is not one.
    NotANumber,
    /// A number that is NaN or infinite.
    NonFinite,
    /// A count that does not match the content (or another count).
    CountMismatch,
    /// A vertex, joint, material, node or accessor index past the end of what it indexes.
    IndexOutOfRange,
    /// A joint whose parent does not come before it.
    ParentOrder,
    /// A count or size too large to be real (bounded by the file's size before allocating).
    TooLarge,
    /// Valid data that throng does not support (says what and why).
    Unsupported,
    /// Data that breaks a rule of the format not covered above.
    Invalid,
}

/// A model that could not be loaded. Displays as one line:
/// `soldier.m3d: BoneHierarchy: bone 5 has parent 40, which does not come before it`.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadError {
    /// File name as given (or the model name for generated models).
    pub file: String,
    /// Section of the file (`.m3d` banner title, glTF object such as `accessors[3]`).
    pub section: Option<String>,
    /// Record within the section (`vertex 12`, `bone 5`, ...), when one is to blame.
    pub record: Option<String>,
    /// The class of failure.
    pub kind: ErrorKind,
    /// What is wrong, as a sentence fragment.
    pub message: String,
}

impl LoadError {
    /// An error about `file` as a whole.
    pub fn new(file: impl Into<String>, kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            file: file.into(),
            section: None,
            record: None,
            kind,
            message: message.into(),
        }
    }

    /// Names the section the error is in.
    pub fn in_section(mut self, section: impl Into<String>) -> Self {
        self.section = Some(section.into());
        self
    }

    /// Names the record the error is in.
    pub fn at_record(mut self, record: impl Into<String>) -> Self {
        self.record = Some(record.into());
        self
    }

    /// Wraps an animation-core error (bad hierarchy, bad keys, bad mesh references).
    pub fn from_anim(file: impl Into<String>, section: &str, err: AnimError) -> Self {
        let kind = match &err {
            AnimError::ParentOrder { .. } | AnimError::ParentCycle { .. } => ErrorKind::ParentOrder,
            AnimError::ParentOutOfRange { .. } | AnimError::ClipIndex { .. } => {
                ErrorKind::IndexOutOfRange
            }
            AnimError::NonFinite { .. } => ErrorKind::NonFinite,
            AnimError::TooManyJoints { .. } | AnimError::Overflow { .. } => ErrorKind::TooLarge,
            AnimError::OffsetCount { .. } | AnimError::TrackCount { .. } => {
                ErrorKind::CountMismatch
            }
            AnimError::Mesh(m) if m.contains("keeps skinned positions finite") => {
                ErrorKind::TooLarge
            }
            AnimError::Mesh(m) if m.contains("not finite") => ErrorKind::NonFinite,
            AnimError::Mesh(_) => ErrorKind::IndexOutOfRange,
            _ => ErrorKind::Invalid,
        };
        Self::new(file, kind, err.to_string()).in_section(section)
    }
}

/// One line whatever the file and its names hold: every part goes through
/// [`printable`], so control characters from a file name or a name inside the file are
/// escaped rather than written to the terminal.
impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", printable(&self.file))?;
        if let Some(section) = &self.section {
            write!(f, "{}: ", printable(section))?;
        }
        if let Some(record) = &self.record
            && !self.message.starts_with(record.as_str())
        {
            write!(f, "{}: ", printable(record))?;
        }
        f.write_str(&printable(&self.message))
    }
}

impl std::error::Error for LoadError {}
