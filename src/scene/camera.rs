//! The camera: a look-at view and a perspective projection into Vulkan's clip space, a framing
//! of a box, and an orbit controller for interactive use.
//!
//! Vulkan's clip space differs from OpenGL's twice: framebuffer y points down, and depth runs
//! 0..1 (here near -> 0, far -> 1; no reverse-Z). glam 0.34 has exactly that projection
//! (`camera::rh::proj::vulkan`, which negates y); the tests below pin the convention with
//! known points rather than trusting the name. The y flip does not mirror the image: a
//! triangle that winds counter-clockwise as the viewer sees it (glTF's front faces) is
//! counter-clockwise in Vulkan's sense too (`VK_FRONT_FACE_COUNTER_CLOCKWISE`).

use glam::camera::rh::{proj::vulkan, view::look_at_mat4};
use glam::{Mat4, Vec3};

use super::basis::corners;
use crate::anim::Bounds;

/// Vertical field of view of framed and orbit cameras: 45 degrees.
pub const DEFAULT_FOV_Y: f32 = std::f32::consts::FRAC_PI_4;
/// Framing's direction: turned this far (radians) from +Z towards +X, a three-quarter view.
const FRAMING_YAW: f32 = 0.6;
/// Framing's elevation above the horizon, radians.
const FRAMING_PITCH: f32 = 0.4;
/// Share of the half field of view the framed box may fill: a thin border stays free.
const FRAMING_FILL: f32 = 0.92;
/// Orbit pitch limit, short of straight up or down where the look-at `up` degenerates.
const MAX_PITCH: f32 = 1.5;

/// A perspective camera in the world (right-handed, +Y up).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Where the camera is.
    pub eye: Vec3,
    /// The point it looks at (projects to the centre of the image).
    pub target: Vec3,
    /// The world direction that appears upwards; not parallel to `target - eye`.
    pub up: Vec3,
    /// Vertical field of view, radians.
    pub fov_y: f32,
    /// Distance to the near plane (depth 0), positive.
    pub near: f32,
    /// Distance to the far plane (depth 1), beyond `near`.
    pub far: f32,
}

impl Camera {
    /// World to view space (right-handed: the camera looks down -Z, +Y up).
    pub fn view(&self) -> Mat4 {
        // glam wants a unit `up`; any length says the same direction.
        look_at_mat4(self.eye, self.target, self.up.normalize_or(Vec3::Y))
    }

    /// View to Vulkan clip space for a framebuffer `aspect` (width / height) wide: y down,
    /// depth 0 at `near` and 1 at `far`.
    pub fn projection(&self, aspect: f32) -> Mat4 {
        vulkan::perspective(self.fov_y, sane_aspect(aspect), self.near, self.far)
    }

    /// World to Vulkan clip space: `projection(aspect) * view()`.
    pub fn view_proj(&self, aspect: f32) -> Mat4 {
        self.projection(aspect) * self.view()
    }

    /// A three-quarter view from the front (+Z side, a little to +X) and above, just far
    /// enough that the whole box `bounds_min..bounds_max` is in view at `aspect`, with near
    /// and far planes close around it (for depth precision and shadow-free margins).
    pub fn framing(bounds_min: Vec3, bounds_max: Vec3, aspect: f32) -> Camera {
        let towards_eye = orbit_direction(FRAMING_YAW, FRAMING_PITCH);
        let centre = 0.5 * (bounds_min + bounds_max);
        let half = 0.5 * (bounds_max - bounds_min).abs();
        let distance = fit_distance(towards_eye, half, DEFAULT_FOV_Y, aspect);
        let eye = centre + towards_eye * distance;
        let (near, far) = planes_around(eye.distance(centre), half.length());
        Camera {
            eye,
            target: centre,
            up: Vec3::Y,
            fov_y: DEFAULT_FOV_Y,
            near,
            far,
        }
    }
}

/// Width over height, with nonsense (zero, negative, NaN: a minimized window) read as square.
fn sane_aspect(aspect: f32) -> f32 {
    if aspect > 0.0 && aspect.is_finite() {
        aspect
    } else {
        1.0
    }
}

