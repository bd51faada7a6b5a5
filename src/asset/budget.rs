//! The memory budget of one load: a small file must not buy a large allocation.
//!
//! Everything a file makes the program hold (the parsed document, derived tables, node
//! arrays, skeletons, per-clip per-joint tracks, meshes, decoded images) is charged here
//! *before* it is allocated, by the loader that is about to allocate it. The budget grows
//! with the input, so a real model always fits and a crafted one cannot amplify:
//!
//! ```text
//! limit = min(ALLOWANCE + PER_INPUT_BYTE x input bytes, DEFAULT_MAX_MEMORY)
//! ```
//!
//! where the input is the model file plus every file it brings in (buffers, images), unless
//! `--max-memory` names the limit outright. A charge
//! that would pass the limit is refused with one line saying what needed how much, for
//! example `5000 clips x 5000 joints of tracks need 6.4 GB, over the load budget of 73.0 MB`.
//! Decoded textures are charged too, when the texture is read (its header gives its size);
//! one that does not fit is left out with a warning, since a model animates and draws without
//! it.
//!
//! Charges are upper estimates of what the allocation will really take (including the
//! transient copies made while building it), so the peak heap of a load stays within the
//! limit plus the input bytes themselves. The `cost` functions give the size of the animation
//! core's structures for every loader to use.

use std::fmt;

use crate::asset::{ErrorKind, LoadError, LoadOptions};

/// What any load may hold regardless of its size: small files may legitimately expand a lot
/// (a flat-colour texture, generated normals and tangents).
pub const ALLOWANCE: u64 = 64 << 20;

/// How many bytes each input byte may make the program hold.
pub const PER_INPUT_BYTE: u64 = 32;

/// The most a load's budget grows to with the input's size (`--max-memory` replaces the
/// whole rule).
pub const DEFAULT_MAX_MEMORY: u64 = 4 << 30;

/// The budget of one load. See the module documentation.
#[derive(Clone, Debug)]
pub struct Budget {
    input: u64,
    /// `--max-memory`, if given: the limit itself.
    fixed: Option<u64>,
    used: u64,
}

impl Budget {
    /// The budget of a load whose model file has `input_bytes` bytes, or `options.max_memory`
    /// if set.
    pub fn new(input_bytes: u64, options: &LoadOptions) -> Self {
        Self {
            input: input_bytes,
            fixed: options.max_memory,
            used: 0,
        }
    }

    /// Raises the budget for a file the model brought in (an external buffer or image).
    pub fn add_input(&mut self, bytes: u64) {
        self.input = self.input.saturating_add(bytes);
    }

    /// The most this load may hold: [`ALLOWANCE`] plus [`PER_INPUT_BYTE`] per input byte, at
    /// most [`DEFAULT_MAX_MEMORY`]; or `--max-memory`.
    pub fn limit(&self) -> u64 {
        self.fixed.unwrap_or_else(|| {
            ALLOWANCE
                .saturating_add(self.input.saturating_mul(PER_INPUT_BYTE))
                .min(DEFAULT_MAX_MEMORY)
        })
    }

    /// The limit and where it came from, as a refusal states them: `73.0 MB (64 MiB + 32 x
    /// the 189.0 KB input)`.
    pub fn describe(&self) -> String {
        let limit = self.limit();
        format!(
            "{} ({})",
            human(limit),
            rule_text(self.rule(limit), self.input)
        )
    }

    /// Where `limit` (this budget's) came from.
    fn rule(&self, limit: u64) -> Rule {
        match self.fixed {
            Some(_) => Rule::Flag,
            None if limit == DEFAULT_MAX_MEMORY => Rule::Cap,
            None => Rule::Input,
        }
    }

    /// What has been charged so far.
    pub fn used(&self) -> u64 {
        self.used
    }

