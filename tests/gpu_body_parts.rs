//! The built-in character is one body: no part of it shows through another.
//!
//! Its triangles are sorted into parts by the joints that move them (head, torso, each arm,
//! each leg), each part drawn in a flat colour of its own; and every triangle that lies inside
//! the body at rest (a centroid enclosed by the rest-pose surface, found by casting a ray
//! through the mesh here, not by the generator) is drawn in a warning colour. A character built
//! from separate closed pieces has such inner geometry (the top of a thigh inside the hips)
//! and shows it as soon as the pieces turn against each other. Rendered with 4x MSAA from a
//! step or two away (the street camera's distance), front, back and both sides, at eight
//! moments of the walk and of the run: no warning pixel may show. A control proves the check
//! sees what it looks for: a cap bound to the left thigh, hidden in the hip at rest, is
//! flagged and shows when the leg swings.
//!
//! Also on the CPU, over idle, walk and run: no vertex of a forearm, hand, shin or foot (away
//! from its elbow or knee) ever lies inside another part of the posed body, so swinging hands
//! never pass through the hips and feet never through each other. (Inside its own part is a
//! crease folding the surface onto itself, as at an ankle, and hidden.)
//!
//! `THRONG_TEST_OUT=DIR` writes the frames there as PNG. Without a Vulkan device this prints
//! why and skips, except under `CI=true`, where it fails.

mod gpu_common;

use std::sync::Arc;

use glam::Vec3;
use throng::anim::{
    Mat3x4, Material, Mesh, PoseScratch, SkinnedModel, SkinnedVertex, Subset, skin_vertex,
};
use throng::asset::builtin::joints as j;
use throng::asset::builtin::props::prop;
use throng::asset::props::{Attachment, attach};
use throng::gpu::{Pixels, ViewMode};
use throng::scene::Camera;

use gpu_common::{builtin, crowd_of, gait_moments, hold_pose, render_view};

const SIZE: u32 = 256;
/// How far off the surface, outwards, a point is probed, metres.
const OFF_SURFACE: f32 = 0.001;

/// The parts, by the joint that moves a vertex most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Head,
    Torso,
    ArmL,
    ArmR,
    LegL,
    LegR,
}

const PARTS: [Part; 6] = [
    Part::Head,
    Part::Torso,
    Part::ArmL,
    Part::ArmR,
    Part::LegL,
    Part::LegR,
];

fn part_of_joint(joint: u16) -> Part {
    match joint {
        j::NECK | j::HEAD => Part::Head,
        j::CLAVICLE_L..=j::HAND_L => Part::ArmL,
        j::CLAVICLE_R..=j::HAND_R => Part::ArmR,
        j::THIGH_L..=j::TOE_L => Part::LegL,
        j::THIGH_R..=j::TOE_R => Part::LegR,
        _ => Part::Torso,
    }
}

/// Flat colours: the parts in blues, greens and yellows, the warning a saturated magenta no
/// part's colour comes near under any light.
fn colour(part: Option<Part>) -> [f32; 4] {
    match part {
        Some(Part::Head) => [0.85, 0.85, 0.85, 1.0],
        Some(Part::Torso) => [0.15, 0.35, 0.85, 1.0],
        Some(Part::ArmL) => [0.15, 0.75, 0.25, 1.0],
        Some(Part::ArmR) => [0.75, 0.75, 0.15, 1.0],
        Some(Part::LegL) => [0.15, 0.7, 0.7, 1.0],
        Some(Part::LegR) => [0.5, 0.3, 0.1, 1.0],
        None => [1.0, 0.0, 1.0, 1.0],
    }
}

/// Whether a pixel is the warning colour: red and blue both well above green.
fn is_warning(px: &[u8]) -> bool {
    let (r, g, b) = (px[0] as i32, px[1] as i32, px[2] as i32);
    r > g + 60 && b > g + 60
}

/// Triangles (as corner positions) in a grid of columns along y, for casting rays along +x.
struct RayGrid {
    triangles: Vec<[Vec3; 3]>,
    /// A tag per triangle (its part, where a test needs it).
    tags: Vec<Part>,
    lo: Vec3,
    cell: f32,
    columns: Vec<Vec<u32>>,
    dims: (usize, usize),
}

