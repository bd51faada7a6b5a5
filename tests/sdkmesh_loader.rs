//! The SDKMESH loader on the DirectX SDK's soldier and on small generated files: joints are
//! the frames in file order, the clip comes from the animation file bound as the DirectX Tool
//! Kit binds it (each track drives the first frame of its name, ignoring case; the later of
//! two tracks wins), and palettes agree with two independent references (the naive
//! evaluator on the loaded model, and a textbook reading of the files' bytes in f64 with
//! Direct3D's row-vector math).

mod common;
mod sdkmesh_samples;

use std::path::{Path, PathBuf};

use glam::{DMat4, DQuat, DVec3};
use throng::anim::{Mat3x4, PoseScratch, SkinnedModel};
use throng::asset::{self, LoadOptions, sdkmesh};

use sdkmesh_samples::{FrameSpec, standard_animation, standard_model, translation};

fn soldier_path() -> PathBuf {
    common::shared_asset("dxsdk/soldier.sdkmesh")
}

fn soldier() -> SkinnedModel {
    sdkmesh::load(&soldier_path()).unwrap_or_else(|e| panic!("soldier: {e}"))
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn palette(model: &SkinnedModel, clip: usize, t: f32) -> Vec<Mat3x4> {
    let mut scratch = PoseScratch::new(model.joint_count());
    let mut out = vec![Mat3x4::IDENTITY; model.joint_count()];
    model.evaluate(clip, t, &mut scratch, &mut out);
    out
}

/// A textbook reading of the two files: frames and tracks straight from the struct offsets,
/// matrices in f64, Direct3D's composition (`world = local * parentWorld`,
/// `palette = inverse(bindWorld) * animatedWorld`, key local = `R * T`) written transposed
/// in column-vector form, each joint's world found by walking its ancestors recursively, a
/// track bound to every frame of its name with the last track of a name winning.
mod textbook {
    use super::*;

    fn u32_at(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
    }
    fn u64_at(b: &[u8], at: usize) -> usize {
        u64::from_le_bytes(b[at..at + 8].try_into().unwrap()) as usize
    }
    fn f32_at(b: &[u8], at: usize) -> f64 {
        f64::from(f32::from_le_bytes(b[at..at + 4].try_into().unwrap()))
    }
    fn name(b: &[u8], at: usize) -> String {
        let field = &b[at..at + 100];
        let end = field.iter().position(|&c| c == 0).unwrap_or(100);
        String::from_utf8_lossy(&field[..end]).into_owned()
    }

    pub struct Frame {
        pub name: String,
        pub parent: Option<usize>,
        /// The stored row-vector matrix, transposed into column-vector form.
        pub local: DMat4,
    }

    pub fn frames(file: &[u8]) -> Vec<Frame> {
        let count = u32_at(file, 48) as usize;
        let at = u64_at(file, 88);
        (0..count)
            .map(|i| {
                let f = at + 184 * i;
                let parent = u32_at(file, f + 104);
                let m: Vec<f64> = (0..16).map(|k| f32_at(file, f + 116 + 4 * k)).collect();
                Frame {
                    name: name(file, f),
                    parent: (parent != u32::MAX).then_some(parent as usize),
                    local: DMat4::from_cols_array(&m.try_into().unwrap()),
                }
            })
            .collect()
    }

    pub struct Track {
        pub name: String,
        /// Keys: translation, rotation (x y z w), in file order.
        pub keys: Vec<([f64; 3], [f64; 4])>,
    }

    pub struct Anim {
        pub fps: f64,
        pub tracks: Vec<Track>,
    }

    pub fn anim(file: &[u8]) -> Anim {
        let (count, keys, fps) = (u32_at(file, 12), u32_at(file, 16), u32_at(file, 20));
        let table = u64_at(file, 32);
        let tracks = (0..count as usize)
            .map(|i| {
                let t = table + 112 * i;
                let data = 40 + u64_at(file, t + 104);
                let keys = (0..keys as usize)
                    .map(|k| {
                        let v: Vec<f64> = (0..7)
                            .map(|n| f32_at(file, data + 40 * k + 4 * n))
                            .collect();
                        ([v[0], v[1], v[2]], [v[3], v[4], v[5], v[6]])
                    })
                    .collect();
                Track {
                    name: name(file, t),
                    keys,
                }
            })
            .collect();
        Anim {
            fps: f64::from(fps),
            tracks,
        }
    }

    /// The local transform of a track at `t`: keys at `k / fps`, lerp and slerp between them.
    fn key_local(keys: &[([f64; 3], [f64; 4])], fps: f64, t: f64) -> DMat4 {
        let x = (t * fps).clamp(0.0, (keys.len() - 1) as f64);
        let k = (x.floor() as usize).min(keys.len() - 1);
        let k1 = (k + 1).min(keys.len() - 1);
        let f = x - k as f64;
        let q = |k: usize| {
            let [x, y, z, w] = keys[k].1;
            if [x, y, z, w] == [0.0; 4] {
                DQuat::IDENTITY
            } else {
                DQuat::from_xyzw(x, y, z, w).normalize()
            }
        };
        let pos = DVec3::from(keys[k].0).lerp(DVec3::from(keys[k1].0), f);
        let rot = q(k).slerp(q(k1), f);
        DMat4::from_rotation_translation(rot, pos)
    }

    fn world(frames: &[Frame], locals: &[DMat4], j: usize) -> DMat4 {
        match frames[j].parent {
            Some(p) => world(frames, locals, p) * locals[j],
            None => locals[j],
        }
    }

    /// The track that drives frame `i`, as `AnimationSDKMESH::Bind` finds it: each track
    /// binds the first frame whose name matches ignoring case, later tracks overwriting.
    fn track_of<'a>(frames: &[Frame], anim: &'a Anim, i: usize) -> Option<&'a Track> {
        let same = |a: &str, b: &str| a.eq_ignore_ascii_case(b);
        let first = frames.iter().position(|g| same(&g.name, &frames[i].name));
        if first != Some(i) {
            return None;
        }
        anim.tracks
            .iter()
            .rev()
            .find(|tr| same(&tr.name, &frames[i].name))
    }

    /// Palettes (column-vector form) in file order at `t` seconds.
    pub fn palettes(frames: &[Frame], anim: &Anim, t: f64) -> Vec<DMat4> {
        let bind: Vec<DMat4> = frames.iter().map(|f| f.local).collect();
        let animated: Vec<DMat4> = (0..frames.len())
            .map(|i| match track_of(frames, anim, i) {
                Some(tr) => key_local(&tr.keys, anim.fps, t),
                None => frames[i].local,
            })
            .collect();
        (0..frames.len())
            .map(|j| world(frames, &animated, j) * world(frames, &bind, j).inverse())
            .collect()
    }
}

