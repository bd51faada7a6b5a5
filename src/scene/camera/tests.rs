use super::*;

/// `p` in normalized device coordinates (x right, y down, depth) after the divide.
fn ndc(m: Mat4, p: Vec3) -> Vec3 {
    let c = m * p.extend(1.0);
    assert!(c.w > 0.0, "{p} is behind the camera");
    c.truncate() / c.w
}

fn looking_down_minus_z() -> Camera {
    Camera {
        eye: Vec3::new(0.0, 0.0, 5.0),
        target: Vec3::ZERO,
        up: Vec3::Y,
        fov_y: DEFAULT_FOV_Y,
        near: 1.0,
        far: 9.0,
    }
}

#[test]
fn vulkan_clip_space_of_known_points() {
    let camera = looking_down_minus_z();
    let m = camera.view_proj(2.0);
    let centre = ndc(m, Vec3::ZERO);
    assert!(centre.x.abs() < 1e-6 && centre.y.abs() < 1e-6);
    // Above the target is up on screen: smaller framebuffer y, negative NDC y.
    assert!(ndc(m, Vec3::Y).y < 0.0);
    assert!(ndc(m, Vec3::X).x > 0.0);
    // Near plane -> 0, far plane -> 1, in between increasing.
    assert!(ndc(m, Vec3::new(0.0, 0.0, 4.0)).z.abs() < 1e-6);
    assert!((ndc(m, Vec3::new(0.0, 0.0, -4.0)).z - 1.0).abs() < 1e-6);
    assert!(ndc(m, Vec3::new(0.0, 0.0, 1.0)).z < ndc(m, Vec3::ZERO).z);
    // The top edge of the field of view lands on NDC y = -1; aspect widens x.
    let top = (0.5 * DEFAULT_FOV_Y).tan() * 5.0;
    assert!((ndc(m, Vec3::new(0.0, top, 0.0)).y + 1.0).abs() < 1e-5);
    assert!((ndc(m, Vec3::new(2.0 * top, 0.0, 0.0)).x - 1.0).abs() < 1e-5);
}

