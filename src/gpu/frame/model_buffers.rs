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
use crate::gpu::frame::shader_interface::SKIN_NONE;
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

impl GpuSubset {
    /// Whether its material discards texels of low alpha (`Material::alpha_clip`).
    pub fn alpha_clipped(&self) -> bool {
        self.constants.params.y > 0.5
    }
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
    /// Vertices the skin pass skins per instance at each level: all of the mesh's at level
    /// 0, those its triangles use at the coarser ones (0 for levels the model lacks).
    pub level_vertices: [u32; LOD_LEVELS],
    /// The skin pass's tables of the levels (`SkinLevels` in shaders/skinning.glsl: per level
    /// its vertex count, and which of the mesh's vertices it uses).
    pub skin_levels: GpuBuffer,
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
        // Read as vertices by the skinned passes, as words by the skin pass.
        let vertices = GpuBuffer::with_data(
            ctx,
            &format!("{name} vertices"),
            vk::BufferUsageFlags::VERTEX_BUFFER | vk::BufferUsageFlags::STORAGE_BUFFER,
            bytemuck::cast_slice(&mesh.vertices),
        )?;
        let levels = Levels::of(model)?;
        let skin = SkinLevels::of(mesh.vertices.len(), &levels)?;
        let skin_levels = GpuBuffer::with_data(
            ctx,
            &format!("{name} skin levels"),
            vk::BufferUsageFlags::STORAGE_BUFFER,
            bytemuck::cast_slice(&skin.words),
        )?;
        let indices = GpuBuffer::with_data(
            ctx,
            &format!("{name} indices"),
            // Read as words by the mesh raster too.
            vk::BufferUsageFlags::INDEX_BUFFER | vk::BufferUsageFlags::STORAGE_BUFFER,
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
            level_vertices: skin.vertices,
            skin_levels,
        })
    }
}

/// What the skin pass and the skinned vertex shaders need to know of a model's levels
/// (`SkinLevels` in shaders/skinning.glsl), as words: per level (the full mesh first) the
/// vertices it uses, where its remap starts and where its vertex list starts; then each
/// coarser level's remap (per mesh vertex its place among the level's vertices, or
/// `SKIN_NONE`) and its vertex list (the mesh vertices it uses, ascending). A coarser level
/// uses a fraction of the mesh's vertices, so an instance drawn with it is skinned at that
/// fraction of the cost; the full mesh skins every vertex, in the mesh's order.
struct SkinLevels {
    words: Vec<u32>,
    vertices: [u32; LOD_LEVELS],
}

impl SkinLevels {
    fn of(mesh_vertices: usize, levels: &Levels) -> Result<Self, GpuError> {
        let too_many = || GpuError::Other("a mesh level's tables exceed 2^32 words".into());
        let all = u32::try_from(mesh_vertices).map_err(|_| too_many())?;
        let mut words = vec![0u32; LOD_LEVELS * 4];
        let mut vertices = [0u32; LOD_LEVELS];
        words[0] = all;
        vertices[0] = all;
        for level in 1..levels.count {
            let mut used = vec![false; mesh_vertices];
            for range in levels.draw_ranges.chunks(LOD_LEVELS).map(|r| r[level]) {
                let [first, count] = range.map(|v| v as usize);
                for &v in levels.indices.get(first..first + count).unwrap_or(&[]) {
                    if let Some(u) = used.get_mut(v as usize) {
                        *u = true;
                    }
                }
            }
            let remap_at = u32::try_from(words.len()).map_err(|_| too_many())?;
            let mut list = Vec::new();
            for (v, &u) in used.iter().enumerate() {
                words.push(if u { list.len() as u32 } else { SKIN_NONE });
                if u {
                    list.push(v as u32);
                }
            }
            let list_at = u32::try_from(words.len()).map_err(|_| too_many())?;
            let count = list.len() as u32;
            words.extend_from_slice(&list);
            words[level * 4..level * 4 + 3].copy_from_slice(&[count, remap_at, list_at]);
            vertices[level] = count;
        }
        Ok(Self { words, vertices })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_coarser_level_skins_the_vertices_its_triangles_use() {
        // Six vertices; two subsets; level 1 uses vertices 1, 3 and 4 only (twice over).
        let mut draw_ranges = vec![[0u32; 2]; 2 * LOD_LEVELS];
        draw_ranges[0] = [0, 3];
        draw_ranges[LOD_LEVELS] = [3, 3];
        draw_ranges[1] = [6, 3];
        draw_ranges[LOD_LEVELS + 1] = [9, 3];
        let levels = Levels {
            indices: vec![0, 1, 2, 3, 4, 5, 4, 1, 3, 3, 1, 4],
            count: 2,
            errors: [0.1, f32::INFINITY, f32::INFINITY, f32::INFINITY],
            draw_ranges,
            triangles: [2, 2, 0, 0, 0],
        };
        let skin = SkinLevels::of(6, &levels).expect("tables");
        assert_eq!(skin.vertices, [6, 3, 0, 0, 0]);
        let w = &skin.words;
        assert_eq!(w[0], 6, "the full mesh skins all of its vertices");
        let (count, remap, list) = (w[4], w[5] as usize, w[6] as usize);
        assert_eq!(count, 3);
        assert_eq!(&w[list..list + 3], &[1, 3, 4]);
        // Every index of the level finds its vertex through the remap, and back.
        for &v in &levels.indices[6..] {
            let local = w[remap + v as usize];
            assert_eq!(w[list + local as usize], v);
        }
        assert_eq!(w[remap], SKIN_NONE, "vertex 0 is not in level 1");
        assert_eq!(w.len(), LOD_LEVELS * 4 + 6 + 3);
    }
}
