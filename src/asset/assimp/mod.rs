//! Everything else through Assimp (cargo feature `assimp`): FBX, Collada, binary `.x`, ...
//! read by the system's libassimp and converted into the same [`SkinnedModel`] the native
//! loaders produce (`skeleton`, `clips`, `mesh`).
//!
//! The file is read through [`crate::asset::source`] (regular file, size cap) and handed to
//! Assimp from memory, never by path: Assimp then opens nothing itself, so the size cap and
//! the "only the model's folder" rule cannot be bypassed. The price is that formats which
//! need a second file (`.obj` + `.mtl`, `.md5mesh` + `.md5anim`, external textures) get none;
//! FBX with embedded data, Collada and `.x` are self-contained.
//!
//! Assimp is C++ and not hardened against malformed input: each import runs first in a
//! child process so that a crash or a hang refuses the file instead of taking throng down
//! (see `import`). Palettes stay in the space Assimp delivers: for `.x` that is Assimp's
//! right-handed conversion of the file (z mirrored), unlike the native `.x` loader.

mod clips;
mod ffi;
#[cfg(test)]
mod ffi_check;
mod import;
mod mesh;
mod raw;
mod skeleton;

use std::path::Path;

use ffi as sys;

use crate::anim::SkinnedModel;
use crate::asset::budget::{Budget, cost, times};
use crate::asset::{LoadError, LoadOptions, source};

/// Assimp's post-processing: triangles only, weights limited to four per vertex, normals and
/// tangents generated where the file has none, texture coordinates flipped to a top-left
/// origin (what `Vertex::uv` uses), and the scene validated (no null arrays, indices in
/// range) before anything here reads it.
const FLAGS: u32 = sys::PROCESS_TRIANGULATE
    | sys::PROCESS_SORT_BY_PTYPE
    | sys::PROCESS_LIMIT_BONE_WEIGHTS
    | sys::PROCESS_GEN_SMOOTH_NORMALS
    | sys::PROCESS_CALC_TANGENT_SPACE
    | sys::PROCESS_FLIP_UVS
    | sys::PROCESS_VALIDATE_DATA_STRUCTURE;

/// Loads any file Assimp can read.
pub fn load_with(path: &Path, options: &LoadOptions) -> Result<SkinnedModel, LoadError> {
    let name = path.display().to_string();
    let bytes = source::read_model_file(path, options.max_file_size)?;
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    parse_with_options(&name, &bytes, &extension, options).map(|(model, _)| model)
}

/// Converts `bytes` (a whole file whose extension is `extension`, lower case) and returns the
/// warnings given, one line each and each kind once.
pub fn parse_with_warnings(
    name: &str,
    bytes: &[u8],
    extension: &str,
) -> Result<(SkinnedModel, Vec<String>), LoadError> {
    parse_with_options(name, bytes, extension, &LoadOptions::default())
}

/// [`parse_with_warnings`] under `options`' memory budget ([`crate::asset::budget`]): Assimp
/// allocates inside C++, where nothing can be charged before it happens, so the import's
/// child process runs with its address space limited to the budget (see `import`), and the
/// same import in this process, which is the same work, stays within it too.
pub fn parse_with_options(
    name: &str,
    bytes: &[u8],
    extension: &str,
    options: &LoadOptions,
) -> Result<(SkinnedModel, Vec<String>), LoadError> {
    let mut budget = Budget::new(bytes.len() as u64, options);
    let scene = import::import(name, bytes, extension, FLAGS, &budget)?;
    let scene = scene.get();
    let mut warned = std::collections::HashSet::new();
    let mut warnings = Vec::new();
    let mut warn = |key: &str, message: String| {
        if warned.insert(key.to_string()) {
            let line = raw::one_line(&format!("{name}: {message}"));
            log::warn!("{line}");
            warnings.push(line);
        }
    };
    // SAFETY: the root node and the arrays below are owned by the scene, which `scene` keeps
    // alive; validation has checked their counts.
    let root = unsafe { scene.mRootNode.as_ref() }.ok_or_else(|| {
        LoadError::new(
            name,
            crate::asset::ErrorKind::Invalid,
            "the scene has no root node",
        )
        .in_section("assimp")
    })?;
    let meshes = unsafe { raw::objects(scene.mMeshes, scene.mNumMeshes) };
    let animations = unsafe { raw::objects(scene.mAnimations, scene.mNumAnimations) };

    let nodes = skeleton::Nodes::read(name, root)?;
    let bones = skeleton::bone_refs(name, &nodes, &meshes)?;
    let animated = clips::animated_nodes(&nodes, &animations);
    let rig = skeleton::build(name, &nodes, &bones, &animated)?;
    let default_ticks = if extension == "x" {
        clips::X_TICKS_PER_SECOND
    } else {
        clips::ASSIMP_TICKS_PER_SECOND
    };
    // The conversion can hold more than Assimp's scene: every clip gets a track for every
    // joint, animated or not. Charged before the clips are built.
    let keys: u64 = animations
        .iter()
        // SAFETY: the channels are owned by the scene, alive as long as `scene`.
        .flat_map(|a| unsafe { raw::objects(a.mChannels, a.mNumChannels) })
        .map(|c| {
            u64::from(c.mNumPositionKeys)
                + u64::from(c.mNumRotationKeys)
                + u64::from(c.mNumScalingKeys)
        })
        .sum();
    budget
        .charge(
            times(animations.len(), cost::clip(rig.skeleton.len()))
                .saturating_add(keys.saturating_mul(cost::KEY)),
            || {
                format!(
                    "{} animations x {} joints of tracks",
                    animations.len(),
                    rig.skeleton.len()
                )
            },
        )
        .map_err(|e| e.into_load_error(name, "animations"))?;
    let clips = clips::clips(name, &nodes, &rig, &animations, default_ticks, &mut warn)?;
    let materials = mesh::materials(scene);
    let mesh = mesh::build(name, &meshes, &bones, &rig.node_joint, materials, &mut warn)?;
    let model_name = Path::new(name)
        .file_stem()
        .map_or_else(|| name.to_string(), |s| s.to_string_lossy().into_owned());
    let format = if extension.is_empty() {
        "assimp".to_string()
    } else {
        format!("{extension} (assimp)")
    };
    let model = SkinnedModel::new(model_name, format, rig.skeleton, clips, mesh)
        .map_err(|e| LoadError::from_anim(name, "model", e))?;
    Ok((model, warnings))
}
