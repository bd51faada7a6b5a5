//! `throng bench`: dispatch to its subcommands, and `bench palette [MODEL] --instances N
//! --threads T --seconds S [--json]` itself. The model options and the report it shares with
//! `bench sweep` are in `bench_model.rs` and `bench_report.rs`.

use std::time::Duration;

use clap::{Args, Subcommand};
use throng::crowd::bench::{BenchSetup, measure_crowd, measure_textbook};
use throng::scene::independent_time;

use super::bench_model::{ModelArgs, model_and_clip};
use super::bench_report::{Method, report};
use super::bench_sweep::{SweepArgs, sweep};
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

pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    match &args.what {
        BenchCommand::Palette(args) => palette(args),
        BenchCommand::Sweep(args) => sweep(args),
        BenchCommand::Frame(args) => super::bench_frame::run(args),
    }
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
