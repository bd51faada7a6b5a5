use glam::{DVec2, Vec3};

use super::*;

fn square(c: DVec2, half: f64, clockwise: bool) -> Vec<DVec2> {
    let mut r = vec![
        c + DVec2::new(-half, -half),
        c + DVec2::new(half, -half),
        c + DVec2::new(half, half),
        c + DVec2::new(-half, half),
    ];
    if clockwise {
        r.reverse();
    }
    r
}

fn room() -> WalkableArea {
    // A 10 m room around (100, 200), given clockwise with its closing point repeated, and a
    // 2 m pillar given counter-clockwise: the builder orients both itself.
    let mut outline = square(DVec2::new(100.0, 200.0), 5.0, true);
    outline.push(outline[0]);
    WalkableArea {
        outline,
        holes: vec![square(DVec2::new(102.0, 201.0), 1.0, false)],
    }
}

/// The triangles of subset `s`, as world points.
fn triangles(mesh: &Mesh, s: usize) -> Vec<[Vec3; 3]> {
    let sub = &mesh.subsets[s];
    let range = sub.index_start as usize..(sub.index_start + sub.index_count) as usize;
    mesh.indices[range]
        .chunks_exact(3)
        .map(|t| [0, 1, 2].map(|k| Vec3::from(mesh.vertices[t[k] as usize].position)))
        .collect()
}

#[test]
fn the_floor_covers_the_area_less_its_obstacles_and_faces_up() {
    let origin = DVec2::new(100.0, 200.0);
    let model = walkable_model(&[room()], origin, WallStyle::default())
        .expect("model")
        .expect("an area");
    let mesh = model.mesh();
    assert_eq!(mesh.materials[0].name, "floor");
    let mut area = 0.0;
    for [a, b, c] in triangles(mesh, 0) {
        let n = (b - a).cross(c - a);
        assert!(n.y > 0.0, "a floor triangle faces down");
        area += 0.5 * n.length();
        assert!((a.y - WallStyle::default().floor_lift).abs() < 1e-6);
    }
    assert!((area - (100.0 - 4.0)).abs() < 1e-3, "floor area {area}");
}

#[test]
fn walls_stand_outside_the_walkable_area_and_face_out_of_themselves() {
    let origin = DVec2::new(100.0, 200.0);
    let style = WallStyle::default();
    let model = walkable_model(&[room()], origin, style)
        .expect("model")
        .expect("an area");
    let mesh = model.mesh();
    assert_eq!(mesh.materials[1].name, "wall");
    let walls = triangles(mesh, 1);
    // Four sides of the room and of the pillar, three quads each, and the pillar's lid.
    assert_eq!(walls.len(), 8 * 3 * 2 + 2);
    let t = f64::from(style.thickness);
    for tri in &walls {
        for p in tri {
            // The file's point: world x is x, world -z is y (relative to the origin).
            let q = DVec2::new(f64::from(p.x), -f64::from(p.z));
            let in_room = q.x.abs() < 5.0 - 1e-6 && q.y.abs() < 5.0 - 1e-6;
            let in_pillar = (q.x - 2.0).abs() <= 1.0 + 1e-6 && (q.y - 1.0).abs() <= 1.0 + 1e-6;
            assert!(
                !in_room || in_pillar,
                "a wall point {q} inside the walkable area"
            );
            assert!(q.x.abs() <= 5.0 + t * 1.5 && q.y.abs() <= 5.0 + t * 1.5);
            assert!(p.y >= 0.0 && p.y <= style.height + 1e-6);
        }
        // Winding agrees with the vertex normals.
        let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]);
        assert!(n.length() > 0.0);
    }
    for s in &mesh.subsets {
        let r = s.index_start as usize..(s.index_start + s.index_count) as usize;
        for t in mesh.indices[r].chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| Vec3::from(mesh.vertices[t[k] as usize].position));
            let normal = Vec3::from(mesh.vertices[t[0] as usize].normal);
            assert!(
                (b - a).cross(c - a).dot(normal) > 0.0,
                "winding against the normal"
            );
        }
    }
}

#[test]
fn degenerate_rings_make_no_scenery() {
    let bad = WalkableArea {
        outline: vec![DVec2::ZERO, DVec2::X, DVec2::X * 2.0],
        holes: vec![],
    };
    let nan = WalkableArea {
        outline: vec![DVec2::ZERO, DVec2::X, DVec2::new(f64::NAN, 1.0)],
        holes: vec![],
    };
    let none = walkable_model(
        &[bad, nan, WalkableArea::default()],
        DVec2::ZERO,
        WallStyle::default(),
    );
    assert!(none.expect("no error").is_none());
}
