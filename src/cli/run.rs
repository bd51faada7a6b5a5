//! `throng run [MODEL] --instances N --seconds S --threads T`

use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use throng::asset;
use throng::crowd::{Crowd, CrowdError, HostAllocator, NoConsumer, PaletteRing};
use throng::scene::{independent_time, spawn_on_grid};

use super::{CliError, parse_instances, parse_seconds, parse_threads};

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Model: `builtin` (default), a `.m3d` file, or a `.gltf`/`.glb` file.
    model: Option<String>,
    /// Number of animated instances (1 to 4,000,000).
    #[arg(long, default_value_t = 4000, value_parser = parse_instances)]
    instances: usize,
    /// How long to animate, seconds.
    #[arg(long, default_value_t = 3.0, value_parser = parse_seconds)]
    seconds: f64,
    /// Worker threads (0: one per core; at most 256).
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    threads: usize,
}

/// Seconds between cross-fades of one instance to another clip, on average.
const SWITCH_EVERY: f32 = 4.0;

pub fn run(args: &RunArgs) -> Result<(), CliError> {
    let model = Arc::new(asset::load_model(args.model.as_deref())?);
    let mut crowd =
        populate(model.clone(), args.instances, args.threads).map_err(CliError::from)?;
    let mut ring = PaletteRing::new(HostAllocator, 3, crowd.len(), crowd.joint_count())
        .map_err(|e| CliError::from(CrowdError::from(e)))?;
    println!(
        "animating {} instances of {} ({} joints each) on {} threads for {} s",
        crowd.len(),
        model.name(),
        model.joint_count(),
        crowd.threads(),
        args.seconds
    );

    let start = Instant::now();
    let mut last = start;
    let mut next_report = Duration::from_secs(1);
    let (mut frames, mut window_frames, mut window_start) = (0u64, 0u64, start);
    let clips = model.clips().len();
    while start.elapsed() < Duration::from_secs_f64(args.seconds) {
        let now = Instant::now();
        let dt = (now - last).as_secs_f32();
        last = now;
        // Now and then an instance cross-fades to another clip, so queues, fades and the
        // crowd's regrouping by clip are exercised, not just clocks.
        if clips > 1 {
            let switches = ((crowd.len() as f32 * dt / SWITCH_EVERY) as usize).max(1);
            for k in 0..switches {
                let i = (frames as usize * 7919 + k * 104_729) % crowd.len();
                let inst = crowd.instance_mut(i);
                let next = (inst.clip() + 1) % clips;
                inst.play(next, 0.3)?;
            }
        }
        crowd.update(dt);
        crowd
            .write_frame(&mut ring, &mut NoConsumer)
            .map_err(CliError::from)?;
        frames += 1;
        window_frames += 1;
        if start.elapsed() >= next_report {
            let secs = window_start.elapsed().as_secs_f64();
            report(window_frames, secs, &crowd, model.joint_count());
            next_report += Duration::from_secs(1);
            (window_frames, window_start) = (0, Instant::now());
        }
    }
    println!("overall:");
    report(
        frames,
        start.elapsed().as_secs_f64(),
        &crowd,
        model.joint_count(),
    );
    Ok(())
}

/// Instances on a grid at independent times, with varied clips and speeds.
fn populate(
    model: Arc<throng::anim::SkinnedModel>,
    instances: usize,
    threads: usize,
) -> Result<Crowd, CrowdError> {
    let mut crowd = Crowd::new(threads)?;
    let id = crowd.add_model(model.clone());
    let clips = model.clips();
    spawn_on_grid(&mut crowd, id, instances, |i, inst| {
        if !clips.is_empty() {
            let clip = i % clips.len();
            inst.play(clip, 0.0)?;
            inst.set_time(independent_time(i, clips[clip].duration()));
            inst.set_speed(0.8 + (i % 5) as f32 * 0.1);
        }
        Ok(())
    })?;
    Ok(crowd)
}

fn report(frames: u64, secs: f64, crowd: &Crowd, joints: usize) {
    let per_s = frames as f64 * crowd.len() as f64 / secs;
    println!(
        "{:>8.1} frames/s  {:>7.3} M palettes/s  {:>7.1} M joints/s",
        frames as f64 / secs,
        per_s / 1e6,
        per_s * joints as f64 / 1e6
    );
}
