//! `throng bench frame [MODEL...] --instances 100,1000,10000 --width W --height H --frames F`:
//! whole frames, headless: for each crowd size, the wall-clock milliseconds per frame, the
//! CPU milliseconds spent animating (clocks, the choice of exact or baked palettes, palettes
//! and records into the mapped ring), the GPU milliseconds (timestamps around the frame's
//! commands), and what the GPU drew: instances and triangles per pass, by its own counts.
//! `--lod`, `--cull`, `--animation` and `--camera` choose what is measured.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use serde::Serialize;
use throng::gpu::{ContextOptions, HeadlessRenderer, ViewMode, validation_wanted};

use super::attach_args::AttachArgs;
use super::crowd_args::CrowdArgs;
use super::load_args::LoadArgs;
use super::output::{print_json, say, write_file};
use super::pass_args::PassArgs;
use super::plot::{Chart, Series, svg};
use super::session::{Session, SessionSpec};
use super::stats::{AnimationJson, Drawn, StatsJson, shadow_side};
use super::{CliError, parse_instances, parse_threads};

/// Animation step of a benchmark frame, seconds.
const DT: f32 = 1.0 / 60.0;

#[derive(Debug, Args)]
pub struct FrameArgs {
    /// Models: `builtin` (default) or model files (`.m3d`, `.gltf`/`.glb`, `.fbx`, `.sdkmesh`,
    /// `.x`; any other file Assimp reads when built with the `assimp` feature). Several models
    /// share the crowd.
    models: Vec<String>,
    /// Crowd sizes to measure.
    #[arg(long, value_delimiter = ',', value_parser = parse_instances, default_values_t = [100, 1_000, 10_000])]
    instances: Vec<usize>,
    /// Frame width in pixels.
    #[arg(long, default_value_t = 1280, value_parser = clap::value_parser!(u32).range(1..=16384))]
    width: u32,
    /// Frame height in pixels.
    #[arg(long, default_value_t = 720, value_parser = clap::value_parser!(u32).range(1..=16384))]
    height: u32,
    /// Timed frames per crowd size (after the warm-up frames).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    frames: u64,
    /// Frames rendered before timing starts (pipelines warm, ring at its size, caches filled).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=1000))]
    warmup: u64,
    #[command(flatten)]
    passes: PassArgs,
    #[command(flatten)]
    crowd: CrowdArgs,
    /// Palette worker threads (0: one per core).
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    threads: usize,
    /// Use the Vulkan device whose name contains this.
    #[arg(long, value_name = "NAME")]
    device: Option<String>,
    /// Print the measurements as JSON.
    #[arg(long, conflicts_with = "tsv")]
    json: bool,
    /// Print the measurements as tab-separated rows, for scripts: `# device<TAB>NAME`, then
    /// per crowd size: instances, frame ms, GPU ms, calling thread's processor ms, millions of
    /// triangles per camera pass (scripts/gpu-bench.sh reads it).
    #[arg(long)]
    tsv: bool,
    /// Write a plot of the milliseconds against instances to this SVG file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    attach: AttachArgs,
    #[command(flatten)]
    load: LoadArgs,
}

/// One crowd size's figures.
#[derive(Debug, Serialize)]
struct FrameReport {
    instances: usize,
    /// Wall-clock milliseconds per frame (frames in flight overlap CPU and GPU work).
    frame_ms: f64,
    /// CPU milliseconds per frame animating the crowd (wall clock): advancing it, choosing
    /// and writing palettes and records; waiting for a ring slot left out.
    cpu_anim_ms: f64,
    /// Milliseconds per frame the calling thread waited for the GPU (a ring slot to be
    /// released, a frame in flight to finish).
    wait_ms: f64,
    /// Processor milliseconds per frame of the calling thread: advancing the crowd, choosing
    /// and writing palettes and records, packing the culling inputs, recording and submitting
    /// (waits for the GPU excluded). All of the frame's CPU work with `--threads 1`; with more
    /// threads the palette workers' share is not in it.
    cpu_thread_ms: Option<f64>,
    /// GPU milliseconds per frame.
    gpu_ms: Option<f64>,
    /// GPU milliseconds per frame of each pass, in the order they run.
    passes: serde_json::Map<String, serde_json::Value>,
    /// Triangles of the whole crowd at full detail (what one pass drew before culling).
    triangles_per_frame: u64,
    /// What the GPU drew in the last frame: per skinned pass, instances and triangles.
    drawn: serde_json::Map<String, serde_json::Value>,
    /// The last frame's instances per mesh level in the camera's view.
    lod_levels: Vec<u64>,
    /// The last frame's animation: exact and baked instances, palette bytes.
    animation: AnimationJson,
    /// Palette matrices the crowd would evaluate with every instance exact.
    joints_per_frame: usize,
    /// The settings measured.
    cull: bool,
    lod: bool,
    lod_bias: f32,
    /// Characters shorter on screen than this many pixels were cards (with impostors on).
    impostor_px: f32,
    /// Samples per pixel the camera's passes rendered (after the device's limit).
    msaa: u32,
    /// The shadow map's side in texels at the frame's size (0: no shadows).
    shadow_size: u32,
    animation_mode: String,
    /// Where the crowd's state was advanced: `cpu` or `gpu`.
    crowd_state: &'static str,
    camera: String,
    width: u32,
    height: u32,
    frames: u64,
    models: String,
    device: String,
}

