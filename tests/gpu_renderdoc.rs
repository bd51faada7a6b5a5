//! `run --capture-frame` under RenderDoc, checked by opening the capture: the program runs
//! headless under `renderdoccmd capture -w` on the Vulkan device here (lavapipe in CI),
//! captures one frame of 16 built-in characters, prints the capture's path, and
//! `tests/renderdoc/inspect.py` (the system python with `python3-renderdoc`) lists the
//! capture's debug labels, draws and named resources as JSON.
//!
//! Skipped, with a message, where RenderDoc or its Python module is not installed; under
//! `CI=true` that is a failure (`scripts/ensure-deps.sh` installs both).

#[path = "common/ci.rs"]
mod ci;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Instances in the captured crowd.
const INSTANCES: u32 = 16;
/// Index-buffer subsets of the built-in character: one indirect draw each per pass.
const BUILTIN_SUBSETS: usize = 4;
/// How RenderDoc names the region it makes of an indirect-count draw (holding the draws the
/// GPU's count turned it into).
const INDIRECT_COUNT: &str = "vkCmdDrawIndexedIndirectCount";
/// The same for the impostor cards' draws, which have no index buffer.
const CARD_INDIRECT_COUNT: &str = "vkCmdDrawIndirectCount";
/// The system python, where Debian's `python3-renderdoc` installs the module.
const PYTHON: &str = "/usr/bin/python3";
/// How often a run that died under RenderDoc is tried again (see `capture`).
const ATTEMPTS: usize = 2;

