//! The renderer's frame graph: which passes a frame has and what each reads and writes,
//! declared once per combination of settings, view and readback, and compiled by
//! [`super::graph`] into barriers. Switching shadows or ambient occlusion off only changes
//! what the forward pass reads; the graph then culls the passes nothing reads any more.

use std::collections::HashMap;
use std::sync::Arc;

use ash::vk;

use super::context::GpuContext;
use super::cull_data::OCCLUSION_BLOCK;
use super::error::GpuError;
use super::frame_data::ViewMode;
use super::graph::{
    Access, Bound, Extent, GraphBuilder, ImageDesc, ImageKind, Plan, ResourceId, Stages,
};
use super::image::{GpuImage, ImageInfo};

/// Depth buffer format (every Vulkan device supports it as a depth attachment).
pub const DEPTH_FORMAT: vk::Format = vk::Format::D32_SFLOAT;
/// View-space normals from the prepass.
pub const NORMAL_FORMAT: vk::Format = vk::Format::R16G16B16A16_SFLOAT;
/// Ambient occlusion (a core storage-image format; 16-bit floats would need an extension).
pub const AO_FORMAT: vk::Format = vk::Format::R32_SFLOAT;

pub use super::shader_interface::AO_SCALE;

/// Pass names, as they appear in labels, timings and `--stats-json`.
pub mod pass {
    /// Zeroes the culling counters.
    pub const CULL_CLEAR: &str = "cull_clear";
    /// Culling and level selection per instance, for the camera and the shadow map.
    pub const CULL: &str = "cull";
    /// The indirect draws of the culled lists.
    pub const CULL_DRAWS: &str = "cull_draws";
    /// The occlusion image: the farthest depth of each 8x8 block after the early prepass.
    pub const OCCLUSION_DEPTH: &str = "occlusion_depth";
    /// Occlusion culling of the small instances in view.
    pub const CULL_LATE: &str = "cull_late";
    /// The indirect draws of what the occlusion test let through.
    pub const CULL_DRAWS_LATE: &str = "cull_draws_late";
    /// The prepass of what the occlusion test let through, into the same depth and normals.
    pub const DEPTH_NORMAL_LATE: &str = "depth_normal_late";
    /// The culling counters copied for the CPU's statistics.
    pub const CULL_STATS: &str = "cull_stats";
    /// Skinned depth from the light.
    pub const SHADOW: &str = "shadow";
    /// Skinned depth and view-space normals from the camera.
    pub const DEPTH_NORMAL: &str = "depth_normal";
    /// Ambient occlusion from depth and normals.
    pub const SSAO: &str = "ssao";
    /// Depth-aware blur of the ambient occlusion.
    pub const SSAO_BLUR: &str = "ssao_blur";
    /// Skinned, lit, shadowed, AO-modulated, textured characters and the ground.
    pub const FORWARD: &str = "forward";
    /// One intermediate image instead of the final one (`--view ao|normals|depth|shadow`).
    pub const DEBUG_VIEW: &str = "debug_view";
    /// The colour target copied to a host-readable buffer (headless).
    pub const READBACK: &str = "readback";
}

/// Which passes run and how.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderSettings {
    /// The sun casts shadows (`--no-shadows` turns it off).
    pub shadows: bool,
    /// Ambient occlusion darkens the ambient light (`--no-ssao`).
    pub ssao: bool,
    /// Depth and normals are drawn first and the forward pass shades each pixel once (equal
    /// depth test). Off, the forward pass tests and writes depth itself.
    pub prepass: bool,
    /// Shadow map side in texels (`--shadow-size`).
    pub shadow_size: u32,
    /// Instances are tested against each view and only those that may be seen are drawn
    /// (`--cull`).
    pub cull: bool,
    /// Instances draw a coarser mesh level where its error stays under a pixel (`--lod`).
    pub lod: bool,
    /// Scales the projected sizes at which coarser levels and baked animation take over
    /// (`--lod-bias`): 2 switches at twice the size (cheaper), 0.5 at half.
    pub lod_bias: f32,
    /// Small instances are drawn only where the large ones leave them visible (`--cull`
    /// covers it too; needs the depth prepass).
    pub occlusion: bool,
}

impl Default for RenderSettings {
    fn default() -> Self {
        Self {
            shadows: true,
            ssao: true,
            prepass: true,
            shadow_size: 2048,
            cull: true,
            lod: true,
            lod_bias: 1.0,
            occlusion: true,
        }
    }
}

