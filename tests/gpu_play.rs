//! `throng play` as a researcher runs it, on a Vulkan device (lavapipe in CI): every shared
//! trajectory file plays headless with the counts it holds and walls where it has geometry;
//! the export matches the file (exactly at its samples with no smoothing, within the goal's
//! bounds with the default); pedestrians enter at their first sample and leave after their
//! last; walls stand where the file puts them (no pedestrian seen inside one, and one walked
//! through a pillar is seen); bad files give one line and exit 1; a video holds the frames.
//!
//! Without a Vulkan device the rendering tests print why and skip, except under `CI=true`,
//! where they fail.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::cli::{no_vulkan_device, throng};
use common::frames::{Frame, load};
use common::shared_asset;

/// A fresh scratch folder for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("gpu_play")
        .join(format!("{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creating a scratch folder");
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `throng play ARGS --headless --quiet` small and fast; `None` without a Vulkan device
/// (outside CI). It must have succeeded.
fn play(args: &[&str]) -> Option<Output> {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--headless", "--quiet"]);
    let out = throng(&all);
    if no_vulkan_device(&out) {
        return None;
    }
    assert!(
        out.status.success(),
        "{all:?} failed: {}",
        text(&out.stderr)
    );
    Some(out)
}

fn trajectory(name: &str) -> String {
    shared_asset(&format!("trajectories/{name}"))
        .display()
        .to_string()
}

/// A shared file: its name, the flags it needs, its pedestrians, its first and last times as
/// printed, and whether it has walls.
type SharedFile = (
    &'static str,
    &'static [&'static str],
    usize,
    &'static str,
    &'static str,
    bool,
);

#[test]
fn every_shared_file_plays_with_its_counts_and_walls() {
    let dir = scratch("shared");
    let files: [SharedFile; 5] = [
        (
            "uo-180-180-120.txt",
            &["--data-fps", "16", "--units", "cm"],
            170,
            "3.75",
            "85.69",
            false,
        ),
        (
            "jupedsim-trajectories.sqlite",
            &[],
            30,
            "0.00",
            "19.60",
            true,
        ),
        (
            "vadere-bottleneck-postvis.traj",
            &[],
            20,
            "0.40",
            "25.27",
            true,
        ),
        ("pathfinder.csv", &[], 150, "0.00", "138.78", false),
        ("eth-biwi_eth_10fps.txt", &[], 360, "31.20", "495.20", false),
    ];
    for (name, flags, peds, start, end, walls) in files {
        let shot = dir.join(format!("{name}.png"));
        let path = trajectory(name);
        let mut args = vec![path.as_str()];
        args.extend_from_slice(flags);
        let shot_arg = shot.display().to_string();
        args.extend_from_slice(&["--frames", "2", "--width", "96", "--height", "54"]);
        args.extend_from_slice(&["--screenshot", &shot_arg]);
        let Some(out) = play(&args) else { return };
        let stdout = text(&out.stdout);
        let first = stdout.lines().next().unwrap_or_default();
        assert!(
            first.contains(&format!(" {peds} pedestrians")),
            "{name}: {first}"
        );
        assert!(
            first.contains(&format!("{start} to {end} s")),
            "{name}: {first}"
        );
        assert_eq!(
            first.contains("with a walkable area"),
            walls,
            "{name}: {first}"
        );
        assert_eq!(stdout.contains("walls drawn"), walls, "{name}: {stdout}");
        let frame = load(&shot);
        assert_eq!((frame.width, frame.height), (96, 54));
    }
}

