//! What a frame is asked to be, below every pass: the user's [`RenderSettings`] (which
//! passes run, samples per pixel, shadow map size), what a frame's graph is compiled for
//! ([`GraphKey`]), from which the [`FrameShape`](crate::gpu::frame::shape::FrameShape) is
//! decided once before any pass is declared, and the image formats several passes share.

use ash::vk;

use crate::gpu::device::context::GpuContext;
use crate::gpu::device::pipeline::DepthState;
use crate::gpu::frame::shader_interface::{
    VIEW_MODE_AO, VIEW_MODE_DEPTH, VIEW_MODE_FINAL, VIEW_MODE_NORMALS, VIEW_MODE_SHADOW,
    VIEW_MODE_SILHOUETTE,
};
use crate::gpu::frame::skin_room::{DEFAULT_SKIN_MEMORY_MB, skin_memory_within};

/// Depth buffer format (every Vulkan device supports it as a depth attachment).
pub const DEPTH_FORMAT: vk::Format = vk::Format::D32_SFLOAT;

/// A pipeline's use of a [`DEPTH_FORMAT`] attachment: tested with `compare`, written when
/// `write`, without bias.
pub fn depth_test(compare: vk::CompareOp, write: bool) -> DepthState {
    DepthState {
        format: DEPTH_FORMAT,
        compare,
        write,
        bias: None,
    }
}
/// The sun's light and the sky's light the camera's passes write apart without a prepass
/// (linear light, added by the composite pass).
pub const LIGHT_FORMAT: vk::Format = vk::Format::R16G16B16A16_SFLOAT;
/// View-space normals from the prepass.
pub const NORMAL_FORMAT: vk::Format = vk::Format::R16G16B16A16_SFLOAT;
/// One float per pixel written by a compute pass (ambient occlusion, the occlusion test's
/// depth): a core storage-image format (16-bit floats would need an extension).
pub const SCALAR_FORMAT: vk::Format = vk::Format::R32_SFLOAT;

/// Which passes run and how.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderSettings {
    /// The sun casts shadows (`--no-shadows` turns it off).
    pub shadows: bool,
    /// Ambient occlusion darkens the ambient light (`--no-ssao`).
    pub ssao: bool,
    /// Depth and normals are drawn first and the forward pass shades each pixel once (equal
    /// depth test; `--prepass on`). Off, the default, the forward pass tests and writes the
    /// depth and normals itself (the characters' geometry goes through the vertex shaders
    /// once less) and the ambient occlusion is applied after it.
    pub prepass: bool,
    /// Shadow map side in texels (`--shadow-size`); `None`, the default, follows the frame's
    /// size ([`RenderSettings::shadow_size_at`]).
    pub shadow_size: Option<u32>,
    /// A second shadow map square, beside the first in one image, fitted to what stands near
    /// the camera where the crowd's box is large enough that the whole box's texels blur near
    /// shadows (`--shadow-cascade`; [`crate::scene::near_cascade`] decides each frame).
    pub shadow_cascade: bool,
    /// Instances are tested against each view and only those that may be seen are drawn
    /// (`--cull`).
    pub cull: bool,
    /// Instances draw a coarser mesh level where its error stays under a pixel (`--lod`).
    pub lod: bool,
    /// Scales the projected sizes at which coarser levels and baked animation take over
    /// (`--lod-bias`): 2 switches at twice the size (cheaper), 0.5 at half.
    pub lod_bias: f32,
    /// Small instances are drawn only where the large ones leave them visible (`--cull`
    /// covers it too; tested against the depth the prepass, or the forward pass, drew of the
    /// large ones; not in the silhouette view).
    pub occlusion: bool,
    /// Samples per pixel of the camera's passes (`--msaa`: 1, 2, 4 or 8): the prepass, the
    /// forward pass and their depth render multisampled and resolve into the single-sample
    /// images the ambient occlusion, the occlusion test and the target take. The renderer
    /// lowers it to what the device supports.
    pub msaa: u32,
    /// Characters shorter on screen than [`RenderSettings::impostor_px`] are drawn as
    /// impostor cards, where their model has an atlas (`--impostors`; off in the library,
    /// on in the command line).
    pub impostors: bool,
    /// The projected height, in pixels, under which a character is drawn as a card
    /// (`--impostor-px`); `None`, the default, scales it with the frame's height
    /// ([`RenderSettings::impostor_px_at`]).
    pub impostor_px: Option<f32>,
    /// Which depth the camera's card passes write (`--card-depth`).
    pub card_depth: CardDepth,
    /// How cards are rasterized (`--card-raster`).
    pub card_raster: Raster,
    /// How the ground and the sky are drawn (`--ground`).
    pub ground: Raster,
    /// How the coarser mesh levels are rasterized, from the camera and from the sun
    /// (`--mesh-raster`).
    pub mesh_raster: Raster,
    /// A filmic tone curve over the lit frame (`--tonemap`): a post-process pass between the
    /// lit passes and the output (off by default).
    pub tonemap: bool,
    /// The lit frame's exposure adapted over time to bring its average to mid-grey
    /// (`--auto-exposure`): a post-process pass before the tone curve (off by default).
    pub auto_exposure: bool,
    /// Where the meshes are skinned (`--skin`): [`Raster::Compute`], once per frame by the
    /// skin pass for every pass that draws them; [`Raster::Graphics`], in each pass's vertex
    /// shader. See [`crate::gpu::frame::skinning`].
    pub skin: Raster,
    /// Megabytes a frame in flight keeps for the vertices the skin pass skins
    /// (`--skin-memory`).
    pub skin_memory_mb: u32,
}

