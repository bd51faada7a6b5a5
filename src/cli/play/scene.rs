//! What a playback shows, independent of where it goes: the pedestrians of the file as a
//! crowd, the walkable area's floor and walls, the camera framing the area (or riding behind
//! one pedestrian), and the light.

use std::sync::Arc;

use glam::{DVec2, Vec3, Vec4};
use throng::anim::{Mat3x4, SkinnedModel};
use throng::crowd::{AnimationMode, BakeSettings, Crowd};
use throng::gpu::{FrameInputs, Renderer, ViewMode};
use throng::motion::trajectory::TrackStore;
use throng::motion::{
    ColorBy, DeviceStep, Follower, GaitClips, GaitSpeeds, PlayModel, Playback, PlaybackSettings,
    TracksOnDevice, ramp_looks, walkable_areas,
};
use throng::scene::{
    Camera, DEFAULT_FOV_Y, Light, OrbitCamera, WallStyle, footprint, model_basis, model_looks,
    play_models_in_place, shadow_casting_box, standing_basis, walkable_model,
};

use super::{PlayArgs, PlayCameraArg};
use crate::cli::CliError;
use crate::cli::crowd_args::CrowdStateArg;

/// Looks per pedestrian model with `--variety on`.
const LOOKS: usize = 64;

/// See the module documentation.
pub struct PlayScene {
    /// The crowd: the scenery first (when the file has an area), then the pedestrians.
    pub crowd: Crowd,
    /// The pedestrians' playback (on the CPU path it moves the crowd; with `tracks` it
    /// holds the file and the tables the GPU's copy is made from).
    pub playback: Playback,
    /// The pedestrians placed and paced on the GPU (`--crowd-state`): the pool's slots and
    /// the samples handed to them.
    tracks: Option<TracksOnDevice>,
    /// Where the pedestrians are placed and paced, for the start-up line.
    state_line: String,
    /// The file time last shown, and the step to it, which the frame's inputs carry (what
    /// adapts over time follows the time shown).
    shown: (Option<f64>, f32),
    /// The floor and walls, when the file has a walkable area.
    scenery: Option<Arc<SkinnedModel>>,
    /// The pedestrians' models, in crowd order after the scenery.
    models: Vec<Arc<SkinnedModel>>,
    light: Light,
    ground_plane: Vec4,
    ground_tile: f32,
    ssao_radius: f32,
    view: ViewMode,
    /// The box of the area and every sample, world space, up to head height.
    area: (Vec3, Vec3),
    camera: PlayCameraArg,
    /// With `--follow`, the pedestrian ridden behind, played on its own (on either path the
    /// camera reads it there, not among the crowd).
    follower: Option<Follower>,
}

