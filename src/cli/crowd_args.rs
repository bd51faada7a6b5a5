//! The flags that say how a crowd is animated and seen, shared by `run` and `bench frame`:
//! `--animation`, `--bake-fps`, `--bake-memory`, `--camera`, `--model-height`, `--variety`,
//! `--layout` and `--crowd-state`.

use clap::{Args, ValueEnum};
use throng::crowd::{AnimationMode, BakeSettings};
use throng::motion::WalkPaths;
use throng::scene::{ModelHeight, Variety};

use super::pass_args::Switch;

/// `--animation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AnimationArg {
    /// Every instance's palette is evaluated on the CPU each frame.
    Exact,
    /// Every instance reads its clip's baked frames.
    Baked,
    /// Near instances exact, far ones baked (exact where the baked frames could be off by
    /// half a pixel or more).
    Auto,
}

/// `--camera`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CameraArg {
    /// The whole crowd from the front, above.
    Overview,
    /// From a standing character's head height inside the front rows, across the crowd (in
    /// front of a crowd too shallow to stand in).
    Street,
}

impl CameraArg {
    /// Its name, as `--camera` takes it.
    pub fn name(self) -> &'static str {
        match self {
            CameraArg::Overview => "overview",
            CameraArg::Street => "street",
        }
    }
}

/// `--layout`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LayoutArg {
    /// Where the layout puts them, treading in place.
    Grid,
    /// Walkers and runners move front to back along lanes at their clips' own speed,
    /// wrapping at the crowd's edge; idle ones stand.
    Lanes,
    /// Walkers and runners go round in circles about the crowd's centre at their clips' own
    /// speed; idle ones stand.
    Rings,
}

/// `--crowd-state`: where the crowd's state (clocks, clip changes, walkers) is advanced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CrowdStateArg {
    /// On the GPU when it can be (not with --animation exact or --pose, nor for a crowd the
    /// GPU's copy cannot hold), else on the CPU.
    Auto,
    /// The CPU advances every instance each frame and writes its record.
    Cpu,
    /// A compute pass advances every instance and writes its record; the CPU evaluates only
    /// the near instances' exact palettes, so its work per frame does not grow with the crowd.
    Gpu,
}

/// How the crowd is animated and seen.
#[derive(Debug, Args)]
pub struct CrowdArgs {
    /// Where palettes come from: exact (evaluated on the CPU each frame), baked (every clip
    /// sampled once at --bake-fps; instances read the frames, blending the two nearest), or
    /// auto: exact near the camera, baked where that cannot show.
    #[arg(long, value_enum, default_value_t = AnimationArg::Auto)]
    animation: AnimationArg,
    /// Frames per second of clip time the baked frames are sampled at (1 to 240).
    #[arg(long, default_value_t = 30.0, value_parser = parse_fps)]
    bake_fps: f32,
    /// The most memory, in MB, the baked frames may take on the GPU; a clip that does not fit
    /// stays exact, with a warning.
    #[arg(long, value_name = "MB", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    bake_memory: u64,
    /// Where the camera starts.
    #[arg(long, value_enum, default_value_t = CameraArg::Overview)]
    camera: CameraArg,
    /// Scale every model to stand this tall, in world units. Without it, models whose
    /// heights differ by more than twice are each scaled to the tallest's height (the
    /// start-up line says so); others stand as their files make them.
    #[arg(long, value_name = "H", value_parser = parse_height)]
    model_height: Option<f32>,
    /// Each instance wears one of 64 looks per model drawn from the seed (a tint per
    /// material: clothes of every colour, skin of natural tones, light tints over textures)
    /// and stands up to 4% taller or shorter; off: every instance as its model's file makes
    /// it.
    #[arg(long, value_enum, default_value_t = Switch::On)]
    variety: Switch,
    /// How the crowd moves.
    #[arg(long, value_enum, default_value_t = LayoutArg::Lanes)]
    layout: LayoutArg,
    /// Where the crowd's state (clocks, clip changes, walkers) is advanced: gpu (a compute
    /// pass advances every instance and writes its record; the CPU evaluates only the near
    /// instances' exact palettes), cpu (every instance, every frame), or auto: the GPU when it
    /// can, the CPU with --animation exact or --pose.
    #[arg(long, value_enum, default_value_t = CrowdStateArg::Auto)]
    crowd_state: CrowdStateArg,
}

fn parse_height(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(h) if h.is_finite() && h > 0.0 && h <= 1e6 => Ok(h),
        _ => Err(format!(
            "'{s}' is not a height: a positive number up to 1000000"
        )),
    }
}

fn parse_fps(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(f) if (1.0..=240.0).contains(&f) => Ok(f),
        _ => Err(format!("'{s}' is not a frame rate from 1 to 240")),
    }
}

impl CrowdArgs {
    /// Where palettes come from.
    pub fn mode(&self) -> AnimationMode {
        match self.animation {
            AnimationArg::Exact => AnimationMode::Exact,
            AnimationArg::Baked => AnimationMode::Baked,
            AnimationArg::Auto => AnimationMode::Auto,
        }
    }

    /// How clips are baked.
    pub fn bake(&self) -> BakeSettings {
        BakeSettings {
            fps: self.bake_fps,
            memory_limit: self.bake_memory << 20,
        }
    }

    /// Where the camera starts.
    pub fn camera(&self) -> CameraArg {
        self.camera
    }

    /// Where the crowd's walkers go.
    pub fn paths(&self) -> WalkPaths {
        match self.layout {
            LayoutArg::Grid => WalkPaths::InPlace,
            LayoutArg::Lanes => WalkPaths::Lanes,
            LayoutArg::Rings => WalkPaths::Rings,
        }
    }

    /// Where the crowd's state is to be advanced.
    pub fn crowd_state(&self) -> CrowdStateArg {
        self.crowd_state
    }

    /// What the layout varies between instances (`None`: nothing).
    pub fn variety(&self) -> Option<Variety> {
        self.variety.on().then(Variety::default)
    }

    /// How tall the models stand.
    pub fn height(&self) -> ModelHeight {
        self.model_height
            .map_or(ModelHeight::Matched, ModelHeight::Fixed)
    }
}
