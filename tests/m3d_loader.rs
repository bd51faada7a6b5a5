//! The `.m3d` loader on the shared third-party models and on small files of our own: counts,
//! materials of both layouts, static files, textures and warnings, and palettes checked
//! against two independent references (the naive evaluator on the loaded model, and a
//! textbook reader of the file's text that does the format's own row-vector math).

mod common;
mod m3d_samples;

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use glam::{Quat, Vec3};
use throng::anim::{
    Mat3x4, PoseScratch, SkinnedModel, SkinnedVertex, Transform, Vertex, skin_vertices,
};
use throng::asset::{self, ErrorKind, m3d};

use m3d_samples::{SKINNED, STATIC, edit};

fn soldier_path() -> PathBuf {
    common::shared_asset("m3d/soldier.m3d")
}

fn load(relative: &str) -> SkinnedModel {
    let path = common::shared_asset(relative);
    m3d::load(&path).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

fn palette(model: &SkinnedModel, clip: usize, t: f32) -> Vec<Mat3x4> {
    let mut scratch = PoseScratch::new(model.joint_count());
    let mut out = vec![Mat3x4::IDENTITY; model.joint_count()];
    model.evaluate(clip, t, &mut scratch, &mut out);
    out
}

/// Log records captured for assertions (tests of one binary share the logger, so each test
/// filters by a file name of its own).
static LOGGED: Mutex<Vec<String>> = Mutex::new(Vec::new());

struct Capture;

impl log::Log for Capture {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        metadata.level() <= log::Level::Warn
    }
    fn log(&self, record: &log::Record) {
        if self.enabled(record.metadata()) {
            let mut logged = LOGGED.lock().unwrap_or_else(|e| e.into_inner());
            logged.push(format!("{}", record.args()));
        }
    }
    fn flush(&self) {}
}

/// Starts capturing warnings (call before loading what the test inspects).
fn capture_warnings() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        log::set_logger(&Capture).expect("no other logger in this test binary");
        log::set_max_level(log::LevelFilter::Warn);
    });
}

/// The captured warnings that contain `needle`.
fn warnings_about(needle: &str) -> Vec<String> {
    let logged = LOGGED.lock().unwrap_or_else(|e| e.into_inner());
    logged
        .iter()
        .filter(|m| m.contains(needle))
        .cloned()
        .collect()
}