/// The unit vector from a target to an eye `yaw` radians from +Z towards +X and `pitch`
/// radians above the horizon.
fn orbit_direction(yaw: f32, pitch: f32) -> Vec3 {
    let (sy, cy) = yaw.sin_cos();
    let (sp, cp) = pitch.sin_cos();
    Vec3::new(sy * cp, sp, cy * cp)
}

/// How far along `towards_eye` from a box's centre (half extents `half`) the eye must stand so
/// that every corner is inside the view. Each corner, at lateral offsets (x, y) and depth
/// offset z from the centre, needs `|x| <= tan(half fov) * (distance + z)`; the largest such
/// distance is the tightest fit. The bounding sphere's radius is a floor so that the near
/// plane stays in front of the eye whatever the box's shape.
fn fit_distance(towards_eye: Vec3, half: Vec3, fov_y: f32, aspect: f32) -> f32 {
    let forward = -towards_eye;
    let right = forward.cross(Vec3::Y).normalize();
    let up = right.cross(forward);
    let tan_y = (0.5 * fov_y).tan() * FRAMING_FILL;
    let tan_x = tan_y * sane_aspect(aspect);
    let mut distance = half.length() * 1.05;
    for corner in corners(&Bounds {
        min: -half,
        max: half,
    }) {
        let z = corner.dot(forward);
        distance = distance
            .max(corner.dot(right).abs() / tan_x - z)
            .max(corner.dot(up).abs() / tan_y - z);
    }
    // A point-sized box still needs the eye somewhere else than the target.
    distance.max(1e-3)
}

/// Near and far planes around a sphere of `radius` whose centre is `distance` away, with a
/// margin so that nothing on the sphere lands on depth 0 or 1 exactly.
fn planes_around(distance: f32, radius: f32) -> (f32, f32) {
    let far = (distance + radius) * 1.05;
    // From inside the sphere, keep the near plane a small fraction of far: depth precision
    // falls with far / near.
    let near = ((distance - radius) * 0.95).max(far * 1e-3);
    (near, far)
}

/// An interactive camera circling `target`: drag to [`rotate`](OrbitCamera::rotate), wheel
/// to [`zoom`](OrbitCamera::zoom), [`pan`](OrbitCamera::pan) to move the target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    /// Angle around +Y, radians; 0 looks from +Z, positive turns the eye towards +X.
    pub yaw: f32,
    /// Elevation above the horizon, radians, within about +-86 degrees.
    pub pitch: f32,
    /// Distance from the eye to `target`, positive.
    pub distance: f32,
    /// The point circled and looked at.
    pub target: Vec3,
    /// Vertical field of view, radians.
    pub fov_y: f32,
    /// Centre of what is shown; near and far planes are kept around it.
    pub scene_centre: Vec3,
    /// Radius of what is shown around `scene_centre`.
    pub scene_radius: f32,
}

/// Seventeen spots a quarter `cell` apart around `x`, nearest first: x, then a quarter cell to
/// the left, to the right, half a cell to the left, ... two cells either side.
fn around(x: f32, cell: f32) -> impl Iterator<Item = f32> {
    (0..=16).map(move |step: i32| {
        let k = if step % 2 == 0 {
            step / 2
        } else {
            -(step + 1) / 2
        };
        x + k as f32 * 0.25 * cell
    })
}

impl OrbitCamera {
    /// Starts where [`Camera::framing`] would put a camera for the box.
    pub fn framing(bounds_min: Vec3, bounds_max: Vec3, aspect: f32) -> OrbitCamera {
        let camera = Camera::framing(bounds_min, bounds_max, aspect);
        OrbitCamera {
            yaw: FRAMING_YAW,
            pitch: FRAMING_PITCH,
            distance: camera.eye.distance(camera.target),
            target: camera.target,
            fov_y: camera.fov_y,
            scene_centre: camera.target,
            scene_radius: 0.5 * (bounds_max - bounds_min).length(),
        }
    }