/// The depth a card leaves in the camera's depth buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CardDepth {
    /// [`CardDepth::Picture`] on a GPU, [`CardDepth::Plane`] on a software rasterizer
    /// ([`supported`] decides).
    #[default]
    Auto,
    /// The depth of the surface the picture stores, written by the fragment shader: cards
    /// meet the ground, meshes and each other where the meshes would.
    Picture,
    /// The depth of the card's own quad (a plane through the character's middle); its
    /// lighting and shadow still use the stored surface. Lavapipe (Mesa 22.3) grows by about
    /// 1.3 MB every frame in which a fragment shader that writes depth also samples the shadow
    /// map or the ambient occlusion, so a software rasterizer draws cards this way.
    Plane,
}

/// How a part of the frame is drawn where a compute pass can draw it instead of the graphics
/// pipelines: the impostor cards (`--card-raster`), the ground (`--ground`), the coarser mesh
/// levels (`--mesh-raster`) and the skinning (`--skin`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Raster {
    /// [`Raster::Compute`] on a GPU that can, [`Raster::Graphics`] on a software rasterizer,
    /// whose compute is no faster than its rasterizer ([`supported`] decides).
    #[default]
    Auto,
    /// Compute passes. Cards: each sample keeps its nearest card in a visibility buffer (one
    /// 64-bit atomic of depth and card), which is then shaded once per pixel and merged into
    /// the lit frame's resolved images, per sample against the meshes' depth; the sun's view
    /// splats the cards' depths into the shadow map before the meshes' shadows (a device
    /// without 64-bit buffer atomics draws them as quads). The ground: drawn after the lit
    /// passes have resolved, where each pixel's ray meets it, by the share of the pixel's
    /// samples no mesh covers. The coarser mesh levels: their triangles' samples kept in the
    /// same visibility buffer, lit once per pixel and resolved with the rest (with the ground
    /// in compute), and from the sun their depths splatted into the shadow map. A GPU's few
    /// fixed-function units then draw only the near meshes. The camera's parts need the
    /// frame without a prepass and with ambient occlusion (the light apart, in images a
    /// compute pass can write); other frames draw them as [`Raster::Graphics`] (the sun's
    /// cards and meshes stay in compute). Skinning: once per frame by the skin pass.
    Compute,
    /// The graphics pipelines: cards as quads, one indirect draw per model and view; the
    /// ground as a quad under the meshes, at every sample.
    Graphics,
}

