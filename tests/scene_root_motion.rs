//! Root motion in the real files: the robot's walk and run (and every other clip of it) and
//! CesiumMan's walk tread in place, their root coming back to where it started at the end of
//! the cycle, so `throng run` keeps their clips as they are and moves them at the stride
//! measured from their feet. Prints how far each root moved over each cycle. (The generated
//! clips with root motion are checked in `scene::root_motion`'s unit tests.)
//!
//! A file missing from `../shared/assets` fails the test, as in the other tests that read it.

mod common;

use glam::Vec3;
use throng::anim::{Mat3x4, PoseScratch, SkinnedModel};
use throng::scene::{footprint, play_in_place, root_motion, standing_basis};

/// The model at `../shared/assets/<relative>` (the test models, there on every machine the
/// tests run on: one that is missing fails the test).
fn shared_model(relative: &str) -> SkinnedModel {
    let path = common::shared_asset(relative);
    throng::asset::load_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// How far each root joint moves horizontally (in the standing frame) from the first frame of
/// clip `clip` to its last.
fn root_travel(model: &SkinnedModel, clip: usize) -> Vec<(String, Vec3)> {
    let n = model.joint_count();
    let duration = model.clips()[clip].duration();
    let basis = standing_basis(model);
    let skeleton = model.skeleton();
    let place = |t: f32| {
        let mut palette = vec![Mat3x4::IDENTITY; n];
        model.evaluate(clip, t, &mut PoseScratch::new(n), &mut palette);
        // A joint is where its palette carries its bind position.
        palette
            .iter()
            .zip(skeleton.offsets())
            .map(|(p, o)| {
                let bind = o.inverse().map_or(Vec3::ZERO, |i| i.translation());
                basis.transform_point3(p.transform_point3(bind))
            })
            .collect::<Vec<_>>()
    };
    let (first, last) = (place(0.0), place(duration));
    (0..n)
        .filter(|&j| skeleton.parent(j).is_none())
        .map(|j| {
            let d = last[j] - first[j];
            (skeleton.names()[j].clone(), Vec3::new(d.x, 0.0, d.z))
        })
        .collect()
}

/// Prints every clip's root travel and checks that none has root motion.
fn treads_in_place(model: &SkinnedModel) {
    let height = footprint(model).1;
    for (c, clip) in model.clips().iter().enumerate() {
        for (root, travel) in root_travel(model, c) {
            println!(
                "{}: {} ({:.3} s): root {root} moves {:.4} per cycle ({:.2}% of the height {height:.3})",
                model.name(),
                clip.name(),
                clip.duration(),
                travel.length(),
                100.0 * travel.length() / height
            );
        }
        assert_eq!(root_motion(model, c), None, "{}", clip.name());
    }
    assert!(play_in_place(model).expect("in place").is_none());
}

#[test]
fn the_robots_walk_and_run_tread_in_place() {
    let robot = shared_model("gltf/robot.glb");
    for clip in ["Robot_Walking", "Robot_Running"] {
        let c = robot.clip_index(clip).expect(clip);
        for (root, travel) in root_travel(&robot, c) {
            assert!(travel.length() < 1e-4, "{clip}: {root} moves {travel}");
        }
    }
    treads_in_place(&robot);
}

#[test]
fn cesium_mans_walk_treads_in_place() {
    let man = shared_model("gltf/CesiumMan.glb");
    treads_in_place(&man);
}
