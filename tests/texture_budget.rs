//! Large images in small files (issue 11): loading keeps a texture's encoded bytes, once per
//! source, and never decodes it; its decoded size is charged to the load's budget, and a
//! texture that does not fit is left out with a warning (the model still loads); decoding is
//! held to the size the header promised. Peak heap use is measured with a counting allocator
//! (this test binary's global allocator).

mod common;
#[path = "common/counting_alloc.rs"]
mod counting_alloc;
mod gltf_common;
mod m3d_samples;

use std::io::Write;
use std::path::PathBuf;

use counting_alloc::{peak_of, serial};
use gltf_common::fixture::{Fixture, UNSIGNED_BYTE};
use serde_json::json;
use throng::asset::{self, LoadOptions, texture};

#[global_allocator]
static ALLOCATOR: counting_alloc::Counting = counting_alloc::Counting;

const SIDE: u32 = 13000;
/// What any of these loads may use: the decoded image would be 676 MB.
const SMALL: usize = 32 << 20;

/// A budget that holds the huge texture (its 13000x13000 pixels with mips: 901 MB), named
/// with `--max-memory`.
fn generous() -> LoadOptions {
    LoadOptions {
        max_memory: Some(2 << 30),
        ..LoadOptions::default()
    }
}

/// A 13000x13000 grey PNG of one value, written row by row (a few hundred KB).
fn huge_png() -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, SIDE, SIDE);
        enc.set_color(png::ColorType::Grayscale);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Balanced);
        let mut writer = enc.write_header().expect("header");
        let mut stream = writer.stream_writer().expect("stream");
        let row = vec![77u8; SIDE as usize];
        for _ in 0..SIDE {
            stream.write_all(&row).expect("row");
        }
        stream.finish().expect("finish");
    }
    out
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("throng-texbudget-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch");
    dir
}

#[test]
fn sixteen_images_over_one_huge_png_view_are_one_texture_never_decoded() {
    let _serial = serial();
    let png = huge_png();
    assert!(png.len() < 1 << 20, "{} bytes", png.len());
    let mut fx = Fixture::strip([0, 1, 2]);
    let acc = fx.add(&png, UNSIGNED_BYTE, png.len(), "SCALAR", false);
    let view = fx.json["accessors"][acc]["bufferView"].clone();
    fx.json["images"] = json!(
        (0..16)
            .map(|_| json!({"bufferView": view, "mimeType": "image/png"}))
            .collect::<Vec<_>>()
    );
    fx.json["textures"] = json!((0..16).map(|i| json!({"source": i})).collect::<Vec<_>>());
    let materials = fx.json["materials"].as_array_mut().expect("materials");
    materials[0]["pbrMetallicRoughness"]["baseColorTexture"] = json!({"index": 0});
    materials[0]["normalTexture"] = json!({"index": 15});
    for i in 1..15 {
        materials.push(json!({"pbrMetallicRoughness": {"baseColorTexture": {"index": i}}}));
    }
    let glb = fx.glb();
    // Under the file's own budget the texture is left out, with one warning saying why.
    let (loaded, peak) = peak_of(|| asset::gltf::parse_with_warnings("huge.glb", &glb, None));
    let (model, warnings) = loaded.expect("loads without the texture");
    assert!(peak < SMALL, "loading peaked at {peak} bytes");
    assert!(model.mesh().textures.is_empty());
    assert!(
        model
            .mesh()
            .materials
            .iter()
            .all(|m| m.base_color_texture.is_none())
    );
    let left_out: Vec<&String> = warnings.iter().filter(|w| w.contains("left out")).collect();
    assert_eq!(left_out.len(), 1, "{warnings:#?}");
    eprintln!("{}", left_out[0]);
    assert!(
        left_out[0].starts_with("huge.glb: images[0]: the image is left out: its 13000x13000 pixels decoded with their mip chain need 901.3 MB, over the load budget of "),
        "{}",
        left_out[0]
    );
    assert!(
        left_out[0].contains("(64 MiB + 32 x the "),
        "{}",
        left_out[0]
    );
    // With --max-memory raised it is kept: one source, one texture, never decoded at load.
    let (loaded, peak) =
        peak_of(|| asset::gltf::parse_with_options("huge.glb", &glb, None, &generous()));
    let (model, _) = loaded.expect("loads");
    assert!(peak < SMALL, "loading peaked at {peak} bytes");
    let mesh = model.mesh();
    assert_eq!(mesh.textures.len(), 1, "one source, one texture");
    assert_eq!(
        (mesh.textures[0].width, mesh.textures[0].height),
        (SIDE, SIDE)
    );
    assert!(
        mesh.materials
            .iter()
            .take(15)
            .all(|m| m.base_color_texture == Some(0))
    );
    assert_eq!(mesh.materials[0].normal_texture, Some(0));
}

