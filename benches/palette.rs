//! Palette throughput in joints per second: 1k, 10k and 100k instances at independent times,
//! one thread and all threads, the built-in walk and the `.m3d` soldier's `Take1`; plus the
//! textbook baseline at 10k; and the cost of handing a frame to the worker threads. Run with
//! `cargo bench --bench palette`.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use throng::anim::SkinnedModel;
use throng::asset;
use throng::crowd::bench::{BenchSetup, crowd_for};
use throng::crowd::textbook::TextbookModel;
use throng::crowd::{HostAllocator, NoConsumer, PaletteRing};
use throng::scene::independent_time;

const SOLDIER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/assets/m3d/soldier.m3d"
);

fn models() -> Vec<(String, Arc<SkinnedModel>, usize)> {
    let mut models = Vec::new();
    match asset::builtin::model() {
        Ok(m) => {
            let walk = m.clip_index("walk").unwrap_or(0);
            models.push(("builtin-walk".to_string(), Arc::new(m), walk));
        }
        Err(e) => eprintln!("skipping the built-in character: {e}"),
    }
    match asset::load_file(Path::new(SOLDIER)) {
        Ok(m) => models.push(("soldier-Take1".to_string(), Arc::new(m), 0)),
        Err(e) => eprintln!("skipping soldier.m3d: {e}"),
    }
    models
}

fn palettes(c: &mut Criterion) {
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut threads = vec![1];
    if all > 1 {
        threads.push(all);
    }
    for (name, model, clip) in models() {
        let mut group = c.benchmark_group(format!("palette/{name}"));
        for instances in [1_000usize, 10_000, 100_000] {
            let joints = (instances * model.joint_count()) as u64;
            group.throughput(Throughput::Elements(joints));
            // Big crowds take tens of milliseconds per frame: fewer, longer samples.
            if instances >= 100_000 {
                group
                    .sample_size(10)
                    .measurement_time(Duration::from_secs(8));
            } else {
                group
                    .sample_size(30)
                    .measurement_time(Duration::from_secs(4));
            }
            for &t in &threads {
                let setup = BenchSetup::new(
                    model.clone(),
                    clip,
                    instances,
                    t,
                    Duration::ZERO,
                    independent_time,
                );
                let Ok(mut crowd) = crowd_for(&setup) else {
                    eprintln!("skipping {name} x{instances}: no crowd");
                    continue;
                };
                let Ok(mut ring) =
                    PaletteRing::new(HostAllocator, 3, crowd.len(), crowd.joint_count())
                else {
                    eprintln!("skipping {name} x{instances}: no ring");
                    continue;
                };
                let id = BenchmarkId::new(format!("{t}-threads"), instances);
                group.bench_function(id, |b| {
                    b.iter(|| {
                        crowd.update(1.0 / 60.0);
                        crowd.write_frame(&mut ring, &mut NoConsumer)
                    })
                });
            }
        }
        group.finish();
    }
}

/// The textbook demo's way (clip by name, allocation, 4x4 matrices per call), one thread, 10k
/// instances: compare with `palette/*/1-threads/10000`.
fn textbook(c: &mut Criterion) {
    for (name, model, clip) in models() {
        let mut group = c.benchmark_group(format!("textbook/{name}"));
        let instances = 10_000;
        group.throughput(Throughput::Elements(
            (instances * model.joint_count()) as u64,
        ));
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(6));
        let textbook = TextbookModel::from_model(&model);
        let clip_name = model.clips()[clip].name().to_string();
        let duration = model.clips()[clip].duration();
        let times: Vec<f32> = (0..instances)
            .map(|i| independent_time(i, duration))
            .collect();
        let mut out = vec![throng::anim::Mat3x4::IDENTITY; instances * model.joint_count()];
        group.bench_function(BenchmarkId::new("1-threads", instances), |b| {
            b.iter(|| textbook.write_palettes(&clip_name, &times, &mut out))
        });
        group.finish();
    }
}

/// The hand-off: a frame of 16 built-in characters (352 joints, a few microseconds of work)
/// on the calling thread, and the same frame forced through the worker pool (two threads,
/// `set_serial_below(0, 0)`), whose `update` and `write_palettes` each wake the pool and wait
/// for it. The difference is twice the round trip the pool costs a frame; crowds below
/// 32,768 joints per frame stay on the calling thread by default because of it.
fn handoff(c: &mut Criterion) {
    let Ok(model) = asset::builtin::model() else {
        eprintln!("skipping the hand-off: no built-in character");
        return;
    };
    let model = Arc::new(model);
    let walk = model.clip_index("walk").unwrap_or(0);
    let mut group = c.benchmark_group("handoff/builtin-walk");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(3));
    for (name, threads, pooled) in [("calling-thread", 1, false), ("pool-2-threads", 2, true)] {
        let setup = BenchSetup::new(
            model.clone(),
            walk,
            16,
            threads,
            Duration::ZERO,
            independent_time,
        );
        let Ok(mut crowd) = crowd_for(&setup) else {
            eprintln!("skipping the hand-off: no crowd");
            return;
        };
        if pooled {
            crowd.set_serial_below(0, 0);
        }
        let Ok(mut ring) = PaletteRing::new(HostAllocator, 3, crowd.len(), crowd.joint_count())
        else {
            eprintln!("skipping the hand-off: no ring");
            return;
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                crowd.update(1.0 / 60.0);
                crowd.write_frame(&mut ring, &mut NoConsumer)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, palettes, textbook, handoff);
criterion_main!(benches);
