//! `Reader`: the tokenizer plus what an error must say. Every value a section parser reads goes
//! through here, so every failure is a [`LoadError`] naming the file, the current section and
//! the line; the section parsers add the record (`vertex 12`, `bone 5`, ...).

use std::fmt;

use super::lexer::Lexer;
use super::numbers::{IntError, parse_f32, parse_int};
use crate::asset::{ErrorKind, LoadError};
use crate::text::printable;

/// Results of the parser.
pub(super) type Result<T> = std::result::Result<T, LoadError>;

/// What a section parser expected to read, for error messages.
#[derive(Clone, Copy)]
enum Expected {
    Keyword(&'static str),
    OneOf(&'static [&'static str]),
    Label(&'static str, usize, &'static str),
    Number,
    Integer,
    Word,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Keyword(k) => write!(f, "'{k}'"),
            Self::OneOf(ks) => {
                let quoted: Vec<String> = ks.iter().map(|k| format!("'{k}'")).collect();
                write!(f, "{}", quoted.join(" or "))
            }
            Self::Label(prefix, i, suffix) => write!(f, "'{prefix}{i}{suffix}'"),
            Self::Number => f.write_str("a number"),
            Self::Integer => f.write_str("an integer"),
            Self::Word => f.write_str("a word"),
        }
    }
}

/// A token for a one-line message: at most 40 bytes, invalid UTF-8 replaced, control
/// characters escaped (the one rule of [`printable`]).
pub(super) fn show(token: &[u8]) -> String {
    const MAX: usize = 40;
    let text = String::from_utf8_lossy(token.get(..MAX).unwrap_or(token));
    let mut shown = printable(&text).into_owned();
    if token.len() > MAX {
        shown.push_str("...");
    }
    shown
}

/// The title of a banner token (`***Materials***` gives `Materials`), `None` for other tokens.
pub(super) fn banner_title(token: &[u8]) -> Option<&[u8]> {
    if token.first() != Some(&b'*') {
        return None;
    }
    let start = token.iter().position(|&c| c != b'*').unwrap_or(token.len());
    let end = token
        .iter()
        .rposition(|&c| c != b'*')
        .map_or(start, |e| e + 1);
    Some(token.get(start..end.max(start)).unwrap_or_default())
}

/// Puts `prefix` in front of the record an error names (`clip Take1` + `bone 3 key 9`).
pub(super) fn nest(mut err: LoadError, prefix: impl Into<String>) -> LoadError {
    let prefix = prefix.into();
    err.record = Some(match err.record.take() {
        Some(inner) => format!("{prefix} {inner}"),
        None => prefix,
    });
    err
}

