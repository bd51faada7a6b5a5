//! Bounds-checked little-endian reading of fixed-size records. SDKMESH files are C structs
//! written straight to disk, located by 64-bit offsets and counts in their headers: every
//! table is checked to lie inside the file (with overflow-free arithmetic) before a single
//! record is read, so no count reaches an allocation or an index unchecked.

use crate::asset::{ErrorKind, LoadError};

/// Results of the loader.
pub(super) type Result<T> = std::result::Result<T, LoadError>;

/// One file's bytes and the name its errors carry.
#[derive(Clone, Copy)]
pub(super) struct Bytes<'a> {
    /// The file name errors start with.
    pub(super) file: &'a str,
    /// The whole file.
    pub(super) data: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub(super) fn new(file: &'a str, data: &'a [u8]) -> Self {
        Self { file, data }
    }

    /// An error about `section` of this file.
    pub(super) fn error(
        &self,
        section: &str,
        kind: ErrorKind,
        message: impl Into<String>,
    ) -> LoadError {
        LoadError::new(self.file, kind, message).in_section(section)
    }

    /// `count` records of `size` bytes starting at `offset`, after checking that they lie
    /// inside the file; `what` names them in the error (`frames`, `indices`, ...).
    pub(super) fn table(
        &self,
        section: &str,
        offset: u64,
        count: u64,
        size: usize,
        what: &str,
    ) -> Result<&'a [u8]> {
        let len = self.data.len() as u64;
        let Some(bytes) = count.checked_mul(size as u64) else {
            return Err(self.error(
                section,
                ErrorKind::TooLarge,
                format!("{count} {what} cannot fit in any file"),
            ));
        };
        let end = offset.checked_add(bytes);
        match end {
            Some(end) if end <= len => {
                // Both bounds are at most the file's length, so they fit in usize.
                Ok(self.data.get(offset as usize..end as usize).unwrap_or(&[]))
            }
            _ => {
                // A count the file could never hold is too large; anything else is a file cut short.
                let kind = if end.is_none() || (count > 1 && bytes > len) {
                    ErrorKind::TooLarge
                } else {
                    ErrorKind::Truncated
                };
                Err(self.error(
                    section,
                    kind,
                    format!(
                        "{count} {what} of {size} bytes at offset {offset} run past the end of \
                         the {len}-byte file"
                    ),
                ))
            }
        }
    }
}

/// The little-endian `u32` at `at` in a record whose size was checked (0 past its end, which
/// the record sizes make unreachable).
pub(super) fn u32_at(record: &[u8], at: usize) -> u32 {
    array_at(record, at).map_or(0, u32::from_le_bytes)
}

/// The little-endian `u64` at `at` (see [`u32_at`]).
pub(super) fn u64_at(record: &[u8], at: usize) -> u64 {
    array_at(record, at).map_or(0, u64::from_le_bytes)
}

/// The little-endian `u16` at `at` (see [`u32_at`]).
pub(super) fn u16_at(record: &[u8], at: usize) -> u16 {
    array_at(record, at).map_or(0, u16::from_le_bytes)
}

/// The little-endian `f32` at `at` (see [`u32_at`]).
pub(super) fn f32_at(record: &[u8], at: usize) -> f32 {
    array_at(record, at).map_or(0.0, f32::from_le_bytes)
}

/// `N` consecutive `f32` from `at`.
pub(super) fn f32s_at<const N: usize>(record: &[u8], at: usize) -> [f32; N] {
    std::array::from_fn(|i| f32_at(record, at + 4 * i))
}

/// The byte at `at` (see [`u32_at`]).
pub(super) fn u8_at(record: &[u8], at: usize) -> u8 {
    record.get(at).copied().unwrap_or(0)
}

fn array_at<const N: usize>(record: &[u8], at: usize) -> Option<[u8; N]> {
    record.get(at..at.checked_add(N)?)?.try_into().ok()
}

/// A fixed-size `char[N]` field: the bytes up to the first NUL (all of them when there is
/// none), as text with invalid UTF-8 replaced. Names are kept verbatim otherwise (empty and
/// repeated names included).
pub(super) fn name_at(record: &[u8], at: usize, len: usize) -> String {
    let rest = record.get(at..).unwrap_or(&[]);
    let field = rest.get(..len).unwrap_or(rest);
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    String::from_utf8_lossy(field.get(..end).unwrap_or(&[])).into_owned()
}

/// A name for a one-line message: quoted, escaped, at most 40 characters.
pub(super) fn show(name: &str) -> String {
    const MAX: usize = 40;
    let mut shown: String = name
        .chars()
        .take(MAX)
        .collect::<String>()
        .escape_debug()
        .collect();
    if name.chars().count() > MAX {
        shown.push_str("...");
    }
    format!("'{shown}'")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_must_lie_inside_the_file() {
        let b = Bytes::new("t.sdkmesh", &[0u8; 16]);
        assert_eq!(b.table("s", 4, 3, 4, "things").map(<[u8]>::len), Ok(12));
        let e = b.table("s", 8, 3, 4, "things").expect_err("past the end");
        assert_eq!(e.kind, ErrorKind::Truncated);
        let e = b
            .table("s", 0, u64::MAX, 8, "things")
            .expect_err("overflow");
        assert_eq!(e.kind, ErrorKind::TooLarge);
        let e = b.table("s", u64::MAX, 1, 1, "things").expect_err("offset");
        assert_eq!(e.kind, ErrorKind::TooLarge);
    }

    #[test]
    fn names_stop_at_the_first_nul_and_reads_past_the_end_are_zero() {
        assert_eq!(name_at(b"Head\0junk", 0, 9), "Head");
        assert_eq!(name_at(b"abc", 0, 100), "abc");
        assert_eq!(u32_at(&[1, 0, 0], 0), 0);
        assert_eq!(u32_at(&[1, 0, 0, 0], 0), 1);
    }
}
