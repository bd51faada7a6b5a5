//! `clip_bounds` on the built-in character and real models: every vertex, skinned as the GPU
//! skins it at 240 times per second and at random times of every clip, lies inside the clip's
//! bounds at 30 samples per second; and the bounds are not much larger than the tightest box
//! of those skinned vertices.

mod common;

use glam::Vec3;
use throng::anim::{
    Bounds, Mat3x4, PoseScratch, SkinnedModel, bind_bounds, clip_bounds, gpu_skin_position,
};

/// Dense times per second of clip, and random times per clip, at which vertices are checked.
const CHECK_RATE: f32 = 240.0;
const RANDOM_TIMES: usize = 64;
/// The rate the bounds are computed at (the renderer's).
const BOUNDS_RATE: f32 = 30.0;
/// How much larger than the tightest box of the checked vertices the bounds may be, per axis.
/// Measured worst: 1.80 (the robot's punch along its width; CesiumMan's walk 1.73), the joint
/// boxes turning with the limbs; a regression to bind-space spheres would be well past 2.
const LOOSENESS: f32 = 2.0;
/// The same for the bind pose alone, where the thinnest axis of a model is a few centimetres
/// and a joint box's turn within it shows most (CesiumMan's depth: 2.17).
const BIND_LOOSENESS: f32 = 2.5;

/// splitmix64: a fixed sequence of random times, the same on every run.
struct Random(u64);

impl Random {
    fn unit(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 40) as f32 / (1u64 << 24) as f32
    }
}

fn inside(b: &Bounds, p: Vec3) -> bool {
    p.cmpge(b.min).all() && p.cmple(b.max).all()
}

/// Checks every clip of `model`; returns the worst per-axis ratio of bounds to the tightest
/// box, for the report.
fn check_model(label: &str, model: &SkinnedModel) -> f32 {
    let joints = model.joint_count();
    let mut scratch = PoseScratch::new(joints);
    let mut palette = vec![Mat3x4::IDENTITY; joints];
    let mut random = Random(0x5EED);
    let mut worst_ratio = 0.0f32;
    for (c, clip) in model.clips().iter().enumerate() {
        let bounds = clip_bounds(model, c, BOUNDS_RATE)
            .expect("clip and rate are valid")
            .expect("the model has vertices");
        let duration = clip.duration();
        let steps = ((duration * CHECK_RATE).ceil() as u32).max(1);
        let times = (0..=steps)
            .map(|k| duration * k as f32 / steps as f32)
            .chain((0..RANDOM_TIMES).map(|_| duration * random.unit()))
            .collect::<Vec<_>>();
        let mut tight = Bounds {
            min: Vec3::INFINITY,
            max: Vec3::NEG_INFINITY,
        };
        for &t in &times {
            model.evaluate(c, t, &mut scratch, &mut palette);
            for (i, v) in model.mesh().vertices.iter().enumerate() {
                let p = gpu_skin_position(v, &palette);
                assert!(
                    inside(&bounds, p),
                    "{label} clip {} at {t}: vertex {i} at {p} is outside {bounds:?}",
                    clip.name()
                );
                tight.min = tight.min.min(p);
                tight.max = tight.max.max(p);
            }
        }
        let ratio = bounds.size() / tight.size();
        eprintln!(
            "{label} {:>12} ({duration:.2} s): bounds {:.3?} tightest {:.3?} ratio {:.3?}",
            clip.name(),
            bounds.size().to_array(),
            tight.size().to_array(),
            ratio.to_array(),
        );
        assert!(
            ratio.max_element() <= LOOSENESS,
            "{label} clip {}: bounds {bounds:?} are more than {LOOSENESS} times the tightest \
             box {tight:?} on some axis",
            clip.name()
        );
        worst_ratio = worst_ratio.max(ratio.max_element());
    }
    worst_ratio
}

fn load(relative: &str) -> SkinnedModel {
    let path = common::shared_asset(relative);
    throng::asset::load_file(&path).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

#[test]
fn builtin_clips_hold_every_skinned_vertex() {
    let model = throng::asset::builtin::model().expect("builtin");
    let names: Vec<&str> = model.clips().iter().map(|c| c.name()).collect();
    assert_eq!(names, ["idle", "walk", "run"]);
    check_model("builtin", &model);
}

#[test]
fn rigged_figure_clips_hold_every_skinned_vertex() {
    check_model("RiggedFigure", &load("gltf/RiggedFigure.glb"));
}

#[test]
fn cesium_man_clips_hold_every_skinned_vertex() {
    check_model("CesiumMan", &load("gltf/CesiumMan.glb"));
}

#[test]
fn robot_clips_hold_every_skinned_vertex() {
    let model = load("gltf/robot.glb");
    assert_eq!(model.clips().len(), 14);
    check_model("robot", &model);
}

#[test]
fn soldier_clips_hold_every_skinned_vertex() {
    check_model("soldier.m3d", &load("m3d/soldier.m3d"));
}

#[test]
fn sdkmesh_soldier_clips_hold_every_skinned_vertex() {
    check_model("soldier.sdkmesh", &load("dxsdk/soldier.sdkmesh"));
}

#[test]
fn bind_bounds_hold_the_bind_pose() {
    for relative in [
        "gltf/CesiumMan.glb",
        "m3d/soldier.m3d",
        "m3d/rock_static.m3d",
    ] {
        let model = load(relative);
        let bounds = bind_bounds(&model).expect("vertices");
        let mut scratch = PoseScratch::new(model.joint_count());
        let mut palette = vec![Mat3x4::IDENTITY; model.joint_count()];
        model.bind_palette(&mut scratch, &mut palette);
        let mut tight = Bounds {
            min: Vec3::INFINITY,
            max: Vec3::NEG_INFINITY,
        };
        for v in &model.mesh().vertices {
            let p = gpu_skin_position(v, &palette);
            assert!(inside(&bounds, p), "{relative}: {p} outside {bounds:?}");
            tight.min = tight.min.min(p);
            tight.max = tight.max.max(p);
        }
        let ratio = bounds.size() / tight.size();
        eprintln!("{relative} bind pose: ratio {:.3?}", ratio.to_array());
        assert!(ratio.max_element() <= BIND_LOOSENESS, "{relative}: {ratio}");
    }
}
