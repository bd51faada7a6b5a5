//! The passes of the frame graph, each checked by what it does to the picture: shadows
//! darken the ground on the side away from the sun and leave lit surfaces alone; ambient
//! occlusion darkens the ground where characters touch it and leaves open ground alone; the
//! depth prepass changes nothing but the cost; switched-off passes leave the graph; every pass
//! is timed; every debug view shows something plausible. Every test also requires that the
//! validation layers stayed silent (checked last, so that the picture's checks report first).
//!
//! Pixels are picked by projecting world points (a character's feet, the ground beside them)
//! with the frame's `view_proj`, and characters are told from the ground by the silhouette
//! view of the same camera. Frames are written to `$TMPDIR/throng-gpu-passes/` for a look.

mod gpu_common;

use std::path::PathBuf;
use std::sync::Arc;

use glam::{Vec2, Vec3};
use throng::anim::SkinnedModel;
use throng::asset;
use throng::crowd::Crowd;
use throng::gpu::pass;
use throng::gpu::{CardDepth, FrameInputs, HeadlessRenderer, Pixels, RenderSettings, ViewMode};
use throng::scene::Camera;

use gpu_common::*;

const SIZE: u32 = 256;
/// Small enough to be quick on lavapipe, large enough for a character's shadow.
const SHADOW_SIZE: u32 = 512;

fn builtin() -> Arc<SkinnedModel> {
    Arc::new(asset::load_model(None).expect("the builtin character"))
}

/// A few built-in characters holding one pose, a camera that sees the ground around them
/// (where their shadows fall too), the shadow box and AO radius fitted to them.
struct Scene {
    r: HeadlessRenderer,
    crowd: Crowd,
    inputs: FrameInputs,
    /// Character height (the crowd's bounds).
    height: f32,
    /// Each character's feet: its origin on the ground.
    feet: Vec<Vec3>,
}

/// Unit vector along which shadows fall on the ground: the light's travel, in the xz plane.
fn shadow_direction(inputs: &FrameInputs) -> Vec3 {
    let l = inputs.light_dir.normalize();
    Vec3::new(-l.x, 0.0, -l.z).normalize()
}

fn settings(shadows: bool, ssao: bool, prepass: bool) -> RenderSettings {
    RenderSettings {
        shadows,
        ssao,
        prepass,
        shadow_size: Some(SHADOW_SIZE),
        ..RenderSettings::default()
    }
}

fn scene(instances: usize) -> Option<Scene> {
    let mut r = renderer(SIZE, SIZE)?;
    let model = builtin();
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), instances, 5);
    let walk = model
        .clip_index("walk")
        .expect("the builtin has a walk clip");
    hold_pose(&mut crowd, walk, 0.25);
    let height = bounds.max.y - bounds.min.y;
    // Frame the crowd with room around it on the ground.
    let room = Vec3::new(0.6 * height, 0.0, 0.6 * height);
    let camera = Camera::framing(bounds.min - room, bounds.max + room, 1.0);
    let mut frame = inputs(&r, &camera, &bounds, ViewMode::Final);
    let pad = Vec3::splat(height);
    frame.shadow_box = (bounds.min - pad, bounds.max + pad);
    frame.ssao_radius = 0.2 * height;
    let ground = frame.ground_plane.w;
    let feet = (0..crowd.len())
        .map(|i| {
            let t = crowd.world(i).translation();
            Vec3::new(t.x, ground, t.z)
        })
        .collect();
    r.renderer()
        .set_settings(settings(true, true, true))
        .expect("settings");
    Some(Scene {
        r,
        crowd,
        inputs: frame,
        height,
        feet,
    })
}

impl Scene {
    fn frame(&mut self, settings: RenderSettings, view: ViewMode) -> Pixels {
        self.r.renderer().set_settings(settings).expect("settings");
        let inputs = FrameInputs {
            view_mode: view,
            ..self.inputs
        };
        render(&mut self.r, &mut self.crowd, &inputs)
    }

    /// The characters, white on black: one sample per pixel, so a pixel is a character's or
    /// not (with multisampling, edge pixels would be both).
    fn silhouette(&mut self) -> Mask {
        let single = RenderSettings {
            msaa: 1,
            ..settings(true, true, true)
        };
        let p = self.frame(single, ViewMode::Silhouette);
        Mask::of(&p)
    }

