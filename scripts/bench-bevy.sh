#!/usr/bin/env bash
# throng against bevy, side by side, on one model and one machine: bevy 0.19.1's own
# `many_foxes` stress test (fetched from crates.io, its window size made configurable) and
# `throng run` with the same number of foxes, both presenting to a window of the same size
# under the same X server, in alternating rounds (throng, bevy, throng, bevy, ...). Each run
# is timed the same way: the mean wall-clock interval between frames once its whole crowd is
# drawn and a warm-up has passed. Per fox count it prints throng's frame time over bevy's for
# every round, their median and the worst round, with bevy's MSAA on (the example's 4x) and
# off. docs/benchmarks.md ("Against bevy") explains the method and its caveats.
#
#   scripts/bench-bevy.sh [MODEL]        MODEL: glTF fox, default ../shared/assets/gltf/Fox.glb
#
# Optional environment:
#   MODEL          the model, when no argument is given
#   SIZES          fox counts (default "100 1000 5000")
#   ROUNDS         rounds (default 3)
#   WIDTH, HEIGHT  window size in pixels (default 960 and 540)
#   BEVY_MSAA      bevy variants to run: "on", "off" or "on off" (default "on off")
#   WARMUP         seconds a run goes on after its crowd is drawn before timing (default 5)
#   MEASURE        seconds timed per run, and MIN_FRAMES frames at least (default 10 and 3)
#   THRONG         a throng binary (default: `cargo build --release`, target/release/throng)
#   THRONG_ARGS    more flags for `throng run` (e.g. "--device llvmpipe")
#   XVFB           auto: a private Xvfb when DISPLAY is unset (default); 1: always; 0: never
#   BEVY_SIDE_DIR  where bevy's side is fetched and built (default target/bevy-side)
#   OUT            every run as a JSON line (default BEVY_SIDE_DIR/runs-DATE.jsonl)
#   RUN_TIMEOUT    seconds before one run is given up (default 1200)
#   BEVY_SKIP_DEPS 1: do not check bevy's system packages (you installed them yourself)
#
# The first run builds bevy in release mode once: 20-50 minutes on two cores, a few on a
# workstation. Later runs reuse BEVY_SIDE_DIR.
set -euo pipefail
here=$PWD
cd "$(dirname "$0")/.."
# A path given by the caller is taken from where the script was started; defaults from the
# repository's root.
from_caller() { if [[ $1 == /* ]]; then echo "$1"; else echo "$here/$1"; fi; }

say() { echo "bench-bevy: $*"; }
die() {
  echo "bench-bevy: $*" >&2
  exit 1
}

bevy_version=0.19.1
model=${1:-${MODEL:-}}
if [[ -n $model ]]; then model=$(from_caller "$model"); else model=../shared/assets/gltf/Fox.glb; fi
sizes=${SIZES:-"100 1000 5000"}
rounds=${ROUNDS:-3}
width=${WIDTH:-960}
height=${HEIGHT:-540}
variants=${BEVY_MSAA:-"on off"}
warmup=${WARMUP:-5}
measure=${MEASURE:-10}
min_frames=${MIN_FRAMES:-3}
side=target/bevy-side
[[ -z ${BEVY_SIDE_DIR:-} ]] || side=$(from_caller "$BEVY_SIDE_DIR")
run_timeout=${RUN_TIMEOUT:-1200}
xvfb=${XVFB:-auto}

# ---- arguments ------------------------------------------------------------------------------
is_count() { [[ $1 =~ ^[1-9][0-9]*$ ]]; }
is_seconds() { [[ $1 =~ ^[0-9]+([.][0-9]+)?$ ]]; }
[[ -f $model ]] || die "no model at '$model'. The comparison needs the glTF sample fox (Fox.glb, \
Khronos glTF sample models, CC-BY 4.0), the model bevy's many_foxes loads; pass its path as the \
argument or in MODEL"
for n in $sizes; do is_count "$n" || die "SIZES: '$n' is not a fox count"; done
[[ -n ${sizes// /} ]] || die "SIZES is empty"
is_count "$rounds" || die "ROUNDS: '$rounds' is not a positive whole number"
{ is_count "$width" && is_count "$height"; } || die "WIDTH and HEIGHT must be positive whole numbers"
is_count "$min_frames" || die "MIN_FRAMES: '$min_frames' is not a positive whole number"
{ is_seconds "$warmup" && is_seconds "$measure"; } || die "WARMUP and MEASURE are seconds"
is_count "$run_timeout" || die "RUN_TIMEOUT: '$run_timeout' is not a number of seconds"
for v in $variants; do
  [[ $v == on || $v == off ]] || die "BEVY_MSAA: '$v' is neither on nor off"
done
[[ -n ${variants// /} ]] || die "BEVY_MSAA is empty"
[[ $xvfb == auto || $xvfb == 0 || $xvfb == 1 ]] || die "XVFB is auto, 0 or 1"
for tool in cargo curl tar python3 sha256sum; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is not on PATH"
done
model=$(realpath "$model")
mkdir -p "$side"
side=$(realpath "$side")
stamp=$(date +%Y%m%d-%H%M%S)
out=$side/runs-$stamp.jsonl
[[ -z ${OUT:-} ]] || out=$(from_caller "$OUT")
logs=$side/logs/$stamp

# ---- bevy's system packages (its Linux build needs ALSA, udev, Wayland and xkbcommon headers)
bevy_packages=(g++ pkg-config libx11-dev libasound2-dev libudev-dev libxkbcommon-x11-0
  libxkbcommon-dev libwayland-dev)
if [[ ${BEVY_SKIP_DEPS:-0} != 1 ]] && command -v dpkg-query >/dev/null 2>&1; then
  missing=()
  for p in "${bevy_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [[ ${#missing[@]} -gt 0 ]]; then
    if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
      die "bevy needs these system packages: ${missing[*]} (sudo apt-get install -y" \
        "${missing[*]}), or BEVY_SKIP_DEPS=1 if you have their equivalents"
    fi
    say "installing bevy's system packages: ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
fi

# ---- throng's side ---------------------------------------------------------------------------
if [[ -n ${THRONG:-} ]]; then
  if [[ $THRONG == */* ]]; then throng=$(from_caller "$THRONG"); else throng=$(command -v "$THRONG" || true); fi
  [[ -n $throng && -f $throng && -x $throng ]] || die "THRONG='$THRONG' is not an executable"
else
  scripts/ensure-deps.sh
  say "building throng (release)"
  cargo build --release --locked
  throng=$PWD/target/release/throng
fi

# ---- bevy's side: its own example from the published crate, built once ----------------------
crate=$side/bevy-$bevy_version.crate
if [[ ! -f $crate ]]; then
  say "fetching bevy $bevy_version from crates.io"
  curl -fsSL --retry 3 -o "$crate.part" \
    "https://static.crates.io/crates/bevy/bevy-$bevy_version.crate"
  mv "$crate.part" "$crate"
fi
# The crate's checksum as the registry's index records it.
if want=$(curl -fsSL --retry 3 https://index.crates.io/be/vy/bevy |
  python3 -c 'import json, sys
for line in sys.stdin:
    entry = json.loads(line)
    if entry["vers"] == sys.argv[1]:
        print(entry["cksum"])' "$bevy_version") && [[ -n $want ]]; then
  got=$(sha256sum "$crate" | cut -d' ' -f1)
  [[ $got == "$want" ]] || die "$crate: sha256 $got, but crates.io lists $want; delete it and run again"
else
  say "warning: could not read bevy $bevy_version's checksum from the crates.io index; using the crate unchecked"
fi

proj=$side/many_foxes
example=bevy-$bevy_version/examples/stress_tests
mkdir -p "$proj/src" "$proj/assets/models/animated" "$side/unpacked"
tar -xzf "$crate" -C "$side/unpacked" "$example/many_foxes.rs" "$example/warning_string.txt" ||
  die "bevy $bevy_version's crate has no $example/many_foxes.rs"

# Writes $2 into $1 only when it differs, so that cargo does not rebuild for nothing.
put() {
  if ! cmp -s "$2" "$1"; then mv "$2" "$1"; else rm -f "$2"; fi
}

cat >"$proj/Cargo.toml.new" <<EOF
# Written by throng's scripts/bench-bevy.sh: bevy's many_foxes example as a package of its own.
[package]
name = "many_foxes_bench"
version = "0.0.0"
edition = "2024"
publish = false

[[bin]]
name = "many_foxes"
path = "src/main.rs"

[dependencies]
bevy = "=$bevy_version"
argh = "0.1.12"

[workspace]
EOF
put "$proj/Cargo.toml" "$proj/Cargo.toml.new"
cp "$side/unpacked/$example/warning_string.txt" "$proj/src/warning_string.new"
put "$proj/src/warning_string.txt" "$proj/src/warning_string.new"

# What the example gets: the window size from BENCH_WIDTH / BENCH_HEIGHT, and a plugin of
# ours (src/throng_bench.rs) that switches MSAA off when asked, names the device, times the
# frames and exits.
cat >"$proj/src/throng_bench.new" <<'RUST'
// Written by throng's scripts/bench-bevy.sh and added to bevy's many_foxes example (main.rs,
// bevy's own code but for two edits: the window size and `.add_plugins(BenchPlugin)`).
//
// BENCH_WIDTH and BENCH_HEIGHT set the window size; BENCH_MSAA=off turns the camera's
// multisampling off. When every fox plays its animation and no render pipeline is still
// queued or compiling, the run goes on for BENCH_WARMUP seconds, then adds up the real-time
// clock's frame intervals (the clock FrameTimeDiagnosticsPlugin reads) for BENCH_MEASURE
// seconds and at least BENCH_MIN_FRAMES frames, prints one THRONG_BENCH_RESULT line and exits.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use bevy::app::AppExit;
use bevy::prelude::*;
use bevy::render::render_resource::{CachedPipelineState, PipelineCache};
use bevy::render::renderer::RenderAdapterInfo;
use bevy::render::view::Msaa;
use bevy::render::{Render, RenderApp};
use bevy::time::Real;
use bevy::window::PrimaryWindow;

fn setting<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

pub fn width() -> u32 {
    setting("BENCH_WIDTH", 1920)
}

pub fn height() -> u32 {
    setting("BENCH_HEIGHT", 1080)
}

/// Written by the render world, read by the main one: pipelines not yet compiled.
#[derive(Resource, Clone, Default)]
struct Pipelines {
    seen: Arc<AtomicBool>,
    busy: Arc<AtomicUsize>,
}

#[derive(Resource)]
struct Meter {
    watching: bool,
    msaa_off: bool,
    warmup: f64,
    measure: f64,
    min_frames: u32,
    ready_timeout: f64,
    device_said: bool,
    playing_since: Option<f64>,
    calm_since: Option<f64>,
    calm_frames: u32,
    measuring: bool,
    frames: u32,
    seconds: f64,
    shortest: f64,
    longest: f64,
    busy_frames: u32,
    done: bool,
}

pub struct BenchPlugin;

impl Plugin for BenchPlugin {
    fn build(&self, app: &mut App) {
        let pipelines = Pipelines::default();
        let watching = match app.get_sub_app_mut(RenderApp) {
            Some(render_app) => {
                render_app.insert_resource(pipelines.clone());
                render_app.add_systems(Render, watch_pipelines);
                true
            }
            None => false,
        };
        app.insert_resource(pipelines)
            .insert_resource(Meter {
                watching,
                msaa_off: std::env::var("BENCH_MSAA").is_ok_and(|v| v == "off"),
                warmup: setting("BENCH_WARMUP", 5.0),
                measure: setting("BENCH_MEASURE", 10.0),
                min_frames: setting("BENCH_MIN_FRAMES", 3u32).max(1),
                ready_timeout: setting("BENCH_READY_TIMEOUT", 900.0),
                device_said: false,
                playing_since: None,
                calm_since: None,
                calm_frames: 0,
                measuring: false,
                frames: 0,
                seconds: 0.0,
                shortest: f64::INFINITY,
                longest: 0.0,
                busy_frames: 0,
                done: false,
            })
            .add_systems(Update, (msaa_off, say_device, measure));
    }
}

fn watch_pipelines(cache: Option<Res<PipelineCache>>, pipelines: Res<Pipelines>) {
    let Some(cache) = cache else {
        return;
    };
    let unfinished = cache
        .pipelines()
        .filter(|p| {
            matches!(
                p.state,
                CachedPipelineState::Queued | CachedPipelineState::Creating(_)
            )
        })
        .count();
    let busy = unfinished.max(cache.waiting_pipelines().count());
    pipelines.busy.store(busy, Ordering::Relaxed);
    pipelines.seen.store(true, Ordering::Relaxed);
}

fn msaa_off(meter: Res<Meter>, mut cameras: Query<&mut Msaa, With<Camera3d>>) {
    if meter.msaa_off {
        for mut msaa in &mut cameras {
            if *msaa != Msaa::Off {
                *msaa = Msaa::Off;
            }
        }
    }
}

fn say_device(info: Option<Res<RenderAdapterInfo>>, mut meter: ResMut<Meter>) {
    if meter.device_said {
        return;
    }
    if let Some(info) = info {
        println!(
            "THRONG_BENCH_DEVICE {} ({:?}, {:?}, driver {} {})",
            info.name, info.backend, info.device_type, info.driver, info.driver_info
        );
        meter.device_said = true;
    }
}

#[allow(clippy::too_many_arguments)]
fn measure(
    time: Res<Time<Real>>,
    foxes: Res<super::Foxes>,
    players: Query<&AnimationPlayer>,
    cameras: Query<&Msaa, With<Camera3d>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    pipelines: Res<Pipelines>,
    mut meter: ResMut<Meter>,
    mut exit: MessageWriter<AppExit>,
) {
    let m = &mut *meter;
    if m.done {
        return;
    }
    let now = time.elapsed_secs_f64();
    let busy = if !m.watching {
        0
    } else if pipelines.seen.load(Ordering::Relaxed) {
        pipelines.busy.load(Ordering::Relaxed)
    } else {
        usize::MAX
    };
    if m.measuring {
        let dt = time.delta_secs_f64();
        m.frames += 1;
        m.seconds += dt;
        m.shortest = m.shortest.min(dt);
        m.longest = m.longest.max(dt);
        if busy > 0 {
            m.busy_frames += 1;
        }
        if m.seconds >= m.measure && m.frames >= m.min_frames {
            let samples = cameras.iter().next().map_or(0, |msaa| msaa.samples());
            let (w, h) = windows
                .iter()
                .next()
                .map_or((0, 0), |w| (w.physical_width(), w.physical_height()));
            println!(
                "THRONG_BENCH_RESULT foxes={} frames={} seconds={:.4} mean_ms={:.4} \
                 min_ms={:.4} max_ms={:.4} msaa={} width={} height={} playing_s={:.2} \
                 compiling_frames={}",
                foxes.count,
                m.frames,
                m.seconds,
                1e3 * m.seconds / f64::from(m.frames),
                1e3 * m.shortest,
                1e3 * m.longest,
                samples,
                w,
                h,
                m.playing_since.unwrap_or(0.0),
                m.busy_frames
            );
            m.done = true;
            exit.write(AppExit::Success);
        }
        return;
    }
    let playing = players
        .iter()
        .filter(|p| p.playing_animations().next().is_some())
        .count();
    let all_playing = playing >= foxes.count;
    if all_playing && m.playing_since.is_none() {
        m.playing_since = Some(now);
    }
    if all_playing && busy == 0 {
        let since = *m.calm_since.get_or_insert(now);
        m.calm_frames += 1;
        if now - since >= m.warmup && m.calm_frames >= 3 {
            m.measuring = true;
        }
    } else {
        m.calm_since = None;
        m.calm_frames = 0;
        if now > m.ready_timeout {
            let busy = if busy == usize::MAX {
                String::from("unknown")
            } else {
                busy.to_string()
            };
            println!(
                "THRONG_BENCH_ERROR not ready after {:.0} s: {} of {} foxes playing, \
                 pipelines compiling: {}",
                now, playing, foxes.count, busy
            );
            m.done = true;
            exit.write(AppExit::error());
        }
    }
}
RUST
put "$proj/src/throng_bench.rs" "$proj/src/throng_bench.new"

# The two edits to the example; each must match exactly once, or bevy's code has moved on.
python3 - "$side/unpacked/$example/many_foxes.rs" "$proj/src/main.rs.new" <<'PY'
import sys
source = open(sys.argv[1], encoding="utf-8").read()
edits = [
    ("WindowResolution::new(1920, 1080)",
     "WindowResolution::new(throng_bench::width(), throng_bench::height())"),
    (".add_systems(Startup, setup)",
     ".add_plugins(throng_bench::BenchPlugin)\n        .add_systems(Startup, setup)"),
]
for old, new in edits:
    if source.count(old) != 1:
        sys.exit(f"bench-bevy: many_foxes.rs has {source.count(old)} copies of {old!r}, not one")
    source = source.replace(old, new)
source += "\n// Added by throng's scripts/bench-bevy.sh.\nmod throng_bench;\n"
open(sys.argv[2], "w", encoding="utf-8").write(source)
PY
put "$proj/src/main.rs" "$proj/src/main.rs.new"
cp "$model" "$proj/assets/models/animated/Fox.new"
put "$proj/assets/models/animated/Fox.glb" "$proj/assets/models/animated/Fox.new"

bevy_bin=$side/target/release/many_foxes
say "building bevy $bevy_version's many_foxes (release; the first build takes 20-50 minutes on two cores)"
build_start=$(date +%s)
CARGO_TARGET_DIR=$side/target cargo build --release --manifest-path "$proj/Cargo.toml"
say "bevy side built or up to date in $(($(date +%s) - build_start)) s"
[[ -x $bevy_bin ]] || die "no $bevy_bin after the build"

# ---- the display: a private Xvfb unless there is one to use ----------------------------------
xvfb_pid=
stop_xvfb() {
  if [[ -n $xvfb_pid ]]; then
    kill "$xvfb_pid" 2>/dev/null || true
    wait "$xvfb_pid" 2>/dev/null || true
    xvfb_pid=
  fi
}
trap stop_xvfb EXIT
start_xvfb() {
  command -v Xvfb >/dev/null 2>&1 || die "Xvfb is not installed (apt-get install xvfb)"
  local first=$((100 + $$ % 400)) n i
  local screen_w=$((width > 1216 ? width + 64 : 1280)) screen_h=$((height > 960 ? height + 64 : 1024))
  for ((n = first; n < first + 50; n++)); do
    [[ -e /tmp/.X11-unix/X$n || -e /tmp/.X$n-lock ]] && continue
    Xvfb ":$n" -screen 0 "${screen_w}x${screen_h}x24" -nolisten tcp >/dev/null 2>&1 &
    xvfb_pid=$!
    for ((i = 0; i < 100; i++)); do
      if [[ -e /tmp/.X11-unix/X$n ]]; then
        export DISPLAY=:$n
        return 0
      fi
      kill -0 "$xvfb_pid" 2>/dev/null || break
      sleep 0.1
    done
    stop_xvfb # lost a race for this display, or it did not start: try the next one
  done
  die "could not start Xvfb on any display from :$first"
}
if [[ $xvfb == 1 || ($xvfb == auto && -z ${DISPLAY:-}) ]]; then
  start_xvfb
  display_note="a private Xvfb on $DISPLAY"
else
  [[ -n ${DISPLAY:-} ]] || die "XVFB=0 but DISPLAY is not set"
  display_note="the X server on $DISPLAY"
fi
unset WAYLAND_DISPLAY # both sides on the same X server

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
say "machine: ${cpu:-unknown CPU}, $(nproc) cores; windows ${width}x${height} on $display_note"
say "throng: $throng (this checkout: $(git describe --always --dirty 2>/dev/null || echo "not a git checkout"))"
say "bevy: $bevy_version many_foxes, $bevy_bin"
say "model: $model; foxes: $sizes; rounds: $rounds; bevy MSAA: $variants"
say "each run: warm-up ${warmup} s after the crowd is drawn, then ${measure} s and ${min_frames} frames at least"
say "every run goes to $out; logs in $logs"
mkdir -p "$logs"

BB_THRONG=$throng BB_BEVY=$bevy_bin BB_MODEL=$model BB_SIZES=$sizes BB_ROUNDS=$rounds \
  BB_WIDTH=$width BB_HEIGHT=$height BB_MSAA=$variants BB_WARMUP=$warmup BB_MEASURE=$measure \
  BB_MIN_FRAMES=$min_frames BB_TIMEOUT=$run_timeout BB_OUT=$out BB_LOGS=$logs \
  BB_ASSET_ROOT=$proj BB_THRONG_ARGS=${THRONG_ARGS:-} python3 - <<'PY'
"""Runs the rounds, times both sides the same way, prints the table."""
import json
import os
import queue
import re
import shlex
import signal
import statistics
import subprocess
import sys
import threading
import time

E = os.environ
THRONG, BEVY, MODEL = E["BB_THRONG"], E["BB_BEVY"], E["BB_MODEL"]
SIZES = [int(s) for s in E["BB_SIZES"].split()]
ROUNDS = int(E["BB_ROUNDS"])
WIDTH, HEIGHT = int(E["BB_WIDTH"]), int(E["BB_HEIGHT"])
VARIANTS = E["BB_MSAA"].split()
WARMUP, MEASURE = float(E["BB_WARMUP"]), float(E["BB_MEASURE"])
MIN_FRAMES = int(E["BB_MIN_FRAMES"])
TIMEOUT = float(E["BB_TIMEOUT"])
LOGS = E["BB_LOGS"]
THRONG_ARGS = shlex.split(E.get("BB_THRONG_ARGS", ""))
BASE_ENV = {k: v for k, v in E.items() if not k.startswith("BB_")}

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# throng's start-up line and its once-a-second statistics line (src/cli/run/window.rs, stats.rs)
OPENED = re.compile(r"^rendering (\d+) instances of (.*) on (.*) in a window")
# The once-a-second line: fps, cpu anim, (wait, since throng reports it apart,) gpu, frame.
STATS = re.compile(r"^\s*([0-9.]+) fps\s+cpu anim\s+([0-9.]+) ms\s+(?:wait\s+[0-9.]+ ms\s+)?"
                   r"gpu\s+(\S+) ms\s+frame\s+([0-9.]+) ms")
# what the plugin added to bevy's example prints
RESULT = re.compile(r"THRONG_BENCH_RESULT (.*)$")
DEVICE = re.compile(r"THRONG_BENCH_DEVICE (.*)$")
FAILED = re.compile(r"THRONG_BENCH_ERROR (.*)$")


LIVE = set()  # children still running, ended if the script is interrupted


class Child:
    """A process (in its own session) whose output lines come with the time they were read."""

    def __init__(self, cmd, env, log_path):
        LIVE.add(self)
        self.log = open(log_path, "w", encoding="utf-8")
        self.log.write("$ " + shlex.join(cmd) + "\n")
        self.proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for raw in iter(self.proc.stdout.readline, b""):
            stamp = time.monotonic()
            line = ANSI.sub("", raw.decode("utf-8", "replace")).rstrip("\r\n")
            self.log.write(line + "\n")
            self.lines.put((stamp, line))
        self.lines.put((time.monotonic(), None))

    def each_line(self, deadline):
        """(time, line) until the output ends; TimeoutError past the deadline."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            try:
                stamp, line = self.lines.get(timeout=min(left, 1.0))
            except queue.Empty:
                continue
            if line is None:
                return
            yield stamp, line

    def send(self, sig):
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass

    def finish(self, grace):
        try:
            code = self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.send(signal.SIGKILL)
            code = self.proc.wait()
        self.reader.join(timeout=5)
        self.log.close()
        LIVE.discard(self)
        return code


def tail(path, lines=6):
    with open(path, encoding="utf-8", errors="replace") as f:
        return " | ".join(f.read().splitlines()[-lines:])


def run_throng(foxes, msaa, log_path):
    """`throng run` in a window, multisampling as bevy does in the paired run (4x, or off);
    its frame interval from the once-a-second lines: each line
    ends a window of whole frames whose rate it prints, so the frames between two lines are
    the rate times the time between them, rounded."""
    stats_json = log_path + ".stats.json"
    if os.path.exists(stats_json):
        os.remove(stats_json)
    cmd = [THRONG, "run", MODEL, "--instances", str(foxes), "--width", str(WIDTH),
           "--height", str(HEIGHT), "--layout", "rings", "--present-mode", "immediate",
           "--msaa", "4" if msaa == "on" else "1",
           "--stats-json", stats_json] + THRONG_ARGS
    res = {"side": "throng", "foxes": foxes, "msaa": msaa, "command": cmd}
    child = Child(cmd, BASE_ENV, log_path)
    opened = mark = last = None
    frames, work, asked = 0, 0.0, False
    try:
        for stamp, line in child.each_line(time.monotonic() + TIMEOUT):
            m = OPENED.match(line)
            if m:
                opened, res["device"] = stamp, m.group(3)
                continue
            m = STATS.match(line)
            if not m or opened is None or asked:
                continue
            if mark is None:
                if stamp - opened >= WARMUP:
                    mark = last = stamp
                continue
            n = max(1, round(float(m.group(1)) * (stamp - last)))
            frames += n
            work += n * float(m.group(4))
            last = stamp
            if last - mark >= MEASURE and frames >= MIN_FRAMES:
                child.send(signal.SIGINT)  # throng stops after this frame, as on Ctrl-C
                asked = True
    except TimeoutError:
        res["error"] = f"no result within {TIMEOUT:.0f} s"
        child.send(signal.SIGINT)
    code = child.finish(60)
    if frames and asked:
        res.update(ms=1e3 * (last - mark) / frames, frames=frames,
                   seconds=last - mark, work_ms=work / frames)
    elif "error" not in res:
        res["error"] = f"exit {code} before {MEASURE:g} s were timed: {tail(log_path)}"
    try:
        with open(stats_json, encoding="utf-8") as f:
            doc = json.load(f)
        res.update(device=doc.get("device", res.get("device")),
                   width=doc.get("width"), height=doc.get("height"))
    except (OSError, ValueError):
        pass
    return res


def run_bevy(foxes, msaa, log_path):
    """bevy's many_foxes with the added plugin, which times its frames itself."""
    env = dict(BASE_ENV, BENCH_WIDTH=str(WIDTH), BENCH_HEIGHT=str(HEIGHT),
               BENCH_WARMUP=str(WARMUP), BENCH_MEASURE=str(MEASURE),
               BENCH_MIN_FRAMES=str(MIN_FRAMES), BENCH_READY_TIMEOUT=str(0.8 * TIMEOUT),
               BEVY_ASSET_ROOT=E["BB_ASSET_ROOT"])
    env.setdefault("WGPU_BACKEND", "vulkan")  # the API throng uses
    if msaa == "off":
        env["BENCH_MSAA"] = "off"
    else:
        env.pop("BENCH_MSAA", None)
    cmd = [BEVY, "--count", str(foxes)]
    res = {"side": "bevy", "foxes": foxes, "msaa": msaa, "command": cmd}
    child = Child(cmd, env, log_path)
    result = None
    try:
        for _, line in child.each_line(time.monotonic() + TIMEOUT):
            if m := RESULT.search(line):
                result = dict(kv.split("=", 1) for kv in m.group(1).split())
            elif m := DEVICE.search(line):
                # "NAME (BACKEND, TYPE, driver ...)": the name as Vulkan gives it, as throng's
                named = re.match(r"^(.*) \((\w+), (\w+), driver (.*)\)$", m.group(1))
                res["device"] = named.group(1) if named else m.group(1)
                res["device_detail"] = m.group(1)
            elif m := FAILED.search(line):
                res["error"] = m.group(1)
    except TimeoutError:
        res["error"] = f"no result within {TIMEOUT:.0f} s"
        child.send(signal.SIGTERM)
    code = child.finish(30)
    if result:
        res.update(ms=float(result["mean_ms"]), frames=int(result["frames"]),
                   seconds=float(result["seconds"]), min_ms=float(result["min_ms"]),
                   max_ms=float(result["max_ms"]), samples=int(result["msaa"]),
                   width=int(result["width"]), height=int(result["height"]),
                   playing_s=float(result["playing_s"]),
                   compiling_frames=int(result["compiling_frames"]))
    elif "error" not in res:
        res["error"] = f"exit {code} without a result: {tail(log_path)}"
    return res


def ms(x):
    if x is None:
        return "-"
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def note(res):
    if "error" in res:
        return f"FAILED ({res['error']})"
    extra = f"{res['frames']} frames"
    if res.get("width") and (res["width"], res["height"]) != (WIDTH, HEIGHT):
        extra += f", drawn at {res['width']}x{res['height']}!"
    if res.get("compiling_frames"):
        extra += f", {res['compiling_frames']} with pipelines compiling"
    return f"{ms(res['ms'])} ms ({extra})"


records = []
devices = {"throng": set(), "bevy": set()}


def measure_all():
    with open(E["BB_OUT"], "a", encoding="utf-8") as out:
        measure_rounds(out)


def measure_rounds(out):
    for rnd in range(1, ROUNDS + 1):
        for foxes in SIZES:
            for msaa in VARIANTS:
                stem = os.path.join(LOGS, f"r{rnd}-{foxes}-msaa-{msaa}")
                t = run_throng(foxes, msaa, stem + "-throng.log")
                b = run_bevy(foxes, msaa, stem + "-bevy.log")
                for r in (t, b):
                    if r.get("device"):
                        devices[r["side"]].add(r["device"])
                ratio = t["ms"] / b["ms"] if "ms" in t and "ms" in b else None
                rec = {"round": rnd, "foxes": foxes, "bevy_msaa": msaa, "model": MODEL,
                       "width": WIDTH, "height": HEIGHT, "throng": t, "bevy": b,
                       "ratio": ratio}
                records.append(rec)
                out.write(json.dumps(rec) + "\n")
                out.flush()
                shown = f"{ratio:.3f}" if ratio is not None else "-"
                print(f"round {rnd}/{ROUNDS}, {foxes} foxes, bevy MSAA {msaa}: "
                      f"throng {note(t)}, bevy {note(b)}; throng/bevy {shown}", flush=True)


try:
    measure_all()
except KeyboardInterrupt:
    for child in list(LIVE):
        child.send(signal.SIGKILL)
    print("\ninterrupted; the runs so far are in " + E["BB_OUT"], file=sys.stderr)
    sys.exit(130)

print()
print(f"{os.path.basename(MODEL)} at {WIDTH}x{HEIGHT}, {ROUNDS} rounds: throng's frame time "
      "divided by bevy's, each pair measured one after the other (below 1: throng is faster)")
details = sorted({r["bevy"]["device_detail"] for r in records if "device_detail" in r["bevy"]})
print(f"  throng device: {'; '.join(sorted(devices['throng'])) or 'not reported'}")
print(f"  bevy device:   {'; '.join(details) or 'not reported'}")
if any("llvmpipe" in d.lower() for s in devices.values() for d in s):
    print("  llvmpipe is lavapipe, Mesa's software rasterizer: the frames are drawn by the CPU,\n"
          "  on the same cores as each program's own threads; these are not GPU figures.")
if len(devices["throng"] | devices["bevy"]) > 1:
    print("  NOTE: the two sides did not report one and the same device: the comparison is not\n"
          "  on one device (THRONG_ARGS=--device NAME picks throng's).")
failed = 0
for msaa in VARIANTS:
    label = "on (4x, the example's default)" if msaa == "on" else "off"
    print()
    print(f"bevy MSAA {label}")
    print("| foxes | throng ms, median | bevy ms, median | throng / bevy, each round | median | worst round |")
    print("| ---: | ---: | ---: | --- | ---: | ---: |")
    for foxes in SIZES:
        rows = [r for r in records if r["foxes"] == foxes and r["bevy_msaa"] == msaa]
        ratios = [r["ratio"] for r in rows if r["ratio"] is not None]
        failed += len(rows) - len(ratios)
        t_ms = [r["throng"]["ms"] for r in rows if "ms" in r["throng"]]
        b_ms = [r["bevy"]["ms"] for r in rows if "ms" in r["bevy"]]
        each = ", ".join(f"{r['ratio']:.2f}" if r["ratio"] is not None else "failed" for r in rows)
        med = f"{statistics.median(ratios):.2f}" if ratios else "-"
        worst = f"{max(ratios):.2f}" if ratios else "-"
        print(f"| {foxes:,} | {ms(statistics.median(t_ms)) if t_ms else '-'} | "
              f"{ms(statistics.median(b_ms)) if b_ms else '-'} | {each} | {med} | {worst} |")
if failed:
    print(f"\n{failed} pair(s) failed; their logs are in {LOGS}")
sys.exit(1 if failed == len(records) else 0)
PY
