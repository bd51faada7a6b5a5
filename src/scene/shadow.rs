//! The sun's shadow frustums: an orthographic box around the crowd, seen along the light,
//! fitted anew every frame so the shadow map's texels cover only what can cast or receive;
//! and, where that box is large beside what stands near the camera, a second one (the near
//! cascade) fitted to the part of the view nearest the eye, so near shadows keep their shape
//! in a crowd that spans hundreds of metres.

use glam::camera::rh::view::look_at_mat4;
use glam::{Mat4, Vec3, Vec4};

/// The box a shadow frustum is fitted to for what stands in `min..max`: that box, plus where
/// its top casts its shadow onto the ground (y = 0) for a sun shining from `towards_light`
/// (the run capped for a sun near the horizon), down to the ground.
pub fn shadow_casting_box(towards_light: Vec3, min: Vec3, max: Vec3) -> (Vec3, Vec3) {
    let height = max.y - min.y;
    // The shadow of a point at the box's top lands this far along the ground, opposite the
    // sun.
    let run =
        (height / towards_light.y.max(0.2)) * Vec3::new(-towards_light.x, 0.0, -towards_light.z);
    (
        min.min(min + run).with_y(0.0_f32.min(min.y)),
        max.max(max + run),
    )
}

/// World to the shadow map's Vulkan clip space (x, y in -1..1 with y down like the camera's,
/// depth 0 nearest the light, 1 farthest) for a sun shining from `towards_light` (unit,
/// pointing at the light) onto the box `min..max`. The box's eight corners all land inside.
pub fn light_view_proj(towards_light: Vec3, min: Vec3, max: Vec3) -> Mat4 {
    let dir = towards_light.try_normalize().unwrap_or(Vec3::Y);
    let centre = 0.5 * (min + max);
    let radius = (0.5 * (max - min)).length().max(1e-3);
    // Any up that is not parallel to the light works; the fit below is to the box anyway.
    let up = if dir.y.abs() > 0.99 { Vec3::Z } else { Vec3::Y };
    let eye = centre + dir * (radius * 2.0);
    let view = look_at_mat4(eye, centre, up);
    let mut lo = Vec3::splat(f32::INFINITY);
    let mut hi = Vec3::splat(f32::NEG_INFINITY);
    for i in 0..8 {
        let v = view.transform_point3(corner(min, max, i));
        lo = lo.min(v);
        hi = hi.max(v);
    }
    // View space looks down -Z: the nearest corner has the largest z.
    let (near, far) = (-hi.z, -lo.z);
    let (w, h) = ((hi.x - lo.x).max(1e-4), (hi.y - lo.y).max(1e-4));
    let depth = (far - near).max(1e-4);
    // x: lo..hi -> -1..1; y: lo..hi -> 1..-1 (Vulkan's y points down); z: -near..-far -> 0..1.
    let proj = Mat4::from_cols(
        Vec4::new(2.0 / w, 0.0, 0.0, 0.0),
        Vec4::new(0.0, -2.0 / h, 0.0, 0.0),
        Vec4::new(0.0, 0.0, -1.0 / depth, 0.0),
        Vec4::new(-(hi.x + lo.x) / w, (hi.y + lo.y) / h, -near / depth, 1.0),
    );
    proj * view
}

/// How far the near cascade reaches from the eye, in heights of the shadow box (the crowd's
/// tallest, with its ground): 25 heights of a 1.8 m figure are 45 m, within which a figure
/// stands taller than about 35 pixels of a 720-line frame (45 degrees of view), where the
/// shape of a shadow (legs apart, an arm swinging) can be seen.
pub const NEAR_CASCADE_HEIGHTS: f32 = 25.0;

/// The near cascade is used only where its texels are at most this share of the whole
/// box's: finer by less, the whole box's map shows near shadows about as well.
pub const NEAR_CASCADE_GAIN: f32 = 0.5;

/// The sun's second shadow frustum, fitted to what stands near the eye.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NearCascade {
    /// World to the near map's Vulkan clip space (as [`light_view_proj`]).
    pub light_view_proj: Mat4,
    /// The receivers it serves: the part of the view within the reach, within the shadow
    /// box. A point inside takes its shadow from the near map, one outside from the whole
    /// box's.
    pub receivers: (Vec3, Vec3),
    /// The farthest any point of its frustum's box is from the eye: an instance nearer than
    /// this may cast into the near map.
    pub reach: f32,
    /// The wider of its frustum's two sides, in world units: a map of `n` texels has texels
    /// of `width / n`.
    pub width: f32,
}

