//! Surface nets: a closed triangle mesh of the zero level of a signed distance function
//! sampled on a regular grid. One vertex per grid cell the surface crosses (the mean of the
//! crossings on the cell's edges, then pulled onto the surface), one quad per grid edge the
//! surface crosses. Unlike separate closed shapes, the result is one surface: where shapes
//! meet there is no seam and nothing inside.

use glam::{UVec3, Vec3};

/// Samples on a side of a block decided near or far at once.
const BLOCK: u32 = 4;
/// How many half diagonals of a block its centre must be from the surface to be far: the
/// distance estimates in use overstate the true distance by less than this.
const FAR_BLOCKS: f32 = 2.5;

/// A signed distance function: negative inside, positive outside, zero on the surface.
pub trait Field {
    /// The signed distance at `p`, metres (an estimate is enough near the surface).
    fn distance(&self, p: Vec3) -> f32;

    /// The field's gradient by central differences: the outward normal on the surface.
    fn gradient(&self, p: Vec3, step: f32) -> Vec3 {
        let d = |axis: Vec3| self.distance(p + axis * step) - self.distance(p - axis * step);
        Vec3::new(d(Vec3::X), d(Vec3::Y), d(Vec3::Z)) / (2.0 * step)
    }
}

/// A triangle mesh of the surface: positions and counter-clockwise triangles seen from
/// outside (the field's positive side).
pub struct Surface {
    /// Vertex positions.
    pub positions: Vec<Vec3>,
    /// Triangles as indices into `positions`.
    pub triangles: Vec<[u32; 3]>,
}

/// A box of samples `cell` apart: `count` samples along each axis from `origin`.
struct Grid {
    origin: Vec3,
    cell: f32,
    count: UVec3,
}

impl Grid {
    fn index(&self, x: u32, y: u32, z: u32) -> usize {
        ((z * self.count.y + y) * self.count.x + x) as usize
    }

    fn point(&self, x: u32, y: u32, z: u32) -> Vec3 {
        self.origin + Vec3::new(x as f32, y as f32, z as f32) * self.cell
    }
}

/// The corners of a cell as offsets, and the cell's twelve edges as pairs of corners.
const CORNERS: [[u32; 3]; 8] = [
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
    [1, 1, 0],
    [0, 0, 1],
    [1, 0, 1],
    [0, 1, 1],
    [1, 1, 1],
];
const EDGES: [(usize, usize); 12] = [
    (0, 1),
    (2, 3),
    (4, 5),
    (6, 7),
    (0, 2),
    (1, 3),
    (4, 6),
    (5, 7),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
];

