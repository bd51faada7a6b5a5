//! The crowd's state on the GPU advances as the CPU's does. Two copies of the same crowd of
//! built-in characters (clip changes every few seconds with cross-fades, some instances at
//! other playback rates, backwards, or clamping at the clip's end) are moved 600 frames: one
//! by the CPU path (`CrowdMotion::advance`, the reference), one by the crowd-state pass. At
//! four points along the way every instance must play the same clip, fade from the same clip
//! with the same weight, stand at the same clip times (the pass rounds as the CPU does, so
//! the clocks are bit for bit the same), and the record the pass wrote must place it where
//! the CPU placed it (the rings' trigonometry is the GPU's own: within a thousandth of the
//! ring's radius). In place, along lanes, and round rings. Near instances get the reference's
//! exact palettes, and either path draws the same picture.
//!
//! Without a Vulkan device this prints why and skips, except under `CI=true`, where it fails.

use std::sync::Arc;

use throng::asset::builtin;
use throng::crowd::visibility::{AnimationView, Frustum, ViewScale};
use throng::crowd::{Crowd, HostAllocator, InstanceRecord, NoConsumer, PaletteRing};
use throng::gpu::{FrameInputs, HeadlessRenderer, RenderSettings, ViewMode};
use throng::motion::{CrowdMotion, DeviceMotion, WalkPaths};
use throng::scene::{PlacedInstance, crowd_bounds};

mod gpu_common;

const INSTANCES: usize = 64;
const FRAMES: usize = 600;
const CHECKS: usize = 4;
const DT: f32 = 1.0 / 60.0;

/// A crowd of the built-in character laid out for `paths`, baked, with a few instances at
/// other rates and one clamping, and its motion.
fn crowd(paths: WalkPaths) -> (Crowd, CrowdMotion, Vec<PlacedInstance>) {
    let model = Arc::new(builtin::model().expect("builtin"));
    let (mut crowd, motion, placed) = gpu_common::walking_crowd(&model, INSTANCES, 7, paths);
    for (i, speed) in [(3, 1.7), (10, -0.6), (21, 0.5), (40, 2.3)] {
        crowd.instance_mut(i).set_speed(speed);
    }
    crowd
        .instance_mut(33)
        .set_playback(throng::anim::Playback::Clamp);
    // Some instances in looks of their own: the pass copies each one's into its record.
    for i in (0..INSTANCES).step_by(5) {
        let mut look = throng::crowd::Look::PLAIN;
        look.tints[1] = [i as f32 / INSTANCES as f32, 0.5, 1.0];
        let id = crowd.add_look(look).expect("room for a look");
        crowd.set_look(i, id).expect("a look of the crowd");
    }
    (crowd, motion, placed)
}

/// The distance between two world transforms' translations, and their largest difference
/// in the linear part.
fn apart(a: &throng::anim::Mat3x4, b: &throng::anim::Mat3x4) -> (f32, f32) {
    let moved = a.translation().distance(b.translation());
    let mut turned = 0.0f32;
    for r in 0..3 {
        for c in 0..3 {
            turned = turned.max((a.rows[r][c] - b.rows[r][c]).abs());
        }
    }
    (moved, turned)
}

/// Where the camera looks from.
#[derive(Clone, Copy)]
enum Look {
    /// Away from the crowd: culling leaves nothing to draw, and a frame costs little more
    /// than the crowd-state pass.
    Away,
    /// At the crowd from this share of the framing distance.
    In(f32),
}

/// Two copies of one crowd walking along `paths`: the reference advanced by the CPU path,
/// the other with its state on `r`'s GPU; and the frame the camera sees.
struct Pair {
    cpu: Crowd,
    cpu_motion: CrowdMotion,
    gpu: Crowd,
    gpu_motion: CrowdMotion,
    placed: Vec<PlacedInstance>,
    tables: DeviceMotion,
    inputs: FrameInputs,
}

impl Pair {
    fn new(r: &mut HeadlessRenderer, paths: WalkPaths, look: Look) -> Self {
        let (cpu, cpu_motion, placed) = crowd(paths);
        let (mut gpu, gpu_motion, _) = crowd(paths);
        let model = gpu.models()[0].clone();
        r.add_model(&model, &throng::scene::model_basis(&model))
            .expect("upload");
        let tables = gpu_common::state_on_gpu(r, &mut gpu, &gpu_motion);
        let bounds = crowd_bounds(&placed, &[model]).expect("bounds");
        let mut camera = gpu_common::framing(r, &bounds);
        match look {
            Look::Away => camera.target = camera.eye + (camera.eye - camera.target),
            Look::In(share) => camera.eye = camera.target + (camera.eye - camera.target) * share,
        }
        let inputs = gpu_common::inputs(r, &camera, &bounds, ViewMode::Final);
        Self {
            cpu,
            cpu_motion,
            gpu,
            gpu_motion,
            placed,
            tables,
            inputs,
        }
    }

