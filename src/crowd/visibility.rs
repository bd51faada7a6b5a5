//! The rules that decide, per instance and view, whether it is drawn, at which mesh level, and
//! whether its animation may come from baked frames. The GPU's culling shader
//! (`shaders/cull.comp`) applies the same rules to every instance each frame; this is their
//! CPU statement: the crowd uses it to evaluate exact palettes only for the instances that
//! need them, and the tests use it as the reference for the GPU's counts.
//!
//! Everything is conservative in one direction: a box that might be visible is drawn, and a
//! coarser level or baked frames are chosen only when their error covers at most the allowed
//! number of pixels at the box's nearest point to the eye.

use glam::{Mat4, Vec3, Vec4};

use crate::anim::{Bounds, Mat3x4};

pub use super::gpu_codes::LOD_LEVELS;

/// The smallest distance, in world units, at which projected sizes are computed: a box the eye
/// is in (or touches) counts as this near, so it gets the finest level.
pub const NEAREST: f32 = 1e-3;

/// A shadow's mesh level may stray this many times as far as the surface's: shadows are
/// soft (filtered), often seen obliquely, and the shadow map has fewer texels per unit than
/// the screen, so for the same size a shadow takes a coarser level.
pub const SHADOW_ERROR_SCALE: f32 = 2.0;

/// A shadow's mesh level may also stray this many shadow-map texels: finer detail than the
/// map's texels cannot show in a shadow, however near the camera.
pub const SHADOW_TEXEL_ERROR: f32 = 2.0;

/// The size, in world units, of a texel of a `size`-texel shadow map seen through
/// `light_view_proj` (orthographic): the finer of its two axes.
pub fn shadow_texel(light_view_proj: Mat4, size: u32) -> f32 {
    let per_unit = |row: Vec4| row.truncate().length() * 0.5 * size.max(1) as f32;
    let finest = per_unit(light_view_proj.row(0)).max(per_unit(light_view_proj.row(1)));
    if finest > 0.0 && finest.is_finite() {
        1.0 / finest
    } else {
        0.0
    }
}

/// The pixels of error a shadow's level may have at `pixels_per_unit` (see
/// [`ViewScale::pixels_per_unit_at`]), given the surface's allowance `camera_px` and the
/// shadow map's texel size `texel` (world units): [`SHADOW_ERROR_SCALE`] times the surface's,
/// or [`SHADOW_TEXEL_ERROR`] texels, whichever is larger.
pub fn shadow_allowance(camera_px: f32, texel: f32, pixels_per_unit: f32) -> f32 {
    (camera_px * SHADOW_ERROR_SCALE).max(texel * SHADOW_TEXEL_ERROR * pixels_per_unit)
}

/// Whether the shadow of an instance whose nearest point (see
/// [`ViewScale::nearest_distance`]) is `distance` from the eye may be a card, where the
/// frame's near shadow cascade ([`NearCascade`](crate::scene::NearCascade)) reaches `reach`
/// (`None`: the frame has none): not within the reach, whose square the sun's mesh lists
/// alone are drawn into. Its mesh level stays the one chosen for the whole box's texels:
/// in the street among 100,000 at 1280x720, levels chosen for the near square's texels
/// (twice as many shadow triangles, a quarter more GPU time on lavapipe) changed the picture
/// by 0.14 levels per channel.
pub fn shadow_may_be_card(distance: f32, reach: Option<f32>) -> bool {
    reach.is_none_or(|r| distance >= r)
}

/// The lowest sun, as the sine of its elevation, a shadow is swept along the ground for:
/// lower suns are taken as this high, so the swept box stops growing.
pub const LOWEST_SUN: f32 = 0.2;

/// A view volume as six planes `(n, d)` with `n . p + d >= 0` inside, `n` of unit length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frustum {
    /// Left, right, top, bottom, near, far.
    pub planes: [Vec4; 6],
}

