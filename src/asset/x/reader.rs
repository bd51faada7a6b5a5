//! Typed reading on top of the lexer: numbers, counts bounded by the bytes left, strings,
//! braces, child objects and brace-matched skipping. Errors name the file, the data object
//! being read (the section) and the line.

use super::lexer::{Lexer, Token};
use crate::asset::{ErrorKind, LoadError};

/// Results of this loader.
pub(super) type Result<T> = std::result::Result<T, LoadError>;

/// Deepest nesting of data objects accepted, so a hostile file cannot exhaust the stack
/// (real files nest frames a few dozen deep).
pub(super) const MAX_DEPTH: usize = 256;

/// What comes next inside a data object once its own values are read.
#[derive(Debug)]
pub(super) enum Child<'a> {
    /// A nested data object `Type [name] {`; the `{` is consumed.
    Object {
        /// The template name (`Frame`, `Mesh`, ...).
        kind: &'a [u8],
        /// The object's own name, if it has one.
        name: Option<&'a [u8]>,
    },
    /// A reference `{ Name }` (an optional GUID after the name is read and dropped).
    Reference(&'a [u8]),
    /// The `}` that closes the current object (consumed).
    Close,
}

/// A reader of one file.
pub(super) struct Reader<'a> {
    file: &'a str,
    lexer: Lexer<'a>,
    /// The data object being read, for errors (`Mesh 'mesh_Wuson'`).
    section: String,
}

/// How a token reads in an error message: at most 40 bytes, escaped.
pub(super) fn show(bytes: &[u8]) -> String {
    let cut = bytes.get(..40).unwrap_or(bytes);
    let mut s: String = String::from_utf8_lossy(cut).escape_debug().collect();
    if cut.len() < bytes.len() {
        s.push_str("...");
    }
    s
}

fn describe(token: Token) -> String {
    match token {
        Token::Open => "'{'".into(),
        Token::Close => "'}'".into(),
        Token::Str(s) => format!("the string \"{}\"", show(s)),
        Token::Word(w) => format!("'{}'", show(w)),
        Token::End => "the end of the file".into(),
    }
}

impl<'a> Reader<'a> {
    /// A reader of `bytes` starting at `start` (after the header).
    pub(super) fn new(file: &'a str, bytes: &'a [u8], start: usize) -> Self {
        Self {
            file,
            lexer: Lexer::new(bytes, start),
            section: String::new(),
        }
    }

    /// Names the data object being read; returns the previous name, to restore with
    /// [`Reader::leave`] when the object is done.
    pub(super) fn enter(&mut self, section: String) -> String {
        std::mem::replace(&mut self.section, section)
    }

    /// Restores the section returned by [`Reader::enter`].
    pub(super) fn leave(&mut self, previous: String) {
        self.section = previous;
    }

    /// An error at the current token.
    pub(super) fn error(&self, kind: ErrorKind, message: impl std::fmt::Display) -> LoadError {
        let e = LoadError::new(self.file, kind, message.to_string())
            .at_record(format!("line {}", self.lexer.line()));
        if self.section.is_empty() {
            e
        } else {
            e.in_section(self.section.clone())
        }
    }

    fn unexpected(&self, token: Token, wanted: &str) -> LoadError {
        if token == Token::End {
            let what = if self.lexer.unterminated() {
                "a string has no closing quote"
            } else {
                "the file ends early"
            };
            return self.error(ErrorKind::Truncated, format!("{what}; expected {wanted}"));
        }
        self.error(
            ErrorKind::Syntax,
            format!("expected {wanted}, found {}", describe(token)),
        )
    }

