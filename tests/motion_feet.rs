//! Feet that do not slide, over a real laboratory experiment: the Jülich corridor (170
//! tracked pedestrians) played with robot.glb through the library, as `throng play` plays it,
//! at 30 frames a second. For every frame outside cross-fades, the lowest foot joint (its
//! height above the lowest that joint stands in the clip playing: a joint is not the sole),
//! when within 3 cm of it in this frame and the next, and its horizontal speed between them:
//! median at most 0.05 m/s, 95th percentile at most 0.20 m/s. Played at the clips' steady
//! rate times 1.5 (a rate that ignores the stride), the same measure fails.
//!
//! No GPU: the playback, the poses and the feet are the CPU's.

mod common;

use std::sync::Arc;

use glam::{DVec2, Vec3};
use throng::anim::{Mat3x4, PoseScratch, SkinnedModel};
use throng::crowd::Crowd;
use throng::motion::trajectory::TrackStore;
use throng::motion::{GaitClips, GaitSpeeds, PlayModel, Playback, PlaybackSettings};
use throng::scene::{
    StanceProfile, bind_positions, foot_joints, footprint, play_models_in_place, standing_basis,
};

const FPS: f64 = 30.0;

/// robot.glb, its clips treading in place as `throng play` plays them.
fn robot() -> Arc<SkinnedModel> {
    let path = common::shared_asset("gltf/robot.glb");
    let robot =
        throng::asset::load_model(Some(path.to_str().expect("path"))).expect("robot.glb loads");
    play_models_in_place(vec![Arc::new(robot)])
        .expect("in place")
        .models[0]
        .clone()
}

fn corridor_with_robot(seconds: f64, wrong_rate: bool) -> (Crowd, Playback, Arc<SkinnedModel>) {
    let mut file = common::corridor();
    let model = robot();
    let mut gaits = GaitClips::of(&model, &[None, None, None]).expect("gaits");
    if wrong_rate {
        for s in &mut gaits.strides {
            *s *= 1.5;
        }
        gaits.stances = Default::default();
    }
    let mut crowd = Crowd::new(1).expect("crowd");
    let id = crowd.add_model(model.clone());
    let (lo, hi) = file.bounds();
    let settings = PlaybackSettings {
        smooth: 1.5,
        turn_rate: throng::motion::DEFAULT_TURN_RATE,
        fade: 0.25,
        speeds: GaitSpeeds::default(),
        default_height: 1.75,
        height_variety: 0.0,
        origin: 0.5 * (DVec2::from(lo) + DVec2::from(hi)),
        color_by: None,
    };
    let start = file.start();
    file.tracks
        .retain(|t| t.samples.first().is_some_and(|s| s.time < start + seconds));
    let peds = TrackStore::from_trajectories(&file);
    let m = PlayModel {
        id,
        standing: standing_basis(&model),
        height: footprint(&model).1,
        gaits,
        looks: Vec::new(),
        ramp: Vec::new(),
    };
    let mut playback = Playback::new(peds, vec![m], settings, 0);
    playback.reserve(&mut crowd).expect("reserve");
    (crowd, playback, model)
}

/// One frame of one pedestrian: time, whether it is cross-fading, its clip, its feet.
type FeetFrame = (f64, bool, usize, Vec<Vec3>);

/// (median, 95th percentile, frames counted) of the stance foot's speed, m/s.
fn stance_slide(seconds: f64, wrong_rate: bool) -> (f32, f32, usize) {
    let (mut crowd, mut playback, model) = corridor_with_robot(seconds, wrong_rate);
    let feet = foot_joints(&model);
    let bind = bind_positions(&model);
    let joints = model.joint_count();
    let mut scratch = PoseScratch::new(joints);
    let mut palette = vec![Mat3x4::IDENTITY; joints];
    // Per pedestrian id: its frames.
    let mut frames: std::collections::HashMap<u64, Vec<FeetFrame>> = Default::default();
    let start = playback.start();
    let steps = (seconds * FPS) as usize;
    for f in 0..=steps {
        let t = start + f as f64 / FPS;
        playback.advance_to(&mut crowd, t).expect("step");
        for k in 0..playback.present() {
            let m = playback.member(k).expect("member");
            let i = playback.base() + k;
            let inst = crowd.instance(i);
            inst.evaluate(&mut scratch, &mut palette);
            let world = crowd.world(i);
            let at = feet
                .iter()
                .map(|&j| world.transform_point3(palette[j].transform_point3(bind[j])))
                .collect();
            frames.entry(m.id).or_default().push((
                t,
                inst.fade_weight().is_some(),
                inst.clip(),
                at,
            ));
        }
    }
    let mut speeds = Vec::new();
    for seq in frames.values() {
        let planted = |clip: usize, f: usize| {
            seq.iter()
                .filter(|fr| fr.2 == clip)
                .map(|fr| fr.3[f].y)
                .fold(f32::INFINITY, f32::min)
        };
        for pair in seq.windows(2) {
            let ((t0, fade0, c0, p0), (t1, fade1, c1, p1)) = (&pair[0], &pair[1]);
            if *fade0 || *fade1 || c0 != c1 {
                continue;
            }
            let above = |p: &[Vec3], f: usize| p[f].y - planted(*c0, f);
            let lowest = (0..feet.len())
                .min_by(|&a, &b| above(p0, a).total_cmp(&above(p0, b)))
                .expect("feet");
            if above(p0, lowest) <= 0.03 && above(p1, lowest) <= 0.03 {
                let d = (p1[lowest] - p0[lowest]).with_y(0.0).length();
                speeds.push(d / (t1 - t0) as f32);
            }
        }
    }
    speeds.sort_by(f32::total_cmp);
    assert!(speeds.len() > 1000, "{} stance frames", speeds.len());
    let pick = |q: f32| speeds[((speeds.len() - 1) as f32 * q) as usize];
    (pick(0.5), pick(0.95), speeds.len())
}

#[test]
fn the_robot_keeps_its_feet_planted_in_the_corridor() {
    let (median, p95, n) = stance_slide(12.0, false);
    eprintln!("{n} stance frames: median {median:.4} m/s, 95th percentile {p95:.4} m/s");
    assert!(median <= 0.05, "median {median} m/s");
    assert!(p95 <= 0.20, "95th percentile {p95} m/s");
    let (median, _, _) = stance_slide(12.0, true);
    assert!(
        median > 0.05,
        "a rate that ignores the stride slides: median {median} m/s"
    );
}

#[test]
fn profiles_exist_for_the_robots_walk_and_run() {
    let model = robot();
    let g = GaitClips::of(&model, &[None, None, None]).expect("gaits");
    let names: Vec<&str> = g.clips.iter().map(|&c| model.clips()[c].name()).collect();
    assert_eq!(names, ["Robot_Idle", "Robot_Walking", "Robot_Running"]);
    for gait in [1, 2] {
        assert!(!g.stances[gait].is_empty(), "{}", names[gait]);
        assert_ne!(g.stances[gait], StanceProfile::default());
    }
}