impl Default for RenderSettings {
    fn default() -> Self {
        Self {
            shadows: true,
            ssao: true,
            prepass: false,
            shadow_size: None,
            shadow_cascade: true,
            cull: true,
            lod: true,
            lod_bias: 1.0,
            occlusion: true,
            msaa: DEFAULT_MSAA,
            impostors: false,
            impostor_px: None,
            card_depth: CardDepth::Auto,
            card_raster: Raster::Auto,
            ground: Raster::Auto,
            mesh_raster: Raster::Auto,
            tonemap: false,
            auto_exposure: false,
            skin: Raster::Auto,
            skin_memory_mb: DEFAULT_SKIN_MEMORY_MB,
        }
    }
}

/// The projected height under which characters are drawn as cards unless asked otherwise, in
/// a frame [`IMPOSTOR_REFERENCE_HEIGHT`] pixels high or less: the most for which the overview
/// of 1,000 built-in characters at 640x360 keeps its picture (docs/crowds-at-scale.md: at 24
/// pixels it no longer does).
pub const DEFAULT_IMPOSTOR_PX: f32 = 20.0;

/// The frame height at which [`DEFAULT_IMPOSTOR_PX`] was chosen. A taller frame shows the same
/// character in more pixels, and a card's differences from its mesh (the nearest of 64
/// directions, the nearest of 16 frames) grow with it: the threshold scales with the height,
/// so the picture holds. Measured: the 1,000-character overview with cards under 20 pixels at
/// 640x360, 40 at 1280x720 and 60 at 1920x1080 differs from its meshes by 0.58, 0.55 and 0.55
/// levels per channel (98.4%, 98.5%, 98.5% of pixels within 8; its characters' pixels alone
/// 3.58, 3.58 and 3.65).
pub const IMPOSTOR_REFERENCE_HEIGHT: u32 = 360;

/// The most the scaled threshold grows to: the largest measured against the picture goal
/// (1080 lines). Beyond it a card would show its 48-pixel picture ever more magnified.
pub const MAX_SCALED_IMPOSTOR_PX: f32 = 60.0;

/// The fewest and the most texels on a side of the shadow map that follows the frame's size
/// ([`RenderSettings::shadow_size_at`]). The most is the side a 1920x1080 frame gets; the
/// fewest is what a frame 256 pixels wide or less gets (1.6 texels a pixel at 160x90, as
/// 1,024 at 640x360): a floor of 512 gave small frames five times the texels per pixel of a
/// large one, and on a software rasterizer shadow texels are most of a small frame's cost.
pub const SHADOW_SIZE_RANGE: (u32, u32) = (256, 2048);

impl RenderSettings {
    /// The projected height, in pixels, under which a character is a card in a frame
    /// `height` pixels high: [`RenderSettings::impostor_px`] when set, else
    /// [`DEFAULT_IMPOSTOR_PX`] scaled by the height over [`IMPOSTOR_REFERENCE_HEIGHT`], never
    /// below the default nor above [`MAX_SCALED_IMPOSTOR_PX`].
    pub fn impostor_px_at(&self, height: u32) -> f32 {
        self.impostor_px.unwrap_or_else(|| {
            let scaled = DEFAULT_IMPOSTOR_PX * height as f32 / IMPOSTOR_REFERENCE_HEIGHT as f32;
            scaled.clamp(DEFAULT_IMPOSTOR_PX, MAX_SCALED_IMPOSTOR_PX)
        })
    }

    /// The shadow map's side, in texels, for a frame of `extent`:
    /// [`RenderSettings::shadow_size`] when set, else the frame's longer side rounded up to a
    /// power of two, within [`SHADOW_SIZE_RANGE`]. The sun's box is fitted to the whole
    /// crowd whatever the frame, so a map that keeps its texels per pixel keeps the shadows'
    /// look at any frame size, while a 2048-texel map under a 640x360 frame would cost four
    /// times the texels of a 1024 one for shadows no one tells apart (on a software
    /// rasterizer, a third of the street's frame; docs/architecture.md, the shadow pass).
    pub fn shadow_size_at(&self, extent: vk::Extent2D) -> u32 {
        self.shadow_size
            .unwrap_or_else(|| {
                let (least, most) = SHADOW_SIZE_RANGE;
                extent
                    .width
                    .max(extent.height)
                    .clamp(least, most)
                    .next_power_of_two()
            })
            .max(1)
    }
}

