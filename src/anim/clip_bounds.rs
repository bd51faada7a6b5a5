//! Conservative bounds of a whole clip: one model-space box that holds every skinned vertex
//! at every time of the clip, so an instance can be culled without knowing its pose on the
//! CPU (baked frames, animation on the GPU). Computed once per clip, not per frame.
//!
//! # Why joint volumes suffice
//!
//! Linear blend skinning draws a vertex at `sum_i w_i M_i p`, with weights that are not
//! negative and sum to one: a convex combination of the points `M_i p`. Each `M_i p` is joint
//! `i`'s palette applied to a bind position that joint moves, so it lies inside that joint's
//! bind-space volume (a sphere and a box around those positions, [`JointVolume`]) carried by
//! the same palette. A box is convex, so a box holding every joint's carried volume holds every
//! convex combination of points in them: every vertex. The mesh is read once, to build the
//! volumes; each sample then costs one palette evaluation and one volume per joint.
//!
//! Weights from outside the loaders may break that premise (negative, or not summing to one,
//! which the GPU does not renormalize); [`finish`] widens the box by exactly what such
//! weights can add, which for weights as loaders write them is nothing.
//!
//! # Between samples
//!
//! The clip is sampled at a fixed rate, plus every key time, plus its end; the motion between
//! two samples is covered by padding, per joint and interval, as [`sweep`] explains.

use glam::{Mat3, Vec3, Vec4Swizzles};

use super::clip::AnimationClip;
use super::error::AnimError;
use super::matrix::Mat3x4;
use super::mesh::{Bounds, Mesh, Vertex};
use super::model::SkinnedModel;
use super::pose::PoseScratch;
use super::sample_grid;

/// The bind-space volume of one joint, around the bind positions of the vertices it moves:
/// a box in the joint's own bind frame (`centre + axes * u` for `|u_i| <= half_extents_i`)
/// and the sphere about the box's centre that holds them (`radius`).
///
/// The box's frame is the joint's: the offset takes bind space into it, so its axes are the
/// columns of the offset's inverse. A limb lies along its joint's axes whatever its slant in
/// the bind pose, so the box hugs it, and stays hugging it as the joint turns. Carried by a
/// palette, the sphere and the box bound the points along each model axis differently (the
/// sphere is tighter for a round cluster seen turned, the box for an elongated one seen
/// along its axes); the points lie in both, so the tighter of the two holds. A joint whose
/// offset cannot be inverted gets a box along the bind-space axes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointVolume {
    /// Centre of the box, and of the sphere, in bind space.
    pub centre: Vec3,
    /// Radius of the sphere.
    pub radius: f32,
    /// The box's axes in bind space (columns; unit length times the offset's inverse scale).
    pub axes: Mat3,
    /// Half the box's size along each of its axes.
    pub half_extents: Vec3,
}

/// The relative padding for rounding: a product of f32 terms is off by a few units in the
/// last place of the largest term, and the GPU's blend, the batch kernels' palettes, the
/// offset's round trip and this module's sums round differently; 32 units of the largest
/// magnitude cover them all.
const ROUNDING: f32 = 32.0 * f32::EPSILON;

/// Each joint's [`JointVolume`], `None` for joints that move no vertex. A joint moves a vertex
/// when the vertex gives it a non-zero weight, or when the vertex has no weight at all and the
/// joint is its first (which the CPU blend follows).
#[must_use]
pub fn joint_volumes(model: &SkinnedModel) -> Vec<Option<JointVolume>> {
    let joints = model.joint_count();
    let vertices = &model.mesh().vertices;
    // Into each joint's frame and back: the offset and its inverse, or the identity.
    let frames: Vec<(Mat3x4, Mat3x4)> = model
        .skeleton()
        .offsets()
        .iter()
        .map(|o| match o.inverse() {
            Some(inverse) => (*o, inverse),
            None => (Mat3x4::IDENTITY, Mat3x4::IDENTITY),
        })
        .collect();
    let mut lo = vec![Vec3::INFINITY; joints];
    let mut hi = vec![Vec3::NEG_INFINITY; joints];
    for v in vertices {
        let p = Vec3::from(v.position);
        for j in moved_by(v, joints) {
            let q = frames[j].0.transform_point3(p);
            lo[j] = lo[j].min(q);
            hi[j] = hi[j].max(q);
        }
    }
    let mut volumes: Vec<Option<JointVolume>> = (0..joints)
        .map(|j| {
            let (lo, hi, back) = (lo[j], hi[j], &frames[j].1);
            (lo.x <= hi.x).then(|| JointVolume {
                centre: back.transform_point3((lo + hi) * 0.5),
                radius: 0.0,
                axes: Mat3::from_cols(
                    back.transform_vector3(Vec3::X),
                    back.transform_vector3(Vec3::Y),
                    back.transform_vector3(Vec3::Z),
                ),
                half_extents: (hi - lo) * 0.5,
            })
        })
        .collect();
    for v in vertices {
        let p = Vec3::from(v.position);
        for j in moved_by(v, joints) {
            if let Some(volume) = &mut volumes[j] {
                volume.radius = volume.radius.max(p.distance(volume.centre));
            }
        }
    }
    volumes
}

