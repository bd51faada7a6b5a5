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
use crate::anim::SkinnedModel;

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
    /// Whether its instances' transforms mirror (front faces flip).
    pub mirrored: bool,
    /// Whether its triangles' numeric normals point outwards ([`crate::anim::Mesh::winding_volume`]).
    pub outward: bool,
}

impl GpuModel {
    /// Uploads `model`'s mesh, materials and textures. `mirrored`: whether the world
    /// transforms its instances get have a negative determinant.
    pub fn upload(
        ctx: &Arc<GpuContext>,
        model: &SkinnedModel,
        mirrored: bool,
    ) -> Result<Self, GpuError> {
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
            outward: mesh.winding_volume() >= 0.0,
        })
    }

    /// The front face for this model's instances. A triangle whose numeric normal points
    /// towards the eye shows counter-clockwise through the renderer's y-flipped projection;
    /// a mesh wound the other way, or a mirroring transform, reverses that (both: restores).
    pub fn front_face(&self) -> vk::FrontFace {
        if self.outward != self.mirrored {
            vk::FrontFace::COUNTER_CLOCKWISE
        } else {
            vk::FrontFace::CLOCKWISE
        }
    }
}