/// A fresh folder under Cargo's scratch space for integration tests.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn soldier_has_the_documented_counts() {
    let model = load("m3d/soldier.m3d");
    assert_eq!((model.name(), model.format()), ("soldier", "m3d"));
    assert_eq!(model.joint_count(), 58);
    let names = model.skeleton().names();
    assert_eq!((names[0].as_str(), names[57].as_str()), ("bone0", "bone57"));
    let parents: Vec<Option<usize>> = model.skeleton().parents().collect();
    assert_eq!(
        &parents[..6],
        [None, Some(0), Some(1), Some(2), Some(3), Some(4)]
    );
    assert_eq!(&parents[54..], [Some(2), Some(54), Some(55), Some(56)]);

    assert_eq!(model.clips().len(), 1);
    let clip = &model.clips()[0];
    assert_eq!(clip.name(), "Take1");
    assert_eq!(
        (clip.start(), clip.end(), clip.duration()),
        (0.0, 1.25, 1.25)
    );
    let keys: Vec<usize> = clip
        .tracks()
        .iter()
        .map(|t| {
            t.rotation
                .as_ref()
                .expect("every soldier bone is keyed")
                .times
                .len()
        })
        .collect();
    assert_eq!((keys[0], keys[8], keys[10]), (76, 73, 75));
    assert_eq!(keys.iter().min(), Some(&73));
    assert_eq!(keys.iter().max(), Some(&76));
    let bone8 = clip.tracks()[8].translation.as_ref().expect("keys");
    assert_eq!(bone8.times.last(), Some(&1.2));
    assert_eq!(bone8.values[0], Vec3::new(4.220695, 1.406052, 1.394846));

    let mesh = model.mesh();
    assert_eq!(mesh.vertices.len(), 13_748);
    assert_eq!(mesh.triangle_count(), 22_507);
    assert_eq!(mesh.materials.len(), 5);
    assert_eq!(mesh.subsets.len(), 5);
    assert!(
        mesh.textures.is_empty(),
        "the .dds textures are not shipped"
    );
    let names: Vec<&str> = mesh.materials.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "soldier_head",
            "soldier_jacket",
            "soldier_pants",
            "soldier_upBody1",
            "soldier_upBody2"
        ]
    );
    let head = &mesh.materials[0];
    assert_eq!(head.base_color, [1.0, 1.0, 1.0, 1.0]);
    assert_eq!((head.roughness, head.fresnel0), (0.5, [0.05; 3]));
    assert_eq!(mesh.materials[2].base_color, [0.8, 0.8, 0.8, 1.0]);
    assert_eq!(mesh.materials[4].roughness, 0.3);
    assert!(mesh.materials.iter().all(|m| !m.alpha_clip));
    assert!(
        mesh.materials
            .iter()
            .all(|m| m.base_color_texture.is_none() && m.normal_texture.is_none())
    );
    let s = &mesh.subsets[1];
    assert_eq!(
        (
            s.vertex_start,
            s.vertex_count,
            s.index_start,
            s.index_count,
            s.material
        ),
        (3915, 2984, 3 * 7230, 3 * 4449, 1)
    );
    let last = &mesh.subsets[4];
    assert_eq!(last.index_start + last.index_count, 3 * 22_507);

    let v = &mesh.vertices[0];
    assert_eq!(v.position, [-0.9983482, 67.88861, 4.354969]);
    assert_eq!(v.tangent, [-0.257403, 0.5351538, -0.8045831, 1.0]);
    assert_eq!(v.uv, [0.695366, 0.9909569]);
    assert_eq!(v.joints, [7, 9, 0, 0]);
    assert_eq!(v.weights, [0.7470379, 0.2529621, 0.0, 0.0]);
    assert_eq!(&mesh.indices[..6], [0, 1, 2, 3, 4, 5]);
    assert_eq!(
        &mesh.indices[mesh.indices.len() - 3..],
        [13711, 13743, 13712]
    );
}

#[test]
fn soldier_offsets_are_the_files_transposed() {
    let model = load("m3d/soldier.m3d");
    // BoneOffset0 1.331581E-06 1 4.16881E-11 0 -5.551115E-17 -4.16881E-11 1 0
    //             1 -1.331581E-06 8.412415E-23 0 -2.230549 -0.03756041 -37.46099 1
    let o = model.skeleton().offsets()[0].to_array();
    assert_eq!(
        [o[0], o[1], o[2], o[3]],
        [1.331581e-6, -5.551115e-17, 1.0, -2.230549]
    );
    assert_eq!(
        [o[4], o[5], o[6], o[7]],
        [1.0, -4.16881e-11, -1.331581e-6, -0.03756041]
    );
    assert_eq!(o[11], -37.46099);
    // The derived bind pose reproduces the offsets: the bind palette is the identity.
    let mut scratch = PoseScratch::new(58);
    let mut bind = vec![Mat3x4::IDENTITY; 58];
    model.bind_palette(&mut scratch, &mut bind);
    for (j, m) in bind.iter().enumerate() {
        assert!(m.abs_diff_eq(&Mat3x4::IDENTITY, 1e-4), "bone {j}: {m:?}");
    }
}

