//! The paths real faults take, provoked on lavapipe: a device lost at a submission and a
//! buffer the device cannot allocate each end the run with one line naming what failed and
//! exit 1 (no panic, no hang); Ctrl-C stops a run after its frame and reports as a finished
//! run does, and a second Ctrl-C ends it at once with 130.
//!
//! Faults are injected through `THRONG_FAULT` (see `throng::gpu::fault`). Without a Vulkan
//! device these tests print why and skip, except under `CI=true`, where they fail.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn throng(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_throng"));
    cmd.args(args)
        .env_remove("RUST_LOG")
        .env_remove("THRONG_FAULT");
    cmd
}

/// Runs a small headless crowd with `fault` injected; the one stderr line it ended with,
/// or `None` without a device.
fn run_with_fault(fault: &str) -> Option<String> {
    let out = throng(&["run", "--headless", "--frames", "4", "--instances", "8"])
        .env("THRONG_FAULT", fault)
        .output()
        .expect("the throng binary runs");
    if common::cli::no_vulkan_device(&out) {
        return None;
    }
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{fault}: stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{fault}: panicked: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{fault}: not one line: {stderr}");
    assert!(
        stderr.starts_with("throng: error: "),
        "{fault}: not a throng error: {stderr}"
    );
    Some(stderr.trim_end().to_string())
}

#[test]
fn a_lost_device_ends_the_run_with_one_line() {
    let Some(line) = run_with_fault("device-lost:2") else {
        return;
    };
    assert!(line.contains("VK_ERROR_DEVICE_LOST"), "{line}");
    assert!(line.contains("frame 2"), "names the frame: {line}");
}

#[test]
fn a_failed_allocation_names_the_buffer() {
    for (fault, named) in [
        ("alloc:palette ring", "palette ring"),
        ("alloc:frame 1 visible lists", "visible lists"),
    ] {
        let Some(line) = run_with_fault(fault) else {
            return;
        };
        assert!(line.contains(named), "{fault}: {line}");
        assert!(line.to_lowercase().contains("memory"), "{fault}: {line}");
    }
}

/// Starts a long headless run and returns it once it draws (a per-second statistics line
/// has come out, so its Ctrl-C handler is in place), with the lines read so far; `None`
/// without a device.
// The child goes back to the caller, which waits on it (`wait_within`).
#[allow(clippy::zombie_processes)]
fn started_run(
    instances: &str,
    fault: Option<&str>,
) -> Option<(Child, BufReader<std::process::ChildStdout>)> {
    // One sample per pixel: the checks are about signals and waits, and a debug build's first
    // multisampled frame of thousands of characters can take minutes on a busy machine.
    let mut cmd = throng(&[
        "run",
        "--headless",
        "--seconds",
        "600",
        "--msaa",
        "1",
        "--instances",
        instances,
    ]);
    if let Some(fault) = fault {
        cmd.env("THRONG_FAULT", fault);
    }
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the throng binary starts");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
    let mut line = String::new();
    loop {
        line.clear();
        let read = stdout.read_line(&mut line).expect("reading stdout");
        if read == 0 {
            let out = child.wait_with_output().expect("the run ends");
            if common::cli::no_vulkan_device(&out) {
                return None;
            }
            panic!(
                "the run ended before drawing: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        if line.contains(" fps ") {
            return Some((child, stdout));
        }
    }
}

fn interrupt(child: &Child) {
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    // SAFETY: sending a signal to our own child process.
    let sent = unsafe { libc::kill(pid, libc::SIGINT) };
    assert_eq!(sent, 0, "kill(SIGINT) failed");
}

/// Waits up to `limit` for the child to end; kills it and fails if it does not.
fn wait_within(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("polling the child") {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("the run did not end within {limit:?} of Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn ctrl_c_finishes_the_frame_and_reports() {
    let Some((mut child, mut stdout)) = started_run("8", None) else {
        return;
    };
    interrupt(&child);
    let status = wait_within(&mut child, Duration::from_secs(120));
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).expect("reading stdout");
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        std::io::Read::read_to_string(&mut e, &mut stderr).expect("reading stderr");
    }
    assert_eq!(status.code(), Some(0), "stderr: {stderr}");
    assert!(rest.contains("overall:"), "no report after Ctrl-C: {rest}");
    assert!(stderr.is_empty(), "stderr: {stderr}");
}

#[test]
fn a_second_ctrl_c_exits_at_once() {
    // The run stalls once asked to stop, as one whose frame never finishes would (on a slow
    // device that frame can take minutes), whatever this machine's speed: the first Ctrl-C
    // cannot end it, the second must.
    let Some((mut child, _stdout)) = started_run("8", Some("stall-on-interrupt")) else {
        return;
    };
    interrupt(&child);
    // Apart, so that the kernel does not merge the two into one pending signal; and the first
    // has had time to end the run if it (wrongly) could.
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        child.try_wait().expect("polling the child").is_none(),
        "the first Ctrl-C ended a run whose frame had not finished"
    );
    interrupt(&child);
    let status = wait_within(&mut child, Duration::from_secs(30));
    assert_eq!(status.code(), Some(130));
}

#[test]
fn a_crowd_past_the_devices_limits_is_refused_before_allocating() {
    // 4,000,000 exact palettes of 22 joints: 4.2 GB per frame, 12.7 GB at three frames in
    // flight, past what any device binds as one range or maps in one heap.
    let out = throng(&[
        "run",
        "--headless",
        "--instances",
        "4000000",
        "--frames",
        "1",
        "--width",
        "64",
        "--height",
        "64",
        "--animation",
        "exact",
        "--no-lods",
    ])
    .output()
    .expect("the throng binary runs");
    if common::cli::no_vulkan_device(&out) {
        return;
    }
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "not one line: {stderr}");
    assert!(
        stderr.contains("4000000 instances") && stderr.contains("MB, more than"),
        "names what needs how much: {stderr}"
    );
}