#[test]
fn one_embedded_huge_png_costs_its_bytes_not_its_pixels() {
    let _serial = serial();
    let png = huge_png();
    let dir = scratch("embedded");
    let mut fx = Fixture::strip([0, 1, 2]);
    let acc = fx.add(&png, UNSIGNED_BYTE, png.len(), "SCALAR", false);
    let view = fx.json["accessors"][acc]["bufferView"].clone();
    fx.json["images"] = json!([{"bufferView": view, "mimeType": "image/png"}]);
    fx.json["textures"] = json!([{"source": 0}]);
    fx.json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"] = json!({"index": 0});
    let path = dir.join("one.glb");
    std::fs::write(&path, fx.glb()).expect("write");
    let (model, peak) = peak_of(|| asset::load_file(&path).expect("loads"));
    assert!(peak < SMALL, "loading peaked at {peak} bytes");
    assert!(model.mesh().textures.is_empty(), "over the file's budget");
    let (model, peak) = peak_of(|| asset::load_file_with(&path, &generous()).expect("loads"));
    assert!(peak < SMALL, "loading peaked at {peak} bytes");
    // A texture whose header promised less than its image holds: the decoder stops at the
    // promise instead of allocating the image.
    let mut t = model.mesh().textures[0].clone();
    t.width = 100;
    t.height = 100;
    let (result, peak) = peak_of(|| texture::decode(&t));
    assert!(result.is_err());
    assert!(peak < SMALL, "a refused decode peaked at {peak} bytes");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn four_huge_pngs_named_by_an_m3d_are_not_decoded_at_load() {
    let _serial = serial();
    let png = huge_png();
    let dir = scratch("m3d");
    // Every map the sample names becomes its own copy of the huge PNG (the content decides
    // the format, whatever the extension).
    let mut names: Vec<&str> = m3d_samples::SKINNED
        .lines()
        .filter_map(|l| {
            l.strip_prefix("DiffuseMap: ")
                .or_else(|| l.strip_prefix("NormalMap: "))
        })
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    names.sort_unstable();
    names.dedup();
    assert!(names.len() >= 2, "{names:?}");
    for (i, name) in names.iter().enumerate() {
        // Distinct files: differ in one trailing byte after IEND (ignored by readers).
        let mut bytes = png.clone();
        bytes.push(i as u8);
        std::fs::write(dir.join(name), &bytes).expect("write");
    }
    let file = dir.join("huge.m3d");
    std::fs::write(&file, m3d_samples::SKINNED).expect("write");
    let (model, peak) = peak_of(|| asset::load_file(&file).expect("loads"));
    assert!(peak < SMALL, "loading peaked at {peak} bytes");
    assert!(
        model.mesh().textures.is_empty(),
        "each 901 MB texture is over the budget of the model and its files"
    );
    // 8 GB holds all of them (each is charged once, however many materials name it).
    let enough = LoadOptions {
        max_memory: Some(8 << 30),
        ..LoadOptions::default()
    };
    let (model, peak) = peak_of(|| asset::load_file_with(&file, &enough).expect("loads"));
    assert!(peak < SMALL, "loading peaked at {peak} bytes");
    assert_eq!(model.mesh().textures.len(), names.len());
    assert!(
        model
            .mesh()
            .textures
            .iter()
            .all(|t| (t.width, t.height) == (SIDE, SIDE))
    );
    std::fs::remove_dir_all(&dir).ok();
}
