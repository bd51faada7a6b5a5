//! The FBX loader (binary and ASCII), native and on by default, through ufbx (the `ufbx`
//! crate: bindings to the single-file C loader, which it builds from source).
//!
//! ufbx parses the file from memory (`import`: nothing else is opened; every byte it
//! allocates is held to the load's budget through its allocator hooks, `allocator`) and
//! resolves what FBX makes hard: pivots, pre- and post-rotations, rotation orders, unit and
//! axis settings, skin clusters, animation layers. This module turns its scene into throng's
//! model, checking every list, index and value ufbx hands back (`values`, `nodes`):
//!
//! - `skin`: skinned meshes and their clusters; vertices in bind-time world space;
//! - `skeleton`: joints are the clusters' bones, plus animated nodes above them; static
//!   nodes above or between joints are folded in, as in every loader;
//! - `clips`: each animation stack sampled at the file's frame rate;
//! - `mesh`: triangles, vertices, four influences per vertex;
//! - `materials`: diffuse colours and textures, embedded or beside the file.
//!
//! Space: right-handed, +Y up, in the file's own unit (ufbx turns the axes; nothing is
//! rescaled). Errors name the file and the FBX object (`node 'Hips'`, `mesh 'Body'`,
//! `cluster 'Spine'`, `animation stack 'Take 001'`); warnings go to the log, each kind once.

mod allocator;
mod clips;
mod import;
mod materials;
mod mesh;
mod nodes;
mod skeleton;
mod skin;
mod values;
mod warnings;

pub use clips::FALLBACK_FPS;
pub use import::NODE_DEPTH_LIMIT;

use std::path::Path;

use crate::anim::{Material, Mesh, SkinnedModel};
use crate::asset::budget::Budget;
use crate::asset::{LoadError, LoadOptions, source};

use warnings::Warnings;

/// The format name models loaded here report.
pub const FORMAT: &str = "fbx";

/// Loads an FBX file; textures are looked for in its folder. The model is named after the
/// file's stem.
pub fn load(path: &Path) -> Result<SkinnedModel, LoadError> {
    load_with(path, &LoadOptions::default())
}

/// [`load`] with explicit limits.
pub fn load_with(path: &Path, options: &LoadOptions) -> Result<SkinnedModel, LoadError> {
    let file = path.display().to_string();
    let bytes = source::read_model_file(path, options.max_file_size)?;
    let dir = source::model_folder(path);
    parse_with_options(&file, &bytes, Some(dir), options).map(|(model, _)| model)
}

/// Parses an FBX file from memory. `name` names it in errors (and the model, by its stem);
/// texture files are looked for in `texture_dir`, and with `None` nothing outside `bytes` is
/// touched (embedded textures are still read).
pub fn parse(
    name: &str,
    bytes: &[u8],
    texture_dir: Option<&Path>,
) -> Result<SkinnedModel, LoadError> {
    parse_with_options(name, bytes, texture_dir, &LoadOptions::default()).map(|(model, _)| model)
}

/// [`parse`] under `options`' limits, also returning the warnings given (one line each, each
/// kind once).
pub fn parse_with_options(
    name: &str,
    bytes: &[u8],
    texture_dir: Option<&Path>,
    options: &LoadOptions,
) -> Result<(SkinnedModel, Vec<String>), LoadError> {
    let mut budget = Budget::new(bytes.len() as u64, options);
    let mut warn = Warnings::new(name);
    let scene = import::load(name, bytes, &mut budget)?;
    let nodes = nodes::Nodes::read(name, &scene, &mut budget)?;
    let skins = skin::read(name, &scene, &nodes, &mut warn)?;
    let bones = skeleton::bones(name, &nodes, &skins)?;

    // The stacks are charged for the bones before anything is sampled (sampling time grows
    // with what the charge bounds), then for the animated nodes that join them.
    let plans = clips::plan(name, &scene, &mut warn)?;
    let charged = clips::charge(name, &plans, bones.nodes.len(), 0, &mut budget)?;
    let candidates = skeleton::above_bones(&nodes, &bones);
    let moving = clips::moving(name, &scene, &nodes, &plans, &candidates)?;
    let rig = skeleton::build(name, &nodes, &bones, &moving, &mut budget)?;
    clips::charge(name, &plans, rig.skeleton.len(), charged, &mut budget)?;
    let clips = clips::clips(name, &scene, &nodes, &rig, &plans)?;

    let materials = materials::read(&scene, texture_dir, options, &mut budget, &mut warn);
    let default_material = materials.materials.len();
    let slot = |m: &ufbx::Material| {
        let id = m.element.typed_id as usize;
        let listed = scene.materials.get(id)?;
        std::ptr::eq::<ufbx::Material>(&**listed, m).then_some(id)
    };
    let geometry = mesh::build(
        name,
        &skins,
        &rig,
        &slot,
        default_material,
        &mut budget,
        &mut warn,
    )?;
    let mut mesh_materials = materials.materials;
    if geometry.uses_default {
        mesh_materials.push(Material::default());
    }
    let mesh = Mesh {
        vertices: geometry.vertices,
        indices: geometry.indices,
        subsets: geometry.subsets,
        materials: mesh_materials,
        textures: materials.textures,
    };
    let model_name = Path::new(name)
        .file_stem()
        .map_or_else(|| name.to_string(), |s| s.to_string_lossy().into_owned());
    let model = SkinnedModel::new(model_name, FORMAT, rig.skeleton, clips, mesh)
        .map_err(|e| LoadError::from_anim(name, "model", e))?;
    Ok((model, warn.into_lines()))
}
