//! Materials (1256 bytes each): `Name char[100]`, `MaterialInstancePath char[260]` (not used),
//! `DiffuseTexture`, `NormalTexture`, `SpecularTexture` (`char[260]` each), then `Diffuse`,
//! `Ambient`, `Specular`, `Emissive` (4 f32 each), `Power` (f32) and run-time pointers.
//!
//! The diffuse and normal maps are read beside the model through the texture entry point every
//! loader uses. A map that cannot be used (missing, undecodable, a path out of the folder) is
//! not an error: the material keeps its color and one warning names the file.

use std::path::Path;

use super::bytes::{Bytes, Result, f32s_at, name_at, show};
use super::header::Table;
use crate::anim::{Material, Texture};
use crate::asset::budget::Budget;
use crate::asset::texture::FileTextures;
use crate::asset::{ErrorKind, LoadOptions};

const MATERIAL_SIZE: usize = 1256;
const NAME_LEN: usize = 100;
const PATH_LEN: usize = 260;
const DIFFUSE_TEXTURE_AT: usize = 360;
const NORMAL_TEXTURE_AT: usize = 620;
const DIFFUSE_COLOR_AT: usize = 1140;

/// A material as the file gives it, before its maps are read.
pub(super) struct FileMaterial {
    pub(super) name: String,
    pub(super) diffuse: [f32; 4],
    pub(super) diffuse_map: String,
    pub(super) normal_map: String,
}

/// Reads the material table.
pub(super) fn read(b: &Bytes, table: Table) -> Result<Vec<FileMaterial>> {
    let section = super::MATERIALS;
    let records = b.table(
        section,
        table.offset,
        u64::from(table.count),
        MATERIAL_SIZE,
        "materials",
    )?;
    let mut materials = Vec::with_capacity(table.count as usize);
    for (i, m) in records.chunks_exact(MATERIAL_SIZE).enumerate() {
        let name = name_at(m, 0, NAME_LEN);
        let diffuse: [f32; 4] = f32s_at(m, DIFFUSE_COLOR_AT);
        if diffuse.iter().any(|x| !x.is_finite()) {
            return Err(b
                .error(
                    section,
                    ErrorKind::NonFinite,
                    "the diffuse color is not finite",
                )
                .at_record(format!("material {i} ({})", show(&name))));
        }
        materials.push(FileMaterial {
            name,
            diffuse,
            diffuse_map: name_at(m, DIFFUSE_TEXTURE_AT, PATH_LEN),
            normal_map: name_at(m, NORMAL_TEXTURE_AT, PATH_LEN),
        });
    }
    Ok(materials)
}

/// The materials with their maps read from `dir` (none when `dir` is `None`), and the
/// textures they index. Each distinct file is read once and charged to `budget`
/// ([`FileTextures`]).
pub(super) fn resolve(
    file: &str,
    materials: Vec<FileMaterial>,
    dir: Option<&Path>,
    options: &LoadOptions,
    budget: &mut Budget,
) -> (Vec<Material>, Vec<Texture>) {
    let Some(dir) = dir else {
        let materials = materials
            .into_iter()
            .map(|m| plain(m, None, None))
            .collect();
        return (materials, Vec::new());
    };
    let mut files = FileTextures::new(dir, options, budget);
    let mut lookup = |name: &str| {
        if name.is_empty() {
            return None;
        }
        files.named(
            name,
            |files| files.index_of(name),
            |why| {
                log::warn!(
                    "{file}: texture {} {why}; using the material color",
                    show(name)
                )
            },
        )
    };
    let materials = materials
        .into_iter()
        .map(|m| {
            let (diffuse, normal) = (lookup(&m.diffuse_map), lookup(&m.normal_map));
            plain(m, diffuse, normal)
        })
        .collect();
    (materials, files.into_textures())
}

/// A file material with its texture indices.
fn plain(m: FileMaterial, diffuse: Option<usize>, normal: Option<usize>) -> Material {
    Material {
        base_color_texture: diffuse,
        normal_texture: normal,
        name: m.name,
        base_color: m.diffuse,
        ..Material::default()
    }
}
