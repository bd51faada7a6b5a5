//! The crowd job system: every palette and record against the per-instance path,
//! determinism across thread counts, grouping by model, and ring growth.

mod common;

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use std::sync::Arc;

use common::crowds::{arm_model, mixed_crowd};
use common::naive;
use throng::anim::{Mat3x4, PoseScratch};
use throng::asset::builtin;
use throng::crowd::{
    Crowd, HostAllocator, InstanceChange, InstanceRecord, ModelId, NoConsumer, PaletteRing,
};

fn run_frames(crowd: &mut Crowd, ring: &mut PaletteRing<HostAllocator>, frames: usize) -> usize {
    let mut index = 0;
    for _ in 0..frames {
        crowd.update(1.0 / 30.0);
        index = crowd.write_frame(ring, &mut NoConsumer).expect("frame");
    }
    index
}

/// The records and palettes of the most recently written slot.
fn last_slot(
    ring: &mut PaletteRing<HostAllocator>,
    crowd: &Crowd,
    slot: usize,
) -> (Vec<InstanceRecord>, Vec<Mat3x4>) {
    // Acquiring cycles through the slots; stop at the one that was just written.
    for _ in 0..ring.slot_count() {
        let s = ring.acquire(&mut NoConsumer).expect("slot");
        if s.index == slot {
            return (
                s.records[..crowd.len()].to_vec(),
                s.palettes[..crowd.joint_count()].to_vec(),
            );
        }
    }
    unreachable!("slot {slot} not found");
}

#[test]
fn every_record_and_palette_matches_the_instance() {
    let mut crowd = mixed_crowd(2, 203);
    // Every third instance in a look of its own, the rest plain: records name each one's.
    for i in (0..crowd.len()).step_by(3) {
        let mut look = throng::crowd::Look::PLAIN;
        look.tints[0] = [0.5, i as f32 / 203.0, 1.0];
        let id = crowd.add_look(look).expect("room");
        crowd.set_look(i, id).expect("its look");
    }
    let mut ring = PaletteRing::new(HostAllocator, 3, 1, 1).expect("ring");
    let slot = run_frames(&mut crowd, &mut ring, 9);
    let (records, palettes) = last_slot(&mut ring, &crowd, slot);
    let mut scratch = PoseScratch::new(64);
    let mut seen = vec![false; crowd.len()];
    let mut fading = 0;
    for i in 0..crowd.len() {
        let place = crowd.placement(i).expect("placed");
        assert!(
            !seen[place.record],
            "two instances share record {}",
            place.record
        );
        seen[place.record] = true;
        let record = &records[place.record];
        let instance = crowd.instance(i);
        let joints = instance.model().joint_count();
        assert_eq!(record.palette_base as usize, place.palette_base);
        assert_eq!(record.joint_count() as usize, joints);
        // The phase is the clip's time over its duration.
        let clip = &instance.model().clips()[instance.clip()];
        let phase = instance.time() / clip.duration();
        assert!(
            (record.phase() - phase).abs() <= 1.0 / 65535.0,
            "{} against {phase}",
            record.phase()
        );
        assert_eq!(record.world, *crowd.world(i));
        assert_eq!(record.look(), crowd.look_of(i).0);
        // The crowd evaluates an instance in a cross-fade by this very call, so comparing
        // with it would prove nothing: `fading_instances_match_an_independent_blend` checks
        // those. The others are batched, a path of their own.
        if instance.fade_weight().is_some() {
            fading += 1;
            continue;
        }
        let mut expected = vec![Mat3x4::IDENTITY; joints];
        instance.evaluate(&mut scratch, &mut expected);
        let got = &palettes[place.palette_base..place.palette_base + joints];
        for (j, (g, e)) in got.iter().zip(&expected).enumerate() {
            assert!(
                g.abs_diff_eq(e, 2e-6),
                "instance {i} joint {j}: {:?} vs {:?}",
                g.to_array(),
                e.to_array()
            );
        }
    }
    assert!(
        fading < crowd.len() / 2,
        "{fading} of {} fading",
        crowd.len()
    );
}

/// How one instance of `fading_instances_match_an_independent_blend` is set up: playing
/// `from` from `start` at `speed`, then told to fade into `to` over `fade` seconds.
struct FadeCase {
    arm: bool,
    from: usize,
    start: f32,
    speed: f32,
    to: usize,
    fade: f32,
}

