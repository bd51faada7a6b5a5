//! A crowd driven by its program, with its state on the GPU, spawns and despawns through the
//! crowd's API as freely as on the CPU path. Two copies of one crowd of two models (the
//! built-in character, and a copy without its idle, so the second model's clips sit at other
//! indices) get the same calls every frame for 300 frames: characters spawned (some in a look
//! of their own, some set to another clip with a cross-fade, another rate or clamping),
//! despawned at random indices (the last taking the freed index), moved, given other clips
//! and rates, restyled. One copy is the reference on the CPU path (`Crowd::update`), the other
//! lives on the GPU (`DeviceStep::held` each frame). The crowd starts with 48 characters,
//! swells past 300 (the GPU's tables grow twice, keeping the clocks they hold) and ebbs; one
//! frame moves every character forty times over, more changes than a frame's list of changes
//! had room for. After every frame every instance must hold the same clock on both (clip,
//! time, rate, fade), and the record the GPU wrote for it (found through
//! `Renderer::crowd_record_of`, records staying dense) must stand where the CPU's stands, in
//! the same model, look and baked frame.
//!
//! Without a Vulkan device this prints why and skips, except under `CI=true`, where it fails.

use std::sync::Arc;

use glam::{Quat, Vec3, Vec3A};
use throng::anim::{Bounds, Mat3x4, Playback, SkinnedModel};
use throng::crowd::{AnimationMode, Crowd, HostAllocator, Look, LookId, ModelId, PaletteRing};
use throng::gpu::ViewMode;
use throng::motion::{CrowdMotion, DeviceStep, WalkPaths};
use throng::scene::Variety;

mod gpu_common;

const FRAMES: usize = 300;
const DT: f32 = 1.0 / 30.0;
const START: usize = 48;
/// The crowd swells towards this, then ebbs.
const MOST: usize = 320;

/// The built-in character, and a copy of it without the idle (its walk and run at indices 0
/// and 1, where the first model has its idle and walk).
fn models() -> Vec<Arc<SkinnedModel>> {
    let builtin = throng::asset::load_model(None).expect("builtin");
    let moving: Vec<_> = builtin
        .clips()
        .iter()
        .filter(|c| c.name() != "idle")
        .cloned()
        .collect();
    assert_eq!(moving.len(), builtin.clips().len() - 1, "an idle to drop");
    let other = gpu_common::with_clips(&builtin, "builtin, no idle", moving);
    vec![Arc::new(builtin), Arc::new(other)]
}

/// A small generator of choices (the same sequence every run).
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }

    fn unit(&mut self) -> f32 {
        self.below(1 << 20) as f32 / (1 << 20) as f32
    }
}

/// One call made on both copies.
fn on_both(crowds: &mut [Crowd; 2], mut call: impl FnMut(&mut Crowd)) {
    for c in crowds.iter_mut() {
        call(c);
    }
}

/// Frame `frame`'s calls: the crowd swells for the first half and ebbs in the second.
fn calls(crowds: &mut [Crowd; 2], dice: &mut Dice, frame: usize, looks: &[LookId]) {
    let n = crowds[0].len();
    let swelling = frame < FRAMES / 2;
    let (spawns, despawns) = if swelling {
        (dice.below(6), dice.below(3))
    } else {
        (dice.below(2), dice.below(5))
    };
    for _ in 0..spawns.min(MOST.saturating_sub(n)) {
        let model = ModelId(dice.below(2) as u32);
        let at = Vec3A::new(20.0 * dice.unit() - 10.0, 0.0, 20.0 * dice.unit() - 10.0);
        let world = Mat3x4::from_trs(at, Quat::from_rotation_y(6.0 * dice.unit()), Vec3A::ONE);
        let (clip, rate, look) = (dice.below(2), 0.5 + 1.5 * dice.unit(), dice.below(4));
        let clamp = dice.below(5) == 0;
        on_both(crowds, |c| {
            let i = c.spawn(model, world).expect("spawn");
            if clip == 1 {
                c.play(i, 1, 0.3).expect("clip");
            }
            let inst = c.instance_mut(i);
            inst.set_speed(rate);
            if clamp {
                inst.set_playback(Playback::Clamp);
            }
            if let Some(&id) = looks.get(look) {
                c.set_look(i, id).expect("look");
            }
        });
    }
    for _ in 0..despawns {
        let n = crowds[0].len();
        if n > 8 {
            let i = dice.below(n);
            on_both(crowds, |c| {
                c.despawn(i).expect("despawn");
            });
        }
    }
    let n = crowds[0].len();
    for _ in 0..dice.below(6) {
        let (i, what, x) = (dice.below(n), dice.below(4), dice.unit());
        on_both(crowds, |c| match what {
            0 => {
                let at = Vec3A::new(10.0 * x, 0.0, -5.0);
                c.set_world(i, Mat3x4::from_trs(at, Quat::IDENTITY, Vec3A::ONE));
            }
            1 => c.play(i, (x * 2.0) as usize, 0.25).expect("clip"),
            2 => c.set_speed(i, 2.0 * x - 0.5),
            _ => c.set_look(i, looks[(x * 3.0) as usize]).expect("look"),
        });
    }
    if frame == 200 {
        // More changes than a frame's list had room for (4,096).
        for _ in 0..40 {
            for i in 0..n {
                on_both(crowds, |c| {
                    let at = *c.world(i);
                    c.set_world(i, at);
                });
            }
        }
    }
}

