//! Locomotion from motion: characters whose source (a trajectory file, the host program's own
//! simulation) says where each one is and how fast it moves, turned into a crowd that walks.
//! Each character plays standing, walking or running by its speed (with hysteresis and
//! cross-fades), at the rate its clip's stride needs for its feet to stay planted, faces along
//! its velocity turning at a bounded rate (kept while standing), turns about its planted foot
//! rather than its root, and may be tinted by its speed or local density.
//!
//! The crowd's index `base + k` is the `k`-th character: one that leaves is despawned and the
//! crowd's last character takes its index, as this list does (the source mirrors it, as with
//! [`Crowd::despawn`]). Instances below `base` (a scene's walls) are never touched. Once the
//! lists hold the most characters ever present, nothing allocates.
//!
//! Works on either path of the crowd's state: every change goes through the crowd's API
//! ([`Crowd::spawn`], [`Crowd::despawn`], [`Crowd::set_world`], [`Crowd::play`],
//! [`Crowd::set_speed`], [`Crowd::set_look`]), which a crowd whose state lives on the GPU
//! hands on. It reads each character's clip time for the planted foot and the stride, so a
//! program with its crowd's state on the GPU still calls [`Crowd::update`] (the clocks' work
//! only: records and palettes stay on the GPU). A file played with its state on the GPU
//! instead runs these same rules in `shaders/track_step.comp`, with the constants given from
//! here.

use glam::{DVec2, Quat, Vec3, Vec3A};

use super::coloring::{ColorBy, DensityGrid};
use super::gait::Gait;
use super::heading::{heading_of, turn_towards};
use super::identity::{mix, unit};
use super::pivot::pivoted;
use crate::anim::Mat3x4;
use crate::crowd::{Crowd, CrowdError};

mod given;

pub use given::{MemberState, PlayModel, PlaybackSettings};

/// A character joining: who it is and where its source says it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arrival {
    /// The source's own number for it (a trajectory's index, a program's handle), reported
    /// back by [`Locomotion::leave`] when the character moves to another index.
    pub key: u64,
    /// Its id: what [`Locomotion::member`] reports, and what its look and where in its clip it
    /// starts are drawn from (the same id gives the same character).
    pub id: u64,
    /// Its model (an index into [`Locomotion::models`]).
    pub model: usize,
    /// Its size relative to its model's.
    pub scale: f32,
    /// Where it stands, in the source's plane (metres).
    pub position: DVec2,
    /// How it moves, metres per second: its gait comes from its speed.
    pub velocity: DVec2,
    /// Which way it faces as it enters (zero: along `velocity`; neither: +Z).
    pub facing: DVec2,
}

/// One character present.
#[derive(Clone, Copy, Debug)]
struct Member {
    key: u64,
    id: u64,
    model: u32,
    scale: f32,
    gait: Gait,
    heading: f32,
    speed: f32,
    /// Where it stood at the last step (the source's plane).
    position: DVec2,
    /// Where its source says it is now, and how it moves.
    said: DVec2,
    velocity: DVec2,
    /// Its step of the colour ramp ([`NO_STEP`] before the first).
    step: u8,
    /// Its local density, persons per m² (0 unless colouring by density; counted up to the
    /// ramp's top, `coloring::top_count`).
    density: f32,
    /// How far its root stands from where its source says, metres: what turning about the
    /// planted foot instead of the root moved it by.
    pivot: DVec2,
}

/// A member's ramp step before it has one.
const NO_STEP: u8 = u8::MAX;

/// See the module documentation.
pub struct Locomotion {
    members: Vec<Member>,
    base: usize,
    models: Vec<PlayModel>,
    settings: PlaybackSettings,
    /// Scratch of a step: members' positions and densities, and the density grid.
    positions: Vec<DVec2>,
    densities: Vec<f32>,
    grid: DensityGrid,
}

impl Locomotion {
    /// Characters drawn as `models` (at least one), played with `settings` (its smoothing
    /// window only says whether a character turns about its planted foot: 0 keeps each exactly
    /// where its source says), into a crowd whose instances from `base` on are theirs, with
    /// room for `most` at once.
    pub fn new(
        models: Vec<PlayModel>,
        settings: PlaybackSettings,
        base: usize,
        most: usize,
    ) -> Self {
        Self {
            members: Vec::with_capacity(most),
            base,
            models,
            settings,
            positions: Vec::with_capacity(most),
            densities: Vec::with_capacity(most),
            grid: DensityGrid::with_capacity(most),
        }
    }

