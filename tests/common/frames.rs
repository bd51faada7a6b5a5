//! Frames rendered by `throng run --headless` for tests that look at pictures: run it, load
//! the screenshot and the statistics.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::cli::{no_vulkan_device, throng};

/// A frame as RGB rows.
#[derive(Clone)]
pub struct Frame {
    pub width: usize,
    pub height: usize,
    pub rgb: Vec<[u8; 3]>,
}

impl Frame {
    /// Whether pixel `i` is white enough to be inside a silhouette view's shape.
    pub fn is_white(&self, i: usize) -> bool {
        self.rgb[i].iter().map(|&c| u32::from(c)).sum::<u32>() > 384
    }
}

/// Mean absolute difference per channel, and the share of pixels within 8 levels in every
/// channel, over the pixels `keep` selects.
pub fn compare(a: &Frame, b: &Frame, keep: impl Fn(usize) -> bool) -> (f64, f64) {
    assert_eq!((a.width, a.height), (b.width, b.height));
    let (mut sum, mut close, mut n) = (0u64, 0u64, 0u64);
    for (i, (p, q)) in a.rgb.iter().zip(&b.rgb).enumerate() {
        if !keep(i) {
            continue;
        }
        let d: Vec<u64> = (0..3).map(|k| u64::from(p[k].abs_diff(q[k]))).collect();
        sum += d.iter().sum::<u64>();
        close += u64::from(d.iter().all(|&v| v <= 8));
        n += 1;
    }
    (
        sum as f64 / (3 * n.max(1)) as f64,
        close as f64 / n.max(1) as f64,
    )
}

/// The pixels either silhouette covers, widened by `band` pixels.
pub fn characters(a: &Frame, b: &Frame, band: usize) -> Vec<bool> {
    let (w, h) = (a.width, a.height);
    let union: Vec<bool> = (0..w * h).map(|i| a.is_white(i) || b.is_white(i)).collect();
    (0..w * h)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            let ys = y.saturating_sub(band)..=(y + band).min(h - 1);
            ys.into_iter()
                .any(|v| (x.saturating_sub(band)..=(x + band).min(w - 1)).any(|u| union[v * w + u]))
        })
        .collect()
}

/// Loads a PNG as a [`Frame`].
pub fn load(path: &Path) -> Frame {
    let img = image::open(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_rgb8();
    Frame {
        width: img.width() as usize,
        height: img.height() as usize,
        rgb: img.pixels().map(|p| p.0).collect(),
    }
}

/// Runs `throng run` headless for 3 frames at `size` (width, height) with `extra` flags,
/// writing `dir/name.png` and its statistics; returns the last frame and the statistics, or
/// `None` without a Vulkan device (outside CI).
pub fn run_frame(
    dir: &Path,
    name: &str,
    size: [&str; 2],
    extra: &[&str],
) -> Option<(Frame, Value)> {
    let png = dir.join(format!("{name}.png"));
    let stats = dir.join(format!("{name}.json"));
    let mut args = vec![
        "run",
        "--frames",
        "3",
        "--width",
        size[0],
        "--height",
        size[1],
        "--screenshot",
        png.to_str().expect("path"),
        "--stats-json",
        stats.to_str().expect("path"),
    ];
    args.extend_from_slice(extra);
    let out = throng(&args);
    if no_vulkan_device(&out) {
        return None;
    }
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = std::fs::read(&stats).expect("stats written");
    Some((
        load(&png),
        serde_json::from_slice(&json).expect("stats JSON"),
    ))
}

/// A fresh directory for one test's frames, `throng-{suite}-{test}-{pid}` in the temporary
/// directory (the tests of a binary run at once).
pub fn frame_dir(suite: &str, test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("throng-{suite}-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
