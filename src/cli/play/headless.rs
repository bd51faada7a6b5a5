//! `play` headless: the file's time range rendered at a fixed output rate (the same file and
//! flags give the same frames), to PNG frames, a video piped to ffmpeg and a CSV of what was
//! drawn.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::Instant;

use throng::gpu::{ContextOptions, HeadlessRenderer, Pixels, validation_wanted};
use throng::motion::FootExport;
use throng::motion::trajectory::{TrackStore, open_store};

use super::PlayArgs;
use super::hud::{PlayHud, PlayHudState};
use super::progress::Progress;
use super::scene::PlayScene;
use crate::cli::CliError;
use crate::cli::hud::hud_scale;
use crate::cli::output::{say, shown};
use crate::cli::pass_args::Switch;

/// The most output frames one playback renders (a day at 30 fps would be 2.6 million).
const MAX_FRAMES: u64 = 10_000_000;

/// Reads the trajectory file into a store (its samples spilled to a temporary file when they
/// are many) and says what it holds; returns it with the time range to play.
pub fn read_file(args: &PlayArgs) -> Result<(TrackStore, (f64, f64)), CliError> {
    let loaded = Instant::now();
    let file = open_store(&args.file, &args.read_options()?)?;
    let range = time_range(args, file.start(), file.end())?;
    let spilled = file.spilled_bytes();
    say!(
        "{}: {} format, {} pedestrians, {} samples, {:.2} to {:.2} s{}{}, read in {:.2} s{}",
        shown(&args.file.display().to_string()),
        file.format(),
        file.summaries().len(),
        file.sample_count(),
        file.start(),
        file.end(),
        file.frame_rate()
            .map_or(String::new(), |f| format!(" at {f} fps")),
        if file.geometry().is_some() {
            ", with a walkable area"
        } else {
            ""
        },
        loaded.elapsed().as_secs_f64(),
        if spilled > 0 {
            format!(
                ", streamed from a temporary copy of {:.1} MB",
                spilled as f64 / 1e6
            )
        } else {
            String::new()
        }
    )?;
    Ok((file, range))
}

pub fn run(args: &PlayArgs, file: TrackStore, (start, end): (f64, f64)) -> Result<(), CliError> {
    let mut scene = PlayScene::build(args, file)?;
    let options = ContextOptions {
        device: args.device.clone(),
        validation: validation_wanted(),
    };
    let mut r = HeadlessRenderer::new(&options, args.width, args.height)?;
    let default_msaa = r.renderer().default_msaa();
    r.renderer()
        .set_settings(args.passes.settings(default_msaa))?;
    scene.upload(r.renderer())?;
    r.renderer()
        .set_impostor_memory(args.passes.impostor_memory());
    r.renderer().prepare_impostors(&scene.crowd)?;
    let step = args.speed / args.fps;
    // A range of D seconds at F frames a second is D x F frames, the first at the start (a
    // video of 20 s at 30 fps holds 600); a range of one instant is one frame.
    let whole = (((end - start) / step + 1e-6).floor() as u64).max(1);
    let frames = args.frames.map_or(whole, |f| f.min(whole));
    if frames > MAX_FRAMES {
        return Err(CliError::Argument(format!(
            "{frames} frames from {start:.2} to {end:.2} s at {} fps and speed {}: more than \
             {MAX_FRAMES}; shorten the range with --start/--end or raise --speed",
            args.fps, args.speed
        )));
    }
    say!(
        "playing {start:.2} to {end:.2} s of file time: {frames} frames at {} fps, speed {}, \
         {} as {} on {} ({}x{}, headless), at most {} present at once",
        args.fps,
        args.speed,
        if scene.has_scenery() {
            "walls drawn"
        } else {
            "no walkable area"
        },
        scene.model_names(),
        shown(r.context().device_name()),
        args.width,
        args.height,
        scene.playback.most_present()
    )?;
    say!("{}", scene.state_line())?;
    if let Some(dir) = &args.frames_dir {
        std::fs::create_dir_all(dir).map_err(|source| CliError::Io {
            context: format!("creating {}", dir.display()),
            source,
        })?;
    }
    let mut video = args
        .record
        .as_deref()
        .map(|p| Video::start(p, args.width, args.height, args.fps))
        .transpose()?;
    let mut export = match &args.export {
        Some(path) => {
            let f = File::create(path).map_err(|source| CliError::Io {
                context: format!("creating {}", path.display()),
                source,
            })?;
            let e = FootExport::new(BufWriter::new(f), &scene.playback, &scene.crowd)
                .map_err(|source| io_error(path, source))?;
            Some((e, path.clone()))
        }
        None => None,
    };
    let reads_back = args.frames_dir.is_some() || video.is_some();
    let mut hud = args
        .hud
        .is_some_and(Switch::on)
        .then(|| PlayHud::new(hud_scale(args.height)));
    let pedestrians = scene.playback.store().summaries().len();
    let color_by = scene.playback.settings().color_by;
    let aspect = args.width as f32 / args.height as f32;
    let mut progress = Progress::new(frames, args.quiet);
    crate::cli::interrupt::install();
    let wall = Instant::now();
    let mut rendered = 0u64;
    let mut motion_ms = 0.0f64;
    // The first step reads in everyone present (a seek); the rest go on from there.
    let mut first_ms = 0.0f64;
    let mut most_held = 0usize;
    for f in 0..frames {
        let t = (start + f as f64 * step).min(end);
        let moved = Instant::now();
        scene.advance(r.renderer(), t)?;
        let ms = moved.elapsed().as_secs_f64() * 1e3;
        motion_ms += ms;
        if f == 0 {
            first_ms = ms;
        }
        // Outside the playback's timing: the count visits every pedestrian.
        most_held = most_held.max(scene.held_samples());
        let last = f + 1 == frames || crate::cli::interrupt::requested();
        let inputs = scene.inputs(aspect);
        if let Some(hud) = hud.as_mut() {
            hud.compose(&PlayHudState {
                time: t,
                end,
                present: scene.present(),
                pedestrians,
                speed: args.speed,
                paused: false,
                followed: scene.followed(),
                color_by,
                keys: false,
            });
            r.renderer().set_hud(Some(&hud.text));
        }
        if reads_back || (last && args.screenshot.is_some()) {
            r.render_for_readback(&mut scene.crowd, &inputs)?;
            let pixels = r.pixels()?;
            if let Some(dir) = &args.frames_dir {
                let path = dir.join(format!("frame-{:06}.png", f + 1));
                pixels.save_png(&path)?;
            }
            if let Some(v) = video.as_mut() {
                v.frame(&pixels)?;
            }
            if last && let Some(path) = &args.screenshot {
                pixels.save_png(path)?;
            }
        } else {
            r.render(&mut scene.crowd, &inputs)?;
        }
        if let Some((e, path)) = export.as_mut() {
            e.frame(t, &scene.playback, &scene.crowd)
                .map_err(|source| io_error(path, source))?;
        }
        rendered += 1;
        progress.update(f + 1, t, scene.present());
        if last {
            break;
        }
    }
    progress.finish();
    let seconds = wall.elapsed().as_secs_f64();
    let gpu = r
        .renderer()
        .gpu_ms_average()?
        .map_or(String::new(), |ms| format!(", GPU {ms:.2} ms a frame"));
    say!(
        "rendered {rendered} frames in {seconds:.2} s ({:.1} frames/s){gpu}, playback {:.2} ms a \
         frame on the calling thread ({first_ms:.2} ms the first, {:.4} ms the rest), holding at \
         most {} samples of {}{}",
        rendered as f64 / seconds.max(1e-9),
        motion_ms / rendered.max(1) as f64,
        (motion_ms - first_ms) / rendered.saturating_sub(1).max(1) as f64,
        most_held,
        scene.playback.store().sample_count(),
        peak_resident().map_or(String::new(), |mb| format!(", peak resident {mb:.0} MB"))
    )?;
    if let Some((e, path)) = export {
        e.finish().map_err(|source| io_error(&path, source))?;
        say!("wrote {}", shown(&path.display().to_string()))?;
    }
    if let Some(v) = video {
        v.finish()?;
        if let Some(p) = &args.record {
            say!("wrote {}", shown(&p.display().to_string()))?;
        }
    }
    if let Some(dir) = &args.frames_dir {
        say!(
            "wrote {rendered} frames to {}",
            shown(&dir.display().to_string())
        )?;
    }
    if let Some(p) = &args.screenshot {
        say!("wrote {}", shown(&p.display().to_string()))?;
    }
    Ok(())
}

