//! Argument definitions and dispatch for the `throng` subcommands.

mod attach_args;
mod bench;
mod bench_frame;
mod bench_model;
mod bench_report;
mod bench_sweep;
mod crowd_args;
mod hud;
mod info;
mod interrupt;
mod load_args;
mod output;
mod pass_args;
mod play;
mod plot;
mod pose;
pub mod run;
mod session;
mod stats;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Renders crowds of skinned, animated characters with Vulkan.
///
/// MODEL is `builtin` (the generated character, the default) or a model file: `.m3d`, glTF 2.0
/// (`.gltf`, `.glb`), FBX (`.fbx`), SDKMESH (`.sdkmesh`), DirectX text `.x`; built with the
/// `assimp` feature, any other file Assimp reads. Set RUST_LOG=info (or debug) for more
/// detail on stderr.
#[derive(Debug, Parser)]
#[command(name = "throng", version, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Describe a model: format, loader, joints, clips, vertices, triangles, subsets, mesh
    /// levels, bounds.
    Info(info::InfoArgs),
    /// Print the skinning palette of a clip at a time (and optionally the skinned mesh).
    Pose(pose::PoseArgs),
    /// Render a crowd of animated instances with Vulkan, in a window or headless to PNG,
    /// reporting frame, animation and per-pass GPU times.
    Run(run::RunArgs),
    /// Play back a recorded or simulated crowd (a trajectory file: JuPedSim, Jülich/PeTrack,
    /// Vadere, Pathfinder, ETH/UCY, CSV) as animated characters walking through its walls,
    /// headless to PNG frames, a video or a CSV of what was drawn.
    Play(play::PlayArgs),
    /// Benchmarks: palette throughput (palette, sweep) and whole rendered frames (frame).
    Bench(bench::BenchArgs),
}

/// Parses the command line. Help and version go to stdout with exit code 0; any other
/// argument problem is one line on stderr and exit code 2.
pub fn parse() -> Result<Cli, ExitCode> {
    Cli::try_parse().map_err(|e| {
        use clap::error::ErrorKind;
        match e.kind() {
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                if let Err(io) = e.print() {
                    output::warn_line(format_args!("throng: error: writing to stdout: {io}"));
                    return ExitCode::FAILURE;
                }
                if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    ExitCode::from(2)
                } else {
                    ExitCode::SUCCESS
                }
            }
            _ => {
                // clap's message runs until the first blank line (usage and tips follow);
                // fold it into one line.
                let text = e.render().to_string();
                let message: Vec<&str> = text
                    .lines()
                    .take_while(|l| !l.trim().is_empty())
                    .map(str::trim)
                    .collect();
                let message = message.join(" ");
                let message = message.strip_prefix("error: ").unwrap_or(&message);
                output::warn_line(format_args!(
                    "throng: error: {} (see 'throng --help')",
                    output::shown(message)
                ));
                ExitCode::from(2)
            }
        }
    })
}

/// Runs the parsed command.
pub fn execute(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Info(args) => info::run(&args),
        Command::Pose(args) => pose::run(&args),
        Command::Run(args) => run::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Bench(args) => bench::run(&args),
    }
}

impl From<throng::motion::PlaybackError> for CliError {
    fn from(e: throng::motion::PlaybackError) -> Self {
        match e {
            throng::motion::PlaybackError::Crowd(e) => CliError::Crowd(e),
            throng::motion::PlaybackError::Read(e) => CliError::Trajectory(e),
        }
    }
}

/// Anything that stops a command: displayed as one line.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The model could not be loaded.
    #[error(transparent)]
    Load(#[from] throng::asset::LoadError),
    /// The model is fine but the request does not fit it.
    #[error(transparent)]
    Anim(#[from] throng::anim::AnimError),
    /// The crowd could not be built or evaluated.
    #[error(transparent)]
    Crowd(#[from] throng::crowd::CrowdError),
    /// A trajectory file could not be read (its one-line error names the file and place).
    #[error(transparent)]
    Trajectory(#[from] throng::motion::trajectory::TrajectoryError),
    /// An argument that clap could not check alone.
    #[error("{0}")]
    Argument(String),
    /// The renderer failed.
    #[error(transparent)]
    Gpu(#[from] throng::gpu::GpuError),
    /// Writing output failed.
    #[error("{context}: {source}")]
    Io {
        context: String,
        source: std::io::Error,
    },
}

/// Crowds bigger than this are refused up front rather than left to fail an allocation
/// (4 million instances of a 58-joint model already need 11 GB per palette slot).
pub(crate) const MAX_INSTANCES: usize = 4_000_000;
const MAX_THREADS: usize = 256;

fn parse_bounded(s: &str, lo: usize, hi: usize) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number"))?;
    if (lo..=hi).contains(&n) {
        Ok(n)
    } else {
        Err(format!("{n} is not between {lo} and {hi}"))
    }
}

/// `--instances`: 1 to [`MAX_INSTANCES`].
pub fn parse_instances(s: &str) -> Result<usize, String> {
    parse_bounded(s, 1, MAX_INSTANCES)
}

/// `--threads`: 0 (one per core) to [`MAX_THREADS`].
pub fn parse_threads(s: &str) -> Result<usize, String> {
    parse_bounded(s, 0, MAX_THREADS)
}

/// The longest `--seconds` accepted (a day).
const MAX_SECONDS: f64 = 86_400.0;

/// `--seconds`: more than 0, at most a day.
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    let x: f64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if x > 0.0 && x <= MAX_SECONDS {
        Ok(x)
    } else {
        Err(format!("{s} is not between 0 (excluded) and {MAX_SECONDS}"))
    }
}

/// `--time`: any finite number of seconds (clamped to the clip later).
pub fn parse_time(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(t) if t.is_finite() => Ok(t),
        _ => Err(format!("'{s}' is not a finite number of seconds")),
    }
}
