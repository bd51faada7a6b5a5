//! `throng play --follow ID` rides behind pedestrian ID with the crowd placed on the GPU (the
//! default) as with it placed on the CPU: the same picture both ways, the start-up line saying
//! the GPU, and the camera where the ride puts it.
//!
//! Where the camera is, is read from the pixels of a second walker: pedestrian 7 walks
//! straight along the file's +x at 1.3 m/s and pedestrian 8 walks beside it, 1.2 m to its
//! right; the same file without 8 (a walker that stood far off early keeps both files'
//! bounds, so ground and framing match) leaves only 8's pixels differing (no shadows, no
//! ambient occlusion; no cards either, whose bake would be most of each run's time). Riding 3.2 m behind 7, 8 stays where the ride's own geometry projects
//! it, in the right half of the frame, at 3 s as at 8 s (6.5 m further on), while the fixed
//! overview sees it move across the frame. An id the file lacks is one line and exit 2.
//!
//! Without a Vulkan device the rendering test prints why and skips, except under `CI=true`,
//! where it fails.

mod common;

use std::path::Path;

use common::cli::{no_vulkan_device, throng};
use common::frames::{Frame, compare, frame_dir, load};

const WIDTH: usize = 320;
const HEIGHT: usize = 180;

/// Pedestrians 7 and (with `beside`) 8 walking along +x side by side for 12 s, sampled at
/// 10 Hz, and 9 standing far to the right for the first half second, as CSV.
fn write_walkers(path: &Path, beside: bool) {
    let mut s = String::from("id,t,x,y\n");
    for k in 0..=120 {
        let t = k as f64 * 0.1;
        s.push_str(&format!("7,{t},{},0\n", 1.3 * t));
        if beside {
            s.push_str(&format!("8,{t},{},-1.2\n", 1.3 * t));
        }
    }
    s.push_str("9,0,0,-4\n9,0.5,0,-4\n");
    std::fs::write(path, s).expect("writing a trajectory file");
}

/// One frame of `file` at file time `start`, with `flags`, its start-up text; `None` without
/// a Vulkan device (outside CI).
fn frame(dir: &Path, file: &Path, start: &str, flags: &[&str]) -> Option<(Frame, String)> {
    let shot = dir.join(format!(
        "{}-{start}-{}.png",
        file.file_stem().and_then(|s| s.to_str()).unwrap_or("file"),
        flags.join("").replace('-', "")
    ));
    let (f, s) = (file.display().to_string(), shot.display().to_string());
    let (w, h) = (WIDTH.to_string(), HEIGHT.to_string());
    let mut args = vec![
        "play",
        &f,
        "--units",
        "m",
        "--start",
        start,
        "--frames",
        "1",
        "--width",
        &w,
        "--height",
        &h,
        "--no-shadows",
        "--no-ssao",
        "--impostors",
        "off",
        "--headless",
        "--quiet",
        "--screenshot",
        &s,
    ];
    args.extend_from_slice(flags);
    let out = throng(&args);
    if no_vulkan_device(&out) {
        return None;
    }
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?}: {stderr}");
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &stderr;
    Some((load(&shot), text))
}

/// The centre (x, y in pixels) of the pixels differing by more than a few levels, and how
/// many there are.
fn differing_centre(a: &Frame, b: &Frame) -> ([f64; 2], usize) {
    let (mut sum, mut n) = ([0.0; 2], 0);
    for (i, (p, q)) in a.rgb.iter().zip(&b.rgb).enumerate() {
        if (0..3).any(|c| p[c].abs_diff(q[c]) > 12) {
            sum[0] += (i % a.width) as f64;
            sum[1] += (i / a.width) as f64;
            n += 1;
        }
    }
    let n1 = n.max(1) as f64;
    ([sum[0] / n1, sum[1] / n1], n)
}

