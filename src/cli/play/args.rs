//! `play`'s arguments: the file and how to read it, the models, the motion, the time range,
//! the outputs, and the checks each number goes through.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use throng::motion::trajectory::{Columns, Format, ReadOptions, Units};
use throng::motion::{ColorBy, DEFAULT_TURN_RATE, parse_clip_names};

use crate::cli::crowd_args::CrowdStateArg;
use crate::cli::load_args::LoadArgs;
use crate::cli::pass_args::{PassArgs, Switch};
use crate::cli::run::ViewArg;
use crate::cli::{CliError, parse_threads};

/// The moving-average window of positions unless `--smooth` says otherwise, seconds: a little
/// over one gait cycle (two steps) of a slow walker, which takes out the head's sideways sway
/// of tracked data while keeping the path. Measured on the Jülich corridor: the sideways speed
/// falls from 0.196 m/s (the file) to 0.034 m/s, where a 2 s window leaves it too (what is left
/// is the path's own bending), with 99.4% of positions within 10 cm of the file's and none
/// further than 16 cm (docs/playback.md, "Smoothing").
pub const DEFAULT_SMOOTH: f64 = 1.5;

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// JuPedSim's SQLite trajectories (schema 1, 2 or 3).
    Jupedsim,
    /// Jülich pedestrian data archive / PeTrack text (`id frame x y z`).
    Petrack,
    /// Vadere's `postvis.traj` foot steps.
    Vadere,
    /// Pathfinder's CSV export.
    Pathfinder,
    /// ETH/UCY as OpenTraj distributes them (`frame id x y`, or the 8-column `obsmat.txt`).
    EthUcy,
    /// Any CSV, with `--columns`.
    Csv,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Self {
        match f {
            FormatArg::Jupedsim => Format::JuPedSim,
            FormatArg::Petrack => Format::PeTrack,
            FormatArg::Vadere => Format::Vadere,
            FormatArg::Pathfinder => Format::Pathfinder,
            FormatArg::EthUcy => Format::EthUcy,
            FormatArg::Csv => Format::Csv,
        }
    }
}

/// `--units`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum UnitsArg {
    /// Metres.
    M,
    /// Centimetres.
    Cm,
    /// Millimetres.
    Mm,
}

impl From<UnitsArg> for Units {
    fn from(u: UnitsArg) -> Self {
        match u {
            UnitsArg::M => Units::Metres,
            UnitsArg::Cm => Units::Centimetres,
            UnitsArg::Mm => Units::Millimetres,
        }
    }
}

/// `--color-by`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorByArg {
    /// Speed, blue (standing) to red (2 m/s and faster).
    Speed,
    /// Local density among neighbours within 1 m, blue (alone) to red (4 per m² and more).
    Density,
}

impl From<ColorByArg> for ColorBy {
    fn from(c: ColorByArg) -> Self {
        match c {
            ColorByArg::Speed => ColorBy::Speed,
            ColorByArg::Density => ColorBy::Density,
        }
    }
}

