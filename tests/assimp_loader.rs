//! The Assimp loader (feature `assimp`) on Assimp's own test models: `huesitos.fbx` against
//! the same model converted by Debian's `assimp export` to glTF and read by throng's native
//! glTF loader (palettes by joint name at several times, and against the naive evaluator);
//! broken files refused with one line each, through the library and the command line.
#![cfg(feature = "assimp")]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::cli::throng;
use common::naive::{assert_palette_matches, relative_difference};
use common::shared_asset;
use throng::anim::{Mat3x4, PoseScratch, SkinnedModel};
use throng::asset::{self, LoadOptions, Loader};

fn assimp_options() -> LoadOptions {
    LoadOptions {
        loader: Loader::Assimp,
        ..LoadOptions::default()
    }
}

fn palette(model: &SkinnedModel, clip: usize, t: f32) -> Vec<Mat3x4> {
    let n = model.joint_count();
    let mut scratch = PoseScratch::new(n);
    let mut out = vec![Mat3x4::IDENTITY; n];
    model.evaluate(clip, t, &mut scratch, &mut out);
    out
}

/// A fresh folder of this test process under the system's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("throng-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `assimp export FROM TO` (Debian's assimp-utils, installed by scripts/ensure-deps.sh).
fn assimp_export(from: &Path, to: &Path) {
    let out = Command::new("assimp")
        .arg("export")
        .arg(from)
        .arg(to)
        .output()
        .expect(
            "the `assimp` tool runs (package assimp-utils; scripts/ensure-deps.sh installs it)",
        );
    assert!(
        out.status.success() && to.is_file(),
        "assimp export failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn huesitos_fbx_matches_its_gltf_export_read_natively() {
    let fbx = shared_asset("assimp/huesitos.fbx");
    let dir = temp_dir("huesitos");
    let glb = dir.join("huesitos.glb");
    assimp_export(&fbx, &glb);
    // `.fbx` has a native loader (ufbx): Assimp reads it when asked to.
    let ours = asset::load_file_with(&fbx, &assimp_options()).unwrap_or_else(|e| panic!("{e}"));
    let native = asset::load_file(&glb).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(ours.format(), "fbx (assimp)");
    assert_eq!(native.format(), "glb");

    // Nine bones, plus the animated armature above them as a joint of its own, on both sides.
    let names = ours.skeleton().names();
    assert_eq!(ours.joint_count(), 10, "{names:?}");
    assert!(names.iter().any(|n| n == "Armature"), "{names:?}");
    let armature = ours.skeleton().find("Armature").expect("armature");
    assert_eq!(ours.skeleton().source_index(armature), 9, "after the bones");
    assert_eq!(ours.mesh().triangle_count(), native.mesh().triangle_count());
    assert_eq!(ours.clips().len(), 1);
    assert_eq!(ours.clips()[0].name(), native.clips()[0].name());
    let duration = ours.clips()[0].duration();
    assert!((duration - native.clips()[0].duration()).abs() < 1e-4);
    assert!(
        (duration - 1.56).abs() < 1e-3,
        "39 ticks at 25 per second: {duration}"
    );

    for t in [0.0, 0.1, 0.37, 0.8, 1.2, duration, duration + 0.5] {
        assert_palette_matches(&ours, 0, t, 1e-4);
        let (a, b) = (palette(&ours, 0, t), palette(&native, 0, t));
        for (j, name) in names.iter().enumerate() {
            let k = native
                .skeleton()
                .find(name)
                .unwrap_or_else(|| panic!("{name} is a joint of the glTF export too"));
            let diff = relative_difference(&a[j], &b[k].to_mat4());
            assert!(
                diff < 1e-3,
                "{name} at {t}: {diff}\n  {:?}\n  {:?}",
                a[j],
                b[k]
            );
        }
    }
}

#[test]
fn a_glb_forced_through_assimp_matches_the_native_loader() {
    let glb = shared_asset("gltf/RiggedSimple.glb");
    let ours = asset::load_file_with(&glb, &assimp_options()).unwrap_or_else(|e| panic!("{e}"));
    let native = asset::load_file(&glb).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ours.format(), "glb (assimp)");
    let duration = native.clips()[0].duration();
    for t in [0.0, 0.3 * duration, 0.7 * duration, duration] {
        let (a, b) = (palette(&ours, 0, t), palette(&native, 0, t));
        for (j, name) in ours.skeleton().names().iter().enumerate() {
            let k = native.skeleton().find(name).expect("same joints");
            let diff = relative_difference(&a[j], &b[k].to_mat4());
            assert!(diff < 1e-3, "{name} at {t}: {diff}");
        }
    }
}

/// Files Assimp reads (or crashes on) but throng must refuse, and what the line says.
const REFUSED: [(&str, &str); 2] = [
    // The mesh names four bones; only two frames exist.
    (
        "anim_test.x",
        "bone 2 'joint3': no node of the scene has this bone's name",
    ),
    // Skin weights on vertex 1000000 of 24: Assimp 5.2 writes out of bounds and crashes.
    (
        "malformed_skinweights_oob.x",
        "Assimp crashed importing this file",
    ),
];

#[test]
fn broken_files_are_refused_with_one_line() {
    for (file, needle) in REFUSED {
        let path = shared_asset(&format!("assimp/{file}"));
        let err = asset::load_file_with(&path, &assimp_options()).expect_err(file);
        let line = err.to_string();
        assert!(line.contains(needle), "{file}: {line}");
        assert!(line.starts_with(&path.display().to_string()), "{line}");
        assert!(!line.contains('\n'), "{line}");

        let path = path.display().to_string();
        let out = throng(&["info", "--loader", "assimp", &path]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{file}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{file}: {stderr}");
        assert!(stderr.contains(needle), "{file}: {stderr}");
    }
}

#[test]
fn what_assimp_cannot_read_is_one_line_with_its_reason() {
    let dir = temp_dir("garbage");
    let path = dir.join("garbage.fbx");
    std::fs::write(&path, b"Kaydara FBX Binary  \0\x1a\0 not really\n").expect("write");
    let err = asset::load_file_with(&path, &assimp_options()).expect_err("garbage");
    let _ = std::fs::remove_dir_all(&dir);
    let line = err.to_string();
    assert!(line.contains("Assimp could not import the file"), "{line}");
    assert!(!line.contains('\n'), "{line}");
    // The size cap applies before Assimp sees anything.
    let small = LoadOptions {
        max_file_size: 16,
        ..assimp_options()
    };
    let err = asset::load_file_with(&shared_asset("assimp/huesitos.fbx"), &small)
        .expect_err("over the cap");
    assert_eq!(err.kind, asset::ErrorKind::TooLarge, "{err}");
}

#[test]
fn x_files_through_assimp_keep_their_tick_rates_and_match_the_naive_evaluator() {
    // tiny.x has no AnimTicksPerSecond (Assimp says 0): D3DX's 4800 applies, last tick 4960.
    // Testwuson.X says 4800 itself; its run cycle ends at tick 4640.
    for (file, clip, duration) in [
        ("dxsdk/tiny.x", 0, 4960.0 / 4800.0),
        ("assimp/Testwuson.X", 0, 4640.0 / 4800.0),
    ] {
        let m = asset::load_file_with(&shared_asset(file), &assimp_options())
            .unwrap_or_else(|e| panic!("{e}"));
        let got = m.clips()[clip].duration();
        assert!((got - duration).abs() < 1e-4, "{file}: {got} s");
        for t in [0.0, 0.05, 0.5 * duration, duration] {
            assert_palette_matches(&m, clip, t, 1e-4);
        }
    }
}
