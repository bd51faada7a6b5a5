//! A smoke run of a loaded model, shared by the fuzz targets (`fuzz/fuzz_targets/`) and their
//! corpus replays on stable Rust (`tests/*_fuzz_corpus.rs`, `tests/gltf_structured_corpus.rs`).
//!
//! Those check that any model a loader accepts also evaluates and skins without a panic: a
//! malformed file can pass validation with values (times, weights, indices) that only break
//! downstream. One function keeps the targets and the replays doing the same work.

use super::{Mat3x4, PoseScratch, SkinnedModel, SkinnedVertex, skin_vertices};

impl SkinnedModel {
    /// Evaluates every clip at its start, inside, at its end and past its end, skinning every
    /// vertex with each of those palettes, then does the same with the bind pose. The results
    /// are thrown away: this exists to find panics (see the module's comment), not to render.
    pub fn exercise(&self) {
        let n = self.joint_count();
        let mut scratch = PoseScratch::new(n);
        let mut palette = vec![Mat3x4::IDENTITY; n];
        let vertices = &self.mesh().vertices;
        let mut skinned = vec![SkinnedVertex::default(); vertices.len()];
        for (c, clip) in self.clips().iter().enumerate() {
            for t in [0.0, clip.end() * 0.37, clip.end(), clip.end() + 1.0] {
                self.evaluate(c, t, &mut scratch, &mut palette);
                skin_vertices(vertices, &palette, &mut skinned);
            }
        }
        self.bind_palette(&mut scratch, &mut palette);
        skin_vertices(vertices, &palette, &mut skinned);
    }
}
