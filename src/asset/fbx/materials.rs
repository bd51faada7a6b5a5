//! Materials and their textures.
//!
//! Each FBX material keeps its name and its diffuse colour (times the diffuse factor) as the
//! base colour; its specular exponent and colour become roughness and `fresnel0` the way the
//! `.m3d` and `.x` loaders map the same Blinn-Phong terms. The diffuse colour's texture is the
//! base-colour texture and the normal map's the normal texture (a bump map, a height field, is
//! not one).
//!
//! A texture is either embedded in the file (its bytes are in the scene) or a file: the
//! file's relative name is looked for in the model's folder, then its bare name there, under
//! the reading policy of every loader ([`FileTextures`]: regular files, the size cap, nothing
//! outside the folder; an absolute name is never opened as it is). Either kind must be PNG,
//! JPEG or DDS and fit the load's budget once decoded; one that is missing or cannot be used
//! (a TGA or PSD, say) is a warning, once per texture, and the material keeps its colour.
//! Embedded textures are warned about rather than refused (unlike a damaged glTF image): FBX
//! files routinely embed formats throng does not decode.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use super::warnings::Warnings;
use crate::anim::{Material, Texture};
use crate::asset::LoadOptions;
use crate::asset::budget::Budget;
use crate::asset::texture::{self, FileTextures};

/// Materials in the scene's order (ufbx's `typed_id`), and the textures they use.
pub(super) struct Materials {
    pub materials: Vec<Material>,
    pub textures: Vec<Texture>,
}

/// Where a material's texture is while materials are read: the index among the embedded
/// textures or among the files, which are joined (files first) at the end.
#[derive(Clone, Copy)]
enum Slot {
    Embedded(usize),
    File(usize),
}

/// Converts every material of `scene`; texture files are looked for in `dir` (none when
/// `None`; embedded textures are read either way).
pub(super) fn read(
    scene: &ufbx::Scene,
    dir: Option<&Path>,
    options: &LoadOptions,
    budget: &mut Budget,
    warn: &mut Warnings,
) -> Materials {
    // Embedded textures first (they are charged to the budget directly), then files (through
    // `FileTextures`, which holds the budget while it reads).
    let mut embedded = Embedded::default();
    let mut slots: Vec<[Option<Slot>; 2]> = scene
        .materials
        .iter()
        .map(|m| {
            maps(m).map(|map| {
                let t = file_texture(map)?;
                embedded.read(t, budget, warn).map(Slot::Embedded)
            })
        })
        .collect();
    let mut files = dir.map(|dir| FileTextures::new(dir, options, budget));
    for (m, material) in scene.materials.iter().enumerate() {
        for (slot, map) in slots[m].iter_mut().zip(maps(material)) {
            if let (None, Some(t), Some(files)) = (*slot, file_texture(map), files.as_mut())
                && t.content.size == 0
            {
                *slot = from_file(t, files, warn).map(Slot::File);
            }
        }
    }
    let mut textures = files.map_or_else(Vec::new, FileTextures::into_textures);
    let shift = textures.len();
    textures.extend(embedded.textures);
    let index = |slot: Option<Slot>| match slot? {
        Slot::File(k) => Some(k),
        Slot::Embedded(k) => Some(shift + k),
    };
    let materials = scene
        .materials
        .iter()
        .zip(slots)
        .enumerate()
        .map(|(i, (m, [base, normal]))| convert(i, m, index(base), index(normal)))
        .collect();
    Materials {
        materials,
        textures,
    }
}

/// The two maps whose textures throng uses: diffuse colour and normal map.
fn maps(m: &ufbx::Material) -> [&ufbx::MaterialMap; 2] {
    [&m.fbx.diffuse_color, &m.fbx.normal_map]
}

/// The file texture behind a map: the texture itself, or the first layer of a layered one.
fn file_texture(map: &ufbx::MaterialMap) -> Option<&ufbx::Texture> {
    let texture = map.texture.as_ref()?;
    match texture.type_ {
        ufbx::TextureType::File => Some(texture),
        _ => texture.file_textures.first().map(|t| &**t),
    }
}