/// Samples per pixel unless asked otherwise: thin limbs in a crowd shimmer without
/// anti-aliasing.
pub const DEFAULT_MSAA: u32 = 4;

/// Samples per pixel on a software rasterizer (lavapipe) unless asked otherwise: there four
/// samples cost far more than four times one (a 1,280x720 frame of 64 characters took 60 s of
/// GPU time against 0.38 s), which would leave a first run without a GPU at a frame a minute.
pub const SOFTWARE_DEFAULT_MSAA: u32 = 1;

/// The samples per pixel a device of `kind` renders with unless asked otherwise.
pub fn default_msaa(kind: vk::PhysicalDeviceType) -> u32 {
    if kind == vk::PhysicalDeviceType::CPU {
        SOFTWARE_DEFAULT_MSAA
    } else {
        DEFAULT_MSAA
    }
}

/// What a frame's graph depends on besides the settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GraphKey {
    /// The view shown.
    pub view: ViewMode,
    /// Whether the frame is copied to the readback buffer.
    pub readback: bool,
    /// Whether the target is presented afterwards.
    pub present: bool,
    /// Whether the crowd's state lives on the GPU (the crowd-state pass writes the records).
    pub crowd_state: bool,
    /// Whether that state holds a playback's pedestrians, placed and paced on the GPU.
    pub tracks: bool,
    /// Whether those are coloured by density: passes after the track step count each one's
    /// neighbours.
    pub density: bool,
    /// Whether the heads-up display is drawn over the frame.
    pub hud: bool,
    /// Whether some model has an impostor atlas: without one no character can be a card,
    /// and the frame declares no card pass (nor leaves the lit passes' colours to one).
    pub cards: bool,
    /// The shadow map's side in texels ([`RenderSettings::shadow_size_at`] the frame's size).
    pub shadow_size: u32,
    /// Whether some model has an alpha-clipped material: the shadow pass then declares the
    /// pipeline that clips its texels as the camera's passes do.
    pub alpha_clip: bool,
    /// Whether the frame uses the near shadow cascade
    /// ([`crate::scene::near_cascade`], where the settings and the frame's shape allow it):
    /// its square is then declared beside the whole box's, with the pass that draws it. A
    /// frame without one keeps a map of one square (a wider map slows lavapipe's card
    /// shadows by about 1.8 times even where its second square is not drawn).
    pub shadow_cascade: bool,
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