    /// The pixel `world` lands on, if it is in the frame.
    fn project(&self, world: Vec3) -> Option<(u32, u32)> {
        let clip = self.inputs.view_proj * world.extend(1.0);
        if clip.w <= 0.0 {
            return None;
        }
        let ndc = Vec2::new(clip.x, clip.y) / clip.w;
        let x = (ndc.x * 0.5 + 0.5) * SIZE as f32;
        let y = (ndc.y * 0.5 + 0.5) * SIZE as f32;
        let inside = |v: f32| (2.0..SIZE as f32 - 2.0).contains(&v);
        (inside(x) && inside(y)).then_some((x as u32, y as u32))
    }

    /// Pixels per world unit on the ground around `world` (how far one unit along x moves).
    fn pixels_per_unit(&self, world: Vec3) -> f32 {
        let a = self.project(world);
        let b = self.project(world + Vec3::X * 0.1 * self.height);
        match (a, b) {
            (Some(a), Some(b)) => {
                let d = Vec2::new(a.0 as f32 - b.0 as f32, a.1 as f32 - b.1 as f32);
                d.length() / (0.1 * self.height)
            }
            _ => 0.0,
        }
    }
}

/// Which pixels a character covers.
struct Mask {
    covered: Vec<bool>,
}

impl Mask {
    fn of(p: &Pixels) -> Self {
        Self {
            covered: p
                .rgba8
                .chunks_exact(4)
                .map(|px| px[0] as u32 + px[1] as u32 + px[2] as u32 > 3 * 128)
                .collect(),
        }
    }

    fn at(&self, x: i64, y: i64) -> bool {
        let n = SIZE as i64;
        (0..n).contains(&x) && (0..n).contains(&y) && self.covered[(y * n + x) as usize]
    }

    /// Whether any pixel within `r` of (x, y) is covered.
    fn near(&self, (x, y): (u32, u32), r: i64) -> bool {
        (-r..=r).any(|dy| (-r..=r).any(|dx| self.at(x as i64 + dx, y as i64 + dy)))
    }

    fn count(&self) -> usize {
        self.covered.iter().filter(|&&c| c).count()
    }
}

/// Luminance (0 to 255, of the sRGB-encoded bytes) of one pixel.
fn luma(p: &Pixels, x: u32, y: u32) -> f64 {
    let i = ((y * p.width + x) * 4) as usize;
    let c = &p.rgba8[i..i + 3];
    0.299 * c[0] as f64 + 0.587 * c[1] as f64 + 0.114 * c[2] as f64
}

/// Mean luminance of the 3x3 pixels around (x, y).
fn luma3(p: &Pixels, (x, y): (u32, u32)) -> f64 {
    let mut sum = 0.0;
    for dy in -1i32..=1 {
        for dx in -1i32..=1 {
            sum += luma(p, (x as i32 + dx) as u32, (y as i32 + dy) as u32);
        }
    }
    sum / 9.0
}

/// The largest channel difference of pixel `i` between two frames.
fn channel_diff(a: &Pixels, b: &Pixels, i: usize) -> u8 {
    (0..3)
        .map(|c| a.rgba8[i * 4 + c].abs_diff(b.rgba8[i * 4 + c]))
        .max()
        .unwrap_or(0)
}