#[test]
fn a_file_over_max_memory_streams_and_plays_as_one_held_in_memory() {
    // The corridor's 80,000 samples take 2.6 MB; a budget of 1 MB sends most of them to a
    // temporary file, read back chunk by chunk. The export (every pedestrian's root, heading,
    // clip, clip time and feet at every frame) must be the same to the byte, across
    // pedestrians entering and leaving.
    let dir = scratch("stream");
    let path = trajectory("uo-180-180-120.txt");
    let export = |name: &str, extra: &[&str]| {
        let csv = dir.join(name);
        let csv_arg = csv.display().to_string();
        let mut args = vec![path.as_str(), "--data-fps", "16", "--units", "cm"];
        args.extend_from_slice(&["--start", "20", "--end", "40", "--fps", "10"]);
        args.extend_from_slice(&["--width", "64", "--height", "36", "--export", &csv_arg]);
        args.extend_from_slice(extra);
        let out = play(&args)?;
        Some((text(&out.stdout), std::fs::read(&csv).expect("the export")))
    };
    let Some((held_out, held)) = export("held.csv", &[]) else {
        return;
    };
    let Some((streamed_out, streamed)) = export("streamed.csv", &["--max-memory", "1000000"])
    else {
        return;
    };
    assert!(!held_out.contains("streamed"), "{held_out}");
    assert!(
        streamed_out.contains("streamed from a temporary copy of"),
        "{streamed_out}"
    );
    assert!(held.len() > 100_000, "{} bytes exported", held.len());
    assert!(
        held == streamed,
        "the streamed export differs from the one held in memory"
    );
}

/// A small file of this test's own: (id, time, x, y) rows as CSV with a header.
fn write_csv(path: &Path, rows: &[(u32, f64, f64, f64)]) {
    let mut s = String::from("id,t,x,y\n");
    for (id, t, x, y) in rows {
        s.push_str(&format!("{id},{t},{x},{y}\n"));
    }
    std::fs::write(path, s).expect("writing a trajectory file");
}

/// An export row: time, id, x, y.
type ExportRow = (f64, u32, f64, f64);

/// An export's header and rows.
fn read_export(path: &Path) -> (Vec<String>, Vec<ExportRow>) {
    let body = std::fs::read_to_string(path).expect("reading the export");
    let mut lines = body.lines();
    let header: Vec<String> = lines
        .next()
        .expect("a header")
        .split(',')
        .map(str::to_string)
        .collect();
    let rows = lines
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            let num = |k: usize| c[k].parse::<f64>().expect("a number");
            (num(0), c[1].parse().expect("an id"), num(2), num(3))
        })
        .collect();
    (header, rows)
}

/// Two walkers with known tracks: one along x at 1.2 m/s sampled at 10 Hz from 0 to 4 s, one
/// on a zigzag at 1.3 m/s from 1 s to 3 s (a sideways step every half second).
fn known_tracks() -> Vec<(u32, f64, f64, f64)> {
    let mut rows = Vec::new();
    for k in 0..=40 {
        let t = k as f64 * 0.1;
        rows.push((1, t, 1.2 * t, 0.0));
    }
    for k in 0..=20 {
        let t = 1.0 + k as f64 * 0.1;
        let side = if (k / 5) % 2 == 0 { 0.0 } else { 0.08 };
        rows.push((2, t, 2.0 + 1.3 * (t - 1.0), 3.0 + side));
    }
    rows
}

/// The file's position of `id` at `t`, linear between its samples.
fn file_position(rows: &[(u32, f64, f64, f64)], id: u32, t: f64) -> Option<(f64, f64)> {
    let track: Vec<_> = rows.iter().filter(|r| r.0 == id).collect();
    let k = track.iter().position(|r| r.1 >= t - 1e-9)?;
    if (track[k].1 - t).abs() < 1e-9 {
        return Some((track[k].2, track[k].3));
    }
    let (a, b) = (track.get(k.checked_sub(1)?)?, track[k]);
    let u = (t - a.1) / (b.1 - a.1);
    Some((a.2 + (b.2 - a.2) * u, a.3 + (b.3 - a.3) * u))
}