    /// One frame on both copies (the GPU's drawn).
    fn step(&mut self, r: &mut HeadlessRenderer) {
        self.cpu_motion
            .advance(&mut self.cpu, DT)
            .expect("CPU step");
        let Self {
            gpu,
            gpu_motion,
            inputs,
            ..
        } = self;
        gpu_common::gpu_state_frame(r, gpu, gpu_motion, inputs, DT);
    }
}

/// Runs both copies for `paths`; returns how many instances were seen fading at the checks
/// and how far the walkers went on the CPU.
fn compare(r: &mut HeadlessRenderer, paths: WalkPaths) -> (usize, f32) {
    let mut pair = Pair::new(r, paths, Look::Away);
    let mut fading = 0;
    for check in 1..=CHECKS {
        for _ in 0..FRAMES / CHECKS {
            pair.step(r);
        }
        let Pair { cpu, tables, .. } = &pair;
        let frame = check * FRAMES / CHECKS;
        let clocks = r
            .renderer()
            .read_crowd_clocks()
            .expect("clocks")
            .expect("on the GPU");
        let records: Vec<InstanceRecord> = r.renderer().read_records(INSTANCES).expect("records");
        assert_eq!(clocks.len(), INSTANCES);
        for (i, clock) in clocks.iter().enumerate() {
            let inst = cpu.instance(i);
            let at = format!("{paths:?}, frame {frame}, instance {i}");
            assert_eq!(clock.clip(), inst.clip(), "{at}: clip");
            match (clock.fade(), inst.fade_source(), inst.fade_weight()) {
                (None, None, None) => {}
                (Some((from, w)), Some((cpu_from, cpu_time)), Some(cpu_w)) => {
                    fading += 1;
                    assert_eq!(from, cpu_from, "{at}: faded-from clip");
                    assert!((w - cpu_w).abs() <= 1e-6, "{at}: fade {w} against {cpu_w}");
                    assert_eq!(clock.from_time, cpu_time, "{at}: faded-from clip's time");
                }
                (gpu_fade, cpu_fade, _) => {
                    panic!("{at}: fading on the GPU {gpu_fade:?}, on the CPU {cpu_fade:?}")
                }
            }
            assert_eq!(clock.time, inst.time(), "{at}: clip time");
            let slot = tables.walkers[i].slot as usize;
            let record = &records[slot];
            let (moved, turned) = apart(&record.world, cpu.world(i));
            let radius = cpu.world(i).translation().length().max(1.0);
            assert!(
                moved <= 1e-3 * radius && turned <= 1e-3,
                "{at}: the GPU placed it {moved} away, turned {turned} (radius {radius})"
            );
            assert_eq!(record.model(), 0, "{at}");
            assert_eq!(record.look(), cpu.look_of(i).0, "{at}: look");
            assert!(record.is_baked(), "{at}");
        }
    }
    let Pair {
        cpu,
        cpu_motion,
        placed,
        ..
    } = &pair;
    let walked = (0..INSTANCES)
        .map(|i| {
            cpu.world(i)
                .translation()
                .distance(placed[i].world.translation())
        })
        .fold(0.0, f32::max);
    assert!(
        cpu_motion.clip_changes().changes >= (INSTANCES * 2) as u64,
        "{paths:?}: the schedule changed clips {} times",
        cpu_motion.clip_changes().changes
    );
    (fading, walked)
}

/// A small renderer of `width` x `height` for a crowd of one model: the pass is under test,
/// not the pictures (no shadows, ambient occlusion or cards, whose atlas would take longer to
/// bake than the 600 frames to draw).
fn renderer(width: u32, height: u32) -> Option<HeadlessRenderer> {
    let mut r = gpu_common::renderer(width, height)?;
    let settings = RenderSettings {
        shadows: false,
        ssao: false,
        msaa: 1,
        impostors: false,
        ..r.renderer().settings()
    };
    r.renderer().set_settings(settings).expect("settings");
    Some(r)
}