pub fn run(args: &FrameArgs) -> Result<(), CliError> {
    let with = args
        .attach
        .apply(args.load.load_models(&args.models)?, &args.load)?;
    let models = with.models.clone();
    let names = models
        .iter()
        .map(|m| m.name().to_string())
        .collect::<Vec<_>>()
        .join(" + ");
    let options = ContextOptions {
        device: args.device.clone(),
        validation: validation_wanted(),
    };
    let mut reports = Vec::new();
    if !args.json && !args.tsv {
        // Only the level and culling switches are read here, before any device exists.
        let settings = args.passes.settings(throng::gpu::DEFAULT_MSAA);
        say!(
            "{} at {}x{}: camera {:?}, lod {}, cull {}, animation {:?}, crowd state {:?}",
            names,
            args.width,
            args.height,
            args.crowd.camera(),
            if settings.lod { "on" } else { "off" },
            if settings.cull { "on" } else { "off" },
            args.crowd.mode(),
            args.crowd.crowd_state()
        )?;
        say!(
            "{:>10} {:>10} {:>12} {:>10} {:>10} {:>10} {:>11} {:>11} {:>9} {:>9}  gpu ms per pass",
            "instances",
            "frame ms",
            "cpu anim ms",
            "wait ms",
            "cpu thr ms",
            "gpu ms",
            "M tris cam",
            "M tris shd",
            "drawn",
            "exact"
        )?;
    }
    for &instances in &args.instances {
        let mut session = Session::build(SessionSpec {
            models: models.clone(),
            instances,
            seed: 1,
            threads: args.threads,
            pose: None,
            view: ViewMode::Final,
            aspect: args.width as f32 / args.height as f32,
            ssao_radius: None,
            animation: args.crowd.mode(),
            bake: args.crowd.bake(),
            camera: args.crowd.camera(),
            height: args.crowd.height(),
            variety: args.crowd.variety(),
            paths: args.crowd.paths(),
            crowd_state: args.crowd.crowd_state(),
            props: (with.prop_materials.clone(), with.share),
        })?;
        let mut r = HeadlessRenderer::new(&options, args.width, args.height)?;
        let default_msaa = r.renderer().default_msaa();
        r.renderer()
            .set_settings(args.passes.settings(default_msaa))?;
        session.upload(r.renderer())?;
        session.prepare_impostors(r.renderer(), args.passes.impostor_memory())?;
        let inputs = session.inputs(args.width as f32 / args.height as f32);
        for _ in 0..args.warmup {
            session.advance(DT, r.renderer())?;
            r.render(&mut session.crowd, &inputs)?;
        }
        // Timing starts with nothing in flight, so the warm-up's GPU work is not counted.
        r.renderer().gpu_ms_average()?;
        r.renderer().reset_gpu_average();
        let (mut cpu_anim_ms, mut wait_ms) = (0.0, 0.0);
        let mut cpu_thread_ms = Some(0.0);
        let start = Instant::now();
        for _ in 0..args.frames {
            let before = thread_cpu_ms();
            let anim = session.advance(DT, r.renderer())?;
            let times = r.render(&mut session.crowd, &inputs)?;
            cpu_anim_ms += anim + times.palette_ms;
            wait_ms += times.wait_ms;
            cpu_thread_ms = cpu_thread_ms
                .zip(before.zip(thread_cpu_ms()))
                .map(|(sum, (a, b))| sum + (b - a));
        }
        let gpu_ms = r.renderer().gpu_ms_average()?;
        let mut passes = serde_json::Map::new();
        for p in r.renderer().pass_times() {
            passes.insert(p.name.to_string(), serde_json::Value::from(p.average_ms()));
        }
        let frame_ms = start.elapsed().as_secs_f64() * 1e3 / args.frames as f64;
        // Every frame is done: the last one's counts are in.
        let mut drawn_json = StatsJson::default();
        Drawn {
            draw: r.renderer().draw_stats(),
            animation: session.animation_counts(r.renderer()),
        }
        .fill(&mut drawn_json);
        let draw = r.renderer().draw_stats().unwrap_or_default();
        let settings = r.renderer().settings();
        let triangles: u64 = (0..session.crowd.len())
            .map(|i| session.crowd.instance(i).model().mesh().triangle_count() as u64)
            .sum();
        let report = FrameReport {
            instances,
            frame_ms,
            cpu_anim_ms: cpu_anim_ms / args.frames as f64,
            wait_ms: wait_ms / args.frames as f64,
            cpu_thread_ms: cpu_thread_ms.map(|t| t / args.frames as f64),
            gpu_ms,
            passes,
            triangles_per_frame: triangles,
            drawn: drawn_json.drawn,
            lod_levels: drawn_json.lod_levels,
            animation: drawn_json.animation,
            joints_per_frame: session.crowd.joint_count(),
            cull: settings.cull,
            lod: settings.lod,
            lod_bias: settings.lod_bias,
            impostor_px: r.renderer().impostor_px(),
            msaa: r.renderer().settings().msaa,
            shadow_size: shadow_side(r.renderer()),
            animation_mode: format!("{:?}", args.crowd.mode()).to_lowercase(),
            crowd_state: session.state_place(),
            camera: format!("{:?}", args.crowd.camera()).to_lowercase(),
            width: args.width,
            height: args.height,
            frames: args.frames,
            models: names.clone(),
            device: r.context().device_name().to_string(),
        };
        if !args.json && !args.tsv {
            let per_pass: Vec<String> = r
                .renderer()
                .pass_times()
                .iter()
                .map(|p| format!("{} {:.2}", p.name, p.average_ms()))
                .collect();
            say!(
                "{:>10} {:>10.2} {:>12.2} {:>10.2} {:>10} {:>10} {:>11.3} {:>11.3} {:>9} {:>9}  {}",
                instances,
                report.frame_ms,
                report.cpu_anim_ms,
                report.wait_ms,
                report
                    .cpu_thread_ms
                    .map_or_else(|| String::from("n/a"), |g| format!("{g:.2}")),
                report
                    .gpu_ms
                    .map_or_else(|| String::from("n/a"), |g| format!("{g:.2}")),
                draw.camera_triangles as f64 / 1e6,
                draw.shadow_triangles as f64 / 1e6,
                draw.camera.iter().sum::<u64>(),
                report.animation.exact,
                per_pass.join(", ")
            )?;
        }
        reports.push(report);
    }
    if let Some(path) = &args.svg {
        write_file(path, &plot(&reports))?;
    }
    if args.json {
        return print_json(&reports);
    }
    if args.tsv {
        return print_tsv(&reports);
    }
    Ok(())
}

