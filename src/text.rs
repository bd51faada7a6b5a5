//! Strings from outside (file names, names inside model files, command-line arguments, driver
//! names) made safe to print on a terminal: one helper, used by every error line and every
//! text output, so a name holding a line break, an escape sequence or a bell cannot split an
//! error line in two or drive the terminal.

use std::borrow::Cow;
use std::fmt::Write as _;

/// `s` with every control character (C0, DEL, C1) and every bidirectional-text control
/// written as a Rust-style escape (`\n`, `\t`, `\u{1b}`, `\u{202e}`); anything else is kept
/// as is (backslashes too, so file paths read normally). Borrows when nothing needs escaping.
#[must_use]
pub fn printable(s: &str) -> Cow<'_, str> {
    if !s.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Whether `c` must not reach a terminal raw: control characters (which `char::is_control`
/// defines as C0, DEL and C1) and the bidirectional overrides and isolates, which reorder how
/// the rest of a line is displayed.
#[must_use]
pub fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(printable("walk"), "walk");
        assert_eq!(printable("walk\nx"), "walk\\nx");
        assert_eq!(printable("a\tb\r"), "a\\tb\\r");
        assert_eq!(printable("\u{1b}[31mred\u{7}"), "\\u{1b}[31mred\\u{7}");
        assert_eq!(printable("\u{7f}\u{9b}"), "\\u{7f}\\u{9b}");
        assert_eq!(printable("abc\u{202e}def"), "abc\\u{202e}def");
        assert_eq!(printable("C:\\models\\é.m3d"), "C:\\models\\é.m3d");
        assert_eq!(printable("\0"), "\\u{0}");
    }
}