/// The joints (below `joints`) whose palettes move `v` under the GPU's blend or the CPU's.
fn moved_by(v: &Vertex, joints: usize) -> impl Iterator<Item = usize> + '_ {
    // The CPU blend's test for a weightless vertex, to the bit (`skinning::blend_matrix`).
    let weightless = !(v.weights.iter().sum::<f32>() > 1e-6);
    (0..4)
        .filter(move |&k| v.weights[k] != 0.0 || (k == 0 && weightless))
        .map(|k| usize::from(v.joints[k]))
        .filter(move |&j| j < joints)
}

/// A conservative model-space box around every skinned vertex of clip `clip` at every time
/// from 0 to its duration: joint volumes carried by the palettes sampled at `rate_hz` (the
/// intervals of baking, `max(1, ceil(duration * rate_hz))`), at every key time and at the
/// end, padded for the motion between samples. 30 per second is a good rate: the padding
/// shrinks with the step, and the cost grows with the samples.
///
/// `Ok(None)` only for a mesh with no vertices. An error when `clip` is not a clip index, or
/// `rate_hz` is not positive and finite, or asks for more than 2^20 intervals.
pub fn clip_bounds(
    model: &SkinnedModel,
    clip: usize,
    rate_hz: f32,
) -> Result<Option<Bounds>, AnimError> {
    let source = model.clips().get(clip).ok_or(AnimError::ClipIndex {
        index: clip,
        count: model.clips().len(),
    })?;
    let times = sample_times(source, rate_hz)?;
    let volumes = joint_volumes(model);
    let mut scratch = PoseScratch::new(model.joint_count());
    let union = sweep(&volumes, times.len(), |i, out| {
        model.evaluate(clip, times[i], &mut scratch, out);
    });
    Ok(finish(model.mesh(), &union))
}

/// A conservative model-space box around every skinned vertex in the bind pose (the bind
/// palette), for models without clips. `None` only for a mesh with no vertices.
#[must_use]
pub fn bind_bounds(model: &SkinnedModel) -> Option<Bounds> {
    let volumes = joint_volumes(model);
    let mut scratch = PoseScratch::new(model.joint_count());
    let union = sweep(&volumes, 1, |_, out| model.bind_palette(&mut scratch, out));
    finish(model.mesh(), &union)
}

/// The grid of `rate` with every key time added, sorted, without repeats. With the keys among
/// the samples, no interval between samples holds a key: inside one, every channel follows a
/// single piece of its interpolation (a straight line, one arc of at most half a turn, a
/// constant, one cubic), never a turn at a key that the samples would miss.
fn sample_times(clip: &AnimationClip, rate: f32) -> Result<Vec<f32>, AnimError> {
    let n = sample_grid::intervals(clip, rate, sample_grid::MAX_INTERVALS)?;
    let duration = clip.duration();
    let mut times: Vec<f32> = (0..=n).map(|k| sample_grid::time(k, n, duration)).collect();
    for track in clip.tracks() {
        let keys = [
            track.translation.as_ref().map(|c| &c.times),
            track.rotation.as_ref().map(|c| &c.times),
            track.scale.as_ref().map(|c| &c.times),
        ];
        for t in keys.into_iter().flatten() {
            times.extend(t.iter().copied().filter(|t| (0.0..=duration).contains(t)));
        }
    }
    times.sort_by(f32::total_cmp);
    times.dedup();
    Ok(times)
}