#[test]
fn front_facing_ccw_triangle_is_ccw_for_vulkan() {
    // Counter-clockwise as seen from the eye on +Z (glTF's front face).
    let tri = [Vec3::ZERO, Vec3::X, Vec3::Y];
    let (w, h) = (200.0, 100.0);
    let m = looking_down_minus_z().view_proj(w / h);
    let fb = tri.map(|p| {
        let n = ndc(m, p);
        ((n.x * 0.5 + 0.5) * w, (n.y * 0.5 + 0.5) * h)
    });
    // Vulkan's signed area (spec: rasterization, polygons): positive is counter-clockwise.
    let sum: f32 = (0..3)
        .map(|i| {
            let (a, b) = (fb[i], fb[(i + 1) % 3]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum();
    assert!(-0.5 * sum > 0.0);
}

fn assert_frames(camera: &Camera, min: Vec3, max: Vec3, aspect: f32) {
    let m = camera.view_proj(aspect);
    for corner in corners(&Bounds { min, max }) {
        let p = ndc(m, corner);
        assert!(
            p.x.abs() <= 1.0 && p.y.abs() <= 1.0 && p.z > 0.0 && p.z < 1.0,
            "corner {corner} -> {p} (box {min}..{max}, aspect {aspect})"
        );
    }
}

#[test]
fn framing_fits_every_corner_from_the_front_above() {
    let boxes = [
        (Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 2.0, 1.0)),
        (Vec3::new(-50.0, 0.0, -30.0), Vec3::new(50.0, 1.8, 30.0)),
        (Vec3::new(10.0, -5.0, 3.0), Vec3::new(10.5, 40.0, 3.2)),
        (Vec3::splat(2.0), Vec3::splat(2.0)),
    ];
    for (min, max) in boxes {
        for aspect in [0.5, 1.0, 16.0 / 9.0, 3.0] {
            let camera = Camera::framing(min, max, aspect);
            assert_frames(&camera, min, max, aspect);
            let centre = 0.5 * (min + max);
            assert!(camera.eye.z > centre.z && camera.eye.y > centre.y);
            assert!(camera.near > 0.0 && camera.far > camera.near);
        }
    }
}

#[test]
fn framing_is_tight() {
    // A wide, flat crowd should fill most of a wide image, not shrink inside a sphere.
    let (min, max) = (Vec3::new(-20.0, 0.0, -20.0), Vec3::new(20.0, 2.0, 20.0));
    let camera = Camera::framing(min, max, 16.0 / 9.0);
    let m = camera.view_proj(16.0 / 9.0);
    // The binding corner touches the fill limit (the rest of the view is a thin border).
    let widest = corners(&Bounds { min, max })
        .iter()
        .map(|&p| ndc(m, p).x.abs().max(ndc(m, p).y.abs()))
        .fold(0.0f32, f32::max);
    assert!((widest - FRAMING_FILL).abs() < 1e-3, "{widest}");
}

#[test]
fn looking_puts_the_eye_where_asked() {
    let (min, max) = (Vec3::new(-10.0, 0.0, -10.0), Vec3::new(10.0, 2.0, 10.0));
    let eye = Vec3::new(1.0, 1.7, 8.0);
    let target = Vec3::new(1.0, 1.0, -10.0);
    let orbit = OrbitCamera::looking(eye, target, min, max);
    let camera = orbit.camera();
    assert!(camera.eye.distance(eye) < 1e-4, "{}", camera.eye);
    assert!(
        camera.near > 0.0 && camera.near < 0.1,
        "near {}",
        camera.near
    );
    assert!(camera.far > 20.0);
    // The street view: eye at head height inside the front, the far edge in view.
    let grid: Vec<Vec3> = (0..400)
        .map(|i| Vec3::new((i % 20) as f32 - 9.5, 0.0, (i / 20) as f32 - 9.5))
        .collect();
    let street = OrbitCamera::street(min, max, &grid, 1.7, 1.0, false).camera();
    assert!((street.eye.y - 1.7).abs() < 1e-4, "{}", street.eye);
    assert!(street.eye.z < 8.0 && street.eye.z > 6.0, "{}", street.eye);
    // In a gap: half a cell from the nearest characters in x and z.
    let nearest = grid
        .iter()
        .map(|p| (p.x - street.eye.x).hypot(p.z - street.eye.z))
        .fold(f32::INFINITY, f32::min);
    assert!(nearest > 0.7, "{nearest}");
    let m = street.view_proj(16.0 / 9.0);
    let far_edge = ndc(m, Vec3::new(street.eye.x - 4.0, 0.0, -10.0));
    assert!(
        far_edge.x.abs() < 1.0 && far_edge.y.abs() < 1.0,
        "{far_edge}"
    );
    // The rows behind the eye are behind it.
    let behind = m * Vec3::new(street.eye.x, 1.0, 9.5).extend(1.0);
    assert!(behind.w < 0.0);

    // Along lanes: between two columns near the middle, whatever the rows, looking down
    // the gap.
    let lanes = OrbitCamera::street(min, max, &grid, 1.7, 1.0, true).camera();
    let sideways = grid
        .iter()
        .map(|p| (p.x - lanes.eye.x).abs())
        .fold(f32::INFINITY, f32::min);
    assert!(
        (sideways - 0.5).abs() < 1e-4,
        "{sideways} from the nearest column"
    );
    assert!(lanes.eye.x.abs() < 1.0, "{}", lanes.eye);
    assert!(
        (lanes.target.x - lanes.eye.x).abs() < 1e-4,
        "{}",
        lanes.target
    );
    assert!(lanes.target.z < lanes.eye.z);
}

#[test]
fn the_street_view_of_a_few_stands_in_front_of_them() {
    // One character, then a row of three a cell apart: too shallow to stand inside.
    for xs in [vec![0.0f32], vec![-1.0, 0.0, 1.0]] {
        let at: Vec<Vec3> = xs.iter().map(|&x| Vec3::new(x, 0.0, 0.0)).collect();
        let (min, max) = (
            Vec3::new(xs[0] - 0.3, 0.0, -0.15),
            Vec3::new(xs[xs.len() - 1] + 0.3, 1.8, 0.2),
        );
        for lanes in [false, true] {
            let street = OrbitCamera::street(min, max, &at, 1.7, 1.0, lanes).camera();
            assert!(street.eye.z > max.z + 1.0, "{} stands in them", street.eye);
            assert!((street.eye.y - 1.7).abs() < 1e-4);
            // Looking across, not at the ground at their feet.
            let ahead = (street.target - street.eye).normalize();
            assert!(ahead.y > -0.5 && ahead.z < -0.8, "looks {ahead}");
            // Every character's chest is in view.
            let m = street.view_proj(16.0 / 9.0);
            for p in &at {
                let c = ndc(m, *p + Vec3::Y * 1.2);
                assert!(c.x.abs() < 1.0 && c.y.abs() < 1.0, "{p} at {c}");
            }
            // A single character: straight in front; a row: between two of them.
            let sideways = at
                .iter()
                .map(|p| (p.x - street.eye.x).abs())
                .fold(f32::INFINITY, f32::min);
            let want = if at.len() == 1 { 0.0 } else { 0.5 };
            assert!((sideways - want).abs() < 1e-4, "{sideways} aside");
        }
    }
}

#[test]
fn flying_moves_the_eye_and_looking_keeps_it() {
    let (min, max) = (Vec3::new(-2.0, 0.0, -2.0), Vec3::new(2.0, 2.0, 2.0));
    let mut orbit = OrbitCamera::framing(min, max, 1.5);
    let eye = orbit.camera().eye;
    orbit.look(0.3, -0.1);
    assert!(
        orbit.camera().eye.distance(eye) < 1e-4,
        "looking moved the eye"
    );
    let ahead = (orbit.camera().target - orbit.camera().eye).normalize();
    orbit.fly(1.0, 0.0, 0.0);
    let moved = orbit.camera().eye - eye;
    assert!((moved - ahead).length() < 1e-4, "{moved} vs {ahead}");
    orbit.fly(0.0, 0.0, 2.0);
    assert!((orbit.camera().eye.y - eye.y - moved.y - 2.0).abs() < 1e-4);
    orbit.fly(f32::NAN, 0.0, 0.0);
    assert!(orbit.camera().eye.is_finite());
}

#[test]
fn orbit_rotates_zooms_pans_and_clamps() {
    let (min, max) = (Vec3::new(-2.0, 0.0, -2.0), Vec3::new(2.0, 2.0, 2.0));
    let mut orbit = OrbitCamera::framing(min, max, 1.5);
    let framed = Camera::framing(min, max, 1.5);
    assert!(orbit.camera().eye.distance(framed.eye) < 1e-4);
    assert_frames(&orbit.camera(), min, max, 1.5);

    orbit.rotate(0.0, 10.0);
    assert_eq!(orbit.pitch, MAX_PITCH);
    orbit.rotate(-orbit.yaw, -MAX_PITCH);
    let eye = orbit.camera().eye - orbit.target;
    assert!(
        eye.x.abs() < 1e-4 && eye.y.abs() < 1e-4 && eye.z > 0.0,
        "{eye}"
    );

    let d = orbit.distance;
    orbit.zoom(0.5);
    assert!((orbit.distance - 0.5 * d).abs() < 1e-5);
    orbit.zoom(-1.0);
    orbit.zoom(f32::NAN);
    assert!((orbit.distance - 0.5 * d).abs() < 1e-5);

    let before = orbit.target;
    orbit.pan(0.1, 0.0);
    let moved = orbit.target - before;
    assert!(moved.x > 0.0 && moved.y.abs() < 1e-5 && moved.z.abs() < 1e-5);
    let camera = orbit.camera();
    assert!(camera.near > 0.0 && camera.far > camera.near);
}
