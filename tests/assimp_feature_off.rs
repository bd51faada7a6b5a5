//! A build without the `assimp` feature names the feature, in one line, wherever Assimp
//! would be needed: an extension no native loader claims, and `--loader assimp` (also on an
//! `.fbx`, which the native ufbx loader reads without the feature).
#![cfg(not(feature = "assimp"))]

mod common;

use common::cli::throng;
use common::shared_asset;

fn assert_names_the_feature(args: &[&str]) {
    let out = throng(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(
        stderr.contains("`assimp` cargo feature"),
        "{args:?}: {stderr}"
    );
}

#[test]
fn assimp_formats_name_the_feature() {
    assert_names_the_feature(&["info", "model.dae"]);
    // FBX has a native loader; only asking for Assimp needs the feature.
    let fbx = shared_asset("assimp/huesitos.fbx").display().to_string();
    assert_names_the_feature(&["info", "--loader", "assimp", &fbx]);
    let out = throng(&["info", &fbx]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let glb = shared_asset("gltf/RiggedSimple.glb").display().to_string();
    assert_names_the_feature(&["info", "--loader", "assimp", &glb]);
    assert_names_the_feature(&[
        "pose", "--loader", "assimp", &glb, "--clip", "0", "--time", "0",
    ]);
}
