//! Cards rasterized in compute keep the picture of cards drawn as quads: `throng run` with
//! `--card-raster compute` and `--card-raster graphics`, same seed and frame, for the
//! overview of 1,000 built-in characters (with either depth a card may leave) and the street
//! among 4,000 at 640x360 on the device's default anti-aliasing (one sample on lavapipe), the
//! overview again at four samples per pixel (the compute path's per-sample merge), and the
//! shadow map itself (`--view shadow`: the sun's cards splatted by compute or drawn as
//! quads). Each pair must meet the picture goal (mean difference at most 1.0 level per
//! channel, at least 98% of pixels within 8 levels in every channel), the characters' pixels
//! alone the impostor test's limits, both must have drawn cards, the compute run must have
//! run the compute passes, and neither may draw a validation message. The figures are
//! printed; docs/crowds-at-scale.md keeps them.

mod common;

use std::path::Path;

use common::frames::{Frame, characters, compare, frame_dir, run_frame};
use serde_json::Value;

/// The picture goal over the whole frame.
const MEAN_LIMIT: f64 = 1.0;
const CLOSE_LIMIT: f64 = 0.98;
/// Over the characters' pixels (either silhouette, widened by two pixels): the limits a card
/// must keep against the mesh it stands for (tests/gpu_impostor_picture.rs).
const CHARACTER_MEAN_LIMIT: f64 = 6.5;
const CHARACTER_CLOSE_LIMIT: f64 = 0.84;

/// One run with `extra` flags at `size`: the last frame and its statistics, which must show
/// no validation message; `None` without a Vulkan device (outside CI).
fn run(dir: &Path, name: &str, size: [&str; 2], extra: &[&str]) -> Option<(Frame, Value)> {
    let (frame, stats) = run_frame(dir, name, size, extra)?;
    assert_eq!(
        stats["validation_messages"], 0,
        "{name}: validation messages"
    );
    Some((frame, stats))
}

fn cards(stats: &Value) -> u64 {
    stats["drawn"]["forward"]["cards"].as_u64().unwrap_or(0)
}

/// Whether the run timed pass `name`.
fn ran(stats: &Value, name: &str) -> bool {
    stats["passes"]
        .as_object()
        .is_some_and(|p| p.contains_key(name))
}

/// The compute and the graphics frame of `flags` at `size`, checked to have drawn what they
/// claim; `None` without a Vulkan device.
fn pair(dir: &Path, name: &str, size: [&str; 2], flags: &[&str]) -> Option<[(Frame, Value); 2]> {
    let with = |raster: &'static str| [flags, &["--card-raster", raster]].concat();
    let compute = run(dir, &format!("{name}-compute"), size, &with("compute"))?;
    let graphics = run(dir, &format!("{name}-graphics"), size, &with("graphics")).expect("run");
    let shadow_view = flags.contains(&"shadow");
    for (raster, (_, stats)) in [("compute", &compute), ("graphics", &graphics)] {
        let compute_passes = ran(stats, "card_shadow");
        assert_eq!(
            compute_passes,
            raster == "compute",
            "{name} {raster}: {stats}"
        );
        if !shadow_view {
            assert!(cards(stats) > 0, "{name} {raster}: no character was a card");
            assert_eq!(
                ran(stats, "card_raster"),
                raster == "compute",
                "{name} {raster}"
            );
            assert_eq!(
                ran(stats, "impostor_forward"),
                raster == "graphics",
                "{name}"
            );
        }
    }
    Some([compute, graphics])
}

/// Asserts the picture goal between the frames of `pair` (over the pixels `keep` selects
/// against the `limits`), printing the figures.
fn assert_close(
    what: &str,
    [(a, _), (b, _)]: &[(Frame, Value); 2],
    keep: impl Fn(usize) -> bool,
    limits: (f64, f64),
) {
    let (mean, close) = compare(a, b, keep);
    eprintln!(
        "{what}: compute against quads {mean:.3} levels per channel, {:.2}% within 8",
        close * 100.0
    );
    assert!(mean <= limits.0, "{what}: mean difference {mean:.3}");
    assert!(close >= limits.1, "{what}: {:.2}% within 8", close * 100.0);
}

#[test]
fn compute_cards_keep_the_picture_of_quads() {
    let dir = frame_dir("card-raster-picture", "views");
    let size = ["640", "360"];
    let overview = ["--instances", "1000", "--camera", "overview"];
    let Some(plain) = pair(&dir, "overview", size, &overview) else {
        return;
    };
    let goal = (MEAN_LIMIT, CLOSE_LIMIT);
    assert_close("overview", &plain, |_| true, goal);
    let silhouette = [&overview[..], &["--view", "silhouette"]].concat();
    let (a, _) = run(&dir, "overview-silhouette", size, &silhouette).expect("run");
    let region = characters(&a, &a, 2);
    let character = (CHARACTER_MEAN_LIMIT, CHARACTER_CLOSE_LIMIT);
    assert_close("overview, characters", &plain, |i| region[i], character);
    for depth in ["picture", "plane"] {
        let flags = [&overview[..], &["--card-depth", depth]].concat();
        let frames = pair(&dir, &format!("overview-{depth}"), size, &flags).expect("run");
        assert_close(&format!("overview, {depth} depth"), &frames, |_| true, goal);
    }
    let street = ["--instances", "4000", "--camera", "street"];
    let frames = pair(&dir, "street", size, &street).expect("run");
    assert_close("street", &frames, |_| true, goal);
    let msaa = [&overview[..], &["--msaa", "4"]].concat();
    let frames = pair(&dir, "overview-msaa", ["320", "180"], &msaa).expect("run");
    assert_close("overview, 4 samples", &frames, |_| true, goal);
    std::fs::remove_dir_all(&dir).ok();
}

/// The shadow map holds the same card shadows splatted by compute as drawn as quads, every
/// character a card.
#[test]
fn compute_card_shadows_match_the_quads() {
    let dir = frame_dir("card-raster-picture", "shadows");
    let flags = [
        "--instances",
        "1000",
        "--camera",
        "overview",
        "--impostor-px",
        "4096",
        "--view",
        "shadow",
    ];
    let Some(frames) = pair(&dir, "shadow-map", ["640", "360"], &flags) else {
        return;
    };
    // The shadow view draws the map's depths: its casters differ from its far plane.
    let far = frames[1].0.rgb[0];
    let casters = frames[1].0.rgb.iter().filter(|p| **p != far).count();
    assert!(casters > 1000, "the map shows {casters} caster pixels");
    assert_close("shadow map", &frames, |_| true, (MEAN_LIMIT, CLOSE_LIMIT));
    std::fs::remove_dir_all(&dir).ok();
}

/// A frame in which no character can be a card (the atlas does not fit its budget) records
/// no card pass, in compute or as quads, and no pass left to resolve what the lit passes drew.
#[test]
fn a_frame_without_cards_records_no_card_pass() {
    let dir = frame_dir("card-raster-picture", "none");
    for raster in ["compute", "graphics"] {
        let flags = [
            "--instances",
            "200",
            "--impostor-memory",
            "1",
            "--card-raster",
            raster,
            "--msaa",
            "4",
        ];
        let Some((_, stats)) = run(&dir, raster, ["160", "90"], &flags) else {
            return;
        };
        let passes: Vec<&String> = stats["passes"]
            .as_object()
            .expect("passes timed")
            .keys()
            .collect();
        assert!(
            !passes
                .iter()
                .any(|n| n.starts_with("card_") || n.starts_with("impostor_")),
            "{raster}: {passes:?}"
        );
        assert!(passes.iter().any(|n| *n == "forward"), "{passes:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
