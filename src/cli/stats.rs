//! Frame statistics of a run: a line every second (fps, CPU animation, GPU and frame
//! milliseconds, then what was drawn: instances and triangles per pass, instances per mesh
//! level, exact and baked animation) and, with `--stats-json`, the averages of the whole run
//! with the last frame's drawing counts.
//!
//! The drawing counts are the GPU's own: the culling pass's counters, copied each frame and
//! read a frame or two later, when that frame in flight comes round again (never waited for).

use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use serde::Serialize;
use throng::anim::Mat3x4;
use throng::crowd::{AnimationCounts, InstanceRecord};
use throng::gpu::{DrawStats, FrameTimes, PassTime, validation_messages};
use throng::motion::ClipChangeCounts;

use crate::cli::CliError;
use crate::cli::output::{say, shown};

/// Running sums for one reporting window or the whole run.
#[derive(Clone, Copy, Debug, Default)]
struct Sums {
    frames: u64,
    cpu_anim_ms: f64,
    wait_ms: f64,
    gpu_ms: f64,
    gpu_frames: u64,
    frame_ms: f64,
}

impl Sums {
    fn add(&mut self, cpu_anim_ms: f64, times: &FrameTimes, frame_ms: f64) {
        self.frames += 1;
        self.cpu_anim_ms += cpu_anim_ms;
        self.wait_ms += times.wait_ms;
        if let Some(g) = times.gpu_ms {
            self.gpu_ms += g;
            self.gpu_frames += 1;
        }
        self.frame_ms += frame_ms;
    }

    fn avg(total: f64, n: u64) -> f64 {
        if n == 0 { 0.0 } else { total / n as f64 }
    }
}

/// Collects frame times; see the module documentation.
pub struct Stats {
    total: Sums,
    window: Sums,
    window_start: Instant,
    /// Whether to print a line every second.
    pub print: bool,
    /// The latest frame's drawing.
    drawn: Drawn,
    /// In the window's fly mode, where the eye is (printed after the drawing line, so a
    /// user flying about, and the window test, can see the eye move).
    flying_eye: Option<[f32; 3]>,
    /// The last whole second's sums and its length (what the heads-up display shows).
    last_second: Option<(Sums, f64)>,
}

/// The averages of the last whole second, or of the frames so far before a second passed.
#[derive(Clone, Copy, Debug, Default)]
pub struct Second {
    /// Frames per second.
    pub fps: f64,
    /// Wall-clock milliseconds per frame.
    pub frame_ms: f64,
    /// The calling thread's animation work per frame, ms.
    pub cpu_ms: f64,
    /// Waiting for a ring slot or the GPU per frame, ms.
    pub wait_ms: f64,
    /// The GPU's time per frame, ms, once timestamps came back.
    pub gpu_ms: Option<f64>,
}

/// The `--stats-json` document.
#[derive(Debug, Default, Serialize)]
pub struct StatsJson {
    /// Frames rendered.
    pub frames: u64,
    /// Instances in the crowd.
    pub instances: usize,
    /// Joints (palette matrices) per instance; the largest when models differ.
    pub joints_per_instance: usize,
    /// Average CPU milliseconds per frame spent animating (update and palettes).
    pub cpu_anim_ms_avg: f64,
    /// Average milliseconds per frame the CPU waited for the GPU (for a free ring slot, for a
    /// frame in flight to finish); not in `cpu_anim_ms_avg`.
    pub wait_ms_avg: f64,
    /// Average GPU milliseconds per frame (timestamps).
    pub gpu_ms_avg: f64,
    /// Average wall-clock milliseconds per frame.
    pub frame_ms_avg: f64,
    /// Validation messages seen in the run.
    pub validation_messages: u64,
    /// The Vulkan device used.
    pub device: String,
    /// Frame width.
    pub width: u32,
    /// Frame height.
    pub height: u32,
    /// The shadow map's side in texels at that size ([`shadow_side`]; 0: no shadows).
    pub shadow_size: u32,
    /// World to Vulkan clip space, column-major.
    pub view_proj: [f32; 16],
    /// Instance 0's world transform, 3x4 rows.
    pub instance_world: [f32; 12],
    /// Where the camera was at the end.
    pub camera: CameraJson,
    /// Average GPU milliseconds per frame of each pass, by pass name.
    pub passes: serde_json::Map<String, serde_json::Value>,
    /// The last frame's instances and triangles per skinned pass (`shadow`, `depth_normal`,
    /// `forward`), as the GPU counted them.
    pub drawn: serde_json::Map<String, serde_json::Value>,
    /// The last frame's instances at each mesh level, in the camera's view (level 0: the
    /// full mesh).
    pub lod_levels: Vec<u64>,
    /// The bytes of vertices the skin pass filled in the last frame (0: skinned in the
    /// vertex shaders).
    pub skinned_bytes: u64,
    /// The last frame's animation: instances with exact and with baked palettes, and the
    /// bytes the CPU wrote into the ring for them.
    pub animation: AnimationJson,
    /// How often instances changed clip over the run.
    pub clip_changes: ClipChangesJson,
    /// Where the crowd's state was advanced: `cpu` or `gpu`.
    pub crowd_state: &'static str,
}

