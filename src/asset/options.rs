//! How a model is loaded: the options every loader takes its limits and choices from.

use std::path::PathBuf;

use super::source;

/// How a model is loaded: limits and choices the command line can change. Every loader takes
/// its limits from here, so a flag applies to every format.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadOptions {
    /// Cap on the size of any one file read, the model's or one it refers to
    /// (`--max-file-size`).
    pub max_file_size: u64,
    /// The memory budget of one load (`--max-memory`): `None` makes it a function of the
    /// input's size, at most [`budget::DEFAULT_MAX_MEMORY`](super::budget::DEFAULT_MAX_MEMORY); `Some(bytes)` sets it outright,
    /// for a model that needs more (textures that compress unusually well) or to hold a load
    /// to less (see [`budget`](super::budget)).
    pub max_memory: Option<u64>,
    /// Which loader reads a file (`--loader`).
    pub loader: Loader,
    /// The animation file of an SDKMESH model (`--anim`); `None` looks for
    /// `MODEL.sdkmesh_anim` beside it. Other formats refuse it.
    pub anim: Option<PathBuf>,
    /// Whether coarser levels of the mesh are made at load ([`lod::generate`](super::lod::generate); `--no-lods`
    /// turns it off).
    pub lods: bool,
    /// Whether identical vertices are merged and triangles and vertices ordered for reuse at
    /// load ([`vertex_reuse::optimize`](super::vertex_reuse::optimize)).
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
