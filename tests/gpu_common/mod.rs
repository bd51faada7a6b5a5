//! Shared set-up of the tests that render on a Vulkan device (lavapipe in CI): a headless
//! renderer with validation on, a single-character or crowd scene, and the rule that a
//! missing device fails under `CI=true` and skips (with a message) elsewhere.
#![allow(dead_code)]

pub mod shown;

use std::sync::Arc;

use glam::{Vec3, Vec4};
use throng::anim::{Bounds, SkinnedModel};
use throng::crowd::{AnimationMode, BakeSettings, Crowd, ModelId};
use throng::gpu::{
    ContextOptions, FrameInputs, GpuContext, GpuError, HeadlessRenderer, Pixels, RenderSettings,
    ViewMode, validation_messages,
};
use throng::motion::{CrowdMotion, DeviceMotion, WalkPaths};
use throng::scene::{
    Camera, CrowdLayout, Light, PlacedInstance, Variety, crowd_bounds, model_basis,
    play_models_in_place,
};

// Whether this run is CI (the one rule, shared with `tests/common`; included rather than
// loaded as a module, since a test may load both).
include!("../common/ci.rs");

/// A headless renderer with validation, or `None` (after saying why) when this machine has
/// no Vulkan device and is not CI. Under `CI=true` a missing device fails the test.
///
/// It draws with [`RenderSettings::default`] (4x MSAA where the device has it), not the
/// device's own default (one sample on lavapipe): the goldens and the picture checks are
/// taken so on every device.
pub fn renderer(width: u32, height: u32) -> Option<HeadlessRenderer> {
    let mut r = renderer_as_made(width, height)?;
    r.renderer()
        .set_settings(RenderSettings::default())
        .expect("the default settings");
    Some(r)
}

/// A headless renderer with validation as [`HeadlessRenderer::new`] makes it (with the
/// device's own defaults), or `None` as for [`renderer`].
pub fn renderer_as_made(width: u32, height: u32) -> Option<HeadlessRenderer> {
    init_log();
    let options = ContextOptions {
        device: None,
        validation: true,
    };
    or_skip(HeadlessRenderer::new(&options, width, height), "renderer")
}

/// A device context (no window) with the validation layer on, or `None` as for
/// [`renderer`]. Fails if the layer is not installed.
pub fn validated_context() -> Option<Arc<GpuContext>> {
    init_log();
    let options = ContextOptions {
        device: None,
        validation: true,
    };
    // SAFETY: no window.
    let ctx = or_skip(unsafe { GpuContext::new(&options, None) }, "device")?;
    assert!(ctx.validation(), "the validation layer is not installed");
    Some(ctx)
}

/// `result`'s value; `None` (after saying why) when it failed for want of a Vulkan device and
/// this is not CI; otherwise a failure naming `what` was not made.
fn or_skip<T>(result: Result<T, GpuError>, what: &str) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(e @ (GpuError::NoLoader(_) | GpuError::NoDevice(_))) if !under_ci() => {
            eprintln!("skipped: no Vulkan device here ({e}); CI=true makes this a failure");
            None
        }
        Err(e) => panic!("no {what}: {e}"),
    }
}

/// [`renderer`] drawing one sample per pixel: for checks that compare silhouettes with the
/// CPU's, where a pixel must be covered or not (multisampling would leave edges half
/// covered).
pub fn single_sample_renderer(width: u32, height: u32) -> Option<HeadlessRenderer> {
    let mut r = renderer(width, height)?;
    let settings = throng::gpu::RenderSettings {
        msaa: 1,
        ..r.renderer().settings()
    };
    r.renderer()
        .set_settings(settings)
        .expect("one sample per pixel");
    Some(r)
}

/// A small renderer for checks of the crowd's state and motion, not of pictures: no shadows,
/// ambient occlusion or cards (whose atlases would take longer to bake than hundreds of
/// frames to draw), one sample per pixel.
pub fn state_renderer(width: u32, height: u32) -> Option<HeadlessRenderer> {
    let mut r = renderer(width, height)?;
    let settings = throng::gpu::RenderSettings {
        shadows: false,
        ssao: false,
        msaa: 1,
        impostors: false,
        ..r.renderer().settings()
    };
    r.renderer().set_settings(settings).expect("settings");
    Some(r)
}