/// A joint volume carried by a palette, as an axis-aligned box.
#[derive(Clone, Copy, Debug)]
struct Placed {
    centre: Vec3,
    /// Half the box's size on each axis.
    extent: Vec3,
}

/// Carries `volume` by `m`. The sphere becomes an ellipsoid whose half size along model axis
/// `k` is the radius times the length of row `k` of the linear part (exact, and safe under the
/// shear a non-uniform parent scale gives, where the largest column length would fall short);
/// the box becomes a parallelepiped with axes `linear * axes`, whose half size along axis `k`
/// is row `k` of that product, in absolute values, dotted with the half extents. Both hold the
/// carried points, so the smaller holds. Also returns the largest magnitude of the terms
/// summed, for the rounding padding.
fn place(volume: &JointVolume, m: &Mat3x4) -> (Placed, f32) {
    let mut extent = [0.0f32; 3];
    let mut magnitude = 0.0f32;
    for (e, row) in extent.iter_mut().zip(&m.rows) {
        let linear = row.xyz();
        // Row `k` of `linear * axes`: row `k` of `linear` dotted with each axis.
        let along = volume.axes.transpose() * linear;
        let by_box = along.abs().dot(volume.half_extents);
        *e = (volume.radius * linear.length()).min(by_box);
        magnitude = magnitude.max(linear.abs().dot(volume.centre.abs()) + by_box + row.w.abs());
    }
    let placed = Placed {
        centre: m.transform_point3(volume.centre),
        extent: Vec3::from(extent),
    };
    (placed, magnitude)
}

/// The union of carried volumes, and the largest magnitude seen.
#[derive(Clone, Copy, Debug)]
struct Union {
    min: Vec3,
    max: Vec3,
    magnitude: f32,
}

impl Union {
    fn add(&mut self, centre: Vec3, extent: Vec3) {
        self.min = self.min.min(centre - extent);
        self.max = self.max.max(centre + extent);
    }
}

/// Carries every joint volume by the palettes of `samples` poses (`pose(i, out)` writes pose
/// `i`, in time order) and unites the boxes, padding each for the motion until the next pose.
///
/// Why the padding covers the motion: over the interval from sample `a` to sample `b`, a
/// joint's carried box moves its centre along some path from `c_a` to `c_b` and changes its
/// half sizes from `e_a` to `e_b`. The box at `a` grown by `|c_b - c_a|` (on every axis) plus
/// `|e_b - e_a|` (per axis) holds the box at every time of the interval as long as the centre
/// does not stray farther from `c_a` than it ends up, and the half sizes do not overshoot
/// both ends. That holds for the motion inside one interval: no key lies inside it (key times
/// are samples), so each channel follows one piece of interpolation, and a point carried along
/// a straight line, or along an arc of up to half a turn, never strays farther from its start
/// than its end. Nested joints compound such motions, and cubic splines may bend, but what
/// they add inside 1/30 s is a small part of the chord's length, which the padding adds in
/// full on top of the sampled boxes. The test `tests/anim_clip_bounds.rs` skins every vertex
/// of real models at 240 times per second and at random times, and finds them inside.
fn sweep(
    volumes: &[Option<JointVolume>],
    samples: usize,
    mut pose: impl FnMut(usize, &mut [Mat3x4]),
) -> Union {
    let mut palette = vec![Mat3x4::IDENTITY; volumes.len()];
    let mut previous: Vec<Option<Placed>> = vec![None; volumes.len()];
    let mut union = Union {
        min: Vec3::INFINITY,
        max: Vec3::NEG_INFINITY,
        magnitude: 0.0,
    };
    for i in 0..samples {
        pose(i, &mut palette);
        for ((volume, m), before) in volumes.iter().zip(&palette).zip(&mut previous) {
            let Some(volume) = volume else { continue };
            let (now, magnitude) = place(volume, m);
            union.magnitude = union.magnitude.max(magnitude);
            if let Some(a) = before {
                let moved = Vec3::splat(a.centre.distance(now.centre));
                union.add(a.centre, a.extent + moved + (now.extent - a.extent).abs());
            }
            *before = Some(now);
        }
    }
    // The last sample has no motion after it.
    for p in previous.iter().flatten() {
        union.add(p.centre, p.extent);
    }
    union
}

