//! Baked animation for a crowd: every clip of every model sampled once at a fixed rate into
//! one table of palettes (`anim::bake_clip`), which far instances read instead of palettes the
//! CPU evaluates for them each frame. Instances of one clip share its frames: pose sharing for
//! free.
//!
//! The table is charged to a memory limit: a clip whose frames do not fit is left out with a
//! warning and its instances stay exact.

use crate::anim::{
    BakedClip, JointVolume, Mat3x4, PoseScratch, SkinnedModel, bake_clip, joint_volumes,
};

/// Sub-steps between two frames at which the baked error is measured.
const ERROR_SUBSAMPLES: u32 = 4;

/// How clips are baked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BakeSettings {
    /// Frames per second of clip time (`--bake-fps`).
    pub fps: f32,
    /// The most the table may take, in bytes (`--bake-memory`).
    pub memory_limit: u64,
}

impl Default for BakeSettings {
    fn default() -> Self {
        Self {
            fps: 30.0,
            memory_limit: 256 << 20,
        }
    }
}

/// One baked clip and where its frames sit in the table.
#[derive(Clone, Debug)]
pub struct BakedEntry {
    /// Index of its first matrix in the table.
    pub base: u32,
    /// Its frames.
    pub clip: BakedClip,
    /// A bound on the distance, in model units, between a skinned vertex under the baked
    /// frames (interpolated) and under exact palettes, anywhere in the clip (see
    /// `vertex_error_bound` in `src/crowd/baked.rs`).
    pub error: f32,
}

/// What baking did, for the start-up line and warnings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BakeReport {
    /// Clips baked.
    pub clips: usize,
    /// The table's size in bytes.
    pub bytes: u64,
    /// One line per clip left exact because it did not fit.
    pub left_out: Vec<String>,
}

/// Every baked clip of a crowd, indexed like the crowd's bounds (model by model, one per
/// clip); see the module documentation.
#[derive(Clone, Debug, Default)]
pub struct BakedLibrary {
    entries: Vec<Option<BakedEntry>>,
    matrices: usize,
    settings: Option<BakeSettings>,
}

impl BakedLibrary {
    /// Bakes the clips of `models`, in order, until the memory limit; `slots` says how many
    /// entries each model takes (its clips, then its bind pose, which has none).
    pub(crate) fn bake(
        models: &[std::sync::Arc<SkinnedModel>],
        slots: impl Fn(usize) -> usize,
        settings: BakeSettings,
    ) -> (Self, BakeReport) {
        let mut entries = Vec::new();
        let mut report = BakeReport::default();
        let mut matrices = 0usize;
        let fps = if settings.fps.is_finite() && settings.fps > 0.0 {
            settings.fps
        } else {
            BakeSettings::default().fps
        };
        for (m, model) in models.iter().enumerate() {
            let clips = model.clips();
            let volumes = joint_volumes(model);
            for c in 0..slots(m) {
                let Some(clip) = clips.get(c) else {
                    entries.push(None);
                    continue;
                };
                // Checked before baking: a clip that does not fit costs nothing.
                let frames = (clip.duration() * fps).ceil().max(1.0) as u64 + 1;
                let bytes = frames * model.joint_count() as u64 * 48;
                if report.bytes + bytes > settings.memory_limit
                    || matrices + (bytes / 48) as usize > u32::MAX as usize
                {
                    report.left_out.push(format!(
                        "clip {} of {} ({:.1} MB at {fps} fps) does not fit the baked-animation \
                         limit of {:.1} MB ({:.1} MB used): its instances stay exact",
                        crate::text::printable(clip.name()),
                        crate::text::printable(model.name()),
                        bytes as f64 / 1e6,
                        settings.memory_limit as f64 / 1e6,
                        report.bytes as f64 / 1e6
                    ));
                    entries.push(None);
                    continue;
                }
                let baked = bake_clip(model, c, fps).map(|baked| {
                    let error = vertex_error_bound(model, c, &baked, &volumes);
                    (baked, error)
                });
                let (baked, error) = match baked {
                    Ok(b) => b,
                    Err(e) => {
                        report.left_out.push(format!(
                            "clip {} of {} cannot be baked ({e}): its instances stay exact",
                            crate::text::printable(clip.name()),
                            crate::text::printable(model.name()),
                        ));
                        entries.push(None);
                        continue;
                    }
                };
                let base = matrices as u32;
                matrices += baked.palettes().len();
                report.bytes += baked.bytes() as u64;
                report.clips += 1;
                entries.push(Some(BakedEntry {
                    base,
                    clip: baked,
                    error,
                }));
            }
        }
        (
            Self {
                entries,
                matrices,
                settings: Some(settings),
            },
            report,
        )
    }

    /// The entry of bound index `index` (the crowd's numbering), if baked.
    pub fn entry(&self, index: usize) -> Option<&BakedEntry> {
        self.entries.get(index).and_then(Option::as_ref)
    }