/// Writes `p` to `$TMPDIR/throng-gpu-passes/NAME.png` (to look at when a check fails).
fn keep(name: &str, p: &Pixels) -> PathBuf {
    let dir = std::env::temp_dir().join("throng-gpu-passes");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path = dir.join(format!("{name}.png"));
    image::RgbaImage::from_raw(p.width, p.height, p.rgba8.clone())
        .expect("width x height RGBA")
        .save(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    path
}

#[test]
fn shadows_darken_the_ground_away_from_the_sun_and_nothing_lit() {
    let Some(mut s) = scene(4) else {
        return;
    };
    let mask = s.silhouette();
    let on = s.frame(settings(true, false, true), ViewMode::Final);
    let off = s.frame(settings(false, false, true), ViewMode::Final);
    let (on_path, off_path) = (keep("shadows_on", &on), keep("shadows_off", &off));
    let seen = format!("frames: {}, {}", on_path.display(), off_path.display());

    let dir = shadow_direction(&s.inputs);
    let h = s.height;
    // The shadow side: the ground a little way from each character's feet along the shadow,
    // where no character covers it in the picture.
    let mut shadowed = Vec::new();
    for (i, &foot) in s.feet.iter().enumerate() {
        let spot = [0.25f32, 0.3, 0.35, 0.4, 0.45, 0.5]
            .into_iter()
            .filter_map(|f| s.project(foot + dir * f * h))
            .find(|&px| !mask.near(px, 3));
        if let Some(px) = spot {
            let (a, b) = (luma3(&on, px), luma3(&off, px));
            shadowed.push((i, px, a, b));
        }
    }
    assert!(
        shadowed.len() >= 2,
        "too few characters with visible ground on their shadow side: {shadowed:?}"
    );
    for &(i, px, a, b) in &shadowed {
        assert!(
            a < 0.85 * b,
            "character {i}: the ground at {px:?} in its shadow has luminance {a:.1} with \
             shadows, {b:.1} without (want at least 15 % darker); {seen}"
        );
    }

    // The lit side: the ground in front of each character towards the sun, unless another
    // character stands between it and the sun (a corridor along the light, a body wide).
    let mut lit = Vec::new();
    for (i, &foot) in s.feet.iter().enumerate() {
        let p = foot - dir * 0.5 * h;
        let shaded_by_another = s.feet.iter().enumerate().any(|(j, &other)| {
            let d = p - other;
            let along = d.dot(dir);
            let across = (d - dir * along).length();
            j != i && along > -0.3 * h && along < 1.0 * h && across < 0.5 * h
        });
        if shaded_by_another {
            continue;
        }
        if let Some(px) = s.project(p).filter(|&px| !mask.near(px, 3)) {
            lit.push((i, px, luma3(&on, px), luma3(&off, px)));
        }
    }
    assert!(!lit.is_empty(), "no lit ground to compare");
    for &(i, px, a, b) in &lit {
        assert!(
            (a - b).abs() <= 2.0,
            "character {i}: the lit ground at {px:?} has luminance {a:.1} with shadows, \
             {b:.1} without; {seen}"
        );
    }

    // The characters: surfaces facing away from the sun get no direct light either way and
    // surfaces facing it are lit unless something is between them and the sun (an arm, a
    // neighbour): most of a character's pixels are the same with and without shadows. Acne
    // (a surface shadowing itself) would change most of the lit half.
    let covered = mask.count();
    let same = (0..(SIZE * SIZE) as usize)
        .filter(|&i| mask.covered[i] && channel_diff(&on, &off, i) <= 2)
        .count();
    let fraction = same as f64 / covered as f64;
    eprintln!(
        "shadow side {shadowed:?}; lit side {lit:?}; {same} of {covered} character pixels \
         unchanged"
    );
    assert!(
        fraction >= 0.6,
        "only {same} of {covered} character pixels ({:.0} %) are unchanged by shadows; {seen}",
        fraction * 100.0
    );
    assert_no_validation_messages();
}

#[test]
fn ambient_occlusion_darkens_contacts_and_leaves_open_ground() {
    let Some(mut s) = scene(4) else {
        return;
    };
    let mask = s.silhouette();
    let on = s.frame(settings(true, true, true), ViewMode::Final);
    let off = s.frame(settings(true, false, true), ViewMode::Final);
    let (on_path, off_path) = (keep("ssao_on", &on), keep("ssao_off", &off));
    let seen = format!("frames: {}, {}", on_path.display(), off_path.display());

    // Contact: ground pixels touching a character's silhouette, within a fifth of its height
    // of its feet.
    let mut contacts = 0usize;
    let (mut sum_on, mut sum_off, mut darker) = (0.0, 0.0, 0usize);
    for &foot in &s.feet {
        let Some((fx, fy)) = s.project(foot) else {
            continue;
        };
        let r = (0.2 * s.height * s.pixels_per_unit(foot)).max(3.0) as i64;
        for y in (fy as i64 - r)..=(fy as i64 + r) {
            for x in (fx as i64 - r)..=(fx as i64 + r) {
                if !(2..SIZE as i64 - 2).contains(&x) || !(2..SIZE as i64 - 2).contains(&y) {
                    continue;
                }
                let px = (x as u32, y as u32);
                if mask.at(x, y) || !mask.near(px, 2) {
                    continue;
                }
                let (a, b) = (luma(&on, px.0, px.1), luma(&off, px.0, px.1));
                contacts += 1;
                sum_on += a;
                sum_off += b;
                if a + 2.0 < b {
                    darker += 1;
                }
            }
        }
    }
    assert!(contacts >= 20, "only {contacts} contact pixels found");
    let (mean_on, mean_off) = (sum_on / contacts as f64, sum_off / contacts as f64);
    eprintln!(
        "contact: {contacts} pixels, mean luminance {mean_on:.1} with AO, {mean_off:.1} \
         without, {darker} darker by more than 2 levels"
    );
    assert!(
        mean_on < 0.95 * mean_off && darker * 3 >= contacts,
        "the ground at the characters' feet ({contacts} pixels): mean luminance {mean_on:.1} \
         with AO, {mean_off:.1} without, {darker} darker by more than 2 levels; {seen}"
    );

    // Open ground: a patch on the sunny side in front of the crowd, far from everyone.
    let h = s.height;
    let front_left = s
        .feet
        .iter()
        .fold(Vec3::new(f32::MAX, 0.0, f32::MIN), |a, f| {
            Vec3::new(a.x.min(f.x), f.y, a.z.max(f.z))
        });
    let centre = s
        .project(front_left + Vec3::new(-0.2 * h, 0.0, 0.9 * h))
        .expect("the open ground in front of the crowd is in the frame");
    let mut sum = 0.0;
    let mut n = 0;
    for dy in -4i32..=4 {
        for dx in -4i32..=4 {
            let (x, y) = ((centre.0 as i32 + dx) as u32, (centre.1 as i32 + dy) as u32);
            assert!(
                !mask.at(x as i64, y as i64),
                "the open-ground patch at {centre:?} is covered"
            );
            sum += (luma(&on, x, y) - luma(&off, x, y)).abs();
            n += 1;
        }
    }
    let change = sum / n as f64;
    eprintln!("open ground at {centre:?}: mean absolute change {change:.2}");
    assert!(
        change < 2.0,
        "open ground at {centre:?} changes by {change:.2} levels on average with AO; {seen}"
    );
    assert_no_validation_messages();
}

#[test]
fn the_depth_prepass_changes_nothing_but_the_cost() {
    let Some(mut s) = scene(4) else {
        return;
    };
    // With ambient occlusion, the forward pass alone writes the sun's and the sky's light
    // apart and the composite pass adds the occlusion made from its depth and normals.
    for (shadows, ssao) in [(true, false), (false, false), (true, true), (false, true)] {
        let with = s.frame(settings(shadows, ssao, true), ViewMode::Final);
        let without = s.frame(settings(shadows, ssao, false), ViewMode::Final);
        let off = differing(&with, &without, 2);
        let total = (SIZE * SIZE) as usize;
        if off * 200 >= total {
            let a = keep(&format!("prepass_shadows_{shadows}_ssao_{ssao}"), &with);
            let b = keep(
                &format!("no_prepass_shadows_{shadows}_ssao_{ssao}"),
                &without,
            );
            panic!(
                "shadows {shadows}, ssao {ssao}: {off} of {total} pixels differ by more than 2 \
                 levels between prepass + forward and forward alone ({}, {})",
                a.display(),
                b.display()
            );
        }
    }
    // Multisampled, the light apart is resolved before the occlusion is added (a linear sum,
    // so the same), while the prepass's frame resolves its lit colour in the target's format.
    // And with every character a card writing its picture's depth (a GPU's default), drawn
    // over the forward pass's colours, which only the card pass then resolves.
    if DeviceCapabilities::of(s.r.context()).renders_samples(4) {
        for cards in [false, true] {
            let msaa4 = |prepass| RenderSettings {
                msaa: 4,
                impostors: cards,
                impostor_px: Some(4096.0),
                card_depth: CardDepth::Picture,
                ..settings(true, true, prepass)
            };
            let with = s.frame(msaa4(true), ViewMode::Final);
            let without = s.frame(msaa4(false), ViewMode::Final);
            let (off, total) = (differing(&with, &without, 2), (SIZE * SIZE) as usize);
            eprintln!(
                "4x MSAA, cards {cards}: {off} of {total} pixels differ by more than 2 levels"
            );
            if off * 200 >= total {
                let a = keep(&format!("prepass_msaa4_cards_{cards}"), &with);
                let b = keep(&format!("no_prepass_msaa4_cards_{cards}"), &without);
                panic!(
                    "4x MSAA, cards {cards}: {off} of {total} pixels differ by more than 2 \
                     levels between prepass + forward and forward alone ({}, {})",
                    a.display(),
                    b.display()
                );
            }
        }
    }
    assert_no_validation_messages();
}

/// The passes of one frame rendered (without readback) under `settings`, in order, as the
/// frame's timestamps name them.
fn passes_under(s: &mut Scene, settings: RenderSettings) -> Vec<&'static str> {
    s.r.renderer().set_settings(settings).expect("settings");
    s.r.renderer().reset_gpu_average();
    s.r.render(&mut s.crowd, &s.inputs).expect("frame");
    let frame_ms =
        s.r.renderer()
            .gpu_ms_average()
            .expect("waiting for the frame");
    assert!(
        frame_ms.is_some(),
        "the device writes timestamps, but the renderer collected no GPU time for the frame"
    );
    s.r.renderer().pass_times().iter().map(|p| p.name).collect()
}

