//! The crowd's state on the GPU advances as the CPU's does. Two copies of the same crowd are
//! moved 600 frames: one by the CPU path (`CrowdMotion::advance`, the reference), one by the
//! crowd-state pass. The crowd mixes two models whose clip tables differ (the built-in
//! character's idle, walk and run; a copy of it with only a slowed run and a quickened walk,
//! so the second model's clips sit at other indices with other lengths and speeds), has 203
//! instances (three whole workgroups of the pass and a part), heights varied by a quarter
//! either way (a walker's stride scales with its height), clip changes every few seconds with
//! cross-fades, and some instances at other playback rates, backwards, or clamping at the
//! clip's end. After every frame every instance must play the same clip, fade from the same
//! clip at the same point of the fade, stand at the same clip times (the pass rounds as the
//! CPU does, so the clocks are bit for bit the same), and every field of the record the pass
//! wrote must be the one the CPU path writes for it (its place, palette base and frame
//! weight, the faded-from clip's frame and weight, the fade, the bounds, the phase, model,
//! look and joints). In place, along lanes, and round rings. Near instances get the
//! reference's exact palettes, and either path draws the same picture, cards included.
//!
//! Without a Vulkan device this prints why and skips, except under `CI=true`, where it fails.

use std::sync::{Arc, OnceLock};

use throng::anim::{AnimationClip, SkinnedModel};
use throng::asset::builtin;
use throng::crowd::visibility::{AnimationView, Frustum, ViewScale};
use throng::crowd::{AnimationMode, Crowd, HostAllocator, InstanceRecord, NoConsumer, PaletteRing};
use throng::gpu::{FrameInputs, HeadlessRenderer, RenderSettings, ViewMode};
use throng::motion::{CrowdMotion, DeviceMotion, WalkPaths};
use throng::scene::{PlacedInstance, Variety, crowd_bounds};

mod gpu_common;

/// Not a multiple of the pass's workgroup (64): the last group is partly empty.
const INSTANCES: usize = 203;
const FRAMES: usize = 600;
const DT: f32 = 1.0 / 60.0;

/// The largest difference allowed between the GPU's and the CPU's weights in a record (the
/// frame weights and the fade), all within 0 to 1: a few units in the last place of a float
/// near 1 (2^-24 each). The pass computes them with the same operations as the CPU, and
/// Vulkan rounds a division within 2.5 units in the last place. A fade weight with its
/// `1 -` dropped is off by up to 1 whenever a fade is not at its middle.
const WEIGHT_TOLERANCE: f32 = 8.0 / (1 << 24) as f32;

/// How far a walker on a ring may stand from the CPU's place, as a share of its ring's
/// radius, and the most any entry of its turn may differ. The rings' angle and its sine and
/// cosine are the GPU's own: the distance walked over the radius (a division, within 2.5
/// units in the last place), then an arctangent, a sine and a cosine whose errors are the
/// device's (measured on lavapipe: 3.3e-6 of the radius, 2.9e-6 in the turn; a GPU's
/// hardware sine and cosine are good to about a millionth over the turn the angle is brought
/// into). A walker given its clip's wrong speed for one frame is a twentieth of a metre off.
/// Lanes and standing in place are computed rounding for rounding as on the CPU: exact.
const RING_TOLERANCE: f32 = 1e-4;

/// The built-in character, loaded as `throng run` loads it, and a copy of it with other clips:
/// its run slowed to 1.25 times its length, then its walk quickened to 0.8 times, and no
/// idle. The second model's clip 0 is a run where the first's is the idle (which walks at no
/// speed), its clip 1 a walk quicker than the first's clip 1, and both its clips last other
/// times than the first's at the same index: a pass that reads the clip table without the
/// model's first clip moves, times and draws the second model's instances wrongly.
fn models() -> Vec<Arc<SkinnedModel>> {
    static MODELS: OnceLock<Vec<Arc<SkinnedModel>>> = OnceLock::new();
    MODELS
        .get_or_init(|| {
            let builtin = throng::asset::load_model(None).expect("builtin");
            let retimed = |name: &str, by: f32, to: &str| -> AnimationClip {
                let clip = &builtin.clips()[builtin.clip_index(name).expect("the clip")];
                let mut tracks = clip.tracks().to_vec();
                for track in &mut tracks {
                    let times = [
                        track.translation.as_mut().map(|c| &mut c.times),
                        track.rotation.as_mut().map(|c| &mut c.times),
                        track.scale.as_mut().map(|c| &mut c.times),
                    ];
                    for t in times.into_iter().flatten().flatten() {
                        *t *= by;
                    }
                }
                AnimationClip::new(to, tracks, builtin.skeleton()).expect("a retimed clip")
            };
            let clips = vec![
                retimed("run", 1.25, "slow run"),
                retimed("walk", 0.8, "quick walk"),
            ];
            let other = gpu_common::with_clips(&builtin, "builtin, retimed", clips);
            vec![Arc::new(builtin), Arc::new(other)]
        })
        .clone()
}