/// Sends the renderer's log (validation messages among it: warnings and errors) to the
/// test's captured output, so that a failing test shows what the layers said.
pub fn init_log() {
    let _ = env_logger::builder()
        .is_test(true)
        .filter_level(log::LevelFilter::Warn)
        .parse_env("RUST_LOG")
        .try_init();
}

/// Fails the test if any validation message has been reported in this process.
pub fn assert_no_validation_messages() {
    assert_eq!(
        validation_messages(),
        0,
        "the validation layers reported messages (see the log above)"
    );
}

/// A crowd of `models` laid out by `scene` with `instances` instances, uploaded to `r`.
pub fn crowd_of(
    r: &mut HeadlessRenderer,
    models: &[Arc<SkinnedModel>],
    instances: usize,
    seed: u64,
) -> (Crowd, Bounds) {
    let mut crowd = Crowd::new(1).expect("crowd");
    let ids: Vec<ModelId> = models.iter().map(|m| crowd.add_model(m.clone())).collect();
    for m in models {
        r.add_model(m, &model_basis(m)).expect("upload");
    }
    let placed = CrowdLayout::new(instances, seed)
        .spawn(&mut crowd, &ids)
        .expect("spawn");
    let bounds = crowd_bounds(&placed, models).expect("bounds");
    (crowd, bounds)
}

/// A crowd of `n` instances of `model` (its root motion played in place) laid out with `seed`
/// for `paths`, baked, with exact palettes near the camera, and its motion.
pub fn walking_crowd(
    model: &Arc<SkinnedModel>,
    n: usize,
    seed: u64,
    paths: WalkPaths,
) -> (Crowd, CrowdMotion, Vec<PlacedInstance>) {
    // Heights varied (a walker's stride scales with its height; the GPU must agree), looks
    // left alone.
    let variety = Variety {
        looks_per_model: 0,
        ..Variety::default()
    };
    walking_crowd_of(std::slice::from_ref(model), n, seed, paths, variety)
}

/// [`walking_crowd`] of several models (interleaved: instance `i` is of model `i % k`), with
/// heights and looks varied by `variety`.
pub fn walking_crowd_of(
    models: &[Arc<SkinnedModel>],
    n: usize,
    seed: u64,
    paths: WalkPaths,
    variety: Variety,
) -> (Crowd, CrowdMotion, Vec<PlacedInstance>) {
    let models = play_models_in_place(models.to_vec()).expect("in place");
    let mut crowd = Crowd::new(1).expect("crowd");
    let ids: Vec<ModelId> = models
        .models
        .iter()
        .map(|m| crowd.add_model(m.clone()))
        .collect();
    let layout = paths.prepare_layout(CrowdLayout {
        variety: Some(variety),
        ..CrowdLayout::new(n, seed)
    });
    let placed = layout.spawn(&mut crowd, &ids).expect("spawn");
    crowd.bake(BakeSettings::default());
    crowd.set_animation(AnimationMode::Auto);
    let motion = CrowdMotion::new(paths, &layout, &models, &placed);
    (crowd, motion, placed)
}

/// Moves `crowd`'s state to `r`'s GPU (its model already uploaded): its baked frames and the
/// tables `motion` makes of it. Returns the tables.
pub fn state_on_gpu(
    r: &mut HeadlessRenderer,
    crowd: &mut Crowd,
    motion: &CrowdMotion,
) -> DeviceMotion {
    r.renderer().upload_baked(crowd).expect("baked frames");
    let tables = motion.on_device(crowd).expect("tables");
    r.renderer()
        .set_crowd_state(crowd, Some(&tables))
        .expect("state on the GPU");
    tables
}

/// One frame of a crowd whose state is on the GPU: the schedule's step of `dt`, then the
/// frame.
pub fn gpu_state_frame(
    r: &mut HeadlessRenderer,
    crowd: &mut Crowd,
    motion: &mut CrowdMotion,
    inputs: &FrameInputs,
    dt: f32,
) {
    let step = motion.advance_on_device(crowd.len(), dt);
    r.renderer().step_crowd_state(step);
    r.render(crowd, inputs).expect("frame");
}

