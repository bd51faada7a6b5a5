//! What `run` and `bench frame` show, independent of where it goes: the models, the crowd
//! laid out and moved by `scene`, the camera framing it, the light, and one animation step per
//! frame.

use std::sync::Arc;
use std::time::Instant;

use glam::{Vec3, Vec4};
use throng::anim::{Mat3x4, Playback, SkinnedModel};
use throng::crowd::{AnimationCounts, AnimationMode, BakeReport, BakeSettings, Crowd, ModelId};
use throng::gpu::{FrameInputs, GpuError, Raster, Renderer, ViewMode};
use throng::motion::{CrowdMotion, WalkPaths};
use throng::scene::{
    Camera, CrowdLayout, Light, ModelHeight, OrbitCamera, Variety, crowd_bounds, footprint,
    leave_props_off, model_basis, play_models_in_place, shadow_casting_box,
};

use super::CliError;
use super::crowd_args::{CameraArg, CrowdStateArg};
use super::output::shown;
use super::stats::{CameraJson, ClipChangesJson, StatsJson};

mod report;

use report::{root_motion_lines, scale_line};

/// A held pose: `--pose CLIP@SECONDS`.
#[derive(Clone, Debug)]
struct Pose {
    clip: String,
    time: f32,
}

fn parse_pose(spec: &str) -> Result<Pose, CliError> {
    let bad = || CliError::Argument(format!("--pose '{spec}' is not CLIP@SECONDS"));
    let (clip, time) = spec.rsplit_once('@').ok_or_else(bad)?;
    let time: f32 = time.parse().map_err(|_| bad())?;
    if clip.is_empty() || !time.is_finite() {
        return Err(bad());
    }
    Ok(Pose {
        clip: clip.to_string(),
        time,
    })
}

/// The crowd and its surroundings; see the module documentation.
pub struct Session {
    /// The models, in crowd order.
    pub models: Vec<Arc<SkinnedModel>>,
    /// The animated instances.
    pub crowd: Crowd,
    /// The camera (orbit-controlled in a window).
    pub camera: OrbitCamera,
    /// The two cameras a run starts from (`--camera`), for the window's V key.
    framings: [OrbitCamera; 2],
    /// Which of them the camera started from last.
    framing: CameraArg,
    light: Light,
    ground_plane: Vec4,
    ground_tile: f32,
    /// Largest footprint radius and height of the models (padding of the shadow box).
    reach: (f32, f32),
    /// The box of every place an instance's origin can be (the walkers' whole paths).
    feet: (Vec3, Vec3),
    ssao_radius: f32,
    view: ViewMode,
    /// Clip changes and walkers (`None` for a held pose, which stands still).
    motion: Option<CrowdMotion>,
    /// The start-up line saying how the models were scaled, when they were.
    scale_line: Option<String>,
    /// The start-up lines naming the clips that walk by root motion, one per model that has
    /// any.
    root_motion_lines: Vec<String>,
    /// What baking the clips did (`None` with exact animation).
    bake: Option<BakeReport>,
    bake_settings: BakeSettings,
    /// Whether the window's camera is in fly mode (for `--stats-json`).
    flying: bool,
    /// Whether the crowd's state lives on the GPU (`--crowd-state`).
    state_on_gpu: bool,
    /// What `--crowd-state` asked for.
    state_asked: CrowdStateArg,
    /// The start-up line saying where the state is advanced (made by `upload`).
    state_line: String,
    /// With the state on the GPU, instance 0's record's index.
    first_slot: usize,
    /// The last step's seconds, which the frame's inputs carry (what adapts over time).
    last_dt: f32,
}

/// What a session is made of.
pub struct SessionSpec<'a> {
    /// The models, in crowd order.
    pub models: Vec<Arc<SkinnedModel>>,
    /// Instances, all models together.
    pub instances: usize,
    /// Layout seed.
    pub seed: u64,
    /// Palette worker threads (0: one per core).
    pub threads: usize,
    /// `--pose CLIP@SECONDS`.
    pub pose: Option<&'a str>,
    /// What frames show.
    pub view: ViewMode,
    /// Frame width / height, for the camera's framing.
    pub aspect: f32,
    /// Ambient-occlusion radius in world units (`None`: a fifth of the tallest model).
    pub ssao_radius: Option<f32>,
    /// Where palettes come from.
    pub animation: AnimationMode,
    /// How clips are baked (unless animation is exact).
    pub bake: BakeSettings,
    /// Where the camera starts.
    pub camera: CameraArg,
    /// How tall the models stand.
    pub height: ModelHeight,
    /// What the layout varies between instances.
    pub variety: Option<Variety>,
    /// Where the walkers go.
    pub paths: WalkPaths,
    /// Where the crowd's state is advanced.
    pub crowd_state: CrowdStateArg,
    /// Per model, the materials its props added (`--attach`), and the share of the instances
    /// carrying them (`--attach-share`).
    pub props: (Vec<std::ops::Range<usize>>, f32),
}

