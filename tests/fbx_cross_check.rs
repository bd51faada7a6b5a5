//! `huesitos.fbx` (Assimp's test model, a Blender export) read by throng's ufbx loader
//! against two other readings of it: Assimp's (feature `assimp`) and the glTF that Debian's
//! `assimp export` makes of it, read by the native glTF loader. Joints by name, their motion in
//! model space, the palettes up to the mesh's placement and the skinned shape must agree at
//! several times.
#![cfg(feature = "assimp")]

mod common;
mod fbx_common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::naive::assert_palette_matches;
use common::shared_asset;
use fbx_common::assert_same_motion;
use throng::anim::SkinnedModel;
use throng::asset::{self, LoadOptions, Loader};

fn load(path: &Path, loader: Loader) -> SkinnedModel {
    let options = LoadOptions {
        loader,
        ..LoadOptions::default()
    };
    asset::load_file_with(path, &options).unwrap_or_else(|e| panic!("{e}"))
}

/// The clip's length and times across it, past its end included.
fn times(model: &SkinnedModel) -> Vec<f32> {
    let d = model.clips()[0].duration();
    vec![0.0, 0.1, 0.37, 0.8, 1.2, d, d + 0.5]
}

#[test]
fn huesitos_through_ufbx_matches_assimp() {
    let fbx = shared_asset("assimp/huesitos.fbx");
    let ours = load(&fbx, Loader::Auto);
    let theirs = load(&fbx, Loader::Assimp);
    assert_eq!(
        ours.format(),
        "fbx",
        ".fbx goes to ufbx unless --loader assimp"
    );
    assert_eq!(theirs.format(), "fbx (assimp)");
    // The nine bones; Assimp also makes the armature a joint (it has keys), ufbx's reading
    // finds that they never move it, so it is folded.
    assert_eq!(ours.joint_count(), 9, "{:?}", ours.skeleton().names());
    assert_eq!(theirs.joint_count(), 10);
    assert_eq!(ours.clips()[0].name(), theirs.clips()[0].name());
    let d = ours.clips()[0].duration();
    assert!((d - 1.56).abs() < 1e-4, "39 frames at 25 per second: {d}");
    assert!((d - theirs.clips()[0].duration()).abs() < 1e-4);
    assert_eq!(ours.mesh().vertices.len(), 128);
    assert_eq!(ours.mesh().triangle_count(), theirs.mesh().triangle_count());
    for t in times(&ours) {
        assert_palette_matches(&ours, 0, t, 1e-4);
    }
    assert_same_motion(&ours, &theirs, 0, &times(&ours));
}

/// A fresh folder of this test process under the system's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("throng-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn huesitos_through_ufbx_matches_its_gltf_export() {
    let fbx = shared_asset("assimp/huesitos.fbx");
    let dir = temp_dir("huesitos-ufbx");
    let glb = dir.join("huesitos.glb");
    let out = Command::new("assimp")
        .arg("export")
        .arg(&fbx)
        .arg(&glb)
        .output()
        .expect(
            "the `assimp` tool runs (package assimp-utils; scripts/ensure-deps.sh installs it)",
        );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let native = load(&glb, Loader::Auto);
    let _ = std::fs::remove_dir_all(&dir);
    let ours = load(&fbx, Loader::Auto);
    assert_eq!(native.format(), "glb");
    assert_same_motion(&ours, &native, 0, &times(&ours));
}

#[test]
fn the_box_comparison_sees_a_side_too_low_as_well_as_too_high() {
    use glam::Vec3;
    let unit = (Vec3::ZERO, Vec3::ONE);
    assert_eq!(fbx_common::skinned_box_gap(unit, unit), 0.0);
    // The top too low, too high, the bottom too high, too low: each is a gap of 0.5.
    for other in [
        (Vec3::ZERO, Vec3::new(1.0, 0.5, 1.0)),
        (Vec3::ZERO, Vec3::new(1.0, 1.5, 1.0)),
        (Vec3::new(0.0, 0.5, 0.0), Vec3::ONE),
        (Vec3::new(0.0, -0.5, 0.0), Vec3::ONE),
    ] {
        assert_eq!(fbx_common::skinned_box_gap(unit, other), 0.5, "{other:?}");
        assert_eq!(fbx_common::skinned_box_gap(other, unit), 0.5, "{other:?}");
    }
}
