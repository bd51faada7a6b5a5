//! The frame in compute keeps the picture of the frame rasterized: `throng run` with cards
//! rasterized in compute against cards drawn as quads (`--card-raster`), the ground drawn by
//! a compute pass against the ground rasterized under the meshes (`--ground`), and both
//! against neither, same seed and frame, for the overview of 1,000 built-in characters (with
//! either depth a card may leave) and the street among 4,000 at 640x360 on the device's
//! default anti-aliasing (one sample on lavapipe), both again at four samples per pixel at
//! 320x180 (the compute passes' per-sample merge, the ground's resolve), and the shadow map
//! itself (`--view shadow`: the sun's cards splatted by compute or drawn as quads). Each pair
//! must meet the picture goal (mean difference at most 1.0 level per channel, at least 98% of
//! pixels within 8 levels in every channel), the characters' pixels alone the impostor test's
//! limits, the compute run must have run the compute passes and the other not, and neither
//! may draw a validation message. The figures are printed; docs/crowds-at-scale.md keeps them.
//! Each view's rasterized frame is drawn once and held against every part's compute frame.

mod common;

use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use common::frames::{Frame, characters, compare, frame_dir, run_frame};
use serde_json::Value;

/// The picture goal over the whole frame.
const MEAN_LIMIT: f64 = 1.0;
const CLOSE_LIMIT: f64 = 0.98;
/// Over the characters' pixels (either silhouette, widened by two pixels): the limits a card
/// must keep against the mesh it stands for (tests/gpu_impostor_picture.rs).
const CHARACTER_MEAN_LIMIT: f64 = 6.5;
const CHARACTER_CLOSE_LIMIT: f64 = 0.84;
/// The overview of 1,000 built-in characters.
const OVERVIEW: [&str; 4] = ["--instances", "1000", "--camera", "overview"];

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

/// What a pair of runs draws in compute in one and with the graphics pipelines in the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Cards,
    Ground,
    Both,
}

/// The compute and the graphics frame of `flags` at `size` for `part`, checked to have run
/// the passes they claim; `None` without a Vulkan device. The compute frame draws `part` in
/// compute and the rest rasterized; the graphics frame rasterizes both, and is the same
/// frame for every part ([`graphics_frame`]).
fn pair(
    dir: &Path,
    name: &str,
    size: [&str; 2],
    flags: &[&str],
    part: Part,
) -> Option<[(Frame, Value); 2]> {
    let (card_raster, ground_raster) = match part {
        Part::Cards => ("compute", "graphics"),
        Part::Ground => ("graphics", "compute"),
        Part::Both => ("compute", "compute"),
    };
    let switches = ["--card-raster", card_raster, "--ground", ground_raster];
    let compute = run(
        dir,
        &format!("{name}-compute"),
        size,
        &[flags, &switches].concat(),
    )?;
    let graphics = graphics_frame(size, flags).expect("run");
    let shadow_view = flags.contains(&"shadow");
    for (raster, (_, stats)) in [("compute", &compute), ("graphics", &graphics)] {
        let computed = raster == "compute";
        if part != Part::Ground {
            assert_eq!(
                ran(stats, "card_shadow"),
                computed,
                "{name} {raster}: {stats}"
            );
            if !shadow_view {
                assert!(cards(stats) > 0, "{name} {raster}: no character was a card");
                assert_eq!(ran(stats, "card_raster"), computed, "{name} {raster}");
                assert_eq!(ran(stats, "impostor_forward"), !computed, "{name} {raster}");
            }
        }
        if part != Part::Cards {
            assert_eq!(ran(stats, "ground"), computed, "{name} {raster}: {stats}");
        }
    }
    Some([compute, graphics])
}