#[test]
fn the_gpu_advances_the_crowd_as_the_cpu_does_for_600_frames() {
    let mut fading = 0;
    for paths in [WalkPaths::InPlace, WalkPaths::Lanes, WalkPaths::Rings] {
        let Some(mut r) = renderer(32, 32) else {
            return;
        };
        let (faded, walked) = compare(&mut r, paths);
        fading += faded;
        if paths == WalkPaths::InPlace {
            assert_eq!(walked, 0.0, "in place, nobody moves");
        } else {
            assert!(walked > 0.5, "{paths:?}: the walkers went {walked}");
        }
    }
    // Fades are about a thirteenth of the time: some are caught under way.
    assert!(fading > 0, "no instance was fading at any check");
    gpu_common::assert_no_validation_messages();
}

/// Near instances read exact palettes on the GPU path too: the crowd-state pass lists them,
/// the CPU evaluates them a frame in flight later for the frame they are drawn in, and their
/// records point at them. Each exact palette must be bit for bit the reference crowd's for
/// the same instance and frame, and the near set about the size the CPU path's choice gives.
#[test]
fn near_instances_get_the_cpus_exact_palettes() {
    let Some(mut r) = renderer(128, 72) else {
        return;
    };
    // Halfway in: the front rows are near enough for exact palettes, the back rows are not.
    let mut pair = Pair::new(&mut r, WalkPaths::Lanes, Look::In(0.5));
    for _ in 0..90 {
        pair.step(&mut r);
    }
    let Pair {
        cpu,
        gpu,
        tables,
        inputs,
        ..
    } = &mut pair;
    let model = gpu.models()[0].clone();
    let counts = r
        .renderer()
        .crowd_state_counts(gpu)
        .expect("the state is on the GPU");
    assert!(
        counts.exact > 0 && counts.exact < INSTANCES,
        "{} of {INSTANCES} exact: the view should have near and far instances",
        counts.exact
    );
    let records = r.renderer().read_records(INSTANCES).expect("records");
    let palettes = r
        .renderer()
        .read_palettes(counts.palette_matrices)
        .expect("palettes");
    let joints = model.joint_count();
    let mut scratch = throng::anim::PoseScratch::default();
    let mut expected = vec![throng::anim::Mat3x4::IDENTITY; joints];
    let mut exact = 0;
    for (i, walker) in tables.walkers.iter().enumerate() {
        let record = &records[walker.slot as usize];
        if record.is_baked() {
            continue;
        }
        exact += 1;
        cpu.instance(i).evaluate(&mut scratch, &mut expected);
        let base = record.palette_base as usize;
        assert_eq!(
            &palettes[base..base + joints],
            &expected[..],
            "instance {i}: its exact palette is not the reference's"
        );
    }
    assert_eq!(exact, counts.exact, "records made exact");
    // The CPU path's own choice for this frame: about as many (the GPU's list is a frame in
    // flight old, and tests a sphere around a fade's two clips).
    let extent = r.extent();
    cpu.set_view(Some(AnimationView {
        frustum: Frustum::from_clip(inputs.view_proj),
        scale: ViewScale {
            eye: inputs.eye,
            pixels_per_unit: 0.5 * extent.height as f32 * inputs.proj.y_axis.y.abs(),
        },
        max_error_px: throng::gpu::BAKED_ERROR_PX,
    }));
    let mut ring = PaletteRing::new(HostAllocator, 2, 1, 1).expect("ring");
    cpu.write_frame(&mut ring, &mut NoConsumer)
        .expect("CPU frame");
    let cpu_exact = cpu.counts().exact;
    eprintln!("near set: {exact} listed on the GPU, {cpu_exact} chosen on the CPU path");
    assert!(
        cpu_exact.abs_diff(exact) <= 2.max(cpu_exact / 5),
        "the GPU listed {exact} near instances, the CPU path chose {cpu_exact}"
    );
    gpu_common::assert_no_validation_messages();
}