#[test]
fn dx11_soldier_has_the_same_geometry_and_named_materials() {
    let dx12 = load("m3d/soldier.m3d");
    let dx11 = load("m3d/soldier_dx11.m3d");
    assert_eq!(dx11.name(), "soldier_dx11");
    assert_eq!(dx11.mesh().vertices, dx12.mesh().vertices);
    assert_eq!(dx11.mesh().indices, dx12.mesh().indices);
    assert_eq!(dx11.mesh().subsets, dx12.mesh().subsets);
    assert_eq!(dx11.skeleton().offsets(), dx12.skeleton().offsets());
    let names: Vec<&str> = dx11
        .mesh()
        .materials
        .iter()
        .map(|m| m.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "head_diff",
            "jacket_diff",
            "pants_diff",
            "upBody_diff",
            "upBody_diff_4"
        ]
    );
    let pants = &dx11.mesh().materials[2];
    assert_eq!(pants.base_color, [0.8, 0.8, 0.8, 1.0]);
    assert_eq!(pants.fresnel0, [0.5; 3]);
    // SpecPower 1.245731 and 65.986 through roughness = (2 / (n + 2))^(1/4).
    assert!(
        (pants.roughness - 0.8857).abs() < 1e-3,
        "{}",
        pants.roughness
    );
    assert!((dx11.mesh().materials[4].roughness - 0.4146).abs() < 1e-3);
}

#[test]
fn dx11_soldier_gives_the_same_palettes() {
    let dx12 = load("m3d/soldier.m3d");
    let dx11 = load("m3d/soldier_dx11.m3d");
    for t in [0.0, 0.1, 0.4999999, 0.77, 1.2, 1.25, 3.0] {
        assert_eq!(palette(&dx11, 0, t), palette(&dx12, 0, t), "t = {t}");
    }
}

#[test]
fn rock_is_a_rigid_model_with_one_root_joint() {
    let rock = load("m3d/rock_static.m3d");
    assert_eq!(rock.name(), "rock_static");
    assert_eq!(rock.joint_count(), 1);
    assert_eq!(rock.skeleton().names(), [m3d::STATIC_ROOT]);
    assert_eq!(rock.skeleton().offsets(), [Mat3x4::IDENTITY]);
    assert_eq!(rock.skeleton().bind_pose(), [Transform::IDENTITY]);
    assert!(rock.clips().is_empty());
    let mesh = rock.mesh();
    assert_eq!((mesh.vertices.len(), mesh.triangle_count()), (42, 64));
    assert!(
        mesh.vertices
            .iter()
            .all(|v| v.joints == [0; 4] && v.weights == [1.0, 0.0, 0.0, 0.0])
    );
    assert_eq!(mesh.materials.len(), 1);
    let m = &mesh.materials[0];
    assert_eq!(m.name, "rock01_diffuse");
    assert_eq!(m.base_color, [0.9, 0.9, 0.9, 1.0]);
    assert_eq!(m.fresnel0, [0.4; 3]);
    assert!((m.roughness - (2.0f32 / 18.0).powf(0.25)).abs() < 1e-6);
    let s = &mesh.subsets[0];
    assert_eq!((s.vertex_count, s.index_count), (42, 192));
}

#[test]
fn soldier_palettes_match_the_naive_evaluator() {
    let model = load("m3d/soldier.m3d");
    // 0, between keys, exactly at key times of the file (bone 8 ends at 1.2, bone 10 at
    // 1.2333333), the end, and past it.
    for t in [
        0.0, 0.0166666, 0.01, 0.3, 0.4999999, 0.61, 1.2, 1.21, 1.2333333, 1.25, 2.0,
    ] {
        common::naive::assert_palette_matches(&model, 0, t, 1e-4);
    }
}

/// A second, deliberately naive reader of the soldier: `split_whitespace` over the text, the
/// sections that drive the palette (offsets, parents, keys), and the textbook row-vector math
/// in f64 (`toRoot[i] = toParent[i] * toRoot[parent]`, `F = offset * toRoot`, linear key
/// search, slerp). It shares no code with the loader, so agreement checks the parse itself.
mod textbook {
    type M = [[f64; 4]; 4];

    pub struct Key {
        time: f64,
        pos: [f64; 3],
        scale: [f64; 3],
        quat: [f64; 4],
    }

    pub struct File {
        offsets: Vec<M>,
        parents: Vec<i64>,
        bones: Vec<Vec<Key>>,
    }

    fn num(s: &str) -> f64 {
        s.parse().unwrap_or_else(|_| panic!("number: {s}"))
    }

