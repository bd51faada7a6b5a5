//! Model sources: the generated built-in character and the file loaders. Each produces the one
//! in-memory [`SkinnedModel`]; nothing downstream knows where a model came from.

pub mod builtin;
mod error;
pub mod gltf;
pub mod m3d;
pub mod sdkmesh;
pub mod source;
pub mod texture;

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
    /// The animation file of an SDKMESH model (`--anim`); `None` looks for
    /// `MODEL.sdkmesh_anim` beside it. Other formats refuse it.
    pub anim: Option<PathBuf>,
}

impl Default for LoadOptions {
    fn default() -> Self {
        Self {
            max_file_size: source::DEFAULT_MAX_FILE_SIZE,
            anim: None,
        }
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
    match spec {
        None | Some(builtin::NAME) => {
            refuse_anim(builtin::NAME, options)?;
            builtin::model().map_err(|e| LoadError::from_anim(builtin::NAME, "generator", e))
        }
        Some(path) => load_file_with(Path::new(path), options),
    }
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
    match extension.as_deref() {
        Some("sdkmesh") => sdkmesh::load_with(path, options),
        Some("m3d") => {
            refuse_anim(&path.display().to_string(), options)?;
            m3d::load_with(path, options)
        }
        Some("gltf" | "glb") => {
            refuse_anim(&path.display().to_string(), options)?;
            gltf::load_with(path, options)
        }
        _ => Err(LoadError::new(
            path.display().to_string(),
            ErrorKind::Unsupported,
            "unknown model format (expected builtin, .m3d, .gltf, .glb or .sdkmesh)",
        )),
    }
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