#[test]
fn the_export_is_the_file_without_smoothing_and_near_it_with() {
    let dir = scratch("export");
    let file = dir.join("known.csv");
    let rows = known_tracks();
    write_csv(&file, &rows);
    let f = file.display().to_string();
    for (smooth, fps) in [("0", "10"), ("0", "25"), ("1.5", "25")] {
        let csv = dir.join(format!("export-{smooth}-{fps}.csv"));
        let c = csv.display().to_string();
        let args = [
            f.as_str(),
            "--units",
            "m",
            "--smooth",
            smooth,
            "--fps",
            fps,
            "--width",
            "64",
            "--height",
            "36",
            "--export",
            &c,
        ];
        let Some(_) = play(&args) else { return };
        let (header, out) = read_export(&csv);
        assert_eq!(
            &header[..10],
            [
                "time",
                "id",
                "x",
                "y",
                "z",
                "heading",
                "clip",
                "clip_time",
                "fade_weight",
                "height_scale"
            ]
        );
        assert!(header.iter().any(|h| h == "foot1_x"), "{header:?}");
        let mut worst = 0.0f64;
        let mut within = 0usize;
        for &(t, id, x, y) in &out {
            let (fx, fy) = file_position(&rows, id, t).expect("present in the file");
            let d = (x - fx).hypot(y - fy);
            worst = worst.max(d);
            within += usize::from(d <= 0.10);
        }
        if smooth == "0" {
            // At the sample times (fps 10) and between them (fps 25), within the export's
            // rounding to 0.1 mm.
            assert!(worst <= 0.001, "smooth 0 at {fps} fps: {worst} m off");
        } else {
            assert!(worst <= 0.25, "smoothed: {worst} m off");
            assert!(
                within as f64 >= 0.95 * out.len() as f64,
                "{within} of {}",
                out.len()
            );
        }
        // Who is present when: walker 1 from 0 to 4 s, walker 2 from 1 to 3 s.
        let mut present: BTreeMap<i64, Vec<u32>> = BTreeMap::new();
        for &(t, id, _, _) in &out {
            present
                .entry((t * 1000.0).round() as i64)
                .or_default()
                .push(id);
        }
        for (ms, ids) in &present {
            let t = *ms as f64 / 1000.0;
            let mut want = vec![1];
            if (1.0 - 1e-9..=3.0 + 1e-9).contains(&t) {
                want.push(2);
            }
            let mut ids = ids.clone();
            ids.sort_unstable();
            assert_eq!(ids, want, "at {t} s");
        }
    }
}

/// Pixels that differ by more than a few levels between two frames of the same size.
fn differing(a: &Frame, b: &Frame) -> Vec<bool> {
    a.rgb
        .iter()
        .zip(&b.rgb)
        .map(|(p, q)| (0..3).any(|c| p[c].abs_diff(q[c]) > 12))
        .collect()
}

