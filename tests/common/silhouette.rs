//! A CPU silhouette of one skinned character, to compare with the GPU's render of it (white on
//! black): skin on the CPU with `anim`'s skinning, place with the instance's world matrix,
//! project with a Vulkan clip-space `view_proj`, and rasterize into a mask of covered pixels.
//!
//! Conventions match Vulkan's: framebuffer x right, y down, `fb = (ndc * 0.5 + 0.5) * size`;
//! a pixel is covered when its centre is inside a triangle. Both windings are drawn (a
//! silhouette has no back faces to cull), and pixel centres exactly on an edge shared by two
//! triangles count for exactly one of them, so a closed mesh has no cracks or double hits.

use glam::{DVec2, Mat4, Vec3, Vec4};
use throng::anim::{Mat3x4, SkinnedModel, SkinnedVertex, skin_vertices};

/// Clip-space positions of `model`'s mesh skinned with `palette` (one matrix per joint),
/// placed by `world` and projected by `view_proj`.
pub fn clip_positions(
    model: &SkinnedModel,
    palette: &[Mat3x4],
    world: &Mat3x4,
    view_proj: Mat4,
) -> Vec<Vec4> {
    let vertices = &model.mesh().vertices;
    let mut skinned = vec![SkinnedVertex::default(); vertices.len()];
    skin_vertices(vertices, palette, &mut skinned);
    skinned
        .iter()
        .map(|v| view_proj * world.transform_point3(v.position).extend(1.0))
        .collect()
}

/// The `width x height` mask (row by row, top row first) of the pixels `model` covers when
/// skinned with `palette`, placed by `world` and seen through `view_proj`.
pub fn silhouette(
    model: &SkinnedModel,
    palette: &[Mat3x4],
    world: &Mat3x4,
    view_proj: Mat4,
    width: usize,
    height: usize,
) -> Vec<bool> {
    let clip = clip_positions(model, palette, world, view_proj);
    rasterize(&clip, &model.mesh().indices, width, height)
}

/// Rasterizes the triangle list `indices` over clip-space `clip` positions into a `width x
/// height` mask. Triangles with a vertex at `w <= 0` (at or behind the eye) are skipped, not
/// clipped: tests keep the model in front of the camera.
pub fn rasterize(clip: &[Vec4], indices: &[u32], width: usize, height: usize) -> Vec<bool> {
    let mut mask = vec![false; width * height];
    let size = DVec2::new(width as f64, height as f64);
    let to_framebuffer = |c: Vec4| -> Option<DVec2> {
        if c.w <= 0.0 {
            return None; // a NaN w falls through and is caught by the finiteness check
        }
        let ndc = DVec2::new(c.x as f64, c.y as f64) / c.w as f64;
        let fb = (ndc * 0.5 + 0.5) * size;
        fb.is_finite().then_some(fb)
    };
    for tri in indices.chunks_exact(3) {
        let corners = [tri[0], tri[1], tri[2]].map(|i| to_framebuffer(clip[i as usize]));
        if let [Some(a), Some(b), Some(c)] = corners {
            fill_triangle([a, b, c], width, height, &mut mask);
        }
    }
    mask
}

