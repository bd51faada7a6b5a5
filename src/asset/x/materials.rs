//! `Material` objects and their `TextureFilename`, and how they become throng's materials.
//!
//! `faceColor` (RGBA) is the base color; `power` and `specularColor` map to roughness and
//! `fresnel0` the way the `.m3d` loader maps the same Blinn-Phong terms (roughness
//! `(2 / (power + 2))^(1/4)`, `fresnel0` the specular color clamped to [0, 1]); the emissive
//! color is read and not kept. Texture files are looked for beside the model through
//! [`texture::load_beside`] (read under the path policy, header checked, decoded when the
//! renderer uploads it); one that cannot be used is a warning (once per file name) and the
//! material keeps its flat color.

use std::collections::HashMap;
use std::path::Path;

use super::reader::{Child, Reader, Result, show};
use crate::anim::{Material, Texture};
use crate::asset::{LoadOptions, texture};

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
    max_file_size: u64,
) -> (Vec<Material>, Vec<Texture>) {
    let mut textures = Vec::new();
    let mut cache: HashMap<&str, Option<usize>> = HashMap::new();
    let mut out = Vec::with_capacity(materials.len());
    for (k, m) in materials.iter().enumerate() {
        let base_color_texture = match (&m.texture, dir) {
            (Some(name), Some(dir)) => *cache.entry(name.as_str()).or_insert_with(|| {
                match load(dir, name, max_file_size) {
                    Ok(t) => {
                        textures.push(t);
                        Some(textures.len() - 1)
                    }
                    Err(why) => {
                        log::warn!(
                            "{file}: texture \"{}\" {why}; using the material color",
                            show(name.as_bytes())
                        );
                        None
                    }
                }
            }),
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
    (out, textures)
}

/// Reads and decodes `name` from `dir`, or says why not (the end of a sentence that starts
/// with the texture's name). Windows separators in the name are read as `/`.
fn load(dir: &Path, name: &str, max_file_size: u64) -> std::result::Result<Texture, String> {
    let relative = name.replace('\\', "/");
    let options = LoadOptions {
        max_file_size,
        ..LoadOptions::default()
    };
    texture::load_beside(dir, &relative, &options)
}