/// `settings` with `msaa` lowered to the most samples the device renders colour and depth
/// with (one always works), saying so once when it had to, and the card depth of
/// [`CardDepth::Auto`] chosen for the device.
pub fn supported(ctx: &GpuContext, mut settings: RenderSettings) -> RenderSettings {
    let limits = &ctx.physical.limits;
    let counts = limits.framebuffer_color_sample_counts & limits.framebuffer_depth_sample_counts;
    let asked = settings.msaa.max(1);
    let mut msaa = asked.min(8).next_power_of_two().min(8);
    if msaa > asked {
        msaa /= 2;
    }
    while msaa > 1 && !counts.contains(sample_count(msaa)) {
        msaa /= 2;
    }
    if msaa != asked {
        static SAID: std::sync::Once = std::sync::Once::new();
        SAID.call_once(|| {
            log::warn!(
                "{} samples per pixel asked for; {} renders at most {msaa}",
                asked,
                ctx.physical.name
            );
        });
    }
    settings.msaa = msaa;
    let samples_read = samples_readable(limits, msaa);
    let kind = ctx.physical.kind;
    let atomics = ctx.physical.int64_atomics;
    // What the visibility buffer's passes lack, where the device lacks something.
    let lacks = match (atomics, samples_read) {
        (true, true) => String::new(),
        (false, _) => "64-bit buffer atomics".to_string(),
        (true, false) => format!("shaders reading images of {msaa} samples"),
    };
    let name = &ctx.physical.name;
    let asked = settings.card_raster;
    settings.card_raster = raster_for(asked, atomics && samples_read, kind);
    if asked == Raster::Compute && settings.card_raster != asked {
        static SAID: std::sync::Once = std::sync::Once::new();
        SAID.call_once(|| {
            log::warn!("cards in compute need {lacks}, which {name} lacks: drawn as quads")
        });
    }
    let asked = settings.mesh_raster;
    settings.mesh_raster = raster_for(asked, atomics && samples_read, kind);
    if asked == Raster::Compute && settings.mesh_raster != asked {
        static SAID: std::sync::Once = std::sync::Once::new();
        SAID.call_once(|| {
            log::warn!(
                "meshes in compute need {lacks}, which {name} lacks: drawn by the graphics passes"
            )
        });
    }
    let asked = settings.ground;
    settings.ground = raster_for(asked, samples_read, kind);
    if asked == Raster::Compute && settings.ground != asked {
        static SAID: std::sync::Once = std::sync::Once::new();
        SAID.call_once(|| {
            log::warn!(
                "the ground in compute needs shaders reading images of {msaa} samples, which \
                 {name} lacks: rasterized"
            )
        });
    }
    settings.skin = raster_for(settings.skin, true, kind);
    let skins = settings.skin == Raster::Compute;
    let asked = settings.skin_memory_mb;
    settings.skin_memory_mb = skin_memory_within(asked, limits, &ctx.physical.name, skins);
    if settings.card_depth == CardDepth::Auto {
        settings.card_depth = if ctx.physical.kind == vk::PhysicalDeviceType::CPU {
            CardDepth::Plane
        } else {
            CardDepth::Picture
        };
    }
    settings
}

/// Whether shaders can read the samples of the camera's images at `msaa` samples per pixel,
/// as the compute passes do: the cards' shading the depth's, the ground every colour's, the
/// camera depth pass the depth's sample zero. One sample is always readable; a device need
/// not sample every count it renders.
pub fn samples_readable(limits: &vk::PhysicalDeviceLimits, msaa: u32) -> bool {
    let sampled =
        limits.sampled_image_color_sample_counts & limits.sampled_image_depth_sample_counts;
    msaa <= 1 || sampled.contains(sample_count(msaa))
}

/// How a device of `kind` draws what `asked` says, where the compute path `needs` what the
/// device may lack (the cards' 64-bit atomics): compute only where it can; left to the
/// device, a GPU draws in compute and a software rasterizer (lavapipe), whose compute is no
/// faster than its rasterizer, with the graphics pipelines (docs/crowds-at-scale.md measures
/// both).
pub fn raster_for(asked: Raster, can: bool, kind: vk::PhysicalDeviceType) -> Raster {
    match asked {
        Raster::Compute if can => Raster::Compute,
        Raster::Auto if can && kind != vk::PhysicalDeviceType::CPU => Raster::Compute,
        _ => Raster::Graphics,
    }
}

/// What a frame shows (`--view`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ViewMode {
    /// The lit image (`VIEW_MODE_FINAL` in the shaders).
    #[default]
    Final,
    /// Characters white on black: no ground, no lighting (`VIEW_MODE_SILHOUETTE`). What the
    /// GPU-versus-CPU skinning checks compare.
    Silhouette,
    /// The blurred ambient occlusion.
    Ao,
    /// The prepass's view-space normals.
    Normals,
    /// The prepass's depth, linearized.
    Depth,
    /// The shadow map (depth seen from the light).
    Shadow,
}

