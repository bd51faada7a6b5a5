//! The `Materials` section, in either of its two layouts:
//!
//! - DX12 (the Direct3D 12 book): `Name Diffuse Fresnel0 Roughness AlphaClip MaterialTypeName
//!   DiffuseMap NormalMap`;
//! - DX11 (the Direct3D 11 book): `Ambient Diffuse Specular SpecPower Reflectivity AlphaClip
//!   Effect DiffuseMap NormalMap`, with no name.
//!
//! The layout is recognized from the first keyword of the first material, never from the file
//! name, and every material of a file must use the same one.

use std::collections::HashSet;
use std::path::Path;

use super::reader::{Reader, Result};
use crate::anim::Material;
use crate::asset::ErrorKind;

/// A material with its texture file names, which are resolved later (beside the model).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct FileMaterial {
    pub(super) material: Material,
    pub(super) diffuse_map: String,
    pub(super) normal_map: String,
}

/// The two material layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    Dx12,
    Dx11,
}

/// The first keyword of a material, per layout (index = `Layout as usize`).
const FIRST_KEYWORDS: &[&str] = &["Name:", "Ambient:"];

/// Reads `count` materials.
pub(super) fn read(r: &mut Reader, count: usize) -> Result<Vec<FileMaterial>> {
    r.enter(super::MATERIALS)?;
    let mut materials = Vec::with_capacity(count);
    let mut layout = None;
    for i in 0..count {
        let material =
            read_one(r, &mut layout).map_err(|e| e.at_record(format!("material {i}")))?;
        materials.push(material);
    }
    r.end_of_records(count, "materials", |t| {
        FIRST_KEYWORDS.iter().any(|k| k.as_bytes() == t)
    })?;
    if layout == Some(Layout::Dx11) {
        name_unnamed(&mut materials);
    }
    Ok(materials)
}

fn read_one(r: &mut Reader, layout: &mut Option<Layout>) -> Result<FileMaterial> {
    let this = match r.one_of(FIRST_KEYWORDS)? {
        0 => Layout::Dx12,
        _ => Layout::Dx11,
    };
    match *layout {
        Some(first) if first != this => {
            return Err(r.error(
                ErrorKind::Syntax,
                format_args!(
                    "this material uses the {this:?} layout, but the first one used the {first:?} \
                     layout"
                ),
            ));
        }
        _ => *layout = Some(this),
    }
    match this {
        Layout::Dx12 => read_dx12(r),
        Layout::Dx11 => read_dx11(r),
    }
}

/// The DX12 layout, after `Name:`.
fn read_dx12(r: &mut Reader) -> Result<FileMaterial> {
    let name = r.text()?;
    r.keyword("Diffuse:")?;
    let [red, green, blue] = r.floats()?;
    r.keyword("Fresnel0:")?;
    let fresnel0 = r.floats()?;
    r.keyword("Roughness:")?;
    let roughness = r.f32()?;
    if !(0.0..=1.0).contains(&roughness) {
        return Err(r.error(
            ErrorKind::Invalid,
            format_args!("Roughness must be between 0 and 1, found {roughness}"),
        ));
    }
    let alpha_clip = alpha_clip(r)?;
    r.keyword("MaterialTypeName:")?;
    r.word()?;
    let material = Material {
        name,
        base_color: [red, green, blue, 1.0],
        roughness,
        fresnel0,
        alpha_clip,
        ..Material::default()
    };
    with_maps(r, material)
}