/// `"clip_changes"` of `--stats-json`.
#[derive(Debug, Default, Serialize)]
pub struct ClipChangesJson {
    /// Animated seconds of the run.
    pub seconds: f64,
    /// Cross-fades to another clip begun (with the state on the GPU: turns given, the few that
    /// came during a fade included).
    pub changes: u64,
    /// Turns that came while the instance's previous fade was still under way (skipped);
    /// `null` with the state on the GPU, which does not count them.
    pub deferred: Option<u64>,
    /// The shortest time between two changes of one instance (`null` when none changed
    /// twice).
    pub shortest_interval_s: Option<f64>,
}

impl From<ClipChangeCounts> for ClipChangesJson {
    fn from(c: ClipChangeCounts) -> Self {
        Self {
            seconds: c.seconds,
            changes: c.changes,
            deferred: Some(c.deferred),
            shortest_interval_s: c.shortest_interval_s,
        }
    }
}

/// `"camera"` of `--stats-json`.
#[derive(Debug, Default, Serialize)]
pub struct CameraJson {
    /// The eye.
    pub eye: [f32; 3],
    /// The point looked at.
    pub target: [f32; 3],
    /// `orbit`, or `fly` when the window's fly mode was on.
    pub mode: &'static str,
}

/// `"animation"` of `--stats-json`.
#[derive(Debug, Default, Serialize)]
pub struct AnimationJson {
    /// Instances whose palettes the CPU evaluated.
    pub exact: usize,
    /// Instances reading baked frames.
    pub baked: usize,
    /// Palette bytes written per frame (the exact instances').
    pub palette_bytes_per_frame: usize,
    /// Instance-record bytes written per frame (every instance's).
    pub record_bytes_per_frame: usize,
}

/// What one frame drew and how it was animated.
#[derive(Clone, Copy, Debug, Default)]
pub struct Drawn {
    /// The GPU's counts (a frame or two old; `None` until the first is read).
    pub draw: Option<DrawStats>,
    /// Exact and baked palettes of the frame.
    pub animation: AnimationCounts,
}

impl Drawn {
    /// `drawn 1234 (shadow 2345), 1.23 M tris (shadow 0.45 M), levels 10/200/3000/0/0,
    /// cards 500 (shadow 600), exact 12 baked 9988`
    fn line(&self) -> String {
        let mut text = String::new();
        if let Some(d) = &self.draw {
            let sum = |v: &[u64]| v.iter().sum::<u64>();
            let levels: Vec<String> = d.camera.iter().map(u64::to_string).collect();
            let _ = write!(
                text,
                "drawn {} (shadow {}), {:.2} M tris (shadow {:.2} M), levels {}, cards {} \
                 (shadow {}), ",
                sum(&d.camera),
                sum(&d.shadow),
                d.camera_triangles as f64 / 1e6,
                d.shadow_triangles as f64 / 1e6,
                levels.join("/"),
                d.camera_cards,
                d.shadow_cards
            );
            if d.skinned_bytes > 0 {
                let _ = write!(
                    text,
                    "skinned once {} (shadow {}) in {:.1} MB, ",
                    d.camera_skinned,
                    d.shadow_skinned,
                    d.skinned_bytes as f64 / f64::from(1 << 20)
                );
            }
            if d.camera_rasterized + d.shadow_rasterized > 0 {
                let _ = write!(
                    text,
                    "{} rasterized in compute (shadow {}), ",
                    d.camera_rasterized, d.shadow_rasterized
                );
            }
        }
        let _ = write!(
            text,
            "exact {} baked {}",
            self.animation.exact, self.animation.baked
        );
        text
    }

