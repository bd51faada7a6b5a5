//! The speed a clip carries a character at, measured from its feet: moving the built-in
//! character at it, each planted foot stays where it was put (it moves less than a fifth of
//! what the body moves meanwhile), runs go faster than walks, and idles stand; so do the
//! robot's walk and run, whose feet are neither its lowest joint nor always lower than its hands.

mod common;

use glam::Vec3;
use throng::anim::{Mat3x4, PoseScratch, SkinnedModel};
use throng::scene::{standing_basis, stride_speed};

/// World positions of every joint at `t` for a character moved along +Z at `speed`.
fn joints_at(model: &SkinnedModel, clip: usize, t: f32, speed: f32) -> Vec<Vec3> {
    let n = model.joint_count();
    let mut palette = vec![Mat3x4::IDENTITY; n];
    model.evaluate(clip, t, &mut PoseScratch::new(n), &mut palette);
    let basis = standing_basis(model);
    palette
        .iter()
        .zip(model.skeleton().offsets())
        .map(|(p, o)| {
            let bind = o.inverse().expect("offset").translation();
            basis.transform_point3(p.transform_point3(bind)) + Vec3::Z * speed * t
        })
        .collect()
}

#[test]
fn planted_feet_stay_put_at_the_measured_speed() {
    let model = throng::asset::builtin::model().expect("builtin");
    let walk = model.clip_index("walk").expect("walk");
    let run = model.clip_index("run").expect("run");
    let idle = model.clip_index("idle").expect("idle");
    let (walk_speed, run_speed) = (stride_speed(&model, walk), stride_speed(&model, run));
    assert_eq!(stride_speed(&model, idle), 0.0, "an idle stands");
    assert!(
        walk_speed > 0.3 && run_speed > 1.5 * walk_speed,
        "{walk_speed} {run_speed}"
    );
    let everything: Vec<usize> = (0..model.joint_count()).collect();
    for (clip, speed) in [(walk, walk_speed), (run, run_speed)] {
        // On the ground: within 2% of the character's height of the lowest point reached.
        let stretches = planted_stretches(&model, clip, speed, &everything, 0.02 * 1.85);
        for &(joint, slide, body) in &stretches {
            assert!(
                slide < 0.2 * body,
                "clip {clip}: joint {joint} slid {slide} while the body went {body}"
            );
        }
        assert!(
            stretches.len() >= 2,
            "clip {clip}: {} planted stretches",
            stretches.len()
        );
    }
}

#[test]
fn the_robot_walks_and_runs_on_planted_feet() {
    // The robot keeps an unskinned joint at its feet's level, and its running hands swing
    // lower than its feet: measured from the lowest joint of all, it stood still.
    let path = common::shared_asset("gltf/robot.glb");
    let model = throng::asset::load_file(&path).unwrap_or_else(|e| {
        panic!(
            "{} (../shared/assets holds the test models): {e}",
            path.display()
        )
    });
    let clip = |name| model.clip_index(name).expect(name);
    let (walk, run) = (clip("Robot_Walking"), clip("Robot_Running"));
    let (walk_speed, run_speed) = (stride_speed(&model, walk), stride_speed(&model, run));
    assert!(
        walk_speed > 0.0 && run_speed > walk_speed,
        "{walk_speed} {run_speed}"
    );
    let height = throng::scene::footprint(&model).1;
    let names = model.skeleton().names();
    let feet: Vec<usize> = ["Foot.L", "Foot.R"]
        .map(|f| names.iter().position(|n| n == f).expect(f))
        .to_vec();
    for (clip, speed) in [(walk, walk_speed), (run, run_speed)] {
        let stretches = planted_stretches(&model, clip, speed, &feet, 0.02 * height);
        for &(joint, slide, body) in &stretches {
            // A few percent of the height, and a fraction of the body's way: the robot's own
            // feet do not slide back evenly while planted, so no one speed holds them still
            // throughout.
            assert!(
                slide < 0.04 * height && slide < 0.2 * body,
                "clip {clip}: {} slid {slide} while the body went {body} (height {height})",
                names[joint]
            );
        }
        for &foot in &feet {
            assert!(
                stretches.iter().any(|s| s.0 == foot),
                "clip {clip}: {} is never planted",
                names[foot]
            );
        }
    }
}

/// Each stretch of at least 10 of 240 samples of `clip`, played moving along +Z at `speed`,
/// over which one joint stays the lowest of `feet`, on the ground (within `tolerance` of the
/// lowest point they reach) and moving backwards under the body (in the body's own frame: a
/// foot swinging forwards low over the ground is not planted): the joint, how far it slid
/// horizontally, and how far the body went meanwhile.
fn planted_stretches(
    model: &SkinnedModel,
    clip: usize,
    speed: f32,
    feet: &[usize],
    tolerance: f32,
) -> Vec<(usize, f32, f32)> {
    let duration = model.clips()[clip].duration();
    let steps = 240;
    let dt = duration / steps as f32;
    let lowest = |t: f32| {
        let joints = joints_at(model, clip, t, speed);
        let j = *feet
            .iter()
            .min_by(|&&a, &&b| joints[a].y.total_cmp(&joints[b].y))
            .expect("feet");
        (j, joints[j])
    };
    let samples: Vec<(usize, Vec3)> = (0..=steps).map(|k| lowest(k as f32 * dt)).collect();
    let ground = samples.iter().map(|s| s.1.y).fold(f32::INFINITY, f32::min);
    let planted = |s: &(usize, Vec3)| s.1.y <= ground + tolerance;
    let moving_back = |k: usize| {
        let (a, b) = (
            samples[k].1.z - speed * k as f32 * dt,
            samples[k + 1].1.z - speed * (k + 1) as f32 * dt,
        );
        b < a
    };
    let mut stretches = Vec::new();
    let mut k = 0;
    while k < samples.len() {
        if !planted(&samples[k]) {
            k += 1;
            continue;
        }
        let first = k;
        while k + 1 < samples.len()
            && samples[k + 1].0 == samples[first].0
            && planted(&samples[k + 1])
            && moving_back(k)
        {
            k += 1;
        }
        let stretch = k - first;
        if stretch >= 10 {
            let (start, end) = (samples[first].1, samples[k].1);
            let slide = Vec3::new(end.x - start.x, 0.0, end.z - start.z).length();
            stretches.push((samples[first].0, slide, speed * stretch as f32 * dt));
        }
        k += 1;
    }
    stretches
}

#[test]
fn a_jump_is_not_a_walk() {
    // The robot's jump plants its feet, lifts off and lands: no two feet take turns, so it
    // does not carry the robot anywhere (it used to, at 1.5 heights a second).
    let model =
        throng::asset::load_file(&common::shared_asset("gltf/robot.glb")).expect("robot.glb");
    let jump = model.clip_index("Robot_Jump").expect("jump");
    assert_eq!(stride_speed(&model, jump), 0.0);
}
