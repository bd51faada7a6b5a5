//! The speed a clip carries a character at, measured from its feet: moving the built-in
//! character at it, each planted foot stays where it was put (it moves less than a fifth of
//! what the body moves meanwhile), runs go faster than walks, and idles stand.

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
    for (clip, speed) in [(walk, walk_speed), (run, run_speed)] {
        let duration = model.clips()[clip].duration();
        let steps = 240;
        let dt = duration / steps as f32;
        let lowest = |t: f32| {
            let joints = joints_at(&model, clip, t, speed);
            let j = (0..joints.len())
                .min_by(|&a, &b| joints[a].y.total_cmp(&joints[b].y))
                .expect("joints");
            (j, joints[j])
        };
        let samples: Vec<(usize, Vec3)> = (0..=steps).map(|k| lowest(k as f32 * dt)).collect();
        // On the ground: within 2% of the character's height of the lowest point reached.
        let ground = samples.iter().map(|s| s.1.y).fold(f32::INFINITY, f32::min);
        let planted = |s: &(usize, Vec3)| s.1.y <= ground + 0.02 * 1.85;
        // Planted feet move backwards under the body (in the body's own frame); a foot
        // swinging forwards low over the ground is not planted.
        let moving_back = |k: usize| {
            let (a, b) = (
                samples[k].1.z - speed * k as f32 * dt,
                samples[k + 1].1.z - speed * (k + 1) as f32 * dt,
            );
            b < a
        };
        // Each stretch over which one foot stays planted: how far it slid against how far the
        // body went.
        let mut checked = 0;
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
                let body = speed * stretch as f32 * dt;
                assert!(
                    slide < 0.2 * body,
                    "clip {clip}: joint {} slid {slide} while the body went {body}",
                    samples[first].0
                );
                checked += 1;
            }
            k += 1;
        }
        assert!(checked >= 2, "clip {clip}: {checked} planted stretches");
    }
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
