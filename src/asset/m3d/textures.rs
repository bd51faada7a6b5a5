//! Texture files named by materials (`DiffuseMap`, `NormalMap`), resolved beside the model.
//!
//! A texture that cannot be used (missing, not PNG, JPEG or DDS, a bad header, a name that is
//! not a plain file name, or pixels that would pass the load's memory budget) is not an error:
//! the material keeps its flat color and the loader logs one warning per distinct name. Each distinct file is read once, however many materials
//! use it; its pixels are decoded only when a renderer uploads it.

use std::path::{Component, Path};

use super::materials::FileMaterial;
use crate::anim::{Material, Texture};
use crate::asset::LoadOptions;
use crate::asset::budget::Budget;
use crate::asset::texture::FileTextures;

/// The materials with texture indices filled in, and the textures they index.
pub(super) fn resolve(
    file: &str,
    materials: Vec<FileMaterial>,
    dir: Option<&Path>,
    options: &LoadOptions,
    budget: &mut Budget,
) -> (Vec<Material>, Vec<Texture>) {
    let Some(dir) = dir else {
        let materials = materials.into_iter().map(|m| m.material).collect();
        return (materials, Vec::new());
    };
    let mut files = FileTextures::new(dir, options, budget);
    let mut lookup = |name: &str| {
        files.named(
            name,
            |files| load(files, name),
            |why| {
                log::warn!(
                    "{file}: texture {} {why}; using the material color",
                    crate::text::printable(name)
                )
            },
        )
    };
    let materials = materials
        .into_iter()
        .map(|m| Material {
            base_color_texture: lookup(&m.diffuse_map),
            normal_texture: lookup(&m.normal_map),
            ..m.material
        })
        .collect();
    (materials, files.into_textures())
}

/// The index of texture `name` in `files`, or why it cannot be used (the end of a sentence
/// that starts with the texture's name).
fn load(files: &mut FileTextures<'_>, name: &str) -> Result<usize, String> {
    let mut components = Path::new(name).components();
    let plain = matches!(
        (components.next(), components.next()),
        (Some(Component::Normal(_)), None)
    );
    if !plain {
        return Err("is not a plain file name beside the model".into());
    }
    files.index_of(name)
}