/// Instances in a cross-fade, among batched ones, against the naive reference: its own
/// clocks (the outgoing clip keeps playing, the incoming one starts at its beginning, or its
/// end when playing backwards, both wrapping), its own weight and its own blend of local
/// transforms. Nothing of the expected value comes from `SkinnedModelInstance`.
#[test]
fn fading_instances_match_an_independent_blend() {
    let cases = [
        // Forward, backward, slow and fast; fades nearly over and barely begun; the arm
        // fading from its only clip into itself at another time.
        (false, 0, 0.4, 1.0, 1, 0.5),
        (false, 1, 0.9, 1.5, 2, 2.0),
        (false, 2, 0.1, -1.3, 0, 0.8),
        (false, 1, 0.3, 0.7, 0, 0.31),
        (false, 2, 0.5, 2.0, 1, 1.2),
        (true, 0, 0.6, 1.0, 0, 0.6),
        (true, 0, 0.2, -0.8, 0, 1.5),
    ]
    .map(|(arm, from, start, speed, to, fade)| FadeCase {
        arm,
        from,
        start,
        speed,
        to,
        fade,
    });
    let mut crowd = Crowd::new(2).expect("pool");
    crowd.set_serial_below(0, 0);
    let human = crowd.add_model(Arc::new(builtin::model().expect("builtin")));
    let arm = crowd.add_model(arm_model());
    let mut fading = Vec::new();
    for (k, case) in cases.iter().enumerate() {
        // Batched neighbours of the same model and clips, so that the groups mix both paths.
        for _ in 0..3 {
            let i = crowd
                .spawn(if case.arm { arm } else { human }, Mat3x4::IDENTITY)
                .expect("spawn");
            let inst = crowd.instance_mut(i);
            inst.play(case.to, 0.0).expect("clip");
            inst.set_time(0.05 * (i + k) as f32);
        }
        let i = crowd
            .spawn(if case.arm { arm } else { human }, Mat3x4::IDENTITY)
            .expect("spawn");
        let inst = crowd.instance_mut(i);
        inst.play(case.from, 0.0).expect("clip");
        inst.set_time(case.start);
        inst.set_speed(case.speed);
        inst.play(case.to, case.fade).expect("fade");
        fading.push(i);
    }
    let dt = 1.0 / 30.0;
    let frames = 9;
    let mut ring = PaletteRing::new(HostAllocator, 3, 1, 1).expect("ring");
    let slot = run_frames(&mut crowd, &mut ring, frames);
    let (_, palettes) = last_slot(&mut ring, &crowd, slot);

    for (case, &i) in cases.iter().zip(&fading) {
        let model = crowd.instance(i).model().clone();
        let duration = |clip: usize| model.clips()[clip].duration();
        let (mut from_t, mut to_t) = (
            case.start,
            if case.speed < 0.0 {
                duration(case.to)
            } else {
                0.0
            },
        );
        let mut elapsed = 0.0f32;
        for _ in 0..frames {
            elapsed += dt;
            from_t = (from_t + dt * case.speed).rem_euclid(duration(case.from));
            to_t = (to_t + dt * case.speed).rem_euclid(duration(case.to));
        }
        let w = elapsed / case.fade;
        assert!(w < 1.0, "case {i}: the fade is over");
        let got_w = crowd.instance(i).fade_weight().expect("still fading");
        assert!(
            (got_w - w).abs() < 1e-5,
            "instance {i}: weight {got_w}, expected {w}"
        );
        let want = naive::blended_palette(&model, (case.from, from_t), (case.to, to_t), w);
        let base = crowd.placement(i).expect("placed").palette_base;
        let got = &palettes[base..base + model.joint_count()];
        for (j, (g, e)) in got.iter().zip(&want).enumerate() {
            let diff = naive::relative_difference(g, e);
            assert!(
                diff <= 1e-4,
                "instance {i} joint {j}: differs by {diff}\n  crowd {:?}\n  naive {:?}",
                g.to_array(),
                Mat3x4::from_mat4(e).to_array()
            );
        }
    }
}

fn output_hash(threads: usize, serial: bool) -> u64 {
    let mut crowd = mixed_crowd(threads, 517);
    if serial {
        crowd.set_serial_below(usize::MAX, usize::MAX);
    }
    assert_eq!(crowd.threads(), threads);
    let mut ring = PaletteRing::new(HostAllocator, 3, 1, 1).expect("ring");
    let slot = run_frames(&mut crowd, &mut ring, 12);
    let (records, palettes) = last_slot(&mut ring, &crowd, slot);
    let mut h = DefaultHasher::new();
    bytemuck::cast_slice::<InstanceRecord, u8>(&records).hash(&mut h);
    bytemuck::cast_slice::<Mat3x4, u8>(&palettes).hash(&mut h);
    h.finish()
}

#[test]
fn output_is_bit_identical_whatever_the_thread_count() {
    let one = output_hash(1, false);
    assert_eq!(one, output_hash(2, false), "2 threads differ from 1");
    assert_eq!(one, output_hash(8, false), "8 threads differ from 1");
    assert_eq!(
        one,
        output_hash(2, true),
        "the caller-thread path differs from the pool's"
    );
}

