//! The flags that switch the renderer's passes, shared by `run` and `bench frame`.

use clap::{Args, ValueEnum};
use throng::gpu::{CardDepth, Raster, RenderSettings};

/// `on` or `off`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    /// Enabled.
    On,
    /// Disabled.
    Off,
}

impl Switch {
    pub(super) fn on(self) -> bool {
        self == Switch::On
    }
}

/// `--no-shadows`, `--no-ssao`, `--prepass`, `--shadow-size`, `--shadow-cascade`, `--cull`, `--lod`, `--occlusion`,
/// `--lod-bias`, `--msaa`, `--impostors`, `--impostor-px`, `--impostor-memory`,
/// `--card-depth`, `--card-raster`, `--ground`, `--mesh-raster`, `--tonemap`, `--auto-exposure`, `--skin`,
/// `--skin-memory`.
#[derive(Debug, Args)]
pub struct PassArgs {
    /// No shadow pass (the graph culls it).
    #[arg(long)]
    no_shadows: bool,
    /// No ambient occlusion (the graph culls its passes).
    #[arg(long)]
    no_ssao: bool,
    /// Draw the camera's depth and normals in a pass of their own before the lit pass, which
    /// then shades each pixel once (on); off, the lit pass draws them itself and the ambient
    /// occlusion is added after it: the characters go through the vertex shaders once less.
    #[arg(long, value_enum, default_value_t = Switch::Off)]
    prepass: Switch,
    /// Shadow map side in texels (64 to 8192). Default: the frame's longer side rounded up to
    /// a power of two, from 256 to 2048 (a 1920x1080 frame: 2048, 640x360: 1024), so the
    /// shadows look the same at any frame size.
    #[arg(long, value_parser = clap::value_parser!(u32).range(64..=8192))]
    shadow_size: Option<u32>,
    /// A second shadow map square fitted to the view's first 25 crowd heights (45 m of
    /// 1.8 m figures), used in frames where it is at least twice as fine as the map of the
    /// whole crowd: near shadows keep their shape in a crowd hundreds of metres wide.
    #[arg(long, value_enum, default_value_t = Switch::On)]
    shadow_cascade: Switch,
    /// Draw only instances whose bounds (over their whole clip) may be seen by the camera, or
    /// may cast a shadow it sees; off draws every instance in every pass.
    #[arg(long, value_enum, default_value_t = Switch::On)]
    cull: Switch,
    /// Draw each instance with the coarsest mesh level whose error covers at most a quarter
    /// pixel (times --lod-bias; a shadow's level may stray twice that, or two shadow-map
    /// texels, whichever is more); off draws the full mesh everywhere.
    #[arg(long, value_enum, default_value_t = Switch::On)]
    lod: Switch,
    /// With --cull on: draw the instances large on screen first, then only those smaller ones
    /// whose bounds are not wholly behind what is already drawn (off: every instance in view).
    #[arg(long, value_enum, default_value_t = Switch::On)]
    occlusion: Switch,
    /// Scales the projected sizes at which coarser levels and baked animation take over:
    /// 2 switches at twice the size (cheaper, coarser), 0.5 at half (0.01 to 100).
    #[arg(long, default_value_t = 1.0, value_parser = parse_bias)]
    lod_bias: f32,
    /// Samples per pixel of the camera's passes (anti-aliasing: 1 is off); lowered to what
    /// the device supports. Default: 4, or 1 on a software rasterizer such as lavapipe, where
    /// 4 makes a frame many times slower.
    #[arg(long, value_parser = parse_msaa)]
    msaa: Option<u32>,
    /// Draw characters shorter on screen than --impostor-px as impostor cards: one quad
    /// showing a picture of the model baked at start-up from the nearest of 64 directions at
    /// the nearest moment of its clip, lit with the normals and depth stored with it.
    #[arg(long, value_enum, default_value_t = Switch::On)]
    impostors: Switch,
    /// The height on screen, in pixels, under which a character is an impostor card (1 to
    /// 4096). Default: 20 in a frame 360 pixels high or less, scaled with the frame's height
    /// above that (40 at 720, 60 at 1080 and taller), so cards look the same at any size.
    #[arg(long, value_parser = parse_px)]
    impostor_px: Option<f32>,
    /// Megabytes all impostor atlases may take on the GPU; a model whose atlas does not fit
    /// keeps its meshes at every distance (1 to 65536).
    #[arg(long, default_value_t = throng::gpu::DEFAULT_IMPOSTOR_MEMORY >> 20,
          value_parser = clap::value_parser!(u64).range(1..=65536))]
    impostor_memory: u64,
    /// The depth a card leaves for what is drawn after it: `picture`, the surface its picture
    /// stores (cards meet the ground and each other like meshes); `plane`, the card's own quad
    /// (lit the same; lavapipe grows by about 1.3 MB a frame with `picture`). Default: plane
    /// on a software rasterizer, picture on a GPU.
    #[arg(long, value_enum)]
    card_depth: Option<CardDepthArg>,
    /// How cards are rasterized: `compute`, by compute passes into a visibility buffer
    /// (shaded once per pixel, merged per sample with the meshes; the shadow map's cards
    /// splatted likewise); `graphics`, as quads through the graphics pipelines. Default:
    /// compute on a GPU with 64-bit buffer atomics whose shaders read images of the frame's
    /// --msaa samples, graphics on a software rasterizer. The camera's cards need the frame
    /// without --prepass and with ambient occlusion; other frames draw them as quads.
    #[arg(long, value_enum)]
    card_raster: Option<RasterArg>,
    /// How the ground and the sky are drawn in the frame without --prepass (with ambient
    /// occlusion): `compute`, by a compute pass after the lit passes, once per pixel it shows
    /// in, resolving the lit passes' samples as it goes; `graphics`, rasterized under them at
    /// every sample. Default: compute on a GPU whose shaders read images of the frame's
    /// --msaa samples, graphics on a software rasterizer (whose compute is no faster).
    #[arg(long, value_enum)]
    ground: Option<RasterArg>,
    /// How the characters' coarser mesh levels (those of characters small on screen, a few
    /// pixels a triangle) are rasterized: `compute`, from the camera (in the frame without
    /// --prepass, with ambient occlusion and the ground in compute) by a compute pass into the
    /// cards' visibility buffer at each of the frame's samples, lit once per pixel and resolved
    /// with what the lit passes drew, and from the sun by a compute pass into the shadow map
    /// before the shadow pass; `graphics`, by the lit passes and the shadow pass. Default:
    /// compute on a GPU with 64-bit buffer atomics whose shaders read images of the frame's
    /// --msaa samples, graphics on a software rasterizer.
    #[arg(long, value_enum)]
    mesh_raster: Option<RasterArg>,
    /// A filmic tone curve over the lit frame, before the heads-up display: a post-process
    /// pass between the lit passes and the output.
    #[arg(long, value_enum, default_value_t = Switch::Off)]
    tonemap: Switch,
    /// The lit frame's exposure adapted over half a second to bring its average brightness
    /// to mid-grey, as the eye adapts: a post-process pass before the tone curve.
    #[arg(long, value_enum, default_value_t = Switch::Off)]
    auto_exposure: Switch,
    /// Where the characters' meshes are skinned: `compute`, once per frame by a compute pass
    /// after culling, for every pass that draws them (the shadow map's, the camera's);
    /// `vertex`, again in each pass's vertex shader. Default: compute on a GPU, vertex on a
    /// software rasterizer (whose compute costs more than its vertex shaders save).
    #[arg(long, value_enum)]
    skin: Option<SkinArg>,
    /// Megabytes of skinned vertices per frame in flight with --skin compute (1 to 4096; at
    /// most 256, or what the device binds as one buffer, are used); lists that do not fit
    /// are skinned in the vertex shaders.
    #[arg(long, default_value_t = throng::gpu::DEFAULT_SKIN_MEMORY_MB,
          value_parser = clap::value_parser!(u32).range(1..=4096))]
    skin_memory: u32,
}