#[test]
fn soldier_joints_are_the_frames_in_file_order() {
    let model = soldier();
    let bytes = std::fs::read(soldier_path()).expect("soldier");
    let frames = textbook::frames(&bytes);
    assert_eq!(model.joint_count(), frames.len());
    assert_eq!(model.format(), "sdkmesh");
    let s = model.skeleton();
    for (file_index, j) in s.index_from_source().into_iter().enumerate() {
        let f = &frames[file_index];
        assert_eq!(s.names()[j], f.name, "frame {file_index}");
        assert_eq!(
            s.parent(j).map(|p| s.source_index(p)),
            f.parent,
            "frame {file_index}"
        );
    }
    // Names are kept verbatim: the root frame has none, `Head` is there twice.
    assert_eq!(s.names().iter().filter(|n| n.is_empty()).count(), 1);
    assert_eq!(s.names().iter().filter(|n| *n == "Head").count(), 2);
    let err = s.find_unique("Head").expect_err("ambiguous");
    assert!(err.to_string().contains("ambiguous"), "{err}");
}

#[test]
fn soldier_clip_comes_from_the_animation_file_beside_it() {
    let model = soldier();
    let anim_bytes =
        std::fs::read(common::shared_asset("dxsdk/soldier.sdkmesh_anim")).expect("anim");
    let anim = textbook::anim(&anim_bytes);
    assert_eq!(model.clips().len(), 1);
    let clip = &model.clips()[0];
    assert_eq!(clip.name(), "soldier");
    let keys = anim.tracks[0].keys.len();
    let expected = ((keys - 1) as f64 / anim.fps) as f32;
    assert!(
        (clip.end() - expected).abs() < 1e-6,
        "{} vs {expected}",
        clip.end()
    );
    assert_eq!(model.resolve_clip("soldier").expect("by name"), 0);
}

