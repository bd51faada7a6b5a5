//! `throng run` in a real window: under a private Xvfb it presents frames, survives a
//! resize, and quits cleanly on Escape, with the validation layers silent.
//!
//! Needs `Xvfb` and `xdotool` (scripts/ensure-deps.sh installs both) and a Vulkan device
//! (lavapipe). Without them the test prints why and skips, except under `CI=true`, where it
//! fails. Nothing here depends on how fast frames come: each step waits for what the program
//! shows (a statistics line printed after that step, the flying eye moved), with a bound far
//! above any machine's time, and the guards kill the program and the X server on any failure.

#[path = "common/ci.rs"]
mod ci;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The size the window is resized to.
const RESIZED: (u32, u32) = (400, 300);

/// Kills and reaps a child process when dropped (on success or when a test panics).
struct Guard {
    what: &'static str,
    child: Option<Child>,
    /// Ask politely first (SIGTERM), so an X server removes its socket and lock file.
    terminate: bool,
}

impl Guard {
    fn new(what: &'static str, child: Child) -> Self {
        Self {
            what,
            child: Some(child),
            terminate: false,
        }
    }

    fn child(&mut self) -> &mut Child {
        self.child.as_mut().expect("the child is still guarded")
    }

    /// Waits up to `limit` for the child to exit; its status, or `None` on time-out.
    fn wait_for_exit(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + limit;
        loop {
            match self.child().try_wait() {
                Ok(Some(status)) => {
                    self.child = None;
                    return Some(status);
                }
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(50)),
                Ok(None) => return None,
                Err(e) => panic!("waiting for {}: {e}", self.what),
            }
        }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if self.child.is_none() {
            return;
        }
        if self.terminate
            && let Ok(pid) = libc::pid_t::try_from(self.child().id())
        {
            // SAFETY: signalling our own child, which has not been reaped yet.
            unsafe { libc::kill(pid, libc::SIGTERM) };
            if self.wait_for_exit(Duration::from_secs(5)).is_some() {
                return;
            }
        }
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Whether `program` is on `PATH`.
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// Skips (or, under `CI=true`, fails) when something the test needs is missing.
fn missing(what: &str) -> bool {
    if ci::under_ci() {
        panic!("{what}; CI=true requires it");
    }
    eprintln!("skipped: {what}; CI=true makes this a failure");
    true
}

/// Runs a short helper command with a time limit; its output.
fn run_bounded(mut cmd: Command, limit: Duration) -> Output {
    let what = format!("{cmd:?}");
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut guard = Guard::new("a helper command", child);
    let mut stdout = guard.child().stdout.take().expect("piped stdout");
    let mut stderr = guard.child().stderr.take().expect("piped stderr");
    let out_reader = thread::spawn(move || {
        let mut s = Vec::new();
        let _ = stdout.read_to_end(&mut s);
        s
    });
    let err_reader = thread::spawn(move || {
        let mut s = Vec::new();
        let _ = stderr.read_to_end(&mut s);
        s
    });
    let status = guard
        .wait_for_exit(limit)
        .unwrap_or_else(|| panic!("{what} did not finish within {limit:?}"));
    Output {
        status,
        stdout: out_reader.join().expect("stdout reader"),
        stderr: err_reader.join().expect("stderr reader"),
    }
}

fn xdotool(display: &str, args: &[&str]) -> String {
    let mut cmd = Command::new("xdotool");
    cmd.args(args).env("DISPLAY", display);
    let out = run_bounded(cmd, Duration::from_secs(10));
    assert!(
        out.status.success(),
        "xdotool {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The window tests run one at a time: two X servers started at once in one process race
/// for the same display number.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A private X server on the first free display from a number derived from the process id.
fn start_xvfb() -> (Guard, String) {
    let first = 100 + std::process::id() % 400;
    for n in first..first + 50 {
        let socket = PathBuf::from(format!("/tmp/.X11-unix/X{n}"));
        let lock = PathBuf::from(format!("/tmp/.X{n}-lock"));
        if socket.exists() || lock.exists() {
            continue;
        }
        let child = Command::new("Xvfb")
            .args([
                &format!(":{n}"),
                "-screen",
                "0",
                "1024x768x24",
                "-nolisten",
                "tcp",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting Xvfb");
        let mut guard = Guard::new("Xvfb", child);
        guard.terminate = true;
        let deadline = Instant::now() + Duration::from_secs(10);
        while !socket.exists() {
            if let Ok(Some(status)) = guard.child().try_wait() {
                // Lost a race for this display: try the next one.
                guard.child = None;
                eprintln!("Xvfb :{n} exited ({status}); trying another display");
                break;
            }
            assert!(
                Instant::now() < deadline,
                "Xvfb :{n} did not create {} within 10 s",
                socket.display()
            );
            thread::sleep(Duration::from_millis(50));
        }
        if guard.child.is_some() {
            return (guard, format!(":{n}"));
        }
    }
    panic!("no free X display from :{first}");
}

/// Forwards the lines of a child's stdout.
fn line_reader(stdout: impl Read + Send + 'static) -> (Receiver<String>, JoinHandle<Vec<String>>) {
    let (tx, rx) = mpsc::channel();
    let handle = thread::spawn(move || {
        let mut all = Vec::new();
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            all.push(line.clone());
            let _ = tx.send(line);
        }
        all
    });
    (rx, handle)
}

/// Waits for a line satisfying `pred`, for at most `limit`; why not, otherwise.
fn wait_for_line(
    rx: &Receiver<String>,
    limit: Duration,
    what: &str,
    pred: impl Fn(&str) -> bool,
) -> Result<String, String> {
    let deadline = Instant::now() + limit;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) if pred(&line) => return Ok(line),
            Ok(_) => {}
            Err(RecvTimeoutError::Timeout) => return Err(format!("no {what} within {limit:?}")),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(format!("the program closed its output before {what}"));
            }
        }
    }
}

