//! `throng bench palette [MODEL] --instances N --threads T --seconds S [--json]`; the model
//! options shared with `bench sweep` (`bench_sweep.rs`).

use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};
use serde::Serialize;
use throng::anim::PaletteStores;
use throng::anim::{SkinnedModel, vector_isa};
use throng::crowd::bench::{BenchSetup, Measurement, measure_crowd, measure_textbook};
use throng::crowd::{SyntheticShape, synthetic_model};
use throng::scene::independent_time;

use super::bench_sweep::{SweepArgs, sweep};
use super::load_args::LoadArgs;
use super::output::{print_json, say, shown};
use super::{CliError, parse_instances, parse_seconds, parse_threads};

#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    what: BenchCommand,
}

#[derive(Debug, Subcommand)]
enum BenchCommand {
    /// Palette throughput: instances at independent times of one clip, evaluated in parallel
    /// into a ring slot; reports joints per second, per thread, ns per joint and GB/s.
    Palette(PaletteArgs),
    /// Palette throughput over a grid of joint, thread and instance counts in rounds (worst,
    /// median, best), optionally against another program (--versus); table, JSON, SVG plot.
    Sweep(SweepArgs),
    /// Whole rendered frames, headless: frame, CPU animation and GPU milliseconds (per pass)
    /// and what the GPU drew, for each crowd size.
    Frame(super::bench_frame::FrameArgs),
}