impl Session {
    /// Lays out the crowd of `spec`.
    pub fn build(spec: SessionSpec<'_>) -> Result<Self, CliError> {
        let gpu = spec.crowd_state == CrowdStateArg::Gpu;
        if gpu && spec.animation == AnimationMode::Exact {
            return Err(CliError::Argument(
                "--crowd-state gpu draws the far crowd from baked frames: it needs \
                 --animation baked or auto"
                    .into(),
            ));
        }
        if gpu && spec.pose.is_some() {
            return Err(CliError::Argument(
                "--crowd-state gpu moves the crowd; a held --pose stays on the CPU".into(),
            ));
        }
        let state_on_gpu = match spec.crowd_state {
            CrowdStateArg::Gpu => true,
            CrowdStateArg::Cpu => false,
            CrowdStateArg::Auto => spec.animation != AnimationMode::Exact && spec.pose.is_none(),
        };
        let in_place = play_models_in_place(spec.models)?;
        let mut crowd = Crowd::new(spec.threads)?;
        let ids: Vec<ModelId> = in_place
            .models
            .iter()
            .map(|m| crowd.add_model(m.clone()))
            .collect();
        // A held pose stands where the layout puts it, turned as the layout turns it.
        let paths = if spec.pose.is_none() {
            spec.paths
        } else {
            WalkPaths::InPlace
        };
        let layout = paths.prepare_layout(CrowdLayout {
            height: spec.height,
            variety: spec.variety,
            ..CrowdLayout::new(spec.instances, spec.seed)
        });
        let models = &in_place.models;
        let scales = layout.model_scales(models);
        let scale_line = scale_line(spec.height, models, &scales);
        let root_motion_lines = root_motion_lines(models, &scales, &in_place.root_motion);
        let placed = layout.spawn(&mut crowd, &ids)?;
        leave_props_off(&mut crowd, &spec.props.0, spec.props.1, spec.seed)?;
        let motion = spec
            .pose
            .is_none()
            .then(|| CrowdMotion::new(paths, &layout, &in_place, &placed));
        let models = in_place.models;
        let pose = spec.pose.map(parse_pose).transpose()?;
        if let Some(pose) = &pose {
            // Resolve against every model first, so a bad name fails before anything moves.
            let clips = models
                .iter()
                .map(|m| {
                    m.resolve_clip(&pose.clip)
                        .map_err(|e| CliError::Argument(format!("--pose: {}: {e}", m.name())))
                })
                .collect::<Result<Vec<_>, _>>()?;
            // A time outside the clip holds its first or last pose, as `throng pose` does.
            for (m, &c) in models.iter().zip(&clips) {
                let duration = m.clips().get(c).map_or(0.0, |clip| clip.duration());
                if !(0.0..=duration).contains(&pose.time) {
                    log::warn!(
                        "--pose {}@{}: {}'s clip lasts {duration:.3} s; holding its pose at {:.3} s",
                        throng::text::printable(&pose.clip),
                        pose.time,
                        throng::text::printable(m.name()),
                        pose.time.clamp(0.0, duration)
                    );
                }
            }
            for (i, p) in placed.iter().enumerate() {
                let inst = crowd.instance_mut(i);
                inst.play(clips[p.model], 0.0)?;
                inst.set_playback(Playback::Clamp);
                inst.set_time(pose.time);
                inst.set_speed(0.0);
            }
        }
        let aspect = spec.aspect;
        // The camera frames the crowd as it stands without variety's heights, so turning
        // variety on or off changes what is seen, not where from.
        let framed = match layout.variety {
            Some(_) => CrowdLayout {
                variety: None,
                ..layout
            }
            .place(&models),
            None => Vec::new(),
        };
        let framed = if framed.is_empty() { &placed } else { &framed };
        let bounds = crowd_bounds(framed, &models)
            .ok_or_else(|| CliError::Argument("the models have no vertices to frame".into()))?;
        // Limbs swing past the bind pose: frame a slightly larger box.
        let margin = (bounds.max - bounds.min).max_element() * 0.05;
        let (lo, hi) = (
            bounds.min - Vec3::splat(margin),
            bounds.max + Vec3::splat(margin),
        );
        let centre = 0.5 * (lo + hi);
        let half = 0.5 * (hi - lo).x.max((hi - lo).z);
        let scaled = |pick: fn((f32, f32)) -> f32| {
            models
                .iter()
                .zip(&scales)
                .map(|(m, s)| pick(footprint(m)) * s)
                .fold(0.0, f32::max)
        };
        let (widest, tallest) = (scaled(|f| f.0), scaled(|f| f.1));
        // Where the crowd can stand while it walks, for the shadow map's box: found once, so
        // no frame visits every instance for it (and the GPU's walkers need not be read).
        let mut feet = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for p in &placed {
            let t = p.world.translation();
            feet = (feet.0.min(t), feet.1.max(t));
        }
        let feet = match &motion {
            Some(m) if feet.0.is_finite() => m.reach_of(feet.0, feet.1),
            _ => feet,
        };
        let overview = OrbitCamera::framing(lo, hi, aspect);
        // Three rows in from the front, at the eyes of the tallest model.
        let cell = layout.cell_size(&models);
        let at: Vec<Vec3> = framed.iter().map(|p| p.world.translation()).collect();
        let lanes = paths == WalkPaths::Lanes;
        let street = OrbitCamera::street(bounds.min, bounds.max, &at, tallest * 0.94, cell, lanes);
        let framings = [overview, street];
        let camera = match spec.camera {
            CameraArg::Overview => overview,
            CameraArg::Street => street,
        };
        crowd.set_animation(spec.animation);
        let bake = (spec.animation != AnimationMode::Exact).then(|| crowd.bake(spec.bake));
        let ground_tile = if tallest > 0.0 { tallest * 0.55 } else { 1.0 };
        let ground_plane = Vec4::new(centre.x, centre.z, half * 4.0 + 4.0 * ground_tile, 0.0);
        Ok(Self {
            models,
            crowd,
            camera,
            framings,
            framing: spec.camera,
            light: Light::default_sun(),
            ground_plane,
            ground_tile,
            reach: (widest, tallest),
            feet,
            ssao_radius: spec.ssao_radius.unwrap_or(if tallest > 0.0 {
                tallest * 0.2
            } else {
                0.5
            }),
            view: spec.view,
            motion,
            scale_line,
            root_motion_lines,
            bake,
            bake_settings: spec.bake,
            flying: false,
            state_on_gpu,
            state_asked: spec.crowd_state,
            state_line: String::new(),
            first_slot: 0,
            last_dt: 1.0 / 60.0,
        })
    }

