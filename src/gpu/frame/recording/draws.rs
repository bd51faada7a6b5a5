//! Drawing what the passes draw: the characters a culling pass kept (what every skinned pass
//! records, one indirect-count draw per model and subset), the ground, and the images the
//! lit shaders sample.

use ash::vk;

use crate::crowd::visibility::LOD_LEVELS;
use crate::gpu::device::buffer::whole_buffer;
use crate::gpu::device::error::GpuError;
use crate::gpu::device::pipeline::Pipeline;
use crate::gpu::frame::culling::data::DrawCommand;
use crate::gpu::frame::model_buffers::{GpuModel, GpuSubset};
use crate::gpu::frame::recording::pass::{Bind, PassRecording};
use crate::gpu::frame::uniforms::DrawConstants;
use crate::gpu::graph::ResourceId;

/// The lists a culling pass filled, which the skinned passes draw: the visible records per
/// view and level, and the indirect draws with their counts.
#[derive(Clone, Copy, Debug)]
pub struct DrawLists {
    /// Record indices per view and level.
    pub lists: ResourceId,
    /// Commands per indirect draw.
    pub draw_counts: ResourceId,
    /// The indirect commands.
    pub commands: ResourceId,
    /// The skin table (where each list's vertices were skinned).
    pub skin_table: ResourceId,
    /// The skinned vertices.
    pub skinned: ResourceId,
}

/// What the lit shaders sample: the shadow map and the ambient occlusion, where the frame
/// has them (placeholders otherwise, never sampled then: the uniforms say so).
#[derive(Clone, Copy, Debug, Default)]
pub struct LitInputs {
    /// The shadow map.
    pub shadow_map: Option<ResourceId>,
    /// The blurred ambient occlusion.
    pub ao: Option<ResourceId>,
}

/// The descriptors of [`LitInputs`] for one frame.
pub struct LitImages {
    shadow: [vk::DescriptorImageInfo; 1],
    ao: [vk::DescriptorImageInfo; 1],
}

impl LitImages {
    /// As binds, by the lit shaders' names.
    pub fn binds(&self) -> [Bind<'_>; 2] {
        [
            Bind::image("shadow_map", &self.shadow),
            Bind::image("ambient_occlusion", &self.ao),
        ]
    }
}