/// The near cascade for an eye whose world-to-view matrix is `view` and projection `proj`
/// (perspective), in the shadow box `shadow_box` lit from `towards_light`: the box around the
/// view's part within [`NEAR_CASCADE_HEIGHTS`] box heights of the eye, clipped to the shadow
/// box, grown towards the sun by the run of the box's tallest caster (what casts into it),
/// and seen along the light. `None` where the view's near part misses the box (an eye high
/// above the crowd), or where its texels would not be finer than [`NEAR_CASCADE_GAIN`] of
/// the whole box's (a crowd that is all near).
pub fn near_cascade(
    view: Mat4,
    proj: Mat4,
    shadow_box: (Vec3, Vec3),
    towards_light: Vec3,
) -> Option<NearCascade> {
    let (box_lo, box_hi) = shadow_box;
    let height = box_hi.y - box_lo.y;
    let (tan_x, tan_y) = (1.0 / proj.x_axis.x, 1.0 / proj.y_axis.y.abs());
    if !(height > 0.0 && tan_x.is_finite() && tan_y.is_finite()) {
        return None;
    }
    let depth = NEAR_CASCADE_HEIGHTS * height;
    let to_world = view.inverse();
    let eye = to_world.transform_point3(Vec3::ZERO);
    // The pyramid from the eye to the plane `depth` ahead: its five corners' box.
    let (mut lo, mut hi) = (eye, eye);
    for (sx, sy) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
        let corner =
            to_world.transform_point3(Vec3::new(sx * tan_x * depth, sy * tan_y * depth, -depth));
        lo = lo.min(corner);
        hi = hi.max(corner);
    }
    let (lo, hi) = (lo.max(box_lo), hi.min(box_hi));
    if lo.cmpge(hi).any() {
        return None;
    }
    // A caster stands at most the box's top above a receiver, so within this run of it
    // towards the sun (the sun taken no lower than the crowd's sweep takes it).
    let dir = towards_light.try_normalize().unwrap_or(Vec3::Y);
    let run = dir * (height / dir.y.max(0.2));
    let (cast_lo, cast_hi) = (lo.min(lo + run), hi.max(hi + run));
    let near = light_view_proj(dir, cast_lo, cast_hi);
    let whole = light_view_proj(dir, box_lo, box_hi);
    // Texel sizes of equal maps compare as the frustums' widths.
    let width = footprint(near);
    if width > NEAR_CASCADE_GAIN * footprint(whole) {
        return None;
    }
    let reach = (0..8)
        .map(|i| corner(cast_lo, cast_hi, i).distance(eye))
        .fold(0.0, f32::max);
    Some(NearCascade {
        light_view_proj: near,
        receivers: (lo, hi),
        reach,
        width,
    })
}

/// Corner `i` (0 to 7) of the box `min..max`.
fn corner(min: Vec3, max: Vec3, i: usize) -> Vec3 {
    Vec3::new(
        if i & 1 == 0 { min.x } else { max.x },
        if i & 2 == 0 { min.y } else { max.y },
        if i & 4 == 0 { min.z } else { max.z },
    )
}