    /// The start-up line saying how the models were scaled to comparable heights, if they
    /// were.
    pub fn scale_line(&self) -> Option<&str> {
        self.scale_line.as_deref()
    }

    /// The start-up lines naming each model's clips that walk by root motion (played in
    /// place, moved at the speed their root travelled at).
    pub fn root_motion_lines(&self) -> &[String] {
        &self.root_motion_lines
    }

    /// The start-up lines about baked animation: its size against its limit, and one per
    /// clip left exact (`None` when nothing was baked).
    pub fn bake_lines(&self) -> Vec<String> {
        let Some(report) = &self.bake else {
            return Vec::new();
        };
        let mut lines = vec![format!(
            "baked animation: {} clips at {} fps, {:.1} MB of GPU memory (limit {:.0} MB, \
             --bake-memory)",
            report.clips,
            self.bake_settings.fps,
            report.bytes as f64 / 1e6,
            self.bake_settings.memory_limit as f64 / (1u64 << 20) as f64,
        )];
        lines.extend(report.left_out.iter().map(|l| format!("warning: {l}")));
        lines
    }

    /// Bakes the impostor atlases `renderer` needs (none with impostors off) within `memory`
    /// bytes, before the first frame, and returns a start-up line per model baked. A model
    /// whose atlas does not fit is reported by the renderer's own warning.
    pub fn prepare_impostors(
        &self,
        renderer: &mut Renderer,
        memory: u64,
    ) -> Result<Vec<String>, GpuError> {
        renderer.set_impostor_memory(memory);
        renderer.prepare_impostors(&self.crowd)?;
        let px = renderer.impostor_px();
        let drawn = match renderer.settings().card_raster {
            Raster::Compute => "rasterized in compute",
            _ => "drawn as quads",
        };
        Ok(renderer
            .impostor_report(&self.crowd)
            .iter()
            .filter_map(|r| {
                let ((views, frames, clips), seconds) = r.cells.zip(r.baked_seconds)?;
                let level = match r.level {
                    Some(0) | None => "the full mesh".to_string(),
                    Some(k) => format!("mesh level {k}"),
                };
                Some(format!(
                    "impostors: {} from {views} directions, {frames} frames of each of {clips} \
                     clips, {:.1} MB of GPU memory (limit {:.0} MB, --impostor-memory), baked \
                     from {level} in {seconds:.2} s; cards under {px:.0} px (--impostor-px), \
                     {drawn} (--card-raster)",
                    shown(&r.model),
                    r.bytes as f64 / 1e6,
                    memory as f64 / (1u64 << 20) as f64,
                ))
            })
            .collect())
    }

