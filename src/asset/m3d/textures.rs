//! Texture files named by materials (`DiffuseMap`, `NormalMap`), resolved beside the model.
//!
//! A texture that cannot be used (missing, DDS, undecodable, or a name that is not a plain file
//! name) is not an error: the material keeps its flat color and the loader logs one warning per
//! distinct file. Each distinct file is read and decoded once, however many materials use it.

use std::collections::HashMap;
use std::path::{Component, Path};

use super::materials::FileMaterial;
use crate::anim::{Material, Texture};
use crate::asset::{source, texture};

/// The materials with texture indices filled in, and the decoded textures they index.
pub(super) fn resolve(
    file: &str,
    materials: Vec<FileMaterial>,
    dir: Option<&Path>,
    max_file_size: u64,
) -> (Vec<Material>, Vec<Texture>) {
    let mut textures = Vec::new();
    let mut cache: HashMap<String, Option<usize>> = HashMap::new();
    let mut lookup = |name: &str| -> Option<usize> {
        let dir = dir?;
        if let Some(&known) = cache.get(name) {
            return known;
        }
        let index = match load(dir, name, max_file_size) {
            Ok(t) => {
                textures.push(t);
                Some(textures.len() - 1)
            }
            Err(why) => {
                log::warn!(
                    "{file}: texture {} {why}; using the material color",
                    crate::text::printable(name)
                );
                None
            }
        };
        cache.insert(name.to_string(), index);
        index
    };
    let materials = materials
        .into_iter()
        .map(|m| Material {
            base_color_texture: lookup(&m.diffuse_map),
            normal_texture: lookup(&m.normal_map),
            ..m.material
        })
        .collect();
    (materials, textures)
}

/// Reads and decodes `name` from `dir`, or says why not (the end of a sentence that starts
/// with the texture's name).
fn load(dir: &Path, name: &str, max_file_size: u64) -> Result<Texture, String> {
    let mut components = Path::new(name).components();
    let plain = matches!(
        (components.next(), components.next()),
        (Some(Component::Normal(_)), None)
    );
    if !plain {
        return Err("is not a plain file name beside the model".into());
    }
    let is_dds = Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("dds"));
    if is_dds {
        return Err("is a DDS file, which throng cannot decode (only PNG and JPEG)".into());
    }
    let bytes = source::read_referenced(dir, Path::new(name), max_file_size).map_err(|f| f.why)?;
    texture::decode(name, &bytes).map_err(|e| format!("cannot be decoded ({e})"))
}
