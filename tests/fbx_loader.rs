//! The native FBX loader (ufbx) on small generated files (`fbx_samples`) and on
//! `huesitos.fbx` without the `assimp` feature: which nodes become joints, sampled clips,
//! axis conversion, four influences per vertex, materials and textures under the reading
//! policy, and errors that name the FBX object.

mod common;
mod fbx_samples;

use std::path::{Path, PathBuf};

use glam::{Quat, Vec3};
use throng::anim::{Mat3x4, PoseScratch, SkinnedModel, Transform};
use throng::asset::{self, ErrorKind, LoadOptions, fbx};

use common::naive::assert_palette_matches;
use fbx_samples::Scene;

fn parse(name: &str, scene: &Scene) -> (SkinnedModel, Vec<String>) {
    let text = scene.write();
    fbx::parse_with_options(name, text.as_bytes(), None, &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn names_in_source_order(model: &SkinnedModel) -> Vec<String> {
    let s = model.skeleton();
    s.index_from_source()
        .into_iter()
        .map(|j| s.names()[j].clone())
        .collect()
}

fn locals(model: &SkinnedModel, t: f32) -> Vec<Transform> {
    let mut out = vec![Transform::IDENTITY; model.joint_count()];
    model.clips()[0].sample(t, &mut out);
    out
}

fn palette(model: &SkinnedModel, t: f32) -> Vec<Mat3x4> {
    let n = model.joint_count();
    let mut scratch = PoseScratch::new(n);
    let mut out = vec![Mat3x4::IDENTITY; n];
    model.evaluate(0, t, &mut scratch, &mut out);
    out
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn the_standard_sample_loads_with_its_bones_then_its_moving_armature() {
    let (model, warnings) = parse("standard.fbx", &fbx_samples::standard());
    assert_eq!(model.format(), "fbx");
    assert_eq!(asset::loader_of(model.format()), "ufbx");
    assert_eq!(
        names_in_source_order(&model),
        ["Hips", "Spine", "Armature"],
        "the clusters' bones, then the animated node above them"
    );
    assert!(warnings.is_empty(), "{warnings:?}");
    let mesh = model.mesh();
    assert_eq!(mesh.triangle_count(), 3, "a quad and a triangle");
    assert_eq!(mesh.subsets.len(), 2, "one per material");
    let names: Vec<&str> = mesh.materials.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["Red", "Blue"]);
    assert_eq!(mesh.materials[0].base_color, [1.0, 0.0, 0.0, 1.0]);

    let clip = &model.clips()[0];
    assert_eq!(clip.name(), "Wave");
    assert!((clip.duration() - 1.0).abs() < 1e-6);
    // Sampled at the file's 30 frames per second: 31 keys from 0 to 1 s.
    let spine = model.skeleton().find("Spine").expect("spine");
    let keys = clip.tracks()[spine].rotation.as_ref().expect("rotation");
    assert_eq!(keys.times.len(), 31);
    assert!((keys.times[1] - 1.0 / 30.0).abs() < 1e-6);
    // A channel whose samples are all equal keeps one key.
    let hips = model.skeleton().find("Hips").expect("hips");
    assert_eq!(
        clip.tracks()[hips].rotation.as_ref().map(|c| c.times.len()),
        Some(1)
    );

    let at_end = locals(&model, 1.0);
    let want = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    assert!(at_end[spine].rotation.dot(want).abs() > 1.0 - 1e-6);
    let armature = model.skeleton().find("Armature").expect("armature");
    assert!((Vec3::from(at_end[armature].translation) - Vec3::new(2.0, 0.0, 0.0)).length() < 1e-5);
    for t in [0.0, 0.25, 0.5, 1.0, 1.5] {
        assert_palette_matches(&model, 0, t, 1e-5);
    }
    // The bind pose is the rest pose: the palette is the identity.
    let rest = palette(&model, 0.0);
    assert!(
        rest.iter().all(|m| m.abs_diff_eq(&Mat3x4::IDENTITY, 1e-5)),
        "{rest:?}"
    );
    // At the end the vertex weighted only by the spine (at (0, 2, 0), the spine at (0, 2, 0)
    // turned a quarter about z) stays, and the armature has moved everything 2 along x.
    let end = palette(&model, 1.0);
    let moved = end[spine].transform_point3(Vec3::new(1.0, 2.0, 0.0));
    assert!(
        (moved - Vec3::new(2.0, 3.0, 0.0)).length() < 1e-4,
        "{moved}"
    );
}

#[test]
fn a_bone_bound_in_another_pose_than_its_rest_one_skins_from_its_bind_matrix() {
    let scene = fbx_samples::bound_bent();
    let (model, _) = parse("bent.fbx", &scene);
    let spine = model.skeleton().find("Spine").expect("spine");
    // The vertex weighted only by the spine, skinned at rest: rest world x bind world⁻¹ x
    // its place at bind.
    let v = model
        .mesh()
        .vertices
        .iter()
        .find(|v| v.weights[0] == 1.0 && v.joints[0] as usize == spine)
        .expect("a vertex on the spine alone");
    let p = glam::DVec3::from(v.position.map(f64::from));
    let want = scene.world(2) * scene.bind_world(2).inverse() * p.extend(1.0);
    let got = palette(&model, 0.0)[spine].transform_point3(Vec3::from(v.position));
    assert!(
        (got.as_dvec3() - want.truncate()).length() < 1e-4,
        "{got} vs {want}"
    );
    // The mesh is stored where it was bound: the vertex at (0, 2, 0) of the mesh node.
    assert!((p - glam::DVec3::new(0.0, 2.0, 0.0)).length() < 1e-5, "{p}");
    assert_palette_matches(&model, 0, 0.5, 1e-5);
}

#[test]
fn a_z_up_file_comes_out_y_up() {
    let (model, _) = parse("z-up.fbx", &fbx_samples::z_up());
    let bounds = model.mesh().bounds().expect("vertices");
    // The character stands along +Y, as the Y-up sample does, two units tall.
    assert!((bounds.min - Vec3::ZERO).length() < 1e-5, "{bounds:?}");
    assert!(
        (bounds.max - Vec3::new(1.0, 2.0, 0.0)).length() < 1e-5,
        "{bounds:?}"
    );
    let (standard, _) = parse("standard.fbx", &fbx_samples::standard());
    let a: Vec<[f32; 3]> = model.mesh().vertices.iter().map(|v| v.position).collect();
    let b: Vec<[f32; 3]> = standard
        .mesh()
        .vertices
        .iter()
        .map(|v| v.position)
        .collect();
    assert_eq!(a.len(), b.len());
    for (p, q) in a.iter().zip(&b) {
        assert!(
            (Vec3::from(*p) - Vec3::from(*q)).length() < 1e-5,
            "{p:?} vs {q:?}"
        );
    }
}

#[test]
fn an_animated_node_with_no_bone_below_it_is_no_joint() {
    let (model, _) = parse("biped.fbx", &fbx_samples::biped_with_footsteps());
    // The bones, then the moving node above them; the footsteps, moving beside the pelvis,
    // move nothing on the skin and are dropped.
    assert_eq!(
        names_in_source_order(&model),
        ["Bip01_Pelvis", "Bip01_Spine", "Bip01"]
    );
    assert_palette_matches(&model, 0, 0.5, 1e-5);
}

#[test]
fn more_than_four_influences_keep_the_four_largest_renormalized_with_one_warning() {
    let (model, warnings) = parse("five.fbx", &fbx_samples::five_weights());
    let v = model
        .mesh()
        .vertices
        .iter()
        .find(|v| v.position == [0.0, 2.0, 0.0])
        .expect("the top vertex");
    // Weights 1.0 (Spine), 0.4, 0.3, 0.2 and 0.1 (Hips): the smallest goes.
    let names: Vec<&str> = v
        .joints
        .iter()
        .map(|&j| model.skeleton().names()[j as usize].as_str())
        .collect();
    assert_eq!(names, ["Spine", "A", "B", "C"]);
    let total = 1.0 + 0.4 + 0.3 + 0.2;
    for (w, want) in v.weights.iter().zip([1.0, 0.4, 0.3, 0.2]) {
        assert!((w - want / total).abs() < 1e-6, "{:?}", v.weights);
    }
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("1 vertices have more than four bone weights"),
        "{warnings:?}"
    );
}

#[test]
fn an_unusable_frame_rate_samples_at_thirty_per_second_with_a_warning() {
    let mut scene = fbx_samples::standard();
    scene.time_mode = 14;
    scene.custom_fps = 0.0;
    let (model, warnings) = parse("custom.fbx", &scene);
    let spine = model.skeleton().find("Spine").expect("spine");
    let keys = model.clips()[0].tracks()[spine]
        .rotation
        .as_ref()
        .expect("keys");
    assert_eq!(keys.times.len(), 31);
    assert!(
        warnings.iter().any(|w| w.contains("frame rate")),
        "{warnings:?}"
    );
    // 24 per second when the file says so; a length that is not a whole number of frames
    // ends with a sample at the stack's end.
    scene.time_mode = 11;
    scene.stacks[0].stop = 0.51;
    let (model, _) = parse("film.fbx", &scene);
    let keys = model.clips()[0].tracks()[spine]
        .rotation
        .as_ref()
        .expect("keys");
    assert_eq!(keys.times.len(), 14, "0 .. 12/24 s, then 0.51 s");
    assert!((keys.times[13] - 0.51).abs() < 1e-6);
}

fn textured(texture: fbx_samples::TextureSpec) -> Scene {
    let mut scene = fbx_samples::standard();
    scene.mesh.materials[0].texture = Some(texture);
    scene
}

#[test]
fn an_embedded_png_is_the_materials_texture() {
    let scene = textured(fbx_samples::TextureSpec {
        relative: "red.png",
        absolute: "C:\\art\\red.png",
        embedded: Some(fbx_samples::tiny_png()),
    });
    // No folder: nothing is read from disk, and the embedded image is still found.
    let (model, warnings) = parse("embedded.fbx", &scene);
    assert!(warnings.is_empty(), "{warnings:?}");
    let mesh = model.mesh();
    assert_eq!(mesh.textures.len(), 1);
    assert_eq!((mesh.textures[0].width, mesh.textures[0].height), (2, 2));
    assert_eq!(mesh.materials[0].base_color_texture, Some(0));
    assert_eq!(mesh.materials[1].base_color_texture, None);
    // Bytes that are no image the decoder reads are a warning, and the colour stays.
    let scene = textured(fbx_samples::TextureSpec {
        relative: "red.tga",
        absolute: "",
        embedded: Some(b"TRUEVISION-XFILE".to_vec()),
    });
    let (model, warnings) = parse("tga.fbx", &scene);
    assert!(model.mesh().textures.is_empty());
    assert_eq!(model.mesh().materials[0].base_color, [1.0, 0.0, 0.0, 1.0]);
    assert!(
        warnings.iter().any(|w| w.contains("red.tga")),
        "{warnings:?}"
    );
}

#[test]
fn texture_files_are_read_beside_the_model_under_the_path_policy() {
    let dir = scratch_dir("fbx-textures");
    std::fs::write(dir.join("red.png"), fbx_samples::tiny_png()).expect("png");
    let load = |name: &str, texture: fbx_samples::TextureSpec| {
        let path = dir.join(name);
        std::fs::write(&path, textured(texture).write()).expect("fbx");
        let bytes = std::fs::read(&path).expect("read");
        fbx::parse_with_options(name, &bytes, Some(&dir), &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{e}"))
    };
    // The relative name, beside the model.
    let (model, _) = load(
        "relative.fbx",
        fbx_samples::TextureSpec {
            relative: "red.png",
            absolute: "/nowhere/red.png",
            embedded: None,
        },
    );
    assert_eq!(model.mesh().materials[0].base_color_texture, Some(0));
    // An absolute name (a Windows path here) is never opened as it is: its bare file name is
    // looked for beside the model.
    let (model, _) = load(
        "absolute.fbx",
        fbx_samples::TextureSpec {
            relative: "",
            absolute: "C:\\Users\\artist\\red.png",
            embedded: None,
        },
    );
    assert_eq!(model.mesh().materials[0].base_color_texture, Some(0));
    // A name that leaves the folder is refused (even though the file exists inside it
    // under another path); its bare name beside the model is read instead.
    let (model, _) = load(
        "escape.fbx",
        fbx_samples::TextureSpec {
            relative: "../../red.png",
            absolute: "",
            embedded: None,
        },
    );
    assert_eq!(model.mesh().materials[0].base_color_texture, Some(0));
    // Missing: the material keeps its colour, and the warning says why.
    let (model, warnings) = load(
        "missing.fbx",
        fbx_samples::TextureSpec {
            relative: "blue.png",
            absolute: "",
            embedded: None,
        },
    );
    assert!(model.mesh().textures.is_empty());
    assert_eq!(model.mesh().materials[0].base_color, [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(
        warnings,
        ["missing.fbx: texture 'blue.png' not found; materials using it keep their colour"]
    );
    // Through the file-loading entry point, the folder is the model's.
    let model = fbx::load(&dir.join("relative.fbx")).expect("loads");
    assert_eq!(model.mesh().textures.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn huesitos_loads_natively() {
    let path = common::shared_asset("assimp/huesitos.fbx");
    let model = asset::load_file(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(model.format(), "fbx");
    assert_eq!(model.joint_count(), 9);
    assert_eq!(
        (model.mesh().vertices.len(), model.mesh().triangle_count()),
        (128, 120)
    );
    assert_eq!(model.clips()[0].name(), "Armature|Action");
    assert!((model.clips()[0].duration() - 1.56).abs() < 1e-4);
    assert_eq!(model.mesh().materials[0].name, "Material.001");
    for t in [0.0, 0.3, 0.9, 1.56] {
        assert_palette_matches(&model, 0, t, 1e-4);
    }
    // The extension picks the loader in any case.
    let dir = scratch_dir("fbx-upper");
    let upper = dir.join("HUESITOS.FBX");
    std::fs::copy(&path, &upper).expect("copy");
    let model = asset::load_file(&upper).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((model.format(), model.name()), ("fbx", "HUESITOS"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn info_names_the_loader() {
    let path = common::shared_asset("assimp/huesitos.fbx");
    let v = common::cli::json(&["info", &path.display().to_string(), "--json"]);
    assert_eq!(v["format"], "fbx");
    assert_eq!(v["loader"], "ufbx");
    assert_eq!(v["joints"], 9);
    let out = common::cli::throng(&["info", &path.display().to_string()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().any(|l| l == "loader     ufbx"), "{text}");
}

/// `bytes` as an FBX file that must be refused: one line naming the file, and the kind.
fn refused(name: &str, bytes: &[u8], kind: ErrorKind, says: &str) {
    let err = match fbx::parse(name, bytes, None) {
        Ok(_) => panic!("{name} loads"),
        Err(e) => e,
    };
    let line = err.to_string();
    assert!(!line.contains('\n'), "{line}");
    assert!(line.starts_with(&format!("{name}: ")), "{line}");
    assert_eq!(err.kind, kind, "{line}");
    assert!(line.contains(says), "{line} should say {says}");
}

#[test]
fn broken_files_are_refused_with_one_line_naming_the_fbx_object() {
    refused("empty.fbx", b"", ErrorKind::Syntax, "not an FBX file");
    // Text that is no FBX reads as an ASCII file that ends too soon.
    refused(
        "text.fbx",
        b"hello, world",
        ErrorKind::Truncated,
        "ufbx: could not read the file",
    );
    // No skinned mesh: nothing for throng to animate.
    let mut scene = fbx_samples::standard();
    scene.mesh.clusters.clear();
    refused(
        "rigid.fbx",
        scene.write().as_bytes(),
        ErrorKind::Unsupported,
        "no mesh has a skin with clusters",
    );
    // A node whose transform is not finite.
    let mut scene = fbx_samples::standard();
    scene.nodes[1].translation[1] = f64::INFINITY;
    let text = scene.write().replace("inf", "1e999");
    refused(
        "inf.fbx",
        text.as_bytes(),
        ErrorKind::NonFinite,
        "node 'Hips'",
    );
    // A stack that ends before it begins.
    let mut scene = fbx_samples::standard();
    scene.stacks[0].stop = -1.0;
    refused(
        "backwards.fbx",
        scene.write().as_bytes(),
        ErrorKind::Invalid,
        "animation stack 'Wave': ends",
    );
    // A binary file cut short.
    let bytes = std::fs::read(common::shared_asset("assimp/huesitos.fbx")).expect("huesitos");
    let err = fbx::parse("cut.fbx", &bytes[..bytes.len() / 2], None).expect_err("cut");
    assert!(!err.to_string().contains('\n'), "{err}");
}

#[test]
fn a_stack_with_an_empty_time_range_is_sampled_over_its_keys() {
    let mut scene = fbx_samples::standard();
    scene.stacks[0].stop = 0.0;
    let (model, warnings) = parse("empty-range.fbx", &scene);
    assert!((model.clips()[0].duration() - 1.0).abs() < 1e-6);
    assert!(
        warnings.iter().any(|w| w.contains("time range is empty")),
        "{warnings:?}"
    );
}