    /// Fills `"drawn"`, `"lod_levels"` and `"animation"`.
    pub fn fill(&self, doc: &mut StatsJson) {
        let a = &self.animation;
        doc.animation = AnimationJson {
            exact: a.exact,
            baked: a.baked,
            palette_bytes_per_frame: a.palette_matrices * size_of::<Mat3x4>(),
            record_bytes_per_frame: (a.exact + a.baked) * size_of::<InstanceRecord>(),
        };
        let Some(d) = &self.draw else {
            return;
        };
        // Instances are meshes and cards together; triangles are the meshes'.
        // "skinned": the meshes among them the skin pass skinned; "rasterized": those the
        // mesh raster drew.
        let pass = |instances: &[u64], triangles, cards, [skinned, rasterized]: [u64; 2]| {
            serde_json::json!({
                "instances": instances.iter().sum::<u64>() + cards,
                "triangles": triangles,
                "cards": cards,
                "skinned": skinned,
                "rasterized": rasterized,
            })
        };
        let camera = pass(
            &d.camera,
            d.camera_triangles,
            d.camera_cards,
            [d.camera_skinned, d.camera_rasterized],
        );
        let shadow = pass(
            &d.shadow,
            d.shadow_triangles,
            d.shadow_cards,
            [d.shadow_skinned, d.shadow_rasterized],
        );
        doc.drawn.insert("shadow".into(), shadow);
        doc.skinned_bytes = d.skinned_bytes;
        if d.prepass {
            doc.drawn.insert("depth_normal".into(), camera.clone());
        }
        doc.drawn.insert("forward".into(), camera);
        doc.lod_levels = d.camera.to_vec();
    }
}

impl Stats {
    /// Empty statistics.
    pub fn new(print: bool) -> Self {
        Self {
            total: Sums::default(),
            window: Sums::default(),
            window_start: Instant::now(),
            print,
            drawn: Drawn::default(),
            flying_eye: None,
            last_second: None,
        }
    }

    /// The last whole second's averages (those of the frames so far before a second
    /// passed).
    pub fn last_second(&self) -> Second {
        let (s, seconds) = self
            .last_second
            .unwrap_or((self.window, self.window_start.elapsed().as_secs_f64()));
        Second {
            fps: if seconds > 0.0 {
                s.frames as f64 / seconds
            } else {
                0.0
            },
            frame_ms: Sums::avg(s.frame_ms, s.frames),
            cpu_ms: Sums::avg(s.cpu_anim_ms, s.frames),
            wait_ms: Sums::avg(s.wait_ms, s.frames),
            gpu_ms: (s.gpu_frames > 0).then(|| s.gpu_ms / s.gpu_frames as f64),
        }
    }

    /// What the latest frame drew.
    pub fn drawn(&self) -> &Drawn {
        &self.drawn
    }

    /// Where the eye is while the window's fly mode is on; `None` otherwise.
    pub fn set_flying_eye(&mut self, eye: Option<[f32; 3]>) {
        self.flying_eye = eye;
    }

    /// Replaces the drawing counts with newer ones (after waiting for the last frame).
    pub fn set_draw(&mut self, draw: Option<DrawStats>) {
        if draw.is_some() {
            self.drawn.draw = draw;
        }
    }

    /// Adds a frame; prints a line once a second, with the latest GPU time of each pass and
    /// what was drawn.
    pub fn frame(
        &mut self,
        cpu_anim_ms: f64,
        times: &FrameTimes,
        frame_ms: f64,
        passes: &[PassTime],
        drawn: Drawn,
    ) -> Result<(), CliError> {
        self.drawn = drawn;
        self.total.add(cpu_anim_ms, times, frame_ms);
        self.window.add(cpu_anim_ms, times, frame_ms);
        let elapsed = self.window_start.elapsed();
        if elapsed >= Duration::from_secs(1) {
            if self.print {
                let mut text = line(&self.window, elapsed.as_secs_f64());
                if !passes.is_empty() {
                    text.push_str("  |");
                    for p in passes {
                        let _ = write!(text, " {} {:.2}", p.name, p.last_ms);
                    }
                }
                say!("{text}")?;
                say!("    {}", drawn.line())?;
                if let Some([x, y, z]) = self.flying_eye {
                    say!("    flying: eye at {x:.3} {y:.3} {z:.3}")?;
                }
            }
            self.last_second = Some((self.window, elapsed.as_secs_f64()));
            self.window = Sums::default();
            self.window_start = Instant::now();
        }
        Ok(())
    }