impl Frustum {
    /// The volume a world-to-clip matrix keeps in Vulkan's clip space (`-w <= x, y <= w`,
    /// `0 <= z <= w`), for perspective and orthographic projections alike.
    pub fn from_clip(m: Mat4) -> Self {
        let r = [m.row(0), m.row(1), m.row(2), m.row(3)];
        let raw = [
            r[3] + r[0],
            r[3] - r[0],
            r[3] + r[1],
            r[3] - r[1],
            r[2],
            r[3] - r[2],
        ];
        Self {
            planes: raw.map(|p| {
                let len = p.truncate().length();
                if len > 0.0 && len.is_finite() {
                    p / len
                } else {
                    // A degenerate matrix keeps nothing out rather than everything.
                    Vec4::new(0.0, 0.0, 0.0, 1.0)
                }
            }),
        }
    }

    /// Whether any of the sphere can be inside: false only when it lies wholly outside one
    /// plane.
    pub fn intersects_sphere(&self, centre: Vec3, radius: f32) -> bool {
        self.planes
            .iter()
            .all(|p| p.truncate().dot(centre) + p.w >= -radius)
    }

    /// Whether any of the box can be inside: false only when the box lies wholly outside
    /// one plane (a box near a corner may pass although it is outside: that only costs a
    /// draw).
    pub fn intersects(&self, b: &WorldBox) -> bool {
        self.planes.iter().all(|p| {
            let n = p.truncate();
            n.dot(b.centre) + n.abs().dot(b.half) + p.w >= 0.0
        })
    }
}

/// An axis-aligned box in world space, as centre and half extents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldBox {
    /// Its centre.
    pub centre: Vec3,
    /// Half its size along each axis (non-negative).
    pub half: Vec3,
}

impl WorldBox {
    /// The smallest axis-aligned box around `model` (model space) placed by `world`: the
    /// centre transformed, and each half extent the sum of the absolute matrix entries times
    /// the model box's half extents.
    pub fn placed(model: &Bounds, world: &Mat3x4) -> Self {
        let centre = 0.5 * (model.min + model.max);
        let half = 0.5 * (model.max - model.min);
        let rows = &world.rows;
        let row = |i: usize| rows[i].truncate();
        Self {
            centre: Vec3::new(
                row(0).dot(centre) + rows[0].w,
                row(1).dot(centre) + rows[1].w,
                row(2).dot(centre) + rows[2].w,
            ),
            half: Vec3::new(
                row(0).abs().dot(half),
                row(1).abs().dot(half),
                row(2).abs().dot(half),
            ),
        }
    }

    /// The box grown to hold its own shadow on the ground: swept along `-towards_light` until
    /// its top reaches `ground` height (the sun at least `min_elevation_sin` above the
    /// horizon, so a low sun does not sweep it to infinity).
    pub fn with_shadow(&self, towards_light: Vec3, ground: f32, min_elevation_sin: f32) -> Self {
        let top = self.centre.y + self.half.y;
        let height = (top - ground).max(0.0);
        let run = -towards_light * (height / towards_light.y.max(min_elevation_sin));
        let (bottom, top) = (self.centre - self.half, self.centre + self.half);
        let mut lo = bottom.min(bottom + run);
        let hi = top.max(top + run);
        // The shadow stops at the ground: what the sweep takes below it casts nothing.
        lo.y = lo.y.max(ground.min(bottom.y));
        Self {
            centre: 0.5 * (lo + hi),
            half: 0.5 * (hi - lo),
        }
    }

    /// Radius of the sphere around the box.
    pub fn radius(&self) -> f32 {
        self.half.length()
    }
}

/// Whether an instance whose world box is `b` may shadow what the camera sees: the box is in
/// the shadow map's volume (`light`), and the box swept away from the sun (`towards_light`,
/// a unit vector) down to the `ground` height meets the camera's view volume.
pub fn casts_shadow_into(
    b: &WorldBox,
    light: &Frustum,
    camera: &Frustum,
    towards_light: Vec3,
    ground: f32,
) -> bool {
    light.intersects(b) && camera.intersects(&b.with_shadow(towards_light, ground, LOWEST_SUN))
}

