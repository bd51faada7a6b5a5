//! The glTF loader on the shared third-party models and on fixtures written here: counts,
//! palettes against the naive evaluator and against the file walked independently with the
//! `gltf` crate, joint reordering, folding, rigid meshes, several skins, attribute
//! generation, samplers and warnings.

mod common;
mod gltf_common;

use common::naive::assert_palette_matches;
use common::shared_asset;
use glam::{Mat4, Quat, Vec3, Vec4};
use gltf_common::fixture::{self, FIRST_JOINT_NODE, FLOAT, Fixture, SHORT, UNSIGNED_BYTE};
use gltf_common::reference::Reference;
use serde_json::json;
use throng::anim::{Mat3x4, PoseScratch, SkinnedModel, skin_vertex};
use throng::asset::{self, gltf as loader};

fn load(name: &str) -> SkinnedModel {
    let path = shared_asset(&format!("gltf/{name}"));
    asset::load_file(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(shared_asset(&format!("gltf/{name}"))).expect("shared asset")
}

/// Times at which palettes are compared: before the first key, between keys, at the end,
/// past the end.
fn times(duration: f32) -> [f32; 6] {
    [
        0.0,
        0.02,
        0.3 * duration,
        0.61 * duration,
        duration,
        duration + 0.5,
    ]
}

#[test]
fn the_five_shared_models_load_with_the_readme_counts() {
    // (file, format, joints, clip durations, vertices, triangles, subsets)
    type Row = (
        &'static str,
        &'static str,
        usize,
        &'static [f32],
        usize,
        usize,
        usize,
    );
    let table: [Row; 5] = [
        ("SimpleSkin.gltf", "gltf", 2, &[5.5], 10, 8, 1),
        ("RiggedSimple.glb", "glb", 2, &[2.083333], 160, 188, 1),
        ("RiggedFigure.glb", "glb", 19, &[1.25], 370, 256, 1),
        ("CesiumMan.glb", "glb", 19, &[2.0], 3273, 4672, 1),
        (
            "robot.glb",
            "glb",
            43,
            &[
                3.333333, 0.958333, 3.333333, 0.708333, 1.666667, 0.833333, 0.958333, 0.416667,
                0.416667, 1.583333, 0.958333, 0.833333, 1.833333, 1.666667,
            ],
            7218,
            3238,
            19,
        ),
    ];
    for (file, format, joints, durations, vertices, triangles, subsets) in table {
        let m = load(file);
        assert_eq!(m.name(), file.split('.').next().expect("stem"), "{file}");
        assert_eq!(m.format(), format, "{file}");
        assert_eq!(m.joint_count(), joints, "{file}");
        let got: Vec<f32> = m.clips().iter().map(|c| c.duration()).collect();
        assert_eq!(got.len(), durations.len(), "{file}");
        for (g, w) in got.iter().zip(durations) {
            assert!((g - w).abs() < 1e-5, "{file}: duration {g} vs {w}");
        }
        assert_eq!(m.mesh().vertices.len(), vertices, "{file}");
        assert_eq!(m.mesh().triangle_count(), triangles, "{file}");
        assert_eq!(m.mesh().subsets.len(), subsets, "{file}");
        for v in &m.mesh().vertices {
            let sum: f32 = v.weights.iter().sum();
            assert!((sum - 1.0).abs() < 1e-5, "{file}: weights sum to {sum}");
            let n = Vec3::from(v.normal);
            assert!((n.length() - 1.0).abs() < 1e-3, "{file}: normal {n}");
        }
    }
}

#[test]
fn clips_are_named_or_numbered_and_keep_the_files_timeline() {
    let cesium = load("CesiumMan.glb");
    assert_eq!(cesium.clips()[0].name(), "clip0");
    // CesiumMan's keys start at 1/24 s: the timeline is not shifted.
    assert!((cesium.clips()[0].start() - 0.041_666_6).abs() < 1e-6);
    let robot = load("robot.glb");
    let names: Vec<&str> = robot.clips().iter().map(|c| c.name()).collect();
    assert_eq!(
        names,
        [
            "Robot_Dance",
            "Robot_Death",
            "Robot_Idle",
            "Robot_Jump",
            "Robot_No",
            "Robot_Punch",
            "Robot_Running",
            "Robot_Sitting",
            "Robot_Standing",
            "Robot_ThumbsUp",
            "Robot_Walking",
            "Robot_WalkJump",
            "Robot_Wave",
            "Robot_Yes"
        ]
    );
    assert_eq!(robot.resolve_clip("Robot_Wave").expect("by name"), 12);
    assert_eq!(robot.resolve_clip("3").expect("by index"), 3);
    let materials: Vec<&str> = robot
        .mesh()
        .materials
        .iter()
        .map(|m| m.name.as_str())
        .collect();
    assert_eq!(materials, ["Main", "Grey", "Black"]);
}

#[test]
fn cesium_man_has_its_jpeg_base_color_texture() {
    let m = load("CesiumMan.glb");
    let mesh = m.mesh();
    assert_eq!(mesh.textures.len(), 1);
    let t = &mesh.textures[0];
    assert!(
        t.width >= 256 && t.height >= 256,
        "{}x{}",
        t.width,
        t.height
    );
    assert_eq!(t.rgba8.len(), (t.width * t.height * 4) as usize);
    assert_eq!(mesh.materials[0].name, "Cesium_Man-effect");
    assert_eq!(mesh.materials[0].base_color_texture, Some(0));
    // UVs were read (CesiumMan has TEXCOORD_0), so they are not all zero.
    assert!(mesh.vertices.iter().any(|v| v.uv != [0.0, 0.0]));
}

/// Every shared model; all are animated.
const ANIMATED: [&str; 5] = [
    "CesiumMan.glb",
    "RiggedFigure.glb",
    "robot.glb",
    "RiggedSimple.glb",
    "SimpleSkin.gltf",
];

#[test]
fn palettes_agree_with_the_naive_evaluator() {
    for file in ANIMATED {
        let m = load(file);
        for (c, clip) in m.clips().iter().enumerate() {
            for t in times(clip.duration()) {
                assert_palette_matches(&m, c, t, 1e-4);
            }
        }
    }
}

#[test]
fn palettes_agree_with_the_file_walked_independently() {
    for file in ANIMATED {
        let m = load(file);
        let reference = Reference::new(&bytes(file));
        for (c, clip) in m.clips().iter().enumerate() {
            for t in times(clip.duration()) {
                reference.assert_matches(&m, c, t, 1e-4);
            }
        }
    }
}

fn parse(name: &str, bytes: &[u8]) -> (SkinnedModel, Vec<String>) {
    loader::parse_with_warnings(name, bytes, None).unwrap_or_else(|e| panic!("{e}"))
}

/// Checks a fixture model against both references at several times.
fn assert_fixture_palettes(model: &SkinnedModel, bytes: &[u8]) {
    let reference = Reference::new(bytes);
    for t in [0.0, 0.1, 0.25, 0.5, 0.7, 1.0, 1.2, 1.5, 2.0] {
        assert_palette_matches(model, 0, t, 1e-4);
        reference.assert_matches(model, 0, t, 1e-4);
    }
}

#[test]
fn joints_listed_child_before_parent_are_reordered_and_remapped() {
    for order in [[2, 1, 0], [1, 2, 0], [0, 1, 2]] {
        let fx = Fixture::strip(order);
        for (name, bytes) in [("strip.gltf", fx.gltf()), ("strip.glb", fx.glb())] {
            let (m, warnings) = parse(name, &bytes);
            assert!(warnings.is_empty(), "{warnings:?}");
            assert_eq!(m.format(), &name[6..]);
            assert_eq!(m.name(), "strip");
            let s = m.skeleton();
            assert_eq!(s.names(), fixture::JOINT_NAMES, "sorted parent first");
            assert_eq!(s.parents().collect::<Vec<_>>(), [None, Some(0), Some(1)]);
            for j in 0..3 {
                assert_eq!(
                    s.source_index(j),
                    order.iter().position(|&o| o == j).expect("listed")
                );
            }
            // Row 0 follows root only, row 2 mid only, row 4 tip only; row 1 blends root and mid.
            let v = &m.mesh().vertices;
            assert_eq!((v[0].joints[0], v[0].weights[0]), (0, 1.0));
            assert_eq!((v[4].joints[0], v[4].weights[0]), (1, 1.0));
            assert_eq!((v[8].joints[0], v[8].weights[0]), (2, 1.0));
            assert_eq!(
                (&v[2].joints[..2], &v[2].weights[..2]),
                (&[0, 1][..], &[0.5, 0.5][..])
            );
            assert_fixture_palettes(&m, &bytes);
        }
    }
}

#[test]
fn the_armature_above_the_skeleton_is_folded_into_the_root() {
    let fx = Fixture::strip([0, 1, 2]);
    let (m, _) = parse("strip.glb", &fx.glb());
    // The bind pose reproduces the file's inverse bind matrices: the bind palette is identity.
    let mut scratch = PoseScratch::new(3);
    let mut palette = vec![Mat3x4::IDENTITY; 3];
    m.bind_palette(&mut scratch, &mut palette);
    for p in &palette {
        assert!(p.abs_diff_eq(&Mat3x4::IDENTITY, 1e-5), "{p:?}");
    }
    // The root's bind local is the armature itself (its own transform is the identity).
    let root = m.skeleton().bind_pose()[0];
    let arm = fixture::armature();
    assert!(
        root.to_matrix()
            .abs_diff_eq(&Mat3x4::from_affine(&arm), 1e-5)
    );
}

#[test]
fn generated_normals_face_the_strip_and_tangents_are_perpendicular() {
    let (m, _) = parse("strip.gltf", &Fixture::strip([0, 1, 2]).gltf());
    for v in &m.mesh().vertices {
        let (n, t) = (Vec3::from(v.normal), Vec4::from(v.tangent));
        assert!(n.abs_diff_eq(Vec3::Z, 1e-5), "normal {n}");
        assert!((t.truncate().length() - 1.0).abs() < 1e-5 && t.truncate().dot(n).abs() < 1e-5);
        assert!(t.w == 1.0 || t.w == -1.0);
        assert_eq!(v.uv, [0.0, 0.0], "no TEXCOORD_0 means zero UVs");
    }
}

/// A small triangle at the origin in the XY plane.
const TRIANGLE: [f32; 9] = [0.0, 0.0, 0.0, 0.2, 0.0, 0.0, 0.0, 0.2, 0.0];

/// Adds a one-triangle mesh (POSITION only) and returns its mesh index.
fn add_triangle_mesh(fx: &mut Fixture) -> usize {
    let acc = fx.add_floats(&TRIANGLE, "VEC3");
    let meshes = fx.json["meshes"].as_array_mut().expect("meshes");
    meshes.push(json!({"primitives": [{"attributes": {"POSITION": acc}}]}));
    meshes.len() - 1
}

/// Adds a node and returns its index.
fn add_node(fx: &mut Fixture, node: serde_json::Value) -> usize {
    let nodes = fx.json["nodes"].as_array_mut().expect("nodes");
    nodes.push(node);
    nodes.len() - 1
}

#[test]
fn a_mesh_without_skin_under_a_joint_follows_that_joint_rigidly() {
    let mut fx = Fixture::strip([2, 0, 1]);
    let mesh = add_triangle_mesh(&mut fx);
    let hat = add_node(
        &mut fx,
        json!({"name": "hat", "mesh": mesh, "translation": [0.0, 0.5, 0.0], "rotation": Quat::from_rotation_x(0.3).to_array()}),
    );
    fx.json["nodes"][FIRST_JOINT_NODE + 2]["children"] = json!([hat]);
    // A mesh node outside the skeleton is skipped, with one warning.
    let loose = add_node(&mut fx, json!({"name": "loose", "mesh": mesh}));
    let loose2 = add_node(&mut fx, json!({"name": "loose2", "mesh": mesh}));
    fx.json["scenes"][0]["nodes"] = json!([0, 1, loose, loose2]);
    let bytes = fx.gltf();
    let (m, warnings) = parse("hat.gltf", &bytes);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("skipped"), "{warnings:?}");
    assert_eq!(m.mesh().subsets.len(), 2);
    let reference = Reference::new(&bytes);
    let tip = m.skeleton().find("tip").expect("tip");
    let mut scratch = PoseScratch::new(3);
    let mut palette = vec![Mat3x4::IDENTITY; 3];
    for t in [0.0, 0.4, 1.3] {
        m.evaluate(0, t, &mut scratch, &mut palette);
        let global = reference.global(hat, 0, t);
        for (k, local) in [
            Vec3::ZERO,
            Vec3::new(0.2, 0.0, 0.0),
            Vec3::new(0.0, 0.2, 0.0),
        ]
        .iter()
        .enumerate()
        {
            let v = &m.mesh().vertices[10 + k];
            assert_eq!((v.joints[0], v.weights[0]), (tip as u16, 1.0));
            let skinned = skin_vertex(v, &palette).position;
            let want = global.transform_point3(*local);
            assert!(
                skinned.abs_diff_eq(want, 1e-4),
                "t {t}: {skinned} vs {want}"
            );
        }
    }
}

