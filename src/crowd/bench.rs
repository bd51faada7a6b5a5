//! Measuring palette throughput: the crowd path, and the textbook baseline for comparison.
//! Used by `throng bench palette`; the criterion benches in `benches/` measure the same calls.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::error::CrowdError;
use super::record::InstanceRecord;
use super::region::HostAllocator;
use super::ring::{DEFAULT_SLOTS, NoConsumer, PaletteRing};
use super::system::Crowd;
use super::textbook::TextbookModel;

use crate::anim::{Mat3x4, PaletteStores, SkinnedModel};

/// Frame step of the benchmark's clock, seconds.
const DT: f32 = 1.0 / 60.0;
/// Frames run before timing starts (threads spun up, caches and scratch warm).
const WARMUP_FRAMES: usize = 3;

/// What to measure.
#[derive(Clone, Debug)]
pub struct BenchSetup {
    /// The model every instance uses.
    pub model: Arc<SkinnedModel>,
    /// The clip every instance plays (each at its own time).
    pub clip: usize,
    /// Number of instances.
    pub instances: usize,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// How long to run.
    pub duration: Duration,
    /// Run exactly this many timed frames instead (for instruction-count profiling).
    pub frames: Option<u64>,
    /// Instance `i`'s start time in a clip `duration` seconds long. Instances at different
    /// times read different keys, as a real crowd does; the caller supplies the spread
    /// (throng uses `scene::independent_time`) because placement policy lives in `scene`,
    /// which depends on `crowd` and not the other way round.
    pub start_time: fn(usize, f32) -> f32,
    /// Palette stores to force (`None`: the crowd's own choice by frame size).
    pub stores: Option<PaletteStores>,
}

impl BenchSetup {
    /// A run of `duration` with `instances` instances of `model` playing `clip` on `threads`
    /// threads, instance `i` starting at `start_time(i, clip duration)`.
    pub fn new(
        model: Arc<SkinnedModel>,
        clip: usize,
        instances: usize,
        threads: usize,
        duration: Duration,
        start_time: fn(usize, f32) -> f32,
    ) -> Self {
        Self {
            model,
            clip,
            instances,
            threads,
            duration,
            frames: None,
            start_time,
            stores: None,
        }
    }
}

/// The result of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// Frames timed.
    pub frames: u64,
    /// Seconds spent computing palettes (the timed part).
    pub seconds: f64,
    /// Seconds spent advancing clocks (`Crowd::update`), reported separately.
    pub update_seconds: f64,
    /// Processor seconds the whole process spent computing palettes (all its threads), where
    /// the system reports them: unlike `seconds`, time the processor gave to other programs
    /// does not count, so on a loaded machine it measures the work itself.
    pub cpu_seconds: Option<f64>,
    /// Instances per frame.
    pub instances: usize,
    /// Joints per instance.
    pub joints: usize,
    /// Threads used.
    pub threads: usize,
    /// Bytes written per frame (palettes and instance records).
    pub bytes_per_frame: usize,
}

impl Measurement {
    /// Joints (palette matrices) computed per second, all threads together.
    pub fn joints_per_s(&self) -> f64 {
        (self.frames as f64 * (self.instances * self.joints) as f64) / self.seconds
    }

    /// [`Measurement::joints_per_s`] divided by the thread count.
    pub fn joints_per_s_per_thread(&self) -> f64 {
        self.joints_per_s() / self.threads as f64
    }

    /// Joints computed per processor second (see [`Measurement::cpu_seconds`]).
    pub fn joints_per_cpu_s(&self) -> Option<f64> {
        self.cpu_seconds
            .map(|s| (self.frames as f64 * (self.instances * self.joints) as f64) / s)
    }

    /// Wall-clock nanoseconds per joint (all threads together).
    pub fn ns_per_joint(&self) -> f64 {
        1e9 / self.joints_per_s()
    }

    /// Gigabytes per second written into the ring.
    pub fn gb_per_s(&self) -> f64 {
        self.frames as f64 * self.bytes_per_frame as f64 / self.seconds / 1e9
    }
}

/// A crowd of `setup.instances` instances of the model playing `setup.clip`, each at its
/// [`BenchSetup::start_time`]. All stand at the origin: where an instance stands does not enter
/// the palette math, and the record copies its world matrix whatever it holds.
pub fn crowd_for(setup: &BenchSetup) -> Result<Crowd, CrowdError> {
    let mut crowd = Crowd::new(setup.threads)?;
    crowd.set_palette_stores(setup.stores);
    let model = crowd.add_model(setup.model.clone());
    let clip = setup.model.clips().get(setup.clip);
    let duration = clip.map_or(0.0, |c| c.duration());
    for i in 0..setup.instances {
        let index = crowd.spawn(model, Mat3x4::IDENTITY)?;
        let instance = crowd.instance_mut(index);
        if clip.is_some() {
            instance.play(setup.clip, 0.0)?;
        }
        instance.set_time((setup.start_time)(i, duration));
    }
    Ok(crowd)
}

