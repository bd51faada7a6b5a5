//! The built-in character's skinned mesh, built from straight tubes of elliptical cross
//! section (torso, limbs, feet, head). Each tube runs along a chain of joints; rings near a
//! joint blend the two bones that meet there, so elbows and knees bend smoothly.

use std::f32::consts::TAU;

use glam::{Vec2, Vec3};

use super::skeleton::{HIP_X, SHOULDER_X, j};
use crate::anim::{Material, Mesh, Subset, Vertex};

/// Vertices around each ring.
const SEGMENTS: usize = 16;
/// Distance over which neighbouring bones blend on either side of a joint, metres.
const BLEND: f32 = 0.06;

/// How a tube's end is closed.
#[derive(Clone, Copy)]
enum Cap {
    /// A half-ellipsoid dome (limb ends).
    Dome,
    /// A single vertex on the axis (the profile already tapers to nothing).
    Pole,
}

/// A tube: an axis from `start` along unit `dir`, radii given at distances along it.
struct Tube {
    start: Vec3,
    dir: Vec3,
    /// (distance along the axis, half-width across, half-depth) control points, increasing.
    profile: &'static [(f32, f32, f32)],
    rings: usize,
    /// (distance along the axis where the joint's bone begins, joint): the chain of bones
    /// the tube follows.
    chain: &'static [(f32, u16)],
    caps: (Cap, Cap),
    /// Lift the axis by the half-depth, so the tube's underside is flat on the axis line
    /// (feet rest on the ground).
    flat_bottom: bool,
    /// Mirror x (right side of the body).
    mirror: bool,
}

/// A ring of the tube before it becomes vertices.
struct Ring {
    center: Vec3,
    half_width: f32,
    half_depth: f32,
    /// Distance along the axis (for texture coordinates and weights).
    s: f32,
}

const TORSO_PROFILE: &[(f32, f32, f32)] = &[
    (0.00, 0.12, 0.09),
    (0.08, 0.16, 0.11),
    (0.18, 0.145, 0.10),
    (0.26, 0.13, 0.095),
    (0.39, 0.15, 0.10),
    (0.52, 0.17, 0.11),
    (0.59, 0.18, 0.10),
    (0.64, 0.14, 0.08),
];
const TORSO_Y0: f32 = 0.86;
const TORSO_CHAIN: &[(f32, u16)] = &[
    (0.0, j::PELVIS),
    (1.10 - TORSO_Y0, j::SPINE_01),
    (1.25 - TORSO_Y0, j::SPINE_02),
    (1.40 - TORSO_Y0, j::SPINE_03),
];

const NECK_PROFILE: &[(f32, f32, f32)] = &[(0.0, 0.055, 0.055), (0.18, 0.05, 0.05)];
const NECK_CHAIN: &[(f32, u16)] = &[(0.0, j::SPINE_03), (0.06, j::NECK), (0.16, j::HEAD)];

const HEAD_PROFILE: &[(f32, f32, f32)] = &[
    (0.005, 0.026, 0.031),
    (0.02, 0.047, 0.055),
    (0.045, 0.066, 0.078),
    (0.08, 0.080, 0.094),
    (0.13, 0.085, 0.10),
    (0.18, 0.080, 0.094),
    (0.215, 0.066, 0.078),
    (0.24, 0.047, 0.055),
    (0.255, 0.026, 0.031),
];
const HEAD_Y0: f32 = 1.59;
const HEAD_CHAIN: &[(f32, u16)] = &[(0.0, j::NECK), (1.62 - HEAD_Y0, j::HEAD)];

const NOSE_PROFILE: &[(f32, f32, f32)] = &[(0.0, 0.016, 0.02), (0.035, 0.01, 0.012)];
const NOSE_CHAIN: &[(f32, u16)] = &[(0.0, j::HEAD)];