#[test]
fn several_skins_share_one_skeleton_with_per_skin_joint_indices() {
    let mut fx = Fixture::strip([0, 1, 2]);
    // A second skin lists tip and mid (in that order) with the same inverse bind matrices;
    // its mesh's JOINTS_0 index that list.
    let arm = Mat4::from(fixture::armature());
    let ibm: Vec<u8> = [2usize, 1]
        .iter()
        .flat_map(|&j| {
            (arm * Mat4::from_translation(Vec3::Y * fixture::JOINT_Y[j]))
                .inverse()
                .to_cols_array()
        })
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let ibm = fx.add(&ibm, FLOAT, 2, "MAT4", false);
    fx.json["skins"].as_array_mut().expect("skins").push(json!({
        "joints": [FIRST_JOINT_NODE + 2, FIRST_JOINT_NODE + 1], "inverseBindMatrices": ibm
    }));
    let pos = fx.add_floats(&TRIANGLE, "VEC3");
    let joints = fx.add(
        &[0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
        UNSIGNED_BYTE,
        3,
        "VEC4",
        false,
    );
    let weights = fx.add(
        &[128, 127, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0],
        UNSIGNED_BYTE,
        3,
        "VEC4",
        true,
    );
    fx.json["meshes"]
        .as_array_mut()
        .expect("meshes")
        .push(json!({"primitives": [{
            "attributes": {"POSITION": pos, "JOINTS_0": joints, "WEIGHTS_0": weights}
        }]}));
    add_node(&mut fx, json!({"name": "second", "mesh": 1, "skin": 1}));
    let bytes = fx.glb();
    let (m, warnings) = parse("two.glb", &bytes);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(m.joint_count(), 3);
    let v = &m.mesh().vertices[10..];
    let (tip, mid) = (2, 1);
    assert_eq!(v[0].joints[..2], [tip, mid]);
    assert!((v[0].weights[0] - 128.0 / 255.0).abs() < 1e-6);
    assert_eq!((v[1].joints[0], v[2].joints[0]), (mid, tip));
    assert_fixture_palettes(&m, &bytes);

    // The same joint with a different inverse bind matrix cannot share the skeleton.
    fx.poke_f32(ibm, 12, 5.0);
    let err = loader::parse("two.glb", &fx.glb(), None).expect_err("conflict");
    assert_eq!(err.kind, asset::ErrorKind::Unsupported, "{err}");
    assert!(err.to_string().contains("skins[1]"), "{err}");
}

#[test]
fn normalized_integer_rotations_and_sparse_accessors_are_read() {
    let base = Fixture::strip([0, 1, 2]);
    let (want, _) = parse("s.glb", &base.glb());

    // The LINEAR rotations again as normalized SHORTs.
    let mut fx = base.clone();
    let shorts: Vec<u8> = [0.0f32, 0.6, -0.4]
        .iter()
        .flat_map(|&a| Quat::from_rotation_z(a).to_array())
        .flat_map(|c| ((c * 32767.0).round() as i16).to_le_bytes())
        .collect();
    let acc = fx.add(&shorts, SHORT, 3, "VEC4", true);
    fx.json["animations"][0]["samplers"][1]["output"] = json!(acc);
    let (m, _) = parse("s.glb", &fx.glb());
    let mut scratch = PoseScratch::new(3);
    let (mut a, mut b) = (vec![Mat3x4::IDENTITY; 3], vec![Mat3x4::IDENTITY; 3]);
    for t in [0.25, 0.75] {
        want.evaluate(0, t, &mut scratch, &mut a);
        m.evaluate(0, t, &mut scratch, &mut b);
        for (x, y) in a.iter().zip(&b) {
            assert!(x.abs_diff_eq(y, 1e-3), "{x:?} vs {y:?}");
        }
    }

    // A sparse accessor moves vertex 9 of the positions.
    let mut fx = base.clone();
    let idx = fx.add(&[9, 0, 0, 0], UNSIGNED_BYTE, 1, "SCALAR", false);
    let val = fx.add_floats(&[1.0f32, 2.0, 3.0], "VEC3");
    let positions = fx.acc.positions;
    let views = (
        fx.json["accessors"][idx]["bufferView"].clone(),
        fx.json["accessors"][val]["bufferView"].clone(),
    );
    fx.json["accessors"][positions]["sparse"] = json!({"count": 1, "indices": {"bufferView": views.0, "componentType": 5121}, "values": {"bufferView": views.1}});
    let (m, _) = parse("s.gltf", &fx.gltf());
    assert_eq!(m.mesh().vertices[9].position, [1.0, 2.0, 3.0]);
    assert_eq!(
        m.mesh().vertices[8].position,
        want.mesh().vertices[8].position
    );
}

#[test]
fn repairs_and_ignored_data_warn_once_each() {
    let mut fx = Fixture::strip([0, 1, 2]);
    // Key times 0, 1, 1: the repeated key is dropped, keeping the later one.
    let t3 = fx.add_floats(&[0.0f32, 1.0, 1.0], "SCALAR");
    let v3 = fx.add_floats(&[0.0f32, 0.0, 0.0, 0.5, 0.0, 0.0, 0.7, 0.0, 0.0], "VEC3");
    fx.json["animations"][0]["samplers"][0] =
        json!({"input": t3, "output": v3, "interpolation": "STEP"});
    // Weights summing to 0.5 on every vertex: renormalized.
    for k in 0..40 {
        let w = f32::from_le_bytes(
            fx.bin[fx.offsets[fx.acc.weights] + 4 * k..][..4]
                .try_into()
                .expect("4"),
        );
        fx.poke_f32(fx.acc.weights, k, w * 0.5);
    }
    // Channels on the mesh node (neither a joint nor above one), twice, and a morph-weights
    // channel. (A channel on the armature would make it a joint: tests/gltf_animated_ancestor.rs.)
    let samplers = fx.json["animations"][0]["samplers"]
        .as_array_mut()
        .expect("samplers");
    samplers.push(json!({"input": fx.acc.linear_times, "output": fx.acc.linear_times}));
    let s = samplers.len() - 1;
    let channels = fx.json["animations"][0]["channels"]
        .as_array_mut()
        .expect("channels");
    channels.push(json!({"sampler": 1, "target": {"node": 0, "path": "rotation"}}));
    channels.push(json!({"sampler": 1, "target": {"node": 0, "path": "rotation"}}));
    channels.push(json!({"sampler": s, "target": {"node": 0, "path": "weights"}}));
    let (m, warnings) = parse("warn.gltf", &fx.gltf());
    assert_eq!(warnings.len(), 4, "{warnings:#?}");
    for needle in [
        "repeat the previous key",
        "renormalized",
        "not a joint",
        "morph target",
    ] {
        assert_eq!(
            warnings.iter().filter(|w| w.contains(needle)).count(),
            1,
            "{needle}: {warnings:#?}"
        );
    }
    assert!(
        warnings
            .iter()
            .all(|w| w.starts_with("warn.gltf: ") && !w.contains('\n'))
    );
    let root = m.clips()[0].tracks()[0]
        .translation
        .as_ref()
        .expect("translation");
    assert_eq!(root.times, [0.0, 1.0]);
    let v = &m.mesh().vertices[2];
    assert_eq!(v.weights[..2], [0.5, 0.5]);
}

#[test]
fn a_missing_image_file_warns_once_and_falls_back_to_the_color() {
    let mut fx = Fixture::strip([0, 1, 2]);
    fx.json["images"] = json!([{"uri": "missing%20texture.png"}]);
    fx.json["textures"] = json!([{"source": 0}]);
    fx.json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"] = json!({"index": 0});
    fx.json["materials"][0]["normalTexture"] = json!({"index": 0});
    fx.json["materials"].as_array_mut().expect("m").push(
        json!({"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}, "alphaMode": "MASK"}),
    );
    let dir = std::env::temp_dir().join(format!("throng-gltf-img-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("tex.gltf");
    std::fs::write(&path, fx.gltf()).expect("write");
    let (m, warnings) =
        loader::parse_with_warnings(&path.display().to_string(), &fx.gltf(), Some(&dir))
            .expect("loads");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("missing texture.png") && warnings[0].contains("images[0]"),
        "{warnings:?}"
    );
    let mats = &m.mesh().materials;
    assert_eq!(mats[0].base_color_texture, None);
    assert_eq!(mats[0].base_color, [0.8, 0.2, 0.2, 1.0]);
    assert_eq!(mats[0].roughness, 0.5);
    assert_eq!(
        (mats[1].name.as_str(), mats[1].alpha_clip),
        ("material1", true)
    );
    assert!(asset::load_file(&path).is_ok());
    // Without a folder the external image is an error, not a warning.
    let err = loader::parse("tex.gltf", &fx.gltf(), None).expect_err("no folder");
    assert_eq!(err.kind, asset::ErrorKind::Unsupported);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_primitive_without_indices_gets_sequential_ones() {
    let mut fx = Fixture::strip([0, 1, 2]);
    let mesh = add_triangle_mesh(&mut fx);
    let node = add_node(&mut fx, json!({"mesh": mesh}));
    fx.json["nodes"][FIRST_JOINT_NODE]["children"] = json!([FIRST_JOINT_NODE + 1, node]);
    let (m, _) = parse("seq.glb", &fx.glb());
    let mesh = m.mesh();
    assert_eq!(mesh.subsets[1].index_count, 3);
    assert_eq!(mesh.indices[24..], [10, 11, 12]);
}

#[test]
fn an_image_in_a_data_uri_is_decoded() {
    use base64::Engine;
    let mut png = Vec::new();
    image::RgbaImage::from_fn(3, 2, |x, y| {
        image::Rgba([x as u8 * 100, y as u8 * 100, 7, 255])
    })
    .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
    .expect("png");
    let uri = format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&png)
    );
    let mut fx = Fixture::strip([0, 1, 2]);
    fx.json["images"] = json!([{"uri": uri}]);
    fx.json["textures"] = json!([{"source": 0}]);
    fx.json["materials"][0]["normalTexture"] = json!({"index": 0});
    let (m, warnings) = parse("img.gltf", &fx.gltf());
    assert!(warnings.is_empty(), "{warnings:?}");
    let mesh = m.mesh();
    assert_eq!(mesh.materials[0].normal_texture, Some(0));
    let t = &mesh.textures[0];
    assert_eq!((t.width, t.height, t.name.as_str()), (3, 2, "image 0"));
    assert_eq!(&t.rgba8[4..8], &[100, 0, 7, 255]);
}