    pub fn read(text: &str) -> File {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let mut k = tokens
            .iter()
            .position(|t| t.contains("BoneOffsets"))
            .expect("BoneOffsets")
            + 1;
        let mut offsets = Vec::new();
        while tokens[k].starts_with("BoneOffset") {
            let mut m = [[0.0; 4]; 4];
            for (i, v) in tokens[k + 1..k + 17].iter().enumerate() {
                m[i / 4][i % 4] = num(v);
            }
            offsets.push(m);
            k += 17;
        }
        k += 1; // BoneHierarchy banner
        let mut parents = Vec::new();
        while tokens[k].starts_with("ParentIndexOfBone") {
            parents.push(tokens[k + 1].parse().expect("parent"));
            k += 2;
        }
        k += 1; // AnimationClips banner
        assert_eq!(tokens[k], "AnimationClip");
        k += 3; // name, {
        let mut bones = Vec::new();
        for b in 0..offsets.len() {
            assert_eq!(tokens[k], format!("Bone{b}"));
            let n: usize = tokens[k + 2].parse().expect("key count");
            k += 4;
            let mut keys = Vec::new();
            for _ in 0..n {
                let f = |i: usize| num(tokens[k + i]);
                keys.push(Key {
                    time: f(1),
                    pos: [f(3), f(4), f(5)],
                    scale: [f(7), f(8), f(9)],
                    quat: [f(11), f(12), f(13), f(14)],
                });
                k += 15;
            }
            assert_eq!(tokens[k], "}");
            k += 1;
            bones.push(keys);
        }
        File {
            offsets,
            parents,
            bones,
        }
    }

    fn mul(a: &M, b: &M) -> M {
        let mut c = [[0.0; 4]; 4];
        for i in 0..4 {
            for j in 0..4 {
                c[i][j] = (0..4).map(|k| a[i][k] * b[k][j]).sum();
            }
        }
        c
    }

    fn slerp(a: [f64; 4], b: [f64; 4], f: f64) -> [f64; 4] {
        let mut dot: f64 = (0..4).map(|i| a[i] * b[i]).sum();
        let mut b = b;
        if dot < 0.0 {
            dot = -dot;
            b = b.map(|x| -x);
        }
        let (wa, wb) = if dot > 0.9999 {
            (1.0 - f, f)
        } else {
            let theta = dot.acos();
            (
                ((1.0 - f) * theta).sin() / theta.sin(),
                (f * theta).sin() / theta.sin(),
            )
        };
        let q: Vec<f64> = (0..4).map(|i| wa * a[i] + wb * b[i]).collect();
        let len = q.iter().map(|x| x * x).sum::<f64>().sqrt();
        [q[0] / len, q[1] / len, q[2] / len, q[3] / len]
    }

    /// `S * R * T` in the row-vector convention.
    fn to_parent(keys: &[Key], t: f64) -> M {
        let (a, b, f) = if t <= keys[0].time {
            (0, 0, 0.0)
        } else if t >= keys[keys.len() - 1].time {
            (keys.len() - 1, keys.len() - 1, 0.0)
        } else {
            let mut i = 0;
            while !(keys[i].time <= t && t <= keys[i + 1].time) {
                i += 1;
            }
            (
                i,
                i + 1,
                (t - keys[i].time) / (keys[i + 1].time - keys[i].time),
            )
        };
        let (ka, kb) = (&keys[a], &keys[b]);
        let lerp = |x: [f64; 3], y: [f64; 3]| [0, 1, 2].map(|i| x[i] + (y[i] - x[i]) * f);
        let p = lerp(ka.pos, kb.pos);
        let s = lerp(ka.scale, kb.scale);
        let [x, y, z, w] = slerp(ka.quat, kb.quat, f);
        let scale = [
            [s[0], 0.0, 0.0, 0.0],
            [0.0, s[1], 0.0, 0.0],
            [0.0, 0.0, s[2], 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ];
        // XMMatrixRotationQuaternion: rotates row vectors.
        let rotation = [
            [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y + z * w),
                2.0 * (x * z - y * w),
                0.0,
            ],
            [
                2.0 * (x * y - z * w),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z + x * w),
                0.0,
            ],
            [
                2.0 * (x * z + y * w),
                2.0 * (y * z - x * w),
                1.0 - 2.0 * (x * x + y * y),
                0.0,
            ],
            [0.0, 0.0, 0.0, 1.0],
        ];
        let translation = [
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [p[0], p[1], p[2], 1.0],
        ];
        mul(&mul(&scale, &rotation), &translation)
    }

    /// The final matrices `F[i] = offset[i] * toRoot[i]` at time `t`.
    pub fn palettes(file: &File, t: f64) -> Vec<M> {
        let mut to_root: Vec<M> = Vec::new();
        for (i, keys) in file.bones.iter().enumerate() {
            let local = to_parent(keys, t);
            let world = match file.parents[i] {
                -1 => local,
                p => mul(&local, &to_root[p as usize]),
            };
            to_root.push(world);
        }
        file.offsets
            .iter()
            .zip(&to_root)
            .map(|(o, r)| mul(o, r))
            .collect()
    }
}

