//! Playing a file back allocates nothing per frame once the playback has reserved its room:
//! pedestrians entering (spawn) and leaving (despawn), gaits changing, densities counted and
//! looks changed with them, the crowd's clocks advanced. Counted with a global allocator over
//! the Jülich corridor, where pedestrians come and go all the time. Both tests hold the
//! counter's lock, so no other test allocates concurrently; the second checks the counter
//! itself, which every no-allocation test trusts.

mod common;
#[path = "common/counting_alloc.rs"]
mod counting_alloc;

use std::sync::Arc;

use throng::crowd::{Crowd, HostAllocator, NoConsumer, PaletteRing};
use throng::motion::{ColorBy, Playback};

#[global_allocator]
static ALLOCATOR: counting_alloc::Counting = counting_alloc::Counting;

#[test]
fn playback_steps_with_spawns_and_despawns_do_not_allocate() {
    let _serial = counting_alloc::serial();
    // Streamed as `throng play` streams a long file.
    let file = common::playback::streamed_corridor();
    let model = Arc::new(throng::asset::load_model(None).expect("builtin"));
    let mut crowd = Crowd::new(1).expect("crowd");
    let m = common::playback::ramp_model(&mut crowd, &model);
    let id = m.id;
    let settings = common::playback::settings_for(&file, Some(ColorBy::Density), 0.04);
    let mut playback = Playback::new(file, vec![m], settings, 0);
    playback.reserve(&mut crowd).expect("reserve");
    // The palette ring is the renderer's: warmed up here at the crowd's largest, as a
    // renderer's would be after its first frames at that size (baked frames, so every
    // instance's record is written).
    crowd.set_animation(throng::crowd::AnimationMode::Baked);
    crowd.bake(throng::crowd::BakeSettings::default());
    let mut ring = PaletteRing::new(HostAllocator, 3, 1, 1).expect("ring");
    for _ in 0..playback.most_present() {
        crowd
            .spawn(id, throng::anim::Mat3x4::IDENTITY)
            .expect("spawn");
    }
    for _ in 0..3 {
        crowd.update(1e-3);
        crowd
            .write_frame(&mut ring, &mut NoConsumer)
            .expect("frame");
    }
    while !crowd.is_empty() {
        crowd.despawn(crowd.len() - 1).expect("despawn");
    }
    let start = playback.start();
    let dt = 1.0 / 30.0;
    // The first step builds the crowd at the start (a seek).
    playback.advance_to(&mut crowd, start).expect("first step");
    crowd
        .write_frame(&mut ring, &mut NoConsumer)
        .expect("frame");
    let (mut entered, mut left, mut changes) = (0, 0, 0);
    let mut seen = Vec::with_capacity(16);
    let before = counting_alloc::allocations();
    let mut last_count = before;
    for f in 1..=(70.0 / dt) as usize {
        let c = playback
            .advance_to(&mut crowd, start + f as f64 * dt)
            .expect("step");
        crowd
            .write_frame(&mut ring, &mut NoConsumer)
            .expect("frame");
        let now = counting_alloc::allocations();
        if now != last_count && seen.len() < seen.capacity() {
            seen.push((f, now - last_count, c, playback.present()));
        }
        last_count = now;
        entered += c.entered;
        left += c.left;
        changes += c.gait_changes;
    }
    let allocated = counting_alloc::allocations() - before;
    // Which steps allocated, should any (said after counting, which they would disturb).
    assert!(
        seen.is_empty(),
        "steps that allocated (step, calls, counts, present): {seen:?}"
    );
    assert!(entered > 50 && left > 50, "{entered} entered, {left} left");
    assert!(changes > 0, "no gait changed");
    assert_eq!(allocated, 0, "{allocated} allocations over 2100 steps");
}

/// The counter sees allocations where frames make them: on the test's own thread and on the
/// threads of rayon's pool (the crowd's parallel work). A counter that missed either would let
/// the no-allocation tests pass whatever a frame did. At least as many calls as were made
/// (another test's thread may still be reporting its result when this one takes the lock).
#[test]
fn the_counter_sees_this_thread_and_rayons() {
    const MADE: usize = 100;
    let _serial = counting_alloc::serial();
    let before = counting_alloc::allocations();
    let here: Vec<Box<u64>> = (0..MADE as u64).map(Box::new).collect();
    let counted = counting_alloc::allocations() - before;
    assert!(
        counted > MADE,
        "{counted} calls counted for {}",
        here.len() + 1
    );
    let me = std::thread::current().id();
    // A scope entered from outside the pool runs on one of its workers; this thread waits.
    let (worker, counted) = rayon::scope(|_| {
        let before = counting_alloc::allocations();
        let there: Vec<Box<u64>> = (0..MADE as u64).map(Box::new).collect();
        let counted = counting_alloc::allocations() - before;
        drop(std::hint::black_box(there));
        (std::thread::current().id(), counted)
    });
    assert_ne!(worker, me, "the scope ran on this thread, not on a worker");
    assert!(counted > MADE, "{counted} calls counted for {}", MADE + 1);
}