/// Shoulder top to wrist (sleeve), along -Y.
const ARM_Y0: f32 = 1.50;
const ARM_PROFILE: &[(f32, f32, f32)] = &[
    (0.00, 0.05, 0.05),
    (0.04, 0.056, 0.056),
    (0.20, 0.05, 0.05),
    (0.32, 0.042, 0.042),
    (0.45, 0.04, 0.038),
    (0.58, 0.032, 0.03),
];
const ARM_L_CHAIN: &[(f32, u16)] = &[
    (0.0, j::CLAVICLE_L),
    (ARM_Y0 - 1.46, j::UPPERARM_L),
    (ARM_Y0 - 1.18, j::FOREARM_L),
    (ARM_Y0 - 0.92, j::HAND_L),
];
const ARM_R_CHAIN: &[(f32, u16)] = &[
    (0.0, j::CLAVICLE_R),
    (ARM_Y0 - 1.46, j::UPPERARM_R),
    (ARM_Y0 - 1.18, j::FOREARM_R),
    (ARM_Y0 - 0.92, j::HAND_R),
];

/// Wrist to fingertips; thin across (palm faces the thigh), wide front to back.
const HAND_Y0: f32 = 0.95;
const HAND_PROFILE: &[(f32, f32, f32)] = &[
    (0.00, 0.028, 0.03),
    (0.05, 0.022, 0.045),
    (0.13, 0.018, 0.042),
    (0.19, 0.012, 0.03),
];
const HAND_L_CHAIN: &[(f32, u16)] = &[(0.0, j::FOREARM_L), (HAND_Y0 - 0.92, j::HAND_L)];
const HAND_R_CHAIN: &[(f32, u16)] = &[(0.0, j::FOREARM_R), (HAND_Y0 - 0.92, j::HAND_R)];

/// Hip to ankle, along -Y.
const LEG_Y0: f32 = 1.0;
const LEG_PROFILE: &[(f32, f32, f32)] = &[
    (0.00, 0.08, 0.08),
    (0.05, 0.085, 0.085),
    (0.25, 0.07, 0.07),
    (0.46, 0.05, 0.05),
    (0.60, 0.055, 0.055),
    (0.85, 0.04, 0.04),
    (0.92, 0.04, 0.045),
];
const LEG_L_CHAIN: &[(f32, u16)] = &[
    (0.0, j::PELVIS),
    (LEG_Y0 - 0.95, j::THIGH_L),
    (LEG_Y0 - 0.52, j::SHIN_L),
    (LEG_Y0 - 0.10, j::FOOT_L),
];
const LEG_R_CHAIN: &[(f32, u16)] = &[
    (0.0, j::PELVIS),
    (LEG_Y0 - 0.95, j::THIGH_R),
    (LEG_Y0 - 0.52, j::SHIN_R),
    (LEG_Y0 - 0.10, j::FOOT_R),
];

/// Heel to toe tip, along +Z, resting on the ground.
const FOOT_Z0: f32 = -0.07;
const FOOT_PROFILE: &[(f32, f32, f32)] = &[
    (0.00, 0.035, 0.04),
    (0.04, 0.045, 0.045),
    (0.12, 0.05, 0.04),
    (0.20, 0.05, 0.03),
    (0.27, 0.04, 0.02),
];
const FOOT_L_CHAIN: &[(f32, u16)] = &[(0.0, j::FOOT_L), (0.13 - FOOT_Z0, j::TOE_L)];
const FOOT_R_CHAIN: &[(f32, u16)] = &[(0.0, j::FOOT_R), (0.13 - FOOT_Z0, j::TOE_R)];

fn limb(
    start: Vec3,
    dir: Vec3,
    profile: &'static [(f32, f32, f32)],
    rings: usize,
    chain: &'static [(f32, u16)],
) -> Tube {
    Tube {
        start,
        dir,
        profile,
        rings,
        chain,
        caps: (Cap::Dome, Cap::Dome),
        flat_bottom: false,
        mirror: false,
    }
}

