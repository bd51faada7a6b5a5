//! `throng bench palette [MODEL] --instances N --threads T --seconds S [--json]`

use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};
use serde::Serialize;
use throng::anim::SkinnedModel;
use throng::asset;
use throng::crowd::bench::{BenchSetup, Measurement, measure_crowd, measure_textbook};
use throng::scene::independent_time;

use super::output::{print_json, write_file};
use super::plot::{Chart, Series, svg};
use super::{CliError, parse_instances, parse_seconds, parse_threads};

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
    /// Palette throughput over a grid of thread and instance counts, as a table, JSON, and an
    /// SVG plot of joints per second against threads and against instances.
    Sweep(SweepArgs),
    /// Whole rendered frames, headless: frame, CPU animation and GPU milliseconds for each
    /// crowd size.
    Frame(super::bench_frame::FrameArgs),
}

#[derive(Debug, Args)]
struct SweepArgs {
    /// Model: `builtin` (default), a `.m3d` file, or a `.gltf`/`.glb` file.
    model: Option<String>,
    /// Animation file of a `.sdkmesh` model (default: MODEL.sdkmesh_anim beside it).
    #[arg(long, value_name = "FILE")]
    anim: Option<std::path::PathBuf>,
    /// Clip name or index (default: `walk` if the model has one, else the first clip).
    #[arg(long)]
    clip: Option<String>,
    /// Thread counts to measure (default: 1 up to the number of cores).
    #[arg(long, value_delimiter = ',', value_parser = parse_threads)]
    threads: Vec<usize>,
    /// Instance counts to measure.
    #[arg(long, value_delimiter = ',', value_parser = parse_instances, default_values_t = [1_000, 10_000, 100_000])]
    instances: Vec<usize>,
    /// Seconds per measurement.
    #[arg(long, default_value_t = 2.0, value_parser = parse_seconds)]
    seconds: f64,
    /// Measurements per point; the median is kept (run-to-run noise on shared machines).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=50))]
    repeat: u32,
    /// Write the plot to this SVG file.
    #[arg(long, value_name = "FILE")]
    svg: Option<std::path::PathBuf>,
    /// Print the measurements as a JSON array (one palette report per point).
    #[arg(long)]
    json: bool,
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
    /// Animation file of a `.sdkmesh` model (default: MODEL.sdkmesh_anim beside it).
    #[arg(long, value_name = "FILE")]
    anim: Option<std::path::PathBuf>,
    /// Clip name or index (default: `walk` if the model has one, else the first clip).
    #[arg(long)]
    clip: Option<String>,
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
    /// "threads", "instances", "joints", ...} (and, until the next release, the same figures
    /// under their old names "joints_per_s", "joints_per_s_per_thread", "ns_per_joint").
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    joints_per_s: f64,
    joints_per_s_per_thread: f64,
    ns_per_joint: f64,
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

/// The model and the clip to play (`walk` when there is one and none was named).
fn model_and_clip(
    model: Option<&str>,
    anim: Option<&std::path::Path>,
    clip: Option<&str>,
) -> Result<(Arc<SkinnedModel>, usize), CliError> {
    let model = Arc::new(asset::load_model_with(model, &super::load_options(anim))?);
    let clip = match clip {
        Some(c) => model.resolve_clip(c)?,
        None => model.clip_index("walk").unwrap_or(0),
    };
    Ok((model, clip))
}

fn palette(args: &PaletteArgs) -> Result<(), CliError> {
    let (model, clip) = model_and_clip(
        args.model.as_deref(),
        args.anim.as_deref(),
        args.clip.as_deref(),
    )?;
    let setup = BenchSetup {
        model: model.clone(),
        clip,
        instances: args.instances,
        threads: args.threads,
        duration: Duration::from_secs_f64(args.seconds),
        frames: args.frames,
        start_time: independent_time,
    };
    let measured = match args.method {
        Method::Crowd => measure_crowd(&setup),
        Method::Textbook => measure_textbook(&setup),
    }?;
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
        report.joints_per_s / 1e6,
        report.joints_per_s_per_thread / 1e6,
        report.ns_per_joint,
        report.gb_per_s
    );
    println!(
        "{} frames in {:.2} s; clock update {:.1} ns per instance",
        report.frames, report.seconds, report.update_ns_per_instance
    );
    Ok(())
}