impl RayGrid {
    fn new(triangles: Vec<[Vec3; 3]>, tags: Vec<Part>) -> RayGrid {
        let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
        for t in &triangles {
            for p in t {
                lo = lo.min(*p);
                hi = hi.max(*p);
            }
        }
        let cell = 0.02;
        let dims = (
            ((hi.y - lo.y) / cell) as usize + 1,
            ((hi.z - lo.z) / cell) as usize + 1,
        );
        let mut columns = vec![Vec::new(); dims.0 * dims.1];
        for (i, t) in triangles.iter().enumerate() {
            let (a, b) = (t[0].min(t[1]).min(t[2]), t[0].max(t[1]).max(t[2]));
            let y0 = ((a.y - lo.y) / cell) as usize;
            let y1 = ((b.y - lo.y) / cell) as usize;
            let z0 = ((a.z - lo.z) / cell) as usize;
            let z1 = ((b.z - lo.z) / cell) as usize;
            for y in y0..=y1.min(dims.0 - 1) {
                for z in z0..=z1.min(dims.1 - 1) {
                    columns[y * dims.1 + z].push(i as u32);
                }
            }
        }
        RayGrid {
            triangles,
            tags,
            lo,
            cell,
            columns,
            dims,
        }
    }

    /// Whether `p` is inside the closed mesh: an odd number of crossings of the line through
    /// `p` along x on either side of it (both sides must agree, so a ray through a shared edge,
    /// counted twice, cannot make a point inside). If it is, the tag of the nearest surface
    /// ahead of it: the part it is inside.
    fn encloses(&self, p: Vec3) -> Option<Part> {
        // Off the rows and columns the mesh's vertices line up on (its grid), so that the
        // line passes through no edge.
        let p = p + Vec3::new(0.0, 1.37e-5, 2.71e-5);
        let y = ((p.y - self.lo.y) / self.cell).floor();
        let z = ((p.z - self.lo.z) / self.cell).floor();
        if y < 0.0 || z < 0.0 || y as usize >= self.dims.0 || z as usize >= self.dims.1 {
            return None;
        }
        let (mut ahead, mut behind) = (0, 0);
        let mut first: Option<(f32, Part)> = None;
        for &i in &self.columns[y as usize * self.dims.1 + z as usize] {
            let [a, b, c] = self.triangles[i as usize];
            // Where the line through p along x meets the triangle's plane, if inside it
            // (barycentric test in the y-z projection).
            let (ab, ac, ap) = (b - a, c - a, p - a);
            let det = ab.y * ac.z - ab.z * ac.y;
            if det.abs() < 1e-12 {
                continue;
            }
            let u = (ap.y * ac.z - ap.z * ac.y) / det;
            let v = (ab.y * ap.z - ab.z * ap.y) / det;
            if u < 0.0 || v < 0.0 || u + v > 1.0 {
                continue;
            }
            let x = a.x + u * ab.x + v * ac.x;
            if x > p.x {
                ahead += 1;
                if first.is_none_or(|(at, _)| x < at) {
                    first = Some((x, self.tags[i as usize]));
                }
            } else {
                behind += 1;
            }
        }
        if ahead % 2 == 1 && behind % 2 == 1 {
            first.map(|(_, part)| part)
        } else {
            None
        }
    }
}

fn rest_positions(mesh: &Mesh) -> Vec<Vec3> {
    mesh.vertices
        .iter()
        .map(|v| Vec3::from(v.position))
        .collect()
}

fn corners(mesh: &Mesh, at: &[Vec3]) -> Vec<[Vec3; 3]> {
    mesh.indices
        .chunks_exact(3)
        .map(|t| [at[t[0] as usize], at[t[1] as usize], at[t[2] as usize]])
        .collect()
}

/// A vertex's part: the joint with the largest weight.
fn vertex_part(mesh: &Mesh, v: usize) -> Part {
    let vertex = &mesh.vertices[v];
    let k = (0..4)
        .max_by(|&a, &b| vertex.weights[a].total_cmp(&vertex.weights[b]))
        .unwrap_or(0);
    part_of_joint(vertex.joints[k])
}

/// Each triangle's part: the part most of its corners belong to.
fn triangle_parts(mesh: &Mesh) -> Vec<Part> {
    mesh.indices
        .chunks_exact(3)
        .map(|t| {
            let p = [t[0], t[1], t[2]].map(|v| vertex_part(mesh, v as usize));
            if p[1] == p[2] { p[1] } else { p[0] }
        })
        .collect()
}

