//! Text `.x` read two ways: the native loader (`asset::load_file`) and Assimp (feature
//! `assimp`, `Loader::Assimp`) agree on clips and palettes by joint name, once Assimp's own
//! changes are undone:
//!
//! - handedness: Assimp's `.x` importer mirrors z to make the scene right-handed, so its
//!   palettes are `S P S` with `S = diag(1, 1, -1)` where the file's are `P`;
//! - tick rate: Assimp reports 0 ticks per second for a file without `AnimTicksPerSecond`
//!   (`tiny.x`); throng's Assimp loader already applies D3DX's 4800 there, as the native
//!   loader does, so durations and key times must agree as they are.
//!
//! Until the native `.x` loader is in the tree, `load_file` sends `.x` to Assimp as well;
//! the test then has nothing to compare and says so.
#![cfg(feature = "assimp")]

mod common;

use common::shared_asset;
use glam::{Mat4, Vec3};
use throng::anim::{Mat3x4, PoseScratch, SkinnedModel};
use throng::asset::{self, LoadOptions, Loader};

fn palette(model: &SkinnedModel, clip: usize, t: f32) -> Vec<Mat3x4> {
    let n = model.joint_count();
    let mut scratch = PoseScratch::new(n);
    let mut out = vec![Mat3x4::IDENTITY; n];
    model.evaluate(clip, t, &mut scratch, &mut out);
    out
}

/// Largest element difference over the largest element (at least 1).
fn relative(a: &Mat4, b: &Mat4) -> f32 {
    let scale = b.to_cols_array().iter().fold(1.0f32, |m, x| m.max(x.abs()));
    let diff = (*a - *b)
        .to_cols_array()
        .iter()
        .fold(0.0f32, |m, x| m.max(x.abs()));
    diff / scale
}

fn compare(file: &str) {
    let path = shared_asset(file);
    let native = asset::load_file(&path).unwrap_or_else(|e| panic!("{e}"));
    if native.format().contains("assimp") {
        eprintln!("{file}: no native .x loader in this build; nothing to compare");
        return;
    }
    let options = LoadOptions {
        loader: Loader::Assimp,
        ..LoadOptions::default()
    };
    let assimp = asset::load_file_with(&path, &options).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(native.clips().len(), assimp.clips().len(), "{file}: clips");
    let mirror = Mat4::from_scale(Vec3::new(1.0, 1.0, -1.0));
    for (c, (ours, theirs)) in native.clips().iter().zip(assimp.clips()).enumerate() {
        let duration = ours.duration();
        assert!(
            (duration - theirs.duration()).abs() < 1e-4,
            "{file}: clip {c}: {duration} s natively, {} s through Assimp",
            theirs.duration()
        );
        for t in [0.0, 0.13, 0.4 * duration, 0.77 * duration, duration] {
            let (a, b) = (palette(&native, c, t), palette(&assimp, c, t));
            for (j, name) in native.skeleton().names().iter().enumerate() {
                let k = assimp
                    .skeleton()
                    .find(name)
                    .unwrap_or_else(|| panic!("{file}: {name} is a joint through Assimp too"));
                let undone = mirror * b[k].to_mat4() * mirror;
                let diff = relative(&a[j].to_mat4(), &undone);
                assert!(
                    diff < 1e-3,
                    "{file}: clip {c} at {t}: {name} differs by {diff}"
                );
            }
        }
    }
}

#[test]
fn testwuson_agrees_with_the_native_loader() {
    compare("assimp/Testwuson.X");
}

#[test]
fn tiny_agrees_with_the_native_loader() {
    compare("dxsdk/tiny.x");
}