/// Holds every instance of `crowd` at `clip` and `time` (speed 0).
pub fn hold_pose(crowd: &mut Crowd, clip: usize, time: f32) {
    for i in 0..crowd.len() {
        let inst = crowd.instance_mut(i);
        inst.play(clip, 0.0).expect("clip");
        inst.set_time(time);
        inst.set_speed(0.0);
    }
    crowd.update(0.0);
}

/// Eight moments, evenly spaced, of each of `model`'s `walk` and `run`: (clip name, clip
/// index, time).
pub fn gait_moments(model: &SkinnedModel) -> Vec<(&'static str, usize, f32)> {
    let mut moments = Vec::with_capacity(16);
    for name in ["walk", "run"] {
        let clip = model.resolve_clip(name).expect("clip");
        let duration = model.clips()[clip].duration();
        moments.extend((0..8).map(|k| (name, clip, duration * k as f32 / 8.0)));
    }
    moments
}

/// A camera framing `bounds` (with a small margin) at the renderer's aspect.
pub fn framing(r: &HeadlessRenderer, bounds: &Bounds) -> Camera {
    let e = r.extent();
    let margin = (bounds.max - bounds.min).max_element() * 0.05;
    Camera::framing(
        bounds.min - Vec3::splat(margin),
        bounds.max + Vec3::splat(margin),
        e.width as f32 / e.height as f32,
    )
}

/// Frame inputs for `camera`, the default light and a ground around `bounds`.
pub fn inputs(
    r: &HeadlessRenderer,
    camera: &Camera,
    bounds: &Bounds,
    view: ViewMode,
) -> FrameInputs {
    let e = r.extent();
    let centre = 0.5 * (bounds.min + bounds.max);
    let half = 0.5 * (bounds.max - bounds.min).x.max((bounds.max - bounds.min).z);
    FrameInputs::new(
        camera,
        e.width as f32 / e.height as f32,
        &Light::default_sun(),
        Vec4::new(centre.x, centre.z, half * 4.0 + 2.0, 0.0),
        0.5 * (bounds.max.y - bounds.min.y).max(1e-3),
        view,
    )
}

/// Frame inputs of `view` for a square frame of the crowd in `bounds` with room around it for
/// the shadows, and the sun's box widened by the crowd's height on every side.
pub fn inputs_with_shadows(r: &HeadlessRenderer, bounds: &Bounds, view: ViewMode) -> FrameInputs {
    let height = bounds.max.y - bounds.min.y;
    let room = Vec3::new(0.5 * height, 0.0, 0.5 * height);
    let camera = Camera::framing(bounds.min - room, bounds.max + room, 1.0);
    let mut frame = inputs(r, &camera, bounds, view);
    frame.shadow_box = (
        bounds.min - Vec3::splat(height),
        bounds.max + Vec3::splat(height),
    );
    frame
}

/// Renders one frame and returns it.
pub fn render(r: &mut HeadlessRenderer, crowd: &mut Crowd, inputs: &FrameInputs) -> Pixels {
    r.render_pixels(crowd, inputs).expect("frame")
}

/// Renders one frame of `view` through `camera` and returns it.
pub fn render_view(
    r: &mut HeadlessRenderer,
    crowd: &mut Crowd,
    camera: &Camera,
    bounds: &Bounds,
    view: ViewMode,
) -> Pixels {
    let frame = inputs(r, camera, bounds, view);
    render(r, crowd, &frame)
}

/// Pixels that are not the background colour `bg` (exactly).
pub fn count_not(p: &Pixels, bg: [u8; 3]) -> usize {
    p.rgba8.chunks_exact(4).filter(|px| px[..3] != bg).count()
}

/// Pixels whose luminance is above one half (the silhouette view's white).
pub fn count_white(p: &Pixels) -> usize {
    p.rgba8
        .chunks_exact(4)
        .filter(|px| (px[0] as u32 + px[1] as u32 + px[2] as u32) > 3 * 128)
        .count()
}