    /// Frames so far.
    pub fn frames(&self) -> u64 {
        self.total.frames
    }

    /// Prints the averages of the whole run; `gpu_ms_avg` replaces the per-frame GPU figures
    /// (which lag frames in flight behind) when known, and each pass's average follows.
    pub fn print_overall(
        &self,
        seconds: f64,
        gpu_ms_avg: Option<f64>,
        passes: &[PassTime],
    ) -> Result<(), CliError> {
        if self.print {
            let mut total = self.total;
            if let Some(g) = gpu_ms_avg {
                total.gpu_ms = g * total.frames as f64;
                total.gpu_frames = total.frames;
            }
            say!("overall: {}", line(&total, seconds))?;
            if !passes.is_empty() {
                let mut text = String::from("gpu ms per pass:");
                for p in passes {
                    let _ = write!(text, " {} {:.2}", p.name, p.average_ms());
                }
                say!("{text}")?;
            }
            say!("last frame: {}", self.drawn.line())?;
        }
        Ok(())
    }

    /// The JSON document, given the GPU averages (from every frame's timestamps: the
    /// frame's and each pass's) and what only the caller knows.
    pub fn json(
        &self,
        gpu_ms_avg: Option<f64>,
        passes: &[PassTime],
        fill: impl FnOnce(&mut StatsJson),
    ) -> StatsJson {
        let t = &self.total;
        let mut doc = StatsJson {
            frames: t.frames,
            instances: 0,
            joints_per_instance: 0,
            cpu_anim_ms_avg: Sums::avg(t.cpu_anim_ms, t.frames),
            wait_ms_avg: Sums::avg(t.wait_ms, t.frames),
            gpu_ms_avg: gpu_ms_avg.unwrap_or(Sums::avg(t.gpu_ms, t.gpu_frames)),
            frame_ms_avg: Sums::avg(t.frame_ms, t.frames),
            validation_messages: validation_messages(),
            device: String::new(),
            width: 0,
            height: 0,
            shadow_size: 0,
            view_proj: [0.0; 16],
            instance_world: [0.0; 12],
            camera: CameraJson::default(),
            passes: serde_json::Map::new(),
            drawn: serde_json::Map::new(),
            lod_levels: Vec::new(),
            skinned_bytes: 0,
            animation: AnimationJson::default(),
            clip_changes: Default::default(),
            crowd_state: "cpu",
        };
        self.drawn.fill(&mut doc);
        for p in passes {
            doc.passes
                .insert(p.name.to_string(), serde_json::Value::from(p.average_ms()));
        }
        fill(&mut doc);
        doc
    }
}

fn line(s: &Sums, seconds: f64) -> String {
    let fps = if seconds > 0.0 {
        s.frames as f64 / seconds
    } else {
        0.0
    };
    let gpu = if s.gpu_frames > 0 {
        format!("{:7.2}", s.gpu_ms / s.gpu_frames as f64)
    } else {
        String::from("    n/a")
    };
    format!(
        "{fps:7.1} fps  cpu anim {:7.2} ms  wait {:7.2} ms  gpu {gpu} ms  frame {:7.2} ms",
        Sums::avg(s.cpu_anim_ms, s.frames),
        Sums::avg(s.wait_ms, s.frames),
        Sums::avg(s.frame_ms, s.frames),
    )
}

/// The side of the shadow map `renderer` draws at its current size, 0 without shadows: what
/// the statistics report, as the default follows the frame's size.
pub fn shadow_side(renderer: &throng::gpu::Renderer) -> u32 {
    if renderer.settings().shadows {
        renderer.shadow_size()
    } else {
        0
    }
}

/// Writes `doc` to `path` as JSON.
pub fn write_json(path: &Path, doc: &StatsJson) -> Result<(), CliError> {
    let io = |source| CliError::Io {
        context: format!("writing {}", shown(&path.display().to_string())),
        source,
    };
    let mut file = std::fs::File::create(path).map_err(io)?;
    serde_json::to_writer_pretty(&mut file, doc).map_err(|e| io(e.into()))?;
    writeln!(file).map_err(io)
}