/// The rows `--tsv` prints.
fn print_tsv(reports: &[FrameReport]) -> Result<(), CliError> {
    let or_na = |v: Option<f64>| v.map_or_else(|| String::from("n/a"), |v| format!("{v:.2}"));
    if let Some(first) = reports.first() {
        say!("# device\t{}", first.device)?;
    }
    for r in reports {
        let camera_triangles = r
            .drawn
            .get("forward")
            .or_else(|| r.drawn.get("depth_normal"))
            .and_then(|d| d["triangles"].as_u64())
            .unwrap_or(0);
        say!(
            "{}\t{:.2}\t{}\t{}\t{:.3}",
            r.instances,
            r.frame_ms,
            or_na(r.gpu_ms),
            or_na(r.cpu_thread_ms),
            camera_triangles as f64 / 1e6
        )?;
    }
    Ok(())
}

/// Processor milliseconds the calling thread has used (`None` where the clock is missing).
fn thread_cpu_ms() -> Option<f64> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    ok.then(|| t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6)
}

/// Frame, CPU animation and GPU milliseconds against instances (log-log would hide the
/// linear growth the plot is there to show, so only x is logarithmic).
fn plot(reports: &[FrameReport]) -> String {
    let series = |label: &str, y: &dyn Fn(&FrameReport) -> Option<f64>| Series {
        label: label.to_string(),
        points: reports
            .iter()
            .filter_map(|r| Some((r.instances as f64, y(r)?)))
            .collect(),
    };
    let chart = Chart {
        title: "milliseconds per frame against instances".into(),
        x_label: "instances (log scale)".into(),
        y_label: "ms per frame".into(),
        x_log: true,
        series: vec![
            series("frame (wall clock)", &|r| Some(r.frame_ms)),
            series("GPU", &|r| r.gpu_ms),
            series("CPU animation", &|r| Some(r.cpu_anim_ms)),
        ],
    };
    let caption = reports.first().map_or_else(String::new, |r| {
        format!(
            "throng bench frame: {} at {}x{}, {} frames per point, on {}",
            r.models, r.width, r.height, r.frames, r.device
        )
    });
    svg(&[chart], &caption)
}