    /// Every baked clip, in table order.
    pub fn entries(&self) -> impl Iterator<Item = &BakedEntry> {
        self.entries.iter().flatten()
    }

    /// Matrices in the table.
    pub fn matrices(&self) -> usize {
        self.matrices
    }

    /// The settings it was baked with (`None`: nothing baked yet).
    pub fn settings(&self) -> Option<BakeSettings> {
        self.settings
    }
}

/// A crowd's baked frames, with a number that changes each time they do, so that a renderer
/// knows to upload them again.
#[derive(Default)]
pub(crate) struct BakedFrames {
    library: BakedLibrary,
    generation: u64,
}

impl BakedFrames {
    /// Bakes `models` again ([`BakedLibrary::bake`]; `slots` as there) in place of the frames
    /// before.
    pub(crate) fn bake(
        &mut self,
        models: &[std::sync::Arc<SkinnedModel>],
        slots: impl Fn(usize) -> usize,
        settings: BakeSettings,
    ) -> BakeReport {
        let (library, report) = BakedLibrary::bake(models, slots, settings);
        self.library = library;
        self.generation += 1;
        report
    }

    /// The frames (empty until baked).
    pub(crate) fn library(&self) -> &BakedLibrary {
        &self.library
    }

    /// Changes each time the frames do.
    pub(crate) fn generation(&self) -> u64 {
        self.generation
    }
}

/// A bound on how far any skinned vertex of `model` lands from its exact place when clip
/// `clip` is drawn from `baked`, measured at every frame and [`ERROR_SUBSAMPLES`] times
/// between: linear blend skinning moves a vertex by a weighted mean of its joints'
/// differences, and a joint's difference `D = exact - baked` moves any point `p` of its
/// volume (centre `c`, radius `r`) by at most `|D c| + |D|_F r` (the Frobenius norm bounds
/// the linear part's stretch). Per joint, not per vertex: a frame costs what the skeleton
/// costs, so baking a large mesh stays quick (`anim::bake_error` measures the vertices
/// themselves, for the documentation's table).
pub fn vertex_error_bound(
    model: &SkinnedModel,
    clip: usize,
    baked: &BakedClip,
    volumes: &[Option<JointVolume>],
) -> f32 {
    let joints = model.joint_count();
    let mut scratch = PoseScratch::new(joints);
    let mut exact = vec![Mat3x4::IDENTITY; joints];
    let mut approx = vec![Mat3x4::IDENTITY; joints];
    let mut worst = 0.0f32;
    let intervals = baked.frames().saturating_sub(1);
    let parts = ERROR_SUBSAMPLES + 1;
    for k in 0..=intervals {
        let subsamples = if k < intervals { parts } else { 1 };
        for s in 0..subsamples {
            let t0 = baked.time_of(k);
            let t1 = baked.time_of((k + 1).min(intervals));
            let time = t0 + (t1 - t0) * (s as f32 / parts as f32);
            model.evaluate(clip, time, &mut scratch, &mut exact);
            baked.sample(time, &mut approx);
            for ((e, a), v) in exact.iter().zip(&approx).zip(volumes) {
                let Some(v) = v else { continue };
                let d: [glam::Vec4; 3] = std::array::from_fn(|r| e.rows[r] - a.rows[r]);
                let linear = d
                    .iter()
                    .map(|row| row.truncate().length_squared())
                    .sum::<f32>()
                    .sqrt();
                let centre = glam::Vec3::new(
                    d[0].truncate().dot(v.centre) + d[0].w,
                    d[1].truncate().dot(v.centre) + d[1].w,
                    d[2].truncate().dot(v.centre) + d[2].w,
                );
                worst = worst.max(centre.length() + linear * v.radius);
            }
        }
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crowd::test_models::stick;

    #[test]
    fn every_clip_is_baked_the_bind_pose_is_not_and_each_bake_is_a_new_generation() {
        let models = [stick(2)];
        let mut frames = BakedFrames::default();
        assert_eq!(frames.generation(), 0);
        assert_eq!(frames.library().matrices(), 0);
        // Two clips, then the bind pose.
        let report = frames.bake(&models, |_| 3, BakeSettings::default());
        assert_eq!(frames.generation(), 1);
        assert_eq!(report.clips, 2);
        assert!(report.left_out.is_empty(), "{report:?}");
        let library = frames.library();
        assert!(library.entry(0).is_some() && library.entry(1).is_some());
        assert!(library.entry(2).is_none(), "the bind pose has no frames");
        let second = library.entry(1).expect("baked");
        assert_eq!(
            second.base as usize,
            library.entry(0).expect("baked").clip.palettes().len()
        );

        // Nothing fits: every clip left out, and still a new generation.
        let none = BakeSettings {
            memory_limit: 0,
            ..BakeSettings::default()
        };
        let report = frames.bake(&models, |_| 3, none);
        assert_eq!(frames.generation(), 2);
        assert_eq!((report.clips, report.left_out.len()), (0, 2));
        assert_eq!(frames.library().matrices(), 0);
    }
}
