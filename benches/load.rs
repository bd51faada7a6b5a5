//! Model loading speed: parsing the `.m3d` soldier (3.9 MB of text), the same soldier as
//! SDKMESH (1 MB binary plus its 210 KB `.sdkmesh_anim`), the DirectX SDK's `tiny.x`
//! (1.5 MB of text) and Assimp's `huesitos.fbx` (112 KB binary FBX) into a `SkinnedModel`.
//! With the `assimp` feature the same FBX file is also loaded through Assimp in the same run
//! (`huesitos.fbx (assimp)`), which includes the probe import in a child process that every
//! Assimp load does.
//!
//! `cargo bench --bench load` (each file is read once, outside the timed loop; the timed part is
//! the parser without a texture folder, so no file-system access is measured).
//!
//! The `lod` group times what generating the mesh levels of detail adds to a load
//! (`asset::lod::generate`, run on the parsed model): the built-in character, the `.m3d`
//! soldier, and `tiny.x`; the same run's `load` figures are the load without it. The
//! `vertex_reuse` group times merging identical vertices and ordering triangles and vertices
//! for reuse (`asset::vertex_reuse::optimize`), which every load through `load_model` adds.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use throng::asset::sdkmesh::{self, AnimationFile};
use throng::asset::{builtin, fbx, lod, m3d, vertex_reuse, x};

fn shared_asset(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/assets")
        .join(relative)
}

fn load(c: &mut Criterion) {
    let path = shared_asset("m3d/soldier.m3d");
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("{} is missing; skipping the load benchmark", path.display());
        return;
    };
    let mut group = c.benchmark_group("load");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("soldier.m3d", |b| {
        b.iter(|| m3d::parse("soldier.m3d", black_box(&bytes), None).expect("the soldier loads"))
    });
    group.finish();
}

fn load_tiny_x(c: &mut Criterion) {
    let path = shared_asset("dxsdk/tiny.x");
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("{} is missing; skipping its load benchmark", path.display());
        return;
    };
    let mut group = c.benchmark_group("load");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("tiny.x", |b| {
        b.iter(|| x::parse("tiny.x", black_box(&bytes), None).expect("tiny.x loads"))
    });
    group.finish();
}

/// The SDKMESH soldier with its animation file, both read once outside the timed loop (the
/// timed part is `sdkmesh::parse` without a texture folder).
fn load_sdkmesh(c: &mut Criterion) {
    let model = shared_asset("dxsdk/soldier.sdkmesh");
    let anim = shared_asset("dxsdk/soldier.sdkmesh_anim");
    let (Ok(bytes), Ok(anim_bytes)) = (std::fs::read(&model), std::fs::read(&anim)) else {
        eprintln!(
            "{} is missing; skipping its load benchmark",
            model.display()
        );
        return;
    };
    let mut group = c.benchmark_group("load");
    group.throughput(Throughput::Bytes((bytes.len() + anim_bytes.len()) as u64));
    group.bench_function("soldier.sdkmesh", |b| {
        b.iter(|| {
            let animation = AnimationFile {
                name: "soldier.sdkmesh_anim",
                bytes: black_box(&anim_bytes),
            };
            sdkmesh::parse("soldier.sdkmesh", black_box(&bytes), Some(animation), None)
                .expect("the soldier loads")
        })
    });
    group.finish();
}

/// `huesitos.fbx` through the native loader (ufbx), and through Assimp when it is built in.
fn load_fbx(c: &mut Criterion) {
    let path = shared_asset("assimp/huesitos.fbx");
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("{} is missing; skipping its load benchmark", path.display());
        return;
    };
    let mut group = c.benchmark_group("load");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("huesitos.fbx", |b| {
        b.iter(|| fbx::parse("huesitos.fbx", black_box(&bytes), None).expect("huesitos loads"))
    });
    #[cfg(feature = "assimp")]
    group.bench_function("huesitos.fbx (assimp)", |b| {
        b.iter(|| {
            throng::asset::assimp::parse_with_warnings("huesitos.fbx", black_box(&bytes), "fbx")
                .expect("huesitos loads through Assimp")
        })
    });
    group.finish();
}

/// Level-of-detail generation alone, on models parsed once outside the timed loop.
fn lods(c: &mut Criterion) {
    let mut group = c.benchmark_group("lod");
    let model = builtin::model().expect("the built-in character");
    group.bench_function("builtin", |b| b.iter(|| lod::generate(black_box(&model))));
    for (name, parse) in [
        (
            "soldier.m3d",
            (|bytes: &[u8]| m3d::parse("soldier.m3d", bytes, None)) as fn(&[u8]) -> _,
        ),
        ("tiny.x", |bytes: &[u8]| x::parse("tiny.x", bytes, None)),
    ] {
        let path = shared_asset(if name == "tiny.x" {
            "dxsdk/tiny.x"
        } else {
            "m3d/soldier.m3d"
        });
        let Ok(bytes) = std::fs::read(&path) else {
            eprintln!("{} is missing; skipping its lod benchmark", path.display());
            continue;
        };
        let model = parse(&bytes).expect("the model loads");
        group.bench_function(name, |b| b.iter(|| lod::generate(black_box(&model))));
    }
    group.finish();
}

/// Vertex reuse alone (merging identical vertices, ordering triangles and vertices), on models
/// parsed once outside the timed loop.
fn reuse(c: &mut Criterion) {
    let mut group = c.benchmark_group("vertex_reuse");
    let model = builtin::model().expect("the built-in character");
    group.bench_function("builtin", |b| {
        b.iter(|| vertex_reuse::optimize(black_box(model.mesh()), &[]))
    });
    let path = shared_asset("m3d/soldier.m3d");
    if let Ok(bytes) = std::fs::read(&path) {
        let model = m3d::parse("soldier.m3d", &bytes, None).expect("the model loads");
        group.bench_function("soldier.m3d", |b| {
            b.iter(|| vertex_reuse::optimize(black_box(model.mesh()), &[]))
        });
    } else {
        eprintln!(
            "{} is missing; skipping its vertex reuse benchmark",
            path.display()
        );
    }
    group.finish();
}

criterion_group!(
    benches,
    load,
    load_tiny_x,
    load_sdkmesh,
    load_fbx,
    lods,
    reuse
);
criterion_main!(benches);
