//! After warm-up, a crowd frame performs no heap allocation: clocks, clip queues and fades,
//! re-bucketing, parallel evaluation and the ring included. Counted with a global allocator
//! wrapper; this file holds a single test so that no other test allocates concurrently.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use glam::{Mat4, Vec3};
use throng::crowd::visibility::{AnimationView, Frustum, ViewScale};
use throng::crowd::{AnimationMode, BakeSettings, HostAllocator, NoConsumer, PaletteRing};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator, only counting calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn frames_after_warm_up_do_not_allocate() {
    let mut crowd = common::crowds::mixed_crowd(2, 997);
    let mut ring = PaletteRing::new(HostAllocator, 3, 1, 1).expect("ring");
    for _ in 0..5 {
        crowd.update(1.0 / 60.0);
        crowd
            .write_frame(&mut ring, &mut NoConsumer)
            .expect("frame");
    }
    // What re-grouping would change, seen from outside (taken before counting starts).
    let snapshot = |crowd: &mut throng::crowd::Crowd| {
        let n = crowd.len();
        let records: Vec<usize> = (0..n)
            .map(|i| crowd.placement(i).expect("placed").record)
            .collect();
        let clips: Vec<usize> = (0..n).map(|i| crowd.instance(i).clip()).collect();
        let fading = (0..n)
            .filter(|&i| crowd.instance(i).fade_weight().is_some())
            .count();
        (records, clips, fading)
    };
    let (records_before, clips_before, fading_before) = snapshot(&mut crowd);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    // Long enough for fades to finish and queued clips to start (re-bucketing the crowd,
    // checked below).
    for _ in 0..120 {
        crowd.update(1.0 / 60.0);
        crowd
            .write_frame(&mut ring, &mut NoConsumer)
            .expect("frame");
    }
    let during = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(during, 0, "{during} allocations in 120 frames");

    // The counted frames must have re-grouped the crowd, or they proved nothing about it:
    // fades ended and queued clips started, so instances moved between buckets and the slot
    // order changed.
    let (records_after, clips_after, fading_after) = snapshot(&mut crowd);
    assert!(
        fading_before > 0 && fading_after < fading_before,
        "fading: {fading_before} before, {fading_after} after"
    );
    let clip_changes = (clips_before.iter().zip(&clips_after))
        .filter(|(a, b)| a != b)
        .count();
    assert!(clip_changes > 0, "no instance changed clip");
    let moved = (records_before.iter().zip(&records_after))
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        moved > 0,
        "no instance changed slot: the crowd was never re-grouped"
    );

    // The same with baked frames chosen per instance by distance from a camera at one end
    // of the row: the choice, the records of baked instances and the packing of the exact
    // palettes allocate nothing either.
    crowd.bake(BakeSettings::default());
    crowd.set_animation(AnimationMode::Auto);
    let eye = Vec3::new(-3.0, 1.5, 2.0);
    let camera = throng::scene::Camera {
        eye,
        target: Vec3::new(50.0, 0.0, 0.0),
        up: Vec3::Y,
        fov_y: 0.8,
        near: 0.1,
        far: 2000.0,
    };
    let view_proj: Mat4 = camera.view_proj(1.5);
    crowd.set_view(Some(AnimationView {
        frustum: Frustum::from_clip(view_proj),
        scale: ViewScale::new(eye, 0.8, 720),
        max_error_px: 0.5,
    }));
    for _ in 0..5 {
        crowd.update(1.0 / 60.0);
        crowd
            .write_frame(&mut ring, &mut NoConsumer)
            .expect("frame");
    }
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for _ in 0..120 {
        crowd.update(1.0 / 60.0);
        crowd
            .write_frame(&mut ring, &mut NoConsumer)
            .expect("frame");
    }
    let during = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(
        during, 0,
        "{during} allocations in 120 frames with baked animation"
    );
    let counts = crowd.counts();
    assert!(
        counts.exact > 0 && counts.baked > 0,
        "near instances exact, far ones baked: {counts:?}"
    );

    // Instances leaving and joining every frame, as many as leave, once the crowd has been
    // this large: the room they leave is reused.
    let model = crowd.model_of(0);
    let world = *crowd.world(0);
    let churn =
        |crowd: &mut throng::crowd::Crowd, ring: &mut PaletteRing<HostAllocator>, k: usize| {
            for j in 0..3 {
                let i = (k * 7 + j * 131) % crowd.len();
                crowd.despawn(i).expect("a member");
            }
            for _ in 0..3 {
                crowd.spawn(model, world).expect("spawn");
            }
            crowd.update(1.0 / 60.0);
            crowd.write_frame(ring, &mut NoConsumer).expect("frame");
        };
    for k in 0..5 {
        churn(&mut crowd, &mut ring, k);
    }
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for k in 5..125 {
        churn(&mut crowd, &mut ring, k);
    }
    let during = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(
        during, 0,
        "{during} allocations in 120 frames despawning and spawning three instances each"
    );
}
