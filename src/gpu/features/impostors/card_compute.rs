//! Impostor cards drawn by compute passes ([`crate::gpu::Raster::Compute`]): on a GPU
//! whose graphics units are few beside its compute units, a card (a few dozen pixels at
//! most) costs less found pixel by pixel in a compute shader than rasterized, depth-tested
//! and shaded as a quad.
//!
//! From the camera, after the lit passes have drawn the meshes:
//! - `card_visibility_clear` empties the visibility buffer (one 64-bit entry per pixel and
//!   sample, which the mesh raster shares: [`visibility`]);
//! - `card_raster` finds, for every card of every model in the camera's lists, the pixels
//!   its quad covers and where its picture shows the surface, and keeps at every sample of
//!   such a pixel the nearest surface with its depth (one atomic maximum:
//!   `shaders/card_raster.comp`);
//! - after the ground pass (which leaves the samples the cards claim out of its resolve),
//!   `card_shade` lights each pixel's card once and merges it into the resolved sun, sky and
//!   normal images by the samples at which it is in front of the meshes
//!   (`shaders/card_shade.glsl`), one dispatch per model (each has its own atlas);
//! - the camera depth pass (`crate::gpu::features::lit::camera_depth`) then puts the cards' depths into the
//!   depth the ambient occlusion reads.
//!
//! From the sun, before the meshes' shadow pass: `card_shadow` keeps per texel the nearest
//! card depth in the shadow map's depths ([`crate::gpu::features::shadow_splat`], a 32-bit
//! atomic minimum: `shaders/card_shadow.comp`), which are then copied into the shadow map
//! that the meshes' shadow pass loads and draws over.
//!
//! Every barrier between them is the graph's.

use ash::vk;
use bytemuck::{Pod, Zeroable};

use crate::gpu::device::buffer::whole_buffer;
use crate::gpu::device::error::GpuError;
use crate::gpu::device::pipeline::Pipeline;
use crate::gpu::features::cull::Culled;
use crate::gpu::features::impostors::cards::{CardConstants, Eye, ModelCards};
use crate::gpu::features::lit::depth_normal::DepthNormals;
use crate::gpu::features::lit::forward::{Forward, ResolvedLight};
use crate::gpu::frame::culling::data::{VIEW_CAMERA, VIEW_CAMERA_LATE, VIEW_SHADOW};
use crate::gpu::frame::declaration::FrameDeclaration;
use crate::gpu::frame::declaration::compute;
use crate::gpu::frame::recording::pass::{Bind, PassRecording};
use crate::gpu::frame::resources::buffers::{BufferDesc, BufferSize};
use crate::gpu::graph::{Access, PassBuilder, ResourceId, Stages};

/// Empties the camera's visibility buffer.
pub const VISIBILITY_CLEAR: &str = "card_visibility_clear";
/// The camera's cards into the visibility buffer.
pub const RASTER: &str = "card_raster";
/// The visibility buffer's cards lit and merged into the lit frame.
pub const SHADE: &str = "card_shade";
/// The sun's cards into the shadow depths.
pub const SHADOW: &str = "card_shadow";

/// Cards one raster workgroup takes at a time (`CARDS_PER_GROUP` in
/// shaders/card_raster.glsl).
const CARDS_PER_GROUP: u32 = 4;
/// Threads per raster workgroup (its `local_size_x`).
const RASTER_GROUP: u32 = 64;
/// The most raster workgroups one dispatch starts: they stride over the list, so this bounds
/// the empty groups a list shorter than its model's crowd starts, not the cards drawn.
const MOST_RASTER_GROUPS: u32 = 8192;
/// `card.draw` of a shading dispatch with no late list.
const NO_COMMAND: u32 = u32::MAX;

/// The visibility buffer of a frame of `samples` samples per pixel: per pixel and sample, the
/// nearest card's or mesh triangle's inverted depth bits above what it is (zero: none;
/// `shaders/visibility.glsl`).
fn visibility_desc(samples: vk::SampleCountFlags) -> BufferDesc {
    BufferDesc {
        name: "visibility",
        size: BufferSize {
            per_pixel: 8 * u64::from(samples.as_raw().max(1)),
            ..BufferSize::ZERO
        },
        usage: vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
        host_read: false,
    }
}

/// The push constants of the card compute shaders: the cards' own (`CardConstants`), then
/// `draw` (`card.draw` in shaders/impostor_card.glsl with CARD_COMPUTE).
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
struct CardDispatch {
    card: CardConstants,
    /// Raster: the card command, the target's width and height, samples per pixel. Shading: the camera's and
    /// the late list's commands ([`NO_COMMAND`] for none), samples per pixel, 1 when the
    /// ground pass draws the ground (the cards test its depth where the pixel sees it).
    draw: [u32; 4],
}

/// What every card compute shader reads, as descriptors: the ring's records, the visible
/// lists, the card commands, the frame and the looks.
struct CardReads {
    records: [vk::DescriptorBufferInfo; 1],
    lists: [vk::DescriptorBufferInfo; 1],
    commands: [vk::DescriptorBufferInfo; 1],
    frame: [vk::DescriptorBufferInfo; 1],
    looks: [vk::DescriptorBufferInfo; 1],
}

