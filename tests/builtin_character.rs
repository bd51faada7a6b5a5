//! The generated character: structure, bind pose, skinning, and a plausible walk.

use glam::Vec3;
use throng::anim::{Mat3x4, PoseScratch, SkinnedModel, SkinnedVertex, skin_vertices};
use throng::asset::builtin::{self, joints as j};

fn model() -> SkinnedModel {
    builtin::model().expect("the built-in character generates")
}

#[test]
fn has_a_humanoid_skeleton_and_three_looping_clips() {
    let m = model();
    let s = m.skeleton();
    assert!(s.len() >= 20);
    for name in [
        "pelvis",
        "spine_01",
        "spine_02",
        "spine_03",
        "neck",
        "head",
        "clavicle_l",
        "upperarm_l",
        "forearm_l",
        "hand_l",
        "clavicle_r",
        "upperarm_r",
        "forearm_r",
        "hand_r",
        "thigh_l",
        "shin_l",
        "foot_l",
        "thigh_r",
        "shin_r",
        "foot_r",
    ] {
        assert!(s.find(name).is_some(), "missing joint {name}");
    }
    let names: Vec<&str> = m.clips().iter().map(|c| c.name()).collect();
    assert_eq!(names, ["idle", "walk", "run"]);
    let mut scratch = PoseScratch::new(s.len());
    let (mut first, mut last) = (
        vec![Mat3x4::IDENTITY; s.len()],
        vec![Mat3x4::IDENTITY; s.len()],
    );
    for (c, clip) in m.clips().iter().enumerate() {
        assert!(clip.duration() > 0.3, "{} is too short", clip.name());
        m.evaluate(c, 0.0, &mut scratch, &mut first);
        m.evaluate(c, clip.duration(), &mut scratch, &mut last);
        for (a, b) in first.iter().zip(&last) {
            assert!(
                a.abs_diff_eq(b, 1e-6),
                "{} does not loop seamlessly",
                clip.name()
            );
        }
    }
}