/// The file time range to play: `--start`/`--end` within the file's own.
fn time_range(args: &PlayArgs, first: f64, last: f64) -> Result<(f64, f64), CliError> {
    let start = args.start.unwrap_or(first).max(first);
    let end = args.end.unwrap_or(last).min(last);
    if end < start || end.is_nan() || start.is_nan() {
        return Err(CliError::Argument(format!(
            "nothing to play: the file runs from {first:.2} to {last:.2} s, and --start/--end \
             ask for {} to {}",
            args.start
                .map_or("its start".into(), |s| format!("{s:.2} s")),
            args.end.map_or("its end".into(), |e| format!("{e:.2} s")),
        )));
    }
    Ok((start, end))
}

/// The process's peak resident memory, MB (Linux: `VmHWM` in /proc/self/status).
fn peak_resident() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn io_error(path: &Path, source: std::io::Error) -> CliError {
    CliError::Io {
        context: format!("writing {}", path.display()),
        source,
    }
}

/// Frames piped to ffmpeg, which encodes them as H.264.
struct Video {
    child: Child,
    stdin: Option<ChildStdin>,
    path: PathBuf,
}

impl Video {
    fn start(path: &Path, width: u32, height: u32, fps: f64) -> Result<Self, CliError> {
        let mut child = Command::new("ffmpeg")
            .args(["-hide_banner", "-loglevel", "error", "-y"])
            .args(["-f", "rawvideo", "-pix_fmt", "rgba"])
            .args(["-s", &format!("{width}x{height}")])
            .args(["-r", &format!("{fps}")])
            .args(["-i", "-"])
            // H.264 in 4:2:0 needs even sides.
            .args(["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2"])
            .args(["-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "18"])
            .arg(path)
            .stdin(Stdio::piped())
            .spawn()
            .map_err(|e| {
                CliError::Argument(format!(
                    "--record {}: could not start ffmpeg ({e}); install it (Debian: apt-get \
                     install ffmpeg, which scripts/ensure-deps.sh does)",
                    path.display()
                ))
            })?;
        let stdin = child.stdin.take();
        Ok(Self {
            child,
            stdin,
            path: path.to_path_buf(),
        })
    }

    fn frame(&mut self, pixels: &Pixels) -> Result<(), CliError> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Ok(());
        };
        stdin
            .write_all(&pixels.rgba8)
            .map_err(|source| CliError::Io {
                context: format!("piping frames to ffmpeg for {}", self.path.display()),
                source,
            })
    }

    fn finish(mut self) -> Result<(), CliError> {
        drop(self.stdin.take());
        let status = self.child.wait().map_err(|source| CliError::Io {
            context: format!("waiting for ffmpeg writing {}", self.path.display()),
            source,
        })?;
        if status.success() {
            Ok(())
        } else {
            Err(CliError::Argument(format!(
                "ffmpeg failed writing {} ({status})",
                self.path.display()
            )))
        }
    }
}