/// A crowd of both [`models`] laid out for `paths`, baked, with heights varied by a quarter
/// either way, a few instances at other rates and two clamping, and its motion.
fn crowd(paths: WalkPaths) -> (Crowd, CrowdMotion, Vec<PlacedInstance>) {
    let variety = Variety {
        looks_per_model: 0,
        height_spread: 0.25,
    };
    let (mut crowd, motion, placed) =
        gpu_common::walking_crowd_of(&models(), INSTANCES, 7, paths, variety);
    for (i, speed) in [
        (3, 1.7),
        (10, -0.6),
        (21, 0.5),
        (40, 2.3),
        (131, -1.4),
        (202, 1.9),
    ] {
        crowd.instance_mut(i).set_speed(speed);
    }
    // One of each model.
    for i in [33, 140] {
        crowd
            .instance_mut(i)
            .set_playback(throng::anim::Playback::Clamp);
    }
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
        let models = gpu.models().to_vec();
        for model in &models {
            r.add_model(model, &throng::scene::model_basis(model))
                .expect("upload");
        }
        let tables = gpu_common::state_on_gpu(r, &mut gpu, &gpu_motion);
        let bounds = crowd_bounds(&placed, &models).expect("bounds");
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

/// What a comparison saw: instance-frames fading, per model; instance-frames per model and
/// clip; how far the walkers went on the CPU; the largest differences found in the weights,
/// in places (as a share of the ring's radius) and in turns, and in the phase.
#[derive(Default)]
struct Seen {
    fading: [usize; 2],
    playing: [[usize; 3]; 2],
    walked: f32,
    weight: f32,
    place: f32,
    turn: f32,
    phase: u32,
}

/// Runs both copies for `paths`, comparing every instance's clock and record after every
/// frame; returns what it saw.
fn compare(r: &mut HeadlessRenderer, paths: WalkPaths) -> Seen {
    let mut pair = Pair::new(r, paths, Look::Away);
    // The pass writes every record from the baked frames (nothing is in view to need exact
    // palettes): so does the reference's.
    pair.cpu.set_animation(AnimationMode::Baked);
    let mut ring = PaletteRing::new(HostAllocator, 1, INSTANCES, 1).expect("ring");
    let mut seen = Seen::default();
    for frame in 1..=FRAMES {
        pair.step(r);
        let Pair { cpu, tables, .. } = &mut pair;
        let clocks = r
            .renderer()
            .read_crowd_clocks()
            .expect("clocks")
            .expect("on the GPU");
        let records: Vec<InstanceRecord> = r.renderer().read_records(INSTANCES).expect("records");
        let expected = gpu_common::cpu_records(cpu, &mut ring);
        assert_eq!(clocks.len(), INSTANCES);
        for (i, clock) in clocks.iter().enumerate() {
            let inst = cpu.instance(i);
            let model = cpu.model_of(i).0 as usize;
            let at = format!("{paths:?}, frame {frame}, instance {i} (model {model})");
            // The clock.
            assert_eq!(clock.clip(), inst.clip(), "{at}: clip");
            assert_eq!(clock.time, inst.time(), "{at}: clip time");
            assert_eq!(clock.speed, inst.speed(), "{at}: rate");
            match (clock.fade(), inst.fade_source(), inst.fade_progress()) {
                (None, None, None) => {}
                (Some((from, _)), Some((cpu_from, cpu_time)), Some((elapsed, duration))) => {
                    seen.fading[model] += 1;
                    assert_eq!(from, cpu_from, "{at}: faded-from clip");
                    assert_eq!(
                        (clock.fade_elapsed, clock.fade_duration),
                        (elapsed, duration),
                        "{at}: the fade's progress"
                    );
                    assert_eq!(clock.from_time, cpu_time, "{at}: faded-from clip's time");
                }
                (gpu_fade, cpu_fade, _) => {
                    panic!("{at}: fading on the GPU {gpu_fade:?}, on the CPU {cpu_fade:?}")
                }
            }
            seen.playing[model][inst.clip()] += 1;
            // The record, field by field.
            let got = &records[tables.walkers[i].slot as usize];
            let want = &expected[i];
            let (moved, turned) = apart(&got.world, &want.world);
            if paths == WalkPaths::Rings {
                let radius = want.world.translation().length().max(1.0);
                seen.place = seen.place.max(moved / radius);
                seen.turn = seen.turn.max(turned);
                assert!(
                    moved <= RING_TOLERANCE * radius && turned <= RING_TOLERANCE,
                    "{at}: the GPU placed it {moved} away, turned {turned} (radius {radius})"
                );
            } else {
                assert_eq!(got.world, want.world, "{at}: place");
            }
            assert_eq!(got.palette_base, want.palette_base, "{at}: baked frame");
            assert_eq!(got.joint_count(), want.joint_count(), "{at}: joints");
            // The phase is rounded to 65535ths from a quotient that may differ in its last
            // place.
            let phase = (got.joints >> 16).abs_diff(want.joints >> 16);
            seen.phase = seen.phase.max(phase);
            assert!(
                phase <= 1,
                "{at}: phase {} against {}",
                got.phase(),
                want.phase()
            );
            assert_eq!(
                got.model_flags, want.model_flags,
                "{at}: model, baked, look"
            );
            assert!(got.is_baked(), "{at}");
            assert_eq!(got.model() as usize, model, "{at}: model");
            assert_eq!(got.bounds, want.bounds, "{at}: bounds");
            assert_eq!(got.fade_base, want.fade_base, "{at}: faded-from frame");
            for (what, g, w) in [
                ("frame weight", got.frame_weight, want.frame_weight),
                (
                    "faded-from frame weight",
                    got.fade_frame_weight,
                    want.fade_frame_weight,
                ),
                ("fade", got.fade, want.fade),
            ] {
                seen.weight = seen.weight.max((g - w).abs());
                assert!(
                    (g - w).abs() <= WEIGHT_TOLERANCE,
                    "{at}: {what} {g} against {w}"
                );
            }
        }
    }
    let Pair {
        cpu,
        cpu_motion,
        placed,
        ..
    } = &pair;
    seen.walked = (0..INSTANCES)
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
    seen
}

/// A small renderer of `width` x `height`: the pass is under test, not the pictures.
fn renderer(width: u32, height: u32) -> Option<HeadlessRenderer> {
    gpu_common::state_renderer(width, height)
}

#[test]
fn the_gpu_advances_the_crowd_as_the_cpu_does_for_600_frames() {
    // The two models' clip tables differ where the pass could confuse them.
    let tables = {
        let (crowd, motion, _) = crowd(WalkPaths::Lanes);
        motion.on_device(&crowd).expect("tables")
    };
    assert_eq!(
        tables
            .models
            .iter()
            .map(|m| (m.first_clip, m.clips))
            .collect::<Vec<_>>(),
        [(0, 3), (3, 2)]
    );
    for c in 0..2 {
        let (first, second) = (&tables.clips[c], &tables.clips[3 + c]);
        assert!(
            first.walk_speed != second.walk_speed && first.duration != second.duration,
            "clip {c}: {first:?} against {second:?}"
        );
    }
    let mut fading = [0; 2];
    for paths in [WalkPaths::InPlace, WalkPaths::Lanes, WalkPaths::Rings] {
        let Some(mut r) = renderer(32, 32) else {
            return;
        };
        let seen = compare(&mut r, paths);
        eprintln!(
            "{paths:?}: instance-frames fading per model {:?}, playing per model and clip \
             {:?}; largest differences: weights {:e}, places {:e} of the radius, turns {:e}, \
             phase {} 65535ths",
            seen.fading, seen.playing, seen.weight, seen.place, seen.turn, seen.phase
        );
        for (total, n) in fading.iter_mut().zip(seen.fading) {
            *total += n;
        }
        // Every clip of each model played.
        assert!(
            seen.playing[0].iter().all(|&n| n > 0) && seen.playing[1][..2].iter().all(|&n| n > 0),
            "{paths:?}: {:?}",
            seen.playing
        );
        if paths == WalkPaths::InPlace {
            assert_eq!(seen.walked, 0.0, "in place, nobody moves");
        } else {
            assert!(
                seen.walked > 0.5,
                "{paths:?}: the walkers went {}",
                seen.walked
            );
        }
    }
    // Fades are about a thirteenth of the time: both models are caught under way, often.
    assert!(
        fading.iter().all(|&n| n >= 100),
        "instance-frames fading per model: {fading:?}"
    );
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
    let mut scratch = throng::anim::PoseScratch::default();
    let mut expected = Vec::new();
    let mut exact = 0;
    let mut exact_per_model = [0; 2];
    for (i, walker) in tables.walkers.iter().enumerate() {
        let record = &records[walker.slot as usize];
        if record.is_baked() {
            continue;
        }
        exact += 1;
        exact_per_model[cpu.model_of(i).0 as usize] += 1;
        let joints = cpu.instance(i).model().joint_count();
        expected.resize(joints, throng::anim::Mat3x4::IDENTITY);
        cpu.instance(i).evaluate(&mut scratch, &mut expected);
        let base = record.palette_base as usize;
        assert_eq!(
            &palettes[base..base + joints],
            &expected[..],
            "instance {i}: its exact palette is not the reference's"
        );
    }
    assert_eq!(exact, counts.exact, "records made exact");
    assert!(
        exact_per_model.iter().all(|&n| n > 0),
        "exact instances of both models: {exact_per_model:?}"
    );
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
/// same walking crowd of both models, 45 frames on, drawn once by the CPU path and once with
/// its state on the GPU, with shadows, ambient occlusion and impostor cards (near characters
/// exact on both, the farthest cards on both), differs in almost no pixel.
#[test]
fn both_paths_draw_the_same_picture() {
    let picture = |on_gpu: bool| {
        let mut r = gpu_common::renderer(128, 72)?;
        let settings = RenderSettings {
            msaa: 1,
            // Cards for the characters shorter than 20 pixels (the default threshold at this
            // frame's height), as `throng run` draws a crowd: the farther rows here.
            impostors: true,
            ..r.renderer().settings()
        };
        r.renderer().set_settings(settings).expect("settings");
        let (mut crowd, mut motion, placed) = crowd(WalkPaths::Lanes);
        let models = crowd.models().to_vec();
        for model in &models {
            r.add_model(model, &throng::scene::model_basis(model))
                .expect("upload");
        }
        if on_gpu {
            gpu_common::state_on_gpu(&mut r, &mut crowd, &motion);
        } else {
            r.renderer().upload_baked(&crowd).expect("baked frames");
        }
        let bounds = crowd_bounds(&placed, &models).expect("bounds");
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
        let pixels = gpu_common::render(&mut r, &mut crowd, &inputs);
        r.renderer().gpu_ms_average().expect("wait");
        let drawn = r.renderer().draw_stats().expect("the frame's counts");
        Some((pixels, counts, drawn))
    };
    let Some((cpu, cpu_counts, cpu_drawn)) = picture(false) else {
        return;
    };
    let Some((gpu, gpu_counts, gpu_drawn)) = picture(true) else {
        return;
    };
    let pixels = (cpu.width * cpu.height) as usize;
    let differing = gpu_common::differing(&cpu, &gpu, 8);
    eprintln!(
        "{differing} of {pixels} pixels differ by more than 8 levels; exact {} on the CPU \
         path, {} on the GPU path; drawn on the CPU path {cpu_drawn:?}, on the GPU path \
         {gpu_drawn:?}",
        cpu_counts.exact, gpu_counts.exact
    );
    assert!(
        cpu_counts.exact > 0 && gpu_counts.exact > 0,
        "near characters are exact on both paths: {cpu_counts:?} {gpu_counts:?}"
    );
    for (path, drawn) in [("CPU", &cpu_drawn), ("GPU", &gpu_drawn)] {
        let meshes: u64 = drawn.camera.iter().sum();
        assert!(
            drawn.camera_cards > 0 && drawn.shadow_cards > 0 && meshes > 0,
            "the {path} path's frame draws cards and meshes: {drawn:?}"
        );
    }
    assert_eq!(
        (cpu_drawn.camera_cards, cpu_drawn.camera),
        (gpu_drawn.camera_cards, gpu_drawn.camera),
        "the same characters are cards and meshes of each level on both paths"
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
                c.play(5, 1, 0.25).expect("clip");
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
