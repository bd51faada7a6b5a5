//! `throng bench palette [MODEL] --instances N --threads T --seconds S [--json]`

use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};
use serde::Serialize;
use throng::asset;
use throng::crowd::CrowdError;
use throng::crowd::bench::{BenchSetup, Measurement, measure_crowd, measure_textbook};

use super::CliError;
use super::output::print_json;

#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    what: BenchCommand,
}

#[derive(Debug, Subcommand)]
enum BenchCommand {
    /// Palette throughput: instances at independent times of one clip, evaluated in parallel
    /// into a ring slot; reports joints (bones) per second.
    Palette(PaletteArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Method {
    /// throng's crowd path: rayon, per-thread scratch, palettes written in place.
    Crowd,
    /// The textbook demo's path: clip by name, allocation, 4x4 matrices, per call.
    Textbook,
}

#[derive(Debug, Args)]
struct PaletteArgs {
    /// Model: `builtin` (default), a `.m3d` file, or a `.gltf`/`.glb` file.
    model: Option<String>,
    /// Clip name or index (default: `walk` if the model has one, else the first clip).
    #[arg(long)]
    clip: Option<String>,
    /// Number of instances.
    #[arg(long, default_value_t = 10_000)]
    instances: usize,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// How long to measure, seconds.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// Run exactly this many timed frames instead of --seconds (for profilers that count
    /// instructions).
    #[arg(long)]
    frames: Option<u64>,
    /// Which implementation to measure.
    #[arg(long, value_enum, default_value_t = Method::Crowd)]
    method: Method,
    /// Print JSON: {"bones_per_s", "bones_per_s_per_thread", "ns_per_bone", "gb_per_s",
    /// "threads", "instances", "joints", ...}.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    bones_per_s: f64,
    bones_per_s_per_thread: f64,
    ns_per_bone: f64,
    gb_per_s: f64,
    threads: usize,
    instances: usize,
    joints: usize,
    model: String,
    clip: String,
    method: &'static str,
    frames: u64,
    seconds: f64,
    update_ns_per_instance: f64,
}

pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    match &args.what {
        BenchCommand::Palette(args) => palette(args),
    }
}

fn palette(args: &PaletteArgs) -> Result<(), CliError> {
    if !(args.seconds.is_finite() && args.seconds > 0.0 && args.seconds <= 3600.0) {
        return Err(CliError::Usage(format!(
            "--seconds must be between 0 and 3600, got {}",
            args.seconds
        )));
    }
    if args.instances == 0 {
        return Err(CliError::Usage("--instances must be at least 1".into()));
    }
    let model = Arc::new(asset::load_model(args.model.as_deref())?);
    let clip = match &args.clip {
        Some(c) => model.resolve_clip(c)?,
        None => model.clip_index("walk").unwrap_or(0),
    };
    let setup = BenchSetup {
        model: model.clone(),
        clip,
        instances: args.instances,
        threads: args.threads,
        duration: Duration::from_secs_f64(args.seconds),
        frames: args.frames,
    };
    let measured = match args.method {
        Method::Crowd => measure_crowd(&setup),
        Method::Textbook => measure_textbook(&setup),
    }
    .map_err(crowd_error)?;
    let report = report(&model, clip, args.method, &measured);
    if args.json {
        return print_json(&report);
    }
    println!(
        "{} ({} joints), clip {}, {} instances, {} threads, {} method",
        report.model, report.joints, report.clip, report.instances, report.threads, report.method
    );
    println!(
        "{:.1} M joints/s, {:.1} M joints/s per thread, {:.2} ns per joint, {:.2} GB/s written",
        report.bones_per_s / 1e6,
        report.bones_per_s_per_thread / 1e6,
        report.ns_per_bone,
        report.gb_per_s
    );
    println!(
        "{} frames in {:.2} s; clock update {:.1} ns per instance",
        report.frames, report.seconds, report.update_ns_per_instance
    );
    Ok(())
}

fn report(
    model: &throng::anim::SkinnedModel,
    clip: usize,
    method: Method,
    m: &Measurement,
) -> Report {
    Report {
        bones_per_s: m.bones_per_s(),
        bones_per_s_per_thread: m.bones_per_s_per_thread(),
        ns_per_bone: m.ns_per_bone(),
        gb_per_s: m.gb_per_s(),
        threads: m.threads,
        instances: m.instances,
        joints: m.joints,
        model: model.name().to_string(),
        clip: model.clips().get(clip).map_or("", |c| c.name()).to_string(),
        method: match method {
            Method::Crowd => "crowd",
            Method::Textbook => "textbook",
        },
        frames: m.frames,
        seconds: m.seconds,
        update_ns_per_instance: m.update_seconds * 1e9 / (m.frames as f64 * m.instances as f64),
    }
}

fn crowd_error(e: CrowdError) -> CliError {
    CliError::Usage(e.to_string())
}