/// Where a point of the world lands in the frame (pixels) seen from `eye` looking at
/// `target` with a vertical field of view of 45 degrees, +y up; worked out here from the ride's
/// description (3.2 m behind the pedestrian and 2.6 m up, looking at a point 3 m ahead of it
/// and 1.02 m up), not from throng's camera code.
fn projected(eye: [f64; 3], target: [f64; 3], point: [f64; 3]) -> [f64; 2] {
    let sub = |a: [f64; 3], b: [f64; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let cross = |a: [f64; 3], b: [f64; 3]| {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    };
    let unit = |a: [f64; 3]| {
        let l = dot(a, a).sqrt();
        [a[0] / l, a[1] / l, a[2] / l]
    };
    let forward = unit(sub(target, eye));
    let right = unit(cross(forward, [0.0, 1.0, 0.0]));
    let up = cross(right, forward);
    let d = sub(point, eye);
    let (x, y, z) = (dot(d, right), dot(d, up), dot(d, forward));
    let f = 1.0 / (std::f64::consts::FRAC_PI_8).tan();
    let aspect = WIDTH as f64 / HEIGHT as f64;
    [
        (0.5 + 0.5 * f * x / (z * aspect)) * WIDTH as f64,
        (0.5 - 0.5 * f * y / z) * HEIGHT as f64,
    ]
}

#[test]
fn the_camera_rides_behind_the_pedestrian_on_the_gpu_as_on_the_cpu() {
    let dir = frame_dir("play-follow", "ride");
    let (pair, alone) = (dir.join("pair.csv"), dir.join("alone.csv"));
    write_walkers(&pair, true);
    write_walkers(&alone, false);
    let follow = ["--follow", "7"];
    let Some((pair_early, text)) = frame(&dir, &pair, "3", &follow) else {
        return;
    };
    assert!(
        text.contains("placed and paced on the GPU"),
        "following moved the crowd off the GPU: {text}"
    );
    let (alone_early, _) = frame(&dir, &alone, "3", &follow).expect("run");
    let (pair_late, _) = frame(&dir, &pair, "8", &follow).expect("run");
    let (alone_late, _) = frame(&dir, &alone, "8", &follow).expect("run");
    let (early, n_early) = differing_centre(&pair_early, &alone_early);
    let (late, n_late) = differing_centre(&pair_late, &alone_late);
    // Where the ride puts it: 8's middle (0.9 m up, 1.2 m to the right of 7), seen from 3.2 m
    // behind 7 and 2.6 m up, looking at 3 m ahead and 1.02 m up (in the world the file's +x is
    // +x and its +y is -z, so 8 is at +z).
    let want = projected([-3.2, 2.6, 0.0], [3.0, 1.02, 0.0], [0.0, 0.9, 1.2]);
    eprintln!(
        "walker 8 at {early:?} ({n_early} px) at 3 s, {late:?} ({n_late} px) at 8 s; the ride \
         puts it at {want:?}"
    );
    assert!(n_early > 300 && n_late > 300, "{n_early} / {n_late} px");
    for (at, when) in [(early, "3 s"), (late, "8 s")] {
        assert!(at[0] > WIDTH as f64 * 0.55, "{when}: walker 8 at {at:?}");
        let off = ((at[0] - want[0]).powi(2) + (at[1] - want[1]).powi(2)).sqrt();
        assert!(
            off < 0.08 * WIDTH as f64,
            "{when}: walker 8 at {at:?}, the ride puts it at {want:?}"
        );
    }
    let moved = ((early[0] - late[0]).powi(2) + (early[1] - late[1]).powi(2)).sqrt();
    assert!(moved < 0.03 * WIDTH as f64, "walker 8 moved {moved:.1} px");
    // The fixed overview sees it cross the frame over the same 5 s.
    let (o_pair_early, _) = frame(&dir, &pair, "3", &[]).expect("run");
    let (o_alone_early, _) = frame(&dir, &alone, "3", &[]).expect("run");
    let (o_pair_late, _) = frame(&dir, &pair, "8", &[]).expect("run");
    let (o_alone_late, _) = frame(&dir, &alone, "8", &[]).expect("run");
    let (o_early, _) = differing_centre(&o_pair_early, &o_alone_early);
    let (o_late, _) = differing_centre(&o_pair_late, &o_alone_late);
    assert!(
        (o_early[0] - o_late[0]).abs() > 0.2 * WIDTH as f64,
        "overview: {o_early:?} then {o_late:?}"
    );
    // The crowd placed on the CPU draws the same ride.
    let (cpu, text) = frame(
        &dir,
        &pair,
        "8",
        &[&follow[..], &["--crowd-state", "cpu"]].concat(),
    )
    .expect("run");
    assert!(text.contains("placed and paced on the CPU"), "{text}");
    let (mean, close) = compare(&pair_late, &cpu, |_| true);
    eprintln!(
        "GPU against CPU: {mean:.4} levels per channel, {:.3}% within 8",
        close * 100.0
    );
    assert!(mean < 0.1 && close > 0.999, "{mean} / {close}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn following_an_id_the_file_lacks_is_one_line_and_exit_2() {
    let dir = frame_dir("play-follow", "unknown");
    let pair = dir.join("pair.csv");
    write_walkers(&pair, true);
    let f = pair.display().to_string();
    let out = throng(&["play", &f, "--units", "m", "--follow", "70", "--headless"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("--follow 70") && stderr.contains("ids run from 7 to 9"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