/// `--skin`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SkinArg {
    /// Once per frame, in compute.
    Compute,
    /// In each pass's vertex shader.
    Vertex,
}

/// `--card-depth`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CardDepthArg {
    /// The depth the picture stores.
    Picture,
    /// The card quad's depth.
    Plane,
}

/// `--card-raster` and `--ground`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RasterArg {
    /// Compute passes.
    Compute,
    /// Graphics pipelines.
    Graphics,
}

/// What `--card-raster` or `--ground` asks for.
fn raster(arg: Option<RasterArg>) -> Raster {
    match arg {
        None => Raster::Auto,
        Some(RasterArg::Compute) => Raster::Compute,
        Some(RasterArg::Graphics) => Raster::Graphics,
    }
}

fn parse_px(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(px) if (1.0..=4096.0).contains(&px) => Ok(px),
        _ => Err(format!("'{s}' is not a number of pixels from 1 to 4096")),
    }
}

fn parse_msaa(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(n @ (1 | 2 | 4 | 8)) => Ok(n),
        _ => Err(format!("'{s}' is not 1, 2, 4 or 8")),
    }
}

fn parse_bias(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(b) if (0.01..=100.0).contains(&b) => Ok(b),
        _ => Err(format!("'{s}' is not a number from 0.01 to 100")),
    }
}

impl PassArgs {
    /// The impostor atlases' budget, bytes.
    pub fn impostor_memory(&self) -> u64 {
        self.impostor_memory << 20
    }

    /// Whether `--msaa` was left to the device's default.
    pub fn msaa_defaulted(&self) -> bool {
        self.msaa.is_none()
    }

    /// The renderer's settings these flags ask for, with
    /// `default_msaa` samples per pixel unless `--msaa` says otherwise.
    pub fn settings(&self, default_msaa: u32) -> RenderSettings {
        RenderSettings {
            shadows: !self.no_shadows,
            ssao: !self.no_ssao,
            prepass: self.prepass.on(),
            shadow_size: self.shadow_size,
            shadow_cascade: self.shadow_cascade.on(),
            cull: self.cull.on(),
            lod: self.lod.on(),
            lod_bias: self.lod_bias,
            occlusion: self.occlusion.on(),
            msaa: self.msaa.unwrap_or(default_msaa),
            impostors: self.impostors.on(),
            impostor_px: self.impostor_px,
            card_depth: match self.card_depth {
                None => CardDepth::Auto,
                Some(CardDepthArg::Picture) => CardDepth::Picture,
                Some(CardDepthArg::Plane) => CardDepth::Plane,
            },
            card_raster: raster(self.card_raster),
            ground: raster(self.ground),
            mesh_raster: raster(self.mesh_raster),
            tonemap: self.tonemap.on(),
            auto_exposure: self.auto_exposure.on(),
            skin: match self.skin {
                None => Raster::Auto,
                Some(SkinArg::Compute) => Raster::Compute,
                Some(SkinArg::Vertex) => Raster::Graphics,
            },
            skin_memory_mb: self.skin_memory,
        }
    }
}
