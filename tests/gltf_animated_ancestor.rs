//! An animated node above the joints (an armature carrying root motion, as Blender exports
//! it) becomes a joint of its own: listed after the skin's joints, identity offset, no vertex
//! influences, and its motion reaches every palette. Checked against the naive evaluator,
//! against the file walked independently, and against a hand-computed expectation: the
//! armature's motion applied on top of the same file without armature channels.

mod common;
mod gltf_common;

use common::naive::assert_palette_matches;
use glam::{Mat4, Quat, Vec3};
use gltf_common::fixture::{self, Fixture};
use gltf_common::reference::Reference;
use serde_json::json;
use throng::anim::{Mat3x4, PoseScratch, SkinnedModel};
use throng::asset::gltf as loader;

/// The armature node of the fixture.
const ARMATURE_NODE: usize = 1;
/// Root motion: the armature slides by this much over one second...
const SLIDE: Vec3 = Vec3::new(0.0, 0.0, 3.0);
/// ...while turning about Z by this angle on top of its bind rotation.
const TURN: f32 = 0.8;

fn parse(name: &str, bytes: &[u8]) -> (SkinnedModel, Vec<String>) {
    loader::parse_with_warnings(name, bytes, None).unwrap_or_else(|e| panic!("{e}"))
}

/// The strip fixture plus LINEAR translation and rotation channels on the armature, keyed
/// at 0 and 1 s, starting from its bind transform.
fn with_root_motion() -> Fixture {
    let mut fx = Fixture::strip([0, 1, 2]);
    let (_, rotation, translation) = fixture::armature().to_scale_rotation_translation();
    let times = fx.add_floats(&[0.0, 1.0], "SCALAR");
    let slid = translation + SLIDE;
    let moves = fx.add_floats(&[translation.to_array(), slid.to_array()].concat(), "VEC3");
    let turned = Quat::from_rotation_z(TURN) * rotation;
    let turns = fx.add_floats(&[rotation.to_array(), turned.to_array()].concat(), "VEC4");
    let animation = &mut fx.json["animations"][0];
    let samplers = animation["samplers"].as_array_mut().expect("samplers");
    samplers.push(json!({"input": times, "output": moves}));
    samplers.push(json!({"input": times, "output": turns}));
    let (s_move, s_turn) = (samplers.len() - 2, samplers.len() - 1);
    let channels = animation["channels"].as_array_mut().expect("channels");
    channels
        .push(json!({"sampler": s_move, "target": {"node": ARMATURE_NODE, "path": "translation"}}));
    channels
        .push(json!({"sampler": s_turn, "target": {"node": ARMATURE_NODE, "path": "rotation"}}));
    fx
}

fn palette(model: &SkinnedModel, t: f32) -> Vec<Mat3x4> {
    let n = model.joint_count();
    let mut scratch = PoseScratch::new(n);
    let mut out = vec![Mat3x4::IDENTITY; n];
    model.evaluate(0, t, &mut scratch, &mut out);
    out
}

#[test]
fn the_animated_armature_is_a_joint_listed_after_the_skins_joints() {
    let (m, warnings) = parse("root_motion.gltf", &with_root_motion().gltf());
    assert!(warnings.is_empty(), "{warnings:?}");
    let s = m.skeleton();
    assert_eq!(s.len(), 4);
    let arm = s.find("armature").expect("armature joint");
    assert_eq!(s.source_index(arm), 3, "after the file's three joints");
    assert_eq!(s.parent(arm), None);
    let root = s.find("root").expect("root");
    assert_eq!(
        s.parent(root),
        Some(arm),
        "the armature is the root joint's parent"
    );
    assert_eq!(s.offsets()[arm], Mat3x4::IDENTITY);
    for v in &m.mesh().vertices {
        for (&j, &w) in v.joints.iter().zip(&v.weights) {
            assert!(
                w == 0.0 || usize::from(j) != arm,
                "a vertex is bound to the armature"
            );
        }
    }
}

#[test]
fn root_motion_agrees_with_both_references() {
    let fx = with_root_motion();
    for (name, bytes) in [
        ("root_motion.gltf", fx.gltf()),
        ("root_motion.glb", fx.glb()),
    ] {
        let (m, _) = parse(name, &bytes);
        let reference = Reference::new(&bytes);
        for t in [0.0, 0.1, 0.25, 0.5, 0.7, 1.0, 1.2, 1.5, 2.0] {
            assert_palette_matches(&m, 0, t, 1e-4);
            reference.assert_matches(&m, 0, t, 1e-4);
        }
    }
}

#[test]
fn root_motion_moves_every_joint_by_the_armatures_motion() {
    let (moving, _) = parse("root_motion.gltf", &with_root_motion().gltf());
    let (still, _) = parse("strip.gltf", &Fixture::strip([0, 1, 2]).gltf());
    let bind = Mat4::from(fixture::armature());
    let (scale, rotation, translation) = fixture::armature().to_scale_rotation_translation();
    for t in [0.0f32, 0.3, 0.5, 1.0, 1.7] {
        // The armature at t, by hand: both channels are linear over [0, 1] and held after;
        // a turn about Z slerps as the angle itself.
        let f = t.clamp(0.0, 1.0);
        let now = Mat4::from_scale_rotation_translation(
            scale,
            Quat::from_rotation_z(TURN * f) * rotation,
            translation + SLIDE * f,
        );
        // Every skinned point moves as the armature moves relative to its bind transform.
        let motion = Mat3x4::from_mat4(&(now * bind.inverse()));
        let (got, base) = (palette(&moving, t), palette(&still, t));
        for name in fixture::JOINT_NAMES {
            let j = |m: &SkinnedModel| m.skeleton().find(name).expect("joint");
            let want = motion.mul(&base[j(&still)]);
            let have = got[j(&moving)];
            assert!(
                have.abs_diff_eq(&want, 1e-4),
                "{name} at {t}: {have:?} vs {want:?}"
            );
        }
        // The armature turns about its own origin, which slides: a point there moves by
        // exactly the slide so far.
        let moved = motion.transform_point3(translation);
        assert!(
            (moved - (translation + SLIDE * f)).length() < 1e-4,
            "{moved}"
        );
    }
}
