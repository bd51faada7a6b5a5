//! Number parsing straight from token bytes.
//!
//! Almost every float in a real `.m3d` file has at most seven significant digits and a small
//! exponent; those take an exact fast path (Clinger's: an integer mantissa below 2^24 and a
//! power of ten up to 10^10 are both exact in `f32`, so one multiplication or division rounds
//! correctly). Anything else goes to the standard library's correctly rounded parser, so the
//! result is always the nearest `f32`, whichever path produced it.

/// Why a token is not an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum IntError {
    /// Not of the form `[+-]digits`.
    NotInteger,
    /// Does not fit in an `i64`.
    Overflow,
}

/// Exact powers of ten in `f32`.
const POW10: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

/// The nearest `f32` to a decimal token, or `None` when the token is not a number. NaN and
/// infinities (`nan`, `inf`, or a finite literal too large for `f32`) come back as such: the
/// caller decides what non-finite values mean.
#[inline]
pub(super) fn parse_f32(token: &[u8]) -> Option<f32> {
    fast_f32(token).or_else(|| std::str::from_utf8(token).ok()?.parse().ok())
}

/// The fast path of [`parse_f32`]: `None` whenever it cannot be sure of an exact result.
#[inline]
fn fast_f32(token: &[u8]) -> Option<f32> {
    let (negative, rest) = match token.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, token),
    };
    let mut mantissa: u32 = 0;
    let mut exponent: i32 = 0;
    let mut digits = 0usize;
    let mut bytes = rest.iter().peekable();
    while let Some(&&c) = bytes.peek() {
        if !c.is_ascii_digit() {
            break;
        }
        mantissa = mantissa.checked_mul(10)?.checked_add(u32::from(c - b'0'))?;
        digits += 1;
        bytes.next();
    }
    if bytes.peek() == Some(&&b'.') {
        bytes.next();
        while let Some(&&c) = bytes.peek() {
            if !c.is_ascii_digit() {
                break;
            }
            mantissa = mantissa.checked_mul(10)?.checked_add(u32::from(c - b'0'))?;
            exponent -= 1;
            digits += 1;
            bytes.next();
        }
    }
    if digits == 0 {
        return None;
    }
    if let Some(b'e' | b'E') = bytes.peek() {
        bytes.next();
        let sign = match bytes.peek() {
            Some(b'-') => {
                bytes.next();
                -1
            }
            Some(b'+') => {
                bytes.next();
                1
            }
            _ => 1,
        };
        let mut e: i32 = 0;
        let mut exp_digits = 0;
        for &c in bytes.by_ref() {
            if !c.is_ascii_digit() || exp_digits == 4 {
                return None;
            }
            e = e * 10 + i32::from(c - b'0');
            exp_digits += 1;
        }
        if exp_digits == 0 {
            return None;
        }
        exponent += sign * e;
    }
    if bytes.next().is_some() || mantissa > 1 << 24 {
        return None;
    }
    let m = mantissa as f32;
    let value = if exponent >= 0 {
        m * *POW10.get(exponent as usize)?
    } else {
        m / *POW10.get(exponent.unsigned_abs() as usize)?
    };
    Some(if negative { -value } else { value })
}

/// A decimal integer token (`[+-]digits`).
#[inline]
pub(super) fn parse_int(token: &[u8]) -> Result<i64, IntError> {
    let (negative, digits) = match token.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, token),
    };
    if digits.is_empty() {
        return Err(IntError::NotInteger);
    }
    let mut value: i64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return Err(IntError::NotInteger);
        }
        let d = i64::from(c - b'0');
        // Accumulate negatively so that i64::MIN itself parses.
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_sub(d))
            .ok_or(IntError::Overflow)?;
    }
    if negative {
        Ok(value)
    } else {
        value.checked_neg().ok_or(IntError::Overflow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn std_f32(s: &str) -> Option<f32> {
        s.parse().ok()
    }

    #[test]
    fn floats_match_the_standard_parser_bit_for_bit() {
        let fixed = [
            "0",
            "-0",
            "1",
            "+1",
            "1.",
            ".5",
            "-.5",
            "0.9983482",
            "-37.46099",
            "1.331581E-06",
            "-5.551115E-17",
            "8.412415E-23",
            "65.986",
            "1e10",
            "1e11",
            "16777216",
            "16777217",
            "123456789",
            "0.000000001",
            "1e-10",
            "3.4028235e38",
            "1e39",
            "2.5e+3",
            "7E0",
        ];
        for s in fixed {
            let ours = parse_f32(s.as_bytes()).map(f32::to_bits);
            assert_eq!(ours, std_f32(s).map(f32::to_bits), "{s}");
        }
        // A deterministic sweep over mantissas, decimal points and exponents.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mantissa = x % 100_000_000;
            let point = (x >> 32) % 10;
            let exp = ((x >> 40) % 31) as i32 - 15;
            let digits = mantissa.to_string();
            let cut = (point as usize).min(digits.len());
            let s = format!("{}.{}e{exp}", &digits[..cut], &digits[cut..]);
            let ours = parse_f32(s.as_bytes()).map(f32::to_bits);
            assert_eq!(ours, std_f32(&s).map(f32::to_bits), "{s}");
        }
    }

    #[test]
    fn non_numbers_and_non_finite_values() {
        for s in [
            "", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "1x", "--1", "0x10", "1 2",
        ] {
            assert_eq!(parse_f32(s.as_bytes()), None, "{s}");
        }
        assert!(parse_f32(b"NaN").is_some_and(f32::is_nan));
        assert_eq!(parse_f32(b"inf"), Some(f32::INFINITY));
        assert_eq!(parse_f32(b"-1e39"), Some(f32::NEG_INFINITY));
        assert_eq!(parse_f32(b"\xff"), None);
    }

    #[test]
    fn integers() {
        assert_eq!(parse_int(b"0"), Ok(0));
        assert_eq!(parse_int(b"-1"), Ok(-1));
        assert_eq!(parse_int(b"+42"), Ok(42));
        assert_eq!(parse_int(b"4000000000"), Ok(4_000_000_000));
        assert_eq!(parse_int(b"-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(parse_int(b"9223372036854775808"), Err(IntError::Overflow));
        assert_eq!(parse_int(b"99999999999999999999"), Err(IntError::Overflow));
        for s in ["", "-", "1.0", "1e3", "x", "1-"] {
            assert_eq!(parse_int(s.as_bytes()), Err(IntError::NotInteger), "{s}");
        }
    }
}
