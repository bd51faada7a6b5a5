//! The glTF 2.0 loader (`.gltf` with embedded or external buffers, and binary `.glb`).
//!
//! The `gltf` crate parses and validates the JSON; everything that touches bytes is done
//! here with explicit bounds checks (the crate's own readers may panic on malformed files):
//! GLB chunks (`container`), buffers from the BIN chunk, base64 data URIs or relative
//! files (`buffers`, `uri`), accessors (`accessor`). Then the node hierarchy
//! (`nodes`) and skins become one skeleton (`skin`, `fold`, `animated`), animations become clips
//! (`animation`), mesh nodes become subsets (`mesh`, `primitive`, `weights`, `generate`), and
//! materials take their textures along (`material`).
//!
//! Every failure is a [`LoadError`] naming the file, the glTF object (`accessors[3]`,
//! `skins[0]`, `meshes[1].primitives[0]`, `animations[2].channels[5]`) and, where useful,
//! the record; nothing read from a file is unwrapped. Things that can be ignored safely
//! (morph target weights, channels of nodes neither joints nor above one, a missing texture
//! file, ...) are logged as warnings, each kind once per file. Animated nodes above the
//! joints become joints of their own, listed after the skins' joints (see `skin`).

mod accessor;
mod animated;
mod animation;
mod binding;
mod buffers;
mod container;
mod context;
mod document;
pub(crate) mod fold;
pub(crate) mod generate;
mod json_weight;
mod material;
mod mesh;
mod nodes;
mod primitive;
mod skin;
mod uri;
mod weights;

use std::path::Path;

use crate::anim::SkinnedModel;
use crate::asset::{LoadError, LoadOptions, source};

use accessor::Reader;
use buffers::Buffers;
use context::Ctx;

/// Loads a `.gltf` or `.glb` file. External buffers and images are read relative to the
/// file's folder.
pub fn load(path: &Path) -> Result<SkinnedModel, LoadError> {
    load_with(path, &LoadOptions::default())
}

/// [`load`] with explicit limits.
pub fn load_with(path: &Path, options: &LoadOptions) -> Result<SkinnedModel, LoadError> {
    let name = path.display().to_string();
    let bytes = source::read_model_file(path, options.max_file_size)?;
    let base_dir = path.parent().unwrap_or_else(|| Path::new("."));
    parse_with_options(&name, &bytes, Some(base_dir), options).map(|(model, _)| model)
}

/// Parses glTF from memory. `name` is used in errors and to name the model (its file stem);
/// a name ending in `.glb` must hold binary glTF. With `base_dir` `None` nothing is read
/// from the file system, and a reference to an external file is an error.
pub fn parse(name: &str, bytes: &[u8], base_dir: Option<&Path>) -> Result<SkinnedModel, LoadError> {
    parse_with_warnings(name, bytes, base_dir).map(|(model, _)| model)
}

/// Like [`parse`], also returning the warnings that were logged (one line each), so callers
/// and tests can see what was ignored or repaired.
pub fn parse_with_warnings(
    name: &str,
    bytes: &[u8],
    base_dir: Option<&Path>,
) -> Result<(SkinnedModel, Vec<String>), LoadError> {
    parse_with_options(name, bytes, base_dir, &LoadOptions::default())
}

/// [`parse_with_warnings`] under explicit limits (the memory budget's cap, the size cap of
/// external files).
pub fn parse_with_options(
    name: &str,
    bytes: &[u8],
    base_dir: Option<&Path>,
    options: &LoadOptions,
) -> Result<(SkinnedModel, Vec<String>), LoadError> {
    load_document(name, bytes, base_dir, options).map_err(context::one_line)
}

fn load_document(
    name: &str,
    bytes: &[u8],
    base_dir: Option<&Path>,
    options: &LoadOptions,
) -> Result<(SkinnedModel, Vec<String>), LoadError> {
    let mut ctx = Ctx::with_options(name, bytes.len() as u64, options);
    let parts = container::split(&ctx, bytes)?;
    let doc = document::parse(&mut ctx, parts.json)?;
    let buffers = Buffers::load(&mut ctx, &doc, parts.bin, base_dir)?;
    let reader = Reader::new(&buffers);
    let nodes = nodes::Nodes::read(&mut ctx, &doc)?;
    let rig = skin::build(&mut ctx, &doc, &nodes, &reader)?;
    let clips = animation::clips(&mut ctx, &doc, &rig, &reader)?;
    let materials = material::read(&mut ctx, &doc, &buffers, base_dir)?;
    let mut mesh = mesh::build(&mut ctx, &doc, &nodes, &rig, &reader, materials.materials)?;
    mesh.textures = materials.textures;
    let format = if parts.binary { "glb" } else { "gltf" };
    let model = SkinnedModel::new(model_name(name), format, rig.skeleton, clips, mesh)
        .map_err(|e| LoadError::from_anim(name, "model", e))?;
    Ok((model, ctx.into_warnings()))
}

/// The file stem of `name` (`CesiumMan` for `assets/CesiumMan.glb`).
fn model_name(name: &str) -> String {
    Path::new(name)
        .file_stem()
        .map_or_else(|| name.to_string(), |s| s.to_string_lossy().into_owned())
}