#[test]
fn soldier_parse_agrees_with_a_textbook_reader() {
    let text = std::fs::read_to_string(soldier_path()).expect("soldier text");
    let file = textbook::read(&text);
    let model = load("m3d/soldier.m3d");
    for t in [0.0, 0.0166666, 0.25, 0.5, 0.8333, 1.2, 1.24, 1.25, 1.7] {
        let ours = palette(&model, 0, t);
        let theirs = textbook::palettes(&file, f64::from(t));
        assert_eq!(ours.len(), theirs.len());
        for (j, (m, f)) in ours.iter().zip(&theirs).enumerate() {
            // Row-vector F is the transpose of throng's column-vector palette: row r of ours
            // is column r of F.
            let transposed = (0..3).flat_map(|r| (0..4).map(move |c| f[c][r]));
            let scale = f.iter().flatten().fold(1.0f64, |a, x| a.max(x.abs()));
            for (k, (a, b)) in m.to_array().into_iter().zip(transposed).enumerate() {
                assert!(
                    (f64::from(a) - b).abs() <= 1e-4 * scale,
                    "t = {t}, bone {j}, element {k}: loader {a} vs textbook {b}"
                );
            }
            assert_eq!([f[0][3], f[1][3], f[2][3], f[3][3]], [0.0, 0.0, 0.0, 1.0]);
        }
    }
}

/// Per-axis size of the box around `points`.
fn extent(points: impl Iterator<Item = Vec3>) -> Vec3 {
    let (lo, hi) = points.fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(lo, hi), p| (lo.min(p), hi.max(p)),
    );
    hi - lo
}

#[test]
fn skinned_soldier_stands_like_a_person() {
    let model = load("m3d/soldier.m3d");
    let vertices = &model.mesh().vertices;
    let mut skinned = vec![SkinnedVertex::default(); vertices.len()];
    skin_vertices(vertices, &palette(&model, 0, 0.0), &mut skinned);
    assert!(skinned.iter().all(|v| v.position.is_finite()));
    let posed = extent(skinned.iter().map(|v| v.position));
    let bind = extent(vertices.iter().map(|v| Vec3::from(v.position)));
    // Up is the longest axis; the lateral (shoulder-to-shoulder) axis is the one the arms of
    // the bind T-pose stretch along, the wider of the other two.
    let up = posed.max_position();
    assert_eq!(up, 1, "+Y is up: posed {posed}, bind {bind}");
    assert_eq!(
        bind.max_position(),
        1,
        "+Y is up in the bind pose too: {bind}"
    );
    let lateral = if bind.x >= bind.z { 0 } else { 2 };
    assert_eq!(lateral, 0, "arms along X in the bind pose: {bind}");
    let ratio = posed.y / posed.x;
    assert!(
        (2.3..2.9).contains(&ratio),
        "height / width = {ratio} ({posed})"
    );
    assert!((65.0..80.0).contains(&posed.y), "height {}", posed.y);
}

