//! Variety shows in the picture: `throng run` with `--variety on` and `off`, same seed and
//! frame, 640x360 on lavapipe. Over the characters' pixels (a silhouette view of the same
//! frame), hues are counted in twelve bins of 30 degrees (pixels of some colour only: greys,
//! blacks and whites have no hue to tell). The numbers are printed; docs/variety.md keeps
//! them.

mod common;

use std::path::Path;

use common::frames::{Frame, frame_dir, run_frame};

/// A bin counts as a colour of the crowd when it holds this share of the characters' coloured
/// pixels.
const BIN_SHARE: f64 = 0.01;

/// The frame and its silhouette for `flags`, at 640x360; `None` without a Vulkan device.
fn frame_and_shape(dir: &Path, name: &str, flags: &[&str]) -> Option<(Frame, Vec<bool>)> {
    let size = ["640", "360"];
    let (frame, _) = run_frame(dir, name, size, flags)?;
    let silhouette = [flags, &["--view", "silhouette"]].concat();
    let (shape, _) = run_frame(dir, &format!("{name}-sil"), size, &silhouette)?;
    let inside = (0..shape.rgb.len()).map(|i| shape.is_white(i)).collect();
    Some((frame, inside))
}

/// Hue (0 to 1), saturation and value of an sRGB pixel.
fn hsv([r, g, b]: [u8; 3]) -> (f64, f64, f64) {
    let (r, g, b) = (
        f64::from(r) / 255.0,
        f64::from(g) / 255.0,
        f64::from(b) / 255.0,
    );
    let max = r.max(g).max(b);
    let d = max - r.min(g).min(b);
    let hue = if d <= 0.0 {
        0.0
    } else if max == r {
        ((g - b) / d).rem_euclid(6.0) / 6.0
    } else if max == g {
        ((b - r) / d + 2.0) / 6.0
    } else {
        ((r - g) / d + 4.0) / 6.0
    };
    (hue, if max > 0.0 { d / max } else { 0.0 }, max)
}

/// The hue bins (of twelve) holding at least [`BIN_SHARE`] of the coloured pixels `inside`
/// selects (saturation 0.3 and value 0.15 or more).
fn hue_bins(frame: &Frame, inside: &[bool]) -> Vec<usize> {
    let mut bins = [0u64; 12];
    let mut coloured = 0u64;
    for (p, _) in frame.rgb.iter().zip(inside).filter(|(_, keep)| **keep) {
        let (h, s, v) = hsv(*p);
        if s >= 0.3 && v >= 0.15 {
            bins[((h * 12.0) as usize).min(11)] += 1;
            coloured += 1;
        }
    }
    (0..12)
        .filter(|&b| bins[b] as f64 >= BIN_SHARE * coloured.max(1) as f64)
        .collect()
}

/// How far apart, in degrees, the 5th and 95th percentiles of the hues of the coloured pixels
/// `inside` selects lie: how widely a single-hued texture's tints spread it.
fn hue_range(frame: &Frame, inside: &[bool]) -> f64 {
    let mut hues: Vec<f64> = frame
        .rgb
        .iter()
        .zip(inside)
        .filter(|(_, keep)| **keep)
        .filter_map(|(p, _)| {
            let (h, s, v) = hsv(*p);
            (s >= 0.3 && v >= 0.15).then_some(h * 360.0)
        })
        .collect();
    if hues.is_empty() {
        return 0.0;
    }
    hues.sort_by(f64::total_cmp);
    let at = |q: f64| hues[((hues.len() - 1) as f64 * q) as usize];
    at(0.95) - at(0.05)
}

