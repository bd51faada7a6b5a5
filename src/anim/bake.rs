//! Baked animation: a clip sampled once at a fixed rate into a table of palettes that every
//! instance playing the clip shares. A far-away instance then needs no sampling and no
//! hierarchy pass of its own: its palette is a blend of two neighbouring frames of the table.
//!
//! The rules (`docs/baked-animation.md` has the reasoning and the measured error):
//!
//! - **Frames.** A clip of duration `d` baked at `fps` is cut into
//!   `n = max(1, ceil(d * fps))` equal intervals; frame `k` (0 to `n`) is the exact palette
//!   ([`SkinnedModel::evaluate`]) at `k * d / n`. Both ends are exact and the effective rate,
//!   `n / d`, is `fps` or a little more. A clip of no length has one interval of no length:
//!   two equal frames at time 0, so that `frame + 1` exists for every clip.
//! - **Lookup.** [`BakedClip::frame_at`] gives the frame before a time and the weight towards
//!   the next; [`BakedClip::sample`] blends the two element by element,
//!   `(1 - w) * a + w * b`, on the 3x4 matrices as stored: what the GPU shader does.

use glam::Vec4;

use super::error::AnimError;
use super::matrix::Mat3x4;
use super::model::SkinnedModel;
use super::pose::PoseScratch;
use super::sample_grid;

/// The most palettes (frames times joints) one baked table may hold: 4 Mi palettes, 192 MiB
/// (39 minutes of a 60-joint character at 30 frames per second): a bound on what a clip from
/// a file can make a caller allocate.
const MAX_BAKED_PALETTES: u32 = 1 << 22;

/// A clip sampled once at a fixed rate: the palettes of `frames` evenly spaced times from 0 to
/// the clip's duration (both ends included), frame after frame.
#[derive(Clone, Debug, PartialEq)]
pub struct BakedClip {
    frames: u32,
    joints: u32,
    duration: f32,
    step: f32,
    /// Each frame's time ([`sample_grid::time`]), kept so that finding a time's frame costs
    /// a multiplication and two comparisons: the crowd asks once per baked instance per
    /// frame, 100,000 times a frame at 100,000 characters.
    times: Vec<f32>,
    /// `(frames - 1) / duration`: a time's approximate frame.
    rate: f32,
    /// `frames * joints` palettes: frame 0's joints, then frame 1's, ...
    palettes: Vec<Mat3x4>,
}

impl BakedClip {
    /// A table of `palettes`, `n + 1` frames of `joints` matrices at the times
    /// [`sample_grid::time`] gives over `duration`, with the lookups `frame_at` uses.
    fn from_frames(joints: u32, duration: f32, n: u32, palettes: Vec<Mat3x4>) -> Self {
        let frames = n + 1;
        Self {
            times: (0..frames)
                .map(|k| sample_grid::time(k, n, duration))
                .collect(),
            rate: if duration > 0.0 {
                n as f32 / duration
            } else {
                0.0
            },
            frames,
            joints,
            duration,
            step: (f64::from(duration) / f64::from(n)) as f32,
            palettes,
        }
    }

    /// Number of frames (at least 2).
    #[must_use]
    pub fn frames(&self) -> u32 {
        self.frames
    }

    /// Palettes per frame (the model's joint count).
    #[must_use]
    pub fn joints(&self) -> u32 {
        self.joints
    }

    /// Seconds between frames (`duration / (frames - 1)`; 0 for a clip of no length).
    #[must_use]
    pub fn step(&self) -> f32 {
        self.step
    }

    /// The clip's duration, seconds: the time of the last frame.
    #[must_use]
    pub fn duration(&self) -> f32 {
        self.duration
    }

    /// Every palette, frame after frame (`frames * joints`), ready to upload.
    #[must_use]
    pub fn palettes(&self) -> &[Mat3x4] {
        &self.palettes
    }

    /// Size of [`palettes`](Self::palettes) in bytes (48 per palette).
    #[must_use]
    pub fn bytes(&self) -> usize {
        std::mem::size_of_val(self.palettes.as_slice())
    }

    /// The palettes of frame `k`.
    ///
    /// # Panics
    ///
    /// If `k` is not below [`frames`](Self::frames).
    #[must_use]
    pub fn frame(&self, k: u32) -> &[Mat3x4] {
        let j = self.joints as usize;
        &self.palettes[k as usize * j..][..j]
    }

    /// The time of frame `k`: `k * duration / (frames - 1)`, computed in f64 and rounded once
    /// (the very time the frame was evaluated at). Not checked against the frame count.
    #[must_use]
    pub fn time_of(&self, k: u32) -> f32 {
        self.times
            .get(k as usize)
            .copied()
            .unwrap_or_else(|| sample_grid::time(k, self.frames - 1, self.duration))
    }