/// A seed and a frame count give the same picture whichever side advances the crowd: the
/// same walking crowd, 45 frames on, drawn once by the CPU path and once with its state on
/// the GPU (near characters exact on both), differs in almost no pixel.
#[test]
fn both_paths_draw_the_same_picture() {
    let picture = |on_gpu: bool| {
        let mut r = gpu_common::renderer(128, 72)?;
        let settings = RenderSettings {
            msaa: 1,
            ..r.renderer().settings()
        };
        r.renderer().set_settings(settings).expect("settings");
        let (mut crowd, mut motion, placed) = crowd(WalkPaths::Lanes);
        let model = crowd.models()[0].clone();
        r.add_model(&model, &throng::scene::model_basis(&model))
            .expect("upload");
        if on_gpu {
            gpu_common::state_on_gpu(&mut r, &mut crowd, &motion);
        } else {
            r.renderer().upload_baked(&crowd).expect("baked frames");
        }
        let bounds = crowd_bounds(&placed, std::slice::from_ref(&model)).expect("bounds");
        let mut camera = gpu_common::framing(&r, &bounds);
        camera.eye = camera.target + (camera.eye - camera.target) * 0.6;
        let inputs = gpu_common::inputs(&r, &camera, &bounds, ViewMode::Final);
        for _ in 0..44 {
            if on_gpu {
                gpu_common::gpu_state_frame(&mut r, &mut crowd, &mut motion, &inputs, DT);
            } else {
                motion.advance(&mut crowd, DT).expect("CPU step");
                r.render(&mut crowd, &inputs).expect("frame");
            }
        }
        if on_gpu {
            let step = motion.advance_on_device(crowd.len(), DT);
            r.renderer().step_crowd_state(step);
        } else {
            motion.advance(&mut crowd, DT).expect("CPU step");
        }
        let counts = match r.renderer().crowd_state_counts(&crowd) {
            Some(c) => c,
            None => crowd.counts(),
        };
        Some((gpu_common::render(&mut r, &mut crowd, &inputs), counts))
    };
    let Some((cpu, cpu_counts)) = picture(false) else {
        return;
    };
    let Some((gpu, gpu_counts)) = picture(true) else {
        return;
    };
    let pixels = (cpu.width * cpu.height) as usize;
    let differing = gpu_common::differing(&cpu, &gpu, 8);
    eprintln!(
        "{differing} of {pixels} pixels differ by more than 8 levels; exact {} on the CPU \
         path, {} on the GPU path",
        cpu_counts.exact, gpu_counts.exact
    );
    assert!(
        cpu_counts.exact > 0 && gpu_counts.exact > 0,
        "near characters are exact on both paths: {cpu_counts:?} {gpu_counts:?}"
    );
    assert!(
        differing * 1000 <= pixels,
        "{differing} of {pixels} pixels differ by more than 8 levels"
    );
    gpu_common::assert_no_validation_messages();
}

/// The crowd's API still moves an instance, plays a clip on it and dresses it with the state
/// on the GPU: the same calls, at the same frame, on the reference crowd and on the one whose
/// state the GPU holds (a move, a played clip with a fade, a clock set whole through
/// `instance_mut`, a new look, an instance back in the plain look) leave the same clocks,
/// places and looks 90 frames later.
#[test]
fn changes_through_the_crowds_api_reach_the_gpu() {
    let Some(mut r) = renderer(32, 32) else {
        return;
    };
    let mut pair = Pair::new(&mut r, WalkPaths::InPlace, Look::Away);
    let moved_to = throng::anim::Mat3x4::from_trs(
        glam::Vec3A::new(3.0, 0.0, -2.0),
        glam::Quat::from_rotation_y(0.7),
        glam::Vec3A::ONE,
    );
    for frame in 0..120 {
        if frame == 30 {
            for c in [&mut pair.cpu, &mut pair.gpu] {
                c.play(5, 2, 0.25).expect("clip");
                c.set_world(9, moved_to);
                let inst = c.instance_mut(12);
                inst.play(1, 0.0).expect("clip");
                inst.set_time(0.2);
                inst.set_speed(0.5);
                let look = c.add_look(throng::crowd::Look::default()).expect("room");
                c.set_look(14, look).expect("its look");
                c.set_look(15, throng::crowd::LookId::PLAIN).expect("plain");
            }
        }
        pair.step(&mut r);
    }
    let Pair { cpu, tables, .. } = &pair;
    let clocks = r
        .renderer()
        .read_crowd_clocks()
        .expect("clocks")
        .expect("on the GPU");
    let records = r.renderer().read_records(INSTANCES).expect("records");
    for (i, clock) in clocks.iter().enumerate() {
        let inst = cpu.instance(i);
        assert_eq!(clock.clip(), inst.clip(), "instance {i}: clip");
        assert_eq!(clock.time, inst.time(), "instance {i}: clip time");
        assert_eq!(clock.speed, inst.speed(), "instance {i}: rate");
        assert_eq!(
            clock.fade().map(|f| f.0),
            inst.fade_source().map(|f| f.0),
            "instance {i}: fade"
        );
        let record = &records[tables.walkers[i].slot as usize];
        assert_eq!(&record.world, cpu.world(i), "instance {i}: place");
        assert_eq!(record.look(), cpu.look_of(i).0, "instance {i}: look");
    }
    assert_ne!(cpu.look_of(14), throng::crowd::LookId::PLAIN);
    assert_eq!(cpu.look_of(15), throng::crowd::LookId::PLAIN);
    assert_eq!(cpu.world(9), &moved_to);
    assert_eq!(cpu.instance(12).speed(), 0.5);
    gpu_common::assert_no_validation_messages();
}