/// `model`'s mesh redrawn in flat colours: a subset per part, and one for every triangle
/// enclosed by the rest-pose surface. Returns the model and how many triangles are inner.
fn in_parts(model: &SkinnedModel) -> (SkinnedModel, usize) {
    let mesh = model.mesh();
    let rest = rest_positions(mesh);
    let tags = triangle_parts(mesh);
    let grid = RayGrid::new(corners(mesh, &rest), tags.clone());
    let mut groups: Vec<Vec<u32>> = vec![Vec::new(); PARTS.len() + 1];
    let mut inner = 0;
    for (t, tri) in mesh.indices.chunks_exact(3).enumerate() {
        let tri = [tri[0], tri[1], tri[2]];
        let [a, b, c] = tri.map(|v| rest[v as usize]);
        // A millimetre off the triangle on its outer side: enclosed only if other surface
        // covers it there.
        let probe = (a + b + c) / 3.0 + (b - a).cross(c - a).normalize_or_zero() * OFF_SURFACE;
        // Slivers (where a material border was cut close to a corner) have no outer side to
        // speak of; anything real inside the body is made of triangles larger than 1 mm2.
        let sliver = (b - a).cross(c - a).length() * 0.5 < 1e-6;
        let group = if !sliver && grid.encloses(probe).is_some() {
            inner += 1;
            PARTS.len()
        } else {
            PARTS.iter().position(|&q| q == tags[t]).unwrap_or(0)
        };
        groups[group].extend_from_slice(&tri);
    }
    let mut flat = Mesh {
        vertices: mesh.vertices.clone(),
        ..Mesh::default()
    };
    for (g, indices) in groups.iter().enumerate() {
        if indices.is_empty() {
            continue;
        }
        flat.subsets.push(Subset {
            vertex_start: 0,
            vertex_count: mesh.vertices.len() as u32,
            index_start: flat.indices.len() as u32,
            index_count: indices.len() as u32,
            material: flat.materials.len(),
        });
        flat.indices.extend_from_slice(indices);
        flat.materials.push(Material {
            name: format!("part {g}"),
            base_color: colour(PARTS.get(g).copied()),
            roughness: 1.0,
            ..Material::default()
        });
    }
    let mut parts = model.clone();
    parts
        .replace_mesh(flat)
        .expect("the same vertices, regrouped");
    (parts, inner)
}

/// A camera at a standing eye's height, `distance` from the character's hips, looking at
/// them from `yaw` (0: from the front).
fn close_camera(yaw: f32, distance: f32) -> Camera {
    let target = Vec3::new(0.0, 0.92, 0.0);
    Camera {
        eye: target + Vec3::new(yaw.sin() * distance, 0.6, yaw.cos() * distance),
        target,
        up: Vec3::Y,
        fov_y: std::f32::consts::FRAC_PI_4,
        near: 0.05,
        far: 50.0,
    }
}

fn save(pixels: &Pixels, name: &str) {
    if let Ok(dir) = std::env::var("THRONG_TEST_OUT") {
        let path = std::path::Path::new(&dir).join(format!("{name}.png"));
        image::save_buffer(
            &path,
            &pixels.rgba8,
            pixels.width,
            pixels.height,
            image::ExtendedColorType::Rgba8,
        )
        .expect("png");
    }
}

/// Renders `model` (one instance at the origin, facing +z) at eight moments of walk and run
/// from four sides; returns the warning pixels and the frames' character pixels.
fn warnings_over_cycles(
    r: &mut throng::gpu::HeadlessRenderer,
    model: &Arc<SkinnedModel>,
    tag: &str,
) -> (usize, usize) {
    let (mut crowd, bounds) = crowd_of(r, std::slice::from_ref(model), 1, 1);
    let mut warning = 0;
    let mut coloured = 0;
    for (k, &(name, clip, t)) in gait_moments(model).iter().enumerate() {
        hold_pose(&mut crowd, clip, t);
        for side in 0..4 {
            let camera = close_camera(side as f32 * std::f32::consts::FRAC_PI_2, 2.4);
            let pixels = render_view(r, &mut crowd, &camera, &bounds, ViewMode::Final);
            warning += pixels
                .rgba8
                .chunks_exact(4)
                .filter(|p| is_warning(p))
                .count();
            coloured += pixels
                .rgba8
                .chunks_exact(4)
                .filter(|p| p[0].abs_diff(p[2]) > 40 || p[1].abs_diff(p[2]) > 40)
                .count();
            if k % 2 == 0 {
                save(&pixels, &format!("{tag}-{name}-{k}-{side}"));
            }
        }
    }
    (warning, coloured)
}

