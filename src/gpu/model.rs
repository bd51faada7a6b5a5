//! `GpuModel`: one model's mesh on the device (one vertex and one index buffer), its subsets
//! and their materials (constants plus textures, or the shared 1x1 defaults).

use std::collections::HashMap;
use std::sync::Arc;

use ash::vk;
use glam::Vec4;

use super::buffer::GpuBuffer;
use super::context::GpuContext;
use super::error::GpuError;
use super::frame_data::DrawConstants;
use super::image::GpuImage;
use super::texture::{self, TexelSpace};
use crate::anim::{Mat3x4, SkinnedModel};
use crate::scene::{FrontFace, front_face, mirrors};

/// What one subset draws with.
#[derive(Clone, Copy, Debug)]
pub struct GpuSubset {
    /// First index in the model's index buffer.
    pub first_index: u32,
    /// Indices (three per triangle).
    pub index_count: u32,
    /// The material's constants (the mirror sign is set per draw).
    pub constants: DrawConstants,
    /// Base colour map view (`None`: the white default).
    pub base_color: Option<usize>,
    /// Normal map view (`None`: the flat default).
    pub normal: Option<usize>,
}

/// A model on the device; see the module documentation.
pub struct GpuModel {
    /// Name, for labels.
    pub name: String,
    /// Vertices ([`crate::anim::Vertex`]).
    pub vertices: GpuBuffer,
    /// 32-bit indices.
    pub indices: GpuBuffer,
    /// Draw ranges.
    pub subsets: Vec<GpuSubset>,
    /// Uploaded textures, indexed by [`GpuSubset::base_color`] / [`GpuSubset::normal`].
    pub textures: Vec<GpuImage>,
    /// Whether its instances' transforms mirror (the normal map's bitangent flips).
    pub mirrored: bool,
    /// Which on-screen winding faces the eye, for its instances.
    pub front_face: vk::FrontFace,
}

impl GpuModel {
    /// Uploads `model`'s mesh, materials and textures. `basis`: the correction every
    /// instance's world transform starts with (`scene::model_basis`), which decides the
    /// front face together with the mesh's own winding (`scene::front_face`).
    pub fn upload(
        ctx: &Arc<GpuContext>,
        model: &SkinnedModel,
        basis: &Mat3x4,
    ) -> Result<Self, GpuError> {
        let mirrored = mirrors(basis);
        let front_face = match front_face(model, basis) {
            FrontFace::CounterClockwise => vk::FrontFace::COUNTER_CLOCKWISE,
            FrontFace::Clockwise => vk::FrontFace::CLOCKWISE,
        };
        let mesh = model.mesh();
        let name = model.name();
        if mesh.vertices.is_empty() || mesh.indices.is_empty() {
            return Err(GpuError::Other(format!(
                "model {name} has no triangles to draw"
            )));
        }
        let vertices = GpuBuffer::with_data(
            ctx,
            &format!("{name} vertices"),
            vk::BufferUsageFlags::VERTEX_BUFFER,
            bytemuck::cast_slice(&mesh.vertices),
        )?;
        let indices = GpuBuffer::with_data(
            ctx,
            &format!("{name} indices"),
            vk::BufferUsageFlags::INDEX_BUFFER,
            bytemuck::cast_slice(&mesh.indices),
        )?;
        // Each source texture is uploaded once per colour space it is read in.
        let mut textures = Vec::new();
        let mut uploaded: HashMap<(usize, bool), usize> = HashMap::new();
        let mut view_of =
            |index: Option<usize>, space: TexelSpace| -> Result<Option<usize>, GpuError> {
                let Some(index) = index else { return Ok(None) };
                let key = (index, space == TexelSpace::Srgb);
                if let Some(&at) = uploaded.get(&key) {
                    return Ok(Some(at));
                }
                let source = mesh.textures.get(index).ok_or_else(|| {
                    GpuError::Other(format!("model {name}: texture {index} does not exist"))
                })?;
                let image = texture::upload(
                    ctx,
                    &format!("{name} texture {}", source.name),
                    source,
                    space,
                )?;
                textures.push(image);
                uploaded.insert(key, textures.len() - 1);
                Ok(Some(textures.len() - 1))
            };
        let mut subsets = Vec::with_capacity(mesh.subsets.len());
        for s in &mesh.subsets {
            let material = mesh.materials.get(s.material).ok_or_else(|| {
                GpuError::Other(format!(
                    "model {name}: material {} does not exist",
                    s.material
                ))
            })?;
            let base_color = view_of(material.base_color_texture, TexelSpace::Srgb)?;
            let normal = view_of(material.normal_texture, TexelSpace::Linear)?;
            let f0 = material.fresnel0;
            subsets.push(GpuSubset {
                first_index: s.index_start,
                index_count: s.index_count,
                constants: DrawConstants {
                    base_color: Vec4::from(material.base_color),
                    fresnel0: Vec4::new(f0[0], f0[1], f0[2], 0.0),
                    params: Vec4::new(
                        material.roughness,
                        if material.alpha_clip { 1.0 } else { 0.0 },
                        if normal.is_some() { 1.0 } else { 0.0 },
                        if mirrored { -1.0 } else { 1.0 },
                    ),
                },
                base_color,
                normal,
            });
        }
        Ok(Self {
            name: name.to_string(),
            vertices,
            indices,
            subsets,
            textures,
            mirrored,
            front_face,
        })
    }
}
