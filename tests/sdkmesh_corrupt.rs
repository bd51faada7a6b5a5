//! Corrupt SDKMESH and `.sdkmesh_anim` inputs: each is refused with one error line of the
//! expected kind naming the file, the section and what is wrong. Damage is applied to small
//! generated files at the offsets of the fields it breaks.

mod sdkmesh_samples;

use throng::asset::sdkmesh::{self, AnimationFile};
use throng::asset::{ErrorKind, LoadError};

use sdkmesh_samples::{FRAME_SIZE, patch, standard_animation, standard_model};

fn parse(model: &[u8], anim: Option<&[u8]>) -> Result<throng::anim::SkinnedModel, LoadError> {
    let animation = anim.map(|bytes| AnimationFile {
        name: "bad.sdkmesh_anim",
        bytes,
    });
    sdkmesh::parse("bad.sdkmesh", model, animation, None)
}

fn expect(
    case: &str,
    result: Result<throng::anim::SkinnedModel, LoadError>,
    kind: ErrorKind,
    needle: &str,
) {
    let err = match result {
        Ok(_) => panic!("{case}: loaded"),
        Err(e) => e,
    };
    let line = err.to_string();
    assert!(!line.contains('\n'), "{case}: two lines: {line}");
    assert!(line.starts_with("bad.sdkmesh"), "{case}: {line}");
    assert_eq!(err.kind, kind, "{case}: {line}");
    assert!(line.contains(needle), "{case}: '{needle}' not in: {line}");
}

#[test]
fn the_samples_themselves_load() {
    let (model, _) = standard_model();
    parse(&model, Some(&standard_animation())).expect("valid");
}

#[test]
fn corrupt_models_are_refused_with_one_line_each() {
    let (m, o) = standard_model();
    let u32b = |v: u32| v.to_le_bytes().to_vec();
    let u64b = |v: u64| v.to_le_bytes().to_vec();
    let frame = |i: usize| o.frames + FRAME_SIZE * i;
    #[rustfmt::skip]
    let cases: Vec<(&str, Vec<u8>, ErrorKind, &str)> = vec![
        ("empty", Vec::new(), ErrorKind::Truncated, "header: 1 header"),
        ("header cut", m[..60].to_vec(), ErrorKind::Truncated, "header"),
        ("cut in the frames", m[..frame(2) + 10].to_vec(), ErrorKind::Truncated, "run past the end"),
        ("cut in the index data", m[..m.len() - 3].to_vec(), ErrorKind::Truncated, "index buffer 0"),
        ("version 100", patch(&m, 0, &u32b(100)), ErrorKind::Unsupported, "version 100"),
        ("big-endian", patch(&m, 4, &[1]), ErrorKind::Unsupported, "big-endian"),
        ("billions of frames", patch(&m, 48, &u32b(u32::MAX)), ErrorKind::TooLarge, "frames"),
        ("no frames", patch(&m, 48, &u32b(0)), ErrorKind::CountMismatch, "no frames"),
        ("frame table far away", patch(&m, 88, &u64b(u64::MAX - 4)), ErrorKind::TooLarge, "frames"),
        ("vertex size mismatch", patch(&m, o.vertex_buffer + 8, &u64b(7)), ErrorKind::CountMismatch, "vertex buffer 0"),
        ("stride 0", patch(&m, o.vertex_buffer + 16, &u64b(0)), ErrorKind::Invalid, "stride of 0"),
        ("vertex data past the end", patch(&m, o.vertex_buffer + 280, &u64b(m.len() as u64)), ErrorKind::Truncated, "vertices"),
        ("declaration: unknown type", patch(&m, o.vertex_buffer + 24 + 4, &[40]), ErrorKind::Invalid, "unknown type 40"),
        ("declaration: past the stride", patch(&m, o.vertex_buffer + 24 + 8 * 4 + 2, &[38, 0]), ErrorKind::Invalid, "runs past the 40-byte vertex"),
        ("declaration: no end", patch(&m, o.vertex_buffer + 24 + 8 * 5, &[0, 0, 0, 0, 2, 0, 7, 0].repeat(27)), ErrorKind::Invalid, "no end marker"),
        ("declaration: stream 1", patch(&m, o.vertex_buffer + 24 + 8, &[1, 0]), ErrorKind::Invalid, "stream 1"),
        ("declaration: float indices", patch(&m, o.vertex_buffer + 24 + 16 + 4, &[3]), ErrorKind::Invalid, "BLENDINDICES stored as FLOAT4"),
        ("index type 2", patch(&m, o.index_buffer + 16, &u32b(2)), ErrorKind::Unsupported, "index type 2"),
        ("index count mismatch", patch(&m, o.index_buffer, &u64b(5)), ErrorKind::CountMismatch, "index buffer 0"),
        ("triangle strip", patch(&m, o.subset + 104, &u32b(1)), ErrorKind::Unsupported, "triangle strip; only triangle lists"),
        ("unknown primitive", patch(&m, o.subset + 104, &u32b(77)), ErrorKind::Unsupported, "unknown primitive type 77"),
        ("partial triangle", patch(&m, o.subset + 120, &u64b(5)), ErrorKind::Invalid, "not a whole number of triangles"),
        ("material out of range", patch(&m, o.subset + 100, &u32b(1)), ErrorKind::IndexOutOfRange, "material 1"),
        ("indices past the buffer", patch(&m, o.subset + 112, &u64b(3)), ErrorKind::IndexOutOfRange, "outside the index buffer"),
        ("index out of range", patch(&m, o.index_data + 4, &9u16.to_le_bytes()), ErrorKind::IndexOutOfRange, "names vertex 9"),
        ("base vertex overflow", patch(&m, o.subset + 128, &u64b(u64::MAX)), ErrorKind::IndexOutOfRange, "names vertex"),
        ("mesh: two streams", patch(&m, o.mesh + 100, &[2]), ErrorKind::Unsupported, "2 vertex streams"),
        ("mesh: vertex buffer 3", patch(&m, o.mesh + 104, &u32b(3)), ErrorKind::IndexOutOfRange, "vertex buffer 3"),
        ("mesh: billions of subsets", patch(&m, o.mesh + 172, &u32b(1 << 31)), ErrorKind::TooLarge, "subset indices"),
        ("mesh: influence frame 9", patch(&m, o.mesh + 216, &u64b(o.index_data as u64)), ErrorKind::IndexOutOfRange, "frame influence"),
        ("blend index out of range", patch(&m, o.vertex_data + 40 * 2 + 16, &[0, 5, 0, 0]), ErrorKind::IndexOutOfRange, "blend index 5"),
        ("all weights 0", patch(&m, o.vertex_data + 12, &[0, 0, 0, 0]), ErrorKind::Invalid, "all blend weights are 0"),
        ("parent out of range", patch(&m, frame(2) + 104, &u32b(17)), ErrorKind::IndexOutOfRange, "parent frame 17"),
        ("own parent", patch(&m, frame(2) + 104, &u32b(2)), ErrorKind::ParentOrder, "its own parent"),
        ("parent cycle", patch(&m, frame(1) + 104, &u32b(2)), ErrorKind::ParentOrder, "its own ancestor"),
        ("frame mesh out of range", patch(&m, frame(3) + 100, &u32b(4)), ErrorKind::IndexOutOfRange, "mesh 4"),
        ("NaN matrix", patch(&m, frame(1) + 116, &f32::NAN.to_le_bytes()), ErrorKind::NonFinite, "not finite"),
        ("projective matrix", patch(&m, frame(1) + 116 + 12, &2f32.to_le_bytes()), ErrorKind::Invalid, "not an affine transform"),
        ("singular bind", patch(&m, frame(1) + 116, &[0; 48]), ErrorKind::Invalid, "singular"),
        ("NaN vertex", patch(&m, o.vertex_data, &f32::NAN.to_le_bytes()), ErrorKind::NonFinite, "not finite"),
        ("NaN color", patch(&m, o.material + 1140, &f32::INFINITY.to_le_bytes()), ErrorKind::NonFinite, "diffuse color"),
    ];
    for (case, bytes, kind, needle) in cases {
        expect(case, parse(&bytes, None), kind, needle);
    }
}

