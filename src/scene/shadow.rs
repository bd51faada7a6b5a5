//! The sun's shadow frustum: an orthographic box around the crowd, seen along the light,
//! fitted anew every frame so the shadow map's texels cover only what can cast or receive.

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
        let corner = Vec3::new(
            if i & 1 == 0 { min.x } else { max.x },
            if i & 2 == 0 { min.y } else { max.y },
            if i & 4 == 0 { min.z } else { max.z },
        );
        let v = view.transform_point3(corner);
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
}
