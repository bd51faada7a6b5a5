//! The playback's host side on the GPU path allocates nothing per frame once it has started:
//! pedestrians assigned to slots as their first samples are read and their slots given back
//! after their last, the samples of every chunk read handed out, over the Jülich corridor
//! streamed from a temporary file, where pedestrians come and go all the time; and the
//! pedestrian a camera rides behind (`--follow`), played alone on the CPU beside them. This
//! file holds a single test so that no other test allocates concurrently.

mod common;
#[path = "common/counting_alloc.rs"]
mod counting_alloc;

use std::sync::Arc;

use throng::crowd::Crowd;
use throng::motion::{ColorBy, Follower, Playback, TracksOnDevice};

#[global_allocator]
static ALLOCATOR: counting_alloc::Counting = counting_alloc::Counting;

#[test]
fn steps_on_the_gpu_path_assign_and_free_slots_without_allocating() {
    let _serial = counting_alloc::serial();
    let file = common::playback::streamed_corridor();
    let model = Arc::new(throng::asset::load_model(None).expect("builtin"));
    let mut crowd = Crowd::new(1).expect("crowd");
    let m = common::playback::ramp_model(&mut crowd, &model);
    let settings = common::playback::settings_for(&file, Some(ColorBy::Speed), 0.04);
    let playback = Playback::new(file, vec![m], settings, 0);
    let mut tracks = TracksOnDevice::new(&playback).expect("tracks");
    tracks.spawn_pool(&playback, &mut crowd).expect("pool");
    let start = playback.start();
    let dt = 1.0 / 30.0;
    // The longest-lived pedestrian, followed.
    let longest = playback
        .store()
        .summaries()
        .iter()
        .max_by(|a, b| (a.end - a.start).total_cmp(&(b.end - b.start)))
        .expect("pedestrians")
        .id;
    let mut follower = Follower::new(&playback, &crowd, longest)
        .expect("follower")
        .expect("in the file");
    // The first step reads everyone present in (a seek).
    tracks.advance_to(&playback, start).expect("first step");
    follower.advance_to(start).expect("first step");
    let mut followed = 0;
    let (mut assigned, mut samples, mut most) = (0usize, 0usize, 0usize);
    let mut seen = Vec::with_capacity(16);
    let before = counting_alloc::allocations();
    let mut last_count = before;
    for f in 1..=(70.0 / dt) as usize {
        let t = start + f as f64 * dt;
        let step = tracks.advance_to(&playback, t).expect("step");
        follower.advance_to(t).expect("follower's step");
        followed += usize::from(follower.state().is_some());
        let now = counting_alloc::allocations();
        if now != last_count && seen.len() < seen.capacity() {
            seen.push((f, now - last_count));
        }
        last_count = now;
        assigned += step.commands as usize;
        samples += step.writes as usize;
        most = most.max(tracks.present(&playback));
    }
    let allocated = counting_alloc::allocations() - before;
    assert!(
        seen.is_empty(),
        "steps that allocated (step, calls): {seen:?}"
    );
    assert_eq!(allocated, 0, "{allocated} allocations over 2100 steps");
    // Pedestrians came and went through the pool, their samples handed out as read.
    assert!(
        assigned > 100 && samples > 10_000,
        "{assigned} assigned, {samples} samples"
    );
    assert!(
        most > 30 && most <= tracks.slots(),
        "{most} present, {} slots",
        tracks.slots()
    );
    assert_eq!(tracks.overruns(), 0);
    assert!(followed > 300, "followed for {followed} steps");
}
