//! Drawing the characters a culling pass kept: what every skinned pass (shadow, prepass,
//! forward) records, one indirect-count draw per model and subset.

use ash::vk;

use super::PassRecording;
use crate::crowd::visibility::LOD_LEVELS;
use crate::gpu::cull_data::DrawCommand;
use crate::gpu::device::error::GpuError;
use crate::gpu::pipeline_builder::{
    BINDING_BAKED, BINDING_BASE_COLOR, BINDING_FRAME, BINDING_NORMAL, BINDING_PALETTES,
    BINDING_RECORDS, BINDING_VISIBLE, Pipeline,
};
use crate::gpu::uniforms::DrawConstants;

impl PassRecording<'_> {
    /// Draws what the culling pass kept for `view` (`cull_data::VIEW_*`): for each model and
    /// subset, one `vkCmdDrawIndexedIndirectCount` of up to a command per mesh level, its
    /// count written by the GPU, with `pipeline` (characters: skinned vertex input). `lit`
    /// also pushes the shadow map and ambient occlusion the forward pass shades with.
    pub fn draw_characters(
        &self,
        pipeline: &Pipeline,
        lit: bool,
        view: usize,
    ) -> Result<(), GpuError> {
        let shared = self.shared;
        if shared.ranges.iter().all(|r| r.is_empty()) {
            return Ok(());
        }
        let device = &self.ctx.device;
        let cmd = self.cmd;
        let layout = shared.pipelines.layouts.pipeline;
        let (records, palettes) = self.ring_infos()?;
        let baked = [vk::DescriptorBufferInfo {
            buffer: shared.baked,
            offset: 0,
            range: vk::WHOLE_SIZE,
        }];
        let visible = self.buffer_info(self.ids.lists)?;
        let (commands, _, _) = self.buffer(self.ids.commands)?;
        let (counts, _, _) = self.buffer(self.ids.draw_counts)?;
        let frame = self.frame_info();
        // Only the forward pass shades; the others push no shadow map or occlusion.
        let lit_images = if lit { Some(self.lit_images()?) } else { None };
        let models = shared.models.len();
        let subsets = shared.cull_sizes.subsets;
        let command_size = size_of::<DrawCommand>() as u64;
        let samplers = &shared.samplers;
        // SAFETY: recording inside the pass's rendering; every handle lives until the
        // frame's timeline value is reached.
        unsafe {
            device.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline.pipeline);
            for (m, (model, range)) in shared.models.iter().zip(shared.ranges).enumerate() {
                if range.is_empty() {
                    continue;
                }
                self.ctx.cmd_set_front_face(cmd, model.front_face);
                device.cmd_bind_vertex_buffers(cmd, 0, &[model.vertices.buffer], &[0]);
                device.cmd_bind_index_buffer(cmd, model.indices.buffer, 0, vk::IndexType::UINT32);
                for (s, subset) in model.subsets.iter().enumerate() {
                    let texture = |view: Option<usize>, fallback: vk::ImageView| {
                        Self::fixed_image(
                            view.and_then(|i| model.textures.get(i))
                                .map_or(fallback, |t| t.view),
                            samplers.material,
                        )
                    };
                    let base = texture(subset.base_color, samplers.white);
                    let normal = texture(subset.normal, samplers.flat_normal);
                    let storage = vk::DescriptorType::STORAGE_BUFFER;
                    let sampled = vk::DescriptorType::COMBINED_IMAGE_SAMPLER;
                    let mut writes = [
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_RECORDS)
                            .descriptor_type(storage)
                            .buffer_info(&records),
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_PALETTES)
                            .descriptor_type(storage)
                            .buffer_info(&palettes),
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_BAKED)
                            .descriptor_type(storage)
                            .buffer_info(&baked),
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_VISIBLE)
                            .descriptor_type(storage)
                            .buffer_info(&visible),
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_FRAME)
                            .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                            .buffer_info(&frame),
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_BASE_COLOR)
                            .descriptor_type(sampled)
                            .image_info(&base),
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_NORMAL)
                            .descriptor_type(sampled)
                            .image_info(&normal),
                        vk::WriteDescriptorSet::default(),
                        vk::WriteDescriptorSet::default(),
                    ];
                    let count = if let Some((shadow, ao)) = &lit_images {
                        let [a, b] = Self::lit_writes(shadow, ao);
                        writes[7] = a;
                        writes[8] = b;
                        9
                    } else {
                        7
                    };
                    self.ctx.push_descriptor.cmd_push_descriptor_set(
                        cmd,
                        vk::PipelineBindPoint::GRAPHICS,
                        layout,
                        0,
                        &writes[..count],
                    );
                    let constants: DrawConstants = subset.constants;
                    device.cmd_push_constants(
                        cmd,
                        layout,
                        vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT,
                        0,
                        bytemuck::bytes_of(&constants),
                    );
                    let draw = ((view * models + m) * subsets + s) as u64;
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
