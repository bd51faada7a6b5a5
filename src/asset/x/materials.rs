//! `Material` objects and their `TextureFilename`, and how they become throng's materials.
//!
//! `faceColor` (RGBA) is the base color; `power` and `specularColor` map to roughness and
//! `fresnel0` the way the `.m3d` loader maps the same Blinn-Phong terms (roughness
//! `(2 / (power + 2))^(1/4)`, `fresnel0` the specular color clamped to [0, 1]); the emissive
//! color is read and not kept. Texture files are looked for beside the model through
//! [`FileTextures`] (read under the path policy, header checked, decoded when the
//! renderer uploads it); one that cannot be used is a warning (once per file name) and the
//! material keeps its flat color.

use std::collections::HashMap;
use std::path::Path;

use super::reader::{Child, Reader, Result, show};
use crate::anim::{Material, Texture};
use crate::asset::LoadOptions;
use crate::asset::budget::Budget;
use crate::asset::texture::FileTextures;

/// One `Material` as the file writes it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct XMaterial {
    /// The object's name, if it has one.
    pub name: Option<String>,
    /// `faceColor`: RGBA.
    pub color: [f32; 4],
    /// `power`: the specular exponent.
    pub power: f32,
    /// `specularColor`: RGB.
    pub specular: [f32; 3],
    /// The first `TextureFilename`, as written.
    pub texture: Option<String>,
}

impl Default for XMaterial {
    fn default() -> Self {
        Self {
            name: None,
            color: [0.8, 0.8, 0.8, 1.0],
            power: 0.0,
            specular: [0.04; 3],
            texture: None,
        }
    }
}

/// Top-level materials by name, which meshes refer to with `{ Name }` (a later definition of
/// a name replaces an earlier one).
pub(super) type NamedMaterials = HashMap<Vec<u8>, XMaterial>;

/// Reads a `Material` whose `{` is consumed, through its `}`.
pub(super) fn read(r: &mut Reader, name: Option<&[u8]>) -> Result<XMaterial> {
    let name = name.map(|n| String::from_utf8_lossy(n).into_owned());
    let previous = r.enter(format!(
        "Material '{}'",
        name.as_deref().unwrap_or_default().escape_debug()
    ));
    let color = r.floats::<4>()?;
    let power = r.f32()?;
    let specular = r.floats::<3>()?;
    let _emissive = r.floats::<3>()?;
    let mut texture = None;
    loop {
        match r.child()? {
            Child::Close => break,
            Child::Reference(_) => {}
            Child::Object { kind, .. } if kind.eq_ignore_ascii_case(b"TextureFilename") => {
                let file = r.string()?;
                r.close()?;
                if texture.is_none() {
                    texture = Some(String::from_utf8_lossy(file).into_owned());
                }
            }
            Child::Object { .. } => r.skip_object()?,
        }
    }
    r.leave(previous);
    Ok(XMaterial {
        name,
        color,
        power,
        specular,
        texture,
    })
}

/// throng's materials for `materials` (in order), with their textures read from `dir` (none
/// when `dir` is `None`). Unnamed materials are named after their texture's stem, else
/// `material{index}`.
pub(super) fn resolve(
    file: &str,
    materials: &[XMaterial],
    dir: Option<&Path>,
    options: &LoadOptions,
    budget: &mut Budget,
) -> (Vec<Material>, Vec<Texture>) {
    let mut files = dir.map(|dir| FileTextures::new(dir, options, budget));
    let mut out = Vec::with_capacity(materials.len());
    for (k, m) in materials.iter().enumerate() {
        let base_color_texture = match (&m.texture, files.as_mut()) {
            (Some(name), Some(files)) => files.named(
                name,
                // Windows separators in the name are read as `/`.
                |files| files.index_of(&name.replace('\\', "/")),
                |why| {
                    log::warn!(
                        "{file}: texture \"{}\" {why}; using the material color",
                        show(name.as_bytes())
                    )
                },
            ),
            _ => None,
        };
        let stem = m.texture.as_deref().and_then(|t| {
            Path::new(&t.replace('\\', "/"))
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        });
        let name = m
            .name
            .clone()
            .or(stem)
            .unwrap_or_else(|| format!("material{k}"));
        out.push(Material {
            name,
            base_color: m.color.map(|c| c.clamp(0.0, 1.0)),
            base_color_texture,
            normal_texture: None,
            roughness: (2.0 / (m.power.max(0.0) + 2.0)).powf(0.25),
            fresnel0: m.specular.map(|c| c.clamp(0.0, 1.0)),
            alpha_clip: false,
        });
    }
    (
        out,
        files.map_or_else(Vec::new, FileTextures::into_textures),
    )
}
