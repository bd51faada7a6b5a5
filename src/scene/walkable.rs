//! The walkable area of a recorded or simulated crowd as scenery: a floor over the area and
//! walls on every boundary (the outline and each obstacle), built as a model of one still
//! joint so that it is drawn, lit, shadowed and culled like any character.
//!
//! Rings are given on the ground plane of the file they came from (x, y; z up). Each wall
//! stands outside the walkable area, its inner face on the boundary, so pedestrians that walk
//! along a wall are never inside it; an obstacle (a hole in the area) is a solid block, its
//! walls closed by a lid. The file's frame maps to the world's by a rotation
//! (x, y, z) -> (x, z, -y), so windings and normals keep their sense.

use glam::{DVec2, Quat, Vec3};

use crate::anim::{
    AnimError, AnimationClip, Channel, Joint, JointTrack, Material, Mesh, Skeleton, SkinnedModel,
    Subset, Transform, Vertex,
};

/// A walkable polygon: its outline and its obstacles (holes), each a ring of points on the
/// ground plane (not closed: the last point joins the first).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WalkableArea {
    /// The outer boundary.
    pub outline: Vec<DVec2>,
    /// Obstacles inside it.
    pub holes: Vec<Vec<DVec2>>,
}

/// How the scenery looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WallStyle {
    /// Wall height, metres.
    pub height: f32,
    /// Wall thickness, metres.
    pub thickness: f32,
    /// The floor's height above the ground plane (above it, so the two do not fight).
    pub floor_lift: f32,
}

impl Default for WallStyle {
    fn default() -> Self {
        Self {
            height: 1.0,
            thickness: 0.12,
            floor_lift: 0.004,
        }
    }
}

/// The longest a mitred wall corner reaches out, in wall thicknesses (sharper corners are cut
/// there, as a mason would).
const MITRE_LIMIT: f64 = 3.0;

/// The scenery of `areas` (ground-plane coordinates relative to `origin`, which lands on the
/// world's origin) as a model: subset 0 the floor, subset 1 the walls. `None` when the areas
/// hold no ring of three or more distinct points.
pub fn walkable_model(
    areas: &[WalkableArea],
    origin: DVec2,
    style: WallStyle,
) -> Result<Option<SkinnedModel>, AnimError> {
    let mut floor = Geometry::default();
    let mut walls = Geometry::default();
    for area in areas {
        let Some(outline) = clean_ring(&area.outline, origin, true) else {
            continue;
        };
        let holes: Vec<Vec<DVec2>> = area
            .holes
            .iter()
            .filter_map(|h| clean_ring(h, origin, false))
            .collect();
        floor.add_floor(&outline, &holes, style.floor_lift);
        walls.add_wall(&outline, style);
        for h in &holes {
            walls.add_wall(h, style);
            // An obstacle is solid: a lid over it at the walls' height.
            walls.add_floor(h, &[], style.height);
        }
    }
    if floor.indices.is_empty() && walls.indices.is_empty() {
        return Ok(None);
    }
    let mesh = mesh_of([
        (floor, material("floor", [0.56, 0.55, 0.52, 1.0])),
        (walls, material("wall", [0.78, 0.76, 0.72, 1.0])),
    ]);
    let skeleton = Skeleton::with_derived_offsets(vec![Joint::new(
        "scenery",
        None,
        Transform::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE),
    )])?;
    // One second of standing still: every part of the renderer expects a clip with time.
    let still = Channel::linear(vec![0.0, 1.0], vec![Vec3::ZERO, Vec3::ZERO]);
    let clip = AnimationClip::new(
        "still",
        vec![JointTrack {
            translation: Some(still),
            ..JointTrack::default()
        }],
        &skeleton,
    )?;
    SkinnedModel::new("walkable area", "scenery", skeleton, vec![clip], mesh).map(Some)
}

/// One mesh of the parts that have triangles, a subset and a material each.
fn mesh_of(parts: [(Geometry, Material); 2]) -> Mesh {
    let mut mesh = Mesh::default();
    for (g, m) in parts {
        if g.indices.is_empty() {
            continue;
        }
        let (vertex_start, index_start) = (mesh.vertices.len() as u32, mesh.indices.len() as u32);
        mesh.subsets.push(Subset {
            vertex_start,
            vertex_count: g.vertices.len() as u32,
            index_start,
            index_count: g.indices.len() as u32,
            material: mesh.materials.len(),
        });
        mesh.indices
            .extend(g.indices.iter().map(|i| i + vertex_start));
        mesh.vertices.extend(g.vertices);
        mesh.materials.push(m);
    }
    mesh
}

fn material(name: &str, color: [f32; 4]) -> Material {
    Material {
        name: name.into(),
        base_color: color,
        roughness: 0.9,
        ..Material::default()
    }
}

/// `ring` relative to `origin` without repeated or closing points, counter-clockwise for an
/// outline and clockwise for a hole (so every wall's outside lies to the right of its edges);
/// `None` for fewer than three points or no area.
fn clean_ring(ring: &[DVec2], origin: DVec2, outline: bool) -> Option<Vec<DVec2>> {
    let mut out: Vec<DVec2> = Vec::with_capacity(ring.len());
    for &p in ring {
        let p = p - origin;
        if !p.is_finite() {
            return None;
        }
        if out.last().is_none_or(|&q| (q - p).length() > 1e-6) {
            out.push(p);
        }
    }
    while out.len() > 1 && (out[0] - out[out.len() - 1]).length() <= 1e-6 {
        out.pop();
    }
    if out.len() < 3 {
        return None;
    }
    let area = signed_area(&out);
    if area.abs() < 1e-9 {
        return None;
    }
    if (area > 0.0) != outline {
        out.reverse();
    }
    Some(out)
}

