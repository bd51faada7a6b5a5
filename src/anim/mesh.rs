//! The skinned mesh a model draws: vertices with up to four joint influences, triangle
//! indices, subsets drawn with one material each, and the textures they use (as their files
//! store them: decoding is the renderer's business, done once when it uploads them).

use std::sync::Arc;

use bytemuck::{Pod, Zeroable};
use glam::Vec3;

use super::error::AnimError;

/// One skinned vertex, laid out for direct upload (72 bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[repr(C)]
pub struct Vertex {
    /// Bind-pose position in model space.
    pub position: [f32; 3],
    /// Unit normal.
    pub normal: [f32; 3],
    /// Unit tangent in xyz, handedness (+1 or -1) of the bitangent in w.
    pub tangent: [f32; 4],
    /// Texture coordinate (origin top left, as glTF and Direct3D use).
    pub uv: [f32; 2],
    /// Up to four joint indices (skeleton order).
    pub joints: [u16; 4],
    /// Weights of `joints`; they sum to 1, unused slots are 0.
    pub weights: [f32; 4],
}

/// A range of triangles drawn with one material.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subset {
    /// First vertex the subset's triangles use.
    pub vertex_start: u32,
    /// Number of vertices from `vertex_start`.
    pub vertex_count: u32,
    /// First index (not triangle) in [`Mesh::indices`].
    pub index_start: u32,
    /// Number of indices (three per triangle).
    pub index_count: u32,
    /// Index into [`Mesh::materials`].
    pub material: usize,
}

/// Surface description shared by loaders: a base color with optional textures.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    /// Name from the source (generated when the source has none).
    pub name: String,
    /// Linear RGBA base (diffuse) color; multiplies the base-color texture.
    pub base_color: [f32; 4],
    /// Index into [`Mesh::textures`] of the base-color texture.
    pub base_color_texture: Option<usize>,
    /// Index into [`Mesh::textures`] of the tangent-space normal map.
    pub normal_texture: Option<usize>,
    /// Perceptual roughness in [0, 1].
    pub roughness: f32,
    /// Specular reflectance at normal incidence.
    pub fresnel0: [f32; 3],
    /// Whether texels with low alpha are discarded.
    pub alpha_clip: bool,
}

impl Default for Material {
    fn default() -> Self {
        Self {
            name: String::from("default"),
            base_color: [0.8, 0.8, 0.8, 1.0],
            base_color_texture: None,
            normal_texture: None,
            roughness: 0.8,
            fresnel0: [0.04; 3],
            alpha_clip: false,
        }
    }
}

/// How a texture's source bytes are encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextureEncoding {
    /// A PNG file.
    Png,
    /// A JPEG file.
    Jpeg,
    /// A DirectDraw Surface (uncompressed or block-compressed, with its mip levels).
    Dds,
}

/// A texture as its source stores it. Loaders check the header (format, size within the
/// limits) and keep the encoded bytes; the pixels are decoded only when a renderer uploads
/// it, so a model that is only inspected never pays for them. The bytes are shared: textures
/// from one source (one buffer view, one file) are one `Texture`, and clones share them.
#[derive(Clone, PartialEq)]
pub struct Texture {
    /// Where it came from (file name or `image N` for embedded ones).
    pub name: String,
    /// Width in pixels, from the header.
    pub width: u32,
    /// Height in pixels, from the header.
    pub height: u32,
    /// How [`Self::source`] is encoded.
    pub encoding: TextureEncoding,
    /// The encoded file (PNG, JPEG or DDS bytes).
    pub source: Arc<[u8]>,
}

impl std::fmt::Debug for Texture {
    // The encoded bytes say nothing to a reader: their length stands for them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Texture")
            .field("name", &self.name)
            .field("width", &self.width)
            .field("height", &self.height)
            .field("encoding", &self.encoding)
            .field("source_bytes", &self.source.len())
            .finish()
    }
}

/// An axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Smallest corner.
    pub min: Vec3,
    /// Largest corner.
    pub max: Vec3,
}