/// The frame of `flags` at `size` with cards and ground both rasterized, rendered once for
/// all the tests of this file that hold a compute frame against it (the harness runs them
/// side by side: the first to ask renders it, the others wait for it and take a copy);
/// `None` without a Vulkan device.
fn graphics_frame(size: [&str; 2], flags: &[&str]) -> Option<(Frame, Value)> {
    type Slot = Arc<OnceLock<Option<(Frame, Value)>>>;
    static FRAMES: Mutex<Vec<(String, Slot)>> = Mutex::new(Vec::new());
    let key = format!("{size:?} {flags:?}");
    let (index, slot) = {
        let mut frames = FRAMES.lock().unwrap_or_else(PoisonError::into_inner);
        let index = match frames.iter().position(|(k, _)| *k == key) {
            Some(index) => index,
            None => {
                frames.push((key, Slot::default()));
                frames.len() - 1
            }
        };
        (index, frames[index].1.clone())
    };
    slot.get_or_init(|| {
        let dir = frame_dir("compute-picture", &format!("graphics-{index}"));
        let switches = ["--card-raster", "graphics", "--ground", "graphics"];
        let frame = run(&dir, "graphics", size, &[flags, &switches].concat());
        std::fs::remove_dir_all(&dir).ok();
        frame
    })
    .clone()
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
        "{what}: compute against graphics {mean:.3} levels per channel, {:.2}% within 8",
        close * 100.0
    );
    assert!(mean <= limits.0, "{what}: mean difference {mean:.3}");
    assert!(close >= limits.1, "{what}: {:.2}% within 8", close * 100.0);
}

/// The overview of 1,000 with cards in compute against cards as quads: the whole frame, the
/// characters' pixels alone, and with either depth a card may leave.
#[test]
fn cards_in_compute_keep_the_overview_picture() {
    let dir = frame_dir("compute-picture", "overview");
    let size = ["640", "360"];
    let goal = (MEAN_LIMIT, CLOSE_LIMIT);
    let Some(plain) = pair(&dir, "overview", size, &OVERVIEW, Part::Cards) else {
        return;
    };
    assert_close("overview, cards", &plain, |_| true, goal);
    let silhouette = [&OVERVIEW[..], &["--view", "silhouette"]].concat();
    let (a, _) = run(&dir, "overview-silhouette", size, &silhouette).expect("run");
    let region = characters(&a, &a, 2);
    let character = (CHARACTER_MEAN_LIMIT, CHARACTER_CLOSE_LIMIT);
    assert_close(
        "overview, cards, characters",
        &plain,
        |i| region[i],
        character,
    );
    for depth in ["picture", "plane"] {
        let flags = [&OVERVIEW[..], &["--card-depth", depth]].concat();
        let name = format!("overview-{depth}");
        let frames = pair(&dir, &name, size, &flags, Part::Cards).expect("run");
        assert_close(
            &format!("overview, cards, {depth} depth"),
            &frames,
            |_| true,
            goal,
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `part` in compute against the same part rasterized: the street among 4,000 at 640x360
/// (and the overview, whose cards alone the test above covers), both views at four samples
/// at 320x180. One test per part, so that the harness runs them side by side.
fn part_keeps_the_picture(part: Part, what: &str) {
    let dir = frame_dir("compute-picture", what);
    let size = ["640", "360"];
    let goal = (MEAN_LIMIT, CLOSE_LIMIT);
    let street = ["--instances", "4000", "--camera", "street"];
    let msaa = [&OVERVIEW[..], &["--msaa", "4"]].concat();
    // Mesh edges everywhere: where the ground pass's resolve of the lit passes' samples
    // shows most.
    let street_msaa = [&street[..], &["--msaa", "4"]].concat();
    let Some(frames) = pair(&dir, &format!("street-{what}"), size, &street, part) else {
        return;
    };
    assert_close(&format!("street, {what}"), &frames, |_| true, goal);
    if part != Part::Cards {
        let name = format!("overview-{what}");
        let frames = pair(&dir, &name, size, &OVERVIEW, part).expect("run");
        assert_close(&format!("overview, {what}"), &frames, |_| true, goal);
    }
    for (view, flags) in [("overview", &msaa), ("street", &street_msaa)] {
        let name = format!("{view}-msaa-{what}");
        let frames = pair(&dir, &name, ["320", "180"], flags, part).expect("run");
        assert_close(
            &format!("{view}, 4 samples, {what}"),
            &frames,
            |_| true,
            goal,
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn cards_in_compute_keep_the_picture() {
    part_keeps_the_picture(Part::Cards, "cards");
}

#[test]
fn the_ground_in_compute_keeps_the_picture() {
    part_keeps_the_picture(Part::Ground, "ground");
}

#[test]
fn cards_and_ground_in_compute_keep_the_picture() {
    part_keeps_the_picture(Part::Both, "both");
}

/// The shadow map holds the same card shadows splatted by compute as drawn as quads, every
/// character a card.
#[test]
fn compute_card_shadows_match_the_quads() {
    let dir = frame_dir("compute-picture", "shadows");
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
    let Some(frames) = pair(&dir, "shadow-map", ["640", "360"], &flags, Part::Cards) else {
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
    let dir = frame_dir("compute-picture", "none");
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
