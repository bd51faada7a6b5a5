//! The animation core: skeletons, clips, sampling, palettes, instances and CPU skinning.
//!
//! Knows nothing of files, Vulkan or threads. Math is glam with column vectors (`p' = M p`):
//! `to_root[j] = to_root[parent(j)] * local[j]` and `palette[j] = to_root[j] * offset[j]`.
//! Every evaluation writes into caller-provided memory and performs no heap allocation.
//!
//! # Stages
//!
//! One frame of one instance is a chain of stages, each a plain function of borrowed inputs
//! and outputs (the shape of ozz-animation's jobs):
//!
//! | stage | one instance | a batch (one instance per SIMD lane) |
//! | --- | --- | --- |
//! | sample | [`ClipSampler::sample`] | `ClipSampler::sample_lanes` (`sampler::soa`) |
//! | blend | [`blend_poses`] | (cross-fading instances take the per-instance path) |
//! | local-to-model | [`local_to_model`] | inside the fused pass |
//! | palette | [`model_to_palette`] | inside the fused pass |
//! | local-to-palette (fused) | [`local_to_palette`] | `pose::soa` |
//! | all of the above | [`SkinnedModelInstance::evaluate`] | [`evaluate_batch`] |
//!
//! Every stage has the same length rule: `N` is the joint count (times the instance count for
//! a batch); inputs and outputs may be longer than `N` and only their first `N` entries are
//! read or written; a shorter one panics, as each function's `# Panics` says.
//!
//! # Rooms
//!
//! The modules depend on each other in one direction only (a test checks it):
//! `simd` and `matrix` are leaves; `transform` builds on them; `skeleton`, `track`, `mesh`
//! and `error` describe a model; `sampler` compiles tracks (its `soa` child samples a batch);
//! `clip` owns tracks and their sampler; `pose` holds the stages after sampling (its `soa`
//! child is the batch's hierarchy pass); `model` assembles a skeleton, clips and a mesh;
//! `instance` plays a model; `batch` runs the lane stages for several instances; `skinning`
//! applies palettes to vertices (`skin_gpu` as the shaders do). `sample_grid` spaces the
//! times a clip is sampled at; `bake` turns a clip into a table of palettes at a fixed rate and
//! `bake_error` measures it against the exact clip; `clip_bounds` bounds every pose of a clip.

mod bake;
mod bake_error;
mod batch;
mod bounds;
mod clip;
mod clip_bounds;
mod error;
mod exercise;
mod instance;
mod lod;
mod matrix;
mod mesh;
mod model;
mod pose;
mod sample_grid;
mod sampler;
mod simd;
mod skeleton;
mod skin_gpu;
mod skinning;
mod track;
mod transform;