/// Pixels that differ between two frames by more than `tolerance` in any channel.
pub fn differing(a: &Pixels, b: &Pixels, tolerance: u8) -> usize {
    assert_eq!((a.width, a.height), (b.width, b.height));
    a.rgba8
        .chunks_exact(4)
        .zip(b.rgba8.chunks_exact(4))
        .filter(|(x, y)| {
            x.iter()
                .zip(y.iter())
                .any(|(p, q)| p.abs_diff(*q) > tolerance)
        })
        .count()
}

/// The built-in character, loaded as `run` loads it (with its mesh levels).
pub fn builtin() -> Arc<SkinnedModel> {
    Arc::new(throng::asset::load_model(None).expect("builtin"))
}

/// What the device of `ctx` can do, read from Vulkan directly (not from the renderer's own
/// reading of it), so that a test that depends on a capability is skipped by the device and
/// never by a value the code under test produced.
pub struct DeviceCapabilities {
    /// The graphics queue writes timestamps.
    pub timestamps: bool,
    /// Sample counts usable for both colour and depth attachments.
    pub sample_counts: ash::vk::SampleCountFlags,
    /// The device's type (CPU for lavapipe).
    pub kind: ash::vk::PhysicalDeviceType,
}

impl DeviceCapabilities {
    /// Reads them for the device `ctx` was made on.
    pub fn of(ctx: &GpuContext) -> Self {
        let instance = ctx.instance();
        let physical = ctx.physical.physical;
        // SAFETY: a physical device of this live instance.
        let (props, families) = unsafe {
            (
                instance.get_physical_device_properties(physical),
                instance.get_physical_device_queue_family_properties(physical),
            )
        };
        let family = families
            .get(ctx.physical.queue_family as usize)
            .expect("the context's queue family exists");
        let limits = props.limits;
        Self {
            timestamps: family.timestamp_valid_bits > 0 && limits.timestamp_period > 0.0,
            sample_counts: limits.framebuffer_color_sample_counts
                & limits.framebuffer_depth_sample_counts,
            kind: props.device_type,
        }
    }

    /// Whether colour and depth can both be rendered with `samples` samples per pixel.
    pub fn renders_samples(&self, samples: u32) -> bool {
        self.sample_counts
            .contains(ash::vk::SampleCountFlags::from_raw(samples))
    }
}

/// The capabilities of the device a new context picks (the one `throng run` uses), or `None`
/// as for [`renderer`].
pub fn default_device_capabilities() -> Option<DeviceCapabilities> {
    init_log();
    let options = ContextOptions {
        device: None,
        validation: false,
    };
    // SAFETY: no window.
    let ctx = or_skip(unsafe { GpuContext::new(&options, None) }, "device")?;
    Some(DeviceCapabilities::of(&ctx))
}

/// A copy of `model` (its skeleton, mesh and mesh levels) playing `clips` instead, named
/// `name`: a second model whose clip table differs from the first's.
pub fn with_clips(
    model: &SkinnedModel,
    name: &str,
    clips: Vec<throng::anim::AnimationClip>,
) -> SkinnedModel {
    let mut other = SkinnedModel::new(
        name,
        "test",
        model.skeleton().clone(),
        clips,
        model.mesh().clone(),
    )
    .expect("the copy");
    other
        .set_lods(model.lods().to_vec())
        .expect("the model's levels");
    other
}

/// The records the CPU path writes for `crowd`'s frame as it stands, by instance (written
/// into `ring`, a one-slot ring on the host).
pub fn cpu_records(
    crowd: &mut Crowd,
    ring: &mut throng::crowd::PaletteRing<throng::crowd::HostAllocator>,
) -> Vec<throng::crowd::InstanceRecord> {
    let index = crowd
        .write_frame(ring, &mut throng::crowd::NoConsumer)
        .expect("CPU frame");
    let slot = ring
        .acquire(&mut throng::crowd::NoConsumer)
        .expect("the slot");
    assert_eq!(slot.index, index, "a ring of one slot");
    (0..crowd.len())
        .map(|i| slot.records[crowd.placement(i).expect("placed").record])
        .collect()
}