/// The left-side tube `make(left_chain)` and its mirror image bound to `right_chain`.
fn left_and_right(
    make: impl Fn(&'static [(f32, u16)]) -> Tube,
    left_chain: &'static [(f32, u16)],
    right_chain: &'static [(f32, u16)],
) -> [Tube; 2] {
    let right = Tube {
        mirror: true,
        ..make(right_chain)
    };
    [make(left_chain), right]
}

/// Material name, base color, roughness, and the tubes drawn with it.
fn parts() -> Vec<(&'static str, [f32; 4], f32, Vec<Tube>)> {
    let head = Tube {
        caps: (Cap::Pole, Cap::Pole),
        ..limb(
            Vec3::new(0.0, HEAD_Y0, 0.01),
            Vec3::Y,
            HEAD_PROFILE,
            14,
            HEAD_CHAIN,
        )
    };
    let nose = limb(
        Vec3::new(0.0, 1.70, 0.095),
        Vec3::new(0.0, -0.25, 1.0).normalize(),
        NOSE_PROFILE,
        3,
        NOSE_CHAIN,
    );
    let neck = limb(
        Vec3::new(0.0, 1.46, 0.0),
        Vec3::Y,
        NECK_PROFILE,
        5,
        NECK_CHAIN,
    );
    let torso = limb(
        Vec3::new(0.0, TORSO_Y0, 0.0),
        Vec3::Y,
        TORSO_PROFILE,
        22,
        TORSO_CHAIN,
    );
    let hand = |chain| {
        limb(
            Vec3::new(SHOULDER_X, HAND_Y0, 0.0),
            Vec3::NEG_Y,
            HAND_PROFILE,
            6,
            chain,
        )
    };
    let arm = |chain| {
        limb(
            Vec3::new(SHOULDER_X, ARM_Y0, 0.0),
            Vec3::NEG_Y,
            ARM_PROFILE,
            16,
            chain,
        )
    };
    let leg = |chain| {
        limb(
            Vec3::new(HIP_X, LEG_Y0, 0.0),
            Vec3::NEG_Y,
            LEG_PROFILE,
            22,
            chain,
        )
    };
    let foot = |chain| Tube {
        flat_bottom: true,
        ..limb(
            Vec3::new(HIP_X, 0.0, FOOT_Z0),
            Vec3::Z,
            FOOT_PROFILE,
            9,
            chain,
        )
    };
    let mut skin = vec![head, nose, neck];
    skin.extend(left_and_right(hand, HAND_L_CHAIN, HAND_R_CHAIN));
    let mut shirt = vec![torso];
    shirt.extend(left_and_right(arm, ARM_L_CHAIN, ARM_R_CHAIN));
    vec![
        ("skin", [0.80, 0.60, 0.48, 1.0], 0.6, skin),
        ("shirt", [0.16, 0.32, 0.62, 1.0], 0.8, shirt),
        (
            "trousers",
            [0.22, 0.22, 0.26, 1.0],
            0.9,
            left_and_right(leg, LEG_L_CHAIN, LEG_R_CHAIN).into(),
        ),
        (
            "shoes",
            [0.12, 0.08, 0.06, 1.0],
            0.5,
            left_and_right(foot, FOOT_L_CHAIN, FOOT_R_CHAIN).into(),
        ),
    ]
}

/// Builds the mesh: one subset per material, vertices of a subset contiguous.
pub fn mesh() -> Mesh {
    let mut mesh = Mesh::default();
    for (name, color, roughness, tubes) in parts() {
        let vertex_start = mesh.vertices.len() as u32;
        let index_start = mesh.indices.len() as u32;
        for tube in &tubes {
            append_tube(tube, &mut mesh.vertices, &mut mesh.indices);
        }
        mesh.subsets.push(Subset {
            vertex_start,
            vertex_count: mesh.vertices.len() as u32 - vertex_start,
            index_start,
            index_count: mesh.indices.len() as u32 - index_start,
            material: mesh.materials.len(),
        });
        mesh.materials.push(Material {
            name: name.to_string(),
            base_color: color,
            roughness,
            ..Material::default()
        });
    }
    mesh
}

/// Half-width and half-depth of the profile at distance `s` (linear between control points).
fn radii_at(profile: &[(f32, f32, f32)], s: f32) -> (f32, f32) {
    let i = profile
        .windows(2)
        .position(|w| s <= w[1].0)
        .unwrap_or(profile.len() - 2);
    let (s0, a0, b0) = profile[i];
    let (s1, a1, b1) = profile[i + 1];
    let f = ((s - s0) / (s1 - s0)).clamp(0.0, 1.0);
    (a0 + (a1 - a0) * f, b0 + (b1 - b0) * f)
}

/// Skin weights at distance `s` along a bone chain: the bone containing `s` dominates; within
/// [`BLEND`] of either end, the neighbouring bone takes up to half.
fn chain_weights(chain: &[(f32, u16)], s: f32) -> ([u16; 4], [f32; 4]) {
    let k = chain
        .iter()
        .rposition(|&(start, _)| s >= start)
        .unwrap_or(0);
    let mut joints = [chain[k].1, 0, 0, 0];
    let mut weights = [1.0, 0.0, 0.0, 0.0];
    let mut slot = 1;
    if k > 0 {
        let w = 0.5 * (1.0 - (s - chain[k].0) / BLEND).max(0.0);
        if w > 0.0 {
            joints[slot] = chain[k - 1].1;
            weights[slot] = w;
            weights[0] -= w;
            slot += 1;
        }
    }
    if let Some(&(next_start, next)) = chain.get(k + 1) {
        let w = 0.5 * (1.0 - (next_start - s) / BLEND).max(0.0);
        if w > 0.0 {
            joints[slot] = next;
            weights[slot] = w;
            weights[0] -= w;
        }
    }
    (joints, weights)
}

fn rings_of(tube: &Tube) -> Vec<Ring> {
    let (s_first, s_last) = (tube.profile[0].0, tube.profile[tube.profile.len() - 1].0);
    let mut rings = Vec::new();
    let ring_at = |s: f32, scale: f32, extra: f32| {
        let (a, b) = radii_at(tube.profile, s);
        // Feet: lift each ring by its half-depth so every ring's underside is on the ground.
        let lift = if tube.flat_bottom { b * scale } else { 0.0 };
        Ring {
            center: tube.start + tube.dir * (s + extra) + Vec3::Y * lift,
            half_width: a * scale,
            half_depth: b * scale,
            s: s + extra,
        }
    };
    let dome = |rings: &mut Vec<Ring>, s: f32, sign: f32, forward: bool| {
        let (a, b) = radii_at(tube.profile, s);
        let depth = 0.7 * a.min(b);
        let angles = [75.0f32, 50.0, 25.0];
        let mut domes: Vec<Ring> = angles
            .iter()
            .map(|deg| {
                let t = deg.to_radians();
                ring_at(s, t.cos(), sign * depth * t.sin())
            })
            .collect();
        if !forward {
            domes.reverse();
        }
        rings.extend(domes);
    };
    if let Cap::Dome = tube.caps.0 {
        dome(&mut rings, s_first, -1.0, true);
    }
    for i in 0..tube.rings {
        let s = s_first + (s_last - s_first) * i as f32 / (tube.rings - 1) as f32;
        rings.push(ring_at(s, 1.0, 0.0));
    }
    if let Cap::Dome = tube.caps.1 {
        dome(&mut rings, s_last, 1.0, false);
    }
    rings
}

fn append_tube(tube: &Tube, vertices: &mut Vec<Vertex>, indices: &mut Vec<u32>) {
    let rings = rings_of(tube);
    let dir = tube.dir;
    // Cross-section axes: `across` is the body's x axis made perpendicular to the tube.
    let across = (Vec3::X - dir * dir.dot(Vec3::X)).normalize();
    let depth_axis = dir.cross(across);
    let (s_min, s_max) = (rings[0].s, rings[rings.len() - 1].s);
    let mirror = |p: Vec3| {
        if tube.mirror {
            Vec3::new(-p.x, p.y, p.z)
        } else {
            p
        }
    };

    let base = vertices.len();
    let mut positions = Vec::new();
    for ring in &rings {
        for k in 0..=SEGMENTS {
            let phi = TAU * k as f32 / SEGMENTS as f32;
            positions.push(
                ring.center
                    + across * ring.half_width * phi.cos()
                    + depth_axis * ring.half_depth * phi.sin(),
            );
        }
    }
    let pole_s = [s_min, s_max];
    let poles = [
        rings[0].center - dir * 0.004,
        rings[rings.len() - 1].center + dir * 0.004,
    ];

    // Triangles (indices local to this tube), wound counter-clockwise seen from outside.
    let cols = SEGMENTS + 1;
    let ring_count = rings.len();
    let pole_index = [ring_count * cols, ring_count * cols + 1];
    let mut tris: Vec<[usize; 3]> = Vec::new();
    for r in 0..ring_count - 1 {
        for k in 0..SEGMENTS {
            let (a, b) = (r * cols + k, r * cols + k + 1);
            let (c, d) = ((r + 1) * cols + k + 1, (r + 1) * cols + k);
            tris.push([a, b, c]);
            tris.push([a, c, d]);
        }
    }
    for k in 0..SEGMENTS {
        tris.push([pole_index[0], k + 1, k]);
        let last = (ring_count - 1) * cols;
        tris.push([pole_index[1], last + k, last + k + 1]);
    }
    let mut all_positions = positions.clone();
    all_positions.extend(poles);

    // Smooth normals: area-weighted face normals, accumulated on the welded ring seam.
    let weld = |i: usize| {
        if i >= ring_count * cols {
            i
        } else {
            let (r, k) = (i / cols, i % cols);
            r * cols + k % SEGMENTS
        }
    };
    let mut normals = vec![Vec3::ZERO; all_positions.len()];
    for t in &tris {
        let [p0, p1, p2] = t.map(|i| all_positions[i]);
        let n = (p1 - p0).cross(p2 - p0);
        for &i in t {
            normals[weld(i)] += n;
        }
    }

    for (i, p) in all_positions.iter().enumerate() {
        let n = normals[weld(i)].normalize_or(dir);
        let (s, k) = if i < ring_count * cols {
            (rings[i / cols].s, i % cols)
        } else {
            (pole_s[i - ring_count * cols], 0)
        };
        let phi = TAU * k as f32 / SEGMENTS as f32;
        let around = -across * phi.sin() + depth_axis * phi.cos();
        let tangent = (around - n * n.dot(around)).normalize_or(across);
        let handedness = if n.cross(tangent).dot(dir) >= 0.0 {
            1.0
        } else {
            -1.0
        };
        let uv = Vec2::new(k as f32 / SEGMENTS as f32, (s - s_min) / (s_max - s_min));
        let (joints, weights) = chain_weights(tube.chain, s.clamp(s_min, s_max));
        let (p, n, t) = (mirror(*p), mirror(n), mirror(tangent));
        vertices.push(Vertex {
            position: p.into(),
            normal: n.into(),
            tangent: [
                t.x,
                t.y,
                t.z,
                if tube.mirror { -handedness } else { handedness },
            ],
            uv: uv.into(),
            joints,
            weights,
        });
    }
    // Mirroring flips the winding.
    for t in &tris {
        let t = if tube.mirror { [t[0], t[2], t[1]] } else { *t };
        indices.extend(t.iter().map(|&i| (base + i) as u32));
    }
}