    /// Grows `crowd` once to hold `most` more characters (spawned and despawned again), so
    /// that entering allocates nothing until more are present; the crowd is left as it was.
    pub fn reserve(&mut self, crowd: &mut Crowd, most: usize) -> Result<(), CrowdError> {
        self.members.reserve(most);
        self.positions.reserve(most);
        self.densities.reserve(most);
        let Some(model) = self.models.first() else {
            return Ok(());
        };
        let before = crowd.len();
        for _ in 0..most {
            crowd.spawn(model.id, Mat3x4::IDENTITY)?;
        }
        while crowd.len() > before {
            crowd.despawn(crowd.len() - 1)?;
        }
        Ok(())
    }

    /// Characters present.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether none is present.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The crowd index of the first character.
    pub fn base(&self) -> usize {
        self.base
    }

    /// The models characters are drawn as.
    pub fn models(&self) -> &[PlayModel] {
        &self.models
    }

    /// For tests: the models, to plant a fault in.
    #[cfg(test)]
    pub(crate) fn models_mut(&mut self) -> &mut [PlayModel] {
        &mut self.models
    }

    /// The settings they are played with.
    pub fn settings(&self) -> &PlaybackSettings {
        &self.settings
    }

    /// The `k`-th character (crowd index `base + k`).
    pub fn member(&self, k: usize) -> Option<MemberState> {
        let m = self.members.get(k)?;
        Some(MemberState {
            id: m.id,
            position: m.position,
            heading: m.heading,
            speed: m.speed,
            gait: m.gait,
            scale: m.scale,
            density: m.density,
        })
    }

    /// The source's key of the `k`-th character.
    pub fn key(&self, k: usize) -> Option<u64> {
        self.members.get(k).map(|m| m.key)
    }

    /// The model (index into [`Self::models`]) the `k`-th character is drawn as.
    pub fn member_model(&self, k: usize) -> Option<usize> {
        self.members.get(k).map(|m| m.model as usize)
    }

    /// Adds a character to the crowd where its source says it is, in the gait of its speed,
    /// facing as it says, somewhere in its clip (drawn from its id); returns its index `k`.
    pub fn enter(&mut self, crowd: &mut Crowd, a: Arrival) -> Result<usize, CrowdError> {
        let model = self
            .models
            .get(a.model)
            .ok_or(CrowdError::UnknownModel(a.model))?;
        let speed = a.velocity.length() as f32;
        let facing = if a.facing.length() > 1e-6 {
            a.facing
        } else {
            a.velocity
        };
        let heading = if facing.length() > 1e-6 {
            heading_of(facing.as_vec2())
        } else {
            0.0
        };
        let gait = self.settings.speeds.first(speed, model.gaits.can_run);
        let world = self.world(a.position, heading, a.scale, &model.standing);
        let i = crowd.spawn(model.id, world)?;
        crowd.play(i, model.gaits.clips[gait.index()], 0.0)?;
        if !model.looks.is_empty() {
            let look = model.looks[(mix(a.id, 3) % model.looks.len() as u64) as usize];
            crowd.set_look(i, look)?;
        }
        let inst = crowd.instance_mut(i);
        let duration = inst.model().clips()[inst.clip()].duration();
        let time = unit(mix(a.id, 4)) * duration;
        inst.set_time(time);
        inst.set_speed(model.gaits.rate(gait, speed, a.scale, time));
        self.members.push(Member {
            key: a.key,
            id: a.id,
            model: a.model as u32,
            scale: a.scale,
            gait,
            heading,
            speed,
            position: a.position,
            said: a.position,
            velocity: a.velocity,
            step: NO_STEP,
            density: 0.0,
            pivot: DVec2::ZERO,
        });
        Ok(self.members.len() - 1)
    }

    /// Takes the `k`-th character out of the crowd; the last one takes its index, in the
    /// crowd and here. Returns that one's key (`None` when `k` was the last).
    pub fn leave(&mut self, crowd: &mut Crowd, k: usize) -> Result<Option<u64>, CrowdError> {
        if k >= self.members.len() {
            return Err(CrowdError::UnknownInstance(self.base + k));
        }
        crowd.despawn(self.base + k)?;
        self.members.swap_remove(k);
        Ok(self.members.get(k).map(|m| m.key))
    }

