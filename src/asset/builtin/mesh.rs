//! The built-in character's skinned mesh: the surface of its body (see `body`), polygonized
//! once, cut along the borders between materials, simplified with each border a seam both
//! materials share (so the subsets still meet edge to edge), and skinned.

use std::collections::HashMap;
use std::sync::OnceLock;

use glam::Vec3;
use meshopt::{SimplifyOptions, VertexDataAdapter};

use super::body::{Body, Wear, body};
use super::borders::cut_at_borders;
use super::surface_nets::{Field, Surface, polygonize};
use crate::anim::{Material, Mesh, Subset, Vertex};

/// Grid spacing of the polygonization, metres: fine enough for the hands' thinnest edge.
const CELL: f32 = 0.01;
/// Largest deviation the simplifier may add, metres.
const SIMPLIFY_ERROR: f32 = 0.0012;

/// The mesh, made on first use (a fraction of a second) and copied after.
pub fn mesh() -> Mesh {
    static MESH: OnceLock<Mesh> = OnceLock::new();
    MESH.get_or_init(build).clone()
}

fn build() -> Mesh {
    let body = body();
    let (lo, hi) = body.bounds();
    let mut surface = polygonize(&body, lo, hi, CELL);
    let cut = cut_at_borders(&body, &mut surface, CELL);
    let (copies, triangles) = simplified(&surface, &cut);
    let mut mesh = Mesh::default();
    for wear in Wear::ALL {
        append_subset(&mut mesh, &body, &surface, &copies, wear, &triangles);
    }
    // The soles' lowest vertex exactly on the ground, as the clips stand them (the grid puts
    // it a fraction of a millimetre above).
    let lowest = mesh
        .vertices
        .iter()
        .map(|v| v.position[1])
        .fold(f32::INFINITY, f32::min);
    for v in &mut mesh.vertices {
        v.position[1] -= lowest;
    }
    mesh
}

/// The surface simplified as one mesh in which a vertex on a border between materials is one
/// copy per material: meshoptimizer then treats the border as a seam, simplifies it as a line
/// and keeps both sides on it, so the subsets still meet edge to edge. Returns the copies'
/// positions and materials, and the triangles over them.
fn simplified(surface: &Surface, cut: &[([u32; 3], Wear)]) -> (Vec<(u32, Wear)>, Vec<[u32; 3]>) {
    let mut copy_of: HashMap<(u32, Wear), u32> = HashMap::new();
    let mut copies: Vec<(u32, Wear)> = Vec::new();
    let mut indices: Vec<u32> = Vec::with_capacity(cut.len() * 3);
    for (t, wear) in cut {
        for &v in t {
            let copy = *copy_of.entry((v, *wear)).or_insert_with(|| {
                copies.push((v, *wear));
                copies.len() as u32 - 1
            });
            indices.push(copy);
        }
    }
    let positions: Vec<[f32; 3]> = copies
        .iter()
        .map(|&(v, _)| surface.positions[v as usize].to_array())
        .collect();
    let kept = match VertexDataAdapter::new(bytemuck::cast_slice(&positions), 12, 0) {
        Ok(adapter) => meshopt::simplify(
            &indices,
            &adapter,
            0,
            SIMPLIFY_ERROR,
            SimplifyOptions::ErrorAbsolute,
            None,
        ),
        Err(_) => indices,
    };
    (copies, without_flaps(&kept))
}

/// The triangles less every one whose three corners another triangle also has: where border
/// vertices crowd, the simplifier can fold a strip into a flap (a triangle and its reverse),
/// which encloses nothing and would give its three edges four triangles each.
fn without_flaps(indices: &[u32]) -> Vec<[u32; 3]> {
    let triangles: Vec<[u32; 3]> = indices
        .chunks_exact(3)
        .map(|t| [t[0], t[1], t[2]])
        .collect();
    let mut by_corners: HashMap<[u32; 3], Vec<usize>> = HashMap::new();
    for (i, t) in triangles.iter().enumerate() {
        let mut key = *t;
        key.sort_unstable();
        by_corners.entry(key).or_default().push(i);
    }
    let mut dropped = vec![false; triangles.len()];
    for same in by_corners.values().filter(|same| same.len() > 1) {
        for &i in same {
            dropped[i] = true;
        }
    }
    triangles
        .into_iter()
        .zip(dropped)
        .filter(|(_, d)| !d)
        .map(|(t, _)| t)
        .collect()
}

