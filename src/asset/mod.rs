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
mod options;
pub mod props;
pub mod sdkmesh;
pub mod source;
pub mod texture;
pub mod vertex_reuse;
pub mod x;

pub use error::{ErrorKind, LoadError};
pub use options::{LoadOptions, Loader};

use std::path::Path;

use crate::anim::SkinnedModel;

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