/// `--camera` of a playback.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PlayCameraArg {
    /// The whole walkable area from above and in front.
    Overview,
    /// Straight down on the area, as a plan.
    Top,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The trajectory file: JuPedSim SQLite, Jülich/PeTrack text, Vadere postvis.traj,
    /// Pathfinder CSV, ETH/UCY text, or any CSV with --columns. Its format is found from its
    /// content unless --format names it.
    pub(super) file: PathBuf,
    /// Models the pedestrians are drawn as: `builtin` (default) or model files, shared out by
    /// pedestrian id.
    pub(super) models: Vec<String>,
    /// The file's format (default: found from its content).
    #[arg(long, value_enum)]
    pub(super) format: Option<FormatArg>,
    /// Frames per second of a file that does not say (the Jülich corridor files: 16).
    #[arg(long, value_name = "FPS", value_parser = parse_rate)]
    pub(super) data_fps: Option<f64>,
    /// The unit of a file's positions when it does not say (the Jülich corridor files: cm).
    #[arg(long, value_enum)]
    pub(super) units: Option<UnitsArg>,
    /// For --format csv: which columns hold what, as NAME=COLUMN pairs (0-based indices, or
    /// header names): id, time or frame, x, y, and optionally z or height.
    #[arg(long, value_name = "id=..,time=..,x=..,y=..")]
    pub(super) columns: Option<String>,
    /// A text file of WKT (POLYGON or MULTIPOLYGON) giving the walkable area, for a file that
    /// carries none (or to replace the file's own).
    #[arg(long, value_name = "FILE")]
    pub(super) geometry: Option<PathBuf>,
    /// Vadere: the `.scenario` whose obstacles are the walls (default: the one beside the
    /// trajectory file, if there is exactly one).
    #[arg(long, value_name = "FILE")]
    pub(super) scenario: Option<PathBuf>,
    /// Positions are averaged over this many seconds, centred (0: the file's positions
    /// exactly); the default takes out a walker's sideways sway and keeps the path.
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_SMOOTH, value_parser = parse_smooth)]
    pub(super) smooth: f64,
    /// The clips to stand, walk and run with (default: found by name: idle|stand|survey,
    /// walk, run), e.g. `--clips stand=Robot_Idle,walk=Robot_Walking,run=Robot_Running`.
    #[arg(long, value_name = "stand=NAME,walk=NAME,run=NAME", value_parser = parse_clip_names)]
    pub(super) clips: Option<[Option<String>; 3]>,
    /// The fastest a pedestrian turns, degrees per second.
    #[arg(long, value_name = "DEG_PER_S", default_value_t = DEFAULT_TURN_RATE.to_degrees(), value_parser = parse_turn_rate)]
    pub(super) turn_rate: f32,
    /// Height of the walls on the walkable area's boundaries, metres.
    #[arg(long, value_name = "M", default_value_t = 1.0, value_parser = parse_wall_height)]
    pub(super) wall_height: f32,
    /// Height of a pedestrian the file gives none for, metres (each varies by up to 4% with
    /// --variety on).
    #[arg(long, value_name = "M", default_value_t = 1.75, value_parser = parse_person_height)]
    pub(super) person_height: f32,
    /// Start at this file time, seconds (default: the first sample).
    #[arg(long, value_name = "SECONDS", value_parser = parse_file_time)]
    pub(super) start: Option<f64>,
    /// End at this file time, seconds (default: the last sample).
    #[arg(long, value_name = "SECONDS", value_parser = parse_file_time)]
    pub(super) end: Option<f64>,
    /// In a window: start over at the end (without it the last frame holds).
    #[arg(long = "loop")]
    pub(super) looping: bool,
    /// Render without a window (the default when there is no display, or with --frames-dir,
    /// --record, --export or --screenshot).
    #[arg(long)]
    pub(super) headless: bool,
    /// Stop after this many frames.
    #[arg(long, value_parser = parse_frames)]
    pub(super) frames: Option<u64>,
    /// Seconds of file time per second of output.
    #[arg(long, default_value_t = 1.0, value_parser = parse_speed)]
    pub(super) speed: f64,
    /// Output frames per second of playback.
    #[arg(long, default_value_t = 30.0, value_parser = parse_rate)]
    pub(super) fps: f64,
    /// Write every frame as DIR/frame-000001.png, ...
    #[arg(long, value_name = "DIR")]
    pub(super) frames_dir: Option<PathBuf>,
    /// Write the frames as a video (ffmpeg, H.264), e.g. `--record corridor.mp4`.
    #[arg(long, value_name = "FILE.mp4")]
    pub(super) record: Option<PathBuf>,
    /// Write what was drawn as CSV: per pedestrian and frame its time, id, root position,
    /// heading, clip, clip time, fade weight, scale and each foot joint's position.
    #[arg(long, value_name = "FILE.csv")]
    pub(super) export: Option<PathBuf>,
    /// Write the last frame as PNG.
    #[arg(long, value_name = "FILE.png")]
    pub(super) screenshot: Option<PathBuf>,
    /// Ride behind the pedestrian with this id.
    #[arg(long, value_name = "ID")]
    pub(super) follow: Option<u64>,
    /// Where the camera looks from (without --follow).
    #[arg(long, value_enum, default_value_t = PlayCameraArg::Overview)]
    pub(super) camera: PlayCameraArg,
    /// Tint each pedestrian by its speed or its local density (the HUD shows the scale).
    #[arg(long, value_enum)]
    pub(super) color_by: Option<ColorByArg>,
    /// Each pedestrian wears one of 64 looks of its model, chosen by its id.
    #[arg(long, value_enum, default_value_t = Switch::On)]
    pub(super) variety: Switch,
    /// Frame width in pixels.
    #[arg(long, default_value_t = 1280, value_parser = crate::cli::run::parse_size)]
    pub(super) width: u32,
    /// Frame height in pixels.
    #[arg(long, default_value_t = 720, value_parser = crate::cli::run::parse_size)]
    pub(super) height: u32,
    /// What to show.
    #[arg(long, value_enum, default_value_t = ViewArg::Final)]
    pub(super) view: ViewArg,
    /// Worker threads for the palettes (0: one per core; at most 256).
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub(super) threads: usize,
    /// Use the Vulkan device whose name contains this (case-insensitive).
    #[arg(long, value_name = "NAME")]
    pub(super) device: Option<String>,
    /// The heads-up display: the file's time, the pedestrians present, the playback speed and
    /// the colour scale of --color-by. Default: off headless.
    #[arg(long, value_enum, value_name = "on|off")]
    pub(super) hud: Option<Switch>,
    /// No progress bar on the terminal.
    #[arg(long)]
    pub(super) quiet: bool,
    /// Where the pedestrians are placed and paced: gpu (the samples are handed to the GPU in
    /// chunks as the file is read and a compute pass places, turns and paces everyone, so the
    /// CPU's work per frame grows with the pedestrians entering, not the crowd), cpu (every
    /// pedestrian, every frame), or auto: the GPU unless --export needs the pedestrians on
    /// the CPU.
    #[arg(long, value_enum, default_value_t = CrowdStateArg::Auto)]
    pub(super) crowd_state: CrowdStateArg,
    #[command(flatten)]
    pub(super) passes: PassArgs,
    #[command(flatten)]
    pub(super) load: LoadArgs,
}