/// Whether the scene's device writes timestamps (read from Vulkan, not from the renderer);
/// says so when it does not.
fn device_has_timestamps(s: &mut Scene) -> bool {
    let has = DeviceCapabilities::of(s.r.context()).timestamps;
    if !has {
        eprintln!("skipped: this device's queue writes no timestamps, so no pass times");
    }
    has
}

#[test]
fn the_graph_culls_the_passes_nothing_reads() {
    let Some(mut s) = scene(2) else {
        return;
    };
    if !device_has_timestamps(&mut s) {
        return;
    }
    let all = passes_under(&mut s, settings(true, true, true));
    // Culling runs first in every frame: the skinned passes draw its lists. The output pass
    // copies the scene colour into the target; culling's counters are copied for the
    // statistics last, once every list is final.
    let culling = [pass::CULL_CLEAR, pass::CULL, pass::CULL_DRAWS];
    let stats = [pass::OUTPUT, pass::CULL_STATS];
    // With the prepass, the small instances are culled against its depth and added to it.
    let occlusion = [
        pass::OCCLUSION_DEPTH,
        pass::CULL_LATE,
        pass::CULL_DRAWS_LATE,
        pass::DEPTH_NORMAL_LATE,
    ];
    assert_eq!(
        all,
        [
            &culling[..],
            &[pass::SHADOW, pass::DEPTH_NORMAL],
            &occlusion,
            &[pass::SSAO, pass::SSAO_BLUR, pass::FORWARD],
            &stats,
        ]
        .concat()
    );
    let no_shadows = passes_under(&mut s, settings(false, true, true));
    assert!(!no_shadows.contains(&pass::SHADOW), "{no_shadows:?}");
    assert!(no_shadows.contains(&pass::FORWARD), "{no_shadows:?}");
    let no_ssao = passes_under(&mut s, settings(true, false, true));
    assert_eq!(
        no_ssao,
        [
            &culling[..],
            &[pass::SHADOW, pass::DEPTH_NORMAL],
            &occlusion,
            &[pass::FORWARD],
            &stats,
        ]
        .concat(),
        "with ssao off"
    );
    let no_occlusion = passes_under(
        &mut s,
        RenderSettings {
            occlusion: false,
            ..settings(true, true, true)
        },
    );
    assert_eq!(
        no_occlusion,
        [
            &culling[..],
            &[
                pass::SHADOW,
                pass::DEPTH_NORMAL,
                pass::SSAO,
                pass::SSAO_BLUR,
                pass::FORWARD
            ],
            &stats,
        ]
        .concat(),
        "with occlusion off"
    );
    // Without the prepass (the default) the forward pass draws the large instances, the
    // late one what the occlusion test let through, and the ambient occlusion follows them.
    let forward_occlusion = [
        pass::FORWARD,
        pass::OCCLUSION_DEPTH,
        pass::CULL_LATE,
        pass::CULL_DRAWS_LATE,
        pass::FORWARD_LATE,
    ];
    let no_prepass = passes_under(&mut s, settings(true, true, false));
    assert_eq!(
        no_prepass,
        [
            &culling[..],
            &[pass::SHADOW],
            &forward_occlusion,
            &[pass::SSAO, pass::SSAO_BLUR, pass::AMBIENT_COMPOSITE],
            &stats,
        ]
        .concat(),
        "without the prepass"
    );
    let bare = passes_under(&mut s, settings(false, false, false));
    assert_eq!(
        bare,
        [&culling[..], &forward_occlusion, &stats].concat(),
        "with every optional pass off"
    );
    let barest = passes_under(
        &mut s,
        RenderSettings {
            occlusion: false,
            ..settings(false, false, false)
        },
    );
    assert_eq!(
        barest,
        [&culling[..], &[pass::FORWARD], &stats].concat(),
        "with every optional pass and the occlusion test off"
    );
    assert_no_validation_messages();
}

