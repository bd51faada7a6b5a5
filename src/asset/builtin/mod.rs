//! The built-in character: a 22-joint humanoid with one continuous skinned surface and
//! three looping clips (`idle`, `walk`, `run`), generated entirely by code so that throng has
//! something to show without any file. It is the default model of every command.
//!
//! Units are metres and seconds; +Y is up and the character faces +Z (glTF's convention).

mod body;
mod borders;
mod clips;
mod mesh;
pub mod props;
mod skeleton;
mod surface_nets;

pub use skeleton::j as joints;

use crate::anim::{AnimError, Skeleton, SkinnedModel};

/// The name commands accept for the built-in character.
pub const NAME: &str = "builtin";

/// Generates the built-in character.
pub fn model() -> Result<SkinnedModel, AnimError> {
    let skeleton = Skeleton::with_derived_offsets(skeleton::joints())?;
    let clips = clips::clips(&skeleton)?;
    SkinnedModel::new(NAME, NAME, skeleton, clips, mesh::mesh())
}
