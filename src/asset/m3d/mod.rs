//! The `.m3d` loader: the plain-text skinned-model format of a well-known Direct3D textbook's
//! character-animation demo (see `m3d-format.md` in the shared docs).
//!
//! Both material layouts are read (the Direct3D 12 book's and the older Direct3D 11 one's), as
//! are static files (`#Bones 0`), which become a rigid model with one implicit joint named
//! `root`. The file is tokenized straight from its bytes (no allocation per token) and checked
//! strictly: counts, indices, parents, numbers. Every failure is a [`LoadError`] naming the
//! file, the section (its banner title) and the record, on one line; nothing from the file can
//! cause a panic or an allocation larger than the file justifies.
//!
//! The format's math is row-vector (`p' = p * M`); throng's is column-vector. Offsets are read
//! as columns, which transposes them; bind poses are derived from the offsets, since the file
//! stores none; keys are translation / rotation / scale and need no conversion.

mod bones;
mod build;
mod clips;
mod header;
mod layout;
mod lexer;
mod materials;
mod numbers;
mod reader;
mod sections;
mod skeleton;
mod subsets;
mod textures;
mod triangles;
mod vertices;

pub use sections::FORMAT;
pub use skeleton::STATIC_ROOT;
// What the section readers share: the banner titles and the line a late error names.
pub(crate) use sections::{
    ANIMATION_CLIPS, BONE_HIERARCHY, BONE_OFFSETS, HEADER, MATERIALS, SUBSET_TABLE, TRIANGLES,
    VERTICES, at_line,
};

use std::path::Path;

use crate::anim::SkinnedModel;
use crate::asset::budget::Budget;
use crate::asset::{LoadError, LoadOptions, source};

/// Loads an `.m3d` file. Errors name the file as `path` displays; textures are looked for in
/// the file's folder. The model's name is the file stem.
pub fn load(path: &Path) -> Result<SkinnedModel, LoadError> {
    load_with(path, &LoadOptions::default())
}

/// [`load`] with explicit limits.
pub fn load_with(path: &Path, options: &LoadOptions) -> Result<SkinnedModel, LoadError> {
    let file = path.display().to_string();
    let bytes = source::read_model_file(path, options.max_file_size)?;
    let dir = source::model_folder(path);
    parse_with_options(&file, &bytes, Some(dir), options)
}

/// Parses `.m3d` text. `name` is the file name errors and warnings use (the model is named
/// after its stem); textures are looked for in `texture_dir`, and with `None` nothing outside
/// `bytes` is touched (materials simply get no textures).
pub fn parse(
    name: &str,
    bytes: &[u8],
    texture_dir: Option<&Path>,
) -> Result<SkinnedModel, LoadError> {
    parse_with_options(name, bytes, texture_dir, &LoadOptions::default())
}

/// [`parse`] under explicit limits (the memory budget's cap).
pub fn parse_with_options(
    name: &str,
    bytes: &[u8],
    texture_dir: Option<&Path>,
    options: &LoadOptions,
) -> Result<SkinnedModel, LoadError> {
    let mut budget = Budget::new(bytes.len() as u64, options);
    let contents = build::read(name, bytes, &mut budget)?;
    build::model(name, contents, texture_dir, options, &mut budget)
}