/// Polygonizes `field` inside the box `min`..`max` with cells `cell` metres wide. The box
/// must hold the whole surface with at least one cell to spare, so the mesh is closed.
pub fn polygonize(field: &impl Field, min: Vec3, max: Vec3, cell: f32) -> Surface {
    let count = ((max - min) / cell).ceil().as_uvec3() + UVec3::ONE;
    let grid = Grid {
        origin: min,
        cell,
        count,
    };
    // Samples. Most of the box is far from the surface: a block of BLOCK^3 samples whose
    // centre is further from the surface than FAR_BLOCKS times the block's half diagonal
    // cannot hold a crossing (the field is an estimate of distance, off by less than that
    // factor), so its samples take the centre's value, and only blocks near the surface are
    // sampled one by one.
    let mut samples = vec![0.0f32; (count.x * count.y * count.z) as usize];
    let blocks = (count + UVec3::splat(BLOCK - 1)) / BLOCK;
    let half_diagonal = 0.5 * (BLOCK as f32) * cell * 3f32.sqrt();
    for bz in 0..blocks.z {
        for by in 0..blocks.y {
            for bx in 0..blocks.x {
                let first = UVec3::new(bx, by, bz) * BLOCK;
                let last = (first + UVec3::splat(BLOCK)).min(count);
                let centre = grid.origin + (first + last).as_vec3() * 0.5 * cell;
                let d = field.distance(centre);
                let far = d.abs() > FAR_BLOCKS * half_diagonal;
                for z in first.z..last.z {
                    for y in first.y..last.y {
                        for x in first.x..last.x {
                            samples[grid.index(x, y, z)] = if far {
                                d
                            } else {
                                field.distance(grid.point(x, y, z))
                            };
                        }
                    }
                }
            }
        }
    }

    // One vertex per cell with corners on both sides.
    let cells = count - UVec3::ONE;
    let cell_index = |x: u32, y: u32, z: u32| ((z * cells.y + y) * cells.x + x) as usize;
    let mut vertex_of_cell = vec![u32::MAX; (cells.x * cells.y * cells.z) as usize];
    let mut positions = Vec::new();
    for z in 0..cells.z {
        for y in 0..cells.y {
            for x in 0..cells.x {
                let value = |c: [u32; 3]| samples[grid.index(x + c[0], y + c[1], z + c[2])];
                let inside = CORNERS.iter().filter(|&&c| value(c) < 0.0).count();
                if inside == 0 || inside == 8 {
                    continue;
                }
                let mut sum = Vec3::ZERO;
                let mut crossings = 0.0;
                for &(a, b) in &EDGES {
                    let (ca, cb) = (CORNERS[a], CORNERS[b]);
                    let (va, vb) = (value(ca), value(cb));
                    if (va < 0.0) != (vb < 0.0) {
                        let t = va / (va - vb);
                        let pa = grid.point(x + ca[0], y + ca[1], z + ca[2]);
                        let pb = grid.point(x + cb[0], y + cb[1], z + cb[2]);
                        sum += pa + (pb - pa) * t;
                        crossings += 1.0;
                    }
                }
                vertex_of_cell[cell_index(x, y, z)] = positions.len() as u32;
                positions.push(sum / crossings);
            }
        }
    }
    // Pull each vertex onto the surface along the gradient, never further than half a cell
    // from where the crossings put it (so neighbouring quads cannot fold over).
    for p in &mut positions {
        *p = pull_onto(field, *p, cell);
    }

    // A quad around every grid edge the surface crosses; the four cells sharing the edge all
    // have a vertex. Winding follows which end of the edge is inside.
    let mut triangles = Vec::new();
    let mut quad = |corners: [usize; 4], inside_first: bool| {
        let v = corners.map(|c| vertex_of_cell[c]);
        let [a, b, c, d] = if inside_first {
            v
        } else {
            [v[0], v[3], v[2], v[1]]
        };
        // Split along the shorter diagonal: flatter, better shaped triangles.
        let p = [a, b, c, d].map(|i| positions[i as usize]);
        if p[0].distance_squared(p[2]) <= p[1].distance_squared(p[3]) {
            triangles.push([a, b, c]);
            triangles.push([a, c, d]);
        } else {
            triangles.push([a, b, d]);
            triangles.push([b, c, d]);
        }
    };
    for z in 1..cells.z {
        for y in 1..cells.y {
            for x in 1..cells.x {
                let here = samples[grid.index(x, y, z)] < 0.0;
                // Edge along +x from (x, y, z): the cells around it differ in y and z.
                if x + 1 < count.x && (samples[grid.index(x + 1, y, z)] < 0.0) != here {
                    quad(
                        [
                            cell_index(x, y - 1, z - 1),
                            cell_index(x, y, z - 1),
                            cell_index(x, y, z),
                            cell_index(x, y - 1, z),
                        ],
                        here,
                    );
                }
                if y + 1 < count.y && (samples[grid.index(x, y + 1, z)] < 0.0) != here {
                    quad(
                        [
                            cell_index(x - 1, y, z - 1),
                            cell_index(x - 1, y, z),
                            cell_index(x, y, z),
                            cell_index(x, y, z - 1),
                        ],
                        here,
                    );
                }
                if z + 1 < count.z && (samples[grid.index(x, y, z + 1)] < 0.0) != here {
                    quad(
                        [
                            cell_index(x - 1, y - 1, z),
                            cell_index(x, y - 1, z),
                            cell_index(x, y, z),
                            cell_index(x - 1, y, z),
                        ],
                        here,
                    );
                }
            }
        }
    }
    Surface {
        positions,
        triangles,
    }
}

/// `p` moved onto the surface along the field's gradient (three Newton steps), but never more
/// than half of `cell` from where it started, so that neighbouring triangles cannot fold over.
pub fn pull_onto(field: &impl Field, p: Vec3, cell: f32) -> Vec3 {
    let mut q = p;
    for _ in 0..3 {
        let g = field.gradient(q, cell * 0.25);
        q -= field.distance(q) * g / g.length_squared().max(1e-12);
    }
    let moved = q - p;
    if moved.length() > 0.5 * cell {
        p + moved.normalize() * 0.5 * cell
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Sphere(f32);
    impl Field for Sphere {
        fn distance(&self, p: Vec3) -> f32 {
            p.length() - self.0
        }
    }

    #[test]
    fn a_sphere_is_closed_outward_and_on_its_radius() {
        let surface = polygonize(&Sphere(0.3), Vec3::splat(-0.4), Vec3::splat(0.4), 0.03);
        assert!(surface.triangles.len() > 500);
        for p in &surface.positions {
            assert!((p.length() - 0.3).abs() < 1e-3, "{p} is off the sphere");
        }
        // Every edge is shared by exactly two triangles, once in each direction.
        let mut edges = std::collections::HashMap::new();
        for t in &surface.triangles {
            for k in 0..3 {
                *edges.entry((t[k], t[(k + 1) % 3])).or_insert(0) += 1;
            }
            let p = t.map(|i| surface.positions[i as usize]);
            let normal = (p[1] - p[0]).cross(p[2] - p[0]);
            assert!(
                normal.dot(p[0] + p[1] + p[2]) > 0.0,
                "a triangle faces inwards"
            );
        }
        for (&(a, b), &n) in &edges {
            assert_eq!(n, 1, "edge {a}-{b} used {n} times one way");
            assert_eq!(edges.get(&(b, a)), Some(&1), "edge {a}-{b} has no twin");
        }
        // Euler characteristic of a sphere.
        let (v, e, f) = (
            surface.positions.len() as i64,
            edges.len() as i64 / 2,
            surface.triangles.len() as i64,
        );
        assert_eq!(v - e + f, 2);
    }
}