#[test]
fn every_pass_is_timed_and_the_passes_fit_in_the_frame() {
    let Some(mut s) = scene(2) else {
        return;
    };
    if !device_has_timestamps(&mut s) {
        return;
    }
    s.r.renderer().reset_gpu_average();
    for _ in 0..3 {
        s.r.render(&mut s.crowd, &s.inputs).expect("frame");
    }
    let frame_ms =
        s.r.renderer()
            .gpu_ms_average()
            .expect("waiting for the frames")
            .expect("the device writes timestamps, but the renderer collected no GPU time");
    let times = s.r.renderer().pass_times().to_vec();
    assert!(frame_ms > 0.0, "frame {frame_ms} ms");
    assert!(times.len() >= 5, "{times:?}");
    for t in &times {
        assert_eq!(t.frames, 3, "{}: counted over {} frames", t.name, t.frames);
        assert!(t.average_ms() > 0.0 && t.last_ms > 0.0, "{t:?}");
    }
    let sum: f64 = times.iter().map(|t| t.average_ms()).sum();
    eprintln!("frame {frame_ms:.3} ms, passes {sum:.3} ms: {times:?}");
    assert!(
        sum <= frame_ms + 1e-3,
        "the passes take {sum:.3} ms, the frame {frame_ms:.3} ms: {times:?}"
    );
    assert_no_validation_messages();
}