pub use bake::{BakedClip, bake_clip};
pub use bake_error::{BakeError, bake_error};
pub use batch::{
    Batch, BatchScratch, MAX_DIRECT_STREAMS, MAX_LANES, PaletteStores, VectorIsa, batch_lanes,
    evaluate_batch, vector_isa,
};
pub(crate) use batch::{evaluate_batch_unfenced, finish_streaming};
pub use bounds::MAX_MAGNITUDE;
pub use clip::AnimationClip;
pub use clip_bounds::{JointVolume, bind_bounds, clip_bounds, joint_volumes};
pub use error::AnimError;
pub use instance::{Playback, QueuedClip, SkinnedModelInstance};
pub use lod::MeshLod;
pub use matrix::Mat3x4;
pub use mesh::{Bounds, Material, Mesh, Subset, Texture, TextureEncoding, Vertex};
pub use model::SkinnedModel;
#[allow(deprecated)]
pub use pose::write_palette;
pub use pose::{
    PoseScratch, blend_poses, local_to_model, local_to_palette, model_to_palette,
    palette_from_locals,
};
pub use sampler::ClipSampler;
pub use skeleton::{Joint, MAX_JOINTS, Skeleton};
pub use skin_gpu::{gpu_blend_matrix, gpu_skin_position};
pub use skinning::{SkinnedVertex, blend_matrix, skin_vertex, skin_vertices};
pub use track::{Channel, Interpolation, JointTrack};
pub use transform::{Transform, nlerp_short, slerp_short};

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// The identifiers a path prefix such as `super::` is followed by in `text`:
    /// `prefix name`, or every first segment of `prefix {a::b, c}`.
    fn names_after(text: &str, prefix: &str) -> Vec<String> {
        let ident = |s: &str| -> String {
            s.trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        };
        let mut names = Vec::new();
        for (at, _) in text.match_indices(prefix) {
            // `crate::anim::` also ends in `anim::`; only whole prefixes count.
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let rest = &text[at + prefix.len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let (mut depth, mut item) = (0, String::new());
                for c in group.chars() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            names.push(ident(&item));
                            item.clear();
                            continue;
                        }
                        _ => {}
                    }
                    item.push(c);
                }
                names.push(ident(&item));
            } else {
                names.push(ident(rest));
            }
        }
        names
    }

    /// Which direct children of `anim` each child uses, read from the source: every
    /// `crate::anim::child` anywhere in the child, and `super::child` (from `anim/x.rs` or
    /// `anim/x/mod.rs`) or `super::super::child` (from `anim/x/y.rs`). Unit tests (everything
    /// from `#[cfg(test)]` on) are left out: they may reach anywhere.
    fn dependencies() -> BTreeMap<String, BTreeSet<String>> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/anim");
        let mut files: Vec<(String, std::path::PathBuf, &str)> = Vec::new();
        for entry in std::fs::read_dir(&root).expect("src/anim") {
            let path = entry.expect("entry").path();
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                for inner in std::fs::read_dir(&path).expect("child folder") {
                    let inner = inner.expect("entry").path();
                    let up = if inner.ends_with("mod.rs") {
                        "super::"
                    } else {
                        "super::super::"
                    };
                    files.push((stem.clone(), inner, up));
                }
            } else if stem != "mod" {
                files.push((stem, path, "super::"));
            }
        }
        let children: BTreeSet<String> = files.iter().map(|f| f.0.clone()).collect();
        let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (child, path, up) in &files {
            let text = std::fs::read_to_string(path).expect("source");
            let code: String = text
                .split("#[cfg(test)]")
                .next()
                .unwrap_or("")
                .lines()
                .filter(|line| !line.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            let text = code.as_str();
            let used = deps.entry(child.clone()).or_default();
            for name in names_after(text, up)
                .into_iter()
                .chain(names_after(text, "crate::anim::"))
            {
                if children.contains(&name) && name != *child {
                    used.insert(name);
                }
            }
            // Items re-exported by `anim` itself would hide a dependency.
            for name in names_after(text, "crate::anim::") {
                assert!(
                    children.contains(&name),
                    "{}: `crate::anim::{name}` goes through a re-export; name the module",
                    path.display()
                );
            }
        }
        deps
    }

    #[test]
    fn the_reader_sees_grouped_and_nested_paths() {
        let text = "use super::{a::X, b::{c, d}};\nuse crate::anim::e::F;\nlet x = sub::super::g;";
        assert_eq!(names_after(text, "super::"), ["a", "b"]);
        assert_eq!(names_after(text, "crate::anim::"), ["e"]);
    }

    /// No two direct children of `anim` depend on each other, directly or through others.
    #[test]
    fn anim_children_have_no_import_cycle() {
        let deps = dependencies();
        assert!(deps["batch"].contains("simd") && deps["model"].contains("skeleton"));
        // Everything each child reaches, directly or not.
        let mut reach = deps.clone();
        loop {
            let mut grew = false;
            for child in deps.keys() {
                let through: BTreeSet<String> = reach[child]
                    .iter()
                    .flat_map(|d| reach[d].iter().cloned())
                    .collect();
                let set = reach.get_mut(child).expect("child");
                for d in through {
                    grew |= set.insert(d);
                }
            }
            if !grew {
                break;
            }
        }
        let cycles: Vec<String> = reach
            .iter()
            .filter(|(child, reached)| reached.contains(*child))
            .map(|(child, reached)| format!("{child} -> {reached:?}"))
            .collect();
        assert!(cycles.is_empty(), "import cycles in src/anim: {cycles:#?}");
    }
}