/// Extremes of the blend coefficients over every vertex, under both blends: `positive` is the
/// sum of a vertex's positive coefficients, `negative` the sum of its negative ones' sizes.
/// Weights as loaders write them (not negative, summing to 1) give 1 and 0 to rounding.
struct Coefficients {
    positive_min: f64,
    positive_max: f64,
    negative_max: f64,
}

fn coefficients(vertices: &[Vertex]) -> Coefficients {
    let mut c = Coefficients {
        positive_min: f64::INFINITY,
        positive_max: f64::NEG_INFINITY,
        negative_max: 0.0,
    };
    let mut note = |positive: f64, negative: f64| {
        c.positive_min = c.positive_min.min(positive);
        c.positive_max = c.positive_max.max(positive);
        c.negative_max = c.negative_max.max(negative);
    };
    for v in vertices {
        // The GPU: the first slot always, the others when positive, as they are.
        let (mut positive, mut negative) = (0.0, 0.0);
        for (k, &w) in v.weights.iter().enumerate() {
            let w = f64::from(w);
            if w > 0.0 {
                positive += w;
            } else if k == 0 {
                negative -= w;
            }
        }
        note(positive, negative);
        // The CPU: every weight over their sum, or the first joint alone.
        let sum: f32 = v.weights.iter().sum();
        if sum > 1e-6 {
            let sum = f64::from(sum);
            let part = |keep: fn(&f32) -> bool| {
                v.weights
                    .iter()
                    .filter(|w| keep(w))
                    .map(|&w| f64::from(w).abs())
                    .sum::<f64>()
                    / sum
            };
            note(part(|w| *w > 0.0), part(|w| *w < 0.0));
        } else {
            note(1.0, 0.0);
        }
    }
    c
}