/// sRGB encoding of a linear value, as the colour target stores it.
fn srgb(linear: f32) -> f32 {
    let c = linear.clamp(0.0, 1.0);
    255.0
        * if c <= 0.003_130_8 {
            12.92 * c
        } else {
            1.055 * c.powf(1.0 / 2.4) - 0.055
        }
}

#[test]
fn every_debug_view_shows_something_plausible() {
    let Some(mut s) = scene(4) else {
        return;
    };
    let all = settings(true, true, true);
    // Every debug view first, then the silhouette: a frame without the prepass before them
    // would leave a "forward depth" image in the renderer's pool, which the debug views'
    // prepass and AO must not pick up (`a_frame_without_the_prepass_leaves_the_debug_views_alone`).
    let views = [
        ViewMode::Ao,
        ViewMode::Normals,
        ViewMode::Depth,
        ViewMode::Shadow,
    ]
    .map(|v| s.frame(all, v));
    let mask = s.silhouette();
    let [ao, normals, depth, shadow] = views;
    let total = (SIZE * SIZE) as usize;
    let grey = |p: &Pixels| -> Vec<u8> { p.rgba8.chunks_exact(4).map(|c| c[0]).collect() };

    // Ambient occlusion: mostly white; the darker pixels are near the characters.
    let ao_path = keep("view_ao", &ao);
    let g = grey(&ao);
    let white = g.iter().filter(|&&v| v >= 235).count();
    let dark: Vec<usize> = (0..total).filter(|&i| g[i] < 200).collect();
    let r = (0.3 * s.height * s.pixels_per_unit(s.feet[0])).max(4.0) as i64;
    let dark_near = dark
        .iter()
        .filter(|&&i| mask.near(((i as u32) % SIZE, (i as u32) / SIZE), r))
        .count();
    eprintln!(
        "ao: {white} near-white, {} darker, {dark_near} of them within {r} px of a character",
        dark.len()
    );
    assert!(
        white * 10 >= total * 7,
        "ao view: only {white} of {total} pixels near white; {}",
        ao_path.display()
    );
    assert!(
        dark.len() >= 20 && dark_near * 10 >= dark.len() * 9,
        "ao view: {} darker pixels, {dark_near} near a character; {}",
        dark.len(),
        ao_path.display()
    );

    // Normals: the ground's colour (its view-space normal, +Y seen from the camera) dominates.
    let normals_path = keep("view_normals", &normals);
    let n = (s.inputs.view.transform_vector3(Vec3::Y)).normalize() * 0.5 + Vec3::splat(0.5);
    let want = [srgb(n.x), srgb(n.y), srgb(n.z)];
    let ground = normals
        .rgba8
        .chunks_exact(4)
        .filter(|c| (0..3).all(|k| (c[k] as f32 - want[k]).abs() <= 3.0))
        .count();
    eprintln!("normals: {ground} of {total} pixels the ground's {want:?}");
    assert!(
        ground * 2 >= total,
        "normals view: only {ground} of {total} pixels have the ground's colour {want:?}; {}",
        normals_path.display()
    );

    // Depth: the ground far away is brighter than the ground near the camera.
    let depth_path = keep("view_depth", &depth);
    let (lo, hi) = (
        s.feet.iter().map(|f| f.z).fold(f32::MAX, f32::min),
        s.feet.iter().map(|f| f.z).fold(f32::MIN, f32::max),
    );
    let x = s.feet.iter().map(|f| f.x).sum::<f32>() / s.feet.len() as f32;
    let near_px = s
        .project(Vec3::new(x, 0.0, hi + 0.9 * s.height))
        .expect("near ground in view");
    let far_px = s
        .project(Vec3::new(x, 0.0, lo - 0.9 * s.height))
        .expect("far ground in view");
    assert!(near_px.1 > far_px.1, "near ground is lower in the frame");
    let (dn, df) = (luma3(&depth, near_px), luma3(&depth, far_px));
    eprintln!("depth: near ground {near_px:?} {dn:.1}, far ground {far_px:?} {df:.1}");
    assert!(
        !mask.near(near_px, 2) && df > dn + 10.0,
        "depth view: far ground {far_px:?} {df:.1}, near ground {near_px:?} {dn:.1}; {}",
        depth_path.display()
    );

    // Shadow map: the ground far from the light near white, the characters (nearer the
    // light) darker.
    let shadow_path = keep("view_shadow", &shadow);
    let g = grey(&shadow);
    let light = g.iter().filter(|&&v| v >= 240).count();
    let darker = g.iter().filter(|&&v| v < 230).count();
    eprintln!("shadow: {light} near-white texels, {darker} darker");
    assert!(
        light * 4 >= total && darker * 200 >= total,
        "shadow view: {light} near-white and {darker} darker of {total}; {}",
        shadow_path.display()
    );
    assert_no_validation_messages();
}

