//! Comparing two readings of one FBX model whose meshes sit in different spaces: throng's
//! ufbx loader keeps the mesh where it was bound in the scene, Assimp (and the glTF that
//! `assimp export` writes) in the mesh node's own space. What must agree is the pose of every
//! joint in model space, the palettes up to that one placement of the mesh, and the skinned
//! shape itself.
#![allow(dead_code)]

use glam::{Mat4, Vec3};
use throng::anim::{
    Mat3x4, PoseScratch, SkinnedModel, SkinnedVertex, Transform, local_to_model, skin_vertices,
};

/// The palette of `clip` at `t`.
pub fn palette(model: &SkinnedModel, clip: usize, t: f32) -> Vec<Mat3x4> {
    let n = model.joint_count();
    let mut scratch = PoseScratch::new(n);
    let mut out = vec![Mat3x4::IDENTITY; n];
    model.evaluate(clip, t, &mut scratch, &mut out);
    out
}

/// Every joint's model-space transform (to-root) in `clip` at `t`.
pub fn to_root(model: &SkinnedModel, clip: usize, t: f32) -> Vec<Mat4> {
    let n = model.joint_count();
    let mut locals = vec![Transform::IDENTITY; n];
    model.clips()[clip].sample(t, &mut locals);
    let mut out = vec![Mat3x4::IDENTITY; n];
    local_to_model(model.skeleton(), &locals, &mut out);
    out.iter().map(Mat3x4::to_mat4).collect()
}

/// The box around the mesh skinned with `clip` at `t`.
pub fn skinned_bounds(model: &SkinnedModel, clip: usize, t: f32) -> (Vec3, Vec3) {
    let vertices = &model.mesh().vertices;
    let mut out = vec![SkinnedVertex::default(); vertices.len()];
    skin_vertices(vertices, &palette(model, clip, t), &mut out);
    out.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), v| {
            let p = v.position;
            (lo.min(p), hi.max(p))
        },
    )
}

/// The largest entry difference of `a` and `b` over `b`'s largest entry (at least 1).
pub fn relative(a: &Mat4, b: &Mat4) -> f32 {
    let scale = b.to_cols_array().iter().fold(1.0f32, |m, x| m.max(x.abs()));
    let diff = (*a - *b)
        .to_cols_array()
        .iter()
        .fold(0.0f32, |m, x| m.max(x.abs()));
    diff / scale
}

/// Checks `ours` against `theirs`, another reading of the same file, in `clip` at each of
/// `times`: every joint of `ours` is a joint of `theirs` by name, with the same model-space
/// transform; the palettes agree up to one matrix (the mesh's placement, the same for every
/// joint and time); and the skinned meshes fill the same box.
pub fn assert_same_motion(ours: &SkinnedModel, theirs: &SkinnedModel, clip: usize, times: &[f32]) {
    let names = ours.skeleton().names();
    let map: Vec<usize> = names
        .iter()
        .map(|n| {
            theirs
                .skeleton()
                .find(n)
                .unwrap_or_else(|| panic!("{n} is a joint of {} too", theirs.format()))
        })
        .collect();
    let mut placement: Option<Mat4> = None;
    let start = to_root(ours, clip, times[0]);
    let mut moved = 0.0f32;
    for &t in times {
        let (a, b) = (to_root(ours, clip, t), to_root(theirs, clip, t));
        let (pa, pb) = (palette(ours, clip, t), palette(theirs, clip, t));
        for (j, &k) in map.iter().enumerate() {
            let diff = relative(&a[j], &b[k]);
            assert!(
                diff < 1e-4,
                "{} at {t}: to-root differs by {diff}\n  {:?}\n  {:?}",
                names[j],
                a[j],
                b[k]
            );
            // ours = theirs * placement⁻¹ for every joint and time.
            let (pa, pb) = (pa[j].to_mat4(), pb[k].to_mat4());
            let x = *placement.get_or_insert_with(|| pb.inverse() * pa);
            let diff = relative(&pa, &(pb * x));
            assert!(
                diff < 1e-4,
                "{} at {t}: palettes differ by {diff} beyond the mesh's placement",
                names[j]
            );
        }
        moved = a
            .iter()
            .zip(&start)
            .fold(moved, |m, (x, y)| m.max(relative(x, y)));
        let (lo, hi) = skinned_bounds(ours, clip, t);
        let (lo2, hi2) = skinned_bounds(theirs, clip, t);
        let size = (hi2 - lo2).max_element();
        let off = skinned_box_gap((lo, hi), (lo2, hi2));
        assert!(
            off < 1e-4 * size,
            "at {t}: skinned boxes {lo}..{hi} and {lo2}..{hi2}"
        );
    }
    // The comparison means something only if the clip moves the joints.
    assert!(moved > 0.05, "the joints barely move ({moved})");
}

/// The largest gap between two boxes' corresponding sides: a box that is too low at the top
/// counts as much as one that is too high.
pub fn skinned_box_gap((lo, hi): (Vec3, Vec3), (lo2, hi2): (Vec3, Vec3)) -> f32 {
    (lo - lo2).abs().max((hi - hi2).abs()).max_element()
}