/// What a frame's graph depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GraphKey {
    /// The view shown.
    pub view: ViewKey,
    /// Whether the frame is copied to the readback buffer.
    pub readback: bool,
    /// Whether the target is presented afterwards.
    pub present: bool,
}

/// [`ViewMode`] as a hash key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ViewKey(pub u32);

impl From<ViewMode> for ViewKey {
    fn from(v: ViewMode) -> Self {
        Self(v.shader_value())
    }
}

/// What a pass does in a frame, beyond its name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PassFlags {
    /// The forward pass reads the shadow map.
    pub shadows: bool,
    /// The forward pass reads the ambient occlusion.
    pub ao: bool,
    /// The forward pass tests against the prepass's depth (equal, no write).
    pub prepass: bool,
    /// Small instances wait for the occlusion test: the camera's passes draw the late list
    /// too.
    pub occlusion: bool,
}

/// The resources of a compiled graph.
#[derive(Clone, Copy, Debug)]
pub struct GraphIds {
    /// The colour target (imported).
    pub color: ResourceId,
    /// The palette ring slot (imported).
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
    /// The occlusion image.
    pub occlusion_depth: ResourceId,
    /// Transients.
    pub shadow_map: ResourceId,
    /// Depth from the prepass.
    pub depth: ResourceId,
    /// Depth the forward pass writes itself when there is no prepass.
    pub forward_depth: ResourceId,
    /// View-space normals.
    pub normals: ResourceId,
    /// Raw ambient occlusion.
    pub ao_raw: ResourceId,
    /// Blurred ambient occlusion.
    pub ao: ResourceId,
}

/// A compiled graph.
pub struct CompiledGraph {
    /// Barriers and steps.
    pub plan: Plan,
    /// What its ids stand for.
    pub ids: GraphIds,
    /// What the forward pass does in it.
    pub flags: PassFlags,
    /// The image the debug view shows.
    pub debug_source: Option<ResourceId>,
    /// The depth image the forward pass renders with: the prepass's, or its own.
    pub forward_depth: ResourceId,
}

