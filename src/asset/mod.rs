//! Model sources: the generated built-in character and the file loaders. Each produces the one
//! in-memory [`SkinnedModel`]; nothing downstream knows where a model came from.

pub mod builtin;
mod error;
pub mod gltf;
pub mod m3d;
pub mod texture;

pub use error::{ErrorKind, LoadError};

use std::path::Path;

use crate::anim::SkinnedModel;

/// Loads a model named on a command line: `builtin` (or nothing) for the generated character,
/// otherwise a file whose extension picks the loader.
pub fn load_model(spec: Option<&str>) -> Result<SkinnedModel, LoadError> {
    match spec {
        None | Some(builtin::NAME) => {
            builtin::model().map_err(|e| LoadError::from_anim(builtin::NAME, "generator", e))
        }
        Some(path) => load_file(Path::new(path)),
    }
}

/// Loads a model file, choosing the loader by extension.
pub fn load_file(path: &Path) -> Result<SkinnedModel, LoadError> {
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match extension.as_deref() {
        Some("m3d") => m3d::load(path),
        Some("gltf" | "glb") => gltf::load(path),
        _ => Err(LoadError::new(
            path.display().to_string(),
            ErrorKind::Unsupported,
            "unknown model format (expected builtin, .m3d, .gltf or .glb)",
        )),
    }
}