/// Adds `wear`'s triangles as one subset with vertices of its own.
fn append_subset(
    mesh: &mut Mesh,
    body: &Body,
    surface: &Surface,
    copies: &[(u32, Wear)],
    wear: Wear,
    triangles: &[[u32; 3]],
) {
    let mut local_of = vec![u32::MAX; copies.len()];
    let vertex_start = mesh.vertices.len() as u32;
    let index_start = mesh.indices.len() as u32;
    for t in triangles.iter().filter(|t| copies[t[0] as usize].1 == wear) {
        for &c in t {
            if local_of[c as usize] == u32::MAX {
                local_of[c as usize] = mesh.vertices.len() as u32 - vertex_start;
                let p = surface.positions[copies[c as usize].0 as usize];
                let (joints, weights) = body.skin(p);
                mesh.vertices.push(vertex(body, p, joints, weights));
            }
            mesh.indices.push(vertex_start + local_of[c as usize]);
        }
    }
    let (name, base_color, roughness) = wear.material();
    mesh.subsets.push(Subset {
        vertex_start,
        vertex_count: mesh.vertices.len() as u32 - vertex_start,
        index_start,
        index_count: mesh.indices.len() as u32 - index_start,
        material: mesh.materials.len(),
    });
    mesh.materials.push(Material {
        name: name.to_string(),
        base_color,
        roughness,
        ..Material::default()
    });
}

/// A vertex at `p`: the field's gradient is the normal; texture coordinates are the front
/// view's x and y (the built-in character has no textures, but the layout expects them, and
/// a mapping without a seam gives the simplifier nothing to keep); the tangent runs around
/// the vertical axis (along x where the normal is vertical).
fn vertex(body: &Body, p: Vec3, joints: [u16; 4], weights: [f32; 4]) -> Vertex {
    let normal = body.gradient(p, CELL * 0.25).normalize_or(Vec3::Y);
    let around = Vec3::new(p.z, 0.0, -p.x);
    let tangent = (around - normal * normal.dot(around))
        .normalize_or((Vec3::X - normal * normal.x).normalize_or(Vec3::Z));
    Vertex {
        position: p.to_array(),
        normal: normal.to_array(),
        tangent: [tangent.x, tangent.y, tangent.z, 1.0],
        uv: [0.5 + p.x / 1.9, 1.0 - p.y / 1.9],
        joints,
        weights,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// The mesh's triangles over vertices welded by exact position (a border's vertices are
    /// copies in each subset).
    fn welded(mesh: &Mesh) -> (Vec<[u32; 3]>, usize) {
        let mut id: HashMap<[u32; 3], u32> = HashMap::new();
        let ids: Vec<u32> = mesh
            .vertices
            .iter()
            .map(|v| {
                let key = v.position.map(f32::to_bits);
                let next = id.len() as u32;
                *id.entry(key).or_insert(next)
            })
            .collect();
        let triangles = mesh
            .indices
            .chunks_exact(3)
            .map(|t| [ids[t[0] as usize], ids[t[1] as usize], ids[t[2] as usize]])
            .collect();
        (triangles, id.len())
    }

    #[test]
    fn the_body_is_one_closed_surface_like_a_sphere() {
        let mesh = mesh();
        let (triangles, vertices) = welded(&mesh);
        let mut edges: HashMap<(u32, u32), u32> = HashMap::new();
        for t in &triangles {
            assert!(
                t[0] != t[1] && t[1] != t[2] && t[2] != t[0],
                "a degenerate triangle"
            );
            for k in 0..3 {
                *edges.entry((t[k], t[(k + 1) % 3])).or_insert(0) += 1;
            }
        }
        for (&(a, b), &n) in &edges {
            assert_eq!(n, 1, "edge {a}-{b} is used {n} times in one direction");
            assert_eq!(edges.get(&(b, a)), Some(&1), "edge {a}-{b} borders a hole");
        }
        // Vertices - edges + faces = 2: one piece, no handle (no hand fused to a hip).
        let euler = vertices as i64 - edges.len() as i64 / 2 + triangles.len() as i64;
        assert_eq!(euler, 2);
    }
}