/// Declares and compiles the graph for `key` under `settings`.
pub fn compile(key: GraphKey, settings: &RenderSettings) -> Result<CompiledGraph, GpuError> {
    let mut g = GraphBuilder::new();
    let color = g.imported_image(
        "colour target",
        ImageKind::Color,
        vk::ImageLayout::UNDEFINED,
        key.present.then_some(Access::Present),
    );
    let ring = g.imported_buffer("palette ring slot");
    let readback = g.host_read_buffer("readback");
    let cull_inputs = g.imported_buffer("culling inputs");
    let counters = g.imported_buffer("culling counters");
    let lists = g.imported_buffer("visible lists");
    let draw_counts = g.imported_buffer("draw counts");
    let commands = g.imported_buffer("draw commands");
    let stats = g.host_read_buffer("draw statistics");
    let candidates = g.imported_buffer("occlusion candidates");
    let size = settings.shadow_size.max(1);
    let shadow_map = g.transient_image(ImageDesc {
        name: "shadow map",
        format: DEPTH_FORMAT,
        kind: ImageKind::Depth,
        extent: Extent::Fixed(size, size),
    });
    let depth = g.transient_image(ImageDesc {
        name: "depth",
        format: DEPTH_FORMAT,
        kind: ImageKind::Depth,
        extent: Extent::Target,
    });
    let forward_depth = g.transient_image(ImageDesc {
        name: "forward depth",
        format: DEPTH_FORMAT,
        kind: ImageKind::Depth,
        extent: Extent::Target,
    });
    let normals = g.transient_image(ImageDesc {
        name: "normals",
        format: NORMAL_FORMAT,
        kind: ImageKind::Color,
        extent: Extent::Target,
    });
    // Ambient occlusion at half size (see shaders/ssao.comp).
    let ao_raw = g.transient_image(ImageDesc {
        name: "ao raw",
        format: AO_FORMAT,
        kind: ImageKind::Color,
        extent: Extent::TargetScaled(AO_SCALE),
    });
    let ao = g.transient_image(ImageDesc {
        name: "ao",
        format: AO_FORMAT,
        kind: ImageKind::Color,
        extent: Extent::TargetScaled(AO_SCALE),
    });
    // The occlusion test's depth, an eighth of the render size (shaders/occlusion_depth.comp).
    let occlusion_depth = g.transient_image(ImageDesc {
        name: "occlusion depth",
        format: AO_FORMAT,
        kind: ImageKind::Color,
        extent: Extent::TargetScaled(OCCLUSION_BLOCK),
    });
    let vertex_ring = Access::StorageRead(Stages::Vertex);
    let compute_read = Access::StorageRead(Stages::Compute);
    let view = key.view.0;
    let silhouette = view == ViewMode::Silhouette.shader_value();
    let shows_frame = view == ViewMode::Final.shader_value() || silhouette;
    // The silhouette view is plain white: no light, so nothing to shadow or occlude, and no
    // prepass to test occlusion against.
    let prepass = !shows_frame || ((settings.prepass || settings.ssao) && !silhouette);
    let occlusion = settings.occlusion && settings.cull && prepass;

    // Every pass is declared; what the last pass reads decides which ones run.
    g.pass(pass::CULL_CLEAR)
        .write(counters, Access::TransferDst)
        .finish();
    g.pass(pass::CULL)
        .read(ring, compute_read)
        .read(cull_inputs, compute_read)
        .write(counters, Access::StorageReadWrite(Stages::Compute))
        .write(lists, Access::StorageWrite(Stages::Compute))
        .write(candidates, Access::StorageWrite(Stages::Compute))
        .finish();
    g.pass(pass::CULL_DRAWS)
        .read(cull_inputs, compute_read)
        .read(counters, compute_read)
        .write(draw_counts, Access::StorageWrite(Stages::Compute))
        .write(commands, Access::StorageWrite(Stages::Compute))
        .finish();
    // What every skinned pass reads: the ring, its view's lists and the indirect draws.
    let skinned = |p: &mut super::graph::PassBuilder<'_>| {
        p.read(ring, vertex_ring)
            .read(lists, vertex_ring)
            .read(draw_counts, Access::IndirectRead)
            .read(commands, Access::IndirectRead);
    };
    let mut shadow = g.pass(pass::SHADOW);
    skinned(&mut shadow);
    shadow
        .write(shadow_map, Access::DepthAttachmentWrite)
        .finish();
    let mut early = g.pass(pass::DEPTH_NORMAL);
    skinned(&mut early);
    early
        .write(depth, Access::DepthAttachmentWrite)
        .write(normals, Access::ColorAttachmentWrite)
        .finish();
    if occlusion {
        // The small instances the large ones may hide: tested against the depth so far,
        // then drawn into it before anything reads it.
        g.pass(pass::OCCLUSION_DEPTH)
            .read(depth, Access::Sampled(Stages::Compute))
            .write(occlusion_depth, Access::StorageWrite(Stages::Compute))
            .finish();
        g.pass(pass::CULL_LATE)
            .read(ring, compute_read)
            .read(cull_inputs, compute_read)
            .read(candidates, compute_read)
            .read(occlusion_depth, Access::Sampled(Stages::Compute))
            .write(counters, Access::StorageReadWrite(Stages::Compute))
            .write(lists, Access::StorageWrite(Stages::Compute))
            .finish();
        g.pass(pass::CULL_DRAWS_LATE)
            .read(cull_inputs, compute_read)
            .read(counters, compute_read)
            .write(draw_counts, Access::StorageWrite(Stages::Compute))
            .write(commands, Access::StorageWrite(Stages::Compute))
            .finish();
        let mut late = g.pass(pass::DEPTH_NORMAL_LATE);
        skinned(&mut late);
        late.write(depth, Access::DepthAttachmentWrite)
            .write(normals, Access::ColorAttachmentWrite)
            .finish();
    }
    g.pass(pass::SSAO)
        .read(depth, Access::Sampled(Stages::Compute))
        .read(normals, Access::Sampled(Stages::Compute))
        .write(ao_raw, Access::StorageWrite(Stages::Compute))
        .finish();
    g.pass(pass::SSAO_BLUR)
        .read(ao_raw, Access::Sampled(Stages::Compute))
        .read(depth, Access::Sampled(Stages::Compute))
        .write(ao, Access::StorageWrite(Stages::Compute))
        .finish();

    let mut flags = PassFlags {
        occlusion,
        ..PassFlags::default()
    };
    let mut debug_source = None;
    if shows_frame {
        flags = PassFlags {
            shadows: settings.shadows && !silhouette,
            ao: settings.ssao && !silhouette,
            prepass,
            occlusion,
        };
        let mut forward = g.pass(pass::FORWARD);
        skinned(&mut forward);
        forward.write(color, Access::ColorAttachmentWrite);
        if flags.prepass {
            forward.read(depth, Access::DepthAttachmentRead);
        } else {
            forward.write(forward_depth, Access::DepthAttachmentWrite);
        }
        if flags.shadows {
            forward.read(shadow_map, Access::Sampled(Stages::Fragment));
        }
        if flags.ao {
            forward.read(ao, Access::Sampled(Stages::Fragment));
        }
        forward.finish();
    } else {
        let source = match view {
            v if v == ViewMode::Ao.shader_value() => ao,
            v if v == ViewMode::Normals.shader_value() => normals,
            v if v == ViewMode::Depth.shader_value() => depth,
            _ => shadow_map,
        };
        debug_source = Some(source);
        g.pass(pass::DEBUG_VIEW)
            .read(source, Access::Sampled(Stages::Fragment))
            .write(color, Access::ColorAttachmentWrite)
            .finish();
    }
    // The counts of every frame, after every culling pass, for the statistics (read a frame
    // late, never waited for).
    g.pass(pass::CULL_STATS)
        .read(counters, Access::TransferSrc)
        .write(stats, Access::TransferDst)
        .finish();
    if key.readback {
        g.pass(pass::READBACK)
            .read(color, Access::TransferSrc)
            .write(readback, Access::TransferDst)
            .finish();
    } else {
        g.mark_output(color);
    }
    let plan = g.compile().map_err(|e| GpuError::Graph(e.to_string()))?;
    log::debug!("frame graph for {key:?}:\n{plan}");
    Ok(CompiledGraph {
        plan,
        ids: GraphIds {
            color,
            ring,
            readback,
            cull_inputs,
            counters,
            lists,
            draw_counts,
            commands,
            stats,
            candidates,
            occlusion_depth,
            shadow_map,
            depth,
            forward_depth,
            normals,
            ao_raw,
            ao,
        },
        flags,
        debug_source,
        forward_depth: if flags.prepass { depth } else { forward_depth },
    })
}

