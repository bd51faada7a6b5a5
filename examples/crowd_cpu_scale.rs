//! The CPU side of a crowd frame at 10,000 and 100,000 built-in characters, every palette
//! exact against `--animation auto` (exact only where baked frames could show, the camera
//! framing the whole crowd at 1280x720 as `throng run` does): clocks, the choice, records and
//! palettes into a ring in host memory, no GPU. Rounds alternate the four settings so that a
//! machine whose speed drifts treats them alike; per thread count, each setting's median and
//! worst round, and the ratio of 100,000 to 10,000 within each round.
//!
//! ```sh
//! cargo run --release --example crowd_cpu_scale -- [ROUNDS] [THREADS...]
//! ```

use std::sync::Arc;
use std::time::Instant;

use throng::crowd::visibility::{AnimationView, Frustum, ViewScale};
use throng::crowd::{AnimationMode, BakeSettings, Crowd, HostAllocator, NoConsumer, PaletteRing};
use throng::scene::{CrowdLayout, OrbitCamera, crowd_bounds};

const SIZES: [usize; 2] = [10_000, 100_000];
const MODES: [AnimationMode; 2] = [AnimationMode::Exact, AnimationMode::Auto];
const FRAMES: usize = 20;
/// The error a baked pose may show, in pixels (the renderer's default).
const BAKED_ERROR_PX: f32 = 0.5;

type Error = Box<dyn std::error::Error>;

struct Setup {
    crowd: Crowd,
    ring: PaletteRing<HostAllocator>,
}

fn setup(n: usize, mode: AnimationMode, threads: usize) -> Result<Setup, Error> {
    let model = Arc::new(throng::asset::load_model(None)?);
    let mut crowd = Crowd::new(threads)?;
    let id = crowd.add_model(model.clone());
    let placed = CrowdLayout::new(n, 1).spawn(&mut crowd, &[id])?;
    let bounds = crowd_bounds(&placed, &[model]).ok_or("no vertices")?;
    crowd.bake(BakeSettings::default());
    crowd.set_animation(mode);
    let aspect = 16.0 / 9.0;
    let camera = OrbitCamera::framing(bounds.min, bounds.max, aspect).camera();
    crowd.set_view(Some(AnimationView {
        frustum: Frustum::from_clip(camera.view_proj(aspect)),
        scale: ViewScale::new(camera.eye, camera.fov_y, 720),
        max_error_px: BAKED_ERROR_PX,
    }));
    let mut ring = PaletteRing::new(HostAllocator, 3, 1, 1)?;
    // Warm: the ring at its size, the caches filled.
    for _ in 0..3 {
        crowd.update(1.0 / 60.0);
        crowd.write_frame(&mut ring, &mut NoConsumer)?;
    }
    Ok(Setup { crowd, ring })
}

/// Milliseconds per frame over `FRAMES` frames.
fn measure(s: &mut Setup) -> Result<f64, Error> {
    let start = Instant::now();
    for _ in 0..FRAMES {
        s.crowd.update(1.0 / 60.0);
        s.crowd.write_frame(&mut s.ring, &mut NoConsumer)?;
    }
    Ok(start.elapsed().as_secs_f64() * 1e3 / FRAMES as f64)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = args.first().map_or(Ok(5), |a| a.parse())?;
    let threads: Vec<usize> = if args.len() > 1 {
        args[1..]
            .iter()
            .map(|a| a.parse())
            .collect::<Result<_, _>>()?
    } else {
        vec![1, 2]
    };
    println!("| threads | setting | exact / baked | ms per frame (median, worst) |");
    println!("| ---: | --- | ---: | ---: |");
    let mut ratios = Vec::new();
    for &t in &threads {
        let mut setups = Vec::new();
        for n in SIZES {
            for mode in MODES {
                setups.push(((n, mode), setup(n, mode, t)?));
            }
        }
        let mut times = vec![Vec::new(); setups.len()];
        let mut ratio_rounds = vec![Vec::new(); MODES.len()];
        for _ in 0..rounds {
            let mut this_round = Vec::new();
            for (k, (_, s)) in setups.iter_mut().enumerate() {
                let ms = measure(s)?;
                times[k].push(ms);
                this_round.push(ms);
            }
            // Setups are [10k exact, 10k auto, 100k exact, 100k auto].
            for m in 0..MODES.len() {
                ratio_rounds[m].push(this_round[MODES.len() + m] / this_round[m]);
            }
        }
        for (k, ((n, mode), s)) in setups.iter().enumerate() {
            let counts = s.crowd.counts();
            let worst = times[k].iter().copied().fold(0.0, f64::max);
            println!(
                "| {t} | {n} {mode:?} | {} / {} | {:.2}, {:.2} |",
                counts.exact,
                counts.baked,
                median(&mut times[k]),
                worst
            );
        }
        for (m, mode) in MODES.iter().enumerate() {
            let r = &mut ratio_rounds[m];
            let (lo, hi) = (
                r.iter().copied().fold(f64::INFINITY, f64::min),
                r.iter().copied().fold(0.0, f64::max),
            );
            ratios.push(format!(
                "{t} thread(s), {mode:?}: 100,000 / 10,000 = {:.2} (rounds {lo:.2}-{hi:.2})",
                median(r)
            ));
        }
    }
    for r in ratios {
        println!("{r}");
    }
    Ok(())
}