#[test]
fn spawns_and_despawns_through_the_crowds_api_reach_the_gpu() {
    let Some(mut r) = gpu_common::state_renderer(32, 32) else {
        return;
    };
    let models = models();
    let variety = Variety {
        looks_per_model: 0,
        height_spread: 0.0,
    };
    let mut crowds = [0, 1].map(|_| {
        let (mut c, _, _) =
            gpu_common::walking_crowd_of(&models, START, 5, WalkPaths::InPlace, variety);
        c.set_animation(AnimationMode::Baked);
        c
    });
    let mut looks = vec![LookId::PLAIN];
    for k in 1..3 {
        let mut look = Look::PLAIN;
        look.tints[0] = [0.3 * k as f32, 0.2, 0.9];
        on_both(&mut crowds, |c| {
            let id = c.add_look(look).expect("look");
            if looks.len() <= k {
                looks.push(id);
            }
        });
    }
    for model in &models {
        r.renderer()
            .add_model(model, &throng::scene::model_basis(model))
            .expect("upload");
    }
    gpu_common::state_on_gpu(&mut r, &mut crowds[1], &CrowdMotion::still(START));
    // The camera looks away from the crowd: every record reads baked frames.
    let bounds = Bounds {
        min: Vec3::new(-12.0, 0.0, -12.0),
        max: Vec3::new(12.0, 2.0, 12.0),
    };
    let mut camera = gpu_common::framing(&r, &bounds);
    camera.target = camera.eye + (camera.eye - camera.target);
    let inputs = gpu_common::inputs(&r, &camera, &bounds, ViewMode::Final);
    let mut ring = PaletteRing::new(HostAllocator, 1, MOST, 1).expect("ring");
    let mut dice = Dice(11);
    let (mut most, mut fading) = (0, 0);
    for frame in 1..=FRAMES {
        calls(&mut crowds, &mut dice, frame, &looks);
        let [cpu, gpu] = &mut crowds;
        cpu.update(DT);
        r.renderer()
            .step_crowd_state(DeviceStep::held(gpu.len(), DT));
        r.render(gpu, &inputs).expect("frame");
        let n = cpu.len();
        most = most.max(n);
        let clocks = r
            .renderer()
            .read_crowd_clocks()
            .expect("clocks")
            .expect("on the GPU");
        assert_eq!(
            clocks.len(),
            n,
            "frame {frame}: the GPU's copy holds the crowd"
        );
        let records = r.renderer().read_records(n).expect("records");
        let expected = gpu_common::cpu_records(cpu, &mut ring);
        for (i, clock) in clocks.iter().enumerate() {
            let inst = cpu.instance(i);
            let at = format!("frame {frame}, instance {i} of {n}");
            assert_eq!(clock.clip(), inst.clip(), "{at}: clip");
            assert_eq!(clock.time, inst.time(), "{at}: clip time");
            assert_eq!(clock.speed, inst.speed(), "{at}: rate");
            assert_eq!(
                clock.fade().map(|f| f.0),
                inst.fade_source().map(|f| f.0),
                "{at}: fade"
            );
            fading += usize::from(clock.fade().is_some());
            let slot = r.renderer().crowd_record_of(i).expect("a record");
            assert!(slot < n, "{at}: record {slot}");
            let (got, want) = (&records[slot], &expected[i]);
            assert_eq!(got.world, want.world, "{at}: place");
            assert_eq!(got.model_flags, want.model_flags, "{at}: model, look");
            assert_eq!(got.palette_base, want.palette_base, "{at}: baked frame");
            assert_eq!(got.fade_base, want.fade_base, "{at}: faded-from frame");
        }
    }
    assert!(
        most > 256,
        "the crowd swelled to {most}: the tables grew twice"
    );
    assert!(
        crowds[0].len() < most / 2,
        "and ebbed to {}",
        crowds[0].len()
    );
    assert!(fading > 1000, "{fading} instance-frames fading");
    gpu_common::assert_no_validation_messages();
}