/// When more instances need exact palettes than a frame lists, the nearest get them on the
/// GPU path too, as on the CPU path (`tests/crowd_exact_cap.rs`): the pass counts them by
/// distance and the CPU lists the next frames only as near as fits. With an error budget so
/// small that most instances in view want exact palettes, the crowd is drawn first with room
/// for all (who needs them), then with room for a quarter: every one of those left baked must
/// be farther from the eye than every exact one (up to the character's own size: the pass
/// measures to the sphere its clip fits in, this test to the instance's origin).
#[test]
fn the_nearest_get_exact_palettes_when_not_all_fit() {
    let Some(mut r) = renderer(64, 64) else {
        return;
    };
    let settings = RenderSettings {
        lod_bias: 1e-4,
        ..r.renderer().settings()
    };
    r.renderer().set_settings(settings).expect("settings");
    let n = 400;
    let model = Arc::new(builtin::model().expect("builtin"));
    let (mut crowd, mut motion, placed) =
        gpu_common::walking_crowd(&model, n, 11, WalkPaths::InPlace);
    let model = crowd.models()[0].clone();
    r.add_model(&model, &throng::scene::model_basis(&model))
        .expect("upload");
    let tables = gpu_common::state_on_gpu(&mut r, &mut crowd, &motion);
    let bounds = crowd_bounds(&placed, std::slice::from_ref(&model)).expect("bounds");
    let camera = gpu_common::framing(&r, &bounds);
    let inputs = gpu_common::inputs(&r, &camera, &bounds, ViewMode::Final);
    // Each exact set: enough frames for a near list read back, its distances turned into a
    // limit, and a frame listed within it to come round again.
    let mut exact_set = |r: &mut HeadlessRenderer, crowd: &mut Crowd| {
        for _ in 0..8 {
            gpu_common::gpu_state_frame(r, crowd, &mut motion, &inputs, DT);
        }
        let records = r.renderer().read_records(n).expect("records");
        tables
            .walkers
            .iter()
            .map(|w| {
                let record = &records[w.slot as usize];
                (
                    !record.is_baked(),
                    record.world.translation().distance(inputs.eye),
                )
            })
            .collect::<Vec<_>>()
    };
    let needing = exact_set(&mut r, &mut crowd);
    let needers = needing.iter().filter(|(exact, _)| *exact).count();
    assert!(needers > n / 2, "only {needers} of {n} need exact palettes");
    let room = needers / 4;
    r.renderer().set_near_capacity(room);
    let kept = exact_set(&mut r, &mut crowd);
    let exact: Vec<f32> = kept.iter().filter(|(e, _)| *e).map(|(_, d)| *d).collect();
    // Who needed exact palettes and lost them to the limit.
    let gave_way: Vec<f32> = needing
        .iter()
        .zip(&kept)
        .filter(|((needed, _), (got, _))| *needed && !*got)
        .map(|(_, (_, d))| *d)
        .collect();
    let farthest_exact = exact.iter().copied().fold(0.0f32, f32::max);
    let nearest_gave_way = gave_way.iter().copied().fold(f32::MAX, f32::min);
    eprintln!(
        "{needers} need exact palettes; with room for {room}: {} exact out to \
         {farthest_exact:.2}, {} gave way from {nearest_gave_way:.2}",
        exact.len(),
        gave_way.len()
    );
    assert!(
        exact.len() <= room,
        "{} exact, room for {room}",
        exact.len()
    );
    assert!(
        exact.len() >= room * 3 / 4,
        "{} exact: the limit left too few of {room}",
        exact.len()
    );
    let rest = model.mesh().bounds().expect("the model has vertices");
    let size = (rest.max - rest.min).length();
    assert!(
        nearest_gave_way + 2.0 * size >= farthest_exact,
        "an instance {nearest_gave_way:.2} away gave way while one {farthest_exact:.2} away \
         was exact"
    );
    gpu_common::assert_no_validation_messages();
}
