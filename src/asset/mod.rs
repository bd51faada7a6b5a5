//! Model sources: the generated built-in character and the file loaders. Each produces the one
//! in-memory [`SkinnedModel`]; nothing downstream knows where a model came from.

mod affine;
#[cfg(feature = "assimp")]
pub mod assimp;
pub mod budget;
pub mod builtin;
mod error;
pub mod fbx;
pub mod gltf;
pub mod lod;
pub mod m3d;
pub mod props;
pub mod sdkmesh;
pub mod source;
pub mod texture;
pub mod vertex_reuse;
pub mod x;

pub use error::{ErrorKind, LoadError};

use std::path::{Path, PathBuf};

use crate::anim::SkinnedModel;

/// How a model is loaded: limits and choices the command line can change. Every loader takes
/// its limits from here, so a flag applies to every format.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadOptions {
    /// Cap on the size of any one file read, the model's or one it refers to
    /// (`--max-file-size`).
    pub max_file_size: u64,
    /// The memory budget of one load (`--max-memory`): `None` makes it a function of the
    /// input's size, at most [`budget::DEFAULT_MAX_MEMORY`]; `Some(bytes)` sets it outright,
    /// for a model that needs more (textures that compress unusually well) or to hold a load
    /// to less (see [`budget`]).
    pub max_memory: Option<u64>,
    /// Which loader reads a file (`--loader`).
    pub loader: Loader,
    /// The animation file of an SDKMESH model (`--anim`); `None` looks for
    /// `MODEL.sdkmesh_anim` beside it. Other formats refuse it.
    pub anim: Option<PathBuf>,
    /// Whether coarser levels of the mesh are made at load ([`lod::generate`]; `--no-lods`
    /// turns it off).
    pub lods: bool,
    /// Whether identical vertices are merged and triangles and vertices ordered for reuse at
    /// load ([`vertex_reuse::optimize`]).
    pub reuse_vertices: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        Self {
            max_file_size: source::DEFAULT_MAX_FILE_SIZE,
            max_memory: None,
            loader: Loader::Auto,
            anim: None,
            lods: true,
            reuse_vertices: true,
        }
    }
}

/// Which loader reads a model file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Loader {
    /// The native loader of the file's extension; Assimp (feature `assimp`) for any other.
    #[default]
    Auto,
    /// Assimp, even where a native loader exists (to compare the two).
    Assimp,
}

/// The loader that read a model, from its [`SkinnedModel::format`]: `ufbx` for FBX, `Assimp`
/// for anything read through Assimp (`fbx (assimp)`, `dae (assimp)`, ...), `generated` for
/// the built-in character, and `native` for throng's own readers of the other formats.
pub fn loader_of(format: &str) -> &'static str {
    match format {
        fbx::FORMAT => "ufbx",
        builtin::NAME => "generated",
        f if f == "assimp" || f.ends_with("(assimp)") => "Assimp",
        _ => "native",
    }
}

/// Loads a model named on a command line: `builtin` (or nothing) for the generated character,
/// otherwise a file whose extension picks the loader.
pub fn load_model(spec: Option<&str>) -> Result<SkinnedModel, LoadError> {
    load_model_with(spec, &LoadOptions::default())
}

/// [`load_model`] with explicit options.
pub fn load_model_with(
    spec: Option<&str>,
    options: &LoadOptions,
) -> Result<SkinnedModel, LoadError> {
    let (name, model) = match spec {
        None | Some(builtin::NAME) => {
            refuse_anim(builtin::NAME, options)?;
            let model = builtin::model()
                .map_err(|e| LoadError::from_anim(builtin::NAME, "generator", e))?;
            (builtin::NAME, model)
        }
        Some(path) => (path, load_file_with(Path::new(path), options)?),
    };
    prepared(name, model, options)
}

/// `model` with its vertices reused and its coarser levels made, as `options` ask.
fn prepared(
    name: &str,
    mut model: SkinnedModel,
    options: &LoadOptions,
) -> Result<SkinnedModel, LoadError> {
    // Levels from the mesh as it came (their simplification depends on the mesh's order),
    // then vertex reuse, which carries them over to the new vertices.
    let lods = if options.lods {
        lod::generate(&model)
    } else {
        Vec::new()
    };
    let lods = if options.reuse_vertices {
        let (mesh, lods, reuse) = vertex_reuse::optimize(model.mesh(), &lods);
        log::debug!("{name}: {reuse:?}");
        // The same triangles and attributes in another order: a refusal here would be a bug
        // in the reordering, reported rather than hidden.
        model
            .replace_mesh(mesh)
            .map_err(|e| LoadError::from_anim(name, "vertex reuse", e))?;
        lods
    } else {
        lods
    };
    // Levels come out of `lod::generate` checked by construction; a refusal here would be a
    // bug there, reported rather than hidden.
    model
        .set_lods(lods)
        .map_err(|e| LoadError::from_anim(name, "levels of detail", e))?;
    Ok(model)
}

/// Loads a model file, choosing the loader by extension.
pub fn load_file(path: &Path) -> Result<SkinnedModel, LoadError> {
    load_file_with(path, &LoadOptions::default())
}

/// [`load_file`] with explicit options.
pub fn load_file_with(path: &Path, options: &LoadOptions) -> Result<SkinnedModel, LoadError> {
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    if extension.as_deref() != Some("sdkmesh") {
        refuse_anim(&path.display().to_string(), options)?;
    }
    if options.loader == Loader::Assimp {
        return load_with_assimp(path, options, "--loader assimp asks for Assimp");
    }
    match extension.as_deref() {
        Some("sdkmesh") => sdkmesh::load_with(path, options),
        Some("m3d") => m3d::load_with(path, options),
        Some("gltf" | "glb") => gltf::load_with(path, options),
        Some("fbx") => fbx::load_with(path, options),
        Some("x") => match x::load_with(path, options) {
            // Binary and compressed `.x` go to Assimp when it is built in.
            #[cfg(feature = "assimp")]
            Err(e) if x::needs_assimp(&e) => load_with_assimp(path, options, ""),
            other => other,
        },
        _ => load_with_assimp(
            path,
            options,
            "unknown model format (the native loaders read builtin, .m3d, .gltf, .glb, .fbx, .x \
             and .sdkmesh)",
        ),
    }
}

/// Loads through Assimp; `why` says why Assimp was chosen, for a build without it.
#[cfg(feature = "assimp")]
fn load_with_assimp(
    path: &Path,
    options: &LoadOptions,
    _why: &str,
) -> Result<SkinnedModel, LoadError> {
    assimp::load_with(path, options)
}

/// Without the `assimp` feature: one line naming the feature.
#[cfg(not(feature = "assimp"))]
fn load_with_assimp(
    path: &Path,
    _options: &LoadOptions,
    why: &str,
) -> Result<SkinnedModel, LoadError> {
    Err(LoadError::new(
        path.display().to_string(),
        ErrorKind::Unsupported,
        format!(
            "{why}; reading it through Assimp needs throng built with the `assimp` cargo \
             feature (cargo build --features assimp)"
        ),
    ))
}

/// A separate animation file (`--anim`) only means something for SDKMESH models.
fn refuse_anim(file: &str, options: &LoadOptions) -> Result<(), LoadError> {
    match &options.anim {
        Some(anim) => Err(LoadError::new(
            file,
            ErrorKind::Unsupported,
            format!(
                "--anim {} applies only to .sdkmesh models, whose animation is a separate file",
                anim.display()
            ),
        )),
        None => Ok(()),
    }
}