#[test]
fn walls_stand_where_the_file_says_and_nobody_is_seen_inside_one() {
    let dir = scratch("walls");
    // A 10 m room with a 2 m pillar in its middle; walkers loop around the pillar 1 m from it
    // and along the walls 1 m from them. One stands outside the room at first (so a frame
    // has nobody inside) and leaves before the crowd comes.
    let wkt = dir.join("room.wkt");
    std::fs::write(
        &wkt,
        "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (4 4, 6 4, 6 6, 4 6, 4 4))\n",
    )
    .expect("writing the geometry");
    let loop_at = |inset: f64, phase: f64, t: f64| {
        // A square loop `inset` in from the room's walls, 12 s around.
        let (lo, hi) = (inset, 10.0 - inset);
        let side = hi - lo;
        let s = ((t / 12.0 + phase).fract()) * 4.0 * side;
        match (s / side) as u32 {
            0 => (lo + s, lo),
            1 => (hi, lo + s - side),
            2 => (hi - (s - 2.0 * side), hi),
            _ => (lo, hi - (s - 3.0 * side)),
        }
    };
    let mut rows = vec![(99, 0.0, -2.0, -2.0), (99, 1.0, -2.0, -2.1)];
    for (id, inset, phase) in [(1, 1.0, 0.0), (2, 1.0, 0.5), (3, 3.0, 0.25), (4, 3.0, 0.75)] {
        for k in 0..=80 {
            let t = 2.0 + k as f64 * 0.1;
            let (x, y) = loop_at(inset, phase, t);
            rows.push((id, t, x, y));
        }
    }
    let good = dir.join("good.csv");
    write_csv(&good, &rows);
    // The fault: a fifth walker straight through the pillar.
    let mut through = rows.clone();
    for k in 0..=80 {
        let t = 2.0 + k as f64 * 0.1;
        through.push((5, t, 2.5 + 5.0 * (k as f64 / 80.0), 5.0));
    }
    let bad = dir.join("through.csv");
    write_csv(&bad, &through);
    let w = wkt.display().to_string();
    let frame = |file: &Path, start: &str, height: &str, name: &str| -> Option<Frame> {
        let shot = dir.join(name);
        let (f, s) = (file.display().to_string(), shot.display().to_string());
        let args = [
            f.as_str(),
            "--units",
            "m",
            "--geometry",
            &w,
            "--camera",
            "top",
            "--start",
            start,
            "--frames",
            "1",
            "--wall-height",
            height,
            "--no-shadows",
            "--no-ssao",
            "--variety",
            "off",
            "--width",
            "240",
            "--height",
            "240",
            "--smooth",
            "0",
            "--screenshot",
            &s,
        ];
        play(&args)?;
        Some(load(&shot))
    };
    let Some(walls) = frame(&good, "0.5", "1", "walls.png") else {
        return;
    };
    let Some(bare) = frame(&good, "0.5", "0", "bare.png") else {
        return;
    };
    let Some(crowd) = frame(&good, "4.5", "1", "crowd.png") else {
        return;
    };
    let Some(fault) = frame(&bad, "6.0", "1", "through.png") else {
        return;
    };
    // Where walls are seen: what a 1 m wall changes over none, nobody inside the room.
    let wall = differing(&walls, &bare);
    // Where walkers are seen: what the crowd changes over the empty room (walker 99 stood
    // outside the walls, away from them).
    let walkers = differing(&crowd, &walls);
    let count = |m: &[bool]| m.iter().filter(|&&b| b).count();
    let both = |a: &[bool], b: &[bool]| a.iter().zip(b).filter(|(x, y)| **x && **y).count();
    assert!(count(&wall) > 2000, "walls cover {} pixels", count(&wall));
    assert!(
        count(&walkers) > 100,
        "walkers cover {} pixels",
        count(&walkers)
    );
    assert_eq!(both(&wall, &walkers), 0, "walker pixels inside walls");
    // A walker through the pillar shows over it.
    let faulty = differing(&fault, &walls);
    assert!(
        both(&wall, &faulty) > 20,
        "the walker in the pillar went unseen"
    );
}

/// Exactly one line on stderr, exit 1, naming `what`.
fn one_line(out: &Output, what: &str) -> String {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{what}: {stderr}");
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
    stderr
}

#[test]
fn bad_files_give_one_line_and_exit_1() {
    let dir = scratch("bad");
    let corridor = trajectory("uo-180-180-120.txt");
    // A headerless Jülich file needs its rate and units: one line naming the flag.
    let out = throng(&["play", &corridor, "--headless", "--frames", "1"]);
    let line = one_line(&out, "no fps");
    assert!(
        line.contains("--data-fps") || line.contains("--units"),
        "{line}"
    );
    let cases: [(&str, &[u8]); 5] = [
        ("truncated.txt", b"1 60 61.5 771.0 181.5\n1 61 61.2"),
        ("nan.txt", b"1 60 NaN 771.0 181.5\n"),
        (
            "backwards.txt",
            b"1 61 61.5 771.0 181.5\n1 60 61.2 760.5 181.5\n",
        ),
        (
            "huge-id.txt",
            b"99999999999999999999999 60 61.5 771.0 181.5\n",
        ),
        ("not-a-db.sqlite", b"SQLite format 3\0 but not really"),
    ];
    for (name, bytes) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("writing");
        let p = path.display().to_string();
        let out = throng(&[
            "play",
            &p,
            "--data-fps",
            "16",
            "--units",
            "cm",
            "--headless",
            "--frames",
            "1",
        ]);
        let line = one_line(&out, name);
        assert!(line.contains(name), "{name}: {line}");
    }
    // A database without JuPedSim's tables.
    let empty = dir.join("empty.sqlite");
    let status = std::process::Command::new("python3")
        .args([
            "-c",
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table t(a)'); c.commit()",
        ])
        .arg(&empty)
        .status();
    if status.is_ok_and(|s| s.success()) {
        let p = empty.display().to_string();
        let out = throng(&["play", &p, "--headless", "--frames", "1"]);
        let line = one_line(&out, "missing tables");
        assert!(line.contains("empty.sqlite"), "{line}");
    }
}