/// The DX11 layout, after `Ambient:`. Ambient and Reflectivity have no counterpart in
/// [`Material`]; they are read (and must be numbers) but not kept.
fn read_dx11(r: &mut Reader) -> Result<FileMaterial> {
    r.floats::<3>()?;
    r.keyword("Diffuse:")?;
    let [red, green, blue] = r.floats()?;
    r.keyword("Specular:")?;
    let specular = r.floats()?;
    r.keyword("SpecPower:")?;
    let spec_power = r.f32()?;
    if spec_power < 0.0 {
        return Err(r.error(
            ErrorKind::Invalid,
            format_args!("SpecPower cannot be negative, found {spec_power}"),
        ));
    }
    r.keyword("Reflectivity:")?;
    r.floats::<3>()?;
    let alpha_clip = alpha_clip(r)?;
    r.keyword("Effect:")?;
    r.word()?;
    let material = Material {
        name: String::new(),
        base_color: [red, green, blue, 1.0],
        roughness: roughness_from_spec_power(spec_power),
        fresnel0: specular.map(|s| s.clamp(0.0, 1.0)),
        alpha_clip,
        ..Material::default()
    };
    with_maps(r, material)
}

fn alpha_clip(r: &mut Reader) -> Result<bool> {
    r.keyword("AlphaClip:")?;
    match r.int()? {
        0 => Ok(false),
        1 => Ok(true),
        other => Err(r.error(
            ErrorKind::Invalid,
            format_args!("AlphaClip must be 0 or 1, found {other}"),
        )),
    }
}

/// Reads the two texture names that end both layouts.
fn with_maps(r: &mut Reader, material: Material) -> Result<FileMaterial> {
    r.keyword("DiffuseMap:")?;
    let diffuse_map = r.text()?;
    r.keyword("NormalMap:")?;
    let normal_map = r.text()?;
    Ok(FileMaterial {
        material,
        diffuse_map,
        normal_map,
    })
}

/// Perceptual roughness from a Blinn-Phong specular exponent.
///
/// The usual correspondence between a Blinn-Phong exponent `n` and a microfacet (GGX/Beckmann)
/// distribution of width `alpha` is `alpha^2 = 2 / (n + 2)` (Walter et al. 2007), and
/// perceptual roughness is `sqrt(alpha)`, hence `roughness = (2 / (n + 2))^(1/4)`. It gives 1
/// for `n = 0`, about 0.58 for `n = 16` and 0.41 for `n = 66`.
pub(super) fn roughness_from_spec_power(n: f32) -> f32 {
    (2.0 / (n.max(0.0) + 2.0)).sqrt().sqrt().clamp(0.0, 1.0)
}

/// Names DX11 materials, which have none in the file: the diffuse map's file stem
/// (`head_diff.dds` gives `head_diff`), with `_{index}` appended when an earlier material
/// already has that name (two soldier materials share `upBody_diff.dds`), and `material{index}`
/// when the map has no usable stem.
fn name_unnamed(materials: &mut [FileMaterial]) {
    let mut taken: HashSet<String> = HashSet::new();
    for (i, m) in materials.iter_mut().enumerate() {
        let stem = Path::new(&m.diffuse_map)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = if stem.is_empty() {
            format!("material{i}")
        } else if taken.contains(&stem) {
            format!("{stem}_{i}")
        } else {
            stem
        };
        taken.insert(name.clone());
        m.material.name = name;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_power_maps_onto_roughness() {
        assert_eq!(roughness_from_spec_power(0.0), 1.0);
        assert!((roughness_from_spec_power(16.0) - 0.577_35).abs() < 1e-4);
        assert!((roughness_from_spec_power(65.986) - 0.4146).abs() < 1e-3);
        assert!(roughness_from_spec_power(1e30) >= 0.0);
    }

    #[test]
    fn unnamed_materials_get_distinct_names() {
        let mut ms: Vec<FileMaterial> = ["a/head.dds", "up.dds", "up.dds", ""]
            .iter()
            .map(|map| FileMaterial {
                material: Material::default(),
                diffuse_map: map.to_string(),
                normal_map: String::new(),
            })
            .collect();
        name_unnamed(&mut ms);
        let names: Vec<&str> = ms.iter().map(|m| m.material.name.as_str()).collect();
        assert_eq!(names, ["head", "up", "up_2", "material3"]);
    }
}