    /// A camera at `eye` looking at `target` (they differ), keeping its near and far planes
    /// around the box `scene_min..scene_max`, from which it can then be orbited.
    pub fn looking(eye: Vec3, target: Vec3, scene_min: Vec3, scene_max: Vec3) -> OrbitCamera {
        let offset = eye - target;
        let distance = offset.length().max(1e-4);
        let horizontal = Vec3::new(offset.x, 0.0, offset.z).length();
        OrbitCamera {
            yaw: offset.x.atan2(offset.z),
            pitch: offset.y.atan2(horizontal).clamp(-MAX_PITCH, MAX_PITCH),
            distance,
            target,
            fov_y: DEFAULT_FOV_Y,
            scene_centre: 0.5 * (scene_min + scene_max),
            scene_radius: 0.5 * (scene_max - scene_min).length(),
        }
    }

    /// The street view of a crowd standing in `min..max` (its front towards +Z, where
    /// [`Camera::framing`] looks from) at `positions`: the eye at `eye_height` (a standing
    /// character's head) about three `cell`s in from the front edge. Without `lanes`, in the
    /// gap between characters that leaves it most room (so no head fills the view), looking
    /// across the crowd at its far edge, a little to the side. With `lanes` (walkers going
    /// front to back along their columns, which fill any gap between rows), in the gap
    /// between two columns nearest the middle, looking along it to the far edge: the walkers
    /// pass on either side, never through the eye; in a shallow crowd no deeper than a third
    /// of it, so rows stand ahead. Most of the crowd is then far away, and the rows behind the
    /// eye are out of view. A crowd shallower than four `cell`s has no inside to stand in: the
    /// eye stands in front of it (a cell and a half, or further for a wide one, so it fits the
    /// view), between two columns (or on the middle line of a single one), and looks straight
    /// across it.
    pub fn street(
        min: Vec3,
        max: Vec3,
        positions: &[Vec3],
        eye_height: f32,
        cell: f32,
        lanes: bool,
    ) -> OrbitCamera {
        let centre = 0.5 * (min + max);
        let depth = (max.z - min.z).max(0.0);
        if depth < 4.0 * cell {
            return Self::in_front(min, max, positions, eye_height, cell);
        }
        // Candidate spots around the centre line, a quarter cell apart, nearest the centre
        // first; the one farthest from its nearest character wins (ties: the first, the most
        // central, so the choice is reproducible). Along lanes only the sideways distance
        // counts: a walker comes down its column.
        let room = |x: f32, z: f32| {
            positions
                .iter()
                .map(|p| {
                    let along = if lanes { 0.0 } else { (p.z - z).powi(2) };
                    (p.x - x).powi(2) + along
                })
                .fold(f32::INFINITY, f32::min)
        };
        let mut best = (f32::NEG_INFINITY, centre.x, max.z);
        // Along lanes the rows ahead are what the view shows: in a shallow crowd the eye
        // stands no deeper than a third of it.
        let row = if lanes {
            cell.min(depth / 9.0)
        } else {
            cell.min(depth / 4.0)
        };
        for j in 0..4 {
            let z = max.z - (3.0 + j as f32 * 0.25) * row;
            for x in around(centre.x, cell) {
                let r = room(x, z);
                if r > best.0 + 1e-6 {
                    best = (r, x, z);
                }
            }
        }
        let eye = Vec3::new(best.1, min.y + eye_height, best.2);
        // Aim a little below the eye at the far edge: straight down the lane, or a fifth of
        // the width to the side. The far rows fill the lower half of the view, the sky the
        // upper.
        let aside = if lanes { 0.0 } else { 0.2 * (max.x - min.x) };
        let target = Vec3::new(eye.x - aside, min.y + 0.6 * eye_height, min.z);
        Self::looking_from(eye, target, min, max)
    }

