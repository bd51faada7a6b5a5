//! The numbers the command line accepts: instances, threads, seconds and times, each
//! bounded so that nothing a user types reaches an allocation or a panic.

/// Crowds bigger than this are refused up front rather than left to fail an allocation
/// (4 million instances of a 58-joint model already need 11 GB per palette slot).
pub(crate) const MAX_INSTANCES: usize = 4_000_000;
const MAX_THREADS: usize = 256;

pub(crate) fn parse_bounded(s: &str, lo: usize, hi: usize) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number"))?;
    if (lo..=hi).contains(&n) {
        Ok(n)
    } else {
        Err(format!("{n} is not between {lo} and {hi}"))
    }
}

/// `--instances`: 1 to [`MAX_INSTANCES`].
pub fn parse_instances(s: &str) -> Result<usize, String> {
    parse_bounded(s, 1, MAX_INSTANCES)
}

/// `--threads`: 0 (one per core) to [`MAX_THREADS`].
pub fn parse_threads(s: &str) -> Result<usize, String> {
    parse_bounded(s, 0, MAX_THREADS)
}

/// The longest `--seconds` accepted (a day).
const MAX_SECONDS: f64 = 86_400.0;

/// `--seconds`: more than 0, at most a day.
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    let x: f64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if x > 0.0 && x <= MAX_SECONDS {
        Ok(x)
    } else {
        Err(format!("{s} is not between 0 (excluded) and {MAX_SECONDS}"))
    }
}

/// `--time`: any finite number of seconds (clamped to the clip later).
pub fn parse_time(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(t) if t.is_finite() => Ok(t),
        _ => Err(format!("'{s}' is not a finite number of seconds")),
    }
}
