//! A deliberately naive second implementation of palette evaluation (cross-fades included), to
//! cross-check the real one: keys found by linear search, glam's own slerp, 4x4 matrices, and each joint's to-root
//! found by walking its ancestors recursively (the way the gamedev.net "matrices" article
//! describes it) instead of one top-down pass. It shares nothing with `anim`'s sampler or pose
//! code; only the model data (skeleton, offsets, source tracks) comes from the loader.

use glam::{Mat4, Quat, Vec3, Vec4};
use throng::anim::{Channel, Interpolation, Mat3x4, PoseScratch, SkinnedModel};

/// Key index `k` with `times[k] <= t < times[k+1]`, and the fraction; clamped at the ends.
fn bracket(times: &[f32], t: f32) -> (usize, usize, f32) {
    if t <= times[0] || times.len() == 1 {
        return (0, 0, 0.0);
    }
    let last = times.len() - 1;
    if t >= times[last] {
        return (last, last, 0.0);
    }
    let mut k = 0;
    while times[k + 1] <= t {
        k += 1;
    }
    (k, k + 1, (t - times[k]) / (times[k + 1] - times[k]))
}

fn hermite(v0: Vec4, out0: Vec4, v1: Vec4, in1: Vec4, s: f32, dt: f32) -> Vec4 {
    let (s2, s3) = (s * s, s * s * s);
    v0 * (2.0 * s3 - 3.0 * s2 + 1.0)
        + out0 * dt * (s3 - 2.0 * s2 + s)
        + v1 * (-2.0 * s3 + 3.0 * s2)
        + in1 * dt * (s3 - s2)
}

fn sample_vec3(c: &Channel<Vec3>, t: f32) -> Vec3 {
    let (a, b, f) = bracket(&c.times, t);
    match c.interpolation {
        Interpolation::Linear => c.values[a].lerp(c.values[b], f),
        Interpolation::Step => c.values[if f >= 1.0 { b } else { a }],
        Interpolation::CubicSpline => {
            let v = |k: usize, i: usize| c.values[3 * k + i].extend(0.0);
            let dt = c.times[b] - c.times[a];
            hermite(v(a, 1), v(a, 2), v(b, 1), v(b, 0), f, dt).truncate()
        }
    }
}

fn sample_quat(c: &Channel<Quat>, t: f32) -> Quat {
    let (a, b, f) = bracket(&c.times, t);
    match c.interpolation {
        Interpolation::Linear => c.values[a].normalize().slerp(c.values[b].normalize(), f),
        Interpolation::Step => c.values[if f >= 1.0 { b } else { a }].normalize(),
        Interpolation::CubicSpline => {
            let v = |k: usize, i: usize| Vec4::from(c.values[3 * k + i]);
            let dt = c.times[b] - c.times[a];
            Quat::from_vec4(hermite(v(a, 1), v(a, 2), v(b, 1), v(b, 0), f, dt).normalize())
        }
    }
}

/// Joint `joint`'s local translation, rotation and scale in `clip` at `t` (the bind pose
/// where the clip has no channel).
fn local_trs(model: &SkinnedModel, clip: usize, joint: usize, t: f32) -> (Vec3, Quat, Vec3) {
    let bind = model.skeleton().bind_pose()[joint];
    let track = &model.clips()[clip].tracks()[joint];
    let translation = track
        .translation
        .as_ref()
        .map_or(Vec3::from(bind.translation), |c| sample_vec3(c, t));
    let rotation = track
        .rotation
        .as_ref()
        .map_or(bind.rotation, |c| sample_quat(c, t));
    let scale = track
        .scale
        .as_ref()
        .map_or(Vec3::from(bind.scale), |c| sample_vec3(c, t));
    (translation, rotation, scale)
}

fn local(model: &SkinnedModel, clip: usize, joint: usize, t: f32) -> Mat4 {
    let (translation, rotation, scale) = local_trs(model, clip, joint, t);
    Mat4::from_scale_rotation_translation(scale, rotation, translation)
}

