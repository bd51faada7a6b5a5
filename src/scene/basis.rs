//! From a model's own space to throng's world: right-handed, +Y up.
//!
//! Loaders keep each source's own space (the `.m3d` loader only transposes the format's
//! row-vector matrices). Placing a model in the world is where an axis or handedness
//! correction belongs: one matrix per model, folded into every instance's world transform;
//! the renderer learns from [`mirrors`] when it flips the triangles' winding on screen.
//!
//! Every format throng reads today is right-handed with +Y up as its data stands, so the
//! basis is the identity. That includes `.m3d`, although Direct3D is left-handed: the
//! textbook's demo places its soldier with a scale of (0.05, 0.05, -0.05), "reflecting" it
//! from the right-handed space it was exported in to Direct3D's. throng's world is
//! right-handed, so the soldier needs no reflection; mirroring it would swap its left and
//! right.

use glam::Vec3;

use crate::anim::{Bounds, Mat3x4, PoseScratch, SkinnedModel, skin_vertex};

/// The correction from `model`'s space to the world. Identity for every format read today
/// (see the module documentation for `.m3d`); a left-handed source would get a mirror of z
/// here ([`MIRROR_Z`]). No scale: the camera frames the crowd whatever its size.
pub fn model_basis(_model: &SkinnedModel) -> Mat3x4 {
    // glTF, the built-in character and the textbook's .m3d files: right-handed, +Y up.
    Mat3x4::IDENTITY
}

/// A mirror of z: what turns a left-handed, +Y-up model right-handed.
pub const MIRROR_Z: Mat3x4 = Mat3x4 {
    rows: [glam::Vec4::X, glam::Vec4::Y, glam::Vec4::NEG_Z],
};

/// Whether `m` mirrors (its 3x3 part has a negative determinant): a mirrored instance's
/// triangles appear on screen with the opposite winding.
pub fn mirrors(m: &Mat3x4) -> bool {
    m.to_affine().matrix3.determinant() < 0.0
}

/// The box around the mesh skinned with the bind-pose palette, in model space: what is drawn
/// before any clip plays. Not [`Mesh::bounds`](crate::anim::Mesh::bounds) of the raw vertex
/// positions: a glTF skin may hold its mesh in another frame (CesiumMan's is Z-up) that the
/// joints' bind transforms turn upright. `None` for a model with no vertices.
pub fn bind_pose_bounds(model: &SkinnedModel) -> Option<Bounds> {
    let joints = model.joint_count();
    let mut palette = vec![Mat3x4::IDENTITY; joints];
    model.bind_palette(&mut PoseScratch::new(joints), &mut palette);
    let vertices = &model.mesh().vertices;
    Bounds::of_points(vertices.iter().map(|v| skin_vertex(v, &palette).position))
}

/// Most clips whose first frame [`rest_pose_bounds`] skins: more than a character's usual
/// set, and a bound on the work a file with thousands of clips can ask for.
const MAX_REST_CLIPS: usize = 8;

/// The box around the mesh as a crowd first shows it, in model space: skinned at the first
/// frame of each clip (the first eight), or in the bind pose when the model has
/// no clips. What decides where the ground is under a model ([`standing_basis`]): the bind
/// pose need not be a pose anybody sees, and a clip may put the feet below it.
pub fn rest_pose_bounds(model: &SkinnedModel) -> Option<Bounds> {
    let clips = model.clips().len().min(MAX_REST_CLIPS);
    if clips == 0 {
        return bind_pose_bounds(model);
    }
    let joints = model.joint_count();
    let mut scratch = PoseScratch::new(joints);
    let mut palette = vec![Mat3x4::IDENTITY; joints];
    let vertices = &model.mesh().vertices;
    let mut all: Option<Bounds> = None;
    for clip in 0..clips {
        model.evaluate(clip, 0.0, &mut scratch, &mut palette);
        let Some(b) = Bounds::of_points(vertices.iter().map(|v| skin_vertex(v, &palette).position))
        else {
            continue;
        };
        all = Some(match all {
            Some(a) => Bounds {
                min: a.min.min(b.min),
                max: a.max.max(b.max),
            },
            None => b,
        });
    }
    all
}