#[test]
fn no_part_of_the_body_shows_through_another() {
    let Some(mut r) = gpu_common::renderer(SIZE, SIZE) else {
        return;
    };
    let base = builtin();
    let (parts, inner) = in_parts(&base);
    assert_eq!(inner, 0, "triangles inside the body at rest");
    let (warning, coloured) = warnings_over_cycles(&mut r, &Arc::new(parts), "body");
    assert!(
        coloured > 64 * 2000,
        "the character is drawn ({coloured} pixels)"
    );
    assert_eq!(warning, 0, "pixels of inner geometry show");

    // The control: a cap on the left thigh, just inside the hip at rest.
    let cap = prop("hat").expect("the built-in hat");
    let thigh = base.skeleton().find("thigh_l").expect("thigh_l");
    let capped = attach(
        &base,
        &[Attachment {
            name: "cap".into(),
            mesh: cap.mesh.clone(),
            joint: thigh,
            offset: Vec3::new(0.0, -0.05, 0.06),
        }],
    )
    .expect("attached");
    let (parts, inner) = in_parts(&capped);
    assert!(inner > 0, "the cap inside the hip is found");
    drop(r);
    let Some(mut r) = gpu_common::renderer(SIZE, SIZE) else {
        panic!("a second renderer on the same device");
    };
    let (warning, _) = warnings_over_cycles(&mut r, &Arc::new(parts), "control");
    assert!(
        warning > 50,
        "the cap shows through the hip: {warning} pixels"
    );
    gpu_common::assert_no_validation_messages();
}

#[test]
fn hands_and_feet_never_enter_the_body() {
    let model = builtin();
    let mesh = model.mesh();
    let n = model.joint_count();
    let (mut scratch, mut palette) = (PoseScratch::new(n), vec![Mat3x4::IDENTITY; n]);
    model.bind_palette(&mut scratch, &mut palette);
    let rest_joint = |joint: u16| scratch.to_root(n)[joint as usize].transform_point3(Vec3::ZERO);
    // Vertices moved mostly by a forearm, hand, shin or foot joint, and 8 cm or more from
    // the elbow or knee.
    let limb_end = |v: &throng::anim::Vertex| {
        let k = (0..4)
            .max_by(|&a, &b| v.weights[a].total_cmp(&v.weights[b]))
            .unwrap_or(0);
        let hinge = match v.joints[k] {
            j::FOREARM_L | j::HAND_L => j::FOREARM_L,
            j::FOREARM_R | j::HAND_R => j::FOREARM_R,
            j::SHIN_L | j::FOOT_L | j::TOE_L => j::SHIN_L,
            j::SHIN_R | j::FOOT_R | j::TOE_R => j::SHIN_R,
            _ => return false,
        };
        Vec3::from(v.position).distance(rest_joint(hinge)) > 0.08
    };
    let checked_vertices: Vec<usize> = (0..mesh.vertices.len())
        .filter(|&v| limb_end(&mesh.vertices[v]))
        .collect();
    assert!(
        checked_vertices.len() > 300,
        "{} vertices",
        checked_vertices.len()
    );
    let tags = triangle_parts(mesh);
    let mut checked = 0;
    for name in ["idle", "walk", "run"] {
        let clip = model.resolve_clip(name).expect("clip");
        let duration = model.clips()[clip].duration();
        for k in 0..16 {
            let t = duration * k as f32 / 16.0;
            model.evaluate(clip, t, &mut scratch, &mut palette);
            let skinned: Vec<SkinnedVertex> = mesh
                .vertices
                .iter()
                .map(|v| skin_vertex(v, &palette))
                .collect();
            let posed: Vec<Vec3> = skinned.iter().map(|s| s.position).collect();
            let grid = RayGrid::new(corners(mesh, &posed), tags.clone());
            for &v in &checked_vertices {
                let probe = posed[v] + skinned[v].normal * OFF_SURFACE;
                let own = vertex_part(mesh, v);
                if let Some(other) = grid.encloses(probe) {
                    assert_eq!(
                        other, own,
                        "{name} at {t:.2} s: the {own:?} vertex at {} lies inside the {other:?}",
                        posed[v]
                    );
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 3 * 16 * checked_vertices.len());
}