#[test]
fn soldier_tracks_bind_the_first_frame_of_their_name_and_the_later_track_wins() {
    let model = soldier();
    let anim = textbook::anim(
        &std::fs::read(common::shared_asset("dxsdk/soldier.sdkmesh_anim")).expect("anim"),
    );
    let mut repeated: Vec<&str> = Vec::new();
    for (i, t) in anim.tracks.iter().enumerate() {
        if anim.tracks[..i].iter().any(|e| e.name == t.name) {
            repeated.push(&t.name);
        }
    }
    assert_eq!(repeated.len(), 3, "{repeated:?}");
    let clip = &model.clips()[0];
    let s = model.skeleton();
    let mut locals = vec![throng::anim::Transform::IDENTITY; model.joint_count()];
    let k = 30;
    clip.sample(k as f32 / anim.fps as f32, &mut locals);
    for name in repeated {
        let later = anim
            .tracks
            .iter()
            .rev()
            .find(|t| t.name == name)
            .expect("later");
        let earlier = anim
            .tracks
            .iter()
            .find(|t| t.name == name)
            .expect("earlier");
        let [x, y, z, w] = later.keys[k].1;
        let want = DQuat::from_xyzw(x, y, z, w).normalize().as_quat();
        let [x, y, z, w] = earlier.keys[k].1;
        let other = DQuat::from_xyzw(x, y, z, w).normalize().as_quat();
        assert!(
            want.dot(other).abs() < 0.9999,
            "{name}: the two tracks differ at key {k}"
        );
        // The first frame of that name (in file order) follows the later track; a later
        // frame that merely shares the name keeps its bind pose.
        let mut frames: Vec<usize> = (0..s.len()).filter(|&j| s.names()[j] == name).collect();
        frames.sort_by_key(|&j| s.source_index(j));
        let got = locals[frames[0]].rotation;
        assert!(
            got.dot(want).abs() > 1.0 - 1e-6,
            "{name} joint {}: {got} vs {want}",
            frames[0]
        );
        for &j in &frames[1..] {
            assert_eq!(
                locals[j],
                s.bind_pose()[j],
                "{name} joint {j} keeps its bind pose"
            );
        }
    }
    // The soldier's second `Head` (a child of `skin`, which no mesh's bone list names) is
    // such a frame.
    let heads: Vec<usize> = (0..s.len()).filter(|&j| s.names()[j] == "Head").collect();
    assert_eq!(heads.len(), 2);
    let second = *heads
        .iter()
        .max_by_key(|&&j| s.source_index(j))
        .expect("two");
    let parent = s.parent(second).expect("a parent");
    assert_eq!(s.names()[parent], "skin");
}

#[test]
fn soldier_palettes_match_the_naive_evaluator() {
    let model = soldier();
    for t in [0.0, 0.01, 1.0 / 60.0, 0.3, 0.61, 1.2, 1.2333333, 2.0] {
        common::naive::assert_palette_matches(&model, 0, t, 1e-4);
    }
}

#[test]
fn soldier_palettes_match_a_textbook_reading_of_the_bytes() {
    let model = soldier();
    let frames = textbook::frames(&std::fs::read(soldier_path()).expect("soldier"));
    let anim = textbook::anim(
        &std::fs::read(common::shared_asset("dxsdk/soldier.sdkmesh_anim")).expect("anim"),
    );
    let s = model.skeleton();
    for t in [0.0, 0.25, 0.5083, 1.0, 1.2333333] {
        let got = palette(&model, 0, t);
        let want = textbook::palettes(&frames, &anim, f64::from(t));
        for (file_index, j) in s.index_from_source().into_iter().enumerate() {
            let w = want[file_index].as_mat4();
            let g = got[j].to_mat4();
            let scale = w
                .abs()
                .to_cols_array()
                .iter()
                .fold(1.0f32, |a, b| a.max(*b));
            for (a, b) in g.to_cols_array().iter().zip(w.to_cols_array()) {
                assert!(
                    (a - b).abs() <= 2e-4 * scale,
                    "t = {t}, frame {file_index} ({}): loader {g} vs textbook {w}",
                    frames[file_index].name
                );
            }
        }
    }
}