/// Twice the signed area of triangle `a, b, p`: its sign tells which side of `a -> b` the
/// point `p` is on (which side is "positive" only has to be consistent).
fn edge(a: DVec2, b: DVec2, p: DVec2) -> f64 {
    (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
}

/// The tie rule: a pixel centre exactly on edge `a -> b` belongs to the triangle when the
/// edge points this way. The neighbour across a shared edge walks it the opposite way, so
/// exactly one of the two owns the centre.
fn owns(a: DVec2, b: DVec2) -> bool {
    let d = b - a;
    d.y > 0.0 || (d.y == 0.0 && d.x < 0.0)
}

/// Sets the mask pixels whose centres are inside triangle `v` (framebuffer coordinates).
fn fill_triangle(mut v: [DVec2; 3], width: usize, height: usize, mask: &mut [bool]) {
    let area = edge(v[0], v[1], v[2]);
    if area == 0.0 {
        return; // degenerate: covers no area, so no pixel centre by the tie rule either
    }
    if area < 0.0 {
        v.swap(1, 2); // one orientation from here on, whichever way the mesh winds
    }
    let min = v[0].min(v[1]).min(v[2]);
    let max = v[0].max(v[1]).max(v[2]);
    // Pixels whose centre (x + 0.5) can fall in [min, max].
    let x0 = (min.x - 0.5).ceil().max(0.0) as usize;
    let y0 = (min.y - 0.5).ceil().max(0.0) as usize;
    let x1 = ((max.x - 0.5).floor() + 1.0).clamp(0.0, width as f64) as usize;
    let y1 = ((max.y - 0.5).floor() + 1.0).clamp(0.0, height as f64) as usize;
    let edges = [(v[0], v[1]), (v[1], v[2]), (v[2], v[0])];
    for y in y0..y1 {
        for x in x0..x1 {
            let p = DVec2::new(x as f64 + 0.5, y as f64 + 0.5);
            let inside = edges.iter().all(|&(a, b)| {
                let e = edge(a, b, p);
                e > 0.0 || (e == 0.0 && owns(a, b))
            });
            if inside {
                mask[y * width + x] = true;
            }
        }
    }
}

/// The nearest depth (NDC z) of `indices` over clip positions `clip` at each pixel centre of
/// a `width x height` image (`None` where nothing covers it), with the same coverage rule as
/// [`rasterize`]. Depth is interpolated linearly in screen space: right for an orthographic
/// camera (w = 1), which is what the tests that use it look through.
pub fn rasterize_depth(
    clip: &[Vec4],
    indices: &[u32],
    width: usize,
    height: usize,
) -> Vec<Option<f32>> {
    let mut depth: Vec<Option<f32>> = vec![None; width * height];
    let size = DVec2::new(width as f64, height as f64);
    for tri in indices.chunks_exact(3) {
        let c = [tri[0], tri[1], tri[2]].map(|i| clip[i as usize]);
        if c.iter().any(|c| c.w <= 0.0 || !c.is_finite()) {
            continue;
        }
        let fb = c.map(|c| (DVec2::new(c.x as f64, c.y as f64) / c.w as f64 * 0.5 + 0.5) * size);
        let z = c.map(|c| (c.z / c.w) as f64);
        let mut v = fb;
        let mut zs = z;
        if edge(v[0], v[1], v[2]) < 0.0 {
            v.swap(1, 2);
            zs.swap(1, 2);
        }
        let area = edge(v[0], v[1], v[2]);
        if area == 0.0 {
            continue;
        }
        let min = v[0].min(v[1]).min(v[2]);
        let max = v[0].max(v[1]).max(v[2]);
        let x0 = (min.x - 0.5).ceil().max(0.0) as usize;
        let y0 = (min.y - 0.5).ceil().max(0.0) as usize;
        let x1 = ((max.x - 0.5).floor() + 1.0).clamp(0.0, width as f64) as usize;
        let y1 = ((max.y - 0.5).floor() + 1.0).clamp(0.0, height as f64) as usize;
        let edges = [(v[0], v[1]), (v[1], v[2]), (v[2], v[0])];
        for y in y0..y1 {
            for x in x0..x1 {
                let p = DVec2::new(x as f64 + 0.5, y as f64 + 0.5);
                let inside = edges.iter().all(|&(a, b)| {
                    let e = edge(a, b, p);
                    e > 0.0 || (e == 0.0 && owns(a, b))
                });
                if !inside {
                    continue;
                }
                let w0 = edge(v[1], v[2], p) / area;
                let w1 = edge(v[2], v[0], p) / area;
                let w2 = 1.0 - w0 - w1;
                let d = (w0 * zs[0] + w1 * zs[1] + w2 * zs[2]) as f32;
                let at = &mut depth[y * width + x];
                if at.is_none_or(|old| d < old) {
                    *at = Some(d);
                }
            }
        }
    }
    depth
}

/// Intersection over union of two masks of the same size; 1 when both are empty.
pub fn iou(a: &[bool], b: &[bool]) -> f64 {
    assert_eq!(a.len(), b.len(), "masks of different sizes");
    let both = a.iter().zip(b).filter(|&(&x, &y)| x && y).count();
    let either = a.iter().zip(b).filter(|&(&x, &y)| x || y).count();
    if either == 0 {
        1.0
    } else {
        both as f64 / either as f64
    }
}

/// The mask of an RGBA8 image (4 bytes a pixel, any row order the caller keeps): covered
/// where the Rec. 709 luminance of the color exceeds one half. Alpha is ignored.
pub fn mask_from_rgba8(rgba: &[u8]) -> Vec<bool> {
    let weights = Vec3::new(0.2126, 0.7152, 0.0722);
    rgba.chunks_exact(4)
        .map(|p| {
            let color = Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32) / 255.0;
            color.dot(weights) > 0.5
        })
        .collect()
}

/// Number of covered pixels.
pub fn covered(mask: &[bool]) -> usize {
    mask.iter().filter(|&&m| m).count()
}
