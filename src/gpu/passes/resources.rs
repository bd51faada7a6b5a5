//! The frame's resources as the graph knows them: what is imported each frame (the target,
//! the palette ring slot, the culling buffers, the readback buffer) and the transient images
//! the passes write and read, with their formats and sizes.

use ash::vk;

use super::GraphKey;
use super::RenderSettings;
use crate::gpu::cull_data::OCCLUSION_BLOCK;
use crate::gpu::graph::{Access, Extent, GraphBuilder, ImageDesc, ImageKind, ResourceId};

/// Depth buffer format (every Vulkan device supports it as a depth attachment).
pub const DEPTH_FORMAT: vk::Format = vk::Format::D32_SFLOAT;
/// View-space normals from the prepass.
pub const NORMAL_FORMAT: vk::Format = vk::Format::R16G16B16A16_SFLOAT;
/// Ambient occlusion (a core storage-image format; 16-bit floats would need an extension).
pub const AO_FORMAT: vk::Format = vk::Format::R32_SFLOAT;

pub use crate::gpu::shader_interface::AO_SCALE;

/// Every resource of a frame's graph.
#[derive(Clone, Copy, Debug)]
pub struct FrameIds {
    /// The colour target (imported).
    pub color: ResourceId,
    /// What the forward pass renders into: the target itself, or with multisampling a
    /// multisampled image resolved into the target.
    pub color_samples: ResourceId,
    /// The depth the prepass renders and the forward pass tests against: `depth` itself, or
    /// with multisampling a multisampled image the prepass resolves into `depth` (sample 0).
    pub depth_samples: ResourceId,
    /// The normals the prepass renders: `normals`, or a multisampled image resolved (averaged)
    /// into `normals`.
    pub normals_samples: ResourceId,
    /// The palette ring slot: instance records and palettes the crowd wrote (imported,
    /// written by the CPU).
    pub ring: ResourceId,
    /// The readback buffer (imported).
    pub readback: ResourceId,
    /// The culling inputs (imported, written by the CPU).
    pub cull_inputs: ResourceId,
    /// The culling counters (imported).
    pub counters: ResourceId,
    /// The visible lists (imported).
    pub lists: ResourceId,
    /// The indirect draw counts (imported).
    pub draw_counts: ResourceId,
    /// The indirect draw commands (imported).
    pub commands: ResourceId,
    /// The counters' copy the CPU reads (imported).
    pub stats: ResourceId,
    /// The instances waiting for the occlusion test (imported).
    pub candidates: ResourceId,
    /// The occlusion image: the farthest depth of each block.
    pub occlusion_depth: ResourceId,
    /// Depth from the light.
    pub shadow_map: ResourceId,
    /// Depth from the prepass, one sample per pixel (what the ambient occlusion, the
    /// occlusion test and the depth view read).
    pub depth: ResourceId,
    /// Depth the forward pass writes itself when there is no prepass (as many samples as the
    /// colour it renders).
    pub forward_depth: ResourceId,
    /// View-space normals, one sample per pixel.
    pub normals: ResourceId,
    /// Raw ambient occlusion.
    pub ao_raw: ResourceId,
    /// Blurred ambient occlusion.
    pub ao: ResourceId,
}

impl FrameIds {
    /// Declares every resource for a target of `color_format`; the graph keeps only those a
    /// kept pass uses.
    pub fn declare(
        g: &mut GraphBuilder,
        key: GraphKey,
        settings: &RenderSettings,
        color_format: vk::Format,
    ) -> Self {
        let samples = sample_count(settings.msaa);
        let one = vk::SampleCountFlags::TYPE_1;
        let mut image = |name, format, kind, extent, samples| {
            g.transient_image(ImageDesc {
                name,
                format,
                kind,
                extent,
                samples,
            })
        };
        let (depth_kind, color_kind, target) = (ImageKind::Depth, ImageKind::Color, Extent::Target);
        let size = settings.shadow_size.max(1);
        let shadow_map = image(
            "shadow map",
            DEPTH_FORMAT,
            depth_kind,
            Extent::Fixed(size, size),
            one,
        );
        let depth = image("depth", DEPTH_FORMAT, depth_kind, target, one);
        let normals = image("normals", NORMAL_FORMAT, color_kind, target, one);
        let forward_depth = image("forward depth", DEPTH_FORMAT, depth_kind, target, samples);
        // Ambient occlusion at half size (see shaders/ssao.comp).
        let scaled = Extent::TargetScaled(AO_SCALE);
        let ao_raw = image("ao raw", AO_FORMAT, color_kind, scaled, one);
        let ao = image("ao", AO_FORMAT, color_kind, scaled, one);
        // The occlusion test's depth, an eighth of the render size
        // (shaders/occlusion_depth.comp).
        let occlusion_depth = image(
            "occlusion depth",
            AO_FORMAT,
            color_kind,
            Extent::TargetScaled(OCCLUSION_BLOCK),
            one,
        );
        // With multisampling the camera's passes render into multisampled images and resolve
        // them into the single-sample ones everything else reads.
        let multisampled = (samples != one).then(|| {
            (
                image(
                    "colour (multisampled)",
                    color_format,
                    color_kind,
                    target,
                    samples,
                ),
                image(
                    "depth (multisampled)",
                    DEPTH_FORMAT,
                    depth_kind,
                    target,
                    samples,
                ),
                image(
                    "normals (multisampled)",
                    NORMAL_FORMAT,
                    color_kind,
                    target,
                    samples,
                ),
            )
        });
        let color = g.imported_image(
            "colour target",
            ImageKind::Color,
            vk::ImageLayout::UNDEFINED,
            key.present.then_some(Access::Present),
        );
        let (color_samples, depth_samples, normals_samples) =
            multisampled.unwrap_or((color, depth, normals));
        Self {
            color,
            color_samples,
            depth_samples,
            normals_samples,
            ring: g.imported_buffer("palette ring slot"),
            readback: g.host_read_buffer("readback"),
            cull_inputs: g.imported_buffer("culling inputs"),
            counters: g.imported_buffer("culling counters"),
            lists: g.imported_buffer("visible lists"),
            draw_counts: g.imported_buffer("draw counts"),
            commands: g.imported_buffer("draw commands"),
            stats: g.host_read_buffer("draw statistics"),
            candidates: g.imported_buffer("occlusion candidates"),
            occlusion_depth,
            shadow_map,
            depth,
            forward_depth,
            normals,
            ao_raw,
            ao,
        }
    }

    /// Whether the camera's passes render several samples per pixel and resolve them.
    pub fn multisampled(&self) -> bool {
        self.color_samples != self.color
    }
}

/// The sample count flag for `msaa` samples per pixel (1, 2, 4 or 8; anything else is one).
pub fn sample_count(msaa: u32) -> vk::SampleCountFlags {
    match msaa {
        2 => vk::SampleCountFlags::TYPE_2,
        4 => vk::SampleCountFlags::TYPE_4,
        8 => vk::SampleCountFlags::TYPE_8,
        _ => vk::SampleCountFlags::TYPE_1,
    }
}
