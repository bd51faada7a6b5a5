//! `throng bench sweep` over generated joint counts, alternated with an external command.

use std::process::Command;

fn sweep_json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_throng"))
        .args(["bench", "sweep"])
        .args(args)
        .output()
        .expect("throng runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("json")
}

#[test]
fn sweeps_joint_counts_against_a_versus_command() {
    // The command stands in for ozz's harness: 10 joints per character at 2 M joints/s, that
    // is 5 us per character.
    let v = sweep_json(&[
        "--joints",
        "8,24",
        "--threads",
        "1",
        "--instances",
        "40",
        "--seconds",
        "0.02",
        "--repeat",
        "3",
        "--clock",
        "cpu",
        "--versus",
        "echo 'side J=10 N=40: 500 ns/joint, 2.0 M joints/s/core'",
        "--json",
    ]);
    let points = v.as_array().expect("array");
    assert_eq!(points.len(), 2);
    for (p, joints) in points.iter().zip([8, 24]) {
        assert_eq!(p["joints"], joints);
        assert_eq!(p["rounds"], 3);
        assert_eq!(p["clock"], "cpu");
        let (lo, mid, hi) = (
            p["joints_per_s_min"].as_f64().expect("min"),
            p["joints_per_s_by_clock"].as_f64().expect("median"),
            p["joints_per_s_max"].as_f64().expect("max"),
        );
        assert!(0.0 < lo && lo <= mid && mid <= hi, "{lo} {mid} {hi}");
        let us = p["us_per_character"].as_f64().expect("us");
        assert!((us - joints as f64 / mid * 1e6).abs() < 1e-6 * us);
        let ratio = p["versus_ratio"].as_array().expect("ratio");
        assert_eq!(ratio.len(), 3);
        // `echo` takes almost no processor time, so its figure scaled by its processor share
        // is at least its printed one: the ratio is at most 5 us over throng's.
        let median = ratio[1].as_f64().expect("median ratio");
        assert!(median > 0.0 && median <= 5.0 / us * 1.000_001, "{median}");
    }
}

#[test]
fn a_versus_command_without_a_figure_is_one_error_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_throng"))
        .args(["bench", "sweep", "--joints", "8", "--threads", "1"])
        .args(["--instances", "8", "--seconds", "0.01", "--repeat", "1"])
        .args(["--versus", "echo nothing here"])
        .output()
        .expect("throng runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no 'X M joints/s' figure"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}