#[test]
fn tiny_skinned_file_loads_exactly() {
    capture_warnings();
    let model = m3d::parse("tiny.m3d", SKINNED.as_bytes(), None).expect("loads");
    assert_eq!((model.name(), model.format()), ("tiny", "m3d"));
    let sk = model.skeleton();
    assert_eq!(sk.names(), ["bone0", "bone1", "bone2"]);
    assert_eq!(sk.parents().collect::<Vec<_>>(), [None, Some(0), Some(1)]);
    // Bind locals derived from the offsets: each bone 1 above its parent.
    for (j, y) in [(0, 0.0), (1, 1.0), (2, 1.0)] {
        let b = sk.bind_pose()[j];
        assert!(Vec3::from(b.translation).abs_diff_eq(Vec3::new(0.0, y, 0.0), 1e-6));
        assert!(b.rotation.abs_diff_eq(Quat::IDENTITY, 1e-6));
    }
    assert_eq!(sk.offsets()[2].translation(), Vec3::new(0.0, -2.0, 0.0));

    let clip = &model.clips()[0];
    assert_eq!((clip.name(), clip.duration()), ("wave", 1.0));
    assert!(clip.tracks()[2].translation.is_none() && clip.tracks()[2].rotation.is_none());
    assert_eq!(
        clip.tracks()[1].rotation.as_ref().map(|c| c.times.len()),
        Some(3)
    );
    // At 0.5 s bone 0 has risen 0.25 and bone 1 has turned 45 degrees about Z around (0, 1).
    let pal = palette(&model, 0, 0.5);
    assert!(
        pal[0]
            .translation()
            .abs_diff_eq(Vec3::new(0.0, 0.25, 0.0), 1e-6)
    );
    let tip = pal[2].transform_point3(Vec3::new(0.0, 2.0, 0.0));
    let h = std::f32::consts::FRAC_1_SQRT_2;
    assert!(tip.abs_diff_eq(Vec3::new(-h, 1.25 + h, 0.0), 1e-5), "{tip}");

    let mesh = model.mesh();
    assert_eq!(mesh.vertices[2].joints, [0, 1, 2, 0]);
    assert_eq!(mesh.vertices[2].weights, [0.25, 0.25, 0.5, 0.0]);
    assert_eq!(mesh.indices, [0, 1, 2, 1, 3, 2]);
    assert_eq!(
        (mesh.subsets[1].index_start, mesh.subsets[1].index_count),
        (3, 3)
    );
    assert!(mesh.materials[1].alpha_clip);
    assert_eq!(mesh.materials[1].base_color, [0.2, 0.3, 0.8, 1.0]);
    assert!(
        warnings_about("tiny.m3d").is_empty(),
        "no texture dir, no warnings"
    );
}

#[test]
fn tiny_static_file_is_rigid() {
    let model = m3d::parse("pebble.m3d", STATIC.as_bytes(), None).expect("loads");
    assert_eq!(model.skeleton().names(), ["root"]);
    assert!(model.clips().is_empty());
    assert_eq!(model.mesh().vertices.len(), 3);
    assert_eq!(model.mesh().materials[0].name, "stone");
    let with_sections =
        format!("{STATIC}***BoneOffsets***\n***BoneHierarchy***\n***AnimationClips***\n");
    let again = m3d::parse("pebble.m3d", with_sections.as_bytes(), None).expect("loads");
    assert_eq!(again.mesh(), model.mesh());
}

