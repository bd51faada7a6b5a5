//! Checked conversions of one field of untrusted text into ids, frames, seconds and metres, each
//! failing with a short message that names the field; and the check of a line's field count.

use std::fmt::Display;

/// Ids above this are refused: they would not survive a trip through an `f64` (JSON, Python).
pub(crate) const MAX_ID: u64 = 1 << 53;
/// The largest frame number taken: 4.3 billion frames is over 8 years at 16 fps.
pub(crate) const MAX_FRAME: u64 = u32::MAX as u64;
/// Times beyond this many seconds (317 years; Unix times still fit) are refused.
pub(crate) const MAX_SECONDS: f64 = 1e10;
/// Coordinates beyond this many metres from the origin (10,000 km) are not on anyone's floor.
pub(crate) const MAX_METRES: f64 = 1e7;
/// The highest frame rate taken.
pub(crate) const MAX_FPS: f64 = 1e6;
/// The lowest frame rate taken: a frame a quarter of an hour (slower rates only put frame
/// numbers out of any time range).
pub(crate) const MIN_FPS: f64 = 1e-3;

/// Refuses a line of `found` fields where the file's reference line (`like`: `line 3`, `the
/// header`) has `expected`: each text format keeps one field count throughout a file.
pub(crate) fn field_count(found: usize, expected: usize, like: impl Display) -> Result<(), String> {
    if found == expected {
        Ok(())
    } else {
        Err(format!("{found} fields, expected {expected} like {like}"))
    }
}

/// `text`, cut to a length fit for a one-line message.
pub(crate) fn quote(text: &str) -> String {
    const KEEP: usize = 40;
    match text.char_indices().nth(KEEP) {
        Some((cut, _)) => format!("'{}...'", &text[..cut]),
        None => format!("'{text}'"),
    }
}

/// A finite number.
pub(crate) fn number(what: &str, text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{what} {} is not a number", quote(text)))?;
    if value.is_nan() {
        Err(format!("{what} is NaN"))
    } else if value.is_infinite() {
        Err(format!("{what} is infinite"))
    } else {
        Ok(value)
    }
}

/// A whole number in `0..=max`, written as an integer or as a float with no fraction (`780.0`).
fn whole(what: &str, text: &str, max: u64) -> Result<u64, String> {
    if let Ok(n) = text.trim().parse::<u64>() {
        return if n > max {
            Err(format!("{what} {n} is over {max}"))
        } else {
            Ok(n)
        };
    }
    let value = number(what, text)?;
    if value < 0.0 {
        Err(format!("{what} {} is negative", quote(text)))
    } else if value.fract() != 0.0 {
        Err(format!("{what} {} is not a whole number", quote(text)))
    } else if value > max as f64 {
        Err(format!("{what} {} is over {max}", quote(text)))
    } else {
        // In range and whole, so the conversion is exact.
        Ok(value as u64)
    }
}

/// A pedestrian id (0 to 2^53).
pub(crate) fn id(text: &str) -> Result<u64, String> {
    whole("pedestrian id", text, MAX_ID)
        .map_err(|e| e.replace(&format!("over {MAX_ID}"), "over 2^53"))
}

/// A frame number (0 to [`MAX_FRAME`]).
pub(crate) fn frame(text: &str) -> Result<u64, String> {
    whole("frame", text, MAX_FRAME)
}

/// A time in seconds, already scaled by `seconds_per_unit`.
pub(crate) fn seconds(what: &str, text: &str, seconds_per_unit: f64) -> Result<f64, String> {
    let t = number(what, text)? * seconds_per_unit;
    if t.abs() > MAX_SECONDS {
        Err(format!(
            "{what} {} is beyond {MAX_SECONDS:e} s",
            quote(text)
        ))
    } else {
        Ok(t)
    }
}

/// A coordinate converted to metres.
pub(crate) fn metres(what: &str, text: &str, metres_per_unit: f64) -> Result<f64, String> {
    checked_metres(what, number(what, text)?, metres_per_unit)
}

/// `value` in metres. Centimetres and millimetres are divided by 100 and 1000 rather than
/// multiplied by 0.01 and 0.001, which gives the correctly rounded result (1.9 m for 190 cm, not
/// 1.9000000000000001), as other tools (PedPy) have it.
pub(crate) fn to_metres(value: f64, metres_per_unit: f64) -> f64 {
    let per_metre = (1.0 / metres_per_unit).round();
    if metres_per_unit < 1.0 && per_metre * metres_per_unit == 1.0 {
        value / per_metre
    } else {
        value * metres_per_unit
    }
}

/// A coordinate already parsed, converted to metres and range-checked.
pub(crate) fn checked_metres(what: &str, value: f64, metres_per_unit: f64) -> Result<f64, String> {
    let m = to_metres(value, metres_per_unit);
    if m.is_finite() && m.abs() <= MAX_METRES {
        Ok(m)
    } else {
        Err(format!("{what} {value} is beyond 10,000 km"))
    }
}

/// A person's height converted to metres (0 to 10 m; a larger value is no person's height).
pub(crate) fn height(what: &str, text: &str, metres_per_unit: f64) -> Result<f32, String> {
    let m = to_metres(number(what, text)?, metres_per_unit);
    if (0.0..=10.0).contains(&m) {
        Ok(m as f32)
    } else {
        Err(format!(
            "{what} {} is {m} m, not a person's height",
            quote(text)
        ))
    }
}

/// A frame rate: from [`MIN_FPS`] to [`MAX_FPS`].
pub(crate) fn frame_rate(fps: f64) -> Result<f64, String> {
    if fps.is_finite() && (MIN_FPS..=MAX_FPS).contains(&fps) {
        Ok(fps)
    } else {
        Err(format!(
            "frame rate {fps} is not between {MIN_FPS} and {MAX_FPS:e} per second"
        ))
    }
}

/// `n` with thousands separators (`12,000,000`).
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields() {
        assert_eq!(id("780.0"), Ok(780));
        assert_eq!(id("9007199254740992"), Ok(1 << 53));
        assert!(id("9007199254740993").unwrap_err().contains("over 2^53"));
        assert!(id("-1").unwrap_err().contains("negative"));
        assert!(id("1.5").unwrap_err().contains("whole"));
        assert!(frame("1e300").unwrap_err().contains("over"));
        assert!(number("x", "nan").unwrap_err().contains("NaN"));
        assert!(number("x", "-inf").unwrap_err().contains("infinite"));
        assert!(number("x", "abc").unwrap_err().contains("not a number"));
        assert_eq!(metres("x", "150", 0.01), Ok(1.5));
        assert_eq!(metres("x", "190", 0.01), Ok(1.9));
        assert_eq!(metres("x", "1", 0.001), Ok(0.001));
        assert_eq!(metres("x", "10", 0.3048), Ok(3.048));
        assert!(metres("x", "1e300", 1.0).is_err());
        assert_eq!(height("z", "181.5", 0.01), Ok(1.815));
        assert!(frame_rate(0.0).is_err());
        assert_eq!(thousands(12_000_000), "12,000,000");
        assert_eq!(thousands(999), "999");
        assert_eq!(quote(&"a".repeat(100)).len(), 45);
    }
}
