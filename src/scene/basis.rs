//! From a model's own space to throng's world: right-handed, +Y up.
//!
//! Loaders keep each format's handedness (the `.m3d` loader only transposes the format's
//! row-vector matrices), so a left-handed model is still left-handed in its [`SkinnedModel`].
//! Placing it in the world is where the mirror belongs: it is one matrix per model, folded into
//! every instance's world transform, and the renderer learns from [`mirrors`] that the
//! triangles of that model wind the other way on screen.

use glam::{Vec3, Vec3A};

use crate::anim::{Bounds, Mat3x4, SkinnedModel};

/// The correction from `model`'s space to the world: for `m3d` (Direct3D, left-handed, +Y up)
/// a mirror of z; identity for glTF, the built-in character and anything else (right-handed,
/// +Y up). No scale: the camera frames the crowd whatever its size.
pub fn model_basis(model: &SkinnedModel) -> Mat3x4 {
    match model.format() {
        crate::asset::m3d::FORMAT => Mat3x4::from_trs(
            Vec3A::ZERO,
            glam::Quat::IDENTITY,
            Vec3A::new(1.0, 1.0, -1.0),
        ),
        _ => Mat3x4::IDENTITY,
    }
}

/// Whether `m` mirrors (its 3x3 part has a negative determinant). A mirrored instance's
/// triangles appear with the opposite winding, so the renderer flips its front face for it.
pub fn mirrors(m: &Mat3x4) -> bool {
    m.to_affine().matrix3.determinant() < 0.0
}

/// The model's bind-pose box corners in world orientation (through [`model_basis`]).
fn world_corners(model: &SkinnedModel) -> Option<[Vec3; 8]> {
    let bounds = model.mesh().bounds()?;
    let basis = model_basis(model);
    Some(corners(&bounds).map(|c| basis.transform_point3(c)))
}

/// The eight corners of `b`.
pub(crate) fn corners(b: &Bounds) -> [Vec3; 8] {
    std::array::from_fn(|i| {
        Vec3::new(
            if i & 1 == 0 { b.min.x } else { b.max.x },
            if i & 2 == 0 { b.min.y } else { b.max.y },
            if i & 4 == 0 { b.min.z } else { b.max.z },
        )
    })
}

/// How much ground a model covers and how tall it stands, from its bind-pose bounds through
/// [`model_basis`]: `radius` is the farthest box corner from the model's vertical axis (so
/// any heading fits in a circle of that radius), `height` the box's extent along +Y. `(0, 0)`
/// for a model with no vertices.
pub fn footprint(model: &SkinnedModel) -> (f32, f32) {
    let Some(corners) = world_corners(model) else {
        return (0.0, 0.0);
    };
    let radius = corners
        .iter()
        .map(|c| c.x.hypot(c.z))
        .fold(0.0f32, f32::max);
    let (low, high) = corners
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), c| {
            (lo.min(c.y), hi.max(c.y))
        });
    (radius, high - low)
}

/// The world box of a model's bind pose placed by `world` (which already includes the basis),
/// `None` for a model with no vertices.
pub fn placed_bounds(model: &SkinnedModel, world: &Mat3x4) -> Option<Bounds> {
    let bounds = model.mesh().bounds()?;
    Bounds::of_points(corners(&bounds).map(|c| world.transform_point3(c)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::{Joint, Mesh, Skeleton, Transform, Vertex};
    use glam::Quat;

    /// A one-joint model of `format` whose single triangle spans x 0..1, y 0..2, z 0..3.
    fn model_of(format: &str) -> SkinnedModel {
        let skeleton = Skeleton::with_derived_offsets(vec![Joint::new(
            "root",
            None,
            Transform::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE),
        )])
        .expect("skeleton");
        let vertex = |p: [f32; 3]| Vertex {
            position: p,
            weights: [1.0, 0.0, 0.0, 0.0],
            ..Vertex::default()
        };
        let mesh = Mesh {
            vertices: vec![
                vertex([0.0, 0.0, 0.0]),
                vertex([1.0, 2.0, 0.0]),
                vertex([0.0, 0.0, 3.0]),
            ],
            indices: vec![0, 1, 2],
            ..Mesh::default()
        };
        SkinnedModel::new("t", format, skeleton, Vec::new(), mesh).expect("model")
    }

    #[test]
    fn m3d_mirrors_z_and_gltf_does_not() {
        let m3d = model_basis(&model_of("m3d"));
        assert!(mirrors(&m3d));
        assert_eq!(
            m3d.transform_point3(Vec3::new(1.0, 2.0, 3.0)),
            Vec3::new(1.0, 2.0, -3.0)
        );
        for format in ["gltf", "glb", "builtin"] {
            let basis = model_basis(&model_of(format));
            assert_eq!(basis, Mat3x4::IDENTITY, "{format}");
            assert!(!mirrors(&basis));
        }
    }

    #[test]
    fn footprint_is_through_the_basis_and_heading_proof() {
        for format in ["m3d", "gltf"] {
            let (radius, height) = footprint(&model_of(format));
            assert!((radius - 10f32.sqrt()).abs() < 1e-6, "{format}: {radius}");
            assert_eq!(height, 2.0);
        }
        let mirrored = placed_bounds(&model_of("m3d"), &model_basis(&model_of("m3d")));
        let b = mirrored.expect("bounds");
        assert_eq!((b.min.z, b.max.z), (-3.0, 0.0));
    }
}