    /// The next token.
    #[inline]
    pub(super) fn next(&mut self) -> Token<'a> {
        self.lexer.next_token()
    }

    /// Consumes a `{`.
    pub(super) fn open(&mut self) -> Result<()> {
        match self.next() {
            Token::Open => Ok(()),
            t => Err(self.unexpected(t, "'{'")),
        }
    }

    /// Consumes a `}`.
    pub(super) fn close(&mut self) -> Result<()> {
        match self.next() {
            Token::Close => Ok(()),
            t => Err(self.unexpected(t, "'}'")),
        }
    }

    /// A word (a number or a name).
    #[inline]
    fn word(&mut self, wanted: &str) -> Result<&'a [u8]> {
        match self.next() {
            Token::Word(w) => Ok(w),
            t => Err(self.unexpected(t, wanted)),
        }
    }

    /// A quoted string.
    pub(super) fn string(&mut self) -> Result<&'a [u8]> {
        match self.next() {
            Token::Str(s) => Ok(s),
            t => Err(self.unexpected(t, "a quoted string")),
        }
    }

    /// A finite floating-point number.
    #[inline]
    pub(super) fn f32(&mut self) -> Result<f32> {
        let w = self.word("a number")?;
        let value: Option<f32> = std::str::from_utf8(w).ok().and_then(|s| s.parse().ok());
        match value {
            Some(v) if v.is_finite() => Ok(v),
            Some(_) => Err(self.error(
                ErrorKind::NonFinite,
                format!("'{}' is not a finite number", show(w)),
            )),
            None => Err(self.error(
                ErrorKind::NotANumber,
                format!("expected a number, found '{}'", show(w)),
            )),
        }
    }

    /// `N` finite numbers.
    #[inline]
    pub(super) fn floats<const N: usize>(&mut self) -> Result<[f32; N]> {
        let mut out = [0.0; N];
        for v in &mut out {
            *v = self.f32()?;
        }
        Ok(out)
    }

    /// An unsigned 32-bit integer (a DWORD).
    #[inline]
    pub(super) fn u32(&mut self) -> Result<u32> {
        let w = self.word("a whole number")?;
        match std::str::from_utf8(w)
            .ok()
            .and_then(|s| s.parse::<u32>().ok())
        {
            Some(v) => Ok(v),
            None => Err(self.error(
                ErrorKind::NotANumber,
                format!(
                    "expected a whole number from 0 to 4294967295, found '{}'",
                    show(w)
                ),
            )),
        }
    }

    /// A count of `what`, each of which takes at least `min_bytes` of text: a count the bytes
    /// left cannot hold is refused before anything is allocated for it.
    pub(super) fn count(&mut self, what: &str, min_bytes: usize) -> Result<usize> {
        let n = self.u32()? as usize;
        if n.saturating_mul(min_bytes.max(1)) > self.lexer.remaining() {
            return Err(self.error(
                ErrorKind::TooLarge,
                format!(
                    "{n} {what} cannot fit in the {} bytes left in the file",
                    self.lexer.remaining()
                ),
            ));
        }
        Ok(n)
    }

    /// What follows inside an object: a child object, a reference, or the closing brace.
    pub(super) fn child(&mut self) -> Result<Child<'a>> {
        match self.next() {
            Token::Close => Ok(Child::Close),
            Token::Open => {
                let name = self.word("a name in a reference '{ Name }'")?;
                // `{ Name <GUID> }` is allowed; nothing else.
                match self.next() {
                    Token::Close => Ok(Child::Reference(name)),
                    Token::Word(_) => {
                        self.close()?;
                        Ok(Child::Reference(name))
                    }
                    t => Err(self.unexpected(t, "'}' after the name in a reference")),
                }
            }
            Token::Word(kind) => {
                let name = match self.next() {
                    Token::Open => return Ok(Child::Object { kind, name: None }),
                    Token::Word(name) => name,
                    t => return Err(self.unexpected(t, "a name or '{' after a template name")),
                };
                self.open()?;
                Ok(Child::Object {
                    kind,
                    name: Some(name),
                })
            }
            t => Err(self.unexpected(t, "a data object, a reference or '}'")),
        }
    }

    /// Skips the rest of an object whose `{` is consumed, through its matching `}`.
    pub(super) fn skip_object(&mut self) -> Result<()> {
        let mut depth = 1usize;
        loop {
            match self.next() {
                Token::Open => depth += 1,
                Token::Close => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Token::End => return Err(self.unexpected(Token::End, "'}'")),
                Token::Str(_) | Token::Word(_) => {}
            }
        }
    }

    /// At the top level: the next object (or reference), or `None` at the end of the file.
    pub(super) fn top_level(&mut self) -> Result<Option<Child<'a>>> {
        let mut probe = self.lexer.clone();
        match probe.next_token() {
            Token::End if !probe.unterminated() => Ok(None),
            Token::Close => {
                self.next();
                Err(self.error(ErrorKind::Syntax, "'}' closes nothing"))
            }
            _ => self.child().map(Some),
        }
    }
}