    /// Reserves `bytes` for `what` (a phrase with a plural verb in mind: `5000 clips x 5000
    /// joints of tracks`, `2500000 nodes`), or says why not. `what` is only built on failure.
    pub fn charge(&mut self, bytes: u64, what: impl FnOnce() -> String) -> Result<(), OverBudget> {
        self.check(bytes, what)?;
        self.used += bytes;
        Ok(())
    }

    /// Whether `bytes` more would fit, without reserving them: for transient work that is
    /// freed before the next charge.
    pub fn check(&self, bytes: u64, what: impl FnOnce() -> String) -> Result<(), OverBudget> {
        let limit = self.limit();
        if self.used.saturating_add(bytes) > limit {
            return Err(OverBudget {
                what: what(),
                need: bytes,
                used: self.used,
                limit,
                input: self.input,
                rule: self.rule(limit),
            });
        }
        Ok(())
    }
}

/// A charge the budget refused: what, how much, and the budget it would have passed.
#[derive(Clone, Debug, PartialEq)]
pub struct OverBudget {
    /// What needed the memory.
    pub what: String,
    /// Bytes it needed.
    pub need: u64,
    /// Bytes already charged before it.
    pub used: u64,
    /// The load's limit.
    pub limit: u64,
    /// The input's size the limit was computed from.
    pub input: u64,
    /// Where the limit came from.
    pub rule: Rule,
}

/// Where a load's limit came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The input's share: [`ALLOWANCE`] plus [`PER_INPUT_BYTE`] per input byte.
    Input,
    /// The input's share reached [`DEFAULT_MAX_MEMORY`].
    Cap,
    /// `--max-memory`.
    Flag,
}

impl OverBudget {
    /// This refusal as a [`LoadError`] ([`ErrorKind::TooLarge`]) about `section` of `file`.
    pub fn into_load_error(self, file: impl Into<String>, section: impl Into<String>) -> LoadError {
        LoadError::new(file, ErrorKind::TooLarge, self.to_string()).in_section(section)
    }
}

impl fmt::Display for OverBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} need {}, over the load budget of {} (",
            self.what,
            human(self.need),
            human(self.limit)
        )?;
        f.write_str(&rule_text(self.rule, self.input))?;
        if self.used > 0 {
            write!(f, "; {} already used", human(self.used))?;
        }
        f.write_str(")")
    }
}

/// How a limit came about, for the parenthesis after it.
fn rule_text(rule: Rule, input: u64) -> String {
    match rule {
        Rule::Flag => "--max-memory".to_string(),
        Rule::Cap => "the 4 GiB cap; --max-memory raises it".to_string(),
        Rule::Input => format!("64 MiB + {PER_INPUT_BYTE} x the {} input", human(input)),
    }
}

/// Bytes in decimal units with three significant digits (`6.4 GB`, `73.0 MB`, `512 B`).
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["KB", "MB", "GB", "TB", "PB"];
    if bytes < 1000 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1000.0;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// `count x each`, saturating (a product past `u64` is simply too large).
pub fn times(count: usize, each: u64) -> u64 {
    (count as u64).saturating_mul(each)
}

/// Sizes of what the animation core holds, for loaders to charge before they build it.
/// Each is an upper estimate that includes the transient copies made while building.
pub mod cost {
    use std::mem::size_of;

    use glam::Vec4;

    use crate::anim::{JointTrack, Mat3x4, Transform, Vertex};

    /// One joint of a skeleton: its name (64), parent (8), bind pose, offset in the skeleton
    /// and in the loader's list (two `Mat3x4`), source index and parent slot (16), the
    /// batch's offset splatted across four lanes (four `Mat3x4`), and the loader's own record
    /// of it (128).
    pub const JOINT: u64 = 64
        + 8
        + size_of::<Transform>() as u64
        + 2 * size_of::<Mat3x4>() as u64
        + 16
        + 4 * size_of::<Mat3x4>() as u64
        + 128;