/// One material in throng's terms.
fn convert(
    i: usize,
    m: &ufbx::Material,
    base_color_texture: Option<usize>,
    normal_texture: Option<usize>,
) -> Material {
    let name = match &*m.element.name {
        "" => format!("material{i}"),
        n => n.to_string(),
    };
    let [r, g, b, _] = if m.fbx.diffuse_color.has_value {
        let factor = scalar(&m.fbx.diffuse_factor, 1.0);
        let [r, g, b] = rgb(&m.fbx.diffuse_color).map(|c| (c * factor).clamp(0.0, 1.0));
        [r, g, b, 1.0]
    } else {
        Material::default().base_color
    };
    let fresnel0 = if m.fbx.specular_color.has_value {
        let factor = scalar(&m.fbx.specular_factor, 1.0);
        rgb(&m.fbx.specular_color).map(|c| (c * factor).clamp(0.0, 1.0))
    } else {
        Material::default().fresnel0
    };
    let exponent = scalar(&m.fbx.specular_exponent, 0.0);
    Material {
        name,
        base_color: [r, g, b, 1.0],
        base_color_texture,
        normal_texture,
        roughness: (2.0 / (exponent.max(0.0) + 2.0)).powf(0.25),
        fresnel0,
        alpha_clip: false,
    }
}

/// A finite scalar from a material map, or `fallback`.
fn scalar(map: &ufbx::MaterialMap, fallback: f32) -> f32 {
    let x = map.value_vec4.x as f32;
    if map.has_value && x.is_finite() {
        x
    } else {
        fallback
    }
}

/// The map's colour, with components that are not finite as 0.
fn rgb(map: &ufbx::MaterialMap) -> [f32; 3] {
    let v = &map.value_vec4;
    [v.x, v.y, v.z].map(|c| {
        let c = c as f32;
        if c.is_finite() { c } else { 0.0 }
    })
}

/// How warnings name a texture: its file name as the FBX gives it, else its element's name.
fn shown(t: &ufbx::Texture) -> String {
    match (&*t.relative_filename, &*t.absolute_filename) {
        ("", "") => format!("texture '{}'", &*t.element.name),
        ("", name) | (name, _) => format!("texture '{name}'"),
    }
}

/// Embedded textures read so far, each once (by ufbx's texture file index).
#[derive(Default)]
struct Embedded {
    by_file: HashMap<u32, Option<usize>>,
    textures: Vec<Texture>,
}

impl Embedded {
    /// The index of `t`'s embedded image, read and charged the first time; `None` (warned)
    /// when it is not embedded, not a usable image or over the budget.
    fn read(
        &mut self,
        t: &ufbx::Texture,
        budget: &mut Budget,
        warn: &mut Warnings,
    ) -> Option<usize> {
        if t.content.size == 0 {
            return None;
        }
        if let Some(&known) = self.by_file.get(&t.file_index) {
            return known;
        }
        let name = format!("embedded {}", shown(t));
        let bytes = t.content.size as u64;
        let kept = budget
            .charge(bytes, || format!("a copy of the {bytes}-byte image"))
            .map_err(|e| e.to_string())
            .and_then(|()| texture::probe(&name, Arc::from(&*t.content)))
            .and_then(|texture| texture::charge(budget, &texture).map(|()| texture));
        let slot = match kept {
            Ok(texture) => {
                self.textures.push(texture);
                Some(self.textures.len() - 1)
            }
            Err(why) => {
                warn.once(
                    format!("texture {}", t.file_index),
                    format!("{name} {why}; materials using it keep their colour"),
                );
                None
            }
        };
        self.by_file.insert(t.file_index, slot);
        slot
    }
}

/// The index among `files` of `t`'s file: its relative name in the model's folder, else its
/// bare file name there; `None` (warned once per texture) when neither can be used.
fn from_file(t: &ufbx::Texture, files: &mut FileTextures, warn: &mut Warnings) -> Option<usize> {
    let relative = t.relative_filename.replace('\\', "/");
    let absolute = t.absolute_filename.replace('\\', "/");
    let named = if relative.is_empty() {
        &absolute
    } else {
        &relative
    };
    let bare = Path::new(named)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let key = format!("{relative}\n{absolute}");
    files.named(
        &key,
        |files| {
            let first = if relative.is_empty() {
                Err("has no relative file name".to_string())
            } else {
                files.index_of(&relative)
            };
            match first {
                Err(_) if !bare.is_empty() && bare != relative => files.index_of(&bare),
                other => other,
            }
        },
        |why| {
            warn.once(
                format!("texture file {key}"),
                format!("{} {why}; materials using it keep their colour", shown(t)),
            )
        },
    )
}