/// The box from the union of carried volumes: widened for unusual weights, then padded for
/// rounding. `None` only for a mesh with no vertices.
///
/// A vertex is at `sum_i c_i q_i`, each `q_i` in the union, with coefficients `c_i` whose
/// positive ones sum to `P` and negative ones to `-N`. Along one axis, with the union from `lo`
/// to `hi`, that is at most `P hi - N lo` and at least `P lo - N hi`; both are linear in
/// `(P, N)`, so their extremes over all vertices lie at the corners of the range of `(P, N)`.
/// For convex weights (`P = 1`, `N = 0`) the box is the union itself.
fn finish(mesh: &Mesh, union: &Union) -> Option<Bounds> {
    if mesh.vertices.is_empty() {
        return None;
    }
    // No volume at all: every vertex is weightless and the GPU puts it at the origin.
    let (lo, hi) = if union.min.x <= union.max.x {
        (union.min.as_dvec3(), union.max.as_dvec3())
    } else {
        (glam::DVec3::ZERO, glam::DVec3::ZERO)
    };
    let c = coefficients(&mesh.vertices);
    let mut min = glam::DVec3::INFINITY;
    let mut max = glam::DVec3::NEG_INFINITY;
    for p in [c.positive_min, c.positive_max] {
        for n in [0.0, c.negative_max] {
            max = max.max(p * hi - n * lo);
            min = min.min(p * lo - n * hi);
        }
    }
    let (min, max) = (min.as_vec3(), max.as_vec3());
    let scale = (c.positive_max + c.negative_max).max(1.0) as f32;
    let largest = (union.magnitude * scale)
        .max(min.abs().max_element())
        .max(max.abs().max_element());
    let pad = Vec3::splat(ROUNDING * largest);
    Some(Bounds {
        min: min - pad,
        max: max + pad,
    })
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3A};

    use super::*;
    use crate::anim::skeleton::{Joint, Skeleton};
    use crate::anim::skin_gpu::gpu_skin_position;
    use crate::anim::skinning::skin_vertex;
    use crate::anim::track::{Channel, JointTrack};
    use crate::anim::transform::Transform;

    fn vertex(position: [f32; 3], joints: [u16; 4], weights: [f32; 4]) -> Vertex {
        Vertex {
            position,
            joints,
            weights,
            ..Vertex::default()
        }
    }

    /// A two-bone arm along +y (joint 2 moves nothing) whose clip swings the shoulder
    /// through three quarters of a turn and the elbow through a half turn the other way in
    /// one second, with `vertices` skinned to it.
    fn arm(vertices: Vec<Vertex>) -> SkinnedModel {
        let up = |y| Transform::new(Vec3::new(0.0, y, 0.0), Quat::IDENTITY, Vec3::ONE);
        let skeleton = Skeleton::with_derived_offsets(vec![
            Joint::new("shoulder", None, up(0.0)),
            Joint::new("elbow", Some(0), up(1.0)),
            Joint::new("hand", Some(1), up(1.0)),
        ])
        .expect("skeleton");
        let turn = |angles: &[f32]| JointTrack {
            rotation: Some(Channel::linear(
                (0..angles.len()).map(|k| k as f32 / 4.0).collect(),
                angles.iter().map(|&a| Quat::from_rotation_z(a)).collect(),
            )),
            ..JointTrack::default()
        };
        let pi = std::f32::consts::PI;
        let tracks = vec![
            turn(&[0.0, 0.375 * pi, 0.75 * pi, 1.125 * pi, 1.5 * pi]),
            turn(&[0.0, -0.25 * pi, -0.5 * pi, -0.75 * pi, -pi]),
            JointTrack::default(),
        ];
        let clip = crate::anim::clip::AnimationClip::new("swing", tracks, &skeleton).expect("clip");
        let mesh = Mesh {
            vertices,
            ..Mesh::default()
        };
        SkinnedModel::new("arm", "test", skeleton, vec![clip], mesh).expect("model")
    }

    fn arm_vertices() -> Vec<Vertex> {
        let mut vertices = Vec::new();
        for i in 0..=20 {
            let y = i as f32 / 10.0;
            let elbow = ((y - 0.8) / 0.4).clamp(0.0, 1.0);
            for x in [-0.1, 0.1] {
                vertices.push(vertex(
                    [x, y, 0.05],
                    [0, 1, 0, 0],
                    [1.0 - elbow, elbow, 0.0, 0.0],
                ));
            }
        }
        vertices
    }

    fn inside(b: &Bounds, p: Vec3) -> bool {
        p.cmpge(b.min).all() && p.cmple(b.max).all()
    }

    /// Skins every vertex with both blends at `steps` even times and asserts each is inside.
    fn assert_holds(model: &SkinnedModel, b: &Bounds, steps: u32) {
        let duration = model.clips()[0].duration();
        let mut scratch = PoseScratch::new(model.joint_count());
        let mut palette = vec![Mat3x4::IDENTITY; model.joint_count()];
        for k in 0..=steps {
            let t = duration * k as f32 / steps as f32;
            model.evaluate(0, t, &mut scratch, &mut palette);
            for (i, v) in model.mesh().vertices.iter().enumerate() {
                let gpu = gpu_skin_position(v, &palette);
                assert!(inside(b, gpu), "vertex {i} at {t}: {gpu} outside {b:?}");
                if v.joints.iter().all(|&j| usize::from(j) < palette.len()) {
                    let cpu = skin_vertex(v, &palette).position;
                    assert!(inside(b, cpu), "vertex {i} at {t}: {cpu} outside {b:?}");
                }
            }
        }
    }

    #[test]
    fn a_fast_swing_stays_inside_at_every_rate() {
        let model = arm(arm_vertices());
        for rate in [4.0, 10.0, 30.0] {
            let b = clip_bounds(&model, 0, rate)
                .expect("clip")
                .expect("vertices");
            assert_holds(&model, &b, 2000);
        }
    }

    #[test]
    fn joint_volumes_hold_their_vertices_and_skip_idle_joints() {
        let model = arm(arm_vertices());
        let volumes = joint_volumes(&model);
        assert!(volumes[2].is_none(), "the hand moves nothing");
        let shoulder = volumes[0].expect("shoulder");
        // The shoulder moves the vertices from y = 0 to y = 1.1 (at 1.2 the elbow has them
        // all).
        assert!(
            shoulder
                .centre
                .abs_diff_eq(Vec3::new(0.0, 0.55, 0.05), 1e-6)
        );
        assert!(
            shoulder
                .half_extents
                .abs_diff_eq(Vec3::new(0.1, 0.55, 0.0), 1e-6)
        );
        assert!((shoulder.radius - (0.01f32 + 0.3025).sqrt()).abs() < 1e-6);
    }

    #[test]
    fn unusual_weights_widen_the_box_enough() {
        let vertices = vec![
            // Negative weights: outside the hull of the joints' transforms.
            vertex([0.1, 1.0, 0.0], [0, 1, 0, 0], [1.5, -0.5, 0.0, 0.0]),
            vertex([0.1, 1.0, 0.0], [1, 0, 0, 0], [-0.5, 1.5, 0.0, 0.0]),
            // Weights summing to more and to less than one (the GPU does not renormalize).
            vertex([0.0, 2.0, 0.0], [1, 0, 0, 0], [0.9, 0.4, 0.0, 0.0]),
            vertex([0.0, 2.0, 0.0], [1, 0, 0, 0], [0.3, 0.2, 0.0, 0.0]),
            // Weightless: the CPU follows joint 1, the GPU collapses it to the origin.
            vertex([0.0, 1.5, 0.0], [1, 0, 0, 0], [0.0; 4]),
        ];
        let model = arm(vertices);
        let b = clip_bounds(&model, 0, 30.0)
            .expect("clip")
            .expect("vertices");
        assert_holds(&model, &b, 2000);
        let bind = bind_bounds(&model).expect("vertices");
        assert_holds_in_bind_pose(&model, &bind);
    }

    fn assert_holds_in_bind_pose(model: &SkinnedModel, b: &Bounds) {
        let mut scratch = PoseScratch::new(model.joint_count());
        let mut palette = vec![Mat3x4::IDENTITY; model.joint_count()];
        model.bind_palette(&mut scratch, &mut palette);
        for v in &model.mesh().vertices {
            assert!(inside(b, gpu_skin_position(v, &palette)));
            assert!(inside(b, skin_vertex(v, &palette).position));
        }
    }

    #[test]
    fn bind_bounds_hug_the_bind_pose() {
        let model = arm(arm_vertices());
        let b = bind_bounds(&model).expect("vertices");
        assert_holds_in_bind_pose(&model, &b);
        // The bind palette is the identity here, and the two vertex columns' joint volumes
        // are boxes: the bounds are the mesh's own box, to rounding.
        let exact = model.mesh().bounds().expect("vertices");
        assert!(b.min.abs_diff_eq(exact.min, 1e-5) && b.max.abs_diff_eq(exact.max, 1e-5));
    }

    #[test]
    fn no_vertices_no_bounds_and_bad_arguments_are_errors() {
        let model = arm(Vec::new());
        assert_eq!(clip_bounds(&model, 0, 30.0), Ok(None));
        assert_eq!(bind_bounds(&model), None);
        assert_eq!(
            clip_bounds(&model, 1, 30.0),
            Err(AnimError::ClipIndex { index: 1, count: 1 })
        );
        assert!(matches!(
            clip_bounds(&model, 0, f32::NAN),
            Err(AnimError::SampleRate { .. })
        ));
    }

    #[test]
    fn the_sphere_bounds_a_turned_cluster_and_the_box_an_aligned_one() {
        let volume = JointVolume {
            centre: Vec3::ZERO,
            radius: 1.0,
            axes: Mat3::IDENTITY,
            half_extents: Vec3::new(1.0, 0.1, 0.1),
        };
        let (aligned, _) = place(&volume, &Mat3x4::IDENTITY);
        assert!(aligned.extent.abs_diff_eq(Vec3::new(1.0, 0.1, 0.1), 1e-6));
        let turned = Mat3x4::from_trs(
            Vec3A::ZERO,
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
            Vec3A::ONE,
        );
        let (t, _) = place(&volume, &turned);
        let diagonal = 1.1 * std::f32::consts::FRAC_1_SQRT_2;
        assert!(
            t.extent
                .abs_diff_eq(Vec3::new(diagonal, diagonal, 0.1), 1e-6)
        );
        let round = JointVolume {
            half_extents: Vec3::ONE,
            ..volume
        };
        let (r, _) = place(&round, &turned);
        assert!(r.extent.abs_diff_eq(Vec3::ONE, 1e-6), "{:?}", r.extent);
    }
}
