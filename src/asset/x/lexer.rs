//! The byte tokenizer of text `.x`: braces, quoted strings and words, borrowed from the input
//! (no allocation per token).
//!
//! The format separates values with `,` and `;` as well as whitespace, and its writers are
//! loose about how many they put (`0;16;1.0,...;;,`): every reader that works on real files
//! treats them as separators, and so does this one; counts, not punctuation, say where a list
//! ends. `//` and `#` start comments that run to the end of the line. Lines are counted only
//! when an error needs to say where it is.

/// One token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Token<'a> {
    /// `{`
    Open,
    /// `}`
    Close,
    /// A quoted string, without its quotes (no escapes: `.x` writers emit none).
    Str(&'a [u8]),
    /// Anything else between separators: a name, a number, a GUID.
    Word(&'a [u8]),
    /// The end of the input.
    End,
}

/// Whitespace and the format's value separators.
#[inline(always)]
fn is_separator(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | b',' | b';')
}

/// Bytes that end a word.
#[inline(always)]
fn ends_word(c: u8) -> bool {
    is_separator(c) || matches!(c, b'{' | b'}' | b'"')
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
    /// A lexer at `start` in `bytes` (after the file's header).
    pub(super) fn new(bytes: &'a [u8], start: usize) -> Self {
        Self {
            bytes,
            pos: start.min(bytes.len()),
            last_start: start.min(bytes.len()),
        }
    }

    /// Moves past separators and comments.
    #[inline]
    fn skip_separators(&mut self) {
        while let Some(&c) = self.bytes.get(self.pos) {
            if is_separator(c) {
                self.pos += 1;
            } else if c == b'#' || (c == b'/' && self.bytes.get(self.pos + 1) == Some(&b'/')) {
                let rest = self.bytes.get(self.pos..).unwrap_or_default();
                self.pos += rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
            } else {
                break;
            }
        }
    }

    /// The next token. A string with no closing quote is returned as [`Token::End`] after
    /// [`Lexer::unterminated`] starts reporting true.
    #[inline]
    pub(super) fn next_token(&mut self) -> Token<'a> {
        self.skip_separators();
        self.last_start = self.pos;
        let Some(&c) = self.bytes.get(self.pos) else {
            return Token::End;
        };
        match c {
            b'{' => {
                self.pos += 1;
                Token::Open
            }
            b'}' => {
                self.pos += 1;
                Token::Close
            }
            b'"' => {
                let rest = self.bytes.get(self.pos + 1..).unwrap_or_default();
                match rest.iter().position(|&c| c == b'"') {
                    Some(len) => {
                        self.pos += len + 2;
                        Token::Str(rest.get(..len).unwrap_or_default())
                    }
                    None => {
                        // Leave the cursor on the quote: every later call sees the same end.
                        Token::End
                    }
                }
            }
            _ => {
                let rest = self.bytes.get(self.pos..).unwrap_or_default();
                let len = rest
                    .iter()
                    .position(|&c| ends_word(c))
                    .unwrap_or(rest.len());
                self.pos += len;
                Token::Word(rest.get(..len).unwrap_or_default())
            }
        }
    }

    /// Whether the input ends inside a quoted string (the last token was the opening quote).
    pub(super) fn unterminated(&self) -> bool {
        self.bytes.get(self.last_start) == Some(&b'"')
    }

    /// Bytes not yet consumed.
    pub(super) fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    /// The 1-based line of the token returned last.
    pub(super) fn line(&self) -> usize {
        let upto = self.bytes.get(..self.last_start).unwrap_or(self.bytes);
        1 + upto.iter().filter(|&&c| c == b'\n').count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<Token<'_>> {
        let mut lexer = Lexer::new(text.as_bytes(), 0);
        let mut out = Vec::new();
        loop {
            let t = lexer.next_token();
            out.push(t);
            if t == Token::End {
                return out;
            }
        }
    }

    #[test]
    fn separators_comments_strings_and_braces() {
        let t = tokens("Frame W-a { // note\n 0;16;1.5,-2;;, \"a b;c\" # x\n{ Bip01 }}");
        assert_eq!(
            t,
            [
                Token::Word(b"Frame"),
                Token::Word(b"W-a"),
                Token::Open,
                Token::Word(b"0"),
                Token::Word(b"16"),
                Token::Word(b"1.5"),
                Token::Word(b"-2"),
                Token::Str(b"a b;c"),
                Token::Open,
                Token::Word(b"Bip01"),
                Token::Close,
                Token::Close,
                Token::End,
            ]
        );
    }

    #[test]
    fn an_unterminated_string_ends_the_input_and_says_so() {
        let mut lexer = Lexer::new(b"a \"open", 0);
        assert_eq!(lexer.next_token(), Token::Word(b"a"));
        assert_eq!(lexer.next_token(), Token::End);
        assert!(lexer.unterminated());
        assert_eq!(lexer.next_token(), Token::End);
    }
}