/// Joint `joint`'s to-root matrix, walking its ancestors recursively, with locals from `local`.
fn to_root_with(model: &SkinnedModel, joint: usize, local: &dyn Fn(usize) -> Mat4) -> Mat4 {
    match model.skeleton().parent(joint) {
        Some(parent) => to_root_with(model, parent, local) * local(joint),
        None => local(joint),
    }
}

fn to_root(model: &SkinnedModel, clip: usize, joint: usize, t: f32) -> Mat4 {
    to_root_with(model, joint, &|j| local(model, clip, j, t))
}

/// The palette of `clip` at `t`, computed naively.
pub fn palette(model: &SkinnedModel, clip: usize, t: f32) -> Vec<Mat4> {
    (0..model.joint_count())
        .map(|j| to_root(model, clip, j, t) * model.skeleton().offsets()[j].to_mat4())
        .collect()
}

/// Asserts that the real evaluation of `clip` at `t` agrees with the naive one to `rel`
/// relative (per matrix: the largest difference over the largest element, at least 1).
pub fn assert_palette_matches(model: &SkinnedModel, clip: usize, t: f32, rel: f32) {
    let n = model.joint_count();
    let mut scratch = PoseScratch::new(n);
    let mut fast = vec![Mat3x4::IDENTITY; n];
    model.evaluate(clip, t, &mut scratch, &mut fast);
    for (j, (fast, slow)) in fast.iter().zip(palette(model, clip, t)).enumerate() {
        let slow = Mat3x4::from_mat4(&slow).to_array();
        let fast = fast.to_array();
        let scale = slow.iter().fold(1.0f32, |m, x| m.max(x.abs()));
        let diff = fast
            .iter()
            .zip(&slow)
            .fold(0.0f32, |m, (a, b)| m.max((a - b).abs()));
        assert!(
            diff <= rel * scale,
            "{}: clip {clip} at {t}: joint {j} ({}) differs by {diff} (scale {scale})\n  fast  {fast:?}\n  naive {slow:?}",
            model.name(),
            model.skeleton().names()[j]
        );
    }
}

/// The palette of a cross-fade computed naively: clip `from.0` at time `from.1` fading into
/// clip `to.0` at `to.1` with weight `w` (0: all `from`). Each joint's local transforms are
/// blended before the hierarchy, as a cross-fade is defined: translations and scales lerped,
/// rotations nlerped along the shorter arc (the quaternions' 4-vectors lerped after flipping
/// one when their dot product is negative, then normalized).
pub fn blended_palette(
    model: &SkinnedModel,
    from: (usize, f32),
    to: (usize, f32),
    w: f32,
) -> Vec<Mat4> {
    let blended = |joint: usize| {
        let (ta, ra, sa) = local_trs(model, from.0, joint, from.1);
        let (tb, rb, sb) = local_trs(model, to.0, joint, to.1);
        let (a, mut b) = (Vec4::from(ra), Vec4::from(rb));
        if a.dot(b) < 0.0 {
            b = -b;
        }
        let rotation = Quat::from_vec4((a * (1.0 - w) + b * w).normalize());
        Mat4::from_scale_rotation_translation(
            sa * (1.0 - w) + sb * w,
            rotation,
            ta * (1.0 - w) + tb * w,
        )
    };
    (0..model.joint_count())
        .map(|j| to_root_with(model, j, &blended) * model.skeleton().offsets()[j].to_mat4())
        .collect()
}

/// The largest element difference between `got` and `want` over the largest element of
/// `want` (at least 1).
pub fn relative_difference(got: &Mat3x4, want: &Mat4) -> f32 {
    let want = Mat3x4::from_mat4(want).to_array();
    let scale = want.iter().fold(1.0f32, |m, x| m.max(x.abs()));
    let diff = got
        .to_array()
        .iter()
        .zip(&want)
        .fold(0.0f32, |m, (a, b)| m.max((a - b).abs()));
    diff / scale
}
