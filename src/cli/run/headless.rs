//! `run --headless`: frames rendered into an offscreen image at a fixed time step (so a
//! seed, a frame count and a size always give the same picture), the last one written as PNG.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use ash::vk;
use throng::gpu::{
    FrameCapture, FrameSync, GpuContext, OFFSCREEN_FORMAT, Offscreen, Presentation, Renderer,
};

use super::session::Session;
use super::stats::{Stats, write_json};
use super::{RunArgs, report_capture, report_missed_capture};
use crate::cli::CliError;

/// The animation step of a headless frame, seconds.
pub const HEADLESS_DT: f32 = 1.0 / 60.0;
/// How long a headless run lasts when neither `--frames` nor `--seconds` is given.
const DEFAULT_SECONDS: f64 = 3.0;

pub fn run(args: &RunArgs, screenshot: Option<PathBuf>) -> Result<(), CliError> {
    let mut session = Session::new(args)?;
    // SAFETY: no window.
    let ctx: Arc<GpuContext> = unsafe { GpuContext::new(&args.context_options(), None) }?;
    let extent = vk::Extent2D {
        width: args.width,
        height: args.height,
    };
    let mut renderer = Renderer::new(&ctx, OFFSCREEN_FORMAT, extent, Presentation::Offscreen)?;
    renderer.set_settings(args.settings())?;
    session.upload(&mut renderer)?;
    let offscreen = Offscreen::new(&ctx, extent)?;
    // After the instance: RenderDoc's layer (when present) came in with it.
    let mut capture = FrameCapture::new(args.capture_frame);
    println!(
        "rendering {} instances of {} on {} ({}x{}, headless)",
        session.crowd.len(),
        model_names(&session),
        ctx.device_name(),
        args.width,
        args.height
    );

    let seconds = args.seconds.unwrap_or(DEFAULT_SECONDS);
    let mut stats = Stats::new(true);
    let start = Instant::now();
    let aspect = args.width as f32 / args.height as f32;
    loop {
        let frame_start = Instant::now();
        let last = match args.frames {
            Some(f) => stats.frames() + 1 >= f,
            None => start.elapsed().as_secs_f64() >= seconds,
        };
        let anim_ms = session.advance(HEADLESS_DT)?;
        let inputs = session.inputs(aspect);
        let readback = (last && screenshot.is_some()).then(|| offscreen.readback_buffer());
        let number = stats.frames() + 1;
        capture.begin(number);
        let times = renderer.render(
            &mut session.crowd,
            &inputs,
            offscreen.target(),
            FrameSync::default(),
            readback,
        )?;
        report_capture(capture.end(number), number);
        stats.frame(
            anim_ms + times.palette_ms,
            &times,
            frame_start.elapsed().as_secs_f64() * 1e3,
            renderer.pass_times(),
        );
        if last {
            break;
        }
    }
    report_missed_capture(&capture, stats.frames());
    let gpu_ms_avg = renderer.gpu_ms_average()?;
    stats.print_overall(
        start.elapsed().as_secs_f64(),
        gpu_ms_avg,
        renderer.pass_times(),
    );
    if let Some(path) = &screenshot {
        offscreen.pixels()?.save_png(path)?;
        println!("wrote {}", path.display());
    }
    if let Some(path) = &args.stats_json {
        let doc = stats.json(gpu_ms_avg, renderer.pass_times(), |d| {
            d.instances = session.crowd.len();
            d.joints_per_instance = session
                .models
                .iter()
                .map(|m| m.joint_count())
                .max()
                .unwrap_or(0);
            d.device = ctx.device_name().to_string();
            d.width = args.width;
            d.height = args.height;
            d.view_proj = session.inputs(aspect).view_proj.to_cols_array();
            d.instance_world = session.first_world().to_array();
        });
        write_json(path, &doc)?;
    }
    Ok(())
}

/// "builtin", or "builtin + robot".
pub fn model_names(session: &Session) -> String {
    session
        .models
        .iter()
        .map(|m| m.name().to_string())
        .collect::<Vec<_>>()
        .join(" + ")
}
