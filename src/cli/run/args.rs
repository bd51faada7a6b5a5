//! `run`'s arguments: the crowd, the passes, the view, the outputs and the session they
//! build.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use throng::gpu::{ContextOptions, PresentMode, RenderSettings, ViewMode, validation_wanted};

use crate::cli::attach_args::AttachArgs;
use crate::cli::crowd_args::CrowdArgs;
use crate::cli::load_args::LoadArgs;
use crate::cli::pass_args::{PassArgs, Switch};
use crate::cli::session::{Session, SessionSpec};
use crate::cli::{CliError, parse_instances, parse_seconds, parse_threads};

/// `--view`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ViewArg {
    /// The lit crowd on its ground.
    Final,
    /// Characters white on black, no ground or lighting (for checks).
    Silhouette,
    /// The blurred ambient occlusion.
    Ao,
    /// The prepass's view-space normals.
    Normals,
    /// The prepass's depth, linearized.
    Depth,
    /// The shadow map.
    Shadow,
}

impl From<ViewArg> for ViewMode {
    fn from(v: ViewArg) -> Self {
        match v {
            ViewArg::Final => ViewMode::Final,
            ViewArg::Silhouette => ViewMode::Silhouette,
            ViewArg::Ao => ViewMode::Ao,
            ViewArg::Normals => ViewMode::Normals,
            ViewArg::Depth => ViewMode::Depth,
            ViewArg::Shadow => ViewMode::Shadow,
        }
    }
}

/// `--present-mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PresentArg {
    /// Vsync (always available).
    Fifo,
    /// Newest frame wins, no tearing.
    Mailbox,
    /// No vsync.
    Immediate,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Models: `builtin` (default) or model files (`.m3d`, `.gltf`/`.glb`, `.fbx`, `.sdkmesh`,
    /// `.x`; any other file Assimp reads when built with the `assimp` feature). Several models
    /// share the crowd, interleaved on the grid.
    pub(super) models: Vec<String>,
    /// Number of animated instances, all models together (1 to 4,000,000).
    #[arg(long, default_value_t = 4000, value_parser = parse_instances)]
    pub(super) instances: usize,
    /// Render without a window, into an offscreen image.
    #[arg(long)]
    pub(super) headless: bool,
    /// Stop after this many frames.
    #[arg(long, value_parser = parse_frames)]
    pub(super) frames: Option<u64>,
    /// Stop after this many seconds (default: 3 headless; a window runs until closed).
    #[arg(long, value_parser = parse_seconds)]
    pub(super) seconds: Option<f64>,
    /// Frame width in pixels.
    #[arg(long, default_value_t = 1280, value_parser = parse_size)]
    pub(super) width: u32,
    /// Frame height in pixels.
    #[arg(long, default_value_t = 720, value_parser = parse_size)]
    pub(super) height: u32,
    /// Write the last frame as PNG (implies --headless).
    #[arg(long)]
    pub(super) screenshot: Option<PathBuf>,
    /// Worker threads for the palettes (0: one per core; at most 256).
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub(super) threads: usize,
    /// Seed of the crowd's layout, clips, phases and speeds.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// Every instance holds one pose, CLIP@SECONDS (clip name or index), no animation.
    #[arg(long, value_name = "CLIP@SECONDS")]
    pub(super) pose: Option<String>,
    /// What to show.
    #[arg(long, value_enum, default_value_t = ViewArg::Final)]
    pub(super) view: ViewArg,
    /// Write statistics of the run as JSON.
    #[arg(long, value_name = "PATH")]
    pub(super) stats_json: Option<PathBuf>,
    /// Use the Vulkan device whose name contains this (case-insensitive).
    #[arg(long, value_name = "NAME")]
    pub(super) device: Option<String>,
    /// How a window presents frames.
    #[arg(long, value_enum, default_value_t = PresentArg::Fifo)]
    pub(super) present_mode: PresentArg,
    /// Capture frame K (counted from 1: `--frames 1 --capture-frame 1` captures the only
    /// frame) with RenderDoc and print the capture's path. Works when the program runs under
    /// RenderDoc (`renderdoccmd capture -w throng run ...`); otherwise a warning, and the run
    /// goes on.
    #[arg(long, value_name = "K", value_parser = parse_capture_frame)]
    pub(super) capture_frame: Option<u64>,
    /// The heads-up display over the frame: frame rate, CPU and GPU milliseconds with the
    /// largest passes, what was drawn, the device and the switches (in a window also the
    /// keys, and H toggles it). Default: on in a window, off headless.
    #[arg(long, value_enum, value_name = "on|off")]
    pub(super) hud: Option<Switch>,
    #[command(flatten)]
    pub(super) passes: PassArgs,
    #[command(flatten)]
    pub(super) crowd: CrowdArgs,
    /// Ambient-occlusion radius in world units (default: a fifth of the tallest model).
    #[arg(long, value_parser = parse_radius)]
    pub(super) ssao_radius: Option<f32>,
    #[command(flatten)]
    pub(super) attach: AttachArgs,
    #[command(flatten)]
    pub(super) load: LoadArgs,
}