#[test]
fn corrupt_animations_are_refused_with_one_line_each() {
    let (m, _) = standard_model();
    let a = standard_animation();
    let u32b = |v: u32| v.to_le_bytes().to_vec();
    let u64b = |v: u64| v.to_le_bytes().to_vec();
    let track_keys = 40 + 112 * 4;
    #[rustfmt::skip]
    let cases: Vec<(&str, Vec<u8>, ErrorKind, &str)> = vec![
        ("empty", Vec::new(), ErrorKind::Truncated, "animation header"),
        ("version 7", patch(&a, 0, &u32b(7)), ErrorKind::Unsupported, "version 7"),
        ("no keys", patch(&a, 16, &u32b(0)), ErrorKind::CountMismatch, "no keys"),
        ("fps 0", patch(&a, 20, &u32b(0)), ErrorKind::Invalid, "AnimationFPS is 0"),
        // Found by the fuzzer: a file with no tracks and four billion keys.
        ("no tracks, many keys", patch(&patch(&a, 12, &u32b(0)), 16, &u32b(u32::MAX)), ErrorKind::TooLarge, "cannot fit"),
        ("many tracks", patch(&a, 12, &u32b(1 << 30)), ErrorKind::TooLarge, "tracks"),
        ("keys cut", a[..a.len() - 8].to_vec(), ErrorKind::Truncated, "track 3"),
        ("key offset far", patch(&a, 40 + 104, &u64b(u64::MAX - 8)), ErrorKind::TooLarge, "track 0"),
        ("NaN key", patch(&a, track_keys + 80 + 4, &f32::NAN.to_le_bytes()), ErrorKind::NonFinite, "key 0"),
        ("tiny quaternion", patch(&a, track_keys + 80 + 12, &1e-30f32.to_le_bytes()), ErrorKind::Invalid, "zero quaternion"),
    ];
    for (case, bytes, kind, needle) in cases {
        let err = parse(&m, Some(&bytes)).expect_err(case);
        let line = err.to_string();
        assert!(!line.contains('\n'), "{case}: {line}");
        assert!(line.starts_with("bad.sdkmesh_anim"), "{case}: {line}");
        assert_eq!(err.kind, kind, "{case}: {line}");
        assert!(line.contains(needle), "{case}: '{needle}' not in: {line}");
    }
}
