//! The byte tokenizer: splits the file into whitespace-separated tokens, borrowed from the
//! input (no allocation per token). Line breaks mean nothing to the format (the reference
//! reader is `>>`-based), so they are plain whitespace here; lines are only counted, lazily,
//! when an error needs to say where it is.

/// Whitespace as C's `isspace` defines it in the "C" locale, which is what the reference
/// reader's `operator>>` skips.
#[inline(always)]
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// A cursor over the tokens of a byte buffer.
#[derive(Clone, Debug)]
pub(super) struct Lexer<'a> {
    bytes: &'a [u8],
    /// Where scanning resumes.
    pos: usize,
    /// Start of the token returned last (for error positions).
    last_start: usize,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `bytes`.
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        Self {
            bytes,
            pos: 0,
            last_start: 0,
        }
    }

    /// The next token, or `None` at the end of the input.
    #[inline]
    pub(super) fn next_token(&mut self) -> Option<&'a [u8]> {
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        let skip = rest
            .iter()
            .position(|&c| !is_space(c))
            .unwrap_or(rest.len());
        let rest = rest.get(skip..).unwrap_or_default();
        let len = rest.iter().position(|&c| is_space(c)).unwrap_or(rest.len());
        self.last_start = self.pos + skip;
        self.pos = self.last_start + len;
        if len == 0 { None } else { rest.get(..len) }
    }

    /// The token [`Lexer::next_token`] would return, without consuming it.
    pub(super) fn peek(&self) -> Option<&'a [u8]> {
        self.clone().next_token()
    }

    /// Bytes not yet consumed.
    pub(super) fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    /// Size of the whole input.
    pub(super) fn len(&self) -> usize {
        self.bytes.len()
    }

    /// The 1-based line of the token returned last.
    pub(super) fn line(&self) -> usize {
        self.line_at(self.last_start)
    }

    /// Where the token returned last starts (a byte offset, cheap to keep; turned into a
    /// line by [`Lexer::line_at`] only when an error needs it).
    pub(super) fn position(&self) -> usize {
        self.last_start
    }

    /// The 1-based line of byte offset `pos`.
    pub(super) fn line_at(&self, pos: usize) -> usize {
        let upto = self.bytes.get(..pos).unwrap_or(self.bytes);
        1 + upto.iter().filter(|&&c| c == b'\n').count()
    }

    /// The lines of increasing byte offsets, in one pass over the input.
    pub(super) fn lines_at(&self, positions: &[usize]) -> Vec<usize> {
        let mut lines = Vec::with_capacity(positions.len());
        let (mut at, mut line) = (0usize, 1usize);
        for &pos in positions {
            let pos = pos.clamp(at, self.bytes.len());
            line += self
                .bytes
                .get(at..pos)
                .map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count());
            at = pos;
            lines.push(line);
        }
        lines
    }

    /// The line of the token `skip` tokens after the one starting at byte `from`.
    pub(super) fn line_of_token(&self, from: usize, skip: usize) -> usize {
        let mut lex = Self {
            bytes: self.bytes,
            pos: from,
            last_start: from,
        };
        for _ in 0..=skip {
            if lex.next_token().is_none() {
                break;
            }
        }
        lex.line()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_any_whitespace_and_tracks_lines() {
        let mut lex = Lexer::new(b"  ***Head***\r\n#A 1\t\x0b2\n\n  x");
        assert_eq!(lex.next_token(), Some(&b"***Head***"[..]));
        assert_eq!(lex.line(), 1);
        assert_eq!(lex.next_token(), Some(&b"#A"[..]));
        assert_eq!(lex.line(), 2);
        assert_eq!(lex.peek(), Some(&b"1"[..]));
        assert_eq!(lex.next_token(), Some(&b"1"[..]));
        assert_eq!(lex.next_token(), Some(&b"2"[..]));
        assert_eq!(lex.next_token(), Some(&b"x"[..]));
        assert_eq!(lex.line(), 4);
        assert_eq!(lex.remaining(), 0);
        assert_eq!(lex.next_token(), None);
        assert_eq!(lex.next_token(), None);
    }

    #[test]
    fn empty_and_blank_inputs_have_no_tokens() {
        assert_eq!(Lexer::new(b"").next_token(), None);
        assert_eq!(Lexer::new(b" \n\t ").next_token(), None);
    }
}