fn parse_radius(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(r) if r.is_finite() && r > 0.0 => Ok(r),
        _ => Err(format!("'{s}' is not a positive number of world units")),
    }
}

/// The largest frame side accepted (Vulkan guarantees 4096 for images; most devices 16384).
const MAX_SIZE: u32 = 16_384;

pub(crate) fn parse_size(s: &str) -> Result<u32, String> {
    let n: u32 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number of pixels"))?;
    if (1..=MAX_SIZE).contains(&n) {
        Ok(n)
    } else {
        Err(format!("{n} is not between 1 and {MAX_SIZE}"))
    }
}

fn parse_frames(s: &str) -> Result<u64, String> {
    let n: u64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number of frames"))?;
    if n >= 1 {
        Ok(n)
    } else {
        Err("at least one frame is needed".into())
    }
}

fn parse_capture_frame(s: &str) -> Result<u64, String> {
    let n: u64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a frame number"))?;
    if n >= 1 {
        Ok(n)
    } else {
        Err("frames are counted from 1".into())
    }
}

impl RunArgs {
    /// Loads the models and lays out the crowd as the arguments say.
    pub(super) fn session(&self) -> Result<Session, CliError> {
        Session::build(self.spec()?)
    }

    /// What the arguments ask the session to be.
    pub(super) fn spec(&self) -> Result<SessionSpec<'_>, CliError> {
        let with = self
            .attach
            .apply(self.load.load_models(&self.models)?, &self.load)?;
        Ok(SessionSpec {
            models: with.models,
            instances: self.instances,
            seed: self.seed,
            threads: self.threads,
            pose: self.pose.as_deref(),
            view: self.view.into(),
            aspect: self.width as f32 / self.height as f32,
            ssao_radius: self.ssao_radius,
            animation: self.crowd.mode(),
            bake: self.crowd.bake(),
            camera: self.crowd.camera(),
            height: self.crowd.height(),
            variety: self.crowd.variety(),
            paths: self.crowd.paths(),
            crowd_state: self.crowd.crowd_state(),
            props: (with.prop_materials, with.share),
        })
    }

    /// Whether the heads-up display starts on (`windowed`: the run has a window).
    pub(super) fn hud_on(&self, windowed: bool) -> bool {
        self.hud.map_or(windowed, Switch::on)
    }

    /// The camera's name, as the heads-up display says it.
    pub(super) fn camera_name(&self) -> &'static str {
        self.crowd.camera().name()
    }

    /// Loads the models and lays out a crowd of `instances` as the other arguments say (the
    /// window's + and - keys).
    pub(super) fn session_of(&self, instances: usize) -> Result<Session, CliError> {
        Session::build(SessionSpec {
            instances,
            ..self.spec()?
        })
    }

    pub(super) fn context_options(&self) -> ContextOptions {
        ContextOptions {
            device: self.device.clone(),
            validation: validation_wanted(),
        }
    }

    pub(super) fn settings(&self, default_msaa: u32) -> RenderSettings {
        self.passes.settings(default_msaa)
    }

    /// The start-up line's words for the anti-aliasing `renderer` draws with, where it
    /// skins the meshes, who rasterizes their coarser levels and the shadow map's size.
    pub(super) fn msaa_words(&self, renderer: &throng::gpu::Renderer) -> String {
        let software_default =
            self.passes.msaa_defaulted() && renderer.default_msaa() < throng::gpu::DEFAULT_MSAA;
        let settings = renderer.settings();
        let skin = match settings.skin {
            throng::gpu::Raster::Compute => "meshes skinned once in compute",
            _ => "meshes skinned in the vertex shaders",
        };
        let raster = match settings.mesh_raster {
            throng::gpu::Raster::Compute => "coarser levels rasterized in compute",
            _ => "every level rasterized by the lit passes",
        };
        let cascade = if settings.shadow_cascade {
            ", a near square where the crowd's box is wide (--shadow-cascade)"
        } else {
            ""
        };
        let shadow = match crate::cli::stats::shadow_side(renderer) {
            0 => String::new(),
            side => format!(", shadow map {side}x{side} (--shadow-size){cascade}"),
        };
        format!(
            "{}, {skin} (--skin), {raster} (--mesh-raster){shadow}",
            crate::cli::output::msaa_words(settings.msaa, software_default)
        )
    }

    pub(super) fn present_mode(&self) -> PresentMode {
        match self.present_mode {
            PresentArg::Fifo => PresentMode::Fifo,
            PresentArg::Mailbox => PresentMode::Mailbox,
            PresentArg::Immediate => PresentMode::Immediate,
        }
    }
}
