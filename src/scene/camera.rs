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
mod tests;
