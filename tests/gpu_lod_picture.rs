//! Mesh levels of detail change what a frame costs, not what it shows: the overview of a
//! crowd drawn with levels and without differs little where the characters are. The figures
//! are taken over the characters' pixels only (either frame's silhouettes, widened by a
//! couple of pixels), so that sky and ground, which no level changes, cannot hide a level
//! that is too coarse; the limits sit between what the right levels give and what levels one
//! step too coarse give (docs/testing.md). The whole-frame goal at 1,000 instances and
//! 1280x720 is in docs/crowds-at-scale.md.

mod gpu_common;

use std::sync::Arc;

use gpu_common::{assert_no_validation_messages, builtin, crowd_of, framing, inputs, renderer};
use throng::anim::{Mesh, SkinnedModel, Subset};
use throng::crowd::{AnimationMode, BakeSettings};
use throng::gpu::{Pixels, RenderSettings, ViewMode};

/// The most the characters' pixels may differ on average, levels per channel, between what
/// the right levels give and what levels one step too coarse give. Measured with the built-in
/// body as it is now (one continuous surface, seed 1, one sample): 2.67; levels chosen at 1.5
/// times the projected size (most of the crowd one level coarser) give 4.96, at twice the
/// size 5.51 (the earlier body of tubes: 4.73-5.05, 5.71 and 8.40, against a limit of 5.5).
const MEAN_LIMIT: f64 = 3.8;
/// The least share of the characters' pixels within 8 levels in every channel. Measured:
/// 93.5%; 86.8% at 1.5 times the size, 85.4% at twice.
const CLOSE_LIMIT: f64 = 0.90;
/// The same for the flat-shaded built-in character, whose facets show every change of a
/// level: measured 7.03 and 75.6% (seed 1; 7.76 and 74.3% with the earlier body); with each
/// kept corner left with the normal of
/// whichever face the weld happened to keep, instead of the one nearest its triangle's, 11.36
/// and 55.3%.
const FLAT_MEAN_LIMIT: f64 = 9.0;
const FLAT_CLOSE_LIMIT: f64 = 0.70;

/// The pixels a character covers in either frame, widened by `band` pixels: where a mesh
/// level can change the picture (its outline, and the shading and ambient occlusion right
/// beside it). The sky and open ground, which no level touches, are left out so that they
/// cannot dilute the figures.
fn union_band(a: &Pixels, b: &Pixels, band: i64) -> Vec<bool> {
    let (w, h) = (a.width as i64, a.height as i64);
    let covered = |p: &Pixels, i: usize| {
        let px = &p.rgba8[i * 4..i * 4 + 3];
        px[0] as u32 + px[1] as u32 + px[2] as u32 > 3 * 128
    };
    let union: Vec<bool> = (0..(w * h) as usize)
        .map(|i| covered(a, i) || covered(b, i))
        .collect();
    (0..w * h)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            (-band..=band).any(|dy| {
                (-band..=band).any(|dx| {
                    let (u, v) = (x + dx, y + dy);
                    (0..w).contains(&u) && (0..h).contains(&v) && union[(v * w + u) as usize]
                })
            })
        })
        .collect()
}

/// Mean absolute difference per channel and the share of pixels within 8 levels in every
/// channel, over the pixels of `region`.
fn compare(a: &Pixels, b: &Pixels, region: &[bool]) -> (f64, f64) {
    let pixels: Vec<usize> = (0..region.len()).filter(|&i| region[i]).collect();
    let diff = |i: usize, c: usize| a.rgba8[i * 4 + c].abs_diff(b.rgba8[i * 4 + c]);
    let sum: f64 = pixels
        .iter()
        .flat_map(|&i| (0..3).map(move |c| f64::from(diff(i, c))))
        .sum();
    let close = pixels
        .iter()
        .filter(|&&i| (0..3).all(|c| diff(i, c) <= 8))
        .count();
    let n = pixels.len().max(1) as f64;
    (sum / (3.0 * n), close as f64 / n)
}

/// Widening of the characters' outlines (pixels) in which differences are judged.
const BAND: i64 = 2;

/// How a comparison is drawn: samples per pixel and the level bias.
#[derive(Clone, Copy, Debug)]
struct Drawn {
    msaa: u32,
    lod_bias: f32,
}

/// What the picture goal was set and measured at: one sample per pixel, levels at their
/// budget (docs/crowds-at-scale.md).
const AT_ONE_SAMPLE: Drawn = Drawn {
    msaa: 1,
    lod_bias: 1.0,
};

