//! The built-in props for the built-in character: a staff held in the right hand and a hat on
//! the head, each generated (closed cylinders), with the joint and offset that fit the
//! character (`throng run --attach staff`, `--attach hat`).

use std::f32::consts::TAU;

use glam::Vec3;

use crate::anim::{Material, Mesh, Subset, Vertex};

/// A built-in prop: its mesh, and where it goes on the built-in character.
#[derive(Clone, Debug)]
pub struct BuiltinProp {
    /// The mesh, in the prop's own frame (model units: metres).
    pub mesh: Mesh,
    /// The built-in character's joint it belongs on.
    pub joint: &'static str,
    /// Its origin in that joint's bind-pose frame.
    pub offset: Vec3,
}

/// The names of the built-in props.
pub const PROPS: [&str; 2] = ["staff", "hat"];

/// Sides of a prop's cylinders.
const SIDES: usize = 12;

/// The built-in prop called `name`, if there is one.
pub fn prop(name: &str) -> Option<BuiltinProp> {
    match name {
        // A wooden staff through the right fist, 1.5 m long, most of it above the hand.
        "staff" => Some(BuiltinProp {
            mesh: mesh(
                "wood",
                [0.36, 0.22, 0.11, 1.0],
                &[Cylinder {
                    radius: 0.022,
                    bottom: -0.55,
                    top: 0.95,
                }],
            ),
            joint: "hand_r",
            offset: Vec3::new(0.0, -0.09, 0.0),
        }),
        // A felt hat: a crown and a brim, sitting on the crown of the head.
        "hat" => Some(BuiltinProp {
            mesh: mesh(
                "felt",
                [0.08, 0.08, 0.09, 1.0],
                &[
                    Cylinder {
                        radius: 0.105,
                        bottom: 0.0,
                        top: 0.13,
                    },
                    Cylinder {
                        radius: 0.19,
                        bottom: 0.0,
                        top: 0.012,
                    },
                ],
            ),
            joint: "head",
            offset: Vec3::new(0.0, 0.165, 0.005),
        }),
        _ => None,
    }
}

/// A closed cylinder along +Y.
struct Cylinder {
    radius: f32,
    bottom: f32,
    top: f32,
}

/// One subset of `cylinders` in one material.
fn mesh(material: &str, color: [f32; 4], cylinders: &[Cylinder]) -> Mesh {
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for c in cylinders {
        append_cylinder(c, &mut vertices, &mut indices);
    }
    Mesh {
        subsets: vec![Subset {
            vertex_start: 0,
            vertex_count: vertices.len() as u32,
            index_start: 0,
            index_count: indices.len() as u32,
            material: 0,
        }],
        vertices,
        indices,
        materials: vec![Material {
            name: material.into(),
            base_color: color,
            roughness: 0.85,
            ..Material::default()
        }],
        textures: Vec::new(),
    }
}

/// Appends a cylinder's side (smooth) and its two caps (flat), wound counter-clockwise seen
/// from outside.
fn append_cylinder(c: &Cylinder, vertices: &mut Vec<Vertex>, indices: &mut Vec<u32>) {
    let vertex = |p: Vec3, n: Vec3, t: Vec3, uv: [f32; 2]| Vertex {
        position: p.to_array(),
        normal: n.to_array(),
        tangent: [t.x, t.y, t.z, 1.0],
        uv,
        joints: [0; 4],
        weights: [1.0, 0.0, 0.0, 0.0],
    };
    let around = |k: usize| {
        let a = TAU * k as f32 / SIDES as f32;
        Vec3::new(a.cos(), 0.0, -a.sin())
    };
    // Side: two rings.
    let side = vertices.len() as u32;
    for k in 0..=SIDES {
        let d = around(k);
        let tangent = Vec3::new(-d.z, 0.0, d.x);
        let u = k as f32 / SIDES as f32;
        for (y, v) in [(c.bottom, 1.0), (c.top, 0.0)] {
            vertices.push(vertex(d * c.radius + Vec3::Y * y, d, tangent, [u, v]));
        }
    }
    for k in 0..SIDES as u32 {
        let (b0, t0, b1, t1) = (
            side + 2 * k,
            side + 2 * k + 1,
            side + 2 * k + 2,
            side + 2 * k + 3,
        );
        indices.extend([b0, b1, t1, b0, t1, t0]);
    }
    // Caps: a fan each.
    for (y, n) in [(c.top, Vec3::Y), (c.bottom, -Vec3::Y)] {
        let centre = vertices.len() as u32;
        vertices.push(vertex(Vec3::Y * y, n, Vec3::X, [0.5, 0.5]));
        for k in 0..SIDES {
            let d = around(k);
            vertices.push(vertex(
                d * c.radius + Vec3::Y * y,
                n,
                Vec3::X,
                [0.5 + 0.5 * d.x, 0.5 + 0.5 * d.z],
            ));
        }
        for k in 0..SIDES as u32 {
            let (a, b) = (centre + 1 + k, centre + 1 + (k + 1) % SIDES as u32);
            if n.y > 0.0 {
                indices.extend([centre, a, b]);
            } else {
                indices.extend([centre, b, a]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_props_are_closed_outward_facing_and_fit_the_character() {
        let model = super::super::model().expect("builtin");
        for name in PROPS {
            let p = prop(name).expect("a built-in prop");
            assert!(
                model.skeleton().find(p.joint).is_some(),
                "{name}: {}",
                p.joint
            );
            let m = &p.mesh;
            m.validate(1).expect("a valid mesh");
            // Every triangle faces away from its cylinder's axis or cap: its normal agrees
            // with its vertices' normals.
            for t in m.indices.chunks_exact(3) {
                let [a, b, c] = [0, 1, 2].map(|k| Vec3::from(m.vertices[t[k] as usize].position));
                let face = (b - a).cross(c - a);
                let n = Vec3::from(m.vertices[t[0] as usize].normal);
                assert!(face.dot(n) > 0.0, "{name}: a triangle faces inwards");
            }
        }
        assert!(prop("sword").is_none());
    }
}