/// [`model_basis`], then lifted or lowered along +Y so that the lowest point of the model's
/// [`rest_pose_bounds`] is on the ground plane y = 0: a file's origin may sit at the middle of
/// the body (`tiny.x`'s is 255 units above its feet) or under the feet, and a crowd should
/// stand on its ground either way. (Footprints and framing keep the bind pose, which the
/// lift moves along with everything else.)
pub fn standing_basis(model: &SkinnedModel) -> Mat3x4 {
    let basis = model_basis(model);
    let Some(placed) = rest_pose_bounds(model).map(|b| transform_bounds(&b, &basis)) else {
        return basis;
    };
    let lift = Mat3x4::from_trs(
        glam::Vec3A::new(0.0, -placed.min.y, 0.0),
        glam::Quat::IDENTITY,
        glam::Vec3A::ONE,
    );
    lift.mul(&basis)
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

/// How much ground a model covers and how tall it stands, from its [`bind_pose_bounds`] through
/// [`model_basis`]: `radius` is the farthest box corner from the model's vertical axis (so
/// any heading fits in a circle of that radius), `height` the box's extent along +Y. `(0, 0)`
/// for a model with no vertices.
pub fn footprint(model: &SkinnedModel) -> (f32, f32) {
    let Some(upright) = placed_bounds(model, &model_basis(model)) else {
        return (0.0, 0.0);
    };
    let radius = corners(&upright)
        .iter()
        .map(|c| c.x.hypot(c.z))
        .fold(0.0f32, f32::max);
    (radius, upright.size().y)
}

/// The world box of a model's [`bind_pose_bounds`] placed by `world` (which already includes
/// the basis), `None` for a model with no vertices.
pub fn placed_bounds(model: &SkinnedModel, world: &Mat3x4) -> Option<Bounds> {
    Some(transform_bounds(&bind_pose_bounds(model)?, world))
}

/// The world box around `bounds` transformed by `world` (the box of its eight corners).
pub fn transform_bounds(bounds: &Bounds, world: &Mat3x4) -> Bounds {
    let c = corners(bounds).map(|c| world.transform_point3(c));
    Bounds {
        min: c.iter().fold(c[0], |m, &p| m.min(p)),
        max: c.iter().fold(c[0], |m, &p| m.max(p)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::testing::one_triangle;

    /// A model of `format` whose single triangle spans x 0..1, y 0..2, z 0..3.
    fn model_of(format: &str) -> SkinnedModel {
        let corners = [[0.0, 0.0, 0.0], [1.0, 2.0, 0.0], [0.0, 0.0, 3.0]];
        one_triangle(format, corners, [0.0, 1.0, 0.0])
    }

    #[test]
    fn every_format_read_today_is_right_handed_and_the_mirror_mirrors() {
        assert!(mirrors(&MIRROR_Z));
        assert_eq!(
            MIRROR_Z.transform_point3(Vec3::new(1.0, 2.0, 3.0)),
            Vec3::new(1.0, 2.0, -3.0)
        );
        for format in ["m3d", "gltf", "glb", "builtin"] {
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
        let mirrored = placed_bounds(&model_of("m3d"), &MIRROR_Z);
        let b = mirrored.expect("bounds");
        assert_eq!((b.min.z, b.max.z), (-3.0, 0.0));
    }

    #[test]
    fn standing_basis_puts_the_lowest_point_on_the_ground() {
        // Origin in the middle of the body, as tiny.x has it: lifted by 1.
        let centred = [[0.0, -1.0, 0.0], [1.0, 1.0, 0.0], [0.0, -1.0, 3.0]];
        let model = one_triangle("x", centred, [0.0, 1.0, 0.0]);
        let stood = standing_basis(&model);
        let b = placed_bounds(&model, &stood).expect("bounds");
        assert_eq!((b.min.y, b.max.y), (0.0, 2.0));
        // Already standing: unchanged.
        assert_eq!(standing_basis(&model_of("gltf")), Mat3x4::IDENTITY);
    }

    #[test]
    fn the_rest_pose_is_the_clips_first_frames() {
        // tiny.x's first frames agree with its bind pose here; the built-in walk's first
        // frame moves the feet apart, which the bind pose does not show.
        let model = crate::asset::builtin::model().expect("builtin");
        let bind = bind_pose_bounds(&model).expect("bind");
        let rest = rest_pose_bounds(&model).expect("rest");
        assert!(rest.size().z > bind.size().z, "{rest:?} vs {bind:?}");
        assert!(
            rest.min.y.abs() < 1e-3,
            "the built-in character stands at y = 0"
        );
    }
}