fn keep_going(setup: &BenchSetup, frames: u64, seconds: f64) -> bool {
    match setup.frames {
        Some(n) => frames < n,
        None => frames == 0 || seconds < setup.duration.as_secs_f64(),
    }
}

fn bytes_per_frame(instances: usize, joints: usize) -> usize {
    instances * (joints * size_of::<Mat3x4>() + size_of::<InstanceRecord>())
}

/// Runs the crowd path (update, then palettes into a ring slot) for `setup.duration`.
pub fn measure_crowd(setup: &BenchSetup) -> Result<Measurement, CrowdError> {
    let mut crowd = crowd_for(setup)?;
    let joints = setup.model.joint_count();
    let mut ring = PaletteRing::new(
        HostAllocator,
        DEFAULT_SLOTS,
        crowd.len(),
        crowd.joint_count(),
    )?;
    for _ in 0..WARMUP_FRAMES {
        crowd.update(DT);
        crowd.write_frame(&mut ring, &mut NoConsumer)?;
    }
    let (mut frames, mut seconds, mut update_seconds) = (0u64, 0.0f64, 0.0f64);
    let mut cpu_seconds = Some(0.0);
    while keep_going(setup, frames, seconds + update_seconds) {
        let start = Instant::now();
        crowd.update(DT);
        let updated = Instant::now();
        let cpu = process_cpu_seconds();
        crowd.write_frame(&mut ring, &mut NoConsumer)?;
        seconds += updated.elapsed().as_secs_f64();
        cpu_seconds = cpu_seconds
            .zip(cpu)
            .zip(process_cpu_seconds())
            .map(|((sum, a), b)| sum + (b - a));
        update_seconds += (updated - start).as_secs_f64();
        frames += 1;
    }
    Ok(Measurement {
        frames,
        seconds,
        update_seconds,
        cpu_seconds,
        instances: setup.instances,
        joints,
        threads: crowd.threads(),
        bytes_per_frame: bytes_per_frame(setup.instances, joints),
    })
}

/// Runs the textbook baseline for `setup.duration`: per instance and frame, clip lookup by
/// name, allocation, 4x4 matrices, then a copy of the result into the slot.
pub fn measure_textbook(setup: &BenchSetup) -> Result<Measurement, CrowdError> {
    let textbook = TextbookModel::from_model(&setup.model);
    let joints = setup.model.joint_count();
    let clip = setup.model.clips().get(setup.clip);
    let name = clip.map_or("", |c| c.name()).to_string();
    let duration = clip.map_or(0.0, |c| c.duration());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(setup.threads)
        .build()
        .map_err(|e| CrowdError::Pool {
            threads: setup.threads,
            message: e.to_string(),
        })?;
    let mut times: Vec<f32> = (0..setup.instances)
        .map(|i| (setup.start_time)(i, duration))
        .collect();
    let mut ring = PaletteRing::new(
        HostAllocator,
        DEFAULT_SLOTS,
        setup.instances,
        setup.instances * joints,
    )?;
    let mut frame = |times: &mut Vec<f32>| -> Result<(), CrowdError> {
        let slot = ring.acquire(&mut NoConsumer)?;
        for t in times.iter_mut() {
            *t = if duration > 0.0 {
                (*t + DT) % duration
            } else {
                0.0
            };
        }
        let chunk = 64;
        pool.install(|| {
            slot.palettes[..setup.instances * joints]
                .par_chunks_mut(joints.max(1) * chunk)
                .zip(times.par_chunks(chunk))
                .for_each(|(out, times)| textbook.write_palettes(&name, times, out));
        });
        Ok(())
    };
    for _ in 0..WARMUP_FRAMES {
        frame(&mut times)?;
    }
    let start = Instant::now();
    let mut frames = 0u64;
    while keep_going(setup, frames, start.elapsed().as_secs_f64()) {
        frame(&mut times)?;
        frames += 1;
    }
    Ok(Measurement {
        frames,
        seconds: start.elapsed().as_secs_f64(),
        update_seconds: 0.0,
        cpu_seconds: None,
        instances: setup.instances,
        joints,
        threads: pool.current_num_threads(),
        bytes_per_frame: bytes_per_frame(setup.instances, joints),
    })
}

/// Processor time used by this process so far, all threads (`CLOCK_PROCESS_CPUTIME_ID`, a
/// vDSO call of well under a microsecond); `None` where the clock is missing.
fn process_cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid timespec for the call to fill.
        let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } == 0;
        ok.then_some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
    }
    #[cfg(not(unix))]
    None
}