fn sweep(args: &SweepArgs) -> Result<(), CliError> {
    let (model, clip) = model_and_clip(
        args.model.as_deref(),
        args.anim.as_deref(),
        args.clip.as_deref(),
    )?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = if args.threads.is_empty() {
        (1..=cores).collect()
    } else {
        args.threads.clone()
    };
    let mut reports = Vec::new();
    if !args.json {
        println!(
            "{:>8} {:>10} {:>12} {:>14} {:>8} {:>16}",
            "threads", "instances", "M joints/s", "per thread", "ns/joint", "worst..best"
        );
    }
    for &instances in &args.instances {
        for &t in &threads {
            let setup = BenchSetup::new(
                model.clone(),
                clip,
                instances,
                t,
                Duration::from_secs_f64(args.seconds),
                independent_time,
            );
            let mut runs = (0..args.repeat)
                .map(|_| measure_crowd(&setup))
                .collect::<Result<Vec<_>, _>>()?;
            runs.sort_by(|a, b| a.joints_per_s().total_cmp(&b.joints_per_s()));
            let r = report(&model, clip, Method::Crowd, &runs[runs.len() / 2]);
            if !args.json {
                let (worst, best) = (runs[0].joints_per_s(), runs[runs.len() - 1].joints_per_s());
                println!(
                    "{:>8} {:>10} {:>12.1} {:>14.1} {:>8.2} {:>7.1}..{:<7.1}",
                    r.threads,
                    r.instances,
                    r.joints_per_s / 1e6,
                    r.joints_per_s_per_thread / 1e6,
                    r.ns_per_joint,
                    worst / 1e6,
                    best / 1e6
                );
            }
            reports.push(r);
        }
    }
    if let Some(path) = &args.svg {
        write_file(
            path,
            &plot(&reports, &model, clip, cores, args.repeat, args.seconds),
        )?;
    }
    if args.json {
        return print_json(&reports);
    }
    Ok(())
}

/// Joints/s against threads (one line per instance count) and against instances (one line
/// per thread count).
fn plot(
    reports: &[Report],
    model: &SkinnedModel,
    clip: usize,
    cores: usize,
    repeat: u32,
    seconds: f64,
) -> String {
    let mut threads: Vec<usize> = reports.iter().map(|r| r.threads).collect();
    let mut instances: Vec<usize> = reports.iter().map(|r| r.instances).collect();
    threads.sort_unstable();
    threads.dedup();
    instances.sort_unstable();
    instances.dedup();
    let series =
        |label: String, keep: &dyn Fn(&Report) -> bool, x: &dyn Fn(&Report) -> f64| Series {
            label,
            points: reports
                .iter()
                .filter(|r| keep(r))
                .map(|r| (x(r), r.joints_per_s / 1e6))
                .collect(),
        };
    let by_threads = Chart {
        title: "joints/s against threads".into(),
        x_label: "threads".into(),
        y_label: "M joints/s".into(),
        x_log: false,
        series: instances
            .iter()
            .map(|&n| {
                series(format!("{n} instances"), &|r| r.instances == n, &|r| {
                    r.threads as f64
                })
            })
            .collect(),
    };
    let by_instances = Chart {
        title: "joints/s against instances".into(),
        x_label: "instances (log scale)".into(),
        y_label: "M joints/s".into(),
        x_log: true,
        series: threads
            .iter()
            .map(|&t| {
                series(format!("{t} threads"), &|r| r.threads == t, &|r| {
                    r.instances as f64
                })
            })
            .collect(),
    };
    let clip_name = model.clips().get(clip).map_or("", |c| c.name());
    let caption = format!(
        "throng bench sweep: {} ({} joints), clip {clip_name}, {cores}-core machine, instances at independent times, median of {repeat} runs of {seconds} s",
        model.name(),
        model.joint_count()
    );
    svg(&[by_threads, by_instances], &caption)
}

fn report(model: &SkinnedModel, clip: usize, method: Method, m: &Measurement) -> Report {
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
        frames: m.frames,
        seconds: m.seconds,
        update_ns_per_instance: m.update_seconds * 1e9 / (m.frames as f64 * m.instances as f64),
        old_names: OldNames {
            bones_per_s: m.joints_per_s(),
            bones_per_s_per_thread: m.joints_per_s_per_thread(),
            ns_per_bone: m.ns_per_joint(),
        },
    }
}