/// Tokens of one file, read section by section.
pub(super) struct Reader<'a> {
    lex: Lexer<'a>,
    file: &'a str,
    section: &'static str,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`; `file` names the file in errors.
    pub(super) fn new(file: &'a str, bytes: &'a [u8]) -> Self {
        Self {
            lex: Lexer::new(bytes),
            file,
            section: super::HEADER,
        }
    }

    /// The file name errors use.
    pub(super) fn file(&self) -> &'a str {
        self.file
    }

    /// The 1-based line of the last token read (counted from the start: for errors only).
    pub(super) fn line(&self) -> usize {
        self.lex.line()
    }

    /// Where the last token read starts (see [`Lexer::position`]).
    pub(super) fn position(&self) -> usize {
        self.lex.position()
    }

    /// The lines of increasing byte offsets, in one pass.
    pub(super) fn lines_at(&self, positions: &[usize]) -> Vec<usize> {
        self.lex.lines_at(positions)
    }

    /// The line of the token `skip` tokens after the one starting at byte `from`.
    pub(super) fn line_of_token(&self, from: usize, skip: usize) -> usize {
        self.lex.line_of_token(from, skip)
    }

    /// An error in the current section, at the line of the last token read.
    pub(super) fn error(&self, kind: ErrorKind, message: impl fmt::Display) -> LoadError {
        LoadError::new(
            self.file,
            kind,
            format!("{message} (line {})", self.lex.line()),
        )
        .in_section(self.section)
    }

    /// Reads the banner of section `title` and makes it the current section.
    pub(super) fn enter(&mut self, title: &'static str) -> Result<()> {
        self.section = title;
        let Some(token) = self.lex.next_token() else {
            return Err(self.error(
                ErrorKind::Truncated,
                format_args!("the file ends where the banner '{title}' was expected"),
            ));
        };
        match banner_title(token) {
            Some(found) if found == title.as_bytes() => Ok(()),
            Some(found) => Err(self.error(
                ErrorKind::Syntax,
                format_args!(
                    "expected the banner '{title}', found the banner '{}'",
                    show(found)
                ),
            )),
            None => Err(self.error(
                ErrorKind::Syntax,
                format_args!("expected the banner '{title}', found '{}'", show(token)),
            )),
        }
    }

    /// The next token, which must belong to the current record: a banner means the section
    /// ended early (fewer records than promised), the end of input means truncation.
    #[inline]
    fn data(&mut self, expected: Expected) -> Result<&'a [u8]> {
        match self.lex.next_token() {
            Some(token) if token.first() != Some(&b'*') => Ok(token),
            Some(token) => Err(self.error(
                ErrorKind::CountMismatch,
                format_args!(
                    "expected {expected}, found the banner '{}': the section has fewer records \
                     than the header promises",
                    show(banner_title(token).unwrap_or(token))
                ),
            )),
            None => Err(self.error(
                ErrorKind::Truncated,
                format_args!("the file ends where {expected} was expected"),
            )),
        }
    }

    /// Reads the keyword `keyword` (for example `Position:`).
    #[inline]
    pub(super) fn keyword(&mut self, keyword: &'static str) -> Result<()> {
        let token = self.data(Expected::Keyword(keyword))?;
        if token == keyword.as_bytes() {
            Ok(())
        } else {
            Err(self.error(
                ErrorKind::Syntax,
                format_args!("expected '{keyword}', found '{}'", show(token)),
            ))
        }
    }

    /// Reads one of `keywords` and says which (its index).
    pub(super) fn one_of(&mut self, keywords: &'static [&'static str]) -> Result<usize> {
        let token = self.data(Expected::OneOf(keywords))?;
        keywords
            .iter()
            .position(|k| k.as_bytes() == token)
            .ok_or_else(|| {
                self.error(
                    ErrorKind::Syntax,
                    format_args!(
                        "expected {}, found '{}'",
                        Expected::OneOf(keywords),
                        show(token)
                    ),
                )
            })
    }

    /// Reads a numbered label such as `BoneOffset3` or `ParentIndexOfBone3:`.
    pub(super) fn label(
        &mut self,
        prefix: &'static str,
        index: usize,
        suffix: &'static str,
    ) -> Result<()> {
        let token = self.data(Expected::Label(prefix, index, suffix))?;
        let digits = token
            .strip_prefix(prefix.as_bytes())
            .and_then(|rest| rest.strip_suffix(suffix.as_bytes()));
        let matches = digits
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit) && parse_int(d) == Ok(index as i64));
        if matches {
            Ok(())
        } else {
            Err(self.error(
                ErrorKind::Syntax,
                format_args!(
                    "expected '{prefix}{index}{suffix}', found '{}'",
                    show(token)
                ),
            ))
        }
    }

    /// Reads a finite number.
    #[inline]
    pub(super) fn f32(&mut self) -> Result<f32> {
        let token = self.data(Expected::Number)?;
        match parse_f32(token) {
            Some(v) if v.is_finite() => Ok(v),
            Some(_) => Err(self.error(
                ErrorKind::NonFinite,
                format_args!("'{}' is not a finite number", show(token)),
            )),
            None => Err(self.error(
                ErrorKind::NotANumber,
                format_args!("expected a number, found '{}'", show(token)),
            )),
        }
    }

    /// Reads `N` finite numbers.
    #[inline]
    pub(super) fn floats<const N: usize>(&mut self) -> Result<[f32; N]> {
        let mut values = [0.0; N];
        for v in &mut values {
            *v = self.f32()?;
        }
        Ok(values)
    }

    /// Reads an integer.
    #[inline]
    pub(super) fn int(&mut self) -> Result<i64> {
        let token = self.data(Expected::Integer)?;
        parse_int(token).map_err(|e| match e {
            IntError::NotInteger => self.error(
                ErrorKind::NotANumber,
                format_args!("expected an integer, found '{}'", show(token)),
            ),
            IntError::Overflow => self.error(
                ErrorKind::TooLarge,
                format_args!("{} is too large", show(token)),
            ),
        })
    }

    /// Reads a count: an integer from 0 to `u32::MAX`.
    pub(super) fn count(&mut self) -> Result<usize> {
        let value = self.int()?;
        if value < 0 {
            return Err(self.error(
                ErrorKind::Invalid,
                format_args!("a count cannot be negative, found {value}"),
            ));
        }
        match u32::try_from(value) {
            Ok(v) => Ok(v as usize),
            Err(_) => Err(self.error(
                ErrorKind::TooLarge,
                format_args!("the count {value} is too large"),
            )),
        }
    }

    /// Reads an index into something with `len` entries (`what` names them in errors).
    #[inline]
    pub(super) fn index(&mut self, len: usize, what: &str) -> Result<u32> {
        let value = self.int()?;
        match u32::try_from(value) {
            Ok(v) if (v as usize) < len => Ok(v),
            _ => Err(self.error(
                ErrorKind::IndexOutOfRange,
                format_args!("{what} index {value} is out of range (there are {len})"),
            )),
        }
    }

    /// Reads any token that is not a banner (a name, a file name).
    pub(super) fn word(&mut self) -> Result<&'a [u8]> {
        self.data(Expected::Word)
    }

    /// Reads a word as UTF-8 text.
    pub(super) fn text(&mut self) -> Result<String> {
        let token = self.word()?;
        match std::str::from_utf8(token) {
            Ok(text) => Ok(text.to_string()),
            Err(_) => Err(self.error(
                ErrorKind::Syntax,
                format_args!("'{}' is not valid UTF-8", show(token)),
            )),
        }
    }

    /// The next token, not consumed.
    pub(super) fn peek(&self) -> Option<&'a [u8]> {
        self.lex.peek()
    }

    /// Size of the whole file in bytes.
    pub(super) fn file_len(&self) -> usize {
        self.lex.len()
    }

    /// Whether only whitespace is left.
    pub(super) fn at_end(&self) -> bool {
        self.lex.peek().is_none()
    }

    /// Fails unless `count` records of at least `min_bytes` each can still fit in the file:
    /// [`ErrorKind::TooLarge`] if they could not fit even in the whole file, otherwise
    /// [`ErrorKind::Truncated`]. Called before allocating for a count read from the file.
    pub(super) fn fits(&self, count: usize, min_bytes: usize, noun: &str) -> Result<()> {
        let need = (count as u64).saturating_mul(min_bytes as u64);
        let (remaining, total) = (self.lex.remaining() as u64, self.lex.len() as u64);
        if need <= remaining {
            return Ok(());
        }
        let (kind, room) = if need > total {
            (ErrorKind::TooLarge, format!("the whole file has {total}"))
        } else {
            (ErrorKind::Truncated, format!("only {remaining} remain"))
        };
        Err(self.error(
            kind,
            format_args!("{count} {noun} need at least {need} bytes, but {room}"),
        ))
    }

    /// Called after the last record of a section: a token that starts another record of the
    /// section (`starts_record`) means more records than the header promises. Anything else
    /// is left for the next banner (or the end of the file) to judge.
    pub(super) fn end_of_records(
        &mut self,
        count: usize,
        noun: &str,
        starts_record: fn(&[u8]) -> bool,
    ) -> Result<()> {
        match self.lex.peek() {
            Some(token) if banner_title(token).is_none() && starts_record(token) => {
                self.lex.next_token();
                Err(self.error(
                    ErrorKind::CountMismatch,
                    format_args!(
                        "found '{}' after the {count} {noun} the header promises",
                        show(token)
                    ),
                ))
            }
            _ => Ok(()),
        }
    }

    /// Fails unless only whitespace is left.
    pub(super) fn finish(&mut self) -> Result<()> {
        match self.lex.next_token() {
            None => Ok(()),
            Some(token) => Err(self.error(
                ErrorKind::Syntax,
                format_args!("unexpected '{}' after the last section", show(token)),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn banners_and_shown_tokens() {
        assert_eq!(banner_title(b"***Materials**"), Some(&b"Materials"[..]));
        assert_eq!(banner_title(b"*****"), Some(&b""[..]));
        assert_eq!(banner_title(b"*x"), Some(&b"x"[..]));
        assert_eq!(banner_title(b"Materials"), None);
        assert_eq!(show(b"a\nb\xff"), "a\\nb\u{fffd}");
        assert_eq!(show(&[b'x'; 50]).len(), 43);
    }

    #[test]
    fn errors_name_file_section_and_line() {
        let mut r = Reader::new("t.m3d", b"***m3d-File-Header***\n#Materials x");
        r.enter(super::super::HEADER).expect("banner");
        r.keyword("#Materials").expect("keyword");
        let e = r.count().unwrap_err();
        assert_eq!(e.kind, ErrorKind::NotANumber);
        assert_eq!(
            e.to_string(),
            "t.m3d: m3d-File-Header: expected an integer, found 'x' (line 2)"
        );
        let e = r.f32().unwrap_err();
        assert_eq!(e.kind, ErrorKind::Truncated);
    }

    #[test]
    fn labels_must_carry_the_expected_number() {
        let mut r = Reader::new("t", b"Bone3 Bone03 Bone4 ParentIndexOfBone2: Bone+3");
        assert!(r.label("Bone", 3, "").is_ok());
        assert!(r.label("Bone", 3, "").is_ok());
        assert_eq!(r.label("Bone", 3, "").unwrap_err().kind, ErrorKind::Syntax);
        assert!(r.label("ParentIndexOfBone", 2, ":").is_ok());
        assert!(r.label("Bone", 3, "").is_err());
    }
}