impl PassRecording<'_> {
    /// The shadow map's descriptor, through the comparison sampler: the frame's, or without
    /// a shadow pass the depth image that stands in for it (never sampled then).
    pub fn shadow_image(
        &self,
        shadow_map: Option<ResourceId>,
    ) -> Result<[vk::DescriptorImageInfo; 1], GpuError> {
        let s = &self.shared.samplers;
        match shadow_map {
            Some(id) => self.image_info(id, s.shadow),
            None => Ok(Self::fixed_image(s.no_shadow, s.shadow)),
        }
    }

    /// The descriptors of `lit`.
    pub fn lit_images(&self, lit: LitInputs) -> Result<LitImages, GpuError> {
        let s = &self.shared.samplers;
        Ok(LitImages {
            shadow: self.shadow_image(lit.shadow_map)?,
            ao: match lit.ao {
                Some(id) => self.image_info(id, s.ao)?,
                None => Self::fixed_image(s.white, s.ao),
            },
        })
    }

    /// Draws the ground (six generated vertices) with `pipeline`, the frame uniforms and
    /// `extra` binds.
    pub fn draw_ground(&self, pipeline: &Pipeline, extra: &[Bind<'_>]) -> Result<(), GpuError> {
        let frame = self.frame_info();
        let mut binds = [Bind::buffer("Frame", &frame); 3];
        let n = extra.len().min(2);
        binds[1..=n].copy_from_slice(&extra[..n]);
        self.bind(pipeline);
        self.push(pipeline, &binds[..=n])?;
        // SAFETY: inside the pass's rendering; the ground needs no vertex buffer.
        unsafe {
            self.ctx
                .cmd_set_front_face(self.cmd, vk::FrontFace::COUNTER_CLOCKWISE);
            self.ctx.device.cmd_draw(self.cmd, 6, 1, 0, 0);
        }
        Ok(())
    }

    /// Subset `subset` of `model`'s base colour and normal maps, through the material sampler
    /// (white and a flat normal where it has none).
    pub fn subset_textures(
        &self,
        model: &GpuModel,
        subset: &GpuSubset,
    ) -> [[vk::DescriptorImageInfo; 1]; 2] {
        let samplers = &self.shared.samplers;
        let texture = |view: Option<usize>, fallback: vk::ImageView| {
            Self::fixed_image(
                view.and_then(|i| model.textures.get(i))
                    .map_or(fallback, |t| t.view),
                samplers.material,
            )
        };
        [
            texture(subset.base_color, samplers.white),
            texture(subset.normal, samplers.flat_normal),
        ]
    }

    /// Draws what the culling pass kept in `lists` for `view` (`culling::data::VIEW_*`): for
    /// each model and subset, one `vkCmdDrawIndexedIndirectCount` of up to a command per mesh
    /// level, its count written by the GPU, with `pipeline` (skinned vertex input), or with
    /// `clip` where given for the subsets whose material is alpha-clipped (the shadow pass's,
    /// whose other subsets have no fragment stage to clip with). `lit` adds the shadow map
    /// and ambient occlusion the forward pass shades with.
    pub fn draw_characters(
        &self,
        pipeline: &Pipeline,
        clip: Option<&Pipeline>,
        lists: &DrawLists,
        lit: Option<&LitImages>,
        view: usize,
    ) -> Result<(), GpuError> {
        let frame = self.frame_info();
        self.draw_characters_seen(&frame, pipeline, clip, lists, lit, view)
    }

    /// [`Self::draw_characters`] with `frame` as the frame's uniforms (the near shadow
    /// cascade's copy, whose sun matrix is the near square's).
    pub fn draw_characters_seen(
        &self,
        frame: &[vk::DescriptorBufferInfo; 1],
        pipeline: &Pipeline,
        clip: Option<&Pipeline>,
        lists: &DrawLists,
        lit: Option<&LitImages>,
        view: usize,
    ) -> Result<(), GpuError> {
        let shared = self.shared;
        if shared.crowd.ranges.iter().all(|r| r.is_empty()) {
            return Ok(());
        }
        let device = &self.ctx.device;
        let cmd = self.cmd;
        let (records, palettes) = self.ring_infos()?;
        let baked = whole_buffer(shared.crowd.baked);
        let looks = whole_buffer(shared.crowd.looks);
        let visible = self.buffer_info(lists.lists)?;
        let skin_table = self.buffer_info(lists.skin_table)?;
        let skinned = self.buffer_info(lists.skinned)?;
        let (commands, _, _) = self.buffer(lists.commands)?;
        let (counts, _, _) = self.buffer(lists.draw_counts)?;
        let models = shared.crowd.models.len();
        let subsets = shared.crowd.cull_sizes.subsets;
        let command_size = size_of::<DrawCommand>() as u64;
        self.bind(pipeline);
        let mut bound = pipeline;
        for (m, (model, range)) in shared
            .crowd
            .models
            .iter()
            .zip(shared.crowd.ranges)
            .enumerate()
        {
            if range.is_empty() {
                continue;
            }
            let skin_levels = whole_buffer(model.skin_levels.buffer);
            // SAFETY: recording inside the pass's rendering; the model's buffers live as
            // long as the renderer.
            unsafe {
                self.ctx.cmd_set_front_face(cmd, model.front_face);
                device.cmd_bind_vertex_buffers(cmd, 0, &[model.vertices.buffer], &[0]);
                device.cmd_bind_index_buffer(cmd, model.indices.buffer, 0, vk::IndexType::UINT32);
            }
            for (s, subset) in model.subsets.iter().enumerate() {
                let pipeline = match clip {
                    Some(clip) if subset.alpha_clipped() => clip,
                    _ => pipeline,
                };
                if !std::ptr::eq(pipeline, bound) {
                    self.bind(pipeline);
                    bound = pipeline;
                }
                let [base, normal] = self.subset_textures(model, subset);
                let mut binds = [
                    Bind::buffer("Records", &records),
                    Bind::buffer("Palettes", &palettes),
                    Bind::buffer("Baked", &baked),
                    Bind::buffer("Visible", &visible),
                    Bind::buffer("Frame", frame),
                    Bind::image("base_color_map", &base),
                    Bind::image("normal_map", &normal),
                    Bind::buffer("Looks", &looks),
                    Bind::buffer("SkinTable", &skin_table),
                    Bind::buffer("Skinned", &skinned),
                    Bind::buffer("SkinLevels", &skin_levels),
                    Bind::buffer("Frame", frame),
                    Bind::buffer("Frame", frame),
                ];
                let count = match lit {
                    Some(lit) => {
                        binds[11..].copy_from_slice(&lit.binds());
                        13
                    }
                    None => 11,
                };
                self.push(pipeline, &binds[..count])?;
                let constants: DrawConstants = subset.constants;
                self.push_constants(pipeline, bytemuck::bytes_of(&constants))?;
                let draw = ((view * models + m) * subsets + s) as u64;
                // SAFETY: inside the rendering; the indirect buffers hold a command per
                // level of every (view, model, subset) and its count, written by the
                // culling passes the graph ordered before this one.
                unsafe {
                    device.cmd_draw_indexed_indirect_count(
                        cmd,
                        commands,
                        draw * LOD_LEVELS as u64 * command_size,
                        counts,
                        draw * 4,
                        LOD_LEVELS as u32,
                        command_size as u32,
                    );
                }
            }
        }
        Ok(())
    }
}