/// The largest factor by which `world` stretches a length (the longest column of its linear
/// part): model-space errors times this are world-space errors.
pub fn max_scale(world: &Mat3x4) -> f32 {
    let rows = &world.rows;
    let column = |c: usize| Vec3::new(rows[0][c], rows[1][c], rows[2][c]).length();
    column(0).max(column(1)).max(column(2))
}

/// How large things look from the eye.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewScale {
    /// The eye, world space.
    pub eye: Vec3,
    /// Pixels one world unit covers one unit in front of the eye: the render height over
    /// `2 tan(fov_y / 2)`.
    pub pixels_per_unit: f32,
}

impl ViewScale {
    /// The view scale of a perspective camera with vertical field of view `fov_y` (radians)
    /// rendering `height` pixels high.
    pub fn new(eye: Vec3, fov_y: f32, height: u32) -> Self {
        Self {
            eye,
            pixels_per_unit: height as f32 / (2.0 * (0.5 * fov_y).tan()),
        }
    }

    /// How far the point of the box nearest the eye (taken on its sphere) is from it, at
    /// least [`NEAREST`].
    pub fn nearest_distance(&self, b: &WorldBox) -> f32 {
        (self.eye.distance(b.centre) - b.radius()).max(NEAREST)
    }

    /// Pixels per world unit at the point of the box nearest the eye (taken on its sphere).
    pub fn pixels_per_unit_at(&self, b: &WorldBox) -> f32 {
        self.pixels_per_unit / self.nearest_distance(b)
    }
}

/// Where mesh and card cross-fade, as a share of the impostor threshold: from this much under
/// it to the threshold both are drawn, each in its share of a dither pattern.
pub const CARD_FADE: f32 = 0.25;