/// Renders 400 characters of `model` in the overview with levels on and off, `drawn` so; the
/// figures over the characters' pixels (mean difference, share within 8) and the levels
/// drawn.
fn compare_levels(model: Arc<SkinnedModel>, name: &str, drawn: Drawn) -> Option<(f64, f64)> {
    let mut r = renderer(640, 360)?;
    assert!(!model.lods().is_empty(), "{name} has mesh levels");
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 400, 1);
    crowd.bake(BakeSettings::default());
    crowd.set_animation(AnimationMode::Auto);
    crowd.update(0.5);
    let camera = framing(&r, &bounds);
    let mut shot = |lod: bool, view: ViewMode| {
        r.renderer()
            .set_settings(RenderSettings {
                lod,
                msaa: drawn.msaa,
                lod_bias: drawn.lod_bias,
                ..RenderSettings::default()
            })
            .expect("settings");
        let frame = inputs(&r, &camera, &bounds, view);
        r.render_pixels(&mut crowd, &frame).expect("frame")
    };
    let full = shot(false, ViewMode::Final);
    let levels = shot(true, ViewMode::Final);
    let region = union_band(
        &shot(false, ViewMode::Silhouette),
        &shot(true, ViewMode::Silhouette),
        BAND,
    );
    r.renderer().gpu_ms_average().expect("wait");
    let drawn = r.renderer().draw_stats().expect("counts");
    // Most of the crowd is small in the overview: coarser levels are in use.
    let coarse: u64 = drawn.camera[1..].iter().sum();
    assert!(coarse > 0, "{name}: no coarser level drawn: {drawn:?}");
    let judged = region.iter().filter(|&&c| c).count();
    let total = region.len();
    assert!(
        judged * 20 >= total,
        "the characters and their outlines cover only {judged} of {total} pixels"
    );
    let (mean, close) = compare(&full, &levels, &region);
    let everywhere = compare(&full, &levels, &vec![true; total]);
    eprintln!(
        "{name}, {drawn:?}: levels {:?}: over the {judged} pixels of the characters and a {BAND}-pixel band \
         ({:.1}% of the frame), mean difference {mean:.3} levels per channel, {:.2}% of pixels \
         within 8 (whole frame: {:.3}, {:.2}%)",
        drawn.camera,
        100.0 * judged as f64 / total as f64,
        close * 100.0,
        everywhere.0,
        everywhere.1 * 100.0
    );
    if let Ok(dir) = std::env::var("THRONG_TEST_PICTURES") {
        let dir = std::path::Path::new(&dir);
        full.save_png(&dir.join(format!("{name}_lod_off.png")))
            .expect("png");
        levels
            .save_png(&dir.join(format!("{name}_lod_on.png")))
            .expect("png");
    }
    assert_no_validation_messages();
    Some((mean, close))
}

#[test]
fn levels_of_detail_keep_the_picture() {
    let Some((mean, close)) = compare_levels(builtin(), "builtin", AT_ONE_SAMPLE) else {
        return;
    };
    assert!(mean <= MEAN_LIMIT, "mean absolute difference {mean:.3}");
    assert!(
        close >= CLOSE_LIMIT,
        "only {:.2}% of pixels within 8 levels",
        close * 100.0
    );
}

/// The built-in character flat shaded (every triangle with vertices of its own carrying its
/// normal, as an exporter writes hard edges), with its levels made at load as for any model.
fn flat_builtin() -> SkinnedModel {
    let mut model = throng::asset::builtin::model().expect("builtin");
    let mesh = model.mesh();
    let mut vertices = Vec::new();
    let mut subsets = Vec::new();
    let mut indices = Vec::new();
    for s in &mesh.subsets {
        let vertex_start = vertices.len() as u32;
        let first = s.index_start as usize;
        for t in mesh.indices[first..first + s.index_count as usize].chunks_exact(3) {
            let p = |i: u32| glam::Vec3::from(mesh.vertices[i as usize].position);
            let n = (p(t[1]) - p(t[0]))
                .cross(p(t[2]) - p(t[0]))
                .normalize_or(glam::Vec3::Y);
            for &i in t {
                let mut v = mesh.vertices[i as usize];
                v.normal = n.to_array();
                indices.push(vertices.len() as u32);
                vertices.push(v);
            }
        }
        subsets.push(Subset {
            vertex_start,
            vertex_count: vertices.len() as u32 - vertex_start,
            index_start: s.index_start,
            index_count: s.index_count,
            material: s.material,
        });
    }
    let flat = Mesh {
        vertices,
        indices,
        subsets,
        materials: mesh.materials.clone(),
        textures: mesh.textures.clone(),
    };
    model.replace_mesh(flat).expect("a valid mesh");
    let levels = throng::asset::lod::generate(&model);
    model.set_lods(levels).expect("valid levels");
    model
}

#[test]
fn a_flat_shaded_models_levels_keep_the_picture() {
    // Without welding, such a model got no levels at all and drew every far character in
    // full.
    let Some((mean, close)) = compare_levels(Arc::new(flat_builtin()), "flat", AT_ONE_SAMPLE)
    else {
        return;
    };
    assert!(
        mean <= FLAT_MEAN_LIMIT,
        "mean absolute difference {mean:.3}"
    );
    assert!(
        close >= FLAT_CLOSE_LIMIT,
        "only {:.2}% of pixels within 8 levels",
        close * 100.0
    );
}

/// The level budget against the samples per pixel: the built-in character's figures at one
/// and four samples for level biases from 1 to 3, printed (a measurement, not a check:
/// `cargo test --release --test gpu_lod_picture -- --ignored --nocapture`;
/// docs/crowds-at-scale.md keeps the figures).
#[test]
#[ignore = "a measurement: prints the figures of each bias at one and four samples"]
fn the_level_budget_per_sample_count() {
    for msaa in [1, 4] {
        for lod_bias in [1.0, 1.5, 2.0, 3.0] {
            let drawn = Drawn { msaa, lod_bias };
            if compare_levels(builtin(), "builtin", drawn).is_none() {
                return;
            }
        }
    }
    for lod_bias in [1.0, 1.5] {
        let drawn = Drawn { msaa: 1, lod_bias };
        compare_levels(Arc::new(flat_builtin()), "flat", drawn);
    }
}