    /// The street view of a crowd too shallow to stand inside: the eye a cell and a half in
    /// front of it, or further for a wide one so that all of it fits across a 16:9 view (half
    /// its width and half a cell aside, over 1.5 times the tangent of half the view's width,
    /// 0.7); between two columns, the spot nearest the characters' middle half a cell from
    /// every column (on a single column, its line); looking straight across at that middle.
    fn in_front(
        min: Vec3,
        max: Vec3,
        positions: &[Vec3],
        eye_height: f32,
        cell: f32,
    ) -> OrbitCamera {
        let (left, right) = positions
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(l, r), p| {
                (l.min(p.x), r.max(p.x))
            });
        // The characters' middle (the box may reach further one way, where they walk).
        let middle = if left <= right {
            0.5 * (left + right)
        } else {
            0.5 * (min.x + max.x)
        };
        let x = if right - left >= 0.5 * cell {
            // The most room sideways, up to half a cell: the most central spot with that much.
            let room = |x: f32| {
                positions
                    .iter()
                    .map(|p| (p.x - x).powi(2).min((0.5 * cell).powi(2)))
                    .fold(f32::INFINITY, f32::min)
            };
            let mut best = (f32::NEG_INFINITY, middle);
            for x in around(middle, cell) {
                let r = room(x);
                if r > best.0 + 1e-6 {
                    best = (r, x);
                }
            }
            best.1
        } else {
            middle
        };
        let stand_back = (0.5 * (max.x - min.x) + 0.5 * cell) / (1.5 * 0.7);
        let eye = Vec3::new(x, min.y + eye_height, max.z + 1.5 * cell.max(stand_back));
        let target = Vec3::new(middle, min.y + 0.6 * eye_height, min.z);
        Self::looking_from(eye, target, min, max)
    }

    /// [`Self::looking`] from `eye` at `target`, or straight ahead (-Z) where the two meet.
    fn looking_from(eye: Vec3, target: Vec3, min: Vec3, max: Vec3) -> OrbitCamera {
        let target = if target.distance(eye) > 1e-3 {
            target
        } else {
            eye - Vec3::Z
        };
        Self::looking(eye, target, min, max)
    }

    /// Turns the eye around the target by `dyaw` radians and raises it by `dpitch` radians;
    /// pitch stops short of the poles.
    pub fn rotate(&mut self, dyaw: f32, dpitch: f32) {
        if dyaw.is_finite() {
            self.yaw = (self.yaw + dyaw) % std::f32::consts::TAU;
        }
        if dpitch.is_finite() {
            self.pitch = (self.pitch + dpitch).clamp(-MAX_PITCH, MAX_PITCH);
        }
    }

    /// Turns the view about the eye (fly mode): the eye stays where it is, the target swings
    /// round it by `dyaw` radians and up by `dpitch`; pitch stops short of the poles.
    pub fn look(&mut self, dyaw: f32, dpitch: f32) {
        let eye = self.camera().eye;
        self.rotate(dyaw, dpitch);
        self.target = eye - orbit_direction(self.yaw, self.pitch) * self.distance;
    }

    /// Moves the eye and the target together (fly mode), in world units: `forward` along the
    /// view direction, `right` along the image's right, `up` along world +Y.
    pub fn fly(&mut self, forward: f32, right: f32, up: f32) {
        if !(forward.is_finite() && right.is_finite() && up.is_finite()) {
            return;
        }
        let ahead = -orbit_direction(self.yaw, self.pitch);
        let side = ahead.cross(Vec3::Y).normalize_or(Vec3::X);
        self.target += ahead * forward + side * right + Vec3::Y * up;
    }

    /// Multiplies the distance by `factor` (below 1 moves closer); anything not positive and
    /// finite is ignored.
    pub fn zoom(&mut self, factor: f32) {
        if factor > 0.0 && factor.is_finite() {
            self.distance = (self.distance * factor).max(1e-4);
        }
    }

    /// Moves the target (and with it the eye) `right` and `up` along the image's axes, in
    /// units of the current distance, so that a drag over the same share of the screen moves
    /// the view by the same apparent amount at any zoom.
    pub fn pan(&mut self, right: f32, up: f32) {
        if !(right.is_finite() && up.is_finite()) {
            return;
        }
        let forward = -orbit_direction(self.yaw, self.pitch);
        let screen_right = forward.cross(Vec3::Y).normalize();
        let screen_up = screen_right.cross(forward);
        self.target += (screen_right * right + screen_up * up) * self.distance;
    }

    /// The camera to render with now.
    pub fn camera(&self) -> Camera {
        let eye = self.target + orbit_direction(self.yaw, self.pitch) * self.distance;
        let (near, far) = planes_around(eye.distance(self.scene_centre), self.scene_radius);
        Camera {
            eye,
            target: self.target,
            up: Vec3::Y,
            fov_y: self.fov_y,
            near,
            far,
        }
    }
}

#[cfg(test)]
mod tests {
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
}
