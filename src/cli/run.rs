//! `throng run [MODEL] --instances N --seconds S`

use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use rayon::prelude::*;
use throng::anim::{Mat3x4, PoseScratch, SkinnedModelInstance};
use throng::asset;

use super::CliError;

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Model: `builtin` (default), a `.m3d` file, or a `.gltf`/`.glb` file.
    model: Option<String>,
    /// Number of animated instances.
    #[arg(long, default_value_t = 4000)]
    instances: usize,
    /// How long to animate, seconds.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
}

pub fn run(args: &RunArgs) -> Result<(), CliError> {
    let model = Arc::new(asset::load_model(args.model.as_deref())?);
    println!(
        "{}: {} joints, {} clips, {} vertices, {} triangles",
        model.name(),
        model.joint_count(),
        model.clips().len(),
        model.mesh().vertices.len(),
        model.mesh().triangle_count()
    );
    let joints = model.joint_count();
    let clips = model.clips().len().max(1);
    let mut instances: Vec<SkinnedModelInstance> = (0..args.instances)
        .map(|i| {
            let mut inst = SkinnedModelInstance::new(model.clone());
            if !model.clips().is_empty() {
                let _ = inst.play(i % clips, 0.0);
            }
            inst.set_time(i as f32 * 0.037);
            inst.set_speed(0.8 + (i % 5) as f32 * 0.1);
            inst
        })
        .collect();
    let mut palettes = vec![Mat3x4::IDENTITY; joints * args.instances];
    let start = Instant::now();
    let mut frames = 0u64;
    let mut last = start;
    while start.elapsed() < Duration::from_secs_f64(args.seconds) {
        let dt = last.elapsed().as_secs_f32();
        last = Instant::now();
        instances.par_iter_mut().for_each(|i| i.advance(dt));
        palettes
            .par_chunks_mut(joints)
            .zip(instances.par_iter())
            .for_each_init(
                || PoseScratch::new(joints),
                |scratch, (out, inst)| inst.evaluate(scratch, out),
            );
        frames += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    let palettes_per_s = frames as f64 * args.instances as f64 / secs;
    println!(
        "{} instances, {frames} frames in {secs:.2} s: {:.1} frames/s, {:.3} M palettes/s, {:.1} M joints/s",
        args.instances,
        frames as f64 / secs,
        palettes_per_s / 1e6,
        palettes_per_s * joints as f64 / 1e6
    );
    Ok(())
}
