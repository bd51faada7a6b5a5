//! `run --headless`: frames rendered into an offscreen image at a fixed time step (so a
//! seed, a frame count and a size always give the same picture), the last one written as PNG.

use std::path::PathBuf;
use std::time::Instant;

use throng::gpu::{FrameCapture, HeadlessRenderer};

use super::RunArgs;
use super::capture_report::{report_capture, report_missed_capture};
use crate::cli::CliError;
use crate::cli::hud::{HudComposer, HudScene, hud_scale};
use crate::cli::output::{say, shown};
use crate::cli::stats::{Drawn, Stats, shadow_side, write_json};

/// The animation step of a headless frame, seconds.
pub const HEADLESS_DT: f32 = 1.0 / 60.0;
/// How long a headless run lasts when neither `--frames` nor `--seconds` is given.
const DEFAULT_SECONDS: f64 = 3.0;

pub fn run(args: &RunArgs, screenshot: Option<PathBuf>) -> Result<(), CliError> {
    let mut session = args.session()?;
    let mut r = HeadlessRenderer::new(&args.context_options(), args.width, args.height)?;
    let default_msaa = r.renderer().default_msaa();
    r.renderer().set_settings(args.settings(default_msaa))?;
    session.upload(r.renderer())?;
    // After the instance: RenderDoc's layer (when present) came in with it.
    let mut capture = FrameCapture::new(args.capture_frame);
    let msaa = args.msaa_words(r.renderer());
    say!(
        "rendering {} instances of {} on {} ({}x{}, headless, {})",
        session.crowd.len(),
        session.model_names(),
        shown(r.context().device_name()),
        args.width,
        args.height,
        msaa
    )?;
    if let Some(line) = session.scale_line() {
        say!("{line}")?;
    }
    for line in session.root_motion_lines() {
        say!("{line}")?;
    }
    for line in session.bake_lines() {
        say!("{line}")?;
    }
    say!("{}", session.state_line())?;
    for line in session.prepare_impostors(r.renderer(), args.passes.impostor_memory())? {
        say!("{line}")?;
    }

    crate::cli::interrupt::install();
    let seconds = args.seconds.unwrap_or(DEFAULT_SECONDS);
    let mut stats = Stats::new(true);
    let start = Instant::now();
    let aspect = args.width as f32 / args.height as f32;
    let mut hud = args
        .hud_on(false)
        .then(|| HudComposer::new(hud_scale(args.height)));
    let device = r.context().device_name().to_string();
    loop {
        let frame_start = Instant::now();
        let last = match args.frames {
            Some(f) => stats.frames() + 1 >= f,
            None => start.elapsed().as_secs_f64() >= seconds,
        } || crate::cli::interrupt::requested();
        let anim_ms = session.advance(HEADLESS_DT, r.renderer())?;
        let inputs = session.inputs(aspect);
        if let Some(hud) = hud.as_mut() {
            let scene = HudScene {
                instances: session.crowd.len(),
                device: &device,
                settings: r.renderer().settings(),
                camera: args.camera_name(),
                paused: false,
                keys: false,
            };
            hud.compose(
                &stats.last_second(),
                r.renderer().pass_times(),
                stats.drawn(),
                &scene,
            );
            r.renderer().set_hud(Some(&hud.text));
        }
        let number = stats.frames() + 1;
        capture.begin(number);
        let times = if last && screenshot.is_some() {
            r.render_for_readback(&mut session.crowd, &inputs)?
        } else {
            r.render(&mut session.crowd, &inputs)?
        };
        report_capture(capture.end(number), number)?;
        let drawn = Drawn {
            draw: r.renderer().draw_stats(),
            animation: session.animation_counts(r.renderer()),
        };
        stats.frame(
            anim_ms + times.palette_ms,
            &times,
            frame_start.elapsed().as_secs_f64() * 1e3,
            r.renderer().pass_times(),
            drawn,
        )?;
        if last {
            break;
        }
    }
    report_missed_capture(&capture, stats.frames());
    let gpu_ms_avg = r.renderer().gpu_ms_average()?;
    let passes = r.renderer().pass_times().to_vec();
    // Every frame is done now: the last one's counts are in.
    stats.set_draw(r.renderer().draw_stats());
    stats.print_overall(start.elapsed().as_secs_f64(), gpu_ms_avg, &passes)?;
    if let Some(path) = &screenshot {
        r.pixels()?.save_png(path)?;
        say!("wrote {}", shown(&path.display().to_string()))?;
    }
    if let Some(path) = &args.stats_json {
        let first = session.first_world(r.renderer())?;
        let shadow_size = shadow_side(r.renderer());
        let doc = stats.json(gpu_ms_avg, &passes, |d| {
            session.fill_stats(d, &device, (args.width, args.height), first);
            d.shadow_size = shadow_size;
        });
        write_json(path, &doc)?;
    }
    Ok(())
}