    /// What one clip holds for each joint of the skeleton even when the clip does not
    /// animate it: its track, its bind values in the sampler's constant group (three `Vec4`s
    /// and their joint indices), and the sampler's transient per-channel records.
    pub const CLIP_JOINT: u64 =
        size_of::<JointTrack>() as u64 + 3 * (size_of::<Vec4>() as u64 + 2) + 3 * 48;

    /// One animation key of one channel: time and value in the track, the same in the
    /// sampler's frame-major data, and the loader's copies while converting (cubic splines
    /// count each tangent as a key), plus the half `Vec4` of slerp arc the sampler keeps for
    /// a rotation key.
    pub const KEY: u64 = 4 * (4 + size_of::<Vec4>() as u64) + 8;

    /// A clip of `joints` joints before its keys ([`KEY`] each, charged separately).
    pub fn clip(joints: usize) -> u64 {
        super::times(joints, CLIP_JOINT).saturating_add(256)
    }

    /// One mesh vertex, and the loader's copy of it while building.
    pub const VERTEX: u64 = 2 * size_of::<Vertex>() as u64;
    /// One triangle's three `u32` indices, and the loader's copy.
    pub const TRIANGLE: u64 = 2 * 12;

    /// A decoded RGBA8 image of `width x height` pixels.
    pub fn rgba8_image(width: u32, height: u32) -> u64 {
        u64::from(width)
            .saturating_mul(u64::from(height))
            .saturating_mul(4)
    }

    /// What decoding a `width x height` texture for upload holds: RGBA8 texels with a full
    /// mip chain (a third more). Block-compressed DDS data uploaded as it is holds less; when
    /// the device cannot sample it, it is decoded to exactly this.
    pub fn texture(width: u32, height: u32) -> u64 {
        let level0 = rgba8_image(width, height);
        level0.saturating_add(level0 / 3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(max_memory: u64) -> LoadOptions {
        LoadOptions {
            max_memory: Some(max_memory),
            ..LoadOptions::default()
        }
    }

    #[test]
    fn the_limit_grows_with_the_input_up_to_the_cap_unless_named() {
        let default = LoadOptions::default();
        let b = Budget::new(1000, &default);
        assert_eq!(b.limit(), ALLOWANCE + 32_000);
        let mut b = Budget::new(1 << 40, &default);
        assert_eq!(b.limit(), DEFAULT_MAX_MEMORY);
        b.add_input(u64::MAX);
        assert_eq!(b.limit(), DEFAULT_MAX_MEMORY);
        let mut b = Budget::new(1000, &options(1 << 30));
        assert_eq!(
            b.limit(),
            1 << 30,
            "--max-memory is the limit, even above the formula"
        );
        b.add_input(1 << 40);
        assert_eq!(b.limit(), 1 << 30, "and below it");
    }

    #[test]
    fn charges_accumulate_and_refusals_say_what() {
        let mut b = Budget::new(0, &options(1000));
        b.charge(600, || unreachable!()).expect("fits");
        b.check(400, || unreachable!()).expect("fits exactly");
        let err = b
            .charge(401, || "5 clips x 3 joints of tracks".into())
            .expect_err("over");
        assert_eq!(
            err.to_string(),
            "5 clips x 3 joints of tracks need 401 B, over the load budget of 1.0 KB \
             (--max-memory; 600 B already used)"
        );
        assert_eq!(b.used(), 600);
        let e = err.into_load_error("a.gltf", "animations");
        assert_eq!(e.kind, ErrorKind::TooLarge);
        assert!(
            e.to_string().starts_with("a.gltf: animations: 5 clips"),
            "{e}"
        );
    }

    #[test]
    fn sizes_read_in_decimal_units() {
        assert_eq!(human(999), "999 B");
        assert_eq!(human(73_000_000), "73.0 MB");
        assert_eq!(human(6_400_000_000), "6.4 GB");
        assert_eq!(human(u64::MAX), "18446.7 PB");
    }
}
