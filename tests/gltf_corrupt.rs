//! Damaged glTF inputs: each must fail with the expected `ErrorKind` and a one-line message
//! that names the file and the glTF object at fault, never panic.

mod gltf_common;

use gltf_common::fixture::{FIRST_JOINT_NODE, Fixture, UNSIGNED_BYTE};
use serde_json::json;
use throng::asset::{self, ErrorKind, LoadError};

/// One corrupted input and what the loader must say about it.
struct Case {
    what: &'static str,
    file: &'static str,
    bytes: Vec<u8>,
    kind: ErrorKind,
    section: &'static str,
}

fn base() -> Fixture {
    Fixture::strip([2, 0, 1])
}

/// The fixture with `edit` applied, as `.glb`.
fn glb(edit: impl FnOnce(&mut Fixture)) -> Vec<u8> {
    let mut fx = base();
    edit(&mut fx);
    fx.glb()
}

/// The fixture with `edit` applied, as `.gltf` with a base64 buffer.
fn gltf(edit: impl FnOnce(&mut Fixture)) -> Vec<u8> {
    let mut fx = base();
    edit(&mut fx);
    fx.gltf()
}

fn case(
    what: &'static str,
    file: &'static str,
    bytes: Vec<u8>,
    kind: ErrorKind,
    section: &'static str,
) -> Case {
    Case {
        what,
        file,
        bytes,
        kind,
        section,
    }
}

