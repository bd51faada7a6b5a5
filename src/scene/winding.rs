//! Which on-screen winding is a model's front face, read from the model's own data.
//!
//! A format's winding convention is not enough: the textbook's `.m3d` soldier was exported
//! from a right-handed tool and keeps Direct3D's clockwise front faces, while its static rock
//! is left-handed throughout; glTF and the built-in character wind counter-clockwise. So the
//! triangles' order is compared with the normals the artist shipped: where they agree, the
//! front face is counter-clockwise as the viewer sees it, unless the world matrix mirrors.

use glam::Vec3;

use super::basis::mirrors;
use crate::anim::{Mat3x4, PoseScratch, SkinnedModel, skin_vertex};

/// The winding of front-facing triangles on screen, in Vulkan's sense (framebuffer y down,
/// through [`Camera::view_proj`](super::Camera::view_proj)): map it to `VkFrontFace`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontFace {
    /// `VK_FRONT_FACE_COUNTER_CLOCKWISE`.
    CounterClockwise,
    /// `VK_FRONT_FACE_CLOCKWISE`.
    Clockwise,
}

/// The front face of `model`'s triangles drawn with `world` (its [`model_basis`](super::model_basis)
/// times any rotation and translation): counter-clockwise when the triangles' right-handed
/// cross products point along the vertex normals (area-weighted vote over the bind pose) and
/// `world` does not mirror; each of the two flips it. A model with no triangles counts as
/// counter-clockwise.
pub fn front_face(model: &SkinnedModel, world: &Mat3x4) -> FrontFace {
    if winding_follows_normals(model) != mirrors(world) {
        FrontFace::CounterClockwise
    } else {
        FrontFace::Clockwise
    }
}

/// Whether the triangles, taken in index order, face where their vertex normals point.
fn winding_follows_normals(model: &SkinnedModel) -> bool {
    let joints = model.joint_count();
    let mut palette = vec![Mat3x4::IDENTITY; joints];
    model.bind_palette(&mut PoseScratch::new(joints), &mut palette);
    let mesh = model.mesh();
    let skinned: Vec<_> = mesh
        .vertices
        .iter()
        .map(|v| skin_vertex(v, &palette))
        .collect();
    let vote: f64 = mesh
        .indices
        .chunks_exact(3)
        .map(|t| {
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| skinned[i as usize]);
            // The cross product's length is twice the area: big triangles weigh more.
            let geometric = (b.position - a.position).cross(c.position - a.position);
            let shipped: Vec3 = a.normal + b.normal + c.normal;
            geometric.dot(shipped) as f64
        })
        .sum();
    vote >= 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::model_basis;
    use crate::scene::testing::one_triangle;
    use glam::{Quat, Vec3A};

    /// One triangle in the z = 0 plane wound counter-clockwise seen from +Z, its normals
    /// pointing along `normal_z`.
    fn triangle(format: &str, normal_z: f32) -> SkinnedModel {
        let corners = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        one_triangle(format, corners, [0.0, 0.0, normal_z])
    }

    #[test]
    fn winding_and_mirror_each_flip_the_front_face() {
        let ccw = triangle("gltf", 1.0);
        assert_eq!(
            front_face(&ccw, &model_basis(&ccw)),
            FrontFace::CounterClockwise
        );
        let mirror = Mat3x4::from_trs(Vec3A::ZERO, Quat::IDENTITY, Vec3A::new(1.0, 1.0, -1.0));
        assert_eq!(front_face(&ccw, &mirror), FrontFace::Clockwise);
        let cw = triangle("m3d", -1.0);
        assert_eq!(front_face(&cw, &Mat3x4::IDENTITY), FrontFace::Clockwise);
        assert_eq!(front_face(&cw, &mirror), FrontFace::CounterClockwise);
    }

    #[test]
    fn the_builtin_character_is_counter_clockwise() {
        let model = crate::asset::builtin::model().expect("builtin");
        assert_eq!(
            front_face(&model, &model_basis(&model)),
            FrontFace::CounterClockwise
        );
    }
}