/// The larger world width of an orthographic `light_view_proj`'s two axes.
fn footprint(light_view_proj: Mat4) -> f32 {
    let width = |row: Vec4| 2.0 / row.truncate().length().max(1e-12);
    width(light_view_proj.row(0)).max(width(light_view_proj.row(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_box_fits_and_depth_grows_away_from_the_light() {
        let (min, max) = (Vec3::new(-5.0, 0.0, -3.0), Vec3::new(5.0, 2.0, 3.0));
        let dir = Vec3::new(-0.5, 1.0, 0.6).normalize();
        let m = light_view_proj(dir, min, max);
        for i in 0..8 {
            let c = Vec3::new(
                if i & 1 == 0 { min.x } else { max.x },
                if i & 2 == 0 { min.y } else { max.y },
                if i & 4 == 0 { min.z } else { max.z },
            );
            let p = m * c.extend(1.0);
            let ndc = p.truncate() / p.w;
            assert!(
                ndc.x.abs() <= 1.0 + 1e-4 && ndc.y.abs() <= 1.0 + 1e-4,
                "{ndc}"
            );
            assert!((-1e-4..=1.0 + 1e-4).contains(&ndc.z), "{ndc}");
        }
        let centre = 0.5 * (min + max);
        let towards = (m * (centre + dir).extend(1.0)).z;
        let away = (m * (centre - dir).extend(1.0)).z;
        assert!(towards < away, "nearer the light must be smaller depth");
    }

    /// An eye 1.7 units up at the edge of a 400-unit crowd 2 units tall, looking along it.
    fn street() -> (Mat4, Mat4, (Vec3, Vec3), Vec3) {
        use glam::camera::rh::proj::vulkan;
        let eye = Vec3::new(0.0, 1.7, 200.0);
        let view = look_at_mat4(eye, Vec3::new(0.0, 1.0, 0.0), Vec3::Y);
        let proj = vulkan::perspective(0.8, 16.0 / 9.0, 0.1, 1000.0);
        let crowd = (Vec3::new(-200.0, 0.0, -200.0), Vec3::new(200.0, 2.0, 200.0));
        (view, proj, crowd, Vec3::new(-0.4, 0.8, 0.3).normalize())
    }

    fn clip(m: Mat4, p: Vec3) -> Vec3 {
        let c = m * p.extend(1.0);
        c.truncate() / c.w
    }

    #[test]
    fn the_near_cascade_covers_the_view_near_the_eye_and_what_shadows_it() {
        let (view, proj, crowd, sun) = street();
        let near = near_cascade(view, proj, crowd, sun).expect("a street needs it");
        let (lo, hi) = near.receivers;
        // Ahead of the eye, within 25 heights (50 units), inside the crowd's box.
        assert!(lo.z > 149.0 && hi.z <= 200.0 + 1e-3, "{lo} {hi}");
        assert!(lo.y >= 0.0 && hi.y <= 2.0, "{lo} {hi}");
        assert!(lo.x < -30.0 && hi.x > 30.0, "{lo} {hi}");
        // Its texels are far finer than the whole box's (same map size).
        let whole = light_view_proj(sun, crowd.0, crowd.1);
        assert!(near.width < 0.3 * footprint(whole));
        assert_eq!(near.width, footprint(near.light_view_proj));
        // Every receiver lands in the near map, and so does the top of whatever stands on
        // it, towards the sun: it casts into the near map, nearer the light.
        for i in 0..8 {
            let p = corner(lo, hi, i).with_y(0.0);
            let caster = p + sun * (2.0 / sun.y);
            for (q, what) in [(p, "receiver"), (caster, "caster")] {
                let ndc = clip(near.light_view_proj, q);
                assert!(
                    ndc.x.abs() <= 1.0 + 1e-4 && ndc.y.abs() <= 1.0 + 1e-4,
                    "{what} {q}: {ndc}"
                );
                assert!((-1e-4..=1.0 + 1e-4).contains(&ndc.z), "{what} {q}: {ndc}");
            }
            assert!(
                clip(near.light_view_proj, caster).z < clip(near.light_view_proj, p).z,
                "the caster is nearer the light"
            );
            assert!(corner(lo, hi, i).distance(Vec3::new(0.0, 1.7, 200.0)) <= near.reach);
        }
    }

    #[test]
    fn no_near_cascade_from_high_above_or_for_a_small_crowd() {
        let (_, proj, crowd, sun) = street();
        // 200 units above the crowd: the near part of the view ends in the air.
        let high = look_at_mat4(Vec3::new(0.0, 200.0, 0.0), Vec3::ZERO, Vec3::Z);
        assert_eq!(near_cascade(high, proj, crowd, sun), None);
        // A crowd of 20 units: the whole box's map is as fine as a near one.
        let small = (Vec3::new(-10.0, 0.0, -10.0), Vec3::new(10.0, 2.0, 10.0));
        let eye = Vec3::new(0.0, 1.7, 10.0);
        let view = look_at_mat4(eye, Vec3::new(0.0, 1.0, 0.0), Vec3::Y);
        assert_eq!(near_cascade(view, proj, small, sun), None);
        // Nothing to fit to: no height, or no projection.
        let (view, ..) = street();
        let flat = (crowd.0, crowd.1.with_y(0.0));
        assert_eq!(near_cascade(view, proj, flat, sun), None);
        assert_eq!(near_cascade(view, Mat4::ZERO, crowd, sun), None);
    }
}
