//! SoA against AoS for the per-instance state a frame touches besides the palette math: the
//! clock update and the gathering of each instance's inputs (clip, time, world) in slot order.
//! The crowd keeps an array of structs (`SkinnedModelInstance` plus placement); this bench
//! measures what separate arrays per field (SoA) and chunks of eight (AoSoA) would save, to
//! put next to the cost of the palettes themselves (`cargo bench --bench palette`).
//! Run with `cargo bench --bench layout`.

use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use throng::anim::{Mat3x4, SkinnedModelInstance};
use throng::asset::builtin;
use throng::scene::independent_time;

const INSTANCES: usize = 10_000;
const DT: f32 = 1.0 / 60.0;

/// What the crowd stores per instance today.
struct Member {
    anim: SkinnedModelInstance,
    world: Mat3x4,
    model: u32,
    joints: u32,
}

/// The same clocks as separate arrays; instances with a queue or a fade take a slow path.
struct SoaClocks {
    time: Vec<f32>,
    speed: Vec<f32>,
    duration: Vec<f32>,
    clip: Vec<u32>,
    world: Vec<Mat3x4>,
    special: Vec<bool>,
}

/// Eight instances' clocks per chunk.
#[derive(Clone, Copy, Default)]
struct Chunk8 {
    time: [f32; 8],
    speed: [f32; 8],
    duration: [f32; 8],
}

fn wrap(t: f32, d: f32) -> f32 {
    if (0.0..d).contains(&t) {
        t
    } else {
        t.rem_euclid(d)
    }
}

fn layouts(c: &mut Criterion) {
    let model = Arc::new(builtin::model().expect("builtin"));
    let walk = model.clip_index("walk").unwrap_or(0);
    let duration = model.clips()[walk].duration();
    let mut members: Vec<Member> = (0..INSTANCES)
        .map(|i| {
            let mut anim = SkinnedModelInstance::new(model.clone());
            let _ = anim.play(walk, 0.0);
            anim.set_time(independent_time(i, duration));
            Member {
                anim,
                world: Mat3x4::IDENTITY,
                model: 0,
                joints: 22,
            }
        })
        .collect();
    // Slot order is a permutation of member indices (grouped by clip in the crowd).
    let order: Vec<u32> = (0..INSTANCES as u32)
        .map(|i| (i * 7919) % INSTANCES as u32)
        .collect();
    let mut soa = SoaClocks {
        time: (0..INSTANCES)
            .map(|i| independent_time(i, duration))
            .collect(),
        speed: vec![1.0; INSTANCES],
        duration: vec![duration; INSTANCES],
        clip: vec![walk as u32; INSTANCES],
        world: vec![Mat3x4::IDENTITY; INSTANCES],
        special: vec![false; INSTANCES],
    };
    let mut chunks = vec![Chunk8::default(); INSTANCES / 8];
    for (i, c) in chunks.iter_mut().enumerate() {
        for l in 0..8 {
            c.time[l] = independent_time(i * 8 + l, duration);
            c.speed[l] = 1.0;
            c.duration[l] = duration;
        }
    }

    let mut group = c.benchmark_group("layout/update");
    group.throughput(Throughput::Elements(INSTANCES as u64));
    group.bench_function("aos-instances", |b| {
        b.iter(|| members.iter_mut().for_each(|m| m.anim.advance(DT)))
    });
    group.bench_function("soa-arrays", |b| {
        b.iter(|| {
            for i in 0..INSTANCES {
                if soa.special[i] {
                    continue; // queues and fades would be handled here, rarely
                }
                soa.time[i] = wrap(soa.time[i] + DT * soa.speed[i], soa.duration[i]);
            }
        })
    });
    group.bench_function("aosoa-chunks-of-8", |b| {
        b.iter(|| {
            for c in chunks.iter_mut() {
                for l in 0..8 {
                    c.time[l] = wrap(c.time[l] + DT * c.speed[l], c.duration[l]);
                }
            }
        })
    });
    group.finish();

    // What evaluation reads per instance before the palette math: its clip and time, and
    // the record fields, in slot order.
    let mut group = c.benchmark_group("layout/gather");
    group.throughput(Throughput::Elements(INSTANCES as u64));
    let mut times = vec![0.0f32; INSTANCES];
    let mut records = vec![(Mat3x4::IDENTITY, 0u32, 0u32); INSTANCES];
    group.bench_function("aos-through-slot-order", |b| {
        b.iter(|| {
            for (p, &m) in order.iter().enumerate() {
                let m = &members[m as usize];
                times[p] = m.anim.time() + m.anim.clip() as f32;
                records[p] = (m.world, m.model, m.joints);
            }
        })
    });
    group.bench_function("soa-in-slot-order", |b| {
        b.iter(|| {
            for p in 0..INSTANCES {
                times[p] = soa.time[p] + soa.clip[p] as f32;
                records[p] = (soa.world[p], 0, 22);
            }
        })
    });
    group.finish();
}

criterion_group!(benches, layouts);
criterion_main!(benches);