/// How much of an instance whose world box is `b` its mesh draws, in 255ths, where cards are
/// on and its model's atlas holds the clip it plays: 255 (the mesh alone) from `max_px`
/// pixels tall on screen (measured at its nearest point, as levels are:
/// [`ViewScale::pixels_per_unit_at`]), 0 (the card alone) under `(1 - CARD_FADE) * max_px`,
/// in between rising with the height. The camera draws the mesh where this is above 0 and
/// the card where it is under 255; the shadow map one of them, the card under 128.
pub fn mesh_share(b: &WorldBox, scale: &ViewScale, max_px: f32) -> u8 {
    let height = 2.0 * b.half.y * scale.pixels_per_unit_at(b);
    let low = max_px * (1.0 - CARD_FADE);
    let t = (height - low) / (max_px - low).max(1e-6);
    (t.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// The coarsest level whose error, `errors[k - 1]` model units for level `k` (non-decreasing),
/// covers at most `max_error_px` pixels once scaled by `scale` (see [`max_scale`]) and seen at
/// `pixels_per_unit` (see [`ViewScale::pixels_per_unit_at`]). Level 0 is the full mesh.
pub fn lod_level(errors: &[f32], scale: f32, pixels_per_unit: f32, max_error_px: f32) -> usize {
    let mut level = 0;
    for (k, &e) in errors.iter().enumerate() {
        if e * scale * pixels_per_unit <= max_error_px {
            level = k + 1;
        }
    }
    level
}

/// What the crowd needs of the camera each frame to choose between exact palettes and baked
/// frames.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnimationView {
    /// The camera's view volume: instances outside it do not need exact palettes (their
    /// shadows may, but a shadow is forgiving).
    pub frustum: Frustum,
    /// How large things look.
    pub scale: ViewScale,
    /// Baked frames are used where their error covers at most this many pixels.
    pub max_error_px: f32,
}

impl AnimationView {
    /// Whether an instance within the world-space sphere (`centre`, `radius`) whose baked
    /// frames may put a vertex `baked_error` world units off needs exact palettes: the error
    /// could cover more than the allowed pixels at the sphere's nearest point, and the sphere
    /// may be in view. The error test comes first: it settles most of a large crowd.
    pub fn needs_exact(&self, centre: Vec3, radius: f32, baked_error: f32) -> bool {
        // The error covers more than the allowed pixels where the sphere's nearest point is
        // closer than `reach` (at least NEAREST away): compared squared, without a root.
        let reach = baked_error * self.scale.pixels_per_unit / self.max_error_px;
        let within = radius + reach;
        reach > NEAREST
            && self.scale.eye.distance_squared(centre) < within * within
            && self.frustum.intersects_sphere(centre, radius)
    }
}

#[cfg(test)]
mod tests {
    use glam::camera::rh::{proj::vulkan, view::look_at_mat4};
    use glam::{Quat, Vec3A};

    use super::*;

    /// From z = 10 towards the origin, 90 degrees, near 1, far 100.
    fn view_proj() -> Mat4 {
        vulkan::perspective(std::f32::consts::FRAC_PI_2, 1.0, 1.0, 100.0)
            * look_at_mat4(Vec3::new(0.0, 0.0, 10.0), Vec3::ZERO, Vec3::Y)
    }

    fn cube(at: Vec3, half: f32) -> WorldBox {
        WorldBox {
            centre: at,
            half: Vec3::splat(half),
        }
    }

    #[test]
    fn frustum_planes_keep_what_the_projection_keeps() {
        let f = Frustum::from_clip(view_proj());
        assert!(f.intersects(&cube(Vec3::ZERO, 0.1)));
        // 90 degrees: at 10 units away, x = +-10 is the edge.
        assert!(f.intersects(&cube(Vec3::new(10.05, 0.0, 0.0), 0.1)));
        assert!(!f.intersects(&cube(Vec3::new(10.5, 0.0, 0.0), 0.1)));
        assert!(!f.intersects(&cube(Vec3::new(0.0, -10.5, 0.0), 0.1)));
        // Behind the eye, before the near plane, beyond the far plane.
        assert!(!f.intersects(&cube(Vec3::new(0.0, 0.0, 12.0), 0.5)));
        assert!(!f.intersects(&cube(Vec3::new(0.0, 0.0, 9.5), 0.2)));
        assert!(!f.intersects(&cube(Vec3::new(0.0, 0.0, -91.0), 0.5)));
        assert!(f.intersects(&cube(Vec3::new(0.0, 0.0, -89.5), 0.6)));
    }

    #[test]
    fn placed_boxes_hold_the_transformed_corners() {
        let model = Bounds {
            min: Vec3::new(-1.0, 0.0, -0.5),
            max: Vec3::new(1.0, 2.0, 0.5),
        };
        let world = Mat3x4::from_trs(
            Vec3A::new(3.0, 1.0, -2.0),
            Quat::from_rotation_y(0.7) * Quat::from_rotation_x(0.2),
            Vec3A::splat(1.5),
        );
        let b = WorldBox::placed(&model, &world);
        for i in 0..8 {
            let pick = |bit: usize, lo: f32, hi: f32| if i & bit == 0 { lo } else { hi };
            let corner = Vec3::new(
                pick(1, model.min.x, model.max.x),
                pick(2, model.min.y, model.max.y),
                pick(4, model.min.z, model.max.z),
            );
            let p = world.transform_point3(corner);
            let d = (p - b.centre).abs() - b.half;
            assert!(d.max_element() <= 1e-5, "{p} outside {b:?}");
        }
        assert!((max_scale(&world) - 1.5).abs() < 1e-5);
    }

    #[test]
    fn a_shadow_reaches_the_ground_away_from_the_sun() {
        let b = cube(Vec3::new(0.0, 1.0, 0.0), 1.0);
        let sun = Vec3::new(1.0, 1.0, 0.0).normalize();
        let s = b.with_shadow(sun, 0.0, 0.2);
        // The top (y = 2) is swept 2 units towards -x.
        assert!((s.centre.x - s.half.x - (-3.0)).abs() < 1e-5, "{s:?}");
        assert!((s.centre.x + s.half.x - 1.0).abs() < 1e-5);
        assert!((s.centre.y - s.half.y).abs() < 1e-5);
    }

    #[test]
    fn exact_palettes_only_where_the_error_shows_in_view() {
        let view = AnimationView {
            frustum: Frustum::from_clip(view_proj()),
            scale: ViewScale::new(Vec3::new(0.0, 0.0, 10.0), std::f32::consts::FRAC_PI_2, 200),
            max_error_px: 0.5,
        };
        // 100 pixels per unit one unit away: an error of 0.01 is half a pixel at 2 units.
        let at = |z: f32| view.needs_exact(Vec3::new(0.0, 0.0, z), 0.5, 0.01);
        assert!(at(8.0), "1.5 units from the sphere: 0.67 px");
        assert!(!at(7.0), "2.5 units from the sphere: 0.4 px");
        // Near but behind the eye: out of view.
        assert!(!view.needs_exact(Vec3::new(0.0, 0.0, 11.0), 0.5, 0.01));
        // No error, or no reach: never exact.
        assert!(!view.needs_exact(Vec3::new(0.0, 0.0, 9.0), 0.5, 0.0));
    }

    #[test]
    fn levels_get_coarser_with_distance() {
        let errors = [0.001, 0.004, 0.01, 0.03];
        let view = ViewScale::new(Vec3::ZERO, std::f32::consts::FRAC_PI_4, 720);
        let at = |d: f32| {
            let b = cube(Vec3::new(0.0, 0.0, -d), 0.5);
            lod_level(&errors, 1.0, view.pixels_per_unit_at(&b), 1.0)
        };
        let levels: Vec<usize> = [0.5, 2.0, 5.0, 20.0, 60.0, 400.0]
            .iter()
            .map(|&d| at(d))
            .collect();
        assert!(levels.windows(2).all(|w| w[0] <= w[1]), "{levels:?}");
        assert_eq!(levels[0], 0);
        assert_eq!(*levels.last().expect("levels"), 4);
        // Twice the allowed error: the same level from half the distance.
        let b = cube(Vec3::new(0.0, 0.0, -20.0), 0.5);
        let near = cube(Vec3::new(0.0, 0.0, -10.25), 0.5);
        assert_eq!(
            lod_level(&errors, 1.0, view.pixels_per_unit_at(&b), 1.0),
            lod_level(&errors, 1.0, view.pixels_per_unit_at(&near), 2.0)
        );
    }

    #[test]
    fn the_mesh_share_rises_across_the_threshold() {
        // 90 degrees over 200 pixels: 100 pixels per unit one unit away.
        let view = ViewScale::new(Vec3::ZERO, std::f32::consts::FRAC_PI_2, 200);
        // A unit cube whose nearest point (on its sphere) is 9 units away: 100 / 9 pixels
        // per unit, 11.1 pixels tall.
        let r = cube(Vec3::ZERO, 0.5).radius();
        let b = cube(Vec3::new(0.0, 0.0, -(9.0 + r)), 0.5);
        assert!((view.pixels_per_unit_at(&b) - 100.0 / 9.0).abs() < 1e-3);
        // Taller than the threshold: the mesh alone; far under it: the card alone.
        assert_eq!(mesh_share(&b, &view, 11.0), 255);
        assert_eq!(mesh_share(&b, &view, 16.0), 0);
        // Halfway through the fade (from 0.75 to 1 of the threshold): half each.
        let half_way = 11.111 / (1.0 - 0.5 * CARD_FADE);
        assert!((i32::from(mesh_share(&b, &view, half_way)) - 128).abs() <= 1);
        // Nearer is taller: more of the mesh.
        let near = cube(Vec3::new(0.0, 0.0, -(8.5 + r)), 0.5);
        assert!(mesh_share(&near, &view, half_way) > mesh_share(&b, &view, half_way));
    }
}
