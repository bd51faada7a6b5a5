//! Argument definitions and dispatch for the `throng` subcommands.

mod attach_args;
mod bench;
mod bench_frame;
mod bench_model;
mod bench_report;
mod bench_sweep;
mod crowd_args;
mod error;
mod hud;
mod info;
mod interrupt;
mod load_args;
mod numbers;
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

pub use error::CliError;
pub(crate) use numbers::MAX_INSTANCES;
pub use numbers::{parse_instances, parse_seconds, parse_threads, parse_time};

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
