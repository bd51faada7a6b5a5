//! Splitting a line of delimited text into fields: CSV quoting (`"a, b"`, `""` for a quote) on
//! one line; quoted fields spanning lines are not supported by any format read here.

/// The delimiter a line of a generic table uses: comma, else semicolon, else tab, else spaces.
pub(crate) fn guess_delimiter(line: &str) -> Delimiter {
    if line.contains(',') {
        Delimiter::Char(',')
    } else if line.contains(';') {
        Delimiter::Char(';')
    } else if line.contains('\t') {
        Delimiter::Char('\t')
    } else {
        Delimiter::Whitespace
    }
}

/// How fields are separated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Delimiter {
    /// One character, with CSV quoting.
    Char(char),
    /// Runs of spaces or tabs, no quoting.
    Whitespace,
}

/// Splits `line` into `out` (cleared first), unquoting and trimming fields.
pub(crate) fn split(line: &str, delimiter: Delimiter, out: &mut Vec<String>) -> Result<(), String> {
    out.clear();
    let sep = match delimiter {
        Delimiter::Whitespace => {
            out.extend(line.split_whitespace().map(str::to_owned));
            return Ok(());
        }
        Delimiter::Char(c) => c,
    };
    let mut chars = line.chars().peekable();
    loop {
        while chars.peek().is_some_and(|&c| c == ' ' && c != sep) {
            chars.next();
        }
        let mut field = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    Some('"') => break,
                    Some(c) => field.push(c),
                    None => {
                        return Err(format!(
                            "field {} opens a quote it does not close",
                            out.len() + 1
                        ));
                    }
                }
            }
            while chars.peek().is_some_and(|&c| c.is_whitespace() && c != sep) {
                chars.next();
            }
            match chars.next() {
                None => {
                    out.push(field);
                    return Ok(());
                }
                Some(c) if c == sep => out.push(field),
                Some(c) => {
                    return Err(format!(
                        "field {} has '{c}' after its closing quote",
                        out.len() + 1
                    ));
                }
            }
        } else {
            let mut ended = true;
            for c in chars.by_ref() {
                if c == sep {
                    ended = false;
                    break;
                }
                field.push(c);
            }
            out.push(field.trim().to_owned());
            if ended {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Delimiter, guess_delimiter, split};

    #[test]
    fn quoting() {
        let mut f = Vec::new();
        split(
            r#""t","id", 3 ,"a ""b"", c","""#,
            Delimiter::Char(','),
            &mut f,
        )
        .unwrap();
        assert_eq!(f, ["t", "id", "3", r#"a "b", c"#, ""]);
        split("1,,2,", Delimiter::Char(','), &mut f).unwrap();
        assert_eq!(f, ["1", "", "2", ""]);
        split("1\t 2  3", Delimiter::Whitespace, &mut f).unwrap();
        assert_eq!(f, ["1", "2", "3"]);
        assert!(split(r#"1,"2"#, Delimiter::Char(','), &mut f).is_err());
        assert!(split(r#""2"x,1"#, Delimiter::Char(','), &mut f).is_err());
        assert_eq!(guess_delimiter("a;b"), Delimiter::Char(';'));
        assert_eq!(guess_delimiter("a\tb"), Delimiter::Char('\t'));
    }
}