#[test]
fn a_video_holds_every_frame() {
    if std::process::Command::new("ffprobe")
        .arg("-version")
        .output()
        .is_err()
    {
        assert!(!common::ci::under_ci(), "ffmpeg is missing under CI");
        eprintln!("skipped: no ffmpeg here (scripts/ensure-deps.sh installs it)");
        return;
    }
    let dir = scratch("video");
    let mp4 = dir.join("corridor.mp4");
    let m = mp4.display().to_string();
    let corridor = trajectory("uo-180-180-120.txt");
    let args = [
        corridor.as_str(),
        "--data-fps",
        "16",
        "--units",
        "cm",
        "--start",
        "30",
        "--end",
        "30.5",
        "--fps",
        "30",
        "--width",
        "97",
        "--height",
        "55",
        "--record",
        &m,
    ];
    let Some(out) = play(&args) else { return };
    assert!(
        text(&out.stdout).contains("rendered 15 frames"),
        "{}",
        text(&out.stdout)
    );
    let probe = std::process::Command::new("ffprobe")
        .args(["-v", "error", "-count_frames", "-select_streams", "v:0"])
        .args([
            "-show_entries",
            "stream=nb_read_frames,width,height",
            "-of",
            "csv=p=0",
        ])
        .arg(&mp4)
        .output()
        .expect("ffprobe runs");
    let said = text(&probe.stdout);
    // Odd sides are padded to even for H.264.
    assert_eq!(said.trim(), "98,56,15", "ffprobe: {said}");
}

#[test]
fn a_window_plays_the_file_at_its_pace_and_takes_its_keys() {
    let on_path = |p: &str| {
        std::process::Command::new("sh")
            .args(["-c", &format!("command -v {p}")])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !on_path("xvfb-run") || !on_path("xdotool") {
        assert!(
            !common::ci::under_ci(),
            "xvfb-run or xdotool is missing under CI"
        );
        eprintln!("skipped: no xvfb-run or xdotool here (scripts/ensure-deps.sh installs both)");
        return;
    }
    let file = trajectory("jupedsim-trajectories.sqlite");
    // Under a private X server: play, wait for the window, then pause, double the speed, seek
    // forward and quit, in that order (the keys queue; the window reads them in order).
    let script = format!(
        "'{bin}' play '{file}' --width 160 --height 90 --color-by density --loop --frames 2000 & \
         pid=$!; \
         w=$(xdotool search --sync --name 'throng play' | head -n 1); \
         xdotool windowfocus --sync \"$w\"; \
         xdotool key space; sleep 0.3; \
         xdotool key bracketright; sleep 0.3; \
         xdotool key Right; sleep 0.3; \
         xdotool key Escape; \
         wait $pid",
        bin = env!("CARGO_BIN_EXE_throng"),
    );
    let out = std::process::Command::new("timeout")
        .args(["240", "xvfb-run", "-a", "sh", "-c", &script])
        .env_remove("RUST_LOG")
        .output()
        .expect("xvfb-run runs");
    if no_vulkan_device(&out) {
        return;
    }
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("Space pause"), "{stdout}");
    let said: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("paused") || l.starts_with("speed") || l.starts_with("seek"))
        .collect();
    assert_eq!(said.len(), 3, "{stdout}");
    assert!(said[0].starts_with("paused at "), "{stdout}");
    assert_eq!(said[1], "speed x2", "{stdout}");
    // Paused, the clock stands: the seek lands five seconds after where it paused.
    let at = |l: &str| -> f64 {
        l.rsplit(' ')
            .nth(1)
            .and_then(|t| t.parse().ok())
            .expect("a time")
    };
    let (paused, sought) = (at(said[0]), at(said[2]));
    assert!(
        (sought - (paused + 5.0).min(19.6)).abs() < 0.011,
        "{stdout}"
    );
    assert!(stdout.contains("played "), "{stdout}");
}