/// `name` on PATH.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// Why this machine cannot run the test, if it cannot.
fn missing_renderdoc() -> Option<String> {
    if on_path("renderdoccmd").is_none() {
        return Some("renderdoccmd is not on PATH (Debian package renderdoc)".into());
    }
    let import = Command::new(PYTHON)
        .args(["-c", "import renderdoc"])
        .output();
    match import {
        Ok(out) if out.status.success() => None,
        Ok(out) => Some(format!(
            "{PYTHON} cannot import renderdoc (Debian package python3-renderdoc): {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Err(e) => Some(format!("cannot run {PYTHON}: {e}")),
    }
}

/// Whether the test should run; says why not (or fails under `CI=true`).
fn renderdoc_available() -> bool {
    let Some(why) = missing_renderdoc() else {
        return true;
    };
    if ci::under_ci() {
        panic!("RenderDoc is missing under CI=true: {why}; scripts/ensure-deps.sh installs it");
    }
    eprintln!("skipped: {why}; CI=true makes this a failure");
    false
}

/// The capture path the program printed, if it printed one.
fn printed_capture(stdout: &str) -> Option<PathBuf> {
    stdout
        .lines()
        .find_map(|l| l.split_once("captured frame 1 with RenderDoc: "))
        .map(|(_, path)| PathBuf::from(path.trim()))
}

/// Runs one headless frame under `renderdoccmd capture -w` with `--capture-frame 1` and
/// returns the `.rdc` the program says it wrote (and its stdout), or `None` (after saying why) when this
/// machine has no Vulkan device and is not CI.
///
/// `renderdoccmd` exits 0 whatever its child does, so success is the printed path and the
/// file. A run that died is tried once more (its output printed): while the frame graph was
/// being rebuilt, one working state of the renderer crashed inside `vkCreateGraphicsPipelines`
/// under RenderDoc 1.24 + lavapipe most of the time and never without RenderDoc; a crash in
/// both runs fails the test.
fn capture(dir: &Path) -> Option<(PathBuf, String)> {
    let exe = env!("CARGO_BIN_EXE_throng");
    let mut last: Option<Output> = None;
    for attempt in 1..=ATTEMPTS {
        let template = dir.join(format!("throng_try{attempt}"));
        let out = Command::new("renderdoccmd")
            .arg("capture")
            .arg("-w")
            .arg("-c")
            .arg(&template)
            .arg(exe)
            .args(["run", "--headless", "builtin", "--instances"])
            .arg(INSTANCES.to_string())
            .args(["--width", "256", "--height", "256", "--frames", "1"])
            .args(["--capture-frame", "1", "--seed", "3"])
            .arg("--screenshot")
            .arg(dir.join("frame.png"))
            // Validation in the child would only slow the capture; the other GPU tests run it.
            .env("THRONG_VALIDATION", "0")
            .output()
            .expect("renderdoccmd runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        if let Some(path) = printed_capture(&stdout) {
            assert!(
                path.is_file(),
                "the program printed {} but there is no such file",
                path.display()
            );
            assert!(
                path.starts_with(dir),
                "the capture {} is not where renderdoccmd -c asked ({})",
                path.display(),
                template.display()
            );
            return Some((path, stdout.into_owned()));
        }
        let stderr = String::from_utf8_lossy(&out.stderr);
        if (stderr.contains("no Vulkan device") || stderr.contains("no Vulkan loader"))
            && !ci::under_ci()
        {
            eprintln!(
                "skipped: no Vulkan device here ({}); CI=true makes this a failure",
                stderr.trim()
            );
            return None;
        }
        eprintln!(
            "attempt {attempt}: no capture printed (the program died under RenderDoc?)\n\
             stdout:\n{stdout}\nstderr:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        last = Some(out);
    }
    let out = last.expect("at least one attempt");
    panic!(
        "no capture after {ATTEMPTS} runs under renderdoccmd; last stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What `inspect.py` reports of a capture.
struct Inspected {
    labels: Vec<String>,
    draws: Vec<Draw>,
    resources: Vec<String>,
}

/// One draw of the capture.
#[derive(Debug)]
struct Draw {
    instances: u64,
    indexed: bool,
    /// The label regions around it, outermost first.
    labels: Vec<String>,
}

fn inspect(rdc: &Path) -> Inspected {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/renderdoc/inspect.py");
    let out = Command::new(PYTHON)
        .arg(&script)
        .arg(rdc)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "inspect.py failed on {}:\n{}",
        rdc.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("inspect.py prints JSON");
    let strings = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .expect("an array")
            .iter()
            .map(|s| s.as_str().expect("a string").to_string())
            .collect()
    };
    Inspected {
        labels: strings(&doc["labels"]),
        draws: doc["draws"]
            .as_array()
            .expect("draws")
            .iter()
            .map(|d| Draw {
                instances: d["instances"].as_u64().expect("instances"),
                indexed: d["indexed"].as_bool().expect("indexed"),
                labels: strings(&d["labels"]),
            })
            .collect(),
        resources: strings(&doc["resources"]),
    }
}

/// The passes the program says it ran, in the order the renderer records them: its summary
/// line "gpu ms per pass: shadow 1.2 forward 0.8 ... readback 0.1" (absent where the
/// device has no timestamps).
fn printed_passes(stdout: &str) -> Option<Vec<String>> {
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("gpu ms per pass:"))?;
    Some(
        line.split_whitespace()
            .filter(|w| w.parse::<f64>().is_err())
            .map(str::to_string)
            .collect(),
    )
}

#[test]
fn a_captured_frame_holds_the_labelled_passes_and_the_instanced_draws() {
    if !renderdoc_available() {
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gpu_renderdoc");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let Some((rdc, stdout)) = capture(&dir) else {
        return;
    };
    let mut got = inspect(&rdc);
    eprintln!("labels in the capture: {:?}", got.labels);
    // RenderDoc's own regions around the draws an indirect count expanded to.
    let indirect_regions = got
        .labels
        .iter()
        .filter(|l| l.starts_with(INDIRECT_COUNT))
        .count();
    // The impostor card passes' indirect-count draws (not indexed): one per model and list.
    let card_regions = got
        .labels
        .iter()
        .filter(|l| l.starts_with(CARD_INDIRECT_COUNT))
        .count();
    got.labels
        .retain(|l| !l.starts_with(INDIRECT_COUNT) && !l.starts_with(CARD_INDIRECT_COUNT));

    // The passes: every pass the renderer ran, each labelled once, in its order; a headless
    // frame with a screenshot ends with `forward` then `readback`.
    match printed_passes(&stdout) {
        Some(passes) => assert_eq!(
            got.labels, passes,
            "the capture's labels are not the passes the renderer ran, in order"
        ),
        None => eprintln!("no per-pass line in the output; checking forward and readback only"),
    }
    let at = |name: &str| got.labels.iter().position(|l| l == name);
    let (Some(forward), Some(readback)) = (at("forward"), at("readback")) else {
        panic!("no 'forward' or 'readback' label: {:?}", got.labels);
    };
    assert!(
        forward < readback,
        "readback before forward: {:?}",
        got.labels
    );

    // The crowd: in each pass that draws it, one indirect-count draw per subset of the
    // built-in character and list (the forward pass draws the large instances and the
    // camera's depth and normals with them, its late pass the small ones the occlusion test
    // let through); the GPU turned each into a draw per mesh level in use, and together they
    // cover all 16 instances once per subset (every one is in view and casts a shadow into
    // it). The ground is a plain draw of one instance.
    assert_eq!(
        indirect_regions,
        3 * BUILTIN_SUBSETS,
        "indirect-count draws per subset: shadow, forward, forward_late"
    );
    // Cards (none here: every character is tall on screen), one draw per list all the same:
    // the shadow's, and the camera's early and late lists in the cards' depth pass (their
    // quad's own depth, the default on lavapipe) and their lit pass.
    assert_eq!(
        card_regions, 5,
        "card draws: impostor_shadow, impostor_depth_normal (2), impostor_forward (2)"
    );
    let drawn_in = |passes: &[&str]| -> u64 {
        got.draws
            .iter()
            .filter(|d| d.indexed && d.labels.iter().any(|l| passes.contains(&l.as_str())))
            .map(|d| d.instances)
            .sum()
    };
    for passes in [&["shadow"][..], &["forward", "forward_late"]] {
        assert_eq!(
            drawn_in(passes),
            u64::from(INSTANCES) * BUILTIN_SUBSETS as u64,
            "{passes:?}: instances over the indexed draws (all draws: {:?})",
            got.draws
        );
    }

    // Named objects: the palette ring's buffer, the model's buffers, the depth image.
    for prefix in [
        "palette ring",
        "builtin vertices",
        "builtin indices",
        "depth",
    ] {
        assert!(
            got.resources.iter().any(|r| r.starts_with(prefix)),
            "no resource named '{prefix}…' in the capture: {:?}",
            got.resources
        );
    }
}