/// The signed area of a ring (positive counter-clockwise).
fn signed_area(ring: &[DVec2]) -> f64 {
    let n = ring.len();
    0.5 * (0..n)
        .map(|i| ring[i].perp_dot(ring[(i + 1) % n]))
        .sum::<f64>()
}

/// Vertices and triangles of one subset, in world space.
#[derive(Default)]
struct Geometry {
    vertices: Vec<Vertex>,
    indices: Vec<u32>,
}

/// A point of the file's frame (ground x, y and height z) in the world.
fn world(p: DVec2, z: f32) -> Vec3 {
    Vec3::new(p.x as f32, z, -p.y as f32)
}

impl Geometry {
    fn vertex(&mut self, position: Vec3, normal: Vec3, uv: [f32; 2]) -> u32 {
        // A tangent along the surface (any: the scenery has no normal map).
        let tangent = if normal.y.abs() > 0.9 {
            Vec3::X
        } else {
            Vec3::Y.cross(normal).normalize_or(Vec3::X)
        };
        self.vertices.push(Vertex {
            position: position.to_array(),
            normal: normal.to_array(),
            tangent: [tangent.x, tangent.y, tangent.z, 1.0],
            uv,
            joints: [0; 4],
            weights: [1.0, 0.0, 0.0, 0.0],
        });
        (self.vertices.len() - 1) as u32
    }

    /// A quad `a b c d`, counter-clockwise seen from where `normal` points.
    fn quad(&mut self, corners: [Vec3; 4], normal: Vec3) {
        let uv = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        let k: Vec<u32> = corners
            .iter()
            .zip(uv)
            .map(|(&p, uv)| self.vertex(p, normal, uv))
            .collect();
        self.indices.extend([k[0], k[1], k[2], k[0], k[2], k[3]]);
    }

    /// The floor over `outline` with `holes` cut out, `lift` above the ground, facing up
    /// (also an obstacle's lid).
    fn add_floor(&mut self, outline: &[DVec2], holes: &[Vec<DVec2>], lift: f32) {
        let mut points: Vec<[f64; 2]> = outline.iter().map(|p| p.to_array()).collect();
        let mut starts: Vec<u32> = Vec::with_capacity(holes.len());
        for h in holes {
            starts.push(points.len() as u32);
            points.extend(h.iter().map(|p| p.to_array()));
        }
        let mut triangles: Vec<u32> = Vec::new();
        earcut::Earcut::new().earcut(points.iter().copied(), &starts, &mut triangles);
        let first = self.vertices.len() as u32;
        for p in &points {
            self.vertex(
                world(DVec2::from(*p), lift),
                Vec3::Y,
                [p[0] as f32, p[1] as f32],
            );
        }
        for t in triangles.chunks_exact(3) {
            // Face up: counter-clockwise seen from above in the file's frame, which the
            // rotation to the world keeps.
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| DVec2::from(points[i as usize]));
            let (i, j) = if (b - a).perp_dot(c - a) >= 0.0 {
                (t[1], t[2])
            } else {
                (t[2], t[1])
            };
            self.indices.extend([first + t[0], first + i, first + j]);
        }
    }

    /// A wall on the ring (its outside to the right of each edge): an inner face on the
    /// ring, a top, and an outer face on the ring offset by the thickness, mitred at corners.
    fn add_wall(&mut self, ring: &[DVec2], style: WallStyle) {
        let n = ring.len();
        let t = f64::from(style.thickness);
        let h = style.height;
        // The outward normal of edge i (from point i to i + 1).
        let normal = |i: usize| {
            let d = (ring[(i + 1) % n] - ring[i]).normalize_or_zero();
            DVec2::new(d.y, -d.x)
        };
        let outer: Vec<DVec2> = (0..n)
            .map(|i| {
                let (a, b) = (normal((i + n - 1) % n), normal(i));
                let mitre = a + b;
                let scale = 1.0 + a.dot(b);
                let offset = if scale > 1e-6 {
                    mitre * (t / scale)
                } else {
                    b * t
                };
                let limit = MITRE_LIMIT * t;
                ring[i]
                    + if offset.length() > limit {
                        offset * (limit / offset.length())
                    } else {
                        offset
                    }
            })
            .collect();
        for i in 0..n {
            let j = (i + 1) % n;
            let nn = normal(i);
            let out = Vec3::new(nn.x as f32, 0.0, -nn.y as f32);
            // Inner face, seen from the walkable side (normal pointing inwards).
            self.quad(
                [
                    world(ring[j], 0.0),
                    world(ring[i], 0.0),
                    world(ring[i], h),
                    world(ring[j], h),
                ],
                -out,
            );
            // Outer face.
            self.quad(
                [
                    world(outer[i], 0.0),
                    world(outer[j], 0.0),
                    world(outer[j], h),
                    world(outer[i], h),
                ],
                out,
            );
            // Top.
            self.quad(
                [
                    world(ring[i], h),
                    world(outer[i], h),
                    world(outer[j], h),
                    world(ring[j], h),
                ],
                Vec3::Y,
            );
        }
    }
}

#[cfg(test)]
mod tests;
