//! The names an SDKMESH model goes by: its format, its animation file's extension, and the
//! sections its errors name.

/// The format name models loaded here report.
pub const FORMAT: &str = "sdkmesh";

/// The extension of the animation file looked for beside the model.
pub const ANIM_EXTENSION: &str = "sdkmesh_anim";

/// Section names errors use.
pub(crate) const HEADER: &str = "header";
pub(crate) const VERTEX_BUFFERS: &str = "vertex buffers";
pub(crate) const INDEX_BUFFERS: &str = "index buffers";
pub(crate) const MESHES: &str = "meshes";
pub(crate) const SUBSETS: &str = "subsets";
pub(crate) const FRAMES: &str = "frames";
pub(crate) const MATERIALS: &str = "materials";
pub(crate) const ANIM_HEADER: &str = "animation header";
pub(crate) const TRACKS: &str = "animation tracks";
