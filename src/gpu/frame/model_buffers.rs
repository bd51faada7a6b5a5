//! `GpuModel`: one model's mesh on the device (one vertex and one index buffer holding the
//! full mesh's triangles and then each coarser level's), its subsets and their materials
//! (constants plus textures, or the shared 1x1 defaults), and where each subset's triangles
//! are at each level.
//!
//! Each of the model's textures is decoded once, here, for every colour space its materials
//! read it in; one that cannot be decoded or uploaded (a corrupt image, larger than the device
//! allows) is left out with one warning, and its materials draw with their flat colour.

use std::collections::HashMap;
use std::sync::Arc;

use ash::vk;
use glam::Vec4;

use crate::anim::{Mat3x4, SkinnedModel};
use crate::crowd::visibility::LOD_LEVELS;
use crate::gpu::device::buffer::GpuBuffer;
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::device::image::GpuImage;
use crate::gpu::device::texture::{self, BlockUpload, TexelSpace};
use crate::gpu::frame::uniforms::DrawConstants;
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
    /// Levels: the full mesh and the coarser ones (1 to [`LOD_LEVELS`]).
    pub levels: usize,
    /// The coarser levels' errors, model units (levels 1 to 4; unused ones infinite).
    pub errors: [f32; LOD_LEVELS - 1],
    /// Per subset, per level: (first index, index count) in [`Self::indices`]; levels the
    /// model does not have are empty.
    pub draw_ranges: Vec<[u32; 2]>,
    /// Triangles drawn per instance at each level.
    pub level_triangles: [u64; LOD_LEVELS],
}

impl GpuModel {
    /// Uploads `model`'s mesh, materials and textures. `basis`: the correction every
    /// instance's world transform starts with (`scene::model_basis`), which decides the
    /// front face together with the mesh's own winding (`scene::front_face`).
    /// `blocks`: how block-compressed textures go to the device.
    pub fn upload(
        ctx: &Arc<GpuContext>,
        model: &SkinnedModel,
        basis: &Mat3x4,
        blocks: BlockUpload,
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
        let levels = Levels::of(model)?;
        let indices = GpuBuffer::with_data(
            ctx,
            &format!("{name} indices"),
            vk::BufferUsageFlags::INDEX_BUFFER,
            bytemuck::cast_slice(&levels.indices),
        )?;
        let (textures, uploaded) = upload_textures(ctx, model, blocks)?;
        let view_of = |index: Option<usize>, space: TexelSpace| {
            index.and_then(|i| uploaded.get(&(i, space == TexelSpace::Srgb)).copied())
        };
        let mut subsets = Vec::with_capacity(mesh.subsets.len());
        for s in &mesh.subsets {
            let material = mesh.materials.get(s.material).ok_or_else(|| {
                GpuError::Other(format!(
                    "model {name}: material {} does not exist",
                    s.material
                ))
            })?;
            let base_color = view_of(material.base_color_texture, TexelSpace::Srgb);
            let normal = view_of(material.normal_texture, TexelSpace::Linear);
            let f0 = material.fresnel0;
            subsets.push(GpuSubset {
                first_index: s.index_start,
                index_count: s.index_count,
                constants: DrawConstants {
                    base_color: Vec4::from(material.base_color),
                    fresnel0: Vec4::new(f0[0], f0[1], f0[2], s.material as f32),
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
            levels: levels.count,
            errors: levels.errors,
            draw_ranges: levels.draw_ranges,
            level_triangles: levels.triangles,
        })
    }
}

/// A model's levels as the device holds them: one index list, the full mesh first.
struct Levels {
    indices: Vec<u32>,
    count: usize,
    errors: [f32; LOD_LEVELS - 1],
    draw_ranges: Vec<[u32; 2]>,
    triangles: [u64; LOD_LEVELS],
}

impl Levels {
    /// The full mesh and up to `LOD_LEVELS - 1` of the model's coarser levels (checked when
    /// the model was given them: subsets match and indices stay in range).
    fn of(model: &SkinnedModel) -> Result<Self, GpuError> {
        let mesh = model.mesh();
        let lods = &model.lods()[..model.lods().len().min(LOD_LEVELS - 1)];
        let subsets = mesh.subsets.len();
        let mut indices = mesh.indices.clone();
        let mut draw_ranges = vec![[0u32; 2]; subsets * LOD_LEVELS];
        let mut triangles = [0u64; LOD_LEVELS];
        let mut errors = [f32::INFINITY; LOD_LEVELS - 1];
        for (s, subset) in mesh.subsets.iter().enumerate() {
            draw_ranges[s * LOD_LEVELS] = [subset.index_start, subset.index_count];
            triangles[0] += u64::from(subset.index_count / 3);
        }
        for (k, lod) in lods.iter().enumerate() {
            let level = k + 1;
            let start = u32::try_from(indices.len()).map_err(|_| {
                GpuError::Other(format!("model {}: too many indices", model.name()))
            })?;
            indices.extend_from_slice(&lod.indices);
            errors[k] = lod.error;
            for (s, &(first, count)) in lod.subsets.iter().enumerate().take(subsets) {
                draw_ranges[s * LOD_LEVELS + level] = [start + first, count];
                triangles[level] += u64::from(count / 3);
            }
        }
        Ok(Self {
            indices,
            count: 1 + lods.len(),
            errors,
            draw_ranges,
            triangles,
        })
    }
}

/// Uploads each texture the materials use, decoding it once for all the colour spaces it is
/// read in. Returns the images and, for each (texture, sRGB?) uploaded, its image's index.
#[allow(clippy::type_complexity)]
fn upload_textures(
    ctx: &Arc<GpuContext>,
    model: &SkinnedModel,
    blocks: BlockUpload,
) -> Result<(Vec<GpuImage>, HashMap<(usize, bool), usize>), GpuError> {
    let mesh = model.mesh();
    let name = model.name();
    // Which spaces each texture is read in, in the order materials first name them.
    let mut wanted: Vec<(usize, Vec<TexelSpace>)> = Vec::new();
    for m in &mesh.materials {
        let uses = [
            (m.base_color_texture, TexelSpace::Srgb),
            (m.normal_texture, TexelSpace::Linear),
        ];
        for (index, space) in uses {
            let Some(index) = index else { continue };
            match wanted.iter_mut().find(|(i, _)| *i == index) {
                Some((_, spaces)) if !spaces.contains(&space) => spaces.push(space),
                Some(_) => {}
                None => wanted.push((index, vec![space])),
            }
        }
    }
    let mut images = Vec::new();
    let mut uploaded = HashMap::new();
    for (index, spaces) in wanted {
        let source = mesh.textures.get(index).ok_or_else(|| {
            GpuError::Other(format!("model {name}: texture {index} does not exist"))
        })?;
        let decoded = match crate::asset::texture::decode(source) {
            Ok(d) => d,
            Err(why) => {
                log::warn!(
                    "model {name}: texture {} {why}; its materials use their flat colour",
                    source.name.escape_debug()
                );
                continue;
            }
        };
        for space in spaces {
            let label = format!("{name} texture {}", source.name);
            match texture::upload(ctx, &label, &decoded, space, blocks) {
                Ok(image) => {
                    images.push(image);
                    uploaded.insert((index, space == TexelSpace::Srgb), images.len() - 1);
                }
                // Too large for this device: like an undecodable image, a flat colour.
                Err(GpuError::Other(why)) => {
                    log::warn!("model {name}: {why}; its materials use their flat colour");
                    break;
                }
                Err(e) => return Err(e),
            }
        }
    }
    Ok((images, uploaded))
}