#[test]
fn a_frame_without_the_prepass_leaves_the_debug_views_alone() {
    // The renderer's transient images are shared by name between the graphs of one set of
    // settings: a frame without the prepass (the silhouette view has none) draws "depth" in
    // its forward pass, and the debug views (which run the prepass for their source) must
    // still clear it, draw into it and read what they drew.
    let all = settings(true, true, true);
    let Some(mut fresh) = scene(2) else {
        return;
    };
    let before = [ViewMode::Depth, ViewMode::Ao].map(|v| fresh.frame(all, v));
    drop(fresh);
    let Some(mut s) = scene(2) else {
        return;
    };
    s.frame(all, ViewMode::Silhouette);
    let after = [ViewMode::Depth, ViewMode::Ao].map(|v| s.frame(all, v));
    for ((name, a), b) in ["depth", "ao"].iter().zip(&before).zip(&after) {
        let off = differing(a, b, 2);
        if off > 0 {
            let pa = keep(&format!("{name}_fresh"), a);
            let pb = keep(&format!("{name}_after_no_prepass"), b);
            panic!(
                "the {name} view changed after a frame without the prepass: {off} pixels \
                 differ by more than 2 levels ({}, {})",
                pa.display(),
                pb.display()
            );
        }
    }
    assert_no_validation_messages();
}

