//! Reading the file, then assembling the [`SkinnedModel`].

use std::path::Path;

use super::reader::Result;
use super::{clips, document, geometry, materials, skeleton};
use crate::anim::{Mesh, SkinnedModel};
use crate::asset::budget::{Budget, cost, times};
use crate::asset::{LoadError, LoadOptions};

/// The format name models loaded here report.
pub const FORMAT: &str = "x";

/// The model in `bytes`; `file` names it in errors and gives it its name (the stem).
pub(super) fn model(
    file: &str,
    bytes: &[u8],
    texture_dir: Option<&Path>,
    options: &LoadOptions,
) -> Result<SkinnedModel> {
    // One memory budget for the load (`asset::budget`): the file's text is its input; the
    // skeleton, every clip's tracks, the mesh and the textures' pixels are charged before they
    // are built. (The document itself holds at most a few times the text: every value it
    // keeps took at least two characters to write.)
    let mut budget = Budget::new(bytes.len() as u64, options);
    let doc = document::read(file, bytes)?;
    budget
        .charge(times(doc.frames.len(), cost::JOINT), || {
            format!("a skeleton of {} frames", doc.frames.len())
        })
        .map_err(|e| e.into_load_error(file, "Frame"))?;
    let rig = skeleton::build(file, &doc)?;
    let clips = clips::read(file, &doc, &rig, &mut budget)?;
    charge_geometry(file, &doc, &mut budget)?;
    let geometry = geometry::build(file, &doc, &rig)?;
    let (materials, textures) =
        materials::resolve(file, &geometry.materials, texture_dir, options, &mut budget);
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
    SkinnedModel::new(name, FORMAT, rig.skeleton, clips, mesh)
        .map_err(|e| LoadError::from_anim(file, "Mesh", e))
}

/// Charges the mesh before it is built: every face corner may become a vertex of its own
/// (vertices are split where normals differ), and a fan of `n` corners makes `n - 2`
/// triangles, fewer than its corners.
fn charge_geometry(file: &str, doc: &document::Document, budget: &mut Budget) -> Result<()> {
    let corners: usize = doc.meshes.iter().map(|m| m.faces.indices.len()).sum();
    budget
        .charge(times(corners, cost::VERTEX + cost::TRIANGLE), || {
            format!("meshes of {corners} face corners")
        })
        .map_err(|e| e.into_load_error(file, "Mesh"))
}