    /// Uploads every model to `renderer`, in crowd order, the crowd's baked frames and looks,
    /// and the crowd's state when it is advanced on the GPU. With `--crowd-state auto`, a crowd the
    /// GPU's copy cannot hold stays on the CPU, and the start-up line says why.
    pub fn upload(&mut self, renderer: &mut Renderer) -> Result<(), CliError> {
        for m in &self.models {
            renderer.add_model(m, &model_basis(m))?;
        }
        renderer.upload_baked(&self.crowd)?;
        renderer.upload_looks(&self.crowd)?;
        let on_gpu = match (self.state_on_gpu, &self.motion) {
            (true, Some(motion)) => match motion.on_device(&self.crowd) {
                Ok(tables) => {
                    self.first_slot = tables.walkers.first().map_or(0, |w| w.slot as usize);
                    renderer.set_crowd_state(&mut self.crowd, Some(&tables))?;
                    Ok(())
                }
                Err(e) if self.state_asked == CrowdStateArg::Gpu => {
                    return Err(CliError::Argument(format!("--crowd-state gpu: {e}")));
                }
                Err(e) => Err(e.to_string()),
            },
            _ => Err(String::new()),
        };
        self.state_on_gpu = on_gpu.is_ok();
        self.state_line = match on_gpu {
            Ok(()) => "crowd state: advanced on the GPU (near instances' exact palettes on the \
                       CPU; --crowd-state)"
                .into(),
            Err(why) if why.is_empty() => "crowd state: advanced on the CPU".into(),
            Err(why) => format!("crowd state: advanced on the CPU: {why}"),
        };
        Ok(())
    }

    /// The start-up line saying where the crowd's state is advanced (after `upload`).
    pub fn state_line(&self) -> &str {
        &self.state_line
    }

