//! The DirectX `.x` loader, text files (`xof 0303txt` and `0302txt`).
//!
//! Read natively: `Frame` with `FrameTransformMatrix`, `Mesh` with `MeshNormals`,
//! `MeshTextureCoords`, `MeshMaterialList`, `Material` and `TextureFilename`, `SkinWeights`,
//! `AnimTicksPerSecond`, `AnimationSet`, `Animation` and `AnimationKey` (types 0 rotation,
//! 1 scale, 2 position, 4 matrix), references `{ Name }`. Templates and every other object are
//! skipped by brace matching. Binary and compressed `.x` are refused with an error naming the
//! `assimp` feature.
//!
//! The file is tokenized straight from its bytes (`lexer`, no allocation per token), read into
//! plain structures (`document`, `mesh`, `matrix`, `materials`, `animation`) with every count
//! bounded by the bytes left and every index checked, then turned into a skeleton (`skeleton`:
//! which frames are joints, static frames folded), clips (`clips`) and geometry (`geometry`).
//!
//! No axis or handedness change: the file's left-handed, row-vector data is transposed into
//! throng's column-vector convention and otherwise kept as it is, so palettes stay in the
//! file's space (as for `.m3d`).

mod animation;
mod build;
mod clips;
mod document;
mod geometry;
mod lexer;
mod materials;
mod matrix;
mod mesh;
mod reader;
mod skeleton;

pub use build::FORMAT;
pub use clips::DEFAULT_TICKS_PER_SECOND;
pub use skeleton::IMPLICIT_ROOT;

use std::path::Path;

use crate::anim::SkinnedModel;
use crate::asset::{LoadError, LoadOptions, source};

/// Loads a text `.x` file. Errors name the file as `path` displays; textures are looked for in
/// the file's folder. The model's name is the file stem.
pub fn load(path: &Path) -> Result<SkinnedModel, LoadError> {
    load_with(path, &LoadOptions::default())
}

/// [`load`] with explicit limits.
pub fn load_with(path: &Path, options: &LoadOptions) -> Result<SkinnedModel, LoadError> {
    let file = path.display().to_string();
    let bytes = source::read_model_file(path, options.max_file_size)?;
    let dir = source::model_folder(path);
    build::model(&file, &bytes, Some(dir), options)
}

/// Whether `error` is the native loader's refusal of a binary or compressed `.x` file, which
/// Assimp (feature `assimp`) can read instead.
pub fn needs_assimp(error: &LoadError) -> bool {
    error.kind == crate::asset::ErrorKind::Unsupported
        && error.section.as_deref() == Some("header")
        && error.message.ends_with(document::NEEDS_ASSIMP)
}

/// Parses `.x` text. `name` is the file name errors and warnings use (the model is named after
/// its stem); textures are looked for in `texture_dir`, and with `None` nothing outside
/// `bytes` is touched (materials simply get no textures).
pub fn parse(
    name: &str,
    bytes: &[u8],
    texture_dir: Option<&Path>,
) -> Result<SkinnedModel, LoadError> {
    build::model(name, bytes, texture_dir, &LoadOptions::default())
}