/// Fails the test with `why`, the program's exit status and everything it wrote to stderr.
fn fail_with_stderr(throng: &mut Guard, stderr: JoinHandle<String>, why: &str) -> ! {
    let status = throng.wait_for_exit(Duration::from_secs(5));
    if status.is_none() {
        // Still running: stop it so its stderr closes.
        if let Some(mut child) = throng.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
    let err = stderr.join().unwrap_or_default();
    panic!("{why}; throng exit status {status:?}; stderr:\n{err}");
}

/// The once-a-second statistics line: "  32.2 fps  cpu anim ...".
fn is_fps_line(line: &str) -> bool {
    line.contains(" fps ") && !line.starts_with("overall:")
}

/// `scripts/bench-bevy.sh` times `throng run` by reading its first line and its once-a-second
/// lines with patterns of its own (`OPENED`, `STATS`): those patterns, taken from the script
/// and run by Python as the script runs them, must read the lines this build prints, or the
/// comparison with bevy times nothing (as when the line gained its `wait` figure).
fn assert_bench_bevy_reads(opened: &str, stats: &str) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bench-bevy.sh");
    let program = r#"
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
names = {"re": re}
for name in ("OPENED", "STATS"):
    start = text.index(name + " = re.compile(")
    exec(text[start:text.index(")\n", start) + 1], names)
opened = names["OPENED"].match(sys.argv[2])
stats = names["STATS"].match(sys.argv[3])
print("opened:", opened and opened.groups(), "stats:", stats and stats.groups())
sys.exit(0 if opened and stats and float(stats.group(4)) > 0 else 1)
"#;
    let out = Command::new("python3")
        .arg("-c")
        .arg(program)
        .arg(&script)
        .arg(opened)
        .arg(stats)
        .output()
        .expect("python3 (the bench script's own interpreter)");
    assert!(
        out.status.success(),
        "scripts/bench-bevy.sh cannot read throng's lines:\n  {opened}\n  {stats}\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The eye of fly mode's statistics line: "    flying: eye at 2.067 2.467 3.081".
fn flying_eye(line: &str) -> Option<[f64; 3]> {
    let (_, rest) = line.split_once("flying: eye at ")?;
    let v: Vec<f64> = rest
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    <[f64; 3]>::try_from(v).ok()
}

/// Does `act` until the program prints a line satisfying `shown`; returns that line and the
/// number of tries. Input the X server passes on can be lost (with no window manager, focus
/// is only where it was last set), so an action the program has not acknowledged after three
/// statistics lines (three seconds of frames) is done again, up to `tries` times, each try
/// bounded by [`PATIENCE`].
fn until_shown(
    rx: &Receiver<String>,
    what: &str,
    tries: usize,
    mut act: impl FnMut(),
    shown: impl Fn(&str) -> bool,
) -> Result<(String, usize), String> {
    let mut stats = 0;
    for attempt in 1..=tries {
        act();
        let deadline = Instant::now() + PATIENCE;
        let mut lines_this_try = 0;
        while lines_this_try < 3 {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) if shown(&line) => return Ok((line, attempt)),
                Ok(line) => {
                    if is_fps_line(&line) {
                        lines_this_try += 1;
                        stats += 1;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no {what} within {PATIENCE:?} of try {attempt}"));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("the program closed its output before {what}"));
                }
            }
        }
    }
    Err(format!(
        "no {what} after {tries} tries ({stats} statistics lines came meanwhile)"
    ))
}

/// Throws away the lines read so far: what follows was printed after this call.
fn drain(rx: &Receiver<String>) {
    while rx.try_recv().is_ok() {}
}

/// For a test that types into a window: one at a time, a private X server and its display;
/// `None` (the test skips) when Xvfb or xdotool is missing outside CI.
fn xvfb_with_xdotool() -> Option<(std::sync::MutexGuard<'static, ()>, Guard, String)> {
    if !on_path("Xvfb") && missing("Xvfb is not installed (apt-get install xvfb)") {
        return None;
    }
    if !on_path("xdotool") && missing("xdotool is not installed (apt-get install xdotool)") {
        return None;
    }
    let serial = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let (xvfb, display) = start_xvfb();
    Some((serial, xvfb, display))
}

/// A fresh folder for one test's files (`target/tmp/gpu_window/NAME-PID`).
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("gpu_window")
        .join(format!("{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Starts `throng run` with `args` in a window on `display`, in `dir`, its output read line
/// by line: the guard, the lines as they come, and the readers of all of stdout and stderr.
fn start_window_run(
    display: &str,
    dir: &Path,
    args: &[&str],
) -> (
    Guard,
    Receiver<String>,
    JoinHandle<Vec<String>>,
    JoinHandle<String>,
) {
    let child = Command::new(env!("CARGO_BIN_EXE_throng"))
        .arg("run")
        .args(args)
        .current_dir(dir)
        .env("DISPLAY", display)
        .env_remove("WAYLAND_DISPLAY")
        // Lavapipe rasterizes on the calling thread alone: its rasterizer threads meet at a
        // barrier every draw, and on an oversubscribed machine one descheduled thread holds
        // the others for seconds (frames of 2 to 9 s were seen beside other builds). These
        // frames are tiny; the window, not the rasterizer, is under test.
        .env("LP_NUM_THREADS", "0")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting throng");
    let mut throng = Guard::new("throng", child);
    let (lines, stdout_reader) = line_reader(throng.child().stdout.take().expect("piped stdout"));
    let mut stderr = throng.child().stderr.take().expect("piped stderr");
    let stderr_reader = thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    (throng, lines, stdout_reader, stderr_reader)
}

/// The run's first line, with the stderr reader handed back; `None` (the test skips) when
/// the machine has no Vulkan device and may lack one. Panics with the program's stderr when
/// nothing came.
fn first_line(
    throng: &mut Guard,
    lines: &Receiver<String>,
    stderr_reader: JoinHandle<String>,
) -> Option<(String, JoinHandle<String>)> {
    match lines.recv_timeout(Duration::from_secs(60)) {
        Ok(line) => Some((line, stderr_reader)),
        Err(_) => {
            let status = throng.wait_for_exit(Duration::from_secs(10));
            let err = stderr_reader.join().unwrap_or_default();
            if err.contains("no Vulkan") && missing(&format!("no Vulkan device ({err})")) {
                return None;
            }
            panic!("throng printed nothing (status {status:?}); stderr: {err}");
        }
    }
}

/// How long the test waits for any one thing the program shows: far beyond what it takes on
/// a busy machine (a debug build with validation presents this small window a few times a
/// second even beside a full CPU load), so that only a program that stopped presenting fails.
const PATIENCE: Duration = Duration::from_secs(60);

#[test]
fn a_window_presents_resizes_hides_and_closes_on_escape() {
    let Some((_serial, _xvfb, display)) = xvfb_with_xdotool() else {
        return;
    };

    let dir = scratch_dir("window");
    let stats = dir.join("stats.json");
    let _ = std::fs::remove_file(&stats);

    let (mut throng, lines, stdout_reader, stderr_reader) = start_window_run(
        &display,
        &dir,
        &[
            "--instances",
            "4",
            // Escape ends the run; the limit only keeps a run the test lost from going on.
            "--seconds",
            "900",
            "--width",
            "320",
            "--height",
            "240",
            // The window, not the passes, is tested here (tests/gpu_passes.rs covers them):
            // without shadows and ambient occlusion a debug build on lavapipe presents tens
            // of frames a second at this size, and one sample per pixel keeps it so (lavapipe
            // multisamples slowly).
            "--no-shadows",
            "--no-ssao",
            // Nor the impostor cards (tests/gpu_impostor_picture.rs): their atlas bake and
            // three more pipelines to compile would only add start-up time here.
            "--impostors",
            "off",
            "--msaa",
            "1",
            "--stats-json",
            stats.to_str().expect("UTF-8 path"),
        ],
    );

    // Its first line says where it renders; a device-less machine says so on stderr.
    let Some((first, stderr_reader)) = first_line(&mut throng, &lines, stderr_reader) else {
        return;
    };
    assert!(first.contains("in a window"), "first line: {first}");

    // Frames are presented: a statistics line comes once a second of rendering. Each one
    // follows a frame, so the frames counted in the end are at least the lines seen.
    let mut stats_lines = 0;
    let first_stats = match wait_for_line(&lines, PATIENCE, "statistics line", is_fps_line) {
        Ok(line) => line,
        Err(why) => fail_with_stderr(&mut throng, stderr_reader, &why),
    };
    stats_lines += 1;
    assert_bench_bevy_reads(&first, &first_stats);

    let id = xdotool(&display, &["search", "--sync", "--name", "^throng$"]);
    let id = id
        .lines()
        .next()
        .unwrap_or_else(|| panic!("xdotool found no window named throng"))
        .trim()
        .to_string();
    // A hundred resizes in quick succession, as a user dragging a corner makes them: each
    // size the renderer sees recreates the swapchain and the frame's images.
    for k in 0..100u32 {
        let (w, h) = (
            (160 + k * 37 % 320).to_string(),
            (120 + k * 53 % 240).to_string(),
        );
        xdotool(&display, &["windowsize", &id, &w, &h]);
        thread::sleep(Duration::from_millis(15));
    }
    let (w, h) = (RESIZED.0.to_string(), RESIZED.1.to_string());
    xdotool(&display, &["windowsize", &id, &w, &h]);
    let geometry = xdotool(&display, &["getwindowgeometry", &id]);
    assert!(
        geometry.contains(&format!("{w}x{h}")),
        "the X server did not resize the window: {geometry}"
    );

    // Frames go on after the resize: two statistics lines printed after this point (the
    // lines printed during the resizes are thrown away; the first line after them may have
    // been on its way already, the second was not).
    drain(&lines);
    for k in 0..2 {
        if let Err(why) = wait_for_line(
            &lines,
            PATIENCE,
            &format!("statistics line {} after the resize", k + 1),
            is_fps_line,
        ) {
            fail_with_stderr(&mut throng, stderr_reader, &why);
        }
        stats_lines += 1;
    }

    // Fly mode: F, then W held until the eye has moved. winit ignores synthetic
    // (XSendEvent) key events, which is what `xdotool key --window` sends, so focus the
    // window and type through XTEST instead.
    // The pointer goes over the window first: with no window manager, focus follows it once
    // the resize storm has moved the window's edges about.
    let focus = || {
        xdotool(&display, &["mousemove", "--window", &id, "20", "20"]);
        xdotool(&display, &["windowfocus", "--sync", &id]);
    };
    // In fly mode every statistics line is followed by the eye: the first says where it
    // starts.
    let eye_before = match until_shown(
        &lines,
        "line saying where the flying eye is",
        5,
        || {
            focus();
            xdotool(&display, &["key", "f"]);
        },
        |l| flying_eye(l).is_some(),
    ) {
        Ok((line, tries)) => {
            eprintln!("fly mode on after {tries} press(es) of F");
            flying_eye(&line).expect("an eye line")
        }
        Err(why) => fail_with_stderr(&mut throng, stderr_reader, &why),
    };
    // W stays down until a line shows the eye elsewhere: however slowly frames come, the key
    // is held across at least one.
    let moved = until_shown(
        &lines,
        "line with the eye moved by W",
        5,
        || {
            focus();
            xdotool(&display, &["keyup", "w"]);
            xdotool(&display, &["keydown", "w"]);
        },
        |l| flying_eye(l).is_some_and(|eye| eye != eye_before),
    );
    xdotool(&display, &["keyup", "w"]);
    match moved {
        Ok((_, tries)) => eprintln!("the eye moved after {tries} press(es) of W"),
        Err(why) => fail_with_stderr(
            &mut throng,
            stderr_reader,
            &format!("{why} from {eye_before:?}"),
        ),
    }

    // Hidden and shown again (what a window manager does to minimize and restore; Xvfb has
    // none to ask), the window goes on presenting.
    xdotool(&display, &["windowunmap", "--sync", &id]);
    thread::sleep(Duration::from_millis(500));
    xdotool(&display, &["windowmap", "--sync", &id]);
    xdotool(&display, &["windowfocus", "--sync", &id]);
    drain(&lines);
    for k in 0..2 {
        if let Err(why) = wait_for_line(
            &lines,
            PATIENCE,
            &format!("statistics line {} after hiding and showing", k + 1),
            is_fps_line,
        ) {
            fail_with_stderr(&mut throng, stderr_reader, &why);
        }
        stats_lines += 1;
    }

    // Escape quits.
    xdotool(&display, &["key", "Escape"]);
    let Some(status) = throng.wait_for_exit(Duration::from_secs(30)) else {
        fail_with_stderr(
            &mut throng,
            stderr_reader,
            "throng did not quit within 30 s of Escape",
        );
    };
    let stdout = stdout_reader.join().expect("stdout reader");
    let stderr = stderr_reader.join().expect("stderr reader");
    assert!(
        status.success(),
        "throng exited with {status}; stderr: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
    let validation: Vec<&str> = stderr
        .lines()
        .filter(|l| l.to_lowercase().contains("validation"))
        .collect();
    assert!(validation.is_empty(), "validation output: {validation:#?}");
    assert!(
        stdout.iter().any(|l| l.starts_with("overall:")),
        "no overall line: {stdout:#?}"
    );

    let text =
        std::fs::read_to_string(&stats).unwrap_or_else(|e| panic!("{}: {e}", stats.display()));
    let v: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("stats JSON: {e}: {text}"));
    assert_eq!(v["camera"]["mode"], "fly", "{text}");
    let frames = v["frames"].as_u64().expect("frames");
    // Every statistics line came after a frame of its own second.
    assert!(
        frames >= stats_lines,
        "{frames} frames presented, fewer than the {stats_lines} statistics lines seen: {text}"
    );
    assert_eq!(v["validation_messages"], 0, "{text}");
    assert_eq!(v["instances"], 4);
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(RESIZED.0 as u64), Some(RESIZED.1 as u64)),
        "the swapchain did not follow the resize: {text}"
    );
    // The projection followed too: for a perspective camera, |row 1| / |row 0| of the
    // view-projection's 3x3 part is the aspect ratio (the view's rows are unit vectors).
    let m: Vec<f64> = v["view_proj"]
        .as_array()
        .expect("view_proj")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect();
    assert_eq!(m.len(), 16);
    let row = |r: usize| (m[r].powi(2) + m[4 + r].powi(2) + m[8 + r].powi(2)).sqrt();
    let aspect = row(1) / row(0);
    let want = RESIZED.0 as f64 / RESIZED.1 as f64;
    assert!(
        (aspect - want).abs() < 0.01 * want,
        "view_proj has aspect {aspect:.4}, the window {want:.4}"
    );

    // The eye flew forward from where a run with the same size starts it.
    let start = dir.join("start.json");
    let out = Command::new(env!("CARGO_BIN_EXE_throng"))
        .args([
            "run",
            "--headless",
            "--instances",
            "4",
            "--frames",
            "1",
            "--width",
            "320",
            "--height",
            "240",
            "--no-shadows",
            "--no-ssao",
            "--impostors",
            "off",
            "--stats-json",
        ])
        .arg(&start)
        .output()
        .expect("a headless run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(&start).expect("start.json")).expect("JSON");
    let vector = |doc: &Value, key: &str| -> [f64; 3] {
        let a = doc["camera"][key].as_array().expect("a vector");
        [0, 1, 2].map(|i| a[i].as_f64().expect("a number"))
    };
    let (eye0, target0, eye1) = (vector(&s, "eye"), vector(&s, "target"), vector(&v, "eye"));
    let moved: Vec<f64> = (0..3).map(|i| eye1[i] - eye0[i]).collect();
    let ahead: Vec<f64> = (0..3).map(|i| target0[i] - eye0[i]).collect();
    let forward: f64 = moved.iter().zip(&ahead).map(|(m, a)| m * a).sum();
    assert!(
        forward > 0.0,
        "holding W did not move the eye forward: from {eye0:?} to {eye1:?}"
    );
}

/// A key to press, what it should do, and the line that says it did.
type KeyStep = (&'static str, &'static str, fn(&str) -> bool);

/// The live controls: with the heads-up display on (a window's default), + doubles the crowd,
/// L and X switch mesh levels and shadows off, P writes the window's frame as PNG, H hides the
/// display, and the run ends cleanly, the validation layers silent. Each key is pressed again
/// only until the program says it took it (input through XTEST can be lost without a window
/// manager); a key pressed twice would switch back, so each check takes the first answer.
#[test]
fn the_keys_change_the_running_crowd() {
    let Some((_serial, _xvfb, display)) = xvfb_with_xdotool() else {
        return;
    };
    let dir = scratch_dir("keys");
    let shot = dir.join("throng-window-1.png");
    let _ = std::fs::remove_file(&shot);
    let (mut throng, lines, stdout_reader, stderr_reader) = start_window_run(
        &display,
        &dir,
        &[
            "--instances",
            "4",
            "--seconds",
            "900",
            "--width",
            "320",
            "--height",
            "240",
            "--shadow-size",
            "512",
            "--no-ssao",
            "--impostors",
            "off",
            "--msaa",
            "1",
        ],
    );
    let Some((first, stderr_reader)) = first_line(&mut throng, &lines, stderr_reader) else {
        return;
    };
    assert!(first.contains("in a window"), "first line: {first}");
    if let Err(why) = wait_for_line(&lines, PATIENCE, "statistics line", is_fps_line) {
        fail_with_stderr(&mut throng, stderr_reader, &why);
    }
    let id = xdotool(&display, &["search", "--sync", "--name", "^throng$"]);
    let id = id
        .lines()
        .next()
        .expect("a window named throng")
        .trim()
        .to_string();
    let focus = || {
        xdotool(&display, &["mousemove", "--window", &id, "20", "20"]);
        xdotool(&display, &["windowfocus", "--sync", &id]);
    };
    let steps: [KeyStep; 5] = [
        ("equal", "the crowd doubled", |l| l == "crowd: 8 characters"),
        ("l", "mesh levels off", |l| l == "mesh levels off"),
        ("x", "shadows off", |l| l == "shadows off"),
        ("p", "the screenshot written", |l| {
            l.starts_with("wrote ") && l.ends_with("throng-window-1.png")
        }),
        ("h", "the display hidden", |l| l == "hud off"),
    ];
    for (key, what, said) in steps {
        let shown = until_shown(
            &lines,
            what,
            5,
            || {
                focus();
                xdotool(&display, &["key", key]);
            },
            said,
        );
        match shown {
            Ok((_, tries)) => eprintln!("{what} after {tries} press(es) of {key}"),
            Err(why) => fail_with_stderr(&mut throng, stderr_reader, &why),
        }
    }
    // Frames go on after the changes.
    drain(&lines);
    if let Err(why) = wait_for_line(&lines, PATIENCE, "statistics line", is_fps_line) {
        fail_with_stderr(&mut throng, stderr_reader, &why);
    }
    xdotool(&display, &["key", "Escape"]);
    let Some(status) = throng.wait_for_exit(Duration::from_secs(30)) else {
        fail_with_stderr(&mut throng, stderr_reader, "no exit within 30 s of Escape");
    };
    let _ = stdout_reader.join();
    let stderr = stderr_reader.join().expect("stderr reader");
    assert!(status.success(), "exit {status}; stderr: {stderr}");
    let validation: Vec<&str> = stderr
        .lines()
        .filter(|l| l.to_lowercase().contains("validation"))
        .collect();
    assert!(validation.is_empty(), "validation output: {validation:#?}");
    let picture = image::open(&shot)
        .unwrap_or_else(|e| panic!("{}: {e}", shot.display()))
        .to_rgb8();
    assert_eq!((picture.width(), picture.height()), (320, 240));
    // The frame, not an empty image: the sky's blue above, the ground's grey below, and the
    // display's white text in the top-left corner.
    let sky = picture.get_pixel(300, 5).0;
    assert!(sky[2] > sky[0] && sky[2] > 100, "sky pixel {sky:?}");
    let text = (0..120)
        .flat_map(|x| (0..30).map(move |y| (x, y)))
        .filter(|&(x, y)| picture.get_pixel(x, y).0.iter().all(|&c| c > 230))
        .count();
    assert!(text > 50, "{text} white pixels where the display's text is");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_lost_surface_is_made_again_and_presenting_goes_on() {
    if !on_path("Xvfb") && missing("Xvfb is not installed (apt-get install xvfb)") {
        return;
    }
    let _serial = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let (_xvfb, display) = start_xvfb();
    let dir = scratch_dir("surface");
    let stats = dir.join("stats.json");
    let _ = std::fs::remove_file(&stats);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_throng"));
    // A fixed number of frames, not of seconds: the run must go on past the lost surface
    // however slowly this machine draws.
    cmd.args([
        "run",
        "--instances",
        "4",
        "--frames",
        "12",
        "--width",
        "160",
        "--height",
        "120",
        "--no-shadows",
        "--no-ssao",
        "--impostors",
        "off",
        "--stats-json",
        stats.to_str().expect("UTF-8 path"),
    ])
    .env("DISPLAY", &display)
    .env("THRONG_FAULT", "surface-lost:5")
    .env_remove("WAYLAND_DISPLAY")
    .env_remove("RUST_LOG")
    // One rasterizer thread, as in the test above.
    .env("LP_NUM_THREADS", "0")
    .stdin(Stdio::null());
    let out = run_bounded(cmd, Duration::from_secs(120));
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success()
        && stderr.contains("no Vulkan")
        && missing(&format!("no Vulkan device ({stderr})"))
    {
        return;
    }
    assert!(out.status.success(), "stderr: {stderr}");
    assert!(
        stderr.contains("surface was lost; presenting to a new one"),
        "stderr: {stderr}"
    );
    let text =
        std::fs::read_to_string(&stats).unwrap_or_else(|e| panic!("{}: {e}", stats.display()));
    let v: Value = serde_json::from_str(&text).expect("stats JSON");
    let frames = v["frames"].as_u64().expect("frames");
    assert_eq!(
        frames, 12,
        "the run asked for 12 frames; the fault came at the fifth acquire"
    );
    assert_eq!(v["validation_messages"], 0, "{text}");
}