impl CardReads {
    fn of(r: &PassRecording<'_>, culled: &Culled) -> Result<Self, GpuError> {
        Ok(Self {
            records: r.ring_infos()?.0,
            lists: r.buffer_info(culled.draws.lists)?,
            commands: r.buffer_info(culled.cards)?,
            frame: r.frame_info(),
            looks: whole_buffer(r.shared.crowd.looks),
        })
    }

    /// These, the buffer the shader writes or reads per pixel (`target`, by its block's
    /// name) and `model`'s atlas, as binds.
    fn binds<'a>(
        &'a self,
        target: (&'static str, &'a [vk::DescriptorBufferInfo; 1]),
        model: &'a ModelCards,
    ) -> [Bind<'a>; 9] {
        [
            Bind::buffer("Records", &self.records),
            Bind::buffer("Visible", &self.lists),
            Bind::buffer("CardCommands", &self.commands),
            Bind::buffer(target.0, target.1),
            Bind::buffer("Frame", &self.frame),
            Bind::buffer("CardViews", &model.views),
            Bind::image("card_color", &model.color),
            Bind::image("card_normal_depth", &model.normal_depth),
            Bind::buffer("Looks", &self.looks),
        ]
    }
}

/// Index of the card command of `view` and model `m` among `models`.
fn command(view: usize, models: usize, m: usize) -> u32 {
    (view * models + m) as u32
}

/// The reads of every card pass: the ring's records, the visible lists and the card commands.
fn reads_cards(p: &mut PassBuilder<'_>, culled: &Culled, ring: ResourceId) {
    let read = Access::StorageRead(Stages::Compute);
    p.read(ring, read)
        .read(culled.draws.lists, read)
        .read(culled.cards, read);
}

/// Declares the sun's cards splatted into the shadow map's `depths`
/// ([`crate::gpu::features::shadow_splat`]) before the meshes' shadow pass draws there;
/// nothing unless the frame's shape asks for it.
pub fn declare_shadow(f: &mut FrameDeclaration, culled: &Culled, depths: Option<ResourceId>) {
    let Some(depths) = depths.filter(|_| f.shape.shadow_cards_in_compute) else {
        return;
    };
    let pipeline = f.pipeline(compute("card shadow", "card_shadow.comp"));
    let (c, ring) = (*culled, f.frame.ring);
    let mut p = f.pass(SHADOW, move |r| {
        let side = r.shared.shadow_size;
        raster(
            r,
            r.pipeline(pipeline)?,
            &c,
            depths,
            [VIEW_SHADOW],
            [side, side, 1],
        )
    });
    reads_cards(&mut p, culled, ring);
    p.write(depths, Access::StorageReadWrite(Stages::Compute))
        .finish();
}

/// Declares the camera's visibility buffer, emptied for this frame, where compute passes find
/// the camera's cards or meshes (the frame's shape says), after the lit passes that resolved
/// `forward`'s light: per pixel, the nearest surface's inverted depth bits above what it is
/// (a card's entry in the visible lists, or a mesh triangle: `shaders/mesh_compute.glsl`).
pub fn visibility(f: &mut FrameDeclaration, forward: &Forward) -> Option<ResourceId> {
    let shape = f.shape;
    forward.resolved_light()?;
    if !shape.camera_cards_in_compute && !shape.meshes_in_compute {
        return None;
    }
    let visibility = f.buffer(visibility_desc(f.samples()));
    f.pass(VISIBILITY_CLEAR, move |r| {
        let (buffer, offset, size) = r.buffer(visibility)?;
        // SAFETY: outside rendering; the graph ordered this after the last frame's reads.
        unsafe { r.ctx.device.cmd_fill_buffer(r.cmd, buffer, offset, size, 0) };
        Ok(())
    })
    .write(visibility, Access::TransferDst)
    .finish();
    Some(visibility)
}

/// Declares the camera's cards rasterized into `visibility`, every sample of each pixel they
/// keep; nothing unless the frame's shape asks for it.
pub fn declare_camera_raster(f: &mut FrameDeclaration, culled: &Culled, visibility: ResourceId) {
    if !f.shape.camera_cards_in_compute {
        return;
    }
    let ring = f.frame.ring;
    let c = *culled;
    let samples = f.samples().as_raw();
    let raster_pipeline = f.pipeline(compute("card raster", "card_raster.comp"));
    let mut p = f.pass(RASTER, move |r| {
        let extent = r.extent();
        let views = [VIEW_CAMERA, VIEW_CAMERA_LATE];
        let views = if r.shared.shape.occlusion {
            &views[..]
        } else {
            &views[..1]
        };
        let pipeline = r.pipeline(raster_pipeline)?;
        raster(
            r,
            pipeline,
            &c,
            visibility,
            views,
            [extent.width, extent.height, samples],
        )
    });
    reads_cards(&mut p, culled, ring);
    p.write(visibility, Access::StorageReadWrite(Stages::Compute))
        .finish();
}