fn parse_rate(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(f) if f.is_finite() && f > 0.0 && f <= 10_000.0 => Ok(f),
        _ => Err(format!(
            "'{s}' is not a rate: more than 0, at most 10000 per second"
        )),
    }
}

fn parse_frames(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("'{s}' is not a number of frames (1 or more)")),
    }
}

fn parse_smooth(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(w) if w.is_finite() && (0.0..=60.0).contains(&w) => Ok(w),
        _ => Err(format!("'{s}' is not a window: 0 to 60 seconds")),
    }
}

fn parse_turn_rate(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(r) if r.is_finite() && r > 0.0 && r <= 100_000.0 => Ok(r),
        _ => Err(format!(
            "'{s}' is not a turn rate: more than 0 degrees per second"
        )),
    }
}

fn parse_wall_height(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(h) if h.is_finite() && (0.0..=100.0).contains(&h) => Ok(h),
        _ => Err(format!("'{s}' is not a wall height: 0 to 100 metres")),
    }
}

fn parse_person_height(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(h) if h.is_finite() && (0.3..=3.0).contains(&h) => Ok(h),
        _ => Err(format!("'{s}' is not a person's height: 0.3 to 3 metres")),
    }
}

fn parse_file_time(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t.is_finite() && t.abs() <= 1e9 => Ok(t),
        _ => Err(format!("'{s}' is not a file time in seconds")),
    }
}

fn parse_speed(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 1000.0 => Ok(v),
        _ => Err(format!(
            "'{s}' is not a playback speed: more than 0, at most 1000"
        )),
    }
}

impl PlayArgs {
    /// How the trajectory file is to be read.
    pub(super) fn read_options(&self) -> Result<ReadOptions, CliError> {
        let load = self.load.options();
        let columns = self
            .columns
            .as_deref()
            .map(|c| {
                c.parse::<Columns>()
                    .map_err(|e| CliError::Argument(format!("--columns: {e}")))
            })
            .transpose()?;
        Ok(ReadOptions {
            format: self.format.map(Format::from),
            data_fps: self.data_fps,
            units: self.units.map(Units::from),
            columns,
            scenario: self.scenario.clone(),
            geometry: self.geometry.clone(),
            max_file_size: load.max_file_size,
            max_memory: load.max_memory,
        })
    }
}