#[test]
fn the_scene_helpers_agree_with_the_frame() {
    // The projection the other tests pick pixels with lands on the characters.
    let Some(mut s) = scene(4) else {
        return;
    };
    let mask = s.silhouette();
    let mut hits = 0;
    for &foot in &s.feet {
        let chest = foot + Vec3::Y * 0.6 * s.height;
        if let Some(px) = s.project(chest) {
            hits += mask.near(px, 2) as usize;
        }
    }
    assert!(
        hits >= 3,
        "only {hits} of 4 chests project onto a character"
    );
    assert_no_validation_messages();
}

/// Red channel of each pixel, in linear light (the target is sRGB-encoded).
fn linear_red(p: &Pixels) -> Vec<f32> {
    p.rgba8
        .chunks_exact(4)
        .map(|px| {
            let c = f32::from(px[0]) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        })
        .collect()
}

#[test]
fn a_new_renderer_draws_with_its_devices_default_sample_count() {
    let Some(mut r) = gpu_common::renderer_as_made(16, 16) else {
        return;
    };
    // What the device should get, worked out here from Vulkan's own answers: one sample on a
    // software rasterizer (lavapipe's 4x makes a full-size frame a minute long), otherwise
    // four, or the most below four that colour and depth both render.
    let device = DeviceCapabilities::of(r.context());
    let expected = if device.kind == ash::vk::PhysicalDeviceType::CPU {
        1
    } else {
        [4, 2, 1]
            .into_iter()
            .find(|&n| device.renders_samples(n))
            .expect("one sample always renders")
    };
    let msaa = r.renderer().settings().msaa;
    assert_eq!(
        msaa,
        expected,
        "{} ({:?}, sample counts {:?})",
        r.context().device_name(),
        device.kind,
        device.sample_counts
    );
    assert_eq!(
        r.renderer().default_msaa().min(msaa),
        msaa,
        "the renderer's stated default is below what it draws with"
    );
}

#[test]
fn multisampling_smooths_the_edges_and_changes_nothing_else() {
    let Some(mut s) = scene(4) else {
        return;
    };
    let with = |msaa| RenderSettings {
        msaa,
        ..settings(true, true, true)
    };
    if !DeviceCapabilities::of(s.r.context()).renders_samples(4) {
        eprintln!("skipped: this device renders no 4x MSAA (its sample counts, read from Vulkan)");
        return;
    }
    // Silhouettes: one sample per pixel covers a pixel or not; four leave partly covered
    // edge pixels grey, and the white in all adds up to the same area.
    let hard = s.frame(with(1), ViewMode::Silhouette);
    let soft = s.frame(with(4), ViewMode::Silhouette);
    assert_eq!(
        s.r.renderer().settings().msaa,
        4,
        "the device renders 4x MSAA, but the renderer lowered it"
    );
    let grey = |p: &Pixels| {
        p.rgba8
            .chunks_exact(4)
            .filter(|px| (16..240).contains(&px[0]))
            .count()
    };
    assert_eq!(grey(&hard), 0, "without MSAA every pixel is covered or not");
    let hard_red = linear_red(&hard);
    let edges = (1..SIZE as usize)
        .flat_map(|y| (1..SIZE as usize).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let at = |x: usize, y: usize| hard_red[y * SIZE as usize + x];
            at(x, y) != at(x - 1, y) || at(x, y) != at(x, y - 1)
        })
        .count();
    assert!(
        grey(&soft) * 4 >= edges,
        "with 4x MSAA a good share of the {edges} edge pixels are partly covered, {} are",
        grey(&soft)
    );
    let area = |p: &Pixels| linear_red(p).iter().sum::<f32>();
    let (a, b) = (area(&hard), area(&soft));
    assert!(
        (a - b).abs() <= 0.03 * a,
        "the characters cover {a:.0} pixels without MSAA and {b:.0} with it"
    );
    // The lit frame: only edges change (the prepass, its resolve and the forward pass's
    // equal test agree; a mismatch would show holes of sky inside the characters).
    let hard = s.frame(with(1), ViewMode::Final);
    let soft = s.frame(with(4), ViewMode::Final);
    let off = differing(&hard, &soft, 8);
    assert!(
        off <= edges * 2,
        "{off} pixels differ by more than 8 levels with MSAA, against {edges} edge pixels ({}, {})",
        keep("msaa_1", &hard).display(),
        keep("msaa_4", &soft).display()
    );
    assert_no_validation_messages();
}