/// The transient images of every compiled graph, shared by name: one shadow map, one depth
/// buffer... whatever the view. Recreated when the render size changes.
pub struct TransientPool {
    ctx: Arc<GpuContext>,
    images: HashMap<&'static str, GpuImage>,
    extent: vk::Extent2D,
}

impl TransientPool {
    /// An empty pool for `extent`-sized frames.
    pub fn new(ctx: &Arc<GpuContext>, extent: vk::Extent2D) -> Self {
        Self {
            ctx: ctx.clone(),
            images: HashMap::new(),
            extent,
        }
    }

    /// Forgets every image (the caller waited for the device) and takes a new size.
    pub fn reset(&mut self, extent: vk::Extent2D) {
        self.images.clear();
        self.extent = extent;
    }

    /// Creates what `graph` needs and does not exist yet. Every image can be both written
    /// and sampled, so graphs with different readers share it.
    pub fn prepare(&mut self, graph: &CompiledGraph) -> Result<(), GpuError> {
        for (id, desc) in graph.plan.transients() {
            if self.images.contains_key(desc.name) {
                continue;
            }
            let (aspect, usage) = match desc.kind {
                ImageKind::Depth => (
                    vk::ImageAspectFlags::DEPTH,
                    vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT | vk::ImageUsageFlags::SAMPLED,
                ),
                ImageKind::Color if desc.format == AO_FORMAT => (
                    vk::ImageAspectFlags::COLOR,
                    vk::ImageUsageFlags::STORAGE | vk::ImageUsageFlags::SAMPLED,
                ),
                ImageKind::Color => (
                    vk::ImageAspectFlags::COLOR,
                    vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::SAMPLED,
                ),
            };
            let image = GpuImage::new(
                &self.ctx,
                desc.name,
                ImageInfo {
                    format: desc.format,
                    extent: desc.extent.resolve(self.extent),
                    usage: usage | graph.plan.image_usage(id),
                    mip_levels: 1,
                    aspect,
                },
            )?;
            self.images.insert(desc.name, image);
        }
        Ok(())
    }

    /// The image named `name`, if created.
    pub fn get(&self, name: &str) -> Option<&GpuImage> {
        self.images.get(name)
    }

    /// What `id` of `graph` is bound to, when it is one of the pool's images.
    pub fn bound(&self, graph: &CompiledGraph, id: ResourceId) -> Option<Bound> {
        let name = graph.plan.resource_name(id);
        let image = self.images.get(name)?;
        Some(Bound::Image {
            image: image.image,
            aspect: image.info.aspect,
        })
    }

    /// The view of `id` of `graph`.
    pub fn view(&self, graph: &CompiledGraph, id: ResourceId) -> Option<vk::ImageView> {
        self.images
            .get(graph.plan.resource_name(id))
            .map(|i| i.view)
    }
}
