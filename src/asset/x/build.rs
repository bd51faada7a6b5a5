//! Reading the file, then assembling the [`SkinnedModel`].

use std::path::Path;

use super::reader::Result;
use super::{clips, document, geometry, materials, skeleton};
use crate::anim::{Mesh, SkinnedModel};
use crate::asset::{LoadError, LoadOptions};

/// The model in `bytes`; `file` names it in errors and gives it its name (the stem).
pub(super) fn model(
    file: &str,
    bytes: &[u8],
    texture_dir: Option<&Path>,
    options: &LoadOptions,
) -> Result<SkinnedModel> {
    let doc = document::read(file, bytes)?;
    let rig = skeleton::build(file, &doc)?;
    let clips = clips::read(file, &doc, &rig)?;
    let geometry = geometry::build(file, &doc, &rig)?;
    let (materials, textures) = materials::resolve(
        file,
        &geometry.materials,
        texture_dir,
        options.max_file_size,
    );
    let mesh = Mesh {
        vertices: geometry.vertices,
        indices: geometry.indices,
        subsets: geometry.subsets,
        materials,
        textures,
    };
    let name = Path::new(file)
        .file_stem()
        .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned());
    SkinnedModel::new(name, super::FORMAT, rig.skeleton, clips, mesh)
        .map_err(|e| LoadError::from_anim(file, "Mesh", e))
}