/// The mean luminance step between horizontal neighbours both `inside`: how much detail the
/// characters' surfaces show.
fn detail(frame: &Frame, inside: &[bool]) -> f64 {
    let luma =
        |[r, g, b]: [u8; 3]| 0.2126 * f64::from(r) + 0.7152 * f64::from(g) + 0.0722 * f64::from(b);
    let (mut sum, mut n) = (0.0, 0u64);
    for i in 0..frame.rgb.len() - 1 {
        if (i + 1) % frame.width != 0 && inside[i] && inside[i + 1] {
            sum += (luma(frame.rgb[i]) - luma(frame.rgb[i + 1])).abs();
            n += 1;
        }
    }
    sum / n.max(1) as f64
}

/// 400 built-in characters from above: with variety, at least eight colours (measured: all
/// twelve bins); without, one (the shirt's: the skin is not saturated enough to count).
#[test]
fn variety_dresses_the_overview_in_many_colours() {
    let dir = frame_dir("variety", "overview");
    let common = ["--instances", "400", "--camera", "overview"];
    let Some((on, on_inside)) = frame_and_shape(&dir, "on", &common) else {
        return;
    };
    let off_flags = [&common[..], &["--variety", "off"]].concat();
    let (off, off_inside) = frame_and_shape(&dir, "off", &off_flags).expect("run");
    let (on_bins, off_bins) = (hue_bins(&on, &on_inside), hue_bins(&off, &off_inside));
    eprintln!("hue bins of 30 degrees: variety on {on_bins:?}, off {off_bins:?}");
    assert!(
        on_bins.len() >= 8,
        "variety on: {} hue bins ({on_bins:?}), fewer than eight",
        on_bins.len()
    );
    assert!(
        off_bins.len() == 1,
        "variety off: {} hue bins ({off_bins:?}), not the shirt's alone",
        off_bins.len()
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A textured character (64 CesiumMan from the street): with variety, its crowd shows more
/// hues than without (measured: 8 bins against 4), and its surfaces keep their texture's
/// detail (the light tints scale a texel and its neighbours alike; measured: a mean luminance
/// step of 8.73 against 9.83, the tints' lower brightness). `THRONG_TEXTURED_MODEL=PATH`
/// checks another textured model the same way, such as the glTF sample Fox.glb, which the
/// shared assets do not hold: its orange fur keeps its two bins of hue, but their spread
/// widens (measured: 19.6 degrees against 4.4) and the detail stays (4.51 against 5.11).
#[test]
fn a_textured_crowd_is_tinted_and_keeps_its_detail() {
    let model = std::env::var_os("THRONG_TEXTURED_MODEL")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| common::shared_asset("gltf/CesiumMan.glb"));
    let model = model.to_str().expect("path");
    let dir = frame_dir("variety", "textured");
    let common = [model, "--instances", "64", "--camera", "street"];
    let Some((on, on_inside)) = frame_and_shape(&dir, "on", &common) else {
        return;
    };
    let off_flags = [&common[..], &["--variety", "off"]].concat();
    let (off, off_inside) = frame_and_shape(&dir, "off", &off_flags).expect("run");
    let (on_bins, off_bins) = (hue_bins(&on, &on_inside), hue_bins(&off, &off_inside));
    let (on_detail, off_detail) = (detail(&on, &on_inside), detail(&off, &off_inside));
    let (on_range, off_range) = (hue_range(&on, &on_inside), hue_range(&off, &off_inside));
    eprintln!(
        "{model}: hue bins on {on_bins:?}, off {off_bins:?}; 5-95% hue range on {on_range:.1}, \
         off {off_range:.1} degrees; detail (mean luminance step) on {on_detail:.2}, off \
         {off_detail:.2}"
    );
    // More hues, or (a texture of one hue, whose light tints stay near it) the same hues
    // spread three times as wide.
    assert!(
        on_bins.len() >= off_bins.len() + 3 || on_range >= 3.0 * off_range,
        "variety on: hue bins {on_bins:?} against {off_bins:?} off, hue range {on_range:.1} \
         against {off_range:.1} degrees"
    );
    assert!(
        on_detail >= 0.75 * off_detail,
        "variety on flattened the texture: {on_detail:.2} against {off_detail:.2}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