#[test]
fn soldier_without_an_animation_file_has_no_clips_and_anim_names_another() {
    let dir = scratch_dir("sdkmesh-no-anim");
    let copy = dir.join("lone.sdkmesh");
    std::fs::copy(soldier_path(), &copy).expect("copy");
    let model = sdkmesh::load(&copy).expect("loads");
    assert!(model.clips().is_empty());
    let mut scratch = PoseScratch::new(model.joint_count());
    let mut out = vec![Mat3x4::IDENTITY; model.joint_count()];
    model.bind_palette(&mut scratch, &mut out);
    assert!(out.iter().all(|m| m.abs_diff_eq(&Mat3x4::IDENTITY, 1e-4)));

    let options = LoadOptions {
        anim: Some(common::shared_asset("dxsdk/soldier.sdkmesh_anim")),
        ..LoadOptions::default()
    };
    let named = asset::load_file_with(&copy, &options).expect("with --anim");
    assert_eq!(named.clips()[0].name(), "soldier");
}

#[test]
fn the_soldier_stands_like_the_textbook_conversion() {
    // The `.m3d` soldier is the same character converted by a textbook's tool, in
    // centimetres: the same proportions, a hundred times larger.
    let ours = soldier().mesh().bounds().expect("vertices");
    let m3d = asset::load_file(&common::shared_asset("m3d/soldier.m3d")).expect("m3d soldier");
    let theirs = m3d.mesh().bounds().expect("vertices");
    let (a, b) = (ours.size(), theirs.size());
    let (ha, hb) = (a.max_element(), b.max_element());
    assert!((100.0 * ha - hb).abs() < 0.01 * hb, "heights {ha} vs {hb}");
    let mut pa = (a / ha).to_array();
    let mut pb = (b / hb).to_array();
    pa.sort_by(f32::total_cmp);
    pb.sort_by(f32::total_cmp);
    for (x, y) in pa.iter().zip(pb) {
        assert!((x - y).abs() < 0.02, "proportions {pa:?} vs {pb:?}");
    }
}

fn generated(dir: &Path, name: &str, model: &[u8], anim: Option<&[u8]>) -> PathBuf {
    let path = dir.join(format!("{name}.sdkmesh"));
    std::fs::write(&path, model).expect("write");
    if let Some(anim) = anim {
        std::fs::write(dir.join(format!("{name}.sdkmesh_anim")), anim).expect("write");
    }
    path
}

#[test]
fn a_generated_model_loads_exactly() {
    let dir = scratch_dir("sdkmesh-generated");
    let (file, _) = standard_model();
    let model =
        sdkmesh::load(&generated(&dir, "quad", &file, Some(&standard_animation()))).expect("loads");
    assert_eq!(model.skeleton().names(), ["", "arm", "hand", "skin"]);
    let mesh = model.mesh();
    assert_eq!((mesh.vertices.len(), mesh.indices.len()), (4, 6));
    // Blend indices 0 and 1 of the bone list [arm, hand] are joints 1 and 2.
    assert_eq!(mesh.vertices[1].joints[..2], [1, 2]);
    assert!((mesh.vertices[1].weights[0] - 128.0 / 255.0).abs() < 1e-6);
    assert_eq!(mesh.materials[0].base_color, [0.5, 0.25, 1.0, 1.0]);
    assert_eq!(mesh.materials[0].name, "skinM");

    let clip = &model.clips()[0];
    assert_eq!((clip.name(), clip.end()), ("quad", 0.5));
    for t in [0.0, 0.1, 0.25, 0.5, 0.7] {
        common::naive::assert_palette_matches(&model, 0, t, 1e-5);
    }
    // At the last key the arm has turned a quarter about z: the hand (1 right of the arm,
    // held by the later `hand` track) is now above it.
    let p = palette(&model, 0, 0.5);
    let hand_bind = glam::Vec3::new(1.0, 1.0, 0.0);
    let moved = p[2].transform_point3(hand_bind);
    assert!(
        (moved - glam::Vec3::new(0.0, 2.0, 0.0)).length() < 1e-5,
        "{moved}"
    );
    // Halfway, slerp: an eighth of a turn.
    let half = palette(&model, 0, 0.25)[2].transform_point3(hand_bind);
    let h = std::f32::consts::FRAC_1_SQRT_2;
    assert!(
        (half - glam::Vec3::new(h, 1.0 + h, 0.0)).length() < 1e-5,
        "{half}"
    );
}