/// Despawning keeps the crowd dense: the last instance takes the freed index, with its state,
/// place and look, and the next frame writes a record and palette for each instance left (the
/// per-instance check above, on the smaller crowd).
#[test]
fn despawning_moves_the_last_instance_into_the_gap() {
    let mut crowd = mixed_crowd(2, 40);
    let mut ring = PaletteRing::new(HostAllocator, 3, 1, 1).expect("ring");
    run_frames(&mut crowd, &mut ring, 3);
    let look = crowd
        .add_look(throng::crowd::Look::default())
        .expect("room");
    crowd.set_look(39, look).expect("look");
    let (last_world, last_model, last_clip, last_time) = (
        *crowd.world(39),
        crowd.model_of(39),
        crowd.instance(39).clip(),
        crowd.instance(39).time(),
    );
    let joints = crowd.joint_count();
    let gone_joints = crowd.instance(5).model().joint_count();
    assert_eq!(crowd.despawn(5).expect("a member"), Some(39));
    assert_eq!(crowd.len(), 39);
    assert_eq!(crowd.joint_count(), joints - gone_joints);
    assert_eq!(*crowd.world(5), last_world);
    assert_eq!(crowd.model_of(5), last_model);
    assert_eq!(crowd.look_of(5), look);
    assert_eq!(
        (crowd.instance(5).clip(), crowd.instance(5).time()),
        (last_clip, last_time)
    );
    // The last one leaves without moving anyone; an index past the end is an error.
    assert_eq!(crowd.despawn(38).expect("a member"), None);
    assert!(matches!(
        crowd.despawn(38),
        Err(throng::crowd::CrowdError::UnknownInstance(38))
    ));
    let slot = run_frames(&mut crowd, &mut ring, 2);
    let (records, palettes) = last_slot(&mut ring, &crowd, slot);
    let mut scratch = PoseScratch::new(64);
    let mut seen = vec![false; crowd.len()];
    for i in 0..crowd.len() {
        let place = crowd.placement(i).expect("placed");
        assert!(!std::mem::replace(&mut seen[place.record], true));
        let record = &records[place.record];
        assert_eq!(record.world, *crowd.world(i));
        assert_eq!(record.look(), crowd.look_of(i).0);
        let instance = crowd.instance(i);
        let joints = instance.model().joint_count();
        let mut expected = vec![Mat3x4::IDENTITY; joints];
        instance.evaluate(&mut scratch, &mut expected);
        let got = &palettes[place.palette_base..place.palette_base + joints];
        for (g, e) in got.iter().zip(&expected) {
            assert!(g.abs_diff_eq(e, 2e-6), "instance {i}: {g:?} against {e:?}");
        }
    }
    // With the state on the GPU (changes tracked for its copy) spawning and despawning are
    // told to the copy, in order, with the indices as they were at each call.
    crowd.set_change_tracking(true);
    assert_eq!(crowd.despawn(0).expect("despawn"), Some(37));
    let i = crowd.spawn(ModelId(0), Mat3x4::IDENTITY).expect("spawn");
    assert_eq!(crowd.despawn(i).expect("despawn the last"), None);
    let changes: Vec<InstanceChange> = crowd.take_changes().collect();
    assert_eq!(
        changes,
        [
            InstanceChange::Despawned {
                instance: 0,
                last: 37
            },
            InstanceChange::Spawned(37),
            InstanceChange::Despawned {
                instance: 37,
                last: 37
            },
        ]
    );
    assert_eq!(crowd.len(), 37);
}

#[test]
fn records_are_grouped_by_model() {
    let mut crowd = mixed_crowd(2, 100);
    let ranges: Vec<_> = crowd.model_ranges().collect();
    assert_eq!(ranges.len(), 2);
    assert_eq!(ranges[0].len(), 80);
    assert_eq!(ranges[1], 80..100);
    let mut ring = PaletteRing::new(HostAllocator, 2, 1, 1).expect("ring");
    let slot = run_frames(&mut crowd, &mut ring, 1);
    let (records, _) = last_slot(&mut ring, &crowd, slot);
    for (m, range) in crowd.model_ranges().enumerate() {
        assert!(
            records[range.clone()]
                .iter()
                .all(|r| r.model() as usize == m)
        );
    }
    // Palette bases follow the records without gaps.
    let mut base = 0;
    for r in &records {
        assert_eq!(r.palette_base, base);
        base += r.joint_count();
    }
    assert_eq!(base as usize, crowd.joint_count());
}

#[test]
fn the_ring_grows_with_the_crowd() {
    let mut crowd = mixed_crowd(2, 10);
    let mut ring = PaletteRing::new(HostAllocator, 3, 10, crowd.joint_count()).expect("ring");
    run_frames(&mut crowd, &mut ring, 2);
    assert_eq!(ring.generation(), 0);
    let human = throng::crowd::ModelId(0);
    for _ in 0..50 {
        crowd.spawn(human, Mat3x4::IDENTITY).expect("spawn");
    }
    let slot = run_frames(&mut crowd, &mut ring, 2);
    assert_eq!(ring.generation(), 1);
    assert!(ring.layout().instances >= 60);
    let (records, _) = last_slot(&mut ring, &crowd, slot);
    assert_eq!(records.iter().filter(|r| r.model() == 0).count(), 58);
}

#[test]
fn a_slot_too_small_is_an_error() {
    let mut crowd = mixed_crowd(1, 10);
    let mut ring = PaletteRing::new(HostAllocator, 1, 5, 5).expect("ring");
    let mut slot = ring.acquire(&mut NoConsumer).expect("slot");
    let err = crowd.write_palettes(&mut slot).unwrap_err();
    assert!(err.to_string().contains("reserve first"), "{err}");
}