/// Declares the camera's cards in `visibility` lit (as `forward` lights: its shadow map) and
/// merged into what the lit passes (without a prepass, with the light apart) resolved (and
/// the ground pass drew); nothing unless the frame's shape asks for it.
pub fn declare_camera_shade(
    f: &mut FrameDeclaration,
    culled: &Culled,
    forward: &Forward,
    images: &DepthNormals,
    visibility: ResourceId,
) {
    let Some(light) = forward.resolved_light() else {
        return;
    };
    let shadow_map = forward.lit.shadow_map;
    if !f.shape.camera_cards_in_compute {
        return;
    }
    let ring = f.frame.ring;
    let c = *culled;
    let samples = f.samples();
    let single = samples == vk::SampleCountFlags::TYPE_1;
    let shade_pipeline = f.pipeline(if single {
        compute("card shade (one sample)", "card_shade_single.comp")
    } else {
        compute("card shade", "card_shade.comp")
    });
    let mesh_depth = images.depth_samples;
    let picture_depth = !f.shape.card_plane_depth;
    let ground = f.shape.ground_in_compute;
    let mut p = f.pass(SHADE, move |r| {
        let pipeline = r.pipeline(shade_pipeline)?;
        let screen = r.shared.samplers.screen;
        let targets = light.images(r)?;
        let depth = r.image_info(mesh_depth, screen)?;
        let shadow = r.shadow_image(shadow_map)?;
        let visibility = r.buffer_info(visibility)?;
        let reads = CardReads::of(r, &c)?;
        let models = r.shared.crowd.models.len();
        let late = r.shared.shape.occlusion;
        for m in 0..models {
            let Some(model) = ModelCards::of(r, m, Eye::Camera, picture_depth) else {
                continue;
            };
            let dispatch = CardDispatch {
                card: model.constants,
                draw: [
                    command(VIEW_CAMERA, models, m),
                    if late {
                        command(VIEW_CAMERA_LATE, models, m)
                    } else {
                        NO_COMMAND
                    },
                    samples.as_raw(),
                    u32::from(ground),
                ],
            };
            // The reads every card shader shares, then the shading's own.
            let common = reads.binds(("Visibility", &visibility), &model);
            let mut binds = [common[0]; 14];
            binds[..9].copy_from_slice(&common);
            binds[9] = Bind::image("shadow_map", &shadow);
            binds[10] = Bind::image("mesh_depth", &depth);
            binds[11..].copy_from_slice(&ResolvedLight::binds(&targets));
            r.push_constants(pipeline, bytemuck::bytes_of(&dispatch))?;
            let extent = r.extent();
            r.dispatch(pipeline, &binds, [extent.width, extent.height])?;
        }
        Ok(())
    });
    reads_cards(&mut p, culled, ring);
    let sampled = Access::Sampled(Stages::Compute);
    p.read(visibility, Access::StorageRead(Stages::Compute))
        .read(mesh_depth, sampled);
    if let Some(map) = shadow_map {
        p.read(map, sampled);
    }
    light.merged_by(&mut p);
    p.finish();
}

/// Dispatches `pipeline` (card_raster.comp or card_shadow.comp) over the cards of every
/// model in `views`' lists, into `target` (a buffer of `size`: pixels across, down, and
/// samples per pixel).
fn raster(
    r: &PassRecording<'_>,
    pipeline: &Pipeline,
    culled: &Culled,
    target: ResourceId,
    views: impl AsRef<[usize]>,
    size: [u32; 3],
) -> Result<(), GpuError> {
    let target = r.buffer_info(target)?;
    let reads = CardReads::of(r, culled)?;
    let models = r.shared.crowd.models.len();
    let sun = views.as_ref().contains(&VIEW_SHADOW);
    let eye = if sun { Eye::Sun } else { Eye::Camera };
    let picture_depth = !r.shared.shape.card_plane_depth;
    let target_name = if sun { "ShadowDepths" } else { "Visibility" };
    for m in 0..models {
        let Some(model) = ModelCards::of(r, m, eye, picture_depth) else {
            continue;
        };
        let binds = reads.binds((target_name, &target), &model);
        // As many groups as the model's crowd could need (each takes CARDS_PER_GROUP cards
        // at a time), up to a bound past which they stride.
        let crowd = r.shared.crowd.ranges.get(m).map_or(0, |range| range.len()) as u32;
        let groups = crowd.div_ceil(CARDS_PER_GROUP).clamp(1, MOST_RASTER_GROUPS);
        for &view in views.as_ref() {
            let dispatch = CardDispatch {
                card: model.constants,
                draw: [command(view, models, m), size[0], size[1], size[2]],
            };
            r.push_constants(pipeline, bytemuck::bytes_of(&dispatch))?;
            r.dispatch(pipeline, &binds, [groups * RASTER_GROUP, 1])?;
        }
    }
    Ok(())
}