#[test]
fn a_child_before_its_parent_is_reordered_and_reported_in_file_order() {
    let dir = scratch_dir("sdkmesh-child-first");
    let frames = vec![
        FrameSpec {
            name: "hand",
            parent: 2,
            mesh: u32::MAX,
            matrix: translation(1.0, 0.0, 0.0),
        },
        FrameSpec {
            name: "root",
            parent: u32::MAX,
            mesh: 0,
            matrix: translation(0.0, 0.0, 0.0),
        },
        FrameSpec {
            name: "arm",
            parent: 1,
            mesh: u32::MAX,
            matrix: translation(0.0, 1.0, 0.0),
        },
    ];
    let (file, _) = sdkmesh_samples::model(&frames, &[2, 0]);
    let model = sdkmesh::load(&generated(
        &dir,
        "child",
        &file,
        Some(&standard_animation()),
    ))
    .expect("loads");
    let s = model.skeleton();
    let in_file_order: Vec<&str> = s
        .index_from_source()
        .into_iter()
        .map(|j| s.names()[j].as_str())
        .collect();
    assert_eq!(in_file_order, ["hand", "root", "arm"]);
    for j in 0..s.len() {
        if let Some(p) = s.parent(j) {
            assert!(p < j, "reordered parent first");
        }
    }
    // Bone list [arm, hand] in file frame indices: vertex 1's blend indices 0, 1.
    let v = &model.mesh().vertices[1];
    assert_eq!(
        [
            s.names()[v.joints[0] as usize].as_str(),
            s.names()[v.joints[1] as usize].as_str()
        ],
        ["arm", "hand"]
    );
    for t in [0.0, 0.2, 0.5] {
        common::naive::assert_palette_matches(&model, 0, t, 1e-5);
    }
}

#[test]
fn ambiguous_names_are_refused_by_clip_and_joint_look_ups() {
    let dir = scratch_dir("sdkmesh-ambiguous");
    let mut frames = sdkmesh_samples::standard_frames();
    frames[3].name = "arm";
    let (file, _) = sdkmesh_samples::model(&frames, &[1, 2]);
    let model = sdkmesh::load(&generated(
        &dir,
        "twins",
        &file,
        Some(&standard_animation()),
    ))
    .expect("repeated frame names load");
    let err = model.skeleton().find_unique("arm").expect_err("two arms");
    assert_eq!(
        err.to_string(),
        "2 joints are named 'arm'; the name is ambiguous, use an index"
    );
    assert_eq!(model.skeleton().find_unique("hand"), Ok(Some(2)));
}

#[test]
fn a_track_binds_the_first_frame_of_its_name_ignoring_case_as_the_tool_kit_does() {
    let dir = scratch_dir("sdkmesh-tool-kit-binding");
    // `skin` renamed `Arm`: a second frame matching the track `ARM` below, after `arm`.
    let mut frames = sdkmesh_samples::standard_frames();
    frames[3].name = "Arm";
    let (file, _) = sdkmesh_samples::model(&frames, &[1, 2]);
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let still = sdkmesh_samples::Key {
        t: [0.0, 1.0, 0.0],
        q: [0.0, 0.0, 0.0, 1.0],
        s: [1.0; 3],
    };
    let turned = sdkmesh_samples::Key {
        q: [0.0, 0.0, h, h],
        ..still
    };
    let (anim, _) = sdkmesh_samples::animation(
        2,
        &[
            // Binds `arm` (the first frame of that name, whatever its case) ...
            ("ARM", vec![still; 2]),
            // ... and is replaced by the later track that matches it too.
            ("arm", vec![still, turned]),
        ],
    );
    let model = sdkmesh::load(&generated(&dir, "twins", &file, Some(&anim))).expect("loads");
    let s = model.skeleton();
    let mut locals = vec![throng::anim::Transform::IDENTITY; s.len()];
    model.clips()[0].sample(0.5, &mut locals);
    let arm = s.index_from_source()[1];
    let second = s.index_from_source()[3];
    assert_eq!(s.names()[second], "Arm");
    let want = glam::Quat::from_xyzw(0.0, 0.0, h, h);
    assert!(
        locals[arm].rotation.dot(want).abs() > 1.0 - 1e-6,
        "the later track drives `arm`"
    );
    assert_eq!(
        locals[second],
        s.bind_pose()[second],
        "`Arm` keeps its bind pose"
    );
}