/// Which model a benchmark runs: a file, the built-in one, or a generated one.
#[derive(Debug, Args)]
pub(super) struct ModelArgs {
    /// Model: `builtin` (default) or a model file (`.m3d`, `.gltf`/`.glb`, `.fbx`,
    /// `.sdkmesh`, `.x`; any other file Assimp reads when built with the `assimp` feature).
    pub(super) model: Option<String>,
    /// Clip name or index (default: `walk` if the model has one, else the first clip; a
    /// generated model has `even` and `uneven`).
    #[arg(long)]
    pub(super) clip: Option<String>,
    /// Instead of MODEL, a generated model of this many joints (1 to 1024): a chain or tree
    /// animated by an evenly keyed clip (`even`) and an unevenly keyed one (`uneven`).
    #[arg(long, value_parser = parse_joints, conflicts_with = "model")]
    pub(super) synthetic_joints: Option<usize>,
    /// Shape of a generated model.
    #[arg(long, value_enum, default_value_t = Shape::Tree)]
    pub(super) synthetic_shape: Shape,
    /// Palette stores: `auto` (the crowd's choice: streaming stores for frames of 5 MiB or
    /// more, staged in scratch for batches wider than four lanes), or one kind forced: direct
    /// from the SIMD lanes into every palette of the batch, or staged and copied out lane after
    /// lane.
    #[arg(long, value_enum, default_value_t = Stores::Auto)]
    pub(super) stores: Stores,
    #[command(flatten)]
    pub(super) load: LoadArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Shape {
    /// Joint j's parent is j - 1.
    Chain,
    /// Joint j's parent is (j - 1) / 2.
    Tree,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Stores {
    /// The crowd's choice by frame size.
    Auto,
    /// Direct from the lanes into every palette of the batch, ordinary stores.
    Cached,
    /// Direct from the lanes, streaming stores.
    Streaming,
    /// Staged in scratch, copied out with ordinary stores.
    StagedCached,
    /// Staged in scratch, copied out lane after lane with streaming stores.
    StagedStreaming,
}

impl Stores {
    pub(super) fn kind(self) -> Option<PaletteStores> {
        match self {
            Self::Auto => None,
            Self::Cached => Some(PaletteStores::Cached),
            Self::Streaming => Some(PaletteStores::Streaming),
            Self::StagedCached => Some(PaletteStores::StagedCached),
            Self::StagedStreaming => Some(PaletteStores::StagedStreaming),
        }
    }
}

/// `--synthetic-joints`, `--joints`: 1 to 1024.
pub(super) fn parse_joints(s: &str) -> Result<usize, String> {
    super::parse_bounded(s, 1, 1024)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Method {
    /// throng's crowd path: rayon, per-thread scratch, palettes written in place.
    Crowd,
    /// The textbook demo's path: clip by name, allocation, 4x4 matrices, per call.
    Textbook,
}

#[derive(Debug, Args)]
struct PaletteArgs {
    #[command(flatten)]
    source: ModelArgs,
    /// Number of instances (1 to 4,000,000).
    #[arg(long, default_value_t = 10_000, value_parser = parse_instances)]
    instances: usize,
    /// Worker threads (0: one per core; at most 256).
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    threads: usize,
    /// How long to measure, seconds.
    #[arg(long, default_value_t = 3.0, value_parser = parse_seconds)]
    seconds: f64,
    /// Run exactly this many timed frames instead of --seconds (for profilers that count
    /// instructions).
    #[arg(long)]
    frames: Option<u64>,
    /// Which implementation to measure.
    #[arg(long, value_enum, default_value_t = Method::Crowd)]
    method: Method,
    /// Print JSON: {"joints_per_s", "joints_per_s_per_thread", "ns_per_joint", "gb_per_s",
    /// "threads", "instances", "joints", ...} (and, until the next release, the first three
    /// under their old names "bones_per_s", "bones_per_s_per_thread", "ns_per_bone").
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
pub(super) struct Report {
    pub(super) joints_per_s: f64,
    pub(super) joints_per_s_per_thread: f64,
    pub(super) ns_per_joint: f64,
    pub(super) gb_per_s: f64,
    pub(super) threads: usize,
    pub(super) instances: usize,
    pub(super) joints: usize,
    pub(super) model: String,
    pub(super) clip: String,
    pub(super) method: &'static str,
    /// The batch kernels' instruction set (`portable`, `avx2`, `avx512`; `THRONG_ISA` can
    /// lower it) and their instances per batch.
    pub(super) kernels: &'static str,
    pub(super) lanes: usize,
    pub(super) frames: u64,
    pub(super) seconds: f64,
    pub(super) update_ns_per_instance: f64,
    /// Joints per processor second of the whole process (absent where not measured): on a
    /// loaded machine, the work without the time given to other programs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) joints_per_cpu_s: Option<f64>,
    /// The old names of the first three figures, kept for one release so that scripts
    /// reading them go on working; removed in the next.
    #[serde(flatten)]
    old_names: OldNames,
}

/// `joints_per_s`, `joints_per_s_per_thread` and `ns_per_joint` under the names they had.
#[derive(Serialize)]
struct OldNames {
    bones_per_s: f64,
    bones_per_s_per_thread: f64,
    ns_per_bone: f64,
}

pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    match &args.what {
        BenchCommand::Palette(args) => palette(args),
        BenchCommand::Sweep(args) => sweep(args),
        BenchCommand::Frame(args) => super::bench_frame::run(args),
    }
}

/// The model and the clip to play (`walk` when there is one and none was named); a generated
/// model of `joints` joints when given, whatever `source` names.
pub(super) fn model_and_clip(
    source: &ModelArgs,
    joints: Option<usize>,
) -> Result<(Arc<SkinnedModel>, usize), CliError> {
    let model = match joints.or(source.synthetic_joints) {
        Some(n) => {
            let shape = match source.synthetic_shape {
                Shape::Chain => SyntheticShape::Chain,
                Shape::Tree => SyntheticShape::Tree,
            };
            synthetic_model(n, shape)?
        }
        None => source.load.load(source.model.as_deref())?,
    };
    let model = Arc::new(model);
    let clip = match source.clip.as_deref() {
        Some(c) => model.resolve_clip(c)?,
        None => model.clip_index("walk").unwrap_or(0),
    };
    Ok((model, clip))
}

fn palette(args: &PaletteArgs) -> Result<(), CliError> {
    let (model, clip) = model_and_clip(&args.source, None)?;
    let setup = BenchSetup {
        model: model.clone(),
        clip,
        instances: args.instances,
        threads: args.threads,
        duration: Duration::from_secs_f64(args.seconds),
        frames: args.frames,
        start_time: independent_time,
        stores: args.source.stores.kind(),
    };
    let measured = match args.method {
        Method::Crowd => measure_crowd(&setup),
        Method::Textbook => measure_textbook(&setup),
    }?;
    let report = report(&model, clip, args.method, &measured);
    if args.json {
        return print_json(&report);
    }
    say!(
        "{} ({} joints), clip {}, {} instances, {} threads, {} method, {} kernels ({} lanes)",
        shown(&report.model),
        report.joints,
        shown(&report.clip),
        report.instances,
        report.threads,
        report.method,
        report.kernels,
        report.lanes
    )?;
    say!(
        "{:.1} M joints/s, {:.1} M joints/s per thread, {:.2} ns per joint, {:.2} GB/s written",
        report.joints_per_s / 1e6,
        report.joints_per_s_per_thread / 1e6,
        report.ns_per_joint,
        report.gb_per_s
    )?;
    say!(
        "{} frames in {:.2} s; clock update {:.1} ns per instance",
        report.frames,
        report.seconds,
        report.update_ns_per_instance
    )?;
    if let Some(cpu) = report.joints_per_cpu_s {
        say!("{:.1} M joints per processor second", cpu / 1e6)?;
    }
    Ok(())
}

pub(super) fn report(model: &SkinnedModel, clip: usize, method: Method, m: &Measurement) -> Report {
    Report {
        joints_per_s: m.joints_per_s(),
        joints_per_s_per_thread: m.joints_per_s_per_thread(),
        ns_per_joint: m.ns_per_joint(),
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
        kernels: vector_isa().name(),
        lanes: vector_isa().lanes(),
        frames: m.frames,
        seconds: m.seconds,
        update_ns_per_instance: m.update_seconds * 1e9 / (m.frames as f64 * m.instances as f64),
        joints_per_cpu_s: m.joints_per_cpu_s(),
        old_names: OldNames {
            bones_per_s: m.joints_per_s(),
            bones_per_s_per_thread: m.joints_per_s_per_thread(),
            ns_per_bone: m.ns_per_joint(),
        },
    }
}
