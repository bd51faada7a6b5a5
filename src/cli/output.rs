//! Printing helpers shared by the subcommands. Every write to stdout goes through here and
//! returns its failure as a [`CliError`] (so `throng info > /dev/full` is one error line and
//! exit 1, never a panic), and every string from outside goes through [`shown`] first.

use std::borrow::Cow;
use std::fmt;
use std::io::Write;

use serde::Serialize;
use throng::text::{needs_escape, printable};

use super::CliError;

/// Writes one formatted line to stdout: `say!("joints {}", n)?`.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::output::say_line(format_args!($($arg)*))
    };
}
pub(crate) use say;

/// `text` (a file name, a name from a model file, an argument, a device name) ready for the
/// terminal: control characters escaped (see [`throng::text::printable`]).
pub fn shown(text: &str) -> Cow<'_, str> {
    printable(text)
}

fn stdout_error(source: std::io::Error) -> CliError {
    CliError::Io {
        context: "writing to stdout".into(),
        source,
    }
}

/// Writes `line` and a newline to stdout (the body of [`say!`]).
pub fn say_line(line: fmt::Arguments<'_>) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .map_err(stdout_error)
}

/// Writes a warning line to stderr. A failure to write it is ignored: there is nowhere left
/// to report it, and a warning is not worth stopping for.
pub fn warn_line(line: fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// Writes `value` as pretty JSON and a newline to stdout.
pub fn print_json(value: &impl Serialize) -> Result<(), CliError> {
    let text = serde_json::to_string_pretty(value).map_err(|e| stdout_error(e.into()))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "{}", json_for_terminal(&text))
        .and_then(|()| out.flush())
        .map_err(stdout_error)
}

/// serde escapes C0 controls in strings but writes DEL, C1 controls and bidirectional
/// controls raw; escape those as `\uXXXX` too. Such characters can only stand inside JSON
/// strings (outside them JSON is ASCII punctuation, digits, letters and spaces), so escaping
/// them anywhere in the text keeps it the same JSON.
fn json_for_terminal(json: &str) -> Cow<'_, str> {
    // C0 controls inside strings are already escaped; outside them they are the layout's
    // line breaks, which stay.
    let raw = |c: char| needs_escape(c) && u32::from(c) >= 0x20;
    if !json.chars().any(raw) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if raw(c) {
            // All of them lie in the Basic Multilingual Plane: one \uXXXX each.
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Writes `text` to `path`, an error naming the file.
pub fn write_file(path: &std::path::Path, text: &str) -> Result<(), CliError> {
    std::fs::write(path, text).map_err(|source| CliError::Io {
        context: format!("writing {}", shown(&path.display().to_string())),
        source,
    })
}

/// How the start-up line states the anti-aliasing: `samples` per pixel, and whether that is
/// the lower default of a software rasterizer (worth a hint: the picture shimmers without it).
pub fn msaa_words(samples: u32, software_default: bool) -> String {
    if samples > 1 {
        format!("{samples}x MSAA")
    } else if software_default {
        format!(
            "no MSAA, as on any software device: --msaa {} asks for it",
            throng::gpu::DEFAULT_MSAA
        )
    } else {
        "no MSAA".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::json_for_terminal;

    #[test]
    fn json_keeps_its_meaning_and_loses_raw_controls() {
        let value = serde_json::json!({"name": "a\u{7f}b\u{9b}c\u{202e}\n"});
        let text = serde_json::to_string(&value).expect("serializes");
        let safe = json_for_terminal(&text);
        assert!(!safe.chars().any(throng::text::needs_escape), "{safe}");
        assert_eq!(json_for_terminal("{\n  \"a\": 1\n}"), "{\n  \"a\": 1\n}");
        let back: serde_json::Value = serde_json::from_str(&safe).expect("still JSON");
        assert_eq!(back, value);
    }
}
