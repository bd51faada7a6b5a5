//! What one palette throughput measurement reports (`bench palette`, and each point of
//! `bench sweep`), as printed and as JSON.

use clap::ValueEnum;
use serde::Serialize;
use throng::anim::{SkinnedModel, vector_isa};
use throng::crowd::bench::Measurement;

/// Which palette implementation a measurement ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Method {
    /// throng's crowd path: rayon, per-thread scratch, palettes written in place.
    Crowd,
    /// The textbook demo's path: clip by name, allocation, 4x4 matrices, per call.
    Textbook,
}

/// The figures of one measurement (the `--json` output of `bench palette`).
#[derive(Serialize)]
pub(super) struct Report {
    pub(super) joints_per_s: f64,
    pub(super) joints_per_s_per_thread: f64,
    pub(super) ns_per_joint: f64,
    pub(super) gb_per_s: f64,
    pub(super) threads: usize,
    pub(super) instances: usize,
    pub(super) joints: usize,
    pub(super) model: String,
    pub(super) clip: String,
    pub(super) method: &'static str,
    /// The batch kernels' instruction set (`portable`, `avx2`, `avx512`; `THRONG_ISA` can
    /// lower it) and their instances per batch.
    pub(super) kernels: &'static str,
    pub(super) lanes: usize,
    pub(super) frames: u64,
    pub(super) seconds: f64,
    pub(super) update_ns_per_instance: f64,
    /// Joints per processor second of the whole process (absent where not measured): on a
    /// loaded machine, the work without the time given to other programs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) joints_per_cpu_s: Option<f64>,
    /// The old names of the first three figures, kept for one release so that scripts
    /// reading them go on working; removed in the next.
    #[serde(flatten)]
    old_names: OldNames,
}

/// `joints_per_s`, `joints_per_s_per_thread` and `ns_per_joint` under the names they had.
#[derive(Serialize)]
struct OldNames {
    bones_per_s: f64,
    bones_per_s_per_thread: f64,
    ns_per_bone: f64,
}

pub(super) fn report(model: &SkinnedModel, clip: usize, method: Method, m: &Measurement) -> Report {
    Report {
        joints_per_s: m.joints_per_s(),
        joints_per_s_per_thread: m.joints_per_s_per_thread(),
        ns_per_joint: m.ns_per_joint(),
        gb_per_s: m.gb_per_s(),
        threads: m.threads,
        instances: m.instances,
        joints: m.joints,
        model: model.name().to_string(),
        clip: model.clips().get(clip).map_or("", |c| c.name()).to_string(),
        method: match method {
            Method::Crowd => "crowd",
            Method::Textbook => "textbook",
        },
        kernels: vector_isa().name(),
        lanes: vector_isa().lanes(),
        frames: m.frames,
        seconds: m.seconds,
        update_ns_per_instance: m.update_seconds * 1e9 / (m.frames as f64 * m.instances as f64),
        joints_per_cpu_s: m.joints_per_cpu_s(),
        old_names: OldNames {
            bones_per_s: m.joints_per_s(),
            bones_per_s_per_thread: m.joints_per_s_per_thread(),
            ns_per_bone: m.ns_per_joint(),
        },
    }
}