impl ViewMode {
    /// The value the shaders compare `frame.view_mode.x` with.
    pub fn shader_value(self) -> u32 {
        match self {
            Self::Final => VIEW_MODE_FINAL,
            Self::Silhouette => VIEW_MODE_SILHOUETTE,
            Self::Ao => VIEW_MODE_AO,
            Self::Normals => VIEW_MODE_NORMALS,
            Self::Depth => VIEW_MODE_DEPTH,
            Self::Shadow => VIEW_MODE_SHADOW,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_impostor_threshold_follows_the_frame_height_within_its_bounds() {
        let auto = RenderSettings::default();
        assert_eq!(auto.impostor_px_at(64), DEFAULT_IMPOSTOR_PX);
        assert_eq!(
            auto.impostor_px_at(IMPOSTOR_REFERENCE_HEIGHT),
            DEFAULT_IMPOSTOR_PX
        );
        assert_eq!(auto.impostor_px_at(720), 2.0 * DEFAULT_IMPOSTOR_PX);
        assert_eq!(auto.impostor_px_at(1080), MAX_SCALED_IMPOSTOR_PX);
        assert_eq!(auto.impostor_px_at(2160), MAX_SCALED_IMPOSTOR_PX);
        let asked = RenderSettings {
            impostor_px: Some(12.0),
            ..auto
        };
        assert_eq!(asked.impostor_px_at(2160), 12.0);
    }

    #[test]
    fn the_default_shadow_map_follows_the_frames_longer_side_within_its_bounds() {
        let auto = RenderSettings::default();
        let at = |width, height| auto.shadow_size_at(vk::Extent2D { width, height });
        // Full HD keeps the side it always had.
        assert_eq!(at(1920, 1080), 2048);
        assert_eq!(at(1080, 1920), 2048);
        assert_eq!(at(1280, 720), 2048);
        assert_eq!(at(1024, 768), 1024);
        assert_eq!(at(640, 360), 1024);
        assert_eq!(at(320, 180), 512);
        assert_eq!(at(257, 100), 512);
        // Small frames keep the texels per pixel of larger ones.
        assert_eq!(at(256, 144), 256);
        assert_eq!(at(160, 90), 256);
        assert_eq!(at(0, 0), 256);
        // Never past the most, however large the frame.
        assert_eq!(at(3840, 2160), 2048);
        assert_eq!(at(u32::MAX, 1), 2048);
        let asked = RenderSettings {
            shadow_size: Some(300),
            ..auto
        };
        assert_eq!(asked.shadow_size_at(vk::Extent2D::default()), 300);
    }

    #[test]
    fn cards_go_to_compute_only_where_the_atomics_are() {
        use vk::PhysicalDeviceType as Kind;
        let gpu = Kind::DISCRETE_GPU;
        // A device without 64-bit atomics draws cards as quads whatever was asked.
        for asked in [Raster::Auto, Raster::Compute, Raster::Graphics] {
            assert_eq!(raster_for(asked, false, gpu), Raster::Graphics);
            assert_eq!(raster_for(asked, false, Kind::CPU), Raster::Graphics);
        }
        assert_eq!(raster_for(Raster::Auto, true, gpu), Raster::Compute);
        assert_eq!(
            raster_for(Raster::Auto, true, Kind::INTEGRATED_GPU),
            Raster::Compute
        );
        assert_eq!(raster_for(Raster::Auto, true, Kind::CPU), Raster::Graphics);
        assert_eq!(
            raster_for(Raster::Compute, true, Kind::CPU),
            Raster::Compute
        );
        assert_eq!(raster_for(Raster::Graphics, true, gpu), Raster::Graphics);
    }

    #[test]
    fn the_compute_passes_need_the_frames_samples_readable() {
        use vk::SampleCountFlags as Count;
        let limits = |color: Count, depth: Count| vk::PhysicalDeviceLimits {
            sampled_image_color_sample_counts: color,
            sampled_image_depth_sample_counts: depth,
            ..Default::default()
        };
        let four = Count::TYPE_1 | Count::TYPE_4;
        let both = limits(four, four);
        assert!(samples_readable(&both, 1) && samples_readable(&both, 4));
        assert!(!samples_readable(&both, 8) && !samples_readable(&both, 2));
        // Colour alone or depth alone is not enough: the passes read both.
        assert!(!samples_readable(&limits(four, Count::TYPE_1), 4));
        assert!(!samples_readable(&limits(Count::TYPE_1, four), 4));
        assert!(samples_readable(&limits(Count::TYPE_1, Count::TYPE_1), 1));
    }
}