fn cases() -> Vec<Case> {
    let good = base().glb();
    let mut out = vec![
        case(
            "truncated GLB",
            "t.glb",
            good[..good.len() / 2].to_vec(),
            ErrorKind::Truncated,
            "header",
        ),
        case(
            "GLB cut inside its header",
            "t.glb",
            good[..10].to_vec(),
            ErrorKind::Truncated,
            "header",
        ),
        case(
            "bad magic",
            "t.glb",
            [b"glTX".as_slice(), &good[4..]].concat(),
            ErrorKind::Syntax,
            "header",
        ),
        case(
            "GLB version 1",
            "t.glb",
            [&good[..4], &1u32.to_le_bytes(), &good[8..]].concat(),
            ErrorKind::Unsupported,
            "header",
        ),
        case(
            "chunk length past the end",
            "t.glb",
            [&good[..12], &0x7fff_0000u32.to_le_bytes(), &good[16..]].concat(),
            ErrorKind::Truncated,
            "chunk 0",
        ),
        case(
            "not JSON",
            "t.gltf",
            b"{ \"asset\": nope".to_vec(),
            ErrorKind::Syntax,
            "json",
        ),
    ];
    out.push(case(
        "accessor out of bounds",
        "t.glb",
        glb(|fx| fx.json["accessors"][fx.acc.positions]["byteOffset"] = json!(4000)),
        ErrorKind::IndexOutOfRange,
        "accessors[0]",
    ));
    out.push(case(
        "huge accessor count",
        "t.glb",
        glb(|fx| fx.json["accessors"][fx.acc.weights]["count"] = json!(4_000_000_000u64)),
        ErrorKind::IndexOutOfRange,
        "accessors[3]",
    ));
    out.push(case(
        "huge sparse accessor with no buffer view",
        "t.glb",
        glb(|fx| {
            let acc = &mut fx.json["accessors"][fx.acc.weights];
            acc.as_object_mut().expect("accessor").remove("bufferView");
            acc["count"] = json!(2_000_000_000u64);
            // Without a buffer view an accessor must be sparse (its base is zeros).
            acc["sparse"] = json!({"count": 1, "indices": {"bufferView": 2, "componentType": 5121}, "values": {"bufferView": 3}});
        }),
        ErrorKind::TooLarge,
        "accessors[3]",
    ));
    out.push(case(
        "JOINTS_0 index past the skin",
        "t.glb",
        glb(|fx| {
            let at = fx.offsets[fx.acc.joints];
            fx.bin[at] = 7;
        }),
        ErrorKind::IndexOutOfRange,
        "meshes[0].primitives[0]",
    ));
    out.push(case(
        "vertex index past the vertices",
        "t.gltf",
        gltf(|fx| {
            let at = fx.offsets[fx.acc.indices] + 2;
            fx.bin[at] = 10;
        }),
        ErrorKind::IndexOutOfRange,
        "meshes[0].primitives[0]",
    ));
    out.push(case(
        "skin joint not a node",
        "t.gltf",
        gltf(|fx| fx.json["skins"][0]["joints"][1] = json!(99)),
        ErrorKind::IndexOutOfRange,
        "skins[0]",
    ));
    out.push(case(
        "node cycle",
        "t.gltf",
        gltf(|fx| {
            fx.json["nodes"][1]["children"] = json!([]);
            fx.json["nodes"][FIRST_JOINT_NODE + 2]["children"] = json!([FIRST_JOINT_NODE]);
        }),
        ErrorKind::ParentOrder,
        "nodes[",
    ));
    out.push(case(
        "node with two parents",
        "t.gltf",
        gltf(|fx| fx.json["nodes"][0]["children"] = json!([FIRST_JOINT_NODE + 1])),
        ErrorKind::Invalid,
        "nodes[3]",
    ));
    out.push(case(
        "NaN in an inverse bind matrix",
        "t.glb",
        glb(|fx| fx.poke_f32(fx.acc.ibm, 5, f32::NAN)),
        ErrorKind::NonFinite,
        "skins[0]",
    ));
    out.push(case(
        "invalid base64",
        "t.gltf",
        {
            let mut fx = base();
            fx.json["buffers"][0]["uri"] =
                json!("data:application/octet-stream;base64,@@@@not*base64");
            serde_json::to_vec(&fx.json).expect("json")
        },
        ErrorKind::Syntax,
        "buffers[0]",
    ));
    out.push(case(
        "buffer shorter than its byteLength",
        "t.glb",
        glb(|fx| fx.json["buffers"][0]["byteLength"] = json!(fx.bin.len() + 64)),
        ErrorKind::Truncated,
        "buffers[0]",
    ));
    out.push(case(
        "external buffer with no folder",
        "t.gltf",
        base().gltf_external("strip.bin"),
        ErrorKind::Unsupported,
        "buffers[0]",
    ));
    out.push(case(
        "external buffer outside the model's folder",
        "t.gltf",
        base().gltf_external("../strip.bin"),
        ErrorKind::Unsupported,
        "buffers[0]",
    ));
    out.push(case(
        "non-triangle mode",
        "t.glb",
        glb(|fx| fx.json["meshes"][0]["primitives"][0]["mode"] = json!(1)),
        ErrorKind::Unsupported,
        "meshes[0].primitives[0]",
    ));
    out.push(case(
        "skinned primitive without weights",
        "t.glb",
        glb(|fx| {
            let attrs = fx.json["meshes"][0]["primitives"][0]["attributes"]
                .as_object_mut()
                .expect("attributes");
            attrs.remove("WEIGHTS_0");
        }),
        ErrorKind::Invalid,
        "meshes[0].primitives[0]",
    ));
    out.push(case(
        "JOINTS_0 stored as floats",
        "t.glb",
        glb(|fx| {
            fx.json["meshes"][0]["primitives"][0]["attributes"]["JOINTS_0"] = json!(fx.acc.weights)
        }),
        ErrorKind::Invalid,
        "accessors[3]",
    ));
    out.push(case(
        "decreasing animation times",
        "t.glb",
        glb(|fx| fx.poke_f32(fx.acc.linear_times, 2, 0.25)),
        ErrorKind::Invalid,
        "animations[0].channels[1]",
    ));
    out.push(case(
        "negative animation time",
        "t.glb",
        glb(|fx| fx.poke_f32(fx.acc.step_times, 0, -1.0)),
        ErrorKind::Invalid,
        "animations[0].channels[0]",
    ));
    out.push(case(
        "more outputs than key times",
        "t.glb",
        glb(|fx| {
            let cubic_output = fx.json["animations"][0]["samplers"][2]["output"].clone();
            fx.json["animations"][0]["samplers"][0]["output"] = cubic_output;
        }),
        ErrorKind::CountMismatch,
        "animations[0].channels[0]",
    ));
    out.push(case(
        "non-uniform scale above the skeleton",
        "t.glb",
        glb(|fx| fx.json["nodes"][1]["scale"] = json!([1.0, 3.0, 1.0])),
        ErrorKind::Unsupported,
        "nodes[2]",
    ));
    out.push(case(
        "corrupt embedded image",
        "t.glb",
        glb(|fx| {
            let img = fx.add(&[1, 2, 3, 4, 5, 6, 7, 8], UNSIGNED_BYTE, 2, "VEC4", false);
            let view = fx.json["accessors"][img]["bufferView"].clone();
            fx.json["images"] = json!([{"bufferView": view, "mimeType": "image/png"}]);
            fx.json["textures"] = json!([{"source": 0}]);
            fx.json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"] =
                json!({"index": 0});
        }),
        ErrorKind::Invalid,
        "images[0]",
    ));
    out.push(case(
        "animation channel of a node that does not exist",
        "t.glb",
        glb(|fx| fx.json["animations"][0]["channels"][0]["target"]["node"] = json!(42)),
        ErrorKind::IndexOutOfRange,
        "animations[0].channels[0]",
    ));
    out.push(case(
        "joint name with a line break, moved to infinity by the fold",
        "t.gltf",
        gltf(|fx| {
            let joint = &mut fx.json["nodes"][FIRST_JOINT_NODE];
            joint["name"] = json!("root\nline two");
            joint["translation"] = json!([3e38, 0, 0]);
        }),
        ErrorKind::NonFinite,
        "root line two",
    ));
    out.push(case(
        "joint matrix with shear",
        "t.gltf",
        gltf(|fx| {
            let joint = &mut fx.json["nodes"][FIRST_JOINT_NODE + 1];
            joint["matrix"] = json!([1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1]);
            joint.as_object_mut().expect("node").remove("translation");
        }),
        ErrorKind::Unsupported,
        "nodes[3]",
    ));
    out.push(case(
        "no skin at all",
        "t.glb",
        glb(|fx| {
            fx.json.as_object_mut().expect("root").remove("skins");
            fx.json["nodes"][0]
                .as_object_mut()
                .expect("node")
                .remove("skin");
        }),
        ErrorKind::Unsupported,
        "skins",
    ));
    out.push(case(
        "POSITION accessor that does not exist",
        "t.gltf",
        gltf(|fx| fx.json["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = json!(500)),
        ErrorKind::IndexOutOfRange,
        "meshes[0].primitives[0]",
    ));
    out.push(case(
        "animation channel with an unknown path",
        "t.gltf",
        gltf(|fx| fx.json["animations"][0]["channels"][2]["target"]["path"] = json!("shear")),
        ErrorKind::Invalid,
        "animations[0].channels[2]",
    ));
    out
}

fn assert_error(what: &str, file: &str, err: &LoadError, kind: ErrorKind, section: &str) {
    let line = err.to_string();
    assert_eq!(err.kind, kind, "{what}: {line}");
    assert!(!line.contains('\n'), "{what}: not one line: {line}");
    assert!(
        line.starts_with(&format!("{file}: ")),
        "{what}: does not name the file: {line}"
    );
    assert!(
        line.contains(section),
        "{what}: does not name {section}: {line}"
    );
}

#[test]
fn corrupted_inputs_fail_with_the_right_kind_naming_file_and_section() {
    let cases = cases();
    assert!(cases.len() >= 12);
    for c in cases {
        let result = std::panic::catch_unwind(|| asset::gltf::parse(c.file, &c.bytes, None));
        let result = result.unwrap_or_else(|_| panic!("{}: the loader panicked", c.what));
        let err = match result {
            Ok(_) => panic!("{}: loaded", c.what),
            Err(e) => e,
        };
        assert_error(c.what, c.file, &err, c.kind, c.section);
    }
}

#[test]
fn a_missing_external_buffer_is_an_io_error_naming_the_file() {
    let dir = std::env::temp_dir().join(format!("throng-gltf-ext-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let fx = base();
    let path = dir.join("external.gltf");
    std::fs::write(&path, fx.gltf_external("strip%20data.bin")).expect("write");
    let name = path.display().to_string();
    let err = asset::load_file(&path).expect_err("missing buffer");
    assert_error(
        "missing external buffer",
        &name,
        &err,
        ErrorKind::Io,
        "buffers[0]",
    );
    assert!(err.to_string().contains("strip data.bin"), "{err}");
    // With the file in place (a percent-escaped name) the model loads.
    std::fs::write(dir.join("strip data.bin"), &fx.bin).expect("write bin");
    let model = asset::load_file(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (model.format(), model.name(), model.joint_count()),
        ("gltf", "external", 3)
    );
    // Upper-case extensions pick the loader too; unknown ones do not.
    let upper = dir.join("UPPER.GLB");
    std::fs::write(&upper, fx.glb()).expect("write glb");
    assert_eq!(asset::load_file(&upper).expect("loads").format(), "glb");
    // Without the `assimp` feature, an extension no native loader claims names the feature;
    // with it, Assimp gets the file (tests/assimp_loader.rs).
    #[cfg(not(feature = "assimp"))]
    {
        let other = dir.join("model.obj");
        std::fs::write(&other, fx.glb()).expect("write obj");
        let err = asset::load_file(&other).expect_err("unknown format");
        assert_eq!(err.kind, ErrorKind::Unsupported);
        assert!(err.to_string().contains("unknown model format"));
        assert!(err.to_string().contains("`assimp` cargo feature"));
    }
    #[cfg(unix)]
    {
        // A link inside the folder that leads out of it is refused.
        let outside =
            std::env::temp_dir().join(format!("throng-gltf-outside-{}.bin", std::process::id()));
        std::fs::write(&outside, &fx.bin).expect("write outside");
        std::os::unix::fs::symlink(&outside, dir.join("link.bin")).expect("symlink");
        let linked = dir.join("linked.gltf");
        std::fs::write(&linked, fx.gltf_external("link.bin")).expect("write");
        let err = asset::load_file(&linked).expect_err("escapes through a link");
        assert_error(
            "link out of the folder",
            &linked.display().to_string(),
            &err,
            ErrorKind::Unsupported,
            "buffers[0]",
        );
        std::fs::remove_file(&outside).ok();
    }
    std::fs::remove_dir_all(&dir).ok();
}