impl Bounds {
    /// The smallest box around `points` (`None` when there are none).
    pub fn of_points(points: impl IntoIterator<Item = Vec3>) -> Option<Self> {
        let mut it = points.into_iter();
        let first = it.next()?;
        Some(it.fold(
            Self {
                min: first,
                max: first,
            },
            |b, p| Self {
                min: b.min.min(p),
                max: b.max.max(p),
            },
        ))
    }

    /// `max - min`.
    pub fn size(&self) -> Vec3 {
        self.max - self.min
    }
}

/// Everything a skinned model draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// Vertices of all subsets.
    pub vertices: Vec<Vertex>,
    /// Triangle list; indices are absolute into `vertices`.
    pub indices: Vec<u32>,
    /// Draw ranges, one material each.
    pub subsets: Vec<Subset>,
    /// Materials referenced by subsets.
    pub materials: Vec<Material>,
    /// Textures referenced by materials.
    pub textures: Vec<Texture>,
}

impl Mesh {
    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    /// Bounding box of the bind-pose positions.
    pub fn bounds(&self) -> Option<Bounds> {
        Bounds::of_points(self.vertices.iter().map(|v| Vec3::from(v.position)))
    }

    /// Checks every cross reference: indices, joint indices (against `joints`), subsets,
    /// materials and textures, and that attributes are finite.
    pub fn validate(&self, joints: usize) -> Result<(), AnimError> {
        let fail = |m: String| Err(AnimError::Mesh(m));
        if !self.indices.len().is_multiple_of(3) {
            return fail(format!(
                "{} indices is not a whole number of triangles",
                self.indices.len()
            ));
        }
        let n = self.vertices.len();
        if let Some(i) = self.indices.iter().position(|&i| i as usize >= n) {
            return fail(format!(
                "triangle {} uses vertex {}, but there are {n} vertices",
                i / 3,
                self.indices[i]
            ));
        }
        for (i, v) in self.vertices.iter().enumerate() {
            let finite = v
                .position
                .iter()
                .chain(&v.normal)
                .chain(&v.tangent)
                .chain(&v.uv)
                .chain(&v.weights);
            if finite.into_iter().any(|x| !x.is_finite()) {
                return fail(format!("vertex {i} has a value that is not finite"));
            }
            for (&j, &w) in v.joints.iter().zip(&v.weights) {
                if w != 0.0 && j as usize >= joints {
                    return fail(format!(
                        "vertex {i} uses joint {j}, but there are {joints} joints"
                    ));
                }
            }
        }
        for (s, subset) in self.subsets.iter().enumerate() {
            let idx_end = subset.index_start as u64 + subset.index_count as u64;
            let vtx_end = subset.vertex_start as u64 + subset.vertex_count as u64;
            if idx_end > self.indices.len() as u64 || subset.index_count % 3 != 0 {
                return fail(format!(
                    "subset {s}: indices {}..{idx_end} are outside the {} indices",
                    subset.index_start,
                    self.indices.len()
                ));
            }
            if vtx_end > n as u64 {
                return fail(format!(
                    "subset {s}: vertices {}..{vtx_end} are outside the {n} vertices",
                    subset.vertex_start
                ));
            }
            if subset.material >= self.materials.len() {
                return fail(format!(
                    "subset {s}: material {} does not exist ({} materials)",
                    subset.material,
                    self.materials.len()
                ));
            }
        }
        for (m, material) in self.materials.iter().enumerate() {
            for t in [material.base_color_texture, material.normal_texture]
                .into_iter()
                .flatten()
            {
                if t >= self.textures.len() {
                    return fail(format!("material {m}: texture {t} does not exist"));
                }
            }
        }
        for (t, texture) in self.textures.iter().enumerate() {
            if texture.width == 0 || texture.height == 0 || texture.source.is_empty() {
                return fail(format!(
                    "texture {t}: {}x{} pixels from {} bytes",
                    texture.width,
                    texture.height,
                    texture.source.len()
                ));
            }
        }
        Ok(())
    }
}