    /// Where the crowd's state is advanced, for statistics: `cpu` or `gpu`.
    pub fn state_place(&self) -> &'static str {
        if self.state_on_gpu { "gpu" } else { "cpu" }
    }

    /// Advances the crowd by `dt` seconds (a few instances cross-fade to another clip now
    /// and then, walkers walk); returns the CPU milliseconds it took. With the state on the
    /// GPU, only the clip-change schedule moves here: `renderer`'s next frame takes the step.
    pub fn advance(&mut self, dt: f32, renderer: &mut Renderer) -> Result<f64, CliError> {
        self.last_dt = dt;
        let start = Instant::now();
        match &mut self.motion {
            Some(motion) if renderer.has_crowd_state() => {
                renderer.step_crowd_state(motion.advance_on_device(self.crowd.len(), dt));
            }
            Some(motion) => motion.advance(&mut self.crowd, dt)?,
            // A held pose: its speed of 0 keeps every clock at the pose's time.
            None => self.crowd.update(dt),
        }
        Ok(start.elapsed().as_secs_f64() * 1e3)
    }

    /// How the last frame's palettes were made (with the state on the GPU, `renderer`
    /// knows).
    pub fn animation_counts(&self, renderer: &Renderer) -> AnimationCounts {
        renderer
            .crowd_state_counts(&self.crowd)
            .unwrap_or_else(|| self.crowd.counts())
    }

    /// Puts the camera back at the overview or the street framing; returns the framing's
    /// name.
    pub fn use_framing(&mut self, framing: CameraArg) -> &'static str {
        self.framing = framing;
        let (camera, name) = match framing {
            CameraArg::Overview => (self.framings[0], "overview"),
            CameraArg::Street => (self.framings[1], "street"),
        };
        self.camera = camera;
        name
    }

    /// The framing the camera started from last.
    pub fn framing(&self) -> CameraArg {
        self.framing
    }

    /// Says whether the camera is flown (WASD) rather than orbited.
    pub fn set_flying(&mut self, flying: bool) {
        self.flying = flying;
    }

    /// The camera now.
    pub fn camera(&self) -> Camera {
        self.camera.camera()
    }

    /// What the renderer needs to draw a frame of `aspect` (width / height).
    pub fn inputs(&self, aspect: f32) -> FrameInputs {
        let mut inputs = FrameInputs::new(
            &self.camera(),
            aspect,
            &self.light,
            self.ground_plane,
            self.ground_tile,
            self.view,
        );
        inputs.shadow_box = self.shadow_box();
        inputs.ssao_radius = self.ssao_radius;
        inputs.dt = self.last_dt;
        inputs
    }

    /// The box the sun's shadow frustum is fitted to: every place an instance can stand
    /// (the walkers' whole paths), widened by the widest footprint and raised to the tallest
    /// model, plus where the tops of those boxes cast their shadows onto the ground (away
    /// from the sun).
    fn shadow_box(&self) -> (Vec3, Vec3) {
        let (radius, height) = self.reach;
        let lo = self.feet.0 - Vec3::new(radius, 0.0, radius);
        let hi = self.feet.1 + Vec3::new(radius, height, radius);
        if !lo.is_finite() {
            return (Vec3::ZERO, Vec3::ONE);
        }
        shadow_casting_box(self.light.sun.direction, lo, hi)
    }

    /// Fills what the session knows of `--stats-json`: the crowd (its instance 0 standing at
    /// `first_world`, [`Self::first_world`]), the device and the frame of `width` x `height`
    /// pixels it was seen in.
    pub fn fill_stats(
        &self,
        doc: &mut StatsJson,
        device: &str,
        (width, height): (u32, u32),
        first_world: Mat3x4,
    ) {
        doc.instances = self.crowd.len();
        doc.joints_per_instance = self
            .models
            .iter()
            .map(|m| m.joint_count())
            .max()
            .unwrap_or(0);
        doc.device = device.to_string();
        doc.width = width;
        doc.height = height;
        doc.view_proj = self
            .inputs(width as f32 / height.max(1) as f32)
            .view_proj
            .to_cols_array();
        doc.instance_world = first_world.to_array();
        doc.crowd_state = self.state_place();
        doc.camera = CameraJson {
            eye: self.camera().eye.to_array(),
            target: self.camera().target.to_array(),
            mode: if self.flying { "fly" } else { "orbit" },
        };
        let mut changes: ClipChangesJson = self
            .motion
            .as_ref()
            .map(CrowdMotion::clip_changes)
            .unwrap_or_default()
            .into();
        if self.state_on_gpu {
            // The GPU skips a turn that comes during a fade without telling, and keeps no
            // instance's time of change: `changes` counts turns given.
            changes.deferred = None;
            changes.shortest_interval_s = None;
        }
        doc.clip_changes = changes;
    }

    /// "builtin", or "builtin + robot".
    pub fn model_names(&self) -> String {
        let names: Vec<String> = self
            .models
            .iter()
            .map(|m| shown(m.name()).into_owned())
            .collect();
        names.join(" + ")
    }

    /// Instance 0's world transform.
    pub fn first_world(&self, renderer: &mut Renderer) -> Result<Mat3x4, GpuError> {
        if self.crowd.is_empty() {
            Ok(Mat3x4::IDENTITY)
        } else if self.state_on_gpu {
            // Where the GPU last put it (the crowd's own copy stood still).
            let records = renderer.read_records(self.first_slot + 1)?;
            Ok(records
                .get(self.first_slot)
                .map_or(*self.crowd.world(0), |r| r.world))
        } else {
            Ok(*self.crowd.world(0))
        }
    }
}
