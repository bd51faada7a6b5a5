//! The SDKMESH loader: the DirectX SDK's binary mesh format (version 101), with its animation
//! in a separate `.sdkmesh_anim` file (bones bound by frame name).
//!
//! The file is C structs written straight to disk, located by 64-bit offsets; every table is
//! checked to lie inside the file before it is read (`bytes`), so no count reaches an
//! allocation or an index unchecked. Vertex layouts come from each buffer's Direct3D 9 vertex
//! declaration, never from an assumed stride. Joints are every frame, in file order; palettes
//! stay in the file's own (left-handed, row-vector) space, as for `.m3d`: the matrices are only
//! transposed into throng's column-vector form.
//!
//! `MODEL.sdkmesh` finds `MODEL.sdkmesh_anim` beside it; [`LoadOptions::anim`] names another.
//! Without an animation file the model simply has no clips. Every failure is one
//! [`LoadError`] line naming the file, the section and the record.

mod animation;
mod buffers;
mod build;
mod bytes;
mod declaration;
mod frames;
mod header;
mod materials;
mod meshes;
mod sections;
mod skeleton;
mod vertices;

use std::path::{Path, PathBuf};

use crate::anim::SkinnedModel;
use crate::asset::budget::{Budget, cost, times};
use crate::asset::{ErrorKind, LoadError, LoadOptions, source};

use bytes::Bytes;
pub use sections::{ANIM_EXTENSION, FORMAT};
// What the section readers share: the names their errors give.
pub(crate) use sections::{
    ANIM_HEADER, FRAMES, HEADER, INDEX_BUFFERS, MATERIALS, MESHES, SUBSETS, TRACKS, VERTEX_BUFFERS,
};

/// An animation file's contents and the name it goes by (its stem names the clip).
#[derive(Clone, Copy, Debug)]
pub struct AnimationFile<'a> {
    /// The file name errors use; the clip is named after its stem.
    pub name: &'a str,
    /// The whole file.
    pub bytes: &'a [u8],
}

/// Loads a `.sdkmesh` file and its animation (see the module documentation).
pub fn load(path: &Path) -> Result<SkinnedModel, LoadError> {
    load_with(path, &LoadOptions::default())
}

/// [`load`] with explicit options: the size cap, and `anim` to name the animation file.
pub fn load_with(path: &Path, options: &LoadOptions) -> Result<SkinnedModel, LoadError> {
    let file = path.display().to_string();
    let bytes = source::read_model_file(path, options.max_file_size)?;
    let dir = source::model_folder(path);
    let anim = match &options.anim {
        Some(named) => Some((
            named.display().to_string(),
            source::read_model_file(named, options.max_file_size)?,
        )),
        None => read_beside(path, dir, options.max_file_size)?,
    };
    let animation = anim
        .as_ref()
        .map(|(name, bytes)| AnimationFile { name, bytes });
    parse_with(&file, &bytes, animation, Some(dir), options)
}

/// `MODEL.sdkmesh_anim` beside the model, if there is one (read under the referenced-file
/// policy: inside the model's folder).
fn read_beside(
    path: &Path,
    dir: &Path,
    max_size: u64,
) -> Result<Option<(String, Vec<u8>)>, LoadError> {
    let Some(name) = path
        .with_extension(ANIM_EXTENSION)
        .file_name()
        .map(PathBuf::from)
    else {
        return Ok(None);
    };
    let shown = dir.join(&name).display().to_string();
    match source::read_referenced(dir, &name, max_size) {
        Ok(bytes) => Ok(Some((shown, bytes))),
        Err(f) if f.kind == ErrorKind::Io && f.why == "not found" => Ok(None),
        Err(f) => Err(f.into_load_error(&shown)),
    }
}

/// Parses SDKMESH bytes with an optional animation file. `name` is the file name errors use
/// (the model is named after its stem); textures are looked for in `texture_dir`, and with
/// `None` nothing outside the bytes given is touched.
pub fn parse(
    name: &str,
    bytes: &[u8],
    animation: Option<AnimationFile<'_>>,
    texture_dir: Option<&Path>,
) -> Result<SkinnedModel, LoadError> {
    parse_with(name, bytes, animation, texture_dir, &LoadOptions::default())
}

/// [`parse`] under `options`' limits. One memory budget covers the load
/// ([`crate::asset::budget`]): the model file and the animation file are its input; the
/// decoded vertices and indices, the skeleton, the clip's keys and the textures' pixels are
/// charged before they are built.
pub fn parse_with(
    name: &str,
    bytes: &[u8],
    animation: Option<AnimationFile<'_>>,
    texture_dir: Option<&Path>,
    options: &LoadOptions,
) -> Result<SkinnedModel, LoadError> {
    let mut budget = Budget::new(bytes.len() as u64, options);
    if let Some(anim) = &animation {
        budget.add_input(anim.bytes.len() as u64);
    }
    let b = Bytes::new(name, bytes);
    let header = header::read(&b)?;
    let vertex_buffers = buffers::read_vertex_buffers(&b, header.vertex_buffers)?;
    let index_buffers = buffers::read_index_buffers(&b, header.index_buffers)?;
    let file_materials = materials::read(&b, header.materials)?;
    let subsets = meshes::read_subsets(&b, header.subsets, file_materials.len())?;
    let frames = frames::read(&b, header.frames, header.meshes.count as usize)?;
    let meshes = meshes::read_meshes(
        &b,
        header.meshes,
        &meshes::Targets {
            vertex_buffers: &vertex_buffers,
            index_buffers: &index_buffers,
            subsets: &subsets,
            frames: frames.len(),
        },
    )?;
    budget
        .charge(times(frames.len(), cost::JOINT), || {
            format!("a skeleton of {} frames", frames.len())
        })
        .map_err(|e| e.into_load_error(name, FRAMES))?;
    let skeleton = skeleton::build(&b, &frames)?;
    let mut mesh = build::geometry(
        &b,
        &build::Parts {
            vertex_buffers: &vertex_buffers,
            index_buffers: &index_buffers,
            subsets: &subsets,
            meshes: &meshes,
            frames: &frames,
        },
        &skeleton,
        &mut budget,
    )?;
    let clips = match animation {
        Some(anim) => {
            let names: Vec<String> = frames.into_iter().map(|f| f.name).collect();
            let a = Bytes::new(anim.name, anim.bytes);
            vec![animation::read(
                &a,
                &build::stem(anim.name),
                &names,
                &skeleton,
                &mut budget,
            )?]
        }
        None => Vec::new(),
    };
    let (materials, textures) =
        materials::resolve(name, file_materials, texture_dir, options, &mut budget);
    mesh.materials = materials;
    mesh.textures = textures;
    SkinnedModel::new(build::stem(name), FORMAT, skeleton, clips, mesh)
        .map_err(|e| LoadError::from_anim(name, MESHES, e))
}
