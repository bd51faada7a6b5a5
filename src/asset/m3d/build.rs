//! Reading the sections in file order, then assembling the [`SkinnedModel`].

use std::path::Path;

use super::materials::FileMaterial;
use super::reader::{Reader, Result};
use super::{bones, clips, header, materials, skeleton, subsets, textures, triangles, vertices};
use crate::anim::{AnimationClip, Mesh, Skeleton, SkinnedModel, Subset, Vertex};
use crate::asset::budget::{Budget, cost, times};
use crate::asset::{ErrorKind, LoadError, LoadOptions};

/// Everything the file says, checked, before textures are resolved.
pub(super) struct Contents {
    materials: Vec<FileMaterial>,
    subsets: Vec<Subset>,
    vertices: Vec<Vertex>,
    renormalized: usize,
    indices: Vec<u32>,
    skeleton: Skeleton,
    clips: Vec<AnimationClip>,
    /// Where each bone's offset was read, and where the vertices end (for errors the
    /// model's assembly finds).
    offset_lines: Vec<usize>,
    vertices_line: usize,
}

/// Reads every section of `bytes`; `file` names the file in errors. What the header's counts
/// will make the model hold is charged to `budget` before any section is read.
pub(super) fn read(file: &str, bytes: &[u8], budget: &mut Budget) -> Result<Contents> {
    let mut r = Reader::new(file, bytes);
    let header = header::read(&mut r)?;
    charge(&r, &header, budget)?;
    let materials = materials::read(&mut r, header.materials)?;
    let subsets = subsets::read(&mut r, &header)?;
    let vertices = vertices::read(&mut r, &header)?;
    let vertices_end = r.position();
    let (indices, banner) = triangles::read(&mut r, &header)?;
    subsets::check_triangles(file, &subsets, &indices, |t| {
        triangles::line_of(&r, banner, t)
    })?;
    let mut offset_lines = Vec::new();
    let skeleton = if header.is_static() {
        // Static files (the rock) end after Triangles; their empty bone sections may also be
        // written out.
        if !r.at_end() {
            bones::read_offsets(&mut r, 0)?;
        }
        if !r.at_end() {
            bones::read_parents(&mut r, 0)?;
        }
        skeleton::implicit_root(file)?
    } else {
        let (offsets, lines) = bones::read_offsets(&mut r, header.bones)?;
        let parents = bones::read_parents(&mut r, header.bones)?;
        offset_lines = lines;
        skeleton::skinned(file, offsets, &offset_lines, &parents)?
    };
    // A file without clips may stop before their (empty) section.
    let clips = if header.clips == 0 && r.at_end() {
        Vec::new()
    } else {
        clips::read(&mut r, header.clips, &skeleton)?
    };
    r.finish()?;
    let vertices_line = r.lines_at(&[vertices_end]).first().copied().unwrap_or(0);
    Ok(Contents {
        materials,
        subsets,
        vertices: vertices.vertices,
        renormalized: vertices.renormalized,
        indices,
        skeleton,
        clips,
        offset_lines,
        vertices_line,
    })
}

/// Charges the mesh, the skeleton and every clip's per-joint tracks the header promises (the
/// keys themselves are bounded by the file's size: a key is at least 45 bytes of text).
fn charge(r: &Reader, h: &header::Header, budget: &mut Budget) -> Result<()> {
    let bones = h.bones.max(1);
    let parts = [
        (
            times(h.vertices, cost::VERTEX).saturating_add(times(h.triangles, cost::TRIANGLE)),
            format!("{} vertices and {} triangles", h.vertices, h.triangles),
        ),
        (
            times(bones, cost::JOINT),
            format!("a skeleton of {bones} bones"),
        ),
        (
            cost::clip(bones).saturating_mul(h.clips as u64),
            format!("{} clips x {bones} bones of tracks", h.clips),
        ),
    ];
    for (bytes, what) in parts {
        budget
            .charge(bytes, || what)
            .map_err(|e| r.error(ErrorKind::TooLarge, e))?;
    }
    Ok(())
}

/// Resolves textures (in `texture_dir`, if any), logs the file's warnings and assembles the
/// model, named after the stem of `file`.
pub(super) fn model(
    file: &str,
    contents: Contents,
    texture_dir: Option<&Path>,
    options: &LoadOptions,
    budget: &mut Budget,
) -> Result<SkinnedModel> {
    match contents.renormalized {
        0 => {}
        1 => log::warn!("{file}: 1 vertex has blend weights that do not sum to 1; renormalized"),
        n => {
            log::warn!("{file}: {n} vertices have blend weights that do not sum to 1; renormalized")
        }
    }
    let (materials, textures) =
        textures::resolve(file, contents.materials, texture_dir, options, budget);
    let mesh = Mesh {
        vertices: contents.vertices,
        indices: contents.indices,
        subsets: contents.subsets,
        materials,
        textures,
    };
    let name = Path::new(file)
        .file_stem()
        .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned());
    let (offset_lines, vertices_line) = (contents.offset_lines, contents.vertices_line);
    SkinnedModel::new(name, super::FORMAT, contents.skeleton, contents.clips, mesh).map_err(|e| {
        // A joint's error points at its offset; a mesh error at the vertices' section.
        match e.joint() {
            Some(j) => super::at_line(
                LoadError::from_anim(file, super::BONE_OFFSETS, e).at_record(format!("bone {j}")),
                offset_lines.get(j).copied().unwrap_or(vertices_line),
            ),
            None => super::at_line(
                LoadError::from_anim(file, super::VERTICES, e),
                vertices_line,
            ),
        }
    })
}