#[test]
fn mesh_is_dense_skinned_and_well_formed() {
    let m = model();
    let mesh = m.mesh();
    assert!(
        mesh.triangle_count() >= 2000,
        "{} triangles",
        mesh.triangle_count()
    );
    let mut blended = 0;
    for v in &mesh.vertices {
        let n = Vec3::from(v.normal);
        let t = Vec3::new(v.tangent[0], v.tangent[1], v.tangent[2]);
        assert!((n.length() - 1.0).abs() < 1e-4 && (t.length() - 1.0).abs() < 1e-4);
        assert!(n.dot(t).abs() < 1e-4, "tangent not perpendicular to normal");
        assert!(v.tangent[3].abs() == 1.0);
        assert!(v.uv.iter().all(|c| (0.0..=1.0).contains(c)));
        assert!((v.weights.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        if v.weights.iter().filter(|&&w| w > 0.0).count() >= 2 {
            blended += 1;
        }
    }
    assert!(
        blended * 5 > mesh.vertices.len(),
        "only {blended} vertices blend two joints"
    );
    assert_eq!(mesh.subsets.len(), mesh.materials.len());
    let covered: u32 = mesh.subsets.iter().map(|s| s.index_count).sum();
    assert_eq!(covered as usize, mesh.indices.len());
    // Closed, outward-facing surfaces: the signed volume of the mesh is positive and close to
    // that of a 1.8 m person (about 0.06 m^3).
    let volume: f32 = mesh
        .indices
        .chunks_exact(3)
        .map(|t| {
            let [a, b, c] = [0, 1, 2].map(|k| Vec3::from(mesh.vertices[t[k] as usize].position));
            a.dot(b.cross(c)) / 6.0
        })
        .sum();
    assert!((0.03..0.12).contains(&volume), "volume {volume}");
}

#[test]
fn bind_pose_palette_is_identity_and_skinning_reproduces_the_mesh() {
    let m = model();
    let mut scratch = PoseScratch::new(m.joint_count());
    let mut palette = vec![Mat3x4::IDENTITY; m.joint_count()];
    m.bind_palette(&mut scratch, &mut palette);
    for (i, p) in palette.iter().enumerate() {
        assert!(
            p.abs_diff_eq(&Mat3x4::IDENTITY, 1e-5),
            "joint {i}: {:?}",
            p.to_array()
        );
    }
    let mesh = m.mesh();
    let mut skinned = vec![SkinnedVertex::default(); mesh.vertices.len()];
    skin_vertices(&mesh.vertices, &palette, &mut skinned);
    for (v, s) in mesh.vertices.iter().zip(&skinned) {
        assert!(s.position.abs_diff_eq(Vec3::from(v.position), 1e-5));
        assert!(s.normal.abs_diff_eq(Vec3::from(v.normal), 1e-5));
    }
}

/// Skinned vertex positions of `clip` at `time`, and the to-root of every joint.
fn skinned_at(m: &SkinnedModel, clip: usize, time: f32) -> (Vec<Vec3>, Vec<Mat3x4>) {
    let mut scratch = PoseScratch::new(m.joint_count());
    let mut palette = vec![Mat3x4::IDENTITY; m.joint_count()];
    m.evaluate(clip, time, &mut scratch, &mut palette);
    let mut skinned = vec![SkinnedVertex::default(); m.mesh().vertices.len()];
    skin_vertices(&m.mesh().vertices, &palette, &mut skinned);
    (
        skinned.iter().map(|s| s.position).collect(),
        scratch.to_root(m.joint_count()).to_vec(),
    )
}

#[test]
fn walking_keeps_a_foot_on_the_ground_and_alternates_feet() {
    let m = model();
    let walk = m.clip_index("walk").expect("walk");
    let duration = m.clips()[walk].duration();
    let steps = 40;
    let mut lift = Vec::new(); // left ankle height minus right ankle height
    for k in 0..steps {
        let t = duration * k as f32 / steps as f32;
        let (positions, to_root) = skinned_at(&m, walk, t);
        let min_y = positions.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        let max_y = positions
            .iter()
            .map(|p| p.y)
            .fold(f32::NEG_INFINITY, f32::max);
        // Sampling between keys cuts corners slightly: within 1.5 cm of the ground.
        assert!(min_y.abs() < 0.015, "t = {t}: lowest point at {min_y} m");
        let (lo, hi) = positions
            .iter()
            .fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| {
                (lo.min(*p), hi.max(*p))
            });
        let width = (hi.x - lo.x).max(hi.z - lo.z);
        assert!(
            max_y - min_y > 1.6 && max_y - min_y < 2.0,
            "t = {t}: height {}",
            max_y - min_y
        );
        assert!(
            max_y - min_y > 1.5 * width,
            "t = {t}: {} tall, {width} wide",
            max_y - min_y
        );
        let left = to_root[j::FOOT_L as usize].translation();
        let right = to_root[j::FOOT_R as usize].translation();
        lift.push(left.y - right.y);
        // Both feet stay within a stride of the body.
        assert!(left.z.abs() < 0.6 && right.z.abs() < 0.6);
    }
    // Each foot swings clearly off the ground once per cycle, half a cycle after the other.
    let (k_left, left_high) = lift
        .iter()
        .enumerate()
        .fold((0, f32::MIN), |b, (k, &l)| if l > b.1 { (k, l) } else { b });
    let (k_right, right_high) = lift
        .iter()
        .enumerate()
        .fold((0, f32::MAX), |b, (k, &l)| if l < b.1 { (k, l) } else { b });
    assert!(
        left_high > 0.08 && right_high < -0.08,
        "feet lift {left_high} and {}",
        -right_high
    );
    let apart = (k_left as f32 - k_right as f32).abs() / steps as f32;
    assert!(
        (apart - 0.5).abs() < 0.1,
        "swings {apart} of a cycle apart: {lift:?}"
    );
    // The foot on the ground moves backwards relative to the body (walking in place).
    let (_, a) = skinned_at(&m, walk, 0.1 * duration);
    let (_, b) = skinned_at(&m, walk, 0.3 * duration);
    let ankle = |m: &[Mat3x4]| m[j::FOOT_L as usize].translation();
    assert!(
        ankle(&b).z < ankle(&a).z - 0.1,
        "stance foot does not push back"
    );
}