    /// The frame `f` whose interval holds `time` and the weight `w` (0 to 1) of frame `f + 1`:
    /// the palette at `time` is `(1 - w) * frame(f) + w * frame(f + 1)`. `f + 1` always exists.
    ///
    /// `time` is clamped to `[0, duration]`; NaN plays as 0 (as the clip sampler takes it
    /// for the first key). The end of the clip gives `(frames - 2, 1.0)`, a frame's own time
    /// gives that frame and weight 0 exactly, and a clip of no length gives `(0, 0.0)`.
    ///
    /// A shader does the same with `x = t / duration * (frames - 1)`, `f = min(floor(x),
    /// frames - 2)` and `w = x - f`; it may differ from this by a rounding of `w` (about 1e-7),
    /// and, at a frame's own time, by taking the frame before with a weight of almost 1:
    /// either way a difference of a rounding in the palette, never a visible one.
    #[must_use]
    pub fn frame_at(&self, time: f32) -> (u32, f32) {
        let n = self.frames - 1;
        if !(self.duration > 0.0) {
            return (0, 0.0);
        }
        // `time > 0.0` fails for NaN as well as for negative times.
        let t = if time > 0.0 {
            time.min(self.duration)
        } else {
            0.0
        };
        // An estimate only: the loops below settle the interval on the frames' own times.
        let mut f = ((t * self.rate) as u32).min(n - 1);
        // `x` carries rounding: settle `f` on the interval whose frame times hold `t`, so that
        // a frame's time maps to that frame with weight 0 (a step or two at most).
        while f > 0 && t < self.time_of(f) {
            f -= 1;
        }
        while f + 1 < n && t >= self.time_of(f + 1) {
            f += 1;
        }
        let (t0, t1) = (self.time_of(f), self.time_of(f + 1));
        let w = if t1 > t0 {
            ((t - t0) / (t1 - t0)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (f, w)
    }

    /// Writes the palette at `time` into the first [`joints`](Self::joints) entries of `out`:
    /// frames [`frame_at`](Self::frame_at) blended element by element, as the GPU blends them.
    /// No allocation.
    ///
    /// # Panics
    ///
    /// If `out` is shorter than the joint count.
    pub fn sample(&self, time: f32, out: &mut [Mat3x4]) {
        let out = &mut out[..self.joints as usize];
        let (f, w) = self.frame_at(time);
        let (wa, wb) = (Vec4::splat(1.0 - w), Vec4::splat(w));
        for ((o, a), b) in out.iter_mut().zip(self.frame(f)).zip(self.frame(f + 1)) {
            o.rows = [0, 1, 2].map(|r| wa * a.rows[r] + wb * b.rows[r]);
        }
    }
}

/// Bakes clip `clip` of `model` at `fps` frames per second (see the module documentation for
/// the frame times). Each frame is [`SkinnedModel::evaluate`] at its time, so it is
/// bit-identical to the exact palette there.
///
/// An error when `clip` is not a clip index of `model` ([`AnimError::ClipIndex`]), when `fps`
/// is not positive and finite ([`AnimError::SampleRate`]), or when the table would exceed
/// 2^20 intervals or 2^22 palettes ([`AnimError::TooManySamples`]).
pub fn bake_clip(model: &SkinnedModel, clip: usize, fps: f32) -> Result<BakedClip, AnimError> {
    let source = model.clips().get(clip).ok_or(AnimError::ClipIndex {
        index: clip,
        count: model.clips().len(),
    })?;
    let joints = model.joint_count();
    // Skeletons have at most `u16::MAX` joints, so at least 64 frames always fit.
    let max_frames = MAX_BAKED_PALETTES / joints as u32;
    let n = sample_grid::intervals(source, fps, max_frames - 1)?;
    let duration = source.duration();
    let frames = n + 1;
    let mut palettes = vec![Mat3x4::IDENTITY; frames as usize * joints];
    let mut scratch = PoseScratch::new(joints);
    for (k, frame) in (0..frames).zip(palettes.chunks_exact_mut(joints)) {
        model.evaluate(clip, sample_grid::time(k, n, duration), &mut scratch, frame);
    }
    Ok(BakedClip::from_frames(joints as u32, duration, n, palettes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of two joints whose entries count frames, so blends are easy to read.
    fn table(frames: u32, duration: f32) -> BakedClip {
        let palettes = (0..frames)
            .flat_map(|k| {
                let m = Mat3x4::from_array([k as f32; 12]);
                [m, m]
            })
            .collect();
        BakedClip::from_frames(2, duration, frames - 1, palettes)
    }

    #[test]
    fn frame_at_clamps_and_keeps_the_next_frame() {
        let t = table(31, 1.0);
        assert_eq!(t.frame_at(0.0), (0, 0.0));
        assert_eq!(t.frame_at(-3.0), (0, 0.0));
        assert_eq!(t.frame_at(f32::NEG_INFINITY), (0, 0.0));
        assert_eq!(t.frame_at(f32::NAN), (0, 0.0));
        assert_eq!(t.frame_at(1.0), (29, 1.0));
        assert_eq!(t.frame_at(7.5), (29, 1.0));
        assert_eq!(t.frame_at(f32::INFINITY), (29, 1.0));
        let (f, w) = t.frame_at(0.5 / 30.0);
        assert_eq!(f, 0);
        assert!((w - 0.5).abs() < 1e-5, "{w}");
    }

    #[test]
    fn every_frame_time_maps_to_its_frame() {
        for (frames, duration) in [(2, 0.3), (31, 1.0), (100, 2.7), (1001, 41.3)] {
            let t = table(frames, duration);
            for k in 0..frames - 1 {
                assert_eq!(
                    t.frame_at(t.time_of(k)),
                    (k, 0.0),
                    "{frames} {duration} {k}"
                );
            }
        }
    }

    #[test]
    fn a_clip_of_no_length_always_gives_frame_zero() {
        let t = table(2, 0.0);
        for time in [0.0, 1.0, -1.0, f32::NAN] {
            assert_eq!(t.frame_at(time), (0, 0.0));
        }
    }

    #[test]
    fn sample_blends_element_by_element() {
        let t = table(11, 1.0);
        let mut out = [Mat3x4::IDENTITY; 3];
        t.sample(0.25, &mut out);
        // Frames 2 and 3 hold 2 and 3 everywhere; a quarter second is halfway between them.
        for m in &out[..2] {
            for x in m.to_array() {
                assert!((x - 2.5).abs() < 1e-5, "{x}");
            }
        }
        assert_eq!(
            out[2],
            Mat3x4::IDENTITY,
            "the tail past the joints is left alone"
        );
    }
}