    /// Where the `k`-th character's source says it is now, and how it moves (metres, metres
    /// per second, in the source's plane): the next [`Self::step`] takes it there.
    pub fn place(&mut self, k: usize, position: DVec2, velocity: DVec2) {
        if let Some(m) = self.members.get_mut(k) {
            m.said = position;
            m.velocity = velocity;
        }
    }

    /// Places, turns, paces (and tints) every character where [`Self::place`] said, `dt`
    /// seconds after the last step; returns the gait changes.
    pub fn step(&mut self, crowd: &mut Crowd, dt: f32) -> Result<usize, CrowdError> {
        let s = self.settings;
        self.positions.clear();
        self.positions.extend(self.members.iter().map(|m| m.said));
        self.densities.clear();
        self.densities.resize(self.members.len(), 0.0);
        if s.color_by == Some(ColorBy::Density) {
            let most = super::coloring::top_count();
            self.grid
                .densities_up_to(&self.positions, &mut self.densities, most);
        }
        let mut changes = 0;
        for k in 0..self.members.len() {
            let m = self.members[k];
            let model = &self.models[m.model as usize];
            let speed = m.velocity.length() as f32;
            let gait = s.speeds.next(m.gait, speed, model.gaits.can_run);
            let i = self.base + k;
            if gait != m.gait {
                crowd.play(i, model.gaits.clips[gait.index()], s.fade)?;
                changes += 1;
            }
            let heading = if gait != Gait::Stand && speed > 1e-6 {
                let target = heading_of(m.velocity.as_vec2());
                turn_towards(m.heading, target, s.turn_rate, dt)
            } else {
                m.heading
            };
            let position = m.said;
            let pivot = if s.smooth > 0.0 {
                let time = crowd.instance(i).time();
                let foot = model.gaits.stances[gait.index()].planted_foot(time);
                pivoted(
                    m.pivot,
                    m.position + m.pivot,
                    m.heading,
                    heading,
                    foot,
                    m.scale,
                    dt,
                )
            } else {
                // Exactly where the source says, as asked.
                DVec2::ZERO
            };
            crowd.set_world(
                i,
                self.world(position + pivot, heading, m.scale, &model.standing),
            );
            // How far forward the body went since the last step: the clip's planted foot
            // slides back as far over the same step.
            let forward = DVec2::new(f64::from(heading.sin()), -f64::from(heading.cos()));
            let distance = ((position - m.position).dot(forward) as f32).max(0.0);
            let time = crowd.instance(i).time();
            let rate = if gait == m.gait {
                model
                    .gaits
                    .step_rate(gait, (distance, dt), speed, m.scale, time)
            } else {
                model.gaits.rate(gait, speed, m.scale, time)
            };
            crowd.set_speed(i, rate);
            let density = self.densities[k];
            let mut step = m.step;
            if let Some(by) = s.color_by {
                let value = match by {
                    ColorBy::Speed => speed,
                    ColorBy::Density => density,
                };
                let want = by.step(value) as u8;
                if want != m.step
                    && let Some(&look) = model.ramp.get(usize::from(want))
                {
                    crowd.set_look(i, look)?;
                    step = want;
                }
            }
            self.members[k] = Member {
                gait,
                heading,
                speed,
                position,
                step,
                density,
                pivot,
                ..m
            };
        }
        Ok(changes)
    }

    /// The world transform of a character at `position` (the source's plane) facing
    /// `heading`, scaled by `scale`, its model stood on the ground by `standing`.
    pub fn world(&self, position: DVec2, heading: f32, scale: f32, standing: &Mat3x4) -> Mat3x4 {
        let at = self.to_world(position);
        Mat3x4::from_trs(
            Vec3A::from(at),
            Quat::from_rotation_y(heading),
            Vec3A::splat(scale),
        )
        .mul(standing)
    }

    /// A point of the source's ground plane in the world (on the ground, y = 0).
    pub fn to_world(&self, position: DVec2) -> Vec3 {
        let d = position - self.settings.origin;
        Vec3::new(d.x as f32, 0.0, -d.y as f32)
    }

    /// A world point in the source's coordinates: (x, y) on the ground plane and z up.
    pub fn to_file(&self, world: Vec3) -> [f64; 3] {
        [
            f64::from(world.x) + self.settings.origin.x,
            -f64::from(world.z) + self.settings.origin.y,
            f64::from(world.y),
        ]
    }
}