#[test]
fn textures_are_read_once_and_unusable_ones_warn_once() {
    capture_warnings();
    let dir = scratch_dir("m3d_textures");
    let png = image::RgbaImage::from_fn(4, 2, |x, _| image::Rgba([x as u8 * 60, 0, 0, 255]));
    png.save(dir.join("skin_diff.png")).expect("png");
    std::fs::write(dir.join("shared_norm.dds"), b"DDS not really").expect("dds");
    // Both diffuse maps are the same PNG; one normal map is missing, one is a DDS file.
    let text = edit(
        SKINNED,
        "DiffuseMap: cloth_diff.png",
        "DiffuseMap: skin_diff.png",
    );
    let text = edit(
        &text,
        "Roughness: 0.6\nAlphaClip: 0\nMaterialTypeName: Skinned\nDiffuseMap: skin_diff.png\nNormalMap: shared_norm.dds",
        "Roughness: 0.6\nAlphaClip: 0\nMaterialTypeName: Skinned\nDiffuseMap: skin_diff.png\nNormalMap: gone.png",
    );
    let file = dir.join("textured.m3d");
    std::fs::write(&file, &text).expect("write");
    for _ in 0..2 {
        let model = asset::load_file(&file).expect("loads");
        let mesh = model.mesh();
        assert_eq!(
            mesh.textures.len(),
            1,
            "one distinct readable file, read once"
        );
        assert_eq!((mesh.textures[0].width, mesh.textures[0].height), (4, 2));
        let pixels = asset::texture::decode(&mesh.textures[0]).expect("decodes");
        assert_eq!(&pixels.levels[0][4..8], [60, 0, 0, 255]);
        assert!(
            mesh.materials
                .iter()
                .all(|m| m.base_color_texture == Some(0))
        );
        assert!(mesh.materials.iter().all(|m| m.normal_texture.is_none()));
    }
    let warnings = warnings_about(&file.display().to_string());
    let gone: Vec<_> = warnings.iter().filter(|w| w.contains("gone.png")).collect();
    let dds: Vec<_> = warnings
        .iter()
        .filter(|w| w.contains("shared_norm.dds"))
        .collect();
    assert_eq!(
        (gone.len(), dds.len(), warnings.len()),
        (2, 2, 4),
        "{warnings:#?}"
    );
    assert!(gone[0].ends_with("texture gone.png not found; using the material color"));
    assert!(dds[0].contains("DDS"));
}

#[test]
fn weights_off_by_more_than_rounding_are_renormalized_with_one_warning() {
    capture_warnings();
    let text = edit(
        SKINNED,
        "BlendWeights: 0.5 0.5 0 0",
        "BlendWeights: 0.6 0.6 0 0",
    );
    let text = edit(
        &text,
        "BlendWeights: 0.25 0.25 0.5 0",
        "BlendWeights: 0.5 0.5 1 0",
    );
    let model = m3d::parse("heavy.m3d", text.as_bytes(), None).expect("loads");
    let w: Vec<[f32; 4]> = model
        .mesh()
        .vertices
        .iter()
        .map(|v: &Vertex| v.weights)
        .collect();
    assert_eq!(w[1], [0.5, 0.5, 0.0, 0.0]);
    assert_eq!(w[2], [0.25, 0.25, 0.5, 0.0]);
    let warnings = warnings_about("heavy.m3d");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("2 vertices"), "{}", warnings[0]);
    // Rounding-sized errors are left alone.
    let text = edit(
        SKINNED,
        "BlendWeights: 0.5 0.5 0 0",
        "BlendWeights: 0.5 0.5000002 0 0",
    );
    let model = m3d::parse("rounded.m3d", text.as_bytes(), None).expect("loads");
    assert_eq!(model.mesh().vertices[1].weights, [0.5, 0.5000002, 0.0, 0.0]);
    assert!(warnings_about("rounded.m3d").is_empty());
}

#[test]
fn load_file_picks_the_loader_by_extension() {
    let dir = scratch_dir("m3d_extension");
    let upper = dir.join("TINY.M3D");
    std::fs::write(&upper, SKINNED).expect("write");
    let model = asset::load_file(&upper).expect("case-insensitive extension");
    assert_eq!((model.name(), model.format()), ("TINY", "m3d"));
    let other = dir.join("tiny.obj");
    std::fs::write(&other, SKINNED).expect("write");
    let e = asset::load_file(&other).unwrap_err();
    // No native loader claims `.obj`: without Assimp that is the refusal; with it, Assimp's
    // OBJ reader gets the file and refuses the `.m3d` text in its own words.
    #[cfg(not(feature = "assimp"))]
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(e.to_string().contains("tiny.obj"), "{e}");
    let e = m3d::load(&dir.join("missing.m3d")).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Io);
    assert!(e.to_string().contains("missing.m3d"), "{e}");
}