impl PlayScene {
    /// The crowd of `file` as `args` say.
    pub fn build(args: &PlayArgs, file: TrackStore) -> Result<Self, CliError> {
        let (lo, hi) = file.bounds();
        let origin = 0.5 * (DVec2::from(lo) + DVec2::from(hi));
        let models = play_models_in_place(args.load.load_models(&args.models)?)?.models;
        let named = args.clips.clone().unwrap_or_default();
        let gaits = models
            .iter()
            .map(|m| GaitClips::of(m, &named).map_err(|e| CliError::Argument(e.0)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut crowd = Crowd::new(args.threads)?;
        let style = WallStyle {
            height: args.wall_height,
            ..WallStyle::default()
        };
        let scenery =
            walkable_model(&walkable_areas(file.geometry()), origin, style)?.map(Arc::new);
        if let Some(s) = &scenery {
            let id = crowd.add_model(s.clone());
            crowd.spawn(id, Mat3x4::IDENTITY)?;
        }
        let base = crowd.len();
        let mut play_models = Vec::with_capacity(models.len());
        for (m, g) in models.iter().zip(gaits) {
            let id = crowd.add_model(m.clone());
            let looks = if args.variety.on() {
                model_looks(m, 7, LOOKS)
                    .into_iter()
                    .map(|look| crowd.add_look(look))
                    .collect::<Result<Vec<_>, _>>()?
            } else {
                Vec::new()
            };
            let ramp = if args.color_by.is_some() {
                ramp_looks(m)
                    .into_iter()
                    .map(|look| crowd.add_look(look))
                    .collect::<Result<Vec<_>, _>>()?
            } else {
                Vec::new()
            };
            play_models.push(PlayModel {
                id,
                standing: standing_basis(m),
                height: footprint(m).1,
                gaits: g,
                looks,
                ramp,
            });
        }
        let settings = PlaybackSettings {
            smooth: args.smooth,
            turn_rate: args.turn_rate.to_radians(),
            fade: 0.25,
            speeds: GaitSpeeds::default(),
            default_height: args.person_height,
            height_variety: if args.variety.on() { 0.04 } else { 0.0 },
            origin,
            color_by: args.color_by.map(ColorBy::from),
        };
        let mut playback = Playback::new(file, play_models, settings, base);
        let follower = match args.follow {
            Some(id) => Some(
                Follower::new(&playback, &crowd, id)?
                    .ok_or_else(|| no_such_pedestrian(id, &playback))?,
            ),
            None => None,
        };
        let (tracks, state_line) = match on_gpu(args).and_then(|()| TracksOnDevice::new(&playback))
        {
            Ok(mut tracks) => {
                tracks.spawn_pool(&playback, &mut crowd)?;
                // The followed pedestrian is also played on the CPU, for the camera.
                let followed = args
                    .follow
                    .map(|id| format!("; pedestrian {id} also on the CPU, for --follow"))
                    .unwrap_or_default();
                let line = format!(
                    "pedestrians: placed and paced on the GPU, a pool of {} with {} samples \
                     each held (--crowd-state){followed}",
                    tracks.slots(),
                    tracks.ring()
                );
                (Some(tracks), line)
            }
            Err(why) if args.crowd_state == CrowdStateArg::Gpu => {
                return Err(CliError::Argument(format!("--crowd-state gpu: {why}")));
            }
            Err(why) => {
                playback.reserve(&mut crowd)?;
                let line = if why.is_empty() {
                    "pedestrians: placed and paced on the CPU".to_string()
                } else {
                    format!("pedestrians: placed and paced on the CPU: {why}")
                };
                (None, line)
            }
        };
        crowd.set_animation(AnimationMode::Auto);
        crowd.bake(BakeSettings::default());
        let tallest = args.person_height * 1.04;
        let to_world = |p: [f64; 2]| playback.to_world(DVec2::from(p));
        let (a, b) = (to_world(lo), to_world(hi));
        let area = (a.min(b), a.max(b) + Vec3::Y * tallest.max(args.wall_height));
        let centre = 0.5 * (area.0 + area.1);
        let half = 0.5 * (area.1 - area.0).x.max((area.1 - area.0).z);
        let ground_tile = tallest * 0.55;
        Ok(Self {
            crowd,
            playback,
            tracks,
            shown: (None, 1.0 / 60.0),
            state_line,
            scenery,
            models,
            light: Light::default_sun(),
            ground_plane: Vec4::new(centre.x, centre.z, half * 4.0 + 4.0 * ground_tile, 0.0),
            ground_tile,
            ssao_radius: tallest * 0.2,
            view: args.view.into(),
            area,
            camera: args.camera,
            follower,
        })
    }

    /// Uploads the scenery and the models to `renderer`, in crowd order, with the crowd's
    /// baked frames and looks, and on the GPU path the crowd's state and the pool's tables.
    pub fn upload(&mut self, renderer: &mut Renderer) -> Result<(), CliError> {
        if let Some(s) = &self.scenery {
            renderer.add_scenery(s, &model_basis(s))?;
        }
        for m in &self.models {
            renderer.add_model(m, &model_basis(m))?;
        }
        renderer.upload_baked(&self.crowd)?;
        renderer.upload_looks(&self.crowd)?;
        if let Some(tracks) = &self.tracks {
            renderer.set_crowd_playback(&mut self.crowd, tracks, &self.playback)?;
        }
        Ok(())
    }

    /// Shows file time `t` in `renderer`'s next frame: on the CPU path the playback moves the
    /// crowd; on the GPU path the slots' changes and the samples read are handed to the
    /// renderer with the step.
    pub fn advance(&mut self, renderer: &mut Renderer, t: f64) -> Result<(), CliError> {
        // A seek is a step of at most a second.
        let step = self
            .shown
            .0
            .map_or(self.shown.1, |s| (t - s).abs().min(1.0) as f32);
        self.shown = (Some(t), step);
        match self.tracks.as_mut() {
            Some(tracks) => {
                let step = tracks.advance_to(&self.playback, t)?;
                let (commands, writes) = tracks.uploads();
                renderer.step_crowd_tracks(step, commands, writes);
                renderer.step_crowd_state(DeviceStep::held(self.crowd.len(), step.dt));
            }
            None => {
                self.playback.advance_to(&mut self.crowd, t)?;
            }
        }
        if let Some(follower) = self.follower.as_mut() {
            follower.advance_to(t)?;
        }
        Ok(())
    }

    /// Pedestrians present at the time shown.
    pub fn present(&self) -> usize {
        match &self.tracks {
            Some(tracks) => tracks.present(&self.playback),
            None => self.playback.present(),
        }
    }

    /// Samples held for the pedestrians (on the GPU path, the rings' room).
    pub fn held_samples(&self) -> usize {
        match &self.tracks {
            Some(tracks) => tracks.slots() * tracks.ring() as usize,
            None => self.playback.held_samples().0,
        }
    }

    /// Where the pedestrians are placed and paced, as the start-up line says it.
    pub fn state_line(&self) -> &str {
        &self.state_line
    }

    /// "builtin", or "builtin + robot".
    pub fn model_names(&self) -> String {
        let names: Vec<String> = self
            .models
            .iter()
            .map(|m| throng::text::printable(m.name()).into_owned())
            .collect();
        names.join(" + ")
    }

    /// Whether the file's walkable area is drawn.
    pub fn has_scenery(&self) -> bool {
        self.scenery.is_some()
    }

    /// The camera now: riding behind the followed pedestrian while it is present, else the
    /// framing `--camera` asked for.
    pub fn camera(&self, aspect: f32) -> Camera {
        if let Some(c) = self.follower.as_ref().and_then(|f| self.behind(f)) {
            return c;
        }
        let (lo, hi) = self.area;
        match self.camera {
            PlayCameraArg::Overview => OrbitCamera::framing(lo, hi, aspect).camera(),
            PlayCameraArg::Top => top_down(lo, hi, aspect),
        }
    }

    /// With `--follow`: the pedestrian's id, and its speed (m/s) while it is present.
    pub fn followed(&self) -> Option<(u64, Option<f32>)> {
        let f = self.follower.as_ref()?;
        Some((f.id(), f.state().map(|m| m.speed)))
    }

    /// A camera behind and above the followed pedestrian, looking where it goes; `None`
    /// while it is not present.
    fn behind(&self, follower: &Follower) -> Option<Camera> {
        let m = follower.state()?;
        let at = follower.playback().to_world(m.position);
        let forward = Vec3::new(m.heading.sin(), 0.0, m.heading.cos());
        let head = Vec3::Y * 1.7;
        let (lo, hi) = self.area;
        Some(
            OrbitCamera::looking(
                at + head + Vec3::Y * 0.9 - forward * 3.2,
                at + head * 0.6 + forward * 3.0,
                lo,
                hi,
            )
            .camera(),
        )
    }

    /// What the renderer needs for a frame of `aspect` (width / height).
    pub fn inputs(&self, aspect: f32) -> FrameInputs {
        let mut inputs = FrameInputs::new(
            &self.camera(aspect),
            aspect,
            &self.light,
            self.ground_plane,
            self.ground_tile,
            self.view,
        );
        inputs.shadow_box = self.shadow_box();
        inputs.ssao_radius = self.ssao_radius;
        inputs.dt = self.shown.1;
        inputs
    }

    /// The area, raised to head height, plus where its top casts its shadow.
    fn shadow_box(&self) -> (Vec3, Vec3) {
        shadow_casting_box(self.light.sun.direction, self.area.0, self.area.1)
    }
}

/// Whether `args` let the pedestrians be placed on the GPU: `Err` says why not (empty when
/// `--crowd-state cpu` asked for the CPU).
fn on_gpu(args: &PlayArgs) -> Result<(), String> {
    if args.crowd_state == CrowdStateArg::Cpu {
        return Err(String::new());
    }
    if args.export.is_some() {
        return Err("--export reads every pedestrian on the CPU".into());
    }
    Ok(())
}

/// `--follow ID` naming nobody in the file, with the ids it has.
fn no_such_pedestrian(id: u64, playback: &Playback) -> CliError {
    let ids = playback.store().summaries().iter().map(|s| s.id);
    let range = match (ids.clone().min(), ids.max()) {
        (Some(lo), Some(hi)) => format!(" (its ids run from {lo} to {hi})"),
        _ => String::new(),
    };
    CliError::Argument(format!(
        "--follow {id}: {} has no pedestrian with that id{range}",
        playback.store().file().display()
    ))
}

/// Straight down on `lo..hi`, the file's +y up the picture (the world's -z).
fn top_down(lo: Vec3, hi: Vec3, aspect: f32) -> Camera {
    let centre = 0.5 * (lo + hi);
    let (w, d) = ((hi - lo).x * 0.5, (hi - lo).z * 0.5);
    let half_fov = 0.5 * DEFAULT_FOV_Y;
    let fit = d.max(w / aspect.max(1e-3)) * 1.08;
    let distance = fit / half_fov.tan() + hi.y;
    let eye = Vec3::new(centre.x, distance, centre.z);
    Camera {
        eye,
        target: Vec3::new(centre.x, 0.0, centre.z),
        up: Vec3::NEG_Z,
        fov_y: DEFAULT_FOV_Y,
        near: (distance - hi.y - 1.0).max(0.05),
        far: distance + 1.0,
    }
}
