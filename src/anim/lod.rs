//! SHIM until the lod branch lands.
/// One coarser version of a model's mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshLod {
    /// Indices.
    pub indices: Vec<u32>,
    /// Per subset (first, count).
    pub subsets: Vec<(u32, u32)>,
    /// Error in model units.
    pub error: f32,
}
