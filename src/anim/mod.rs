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
