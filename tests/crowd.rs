//! The crowd job system: every palette and record against the per-instance path,
//! determinism across thread counts, grouping by model, and ring growth.

mod common;

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use common::crowds::mixed_crowd;
use throng::anim::{Mat3x4, PoseScratch};
use throng::crowd::{Crowd, HostAllocator, InstanceRecord, NoConsumer, PaletteRing};

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
    let mut ring = PaletteRing::new(HostAllocator, 3, 1, 1).expect("ring");
    let slot = run_frames(&mut crowd, &mut ring, 9);
    let (records, palettes) = last_slot(&mut ring, &crowd, slot);
    let mut scratch = PoseScratch::new(64);
    let mut seen = vec![false; crowd.len()];
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
        assert_eq!(record.joints as usize, joints);
        assert_eq!(record.world, *crowd.world(i));
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
        assert!(records[range.clone()].iter().all(|r| r.model as usize == m));
    }
    // Palette bases follow the records without gaps.
    let mut base = 0;
    for r in &records {
        assert_eq!(r.palette_base, base);
        base += r.joints;
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
    assert_eq!(records.iter().filter(|r| r.model == 0).count(), 58);
}

#[test]
fn a_slot_too_small_is_an_error() {
    let mut crowd = mixed_crowd(1, 10);
    let mut ring = PaletteRing::new(HostAllocator, 1, 5, 5).expect("ring");
    let mut slot = ring.acquire(&mut NoConsumer).expect("slot");
    let err = crowd.write_palettes(&mut slot).unwrap_err();
    assert!(err.to_string().contains("reserve first"), "{err}");
}
