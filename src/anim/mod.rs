//! The animation core: skeletons, clips, sampling, palettes, instances and CPU skinning.
//!
//! Knows nothing of files, Vulkan or threads. Math is glam with column vectors (`p' = M p`):
//! `to_root[j] = to_root[parent(j)] * local[j]` and `palette[j] = to_root[j] * offset[j]`.
//! Every evaluation writes into caller-provided memory and performs no heap allocation.

mod batch;
mod clip;
mod error;
mod instance;
mod lanes;
mod matrix;
mod mesh;
mod model;
mod pose;
mod sampler;
mod skeleton;
mod skinning;
mod transform;

pub use batch::{Batch, BatchScratch, MAX_LANES, batch_lanes, evaluate_batch};
pub(crate) use batch::{evaluate_batch_unfenced, finish_streaming};
pub use clip::{AnimationClip, Channel, Interpolation, JointTrack};
pub use error::AnimError;
pub use instance::{Playback, QueuedClip, SkinnedModelInstance};
pub use matrix::Mat3x4;
pub use mesh::{Bounds, Material, Mesh, Subset, Texture, Vertex};
pub use model::SkinnedModel;
pub use pose::{PoseScratch, palette_from_locals, write_palette};
pub use sampler::ClipSampler;
pub use skeleton::{Joint, MAX_JOINTS, Skeleton};
pub use skinning::{SkinnedVertex, blend_matrix, skin_vertex, skin_vertices};
pub use transform::{Transform, nlerp_short, slerp_short};
